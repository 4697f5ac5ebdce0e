//! OpenHands: V0 events (eval `output.jsonl` lines with `history`, or a bare event list) and V1
//! (software-agent-sdk) events with `kind`.
//!
//! Steps: one per action event (V0 `action`, V1 `ActionEvent` / `MessageEvent` /
//! `SystemPromptEvent`); observations join the action they answer (`cause` / `action_id` /
//! `tool_call_id`), or become an environment step of their own when the action is not in the file.

use std::collections::HashMap;

use serde_json::Value;

use super::*;

/// V1 iff the history's events have `kind`.
pub(super) fn output_format(v: &Value) -> Format {
    let v1 = v
        .get("history")
        .and_then(Value::as_array)
        .is_some_and(|h| h.iter().any(|e| e.get("kind").is_some()));
    if v1 {
        Format::OpenHandsV1
    } else {
        Format::OpenHandsV0
    }
}

/// One eval / resolver output object.
pub(super) fn read_output(v: &Value) -> Result<Trajectory> {
    let history = json::req_arr(v, "history", None)?;
    let mut t = match output_format(v) {
        Format::OpenHandsV1 => read_v1_events(history)?,
        _ => {
            let usages =
                v.get("metrics").and_then(|m| m.get("token_usages")).and_then(Value::as_array);
            read_v0_events(
                history,
                json::opt_str(v, "instruction", None)?,
                usages.map(Vec::as_slice),
            )?
        }
    };
    t.instance_id = v
        .get("instance_id")
        .and_then(|i| i.as_str().map(str::to_string).or_else(|| i.as_i64().map(|n| n.to_string())));
    let patch =
        v.get("test_result").and_then(|r| r.get("git_patch")).or_else(|| v.get("git_patch"));
    t.submission = patch.and_then(Value::as_str).map(str::to_string);
    if let Some(model) = v
        .get("metadata")
        .and_then(|m| m.get("llm_config"))
        .and_then(|c| c.get("model"))
        .and_then(Value::as_str)
    {
        t.model = Some(model.to_string());
    }
    if let Some(instr) = json::opt_str(v, "instruction", None)? {
        t.task = Some(instr.to_string());
    }
    if let Some(err) = json::opt_str(v, "error", None)? {
        t.exit_error = Some(err.to_string());
        t.exit_status = Some(
            if err.contains("AgentStuckInLoopError") { "stuck_in_loop" } else { "error" }
                .to_string(),
        );
    }
    if let Some(m) = json::opt_obj(v, "metrics", None)? {
        let usage = m.get("accumulated_token_usage");
        let calls = m.get("token_usages").and_then(Value::as_array).map(|a| a.len() as u64);
        t.model_stats = stats(ModelStats {
            cost_usd: positive_f64(json::opt_f64(m, "accumulated_cost", None)?),
            tokens_sent: positive_u64(
                usage.and_then(|u| u.get("prompt_tokens")).and_then(Value::as_u64),
            ),
            tokens_received: positive_u64(
                usage.and_then(|u| u.get("completion_tokens")).and_then(Value::as_u64),
            ),
            api_calls: positive_u64(calls),
        });
    }
    Ok(t)
}

/// The repository folder: `<uploaded_files>\n/workspace/<repo>\n</uploaded_files>` in the task.
fn uploaded_root(task: &str) -> Option<String> {
    let a = task.find("<uploaded_files>")? + "<uploaded_files>".len();
    let b = task[a..].find("</uploaded_files>")? + a;
    task[a..b].lines().map(str::trim).find(|l| l.starts_with('/')).map(str::to_string)
}

fn event_text(e: &Value, i: usize) -> Result<Option<String>> {
    json::content_text(e, "content", Some(i))
}

/// V0 events (`action` + `args` / `observation` + `content` + `extras`).
/// `usages`: the eval output's `metrics.token_usages`, matched to steps by model response id.
pub(super) fn read_v0_events(
    events: &[Value],
    instruction: Option<&str>,
    usages: Option<&[Value]>,
) -> Result<Trajectory> {
    let usage_of: HashMap<&str, &Value> = usages
        .unwrap_or(&[])
        .iter()
        .filter_map(|u| Some((u.get("response_id")?.as_str()?, u)))
        .collect();
    // Parallel tool calls share one model response: its usage goes to the first of them.
    let mut seen_responses: std::collections::HashSet<String> = Default::default();
    let mut t = Trajectory { format: Some(Format::OpenHandsV0), ..Trajectory::default() };
    let first_user = events.iter().find_map(|e| {
        (e.get("action")?.as_str()? == "message" && e.get("source")?.as_str()? == "user")
            .then(|| e.get("args")?.get("content")?.as_str())
            .flatten()
    });
    let root = instruction.or(first_user).and_then(uploaded_root).or_else(|| {
        events.iter().find_map(|e| {
            e.get("extras")?.get("metadata")?.get("working_dir")?.as_str().map(str::to_string)
        })
    });
    let paths = Paths::with_root(root.as_deref());
    t.repo_root = paths.root.clone();
    t.task = first_user.map(str::to_string);
    // Step of each action id; observations find theirs by `cause`.
    let mut by_id: HashMap<i64, usize> = HashMap::new();
    // Outcome of each step's call: (text, is_error, exit_code, extras).
    let mut outcomes: HashMap<usize, Value> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        if !e.is_object() {
            return Err(json::wrong(Some(i), "event", "an object", e));
        }
        let source = json::opt_str(e, "source", Some(i))?.unwrap_or("agent");
        let role = match source {
            "user" => Role::User,
            "environment" => Role::Environment,
            _ => Role::Agent,
        };
        if let Some(action) = json::opt_str(e, "action", Some(i))? {
            let args = json::opt_obj(e, "args", Some(i))?
                .cloned()
                .unwrap_or(Value::Object(Default::default()));
            let mut step = Step {
                role,
                timestamp: json::opt_str(e, "timestamp", Some(i))?.map(str::to_string),
                ..Step::default()
            };
            step.thought = args
                .get("thought")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string);
            match action {
                "system" | "message" => {
                    if action == "system" {
                        step.role = Role::System;
                    }
                    step.thought = args
                        .get("content")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .or(step.thought);
                }
                "finish" => {
                    step.thought = args
                        .get("final_thought")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .or(step.thought);
                    t.exit_status.get_or_insert_with(|| "finished".to_string());
                }
                _ => {}
            }
            if !matches!(action, "system" | "message" | "recall" | "change_agent_state" | "null") {
                let tcm = e.get("tool_call_metadata");
                let name = tcm
                    .and_then(|m| m.get("function_name"))
                    .and_then(Value::as_str)
                    .unwrap_or(match action {
                        "run" => "execute_bash",
                        "edit" | "read" => "str_replace_editor",
                        "run_ipython" => "execute_ipython_cell",
                        other => other,
                    });
                let mut arguments = args.clone();
                if let Some(m) = arguments.as_object_mut() {
                    m.remove("thought");
                }
                // Early-2025 files: `translated_ipython_code` only; the call is in the model response.
                if action == "edit"
                    && args.get("command").is_none()
                    && args.get("translated_ipython_code").is_some()
                {
                    if let Some(a) = tcm.and_then(response_arguments) {
                        arguments = a;
                    }
                }
                if action == "read" {
                    if let Some(m) = arguments.as_object_mut() {
                        m.entry("command").or_insert_with(|| Value::String("view".into()));
                    }
                }
                step.tool_calls.push(ToolCall {
                    id: tcm
                        .and_then(|m| m.get("tool_call_id"))
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    name: name.to_string(),
                    arguments,
                    ..ToolCall::default()
                });
                step.action = render_calls(&step.tool_calls);
            }
            let response_id = e
                .get("tool_call_metadata")
                .and_then(|m| m.get("model_response"))
                .and_then(|r| r.get("id"))
                .and_then(Value::as_str);
            let usage = e
                .get("llm_metrics")
                .and_then(|m| m.get("token_usages"))
                .and_then(Value::as_array)
                .and_then(|a| a.last())
                .or_else(|| response_id.and_then(|id| usage_of.get(id).copied()));
            let first_of_response =
                response_id.is_none_or(|id| seen_responses.insert(id.to_string()));
            if let Some(m) = usage.filter(|_| first_of_response) {
                step.tokens = Some(Tokens {
                    prompt: m.get("prompt_tokens").and_then(Value::as_u64),
                    completion: m.get("completion_tokens").and_then(Value::as_u64),
                    cached: m.get("cache_read_tokens").and_then(Value::as_u64),
                });
            }
            t.steps.push(step);
            if let Some(id) = e.get("id").and_then(Value::as_i64) {
                by_id.insert(id, t.steps.len() - 1);
            }
        } else if let Some(obs) = json::opt_str(e, "observation", Some(i))? {
            let text = event_text(e, i)?.unwrap_or_default();
            let extras = json::opt_obj(e, "extras", Some(i))?.cloned().unwrap_or(Value::Null);
            if obs == "agent_state_changed" {
                if let Some(s) = extras.get("agent_state").and_then(Value::as_str) {
                    t.exit_status = Some(s.to_string());
                }
            }
            let cause = e.get("cause").and_then(Value::as_i64).and_then(|c| by_id.get(&c).copied());
            let Some(idx) = cause.filter(|k| t.steps[*k].observation.is_none()) else {
                t.steps.push(Step {
                    role: Role::Environment,
                    observation: Some(text),
                    ..Step::default()
                });
                continue;
            };
            let exit_code =
                extras.get("metadata").and_then(|m| m.get("exit_code")).and_then(Value::as_i64);
            let is_error =
                obs == "error" || (obs == "edit" && text.trim_start().starts_with("ERROR:"));
            let step = &mut t.steps[idx];
            step.observation = Some(text.clone());
            if obs == "loop_detection" || text.contains("AgentStuckInLoopError") {
                step.error = Some(ErrorSignal {
                    kind: ErrorKind::AgentError,
                    detail: "stuck in a loop".into(),
                });
            }
            if let Some(c) = step.tool_calls.first_mut() {
                c.output = Some(text.clone());
                c.exit_code = exit_code.filter(|c| *c >= 0);
                c.error = call_signal(Some(is_error), c.exit_code, Some(&text));
            }
            outcomes.insert(idx, extras);
        }
    }
    for (idx, s) in t.steps.iter_mut().enumerate() {
        s.edits = call_edits(&s.tool_calls, &paths, true);
        // `extras.diff` of an edit observation: exact hunks for the one edit.
        let diff = outcomes
            .get(&idx)
            .and_then(|x| x.get("diff"))
            .and_then(Value::as_str)
            .filter(|d| !d.trim().is_empty());
        if let (Some(diff), [op]) = (diff, s.edits.as_mut_slice()) {
            if let Some(d) =
                edits::diff_ops(diff, &op.tool, &paths).into_iter().find(|d| d.path == op.path)
            {
                op.hunks = d.hunks;
                op.lines_before = d.lines_before;
                op.lines_after = d.lines_after;
                op.confidence = Confidence::Exact;
                if op.status == EditStatus::Unknown {
                    op.status = EditStatus::Applied;
                }
            }
        }
    }
    Ok(t)
}

/// The JSON arguments of the tool call in `tool_call_metadata.model_response`.
fn response_arguments(tcm: &Value) -> Option<Value> {
    let id = tcm.get("tool_call_id")?.as_str()?;
    let calls = tcm
        .get("model_response")?
        .get("choices")?
        .get(0)?
        .get("message")?
        .get("tool_calls")?
        .as_array()?;
    let call = calls.iter().find(|c| c.get("id").and_then(Value::as_str) == Some(id))?;
    Some(json::arguments(call.get("function")?.get("arguments")))
}

/// V1 tool aliases (`openhands-sdk/openhands/sdk/agent/utils.py`).
fn v1_tool(name: &str) -> &str {
    match name {
        "execute_bash" | "bash" => "terminal",
        "str_replace_editor" | "str_replace" => "file_editor",
        n => n,
    }
}

/// V1 SDK events.
pub(super) fn read_v1_events(events: &[Value]) -> Result<Trajectory> {
    let mut t = Trajectory { format: Some(Format::OpenHandsV1), ..Trajectory::default() };
    let mut by_action: HashMap<String, usize> = HashMap::new();
    let mut by_call: HashMap<String, usize> = HashMap::new();
    let mut file_contents: HashMap<usize, (Option<String>, Option<String>)> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        if !e.is_object() {
            return Err(json::wrong(Some(i), "event", "an object", e));
        }
        let kind = json::opt_str(e, "kind", Some(i))?.unwrap_or("");
        let source = json::opt_str(e, "source", Some(i))?.unwrap_or("agent");
        let timestamp = json::opt_str(e, "timestamp", Some(i))?.map(str::to_string);
        match kind {
            "ActionEvent" => {
                let mut thought =
                    json::content_text(e, "thought", Some(i))?.filter(|s| !s.trim().is_empty());
                if thought.is_none() {
                    thought = json::opt_str(e, "reasoning_content", Some(i))?.map(str::to_string);
                }
                let name = json::opt_str(e, "tool_name", Some(i))?.unwrap_or("").to_string();
                let call = e.get("tool_call");
                let mut args = json::opt_obj(e, "action", Some(i))?
                    .cloned()
                    .unwrap_or_else(|| json::arguments(call.and_then(|c| c.get("arguments"))));
                if let Some(m) = args.as_object_mut() {
                    m.remove("kind");
                }
                let id = json::opt_str(e, "tool_call_id", Some(i))?.map(str::to_string);
                let mut step = Step { role: Role::Agent, thought, timestamp, ..Step::default() };
                step.tool_calls.push(ToolCall {
                    id: id.clone(),
                    name: v1_tool(&name).to_string(),
                    arguments: args,
                    ..ToolCall::default()
                });
                step.action = render_calls(&step.tool_calls);
                t.steps.push(step);
                let idx = t.steps.len() - 1;
                if let Some(aid) = e.get("id").and_then(Value::as_str) {
                    by_action.insert(aid.to_string(), idx);
                }
                if let Some(id) = id {
                    by_call.insert(id, idx);
                }
            }
            "ObservationEvent" | "UserRejectObservation" | "AgentErrorEvent" => {
                let obs = e.get("observation").unwrap_or(&Value::Null);
                let text = if kind == "AgentErrorEvent" {
                    json::opt_str(e, "error", Some(i))?.map(str::to_string)
                } else if kind == "UserRejectObservation" {
                    json::opt_str(e, "rejection_reason", Some(i))?.map(str::to_string)
                } else {
                    json::content_text(obs, "content", Some(i))?
                }
                .unwrap_or_default();
                let target = e
                    .get("action_id")
                    .and_then(Value::as_str)
                    .and_then(|a| by_action.get(a))
                    .or_else(|| {
                        e.get("tool_call_id").and_then(Value::as_str).and_then(|c| by_call.get(c))
                    })
                    .copied()
                    .filter(|k| t.steps[*k].observation.is_none());
                let is_error = kind != "ObservationEvent"
                    || obs.get("is_error").and_then(Value::as_bool) == Some(true);
                let exit_code = obs.get("exit_code").and_then(Value::as_i64).filter(|c| *c >= 0);
                let Some(idx) = target else {
                    let mut step = Step {
                        role: Role::Environment,
                        observation: Some(text.clone()),
                        timestamp,
                        ..Step::default()
                    };
                    step.error = call_signal(Some(is_error), exit_code, Some(&text));
                    if kind == "AgentErrorEvent" {
                        step.error = Some(ErrorSignal {
                            kind: ErrorKind::AgentError,
                            detail: text.lines().next().unwrap_or("").to_string(),
                        });
                    }
                    t.steps.push(step);
                    continue;
                };
                let step = &mut t.steps[idx];
                step.observation = Some(text.clone());
                if let Some(c) = step.tool_calls.first_mut() {
                    c.output = Some(text.clone());
                    c.exit_code = exit_code;
                    c.error = call_signal(Some(is_error), exit_code, Some(&text));
                    if kind == "AgentErrorEvent" {
                        c.error = Some(ErrorSignal {
                            kind: ErrorKind::AgentError,
                            detail: text.lines().next().unwrap_or("").to_string(),
                        });
                    }
                }
                if obs.get("old_content").is_some() || obs.get("new_content").is_some() {
                    let s = |k: &str| obs.get(k).and_then(Value::as_str).map(str::to_string);
                    file_contents.insert(idx, (s("old_content"), s("new_content")));
                }
            }
            "MessageEvent" | "SystemPromptEvent" => {
                let role = match (kind, source) {
                    ("SystemPromptEvent", _) => Role::System,
                    (_, "user") => Role::User,
                    (_, "environment") => Role::Environment,
                    _ => Role::Agent,
                };
                let text = if kind == "SystemPromptEvent" {
                    e.get("system_prompt")
                        .and_then(|p| json::parts_text(p.get("text").unwrap_or(p)))
                } else {
                    e.get("llm_message").and_then(|m| json::parts_text(m.get("content")?))
                };
                if role == Role::User && t.task.is_none() {
                    t.task = text.clone();
                }
                t.steps.push(Step { role, thought: text, timestamp, ..Step::default() });
            }
            "ConversationStateUpdateEvent" => {
                let key = e.get("key").and_then(Value::as_str);
                let value = e.get("value");
                if key == Some("execution_status") {
                    t.exit_status = value.and_then(Value::as_str).map(str::to_string);
                }
                if key == Some("stats") {
                    if let Some(metrics) =
                        value.and_then(|v| v.get("usage_to_metrics")).and_then(Value::as_object)
                    {
                        let mut s = ModelStats::default();
                        let mut cost = 0.0;
                        let (mut sent, mut recv) = (0u64, 0u64);
                        for m in metrics.values() {
                            cost +=
                                m.get("accumulated_cost").and_then(Value::as_f64).unwrap_or(0.0);
                            let u = m.get("accumulated_token_usage");
                            sent += u
                                .and_then(|u| u.get("prompt_tokens"))
                                .and_then(Value::as_u64)
                                .unwrap_or(0);
                            recv += u
                                .and_then(|u| u.get("completion_tokens"))
                                .and_then(Value::as_u64)
                                .unwrap_or(0);
                            if t.model.is_none() {
                                t.model =
                                    m.get("model_name").and_then(Value::as_str).map(str::to_string);
                            }
                        }
                        s.cost_usd = positive_f64(Some(cost));
                        s.tokens_sent = positive_u64(Some(sent));
                        s.tokens_received = positive_u64(Some(recv));
                        t.model_stats = stats(s);
                    }
                }
            }
            // Condensations, pauses and other bookkeeping events are not steps.
            _ => {}
        }
    }
    let root = t.steps.iter().flat_map(|s| &s.tool_calls).find_map(|c| {
        let p = c.arguments.get("path")?.as_str()?;
        let rest = p.strip_prefix("/workspace/")?;
        let repo = rest.split('/').next()?;
        Some(format!("/workspace/{repo}"))
    });
    let paths = Paths::with_root(root.as_deref());
    t.repo_root = paths.root.clone();
    for (idx, s) in t.steps.iter_mut().enumerate() {
        s.edits = call_edits(&s.tool_calls, &paths, true);
        if let (Some((before, after)), [op]) = (file_contents.remove(&idx), s.edits.as_mut_slice())
        {
            if op.status.is_applied() {
                if let (Some(b), Some(a)) = (&before, &after) {
                    let (lb, la) = whole_file_change(b, a);
                    op.lines_before = lb;
                    op.lines_after = la;
                    op.confidence = Confidence::Exact;
                }
            }
            op.file_before = before;
            op.file_after = after;
        }
    }
    Ok(t)
}

/// The changed line span between two whole-file contents (common prefix and suffix trimmed).
fn whole_file_change(before: &str, after: &str) -> (Option<LineRange>, Option<LineRange>) {
    let b: Vec<&str> = before.lines().collect();
    let a: Vec<&str> = after.lines().collect();
    let prefix = b.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let max_suffix = b.len().min(a.len()) - prefix;
    let suffix =
        b.iter().rev().zip(a.iter().rev()).take(max_suffix).take_while(|(x, y)| x == y).count();
    let start = u32::try_from(prefix + 1).unwrap_or(u32::MAX);
    let nb = u32::try_from(b.len() - prefix - suffix).unwrap_or(0);
    let na = u32::try_from(a.len() - prefix - suffix).unwrap_or(0);
    (Some(edits::span(start, nb)), Some(edits::span(start, na)))
}
