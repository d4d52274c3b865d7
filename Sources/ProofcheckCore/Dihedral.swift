/// The eight rotations and flips of an image.
package enum Dihedral: Int, CaseIterable, Sendable {
    case original, rotate90, rotate180, rotate270, mirror, flip, transpose, antiTranspose

    package var name: String {
        switch self {
        case .original: "original"
        case .rotate90: "rotated 90"
        case .rotate180: "rotated 180"
        case .rotate270: "rotated 270"
        case .mirror: "mirrored"
        case .flip: "flipped"
        case .transpose: "transposed"
        case .antiTranspose: "anti-transposed"
        }
    }

    /// The image seen this way. Turned before PDQ's reduction, not after: for an
    /// even box width the reduction is not symmetric, and turning the 64x64
    /// samples instead (as the reference does) misses a mirrored small photo.
    package func apply(_ image: LumaImage) -> LumaImage {
        if self == .original { return image }
        let swaps = self == .rotate90 || self == .rotate270 || self == .transpose || self == .antiTranspose
        let width = swaps ? image.height : image.width, height = swaps ? image.width : image.height
        let lastRow = image.height - 1, lastColumn = image.width - 1
        var pixels = [Float](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            for row in 0..<height {
                for column in 0..<width {
                    // Where this output pixel comes from in the source.
                    let (r, c): (Int, Int)
                    switch self {
                    case .original: (r, c) = (row, column)
                    case .rotate90: (r, c) = (lastRow - column, row)
                    case .rotate180: (r, c) = (lastRow - row, lastColumn - column)
                    case .rotate270: (r, c) = (column, lastColumn - row)
                    case .mirror: (r, c) = (row, lastColumn - column)
                    case .flip: (r, c) = (lastRow - row, column)
                    case .transpose: (r, c) = (column, row)
                    case .antiTranspose: (r, c) = (lastRow - column, lastColumn - row)
                    }
                    pixels[row * width + column] = source[r * image.width + c]
                }
            }
        }
        return LumaImage(width: width, height: height, pixels: pixels)
    }
}
