//! Inspect AI logs: `.eval` (zip: `header.json` + `samples/<id>_epoch_<n>.json`) and `.json`
//! (`EvalLog` with `samples`). One trajectory per sample.
//!
//! Steps: one per message (system, user, assistant); tool messages join the assistant step whose
//! call they answer. `attachment://` references are resolved from the sample's `attachments`.

use std::collections::HashMap;

use serde_json::Value;

use super::*;
use crate::trajectory::zip;

pub(super) fn read_eval(bytes: &[u8]) -> Result<Vec<Trajectory>> {
    let entries = zip::entries(bytes)?;
    let header = match entries.iter().find(|e| e.name == "header.json") {
        Some(e) => json::parse(&zip::read(bytes, e)?).map_err(|e| in_entry("header.json", e))?,
        None => match entries.iter().find(|e| e.name == "_journal/start.json") {
            Some(e) => json::parse(&zip::read(bytes, e)?)
                .map_err(|e| in_entry("_journal/start.json", e))?,
            None => Value::Null,
        },
    };
    let mut out = Vec::new();
    for e in &entries {
        // `samples/<id>_epoch_<n>.json`; the chunked layout (`samples/<id>_epoch_<n>/…`, not yet
        // enabled by Inspect) is not read.
        let Some(rest) = e.name.strip_prefix("samples/") else { continue };
        if rest.contains('/') || !rest.ends_with(".json") {
            continue;
        }
        let sample = json::parse(&zip::read(bytes, e)?).map_err(|x| in_entry(&e.name, x))?;
        out.push(read_sample(&sample, &header).map_err(|x| in_entry(&e.name, x))?);
    }
    Ok(out)
}

fn in_entry(name: &str, e: TrajectoryError) -> TrajectoryError {
    match e {
        TrajectoryError::Decompress { .. } => e,
        other => {
            TrajectoryError::Decompress { entry: name.to_string(), message: other.to_string() }
        }
    }
}

pub(super) fn read_json(v: &Value) -> Result<Vec<Trajectory>> {
    json::opt_arr(v, "samples", None)?.iter().map(|s| read_sample(s, v)).collect()
}

/// Resolves `attachment://<hash>` strings everywhere in a value.
fn resolve(v: &Value, att: &serde_json::Map<String, Value>) -> Value {
    match v {
        Value::String(s) => match s.strip_prefix("attachment://").and_then(|h| att.get(h)) {
            Some(r) => r.clone(),
            None => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(|x| resolve(x, att)).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, x)| (k.clone(), resolve(x, att))).collect())
        }
        _ => v.clone(),
    }
}

fn read_sample(sample_in: &Value, header: &Value) -> Result<Trajectory> {
    if !sample_in.is_object() {
        return Err(json::wrong(None, "sample", "an object", sample_in));
    }
    let empty = serde_json::Map::new();
    let att = sample_in.get("attachments").and_then(Value::as_object).unwrap_or(&empty);
    let sample = if att.is_empty() { sample_in.clone() } else { resolve(sample_in, att) };
    let mut t = Trajectory { format: Some(Format::Inspect), ..Trajectory::default() };
    t.format_version = header.get("version").map(|v| v.to_string());
    t.model =
        header.get("eval").and_then(|e| e.get("model")).and_then(Value::as_str).map(str::to_string);
    t.instance_id = sample
        .get("id")
        .and_then(|i| i.as_str().map(str::to_string).or_else(|| i.as_i64().map(|n| n.to_string())));
    t.epoch = sample.get("epoch").and_then(Value::as_u64).and_then(|e| u32::try_from(e).ok());
    t.task = match sample.get("input") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(msgs)) => msgs
            .iter()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
            .and_then(|m| json::parts_text(m.get("content")?)),
        _ => None,
    };
    let messages = json::opt_arr(&sample, "messages", None)?;
    let mut by_call: HashMap<String, usize> = HashMap::new();
    let paths = Paths::default();
    for (i, m) in messages.iter().enumerate() {
        let role = json::opt_str(m, "role", Some(i))?.unwrap_or("");
        let text = json::content_text(m, "content", Some(i))?;
        match role {
            "tool" => {
                let id = json::opt_str(m, "tool_call_id", Some(i))?;
                let error = json::opt_obj(m, "error", Some(i))?;
                let signal = error.map(|e| {
                    let ty = e.get("type").and_then(Value::as_str).unwrap_or("unknown");
                    let kind = match ty {
                        "timeout" => ErrorKind::Timeout,
                        "output_limit" => ErrorKind::Truncated,
                        _ => ErrorKind::ToolError,
                    };
                    ErrorSignal { kind, detail: ty.to_string() }
                });
                let target = id.and_then(|id| by_call.get(id)).copied();
                let text = text.unwrap_or_default();
                let Some(idx) = target else {
                    let mut step = Step {
                        role: Role::Environment,
                        observation: Some(text),
                        ..Step::default()
                    };
                    step.error = signal;
                    t.steps.push(step);
                    continue;
                };
                let step = &mut t.steps[idx];
                if let Some(c) = step.tool_calls.iter_mut().find(|c| c.id.as_deref() == id) {
                    c.output = Some(text.clone());
                    c.error = signal;
                }
                step.observation = Some(match step.observation.take() {
                    Some(prev) => format!("{prev}\n{text}"),
                    None => text,
                });
            }
            "assistant" => {
                let mut step = Step {
                    role: Role::Agent,
                    thought: text.filter(|s| !s.trim().is_empty()),
                    ..Step::default()
                };
                for (k, c) in json::opt_arr(m, "tool_calls", Some(i))?.iter().enumerate() {
                    let name = c.get("function").and_then(Value::as_str).unwrap_or("").to_string();
                    let id = c.get("id").and_then(Value::as_str).map(str::to_string);
                    let mut call = ToolCall {
                        id: id.clone(),
                        name,
                        arguments: json::arguments(c.get("arguments")),
                        ..ToolCall::default()
                    };
                    if let Some(pe) = c.get("parse_error").and_then(Value::as_str) {
                        call.error = Some(ErrorSignal {
                            kind: ErrorKind::FormatError,
                            detail: pe.lines().next().unwrap_or("").to_string(),
                        });
                    }
                    step.tool_calls.push(call);
                    by_call.insert(id.unwrap_or_else(|| format!("#{i}.{k}")), t.steps.len());
                }
                step.action = render_calls(&step.tool_calls);
                t.steps.push(step);
            }
            _ => {
                let role = if role == "system" { Role::System } else { Role::User };
                t.steps.push(Step { role, thought: text, ..Step::default() });
            }
        }
    }
    // Per-call usage from `model` events, in order, onto the assistant steps.
    let usages: Vec<&Value> = json::opt_arr(&sample, "events", None)?
        .iter()
        .filter(|e| e.get("event").and_then(Value::as_str) == Some("model"))
        .filter_map(|e| e.get("output")?.get("usage"))
        .collect();
    let agent_steps: Vec<usize> =
        t.steps.iter().enumerate().filter(|(_, s)| s.role == Role::Agent).map(|(i, _)| i).collect();
    if usages.len() == agent_steps.len() {
        for (u, &i) in usages.iter().zip(&agent_steps) {
            t.steps[i].tokens = Some(Tokens {
                prompt: u.get("input_tokens").and_then(Value::as_u64),
                completion: u.get("output_tokens").and_then(Value::as_u64),
                cached: u.get("input_tokens_cache_read").and_then(Value::as_u64),
            });
        }
    }
    for s in &mut t.steps {
        s.edits = call_edits(&s.tool_calls, &paths, true);
    }
    // Exit: the sample's error or limit; the SWE-bench scorer's patch as the submission.
    if let Some(err) = sample.get("error").filter(|e| !e.is_null()) {
        t.exit_status = Some("error".into());
        t.exit_error = err
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| err.as_str().map(str::to_string));
    } else if let Some(limit) = sample.get("limit").filter(|l| !l.is_null()) {
        let ty = limit.get("type").and_then(Value::as_str).unwrap_or("unknown");
        t.exit_status = Some(format!("{ty}_limit"));
    } else if sample.get("output").is_some() || sample.get("scores").is_some() {
        t.exit_status = Some("completed".into());
    }
    if let Some(scores) = sample.get("scores").and_then(Value::as_object) {
        t.submission = scores
            .values()
            .find_map(|s| s.get("metadata")?.get("model_patch")?.as_str().map(str::to_string));
    }
    if let Some(usage) = sample.get("model_usage").and_then(Value::as_object) {
        let sum = |k: &str| usage.values().filter_map(|u| u.get(k)?.as_u64()).sum::<u64>();
        let cost: f64 = usage.values().filter_map(|u| u.get("total_cost")?.as_f64()).sum();
        t.model_stats = stats(ModelStats {
            cost_usd: positive_f64(Some(cost)),
            tokens_sent: positive_u64(Some(sum("input_tokens"))),
            tokens_received: positive_u64(Some(sum("output_tokens"))),
            api_calls: positive_u64(Some(usages.len() as u64)),
        });
    }
    Ok(t)
}
