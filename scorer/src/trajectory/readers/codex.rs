//! Codex CLI rollout JSONL: `{timestamp, type, payload}` records. `response_item` payloads make
//! the steps (`message`, `function_call`, `custom_tool_call`; `reasoning` joins the next step's
//! thought; `*_output` joins its call by `call_id`); `session_meta` / `turn_context` give the
//! working folder and model; `event_msg` `token_count` the totals. Unknown records are skipped.

use std::collections::HashMap;

use serde_json::Value;

use super::*;

/// The text and exit code of a `function_call_output`: plain text, or a JSON string with
/// `output` and `metadata.exit_code`; unified exec prints "Process exited with code N".
fn output_of(p: &Value) -> (String, Option<i64>) {
    let raw = match p.get("output") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => json::parts_text(other)
            .or_else(|| other.get("output").and_then(json::parts_text))
            .unwrap_or_default(),
        None => String::new(),
    };
    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(&raw) {
        if let Some(out) = v.get("output").and_then(Value::as_str) {
            let code = v.get("metadata").and_then(|m| m.get("exit_code")).and_then(Value::as_i64);
            return (out.to_string(), code);
        }
    }
    let code = raw.lines().find_map(|l| {
        let l = l.trim();
        l.strip_prefix("Process exited with code ")
            .or_else(|| l.strip_prefix("Exit code: "))
            .and_then(|n| n.trim().parse().ok())
    });
    (raw, code)
}

pub(super) fn read(records: &[Value]) -> Result<Trajectory> {
    let mut t = Trajectory { format: Some(Format::Codex), ..Trajectory::default() };
    let mut cwd: Option<String> = None;
    let mut by_call: HashMap<String, usize> = HashMap::new();
    let mut reasoning: Vec<String> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let ty = json::opt_str(r, "type", Some(i))?.unwrap_or("");
        let p = match r.get("payload") {
            Some(p @ Value::Object(_)) => p,
            None | Some(Value::Null) => continue,
            Some(other) => return Err(json::wrong(Some(i), "payload", "an object", other)),
        };
        let timestamp = json::opt_str(r, "timestamp", Some(i))?.map(str::to_string);
        match ty {
            "session_meta" => {
                cwd = cwd.or(json::opt_str(p, "cwd", Some(i))?.map(str::to_string));
                t.format_version = json::opt_str(p, "cli_version", Some(i))?.map(str::to_string);
            }
            "turn_context" => {
                cwd = cwd.or(json::opt_str(p, "cwd", Some(i))?.map(str::to_string));
                if let Some(m) = json::opt_str(p, "model", Some(i))? {
                    t.model = Some(m.to_string());
                }
            }
            "event_msg" if p.get("type").and_then(Value::as_str) == Some("token_count") => {
                let total = p.get("info").and_then(|x| x.get("total_token_usage"));
                if let Some(u) = total {
                    t.model_stats = stats(ModelStats {
                        tokens_sent: positive_u64(u.get("input_tokens").and_then(Value::as_u64)),
                        tokens_received: positive_u64(
                            u.get("output_tokens").and_then(Value::as_u64),
                        ),
                        ..ModelStats::default()
                    });
                }
            }
            "response_item" => {
                let kind = json::opt_str(p, "type", Some(i))?.unwrap_or("");
                match kind {
                    "reasoning" => {
                        let text = p.get("summary").and_then(json::parts_text).unwrap_or_default();
                        if !text.is_empty() {
                            reasoning.push(text);
                        }
                    }
                    "message" => {
                        let role = match json::opt_str(p, "role", Some(i))?.unwrap_or("") {
                            "user" => Role::User,
                            "developer" | "system" => Role::System,
                            _ => Role::Agent,
                        };
                        let mut text = json::content_text(p, "content", Some(i))?;
                        if role == Role::Agent && !reasoning.is_empty() {
                            reasoning.extend(text.take());
                            text = Some(std::mem::take(&mut reasoning).join("\n"));
                        }
                        if role == Role::User && t.task.is_none() {
                            t.task = text.clone();
                        }
                        t.steps.push(Step { role, thought: text, timestamp, ..Step::default() });
                    }
                    "function_call" | "custom_tool_call" | "local_shell_call" => {
                        let name = json::opt_str(p, "name", Some(i))?
                            .unwrap_or(if kind == "local_shell_call" { "local_shell" } else { "" })
                            .to_string();
                        let arguments = if kind == "custom_tool_call" {
                            serde_json::json!({ "input": p.get("input").and_then(Value::as_str).unwrap_or("") })
                        } else if kind == "local_shell_call" {
                            p.get("action").cloned().unwrap_or(Value::Null)
                        } else {
                            json::arguments(p.get("arguments"))
                        };
                        let id = json::opt_str(p, "call_id", Some(i))?.map(str::to_string);
                        let thought = (!reasoning.is_empty())
                            .then(|| std::mem::take(&mut reasoning).join("\n"));
                        let mut step =
                            Step { role: Role::Agent, thought, timestamp, ..Step::default() };
                        step.tool_calls.push(ToolCall {
                            id: id.clone(),
                            name,
                            arguments,
                            ..ToolCall::default()
                        });
                        step.action = render_calls(&step.tool_calls);
                        if let Some(id) = id {
                            by_call.insert(id, t.steps.len());
                        }
                        t.steps.push(step);
                    }
                    "function_call_output"
                    | "custom_tool_call_output"
                    | "local_shell_call_output" => {
                        let (text, code) = output_of(p);
                        let id = json::opt_str(p, "call_id", Some(i))?;
                        let Some(&idx) = id.and_then(|id| by_call.get(id)) else {
                            t.steps.push(Step {
                                role: Role::Environment,
                                observation: Some(text),
                                timestamp,
                                ..Step::default()
                            });
                            continue;
                        };
                        let step = &mut t.steps[idx];
                        if let Some(c) = step.tool_calls.first_mut() {
                            c.exit_code = code;
                            c.error = call_signal(None, code, Some(&text));
                            c.output = Some(text.clone());
                        }
                        step.observation = Some(text);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if !reasoning.is_empty() {
        t.steps.push(Step {
            role: Role::Agent,
            thought: Some(reasoning.join("\n")),
            ..Step::default()
        });
    }
    let paths = Paths::with_root(cwd.as_deref());
    t.repo_root = paths.root.clone();
    for s in &mut t.steps {
        let mut edits = Vec::new();
        for c in &s.tool_calls {
            let text = c.output.as_deref();
            // apply_patch failures are in the text; shell edits go by the exit code.
            let is_error =
                c.error.as_ref().map(|e| e.kind != ErrorKind::NonZeroExit).filter(|e| *e);
            let mut args = c.arguments.clone();
            if c.name == "exec_command" {
                if let Some(cmd) = args.get("cmd").cloned() {
                    args["command"] = cmd;
                }
            }
            let out = edits::Outcome { text, is_error, exit_code: c.exit_code };
            edits.extend(edits::tool_edits(&c.name, &args, out, &paths));
        }
        s.edits = edits;
    }
    Ok(t)
}
