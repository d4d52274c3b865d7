import CHabitCore
import Foundation
import XCTest

/// Relapses between a person's devices, through the C functions on real store files:
/// relapses are entries, so they merge as a union and every replica folds the same status;
/// an export and a backup carry them as well.
final class QuitSyncTests: StoreTestCase {
    func status(_ store: OpaquePointer, _ habit: Int64, at ms: Int64) -> hc_quit_status {
        var out = defaults(hc_quit_status_init)
        ok(hc_quit_status_get(&out, store, habit, ms))
        return out
    }

    func testRelapsesLoggedOfflineOnTwoReplicasMergeAndAgree() throws {
        let phone = try open("phone.db"), watch = try open("watch.db")
        defer { hc_store_close(phone); hc_store_close(watch) }
        ok(hc_store_set_timezone(phone, "UTC"))
        let quit = createHabit(phone, "Smoking", kind: HC_KIND_QUIT, target: 5, schedule: "weekly:1", start: "2026-03-02")
        pull(watch, from: phone)
        let quitThere = habitId(watch, "Smoking")
        XCTAssertGreaterThan(quitThere, 0)
        // Offline: the phone logs a relapse on Tuesday, the watch one on Wednesday, with a note.
        let noon = { (date: String) in Int64(self.day(date)) * 86_400_000 + 43_200_000 }
        XCTAssertEqual(append(phone, quit, HC_ENTRY_RELAPSE, value: 2, atMs: noon("2026-03-10")).0, HC_OK)
        var input = defaults(hc_entry_input_init)
        input.habit_id = quitThere
        input.kind = HC_ENTRY_RELAPSE
        input.at_ms = noon("2026-03-11")
        var watchRelapse: Int64 = 0
        "after dinner".withCString {
            input.note = $0
            ok(hc_entry_append(&watchRelapse, watch, &input))
        }
        let at = noon("2026-03-13")
        XCTAssertEqual(status(phone, quit, at: at).relapses, 1)
        XCTAssertEqual(pull(watch, from: phone).entries_added, 1)
        XCTAssertEqual(pull(phone, from: watch).entries_added, 1)
        XCTAssertEqual(canonical(phone), canonical(watch))
        let onPhone = status(phone, quit, at: at), onWatch = status(watch, quitThere, at: at)
        for s in [onPhone, onWatch] {
            XCTAssertEqual(s.relapses, 2)
            XCTAssertEqual(s.last_relapse_day, day("2026-03-11"))
            XCTAssertEqual(s.last_relapse_ms, noon("2026-03-11"))
            XCTAssertEqual(s.period_relapses, 2)
            XCTAssertEqual(s.over_allowance, 1, "two in the week of Monday 03-09 against one allowed")
            XCTAssertEqual(s.relapse_amount, 2)
            XCTAssertEqual(s.best_clean_days, 8)
        }
        XCTAssertEqual(onPhone.since_ms, onWatch.since_ms)
        // The watch takes its relapse back; the undo travels and both agree again.
        var undo: Int64 = 0
        ok(hc_entry_undo(&undo, watch, watchRelapse))
        pull(phone, from: watch)
        XCTAssertEqual(status(phone, quit, at: at).relapses, 1)
        XCTAssertEqual(status(phone, quit, at: at).over_allowance, 0)
        XCTAssertEqual(canonical(phone), canonical(watch))
        // The export names the kinds, and imports back with the relapse and its note.
        let exported = export(phone, HC_FORMAT_JSON)
        XCTAssertTrue(exported.contains("\"relapse\""), exported)
        XCTAssertTrue(exported.contains("\"quit\""), exported)
        let copy = try open("copy.db")
        defer { hc_store_close(copy) }
        ok(hc_store_import(copy, exported, HC_FORMAT_JSON))
        let quitCopy = habitId(copy, "Smoking")
        XCTAssertEqual(status(copy, quitCopy, at: at).relapses, 1)
        XCTAssertEqual(status(copy, quitCopy, at: at).saved, status(phone, quit, at: at).saved)
        // A backup of the file holds the relapses too.
        ok(hc_store_backup(watch, dir + "/watch-backup.db"))
        let restored = try open("watch-backup.db")
        defer { hc_store_close(restored) }
        let kept = status(restored, habitId(restored, "Smoking"), at: at), original = status(watch, quitThere, at: at)
        XCTAssertEqual(kept.relapses, original.relapses)
        XCTAssertEqual(kept.last_relapse_ms, original.last_relapse_ms)
        XCTAssertEqual(kept.relapse_amount, original.relapse_amount)
        XCTAssertEqual(kept.saved, original.saved)
    }
}
