//! The demo benchmark (tasks/demo) scored by refscore must give exactly the verdicts CPython 3.11 gave
//! in `tasks/demo/expected-verdicts.json` (written by `tasks/demo/check.py`, which CI re-verifies with
//! python3): patch status, resolved, and every method's status, exception type, message and line, for
//! the empty patch, every submission patch and every prediction entry.

use std::fs;
use std::path::{Path, PathBuf};

use scorer::evaluate::evaluate;
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};
use serde_json::Value;

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks/demo")
}

fn load_tree(dir: &Path) -> Tree {
    fn walk(root: &Path, dir: &Path, tree: &mut Tree) {
        let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, tree);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_str().unwrap().to_string();
                tree.insert_bytes(&rel, fs::read(&path).unwrap()).unwrap();
            }
        }
    }
    let mut tree = Tree::new();
    walk(dir, dir, &mut tree);
    tree
}

/// The patch text of a submission: a patch file, or one entry of a predictions file
/// (`file.jsonl#line=N`, `file.json#index=N`, `file.json#key=ID`); `None` for the empty patch.
fn patch_of(submission: &str) -> Vec<u8> {
    if submission == "empty" {
        return Vec::new();
    }
    let (file, selector) = submission.split_once('#').unwrap_or((submission, ""));
    let bytes = fs::read(demo().join(file)).unwrap();
    let entry: Value = match selector.split_once('=') {
        None => return bytes,
        Some(("line", n)) => {
            let line = String::from_utf8(bytes)
                .unwrap()
                .lines()
                .nth(n.parse::<usize>().unwrap() - 1)
                .unwrap()
                .to_string();
            serde_json::from_str(&line).unwrap()
        }
        Some(("index", n)) => {
            serde_json::from_slice::<Value>(&bytes).unwrap()[n.parse::<usize>().unwrap()].clone()
        }
        Some(("key", id)) => serde_json::from_slice::<Value>(&bytes).unwrap()[id].clone(),
        Some((other, _)) => panic!("unknown selector {other}"),
    };
    entry["model_patch"].as_str().unwrap_or("").as_bytes().to_vec()
}

#[test]
fn demo_verdicts_equal_cpython() {
    let expected: Value =
        serde_json::from_slice(&fs::read(demo().join("expected-verdicts.json")).unwrap()).unwrap();
    let tasks: Vec<&Value> = expected["tasks"].as_array().unwrap().iter().collect();
    let mut scorer = Scorer::new(RunConfig::default());
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for result in expected["results"].as_array().unwrap() {
        let task_id = result["task"].as_str().unwrap();
        let submission = result["submission"].as_str().unwrap();
        let task = tasks.iter().find(|t| t["id"] == task_id).unwrap();
        let base = load_tree(&demo().join("repositories").join(task["repo"].as_str().unwrap()));
        let test_path = demo().join(task["test_file"].as_str().unwrap());
        let source = fs::read_to_string(&test_path).unwrap();
        let name = test_path.file_name().unwrap().to_str().unwrap();
        let got = evaluate(&mut scorer, task_id, &base, name, &source, &patch_of(submission));
        let here = format!("{task_id} / {submission}");
        if serde_json::to_value(got.patch_status).unwrap() != result["patch_status"] {
            mismatches.push(format!(
                "{here}: patch_status {:?} != {}",
                got.patch_status, result["patch_status"]
            ));
        }
        if Value::Bool(got.resolved) != result["resolved"] {
            mismatches.push(format!("{here}: resolved {} != {}", got.resolved, result["resolved"]));
        }
        let want = result["tests"].as_array().cloned().unwrap_or_default();
        if want.len() != got.tests.len() {
            mismatches.push(format!("{here}: {} methods != {}", got.tests.len(), want.len()));
        }
        for (w, g) in want.iter().zip(&got.tests) {
            compared += 1;
            let g_json = serde_json::to_value(g).unwrap();
            for field in ["id", "status", "exc_type", "message", "line"] {
                let gv = g_json.get(field).cloned().unwrap_or(Value::Null);
                if gv != w[field] {
                    mismatches.push(format!("{here}: {} {field}: {gv} != {}", w["id"], w[field]));
                }
            }
        }
    }
    assert!(compared > 200, "only {compared} methods compared");
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}
