/// A calendar date without a time zone, and its day number (days since 1970-01-01).
/// The day number is what the engine stores and computes with; the text form
/// "YYYY-MM-DD" is what people type. Proleptic Gregorian, years 1 through 9999.
package struct CivilDate: Equatable, Hashable, Sendable, CustomStringConvertible {
    package var year: Int
    package var month: Int
    package var day: Int

    /// 0001-01-01 and 9999-12-31 as day numbers.
    package static let minDay: Int32 = -719_162
    package static let maxDay: Int32 = 2_932_896

    package init(year: Int, month: Int, day: Int) throws(HabitError) {
        guard (1...9999).contains(year) else { throw .invalid("year \(year) is outside 1...9999") }
        guard (1...12).contains(month) else { throw .invalid("month \(month) does not exist") }
        let last = CivilDate.daysInMonth(year: year, month: month)
        guard (1...last).contains(day) else {
            throw .invalid("\(CivilDate.pad(year, 4))-\(CivilDate.pad(month, 2))-\(CivilDate.pad(day, 2)) is not a date: that month has \(last) days")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a day number (algorithm of H. Hinnant's days_from_civil, inverted).
    package init(dayNumber: Int32) throws(HabitError) {
        guard CivilDate.isValid(dayNumber) else { throw .invalid("day number \(dayNumber) is outside 0001-01-01...9999-12-31") }
        let z = Int(dayNumber) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    /// Parses exactly "YYYY-MM-DD".
    package init(parsing text: String) throws(HabitError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else {
            throw .invalid("'\(text.prefix(40))' is not a date: expected YYYY-MM-DD")
        }
        func number(_ range: Range<Int>) throws(HabitError) -> Int {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    throw .invalid("'\(text)' is not a date: expected YYYY-MM-DD")
                }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        try self.init(year: number(0..<4), month: number(5..<7), day: number(8..<10))
    }

    package var dayNumber: Int32 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Int32(era * 146_097 + doe - 719_468)
    }

    package var description: String {
        "\(CivilDate.pad(year, 4))-\(CivilDate.pad(month, 2))-\(CivilDate.pad(day, 2))"
    }

    package static func isValid(_ dayNumber: Int32) -> Bool {
        dayNumber >= minDay && dayNumber <= maxDay
    }

    /// The most days one series call covers (about 273 years).
    package static let maxRangeDays: Int32 = 100_000

    /// Both days valid, in order, and (with a limit) at most `limit` days.
    package static func checkRange(from: Int32, to: Int32, limit: Int32?) throws(HabitError) {
        guard isValid(from), isValid(to) else { throw .invalid("dates must be within 0001-01-01...9999-12-31") }
        guard from <= to else { throw .invalid("the range ends before it starts") }
        if let limit, Int64(to) - Int64(from) >= Int64(limit) { throw .invalid("the range is longer than \(limit) days") }
    }

    package static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday).
    package static func weekday(_ dayNumber: Int32) -> Int {
        let r = (Int(dayNumber) + 4) % 7
        return r < 0 ? r + 7 : r
    }

    /// Formats a day number, or says why it cannot.
    package static func format(_ dayNumber: Int32) throws(HabitError) -> String {
        try CivilDate(dayNumber: dayNumber).description
    }

    /// Parses text into a day number.
    package static func parseDay(_ text: String) throws(HabitError) -> Int32 {
        try CivilDate(parsing: text).dayNumber
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
