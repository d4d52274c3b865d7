/// Which local day an instant belongs to: the home zone plus the day-start time.
/// With a day start of 03:00, something done at 01:30 counts for the day before.
package struct DayClock: Equatable, Sendable {
    package var zone: ZoneRules
    package var dayStartMinutes: Int32

    package init(zone: ZoneRules, dayStartMinutes: Int32) {
        self.zone = zone
        self.dayStartMinutes = dayStartMinutes
    }

    /// Bounds that keep every step below free of overflow: years 1 through 9999.
    private static let minMs = Int64(CivilDate.minDay) * 86_400_000
    private static let maxMs = (Int64(CivilDate.maxDay) + 1) * 86_400_000 - 1

    package static func validateDayStart(_ minutes: Int32) throws(HabitError) {
        guard (0..<1440).contains(minutes) else { throw .invalid("day start \(minutes) is not a number of minutes in 0...1439") }
    }

    /// The weekday weeks start on: 0 = Sunday ... 6 = Saturday.
    package static func validateWeekStart(_ weekday: Int64) throws(HabitError) {
        guard (0...6).contains(weekday) else { throw .invalid("week start \(weekday) is not a weekday 0 (Sunday) ... 6 (Saturday)") }
    }

    /// The day an instant counts for. When clocks go back, wall-clock times repeat; a
    /// repeated time counts for the day it counted for the first time it was shown, so a
    /// day start inside the repeated hour means its first occurrence and "today" never
    /// goes backwards (the local clock used is the highest one shown since the latest
    /// backward change within the past day).
    package func localDay(utcMs: Int64) throws(HabitError) -> Int32 {
        let local = try max(localSeconds(utcMs: utcMs), highestBeforeBackwardChange(utcMs: utcMs)) - Int64(dayStartMinutes) * 60
        let day = Int32(clamping: floorDiv(local, 86_400))
        guard CivilDate.isValid(day) else { throw .invalid("instant \(utcMs) ms is outside the years 1...9999") }
        return day
    }

    /// The local wall-clock minute of the day (0...1439) of an instant, day start aside.
    package func minuteOfDay(utcMs: Int64) throws(HabitError) -> Int32 {
        Int32(clamping: (try localSeconds(utcMs: utcMs) % 86_400 + 86_400) % 86_400 / 60)
    }

    /// The zone's offset from UTC at an instant, in seconds east.
    package func utcOffsetSeconds(utcMs: Int64) throws(HabitError) -> Int32 {
        Int32(clamping: try localSeconds(utcMs: utcMs) - floorDiv(utcMs, 1000))
    }

    /// The last local clock reading before the latest change of offset in the day before
    /// the instant, when that change set clocks back; otherwise Int64.min.
    private func highestBeforeBackwardChange(utcMs: Int64) -> Int64 {
        let now = floorDiv(utcMs, 1000), current = zone.utcOffset(atUTC: now)
        let earlier = now - 86_400
        guard zone.utcOffset(atUTC: earlier) > current else { return Int64.min }
        // Offsets are constant between changes: the first second of the current offset.
        let later = ((earlier + 1)..<now).partitionPoint { zone.utcOffset(atUTC: $0) == current }
        let before = later - 1
        return before + Int64(zone.utcOffset(atUTC: before))
    }

    /// The instant (UTC ms) a local wall-clock minute of a calendar date reads.
    /// A time the clocks skip (spring forward) is the first minute after the gap:
    /// the transition itself. A time they read twice (fall back) is its first
    /// occurrence. Both use the zone's own offsets a day either side, so any
    /// transition of at most a day is handled.
    package func utcMs(civilDay: Int32, minute: Int32) throws(HabitError) -> Int64 {
        guard CivilDate.isValid(civilDay), (0..<1440).contains(minute) else {
            throw .invalid("local time \(civilDay) \(minute) is outside the years 1...9999 or not a minute of a day")
        }
        let local = Int64(civilDay) * 86_400 + Int64(minute) * 60
        let before = Int64(zone.utcOffset(atUTC: local - 86_400))
        let after = Int64(zone.utcOffset(atUTC: local + 86_400))
        let early = local - max(before, after), late = local - min(before, after)
        // The earliest of the candidates that reads `local`: the first occurrence.
        for candidate in [early, late] where candidate + Int64(zone.utcOffset(atUTC: candidate)) == local {
            return candidate * 1000
        }
        // In a gap: `early` reads before it, `late` after; the transition lies between.
        let offsetBefore = zone.utcOffset(atUTC: early)
        return ((early + 1)..<late).partitionPoint { zone.utcOffset(atUTC: $0) != offsetBefore } * 1000
    }

    /// The instant of a local minute of a habit day: a minute before the day start
    /// falls on the next calendar date (with a 03:00 day start, 01:30 of a day is
    /// the night after it).
    package func utcMs(day: Int32, minute: Int32) throws(HabitError) -> Int64 {
        try utcMs(civilDay: minute < dayStartMinutes ? day &+ 1 : day, minute: minute)
    }

    /// Seconds of local wall-clock time since 1970, for an instant within the years 1...9999.
    private func localSeconds(utcMs: Int64) throws(HabitError) -> Int64 {
        guard utcMs >= DayClock.minMs, utcMs <= DayClock.maxMs else {
            throw .invalid("instant \(utcMs) ms is outside the years 1...9999")
        }
        let seconds = floorDiv(utcMs, 1000)
        return seconds + Int64(zone.utcOffset(atUTC: seconds))
    }
}
