//! Method-level reuse: a `Scorer` answers a test method from a remembered run only when that can
//! not change any verdict. Every run here is compared with a fresh run that interprets
//! everything; the cases either show reuse happening or show each way a method can leave state
//! behind for the next one (which must stop reuse).

use scorer::report::{Status, TestOutcome};
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

const NAMES: &str = r#"import ast
import unittest


def names(path):
    with open(path) as f:
        tree = ast.parse(f.read())
    return [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
"#;

fn tree(files: &[(&str, &str)]) -> Tree {
    let mut t = Tree::new();
    for (p, c) in files {
        t.insert_bytes(p, c.as_bytes().to_vec()).expect("valid path");
    }
    t
}

fn fresh(t: &Tree, source: &str, config: RunConfig) -> Vec<TestOutcome> {
    Scorer::new(RunConfig { reuse_runs: false, ..config }).run_test_file(t, "t-test.py", source)
}

/// Runs `trees` in order through one reusing `Scorer`, checks every run against a fresh one, and
/// gives the number of methods answered from remembered runs.
fn reuse_agrees(source: &str, trees: &[Tree], config: RunConfig) -> usize {
    let mut scorer = Scorer::new(config);
    for (i, t) in trees.iter().enumerate() {
        let got = scorer.run_test_file(t, "t-test.py", source);
        assert_eq!(got, fresh(t, source, config), "tree {i}: verdicts differ from a fresh run");
    }
    scorer.reused_methods()
}

fn base_files() -> Vec<(&'static str, String)> {
    vec![
        ("pkg/a.py", "def f():\n    pass\n".to_string()),
        ("pkg/b.py", "def g():\n    pass\n".to_string()),
        ("pkg/c.py", "def h():\n    pass\n".to_string()),
    ]
}

/// The base files with `path` replaced by `content`.
fn edited(edits: &[(&str, &str)]) -> Tree {
    let files: Vec<(&str, String)> = base_files()
        .into_iter()
        .map(|(p, c)| match edits.iter().find(|(q, _)| *q == p) {
            Some((_, new)) => (p, (*new).to_string()),
            None => (p, c),
        })
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, c)| (*p, c.as_str())).collect();
    tree(&refs)
}

#[test]
fn isolated_methods_that_read_unchanged_files_are_not_run_again() {
    let source = format!(
        "{NAMES}
class Readers(unittest.TestCase):
    def setUp(self):
        self.seen = []

    def test_a(self):
        self.seen.append('a')
        self.assertIn('f', names('../pkg/a.py'))

    def test_b(self):
        self.assertIn('g', names('../pkg/b.py'))

    def test_c(self):
        for want in ['h']:
            with self.subTest(want=want):
                self.assertIn(want, names('../pkg/c.py'))


class WithFixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = names('../pkg/c.py')

    def test_d(self):
        self.assertEqual(self.base, ['h'])

    def test_e(self):
        self.assertIn('f', names('../pkg/a.py'))
"
    );
    let trees = [
        edited(&[]),
        edited(&[("pkg/b.py", "def g2():\n    pass\n")]),
        edited(&[("pkg/a.py", "def f2():\n    pass\n")]),
        edited(&[("pkg/a.py", "def f():\n    return 1\n")]),
        edited(&[("pkg/c.py", "def h2():\n    pass\n")]),
        edited(&[("pkg/b.py", "def g():\n    return 2\n")]),
    ];
    let reused = reuse_agrees(&source, &trees, RunConfig::default());
    // Tree 1: a, c, d, e answered (b reads the edit). Tree 2: b, c, d (a and e read a.py).
    // Tree 3: b, c, d again from tree 0 or 1. Tree 4: c.py is read by a fixture, so all run.
    // Tree 5: a, c, d, e.
    assert_eq!(reused, 4 + 3 + 3 + 4);
    let verdicts: Vec<Status> =
        fresh(&trees[2], &source, RunConfig::default()).iter().map(|t| t.status).collect();
    assert_eq!(verdicts, [Status::Fail, Status::Pass, Status::Pass, Status::Pass, Status::Fail]);
}

/// Each way a method can leave a change behind for the next one. `test_a` makes the change and
/// reads nothing from the tree; `test_b` sees the change and reads `pkg/b.py`, which the later
/// trees edit. If the change went unnoticed, `test_a` would be answered from the first run, skip
/// its change, and `test_b` would fail where a fresh run passes.
#[test]
fn a_method_that_changes_what_others_see_stops_reuse() {
    // (what, module-level set-up, test_a's change, test_b's check)
    let cases: &[(&str, &str, &str, &str)] = &[
        ("list append", "L = []", "L.append(1)", "L == [1]"),
        ("list sort", "L = [3, 1, 2]", "L.sort()", "L == [1, 2, 3]"),
        ("dict item", "D = {}", "D['k'] = 1", "D == {'k': 1}"),
        ("set add", "S = set()", "S.add(1)", "S == {1}"),
        ("global rebind", "N = 0", "global N\n        N = 1", "N == 1"),
        (
            "global delete",
            "N = 0\ndef has_n():\n    try:\n        N\n    except NameError:\n        return False\n    return True",
            "global N\n        del N",
            "not has_n()",
        ),
        ("class attribute", "", "type(self).flag = 1", "getattr(type(self), 'flag', 0) == 1"),
        ("instance attribute", "class Box:\n    pass\nBOX = Box()", "BOX.v = 1", "getattr(BOX, 'v', 0) == 1"),
        ("function attribute", "def helper():\n    pass", "helper.calls = 1", "getattr(helper, 'calls', 0) == 1"),
        (
            "closure cell",
            "def make():\n    n = 0\n    def inc():\n        nonlocal n\n        n += 1\n        return n\n    return inc\nINC = make()",
            "INC()",
            "INC() == 2",
        ),
        ("iterator", "IT = iter([1, 2, 3])", "next(IT)", "next(IT) == 2"),
        ("generator", "def gen():\n    yield 1\n    yield 2\nG = gen()", "next(G)", "next(G) == 2"),
        ("ast node field", "TREE = ast.parse('x = 1')", "TREE.body[0].targets[0].id = 'y'", "TREE.body[0].targets[0].id == 'y'"),
        ("ast node new attribute", "TREE = ast.parse('x = 1')", "TREE.body[0].parent = TREE", "hasattr(TREE.body[0], 'parent')"),
        ("ast node position", "TREE = ast.parse('x = 1')", "TREE.body[0].lineno = 7", "TREE.body[0].lineno == 7"),
        (
            "shared ast context",
            "",
            "ast.parse('x').body[0].value.ctx.mark = 1",
            "hasattr(ast.parse('y').body[0].value.ctx, 'mark')",
        ),
        (
            "module imported in a method",
            "def marker():\n    import os\n    return getattr(os, 'marker', 0)",
            "import os\n        os.marker = 1",
            "marker() == 1",
        ),
        ("exception arguments", "E = ValueError('x')", "E.args = ('y',)", "E.args == ('y',)"),
        ("open file position", "F = open('../pkg/a.py')", "F.readline()", "F.readline() == '    pass\\n'"),
    ];
    for (what, setup, change, check) in cases {
        let source = format!(
            "{NAMES}
{setup}


class Shared(unittest.TestCase):
    def test_a(self):
        {change}

    def test_b(self):
        self.assertTrue({check})
        self.assertIn('g', names('../pkg/b.py'))
"
        );
        let trees = [
            edited(&[]),
            edited(&[("pkg/b.py", "def g():\n    return 1\n")]),
            edited(&[("pkg/b.py", "def g():\n    return 2\n")]),
        ];
        let first = fresh(&trees[0], &source, RunConfig::default());
        let statuses: Vec<Status> = first.iter().map(|t| t.status).collect();
        assert_eq!(
            statuses,
            [Status::Pass, Status::Pass],
            "{what}: the change is not seen: {first:?}"
        );
        assert_eq!(reuse_agrees(&source, &trees, RunConfig::default()), 0, "{what}");
    }
}

/// A later method that changes shared state does not stop the earlier ones from being reused.
#[test]
fn reuse_stops_at_the_first_method_that_changes_shared_state() {
    let source = format!(
        "{NAMES}
SEEN = []


class Order(unittest.TestCase):
    def test_a(self):
        self.assertIn('f', names('../pkg/a.py'))

    def test_b(self):
        SEEN.append('b')
        self.assertIn('g', names('../pkg/b.py'))

    def test_c(self):
        self.assertEqual(SEEN, ['b'])
"
    );
    let trees = [edited(&[]), edited(&[("pkg/c.py", "")]), edited(&[("pkg/b.py", "")])];
    // Tree 1 is a whole-run reuse (no question changed); tree 2 answers only test_a.
    assert_eq!(reuse_agrees(&source, &trees, RunConfig::default()), 1);
}

/// A reused method still spends its steps: a later method runs out of budget where it would have.
#[test]
fn a_reused_method_spends_the_steps_it_took() {
    let source = format!(
        "{NAMES}
class Budget(unittest.TestCase):
    def test_a(self):
        total = 0
        for i in range(3000):
            total += i
        self.assertTrue(total)

    def test_b(self):
        for name in names('../pkg/b.py'):
            for i in range(len(name) * 1000):
                pass
"
    );
    // b.py's function name sets test_b's work; test_a alone fits in the budget.
    let config = RunConfig { step_budget: 20_000, ..RunConfig::default() };
    let trees = [
        edited(&[("pkg/b.py", "def g():\n    pass\n")]),
        edited(&[("pkg/b.py", "def gggggggggg():\n    pass\n")]),
        edited(&[("pkg/b.py", "def gg():\n    pass\n")]),
    ];
    let statuses: Vec<Vec<Status>> = trees
        .iter()
        .map(|t| fresh(t, &source, config).iter().map(|o| o.status).collect())
        .collect();
    assert_eq!(statuses[0], [Status::Pass, Status::Pass]);
    assert_eq!(statuses[1], [Status::Pass, Status::Error], "test_b must run out of steps");
    assert_eq!(reuse_agrees(&source, &trees, config), 2);
}
