import HabitCore
import XCTest

@testable import ProofcheckCore

/// proofcheck's pure parts: the EXIF reader and container walk on hostile bytes,
/// PDQ's properties, JPEG quality, capture time and the day rule.
final class ProofcheckCoreTests: XCTestCase {
    /// A little-endian TIFF: IFD0 (Make, Software, DateTime, Exif and GPS pointers),
    /// the Exif IFD (DateTimeOriginal, OffsetTimeOriginal, a UNICODE UserComment) and
    /// the GPS IFD (date, and time as three rationals).
    private func tiff() -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let ifd0 = 8, exif = ifd0 + 2 + 5 * 12 + 4, gps = exif + 2 + 3 * 12 + 4, data = gps + 2 + 2 * 12 + 4
        var blobs: [UInt8] = []
        func text(_ s: String) -> (Int, Int) {
            let bytes = Array(s.utf8) + [0]
            blobs += bytes
            return (data + blobs.count - bytes.count, bytes.count)
        }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] { u16(tag) + u16(type) + u32(count) + u32(value) }
        let make = text("Canon"), software = text("Snapseed 2.0"), changed = text("2026:03:01 07:15:00")
        let taken = text("2026:03:01 07:14:59"), offset = text("+01:00")
        let comment = Array("UNICODE\0".utf8) + Array("Screenshot".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        blobs += comment
        let commentAt = data + blobs.count - comment.count
        let gpsDate = text("2026:03:01")
        let rationalsAt = data + blobs.count
        for value in [6, 14, 59] { blobs += u32(value) + u32(1) }
        out +=
            u16(5) + entry(0x010F, 2, make.1, make.0) + entry(0x0131, 2, software.1, software.0) + entry(0x0132, 2, changed.1, changed.0)
            + entry(0x8769, 4, 1, exif) + entry(0x8825, 4, 1, gps) + u32(0)
        out += u16(3) + entry(0x9003, 2, taken.1, taken.0) + entry(0x9011, 2, offset.1, offset.0) + entry(0x9286, 7, comment.count, commentAt) + u32(0)
        out += u16(2) + entry(0x001D, 2, gpsDate.1, gpsDate.0) + entry(0x0007, 5, 3, rationalsAt) + u32(0)
        return out + blobs
    }

    func testTheEXIFReaderReadsWhatProofcheckUses() throws {
        let facts = try ExifReader.read(tiff()[...])
        XCTAssertEqual(facts.make, "Canon")
        XCTAssertEqual(facts.software, "Snapseed 2.0")
        XCTAssertEqual(facts.dateTime, "2026:03:01 07:15:00")
        XCTAssertEqual(facts.dateTimeOriginal, "2026:03:01 07:14:59")
        XCTAssertEqual(facts.offsetTimeOriginal, "+01:00")
        XCTAssertEqual(facts.userComment, "Screenshot")
        XCTAssertEqual(facts.gpsDate, "2026:03:01")
        XCTAssertEqual(facts.gpsTime, [6, 14, 59])
    }

    func testEveryCutAndEveryByteChangeOfTheEXIFIsReadOrRefusedNeverTrapped() {
        let whole = tiff()
        var refused = 0
        for length in 0..<whole.count {
            do { _ = try ExifReader.read(whole[..<length]) } catch { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 100, "cut headers and IFDs are refused")
        for index in 0..<whole.count {
            for value: UInt8 in [0x00, 0x7F, 0xFF] {
                var changed = whole
                changed[index] = value
                _ = try? ExifReader.read(changed[...])
            }
        }
    }

    func testIFDLoopsAndHugeCountsAreRefused() {
        // IFD0 whose Exif pointer points back at IFD0.
        let loop: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x69, 0x87, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertThrowsError(try ExifReader.read(loop[...]))
        let huge: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0xFF, 0xFF]
        XCTAssertThrowsError(try ExifReader.read(huge[...]))
        // A text claiming 4 GB at an offset past the end is simply absent.
        let lying: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x0F, 0x01, 2, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]
        XCTAssertNil(try ExifReader.read(lying[...]).make)
    }

    func testTheContainerWalkRefusesLyingLengths() {
        XCTAssertThrowsError(try ImageContainer.read(Array("plain text".utf8))) { XCTAssertEqual($0 as? ImageContainer.Failure, .unsupported) }
        // A JPEG APP1 segment claiming more bytes than there are.
        XCTAssertThrowsError(try ImageContainer.read([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45, 0x78]))
        // A PNG whose first chunk claims 2 GB.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x7F, 0xFF, 0xFF, 0xFF] + Array("IHDR".utf8)
        XCTAssertThrowsError(try ImageContainer.read(png))
        // An image without a frame header is not a JPEG.
        XCTAssertThrowsError(try ImageContainer.read([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]))
    }

    func testJPEGQualityIsReadBackFromScaledStandardTables() {
        let standard = [
            16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
            18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112,
            100, 103, 99,
        ]
        for quality in [30, 50, 75, 85, 95] {
            // libjpeg's own scaling (jcparam.c's rule).
            let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
            let table = standard.map { max(1, min(255, ($0 * scale + 50) / 100)) }
            XCTAssertEqual(JPEGQuality.estimate(lumaTable: table) ?? 0, quality, accuracy: 1, "quality \(quality)")
        }
        XCTAssertNil(JPEGQuality.estimate(lumaTable: [1, 2, 3]))
    }

    private func noise(width: Int, height: Int, seed: UInt64) -> LumaImage {
        var state = seed
        let pixels = (0..<(width * height)).map { _ -> Float in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 56)
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }

    func testPDQPropertiesOnSyntheticImages() {
        let flat = PDQ.hash(LumaImage(width: 100, height: 80, pixels: [Float](repeating: 128, count: 8000)))
        XCTAssertEqual(flat.quality, 0, "a flat image has no edges")
        let image = noise(width: 160, height: 120, seed: 1)
        let hash = PDQ.hash(image)
        XCTAssertEqual(hash.words.reduce(0) { $0 + $1.nonzeroBitCount }, 128, "half the bits are above the median")
        XCTAssertEqual(
            PDQ.hash(LumaImage(width: 160, height: 120, pixels: image.pixels.map { min(255, $0 * 0.8 + 20) })).distance(to: hash), 0,
            "a linear change of brightness keeps every bit")
        XCTAssertGreaterThan(PDQ.hash(noise(width: 160, height: 120, seed: 2)).distance(to: hash), 80, "unrelated images are far apart")
        XCTAssertEqual(PDQ.hash(LumaImage(width: 4, height: 4, pixels: [Float](repeating: 1, count: 16))).quality, 0, "too small to hash")
    }

    func testTurningFourTimesIsTheIdentityAndMirroringTwiceToo() {
        let image = noise(width: 7, height: 5, seed: 3)
        let turned = Dihedral.rotate90.apply(Dihedral.rotate90.apply(Dihedral.rotate90.apply(Dihedral.rotate90.apply(image))))
        XCTAssertEqual(turned, image)
        XCTAssertEqual(Dihedral.mirror.apply(Dihedral.mirror.apply(image)), image)
        XCTAssertEqual(Dihedral.rotate90.apply(image).width, 5)
        XCTAssertEqual(Dihedral.transpose.apply(image)[2, 3], image[3, 2])
        // Transposed samples are the samples of the transposed image, which is how
        // proofcheck gets four of its eight orientations without reducing again.
        let photo = noise(width: 300, height: 200, seed: 6)
        for (turn, transposedTurn) in [(Dihedral.original, Dihedral.transpose), (.mirror, .rotate270), (.flip, .rotate90), (.rotate180, .antiTranspose)] {
            let viaSamples = PDQ.hash(samples: PDQ.transposed(PDQ.samples(turn.apply(photo))))
            XCTAssertLessThanOrEqual(viaSamples.distance(to: PDQ.hash(transposedTurn.apply(photo))), 2, "\(transposedTurn)")
        }
    }

    func testAMirroredOrLetterboxedCopyMatchesItsOriginal() {
        let photo = noise(width: 48, height: 36, seed: 4)
        // Smooth it so it looks like a photo to PDQ, at 480x360.
        var pixels = [Float](repeating: 0, count: 480 * 360)
        for row in 0..<360 { for column in 0..<480 { pixels[row * 480 + column] = photo[row / 10, column / 10] } }
        let original = LumaImage(width: 480, height: 360, pixels: pixels)
        let kept = ProofFingerprint.analyse(original).fingerprint
        XCTAssertEqual(kept.bytes.count, 2 + 7 * 33, "the photo, its 5 crops at 95% and one at 90%; no bars to trim")
        let mirrored = ProofFingerprint.analyse(Dihedral.mirror.apply(original)).probes
        XCTAssertEqual(FingerprintMatcher.nearest(mirrored, among: [(7, kept.bytes)], maxDistance: 31, minQuality: 50)?.orientation, .mirror)
        var boxed = [Float](repeating: 0, count: 480 * 600)
        for row in 0..<360 { for column in 0..<480 { boxed[(row + 120) * 480 + column] = pixels[row * 480 + column] } }
        let letterboxed = LumaImage(width: 480, height: 600, pixels: boxed)
        XCTAssertEqual(letterboxed.trimmingUniformBars().height, 360)
        XCTAssertEqual(
            FingerprintMatcher.nearest(
                ProofFingerprint.analyse(letterboxed).probes, among: [(7, kept.bytes)], maxDistance: 31,
                minQuality: 50)?.proofId, 7)
        XCTAssertNil(
            FingerprintMatcher.nearest(
                ProofFingerprint.analyse(noise(width: 480, height: 360, seed: 5)).probes,
                among: [(7, kept.bytes)], maxDistance: 31, minQuality: 50))
        XCTAssertNil(
            FingerprintMatcher.nearest(
                mirrored, among: [(8, [1, 2, 3]), (9, [2] + kept.bytes.dropFirst())], maxDistance: 31,
                minQuality: 50), "bytes of another format are skipped")
    }

    func testCaptureTimeAndTheStoreDay() throws {
        var facts = ExifFacts()
        facts.dateTimeOriginal = "2026:03:01 02:30:00"
        // No offset, no GPS: wall-clock time where the store is.
        XCTAssertEqual(CaptureTime(facts, storeOffsetSeconds: 3600)?.basis, "store_zone")
        facts.gpsDate = "2026:03:01"
        facts.gpsTime = [1, 30, 0]
        XCTAssertEqual(CaptureTime(facts, storeOffsetSeconds: 0)?.basis, "gps")
        facts.offsetTimeOriginal = "+01:00"
        let capture = try XCTUnwrap(CaptureTime(facts, storeOffsetSeconds: 0))
        XCTAssertEqual(capture.basis, "offset")
        XCTAssertEqual(capture.instant, CaptureTime.wallSeconds("2026:03:01 01:30:00"))
        XCTAssertNil(CaptureTime.wallSeconds("2026:02:30 10:00:00"))
        XCTAssertNil(CaptureTime.wallSeconds("2026:03:01 25:00:00"))

        // 02:30 local is still the previous day for a store whose day starts at 04:00.
        let container = ImageContainer(format: .jpeg)
        let receivedMs = (CaptureTime.wallSeconds("2026:03:01 03:00:00") ?? 0) * 1000 - 3_600_000
        let previous = try CivilDate(year: 2026, month: 2, day: 28).dayNumber
        let early = Receipt(atMs: receivedMs, day: previous, utcOffsetSeconds: 3600, dayStartMinutes: 240)
        let signals = MetadataSignals.find(container, exif: .success(facts), receipt: early, config: ProofcheckConfig())
        XCTAssertEqual(signals.map(\.name), [], "the same store day, before receipt")
        let midnight = Receipt(atMs: receivedMs, day: previous + 1, utcOffsetSeconds: 3600, dayStartMinutes: 0)
        XCTAssertEqual(MetadataSignals.find(container, exif: .success(facts), receipt: midnight, config: ProofcheckConfig()).map(\.name), [])
        let late = Receipt(atMs: receivedMs - 3 * 3_600_000, day: previous, utcOffsetSeconds: 3600, dayStartMinutes: 0)
        XCTAssertEqual(
            MetadataSignals.find(container, exif: .success(facts), receipt: late, config: ProofcheckConfig()).map(\.name),
            ["taken_after_receipt", "taken_another_day"])
    }

    func testXMPAndSettings() throws {
        XCTAssertEqual(MetadataSignals.xmpValue("<x xmp:CreatorTool=\"Adobe Photoshop 25.0\"/>", "CreatorTool"), "Adobe Photoshop 25.0")
        let ios = "<exif:UserComment><rdf:Alt><rdf:li xml:lang=\"x-default\">Screenshot</rdf:li></rdf:Alt></exif:UserComment>"
        XCTAssertEqual(MetadataSignals.xmpValue(ios, "UserComment"), "Screenshot")
        XCTAssertNil(MetadataSignals.xmpValue(nil, "UserComment"))
        XCTAssertEqual(try ProofcheckConfig(json: "{\"min_side\": 64, \"max_distance\": 20}").maxDistance, 20)
        XCTAssertThrowsError(try ProofcheckConfig(json: "{\"min_sid\": 64}"))
        XCTAssertThrowsError(try ProofcheckConfig(json: "{\"max_distance\": 500}"))
        XCTAssertThrowsError(try ProofcheckConfig(json: "{\"min_side\": \"64\"}"))
        XCTAssertThrowsError(try ProofcheckConfig(json: "[]"))
    }
}
