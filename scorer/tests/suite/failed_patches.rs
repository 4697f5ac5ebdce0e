//! A patch `git apply` refuses, whether it cannot be parsed (a truncated agent patch, a header
//! with no hunks) or does not apply (a hunk overrunning the file), is a task attempted and not
//! resolved, as in the official harness: a `failed` result that counts in the summary, every
//! breakdown, the comparison of runs and the CSV, with zero of the task's methods passed.

use scorer::bundle::{Instructions, TaskData, TestFile};
use scorer::patch::PatchStatus;
use scorer::report::{InstructionSet, Report, SourceRef, TaskResult};
use scorer::stats::{compare, run_stats, TaskMeta};
use scorer::submission::{evaluate_submission, parse_submissions};
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

const TEST: &str = r#"import ast, unittest
class T(unittest.TestCase):
    def test_renamed(self):
        with open('../m.py') as f:
            names = [n.name for n in ast.walk(ast.parse(f.read())) if isinstance(n, ast.FunctionDef)]
        self.assertIn('new', names)
    def test_kept(self):
        with open('../m.py') as f:
            self.assertIn('return 1', f.read())
"#;

fn task() -> (Tree, TaskData) {
    let mut base = Tree::new();
    base.insert_bytes("m.py", b"def old():\n    return 1\n".to_vec()).unwrap();
    let data = TaskData {
        schema_version: 1,
        id: "rename-old".into(),
        repo: "demo_refactor".into(),
        instructions: Instructions {
            lazy: String::new(),
            base: String::new(),
            descriptive: String::new(),
        },
        test: TestFile { name: "t.py".into(), path: "tests/t.py".into(), source: TEST.into() },
        methods: vec!["T.test_kept".into(), "T.test_renamed".into()],
        inspected: Vec::new(),
        files: Vec::new(),
        combined: None,
    };
    (base, data)
}

const SOLVE: &str =
    "--- a/m.py\\n+++ b/m.py\\n@@ -1,2 +1,2 @@\\n-def old():\\n+def new():\\n     return 1\\n";

/// One predictions line per patch, in the `lazy` instruction set.
fn predictions(patches: &[&str]) -> Vec<u8> {
    patches
        .iter()
        .map(|p| {
            format!(
                "{{\"instance_id\": \"rename-old\", \"model_name_or_path\": \"m\", \"instruction_set\": \"lazy\", \"model_patch\": \"{p}\"}}\n"
            )
        })
        .collect::<String>()
        .into_bytes()
}

fn score(file: &[u8]) -> Report {
    let (base, data) = task();
    let mut parsed = parse_submissions("preds.jsonl", file);
    parsed.retain_known(|id| id == "rename-old");
    let mut scorer = Scorer::new(RunConfig::default());
    let results: Vec<TaskResult> = parsed
        .submissions
        .iter()
        .map(|s| evaluate_submission(&mut scorer, &base, &data, s))
        .collect();
    Report::new("h", results, parsed.errors)
}

#[test]
fn refused_patches_count_as_attempted_and_unresolved_everywhere() {
    let truncated = "--- a/m.py\\n+++ b/m.py\\n@@ -1,2 +1,2 @@\\n-def old():\\n";
    let no_hunks = "diff --git a/m.py b/m.py\\n--- a/m.py\\n+++ b/m.py\\n";
    let overrun = "--- a/m.py\\n+++ b/m.py\\n@@ -1,4 +1,4 @@\\n-def old():\\n+def new():\\n     return 1\\n x\\n y\\n";
    let mut file = predictions(&[SOLVE, truncated, no_hunks, overrun]);
    file.extend_from_slice(
        b"{\"instance_id\": \"no-such-task\", \"model_patch\": \"\"}\nnot json\n",
    );
    let report = score(&file);

    // Git's messages, as `git apply` prints them after "error: ".
    let rows: Vec<(PatchStatus, bool, u32, u32, Option<&str>)> = report
        .results
        .iter()
        .map(|r| {
            (
                r.patch_status,
                r.resolved,
                r.subtests_passed,
                r.subtests_total,
                r.patch_error.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (PatchStatus::Applied, true, 2, 2, None),
            (PatchStatus::Failed, false, 0, 2, Some("corrupt patch at line 5")),
            (PatchStatus::Failed, false, 0, 2, Some("patch with only garbage at line 4")),
            (PatchStatus::Failed, false, 0, 2, Some("patch failed: m.py:1")),
        ]
    );
    assert!(report.results.iter().all(|r| r.instruction_set == Some(InstructionSet::Lazy)));
    assert_eq!(
        report.results[1].source,
        Some(SourceRef { file: "preds.jsonl".into(), line: Some(2) })
    );
    // Only the unreadable entries are errors.
    let lines: Vec<Option<u32>> = report.errors.iter().map(|e| e.source.line).collect();
    assert_eq!(lines, vec![Some(5), Some(6)]);

    let s = &report.summary;
    assert_eq!((s.submitted_instances, s.completed_instances), (5, 4));
    assert_eq!((s.resolved_instances, s.unresolved_instances), (1, 3));
    assert_eq!((s.patch_failed_instances, s.error_instances), (3, 1));
    assert_eq!(s.error_ids, vec!["no-such-task"]);

    let meta = [TaskMeta::from_task(&task().1)];
    let stats = run_stats(&report, &meta);
    for tally in [
        &stats.overall,
        &stats.by_repo[0].tally,
        &stats.by_instruction_set[0].tally,
        &stats.by_model[0].tally,
        &stats.by_inspected_files[0].tally,
    ] {
        assert_eq!((tally.results, tally.resolved, tally.patch_failed), (4, 1, 3));
        assert_eq!((tally.subtests_passed, tally.subtests_total), (2, 8));
        assert_eq!(tally.resolved_pct, Some(25.0));
    }
    let kinds: Vec<(&str, u32)> =
        stats.patch_failures.iter().map(|f| (f.kind.as_str(), f.count)).collect();
    assert_eq!(kinds, vec![("malformed patch", 2), ("hunk does not apply", 1)]);
    assert_eq!(stats.entry_errors, 2);

    // Against a run where the same entries solve the task: a failed patch lost the task.
    let before = score(&predictions(&[SOLVE]));
    let c = compare(&before, &report);
    assert_eq!((c.common, c.resolved_before, c.resolved_after), (1, 1, 1));
    let after_solve = score(&predictions(&[truncated]));
    let c = compare(&before, &after_solve);
    assert_eq!((c.resolved_before, c.resolved_after, c.lost.len()), (1, 0, 1));
    assert_eq!(c.subtest_deltas.len(), 2);
    assert!(c.subtest_deltas.iter().all(|d| d.after.is_none()));

    let csv = report.to_csv(&meta);
    assert!(
        csv.contains(
            "rename-old,demo_refactor,m,lazy,preds.jsonl:2,failed,false,0,2,corrupt patch at line 5\n"
        ),
        "{csv}"
    );
    assert_eq!(csv.lines().filter(|l| l.contains(",failed,")).count(), 3, "{csv}");
    assert_eq!(csv.lines().filter(|l| l.contains(",entry_error,")).count(), 2, "{csv}");
}
