import HabitPlatform  // pow: maths only, no I/O

/// Habit strength: Loop Habit Tracker's score, in our own words (read from its
/// uhabits-core ScoreList and Score; stated in the header too).
///
/// - Every day from the habit's start day on takes one step
///   s = s_prev * m + v * (1 - m), m = 0.5 ^ (sqrt(n / d) / 13), where n/d is the
///   habit's frequency, "n times in d days".
/// - v comes from a window over the last days, the day itself included:
///   - yes/no: the done days in the last d days against n, at most 1; below once
///     a day both are doubled (2n in 2d days), so that a weekly habit done on
///     different weekdays still scores 1.
///   - numbers, at least: the sum of the last d days against the target, at most
///     1 (a target of 0: 1).
///   - numbers, at most: 1 - (sum - target) / target, kept within 0...1 (a target
///     of 0: 1 when the sum is 0, else 0). The value starts at 1, not 0.
/// - A skipped or vacation day takes no step: the value stays. Loop keeps a
///   skipped number as the stored number 3 (thousandths), and its window adds it;
///   so does ours, so that the two agree. Numbers are counted in thousandths, as
///   Loop stores them.
/// - Our schedules Loop lacks use the frequency they amount to: days:mon,wed,fri
///   3/7, every:N 1/N, monthdays (k days) k/30, weekly:N N/7, monthly:N N/30,
///   times:N/M N/M, daily 1/1. A schedule change starts its own window from that day.
/// - Our one difference: the open day (as of, not over) moves the value only once
///   it is done; until then it shows the day before's. Every day that is over is
///   Loop's value. Days before the start are 0; after archiving the value stays.
/// - Measurements have no strength (0).
package enum Strength {
    /// The one step of the score.
    @inline(__always)
    package static func step(previous: Double, value: Double, multiplier: Double) -> Double {
        previous * multiplier + value * (1 - multiplier)
    }

    /// How much of the value a day keeps: 0.5 ^ (sqrt(frequency) / 13).
    package static func multiplier(times: Int, days: Int) -> Double {
        pow(0.5, (Double(times) / Double(days)).squareRoot() / 13)
    }

    /// The frequency "times in days" Loop would give a schedule.
    package static func frequency(_ schedule: Schedule) -> (times: Int, days: Int) {
        switch schedule {
        case .daily: return (1, 1)
        case .weekdays(let bits): return (max(1, bits.nonzeroBitCount), 7)
        case .everyNDays(let n): return (1, max(1, n))
        case .monthDays(let days): return (min(max(1, days.count), 30), 30)
        case .timesPerWeek(let n): return (min(max(1, n), 7), 7)
        case .timesPerMonth(let n): return (min(max(1, n), 30), 30)
        case .timesInDays(let n, let m): return (max(1, n), max(1, m))
        }
    }

    /// The window of a yes/no habit: the done days it asks for and the days it
    /// spans; doubled below once a day, to smooth out irregular weeks.
    package static func checkWindow(times: Int, days: Int) -> (times: Int, days: Int) {
        times < days ? (times * 2, days * 2) : (times, days)
    }

    /// A yes/no day's value: done days in the window against what it asks for.
    @inline(__always)
    package static func checkValue(doneInWindow: Int, times: Int) -> Double {
        min(1, Double(doneInWindow) / Double(times))
    }

    /// A number's day value from its window's sum.
    @inline(__always)
    package static func numberValue(sum: Double, target: Double, atMost: Bool) -> Double {
        if atMost {
            guard target > 0 else { return sum > 0 ? 0 : 1 }
            return min(max(1 - (sum - target) / target, 0), 1)
        }
        guard target > 0 else { return 1 }
        return min(1, sum / target)
    }

    /// Where a number starts before its first day: at most 1, at least 0.
    package static func initial(numeric: Bool, atMost: Bool) -> Double { numeric && atMost ? 1 : 0 }

    /// The stored number Loop keeps for a skipped number, in thousandths.
    package static let skippedNumberThousandths: Int64 = 3

    /// A day's amount in thousandths (Loop's unit), negative amounts as 0; kept
    /// far below Int64's range so a year of sums cannot overflow.
    @inline(__always)
    package static func thousandths(_ value: Double) -> Int64 {
        guard value.isFinite, value > 0 else { return value == .infinity ? 1_000_000_000_000_000 : 0 }
        return Int64(min((value * 1000).rounded(), 1e15))
    }
}

extension Scores {
    /// Strength at the end of each day in [from, to]; `asOf` is the open day.
    package static func strengthSeries(
        _ history: HabitHistory, from: Int32, to: Int32, asOf: Int32, weekStart: Int,
        vacations: [ClosedRange<Int32>] = []
    ) -> [Double] {
        guard from <= to else { return [] }
        let count = Int(to) - Int(from) + 1
        // The spec's fields this needs, not a copy of the spec (its strings are retained per copy).
        let kind = history.spec.kind, startDay = history.spec.startDay
        guard kind != .measurement else { return [Double](repeating: 0, count: count) }
        let numeric = kind == .counter || kind == .duration
        // Target and direction of each day's version; read per day only when they vary.
        let (target, atMost) = history.limit(on: startDay)
        let limitVaries = history.variesBeyondSchedule
        let last = history.lastActiveDay(asOf: to)
        let excused = ExcusedDays(history.excusedRanges(vacations), from: startDay, to: last)
        let hasVacations = !excused.isEmpty
        let marks = history.judged(asOf: Int32.max)
        // At-most numbers: a day is done only once it is over (asOf on, not yet).
        let doneFrom = HabitHistory.judgedAtDayEnd(history.spec(on: asOf)) ? asOf : Int32.max

        // What a day from the start on puts into the window: a done check (1), or a number in thousandths.
        @inline(__always) func contribution(_ day: Int32, _ mark: UInt8, numeric: Bool) -> Int64 {
            if !numeric { return Int64(mark & HabitHistory.Mark.done) }
            let amount = Strength.thousandths(history.value(on: day))
            return mark & HabitHistory.Mark.skipped != 0 ? amount + Strength.skippedNumberThousandths : amount
        }

        // Every day is written once (no zeroed array first): the loops below write
        // the days they judge, zero(before:) the ones before the start (and any gap).
        return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = buffer
            var unwritten = from
            func zero(before day: Int32) {
                while unwritten < day && unwritten <= to { out[Int(unwritten &- from)] = 0; unwritten &+= 1 }
            }
            var strength = Strength.initial(numeric: numeric, atMost: atMost)
            history.forEachSegment(from: startDay, through: last) { segment in
                zero(before: segment.first)
                let frequency = Strength.frequency(segment.schedule)
                let m = Strength.multiplier(times: frequency.times, days: frequency.days)
                let window = numeric ? frequency : Strength.checkWindow(times: frequency.times, days: frequency.days)
                let span = window.days
                // The last `span` days' contributions in a ring, so each day is read once
                // (none to allocate for a window of one day, which is the day itself).
                var ring: [Int64] = span == 1 ? [] : [Int64](repeating: 0, count: span)
                ring.withUnsafeMutableBufferPointer { ring in
                    // The window as it stands before the segment's first day (slot 0 leaves first).
                    // Sums wrap without a check: at most 730 days of at most 1e15 + 3 each.
                    var sum: Int64 = 0
                    var slot = 1
                    var day = segment.first &- Int32(span) &+ 1
                    while day < segment.first {
                        let c = day < startDay ? 0 : contribution(day, marks.mark(day), numeric: numeric)
                        ring[slot] = c
                        sum &+= c
                        slot += 1
                        day += 1
                    }
                    let times = window.times
                    // Days before asOf are over: each takes its step unless excused. A copy
                    // of the loop per kind and window (one day or more), so that none tests
                    // them per day; the window and the score are its own locals, so that
                    // they stay in registers.
                    @inline(__always) func sweep(numeric: Bool, oneDay: Bool, sum initialSum: Int64) -> Double {
                        var sum = initialSum, slot = 0, score = strength
                        // One day: its contribution enters the window, and unless it is excused
                        // (or the open day, not done) the score takes its step.
                        @inline(__always) func take(_ day: Int32, _ mark: UInt8, over: Bool) {
                            let c = contribution(day, mark, numeric: numeric)
                            if oneDay {
                                // A window of one day (daily checks and numbers) is the day itself.
                                sum = c
                            } else {
                                sum &+= c &- ring[slot]
                                ring[slot] = c
                                slot = slot &+ 1 == span ? 0 : slot &+ 1
                            }
                            let skipped = mark & HabitHistory.Mark.skipped != 0 || (hasVacations && excused.contains(day))
                            let counts = over || (mark & HabitHistory.Mark.done != 0 && day < doneFrom)
                            if !skipped && counts {
                                let limit = limitVaries ? history.limit(on: day) : (target: target, atMost: atMost)
                                let value =
                                    numeric
                                    ? Strength.numberValue(sum: Double(sum) / 1000, target: limit.target, atMost: limit.atMost)
                                    : Strength.checkValue(doneInWindow: Int(sum), times: times)
                                score = Strength.step(previous: score, value: value, multiplier: m)
                            }
                            let index = Int(day) &- Int(from)
                            if index >= 0 { out[index] = score }
                        }
                        let overLast = min(segment.last, asOf &- 1)
                        marks.forEachMark(from: segment.first, through: overLast) { take($0, $1, over: true) }
                        var open = max(segment.first, overLast &+ 1)
                        while open <= segment.last { take(open, marks.mark(open), over: false); open &+= 1 }
                        return score
                    }
                    switch (numeric, span == 1) {
                    case (true, true): strength = sweep(numeric: true, oneDay: true, sum: sum)
                    case (true, false): strength = sweep(numeric: true, oneDay: false, sum: sum)
                    case (false, true): strength = sweep(numeric: false, oneDay: true, sum: sum)
                    case (false, false): strength = sweep(numeric: false, oneDay: false, sum: sum)
                    }
                }
                unwritten = max(unwritten, segment.last &+ 1)
            }
            // After the last active day (archived) the value stays.
            var day = max(last &+ 1, max(from, startDay))
            zero(before: day)
            while day <= to { out[Int(day &- from)] = strength; day &+= 1 }
            unwritten = max(unwritten, day)
            zero(before: to &+ 1)
            initialized = count
        }
    }
}
