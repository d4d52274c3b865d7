import CHabitCore
import HabitCore
import HabitEngine
import HabitPlatform

// Shields: rules, state, transitions, the revision and emergency unlocks.

enum CShield {
    /// HC_SHIELD_RULE_INIT's defaults, from the C initialiser that copies the macro.
    static func defaults() -> hc_shield_rule {
        var value = hc_shield_rule()
        _ = hc_shield_rule_init(&value, UInt32(MemoryLayout<hc_shield_rule>.size))  // its own size: cannot fail
        return value
    }

    static func flag(_ value: Int32, _ field: String) throws(HabitError) -> Bool {
        guard value == 0 || value == 1 else { throw .invalid("rule.\(field) \(value) is not 0 or 1") }
        return value == 1
    }

    /// A caller's rule as domain settings (validated by the domain after).
    static func settings(_ pointer: UnsafePointer<hc_shield_rule>?) throws(HabitError) -> ShieldRule.Settings {
        let rule = try Convert.options(pointer, "rule")
        // -1 (HC_SHIELD_DAY_START, HC_SHIELD_MIDNIGHT) is the domain's nil; it checks every other value.
        func minute(_ value: Int32) -> Int32? { value == -1 ? nil : value }
        guard rule.habit_count >= 0, rule.habit_count <= Int64(ShieldRule.maxHabits) else {
            throw .invalid("rule.habit_count \(rule.habit_count) is not in 1...\(ShieldRule.maxHabits)")
        }
        guard rule.habit_count == 0 || rule.habit_ids != nil else { throw .invalid("rule.habit_ids is NULL with habit_count \(rule.habit_count)") }
        let habits = rule.habit_ids.map { Array(UnsafeBufferPointer(start: $0, count: Int(rule.habit_count))) } ?? []
        guard let lift = ShieldRule.Lift(rawValue: rule.lift) else { throw .invalid("rule.lift \(rule.lift) is not an HC_SHIELD_LIFT_* constant") }
        guard let period = ShieldRule.BudgetPeriod(rawValue: rule.budget_period) else {
            throw .invalid("rule.budget_period \(rule.budget_period) is not an HC_SHIELD_BUDGET_* constant")
        }
        let days = try Schedule(parsing: try Convert.optionalString(rule.days, "rule.days") ?? "daily")
        return ShieldRule.Settings(
            name: try Convert.string(rule.name, "rule.name"), key: try Convert.string(rule.key, "rule.key"), days: days,
            startMinute: minute(rule.start_minute), endMinute: minute(rule.end_minute),
            habits: habits, lift: lift, sessionLifts: try flag(rule.session_lifts, "session_lifts"),
            cutoffLifts: try flag(rule.cutoff_lifts, "cutoff_lifts"), excusedLifts: try flag(rule.excused_lifts, "excused_lifts"),
            failClosed: try flag(rule.fail_closed, "fail_closed"), budgetPeriod: period, budgetCount: rule.budget_count)
    }

    static func state(_ view: Engine.ShieldStateView) -> hc_shield_status {
        let s = view.state
        var out = hc_shield_status()
        out.struct_size = UInt32(MemoryLayout<hc_shield_status>.size)
        out.shielded = s.shielded ? 1 : 0
        out.rule_id = s.ruleId
        out.reason = s.reason.rawValue
        out.fail_closed = view.rule?.settings.failClosed == false ? 0 : 1
        out.window_day = s.windowDay
        out.habit_day = s.habitDay
        out.window_start_ms = s.windowStartMs
        out.window_end_ms = s.windowEndMs
        out.since_ms = s.sinceMs
        out.until_ms = s.untilMs
        out.next_change_ms = view.next?.atMs ?? 0
        out.next_cause = view.next?.cause.rawValue ?? 0
        out.earlier = view.earlier
        out.emergency_left = view.emergencyLeft ?? -1
        let outstanding = s.outstanding.prefix(ShieldRule.maxHabits)
        out.outstanding_count = Int32(outstanding.count)
        withUnsafeMutableBytes(of: &out.outstanding) { raw in
            let ids = raw.bindMemory(to: Int64.self)
            for (index, id) in outstanding.enumerated() where index < ids.count { ids[index] = id }
        }
        return out
    }

    static func transition(_ view: Engine.ShieldTransitionView) -> hc_shield_transition {
        let t = view.transition
        var out = hc_shield_transition()
        out.struct_size = UInt32(MemoryLayout<hc_shield_transition>.size)
        out.shielded = t.to.shielded ? 1 : 0
        out.rule_id = t.ruleId
        out.at_ms = t.atMs
        out.local_day = view.localDay
        out.local_minute = view.localMinute
        out.offset_seconds = view.offsetSeconds
        out.moved = t.moved
        out.from_reason = t.from.rawValue
        out.to_reason = t.to.rawValue
        out.cause = t.cause.rawValue
        withUnsafeMutableBytes(of: &out.zone) { raw in
            let bytes = Array(view.zone.utf8.prefix(raw.count - 1))
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return out
    }
}

typealias ShieldRuleListBox = OwnedArray<hc_shield_rule>

@c @implementation
public func hc_shield_rule_add(
    _ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ rule: UnsafePointer<hc_shield_rule>?,
    _ from_day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let settings = try CShield.settings(rule)
        let id = try engine.addShieldRule(settings, fromDay: try Convert.day(from_day, "from_day"))
        out_id?.pointee = id
    }
}

@c @implementation
public func hc_shield_rule_update(_ store: OpaquePointer?, _ rule_id: Int64, _ rule: UnsafePointer<hc_shield_rule>?, _ from_day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.changeShieldRule(id: rule_id, try CShield.settings(rule), fromDay: try Convert.day(from_day, "from_day"))
    }
}

@c @implementation
public func hc_shield_rule_remove(_ store: OpaquePointer?, _ rule_id: Int64, _ from_day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.changeShieldRule(id: rule_id, nil, fromDay: try Convert.day(from_day, "from_day"))
    }
}

@c @implementation
public func hc_shield_rule_list_open(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        let rules = try engine.shieldRules(on: try Convert.day(day, "day"))
        let box = try ShieldRuleListBox(
            rules,
            fill: { (target, rule) throws(HabitError) in
                let s = rule.settings
                var value = CShield.defaults()
                value.start_minute = s.startMinute ?? -1
                value.end_minute = s.endMinute ?? -1
                value.lift = s.lift.rawValue
                value.session_lifts = s.sessionLifts ? 1 : 0
                value.cutoff_lifts = s.cutoffLifts ? 1 : 0
                value.excused_lifts = s.excusedLifts ? 1 : 0
                value.fail_closed = s.failClosed ? 1 : 0
                value.budget_period = s.budgetPeriod.rawValue
                value.budget_count = s.budgetCount
                value.from_day = rule.fromDay
                value.id = rule.id
                value.habit_count = Int64(s.habits.count)
                target.initialize(to: value)
                let ids = UnsafeMutablePointer<Int64>.allocate(capacity: max(s.habits.count, 1))
                for (index, id) in s.habits.enumerated() { (ids + index).initialize(to: id) }
                target.pointee.habit_ids = UnsafePointer(ids)
                target.pointee.name = try Convert.fieldString(s.name)
                target.pointee.key = try Convert.fieldString(s.key)
                target.pointee.days = try Convert.fieldString(s.days.description)
            },
            clear: {
                $0.pointee.habit_ids.map { UnsafeMutablePointer(mutating: $0).deallocate() }
                Convert.freeField($0.pointee.name)
                Convert.freeField($0.pointee.key)
                Convert.freeField($0.pointee.days)
            })
        out.pointee = Registry.retain(box, .shieldRuleList)
    }
}

@c @implementation
public func hc_shield_rule_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .shieldRuleList, "shield rule list: NULL, freed, or not from hc_shield_rule_list_open", as: hc_shield_rule.self)
}

@c @implementation
public func hc_shield_rule_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_shield_rule>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .shieldRuleList, "shield rule list: NULL, freed, or not from hc_shield_rule_list_open")
}

@c @implementation
public func hc_shield_rule_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .shieldRuleList, as: hc_shield_rule.self)
}

@c @implementation
public func hc_shield_state(
    _ out: UnsafeMutablePointer<hc_shield_status>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ out_revision: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ at_ms: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        let (revision, states) = try engine.shieldStates(atMs: Convert.instant(at_ms))
        Convert.copy(states, into: buffer, count: count, CShield.state)
        out_revision?.pointee = revision
    }
}

@c @implementation
public func hc_shield_transitions(
    _ out: UnsafeMutablePointer<hc_shield_transition>?, _ capacity: Int64, _ out_count: UnsafeMutablePointer<Int64>?,
    _ out_revision: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ from_ms: Int64, _ to_ms: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let buffer = try Convert.array(out, capacity, "out")
        let count = try Convert.out(out_count, "out_count")
        let (revision, transitions) = try engine.shieldTransitions(fromMs: from_ms, toMs: to_ms)
        Convert.copy(transitions, into: buffer, count: count, CShield.transition)
        out_revision?.pointee = revision
    }
}

@c @implementation
public func hc_shield_revision(_ out_revision: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out_revision, "out_revision")
        out.pointee = try engine.shieldRevision()
    }
}

@c @implementation
public func hc_shield_emergency_unlock(
    _ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ rule_id: Int64, _ minutes: Int32,
    _ reason: UnsafePointer<CChar>?
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let id = try engine.emergencyUnlock(ruleId: rule_id, minutes: minutes, reason: try Convert.optionalString(reason, "reason"))
        out_id?.pointee = id
    }
}

@c @implementation
public func hc_shield_snapshot_write(_ store: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ at_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let path = try Convert.string(path, "path")
        try engine.writeShieldSnapshot(path: path, atMs: Convert.instant(at_ms))
    }
}
