/// The monotonic clock, for timing waits, durations and pacing (never the time of
/// day): it never goes back when the wall clock is set.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary start.
    package static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Microseconds since the same start.
    package static func microseconds() -> Int64 { nanoseconds() / 1000 }
}
