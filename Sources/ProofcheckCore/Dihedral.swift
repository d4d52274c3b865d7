/// The eight rotations and flips of a square grid of samples. Turning the 64x64
/// samples and hashing again is what the reference does in the DCT domain.
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

    /// The grid (side x side, row-major) seen this way.
    package func apply(_ grid: [Float], side: Int) -> [Float] {
        var out = grid
        let last = side - 1
        for row in 0..<side {
            for column in 0..<side {
                let (r, c): (Int, Int)
                switch self {
                case .original: (r, c) = (row, column)
                case .rotate90: (r, c) = (last - column, row)
                case .rotate180: (r, c) = (last - row, last - column)
                case .rotate270: (r, c) = (column, last - row)
                case .mirror: (r, c) = (row, last - column)
                case .flip: (r, c) = (last - row, column)
                case .transpose: (r, c) = (column, row)
                case .antiTranspose: (r, c) = (last - column, last - row)
                }
                out[row * side + column] = grid[r * side + c]
            }
        }
        return out
    }
}
