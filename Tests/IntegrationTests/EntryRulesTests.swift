import CHabitCore
import Foundation
import HabitCore
import XCTest

/// One rule for an entry's own fields on every write path, on real store files: an
/// append, an import and a peer's changeset take exactly the same entries (an append
/// alone also refuses a day after tomorrow, by its own clock), and what one takes
/// reaches a peer and an import of its export bit for bit. A record a store cannot
/// apply yet (a zone its tz database lacks) waits and never stops the rest.
final class EntryRulesTests: StoreTestCase {
    struct Candidate {
        var what: String
        var kind: EntryKind
        var value: Double
        var day: Int32
        var atMs: Int64
        var note: String? = nil
    }

    /// What a store kept of an entry, with the value as bits (-0.0 and 0.0 differ).
    struct Kept: Equatable, Hashable {
        var day: Int32
        var kind: Int32
        var bits: UInt64
        var atMs: Int64
        var note: String?
    }

    static let firstMs = Int64(CivilDate.minDay) * 86_400_000
    static let lastMs = (Int64(CivilDate.maxDay) + 1) * 86_400_000 - 1

    func candidates() -> [Candidate] {
        let d = day("2026-01-02"), at: Int64 = 1_767_312_000_000
        var list: [Candidate] = []
        func add(_ what: String, _ kind: EntryKind = .amount, _ value: Double, day: Int32? = nil, atMs: Int64? = nil, note: String? = nil) {
            list.append(Candidate(what: what, kind: kind, value: value, day: day ?? d, atMs: atMs ?? at, note: note))
        }
        add("amount -1", .amount, -1)
        add("amount 0", .amount, 0)
        add("amount -0.0", .amount, -0.0)
        add("amount 0.1", .amount, 0.1)
        add("amount smallest subnormal", .amount, .leastNonzeroMagnitude)
        add("amount 1e12", .amount, 1e12)
        add("amount -1e12", .amount, -1e12)
        add("amount above 1e12", .amount, 1e12.nextUp)
        add("amount below -1e12", .amount, -(1e12.nextUp))
        add("amount NaN", .amount, .nan)
        add("amount +inf", .amount, .infinity)
        add("amount -inf", .amount, -.infinity)
        add("total 0", .total, 0)
        add("total -0.0", .total, -0.0)
        add("total 1e12", .total, 1e12)
        add("total -1", .total, -1)
        add("done carrying 7", .done, 7)
        add("skip", .skip, 0)
        add("earliest day", .amount, 1, day: CivilDate.minDay)
        add("latest day", .amount, 1, day: CivilDate.maxDay)
        add("recorded at the first ms of year 1", .amount, 1, atMs: Self.firstMs)
        add("recorded at the last ms of year 9999", .amount, 1, atMs: Self.lastMs)
        add("recorded before year 1", .amount, 1, atMs: Self.firstMs - 1)
        add("recorded after year 9999", .amount, 1, atMs: Self.lastMs + 1)
        add("note of 4096 bytes", .amount, 1, note: String(repeating: "n", count: 4096))
        add("note of 4097 bytes", .amount, 1, note: String(repeating: "n", count: 4097))
        return list
    }

    /// Every entry of a store's habit (all days), in append order.
    func kept(_ store: OpaquePointer, _ habit: Int64) -> [Kept] {
        var list: OpaquePointer?
        ok(hc_entry_list_open(&list, store, habit, CivilDate.minDay, CivilDate.maxDay))
        defer { hc_entry_list_free(list) }
        var count: Int64 = 0
        ok(hc_entry_list_count(&count, list))
        return (0..<count).compactMap { index in
            var entry: UnsafePointer<hc_entry>?
            ok(hc_entry_list_get(&entry, list, index))
            return entry.map { e in
                Kept(
                    day: e.pointee.day, kind: e.pointee.kind, bits: e.pointee.value.bitPattern, atMs: e.pointee.recorded_at_ms,
                    note: e.pointee.note.map { String(cString: $0) })
            }
        }
    }

    /// The path's status and, when it took the entry, what the store kept.
    typealias Outcome = (status: Int32, kept: Kept?)

    func viaAppend(_ c: Candidate, _ store: OpaquePointer, _ habit: Int64) -> Outcome {
        var input = defaults(hc_entry_input_init)
        input.habit_id = habit
        input.kind = c.kind.rawValue
        input.value = c.value
        input.day = c.day
        input.at_ms = c.atMs
        input.source = HC_SOURCE_MANUAL
        var id: Int64 = 0
        let status = withOptionalCString(c.note) { note in
            input.note = note
            return hc_entry_append(&id, store, &input)
        }
        return (status, status == HC_OK ? kept(store, habit).last : nil)
    }

    func viaImport(_ c: Candidate, _ store: OpaquePointer) -> Outcome {
        let header = #"{"type":"header","format":"habitcore-store","schema_version":1,"timezone":"UTC","day_start_minutes":0}"#
        let habit =
            #"{"type":"habit","id":1,"name":"Water","kind":"counter","target":8,"direction":"at_least","group":null,"unit":null,"routine":"anytime","proof_required":false,"start_date":"2026-01-01","archived_date":null,"created_at_ms":1767225600000,"schedules":[{"from":"2026-01-01","schedule":"daily"}]}"#
        // Swift's shortest round-trip text; NaN and infinities have none in JSON ("nan", "inf" are refused as JSON).
        let note = c.note.map { "\"\($0)\"" } ?? "null"
        let entry =
            #"{"type":"entry","id":1,"habit_id":1,"date":"\#(date(c.day))","kind":"\#(c.kind.name)","value":\#(c.value),"recorded_at_ms":\#(c.atMs),"source":"manual","undoes":null,"note":\#(note)}"#
        let status = hc_store_import(store, [header, habit, entry].joined(separator: "\n"), HC_FORMAT_JSONL)
        return (status, status == HC_OK ? kept(store, habitId(store, "Water")).last : nil)
    }

    static let writer = [UInt8](repeating: 0x5a, count: 16)

    func changeset(_ ops: [SyncOp], replica: [UInt8] = writer) -> [UInt8] {
        Changeset.encode(
            ops.enumerated().map { StampedOp(id: GlobalId(replica: replica, seq: Int64($0.offset + 1)), hlc: 1000 + Int64($0.offset), op: $0.element) })
    }

    /// A counter habit as a writer logs it: its creation (the writer's op 1, so its
    /// global id), then its schedule.
    func water() -> [SyncOp] {
        [
            .habitCreate(
                spec: HabitSpec(
                    name: "Water", kind: .counter, target: 8, direction: .atLeast, group: nil, unit: nil, routine: .anytime,
                    proofRequired: false, startDay: day("2026-01-01"), schedule: .daily), createdAtMs: 1_767_225_600_000),
            .schedule(habit: Self.waterId, fromDay: day("2026-01-01"), schedule: .daily),
        ]
    }

    static let waterId = GlobalId(replica: writer, seq: 1)

    func viaSync(_ c: Candidate, _ store: OpaquePointer) -> Outcome {
        let entry = SyncOp.entry(
            habit: Self.waterId, day: c.day, kind: c.kind, value: c.value, recordedAtMs: c.atMs,
            source: .manual, note: c.note, undoes: nil)
        let bytes = changeset(water() + [entry])
        var summary = defaults(hc_sync_summary_init)
        let status = hc_sync_apply(&summary, store, bytes, Int64(bytes.count))
        return (status, status == HC_OK ? kept(store, habitId(store, "Water")).last : nil)
    }

    /// Each candidate through each path, on fresh stores for import and sync: the same
    /// entries taken and refused (HC_E_INVALID) everywhere, the same bits kept; the
    /// append alone refuses the day after tomorrow. Then what the append took travels
    /// to a peer and through an export and import unchanged.
    func testAppendImportAndSyncTakeTheSameEntries() throws {
        let phone = try open("phone.db")
        defer { hc_store_close(phone) }
        let water = createHabit(phone, "Water", kind: HC_KIND_COUNTER, target: 8)
        var taken = 0, refused: [String] = []
        for (index, c) in candidates().enumerated() {
            let importer = try open("import-\(index).db"), receiver = try open("sync-\(index).db")
            defer { hc_store_close(importer); hc_store_close(receiver) }
            let appended = viaAppend(c, phone, water), imported = viaImport(c, importer), synced = viaSync(c, receiver)
            let message = "\(c.what): append \(appended.status), import \(imported.status) \(String(cString: hc_last_error_message())), sync \(synced.status)"
            for outcome in [appended, imported, synced] { XCTAssertTrue([HC_OK, HC_E_INVALID].contains(outcome.status), message) }
            XCTAssertEqual(imported.status, synced.status, message)
            XCTAssertEqual(imported.kept, synced.kept, message)
            if c.day > day("2027-01-01") {
                // A person's append is checked against this device's today; history another device wrote is not.
                XCTAssertEqual(appended.status, HC_E_INVALID, message)
                XCTAssertEqual(synced.status, HC_OK, message)
            } else {
                XCTAssertEqual(appended.status, synced.status, message)
                XCTAssertEqual(appended.kept, synced.kept, message)
            }
            if appended.status == HC_OK { taken += 1 } else { refused.append(c.what) }
            if let kept = synced.kept {
                let stored = c.kind == .amount || c.kind == .total ? (c.value == 0 ? 0.0 : c.value) : 0.0
                XCTAssertEqual(kept.bits, stored.bitPattern, "\(c.what): the value as every store keeps it")
                XCTAssertEqual(kept.atMs, c.atMs, c.what)
                XCTAssertEqual(kept.day, c.day, c.what)
            }
        }
        // What the append took reaches a peer bit for bit, and an import of its export.
        XCTAssertEqual(
            refused,
            [
                "amount above 1e12", "amount below -1e12", "amount NaN", "amount +inf", "amount -inf", "total -1", "latest day",
                "recorded before year 1", "recorded after year 9999", "note of 4097 bytes",
            ])
        let mine = kept(phone, water)
        XCTAssertEqual(mine.count, taken)
        let peer = try open("peer.db")
        defer { hc_store_close(peer) }
        pull(peer, from: phone)
        XCTAssertEqual(Set(kept(peer, habitId(peer, "Water"))), Set(mine))
        XCTAssertEqual(canonical(peer), canonical(phone))
        let restored = try open("restored.db")
        defer { hc_store_close(restored) }
        ok(hc_store_import(restored, export(phone, HC_FORMAT_JSONL), HC_FORMAT_JSONL))
        XCTAssertEqual(kept(restored, habitId(restored, "Water")), mine)
        // And the peer that took them still takes more, and sends them back.
        append(phone, water, HC_ENTRY_AMOUNT, value: -2, on: "2026-01-03")
        XCTAssertEqual(pull(peer, from: phone).entries_added, 1)
        XCTAssertEqual(pull(phone, from: peer).ops_received, 0)
        XCTAssertEqual(canonical(peer), canonical(phone))
    }

    /// A store whose history holds an entry dated past this device's tomorrow (written
    /// by a phone whose clock ran ahead) exports a document that imports, and syncs on.
    func testAnEntryFromAClockAheadSyncsExportsAndImports() throws {
        let laptop = try open("laptop.db")
        defer { hc_store_close(laptop) }
        let ahead = SyncOp.entry(
            habit: Self.waterId, day: day("2099-05-01"), kind: .amount, value: 3,
            recordedAtMs: 4_081_363_200_000, source: .manual, note: nil, undoes: nil)
        XCTAssertEqual(apply(changeset(water() + [ahead]), to: laptop).entries_added, 1)
        let restored = try open("restored.db")
        defer { hc_store_close(restored) }
        ok(hc_store_import(restored, export(laptop, HC_FORMAT_JSONL), HC_FORMAT_JSONL))
        XCTAssertEqual(kept(restored, habitId(restored, "Water")), kept(laptop, habitId(laptop, "Water")))
        let peer = try open("peer.db")
        defer { hc_store_close(peer) }
        pull(peer, from: laptop)
        XCTAssertEqual(canonical(peer), canonical(laptop))
    }

    /// A changeset naming a zone this machine's tz database lacks: its other records
    /// apply, the setting and the zone change wait (and travel on), the store keeps
    /// syncing, and once the database has the zone the next apply applies them.
    func testAZoneTheMachineLacksWaitsAndTheRestApplies() throws {
        let phone = try open("phone.db"), tablet = try open("tablet.db")
        let zone = "Testland/Capital"
        let entry = SyncOp.entry(
            habit: Self.waterId, day: day("2026-01-02"), kind: .amount, value: -1,
            recordedAtMs: 1_767_312_000_000, source: .manual, note: nil, undoes: nil)
        let bytes = changeset(water() + [.setting(key: "timezone", value: zone), entry, .zoneChange(atMs: 1_767_312_000_000, from: "UTC", to: zone)])
        let first = apply(bytes, to: phone)
        XCTAssertEqual(first.ops_new, 5)
        XCTAssertEqual(first.ops_waiting, 2, "the setting and the zone change wait")
        XCTAssertEqual(first.entries_added, 1)
        XCTAssertEqual(total(phone, habitId(phone, "Water"), "2026-01-02"), -1)
        XCTAssertNotEqual(timezone(phone), zone)
        XCTAssertEqual(apply(bytes, to: phone).ops_new, 0, "applying it again is fine too")
        // It keeps syncing both ways, and the waiting records travel on.
        let read = createHabit(tablet, "Read")
        append(tablet, read, on: "2026-01-03")
        XCTAssertEqual(pull(phone, from: tablet).entries_added, 1)
        XCTAssertEqual(pull(tablet, from: phone).ops_waiting, 2)
        XCTAssertEqual(canonical(phone), canonical(tablet))
        // A tz database that has the zone (as after a tzdata update): the next apply applies what waited.
        let tzdir = dir + "/zoneinfo"
        try FileManager.default.createDirectory(atPath: tzdir + "/Testland", withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: "/usr/share/zoneinfo") {
            try FileManager.default.createSymbolicLink(atPath: tzdir + "/" + name, withDestinationPath: "/usr/share/zoneinfo/" + name)
        }
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Europe/Paris", toPath: tzdir + "/" + zone)
        let previous = getenv("TZDIR").map { String(cString: $0) }
        setenv("TZDIR", tzdir, 1)
        defer {
            hc_store_close(phone)
            hc_store_close(tablet)
            if let previous { setenv("TZDIR", previous, 1) } else { unsetenv("TZDIR") }
        }
        let later = pull(phone, from: tablet)
        XCTAssertEqual(later.ops_new, 0)
        XCTAssertEqual(later.ops_waiting, 0)
        XCTAssertEqual(later.settings_changed, 2, "the setting and the zone change")
        XCTAssertEqual(timezone(phone), zone)
        XCTAssertTrue(canonical(phone).contains("to=\"\(zone)\""))
        XCTAssertEqual(pull(tablet, from: phone).ops_waiting, 0)
        XCTAssertEqual(canonical(phone), canonical(tablet))
    }

    /// A zone name no store could hold is refused with the rest, as any damaged record.
    func testAMalformedSettingIsRefusedWhole() throws {
        let phone = try open("phone.db")
        defer { hc_store_close(phone) }
        let before = canonical(phone)
        for op in [
            SyncOp.setting(key: "timezone", value: "../etc/passwd"), .setting(key: "day_start_minutes", value: "1440"),
            .setting(key: "week_start", value: "7"), .zoneChange(atMs: 1, from: "UTC", to: "/abs"),
        ] {
            apply(changeset(water() + [op]), to: phone, expect: HC_E_INVALID)
            XCTAssertTrue(String(cString: hc_last_error_message()).contains("record 3"), String(cString: hc_last_error_message()))
        }
        XCTAssertEqual(canonical(phone), before, "nothing written")
    }

    func timezone(_ store: OpaquePointer) -> String {
        var zone: UnsafeMutablePointer<CChar>?
        ok(hc_store_timezone(&zone, store))
        defer { hc_free(zone) }
        return zone.map { String(cString: $0) } ?? ""
    }
}
