//! Plain `extern "C"` over include/habitcore.h: opens a store, creates a habit,
//! logs, undoes, reads back, and checks the results. Usage: habitcore-example STORE_PATH
use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::ptr;

const HC_OK: i32 = 0;
const HC_E_CONFLICT: i32 = 3;
const HC_ABI_VERSION: i32 = 2;
const HC_ENTRY_SKIP: i32 = 4;
const HC_DAY_DONE: u32 = 0x1;
const HC_DAY_SKIPPED: u32 = 0x2;

/// The opaque hc_store.
#[repr(C)]
struct Store {
    _private: [u8; 0],
}

#[repr(C)]
struct HabitOptions {
    struct_size: u32,
    kind: i32,
    name: *const c_char,
    target: f64,
    direction: i32,
    routine: i32,
    group_name: *const c_char,
    unit: *const c_char,
    schedule: *const c_char,
    start_day: i32,
    proof_required: i32,
}

#[repr(C)]
struct EntryInput {
    struct_size: u32,
    kind: i32,
    habit_id: i64,
    day: i32,
    source: i32,
    value: f64,
    at_ms: i64,
    note: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct DayState {
    day: i32,
    flags: u32,
    value: f64,
    entry_count: i32,
    reserved: i32,
}

/// hc_plugin_evidence (include/habitcore_plugin.h).
#[repr(C)]
struct PluginEvidence {
    struct_size: u32,
    reserved: i32,
    path: *const c_char,
    bytes: *const u8,
    size: i64,
    media_type: *const c_char,
    sha256: *const c_char,
    taken_at_ms: i64,
    received_at_ms: i64,
    habit_id: i64,
    habit_name: *const c_char,
    metadata_json: *const c_char,
}

/// hc_plugin_verdict.
#[repr(C)]
struct PluginVerdict {
    struct_size: u32,
    outcome: i32,
    confidence: f64,
    reason_code: [c_char; 64],
    message: [c_char; 512],
    signals: [c_char; 512],
}

#[repr(C)]
struct ProofInput {
    struct_size: u32,
    flags: u32,
    habit_id: i64,
    path: *const c_char,
    bytes: *const u8,
    size: i64,
    media_type: *const c_char,
    taken_at_ms: i64,
    metadata_json: *const c_char,
}

#[repr(C)]
struct ProofResult {
    struct_size: u32,
    outcome: i32,
    proof_id: i64,
    entry_id: i64,
    confidence: f64,
    day: i32,
    reserved: i32,
    reason_code: [c_char; 64],
    message: [c_char; 512],
}

#[repr(C)]
struct ProofPolicy {
    struct_size: u32,
    mode: i32,
    approve_threshold: f64,
    review_threshold: f64,
    window_start: i32,
    window_end: i32,
    one_per_day: i32,
    reserved: i32,
    verifiers: *const c_char,
}

const HC_OUTCOME_APPROVED: i32 = 1;
const HC_OUTCOME_REJECTED: i32 = 2;

type VerifyCallback = extern "C" fn(*const PluginEvidence, *mut PluginVerdict, *mut std::ffi::c_void) -> i32;

/// A verifier in Rust: approves evidence that starts with a JPEG or PNG signature
/// and holds at least `*user_data` bytes; user_data points at that minimum.
extern "C" fn signature_check(evidence: *const PluginEvidence, out: *mut PluginVerdict, user_data: *mut std::ffi::c_void) -> i32 {
    if evidence.is_null() || out.is_null() || user_data.is_null() {
        return 1;
    }
    let (evidence, out) = unsafe { (&*evidence, &mut *out) };
    let minimum = unsafe { *(user_data as *const i64) };
    let bytes = if evidence.bytes.is_null() { &[][..] } else { unsafe { std::slice::from_raw_parts(evidence.bytes, evidence.size as usize) } };
    let image = bytes.starts_with(&[0xFF, 0xD8, 0xFF]) || bytes.starts_with(&[0x89, b'P', b'N', b'G']);
    let (outcome, reason) = match (image, evidence.size >= minimum) {
        (true, true) => (HC_OUTCOME_APPROVED, "signature_ok"),
        (true, false) => (HC_OUTCOME_REJECTED, "too_small"),
        _ => (HC_OUTCOME_REJECTED, "not_an_image"),
    };
    out.outcome = outcome;
    out.confidence = 0.9;
    for (slot, byte) in out.reason_code.iter_mut().zip(reason.bytes().chain(std::iter::once(0))) {
        *slot = byte as c_char;
    }
    0
}

extern "C" {
    fn hc_abi_version() -> i32;
    fn hc_verifier_register(store: *mut Store, id: *const c_char, version: *const c_char, callback: Option<VerifyCallback>,
                            user_data: *mut std::ffi::c_void) -> i32;
    fn hc_proof_policy_set(store: *mut Store, habit_id: i64, policy: *const ProofPolicy) -> i32;
    fn hc_proof_submit(out: *mut ProofResult, store: *mut Store, input: *const ProofInput) -> i32;
    fn hc_last_error_message() -> *const c_char;
    fn hc_date_parse(out_day: *mut i32, text: *const c_char) -> i32;
    fn hc_store_open(out: *mut *mut Store, path: *const c_char, flags: u32) -> i32;
    fn hc_store_close(store: *mut Store) -> i32;
    fn hc_habit_create(out_id: *mut i64, store: *mut Store, options: *const HabitOptions) -> i32;
    fn hc_entry_append(out_id: *mut i64, store: *mut Store, entry: *const EntryInput) -> i32;
    fn hc_entry_undo(out_undo_id: *mut i64, store: *mut Store, entry_id: i64) -> i32;
    fn hc_habit_day_states(out: *mut DayState, capacity: i64, out_count: *mut i64, store: *mut Store,
                           habit_id: i64, from_day: i32, to_day: i32) -> i32;
    fn hc_habit_options_init(out: *mut HabitOptions, struct_size: u32) -> i32;
    fn hc_entry_input_init(out: *mut EntryInput, struct_size: u32) -> i32;
    fn hc_proof_policy_init(out: *mut ProofPolicy, struct_size: u32) -> i32;
    fn hc_proof_input_init(out: *mut ProofInput, struct_size: u32) -> i32;
    fn hc_proof_result_init(out: *mut ProofResult, struct_size: u32) -> i32;
}

/// A struct with the defaults its hc_<struct>_init gives (the header's
/// HC_<STRUCT>_INIT): this program never writes a struct's size or defaults itself.
fn defaults<T>(init: unsafe extern "C" fn(*mut T, u32) -> i32) -> Result<T, String> {
    let mut value = std::mem::MaybeUninit::<T>::zeroed();
    check(unsafe { init(value.as_mut_ptr(), std::mem::size_of::<T>() as u32) })?;
    Ok(unsafe { value.assume_init() })
}

fn check(status: i32) -> Result<(), String> {
    if status == HC_OK {
        return Ok(());
    }
    let message = unsafe { CStr::from_ptr(hc_last_error_message()) };
    Err(format!("status {}: {}", status, message.to_string_lossy()))
}

fn day(text: &str) -> Result<i32, String> {
    let text = CString::new(text).map_err(|e| e.to_string())?;
    let mut out = 0;
    check(unsafe { hc_date_parse(&mut out, text.as_ptr()) })?;
    Ok(out)
}

fn run(path: &str) -> Result<(), String> {
    if unsafe { hc_abi_version() } != HC_ABI_VERSION {
        return Err("ABI version mismatch".into());
    }
    let path = CString::new(path).map_err(|e| e.to_string())?;
    let mut store: *mut Store = ptr::null_mut();
    check(unsafe { hc_store_open(&mut store, path.as_ptr(), 0) })?;

    let name = CString::new("Meditate").unwrap();
    let schedule = CString::new("days:mon,wed,fri").unwrap();
    let mut options = defaults(hc_habit_options_init)?;
    options.name = name.as_ptr();
    options.routine = 1;
    options.schedule = schedule.as_ptr();
    let mut habit = 0i64;
    check(unsafe { hc_habit_create(&mut habit, store, &options) })?;

    let monday = day("2026-11-16")?;
    let mut entry = defaults(hc_entry_input_init)?;
    entry.habit_id = habit;
    let mut ids = Vec::new();
    for offset in [0, 2, 4] {
        entry.day = monday + offset;
        let mut id = 0i64;
        check(unsafe { hc_entry_append(&mut id, store, &entry) })?;
        ids.push(id);
    }
    entry.kind = HC_ENTRY_SKIP;
    entry.day = monday + 1;
    check(unsafe { hc_entry_append(ptr::null_mut(), store, &entry) })?;

    let mut undo = 0i64;
    check(unsafe { hc_entry_undo(&mut undo, store, ids[1]) })?;
    if unsafe { hc_entry_undo(&mut undo, store, ids[1]) } != HC_E_CONFLICT {
        return Err("a second undo must be a conflict".into());
    }

    let mut states = [DayState::default(); 7];
    let mut count = 0i64;
    check(unsafe { hc_habit_day_states(states.as_mut_ptr(), 7, &mut count, store, habit, monday, monday + 6) })?;
    let done: Vec<i32> = states.iter().filter(|s| s.flags & HC_DAY_DONE != 0).map(|s| s.day - monday).collect();
    if count != 7 || done != vec![0, 4] || states[1].flags & HC_DAY_SKIPPED == 0 {
        return Err(format!("unexpected day states: done offsets {:?}", done));
    }

    // A Rust verifier, then two proofs: one too small, one that passes.
    let mut minimum: i64 = 100;
    let id = CString::new("rust-signature").unwrap();
    let version = CString::new("1.0").unwrap();
    check(unsafe { hc_verifier_register(store, id.as_ptr(), version.as_ptr(), Some(signature_check), &mut minimum as *mut i64 as *mut _) })?;
    let mut policy = defaults(hc_proof_policy_init)?;
    policy.verifiers = id.as_ptr();
    check(unsafe { hc_proof_policy_set(store, 0, &policy) })?;
    let mut outcomes = Vec::new();
    for size in [40usize, 400] {
        let mut photo = vec![0u8; size];
        photo[..4].copy_from_slice(&[0xFF, 0xD8, 0xFF, 0xE0]);
        let mut input = defaults(hc_proof_input_init)?;
        input.habit_id = habit;
        input.bytes = photo.as_ptr();
        input.size = size as i64;
        let mut result = defaults(hc_proof_result_init)?;
        check(unsafe { hc_proof_submit(&mut result, store, &input) })?;
        outcomes.push((result.outcome, result.entry_id));
    }
    if outcomes[0] != (HC_OUTCOME_REJECTED, 0) || outcomes[1].0 != HC_OUTCOME_APPROVED || outcomes[1].1 == 0 {
        return Err(format!("unexpected proof outcomes: {:?}", outcomes));
    }

    check(unsafe { hc_store_close(store) })?;
    println!("rust example: Meditate done Monday and Friday, Tuesday excused, Wednesday undone; the Rust verifier approved a 400-byte JPEG");
    Ok(())
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: habitcore-example STORE_PATH");
    if let Err(message) = run(&path) {
        eprintln!("rust example failed: {}", message);
        std::process::exit(1);
    }
}
