/// A small deterministic generator (SplitMix64): the same seed gives the same sequence
/// on every platform, so a property test's or a benchmark's failing seed replays. The
/// one every test target draws from.
package struct SplitMix: RandomNumberGenerator, Sendable {
    package var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0 ..< n (0 when n < 1).
    package mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    /// A number in range.
    package mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    package mutating func bool() -> Bool { next() & 1 == 0 }
    /// True with probability p.
    package mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}
