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

use crate::differential_common;
use crate::expected;

use differential_common::{differential_dir, sorted_entries};
use scorer::report::TestOutcome;
use scorer::tree::{Content, FileEntry, FileMode, RepoPath, Tree};
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

/// Every file under `root` (recursively) with its mode and bytes, keyed by its `/`-separated
/// relative path. A symbolic link is not followed: its bytes are its target, as git stores it.
fn collect_files(root: &Path, dir: &Path, out: &mut Vec<(String, FileMode, Vec<u8>)>) {
    for path in sorted_entries(dir) {
        let meta = std::fs::symlink_metadata(&path).expect("metadata");
        if meta.is_dir() {
            collect_files(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).expect("inside root");
            let rel: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).expect("read fixture link");
                let target = target.to_str().expect("UTF-8 link target").as_bytes().to_vec();
                out.push((rel.join("/"), FileMode::Symlink, target));
            } else {
                let bytes = std::fs::read(&path).expect("read fixture file");
                out.push((rel.join("/"), FileMode::Regular, bytes));
            }
        }
    }
}

fn build_tree(repo: &Path) -> Tree {
    let mut files = Vec::new();
    collect_files(repo, repo, &mut files);
    let mut tree = Tree::new();
    for (path, mode, bytes) in files {
        let p = RepoPath::new(&path).unwrap_or_else(|e| panic!("bad fixture path {path}: {e}"));
        tree.insert(p, FileEntry { mode, content: Content::Bytes(bytes.into()) });
    }
    tree
}

fn opt_str(v: &serde_json::Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// CPython's records for one test file: `pyref.py` live where python3.11 is present (held to
/// the outcome stored in `expected/differential.json`), else the stored outcome.
fn run_python(repo: &Path, test_file: &Path) -> Result<Vec<Record>, String> {
    let mut files = Vec::new();
    collect_files(repo, repo, &mut files);
    let paths: Vec<String> = files
        .iter()
        .map(
            |(p, mode, _)| {
                if *mode == FileMode::Symlink {
                    format!("{p}\0link")
                } else {
                    p.clone()
                }
            },
        )
        .collect();
    let parts: Vec<(&str, &[u8])> =
        paths.iter().zip(&files).map(|(p, (_, _, b))| (p.as_str(), b.as_slice())).collect();
    let source = std::fs::read_to_string(test_file).map_err(|e| format!("test file: {e}"))?;
    let name = test_file.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let key = expected::case_key(&name, &parts, &source);
    let value = expected::cpython_outcome("differential", &key, || {
        pyref(repo, test_file).unwrap_or_else(|e| panic!("{}: {e}", test_file.display()))
    });
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

/// Runs `pyref.py` (CPython) on one test file.
fn pyref(repo: &Path, test_file: &Path) -> Result<serde_json::Value, String> {
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
    serde_json::from_slice(&out.stdout).map_err(|e| format!("pyref.py output: {e}"))
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

    let report = check(&jobs, "differential-report.txt");
    assert!(report.files > 0 && report.methods > 0, "empty differential corpus");
    assert!(
        report.mismatches == 0,
        "{} mismatches against CPython (table above)",
        report.mismatches
    );
}

/// What [`check`] found.
struct Checked {
    files: usize,
    methods: usize,
    matched: usize,
    mismatches: usize,
}

/// Runs every job under CPython and in the interpreter, compares them, and prints the table of
/// mismatches (also written to `<CARGO_TARGET_TMPDIR>/<report>`).
fn check(jobs: &[Job], report_name: &str) -> Checked {
    // CPython runs on a background thread while the interpreter works on the foreground one.
    let py_jobs: Vec<(PathBuf, PathBuf)> =
        jobs.iter().map(|j| (j.repo.clone(), j.test_file.clone())).collect();
    let python = std::thread::spawn(move || {
        py_jobs.iter().map(|(repo, test)| run_python(repo, test)).collect::<Vec<_>>()
    });

    let mut trees: BTreeMap<PathBuf, Tree> = BTreeMap::new();
    let mut rust_runs = Vec::new();
    for job in jobs {
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
    let report_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(report_name);
    if std::fs::write(&report_path, &report).is_ok() {
        println!("report written to {}", report_path.display());
    }
    Checked { files: n_files, methods: n_methods, matched: n_matched, mismatches: mismatches.len() }
}

/// One entry of a generated repository.
enum Entry {
    File(&'static str),
    Link(String),
}

/// The repository the symbolic-link cases run in: links to files and folders, relative and
/// absolute, dangling, looping, chained up to past Linux's 40-link limit, through `..` after a
/// linked folder, in the eval folder, and one whose target has spaces (as in the official ansible
/// checkout).
fn symlink_repo() -> Vec<(String, Entry)> {
    let mut e: Vec<(String, Entry)> = Vec::new();
    let mut file = |p: &str, c: &'static str| e.push((p.to_string(), Entry::File(c)));
    file("pkg/mod.py", "X = 1\n");
    file("pkg/sub/deep.py", "Y = 2\r\nZ = 3\n");
    file("pkg/data.txt", "d\u{e9}j\u{e0} vu\n");
    file("docs/readme.md", "# readme\n");
    file("docs/Read me.md", "spaces\n");
    file("walkme/a.txt", "a\n");
    file("walkme/sub/b.txt", "b\n");
    file("walkloop/x.txt", "x\n");
    let mut link = |p: &str, t: &str| e.push((p.to_string(), Entry::Link(t.to_string())));
    link("links/rel_file", "../pkg/mod.py");
    link("links/rel_dir", "../pkg");
    link("links/rel_dir_slash", "../pkg/");
    link("links/sub_dir", "../pkg/sub");
    link("links/dangling", "../pkg/missing.py");
    link("links/dangling_dir", "../nowhere/");
    link("links/abs_dangling", "/nonexistent-refscore-target/x.py");
    link("links/self_loop", "self_loop");
    link("links/loop_a", "loop_b");
    link("links/loop_b", "loop_a");
    link("links/to_link_dir", "rel_dir");
    link("links/dotdot", "..");
    link("links/dot", ".");
    link("links/file_slash", "../pkg/mod.py/");
    link("links/up_nonexist", "../../nonexistent-refscore-up");
    link("links/through", "rel_dir/sub/deep.py");
    link("links/parent_via_link", "sub_dir/..");
    link("links/messy", "./../pkg//sub/./deep.py");
    link("links/trailing_dot", "../pkg/.");
    link("links/file_dotdot", "../pkg/mod.py/..");
    link("links/eval", "../refactorbench_eval");
    link("links/root_slash", "..//");
    link("docs/space link", "Read me.md");
    link("refactorbench_eval/local", "../pkg");
    link("top_link", "pkg/mod.py");
    link("pkg/self", ".");
    link("walkme/lk", "../pkg/sub");
    link("walkme/lk2", "lk");
    link("walkme/lf", "a.txt");
    link("walkme/ld", "missing");
    link("walkme/selfloop", "selfloop");
    link("walkme/sub/back", "../lk");
    link("walkloop/me", ".");
    link("chain/c0", "../pkg/mod.py");
    link("dchain/d0", "../pkg");
    for k in 1..=44 {
        link(&format!("chain/c{k}"), &format!("c{}", k - 1));
        link(&format!("dchain/d{k}"), &format!("d{}", k - 1));
    }
    e
}

/// Paths the generated test looks at, relative to its working directory.
const SYMLINK_PATHS: &[&str] = &[
    "../pkg/mod.py",
    "../pkg",
    "../pkg/",
    "../pkg/missing.py",
    "../links/rel_file",
    "../links/rel_file/",
    "../links/rel_file/x",
    "../links/rel_file/..",
    "../links/rel_dir",
    "../links/rel_dir/",
    "../links/rel_dir/mod.py",
    "../links/rel_dir/sub/deep.py",
    "../links/rel_dir/../docs/readme.md",
    "../links/rel_dir/../links/rel_file",
    "../links/rel_dir/./sub/../data.txt",
    "../links/rel_dir_slash",
    "../links/rel_dir_slash/mod.py",
    "../links/sub_dir/../mod.py",
    "../links/sub_dir/..",
    "../links/dangling",
    "../links/dangling/",
    "../links/dangling_dir",
    "../links/dangling_dir/x",
    "../links/abs_dangling",
    "../links/self_loop",
    "../links/self_loop/",
    "../links/self_loop/x",
    "../links/loop_a",
    "../links/loop_b/x",
    "../links/to_link_dir",
    "../links/to_link_dir/mod.py",
    "../links/dotdot",
    "../links/dotdot/pkg/mod.py",
    "../links/dotdot/links/dotdot/links/rel_file",
    "../links/dot",
    "../links/dot/dot/dot/rel_file",
    "../links/file_slash",
    "../links/up_nonexist",
    "../links/through",
    "../links/parent_via_link",
    "../links/parent_via_link/mod.py",
    "../links/missing/..",
    "../links/messy",
    "../links/trailing_dot",
    "../links/trailing_dot/sub/deep.py",
    "../links/file_dotdot",
    "../links/eval",
    "../links/eval/test_links.py",
    "../links/eval/local/mod.py",
    "../links/root_slash",
    "../links/root_slash/docs/Read me.md",
    "..//links//rel_dir//sub//",
    "../links",
    "../docs/space link",
    "local",
    "local/",
    "local/mod.py",
    "local/../links/rel_file",
    "./local/sub/../../docs",
    "../top_link",
    "../pkg/self",
    "../pkg/self/self/mod.py",
    "../walkme",
    "../walkme/lk2/deep.py",
    "../walkme/sub/back/deep.py",
    "../chain/c38",
    "../chain/c39",
    "../chain/c40",
    "../chain/c41",
    "../dchain/d39/mod.py",
    "../dchain/d40/mod.py",
    "../dchain/d39/",
    "../dchain/d40",
    "../dchain/d20/../dchain/d18/mod.py",
    "../dchain/d20/../dchain/d19/mod.py",
];

/// One test method per (path, operation): each fails with the value it computed, so the verdict's
/// message carries the answer, or errors with the exception the operation raised.
fn symlink_test_source() -> String {
    let ops: &[(&str, &str)] = &[
        ("exists", "self.fail(repr(os.path.exists(P)))"),
        ("lexists", "self.fail(repr(os.path.lexists(P)))"),
        ("isfile", "self.fail(repr(os.path.isfile(P)))"),
        ("isdir", "self.fail(repr(os.path.isdir(P)))"),
        ("islink", "self.fail(repr(os.path.islink(P)))"),
        ("read", "with open(P) as f:\n            self.fail(repr(f.read()))"),
        (
            "sha256",
            "with open(P, 'rb') as f:\n            self.fail(hashlib.sha256(f.read()).hexdigest())",
        ),
        ("listdir", "self.fail(repr(sorted(os.listdir(P))))"),
        ("walk", "self.fail(repr(sorted((r, sorted(d), sorted(f)) for r, d, f in os.walk(P))))"),
        (
            "getsize",
            "size = os.path.getsize(P)\n        self.fail(repr('dir' if os.path.isdir(P) else size))",
        ),
        ("realpath", "self.fail(show(os.path.realpath(P)))"),
        ("readlink", "self.fail(repr(os.readlink(P)))"),
        ("stat", "self.fail(show_stat(os.stat(P)))"),
        ("lstat", "self.fail(show_stat(os.lstat(P)))"),
    ];
    let mut src = String::from(
        "import hashlib\nimport os\nimport stat\nimport unittest\n\n\
         ROOT = os.path.realpath('..')\n\n\n\
         def show_stat(st):\n    \
             m = st.st_mode\n    \
             kind = (stat.S_ISDIR(m), stat.S_ISREG(m), stat.S_ISLNK(m), stat.S_IFMT(m))\n    \
             return repr((kind, oct(stat.S_IMODE(m)), 'dir' if stat.S_ISDIR(m) else st.st_size))\n\n\n\
         def show(p):\n    \
             if p == ROOT or p.startswith(ROOT + '/'):\n        \
                 return 'ROOT' + p[len(ROOT):]\n    \
             return 'OUTSIDE'\n\n\n\
         class Links(unittest.TestCase):\n",
    );
    let mut n = 0;
    for path in SYMLINK_PATHS {
        for (op, body) in ops {
            n += 1;
            let body = body.replace('P', &format!("{path:?}"));
            src.push_str(&format!("    def test_{n:04}_{op}(self):\n        {body}\n\n"));
        }
    }
    // `os.walk` entering linked folders, and a link to its own folder walked until ELOOP.
    for (name, call) in [
        ("follow", "os.walk('../walkme', followlinks=True)"),
        ("nofollow", "os.walk('../walkme', followlinks=False)"),
        ("follow_top_link", "os.walk('../walkme/lk2', True, None, True)"),
        ("loop", "os.walk('../walkloop', followlinks=True)"),
        ("loop_nofollow", "os.walk('../walkloop')"),
        ("dotdot_nofollow", "os.walk('../links/dotdot')"),
    ] {
        src.push_str(&format!(
            "    def test_walk_{name}(self):\n        \
                 w = sorted((r, sorted(d), sorted(f)) for r, d, f in {call})\n        \
                 self.fail(repr((len(w), w[:3], w[-1:])))\n\n"
        ));
    }
    for (name, call) in [
        ("islink_int", "os.path.islink(3)"),
        ("lexists_none", "os.path.lexists(None)"),
        ("readlink_int", "os.readlink(3)"),
        ("lstat_none", "os.lstat(None)"),
        ("stat_list", "os.stat([])"),
        ("s_isdir_str", "stat.S_ISDIR('x')"),
    ] {
        src.push_str(&format!("    def test_type_{name}(self):\n        {call}\n\n"));
    }
    src
}

/// Symbolic links in a repository: every path operation the interpreter offers, over links of
/// every kind, against CPython on a real copy of the same repository (links as links).
#[cfg(unix)]
#[test]
fn symbolic_links_match_cpython() {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("symlinks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let repo = dir.join("repo");
    for (path, entry) in symlink_repo() {
        let full = repo.join(&path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("create folder");
        match entry {
            Entry::File(text) => std::fs::write(&full, text).expect("write file"),
            Entry::Link(target) => std::os::unix::fs::symlink(target, &full).expect("symlink"),
        }
    }
    let test_file = dir.join("test_links.py");
    std::fs::write(&test_file, symlink_test_source()).expect("write test file");
    let jobs = vec![Job {
        label: "symlinks/test_links.py".into(),
        repo: repo.clone(),
        test_file,
        name: "test_links.py".into(),
    }];
    let report = check(&jobs, "symlink-differential-report.txt");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(report.methods > 900, "only {} methods", report.methods);
    assert!(
        report.mismatches == 0,
        "{} mismatches against CPython (table above)",
        report.mismatches
    );
    assert_eq!(report.matched, report.methods);
}
