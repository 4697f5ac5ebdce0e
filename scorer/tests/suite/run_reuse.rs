//! A `Scorer` reuses a remembered run only when the new tree answers every question that run asked
//! the same way: the verdicts always equal a fresh, interpreting run's.

use scorer::report::TestOutcome;
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

const TEST: &str = r#"import ast
import os
import unittest


class Probe(unittest.TestCase):
    def setUp(self):
        with open("../pkg/a.py") as f:
            self.tree = ast.parse(f.read())

    def test_f_is_defined(self):
        names = [n.name for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef)]
        self.assertIn("f", names)

    def test_no_new_module(self):
        self.assertFalse(os.path.exists("../pkg/new.py"))

    def test_listing(self):
        self.assertEqual(sorted(os.listdir("../pkg")), ["a.py", "b.py"])

    def test_docs_walk(self):
        found = []
        for root, dirs, files in os.walk("../docs"):
            found.extend(files)
        self.assertEqual(found, ["x.md"])
"#;

fn tree(files: &[(&str, &str)]) -> Tree {
    let mut t = Tree::new();
    for (p, c) in files {
        t.insert_bytes(p, c.as_bytes().to_vec()).expect("valid path");
    }
    t
}

fn fresh(t: &Tree) -> Vec<TestOutcome> {
    Scorer::new(RunConfig { reuse_runs: false, ..RunConfig::default() }).run_test_file(
        t,
        "probe-test.py",
        TEST,
    )
}

#[test]
fn reuse_happens_exactly_when_every_answer_is_the_same() {
    let base: &[(&str, &str)] = &[
        ("pkg/a.py", "def f():\n    pass\n"),
        ("pkg/b.py", "X = 1\n"),
        ("docs/x.md", "# x\n"),
        ("other/z.py", "Z = 1\n"),
    ];
    let with = |path: &str, content: Option<&str>| -> Tree {
        let mut files: Vec<(&str, &str)> =
            base.iter().copied().filter(|(p, _)| *p != path).collect();
        let owned;
        if let Some(c) = content {
            owned = (path.to_string(), c.to_string());
            files.push((owned.0.as_str(), owned.1.as_str()));
            return tree(&files);
        }
        tree(&files)
    };
    // (tree, whether the run may be reused from an earlier one)
    let cases: Vec<(&str, Tree, bool)> = vec![
        ("base", tree(base), false),
        ("unread file changed", with("other/z.py", Some("Z = 2\n")), true),
        ("same bytes, new allocation", tree(base), true),
        ("listed but unread file changed", with("pkg/b.py", Some("X = 2\n")), true),
        ("read file changed", with("pkg/a.py", Some("def g():\n    pass\n")), false),
        ("probed file added", with("pkg/new.py", Some("")), false),
        ("listed file removed", with("pkg/b.py", None), false),
        ("walked folder gains a file", with("docs/y.md", Some("")), false),
        ("read file changed back", with("pkg/a.py", Some("def f():\n    pass\n")), true),
    ];
    let mut scorer = Scorer::new(RunConfig::default());
    let mut reused = 0;
    for (what, t, reusable) in &cases {
        let got = scorer.run_test_file(t, "probe-test.py", TEST);
        assert_eq!(got, fresh(t), "{what}: verdicts differ from a fresh run");
        if *reusable {
            reused += 1;
        }
        assert_eq!(scorer.reused_runs(), reused, "{what}: reuse count");
    }
    // The cases really exercise different verdicts, not one answer throughout.
    let distinct: std::collections::BTreeSet<String> =
        cases.iter().map(|(_, t, _)| format!("{:?}", fresh(t))).collect();
    assert!(distinct.len() >= 4, "{distinct:?}");
}

#[test]
fn another_file_name_is_another_run() {
    let t = tree(&[("pkg/a.py", "def f():\n    pass\n"), ("pkg/b.py", "")]);
    let mut scorer = Scorer::new(RunConfig::default());
    scorer.run_test_file(&t, "probe-test.py", TEST);
    scorer.run_test_file(&t, "other-test.py", TEST);
    assert_eq!(scorer.reused_runs(), 0);
    scorer.run_test_file(&t, "other-test.py", TEST);
    assert_eq!(scorer.reused_runs(), 1);
}

const LINK_TEST: &str = r#"import os
import unittest


class Links(unittest.TestCase):
    def test_read_through_link(self):
        with open("../links/cur") as f:
            self.assertEqual(f.read(), "A\n")

    def test_is_link(self):
        self.assertTrue(os.path.islink("../links/cur"))

    def test_folder_link(self):
        self.assertFalse(os.path.exists("../links/dir/new.py"))
"#;

/// Resolution through symbolic links is part of what a run observed: a link's target, a link
/// turned into a file, the target's bytes and a file appearing behind a linked folder each change
/// an answer, so the run is not reused; a change nothing resolved through leaves it reusable.
#[test]
fn reuse_sees_through_symbolic_links() {
    let make = |target: Option<&str>, dir_target: &str, extra: &[(&str, &str)]| -> Tree {
        let mut t = tree(&[("pkg/a.py", "A\n"), ("pkg/b.py", "B\n"), ("other/z.py", "Z = 1\n")]);
        for (p, c) in extra {
            t.insert_bytes(p, c.as_bytes().to_vec()).expect("valid path");
        }
        match target {
            Some(target) => t.insert_symlink("links/cur", target).expect("valid path"),
            None => t.insert_bytes("links/cur", b"A\n".to_vec()).expect("valid path"),
        }
        t.insert_symlink("links/dir", dir_target).expect("valid path");
        t
    };
    let fresh_links = |t: &Tree| {
        Scorer::new(RunConfig { reuse_runs: false, ..RunConfig::default() }).run_test_file(
            t,
            "links-test.py",
            LINK_TEST,
        )
    };
    let a = Some("../pkg/a.py");
    let cases: Vec<(&str, Tree, bool)> = vec![
        ("base", make(a, "../pkg", &[]), false),
        ("unrelated file changed", make(a, "../pkg", &[("other/z.py", "Z = 2\n")]), true),
        ("link retargeted", make(Some("../pkg/b.py"), "../pkg", &[]), false),
        ("link back to the first target", make(a, "../pkg", &[]), true),
        ("link replaced by a file with the target's bytes", make(None, "../pkg", &[]), false),
        ("target's bytes changed", make(a, "../pkg", &[("pkg/a.py", "changed\n")]), false),
        ("file appears behind the linked folder", make(a, "../pkg", &[("pkg/new.py", "")]), false),
        ("folder link retargeted", make(a, "../other", &[]), false),
        ("folder link dangling", make(a, "../gone", &[]), false),
        ("same as base again", make(a, "../pkg", &[]), true),
    ];
    let mut scorer = Scorer::new(RunConfig::default());
    let mut reused = 0;
    for (what, t, reusable) in &cases {
        let got = scorer.run_test_file(t, "links-test.py", LINK_TEST);
        assert_eq!(got, fresh_links(t), "{what}: verdicts differ from a fresh run");
        if *reusable {
            reused += 1;
        }
        assert_eq!(scorer.reused_runs(), reused, "{what}: reuse count");
    }
    let distinct: std::collections::BTreeSet<String> =
        cases.iter().map(|(_, t, _)| format!("{:?}", fresh_links(t))).collect();
    assert!(distinct.len() >= 4, "{distinct:?}");
}
