//! What the integration tests share: a temporary folder per test, removed after it.
#![allow(dead_code)] // each test file uses its part

use std::path::PathBuf;

pub struct Dir(pub PathBuf);

impl Dir {
    pub fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("habitcore-rs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }
    pub fn store(&self) -> habitcore::Store {
        habitcore::Store::open(self.0.join("habits.db")).unwrap()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every item of a list, or the first error.
pub fn all<T>(list: habitcore::Result<impl Iterator<Item = habitcore::Result<T>>>) -> Vec<T> {
    list.unwrap().collect::<habitcore::Result<Vec<T>>>().unwrap()
}
