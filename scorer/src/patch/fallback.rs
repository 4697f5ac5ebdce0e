//! The ladder: strict `git apply` (the official rule), then, only when asked, a `--reject`-like
//! partial rung or a GNU-`patch`-like fuzzy rung. Whatever applies is reported with its rung.

use super::apply::{run, Mode};
use super::{parse, ApplyOptions, ApplyOutcome, ApplyStep, Fallback, PatchStatus};
use crate::tree::Tree;

/// Python's `str.isspace` on ASCII: the harness treats a patch that strips to nothing as none.
fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f))
}

fn failed(tree: &Tree, reason: String, files: Vec<super::FileOutcome>) -> ApplyOutcome {
    ApplyOutcome {
        status: PatchStatus::Failed,
        reason: Some(reason),
        step: ApplyStep::Strict,
        files,
        tree: tree.clone(),
    }
}

pub(crate) fn apply_with_ladder(tree: &Tree, bytes: &[u8], opts: &ApplyOptions) -> ApplyOutcome {
    if is_blank(bytes) {
        return ApplyOutcome {
            status: PatchStatus::None,
            reason: Some("empty patch".into()),
            step: ApplyStep::Strict,
            files: Vec::new(),
            tree: tree.clone(),
        };
    }
    let patch = match parse(bytes) {
        Ok(p) => p,
        Err(e) => return failed(tree, e.to_string(), Vec::new()),
    };
    if patch.files.is_empty() {
        return failed(
            tree,
            "No valid patches in input (allow with \"--allow-empty\")".into(),
            Vec::new(),
        );
    }
    let strict = run(tree, &patch, Mode::Strict);
    if strict.first_error.is_none() {
        if let Some(t) = strict.tree {
            return ApplyOutcome {
                status: PatchStatus::Applied,
                reason: None,
                step: ApplyStep::Strict,
                files: strict.files,
                tree: t,
            };
        }
    }
    let strict_reason = strict.first_error.unwrap_or_else(|| "patch does not apply".into());
    let (mode, step, label) = match opts.fallback {
        Fallback::None => return failed(tree, strict_reason, strict.files),
        Fallback::Reject => (Mode::Reject, ApplyStep::Reject, "reject"),
        Fallback::Fuzz => (Mode::Fuzz, ApplyStep::Fuzz, "fuzz"),
    };
    let partial = run(tree, &patch, mode);
    match partial.tree {
        // Applied when it changed something (a rename whose hunks all failed still moves).
        Some(t) if partial.written > 0 || t != *tree => {
            let mut reason =
                format!("strict apply failed ({strict_reason}); applied by the {label} fallback");
            if partial.rejected_hunks > 0 || partial.invalid_files > 0 {
                reason.push_str(&format!(
                    " with {} hunk(s) rejected and {} file(s) not applied",
                    partial.rejected_hunks, partial.invalid_files
                ));
            }
            ApplyOutcome {
                status: PatchStatus::Applied,
                reason: Some(reason),
                step,
                files: partial.files,
                tree: t,
            }
        }
        _ => failed(tree, strict_reason, strict.files),
    }
}
