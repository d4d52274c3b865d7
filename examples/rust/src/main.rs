//! Plain `extern "C"` over include/habitcore.h: opens a store, creates a habit,
//! logs, undoes, reads back, and checks the results. Usage: habitcore-example STORE_PATH
use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::ptr;

const HC_OK: i32 = 0;
const HC_E_CONFLICT: i32 = 3;
const HC_ABI_VERSION: i32 = 1;
const HC_KIND_CHECKMARK: i32 = 1;
const HC_DIRECTION_AT_LEAST: i32 = 1;
const HC_ENTRY_DONE: i32 = 1;
const HC_ENTRY_SKIP: i32 = 4;
const HC_SOURCE_MANUAL: i32 = 1;
const HC_DAY_DONE: u32 = 0x1;
const HC_DAY_SKIPPED: u32 = 0x2;
const HC_DAY_NONE: i32 = i32::MIN;

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

extern "C" {
    fn hc_abi_version() -> i32;
    fn hc_last_error_message() -> *const c_char;
    fn hc_date_parse(out_day: *mut i32, text: *const c_char) -> i32;
    fn hc_store_open(out: *mut *mut Store, path: *const c_char, flags: u32) -> i32;
    fn hc_store_close(store: *mut Store) -> i32;
    fn hc_habit_create(out_id: *mut i64, store: *mut Store, options: *const HabitOptions) -> i32;
    fn hc_entry_append(out_id: *mut i64, store: *mut Store, entry: *const EntryInput) -> i32;
    fn hc_entry_undo(out_undo_id: *mut i64, store: *mut Store, entry_id: i64) -> i32;
    fn hc_habit_day_states(out: *mut DayState, capacity: i64, out_count: *mut i64, store: *mut Store,
                           habit_id: i64, from_day: i32, to_day: i32) -> i32;
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
    let options = HabitOptions {
        struct_size: std::mem::size_of::<HabitOptions>() as u32,
        kind: HC_KIND_CHECKMARK,
        name: name.as_ptr(),
        target: 1.0,
        direction: HC_DIRECTION_AT_LEAST,
        routine: 1,
        group_name: ptr::null(),
        unit: ptr::null(),
        schedule: schedule.as_ptr(),
        start_day: HC_DAY_NONE,
        proof_required: 0,
    };
    let mut habit = 0i64;
    check(unsafe { hc_habit_create(&mut habit, store, &options) })?;

    let monday = day("2026-11-16")?;
    let mut entry = EntryInput {
        struct_size: std::mem::size_of::<EntryInput>() as u32,
        kind: HC_ENTRY_DONE,
        habit_id: habit,
        day: monday,
        source: HC_SOURCE_MANUAL,
        value: 0.0,
        at_ms: 0,
        note: ptr::null(),
    };
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
    check(unsafe { hc_store_close(store) })?;
    println!("rust example: Meditate done Monday and Friday, Tuesday excused, Wednesday undone");
    Ok(())
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: habitcore-example STORE_PATH");
    if let Err(message) = run(&path) {
        eprintln!("rust example failed: {}", message);
        std::process::exit(1);
    }
}
