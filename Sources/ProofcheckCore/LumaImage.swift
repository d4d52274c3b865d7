/// A grey image as PDQ sees it: luma 0...255 per pixel, row by row.
package struct LumaImage: Equatable, Sendable {
    package let width: Int
    package let height: Int
    package var pixels: [Float]

    package init(width: Int, height: Int, pixels: [Float]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Luma from 8-bit RGB (3 bytes a pixel), with the weights PDQ's reference uses,
    /// each `averaging` x `averaging` block of pixels averaged into one.
    package init(rgb: [UInt8], width: Int, height: Int, averaging factor: Int = 1) {
        let factor = max(1, factor)
        let outWidth = max(1, width / factor), outHeight = max(1, height / factor)
        var sums = [Float](repeating: 0, count: outWidth * outHeight)
        rgb.withUnsafeBufferPointer { rgb in
            guard rgb.count >= width * height * 3 else { return }
            for row in 0..<min(height, outHeight * factor) {
                let outRow = row / factor * outWidth
                for column in 0..<min(width, outWidth * factor) {
                    let at = 3 * (row * width + column)
                    sums[outRow + column / factor] += 0.299 * Float(rgb[at]) + 0.587 * Float(rgb[at + 1]) + 0.114 * Float(rgb[at + 2])
                }
            }
        }
        let block = Float(factor * factor)
        self.init(width: outWidth, height: outHeight, pixels: factor == 1 ? sums : sums.map { $0 / block })
    }

    package subscript(row: Int, column: Int) -> Float { pixels[row * width + column] }

    /// The rectangle from (top, left), width x height, copied out.
    package func cropped(top: Int, left: Int, width: Int, height: Int) -> LumaImage {
        var out = [Float]()
        out.reserveCapacity(width * height)
        for row in top..<(top + height) {
            out.append(contentsOf: pixels[(row * self.width + left)..<(row * self.width + left + width)])
        }
        return LumaImage(width: width, height: height, pixels: out)
    }

    /// A crop keeping `share` of each side (0 < share <= 1), placed at x, y: 0 the
    /// left or top edge, 0.5 the centre, 1 the right or bottom edge.
    package func crop(keeping share: Double, x: Double, y: Double) -> LumaImage {
        let keptWidth = max(1, min(width, Int(Double(width) * share))), keptHeight = max(1, min(height, Int(Double(height) * share)))
        let left = Int(Double(width - keptWidth) * min(1, max(0, x))), top = Int(Double(height - keptHeight) * min(1, max(0, y)))
        return cropped(top: top, left: left, width: keptWidth, height: keptHeight)
    }

    /// Without the uniform bars along its edges (letterboxing, screenshot borders),
    /// so a photo and the same photo framed in bars hash alike. A bar is a run of
    /// edge rows (or columns) each of nearly one shade, the shade of the edge; at
    /// most `maxShare` of a side is taken, and an image that is all bar is kept whole.
    package func trimmingUniformBars(tolerance: Float = 12, maxShare: Double = 0.4) -> LumaImage {
        guard width > 8, height > 8 else { return self }
        let maxRows = Int(Double(height) * maxShare), maxColumns = Int(Double(width) * maxShare)
        /// Whether the pixels at `indices` are all nearly `shade`.
        func isBar(_ indices: some Sequence<(Int, Int)>, shade: Float) -> Bool {
            var low = Float.greatestFiniteMagnitude, high = -Float.greatestFiniteMagnitude
            for (row, column) in indices {
                let value = self[row, column]
                low = min(low, value)
                high = max(high, value)
            }
            return high - low <= tolerance && abs((high + low) / 2 - shade) <= tolerance
        }
        func rowIsBar(_ row: Int, shade: Float) -> Bool { isBar((0..<width).lazy.map { (row, $0) }, shade: shade) }
        func columnIsBar(_ column: Int, shade: Float, rows: Range<Int>) -> Bool { isBar(rows.lazy.map { ($0, column) }, shade: shade) }
        var top = 0, bottom = 0
        while top < maxRows, rowIsBar(top, shade: self[0, 0]) { top += 1 }
        while bottom < maxRows, rowIsBar(height - 1 - bottom, shade: self[height - 1, 0]) { bottom += 1 }
        let rows = top..<(height - bottom)
        var left = 0, right = 0
        while left < maxColumns, columnIsBar(left, shade: self[rows.lowerBound, 0], rows: rows) { left += 1 }
        while right < maxColumns, columnIsBar(width - 1 - right, shade: self[rows.lowerBound, width - 1], rows: rows) { right += 1 }
        let keptWidth = width - left - right, keptHeight = height - top - bottom
        guard keptWidth >= 16, keptHeight >= 16, keptWidth < width || keptHeight < height else { return self }
        return cropped(top: top, left: left, width: keptWidth, height: keptHeight)
    }
}
