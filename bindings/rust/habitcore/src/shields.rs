//! Shields: when a person's apps are blocked, and what lifts them.

use crate::{buffer, c_path, char_array, check, cstr, day_or_none, opt_ptr, opt_text, sys, Day, EmergencyUnlockId,
            HabitId, List, ListKind, Result, ShieldBudget, ShieldCause, ShieldLift, ShieldReason, ShieldRuleId, Store};
use std::path::Path;

/// What a shield rule says (a version of it). [`ShieldRule::new`] gives the library's defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShieldRule {
    pub name: String,
    /// Opaque to the engine: the app's set of blocked apps.
    pub key: Option<String>,
    /// Schedule text selecting the dates (None: daily).
    pub days: Option<String>,
    /// 0..1439; None: the store's day start.
    pub start_minute: Option<i32>,
    /// 0..1439 (the cutoff); None: the next local midnight.
    pub end_minute: Option<i32>,
    pub lift: ShieldLift,
    pub session_lifts: bool,
    pub cutoff_lifts: bool,
    pub excused_lifts: bool,
    pub fail_closed: bool,
    pub budget: ShieldBudget,
    /// Emergency unlocks per budget period.
    pub budget_count: i32,
    /// The habits whose completion lifts it (1..16).
    pub habits: Vec<HabitId>,
}

/// A rule as listed: its id, the first day of the version in force, and what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedShieldRule {
    pub id: ShieldRuleId,
    pub from: Day,
    pub rule: ShieldRule,
}

/// One rule's state at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShieldStatus {
    pub rule_id: ShieldRuleId,
    pub shielded: bool,
    pub reason: ShieldReason,
    pub fail_closed: bool,
    pub window_start_ms: i64,
    pub window_end_ms: i64,
    pub since_ms: i64,
    pub until_ms: i64,
    /// The next time-driven change (None: none within 62 days), and its cause.
    pub next_change: Option<(i64, ShieldCause)>,
    /// HC_SHIELD_EARLIER_* bits: what could end the state sooner.
    pub earlier: u32,
    /// Emergency unlocks left this period (None: unlimited).
    pub emergency_left: Option<i32>,
    /// Habits not done for the window's habit day.
    pub outstanding: Vec<HabitId>,
}

/// One change of a rule's shielded state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShieldTransition {
    pub rule_id: ShieldRuleId,
    pub shielded: bool,
    pub at_ms: i64,
    pub local_day: Day,
    pub local_minute: i32,
    pub offset_seconds: i32,
    /// HC_SHIELD_MOVED_* bits.
    pub moved: u32,
    pub from_reason: ShieldReason,
    pub to_reason: ShieldReason,
    pub cause: ShieldCause,
    pub zone: String,
}

impl ShieldRule {
    /// A rule named `name` lifted by these habits, every other field the library's default.
    pub fn new(name: &str, habits: &[HabitId]) -> Result<ShieldRule> {
        let r = defaults!(hc_shield_rule_init, sys::hc_shield_rule);
        let mut rule = unsafe { shield_rule_from(&r) };
        rule.name = name.into();
        rule.habits = habits.to_vec();
        Ok(rule)
    }

    /// Calls `with` on the C struct, its strings and habits alive for the call.
    fn with_raw<T>(&self, with: impl FnOnce(&sys::hc_shield_rule) -> Result<T>) -> Result<T> {
        let mut r = defaults!(hc_shield_rule_init, sys::hc_shield_rule);
        let name = opt_text(Some(&self.name), "name")?;
        let key = opt_text(self.key.as_deref(), "key")?;
        let days = opt_text(self.days.as_deref(), "days")?;
        let habits: Vec<i64> = self.habits.iter().map(|h| h.0).collect();
        r.name = opt_ptr(&name);
        r.key = opt_ptr(&key);
        r.days = opt_ptr(&days);
        r.start_minute = self.start_minute.unwrap_or(sys::HC_SHIELD_DAY_START);
        r.end_minute = self.end_minute.unwrap_or(sys::HC_SHIELD_MIDNIGHT);
        r.lift = self.lift.raw();
        r.session_lifts = self.session_lifts as i32;
        r.cutoff_lifts = self.cutoff_lifts as i32;
        r.excused_lifts = self.excused_lifts as i32;
        r.fail_closed = self.fail_closed as i32;
        r.budget_period = self.budget.raw();
        r.budget_count = self.budget_count;
        r.habit_count = habits.len() as i64;
        r.habit_ids = if habits.is_empty() { std::ptr::null() } else { habits.as_ptr() };
        with(&r)
    }
}

unsafe fn shield_rule_from(r: &sys::hc_shield_rule) -> ShieldRule {
    let habits = if r.habit_ids.is_null() || r.habit_count <= 0 {
        Vec::new()
    } else {
        std::slice::from_raw_parts(r.habit_ids, r.habit_count as usize).iter().map(|&h| HabitId(h)).collect()
    };
    ShieldRule {
        name: cstr(r.name).unwrap_or_default(),
        key: cstr(r.key),
        days: cstr(r.days),
        start_minute: (r.start_minute != sys::HC_SHIELD_DAY_START).then_some(r.start_minute),
        end_minute: (r.end_minute != sys::HC_SHIELD_MIDNIGHT).then_some(r.end_minute),
        lift: ShieldLift::from_raw(r.lift),
        session_lifts: r.session_lifts != 0,
        cutoff_lifts: r.cutoff_lifts != 0,
        excused_lifts: r.excused_lifts != 0,
        fail_closed: r.fail_closed != 0,
        budget: ShieldBudget::from_raw(r.budget_period),
        budget_count: r.budget_count,
        habits,
    }
}

/// Shield rules.
#[derive(Debug)]
pub struct ShieldRules;
impl ListKind for ShieldRules {
    type Item = ListedShieldRule;
    type Raw = sys::hc_shield_rule_list;
    type Native = sys::hc_shield_rule;
    unsafe fn count(list: *const Self::Raw, out: *mut i64) -> i32 {
        sys::hc_shield_rule_list_count(out, list)
    }
    unsafe fn get(list: *const Self::Raw, index: i64, out: *mut *const Self::Native) -> i32 {
        sys::hc_shield_rule_list_get(out, list, index)
    }
    unsafe fn free(list: *mut Self::Raw) {
        sys::hc_shield_rule_list_free(list)
    }
    unsafe fn convert(r: &Self::Native) -> ListedShieldRule {
        ListedShieldRule { id: ShieldRuleId(r.id), from: Day(r.from_day), rule: shield_rule_from(r) }
    }
}

impl Store {
    /// Adds a shield rule in effect from `from` on (None: today).
    pub fn add_shield_rule(&self, rule: &ShieldRule, from: Option<Day>) -> Result<ShieldRuleId> {
        rule.with_raw(|r| {
            let mut id = 0;
            check(unsafe { sys::hc_shield_rule_add(&mut id, self.raw, r, day_or_none(from)) })?;
            Ok(ShieldRuleId(id))
        })
    }

    /// Changes a rule from `from` on (today or later; None: today).
    pub fn update_shield_rule(&self, id: ShieldRuleId, rule: &ShieldRule, from: Option<Day>) -> Result<()> {
        rule.with_raw(|r| check(unsafe { sys::hc_shield_rule_update(self.raw, id.0, r, day_or_none(from)) }))
    }

    /// Removes a rule from `from` on (today or later; None: today).
    pub fn remove_shield_rule(&self, id: ShieldRuleId, from: Option<Day>) -> Result<()> {
        check(unsafe { sys::hc_shield_rule_remove(self.raw, id.0, day_or_none(from)) })
    }

    /// The rules in force on `day` (None: today), by id.
    pub fn shield_rules(&self, day: Option<Day>) -> Result<List<'_, ShieldRules>> {
        List::open(self, |out| unsafe { sys::hc_shield_rule_list_open(out, self.raw, day_or_none(day)) })
    }

    /// Every rule's state at `at_ms` (None: now), by rule id, and the shield revision
    /// read in the same snapshot. Works on a read-only store.
    pub fn shield_state(&self, at_ms: Option<i64>) -> Result<(Vec<ShieldStatus>, i64)> {
        let mut revision = 0;
        let raw = buffer(|out, capacity, total| unsafe {
            sys::hc_shield_state(out, capacity, total, &mut revision, self.raw, at_ms.unwrap_or(0))
        })?;
        let states = raw
            .into_iter()
            .map(|s: sys::hc_shield_status| ShieldStatus {
                rule_id: ShieldRuleId(s.rule_id),
                shielded: s.shielded != 0,
                reason: ShieldReason::from_raw(s.reason),
                fail_closed: s.fail_closed != 0,
                window_start_ms: s.window_start_ms,
                window_end_ms: s.window_end_ms,
                since_ms: s.since_ms,
                until_ms: s.until_ms,
                next_change: (s.next_change_ms != 0).then(|| (s.next_change_ms, ShieldCause::from_raw(s.next_cause))),
                earlier: s.earlier,
                emergency_left: (s.emergency_left >= 0).then_some(s.emergency_left),
                outstanding: s.outstanding[..(s.outstanding_count.clamp(0, sys::HC_SHIELD_MAX_HABITS) as usize)]
                    .iter()
                    .map(|&h| HabitId(h))
                    .collect(),
            })
            .collect();
        Ok((states, revision))
    }

    /// Every instant in `from_ms..to_ms` (at most 92 days) where a rule's state flips,
    /// by instant then rule, and the shield revision read with them.
    pub fn shield_transitions(&self, from_ms: i64, to_ms: i64) -> Result<(Vec<ShieldTransition>, i64)> {
        let mut revision = 0;
        let raw = buffer(|out, capacity, total| unsafe {
            sys::hc_shield_transitions(out, capacity, total, &mut revision, self.raw, from_ms, to_ms)
        })?;
        let transitions = raw
            .into_iter()
            .map(|t: sys::hc_shield_transition| ShieldTransition {
                rule_id: ShieldRuleId(t.rule_id),
                shielded: t.shielded != 0,
                at_ms: t.at_ms,
                local_day: Day(t.local_day),
                local_minute: t.local_minute,
                offset_seconds: t.offset_seconds,
                moved: t.moved,
                from_reason: ShieldReason::from_raw(t.from_reason),
                to_reason: ShieldReason::from_raw(t.to_reason),
                cause: ShieldCause::from_raw(t.cause),
                zone: char_array(&t.zone),
            })
            .collect();
        Ok((transitions, revision))
    }

    /// The shield revision: it changes with every write that can change a shield, from any process.
    pub fn shield_revision(&self) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::hc_shield_revision(&mut out, self.raw) })?;
        Ok(out)
    }

    /// Records an emergency unlock of a rule now for `minutes` (1..1440), within its
    /// budget (`ErrorKind::Insufficient` past it, nothing recorded).
    pub fn emergency_unlock(&self, rule: ShieldRuleId, minutes: i32, reason: Option<&str>) -> Result<EmergencyUnlockId> {
        let reason = opt_text(reason, "reason")?;
        let mut id = 0;
        check(unsafe { sys::hc_shield_emergency_unlock(&mut id, self.raw, rule.0, minutes, opt_ptr(&reason)) })?;
        Ok(EmergencyUnlockId(id))
    }

    /// Writes the shield snapshot JSON (state at `at_ms`, None: now; the next 24 hours'
    /// transitions; the revision) to `path`, atomically, for an extension that cannot open SQLite.
    pub fn write_shield_snapshot(&self, path: impl AsRef<Path>, at_ms: Option<i64>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        check(unsafe { sys::hc_shield_snapshot_write(self.raw, path.as_ptr(), at_ms.unwrap_or(0)) })
    }
}

