import CPNG
import CTurboJPEG
import ProofcheckCore

/// Decodes JPEG (libjpeg-turbo's TurboJPEG) and PNG (libpng's simplified API) into
/// luma for hashing. Both report errors as return codes; neither may exit or
/// longjmp into us. Large photos are reduced while decoding: a JPEG by libjpeg's
/// DCT scaling, a PNG by averaging blocks, to at least `workingSide` on the shorter
/// side, which PDQ's 64x64 reduction cannot tell from the full size.
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
        guard let handle = tjInitDecompress() else { return .failure(.undecodable("libjpeg-turbo could not start")) }
        defer { tjDestroy(handle) }
        func failure(_ what: String) -> Result<Decoded, Failure> {
            .failure(.undecodable("\(what): \(tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error")"))
        }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colourspace)
        }
        guard header == 0 else { return failure("bad JPEG header") }
        guard width > 0, height > 0, Int(width) * Int(height) <= maxJPEGPixels else {
            return .failure(.undecodable("\(width)x\(height) is more than \(maxJPEGPixels / 1_000_000) megapixels"))
        }
        guard colourspace != Int32(TJCS_CMYK.rawValue), colourspace != Int32(TJCS_YCCK.rawValue) else {
            return .failure(.undecodable("CMYK JPEGs are not photos from a phone"))
        }
        let (scaledWidth, scaledHeight) = scaled(width: Int(width), height: Int(height))
        var gray = [UInt8](repeating: 0, count: scaledWidth * scaledHeight)
        // Grey output is the JPEG's own Y channel: the luma PDQ computes from RGB.
        let status = bytes.withUnsafeBufferPointer { source in
            gray.withUnsafeMutableBufferPointer { target in
                tjDecompress2(handle, source.baseAddress, UInt(source.count), target.baseAddress, Int32(scaledWidth), 0, Int32(scaledHeight),
                              Int32(TJPF_GRAY.rawValue), TJFLAG_STOPONWARNING)
            }
        }
        guard status == 0 else { return failure("JPEG data") }
        let luma = LumaImage(width: scaledWidth, height: scaledHeight, pixels: gray.map(Float.init))
        return .success(Decoded(luma: luma, width: Int(width), height: Int(height)))
    }

    /// The smallest libjpeg scaling that keeps the shorter side at workingSide or more.
    private static func scaled(width: Int, height: Int) -> (Int, Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return (width, height) }
        var best = (width, height)
        for index in 0..<Int(count) {
            let factor = factors[index]
            guard factor.num > 0, factor.denom > 0, factor.num <= factor.denom else { continue }
            let w = (width * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            let h = (height * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
            if min(w, h) >= workingSide, w * h < best.0 * best.1 { best = (w, h) }
        }
        return best
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
