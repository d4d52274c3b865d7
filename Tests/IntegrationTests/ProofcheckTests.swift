import CHabitCore
import Foundation
import HabitCore
import XCTest

/// proofcheck (libhabitcore_proofcheck.so), loaded as a plugin through the C functions
/// like any other, on real photographs committed under Tests/fixtures/photos (their
/// sources and licences are in Tests/fixtures/README.md): phone JPEGs with EXIF and GPS,
/// a GIMP-edited photo, a WhatsApp copy, goexif's hostile samples, and the copies a
/// cheat would make of three of them.
final class ProofcheckTests: ProofTestCase {
    static let photosDir = fixtures + "/photos"
    static let originals = photosDir + "/originals"
    static var plugin: String { Paths.buildDir + "/libhabitcore_proofcheck.so" }

    /// Distinct photographs: none may be taken for another.
    static let photos = [
        "IMG_20200827_231612.jpg", "IMG_20191224_234846.jpg", "IMG_20200124_231153.jpg", "IMG_20200608_111614.jpg",
        "IMG-20191006-WA0002.jpg", "IMG_1054.jpg", "sample1.jpg", "d-debian.jpg", "debian_logo.jpg",
    ].map { originals + "/" + $0 }

    var habit: Int64 = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        habit = createHabit(store, "Made bed")
        ok(addPlugin(HC_PLUGIN_SHARED_OBJECT, Self.plugin))
        policy(habit, "proofcheck", onePerDay: false)
    }

    /// proofcheck's verdict on a file, recorded nowhere (it still sees the store's fingerprints).
    func check(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> Result {
        var result = defaults(hc_proof_result_init)
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
        let gimp = verdicts["IMG_1054.jpg"]
        XCTAssertEqual(gimp?.outcome, HC_OUTCOME_NEEDS_REVIEW)
        XCTAssertEqual(signals(gimp?.proofId ?? 0), "edited,exif_dates_disagree,taken_another_day")
        XCTAssertTrue(gimp?.message.contains("GIMP 2.10.18") ?? false, gimp?.message ?? "")
        // Without EXIF and at high JPEG quality: nothing to say against it.
        XCTAssertEqual(verdicts["d-debian.jpg"]?.outcome, HC_OUTCOME_APPROVED, verdicts["d-debian.jpg"]?.message ?? "")
        XCTAssertEqual(currentStreak(habit), 1, "the approved proof completed today")
    }

    func testEveryTransformedCopyOfASubmittedPhotoIsCaughtAsReused() throws {
        let sources = ["IMG_20200827_231612", "IMG_1054", "sample1"]
        let names = [
            "recompressed.jpg", "resized.jpg", "brightened.jpg", "mirrored.jpg", "rotated.jpg", "cropped-centre.jpg",
            "cropped-corner.jpg", "letterboxed.png", "pillarboxed.jpg",
        ]
        for source in sources {
            let original = submit(habit, Self.originals + "/" + source + ".jpg")
            XCTAssertNotEqual(original.reason, "reused_evidence")
            // Made once by Tests/fixtures/transform.py (Pillow) and committed.
            let copies = Self.photosDir + "/copies/" + source
            for name in names {
                // Tested, not submitted: each copy meets only the originals.
                let verdict = check(copies + "/" + name)
                XCTAssertEqual(verdict.outcome, HC_OUTCOME_REJECTED, "\(name) of \(source)")
                XCTAssertEqual(verdict.reason, "reused_evidence", "\(name) of \(source): \(verdict.message)")
                XCTAssertTrue(verdict.message.contains("proof #\(original.proofId) "), "\(name) names its original: \(verdict.message)")
            }
        }
        // The same picture as JPEG and as PNG is the same evidence.
        let jpeg = submit(habit, Self.originals + "/d-debian.jpg")
        let png = submit(habit, Self.originals + "/d-debian.png")
        XCTAssertEqual(png.reason, "reused_evidence", png.message)
        XCTAssertTrue(png.message.contains("proof #\(jpeg.proofId) "), png.message)
        XCTAssertEqual(png.entryId, 0)
    }

    /// Against Meta's reference hashes of the same files, made once by
    /// scripts/pdq-reference.py and committed (Tests/fixtures/photos/pdq-reference.json).
    func testHashesAreWithinTenBitsOfMetasReferenceImplementation() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.photosDir + "/pdq-reference.json"))
        let reference = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        let photos = Self.photos + [Self.originals + "/d-debian.png", Self.originals + "/debian.png"]
        var proofIds: [String: Int64] = [:]
        for photo in photos { proofIds[photo] = submit(habit, photo).proofId }
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
        for photo in photos {
            let name = "originals/" + (photo as NSString).lastPathComponent
            guard let entry = reference[name], let hex = entry["hash"] as? String, let quality = entry["quality"] as? Int else {
                XCTFail("no reference hash for \(name) in pdq-reference.json"); continue
            }
            guard let id = proofIds[photo], let mine = ours[id] else { XCTFail("proofcheck kept no hash of \(name)"); continue }
            // The reference's hex is most significant first; ours is stored least significant byte first.
            let theirs = Array(hexBytes(hex).reversed())
            XCTAssertEqual(theirs.count, 32, name)
            let distance = zip(theirs, mine.hash).reduce(0) { $0 + ($1.0 ^ $1.1).nonzeroBitCount }
            XCTAssertLessThanOrEqual(distance, 10, "\(name): \(distance) bits from the reference")
            XCTAssertEqual(quality, mine.quality, "\(name): quality")
            distances.append("\((name as NSString).lastPathComponent)=\(distance)")
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

    /// The Canon photo without EXIF at a JPEG quality (70, 92 or 95), with exif added if any.
    private func photo(_ name: String, _ exif: ExifFixture?, quality: Int = 92) throws -> String {
        let path = dir + "/" + name
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.photosDir + "/exif/plain-q\(quality).jpg")))
        try Data(exif?.applied(to: plain) ?? plain).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testCaptureTimeAndMetadataSignals() throws {
        ok(hc_store_set_timezone(store, "America/Sao_Paulo"))
        let camera = ExifFixture(make: "Canon", model: "PowerShot SX530 HS")
        func shot(_ change: (inout ExifFixture) -> Void) -> ExifFixture {
            var exif = camera
            change(&exif)
            return exif
        }
        let now = saoPauloTime(-60), yesterday = saoPauloTime(-86_400)
        let utcNow = saoPauloTime(-60 + 3 * 3600)
        let cases: [(String, ExifFixture?, Int, Int32, String)] = [
            (
                "fresh.jpg",
                shot {
                    $0.taken = now; $0.changed = now; $0.offset = "-03:00"
                }, 92, HC_OUTCOME_APPROVED, "no_findings"
            ),
            (
                "fresh-gps.jpg",
                shot {
                    $0.taken = now; $0.gps = utcNow
                }, 92, HC_OUTCOME_APPROVED, "no_findings"
            ),
            ("fresh-local.jpg", shot { $0.taken = now }, 92, HC_OUTCOME_APPROVED, "no_findings"),
            (
                "yesterday.jpg",
                shot {
                    $0.taken = yesterday; $0.offset = "-03:00"
                }, 92, HC_OUTCOME_NEEDS_REVIEW, "taken_another_day"
            ),
            (
                "yesterday-gps.jpg",
                shot {
                    $0.taken = now; $0.gps = self.saoPauloTime(-86_400 + 3 * 3600)
                }, 92, HC_OUTCOME_NEEDS_REVIEW,
                "taken_another_day"
            ),
            (
                "future.jpg",
                shot {
                    $0.taken = self.saoPauloTime(2 * 3600); $0.offset = "-03:00"
                }, 92, HC_OUTCOME_NEEDS_REVIEW,
                "taken_after_receipt"
            ),
            (
                "edited-later.jpg",
                shot {
                    $0.taken = now; $0.changed = self.saoPauloTime(600); $0.offset = "-03:00"
                }, 92,
                HC_OUTCOME_NEEDS_REVIEW, "exif_dates_disagree"
            ),
            ("screenshot.jpg", ExifFixture(taken: now, comment: "Screenshot"), 92, HC_OUTCOME_NEEDS_REVIEW, "screenshot"),
            (
                "lightroom.jpg",
                shot {
                    $0.taken = now; $0.software = "Adobe Photoshop Lightroom Classic 13.0"
                }, 92, HC_OUTCOME_NEEDS_REVIEW,
                "edited"
            ),
            (
                "phone-firmware.jpg",
                shot {
                    $0.taken = now; $0.software = "laurel_sprout-user 10 QKQ1.190910.002"
                }, 92, HC_OUTCOME_APPROVED,
                "no_findings"
            ),
            ("messenger.jpg", nil, 70, HC_OUTCOME_NEEDS_REVIEW, "reencoded_without_exif"),
            ("in-app-camera.jpg", nil, 95, HC_OUTCOME_APPROVED, "no_findings"),
        ]
        for (name, exif, quality, outcome, reason) in cases {
            let verdict = check(try photo(name, exif, quality: quality))
            XCTAssertEqual(verdict.outcome, outcome, "\(name): \(verdict.reason) \(verdict.message)")
            XCTAssertEqual(verdict.reason, reason, "\(name): \(verdict.message)")
        }
        let png = check(Self.originals + "/debian.png")
        XCTAssertEqual(png.reason, "png_without_camera", png.message)
        // Nothing was kept by testing: the same photo submitted now is no reuse.
        XCTAssertEqual(submit(habit, dir + "/fresh.jpg").outcome, HC_OUTCOME_APPROVED)
    }

    // MARK: What cannot be judged

    func testUndecodableUnsupportedAndSmallFilesAreRejectedWithTheReason() throws {
        XCTAssertEqual(check(Self.fixtures + "/tiny.png").reason, "too_small")
        XCTAssertEqual(check(Self.fixtures + "/README.md").reason, "unsupported_format")
        XCTAssertEqual(check(Self.originals + "/empty.jpg").reason, "too_small")
        let cut = dir + "/cut.jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.originals + "/IMG_1054.jpg"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        let truncated = check(cut)
        XCTAssertEqual(truncated.outcome, HC_OUTCOME_REJECTED)
        XCTAssertEqual(truncated.reason, "undecodable", truncated.message)
        // A configured minimum: 480x360 is too small for 400 pixels on the shorter side.
        ok(hc_plugin_configure(store, "proofcheck", "{\"min_side\": 400}"))
        let small = check(Self.originals + "/IMG_1054.jpg")
        XCTAssertEqual(small.reason, "too_small")
        XCTAssertTrue(small.message.contains("480x360"), small.message)
        // Settings it does not know are an error verdict naming them, never ignored.
        ok(hc_plugin_configure(store, "proofcheck", "{\"min_sidee\": 10}"))
        let typo = check(Self.originals + "/IMG_1054.jpg")
        XCTAssertEqual(typo.outcome, HC_OUTCOME_ERROR)
        XCTAssertTrue(typo.message.contains("min_sidee"), typo.message)
    }

    /// Truncated and corrupted JPEG, PNG and EXIF data, judged in this process: every
    /// one gets a verdict with a reason and the host lives on. Cut files never pass.
    func testTruncatedAndCorruptedFilesNeverCrashTheHost() throws {
        var generator = SplitMix(seed: 7)
        // A small real photo with EXIF (goexif's sample1.jpg, 500x375) and a small PNG.
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.originals + "/sample1.jpg")))
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
        let goexif = Self.photosDir + "/goexif"
        let hostile =
            try FileManager.default.contentsOfDirectory(atPath: goexif + "/corrupt").map { goexif + "/corrupt/" + $0 }
            + FileManager.default.contentsOfDirectory(atPath: goexif + "/samples").map { goexif + "/samples/" + $0 }
        XCTAssertEqual(hostile.count, 36, "goexif's 3 hostile files and 33 cut samples")
        for path in hostile {
            // goexif's samples keep the EXIF and cut the image: all undecodable.
            try judge([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), path, mustRefuse: true)
        }
        print("proofcheck fuzz verdicts: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        XCTAssertEqual(submit(habit, Self.originals + "/d-debian.jpg").outcome, HC_OUTCOME_APPROVED, "the host still works")
    }
}
