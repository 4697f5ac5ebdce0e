//! mini-swe-agent `.traj.json` (v1: `trajectory_format` absent or `"mini-swe-agent-1"`; v2:
//! `"mini-swe-agent-1.1"`, metadata under `extra`, tool calling, final `role: "exit"`).
//!
//! Steps: each assistant message is an agent step whose observation is the following tool /
//! user message(s); the system prompt and other user messages are steps of their own; the v2
//! exit message is not a step (it gives the exit status and the submission).

use serde_json::Value;

use super::*;

pub(super) fn version(v: &Value) -> Format {
    let v2 = v.get("trajectory_format").and_then(Value::as_str) == Some("mini-swe-agent-1.1")
        || v["messages"].as_array().is_some_and(|m| {
            m.iter().any(|m| m.get("role").and_then(Value::as_str) == Some("exit"))
        });
    if v2 {
        Format::MiniSweAgentV2
    } else {
        Format::MiniSweAgentV1
    }
}

/// The commands of a text-mode assistant message: the ```` ```bash ```` (v1) or
/// ```` ```mswea_bash_command ```` (v2) blocks.
fn text_actions(content: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = content;
    while let Some(at) = rest.find("```") {
        let after = &rest[at + 3..];
        let (lang, body) = after.split_once('\n').unwrap_or((after, ""));
        let Some(end) = body.find("```") else { break };
        if matches!(lang.trim(), "bash" | "mswea_bash_command" | "sh" | "shell") {
            out.push(body[..end].trim_end_matches('\n').to_string());
        }
        rest = &body[end + 3..];
    }
    out
}

/// `<returncode>N</returncode>` of a v1 observation.
fn returncode(text: &str) -> Option<i64> {
    let a = text.find("<returncode>")? + "<returncode>".len();
    let b = text[a..].find("</returncode>")? + a;
    text[a..b].trim().parse().ok()
}

pub(super) fn read(v: &Value, format: Format) -> Result<Trajectory> {
    let messages = json::req_arr(v, "messages", None)?;
    let info = v.get("info").cloned().unwrap_or(Value::Null);
    let mut t = Trajectory { format: Some(format), ..Trajectory::default() };
    t.instance_id = json::opt_str(v, "instance_id", None)?.map(str::to_string);
    t.format_version = info.get("mini_version").and_then(Value::as_str).map(str::to_string);
    let cfg = info.get("config");
    t.model = cfg
        .and_then(|c| c.get("model"))
        .and_then(|m| m.get("model_name").or_else(|| m.get("name")))
        .and_then(Value::as_str)
        .map(str::to_string);
    let cwd = cfg
        .and_then(|c| c.get("environment"))
        .and_then(|e| e.get("cwd"))
        .and_then(Value::as_str)
        .filter(|c| c.starts_with('/'));
    let paths = Paths::with_root(cwd);
    t.repo_root = paths.root.clone();

    let mut last_agent: Option<usize> = None;
    for (i, m) in messages.iter().enumerate() {
        let role = json::opt_str(m, "role", Some(i))?.unwrap_or("");
        let content = json::content_text(m, "content", Some(i))?.unwrap_or_default();
        let extra = m.get("extra").filter(|e| e.is_object());
        match role {
            "assistant" => {
                let mut step = Step { role: Role::Agent, ..Step::default() };
                let tool_calls = json::opt_arr(m, "tool_calls", Some(i))?;
                if !tool_calls.is_empty() {
                    for c in tool_calls {
                        let f = c.get("function").unwrap_or(&Value::Null);
                        step.tool_calls.push(ToolCall {
                            id: c.get("id").and_then(Value::as_str).map(str::to_string),
                            name: f
                                .get("name")
                                .and_then(Value::as_str)
                                .unwrap_or("bash")
                                .to_string(),
                            arguments: json::arguments(f.get("arguments")),
                            ..ToolCall::default()
                        });
                    }
                    step.thought = Some(content.clone()).filter(|c| !c.trim().is_empty());
                } else {
                    // v2 records parsed actions in `extra.actions`; v1 only in the text.
                    let actions: Vec<String> = extra
                        .and_then(|e| e.get("actions"))
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(|x| {
                                    x.get("command").and_then(Value::as_str).map(str::to_string)
                                })
                                .collect()
                        })
                        .filter(|a: &Vec<String>| !a.is_empty())
                        .unwrap_or_else(|| text_actions(&content));
                    for a in actions {
                        step.tool_calls.push(ToolCall {
                            name: "bash".into(),
                            arguments: serde_json::json!({ "command": a }),
                            ..ToolCall::default()
                        });
                    }
                    let thought = content.split("```").next().unwrap_or("").trim();
                    step.thought = Some(thought.to_string()).filter(|s| !s.is_empty());
                }
                step.action = render_calls(&step.tool_calls);
                if let Some(e) = extra {
                    step.timestamp =
                        e.get("timestamp").map(|t| t.to_string().trim_matches('"').to_string());
                    if let Some(u) = e.get("response").and_then(|r| r.get("usage")) {
                        step.tokens = Some(Tokens {
                            prompt: u.get("prompt_tokens").and_then(Value::as_u64),
                            completion: u.get("completion_tokens").and_then(Value::as_u64),
                            cached: u
                                .get("prompt_tokens_details")
                                .and_then(|d| d.get("cached_tokens"))
                                .and_then(Value::as_u64),
                        });
                    }
                }
                t.steps.push(step);
                last_agent = Some(t.steps.len() - 1);
            }
            // After the first action every tool/user message answers it (observation, format error,
            // timeout notice, or v1's final submission message).
            "tool" | "user" if last_agent.is_some() => {
                let idx = last_agent.unwrap_or(0);
                let step = &mut t.steps[idx];
                let exit_code = match extra {
                    Some(e) => {
                        json::opt_i64(e, "returncode", Some(i))?.or_else(|| returncode(&content))
                    }
                    None => returncode(&content),
                };
                if extra.and_then(|e| e.get("interrupt_type")).and_then(Value::as_str)
                    == Some("FormatError")
                {
                    step.error = Some(ErrorSignal {
                        kind: ErrorKind::FormatError,
                        detail: "FormatError".into(),
                    });
                }
                let call_id = m.get("tool_call_id").and_then(Value::as_str);
                let slot = match call_id {
                    Some(id) => step.tool_calls.iter().position(|c| c.id.as_deref() == Some(id)),
                    None => step.tool_calls.iter().position(|c| c.output.is_none()),
                };
                if let Some(c) = slot.and_then(|k| step.tool_calls.get_mut(k)) {
                    c.output = Some(content.clone());
                    c.exit_code = exit_code;
                    c.error = call_signal(None, exit_code, Some(&content));
                }
                step.observation = Some(match step.observation.take() {
                    Some(prev) => format!("{prev}\n{content}"),
                    None => content,
                });
            }
            "exit" => {
                if let Some(e) = extra {
                    t.exit_status = json::opt_str(e, "exit_status", Some(i))?.map(str::to_string);
                    t.submission = json::opt_str(e, "submission", Some(i))?.map(str::to_string);
                    t.exit_error = json::opt_str(e, "exception_str", Some(i))?.map(str::to_string);
                }
            }
            _ => {
                let role = match role {
                    "system" => Role::System,
                    "user" => Role::User,
                    _ => Role::Environment,
                };
                if role == Role::User && t.task.is_none() {
                    t.task = Some(content.clone());
                }
                t.steps.push(Step { role, thought: Some(content), ..Step::default() });
            }
        }
    }
    for s in &mut t.steps {
        s.edits = call_edits(&s.tool_calls, &paths, true);
    }

    if let Some(info) = info.as_object() {
        let info_v = Value::Object(info.clone());
        if let Some(x) = json::opt_str(&info_v, "exit_status", None)? {
            t.exit_status = Some(x.to_string());
        }
        if let Some(x) = json::opt_str(&info_v, "submission", None)? {
            t.submission = Some(x.to_string());
        }
        if let Some(x) = json::opt_str(&info_v, "exception_str", None)? {
            t.exit_error = Some(x.to_string());
        }
        if let Some(ms) = json::opt_obj(&info_v, "model_stats", None)? {
            t.model_stats = stats(ModelStats {
                cost_usd: positive_f64(json::opt_f64(ms, "instance_cost", None)?),
                api_calls: positive_u64(json::opt_u64(ms, "api_calls", None)?),
                ..ModelStats::default()
            });
        }
    }
    Ok(t)
}
