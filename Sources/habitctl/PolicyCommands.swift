import Foundation
import HabitKit

/// The streak policy and routine options of init, habit add|edit and today.
enum PolicyOptions {
    /// --miss-allowance N|store and --open-day previous|zero|store, as a habit's own
    /// fields to change: nil leaves a field as it is; .some(nil) follows the store.
    struct HabitChange {
        var missAllowance: Int32??
        var openDay: OpenDay??
        var isEmpty: Bool { missAllowance == nil && openDay == nil }
    }

    static func habitChange(_ args: inout Arguments) throws(CLIError) -> HabitChange {
        var change = HabitChange()
        if let text = args.option("miss-allowance") {
            if text == "store" {
                change.missAllowance = .some(nil)
            } else {
                guard let value = Int32(text) else { throw .usage("--miss-allowance takes a whole number 0...31, or 'store'") }
                change.missAllowance = value
            }
        }
        if let text = args.option("open-day") { change.openDay = try text == "store" ? .some(nil) : .some(openDay(text)) }
        return change
    }

    static func openDay(_ text: String) throws(CLIError) -> OpenDay {
        switch text {
        case "previous": return .previous
        case "zero": return .zero
        default: throw .usage("--open-day takes previous or zero")
        }
    }

    static func offDays(_ text: String) throws(CLIError) -> OffDays {
        switch text {
        case "skip": return .skip
        case "break": return .break
        default: throw .usage("--off-days takes skip or break")
        }
    }

    /// Applies a change to a habit's own policy, keeping the fields it does not name.
    static func apply(_ change: HabitChange, to habitId: HabitID, _ store: HabitKit.Store) throws(HabitError) {
        guard !change.isEmpty else { return }
        var own = try store.ownStreakPolicy(habitID: habitId)
        if let allowance = change.missAllowance { own.missAllowance = allowance }
        if let openDay = change.openDay { own.openDay = openDay }
        try store.setStreakPolicy(own, habitID: habitId)
    }

    /// The policy a habit's streaks follow, and whether each field is its own.
    static func habitJSON(_ habitId: HabitID, _ store: StoreRef) throws(CLIError) -> [String: Any] {
        let (effective, own) = try kit { () throws(HabitError) in
            (try store.kit.streakPolicy(habitID: habitId), try store.kit.ownStreakPolicy(habitID: habitId))
        }
        return [
            "miss_allowance": effective.missAllowance, "open_day": openDayName(effective.openDay),
            "own_miss_allowance": own.missAllowance != nil, "own_open_day": own.openDay != nil,
        ]
    }

    static func describe(_ json: [String: Any]) -> String {
        let allowance = json["miss_allowance"] as? Int32 ?? 0
        let own = (json["own_miss_allowance"] as? Bool ?? false) || (json["own_open_day"] as? Bool ?? false)
        return "streaks: miss allowance \(allowance), open day \(json["open_day"] as? String ?? "?")\(own ? "" : " (the store's)")"
    }

    static func openDayName(_ value: OpenDay) -> String { value == .zero ? "zero" : "previous" }
    static func offDaysName(_ value: OffDays) -> String { value == .break ? "break" : "skip" }

    /// --routines HH:MM,HH:MM,HH:MM: the morning, day and evening starts as minutes after the day start.
    static func routineBounds(_ text: String) throws(CLIError) -> [Int32] {
        let parts = text.split(separator: ",").map(String.init)
        guard parts.count == 3 else { throw .usage("--routines takes three times HH:MM,HH:MM,HH:MM (morning, day, evening)") }
        var minutes: [Int32] = []
        for part in parts { minutes.append(try Commands.parseClock(part)) }
        return minutes
    }

    /// --at TIME: an instant "YYYY-MM-DDTHH:MM[:SS]" with "Z" or "+HH:MM" (Commands.isoInstant); or a local time
    /// "HH:MM" of the store's day `day`, turned into an instant by the library (Store.utcMs:
    /// the home zone, the day start, the clock changes).
    static func instant(_ text: String, day: Int32, _ store: StoreRef) throws(CLIError) -> Int64 {
        if text.count > 5 {
            let bad = CLIError.invalid("'\(text)' is not a time: give HH:MM, or an instant like 2026-03-10T07:30Z or 2026-03-10T07:30+01:00")
            return try Commands.isoInstant(text, invalid: bad)
        }
        let minute = try Commands.parseClock(text)
        return try kit { () throws(HabitError) in try store.kit.utcMs(day: Day(rawValue: day), minute: minute) }
    }
}
