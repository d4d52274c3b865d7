import Foundation
import HabitKit

/// A value JSON writes as a number.
protocol JSONNumber {
    var jsonNumber: Int64 { get }
}

extension TypedID: JSONNumber {
    var jsonNumber: Int64 { rawValue }
}

/// Where results go: human text by default, JSON with a schema_version on --json.
/// Results on stdout; errors and logs on stderr.
struct Output {
    static let schemaVersion = 1
    var json: Bool

    func emit(_ object: [String: Any], human: () -> String) {
        if json {
            var document = object
            document["schema_version"] = Output.schemaVersion
            print(Output.encode(document))
        } else {
            let text = human()
            if !text.isEmpty { print(text) }
        }
    }

    static func encode(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: plain(object), options: [.sortedKeys, .withoutEscapingSlashes]),
            let text = String(data: data, encoding: .utf8)
        else { return "{}" }
        return text
    }

    /// object with every HabitKit id (HabitID, EntryID, ...) as its number: JSON carries
    /// the header's ids, and the commands put the typed ids in their rows as they are.
    private static func plain(_ object: Any) -> Any {
        switch object {
        case let id as any JSONNumber: return id.jsonNumber
        case let dictionary as [String: Any]: return dictionary.mapValues(plain)
        case let array as [Any]: return array.map(plain)
        default: return object
        }
    }

    /// Colour only on a terminal, when NO_COLOR is unset or empty (no-color.org) and
    /// TERM is not "dumb".
    static var colourAllowed: Bool {
        let environment = ProcessInfo.processInfo.environment
        return isatty(STDOUT_FILENO) != 0 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    static func log(_ message: String) {
        Writer.standardError(message + "\n")
    }

    // Instants, one rule for every command: a person reads local time with its offset
    // (localTime, in the zone of this machine or $TZ), --json carries UTC (time). Both
    // are ISO 8601 that every --at, --from, --until and AT argument takes back.

    /// A UTC time in milliseconds as ISO 8601 in UTC ("2026-11-22T08:15:00Z"): --json.
    static func time(_ ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return String(ms) }
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// A UTC time in milliseconds as ISO 8601 in local time with its offset
    /// ("2026-11-22T09:15:00+01:00"): what text output shows.
    static func localTime(_ ms: Int64) -> String {
        var seconds = time_t(ms / 1000)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return time(ms) }
        let offset = Int(parts.tm_gmtoff), sign = offset < 0 ? "-" : "+"
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), sign, abs(offset) / 3600, abs(offset) % 3600 / 60)
    }

    /// A number without a trailing ".0" when it is whole.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Seconds as a clock reads: "17:30", "1:05:00"; fractions of a second are dropped.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return number(seconds) }
        let whole = Int64(seconds.rounded(.towardZero)), sign = whole < 0 ? "-" : ""
        let total = abs(whole), hours = total / 3600, minutes = total % 3600 / 60, rest = total % 60
        return hours > 0 ? sign + String(format: "%lld:%02lld:%02lld", hours, minutes, rest) : sign + String(format: "%lld:%02lld", minutes, rest)
    }
}

extension Habit {
    var json: [String: Any] {
        [
            "id": id, "name": name, "kind": Names.name(kind.rawValue, in: Names.kinds), "target": target,
            "direction": Names.direction(direction.rawValue), "group": group ?? NSNull(), "unit": unit ?? NSNull(),
            "routine": Names.name(routine.rawValue, in: Names.routines), "schedule": schedule,
            "start_date": Library.format(startDay.rawValue), "proof_required": proofRequired,
            "archived_date": archivedDay.map { Library.format($0.rawValue) } ?? NSNull(),
            // Added in 1.1 (schema_version stays 1: new keys only).
            "description": description ?? NSNull(), "question": question ?? NSNull(), "colour": colour ?? NSNull(),
            "icon": icon ?? NSNull(), "position": position,
        ]
    }

    var summary: String {
        let kindName = Names.name(kind.rawValue, in: Names.kinds)
        var goal = ""
        if kind == .counter || kind == .duration {
            goal = " \(direction == .atMost ? "≤" : "≥") \(amount(target))"
        }
        let archived = archivedDay.map { " (archived \(Library.format($0.rawValue)))" } ?? ""
        return "#\(id) \(name) [\(kindName)\(goal), \(schedule), \(Names.name(routine.rawValue, in: Names.routines))]\(archived)"
    }

    /// A day's value as a person reads it: a duration as minutes and seconds
    /// ("17:30"), anything else as a number with its unit ("5 glasses").
    func amount(_ value: Double) -> String {
        kind == .duration ? Output.clock(value) : Output.number(value) + (unit.map { " " + $0 } ?? "")
    }

    /// A day's value against the target: "17:30 of 20:00", "5 of 8 glasses".
    func progress(_ value: Double) -> String {
        kind == .duration ? "\(Output.clock(value)) of \(Output.clock(target))" : "\(Output.number(value)) of \(amount(target))"
    }

    /// A due row: its mark ([x] done, for a quit habit clean; [-] excused; [ ] not yet),
    /// the name, and what the day holds: a number against the target ("5 of 8 glasses"),
    /// a quit habit's relapses ("clean so far", "2 relapses"), nothing else for the others,
    /// after `gap`.
    func dueRow(_ item: DueItem, gap: String) -> String {
        let mark = item.state == .done ? "[x]" : item.state == .excused ? "[-]" : "[ ]"
        switch kind {
        case .counter, .duration: return "\(mark) \(name)\(gap)\(progress(item.value))"
        case .quit: return "\(mark) \(name)\(gap)" + (item.value == 0 ? "clean so far" : "\(Output.number(item.value)) relapse\(item.value == 1 ? "" : "s")")
        default: return "\(mark) \(name)"
        }
    }
}

extension Entry {
    var json: [String: Any] {
        [
            "id": id, "habit_id": habitID, "date": Library.format(day.rawValue), "kind": Names.name(kind.rawValue, in: Names.entryKinds),
            "value": value, "recorded_at_ms": recordedAtMs, "source": Names.name(source, in: Names.sources),
            "undoes": undoes ?? NSNull(), "undone_by": undoneBy ?? NSNull(),
            "note": note ?? NSNull(),
        ]
    }

    var summary: String {
        let kindName = Names.name(kind.rawValue, in: Names.entryKinds)
        var text = "#\(id) \(Library.format(day.rawValue)) habit \(habitID) \(kindName)"
        if kind == .amount || kind == .total || (kind == .relapse && value != 0) { text += " \(Output.number(value))" }
        if let undoes { text += " (cancels #\(undoes))" }
        if let undoneBy { text += " (undone by #\(undoneBy))" }
        if let note { text += " — \(note)" }
        return text
    }
}
