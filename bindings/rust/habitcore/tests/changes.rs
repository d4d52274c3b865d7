//! The store revision and the change feed against the real library: another handle's
//! commits, each change's habit and days, the compact form, bad input.
use habitcore::{ChangeArea, Day, EntryKind, ErrorKind, HabitOptions, Store};

mod support;
use support::{all, Dir};

#[test]
fn revision_and_changes() {
    let dir = Dir::new("changes");
    let writer = dir.store();
    let reader = Store::open_readonly(dir.0.join("habits.db")).unwrap();
    let start = reader.revision().unwrap();
    let walk = writer.create_habit(&HabitOptions::new("Walk")).unwrap().id;
    let after_habit = reader.revision().unwrap();
    assert!(after_habit > start, "another handle's commit moves the revision");
    let day = Day::parse("2026-03-10").unwrap();
    writer.append(walk, EntryKind::Done, 0.0, Some(day)).unwrap();
    writer.append(walk, EntryKind::Done, 0.0, Some(day.plus(1))).unwrap();
    writer.add_vacation(None, Day::parse("2026-04-01").unwrap(), Day::parse("2026-04-05").unwrap()).unwrap();
    let changes = all(reader.changes_after(after_habit, 100, false));
    assert_eq!(changes.iter().map(|c| c.area).collect::<Vec<_>>(), [ChangeArea::Entry, ChangeArea::Entry, ChangeArea::Vacation]);
    assert_eq!(changes.iter().map(|c| c.habit_id).collect::<Vec<_>>(), [Some(walk), Some(walk), None]);
    assert_eq!(changes.iter().map(|c| (c.first_day, c.last_day)).collect::<Vec<_>>(), [
        (Some(day), Some(day)),
        (Some(day.plus(1)), Some(day.plus(1))),
        (Some(Day::parse("2026-04-01").unwrap()), Some(Day::parse("2026-04-05").unwrap()))
    ]);
    assert_eq!(changes.iter().map(|c| c.revision).collect::<Vec<_>>(), (after_habit + 1..=after_habit + 3).collect::<Vec<_>>());
    assert_eq!(reader.revision().unwrap(), after_habit + 3);
    assert!(all(reader.changes_after(after_habit + 3, 100, false)).is_empty());
    let created = all(reader.changes_after(start, 1, false));
    assert_eq!((created[0].area, created[0].first_day, created[0].last_day), (ChangeArea::Habit, None, None));
    let merged: Vec<_> = all(reader.changes_after(after_habit, 100, true)).into_iter().filter(|c| c.area == ChangeArea::Entry).collect();
    assert_eq!(merged.len(), 1);
    assert_eq!((merged[0].first_day, merged[0].last_day, merged[0].revision), (Some(day), Some(day.plus(1)), after_habit + 2));
    assert_eq!(reader.changes_after(-1, 100, false).unwrap_err().kind(), ErrorKind::Invalid);
    assert_eq!(reader.changes_after(0, 0, false).unwrap_err().kind(), ErrorKind::Invalid);
}
