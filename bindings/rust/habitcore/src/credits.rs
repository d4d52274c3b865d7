//! Credits: accounts, rules, steps, spends, adjustments, sessions.

use crate::{buffer, c_text, check, day_or_none, nonzero, opt_ptr, opt_text, sys, AccountId, CreditEntries,
            CreditEntryId, CreditRuleId, Day, Expiry, HabitId, List, Result, SessionId, Store};
use std::fmt;

/// What a step report earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepSync {
    pub day: Day,
    pub steps: i64,
    pub earned_now: i64,
    pub day_earned: i64,
}

/// A credit rule, in force from a day on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditRule {
    /// Steps that earn one minute (1..100000; default 100).
    StepsPerMinute(i64),
    /// Minutes one completed day of the habit earns (0..1440).
    HabitMinutes(HabitId, i64),
    /// When unspent minutes expire.
    Expiry(Expiry),
}

impl CreditRule {
    fn raw(self) -> (i32, i64, i64) {
        match self {
            CreditRule::StepsPerMinute(steps) => (sys::HC_RULE_STEPS_PER_MINUTE, 0, steps),
            CreditRule::HabitMinutes(habit, minutes) => (sys::HC_RULE_HABIT_MINUTES, habit.0, minutes),
            CreditRule::Expiry(expiry) => (sys::HC_RULE_EXPIRY, 0, expiry.raw() as i64),
        }
    }
}

/// A credit rule as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedCreditRule {
    pub id: CreditRuleId,
    pub rule: CreditRule,
    pub from: Day,
}

/// A day of an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CreditDay {
    pub day: Day,
    pub steps: i64,
    pub carried_in: i64,
    pub earned: i64,
    pub spent: i64,
    pub adjusted: i64,
    pub expired: i64,
    pub refunded: i64,
    /// At the end of the day; for today, now.
    pub available: i64,
}

/// Whether apps are unlocked at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnlockState {
    /// The session running then, if any.
    pub session: Option<SessionId>,
    pub start_ms: i64,
    /// When the last queued session ends (0: none).
    pub until_ms: i64,
}

/// One credit account of a store ([`Store::account`]); the `Store` shorthands
/// (`spend`, `balance`, ...) use the default account.
#[derive(Clone, Copy)]
pub struct Account<'s> {
    store: &'s Store,
    id: AccountId,
}

impl fmt::Debug for Account<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Account").field("id", &self.id).field("store", self.store).finish()
    }
}

impl Store {
    /// Creates a named credit account.
    pub fn create_account(&self, name: &str) -> Result<AccountId> {
        let name = c_text(name, "name")?;
        let mut id = 0;
        check(unsafe { sys::hc_credit_account_create(&mut id, self.raw, name.as_ptr()) })?;
        Ok(AccountId(id))
    }

    /// The account named `name` (case ignored).
    pub fn find_account(&self, name: &str) -> Result<AccountId> {
        let name = c_text(name, "name")?;
        let mut id = 0;
        check(unsafe { sys::hc_credit_account_find(&mut id, self.raw, name.as_ptr()) })?;
        Ok(AccountId(id))
    }

    /// The calls on one account.
    pub fn account(&self, id: AccountId) -> Account<'_> {
        Account { store: self, id }
    }

    /// Ends unlock session `session` at `at_ms` (None: now); returns the minutes refunded.
    pub fn end_session(&self, session: SessionId, at_ms: Option<i64>) -> Result<i64> {
        let mut refund = 0;
        check(unsafe { sys::hc_credit_session_end(&mut refund, self.raw, session.0, at_ms.unwrap_or(0)) })?;
        Ok(refund)
    }

    /// The default account's entries from `first` to `last`, in append order.
    pub fn credit_entries(&self, first: Day, last: Day) -> Result<List<'_, CreditEntries>> {
        self.account(AccountId::DEFAULT).entries(first, last)
    }

    /// Reports a day's cumulative step total to the default account (None: today).
    pub fn sync_steps(&self, steps: i64, day: Option<Day>) -> Result<StepSync> {
        self.account(AccountId::DEFAULT).sync_steps(steps, day)
    }

    /// Spends minutes of the default account; `ErrorKind::Insufficient` when short.
    pub fn spend(&self, minutes: i64, reason: Option<&str>) -> Result<CreditEntryId> {
        self.account(AccountId::DEFAULT).spend(minutes, reason, false)
    }

    /// The default account's spendable minutes.
    pub fn balance(&self) -> Result<i64> {
        self.account(AccountId::DEFAULT).balance()
    }
}

impl<'s> Account<'s> {
    /// The account's id.
    pub fn id(&self) -> AccountId {
        self.id
    }

    /// Entries with `first <= day <= last`, in append order.
    pub fn entries(&self, first: Day, last: Day) -> Result<List<'s, CreditEntries>> {
        let (store, id) = (self.store, self.id.0);
        List::open(store, |out| unsafe { sys::hc_credit_list_open(out, store.raw, id, first.0, last.0) })
    }

    /// Reports a day's cumulative step total (None: today); only a higher total earns.
    pub fn sync_steps(&self, steps: i64, day: Option<Day>) -> Result<StepSync> {
        let mut out = defaults!(hc_step_sync_init, sys::hc_step_sync);
        check(unsafe { sys::hc_credit_sync_steps(&mut out, self.store.raw, self.id.0, day_or_none(day), steps) })?;
        Ok(StepSync { day: Day(out.day), steps: out.steps, earned_now: out.earned_now, day_earned: out.day_earned })
    }

    /// Spends minutes now, checking the balance in the same write; `unlock` opens an
    /// unlock session of that many minutes. `ErrorKind::Insufficient` writes nothing.
    pub fn spend(&self, minutes: i64, reason: Option<&str>, unlock: bool) -> Result<CreditEntryId> {
        let reason = opt_text(reason, "reason")?;
        let flags = if unlock { sys::HC_SPEND_UNLOCK } else { 0 };
        let mut id = 0;
        check(unsafe { sys::hc_credit_spend(&mut id, self.store.raw, self.id.0, minutes, opt_ptr(&reason), flags) })?;
        Ok(CreditEntryId(id))
    }

    /// A correction by hand (+ adds, - removes; the balance may go below zero).
    pub fn adjust(&self, minutes: i64, reason: Option<&str>) -> Result<CreditEntryId> {
        let reason = opt_text(reason, "reason")?;
        let mut id = 0;
        check(unsafe { sys::hc_credit_adjust(&mut id, self.store.raw, self.id.0, minutes, opt_ptr(&reason)) })?;
        Ok(CreditEntryId(id))
    }

    /// The minutes that can be spent now (negative: a debt).
    pub fn balance(&self) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::hc_credit_balance(&mut out, self.store.raw, self.id.0) })?;
        Ok(out)
    }

    /// Records a rule from `from` on (None: today; never an earlier day).
    pub fn set_rule(&self, rule: CreditRule, from: Option<Day>) -> Result<CreditRuleId> {
        let (kind, habit, value) = rule.raw();
        let mut id = 0;
        check(unsafe { sys::hc_credit_rule_set(&mut id, self.store.raw, self.id.0, kind, habit, value, day_or_none(from)) })?;
        Ok(CreditRuleId(id))
    }

    /// The rules in the order recorded.
    pub fn rules(&self) -> Result<Vec<RecordedCreditRule>> {
        let raw = buffer(|out, capacity, total| unsafe { sys::hc_credit_rule_list(out, capacity, total, self.store.raw, self.id.0) })?;
        raw.into_iter()
            .map(|r: sys::hc_credit_rule| {
                let rule = match r.kind {
                    sys::HC_RULE_STEPS_PER_MINUTE => CreditRule::StepsPerMinute(r.value),
                    sys::HC_RULE_HABIT_MINUTES => CreditRule::HabitMinutes(HabitId(r.habit_id), r.value),
                    sys::HC_RULE_EXPIRY => CreditRule::Expiry(Expiry::from_raw(r.value as i32)),
                    other => return Err(crate::Error::invalid(format!("credit rule {} has kind {other}, newer than this crate", r.id))),
                };
                Ok(RecordedCreditRule { id: CreditRuleId(r.id), rule, from: Day(r.from_day) })
            })
            .collect()
    }

    /// The summary of `day` (None: today).
    pub fn day_summary(&self, day: Option<Day>) -> Result<CreditDay> {
        let mut d = defaults!(hc_credit_day_init, sys::hc_credit_day);
        check(unsafe { sys::hc_credit_day_summary(&mut d, self.store.raw, self.id.0, day_or_none(day)) })?;
        Ok(CreditDay {
            day: Day(d.day),
            steps: d.steps,
            carried_in: d.carried_in,
            earned: d.earned,
            spent: d.spent,
            adjusted: d.adjusted,
            expired: d.expired,
            refunded: d.refunded,
            available: d.available,
        })
    }

    /// Whether apps are unlocked at `at_ms` (None: now).
    pub fn unlock_state(&self, at_ms: Option<i64>) -> Result<UnlockState> {
        let mut u = defaults!(hc_unlock_state_init, sys::hc_unlock_state);
        check(unsafe { sys::hc_credit_unlock_state(&mut u, self.store.raw, self.id.0, at_ms.unwrap_or(0)) })?;
        Ok(UnlockState {
            session: if u.active != 0 { nonzero(u.session_id, SessionId) } else { None },
            start_ms: u.start_ms,
            until_ms: u.until_ms,
        })
    }
}
