//! Differential test of the unittest interpreter against CPython 3.11.
//!
//! Every case under `tests/differential/cases/<case>/` holds a small repository (`repo/`) and
//! official-style unittest files (`tests/*.py`). Each test file runs twice: in refscore's interpreter
//! against an in-memory [`Tree`] of the repository, and under `python3` through our reference runner
//! `tests/differential/pyref.py` (the official harness's semantics). Per-method id, status, exception
//! type, message and line must be equal. All mismatches of all files are collected and printed as one
//! table before the test fails: nothing is allow-listed or skipped.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

mod differential_common;

use differential_common::{differential_dir, sorted_entries};
use scorer::report::TestOutcome;
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

/// One verdict in the shape both sides are compared in.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    id: String,
    status: String,
    exc_type: Option<String>,
    message: Option<String>,
    line: Option<u32>,
}

impl From<&TestOutcome> for Record {
    fn from(o: &TestOutcome) -> Self {
        Record {
            id: o.id.clone(),
            status: o.status.as_str().to_string(),
            exc_type: o.exc_type.clone(),
            message: o.message.clone(),
            line: o.line,
        }
    }
}

/// One test file of one case.
struct Job {
    label: String,
    repo: PathBuf,
    test_file: PathBuf,
    name: String,
}

/// One difference between CPython and the interpreter.
struct Mismatch {
    file: String,
    id: String,
    field: &'static str,
    python: String,
    rust: String,
}

/// Every file under `root` (recursively) with its bytes, keyed by its `/`-separated relative path.
fn collect_files(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for path in sorted_entries(dir) {
        let meta = std::fs::symlink_metadata(&path).expect("metadata");
        if meta.is_dir() {
            collect_files(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).expect("inside root");
            let rel: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            out.push((rel.join("/"), std::fs::read(&path).expect("read fixture file")));
        }
    }
}

fn build_tree(repo: &Path) -> Tree {
    let mut files = Vec::new();
    collect_files(repo, repo, &mut files);
    let mut tree = Tree::new();
    for (path, bytes) in files {
        tree.insert_bytes(&path, bytes).unwrap_or_else(|e| panic!("bad fixture path {path}: {e}"));
    }
    tree
}

fn opt_str(v: &serde_json::Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// Runs `pyref.py` (CPython) on one test file.
fn run_python(repo: &Path, test_file: &Path) -> Result<Vec<Record>, String> {
    let out = Command::new("python3")
        .arg(differential_dir().join("pyref.py"))
        .arg(repo)
        .arg(test_file)
        .output()
        .map_err(|e| format!("cannot start python3: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "pyref.py failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let value: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("pyref.py output: {e}"))?;
    let list = value.as_array().ok_or("pyref.py did not print a list")?;
    let mut records = Vec::new();
    for r in list {
        records.push(Record {
            id: opt_str(&r["id"]).ok_or("record without id")?,
            status: opt_str(&r["status"]).ok_or("record without status")?,
            exc_type: opt_str(&r["exc_type"]),
            message: opt_str(&r["message"]),
            line: r["line"].as_u64().and_then(|n| u32::try_from(n).ok()),
        });
    }
    Ok(records)
}

fn show<T: std::fmt::Debug>(v: &Option<T>) -> String {
    match v {
        Some(x) => format!("{x:?}"),
        None => "None".to_string(),
    }
}

/// `status exc_type: message`, the whole verdict in one cell.
fn verdict(r: &Record) -> String {
    match (&r.exc_type, &r.message) {
        (None, None) => r.status.clone(),
        (t, m) => {
            format!("{} {}: {}", r.status, t.as_deref().unwrap_or("-"), m.as_deref().unwrap_or("-"))
        }
    }
}

fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push('…');
        t
    }
}

/// Compares one file's verdicts; returns the number of methods whose five fields all agree.
fn compare(file: &str, py: &[Record], rs: &[Record], mismatches: &mut Vec<Mismatch>) -> usize {
    let mut add = |id: &str, field: &'static str, python: String, rust: String| {
        mismatches.push(Mismatch {
            file: file.to_string(),
            id: id.to_string(),
            field,
            python,
            rust,
        });
    };
    let py_map: BTreeMap<&str, &Record> = py.iter().map(|r| (r.id.as_str(), r)).collect();
    let rs_map: BTreeMap<&str, &Record> = rs.iter().map(|r| (r.id.as_str(), r)).collect();
    if rs_map.len() != rs.len() {
        add(
            "-",
            "duplicate ids",
            String::new(),
            format!("{} records, {} ids", rs.len(), rs_map.len()),
        );
    }
    let mut matched = 0;
    for p in py {
        let Some(r) = rs_map.get(p.id.as_str()) else {
            add(&p.id, "id", verdict(p), "missing".into());
            continue;
        };
        let mut ok = true;
        if p.status != r.status {
            add(&p.id, "status", verdict(p), verdict(r));
            ok = false;
        }
        if p.exc_type != r.exc_type {
            add(&p.id, "exc_type", show(&p.exc_type), show(&r.exc_type));
            ok = false;
        }
        if p.message != r.message {
            add(&p.id, "message", show(&p.message), show(&r.message));
            ok = false;
        }
        if p.line != r.line {
            add(&p.id, "line", show(&p.line), show(&r.line));
            ok = false;
        }
        if ok {
            matched += 1;
        }
    }
    for r in rs {
        if !py_map.contains_key(r.id.as_str()) {
            add(&r.id, "id", "missing".into(), verdict(r));
        }
    }
    let py_order: Vec<&str> = py.iter().map(|r| r.id.as_str()).collect();
    let rs_order: Vec<&str> = rs.iter().map(|r| r.id.as_str()).collect();
    if py_map.keys().eq(rs_map.keys()) && py_order != rs_order {
        add("-", "run order", py_order.join(" "), rs_order.join(" "));
    }
    matched
}

/// Stack for the interpreter thread: CPython allows 1000 nested Python calls, and unoptimised debug
/// builds of a tree-walking interpreter use far more native stack per call than release builds.
const INTERPRETER_STACK: usize = 1 << 30;

/// Runs one test file in refscore's interpreter on a thread with a large stack; a panic is returned
/// as its payload so that the other files still run.
fn run_interpreter(
    tree: &Tree,
    name: &str,
    source: &str,
) -> Result<Vec<TestOutcome>, Box<dyn std::any::Any + Send>> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name(format!("interp {name}"))
            .stack_size(INTERPRETER_STACK)
            .spawn_scoped(scope, || {
                catch_unwind(AssertUnwindSafe(|| {
                    // The interpreter's stack guard may use most of this thread's stack.
                    let config =
                        RunConfig { stack_budget: INTERPRETER_STACK / 2, ..RunConfig::default() };
                    let mut scorer = Scorer::new(config);
                    scorer.run_test_file(tree, name, source)
                }))
            })
            .expect("spawn interpreter thread");
        handle.join().unwrap_or_else(Err)
    })
}

#[test]
fn interpreter_matches_cpython_on_the_differential_corpus() {
    // Every (case, test file), in a stable order.
    let mut jobs: Vec<Job> = Vec::new();
    for case in sorted_entries(&differential_dir().join("cases")) {
        if !case.is_dir() {
            continue;
        }
        let case_name = case.file_name().expect("case name").to_string_lossy().into_owned();
        for test_file in sorted_entries(&case.join("tests")) {
            if test_file.extension().and_then(|e| e.to_str()) == Some("py") {
                let name = test_file.file_name().expect("file name").to_string_lossy().into_owned();
                jobs.push(Job {
                    label: format!("{case_name}/{name}"),
                    repo: case.join("repo"),
                    test_file,
                    name,
                });
            }
        }
    }

    // CPython runs on a background thread while the interpreter works on the foreground one.
    let py_jobs: Vec<(PathBuf, PathBuf)> =
        jobs.iter().map(|j| (j.repo.clone(), j.test_file.clone())).collect();
    let python = std::thread::spawn(move || {
        py_jobs.iter().map(|(repo, test)| run_python(repo, test)).collect::<Vec<_>>()
    });

    let mut trees: BTreeMap<PathBuf, Tree> = BTreeMap::new();
    let mut rust_runs = Vec::new();
    for job in &jobs {
        let tree = trees.entry(job.repo.clone()).or_insert_with(|| build_tree(&job.repo));
        let source = std::fs::read_to_string(&job.test_file).expect("test file is UTF-8");
        // Printed first, so that a crash that cannot be caught (stack overflow) names its file.
        eprintln!("differential: interpreting {}", job.label);
        rust_runs.push(run_interpreter(tree, &job.name, &source));
    }
    let python_runs = python.join().expect("python thread");

    let mut mismatches = Vec::new();
    let (n_files, mut n_methods, mut n_matched) = (jobs.len(), 0usize, 0usize);
    let mut per_status: BTreeMap<String, usize> = BTreeMap::new();
    for ((job, py), rs) in jobs.iter().zip(python_runs).zip(rust_runs) {
        let label = job.label.clone();
        let py = match py {
            Ok(p) => p,
            Err(e) => {
                mismatches.push(Mismatch {
                    file: label,
                    id: "-".into(),
                    field: "pyref",
                    python: e,
                    rust: String::new(),
                });
                continue;
            }
        };
        for p in &py {
            *per_status.entry(p.status.clone()).or_default() += 1;
        }
        n_methods += py.len();
        let rs: Vec<Record> = match rs {
            Ok(outcomes) => outcomes.iter().map(Record::from).collect(),
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                mismatches.push(Mismatch {
                    file: label,
                    id: "-".into(),
                    field: "panic",
                    python: format!("{} records", py.len()),
                    rust: msg,
                });
                continue;
            }
        };
        n_matched += compare(&label, &py, &rs, &mut mismatches);
    }

    let mut report = String::new();
    let _ = writeln!(
        report,
        "differential corpus: {n_files} files, {n_methods} methods (CPython {per_status:?}), \
         {n_matched} fully matching, {} mismatching fields",
        mismatches.len()
    );
    if !mismatches.is_empty() {
        let _ = writeln!(
            report,
            "{:<40} | {:<48} | {:<9} | {:<60} | rust",
            "file", "id", "field", "python"
        );
        for m in &mismatches {
            let _ = writeln!(
                report,
                "{:<40} | {:<48} | {:<9} | {:<60} | {}",
                m.file,
                m.id,
                m.field,
                cut(&m.python, 200),
                cut(&m.rust, 200)
            );
        }
        // Grouped view, so that one missing feature of the interpreter shows up as one line: a
        // method whose status differs is counted once, under its status; other fields are listed
        // with their values.
        let status_differs: std::collections::BTreeSet<(&str, &str)> = mismatches
            .iter()
            .filter(|m| m.field == "status")
            .map(|m| (m.file.as_str(), m.id.as_str()))
            .collect();
        let mut groups: BTreeMap<String, usize> = BTreeMap::new();
        for m in &mismatches {
            if m.field != "status" && status_differs.contains(&(m.file.as_str(), m.id.as_str())) {
                continue;
            }
            let key = match m.field {
                "id" if m.rust == "missing" => "id: missing in rust".to_string(),
                "status" => format!(
                    "status: python {} / rust {}",
                    m.python.split(' ').next().unwrap_or(""),
                    cut(&m.rust, 110)
                ),
                _ => format!(
                    "{}: python {} / rust {}",
                    m.field,
                    cut(&m.python, 70),
                    cut(&m.rust, 70)
                ),
            };
            *groups.entry(key).or_default() += 1;
        }
        let mut groups: Vec<(String, usize)> = groups.into_iter().collect();
        groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let _ = writeln!(report, "\nmismatches grouped:");
        for (key, n) in groups {
            let _ = writeln!(report, "{n:>5}  {key}");
        }
    }
    println!("{report}");
    // The same text in a file, for reading the whole table without the test harness around it.
    let report_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("differential-report.txt");
    if std::fs::write(&report_path, &report).is_ok() {
        println!("report written to {}", report_path.display());
    }
    assert!(n_files > 0 && n_methods > 0, "empty differential corpus");
    assert!(mismatches.is_empty(), "{} mismatches against CPython (table above)", mismatches.len());
}
