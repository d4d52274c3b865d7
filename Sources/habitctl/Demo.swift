import CHabitCore
import Foundation

/// `habitctl demo`: a short tour of the engine against a real store file.
enum Demo {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        try args.finish(maxPositionals: 0)
        let path: String
        if let given = context.dbPath {
            path = given
        } else {
            let folder = NSTemporaryDirectory() + "habitcore-demo-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw CLIError(exitCode: 6, message: "cannot create \(folder)")
            }
            path = folder + "/demo.db"
        }
        let say: (String) -> Void = { line in if !context.output.json { print(line) } }
        say("habitcore \(String(cString: hc_version_string())) demo, store \(path)")

        let store = try StoreRef(path: path)
        try Library.check(hc_store_set_timezone(store.handle, "Europe/Berlin"))
        try Library.check(hc_store_set_day_start(store.handle, 180))
        say("time zone Europe/Berlin, days start at 03:00")

        let today = try store.today()
        let start = today - 13
        let bed = try create(store, "Make the bed", HC_KIND_CHECKMARK, 1, routine: HC_ROUTINE_MORNING, unit: nil, start: start)
        let water = try create(store, "Water", HC_KIND_COUNTER, 8, routine: HC_ROUTINE_DAY, unit: "glasses", start: start)
        let read = try create(store, "Read", HC_KIND_DURATION, 1200, routine: HC_ROUTINE_EVENING, unit: "s", start: start)
        say("created 3 habits: Make the bed (checkmark), Water (counter, 8 glasses), Read (duration, 20 min)")

        // Two weeks of history in one transaction: fast, and all or nothing.
        try Library.check(hc_store_begin(store.handle))
        var appended = 0
        for offset in 0..<14 {
            let day = start + Int32(offset)
            if offset % 7 != 3 { try append(store, bed, HC_ENTRY_DONE, 0, day); appended += 1 }
            for _ in 0..<(4 + offset % 6) { try append(store, water, HC_ENTRY_AMOUNT, 1, day); appended += 1 }
            if offset == 5 { try append(store, read, HC_ENTRY_SKIP, 0, day); appended += 1 } else {
                try append(store, read, HC_ENTRY_TOTAL, Double(600 + 150 * (offset % 5)), day, source: HC_SOURCE_HEALTH)
                appended += 1
            }
        }
        try Library.check(hc_store_commit(store.handle))
        say("logged \(appended) entries over 14 days")

        let extra = try append(store, water, HC_ENTRY_AMOUNT, 3, today)
        var undoId: Int64 = 0
        try Library.check(hc_entry_undo(&undoId, store.handle, extra))
        say("logged 3 more glasses today (entry #\(extra)), then undid it (entry #\(undoId) cancels it; nothing is deleted)")

        var summary: [[String: Any]] = []
        for (name, id) in [("Make the bed", bed), ("Water", water), ("Read", read)] {
            let states = try store.dayStates(habitId: id, from: start, to: today)
            let done = states.filter { $0.flags & HC_DAY_DONE != 0 }.count
            let skipped = states.filter { $0.flags & HC_DAY_SKIPPED != 0 }.count
            let strip = states.map { $0.flags & HC_DAY_DONE != 0 ? "■" : $0.flags & HC_DAY_SKIPPED != 0 ? "–" : "□" }.joined()
            say("  \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(strip)  done \(done)/14, skipped \(skipped), today \(Output.number(states.last?.value ?? 0))")
            summary.append(["habit": name, "done_days": done, "skipped_days": skipped, "today_value": states.last?.value ?? 0])
        }
        // Credits: steps and a habit earn minutes; a spend unlocks apps; too large a spend is refused.
        try Library.check(hc_credit_rule_set(nil, store.handle, 0, HC_RULE_HABIT_MINUTES, bed, 10, Int32.min))
        var sync = hc_step_sync()
        sync.struct_size = UInt32(MemoryLayout<hc_step_sync>.size)
        try Library.check(hc_credit_sync_steps(&sync, store.handle, 0, today, 5_400))
        try Library.check(hc_credit_sync_steps(&sync, store.handle, 0, today, 5_400))
        try append(store, bed, HC_ENTRY_DONE, 0, today)
        try Library.check(hc_credit_spend(nil, store.handle, 0, 30, "video app", HC_SPEND_UNLOCK))
        let refused = hc_credit_spend(nil, store.handle, 0, 60, "more video", HC_SPEND_UNLOCK)
        var available: Int64 = 0
        try Library.check(hc_credit_balance(&available, store.handle, 0))
        say("credits: 5,400 steps reported twice earn 54 min once, the bed earns 10; spent 30 to unlock apps; " +
            "a 60-min spend is \(refused == HC_E_INSUFFICIENT ? "refused" : "?"); \(available) min left")

        // Awards: the built-in catalogue judged over the history; each unlock names its day and entry.
        var awards: OpaquePointer?
        try Library.check(hc_awards_evaluate(&awards, store.handle, Int32.min /* HC_DAY_NONE: today */))
        var unlocked: [String] = []
        var count: Int64 = 0
        try Library.check(hc_award_list_count(&count, awards))
        for index in 0..<count {
            var award: UnsafePointer<hc_award>?
            try Library.check(hc_award_list_get(&award, awards, index))
            if let award { unlocked.append("\(Library.string(award.pointee.title) ?? "") (\(Library.format(award.pointee.unlocked_day)))") }
        }
        hc_award_list_free(awards)
        say("awards unlocked: \(unlocked.joined(separator: ", ")) (habitctl --db \(path) awards progress)")

        var text: UnsafeMutablePointer<CChar>?
        try Library.check(hc_store_export(&text, store.handle, HC_FORMAT_JSONL))
        let lines = text.map { String(cString: $0).split(separator: "\n").count } ?? 0
        hc_free(text)
        say("export: \(lines) JSON Lines (habitctl --db \(path) export --format jsonl)")
        if context.output.json {
            print(Output.encode(["schema_version": Output.schemaVersion, "store": path, "entries_logged": appended,
                                 "habits": summary, "export_lines": lines, "credits_available": available,
                                 "awards_unlocked": unlocked.count]))
        }
    }

    private static func create(_ store: StoreRef, _ name: String, _ kind: Int32, _ target: Double, routine: Int32,
                               unit: String?, start: Int32) throws(CLIError) -> Int64 {
        var options = hc_habit_options()
        options.struct_size = UInt32(MemoryLayout<hc_habit_options>.size)
        options.kind = kind
        options.target = target
        options.direction = HC_DIRECTION_AT_LEAST
        options.routine = routine
        options.start_day = start
        var id: Int64 = 0
        try Library.check(withHabitStrings(options, name: name, unit: unit, group: nil, schedule: nil) {
            hc_habit_create(&id, store.handle, &$0)
        })
        return id
    }

    @discardableResult
    private static func append(_ store: StoreRef, _ habit: Int64, _ kind: Int32, _ value: Double, _ day: Int32,
                               source: Int32 = HC_SOURCE_MANUAL) throws(CLIError) -> Int64 {
        var input = hc_entry_input()
        input.struct_size = UInt32(MemoryLayout<hc_entry_input>.size)
        input.habit_id = habit
        input.kind = kind
        input.value = value
        input.day = day
        input.source = source
        var id: Int64 = 0
        try Library.check(hc_entry_append(&id, store.handle, &input))
        return id
    }
}
