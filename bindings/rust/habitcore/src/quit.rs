//! Quit habits: relapses (entries of kind [`EntryKind::Relapse`]) and where a quit habit stands.

use crate::{check, sys, Day, EntryId, EntryKind, HabitId, NewEntry, QuitPeriod, Result, Store};

/// Where a quit habit stands (`hc_quit_status`): days since the last relapse, clean runs,
/// the allowance of the period holding the day, and what the clean days saved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuitStatus {
    /// The day answered for (the instant's day in the store's zone and day start) and the instant.
    pub as_of: Day,
    pub at_ms: i64,
    /// The last standing relapse on or before `as_of`: its entry, instant and day.
    pub last_relapse: Option<(EntryId, i64, Day)>,
    /// Calendar days from the last relapse's day (none: the start day).
    pub days_since: i32,
    /// Milliseconds from the last relapse (none: the start day's first instant): a live clock.
    pub since_ms: i64,
    /// Clean days in a row through `as_of`.
    pub current_clean_days: i32,
    /// The longest clean run: its length, first and last day (None when 0).
    pub best_clean_days: i32,
    pub best_clean: Option<(Day, Day)>,
    /// Clean days from the first day to `as_of`.
    pub clean_days: i32,
    /// The allowance's period holding `as_of`, its days, relapses, and what it allows.
    pub period: QuitPeriod,
    pub period_days: (Day, Day),
    pub period_relapses: i32,
    pub allowance: i32,
    pub over_allowance: bool,
    /// Periods in a row within their allowance.
    pub periods_within: i32,
    /// Relapses in the week and in the calendar month holding `as_of`.
    pub week_relapses: i32,
    pub month_relapses: i32,
    /// Standing relapses on or before `as_of`, and their amounts summed.
    pub relapses: i64,
    pub relapse_amount: f64,
    /// What the clean days saved, in the habit's unit.
    pub saved: f64,
}

impl From<sys::hc_quit_status> for QuitStatus {
    fn from(s: sys::hc_quit_status) -> Self {
        QuitStatus {
            as_of: Day(s.as_of),
            at_ms: s.at_ms,
            last_relapse: (s.last_relapse_id != 0).then_some((EntryId(s.last_relapse_id), s.last_relapse_ms, Day(s.last_relapse_day))),
            days_since: s.days_since,
            since_ms: s.since_ms,
            current_clean_days: s.current_clean_days,
            best_clean_days: s.best_clean_days,
            best_clean: (s.best_clean_days > 0).then_some((Day(s.best_clean_first), Day(s.best_clean_last))),
            clean_days: s.clean_days,
            period: QuitPeriod::from_raw(s.period),
            period_days: (Day(s.period_first), Day(s.period_last)),
            period_relapses: s.period_relapses,
            allowance: s.allowance,
            over_allowance: s.over_allowance != 0,
            periods_within: s.periods_within,
            week_relapses: s.week_relapses,
            month_relapses: s.month_relapses,
            relapses: s.relapses,
            relapse_amount: s.relapse_amount,
            saved: s.saved,
        }
    }
}

impl Store {
    /// Logs a relapse of a quit habit at `at_ms` (None: now) with an optional note and
    /// amount; returns its entry id. Undo it with [`Store::undo`] like any entry.
    pub fn relapse(&self, habit: HabitId, note: Option<&str>, amount: f64, at_ms: Option<i64>) -> Result<EntryId> {
        let mut entry = NewEntry::new(habit, EntryKind::Relapse).value(amount);
        if let Some(note) = note {
            entry = entry.note(note);
        }
        if let Some(at_ms) = at_ms {
            entry = entry.at_ms(at_ms);
        }
        self.append_entry(&entry)
    }

    /// Where a quit habit stands at `at_ms` (None: now).
    pub fn quit_status(&self, habit: HabitId, at_ms: Option<i64>) -> Result<QuitStatus> {
        let mut s = defaults!(hc_quit_status_init, sys::hc_quit_status);
        check(unsafe { sys::hc_quit_status_get(&mut s, self.raw, habit.0, at_ms.unwrap_or(0)) })?;
        Ok(QuitStatus::from(s))
    }
}
