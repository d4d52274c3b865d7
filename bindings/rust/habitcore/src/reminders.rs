//! Reminders: rules, quiet hours, instants, deliveries and snoozes.

use crate::{check, day_or_none, habit_or_zero, opt_ptr, opt_text, sys, Day, HabitId, List, Quiet, Reminder,
            ReminderRuleId, ReminderRules, Reminders, Result, Store};

/// What a reminder rule says: a local time, its weekdays, quiet hours' effect, a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderSpec {
    /// Local time of day, 0..1439.
    pub minute: i32,
    /// Bits, 1 << 0 = Sunday ... 1 << 6 = Saturday; 0: every day the habit is due.
    pub weekdays: i32,
    pub quiet: Quiet,
    pub message: Option<String>,
}

impl ReminderSpec {
    /// At `minute` on every due day, deferred by quiet hours, no message.
    pub fn at(minute: i32) -> Self {
        ReminderSpec { minute, weekdays: 0, quiet: Quiet::Defer, message: None }
    }
}

impl Store {
    /// Adds a reminder at local `minute` (0..1439) for a habit; returns the rule's id.
    pub fn add_reminder(&self, habit_id: HabitId, minute: i32, message: Option<&str>) -> Result<ReminderRuleId> {
        self.add_reminder_rule(habit_id, &ReminderSpec { message: message.map(String::from), ..ReminderSpec::at(minute) })
    }

    /// Adds a reminder rule to a habit; it applies from today on and, as a first
    /// version, to the days before too.
    pub fn add_reminder_rule(&self, habit_id: HabitId, spec: &ReminderSpec) -> Result<ReminderRuleId> {
        let mut r = defaults!(hc_reminder_rule_init, sys::hc_reminder_rule);
        let message = opt_text(spec.message.as_deref(), "message")?;
        r.habit_id = habit_id.0;
        r.minute = spec.minute;
        r.weekdays = spec.weekdays;
        r.quiet = spec.quiet.raw();
        r.message = opt_ptr(&message);
        let mut id = 0;
        check(unsafe { sys::hc_reminder_rule_add(&mut id, self.raw, &r) })?;
        Ok(ReminderRuleId(id))
    }

    /// Changes a rule from `from` on (None: today; never an earlier day).
    pub fn update_reminder_rule(&self, rule: ReminderRuleId, spec: &ReminderSpec, from: Option<Day>) -> Result<()> {
        let mut r = defaults!(hc_reminder_rule_init, sys::hc_reminder_rule);
        let message = opt_text(spec.message.as_deref(), "message")?;
        r.minute = spec.minute;
        r.weekdays = spec.weekdays;
        r.quiet = spec.quiet.raw();
        r.message = opt_ptr(&message);
        check(unsafe { sys::hc_reminder_rule_update(self.raw, rule.0, &r, day_or_none(from)) })
    }

    /// Removes a rule from `from` on (None: today); the days before keep it.
    pub fn remove_reminder_rule(&self, rule: ReminderRuleId, from: Option<Day>) -> Result<()> {
        check(unsafe { sys::hc_reminder_rule_remove(self.raw, rule.0, day_or_none(from)) })
    }

    /// The rules in force today for a habit (None: every habit).
    pub fn reminder_rules(&self, habit_id: Option<HabitId>) -> Result<List<'_, ReminderRules>> {
        self.reminder_rules_on(habit_id, None)
    }

    /// The rules in force on `day` (None: today) for a habit (None: every habit).
    pub fn reminder_rules_on(&self, habit_id: Option<HabitId>, day: Option<Day>) -> Result<List<'_, ReminderRules>> {
        List::open(self, |out| unsafe { sys::hc_reminder_rule_list_open(out, self.raw, habit_or_zero(habit_id), day_or_none(day)) })
    }

    /// Sets the quiet hours (local minutes `(start, end)`, wrapping past midnight when
    /// start > end; None: none) from `from` on (None: today).
    pub fn set_quiet_hours(&self, hours: Option<(i32, i32)>, from: Option<Day>) -> Result<()> {
        let (start, end) = hours.unwrap_or((-1, -1));
        check(unsafe { sys::hc_store_set_quiet_hours(self.raw, start, end, day_or_none(from)) })
    }

    /// The quiet hours in force on `day` (None: today).
    pub fn quiet_hours(&self, day: Option<Day>) -> Result<Option<(i32, i32)>> {
        let (mut start, mut end) = (0, 0);
        check(unsafe { sys::hc_store_quiet_hours(&mut start, &mut end, self.raw, day_or_none(day)) })?;
        Ok((start >= 0).then_some((start, end)))
    }

    /// Reminder instants with from_ms <= at_ms < to_ms (at most 92 days).
    pub fn reminders(&self, from_ms: i64, to_ms: i64) -> Result<List<'_, Reminders>> {
        List::open(self, |out| unsafe { sys::hc_reminder_list_open(out, self.raw, from_ms, to_ms, 0) })
    }

    /// The instants not yet delivered in the range, each recorded as delivered in the
    /// same write: with several processes asking at once, each goes to one of them.
    pub fn claim_reminders(&self, from_ms: i64, to_ms: i64) -> Result<List<'_, Reminders>> {
        List::open(self, |out| unsafe { sys::hc_reminder_list_open(out, self.raw, from_ms, to_ms, sys::HC_REMINDERS_CLAIM) })
    }

    /// Records a reminder delivered: true when this call recorded it.
    pub fn reminder_fired(&self, reminder: &Reminder) -> Result<bool> {
        let mut recorded = 0;
        check(unsafe { sys::hc_reminder_fired(&mut recorded, self.raw, reminder.rule_id.0, reminder.day.0, reminder.at_ms) })?;
        Ok(recorded == 1)
    }

    /// Snoozes a reminder to `until_ms` (after it, at most a day later): a new instant
    /// of it; the one snoozed counts as delivered.
    pub fn snooze(&self, reminder: &Reminder, until_ms: i64) -> Result<()> {
        check(unsafe { sys::hc_reminder_snooze(self.raw, reminder.rule_id.0, reminder.day.0, reminder.at_ms, until_ms) })
    }
}
