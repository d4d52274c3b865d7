import Foundation
import HabitKit

/// One function per command; each parses its arguments, calls HabitKit, and reports.
enum Commands {
    static func initStore(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["timezone", "day-start", "week-start", "off-days", "miss-allowance", "open-day", "routines"])
        let timezone = args.option("timezone")
        let dayStart = try args.option("day-start").map(parseClock)
        let weekStart = try args.option("week-start").map { (name) throws(CLIError) -> Int32 in
            guard let index = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].firstIndex(of: name.lowercased().prefix(3).description) else {
                throw CLIError.usage("--week-start takes a weekday name, like mon or sun")
            }
            return Int32(index)
        }
        let offDays = try args.option("off-days").map(PolicyOptions.offDays)
        let openDay = try args.option("open-day").map(PolicyOptions.openDay)
        let missAllowance = try args.option("miss-allowance").map { (text) throws(CLIError) -> Int32 in
            guard let value = Int32(text) else { throw .usage("--miss-allowance takes a whole number 0...31") }
            return value
        }
        let routines = try args.option("routines").map(PolicyOptions.routineBounds)
        try args.finish(maxPositionals: 0)
        // The settings are tried on a store in memory first, so a refused init creates nothing.
        let apply = { (store: StoreRef) throws(CLIError) in
            try kit { () throws(HabitError) in
                if let timezone { try store.kit.setTimeZone(timezone) }
                if let dayStart { try store.kit.setDayStart(minutes: dayStart) }
                if let weekStart { try store.kit.setWeekStart(weekStart) }
                if offDays != nil || openDay != nil || missAllowance != nil {
                    var policy = try store.kit.streakPolicy()
                    policy.offDays = offDays ?? policy.offDays
                    policy.openDay = openDay ?? policy.openDay
                    policy.missAllowance = missAllowance ?? policy.missAllowance
                    try store.kit.setStreakPolicy(policy)
                }
                if let routines { try store.kit.setRoutineBounds(RoutineBounds(morning: routines[0], day: routines[1], evening: routines[2])) }
            }
        }
        try apply(StoreRef(path: ":memory:"))
        let path = try context.resolvedPath()
        let store = try StoreRef(path: path)
        try apply(store)
        let (policy, routineBounds, zoneName, minutes, version) = try kit { () throws(HabitError) in
            (
                try store.kit.streakPolicy(), try store.kit.routineBounds(), try store.kit.timeZone(), try store.kit.dayStart(),
                try store.kit.schemaVersion()
            )
        }
        let bounds = [routineBounds.morning, routineBounds.day, routineBounds.evening]
        let today = try store.today()
        let streaks: [String: Any] = [
            "miss_allowance": policy.missAllowance, "open_day": PolicyOptions.openDayName(policy.openDay),
            "off_days": PolicyOptions.offDaysName(policy.offDays),
        ]
        let routineText = bounds.map(clock).joined(separator: ",")
        context.output.emit([
            "path": path, "timezone": zoneName, "day_start": clock(minutes),
            "schema": Int(version), "today": Library.format(today), "streaks": streaks,
            "routines": ["morning": clock(bounds[0]), "day": clock(bounds[1]), "evening": clock(bounds[2])],
        ]) {
            "store \(path)\n  time zone \(zoneName), day starts at \(clock(minutes)), today is \(Library.format(today)), schema \(version)"
                + "\n  streaks: miss allowance \(policy.missAllowance), open day \(PolicyOptions.openDayName(policy.openDay)), "
                + "off days \(PolicyOptions.offDaysName(policy.offDays)); routines start \(routineText) after the day start"
        }
    }

    // MARK: Helpers

    /// A file's text, or stdin for "-".
    static func readInput(_ path: String) throws(CLIError) -> String {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw CLIError(exitCode: 3, message: "cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw .invalid("\(path) is not UTF-8 text") }
        return text
    }

    static func number(_ text: String, _ what: String) throws(CLIError) -> Double {
        guard let value = Double(text), value.isFinite else { throw .invalid("\(what) '\(text)' is not a number") }
        return value
    }

    /// "HH:MM" as minutes after midnight.
    static func parseClock(_ text: String) throws(CLIError) -> Int32 {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int32(parts[0]), let m = Int32(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else {
            throw .invalid("'\(text)' is not a time of day HH:MM")
        }
        return h * 60 + m
    }

    /// "YYYY-MM-DDTHH:MM[:SS]" then "Z" or "+HH:MM" / "-HH:MM", as UTC milliseconds.
    /// `invalid` is the caller's error, naming the forms it takes.
    static func isoInstant(_ text: String, invalid bad: CLIError) throws(CLIError) -> Int64 {
        let parts = text.split(separator: "T", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw bad }
        let date = try Library.parseDate(parts[0])
        var time = parts[1]
        var offsetMinutes: Int64 = 0
        if time.hasSuffix("Z") {
            time.removeLast()
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = try Commands.parseClock(String(time[time.index(after: sign)...]))
            offsetMinutes = Int64(offset) * (time[sign] == "-" ? -1 : 1)
            time = String(time[..<sign])
        } else {
            throw bad
        }
        let fields = time.split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
        guard fields.count == 2 || fields.count == 3, let hour = fields[0], let minute = fields[1], (0..<24).contains(hour),
            (0..<60).contains(minute)
        else { throw bad }
        var second: Int64 = 0
        if fields.count == 3 {
            guard let value = fields[2], (0..<60).contains(value) else { throw bad }
            second = value
        }
        return ((Int64(date) * 86_400 + hour * 3600 + minute * 60 + second) - offsetMinutes * 60) * 1000
    }

    static func clock(_ minutes: Int32) -> String {
        String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
