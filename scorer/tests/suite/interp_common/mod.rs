//! Shared helper of the interpreter tests: runs a unittest file both under CPython (through the
//! corpus's reference runner, `tests/differential/pyref.py`, the official harness's rules; or
//! from the outcome stored in `expected/` where python3.11 is absent) and with the scorer, and
//! compares the outcomes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

use crate::expected;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Runs `test_source` (named `name`) against `files` under CPython and with the scorer; returns
/// both outcome lists as JSON values.
#[track_caller]
pub(crate) fn run_both(
    name: &str,
    files: &[(&str, &[u8])],
    test_source: &str,
) -> (serde_json::Value, serde_json::Value) {
    run_both_with(name, files, test_source, RunConfig::default())
}

/// [`run_both`] with the scorer's limits given (e.g. the CLI's big stack budget).
#[track_caller]
pub(crate) fn run_both_with(
    name: &str,
    files: &[(&str, &[u8])],
    test_source: &str,
    config: RunConfig,
) -> (serde_json::Value, serde_json::Value) {
    let module = expected::module_of(std::panic::Location::caller().file());
    let key = expected::case_key(name, files, test_source);
    let py = expected::cpython_outcome(&module, &key, || cpython(name, files, test_source));
    let mut tree = Tree::new();
    for (p, bytes) in files {
        tree.insert_bytes(p, bytes.to_vec()).expect("tree path");
    }
    let mut scorer = Scorer::new(config);
    let mine = scorer.run_test_file(&tree, name, test_source);
    let mut mine = serde_json::to_value(&mine).expect("json");
    // The runner reports verdicts only; per-method reads are held to CPython in `file_access.rs`.
    for m in mine.as_array_mut().into_iter().flatten() {
        if let Some(o) = m.as_object_mut() {
            o.remove("reads");
        }
    }
    (py, mine)
}

/// CPython's outcome records for one case, from `pyref.py` (fields that are `null` dropped, as
/// the scorer's records omit them).
fn cpython(name: &str, files: &[(&str, &[u8])], test_source: &str) -> serde_json::Value {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let root: PathBuf =
        std::env::temp_dir().join(format!("refscore-interp-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let repo = root.join("repo");
    std::fs::create_dir_all(&repo).expect("mkdir");
    for (p, bytes) in files {
        let full = repo.join(p);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(&full, bytes).expect("write");
    }
    let test = root.join(name);
    std::fs::write(&test, test_source).expect("write test");
    let pyref = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential/pyref.py");
    let out = Command::new("python3")
        .arg("-s")
        .arg(&pyref)
        .arg(&repo)
        .arg(&test)
        .arg("--in-place")
        .output()
        .expect("python3");
    let _ = std::fs::remove_dir_all(&root);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut py: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!("pyref.py output {stdout:?} {}: {e}", String::from_utf8_lossy(&out.stderr))
    });
    for record in py.as_array_mut().into_iter().flatten() {
        if let Some(o) = record.as_object_mut() {
            o.retain(|_, v| !v.is_null());
        }
    }
    py
}

/// Asserts that the scorer gives CPython's outcomes, method by method.
#[track_caller]
pub(crate) fn check(name: &str, files: &[(&str, &[u8])], test_source: &str) {
    let (py, mine) = run_both(name, files, test_source);
    if py != mine {
        let pa = py.as_array().cloned().unwrap_or_default();
        let ma = mine.as_array().cloned().unwrap_or_default();
        let mut report = String::new();
        for (i, p) in pa.iter().enumerate() {
            let m = ma.get(i).cloned().unwrap_or(serde_json::Value::Null);
            if *p != m {
                report.push_str(&format!("\n python: {p}\n mine:   {m}\n"));
            }
        }
        if pa.len() != ma.len() {
            report.push_str(&format!("\n count python {} mine {}", pa.len(), ma.len()));
        }
        panic!("{name}: outcomes differ:{report}");
    }
}

/// Runs `test_source` with the scorer only (no python3): each method's `(status, message)`.
pub(crate) fn run_scorer(
    name: &str,
    files: &[(&str, &[u8])],
    test_source: &str,
) -> Vec<(String, String)> {
    let mut tree = Tree::new();
    for (p, bytes) in files {
        tree.insert_bytes(p, bytes.to_vec()).expect("tree path");
    }
    let mut scorer = Scorer::new(RunConfig::default());
    let out = serde_json::to_value(scorer.run_test_file(&tree, name, test_source)).expect("json");
    out.as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            let s = |k: &str| m.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
            (s("status"), s("message"))
        })
        .collect()
}

/// Whether python3 runs here (differential tests skip with a message when it does not).
pub(crate) fn have_python3() -> bool {
    let ok = Command::new("python3").arg("-c").arg("pass").status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: python3 not found");
    }
    ok
}

/// Runs every `(setup, expression)` case as one test method (the expression's repr, with object
/// addresses zeroed, is the method's error message) under python3 and the scorer; returns the
/// number of cases and the disagreements.
#[track_caller]
pub(crate) fn compare_exprs(
    name: &str,
    files: &[(&str, &[u8])],
    prelude: &str,
    cases: &[(String, String)],
) -> (usize, String) {
    let mut src = format!(
        "import os, re, stat, unittest\n{prelude}\ndef _norm(s):\n    return re.sub(' at 0x[0-9a-f]+', ' at 0x0', s)\n\nclass T(unittest.TestCase):\n"
    );
    for (i, (setup, e)) in cases.iter().enumerate() {
        src.push_str(&format!("    def test_{i:04}(self):\n"));
        for l in setup.lines() {
            src.push_str(&format!("        {l}\n"));
        }
        src.push_str(&format!("        v = {e}\n        raise Exception(_norm(repr(v)))\n"));
    }
    let (py, mine) = run_both(name, files, &src);
    // Only the generated methods (a prelude may define test classes of its own).
    let ours = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter(|m| m.get("id").and_then(|i| i.as_str()).is_some_and(|i| i.starts_with("T.")))
            .cloned()
            .collect()
    };
    let (pa, ma) = (ours(&py), ours(&mine));
    assert_eq!(pa.len(), cases.len(), "python3: {py}");
    assert_eq!(ma.len(), cases.len(), "scorer: {mine}");
    let mut bad = String::new();
    for (i, (p, m)) in pa.iter().zip(&ma).enumerate() {
        if p != m {
            let (setup, e) = &cases[i];
            bad.push_str(&format!("\n case {setup:?} / {e}\n python: {p}\n mine:   {m}"));
        }
    }
    (cases.len(), bad)
}
