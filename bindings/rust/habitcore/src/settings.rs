//! The store's settings: calendar, busy timeout, week start, routines, streak policies.

use crate::{check, owned_text, sys, Day, HabitId, OffDays, OpenDay, Result, Routine, Store};
use std::ffi::c_char;
use std::ptr;

/// When the morning, day and evening start, in minutes after the day start
/// (0 <= morning < day < evening < 1440).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoutineBounds {
    pub morning: i32,
    pub day: i32,
    pub evening: i32,
}

/// A streak policy: the store's (every field), or what a habit's streaks follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreakPolicy {
    /// Missed occurrences in a row a streak survives (0..31).
    pub miss_allowance: i32,
    pub open_day: OpenDay,
    /// The perfect-day streak's off days (the store's only).
    pub off_days: OffDays,
}

/// A habit's own streak policy fields; None follows the store's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HabitStreakPolicy {
    pub miss_allowance: Option<i32>,
    pub open_day: Option<OpenDay>,
}

impl StreakPolicy {
    fn from_raw(p: &sys::hc_streak_policy) -> StreakPolicy {
        StreakPolicy {
            miss_allowance: p.miss_allowance,
            open_day: OpenDay::from_raw(p.open_day),
            off_days: OffDays::from_raw(p.off_days),
        }
    }
    pub(crate) fn to_raw(self) -> Result<sys::hc_streak_policy> {
        let mut p = defaults!(hc_streak_policy_init, sys::hc_streak_policy);
        p.miss_allowance = self.miss_allowance;
        p.open_day = self.open_day.raw();
        p.off_days = self.off_days.raw();
        Ok(p)
    }
}

impl Store {
    /// The library's schema version of this store file.
    pub fn schema_version(&self) -> Result<i32> {
        let mut out = 0;
        check(unsafe { sys::hc_store_schema_version(&mut out, self.raw) })?;
        Ok(out)
    }

    /// How long calls wait for another connection's lock before `ErrorKind::Busy` (0..=600000 ms).
    pub fn set_busy_timeout(&self, ms: i32) -> Result<()> {
        check(unsafe { sys::hc_store_set_busy_timeout(self.raw, ms) })
    }

    /// The home time zone's name ("UTC" by default).
    pub fn timezone(&self) -> Result<String> {
        let mut out: *mut c_char = ptr::null_mut();
        check(unsafe { sys::hc_store_timezone(&mut out, self.raw) })?;
        Ok(owned_text(out))
    }

    /// Sets the day start, in minutes after local midnight (0..1439): with 180, 01:30
    /// counts for the day before.
    pub fn set_day_start(&self, minutes: i32) -> Result<()> {
        check(unsafe { sys::hc_store_set_day_start(self.raw, minutes) })
    }

    /// The day start in minutes after local midnight.
    pub fn day_start(&self) -> Result<i32> {
        let mut out = 0;
        check(unsafe { sys::hc_store_day_start(&mut out, self.raw) })?;
        Ok(out)
    }

    /// The local day the UTC instant `utc_ms` falls on (home zone, day start applied).
    pub fn local_day(&self, utc_ms: i64) -> Result<Day> {
        let mut out = 0;
        check(unsafe { sys::hc_store_local_day(&mut out, self.raw, utc_ms) })?;
        Ok(Day(out))
    }

    /// Sets the first day of the week for weekly quotas: 0 = Sunday ... 6 = Saturday.
    pub fn set_week_start(&self, weekday: i32) -> Result<()> {
        check(unsafe { sys::hc_store_set_week_start(self.raw, weekday) })
    }

    /// The first day of the week (1, Monday, unless set).
    pub fn week_start(&self) -> Result<i32> {
        let mut out = 0;
        check(unsafe { sys::hc_store_week_start(&mut out, self.raw) })?;
        Ok(out)
    }

    /// Sets when the morning, day and evening start.
    pub fn set_routine_bounds(&self, bounds: RoutineBounds) -> Result<()> {
        check(unsafe { sys::hc_store_set_routine_bounds(self.raw, bounds.morning, bounds.day, bounds.evening) })
    }

    /// When the morning, day and evening start (defaults 300, 660, 1080).
    pub fn routine_bounds(&self) -> Result<RoutineBounds> {
        let (mut morning, mut day, mut evening) = (0, 0, 0);
        check(unsafe { sys::hc_store_routine_bounds(&mut morning, &mut day, &mut evening, self.raw) })?;
        Ok(RoutineBounds { morning, day, evening })
    }

    /// The routine at the UTC instant `at_ms` (None: now) in the home zone.
    pub fn routine_at(&self, at_ms: Option<i64>) -> Result<Routine> {
        let mut out = 0;
        check(unsafe { sys::hc_store_routine_at(&mut out, self.raw, at_ms.unwrap_or(0)) })?;
        Ok(Routine::from_raw(out))
    }

    /// Sets the store-wide streak policy.
    pub fn set_streak_policy(&self, policy: StreakPolicy) -> Result<()> {
        let p = policy.to_raw()?;
        check(unsafe { sys::hc_store_set_streak_policy(self.raw, &p) })
    }

    /// The store-wide streak policy.
    pub fn streak_policy(&self) -> Result<StreakPolicy> {
        let mut p = defaults!(hc_streak_policy_init, sys::hc_streak_policy);
        check(unsafe { sys::hc_store_streak_policy(&mut p, self.raw) })?;
        Ok(StreakPolicy::from_raw(&p))
    }

    /// Sets a habit's own miss allowance and open day (None: the store's). It is how
    /// the whole history is read, past days too.
    pub fn set_habit_streak_policy(&self, habit: HabitId, policy: HabitStreakPolicy) -> Result<()> {
        let mut p = defaults!(hc_streak_policy_init, sys::hc_streak_policy);
        p.miss_allowance = policy.miss_allowance.unwrap_or(sys::HC_POLICY_INHERIT);
        p.open_day = policy.open_day.map_or(0, |o| o.raw());
        p.off_days = 0;
        check(unsafe { sys::hc_habit_set_streak_policy(self.raw, habit.0, &p) })
    }

    /// The policy a habit's streaks follow: its own fields over the store's.
    pub fn habit_streak_policy(&self, habit: HabitId) -> Result<StreakPolicy> {
        let p = self.raw_habit_streak_policy(habit, 0)?;
        Ok(StreakPolicy::from_raw(&p))
    }

    /// A habit's own fields only (None where it follows the store's).
    pub fn habit_own_streak_policy(&self, habit: HabitId) -> Result<HabitStreakPolicy> {
        let p = self.raw_habit_streak_policy(habit, sys::HC_POLICY_OWN)?;
        Ok(HabitStreakPolicy {
            miss_allowance: (p.miss_allowance != sys::HC_POLICY_INHERIT).then_some(p.miss_allowance),
            open_day: (p.open_day != 0).then(|| OpenDay::from_raw(p.open_day)),
        })
    }

    fn raw_habit_streak_policy(&self, habit: HabitId, flags: u32) -> Result<sys::hc_streak_policy> {
        let mut p = defaults!(hc_streak_policy_init, sys::hc_streak_policy);
        check(unsafe { sys::hc_habit_streak_policy(&mut p, self.raw, habit.0, flags) })?;
        Ok(p)
    }
}
