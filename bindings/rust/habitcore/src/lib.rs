//! A safe Rust API for libhabitcore, the habit-tracking engine, over its C ABI
//! (`include/habitcore.h`, HC_ABI_VERSION 2) as declared by `habitcore-sys`.
//!
//! ```
//! use habitcore::{Day, EntryKind, HabitOptions, Kind, Store};
//!
//! # fn main() -> habitcore::Result<()> {
//! # let dir = std::env::temp_dir().join(format!("habitcore-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let store = Store::open(dir.join("habits.db"))?;
//! let day = Day::parse("2026-03-08")?;
//! let walk = store.create_habit(&HabitOptions::new("Walk").kind(Kind::Counter).target(6000.0).start(day))?;
//! store.append(walk.id, EntryKind::Total, 6400.0, Some(day))?;
//! assert_eq!(store.day_total(walk.id, day)?, 6400.0);
//! assert_eq!(store.streaks(walk.id, Some(day))?.current.length, 1);
//! # drop(store); std::fs::remove_dir_all(&dir).unwrap();
//! # Ok(()) }
//! ```
//!
//! - Every fallible call returns [`Result`]; an [`Error`] carries the status code and the
//!   library's own message, copied at once from `hc_last_error_message()`.
//! - [`Store`] closes on `Drop` (or with [`Store::close`]). It is `Send + Sync`: the header
//!   lets threads share a handle and serialises calls on it. Lists are not: each is a
//!   snapshot owned by one thread, and [`List`] copies items out as it iterates.
//! - Struct defaults come from the library's `hc_<struct>_init`, never from copies here.
//! - Verifier callbacks are closures ([`Store::register_verifier`]); a panic in one becomes
//!   an error verdict, never an unwind through C.
//!
//! Linking: see `habitcore-sys` (`HABITCORE_LIB_DIR`, else `pkg-config`). The crate checks
//! `hc_abi_version()` when a store is opened.

use habitcore_sys as sys;
use std::ffi::{c_char, c_void, CStr, CString};
use std::fmt;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::ptr;

/// The HC_ABI_VERSION this crate was written for.
pub const ABI_VERSION: i32 = 2;

// ---- errors ------------------------------------------------------------------------------------------------

/// What kind of failure a status code names. `#[non_exhaustive]`: codes are only appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// HC_E_INVALID: an argument is out of range, malformed or missing.
    Invalid,
    /// HC_E_NOT_FOUND.
    NotFound,
    /// HC_E_CONFLICT: clashes with what is stored.
    Conflict,
    /// HC_E_IO.
    Io,
    /// HC_E_CORRUPT.
    Corrupt,
    /// HC_E_BUSY.
    Busy,
    /// HC_E_TOO_NEW: the store was written by a newer habitcore.
    TooNew,
    /// HC_E_MISUSE: a closed or foreign handle, a call out of order.
    Misuse,
    /// HC_E_NOMEM.
    NoMemory,
    /// HC_E_READONLY.
    ReadOnly,
    /// HC_E_INTERNAL: a bug in habitcore.
    Internal,
    /// HC_E_INSUFFICIENT: a spend larger than the available credits.
    Insufficient,
    /// HC_E_CANCELLED: a progress callback asked to stop; nothing was written.
    Cancelled,
    /// A code newer than this crate.
    Other,
}

/// A failed call: the status code and the library's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    code: i32,
    message: String,
}

impl Error {
    /// The HC_E_* status code.
    pub fn code(&self) -> i32 {
        self.code
    }
    /// The library's words (or this crate's, for a value C cannot carry).
    pub fn message(&self) -> &str {
        &self.message
    }
    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        match self.code {
            sys::HC_E_INVALID => ErrorKind::Invalid,
            sys::HC_E_NOT_FOUND => ErrorKind::NotFound,
            sys::HC_E_CONFLICT => ErrorKind::Conflict,
            sys::HC_E_IO => ErrorKind::Io,
            sys::HC_E_CORRUPT => ErrorKind::Corrupt,
            sys::HC_E_BUSY => ErrorKind::Busy,
            sys::HC_E_TOO_NEW => ErrorKind::TooNew,
            sys::HC_E_MISUSE => ErrorKind::Misuse,
            sys::HC_E_NOMEM => ErrorKind::NoMemory,
            sys::HC_E_READONLY => ErrorKind::ReadOnly,
            sys::HC_E_INTERNAL => ErrorKind::Internal,
            sys::HC_E_INSUFFICIENT => ErrorKind::Insufficient,
            sys::HC_E_CANCELLED => ErrorKind::Cancelled,
            _ => ErrorKind::Other,
        }
    }
    fn invalid(message: impl Into<String>) -> Error {
        Error { code: sys::HC_E_INVALID, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = unsafe { cstr(sys::hc_status_string(self.code)) };
        write!(f, "{} ({})", self.message, name.unwrap_or_default())
    }
}

impl std::error::Error for Error {}

/// `std::result::Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

fn check(status: i32) -> Result<()> {
    if status == sys::HC_OK {
        return Ok(());
    }
    // Copied at once, on this thread, before any other call into the library.
    let message = unsafe { cstr(sys::hc_last_error_message()) }.unwrap_or_default();
    Err(Error { code: status, message })
}

/// A borrowed C string as an owned String (None for NULL).
unsafe fn cstr(p: *const c_char) -> Option<String> {
    if p.is_null() {
        None
    } else {
        Some(CStr::from_ptr(p).to_string_lossy().into_owned())
    }
}

fn c_text(text: &str, what: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::invalid(format!("{what} holds a NUL character, which a C string cannot carry")))
}

fn c_bytes(bytes: &[u8], what: &str) -> Result<CString> {
    CString::new(bytes).map_err(|_| Error::invalid(format!("{what} holds a NUL character, which a C string cannot carry")))
}

fn opt_text(text: Option<&str>, what: &str) -> Result<Option<CString>> {
    text.map(|t| c_text(t, what)).transpose()
}

fn opt_ptr(text: &Option<CString>) -> *const c_char {
    text.as_ref().map_or(ptr::null(), |t| t.as_ptr())
}

fn char_array(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars.iter().take_while(|c| **c != 0).map(|c| *c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn fill_chars(target: &mut [c_char], text: &str) {
    let mut end = text.len().min(target.len() - 1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    for (slot, byte) in target.iter_mut().zip(text.as_bytes()[..end].iter().chain(std::iter::once(&0))) {
        *slot = *byte as c_char;
    }
}

/// A struct filled by its `hc_<struct>_init`: the library's defaults, sized for this build's struct.
macro_rules! defaults {
    ($init:ident, $ty:ty) => {{
        let mut value = MaybeUninit::<$ty>::zeroed();
        check(unsafe { sys::$init(value.as_mut_ptr(), std::mem::size_of::<$ty>() as u32) })?;
        unsafe { value.assume_init() }
    }};
}

/// Runs a caller-buffer call: asks the total with (NULL, 0), then fills; again if it grew.
fn buffer<T: Copy>(mut call: impl FnMut(*mut T, i64, *mut i64) -> i32) -> Result<Vec<T>> {
    let mut total = 0i64;
    check(call(ptr::null_mut(), 0, &mut total))?;
    loop {
        let capacity = total;
        let mut items: Vec<T> = Vec::with_capacity(capacity.max(0) as usize);
        check(call(items.as_mut_ptr(), capacity, &mut total))?;
        if total <= capacity {
            unsafe { items.set_len(total as usize) };
            return Ok(items);
        }
    }
}

// ---- days --------------------------------------------------------------------------------------------------

/// A local calendar day: days since 1970-01-01, as the library counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i32);

impl Day {
    /// Reads "YYYY-MM-DD" with the library's parser.
    ///
    /// ```
    /// let day = habitcore::Day::parse("1970-01-02").unwrap();
    /// assert_eq!(day.0, 1);
    /// let error = habitcore::Day::parse("2026-02-30").unwrap_err();
    /// assert_eq!(error.kind(), habitcore::ErrorKind::Invalid);
    /// assert!(error.message().contains("2026-02-30"));
    /// ```
    pub fn parse(text: &str) -> Result<Day> {
        let text = c_text(text, "date")?;
        let mut day = 0;
        check(unsafe { sys::hc_date_parse(&mut day, text.as_ptr()) })?;
        Ok(Day(day))
    }

    /// The day `n` days later (or earlier, for negative n).
    pub fn plus(self, n: i32) -> Day {
        Day(self.0.saturating_add(n))
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0 as c_char; 11];
        if unsafe { sys::hc_date_format(buf.as_mut_ptr(), 11, self.0) } != sys::HC_OK {
            return write!(f, "day {}", self.0);
        }
        f.write_str(&char_array(&buf))
    }
}

fn day_or_none(day: Option<Day>) -> i32 {
    day.map_or(sys::HC_DAY_NONE, |d| d.0)
}

/// The library's version string.
pub fn library_version() -> String {
    unsafe { cstr(sys::hc_version_string()) }.unwrap_or_default()
}

// ---- constants ---------------------------------------------------------------------------------------------

macro_rules! c_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $value:expr),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
            /// A value newer than this crate.
            Other(i32),
        }
        impl $name {
            /// The C value.
            pub fn raw(self) -> i32 {
                match self { $($name::$variant => $value as i32,)+ $name::Other(v) => v }
            }
            /// From the C value.
            pub fn from_raw(v: i32) -> Self {
                $(if v == $value as i32 { return $name::$variant; })+
                $name::Other(v)
            }
        }
    };
}

c_enum!(/// HC_KIND_*.
    Kind { Checkmark = sys::HC_KIND_CHECKMARK, Counter = sys::HC_KIND_COUNTER, Duration = sys::HC_KIND_DURATION,
           Measurement = sys::HC_KIND_MEASUREMENT });
c_enum!(/// HC_DIRECTION_*.
    Direction { AtLeast = sys::HC_DIRECTION_AT_LEAST, AtMost = sys::HC_DIRECTION_AT_MOST });
c_enum!(/// HC_ENTRY_*.
    EntryKind { Done = sys::HC_ENTRY_DONE, Amount = sys::HC_ENTRY_AMOUNT, Total = sys::HC_ENTRY_TOTAL,
                Skip = sys::HC_ENTRY_SKIP, Undo = sys::HC_ENTRY_UNDO });
c_enum!(/// HC_OUTCOME_*.
    Outcome { Approved = sys::HC_OUTCOME_APPROVED, Rejected = sys::HC_OUTCOME_REJECTED,
              NeedsReview = sys::HC_OUTCOME_NEEDS_REVIEW, Error = sys::HC_OUTCOME_ERROR });
c_enum!(/// HC_EVENT_*.
    EventKind { AwardUnlocked = sys::HC_EVENT_AWARD_UNLOCKED, StreakMilestone = sys::HC_EVENT_STREAK_MILESTONE,
                TargetReached = sys::HC_EVENT_TARGET_REACHED, ProofVerdict = sys::HC_EVENT_PROOF_VERDICT });

// ---- values ------------------------------------------------------------------------------------------------

/// What a new habit is; unset fields keep the library's defaults (`hc_habit_options_init`).
#[derive(Debug, Clone, Default)]
pub struct HabitOptions {
    name: String,
    kind: Option<Kind>,
    target: Option<f64>,
    direction: Option<Direction>,
    unit: Option<String>,
    schedule: Option<String>,
    start: Option<Day>,
    display: Display,
}

/// What a frontend shows of a habit (1.1): a description, the question asked each day,
/// a "#RRGGBB" colour, an icon (opaque: a name or an emoji) and the app's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Display {
    pub description: Option<String>,
    pub question: Option<String>,
    pub colour: Option<String>,
    pub icon: Option<String>,
    pub position: i64,
}

impl HabitOptions {
    /// The display fields of the new habit.
    pub fn display(mut self, display: Display) -> Self {
        self.display = display;
        self
    }
    /// A habit named `name`: a daily checkmark unless told otherwise.
    pub fn new(name: &str) -> Self {
        HabitOptions { name: name.into(), ..Default::default() }
    }
    pub fn kind(mut self, kind: Kind) -> Self {
        self.kind = Some(kind);
        self
    }
    pub fn target(mut self, target: f64) -> Self {
        self.target = Some(target);
        self
    }
    pub fn direction(mut self, direction: Direction) -> Self {
        self.direction = Some(direction);
        self
    }
    pub fn unit(mut self, unit: &str) -> Self {
        self.unit = Some(unit.into());
        self
    }
    /// "daily", "days:mon,wed,fri", "every:3", "weekly:3", ... (see the header).
    pub fn schedule(mut self, schedule: &str) -> Self {
        self.schedule = Some(schedule.into());
        self
    }
    pub fn start(mut self, day: Day) -> Self {
        self.start = Some(day);
        self
    }
}

/// A habit as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Habit {
    pub id: i64,
    pub name: String,
    pub kind: Kind,
    pub target: f64,
    pub direction: Direction,
    pub unit: Option<String>,
    pub schedule: String,
    pub start: Day,
    pub archived: Option<Day>,
    pub display: Display,
}

unsafe fn habit_from(h: &sys::hc_habit) -> Habit {
    Habit {
        display: Display {
            description: cstr(h.description),
            question: cstr(h.question),
            colour: cstr(h.colour),
            icon: cstr(h.icon),
            position: h.position,
        },
        id: h.id,
        name: cstr(h.name).unwrap_or_default(),
        kind: Kind::from_raw(h.kind),
        target: h.target,
        direction: Direction::from_raw(h.direction),
        unit: cstr(h.unit),
        schedule: cstr(h.schedule).unwrap_or_default(),
        start: Day(h.start_day),
        archived: (h.archived_day != sys::HC_DAY_NONE).then_some(Day(h.archived_day)),
    }
}

/// A ledger entry as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: i64,
    pub habit_id: i64,
    pub kind: EntryKind,
    pub day: Day,
    pub value: f64,
    pub undoes: Option<i64>,
    pub undone_by: Option<i64>,
    pub note: Option<String>,
}

/// One habit's day: the fold of its standing entries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayState {
    pub day: Day,
    pub done: bool,
    pub skipped: bool,
    pub value: f64,
    pub entry_count: i32,
}

/// A run of kept occurrences (length 0: none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Streak {
    pub first: Day,
    pub last: Day,
    pub length: i32,
    pub excused_days: i32,
}

impl From<sys::hc_streak> for Streak {
    fn from(s: sys::hc_streak) -> Self {
        Streak { first: Day(s.first_day), last: Day(s.last_day), length: s.length, excused_days: s.excused_days }
    }
}

/// Current and longest streaks, and every run, longest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Streaks {
    pub current: Streak,
    pub longest: Streak,
    pub runs: Vec<Streak>,
}

/// A day's score across habits (score -1.0 when nothing is due).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayScore {
    pub day: Day,
    pub due: i32,
    pub done: i32,
    pub excused: i32,
    pub score: f64,
}

/// How often occurrences were kept (rate -1.0 when nothing was judged).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Completion {
    pub kept: i32,
    pub judged: i32,
    pub excused: i32,
    pub rate: f64,
    /// The current, unfinished occurrence (this week of a weekly quota, today), left
    /// out of `rate`: done so far up to its quota, of its quota (1.1).
    pub current_kept: i32,
    pub current_required: i32,
    /// The rate with the current occurrence counted as that fraction (-1.0 when nothing counts).
    pub rate_with_current: f64,
}

/// A quota habit's period holding a day, as of that day (1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaProgress {
    pub habit_id: i64,
    pub period_first: Day,
    pub done: i32,
    pub required: i32,
    pub met: bool,
}

/// A group's day read both ways (1.1): day-based habits only (`rate`; quota habits
/// left out, their progress in `quota`), and every habit with quota habits due until
/// met (`all_rate`). Rates are -1.0 when nothing is due.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupDay {
    pub day: Day,
    pub due: i32,
    pub done: i32,
    pub excused: i32,
    pub rate: f64,
    pub quota: Vec<QuotaProgress>,
    pub all_due: i32,
    pub all_done: i32,
    pub all_excused: i32,
    pub all_rate: f64,
}

/// A credit ledger entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditEntry {
    pub id: i64,
    /// HC_CREDIT_* (1 earn, 2 spend, 3 adjust, 4 expire, 5 refund).
    pub kind: i32,
    pub minutes: i64,
    pub day: Day,
    pub reason: Option<String>,
}

/// What a step report earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepSync {
    pub day: Day,
    pub steps: i64,
    pub earned_now: i64,
    pub day_earned: i64,
}

/// What applying a changeset did (`hc_sync_summary`); the merge rules are the header's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SyncSummary {
    pub ops_received: i64,
    pub ops_new: i64,
    pub ops_applied: i64,
    pub ops_superseded: i64,
    pub ops_waiting: i64,
    pub habits_changed: i64,
    pub entries_added: i64,
    pub vacations_changed: i64,
    pub settings_changed: i64,
    pub proofs_changed: i64,
    pub credits_changed: i64,
    /// Ops of a forked replica's moving branch, taken under their moved ids (the
    /// header's "Forks").
    pub ops_forked: i64,
}

/// An award.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    pub id: String,
    pub title: String,
    pub threshold: i64,
    pub value: i64,
    pub unlocked: bool,
}

/// Something to tell the user about.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: i64,
    pub kind: EventKind,
    pub day: Day,
    pub habit_id: i64,
    pub value: f64,
    pub award_id: Option<String>,
}

/// A reminder rule in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderRule {
    pub id: i64,
    pub habit_id: i64,
    pub minute: i32,
    pub message: Option<String>,
}

/// One reminder instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub rule_id: i64,
    pub habit_id: i64,
    pub day: Day,
    pub at_ms: i64,
    pub local_minute: i32,
    pub fired: bool,
    pub message: Option<String>,
}

/// The evidence a Rust verifier judges, copied for the call.
#[derive(Debug, Clone)]
pub struct Evidence {
    pub data: Vec<u8>,
    pub media_type: String,
    pub sha256: String,
    pub habit_id: i64,
    pub habit_name: String,
}

/// A verifier's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    pub outcome: Outcome,
    pub confidence: f64,
    pub reason_code: String,
    pub message: String,
}

/// What a proof submission came to.
#[derive(Debug, Clone, PartialEq)]
pub struct ProofResult {
    pub outcome: Outcome,
    pub proof_id: i64,
    pub entry_id: Option<i64>,
    pub confidence: f64,
    pub reason_code: String,
    pub message: String,
}

/// A verdict as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub id: i64,
    pub proof_id: i64,
    pub outcome: Outcome,
    pub verifier_id: Option<String>,
    pub message: Option<String>,
}

// ---- lists -------------------------------------------------------------------------------------------------

/// The native list kinds [`List`] can walk.
pub trait ListKind {
    /// What an item is copied into.
    type Item;
    #[doc(hidden)]
    type Raw;
    #[doc(hidden)]
    type Native;
    #[doc(hidden)]
    unsafe fn count(list: *const Self::Raw, out: *mut i64) -> i32;
    #[doc(hidden)]
    unsafe fn get(list: *const Self::Raw, index: i64, out: *mut *const Self::Native) -> i32;
    #[doc(hidden)]
    unsafe fn free(list: *mut Self::Raw);
    #[doc(hidden)]
    unsafe fn convert(item: &Self::Native) -> Self::Item;
}

/// An iterator over one of the library's list snapshots: items are copied out as they are
/// reached; the native list is freed on `Drop`. Not `Send`: it belongs to one thread.
pub struct List<K: ListKind> {
    raw: *mut K::Raw,
    index: i64,
    count: i64,
    _kind: PhantomData<K>,
}

impl<K: ListKind> List<K> {
    fn open(open: impl FnOnce(*mut *mut K::Raw) -> i32) -> Result<Self> {
        let mut raw = ptr::null_mut();
        check(open(&mut raw))?;
        let mut list = List { raw, index: 0, count: 0, _kind: PhantomData };
        check(unsafe { K::count(list.raw, &mut list.count) })?;
        Ok(list)
    }
}

impl<K: ListKind> Iterator for List<K> {
    type Item = K::Item;
    fn next(&mut self) -> Option<K::Item> {
        if self.index >= self.count {
            return None;
        }
        let mut item = ptr::null();
        if unsafe { K::get(self.raw, self.index, &mut item) } != sys::HC_OK || item.is_null() {
            return None;
        }
        self.index += 1;
        Some(unsafe { K::convert(&*item) })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.count - self.index) as usize;
        (left, Some(left))
    }
}

impl<K: ListKind> ExactSizeIterator for List<K> {}

impl<K: ListKind> Drop for List<K> {
    fn drop(&mut self) {
        unsafe { K::free(self.raw) };
    }
}

macro_rules! list_kind {
    ($(#[$doc:meta])* $kind:ident, $item:ty, $raw:ty, $native:ty, $count:ident, $get:ident, $free:ident, |$x:ident| $convert:expr) => {
        $(#[$doc])*
        pub struct $kind;
        impl ListKind for $kind {
            type Item = $item;
            type Raw = $raw;
            type Native = $native;
            unsafe fn count(list: *const $raw, out: *mut i64) -> i32 { sys::$count(out, list) }
            unsafe fn get(list: *const $raw, index: i64, out: *mut *const $native) -> i32 { sys::$get(out, list, index) }
            unsafe fn free(list: *mut $raw) { sys::$free(list) }
            unsafe fn convert($x: &$native) -> $item { $convert }
        }
    };
}

list_kind!(/// Habits.
    Habits, Habit, sys::hc_habit_list, sys::hc_habit, hc_habit_list_count, hc_habit_list_get, hc_habit_list_free,
    |h| habit_from(h));
list_kind!(/// Ledger entries.
    Entries, Entry, sys::hc_entry_list, sys::hc_entry, hc_entry_list_count, hc_entry_list_get, hc_entry_list_free,
    |e| Entry { id: e.id, habit_id: e.habit_id, kind: EntryKind::from_raw(e.kind), day: Day(e.day), value: e.value,
                undoes: (e.undoes != 0).then_some(e.undoes), undone_by: (e.undone_by != 0).then_some(e.undone_by),
                note: cstr(e.note) });
list_kind!(/// Credit entries.
    CreditEntries, CreditEntry, sys::hc_credit_list, sys::hc_credit_entry, hc_credit_list_count, hc_credit_list_get,
    hc_credit_list_free,
    |e| CreditEntry { id: e.id, kind: e.kind, minutes: e.minutes, day: Day(e.day), reason: cstr(e.reason) });
list_kind!(/// Awards.
    Awards, Award, sys::hc_award_list, sys::hc_award, hc_award_list_count, hc_award_list_get, hc_award_list_free,
    |a| Award { id: cstr(a.id).unwrap_or_default(), title: cstr(a.title).unwrap_or_default(), threshold: a.threshold,
                value: a.value, unlocked: a.unlocked != 0 });
list_kind!(/// Events.
    Events, Event, sys::hc_event_list, sys::hc_event, hc_event_list_count, hc_event_list_get, hc_event_list_free,
    |e| Event { id: e.id, kind: EventKind::from_raw(e.kind), day: Day(e.day), habit_id: e.habit_id, value: e.value,
                award_id: cstr(e.award_id) });
list_kind!(/// Verdicts.
    Verdicts, Verdict, sys::hc_verdict_list, sys::hc_verdict, hc_verdict_list_count, hc_verdict_list_get,
    hc_verdict_list_free,
    |v| Verdict { id: v.id, proof_id: v.proof_id, outcome: Outcome::from_raw(v.outcome), verifier_id: cstr(v.verifier_id),
                  message: cstr(v.message) });
list_kind!(/// Reminder rules.
    ReminderRules, ReminderRule, sys::hc_reminder_rule_list, sys::hc_reminder_rule, hc_reminder_rule_list_count,
    hc_reminder_rule_list_get, hc_reminder_rule_list_free,
    |r| ReminderRule { id: r.id, habit_id: r.habit_id, minute: r.minute, message: cstr(r.message) });
list_kind!(/// Reminder instants.
    Reminders, Reminder, sys::hc_reminder_list, sys::hc_reminder, hc_reminder_list_count, hc_reminder_list_get,
    hc_reminder_list_free,
    |r| Reminder { rule_id: r.rule_id, habit_id: r.habit_id, day: Day(r.day), at_ms: r.at_ms,
                   local_minute: r.local_minute, fired: r.fired != 0, message: cstr(r.message) });

// ---- the store ---------------------------------------------------------------------------------------------

type VerifierFn = dyn Fn(&Evidence) -> Judgement + Send + Sync + 'static;

/// An open store (`hc_store`): closed on `Drop`.
///
/// `Send + Sync`: the header lets several threads share one handle and serialises the
/// calls. Explicit transactions belong to the handle, so this crate does not expose them
/// on a shared store; use one store per thread for those (through `habitcore-sys`).
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("habitcore-doc-store-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let store = habitcore::Store::open(dir.join("a.db")).unwrap();
/// std::thread::scope(|scope| {
///     scope.spawn(|| store.create_habit(&habitcore::HabitOptions::new("Read")).unwrap());
/// });
/// assert_eq!(store.habits(false).unwrap().count(), 1);
/// store.close().unwrap();
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct Store {
    raw: *mut sys::hc_store,
}

// SAFETY: the header: "a store handle may be shared by several threads; calls on one
// handle are serialised by the library". Verifier closures belong to the library
// (hc_verifier_register_v2), which frees them through `release_verifier`.
unsafe impl Send for Store {}
unsafe impl Sync for Store {}

impl Store {
    /// Opens (creating it if needed) the store at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with_flags(path, 0)
    }

    /// Opens a store that is only read (`HC_OPEN_READONLY`).
    pub fn open_readonly(path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with_flags(path, sys::HC_OPEN_READONLY)
    }

    fn open_with_flags(path: impl AsRef<Path>, flags: u32) -> Result<Store> {
        let abi = unsafe { sys::hc_abi_version() };
        if abi != ABI_VERSION {
            return Err(Error { code: sys::HC_E_MISUSE, message: format!("libhabitcore has ABI {abi}; this crate needs {ABI_VERSION}") });
        }
        use std::os::unix::ffi::OsStrExt;
        let path = c_bytes(path.as_ref().as_os_str().as_bytes(), "path")?;
        let mut raw = ptr::null_mut();
        check(unsafe { sys::hc_store_open(&mut raw, path.as_ptr(), flags) })?;
        Ok(Store { raw })
    }

    /// Closes now, reporting a failure that `Drop` would swallow.
    pub fn close(mut self) -> Result<()> {
        let raw = std::mem::replace(&mut self.raw, ptr::null_mut());
        check(unsafe { sys::hc_store_close(raw) })
    }

    /// The raw handle, for calls this crate does not wrap (through `habitcore-sys`).
    /// Valid while the store lives.
    pub fn as_raw(&self) -> *mut sys::hc_store {
        self.raw
    }

    /// Today's local day in the store's home zone.
    pub fn today(&self) -> Result<Day> {
        let mut day = 0;
        check(unsafe { sys::hc_store_today(&mut day, self.raw) })?;
        Ok(Day(day))
    }

    /// Sets the home time zone ("Europe/Berlin", "UTC", "+05:30").
    pub fn set_timezone(&self, zone: &str) -> Result<()> {
        let zone = c_text(zone, "timezone")?;
        check(unsafe { sys::hc_store_set_timezone(self.raw, zone.as_ptr()) })
    }

    /// The UTC instant (ms) of local minute `minute` of `day`.
    pub fn utc_ms(&self, day: Day, minute: i32) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::hc_store_utc_ms(&mut out, self.raw, day.0, minute) })?;
        Ok(out)
    }

    // ---- habits

    /// Creates a habit and returns it as stored.
    pub fn create_habit(&self, options: &HabitOptions) -> Result<Habit> {
        let mut o = defaults!(hc_habit_options_init, sys::hc_habit_options);
        let name = c_text(&options.name, "name")?;
        let unit = opt_text(options.unit.as_deref(), "unit")?;
        let schedule = opt_text(options.schedule.as_deref(), "schedule")?;
        o.name = name.as_ptr();
        o.unit = opt_ptr(&unit);
        o.schedule = opt_ptr(&schedule);
        let display = &options.display;
        let description = opt_text(display.description.as_deref(), "description")?;
        let question = opt_text(display.question.as_deref(), "question")?;
        let colour = opt_text(display.colour.as_deref(), "colour")?;
        let icon = opt_text(display.icon.as_deref(), "icon")?;
        o.description = opt_ptr(&description);
        o.question = opt_ptr(&question);
        o.colour = opt_ptr(&colour);
        o.icon = opt_ptr(&icon);
        o.position = display.position;
        if let Some(kind) = options.kind {
            o.kind = kind.raw();
        }
        if let Some(target) = options.target {
            o.target = target;
        }
        if let Some(direction) = options.direction {
            o.direction = direction.raw();
        }
        if let Some(start) = options.start {
            o.start_day = start.0;
        }
        let mut id = 0;
        check(unsafe { sys::hc_habit_create(&mut id, self.raw, &o) })?;
        self.habit(id)
    }

    /// The habit with this id, active or archived.
    pub fn habit(&self, id: i64) -> Result<Habit> {
        let mut out = ptr::null_mut();
        check(unsafe { sys::hc_habit_get(&mut out, self.raw, id) })?;
        let habit = unsafe { habit_from(&*out) };
        unsafe { sys::hc_habit_free(out) };
        Ok(habit)
    }

    /// The active habit with this name (case folded).
    pub fn find_habit(&self, name: &str) -> Result<Habit> {
        let name = c_text(name, "name")?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::hc_habit_find(&mut out, self.raw, name.as_ptr()) })?;
        let habit = unsafe { habit_from(&*out) };
        unsafe { sys::hc_habit_free(out) };
        Ok(habit)
    }

    /// Archives a habit from today (`true`) or restores it (`false`).
    pub fn archive_habit(&self, id: i64, archived: bool) -> Result<()> {
        check(unsafe { sys::hc_habit_archive(self.raw, id, archived as i32) })
    }

    /// The habits by id.
    pub fn habits(&self, include_archived: bool) -> Result<List<Habits>> {
        let flags = if include_archived { sys::HC_LIST_INCLUDE_ARCHIVED } else { 0 };
        List::open(|out| unsafe { sys::hc_habit_list_open(out, self.raw, flags) })
    }

    // ---- ledger

    /// Appends an entry for `day` (None: from now); returns its id.
    pub fn append(&self, habit_id: i64, kind: EntryKind, value: f64, day: Option<Day>) -> Result<i64> {
        let mut e = defaults!(hc_entry_input_init, sys::hc_entry_input);
        e.habit_id = habit_id;
        e.kind = kind.raw();
        e.value = value;
        e.day = day_or_none(day);
        let mut id = 0;
        check(unsafe { sys::hc_entry_append(&mut id, self.raw, &e) })?;
        Ok(id)
    }

    /// Cancels an entry; returns the undo's id.
    pub fn undo(&self, entry_id: i64) -> Result<i64> {
        let mut id = 0;
        check(unsafe { sys::hc_entry_undo(&mut id, self.raw, entry_id) })?;
        Ok(id)
    }

    /// Entries of a habit (0: all) from `first` to `last`, in append order.
    pub fn entries(&self, habit_id: i64, first: Day, last: Day) -> Result<List<Entries>> {
        List::open(|out| unsafe { sys::hc_entry_list_open(out, self.raw, habit_id, first.0, last.0) })
    }

    /// The day's value.
    pub fn day_total(&self, habit_id: i64, day: Day) -> Result<f64> {
        let mut total = 0.0;
        check(unsafe { sys::hc_habit_day_total(&mut total, self.raw, habit_id, day.0) })?;
        Ok(total)
    }

    /// The habit's state on each day from `first` to `last` (at most 100000 days).
    pub fn day_states(&self, habit_id: i64, first: Day, last: Day) -> Result<Vec<DayState>> {
        let raw = buffer(|out, cap, count| unsafe {
            sys::hc_habit_day_states(out, cap, count, self.raw, habit_id, first.0, last.0)
        })?;
        Ok(raw
            .into_iter()
            .map(|s: sys::hc_day_state| DayState {
                day: Day(s.day),
                done: s.flags & sys::HC_DAY_DONE != 0,
                skipped: s.flags & sys::HC_DAY_SKIPPED != 0,
                value: s.value,
                entry_count: s.entry_count,
            })
            .collect())
    }

    // ---- streaks

    /// The habit's streaks as of `as_of` (None: today), and all its runs, longest first.
    pub fn streaks(&self, habit_id: i64, as_of: Option<Day>) -> Result<Streaks> {
        let mut result = defaults!(hc_streak_result_init, sys::hc_streak_result);
        let runs = buffer(|out, cap, count| unsafe {
            sys::hc_habit_streaks(&mut result, out, cap, count, self.raw, habit_id, day_or_none(as_of))
        })?;
        Ok(Streaks {
            current: result.current.into(),
            longest: result.longest.into(),
            runs: runs.into_iter().map(Streak::from).collect(),
        })
    }

    /// Loop-compatible habit strength at the end of each day from `first` to `last`.
    pub fn strength(&self, habit_id: i64, first: Day, last: Day) -> Result<Vec<f64>> {
        buffer(|out, cap, count| unsafe { sys::hc_habit_strength(out, cap, count, self.raw, habit_id, first.0, last.0) })
    }

    /// Each day's score across habits from `first` to `last`.
    pub fn day_scores(&self, first: Day, last: Day) -> Result<Vec<DayScore>> {
        let raw = buffer(|out, cap, count| unsafe { sys::hc_store_day_scores(out, cap, count, self.raw, first.0, last.0) })?;
        Ok(raw
            .into_iter()
            .map(|s: sys::hc_day_score| DayScore { day: Day(s.day), due: s.due, done: s.done, excused: s.excused, score: s.score })
            .collect())
    }

    /// How often a habit's occurrences in `first..=last` were kept.
    pub fn completion(&self, habit_id: i64, first: Day, last: Day) -> Result<Completion> {
        let mut c = defaults!(hc_completion_init, sys::hc_completion);
        check(unsafe { sys::hc_habit_completion(&mut c, self.raw, habit_id, first.0, last.0) })?;
        Ok(Completion {
            kept: c.kept,
            judged: c.judged,
            excused: c.excused,
            rate: c.rate,
            current_kept: c.current_kept,
            current_required: c.current_required,
            rate_with_current: c.rate_with_current,
        })
    }

    /// A group's day (None: every habit; day None: today) read both ways, with each
    /// quota habit's period progress.
    pub fn group_day(&self, group: Option<&str>, day: Option<Day>) -> Result<GroupDay> {
        let name = opt_text(group, "group")?;
        let name_ptr = name.as_ref().map_or(ptr::null(), |n| n.as_ptr());
        let day = day_or_none(day);
        let mut out = defaults!(hc_group_day_init, sys::hc_group_day);
        let quota = buffer(|buf, cap, count| unsafe { sys::hc_group_day_rates(&mut out, buf, cap, count, self.raw, name_ptr, day) })?;
        Ok(GroupDay {
            day: Day(out.day),
            due: out.due,
            done: out.done,
            excused: out.excused,
            rate: out.rate,
            quota: quota
                .into_iter()
                .map(|q: sys::hc_quota_progress| QuotaProgress {
                    habit_id: q.habit_id,
                    period_first: Day(q.period_first),
                    done: q.done,
                    required: q.required,
                    met: q.met != 0,
                })
                .collect(),
            all_due: out.all_due,
            all_done: out.all_done,
            all_excused: out.all_excused,
            all_rate: out.all_rate,
        })
    }

    /// Excuses `first..=last` for a habit (0: every habit); returns the vacation's id.
    pub fn add_vacation(&self, habit_id: i64, first: Day, last: Day) -> Result<i64> {
        let mut id = 0;
        check(unsafe { sys::hc_vacation_add(&mut id, self.raw, habit_id, first.0, last.0) })?;
        Ok(id)
    }

    /// The whole store as JSON (`HC_FORMAT_JSON`), docs/FORMATS.md.
    pub fn export_json(&self) -> Result<String> {
        let mut out: *mut c_char = ptr::null_mut();
        check(unsafe { sys::hc_store_export(&mut out, self.raw, sys::HC_FORMAT_JSON) })?;
        let text = unsafe { cstr(out) }.unwrap_or_default();
        unsafe { sys::hc_free(out as *mut c_void) };
        Ok(text)
    }

    /// Imports an export (JSON or JSON Lines), all or nothing.
    pub fn import(&self, text: &str) -> Result<()> {
        let text = c_text(text, "text")?;
        check(unsafe { sys::hc_store_import(self.raw, text.as_ptr(), sys::HC_FORMAT_DETECT) })
    }

    // ---- sync between a person's devices (the transport is the caller's)

    /// What this store has seen (a version vector): give it to a peer's `sync_changes`.
    pub fn sync_state(&self) -> Result<Vec<u8>> {
        buffer(|out, capacity, total| unsafe { sys::hc_sync_state(out, capacity, total, self.raw) })
    }

    /// Every record a peer whose state is `peer_state` lacks, as one changeset (empty: a peer with nothing).
    pub fn sync_changes(&self, peer_state: &[u8]) -> Result<Vec<u8>> {
        let mut out: *mut u8 = ptr::null_mut();
        let mut size = 0i64;
        check(unsafe { sys::hc_sync_changes(&mut out, &mut size, self.raw, peer_state.as_ptr(), peer_state.len() as i64) })?;
        let bytes = if out.is_null() { Vec::new() } else { unsafe { std::slice::from_raw_parts(out, size.max(0) as usize) }.to_vec() };
        unsafe { sys::hc_free(out as *mut c_void) };
        Ok(bytes)
    }

    /// Applies a peer's changeset (in any order, any number of times); a damaged one is
    /// `ErrorKind::Invalid` and writes nothing.
    pub fn sync_apply(&self, changes: &[u8]) -> Result<SyncSummary> {
        let mut out = defaults!(hc_sync_summary_init, sys::hc_sync_summary);
        check(unsafe { sys::hc_sync_apply(&mut out, self.raw, changes.as_ptr(), changes.len() as i64) })?;
        Ok(SyncSummary {
            ops_received: out.ops_received,
            ops_new: out.ops_new,
            ops_applied: out.ops_applied,
            ops_superseded: out.ops_superseded,
            ops_waiting: out.ops_waiting,
            habits_changed: out.habits_changed,
            entries_added: out.entries_added,
            vacations_changed: out.vacations_changed,
            settings_changed: out.settings_changed,
            proofs_changed: out.proofs_changed,
            credits_changed: out.credits_changed,
            ops_forked: out.ops_forked,
        })
    }

    /// Both ways with another store: what `other` lacks of this one, then what this one lacks of it.
    pub fn sync_with(&self, other: &Store) -> Result<(SyncSummary, SyncSummary)> {
        let there = other.sync_apply(&self.sync_changes(&other.sync_state()?)?)?;
        let here = self.sync_apply(&other.sync_changes(&self.sync_state()?)?)?;
        Ok((there, here))
    }

    /// The synced records as text without local ids: equal on replicas that exchanged everything.
    pub fn sync_canonical(&self) -> Result<String> {
        let mut out: *mut c_char = ptr::null_mut();
        check(unsafe { sys::hc_sync_canonical(&mut out, self.raw) })?;
        let text = unsafe { cstr(out) }.unwrap_or_default();
        unsafe { sys::hc_free(out as *mut c_void) };
        Ok(text)
    }

    // ---- credits

    /// Creates a named credit account; returns its id.
    pub fn create_account(&self, name: &str) -> Result<i64> {
        let name = c_text(name, "name")?;
        let mut id = 0;
        check(unsafe { sys::hc_credit_account_create(&mut id, self.raw, name.as_ptr()) })?;
        Ok(id)
    }

    /// The default account's entries from `first` to `last`, in append order.
    pub fn credit_entries(&self, first: Day, last: Day) -> Result<List<CreditEntries>> {
        List::open(|out| unsafe { sys::hc_credit_list_open(out, self.raw, 0, first.0, last.0) })
    }

    /// Reports a day's cumulative step total (None: today); only a higher total earns.
    pub fn sync_steps(&self, steps: i64, day: Option<Day>) -> Result<StepSync> {
        let mut out = defaults!(hc_step_sync_init, sys::hc_step_sync);
        check(unsafe { sys::hc_credit_sync_steps(&mut out, self.raw, 0, day_or_none(day), steps) })?;
        Ok(StepSync { day: Day(out.day), steps: out.steps, earned_now: out.earned_now, day_earned: out.day_earned })
    }

    /// Spends minutes of the default account; ErrorKind::Insufficient when short.
    pub fn spend(&self, minutes: i64, reason: Option<&str>) -> Result<i64> {
        let reason = opt_text(reason, "reason")?;
        let mut id = 0;
        check(unsafe { sys::hc_credit_spend(&mut id, self.raw, 0, minutes, opt_ptr(&reason), 0) })?;
        Ok(id)
    }

    /// The default account's spendable minutes.
    pub fn balance(&self) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::hc_credit_balance(&mut out, self.raw, 0) })?;
        Ok(out)
    }

    // ---- awards and events

    /// Records and lists the awards newly unlocked as of `as_of` (None: today).
    pub fn evaluate_awards(&self, as_of: Option<Day>) -> Result<List<Awards>> {
        List::open(|out| unsafe { sys::hc_award_evaluate(out, self.raw, day_or_none(as_of)) })
    }

    /// Events with id > `after_id`, oldest first, at most `limit` (1..10000); `ack` takes them.
    pub fn events(&self, after_id: i64, limit: i64, ack: bool) -> Result<List<Events>> {
        let flags = if ack { sys::HC_EVENTS_ACK } else { 0 };
        List::open(|out| unsafe { sys::hc_event_list_read(out, self.raw, after_id, limit, flags) })
    }

    // ---- proofs

    /// Registers a closure as verifier `id` on this handle, replacing one of the same id.
    ///
    /// It runs on the thread that submits, while this store is held: a call on this store
    /// from inside it returns `ErrorKind::Misuse` at once (another `Store` on the same file
    /// works). A panic in it becomes an error verdict naming the panic; it never unwinds
    /// through C.
    ///
    /// ```
    /// use habitcore::{Judgement, Outcome, Store};
    /// # let dir = std::env::temp_dir().join(format!("habitcore-doc-verifier-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// let store = Store::open(dir.join("p.db")).unwrap();
    /// let minimum = 8;
    /// store.register_verifier("big-enough", "1.0", move |evidence| Judgement {
    ///     outcome: if evidence.data.len() >= minimum { Outcome::Approved } else { Outcome::Rejected },
    ///     confidence: 0.9,
    ///     reason_code: "size".into(),
    ///     message: format!("{} bytes", evidence.data.len()),
    /// }).unwrap();
    /// store.set_proof_policy(0, &["big-enough"]).unwrap();
    /// let habit = store.create_habit(&habitcore::HabitOptions::new("Stretch")).unwrap();
    /// let result = store.submit_proof(habit.id, b"0123456789", Some("application/octet-stream")).unwrap();
    /// assert_eq!(result.outcome, Outcome::Approved);
    /// assert!(result.entry_id.is_some());
    /// # drop(store); std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn register_verifier<F>(&self, id: &str, version: &str, verify: F) -> Result<()>
    where
        F: Fn(&Evidence) -> Judgement + Send + Sync + 'static,
    {
        let c_id = c_text(id, "verifier id")?;
        let c_version = c_text(version, "version")?;
        let boxed: Box<Box<VerifierFn>> = Box::new(Box::new(verify));
        let user_data = Box::into_raw(boxed) as *mut c_void;
        // The library owns the box from here: it drops it through release_verifier once it
        // is replaced, removed or the store closes (the replaced closure's own release).
        let status = unsafe {
            sys::hc_verifier_register_v2(self.raw, c_id.as_ptr(), c_version.as_ptr(), Some(trampoline), user_data,
                                         Some(release_verifier))
        };
        if status != sys::HC_OK {
            // A refused registration leaves user_data ours.
            drop(unsafe { Box::from_raw(user_data as *mut Box<VerifierFn>) });
        }
        check(status)
    }

    /// Removes verifier `id` from this handle.
    pub fn unregister_verifier(&self, id: &str) -> Result<()> {
        let c_id = c_text(id, "verifier id")?;
        check(unsafe { sys::hc_verifier_register_v2(self.raw, c_id.as_ptr(), c"0".as_ptr(), None, ptr::null_mut(), None) })
    }

    /// Sets the proof policy of a habit (0: the store's) to these verifiers, other fields the library's defaults.
    pub fn set_proof_policy(&self, habit_id: i64, verifiers: &[&str]) -> Result<()> {
        let mut p = defaults!(hc_proof_policy_init, sys::hc_proof_policy);
        let list = c_text(&verifiers.join(","), "verifiers")?;
        p.verifiers = list.as_ptr();
        check(unsafe { sys::hc_proof_policy_set(self.raw, habit_id, &p) })
    }

    /// Submits evidence bytes for a habit. A verdict that is not approved is still `Ok`.
    pub fn submit_proof(&self, habit_id: i64, data: &[u8], media_type: Option<&str>) -> Result<ProofResult> {
        let mut p = defaults!(hc_proof_input_init, sys::hc_proof_input);
        let media_type = opt_text(media_type, "media type")?;
        p.habit_id = habit_id;
        p.bytes = data.as_ptr();
        p.size = data.len() as i64;
        p.media_type = opt_ptr(&media_type);
        let mut out = defaults!(hc_proof_result_init, sys::hc_proof_result);
        check(unsafe { sys::hc_proof_submit(&mut out, self.raw, &p) })?;
        Ok(ProofResult {
            outcome: Outcome::from_raw(out.outcome),
            proof_id: out.proof_id,
            entry_id: (out.entry_id != 0).then_some(out.entry_id),
            confidence: out.confidence,
            reason_code: char_array(&out.reason_code),
            message: char_array(&out.message),
        })
    }

    /// Decides a proof by hand (approve or reject); returns the completion appended, if any.
    pub fn review_proof(&self, proof_id: i64, outcome: Outcome, reviewer: &str, reason: &str) -> Result<Option<i64>> {
        let (reviewer, reason) = (c_text(reviewer, "reviewer")?, c_text(reason, "reason")?);
        let mut entry = 0;
        check(unsafe { sys::hc_proof_review(&mut entry, self.raw, proof_id, outcome.raw(), reviewer.as_ptr(), reason.as_ptr()) })?;
        Ok((entry != 0).then_some(entry))
    }

    /// Recorded verdicts of one proof.
    pub fn verdicts(&self, proof_id: i64) -> Result<List<Verdicts>> {
        List::open(|out| unsafe { sys::hc_verdict_list_open(out, self.raw, 0, proof_id) })
    }

    // ---- reminders

    /// Adds a reminder at local `minute` (0..1439) for a habit; returns the rule's id.
    pub fn add_reminder(&self, habit_id: i64, minute: i32, message: Option<&str>) -> Result<i64> {
        let mut r = defaults!(hc_reminder_rule_init, sys::hc_reminder_rule);
        let message = opt_text(message, "message")?;
        r.habit_id = habit_id;
        r.minute = minute;
        r.message = opt_ptr(&message);
        let mut id = 0;
        check(unsafe { sys::hc_reminder_rule_add(&mut id, self.raw, &r) })?;
        Ok(id)
    }

    /// The rules in force today for a habit (0: all).
    pub fn reminder_rules(&self, habit_id: i64) -> Result<List<ReminderRules>> {
        List::open(|out| unsafe { sys::hc_reminder_rule_list_open(out, self.raw, habit_id, sys::HC_DAY_NONE) })
    }

    /// Reminder instants with from_ms <= at_ms < to_ms (at most 92 days).
    pub fn reminders(&self, from_ms: i64, to_ms: i64) -> Result<List<Reminders>> {
        List::open(|out| unsafe { sys::hc_reminder_list_open(out, self.raw, from_ms, to_ms, 0) })
    }

    /// Records a reminder delivered: true when this call recorded it.
    pub fn reminder_fired(&self, reminder: &Reminder) -> Result<bool> {
        let mut recorded = 0;
        check(unsafe { sys::hc_reminder_fired(&mut recorded, self.raw, reminder.rule_id, reminder.day.0, reminder.at_ms) })?;
        Ok(recorded == 1)
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        if !self.raw.is_null() {
            unsafe { sys::hc_store_close(self.raw) };
        }
    }
}

/// The release function of every registration: the library calls it once, when it will
/// never call the closure again.
unsafe extern "C" fn release_verifier(user_data: *mut c_void) {
    if !user_data.is_null() {
        // A panic in a closure's Drop must not unwind through C.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(user_data as *mut Box<VerifierFn>))));
    }
}

unsafe extern "C" fn trampoline(
    evidence: *const sys::hc_plugin_evidence,
    out: *mut sys::hc_plugin_verdict,
    user_data: *mut c_void,
) -> i32 {
    if evidence.is_null() || out.is_null() || user_data.is_null() {
        return 1;
    }
    let verify = &*(user_data as *const Box<VerifierFn>);
    let e = &*evidence;
    let answer = catch_unwind(AssertUnwindSafe(|| {
        let data = if e.bytes.is_null() || e.size <= 0 {
            Vec::new()
        } else {
            std::slice::from_raw_parts(e.bytes, e.size as usize).to_vec()
        };
        verify(&Evidence {
            data,
            media_type: cstr(e.media_type).unwrap_or_default(),
            sha256: cstr(e.sha256).unwrap_or_default(),
            habit_id: e.habit_id,
            habit_name: cstr(e.habit_name).unwrap_or_default(),
        })
    }));
    let verdict = &mut *out;
    match answer {
        Ok(j) => {
            verdict.outcome = j.outcome.raw();
            verdict.confidence = j.confidence;
            fill_chars(&mut verdict.reason_code, &j.reason_code);
            fill_chars(&mut verdict.message, &j.message);
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            verdict.outcome = sys::HC_OUTCOME_ERROR;
            verdict.confidence = 0.0;
            fill_chars(&mut verdict.reason_code, "rust_panic");
            fill_chars(&mut verdict.message, &format!("the verifier panicked: {what}"));
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every status code the header names has its kind; only codes newer than this crate are Other.
    #[test]
    fn every_header_status_has_its_kind() {
        let kinds = [
            (sys::HC_E_INVALID, ErrorKind::Invalid),
            (sys::HC_E_NOT_FOUND, ErrorKind::NotFound),
            (sys::HC_E_CONFLICT, ErrorKind::Conflict),
            (sys::HC_E_IO, ErrorKind::Io),
            (sys::HC_E_CORRUPT, ErrorKind::Corrupt),
            (sys::HC_E_BUSY, ErrorKind::Busy),
            (sys::HC_E_TOO_NEW, ErrorKind::TooNew),
            (sys::HC_E_MISUSE, ErrorKind::Misuse),
            (sys::HC_E_NOMEM, ErrorKind::NoMemory),
            (sys::HC_E_READONLY, ErrorKind::ReadOnly),
            (sys::HC_E_INTERNAL, ErrorKind::Internal),
            (sys::HC_E_INSUFFICIENT, ErrorKind::Insufficient),
            (sys::HC_E_CANCELLED, ErrorKind::Cancelled),
        ];
        for (code, kind) in kinds {
            assert_eq!(Error { code, message: String::new() }.kind(), kind, "code {code}");
        }
        assert_eq!(Error { code: sys::HC_E_CANCELLED + 1, message: String::new() }.kind(), ErrorKind::Other);
    }
}
