//! The paths a test run touches (`Scorer::run_test_file_traced`), checked against CPython: every
//! test file of the differential corpus runs in the interpreter with tracing on and under
//! `python3` through `tests/differential/pytrace.py` (the same run as `pyref.py`, with `open`,
//! `os.path.*`, `os.listdir` and `os.walk` wrapped). The files read, the paths probed and the
//! folders listed must be equal. Also: tracing changes no verdict, and a run that errors or runs
//! out of steps still reports what it touched until then.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::differential_common;

use differential_common::{differential_dir, sorted_entries};
use scorer::tree::Tree;
use scorer::unittest::{FileAccess, RunConfig, Scorer};

fn add_files(tree: &mut Tree, root: &Path, dir: &Path) {
    for path in sorted_entries(dir) {
        if path.is_dir() {
            add_files(tree, root, &path);
        } else {
            let rel = path.strip_prefix(root).expect("inside root");
            let rel: Vec<String> =
                rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            let bytes = std::fs::read(&path).expect("read fixture file");
            tree.insert_bytes(&rel.join("/"), bytes).expect("fixture path");
        }
    }
}

fn build_tree(repo: &Path) -> Tree {
    let mut tree = Tree::new();
    add_files(&mut tree, repo, repo);
    tree
}

/// Every `(repo, test file)` of the corpus.
fn corpus() -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    for case in sorted_entries(&differential_dir().join("cases")) {
        for test in sorted_entries(&case.join("tests")) {
            if test.extension().is_some_and(|e| e == "py") {
                out.push((case.join("repo"), test));
            }
        }
    }
    out
}

fn set(v: &serde_json::Value, key: &str) -> BTreeSet<String> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("pytrace.py: no {key}"))
        .iter()
        .map(|s| s.as_str().expect("string path").to_string())
        .collect()
}

/// CPython's trace of one test file.
fn python_access(repo: &Path, test: &Path) -> FileAccess {
    let out = Command::new("python3")
        .arg(differential_dir().join("pytrace.py"))
        .arg(repo)
        .arg(test)
        .output()
        .expect("python3");
    assert!(out.status.success(), "pytrace.py failed: {}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("pytrace.py output");
    FileAccess { read: set(&v, "read"), probed: set(&v, "probed"), listed: set(&v, "listed") }
}

fn run(
    tree: &Tree,
    test: &Path,
    config: RunConfig,
) -> (Vec<scorer::report::TestOutcome>, FileAccess) {
    let source = std::fs::read_to_string(test).expect("test source");
    let name = test.file_name().and_then(|n| n.to_str()).expect("name");
    Scorer::new(config).run_test_file_traced(tree, name, &source)
}

fn diff(
    what: &str,
    file: &str,
    py: &BTreeSet<String>,
    rs: &BTreeSet<String>,
    out: &mut Vec<String>,
) {
    for p in py.difference(rs) {
        out.push(format!("{file}: {what} {p:?} by CPython only"));
    }
    for p in rs.difference(py) {
        out.push(format!("{file}: {what} {p:?} by refscore only"));
    }
}

#[test]
fn traced_paths_equal_cpython_on_the_corpus() {
    let mut mismatches = Vec::new();
    let mut reads = 0;
    for (repo, test) in corpus() {
        let tree = build_tree(&repo);
        let (_, rs) = run(&tree, &test, RunConfig::default());
        let py = python_access(&repo, &test);
        let file = test.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        diff("read", &file, &py.read, &rs.read, &mut mismatches);
        diff("probed", &file, &py.probed, &rs.probed, &mut mismatches);
        diff("listed", &file, &py.listed, &rs.listed, &mut mismatches);
        reads += py.read.len();
    }
    assert!(reads > 50, "only {reads} files read in the whole corpus");
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

#[test]
fn computed_paths_are_all_recorded() {
    let case = differential_dir().join("cases/shopkit");
    let tree = build_tree(&case.join("repo"));
    let test = case.join("tests/computed-paths-test.py");
    let (outcomes, access) = run(&tree, &test, RunConfig::default());
    let s = |v: &[&str]| v.iter().map(|p| p.to_string()).collect::<BTreeSet<String>>();
    assert_eq!(
        access.read,
        s(&[
            "config/settings.json",
            "docs/guide.md",
            "shopkit/api/__init__.py",
            "shopkit/api/handlers.py",
            "shopkit/api/views.py",
            "shopkit/cart.py",
            "shopkit/i18n.py",
            "shopkit/legacy.py",
            "shopkit/pricing.py",
            "shopkit/utils/__init__.py",
            "shopkit/utils/money.py",
            "shopkit/utils/text.py",
        ])
    );
    assert_eq!(access.listed, s(&["shopkit/api", "shopkit/utils"]));
    for p in ["", "shopkit", "shopkit/gone.py", "docs/missing.md", "shopkit/no_such_module.py"] {
        assert!(access.probed.contains(p), "{p:?} not probed");
    }
    assert!(access.read.is_subset(&access.probed));
    assert!(!access.probed.iter().any(|p| p.contains("outside")));

    // Tracing changes nothing: the plain run gives the same verdicts.
    let source = std::fs::read_to_string(&test).expect("source");
    let plain =
        Scorer::new(RunConfig::default()).run_test_file(&tree, "computed-paths-test.py", &source);
    assert_eq!(plain, outcomes);
    let statuses: Vec<&str> = outcomes.iter().map(|o| o.status.as_str()).collect();
    assert_eq!(statuses, ["pass", "error", "fail", "pass", "pass", "pass", "pass", "pass"]);
}

const ERRORS: &str = r#"import os, unittest

NAMES = ['a' + '.py', 'b' + '.py']
for n in NAMES:
    open(os.path.join('../pkg', n)).read()
open('../pkg/' + 'c.py').read()
while True:
    pass
"#;

#[test]
fn a_failing_run_reports_what_it_read_before() {
    let mut tree = Tree::new();
    for (p, b) in [("pkg/a.py", "a = 1\n"), ("pkg/b.py", "b = 2\n"), ("pkg/d.py", "d = 4\n")] {
        tree.insert_bytes(p, b.as_bytes().to_vec()).expect("path");
    }
    // A module-level error: a.py and b.py were read, c.py was only probed.
    let mut scorer = Scorer::new(RunConfig::default());
    let (out, access) = scorer.run_test_file_traced(&tree, "t.py", ERRORS);
    assert_eq!(out[0].exc_type.as_deref(), Some("FileNotFoundError"));
    let read: Vec<&str> = access.read.iter().map(String::as_str).collect();
    assert_eq!(read, ["pkg/a.py", "pkg/b.py"]);
    assert!(access.probed.contains("pkg/c.py"));

    // With c.py present the run loops until the step budget ends it; its reads still count.
    tree.insert_bytes("pkg/c.py", b"c = 3\n".to_vec()).expect("path");
    let config = RunConfig { step_budget: 20_000, ..RunConfig::default() };
    let (out, access) = Scorer::new(config).run_test_file_traced(&tree, "t.py", ERRORS);
    assert_eq!(out[0].exc_type.as_deref(), Some("StepBudgetExceeded"));
    let read: Vec<&str> = access.read.iter().map(String::as_str).collect();
    assert_eq!(read, ["pkg/a.py", "pkg/b.py", "pkg/c.py"]);

    // A test file that does not parse touches nothing.
    let (out, access) = scorer.run_test_file_traced(&tree, "t.py", "def (:\n");
    assert_eq!(out[0].exc_type.as_deref(), Some("SyntaxError"));
    assert!(access.is_empty());
}

#[test]
fn a_file_without_bytes_is_reported_as_read() {
    // A bundle tree: the file is listed by blob id only. The run stops at it, and says it read it.
    let mut tree = Tree::new();
    tree.insert(
        scorer::tree::RepoPath::new("pkg/a.py").expect("path"),
        scorer::tree::FileEntry {
            mode: scorer::tree::FileMode::Regular,
            content: scorer::tree::Content::BlobOnly(scorer::tree::git_blob_id(b"a = 1\n").into()),
        },
    );
    let src = "import unittest\nclass T(unittest.TestCase):\n    def test(self):\n        open('../pkg/' + 'a.py')\n";
    let (out, access) = Scorer::new(RunConfig::default()).run_test_file_traced(&tree, "t.py", src);
    assert_eq!(out[0].exc_type.as_deref(), Some("ContentNotInBundle"));
    assert_eq!(access.read.iter().collect::<Vec<_>>(), ["pkg/a.py"]);
}

/// Each method's `reads` (`TestOutcome::reads`) against CPython's per-method trace, on every
/// test file of the corpus, with run and method reuse on (the default) and off.
#[test]
fn method_reads_equal_cpython_on_the_corpus() {
    let mut mismatches = Vec::new();
    let mut with_reads = 0;
    for (repo, test) in corpus() {
        let tree = build_tree(&repo);
        let out = Command::new("python3")
            .arg(differential_dir().join("pytrace.py"))
            .arg(&repo)
            .arg(&test)
            .output()
            .expect("python3");
        assert!(out.status.success(), "pytrace.py: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("pytrace output");
        let py = v["methods"].as_object().expect("pytrace.py: no methods");
        let file = test.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let off = RunConfig { reuse_runs: false, ..RunConfig::default() };
        for config in [RunConfig::default(), off] {
            let (outcomes, _) = run(&tree, &test, config);
            for o in outcomes.iter().filter(|o| o.id.contains('.') && !o.id.contains(' ')) {
                let Some(expected) = py.get(&o.id) else {
                    mismatches.push(format!("{file}: {} not run by CPython", o.id));
                    continue;
                };
                let expected: Vec<String> = expected
                    .as_array()
                    .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
                    .unwrap_or_default();
                if expected != o.reads {
                    mismatches.push(format!(
                        "{file}: {}: CPython {expected:?}, refscore {:?}",
                        o.id, o.reads
                    ));
                }
                with_reads += usize::from(!o.reads.is_empty());
            }
        }
    }
    assert!(with_reads > 50, "only {with_reads} methods read anything");
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

/// A demo-style test file whose methods read different files, one in `setUp`.
const PER_METHOD: &str = r#"import ast, os, unittest

class TestMoves(unittest.TestCase):
    def setUp(self):
        self.config = open('../shop/config.py').read()

    def test_a_cart(self):
        tree = ast.parse(open('../shop/cart.py').read())
        self.assertTrue(any(isinstance(n, ast.FunctionDef) and n.name == 'total'
                            for n in ast.walk(tree)))

    def test_b_new_module(self):
        self.assertTrue(os.path.exists('../shop/money.py'))
        self.assertTrue(os.path.isdir('../shop'))

    def test_c_pricing(self):
        src = open(os.path.join('..', 'shop', 'pricing.py')).read()
        self.assertIn('def price', src)

class TestNothing(unittest.TestCase):
    def test_listing(self):
        self.assertIn('cart.py', os.listdir('../shop'))
"#;

#[test]
fn each_method_reports_its_own_reads_also_when_reused() {
    let mut tree = Tree::new();
    for (p, b) in [
        ("shop/config.py", "X = 1\n"),
        ("shop/cart.py", "def total():\n    pass\n"),
        ("shop/pricing.py", "def price():\n    pass\n"),
    ] {
        tree.insert_bytes(p, b.as_bytes().to_vec()).expect("path");
    }
    let reads = |out: &[scorer::report::TestOutcome]| -> Vec<(String, Vec<String>)> {
        out.iter().map(|o| (o.id.clone(), o.reads.clone())).collect()
    };
    let s = |v: &[&str]| v.iter().map(|p| p.to_string()).collect::<Vec<String>>();
    let expected = vec![
        ("TestMoves.test_a_cart".to_string(), s(&["shop/cart.py", "shop/config.py"])),
        ("TestMoves.test_b_new_module".to_string(), s(&["shop/config.py", "shop/money.py"])),
        ("TestMoves.test_c_pricing".to_string(), s(&["shop/config.py", "shop/pricing.py"])),
        ("TestNothing.test_listing".to_string(), Vec::new()),
    ];
    let mut scorer = Scorer::new(RunConfig::default());
    let first = scorer.run_test_file(&tree, "t.py", PER_METHOD);
    assert_eq!(reads(&first), expected);
    // The same tree again: the whole run is answered from memory, reads included.
    let again = scorer.run_test_file(&tree, "t.py", PER_METHOD);
    assert_eq!(scorer.reused_runs(), 1);
    assert_eq!(again, first);
    // A change only `test_c_pricing` sees: the methods before it are answered from the
    // remembered run and still report their reads; the pricing method runs and reads again.
    tree.insert_bytes("shop/pricing.py", b"def cost():\n    pass\n".to_vec()).expect("path");
    let changed = scorer.run_test_file(&tree, "t.py", PER_METHOD);
    assert!(scorer.reused_methods() >= 2, "{} methods reused", scorer.reused_methods());
    assert_eq!(reads(&changed), expected);
    assert_eq!(changed[2].status, scorer::report::Status::Fail);
    // Reuse off: the same reads.
    let off = RunConfig { reuse_runs: false, ..RunConfig::default() };
    let plain = Scorer::new(off).run_test_file(&tree, "t.py", PER_METHOD);
    assert_eq!(plain, changed);
    // The JSON of a result carries them; a method without reads leaves the field out.
    let json = serde_json::to_value(&changed).expect("json");
    assert_eq!(json[1]["reads"], serde_json::json!(["shop/config.py", "shop/money.py"]));
    assert!(json[3].get("reads").is_none());
}
