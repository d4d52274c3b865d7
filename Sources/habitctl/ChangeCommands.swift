import Foundation
import HabitKit

/// `habitctl changes`: which habits and days the writes after a revision reached, and
/// the following of changes and events as they are committed by any process.
enum ChangeCommands {
    static func changes(_ raw: [String], _ context: Context) throws(CLIError) {
        var args = try Arguments(raw, valued: ["after", "limit"])
        let after = try args.wholeNumber("after", default: 0)
        let limit = try args.wholeNumber("limit", default: 1000)
        let merged = args.flag("merged")
        let follow = args.flag("follow")
        try args.finish(maxPositionals: 0)
        let store = try context.openStore(readOnly: true)
        if follow {
            try Self.follow(store, after: after) { (cursor) throws(HabitError) in
                let batch = try store.kit.changes(after: cursor, limit: limit, merged: merged)
                return (batch.map(row), batch.last?.revision)
            }
        }
        let batch = try kit { () throws(HabitError) in try store.kit.changes(after: after, limit: limit, merged: merged) }
        let cursor = batch.last?.revision ?? after
        context.output.emit(["changes": batch.map(row), "cursor": cursor]) {
            let lines = batch.map { change in
                var text = "@\(change.revision) \(areaName(change.area))"
                if let habit = change.habitID { text += " habit \(habit)" }
                return text + " " + daysText(change)
            }
            return (lines + ["cursor \(cursor)"]).joined(separator: "\n")
        }
    }

    /// Prints what `read(cursor)` reads after the cursor, one JSON line a row (with the
    /// schema_version), then waits for the next commit of any process and reads again,
    /// until a signal ends habitctl (SIGPIPE, SIGTERM, Ctrl-C: each line is written whole
    /// by one write, so a reader never sees half of one). read gives the rows and the new
    /// cursor, nil when it found nothing. Idle, the wait costs
    /// no CPU on Linux (Store.waitForChange: an inotify watch on the store's files); it
    /// wakes once a second to see whether its reader has gone.
    static func follow(
        _ store: StoreRef, after: Int64, _ read: (Int64) throws(HabitError) -> (rows: [[String: Any]], cursor: Int64?)
    ) throws(CLIError) -> Never {
        var cursor = after
        while true {
            try kit { () throws(HabitError) in
                let seen = try store.kit.revision()
                let (rows, next) = try read(cursor)
                for row in rows {
                    var line = row
                    line["schema_version"] = Output.schemaVersion
                    Writer.standardOutput(Output.encode(line) + "\n")
                }
                if let next {
                    cursor = next
                } else {
                    _ = try store.kit.waitForChange(after: seen, timeoutMs: 1000)
                }
            }
            if Writer.outputFailed { Writer.finish(0) }
            if readerGone() { Writer.finish(0) }
        }
    }

    /// Whether stdout is a pipe whose reader has closed it (`| head -1` is done): a
    /// follower with nothing to write would otherwise never meet its SIGPIPE.
    private static func readerGone() -> Bool {
        var entry = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLERR | POLLHUP) != 0
    }

    private static func row(_ change: Change) -> [String: Any] {
        [
            "revision": change.revision, "area": areaName(change.area), "habit_id": change.habitID ?? NSNull(),
            "first_date": change.firstDay.map { Library.format($0.rawValue) } ?? NSNull(),
            "last_date": change.lastDay.map { Library.format($0.rawValue) } ?? NSNull(),
        ]
    }

    private static func daysText(_ change: Change) -> String {
        let first = change.firstDay.map { Library.format($0.rawValue) }, last = change.lastDay.map { Library.format($0.rawValue) }
        switch (first, last) {
        case (nil, nil): return "every day"
        case (let first?, nil): return "from \(first)"
        case (nil, let last?): return "through \(last)"
        case (let first?, let last?): return first == last ? first : "\(first)..\(last)"
        }
    }

    static func areaName(_ area: ChangeArea) -> String {
        switch area {
        case .habit: return "habit"
        case .entry: return "entry"
        case .proof: return "proof"
        case .vacation: return "vacation"
        case .setting: return "setting"
        case .zone: return "zone"
        case .credit: return "credit"
        case .award: return "award"
        case .shield: return "shield"
        default: return "area \(area.rawValue)"
        }
    }
}
