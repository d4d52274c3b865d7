/// Hybrid logical clocks (Kulkarni et al., 2014), packed in one Int64: the physical
/// part in milliseconds above 16 bits of logical counter. Stamps from one replica
/// only grow, and a stamp is above every stamp its replica had seen when it was made,
/// so "later" in last-writer-wins agrees with causality whatever the wall clocks say.
package enum HybridClock {
    static let counterBits: Int64 = 16
    /// Physical milliseconds beyond this (year 4200) are clamped, so packing cannot overflow.
    static let maxPhysical: Int64 = (1 << 46) - 1
    package static let max: Int64 = (maxPhysical << counterBits) | 0xFFFF

    /// How far ahead of the receiver's wall clock a received stamp may be: beyond it
    /// the op waits (it is not taken, so its peers send it again) until the receiver's
    /// clock is near, so one device's wrong clock cannot pull every replica's clock to
    /// its limit, where stamps stop growing and two later edits would tie.
    package static let maxOffsetMs: Int64 = 86_400_000

    /// Whether a received stamp is further ahead of nowMs than maxOffsetMs.
    package static func isAhead(_ stamp: Int64, nowMs: Int64) -> Bool {
        physical(stamp) > Swift.min(Swift.max(nowMs, 0), maxPhysical) + maxOffsetMs
    }

    package static func physical(_ stamp: Int64) -> Int64 { stamp >> counterBits }
    package static func counter(_ stamp: Int64) -> Int64 { stamp & 0xFFFF }

    static func pack(_ physical: Int64, _ counter: Int64) -> Int64 { (physical << counterBits) | counter }

    /// The stamp for a local write: above last, and at least the wall clock.
    package static func tick(last: Int64, nowMs: Int64) -> Int64 {
        next(above: clamp(last), wall: Swift.min(Swift.max(nowMs, 0), maxPhysical))
    }

    /// The clock after receiving remote: above both last and remote.
    package static func receive(last: Int64, remote: Int64, nowMs: Int64) -> Int64 {
        let wall = Swift.min(Swift.max(nowMs, 0), maxPhysical)
        return next(above: Swift.max(clamp(last), clamp(remote)), wall: wall)
    }

    private static func clamp(_ stamp: Int64) -> Int64 { Swift.min(Swift.max(stamp, 0), max) }

    /// The smallest stamp above `above` whose physical part is at least wall.
    private static func next(above: Int64, wall: Int64) -> Int64 {
        if wall > physical(above) { return pack(wall, 0) }
        // Counter exhausted: borrow the next millisecond (stays monotonic).
        if counter(above) == 0xFFFF { return above >= max ? max : pack(physical(above) + 1, 0) }
        return above + 1
    }
}
