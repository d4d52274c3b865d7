import CHabitCore
import HabitCore
import HabitEngine

// The credit ledger: accounts, rules, step syncs, spends, day summaries, history.

enum CCredit {
    static func ruleKind(_ value: Int32) throws(HabitError) -> CreditRule.Kind {
        guard let kind = CreditRule.Kind(rawValue: value) else { throw .invalid("kind \(value) is not an HC_RULE_* constant") }
        return kind
    }

    static func fill(_ target: UnsafeMutablePointer<hc_credit_entry>, _ entry: CreditEntry) throws(HabitError) {
        var value = hc_credit_entry()
        value.struct_size = UInt32(MemoryLayout<hc_credit_entry>.size)
        value.kind = entry.kind.rawValue
        value.id = entry.id
        value.account_id = entry.accountId
        value.minutes = entry.minutes
        value.day = entry.day
        value.cause = entry.cause.rawValue
        value.at_ms = entry.atMs
        value.cause_id = entry.causeId ?? 0
        value.habit_id = entry.habitId ?? 0
        value.steps = entry.steps ?? 0
        value.reason = try Convert.fieldString(entry.reason)
        target.initialize(to: value)
    }
}

/// What an hc_credit_list pointer stands for.
typealias CreditListBox = OwnedArray<hc_credit_entry>

@c @implementation
public func hc_credit_account_create(_ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_id, "out_id")
        out.pointee = try engine.createCreditAccount(name: try Convert.string(name, "name"))
    }
}

@c @implementation
public func hc_credit_account_find(_ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_id, "out_id")
        out.pointee = try engine.creditAccount(named: try Convert.string(name, "name")).id
    }
}

@c @implementation
public func hc_credit_rule_set(
    _ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ account_id: Int64, _ kind: Int32,
    _ habit_id: Int64, _ value: Int64, _ from_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let kind = try CCredit.ruleKind(kind)
        guard habit_id >= 0 else { throw .invalid("habit_id \(habit_id) is negative") }
        if kind != .habitMinutes && habit_id != 0 { throw .invalid("habit_id is only for HC_RULE_HABIT_MINUTES") }
        let id = try engine.setCreditRule(
            accountId: account_id, kind: kind, habitId: habit_id == 0 ? nil : habit_id, value: value,
            fromDay: try Convert.day(from_day, "from_day"))
        out_id?.pointee = id
    }
}

@c @implementation
public func hc_credit_rule_list(
    _ out: UnsafeMutablePointer<hc_credit_rule>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ store: OpaquePointer?, _ account_id: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        Convert.copy(try engine.creditRules(accountId: account_id), into: buffer, count: count) { rule in
            hc_credit_rule(
                struct_size: UInt32(MemoryLayout<hc_credit_rule>.size), kind: rule.kind.rawValue, id: rule.id,
                account_id: rule.accountId, habit_id: rule.habitId ?? 0, value: rule.value, from_day: rule.fromDay, reserved: 0)
        }
    }
}

@c @implementation
public func hc_credit_sync_steps(
    _ out: UnsafeMutablePointer<hc_step_sync>?, _ store: OpaquePointer?, _ account_id: Int64, _ day: Int32,
    _ steps: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        let sync = try engine.syncSteps(accountId: account_id, day: try Convert.day(day, "day"), steps: steps)
        result.pointee = hc_step_sync(
            struct_size: UInt32(MemoryLayout<hc_step_sync>.size), day: sync.day, steps: sync.steps,
            earned_now: sync.earnedNow, day_earned: sync.dayEarned)
    }
}

@c @implementation
public func hc_credit_spend(
    _ out_entry_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ account_id: Int64, _ minutes: Int64,
    _ reason: UnsafePointer<CChar>?, _ flags: UInt32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try Convert.flags(flags, known: HC_SPEND_UNLOCK)
        let id = try engine.spend(
            accountId: account_id, minutes: minutes, reason: try Convert.optionalString(reason, "reason"),
            unlock: flags & HC_SPEND_UNLOCK != 0)
        out_entry_id?.pointee = id
    }
}

@c @implementation
public func hc_credit_adjust(
    _ out_entry_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ account_id: Int64, _ minutes: Int64,
    _ reason: UnsafePointer<CChar>?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try engine.adjustCredits(accountId: account_id, minutes: minutes, reason: try Convert.optionalString(reason, "reason"))
        out_entry_id?.pointee = id
    }
}

@c @implementation
public func hc_credit_day_summary(
    _ out: UnsafeMutablePointer<hc_credit_day>?, _ store: OpaquePointer?, _ account_id: Int64,
    _ day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        // 0.2.0's hc_credit_day ended before `refunded`.
        let result = try Convert.grownResult(out, "out", sizes: [64, MemoryLayout<hc_credit_day>.size])
        let summary = try engine.creditDay(accountId: account_id, day: try Convert.day(day, "day"))
        result.write(
            hc_credit_day(
                struct_size: UInt32(MemoryLayout<hc_credit_day>.size), day: summary.day, steps: summary.steps,
                carried_in: summary.carriedIn, earned: summary.earned, spent: summary.spent,
                adjusted: summary.adjusted, expired: summary.expired, available: summary.available,
                refunded: summary.refunded))
    }
}

@c @implementation
public func hc_credit_balance(_ out_available: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ account_id: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_available, "out_available")
        out.pointee = try engine.creditBalance(accountId: account_id)
    }
}

@c @implementation
public func hc_credit_unlock_state(
    _ out: UnsafeMutablePointer<hc_unlock_state>?, _ store: OpaquePointer?, _ account_id: Int64,
    _ at_ms: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let result = try Convert.result(out, "out")
        guard at_ms >= 0 else { throw .invalid("at_ms \(at_ms) is negative") }
        let state = try engine.unlockState(accountId: account_id, atMs: Convert.instant(at_ms))
        result.pointee = hc_unlock_state(
            struct_size: UInt32(MemoryLayout<hc_unlock_state>.size), active: state.active ? 1 : 0,
            session_id: state.sessionId, start_ms: state.startMs, until_ms: state.untilMs)
    }
}

@c @implementation
public func hc_credit_list_open(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ account_id: Int64,
    _ from_day: Int32, _ to_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        let entries = try engine.creditHistory(accountId: account_id, from: from_day, to: to_day)
        let box = try CreditListBox(
            entries, fill: { (target, entry) throws(HabitError) in try CCredit.fill(target, entry) },
            clear: { Convert.freeField($0.pointee.reason) })
        out.pointee = Registry.retain(box, .creditList)
    }
}

@c @implementation
public func hc_credit_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .creditList, "credit list: NULL, freed, or not from hc_credit_list_open", as: hc_credit_entry.self)
}

@c @implementation
public func hc_credit_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_credit_entry>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .creditList, "credit list: NULL, freed, or not from hc_credit_list_open")
}

@c @implementation
public func hc_credit_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .creditList, as: hc_credit_entry.self)
}

@c @implementation
public func hc_credit_session_end(
    _ out_refund_minutes: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ session_id: Int64,
    _ at_ms: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        guard at_ms >= 0 else { throw .invalid("at_ms \(at_ms) is negative") }
        let end = try engine.endSession(id: session_id, atMs: Convert.instant(at_ms))
        out_refund_minutes?.pointee = end.refundMinutes
    }
}
