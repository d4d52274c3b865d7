/// The period a quit habit's allowance judges.
package enum QuitPeriod: Int32, Sendable, CaseIterable {
    case day = 1
    case week = 2
    case month = 3

    package var name: String {
        switch self {
        case .day: return "day"
        case .week: return "week"
        case .month: return "month"
        }
    }
}

/// A standing relapse, as the status reads it.
package struct Relapse: Equatable, Sendable {
    /// The entry's id.
    package var id: Int64
    package var day: Int32
    package var atMs: Int64
    package var amount: Double

    package init(id: Int64, day: Int32, atMs: Int64, amount: Double) {
        self.id = id
        self.day = day
        self.atMs = atMs
        self.amount = amount
    }
}

/// A quit habit: a habit a person is giving up. Every rule of quitting lives here.
///
/// - Its days are judged every day: a day is clean (done) while no relapse stands on
///   it, and decided once it is over, as an at-most habit's day is. Streaks, strength,
///   scores, awards and group rates read those clean days, so the judges see a quit
///   habit as a daily habit whatever its schedule says (the header states how
///   reminders and shields read one).
/// - Its schedule names its allowance, versioned by the day it applies from like any
///   schedule: "daily" allows no relapse (the period is the day), "weekly:N" at most N
///   relapses a week (from the store's first weekday), "monthly:N" at most N a calendar
///   month. A period is judged by the version in force on it, cut to the days that
///   version governs, as quota periods are.
/// - Its target is what a clean day saves (money or time, in its unit; 0: nothing
///   counted), also versioned: a price change applies from a day, earlier days keep theirs.
package enum QuitRules {
    /// A quit habit's schedule names its allowance: daily, weekly:N or monthly:N.
    package static func validate(schedule: Schedule) throws(HabitError) {
        switch schedule {
        case .daily, .timesPerWeek, .timesPerMonth: return
        default:
            throw .invalid(
                "schedule '\(schedule)': a quit habit's schedule is its allowance: daily (none), weekly:N or monthly:N relapses at most")
        }
    }

    /// The allowance a schedule sets: its period and the relapses it allows in one.
    package static func allowance(_ schedule: Schedule) -> (period: QuitPeriod, allowed: Int32) {
        switch schedule {
        case .timesPerWeek(let n): return (.week, Int32(clamping: n))
        case .timesPerMonth(let n): return (.month, Int32(clamping: n))
        default: return (.day, 0)
        }
    }

    /// A quit habit as the day judges read it: every day judged (its schedule is its
    /// allowance, read by QuitStatus only). Other habits are returned as they are.
    package static func judgedDaily(_ spec: HabitSpec, versions: [SettingsVersion]) -> (HabitSpec, [SettingsVersion]) {
        guard spec.kind == .quit else { return (spec, versions) }
        var daily = spec
        daily.schedule = .daily
        return (
            daily,
            versions.map {
                var version = $0; version.schedule = .daily; return version
            }
        )
    }

    /// The days of the period holding `day`: the day, its week from `weekStart`
    /// (0 Sunday ... 6 Saturday), or its calendar month, as quota periods count them.
    package static func period(_ period: QuitPeriod, holding day: Int32, weekStart: Int) -> ClosedRange<Int32> {
        let schedule: Schedule
        switch period {
        case .day: return day...day
        case .week: schedule = .timesPerWeek(1)
        case .month: schedule = .timesPerMonth(1)
        }
        let first = Judge.periodStart(schedule, day: day, weekStart: weekStart, anchor: day)
        return first...Judge.periodEnd(schedule, start: first)
    }
}

/// Where a quit habit stands at an instant: the fold of its standing relapses.
package struct QuitStatus: Equatable, Sendable {
    /// The day answered for (today in the store's zone and day start) and the instant.
    package var asOf: Int32
    package var atMs: Int64
    /// The last relapse (latest day, then instant) on or before asOf; nil for none.
    package var lastRelapse: Relapse?
    /// Milliseconds from the last relapse's instant (none: the start day's first
    /// instant) to atMs, at least 0: the live clock.
    package var sinceMs: Int64
    /// Calendar days from the last relapse's day (none: the start day) to asOf.
    package var daysSince: Int32
    /// Clean days in a row through asOf (asOf counts while clean), and the longest run.
    package var currentClean: Int32
    package var bestClean: Int32
    package var bestCleanFirst: Int32
    package var bestCleanLast: Int32
    /// Clean days and relapses from the first day (the start, or an earlier relapse) to asOf.
    package var cleanDays: Int32
    package var relapses: Int64
    package var relapseAmount: Double
    /// The allowance of the period holding asOf and how it stands.
    package var period: QuitPeriod
    package var periodFirst: Int32
    package var periodLast: Int32
    package var periodRelapses: Int32
    package var allowed: Int32
    /// Periods in a row within their allowance, through the one holding asOf while it is within.
    package var periodsWithin: Int32
    /// Relapses in the week and in the calendar month holding asOf.
    package var weekRelapses: Int32
    package var monthRelapses: Int32
    /// What the clean days saved: each clean day's target (the version in force on it).
    package var saved: Double

    package var isOver: Bool { periodRelapses > allowed }

    /// Folds a quit habit's standing relapses (any order) as of `asOf` at `atMs`;
    /// `startMs` is the first instant of the start day. Relapses after asOf are not
    /// counted yet.
    package static func fold(
        spec: HabitSpec, versions: [SettingsVersion], relapses all: [Relapse], asOf: Int32, atMs: Int64, startMs: Int64,
        weekStart: Int
    ) -> QuitStatus {
        let relapses = all.filter { $0.day <= asOf }.sorted { ($0.day, $0.atMs) < ($1.day, $1.atMs) }
        let days = relapses.map(\.day)
        var distinct: [Int32] = []
        for day in days where distinct.last != day { distinct.append(day) }
        let first = min(spec.startDay, distinct.first ?? spec.startDay)
        let versions = versions.orFirst(of: spec)

        var status = QuitStatus(
            asOf: asOf, atMs: atMs, lastRelapse: relapses.last, sinceMs: 0, daysSince: 0, currentClean: 0, bestClean: 0,
            bestCleanFirst: 0, bestCleanLast: 0, cleanDays: 0, relapses: Int64(relapses.count),
            relapseAmount: relapses.reduce(0) { $0 + $1.amount }, period: .day, periodFirst: asOf, periodLast: asOf,
            periodRelapses: 0, allowed: 0, periodsWithin: 0, weekRelapses: 0, monthRelapses: 0, saved: 0)
        let anchorMs = relapses.last?.atMs ?? startMs
        status.sinceMs = atMs > anchorMs ? atMs &- anchorMs : 0
        status.daysSince = max(0, asOf - (distinct.last ?? spec.startDay))
        guard first <= asOf else { return status }

        // Clean runs: the gaps between relapse days, and the run through asOf.
        var previous = first - 1
        func run(_ from: Int32, _ to: Int32) {
            guard to >= from, to - from + 1 > status.bestClean else { return }
            (status.bestClean, status.bestCleanFirst, status.bestCleanLast) = (to - from + 1, from, to)
        }
        for day in distinct {
            run(previous + 1, day - 1)
            previous = day
        }
        run(previous + 1, asOf)
        status.currentClean = asOf - previous
        status.cleanDays = (asOf - first + 1) - Int32(clamping: distinct.count)

        // Savings: each version's days from `first` to asOf, less its relapse days.
        for (index, version) in versions.enumerated() {
            let from = index == 0 ? first : max(first, version.fromDay)
            let to = index + 1 < versions.count ? min(asOf, versions[index + 1].fromDay - 1) : asOf
            guard from <= to, version.target > 0 else { continue }
            let dirty = distinct.count { $0 >= from && $0 <= to }
            status.saved += Double(Int(to - from + 1) - dirty) * version.target
        }

        func count(_ range: ClosedRange<Int32>) -> Int32 {
            Int32(clamping: days.partitionPoint { $0 > range.upperBound } - days.partitionPoint { $0 >= range.lowerBound })
        }
        status.weekRelapses = count(QuitRules.period(.week, holding: asOf, weekStart: weekStart))
        status.monthRelapses = count(QuitRules.period(.month, holding: asOf, weekStart: weekStart))

        // Periods back from asOf, each judged by the version in force on it and cut
        // to the days that version governs (and to the first day).
        var day = asOf
        var isCurrent = true
        while day >= first {
            guard let index = versions.index(on: day) else { break }
            let (period, allowed) = QuitRules.allowance(versions[index].schedule)
            var bounds = QuitRules.period(period, holding: day, weekStart: weekStart)
            let governs = versions.days(ofVersionAt: index)
            bounds = max(bounds.lowerBound, governs.lowerBound, first)...min(bounds.upperBound, governs.upperBound)
            let relapsed = count(bounds)
            if isCurrent {
                (status.period, status.allowed, status.periodRelapses) = (period, allowed, relapsed)
                (status.periodFirst, status.periodLast) = (bounds.lowerBound, bounds.upperBound)
                isCurrent = false
            }
            guard relapsed <= allowed else { break }
            status.periodsWithin += 1
            day = bounds.lowerBound - 1
        }
        return status
    }
}
