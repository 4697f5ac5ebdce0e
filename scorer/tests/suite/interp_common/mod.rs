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
pub fn run_both(
    name: &str,
    files: &[(&str, &[u8])],
    test_source: &str,
) -> (serde_json::Value, serde_json::Value) {
    run_both_with(name, files, test_source, RunConfig::default())
}

/// [`run_both`] with the scorer's limits given (e.g. the CLI's big stack budget).
#[track_caller]
pub fn run_both_with(
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
pub fn check(name: &str, files: &[(&str, &[u8])], test_source: &str) {
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
