import CHabitCore
import HabitCore
import HabitEngine

// Reminders: rules, quiet hours, the instants to nudge at, deliveries and snoozes.

enum CReminder {
    /// A caller's rule as domain settings.
    static func settings(_ pointer: UnsafePointer<hc_reminder_rule>?) throws(HabitError) -> ReminderRule.Settings {
        let rule = try Convert.options(pointer, "rule")
        guard let weekdays = UInt8(exactly: rule.weekdays), weekdays & 0x80 == 0 else {
            throw .invalid("rule.weekdays \(rule.weekdays) is not a set of weekday bits (1 << 0 Sunday ... 1 << 6 Saturday)")
        }
        guard let quiet = ReminderRule.QuietMode(rawValue: rule.quiet) else { throw .invalid("rule.quiet \(rule.quiet) is not an HC_QUIET_* constant") }
        return ReminderRule.Settings(
            minute: rule.minute, weekdays: weekdays, message: try Convert.optionalString(rule.message, "rule.message"),
            quiet: quiet)
    }
}

/// What an hc_reminder_rule_list / hc_reminder_list pointer stands for.
typealias ReminderRuleListBox = OwnedArray<hc_reminder_rule>
typealias ReminderListBox = OwnedArray<hc_reminder>

@c @implementation
public func hc_reminder_rule_add(_ out_id: UnsafeMutablePointer<Int64>?, _ store: OpaquePointer?, _ rule: UnsafePointer<hc_reminder_rule>?) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let settings = try CReminder.settings(rule)
        let habitId = rule?.pointee.habit_id ?? 0
        let id = try engine.addReminderRule(habitId: habitId, settings)
        out_id?.pointee = id
    }
}

@c @implementation
public func hc_reminder_rule_update(_ store: OpaquePointer?, _ rule_id: Int64, _ rule: UnsafePointer<hc_reminder_rule>?, _ from_day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.changeReminderRule(id: rule_id, try CReminder.settings(rule), fromDay: try Convert.day(from_day, "from_day"))
    }
}

@c @implementation
public func hc_reminder_rule_remove(_ store: OpaquePointer?, _ rule_id: Int64, _ from_day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.changeReminderRule(id: rule_id, nil, fromDay: try Convert.day(from_day, "from_day"))
    }
}

@c @implementation
public func hc_reminder_rule_list_open(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ habit_id: Int64, _ day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        guard habit_id >= 0 else { throw .invalid("habit_id \(habit_id) is negative") }
        let rules = try engine.reminderRules(habitId: habit_id == 0 ? nil : habit_id, on: try Convert.day(day, "day"))
        let box = try ReminderRuleListBox(
            rules,
            fill: { (target, rule) throws(HabitError) in
                target.initialize(
                    to: hc_reminder_rule(
                        struct_size: UInt32(MemoryLayout<hc_reminder_rule>.size), minute: rule.settings.minute,
                        id: rule.id, habit_id: rule.habitId, weekdays: Int32(rule.settings.weekdays),
                        quiet: rule.settings.quiet.rawValue, from_day: rule.fromDay, reserved: 0, message: nil))
                target.pointee.message = try Convert.fieldString(rule.settings.message)
            }, clear: { Convert.freeField($0.pointee.message) })
        out.pointee = Registry.retain(box, .reminderRuleList)
    }
}

@c @implementation
public func hc_reminder_rule_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(
        out_count, list, .reminderRuleList, "reminder rule list: NULL, freed, or not from hc_reminder_rule_list_open",
        as: hc_reminder_rule.self)
}

@c @implementation
public func hc_reminder_rule_list_get(
    _ out: UnsafeMutablePointer<UnsafePointer<hc_reminder_rule>?>?, _ list: OpaquePointer?,
    _ index: Int64
) -> Int32 {
    ListHandle.get(out, list, index, .reminderRuleList, "reminder rule list: NULL, freed, or not from hc_reminder_rule_list_open")
}

@c @implementation
public func hc_reminder_rule_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .reminderRuleList, as: hc_reminder_rule.self)
}

// MARK: Quiet hours

@c @implementation
public func hc_store_set_quiet_hours(_ store: OpaquePointer?, _ start: Int32, _ end: Int32, _ from_day: Int32) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let hours: QuietHours? = start == -1 && end == -1 ? nil : try QuietHours(start: start, end: end)
        try engine.setQuietHours(hours, fromDay: try Convert.day(from_day, "from_day"))
    }
}

@c @implementation
public func hc_store_quiet_hours(
    _ out_start: UnsafeMutablePointer<Int32>?, _ out_end: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?,
    _ day: Int32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let hours = try engine.quietHours(on: try Convert.day(day, "day"))
        out_start?.pointee = hours?.start ?? -1
        out_end?.pointee = hours?.end ?? -1
    }
}

// MARK: Instants, deliveries, snoozes

@c @implementation
public func hc_reminder_list_open(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?, _ from_ms: Int64, _ to_ms: Int64,
    _ flags: UInt32
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let out = try Convert.out(out, "out")
        try Convert.flags(flags, known: HC_REMINDERS_PENDING | HC_REMINDERS_CLAIM)
        let delivery: Engine.ReminderDelivery = flags & HC_REMINDERS_CLAIM != 0 ? .claim : (flags & HC_REMINDERS_PENDING != 0 ? .pending : .all)
        let reminders = try engine.reminders(fromMs: from_ms, toMs: to_ms, delivery: delivery)
        let box = try ReminderListBox(
            reminders,
            fill: { (target, reminder) throws(HabitError) in
                target.initialize(
                    to: hc_reminder(
                        struct_size: UInt32(MemoryLayout<hc_reminder>.size), kind: reminder.kind.rawValue,
                        at_ms: reminder.atMs, habit_id: reminder.habitId, rule_id: reminder.ruleId, day: reminder.day,
                        local_minute: reminder.localMinute, original_ms: reminder.originalMs,
                        deferred: reminder.deferred ? 1 : 0, fired: reminder.fired ? 1 : 0, message: nil))
                target.pointee.message = try Convert.fieldString(reminder.message)
            }, clear: { Convert.freeField($0.pointee.message) })
        out.pointee = Registry.retain(box, .reminderList)
    }
}

@c @implementation
public func hc_reminder_list_count(_ out_count: UnsafeMutablePointer<Int64>?, _ list: OpaquePointer?) -> Int32 {
    ListHandle.count(out_count, list, .reminderList, "reminder list: NULL, freed, or not from hc_reminder_list_open", as: hc_reminder.self)
}

@c @implementation
public func hc_reminder_list_get(_ out: UnsafeMutablePointer<UnsafePointer<hc_reminder>?>?, _ list: OpaquePointer?, _ index: Int64) -> Int32 {
    ListHandle.get(out, list, index, .reminderList, "reminder list: NULL, freed, or not from hc_reminder_list_open")
}

@c @implementation
public func hc_reminder_list_free(_ list: OpaquePointer?) {
    ListHandle.free(list, .reminderList, as: hc_reminder.self)
}

@c @implementation
public func hc_reminder_fired(
    _ out_recorded: UnsafeMutablePointer<Int32>?, _ store: OpaquePointer?, _ rule_id: Int64, _ day: Int32,
    _ at_ms: Int64
) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        let recorded = try engine.reminderFired(ruleId: rule_id, day: day, atMs: at_ms)
        out_recorded?.pointee = recorded ? 1 : 0
    }
}

@c @implementation
public func hc_reminder_snooze(_ store: OpaquePointer?, _ rule_id: Int64, _ day: Int32, _ at_ms: Int64, _ until_ms: Int64) -> Int32 {
    withStore(store) { engine throws(HabitError) in
        try engine.snoozeReminder(ruleId: rule_id, day: day, atMs: at_ms, untilMs: until_ms)
    }
}
