import XCTest

@testable import HabitCore

final class PartitionPointTests: XCTestCase {
    /// Over seeded sorted arrays with repeats (empty and one-element ones among them), the
    /// point is the first index a linear scan finds, for values below, among and above them.
    func testTheFirstIndexALinearScanFinds() {
        var random = SplitMix(seed: 20_261_128)
        for _ in 0..<2_000 {
            let values = (0..<random.below(12)).map { _ in Int32(random.int(-5...5)) }.sorted()
            for probe in Int32(-7)...7 {
                let atOrAfter = values.partitionPoint { $0 >= probe }, after = values.partitionPoint { $0 > probe }
                XCTAssertEqual(atOrAfter, values.firstIndex { $0 >= probe } ?? values.count, "\(values) >= \(probe)")
                XCTAssertEqual(after, values.firstIndex { $0 > probe } ?? values.count, "\(values) > \(probe)")
            }
        }
    }

    /// Over a range of instants (a slice, not starting at 0), the first one a change holds at.
    func testARangeOfInstantsFindsItsChange() {
        var random = SplitMix(seed: 11)
        for _ in 0..<500 {
            let first = Int64(random.int(-100_000...100_000)), length = Int64(random.int(0...86_400))
            let change = first + Int64(random.int(0...Int(length) + 1))
            XCTAssertEqual((first..<(first + length)).partitionPoint { $0 >= change }, min(change, first + length))
        }
    }
}
