//! Explicit transactions (hc_store_begin, hc_store_commit, hc_store_rollback).

use crate::{check, sys, Result, Store};
use std::fmt;
use std::ops::Deref;

/// An open explicit transaction: everything done through it is written at once at
/// [`Transaction::commit`], or not at all. Dropping it uncommitted rolls it back (as
/// does an error on the way out of a function that `?`s).
///
/// It derefs to the [`Store`], so every call works inside it. It holds the store by
/// `&mut`: the header's transactions belong to the handle, so no other thread may use
/// the handle meanwhile.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("habitcore-doc-tx-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let mut store = habitcore::Store::open(dir.join("tx.db")).unwrap();
/// let tx = store.transaction().unwrap();
/// tx.create_habit(&habitcore::HabitOptions::new("Read")).unwrap();
/// drop(tx); // rolled back
/// assert_eq!(store.habits(false).unwrap().count(), 0);
/// let tx = store.transaction().unwrap();
/// tx.create_habit(&habitcore::HabitOptions::new("Read")).unwrap();
/// tx.commit().unwrap();
/// assert_eq!(store.habits(false).unwrap().count(), 1);
/// # drop(store); std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct Transaction<'s> {
    store: &'s Store,
    open: bool,
}

impl Store {
    /// Begins an explicit transaction (`ErrorKind::Misuse` when one is open already,
    /// for instance one begun through `as_raw`).
    pub fn transaction(&mut self) -> Result<Transaction<'_>> {
        check(unsafe { sys::hc_store_begin(self.raw) })?;
        Ok(Transaction { store: self, open: true })
    }
}

impl Transaction<'_> {
    /// Writes everything done in the transaction. On an error (`Busy`, `Io`) nothing
    /// is written: the transaction is rolled back as it is dropped.
    pub fn commit(mut self) -> Result<()> {
        check(unsafe { sys::hc_store_commit(self.store.raw) })?;
        self.open = false;
        Ok(())
    }

    /// Drops everything done in the transaction, reporting a failure that `Drop` would swallow.
    pub fn rollback(mut self) -> Result<()> {
        self.open = false;
        check(unsafe { sys::hc_store_rollback(self.store.raw) })
    }
}

impl Deref for Transaction<'_> {
    type Target = Store;
    fn deref(&self) -> &Store {
        self.store
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open {
            unsafe { sys::hc_store_rollback(self.store.raw) };
        }
    }
}

impl fmt::Debug for Transaction<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Transaction").field("store", self.store).field("open", &self.open).finish()
    }
}
