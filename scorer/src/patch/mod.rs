//! Unified and git diffs: parsing, and applying them to a [`crate::tree::Tree`] as `git apply` does.
//!
//! The official verdict starts with a plain `git apply PATCH` at the repository root; if it fails
//! the task is unresolved. [`apply`] reproduces that decision (and git's reason) in memory:
//! [`parse`] follows git's `apply.c` parser line for line (header detection, `-p1` stripping,
//! hunk counting, the quirks of truncated and over-long hunks), and the strict apply follows its
//! matching rules (exact bytes, anchoring at the start and end of a file, the alternating offset
//! search, no fuzz, all or nothing). `GIT binary patch` sections are decoded (base85, zlib
//! through `miniz_oxide`) and applied with git's blob-id checks; failures carry git's message
//! whole, as git prints it. An opt-in [`Fallback`] ladder offers SWE-bench-like
//! partial and fuzzy application; its result always names the rung that applied.

mod apply;
mod fallback;
mod parse;
mod path;
mod zdiag;

use serde::{Deserialize, Serialize};

use crate::tree::Tree;

pub use parse::parse;
/// For the differential test against zlib itself.
#[doc(hidden)]
pub use zdiag::inflate_error;

/// One parsed patch: the per-file diffs in input order, borrowing the patch text.
#[derive(Debug, Clone)]
pub struct Patch<'a> {
    pub files: Vec<FilePatch<'a>>,
    /// git's error when it stopped reading before the end (a corrupt or unrecognised
    /// `GIT binary patch`): git still applies the files before it, and fails with this message
    /// when they fail or when there are none.
    pub stop_error: Option<String>,
}

/// `git apply` keeps "unknown" states for traditional diffs (is this a creation?) until it sees the
/// tree; `Tri` carries that three-valued flag exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tri {
    Unknown,
    No,
    Yes,
}

impl Tri {
    /// git's `0 < flag`.
    pub fn is_yes(self) -> bool {
        self == Tri::Yes
    }
    /// git's truthiness of the int flag (`-1` counts as true).
    pub fn truthy(self) -> bool {
        self != Tri::No
    }
}

/// The changes to one file, as `git apply` parsed them.
#[derive(Debug, Clone)]
pub struct FilePatch<'a> {
    /// Path before the change (`None` for a creation), after `-p` stripping, as raw bytes.
    pub old_name: Option<Vec<u8>>,
    /// Path after the change (`None` for a deletion).
    pub new_name: Option<Vec<u8>>,
    pub is_new: Tri,
    pub is_delete: Tri,
    pub is_rename: bool,
    pub is_copy: bool,
    /// Octal modes from the header, 0 when absent.
    pub old_mode: u32,
    pub new_mode: u32,
    /// Blob id prefixes from the `index` line (possibly abbreviated, possibly empty).
    pub old_oid_prefix: String,
    pub new_oid_prefix: String,
    pub is_binary: bool,
    /// The decoded hunks of a `GIT binary patch` section: forward, then the optional reverse one.
    /// Empty for `Binary files ... differ` (no data).
    pub binary: Vec<BinaryHunk>,
    pub hunks: Vec<Hunk<'a>>,
    /// 1-based line of the patch where this file's header starts.
    pub line: usize,
}

/// How a binary hunk's data makes the postimage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryMethod {
    /// The data is the new content.
    Literal,
    /// The data is a git delta against the old content.
    Delta,
}

/// One `literal`/`delta` hunk of a `GIT binary patch`, base85-decoded and inflated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinaryHunk {
    pub method: BinaryMethod,
    pub data: Vec<u8>,
}

/// One `@@ -a,b +c,d @@` hunk.
#[derive(Debug, Clone)]
pub struct Hunk<'a> {
    pub old_pos: u64,
    pub old_lines: u64,
    pub new_pos: u64,
    pub new_lines: u64,
    /// Context lines before the first and after the last change.
    pub leading: u64,
    pub trailing: u64,
    /// The hunk text, header line included (and a trailing `\ No newline` line if any).
    pub text: &'a [u8],
    /// 1-based line of the hunk header in the patch.
    pub line: usize,
}

/// Why the patch text itself is unusable; the wording follows git's messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    #[error("corrupt patch at line {line}")]
    Corrupt { line: usize },
    #[error("patch fragment without header at line {line}: {text}")]
    FragmentWithoutHeader { line: usize, text: String },
    #[error("patch with only garbage at line {line}")]
    Garbage { line: usize },
    #[error("{message}")]
    Header { line: usize, message: String },
}

impl PatchError {
    /// The 1-based patch line the error refers to.
    pub fn line(&self) -> usize {
        match self {
            PatchError::Corrupt { line }
            | PatchError::FragmentWithoutHeader { line, .. }
            | PatchError::Garbage { line }
            | PatchError::Header { line, .. } => *line,
        }
    }
}

/// How far [`apply`] may go beyond the official strict rule. Each rung runs only when the strict
/// one failed, and the outcome's [`ApplyStep`] names the rung that produced the tree, so a
/// fallback result is never mistaken for the official verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// Strict `git apply` only: the official rule.
    #[default]
    None,
    /// Strict, then `git apply --reject`: every file change git accepts is written, hunks that do
    /// not match are left out and reported (`FileResult::Rejected`, `rejected_hunks`). The result
    /// is byte-identical to real `git apply --reject` (differential test), except for a deletion
    /// with a rejected hunk, where git dies ("internal error") and the file is left untouched here.
    Reject,
    /// Strict, then the partial rung with GNU-`patch`-like matching instead of git's: each hunk is
    /// searched anywhere in the file from its expected line (shifted by the previous hunk's
    /// offset), without git's start/end anchoring, ignoring up to [`FUZZ_LINES`] context lines
    /// at each end; hunks that still do not match are rejected and reported. At fuzz 0 this
    /// matches wherever the reject rung would, so the ladder strict → reject → fuzz collapses to
    /// strict → fuzz.
    Fuzz,
}

/// Context lines the fuzz rung may ignore at each end of a hunk (`patch --fuzz=2`, as the
/// official harness records in `patch_fuzz`).
pub const FUZZ_LINES: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ApplyOptions {
    pub fallback: Fallback,
}

/// Overall result, named as the official harness names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PatchStatus {
    /// Empty or whitespace-only patch.
    None,
    Applied,
    Failed,
}

impl PatchStatus {
    /// The name the report's JSON uses.
    pub fn as_str(self) -> &'static str {
        match self {
            PatchStatus::None => "none",
            PatchStatus::Applied => "applied",
            PatchStatus::Failed => "failed",
        }
    }
}

/// Which rung of the ladder produced the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApplyStep {
    Strict,
    Reject,
    Fuzz,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileChangeKind {
    Modify,
    Add,
    Delete,
    Rename,
    Copy,
    /// Only the mode changes.
    Mode,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum FileResult {
    /// This file's change applies. With an overall `failed` status nothing was written: git
    /// applies all or nothing, and another file failed.
    Applied,
    /// A hunk (1-based `hunk`) whose preimage was not found; `expected` are the hunk's old lines,
    /// `found` the file's lines where the header said they would be.
    Rejected { hunk: usize, reason: String, expected: Vec<String>, found: Vec<String> },
    /// The file change cannot be applied at all (missing file, existing target, bad path…).
    Invalid { reason: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileOutcome {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_path: Option<String>,
    pub kind: FileChangeKind,
    pub result: FileResult,
    /// Hunks rejected by a fallback rung besides the one in `result` (empty for strict).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected_hunks: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApplyOutcome {
    pub status: PatchStatus,
    /// One line; git's wording where git has one.
    pub reason: Option<String>,
    pub step: ApplyStep,
    pub files: Vec<FileOutcome>,
    /// The patched tree; the unchanged input when `status` is not `applied`.
    #[serde(skip)]
    pub tree: Tree,
}

/// Applies `patch_bytes` to `tree`. Never panics; a bad patch is an outcome, not an error.
pub fn apply(tree: &Tree, patch_bytes: &[u8], opts: &ApplyOptions) -> ApplyOutcome {
    fallback::apply_with_ladder(tree, patch_bytes, opts)
}
