import CHabitCore
import Foundation
import XCTest

/// proofcheck (libhabitcore_proofcheck.so), loaded as a plugin through the C functions
/// like any other, on real photographs: Debian's forensics-samples-files (phone JPEGs
/// with EXIF and GPS, a GIMP-edited photo, a WhatsApp copy; CC-BY-SA-4.0) and the
/// goexif test data (BSD-2), both installed by .ci/run, plus copies the test makes
/// with Pillow (Tests/fixtures/transform.py).
final class ProofcheckTests: ProofTestCase {
    static let forensics = "/usr/share/forensics-samples/original-files"
    static let goexif = "/usr/share/gocode/src/github.com/rwcarlsen/goexif/exif"
    static let transform = fixtures + "/transform.py"
    static var plugin: String { Paths.buildDir + "/libhabitcore_proofcheck.so" }

    /// Distinct photographs: none may be taken for another.
    static let photos = [
        forensics + "/pic1/IMG_20200827_231612.jpg", forensics + "/pic2/IMG_20191224_234846.jpg",
        forensics + "/pic2/IMG_20200124_231153.jpg", forensics + "/pic2/IMG_20200608_111614.jpg",
        forensics + "/pic1/IMG-20191006-WA0002.jpg", forensics + "/pic1/IMG_1054.JPG", goexif + "/sample1.jpg",
        forensics + "/pic2/d-debian.jpg", forensics + "/pic1/debian_logo.jpg",
    ]

    var habit: Int64 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        for path in Self.photos + [Self.goexif + "/corrupt"] where !FileManager.default.fileExists(atPath: path) {
            throw XCTSkip("\(path) is missing: install forensics-samples-files and golang-github-rwcarlsen-goexif-dev (.ci/run does)")
        }
        habit = createHabit(store, "Made bed")
        ok(addPlugin(HC_PLUGIN_SHARED_OBJECT, Self.plugin))
        policy(habit, "proofcheck", onePerDay: false)
    }

    /// proofcheck's verdict on a file, recorded nowhere (it still sees the store's fingerprints).
    func check(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> Result {
        var result = hc_proof_result()
        result.struct_size = UInt32(MemoryLayout<hc_proof_result>.size)
        ok(hc_plugin_test(&result, store, "proofcheck", path), file: file, line: line)
        let reason = withUnsafeBytes(of: &result.reason_code) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let message = withUnsafeBytes(of: &result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Result(outcome: result.outcome, proofId: 0, entryId: 0, reason: reason, message: message)
    }

    /// The signals proofcheck named for a submitted proof.
    func signals(_ proofId: Int64) -> String {
        var list: OpaquePointer?
        ok(hc_verdict_list_open(&list, store, 0, proofId))
        defer { hc_verdict_list_free(list) }
        var count: Int64 = 0
        ok(hc_verdict_list_count(&count, list))
        for index in 0..<count {
            var verdict: UnsafePointer<hc_verdict>?
            ok(hc_verdict_list_get(&verdict, list, index))
            if let verdict, String(cString: verdict.pointee.verifier_id) == "proofcheck" { return String(cString: verdict.pointee.signals) }
        }
        return ""
    }

    func pillow(_ arguments: [String]) throws {
        XCTAssertSucceeded(try runProcess(["/usr/bin/python3", Self.transform] + arguments), "transform.py \(arguments.first ?? "")")
    }

    // MARK: Reuse

    func testDistinctPhotosPassAndEachSignalIsNamed() {
        var verdicts: [String: Result] = [:]
        for photo in Self.photos {
            let result = submit(habit, photo)
            XCTAssertNotEqual(result.reason, "reused_evidence", "\(photo) was taken for another photo: \(result.message)")
            verdicts[(photo as NSString).lastPathComponent] = result
        }
        // Phone photos from 2019-2020 are from another day than today's proof.
        for name in ["IMG_20200827_231612.jpg", "IMG_20191224_234846.jpg", "IMG_20200124_231153.jpg", "IMG_20200608_111614.jpg"] {
            XCTAssertEqual(verdicts[name]?.outcome, HC_OUTCOME_NEEDS_REVIEW, name)
            XCTAssertEqual(verdicts[name]?.reason, "taken_another_day", name)
            XCTAssertTrue(verdicts[name]?.message.contains("(gps)") ?? false, "the GPS date fixes the instant: \(verdicts[name]?.message ?? "")")
        }
        XCTAssertEqual(verdicts["IMG-20191006-WA0002.jpg"]?.reason, "reencoded_without_exif")
        let gimp = verdicts["IMG_1054.JPG"]
        XCTAssertEqual(gimp?.outcome, HC_OUTCOME_NEEDS_REVIEW)
        XCTAssertEqual(signals(gimp?.proofId ?? 0), "edited,exif_dates_disagree,taken_another_day")
        XCTAssertTrue(gimp?.message.contains("GIMP 2.10.18") ?? false, gimp?.message ?? "")
        // Without EXIF and at high JPEG quality: nothing to say against it.
        XCTAssertEqual(verdicts["d-debian.jpg"]?.outcome, HC_OUTCOME_APPROVED, verdicts["d-debian.jpg"]?.message ?? "")
        XCTAssertEqual(currentStreak(habit), 1, "the approved proof completed today")
    }

    func testEveryTransformedCopyOfASubmittedPhotoIsCaughtAsReused() throws {
        let sources = [Self.forensics + "/pic1/IMG_20200827_231612.jpg", Self.forensics + "/pic1/IMG_1054.JPG", Self.goexif + "/sample1.jpg"]
        let names = ["recompressed.jpg", "resized.jpg", "brightened.jpg", "mirrored.jpg", "rotated.jpg", "cropped-centre.jpg",
                     "cropped-corner.jpg", "letterboxed.png", "pillarboxed.jpg"]
        for source in sources {
            let original = submit(habit, source)
            XCTAssertNotEqual(original.reason, "reused_evidence")
            let copies = dir + "/copies-\(original.proofId)"
            try FileManager.default.createDirectory(atPath: copies, withIntermediateDirectories: true)
            try pillow(["copies", source, copies])
            for name in names {
                // Tested, not submitted: each copy meets only the originals.
                let verdict = check(copies + "/" + name)
                XCTAssertEqual(verdict.outcome, HC_OUTCOME_REJECTED, "\(name) of \(source)")
                XCTAssertEqual(verdict.reason, "reused_evidence", "\(name) of \(source): \(verdict.message)")
                XCTAssertTrue(verdict.message.contains("proof #\(original.proofId) "), "\(name) names its original: \(verdict.message)")
            }
        }
        // The same picture as JPEG and as PNG is the same evidence.
        let jpeg = submit(habit, Self.forensics + "/pic2/d-debian.jpg")
        let png = submit(habit, Self.forensics + "/pic2/d-debian.png")
        XCTAssertEqual(png.reason, "reused_evidence", png.message)
        XCTAssertTrue(png.message.contains("proof #\(jpeg.proofId) "), png.message)
        XCTAssertEqual(png.entryId, 0)
    }

    func testHashesAreWithinTenBitsOfMetasReferenceImplementation() throws {
        let python = Paths.root + "/.build/pdq-reference/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI must build the PDQ reference (.ci/run)") }
            throw XCTSkip("no PDQ reference at \(python): .ci/run makes it (python3 -m venv, pip install pdqhash numpy pillow)")
        }
        let photos = Self.photos + [Self.forensics + "/pic2/d-debian.png", Self.forensics + "/pic1/debian.png"]
        var proofIds: [String: Int64] = [:]
        for photo in photos { proofIds[photo] = submit(habit, photo).proofId }
        let reference = try runProcess([python, Paths.root + "/scripts/pdq-reference.py"] + photos)
        XCTAssertSucceeded(reference, "pdq-reference.py")
        let stored = try runProcess(["sqlite3", dir + "/store.db", "SELECT proof_id, hex(value) FROM proof_fingerprints WHERE kind = 'pdq'"])
        XCTAssertSucceeded(stored, "reading the kept fingerprints")
        var ours: [Int64: (hash: [UInt8], quality: Int)] = [:]
        for line in stored.stdout.split(separator: "\n") {
            let parts = line.split(separator: "|")
            guard parts.count == 2, let id = Int64(parts[0]) else { continue }
            let bytes = hexBytes(String(parts[1]))
            // Format 1: version, count, then quality and 32 bytes per hash; the first hash is the photo as it is.
            guard bytes.count >= 35, bytes[0] == 1 else { XCTFail("fingerprint \(line) is not format 1"); continue }
            ours[id] = (Array(bytes[3..<35]), Int(bytes[2]))
        }
        var distances: [String] = []
        for line in reference.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3, let id = proofIds[parts[2]], let mine = ours[id] else { XCTFail("no hash of \(line)"); continue }
            // The reference's hex is most significant first; ours is stored least significant byte first.
            let theirs = Array(hexBytes(parts[0]).reversed())
            let distance = zip(theirs, mine.hash).reduce(0) { $0 + ($1.0 ^ $1.1).nonzeroBitCount }
            XCTAssertLessThanOrEqual(distance, 10, "\(parts[2]): \(distance) bits from the reference")
            XCTAssertEqual(Int(parts[1]), mine.quality, "\(parts[2]): quality")
            distances.append("\((parts[2] as NSString).lastPathComponent)=\(distance)")
        }
        XCTAssertEqual(distances.count, photos.count)
        print("PDQ distance to the reference: " + distances.joined(separator: " "))
    }

    private func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), index < text.endIndex {
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    // MARK: Capture time, screenshots, downloads, edits

    /// The wall-clock time in São Paulo (UTC-3 all year) `seconds` from now, as EXIF writes it.
    private func saoPauloTime(_ seconds: Int64) -> String {
        let local = Int64(Date().timeIntervalSince1970) + seconds - 3 * 3600
        var buffer = [CChar](repeating: 0, count: Int(HC_DATE_BUFSIZE))
        ok(hc_date_format(&buffer, Int32(buffer.count), Int32(local / 86_400)))
        let date = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).replacingOccurrences(of: "-", with: ":")
        let second = local % 86_400
        return date + String(format: " %02lld:%02lld:%02lld", second / 3600, second % 3600 / 60, second % 60)
    }

    private func photo(_ name: String, _ options: [String]) throws -> String {
        let path = dir + "/" + name
        try pillow(["exif", Self.forensics + "/pic1/IMG_1054.JPG", path] + options)
        return path
    }

    func testCaptureTimeAndMetadataSignals() throws {
        ok(hc_store_set_timezone(store, "America/Sao_Paulo"))
        let camera = ["--make", "Canon", "--model", "PowerShot SX530 HS"]
        let now = saoPauloTime(-60), yesterday = saoPauloTime(-86_400)
        let utcNow = saoPauloTime(-60 + 3 * 3600)
        let cases: [(String, [String], Int32, String)] = [
            ("fresh.jpg", camera + ["--taken", now, "--changed", now, "--offset=-03:00"], HC_OUTCOME_APPROVED, "no_findings"),
            ("fresh-gps.jpg", camera + ["--taken", now, "--gps", utcNow], HC_OUTCOME_APPROVED, "no_findings"),
            ("fresh-local.jpg", camera + ["--taken", now], HC_OUTCOME_APPROVED, "no_findings"),
            ("yesterday.jpg", camera + ["--taken", yesterday, "--offset=-03:00"], HC_OUTCOME_NEEDS_REVIEW, "taken_another_day"),
            ("yesterday-gps.jpg", camera + ["--taken", now, "--gps", saoPauloTime(-86_400 + 3 * 3600)], HC_OUTCOME_NEEDS_REVIEW,
             "taken_another_day"),
            ("future.jpg", camera + ["--taken", saoPauloTime(2 * 3600), "--offset=-03:00"], HC_OUTCOME_NEEDS_REVIEW, "taken_after_receipt"),
            ("edited-later.jpg", camera + ["--taken", now, "--changed", saoPauloTime(600), "--offset=-03:00"], HC_OUTCOME_NEEDS_REVIEW,
             "exif_dates_disagree"),
            ("screenshot.jpg", ["--taken", now, "--comment", "Screenshot"], HC_OUTCOME_NEEDS_REVIEW, "screenshot"),
            ("lightroom.jpg", camera + ["--taken", now, "--software", "Adobe Photoshop Lightroom Classic 13.0"], HC_OUTCOME_NEEDS_REVIEW,
             "edited"),
            ("phone-firmware.jpg", camera + ["--taken", now, "--software", "laurel_sprout-user 10 QKQ1.190910.002"], HC_OUTCOME_APPROVED,
             "no_findings"),
            ("messenger.jpg", ["--quality", "70"], HC_OUTCOME_NEEDS_REVIEW, "reencoded_without_exif"),
            ("in-app-camera.jpg", ["--quality", "95"], HC_OUTCOME_APPROVED, "no_findings"),
        ]
        for (name, options, outcome, reason) in cases {
            let verdict = check(try photo(name, options))
            XCTAssertEqual(verdict.outcome, outcome, "\(name): \(verdict.reason) \(verdict.message)")
            XCTAssertEqual(verdict.reason, reason, "\(name): \(verdict.message)")
        }
        let png = check(Self.forensics + "/pic1/debian.png")
        XCTAssertEqual(png.reason, "png_without_camera", png.message)
        // Nothing was kept by testing: the same photo submitted now is no reuse.
        XCTAssertEqual(submit(habit, dir + "/fresh.jpg").outcome, HC_OUTCOME_APPROVED)
    }

    // MARK: What cannot be judged

    func testUndecodableUnsupportedAndSmallFilesAreRejectedWithTheReason() throws {
        XCTAssertEqual(check(Self.fixtures + "/tiny.png").reason, "too_small")
        XCTAssertEqual(check(Self.fixtures + "/README.md").reason, "unsupported_format")
        XCTAssertEqual(check(Self.forensics + "/pic1/empty.jpg").reason, "too_small")
        let cut = dir + "/cut.jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.forensics + "/pic1/IMG_1054.JPG"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let truncated = check(cut)
        XCTAssertEqual(truncated.outcome, HC_OUTCOME_REJECTED)
        XCTAssertEqual(truncated.reason, "undecodable", truncated.message)
        // A configured minimum: 1280x960 is too small for 1000 pixels on the shorter side.
        ok(hc_plugin_configure(store, "proofcheck", "{\"min_side\": 1000}"))
        let small = check(Self.forensics + "/pic1/IMG_1054.JPG")
        XCTAssertEqual(small.reason, "too_small")
        XCTAssertTrue(small.message.contains("1280x960"), small.message)
        // Settings it does not know are an error verdict naming them, never ignored.
        ok(hc_plugin_configure(store, "proofcheck", "{\"min_sidee\": 10}"))
        let typo = check(Self.forensics + "/pic1/IMG_1054.JPG")
        XCTAssertEqual(typo.outcome, HC_OUTCOME_ERROR)
        XCTAssertTrue(typo.message.contains("min_sidee"), typo.message)
    }

    /// Truncated and corrupted JPEG, PNG and EXIF data, judged in this process: every
    /// one gets a verdict with a reason and the host lives on. Cut files never pass.
    func testTruncatedAndCorruptedFilesNeverCrashTheHost() throws {
        var generator = SplitMix(seed: 7)
        // A small real photo with EXIF (goexif's sample1.jpg, 500x375) and a small PNG.
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.goexif + "/sample1.jpg")))
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/bed.png")))
        let signature = Array("Exif\0\0".utf8)
        let exifStart = (0..<(jpeg.count - 6)).first { Array(jpeg[$0..<($0 + 6)]) == signature } ?? 0
        let exifEnd = exifStart - 2 + (Int(jpeg[exifStart - 2]) << 8 | Int(jpeg[exifStart - 1]))
        XCTAssertGreaterThan(exifEnd - exifStart, 1000, "sample1.jpg carries its EXIF in APP1")
        var outcomes: [String: Int] = [:]
        func judge(_ bytes: [UInt8], _ what: String, mustRefuse: Bool) throws {
            let path = dir + "/fuzz.bin"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let verdict = check(path)
            XCTAssertTrue((HC_OUTCOME_APPROVED...HC_OUTCOME_ERROR).contains(verdict.outcome), what)
            XCTAssertFalse(verdict.reason.isEmpty, what)
            if mustRefuse {
                XCTAssertTrue(verdict.outcome == HC_OUTCOME_REJECTED || verdict.outcome == HC_OUTCOME_ERROR, "\(what): \(verdict.reason)")
            }
            outcomes[verdict.reason, default: 0] += 1
        }
        for (name, file) in [("jpeg", jpeg), ("png", png)] {
            for step in 1..<40 { try judge(Array(file.prefix(file.count * step / 40)), "\(name) cut at \(step)/40", mustRefuse: true) }
            for round in 0..<60 {
                var bytes = file
                for _ in 0..<(1 + generator.below(8)) {
                    bytes[generator.below(bytes.count)] = UInt8(truncatingIfNeeded: generator.next())
                }
                try judge(bytes, "\(name) corrupted, round \(round)", mustRefuse: false)
            }
        }
        for round in 0..<120 {
            var bytes = jpeg
            for _ in 0..<(1 + generator.below(4)) {
                bytes[exifStart + generator.below(exifEnd - exifStart)] = UInt8(truncatingIfNeeded: generator.next())
            }
            try judge(bytes, "EXIF corrupted, round \(round)", mustRefuse: false)
        }
        let hostile = try FileManager.default.contentsOfDirectory(atPath: Self.goexif + "/corrupt").map { Self.goexif + "/corrupt/" + $0 }
            + FileManager.default.contentsOfDirectory(atPath: Self.goexif + "/samples").map { Self.goexif + "/samples/" + $0 }
        for path in hostile {
            // goexif's samples keep the EXIF and cut the image: all undecodable.
            try judge([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), path, mustRefuse: true)
        }
        print("proofcheck fuzz verdicts: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        XCTAssertEqual(submit(habit, Self.forensics + "/pic2/d-debian.jpg").outcome, HC_OUTCOME_APPROVED, "the host still works")
    }
}
