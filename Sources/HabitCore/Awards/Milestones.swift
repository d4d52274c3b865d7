/// The streak lengths worth telling someone about, once per run.
package enum Milestones {
    package static let lengths: [Int64] = [3, 7, 14, 21, 30, 50, 75, 100, 150, 200, 250, 300, 365, 500, 730, 1000]

    /// The highest milestone a run of `length` has reached (every 365 past the list).
    package static func reached(by length: Int64) -> Int64? {
        let years = length / 365 * 365
        if let last = lengths.last, years > last { return years }
        return lengths.last { $0 <= length }
    }
}
