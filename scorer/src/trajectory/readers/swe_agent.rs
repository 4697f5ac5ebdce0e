//! SWE-agent `.traj` (0.x, 1.0, 1.1+): `trajectory[]` steps with text actions, `info` totals.

use serde_json::Value;

use super::*;

/// 0.x iff `trajectory[0].state` is a string; 1.1 iff a step has `query` (or `info` names a
/// 1.1+ version); otherwise 1.0 (steps with `messages`, or neither, §2.13 #1).
pub(super) fn version(v: &Value) -> Format {
    let steps = v["trajectory"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if steps.first().and_then(|s| s.get("state")).is_some_and(Value::is_string) {
        return Format::SweAgent0x;
    }
    if steps.is_empty()
        && v.get("replay_config").is_none()
        && v["info"].get("swe_agent_version").is_none()
    {
        return Format::SweAgent0x;
    }
    let named = v["info"].get("swe_agent_version").and_then(Value::as_str).is_some_and(|ver| {
        let mut it = ver.trim_start_matches('v').split('.').map(|p| p.parse::<u32>().unwrap_or(0));
        let (major, minor) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
        major > 1 || (major == 1 && minor >= 1)
    });
    if named || steps.iter().any(|s| s.get("query").is_some()) {
        Format::SweAgent11
    } else {
        Format::SweAgent10
    }
}

/// `replay_config`: an object in 1.x, a JSON string in some files.
fn replay_config(v: &Value) -> Option<Value> {
    match v.get("replay_config")? {
        Value::String(s) => serde_json::from_str(s).ok(),
        o @ Value::Object(_) => Some(o.clone()),
        _ => None,
    }
}

fn state_of(step: &Value, i: usize) -> Result<Option<Value>> {
    match step.get("state") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(serde_json::from_str(s).ok()),
        Some(o @ Value::Object(_)) => Ok(Some(o.clone())),
        Some(other) => Err(json::wrong(Some(i), "state", "an object or a JSON string", other)),
    }
}

pub(super) fn read(v: &Value, format: Format) -> Result<Trajectory> {
    let steps_in = json::req_arr(v, "trajectory", None)?;
    let info = v.get("info").cloned().unwrap_or(Value::Null);
    let rc = replay_config(v);
    let mut t = Trajectory { format: Some(format), ..Trajectory::default() };
    t.format_version = info.get("swe_agent_version").and_then(Value::as_str).map(str::to_string);
    let str_at = |v: Option<&Value>, path: &[&str]| -> Option<String> {
        let mut cur = v?;
        for k in path {
            cur = cur.get(k)?;
        }
        cur.as_str().filter(|s| !s.is_empty()).map(str::to_string)
    };
    t.instance_id = v
        .get("instance_id")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| str_at(rc.as_ref(), &["problem_statement", "id"]));
    t.model = str_at(rc.as_ref(), &["agent", "model", "name"])
        .or_else(|| str_at(rc.as_ref(), &["agent", "model", "model_name"]));
    t.task = str_at(rc.as_ref(), &["problem_statement", "text"]).or_else(|| first_user_message(v));

    let states: Vec<Option<Value>> =
        steps_in.iter().enumerate().map(|(i, s)| state_of(s, i)).collect::<Result<_>>()?;
    let root = states.iter().flatten().find_map(|s| s.get("working_dir").and_then(Value::as_str));
    let paths = Paths::with_root(root);
    t.repo_root = paths.root.clone();

    for (i, s) in steps_in.iter().enumerate() {
        let action = json::opt_str(s, "action", Some(i))?.unwrap_or("");
        let observation = json::opt_str(s, "observation", Some(i))?.unwrap_or("");
        let thought = json::opt_str(s, "thought", Some(i))?;
        let state = states[i].as_ref();
        let open_file = state
            .and_then(|st| st.get("open_file"))
            .and_then(Value::as_str)
            .filter(|f| *f != "n/a" && !f.is_empty());
        let mut step = Step {
            thought: thought.map(str::to_string),
            action: Some(action.to_string()).filter(|a| !a.is_empty()),
            observation: Some(observation.to_string()),
            duration_s: json::opt_f64(s, "execution_time", Some(i))?,
            open_file: open_file.and_then(|f| paths.rel(f)),
            repo_diff: state
                .and_then(|st| st.get("diff"))
                .and_then(Value::as_str)
                .map(str::to_string),
            ..Step::default()
        };
        if action.trim().is_empty() {
            // A requeried parse failure: the raw output is in `thought`, no action ran.
            step.error = Some(ErrorSignal {
                kind: ErrorKind::FormatError,
                detail: "no action parsed".into(),
            });
        } else {
            let name = action.split_whitespace().next().unwrap_or("").to_string();
            step.tool_calls.push(ToolCall {
                name,
                arguments: serde_json::json!({ "command": action }),
                output: Some(observation.to_string()),
                ..ToolCall::default()
            });
            step.edits = edits::swe_agent(action, observation, open_file, &paths);
        }
        t.steps.push(step);
    }

    if let Some(info) = info.as_object() {
        let info_v = Value::Object(info.clone());
        t.exit_status = json::opt_str(&info_v, "exit_status", None)?.map(str::to_string);
        t.submission = json::opt_str(&info_v, "submission", None)?.map(str::to_string);
        if let Some(ms) = json::opt_obj(&info_v, "model_stats", None)? {
            t.model_stats = stats(ModelStats {
                cost_usd: positive_f64(json::opt_f64(ms, "instance_cost", None)?),
                tokens_sent: positive_u64(json::opt_u64(ms, "tokens_sent", None)?),
                tokens_received: positive_u64(json::opt_u64(ms, "tokens_received", None)?),
                api_calls: positive_u64(json::opt_u64(ms, "api_calls", None)?),
            });
        }
    }
    Ok(t)
}

/// The first user message of `history` (the task as the agent saw it).
fn first_user_message(v: &Value) -> Option<String> {
    v.get("history")?.as_array()?.iter().find_map(|m| {
        (m.get("role")?.as_str()? == "user").then(|| json::parts_text(m.get("content")?)).flatten()
    })
}
