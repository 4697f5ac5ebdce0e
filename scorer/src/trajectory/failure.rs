//! The paper's failure modes as deterministic detectors (shared/trajectories.md §1.3): FM-1 … FM-10
//! per trajectory with their evidence, the FM-0 primary label of a failed task, and the per-run
//! rates (§1.5) as `n / d` with the id of the definition. Pure functions: the scorer results a
//! detector needs (FM-1, FM-7, FM-10) come in through [`TaskContext`].
//!
//! Where the paper gives no mechanical rule, the flag carries the id and text of the reading we
//! chose ([`Interpretation`]); thresholds not from the paper are marked "ours" there.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::analysis::{FailureMode, StepState, TaskContext};
use super::model::{EditKind, EditOp, EditStatus, RejectReason, Role, Step, Trajectory};
use super::sigma::{is_line_addressed, line_count, patch_paths};
use crate::patch::PatchStatus;
use crate::report::{InstructionSet, Status, TaskResult};

/// A reading of the paper's wording that a detector or rate depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interpretation {
    pub id: String,
    pub text: String,
}

/// Every interpretation, by id: what a flag's `interpretation` and a rate's `id` refer to.
pub const INTERPRETATIONS: &[(&str, &str)] = &[
    ("fm1.reads_as_targets", "A test's target files are the repository files it reads (opened or checked by the method and its setUp, pristine and final runs together); the paper's are the files its withheld reference solution edits. A change-checking test is one that does not pass on the pristine repository."),
    ("fm2.edit_error", "An edit step errors when the tool rejected the edit or applied it with lint errors, by the format's own signals only; rates are reported with and without lint warnings on applied edits (the paper does not say)."),
    ("fm3.undefined_names", "A lint rejection whose errors are all undefined names (F821/F822), each defined later by an applied edit or in the final patch: the edit needed a temporary error (the paper gives no rule)."),
    ("fm4.window", "Ours: flagged when error observations exceed 50% of the observation tokens of a 5-step window. Tokens are exact from logged usage deltas, else ceil(UTF-8 bytes / 4)."),
    ("fm5.stuck_rules", "OpenHands StuckDetector defaults (identical action and observation x4, identical action with an error x3, 3 actionless turns, an A,B alternation over 6 turns), plus ours: an edit identical to the rejected edit just before it."),
    ("fm6.exit", "Exit reasons mapped to submitted / auto_submitted_after_limit / cost_limit / context_limit / step_limit / time_limit / format_errors / api_or_env_error / stuck_loop / crashed / unknown; no_patch when the submission is empty."),
    ("fm7.breadth_proxy", "Breadth = number of files the change-checking tests read (a lower-bound proxy for the files the reference solution edits, which are withheld); flagged above 6, the paper's largest solved count."),
    ("fm8.guidance", "Ours, per trajectory: untouched targets under an instruction set without file-location guidance (lazy or base); per run the location-guidance gap (FM-1 rate under lazy or base minus under descriptive) is computed per agent over the tasks that agent ran under both sets, never across agents."),
    ("fm9.state", "Ours: redundant re-edit (old text of an earlier applied replace), self-revert (inverse of an earlier applied replace), duplicate insert (text an earlier applied insert already wrote), lost edit (edited file absent from the patch), stale line edit (a line-addressed edit after an earlier edit above it shifted lines, with no observation of the file in between)."),
    ("fm10.style", "Reproduction or test scripts created outside the test tree or left out of the patch, test-runner commands, and patch changes to test files no task test reads and the instructions do not name."),
    ("fm0.primary", "Ours: one label per failed task by precedence not_scored, no_patch, limit, untouched_target, edit_errors (a rejected edit on a file of the breadth set), incomplete."),
];

fn interpretation(id: &str) -> Option<Interpretation> {
    INTERPRETATIONS
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(i, t)| Interpretation { id: (*i).to_string(), text: (*t).to_string() })
}

fn flag(id: &str, rule: &str, steps: Vec<usize>, detail: String, interp: &str) -> FailureMode {
    let mut steps = steps;
    steps.sort_unstable();
    steps.dedup();
    FailureMode {
        id: id.to_string(),
        rule: rule.to_string(),
        steps,
        tests: Vec::new(),
        detail,
        interpretation: interpretation(interp),
    }
}

/// Per-trajectory numbers the run rates add up (integers, so sums are exact).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Facts {
    /// Steps with at least one recognised edit op.
    pub edit_steps: u32,
    /// Edit steps with a rejected op or one applied with lint errors.
    pub erroring_edit_steps: u32,
    /// Edit steps with a rejected op (lint warnings on applied edits not counted).
    pub rejecting_edit_steps: u32,
    pub first_error_step: Option<usize>,
    /// Rejections by sub-kind (`lint_rejected`, `no_match`, … and `lint_warning_applied`).
    pub edit_errors_by_kind: BTreeMap<String, u32>,
    pub lint_rejections: u32,
    /// Observation tokens of the lint-rejected edit steps (FM-4's ≈1,466 in the paper).
    pub lint_rejection_tokens: u64,
    /// Whether every token count above came from logged usage (else estimates).
    pub tokens_exact: bool,
    pub observation_tokens: u64,
    pub error_observation_tokens: u64,
    pub longest_error_run: u32,
    /// FM-6 exit category.
    pub exit: String,
    pub no_patch: bool,
    /// Files the submitted patch touches (`None`: no parsable patch).
    pub patch_files: Option<u32>,
    /// Tests not passing on the pristine repository, with verdicts of the final patch.
    pub change_checking: u32,
    pub change_checking_failing: u32,
    /// Change-checking tests whose reads the patch does not touch (any final verdict).
    pub untouched: u32,
    /// … of them failing: FM-1's primary numerator.
    pub untouched_failing: u32,
    pub partially_touched: u32,
    /// Breadth proxy of the task (FM-7) and how many of those files the patch touches.
    pub breadth: Option<u32>,
    pub breadth_covered: Option<u32>,
    pub resolved: Option<bool>,
    pub subtests_passed: Option<u32>,
    pub subtests_total: Option<u32>,
    pub instruction_set: Option<InstructionSet>,
    pub repo: Option<String>,
    /// The task (the task context's id, else the log's own), for FM-8's per-task pairing.
    #[serde(default)]
    pub instance_id: Option<String>,
    /// The agent (the log's model), for FM-8: only one agent's instruction sets are compared.
    #[serde(default)]
    pub agent: Option<String>,
}

/// Detector thresholds; the defaults are OpenHands' StuckDetector values and ours (§1.3).
#[derive(Debug, Clone, Copy)]
pub struct Thresholds {
    pub same_action_observation: usize,
    pub same_action_error: usize,
    pub monologue: usize,
    pub alternation: usize,
    pub flood_window: usize,
    pub breadth_limit: u32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            same_action_observation: 4,
            same_action_error: 3,
            monologue: 3,
            alternation: 6,
            flood_window: 5,
            breadth_limit: 6,
        }
    }
}

/// Everything the detectors computed for one trajectory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detection {
    pub failure_modes: Vec<FailureMode>,
    pub facts: Facts,
    /// FM-0, for a scored, unresolved task.
    pub primary: Option<String>,
}

/// What the detectors share: the trajectory, its task, the patch's paths and σ.
struct Ctx<'a> {
    t: &'a Trajectory,
    task: Option<&'a TaskContext>,
    /// Paths of the submitted patch (`None`: no submission or not a patch).
    p: Option<BTreeSet<String>>,
    states: &'a [StepState],
    th: Thresholds,
}

fn ceil_div4(n: usize) -> u64 {
    u64::try_from(n.div_ceil(4)).unwrap_or(u64::MAX)
}

fn is_error_op(op: &EditOp) -> bool {
    matches!(op.status, EditStatus::Rejected { .. } | EditStatus::AppliedWithLint { .. })
}

fn is_rejected(op: &EditOp) -> bool {
    matches!(op.status, EditStatus::Rejected { .. })
}

/// Whether a step's observation is error text (FM-4's "error observations").
fn is_error_step(s: &Step) -> bool {
    s.error.is_some()
        || s.edits.iter().any(is_error_op)
        || s.tool_calls.iter().any(|c| c.error.is_some())
}

/// The step's action, canonical: tool names with arguments as sorted-key JSON, else the
/// whitespace-normalised action text; `None` for a turn with no action.
fn canonical_action(s: &Step) -> Option<String> {
    if !s.tool_calls.is_empty() {
        let parts: Vec<String> = s
            .tool_calls
            .iter()
            .map(|c| format!("{}({})", c.name, canonical_json(&c.arguments)))
            .collect();
        return Some(parts.join(";"));
    }
    let a = s.action.as_deref()?.split_whitespace().collect::<Vec<_>>().join(" ");
    (!a.is_empty()).then_some(a)
}

fn canonical_json(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(m) => {
            let sorted: BTreeMap<&String, String> =
                m.iter().map(|(k, v)| (k, canonical_json(v))).collect();
            let parts: Vec<String> = sorted
                .iter()
                .map(|(k, v)| format!("{}:{v}", serde_json::Value::String((*k).clone())))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        serde_json::Value::Array(a) => {
            format!("[{}]", a.iter().map(canonical_json).collect::<Vec<_>>().join(","))
        }
        other => other.to_string(),
    }
}

/// The text of a step's commands (action and tool-call arguments), for command matching.
fn command_text(s: &Step) -> String {
    let mut out = s.action.clone().unwrap_or_default();
    for c in &s.tool_calls {
        out.push('\n');
        out.push_str(&c.name);
        out.push(' ');
        out.push_str(&json_strings(&c.arguments));
    }
    out
}

fn json_strings(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Object(m) => m.values().map(json_strings).collect::<Vec<_>>().join(" "),
        serde_json::Value::Array(a) => a.iter().map(json_strings).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

/// Whether a test-tree path (a `test`/`tests`/`testing` folder, or a `test_*.py` /
/// `*_test.py` file).
fn in_test_tree(path: &str) -> bool {
    let mut comps = path.split('/').collect::<Vec<_>>();
    let name = comps.pop().unwrap_or("");
    comps.iter().any(|c| matches!(*c, "test" | "tests" | "testing"))
        || (name.starts_with("test_") && name.ends_with(".py"))
        || name.ends_with("_test.py")
}

/// Paths a benchmark test checks that can never exist, by repository (shared/benchmark-facts.md:
/// salt `iam-to-aws` checks `../utils/iam.py`; the file is `salt/utils/iam.py`). FM-1 ignores them.
pub const NEVER_EXISTS: &[(&str, &str)] = &[("salt_refactor", "utils/iam.py")];

fn never_exists(repo: Option<&str>, path: &str) -> bool {
    NEVER_EXISTS.iter().any(|(r, p)| *p == path && repo.is_none_or(|repo| repo == *r))
}

/// Per test: R(t), its reads in the pristine and final runs together with the `../` string
/// literals of the method and its class's `setUp` (a method that fails early reads fewer files),
/// less the paths that can never exist.
fn test_reads(task: &TaskContext) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in [&task.pristine_result, &task.final_result].into_iter().flatten() {
        for t in &r.tests {
            out.entry(t.id.clone()).or_default().extend(t.reads.iter().cloned());
        }
    }
    if let Some(src) = task.test_source.as_deref() {
        for (id, paths) in literal_reads(src) {
            // Only methods the runs know (a literal scan of a file that did not run adds none).
            if let Some(r) = out.get_mut(&id) {
                r.extend(paths);
            }
        }
    }
    let repo = task.repo.as_deref();
    for r in out.values_mut() {
        r.retain(|p| !never_exists(repo, p));
    }
    out
}

/// A test's `'../x'` string resolved as the test resolves it: against its working directory
/// `<repo>/refactorbench_eval/`, `.` and `..` segments folded; `None` outside the repository.
pub fn resolve_test_path(literal: &str) -> Option<String> {
    if !literal.starts_with("../") || literal.chars().any(char::is_whitespace) {
        return None;
    }
    let mut parts: Vec<&str> = vec!["refactorbench_eval"];
    for seg in literal.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    (!parts.is_empty() && !literal.ends_with('/')).then(|| parts.join("/"))
}

/// What a static scan of a test file learns about one test method.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct MethodScan {
    id: String,
    /// Resolved `../` literals of the method and its class's `setUp`.
    reads: BTreeSet<String>,
    /// String literals that are Python identifiers (the names the method looks for).
    names: BTreeSet<String>,
    /// The method (or a helper it calls) inspects `Import`/`ImportFrom` nodes.
    imports: bool,
    /// The method (or a helper it calls) inspects `FunctionDef`/`ClassDef` nodes.
    defs: bool,
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f == '_' || f.is_ascii_alphabetic())
        && c.all(|x| x == '_' || x.is_ascii_alphanumeric())
}

/// Every test method of a test file with its literals and what kind of node it inspects. Empty
/// when the source does not parse. Helpers (any other function of the file) pass their kinds on
/// to the methods that call them by name.
fn scan_methods(source: &str) -> Vec<MethodScan> {
    use crate::python::syntax::{self, Ranged};
    let Ok(scan) = crate::bundle::paths::scan_test(source, "test.py") else { return Vec::new() };
    let Ok(module) = crate::python::parse_module(source, "test.py") else { return Vec::new() };
    let index = crate::python::LineIndex::new(source);
    let span = |r: syntax::text_size::TextRange| {
        let (a, b) = (u32::from(r.start()), u32::from(r.end()));
        let text = source.get(a as usize..b as usize).unwrap_or("");
        (index.position(a).0, index.position(b).0, text)
    };
    let kinds = |text: &str| {
        (
            text.contains("ImportFrom") || text.contains("ast.Import") || text.contains(".names"),
            text.contains("FunctionDef") || text.contains("ClassDef"),
        )
    };
    let lits = |a: u32, b: u32| scan.literals.iter().filter(move |l| l.line >= a && l.line <= b);
    let fn_of = |s: &syntax::Stmt| match s {
        syntax::Stmt::FunctionDef(f) => Some((f.name.to_string(), f.range())),
        syntax::Stmt::AsyncFunctionDef(f) => Some((f.name.to_string(), f.range())),
        _ => None,
    };
    // Helpers: module-level functions and non-test methods, with their kinds.
    let mut helpers: Vec<(String, (bool, bool))> = Vec::new();
    for stmt in &module.body {
        if let Some((name, r)) = fn_of(stmt) {
            helpers.push((name, kinds(span(r).2)));
        }
        if let syntax::Stmt::ClassDef(c) = stmt {
            for s in &c.body {
                if let Some((name, r)) = fn_of(s).filter(|(n, _)| !n.starts_with("test")) {
                    helpers.push((name, kinds(span(r).2)));
                }
            }
        }
    }
    let mut out = Vec::new();
    for stmt in &module.body {
        let syntax::Stmt::ClassDef(class) = stmt else { continue };
        let mut setup = BTreeSet::new();
        let mut methods = Vec::new();
        for s in &class.body {
            let Some((name, range)) = fn_of(s) else { continue };
            let (a, b, text) = span(range);
            if name == "setUp" {
                setup.extend(lits(a, b).filter_map(|l| resolve_test_path(&l.value)));
            } else if name.starts_with("test") {
                let (mut imports, mut defs) = kinds(text);
                for (h, (i, d)) in &helpers {
                    if text.contains(&format!("{h}(")) {
                        imports |= i;
                        defs |= d;
                    }
                }
                methods.push(MethodScan {
                    id: format!("{}.{name}", class.name),
                    reads: lits(a, b).filter_map(|l| resolve_test_path(&l.value)).collect(),
                    names: lits(a, b)
                        .filter(|l| is_identifier(&l.value))
                        .map(|l| l.value.clone())
                        .collect(),
                    imports,
                    defs,
                });
            }
        }
        for mut m in methods {
            m.reads.extend(setup.iter().cloned());
            out.push(m);
        }
    }
    out
}

/// Per test method (`Class.method`): the resolved `../` string literals of its body and of its
/// class's `setUp`. Empty when the source does not parse.
pub fn literal_reads(source: &str) -> BTreeMap<String, BTreeSet<String>> {
    scan_methods(source).into_iter().map(|m| (m.id, m.reads)).collect()
}

/// FM-3's task-level companion, static, from the test file: names `x` that one test checks is
/// imported in file A while another checks `x` is defined (def/class) in file B ≠ A, as
/// `(x, A, B)`. Edits that each keep every file free of F821 errors can do such a task only in
/// the right order (define first), so a lint gate may reject the other order. Heuristic: a
/// method counts when it reads exactly one repository file and inspects the node kind itself or
/// through a helper of the file it calls.
pub fn static_temporary_errors(source: &str) -> Vec<(String, String, String)> {
    let methods = scan_methods(source);
    let single = |m: &MethodScan| (m.reads.len() == 1).then(|| m.reads.iter().next().cloned());
    let mut out = BTreeSet::new();
    for a in methods.iter().filter(|m| m.imports) {
        let Some(Some(file_a)) = single(a) else { continue };
        for b in methods.iter().filter(|m| m.defs) {
            let Some(Some(file_b)) = single(b) else { continue };
            if file_a == file_b {
                continue;
            }
            for x in a.names.intersection(&b.names) {
                out.insert((x.clone(), file_a.clone(), file_b.clone()));
            }
        }
    }
    out.into_iter().collect()
}

fn verdicts(r: &TaskResult) -> BTreeMap<&str, Status> {
    r.tests.iter().map(|t| (t.id.as_str(), t.status)).collect()
}

/// Change-checking tests (not passing on pristine) with the final verdict.
fn change_checking(task: &TaskContext) -> Vec<(String, Status)> {
    let (Some(pristine), Some(fin)) = (&task.pristine_result, &task.final_result) else {
        return Vec::new();
    };
    let v0 = verdicts(pristine);
    let v = verdicts(fin);
    v0.iter()
        .filter(|(id, s)| **s != Status::Pass && id.contains('.') && !id.contains(' '))
        .map(|(id, _)| ((*id).to_string(), v.get(id).copied().unwrap_or(Status::Error)))
        .collect()
}

/// The breadth set of a task (FM-7): files the change-checking tests read.
pub fn breadth_set(task: &TaskContext) -> BTreeSet<String> {
    let reads = test_reads(task);
    change_checking(task)
        .iter()
        .filter_map(|(id, _)| reads.get(id))
        .flat_map(|r| r.iter().cloned())
        .collect()
}

/// The breadth bucket as the run report groups it.
pub fn breadth_bucket(n: u32) -> &'static str {
    match n {
        0..=2 => "1-2",
        3..=4 => "3-4",
        5..=6 => "5-6",
        _ => ">6",
    }
}

/// FM-6: the exit category of a trajectory.
pub fn exit_category(t: &Trajectory) -> &'static str {
    let status = t.exit_status.as_deref().unwrap_or("").trim();
    let error = t.exit_error.as_deref().unwrap_or("");
    let both = format!("{status} {error}").to_ascii_lowercase();
    if both.contains("stuckinloop") || both.contains("stuck in a loop") {
        return "stuck_loop";
    }
    let s = status.to_ascii_lowercase();
    match s.as_str() {
        "submitted" | "finished" | "finish" | "completed" | "complete" | "success" => {
            return "submitted"
        }
        _ => {}
    }
    if s.starts_with("submitted (") || s.starts_with("submitted(") {
        return "auto_submitted_after_limit";
    }
    let table: &[(&[&str], &str)] = &[
        (&["exit_cost", "cost_limit", "budget", "limit:cost", "cost"], "cost_limit"),
        (
            &["exit_context", "contextwindow", "context_limit", "limit:context", "context"],
            "context_limit",
        ),
        (&["exit_format", "repeatedformaterror", "format"], "format_errors"),
        (
            &[
                "exit_total_execution_time",
                "timeexceeded",
                "limit:time",
                "limit:working",
                "time_limit",
            ],
            "time_limit",
        ),
        (
            &[
                "limitsexceeded",
                "max_iterations",
                "maximum iteration",
                "limit:message",
                "limit:turn",
                "limit:token",
                "step_limit",
            ],
            "step_limit",
        ),
        (
            &[
                "exit_api",
                "exit_environment_error",
                "exit_error",
                "api",
                "ratelimit",
                "internalservererror",
                "apierror",
            ],
            "api_or_env_error",
        ),
    ];
    for (keys, cat) in table {
        if keys.iter().any(|k| s.contains(k)) {
            return cat;
        }
    }
    if !error.is_empty() || s.ends_with("error") || s.ends_with("exception") || s == "timeout" {
        return "crashed";
    }
    "unknown"
}

/// FM-8: the instruction set whose text (whitespace-normalised) the task text contains, when
/// exactly one does.
pub fn detect_instruction_set(
    t: &Trajectory,
    task: Option<&TaskContext>,
) -> Option<InstructionSet> {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let found = task.and_then(|task| {
        let text = norm(t.task.as_deref()?);
        let hits: Vec<InstructionSet> = task
            .instructions
            .iter()
            .filter(|(_, i)| {
                let i = norm(i);
                !i.is_empty() && text.contains(&i)
            })
            .map(|(s, _)| *s)
            .collect();
        // A shorter instruction may sit inside a longer one: the longest match wins when the
        // others are contained in it.
        match hits.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    });
    found.or_else(|| task?.final_result.as_ref()?.instruction_set)
}

impl<'a> Ctx<'a> {
    fn p_contains(&self, path: &str) -> bool {
        self.p.as_ref().is_some_and(|p| p.contains(path))
    }

    fn all_ops(&self) -> impl Iterator<Item = (usize, &'a EditOp)> + 'a {
        let t: &'a Trajectory = self.t;
        t.steps.iter().flat_map(|s| s.edits.iter().map(move |op| (s.index, op)))
    }

    /// Files whose first applied op wrote the whole file (`create`, a heredoc or redirection,
    /// `cp`), with that step: new files as far as the log shows (a shell write cannot tell).
    fn written_whole_first(&self) -> BTreeMap<String, usize> {
        let mut first: BTreeMap<String, (usize, bool)> = BTreeMap::new();
        for (i, op) in self.all_ops() {
            // A refused editor command changed nothing; a shell command that exited non-zero
            // may still have written the file before a later part failed.
            let shell = matches!(
                op.status,
                EditStatus::Rejected { reason: RejectReason::ShellNonzero, .. }
            );
            if is_rejected(op) && !shell {
                continue;
            }
            let whole = op.kind == EditKind::Create
                || op.kind == EditKind::Rewrite && op.lines_before.is_none();
            first.entry(op.path.clone()).or_insert((i, whole));
        }
        first.into_iter().filter(|(_, (_, w))| *w).map(|(p, (i, _))| (p, i)).collect()
    }

    /// FM-1 untouched target.
    fn untouched_target(&self, facts: &mut Facts, out: &mut Vec<FailureMode>) {
        let Some(task) = self.task else { return };
        let cc = change_checking(task);
        if cc.is_empty() {
            return;
        }
        let empty = BTreeSet::new();
        let p = self.p.as_ref().unwrap_or(&empty);
        let reads = test_reads(task);
        let mut tests = Vec::new();
        let mut files: BTreeSet<String> = BTreeSet::new();
        for (id, v) in &cc {
            facts.change_checking += 1;
            let failing = *v != Status::Pass;
            facts.change_checking_failing += u32::from(failing);
            let Some(r) = reads.get(id).filter(|r| !r.is_empty()) else { continue };
            let hit = r.intersection(p).count();
            if hit == 0 {
                facts.untouched += 1;
                if failing {
                    facts.untouched_failing += 1;
                    tests.push(id.clone());
                    files.extend(r.iter().cloned());
                }
            } else if hit < r.len() {
                facts.partially_touched += 1;
            }
        }
        if tests.is_empty() {
            return;
        }
        let mut steps = Vec::new();
        let mut why = Vec::new();
        for f in &files {
            let ops: Vec<(usize, &EditOp)> = self.all_ops().filter(|(_, o)| o.path == *f).collect();
            let kind = if ops
                .iter()
                .any(|(_, o)| o.status.is_applied() || o.status == EditStatus::Unknown)
            {
                "edited_then_lost"
            } else if !ops.is_empty() {
                "edit_failed"
            } else {
                let seen: Vec<usize> = self
                    .t
                    .steps
                    .iter()
                    .filter(|s| command_text(s).contains(f.as_str()))
                    .map(|s| s.index)
                    .collect();
                let k = if seen.is_empty() { "never_seen" } else { "seen_not_edited" };
                steps.extend(seen);
                k
            };
            steps.extend(ops.iter().map(|(i, _)| *i));
            why.push(format!("{f}: {kind}"));
        }
        let mut m = flag(
            "untouched_target",
            "untouched_target_failure",
            steps,
            format!(
                "{} of {} failing change-checking tests read no file the patch touches ({})",
                tests.len(),
                facts.change_checking_failing,
                why.join("; ")
            ),
            "fm1.reads_as_targets",
        );
        m.tests = tests;
        out.push(m);
    }

    /// FM-2 edit errors.
    fn edit_error(&self, facts: &mut Facts, out: &mut Vec<FailureMode>) {
        let mut steps = Vec::new();
        for s in &self.t.steps {
            if s.edits.is_empty() {
                continue;
            }
            facts.edit_steps += 1;
            let mut errs = false;
            let mut rejects = false;
            for op in &s.edits {
                let kind = match &op.status {
                    EditStatus::Rejected { reason, .. } => {
                        rejects = true;
                        reason.label()
                    }
                    EditStatus::AppliedWithLint { .. } => "lint_warning_applied",
                    _ => continue,
                };
                errs = true;
                *facts.edit_errors_by_kind.entry(kind.to_string()).or_default() += 1;
            }
            if errs {
                facts.erroring_edit_steps += 1;
                facts.first_error_step.get_or_insert(s.index);
                steps.push(s.index);
            }
            facts.rejecting_edit_steps += u32::from(rejects);
        }
        if steps.is_empty() {
            return;
        }
        let kinds: Vec<String> =
            facts.edit_errors_by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
        out.push(flag(
            "edit_error",
            if facts.rejecting_edit_steps > 0 { "rejected" } else { "lint_warning_applied" },
            steps,
            format!(
                "{} of {} edit steps errored ({} rejected); first at step {}; {}",
                facts.erroring_edit_steps,
                facts.edit_steps,
                facts.rejecting_edit_steps,
                facts.first_error_step.unwrap_or(0),
                kinds.join(", ")
            ),
            "fm2.edit_error",
        ));
    }

    /// FM-3 necessary temporary errors.
    fn temporary_error(&self, out: &mut Vec<FailureMode>) {
        self.task_needs_temporary_error(out);
        let added: String = self
            .t
            .submission
            .as_deref()
            .unwrap_or("")
            .lines()
            .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
            .map(|l| format!("{}\n", &l[1..]))
            .collect();
        let mut steps = Vec::new();
        let mut names_all = BTreeSet::new();
        for s in &self.t.steps {
            for op in &s.edits {
                let EditStatus::Rejected { reason: RejectReason::LintRejected, message } =
                    &op.status
                else {
                    continue;
                };
                let text = match s.observation.as_deref() {
                    Some(o) if o.contains("ERRORS:") || o.contains("F821") => o,
                    _ => message.as_str(),
                };
                let Some(names) = undefined_names_only(text) else { continue };
                let later: String = self
                    .t
                    .steps
                    .iter()
                    .filter(|l| l.index > s.index)
                    .flat_map(|l| l.edits.iter())
                    .filter(|o| o.status.is_applied())
                    .filter_map(|o| o.new_text.as_deref())
                    .chain(std::iter::once(added.as_str()))
                    .collect::<Vec<_>>()
                    .join("\n");
                if names.iter().all(|n| defines(&later, n)) {
                    steps.push(s.index);
                    names_all.extend(names);
                }
            }
        }
        if steps.is_empty() {
            return;
        }
        let n = steps.len();
        out.push(flag(
            "temporary_error_blocked",
            "blocked_by_linter",
            steps,
            format!(
                "{n} lint-rejected edits failed only on undefined names defined later ({})",
                names_all.into_iter().collect::<Vec<_>>().join(", ")
            ),
            "fm3.undefined_names",
        ));
    }

    /// FM-3's static companion: the task's tests check a name imported in one file and defined
    /// in another ([`static_temporary_errors`]).
    fn task_needs_temporary_error(&self, out: &mut Vec<FailureMode>) {
        let Some(src) = self.task.and_then(|t| t.test_source.as_deref()) else { return };
        let found = static_temporary_errors(src);
        if found.is_empty() {
            return;
        }
        let pairs: Vec<String> = found
            .iter()
            .map(|(x, a, b)| format!("`{x}` imported in {a}, defined in {b}"))
            .collect();
        out.push(flag(
            "temporary_error_blocked",
            "task_needs_temporary_error",
            Vec::new(),
            format!(
                "the task's tests check {}: under an F821 lint gate the definition must come first",
                pairs.join("; ")
            ),
            "fm3.undefined_names",
        ));
    }

    /// Tokens of each step's observation: logged usage deltas where both neighbours have
    /// prompt counts, else an estimate. Returns (tokens, exact).
    fn observation_tokens(&self) -> Vec<(u64, bool)> {
        let steps = &self.t.steps;
        steps
            .iter()
            .enumerate()
            .map(|(i, s)| match usage_delta(s, &steps[i + 1..]) {
                Some(d) => (d, true),
                None => (ceil_div4(s.observation.as_deref().map_or(0, str::len)), false),
            })
            .collect()
    }

    /// FM-4 context flooding.
    fn context_flooding(&self, facts: &mut Facts, out: &mut Vec<FailureMode>) {
        let tokens = self.observation_tokens();
        let errors: Vec<bool> = self.t.steps.iter().map(is_error_step).collect();
        facts.tokens_exact = !tokens.is_empty() && tokens.iter().all(|(_, e)| *e);
        let mut run = 0u32;
        for (i, s) in self.t.steps.iter().enumerate() {
            let (tok, _) = tokens[i];
            facts.observation_tokens += tok;
            if errors[i] {
                facts.error_observation_tokens += tok;
                run += 1;
                facts.longest_error_run = facts.longest_error_run.max(run);
            } else {
                run = 0;
            }
            let lint = s.edits.iter().any(|o| {
                matches!(o.status, EditStatus::Rejected { reason: RejectReason::LintRejected, .. })
            });
            if lint {
                facts.lint_rejections += 1;
                facts.lint_rejection_tokens += tok;
            }
        }
        let w = self.th.flood_window;
        if w == 0 || self.t.steps.len() < w {
            return;
        }
        for end in w - 1..self.t.steps.len() {
            let range = end + 1 - w..=end;
            let total: u64 = range.clone().map(|i| tokens[i].0).sum();
            let err: u64 = range.clone().filter(|i| errors[*i]).map(|i| tokens[i].0).sum();
            if total > 0 && err * 2 > total {
                let steps: Vec<usize> =
                    range.filter(|i| errors[*i]).map(|i| self.t.steps[i].index).collect();
                let est = if facts.tokens_exact { "" } else { " (est.)" };
                out.push(flag(
                    "context_flooding",
                    "error_window",
                    steps,
                    format!(
                        "error text is {err} of {total} observation tokens{est} in the {w} steps \
                         ending at step {}; longest run of error observations {}; \
                         {} of {} observation tokens are error text",
                        self.t.steps[end].index,
                        facts.longest_error_run,
                        facts.error_observation_tokens,
                        facts.observation_tokens
                    ),
                    "fm4.window",
                ));
                return;
            }
        }
    }

    /// FM-5 loops.
    fn loops(&self, out: &mut Vec<FailureMode>) {
        let agent: Vec<&Step> = self.t.steps.iter().filter(|s| s.role == Role::Agent).collect();
        let acts: Vec<Option<String>> = agent.iter().map(|s| canonical_action(s)).collect();
        let th = self.th;
        // Runs of consecutive agent steps satisfying `same(i-1, i)`.
        let runs = |same: &dyn Fn(usize) -> bool, min: usize| -> Vec<Vec<usize>> {
            let mut found = Vec::new();
            let mut start = 0;
            for i in 1..=agent.len() {
                if i < agent.len() && same(i) {
                    continue;
                }
                if i - start >= min {
                    found.push((start..i).map(|k| agent[k].index).collect());
                }
                start = i;
            }
            found
        };
        let same_act = |i: usize| acts[i].is_some() && acts[i] == acts[i - 1];
        let rules: Vec<(&str, Vec<Vec<usize>>)> = vec![
            (
                "identical_action_observation",
                runs(
                    &|i| same_act(i) && agent[i].observation == agent[i - 1].observation,
                    th.same_action_observation,
                ),
            ),
            (
                "identical_action_error",
                runs(
                    &|i| same_act(i) && is_error_step(agent[i]) && is_error_step(agent[i - 1]),
                    th.same_action_error,
                ),
            ),
            ("monologue", runs(&|i| acts[i].is_none() && acts[i - 1].is_none(), th.monologue)),
            ("alternation", alternations(&agent, &acts, th.alternation)),
        ];
        for (rule, found) in rules {
            if found.is_empty() {
                continue;
            }
            let detail = found
                .iter()
                .map(|r| format!("steps {}-{}", r[0], r[r.len() - 1]))
                .collect::<Vec<_>>()
                .join(", ");
            out.push(flag("loop", rule, found.concat(), detail, "fm5.stuck_rules"));
        }
        // Ours: an edit identical to the rejected edit just before it.
        let ops: Vec<(usize, &EditOp)> = self.all_ops().collect();
        let mut steps = Vec::new();
        let mut pairs = Vec::new();
        for w in ops.windows(2) {
            let ((i, a), (j, b)) = (w[0], w[1]);
            if is_rejected(a) && same_edit(a, b) {
                steps.extend([i, j]);
                pairs.push(format!("{i}->{j}"));
            }
        }
        if !steps.is_empty() {
            out.push(flag(
                "loop",
                "same_failed_edit_reissued",
                steps,
                format!("a rejected edit issued again unchanged: steps {}", pairs.join(", ")),
                "fm5.stuck_rules",
            ));
        }
        if exit_category(self.t) == "stuck_loop" {
            out.push(flag(
                "loop",
                "agent_stuck_in_loop",
                Vec::new(),
                "the agent scaffold stopped the run as stuck in a loop".into(),
                "fm5.stuck_rules",
            ));
        }
    }

    /// FM-6 termination.
    fn limit(&self, facts: &mut Facts, out: &mut Vec<FailureMode>) {
        let cat = exit_category(self.t);
        facts.exit = cat.to_string();
        // A log without a submission field says nothing about the patch.
        facts.no_patch = self.t.submission.as_deref().is_some_and(|s| s.trim().is_empty());
        facts.patch_files = self.p.as_ref().map(|p| u32::try_from(p.len()).unwrap_or(u32::MAX));
        let status = self.t.exit_status.as_deref().unwrap_or("none");
        if !matches!(cat, "submitted" | "unknown") {
            out.push(flag(
                "limit",
                cat,
                self.t.steps.last().map(|s| s.index).into_iter().collect(),
                format!("exit status {status:?}"),
                "fm6.exit",
            ));
        }
        if facts.no_patch {
            out.push(flag(
                "limit",
                "no_patch",
                Vec::new(),
                format!("empty submission (exit status {status:?})"),
                "fm6.exit",
            ));
        }
    }

    /// FM-7 breadth.
    fn breadth(&self, facts: &mut Facts, out: &mut Vec<FailureMode>) {
        let Some(task) = self.task else { return };
        if task.pristine_result.is_none() || task.final_result.is_none() {
            return;
        }
        let set = breadth_set(task);
        let n = u32::try_from(set.len()).unwrap_or(u32::MAX);
        let covered = set.iter().filter(|f| self.p_contains(f)).count();
        let covered = u32::try_from(covered).unwrap_or(u32::MAX);
        facts.breadth = Some(n);
        facts.breadth_covered = Some(covered);
        if n > self.th.breadth_limit {
            out.push(flag(
                "breadth",
                "over_6_files",
                Vec::new(),
                format!(
                    "the change-checking tests read {n} files (bucket {}); the patch touches {covered} of them and {} files in all",
                    breadth_bucket(n),
                    facts.patch_files.map_or("no".to_string(), |p| p.to_string())
                ),
                "fm7.breadth_proxy",
            ));
        }
    }

    /// FM-8, per trajectory.
    fn instruction_set(&self, facts: &mut Facts, out: &mut Vec<FailureMode>) {
        facts.instruction_set = detect_instruction_set(self.t, self.task);
        let Some(set) = facts.instruction_set else { return };
        if matches!(set, InstructionSet::Lazy | InstructionSet::Base) && facts.untouched_failing > 0
        {
            out.push(flag(
                "instruction_set",
                "untouched_without_location_guidance",
                Vec::new(),
                format!(
                    "{} untouched-target failures under the {} instructions (no file locations given)",
                    facts.untouched_failing,
                    set.as_str()
                ),
                "fm8.guidance",
            ));
        }
    }

    /// FM-9 state tracking.
    fn state_tracking(&self, out: &mut Vec<FailureMode>) {
        let ops: Vec<(usize, &EditOp)> = self.all_ops().collect();
        let mut found: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (k, (i, op)) in ops.iter().enumerate() {
            let earlier = &ops[..k];
            let applied_before =
                earlier.iter().filter(|(_, o)| o.path == op.path && o.status.is_applied());
            if let Some(old) = op.old_text.as_deref().filter(|o| !o.is_empty()) {
                if op.kind == EditKind::Replace
                    && applied_before.clone().any(|(_, o)| {
                        o.kind == EditKind::Replace
                            && o.old_text.as_deref() == Some(old)
                            && o.new_text.as_deref() != Some(old)
                    })
                {
                    found.entry("redundant_reedit").or_default().push(*i);
                }
                if op.status.is_applied()
                    && applied_before.clone().any(|(_, o)| {
                        o.kind == EditKind::Replace
                            && o.new_text.as_deref() == Some(old)
                            && o.old_text.is_some()
                            && o.old_text == op.new_text
                    })
                {
                    found.entry("self_revert").or_default().push(*i);
                }
            }
            if op.kind == EditKind::Insert {
                if let Some(text) = op.new_text.as_deref().filter(|t| !t.trim().is_empty()) {
                    if applied_before.clone().any(|(_, o)| {
                        o.kind == EditKind::Insert && o.new_text.as_deref() == Some(text)
                    }) {
                        found.entry("duplicate_insert").or_default().push(*i);
                    }
                }
            }
            if is_line_addressed(op) {
                if let Some(stale) = self.stale_line_edit(earlier, *i, op) {
                    found.entry("stale_line_edit").or_default().extend([stale, *i]);
                }
            }
        }
        for (rule, steps) in found {
            let n = steps.len();
            out.push(flag(
                "state_tracking",
                rule,
                steps,
                format!("{rule}: {n} step(s)"),
                "fm9.state",
            ));
        }
        // Lost edits: σ_n has the file, the patch does not.
        let new_files = self.written_whole_first();
        if let (Some(p), Some(last)) = (&self.p, self.states.last()) {
            let lost: Vec<&str> = last
                .files
                .iter()
                .filter(|f| f.is_changed() && !f.created && !p.contains(&f.path))
                .filter(|f| !new_files.contains_key(&f.path))
                .map(|f| f.path.as_str())
                .collect();
            if !lost.is_empty() {
                let steps = ops
                    .iter()
                    .filter(|(_, o)| lost.contains(&o.path.as_str()) && o.status.is_applied())
                    .map(|(i, _)| *i)
                    .collect();
                out.push(flag(
                    "state_tracking",
                    "lost_edit",
                    steps,
                    format!("edited but absent from the submitted patch: {}", lost.join(", ")),
                    "fm9.state",
                ));
            }
        }
    }

    /// The step of an earlier applied op that shifted the lines `op` addresses, with no
    /// observation naming the file since (the op's own step excluded).
    fn stale_line_edit(
        &self,
        earlier: &[(usize, &EditOp)],
        at: usize,
        op: &EditOp,
    ) -> Option<usize> {
        let target = op.lines_before.or(op.lines_after)?.start;
        let (shift_step, _) = earlier.iter().rev().find(|(_, o)| {
            o.path == op.path && o.status.is_applied() && is_line_addressed(o) && {
                let before =
                    o.lines_before.map_or(0, |r| i64::from(r.end) - i64::from(r.start) + 1);
                let after = o
                    .lines_after
                    .map(|r| i64::from(r.end) - i64::from(r.start) + 1)
                    .or_else(|| o.new_text.as_deref().map(|t| i64::from(line_count(t))));
                let above = o.lines_before.or(o.lines_after).is_some_and(|r| r.start < target);
                after.is_some_and(|a| a != before) && above
            }
        })?;
        // The shifting step's own observation shows the file when the tool echoes it (the
        // SWE-agent window); any observation naming the file after it counts as a view.
        let viewed = self
            .t
            .steps
            .iter()
            .filter(|s| s.index >= *shift_step && s.index < at)
            .any(|s| s.observation.as_deref().is_some_and(|o| o.contains(op.path.as_str())));
        (!viewed).then_some(*shift_step)
    }

    /// FM-10 task-style drift.
    fn task_style_drift(&self, out: &mut Vec<FailureMode>) {
        let mut scripts: BTreeMap<String, usize> = BTreeMap::new();
        for (path, i) in self.written_whole_first() {
            let name = path.rsplit('/').next().unwrap_or("");
            let script = name.ends_with(".py")
                && (name.starts_with("repro") || name.starts_with("test_"))
                && !path.split('/').any(|c| matches!(c, "test" | "tests" | "testing"));
            let left_out = self.p.as_ref().is_some_and(|p| !p.contains(&path));
            if script || left_out {
                scripts.insert(path, i);
            }
        }
        if !scripts.is_empty() {
            out.push(flag(
                "task_style_drift",
                "repro_script",
                scripts.values().copied().collect(),
                format!(
                    "created scripts or files left out of the patch: {}",
                    scripts.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
                "fm10.style",
            ));
        }
        let runner = regex::Regex::new(
            r"(^|[\s;&|(])(pytest|py\.test|tox)(\s|$)|python[0-9.]*\s+(-[A-Za-z]+\s+)*-m\s+(pytest|unittest)\b|manage\.py\s+test\b",
        )
        .ok();
        let ran: Vec<usize> = self
            .t
            .steps
            .iter()
            .filter(|s| s.role == Role::Agent)
            .filter(|s| runner.as_ref().is_some_and(|r| r.is_match(&command_text(s))))
            .map(|s| s.index)
            .collect();
        if !ran.is_empty() {
            let n = ran.len();
            out.push(flag(
                "task_style_drift",
                "ran_tests",
                ran,
                format!("{n} test-runner command(s)"),
                "fm10.style",
            ));
        }
        if let (Some(task), Some(p)) = (self.task, &self.p) {
            if task.final_result.is_some() || task.pristine_result.is_some() {
                let read: BTreeSet<String> = test_reads(task).into_values().flatten().collect();
                // A test file the agent's instructions name was asked for, not drift.
                let asked = self.t.task.as_deref().unwrap_or("");
                let unread: Vec<&str> = p
                    .iter()
                    .filter(|f| {
                        in_test_tree(f) && !read.contains(*f) && !asked.contains(f.as_str())
                    })
                    .map(String::as_str)
                    .collect();
                if !unread.is_empty() {
                    let steps = self
                        .all_ops()
                        .filter(|(_, o)| unread.contains(&o.path.as_str()))
                        .map(|(i, _)| i)
                        .collect();
                    out.push(flag(
                        "task_style_drift",
                        "edited_unread_tests",
                        steps,
                        format!(
                            "the patch changes test files no task test reads: {}",
                            unread.join(", ")
                        ),
                        "fm10.style",
                    ));
                }
            }
        }
    }

    /// FM-0 primary label of a scored, unresolved task.
    fn primary(&self, facts: &Facts) -> Option<String> {
        let task = self.task?;
        let fin = task.final_result.as_ref()?;
        if fin.resolved {
            return None;
        }
        let breadth = breadth_set(task);
        let breadth_rejection =
            self.all_ops().any(|(_, o)| is_rejected(o) && breadth.contains(&o.path));
        let label = if fin.patch_status == PatchStatus::Failed {
            "not_scored"
        } else if facts.no_patch {
            "no_patch"
        } else if !matches!(facts.exit.as_str(), "submitted" | "unknown") {
            "limit"
        } else if facts.untouched_failing > 0 {
            "untouched_target"
        } else if breadth_rejection {
            "edit_errors"
        } else {
            "incomplete"
        };
        Some(label.to_string())
    }
}

/// Tokens a step's observation added to the next model call: the next logged prompt minus this
/// call's prompt and completion.
fn usage_delta(s: &Step, later: &[Step]) -> Option<u64> {
    let this = s.tokens.as_ref()?;
    let next = later.iter().find_map(|n| n.tokens.as_ref()?.prompt)?;
    next.checked_sub(this.prompt?)?.checked_sub(this.completion.unwrap_or(0))
}

/// Windows of `len` agent turns alternating between two distinct actions (A,B,A,B,…),
/// overlapping windows merged.
fn alternations(agent: &[&Step], acts: &[Option<String>], len: usize) -> Vec<Vec<usize>> {
    let mut found: Vec<Vec<usize>> = Vec::new();
    if len < 2 {
        return found;
    }
    let mut last_end: Option<usize> = None;
    for start in 0..agent.len().saturating_sub(len - 1) {
        let w = &acts[start..start + len];
        let ok = w.iter().all(Option::is_some)
            && w[0] != w[1]
            && w.iter().enumerate().all(|(k, a)| *a == w[k % 2]);
        if !ok {
            continue;
        }
        let idx: Vec<usize> = (start..start + len).map(|k| agent[k].index).collect();
        match (last_end, found.last_mut()) {
            (Some(e), Some(prev)) if start <= e => {
                for i in idx {
                    if !prev.contains(&i) {
                        prev.push(i);
                    }
                }
            }
            _ => found.push(idx),
        }
        last_end = Some(start + len - 1);
    }
    found
}

/// Two edit ops are the same command: same tool, file, kind, lines and texts.
fn same_edit(a: &EditOp, b: &EditOp) -> bool {
    a.tool == b.tool
        && a.path == b.path
        && a.kind == b.kind
        && a.lines_before == b.lines_before
        && a.old_text == b.old_text
        && a.new_text == b.new_text
        && a.new_path == b.new_path
}

/// The undefined names of a lint error list when every error line is an undefined name
/// (F821 or F822); `None` when another error is listed or none is.
fn undefined_names_only(text: &str) -> Option<Vec<String>> {
    let line_re = regex::Regex::new(r"^-\s+(?:line \d+ col \d+:\s+)?([A-Z]\d{3})\b(.*)$").ok()?;
    let name_re = regex::Regex::new(r"undefined name '([A-Za-z_][A-Za-z0-9_]*)'").ok()?;
    let mut names = Vec::new();
    let mut any = false;
    for l in text.lines() {
        let Some(c) = line_re.captures(l.trim()) else { continue };
        any = true;
        let code = c.get(1).map_or("", |m| m.as_str());
        if code != "F821" && code != "F822" {
            return None;
        }
        let name = name_re.captures(c.get(2).map_or("", |m| m.as_str()))?.get(1)?.as_str();
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    (any && !names.is_empty()).then_some(names)
}

/// Whether `code` binds `name` (def, class, assignment, import or `as` target).
fn defines(code: &str, name: &str) -> bool {
    let n = regex::escape(name);
    let pattern = format!(
        r"(?m)^\s*(?:async\s+)?def\s+{n}\b|^\s*class\s+{n}\b|^\s*{n}\s*(?::[^=\n]*)?=[^=]|\bimport\s+(?:[\w.]+\s*,\s*)*{n}\b|\bas\s+{n}\b|^\s*from\s+\S+\s+import\s+[^\n]*\b{n}\b"
    );
    regex::Regex::new(&pattern).is_ok_and(|r| r.is_match(code))
}

/// Runs every detector over a trajectory. `states`: its σ per step ([`super::sigma::edit_state`]).
pub fn detect(
    t: &Trajectory,
    task: Option<&TaskContext>,
    states: &[StepState],
    th: Thresholds,
) -> Detection {
    let p = t.submission.as_deref().and_then(patch_paths).or_else(|| {
        // Without a parsable submission, the files the scored patch changed.
        let fin = task?.final_result.as_ref()?;
        (fin.patch_status == PatchStatus::Applied).then(|| {
            fin.files
                .iter()
                .flat_map(|f| std::iter::once(f.path.clone()).chain(f.old_path.clone()))
                .collect()
        })
    });
    let ctx = Ctx { t, task, p, states, th };
    let mut facts = Facts {
        resolved: task.and_then(|k| k.final_result.as_ref()).map(|r| r.resolved),
        subtests_passed: task.and_then(|k| k.final_result.as_ref()).map(|r| r.subtests_passed),
        subtests_total: task.and_then(|k| k.final_result.as_ref()).map(|r| r.subtests_total),
        repo: task.and_then(|k| k.repo.clone()),
        instance_id: task.map(|k| k.instance_id.clone()).or_else(|| t.instance_id.clone()),
        agent: t.model.clone(),
        ..Facts::default()
    };
    let mut out = Vec::new();
    ctx.untouched_target(&mut facts, &mut out);
    ctx.edit_error(&mut facts, &mut out);
    ctx.temporary_error(&mut out);
    ctx.context_flooding(&mut facts, &mut out);
    ctx.loops(&mut out);
    ctx.limit(&mut facts, &mut out);
    ctx.breadth(&mut facts, &mut out);
    ctx.instruction_set(&mut facts, &mut out);
    ctx.state_tracking(&mut out);
    ctx.task_style_drift(&mut out);
    let primary = ctx.primary(&facts);
    Detection { failure_modes: out, facts, primary }
}

/// A rate with its definition: `n` of `d`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rate {
    pub id: String,
    pub n: u64,
    pub d: u64,
    /// Why the rate cannot be computed from what was given, when `d` is 0 ("not computable: …"
    /// is shown instead of a 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_computable: Option<String>,
}

impl Rate {
    fn new(id: &str, n: u64, d: u64) -> Rate {
        let not_computable = (d == 0).then(|| not_computable(id).to_string());
        Rate { id: id.to_string(), n, d, not_computable }
    }

    /// `n / d`, `None` when `d` is 0.
    pub fn value(&self) -> Option<f64> {
        (self.d > 0).then(|| self.n as f64 / self.d as f64)
    }
}

/// Why a rate has no denominator: what its definition needs that the input lacks.
fn not_computable(id: &str) -> &'static str {
    let prefix = id.split('_').next().unwrap_or(id);
    match id {
        "resolved" | "fm2.edit_error_of_unresolved" | "fm3.task_needs_temporary_error_of_scored" => {
            "no trajectory was paired with a scored result (give the report and --tasks)"
        }
        "fm7.over_6_of_with_breadth" | "fm7.resolved_over_6" | "fm7.resolved_in_bucket" => {
            "no breadth: needs the per-test reads of the pristine and final runs (a report and --tasks)"
        }
        _ if prefix.starts_with("fm1.") => {
            "no change-checking test: needs per-test verdicts and reads of the pristine and final runs (a report and --tasks)"
        }
        "fm2.edit_error_of_editing" | "fm2.edit_rejection_of_editing" => {
            "no edit step recognised in these logs"
        }
        "fm3.blocked_of_lint_rejecting" => {
            "no lint-rejected edit (the agent's editor has no lint gate, or it never rejected)"
        }
        _ => "no trajectories",
    }
}

/// One trajectory as a run aggregate sees it.
#[derive(Debug, Clone, Copy)]
pub struct RunEntry<'a> {
    pub detection: &'a Detection,
    pub cost_usd: Option<f64>,
}

/// Rates of one group of trajectories (a run, one instruction set, one repository).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupRates {
    pub trajectories: u64,
    pub rates: Vec<Rate>,
    /// Mean observation tokens per lint-rejected edit (the paper's ≈1,466), and whether every
    /// count was exact (else estimated).
    pub mean_tokens_per_lint_rejection: Option<f64>,
    pub tokens_exact: bool,
    /// Mean share of subtests passed, over trajectories with verdicts.
    pub mean_subtests_passed: Option<f64>,
    /// FM-6 histogram: exit category → trajectories.
    pub exit_reasons: BTreeMap<String, u64>,
    /// FM-0 histogram over scored, unresolved trajectories.
    pub primary_labels: BTreeMap<String, u64>,
    /// FM-7: resolved / trajectories per breadth bucket.
    pub by_breadth: BTreeMap<String, Rate>,
    /// Total cost over solved tasks; `None` ("no data") unless every trajectory logged a cost.
    pub cost_per_solved_usd: Option<f64>,
}

/// The per-run failure-mode section: the whole run, per instruction set, per repository.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunFailureSummary {
    pub overall: GroupRates,
    pub by_instruction_set: BTreeMap<String, GroupRates>,
    pub by_repo: BTreeMap<String, GroupRates>,
    /// FM-8: agent → set without location guidance (`lazy`, `base`) → its gap to descriptive,
    /// over the tasks that agent ran under both. Never pooled across agents: a gap between two
    /// agents' runs would measure the agents, not the instructions.
    pub location_guidance_gap: BTreeMap<String, BTreeMap<String, GuidanceGap>>,
    /// The definitions the rate ids refer to.
    pub definitions: Vec<Interpretation>,
}

/// FM-8's location-guidance gap of one agent and one instruction set without file locations.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GuidanceGap {
    /// Tasks the agent ran under this set and under descriptive (the rates are over these only).
    pub tasks: u64,
    /// FM-1 primary rate under the set (untouched-target failures / failing change-checking tests).
    pub without_guidance: Rate,
    /// The same rate under descriptive.
    pub descriptive: Rate,
    /// `without_guidance − descriptive`, as a fraction.
    pub gap: f64,
}

/// FM-8's gaps, per agent (`facts.agent`, "unknown" when the log names none), each over the
/// tasks (`facts.instance_id`) that agent ran under both sets compared.
fn guidance_gaps(entries: &[RunEntry<'_>]) -> BTreeMap<String, BTreeMap<String, GuidanceGap>> {
    // agent → task → set → (untouched failing, failing change-checking)
    type Cells = BTreeMap<String, BTreeMap<String, BTreeMap<String, (u64, u64)>>>;
    let mut cells: Cells = BTreeMap::new();
    for e in entries {
        let f = &e.detection.facts;
        let (Some(task), Some(set)) = (&f.instance_id, f.instruction_set) else { continue };
        let agent = f.agent.clone().unwrap_or_else(|| "unknown".into());
        let cell = cells
            .entry(agent)
            .or_default()
            .entry(task.clone())
            .or_default()
            .entry(set.as_str().to_string())
            .or_default();
        cell.0 += u64::from(f.untouched_failing);
        cell.1 += u64::from(f.change_checking_failing);
    }
    let mut out: BTreeMap<String, BTreeMap<String, GuidanceGap>> = BTreeMap::new();
    for (agent, tasks) in &cells {
        for set in ["lazy", "base"] {
            let (mut tasks_n, mut a, mut b) = (0u64, (0u64, 0u64), (0u64, 0u64));
            for per_set in tasks.values() {
                if let (Some(x), Some(y)) = (per_set.get(set), per_set.get("descriptive")) {
                    tasks_n += 1;
                    a = (a.0 + x.0, a.1 + x.1);
                    b = (b.0 + y.0, b.1 + y.1);
                }
            }
            let (without, desc) = (
                Rate::new("fm1.untouched_of_failing_change_checking", a.0, a.1),
                Rate::new("fm1.untouched_of_failing_change_checking", b.0, b.1),
            );
            if let (Some(x), Some(y)) = (without.value(), desc.value()) {
                out.entry(agent.clone()).or_default().insert(
                    set.to_string(),
                    GuidanceGap {
                        tasks: tasks_n,
                        without_guidance: without,
                        descriptive: desc,
                        gap: x - y,
                    },
                );
            }
        }
    }
    out
}

fn has(d: &Detection, id: &str) -> bool {
    d.failure_modes.iter().any(|m| m.id == id)
}

fn has_rule(d: &Detection, id: &str, rule: &str) -> bool {
    d.failure_modes.iter().any(|m| m.id == id && m.rule == rule)
}

fn group(entries: &[RunEntry<'_>]) -> GroupRates {
    let count = |f: &dyn Fn(&Detection) -> bool| -> u64 {
        entries.iter().filter(|e| f(e.detection)).count() as u64
    };
    let sum =
        |f: &dyn Fn(&Facts) -> u64| -> u64 { entries.iter().map(|e| f(&e.detection.facts)).sum() };
    let all = entries.len() as u64;
    let scored = count(&|d| d.facts.resolved.is_some());
    let resolved = count(&|d| d.facts.resolved == Some(true));
    let unresolved = count(&|d| d.facts.resolved == Some(false));
    let editing = count(&|d| d.facts.edit_steps > 0);
    let erroring = count(&|d| d.facts.erroring_edit_steps > 0);
    let rejecting = count(&|d| d.facts.rejecting_edit_steps > 0);
    let lint_rejecting = count(&|d| d.facts.lint_rejections > 0);
    let with_breadth = count(&|d| d.facts.breadth.is_some());
    let rates = vec![
        Rate::new("resolved", resolved, scored),
        Rate::new(
            "fm1.untouched_of_failing_change_checking",
            sum(&|f| u64::from(f.untouched_failing)),
            sum(&|f| u64::from(f.change_checking_failing)),
        ),
        Rate::new(
            "fm1.untouched_of_change_checking",
            sum(&|f| u64::from(f.untouched)),
            sum(&|f| u64::from(f.change_checking)),
        ),
        Rate::new("fm2.edit_error_of_editing", erroring, editing),
        Rate::new("fm2.edit_rejection_of_editing", rejecting, editing),
        Rate::new("fm2.edit_error_of_all", erroring, all),
        Rate::new(
            "fm2.edit_error_of_unresolved",
            count(&|d| d.facts.resolved == Some(false) && d.facts.erroring_edit_steps > 0),
            unresolved,
        ),
        Rate::new(
            "fm3.blocked_of_lint_rejecting",
            count(&|d| has_rule(d, "temporary_error_blocked", "blocked_by_linter")),
            lint_rejecting,
        ),
        Rate::new(
            "fm3.task_needs_temporary_error_of_scored",
            count(&|d| has_rule(d, "temporary_error_blocked", "task_needs_temporary_error")),
            scored,
        ),
        Rate::new("fm4.flooded_of_all", count(&|d| has(d, "context_flooding")), all),
        Rate::new("fm5.loop_of_all", count(&|d| has(d, "loop")), all),
        Rate::new(
            "fm5.same_failed_edit_reissued_of_all",
            count(&|d| has_rule(d, "loop", "same_failed_edit_reissued")),
            all,
        ),
        Rate::new("fm6.submitted_of_all", count(&|d| d.facts.exit == "submitted"), all),
        Rate::new("fm6.no_patch_of_all", count(&|d| d.facts.no_patch), all),
        Rate::new("fm7.over_6_of_with_breadth", count(&|d| has(d, "breadth")), with_breadth),
        Rate::new(
            "fm7.resolved_over_6",
            count(&|d| has(d, "breadth") && d.facts.resolved == Some(true)),
            count(&|d| has(d, "breadth") && d.facts.resolved.is_some()),
        ),
        Rate::new("fm9.state_tracking_of_all", count(&|d| has(d, "state_tracking")), all),
        Rate::new("fm10.drift_of_all", count(&|d| has(d, "task_style_drift")), all),
    ];
    let lint_n = sum(&|f| u64::from(f.lint_rejections));
    let lint_tok = sum(&|f| f.lint_rejection_tokens);
    let mut exit_reasons = BTreeMap::new();
    let mut primary_labels = BTreeMap::new();
    let mut by_breadth: BTreeMap<String, Rate> = BTreeMap::new();
    let mut shares = Vec::new();
    for e in entries {
        let f = &e.detection.facts;
        *exit_reasons.entry(f.exit.clone()).or_insert(0) += 1;
        if let Some(p) = &e.detection.primary {
            *primary_labels.entry(p.clone()).or_insert(0) += 1;
        }
        if let (Some(b), Some(r)) = (f.breadth, f.resolved) {
            let bucket = breadth_bucket(b);
            let rate = by_breadth
                .entry(bucket.to_string())
                .or_insert_with(|| Rate::new("fm7.resolved_in_bucket", 0, 0));
            rate.d += 1;
            rate.n += u64::from(r);
            rate.not_computable = None;
        }
        if let (Some(p), Some(t)) = (f.subtests_passed, f.subtests_total) {
            if t > 0 {
                shares.push(f64::from(p) / f64::from(t));
            }
        }
    }
    let costs: Option<Vec<f64>> = entries.iter().map(|e| e.cost_usd).collect();
    GroupRates {
        trajectories: all,
        rates,
        mean_tokens_per_lint_rejection: (lint_n > 0).then(|| lint_tok as f64 / lint_n as f64),
        tokens_exact: entries
            .iter()
            .all(|e| e.detection.facts.tokens_exact || e.detection.facts.lint_rejections == 0),
        mean_subtests_passed: (!shares.is_empty())
            .then(|| shares.iter().sum::<f64>() / shares.len() as f64),
        exit_reasons,
        primary_labels,
        by_breadth,
        cost_per_solved_usd: costs
            .filter(|c| !c.is_empty() && resolved > 0)
            .map(|c| c.iter().sum::<f64>() / resolved as f64),
    }
}

/// The run's failure-mode rates, overall and by instruction set and repository.
pub fn summarise_run(entries: &[RunEntry<'_>]) -> RunFailureSummary {
    let mut by_set: BTreeMap<String, Vec<RunEntry<'_>>> = BTreeMap::new();
    let mut by_repo: BTreeMap<String, Vec<RunEntry<'_>>> = BTreeMap::new();
    for e in entries {
        let set = e.detection.facts.instruction_set.map_or("unknown", InstructionSet::as_str);
        by_set.entry(set.to_string()).or_default().push(*e);
        let repo = e.detection.facts.repo.clone().unwrap_or_else(|| "unknown".into());
        by_repo.entry(repo).or_default().push(*e);
    }
    RunFailureSummary {
        overall: group(entries),
        by_instruction_set: by_set.iter().map(|(k, v)| (k.clone(), group(v))).collect(),
        by_repo: by_repo.iter().map(|(k, v)| (k.clone(), group(v))).collect(),
        location_guidance_gap: guidance_gaps(entries),
        definitions: INTERPRETATIONS
            .iter()
            .map(|(i, t)| Interpretation { id: (*i).to_string(), text: (*t).to_string() })
            .collect(),
    }
}

/// One trajectory of a run with the task it worked on, for FM-8's per-task comparison.
#[derive(Debug, Clone, Copy)]
pub struct TaskEntry<'a> {
    pub instance_id: &'a str,
    pub entry: RunEntry<'a>,
}

/// FM-8 for one task under one instruction set.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskSetRates {
    pub trajectories: u64,
    pub resolved: Rate,
    pub mean_subtests_passed: Option<f64>,
    /// FM-1 primary: untouched-target failures / failing change-checking tests.
    pub fm1: Rate,
    /// FM-2 primary: trajectories with an erroring edit step / trajectories with edit steps.
    pub fm2: Rate,
}

/// FM-8 (P8–P10): the same agent's trajectories on several instruction sets, per task × set, and
/// the location-guidance gap per task (FM-1 rate under lazy or base minus under descriptive).
/// The input is one agent's run(s): the caller groups trajectories by agent (model); the set of
/// each trajectory is the one detected from its task text ([`detect_instruction_set`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SetComparison {
    /// Instruction sets found, with their trajectory counts.
    pub sets: BTreeMap<String, u64>,
    pub by_task: BTreeMap<String, BTreeMap<String, TaskSetRates>>,
    pub gap_by_task: BTreeMap<String, BTreeMap<String, f64>>,
    /// Why the comparison cannot be made from these trajectories, when it cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_computable: Option<String>,
}

/// FM-8's comparison over one agent's trajectories.
pub fn compare_instruction_sets(entries: &[TaskEntry<'_>]) -> SetComparison {
    let mut cells: BTreeMap<String, BTreeMap<String, Vec<&TaskEntry<'_>>>> = BTreeMap::new();
    let mut sets: BTreeMap<String, u64> = BTreeMap::new();
    for e in entries {
        let set = e.entry.detection.facts.instruction_set.map_or("unknown", InstructionSet::as_str);
        *sets.entry(set.to_string()).or_default() += 1;
        cells
            .entry(e.instance_id.to_string())
            .or_default()
            .entry(set.to_string())
            .or_default()
            .push(e);
    }
    let mut by_task = BTreeMap::new();
    let mut gap_by_task = BTreeMap::new();
    for (task, per_set) in &cells {
        let mut rates: BTreeMap<String, TaskSetRates> = BTreeMap::new();
        for (set, es) in per_set {
            let f = |e: &&TaskEntry<'_>| e.entry.detection.facts.clone();
            let facts: Vec<Facts> = es.iter().map(f).collect();
            let shares: Vec<f64> = facts
                .iter()
                .filter_map(|f| match (f.subtests_passed, f.subtests_total) {
                    (Some(p), Some(t)) if t > 0 => Some(f64::from(p) / f64::from(t)),
                    _ => None,
                })
                .collect();
            let n = |p: &dyn Fn(&Facts) -> bool| facts.iter().filter(|f| p(f)).count() as u64;
            let sum = |p: &dyn Fn(&Facts) -> u32| facts.iter().map(|f| u64::from(p(f))).sum();
            rates.insert(
                set.clone(),
                TaskSetRates {
                    trajectories: facts.len() as u64,
                    resolved: Rate::new(
                        "resolved",
                        n(&|f| f.resolved == Some(true)),
                        n(&|f| f.resolved.is_some()),
                    ),
                    mean_subtests_passed: (!shares.is_empty())
                        .then(|| shares.iter().sum::<f64>() / shares.len() as f64),
                    fm1: Rate::new(
                        "fm1.untouched_of_failing_change_checking",
                        sum(&|f| f.untouched_failing),
                        sum(&|f| f.change_checking_failing),
                    ),
                    fm2: Rate::new(
                        "fm2.edit_error_of_editing",
                        n(&|f| f.erroring_edit_steps > 0),
                        n(&|f| f.edit_steps > 0),
                    ),
                },
            );
        }
        if let Some(desc) = rates.get("descriptive").and_then(|r| r.fm1.value()) {
            for set in ["lazy", "base"] {
                if let Some(v) = rates.get(set).and_then(|r| r.fm1.value()) {
                    gap_by_task
                        .entry(task.clone())
                        .or_insert_with(BTreeMap::new)
                        .insert(set.to_string(), v - desc);
                }
            }
        }
        by_task.insert(task.clone(), rates);
    }
    let known = sets.keys().filter(|k| *k != "unknown").count();
    let not_computable = if known < 2 {
        Some(format!(
            "needs the same agent's trajectories under two or more instruction sets (found: {})",
            sets.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
        ))
    } else if gap_by_task.is_empty() {
        Some(
            "no task has FM-1 rates under descriptive and under lazy or base (needs a report and \
             --tasks, and the same task run under both)"
                .to_string(),
        )
    } else {
        None
    };
    SetComparison { sets, by_task, gap_by_task, not_computable }
}

/// [`SetComparison`] as plain text: a row per task × set, the gaps, or why it is not computable.
pub fn set_comparison_text(c: &SetComparison) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for (task, per_set) in &c.by_task {
        for (set, r) in per_set {
            let sub =
                r.mean_subtests_passed.map_or("-".to_string(), |m| format!("{:.1}%", m * 100.0));
            let _ = writeln!(
                out,
                "  {task} [{set}]: resolved {}, subtests {sub}, fm1 {}, fm2 {}",
                rate_text(&r.resolved),
                rate_text(&r.fm1),
                rate_text(&r.fm2)
            );
        }
    }
    for (task, gaps) in &c.gap_by_task {
        for (set, g) in gaps {
            let _ = writeln!(
                out,
                "  {task}: location guidance gap {set} - descriptive {:+.1} points",
                g * 100.0
            );
        }
    }
    if let Some(why) = &c.not_computable {
        let _ = writeln!(out, "  location guidance gap per task: not computable: {why}");
    }
    out
}

#[cfg(test)]
#[path = "failure_tests.rs"]
mod tests;

fn rate_text(r: &Rate) -> String {
    match r.value() {
        Some(v) => format!("{}/{} ({:.1}%)", r.n, r.d, v * 100.0),
        None => format!("{}/{}", r.n, r.d),
    }
}

fn group_text(out: &mut String, title: &str, g: &GroupRates) {
    use std::fmt::Write;
    let _ = writeln!(out, "{title}: {} trajectories", g.trajectories);
    for r in &g.rates {
        match (&r.not_computable, r.d) {
            (Some(why), 0) => {
                let _ = writeln!(out, "  {:<44} not computable: {why}", r.id);
            }
            _ => {
                let _ = writeln!(out, "  {:<44} {}", r.id, rate_text(r));
            }
        }
    }
    if let Some(m) = g.mean_tokens_per_lint_rejection {
        let est = if g.tokens_exact { "" } else { " (est.)" };
        let _ = writeln!(
            out,
            "  {:<44} {m:.0}{est} (paper: ≈1,466)",
            "fm4.mean_tokens_per_lint_rejection"
        );
    }
    if let Some(m) = g.mean_subtests_passed {
        let _ = writeln!(out, "  {:<44} {:.1}%", "mean_subtests_passed", m * 100.0);
    }
    let hist = |m: &BTreeMap<String, u64>| {
        m.iter().map(|(k, n)| format!("{k} {n}")).collect::<Vec<_>>().join(", ")
    };
    if !g.exit_reasons.is_empty() {
        let _ = writeln!(out, "  {:<44} {}", "fm6.exit_reasons", hist(&g.exit_reasons));
    }
    if !g.primary_labels.is_empty() {
        let _ = writeln!(out, "  {:<44} {}", "fm0.primary_labels", hist(&g.primary_labels));
    }
    for (bucket, r) in &g.by_breadth {
        let _ =
            writeln!(out, "  {:<44} {}", format!("fm7.resolved_breadth_{bucket}"), rate_text(r));
    }
    let cost = g.cost_per_solved_usd.map_or("no data".to_string(), |c| format!("${c:.2}"));
    let _ = writeln!(out, "  {:<44} {cost}", "cost_per_solved");
}

/// The run summary as plain text (the CLI prints it; the app renders the same type itself):
/// every rate as `n/d (p%)` under its definition id, the run first, then each instruction set
/// and repository, then the definitions.
pub fn run_summary_text(s: &RunFailureSummary) -> String {
    use std::fmt::Write;
    let mut out = String::from("failure modes (per run)\n");
    group_text(&mut out, "run", &s.overall);
    // A single group that is the whole run under "unknown" says nothing new.
    let same = |k: &str, g: &GroupRates| k == "unknown" && g.trajectories == s.overall.trajectories;
    for (k, g) in s.by_instruction_set.iter().filter(|(k, g)| !same(k, g)) {
        group_text(&mut out, &format!("instruction set {k}"), g);
    }
    for (k, g) in s.by_repo.iter().filter(|(k, g)| !same(k, g)) {
        group_text(&mut out, &format!("repository {k}"), g);
    }
    for (agent, gaps) in &s.location_guidance_gap {
        for (set, g) in gaps {
            let _ = writeln!(
                out,
                "fm8.location_guidance_gap agent {agent}, {set} - descriptive over {} task(s): fm1 {} - {} = {:+.1} points",
                g.tasks,
                rate_text(&g.without_guidance),
                rate_text(&g.descriptive),
                g.gap * 100.0
            );
        }
    }
    if s.location_guidance_gap.is_empty() {
        let sets: Vec<&str> = s.by_instruction_set.keys().map(String::as_str).collect();
        let _ = writeln!(
            out,
            "fm8.location_guidance_gap not computable: needs one agent's FM-1 rates on the same task \
             under the descriptive set and under lazy or base (sets found: {})",
            sets.join(", ")
        );
    }
    out.push_str("definitions:\n");
    for d in &s.definitions {
        let _ = writeln!(out, "  {}: {}", d.id, d.text);
    }
    out
}
