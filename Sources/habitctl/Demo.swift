import CHabitCore
import Foundation

/// `habitctl demo`: every capability in one short run against a real store file:
/// habits of each kind, four weeks of history with a vacation, streaks, strength,
/// today's due list, a photo proof judged by proofcheck and the same photo again,
/// credits, awards, events delivered once, and the export.
enum Demo {
    static func run(_ raw: [String], _ context: Context) throws(CLIError) {
        let args = try Arguments(raw, valued: [])
        try args.finish(maxPositionals: 0)
        let folder = try temporaryFolder()
        let path = context.dbPath ?? folder + "/demo.db"
        let say: (String) -> Void = { line in if !context.output.json { print(line) } }
        say("habitcore \(String(cString: hc_version_string())) demo: store \(path), Europe/Berlin, days start at 03:00")

        let store = try StoreRef(path: path)
        try Library.check(hc_store_set_timezone(store.handle, "Europe/Berlin"))
        try Library.check(hc_store_set_day_start(store.handle, 180))
        let today = try store.today()
        let start = today - 27
        let bed = try create(store, "Make the bed", HC_KIND_CHECKMARK, 1, HC_ROUTINE_MORNING, nil, start)
        let water = try create(store, "Water", HC_KIND_COUNTER, 8, HC_ROUTINE_DAY, "glasses", start)
        let read = try create(store, "Read", HC_KIND_DURATION, 1200, HC_ROUTINE_EVENING, "s", start)
        let weight = try create(store, "Weight", HC_KIND_MEASUREMENT, 0, HC_ROUTINE_ANYTIME, "kg", start)
        say("habits: Make the bed (checkmark), Water (counter, 8 glasses), Read (duration, 20:00), Weight (measurement, kg)")

        // Four weeks in one transaction (fast, and all or nothing): a missed bed on day 5,
        // and a vacation on days 12-14 that excuses every habit.
        let vacation = (start + 12)...(start + 14)
        try Library.check(hc_store_begin(store.handle))
        var appended = 0
        for offset in 0..<27 {
            let day = start + Int32(offset)
            var entries: [(Int64, Int32, Double, Int32)] = [(read, HC_ENTRY_TOTAL, Double(900 + 150 * (offset % 4)), HC_SOURCE_HEALTH)]
            if offset != 5, !vacation.contains(day) { entries.append((bed, HC_ENTRY_DONE, 0, HC_SOURCE_MANUAL)) }
            entries += Array(repeating: (water, HC_ENTRY_AMOUNT, 1, HC_SOURCE_MANUAL), count: offset % 6 == 4 ? 5 : 8)
            if offset % 7 == 0 { entries.append((weight, HC_ENTRY_AMOUNT, 80 - Double(offset) / 10, HC_SOURCE_MANUAL)) }
            for (habit, kind, value, source) in entries { try append(store, habit, kind, value, day, source: source) }
            appended += entries.count
        }
        try Library.check(hc_vacation_add(nil, store.handle, 0, vacation.lowerBound, vacation.upperBound))
        for _ in 0..<5 { try append(store, water, HC_ENTRY_AMOUNT, 1, today) }
        try append(store, read, HC_ENTRY_TOTAL, 1050, today, source: HC_SOURCE_HEALTH)
        try Library.check(hc_store_commit(store.handle))
        appended += 6
        let extra = try append(store, water, HC_ENTRY_AMOUNT, 3, today)
        var undo: Int64 = 0
        try Library.check(hc_entry_undo(&undo, store.handle, extra))
        say("logged \(appended) entries over 4 weeks, a vacation \(Library.format(vacation.lowerBound))..\(Library.format(vacation.upperBound)); " +
            "3 glasses logged and undone (#\(undo) cancels #\(extra): nothing is deleted)")

        try addShields(store, bed: bed, read: read)
        say("shield 'Morning apps' (from the day start, until the bed is made): " + (try shieldState(store, rule: 1)))
        let verdicts = try proofs(store, bed, folder: folder, say: say)
        say("shield 'Morning apps' after the photo: " + (try shieldState(store, rule: 1)))
        say("shield 'Evening apps' (21:00-23:00, until Read is done): " + (try shieldChanges(store, rule: 2)))
        let habits = Dictionary(try store.habits(includeArchived: false).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for habit in [bed, water, read].compactMap({ habits[$0] }) {
            say(try habitLine(store, habit, from: today - 20, to: today, vacation: vacation))
        }
        var weightStats = Library.defaults(hc_measurement_stats_init)
        try Library.check(hc_habit_measurements(&weightStats, store.handle, weight, start, today))
        say("  Weight       \(weightStats.count) readings, latest \(Output.number(weightStats.latest)) kg, " +
            "change \(String(format: "%+.1f", weightStats.change)) kg in 4 weeks")
        say("due today: " + (try dueToday(store, habits, today)))
        try credits(store, bed, today, say: say)

        var awards: OpaquePointer?
        try Library.check(hc_award_evaluate(&awards, store.handle, today))
        let unlocked = try Library.elements(of: awards, hc_award_list_count, hc_award_list_get) { (award: hc_award) in
            "\(Library.string(award.title) ?? "") (\(Library.format(award.unlocked_day)))"
        }
        hc_award_list_free(awards)
        say("awards unlocked: \(unlocked.prefix(3).joined(separator: ", "))\(unlocked.count > 3 ? " and \(unlocked.count - 3) more" : "")")
        let first = try events(store), second = try events(store)
        let kinds = Dictionary(first.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        say("events: \(first.count) delivered (\(kinds.joined(separator: ", "))); read again: \(second.count), each goes out once")

        var text: UnsafeMutablePointer<CChar>?
        try Library.check(hc_store_export(&text, store.handle, HC_FORMAT_JSONL))
        let lines = text.map { String(cString: $0).split(separator: "\n").count } ?? 0
        hc_free(text)
        say("export: \(lines) JSON Lines, the whole history (habitctl --db \(path) export --format jsonl)")
        let agreed = try twoDevices(store, folder: folder, bed: bed, water: water, today: today, say: say)
        if context.output.json {
            print(Output.encode(["schema_version": Output.schemaVersion, "store": path, "entries_logged": appended,
                                 "export_lines": lines, "awards_unlocked": unlocked.count, "events_delivered": first.count,
                                 "events_redelivered": second.count, "proof_verdicts": verdicts, "devices_agree": agreed]))
        }
    }

    /// A second device: a copy by sync, both log offline, then one exchange each way.
    private static func twoDevices(_ phone: StoreRef, folder: String, bed: Int64, water: Int64, today: Int32,
                                   say: (String) -> Void) throws(CLIError) -> Bool {
        let tablet = try StoreRef(path: folder + "/tablet.db")
        _ = try SyncCommands.applyBytes(tablet.handle, try SyncCommands.changesBytes(phone.handle, peer: []))
        var found: UnsafeMutablePointer<hc_habit>?
        try Library.check(hc_habit_find(&found, tablet.handle, "Make the bed"))
        let bedThere = found?.pointee.id ?? 0
        hc_habit_free(found)
        // Offline: the tablet makes the bed, the phone logs two glasses.
        try append(tablet, bedThere, HC_ENTRY_DONE, 0, today)
        for _ in 0..<2 { try append(phone, water, HC_ENTRY_AMOUNT, 1, today) }
        let toPhone = try SyncCommands.applyBytes(phone.handle, try SyncCommands.changesBytes(tablet.handle, peer: try SyncCommands.stateBytes(phone.handle)))
        let toTablet = try SyncCommands.applyBytes(tablet.handle, try SyncCommands.changesBytes(phone.handle, peer: try SyncCommands.stateBytes(tablet.handle)))
        func canonical(_ store: StoreRef) throws(CLIError) -> String {
            var text: UnsafeMutablePointer<CChar>?
            try Library.check(hc_sync_canonical(&text, store.handle))
            defer { hc_free(text) }
            return text.map { String(cString: $0) } ?? ""
        }
        let same = try canonical(phone) == canonical(tablet)
        var bedDone = 0.0
        try Library.check(hc_habit_day_total(&bedDone, phone.handle, bed, today))
        say("sync: a tablet copied the phone's store, then offline the tablet made the bed and the phone logged 2 glasses; " +
            "one exchange each way (\(toPhone.entries_added) entry to the phone, \(toTablet.entries_added) to the tablet): " +
            "the bed is \(bedDone >= 1 ? "made" : "not made") on the phone, and both hold the same records: \(same ? "yes" : "NO")")
        return same
    }

    private static func temporaryFolder() throws(CLIError) -> String {
        let folder = NSTemporaryDirectory() + "habitcore-demo-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw CLIError(exitCode: 6, message: "cannot create \(folder)")
        }
        return folder
    }

    /// "  Read         ■■–■…  streak 9 (longest 14, 3 excused), strength 74%, today 17:30 of 20:00"
    private static func habitLine(_ store: StoreRef, _ habit: HabitInfo, from: Int32, to: Int32,
                                  vacation: ClosedRange<Int32>) throws(CLIError) -> String {
        let states = try store.dayStates(habitId: habit.id, from: from, to: to)
        let strip = states.map {
            $0.flags & HC_DAY_DONE != 0 ? "■" : $0.flags & HC_DAY_SKIPPED != 0 || vacation.contains($0.day) ? "–" : "□"
        }.joined()
        var result = Library.defaults(hc_streak_result_init)
        var runs: Int64 = 0
        try Library.check(hc_habit_streaks(&result, nil, 0, &runs, store.handle, habit.id, to))
        var strength = [0.0], count: Int64 = 0
        try Library.check(hc_habit_strength(&strength, 1, &count, store.handle, habit.id, to, to))
        return "  \(habit.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(strip)  streak \(result.current.length) " +
            "(longest \(result.longest.length), \(result.current.excused_days) excused), strength \(Int((strength[0] * 100).rounded()))%, " +
            "today " + (habit.kind == HC_KIND_CHECKMARK ? (states.last.map { $0.flags & HC_DAY_DONE != 0 } == true ? "done" : "not yet")
                : habit.progress(states.last?.value ?? 0))
    }

    /// "[x] Make the bed · [ ] Water 5 of 8 glasses · …", morning first.
    private static func dueToday(_ store: StoreRef, _ habits: [Int64: HabitInfo], _ day: Int32) throws(CLIError) -> String {
        var count: Int64 = 0
        try Library.check(hc_store_due(nil, 0, &count, store.handle, day))
        var items = [hc_due_item](repeating: hc_due_item(), count: Int(count))
        try Library.check(hc_store_due(&items, count, &count, store.handle, day))
        return items.prefix(Int(count)).compactMap { item in
            guard let habit = habits[item.habit_id] else { return nil }
            let mark = item.state == HC_DUE_DONE ? "[x]" : item.state == HC_DUE_EXCUSED ? "[-]" : "[ ]"
            return "\(mark) \(habit.name)" + (habit.kind == HC_KIND_CHECKMARK ? "" : " \(habit.progress(item.value))")
        }.joined(separator: " · ")
    }

    /// proofcheck judges a photo of the made bed, then the same photo sent again;
    /// returns their reasons.
    /// Two shields: mornings from the day start until the bed is made (it stays past
    /// its 09:00 cutoff), evenings 21:00-23:00 that the cutoff ends.
    private static func addShields(_ store: StoreRef, bed: Int64, read: Int64) throws(CLIError) {
        for (name, habit, start, end, cutoffLifts) in [("Morning apps", bed, Int32(-1), Int32(9 * 60), Int32(0)),
                                                       ("Evening apps", read, Int32(21 * 60), Int32(23 * 60), Int32(1))] {
            var rule = Library.defaults(hc_shield_rule_init)
            rule.start_minute = start
            rule.end_minute = end
            rule.cutoff_lifts = cutoffLifts
            var ids = [habit]
            rule.habit_count = 1
            let status = ids.withUnsafeMutableBufferPointer { buffer in
                rule.habit_ids = UnsafePointer(buffer.baseAddress)
                return name.withCString { rule.name = $0; rule.key = $0; return hc_shield_rule_add(nil, store.handle, &rule, Library.dayNone) }
            }
            try Library.check(status)
        }
    }

    /// A rule's state a minute from now (a completion lifts from the next whole minute).
    private static func shieldState(_ store: StoreRef, rule: Int64) throws(CLIError) -> String {
        let at = ReminderCommands.nowMs() + 60_000
        var states = [hc_shield_status](repeating: hc_shield_status(), count: 4)
        var count: Int64 = 0
        try Library.check(hc_shield_state(&states, 4, &count, nil, store.handle, at))
        guard let s = states.prefix(Int(count)).first(where: { $0.rule_id == rule }) else { return "?" }
        return (s.shielded != 0 ? "SHIELDED" : "open") + " (" + ShieldCommands.name(ShieldCommands.reasons, s.reason) + ")"
    }

    /// A rule's changes over the next day.
    private static func shieldChanges(_ store: StoreRef, rule: Int64) throws(CLIError) -> String {
        let from = ReminderCommands.nowMs()
        var changes = [hc_shield_transition](repeating: hc_shield_transition(), count: 16)
        var count: Int64 = 0
        try Library.check(hc_shield_transitions(&changes, 16, &count, nil, store.handle, from, from + 86_400_000))
        let mine = changes.prefix(Int(min(count, 16))).filter { $0.rule_id == rule }
        return mine.map { "\($0.shielded != 0 ? "shielded" : "lifted") at \(Commands.clock($0.local_minute)) (\(ShieldCommands.name(ShieldCommands.causes, $0.cause)))" }
            .joined(separator: ", ")
    }

    private static func proofs(_ store: StoreRef, _ bed: Int64, folder: String, say: (String) -> Void) throws(CLIError) -> [String] {
        // By name: the plugin installed with the library (or built beside it).
        guard hc_plugin_add(nil, store.handle, HC_PLUGIN_SHARED_OBJECT, "proofcheck", nil, 0) == HC_OK else {
            say("proofs: skipped, \(String(cString: hc_last_error_message())) (swift build builds the plugin)")
            return []
        }
        let photo = folder + "/bed.jpg"
        guard let bytes = Data(base64Encoded: DemoPhoto.base64, options: .ignoreUnknownCharacters),
              FileManager.default.createFile(atPath: photo, contents: bytes) else { throw CLIError(exitCode: 6, message: "cannot write \(photo)") }
        var policy = Library.defaults(hc_proof_policy_init)
        policy.one_per_day = 0
        try Library.check("proofcheck".withCString { policy.verifiers = $0; return hc_proof_policy_set(store.handle, bed, &policy) })
        var reasons: [String] = []
        for attempt in ["photo of the made bed", "the same photo again"] {
            var input = Library.defaults(hc_proof_input_init)
            input.habit_id = bed
            var result = Library.defaults(hc_proof_result_init)
            try Library.check(photo.withCString { input.path = $0; return hc_proof_submit(&result, store.handle, &input) })
            let reason = withUnsafeBytes(of: &result.reason_code) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let outcome = [HC_OUTCOME_APPROVED: "approved", HC_OUTCOME_NEEDS_REVIEW: "needs review", HC_OUTCOME_REJECTED: "rejected"]
            say("proof #\(result.proof_id), \(attempt): \(outcome[result.outcome] ?? "error") by proofcheck (\(reason))" +
                (result.entry_id != 0 ? ", the bed is done today" : ""))
            reasons.append(reason)
        }
        return reasons
    }

    /// Steps and a habit earn minutes; a spend unlocks apps; too large a spend is refused.
    private static func credits(_ store: StoreRef, _ bed: Int64, _ today: Int32, say: (String) -> Void) throws(CLIError) {
        try Library.check(hc_credit_rule_set(nil, store.handle, 0, HC_RULE_HABIT_MINUTES, bed, 10, today))
        var sync = Library.defaults(hc_step_sync_init)
        try Library.check(hc_credit_sync_steps(&sync, store.handle, 0, today, 5_400))
        try Library.check(hc_credit_sync_steps(&sync, store.handle, 0, today, 5_400))
        try append(store, bed, HC_ENTRY_DONE, 0, today)
        try Library.check(hc_credit_spend(nil, store.handle, 0, 30, "video app", HC_SPEND_UNLOCK))
        let refused = hc_credit_spend(nil, store.handle, 0, 60, "more video", HC_SPEND_UNLOCK)
        var available: Int64 = 0
        try Library.check(hc_credit_balance(&available, store.handle, 0))
        say("credits: 5,400 steps reported twice earn 54 min once, the bed 10; 30 spent to unlock apps; " +
            "60 more \(refused == HC_E_INSUFFICIENT ? "refused" : "not refused?"); \(available) min left")
    }

    /// The kinds of the events not yet acknowledged, acknowledged as they are read.
    private static func events(_ store: StoreRef) throws(CLIError) -> [String] {
        var list: OpaquePointer?
        try Library.check(hc_event_list_read(&list, store.handle, 0, 10_000, HC_EVENTS_ACK))
        defer { hc_event_list_free(list) }
        let kinds = [HC_EVENT_AWARD_UNLOCKED: "award", HC_EVENT_STREAK_MILESTONE: "streak milestone",
                     HC_EVENT_TARGET_REACHED: "target reached", HC_EVENT_PROOF_VERDICT: "proof verdict"]
        return try Library.elements(of: list, hc_event_list_count, hc_event_list_get) { (event: hc_event) in kinds[event.kind] ?? "other" }
    }

    private static func create(_ store: StoreRef, _ name: String, _ kind: Int32, _ target: Double, _ routine: Int32,
                               _ unit: String?, _ start: Int32) throws(CLIError) -> Int64 {
        var options = Library.defaults(hc_habit_options_init)
        options.kind = kind
        options.target = target
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
        var input = Library.defaults(hc_entry_input_init)
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
