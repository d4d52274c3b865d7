/// A habit with its history, as streaks need it: for each day from the start day,
/// whether it was done or skipped and, for numeric habits, its value. Days before
/// the start are never judged; a day without a record has no entries.
///
/// Kept as one byte per day (and one number per day for numeric habits) so the
/// judging loops over years of days stay within a small multiple of a plain loop.
package struct HabitHistory: Sendable {
    package var spec: HabitSpec
    /// Every version of the judging settings with the day it took effect, oldest
    /// first; empty when the spec's have always governed (no array to build for the
    /// pure calls).
    package var versions: [SettingsVersion]
    /// The day the habit was archived on, when it is archived now: nothing is due
    /// from it on. Stretches archived before (and unarchived since) are excused.
    package var archivedDay: Int32?
    /// The day of marks[0] and values[0]: the start day.
    private let base: Int32
    /// Per day from `base`: `Mark` bits (done, or skipped and not done).
    private var marks: [UInt8] = []
    /// Per day from `base`, for counters, durations and measurements only
    /// (a checkmark's value is 1 when done, else 0).
    private var values: [Double] = []
    private let keepsValues: Bool
    /// A day without a record: a counter kept at most is within its limit on a
    /// day with nothing logged.
    private let emptyMark: UInt8
    /// Whether the versions differ in target, direction, proof, group or archive
    /// (then the judges read those per day).
    let variesBeyondSchedule: Bool

    /// How a day is kept: done, or skipped and not done.
    package enum Mark {
        package static let done: UInt8 = 1
        package static let skipped: UInt8 = 2

        /// A day without a record of a habit like `spec`.
        package static func empty(for spec: HabitSpec) -> UInt8 { judgedAtDayEnd(spec) ? done : 0 }

        /// A recorded day's mark: done wins over skipped.
        package static func recorded(done: Bool, skipped: Bool) -> UInt8 {
            done ? Mark.done : (skipped ? Mark.skipped : 0)
        }
    }

    /// At-most counters and durations, and quit habits (a day is clean until a
    /// relapse): a day is decided only once it is over.
    package static func judgedAtDayEnd(_ spec: HabitSpec) -> Bool {
        spec.kind == .quit || ((spec.kind == .counter || spec.kind == .duration) && spec.direction == .atMost)
    }

    /// Whether a habit like `spec` keeps a value per day (checkmarks do not).
    package static func keepsValues(_ spec: HabitSpec) -> Bool { spec.kind != .checkmark }

    /// A history from its days as kept: `marks[i]` and `values[i]` are day
    /// `spec.startDay + i`; `values` is empty when `keepsValues(spec)` is false.
    /// Days past the arrays have no entries. `versions` empty means the spec's
    /// judging settings have always governed; the days past the arrays are judged
    /// by the last version.
    package init(spec: HabitSpec, versions: [SettingsVersion], archivedDay: Int32?, marks: [UInt8], values: [Double]) {
        let (spec, versions) = QuitRules.judgedDaily(spec, versions: versions)
        self.spec = spec
        self.versions = versions
        self.archivedDay = versions.finalArchiveDay ?? archivedDay
        base = spec.startDay
        keepsValues = Self.keepsValues(spec)
        variesBeyondSchedule = versions.variesBeyondSchedule
        emptyMark = Mark.empty(for: versions.last.map(spec.judged(by:)) ?? spec)
        self.marks = marks
        self.values = keepsValues ? values : []
        // A caller's values shorter than its marks: pad, so lookups stay in step.
        if keepsValues && self.values.count < marks.count { self.values += [Double](repeating: 0, count: marks.count - self.values.count) }
    }

    /// An empty history with room for the days up to `lastDay` (and, when the
    /// versions judge an empty day differently, up to the last version's first day).
    package init(spec: HabitSpec, versions: [SettingsVersion], archivedDay: Int32?, through lastDay: Int32) {
        let (spec, versions) = QuitRules.judgedDaily(spec, versions: versions)
        let emptyMarks = Set(versions.map { Mark.empty(for: spec.judged(by: $0)) })
        let through = emptyMarks.count > 1 ? max(lastDay, versions.last?.fromDay ?? lastDay) : lastDay
        let count = through >= spec.startDay ? Int(through) - Int(spec.startDay) + 1 : 0
        var marks = [UInt8](repeating: Mark.empty(for: versions.last.map(spec.judged(by:)) ?? spec), count: count)
        if emptyMarks.count > 1 {
            for (index, version) in versions.enumerated() {
                let end = index + 1 < versions.count ? Int(versions[index + 1].fromDay) - Int(spec.startDay) : count
                let first = index == 0 ? 0 : max(0, Int(version.fromDay) - Int(spec.startDay))
                let mark = Mark.empty(for: spec.judged(by: version))
                if first < min(end, count) { for i in first..<min(end, count) { marks[i] = mark } }
            }
        }
        self.init(
            spec: spec, versions: versions, archivedDay: archivedDay, marks: marks,
            values: Self.keepsValues(spec) ? [Double](repeating: 0, count: count) : [])
    }

    package init(spec: HabitSpec, versions: [SettingsVersion], archivedDay: Int32?, days: [DayState]) {
        self.init(spec: spec, versions: versions, archivedDay: archivedDay, through: days.lazy.map(\.day).max() ?? Int32.min)
        for state in days { record(state) }
    }

    package mutating func record(_ state: DayState) {
        record(day: state.day, value: state.value, done: state.done, skipped: state.skipped)
    }

    /// Records a day's state (days before the start are ignored).
    package mutating func record(day: Int32, value: Double, done: Bool, skipped: Bool) {
        guard day >= base else { return }
        let index = Int(day) - Int(base)
        if index >= marks.count { grow(to: index + 1) }
        marks[index] = Mark.recorded(done: done, skipped: skipped)
        if keepsValues { values[index] = value }
    }

    private mutating func grow(to count: Int) {
        // Past the last version's first day (the array reaches it when versions judge an empty day differently).
        marks += [UInt8](repeating: emptyMark, count: count - marks.count)
        if keepsValues { values += [Double](repeating: 0, count: count - values.count) }
    }

    @inline(__always)
    private func mark(_ day: Int32) -> UInt8 {
        let index = Int(day) - Int(base)
        return index >= 0 && index < marks.count ? marks[index] : emptyMark
    }

    /// Done as logged so far, today included (an at-most day counts while within its limit).
    @inline(__always)
    package func isMarkedDone(_ day: Int32) -> Bool { mark(day) & Mark.done != 0 }

    /// The day's total, reading or (for checkmarks) 1 when done.
    package func value(on day: Int32) -> Double {
        guard keepsValues else { return isMarkedDone(day) ? 1 : 0 }
        let index = Int(day) - Int(base)
        return index >= 0 && index < values.count ? values[index] : 0
    }

    /// The days as judged as of a day, for the loops over them.
    func judged(asOf: Int32) -> JudgedDays {
        JudgedDays(marks: marks, base: base, emptyMark: emptyMark, overFrom: Self.judgedAtDayEnd(spec(on: asOf)) ? asOf : Int32.max)
    }

    /// The spec a day is judged by: the version in force on it. Every judge that reads
    /// a judging setting of a day reads it here.
    package func spec(on day: Int32) -> HabitSpec { versions.spec(spec, on: day) }

    /// A day's target and direction (the loops over days call this only when versions vary).
    @inline(__always)
    func limit(on day: Int32) -> (target: Double, atMost: Bool) {
        guard variesBeyondSchedule, let version = versions.version(on: day) else { return (spec.target, spec.direction == .atMost) }
        return (version.target, version.direction == .atMost)
    }

    /// The days excused on top of skip entries: the vacations given, and the stretches
    /// the habit was archived before it was unarchived.
    package func excusedRanges(_ vacations: [ClosedRange<Int32>]) -> [ClosedRange<Int32>] {
        guard variesBeyondSchedule else { return vacations }
        let stretches = versions.archivedStretches
        return stretches.isEmpty ? vacations : vacations + stretches
    }

    /// A history's marks as judged as of a day: a value the judging loops keep in
    /// registers (the array and its bounds are loaded once).
    struct JudgedDays {
        fileprivate let marks: [UInt8]
        fileprivate let base: Int32
        fileprivate let emptyMark: UInt8
        /// From this day on a done mark does not count yet (at-most habits, asOf on).
        fileprivate let overFrom: Int32

        /// The day's mark: done when done for judging, skipped when skipped and not done.
        @inline(__always)
        func mark(_ day: Int32) -> UInt8 {
            let index = Int(day) &- Int(base)
            let mark = index >= 0 && index < marks.count ? marks[index] : emptyMark
            return day >= overFrom ? mark & ~Mark.done : mark
        }

        @inline(__always)
        func isDone(_ day: Int32) -> Bool { mark(day) & Mark.done != 0 }

        /// Calls `body` with each day from `first` through `last` and its mark, in
        /// order; every day must be over (before the asOf these marks were judged
        /// for). The loops that judge every day read the array here without a
        /// range test per day.
        @inline(__always)
        func forEachMark(from first: Int32, through last: Int32, _ body: (Int32, UInt8) -> Void) {
            guard first <= last else { return }
            // Indices from base (Int: no overflow from Int32 days): before the array, in it, past it.
            var index = Int(first) - Int(base)
            let lastIndex = Int(last) - Int(base)
            let storedLast = min(lastIndex, marks.count - 1)
            var day = first
            while index < 0 && index <= lastIndex { body(day, emptyMark); day &+= 1; index += 1 }
            // The array's own bounds test per day is what this loop saves (index is within them).
            marks.withUnsafeBufferPointer { stored in
                while index <= storedLast { body(day, stored[index]); day &+= 1; index += 1 }
            }
            while index <= lastIndex { body(day, emptyMark); day &+= 1; index += 1 }
        }

        /// Excused: skipped and not done, or on vacation.
        @inline(__always)
        func isExcused(_ day: Int32, vacation: ExcusedDays) -> Bool {
            mark(day) & Mark.skipped != 0 || vacation.contains(day)
        }
    }

    /// The last day anything can be due, up to asOf.
    package func lastActiveDay(asOf: Int32) -> Int32 {
        min(asOf, (archivedDay ?? Int32.max) &- 1)
    }

    /// The schedule governing a day (the first version also governs days before it).
    package func schedule(on day: Int32) -> Schedule { versions.version(on: day)?.schedule ?? spec.schedule }

    /// The stretches of [first, last] each governed by one schedule, in order
    /// (consecutive versions with the same schedule are one stretch).
    /// `anchor` is where an every:N schedule counts from; `governedEnd` the last day
    /// the schedule governs at all (beyond `last`, for quota periods).
    struct Segment {
        var first: Int32
        var last: Int32
        var schedule: Schedule
        var anchor: Int32
        var governedEnd: Int32
        // Day-based schedules reduced to what the per-day test needs (no switch per day).
        private let weekdayMask: Int
        private let every: Int
        private let byMonthDay: Bool

        init(first: Int32, last: Int32, schedule: Schedule, anchor: Int32, governedEnd: Int32) {
            self.first = first
            self.last = last
            self.schedule = schedule
            self.anchor = anchor
            self.governedEnd = governedEnd
            switch schedule {
            case .weekdays(let bits): (weekdayMask, every, byMonthDay) = (Int(bits), 1, false)
            case .everyNDays(let n): (weekdayMask, every, byMonthDay) = (0x7F, max(n, 1), false)
            case .monthDays: (weekdayMask, every, byMonthDay) = (0x7F, 1, true)
            case .daily, .timesPerWeek, .timesPerMonth, .timesInDays: (weekdayMask, every, byMonthDay) = (0x7F, 1, false)
            }
        }

        /// Whether every day of the segment is due (daily, or a quota schedule's days).
        var isEveryDay: Bool { weekdayMask == 0x7F && every == 1 && !byMonthDay }

        /// Whether a day-based schedule falls on `day` (whose weekday the caller steps along).
        @inline(__always)
        func isDue(_ day: Int32, weekday: Int) -> Bool {
            if isEveryDay { return true }
            if byMonthDay { return schedule.falls(on: day, anchor: anchor) }
            return weekdayMask & (1 << weekday) != 0 && (every == 1 || (Int(day) - Int(anchor)) % every == 0)
        }
    }

    /// Calls `body` with each segment of [first, last], in order (no array: the
    /// pure calls run this once per habit, and most habits have one schedule).
    @inline(__always)
    func forEachSegment(from first: Int32, through last: Int32, _ body: (Segment) -> Void) {
        let archiveEnd = (archivedDay ?? Int32.max) &- 1
        if versions.isEmpty {
            if first <= last {
                body(
                    Segment(
                        first: first, last: last, schedule: spec.schedule, anchor: min(spec.startDay, first),
                        governedEnd: archiveEnd))
            }
            return
        }
        var index = 0
        while index < versions.count {
            let version = versions[index]
            // The run of versions with this schedule: one segment, counted from its first day.
            var end = index + 1
            while end < versions.count && versions[end].schedule == version.schedule { end += 1 }
            let next = end < versions.count ? versions[end].fromDay &- 1 : Int32.max
            let segmentFirst = index == 0 ? first : max(first, version.fromDay)
            let segmentLast = min(last, next)
            if segmentFirst <= segmentLast {
                body(
                    Segment(
                        first: segmentFirst, last: segmentLast, schedule: version.schedule,
                        anchor: index == 0 ? min(version.fromDay, first) : version.fromDay, governedEnd: min(next, archiveEnd)))
            }
            index = end
        }
    }
}
