//! `refscore report` on reports scored from the demo bundle: the summary (with and without the
//! bundle), CSV, comparisons, and unreadable reports.

use crate::common;

use std::fs;
use std::path::PathBuf;

use common::{bundle, bundle_hash, demo, redact, refscore_in, text, Temp};

fn b() -> String {
    bundle("report").to_str().expect("utf-8").to_string()
}

/// Scores `inputs` (relative to the demo checkout) into `<tmp>/<name>`.
fn score(tmp: &Temp, name: &str, inputs: &[&str]) -> PathBuf {
    let out = tmp.0.join(name);
    let mut args = vec!["score", "--tasks", &b_static(), "--predictions"];
    args.extend_from_slice(inputs);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let o = refscore_in(&demo(), &args);
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", text(&o.stderr));
    out
}

fn b_static() -> &'static str {
    static B: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    B.get_or_init(b)
}

/// Runs `refscore report` with the reports copied into `tmp` under short names (stable output).
fn report(tmp: &Temp, args: &[&str]) -> (i32, String, String) {
    let o = refscore_in(&tmp.0, args);
    (o.status.code().unwrap_or(-1), text(&o.stdout), text(&o.stderr))
}

#[test]
fn summary_with_and_without_the_bundle_and_csv() {
    let tmp = Temp::new("summary");
    score(&tmp, "all.json", &["submissions"]);
    let (code, with, err) = report(&tmp, &["report", "all.json", "--tasks", b_static()]);
    assert_eq!(code, 0, "{err}");
    let hash = bundle_hash(&bundle("report"));
    let with = redact(&with, &hash);
    assert!(with.contains("ledgerly_refactor"), "{with}");
    insta::assert_snapshot!("summary_with_tasks", with);
    let (code, without, _) = report(&tmp, &["report", "all.json"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("summary_without_tasks", redact(&without, &hash));
    let (code, csv, _) = report(&tmp, &["report", "all.json", "--csv", "--tasks", b_static()]);
    assert_eq!(code, 0);
    assert!(csv.starts_with("instance_id,repo,model_name_or_path,"));
    assert_eq!(csv.lines().count(), 22);
    insta::assert_snapshot!("results_csv", csv);
}

#[test]
fn instruction_sets_from_folder_names() {
    let tmp = Temp::new("sets");
    for set in ["lazy", "descriptive"] {
        fs::create_dir_all(tmp.0.join(set)).unwrap();
        fs::copy(demo().join("submissions/predictions.jsonl"), tmp.0.join(set).join("preds.jsonl"))
            .unwrap();
    }
    let o = refscore_in(
        &tmp.0,
        &[
            "score",
            "--tasks",
            b_static(),
            "--predictions",
            "lazy",
            "descriptive",
            "--out",
            "sets.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let (code, out, _) = report(&tmp, &["report", "sets.json"]);
    assert_eq!(code, 0);
    assert!(out.contains("by instruction set"), "{out}");
    let section: Vec<&str> =
        out.lines().skip_while(|l| *l != "by instruction set").take(4).collect();
    insta::assert_snapshot!("by_instruction_set", section.join("\n"));
}

#[test]
fn compare_two_runs() {
    let tmp = Temp::new("compare");
    score(&tmp, "a.json", &["submissions/predictions.jsonl"]);
    score(&tmp, "b.json", &["submissions/predictions.json"]);
    let (code, out, err) = report(&tmp, &["report", "a.json", "--compare", "b.json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("matched  by instance and instruction set"), "{out}");
    assert!(out.contains("lost    rename-parse-amount"), "{out}");
    assert!(out.contains("gained  split-storage-loaders"), "{out}");
    insta::assert_snapshot!("compare_text", out);
    let (code, csv, _) = report(&tmp, &["report", "a.json", "--compare", "b.json", "--csv"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("compare_csv", csv);
    // A run compared with itself has no changes.
    let (_, same, _) = report(&tmp, &["report", "a.json", "--compare", "a.json"]);
    assert!(same.contains("(0 gained, 0 lost)") && !same.contains("subtest changes"), "{same}");
}

#[test]
fn unreadable_reports_exit_2_naming_the_file() {
    let tmp = Temp::new("bad");
    fs::write(tmp.0.join("junk.json"), "{\"schema_version\": 1,").unwrap();
    fs::write(tmp.0.join("future.json"), "{\"schema_version\": 7}").unwrap();
    let (code, out, err) = report(&tmp, &["report", "junk.json"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("junk.json: not a refscore report"), "{err}");
    let (code, _, err) = report(&tmp, &["report", "future.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("future.json: report schema_version 7 is not supported"), "{err}");
    let (code, _, err) = report(&tmp, &["report", "missing.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.json: cannot read"), "{err}");
    score(&tmp, "a.json", &["submissions/predictions.jsonl"]);
    let (code, _, err) = report(&tmp, &["report", "a.json", "--compare", "junk.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("junk.json"), "{err}");
    let (code, _, _) = report(&tmp, &["report"]);
    assert_eq!(code, 2);
}

/// The demo agent run (tasks/demo/trajectories: our own logs) scored with `score --predictions`,
/// then `report --trajectories` with the bundle: every rate as n / d under its definition id, by
/// instruction set and repository; a broken log is listed with its step or line and does not stop
/// the others. Text and JSON pinned by snapshots.
#[test]
fn failure_modes_of_the_demo_run() {
    let tmp = Temp::new("fm");
    // The solving log's submission is the demo's solve patch, byte for byte.
    let solve: serde_json::Value = serde_json::from_slice(
        &fs::read(demo().join("trajectories/move-strip-html-to-sanitize.traj.json")).expect("log"),
    )
    .expect("json");
    assert_eq!(
        solve["info"]["submission"].as_str(),
        Some(
            fs::read_to_string(demo().join("submissions/move-strip-html-to-sanitize.solve.patch"))
                .expect("patch")
                .as_str()
        )
    );
    score(&tmp, "run.json", &["trajectories"]);
    let run = tmp.0.join("run");
    fs::create_dir_all(&run).expect("run dir");
    for e in fs::read_dir(demo().join("trajectories")).expect("demo trajectories") {
        let p = e.expect("entry").path();
        fs::copy(&p, run.join(p.file_name().expect("name"))).expect("copy");
    }
    // A SWE-agent log with a wrong type at step 1, and a cut-off file.
    fs::write(
        run.join("broken.traj"),
        r#"{"environment": "swe_main", "info": {"exit_status": "submitted"}, "history": [],
            "trajectory": [{"action": "ls\n", "observation": "", "state": "{}", "thought": ""},
                           {"action": 7, "observation": "", "state": "{}", "thought": ""}]}"#,
    )
    .expect("write");
    fs::write(
        run.join("cut.traj.json"),
        "{\n  \"trajectory_format\": \"mini-swe-agent-1.1\",\n  \"messages\": [\n",
    )
    .expect("write");
    fs::write(run.join("notes.txt"), "not a log").expect("write");
    let hash = bundle_hash(&bundle("report"));
    let (code, out, err) =
        report(&tmp, &["report", "run.json", "--trajectories", "run", "--tasks", b_static()]);
    assert_eq!(code, 0, "{err}");
    let out = redact(&out, &hash);
    assert!(
        out.contains("trajectories: 4 read, 4 paired with results of run.json, 2 not read"),
        "{out}"
    );
    assert!(out.contains("not read: run/broken.traj: step 1: `action` must be"), "{out}");
    assert!(out.contains("not read: run/cut.traj.json: "), "{out}");
    assert!(out.contains("invalid JSON: EOF while parsing a list at line 4 column 0"), "{out}");
    assert!(!out.contains("notes.txt"), "{out}");
    for want in [
        "[move-strip-html-to-sanitize] resolved set=descriptive exit=submitted primary=-",
        "[rename-feed-item-to-entry] unresolved set=lazy exit=submitted primary=untouched_target",
        "[rename-parse-amount] unresolved set=base exit=auto_submitted_after_limit primary=limit",
        "loop/same_failed_edit_reissued @4,5",
        "resolved                                     1/4 (25.0%)",
        "rename-feed-item-to-entry: location guidance gap lazy - descriptive +50.0 points",
        "instruction set lazy: 1 trajectories",
        "repository tinyfeed_refactor: 3 trajectories",
    ] {
        assert!(out.contains(want), "missing {want:?} in\n{out}");
    }
    // FM-8's run-wide gap is one agent's (looper-1: lazy and descriptive on one task); the base
    // log is another agent's, so no base gap (pooled, it compared two agents).
    assert!(
        out.contains("fm8.location_guidance_gap agent demo/looper-1, lazy - descriptive over 1 task(s): fm1 4/4 (100.0%) - 1/2 (50.0%) = +50.0 points"),
        "{out}"
    );
    assert!(!out.contains("base - descriptive"), "{out}");
    insta::assert_snapshot!("failure_modes_text", out);
    let (code, json, err) = report(
        &tmp,
        &["report", "run.json", "--trajectories", "run", "--tasks", b_static(), "--json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["trajectories"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(2));
    insta::assert_snapshot!("failure_modes_json", redact(&json, &hash));
    // Without the bundle there are no pristine verdicts: FM-1 says why instead of 0.
    let (code, out, _) = report(&tmp, &["report", "run.json", "--trajectories", "run"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "fm1.untouched_of_failing_change_checking     not computable: no change-checking test"
        ),
        "{out}"
    );
}
