import Foundation
import XCTest

@testable import HabitCore

/// SHA-256 against the FIPS 180-4 examples, and how a policy combines verdicts.
final class ProofTests: XCTestCase {
    func testSHA256MatchesTheStandardVectors() {
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length around the block and padding boundaries (55, 56, 63, 64 ... bytes)
    /// hashes as coreutils' sha256sum does, for seeded random bytes.
    func testSHA256MatchesSha256sumAtEveryPaddingBoundary() throws {
        var random = SplitMix(seed: 0x5A256)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [(URL, [UInt8])] = []
        for length in Array(0...130) + [183, 184, 191, 192, 1_000, 4_159] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let file = directory.appendingPathComponent("\(length)")
            try Data(bytes).write(to: file)
            files.append((file, bytes))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = files.map(\.0.path)
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = output.split(separator: "\n")
        XCTAssertEqual(lines.count, files.count)
        for (line, (file, bytes)) in zip(lines, files) {
            XCTAssertEqual(String(line.prefix(64)), SHA256.hex(bytes), "\(bytes.count) bytes")
            XCTAssertTrue(line.hasSuffix(file.path))
        }
    }

    func verdict(_ id: String, _ outcome: Outcome, _ confidence: Double) -> Verdict {
        Verdict(
            stage: .verifier, verifierId: id, verifierVersion: "1", outcome: outcome, confidence: confidence, reasonCode: outcome.name,
            message: "said so")
    }

    func testTextForFixedCBuffersIsCutOnlyBetweenCharacters() {
        // What hc_proof_result's and the plugin's fixed buffers receive.
        XCTAssertEqual(TextRules.utf8Prefix("café", maxBytes: 63), Array("café".utf8), "a text that fits is kept whole")
        XCTAssertEqual(TextRules.utf8Prefix("café", maxBytes: 4), Array("caf".utf8), "half an é is left out")
        XCTAssertEqual(TextRules.utf8Prefix("a😀", maxBytes: 4), Array("a".utf8))
        XCTAssertEqual(TextRules.utf8Prefix("a😀", maxBytes: 5), Array("a😀".utf8))
        XCTAssertEqual(TextRules.utf8Prefix("abc", maxBytes: 0), [])
        XCTAssertEqual(TextRules.trimmingSpaces("  a b  "), "a b")
    }

    func testAPolicyCombinesVerdictsAndNeverApprovesByDefault() {
        var policy = ProofPolicy()
        XCTAssertEqual(policy.decide([]).outcome, .needsReview, "no verifier: a person decides")
        XCTAssertEqual(policy.decide([verdict("a", .approved, 0.9), verdict("b", .approved, 0.85)]).outcome, .approved)
        XCTAssertEqual(policy.decide([verdict("a", .approved, 0.9), verdict("b", .approved, 0.6)]).outcome, .needsReview)
        XCTAssertEqual(policy.decide([verdict("a", .approved, 0.9), verdict("b", .approved, 0.3)]).reason, "low_confidence")
        XCTAssertEqual(policy.decide([verdict("a", .approved, 0.9), verdict("b", .error, 0)]).outcome, .error)
        XCTAssertEqual(policy.decide([verdict("a", .error, 0), verdict("b", .rejected, 1)]).outcome, .rejected)
        policy.mode = .any
        XCTAssertEqual(policy.decide([verdict("a", .error, 0), verdict("b", .approved, 0.95)]).outcome, .approved)
        XCTAssertEqual(policy.decide([verdict("a", .error, 0), verdict("b", .rejected, 0.95)]).outcome, .rejected)
        XCTAssertEqual(policy.decide([verdict("a", .error, 0)]).outcome, .error)
        XCTAssertEqual(policy.decide([verdict("a", .approved, .nan).sanitized()]).outcome, .rejected, "NaN confidence is 0")
    }

    func testTheOnePerDayRuleRefusesASecondApprovalOnlyWhenThePolicyAsksForOne() {
        var policy = ProofPolicy()
        XCTAssertTrue(policy.admitsAnotherApproval(dayHasApprovedProof: false))
        XCTAssertFalse(policy.admitsAnotherApproval(dayHasApprovedProof: true))
        policy.onePerDay = false
        XCTAssertTrue(policy.admitsAnotherApproval(dayHasApprovedProof: false))
        XCTAssertTrue(policy.admitsAnotherApproval(dayHasApprovedProof: true))
    }

    func testAWindowMayWrapPastMidnight() {
        var policy = ProofPolicy()
        policy.window = (300, 600)
        XCTAssertTrue(policy.admits(minuteOfDay: 300))
        XCTAssertFalse(policy.admits(minuteOfDay: 600))
        policy.window = (1320, 120)
        XCTAssertTrue(policy.admits(minuteOfDay: 1400))
        XCTAssertTrue(policy.admits(minuteOfDay: 60))
        XCTAssertFalse(policy.admits(minuteOfDay: 720))
    }
}
