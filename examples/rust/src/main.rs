//! The habitcore crate in a few lines: a week of a habit, a skip, an undo, a Rust verifier.
//! Usage: HABITCORE_LIB_DIR=dir LD_LIBRARY_PATH=dir cargo run -- STORE_PATH
use habitcore::{Day, EntryKind, HabitOptions, Judgement, Outcome, Store};

fn main() -> habitcore::Result<()> {
    let path = std::env::args().nth(1).expect("usage: habitcore-example STORE_PATH");
    let store = Store::open(path)?;
    let monday = Day::parse("2026-03-02")?;
    let meditate = store.create_habit(&HabitOptions::new("Meditate").start(monday))?;
    store.append(meditate.id, EntryKind::Done, 0.0, Some(monday))?;
    store.append(meditate.id, EntryKind::Skip, 0.0, Some(monday.plus(1)))?;
    store.undo(store.append(meditate.id, EntryKind::Done, 0.0, Some(monday.plus(2)))?)?;
    store.append(meditate.id, EntryKind::Done, 0.0, Some(monday.plus(4)))?;
    let days = store.day_states(meditate.id, monday, monday.plus(4))?;
    let done: Vec<String> = days.iter().filter(|d| d.done).map(|d| d.day.to_string()).collect();

    store.register_verifier("jpeg", "1.0", |evidence| Judgement {
        outcome: if evidence.data.starts_with(&[0xFF, 0xD8]) { Outcome::Approved } else { Outcome::Rejected },
        confidence: 0.9,
        reason_code: "magic".into(),
        message: format!("a {}-byte JPEG", evidence.data.len()),
    })?;
    store.set_proof_policy(None, &["jpeg"])?;
    let mut photo = vec![0xFF, 0xD8, 0xFF, 0xE0];
    photo.resize(400, 0);
    let proof = store.submit_proof(store.create_habit(&HabitOptions::new("Stretch"))?.id, &photo, Some("image/jpeg"))?;
    let streaks = store.streaks(meditate.id, Some(monday.plus(4)))?;
    println!("rust example: Meditate done on {} (streak {}); the Rust verifier said {:?}: {}",
             done.join(" and "), streaks.current.length, proof.outcome, proof.message);
    Ok(())
}
