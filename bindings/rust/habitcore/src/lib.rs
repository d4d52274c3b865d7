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
//! - A [`List`] borrows its store: dropping or closing the `Store` while a list lives
//!   does not compile. Its items are `Result`s: an item the library cannot give is an
//!   error, never a silent end of the iteration.
//! - Ids are typed where the header has kinds of id: [`HabitId`], [`EntryId`],
//!   [`ProofId`], [`ShieldRuleId`], ... (`.0` is the C value). "0: every habit" or
//!   "the store's" is `None`.
//! - [`Store::transaction`] gives a [`Transaction`] that rolls back on drop; `commit`
//!   consumes it.
//! - Struct defaults come from the library's `hc_<struct>_init`, never from copies here.
//! - Every header function is wrapped, or waived by name with its reason in
//!   `tests/coverage.rs` (a test fails when the header grows a function the crate
//!   neither wraps nor waives).
//!
//! # Callbacks and panics
//!
//! Verifier callbacks are closures ([`Store::register_verifier`]): a panic in one becomes
//! an error verdict naming the panic. A progress callback ([`Progress`]) that panics
//! cancels its call, and the panic goes on once the call has returned. Neither ever
//! unwinds through C. Both rely on catching the unwind: in a program built with
//! `panic = "abort"` (in its `[profile]`), a panic in a verifier or a progress callback
//! aborts the whole process at once, as any panic there does, and the store is left as
//! SQLite leaves it after a crash: every committed write kept, the call under way not
//! written.
//!
//! Linking: see `habitcore-sys` (`HABITCORE_LIB_DIR`, else `pkg-config`). The crate checks
//! `hc_abi_version()` when a store is opened.

use habitcore_sys as sys;
use std::ffi::{c_char, c_void, CStr, CString};
use std::fmt;
use std::marker::PhantomData;
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

fn c_path(path: &Path) -> Result<CString> {
    use std::os::unix::ffi::OsStrExt;
    c_bytes(path.as_os_str().as_bytes(), "path")
}

/// A string the library allocated, copied and released with hc_free.
fn owned_text(text: *mut c_char) -> String {
    let owned = unsafe { cstr(text) }.unwrap_or_default();
    unsafe { sys::hc_free(text as *mut c_void) };
    owned
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
        let mut value = std::mem::MaybeUninit::<$ty>::zeroed();
        $crate::check(unsafe { $crate::sys::$init(value.as_mut_ptr(), std::mem::size_of::<$ty>() as u32) })?;
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

/// The replicas a sync state (from [`Store::sync_state`]) names, in ascending id order,
/// each with the highest sequence number up to which the store that made it holds
/// every op. `ErrorKind::Invalid` for bytes that are not a sync state.
pub fn sync_state_replicas(state: &[u8]) -> Result<Vec<([u8; 16], i64)>> {
    let call = |ids: *mut u8, seqs: *mut i64, capacity: i64, total: &mut i64| unsafe {
        sys::hc_sync_state_replicas(ids, seqs, capacity, total, state.as_ptr(), state.len() as i64)
    };
    let mut total = 0i64;
    check(call(ptr::null_mut(), ptr::null_mut(), 0, &mut total))?;
    loop {
        let capacity = total.max(0);
        let mut ids = vec![0u8; capacity as usize * 16];
        let mut seqs = vec![0i64; capacity as usize];
        check(call(ids.as_mut_ptr(), seqs.as_mut_ptr(), capacity, &mut total))?;
        if total <= capacity {
            return Ok(ids
                .chunks_exact(16)
                .zip(seqs)
                .take(total as usize)
                .map(|(id, seq)| (id.try_into().unwrap_or([0; 16]), seq))
                .collect());
        }
    }
}

/// The library's version as MAJOR * 1000000 + MINOR * 1000 + PATCH.
pub fn library_version_number() -> i32 {
    unsafe { sys::hc_version_number() }
}

/// Turns off SQLite's memory statistics for the whole process (a widget or extension
/// whose SQLite serves habitcore alone: cold opens run faster). `ErrorKind::Misuse`
/// when SQLite is already initialised in this process.
///
/// # Safety
/// Call it first, before any SQLite use in the process (habitcore's or anything
/// else's), while no other thread uses SQLite: the header's `@thread first` rule,
/// which Rust cannot check.
pub unsafe fn disable_sqlite_statistics() -> Result<()> {
    check(sys::hc_process_disable_sqlite_statistics())
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
           Measurement = sys::HC_KIND_MEASUREMENT, Quit = sys::HC_KIND_QUIT });
c_enum!(/// HC_DIRECTION_*.
    Direction { AtLeast = sys::HC_DIRECTION_AT_LEAST, AtMost = sys::HC_DIRECTION_AT_MOST });
c_enum!(/// HC_ENTRY_*.
    EntryKind { Done = sys::HC_ENTRY_DONE, Amount = sys::HC_ENTRY_AMOUNT, Total = sys::HC_ENTRY_TOTAL,
                Skip = sys::HC_ENTRY_SKIP, Undo = sys::HC_ENTRY_UNDO, Relapse = sys::HC_ENTRY_RELAPSE });
c_enum!(/// HC_QUIT_PERIOD_*: the allowance period of a quit habit.
    QuitPeriod { Day = sys::HC_QUIT_PERIOD_DAY, Week = sys::HC_QUIT_PERIOD_WEEK, Month = sys::HC_QUIT_PERIOD_MONTH });
c_enum!(/// HC_TIMER_ACTION_*: what a timer event does.
    TimerAction { Start = sys::HC_TIMER_ACTION_START, Pause = sys::HC_TIMER_ACTION_PAUSE, Resume = sys::HC_TIMER_ACTION_RESUME,
                  Stop = sys::HC_TIMER_ACTION_STOP, Discard = sys::HC_TIMER_ACTION_DISCARD });
c_enum!(/// HC_TIMER_*: where a timer stands.
    TimerState { Running = sys::HC_TIMER_RUNNING, Paused = sys::HC_TIMER_PAUSED, Stopped = sys::HC_TIMER_STOPPED,
                 Discarded = sys::HC_TIMER_DISCARDED });
c_enum!(/// HC_OUTCOME_*.
    Outcome { Approved = sys::HC_OUTCOME_APPROVED, Rejected = sys::HC_OUTCOME_REJECTED,
              NeedsReview = sys::HC_OUTCOME_NEEDS_REVIEW, Error = sys::HC_OUTCOME_ERROR });
c_enum!(/// HC_EVENT_*.
    EventKind { AwardUnlocked = sys::HC_EVENT_AWARD_UNLOCKED, StreakMilestone = sys::HC_EVENT_STREAK_MILESTONE,
                TargetReached = sys::HC_EVENT_TARGET_REACHED, ProofVerdict = sys::HC_EVENT_PROOF_VERDICT });
c_enum!(/// HC_SOURCE_*: where an entry came from.
    Source { Manual = sys::HC_SOURCE_MANUAL, Import = sys::HC_SOURCE_IMPORT, Health = sys::HC_SOURCE_HEALTH,
             Proof = sys::HC_SOURCE_PROOF });
c_enum!(/// HC_STAGE_*: who gave a verdict.
    Stage { Verifier = sys::HC_STAGE_VERIFIER, Decision = sys::HC_STAGE_DECISION, Review = sys::HC_STAGE_REVIEW });
c_enum!(/// HC_POLICY_ALL / HC_POLICY_ANY: how a proof policy combines its verifiers.
    PolicyMode { All = sys::HC_POLICY_ALL, Any = sys::HC_POLICY_ANY });
c_enum!(/// HC_METRIC_*: what an award counts.
    Metric { CurrentStreak = sys::HC_METRIC_CURRENT_STREAK, LongestStreak = sys::HC_METRIC_LONGEST_STREAK,
             TotalCompletions = sys::HC_METRIC_TOTAL_COMPLETIONS, PerfectDays = sys::HC_METRIC_PERFECT_DAYS,
             ActiveDayStreak = sys::HC_METRIC_ACTIVE_DAY_STREAK, VerifiedProofs = sys::HC_METRIC_VERIFIED_PROOFS,
             HabitsCreated = sys::HC_METRIC_HABITS_CREATED, CreditsEarned = sys::HC_METRIC_CREDITS_EARNED,
             ReferralsRedeemed = sys::HC_METRIC_REFERRALS_REDEEMED, ActiveHabits = sys::HC_METRIC_ACTIVE_HABITS });
c_enum!(/// HC_SCOPE_*: which habits an award looks at.
    Scope { Habit = sys::HC_SCOPE_HABIT, Any = sys::HC_SCOPE_ANY, All = sys::HC_SCOPE_ALL });
c_enum!(/// HC_CAUSE_*: what wrote a credit entry.
    CreditCause { Steps = sys::HC_CAUSE_STEPS, HabitEntry = sys::HC_CAUSE_HABIT_ENTRY, Session = sys::HC_CAUSE_SESSION,
                  Manual = sys::HC_CAUSE_MANUAL, Expiry = sys::HC_CAUSE_EXPIRY });
c_enum!(/// HC_ROUTINE_*: when in the day a habit is done.
    Routine { Anytime = sys::HC_ROUTINE_ANYTIME, Morning = sys::HC_ROUTINE_MORNING, Day = sys::HC_ROUTINE_DAY,
              Evening = sys::HC_ROUTINE_EVENING });
c_enum!(/// HC_QUIET_*: what quiet hours do to a reminder.
    Quiet { Defer = sys::HC_QUIET_DEFER, Drop = sys::HC_QUIET_DROP });
c_enum!(/// HC_FORMAT_*: the export formats (`Detect` on import only).
    Format { Json = sys::HC_FORMAT_JSON, Jsonl = sys::HC_FORMAT_JSONL, Detect = sys::HC_FORMAT_DETECT });
c_enum!(/// HC_STREAK_UNIT_*: what a streak counts.
    StreakUnit { Days = sys::HC_STREAK_UNIT_DAYS, Weeks = sys::HC_STREAK_UNIT_WEEKS, Months = sys::HC_STREAK_UNIT_MONTHS,
                 Periods = sys::HC_STREAK_UNIT_PERIODS });
c_enum!(/// HC_OPEN_DAY_*: what the open occurrence does to a streak.
    OpenDay { Previous = sys::HC_OPEN_DAY_PREVIOUS, Zero = sys::HC_OPEN_DAY_ZERO });
c_enum!(/// HC_OFF_DAYS_*: what a day with nothing due does to the perfect-day streak.
    OffDays { Skip = sys::HC_OFF_DAYS_SKIP, Break = sys::HC_OFF_DAYS_BREAK });
c_enum!(/// HC_DUE_*: where a due habit stands on its day.
    DueState { Pending = sys::HC_DUE_PENDING, Done = sys::HC_DUE_DONE, Excused = sys::HC_DUE_EXCUSED });
c_enum!(/// HC_EXPIRY_*: when unspent credits expire.
    Expiry { EndOfDay = sys::HC_EXPIRY_END_OF_DAY, CarryOver = sys::HC_EXPIRY_CARRY_OVER });
c_enum!(/// HC_PLUGIN_*: how a plugin runs.
    PluginKind { SharedObject = sys::HC_PLUGIN_SHARED_OBJECT, Executable = sys::HC_PLUGIN_EXECUTABLE,
                 SharedObjectInProcess = sys::HC_PLUGIN_SHARED_OBJECT_IN_PROCESS });
c_enum!(/// HC_SHIELD_LIFT_*: which completions lift a shield.
    ShieldLift { All = sys::HC_SHIELD_LIFT_ALL, Any = sys::HC_SHIELD_LIFT_ANY });
c_enum!(/// HC_SHIELD_BUDGET_*: the period emergency unlocks are counted over.
    ShieldBudget { Unlimited = sys::HC_SHIELD_BUDGET_UNLIMITED, Week = sys::HC_SHIELD_BUDGET_WEEK,
                   Month = sys::HC_SHIELD_BUDGET_MONTH });
c_enum!(/// HC_SHIELD_*: why a rule is (not) shielded.
    ShieldReason { WindowOpen = sys::HC_SHIELD_WINDOW_OPEN, UntilDone = sys::HC_SHIELD_UNTIL_DONE,
                   OutsideWindow = sys::HC_SHIELD_OUTSIDE_WINDOW, Completed = sys::HC_SHIELD_COMPLETED,
                   Session = sys::HC_SHIELD_SESSION, Emergency = sys::HC_SHIELD_EMERGENCY,
                   CutoffPassed = sys::HC_SHIELD_CUTOFF_PASSED, Excused = sys::HC_SHIELD_EXCUSED,
                   NotInEffect = sys::HC_SHIELD_NOT_IN_EFFECT });
c_enum!(/// HC_SHIELD_CAUSE_*: what flipped a shield.
    ShieldCause { WindowStart = sys::HC_SHIELD_CAUSE_WINDOW_START, Cutoff = sys::HC_SHIELD_CAUSE_CUTOFF,
                  Completion = sys::HC_SHIELD_CAUSE_COMPLETION, SessionStart = sys::HC_SHIELD_CAUSE_SESSION_START,
                  SessionEnd = sys::HC_SHIELD_CAUSE_SESSION_END, EmergencyStart = sys::HC_SHIELD_CAUSE_EMERGENCY_START,
                  EmergencyEnd = sys::HC_SHIELD_CAUSE_EMERGENCY_END, Excused = sys::HC_SHIELD_CAUSE_EXCUSED,
                  RuleChange = sys::HC_SHIELD_CAUSE_RULE_CHANGE, DayEnd = sys::HC_SHIELD_CAUSE_DAY_END });

// ---- ids ---------------------------------------------------------------------------------------------------

macro_rules! ids {
    ($($(#[$doc:meta])* $name:ident;)+) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(transparent)]
        pub struct $name(pub i64);
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }
    )+};
}

ids! {
    /// A habit's id (`hc_habit.id`): stable, never reused.
    HabitId;
    /// A ledger entry's id (`hc_entry.id`), increasing in append order.
    EntryId;
    /// A vacation's id.
    VacationId;
    /// A credit account's id; [`AccountId::DEFAULT`] is the default account.
    AccountId;
    /// A credit ledger entry's id (`hc_credit_entry.id`).
    CreditEntryId;
    /// A credit rule's id (`hc_credit_rule.id`).
    CreditRuleId;
    /// An unlock session's id (`hc_unlock_state.session_id`).
    SessionId;
    /// A redeemed referral's id.
    ReferralId;
    /// An event's id: a reader's cursor.
    EventId;
    /// A proof's id.
    ProofId;
    /// A recorded verdict's id.
    VerdictId;
    /// A reminder rule's id.
    ReminderRuleId;
    /// A shield rule's id.
    ShieldRuleId;
    /// An emergency unlock's id.
    EmergencyUnlockId;
    /// A timer's id: its start's (`hc_timer_start`).
    TimerId;
}

impl AccountId {
    /// HC_ACCOUNT_DEFAULT: the account every store has.
    pub const DEFAULT: AccountId = AccountId(sys::HC_ACCOUNT_DEFAULT as i64);
}

/// 0 (the header's "none") as None.
fn nonzero<T>(raw: i64, id: fn(i64) -> T) -> Option<T> {
    (raw != 0).then(|| id(raw))
}

/// None as 0, the header's "every habit" or "the store's".
fn habit_or_zero(habit: Option<HabitId>) -> i64 {
    habit.map_or(0, |h| h.0)
}

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
    routine: Option<Routine>,
    group: Option<String>,
    proof_required: bool,
}

/// A change to a habit's effective-dated settings (hc_habit_update_from): each field
/// set changes from the day given on; the days before keep their versions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SettingsChange {
    /// Target and direction.
    pub target: Option<(f64, Direction)>,
    pub schedule: Option<String>,
    /// Some(None) leaves the group.
    pub group: Option<Option<String>>,
    pub proof_required: Option<bool>,
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
    pub fn routine(mut self, routine: Routine) -> Self {
        self.routine = Some(routine);
        self
    }
    /// The group ("system") it belongs to.
    pub fn group(mut self, group: &str) -> Self {
        self.group = Some(group.into());
        self
    }
    /// Completions need an accepted proof.
    pub fn proof_required(mut self, required: bool) -> Self {
        self.proof_required = required;
        self
    }
}

/// A change to a habit (hc_habit_update): each field set changes; the effective-dated
/// ones (target, schedule, group, proof) from today on, the days before keep their
/// versions ([`Store::update_settings_from`] changes them from an earlier day).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HabitChange {
    pub name: Option<String>,
    /// Target and direction.
    pub target: Option<(f64, Direction)>,
    /// Some(None) leaves the group.
    pub group: Option<Option<String>>,
    /// Some(None) clears the unit.
    pub unit: Option<Option<String>>,
    pub routine: Option<Routine>,
    pub proof_required: Option<bool>,
    pub schedule: Option<String>,
    pub start: Option<Day>,
    /// Some(None) clears it.
    pub description: Option<Option<String>>,
    pub question: Option<Option<String>>,
    pub colour: Option<Option<String>>,
    pub icon: Option<Option<String>>,
    pub position: Option<i64>,
}

/// A habit as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Habit {
    pub id: HabitId,
    pub name: String,
    pub kind: Kind,
    pub target: f64,
    pub direction: Direction,
    pub unit: Option<String>,
    pub schedule: String,
    pub start: Day,
    pub archived: Option<Day>,
    pub display: Display,
    /// When in the day it is done.
    pub routine: Routine,
    /// The group ("system") it belongs to today.
    pub group: Option<String>,
    /// Whether a completion needs an accepted proof (today's version).
    pub proof_required: bool,
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
        id: HabitId(h.id),
        name: cstr(h.name).unwrap_or_default(),
        routine: Routine::from_raw(h.routine),
        group: cstr(h.group_name),
        proof_required: h.proof_required != 0,
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
    pub id: EntryId,
    pub habit_id: HabitId,
    pub kind: EntryKind,
    pub day: Day,
    pub value: f64,
    pub undoes: Option<EntryId>,
    pub undone_by: Option<EntryId>,
    pub note: Option<String>,
    pub source: Source,
    /// When it happened (UTC ms).
    pub recorded_at_ms: i64,
}

/// An entry to append ([`Store::append_entry`]); [`Store::append`] is the short form.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEntry {
    habit: HabitId,
    kind: EntryKind,
    value: f64,
    day: Option<Day>,
    at_ms: Option<i64>,
    source: Option<Source>,
    note: Option<String>,
    key: Option<String>,
}

impl NewEntry {
    /// An entry of `kind` for `habit`, value 0, counting for the day it happens on.
    pub fn new(habit: HabitId, kind: EntryKind) -> Self {
        NewEntry { habit, kind, value: 0.0, day: None, at_ms: None, source: None, note: None, key: None }
    }
    pub fn value(mut self, value: f64) -> Self {
        self.value = value;
        self
    }
    /// The local day it counts for (else the day `at_ms` falls on).
    pub fn day(mut self, day: Day) -> Self {
        self.day = Some(day);
        self
    }
    /// When it happened (UTC ms; else now).
    pub fn at_ms(mut self, at_ms: i64) -> Self {
        self.at_ms = Some(at_ms);
        self
    }
    pub fn source(mut self, source: Source) -> Self {
        self.source = Some(source);
        self
    }
    pub fn note(mut self, note: &str) -> Self {
        self.note = Some(note.into());
        self
    }
    /// A retry key: appending again with the same key appends nothing and gives the
    /// first entry's id, so a caller unsure whether a call went through can repeat it.
    pub fn key(mut self, key: &str) -> Self {
        self.key = Some(key.into());
        self
    }
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

impl From<sys::hc_day_state> for DayState {
    fn from(s: sys::hc_day_state) -> Self {
        DayState {
            day: Day(s.day),
            done: s.flags & sys::HC_DAY_DONE != 0,
            skipped: s.flags & sys::HC_DAY_SKIPPED != 0,
            value: s.value,
            entry_count: s.entry_count,
        }
    }
}

impl From<&DayState> for sys::hc_day_state {
    fn from(s: &DayState) -> Self {
        let mut flags = 0;
        if s.done {
            flags |= sys::HC_DAY_DONE;
        }
        if s.skipped {
            flags |= sys::HC_DAY_SKIPPED;
        }
        if s.entry_count > 0 {
            flags |= sys::HC_DAY_HAS_ENTRIES;
        }
        sys::hc_day_state { day: s.day.0, flags, value: s.value, entry_count: s.entry_count, reserved: 0 }
    }
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
    /// What the streaks count (the schedule in force at as_of).
    pub unit: StreakUnit,
    /// Misses the streak policy's allowance forgave in the current and the longest streak.
    pub current_forgiven: i32,
    pub longest_forgiven: i32,
}

impl Streaks {
    fn from_raw(result: &sys::hc_streak_result, runs: Vec<sys::hc_streak>) -> Streaks {
        Streaks {
            current: result.current.into(),
            longest: result.longest.into(),
            runs: runs.into_iter().map(Streak::from).collect(),
            unit: StreakUnit::from_raw(result.unit),
            current_forgiven: result.current_forgiven,
            longest_forgiven: result.longest_forgiven,
        }
    }
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

impl From<sys::hc_completion> for Completion {
    fn from(c: sys::hc_completion) -> Self {
        Completion {
            kept: c.kept,
            judged: c.judged,
            excused: c.excused,
            rate: c.rate,
            current_kept: c.current_kept,
            current_required: c.current_required,
            rate_with_current: c.rate_with_current,
        }
    }
}

/// A quota habit's period holding a day, as of that day (1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaProgress {
    pub habit_id: HabitId,
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
    pub id: CreditEntryId,
    pub account_id: AccountId,
    /// HC_CREDIT_* (1 earn, 2 spend, 3 adjust, 4 expire, 5 refund).
    pub kind: i32,
    pub minutes: i64,
    pub day: Day,
    pub reason: Option<String>,
    pub cause: CreditCause,
    /// What caused it (an entry, a session), when anything.
    pub cause_id: Option<i64>,
    pub habit_id: Option<HabitId>,
    /// HC_CAUSE_STEPS: the reported total.
    pub steps: i64,
    pub at_ms: i64,
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
    pub description: Option<String>,
    pub icon: Option<String>,
    pub tier: i32,
    pub metric: Metric,
    pub scope: Scope,
    /// HC_SCOPE_HABIT: the habit.
    pub habit_id: Option<HabitId>,
    /// The day the threshold was crossed, once unlocked.
    pub unlocked_day: Option<Day>,
}

/// Something to tell the user about.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: EventId,
    pub kind: EventKind,
    pub day: Day,
    pub habit_id: Option<HabitId>,
    pub entry_id: Option<EntryId>,
    pub value: f64,
    pub award_id: Option<String>,
    /// When the entry that caused it was recorded (UTC ms).
    pub at_ms: i64,
    /// Whether a reader acknowledged it.
    pub acknowledged: bool,
}

/// A reminder rule in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderRule {
    pub id: ReminderRuleId,
    pub habit_id: HabitId,
    pub minute: i32,
    pub message: Option<String>,
    /// Bits, 1 << 0 = Sunday ... 1 << 6 = Saturday; 0: every due day.
    pub weekdays: i32,
    pub quiet: Quiet,
    /// The first day of the version in force.
    pub from: Day,
}

/// One reminder instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub rule_id: ReminderRuleId,
    pub habit_id: HabitId,
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
    pub habit_id: HabitId,
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
    pub proof_id: ProofId,
    pub entry_id: Option<EntryId>,
    pub confidence: f64,
    pub reason_code: String,
    pub message: String,
}

/// How proofs are judged; fields left unset keep the library's defaults (all verifiers
/// must approve, thresholds 0.80 and 0.50, no window, one approved proof per day).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProofPolicy {
    /// Verifier ids, run in order (none: every proof needs review).
    pub verifiers: Vec<String>,
    pub mode: Option<PolicyMode>,
    /// (approve, review): an approval at or above `approve` approves, one between goes to review.
    pub thresholds: Option<(f64, f64)>,
    /// Local minutes `[start, end)` a proof must be received in (may wrap past midnight).
    pub window: Option<(i32, i32)>,
    pub one_per_day: Option<bool>,
}

impl<const N: usize> From<&[&str; N]> for ProofPolicy {
    fn from(verifiers: &[&str; N]) -> Self {
        ProofPolicy::from(&verifiers[..])
    }
}

impl From<&[&str]> for ProofPolicy {
    fn from(verifiers: &[&str]) -> Self {
        ProofPolicy { verifiers: verifiers.iter().map(|v| v.to_string()).collect(), ..ProofPolicy::default() }
    }
}

/// A verdict as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub id: VerdictId,
    pub proof_id: ProofId,
    pub habit_id: HabitId,
    pub stage: Stage,
    pub outcome: Outcome,
    pub confidence: f64,
    /// The proof's day.
    pub day: Day,
    pub at_ms: i64,
    pub duration_us: i64,
    /// The completion a decision or review appended.
    pub entry_id: Option<EntryId>,
    pub verifier_id: Option<String>,
    pub verifier_version: Option<String>,
    pub reason_code: Option<String>,
    pub message: Option<String>,
    /// Comma-separated.
    pub signals: Option<String>,
    /// Reviews only.
    pub reviewer: Option<String>,
    /// The evidence's SHA-256.
    pub sha256: Option<String>,
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
///
/// A list borrows the store it came from (`'s`), so the store cannot be dropped or
/// closed while the list lives:
///
/// ```compile_fail,E0505
/// # let dir = std::env::temp_dir().join(format!("habitcore-doc-borrow-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let store = habitcore::Store::open(dir.join("borrow.db")).unwrap();
/// let habits = store.habits(false).unwrap();
/// drop(store); // error[E0505]: cannot move out of `store` because it is borrowed
/// for habit in habits {
///     println!("{}", habit.unwrap().name);
/// }
/// ```
///
/// ```compile_fail,E0505
/// # let dir = std::env::temp_dir().join(format!("habitcore-doc-borrow-close-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let store = habitcore::Store::open(dir.join("borrow.db")).unwrap();
/// let entries = store.entries(None, habitcore::Day(0), habitcore::Day(10)).unwrap();
/// store.close().unwrap(); // error[E0505]: cannot move out of `store` because it is borrowed
/// assert_eq!(entries.count(), 0);
/// ```
///
/// Items are `Result`s: an item the library cannot give is its error, in its place,
/// never a silent end; the count stays exact. `collect::<Result<Vec<_>>>()` gathers them.
pub struct List<'s, K: ListKind> {
    raw: *mut K::Raw,
    index: i64,
    count: i64,
    _store: PhantomData<&'s Store>,
    _kind: PhantomData<K>,
}

impl<'s, K: ListKind> List<'s, K> {
    fn open(_store: &'s Store, open: impl FnOnce(*mut *mut K::Raw) -> i32) -> Result<Self> {
        let mut raw = ptr::null_mut();
        check(open(&mut raw))?;
        let mut list = List { raw, index: 0, count: 0, _store: PhantomData, _kind: PhantomData };
        check(unsafe { K::count(list.raw, &mut list.count) })?;
        Ok(list)
    }
}

impl<K: ListKind> Iterator for List<'_, K> {
    type Item = Result<K::Item>;
    fn next(&mut self) -> Option<Result<K::Item>> {
        if self.index >= self.count {
            return None;
        }
        let mut item = ptr::null();
        let status = unsafe { K::get(self.raw, self.index, &mut item) };
        // Every index yields one item, read or not, so the length stays exact.
        self.index += 1;
        if status != sys::HC_OK || item.is_null() {
            let missing = || Err(Error { code: sys::HC_E_INTERNAL, message: format!("the list gave no item {}", self.index - 1) });
            return Some(check(status).and_then(|()| missing()));
        }
        Some(Ok(unsafe { K::convert(&*item) }))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.count - self.index).max(0) as usize;
        (left, Some(left))
    }
}

impl<K: ListKind> ExactSizeIterator for List<'_, K> {}

impl<K: ListKind> Drop for List<'_, K> {
    fn drop(&mut self) {
        unsafe { K::free(self.raw) };
    }
}

impl<K: ListKind> fmt::Debug for List<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("List")
            .field("kind", &std::any::type_name::<K>())
            .field("handle", &self.raw)
            .field("index", &self.index)
            .field("count", &self.count)
            .finish()
    }
}

macro_rules! list_kind {
    ($(#[$doc:meta])* $kind:ident, $item:ty, $raw:ty, $native:ty, $count:ident, $get:ident, $free:ident, |$x:ident| $convert:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
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
    |e| Entry { id: EntryId(e.id), habit_id: HabitId(e.habit_id), kind: EntryKind::from_raw(e.kind), day: Day(e.day),
                value: e.value, undoes: nonzero(e.undoes, EntryId), undone_by: nonzero(e.undone_by, EntryId),
                note: cstr(e.note), source: Source::from_raw(e.source), recorded_at_ms: e.recorded_at_ms });
list_kind!(/// Credit entries.
    CreditEntries, CreditEntry, sys::hc_credit_list, sys::hc_credit_entry, hc_credit_list_count, hc_credit_list_get,
    hc_credit_list_free,
    |e| CreditEntry { id: CreditEntryId(e.id), account_id: AccountId(e.account_id), kind: e.kind, minutes: e.minutes,
                      day: Day(e.day), reason: cstr(e.reason), cause: CreditCause::from_raw(e.cause), cause_id: nonzero(e.cause_id, |c| c),
                      habit_id: nonzero(e.habit_id, HabitId), steps: e.steps, at_ms: e.at_ms });
list_kind!(/// Awards.
    Awards, Award, sys::hc_award_list, sys::hc_award, hc_award_list_count, hc_award_list_get, hc_award_list_free,
    |a| Award { id: cstr(a.id).unwrap_or_default(), title: cstr(a.title).unwrap_or_default(), threshold: a.threshold,
                value: a.value, unlocked: a.unlocked != 0, description: cstr(a.description), icon: cstr(a.icon),
                tier: a.tier, metric: Metric::from_raw(a.metric), scope: Scope::from_raw(a.scope), habit_id: nonzero(a.habit_id, HabitId),
                unlocked_day: (a.unlocked_day != sys::HC_DAY_NONE).then_some(Day(a.unlocked_day)) });
list_kind!(/// Events.
    Events, Event, sys::hc_event_list, sys::hc_event, hc_event_list_count, hc_event_list_get, hc_event_list_free,
    |e| Event { id: EventId(e.id), kind: EventKind::from_raw(e.kind), day: Day(e.day), habit_id: nonzero(e.habit_id, HabitId),
                entry_id: nonzero(e.entry_id, EntryId), value: e.value, award_id: cstr(e.award_id), at_ms: e.at_ms,
                acknowledged: e.acknowledged != 0 });
list_kind!(/// Verdicts.
    Verdicts, Verdict, sys::hc_verdict_list, sys::hc_verdict, hc_verdict_list_count, hc_verdict_list_get,
    hc_verdict_list_free,
    |v| Verdict { id: VerdictId(v.id), proof_id: ProofId(v.proof_id), habit_id: HabitId(v.habit_id),
                  stage: Stage::from_raw(v.stage), outcome: Outcome::from_raw(v.outcome), confidence: v.confidence,
                  day: Day(v.day), at_ms: v.at_ms, duration_us: v.duration_us, entry_id: nonzero(v.entry_id, EntryId),
                  verifier_id: cstr(v.verifier_id), verifier_version: cstr(v.verifier_version),
                  reason_code: cstr(v.reason_code), message: cstr(v.message), signals: cstr(v.signals),
                  reviewer: cstr(v.reviewer), sha256: cstr(v.sha256) });
list_kind!(/// Reminder rules.
    ReminderRules, ReminderRule, sys::hc_reminder_rule_list, sys::hc_reminder_rule, hc_reminder_rule_list_count,
    hc_reminder_rule_list_get, hc_reminder_rule_list_free,
    |r| ReminderRule { id: ReminderRuleId(r.id), habit_id: HabitId(r.habit_id), minute: r.minute, message: cstr(r.message),
                       weekdays: r.weekdays, quiet: Quiet::from_raw(r.quiet), from: Day(r.from_day) });
list_kind!(/// Reminder instants.
    Reminders, Reminder, sys::hc_reminder_list, sys::hc_reminder, hc_reminder_list_count, hc_reminder_list_get,
    hc_reminder_list_free,
    |r| Reminder { rule_id: ReminderRuleId(r.rule_id), habit_id: HabitId(r.habit_id), day: Day(r.day), at_ms: r.at_ms,
                   local_minute: r.local_minute, fired: r.fired != 0, message: cstr(r.message) });

// ---- the store ---------------------------------------------------------------------------------------------

type VerifierFn = dyn Fn(&Evidence) -> Judgement + Send + Sync + 'static;

/// An open store (`hc_store`): closed on `Drop`.
///
/// `Send + Sync`: the header lets several threads share one handle and serialises the
/// calls. An explicit transaction belongs to the handle, not to a thread, so
/// [`Store::transaction`] takes `&mut self`: while it is open no other thread can reach
/// this handle (give each thread its own `Store` when threads use transactions).
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

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store").field("handle", &self.raw).finish()
    }
}

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
        let group = opt_text(options.group.as_deref(), "group")?;
        o.group_name = opt_ptr(&group);
        o.proof_required = options.proof_required as i32;
        if let Some(routine) = options.routine {
            o.routine = routine.raw();
        }
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
        self.habit(HabitId(id))
    }

    /// The habit with this id, active or archived.
    pub fn habit(&self, id: HabitId) -> Result<Habit> {
        let mut out = ptr::null_mut();
        check(unsafe { sys::hc_habit_get(&mut out, self.raw, id.0) })?;
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
    pub fn archive_habit(&self, id: HabitId, archived: bool) -> Result<()> {
        check(unsafe { sys::hc_habit_archive(self.raw, id.0, archived as i32) })
    }

    /// Archives or restores a habit from `from` on (None: today; a stretch archived and
    /// then restored is excused). Returns the days re-judged, None when none.
    pub fn archive_habit_from(&self, id: HabitId, archived: bool, from: Option<Day>) -> Result<Option<(Day, Day)>> {
        let (mut first, mut last) = (0, 0);
        check(unsafe { sys::hc_habit_archive_from(self.raw, id.0, archived as i32, day_or_none(from), &mut first, &mut last) })?;
        Ok((first != sys::HC_DAY_NONE).then_some((Day(first), Day(last))))
    }

    /// Changes the fields `change` sets; see [`HabitChange`] for when each applies.
    pub fn update_habit(&self, id: HabitId, change: &HabitChange) -> Result<()> {
        let mut o = defaults!(hc_habit_options_init, sys::hc_habit_options);
        let mut fields = 0u32;
        // Every text the call reads, kept alive until it returns.
        let text = |value: &Option<Option<String>>, what: &str| opt_text(value.clone().flatten().as_deref(), what);
        let name = opt_text(change.name.as_deref(), "name")?;
        let group = text(&change.group, "group")?;
        let unit = text(&change.unit, "unit")?;
        let schedule = opt_text(change.schedule.as_deref(), "schedule")?;
        let description = text(&change.description, "description")?;
        let question = text(&change.question, "question")?;
        let colour = text(&change.colour, "colour")?;
        let icon = text(&change.icon, "icon")?;
        let strings = [
            (change.name.is_some(), &name, &mut o.name, sys::HC_HABIT_FIELD_NAME),
            (change.group.is_some(), &group, &mut o.group_name, sys::HC_HABIT_FIELD_GROUP),
            (change.unit.is_some(), &unit, &mut o.unit, sys::HC_HABIT_FIELD_UNIT),
            (change.schedule.is_some(), &schedule, &mut o.schedule, sys::HC_HABIT_FIELD_SCHEDULE),
            (change.description.is_some(), &description, &mut o.description, sys::HC_HABIT_FIELD_DESCRIPTION),
            (change.question.is_some(), &question, &mut o.question, sys::HC_HABIT_FIELD_QUESTION),
            (change.colour.is_some(), &colour, &mut o.colour, sys::HC_HABIT_FIELD_COLOUR),
            (change.icon.is_some(), &icon, &mut o.icon, sys::HC_HABIT_FIELD_ICON),
        ];
        for (set, value, slot, bit) in strings {
            if set {
                *slot = opt_ptr(value);
                fields |= bit;
            }
        }
        if let Some((target, direction)) = change.target {
            o.target = target;
            o.direction = direction.raw();
            fields |= sys::HC_HABIT_FIELD_TARGET;
        }
        if let Some(routine) = change.routine {
            o.routine = routine.raw();
            fields |= sys::HC_HABIT_FIELD_ROUTINE;
        }
        if let Some(proof) = change.proof_required {
            o.proof_required = proof as i32;
            fields |= sys::HC_HABIT_FIELD_PROOF;
        }
        if let Some(start) = change.start {
            o.start_day = start.0;
            fields |= sys::HC_HABIT_FIELD_START_DAY;
        }
        if let Some(position) = change.position {
            o.position = position;
            fields |= sys::HC_HABIT_FIELD_POSITION;
        }
        check(unsafe { sys::hc_habit_update(self.raw, id.0, &o, fields) })
    }

    /// Changes a habit's effective-dated settings from `from` on (None: today; never a
    /// later day). Returns the days re-judged (from that day through today), None when
    /// nothing that judges a day changed; their completion credits follow.
    pub fn update_settings_from(&self, id: HabitId, change: &SettingsChange, from: Option<Day>) -> Result<Option<(Day, Day)>> {
        let mut o = defaults!(hc_habit_options_init, sys::hc_habit_options);
        let mut fields = 0u32;
        if let Some((target, direction)) = change.target {
            o.target = target;
            o.direction = direction.raw();
            fields |= sys::HC_HABIT_FIELD_TARGET;
        }
        let schedule = opt_text(change.schedule.as_deref(), "schedule")?;
        if change.schedule.is_some() {
            o.schedule = opt_ptr(&schedule);
            fields |= sys::HC_HABIT_FIELD_SCHEDULE;
        }
        let group = opt_text(change.group.clone().flatten().as_deref(), "group")?;
        if change.group.is_some() {
            o.group_name = opt_ptr(&group);
            fields |= sys::HC_HABIT_FIELD_GROUP;
        }
        if let Some(proof) = change.proof_required {
            o.proof_required = proof as i32;
            fields |= sys::HC_HABIT_FIELD_PROOF;
        }
        let (mut first, mut last) = (0, 0);
        check(unsafe { sys::hc_habit_update_from(self.raw, id.0, &o, fields, day_or_none(from), &mut first, &mut last) })?;
        Ok((first != sys::HC_DAY_NONE).then_some((Day(first), Day(last))))
    }

    /// The habits by id.
    pub fn habits(&self, include_archived: bool) -> Result<List<'_, Habits>> {
        let flags = if include_archived { sys::HC_LIST_INCLUDE_ARCHIVED } else { 0 };
        List::open(self, |out| unsafe { sys::hc_habit_list_open(out, self.raw, flags) })
    }

    // ---- ledger

    /// Appends an entry for `day` (None: from now); returns its id.
    pub fn append(&self, habit_id: HabitId, kind: EntryKind, value: f64, day: Option<Day>) -> Result<EntryId> {
        let mut entry = NewEntry::new(habit_id, kind).value(value);
        entry.day = day;
        self.append_entry(&entry)
    }

    /// Appends an entry with every field the header takes; returns its id (the first
    /// entry's, for a retry key used before).
    pub fn append_entry(&self, entry: &NewEntry) -> Result<EntryId> {
        let mut e = defaults!(hc_entry_input_init, sys::hc_entry_input);
        let note = opt_text(entry.note.as_deref(), "note")?;
        let key = opt_text(entry.key.as_deref(), "key")?;
        e.habit_id = entry.habit.0;
        e.kind = entry.kind.raw();
        e.value = entry.value;
        e.day = day_or_none(entry.day);
        e.at_ms = entry.at_ms.unwrap_or(0);
        if let Some(source) = entry.source {
            e.source = source.raw();
        }
        e.note = opt_ptr(&note);
        e.key = opt_ptr(&key);
        let mut id = 0;
        check(unsafe { sys::hc_entry_append(&mut id, self.raw, &e) })?;
        Ok(EntryId(id))
    }

    /// Cancels an entry; returns the undo's id.
    pub fn undo(&self, entry_id: EntryId) -> Result<EntryId> {
        let mut id = 0;
        check(unsafe { sys::hc_entry_undo(&mut id, self.raw, entry_id.0) })?;
        Ok(EntryId(id))
    }

    /// Cancels the most recent standing entry of a habit on `day` (None: today); returns
    /// the undo's id. `ErrorKind::NotFound` when none stands.
    pub fn undo_last(&self, habit_id: HabitId, day: Option<Day>) -> Result<EntryId> {
        let mut id = 0;
        check(unsafe { sys::hc_entry_undo_last(&mut id, self.raw, habit_id.0, day_or_none(day)) })?;
        Ok(EntryId(id))
    }

    /// Entries of a habit (None: every habit) from `first` to `last`, in append order.
    pub fn entries(&self, habit_id: Option<HabitId>, first: Day, last: Day) -> Result<List<'_, Entries>> {
        List::open(self, |out| unsafe { sys::hc_entry_list_open(out, self.raw, habit_or_zero(habit_id), first.0, last.0) })
    }

    /// The day's value.
    pub fn day_total(&self, habit_id: HabitId, day: Day) -> Result<f64> {
        let mut total = 0.0;
        check(unsafe { sys::hc_habit_day_total(&mut total, self.raw, habit_id.0, day.0) })?;
        Ok(total)
    }

    /// The habit's state on each day from `first` to `last` (at most 100000 days).
    pub fn day_states(&self, habit_id: HabitId, first: Day, last: Day) -> Result<Vec<DayState>> {
        let raw = buffer(|out, cap, count| unsafe {
            sys::hc_habit_day_states(out, cap, count, self.raw, habit_id.0, first.0, last.0)
        })?;
        Ok(raw
            .into_iter()
            .map(DayState::from)
            .collect())
    }

    // ---- streaks

    /// The habit's streaks as of `as_of` (None: today), and all its runs, longest first.
    pub fn streaks(&self, habit_id: HabitId, as_of: Option<Day>) -> Result<Streaks> {
        let mut result = defaults!(hc_streak_result_init, sys::hc_streak_result);
        let runs = buffer(|out, cap, count| unsafe {
            sys::hc_habit_streaks(&mut result, out, cap, count, self.raw, habit_id.0, day_or_none(as_of))
        })?;
        Ok(Streaks::from_raw(&result, runs))
    }

    /// Loop-compatible habit strength at the end of each day from `first` to `last`.
    pub fn strength(&self, habit_id: HabitId, first: Day, last: Day) -> Result<Vec<f64>> {
        buffer(|out, cap, count| unsafe { sys::hc_habit_strength(out, cap, count, self.raw, habit_id.0, first.0, last.0) })
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
    pub fn completion(&self, habit_id: HabitId, first: Day, last: Day) -> Result<Completion> {
        let mut c = defaults!(hc_completion_init, sys::hc_completion);
        check(unsafe { sys::hc_habit_completion(&mut c, self.raw, habit_id.0, first.0, last.0) })?;
        Ok(Completion::from(c))
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
                    habit_id: HabitId(q.habit_id),
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
    pub fn add_vacation(&self, habit_id: Option<HabitId>, first: Day, last: Day) -> Result<VacationId> {
        let mut id = 0;
        check(unsafe { sys::hc_vacation_add(&mut id, self.raw, habit_or_zero(habit_id), first.0, last.0) })?;
        Ok(VacationId(id))
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

    /// Every record a peer whose state is `peer_state` lacks, as one changeset (empty: a
    /// peer with nothing). Proofs' evidence stays on the device.
    pub fn sync_changes(&self, peer_state: &[u8]) -> Result<Vec<u8>> {
        self.changes(peer_state, 0)
    }

    /// [`Store::sync_changes`] with the evidence bytes this store keeps travelling with
    /// their proofs (the receiver keeps those that hash to the proof's sha256).
    pub fn sync_changes_with_evidence(&self, peer_state: &[u8]) -> Result<Vec<u8>> {
        self.changes(peer_state, sys::HC_SYNC_EVIDENCE)
    }

    fn changes(&self, peer_state: &[u8], flags: u32) -> Result<Vec<u8>> {
        let mut out: *mut u8 = ptr::null_mut();
        let mut size = 0i64;
        check(unsafe {
            sys::hc_sync_changes_v2(&mut out, &mut size, self.raw, peer_state.as_ptr(), peer_state.len() as i64, flags)
        })?;
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

    /// This store's 16-byte replica id.
    pub fn replica_id(&self) -> Result<[u8; 16]> {
        let bytes = buffer(|out, capacity, total| unsafe { sys::hc_sync_replica(out, capacity, total, self.raw) })?;
        bytes.try_into().map_err(|_| Error { code: sys::HC_E_INTERNAL, message: "a replica id that is not 16 bytes".into() })
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

    // ---- awards and events

    /// Records and lists the awards newly unlocked as of `as_of` (None: today).
    pub fn evaluate_awards(&self, as_of: Option<Day>) -> Result<List<'_, Awards>> {
        List::open(self, |out| unsafe { sys::hc_award_evaluate(out, self.raw, day_or_none(as_of)) })
    }

    /// Events with id > `after_id`, oldest first, at most `limit` (1..10000); `ack` takes them.
    pub fn events(&self, after: Option<EventId>, limit: i64, ack: bool) -> Result<List<'_, Events>> {
        let flags = if ack { sys::HC_EVENTS_ACK } else { 0 };
        List::open(self, |out| unsafe { sys::hc_event_list_read(out, self.raw, after.map_or(0, |e| e.0), limit, flags) })
    }

    // ---- proofs

    /// Registers a closure as verifier `id` on this handle, replacing one of the same id.
    ///
    /// It runs on the thread that submits, while this store is held: a call on this store
    /// from inside it returns `ErrorKind::Misuse` at once (another `Store` on the same file
    /// works). A panic in it becomes an error verdict naming the panic; it never unwinds
    /// through C. Built with `panic = "abort"`, a panic in it aborts the process (see
    /// "Callbacks and panics" in the crate docs).
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
    /// store.set_proof_policy(None, &["big-enough"]).unwrap();
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

    /// Sets the proof policy of a habit (None: the store's): a [`ProofPolicy`], or just
    /// the verifiers (`&["a", "b"]`), every other field the library's default.
    pub fn set_proof_policy(&self, habit_id: Option<HabitId>, policy: impl Into<ProofPolicy>) -> Result<()> {
        let policy = policy.into();
        let mut p = defaults!(hc_proof_policy_init, sys::hc_proof_policy);
        let list = c_text(&policy.verifiers.join(","), "verifiers")?;
        p.verifiers = list.as_ptr();
        if let Some(mode) = policy.mode {
            p.mode = mode.raw();
        }
        if let Some((approve, review)) = policy.thresholds {
            p.approve_threshold = approve;
            p.review_threshold = review;
        }
        if let Some((start, end)) = policy.window {
            p.window_start = start;
            p.window_end = end;
        }
        if let Some(one) = policy.one_per_day {
            p.one_per_day = one as i32;
        }
        check(unsafe { sys::hc_proof_policy_set(self.raw, habit_or_zero(habit_id), &p) })
    }

    /// Submits evidence bytes for a habit. A verdict that is not approved is still `Ok`.
    /// ([`Store::submit`] takes the other fields of a proof.)
    pub fn submit_proof(&self, habit_id: HabitId, data: &[u8], media_type: Option<&str>) -> Result<ProofResult> {
        let mut proof = ProofInput::bytes(habit_id, data);
        if let Some(media_type) = media_type {
            proof = proof.media_type(media_type);
        }
        self.submit(&proof)
    }

    /// Decides a proof by hand (approve or reject); returns the completion appended, if any.
    pub fn review_proof(&self, proof_id: ProofId, outcome: Outcome, reviewer: &str, reason: &str) -> Result<Option<EntryId>> {
        let (reviewer, reason) = (c_text(reviewer, "reviewer")?, c_text(reason, "reason")?);
        let mut entry = 0;
        check(unsafe { sys::hc_proof_review(&mut entry, self.raw, proof_id.0, outcome.raw(), reviewer.as_ptr(), reason.as_ptr()) })?;
        Ok(nonzero(entry, EntryId))
    }

    /// Recorded verdicts of one proof, in append order.
    pub fn verdicts(&self, proof_id: ProofId) -> Result<List<'_, Verdicts>> {
        List::open(self, |out| unsafe { sys::hc_verdict_list_open(out, self.raw, 0, proof_id.0) })
    }

    /// Recorded verdicts of a habit's proofs (None: every proof), in append order.
    pub fn habit_verdicts(&self, habit_id: Option<HabitId>) -> Result<List<'_, Verdicts>> {
        List::open(self, |out| unsafe { sys::hc_verdict_list_open(out, self.raw, habit_or_zero(habit_id), 0) })
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
            habit_id: HabitId(e.habit_id),
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

// ---- the other capabilities, one file each -----------------------------------------------------------------

mod awards;
mod changes;
mod credits;
mod files;
mod judging;
mod proofs;
mod quit;
mod reminders;
mod settings;
mod shields;
mod timers;
mod transaction;

pub use changes::{Change, ChangeArea, Changes};
pub use credits::{Account, CreditDay, CreditRule, RecordedCreditRule, StepSync, UnlockState};
pub use files::{LoopCsv, Progress};
pub use judging::{compute_streaks, compute_strength, DueItem, HabitRules, MeasurementStats, StoreStreaks, Vacation};
pub use proofs::ProofInput;
pub use quit::QuitStatus;
pub use reminders::ReminderSpec;
pub use settings::{HabitStreakPolicy, RoutineBounds, StreakPolicy};
pub use shields::{ListedShieldRule, ShieldRule, ShieldRules, ShieldStatus, ShieldTransition};
pub use timers::{TimerStatus, Timers};
pub use transaction::Transaction;

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

    /// A list whose second item cannot be read: the iteration says so in its place and
    /// goes on, never ending early (the kind's functions stand in for the library's).
    struct Flaky;
    impl ListKind for Flaky {
        type Item = i64;
        type Raw = i64;
        type Native = i64;
        unsafe fn count(_: *const i64, out: *mut i64) -> i32 {
            *out = 3;
            sys::HC_OK
        }
        unsafe fn get(list: *const i64, index: i64, out: *mut *const i64) -> i32 {
            if index == 1 {
                return sys::HC_E_INVALID;
            }
            *out = list;
            sys::HC_OK
        }
        unsafe fn free(_: *mut i64) {}
        unsafe fn convert(item: &i64) -> i64 {
            *item
        }
    }

    #[test]
    fn a_list_item_that_cannot_be_read_is_an_error_in_its_place() {
        let dir = std::env::temp_dir().join(format!("habitcore-rs-flaky-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(dir.join("flaky.db")).unwrap();
        let mut value = 7i64;
        let list = List::<Flaky>::open(&store, |out| {
            unsafe { *out = &mut value };
            sys::HC_OK
        })
        .unwrap();
        assert_eq!(list.len(), 3);
        let items: Vec<_> = list.map(|item| item.map_err(|e| e.kind())).collect();
        assert_eq!(items, [Ok(7), Err(ErrorKind::Invalid), Ok(7)]);
        drop(store);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
