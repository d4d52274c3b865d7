import CHabitCore
import Foundation
import XCTest

/// Helpers for tests that submit proofs through the C functions.
class ProofTestCase: OpenStoreTestCase {
    static let fixtures = Paths.root + "/Tests/fixtures"

    struct Result {
        var outcome: Int32
        var proofId: Int64
        var entryId: Int64
        var reason: String
        var message: String
    }

    func submit(_ habit: Int64, _ file: String, file line: StaticString = #filePath, line number: UInt = #line) -> Result {
        var input = defaults(hc_proof_input_init)
        input.habit_id = habit
        var result = defaults(hc_proof_result_init)
        let path = file.hasPrefix("/") ? file : ProofTestCase.fixtures + "/" + file
        let status = path.withCString {
            input.path = $0; return hc_proof_submit(&result, store, &input)
        }
        ok(status, file: line, line: number)
        let reason = withUnsafeBytes(of: &result.reason_code) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let message = withUnsafeBytes(of: &result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Result(outcome: result.outcome, proofId: result.proof_id, entryId: result.entry_id, reason: reason, message: message)
    }

    func policy(_ habit: Int64, _ verifiers: String, window: (Int32, Int32)? = nil, onePerDay: Bool = true) {
        var policy = defaults(hc_proof_policy_init)
        policy.mode = HC_POLICY_ALL
        policy.approve_threshold = 0.8
        policy.review_threshold = 0.5
        policy.window_start = window?.0 ?? -1
        policy.window_end = window?.1 ?? -1
        policy.one_per_day = onePerDay ? 1 : 0
        ok(
            verifiers.withCString {
                policy.verifiers = $0; return hc_proof_policy_set(store, habit, &policy)
            })
    }

    func currentStreak(_ habit: Int64) -> Int32 {
        var result = defaults(hc_streak_result_init)
        var count: Int64 = 0
        ok(hc_habit_streaks(&result, nil, 0, &count, store, habit, Int32.min))
        return result.current.length
    }

    func addPlugin(_ kind: Int32, _ path: String, id: String? = nil, timeoutMs: Int64 = 0) -> Int32 {
        withOptionalCString(id) { hc_plugin_add(nil, store, kind, path, $0, timeoutMs) }
    }
}
