import CHabitCore
import Foundation

/// The streak policy and routine options of init, habit add|edit and today (issue 26).
enum PolicyOptions {
    /// --miss-allowance N|store and --open-day previous|zero|store, as a habit's own
    /// fields to change: nil leaves a field as it is; HC_POLICY_INHERIT / 0 follow the store.
    struct HabitChange {
        var missAllowance: Int32?
        var openDay: Int32?
        var isEmpty: Bool { missAllowance == nil && openDay == nil }
    }

    static func habitChange(_ args: inout Arguments) throws(CLIError) -> HabitChange {
        var change = HabitChange()
        if let text = args.option("miss-allowance") {
            if text == "store" { change.missAllowance = HC_POLICY_INHERIT } else {
                guard let value = Int32(text) else { throw .usage("--miss-allowance takes a whole number 0...31, or 'store'") }
                change.missAllowance = value
            }
        }
        if let text = args.option("open-day") { change.openDay = text == "store" ? 0 : try openDay(text) }
        return change
    }

    static func openDay(_ text: String) throws(CLIError) -> Int32 {
        switch text {
        case "previous": return HC_OPEN_DAY_PREVIOUS
        case "zero": return HC_OPEN_DAY_ZERO
        default: throw .usage("--open-day takes previous or zero")
        }
    }

    static func offDays(_ text: String) throws(CLIError) -> Int32 {
        switch text {
        case "skip": return HC_OFF_DAYS_SKIP
        case "break": return HC_OFF_DAYS_BREAK
        default: throw .usage("--off-days takes skip or break")
        }
    }

    static func newPolicy() -> hc_streak_policy {
        Library.defaults(hc_streak_policy_init)
    }

    /// Applies a change to a habit's own policy, keeping the fields it does not name.
    static func apply(_ change: HabitChange, to habitId: Int64, _ store: StoreRef) throws(CLIError) {
        guard !change.isEmpty else { return }
        var own = newPolicy()
        try Library.check(hc_habit_streak_policy(&own, store.handle, habitId, HC_POLICY_OWN))
        if let allowance = change.missAllowance { own.miss_allowance = allowance }
        if let openDay = change.openDay { own.open_day = openDay }
        try Library.check(hc_habit_set_streak_policy(store.handle, habitId, &own))
    }

    /// The policy a habit's streaks follow, and whether each field is its own.
    static func habitJSON(_ habitId: Int64, _ store: StoreRef) throws(CLIError) -> [String: Any] {
        var effective = newPolicy(), own = newPolicy()
        try Library.check(hc_habit_streak_policy(&effective, store.handle, habitId, 0))
        try Library.check(hc_habit_streak_policy(&own, store.handle, habitId, HC_POLICY_OWN))
        return ["miss_allowance": effective.miss_allowance, "open_day": openDayName(effective.open_day),
                "own_miss_allowance": own.miss_allowance != HC_POLICY_INHERIT, "own_open_day": own.open_day != 0]
    }

    static func describe(_ json: [String: Any]) -> String {
        let allowance = json["miss_allowance"] as? Int32 ?? 0
        let own = (json["own_miss_allowance"] as? Bool ?? false) || (json["own_open_day"] as? Bool ?? false)
        return "streaks: miss allowance \(allowance), open day \(json["open_day"] as? String ?? "?")\(own ? "" : " (the store's)")"
    }

    static func openDayName(_ value: Int32) -> String { value == HC_OPEN_DAY_ZERO ? "zero" : "previous" }
    static func offDaysName(_ value: Int32) -> String { value == HC_OFF_DAYS_BREAK ? "break" : "skip" }

    /// --routines HH:MM,HH:MM,HH:MM: the morning, day and evening starts as minutes after the day start.
    static func routineBounds(_ text: String) throws(CLIError) -> [Int32] {
        let parts = text.split(separator: ",").map(String.init)
        guard parts.count == 3 else { throw .usage("--routines takes three times HH:MM,HH:MM,HH:MM (morning, day, evening)") }
        var minutes: [Int32] = []
        for part in parts { minutes.append(try Commands.parseClock(part)) }
        return minutes
    }

    /// --at TIME: an instant "YYYY-MM-DDTHH:MM[:SS]" with "Z" or "+HH:MM" (Commands.isoInstant); or a local time
    /// "HH:MM" of the store's day `day`, turned into an instant by the library (hc_store_utc_ms:
    /// the home zone, the day start, the clock changes).
    static func instant(_ text: String, day: Int32, _ store: StoreRef) throws(CLIError) -> Int64 {
        if text.count > 5 {
            let bad = CLIError.invalid("'\(text)' is not a time: give HH:MM, or an instant like 2026-03-10T07:30Z or 2026-03-10T07:30+01:00")
            return try Commands.isoInstant(text, invalid: bad)
        }
        var utcMs: Int64 = 0
        try Library.check(hc_store_utc_ms(&utcMs, store.handle, day, try Commands.parseClock(text)))
        return utcMs
    }
}
