//! Files: export and import with progress and cancel, backups, other apps' data.

use crate::{c_path, c_text, check, day_or_none, owned_text, sys, Day, Format, Result, Store};
use std::any::Any;
use std::ffi::{c_char, c_void};
use std::ops::ControlFlow;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::path::Path;
use std::ptr;

/// A progress callback of a long export or import: `(done, total)` units (see each
/// call); `ControlFlow::Break(())` cancels it, which then writes nothing and returns
/// `ErrorKind::Cancelled`. It runs on the calling thread, while the store is held: a
/// call on the same store from inside it is `ErrorKind::Misuse`. A panic in it cancels
/// the call, and the panic goes on once the call has returned.
pub type Progress<'a> = &'a mut dyn FnMut(i64, i64) -> ControlFlow<()>;

/// Loop Habit Tracker's CSV export: its Habits.csv and top-level Checkmarks.csv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopCsv {
    pub habits: String,
    pub checkmarks: String,
}

struct ProgressCall<'a, 'b> {
    report: &'a mut Progress<'b>,
    panic: Option<Box<dyn Any + Send>>,
}

unsafe extern "C" fn report_progress(done: i64, total: i64, user_data: *mut c_void) -> i32 {
    if user_data.is_null() {
        return 1;
    }
    let call = &mut *(user_data as *mut ProgressCall);
    if call.panic.is_some() {
        return 1;
    }
    match catch_unwind(AssertUnwindSafe(|| (call.report)(done, total))) {
        Ok(ControlFlow::Continue(())) => 0,
        Ok(ControlFlow::Break(())) => 1,
        Err(panic) => {
            call.panic = Some(panic);
            1
        }
    }
}

/// Runs a call that takes an hc_transfer_progress, re-raising a panic of the callback after it.
fn with_progress(progress: Option<Progress<'_>>, run: impl FnOnce(sys::hc_transfer_progress, *mut c_void) -> i32) -> Result<()> {
    let Some(mut report) = progress else {
        return check(run(None, ptr::null_mut()));
    };
    let mut call = ProgressCall { report: &mut report, panic: None };
    let status = run(Some(report_progress), &mut call as *mut ProgressCall as *mut c_void);
    if let Some(panic) = call.panic {
        resume_unwind(panic);
    }
    check(status)
}

impl Store {
    /// A consistent copy of the whole store in a new file at `path` (never overwrites:
    /// `ErrorKind::Conflict`); it opens like the original and is a sync replica of its own.
    pub fn backup(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        check(unsafe { sys::hc_store_backup(self.raw, path.as_ptr()) })
    }

    /// [`Store::export_json`]'s document (or JSON Lines) written to `path` record by
    /// record, whole or not at all; `progress` counts records.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// # let dir = std::env::temp_dir().join(format!("habitcore-doc-export-{}", std::process::id()));
    /// # std::fs::create_dir_all(&dir).unwrap();
    /// let store = habitcore::Store::open(dir.join("a.db")).unwrap();
    /// store.create_habit(&habitcore::HabitOptions::new("Read")).unwrap();
    /// let mut last = (0, 0);
    /// store.export_file(dir.join("a.jsonl"), habitcore::Format::Jsonl, Some(&mut |done, total| {
    ///     last = (done, total);
    ///     ControlFlow::Continue(())
    /// })).unwrap();
    /// assert!(last.1 > 0 && last.0 == last.1);
    /// let error = store.export_file(dir.join("b.jsonl"), habitcore::Format::Jsonl,
    ///                               Some(&mut |_, _| ControlFlow::Break(()))).unwrap_err();
    /// assert_eq!(error.kind(), habitcore::ErrorKind::Cancelled);
    /// assert!(!dir.join("b.jsonl").exists());
    /// # drop(store); std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn export_file(&self, path: impl AsRef<Path>, format: Format, progress: Option<Progress<'_>>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        with_progress(progress, |report, user_data| unsafe {
            sys::hc_store_export_file(self.raw, path.as_ptr(), format.raw(), report, user_data)
        })
    }

    /// Imports an export file, all or nothing, as [`Store::import`] does; `progress` counts
    /// the file's bytes (each record is written as read). A cancel writes nothing.
    pub fn import_file(&self, path: impl AsRef<Path>, format: Format, progress: Option<Progress<'_>>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        with_progress(progress, |report, user_data| unsafe {
            sys::hc_store_import_file(self.raw, path.as_ptr(), format.raw(), report, user_data)
        })
    }

    /// Imports Loop Habit Tracker's CSV export (the text of Habits.csv and Checkmarks.csv), all or nothing.
    pub fn import_loop_csv(&self, habits_csv: &str, checkmarks_csv: &str) -> Result<()> {
        let (habits, checkmarks) = (c_text(habits_csv, "Habits.csv")?, c_text(checkmarks_csv, "Checkmarks.csv")?);
        check(unsafe { sys::hc_store_import_loop_csv(self.raw, habits.as_ptr(), checkmarks.as_ptr()) })
    }

    /// Imports Loop Habit Tracker's CSV export as the zip Loop hands out, notes included.
    pub fn import_loop_zip(&self, zip: &[u8]) -> Result<()> {
        check(unsafe { sys::hc_store_import_loop_zip(self.raw, zip.as_ptr(), zip.len() as i64) })
    }

    /// Imports Loop Habit Tracker's full backup (its SQLite database) from `path`, read only.
    pub fn import_loop_db(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        check(unsafe { sys::hc_store_import_loop_db(self.raw, path.as_ptr()) })
    }

    /// The store in Loop Habit Tracker's CSV format, days up to `to` (None: today).
    pub fn export_loop_csv(&self, to: Option<Day>) -> Result<LoopCsv> {
        let (mut habits, mut checkmarks): (*mut c_char, *mut c_char) = (ptr::null_mut(), ptr::null_mut());
        check(unsafe { sys::hc_store_export_loop_csv(&mut habits, &mut checkmarks, self.raw, day_or_none(to)) })?;
        Ok(LoopCsv { habits: owned_text(habits), checkmarks: owned_text(checkmarks) })
    }

    /// Imports HabitBull's CSV export, all or nothing.
    pub fn import_habitbull_csv(&self, csv: &str) -> Result<()> {
        let csv = c_text(csv, "csv")?;
        check(unsafe { sys::hc_store_import_habitbull_csv(self.raw, csv.as_ptr()) })
    }
}
