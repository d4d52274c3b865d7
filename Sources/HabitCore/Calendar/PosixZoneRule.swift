/// The POSIX TZ rule at the end of a TZif file ("EST5EDT,M3.2.0,M11.1.0"): how a
/// zone keeps time after its last listed transition, so dates decades ahead are right.
package struct PosixZoneRule: Equatable, Sendable {
    /// When a daylight-saving period starts or ends, as POSIX writes it.
    enum RuleDay: Equatable, Sendable {
        case julianNoLeap(Int)  // Jn: 1...365, February 29 never counted
        case zeroBased(Int)  // n: 0...365
        case monthWeekDay(month: Int, week: Int, weekday: Int)  // Mm.w.d
    }

    struct Daylight: Equatable, Sendable {
        var offset: Int32  // seconds east of UTC while in effect
        var start: RuleDay
        var startTime: Int32  // seconds after local midnight, standard time
        var end: RuleDay
        var endTime: Int32  // seconds after local midnight, daylight time
    }

    /// Seconds east of UTC in standard time.
    var standardOffset: Int32
    var daylight: Daylight?

    /// Parses a rule; an empty footer has no rule and yields nil.
    package static func parse(_ text: String) throws(HabitError) -> PosixZoneRule {
        var parser = Parser(bytes: Array(text.utf8))
        let rule = try parser.rule()
        guard parser.atEnd else { throw .corrupt("time zone rule '\(text)' has trailing text") }
        return rule
    }

    /// The UTC offset in force at a UTC instant (seconds since the epoch).
    package func utcOffset(atUTC seconds: Int64) -> Int32 {
        guard let daylight else { return standardOffset }
        let localDay = Int32(clamping: floorDiv(seconds + Int64(standardOffset), 86_400))
        let clamped = min(max(localDay, CivilDate.minDay), CivilDate.maxDay)
        guard let year = try? CivilDate(dayNumber: clamped).year else { return standardOffset }
        let start = Int64(dayNumber(daylight.start, year: year)) * 86_400 + Int64(daylight.startTime) - Int64(standardOffset)
        let end = Int64(dayNumber(daylight.end, year: year)) * 86_400 + Int64(daylight.endTime) - Int64(daylight.offset)
        let inDaylight = start < end ? (seconds >= start && seconds < end) : !(seconds >= end && seconds < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    private func dayNumber(_ day: RuleDay, year: Int) -> Int32 {
        let january1 = (try? CivilDate(year: year, month: 1, day: 1).dayNumber) ?? 0
        switch day {
        case .julianNoLeap(let n):
            let afterFebruary = CivilDate.isLeap(year) && n >= 60 ? 1 : 0
            return january1 + Int32(n - 1 + afterFebruary)
        case .zeroBased(let n):
            return january1 + Int32(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = (try? CivilDate(year: year, month: month, day: 1).dayNumber) ?? january1
            var day = first + Int32((weekday - CivilDate.weekday(first) + 7) % 7) + Int32((week - 1) * 7)
            let last = first + Int32(CivilDate.daysInMonth(year: year, month: month) - 1)
            while day > last { day -= 7 }
            return day
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }
        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func rule() throws(HabitError) -> PosixZoneRule {
            try name()
            let standard = -(try offset())
            guard current != nil, current != UInt8(ascii: ",") else {
                return PosixZoneRule(standardOffset: standard, daylight: nil)
            }
            try name()
            var daylightOffset = standard + 3600
            if let c = current, c != UInt8(ascii: ",") { daylightOffset = -(try offset()) }
            var start = RuleDay.monthWeekDay(month: 3, week: 2, weekday: 0)
            var end = RuleDay.monthWeekDay(month: 11, week: 1, weekday: 0)
            var startTime: Int32 = 7200
            var endTime: Int32 = 7200
            if current == UInt8(ascii: ",") {
                index += 1
                start = try ruleDay()
                if current == UInt8(ascii: "/") { index += 1; startTime = try time(maxHours: 167) }
                try expect(",")
                end = try ruleDay()
                if current == UInt8(ascii: "/") { index += 1; endTime = try time(maxHours: 167) }
            }
            let daylight = Daylight(offset: daylightOffset, start: start, startTime: startTime, end: end, endTime: endTime)
            return PosixZoneRule(standardOffset: standard, daylight: daylight)
        }

        private mutating func name() throws(HabitError) {
            if current == UInt8(ascii: "<") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { throw .corrupt("unterminated zone abbreviation") }
                index = close + 1
                return
            }
            let start = index
            while let c = current, (c >= 65 && c <= 90) || (c >= 97 && c <= 122) { index += 1 }
            guard index - start >= 3 else { throw .corrupt("zone abbreviation too short") }
        }

        private mutating func offset() throws(HabitError) -> Int32 {
            try time(maxHours: 24)
        }

        private mutating func time(maxHours: Int) throws(HabitError) -> Int32 {
            var sign: Int32 = 1
            if current == UInt8(ascii: "+") { index += 1 } else if current == UInt8(ascii: "-") { sign = -1; index += 1 }
            let hours = try number(maxDigits: 3)
            guard hours <= maxHours else { throw .corrupt("hour \(hours) out of range in zone rule") }
            var seconds = hours * 3600
            if current == UInt8(ascii: ":") {
                index += 1
                let minutes = try number(maxDigits: 2)
                guard minutes < 60 else { throw .corrupt("minutes out of range in zone rule") }
                seconds += minutes * 60
                if current == UInt8(ascii: ":") {
                    index += 1
                    let secs = try number(maxDigits: 2)
                    guard secs < 60 else { throw .corrupt("seconds out of range in zone rule") }
                    seconds += secs
                }
            }
            return sign * Int32(seconds)
        }

        private mutating func ruleDay() throws(HabitError) -> RuleDay {
            if current == UInt8(ascii: "J") {
                index += 1
                let n = try number(maxDigits: 3)
                guard (1...365).contains(n) else { throw .corrupt("Julian day \(n) out of range in zone rule") }
                return .julianNoLeap(n)
            }
            if current == UInt8(ascii: "M") {
                index += 1
                let month = try number(maxDigits: 2)
                try expect(".")
                let week = try number(maxDigits: 1)
                try expect(".")
                let weekday = try number(maxDigits: 1)
                guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
                    throw .corrupt("month rule M\(month).\(week).\(weekday) out of range")
                }
                return .monthWeekDay(month: month, week: week, weekday: weekday)
            }
            let n = try number(maxDigits: 3)
            guard (0...365).contains(n) else { throw .corrupt("day \(n) out of range in zone rule") }
            return .zeroBased(n)
        }

        private mutating func number(maxDigits: Int) throws(HabitError) -> Int {
            var value = 0
            var digits = 0
            while let c = current, c >= 48, c <= 57, digits < maxDigits {
                value = value * 10 + Int(c - 48)
                digits += 1
                index += 1
            }
            guard digits > 0 else { throw .corrupt("expected a number in zone rule") }
            return value
        }

        private mutating func expect(_ character: Unicode.Scalar) throws(HabitError) {
            guard current == UInt8(ascii: character) else { throw .corrupt("expected '\(character)' in zone rule") }
            index += 1
        }
    }
}

/// Floor division: rounds towards negative infinity, unlike `/`.
package func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
