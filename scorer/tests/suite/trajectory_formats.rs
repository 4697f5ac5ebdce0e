//! Reader tests on fixtures written here, for format versions and signals no public sample
//! covers (shared/trajectories.md §2): SWE-agent 1.1, mini-swe-agent v2 text mode, OpenHands V0
//! bare events and V1 `file_editor`, Inspect `text_editor` and attachments, ATIF without an
//! error flag, recent Claude Code `structuredPatch`, Codex failures, zstd `.eval`, type errors,
//! and `score --predictions` over these formats.

use scorer::submission::{detect_kind, parse_submissions, InputKind};
use scorer::trajectory::test_support::zip_write;
use scorer::trajectory::*;
use serde_json::{json, Value};

fn one(v: &Value) -> Trajectory {
    let bytes = serde_json::to_vec(v).expect("json");
    let mut ts = read(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ts.len(), 1);
    ts.remove(0)
}

fn lines(items: &[Value]) -> Vec<u8> {
    items.iter().map(|v| v.to_string() + "\n").collect::<String>().into_bytes()
}

fn status(t: &Trajectory, step: usize) -> (String, Option<RejectReason>) {
    let e = t.steps[step].edit().unwrap_or_else(|| panic!("step {step} has no edit"));
    let reason = match &e.status {
        EditStatus::Rejected { reason, .. } => Some(*reason),
        _ => None,
    };
    (e.status.label().to_string(), reason)
}

fn range(r: Option<LineRange>) -> Option<(u32, u32)> {
    r.map(|r| (r.start, r.end))
}

#[test]
fn swe_agent_1_1_text_mode_editor_lint_note_and_state_diff() {
    let note = "The file /testbed/src/a.py has been edited. Here's the result of running `cat -n` on a snippet of /testbed/src/a.py:\n     3\tdef g():\n     4\t    return y\n<NOTE>Your edits have been applied, but the linter has found syntax errors.</NOTE>\n\nERRORS:\n- F821 undefined name 'y'\n";
    let t = one(&json!({
        "trajectory": [
            {"action": "", "observation": "", "thought": "I will ...", "response": "bad", "state": {"working_dir": "/testbed"}, "query": []},
            {"action": "str_replace_editor str_replace /testbed/src/a.py --old_str 'def f():\n    return x' --new_str 'def g():\n    return y'",
             "observation": note, "thought": "rename", "state": {"open_file": "/testbed/src/a.py", "working_dir": "/testbed", "diff": "diff --git a/src/a.py b/src/a.py\n"}, "query": [], "execution_time": 0.5},
            {"action": "str_replace_editor create /testbed/src/a.py --file_text x", "observation": "File already exists at: /testbed/src/a.py. Cannot overwrite files using command `create`.", "thought": "", "state": {"working_dir": "/testbed"}, "query": []},
            {"action": "str_replace_editor undo_edit /testbed/src/a.py", "observation": "Last edit to /testbed/src/a.py undone successfully.", "thought": "", "state": {"working_dir": "/testbed"}, "query": []},
        ],
        "history": [],
        "info": {"exit_status": "submitted (exit_cost)", "submission": "", "model_stats": {"instance_cost": 2.5, "tokens_sent": 10, "tokens_received": 0, "api_calls": 4}, "swe_agent_version": "1.1.0"},
        "replay_config": "{\"problem_statement\": {\"id\": \"demo__task-1\", \"text\": \"Rename f\"}, \"agent\": {\"model\": {\"name\": \"gpt-4o\"}}}",
    }));
    assert_eq!(t.format, Some(Format::SweAgent11));
    assert_eq!(t.steps.len(), 4);
    assert_eq!(t.steps[0].error.as_ref().map(|e| e.kind), Some(ErrorKind::FormatError));
    assert!(t.steps[0].edits.is_empty());
    let e = t.steps[1].edit().expect("edit");
    assert_eq!(
        e.status,
        EditStatus::AppliedWithLint { errors: vec!["F821 undefined name 'y'".into()] }
    );
    assert_eq!(
        (e.path.as_str(), range(e.lines_before), range(e.lines_after)),
        ("src/a.py", Some((3, 4)), Some((3, 4)))
    );
    assert_eq!(t.steps[1].error.as_ref().map(|e| e.kind), Some(ErrorKind::EditLint));
    assert_eq!(t.steps[1].repo_diff.as_deref(), Some("diff --git a/src/a.py b/src/a.py\n"));
    assert_eq!(t.steps[1].duration_s, Some(0.5));
    assert_eq!(status(&t, 2), ("rejected".into(), Some(RejectReason::FileExists)));
    assert_eq!(
        (t.steps[3].edit().map(|e| e.kind), status(&t, 3).0.as_str()),
        (Some(EditKind::Undo), "applied")
    );
    assert_eq!(
        (t.instance_id.as_deref(), t.model.as_deref(), t.task.as_deref()),
        (Some("demo__task-1"), Some("gpt-4o"), Some("Rename f"))
    );
    let stats = t.model_stats.expect("stats");
    assert_eq!(
        (stats.cost_usd, stats.tokens_sent, stats.tokens_received),
        (Some(2.5), Some(10), None)
    );
    assert_eq!(t.submission.as_deref(), Some(""));
}

#[test]
fn mini_swe_agent_v2_text_mode_signals() {
    let t = one(&json!({
        "trajectory_format": "mini-swe-agent-1.1",
        "info": {"exit_status": "LimitsExceeded", "submission": "", "model_stats": {"instance_cost": 0.0, "api_calls": 3}, "mini_version": "2.1.0", "config": {"environment": {"cwd": "/testbed"}}},
        "messages": [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "Rename f to g"},
            {"role": "assistant", "content": "THOUGHT: edit\n```mswea_bash_command\nsed -i '3,4s/f/g/' src/a.py\n```", "extra": {"actions": [{"command": "sed -i '3,4s/f/g/' src/a.py"}], "response": {"usage": {"prompt_tokens": 100, "completion_tokens": 7}}}},
            {"role": "user", "content": "<returncode>0</returncode>\n<output>\n</output>", "extra": {"returncode": 0}},
            {"role": "assistant", "content": "no block here", "extra": {}},
            {"role": "user", "content": "Please always provide EXACTLY ONE action in triple backticks", "extra": {"interrupt_type": "FormatError"}},
            {"role": "assistant", "content": "```mswea_bash_command\nsleep 999\n```", "extra": {"actions": [{"command": "sleep 999"}]}},
            {"role": "user", "content": "The last command <command>sleep 999</command> timed out and has been killed.", "extra": {}},
            {"role": "assistant", "content": "```mswea_bash_command\nrm src/b.py\n```", "extra": {"actions": [{"command": "rm src/b.py"}]}},
            {"role": "user", "content": "<returncode>1</returncode>\n<output>rm: cannot remove</output>", "extra": {"returncode": "1"}},
            {"role": "exit", "content": "", "extra": {"exit_status": "LimitsExceeded", "submission": ""}},
        ],
    }));
    assert_eq!(t.format, Some(Format::MiniSweAgentV2));
    assert_eq!(
        t.steps.len(),
        6,
        "system, task and four model turns; observations and the exit message join them"
    );
    let e = t.steps[2].edit().expect("sed edit");
    assert_eq!(
        (e.path.as_str(), e.kind, e.confidence, range(e.lines_before)),
        ("src/a.py", EditKind::Replace, Confidence::Heuristic, Some((3, 4)))
    );
    assert_eq!(e.status, EditStatus::Applied);
    assert_eq!(t.steps[2].tokens.as_ref().and_then(|t| t.prompt), Some(100));
    assert_eq!(t.steps[3].error.as_ref().map(|e| e.kind), Some(ErrorKind::FormatError));
    assert_eq!(t.steps[4].error.as_ref().map(|e| e.kind), Some(ErrorKind::Timeout));
    assert_eq!(status(&t, 5), ("rejected".into(), Some(RejectReason::ShellNonzero)));
    assert_eq!(t.exit_status.as_deref(), Some("LimitsExceeded"));
    assert_eq!(t.model_stats.and_then(|m| m.cost_usd), None, "cost 0 is no data");
}

#[test]
fn openhands_v0_bare_events_with_translated_ipython_code() {
    let call_args = json!({"command": "insert", "path": "/workspace/repo__x__1.0/a.py", "insert_line": 2, "new_str": "z = 3"}).to_string();
    let events = json!([
        {"id": 0, "source": "user", "action": "message", "args": {"content": "<uploaded_files>\n/workspace/repo__x__1.0\n</uploaded_files>\nDo it"}},
        {"id": 1, "source": "agent", "action": "edit", "args": {"translated_ipython_code": "print(file_editor(**{'command': 'insert'}))", "thought": "insert"},
         "tool_call_metadata": {"function_name": "str_replace_editor", "tool_call_id": "c1", "model_response": {"choices": [{"message": {"tool_calls": [{"id": "c1", "function": {"name": "str_replace_editor", "arguments": call_args}}]}}]}}},
        {"id": 2, "source": "agent", "observation": "edit", "cause": 1, "content": "The file /workspace/repo__x__1.0/a.py has been edited.", "extras": {"diff": "--- /workspace/repo__x__1.0/a.py\n+++ /workspace/repo__x__1.0/a.py\n@@ -2,0 +3 @@\n+z = 3"}},
        {"id": 3, "source": "agent", "action": "run", "args": {"command": "cat missing.py"}},
        {"id": 4, "source": "agent", "observation": "error", "cause": 3, "content": "File not found: missing.py", "extras": {}},
        {"id": 5, "source": "environment", "observation": "agent_state_changed", "content": "", "extras": {"agent_state": "stopped"}},
    ]);
    let t = one(&events);
    assert_eq!(t.format, Some(Format::OpenHandsV0));
    assert_eq!(t.steps.len(), 4);
    let e = t.steps[1].edit().expect("edit from the model response's arguments");
    assert_eq!(
        (e.path.as_str(), e.kind, e.confidence),
        ("a.py", EditKind::Insert, Confidence::Exact)
    );
    assert_eq!((range(e.lines_before), range(e.lines_after)), (Some((3, 2)), Some((3, 3))));
    assert_eq!(t.steps[2].error.as_ref().map(|e| e.kind), Some(ErrorKind::ToolError));
    assert_eq!(t.exit_status.as_deref(), Some("stopped"));
    assert_eq!(t.repo_root.as_deref(), Some("/workspace/repo__x__1.0"));
}

#[test]
fn openhands_v1_file_editor_and_apply_patch() {
    let action = |id: &str, call: &str, tool: &str, action: Value| json!({"kind": "ActionEvent", "id": id, "source": "agent", "timestamp": "t", "thought": [{"type": "text", "text": "go"}], "tool_name": tool, "tool_call_id": call, "action": action});
    let obs = |id: &str, aid: &str, call: &str, o: Value| json!({"kind": "ObservationEvent", "id": id, "source": "environment", "action_id": aid, "tool_call_id": call, "observation": o});
    let events = vec![
        json!({"kind": "MessageEvent", "id": "m0", "source": "user", "llm_message": {"role": "user", "content": [{"type": "text", "text": "Fix it"}]}}),
        action(
            "a1",
            "c1",
            "str_replace_editor",
            json!({"kind": "FileEditorAction", "command": "str_replace", "path": "/workspace/proj/a.py", "old_str": "b", "new_str": "B"}),
        ),
        obs(
            "o1",
            "a1",
            "c1",
            json!({"kind": "FileEditorObservation", "content": [{"type": "text", "text": "edited"}], "is_error": false, "old_content": "a\nb\nc\n", "new_content": "a\nB\nc\n"}),
        ),
        action(
            "a2",
            "c2",
            "file_editor",
            json!({"kind": "FileEditorAction", "command": "str_replace", "path": "/workspace/proj/a.py", "old_str": "q", "new_str": "Q"}),
        ),
        obs(
            "o2",
            "a2",
            "c2",
            json!({"kind": "FileEditorObservation", "content": [{"type": "text", "text": "No replacement was performed, old_str `q` did not appear verbatim"}], "is_error": true}),
        ),
        action(
            "a3",
            "c3",
            "apply_patch",
            json!({"kind": "ApplyPatchAction", "patch": "*** Begin Patch\n*** Update File: /workspace/proj/b.py\n-x\n+y\n*** End Patch"}),
        ),
        obs(
            "o3",
            "a3",
            "c3",
            json!({"kind": "ApplyPatchObservation", "content": [{"type": "text", "text": "apply_patch verification failed: Failed to find expected lines in b.py"}], "is_error": true}),
        ),
        json!({"kind": "AgentErrorEvent", "id": "e1", "source": "agent", "tool_call_id": "c9", "error": "bad tool"}),
        json!({"kind": "ConversationStateUpdateEvent", "id": "s1", "source": "environment", "key": "execution_status", "value": "finished"}),
    ];
    let ts = read(&lines(&events)).expect("reads");
    let t = &ts[0];
    assert_eq!(t.format, Some(Format::OpenHandsV1));
    assert_eq!(t.steps.len(), 5);
    let e = t.steps[1].edit().expect("edit");
    assert_eq!(
        (e.path.as_str(), e.confidence, range(e.lines_before), range(e.lines_after)),
        ("a.py", Confidence::Exact, Some((2, 2)), Some((2, 2)))
    );
    assert_eq!(e.file_after.as_deref(), Some("a\nB\nc\n"));
    assert_eq!(status(t, 2), ("rejected".into(), Some(RejectReason::NoMatch)));
    assert_eq!(status(t, 3), ("rejected".into(), Some(RejectReason::PatchApplyFailed)));
    assert_eq!(t.steps[4].error.as_ref().map(|e| e.kind), Some(ErrorKind::AgentError));
    assert_eq!(t.exit_status.as_deref(), Some("finished"));
}

#[test]
fn inspect_json_text_editor_errors_and_attachments() {
    let log = json!({
        "version": 2, "status": "success", "eval": {"task": "swe", "model": "openai/gpt-4o"},
        "samples": [{
            "id": "demo__task-1", "epoch": 1, "input": "Rename f",
            "messages": [
                {"role": "user", "content": "attachment://abc"},
                {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "think"}, {"type": "text", "text": "ok"}], "tool_calls": [
                    {"id": "t1", "function": "text_editor", "arguments": {"command": "str_replace", "path": "/testbed/a.py", "old_str": "f", "new_str": "g"}},
                    {"id": "t2", "function": "text_editor", "arguments": {"command": "str_replace", "path": "/testbed/b.py", "old_str": "f", "new_str": "g"}}]},
                {"role": "tool", "tool_call_id": "t1", "function": "text_editor", "content": "The file /testbed/a.py has been edited."},
                {"role": "tool", "tool_call_id": "t2", "function": "text_editor", "content": "", "error": {"type": "unknown", "message": "No replacement was performed, old_str `f` did not appear verbatim in /testbed/b.py."}},
                {"role": "assistant", "content": "", "tool_calls": [{"id": "t3", "function": "bash", "arguments": {"cmd": "sleep 100"}}]},
                {"role": "tool", "tool_call_id": "t3", "function": "bash", "content": "", "error": {"type": "timeout", "message": "timed out"}},
            ],
            "attachments": {"abc": "Rename f (from an attachment)"},
            "scores": {"swe": {"value": 1, "metadata": {"model_patch": "diff --git a/a.py b/a.py\n"}}},
            "limit": {"type": "message", "limit": 10},
        }]
    });
    let t = one(&log);
    assert_eq!(t.format, Some(Format::Inspect));
    assert_eq!(t.steps.len(), 3);
    assert_eq!(t.steps[0].thought.as_deref(), Some("Rename f (from an attachment)"));
    let edits = &t.steps[1].edits;
    assert_eq!(edits.len(), 2);
    assert_eq!((edits[0].path.as_str(), edits[0].status.label()), ("a.py", "applied"));
    assert!(
        matches!(edits[1].status, EditStatus::Rejected { reason: RejectReason::Other, .. }),
        "{:?}",
        edits[1].status
    );
    assert_eq!(t.steps[2].error.as_ref().map(|e| e.kind), Some(ErrorKind::Timeout));
    assert_eq!(t.submission.as_deref(), Some("diff --git a/a.py b/a.py\n"));
    assert_eq!(t.exit_status.as_deref(), Some("message_limit"));
    assert_eq!(t.instance_id.as_deref(), Some("demo__task-1"));
}

#[test]
fn inspect_eval_with_zstd_entries_gives_one_trajectory_per_sample() {
    let header =
        json!({"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}).to_string();
    let sample = |id: &str| {
        json!({"id": id, "epoch": 1, "input": "x", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "done"}]}).to_string()
    };
    let (s1, s2) = (sample("a"), sample("b"));
    let z = zip_write(&[
        ("_journal/start.json", 93, header.as_bytes()),
        ("samples/a_epoch_1.json", 93, s1.as_bytes()),
        ("samples/b_epoch_1.json", 8, s2.as_bytes()),
        ("samples/c_epoch_1/sample.json", 93, s1.as_bytes()),
        ("header.json", 0, header.as_bytes()),
    ]);
    assert_eq!(detect(&z), Some(Format::Inspect));
    let ts = read(&z).expect("reads");
    let ids: Vec<_> = ts.iter().map(|t| t.instance_id.as_deref()).collect();
    assert_eq!(ids, [Some("a"), Some("b")], "chunked-layout folders are not read");
    assert!(ts.iter().all(|t| t.steps.len() == 2 && t.model.as_deref() == Some("m")));
    // Each sample keeps its epoch (the run page lets the user choose which epochs count).
    assert!(
        ts.iter().all(|t| t.epoch == Some(1)),
        "{:?}",
        ts.iter().map(|t| t.epoch).collect::<Vec<_>>()
    );
    // A zip without an Inspect header is not a trajectory.
    let other = zip_write(&[("x.json", 0, b"{}")]);
    assert!(matches!(read(&other), Err(TrajectoryError::Unrecognised(_))));
}

#[test]
fn atif_has_no_error_flag_so_only_tool_messages_decide() {
    let t = one(&json!({
        "schema_version": "ATIF-v1.7", "agent": {"name": "x", "model_name": "m"},
        "steps": [
            {"step_id": 1, "source": "user", "message": "task"},
            {"step_id": 2, "source": "agent", "message": "", "tool_calls": [
                {"tool_call_id": "1", "function_name": "str_replace_editor", "arguments": {"command": "str_replace", "path": "/app/a.py", "old_str": "x", "new_str": "y"}},
                {"tool_call_id": "2", "function_name": "str_replace_editor", "arguments": {"command": "str_replace", "path": "/app/b.py", "old_str": "x", "new_str": "y"}},
                {"tool_call_id": "3", "function_name": "str_replace_editor", "arguments": {"command": "str_replace", "path": "/app/c.py", "old_str": "x", "new_str": "y"}}],
             "observation": {"results": [
                {"source_call_id": "1", "content": "No replacement was performed, old_str `x` did not appear verbatim in /app/a.py."},
                {"source_call_id": "2", "content": "The file /app/b.py has been edited."},
                {"source_call_id": "3", "content": "something else"}]},
             "metrics": {"prompt_tokens": 5, "completion_tokens": 2}},
        ],
        "final_metrics": {"total_cost_usd": 0.0, "total_prompt_tokens": 5}
    }));
    let labels: Vec<_> =
        t.steps[1].edits.iter().map(|e| (e.path.as_str(), e.status.label())).collect();
    assert_eq!(labels, [("a.py", "rejected"), ("b.py", "applied"), ("c.py", "unknown")]);
    assert_eq!(t.format_version.as_deref(), Some("ATIF-v1.7"));
    let stats = t.model_stats.expect("tokens logged");
    assert_eq!((stats.cost_usd, stats.tokens_sent), (None, Some(5)));
}

#[test]
fn claude_code_structured_patch_and_errors() {
    let base = |ty: &str, uuid: &str| json!({"type": ty, "uuid": uuid, "sessionId": "s", "cwd": "/home/u/proj", "version": "2.0.1", "timestamp": "t"});
    let mut a1 = base("assistant", "1");
    a1["message"] = json!({"role": "assistant", "model": "claude-x", "content": [
        {"type": "thinking", "thinking": "hmm"},
        {"type": "tool_use", "id": "u1", "name": "Edit", "input": {"file_path": "/home/u/proj/src/a.py", "old_string": "x = 1", "new_string": "x = 2"}},
        {"type": "tool_use", "id": "u2", "name": "Edit", "input": {"file_path": "/home/u/proj/src/b.py", "old_string": "q", "new_string": "r"}},
        {"type": "tool_use", "id": "u3", "name": "Write", "input": {"file_path": "/home/u/proj/new.py", "content": "a\nb\n"}},
        {"type": "tool_use", "id": "u4", "name": "Edit", "input": {"file_path": "/tmp/scratch.py", "old_string": "a", "new_string": "b"}}],
        "usage": {"input_tokens": 10, "output_tokens": 3}});
    let mut r1 = base("user", "2");
    r1["message"] = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "u1", "content": "ok", "is_error": false}]});
    r1["toolUseResult"] = json!({"filePath": "/home/u/proj/src/a.py", "structuredPatch": [{"oldStart": 9, "oldLines": 3, "newStart": 9, "newLines": 3, "lines": [" a", "-x = 1", "+x = 2", " b"]}]});
    let mut r2 = base("user", "3");
    r2["message"] = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "u2", "content": "<tool_use_error>File has been modified since read, either by the user or by a linter.</tool_use_error>", "is_error": true}]});
    let mut r3 = base("user", "4");
    r3["message"] = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "u3", "content": [{"type": "text", "text": "File created"}]}]});
    r3["toolUseResult"] = json!({"type": "create", "filePath": "/home/u/proj/new.py", "content": "a\nb\n", "structuredPatch": []});
    let summary = json!({"type": "summary", "summary": "s", "leafUuid": "4"});
    let ts = read(&lines(&[summary, a1, r1, r2, r3])).expect("reads");
    let t = &ts[0];
    assert_eq!(t.format, Some(Format::ClaudeCode));
    assert_eq!(t.steps.len(), 1);
    let e = &t.steps[0].edits;
    assert_eq!(e.len(), 3, "the edit outside the project is dropped");
    assert_eq!(
        (e[0].path.as_str(), e[0].confidence, range(e[0].lines_before), e[0].status.label()),
        ("src/a.py", Confidence::Exact, Some((10, 10)), "applied")
    );
    assert!(matches!(e[1].status, EditStatus::Rejected { reason: RejectReason::StaleRead, .. }));
    assert_eq!((e[2].kind, range(e[2].lines_after)), (EditKind::Create, Some((1, 2))));
    assert_eq!(t.steps[0].error.as_ref().map(|x| x.kind), Some(ErrorKind::EditRejected));
    assert_eq!(t.steps[0].tokens.as_ref().and_then(|x| x.completion), Some(3));
}

#[test]
fn codex_exec_exit_codes_and_apply_patch_failure() {
    let item = |p: Value| json!({"timestamp": "t", "type": "response_item", "payload": p});
    let recs = vec![
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x", "cwd": "/repo", "cli_version": "0.50.0"}}),
        item(
            json!({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"sed -i 's/a/b/' src/x.py\"}", "call_id": "c1"}),
        ),
        item(
            json!({"type": "function_call_output", "call_id": "c1", "output": "{\"output\":\"sed: can't read\",\"metadata\":{\"exit_code\":2}}"}),
        ),
        item(
            json!({"type": "custom_tool_call", "name": "apply_patch", "input": "*** Begin Patch\n*** Update File: src/y.py\n@@\n-a\n+b\n*** End Patch", "call_id": "c2"}),
        ),
        item(
            json!({"type": "custom_tool_call_output", "call_id": "c2", "output": "apply_patch verification failed: Failed to find expected lines in src/y.py:\na"}),
        ),
        json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 50, "output_tokens": 5}}}}),
    ];
    let t = &read(&lines(&recs)).expect("reads")[0];
    assert_eq!(t.steps.len(), 2);
    assert_eq!(status(t, 0), ("rejected".into(), Some(RejectReason::ShellNonzero)));
    assert_eq!(t.steps[0].tool_calls[0].exit_code, Some(2));
    assert_eq!(status(t, 1), ("rejected".into(), Some(RejectReason::PatchApplyFailed)));
    assert_eq!(t.format_version.as_deref(), Some("0.50.0"));
    assert_eq!(t.model_stats.as_ref().and_then(|m| m.tokens_sent), Some(50));
}

#[test]
fn wrong_types_name_the_field_and_the_step() {
    let bad = json!({"trajectory": [{"action": "ls", "observation": ""}, {"action": 7, "observation": ""}], "info": {}});
    let err = read(&serde_json::to_vec(&bad).expect("json")).expect_err("action 7");
    assert_eq!(
        err,
        TrajectoryError::FieldType {
            step: Some(1),
            field: "action".into(),
            expected: "a string",
            found: "a number"
        }
    );
    assert_eq!(err.to_string(), "step 1: `action` must be a string, found a number");
    let bad =
        json!({"messages": [{"role": "user", "content": 5}], "info": {"mini_version": "1.0"}});
    let err = read(&serde_json::to_vec(&bad).expect("json")).expect_err("content 5");
    assert!(
        matches!(err, TrajectoryError::FieldType { step: Some(0), ref field, .. } if field == "content"),
        "{err}"
    );
    assert!(matches!(read(b"{\"a\": 1}"), Err(TrajectoryError::Unrecognised(_))));
    assert!(matches!(read(b"not json"), Err(TrajectoryError::Unrecognised(_))));
    let broken = b"{\"type\":\"session_meta\",\"payload\":{}}\n{oops\n";
    assert!(matches!(read(broken), Err(TrajectoryError::Json { line: Some(2), .. })));
    // Unknown fields anywhere are ignored.
    let t = one(
        &json!({"schema_version": "ATIF-v1.5", "steps": [{"source": "agent", "message": "m", "future": {"x": 1}}], "future_root": 1}),
    );
    assert_eq!(t.steps.len(), 1);
}

#[test]
fn predictions_accept_the_new_formats() {
    let oh = json!({"instance_id": "demo__t-1", "test_result": {"git_patch": "diff --git a/x b/x\n"}, "history": [{"id": 0, "source": "user", "action": "message", "args": {"content": "go"}}], "metadata": {"llm_config": {"model": "m1"}}});
    let oh2 = json!({"instance_id": "demo__t-2", "test_result": {"git_patch": ""}, "history": [], "metadata": {}});
    let bytes = lines(&[oh, oh2]);
    assert_eq!(detect_kind("runs/base/output.jsonl", &bytes), Some(InputKind::Trajectory));
    let p = parse_submissions("runs/base/output.jsonl", &bytes);
    assert!(p.errors.is_empty(), "{:?}", p.errors);
    let got: Vec<_> = p
        .submissions
        .iter()
        .map(|s| {
            (
                s.instance_id.as_str(),
                std::str::from_utf8(&s.patch).expect("utf-8"),
                s.model_name_or_path.as_deref(),
            )
        })
        .collect();
    assert_eq!(got, [("demo__t-1", "diff --git a/x b/x\n", Some("m1")), ("demo__t-2", "", None)]);
    assert_eq!(p.submissions[0].instruction_set, Some(scorer::report::InstructionSet::Base));
    let atif =
        serde_json::to_vec(&json!({"schema_version": "ATIF-v1.5", "steps": []})).expect("json");
    let p = parse_submissions("demo__t-3.trajectory.json", &atif);
    assert_eq!(p.errors.len(), 1);
    assert_eq!(p.errors[0].message, "atif log records no submitted patch");
    assert_eq!(p.errors[0].instance_id.as_deref(), Some("demo__t-3.trajectory"));
    // Predictions and SWE-agent trajectories keep their own readers.
    let preds = b"{\"instance_id\": \"a\", \"model_patch\": \"\"}\n";
    assert_eq!(detect_kind("p.jsonl", preds), Some(InputKind::Jsonl));
    assert_eq!(parse_submissions("p.jsonl", preds).submissions.len(), 1);
}

/// Inspect tool-error types (§2.4): `timeout` is a timeout, `output_limit` a truncation, any
/// other type a tool error; OpenHands V0 `loop_detection` observations are agent errors.
#[test]
fn inspect_error_types_and_openhands_loop_detection() {
    let tool = |id: &str, ty: &str| json!({"role": "tool", "tool_call_id": id, "function": "bash", "content": "", "error": {"type": ty, "message": ty}});
    let call = |id: &str| json!({"role": "assistant", "content": "", "tool_calls": [{"id": id, "function": "bash", "arguments": {"cmd": "ls"}}]});
    let log = json!({
        "version": 2, "status": "success", "eval": {"task": "swe", "model": "m"},
        "samples": [{"id": "s", "epoch": 2, "input": "x", "messages": [
            call("a"), tool("a", "timeout"), call("b"), tool("b", "output_limit"), call("c"), tool("c", "permission")]}]
    });
    let t = one(&log);
    let kinds: Vec<Option<ErrorKind>> =
        t.steps.iter().map(|s| s.error.as_ref().map(|e| e.kind)).collect();
    assert_eq!(
        kinds,
        [Some(ErrorKind::Timeout), Some(ErrorKind::Truncated), Some(ErrorKind::ToolError)]
    );
    assert_eq!(t.epoch, Some(2));
    let events = json!([
        {"id": 1, "source": "agent", "action": "run", "args": {"command": "ls"}},
        {"id": 2, "source": "environment", "observation": "loop_detection", "cause": 1, "content": "loop", "extras": {}},
    ]);
    let t = one(&events);
    assert_eq!(t.steps[0].error.as_ref().map(|e| e.kind), Some(ErrorKind::AgentError));
}
