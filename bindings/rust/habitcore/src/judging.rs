//! How days are judged: vacations, store-wide streaks, due lists, group completion,
//! measurements, and the pure calls that need no store.

use crate::{buffer, c_path, c_text, check, day_or_none, opt_text, sys, Completion, Day, DayState, DueState, HabitId, HabitOptions,
            Result, Routine, Store, StreakPolicy, Streaks, VacationId};
use std::path::Path;

/// A vacation: days excused for one habit, or every habit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vacation {
    pub id: VacationId,
    /// None: every habit.
    pub habit_id: Option<HabitId>,
    pub first: Day,
    pub last: Day,
}

/// One habit due on a day.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DueItem {
    pub habit_id: HabitId,
    pub routine: Routine,
    pub state: DueState,
    /// The day's value so far.
    pub value: f64,
    pub target: f64,
}

/// A measurement habit's readings over a window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeasurementStats {
    /// Days with a reading.
    pub count: i32,
    /// The latest reading and its day (None when there is none).
    pub latest: Option<(Day, f64)>,
    /// The best by the habit's direction.
    pub best: Option<(Day, f64)>,
    /// Latest minus the window's first reading; 0 with fewer than two.
    pub change: f64,
}

/// The store-wide streaks: perfect days and active days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreStreaks {
    pub perfect: Streaks,
    pub active: Streaks,
}

/// A habit's rules for the pure calls ([`compute_streaks`], [`compute_strength`]): what
/// [`HabitOptions`] says of its kind, target, direction, schedule and start (its other
/// fields are not read), and the week start; unset fields keep the library's defaults
/// (`hc_habit_rules_init`: a daily checkmark from day 0, weeks from Monday).
#[derive(Debug, Clone, Default)]
pub struct HabitRules {
    habit: HabitOptions,
    week_start: Option<i32>,
}

impl HabitRules {
    /// The rules of a habit as `habit` describes it.
    pub fn new(habit: HabitOptions) -> Self {
        HabitRules { habit, week_start: None }
    }
    /// 0 = Sunday ... 6 = Saturday.
    pub fn week_start(mut self, weekday: i32) -> Self {
        self.week_start = Some(weekday);
        self
    }

    fn with_raw<T>(&self, with: impl FnOnce(&sys::hc_habit_rules) -> Result<T>) -> Result<T> {
        let mut r = defaults!(hc_habit_rules_init, sys::hc_habit_rules);
        let habit = &self.habit;
        let schedule = opt_text(habit.schedule.as_deref(), "schedule")?;
        if let Some(schedule) = &schedule {
            r.schedule = schedule.as_ptr();
        }
        if let Some(kind) = habit.kind {
            r.kind = kind.raw();
        }
        if let Some(target) = habit.target {
            r.target = target;
        }
        if let Some(direction) = habit.direction {
            r.direction = direction.raw();
        }
        if let Some(start) = habit.start {
            r.start_day = start.0;
        }
        if let Some(week_start) = self.week_start {
            r.week_start = week_start;
        }
        with(&r)
    }
}

/// Streaks computed without a store, by the same code as [`Store::streaks`]: `days`
/// holds the day states (any order; days without entries may be left out), under a
/// streak policy (None: the defaults; its off days are not read).
///
/// ```
/// use habitcore::{compute_streaks, Day, DayState, HabitOptions, HabitRules};
/// let done = |day| DayState { day: Day(day), done: true, skipped: false, value: 1.0, entry_count: 1 };
/// let days = [done(0), done(1), done(3), done(4), done(5)];
/// let rules = HabitRules::new(HabitOptions::new("Read").start(Day(0)));
/// let streaks = compute_streaks(&rules, None, &days, Day(5)).unwrap();
/// assert_eq!((streaks.current.length, streaks.longest.length), (3, 3));
/// assert_eq!(streaks.runs.iter().map(|r| r.length).collect::<Vec<_>>(), [3, 2]);
/// ```
pub fn compute_streaks(rules: &HabitRules, policy: Option<StreakPolicy>, days: &[DayState], as_of: Day) -> Result<Streaks> {
    let days: Vec<sys::hc_day_state> = days.iter().map(sys::hc_day_state::from).collect();
    let policy = policy.map(StreakPolicy::to_raw).transpose()?;
    rules.with_raw(|r| {
        let mut result = defaults!(hc_streak_result_init, sys::hc_streak_result);
        let runs = buffer(|out, capacity, total| unsafe {
            match &policy {
                None => sys::hc_streak_compute(&mut result, out, capacity, total, r, days.as_ptr(), days.len() as i64, as_of.0),
                Some(p) => sys::hc_streak_compute_with_policy(&mut result, out, capacity, total, r, p, days.as_ptr(),
                                                              days.len() as i64, as_of.0),
            }
        })?;
        Ok(Streaks::from_raw(&result, runs))
    })
}

/// Loop-compatible strength at the end of each day from `first` to `last`, without a
/// store (the same as [`Store::strength`]).
pub fn compute_strength(rules: &HabitRules, days: &[DayState], first: Day, last: Day) -> Result<Vec<f64>> {
    let days: Vec<sys::hc_day_state> = days.iter().map(sys::hc_day_state::from).collect();
    rules.with_raw(|r| {
        buffer(|out, capacity, total| unsafe {
            sys::hc_strength_compute(out, capacity, total, r, days.as_ptr(), days.len() as i64, first.0, last.0)
        })
    })
}

impl Store {
    /// Removes a vacation.
    pub fn remove_vacation(&self, id: VacationId) -> Result<()> {
        check(unsafe { sys::hc_vacation_remove(self.raw, id.0) })
    }

    /// The vacations, by start day.
    pub fn vacations(&self) -> Result<Vec<Vacation>> {
        let raw = buffer(|out, capacity, total| unsafe { sys::hc_vacation_list(out, capacity, total, self.raw) })?;
        Ok(raw
            .into_iter()
            .map(|v: sys::hc_vacation| Vacation {
                id: VacationId(v.id),
                habit_id: (v.habit_id != 0).then_some(HabitId(v.habit_id)),
                first: Day(v.from_day),
                last: Day(v.to_day),
            })
            .collect())
    }

    /// The store-wide streaks as of `as_of` (None: today): perfect days and active days
    /// (their `runs` are empty: the header gives none).
    pub fn store_streaks(&self, as_of: Option<Day>) -> Result<StoreStreaks> {
        let mut perfect = defaults!(hc_streak_result_init, sys::hc_streak_result);
        let mut active = defaults!(hc_streak_result_init, sys::hc_streak_result);
        check(unsafe { sys::hc_store_streaks(&mut perfect, &mut active, self.raw, day_or_none(as_of)) })?;
        Ok(StoreStreaks { perfect: Streaks::from_raw(&perfect, Vec::new()), active: Streaks::from_raw(&active, Vec::new()) })
    }

    /// What is due on `day` (None: today), by routine, then by name.
    pub fn due(&self, day: Option<Day>) -> Result<Vec<DueItem>> {
        let raw = buffer(|out, capacity, total| unsafe { sys::hc_store_due(out, capacity, total, self.raw, day_or_none(day)) })?;
        Ok(raw
            .into_iter()
            .map(|d: sys::hc_due_item| DueItem {
                habit_id: HabitId(d.habit_id),
                routine: Routine::from_raw(d.routine),
                state: DueState::from_raw(d.state),
                value: d.value,
                target: d.target,
            })
            .collect())
    }

    /// Writes the today snapshot JSON (docs/FORMATS.md: today's due list, score, streaks
    /// and grid, the routine, the next changes up to the next day start, the revision) for
    /// `at_ms` (None: now) to `path`, atomically, for a widget that cannot open SQLite.
    /// Works on a store opened read-only.
    pub fn write_today_snapshot(&self, path: impl AsRef<Path>, at_ms: Option<i64>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        check(unsafe { sys::hc_today_snapshot_write(self.raw, path.as_ptr(), at_ms.unwrap_or(0)) })
    }

    /// A group's completion on `as_of` (None: today) and over `first..=last`, counting
    /// due habit-days.
    pub fn group_completion(&self, group: &str, as_of: Option<Day>, first: Day, last: Day) -> Result<(Completion, Completion)> {
        let group = c_text(group, "group")?;
        let mut day = defaults!(hc_completion_init, sys::hc_completion);
        let mut window = defaults!(hc_completion_init, sys::hc_completion);
        check(unsafe {
            sys::hc_group_completion(&mut day, &mut window, self.raw, group.as_ptr(), day_or_none(as_of), first.0, last.0)
        })?;
        Ok((Completion::from(day), Completion::from(window)))
    }

    /// A measurement habit's readings from `first` to `last`.
    pub fn measurements(&self, habit: HabitId, first: Day, last: Day) -> Result<MeasurementStats> {
        let mut m = defaults!(hc_measurement_stats_init, sys::hc_measurement_stats);
        check(unsafe { sys::hc_habit_measurements(&mut m, self.raw, habit.0, first.0, last.0) })?;
        let reading = |day: i32, value: f64| (day != sys::HC_DAY_NONE).then_some((Day(day), value));
        Ok(MeasurementStats { count: m.count, latest: reading(m.latest_day, m.latest), best: reading(m.best_day, m.best), change: m.change })
    }
}
