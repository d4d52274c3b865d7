//! The store revision and the change feed: which habits and days each write reached.

use crate::{check, nonzero, sys, Day, HabitId, List, ListKind, Result, Store};

c_enum!(/// HC_CHANGE_*: what a change of the store touched.
    ChangeArea { Habit = sys::HC_CHANGE_HABIT, Entry = sys::HC_CHANGE_ENTRY, Proof = sys::HC_CHANGE_PROOF,
                 Vacation = sys::HC_CHANGE_VACATION, Setting = sys::HC_CHANGE_SETTING, Zone = sys::HC_CHANGE_ZONE,
                 Credit = sys::HC_CHANGE_CREDIT, Award = sys::HC_CHANGE_AWARD, Shield = sys::HC_CHANGE_SHIELD });

/// What one write of the store changed (`hc_change`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The store revision it came in at: keep the last one handled as the cursor.
    pub revision: i64,
    pub area: ChangeArea,
    /// None when the change is not one habit's (a store setting, a vacation of every habit).
    pub habit_id: Option<HabitId>,
    /// The first day it reaches; None: no bound (a change that names no day).
    pub first_day: Option<Day>,
    /// The last day it reaches; None: no bound (a setting from a day on).
    pub last_day: Option<Day>,
}

/// Changes.
#[derive(Debug)]
pub struct Changes;
impl ListKind for Changes {
    type Item = Change;
    type Raw = sys::hc_change_list;
    type Native = sys::hc_change;
    unsafe fn count(list: *const Self::Raw, out: *mut i64) -> i32 {
        sys::hc_change_list_count(out, list)
    }
    unsafe fn get(list: *const Self::Raw, index: i64, out: *mut *const Self::Native) -> i32 {
        sys::hc_change_list_get(out, list, index)
    }
    unsafe fn free(list: *mut Self::Raw) {
        sys::hc_change_list_free(list)
    }
    unsafe fn convert(c: &Self::Native) -> Change {
        Change {
            revision: c.revision,
            area: ChangeArea::from_raw(c.area),
            habit_id: nonzero(c.habit_id, HabitId),
            first_day: (c.first_day > sys::HC_CHANGE_FIRST_DAY).then_some(Day(c.first_day)),
            last_day: (c.last_day < sys::HC_CHANGE_LAST_DAY).then_some(Day(c.last_day)),
        }
    }
}

impl Store {
    /// The store revision: it grows with every commit of a logged write by any process;
    /// reading it writes nothing.
    pub fn revision(&self) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::hc_store_revision(&mut out, self.raw) })?;
        Ok(out)
    }

    /// What the writes logged after revision `after` changed, oldest first, from at most
    /// `limit` (1..10000) writes; `merged`: one change per area and habit for each run of
    /// touching days.
    pub fn changes_after(&self, after: i64, limit: i64, merged: bool) -> Result<List<'_, Changes>> {
        let flags = if merged { sys::HC_CHANGES_MERGED } else { 0 };
        List::open(self, |out| unsafe { sys::hc_change_list_read(out, self.raw, after, limit, flags) })
    }
}
