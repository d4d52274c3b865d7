import Foundation
import HabitKit

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
        say("habitcore \(HabitKitVersion.runningString) demo: store \(path), Europe/Berlin, days start at 03:00")

        let store = try StoreRef(path: path)
        try kit { () throws(HabitError) in
            try store.kit.setTimeZone("Europe/Berlin")
            try store.kit.setDayStart(minutes: 180)
        }
        let today = try store.today()
        let start = today - 27
        let bed = try create(store, "Make the bed", .checkmark, 1, Routine.morning, nil, start)
        let water = try create(store, "Water", .counter, 8, Routine.day, "glasses", start)
        let read = try create(store, "Read", .duration, 1200, Routine.evening, "s", start)
        let weight = try create(store, "Weight", .measurement, 0, Routine.anytime, "kg", start)
        say("habits: Make the bed (checkmark), Water (counter, 8 glasses), Read (duration, 20:00), Weight (measurement, kg)")

        // Four weeks in one transaction (fast, and all or nothing): a missed bed on day 5,
        // and a vacation on days 12-14 that excuses every habit.
        let vacation = (start + 12)...(start + 14)
        let appended = try kit { () throws(HabitError) -> Int in
            try store.kit.transaction { () throws(HabitError) -> Int in
                var appended = 0
                for offset in 0..<27 {
                    let day = start + Int32(offset)
                    var entries: [(HabitID, EntryKind, Double, Int32)] = [(read, .total, Double(900 + 150 * (offset % 4)), EntrySource.health)]
                    if offset != 5, !vacation.contains(day) { entries.append((bed, .done, 0, EntrySource.manual)) }
                    entries += Array(repeating: (water, .amount, 1, EntrySource.manual), count: offset % 6 == 4 ? 5 : 8)
                    if offset % 7 == 0 { entries.append((weight, .amount, 80 - Double(offset) / 10, EntrySource.manual)) }
                    for (habit, kind, value, source) in entries { try append(store.kit, habit, kind, value, day, source: source) }
                    appended += entries.count
                }
                try store.kit.addVacation(from: Day(rawValue: vacation.lowerBound), through: Day(rawValue: vacation.upperBound))
                for _ in 0..<5 { try append(store.kit, water, .amount, 1, today) }
                try append(store.kit, read, .total, 1050, today, source: EntrySource.health)
                return appended + 6
            }
        }
        let (extra, undo) = try kit { () throws(HabitError) -> (EntryID, EntryID) in
            let extra = try append(store.kit, water, .amount, 3, today)
            return (extra, try store.kit.undo(entryID: extra))
        }
        say(
            "logged \(appended) entries over 4 weeks, a vacation \(Library.format(vacation.lowerBound))..\(Library.format(vacation.upperBound)); "
                + "3 glasses logged and undone (#\(undo) cancels #\(extra): nothing is deleted)")

        try addShields(store, bed: bed, read: read)
        say("shield 'Morning apps' (from the day start, until the bed is made): " + (try shieldState(store, rule: 1)))
        let verdicts = try proofs(store, bed, folder: folder, say: say)
        say("shield 'Morning apps' after the photo: " + (try shieldState(store, rule: 1)))
        say("shield 'Evening apps' (21:00-23:00, until Read is done): " + (try shieldChanges(store, rule: 2)))
        let habits = Dictionary(try store.habits(includeArchived: false).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for habit in [bed, water, read].compactMap({ habits[$0] }) {
            say(try habitLine(store, habit, from: today - 20, to: today, vacation: vacation))
        }
        let weightStats = try kit { () throws(HabitError) in
            try store.kit.measurements(habitID: weight, from: Day(rawValue: start), through: Day(rawValue: today))
        }
        say(
            "  Weight       \(weightStats.count) readings, latest \(Output.number(weightStats.latest)) kg, "
                + "change \(String(format: "%+.1f", weightStats.change)) kg in 4 weeks")
        say(try quitLine(store, start: start))
        say(try timerLine(store, today: today))
        say("due today: " + (try dueToday(store, habits, today)))
        try credits(store, bed, today, say: say)

        let unlocked = try kit { () throws(HabitError) in
            try store.kit.evaluateAwards(asOf: Day(rawValue: today)).map { "\($0.title) (\($0.unlockedDay?.formatted ?? "?"))" }
        }
        say("awards unlocked: \(unlocked.prefix(3).joined(separator: ", "))\(unlocked.count > 3 ? " and \(unlocked.count - 3) more" : "")")
        let first = try events(store), second = try events(store)
        let kinds = Dictionary(first.map { ($0, 1) }, uniquingKeysWith: +).sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        say("events: \(first.count) delivered (\(kinds.joined(separator: ", "))); read again: \(second.count), each goes out once")

        let lines = try kit { () throws(HabitError) in try store.kit.export(format: .jsonLines).split(separator: "\n").count }
        say("export: \(lines) JSON Lines, the whole history (habitctl --db \(path) export --format jsonl)")
        let agreed = try twoDevices(store, folder: folder, bed: bed, water: water, today: today, say: say)
        if context.output.json {
            print(
                Output.encode([
                    "schema_version": Output.schemaVersion, "store": path, "entries_logged": appended,
                    "export_lines": lines, "awards_unlocked": unlocked.count, "events_delivered": first.count,
                    "events_redelivered": second.count, "proof_verdicts": verdicts, "devices_agree": agreed,
                ]))
        }
    }

    /// A quit habit: two relapses logged at their instants, then where it stands now.
    private static func quitLine(_ store: StoreRef, start: Int32) throws(CLIError) -> String {
        var options = HabitOptions(name: "Smoking", kind: .quit)
        options.schedule = "weekly:1"
        options.target = 8.5
        options.unit = "EUR"
        options.startDay = Day(rawValue: start)
        let status = try kit { () throws(HabitError) in
            let smoking = try store.kit.createHabit(options)
            // 21:00 in Berlin on days 6 and 16.
            for offset: Int64 in [6, 16] {
                _ = try store.kit.relapse(habitID: smoking, note: "a party", atMs: (Int64(start) + offset) * 86_400_000 + 72_000_000)
            }
            return try store.kit.quitStatus(habitID: smoking)
        }
        return "quit: Smoking (at most 1 relapse a week, 8.50 EUR a clean day): \(status.relapses) relapses logged, "
            + "\(status.daysSince) days since the last, best clean run \(status.bestCleanDays) days, "
            + "this week \(status.periodRelapses) of \(status.allowance), saved \(Output.number(status.saved)) EUR"
    }

    /// A timer on a duration habit: started, paused, resumed and stopped yesterday morning.
    private static func timerLine(_ store: StoreRef, today: Int32) throws(CLIError) -> String {
        var options = HabitOptions(name: "Piano", kind: .duration)
        options.target = 1200
        options.startDay = Day(rawValue: today - 7)
        let minute: Int64 = 60_000
        let status = try kit { () throws(HabitError) in
            let piano = try store.kit.createHabit(options)
            let at = try store.kit.utcMs(day: Day(rawValue: today - 1), minute: 7 * 60)
            let timer = try store.kit.startTimer(habitID: piano, atMs: at)
            try store.kit.actOnTimer(timer, .pause, atMs: at + 15 * minute)
            try store.kit.actOnTimer(timer, .resume, atMs: at + 20 * minute)
            try store.kit.actOnTimer(timer, .stop, atMs: at + 32 * minute)
            return try store.kit.timerStatus(timer)
        }
        return "timer: Piano 07:00-07:32 with a 5-minute pause: \(status.elapsedMs / minute) minutes focused, "
            + "\(status.seconds) s counted to \(Library.format(status.day.rawValue)), the day's target 1200 s"
    }

    /// A second device: a copy by sync, both log offline, then one exchange each way.
    private static func twoDevices(
        _ phone: StoreRef, folder: String, bed: HabitID, water: HabitID, today: Int32,
        say: (String) -> Void
    ) throws(CLIError) -> Bool {
        let tablet = try StoreRef(path: folder + "/tablet.db")
        let (phoneStore, tabletStore) = (phone.kit, tablet.kit)
        let (toPhone, toTablet, same, bedDone) = try kit { () throws(HabitError) in
            try tabletStore.applySync(try phoneStore.syncChanges())
            let bedThere = try tabletStore.habit(named: "Make the bed").id
            // Offline: the tablet makes the bed, the phone logs two glasses.
            try append(tabletStore, bedThere, .done, 0, today)
            for _ in 0..<2 { try append(phoneStore, water, .amount, 1, today) }
            let toPhone = try phoneStore.applySync(try tabletStore.syncChanges(since: try phoneStore.syncState()))
            let toTablet = try tabletStore.applySync(try phoneStore.syncChanges(since: try tabletStore.syncState()))
            let same = try phoneStore.syncCanonical() == tabletStore.syncCanonical()
            return (toPhone, toTablet, same, try phoneStore.dayTotal(habitID: bed, day: Day(rawValue: today)))
        }
        say(
            "sync: a tablet copied the phone's store, then offline the tablet made the bed and the phone logged 2 glasses; "
                + "one exchange each way (\(toPhone.entriesAdded) entry to the phone, \(toTablet.entriesAdded) to the tablet): "
                + "the bed is \(bedDone >= 1 ? "made" : "not made") on the phone, and both hold the same records: \(same ? "yes" : "NO")")
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
    private static func habitLine(
        _ store: StoreRef, _ habit: Habit, from: Int32, to: Int32,
        vacation: ClosedRange<Int32>
    ) throws(CLIError) -> String {
        let states = try store.days(habitId: habit.id, from: from, to: to)
        let strip = states.map {
            $0.flags.contains(.done) ? "■" : $0.flags.contains(.skipped) || vacation.contains($0.day.rawValue) ? "–" : "□"
        }.joined()
        let (streaks, strength) = try kit { () throws(HabitError) in
            (
                try store.kit.streaks(habitID: habit.id, asOf: Day(rawValue: to)),
                try store.kit.strength(habitID: habit.id, from: Day(rawValue: to), through: Day(rawValue: to)).first ?? 0
            )
        }
        return "  \(habit.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(strip)  streak \(streaks.current.length) "
            + "(longest \(streaks.longest.length), \(streaks.current.excusedDays) excused), strength \(Int((strength * 100).rounded()))%, " + "today "
            + (habit.kind == .checkmark
                ? (states.last?.flags.contains(.done) == true ? "done" : "not yet")
                : habit.progress(states.last?.value ?? 0))
    }

    /// "[x] Make the bed · [ ] Water 5 of 8 glasses · …", morning first.
    private static func dueToday(_ store: StoreRef, _ habits: [HabitID: Habit], _ day: Int32) throws(CLIError) -> String {
        let items = try kit { () throws(HabitError) in try store.kit.due(on: Day(rawValue: day)) }
        return items.compactMap { item in
            guard let habit = habits[item.habitID] else { return nil }
            return habit.dueRow(item, gap: " ")
        }.joined(separator: " · ")
    }

    /// Two shields: mornings from the day start until the bed is made (it stays past
    /// its 09:00 cutoff), evenings 21:00-23:00 that the cutoff ends.
    private static func addShields(_ store: StoreRef, bed: HabitID, read: HabitID) throws(CLIError) {
        for (name, habit, start, end, cutoffLifts) in [
            ("Morning apps", bed, Int32?.none, Int32(9 * 60), false),
            ("Evening apps", read, Int32(21 * 60), Int32(23 * 60), true),
        ] {
            var rule = ShieldRule(name: name, key: name, habitIDs: [habit])
            rule.startMinute = start
            rule.endMinute = end
            rule.cutoffLifts = cutoffLifts
            try kit { () throws(HabitError) in _ = try store.kit.addShieldRule(rule) }
        }
    }

    /// A rule's state a minute from now (a completion lifts from the next whole minute).
    private static func shieldState(_ store: StoreRef, rule: ShieldRuleID) throws(CLIError) -> String {
        let at = ReminderCommands.nowMs() + 60_000
        let state = try kit { () throws(HabitError) in try store.kit.shieldState(atMs: at) }
        guard let s = state.rules.first(where: { $0.ruleID == rule }) else { return "?" }
        return (s.shielded ? "SHIELDED" : "open") + " (" + ShieldCommands.name(ShieldCommands.reasons, s.reason.rawValue) + ")"
    }

    /// A rule's changes over the next day.
    private static func shieldChanges(_ store: StoreRef, rule: ShieldRuleID) throws(CLIError) -> String {
        let from = ReminderCommands.nowMs()
        let changes = try kit { () throws(HabitError) in try store.kit.shieldTransitions(fromMs: from, toMs: from + 86_400_000) }
        let mine = changes.transitions.filter { $0.ruleID == rule }
        return mine.map {
            "\($0.shielded ? "shielded" : "lifted") at \(Commands.clock($0.localMinute)) (\(ShieldCommands.name(ShieldCommands.causes, $0.cause.rawValue)))"
        }
        .joined(separator: ", ")
    }

    /// proofcheck judges a photo of the made bed, then the same photo sent again;
    /// returns their reasons.
    private static func proofs(_ store: StoreRef, _ bed: HabitID, folder: String, say: (String) -> Void) throws(CLIError) -> [String] {
        // By name: the plugin installed with the library (or built beside it).
        do {
            try store.kit.addPlugin(kind: .sharedObject, path: "proofcheck")
        } catch {
            say("proofs: skipped, \(error.message) (swift build builds the plugin)")
            return []
        }
        let photo = folder + "/bed.jpg"
        guard let bytes = Data(base64Encoded: DemoPhoto.base64, options: .ignoreUnknownCharacters),
            FileManager.default.createFile(atPath: photo, contents: bytes)
        else { throw CLIError(exitCode: 6, message: "cannot write \(photo)") }
        var policy = ProofPolicy(verifiers: ["proofcheck"])
        policy.onePerDay = false
        try kit { () throws(HabitError) in try store.kit.setProofPolicy(policy, habitID: bed) }
        var reasons: [String] = []
        for attempt in ["photo of the made bed", "the same photo again"] {
            let result = try kit { () throws(HabitError) in try store.kit.submitProof(ProofInput(habitID: bed, path: photo)) }
            let outcome: [Outcome: String] = [.approved: "approved", .needsReview: "needs review", .rejected: "rejected"]
            say(
                "proof #\(result.proofID), \(attempt): \(outcome[result.outcome] ?? "error") by proofcheck (\(result.reasonCode))"
                    + (result.entryID != nil ? ", the bed is done today" : ""))
            reasons.append(result.reasonCode)
        }
        return reasons
    }

    /// Steps and a habit earn minutes; a spend unlocks apps; too large a spend is refused.
    private static func credits(_ store: StoreRef, _ bed: HabitID, _ today: Int32, say: (String) -> Void) throws(CLIError) {
        let (refused, available) = try kit { () throws(HabitError) in
            let day = Day(rawValue: today)
            try store.kit.setCreditRule(.habitMinutes, value: 10, habitID: bed, from: day)
            try store.kit.syncSteps(5_400, day: day)
            try store.kit.syncSteps(5_400, day: day)
            try append(store.kit, bed, .done, 0, today)
            try store.kit.spend(30, reason: "video app", unlock: true)
            var refused = false
            do throws(HabitError) { try store.kit.spend(60, reason: "more video", unlock: true) } catch  where error.code == .insufficient { refused = true }
            return (refused, try store.kit.balance())
        }
        say(
            "credits: 5,400 steps reported twice earn 54 min once, the bed 10; 30 spent to unlock apps; "
                + "60 more \(refused ? "refused" : "not refused?"); \(available) min left")
    }

    /// The kinds of the events not yet acknowledged, acknowledged as they are read.
    private static func events(_ store: StoreRef) throws(CLIError) -> [String] {
        let kinds: [EventKind: String] = [
            .awardUnlocked: "award", .streakMilestone: "streak milestone",
            .targetReached: "target reached", .proofVerdict: "proof verdict",
        ]
        return try kit { () throws(HabitError) in
            try store.kit.events(after: nil, limit: 10_000, acknowledge: true).map { kinds[$0.kind] ?? "other" }
        }
    }

    private static func create(
        _ store: StoreRef, _ name: String, _ kind: HabitKind, _ target: Double, _ routine: Routine,
        _ unit: String?, _ start: Int32
    ) throws(CLIError) -> HabitID {
        var options = HabitOptions(name: name, kind: kind)
        options.target = target
        options.routine = routine
        options.unit = unit
        options.startDay = Day(rawValue: start)
        return try kit { () throws(HabitError) in try store.kit.createHabit(options) }
    }

    @discardableResult
    private static func append(
        _ store: HabitKit.Store, _ habit: HabitID, _ kind: EntryKind, _ value: Double, _ day: Int32,
        source: Int32 = EntrySource.manual
    ) throws(HabitError) -> EntryID {
        var input = EntryInput(habitID: habit, kind: kind, value: value, day: Day(rawValue: day))
        input.source = source
        return try store.append(input)
    }
}
