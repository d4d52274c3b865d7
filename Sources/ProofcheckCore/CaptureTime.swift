import HabitCore

/// When a photo says it was taken, from its EXIF: DateTimeOriginal read in its own
/// offset (OffsetTimeOriginal) when given, else the GPS UTC date and time, else as
/// wall-clock time where the store is. EXIF is easy to rewrite, so what this finds
/// only ever lowers confidence.
package struct CaptureTime: Equatable, Sendable {
    /// Seconds since 1970 in UTC.
    package var instant: Int64
    /// How the instant was fixed: "offset", "gps" or "store_zone".
    package var basis: String

    /// The capture time, or nil when the EXIF holds none that parses.
    package init?(_ facts: ExifFacts, storeOffsetSeconds: Int64) {
        guard let original = facts.dateTimeOriginal.flatMap(Self.wallSeconds) else { return nil }
        if let offset = facts.offsetTimeOriginal.flatMap(Self.offsetSeconds) {
            (instant, basis) = (original - offset, "offset")
        } else if let gps = Self.gpsInstant(facts) {
            (instant, basis) = (gps, "gps")
        } else {
            (instant, basis) = (original - storeOffsetSeconds, "store_zone")
        }
    }

    /// "YYYY:MM:DD HH:MM:SS" as seconds since 1970 on a wall clock.
    package static func wallSeconds(_ text: String) -> Int64? {
        let digits = Array(text.utf8)
        guard digits.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (48...57).contains(digits[index]) else { return nil }
                value = value * 10 + Int(digits[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            hour < 24, minute < 60, second < 61,
            let date = try? CivilDate(year: year, month: month, day: day)
        else { return nil }
        return Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// "+HH:MM" / "-HH:MM" as seconds east of UTC.
    static func offsetSeconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
            let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)), let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
            hours <= 14, minutes < 60
        else { return nil }
        let seconds = Int64(hours * 3600 + minutes * 60)
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    private static func gpsInstant(_ facts: ExifFacts) -> Int64? {
        guard let date = facts.gpsDate, let time = facts.gpsTime, time.count == 3,
            time.allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 86_400 }),
            let midnight = wallSeconds(date + " 00:00:00")
        else { return nil }
        return midnight + Int64(time[0] * 3600 + time[1] * 60 + time[2])
    }
}
