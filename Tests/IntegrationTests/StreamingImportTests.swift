import CHabitCore
import Foundation
import HabitCore
import XCTest

/// hc_store_import_file of a large generated JSON Lines file: each record written as
/// read and checked against what the import's transaction wrote before it, all or
/// nothing.
final class StreamingImportTests: StoreTestCase {
    static let habits = 20
    static let entries = 100_000
    /// The first line of entry 1.
    static let firstEntryLine = 2 + habits

    /// A document of `habits` counter habits and `entries` entries (ids 1...), seeded:
    /// every 50th entry undoes the one before it (same habit and day), every 7th has a
    /// retry key and every 11th a note. Answers the lines.
    func document(seed: UInt64, entries: Int = entries) -> [String] {
        var random = SplitMix(seed: seed)
        let dates = (0..<9000).map { (offset: Int) -> String in
            let day = Date(timeIntervalSince1970: 946_684_800 + Double(offset) * 86_400)
            return ISO8601DateFormatter.string(from: day, timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: .withFullDate)
        }
        var lines = [
            #"{"type":"header","format":"habitcore-store","schema_version":2,"timezone":"UTC","day_start_minutes":0}"#
        ]
        for habit in 1...Self.habits {
            lines.append(
                #"{"type":"habit","id":\#(habit),"name":"Habit \#(habit)","kind":"counter","target":3,"direction":"at_least","group":null,"#
                    + #""unit":null,"routine":"anytime","proof_required":false,"start_date":"2000-01-01","archived_date":null,"#
                    + #""created_at_ms":946684800000,"schedules":[{"from":"2000-01-01","schedule":"daily"}]}"#)
        }
        var last = (habit: 0, date: "")
        for id in 1...entries {
            if id % 50 == 0 {
                lines.append(
                    #"{"type":"entry","id":\#(id),"habit_id":\#(last.habit),"date":"\#(last.date)","kind":"undo","value":0,"#
                        + #""recorded_at_ms":\#(946_684_800_000 + id),"source":"manual","undoes":\#(id - 1),"note":null}"#)
                continue
            }
            let habit = Int(random.next() % UInt64(Self.habits)) + 1
            let date = dates[Int(random.next() % UInt64(dates.count))]
            let note = id % 11 == 0 ? #""note \#(id)""# : "null"
            let key = id % 7 == 0 ? #","key":"k\#(id)""# : ""
            lines.append(
                #"{"type":"entry","id":\#(id),"habit_id":\#(habit),"date":"\#(date)","kind":"amount","value":\#(random.next() % 9 + 1),"#
                    + #""recorded_at_ms":\#(946_684_800_000 + id),"source":"manual","undoes":null,"note":\#(note)\#(key)}"#)
            last = (habit, date)
        }
        return lines
    }

    func write(_ lines: [String], _ name: String) throws -> String {
        let path = dir + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// The entries the store holds, as the SQL rows they are, in id order.
    func entryRows(_ db: String) throws -> [String] {
        try runProcess([
            "sqlite3", dir + "/" + db,
            "SELECT e.id, e.habit_id, e.day, e.kind, e.value, e.recorded_at_ms, e.source, e.undoes, e.note, k.key FROM entries e LEFT JOIN entry_keys k ON k.entry_id = e.id ORDER BY e.id",
        ]).stdout.split(separator: "\n").map(String.init)
    }

    func testEveryEntryOfALargeFileArrivesAndABadRecordNearTheEndWritesNothing() throws {
        let lines = document(seed: 42)
        let path = try write(lines, "big.jsonl")

        // Into a new store: every entry, each field, under the document's own ids.
        let target = try open("target.db")
        let reports = FileExchangeTests.Reports()
        XCTAssertEqual(
            hc_store_import_file(target, path, HC_FORMAT_DETECT, FileExchangeTests.record, Unmanaged.passUnretained(reports).toOpaque()), HC_OK,
            String(cString: hc_store_errmsg(target)))
        hc_store_close(target)
        let size = Int64(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0)
        XCTAssertEqual(reports.calls.first?.done, 0)
        XCTAssertEqual(reports.calls.last?.done, size)
        XCTAssertTrue(reports.calls.allSatisfy { $0.total == size })
        XCTAssertEqual(reports.calls.map(\.done), reports.calls.map(\.done).sorted())
        let rows = try entryRows("target.db")
        XCTAssertEqual(rows.count, Self.entries)
        // And each row is its line: an export lists them as the document did.
        let exported = try open("target.db")
        let again = export(exported, HC_FORMAT_JSONL).split(separator: "\n").filter { $0.contains(#""type":"entry""#) }
        hc_store_close(exported)
        XCTAssertEqual(again.count, Self.entries)
        for (index, (line, written)) in zip(lines.suffix(Self.entries), again).enumerated()
        where index % 13 == 0 || line.contains(#""key""#) || !line.contains(#""undoes":null"#) {
            let given = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary
            let back = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? NSDictionary
            XCTAssertNotNil(given)
            XCTAssertEqual(given, back)
        }

        // A bad record near the end: refused naming its line, the store as it was.
        let near = Self.firstEntryLine + Self.entries - 12  // the line of an amount entry
        var broken = lines
        broken[near - 1] = broken[near - 1].replacingOccurrences(of: #""kind":"amount""#, with: #""kind":"sideways""#)
        XCTAssertNotEqual(broken, lines)
        try refused(broken, HC_E_INVALID, "line \(near): ")

        // A cancel halfway through: nothing written.
        let cancelled = try open("cancelled.db")
        defer { hc_store_close(cancelled) }
        let halfway = FileFraction(stopAt: size / 2)
        XCTAssertEqual(
            hc_store_import_file(cancelled, path, HC_FORMAT_JSONL, FileFraction.progress, Unmanaged.passUnretained(halfway).toOpaque()),
            HC_E_CANCELLED)
        XCTAssertGreaterThanOrEqual(halfway.stoppedAt, size / 2)
        XCTAssertLessThan(halfway.stoppedAt, size)
        XCTAssertEqual(eachHabit(cancelled) { _ in 0 }.count, 0)
        XCTAssertEqual(try entryRows("cancelled.db"), [])
    }

    /// Imports lines into a store holding a habit and an entry of its own: refused with
    /// code and a message starting with prefix, the store as it was.
    func refused(_ lines: [String], _ code: Int32, _ prefix: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try write(lines, "refused.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try open("refused-\(UUID().uuidString).db")
        defer { hc_store_close(store) }
        let kept = createHabit(store, "Kept", kind: HC_KIND_COUNTER, target: 2, start: "2020-01-01")
        ok(append(store, kept, HC_ENTRY_AMOUNT, value: 1, on: "2020-01-02").0)
        let held = export(store, HC_FORMAT_JSONL)
        XCTAssertEqual(hc_store_import_file(store, path, HC_FORMAT_DETECT, nil, nil), code, file: file, line: line)
        let message = String(cString: hc_store_errmsg(store))
        XCTAssertTrue(message.hasPrefix(prefix), message, file: file, line: line)
        XCTAssertEqual(export(store, HC_FORMAT_JSONL), held, file: file, line: line)
    }

    /// What a record must agree with among the ones before it, checked against what
    /// the import wrote: each refusal names the line, near the end of the file.
    func testARecordIsCheckedAgainstTheRecordsWrittenBeforeIt() throws {
        let count = 5000
        let lines = document(seed: 7, entries: count)
        func line(ofEntry id: Int) -> Int { Self.firstEntryLine + id - 1 }
        let path = try write(lines, "small.jsonl")
        let target = try open("target.db")
        XCTAssertEqual(hc_store_import_file(target, path, HC_FORMAT_JSONL, nil, nil), HC_OK, String(cString: hc_store_errmsg(target)))
        hc_store_close(target)
        let rows = try entryRows("target.db")
        XCTAssertEqual(rows.count, count)
        // The same document through hc_store_import of its text (the in-memory path) gives the same rows.
        let fromText = try open("from-text.db")
        XCTAssertEqual(hc_store_import(fromText, lines.joined(separator: "\n"), HC_FORMAT_JSONL), HC_OK, String(cString: hc_store_errmsg(fromText)))
        hc_store_close(fromText)
        XCTAssertEqual(try entryRows("from-text.db"), rows)
        // Into a store holding habits of its own (a merge): fresh ids, each undo pointing at
        // the entry written for the one it names.
        let merge = try open("merge.db")
        let own = createHabit(merge, "Own", kind: HC_KIND_COUNTER, target: 2, start: "2020-01-01")
        for offset in 0..<3 { ok(append(merge, own, HC_ENTRY_AMOUNT, value: 1, on: date(day("2020-01-01") + Int32(offset))).0) }
        XCTAssertEqual(hc_store_import_file(merge, path, HC_FORMAT_JSONL, nil, nil), HC_OK, String(cString: hc_store_errmsg(merge)))
        hc_store_close(merge)
        let mergedRows = try entryRows("merge.db")
        XCTAssertEqual(mergedRows.count, count + 3)
        let misplaced = try runProcess([
            "sqlite3", dir + "/merge.db",
            "SELECT count(*), sum(u.habit_id != t.habit_id OR u.day != t.day OR t.id != u.id - 1) FROM entries u JOIN entries t ON t.id = u.undoes",
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(misplaced, "\(count / 50)|0")

        func edit(_ id: Int, _ from: String, _ to: String) -> [String] {
            var edited = lines
            XCTAssertTrue(edited[line(ofEntry: id) - 1].contains(from), "entry \(id) has \(from)")
            edited[line(ofEntry: id) - 1] = edited[line(ofEntry: id) - 1].replacingOccurrences(of: from, with: to)
            return edited
        }
        let near = count - 12  // an entry with no key, undo or note
        try refused(edit(near, #""id":\#(near),"#, #""id":3,"#), HC_E_INVALID, "line \(line(ofEntry: near)): entry id 3 appears twice")
        try refused(edit(near, #""note":null"#, #""note":null,"key":"k7""#), HC_E_CONFLICT, "line \(line(ofEntry: near)): key 'k7' appears twice")
        try refused(
            edit(near, #""habit_id":"#, #""habit_id":99"#), HC_E_INVALID, "line \(line(ofEntry: near)): 'habit_id' 99")
        let undo = count - 50
        try refused(
            edit(undo, #""undoes":\#(undo - 1)"#, #""undoes":\#(undo - 1 - 50)"#), HC_E_INVALID,
            "line \(line(ofEntry: undo)): undo must have the habit and date of the entry it cancels")
        try refused(
            edit(undo, #""undoes":\#(undo - 1)"#, #""undoes":\#(count - 1)"#), HC_E_INVALID,
            "line \(line(ofEntry: undo)): 'undoes' \(count - 1) is not an entry listed before it")
        // Two more undos of the last entry's target, and of the last entry, an undo, as the last line.
        let last = lines[line(ofEntry: count) - 1]
        XCTAssertTrue(last.contains(#""undoes":\#(count - 1)"#))
        try refused(
            lines + [last.replacingOccurrences(of: #""id":\#(count),"#, with: #""id":\#(count + 1),"#)], HC_E_CONFLICT,
            "line \(line(ofEntry: count + 1)): entry \(count - 1) is already undone")
        try refused(
            lines + [
                last.replacingOccurrences(of: #""id":\#(count),"#, with: #""id":\#(count + 1),"#)
                    .replacingOccurrences(of: #""undoes":\#(count - 1)"#, with: #""undoes":\#(count)"#)
            ], HC_E_CONFLICT, "line \(line(ofEntry: count + 1)): entry \(count) is an undo; log the entry again instead")
        // A habit whose name an earlier one of the document has, and one the store has.
        var named = lines
        named[Self.habits] = named[Self.habits].replacingOccurrences(of: #""name":"Habit \#(Self.habits)""#, with: #""name":"habit 1""#)
        try refused(named, HC_E_CONFLICT, "line \(Self.habits + 1): habit \(Self.habits): the name 'habit 1' appears twice")
        named = lines
        named[Self.habits] = named[Self.habits].replacingOccurrences(of: #""name":"Habit \#(Self.habits)""#, with: #""name":"kept""#)
        try refused(named, HC_E_CONFLICT, "line \(Self.habits + 1): habit \(Self.habits) 'kept': the name 'kept' is taken")
    }

    /// Cancels at the first report at or past a number of bytes.
    final class FileFraction {
        let stopAt: Int64
        var stoppedAt: Int64 = -1
        init(stopAt: Int64) { self.stopAt = stopAt }

        static let progress: hc_transfer_progress = { done, _, userData in
            guard let userData else { return 0 }
            let fraction = Unmanaged<FileFraction>.fromOpaque(userData).takeUnretainedValue()
            guard done >= fraction.stopAt, fraction.stoppedAt < 0 else { return 0 }
            fraction.stoppedAt = done
            return 1
        }
    }
}
