//! Claude Code session JSONL: `user` / `assistant` / `system` lines with an Anthropic `message`;
//! `tool_result` parts (and `toolUseResult`) answer the `tool_use` of an earlier line.
//!
//! Steps: one per assistant line and per user or system line that is not only tool results;
//! `summary` and other bookkeeping lines are not steps.

use std::collections::HashMap;

use serde_json::Value;

use super::*;

pub(super) fn read(lines: &[Value]) -> Result<Trajectory> {
    let mut t = Trajectory { format: Some(Format::ClaudeCode), ..Trajectory::default() };
    let cwd = lines.iter().find_map(|l| l.get("cwd").and_then(Value::as_str));
    let paths = Paths::with_root(cwd);
    t.repo_root = paths.root.clone();
    t.format_version =
        lines.iter().find_map(|l| l.get("version").and_then(Value::as_str)).map(str::to_string);
    let mut by_call: HashMap<String, (usize, usize)> = HashMap::new();
    let mut results: HashMap<(usize, usize), Value> = HashMap::new();
    for (i, l) in lines.iter().enumerate() {
        let ty = json::opt_str(l, "type", Some(i))?.unwrap_or("");
        if !matches!(ty, "user" | "assistant" | "system") {
            continue;
        }
        let msg = json::opt_obj(l, "message", Some(i))?;
        let timestamp = json::opt_str(l, "timestamp", Some(i))?.map(str::to_string);
        let content: Vec<Value> = match msg.and_then(|m| m.get("content")) {
            None | Some(Value::Null) => match l.get("content") {
                Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
                _ => Vec::new(),
            },
            Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
            Some(Value::Array(a)) => a.clone(),
            Some(other) => {
                return Err(json::wrong(
                    Some(i),
                    "message.content",
                    "a string or a list of content parts",
                    other,
                ))
            }
        };
        if ty == "assistant" {
            let mut step = Step { role: Role::Agent, timestamp, ..Step::default() };
            let mut thought = Vec::new();
            for part in &content {
                match part.get("type").and_then(Value::as_str) {
                    Some("text") => thought.extend(part.get("text").and_then(Value::as_str)),
                    Some("thinking") => {
                        thought.extend(part.get("thinking").and_then(Value::as_str))
                    }
                    Some("tool_use") => {
                        let id = part.get("id").and_then(Value::as_str).map(str::to_string);
                        if let Some(id) = &id {
                            by_call.insert(id.clone(), (t.steps.len(), step.tool_calls.len()));
                        }
                        step.tool_calls.push(ToolCall {
                            id,
                            name: part
                                .get("name")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_string(),
                            arguments: part.get("input").cloned().unwrap_or(Value::Null),
                            ..ToolCall::default()
                        });
                    }
                    _ => {}
                }
            }
            step.thought = (!thought.is_empty()).then(|| thought.join("\n"));
            step.action = render_calls(&step.tool_calls);
            if let Some(u) = msg.and_then(|m| m.get("usage")) {
                step.tokens = Some(Tokens {
                    prompt: u.get("input_tokens").and_then(Value::as_u64),
                    completion: u.get("output_tokens").and_then(Value::as_u64),
                    cached: u.get("cache_read_input_tokens").and_then(Value::as_u64),
                });
            }
            if t.model.is_none() {
                t.model =
                    msg.and_then(|m| m.get("model")).and_then(Value::as_str).map(str::to_string);
            }
            t.steps.push(step);
            continue;
        }
        // user / system: tool results join their calls; any text is a step of its own.
        let mut texts = Vec::new();
        for part in &content {
            match part.get("type").and_then(Value::as_str) {
                Some("tool_result") => {
                    let id = part.get("tool_use_id").and_then(Value::as_str).unwrap_or("");
                    let text = part.get("content").and_then(json::parts_text).unwrap_or_default();
                    let is_error = part.get("is_error").and_then(Value::as_bool);
                    let Some(&(si, ci)) = by_call.get(id) else {
                        t.steps.push(Step {
                            role: Role::Environment,
                            observation: Some(text),
                            ..Step::default()
                        });
                        continue;
                    };
                    let step = &mut t.steps[si];
                    if let Some(c) = step.tool_calls.get_mut(ci) {
                        c.error = call_signal(is_error, None, Some(&text));
                        c.output = Some(text);
                    }
                    step.observation = join_outputs(&step.tool_calls);
                    if let Some(r) = l.get("toolUseResult").filter(|r| r.is_object()) {
                        results.insert((si, ci), r.clone());
                    }
                }
                Some("text") => {
                    texts.extend(part.get("text").and_then(Value::as_str).map(str::to_string))
                }
                _ => {}
            }
        }
        if !texts.is_empty() {
            let role = if ty == "system" { Role::System } else { Role::User };
            let text = texts.join("\n");
            if role == Role::User && t.task.is_none() {
                t.task = Some(text.clone());
            }
            t.steps.push(Step { role, thought: Some(text), timestamp, ..Step::default() });
        }
    }
    for (si, s) in t.steps.iter_mut().enumerate() {
        let mut edits = Vec::new();
        for (ci, c) in s.tool_calls.iter().enumerate() {
            let is_error = c.error.as_ref().map(|_| true).or(c.output.as_ref().map(|_| false));
            let out = edits::Outcome { text: c.output.as_deref(), is_error, exit_code: None };
            if matches!(c.name.as_str(), "Edit" | "MultiEdit" | "Write" | "NotebookEdit") {
                edits.extend(edits::claude_code(
                    &c.name,
                    &c.arguments,
                    out,
                    results.get(&(si, ci)),
                    &paths,
                ));
            } else {
                edits.extend(edits::tool_edits(&c.name, &c.arguments, out, &paths));
            }
        }
        s.edits = edits;
    }
    Ok(t)
}
