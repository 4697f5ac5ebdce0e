//! `refscore score` on the demo bundle: every input shape, mixed good and bad entries, every
//! exit code, and verdicts equal to CPython's (`tasks/demo/expected-verdicts.json`).

use crate::common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{bundle, bundle_hash, demo, redact, refscore_in, text, Temp};
use serde_json::{json, Value};

fn b() -> String {
    bundle("score").to_str().expect("utf-8").to_string()
}

fn expected() -> Vec<Value> {
    let v: Value =
        serde_json::from_slice(&fs::read(demo().join("expected-verdicts.json")).unwrap()).unwrap();
    v["results"].as_array().unwrap().clone()
}

/// The fields CPython's reference records per method, from one of our results.
fn verdict(r: &Value) -> Value {
    let tests: Vec<Value> = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!({"id": t["id"], "status": t["status"], "exc_type": t.get("exc_type").unwrap_or(&Value::Null),
                   "message": t.get("message").unwrap_or(&Value::Null), "line": t.get("line").unwrap_or(&Value::Null)})
        })
        .collect();
    json!({"patch_status": r["patch_status"], "resolved": r["resolved"], "tests": tests})
}

fn expected_verdict(e: &Value) -> Value {
    let tests: Vec<Value> = e["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!({"id": t["id"], "status": t["status"], "exc_type": t["exc_type"],
                   "message": t["message"], "line": t["line"]})
        })
        .collect();
    json!({"patch_status": e["patch_status"], "resolved": e["resolved"], "tests": tests})
}

fn report_at(p: &Path) -> Value {
    serde_json::from_slice(&fs::read(p).expect("report written")).expect("report json")
}

/// `refscore score --task TASK --patch PATCH` on the demo bundle, run in `tasks/demo`.
fn score_patch(task: &str, patch: &str, extra: &[&str]) -> Output {
    let bundle = b();
    let mut args = vec!["score", "--tasks", &bundle, "--task", task, "--patch", patch];
    args.extend_from_slice(extra);
    refscore_in(&demo(), &args)
}

#[test]
fn predictions_in_every_shape_give_cpythons_verdicts() {
    let out = Temp::new("shapes");
    let report_path = out.0.join("run.json");
    let o = refscore_in(
        &demo(),
        &[
            "score",
            "--tasks",
            &b(),
            "--predictions",
            "submissions/predictions.jsonl",
            "submissions/predictions.json",
            "submissions/predictions-by-id.json",
            "submissions/trajectories",
            "--out",
            report_path.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report = report_at(&report_path);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 21);
    assert!(report["errors"].as_array().unwrap().is_empty());

    let mut checked = 0;
    for e in expected().iter().filter(|e| e["kind"] == "prediction") {
        let file = e["submission"].as_str().unwrap().split('#').next().unwrap();
        let ours: Vec<&Value> = results
            .iter()
            .filter(|r| {
                r["source"]["file"] == file
                    && r["instance_id"] == e["task"]
                    && r["model_name_or_path"] == e["model_name_or_path"]
            })
            .collect();
        assert_eq!(ours.len(), 1, "{}", e["submission"]);
        assert_eq!(verdict(ours[0]), expected_verdict(e), "{}", e["submission"]);
        checked += 1;
    }
    assert_eq!(checked, 18);

    let hash = bundle_hash(&bundle("score"));
    insta::assert_snapshot!(
        "score_all_shapes_report",
        redact(&text(&fs::read(&report_path).unwrap()), &hash)
    );
    insta::assert_snapshot!("score_all_shapes_table", text(&o.stdout));
}

#[test]
fn single_patches_and_the_empty_patch_give_cpythons_verdicts() {
    let tmp = Temp::new("single");
    let empty = tmp.0.join("empty.patch");
    fs::write(&empty, b"").unwrap();
    let mut checked = 0;
    for e in expected().iter().filter(|e| e["kind"] != "prediction") {
        let task = e["task"].as_str().unwrap();
        let patch = match e["submission"].as_str().unwrap() {
            "empty" => empty.to_str().unwrap().to_string(),
            s => s.to_string(),
        };
        let o = score_patch(task, &patch, &["--json"]);
        assert_eq!(o.status.code(), Some(0), "{task} {patch}: {}", text(&o.stderr));
        let report: Value = serde_json::from_slice(&o.stdout).expect("--json prints the report");
        let r = &report["results"][0];
        assert_eq!(verdict(r), expected_verdict(e), "{task} {patch}");
        checked += 1;
    }
    assert_eq!(checked, 27);
}

#[test]
fn a_patch_that_is_not_utf8_is_applied_as_bytes() {
    let tmp = Temp::new("latin1");
    let mut patch = fs::read(demo().join("submissions/rename-parse-amount.solve.patch")).unwrap();
    // A new docs file in latin-1 (0xE4 is "ä"): not UTF-8, and `git apply` takes it.
    patch.extend_from_slice(
        b"diff --git a/docs/notes-de.txt b/docs/notes-de.txt\nnew file mode 100644\n--- /dev/null\n+++ b/docs/notes-de.txt\n@@ -0,0 +1,2 @@\n+K\xe4se\n+Gr\xfc\xdfe\n",
    );
    assert!(std::str::from_utf8(&patch).is_err());
    let path = tmp.0.join("rename-parse-amount.latin1.patch");
    fs::write(&path, &patch).unwrap();
    let o = score_patch("rename-parse-amount", path.to_str().unwrap(), &["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).expect("--json prints the report");
    let r = &report["results"][0];
    assert_eq!(
        (r["patch_status"].as_str(), r["resolved"].as_bool()),
        (Some("applied"), Some(true))
    );
    let files: Vec<&str> =
        r["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(files.contains(&"docs/notes-de.txt"), "{files:?}");
}

#[test]
fn a_truncated_patch_in_predictions_is_a_failed_task_not_an_error() {
    let tmp = Temp::new("truncated");
    let solve =
        fs::read_to_string(demo().join("submissions/rename-parse-amount.solve.patch")).unwrap();
    // An agent's patch cut off in the middle of a hunk.
    let cut = &solve[..solve.len() - 40];
    let lines = [
        json!({"instance_id": "rename-parse-amount", "model_name_or_path": "m", "model_patch": solve}),
        json!({"instance_id": "rename-parse-amount", "model_name_or_path": "m2", "model_patch": cut}),
    ];
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    fs::write(tmp.0.join("preds.jsonl"), body).unwrap();
    let o = refscore_in(
        &tmp.0,
        &["score", "--tasks", &b(), "--predictions", "preds.jsonl", "--out", "r.json"],
    );
    // Every entry was scored: exit 0 (1 is only for entries in `errors`).
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report = report_at(&tmp.0.join("r.json"));
    assert_eq!(report["schema_version"], 2);
    assert!(report["errors"].as_array().unwrap().is_empty());
    let failed = &report["results"][1];
    assert_eq!(failed["patch_status"], "failed");
    // What `git apply` says of this cut, after "error: ".
    assert_eq!(failed["patch_error"], "corrupt patch at line 256", "{failed}");
    assert_eq!(failed["resolved"], false);
    assert_eq!(failed["subtests_passed"], 0);
    let total = report["results"][0]["subtests_total"].clone();
    assert!(total.as_u64().unwrap() > 0);
    assert_eq!(failed["subtests_total"], total, "zero of the task's methods passed");
    let s = &report["summary"];
    assert_eq!(
        (s["submitted_instances"].as_u64(), s["completed_instances"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(
        (s["resolved_instances"].as_u64(), s["unresolved_instances"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(s["patch_failed_ids"], json!(["rename-parse-amount"]));
    assert_eq!(s["error_ids"], json!([]));
    // The text table counts it: one resolved of two.
    let table = text(&o.stdout);
    assert!(table.contains("50.0%"), "{table}");
}

#[test]
fn single_patch_table() {
    let o = score_patch(
        "stock-ledger-class",
        "submissions/stock-ledger-class.does-not-apply.patch",
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    insta::assert_snapshot!("single_failed_patch_table", text(&o.stdout));
    let o =
        score_patch("rename-parse-amount", "submissions/rename-parse-amount.partial.patch", &[]);
    insta::assert_snapshot!("single_partial_patch_table", text(&o.stdout));
}

#[test]
fn mixed_good_and_bad_entries_are_scored_and_recorded() {
    let tmp = Temp::new("mixed");
    let good: Vec<String> = fs::read_to_string(demo().join("submissions/predictions.jsonl"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let corrupt = json!({"instance_id": "move-format-table", "model_name_or_path": "m",
        "model_patch": "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\nnonsense\n"});
    let lines = [
        good[0].clone(),
        "{\"instance_id\": \"rename-parse-amount\", \"model_patch\": ".to_string(),
        json!({"instance_id": "move-format-table", "model_name_or_path": "m"}).to_string(),
        json!({"instance_id": "no-such-task", "model_name_or_path": "m", "model_patch": ""})
            .to_string(),
        corrupt.to_string(),
        json!({"instance_id": "move-format-table", "model_name_or_path": "m", "model_patch": null})
            .to_string(),
    ];
    fs::write(tmp.0.join("mixed.jsonl"), lines.join("\n") + "\n").unwrap();
    fs::write(tmp.0.join("broken.json"), "[{\"instance_id\": \"x\",\n").unwrap();
    let dict = json!({"move-format-table": {"model_patch": ""}, "extract-normalize-sku": {"model_patch": 5}});
    fs::write(tmp.0.join("dict.json"), serde_json::to_string_pretty(&dict).unwrap()).unwrap();

    let o = refscore_in(
        &tmp.0,
        &[
            "score",
            "--tasks",
            &b(),
            "--predictions",
            "mixed.jsonl",
            "broken.json",
            "dict.json",
            "--out",
            "r.json",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let report = report_at(&tmp.0.join("r.json"));
    let results: Vec<(&str, &str)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["instance_id"].as_str().unwrap(), r["patch_status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        results,
        vec![
            ("rename-parse-amount", "applied"),
            ("move-format-table", "failed"),
            ("move-format-table", "none"),
            ("move-format-table", "none")
        ]
    );
    let errors: Vec<String> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}:{} {}",
                e["source"]["file"].as_str().unwrap(),
                e["source"]["line"],
                e["message"].as_str().unwrap()
            )
        })
        .collect();
    insta::assert_debug_snapshot!("mixed_errors", errors);
    // Every entry error is also on stderr, naming file and line.
    let stderr = text(&o.stderr);
    assert!(stderr.contains("mixed.jsonl:2: invalid JSON line"), "{stderr}");
    assert!(stderr.contains("mixed.jsonl:4: unknown instance id \"no-such-task\""), "{stderr}");
    // A patch git cannot parse is scored as failed, not an entry error.
    assert!(!stderr.contains("mixed.jsonl:5:"), "{stderr}");
    let failed = &report["results"][1];
    assert_eq!(failed["source"]["line"], 5);
    assert_eq!(failed["patch_error"], "corrupt patch at line 5");
    assert!(stderr.contains("broken.json:2: invalid JSON"), "{stderr}");
    assert_eq!(
        report["summary"]["error_ids"],
        json!(["extract-normalize-sku", "move-format-table", "no-such-task"])
    );
    let hash = bundle_hash(&bundle("score"));
    insta::assert_snapshot!(
        "mixed_report",
        redact(&text(&fs::read(tmp.0.join("r.json")).unwrap()), &hash)
    );
}

#[test]
fn folders_expand_to_their_submission_files_in_path_order() {
    let o = refscore_in(
        &demo(),
        &["score", "--tasks", &b(), "--predictions", "submissions/", "--json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut files: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["source"]["file"].as_str().unwrap())
        .collect();
    files.dedup();
    assert_eq!(
        files,
        vec![
            "submissions/predictions-by-id.json",
            "submissions/predictions.json",
            "submissions/predictions.jsonl",
            "submissions/trajectories/add-log-parameter-post-entry.traj",
            "submissions/trajectories/extract-normalize-sku.traj",
            "submissions/trajectories/stock-ledger-class.traj",
        ]
    );
}

#[test]
fn reports_are_byte_identical_whatever_the_thread_count() {
    let run = |jobs: &str| {
        let o = refscore_in(
            &demo(),
            &["score", "--tasks", &b(), "--predictions", "submissions", "--json", "--jobs", jobs],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        o.stdout
    };
    let one = run("1");
    assert_eq!(one, run("3"));
    assert_eq!(one, run("0"));
}

fn assert_usage_error(cwd: &Path, args: &[&str], needle: &str) {
    let o = refscore_in(cwd, args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
    assert!(text(&o.stderr).contains(needle), "{args:?}: {}", text(&o.stderr));
    assert!(o.stdout.is_empty(), "{args:?}");
}

#[test]
fn unreadable_input_and_usage_errors_exit_2_naming_the_file() {
    let d = demo();
    let tmp = Temp::new("exit2");
    assert_usage_error(
        &d,
        &["score", "--tasks", "no/such/bundle", "--predictions", "submissions"],
        "no/such/bundle: not a folder",
    );
    assert_usage_error(
        &d,
        &["score", "--tasks", &b(), "--predictions", "missing.jsonl"],
        "missing.jsonl: cannot read",
    );
    assert_usage_error(
        &d,
        &[
            "score",
            "--tasks",
            &b(),
            "--task",
            "no-such-task",
            "--patch",
            "submissions/rename-parse-amount.solve.patch",
        ],
        "--task no-such-task: not a task of the bundle",
    );
    assert_usage_error(
        &d,
        &["score", "--tasks", &b(), "--task", "rename-parse-amount", "--patch", "none.patch"],
        "none.patch: cannot read the patch",
    );
    assert_usage_error(
        &d,
        &["score", "--tasks", &b()],
        "give --task ID --patch FILE, or --predictions",
    );
    assert_usage_error(&d, &["score", "--tasks", &b(), "--task", "x"], "--patch");
    fs::create_dir_all(tmp.0.join("empty")).unwrap();
    assert_usage_error(
        &tmp.0,
        &["score", "--tasks", &b(), "--predictions", "empty"],
        "empty: the folder holds no",
    );

    // A bundle as the site serves it: `.gz`/`.br` siblings beside its files are not bundle
    // files; a stray `.gz` without its file, or one beside a folder, still is.
    let copy = tmp.0.join("bundle");
    copy_dir(&bundle("score"), &copy);
    let task = fs::read_dir(copy.join("tasks")).unwrap().next().unwrap().unwrap().path();
    let name = task.file_name().unwrap().to_str().unwrap().to_string();
    fs::write(copy.join("tasks").join(format!("{name}.gz")), b"not even gzip").unwrap();
    fs::write(copy.join("tasks").join(format!("{name}.br")), b"").unwrap();
    let served = refscore_in(
        &d,
        &["score", "--tasks", copy.to_str().unwrap(), "--predictions", "submissions"],
    );
    assert!(matches!(served.status.code(), Some(0 | 1)), "{}", text(&served.stderr));
    assert!(!text(&served.stderr).contains("bundle hash mismatch"), "{}", text(&served.stderr));
    fs::write(copy.join("tasks").join("gone.json.gz"), b"x").unwrap();
    assert_usage_error(
        &d,
        &["score", "--tasks", copy.to_str().unwrap(), "--predictions", "submissions"],
        "bundle hash mismatch",
    );
    fs::remove_file(copy.join("tasks").join("gone.json.gz")).unwrap();
    fs::create_dir(copy.join("tasks").join("sub")).unwrap();
    fs::write(copy.join("tasks").join("sub.br"), b"x").unwrap();
    assert_usage_error(
        &d,
        &["score", "--tasks", copy.to_str().unwrap(), "--predictions", "submissions"],
        "bundle hash mismatch",
    );
    fs::remove_file(copy.join("tasks").join("sub.br")).unwrap();
    fs::remove_dir(copy.join("tasks").join("sub")).unwrap();

    // A task pack whose bytes for a task are not that task file's (the hash recomputed, so
    // only the pack check can tell): the browser would read another task than the CLI.
    let odd = tmp.0.join("odd-pack");
    copy_dir(&bundle("score"), &odd);
    let text = fs::read_to_string(odd.join("index.json")).unwrap();
    let index = scorer::bundle::BundleIndex::from_json(&text).unwrap();
    let pack = index.task_pack.expect("the importer writes a task pack");
    let mut bytes = fs::read(odd.join(&pack.file)).unwrap();
    let at = bytes.iter().position(|&b| b == b'"').unwrap();
    bytes[at] = b' ';
    fs::write(odd.join(&pack.file), &bytes).unwrap();
    rehash_index(&odd, |_| {});
    assert_usage_error(
        &d,
        &["score", "--tasks", odd.to_str().unwrap(), "--predictions", "submissions"],
        "are not that file's bytes",
    );

    // A bundle whose files do not hash to its index's hash.
    let blob = fs::read_dir(copy.join("blobs")).unwrap().next().unwrap().unwrap().path();
    let mut bytes = fs::read(&blob).unwrap();
    bytes.push(b'\n');
    fs::write(&blob, bytes).unwrap();
    assert_usage_error(
        &d,
        &["score", "--tasks", copy.to_str().unwrap(), "--predictions", "submissions"],
        "bundle hash mismatch",
    );
    fs::write(copy.join("index.json"), "{").unwrap();
    assert_usage_error(
        &d,
        &["score", "--tasks", copy.to_str().unwrap(), "--predictions", "submissions"],
        "not a bundle index",
    );
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Scoring the same predictions twice: each second copy whose patch applies (7 of the 8 entries;
/// one patch fails) is answered from the first copy's run, on one thread or two (a task's
/// submissions stay on one thread), and `score` says so on stderr.
#[test]
fn repeated_submissions_reuse_runs_and_say_so() {
    let file = "submissions/predictions.jsonl";
    for jobs in ["1", "2"] {
        let o = refscore_in(
            &demo(),
            &["score", "--tasks", &b(), "--predictions", file, file, "--jobs", jobs],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(
                "16 submissions scored; 7 test runs answered from an identical earlier run"
            ),
            "--jobs {jobs}: {}",
            text(&o.stderr)
        );
    }
    let o = refscore_in(&demo(), &["score", "--tasks", &b(), "--predictions", file]);
    assert!(
        text(&o.stderr).contains("8 submissions scored; 0 test runs answered"),
        "{}",
        text(&o.stderr)
    );
}

/// Two submissions of one task, the second editing only a file one test method reads: the
/// other seven methods (isolated, their files unchanged) are answered from the first run, `score`
/// says so, and the verdicts are those of scoring the second submission alone.
#[test]
fn methods_whose_files_are_unchanged_are_answered_from_the_first_run() {
    let tmp = Temp::new("methods");
    let partial =
        fs::read_to_string(demo().join("submissions/add-log-parameter-post-entry.partial.patch"))
            .unwrap();
    // The partial patch's first file: ledgerly/importers/bank.py.
    let bank: String = partial.split_inclusive('\n').take(13).collect();
    assert!(bank.starts_with("diff --git a/ledgerly/importers/bank.py"), "{bank}");
    let entry = |model: &str, patch: &str| {
        json!({"instance_id": "add-log-parameter-post-entry", "model_name_or_path": model,
               "model_patch": patch})
        .to_string()
    };
    let both = tmp.0.join("both.jsonl");
    fs::write(&both, format!("{}\n{}\n", entry("none", ""), entry("bank", &bank))).unwrap();
    let alone = tmp.0.join("alone.jsonl");
    fs::write(&alone, format!("{}\n", entry("bank", &bank))).unwrap();
    let score = |input: &Path, out: &str| {
        let o = refscore_in(
            &demo(),
            &["score", "--tasks", &b(), "--predictions", input.to_str().unwrap(), "--out", out],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        o
    };
    let (both_out, alone_out) = (tmp.0.join("both.json"), tmp.0.join("alone.json"));
    let o = score(&both, both_out.to_str().unwrap());
    assert!(
        text(&o.stderr).contains("0 test runs answered from an identical earlier run")
            && text(&o.stderr).contains("7 test methods answered from an earlier run"),
        "{}",
        text(&o.stderr)
    );
    let o = score(&alone, alone_out.to_str().unwrap());
    assert!(text(&o.stderr).contains("0 test methods answered"), "{}", text(&o.stderr));
    let (both, alone) = (report_at(&both_out), report_at(&alone_out));
    assert_eq!(both["results"][1]["patch_status"], "applied");
    assert_eq!(verdict(&both["results"][1]), verdict(&alone["results"][0]));
}

/// A SWE-agent run folder handed in whole: `preds.json` and `<id>/<id>.traj` hold the same
/// submissions. The trajectory copies are left out (and counted on stderr); a trajectory whose
/// patch differs from its `preds.json` entry is still scored.
#[test]
fn a_run_folder_s_trajectory_copies_are_scored_once() {
    let tmp = Temp::new("runfolder");
    let run = tmp.0.join("run");
    let traj = |id: &str, patch: &str| {
        fs::create_dir_all(run.join(id)).unwrap();
        let t = json!({"trajectory": [], "history": [], "info": {"exit_status": "submitted", "submission": patch}});
        fs::write(run.join(id).join(format!("{id}.traj")), t.to_string()).unwrap();
    };
    let preds = json!({
        "rename-parse-amount": {"instance_id": "rename-parse-amount", "model_name_or_path": "agent", "model_patch": ""},
        "move-format-table": {"instance_id": "move-format-table", "model_name_or_path": "agent", "model_patch": ""},
    });
    fs::create_dir_all(&run).unwrap();
    fs::write(run.join("preds.json"), serde_json::to_string_pretty(&preds).unwrap()).unwrap();
    traj("rename-parse-amount", "");
    traj("move-format-table", "not a patch");
    let report = tmp.0.join("r.json");
    let o = refscore_in(
        &tmp.0,
        &["score", "--tasks", &b(), "--predictions", "run", "--out", report.to_str().unwrap()],
    );
    let stderr = text(&o.stderr);
    assert!(stderr.contains("1 trajectory submissions left out"), "{stderr}");
    let r = report_at(&report);
    let rows: Vec<(&str, &str, &str)> = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["instance_id"].as_str().unwrap(),
                x["source"]["file"].as_str().unwrap(),
                x["patch_status"].as_str().unwrap(),
            )
        })
        .collect();
    // Files in path order; the differing trajectory is scored (its patch does not apply).
    assert_eq!(
        rows,
        [
            ("move-format-table", "run/move-format-table/move-format-table.traj", "failed"),
            ("move-format-table", "run/preds.json", "none"),
            ("rename-parse-amount", "run/preds.json", "none"),
        ]
    );
}

/// A predictions file with `n` distinct entries (the solving patch of one task under `n` model
/// names), large enough that scoring it takes a while.
fn many_predictions(dir: &Path, n: usize) -> std::path::PathBuf {
    let solve =
        fs::read_to_string(demo().join("submissions/rename-parse-amount.solve.patch")).unwrap();
    let body: String = (0..n)
        .map(|i| {
            let l = json!({"instance_id": "rename-parse-amount", "model_name_or_path": format!("m{i}"),
                           "model_patch": solve});
            format!("{l}\n")
        })
        .collect();
    let p = dir.join("preds.jsonl");
    fs::write(&p, body).unwrap();
    p
}

fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".refscore-"))
        .collect()
}

#[test]
fn out_targets_that_cannot_be_written_are_refused_before_scoring() {
    let tmp = Temp::new("out-check");
    many_predictions(&tmp.0, 2);
    let before = fs::read(tmp.0.join("preds.jsonl")).unwrap();
    fs::create_dir(tmp.0.join("folder")).unwrap();
    for (out, needle) in [
        ("folder", "is a folder"),
        ("preds.jsonl", "is one of the inputs"),
        ("preds.jsonl/r.json", "is not a folder"),
    ] {
        let o = refscore_in(
            &tmp.0,
            &["score", "--tasks", &b(), "--predictions", "preds.jsonl", "--out", out],
        );
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{out}: {err}");
        assert!(err.contains(needle), "{out}: {err}");
        assert!(!err.contains("submissions scored"), "refused before any scoring: {err}");
    }
    assert_eq!(fs::read(tmp.0.join("preds.jsonl")).unwrap(), before, "the input is untouched");
    // `report --out` and `import --out` check theirs too.
    let o = refscore_in(&tmp.0, &["report", "preds.jsonl", "--out", "preds.jsonl"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("is one of the inputs"), "{}", text(&o.stderr));
    let demo_dir = demo();
    let o = refscore_in(
        &tmp.0,
        &["import", "--from", demo_dir.to_str().unwrap(), "--out", "preds.jsonl"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("not a folder"), "{}", text(&o.stderr));
}

/// Runs `refscore` under a shell with a file-size limit of 512 or 1024 bytes (the shell's unit) and
/// SIGXFSZ ignored, so a write past it fails with EFBIG as a full disk would fail it.
fn refscore_with_file_limit(cwd: &Path, args: &[&str]) -> Option<Output> {
    let sh = std::process::Command::new("sh")
        .current_dir(cwd)
        .arg("-c")
        .arg("ulimit -f 1 && trap '' XFSZ && exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_refscore"))
        .args(args)
        .output();
    match sh {
        Ok(o) => Some(o),
        Err(e) => {
            eprintln!("skipped: no sh to set a file-size limit ({e})");
            None
        }
    }
}

#[test]
fn a_report_that_cannot_be_written_leaves_the_previous_one_and_is_printed() {
    let tmp = Temp::new("out-full");
    many_predictions(&tmp.0, 3);
    fs::write(tmp.0.join("r.json"), b"previous").unwrap();
    let Some(o) = refscore_with_file_limit(
        &tmp.0,
        &["score", "--tasks", &b(), "--predictions", "preds.jsonl", "--out", "r.json"],
    ) else {
        return;
    };
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("printed to stdout instead"), "{err}");
    assert_eq!(fs::read(tmp.0.join("r.json")).unwrap(), b"previous");
    assert!(leftovers(&tmp.0).is_empty(), "{:?}", leftovers(&tmp.0));
    // The scores are on stdout, as the report would have been.
    let report: Value = serde_json::from_slice(&o.stdout).expect("the report on stdout");
    assert_eq!(report["results"].as_array().unwrap().len(), 3);
}

#[test]
fn an_import_that_cannot_be_written_leaves_the_previous_bundle() {
    let tmp = Temp::new("import-full");
    let out = tmp.0.join("bundle");
    let demo_dir = demo();
    let first =
        refscore_in(&tmp.0, &["import", "--from", demo_dir.to_str().unwrap(), "--out", "bundle"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    fs::write(out.join("NOTES.md"), b"kept").unwrap();
    let index = fs::read(out.join("index.json")).unwrap();
    let Some(o) = refscore_with_file_limit(
        &tmp.0,
        &["import", "--from", demo_dir.to_str().unwrap(), "--out", "bundle"],
    ) else {
        return;
    };
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("left as it was"), "{}", text(&o.stderr));
    assert_eq!(fs::read(out.join("index.json")).unwrap(), index);
    assert!(leftovers(&tmp.0).is_empty(), "{:?}", leftovers(&tmp.0));
    // A second import without a limit replaces the bundle and keeps the user's file.
    let again =
        refscore_in(&tmp.0, &["import", "--from", demo_dir.to_str().unwrap(), "--out", "bundle"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(fs::read(out.join("NOTES.md")).unwrap(), b"kept");
    assert!(leftovers(&tmp.0).is_empty(), "{:?}", leftovers(&tmp.0));
}

#[test]
fn an_interrupted_run_leaves_the_previous_report_and_says_so() {
    let tmp = Temp::new("sigterm");
    many_predictions(&tmp.0, 4000);
    fs::write(tmp.0.join("r.json"), b"previous").unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_refscore"))
        .current_dir(&tmp.0)
        .args(["score", "--tasks", &b(), "--predictions", "preds.jsonl", "--out", "r.json"])
        .args(["--jobs", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    if child.try_wait().unwrap().is_some() {
        eprintln!("skipped: the run finished before it could be interrupted");
        return;
    }
    let kill = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    if !kill.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no kill command");
        let _ = child.kill();
        return;
    }
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("refscore: interrupted"), "{err}");
    assert_eq!(fs::read(tmp.0.join("r.json")).unwrap(), b"previous");
    assert!(leftovers(&tmp.0).is_empty(), "{:?}", leftovers(&tmp.0));
}

#[test]
fn hostile_names_cannot_break_or_drive_the_output() {
    let tmp = Temp::new("hostile-names");
    let solve =
        fs::read_to_string(demo().join("submissions/rename-parse-amount.solve.patch")).unwrap();
    let lines = [
        json!({"instance_id": "rename-parse-amount", "model_name_or_path": "M".repeat(65_536), "model_patch": solve}),
        json!({"instance_id": "rename-parse-amount", "model_name_or_path": "evil\u{1b}[31mred\rX\n", "model_patch": solve}),
        json!({"instance_id": "=cmd|calc", "model_name_or_path": "=HYPERLINK(1)", "model_patch": solve}),
    ];
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    fs::write(tmp.0.join("p.jsonl"), body).unwrap();
    let o = refscore_in(
        &tmp.0,
        &["score", "--tasks", &b(), "--predictions", "p.jsonl", "--out", "r.json"],
    );
    // Scored (exit 1: the third entry names no task), no panic on the 65,536-character name.
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let table = text(&o.stdout);
    assert!(!table.contains('\u{1b}') && !table.contains('\r'), "{table:?}");
    assert!(table.contains("evil\\u{1b}[31mred\\rX\\n"), "{table}");
    assert!(table.lines().all(|l| l.chars().count() < 600), "long cells are cut");
    assert!(table.contains('…'));
    // The CSV neutralises formula cells.
    let csv = refscore_in(&tmp.0, &["report", "r.json", "--csv"]);
    assert!(csv.status.success(), "{}", text(&csv.stderr));
    let csv = text(&csv.stdout);
    assert!(csv.contains("\n'=cmd|calc,,'=HYPERLINK(1),"), "{csv}");
}

#[test]
fn utf16_and_inconsistent_files_get_plain_messages() {
    let tmp = Temp::new("utf16");
    let utf16: Vec<u8> =
        "\u{feff}{\"instance_id\": \"x\"}\n".encode_utf16().flat_map(u16::to_le_bytes).collect();
    fs::write(tmp.0.join("p.jsonl"), &utf16).unwrap();
    let o = refscore_in(&tmp.0, &["score", "--tasks", &b(), "--predictions", "p.jsonl"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr)
            .contains("p.jsonl: the file is UTF-16 text, which is not supported: save it as UTF-8"),
        "{}",
        text(&o.stderr)
    );
    fs::write(tmp.0.join("r16.json"), &utf16).unwrap();
    let o = refscore_in(&tmp.0, &["report", "r16.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("UTF-16"), "{}", text(&o.stderr));
    // A report whose numbers contradict each other is refused, naming the result.
    let ok = refscore_in(
        &tmp.0,
        &[
            "score",
            "--tasks",
            &b(),
            "--task",
            "rename-parse-amount",
            "--patch",
            "/dev/null",
            "--out",
            "r.json",
        ],
    );
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let mut r: Value = report_at(&tmp.0.join("r.json"));
    r["results"][0]["subtests_passed"] = json!(1000);
    fs::write(tmp.0.join("bad.json"), r.to_string()).unwrap();
    let o = refscore_in(&tmp.0, &["report", "bad.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("bad.json: result 0 (rename-parse-amount) is inconsistent: subtests_passed 1000 > subtests_total"), "{}", text(&o.stderr));
}

/// Copies the demo bundle into `to` (files only).
fn copy_bundle(to: &Path) {
    copy_dir(Path::new(&b()), to);
}

/// Rewrites `dir/index.json` with `edit` applied and a bundle hash that matches again, as an
/// attacker who knows the format would.
fn rehash_index(dir: &Path, edit: impl FnOnce(&mut scorer::bundle::BundleIndex)) {
    let text = fs::read_to_string(dir.join("index.json")).unwrap();
    let mut index = scorer::bundle::BundleIndex::from_json(&text).unwrap();
    edit(&mut index);
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    fn walk(root: &Path, rel: &str, out: &mut Vec<(String, Vec<u8>)>) {
        for e in fs::read_dir(root.join(rel)).unwrap() {
            let e = e.unwrap();
            let child = format!("{rel}/{}", e.file_name().to_string_lossy());
            if e.file_type().unwrap().is_dir() {
                walk(root, &child, out);
            } else {
                out.push((child, fs::read(e.path()).unwrap()));
            }
        }
    }
    for sub in ["tasks", "repos", "blobs", "packs"] {
        if dir.join(sub).is_dir() {
            walk(dir, sub, &mut files);
        }
    }
    let input = index.hash_input();
    index.bundle_hash = scorer::bundle::bundle_hash(
        files
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice()))
            .chain(std::iter::once(("index.json", input.as_slice()))),
    );
    fs::write(dir.join("index.json"), scorer::bundle::canonical_json(&index)).unwrap();
}

#[test]
fn bundles_cannot_lead_outside_their_folder() {
    let tmp = Temp::new("bundle-escape");
    let dir = tmp.0.join("bundle");
    copy_bundle(&dir);
    let task = {
        let text = fs::read_to_string(dir.join("index.json")).unwrap();
        scorer::bundle::BundleIndex::from_json(&text).unwrap().tasks[0].id.clone()
    };
    rehash_index(&dir, |i| i.tasks[0].data = "../../../../../../etc/hostname".into());
    let o = refscore_in(
        &tmp.0,
        &["score", "--tasks", "bundle", "--task", &task, "--patch", "/dev/null"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("a path outside the bundle folder; refused"),
        "{}",
        text(&o.stderr)
    );
    // A link inside the bundle is refused before anything is read through it.
    let dir2 = tmp.0.join("linked");
    copy_bundle(&dir2);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/hostname", dir2.join("blobs/zz-link")).unwrap();
        let o = refscore_in(
            &tmp.0,
            &["score", "--tasks", "linked", "--task", &task, "--patch", "/dev/null"],
        );
        assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("holds only folders and regular files"),
            "{}",
            text(&o.stderr)
        );
    }
}

#[cfg(unix)]
#[test]
fn special_files_in_a_predictions_folder_are_left_out_not_opened() {
    let tmp = Temp::new("fifo");
    let run = tmp.0.join("run");
    fs::create_dir_all(&run).unwrap();
    many_predictions(&run, 1);
    let made = std::process::Command::new("mkfifo").arg(run.join("pipe.jsonl")).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no mkfifo");
        return;
    }
    std::os::unix::fs::symlink(&tmp.0, run.join("loop")).unwrap();
    std::os::unix::fs::symlink(run.join("preds.jsonl"), run.join("again.jsonl")).unwrap();
    // Opening the FIFO would block forever; the run must finish and score the real file once.
    let o = refscore_in(&tmp.0, &["score", "--tasks", &b(), "--predictions", "run", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("pipe.jsonl: left out: a FIFO (named pipe)"), "{err}");
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        report["results"].as_array().unwrap().len(),
        1,
        "the linked copy is not scored twice"
    );
    // Named explicitly, it is refused by type (exit 2), not opened.
    let o = refscore_in(&tmp.0, &["score", "--tasks", &b(), "--predictions", "run/pipe.jsonl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("is a FIFO (named pipe), not a file; refused"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn repeated_entries_are_all_scored_and_each_repeat_is_a_warning() {
    let tmp = Temp::new("dupes");
    let solve =
        fs::read_to_string(demo().join("submissions/rename-parse-amount.solve.patch")).unwrap();
    let lines = [
        json!({"instance_id": "rename-parse-amount", "model_name_or_path": "m", "model_patch": ""}),
        json!({"instance_id": "rename-parse-amount", "model_name_or_path": "other", "model_patch": ""}),
        json!({"instance_id": "rename-parse-amount", "model_name_or_path": "m", "model_patch": solve}),
    ];
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    fs::write(tmp.0.join("p.jsonl"), body).unwrap();
    let o = refscore_in(
        &tmp.0,
        &["score", "--tasks", &b(), "--predictions", "p.jsonl", "--out", "r.json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains(
            "p.jsonl:3: warning: repeats the instance, model m of p.jsonl:1 (both are scored"
        ),
        "{err}"
    );
    let r = report_at(&tmp.0.join("r.json"));
    assert_eq!(r["results"].as_array().unwrap().len(), 3);
    assert_eq!(r["warnings"].as_array().unwrap().len(), 1);
    assert_eq!(r["warnings"][0]["source"], json!({"file": "p.jsonl", "line": 3}));
    // The same file given twice: every entry of the second copy repeats the first's.
    let o = refscore_in(
        &tmp.0,
        &["score", "--tasks", &b(), "--predictions", "p.jsonl", "p.jsonl", "--json"],
    );
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["results"].as_array().unwrap().len(), 6);
    assert_eq!(r["warnings"].as_array().unwrap().len(), 4);
    // A dict with a repeated key: the last value, as json.load, and a warning naming the line.
    let dict = format!(
        "{{\n\"rename-parse-amount\": {},\n\"rename-parse-amount\": {}\n}}\n",
        json!({"model_name_or_path": "d", "model_patch": ""}),
        json!({"model_name_or_path": "d", "model_patch": solve})
    );
    fs::write(tmp.0.join("d.json"), dict).unwrap();
    let o = refscore_in(&tmp.0, &["score", "--tasks", &b(), "--predictions", "d.json", "--json"]);
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["results"].as_array().unwrap().len(), 1);
    assert_eq!(r["results"][0]["resolved"], true);
    assert!(
        text(&o.stderr)
            .contains("d.json:2: warning: key \"rename-parse-amount\" appears again at line 3"),
        "{}",
        text(&o.stderr)
    );
}

/// `refscore touch` (issue 25's speed workload): one patch per task appending a comment naming
/// the task to every `.py` file its test reads. Each patch is applied by `git apply` (when git
/// is present) to the files as the bundle carries them, giving exactly the files plus the line;
/// scored, every method's verdict is the empty patch's (CPython's, from expected-verdicts.json).
#[test]
fn touch_patches_apply_with_git_and_keep_the_empty_patch_verdicts() {
    let tmp = Temp::new("touch");
    let preds = tmp.0.join("touch.jsonl");
    let bundle = b();
    let o = refscore_in(
        &demo(),
        &["touch", "--tasks", &bundle, "--out", preds.to_str().expect("utf-8")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let lines: Vec<Value> = fs::read_to_string(&preds)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let exp = expected();
    let empties: Vec<&Value> = exp.iter().filter(|e| e["kind"] == "empty").collect();
    assert_eq!(lines.len(), empties.len(), "one touch patch per demo task");
    let git = std::process::Command::new("git").arg("--version").output().is_ok();
    if !git {
        eprintln!("git not found: touch patches not checked with git apply");
    }
    for l in &lines {
        let id = l["instance_id"].as_str().unwrap();
        let patch = l["model_patch"].as_str().unwrap();
        let files: Vec<&str> = patch.lines().filter_map(|x| x.strip_prefix("+++ b/")).collect();
        assert!(!files.is_empty(), "{id}: the patch touches no file");
        if !git {
            continue;
        }
        // The files as the demo repository holds them (the bundle carries them byte for byte).
        let repo = Temp::new("touch-git");
        let src = demo().join("repositories").join(task_repo(&bundle, id));
        for f in &files {
            let dst = repo.0.join(f);
            fs::create_dir_all(dst.parent().unwrap()).unwrap();
            fs::copy(src.join(f), &dst).unwrap();
        }
        fs::write(repo.0.join("p.patch"), patch).unwrap();
        let g = std::process::Command::new("git")
            .current_dir(&repo.0)
            .args(["apply", "p.patch"])
            .output()
            .unwrap();
        assert!(g.status.success(), "{id}: git apply: {}", text(&g.stderr));
        for f in &files {
            let before = fs::read_to_string(src.join(f)).unwrap();
            let sep = if before.is_empty() || before.ends_with('\n') { "" } else { "\n" };
            assert_eq!(
                fs::read_to_string(repo.0.join(f)).unwrap(),
                format!("{before}{sep}# touched by {id}\n"),
                "{id}: {f}"
            );
        }
    }
    let out = tmp.0.join("report.json");
    let o = refscore_in(
        &demo(),
        &[
            "score",
            "--tasks",
            &bundle,
            "--predictions",
            preds.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report = report_at(&out);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), empties.len());
    for r in results {
        let e = empties.iter().find(|e| e["task"] == r["instance_id"]).expect("a demo task");
        assert_eq!(r["patch_status"], "applied", "{}", r["instance_id"]);
        assert_eq!(verdict(r)["tests"], expected_verdict(e)["tests"], "{}", r["instance_id"]);
    }
}

/// The repository folder of demo task `id` (from its task data in the bundle).
fn task_repo(bundle: &str, id: &str) -> String {
    let index = report_at(&Path::new(bundle).join("index.json"));
    let t = index["tasks"].as_array().unwrap().iter().find(|t| t["id"] == id).unwrap();
    t["repo"].as_str().unwrap().to_string()
}
