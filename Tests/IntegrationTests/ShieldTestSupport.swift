import CHabitCore
import Foundation
import XCTest

/// Shields through the C functions, for every test case on an open store: rules,
/// every rule's state at an instant, the revision.
extension OpenStoreTestCase {

    struct Status: Equatable {
        var shielded: Bool
        var reason: Int32
        var sinceMs: Int64
        var untilMs: Int64
        var next: Int64
        var nextCause: Int32
        var earlier: UInt32
        var emergencyLeft: Int32
        var outstanding: [Int64]
    }

    @discardableResult
    func addRule(
        _ habits: [Int64], start: Int32 = 0, end: Int32 = -1, lift: Int32 = HC_SHIELD_LIFT_ALL, days: String? = nil,
        budget: (Int32, Int32) = (HC_SHIELD_BUDGET_UNLIMITED, 0), cutoffLifts: Int32 = 1, name: String = "morning", store: OpaquePointer? = nil,
        fromDay: Int32 = Int32.min, expect: Int32 = HC_OK, file: StaticString = #filePath, line: UInt = #line
    ) -> Int64 {
        var id: Int64 = 0
        let status = withRule(habits, start: start, end: end, lift: lift, days: days, budget: budget, cutoffLifts: cutoffLifts, name: name) {
            hc_shield_rule_add(&id, store ?? self.store, $0, fromDay)
        }
        XCTAssertEqual(status, expect, String(cString: hc_last_error_message()), file: file, line: line)
        return id
    }

    /// Calls body with a rule of these settings (key "social-apps").
    func withRule(
        _ habits: [Int64], start: Int32 = 0, end: Int32 = -1, lift: Int32 = HC_SHIELD_LIFT_ALL, days: String? = nil,
        budget: (Int32, Int32) = (HC_SHIELD_BUDGET_UNLIMITED, 0), cutoffLifts: Int32 = 1, name: String = "morning",
        _ body: (UnsafePointer<hc_shield_rule>) -> Int32
    ) -> Int32 {
        var rule = defaults(hc_shield_rule_init)
        rule.start_minute = start
        rule.end_minute = end
        rule.lift = lift
        rule.budget_period = budget.0
        rule.budget_count = budget.1
        rule.cutoff_lifts = cutoffLifts
        rule.habit_count = Int64(habits.count)
        return habits.withUnsafeBufferPointer { ids in
            rule.habit_ids = ids.baseAddress
            return name.withCString { name in
                rule.name = name
                return "social-apps".withCString { key in
                    rule.key = key
                    return withOptionalCString(days) {
                        rule.days = $0; return body(&rule)
                    }
                }
            }
        }
    }

    func states(at ms: Int64, store: OpaquePointer? = nil, file: StaticString = #filePath, line: UInt = #line) -> (revision: Int64, [Status]) {
        var count: Int64 = 0, revision: Int64 = 0
        ok(hc_shield_state(nil, 0, &count, nil, store ?? self.store, ms), file: file, line: line)
        var buffer = [hc_shield_status](repeating: hc_shield_status(), count: Int(count))
        ok(hc_shield_state(&buffer, count, &count, &revision, store ?? self.store, ms), file: file, line: line)
        return (
            revision,
            buffer.map { s in
                var copy = s
                let outstanding = withUnsafeBytes(of: &copy.outstanding) { Array($0.bindMemory(to: Int64.self).prefix(Int(s.outstanding_count))) }
                return Status(
                    shielded: s.shielded == 1, reason: s.reason, sinceMs: s.since_ms, untilMs: s.until_ms, next: s.next_change_ms,
                    nextCause: s.next_cause, earlier: s.earlier, emergencyLeft: s.emergency_left, outstanding: outstanding)
            }
        )
    }

    /// Every transition in [from, to) (hc_shield_transitions), with the revision.
    func transitions(from: Int64, to: Int64, store: OpaquePointer? = nil, file: StaticString = #filePath, line: UInt = #line) -> (
        revision: Int64, [hc_shield_transition]
    ) {
        var count: Int64 = 0, revision: Int64 = 0
        ok(hc_shield_transitions(nil, 0, &count, nil, store ?? self.store, from, to), file: file, line: line)
        var buffer = [hc_shield_transition](repeating: hc_shield_transition(), count: Int(count))
        ok(hc_shield_transitions(&buffer, count, &count, &revision, store ?? self.store, from, to), file: file, line: line)
        return (revision, Array(buffer.prefix(Int(count))))
    }

    func revision(_ store: OpaquePointer? = nil) -> Int64 {
        var value: Int64 = 0
        ok(hc_shield_revision(&value, store ?? self.store))
        return value
    }
}
