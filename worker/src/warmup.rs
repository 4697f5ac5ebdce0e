//! A built-in scoring job that a worker runs while the page waits for files, so that V8 has
//! compiled the scorer's hot functions with its optimising tier before the first real
//! submission arrives.
//!
//! V8 starts a wasm module in its baseline compiler and recompiles a function only after it has
//! run for a while; on a cold worker that tier-up (compiling the interpreter's large functions)
//! competes with the run for the machine's cores. The job is synthetic (our own module and test
//! file, in the shape of the official AST checks: patch, `ast.parse`, `ast.walk`, `isinstance`,
//! attribute and name checks, `any(...)`), runs on a scorer of its own that is dropped after, and
//! touches no bundle data: it warms code, never a cache a real run could answer from.

use scorer::evaluate::evaluate;
use scorer::report::TaskResult;
use scorer::tree::Tree;
use scorer::unittest::Scorer;

/// One block of the synthetic module; `<N>` is replaced by the block's number.
const BLOCK: &str = r#"
class Service<N>(BaseService):
    """A service with a few methods (block <N>)."""

    retries = <N>

    def __init__(self, name, *, timeout=None, **options):
        super().__init__(name)
        self.timeout = timeout if timeout is not None else 10
        self.options = {key: value for key, value in options.items() if value}

    @property
    def label(self):
        return f"{self.name}-{self.retries}"

    def run_<N>(self, items, verbose=False):
        results = []
        for index, item in enumerate(items):
            try:
                value = helper_<N>(item, scale=index + 1)
            except (ValueError, KeyError) as exc:
                log.warning("skipped %s: %s", item, exc)
                continue
            if verbose and value > 3:
                results.append((index, value))
        return [v for _, v in results if v % 2 == 0]


def helper_<N>(item, scale=1):
    if isinstance(item, (list, tuple)):
        return sum(helper_<N>(x, scale) for x in item)
    with open_context(item) as handle:
        data = handle.read().strip().split(",")
    return len(data) * scale + <N>
"#;

/// How many blocks the module has (about 40 KB of source).
const BLOCKS: usize = 40;

/// The test file: the official tests' shape, some methods passing, some failing.
const TEST: &str = r#"import ast
import os
import unittest


def parse(path):
    with open(path, 'r') as f:
        return ast.parse(f.read())


class TestWarmUp(unittest.TestCase):

    def test_module_exists(self):
        self.assertTrue(os.path.exists('../pkg/core.py'), "core.py missing")
        self.assertFalse(os.path.exists('../pkg/missing.py'))

    def test_classes_and_methods(self):
        tree = parse('../pkg/core.py')
        classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
        self.assertEqual(len(classes), BLOCKS)
        for cls in classes:
            names = [f.name for f in cls.body if isinstance(f, ast.FunctionDef)]
            self.assertIn('__init__', names, f"{cls.name} has no __init__")
            self.assertTrue(any(isinstance(d, ast.Name) and d.id == 'property'
                                for f in cls.body if isinstance(f, ast.FunctionDef)
                                for d in f.decorator_list))

    def test_helper_calls(self):
        tree = parse('../pkg/core.py')
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id.startswith('helper_') and any(k.arg == 'scale' for k in node.keywords):
                    found = True
                    break
        self.assertTrue(found, "no helper call with scale=")

    def test_attributes_and_strings(self):
        tree = parse('../pkg/core.py')
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        self.assertIn('warning', attrs)
        strings = [n.value for n in ast.walk(tree)
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        self.assertGreater(len(strings), BLOCKS)
        self.assertIn('skipped %s: %s', strings)

    def test_imports_fail(self):
        tree = parse('../pkg/core.py')
        imports = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                   for a in n.names]
        self.assertIn('BaseService', imports)
        self.assertEqual(imports, ['nothing'], "the warm-up's failing method")

    def test_dump_and_segments(self):
        source = open('../pkg/core.py').read()
        tree = ast.parse(source)
        fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == 'helper_0')
        self.assertIn('helper_0', ast.get_source_segment(source, fn))
        self.assertTrue(ast.dump(fn.args).startswith('arguments('))


if __name__ == '__main__':
    unittest.main()
"#;

/// The synthetic module's source.
fn module() -> String {
    let mut s = String::from(
        "\"\"\"The warm-up's module.\"\"\"\nimport logging\n\nfrom .base import BaseService, open_context\n\nlog = logging.getLogger(__name__)\n",
    );
    for n in 0..BLOCKS {
        s.push_str(&BLOCK.replace("<N>", &n.to_string()));
    }
    s
}

/// A touch patch: one comment line appended to `path`, whose last three lines are `tail`.
fn touch_patch(path: &str, lines: usize, tail: &[&str], round: usize) -> String {
    let start = lines + 1 - tail.len();
    let mut p = format!(
        "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -{start},{} +{start},{} @@\n",
        tail.len(),
        tail.len() + 1
    );
    for l in tail {
        p.push(' ');
        p.push_str(l);
        p.push('\n');
    }
    p.push_str(&format!("+# warm-up round {round}\n"));
    p
}

/// Runs the warm-up job `rounds` times on a scorer of its own; the results (checked by the
/// tests) are returned.
pub fn run(scorer: &mut Scorer, rounds: usize) -> Vec<TaskResult> {
    let source = module();
    let lines: Vec<&str> = source.lines().collect();
    let tail = &lines[lines.len().saturating_sub(3)..];
    let mut base = Tree::new();
    let test = TEST.replace("BLOCKS", &BLOCKS.to_string());
    for (path, bytes) in [
        ("pkg/core.py", source.as_bytes()),
        ("pkg/__init__.py", b"".as_slice()),
        ("refactorbench_eval/.keep", b"".as_slice()),
    ] {
        // Fixed, valid paths: cannot fail.
        let _ = base.insert_bytes(path, bytes);
    }
    (0..rounds)
        .map(|round| {
            let patch = touch_patch("pkg/core.py", lines.len(), tail, round);
            evaluate(scorer, "warm-up", &base, "warm-up-test.py", &test, patch.as_bytes())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scorer::patch::PatchStatus;
    use scorer::report::Status;

    /// The warm-up runs what a real submission runs: the patch applies, every method runs, five
    /// pass and the one meant to fail fails (so failure reporting is warmed too).
    #[test]
    fn warm_up_applies_and_runs_every_method() {
        let mut scorer = Scorer::new(crate::worker_run_config());
        let results = run(&mut scorer, 2);
        assert_eq!(results.len(), 2);
        for r in results {
            assert_eq!(r.patch_status, PatchStatus::Applied, "{:?}", r.patch_error);
            let statuses: Vec<(String, Status)> =
                r.tests.iter().map(|t| (t.id.clone(), t.status)).collect();
            assert_eq!(r.subtests_total, 6, "{statuses:?}");
            assert_eq!(r.subtests_passed, 5, "{statuses:?}");
            let failed: Vec<&str> = r
                .tests
                .iter()
                .filter(|t| t.status != Status::Pass)
                .map(|t| t.id.as_str())
                .collect();
            assert_eq!(failed, ["TestWarmUp.test_imports_fail"], "{statuses:?}");
        }
    }
}
