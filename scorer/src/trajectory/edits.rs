//! Edit recognisers (shared/trajectories.md §2.11, §2.12): tool calls and shell commands turned
//! into [`EditOp`]s with a status from the tool's own success and error messages.

use serde_json::Value;

use super::json::arg;
use super::model::*;
use super::paths::Paths;
use super::shell;

/// What the environment answered to one call.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Outcome<'a> {
    pub text: Option<&'a str>,
    /// The format's own error flag (`is_error`, Inspect tool `error`), when it has one.
    pub is_error: Option<bool>,
    pub exit_code: Option<i64>,
}

/// The editor tools that share the `str_replace_editor` interface.
pub(crate) fn is_editor_tool(name: &str) -> bool {
    matches!(
        name,
        "str_replace_editor"
            | "file_editor"
            | "text_editor"
            | "str_replace_based_edit_tool"
            | "str_replace"
            | "edit_file"
    ) || name.starts_with("text_editor_")
}

/// Shell tools and the argument holding the command line.
pub(crate) fn shell_command(name: &str, args: &Value) -> Option<String> {
    match name {
        "bash" | "execute_bash" | "terminal" | "run" | "Bash" | "shell_command"
        | "exec_command" | "bash_session" | "shell" | "local_shell" | "container.exec" => {}
        _ => return None,
    }
    for key in ["command", "cmd", "code"] {
        match args.get(key) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(Value::Array(parts)) => {
                let parts: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
                // `["bash", "-lc", "<script>"]`: the script is the command line.
                if parts.len() >= 3
                    && parts[parts.len() - 2].starts_with('-')
                    && parts[parts.len() - 2].contains('c')
                {
                    return parts.last().map(|s| s.to_string());
                }
                return Some(parts.join(" "));
            }
            _ => {}
        }
    }
    None
}

/// The edits of one tool call, whatever the tool.
pub(crate) fn tool_edits(name: &str, args: &Value, out: Outcome<'_>, paths: &Paths) -> Vec<EditOp> {
    if is_editor_tool(name) {
        return editor_tool(name, args, out, paths).into_iter().collect();
    }
    match name {
        "Edit" | "MultiEdit" | "Write" | "NotebookEdit" => {
            return claude_code(name, args, out, None, paths)
        }
        "apply_patch" => {
            let patch = arg(args, "patch").or_else(|| arg(args, "input"));
            return patch.map(|p| apply_patch(p, out, paths)).unwrap_or_default();
        }
        _ => {}
    }
    if let Some(cmd) = shell_command(name, args) {
        return shell_edits(&cmd, out, paths);
    }
    Vec::new()
}

/// Status from a rejection message of the editor family (§2.11), `None` when the text has none.
pub(crate) fn editor_rejection(text: &str) -> Option<(RejectReason, String)> {
    let t = text.trim_start();
    let first = |t: &str| t.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string();
    let checks: [(&str, RejectReason); 12] = [
        ("did not appear verbatim", RejectReason::NoMatch),
        ("No replacement was performed. Multiple occurrences", RejectReason::MultipleMatches),
        ("Multiple occurrences of old_str", RejectReason::MultipleMatches),
        ("is the same as new_str", RejectReason::NoOp),
        ("Invalid `insert_line`", RejectReason::BadArgs),
        ("Cannot overwrite files using command `create`", RejectReason::FileExists),
        ("already exists", RejectReason::FileExists),
        ("does not exist", RejectReason::PathMissing),
        ("is required for command", RejectReason::BadArgs),
        ("No edit history found", RejectReason::Other),
        ("No replacement was performed", RejectReason::NoMatch),
        ("Unrecognized command", RejectReason::BadArgs),
    ];
    let error_prefix =
        t.starts_with("ERROR:") || t.starts_with("[An error occurred during execution.]");
    let body = if error_prefix { t.split_once('\n').map_or(t, |(_, b)| b) } else { t };
    for (needle, reason) in checks {
        if body.contains(needle) && (error_prefix || !is_editor_success(t)) {
            return Some((reason, first(body)));
        }
    }
    if error_prefix {
        return Some((RejectReason::Other, first(body)));
    }
    None
}

fn is_editor_success(t: &str) -> bool {
    t.contains("has been edited")
        || t.contains("File created successfully at")
        || t.contains("undone successfully")
        || t.contains("File updated")
}

/// SWE-agent's `<NOTE>` on an applied edit with linter findings.
const LINT_NOTE: &str = "Your edits have been applied, but the linter has found syntax errors";

/// SWE-agent's lint template: the edit was rolled back (0.x `edit`, 1.x `edit_linting`, and its
/// `str_replace_editor` with `USE_LINTER`).
const LINT_REJECTION: &str = "Your proposed edit has introduced new syntax error";

/// The lint template's rejection, with its first `ERRORS:` line as the message.
fn lint_rejection(text: &str) -> Option<EditStatus> {
    text.contains(LINT_REJECTION).then(|| EditStatus::Rejected {
        reason: RejectReason::LintRejected,
        message: lint_errors(text).first().cloned().unwrap_or_else(|| "syntax error".to_string()),
    })
}

/// Status of an editor-family call.
fn editor_status(out: Outcome<'_>) -> EditStatus {
    let text = out.text.unwrap_or("");
    if let Some(rejected) = lint_rejection(text) {
        return rejected;
    }
    if let Some((reason, message)) = editor_rejection(text) {
        return EditStatus::Rejected { reason, message };
    }
    if out.is_error == Some(true) {
        let message = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string();
        return EditStatus::Rejected { reason: RejectReason::Other, message };
    }
    if text.contains(LINT_NOTE) {
        return EditStatus::AppliedWithLint { errors: lint_errors(text) };
    }
    if is_editor_success(text) || out.is_error == Some(false) {
        return EditStatus::Applied;
    }
    EditStatus::Unknown
}

/// `str_replace_editor` / `file_editor` / `text_editor` / `str_replace_based_edit_tool` and the
/// OpenHands V0 edit action (`command` absent: the LLM editor `edit_file`).
pub(crate) fn editor_tool(
    tool: &str,
    args: &Value,
    out: Outcome<'_>,
    paths: &Paths,
) -> Option<EditOp> {
    let command =
        arg(args, "command").unwrap_or(if tool == "edit_file" { "edit_file" } else { "" });
    let kind = match command {
        "create" => EditKind::Create,
        "str_replace" => EditKind::Replace,
        "insert" => EditKind::Insert,
        "undo_edit" => EditKind::Undo,
        "write" => EditKind::Rewrite,
        "edit_file" => EditKind::Rewrite,
        _ => return None,
    };
    let path = paths.rel(arg(args, "path")?)?;
    let mut op = EditOp::new(path, kind, tool, Confidence::Derived);
    op.status = editor_status(out);
    match kind {
        EditKind::Create | EditKind::Rewrite => {
            let text = arg(args, "file_text").or_else(|| arg(args, "content"));
            if let Some(text) = text {
                op.lines_after = Some(whole(text));
                op.new_text = Some(text.to_string());
                if kind == EditKind::Create {
                    op.confidence = Confidence::Exact;
                }
            }
            if tool == "edit_file" {
                let start = args.get("start").and_then(Value::as_u64);
                let end = args.get("end").and_then(Value::as_i64);
                if let (Some(s), Some(e)) = (start, end) {
                    if s >= 1 && e >= s as i64 {
                        op.lines_before = Some(LineRange { start: s as u32, end: e as u32 });
                    }
                }
            }
        }
        EditKind::Replace => {
            op.old_text = arg(args, "old_str").map(str::to_string);
            op.new_text = Some(arg(args, "new_str").unwrap_or("").to_string());
            if op.status.is_applied() {
                if let (Some(text), Some(new)) = (out.text, op.new_text.as_deref()) {
                    if let Some(start) = locate_in_snippet(text, new) {
                        let old_n = op.old_text.as_deref().map_or(0, line_count);
                        op.lines_before = Some(span(start, old_n));
                        op.lines_after = Some(span(start, line_count(new)));
                    }
                }
            }
        }
        EditKind::Insert => {
            let text = arg(args, "insert_text").or_else(|| arg(args, "new_str")).unwrap_or("");
            op.new_text = Some(text.to_string());
            let line = args
                .get("insert_line")
                .and_then(|v| v.as_u64().or_else(|| v.as_str()?.trim().parse().ok()));
            if let Some(n) = line.and_then(|n| u32::try_from(n).ok()) {
                op.lines_before = Some(span(n + 1, 0));
                op.lines_after = Some(span(n + 1, line_count(text)));
            }
        }
        _ => {}
    }
    Some(op)
}

/// Number of lines of an inserted text (`"a\nb"` and `"a\nb\n"` are both 2).
pub(crate) fn line_count(s: &str) -> u32 {
    if s.is_empty() {
        return 0;
    }
    let n = s.split('\n').count() - usize::from(s.ends_with('\n'));
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `n` lines from `start` (`end = start - 1` when empty).
pub(crate) fn span(start: u32, n: u32) -> LineRange {
    LineRange { start, end: (start + n).saturating_sub(1).max(start.saturating_sub(1)) }
}

fn whole(text: &str) -> LineRange {
    span(1, line_count(text))
}

/// Finds `new` inside the numbered `cat -n` snippet an editor prints after an edit; the first
/// line number of the only match.
fn locate_in_snippet(text: &str, new: &str) -> Option<u32> {
    let marker = text.find("cat -n` on a snippet of")?;
    let numbered: Vec<(u32, String)> = text[marker..]
        .lines()
        .skip(1)
        .filter_map(|l| {
            let t = l.trim_start();
            let (num, rest) = t.split_once('\t')?;
            Some((num.parse().ok()?, expand_tabs(rest)))
        })
        .collect();
    let wanted: Vec<String> = new.trim_end_matches('\n').split('\n').map(expand_tabs).collect();
    if wanted.is_empty()
        || wanted.iter().all(|w| w.trim().is_empty())
        || numbered.len() < wanted.len()
    {
        return None;
    }
    let mut found = None;
    for i in 0..=numbered.len() - wanted.len() {
        if wanted.iter().enumerate().all(|(k, w)| numbered[i + k].1.trim_end() == w.trim_end()) {
            if found.is_some() {
                return None;
            }
            found = Some(numbered[i].0);
        }
    }
    found
}

fn expand_tabs(s: &str) -> String {
    if !s.contains('\t') {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        if c == '\t' {
            let pad = 8 - out.chars().count() % 8;
            out.extend(std::iter::repeat_n(' ', pad));
        } else {
            out.push(c);
        }
    }
    out
}

/// The `- CODE message` lines of SWE-agent's lint template.
fn lint_errors(text: &str) -> Vec<String> {
    let Some(at) = text.find("ERRORS:") else { return Vec::new() };
    text[at + 7..]
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.starts_with("- "))
        .map(|l| l[2..].trim().to_string())
        .collect()
}

/// SWE-agent's text actions: `edit L:M`, `edit <search> <replace>`, `insert`, `create`,
/// text-mode `str_replace_editor …`, and shell commands. `open_file` is the file the editor
/// window shows for this action.
pub(crate) fn swe_agent(
    action: &str,
    observation: &str,
    open_file: Option<&str>,
    paths: &Paths,
) -> Vec<EditOp> {
    let action = action.trim_start();
    let (head, rest) = action.split_once(char::is_whitespace).unwrap_or((action, ""));
    let lint_rejected = observation.contains(LINT_REJECTION);
    let rejected_lint = || lint_rejection(observation).unwrap_or(EditStatus::Unknown);
    let open = open_file.and_then(|f| paths.rel(f));
    match head {
        "edit" => {
            let first_line = rest.lines().next().unwrap_or("").trim();
            if let Some((l, m)) = first_line
                .split_once(':')
                .filter(|(l, m)| l.trim().parse::<u32>().is_ok() && m.trim().parse::<u32>().is_ok())
            {
                // `edit L:M\n<text>\nend_of_edit`
                let l: u32 = l.trim().parse().unwrap_or(0);
                let m: u32 = m.trim().parse().unwrap_or(0);
                let body = rest.split_once('\n').map_or("", |(_, b)| b);
                let body = body.trim_end_matches('\n');
                let body = body.strip_suffix("end_of_edit").unwrap_or(body);
                let body = body.strip_suffix('\n').unwrap_or(body);
                let Some(path) = open else { return Vec::new() };
                let mut op = EditOp::new(path, EditKind::Replace, "edit", Confidence::Derived);
                op.lines_before = Some(LineRange { start: l, end: m.max(l.saturating_sub(1)) });
                op.lines_after = Some(span(l, line_count(body)));
                op.new_text = Some(body.to_string());
                op.status = if lint_rejected {
                    rejected_lint()
                } else if observation.contains("Usage: edit")
                    || observation.contains("No file open")
                {
                    EditStatus::Rejected {
                        reason: RejectReason::BadArgs,
                        message: first_line_of(observation),
                    }
                } else if observation.contains(LINT_NOTE) {
                    EditStatus::AppliedWithLint { errors: lint_errors(observation) }
                } else if observation.contains("File updated") {
                    EditStatus::Applied
                } else {
                    EditStatus::Unknown
                };
                return vec![op];
            }
            // `edit <search> <replace> [<replace-all>]` (windowed_edit_replace) or
            // `edit <text>` (windowed_edit_rewrite).
            let words = shell::words(rest);
            let Some(path) = open else { return Vec::new() };
            let mut op = EditOp::new(path, EditKind::Replace, "edit", Confidence::Derived);
            if words.len() >= 2 {
                op.old_text = Some(words[0].clone());
                op.new_text = Some(words[1].clone());
            } else {
                op.kind = EditKind::Rewrite;
                op.new_text = words.first().cloned();
            }
            op.status = replace_status(observation, lint_rejected, rejected_lint);
            vec![op]
        }
        "insert" => {
            let words = shell::words(rest);
            let Some(path) = open else { return Vec::new() };
            let mut op = EditOp::new(path, EditKind::Insert, "insert", Confidence::Derived);
            let text = words.first().cloned().unwrap_or_default();
            if let Some(n) = words.get(1).and_then(|w| w.parse::<u32>().ok()) {
                op.lines_before = Some(span(n + 1, 0));
                op.lines_after = Some(span(n + 1, line_count(&text)));
            }
            op.new_text = Some(text);
            op.status = replace_status(observation, lint_rejected, rejected_lint);
            vec![op]
        }
        "create" => {
            let name = shell::words(rest).into_iter().next();
            let Some(path) = name.and_then(|n| paths.rel(&n)) else { return Vec::new() };
            let mut op = EditOp::new(path, EditKind::Create, "create", Confidence::Exact);
            op.lines_after = Some(span(1, 0));
            op.new_text = Some(String::new());
            op.status = if observation.contains("already exists") {
                EditStatus::Rejected {
                    reason: RejectReason::FileExists,
                    message: first_line_of(observation),
                }
            } else if observation.trim_start().starts_with("[File:") {
                EditStatus::Applied
            } else {
                EditStatus::Unknown
            };
            vec![op]
        }
        "str_replace_editor" => {
            let words = shell::words(rest);
            let mut args = serde_json::Map::new();
            let mut it = words.into_iter();
            if let Some(c) = it.next() {
                args.insert("command".into(), Value::String(c));
            }
            if let Some(p) = it.next() {
                args.insert("path".into(), Value::String(p));
            }
            while let Some(w) = it.next() {
                if let Some(key) = w.strip_prefix("--") {
                    args.insert(key.to_string(), Value::String(it.next().unwrap_or_default()));
                }
            }
            let out = Outcome { text: Some(observation), ..Outcome::default() };
            editor_tool("str_replace_editor", &Value::Object(args), out, paths)
                .into_iter()
                .collect()
        }
        _ => shell_edits(action, Outcome { text: Some(observation), ..Outcome::default() }, paths),
    }
}

fn replace_status(
    observation: &str,
    lint_rejected: bool,
    rejected_lint: impl Fn() -> EditStatus,
) -> EditStatus {
    if lint_rejected {
        return rejected_lint();
    }
    if observation.contains("Your edit was not applied") {
        let reason = if observation.contains("more than one occurrence")
            || observation.contains("Found more than one")
        {
            RejectReason::MultipleMatches
        } else if observation.contains("are the same") {
            RejectReason::NoOp
        } else if observation.contains("not found") {
            RejectReason::NoMatch
        } else {
            RejectReason::Other
        };
        return EditStatus::Rejected { reason, message: first_line_of(observation) };
    }
    if observation.contains("search and replace strings are the same") {
        return EditStatus::Rejected {
            reason: RejectReason::NoOp,
            message: first_line_of(observation),
        };
    }
    if observation.contains("No file open")
        || observation.contains("No file opened")
        || observation.starts_with("Usage:")
    {
        return EditStatus::Rejected {
            reason: RejectReason::BadArgs,
            message: first_line_of(observation),
        };
    }
    if observation.contains(LINT_NOTE) {
        return EditStatus::AppliedWithLint { errors: lint_errors(observation) };
    }
    if observation.contains("Text replaced")
        || observation.contains("Replaced ") && observation.contains("occurrence")
    {
        return EditStatus::Applied;
    }
    if observation.trim_start().starts_with("[File:") {
        return EditStatus::Applied;
    }
    EditStatus::Unknown
}

fn first_line_of(text: &str) -> String {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string()
}

/// Claude Code `Edit` / `MultiEdit` / `Write` / `NotebookEdit`, with the `toolUseResult` object
/// when the log has one (`structuredPatch` gives exact hunks).
pub(crate) fn claude_code(
    name: &str,
    input: &Value,
    out: Outcome<'_>,
    result: Option<&Value>,
    paths: &Paths,
) -> Vec<EditOp> {
    let Some(path) =
        arg(input, "file_path").or_else(|| arg(input, "notebook_path")).and_then(|p| paths.rel(p))
    else {
        return Vec::new();
    };
    let text = out.text.unwrap_or("");
    let status = if out.is_error == Some(true) || text.contains("<tool_use_error>") {
        let inner = text.replace("<tool_use_error>", "").replace("</tool_use_error>", "");
        let reason = if inner.contains("String to replace not found") {
            RejectReason::NoMatch
        } else if inner.contains("Found ") && inner.contains("matches of the string to replace") {
            RejectReason::MultipleMatches
        } else if inner.contains("has been modified since read")
            || inner.contains("has not been read yet")
        {
            RejectReason::StaleRead
        } else if inner.contains("No changes to make") || inner.contains("are exactly the same") {
            RejectReason::NoOp
        } else if inner.contains("does not exist") {
            RejectReason::PathMissing
        } else {
            RejectReason::Other
        };
        EditStatus::Rejected { reason, message: first_line_of(&inner) }
    } else if out.is_error == Some(false) || out.text.is_some() {
        EditStatus::Applied
    } else {
        EditStatus::Unknown
    };
    let mut ops = Vec::new();
    match name {
        "Write" => {
            let content = arg(input, "content").unwrap_or("");
            let created =
                result.and_then(|r| r.get("type")).and_then(Value::as_str) == Some("create");
            let mut op = EditOp::new(
                path,
                if created { EditKind::Create } else { EditKind::Rewrite },
                name,
                Confidence::Exact,
            );
            op.lines_after = Some(whole(content));
            op.new_text = Some(content.to_string());
            ops.push(op);
        }
        "MultiEdit" => {
            for e in input.get("edits").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
            {
                let mut op =
                    EditOp::new(path.clone(), EditKind::Replace, name, Confidence::Derived);
                op.old_text = arg(e, "old_string").map(str::to_string);
                op.new_text = arg(e, "new_string").map(str::to_string);
                ops.push(op);
            }
        }
        "NotebookEdit" => {
            ops.push(EditOp::new(path, EditKind::Unknown, name, Confidence::Heuristic))
        }
        _ => {
            let old = arg(input, "old_string").unwrap_or("");
            let kind = if old.is_empty() { EditKind::Create } else { EditKind::Replace };
            let mut op = EditOp::new(path, kind, name, Confidence::Derived);
            op.old_text = Some(old.to_string());
            op.new_text = arg(input, "new_string").map(str::to_string);
            ops.push(op);
        }
    }
    // Exact hunks from a recent `toolUseResult.structuredPatch`.
    let hunks: Vec<&Value> = result
        .and_then(|r| r.get("structuredPatch"))
        .and_then(Value::as_array)
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    if !hunks.is_empty() && ops.len() == 1 {
        let op = &mut ops[0];
        for h in &hunks {
            let num =
                |k: &str| h.get(k).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
            if let (Some(os), Some(ol), Some(ns), Some(nl)) =
                (num("oldStart"), num("oldLines"), num("newStart"), num("newLines"))
            {
                op.hunks.push(Hunk { old_start: os, old_lines: ol, new_start: ns, new_lines: nl });
                let lines: Vec<&str> = h
                    .get("lines")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let (b, a) = changed_ranges(os, ns, lines.iter().copied());
                op.lines_before = merge(op.lines_before, b);
                op.lines_after = merge(op.lines_after, a);
            }
        }
        op.confidence = Confidence::Exact;
    }
    for op in &mut ops {
        op.status = status.clone();
    }
    ops
}

fn merge(a: Option<LineRange>, b: Option<LineRange>) -> Option<LineRange> {
    match (a, b) {
        (Some(a), Some(b)) => {
            Some(LineRange { start: a.start.min(b.start), end: a.end.max(b.end) })
        }
        (a, b) => a.or(b),
    }
}

/// The first to last changed line of one hunk, in old and new coordinates (context lines
/// skipped). `lines` are the hunk's body lines with their ` `/`-`/`+` prefixes.
pub(crate) fn changed_ranges<'a>(
    old_start: u32,
    new_start: u32,
    lines: impl Iterator<Item = &'a str>,
) -> (Option<LineRange>, Option<LineRange>) {
    let (mut o, mut n) = (old_start, new_start);
    let (mut before, mut after): (Option<LineRange>, Option<LineRange>) = (None, None);
    let (mut first_change_o, mut first_change_n) = (None, None);
    for l in lines {
        match l.as_bytes().first() {
            Some(b'-') => {
                first_change_o.get_or_insert(o);
                first_change_n.get_or_insert(n);
                before = Some(LineRange { start: before.map_or(o, |r| r.start), end: o });
                o += 1;
            }
            Some(b'+') => {
                first_change_o.get_or_insert(o);
                first_change_n.get_or_insert(n);
                after = Some(LineRange { start: after.map_or(n, |r| r.start), end: n });
                n += 1;
            }
            Some(b'\\') => {}
            _ => {
                o += 1;
                n += 1;
            }
        }
    }
    // Pure insertion / deletion: an empty range at the change point.
    if before.is_none() {
        before = first_change_o.map(|s| span(s, 0));
    }
    if after.is_none() {
        after = first_change_n.map(|s| span(s, 0));
    }
    (before, after)
}

/// Ops of a unified / git diff (one per file), with exact hunks and changed ranges.
pub(crate) fn diff_ops(diff: &str, tool: &str, paths: &Paths) -> Vec<EditOp> {
    let mut ops: Vec<EditOp> = Vec::new();
    let mut old_path: Option<String> = None;
    let lines = diff.lines();
    let mut hunk_pos: Option<(u32, u32)> = None;
    let mut body: Vec<&str> = Vec::new();
    let flush = |ops: &mut Vec<EditOp>, pos: &mut Option<(u32, u32)>, body: &mut Vec<&str>| {
        if let (Some((os, ns)), Some(op)) = (pos.take(), ops.last_mut()) {
            let (b, a) = changed_ranges(os, ns, body.iter().copied());
            op.lines_before = merge(op.lines_before, b);
            op.lines_after = merge(op.lines_after, a);
        }
        body.clear();
    };
    for line in lines {
        if let Some(p) = line.strip_prefix("--- ") {
            flush(&mut ops, &mut hunk_pos, &mut body);
            old_path = Some(strip_diff_prefix(p));
            continue;
        }
        if let Some(p) = line.strip_prefix("+++ ") {
            let new = strip_diff_prefix(p);
            let old = old_path.take().unwrap_or_default();
            let (path, kind) = if new == "/dev/null" {
                (old, EditKind::Delete)
            } else if old == "/dev/null" {
                (new, EditKind::Create)
            } else {
                (new, EditKind::Replace)
            };
            if let Some(path) = paths.rel(&path) {
                ops.push(EditOp::new(path, kind, tool, Confidence::Exact));
            }
            continue;
        }
        if let Some(h) = line.strip_prefix("@@ ") {
            flush(&mut ops, &mut hunk_pos, &mut body);
            if let Some(hk) = parse_hunk_header(h) {
                if let Some(op) = ops.last_mut() {
                    op.hunks.push(hk);
                }
                // A side with no lines names the line *after which* the change sits.
                let os = hk.old_start + u32::from(hk.old_lines == 0);
                let ns = hk.new_start + u32::from(hk.new_lines == 0);
                hunk_pos = Some((os, ns));
            }
            continue;
        }
        if hunk_pos.is_some() && (line.starts_with(['+', '-', ' ', '\\']) || line.is_empty()) {
            body.push(line);
        }
    }
    flush(&mut ops, &mut hunk_pos, &mut body);
    ops
}

fn strip_diff_prefix(p: &str) -> String {
    let p = p.split('\t').next().unwrap_or(p).trim();
    if p == "/dev/null" {
        return p.to_string();
    }
    p.strip_prefix("a/").or_else(|| p.strip_prefix("b/")).unwrap_or(p).to_string()
}

/// `-a,b +c,d @@` → hunk.
pub(crate) fn parse_hunk_header(h: &str) -> Option<Hunk> {
    let mut it = h.split_whitespace();
    let old = it.next()?.strip_prefix('-')?;
    let new = it.next()?.strip_prefix('+')?;
    let pair = |s: &str| -> Option<(u32, u32)> {
        match s.split_once(',') {
            Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let (os, ol) = pair(old)?;
    let (ns, nl) = pair(new)?;
    Some(Hunk { old_start: os, old_lines: ol, new_start: ns, new_lines: nl })
}

/// Codex / OpenHands V1 `apply_patch` (`*** Begin Patch` … `*** End Patch`).
pub(crate) fn apply_patch(patch: &str, out: Outcome<'_>, paths: &Paths) -> Vec<EditOp> {
    let text = out.text.unwrap_or("");
    let status = if text.contains("apply_patch verification failed")
        || text.contains("Failed to find expected lines")
        || out.is_error == Some(true)
    {
        EditStatus::Rejected {
            reason: RejectReason::PatchApplyFailed,
            message: first_line_of(text),
        }
    } else if out.text.is_some() || out.is_error == Some(false) {
        EditStatus::Applied
    } else {
        EditStatus::Unknown
    };
    let mut ops: Vec<EditOp> = Vec::new();
    let mut old = String::new();
    let mut new = String::new();
    let flush = |ops: &mut Vec<EditOp>, old: &mut String, new: &mut String| {
        if let Some(op) = ops.last_mut() {
            if matches!(op.kind, EditKind::Replace | EditKind::Rename)
                && (!old.is_empty() || !new.is_empty())
            {
                op.old_text = Some(std::mem::take(old));
                op.new_text = Some(std::mem::take(new));
            } else if op.kind == EditKind::Create {
                op.lines_after = Some(whole(new));
                op.new_text = Some(std::mem::take(new));
            }
        }
        old.clear();
        new.clear();
    };
    for line in patch.lines() {
        let header = |prefix: &str| line.strip_prefix(prefix).map(str::trim);
        if let Some(p) = header("*** Add File:") {
            flush(&mut ops, &mut old, &mut new);
            if let Some(path) = paths.rel(p) {
                ops.push(EditOp::new(path, EditKind::Create, "apply_patch", Confidence::Exact));
            }
        } else if let Some(p) = header("*** Update File:") {
            flush(&mut ops, &mut old, &mut new);
            if let Some(path) = paths.rel(p) {
                ops.push(EditOp::new(path, EditKind::Replace, "apply_patch", Confidence::Derived));
            }
        } else if let Some(p) = header("*** Delete File:") {
            flush(&mut ops, &mut old, &mut new);
            if let Some(path) = paths.rel(p) {
                ops.push(EditOp::new(path, EditKind::Delete, "apply_patch", Confidence::Exact));
            }
        } else if let Some(p) = header("*** Move to:") {
            if let Some(op) = ops.last_mut() {
                op.kind = EditKind::Rename;
                op.new_path = paths.rel(p);
            }
        } else if line.starts_with("***") || line.starts_with("@@") {
        } else if let Some(l) = line.strip_prefix('+') {
            new.push_str(l);
            new.push('\n');
        } else if let Some(l) = line.strip_prefix('-') {
            old.push_str(l);
            old.push('\n');
        } else if let Some(l) = line.strip_prefix(' ') {
            old.push_str(l);
            old.push('\n');
            new.push_str(l);
            new.push('\n');
        }
    }
    flush(&mut ops, &mut old, &mut new);
    for op in &mut ops {
        op.status = status.clone();
    }
    ops
}

/// Edits a shell command line makes, by the heuristics of §2.12. Status from the exit code:
/// 0 applied, non-zero rejected `shell_nonzero`, unknown when not logged.
pub(crate) fn shell_edits(cmdline: &str, out: Outcome<'_>, paths: &Paths) -> Vec<EditOp> {
    let status = match out.exit_code {
        Some(0) => EditStatus::Applied,
        Some(code) => EditStatus::Rejected {
            reason: RejectReason::ShellNonzero,
            message: format!("exit code {code}"),
        },
        None if out.is_error == Some(true) => EditStatus::Rejected {
            reason: RejectReason::ShellNonzero,
            message: first_line_of(out.text.unwrap_or("")),
        },
        None if out.is_error == Some(false) => EditStatus::Applied,
        None => EditStatus::Unknown,
    };
    let mut paths = paths.clone();
    let mut outside = false;
    let mut ops = Vec::new();
    for cmd in shell::split(cmdline) {
        let was_outside = outside;
        let rel = |p: &str, paths: &Paths| -> Option<String> {
            if was_outside && !p.starts_with('/') {
                None
            } else {
                paths.rel(p)
            }
        };
        let Some(prog) = cmd.words.first().map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
        else {
            // A bare redirect (`> file`) truncates the file.
            for (op, target) in &cmd.redirects {
                if op.starts_with('>') {
                    if let Some(path) = rel(target, &paths) {
                        ops.push(heur(
                            path,
                            if op == ">>" { EditKind::Append } else { EditKind::Rewrite },
                            ">",
                        ));
                    }
                }
            }
            continue;
        };
        let args: Vec<&str> = cmd.words[1..].iter().map(String::as_str).collect();
        let operands: Vec<&str> = args.iter().copied().filter(|a| !a.starts_with('-')).collect();
        match prog.as_str() {
            "cd" => {
                if let Some(dir) = args.first() {
                    if dir.starts_with('/') {
                        match paths.root.as_deref() {
                            Some(root) if *dir == root => {
                                paths.cwd.clear();
                                outside = false;
                            }
                            _ => match paths.rel(dir) {
                                Some(r) => {
                                    paths.cwd = r;
                                    outside = false;
                                }
                                None => {
                                    outside = !(paths.root.is_none()
                                        && ["/testbed", "/app", "/repo"].contains(dir))
                                }
                            },
                        }
                    } else if let Some(r) = paths.rel(dir) {
                        paths.cwd = r;
                    } else if !outside {
                        outside = dir.starts_with("..") || *dir == "~";
                        if !outside {
                            paths.cwd.clear();
                        }
                    }
                }
            }
            "sed"
                if args.iter().any(|a| {
                    a.starts_with("-i")
                        || a.starts_with("--in-place")
                        || (a.starts_with('-')
                            && !a.starts_with("--")
                            && a.contains('i')
                            && !a.contains('e'))
                }) =>
            {
                let mut expr: Option<&str> = None;
                let mut files = Vec::new();
                let mut it = args.iter().copied();
                while let Some(a) = it.next() {
                    if a == "-e" || a == "--expression" {
                        expr = expr.or(it.next());
                    } else if a.starts_with('-') {
                    } else if expr.is_none() {
                        expr = Some(a);
                    } else {
                        files.push(a);
                    }
                }
                for f in files {
                    if let Some(path) = rel(f, &paths) {
                        let mut op = heur(path, EditKind::Replace, "sed");
                        if let Some(r) = expr.and_then(sed_lines) {
                            op.lines_before = Some(r);
                            if expr.is_some_and(|e| {
                                e.trim_start_matches(|c: char| c.is_ascii_digit() || c == ',')
                                    .starts_with('s')
                            }) {
                                op.lines_after = Some(r);
                            }
                        }
                        ops.push(op);
                    }
                }
            }
            "perl" if args.iter().any(|a| a.starts_with('-') && a.contains('i')) => {
                let mut it = args.iter().copied();
                let mut files = Vec::new();
                let mut seen_expr = false;
                while let Some(a) = it.next() {
                    if a.starts_with('-') {
                        if a.ends_with('e') {
                            it.next();
                            seen_expr = true;
                        }
                    } else if !seen_expr {
                        seen_expr = true;
                    } else {
                        files.push(a);
                    }
                }
                for f in files {
                    if let Some(path) = rel(f, &paths) {
                        ops.push(heur(path, EditKind::Replace, "perl"));
                    }
                }
            }
            "tee" => {
                let append = args.iter().any(|a| *a == "-a" || *a == "--append");
                for f in &operands {
                    if let Some(path) = rel(f, &paths) {
                        let mut op = heur(
                            path,
                            if append { EditKind::Append } else { EditKind::Rewrite },
                            "tee",
                        );
                        set_content(&mut op, cmd.heredoc.as_deref(), append);
                        ops.push(op);
                    }
                }
            }
            "mv" | "git" if prog == "mv" || args.first() == Some(&"mv") => {
                let ops_args: Vec<&str> =
                    if prog == "git" { operands[1..].to_vec() } else { operands.clone() };
                if let [a, b] = ops_args.as_slice() {
                    if let Some(path) = rel(a, &paths) {
                        let mut op = heur(
                            path,
                            EditKind::Rename,
                            if prog == "git" { "git mv" } else { "mv" },
                        );
                        op.new_path = rel(b, &paths);
                        ops.push(op);
                    }
                }
            }
            "rm" | "git" if prog == "rm" || args.first() == Some(&"rm") => {
                let files: &[&str] = if prog == "git" { &operands[1..] } else { &operands };
                for f in files {
                    if let Some(path) = rel(f, &paths) {
                        ops.push(heur(
                            path,
                            EditKind::Delete,
                            if prog == "git" { "git rm" } else { "rm" },
                        ));
                    }
                }
            }
            "git" if args.first() == Some(&"apply") => {
                if let Some(body) = &cmd.heredoc {
                    ops.extend(diff_ops(body, "git apply", &paths));
                }
            }
            "patch" => {
                if let Some(body) = &cmd.heredoc {
                    ops.extend(diff_ops(body, "patch", &paths));
                }
            }
            "cp" => {
                if let Some(dest) = operands.last().filter(|_| operands.len() >= 2) {
                    if let Some(path) = rel(dest, &paths) {
                        ops.push(heur(path, EditKind::Rewrite, "cp"));
                    }
                }
            }
            "python" | "python3" | "python3.11" => {
                let code = match args.iter().position(|a| *a == "-c") {
                    Some(i) => args.get(i + 1).map(|s| s.to_string()),
                    None if args.first().is_none_or(|a| *a == "-") => cmd.heredoc.clone(),
                    None => None,
                };
                if let Some(code) = code {
                    for f in python_writes(&code) {
                        if let Some(path) = rel(&f, &paths) {
                            ops.push(heur(path, EditKind::Rewrite, "python"));
                        }
                    }
                }
            }
            _ => {}
        }
        for (op, target) in &cmd.redirects {
            if !op.starts_with('>') {
                continue;
            }
            if let Some(path) = rel(target, &paths) {
                let append = op == ">>";
                let mut e = heur(
                    path,
                    if append { EditKind::Append } else { EditKind::Rewrite },
                    &format!("{prog} {op}"),
                );
                if prog == "cat" && operands.is_empty() {
                    set_content(&mut e, cmd.heredoc.as_deref(), append);
                }
                ops.push(e);
            }
        }
    }
    for op in &mut ops {
        op.status = status.clone();
    }
    ops
}

fn heur(path: String, kind: EditKind, tool: &str) -> EditOp {
    EditOp::new(path, kind, tool, Confidence::Heuristic)
}

/// A heredoc overwrite knows the whole new content.
fn set_content(op: &mut EditOp, heredoc: Option<&str>, append: bool) {
    if let Some(body) = heredoc {
        op.new_text = Some(body.to_string());
        if !append {
            op.lines_after = Some(whole(body));
            op.confidence = Confidence::Exact;
        }
    }
}

/// `N` / `N,M` address of a sed expression.
fn sed_lines(expr: &str) -> Option<LineRange> {
    let digits = |s: &str| -> (Option<u32>, usize) {
        let n = s.bytes().take_while(u8::is_ascii_digit).count();
        (s[..n].parse().ok(), n)
    };
    let (a, n) = digits(expr);
    let a = a?;
    let rest = &expr[n..];
    if let Some(r) = rest.strip_prefix(',') {
        let (b, _) = digits(r);
        return Some(LineRange { start: a, end: b?.max(a) });
    }
    Some(LineRange { start: a, end: a })
}

/// Files a Python snippet writes: `open('X', 'w'…)` and `Path('X').write_text`.
fn python_writes(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let quoted = |s: &str| -> Option<(String, usize)> {
        let s2 = s.trim_start();
        let skip = s.len() - s2.len();
        let q = s2.chars().next().filter(|c| *c == '\'' || *c == '"')?;
        let end = s2[1..].find(q)?;
        Some((s2[1..1 + end].to_string(), skip + end + 2))
    };
    for (i, _) in code.match_indices("open(") {
        if let Some((name, len)) = quoted(&code[i + 5..]) {
            let rest = code[i + 5 + len..].trim_start();
            if let Some(rest) = rest.strip_prefix(',') {
                if let Some((mode, _)) = quoted(rest) {
                    if mode.contains(['w', 'a', 'x']) || mode.contains('+') {
                        out.push(name);
                    }
                }
            }
        }
    }
    for (i, _) in code.match_indices("Path(") {
        if let Some((name, len)) = quoted(&code[i + 5..]) {
            let rest = &code[i + 5 + len..];
            if rest.trim_start().starts_with(").write_text")
                || rest.trim_start().starts_with(").write_bytes")
            {
                out.push(name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p() -> Paths {
        Paths::with_root(Some("/testbed"))
    }

    fn applied(text: &str) -> Outcome<'_> {
        Outcome { text: Some(text), ..Outcome::default() }
    }

    #[test]
    fn editor_signals_of_every_kind() {
        let args = json!({"command": "str_replace", "path": "/testbed/a.py", "old_str": "x", "new_str": "y"});
        let cases: [(&str, Option<RejectReason>); 9] = [
            ("No replacement was performed, old_str `x` did not appear verbatim in /testbed/a.py.", Some(RejectReason::NoMatch)),
            ("No replacement was performed. Multiple occurrences of old_str `x` in lines [1, 2]. Please ensure it is unique", Some(RejectReason::MultipleMatches)),
            ("No replacement was performed. old_str `x` is the same as new_str `x`.", Some(RejectReason::NoOp)),
            ("Invalid `insert_line` parameter: 99. It should be within the range of lines of the file: [0, 3]", Some(RejectReason::BadArgs)),
            ("File already exists at: /testbed/a.py. Cannot overwrite files using command `create`.", Some(RejectReason::FileExists)),
            ("The path /testbed/a.py does not exist. Please provide a valid path.", Some(RejectReason::PathMissing)),
            ("Parameter `old_str` is required for command: str_replace", Some(RejectReason::BadArgs)),
            ("ERROR:\nNo replacement was performed, old_str `x` did not appear verbatim in /testbed/a.py.", Some(RejectReason::NoMatch)),
            ("The file /testbed/a.py has been edited. Here's the result of running `cat -n` on a snippet of /testbed/a.py:\n     1\ty\nReview the changes", None),
        ];
        for (text, want) in cases {
            let op = editor_tool("str_replace_editor", &args, applied(text), &p()).unwrap();
            match (want, &op.status) {
                (Some(r), EditStatus::Rejected { reason, .. }) => assert_eq!(*reason, r, "{text}"),
                (None, EditStatus::Applied) => {
                    assert_eq!(op.lines_after, Some(LineRange { start: 1, end: 1 }));
                }
                (w, s) => panic!("{text}: want {w:?}, got {s:?}"),
            }
            assert_eq!(op.path, "a.py");
        }
        // V1 / Inspect error flags; SWE-agent's lint note.
        let op = editor_tool(
            "file_editor",
            &args,
            Outcome { text: Some("boom"), is_error: Some(true), exit_code: None },
            &p(),
        )
        .unwrap();
        assert_eq!(op.status.label(), "rejected");
        let op = editor_tool(
            "file_editor",
            &args,
            Outcome { text: Some("ok"), is_error: Some(false), exit_code: None },
            &p(),
        )
        .unwrap();
        assert_eq!(op.status, EditStatus::Applied);
        let note = "The file /testbed/a.py has been edited.\n<NOTE>Your edits have been applied, but the linter has found syntax errors.</NOTE>\n\nERRORS:\n- F821 undefined name 'q'\n";
        let op = editor_tool("str_replace_editor", &args, applied(note), &p()).unwrap();
        assert_eq!(
            op.status,
            EditStatus::AppliedWithLint { errors: vec!["F821 undefined name 'q'".into()] }
        );
        // Views are not edits; insert gets its lines; `insert_text` (Anthropic) is accepted.
        assert!(editor_tool(
            "str_replace_editor",
            &json!({"command": "view", "path": "/testbed/a.py"}),
            applied(""),
            &p()
        )
        .is_none());
        let ins = json!({"command": "insert", "path": "/testbed/a.py", "insert_line": 3, "insert_text": "a\nb\n"});
        let op = editor_tool(
            "str_replace_based_edit_tool",
            &ins,
            applied("The file /testbed/a.py has been edited."),
            &p(),
        )
        .unwrap();
        assert_eq!(
            (op.lines_before, op.lines_after),
            (Some(LineRange { start: 4, end: 3 }), Some(LineRange { start: 4, end: 5 }))
        );
        assert_eq!(op.new_text.as_deref(), Some("a\nb\n"));
    }

    /// Every error and success signal of shared/trajectories.md §2.11, row by row, through the
    /// entry points the readers call (`tool_edits` for tool calls, `swe_agent` for text actions).
    #[test]
    fn every_signal_of_the_recogniser_table() {
        use RejectReason as R;
        let lint = "Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: expected an indented block after 'if' statement on line 112\n\nThis is how your edit would have looked if applied\n";
        let lint_rejected = EditStatus::Rejected {
            reason: R::LintRejected,
            message:
                "E999 IndentationError: expected an indented block after 'if' statement on line 112"
                    .into(),
        };
        let label = |s: &EditStatus| match s {
            EditStatus::Rejected { reason, .. } => format!("rejected {}", reason.label()),
            other => other.label().to_string(),
        };
        // Row 1: the `str_replace_editor` family, by tool name, with the format's flags.
        let replace = json!({"command": "str_replace", "path": "/testbed/a.py", "old_str": "x", "new_str": "y"});
        let create = json!({"command": "create", "path": "/testbed/n.py", "file_text": "a\n"});
        let undo = json!({"command": "undo_edit", "path": "/testbed/a.py"});
        let o = |text: &'static str, is_error: Option<bool>| Outcome {
            text: Some(text),
            is_error,
            exit_code: None,
        };
        let editor: Vec<(&str, &Value, Outcome<'_>, &str)> = vec![
            ("str_replace_editor", &replace, o("The file /testbed/a.py has been edited.", None), "applied"),
            ("str_replace_editor", &create, o("File created successfully at: /testbed/n.py", None), "applied"),
            ("str_replace_editor", &undo, o("Last edit to /testbed/a.py undone successfully. Here's the result", None), "applied"),
            ("file_editor", &replace, o("anything", Some(false)), "applied"),
            ("str_replace_editor", &replace, o("ERROR:\nsomething the table does not name", None), "rejected other"),
            ("str_replace_editor", &replace, o("No replacement was performed, old_str `x` did not appear verbatim in /testbed/a.py.", None), "rejected no_match"),
            ("str_replace_editor", &replace, o("No replacement was performed. Multiple occurrences of old_str `x` in lines [1, 2]. Please ensure it is unique", None), "rejected multiple_matches"),
            ("str_replace_editor", &replace, o("No replacement was performed. old_str `x` is the same as new_str `x`.", None), "rejected no_op"),
            ("str_replace_based_edit_tool", &replace, o("Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 3]", None), "rejected bad_args"),
            ("str_replace_editor", &create, o("File already exists at: /testbed/n.py. Cannot overwrite files using command `create`.", None), "rejected file_exists"),
            ("str_replace_editor", &replace, o("The path /testbed/a.py does not exist. Please provide a valid path.", None), "rejected path_missing"),
            ("str_replace_editor", &replace, o("Parameter `old_str` is required for command: str_replace", None), "rejected bad_args"),
            ("file_editor", &replace, o("[An error occurred during execution.]\nboom", Some(true)), "rejected other"),
            ("text_editor", &replace, o("unexplained", Some(true)), "rejected other"),
            // SWE-agent 1.x `str_replace_editor` with its linter on: the edit is rolled back.
            ("str_replace_editor", &replace, o(lint, None), "rejected lint_rejected"),
            ("str_replace_editor", &replace, o("The file /testbed/a.py has been edited.\n<NOTE>Your edits have been applied, but the linter has found syntax errors.</NOTE>\n\nERRORS:\n- F821 undefined name 'q'\n", None), "applied_with_lint"),
            ("str_replace_editor", &replace, o("something else", None), "unknown"),
        ];
        for (tool, args, out, want) in editor {
            let ops = tool_edits(tool, args, out, &p());
            assert_eq!(ops.len(), 1, "{tool} {:?}", out.text);
            assert_eq!(label(&ops[0].status), want, "{tool} {:?}", out.text);
        }
        let ops = tool_edits("str_replace_editor", &replace, o(lint, None), &p());
        assert_eq!(ops[0].status, lint_rejected);
        // OpenHands V0 LLM editor `edit_file`: an `edit` observation, `ERROR:` when it failed.
        let llm = json!({"path": "/testbed/a.py", "content": "z\n", "start": 1, "end": 2});
        let ok = tool_edits(
            "edit_file",
            &llm,
            o("The file /testbed/a.py has been edited.", Some(false)),
            &p(),
        );
        assert_eq!(label(&ok[0].status), "applied");
        let bad = tool_edits("edit_file", &llm, o("ERROR:\nInvalid range", Some(true)), &p());
        assert_eq!(label(&bad[0].status), "rejected other");
        // Rows 2 and 3: SWE-agent text actions on the open file, text mode of the editor too.
        let f = Some("/testbed/a.py");
        let text_actions: [(&str, &str, &str); 14] = [
            ("edit 3:4\nx = 1\nend_of_edit", "[File: /testbed/a.py (9 lines total)]\nFile updated. Please review the changes", "applied"),
            ("edit 3:4\nx = (\nend_of_edit", lint, "rejected lint_rejected"),
            ("edit 3:4\nx\nend_of_edit", "Usage: edit <start_line>:<end_line>", "rejected bad_args"),
            ("edit 3:4\nx\nend_of_edit", "No file open. Use the open command first.", "rejected bad_args"),
            ("edit 'a' 'b'", "Text replaced. Please review the changes", "applied"),
            ("edit 'a' 'b' True", "Replaced 3 occurrences. Please review the changes", "applied"),
            ("edit 'a' 'b'", "Your edit was not applied (file not modified): Text 'a' not found in displayed lines", "rejected no_match"),
            ("edit 'a' 'b'", "Your edit was not applied (file not modified): Found more than one occurrence of 'a'", "rejected multiple_matches"),
            ("edit 'a' 'a'", "Your search and replace strings are the same. No changes were made.", "rejected no_op"),
            ("edit 'a' 'b('", lint, "rejected lint_rejected"),
            ("insert 'x = (' 4", lint, "rejected lint_rejected"),
            ("insert 'x = 1' 4", "Text replaced. Please review", "applied"),
            ("str_replace_editor str_replace /testbed/a.py --old_str 'x' --new_str 'y'", lint, "rejected lint_rejected"),
            ("str_replace_editor undo_edit /testbed/a.py", "No edit history found for /testbed/a.py.", "rejected other"),
        ];
        for (action, obs, want) in text_actions {
            let ops = swe_agent(action, obs, f, &p());
            assert_eq!(ops.len(), 1, "{action}");
            assert_eq!(label(&ops[0].status), want, "{action}: {obs}");
        }
        // The demo log's case: text-mode `str_replace_editor` rejected by the linter.
        let ops = swe_agent(
            "str_replace_editor str_replace /testbed/a.py --old_str 'x' --new_str 'y'",
            lint,
            None,
            &p(),
        );
        assert_eq!(ops[0].status, lint_rejected);
        // Row 4: Claude Code, by `is_error` (absent or false: applied).
        let cc = json!({"file_path": "/testbed/a.py", "old_string": "x", "new_string": "y"});
        for (out, want) in [
            (o("The file has been updated.", None), "applied"),
            (o("The file has been updated.", Some(false)), "applied"),
            (o("<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>", Some(true)), "rejected no_match"),
            (o("<tool_use_error>Found 2 matches of the string to replace, but replace_all is false.</tool_use_error>", Some(true)), "rejected multiple_matches"),
        ] {
            let ops = tool_edits("Edit", &cc, out, &p());
            assert_eq!(label(&ops[0].status), want, "{:?}", out.text);
        }
        // Row 5: `apply_patch` (Codex, OpenHands V1).
        let patch =
            json!({"patch": "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch"});
        for (text, want) in [
            ("Success. Updated the following files:\nM a.py", "applied"),
            (
                "apply_patch verification failed: Failed to find expected lines in a.py:\nx",
                "rejected patch_apply_failed",
            ),
            ("Failed to find expected lines in a.py", "rejected patch_apply_failed"),
        ] {
            let ops = tool_edits("apply_patch", &patch, o(text, None), &p());
            assert_eq!(label(&ops[0].status), want, "{text}");
        }
    }

    #[test]
    fn swe_agent_commands() {
        let lint = "Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 SyntaxError: unmatched ')'\n\nThis is how";
        let ops = swe_agent("edit 3:4\nx = 1\nend_of_edit", lint, Some("/testbed/a.py"), &p());
        assert_eq!(
            ops[0].status,
            EditStatus::Rejected {
                reason: RejectReason::LintRejected,
                message: "E999 SyntaxError: unmatched ')'".into()
            }
        );
        assert_eq!(ops[0].lines_before, Some(LineRange { start: 3, end: 4 }));
        assert_eq!(ops[0].lines_after, Some(LineRange { start: 3, end: 3 }));
        let ok = swe_agent(
            "edit 3:4\nx = 1\nend_of_edit",
            "[File: /testbed/a.py]\nFile updated. Please review",
            Some("/testbed/a.py"),
            &p(),
        );
        assert_eq!(ok[0].status, EditStatus::Applied);
        let usage = swe_agent(
            "edit 3:4\nx\nend_of_edit",
            "No file open. Use the open command first.",
            None,
            &p(),
        );
        assert!(usage.is_empty());
        let usage = swe_agent(
            "edit 3:4\nx\nend_of_edit",
            "Usage: edit <start_line>:<end_line>",
            Some("/testbed/a.py"),
            &p(),
        );
        assert_eq!(usage[0].status.label(), "rejected");
        let rep = swe_agent(
            "edit 'a b' 'c' False",
            "Replaced 1 occurrences. Please review",
            Some("/testbed/a.py"),
            &p(),
        );
        assert_eq!(
            (rep[0].old_text.as_deref(), rep[0].new_text.as_deref(), &rep[0].status),
            (Some("a b"), Some("c"), &EditStatus::Applied)
        );
        for (obs, reason) in [
            ("Your edit was not applied (file not modified): Text 'a' not found in displayed lines", RejectReason::NoMatch),
            ("Your edit was not applied (file not modified): Found more than one occurrence of 'a'", RejectReason::MultipleMatches),
            ("Your search and replace strings are the same. No changes were made.", RejectReason::NoOp),
        ] {
            let ops = swe_agent("edit 'a' 'b'", obs, Some("/testbed/a.py"), &p());
            assert_eq!(ops[0].status, EditStatus::Rejected { reason, message: obs.to_string() }, "{obs}");
        }
        let text_mode = swe_agent(
            "str_replace_editor create /testbed/n.py --file_text 'a\nb'",
            "File created successfully at: /testbed/n.py",
            None,
            &p(),
        );
        assert_eq!(
            (text_mode[0].kind, text_mode[0].lines_after),
            (EditKind::Create, Some(LineRange { start: 1, end: 2 }))
        );
    }

    #[test]
    fn claude_code_and_apply_patch() {
        let input = json!({"file_path": "/testbed/a.py", "old_string": "x", "new_string": "y"});
        let err =
            "<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>";
        let ops = claude_code(
            "Edit",
            &input,
            Outcome { text: Some(err), is_error: Some(true), exit_code: None },
            None,
            &p(),
        );
        assert_eq!(
            ops[0].status,
            EditStatus::Rejected {
                reason: RejectReason::NoMatch,
                message: "String to replace not found in file.".into()
            }
        );
        let stale = "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>";
        let ops = claude_code(
            "Edit",
            &input,
            Outcome { text: Some(stale), is_error: Some(true), exit_code: None },
            None,
            &p(),
        );
        assert!(matches!(
            ops[0].status,
            EditStatus::Rejected { reason: RejectReason::StaleRead, .. }
        ));
        let result = json!({"structuredPatch": [{"oldStart": 5, "oldLines": 3, "newStart": 5, "newLines": 3, "lines": [" a", "-x", "+y", " b"]}]});
        let ops = claude_code(
            "Edit",
            &input,
            Outcome { text: Some("ok"), is_error: None, exit_code: None },
            Some(&result),
            &p(),
        );
        assert_eq!(
            (ops[0].confidence, ops[0].lines_before, ops[0].lines_after),
            (
                Confidence::Exact,
                Some(LineRange { start: 6, end: 6 }),
                Some(LineRange { start: 6, end: 6 })
            )
        );
        let patch = "*** Begin Patch\n*** Update File: src/a.py\n@@ def f\n-x\n+y\n*** Add File: b.py\n+hi\n*** Delete File: c.py\n*** End Patch";
        let ops = apply_patch(patch, applied("Success. Updated the following files"), &p());
        let kinds: Vec<_> = ops.iter().map(|o| (o.path.as_str(), o.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("src/a.py", EditKind::Replace),
                ("b.py", EditKind::Create),
                ("c.py", EditKind::Delete)
            ]
        );
        assert_eq!(ops[0].old_text.as_deref(), Some("x\n"));
        let failed = apply_patch(
            patch,
            applied(
                "apply_patch verification failed: Failed to find expected lines in src/a.py:\nx",
            ),
            &p(),
        );
        assert!(matches!(
            failed[0].status,
            EditStatus::Rejected { reason: RejectReason::PatchApplyFailed, .. }
        ));
    }

    #[test]
    fn shell_heuristics() {
        let ok = Outcome { text: Some(""), is_error: None, exit_code: Some(0) };
        let ops = shell_edits("cd /testbed && sed -i '12,14s/a/b/' src/x.py && cat <<'EOF' > new.py\nprint(1)\nprint(2)\nEOF", ok, &p());
        let got: Vec<_> = ops
            .iter()
            .map(|o| (o.path.as_str(), o.kind, o.lines_before, o.lines_after, o.confidence))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "src/x.py",
                    EditKind::Replace,
                    Some(LineRange { start: 12, end: 14 }),
                    Some(LineRange { start: 12, end: 14 }),
                    Confidence::Heuristic
                ),
                (
                    "new.py",
                    EditKind::Rewrite,
                    None,
                    Some(LineRange { start: 1, end: 2 }),
                    Confidence::Exact
                ),
            ]
        );
        let bad = Outcome { text: Some("sed: can't read"), is_error: None, exit_code: Some(2) };
        let ops = shell_edits("sed -i 's/a/b/' y.py 2>/dev/null > /tmp/log", bad, &p());
        assert_eq!(ops.len(), 1);
        assert!(matches!(
            ops[0].status,
            EditStatus::Rejected { reason: RejectReason::ShellNonzero, .. }
        ));
        let ops = shell_edits("mv a.py b.py; rm -f c.py; git mv d.py e.py; cp /tmp/x f.py; echo x >> g.py; python3 -c \"open('h.py','w').write('')\"", ok, &p());
        let got: Vec<_> =
            ops.iter().map(|o| (o.path.as_str(), o.kind, o.new_path.as_deref())).collect();
        assert_eq!(
            got,
            [
                ("a.py", EditKind::Rename, Some("b.py")),
                ("c.py", EditKind::Delete, None),
                ("d.py", EditKind::Rename, Some("e.py")),
                ("f.py", EditKind::Rewrite, None),
                ("g.py", EditKind::Append, None),
                ("h.py", EditKind::Rewrite, None),
            ]
        );
        let diff = "git apply <<'EOF'\n--- a/src/x.py\n+++ b/src/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\nEOF";
        let ops = shell_edits(diff, ok, &p());
        assert_eq!(
            (ops[0].path.as_str(), ops[0].confidence, ops[0].lines_before),
            ("src/x.py", Confidence::Exact, Some(LineRange { start: 2, end: 2 }))
        );
        // Scratch files outside the repository and reads are not edits.
        assert!(shell_edits(
            "cat > /tmp/t.py <<EOF\nx\nEOF\ngrep -n x a.py > /dev/null; cd /tmp && echo 1 > z",
            ok,
            &p()
        )
        .is_empty());
    }
}
