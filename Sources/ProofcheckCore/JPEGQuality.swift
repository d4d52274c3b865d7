/// The IJG quality (1...100) a JPEG's luminance table was most likely made with:
/// libjpeg scales one standard table by quality, so the ratio of the sums gives
/// the scale back. Cameras write 90 and above; messengers re-encode near 70-80.
package enum JPEGQuality {
    private static let standardLuma = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]

    package static func estimate(lumaTable: [Int]) -> Int? {
        guard lumaTable.count == 64 else { return nil }
        let scale = 100.0 * Double(lumaTable.reduce(0, +)) / Double(standardLuma.reduce(0, +))
        let quality = scale <= 100 ? (200 - scale) / 2 : 5000 / scale
        return max(1, min(100, Int(quality.rounded())))
    }
}
