import CHabitCore
import Foundation
import XCTest

/// Sync through the C functions, for every test case that syncs stores: a store's
/// state, the changes a peer lacks, applying them, the canonical text.
extension StoreTestCase {
    func state(_ store: OpaquePointer) -> [UInt8] {
        var count: Int64 = 0
        ok(hc_sync_state(nil, 0, &count, store))
        var bytes = [UInt8](repeating: 0, count: Int(count))
        ok(hc_sync_state(&bytes, count, &count, store))
        return bytes
    }

    func changes(_ from: OpaquePointer, for peer: [UInt8]) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size: Int64 = 0
        ok(hc_sync_changes(&out, &size, from, peer, Int64(peer.count)))
        defer { hc_free(out) }
        guard let out else { return [] }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    @discardableResult
    func apply(_ bytes: [UInt8], to store: OpaquePointer, expect: Int32 = HC_OK, file: StaticString = #filePath, line: UInt = #line) -> hc_sync_summary {
        var summary = defaults(hc_sync_summary_init)
        XCTAssertEqual(hc_sync_apply(&summary, store, bytes, Int64(bytes.count)), expect, String(cString: hc_last_error_message()), file: file, line: line)
        return summary
    }

    /// One direction: what `to` lacks of `from`.
    @discardableResult
    func pull(_ to: OpaquePointer, from: OpaquePointer) -> hc_sync_summary { apply(changes(from, for: state(to)), to: to) }

    func canonical(_ store: OpaquePointer) -> String {
        var text: UnsafeMutablePointer<CChar>?
        ok(hc_sync_canonical(&text, store))
        defer { hc_free(text) }
        return text.map { String(cString: $0) } ?? ""
    }

    /// The local id of the habit named name on store.
    func habitId(_ store: OpaquePointer, _ name: String) -> Int64 {
        var habit: UnsafeMutablePointer<hc_habit>?
        ok(hc_habit_find(&habit, store, name))
        defer { hc_habit_free(habit) }
        return habit?.pointee.id ?? 0
    }
}
