import Foundation
import HabitCore
import HabitEngine
import XCTest

/// The acceptance property of sync: replicas that write offline at random and exchange
/// changesets in random order (duplicates, stale ones, one direction only) end, after a
/// full exchange, with byte-for-byte the same canonical export and the same streaks,
/// scores and vacations. Real store files; the seed is printed on failure.
final class SyncPropertyTests: XCTestCase {
    static let firstDay: Int32 = 20_454  // 2026-01-01
    static let photo = [UInt8](FileManager.default.contents(atPath: Paths.root + "/Tests/fixtures/bed.png") ?? Data())
    /// Ops that had to wait for a record they name, over all seeds (the test checks some did).
    nonisolated(unsafe) static var waited = 0
    /// Merged records by kind, over all seeds (from the canonical export).
    nonisolated(unsafe) static var kinds: [String: Int] = [:]
    /// Instants at which every replica's shield states were compared, over all seeds.
    nonisolated(unsafe) static var shieldsCompared = 0
    static let today: Int64 = (Int64(firstDay) + 75) * 86_400_000  // 2026-03-17, 00:00 UTC

    func testReplicasConvergeWhateverTheOrderOfExchanges() throws {
        let seeds = 200
        for seed in 1...seeds {
            try runSeed(UInt64(seed))
        }
        print(
            "sync property: \(seeds) seeds, \(Self.waited) ops waited for a record they name; merged records: "
                + Self.kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        XCTAssertGreaterThan(Self.waited, 0, "no exchange delivered an op before what it names")
        XCTAssertGreaterThan(Self.shieldsCompared, 100, "shield states were hardly compared")
        // Every kind of record was written and merged somewhere in the run.
        for kind in [
            "setting", "habit", "settings", "entry", "undone", "vacation", "proof", "verdict", "shield", "version", "emergency", "credit-account", "steps",
            "credit-day", "credit", "credit-rule", "award", "award-standing", "zone-change", "rewarded", "timer", "pause", "stop",
        ] {
            XCTAssertGreaterThan(Self.kinds[kind] ?? 0, 0, "no \(kind) in any seed's merged records")
        }
    }

    /// The hybrid clock keeps causality whatever the wall clocks say: an edit made after
    /// receiving another wins over it, though its device's clock is an hour behind.
    func testAnEditMadeAfterSeeingAnotherWinsDespiteASlowClock() throws {
        let dir = try temporaryDirectory()
        let fast = try Engine(path: dir + "/fast.db", options: StoreOptions()), slow = try Engine(path: dir + "/slow.db", options: StoreOptions())
        defer { fast.close(); slow.close() }
        var fastNow = Self.today + 3_600_000, slowNow = Self.today
        fast.now = { fastNow }
        slow.now = { slowNow }
        let habit = try fast.createHabit(
            HabitSpec(
                name: "Read", kind: .checkmark, target: 1, direction: .atLeast, group: nil, unit: nil,
                routine: .anytime, proofRequired: false, startDay: Self.firstDay, schedule: .daily), startDay: nil)
        var changes = Engine.HabitChanges()
        changes.group = .some("fast")
        try fast.updateHabit(id: habit, changes)
        _ = try slow.syncApply(try fast.syncChanges(peerState: try slow.syncState()))
        slowNow += 1_000
        fastNow += 1_000
        let there = try slow.habit(named: "Read").id
        changes.group = .some("slow, later")
        try slow.updateHabit(id: there, changes)
        _ = try fast.syncApply(try slow.syncChanges(peerState: try fast.syncState()))
        XCTAssertEqual(try fast.habit(id: habit).spec.group, "slow, later")
        XCTAssertEqual(try fast.syncCanonical(), try slow.syncCanonical())
    }

    /// One record stamped at the hybrid clock's limit (a device whose clock ran far
    /// ahead, or a hostile one) waits instead of dragging every clock to the limit: two
    /// later edits of one field still resolve the same way on both replicas.
    func testAStampFarAheadWaitsAndLaterEditsStillAgree() throws {
        let dir = try temporaryDirectory()
        let a = try Engine(path: dir + "/a.db", options: StoreOptions()), b = try Engine(path: dir + "/b.db", options: StoreOptions())
        defer { a.close(); b.close() }
        var now = Self.today
        a.now = { now }
        b.now = { now }
        let habit = try a.createHabit(
            HabitSpec(
                name: "Water", kind: .counter, target: 5, direction: .atLeast, group: nil, unit: nil, routine: .anytime,
                proofRequired: false, startDay: Self.firstDay, schedule: .daily), startDay: nil)
        _ = try b.syncApply(try a.syncChanges(peerState: try b.syncState()))
        let id = try XCTUnwrap(try a.store.globalId(.habit, habit))
        // The settings version of today, the register the two later target edits write too.
        var nine = SettingsVersion(fromDay: try a.today(), spec: try a.habit(id: habit).spec)
        nine.target = 9
        let far = SyncOp.settingsVersion(habit: id, version: nine)
        let stranger = [UInt8](repeating: 0xAB, count: GlobalId.replicaBytes)
        for stamp in [HybridClock.max, HybridClock.max - 1_000, (now + 2 * HybridClock.maxOffsetMs) << 16] {
            let changeset = Changeset.encode(raw: [
                RawOp(id: GlobalId(replica: stranger, seq: 1), hlc: stamp, kind: far.kind.rawValue, payload: far.encodePayload())
            ])
            for engine in [a, b] {
                let summary = try engine.syncApply(changeset)
                XCTAssertEqual(summary.waiting, 1, "a stamp far ahead waits")
                XCTAssertEqual(summary.new, 0)
            }
        }
        // Two later edits: the second one wins on both, whatever order they merge in.
        var changes = Engine.HabitChanges()
        now += 1_000
        changes.target = (6, .atLeast)
        try a.updateHabit(id: habit, changes)
        now += 1_000
        changes.target = (7, .atLeast)
        try b.updateHabit(id: try b.habit(named: "Water").id, changes)
        _ = try a.syncApply(try b.syncChanges(peerState: try a.syncState()))
        _ = try b.syncApply(try a.syncChanges(peerState: try b.syncState()))
        XCTAssertEqual(try a.habit(id: habit).spec.target, 7)
        XCTAssertEqual(try b.habit(named: "Water").spec.target, 7)
        XCTAssertEqual(try a.syncCanonical(), try b.syncCanonical())
        // Once the clock is near the stamp, the op is taken like any other.
        now += 2 * HybridClock.maxOffsetMs
        let late = Changeset.encode(raw: [
            RawOp(
                id: GlobalId(replica: stranger, seq: 1), hlc: (now + 1_000) << 16, kind: far.kind.rawValue,
                payload: far.encodePayload())
        ])
        XCTAssertEqual(try b.syncApply(late).applied, 1)
        XCTAssertEqual(try b.habit(named: "Water").spec.target, 9)
    }

    /// A reading rule (the store's streak policy, the routine bounds, a habit's own
    /// policy) travels in the one form its setter stores: any other spelling or value
    /// is refused with the whole changeset, as a field a local write refuses.
    func testAReadingRuleNoSetterWouldWriteIsRefused() throws {
        let habit = GlobalId(replica: [UInt8](repeating: 0xCD, count: GlobalId.replicaBytes), seq: 1)
        let refused: [SyncOp] = [
            .setting(key: "streak_open_day", value: "Zero"), .setting(key: "streak_open_day", value: "0"),
            .setting(key: "streak_miss_allowance", value: "32"), .setting(key: "streak_miss_allowance", value: "01"),
            .setting(key: "streak_off_days", value: "breaks"), .setting(key: "routine_bounds", value: "600,300,1080"),
            .setting(key: "routine_bounds", value: "240, 600, 1080"), .setting(key: "streak_policy", value: "1"),
            .habitField(habit: habit, field: .missAllowance, value: .int(32)), .habitField(habit: habit, field: .missAllowance, value: .int(-1)),
            .habitField(habit: habit, field: .openDay, value: .int(3)), .habitField(habit: habit, field: .openDay, value: .text("zero")),
        ]
        for op in refused {
            XCTAssertThrowsError(try SyncOp.decode(kind: op.kind.rawValue, payload: op.encodePayload()), "\(op)") { error in
                XCTAssertEqual((error as? HabitError)?.code, .invalid, "\(op)")
            }
        }
        let taken: [SyncOp] = [
            .setting(key: "streak_open_day", value: "zero"), .setting(key: "streak_miss_allowance", value: "31"),
            .setting(key: "streak_off_days", value: "break"), .setting(key: "routine_bounds", value: "240,600,1080"),
            .habitField(habit: habit, field: .missAllowance, value: .int(0)), .habitField(habit: habit, field: .openDay, value: .null),
        ]
        for op in taken { XCTAssertEqual(try SyncOp.decode(kind: op.kind.rawValue, payload: op.encodePayload()), op) }
        // Through a store: the whole changeset is refused, nothing of it applied.
        let dir = try temporaryDirectory()
        let store = try Engine(path: dir + "/store.db", options: StoreOptions())
        defer { store.close() }
        let stranger = [UInt8](repeating: 0xAB, count: GlobalId.replicaBytes)
        let good = SyncOp.setting(key: "routine_bounds", value: "240,600,1080"), bad = SyncOp.setting(key: "streak_open_day", value: "Zero")
        let changeset = Changeset.encode(raw: [
            RawOp(id: GlobalId(replica: stranger, seq: 1), hlc: 1 << 16, kind: good.kind.rawValue, payload: good.encodePayload()),
            RawOp(id: GlobalId(replica: stranger, seq: 2), hlc: 2 << 16, kind: bad.kind.rawValue, payload: bad.encodePayload()),
        ])
        XCTAssertThrowsError(try store.syncApply(changeset))
        XCTAssertEqual(try store.routineBounds(), .standard)
    }

    /// Ops naming a record that has not arrived wait, up to the store's bound: past it
    /// they are left out of the log (and come again), the rest of the changeset still
    /// applies, and once the record arrives every one of them is applied.
    func testWaitingOpsAreBoundedAndTheRestStillApplies() throws {
        let dir = try temporaryDirectory()
        let store = try Engine(path: dir + "/store.db", options: StoreOptions())
        defer { store.close() }
        store.now = { Self.today }
        store.maxWaitingOps = 50
        let absent = [UInt8](repeating: 0xA1, count: GlobalId.replicaBytes), other = [UInt8](repeating: 0xB2, count: GlobalId.replicaBytes)
        let spec = HabitSpec(
            name: "Water", kind: .counter, target: 5, direction: .atLeast, group: nil, unit: nil, routine: .anytime,
            proofRequired: false, startDay: Self.firstDay, schedule: .daily)
        let habit = StampedOp(id: GlobalId(replica: absent, seq: 1), hlc: 1 << 16, op: .habitCreate(spec: spec, createdAtMs: 1))
        var entries: [StampedOp] = [], others: [StampedOp] = []
        for n in 1...80 {
            let op = SyncOp.entry(
                habit: GlobalId(replica: absent, seq: 1), day: Self.firstDay + Int32(n % 30), kind: .amount, value: Double(n),
                recordedAtMs: 100 + Int64(n), source: .manual, note: "n\(n)", undoes: nil)
            entries.append(StampedOp(id: GlobalId(replica: other, seq: Int64(n)), hlc: Int64(100 + n) << 16, op: op))
        }
        for n in 1...5 {
            var made = spec
            made.name = "Other \(n)"
            made.kind = .checkmark
            others.append(
                StampedOp(id: GlobalId(replica: other, seq: Int64(80 + n)), hlc: Int64(200 + n) << 16, op: .habitCreate(spec: made, createdAtMs: 200)))
        }
        let first = try store.syncApply(Changeset.encode(entries + others))
        XCTAssertEqual(first.waiting, 80)
        XCTAssertEqual(first.applied, 5, "the rest of the changeset applies")
        XCTAssertEqual(try store.store.waitingCount(), 50, "no more than the bound is kept")
        let again = try store.syncApply(Changeset.encode(entries + others))
        XCTAssertEqual(again.waiting, 80)
        XCTAssertEqual(try store.store.waitingCount(), 50)
        XCTAssertEqual(try store.habits(includeArchived: false).count, 5)
        // The habit arrives: what waited applies; what was left out comes again and applies.
        let arrived = try store.syncApply(Changeset.encode([habit]))
        XCTAssertEqual(arrived.applied, 51)
        XCTAssertEqual(arrived.waiting, 0)
        let rest = try store.syncApply(Changeset.encode(entries + others))
        XCTAssertEqual(rest.applied, 30)
        let water = try store.habit(named: "Water").id
        XCTAssertEqual(try store.entries(habitId: water, from: CivilDate.minDay, to: CivilDate.maxDay).count, 80)
        XCTAssertEqual(try store.store.waitingCount(), 0)
    }

    func runSeed(_ seed: UInt64) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = SplitMix(seed: seed)
        let replicas = 3
        var clocks: [Int64] = (0..<replicas).map { Self.today + Int64($0) * 37_000 - 40_000 }  // skewed wall clocks
        let engines = try (0..<replicas).map { index -> Engine in
            let engine = try Engine(path: "\(dir)/r\(index).db", options: StoreOptions())
            return engine
        }
        defer { for engine in engines { engine.close() } }
        for (index, engine) in engines.enumerated() {
            engine.now = { clocks[index] }
        }
        var counter = 0
        var stash: [[UInt8]] = []
        var oldStates: [[[UInt8]]] = Array(repeating: [], count: replicas)
        func fail(_ what: String) -> String { "seed \(seed): \(what)" }

        for _ in 0..<(30 + rng.below(30)) {
            let r = rng.below(replicas)
            let engine = engines[r]
            clocks[r] += Int64(rng.below(5_000))  // clocks move, unevenly
            counter += 1
            let habits = (try? engine.habits(includeArchived: false)) ?? []
            let all = (try? engine.habits(includeArchived: true)) ?? []
            switch rng.below(28) {
            case 13, 27:
                // Timers: started on a duration habit (made here when this replica sees none), then
                // paused, resumed, stopped or discarded here, often on two replicas at once.
                guard let habit = rng.pick(habits.filter { $0.spec.kind == .duration }) else {
                    let spec = HabitSpec(
                        name: "d\(r)-\(counter)", kind: .duration, target: 600, direction: .atLeast, group: nil, unit: nil,
                        routine: .anytime, proofRequired: false, startDay: Self.firstDay, schedule: .daily)
                    _ = try engine.createHabit(spec, startDay: spec.startDay)
                    continue
                }
                for _ in 0..<(1 + rng.below(3)) {
                    if rng.percent(70), let timer = rng.pick((try? engine.openTimers(atMs: clocks[r])) ?? []),
                        let action = rng.pick([TimerAction.pause, .pause, .resume, .stop, .stop, .discard])
                    {
                        // At this replica's clock, or a little after the start where that clock is behind it.
                        let at = max(clocks[r], timer.start.atMs + Int64(rng.below(600_000)))
                        _ = try? engine.actOnTimer(timer.start.id, timer.state == .paused && action == .pause ? .resume : action, atMs: at)
                    } else {
                        _ = try? engine.startTimer(habitId: habit.id, autoComplete: rng.percent(30), atMs: clocks[r] - Int64(rng.below(1_200_000)))
                    }
                    clocks[r] += Int64(rng.below(300_000))
                }
            case 25:
                // A reward for a habit's completions (from today or tomorrow), or a step rate or expiry policy.
                let account = rng.percent(80) ? Engine.defaultAccountId : ((try? engine.creditAccount(named: "kids").id) ?? Engine.defaultAccountId)
                let today = try engine.today()
                switch rng.below(4) {
                case 0:
                    _ = try? engine.setCreditRule(accountId: account, kind: .stepsPerMinute, habitId: nil, value: Int64(50 + rng.below(100)), fromDay: today)
                case 1: _ = try? engine.setCreditRule(accountId: account, kind: .expiry, habitId: nil, value: Int64(1 + rng.below(2)), fromDay: today)
                default:
                    guard let habit = rng.pick(habits) else { continue }
                    _ = try? engine.setCreditRule(
                        accountId: account, kind: .habitMinutes, habitId: habit.id, value: Int64(rng.below(12)),
                        fromDay: today + Int32(rng.below(2)))
                }
            case 26:
                // Awards judged on this device, as of today: some unlock here, the same ones elsewhere on other days.
                _ = try? engine.evaluateAwards(asOf: nil)
            case 21:
                // A step report from one of several sources: a day's cumulative total, today or a day before.
                let account = rng.percent(80) ? Engine.defaultAccountId : ((try? engine.creditAccount(named: "kids").id) ?? Engine.defaultAccountId)
                let day = try engine.today() - Int32(rng.below(3))
                _ = try? engine.syncSteps(accountId: account, day: day, steps: Int64(rng.below(12_000)))
            case 22:
                // A spend of what this device sees (offline spends elsewhere may overdraw), sometimes an unlock.
                let available = (try? engine.creditBalance(accountId: Engine.defaultAccountId)) ?? 0
                guard available > 0 else { continue }
                _ = try? engine.spend(
                    accountId: Engine.defaultAccountId, minutes: Int64(1 + rng.below(Int(available))), reason: rng.percent(50) ? "s\(counter)" : nil,
                    unlock: rng.percent(30))
            case 23:
                _ = try? engine.adjustCredits(accountId: Engine.defaultAccountId, minutes: Int64(rng.below(41)) - 20, reason: "a\(counter)")
            case 24:
                // An account made on any device (the same name on two is one account), then a report to it.
                let id = (try? engine.creditAccount(named: "kids").id) ?? (try? engine.createCreditAccount(name: "kids"))
                if let id { _ = try? engine.syncSteps(accountId: id, day: nil, steps: Int64(rng.below(6_000))) }
            case 16:
                // A photo proof (decided by the policy, or left for review), or a review by hand.
                guard let habit = rng.pick(habits.filter { $0.spec.kind != .measurement }) else { continue }
                var submission = Engine.ProofSubmission(habitId: habit.id, path: nil, bytes: Self.photo)
                submission.takenAtMs = clocks[r] - Int64(rng.below(3_600_000))
                _ = try? engine.submitProof(submission)
            case 17:
                guard let (verdict, _) = rng.pick((try? engine.verdicts(habitId: nil, proofId: nil)) ?? []) else { continue }
                _ = try? engine.reviewProof(id: verdict.proofId, approve: rng.percent(70), reviewer: "r\(r)", reason: "looked")
            case 0, 1:
                let counterKind = rng.percent(50)
                let spec = HabitSpec(
                    name: "h\(r)-\(counter)", kind: counterKind ? .counter : .checkmark, target: counterKind ? 3 : 1,
                    direction: .atLeast, group: rng.percent(30) ? "g" : nil, unit: nil, routine: .anytime, proofRequired: false,
                    startDay: Self.firstDay + Int32(rng.below(10)), schedule: rng.percent(70) ? .daily : .timesPerWeek(3))
                _ = try engine.createHabit(spec, startDay: spec.startDay)
            case 2, 3, 4:
                guard let habit = rng.pick(habits) else { continue }
                let kind: EntryKind = habit.spec.kind == .counter ? (rng.percent(70) ? .amount : .skip) : (rng.percent(80) ? .done : .skip)
                // Mostly days gone by; sometimes today or tomorrow, which rewards can cover.
                let day = rng.percent(75) ? Self.firstDay + Int32(rng.below(70)) : try engine.today() + Int32(rng.below(2))
                _ = try? engine.append(
                    Engine.NewEntry(
                        habitId: habit.id, kind: kind, day: day,
                        value: kind == .amount ? Double(1 + rng.below(3)) : 0, atMs: clocks[r],
                        source: .manual, note: rng.percent(20) ? "n\(counter)" : nil))
            case 5, 6:
                // Undo any standing entry this replica can see: its own or one received.
                guard let habit = rng.pick(habits),
                    let entries = try? engine.entries(habitId: habit.id, from: CivilDate.minDay, to: CivilDate.maxDay),
                    let target = rng.pick(entries.filter { $0.entry.kind != .undo && $0.undoneBy == nil })
                else { continue }
                _ = try? engine.undo(entryId: target.entry.id)
            case 7:
                guard let habit = rng.pick(habits) else { continue }
                var changes = Engine.HabitChanges()
                switch rng.below(6) {
                case 0: changes.name = "h\(r)-\(counter)-renamed"
                case 1 where habit.spec.kind == .counter: changes.target = (Double(2 + rng.below(4)), .atLeast)
                case 2: changes.group = rng.percent(50) ? .some("g\(rng.below(3))") : .some(nil)
                case 3: changes.colour = rng.percent(70) ? .some(rng.pick(["#8E24AA", "#00897B", "#d32f2f"]) ?? nil) : .some(nil)
                case 4:
                    changes.position = Int64(rng.below(5)) - 2
                    if rng.percent(50) { changes.question = .some(rng.percent(70) ? "q\(counter)?" : nil) }
                default: changes.routine = rng.percent(50) ? .morning : .evening
                }
                try? engine.updateHabit(id: habit.id, changes)
            case 8:
                guard let habit = rng.pick(habits) else { continue }
                var changes = Engine.HabitChanges()
                changes.schedule = rng.percent(50) ? .weekdays(UInt8(1 + rng.below(126))) : .everyNDays(2 + rng.below(3))
                try? engine.updateHabit(id: habit.id, changes)
            case 9:
                guard let habit = rng.pick(all) else { continue }
                try? engine.archiveHabit(id: habit.id, archived: !habit.isArchived)
            case 10:
                let first = Self.firstDay + Int32(rng.below(70))
                _ = try? engine.addVacation(habitId: rng.percent(50) ? rng.pick(habits)?.id : nil, from: first, to: first + Int32(rng.below(5)))
            case 11:
                guard let vacation = rng.pick((try? engine.vacations()) ?? []) else { continue }
                try? engine.removeVacation(id: vacation.id)
            case 18, 19:
                // A shield rule added, or one changed or removed from a day on (today or later).
                guard let first = rng.pick(habits)?.id else { continue }
                let second = rng.percent(40) ? rng.pick(habits)?.id : nil
                let chosen = second.map { $0 == first ? [first] : [first, $0] } ?? [first]
                let start: Int32? = rng.percent(50) ? nil : Int32(6 * 60 + rng.below(4) * 30)
                let settings = ShieldRule.Settings(
                    name: "s\(r)-\(counter)", key: rng.pick(["social", "games"]) ?? "social",
                    days: rng.percent(60) ? .daily : .weekdays(UInt8(1 + rng.below(126))),
                    startMinute: start, endMinute: rng.percent(50) ? nil : Int32(12 * 60 + rng.below(4) * 60), habits: chosen,
                    lift: rng.percent(50) ? .all : .any, sessionLifts: rng.percent(50), cutoffLifts: rng.percent(70), excusedLifts: rng.percent(50),
                    failClosed: rng.percent(50), budgetPeriod: rng.percent(70) ? .week : .month, budgetCount: Int32(rng.below(3)))
                let today = Self.firstDay + 75
                if rng.percent(50) || ((try? engine.shieldRules(on: today))?.isEmpty ?? true) {
                    _ = try? engine.addShieldRule(settings, fromDay: Self.firstDay + 70 + Int32(rng.below(8)))
                } else if let rule = rng.pick((try? engine.shieldRules(on: today)) ?? []) {
                    try? engine.changeShieldRule(id: rule.id, rng.percent(15) ? nil : settings, fromDay: today + Int32(rng.below(3)))
                }
            case 20:
                // An emergency unlock, while the budget (as this replica knows it) allows.
                guard let rule = rng.pick((try? engine.shieldRules(on: nil)) ?? []) else { continue }
                _ = try? engine.emergencyUnlock(ruleId: rule.id, minutes: Int32(5 + rng.below(30)), reason: rng.percent(50) ? "r\(counter)" : nil)
            case 12:
                if rng.percent(50) {
                    try engine.setWeekStart(Int32(rng.below(7)))
                } else {
                    try engine.setTimezone(rng.pick(["UTC", "Europe/Paris", "America/New_York"]) ?? "UTC")
                }
            default:
                // An exchange: one direction, sometimes twice, sometimes kept to replay later.
                let from = rng.below(replicas), to = rng.below(replicas)
                // Mostly what `to` lacks; sometimes computed for another replica's state or an old
                // one, so ops arrive out of order, with gaps, and undos before their entries.
                var peer = try engines[to].syncState()
                if rng.percent(25) { peer = try engines[rng.below(replicas)].syncState() }
                if rng.percent(30), let old = rng.pick(oldStates[from]) { peer = old }  // only what `from` did lately
                for index in engines.indices { oldStates[index].append(try engines[index].syncState()) }
                let changes = try engines[from].syncChanges(peerState: peer)
                let summary = try engines[to].syncApply(changes)
                Self.waited += summary.waiting
                if rng.percent(20) { _ = try engines[to].syncApply(changes) }
                if rng.percent(30) { stash.append(changes) }
                if rng.percent(20), let old = rng.pick(stash) { _ = try engines[rng.below(replicas)].syncApply(old) }
            }
        }
        // Full exchange: every pair, both ways, until nothing moves.
        for _ in 0..<3 {
            for a in 0..<replicas {
                for b in 0..<replicas where a != b {
                    let summary = try engines[b].syncApply(try engines[a].syncChanges(peerState: try engines[b].syncState()))
                    XCTAssertEqual(summary.superseded + summary.applied + summary.waiting >= summary.new, true)
                }
            }
        }
        for index in engines.indices { clocks[index] = Self.today }
        let canonical = try engines.map { try $0.syncCanonical() }
        for index in 1..<replicas where canonical[index] != canonical[0] {
            let left = canonical[0].split(separator: "\n"), right = canonical[index].split(separator: "\n")
            let diff = left.indices.first { $0 >= right.count || left[$0] != right[$0] } ?? left.count
            XCTFail(
                fail(
                    "replica \(index)'s canonical export differs from replica 0's at line \(diff + 1):\n"
                        + "\(diff < left.count ? String(left[diff]) : "(end)")\n\(diff < right.count ? String(right[diff]) : "(end)")"))
            return
        }
        for line in canonical[0].split(separator: "\n") {
            let word = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            Self.kinds[word, default: 0] += 1
            if line.hasSuffix("undone=1") { Self.kinds["undone", default: 0] += 1 }
            if line.hasPrefix("  credit-day"), line.contains("available=-") { Self.kinds["debt", default: 0] += 1 }
            if line.hasPrefix("  credit-rule habit_minutes"), !line.hasSuffix("value=0") { Self.kinds["rewarded", default: 0] += 1 }
        }
        // Balances and days are the same everywhere, and the same as on a store that
        // received every record directly, in one changeset.
        let direct = try Engine(path: "\(dir)/direct.db", options: StoreOptions())
        defer { direct.close() }
        direct.now = { Self.today }
        _ = try direct.syncApply(try engines[2].syncChanges(peerState: []))
        XCTAssertEqual(try direct.syncCanonical(), canonical[0], fail("a store that received every record directly differs"))
        for name in ["default", "kids"] {
            let balances = try (engines + [direct]).map { engine -> String in
                guard let account = try? engine.creditAccount(named: name) else { return "none" }
                return "\(try engine.creditBalance(accountId: account.id)) \(try engine.creditDay(accountId: account.id, day: nil))"
            }
            XCTAssertEqual(Set(balances).count, 1, fail("account \(name): balances differ: \(balances)"))
        }
        let states = try engines.map { try $0.syncState() }
        XCTAssertEqual(Set(states).count, 1, fail("states differ after a full exchange"))
        // Applying everything again changes nothing.
        let again = try engines[1].syncApply(try engines[0].syncChanges(peerState: []))
        XCTAssertEqual(again.new, 0, fail("a repeated changeset brought new ops"))
        XCTAssertEqual(again.applied, 0, fail("a repeated changeset applied ops"))
        XCTAssertEqual(try engines[1].syncCanonical(), canonical[1], fail("a repeated changeset changed the records"))
        // What is computed from the records is the same everywhere.
        let asOf = Self.firstDay + 74
        for habit in try engines[0].habits(includeArchived: true) {
            guard let id = try engines[0].store.globalId(.habit, habit.id) else { XCTFail(fail("habit without global id")); continue }
            var results: [String] = []
            for engine in engines {
                guard let local = try engine.store.localId(id, .habit) else { XCTFail(fail("habit \(id.text) missing")); continue }
                let streaks = try engine.streaks(habitId: local, asOf: asOf, best: 3).summary
                let strength = try engine.strength(habitId: local, from: Self.firstDay, to: asOf)
                let completion = try engine.completion(habitId: local, from: Self.firstDay, to: asOf)
                results.append("\(streaks) \(strength) \(completion)")
            }
            XCTAssertEqual(Set(results).count, 1, fail("habit \(id.text): streaks or scores differ: \(results)"))
        }
        let global = try engines.map { "\(try $0.globalStreaks(asOf: asOf))" }
        XCTAssertEqual(Set(global).count, 1, fail("store streaks differ"))
        // The same awards stand everywhere (the earliest crossing), and each device
        // announced each award at most once.
        let awards = try (engines + [direct]).map { engine -> [String] in
            try engine.awardUnlocks().map { unlock in
                let id = try engine.store.allAwardUnlocks().first { $0.unlock.id == unlock.id }?.id?.text ?? "?"
                return "\(unlock.rule.id) \(unlock.day) \(id)"
            }.sorted()
        }
        XCTAssertEqual(Set(awards).count, 1, fail("standing awards differ: \(awards)"))
        for (index, engine) in engines.enumerated() {
            let announced = try engine.events(after: 0, limit: 10_000, acknowledge: false).filter { $0.kind == .awardUnlocked }.compactMap(\.awardId)
            XCTAssertEqual(announced.count, Set(announced).count, fail("replica \(index) announced an award twice"))
            XCTAssertEqual(Set(announced), Set(try engine.awardUnlocks().map(\.rule.id)), fail("replica \(index) did not announce every award once"))
        }
        // Every shield answers the same everywhere (rules and habits by global id).
        for hours: Int64 in [1, 9, 13, 30, 50] {
            Self.shieldsCompared += 1
            let at = Self.today + hours * 3_600_000 + 17_000
            var answers: [[String]] = []
            for engine in engines {
                var lines: [String] = []
                for view in try engine.shieldStates(atMs: at).states {
                    let rule = try engine.store.globalId(.shieldRule, view.state.ruleId)?.text ?? "?"
                    let outstanding = try view.state.outstanding.map { (h) throws(HabitError) in try engine.store.globalId(.habit, h)?.text ?? "?" }
                    lines.append(
                        "\(rule) \(view.state.reason) \(view.state.windowDay) \(view.state.sinceMs) \(view.state.untilMs) \(outstanding)"
                            + " next=\(view.next.map { "\($0.atMs) \($0.to) \($0.cause)" } ?? "-") left=\(view.emergencyLeft.map(String.init) ?? "-")"
                            + " name=\(view.rule?.settings.name ?? "-")")
                }
                answers.append(lines.sorted())
            }
            XCTAssertEqual(answers[0].count, try engines[0].store.shieldRules().count, fail("a state per rule"))
            for index in 1..<replicas where answers[index] != answers[0] {
                XCTFail(fail("shield states at +\(hours)h differ: \(answers[0]) vs \(answers[index])"))
            }
        }
    }
}

extension SplitMix {
    /// True percent times in a hundred.
    mutating func percent(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[below(items.count)] }
}
