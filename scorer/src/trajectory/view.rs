//! The two renderings of a trajectory the CLI prints (and the app will show): the `--json`
//! object and a readable text, one block per step.

use std::fmt::Write as _;

use serde_json::{json, Value};

use super::analysis::Analysis;
use super::model::*;

/// The `--json` object. Top-level keys are exactly `format`, `steps`, `submission`,
/// `exit_status`, `model_stats`, `edit_state`, `failure_modes`.
pub fn to_json(t: &Trajectory, a: &Analysis) -> Value {
    json!({
        "format": t.format.map(Format::label),
        "steps": t.steps.iter().map(step_json).collect::<Vec<_>>(),
        "submission": t.submission,
        "exit_status": t.exit_status,
        "model_stats": t.model_stats.as_ref().map(|m| json!({
            "cost_usd": m.cost_usd,
            "tokens_sent": m.tokens_sent,
            "tokens_received": m.tokens_received,
            "api_calls": m.api_calls,
        })),
        "edit_state": serde_json::to_value(&a.edit_state).unwrap_or(Value::Null),
        "failure_modes": serde_json::to_value(&a.failure_modes).unwrap_or(Value::Null),
    })
}

/// One step: `index`, `role`, `thought`, `action`, `observation`, `tool`, `edit`, `error`, and
/// `edits` when the step made more than one edit.
fn step_json(s: &Step) -> Value {
    let mut v = json!({
        "index": s.index,
        "role": s.role,
        "thought": s.thought,
        "action": s.action,
        "observation": s.observation,
        "tool": s.tool(),
        "edit": s.edit().map(edit_json),
        "error": s.error.as_ref().map(|e| json!({"kind": e.kind, "detail": e.detail})),
    });
    if s.edits.len() > 1 {
        v["edits"] = Value::Array(s.edits.iter().map(edit_json).collect());
    }
    if let Some(tk) = &s.tokens {
        v["tokens"] =
            json!({"prompt": tk.prompt, "completion": tk.completion, "cached": tk.cached});
    }
    v
}

/// `{path, kind, status, reason, lines_before, lines_after, confidence}`, and `new_path` for a
/// rename.
pub fn edit_json(e: &EditOp) -> Value {
    let reason = match &e.status {
        EditStatus::Rejected { reason, .. } => Some(reason.label().to_string()),
        EditStatus::AppliedWithLint { errors } => Some(errors.join("; ")),
        _ => None,
    };
    let mut v = json!({
        "path": e.path,
        "kind": e.kind,
        "status": e.status.label(),
        "reason": reason,
        "lines_before": e.lines_before,
        "lines_after": e.lines_after,
        "confidence": e.confidence,
    });
    if let Some(p) = &e.new_path {
        v["new_path"] = json!(p);
    }
    v
}

/// Cuts text to `max_lines` lines of at most `max_cols` characters, saying how much was left out.
fn cut(text: &str, max_lines: usize, max_cols: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    for l in lines.iter().take(max_lines) {
        let mut line: String = l.chars().take(max_cols).collect();
        if l.chars().count() > max_cols {
            line.push('…');
        }
        out.push_str("    ");
        out.push_str(&line);
        out.push('\n');
    }
    if lines.len() > max_lines {
        let _ = writeln!(out, "    … ({} more lines)", lines.len() - max_lines);
    }
    out
}

fn range(r: Option<LineRange>) -> String {
    match r {
        Some(r) if r.end < r.start => format!("(empty at {})", r.start),
        Some(r) => format!("{}-{}", r.start, r.end),
        None => "?".into(),
    }
}

/// A readable rendering: a header, then one block per step with truncated text.
pub fn to_text(t: &Trajectory, a: &Analysis) -> String {
    let mut out = String::new();
    let fmt = t.format.map_or("unknown", Format::label);
    let _ = write!(out, "format: {fmt}");
    if let Some(v) = &t.format_version {
        let _ = write!(out, " ({v})");
    }
    out.push('\n');
    for (label, v) in [
        ("instance", &t.instance_id),
        ("model", &t.model),
        ("exit status", &t.exit_status),
        ("exit error", &t.exit_error),
    ] {
        if let Some(v) = v {
            let _ = writeln!(out, "{label}: {}", v.lines().next().unwrap_or(""));
        }
    }
    match &t.model_stats {
        None => out.push_str("cost: no data\n"),
        Some(m) => {
            let cost = m.cost_usd.map_or("no data".to_string(), |c| format!("${c:.4}"));
            let tok = |x: Option<u64>| x.map_or("no data".to_string(), |n| n.to_string());
            let _ = writeln!(
                out,
                "cost: {cost}; tokens sent {}, received {}; api calls {}",
                tok(m.tokens_sent),
                tok(m.tokens_received),
                tok(m.api_calls)
            );
        }
    }
    let edits: usize = t.steps.iter().map(|s| s.edits.len()).sum();
    let failed = t
        .steps
        .iter()
        .flat_map(|s| &s.edits)
        .filter(|e| matches!(e.status, EditStatus::Rejected { .. }))
        .count();
    let _ = writeln!(out, "steps: {}; edits: {edits} ({failed} rejected)", t.steps.len());
    for s in &t.steps {
        let role = match s.role {
            Role::Agent => "agent",
            Role::User => "user",
            Role::System => "system",
            Role::Environment => "environment",
        };
        let _ = write!(out, "\n── step {} [{role}]", s.index);
        if let Some(tool) = s.tool() {
            let _ = write!(out, " {tool}");
        }
        out.push('\n');
        if let Some(th) = &s.thought {
            out.push_str("  thought:\n");
            out.push_str(&cut(th, 6, 160));
        }
        if let Some(a) = &s.action {
            out.push_str("  action:\n");
            out.push_str(&cut(a, 12, 160));
        }
        if let Some(o) = &s.observation {
            out.push_str("  observation:\n");
            out.push_str(&cut(o, 8, 160));
        }
        for e in &s.edits {
            let status = match &e.status {
                EditStatus::Rejected { reason, message } => {
                    format!("rejected ({}: {message})", reason.label())
                }
                EditStatus::AppliedWithLint { errors } => {
                    format!("applied with lint errors ({})", errors.join("; "))
                }
                other => other.label().to_string(),
            };
            let _ = writeln!(
                out,
                "  edit: {} {:?} lines {} → {} [{:?}] {status}",
                e.path,
                e.kind,
                range(e.lines_before),
                range(e.lines_after),
                e.confidence
            );
        }
        if let Some(err) = &s.error {
            let _ = writeln!(out, "  error: {:?}: {}", err.kind, err.detail);
        }
    }
    match &t.submission {
        Some(sub) if !sub.trim().is_empty() => {
            let _ = writeln!(out, "\nsubmission ({} lines):", sub.lines().count());
            out.push_str(&cut(sub, 20, 160));
        }
        _ => out.push_str("\nsubmission: none\n"),
    }
    if !a.failure_modes.is_empty() {
        out.push_str("\nfailure modes:\n");
        for f in &a.failure_modes {
            let _ =
                writeln!(out, "  {} steps {:?} tests {:?}: {}", f.id, f.steps, f.tests, f.detail);
        }
    }
    out
}
