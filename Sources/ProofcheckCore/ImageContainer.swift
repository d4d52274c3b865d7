/// What a JPEG or PNG file says about itself before any pixel is decoded: its
/// format, its EXIF and XMP, its text chunks, and a JPEG's luminance
/// quantisation table. Walked with bounded reads: lengths are checked, never trusted.
package struct ImageContainer: Equatable, Sendable {
    package enum Format: String, Sendable { case jpeg, png }

    package var format: Format
    /// The TIFF structure of the EXIF block, when there is one.
    package var exif: ArraySlice<UInt8>?
    package var xmp: String?
    /// PNG text chunks by keyword ("Software", "Comment", ...), uncompressed ones only.
    package var texts: [String: String] = [:]
    /// A JPEG's table 0 (luminance), 64 values.
    package var lumaQuantisation: [Int]?

    package enum Failure: Error, Equatable {
        case unsupported
        case malformed(String)
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let exifHeader = Array("Exif\0\0".utf8)
    private static let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    private static let maxText = 1 << 20

    package static func read(_ bytes: [UInt8]) throws(Failure) -> ImageContainer {
        let view = ByteView(bytes[...])
        if view.starts(with: [0xFF, 0xD8, 0xFF]) { return try readJPEG(view) }
        if view.starts(with: pngSignature) { return try readPNG(view) }
        throw .unsupported
    }

    // MARK: JPEG

    private static func readJPEG(_ view: ByteView) throws(Failure) -> ImageContainer {
        var container = ImageContainer(format: .jpeg)
        var offset = 2
        var sawFrame = false
        while true {
            guard view.u8(offset) == 0xFF else { throw .malformed("no JPEG marker at byte \(offset)") }
            while view.u8(offset + 1) == 0xFF { offset += 1 }  // fill bytes
            guard let marker = view.u8(offset + 1) else { throw .malformed("the JPEG ends before its image data") }
            offset += 2
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }
            if marker == 0xD9 { throw .malformed("the JPEG ends before its image data") }
            guard let length = view.u16(offset), length >= 2, let body = view.slice(offset + 2, length - 2) else {
                throw .malformed("JPEG segment 0x\(String(marker, radix: 16)) at byte \(offset) runs past the end")
            }
            let segment = ByteView(body)
            switch marker {
            case 0xDA:
                guard sawFrame else { throw .malformed("the JPEG has image data but no frame header") }
                return container
            case 0xE1 where container.exif == nil && segment.starts(with: exifHeader):
                container.exif = body.dropFirst(exifHeader.count)
            case 0xE1 where container.xmp == nil && segment.starts(with: xmpHeader):
                container.xmp = String(decoding: body.dropFirst(xmpHeader.count).prefix(maxText), as: UTF8.self)
            case 0xDB:
                try readQuantisation(segment, into: &container)
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard segment.slice(1, 4) != nil else { throw .malformed("the JPEG frame header is truncated") }
                sawFrame = true
            default:
                break
            }
            offset += length
        }
    }

    private static func readQuantisation(_ segment: ByteView, into container: inout ImageContainer) throws(Failure) {
        var offset = 0
        while offset < segment.count {
            guard let header = segment.u8(offset) else { break }
            let wide = header >> 4 == 1, table = header & 0x0F
            let size = wide ? 128 : 64
            guard segment.slice(offset + 1, size) != nil else { throw .malformed("a JPEG quantisation table is truncated") }
            if table == 0 {
                container.lumaQuantisation = (0..<64).compactMap { wide ? segment.u16(offset + 1 + 2 * $0) : segment.u8(offset + 1 + $0) }
            }
            offset += 1 + size
        }
    }

    // MARK: PNG

    private static func readPNG(_ view: ByteView) throws(Failure) -> ImageContainer {
        var container = ImageContainer(format: .png)
        var offset = pngSignature.count
        var first = true
        while true {
            guard let length = view.u32(offset), let type = view.slice(offset + 4, 4) else {
                throw .malformed("the PNG ends without an IEND chunk")
            }
            guard length <= Int(Int32.max), let data = view.slice(offset + 8, length), view.slice(offset + 8 + length, 4) != nil else {
                throw .malformed("PNG chunk '\(String(decoding: type, as: UTF8.self))' at byte \(offset) runs past the end")
            }
            let name = String(decoding: type, as: UTF8.self)
            if first {
                guard name == "IHDR", data.count >= 8 else { throw .malformed("the PNG does not start with IHDR") }
                first = false
            }
            switch name {
            case "IEND": return container
            case "eXIf": container.exif = data
            case "tEXt":
                if let split = data.firstIndex(of: 0) {
                    container.texts[String(decoding: data[..<split].prefix(79), as: UTF8.self)] =
                        String(decoding: data[(split + 1)...].prefix(maxText), as: UTF8.self)
                }
            case "iTXt":
                readInternationalText(data, into: &container)
            default: break
            }
            offset += 12 + length
        }
    }

    /// iTXt: keyword NUL, compressed flag, method, language NUL, translated keyword NUL, text.
    private static func readInternationalText(_ data: ArraySlice<UInt8>, into container: inout ImageContainer) {
        guard let keywordEnd = data.firstIndex(of: 0), keywordEnd + 2 < data.endIndex, data[keywordEnd + 1] == 0 else { return }
        let rest = data[(keywordEnd + 3)...]
        guard let languageEnd = rest.firstIndex(of: 0) else { return }
        let afterLanguage = rest[(languageEnd + 1)...]
        guard let translatedEnd = afterLanguage.firstIndex(of: 0) else { return }
        let keyword = String(decoding: data[..<keywordEnd].prefix(79), as: UTF8.self)
        let text = String(decoding: afterLanguage[(translatedEnd + 1)...].prefix(maxText), as: UTF8.self)
        if keyword == "XML:com.adobe.xmp" { container.xmp = text } else { container.texts[keyword] = text }
    }
}
