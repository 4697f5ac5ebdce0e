//! The stack guard follows `RunConfig::stack_budget`: CPython's 1000 frames fit when the caller
//! gives the interpreter a big stack, and the default still stops deep recursion cleanly.

use scorer::report::Status;
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

const SRC: &str = "import unittest\ndef f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nclass T(unittest.TestCase):\n    def test_deep(self):\n        self.assertEqual(f(950), 950)\n";

#[test]
fn a_thousand_frames_fit_in_a_big_budget() {
    let out = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let config = RunConfig { stack_budget: 128 << 20, ..RunConfig::default() };
            Scorer::new(config).run_test_file(&Tree::new(), "stack-test.py", SRC)
        })
        .expect("spawn")
        .join()
        .expect("join");
    assert_eq!(out[0].status, Status::Pass, "{out:?}");
}

#[test]
fn a_small_budget_is_a_recursion_error() {
    let config = RunConfig { stack_budget: 64 << 10, ..RunConfig::default() };
    let out = Scorer::new(config).run_test_file(&Tree::new(), "stack-test.py", SRC);
    assert_eq!(out[0].exc_type.as_deref(), Some("RecursionError"), "{out:?}");
}
