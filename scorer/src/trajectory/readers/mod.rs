//! Format detection (shared/trajectories.md §2.0: by keys, first match wins) and the readers.

mod atif;
mod claude;
mod codex;
mod inspect;
mod mini;
mod openhands;
mod swe_agent;

use serde_json::Value;

use super::edits::{self, Outcome};
use super::json::{self, Result};
use super::model::*;
use super::paths::Paths;
use super::TrajectoryError;

/// What a file's content is, decided from its keys.
enum Detected {
    InspectEval,
    /// One JSON document of a known format.
    Document(Format, Value),
    /// JSON lines (or a JSON list) of events of a known format.
    Events(Format, Vec<Value>),
    /// OpenHands eval `output.jsonl`: one trajectory per line.
    OpenHandsOutputs(Vec<Value>),
}

pub(super) fn detect(bytes: &[u8]) -> Option<Format> {
    match classify(bytes).ok()? {
        Detected::InspectEval => Some(Format::Inspect),
        Detected::Document(f, _) | Detected::Events(f, _) => Some(f),
        Detected::OpenHandsOutputs(lines) => lines.first().map(openhands::output_format),
    }
}

pub(super) fn read(bytes: &[u8]) -> Result<Vec<Trajectory>> {
    let mut out = match classify(bytes)? {
        Detected::InspectEval => inspect::read_eval(bytes)?,
        Detected::Document(format, v) => match format {
            Format::Inspect => inspect::read_json(&v)?,
            Format::Atif => vec![atif::read(&v)?],
            Format::SweAgent0x | Format::SweAgent10 | Format::SweAgent11 => {
                vec![swe_agent::read(&v, format)?]
            }
            Format::MiniSweAgentV1 | Format::MiniSweAgentV2 => vec![mini::read(&v, format)?],
            Format::OpenHandsV0 | Format::OpenHandsV1 => vec![openhands::read_output(&v)?],
            Format::ClaudeCode | Format::Codex => unreachable_format(format)?,
        },
        Detected::Events(format, events) => match format {
            Format::OpenHandsV0 => vec![openhands::read_v0_events(&events, None, None)?],
            Format::OpenHandsV1 => vec![openhands::read_v1_events(&events)?],
            Format::ClaudeCode => vec![claude::read(&events)?],
            Format::Codex => vec![codex::read(&events)?],
            other => unreachable_format(other)?,
        },
        Detected::OpenHandsOutputs(lines) => {
            lines.iter().map(openhands::read_output).collect::<Result<Vec<_>>>()?
        }
    };
    for t in &mut out {
        finish(t);
    }
    Ok(out)
}

fn unreachable_format<T>(f: Format) -> Result<T> {
    Err(TrajectoryError::Unrecognised(format!("{} is not read from this shape", f.label())))
}

fn classify(bytes: &[u8]) -> Result<Detected> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return if super::zip::has_entry(bytes, &["header.json", "_journal/start.json"])? {
            Ok(Detected::InspectEval)
        } else {
            Err(TrajectoryError::Unrecognised(
                "a zip archive without header.json (not an Inspect .eval)".into(),
            ))
        };
    }
    // One JSON document, or JSON lines.
    let doc: Option<Value> = serde_json::from_slice(bytes).ok();
    if let Some(v) = doc {
        match &v {
            Value::Object(_) => {
                if let Some(f) = object_format(&v) {
                    return Ok(match f {
                        Format::OpenHandsV1 if v.get("history").is_none() => {
                            Detected::Events(f, vec![v])
                        }
                        _ => Detected::Document(f, v),
                    });
                }
                return Err(TrajectoryError::Unrecognised(format!(
                    "a JSON object with keys {}",
                    key_list(&v)
                )));
            }
            Value::Array(items) => {
                if let Some(f) = event_format(items) {
                    let items = items.clone();
                    return Ok(Detected::Events(f, items));
                }
                return Err(TrajectoryError::Unrecognised(
                    "a JSON list that is not a list of agent events".into(),
                ));
            }
            other => {
                return Err(TrajectoryError::Unrecognised(format!(
                    "JSON {}",
                    json::type_name(other)
                )))
            }
        }
    }
    // JSON lines: decide from the first lines, then parse the rest (a predictions file is not
    // parsed whole here).
    let head: Vec<Value> = bytes
        .split(|b| *b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .take(20)
        .map_while(|l| serde_json::from_slice(l).ok())
        .collect();
    let Some(first) = head.first() else {
        return Err(TrajectoryError::Unrecognised("not JSON".into()));
    };
    if first.get("history").is_some_and(Value::is_array) && object_format(first).is_some() {
        return Ok(Detected::OpenHandsOutputs(json::parse_lines(bytes)?));
    }
    if let Some(f) = event_format(&head) {
        return Ok(Detected::Events(f, json::parse_lines(bytes)?));
    }
    Err(TrajectoryError::Unrecognised(format!(
        "JSON lines starting with an object with keys {}",
        key_list(first)
    )))
}

fn key_list(v: &Value) -> String {
    let keys: Vec<&str> =
        v.as_object().map(|o| o.keys().map(String::as_str).take(8).collect()).unwrap_or_default();
    format!("[{}]", keys.join(", "))
}

/// The format of a whole-file JSON object (§2.0 rows 2–7).
fn object_format(v: &Value) -> Option<Format> {
    let s = |k: &str| v.get(k).and_then(Value::as_str);
    let is = |k: &str, f: fn(&Value) -> bool| v.get(k).is_some_and(f);
    if v.get("version").is_some_and(Value::is_i64)
        && v.get("eval").is_some_and(|e| e.get("task").is_some())
        && is("status", Value::is_string)
    {
        return Some(Format::Inspect);
    }
    if s("schema_version").is_some_and(|x| x.starts_with("ATIF-v")) && is("steps", Value::is_array)
    {
        return Some(Format::Atif);
    }
    if is("trajectory", Value::is_array) && is("info", Value::is_object) {
        return Some(swe_agent::version(v));
    }
    if is("messages", Value::is_array)
        && is("info", Value::is_object)
        && (s("trajectory_format").is_some_and(|f| f.starts_with("mini-swe-agent"))
            || v["info"].get("mini_version").is_some())
    {
        return Some(mini::version(v));
    }
    if is("history", Value::is_array)
        && ((v.get("instance_id").is_some() && v.get("test_result").is_some())
            || (v.get("issue").is_some() && v.get("git_patch").is_some()))
    {
        return Some(openhands::output_format(v));
    }
    if is_v1_event(v) {
        return Some(Format::OpenHandsV1);
    }
    None
}

fn is_v1_event(v: &Value) -> bool {
    v.get("kind").is_some_and(Value::is_string)
        && v.get("source").is_some()
        && v.get("id").is_some_and(Value::is_string)
}

/// The format of a list of events / JSON lines (§2.0 rows 7–10), decided by the first items.
fn event_format(items: &[Value]) -> Option<Format> {
    let first = items.iter().find(|v| v.is_object())?;
    if is_v1_event(first) {
        return Some(Format::OpenHandsV1);
    }
    if first.get("source").is_some()
        && (first.get("action").is_some() || first.get("observation").is_some())
    {
        return Some(Format::OpenHandsV0);
    }
    let ty = |v: &Value| v.get("type").and_then(Value::as_str).map(str::to_string);
    let codex = ["session_meta", "turn_context", "response_item", "event_msg", "compacted"];
    if items
        .iter()
        .take(5)
        .any(|v| ty(v).is_some_and(|t| codex.contains(&t.as_str())) && v.get("payload").is_some())
    {
        return Some(Format::Codex);
    }
    let claude = ["user", "assistant", "system", "summary"];
    if items.iter().take(20).any(|v| {
        ty(v).is_some_and(|t| claude.contains(&t.as_str()))
            && (v.get("sessionId").is_some() || v.get("uuid").is_some())
    }) {
        return Some(Format::ClaudeCode);
    }
    None
}

/// Harness notices that mark an observation as cut or as a timeout (FM-4's error observations).
pub(super) fn harness_signal(text: &str) -> Option<ErrorSignal> {
    let sig = |kind, detail: &str| Some(ErrorSignal { kind, detail: detail.to_string() });
    if text.contains("timed out and has been killed") {
        return sig(ErrorKind::Timeout, "command timed out");
    }
    if text.contains("Please always provide EXACTLY ONE action") {
        return sig(ErrorKind::FormatError, "not exactly one action");
    }
    for marker in [
        "<response clipped>",
        "Observations should not exceeded",
        "elided_chars",
        "too long to be displayed",
    ] {
        if text.contains(marker) {
            return sig(ErrorKind::Truncated, marker);
        }
    }
    if text.contains("<warning>") && text.contains("too long") {
        return sig(ErrorKind::Truncated, "output too long");
    }
    None
}

/// The error signal of one tool result from the format's own flags.
pub(super) fn call_signal(
    is_error: Option<bool>,
    exit_code: Option<i64>,
    text: Option<&str>,
) -> Option<ErrorSignal> {
    if is_error == Some(true) {
        let first =
            text.and_then(|t| t.lines().find(|l| !l.trim().is_empty())).unwrap_or("").trim();
        return Some(ErrorSignal {
            kind: ErrorKind::ToolError,
            detail: first.chars().take(200).collect(),
        });
    }
    match exit_code {
        Some(c) if c != 0 => {
            Some(ErrorSignal { kind: ErrorKind::NonZeroExit, detail: format!("exit code {c}") })
        }
        _ => None,
    }
}

/// Fills each call's edits and the step's error signal (edit rejection first, then tool errors,
/// then the reader's own signal, then harness notices), and numbers the steps.
fn finish(t: &mut Trajectory) {
    for (i, s) in t.steps.iter_mut().enumerate() {
        s.index = i;
        let edit_signal = s.edits.iter().find_map(|e| match &e.status {
            EditStatus::Rejected { reason, message } => Some(ErrorSignal {
                kind: ErrorKind::EditRejected,
                detail: format!("{}: {}", reason.label(), message),
            }),
            EditStatus::AppliedWithLint { errors } => {
                Some(ErrorSignal { kind: ErrorKind::EditLint, detail: errors.join("; ") })
            }
            _ => None,
        });
        let call_signal = s.tool_calls.iter().find_map(|c| c.error.clone());
        let harness = s.observation.as_deref().and_then(harness_signal);
        s.error = edit_signal.or(call_signal).or(s.error.take()).or(harness);
    }
}

/// Edits of a step's tool calls, from each call's own outcome.
/// `error_flag`: whether the format flags failed calls (an unflagged result then means success);
/// without one (ATIF), only the tools' own messages decide.
pub(super) fn call_edits(calls: &[ToolCall], paths: &Paths, error_flag: bool) -> Vec<EditOp> {
    let mut out = Vec::new();
    for c in calls {
        let flagged = c.error.as_ref().map(|e| e.kind != ErrorKind::NonZeroExit);
        let is_error = if error_flag {
            flagged.or(Some(false)).filter(|_| c.output.is_some() || c.error.is_some())
        } else {
            flagged.filter(|f| *f)
        };
        let outcome = Outcome { text: c.output.as_deref(), is_error, exit_code: c.exit_code };
        out.extend(edits::tool_edits(&c.name, &c.arguments, outcome, paths));
    }
    out
}

/// A zero logged cost or token count means "not recorded" (replays, free proxies), never $0.
pub(super) fn positive_f64(v: Option<f64>) -> Option<f64> {
    v.filter(|c| *c > 0.0)
}

pub(super) fn positive_u64(v: Option<u64>) -> Option<u64> {
    v.filter(|c| *c > 0)
}

/// Model stats with every field absent are no stats.
pub(super) fn stats(s: ModelStats) -> Option<ModelStats> {
    (s != ModelStats::default()).then_some(s)
}

/// Text of an action for display: the shell command or a one-line rendering of the call.
pub(super) fn render_call(c: &ToolCall) -> String {
    if let Some(cmd) = edits::shell_command(&c.name, &c.arguments) {
        return cmd;
    }
    let args = match &c.arguments {
        Value::Object(m) if m.is_empty() => String::new(),
        Value::Object(m) if m.len() == 1 && m.contains_key("input") => {
            m["input"].as_str().unwrap_or("").to_string()
        }
        a => a.to_string(),
    };
    if args.is_empty() {
        c.name.clone()
    } else {
        format!("{} {}", c.name, args)
    }
}

/// Joins the rendered calls of a step.
pub(super) fn render_calls(calls: &[ToolCall]) -> Option<String> {
    if calls.is_empty() {
        return None;
    }
    Some(calls.iter().map(render_call).collect::<Vec<_>>().join("\n"))
}

/// Joins the outputs of a step's calls in call order.
pub(super) fn join_outputs(calls: &[ToolCall]) -> Option<String> {
    let outs: Vec<&str> = calls.iter().filter_map(|c| c.output.as_deref()).collect();
    if outs.is_empty() {
        None
    } else {
        Some(outs.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every harness notice of shared/trajectories.md §1.3 FM-4 (timeouts, format errors,
    /// truncation) and the formats' own error flags give a step's error signal.
    #[test]
    fn harness_notices_and_call_flags_are_error_signals() {
        let kind = |t: &str| harness_signal(t).map(|s| s.kind);
        let cases: [(&str, Option<ErrorKind>); 9] = [
            ("The last command <command>sleep 999</command> timed out and has been killed.", Some(ErrorKind::Timeout)),
            ("Please always provide EXACTLY ONE action in triple backticks, found 2 actions.", Some(ErrorKind::FormatError)),
            ("     1\tx\n<response clipped><NOTE>To save on context only part of this file has been shown", Some(ErrorKind::Truncated)),
            ("Observations should not exceeded 100000 characters. 250000 characters were elided.", Some(ErrorKind::Truncated)),
            ("<warning>\nThe output of your last command was too long.\n</warning>", Some(ErrorKind::Truncated)),
            ("{\"output_head\": \"a\", \"elided_chars\": 9000}", Some(ErrorKind::Truncated)),
            ("The output is too long to be displayed.", Some(ErrorKind::Truncated)),
            ("<warning>all good</warning>", None),
            ("total 0\n", None),
        ];
        for (text, want) in cases {
            assert_eq!(kind(text), want, "{text}");
        }
        assert_eq!(
            call_signal(Some(true), None, Some("\nboom\n")).map(|s| (s.kind, s.detail)),
            Some((ErrorKind::ToolError, "boom".to_string()))
        );
        assert_eq!(call_signal(None, Some(2), None).map(|s| s.kind), Some(ErrorKind::NonZeroExit));
        assert_eq!(call_signal(Some(false), Some(0), Some("ok")), None);
    }
}
