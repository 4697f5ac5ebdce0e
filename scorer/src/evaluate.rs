//! One evaluation: a submission's patch applied to a task's base tree, then the task's unittest file
//! run against the result. This is the whole pipeline the CLI and the browser worker share.

use crate::patch::{self, ApplyOptions, PatchStatus};
use crate::report::{Status, TaskResult};
use crate::tree::Tree;
use crate::unittest::Scorer;

/// Scores `patch` (possibly empty) for one task with the official rule: strict `git apply`; when it
/// fails (the patch does not parse or does not apply) no test runs and the task is unresolved,
/// with git's message; otherwise resolved iff at least one method ran and every method passed.
/// A failed result's `subtests_total` is 0 here: [`evaluate_submission`], which
/// knows the task, sets it to the task's method count.
pub fn evaluate(
    scorer: &mut Scorer,
    instance_id: &str,
    base: &Tree,
    test_file_name: &str,
    test_source: &str,
    patch: &[u8],
) -> TaskResult {
    let applied = patch::apply(base, patch, &ApplyOptions::default());
    if applied.status == PatchStatus::Failed {
        return TaskResult {
            instance_id: instance_id.to_string(),
            model_name_or_path: None,
            instruction_set: None,
            source: None,
            patch_status: applied.status,
            patch_error: applied.reason,
            files: applied.files,
            resolved: false,
            subtests_passed: 0,
            subtests_total: 0,
            tests: Vec::new(),
        };
    }
    let tests = scorer.run_test_file(&applied.tree, test_file_name, test_source);
    let passed = tests.iter().filter(|t| t.status == Status::Pass).count();
    TaskResult {
        instance_id: instance_id.to_string(),
        model_name_or_path: None,
        instruction_set: None,
        source: None,
        patch_status: applied.status,
        patch_error: None,
        files: applied.files,
        resolved: !tests.is_empty() && passed == tests.len(),
        subtests_passed: u32::try_from(passed).unwrap_or(u32::MAX),
        subtests_total: u32::try_from(tests.len()).unwrap_or(u32::MAX),
        tests,
    }
}

/// Scores one submission against a task: the one rule the CLI and the worker share. Every
/// submission gives a [`TaskResult`] carrying its model, instruction set and source. A patch that
/// `git apply` refuses, whether it does not parse (git's "corrupt patch at line N", "patch with
/// only garbage"…) or does not apply, is a `failed` result with git's message: as in the official
/// harness the task was attempted, no test ran, and every method of the task counts as not passed
/// (`subtests_total` is the number of methods the task's test file defines).
pub fn evaluate_submission(
    scorer: &mut crate::unittest::Scorer,
    base: &crate::tree::Tree,
    task: &crate::bundle::TaskData,
    submission: &crate::submission::Submission,
) -> crate::report::TaskResult {
    let r = crate::evaluate::evaluate(
        scorer,
        &submission.instance_id,
        base,
        &task.test.name,
        &task.test.source,
        &submission.patch,
    );
    finish_result(r, task, submission)
}

/// The end of [`evaluate_submission`], shared with combined tasks: a failed patch counts every
/// method of `task` as not passed, and the result carries the submission's model, instruction
/// set and source.
pub(crate) fn finish_result(
    mut r: crate::report::TaskResult,
    task: &crate::bundle::TaskData,
    submission: &crate::submission::Submission,
) -> crate::report::TaskResult {
    if r.patch_status == crate::patch::PatchStatus::Failed {
        r.subtests_total = u32::try_from(task.methods.len()).unwrap_or(u32::MAX);
    }
    r.model_name_or_path = submission.model_name_or_path.clone();
    r.instruction_set = submission.instruction_set;
    r.source = Some(submission.source.clone());
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unittest::RunConfig;

    const TEST: &str = r#"import ast, unittest
class T(unittest.TestCase):
    def test_renamed(self):
        with open('../pkg/mod.py') as f:
            tree = ast.parse(f.read())
        names = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        self.assertIn('new_name', names)
"#;

    fn base() -> Tree {
        let mut t = Tree::new();
        t.insert_bytes("pkg/mod.py", b"def old_name():\n    return 1\n".to_vec()).unwrap();
        t
    }

    #[test]
    fn empty_patch_runs_the_tests_on_the_base() {
        let r = evaluate(&mut Scorer::new(RunConfig::default()), "t", &base(), "t.py", TEST, b"");
        assert_eq!(r.patch_status, PatchStatus::None);
        assert_eq!((r.subtests_passed, r.subtests_total, r.resolved), (0, 1, false));
        assert_eq!(r.tests[0].message.as_deref(), Some("'new_name' not found in ['old_name']"));
    }

    #[test]
    fn solving_patch_resolves_and_failing_patch_runs_nothing() {
        let good = b"--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def old_name():\n+def new_name():\n     return 1\n";
        let r = evaluate(&mut Scorer::new(RunConfig::default()), "t", &base(), "t.py", TEST, good);
        assert_eq!(
            (r.patch_status, r.resolved, r.subtests_passed),
            (PatchStatus::Applied, true, 1)
        );

        let bad = b"--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def other():\n+def new_name():\n     return 1\n";
        let r = evaluate(&mut Scorer::new(RunConfig::default()), "t", &base(), "t.py", TEST, bad);
        assert_eq!((r.patch_status, r.resolved, r.tests.len()), (PatchStatus::Failed, false, 0));
        assert!(r.patch_error.is_some_and(|e| e.contains("pkg/mod.py")));
    }
}
