//! The safe crate keeps up with the header: every function habitcore-sys declares is
//! called in this crate's source or waived below, by name, with the reason. A header that
//! grows fails here until the crate decides (as HabitKit's coverage test does).

use std::collections::BTreeSet;
use std::path::Path;

/// Header functions the safe crate does not call, and why. The one list: a new header
/// function must be wrapped or added here on purpose.
const WAIVED: &[(&str, &str)] = &[
    ("hc_verifier_register", "Store::register_verifier uses hc_verifier_register_v2, whose release callback frees the closure"),
    ("hc_store_errmsg", "every error is copied at once from this thread's hc_last_error_message, which serves threads sharing a Store"),
    ("hc_sync_changes", "hc_sync_changes_v2 with flags 0 is the same call; sync_changes and sync_changes_with_evidence both use it"),
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The functions the generated declarations hold (habitcore-sys's tests keep them equal to the header).
fn declared() -> BTreeSet<String> {
    let bindings = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../habitcore-sys/src/bindings.rs"));
    bindings
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub fn "))
        .map(|rest| rest.split('(').next().unwrap_or_default().to_string())
        .filter(|name| name.starts_with("hc_"))
        .collect()
}

/// Every identifier in the crate's source, comments left out.
fn called() -> BTreeSet<String> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut words = BTreeSet::new();
    for file in std::fs::read_dir(&folder).unwrap() {
        let path = file.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            for line in read(&path).lines() {
                let code = line.split("//").next().unwrap_or_default();
                words.extend(code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map(String::from));
            }
        }
    }
    words
}

#[test]
fn every_header_function_is_wrapped_or_waived() {
    let declared = declared();
    assert!(declared.len() >= 170, "found {} functions in bindings.rs", declared.len());
    let called = called();
    let waived: BTreeSet<String> = WAIVED.iter().map(|(name, _)| name.to_string()).collect();
    assert_eq!(waived.len(), WAIVED.len(), "a function waived twice");
    assert!(WAIVED.iter().all(|(_, why)| !why.is_empty()));
    let missing: Vec<_> = declared.iter().filter(|f| !called.contains(*f) && !waived.contains(*f)).collect();
    assert!(missing.is_empty(), "header functions the safe crate neither wraps nor waives: {missing:?}");
    let wrapped_now: Vec<_> = waived.iter().filter(|f| called.contains(*f)).collect();
    assert!(wrapped_now.is_empty(), "wrapped now: take them off WAIVED: {wrapped_now:?}");
    let unknown: Vec<_> = waived.iter().filter(|f| !declared.contains(*f)).collect();
    assert!(unknown.is_empty(), "waived but not in the header: {unknown:?}");
}
