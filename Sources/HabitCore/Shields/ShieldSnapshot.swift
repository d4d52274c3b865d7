/// The small file a shield extension reads when it cannot open SQLite: each
/// rule's state at an instant, the transitions of the next day, and the store's
/// revision, as JSON. Pure: the engine writes it (atomically).
package enum ShieldSnapshot {
    package static let formatVersion: Int64 = 1

    package static func reasonName(_ reason: ShieldPlan.Reason) -> String {
        switch reason {
        case .windowOpen: return "window_open"
        case .untilDone: return "until_done"
        case .outsideWindow: return "outside_window"
        case .completed: return "completed"
        case .session: return "session"
        case .emergency: return "emergency"
        case .cutoffPassed: return "cutoff_passed"
        case .excused: return "excused"
        case .notInEffect: return "not_in_effect"
        }
    }

    package static func causeName(_ cause: ShieldPlan.Cause) -> String {
        switch cause {
        case .windowStart: return "window_start"
        case .cutoff: return "cutoff"
        case .completion: return "completion"
        case .sessionStart: return "session_start"
        case .sessionEnd: return "session_end"
        case .emergencyStart: return "emergency_start"
        case .emergencyEnd: return "emergency_end"
        case .excused: return "excused"
        case .ruleChange: return "rule_change"
        case .dayEnd: return "day_end"
        }
    }

    package struct RuleState: Sendable {
        package var state: ShieldPlan.State
        package var key: String?
        package var failClosed: Bool
        package var nextMs: Int64?
        package init(state: ShieldPlan.State, key: String?, failClosed: Bool, nextMs: Int64?) {
            self.state = state
            self.key = key
            self.failClosed = failClosed
            self.nextMs = nextMs
        }
    }

    package static func json(revision: Int64, atMs: Int64, rules: [RuleState], transitions: [ShieldPlan.Transition]) -> JSON {
        .object([
            ("format", .string("habitcore-shields")), ("version", .int(formatVersion)), ("revision", .int(revision)), ("at_ms", .int(atMs)),
            (
                "rules",
                .array(
                    rules.map { rule in
                        .object([
                            ("rule_id", .int(rule.state.ruleId)), ("key", rule.key.map(JSON.string) ?? .null), ("shielded", .bool(rule.state.shielded)),
                            ("reason", .string(reasonName(rule.state.reason))), ("fail_closed", .bool(rule.failClosed)),
                            ("next_change_ms", rule.nextMs.map(JSON.int) ?? .null),
                        ])
                    })
            ),
            (
                "transitions",
                .array(
                    transitions.map { t in
                        .object([
                            ("rule_id", .int(t.ruleId)), ("at_ms", .int(t.atMs)), ("shielded", .bool(t.to.shielded)), ("cause", .string(causeName(t.cause))),
                        ])
                    })
            ),
        ])
    }
}
