//! The ladder: strict `git apply` (the official rule), then, only when asked, a `--reject`-like
//! partial rung or a GNU-`patch`-like fuzzy rung. Whatever applies is reported with its rung.

use super::apply::{run, Mode};
use super::{parse, ApplyOptions, ApplyOutcome, ApplyStep, Fallback, PatchStatus};
use crate::tree::Tree;

/// Python's `str.isspace` on ASCII: the harness treats a patch that strips to nothing as none.
fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f))
}

/// The message as git prints it (`vreportf`): cut at a NUL, control characters other than tab
/// and newline shown as `?`, at most 4088 bytes after the `error: ` prefix.
fn as_git_prints(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    for c in reason.chars() {
        if c == '\0' || out.len() + c.len_utf8() > 4088 {
            break;
        }
        out.push(if c.is_ascii_control() && c != '\t' && c != '\n' { '?' } else { c });
    }
    out
}

fn failed(tree: &Tree, reason: String, files: Vec<super::FileOutcome>) -> ApplyOutcome {
    ApplyOutcome {
        status: PatchStatus::Failed,
        reason: Some(as_git_prints(&reason)),
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
        let reason = patch
            .stop_error
            .clone()
            .unwrap_or_else(|| "No valid patches in input (allow with \"--allow-empty\")".into());
        return failed(tree, reason, Vec::new());
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
    // git printed its parse error before any apply error.
    let strict_reason = patch
        .stop_error
        .clone()
        .or(strict.first_error)
        .unwrap_or_else(|| "patch does not apply".into());
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
