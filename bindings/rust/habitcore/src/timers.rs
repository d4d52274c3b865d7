//! Timers on duration habits: events folded by instant; a stopped timer adds its seconds
//! to the day it started, once.

use crate::{check, sys, Day, HabitId, List, ListKind, Result, Store, TimerAction, TimerId, TimerState};

/// Where a timer stands at an instant (`hc_timer_status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimerStatus {
    pub id: TimerId,
    pub habit_id: HabitId,
    pub state: TimerState,
    /// The instant answered for.
    pub at_ms: i64,
    pub started_at_ms: i64,
    /// Running milliseconds: through `at_ms` while it runs or is paused, through its end once ended.
    pub elapsed_ms: i64,
    /// When it stopped, completed itself or was discarded; None while it runs or is paused.
    pub ended_at_ms: Option<i64>,
    /// What it adds to its day: whole seconds once stopped, else 0.
    pub seconds: i64,
    /// The day its time counts to (its start's).
    pub day: Day,
    /// Started to stop itself at the day's target, and whether it did.
    pub auto_complete: bool,
    pub completed: bool,
}

impl From<&sys::hc_timer_status> for TimerStatus {
    fn from(s: &sys::hc_timer_status) -> Self {
        TimerStatus {
            id: TimerId(s.id),
            habit_id: HabitId(s.habit_id),
            state: TimerState::from_raw(s.state),
            at_ms: s.at_ms,
            started_at_ms: s.started_at_ms,
            elapsed_ms: s.elapsed_ms,
            ended_at_ms: (s.ended_at_ms != 0).then_some(s.ended_at_ms),
            seconds: s.seconds,
            day: Day(s.day),
            auto_complete: s.flags & sys::HC_TIMER_AUTO_COMPLETE != 0,
            completed: s.completed != 0,
        }
    }
}

/// Timers running or paused.
#[derive(Debug)]
pub struct Timers;
impl ListKind for Timers {
    type Item = TimerStatus;
    type Raw = sys::hc_timer_list;
    type Native = sys::hc_timer_status;
    unsafe fn count(list: *const Self::Raw, out: *mut i64) -> i32 {
        sys::hc_timer_list_count(out, list)
    }
    unsafe fn get(list: *const Self::Raw, index: i64, out: *mut *const Self::Native) -> i32 {
        sys::hc_timer_list_get(out, list, index)
    }
    unsafe fn free(list: *mut Self::Raw) {
        sys::hc_timer_list_free(list)
    }
    unsafe fn convert(c: &Self::Native) -> TimerStatus {
        TimerStatus::from(c)
    }
}

impl Store {
    /// Starts a timer on a duration habit at `at_ms` (None: now); with `auto_complete` it
    /// stops itself when its running time reaches the day's target.
    pub fn start_timer(&self, habit: HabitId, auto_complete: bool, at_ms: Option<i64>) -> Result<TimerId> {
        let mut id = 0i64;
        let flags = if auto_complete { sys::HC_TIMER_AUTO_COMPLETE } else { 0 };
        check(unsafe { sys::hc_timer_start(&mut id, self.raw, habit.0, flags, at_ms.unwrap_or(0)) })?;
        Ok(TimerId(id))
    }

    /// Pauses, resumes, stops or discards a timer at `at_ms` (None: now).
    pub fn act_on_timer(&self, timer: TimerId, action: TimerAction, at_ms: Option<i64>) -> Result<()> {
        check(unsafe { sys::hc_timer_act(self.raw, timer.0, action.raw(), at_ms.unwrap_or(0)) })
    }

    /// Where a timer stands at `at_ms` (None: now).
    pub fn timer_status(&self, timer: TimerId, at_ms: Option<i64>) -> Result<TimerStatus> {
        let mut s = defaults!(hc_timer_status_init, sys::hc_timer_status);
        check(unsafe { sys::hc_timer_status_get(&mut s, self.raw, timer.0, at_ms.unwrap_or(0)) })?;
        Ok(TimerStatus::from(&s))
    }

    /// The timers running or paused at `at_ms` (None: now), oldest first.
    pub fn running_timers(&self, at_ms: Option<i64>) -> Result<List<'_, Timers>> {
        List::open(self, |out| unsafe { sys::hc_timer_list_open(out, self.raw, at_ms.unwrap_or(0)) })
    }
}
