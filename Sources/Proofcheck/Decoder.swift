import CPNG
import JPEGGray
import ProofcheckCore

/// Decodes JPEG (libjpeg's own API, through Sources/JPEGGray) and PNG (libpng's
/// simplified API) into luma for hashing. Both report errors as return codes;
/// neither may exit or longjmp into us. Large photos are reduced while decoding: a
/// JPEG by libjpeg's DCT scaling, a PNG by averaging blocks, to at least
/// `workingSide` on the shorter side, which PDQ's 64x64 reduction cannot tell from
/// the full size.
enum Decoder {
    /// The decoded image and the photo's own size.
    struct Decoded {
        var luma: LumaImage
        var width: Int
        var height: Int
    }

    enum Failure: Error {
        case undecodable(String)
    }

    static let workingSide = 512
    /// Larger photos are refused rather than risk the host's memory.
    static let maxJPEGPixels = 100_000_000
    static let maxPNGPixels = 40_000_000

    static func decode(_ bytes: [UInt8], format: ImageContainer.Format) -> Result<Decoded, Failure> {
        switch format {
        case .jpeg: jpeg(bytes)
        case .png: png(bytes)
        }
    }

    private static func jpeg(_ bytes: [UInt8]) -> Result<Decoded, Failure> {
        var info = jpeg_gray_info()
        var scaledWidth: Int32 = 0, scaledHeight: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            jpeg_gray_decode($0.baseAddress, $0.count, 8, nil, 0, &scaledWidth, &scaledHeight, &info)
        }
        guard header == JPEG_GRAY_OK else { return failure(header, info, "bad JPEG header") }
        let width = Int(info.width), height = Int(info.height)
        guard width > 0, height > 0, width * height <= maxJPEGPixels else {
            return .failure(.undecodable("\(width)x\(height) is more than \(maxJPEGPixels / 1_000_000) megapixels"))
        }
        let eighths = scaleEighths(width: width, height: height)
        let capacity = scaledSide(width, eighths) * scaledSide(height, eighths)
        var gray = [UInt8](repeating: 0, count: capacity)
        let status = bytes.withUnsafeBufferPointer { source in
            gray.withUnsafeMutableBufferPointer { target in
                jpeg_gray_decode(
                    source.baseAddress, source.count, Int32(eighths), target.baseAddress, target.count,
                    &scaledWidth, &scaledHeight, &info)
            }
        }
        guard status == JPEG_GRAY_OK, Int(scaledWidth) * Int(scaledHeight) == capacity else { return failure(status, info, "JPEG data") }
        let luma = LumaImage(width: Int(scaledWidth), height: Int(scaledHeight), pixels: gray.map(Float.init))
        return .success(Decoded(luma: luma, width: width, height: height))
    }

    private static func failure(_ status: Int32, _ info: jpeg_gray_info, _ what: String) -> Result<Decoded, Failure> {
        if status == JPEG_GRAY_CMYK { return .failure(.undecodable("CMYK JPEGs are not photos from a phone")) }
        var info = info
        let message = withUnsafeBytes(of: &info.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return .failure(.undecodable("\(what): \(message.isEmpty ? "unknown error" : message)"))
    }

    /// A side scaled by eighths/8 in libjpeg's IDCT, rounded up as libjpeg does.
    private static func scaledSide(_ side: Int, _ eighths: Int) -> Int { (side * eighths + 7) / 8 }

    /// The smallest libjpeg scaling (1/8 ... 8/8) that keeps the shorter side at
    /// workingSide or more; photos already smaller are decoded whole.
    private static func scaleEighths(width: Int, height: Int) -> Int {
        (1...8).first { min(scaledSide(width, $0), scaledSide(height, $0)) >= workingSide } ?? 8
    }

    /// Transparent pixels as a viewer shows them on a white page.
    private static func overWhite(_ rgba: [UInt8]) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: rgba.count / 4 * 3)
        for pixel in 0..<(rgba.count / 4) {
            let alpha = Int(rgba[4 * pixel + 3])
            for channel in 0..<3 {
                rgb[3 * pixel + channel] = UInt8((Int(rgba[4 * pixel + channel]) * alpha + 255 * (255 - alpha) + 127) / 255)
            }
        }
        return rgb
    }

    private static func png(_ bytes: [UInt8]) -> Result<Decoded, Failure> {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        func failure() -> Result<Decoded, Failure> {
            let message = withUnsafeBytes(of: &image.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&image)
            return .failure(.undecodable("PNG: \(message.isEmpty ? "unreadable" : message)"))
        }
        let begun = bytes.withUnsafeBufferPointer { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { return failure() }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maxPNGPixels else {
            png_image_free(&image)
            return .failure(.undecodable("\(width)x\(height) is more than \(maxPNGPixels / 1_000_000) megapixels"))
        }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA (a macro Swift cannot import)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = rgba.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        guard finished != 0 else { return failure() }
        let rgb = overWhite(rgba)
        let factor = max(1, min(width, height) / workingSide)
        return .success(Decoded(luma: LumaImage(rgb: rgb, width: width, height: height, averaging: factor), width: width, height: height))
    }
}
