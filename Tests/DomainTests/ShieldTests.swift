import Foundation
import XCTest

@testable import HabitCore

/// Shields as pure tables and properties: each row a rule, a history and an
/// instant, with the state, reason and next change the conventions give.
final class ShieldTests: XCTestCase {
    static func zone(_ name: String) throws -> ZoneRules {
        if name == "UTC" { return .utc }
        let data = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name))
        return try ZoneRules.parseTZif(name: name, bytes: Array(data))
    }

    static func day(_ text: String) -> Int32 { (try? CivilDate.parseDay(text)) ?? 0 }

    static func minute(_ hhmm: String) -> Int32 { Int32(hhmm.prefix(2))! * 60 + Int32(hhmm.suffix(2))! }

    /// "2026-06-05 07:00" read in a zone (as the rules read local times), or "2026-06-05 05:00Z" in UTC.
    static func instant(_ text: String, _ zone: ZoneRules) -> Int64 {
        let parts = text.split(separator: " ")
        let clock = String(parts[1])
        if clock.hasSuffix("Z") {
            return (Int64(day(String(parts[0]))) * 1440 + Int64(minute(String(clock.dropLast())))) * 60_000
        }
        return ShieldPlan.resolve(zone, civilDay: day(String(parts[0])), minute: minute(clock)).ms
    }

    static func settings(
        _ start: String?, _ end: String?, habits: [Int64] = [1], days: String = "daily", lift: ShieldRule.Lift = .all,
        cutoffLifts: Bool = true, excusedLifts: Bool = true
    ) -> ShieldRule.Settings {
        ShieldRule.Settings(
            name: "morning", key: "apps", days: try! Schedule(parsing: days), startMinute: start.map(minute),
            endMinute: end.map(minute), habits: habits, lift: lift, sessionLifts: true, cutoffLifts: cutoffLifts,
            excusedLifts: excusedLifts, failClosed: true, budgetPeriod: .week, budgetCount: 2)
    }

    struct Row {
        var name: String
        var zone = "Europe/Berlin"
        var dayStart: Int32 = 0
        var rules: [ShieldRule.Settings]
        var fromDay = "2026-01-01"
        var done: [(habit: Int64, day: String, at: String)] = []
        var skipped: [(habit: Int64, day: String)] = []
        var vacations: [(habit: Int64, from: String, to: String)] = []
        var sessions: [(String, String)] = []
        var emergencies: [(String, Int32)] = []
        var travel: [(at: String, zone: String)] = []
        var asked: String
        var rule = 0
        var reason: ShieldPlan.Reason
        var next: String?
        var moved: UInt32 = 0
    }

    static func inputs(_ row: Row) throws -> ShieldPlan.Inputs {
        let zone = try zone(row.zone)
        var habits: [Int64: ShieldPlan.HabitDays] = [:]
        for d in row.done { habits[d.habit, default: .init()].doneAtMs[day(d.day)] = instant(d.at, zone) }
        for s in row.skipped { habits[s.habit, default: .init()].skipped.insert(day(s.day)) }
        for v in row.vacations { habits[v.habit, default: .init()].vacations.append(day(v.from)...day(v.to)) }
        let rules = row.rules.enumerated().map { ShieldRule(id: Int64($0.offset + 1), versions: [(day(row.fromDay), $0.element)]) }
        var changes: [(atMs: Int64, zone: ZoneRules)] = []
        for t in row.travel { changes.append((instant(t.at, zone), try Self.zone(t.zone))) }
        return ShieldPlan.Inputs(
            rules: rules, habits: habits,
            sessions: row.sessions.map { .init(startMs: instant($0.0, zone), endMs: instant($0.1, zone)) },
            emergencies: row.emergencies.enumerated().map {
                EmergencyUnlock(id: Int64($0.offset + 1), ruleId: 1, atMs: instant($0.element.0, zone), minutes: $0.element.1, reason: nil)
            },
            zones: ShieldPlan.ZoneHistory(initial: zone, changes: changes), dayStartMinutes: row.dayStart)
    }

    // 2026-06-05 is a Friday.
    static let rows: [Row] = [
        Row(name: "before the window", rules: [settings("06:00", "09:00")], asked: "2026-06-05 05:00", reason: .outsideWindow, next: "2026-06-05 06:00"),
        Row(name: "inside the window", rules: [settings("06:00", "09:00")], asked: "2026-06-05 07:00", reason: .windowOpen, next: "2026-06-05 09:00"),
        Row(name: "after the window", rules: [settings("06:00", "09:00")], asked: "2026-06-05 10:00", reason: .cutoffPassed, next: "2026-06-06 06:00"),
        Row(
            name: "lifted by a completion", rules: [settings("06:00", "09:00")], done: [(1, "2026-06-05", "2026-06-05 07:30")],
            asked: "2026-06-05 08:00", reason: .completed, next: "2026-06-06 06:00"),
        Row(
            name: "a completion later the same window", rules: [settings("06:00", "09:00")], done: [(1, "2026-06-05", "2026-06-05 07:30")],
            asked: "2026-06-05 07:00", reason: .windowOpen, next: "2026-06-05 07:30"),
        Row(
            name: "a completion before the window opens: never shielded", rules: [settings("06:00", "09:00")],
            done: [(1, "2026-06-05", "2026-06-05 05:10")], asked: "2026-06-05 05:00", reason: .outsideWindow, next: "2026-06-06 06:00"),
        Row(
            name: "a completion at 07:12:30 lifts at 07:13 (rounded up)", rules: [settings("06:00", "09:00")],
            done: [(1, "2026-06-05", "2026-06-05 07:12")], asked: "2026-06-05 07:00", reason: .windowOpen, next: "2026-06-05 07:12"),
        Row(
            name: "all: one of two done", rules: [settings("06:00", "09:00", habits: [1, 2])], done: [(1, "2026-06-05", "2026-06-05 07:00")],
            asked: "2026-06-05 08:00", reason: .windowOpen, next: "2026-06-05 09:00"),
        Row(
            name: "any: one of two done", rules: [settings("06:00", "09:00", habits: [1, 2], lift: .any)],
            done: [(1, "2026-06-05", "2026-06-05 07:00")], asked: "2026-06-05 08:00", reason: .completed, next: "2026-06-06 06:00"),
        Row(
            name: "all: both done, lifted at the later", rules: [settings("06:00", "09:00", habits: [1, 2])],
            done: [(1, "2026-06-05", "2026-06-05 07:00"), (2, "2026-06-05", "2026-06-05 08:15")],
            asked: "2026-06-05 08:00", reason: .windowOpen, next: "2026-06-05 08:15"),
        Row(name: "cutoff lifts", rules: [settings("06:00", "09:00")], asked: "2026-06-05 09:00", reason: .cutoffPassed, next: "2026-06-06 06:00"),
        Row(
            name: "cutoff does not lift: shielded until done or the day ends", rules: [settings("06:00", "09:00", cutoffLifts: false)],
            asked: "2026-06-05 09:00", reason: .untilDone, next: "2026-06-06 00:00"),
        Row(
            name: "until done, then done at 11:00", rules: [settings("06:00", "09:00", cutoffLifts: false)],
            done: [(1, "2026-06-05", "2026-06-05 11:00")], asked: "2026-06-05 10:00", reason: .untilDone, next: "2026-06-05 11:00"),
        Row(
            name: "a session that ends inside the window", rules: [settings("06:00", "09:00")],
            sessions: [("2026-06-05 07:00", "2026-06-05 07:20")], asked: "2026-06-05 07:10", reason: .session, next: "2026-06-05 07:20"),
        Row(
            name: "a 10-minute session bought 23:55, before midnight", rules: [settings("00:00", "09:00")],
            sessions: [("2026-06-04 23:55", "2026-06-05 00:05")], asked: "2026-06-04 23:58", reason: .outsideWindow, next: "2026-06-05 00:05"),
        Row(
            name: "a 10-minute session bought 23:55, past midnight", rules: [settings("00:00", "09:00")],
            sessions: [("2026-06-04 23:55", "2026-06-05 00:05")], asked: "2026-06-05 00:02", reason: .session, next: "2026-06-05 00:05"),
        Row(
            name: "an emergency unlock", rules: [settings("06:00", "09:00")], emergencies: [("2026-06-05 07:00", 15)],
            asked: "2026-06-05 07:05", reason: .emergency, next: "2026-06-05 07:15"),
        Row(
            name: "after an emergency unlock", rules: [settings("06:00", "09:00")], emergencies: [("2026-06-05 07:00", 15)],
            asked: "2026-06-05 07:15", reason: .windowOpen, next: "2026-06-05 09:00"),
        Row(
            name: "21:00-05:00 Fridays, asked Saturday 00:30", rules: [settings("21:00", "05:00", days: "days:fri")],
            asked: "2026-06-06 00:30", reason: .windowOpen, next: "2026-06-06 05:00"),
        Row(
            name: "21:00-05:00 Fridays, asked Sunday 00:30", rules: [settings("21:00", "05:00", days: "days:fri")],
            asked: "2026-06-07 00:30", reason: .outsideWindow, next: "2026-06-12 21:00"),
        Row(
            name: "21:00-05:00 Fridays: lifted by Saturday's completion (the cutoff's day)",
            rules: [settings("21:00", "05:00", days: "days:fri")], done: [(1, "2026-06-06", "2026-06-06 00:10")],
            asked: "2026-06-06 00:30", reason: .completed, next: "2026-06-12 21:00"),
        Row(name: "22:00 to midnight", rules: [settings("22:00", nil)], asked: "2026-06-05 23:59", reason: .windowOpen, next: "2026-06-06 00:00"),
        Row(name: "windows meeting at midnight merge", rules: [settings("00:00", nil)], asked: "2026-06-05 23:59", reason: .windowOpen, next: nil),
        Row(
            name: "two rules at 05:00: the first ends", rules: [settings("21:00", "05:00"), settings("05:00", "09:00")],
            asked: "2026-06-06 04:59", rule: 0, reason: .windowOpen, next: "2026-06-06 05:00"),
        Row(
            name: "two rules at 05:00: the second starts", rules: [settings("21:00", "05:00"), settings("05:00", "09:00")],
            asked: "2026-06-06 04:59", rule: 1, reason: .outsideWindow, next: "2026-06-06 05:00"),
        Row(
            name: "two rules at 05:00: after", rules: [settings("21:00", "05:00"), settings("05:00", "09:00")],
            asked: "2026-06-06 05:00", rule: 1, reason: .windowOpen, next: "2026-06-06 09:00"),
        // A cutoff at 02:30 in the spring gap is 03:30 (DeviceActivity's reading).
        Row(
            name: "Berlin spring: cutoff 02:30", rules: [settings("00:00", "02:30")], asked: "2026-03-29 00:30Z",
            reason: .windowOpen, next: "2026-03-29 01:30Z", moved: ShieldPlan.Moved.gap),
        Row(
            name: "Berlin spring: start 02:30", rules: [settings("02:30", "06:00")], asked: "2026-03-29 00:45Z",
            reason: .outsideWindow, next: "2026-03-29 01:30Z", moved: ShieldPlan.Moved.gap),
        Row(
            name: "Berlin autumn: cutoff 02:30 (first occurrence)", rules: [settings("00:00", "02:30")], asked: "2026-10-24 23:00Z",
            reason: .windowOpen, next: "2026-10-25 00:30Z", moved: ShieldPlan.Moved.repeated),
        Row(
            name: "Berlin autumn: start 02:30 (first occurrence)", rules: [settings("02:30", "06:00")], asked: "2026-10-25 00:00Z",
            reason: .outsideWindow, next: "2026-10-25 00:30Z", moved: ShieldPlan.Moved.repeated),
        Row(
            name: "New York spring: cutoff 02:30", zone: "America/New_York", rules: [settings("00:00", "02:30")], asked: "2026-03-08 06:30Z",
            reason: .windowOpen, next: "2026-03-08 07:30Z", moved: ShieldPlan.Moved.gap),
        Row(
            name: "New York spring: start 02:30", zone: "America/New_York", rules: [settings("02:30", "06:00")], asked: "2026-03-08 07:00Z",
            reason: .outsideWindow, next: "2026-03-08 07:30Z", moved: ShieldPlan.Moved.gap),
        Row(
            name: "New York autumn: cutoff 02:30", zone: "America/New_York", rules: [settings("00:00", "02:30")], asked: "2026-11-01 06:00Z",
            reason: .windowOpen, next: "2026-11-01 07:30Z"),
        Row(
            name: "New York autumn: start 02:30", zone: "America/New_York", rules: [settings("02:30", "06:00")], asked: "2026-11-01 07:00Z",
            reason: .outsideWindow, next: "2026-11-01 07:30Z"),
        Row(
            name: "day start 04:00: a completion at 03:30 counts for the day before", dayStart: 240, rules: [settings("00:00", "09:00")],
            done: [(1, "2026-06-04", "2026-06-05 03:30")], asked: "2026-06-05 05:00", reason: .windowOpen, next: "2026-06-05 09:00"),
        Row(
            name: "day start 04:00: the window's own day lifts it", dayStart: 240, rules: [settings("00:00", "09:00")],
            done: [(1, "2026-06-05", "2026-06-05 04:30")], asked: "2026-06-05 05:00", reason: .completed, next: "2026-06-06 00:00"),
        Row(
            name: "Berlin to Tokyo mid-window: ends on Tokyo's wall clock", rules: [settings("00:00", "12:00")],
            travel: [("2026-06-05 01:00Z", "Asia/Tokyo")], asked: "2026-06-05 02:00Z", reason: .windowOpen, next: "2026-06-05 03:00Z"),
        Row(
            name: "Berlin to Tokyo after Tokyo's cutoff: the change ends it", rules: [settings("00:00", "09:00")],
            travel: [("2026-06-05 01:00Z", "Asia/Tokyo")], asked: "2026-06-05 00:30Z", reason: .windowOpen, next: "2026-06-05 01:00Z",
            moved: ShieldPlan.Moved.zoneChange),
        Row(
            name: "a vacation day lifts", rules: [settings("06:00", "09:00")], vacations: [(1, "2026-06-05", "2026-06-06")],
            asked: "2026-06-05 07:00", reason: .excused, next: "2026-06-07 06:00"),
        Row(
            name: "a vacation day does not lift when the rule says so", rules: [settings("06:00", "09:00", excusedLifts: false)],
            vacations: [(1, "2026-06-05", "2026-06-06")], asked: "2026-06-05 07:00", reason: .windowOpen, next: "2026-06-05 09:00"),
        Row(
            name: "a skipped day lifts", rules: [settings("06:00", "09:00")], skipped: [(1, "2026-06-05")],
            asked: "2026-06-05 07:00", reason: .excused, next: "2026-06-06 06:00"),
        Row(
            name: "asked 3 hours after a transition nobody observed", rules: [settings("06:00", "12:00")],
            asked: "2026-06-05 09:00", reason: .windowOpen, next: "2026-06-05 12:00"),
        Row(
            name: "rule not in effect yet", rules: [settings("06:00", "09:00")], fromDay: "2026-06-06",
            asked: "2026-06-05 07:00", reason: .notInEffect, next: "2026-06-06 06:00"),
    ]

    func testEveryRow() throws {
        for row in Self.rows {
            let inputs = try Self.inputs(row)
            let zone = try Self.zone(row.zone)
            let at = Self.instant(row.asked, zone)
            let state = try ShieldPlan.states(inputs, atMs: at)[row.rule]
            XCTAssertEqual(state.reason, row.reason, row.name)
            XCTAssertEqual(state.shielded, row.reason == .windowOpen || row.reason == .untilDone, row.name)
            let next = try ShieldPlan.nextChange(inputs, ruleIndex: row.rule, atMs: at)
            XCTAssertEqual(next?.atMs, row.next.map { Self.instant($0, zone) }, "\(row.name): next change")
            if let next {
                XCTAssertNotEqual(next.from.shielded, next.to.shielded, row.name)
                XCTAssertEqual(next.from.shielded, state.shielded, row.name)
                XCTAssertEqual(next.moved, row.moved, "\(row.name): moved flags")
            }
        }
    }

    func testStatesCarryWhatTheyNeed() throws {
        let zone = try Self.zone("Europe/Berlin")
        var row = Self.rows[0]
        row.rules = [Self.settings("06:00", "09:00", habits: [1, 2])]
        row.done = [(2, "2026-06-05", "2026-06-05 06:30")]
        row.sessions = [("2026-06-05 07:00", "2026-06-05 07:20")]
        let inputs = try Self.inputs(row)
        let open = try ShieldPlan.states(inputs, atMs: Self.instant("2026-06-05 06:45", zone))[0]
        XCTAssertEqual(open.outstanding, [1])
        XCTAssertEqual(open.habitDay, Self.day("2026-06-05"))
        XCTAssertEqual(open.windowEndMs, Self.instant("2026-06-05 09:00", zone))
        let session = try ShieldPlan.states(inputs, atMs: Self.instant("2026-06-05 07:05", zone))[0]
        XCTAssertEqual(session.untilMs, Self.instant("2026-06-05 07:20", zone))
        XCTAssertEqual(ShieldPlan.earlier(open, settings: row.rules[0], emergencyLeft: 0), ShieldPlan.Earlier.completion | ShieldPlan.Earlier.session)
        XCTAssertEqual(ShieldPlan.earlier(session, settings: row.rules[0], emergencyLeft: 1), ShieldPlan.Earlier.sessionEnd)
    }

    /// A window's lift against the plain reading of the rule, on habits that tie
    /// often: all lift at the latest habit's lift (excused only if every habit's
    /// day is), any at the earliest (excused if a habit lifting then is excused);
    /// an excused day lifts at the window's start, and so does a completion before it.
    func testAWindowsLiftIsWhatItsHabitsSay() throws {
        let zone = try Self.zone("Europe/Berlin")
        let day = Self.day("2026-06-05")
        var random = SplitMix(seed: 2426)
        for round in 0..<600 {
            let settings = Self.settings(
                "06:00", "09:00", habits: Array(1...Int64(random.int(1...4))), lift: random.bool() ? .all : .any,
                excusedLifts: random.bool())
            let startMs = Self.instant("2026-06-05 06:00", zone)
            var habits: [Int64: ShieldPlan.HabitDays] = [:]
            for id in settings.habits where random.int(0...5) > 0 {
                var days = ShieldPlan.HabitDays()
                switch random.int(0...3) {
                case 0: days.skipped.insert(day)
                case 1: days.vacations.append((day - 1)...day)
                default: break
                }
                if random.bool() { days.doneAtMs[day] = startMs + Int64(random.int(-2...2)) * 60_000 - (random.bool() ? 30_000 : 0) }
                habits[id] = days
            }
            let inputs = ShieldPlan.Inputs(
                rules: [], habits: habits, sessions: [], emergencies: [], zones: ShieldPlan.ZoneHistory(zone),
                dayStartMinutes: 0)
            let window = try XCTUnwrap(ShieldPlan.RuleVersion(settings).window(day: day, firstDay: nil, inputs: inputs))
            XCTAssertEqual(window.startMs, startMs)
            var lifts: [(ms: Int64, excused: Bool)] = [], outstanding: [Int64] = []
            for id in settings.habits {
                if settings.excusedLifts, habits[id]?.excused(day) == true {
                    lifts.append((startMs, true))
                } else if let done = habits[id]?.doneAtMs[day] {
                    lifts.append((max(startMs, ShieldPlan.ceilMinute(done)), false))
                } else {
                    outstanding.append(id)
                }
            }
            var expected: (ms: Int64, excused: Bool)?
            switch settings.lift {
            case .all:
                if outstanding.isEmpty, let latest = lifts.map(\.ms).max() { expected = (latest, lifts.allSatisfy(\.excused)) }
            case .any:
                if let earliest = lifts.map(\.ms).min() {
                    expected = (earliest, lifts.contains { $0.ms == earliest && $0.excused })
                    outstanding = []
                }
            }
            XCTAssertEqual(window.liftMs, expected?.ms, "round \(round)")
            XCTAssertEqual(window.liftExcused, expected?.excused ?? false, "round \(round)")
            XCTAssertEqual(window.outstanding, outstanding, "round \(round)")
        }
    }

    /// resolve against the plain reading (the day before's and the day after's
    /// offsets, each candidate checked), in zones with odd histories (Apia skipped a
    /// day, Troll shifts two hours, Dublin's daylight is negative, Lord Howe's half
    /// an hour), every day of years around changes and past the listed transitions;
    /// and a zone's offset stretch holds its offset from end to end.
    func testResolveAgreesWithThePlainReadingAndStretchesHold() throws {
        func plain(_ zone: ZoneRules, civilDay: Int32, minute: Int32) -> (ms: Int64, moved: UInt32) {
            let local = Int64(civilDay) * 86_400 + Int64(minute) * 60
            let before = Int64(zone.utcOffset(atUTC: local - 86_400)), after = Int64(zone.utcOffset(atUTC: local + 86_400))
            let early = local - max(before, after), late = local - min(before, after)
            let earlyReads = early + Int64(zone.utcOffset(atUTC: early)) == local
            let lateReads = late + Int64(zone.utcOffset(atUTC: late)) == local
            if earlyReads { return (early * 1000, lateReads && early != late ? ShieldPlan.Moved.repeated : 0) }
            if lateReads { return (late * 1000, 0) }
            return ((local - Int64(zone.utcOffset(atUTC: early))) * 1000, ShieldPlan.Moved.gap)
        }
        let names = [
            "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Antarctica/Troll", "Europe/Dublin",
            "America/Goose_Bay", "Pacific/Kiritimati", "UTC",
        ]
        let days = Array(Self.day("2010-01-01")...Self.day("2012-12-31")) + Array(Self.day("2037-01-01")...Self.day("2038-12-31"))
        var random = SplitMix(seed: 2427)
        var moved = 0
        for name in names {
            let zone = try Self.zone(name)
            for day in days {
                for minute in [0, 30, 60, 120, 150, 180, 1439, Int32(random.int(0...1439))] {
                    let resolved = ShieldPlan.resolve(zone, civilDay: day, minute: minute), expected = plain(zone, civilDay: day, minute: minute)
                    XCTAssertEqual(resolved.ms, expected.ms, "\(name) day \(day) minute \(minute)")
                    XCTAssertEqual(resolved.moved, expected.moved, "\(name) day \(day) minute \(minute)")
                    if expected.moved != 0 { moved += 1 }
                }
            }
            for _ in 0..<2000 {
                let at = Int64(random.int(-2_200_000_000...4_200_000_000))
                let stretch = zone.offsetStretch(atUTC: at)
                XCTAssertTrue(stretch.first <= at && at <= stretch.last, "\(name) at \(at)")
                let first = max(stretch.first, at - 400 * 86_400), last = min(stretch.last, at + 400 * 86_400)
                for probe in [first, last, first + (last - first) / 2] {
                    XCTAssertEqual(zone.utcOffset(atUTC: probe), stretch.offset, "\(name): the stretch around \(at) at \(probe)")
                }
            }
        }
        XCTAssertGreaterThan(moved, 100, "the days include gaps and repeats")
    }

    func testSettingsRefuseBadInput() {
        let good = Self.settings("06:00", "09:00")
        XCTAssertNoThrow(try good.validated())
        var bad = good; bad.startMinute = 1500  // 25:00
        XCTAssertThrowsError(try bad.validated())
        bad = good; bad.endMinute = bad.startMinute  // start == end
        XCTAssertThrowsError(try bad.validated())
        bad = good; bad.habits = []
        XCTAssertThrowsError(try bad.validated())
        bad = good; bad.budgetCount = -1
        XCTAssertThrowsError(try bad.validated())
        bad = good; bad.days = .timesPerWeek(3)
        XCTAssertThrowsError(try bad.validated())
        bad = good; bad.days = .timesPerMonth(2)
        XCTAssertThrowsError(try bad.validated())
        bad = good; bad.days = .timesInDays(3, 7)
        XCTAssertThrowsError(try bad.validated(), "times:3/7 is a quota too")
        XCTAssertThrowsError(try EmergencyUnlock.validate(minutes: 0, reason: nil))
    }

    func testEmergencyBudgetCountsThePeriod() {
        var settings = Self.settings("06:00", "09:00")
        settings.budgetPeriod = .week
        settings.budgetCount = 2
        let friday = Self.day("2026-06-05")
        // Week starting Monday (1): Monday 06-01 ... Sunday 06-07.
        XCTAssertEqual(EmergencyBudget.remaining(settings, day: friday, usedDays: [], weekStart: 1), 2)
        XCTAssertEqual(EmergencyBudget.remaining(settings, day: friday, usedDays: [friday - 4, friday - 5], weekStart: 1), 1)
        XCTAssertEqual(EmergencyBudget.remaining(settings, day: friday, usedDays: [friday - 4, friday], weekStart: 1), 0)
        settings.budgetPeriod = .month
        XCTAssertEqual(EmergencyBudget.remaining(settings, day: friday, usedDays: [friday - 4, friday - 10], weekStart: 1), 1)
        settings.budgetPeriod = .unlimited
        XCTAssertNil(EmergencyBudget.remaining(settings, day: friday, usedDays: [friday, friday], weekStart: 1))
    }

    // MARK: Properties

    static func randomInputs(_ random: inout SplitMix, zones: [ZoneRules], base: Int32) -> ShieldPlan.Inputs {
        var rules: [ShieldRule] = []
        let daysForms = ["daily", "days:fri", "days:mon,wed,sat", "every:2", "monthdays:1,15,29"]
        for id in 1...random.int(1...3) {
            let start = random.bool() ? nil : Int32(random.int(0...95) * 15)
            var end = random.bool() ? nil : Int32(random.int(0...95) * 15)
            if let s = start, end == s { end = nil }
            let settings = ShieldRule.Settings(
                name: "r\(id)", key: "k", days: try! Schedule(parsing: daysForms[random.int(0...4)]),
                startMinute: start, endMinute: end, habits: random.bool() ? [1] : [1, 2],
                lift: random.bool() ? .all : .any, sessionLifts: random.bool(), cutoffLifts: random.bool(),
                excusedLifts: random.bool(), failClosed: true, budgetPeriod: .unlimited, budgetCount: 0)
            var versions: [(fromDay: Int32, settings: ShieldRule.Settings?)] = [(base + Int32(random.int(0...3)), settings)]
            if random.bool() { versions.append((base + Int32(random.int(4...12)), random.bool() ? nil : settings)) }
            rules.append(ShieldRule(id: Int64(id), versions: versions))
        }
        let day0 = Int64(base) * 86_400_000
        func instant() -> Int64 { day0 + Int64(random.int(0...(20 * 1440))) * 60_000 + Int64(random.int(0...59_999)) }
        var habits: [Int64: ShieldPlan.HabitDays] = [:]
        for habit in [Int64(1), 2] {
            var days = ShieldPlan.HabitDays()
            for _ in 0..<random.int(0...12) {
                let d = base + Int32(random.int(0...20))
                days.doneAtMs[d] = Int64(d) * 86_400_000 + Int64(random.int(-300...1800)) * 60_000 + Int64(random.int(0...59_999))
            }
            for _ in 0..<random.int(0...3) { days.skipped.insert(base + Int32(random.int(0...20))) }
            if random.bool() { let d = base + Int32(random.int(0...20)); days.vacations.append(d...(d + Int32(random.int(0...3)))) }
            habits[habit] = days
        }
        // Half the time habit 2 is a duration habit with timers, its days read as shields read them.
        if random.bool() {
            let history = randomTimedHistory(&random, habitId: 2, days: base...(base + 20))
            habits[2] = ShieldPlan.habitDays(
                history.entries, timerAmounts: history.amounts(TimerRules.foreseeing), habit: history.habit, vacations: habits[2]?.vacations ?? [])
        }
        var sessions: [ShieldPlan.Session] = []
        for _ in 0..<random.int(0...8) { let s = instant(); sessions.append(.init(startMs: s, endMs: s + Int64(random.int(1...180)) * 60_000)) }
        var emergencies: [EmergencyUnlock] = []
        for i in 0..<random.int(0...5) {
            emergencies.append(
                EmergencyUnlock(id: Int64(i), ruleId: Int64(random.int(1...3)), atMs: instant(), minutes: Int32(random.int(1...90)), reason: nil))
        }
        var changes: [(atMs: Int64, zone: ZoneRules)] = []
        for _ in 0..<random.int(0...2) { changes.append((instant(), zones[random.int(0...(zones.count - 1))])) }
        return ShieldPlan.Inputs(
            rules: rules, habits: habits, sessions: sessions, emergencies: emergencies,
            zones: ShieldPlan.ZoneHistory(initial: zones[random.int(0...(zones.count - 1))], changes: changes),
            dayStartMinutes: random.bool() ? 0 : Int32(random.int(0...23) * 60))
    }

    /// A duration habit with random entries, appended at rising instants (as a store's
    /// own writes are), and random timers on days in `days`; `amounts(at)` is what its
    /// timers add folded at an instant (TimerRules.foreseeing: as they will end).
    struct TimedHistory {
        var habit: HabitSpec
        var entries: [Entry]
        var timers: [(start: TimerStart, events: [TimerEvent])]

        func amounts(_ atMs: Int64) -> [Entry] {
            TimerRules.amountEntries(
                timers.map {
                    TimerRules.fold($0.start, events: $0.events, targetMs: TimerRules.targetMs(habit, versions: [], day: $0.start.day), nowMs: atMs)
                })
        }
    }

    static func randomTimedHistory(_ random: inout SplitMix, habitId: Int64, days: ClosedRange<Int32>) -> TimedHistory {
        let habit = HabitSpec(
            name: "", kind: .duration, target: Double(random.int(10...60) * 60), direction: random.chance(0.8) ? .atLeast : .atMost,
            group: nil, unit: nil, routine: .anytime, proofRequired: false, startDay: 0, schedule: .daily)
        func day() -> Int32 { days.lowerBound + Int32(random.below(days.count)) }
        func instant(_ day: Int32) -> Int64 { Int64(day) * 86_400_000 + Int64(random.int(0...(20 * 3_600_000))) }
        var entries: [Entry] = []
        for (index, at) in (0..<random.int(0...(3 * days.count))).map({ _ in instant(day()) }).sorted().enumerated() {
            let kind = [EntryKind.amount, .amount, .amount, .total, .skip, .undo][random.below(6)]
            // An undo is of its entry's day, as the ledger appends it.
            let target = kind == .undo && !entries.isEmpty ? entries[random.below(entries.count)] : nil
            entries.append(
                Entry(
                    id: Int64(index + 1), habitId: habitId, day: target?.day ?? day(), kind: target == nil && kind == .undo ? .amount : kind,
                    value: Double(random.int(0...20) * 60), recordedAtMs: at, source: .manual, undoes: target?.id, note: nil))
        }
        var timers: [(start: TimerStart, events: [TimerEvent])] = []
        for id in 0..<random.int(0...(2 * days.count)) {
            let timerDay = day()
            var at = instant(timerDay)
            let start = TimerStart(id: Int64(id + 1), habitId: habitId, day: timerDay, atMs: at, autoComplete: random.bool())
            var events: [TimerEvent] = []
            for _ in 0..<random.int(0...4) {
                at += Int64(random.int(1...40)) * 60_000 + Int64(random.int(0...59_999))
                events.append(TimerEvent(action: [TimerAction.pause, .resume, .pause, .resume, .stop, .discard][random.below(6)], atMs: at))
            }
            timers.append((start, events))
        }
        return TimedHistory(habit: habit, entries: entries, timers: timers)
    }

    /// A duration habit's days with its timers' amounts (folded once, as they will end)
    /// against the plain reading at each instant one of the day's entries or amounts
    /// arrives: the entries recorded by then and each timer as TimerRules.fold folds it
    /// then. A day is done from the arrival after which it stayed done, so a timer that
    /// stops, or completes itself, later than the day's other entries lifts at its end.
    func testHabitDaysCountEachTimerFromItsEnd() {
        var random = SplitMix(seed: 2428)
        let days: ClosedRange<Int32> = 20_000...20_002
        var doneByATimer = 0
        for round in 0..<300 {
            let history = Self.randomTimedHistory(&random, habitId: 1, days: days)
            let foreseen = history.amounts(TimerRules.foreseeing)
            var expected = ShieldPlan.HabitDays()
            for day in days {
                let arrivals = Set((history.entries + foreseen).filter { $0.day == day }.map(\.recordedAtMs)).sorted()
                let states = arrivals.map { t in
                    let present = history.entries.filter { $0.recordedAtMs <= t } + history.amounts(t)
                    return DayFold.fold(present, day: day, habit: history.habit, cancelled: DayFold.cancelledIds(in: present))
                }
                if states.last?.skipped == true { expected.skipped.insert(day) }
                guard states.last?.done == true else { continue }
                let from = states.lastIndex { !$0.done }.map { $0 + 1 } ?? 0
                expected.doneAtMs[day] = arrivals[from]
                if foreseen.contains(where: { $0.day == day && $0.recordedAtMs == arrivals[from] }) { doneByATimer += 1 }
            }
            let days = ShieldPlan.habitDays(history.entries, timerAmounts: foreseen, habit: history.habit, vacations: [])
            XCTAssertEqual(days.doneAtMs, expected.doneAtMs, "round \(round): \(history.entries) \(history.timers)")
            XCTAssertEqual(days.skipped, expected.skipped, "round \(round)")
        }
        XCTAssertGreaterThan(doneByATimer, 50, "the rounds hold days a timer's end made done")
    }

    func testStatesTransitionsAndSplitsAgree() throws {
        let zones = try ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Lord_Howe"].map(Self.zone)
        var random = SplitMix(seed: 24)
        // Around Berlin's and New York's spring change of 2026.
        let base = Self.day("2026-03-01")
        for round in 0..<60 {
            let inputs = Self.randomInputs(&random, zones: zones, base: base)
            let a = Int64(base + 2) * 86_400_000 + Int64(random.int(0...1440)) * 60_000
            let c = a + 14 * 86_400_000
            let b = a + Int64(random.int(0...(14 * 1440))) * 60_000 + Int64(random.int(0...59_999))
            let all = try ShieldPlan.transitions(inputs, fromMs: a, toMs: c)
            // Split invariance.
            let left = try ShieldPlan.transitions(inputs, fromMs: a, toMs: b), right = try ShieldPlan.transitions(inputs, fromMs: b, toMs: c)
            XCTAssertEqual(all, (left + right).sorted { ($0.atMs, $0.ruleId) < ($1.atMs, $1.ruleId) }, "round \(round): split at \(b)")
            for (index, rule) in inputs.rules.enumerated() {
                let mine = all.filter { $0.ruleId == rule.id }
                // Strictly increasing, alternating (no empty stretch, no repeated state).
                for (x, y) in zip(mine, mine.dropFirst()) {
                    XCTAssertLessThan(x.atMs, y.atMs, "round \(round)")
                    XCTAssertEqual(x.to.shielded, y.from.shielded, "round \(round)")
                }
                for t in mine { XCTAssertNotEqual(t.from.shielded, t.to.shielded); XCTAssertEqual(t.atMs % 60_000, 0, "whole minutes") }
                // The state at random instants is what the transitions imply.
                let initial = try ShieldPlan.states(inputs, atMs: a)[index].shielded
                for _ in 0..<40 {
                    let t = a + Int64(random.int(0...(14 * 1440 - 1))) * 60_000 + Int64(random.int(0...59_999))
                    let implied = mine.last { $0.atMs <= t }.map(\.to.shielded) ?? initial
                    XCTAssertEqual(try ShieldPlan.states(inputs, atMs: t)[index].shielded, implied, "round \(round) rule \(rule.id) at \(t)")
                    // The next change is the first transition after t.
                    let next = try ShieldPlan.nextChange(inputs, ruleIndex: index, atMs: t, horizonDays: 14)
                    // The engine's one-evaluator path answers the same.
                    let combined = try ShieldPlan.statesWithNext(inputs, atMs: t, horizonDays: 14)[index]
                    XCTAssertEqual(combined.0, try ShieldPlan.states(inputs, atMs: t)[index])
                    XCTAssertEqual(combined.1, next)
                    let expected = mine.first { $0.atMs > t }
                    if let expected, next?.atMs ?? Int64.max <= c { XCTAssertEqual(next, expected, "round \(round) next after \(t)") }
                    if expected == nil, let next { XCTAssertGreaterThanOrEqual(next.atMs, c, "round \(round) next after \(t)") }
                }
            }
        }
    }

    /// An Evaluation kept across asks (what an engine handle keeps while the store is
    /// unchanged) answers at every instant, forwards, backwards and far ahead, what a
    /// fresh statesWithNext does; with inputs cut short it says so (nil) rather than
    /// answer from what it lacks.
    func testAKeptEvaluationAnswersAsAFreshOne() throws {
        let zones = try ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Lord_Howe"].map(Self.zone)
        var random = SplitMix(seed: 2424)
        let base = Self.day("2026-03-01")
        for round in 0..<40 {
            let inputs = Self.randomInputs(&random, zones: zones, base: base)
            let first = Int64(base + 2) * 86_400_000 + Int64(random.int(0...1440)) * 60_000
            var kept = ShieldPlan.Evaluation(inputs, dataEndMs: first + 30 * 86_400_000)
            var at = first
            for step in 0..<60 {
                // Mostly forwards by minutes to hours, now and then back, or a week on.
                let move = random.int(0...9)
                at +=
                    move == 0
                    ? -Int64(random.int(0...600)) * 60_000 : (move == 1 ? 7 * 86_400_000 : Int64(random.int(1...240)) * 60_000 + Int64(random.int(0...59_999)))
                at = max(at, first)
                let fresh = try ShieldPlan.statesWithNext(inputs, atMs: at, horizonDays: 14)
                guard let answer = try kept.statesWithNext(atMs: at, horizonDays: 14) else {
                    XCTAssertGreaterThan(at + 1 + 14 * 86_400_000, first + 30 * 86_400_000, "round \(round) step \(step): nil with the inputs at hand")
                    continue
                }
                XCTAssertEqual(answer.map(\.0), fresh.map(\.0), "round \(round) step \(step) states at \(at)")
                XCTAssertEqual(answer.map(\.1), fresh.map(\.1), "round \(round) step \(step) next changes after \(at)")
            }
        }
    }

    /// ShieldPlan.habitDays against a reference written here the plain way (each day's
    /// entries grouped, in id order, folded prefix by prefix): the same days done, at
    /// the same instants, and skipped, for entries in the store's (day, id) order and
    /// shuffled, for habits with and without proof required.
    func testHabitDaysAgreeWithADayByDayReferenceInAnyOrder() {
        func reference(_ entries: [Entry], _ habit: HabitSpec) -> ShieldPlan.HabitDays {
            var days = ShieldPlan.HabitDays()
            let counted = habit.proofRequired ? entries.filter { $0.source == .proof || $0.kind == .undo } : entries
            for (day, unsorted) in Dictionary(grouping: counted, by: \.day) {
                let list = unsorted.sorted { $0.id < $1.id }
                let doneThrough = list.indices.map { end in
                    DayFold.fold(list[...end], day: day, habit: habit, cancelled: DayFold.cancelledIds(in: list[...end]))
                }
                if doneThrough.last?.skipped == true { days.skipped.insert(day) }
                guard doneThrough.last?.done == true else { continue }
                var from = list.count - 1
                while from > 0 && doneThrough[from - 1].done { from -= 1 }
                days.doneAtMs[day] = list[from].recordedAtMs
            }
            return days
        }
        var random = SplitMix(seed: 24)
        for round in 0..<600 {
            let kind: HabitKind = random.bool() ? .checkmark : .counter
            let habit = HabitSpec(
                name: "", kind: kind, target: kind == .checkmark ? 1 : 3, direction: random.chance(0.8) ? .atLeast : .atMost,
                group: nil, unit: nil, routine: .anytime, proofRequired: random.chance(0.3), startDay: 0, schedule: .daily)
            var entries: [Entry] = []
            var id: Int64 = 0
            for _ in 0..<random.int(0...14) {
                id += Int64(random.int(1...3))
                let kinds: [EntryKind] = kind == .checkmark ? [.done, .done, .skip, .undo] : [.amount, .amount, .total, .skip, .undo]
                let entryKind = kinds[random.below(kinds.count)]
                let undoes = entryKind == .undo && !entries.isEmpty ? entries[random.below(entries.count)].id : nil
                entries.append(
                    Entry(
                        id: id, habitId: 1, day: Int32(random.int(100...104)), kind: entryKind, value: Double(random.int(0...4)),
                        recordedAtMs: Int64(random.int(0...1_000_000)), source: random.bool() ? .proof : .manual,
                        undoes: undoes, note: nil))
            }
            let inStoreOrder = entries.sorted { ($0.day, $0.id) < ($1.day, $1.id) }
            let expected = reference(entries, habit)
            for (order, list) in [("store order", inStoreOrder), ("shuffled", entries.shuffled(using: &random))] {
                let days = ShieldPlan.habitDays(list, habit: habit, vacations: [])
                XCTAssertEqual(days.doneAtMs, expected.doneAtMs, "round \(round), \(order): \(list)")
                XCTAssertEqual(days.skipped, expected.skipped, "round \(round), \(order)")
            }
        }
    }
}
