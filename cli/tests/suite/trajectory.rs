//! `refscore trajectory FILE [--tasks BUNDLE] [--json]`: the JSON key set, a list for Inspect
//! logs, the text rendering, unreadable input, and `score --predictions` over an OpenHands
//! output file. Fixtures are written here.

use crate::common;

use std::fs;
use std::path::Path;

use common::{bundle, demo, refscore_in, text, Temp};
use serde_json::{json, Value};

/// A mini-swe-agent v2 run on the demo task `rename-parse-amount` that submits its solve patch.
fn mini_fixture(dir: &Path) -> String {
    let patch = fs::read_to_string(demo().join("submissions/rename-parse-amount.solve.patch"))
        .expect("patch");
    let traj = json!({
        "trajectory_format": "mini-swe-agent-1.1",
        "instance_id": "rename-parse-amount",
        "info": {"exit_status": "Submitted", "submission": patch, "model_stats": {"instance_cost": 0.5, "api_calls": 2}, "mini_version": "2.2.0"},
        "messages": [
            {"role": "system", "content": "sys"},
            {"role": "user", "content": "Rename parse_amount"},
            {"role": "assistant", "content": "```mswea_bash_command\nsed -i 's/parse_amount/parse_money/' ledgerly/money.py\n```", "extra": {"actions": [{"command": "sed -i 's/parse_amount/parse_money/' ledgerly/money.py"}]}},
            {"role": "user", "content": "<returncode>0</returncode>\n<output>\n</output>", "extra": {"returncode": 0}},
            {"role": "exit", "content": "", "extra": {"exit_status": "Submitted", "submission": patch}},
        ],
    });
    let path = dir.join("run.traj.json");
    fs::write(&path, serde_json::to_vec_pretty(&traj).expect("json")).expect("write");
    path.to_str().expect("utf-8").to_string()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().expect("object").keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

fn check_keys(v: &Value) {
    assert_eq!(
        keys(v),
        [
            "edit_state",
            "exit_status",
            "failure_modes",
            "format",
            "model_stats",
            "steps",
            "submission"
        ]
    );
    for s in v["steps"].as_array().expect("steps") {
        for k in ["index", "thought", "action", "observation", "tool", "edit"] {
            assert!(s.get(k).is_some(), "step lacks {k}: {s}");
        }
        if !s["edit"].is_null() {
            assert_eq!(
                keys(&s["edit"]),
                ["confidence", "kind", "lines_after", "lines_before", "path", "reason", "status"]
            );
        }
    }
    assert!(v["edit_state"].is_array() && v["failure_modes"].is_array());
}

#[test]
fn json_has_exactly_the_documented_keys() {
    let tmp = Temp::new("traj-json");
    let file = mini_fixture(&tmp.0);
    let o = refscore_in(&tmp.0, &["trajectory", &file, "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    check_keys(&v);
    assert_eq!(v["format"], "mini-swe-agent-v2");
    assert_eq!(v["steps"].as_array().map(Vec::len), Some(3));
    let edit = &v["steps"][2]["edit"];
    assert_eq!(
        (edit["path"].as_str(), edit["status"].as_str(), edit["kind"].as_str()),
        (Some("ledgerly/money.py"), Some("applied"), Some("replace"))
    );
    assert_eq!(v["model_stats"]["cost_usd"], 0.5);
    assert_eq!(v["exit_status"], "Submitted");

    // With the bundle the same keys come out (the submission is scored for the analysis).
    let b = bundle("trajectory");
    let o = refscore_in(
        &tmp.0,
        &["trajectory", &file, "--json", "--tasks", b.to_str().expect("utf-8")],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    check_keys(&serde_json::from_slice(&o.stdout).expect("json"));
}

#[test]
fn inspect_logs_print_a_list_and_text_has_a_block_per_step() {
    let tmp = Temp::new("traj-list");
    let header =
        json!({"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}).to_string();
    let sample = json!({"id": "s1", "epoch": 1, "input": "x", "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "done"}]}).to_string();
    let zip = scorer::trajectory::test_support::zip_write(&[
        ("header.json", 8, header.as_bytes()),
        ("samples/s1_epoch_1.json", 93, sample.as_bytes()),
    ]);
    let path = tmp.0.join("log.eval");
    fs::write(&path, zip).expect("write");
    let o = refscore_in(&tmp.0, &["trajectory", "log.eval", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    let list = v.as_array().expect("a list for an Inspect log");
    assert_eq!(list.len(), 1);
    check_keys(&list[0]);
    assert_eq!(list[0]["format"], "inspect");

    let file = mini_fixture(&tmp.0);
    let o = refscore_in(&tmp.0, &["trajectory", &file]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    assert!(out.starts_with("format: mini-swe-agent-v2 (2.2.0)\n"), "{out}");
    assert_eq!(out.matches("\n── step ").count(), 3, "{out}");
    assert!(out.contains("edit: ledgerly/money.py Replace"), "{out}");
    assert!(out.contains("cost: $0.5000"), "{out}");
}

#[test]
fn unreadable_input_is_exit_2() {
    let tmp = Temp::new("traj-bad");
    fs::write(tmp.0.join("x.json"), b"{\"not\": \"a trajectory\"}").expect("write");
    let o = refscore_in(&tmp.0, &["trajectory", "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("not a recognised trajectory format"), "{}", text(&o.stderr));
}

#[test]
fn score_reads_an_openhands_output_file() {
    let tmp = Temp::new("traj-score");
    let patch = fs::read_to_string(demo().join("submissions/rename-parse-amount.solve.patch"))
        .expect("patch");
    let line = json!({"instance_id": "rename-parse-amount", "test_result": {"git_patch": patch}, "history": [], "metadata": {"llm_config": {"model": "oh-model"}}});
    fs::write(tmp.0.join("output.jsonl"), format!("{line}\n")).expect("write");
    let b = bundle("trajectory");
    let o = refscore_in(
        &tmp.0,
        &[
            "score",
            "--tasks",
            b.to_str().expect("utf-8"),
            "--predictions",
            "output.jsonl",
            "--json",
            "--jobs",
            "1",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).expect("json");
    let r = &report["results"][0];
    assert_eq!(
        (r["instance_id"].as_str(), r["resolved"].as_bool(), r["model_name_or_path"].as_str()),
        (Some("rename-parse-amount"), Some(true), Some("oh-model"))
    );
}

#[test]
fn an_openhands_v1_events_folder_reads_in_file_order() {
    let tmp = Temp::new("traj-folder");
    let dir = tmp.0.join("events");
    fs::create_dir_all(&dir).expect("mkdir");
    let events = [
        json!({"kind": "MessageEvent", "id": "m", "source": "user", "llm_message": {"role": "user", "content": [{"type": "text", "text": "go"}]}}),
        json!({"kind": "ActionEvent", "id": "a", "source": "agent", "tool_name": "terminal", "tool_call_id": "c", "action": {"kind": "TerminalAction", "command": "rm old.py"}}),
        json!({"kind": "ObservationEvent", "id": "o", "source": "environment", "action_id": "a", "tool_call_id": "c", "observation": {"kind": "TerminalObservation", "content": [{"type": "text", "text": ""}], "is_error": false, "exit_code": 0}}),
    ];
    // Written out of order, pretty-printed, as the SDK persists them.
    for (i, e) in events.iter().enumerate().rev() {
        let name = format!("event-{i:05}-{}.json", ["b", "a", "c"][i]);
        fs::write(dir.join(name), serde_json::to_vec_pretty(e).expect("json")).expect("write");
    }
    let o = refscore_in(&tmp.0, &["trajectory", "events", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    check_keys(&v);
    assert_eq!(v["format"], "openhands-v1");
    assert_eq!(v["steps"].as_array().map(Vec::len), Some(2));
    let edit = &v["steps"][1]["edit"];
    assert_eq!(
        (edit["path"].as_str(), edit["kind"].as_str(), edit["status"].as_str()),
        (Some("old.py"), Some("delete"), Some("applied"))
    );
}

/// `refscore trajectory` reads its file as every command does (`fsread`): a FIFO is refused by
/// type (exit 2) instead of blocking, and an event file in an events folder is read the same way.
#[cfg(unix)]
#[test]
fn special_files_are_refused_not_opened() {
    let tmp = Temp::new("traj-fifo");
    let made = std::process::Command::new("mkfifo").arg(tmp.0.join("pipe.traj")).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    let o = refscore_in(&tmp.0, &["trajectory", "pipe.traj"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("is a FIFO (named pipe), not a file; refused"),
        "{}",
        text(&o.stderr)
    );
    let dir = tmp.0.join("events");
    fs::create_dir_all(&dir).expect("mkdir");
    let made = std::process::Command::new("mkfifo").arg(dir.join("event-00001-x.json")).status();
    assert!(made.is_ok_and(|s| s.success()));
    let o = refscore_in(&tmp.0, &["trajectory", "events"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("event-00001-x.json: left out: a FIFO (named pipe)"), "{err}");
    assert!(err.contains("a folder without .json event files"), "{err}");
}
