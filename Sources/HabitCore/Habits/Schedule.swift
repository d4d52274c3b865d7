/// When a habit is due. Stored and exchanged as canonical text ("days:mon,wed,fri").
/// What each schedule means for streaks is decided where streaks are computed;
/// here a schedule is parsed, validated and written back the same way every time.
package enum Schedule: Equatable, Hashable, Sendable, CustomStringConvertible {
    case daily
    /// Weekdays as a bit set, bit 0 = Sunday ... bit 6 = Saturday.
    case weekdays(UInt8)
    case everyNDays(Int)
    case monthDays([Int])
    case timesPerWeek(Int)
    case timesPerMonth(Int)
    /// N times in every block of M days counted from the first day the schedule
    /// governed (Loop Habit Tracker's "N times in M days"); 1 <= N <= M <= 365.
    case timesInDays(Int, Int)

    private static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    package init(parsing raw: String) throws(HabitError) {
        // Stored schedules are written lower-case: only other text pays for lowercased().
        let lowerASCII = raw.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        let text = lowerASCII ? raw : raw.lowercased()
        // Split by scalars, not Characters: this runs for every schedule a store reads.
        let colon = text.unicodeScalars.firstIndex(of: ":")
        let head = colon.map { String(text.unicodeScalars[..<$0]) } ?? text
        let argument = colon.map { String(text.unicodeScalars[text.unicodeScalars.index(after: $0)...]) }
        func items(_ separator: Unicode.Scalar) -> [String] {
            (argument ?? "").unicodeScalars.split(separator: separator, omittingEmptySubsequences: false).map { String($0) }
        }
        func count(_ range: ClosedRange<Int>) throws(HabitError) -> Int {
            guard let argument, let n = Int(argument), range.contains(n) else {
                throw .invalid("schedule '\(raw.prefix(60))': expected \(head):N with N in \(range.lowerBound)...\(range.upperBound)")
            }
            return n
        }
        switch head {
        case "daily" where argument == nil:
            self = .daily
        case "days":
            var bits: UInt8 = 0
            for name in items(",") {
                guard let index = Schedule.dayNames.firstIndex(of: name) else {
                    throw .invalid("schedule '\(raw.prefix(60))': '\(name.prefix(20))' is not a weekday (mon,tue,wed,thu,fri,sat,sun)")
                }
                guard bits & (1 << index) == 0 else { throw .invalid("schedule '\(raw.prefix(60))' repeats \(name)") }
                bits |= 1 << index
            }
            self = .weekdays(bits)
        case "every":
            self = .everyNDays(try count(1...365))
        case "monthdays":
            var days: [Int] = []
            for item in items(",") {
                guard let day = Int(item), (1...31).contains(day) else {
                    throw .invalid("schedule '\(raw.prefix(60))': '\(item.prefix(20))' is not a day of the month (1...31)")
                }
                guard !days.contains(day) else { throw .invalid("schedule '\(raw.prefix(60))' repeats day \(day)") }
                days.append(day)
            }
            self = .monthDays(days.sorted())
        case "weekly":
            self = .timesPerWeek(try count(1...7))
        case "monthly":
            self = .timesPerMonth(try count(1...31))
        case "times":
            let numbers = items("/")
            guard numbers.count == 2, let n = Int(numbers[0]), let m = Int(numbers[1]), (1...365).contains(m), (1...m).contains(n) else {
                throw .invalid("schedule '\(raw.prefix(60))': expected times:N/M, N times in M days, with 1 <= N <= M <= 365")
            }
            self = .timesInDays(n, m)
        default:
            throw .invalid("schedule '\(raw.prefix(60))' is not one of daily, days:mon,wed, every:N, monthdays:1,15, weekly:N, monthly:N, times:N/M")
        }
    }

    package var description: String {
        switch self {
        case .daily: return "daily"
        case .weekdays(let bits):
            // Written Monday first, as people read a week.
            let order = [1, 2, 3, 4, 5, 6, 0]
            return "days:" + order.filter { bits & (1 << $0) != 0 }.map { Schedule.dayNames[$0] }.joined(separator: ",")
        case .everyNDays(let n): return "every:\(n)"
        case .monthDays(let days): return "monthdays:" + days.map(String.init).joined(separator: ",")
        case .timesPerWeek(let n): return "weekly:\(n)"
        case .timesPerMonth(let n): return "monthly:\(n)"
        case .timesInDays(let n, let m): return "times:\(n)/\(m)"
        }
    }
}
