//! One trajectory that shows each failure mode and one that does not, built in the model types.

use super::*;
use crate::patch::PatchStatus;
use crate::report::{TaskResult, TestOutcome};
use crate::trajectory::analysis::analyse;
use crate::trajectory::model::{Confidence, LineRange, Step, ToolCall};

fn step(i: usize, action: &str, obs: &str) -> Step {
    Step { index: i, action: Some(action.into()), observation: Some(obs.into()), ..Step::default() }
}

fn edit_step(i: usize, op: EditOp, obs: &str) -> Step {
    let mut s = step(i, &format!("edit {}", op.path), obs);
    s.edits.push(op);
    s
}

fn op(path: &str, kind: EditKind, status: EditStatus) -> EditOp {
    let mut o = EditOp::new(path.into(), kind, "edit", Confidence::Derived);
    o.status = status;
    o
}

fn lines(mut o: EditOp, a: u32, b: u32, text: &str) -> EditOp {
    o.lines_before = Some(LineRange { start: a, end: b });
    o.new_text = Some(text.into());
    o
}

fn replace(mut o: EditOp, old: &str, new: &str) -> EditOp {
    o.old_text = Some(old.into());
    o.new_text = Some(new.into());
    o
}

fn rejected(reason: RejectReason) -> EditStatus {
    EditStatus::Rejected { reason, message: String::new() }
}

const APPLIED: EditStatus = EditStatus::Applied;

fn traj(steps: Vec<Step>, submission: Option<&str>, exit: &str) -> Trajectory {
    Trajectory {
        steps,
        submission: submission.map(str::to_string),
        exit_status: Some(exit.into()),
        ..Trajectory::default()
    }
}

fn patch_of(paths: &[&str]) -> String {
    paths.iter().map(|p| format!("--- a/{p}\n+++ b/{p}\n@@ -1 +1 @@\n-a\n+b\n")).collect()
}

fn outcome(id: &str, status: Status, reads: &[&str]) -> TestOutcome {
    TestOutcome {
        id: id.into(),
        status,
        exc_type: None,
        message: None,
        line: None,
        reads: reads.iter().map(|r| r.to_string()).collect(),
    }
}

fn result(tests: Vec<TestOutcome>) -> TaskResult {
    let passed = tests.iter().filter(|t| t.status == Status::Pass).count() as u32;
    TaskResult {
        instance_id: "task".into(),
        model_name_or_path: None,
        instruction_set: None,
        source: None,
        patch_status: PatchStatus::Applied,
        patch_error: None,
        files: Vec::new(),
        resolved: passed as usize == tests.len(),
        subtests_passed: passed,
        subtests_total: tests.len() as u32,
        tests,
    }
}

fn task(pristine: Vec<TestOutcome>, fin: Vec<TestOutcome>) -> TaskContext {
    TaskContext {
        instance_id: "task".into(),
        pristine_result: Some(result(pristine)),
        final_result: Some(result(fin)),
        ..TaskContext::default()
    }
}

fn run(t: &Trajectory, ctx: Option<&TaskContext>) -> Detection {
    let states = crate::trajectory::sigma::edit_state(t);
    detect(t, ctx, &states, Thresholds::default())
}

fn rules(d: &Detection, id: &str) -> Vec<String> {
    d.failure_modes.iter().filter(|m| m.id == id).map(|m| m.rule.clone()).collect()
}

fn the<'d>(d: &'d Detection, id: &str, rule: &str) -> &'d FailureMode {
    d.failure_modes
        .iter()
        .find(|m| m.id == id && m.rule == rule)
        .unwrap_or_else(|| panic!("no {id}/{rule} in {:#?}", d.failure_modes))
}

/// T.a and T.b check changes (fail on pristine), T.c passes there.
fn three_tests(final_a: Status, final_b: Status) -> TaskContext {
    task(
        vec![
            outcome("T.a", Status::Fail, &["pkg/a.py"]),
            outcome("T.b", Status::Error, &["pkg/b.py"]),
            outcome("T.c", Status::Pass, &["pkg/c.py"]),
        ],
        vec![
            outcome("T.a", final_a, &["pkg/a.py"]),
            outcome("T.b", final_b, &["pkg/b.py", "pkg/b2.py"]),
            outcome("T.c", Status::Pass, &["pkg/c.py"]),
        ],
    )
}

#[test]
fn fm1_untouched_target() {
    let steps = vec![
        step(0, "cat pkg/a.py", "x = 1"),
        edit_step(1, lines(op("pkg/b.py", EditKind::Replace, APPLIED), 1, 1, "y\n"), "ok"),
    ];
    let t = traj(steps.clone(), Some(&patch_of(&["pkg/b.py"])), "submitted");
    let ctx = three_tests(Status::Fail, Status::Pass);
    let d = run(&t, Some(&ctx));
    let m = the(&d, "untouched_target", "untouched_target_failure");
    assert_eq!(m.tests, ["T.a"]);
    assert!(m.detail.contains("pkg/a.py: seen_not_edited"), "{}", m.detail);
    assert_eq!(m.steps, [0]);
    assert_eq!(m.interpretation.as_ref().map(|i| i.id.as_str()), Some("fm1.reads_as_targets"));
    let f = &d.facts;
    assert_eq!((f.change_checking, f.change_checking_failing), (2, 1));
    assert_eq!((f.untouched, f.untouched_failing), (1, 1));
    assert_eq!(d.primary.as_deref(), Some("untouched_target"));
    // The patch touches both targets: T.a still fails, but not for want of touching its file.
    let t = traj(steps, Some(&patch_of(&["pkg/a.py", "pkg/b.py"])), "submitted");
    let d = run(&t, Some(&ctx));
    assert!(rules(&d, "untouched_target").is_empty());
    assert_eq!(d.facts.untouched_failing, 0);
    assert_eq!(d.primary.as_deref(), Some("incomplete"));
    // A file touched partly (b2.py read too) counts as partially touched.
    assert_eq!(d.facts.partially_touched, 1);
}

#[test]
fn fm1_refines_a_lost_edit_and_a_never_seen_file() {
    let steps =
        vec![edit_step(0, lines(op("pkg/a.py", EditKind::Replace, APPLIED), 1, 1, "y\n"), "ok")];
    // a.py edited but the patch only has c.py; b.py never looked at.
    let t = traj(steps, Some(&patch_of(&["pkg/c.py"])), "submitted");
    let d = run(&t, Some(&three_tests(Status::Fail, Status::Fail)));
    let m = the(&d, "untouched_target", "untouched_target_failure");
    assert_eq!(m.tests, ["T.a", "T.b"]);
    assert!(m.detail.contains("pkg/a.py: edited_then_lost"), "{}", m.detail);
    assert!(m.detail.contains("pkg/b.py: never_seen"), "{}", m.detail);
    assert_eq!(rules(&d, "state_tracking"), ["lost_edit"]);
}

#[test]
fn fm2_edit_error() {
    let bad =
        lines(op("a.py", EditKind::Replace, rejected(RejectReason::LintRejected)), 3, 4, "x\n");
    let good = lines(op("a.py", EditKind::Replace, APPLIED), 3, 4, "y\n");
    let lint = lines(
        op("a.py", EditKind::Replace, EditStatus::AppliedWithLint { errors: vec!["E999".into()] }),
        9,
        9,
        "z\n",
    );
    let t = traj(
        vec![
            step(0, "ls", "a.py"),
            edit_step(1, bad, "Your proposed edit has introduced new syntax error(s)."),
            edit_step(2, good.clone(), "File updated."),
            edit_step(3, lint, "<NOTE>Your edits have been applied, but the linter…</NOTE>"),
        ],
        None,
        "submitted",
    );
    let d = run(&t, None);
    let m = the(&d, "edit_error", "rejected");
    assert_eq!(m.steps, [1, 3]);
    let f = &d.facts;
    assert_eq!((f.edit_steps, f.erroring_edit_steps, f.rejecting_edit_steps), (3, 2, 1));
    assert_eq!(f.first_error_step, Some(1));
    assert_eq!(f.edit_errors_by_kind.get("lint_rejected"), Some(&1));
    assert_eq!(f.edit_errors_by_kind.get("lint_warning_applied"), Some(&1));
    let t = traj(vec![edit_step(0, good, "File updated.")], None, "submitted");
    let d = run(&t, None);
    assert!(rules(&d, "edit_error").is_empty());
    assert_eq!((d.facts.edit_steps, d.facts.erroring_edit_steps), (1, 0));
}

const F821: &str = "Your proposed edit has introduced new syntax error(s). Please read this error \
                    message carefully and then retry editing the file.\n\nERRORS:\n- line 12 col 5: \
                    F821 undefined name 'parse_amount'\n- F821 undefined name 'Money'\n\nYour \
                    changes have NOT been applied.";

#[test]
fn fm3_temporary_error_blocked() {
    let bad = lines(
        op("app.py", EditKind::Replace, rejected(RejectReason::LintRejected)),
        12,
        12,
        "x = parse_amount(Money())\n",
    );
    let later = lines(
        op("util.py", EditKind::Insert, APPLIED),
        1,
        0,
        "def parse_amount(s):\n    return s\n",
    );
    let sub = "--- a/m.py\n+++ b/m.py\n@@ -1 +1,2 @@\n-a\n+from x import (Money)\n+b\n";
    let t = traj(
        vec![edit_step(0, bad.clone(), F821), edit_step(1, later, "File updated.")],
        Some(sub),
        "submitted",
    );
    let d = run(&t, None);
    let m = the(&d, "temporary_error_blocked", "blocked_by_linter");
    assert_eq!(m.steps, [0]);
    assert!(m.detail.contains("Money, parse_amount"), "{}", m.detail);
    // One name is never defined: the edit was not only blocked by the order of edits.
    let t = traj(vec![edit_step(0, bad.clone(), F821)], Some(sub), "submitted");
    assert!(rules(&run(&t, None), "temporary_error_blocked").is_empty());
    // A syntax error besides: not an undefined-name-only rejection.
    let obs = F821.replace("- F821 undefined name 'Money'", "- E999 SyntaxError: invalid syntax");
    let t = traj(vec![edit_step(0, bad, &obs)], Some(sub), "submitted");
    assert!(rules(&run(&t, None), "temporary_error_blocked").is_empty());
}

#[test]
fn fm4_context_flooding() {
    let long = "E".repeat(4000);
    let bad =
        || lines(op("a.py", EditKind::Replace, rejected(RejectReason::LintRejected)), 1, 1, "x\n");
    let steps = vec![
        step(0, "ls", "a.py b.py"),
        edit_step(1, bad(), &long),
        step(2, "open a.py", "short"),
        edit_step(3, bad(), &long),
        edit_step(4, bad(), &long),
    ];
    let t = traj(steps, None, "submitted");
    let d = run(&t, None);
    let m = the(&d, "context_flooding", "error_window");
    assert_eq!(m.steps, [1, 3, 4]);
    assert!(m.detail.contains("(est.)"), "{}", m.detail);
    assert_eq!(d.facts.lint_rejections, 3);
    assert_eq!(d.facts.lint_rejection_tokens, 3000);
    assert_eq!(d.facts.longest_error_run, 2);
    // Same steps, but the error observations are short next to the others.
    let steps = vec![
        step(0, "ls", &long),
        edit_step(1, bad(), "no"),
        step(2, "open a.py", &long),
        edit_step(3, bad(), "no"),
        edit_step(4, bad(), "no"),
    ];
    let d = run(&traj(steps, None, "submitted"), None);
    assert!(rules(&d, "context_flooding").is_empty());
}

#[test]
fn fm4_uses_logged_usage_when_present() {
    let mut steps = vec![step(0, "ls", "x"), step(1, "ls -a", "y"), step(2, "pwd", "z")];
    for (s, (p, c)) in steps.iter_mut().zip([(100, 10), (150, 5), (400, 1)]) {
        s.tokens = Some(crate::trajectory::model::Tokens {
            prompt: Some(p),
            completion: Some(c),
            cached: None,
        });
    }
    let d = run(&traj(steps, None, "submitted"), None);
    // 150 - 100 - 10 = 40 and 400 - 150 - 5 = 245 exact; the last step has no next call.
    assert_eq!(d.facts.observation_tokens, 40 + 245 + 1);
    assert!(!d.facts.tokens_exact);
}

#[test]
fn fm5_same_failed_edit_reissued() {
    let bad =
        lines(op("h.py", EditKind::Replace, rejected(RejectReason::LintRejected)), 287, 295, "x\n");
    let t = traj(
        vec![edit_step(6, bad.clone(), "syntax error"), edit_step(7, bad.clone(), "syntax error")],
        None,
        "submitted",
    );
    let d = run(&t, None);
    assert_eq!(the(&d, "loop", "same_failed_edit_reissued").steps, [6, 7]);
    // The second edit changed its text: a retry, not a loop.
    let mut retry = bad.clone();
    retry.new_text = Some("y\n".into());
    let t = traj(vec![edit_step(6, bad, "e"), edit_step(7, retry, "e")], None, "submitted");
    assert!(rules(&run(&t, None), "loop").is_empty());
}

#[test]
fn fm5_stuck_detector_rules() {
    let same = |n: usize, obs: &dyn Fn(usize) -> String| -> Vec<Step> {
        (0..n).map(|i| step(i, "grep -r foo .", &obs(i))).collect()
    };
    let d = run(&traj(same(4, &|_| "nothing".into()), None, "submitted"), None);
    assert_eq!(the(&d, "loop", "identical_action_observation").steps, [0, 1, 2, 3]);
    let d = run(&traj(same(3, &|_| "nothing".into()), None, "submitted"), None);
    assert!(rules(&d, "loop").is_empty());
    // Identical action, different observations each time, every one an error.
    let mut steps = same(3, &|i| format!("error {i}"));
    for s in &mut steps {
        s.error = Some(crate::trajectory::model::ErrorSignal {
            kind: crate::trajectory::model::ErrorKind::NonZeroExit,
            detail: "1".into(),
        });
    }
    let d = run(&traj(steps, None, "submitted"), None);
    assert_eq!(rules(&d, "loop"), ["identical_action_error"]);
    // A,B alternating over six turns (tool calls compared as canonical JSON).
    let call = |cmd: &str| ToolCall {
        name: "bash".into(),
        arguments: serde_json::json!({"command": cmd, "timeout": 5}),
        ..ToolCall::default()
    };
    let steps: Vec<Step> = (0..6)
        .map(|i| Step {
            index: i,
            tool_calls: vec![call(if i % 2 == 0 { "ls" } else { "pwd" })],
            ..Step::default()
        })
        .collect();
    let d = run(&traj(steps.clone(), None, "submitted"), None);
    assert_eq!(the(&d, "loop", "alternation").steps, [0, 1, 2, 3, 4, 5]);
    assert!(rules(&run(&traj(steps[..5].to_vec(), None, "submitted"), None), "loop").is_empty());
    // Three turns without an action.
    let steps: Vec<Step> =
        (0..3).map(|i| Step { index: i, thought: Some("hmm".into()), ..Step::default() }).collect();
    assert_eq!(rules(&run(&traj(steps, None, "submitted"), None), "loop"), ["monologue"]);
    // The scaffold said so.
    let mut t = traj(Vec::new(), None, "error");
    t.exit_error = Some("AgentStuckInLoopError: Agent got stuck in a loop".into());
    assert!(rules(&run(&t, None), "loop").contains(&"agent_stuck_in_loop".to_string()));
}

#[test]
fn fm6_limit() {
    let sub = patch_of(&["a.py"]);
    let d = run(&traj(vec![step(0, "ls", "")], Some(&sub), "exit_cost"), None);
    assert_eq!(rules(&d, "limit"), ["cost_limit"]);
    assert_eq!(d.facts.exit, "cost_limit");
    let d = run(&traj(vec![step(0, "ls", "")], Some(&sub), "submitted (exit_context)"), None);
    assert_eq!(rules(&d, "limit"), ["auto_submitted_after_limit"]);
    let d = run(&traj(vec![step(0, "ls", "")], Some(""), "Submitted"), None);
    assert_eq!(rules(&d, "limit"), ["no_patch"]);
    let d = run(&traj(vec![step(0, "ls", "")], Some(&sub), "LimitsExceeded"), None);
    assert_eq!(rules(&d, "limit"), ["step_limit"]);
    let d = run(&traj(vec![step(0, "ls", "")], Some(&sub), "submitted"), None);
    assert!(rules(&d, "limit").is_empty());
    assert_eq!(d.facts.patch_files, Some(1));
    // A log with neither an exit status nor a submission field: nothing to say.
    let mut t = traj(vec![step(0, "ls", "")], None, "");
    t.exit_status = None;
    let d = run(&t, None);
    assert!(rules(&d, "limit").is_empty());
    assert_eq!((d.facts.exit.as_str(), d.facts.no_patch), ("unknown", false));
}

#[test]
fn fm7_breadth() {
    let files: Vec<String> = (0..7).map(|i| format!("pkg/m{i}.py")).collect();
    let tests = |status: Status| -> Vec<TestOutcome> {
        files.iter().enumerate().map(|(i, f)| outcome(&format!("T.t{i}"), status, &[f])).collect()
    };
    let ctx = task(tests(Status::Fail), tests(Status::Fail));
    let t = traj(Vec::new(), Some(&patch_of(&["pkg/m0.py", "pkg/m1.py"])), "submitted");
    let d = run(&t, Some(&ctx));
    assert_eq!(rules(&d, "breadth"), ["over_6_files"]);
    assert_eq!((d.facts.breadth, d.facts.breadth_covered), (Some(7), Some(2)));
    // Tests passing on pristine do not count: three change-checking tests read three files.
    let mut pristine = tests(Status::Pass);
    for p in pristine.iter_mut().take(3) {
        p.status = Status::Fail;
    }
    let d = run(&t, Some(&task(pristine, tests(Status::Fail))));
    assert!(rules(&d, "breadth").is_empty());
    assert_eq!(d.facts.breadth, Some(3));
}

#[test]
fn fm8_instruction_set() {
    let mut ctx = three_tests(Status::Fail, Status::Pass);
    ctx.instructions = vec![
        (InstructionSet::Lazy, "Rename  foo\nto bar.".into()),
        (InstructionSet::Base, "Rename the function foo to bar.".into()),
        (InstructionSet::Descriptive, "Rename foo in pkg/a.py to bar.".into()),
    ];
    let mut t = traj(Vec::new(), Some(&patch_of(&["pkg/b.py"])), "submitted");
    t.task = Some("<issue>\nRename foo to bar.\n</issue>".into());
    let d = run(&t, Some(&ctx));
    assert_eq!(d.facts.instruction_set, Some(InstructionSet::Lazy));
    assert_eq!(rules(&d, "instruction_set"), ["untouched_without_location_guidance"]);
    t.task = Some("Rename foo in pkg/a.py to bar.".into());
    let d = run(&t, Some(&ctx));
    assert_eq!(d.facts.instruction_set, Some(InstructionSet::Descriptive));
    assert!(rules(&d, "instruction_set").is_empty());
}

#[test]
fn fm9_state_tracking() {
    let first = replace(op("a.py", EditKind::Replace, APPLIED), "x = 1", "x = 2");
    let again =
        replace(op("a.py", EditKind::Replace, rejected(RejectReason::NoMatch)), "x = 1", "x = 3");
    let revert = replace(op("a.py", EditKind::Replace, APPLIED), "x = 2", "x = 1");
    let t = traj(
        vec![
            edit_step(0, first.clone(), "ok"),
            edit_step(1, again, "did not appear verbatim"),
            edit_step(2, revert, "ok"),
        ],
        None,
        "submitted",
    );
    let d = run(&t, None);
    assert_eq!(the(&d, "state_tracking", "redundant_reedit").steps, [1]);
    assert_eq!(the(&d, "state_tracking", "self_revert").steps, [2]);
    // Line-addressed: 10-10 became three lines, then 20-20 is edited without a look at the file.
    let grow = lines(op("a.py", EditKind::Replace, APPLIED), 10, 10, "a\nb\nc\n");
    let below = lines(op("a.py", EditKind::Replace, APPLIED), 20, 20, "d\n");
    let t = traj(
        vec![edit_step(0, grow.clone(), "File updated."), edit_step(1, below.clone(), "ok")],
        None,
        "submitted",
    );
    assert_eq!(the(&run(&t, None), "state_tracking", "stale_line_edit").steps, [0, 1]);
    // The tool showed the file after the edit: not stale.
    let t = traj(
        vec![edit_step(0, grow, "[File: /repo/a.py (30 lines total)]"), edit_step(1, below, "ok")],
        None,
        "submitted",
    );
    assert!(rules(&run(&t, None), "state_tracking").is_empty());
    let t = traj(vec![edit_step(0, first, "ok")], None, "submitted");
    assert!(rules(&run(&t, None), "state_tracking").is_empty());
}

#[test]
fn fm10_task_style_drift() {
    let mut create = op("reproduce_bug.py", EditKind::Create, APPLIED);
    create.new_text = Some("print(1)\n".into());
    let mut tool = step(2, "", "3 passed");
    tool.action = None;
    tool.tool_calls = vec![ToolCall {
        name: "bash".into(),
        arguments: serde_json::json!({"command": "cd /testbed && python -m pytest tests/test_x.py -q"}),
        ..ToolCall::default()
    }];
    // A heredoc write of a scratch file the patch leaves out: FM-10, not a lost edit.
    let mut scratch = op("notes.txt", EditKind::Rewrite, APPLIED);
    scratch.confidence = Confidence::Heuristic;
    scratch.new_text = Some("n\n".into());
    let mut heredoc = step(1, "python reproduce_bug.py", "1");
    heredoc.edits.push(scratch);
    let t = traj(
        vec![edit_step(0, create, "File created"), heredoc, tool],
        Some(&patch_of(&["pkg/a.py", "tests/test_a.py"])),
        "submitted",
    );
    let ctx = three_tests(Status::Pass, Status::Pass);
    let d = run(&t, Some(&ctx));
    assert_eq!(rules(&d, "task_style_drift"), ["repro_script", "ran_tests", "edited_unread_tests"]);
    assert_eq!(the(&d, "task_style_drift", "ran_tests").steps, [2]);
    let m = the(&d, "task_style_drift", "repro_script");
    assert_eq!(m.steps, [0, 1]);
    assert!(m.detail.contains("notes.txt, reproduce_bug.py"), "{}", m.detail);
    assert!(rules(&d, "state_tracking").is_empty());
    // Running the script is not running the tests, and a test file a task test reads may change.
    let t = traj(
        vec![step(1, "python reproduce_bug.py", "1")],
        Some(&patch_of(&["pkg/a.py"])),
        "submitted",
    );
    assert!(rules(&run(&t, Some(&ctx)), "task_style_drift").is_empty());
}

#[test]
fn run_rates_carry_numerator_denominator_and_groups() {
    let ctx = |set: InstructionSet| {
        let mut c = three_tests(Status::Fail, Status::Pass);
        c.instructions = vec![(set, "Do it.".into())];
        c.repo = Some("repo1".into());
        c
    };
    let mk = |sub: &[&str], bad_edit: bool| {
        let mut steps = vec![step(0, "ls", "")];
        if bad_edit {
            steps.push(edit_step(
                1,
                lines(
                    op("pkg/b.py", EditKind::Replace, rejected(RejectReason::LintRejected)),
                    1,
                    1,
                    "x\n",
                ),
                "err",
            ));
        }
        let mut t = traj(steps, Some(&patch_of(sub)), "submitted");
        t.task = Some("Do it.".into());
        t
    };
    let a = analyse(&mk(&["pkg/b.py"], true), Some(&ctx(InstructionSet::Lazy)));
    let b = analyse(&mk(&["pkg/a.py", "pkg/b.py"], false), Some(&ctx(InstructionSet::Descriptive)));
    let da = Detection { failure_modes: a.failure_modes, facts: a.facts, primary: a.primary };
    let db = Detection { failure_modes: b.failure_modes, facts: b.facts, primary: b.primary };
    let s = summarise_run(&[
        RunEntry { detection: &da, cost_usd: Some(2.0) },
        RunEntry { detection: &db, cost_usd: None },
    ]);
    let rate = |g: &GroupRates, id: &str| {
        g.rates.iter().find(|r| r.id == id).map(|r| (r.n, r.d)).unwrap_or_else(|| panic!("{id}"))
    };
    assert_eq!(rate(&s.overall, "fm1.untouched_of_failing_change_checking"), (1, 2));
    assert_eq!(rate(&s.overall, "fm1.untouched_of_change_checking"), (1, 4));
    assert_eq!(rate(&s.overall, "fm2.edit_error_of_editing"), (1, 1));
    assert_eq!(rate(&s.overall, "fm2.edit_error_of_all"), (1, 2));
    assert_eq!(rate(&s.overall, "resolved"), (0, 2));
    assert_eq!(s.overall.exit_reasons.get("submitted"), Some(&2));
    assert_eq!(s.overall.cost_per_solved_usd, None);
    assert_eq!(
        rate(&s.by_instruction_set["lazy"], "fm1.untouched_of_failing_change_checking"),
        (1, 1)
    );
    assert_eq!(
        rate(&s.by_instruction_set["descriptive"], "fm1.untouched_of_failing_change_checking"),
        (0, 1)
    );
    assert_eq!(s.by_repo["repo1"].trajectories, 2);
    assert!(s.definitions.iter().any(|d| d.id == "fm1.reads_as_targets"));
    assert!(s.overall.mean_tokens_per_lint_rejection.is_some());
    assert_eq!(s.location_guidance_gap["unknown"]["lazy"].gap, 1.0);
    let text = run_summary_text(&s);
    assert!(text.contains("fm1.untouched_of_failing_change_checking"), "{text}");
    assert!(text.contains("1/2 (50.0%)"), "{text}");
    assert!(text.contains("instruction set lazy") && text.contains("repository repo1"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("cost_per_solved") && l.ends_with(" no data")),
        "{text}"
    );
    assert!(
        text.contains("fm8.location_guidance_gap agent unknown, lazy - descriptive over 1 task(s): fm1 1/1 (100.0%) - 0/1 (0.0%) = +100.0 points"),
        "{text}"
    );
    // The serde shape the CLI and the app render round-trips.
    let json = serde_json::to_string(&s).expect("json");
    assert_eq!(serde_json::from_str::<RunFailureSummary>(&json).ok(), Some(s));
}

const LITERAL_TEST: &str = r#"import ast, os, unittest

class T(unittest.TestCase):
    def setUp(self):
        self.base = '../pkg/./sub/../'
        with open('../pkg/sub/../a.py') as f:
            self.a = f.read()

    def test_b(self):
        with open('../docs/../pkg/b.py') as f:
            tree = ast.parse(f.read())
        self.assertTrue(os.path.exists('../utils/iam.py'))

    def test_c(self):
        self.assertIn('x', '../../outside.py')
"#;

/// R(t) takes the `../` literals of the method and its `setUp`, resolved from the test's
/// working directory `<repo>/refactorbench_eval/` (`.`/`..` folded, paths outside dropped).
#[test]
fn fm1_literal_reads_resolve_dot_dot_segments() {
    let r = literal_reads(LITERAL_TEST);
    let b: Vec<&str> = r["T.test_b"].iter().map(String::as_str).collect();
    assert_eq!(b, ["pkg/a.py", "pkg/b.py", "utils/iam.py"]);
    let c: Vec<&str> = r["T.test_c"].iter().map(String::as_str).collect();
    assert_eq!(c, ["pkg/a.py"]);
    assert_eq!(resolve_test_path("../a/./b/../c.py").as_deref(), Some("a/c.py"));
    assert_eq!(resolve_test_path("../../x.py"), None);
    assert_eq!(resolve_test_path("a.py"), None);
}

/// T.test_b failed early in both runs (recorded reads: none). Its literals name pkg/b.py, which
/// the patch touches: not untouched. Without the literals it would be (the bug this fixes).
#[test]
fn fm1_untouched_uses_literal_reads_of_an_early_failing_method() {
    let ctx = |src: Option<&str>| {
        let mut c = task(
            vec![outcome("T.test_b", Status::Error, &[]), outcome("T.test_c", Status::Pass, &[])],
            vec![outcome("T.test_b", Status::Error, &[]), outcome("T.test_c", Status::Pass, &[])],
        );
        c.test_source = src.map(str::to_string);
        c
    };
    let t = traj(Vec::new(), Some(&patch_of(&["pkg/b.py"])), "submitted");
    let d = run(&t, Some(&ctx(Some(LITERAL_TEST))));
    assert!(rules(&d, "untouched_target").is_empty(), "{:#?}", d.failure_modes);
    assert_eq!((d.facts.untouched_failing, d.facts.partially_touched), (0, 1));
    // A patch that touches none of the literal paths shows the mode.
    let t = traj(Vec::new(), Some(&patch_of(&["pkg/other.py"])), "submitted");
    let d = run(&t, Some(&ctx(Some(LITERAL_TEST))));
    assert_eq!(the(&d, "untouched_target", "untouched_target_failure").tests, ["T.test_b"]);
    // Without the test source there is nothing to go on: no reads, no verdict on it.
    let d = run(&t, Some(&ctx(None)));
    assert_eq!(d.facts.untouched_failing, 0);
}

/// The salt `iam-to-aws` path `../utils/iam.py` can never exist (the file is
/// `salt/utils/iam.py`): in salt it is no target, so a patch touching the real targets touches
/// all of them; in another repository the same path counts.
#[test]
fn fm1_ignores_the_salt_iam_path() {
    let ctx = |repo: &str| {
        let mut c = task(
            vec![outcome("T.a", Status::Fail, &["salt/utils/iam.py", "utils/iam.py"])],
            vec![outcome("T.a", Status::Fail, &["salt/utils/iam.py", "utils/iam.py"])],
        );
        c.repo = Some(repo.into());
        c
    };
    let t = traj(Vec::new(), Some(&patch_of(&["salt/utils/iam.py"])), "submitted");
    let d = run(&t, Some(&ctx("salt_refactor")));
    assert_eq!(d.facts.partially_touched, 0);
    let d = run(&t, Some(&ctx("other_refactor")));
    assert_eq!(d.facts.partially_touched, 1);
    // Only the impossible path read, in salt: no target at all, so not untouched either.
    let only = |repo: &str| {
        let mut c = task(
            vec![outcome("T.a", Status::Fail, &["utils/iam.py"])],
            vec![outcome("T.a", Status::Fail, &["utils/iam.py"])],
        );
        c.repo = Some(repo.into());
        c
    };
    let t = traj(Vec::new(), Some(&patch_of(&["x.py"])), "submitted");
    assert_eq!(run(&t, Some(&only("salt_refactor"))).facts.untouched_failing, 0);
    assert_eq!(run(&t, Some(&only("other_refactor"))).facts.untouched_failing, 1);
}

const TEMP_ERROR_TEST: &str = r#"import ast, unittest

def defines(tree, name):
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in ast.walk(tree))

class T(unittest.TestCase):
    def test_defined(self):
        with open('../pkg/money.py') as f:
            self.assertTrue(defines(ast.parse(f.read()), 'parse_money'))

    def test_imported(self):
        with open('../pkg/journal.py') as f:
            tree = ast.parse(f.read())
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names]
        self.assertIn('parse_money', names)
"#;

/// FM-3's static companion: one test checks `parse_money` is imported in journal.py, another
/// that it is defined in money.py (through a helper).
#[test]
fn fm3_static_task_needs_a_temporary_error() {
    assert_eq!(
        static_temporary_errors(TEMP_ERROR_TEST),
        [("parse_money".to_string(), "pkg/journal.py".to_string(), "pkg/money.py".to_string())]
    );
    let mut ctx = task(vec![outcome("T.test_defined", Status::Fail, &[])], vec![]);
    ctx.test_source = Some(TEMP_ERROR_TEST.into());
    let d = run(&traj(Vec::new(), None, "submitted"), Some(&ctx));
    let m = the(&d, "temporary_error_blocked", "task_needs_temporary_error");
    assert!(m.detail.contains("`parse_money` imported in pkg/journal.py, defined in pkg/money.py"));
    // Both checks on one file: no order problem.
    let same = TEMP_ERROR_TEST.replace("../pkg/journal.py", "../pkg/money.py");
    assert!(static_temporary_errors(&same).is_empty());
    ctx.test_source = Some(same);
    let d = run(&traj(Vec::new(), None, "submitted"), Some(&ctx));
    assert!(rules(&d, "temporary_error_blocked").is_empty());
}

/// A rate whose definition needs what the input lacks says why instead of showing 0.
#[test]
fn rates_without_denominator_are_not_computable() {
    let t = traj(vec![step(0, "ls", "a.py")], None, "submitted");
    let d = run(&t, None);
    let s = summarise_run(&[RunEntry { detection: &d, cost_usd: None }]);
    let fm1 = s
        .overall
        .rates
        .iter()
        .find(|r| r.id == "fm1.untouched_of_failing_change_checking")
        .expect("fm1 rate");
    assert_eq!((fm1.n, fm1.d), (0, 0));
    assert!(fm1.not_computable.as_deref().is_some_and(|w| w.contains("pristine")));
    let text = run_summary_text(&s);
    assert!(text.contains("fm2.edit_error_of_editing"), "{text}");
    assert!(text.contains("not computable: no edit step recognised"), "{text}");
    assert!(text.contains("fm8.location_guidance_gap not computable"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("cost_per_solved") && l.ends_with(" no data")),
        "{text}"
    );
    let all = s.overall.rates.iter().find(|r| r.id == "fm4.flooded_of_all").expect("fm4");
    assert_eq!((all.d, all.not_computable.as_deref()), (1, None));
}

/// FM-8: the same agent on one task under lazy and descriptive; the gap is the lazy FM-1 rate
/// minus the descriptive one. With one set only, the comparison is not computable.
#[test]
fn fm8_compares_instruction_sets_per_task() {
    let det = |set: InstructionSet, untouched: u32, failing: u32| Detection {
        facts: Facts {
            instruction_set: Some(set),
            untouched_failing: untouched,
            change_checking_failing: failing,
            resolved: Some(false),
            ..Facts::default()
        },
        ..Detection::default()
    };
    let lazy = det(InstructionSet::Lazy, 3, 4);
    let desc = det(InstructionSet::Descriptive, 1, 4);
    let e = |d| TaskEntry { instance_id: "t1", entry: RunEntry { detection: d, cost_usd: None } };
    let c = compare_instruction_sets(&[e(&lazy), e(&desc)]);
    assert_eq!(c.not_computable, None);
    assert_eq!(c.gap_by_task["t1"]["lazy"], 0.5);
    assert_eq!((c.by_task["t1"]["lazy"].fm1.n, c.by_task["t1"]["lazy"].fm1.d), (3, 4));
    assert!(set_comparison_text(&c)
        .contains("t1: location guidance gap lazy - descriptive +50.0 points"));
    let c = compare_instruction_sets(&[e(&lazy)]);
    assert!(c.gap_by_task.is_empty());
    assert!(c.not_computable.as_deref().is_some_and(|w| w.contains("found: lazy 1")), "{c:?}");
}

/// FM-8's run-wide gap is per agent and over the tasks that agent ran under both sets: agent A
/// under lazy and agent B under descriptive on the same task give no gap (pooled, they gave
/// +100 points, a comparison of two agents); A's lazy-only task is left out of A's gap.
#[test]
fn fm8_run_gap_is_per_agent_and_per_paired_task() {
    let det =
        |agent: &str, task: &str, set: InstructionSet, untouched: u32, failing: u32| Detection {
            facts: Facts {
                instruction_set: Some(set),
                untouched_failing: untouched,
                change_checking_failing: failing,
                resolved: Some(false),
                instance_id: Some(task.into()),
                agent: Some(agent.into()),
                ..Facts::default()
            },
            ..Detection::default()
        };
    let e = |d| RunEntry { detection: d, cost_usd: None };
    let a_lazy = det("A", "t1", InstructionSet::Lazy, 4, 4);
    let b_desc = det("B", "t1", InstructionSet::Descriptive, 0, 4);
    let s = summarise_run(&[e(&a_lazy), e(&b_desc)]);
    assert!(s.location_guidance_gap.is_empty(), "{:?}", s.location_guidance_gap);
    assert!(run_summary_text(&s)
        .contains("fm8.location_guidance_gap not computable: needs one agent's"));
    // The pooled per-set rates are still shown (100% vs 0%), just not subtracted.
    let fm1 = |set: &str| {
        let r = &s.by_instruction_set[set].rates;
        r.iter().find(|r| r.id == "fm1.untouched_of_failing_change_checking").map(|r| (r.n, r.d))
    };
    assert_eq!((fm1("lazy"), fm1("descriptive")), (Some((4, 4)), Some((0, 4))));
    // A on t1 under both sets, and on t2 under lazy only; B's descriptive run stays out of A's.
    let a_desc = det("A", "t1", InstructionSet::Descriptive, 1, 4);
    let a_lazy2 = det("A", "t2", InstructionSet::Lazy, 0, 3);
    let s = summarise_run(&[e(&a_lazy), e(&b_desc), e(&a_desc), e(&a_lazy2)]);
    let g = &s.location_guidance_gap["A"]["lazy"];
    assert_eq!(g.tasks, 1);
    assert_eq!((g.without_guidance.n, g.without_guidance.d), (4, 4));
    assert_eq!((g.descriptive.n, g.descriptive.d), (1, 4));
    assert_eq!(g.gap, 0.75);
    assert!(!s.location_guidance_gap.contains_key("B"));
    assert!(!s.location_guidance_gap["A"].contains_key("base"));
    assert!(run_summary_text(&s).contains(
        "fm8.location_guidance_gap agent A, lazy - descriptive over 1 task(s): fm1 4/4 (100.0%) - 1/4 (25.0%) = +75.0 points"
    ));
}
