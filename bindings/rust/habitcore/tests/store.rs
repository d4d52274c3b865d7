//! The safe crate against the real library: every group it wraps, and bad input.
use habitcore::{Day, Direction, Display, EntryKind, ErrorKind, EventKind, HabitOptions, Judgement, Kind, Outcome, SettingsChange, Store};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

mod support;
use support::Dir;

fn d(text: &str) -> Day {
    Day::parse(text).unwrap()
}

#[test]
fn display_fields() {
    let dir = Dir::new("display");
    let store = dir.store();
    let shown = Display {
        description: Some("Ten minutes\neyes closed".into()),
        question: Some("Did you sit?".into()),
        colour: Some("#00897B".into()),
        icon: Some("lotus".into()),
        position: -4,
    };
    let sit = store.create_habit(&HabitOptions::new("Sit").display(shown.clone())).unwrap();
    assert_eq!(sit.display, shown);
    assert_eq!(store.habit(sit.id).unwrap().display, shown);
    assert_eq!(store.create_habit(&HabitOptions::new("Plain")).unwrap().display, Display::default());
    let bad = Display { colour: Some("teal".into()), ..Display::default() };
    let refused = store.create_habit(&HabitOptions::new("Bad").display(bad)).unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::Invalid);
    assert!(refused.message().starts_with("colour"), "{refused}");
    assert_eq!(store.habits(true).unwrap().count(), 2, "nothing written");
}

#[test]
fn habits_and_the_ledger() {
    let dir = Dir::new("ledger");
    let store = dir.store();
    let walk = store
        .create_habit(&HabitOptions::new("Walk").kind(Kind::Counter).target(6000.0).unit("steps").start(d("2026-03-01")))
        .unwrap();
    assert_eq!((walk.kind, walk.target, walk.unit.as_deref(), walk.schedule.as_str()), (Kind::Counter, 6000.0, Some("steps"), "daily"));
    assert_eq!(store.find_habit("WALK").unwrap(), walk);
    let conflict = store.create_habit(&HabitOptions::new("walk")).unwrap_err();
    assert_eq!(conflict.kind(), ErrorKind::Conflict);
    assert!(conflict.message().contains("taken"), "{conflict}");

    let day = d("2026-03-08");
    store.append(walk.id, EntryKind::Total, 5400.0, Some(day)).unwrap();
    let extra = store.append(walk.id, EntryKind::Amount, 1000.0, Some(day)).unwrap();
    assert_eq!(store.day_total(walk.id, day).unwrap(), 6400.0);
    let undo = store.undo(extra).unwrap();
    assert_eq!(store.day_total(walk.id, day).unwrap(), 5400.0);
    let again = store.undo(extra).unwrap_err();
    assert_eq!((again.kind(), again.message()), (ErrorKind::Conflict, format!("entry {extra} is already undone").as_str()));

    let entries: Vec<_> = store.entries(Some(walk.id), day, day).unwrap().collect::<habitcore::Result<_>>().unwrap();
    assert_eq!(entries.iter().map(|e| e.kind).collect::<Vec<_>>(), [EntryKind::Total, EntryKind::Amount, EntryKind::Undo]);
    assert_eq!(entries[1].undone_by, Some(undo));
    let states = store.day_states(walk.id, d("2026-03-07"), d("2026-03-09")).unwrap();
    assert_eq!(states.iter().map(|s| s.value).collect::<Vec<_>>(), [0.0, 5400.0, 0.0]);
    assert!(states.iter().all(|s| !s.done));

    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    store.archive_habit(read.id, true).unwrap();
    assert_eq!(store.habits(false).unwrap().map(|h| h.unwrap().name).collect::<Vec<_>>(), ["Walk"]);
    let all = store.habits(true).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(store.habit(read.id).unwrap().archived, Some(store.today().unwrap()));
}

#[test]
fn streaks_and_runs() {
    let dir = Dir::new("streaks");
    let store = dir.store();
    let read = store.create_habit(&HabitOptions::new("Read").start(d("2026-03-01"))).unwrap();
    for n in [1, 2, 3, 4, 5, 7] {
        store.append(read.id, EntryKind::Done, 0.0, Some(d("2026-03-01").plus(n - 1))).unwrap();
    }
    let at_fifth = store.streaks(read.id, Some(d("2026-03-05"))).unwrap();
    assert_eq!((at_fifth.current.length, at_fifth.current.first, at_fifth.current.last), (5, d("2026-03-01"), d("2026-03-05")));
    let later = store.streaks(read.id, Some(d("2026-03-07"))).unwrap();
    assert_eq!((later.current.length, later.longest.length), (1, 5));
    assert_eq!(later.runs.iter().map(|r| r.length).collect::<Vec<_>>(), [5, 1]);

    let strength = store.strength(read.id, d("2026-03-01"), d("2026-03-07")).unwrap();
    assert_eq!(strength.len(), 7);
    assert!(strength[4] > strength[0] && strength[5] < strength[4]);
    let scores = store.day_scores(d("2026-03-05"), d("2026-03-06")).unwrap();
    assert_eq!(scores.iter().map(|s| (s.due, s.done, s.score)).collect::<Vec<_>>(), [(1, 1, 1.0), (1, 0, 0.0)]);
    let completion = store.completion(read.id, d("2026-03-01"), d("2026-03-07")).unwrap();
    assert_eq!((completion.kept, completion.judged), (6, 7));
    store.add_vacation(Some(read.id), d("2026-03-06"), d("2026-03-06")).unwrap();
    let excused = store.streaks(read.id, Some(d("2026-03-07"))).unwrap();
    assert_eq!((excused.current.length, excused.current.excused_days), (6, 1));

    let copy_dir = Dir::new("streaks-copy");
    let copy = copy_dir.store();
    copy.import(&store.export_json().unwrap()).unwrap();
    let imported = copy.find_habit("Read").unwrap();
    // the export is the whole history (docs/FORMATS.md), the vacation included
    assert_eq!(copy.streaks(imported.id, Some(d("2026-03-07"))).unwrap(), excused);
    assert_eq!(copy.import("{ not json").unwrap_err().kind(), ErrorKind::Invalid);
}

/// A weekly:3 habit beside a daily one, on Wednesday 2026-03-04 (weeks start Monday):
/// the day rate leaves the quota habit out and gives its progress; the current week
/// counts as its fraction beside the completion rate.
#[test]
fn group_day_and_the_current_period() {
    let dir = Dir::new("group-day");
    let store = dir.store();
    let start = d("2026-02-23");
    let read = store.create_habit(&HabitOptions::new("Read").start(start)).unwrap();
    let run = store.create_habit(&HabitOptions::new("Run").schedule("weekly:3").start(start)).unwrap();
    let wednesday = d("2026-03-04");
    for day in [d("2026-03-02"), d("2026-03-03")] {
        store.append(run.id, EntryKind::Done, 0.0, Some(day)).unwrap();
    }
    store.append(read.id, EntryKind::Done, 0.0, Some(wednesday)).unwrap();
    let day = store.group_day(None, Some(wednesday)).unwrap();
    assert_eq!((day.due, day.done, day.rate), (1, 1, 1.0), "the day rate leaves the quota habit out");
    assert_eq!(day.quota, [habitcore::QuotaProgress { habit_id: run.id, period_first: d("2026-03-02"), done: 2, required: 3, met: false }]);
    assert_eq!((day.all_due, day.all_done), (2, 1), "due until met: Run is due on Wednesday");
    let completion = store.completion(run.id, start, store.today().unwrap()).unwrap();
    assert_eq!((completion.current_kept, completion.current_required), (0, 3), "this week, nothing done yet, beside the rate");
    assert_eq!(store.group_day(Some("nobody"), None).unwrap_err().kind(), ErrorKind::NotFound);
}

#[test]
fn credits_awards_and_events() {
    let dir = Dir::new("credits");
    let store = dir.store();
    let sync = store.sync_steps(2500, None).unwrap();
    assert_eq!((sync.steps, sync.earned_now), (2500, 25));
    assert_eq!(store.sync_steps(2000, None).unwrap().earned_now, 0);
    let short = store.spend(30, Some("games")).unwrap_err();
    assert_eq!(short.kind(), ErrorKind::Insufficient);
    assert!(short.message().contains("25 available"), "{short}");
    store.spend(10, Some("games")).unwrap();
    assert_eq!(store.balance().unwrap(), 15);
    let today = store.today().unwrap();
    let ledger: Vec<_> = store.credit_entries(today, today).unwrap().collect::<habitcore::Result<_>>().unwrap();
    assert_eq!(ledger.iter().map(|e| (e.kind, e.minutes)).collect::<Vec<_>>(), [(1, 25), (2, -10)]);
    assert_eq!(ledger[1].reason.as_deref(), Some("games"));
    let kids = store.create_account("kids").unwrap();
    assert!(kids > habitcore::AccountId::DEFAULT);
    assert_eq!(store.create_account("KIDS").unwrap_err().kind(), ErrorKind::Conflict);

    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    store.append(read.id, EntryKind::Done, 0.0, None).unwrap();
    let unlocked: Vec<_> = store.evaluate_awards(None).unwrap().collect::<habitcore::Result<_>>().unwrap();
    assert!(!unlocked.is_empty() && unlocked.iter().all(|a| a.unlocked));
    assert_eq!(store.evaluate_awards(None).unwrap().len(), 0);
    let events: Vec<_> = store.events(None, 100, true).unwrap().collect::<habitcore::Result<_>>().unwrap();
    let award_ids: Vec<_> = events.iter().filter(|e| e.kind == EventKind::AwardUnlocked).filter_map(|e| e.award_id.clone()).collect();
    assert_eq!(award_ids.len(), unlocked.len());
    assert_eq!(store.events(None, 100, true).unwrap().len(), 0);
}

#[test]
fn closures_verify_proofs_and_panics_become_error_verdicts() {
    let dir = Dir::new("proofs");
    let store = dir.store();
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    store
        .register_verifier("len", "1.0", move |evidence| {
            seen.fetch_add(1, Ordering::SeqCst);
            Judgement {
                outcome: if evidence.data.len() >= 16 { Outcome::Approved } else { Outcome::Rejected },
                confidence: 0.9,
                reason_code: "length".into(),
                message: format!("{} bytes for {}", evidence.data.len(), evidence.habit_name),
            }
        })
        .unwrap();
    let bed = store.create_habit(&HabitOptions::new("Bed")).unwrap();
    store.set_proof_policy(Some(bed.id), &["len"]).unwrap();
    let small = store.submit_proof(bed.id, b"tiny", Some("text/plain")).unwrap();
    assert_eq!((small.outcome, small.entry_id), (Outcome::Rejected, None));
    let big = store.submit_proof(bed.id, &[7u8; 64], Some("text/plain")).unwrap();
    assert_eq!(big.outcome, Outcome::Approved);
    assert!(big.entry_id.is_some());
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    let verdicts: Vec<_> = store.verdicts(big.proof_id).unwrap().collect::<habitcore::Result<_>>().unwrap();
    assert!(verdicts.iter().any(|v| v.verifier_id.as_deref() == Some("len") && v.message.as_deref() == Some("64 bytes for Bed")));

    store.register_verifier("len", "2.0", |_| panic!("no idea")).unwrap();
    // another habit: Bed has its approved proof for today (one per day)
    let stretch = store.create_habit(&HabitOptions::new("Stretch")).unwrap();
    store.set_proof_policy(Some(stretch.id), &["len"]).unwrap();
    let panicked = store.submit_proof(stretch.id, &[8u8; 64], Some("text/plain")).unwrap();
    assert_eq!(panicked.outcome, Outcome::Error);
    let recorded: Vec<_> = store.verdicts(panicked.proof_id).unwrap().collect::<habitcore::Result<_>>().unwrap();
    assert!(recorded.iter().any(|v| v.message.as_deref() == Some("the verifier panicked: no idea")), "{recorded:?}");
    let approved = store.review_proof(panicked.proof_id, Outcome::Approved, "parent", "saw it").unwrap();
    assert!(approved.is_some());
    assert_eq!(store.review_proof(panicked.proof_id, Outcome::Rejected, "parent", "no").unwrap_err().kind(), ErrorKind::Conflict);
    store.unregister_verifier("len").unwrap();
    let yoga = store.create_habit(&HabitOptions::new("Yoga")).unwrap();
    store.set_proof_policy(Some(yoga.id), &["len"]).unwrap();
    let unregistered = store.submit_proof(yoga.id, &[9u8; 64], None).unwrap();
    assert_eq!(unregistered.outcome, Outcome::Error, "{unregistered:?}");
}

#[test]
fn a_verifier_calling_its_own_store_gets_misuse_at_once() {
    // A call on the store running the verifier is refused (it once waited for itself
    // forever); another Store on the same file works. The submission runs on a thread of
    // its own with a deadline, so a deadlock fails here instead of hanging the tests.
    let dir = Dir::new("reentry");
    let store = Arc::new(dir.store());
    let other = dir.store();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (running, log) = (Arc::downgrade(&store), seen.clone());
    store
        .register_verifier("reentrant", "1", move |_| {
            // Weak: the closure lives in the store, so a strong reference would keep it open.
            if let Some(running) = running.upgrade() {
                for result in [running.today().map(|_| ()), running.create_habit(&HabitOptions::new("Inner")).map(|_| ())] {
                    log.lock().unwrap().push(match result {
                        Err(error) => format!("{:?} {}", error.kind(), error.message()),
                        Ok(()) => "not refused".to_string(),
                    });
                }
            }
            log.lock().unwrap().push(format!("other {}", other.today().is_ok()));
            Judgement { outcome: Outcome::Approved, confidence: 0.9, reason_code: "reentered".into(), message: String::new() }
        })
        .unwrap();
    let walk = store.create_habit(&HabitOptions::new("Walk")).unwrap();
    store.set_proof_policy(None, &["reentrant"]).unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    let submitting = store.clone();
    std::thread::spawn(move || {
        let _ = sender.send(submitting.submit_proof(walk.id, &[7u8; 64], None));
    });
    let result = receiver
        .recv_timeout(std::time::Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("submit_proof deadlocked; the verifier saw {:?}", seen.lock().unwrap()))
        .unwrap();
    assert_eq!((result.outcome, result.reason_code.as_str()), (Outcome::Approved, "reentered"));
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3, "{seen:?}");
    for refused in &seen[..2] {
        assert!(refused.starts_with("Misuse a call on this store from inside a callback the store is running is refused"), "{seen:?}");
    }
    assert_eq!(seen[2], "other true");
    assert!(store.habits(false).unwrap().all(|habit| habit.unwrap().name != "Inner"));
}

/// Counts its own drop: a closure capturing one is dropped when the library releases it.
struct Dropped(&'static str, Arc<std::sync::Mutex<Vec<&'static str>>>);
impl Drop for Dropped {
    fn drop(&mut self) {
        self.1.lock().unwrap().push(self.0);
    }
}

#[test]
fn verifier_closures_are_dropped_exactly_once_when_the_library_lets_go() {
    let dir = Dir::new("release");
    let store = dir.store();
    let drops = Arc::new(std::sync::Mutex::new(Vec::new()));
    let judge = |name: &'static str| {
        let dropped = Dropped(name, drops.clone());
        move |_: &habitcore::Evidence| Judgement {
            outcome: Outcome::Rejected,
            confidence: 1.0,
            // The whole value, not only its field (closures capture disjoint fields).
            reason_code: { let held = &dropped; held.0.into() },
            message: String::new(),
        }
    };
    assert_eq!(store.register_verifier("Bad Id", "1", judge("refused")).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(*drops.lock().unwrap(), ["refused"]);
    store.register_verifier("v", "1", judge("first")).unwrap();
    store.register_verifier("v", "2", judge("second")).unwrap();
    assert_eq!(*drops.lock().unwrap(), ["refused", "first"]);
    store.unregister_verifier("v").unwrap();
    assert_eq!(*drops.lock().unwrap(), ["refused", "first", "second"]);
    store.register_verifier("v", "3", judge("third")).unwrap();
    drop(store);
    assert_eq!(*drops.lock().unwrap(), ["refused", "first", "second", "third"]);
}

#[test]
fn reminders() {
    let dir = Dir::new("reminders");
    let store = dir.store();
    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    let rule = store.add_reminder(read.id, 9 * 60, Some("a chapter")).unwrap();
    let rules: Vec<_> = store.reminder_rules(Some(read.id)).unwrap().collect::<habitcore::Result<_>>().unwrap();
    assert_eq!((rules[0].id, rules[0].minute, rules[0].message.as_deref()), (rule, 540, Some("a chapter")));
    let today = store.today().unwrap();
    let (from, to) = (store.utc_ms(today, 0).unwrap(), store.utc_ms(today.plus(1), 0).unwrap());
    let due: Vec<_> = store.reminders(from, to).unwrap().collect::<habitcore::Result<_>>().unwrap();
    assert_eq!(due.len(), 1);
    assert!(store.reminder_fired(&due[0]).unwrap());
    assert!(!store.reminder_fired(&due[0]).unwrap());
}

#[test]
fn a_store_moves_between_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();
    let dir = Dir::new("threads");
    let store = Arc::new(dir.store());
    let handles: Vec<_> = (0..4)
        .map(|n| {
            let store = store.clone();
            std::thread::spawn(move || store.create_habit(&HabitOptions::new(&format!("Habit {n}"))).unwrap().id)
        })
        .collect();
    let mut ids: Vec<_> = handles.into_iter().map(|h| h.join().unwrap().0).collect();
    ids.sort();
    assert_eq!(ids, [1, 2, 3, 4]);
}

#[test]
fn bad_input_is_the_library_s_error_never_a_crash() {
    let dir = Dir::new("bad");
    let store = dir.store();
    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    // a huge count
    let range = store.day_states(read.id, Day(-700_000), Day(2_900_000)).unwrap_err();
    assert_eq!((range.kind(), range.message()), (ErrorKind::Invalid, "the range is longer than 100000 days"));
    let limit = store.events(None, 1_000_000, false).err().unwrap();
    assert_eq!(limit.message(), "limit 1000000 is outside 1...10000");
    let minutes = store.spend(i64::MAX, None).unwrap_err();
    assert!(minutes.message().contains("outside 1...525600"), "{minutes}");
    // a name that is not UTF-8 cannot be a &str; a NUL cannot be a C string
    let nul = store.create_habit(&HabitOptions::new("a\0b")).unwrap_err();
    assert_eq!(nul.kind(), ErrorKind::Invalid);
    let bad_day = Day::parse("2026-13-01").unwrap_err();
    assert_eq!(bad_day.kind(), ErrorKind::Invalid);
    assert!(!bad_day.message().is_empty());
    // a closed store, through the raw handle the crate hands out
    let raw = store.as_raw();
    store.close().unwrap();
    let status = unsafe { habitcore_sys::hc_habit_archive(raw, read.id.0, 1) };
    assert_eq!(status, habitcore_sys::HC_E_MISUSE);
    let message = unsafe { std::ffi::CStr::from_ptr(habitcore_sys::hc_last_error_message()) };
    assert!(message.to_str().unwrap().contains("closed"));
}

#[test]
fn non_utf8_paths_and_missing_files() {
    use std::os::unix::ffi::OsStrExt;
    let dir = Dir::new("paths");
    let odd = dir.0.join(std::ffi::OsStr::from_bytes(b"caf\xe9.db"));
    // a path is bytes to Rust; the library takes UTF-8 only, and says so
    let refused = Store::open(&odd).err().unwrap();
    assert_eq!((refused.kind(), refused.message()), (ErrorKind::Invalid, "path is not valid UTF-8"));
    assert!(!odd.exists());
    let missing = Store::open_readonly(dir.0.join("missing.db")).err().unwrap();
    assert_eq!(missing.kind(), ErrorKind::NotFound);
    assert!(!missing.message().is_empty());
}

#[test]
fn sync_between_two_stores() {
    let dir = Dir::new("sync");
    let phone = Store::open(dir.0.join("phone.db")).unwrap();
    let laptop = Store::open(dir.0.join("laptop.db")).unwrap();
    let read = phone.create_habit(&HabitOptions::new("Read").start(d("2026-01-01"))).unwrap();
    let (there, _) = phone.sync_with(&laptop).unwrap();
    assert!(there.habits_changed >= 1);
    let read_there = laptop.find_habit("Read").unwrap();
    // Offline, each logs a day; one exchange each way and they agree.
    phone.append(read.id, EntryKind::Done, 0.0, Some(d("2026-01-02"))).unwrap();
    laptop.append(read_there.id, EntryKind::Done, 0.0, Some(d("2026-01-03"))).unwrap();
    assert_ne!(phone.sync_canonical().unwrap(), laptop.sync_canonical().unwrap());
    let (to_laptop, to_phone) = phone.sync_with(&laptop).unwrap();
    assert_eq!((to_laptop.entries_added, to_phone.entries_added), (1, 1));
    assert_eq!(phone.sync_canonical().unwrap(), laptop.sync_canonical().unwrap());
    assert_eq!(phone.sync_state().unwrap(), laptop.sync_state().unwrap());
    // Everything again changes nothing; a damaged changeset is refused and writes nothing.
    let all = phone.sync_changes(&[]).unwrap();
    let again = laptop.sync_apply(&all).unwrap();
    assert!(again.ops_received > 0 && again.ops_new == 0 && again.ops_applied == 0);
    let mut damaged = all.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x40;
    let before = laptop.sync_canonical().unwrap();
    assert_eq!(laptop.sync_apply(&damaged).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(laptop.sync_canonical().unwrap(), before);
}

#[test]
fn settings_change_from_a_day_and_keep_the_past() {
    let dir = Dir::new("settings");
    let store = dir.store();
    let today = store.today().unwrap();
    let water = store.create_habit(&HabitOptions::new("Water").kind(Kind::Counter).target(8.0).start(Day(today.0 - 7))).unwrap();
    for back in 1..=7 {
        store.append(water.id, EntryKind::Amount, 8.0, Some(Day(today.0 - back))).unwrap();
    }
    let raise = SettingsChange { target: Some((10.0, Direction::AtLeast)), ..Default::default() };
    assert_eq!(store.update_settings_from(water.id, &raise, None).unwrap(), Some((today, today)));
    let week = store.day_states(water.id, Day(today.0 - 7), Day(today.0 - 1)).unwrap();
    assert!(week.iter().all(|state| state.done), "the past week keeps the target it had");
    assert_eq!(store.streaks(water.id, None).unwrap().current.length, 7);
    let earlier = SettingsChange { target: Some((12.0, Direction::AtLeast)), ..Default::default() };
    assert_eq!(store.update_settings_from(water.id, &earlier, Some(Day(today.0 - 2))).unwrap(), Some((Day(today.0 - 2), today)));
    let week = store.day_states(water.id, Day(today.0 - 7), Day(today.0 - 1)).unwrap();
    assert_eq!(week.iter().map(|state| state.done).collect::<Vec<_>>(), [true, true, true, true, true, false, false]);
    let later = store.update_settings_from(water.id, &earlier, Some(Day(today.0 + 1))).unwrap_err();
    assert_eq!(later.kind(), ErrorKind::Invalid);
    assert_eq!(store.archive_habit_from(water.id, true, Some(Day(today.0 - 1))).unwrap(), Some((Day(today.0 - 1), today)));
    assert_eq!(store.archive_habit_from(water.id, false, None).unwrap(), Some((today, today)));
}
