import HabitPlatform

/// PDQ, Meta's 256-bit perceptual image hash, from its published algorithm
/// (facebook/ThreatExchange, pdq/README and hashing.pdf): luma; two passes of a
/// box filter along rows then columns (a tent, the "Jarosz" filter) sized to the
/// image; 64x64 samples; the 16x16 lowest non-constant DCT coefficients; one bit
/// per coefficient, set when above the median. The quality metric counts edges in
/// the 64x64 samples: a flat, dark or blurry image scores low.
package enum PDQ {
    package static let size = 64
    /// Below this a side is too small to hash (the reference's limit).
    package static let minimumSide = 5

    /// The hash and quality of an image, with the 64x64 samples it came from.
    package static func hash(_ image: LumaImage) -> PDQHash {
        hash(samples: samples(image))
    }

    /// 64x64 samples transposed: the samples of the transposed image (the box
    /// filters are separable, so reducing commutes with transposing).
    package static func transposed(_ samples: [Float]) -> [Float] {
        var out = samples
        for row in 0..<size { for column in 0..<size { out[column * size + row] = samples[row * size + column] } }
        return out
    }

    /// The hash of already reduced 64x64 samples (row-major, 4096 values).
    package static func hash(samples: [Float]) -> PDQHash {
        guard samples.count == size * size else { return PDQHash(words: [0, 0, 0, 0], quality: 0) }
        let coefficients = dct16(samples)
        // The reference's median (Torben's) is the 128th smallest of the 256.
        let median = coefficients.sorted()[127]
        var words: [UInt64] = [0, 0, 0, 0]
        for (bit, value) in coefficients.enumerated() where value > median {
            words[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        return PDQHash(words: words, quality: quality(samples))
    }

    /// The image filtered and reduced to 64x64 samples; all zero when too small to hash.
    package static func samples(_ image: LumaImage) -> [Float] {
        guard image.width >= minimumSide, image.height >= minimumSide, image.pixels.count == image.width * image.height else {
            return [Float](repeating: 0, count: size * size)
        }
        var buffer = image.pixels
        var scratch = [Float](repeating: 0, count: buffer.count)
        let rowWindow = windowSize(image.width), columnWindow = windowSize(image.height)
        for _ in 0..<2 {
            boxAlongRows(&buffer, into: &scratch, width: image.width, height: image.height, window: rowWindow)
            boxAlongColumns(&scratch, into: &buffer, width: image.width, height: image.height, window: columnWindow)
        }
        var out = [Float](repeating: 0, count: size * size)
        for i in 0..<size {
            let row = Int((Double(i) + 0.5) * Double(image.height) / Double(size))
            for j in 0..<size {
                let column = Int((Double(j) + 0.5) * Double(image.width) / Double(size))
                out[i * size + j] = buffer[row * image.width + column]
            }
        }
        return out
    }

    /// The box width for reducing `side` pixels to 64: half a sample, rounded up.
    static func windowSize(_ side: Int) -> Int {
        (side + 2 * size - 1) / (2 * size)
    }

    private static func boxAlongRows(_ input: inout [Float], into output: inout [Float], width: Int, height: Int, window: Int) {
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                for row in 0..<height { box(input, output, start: row * width, count: width, stride: 1, window: window) }
            }
        }
    }

    /// The same running mean down every column at once, a whole row at a time
    /// (walking each column separately strides through memory and misses the cache).
    private static func boxAlongColumns(_ input: inout [Float], into output: inout [Float], width: Int, height: Int, window: Int) {
        let window = min(window, height)
        let half = (window + 2) / 2
        var sums = [Float](repeating: 0, count: width)
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                sums.withUnsafeMutableBufferPointer { sums in
                    var inWindow = 0, read = 0, drop = 0, write = 0
                    func add(_ row: Int) { for c in 0..<width { sums[c] += input[row * width + c] } }
                    func remove(_ row: Int) { for c in 0..<width { sums[c] -= input[row * width + c] } }
                    func emit() {
                        let scale = 1 / Float(inWindow)
                        for c in 0..<width { output[write * width + c] = sums[c] * scale }
                        write += 1
                    }
                    for _ in 0..<(half - 1) { add(read); inWindow += 1; read += 1 }
                    for _ in 0..<(window - half + 1) { add(read); inWindow += 1; read += 1; emit() }
                    for _ in 0..<(height - window) { add(read); remove(drop); read += 1; drop += 1; emit() }
                    for _ in 0..<(half - 1) { remove(drop); inWindow -= 1; drop += 1; emit() }
                }
            }
        }
    }

    /// A running mean over `window` values, the window shrinking at both ends; for
    /// an even window it reaches one further back than ahead, as the reference does.
    private static func box(
        _ input: UnsafeBufferPointer<Float>, _ output: UnsafeMutableBufferPointer<Float>,
        start: Int, count: Int, stride: Int, window: Int
    ) {
        let window = min(window, count)
        let half = (window + 2) / 2
        var sum: Float = 0
        var inWindow = 0
        var read = start, drop = start, write = start
        for _ in 0..<(half - 1) {
            sum += input[read]; inWindow += 1; read += stride
        }
        for _ in 0..<(window - half + 1) {
            sum += input[read]; inWindow += 1; read += stride
            output[write] = sum / Float(inWindow); write += stride
        }
        for _ in 0..<(count - window) {
            sum += input[read] - input[drop]; read += stride; drop += stride
            output[write] = sum / Float(inWindow); write += stride
        }
        for _ in 0..<(half - 1) {
            sum -= input[drop]; inWindow -= 1; drop += stride
            output[write] = sum / Float(inWindow); write += stride
        }
    }

    /// cos terms of the 16 lowest frequencies after the constant one, scaled.
    private static let dctMatrix: [Float] = {
        var matrix = [Float](repeating: 0, count: 16 * size)
        let scale = (2.0 / Double(size)).squareRoot()
        for i in 0..<16 {
            for j in 0..<size {
                matrix[i * size + j] = Float(scale * cos(Double.pi / 2 / Double(size) * Double(i + 1) * Double(2 * j + 1)))
            }
        }
        return matrix
    }()

    /// D * A * D^T: 64x64 samples to 16x16 coefficients.
    private static func dct16(_ samples: [Float]) -> [Float] {
        var partial = [Float](repeating: 0, count: 16 * size)
        for i in 0..<16 {
            for j in 0..<size {
                var sum: Float = 0
                for k in 0..<size { sum += dctMatrix[i * size + k] * samples[k * size + j] }
                partial[i * size + j] = sum
            }
        }
        var out = [Float](repeating: 0, count: 256)
        for i in 0..<16 {
            for j in 0..<16 {
                var sum: Float = 0
                for k in 0..<size { sum += partial[i * size + k] * dctMatrix[j * size + k] }
                out[i * 16 + j] = sum
            }
        }
        return out
    }

    /// Sum of the vertical and horizontal steps between neighbouring samples, in
    /// whole percent of full scale, over 90, capped at 100.
    private static func quality(_ samples: [Float]) -> Int {
        var total = 0
        for i in 0..<(size - 1) {
            for j in 0..<size {
                total += abs(Int((samples[i * size + j] - samples[(i + 1) * size + j]) * 100 / 255))
            }
        }
        for i in 0..<size {
            for j in 0..<(size - 1) {
                total += abs(Int((samples[i * size + j] - samples[i * size + j + 1]) * 100 / 255))
            }
        }
        return min(100, total / 90)
    }
}

/// One PDQ hash: bit k (0...255) is bit k % 64 of words[k / 64], the layout of the
/// reference's sixteen 16-bit words; quality 0...100.
package struct PDQHash: Equatable, Hashable, Sendable {
    package var words: [UInt64]
    package var quality: Int

    package init(words: [UInt64], quality: Int) {
        self.words = words
        self.quality = quality
    }

    package func distance(to other: PDQHash) -> Int {
        (words[0] ^ other.words[0]).nonzeroBitCount + (words[1] ^ other.words[1]).nonzeroBitCount
            + (words[2] ^ other.words[2]).nonzeroBitCount + (words[3] ^ other.words[3]).nonzeroBitCount
    }
}
