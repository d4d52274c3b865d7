//! The award catalogue, unlocked awards and progress, referrals.

use crate::{c_text, check, day_or_none, owned_text, sys, Awards, Day, List, ReferralId, Result, Store};
use std::ffi::c_char;
use std::ptr;

impl Store {
    /// Replaces the award catalogue with a JSON document (docs/FORMATS.md); every rule
    /// is checked first, and a bad one changes nothing.
    pub fn load_award_catalog(&self, json: &str) -> Result<()> {
        let json = c_text(json, "catalogue")?;
        check(unsafe { sys::hc_award_catalog_load(self.raw, json.as_ptr()) })
    }

    /// Puts the built-in catalogue back.
    pub fn reset_award_catalog(&self) -> Result<()> {
        check(unsafe { sys::hc_award_catalog_reset(self.raw) })
    }

    /// The catalogue as a JSON document.
    pub fn award_catalog_json(&self) -> Result<String> {
        let mut out: *mut c_char = ptr::null_mut();
        check(unsafe { sys::hc_award_catalog_json(&mut out, self.raw) })?;
        Ok(owned_text(out))
    }

    /// Every unlocked award in the order unlocked.
    pub fn unlocked_awards(&self) -> Result<List<'_, Awards>> {
        List::open(self, |out| unsafe { sys::hc_award_list_open_unlocked(out, self.raw) })
    }

    /// Every award of the catalogue with its metric's value as of `as_of` (None:
    /// today) and its unlock when recorded. Records nothing.
    pub fn award_progress(&self, as_of: Option<Day>) -> Result<List<'_, Awards>> {
        List::open(self, |out| unsafe { sys::hc_award_list_open_progress(out, self.raw, day_or_none(as_of)) })
    }

    /// This store's referral code (made on first use, then fixed).
    pub fn referral_code(&self) -> Result<String> {
        let mut out: *mut c_char = ptr::null_mut();
        check(unsafe { sys::hc_referral_code(&mut out, self.raw) })?;
        Ok(owned_text(out))
    }

    /// Records someone else's code redeemed; again, or this store's own, is `ErrorKind::Conflict`.
    pub fn redeem_referral(&self, code: &str) -> Result<ReferralId> {
        let code = c_text(code, "code")?;
        let mut id = 0;
        check(unsafe { sys::hc_referral_redeem(&mut id, self.raw, code.as_ptr()) })?;
        Ok(ReferralId(id))
    }
}
