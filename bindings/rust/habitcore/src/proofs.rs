//! Proof submission with every field, kept evidence, and plugins.

use crate::{buffer, c_path, c_text, char_array, check, nonzero, opt_ptr, opt_text, owned_text, sys, EntryId, HabitId,
            Judgement, Outcome, PluginKind, ProofId, ProofResult, Result, Store};
use std::ffi::c_char;
use std::path::{Path, PathBuf};
use std::ptr;

/// A proof to submit ([`Store::submit`]): evidence bytes or a file, and what is known of it.
#[derive(Debug, Clone)]
pub struct ProofInput<'a> {
    habit: HabitId,
    evidence: Evidence<'a>,
    media_type: Option<String>,
    taken_at_ms: i64,
    metadata_json: Option<String>,
    keep_copy: bool,
}

#[derive(Debug, Clone)]
enum Evidence<'a> {
    Bytes(&'a [u8]),
    File(PathBuf),
}

impl<'a> ProofInput<'a> {
    /// Evidence in memory.
    pub fn bytes(habit: HabitId, data: &'a [u8]) -> Self {
        ProofInput { habit, evidence: Evidence::Bytes(data), media_type: None, taken_at_ms: 0, metadata_json: None, keep_copy: false }
    }
    /// Evidence in a file.
    pub fn file(habit: HabitId, path: impl AsRef<Path>) -> Self {
        ProofInput {
            habit,
            evidence: Evidence::File(path.as_ref().to_path_buf()),
            media_type: None,
            taken_at_ms: 0,
            metadata_json: None,
            keep_copy: false,
        }
    }
    /// The media type (else guessed from the first bytes).
    pub fn media_type(mut self, media_type: &str) -> Self {
        self.media_type = Some(media_type.into());
        self
    }
    /// When the caller says it was taken (UTC ms).
    pub fn taken_at_ms(mut self, at_ms: i64) -> Self {
        self.taken_at_ms = at_ms;
        self
    }
    /// A JSON object of metadata (up to 4 KiB).
    pub fn metadata_json(mut self, json: &str) -> Self {
        self.metadata_json = Some(json.into());
        self
    }
    /// Keep the evidence bytes in the store (HC_PROOF_KEEP_COPY), for [`Store::proof_evidence`].
    pub fn keep_copy(mut self) -> Self {
        self.keep_copy = true;
        self
    }
}

fn proof_result(out: &sys::hc_proof_result) -> ProofResult {
    ProofResult {
        outcome: Outcome::from_raw(out.outcome),
        proof_id: ProofId(out.proof_id),
        entry_id: nonzero(out.entry_id, EntryId),
        confidence: out.confidence,
        reason_code: char_array(&out.reason_code),
        message: char_array(&out.message),
    }
}

impl Store {
    /// Submits a proof: built-in checks, the policy's verifiers, the decision, and the
    /// completion when approved. A verdict that is not approved is still `Ok`.
    pub fn submit(&self, proof: &ProofInput<'_>) -> Result<ProofResult> {
        let mut p = defaults!(hc_proof_input_init, sys::hc_proof_input);
        let media_type = opt_text(proof.media_type.as_deref(), "media type")?;
        let metadata = opt_text(proof.metadata_json.as_deref(), "metadata")?;
        let path = match &proof.evidence {
            Evidence::File(path) => Some(c_path(path)?),
            Evidence::Bytes(_) => None,
        };
        p.habit_id = proof.habit.0;
        if let Evidence::Bytes(data) = proof.evidence {
            p.bytes = data.as_ptr();
            p.size = data.len() as i64;
        }
        p.path = opt_ptr(&path);
        p.media_type = opt_ptr(&media_type);
        p.metadata_json = opt_ptr(&metadata);
        p.taken_at_ms = proof.taken_at_ms;
        p.flags = if proof.keep_copy { sys::HC_PROOF_KEEP_COPY } else { 0 };
        let mut out = defaults!(hc_proof_result_init, sys::hc_proof_result);
        check(unsafe { sys::hc_proof_submit(&mut out, self.raw, &p) })?;
        Ok(proof_result(&out))
    }

    /// The evidence bytes a proof keeps (`ErrorKind::NotFound` when none are kept).
    pub fn proof_evidence(&self, proof: ProofId) -> Result<Vec<u8>> {
        buffer(|out, capacity, total| unsafe { sys::hc_proof_evidence(out, capacity, total, self.raw, proof.0) })
    }

    /// Registers a plugin in the store; returns its id. `id`: an executable's (None: its
    /// file name; a shared object names its own). `timeout_ms` 0: the default (10 s).
    pub fn add_plugin(&self, kind: PluginKind, path: &str, id: Option<&str>, timeout_ms: i64) -> Result<String> {
        let path = c_text(path, "path")?;
        let id = opt_text(id, "plugin id")?;
        let mut out: *mut c_char = ptr::null_mut();
        check(unsafe { sys::hc_plugin_add(&mut out, self.raw, kind.raw(), path.as_ptr(), opt_ptr(&id), timeout_ms) })?;
        Ok(owned_text(out))
    }

    /// Removes a registered plugin.
    pub fn remove_plugin(&self, id: &str) -> Result<()> {
        let id = c_text(id, "plugin id")?;
        check(unsafe { sys::hc_plugin_remove(self.raw, id.as_ptr()) })
    }

    /// The registered plugins as a JSON array (id, kind, path, version, timeout_ms, config).
    pub fn plugins_json(&self) -> Result<String> {
        let mut out: *mut c_char = ptr::null_mut();
        check(unsafe { sys::hc_plugin_list_json(&mut out, self.raw) })?;
        Ok(owned_text(out))
    }

    /// Sets a plugin's settings in this store (a JSON object), or clears them (None).
    pub fn configure_plugin(&self, id: &str, config_json: Option<&str>) -> Result<()> {
        let id = c_text(id, "plugin id")?;
        let config = opt_text(config_json, "config")?;
        check(unsafe { sys::hc_plugin_configure(self.raw, id.as_ptr(), opt_ptr(&config)) })
    }

    /// Runs one verifier (a registered closure or a plugin) on a file and gives its
    /// answer, recording nothing.
    pub fn test_plugin(&self, id: &str, path: impl AsRef<Path>) -> Result<Judgement> {
        let id = c_text(id, "verifier id")?;
        let path = c_path(path.as_ref())?;
        let mut out = defaults!(hc_proof_result_init, sys::hc_proof_result);
        check(unsafe { sys::hc_plugin_test(&mut out, self.raw, id.as_ptr(), path.as_ptr()) })?;
        Ok(Judgement {
            outcome: Outcome::from_raw(out.outcome),
            confidence: out.confidence,
            reason_code: char_array(&out.reason_code),
            message: char_array(&out.message),
        })
    }
}
