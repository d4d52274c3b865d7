//! The capabilities the safe crate reaches beyond the basics, each against the real
//! library on a real store file: transactions, files, settings, judging (with the pure
//! calls checked against the store's over seeded random histories), credits, awards,
//! plugins, reminders, shields and sync.
use habitcore::*;
use std::ops::ControlFlow;

mod support;
use support::{all, Dir};

/// A small seeded generator (no crate dependency): the same seed, the same history.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn a_transaction_rolls_back_on_drop_and_on_an_error_and_commits_when_told() {
    let dir = Dir::new("cap-tx");
    let mut store = dir.store();
    {
        let tx = store.transaction().unwrap();
        tx.create_habit(&HabitOptions::new("Dropped")).unwrap();
        assert_eq!(tx.habits(false).unwrap().count(), 1, "visible inside the transaction");
        assert!(format!("{tx:?}").contains("Transaction"));
    }
    assert_eq!(store.habits(false).unwrap().count(), 0, "dropped uncommitted: rolled back");

    fn two_habits(store: &mut Store) -> Result<()> {
        let tx = store.transaction()?;
        tx.create_habit(&HabitOptions::new("First"))?;
        tx.create_habit(&HabitOptions::new("first"))?; // a name taken: Conflict, and `?` drops tx
        tx.commit()
    }
    assert_eq!(two_habits(&mut store).unwrap_err().kind(), ErrorKind::Conflict);
    assert_eq!(store.habits(false).unwrap().count(), 0, "nothing of a failed transaction is written");

    let tx = store.transaction().unwrap();
    let read = tx.create_habit(&HabitOptions::new("Read").start(tx.today().unwrap().plus(-10))).unwrap();
    for back in 1..=5 {
        tx.append(read.id, EntryKind::Done, 0.0, Some(tx.today().unwrap().plus(-back))).unwrap();
    }
    tx.commit().unwrap();
    let other = Store::open(dir.0.join("habits.db")).unwrap();
    assert_eq!(other.streaks(other.find_habit("Read").unwrap().id, None).unwrap().current.length, 5, "committed for every handle");

    let tx = store.transaction().unwrap();
    tx.create_habit(&HabitOptions::new("Rolled back")).unwrap();
    tx.rollback().unwrap();
    assert!(store.find_habit("Rolled back").is_err());
}

#[test]
fn files_export_and_import_with_progress_and_cancel() {
    let dir = Dir::new("cap-files");
    let store = dir.store();
    let read = store.create_habit(&HabitOptions::new("Read").start(Day::parse("2026-01-01").unwrap())).unwrap();
    for n in 0..200 {
        store.append(read.id, EntryKind::Done, 0.0, Some(Day::parse("2026-01-01").unwrap().plus(n))).unwrap();
    }
    let path = dir.0.join("export.jsonl");
    let mut reports = Vec::new();
    store
        .export_file(&path, Format::Jsonl, Some(&mut |done, total| {
            reports.push((done, total));
            ControlFlow::Continue(())
        }))
        .unwrap();
    let (last_done, total) = *reports.last().unwrap();
    assert!(total >= 201 && last_done == total, "{reports:?}");
    assert!(reports.windows(2).all(|w| w[0].0 <= w[1].0), "progress only grows");

    // Into a new store: a cancel at the first report writes nothing.
    let copy = Store::open(dir.0.join("copy.db")).unwrap();
    let cancelled = copy.import_file(&path, Format::Detect, Some(&mut |_, _| ControlFlow::Break(()))).unwrap_err();
    assert_eq!(cancelled.kind(), ErrorKind::Cancelled);
    assert_eq!(copy.habits(true).unwrap().count(), 0);
    // A panic in the callback cancels the import and goes on after it; nothing written.
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        copy.import_file(&path, Format::Detect, Some(&mut |_, _| panic!("stop here")))
    }));
    assert_eq!(panicked.unwrap_err().downcast_ref::<&str>(), Some(&"stop here"));
    assert_eq!(copy.habits(true).unwrap().count(), 0);
    copy.import_file(&path, Format::Detect, None).unwrap();
    assert_eq!(copy.export_json().unwrap(), store.export_json().unwrap(), "a restore gives the same document");

    // A backup opens like the original and is never written over.
    let backup = dir.0.join("backup.db");
    store.backup(&backup).unwrap();
    assert_eq!(Store::open(&backup).unwrap().export_json().unwrap(), store.export_json().unwrap());
    assert_eq!(store.backup(&backup).unwrap_err().kind(), ErrorKind::Conflict);
    assert_eq!(store.export_file(dir.0.join("no/such/folder.json"), Format::Json, None).unwrap_err().kind(), ErrorKind::NotFound);
}

#[test]
fn other_apps_data_comes_in_and_goes_out() {
    let dir = Dir::new("cap-apps");
    let store = dir.store();
    let day = Day::parse("2026-02-01").unwrap();
    let read = store.create_habit(&HabitOptions::new("Read").start(day)).unwrap();
    for n in [0, 1, 3] {
        store.append(read.id, EntryKind::Done, 0.0, Some(day.plus(n))).unwrap();
    }
    let loop_csv = store.export_loop_csv(Some(day.plus(3))).unwrap();
    assert!(loop_csv.habits.contains("Read"), "{}", loop_csv.habits);
    assert!(loop_csv.checkmarks.lines().count() >= 5, "{}", loop_csv.checkmarks);
    let from_loop = Store::open(dir.0.join("loop.db")).unwrap();
    from_loop.import_loop_csv(&loop_csv.habits, &loop_csv.checkmarks).unwrap();
    let imported = from_loop.find_habit("Read").unwrap();
    let done: Vec<_> = from_loop.day_states(imported.id, day, day.plus(3)).unwrap().iter().map(|s| s.done).collect();
    assert_eq!(done, [true, true, false, true]);
    assert_eq!(from_loop.export_loop_csv(Some(day.plus(3))).unwrap(), loop_csv, "Loop's table round-trips");

    let bull = Store::open(dir.0.join("bull.db")).unwrap();
    bull.import_habitbull_csv("HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText\nWater,,Health,2026-02-01,3,\nWater,,Health,2026-02-02,1,good\n").unwrap();
    let water = bull.find_habit("Water").unwrap();
    assert_eq!((water.kind, water.group.as_deref()), (Kind::Counter, Some("Health")));
    assert_eq!(bull.day_total(water.id, day).unwrap(), 3.0);
    let bad = bull.import_habitbull_csv("HabitName,HabitDescription,HabitCategory,CalendarDate,Value,CommentText\nTea,,,not a date,1,\n").unwrap_err();
    assert_eq!(bad.kind(), ErrorKind::Invalid);
    assert!(bull.find_habit("Tea").is_err(), "all or nothing");
    assert_eq!(bull.import_loop_zip(b"not a zip").unwrap_err().kind(), ErrorKind::Invalid);
    std::fs::write(dir.0.join("not-loop.db"), b"neither").unwrap();
    assert!(bull.import_loop_db(dir.0.join("not-loop.db")).is_err());
}

#[test]
fn store_settings_read_back_as_set() {
    let dir = Dir::new("cap-settings");
    let store = dir.store();
    assert!(store.schema_version().unwrap() >= 1);
    assert!(library_version_number() >= 1_001_000);
    assert!(library_version().starts_with(&format!("{}.", library_version_number() / 1_000_000)));
    assert!(format!("{store:?}").starts_with("Store"));
    assert_eq!(store.timezone().unwrap(), "UTC");
    store.set_timezone("+05:30").unwrap();
    assert_eq!(store.timezone().unwrap(), "+05:30");
    store.set_day_start(180).unwrap();
    assert_eq!(store.day_start().unwrap(), 180);
    // With a 03:00 day start, 01:00 of a day is the night after it; 02:59 on its own
    // calendar date still belongs to the day before.
    let day = Day::parse("2026-03-08").unwrap();
    assert_eq!(store.local_day(store.utc_ms(day, 60).unwrap()).unwrap(), day, "utc_ms and local_day are inverses");
    assert_eq!(store.utc_ms(day, 60).unwrap() - store.utc_ms(day, 180).unwrap(), 22 * 3_600_000);
    assert_eq!(store.local_day(store.utc_ms(day, 180).unwrap() - 1).unwrap(), day.plus(-1));
    assert_eq!(store.set_day_start(1440).unwrap_err().kind(), ErrorKind::Invalid);
    store.set_week_start(0).unwrap();
    assert_eq!(store.week_start().unwrap(), 0);
    store.set_busy_timeout(250).unwrap();
    assert_eq!(store.set_busy_timeout(-1).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(store.routine_bounds().unwrap(), RoutineBounds { morning: 300, day: 660, evening: 1080 });
    store.set_routine_bounds(RoutineBounds { morning: 240, day: 600, evening: 1200 }).unwrap();
    assert_eq!(store.routine_bounds().unwrap(), RoutineBounds { morning: 240, day: 600, evening: 1200 });
    assert_eq!(store.set_routine_bounds(RoutineBounds { morning: 600, day: 300, evening: 1200 }).unwrap_err().kind(), ErrorKind::Invalid);
    // day start 03:00 + 240 = 07:00 local: morning from then until 13:00.
    assert_eq!(store.routine_at(Some(store.utc_ms(day, 8 * 60).unwrap())).unwrap(), Routine::Morning);
    assert_eq!(store.routine_at(Some(store.utc_ms(day, 14 * 60).unwrap())).unwrap(), Routine::Day);

    let policy = StreakPolicy { miss_allowance: 1, open_day: OpenDay::Zero, off_days: OffDays::Break };
    store.set_streak_policy(policy).unwrap();
    assert_eq!(store.streak_policy().unwrap(), policy);
    let read = store.create_habit(&HabitOptions::new("Read").routine(Routine::Evening)).unwrap();
    assert_eq!(read.routine, Routine::Evening);
    assert_eq!(store.habit_own_streak_policy(read.id).unwrap(), HabitStreakPolicy::default());
    store.set_habit_streak_policy(read.id, HabitStreakPolicy { miss_allowance: Some(3), open_day: None }).unwrap();
    assert_eq!(store.habit_own_streak_policy(read.id).unwrap(), HabitStreakPolicy { miss_allowance: Some(3), open_day: None });
    assert_eq!(store.habit_streak_policy(read.id).unwrap(), StreakPolicy { miss_allowance: 3, ..policy });
}

#[test]
fn habits_change_whole_and_entries_undo_last() {
    let dir = Dir::new("cap-update");
    let store = dir.store();
    let read = store.create_habit(&HabitOptions::new("Read").group("mind").unit("pages")).unwrap();
    assert_eq!((read.group.as_deref(), read.unit.as_deref()), (Some("mind"), Some("pages")));
    let change = HabitChange {
        name: Some("Read more".into()),
        unit: Some(None),
        group: Some(None),
        routine: Some(Routine::Morning),
        question: Some(Some("Did you read?".into())),
        position: Some(7),
        ..HabitChange::default()
    };
    store.update_habit(read.id, &change).unwrap();
    let changed = store.habit(read.id).unwrap();
    assert_eq!((changed.name.as_str(), changed.unit.as_deref(), changed.group.as_deref()), ("Read more", None, None));
    assert_eq!((changed.routine, changed.display.question.as_deref(), changed.display.position), (Routine::Morning, Some("Did you read?"), 7));
    let bad = HabitChange { colour: Some(Some("teal".into())), ..HabitChange::default() };
    assert_eq!(store.update_habit(read.id, &bad).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(store.habit(read.id).unwrap(), changed, "nothing written");

    let today = store.today().unwrap();
    let keyed = NewEntry::new(read.id, EntryKind::Done).note("chapter 3").key("tap-1").source(Source::Health).at_ms(store.utc_ms(today, 0).unwrap());
    let first = store.append_entry(&keyed).unwrap();
    assert_eq!(store.append_entry(&keyed).unwrap(), first, "a retry with its key appends nothing");
    let undo = store.undo_last(read.id, None).unwrap();
    let entries = all(store.entries(Some(read.id), today, today));
    assert_eq!((entries[0].id, entries[0].undone_by, entries[1].undoes), (first, Some(undo), Some(first)));
    assert_eq!((entries[0].note.as_deref(), entries[0].source, entries[0].recorded_at_ms), (Some("chapter 3"), Source::Health, store.utc_ms(today, 0).unwrap()));
    assert_eq!(entries.len(), 2);
    assert_eq!(store.undo_last(read.id, None).unwrap_err().kind(), ErrorKind::NotFound);
}

/// For every seeded history, the pure calls give what the store gives for the same days.
#[test]
fn pure_streaks_and_strength_agree_with_the_store_over_seeded_histories() {
    let dir = Dir::new("cap-pure");
    let store = dir.store();
    let policy = StreakPolicy { miss_allowance: 1, open_day: OpenDay::Previous, off_days: OffDays::Skip };
    store.set_streak_policy(policy).unwrap();
    let schedules = ["daily", "days:mon,wed,fri", "every:3", "weekly:3", "times:2/3"];
    let start = store.today().unwrap().plus(-120);
    for seed in 1..=25u64 {
        let mut random = Lcg(seed);
        let schedule = schedules[random.below(schedules.len() as u64) as usize];
        let habit = store.create_habit(&HabitOptions::new(&format!("Habit {seed}")).schedule(schedule).start(start)).unwrap();
        for n in 0..90 {
            match random.below(10) {
                0..=5 => drop(store.append(habit.id, EntryKind::Done, 0.0, Some(start.plus(n))).unwrap()),
                6 => drop(store.append(habit.id, EntryKind::Skip, 0.0, Some(start.plus(n))).unwrap()),
                _ => {}
            }
        }
        let as_of = start.plus(60 + random.below(30) as i32);
        let days = store.day_states(habit.id, start, as_of).unwrap();
        let rules = HabitRules::new(HabitOptions::new("Pure").schedule(schedule).start(start)).week_start(1);
        let pure = compute_streaks(&rules, Some(policy), &days, as_of).unwrap();
        assert_eq!(pure, store.streaks(habit.id, Some(as_of)).unwrap(), "seed {seed}, {schedule}");
        let strength = compute_strength(&rules, &days, start, as_of).unwrap();
        let stored = store.strength(habit.id, start, as_of).unwrap();
        // The open day differs by design (to_day for the pure call, today for the store's).
        assert_eq!(strength[..strength.len() - 1], stored[..stored.len() - 1], "seed {seed}, {schedule}");
    }
    let invalid = compute_streaks(&HabitRules::new(HabitOptions::new("Bad").schedule("weekly:9")), None, &[], Day(10)).unwrap_err();
    assert_eq!(invalid.kind(), ErrorKind::Invalid);
}

#[test]
fn vacations_due_groups_measurements_and_the_store_streaks() {
    let dir = Dir::new("cap-judging");
    let store = dir.store();
    let today = store.today().unwrap();
    let start = today.plus(-10);
    let read = store.create_habit(&HabitOptions::new("Read").group("mind").start(start)).unwrap();
    let sit = store.create_habit(&HabitOptions::new("Sit").group("mind").routine(Routine::Morning).start(start)).unwrap();
    let weight = store.create_habit(&HabitOptions::new("Weight").kind(Kind::Measurement).direction(Direction::AtMost).start(start)).unwrap();
    for back in 1..=3 {
        store.append(read.id, EntryKind::Done, 0.0, Some(today.plus(-back))).unwrap();
        store.append(sit.id, EntryKind::Done, 0.0, Some(today.plus(-back))).unwrap();
    }
    store.append(sit.id, EntryKind::Done, 0.0, None).unwrap();
    let due = store.due(None).unwrap();
    let read_due = due.iter().find(|d| d.habit_id == read.id).unwrap();
    let sit_due = due.iter().find(|d| d.habit_id == sit.id).unwrap();
    assert_eq!((read_due.state, sit_due.state, sit_due.routine), (DueState::Pending, DueState::Done, Routine::Morning));
    assert_eq!(due.first().unwrap().habit_id, sit.id, "morning first");

    let streaks = store.store_streaks(Some(today.plus(-1))).unwrap();
    assert_eq!(streaks.active.current.length, 3);
    let (day, window) = store.group_completion("MIND", Some(today.plus(-1)), today.plus(-3), today.plus(-1)).unwrap();
    assert_eq!((day.kept, day.judged, window.kept, window.judged), (2, 2, 6, 6));
    assert_eq!(store.group_completion("nobody", None, today, today).unwrap_err().kind(), ErrorKind::NotFound);

    let vacation = store.add_vacation(None, today.plus(-6), today.plus(-4)).unwrap();
    let excused = store.add_vacation(Some(read.id), today.plus(-5), today.plus(-5)).unwrap();
    let vacations = store.vacations().unwrap();
    assert_eq!(vacations, [
        Vacation { id: vacation, habit_id: None, first: today.plus(-6), last: today.plus(-4) },
        Vacation { id: excused, habit_id: Some(read.id), first: today.plus(-5), last: today.plus(-5) },
    ]);
    store.remove_vacation(vacation).unwrap();
    assert_eq!(store.vacations().unwrap().len(), 1);
    assert_eq!(store.remove_vacation(vacation).unwrap_err().kind(), ErrorKind::NotFound);

    for (back, kilos) in [(5, 80.0), (3, 79.0), (1, 79.5)] {
        store.append(weight.id, EntryKind::Amount, kilos, Some(today.plus(-back))).unwrap();
    }
    let m = store.measurements(weight.id, start, today).unwrap();
    assert_eq!((m.count, m.latest, m.best, m.change), (3, Some((today.plus(-1), 79.5)), Some((today.plus(-3), 79.0)), -0.5));
    assert_eq!(store.measurements(read.id, start, today).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn the_today_snapshot_for_a_widget() {
    let dir = Dir::new("cap-today");
    let store = dir.store();
    let today = store.today().unwrap();
    let read = store.create_habit(&HabitOptions::new("Read").start(today.plus(-3))).unwrap();
    store.append(read.id, EntryKind::Done, 0.0, None).unwrap();
    let at = store.utc_ms(today, 720).unwrap();
    let path = dir.0.join("today.json");
    store.write_today_snapshot(&path, Some(at)).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("{\"format\":\"habitcore-today\",\"version\":1,"), "{text}");
    assert!(text.contains("\"name\":\"Read\",\"routine\":\"anytime\",\"state\":\"done\""), "{text}");
    store.write_today_snapshot(&path, Some(at)).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "the same state, other bytes");
    let missing = dir.0.join("no such folder").join("today.json");
    assert_eq!(store.write_today_snapshot(&missing, None).unwrap_err().kind(), ErrorKind::Io);
}

#[test]
fn credits_by_account_with_rules_adjustments_and_sessions() {
    let dir = Dir::new("cap-credits");
    let store = dir.store();
    let kids = store.create_account("kids").unwrap();
    assert_eq!(store.find_account("KIDS").unwrap(), kids);
    assert_eq!(store.find_account("nobody").unwrap_err().kind(), ErrorKind::NotFound);
    let account = store.account(kids);
    assert!(format!("{account:?}").contains("Account"));
    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    account.set_rule(CreditRule::StepsPerMinute(50), None).unwrap();
    account.set_rule(CreditRule::HabitMinutes(read.id, 20), None).unwrap();
    account.set_rule(CreditRule::Expiry(Expiry::CarryOver), None).unwrap();
    let rules: Vec<_> = account.rules().unwrap().into_iter().map(|r| r.rule).collect();
    assert_eq!(rules, [CreditRule::StepsPerMinute(50), CreditRule::HabitMinutes(read.id, 20), CreditRule::Expiry(Expiry::CarryOver)]);
    assert_eq!(account.sync_steps(1000, None).unwrap().earned_now, 20);
    store.append(read.id, EntryKind::Done, 0.0, None).unwrap();
    assert_eq!(account.balance().unwrap(), 40);
    assert_eq!(store.balance().unwrap(), 0, "the default account earned nothing: no completion rule there");
    account.adjust(-5, Some("fixed by hand")).unwrap();
    let summary = account.day_summary(None).unwrap();
    assert_eq!((summary.steps, summary.earned, summary.adjusted, summary.available), (1000, 40, -5, 35));

    assert_eq!(account.unlock_state(None).unwrap().session, None);
    account.spend(10, Some("games"), true).unwrap();
    let unlocked = account.unlock_state(None).unwrap();
    let session = unlocked.session.expect("a session runs");
    assert!(unlocked.until_ms > unlocked.start_ms);
    let refund = store.end_session(session, None).unwrap();
    assert!((9..=10).contains(&refund), "{refund}");
    assert_eq!(store.end_session(session, None).unwrap_err().kind(), ErrorKind::Conflict);
    assert_eq!(account.balance().unwrap(), 25 + refund);
    let kinds: Vec<_> = all(account.entries(store.today().unwrap(), store.today().unwrap())).iter().map(|e| e.kind).collect();
    assert_eq!(kinds.last(), Some(&5), "the refund is the last entry");
    let causes: Vec<_> = all(account.entries(store.today().unwrap(), store.today().unwrap())).iter().map(|e| e.cause).collect();
    assert_eq!(causes[..3], [CreditCause::Steps, CreditCause::HabitEntry, CreditCause::Manual]);
    assert_eq!(account.set_rule(CreditRule::StepsPerMinute(0), None).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn the_award_catalogue_progress_and_referrals() {
    let dir = Dir::new("cap-awards");
    let store = dir.store();
    let catalogue = store.award_catalog_json().unwrap();
    assert!(catalogue.contains("\"metric\""), "{catalogue}");
    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    store.append(read.id, EntryKind::Done, 0.0, None).unwrap();
    let progress = all(store.award_progress(None));
    assert!(progress.iter().any(|a| a.value == 1 && !a.unlocked), "progress records nothing");
    assert_eq!(store.unlocked_awards().unwrap().count(), 0);
    let newly = all(store.evaluate_awards(None));
    let unlocked = all(store.unlocked_awards());
    assert_eq!(unlocked.iter().map(|a| &a.id).collect::<Vec<_>>(), newly.iter().map(|a| &a.id).collect::<Vec<_>>());
    assert!(unlocked.iter().all(|a| a.unlocked_day == Some(store.today().unwrap())));
    assert!(unlocked.iter().any(|a| (a.metric, a.scope) == (Metric::TotalCompletions, Scope::All)), "{unlocked:?}");

    let error = store.load_award_catalog("[{\"id\":\"x\"}]").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Invalid);
    assert_eq!(store.award_catalog_json().unwrap(), catalogue, "a refused catalogue changes nothing");
    let one = r#"{"format":"habitcore-awards","version":1,"rules":[
        {"id":"first-read","title":"First","metric":"total_completions","scope":"habit","habit":"Read","threshold":1}]}"#;
    match store.load_award_catalog(one) {
        Ok(()) => {
            assert_eq!(all(store.award_progress(None)).iter().map(|a| a.id.as_str()).collect::<Vec<_>>(), ["first-read"]);
            store.reset_award_catalog().unwrap();
            assert_eq!(store.award_catalog_json().unwrap(), catalogue);
        }
        Err(e) => panic!("the catalogue format changed: {e}"),
    }

    let code = store.referral_code().unwrap();
    assert_eq!((code.len(), store.referral_code().unwrap()), (8, code.clone()));
    assert_eq!(store.redeem_referral(&code).unwrap_err().kind(), ErrorKind::Conflict);
    let friend = Store::open(dir.0.join("friend.db")).unwrap();
    friend.redeem_referral(&code.to_lowercase()).unwrap();
    assert_eq!(friend.redeem_referral(&code).unwrap_err().kind(), ErrorKind::Conflict);
}

#[test]
fn proofs_keep_evidence_and_plugins_run_as_registered() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Dir::new("cap-plugins");
    let store = dir.store();
    let bed = store.create_habit(&HabitOptions::new("Bed")).unwrap();
    store.register_verifier("yes", "1", |e| Judgement {
        outcome: Outcome::Approved,
        confidence: 0.95,
        reason_code: "yes".into(),
        message: format!("{} bytes", e.data.len()),
    }).unwrap();
    store.set_proof_policy(None, &["yes"]).unwrap();
    let photo = [0x5Au8; 300];
    let kept = store.submit(&ProofInput::bytes(bed.id, &photo).media_type("image/x-test").keep_copy().metadata_json("{\"room\":\"bed\"}")).unwrap();
    assert_eq!(kept.outcome, Outcome::Approved);
    assert_eq!(store.proof_evidence(kept.proof_id).unwrap(), photo);
    let stretch = store.create_habit(&HabitOptions::new("Stretch")).unwrap();
    let file = dir.0.join("evidence.bin");
    std::fs::write(&file, [1u8; 40]).unwrap();
    let unkept = store.submit(&ProofInput::file(stretch.id, &file)).unwrap();
    assert_eq!(store.proof_evidence(unkept.proof_id).unwrap_err().kind(), ErrorKind::NotFound);
    let verdicts = all(store.habit_verdicts(Some(bed.id)));
    let decision = verdicts.iter().find(|v| v.stage == Stage::Decision).unwrap();
    assert_eq!((decision.proof_id, decision.habit_id, decision.outcome, decision.entry_id.is_some()), (kept.proof_id, bed.id, Outcome::Approved, true));
    assert_eq!(verdicts.iter().find(|v| v.verifier_id.as_deref() == Some("yes")).unwrap().reason_code.as_deref(), Some("yes"));
    assert_eq!(all(store.habit_verdicts(None)).len(), verdicts.len() + all(store.habit_verdicts(Some(stretch.id))).len());
    // Confidence 0.95 under an approve threshold of 0.99 goes to review.
    let review = ProofPolicy { verifiers: vec!["yes".into()], thresholds: Some((0.99, 0.5)), one_per_day: Some(false), ..ProofPolicy::default() };
    store.set_proof_policy(Some(stretch.id), review).unwrap();
    assert_eq!(store.submit_proof(stretch.id, &[2u8; 50], None).unwrap().outcome, Outcome::NeedsReview);
    let tested = store.test_plugin("yes", &file).unwrap();
    assert_eq!((tested.outcome, tested.message.as_str()), (Outcome::Approved, "40 bytes"));

    let script = dir.0.join("always.sh");
    std::fs::write(&script, "#!/bin/sh\ncat >/dev/null\necho '{\"outcome\":\"rejected\",\"confidence\":0.9,\"reason\":\"never\",\"message\":\"a shell said no\"}'\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let id = store.add_plugin(PluginKind::Executable, script.to_str().unwrap(), Some("always"), 5000).unwrap();
    assert_eq!(id, "always");
    assert_eq!(store.add_plugin(PluginKind::Executable, script.to_str().unwrap(), Some("always"), 0).unwrap_err().kind(), ErrorKind::Conflict);
    store.configure_plugin("always", Some("{\"strict\":true}")).unwrap();
    let listed = store.plugins_json().unwrap();
    assert!(listed.contains("\"always\"") && listed.contains("strict") && listed.contains("executable"), "{listed}");
    let said = store.test_plugin("always", &file).unwrap();
    assert_eq!((said.outcome, said.reason_code.as_str(), said.message.as_str()), (Outcome::Rejected, "never", "a shell said no"));
    assert_eq!(store.configure_plugin("always", Some("[1]")).unwrap_err().kind(), ErrorKind::Invalid);
    store.remove_plugin("always").unwrap();
    assert_eq!(store.plugins_json().unwrap(), "[]");
    assert_eq!(store.remove_plugin("always").unwrap_err().kind(), ErrorKind::NotFound);
}

#[test]
fn reminder_rules_change_from_a_day_and_instants_snooze() {
    let dir = Dir::new("cap-reminders");
    let store = dir.store();
    let today = store.today().unwrap();
    let read = store.create_habit(&HabitOptions::new("Read").start(today.plus(-3))).unwrap();
    let rule = store.add_reminder_rule(read.id, &ReminderSpec { quiet: Quiet::Drop, ..ReminderSpec::at(7 * 60) }).unwrap();
    store.update_reminder_rule(rule, &ReminderSpec { message: Some("read".into()), ..ReminderSpec::at(21 * 60) }, Some(today.plus(1))).unwrap();
    let now_rules = all(store.reminder_rules_on(Some(read.id), None));
    assert_eq!((now_rules[0].minute, now_rules[0].quiet), (7 * 60, Quiet::Drop));
    let later = all(store.reminder_rules_on(None, Some(today.plus(1))));
    assert_eq!((later[0].minute, later[0].message.as_deref(), later[0].from), (21 * 60, Some("read"), today.plus(1)));
    assert_eq!(store.update_reminder_rule(rule, &ReminderSpec::at(60), Some(today.plus(-1))).unwrap_err().kind(), ErrorKind::Invalid);

    assert_eq!(store.quiet_hours(None).unwrap(), None);
    store.set_quiet_hours(Some((6 * 60, 8 * 60)), None).unwrap();
    assert_eq!(store.quiet_hours(None).unwrap(), Some((360, 480)));
    let (from, to) = (store.utc_ms(today, 0).unwrap(), store.utc_ms(today.plus(1), 0).unwrap());
    assert_eq!(store.reminders(from, to).unwrap().count(), 0, "07:00 inside quiet hours, dropped");
    store.set_quiet_hours(None, None).unwrap();
    let due = all(store.reminders(from, to));
    assert_eq!(due.len(), 1);
    store.snooze(&due[0], due[0].at_ms + 10 * 60_000).unwrap();
    let after = all(store.reminders(from, to));
    assert_eq!(after.iter().map(|r| (r.at_ms - due[0].at_ms, r.fired)).collect::<Vec<_>>(), [(0, true), (600_000, false)]);
    let claimed = all(store.claim_reminders(from, to));
    assert_eq!(claimed.len(), 1);
    assert_eq!(store.claim_reminders(from, to).unwrap().count(), 0, "each instant is claimed once");
    store.remove_reminder_rule(rule, Some(today.plus(1))).unwrap();
    assert_eq!(store.reminder_rules_on(None, Some(today.plus(1))).unwrap().count(), 0);
    assert_eq!(store.reminder_rules(None).unwrap().count(), 1, "today keeps it");
}

#[test]
fn shields_lift_on_completion_and_report_what_comes_next() {
    let dir = Dir::new("cap-shields");
    let store = dir.store();
    let bed = store.create_habit(&HabitOptions::new("Bed")).unwrap();
    let mut rule = ShieldRule::new("Mornings", &[bed.id]).unwrap();
    assert_eq!((rule.lift, rule.start_minute, rule.end_minute), (ShieldLift::All, None, None), "the library's defaults");
    rule.start_minute = Some(0);
    rule.days = Some("daily".into());
    rule.key = Some("social".into());
    rule.budget = ShieldBudget::Week;
    rule.budget_count = 1;
    let id = store.add_shield_rule(&rule, None).unwrap();
    let listed = all(store.shield_rules(None));
    assert_eq!((listed[0].id, &listed[0].rule, listed[0].from), (id, &rule, store.today().unwrap()));

    let before = store.shield_revision().unwrap();
    let (states, revision) = store.shield_state(None).unwrap();
    assert_eq!(revision, before);
    assert_eq!((states[0].shielded, states[0].reason, states[0].outstanding.clone()), (true, ShieldReason::WindowOpen, vec![bed.id]));
    assert_eq!(states[0].emergency_left, Some(1));
    store.append(bed.id, EntryKind::Done, 0.0, None).unwrap();
    // A completion lifts on the next whole minute (rounding never unshields early).
    // (At 23:59 the next minute is tomorrow's window: read the last millisecond of today then.)
    let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let end_of_today = store.utc_ms(store.today().unwrap().plus(1), 0).unwrap() - 1;
    let (states, revision) = store.shield_state(Some((now_ms + 60_000).min(end_of_today))).unwrap();
    assert!(revision > before, "a completion moves the revision");
    assert_eq!((states[0].shielded, states[0].reason), (false, ShieldReason::Completed));

    let now = store.utc_ms(store.today().unwrap(), 0).unwrap();
    let (transitions, _) = store.shield_transitions(now, now + 2 * 86_400_000).unwrap();
    assert!(transitions.iter().any(|t| t.shielded && t.cause == ShieldCause::WindowStart), "{transitions:?}");
    assert!(transitions.iter().all(|t| t.rule_id == id && t.at_ms % 60_000 == 0 && t.zone == "UTC"));

    store.emergency_unlock(id, 15, Some("a call")).unwrap();
    assert_eq!(store.emergency_unlock(id, 15, None).unwrap_err().kind(), ErrorKind::Insufficient);
    let snapshot = dir.0.join("shields.json");
    store.write_shield_snapshot(&snapshot, None).unwrap();
    let text = std::fs::read_to_string(&snapshot).unwrap();
    assert!(text.contains("\"habitcore-shields\"") && text.contains("social"), "{text}");

    rule.lift = ShieldLift::Any;
    store.update_shield_rule(id, &rule, Some(store.today().unwrap().plus(1))).unwrap();
    assert_eq!(all(store.shield_rules(Some(store.today().unwrap().plus(1))))[0].rule.lift, ShieldLift::Any);
    let none = ShieldRule::new("Empty", &[]).unwrap();
    assert_eq!(store.add_shield_rule(&none, None).unwrap_err().kind(), ErrorKind::Invalid);
    store.remove_shield_rule(id, Some(store.today().unwrap().plus(1))).unwrap();
    assert_eq!(store.shield_rules(Some(store.today().unwrap().plus(2))).unwrap().count(), 0);
}

#[test]
fn sync_names_replicas_and_carries_evidence_when_asked() {
    let dir = Dir::new("cap-sync");
    let phone = Store::open(dir.0.join("phone.db")).unwrap();
    let laptop = Store::open(dir.0.join("laptop.db")).unwrap();
    let (phone_id, laptop_id) = (phone.replica_id().unwrap(), laptop.replica_id().unwrap());
    assert_ne!(phone_id, laptop_id);
    let bed = phone.create_habit(&HabitOptions::new("Bed")).unwrap();
    phone.register_verifier("yes", "1", |_| Judgement { outcome: Outcome::Approved, confidence: 1.0, reason_code: "y".into(), message: String::new() }).unwrap();
    phone.set_proof_policy(None, &["yes"]).unwrap();
    let proof = phone.submit(&ProofInput::bytes(bed.id, &[3u8; 100]).keep_copy()).unwrap();
    let state = phone.sync_state().unwrap();
    let replicas = sync_state_replicas(&state).unwrap();
    assert_eq!(replicas.len(), 1);
    assert_eq!(replicas[0].0, phone_id);
    assert!(replicas[0].1 >= 3, "{replicas:?}");
    assert_eq!(sync_state_replicas(b"junk").unwrap_err().kind(), ErrorKind::Invalid);

    laptop.sync_apply(&phone.sync_changes(&laptop.sync_state().unwrap()).unwrap()).unwrap();
    let canonical_proof = |store: &Store| all(store.verdicts(ProofId(1))).len();
    assert!(canonical_proof(&laptop) > 0);
    assert_eq!(laptop.proof_evidence(ProofId(1)).unwrap_err().kind(), ErrorKind::NotFound, "evidence stays home by default");
    laptop.sync_apply(&phone.sync_changes_with_evidence(&[]).unwrap()).unwrap();
    assert_eq!(laptop.proof_evidence(ProofId(1)).unwrap(), [3u8; 100]);
    assert_eq!(proof.proof_id, ProofId(1));
}

#[test]
fn quit_habits_log_relapses_and_stand_against_their_allowance() {
    let dir = Dir::new("cap-quit");
    let store = dir.store();
    store.set_timezone("UTC").unwrap();
    store.set_week_start(1).unwrap();
    let start = Day::parse("2026-03-02").unwrap(); // a Monday
    let noon = |day: Day| i64::from(day.0) * 86_400_000 + 43_200_000;
    let quit = store
        .create_habit(&HabitOptions::new("Smoking").kind(Kind::Quit).schedule("weekly:1").target(4.0).unit("EUR").start(start))
        .unwrap();
    assert_eq!(quit.kind, Kind::Quit);
    let first = store.relapse(quit.id, Some("party"), 3.0, Some(noon(start.plus(9)))).unwrap();
    let second = store.relapse(quit.id, None, 0.0, Some(noon(start.plus(10)))).unwrap();
    let s = store.quit_status(quit.id, Some(noon(start.plus(12)))).unwrap();
    assert_eq!(s.as_of, start.plus(12));
    assert_eq!(s.last_relapse, Some((second, noon(start.plus(10)), start.plus(10))));
    assert_eq!((s.days_since, s.since_ms), (2, 2 * 86_400_000));
    assert_eq!((s.current_clean_days, s.best_clean_days, s.best_clean), (2, 9, Some((start, start.plus(8)))));
    assert_eq!((s.period, s.period_days), (QuitPeriod::Week, (start.plus(7), start.plus(13))));
    assert_eq!((s.period_relapses, s.allowance, s.over_allowance, s.periods_within), (2, 1, true, 0));
    assert_eq!((s.relapses, s.relapse_amount, s.saved), (2, 3.0, 44.0));
    store.undo(second).unwrap();
    let after = store.quit_status(quit.id, Some(noon(start.plus(12)))).unwrap();
    assert_eq!((after.last_relapse.map(|r| r.0), after.over_allowance), (Some(first), false));

    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    assert_eq!(store.quit_status(read.id, None).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(store.relapse(read.id, None, 0.0, None).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(store.relapse(quit.id, None, -1.0, None).unwrap_err().kind(), ErrorKind::Invalid);
    let biting = HabitOptions::new("Biting").kind(Kind::Quit).schedule("days:mon");
    assert_eq!(store.create_habit(&biting).unwrap_err().kind(), ErrorKind::Invalid);
}

#[test]
fn timers_fold_their_events_and_count_a_stopped_timer_once() {
    let dir = Dir::new("cap-timers");
    let store = dir.store();
    store.set_timezone("UTC").unwrap();
    let day = Day::parse("2026-05-04").unwrap();
    let habit = store.create_habit(&HabitOptions::new("Piano").kind(Kind::Duration).target(600.0).start(day)).unwrap();
    let t0 = i64::from(day.0) * 86_400_000 + 7 * 3_600_000;
    let minute = 60_000;
    let timer = store.start_timer(habit.id, false, Some(t0)).unwrap();
    let auto = store.start_timer(habit.id, true, Some(t0 + minute)).unwrap();
    store.act_on_timer(timer, TimerAction::Pause, Some(t0 + 5 * minute)).unwrap();
    let open: Vec<TimerStatus> = store.running_timers(Some(t0 + 8 * minute)).unwrap().collect::<Result<_>>().unwrap();
    assert_eq!(
        open.iter().map(|t| (t.id, t.state, t.elapsed_ms)).collect::<Vec<_>>(),
        [(timer, TimerState::Paused, 5 * minute), (auto, TimerState::Running, 7 * minute)]
    );
    store.act_on_timer(timer, TimerAction::Resume, Some(t0 + 10 * minute)).unwrap();
    store.act_on_timer(timer, TimerAction::Stop, Some(t0 + 12 * minute)).unwrap();
    let s = store.timer_status(timer, None).unwrap();
    assert_eq!((s.state, s.elapsed_ms, s.seconds, s.day, s.ended_at_ms), (TimerState::Stopped, 7 * minute, 420, day, Some(t0 + 12 * minute)));
    let a = store.timer_status(auto, None).unwrap();
    assert_eq!((a.state, a.completed, a.auto_complete, a.seconds, a.ended_at_ms), (TimerState::Stopped, true, true, 600, Some(t0 + 11 * minute)));
    assert_eq!(store.day_total(habit.id, day).unwrap(), 1020.0);
    assert_eq!(store.act_on_timer(timer, TimerAction::Stop, None).unwrap_err().kind(), ErrorKind::Conflict);
    assert_eq!(store.timer_status(TimerId(999), None).unwrap_err().kind(), ErrorKind::NotFound);
    let read = store.create_habit(&HabitOptions::new("Read")).unwrap();
    assert_eq!(store.start_timer(read.id, false, None).unwrap_err().kind(), ErrorKind::Invalid);
}
