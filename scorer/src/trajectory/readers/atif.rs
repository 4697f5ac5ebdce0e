//! Harbor's ATIF (`schema_version: "ATIF-v1.x"`): `steps[]` with `source`, `message`,
//! `tool_calls`, `observation.results`, `metrics`; `final_metrics`. No error flag: edit statuses
//! come from the wrapped tools' own messages only.

use serde_json::Value;

use super::*;

pub(super) fn read(v: &Value) -> Result<Trajectory> {
    let mut t = Trajectory { format: Some(Format::Atif), ..Trajectory::default() };
    t.format_version = json::opt_str(v, "schema_version", None)?.map(str::to_string);
    let agent = json::opt_obj(v, "agent", None)?;
    t.model = agent.and_then(|a| a.get("model_name")).and_then(Value::as_str).map(str::to_string);
    let paths = Paths::default();
    for (i, s) in json::req_arr(v, "steps", None)?.iter().enumerate() {
        if !s.is_object() {
            return Err(json::wrong(Some(i), "step", "an object", s));
        }
        let role = match json::opt_str(s, "source", Some(i))?.unwrap_or("agent") {
            "system" => Role::System,
            "user" => Role::User,
            _ => Role::Agent,
        };
        let message = json::content_text(s, "message", Some(i))?.filter(|m| !m.is_empty());
        let reasoning = json::opt_str(s, "reasoning_content", Some(i))?;
        let thought = match (reasoning, message) {
            (Some(r), Some(m)) => Some(format!("{r}\n{m}")),
            (Some(r), None) => Some(r.to_string()),
            (None, m) => m,
        };
        if role == Role::User && t.task.is_none() {
            t.task = thought.clone();
        }
        let mut step = Step {
            role,
            thought,
            timestamp: json::opt_str(s, "timestamp", Some(i))?.map(str::to_string),
            ..Step::default()
        };
        for c in json::opt_arr(s, "tool_calls", Some(i))? {
            step.tool_calls.push(ToolCall {
                id: c.get("tool_call_id").and_then(Value::as_str).map(str::to_string),
                name: c.get("function_name").and_then(Value::as_str).unwrap_or("").to_string(),
                arguments: json::arguments(c.get("arguments")),
                ..ToolCall::default()
            });
        }
        let results = match json::opt_obj(s, "observation", Some(i))? {
            Some(o) => json::opt_arr(o, "results", Some(i))?,
            None => &[],
        };
        let mut texts = Vec::new();
        for r in results {
            let text = r.get("content").and_then(json::parts_text).unwrap_or_default();
            let id = r.get("source_call_id").and_then(Value::as_str);
            let slot = match id {
                Some(id) => step.tool_calls.iter_mut().find(|c| c.id.as_deref() == Some(id)),
                None => step.tool_calls.iter_mut().find(|c| c.output.is_none()),
            };
            if let Some(c) = slot {
                c.output = Some(text.clone());
            }
            texts.push(text);
        }
        step.observation = (!texts.is_empty()).then(|| texts.join("\n"));
        step.action = render_calls(&step.tool_calls);
        if let Some(m) = json::opt_obj(s, "metrics", Some(i))? {
            step.tokens = Some(Tokens {
                prompt: json::opt_u64(m, "prompt_tokens", Some(i))?,
                completion: json::opt_u64(m, "completion_tokens", Some(i))?,
                cached: json::opt_u64(m, "cached_tokens", Some(i))?,
            });
        }
        step.edits = call_edits(&step.tool_calls, &paths, false);
        t.steps.push(step);
    }
    if let Some(fm) = json::opt_obj(v, "final_metrics", None)? {
        t.model_stats = stats(ModelStats {
            cost_usd: positive_f64(json::opt_f64(fm, "total_cost_usd", None)?),
            tokens_sent: positive_u64(json::opt_u64(fm, "total_prompt_tokens", None)?),
            tokens_received: positive_u64(json::opt_u64(fm, "total_completion_tokens", None)?),
            api_calls: None,
        });
    }
    Ok(t)
}
