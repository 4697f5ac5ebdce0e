//! Limits and hostile input: every run ends with verdicts, never a panic or a hang.

use scorer::report::Status;
use scorer::tree::{Content, FileEntry, FileMode, RepoPath, Tree};
use scorer::unittest::{RunConfig, Scorer};

fn run(tree: &Tree, src: &str, config: RunConfig) -> Vec<scorer::report::TestOutcome> {
    Scorer::new(config).run_test_file(tree, "limits-test.py", src)
}

#[test]
fn infinite_loop_hits_the_step_budget() {
    let src = "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        while True:\n            pass\n";
    let out = run(&Tree::new(), src, RunConfig { step_budget: 100_000, ..RunConfig::default() });
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].status, Status::Error);
    assert_eq!(out[0].exc_type.as_deref(), Some("StepBudgetExceeded"));
    assert!(matches!(out[0].line, Some(4 | 5)));
}

#[test]
fn huge_allocations_are_memory_errors() {
    let src = "import unittest\nclass T(unittest.TestCase):\n    def test_s(self):\n        'a' * 10**10\n    def test_l(self):\n        list(range(10**12))\n    def test_big(self):\n        2 ** (10 ** 9)\n";
    let out = run(&Tree::new(), src, RunConfig::default());
    assert_eq!(out.len(), 3);
    for o in &out {
        assert_eq!(o.status, Status::Error, "{o:?}");
        assert_eq!(o.exc_type.as_deref(), Some("MemoryError"), "{o:?}");
    }
}

#[test]
fn infinite_recursion_is_a_recursion_error() {
    let src = "import unittest\ndef f(n):\n    return f(n + 1)\nclass T(unittest.TestCase):\n    def test_r(self):\n        f(0)\n";
    let out = run(&Tree::new(), src, RunConfig::default());
    assert_eq!(out[0].exc_type.as_deref(), Some("RecursionError"));
    assert_eq!(out[0].message.as_deref(), Some("maximum recursion depth exceeded"));
    assert_eq!(out[0].line, Some(3));
}

#[test]
fn content_missing_from_the_bundle_is_an_error() {
    let mut tree = Tree::new();
    tree.insert(
        RepoPath::new("pkg/a.py").unwrap(),
        FileEntry { mode: FileMode::Regular, content: Content::BlobOnly("0".repeat(40).into()) },
    );
    let src = "import unittest, os\nclass T(unittest.TestCase):\n    def test_exists(self):\n        self.assertTrue(os.path.exists('../pkg/a.py'))\n    def test_read(self):\n        try:\n            open('../pkg/a.py').read()\n        except Exception:\n            pass\n";
    let out = run(&tree, src, RunConfig::default());
    assert_eq!(out[0].status, Status::Pass);
    assert_eq!(out[1].status, Status::Error);
    assert_eq!(out[1].exc_type.as_deref(), Some("ContentNotInBundle"));
}

#[test]
fn unsupported_constructs_name_themselves() {
    let src = "import unittest\nclass T(unittest.TestCase):\n    def test_m(self):\n        match 1:\n            case 1:\n                pass\n    def test_import(self):\n        import subprocess\n";
    let out = run(&Tree::new(), src, RunConfig::default());
    assert_eq!(out[0].exc_type.as_deref(), Some("UnsupportedConstruct"));
    // Methods run in name order: test_import, then test_m.
    assert!(
        out[1].message.as_deref().unwrap_or("").contains("match statement (line 4)"),
        "{out:?}"
    );
    assert!(out[0].message.as_deref().unwrap_or("").contains("subprocess"), "{out:?}");
}

#[test]
fn parse_cache_shares_identical_files() {
    let mut tree = Tree::new();
    tree.insert_bytes("a.py", b"x = 1\n".to_vec()).unwrap();
    tree.insert_bytes("b.py", b"x = 1\n".to_vec()).unwrap();
    let src = "import unittest, ast\nclass T(unittest.TestCase):\n    def test_a(self):\n        ast.parse(open('../a.py').read())\n    def test_b(self):\n        ast.parse(open('../b.py').read())\n";
    let mut scorer = Scorer::new(RunConfig::default());
    let out = scorer.run_test_file(&tree, "cache-test.py", src);
    assert!(out.iter().all(|o| o.status == Status::Pass), "{out:?}");
    scorer.run_test_file(&tree, "cache-test.py", src);
    assert_eq!(scorer.cached_trees(), 1);
}
