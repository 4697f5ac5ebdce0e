//! Run summaries and run comparisons, computed from [`Report`]s: what the CLI's `report` command
//! prints and the app renders. Pure functions over serialisable types.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::bundle::TaskData;
use crate::patch::PatchStatus;
use crate::report::{InstructionSet, Report, Status, TaskResult};

/// What the summary needs to know about a task besides its results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskMeta {
    pub instance_id: String,
    /// Repository folder name (`flask_refactor`).
    pub repo: String,
    /// Number of repository paths the task's test file inspects (the paper's breadth measure).
    pub inspected_files: u32,
    /// Number of test methods, so a patch that failed to apply counts as that many not passed.
    pub methods: u32,
}

impl TaskMeta {
    /// The metadata of a bundle task.
    pub fn from_task(task: &TaskData) -> TaskMeta {
        TaskMeta {
            instance_id: task.id.clone(),
            repo: task.repo.clone(),
            inspected_files: u32::try_from(task.inspected.len()).unwrap_or(u32::MAX),
            methods: u32::try_from(task.methods.len()).unwrap_or(u32::MAX),
        }
    }
}

/// Counts and rates over a set of results.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Result rows (one per scored submission).
    pub results: u32,
    pub resolved: u32,
    /// `100 * resolved / results`; `None` when there are no results.
    pub resolved_pct: Option<f64>,
    /// Passing test methods, and all methods the tasks define (a failed patch counts its task's
    /// methods as not passed).
    pub subtests_passed: u32,
    pub subtests_total: u32,
    pub subtests_pct: Option<f64>,
    /// Submissions whose patch did not apply, and empty submissions.
    pub patch_failed: u32,
    pub empty_patch: u32,
}

impl Tally {
    fn add(&mut self, r: &TaskResult, meta: Option<&TaskMeta>) {
        let inc = |n: &mut u32, by: u32| *n = n.saturating_add(by);
        inc(&mut self.results, 1);
        inc(&mut self.resolved, u32::from(r.resolved));
        inc(&mut self.subtests_passed, r.subtests_passed);
        let total = match (r.patch_status, meta) {
            (PatchStatus::Failed, Some(m)) => m.methods.max(r.subtests_total),
            _ => r.subtests_total,
        };
        inc(&mut self.subtests_total, total);
        inc(&mut self.patch_failed, u32::from(r.patch_status == PatchStatus::Failed));
        inc(&mut self.empty_patch, u32::from(r.patch_status == PatchStatus::None));
    }

    fn finish(mut self) -> Tally {
        self.resolved_pct = pct(self.resolved, self.results);
        self.subtests_pct = pct(self.subtests_passed, self.subtests_total);
        self
    }
}

fn pct(n: u32, d: u32) -> Option<f64> {
    (d > 0).then(|| 100.0 * f64::from(n) / f64::from(d))
}

/// One row of a breakdown: the group's name and its tally.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Group {
    pub key: String,
    #[serde(flatten)]
    pub tally: Tally,
}

/// Why patches failed, grouped by kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureReason {
    /// Short kind (see [`failure_kind`]).
    pub kind: String,
    pub count: u32,
    /// Instance ids, in report order, deduplicated.
    pub instance_ids: Vec<String>,
    /// The first full message of this kind, as an example.
    pub example: String,
}

/// The summary of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunStats {
    pub overall: Tally,
    /// Sorted by repository name; results of tasks without metadata go under `?`.
    pub by_repo: Vec<Group>,
    /// Lazy, base, descriptive, then `none` for results that name no set; empty when no result
    /// names one.
    pub by_instruction_set: Vec<Group>,
    /// Keyed by the number of files the tests inspect, numerically ascending (`?` last).
    pub by_inspected_files: Vec<Group>,
    /// Results without a model name first (`none`), then by model name.
    pub by_model: Vec<Group>,
    /// Patch failures by kind, most frequent first.
    pub patch_failures: Vec<FailureReason>,
    /// Entries of the report that could not be scored.
    pub entry_errors: u32,
}

/// One agent's resolved count over the whole bundle, as leaderboards count (a task not submitted
/// is a task not solved), beside its count over what it submitted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleRate {
    /// `None`: the results name no model (or no instruction set).
    pub model: Option<String>,
    pub instruction_set: Option<crate::report::InstructionSet>,
    pub resolved: u32,
    pub submitted: u32,
}

impl BundleRate {
    /// Resolved over the bundle's `tasks`, in percent (`None` for an empty bundle).
    pub fn of_bundle_pct(&self, tasks: usize) -> Option<f64> {
        (tasks > 0).then(|| 100.0 * f64::from(self.resolved) / tasks as f64)
    }

    /// Resolved over the submitted results, in percent.
    pub fn of_submitted_pct(&self) -> f64 {
        100.0 * f64::from(self.resolved) / f64::from(self.submitted.max(1))
    }
}

/// A [`BundleRate`] per model and instruction set of the run (the CLI's summary and the app's
/// run page both print these), ordered by model, then set, results without either first.
pub fn bundle_rates(report: &Report) -> Vec<BundleRate> {
    let mut groups: BTreeMap<(Option<String>, Option<&str>), BundleRate> = BTreeMap::new();
    for r in &report.results {
        let key = (r.model_name_or_path.clone(), r.instruction_set.map(|s| s.as_str()));
        let g = groups.entry(key).or_insert_with(|| BundleRate {
            model: r.model_name_or_path.clone(),
            instruction_set: r.instruction_set,
            resolved: 0,
            submitted: 0,
        });
        g.resolved += u32::from(r.resolved);
        g.submitted += 1;
    }
    groups.into_values().collect()
}

/// Summarises a run. `tasks` gives each task's repository and breadth; results of tasks it does
/// not list still count overall.
pub fn run_stats(report: &Report, tasks: &[TaskMeta]) -> RunStats {
    let meta: BTreeMap<&str, &TaskMeta> =
        tasks.iter().map(|t| (t.instance_id.as_str(), t)).collect();
    let mut overall = Tally::default();
    let mut repo: BTreeMap<String, Tally> = BTreeMap::new();
    let mut set: BTreeMap<Option<InstructionSet>, Tally> = BTreeMap::new();
    let mut files: BTreeMap<Option<u32>, Tally> = BTreeMap::new();
    let mut model: BTreeMap<Option<String>, Tally> = BTreeMap::new();
    let mut failures: Vec<FailureReason> = Vec::new();
    for r in &report.results {
        let m = meta.get(r.instance_id.as_str()).copied();
        overall.add(r, m);
        let repo_key = m.map_or_else(|| "?".to_string(), |m| m.repo.clone());
        repo.entry(repo_key).or_default().add(r, m);
        set.entry(r.instruction_set).or_default().add(r, m);
        files.entry(m.map(|m| m.inspected_files)).or_default().add(r, m);
        model.entry(r.model_name_or_path.clone()).or_default().add(r, m);
        if r.patch_status == PatchStatus::Failed {
            let message = r.patch_error.clone().unwrap_or_default();
            let kind = failure_kind(&message);
            match failures.iter_mut().find(|f| f.kind == kind) {
                Some(f) => {
                    f.count = f.count.saturating_add(1);
                    if !f.instance_ids.contains(&r.instance_id) {
                        f.instance_ids.push(r.instance_id.clone());
                    }
                }
                None => failures.push(FailureReason {
                    kind: kind.to_string(),
                    count: 1,
                    instance_ids: vec![r.instance_id.clone()],
                    example: message,
                }),
            }
        }
    }
    // Stable: equal counts keep first-seen order.
    failures.sort_by_key(|f| std::cmp::Reverse(f.count));
    let group = |key: String, t: Tally| Group { key, tally: t.finish() };
    // `None` sorts first in a BTreeMap; the "none" and "?" buckets belong last.
    let by_instruction_set = if set.keys().any(Option::is_some) {
        let mut rows: Vec<Group> = set
            .iter()
            .filter_map(|(k, t)| k.map(|k| group(k.as_str().to_string(), t.clone())))
            .collect();
        if let Some(t) = set.get(&None) {
            rows.push(group("none".to_string(), t.clone()));
        }
        rows
    } else {
        Vec::new()
    };
    let mut by_inspected_files: Vec<Group> =
        files.iter().filter_map(|(k, t)| k.map(|n| group(n.to_string(), t.clone()))).collect();
    if let Some(t) = files.get(&None) {
        by_inspected_files.push(group("?".to_string(), t.clone()));
    }
    RunStats {
        overall: overall.finish(),
        by_repo: repo.into_iter().map(|(k, t)| group(k, t)).collect(),
        by_instruction_set,
        by_inspected_files,
        by_model: model
            .into_iter()
            .map(|(k, t)| group(k.unwrap_or_else(|| "none".to_string()), t))
            .collect(),
        patch_failures: failures,
        entry_errors: u32::try_from(report.errors.len()).unwrap_or(u32::MAX),
    }
}

/// A short, stable kind for a patch failure message (git's wording varies with paths and lines).
pub fn failure_kind(message: &str) -> &'static str {
    let has = |s: &str| message.contains(s);
    if has("patch failed:") || has("patch does not apply") {
        "hunk does not apply"
    } else if has("No such file or directory") || has("does not exist in index") {
        "file to change is missing"
    } else if has("already exists") {
        "file to create already exists"
    } else if has("binary patch") {
        "binary patch"
    } else if has("invalid path") || has("not valid UTF-8") || has("beyond a symbolic link") {
        "invalid path"
    } else if has("index line") {
        "base file differs from the patch's index line"
    } else if has("corrupt patch")
        || has("patch with only garbage")
        || has("patch fragment without header")
        || has("bad git-diff")
        || has("lacks filename")
        || has("unable to find filename")
        || has("No valid patches")
        || has("invalid mode")
        || has("inconsistent")
        || has("recount")
        || has("depends on old contents")
        || has("still has contents")
    {
        "malformed patch"
    } else {
        "other"
    }
}

/// What identifies a result across runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RunKey {
    pub instance_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name_or_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_set: Option<InstructionSet>,
}

impl std::fmt::Display for RunKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.instance_id)?;
        if let Some(m) = &self.model_name_or_path {
            write!(f, " [{m}]")?;
        }
        if let Some(s) = self.instruction_set {
            write!(f, " ({})", s.as_str())?;
        }
        Ok(())
    }
}

/// A result whose verdict differs between the runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flip {
    pub key: RunKey,
    /// Resolved in the first run (so `false` means it became resolved).
    pub was_resolved: bool,
    pub now_resolved: bool,
}

/// A test method whose status differs; `None` when the method did not run in that run (patch
/// failed, or the test file changed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubtestDelta {
    pub key: RunKey,
    pub test: String,
    pub before: Option<Status>,
    pub after: Option<Status>,
}

/// The difference between two runs, `a` before and `b` after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Whether the runs were matched by model too. When the two runs share no model name (two
    /// agents, or one run without names), results are matched by instance and instruction set
    /// only, and the keys carry no model.
    pub matched_by_model: bool,
    /// Whether the runs were matched by instruction set too. When they share no set (one agent's
    /// lazy run against its base run), results are matched without it and the keys carry none.
    #[serde(default = "yes")]
    pub matched_by_instruction_set: bool,
    /// The two reports were scored against different bundles.
    pub bundle_differs: bool,
    /// Keys present in both runs.
    pub common: u32,
    /// Resolved among the common keys, before and after.
    pub resolved_before: u32,
    pub resolved_after: u32,
    /// Became unresolved, and became resolved.
    pub lost: Vec<Flip>,
    pub gained: Vec<Flip>,
    pub subtest_deltas: Vec<SubtestDelta>,
    pub only_in_a: Vec<RunKey>,
    pub only_in_b: Vec<RunKey>,
    /// Later results with a key already seen in the same run (only the first is compared).
    pub duplicates_ignored: u32,
}

fn yes() -> bool {
    true
}

/// How the results of several runs are matched: always by instance id; by model name when every
/// run has a model name (or "no name") in common, else two agents are compared; by instruction set
/// when every run has one in common, else one agent's instruction sets are compared side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matching {
    pub by_model: bool,
    pub by_instruction_set: bool,
}

impl Matching {
    /// The matching of `runs` (see the type).
    pub fn of(runs: &[&Report]) -> Matching {
        fn shared<T: Ord + Clone>(runs: &[&Report], f: impl Fn(&TaskResult) -> T) -> bool {
            let mut sets = runs.iter().map(|r| r.results.iter().map(&f).collect::<BTreeSet<T>>());
            let Some(first) = sets.next() else { return true };
            sets.fold(first, |acc, s| acc.intersection(&s).cloned().collect())
                .into_iter()
                .next()
                .is_some()
        }
        Matching {
            by_model: shared(runs, |r| r.model_name_or_path.clone()),
            by_instruction_set: shared(runs, |r| r.instruction_set),
        }
    }

    /// The key a result is matched by.
    pub fn key(self, r: &TaskResult) -> RunKey {
        RunKey {
            instance_id: r.instance_id.clone(),
            model_name_or_path: if self.by_model { r.model_name_or_path.clone() } else { None },
            instruction_set: if self.by_instruction_set { r.instruction_set } else { None },
        }
    }
}

/// Compares two runs: flips (resolved → unresolved and back), per-method status deltas and
/// results only one run has. Keys keep the first run's order, then the second's.
pub fn compare(a: &Report, b: &Report) -> Comparison {
    let matching = Matching::of(&[a, b]);
    let key = |r: &TaskResult| matching.key(r);
    let mut duplicates = 0u32;
    let (order_a, map_a) = index(a, &key, &mut duplicates);
    let (order_b, map_b) = index(b, &key, &mut duplicates);
    let mut c = Comparison {
        matched_by_model: matching.by_model,
        matched_by_instruction_set: matching.by_instruction_set,
        bundle_differs: a.bundle.hash != b.bundle.hash,
        common: 0,
        resolved_before: 0,
        resolved_after: 0,
        lost: Vec::new(),
        gained: Vec::new(),
        subtest_deltas: Vec::new(),
        only_in_a: Vec::new(),
        only_in_b: Vec::new(),
        duplicates_ignored: duplicates,
    };
    for k in &order_a {
        let Some(rb) = map_b.get(k) else {
            c.only_in_a.push(k.clone());
            continue;
        };
        let ra = map_a[k];
        c.common = c.common.saturating_add(1);
        c.resolved_before = c.resolved_before.saturating_add(u32::from(ra.resolved));
        c.resolved_after = c.resolved_after.saturating_add(u32::from(rb.resolved));
        if ra.resolved != rb.resolved {
            let flip =
                Flip { key: k.clone(), was_resolved: ra.resolved, now_resolved: rb.resolved };
            if ra.resolved {
                c.lost.push(flip);
            } else {
                c.gained.push(flip);
            }
        }
        // Methods in the first run's order, then methods only the second has.
        let before: BTreeMap<&str, Status> =
            ra.tests.iter().map(|t| (t.id.as_str(), t.status)).collect();
        let after: BTreeMap<&str, Status> =
            rb.tests.iter().map(|t| (t.id.as_str(), t.status)).collect();
        let ids =
            ra.tests.iter().map(|t| t.id.as_str()).chain(
                rb.tests.iter().map(|t| t.id.as_str()).filter(|id| !before.contains_key(id)),
            );
        for id in ids {
            let (x, y) = (before.get(id).copied(), after.get(id).copied());
            if x != y {
                c.subtest_deltas.push(SubtestDelta {
                    key: k.clone(),
                    test: id.to_string(),
                    before: x,
                    after: y,
                });
            }
        }
    }
    c.only_in_b = order_b.into_iter().filter(|k| !map_a.contains_key(k)).collect();
    c
}

/// A result's verdict in the run matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Resolved,
    /// Not resolved, some test methods passed.
    Partly,
    /// Not resolved, no method passed.
    Failed,
    /// `git apply` refused the patch: no test ran.
    PatchFailed,
}

impl Outcome {
    pub fn of(r: &TaskResult) -> Outcome {
        if r.patch_status == PatchStatus::Failed {
            Outcome::PatchFailed
        } else if r.resolved {
            Outcome::Resolved
        } else if r.subtests_passed > 0 {
            Outcome::Partly
        } else {
            Outcome::Failed
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Resolved => "resolved",
            Outcome::Partly => "partly",
            Outcome::Failed => "failed",
            Outcome::PatchFailed => "patch failed",
        }
    }
}

/// One run's result in a matrix row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatrixCell {
    pub outcome: Outcome,
    pub passed: u32,
    pub total: u32,
}

/// One key across the runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatrixRow {
    pub key: RunKey,
    /// From the task metadata; `None` for tasks it does not list.
    pub repo: Option<String>,
    /// One per run, `None` where the run has no result of this key.
    pub cells: Vec<Option<MatrixCell>>,
    /// Resolved in one run and not in another (among the runs that have it).
    pub flip: bool,
    /// Anything differs: a flip, a verdict, a method's status, or a run without the key.
    pub changed: bool,
}

/// Several runs side by side: one row per key, flips first, then in first-seen order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMatrix {
    pub matching: Matching,
    pub rows: Vec<MatrixRow>,
    /// Later results with a key already seen in the same run (only the first is shown).
    pub duplicates_ignored: u32,
}

/// The task × run matrix of `runs`, matched as [`compare`] matches two (see [`Matching`]).
pub fn matrix(runs: &[&Report], tasks: &[TaskMeta]) -> RunMatrix {
    let matching = Matching::of(runs);
    let key = |r: &TaskResult| matching.key(r);
    let mut duplicates = 0u32;
    let indexed: Vec<_> = runs.iter().map(|r| index(r, &key, &mut duplicates)).collect();
    let mut order: Vec<&RunKey> = Vec::new();
    let mut seen: BTreeSet<&RunKey> = BTreeSet::new();
    for (o, _) in &indexed {
        for k in o {
            if seen.insert(k) {
                order.push(k);
            }
        }
    }
    let repo: BTreeMap<&str, &str> =
        tasks.iter().map(|t| (t.instance_id.as_str(), t.repo.as_str())).collect();
    let mut rows: Vec<MatrixRow> = order
        .into_iter()
        .map(|k| {
            let results: Vec<Option<&TaskResult>> =
                indexed.iter().map(|(_, m)| m.get(k).copied()).collect();
            let present: Vec<&TaskResult> = results.iter().flatten().copied().collect();
            let flip = present.iter().any(|r| r.resolved) && present.iter().any(|r| !r.resolved);
            let statuses = |r: &TaskResult| -> Vec<(String, Status)> {
                r.tests.iter().map(|t| (t.id.clone(), t.status)).collect()
            };
            let cells: Vec<Option<MatrixCell>> = results
                .iter()
                .map(|r| {
                    r.map(|r| MatrixCell {
                        outcome: Outcome::of(r),
                        passed: r.subtests_passed,
                        total: r.subtests_total,
                    })
                })
                .collect();
            let changed = present.len() < runs.len()
                || cells.windows(2).any(|w| w[0] != w[1])
                || present.windows(2).any(|w| statuses(w[0]) != statuses(w[1]));
            MatrixRow {
                repo: repo.get(k.instance_id.as_str()).map(|r| (*r).to_string()),
                key: k.clone(),
                cells,
                flip,
                changed,
            }
        })
        .collect();
    // Stable: flips first, each part keeping first-seen order.
    rows.sort_by_key(|r| !r.flip);
    RunMatrix { matching, rows, duplicates_ignored: duplicates }
}

/// One group (a repository, an instruction set) across runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupAcross {
    pub key: String,
    /// One per run, `None` where the run has no result in the group.
    pub tallies: Vec<Option<Tally>>,
}

impl GroupAcross {
    /// Run `i`'s resolved rate minus the first run's, in percentage points.
    pub fn resolved_delta(&self, i: usize) -> Option<f64> {
        let rate = |j: usize| self.tallies.get(j)?.as_ref()?.resolved_pct;
        Some(rate(i)? - rate(0)?)
    }
}

/// The breakdowns of several runs' [`RunStats`] aligned by group key, for their deltas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Aggregates {
    pub overall: GroupAcross,
    pub by_repo: Vec<GroupAcross>,
    pub by_instruction_set: Vec<GroupAcross>,
}

/// Aligns the runs' breakdowns: groups in the first run's order, then groups only later runs have.
pub fn aggregates(stats: &[RunStats]) -> Aggregates {
    let align = |pick: fn(&RunStats) -> &Vec<Group>| -> Vec<GroupAcross> {
        let mut keys: Vec<&str> = Vec::new();
        for s in stats {
            for g in pick(s) {
                if !keys.contains(&g.key.as_str()) {
                    keys.push(&g.key);
                }
            }
        }
        keys.into_iter()
            .map(|k| GroupAcross {
                key: k.to_string(),
                tallies: stats
                    .iter()
                    .map(|s| pick(s).iter().find(|g| g.key == k).map(|g| g.tally.clone()))
                    .collect(),
            })
            .collect()
    };
    Aggregates {
        overall: GroupAcross {
            key: "all".to_string(),
            tallies: stats.iter().map(|s| Some(s.overall.clone())).collect(),
        },
        by_repo: align(|s| &s.by_repo),
        by_instruction_set: align(|s| &s.by_instruction_set),
    }
}

/// What a run is of, read from its results: the model names (the agent) and instruction sets
/// they carry, sorted and deduplicated. A run "of one agent on one set" has one of each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunProfile {
    pub models: Vec<String>,
    pub instruction_sets: Vec<InstructionSet>,
}

impl RunProfile {
    pub fn of(r: &Report) -> RunProfile {
        let models: BTreeSet<&String> =
            r.results.iter().filter_map(|x| x.model_name_or_path.as_ref()).collect();
        let sets: BTreeSet<InstructionSet> =
            r.results.iter().filter_map(|x| x.instruction_set).collect();
        RunProfile {
            models: models.into_iter().cloned().collect(),
            instruction_sets: sets.into_iter().collect(),
        }
    }
}

/// Runs of one agent on different instruction sets: for every model that has single-model,
/// single-set runs on at least two sets, its runs' ids ordered lazy, base, descriptive (the
/// first run listed of each set). `runs` pairs an id with the run's profile.
pub fn instruction_set_series<'a>(
    runs: &[(&'a str, &RunProfile)],
) -> Vec<(String, Vec<(InstructionSet, &'a str)>)> {
    let mut by_model: BTreeMap<&str, BTreeMap<InstructionSet, &'a str>> = BTreeMap::new();
    for (id, p) in runs {
        if let ([m], [s]) = (p.models.as_slice(), p.instruction_sets.as_slice()) {
            by_model.entry(m).or_default().entry(*s).or_insert(id);
        }
    }
    by_model
        .into_iter()
        .filter(|(_, sets)| sets.len() > 1)
        .map(|(m, sets)| (m.to_string(), sets.into_iter().collect()))
        .collect()
}

/// A run's keys in order, and the first result of each key.
fn index<'r>(
    r: &'r Report,
    key: &dyn Fn(&TaskResult) -> RunKey,
    duplicates: &mut u32,
) -> (Vec<RunKey>, BTreeMap<RunKey, &'r TaskResult>) {
    let mut order = Vec::new();
    let mut map = BTreeMap::new();
    for x in &r.results {
        let k = key(x);
        if map.contains_key(&k) {
            *duplicates = duplicates.saturating_add(1);
            continue;
        }
        order.push(k.clone());
        map.insert(k, x);
    }
    (order, map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{EntryError, SourceRef, TestOutcome};

    fn t(id: &str, status: Status) -> TestOutcome {
        TestOutcome {
            id: id.into(),
            status,
            exc_type: None,
            message: None,
            line: None,
            reads: Vec::new(),
        }
    }

    fn r(
        id: &str,
        model: Option<&str>,
        set: Option<InstructionSet>,
        tests: &[(&str, Status)],
    ) -> TaskResult {
        let tests: Vec<TestOutcome> = tests.iter().map(|(n, s)| t(n, *s)).collect();
        let passed = tests.iter().filter(|t| t.status == Status::Pass).count() as u32;
        TaskResult {
            instance_id: id.into(),
            model_name_or_path: model.map(str::to_string),
            instruction_set: set,
            source: None,
            patch_status: PatchStatus::Applied,
            patch_error: None,
            files: Vec::new(),
            resolved: !tests.is_empty() && passed as usize == tests.len(),
            subtests_passed: passed,
            subtests_total: tests.len() as u32,
            tests,
        }
    }

    fn failed(id: &str, why: &str) -> TaskResult {
        TaskResult {
            patch_status: PatchStatus::Failed,
            patch_error: Some(why.into()),
            ..r(id, None, None, &[])
        }
    }

    fn meta(id: &str, repo: &str, files: u32, methods: u32) -> TaskMeta {
        TaskMeta { instance_id: id.into(), repo: repo.into(), inspected_files: files, methods }
    }

    use Status::{Error as E, Fail as F, Pass as P};

    #[test]
    fn run_stats_by_repo_set_breadth_and_failures() {
        use InstructionSet::*;
        let results = vec![
            r("a", Some("m"), Some(Lazy), &[("T.x", P), ("T.y", P)]),
            r("a", Some("m"), Some(Base), &[("T.x", P), ("T.y", F)]),
            r("b", Some("m"), None, &[("T.z", E)]),
            failed("c", "patch failed: pkg/mod.py:12"),
            failed("c", "patch failed: pkg/other.py:3"),
            failed("d", "corrupt patch at line 7"),
            r("zz", None, None, &[("T.q", P)]),
        ];
        let errors = vec![EntryError {
            source: SourceRef { file: "p.jsonl".into(), line: Some(9) },
            instance_id: None,
            model_name_or_path: None,
            message: "invalid JSON line".into(),
        }];
        let report = Report::new("h", results, errors);
        let tasks = [
            meta("a", "r1", 2, 2),
            meta("b", "r2", 1, 1),
            meta("c", "r1", 5, 3),
            meta("d", "r2", 2, 4),
        ];
        let s = run_stats(&report, &tasks);
        assert_eq!((s.overall.results, s.overall.resolved), (7, 2));
        // 2+1+0+0+0+0+1 passed of 2+2+1+3+3+4+1 methods.
        assert_eq!((s.overall.subtests_passed, s.overall.subtests_total), (4, 16));
        assert_eq!(s.overall.subtests_pct, Some(25.0));
        assert_eq!((s.overall.patch_failed, s.entry_errors), (3, 1));
        let keys =
            |g: &[Group]| g.iter().map(|g| (g.key.clone(), g.tally.results)).collect::<Vec<_>>();
        assert_eq!(keys(&s.by_repo), vec![("?".into(), 1), ("r1".into(), 4), ("r2".into(), 2)]);
        assert_eq!(
            keys(&s.by_instruction_set),
            vec![("lazy".into(), 1), ("base".into(), 1), ("none".into(), 5)]
        );
        assert_eq!(s.by_instruction_set[0].tally.resolved_pct, Some(100.0));
        assert_eq!(
            keys(&s.by_inspected_files),
            vec![("1".into(), 1), ("2".into(), 3), ("5".into(), 2), ("?".into(), 1)]
        );
        assert_eq!(keys(&s.by_model), vec![("none".into(), 4), ("m".into(), 3)]);
        assert_eq!(s.patch_failures.len(), 2);
        assert_eq!(s.patch_failures[0].kind, "hunk does not apply");
        assert_eq!(
            (s.patch_failures[0].count, s.patch_failures[0].instance_ids.clone()),
            (2, vec!["c".to_string()])
        );
        assert_eq!(s.patch_failures[1].kind, "malformed patch");
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"key\":\"r1\",\"results\":4"), "{json}");
    }

    #[test]
    fn no_instruction_sets_no_breakdown_and_empty_runs_have_no_rates() {
        let s = run_stats(&Report::new("h", vec![r("a", None, None, &[("T.x", P)])], vec![]), &[]);
        assert!(s.by_instruction_set.is_empty());
        let empty = run_stats(&Report::new("h", vec![], vec![]), &[]);
        assert_eq!((empty.overall.resolved_pct, empty.overall.subtests_pct), (None, None));
    }

    #[test]
    fn compare_reports_flips_deltas_and_one_sided_keys() {
        let a = Report::new(
            "h1",
            vec![
                r("a", Some("m"), None, &[("T.x", P), ("T.y", P)]),
                r("b", Some("m"), None, &[("T.x", F)]),
                r("c", Some("m"), None, &[("T.x", P)]),
                r("only-a", Some("m"), None, &[]),
            ],
            vec![],
        );
        let b = Report::new(
            "h1",
            vec![
                r("b", Some("m"), None, &[("T.x", P)]),
                r("a", Some("m"), None, &[("T.x", P), ("T.y", E), ("T.new", P)]),
                failed("c", "patch failed: x:1"),
                r("c", Some("m"), None, &[]),
                r("only-b", Some("m"), None, &[]),
            ],
            vec![],
        );
        let c = compare(&a, &b);
        assert!(c.matched_by_model);
        assert!(!c.bundle_differs);
        // `failed("c")` has no model, so it is its own key, only in b.
        assert_eq!((c.common, c.resolved_before, c.resolved_after), (3, 2, 1));
        let ids = |f: &[Flip]| f.iter().map(|f| f.key.instance_id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&c.lost), vec!["a", "c"]);
        assert_eq!(ids(&c.gained), vec!["b"]);
        let d: Vec<_> = c
            .subtest_deltas
            .iter()
            .map(|d| (d.key.instance_id.as_str(), d.test.as_str(), d.before, d.after))
            .collect();
        assert_eq!(
            d,
            vec![
                ("a", "T.y", Some(P), Some(E)),
                ("a", "T.new", None, Some(P)),
                ("b", "T.x", Some(F), Some(P)),
                ("c", "T.x", Some(P), None),
            ]
        );
        assert_eq!(
            c.only_in_a.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
            vec!["only-a [m]"]
        );
        assert_eq!(
            c.only_in_b.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
            vec!["c", "only-b [m]"]
        );
    }

    #[test]
    fn runs_of_different_models_match_by_instance_and_set() {
        let a = Report::new("h1", vec![r("a", Some("gpt"), None, &[("T.x", F)])], vec![]);
        let b = Report::new(
            "h2",
            vec![r("a", Some("claude"), None, &[("T.x", P)]), r("a", Some("claude"), None, &[])],
            vec![],
        );
        let c = compare(&a, &b);
        assert!(!c.matched_by_model && c.bundle_differs);
        assert_eq!(c.gained.len(), 1);
        assert_eq!(c.gained[0].key.model_name_or_path, None);
        assert_eq!(c.duplicates_ignored, 1);
    }

    #[test]
    fn runs_of_one_agent_on_two_instruction_sets_match_by_instance() {
        use InstructionSet::{Base, Lazy};
        let a = Report::new("h", vec![r("a", Some("m"), Some(Lazy), &[("T.x", F)])], vec![]);
        let b = Report::new("h", vec![r("a", Some("m"), Some(Base), &[("T.x", P)])], vec![]);
        let c = compare(&a, &b);
        assert!(c.matched_by_model && !c.matched_by_instruction_set);
        assert_eq!((c.common, c.gained.len()), (1, 1));
        assert_eq!(c.gained[0].key.to_string(), "a [m]");
        // Runs sharing a set still match by it.
        let b2 = Report::new(
            "h",
            vec![r("a", Some("m"), Some(Base), &[]), r("a", Some("m"), Some(Lazy), &[("T.x", P)])],
            vec![],
        );
        let c = compare(&a, &b2);
        assert!(c.matched_by_instruction_set);
        assert_eq!(c.gained[0].key.to_string(), "a [m] (lazy)");
        assert_eq!(c.only_in_b.len(), 1);
    }

    fn failed_in(id: &str, model: &str) -> TaskResult {
        TaskResult { model_name_or_path: Some(model.into()), ..failed(id, "patch failed: x:1") }
    }

    #[test]
    fn matrix_of_three_runs_lists_flips_first_with_outcomes() {
        let m = Some("m");
        let a = Report::new(
            "h",
            vec![
                r("same", m, None, &[("T.x", P)]),
                r("up", m, None, &[("T.x", P), ("T.y", F)]),
                r("down", m, None, &[("T.x", P)]),
                r("moved", m, None, &[("T.x", F), ("T.y", F)]),
            ],
            vec![],
        );
        let b = Report::new(
            "h",
            vec![
                r("same", m, None, &[("T.x", P)]),
                r("up", m, None, &[("T.x", P), ("T.y", P)]),
                failed_in("down", "m"),
                r("moved", m, None, &[("T.x", E), ("T.y", F)]),
                r("new", m, None, &[("T.x", F)]),
            ],
            vec![],
        );
        let c = Report::new("h", vec![r("same", m, None, &[("T.x", P)])], vec![]);
        let tasks = [meta("up", "r1", 1, 2), meta("same", "r2", 1, 1)];
        let x = matrix(&[&a, &b, &c], &tasks);
        assert!(x.matching.by_model && x.matching.by_instruction_set);
        let rows: Vec<_> = x
            .rows
            .iter()
            .map(|r| (r.key.instance_id.as_str(), r.flip, r.changed, r.repo.as_deref()))
            .collect();
        assert_eq!(
            rows,
            vec![
                ("up", true, true, Some("r1")),
                ("down", true, true, None),
                ("same", false, false, Some("r2")),
                ("moved", false, true, None),
                ("new", false, true, None),
            ]
        );
        let outcomes =
            |i: usize| x.rows[i].cells.iter().map(|c| c.map(|c| c.outcome)).collect::<Vec<_>>();
        use Outcome::*;
        assert_eq!(outcomes(0), vec![Some(Partly), Some(Resolved), None]);
        assert_eq!(outcomes(1), vec![Some(Resolved), Some(PatchFailed), None]);
        assert_eq!(outcomes(3), vec![Some(Failed), Some(Failed), None]);
        assert_eq!(x.rows[0].cells[0].map(|c| (c.passed, c.total)), Some((1, 2)));
        // Two runs: the matrix's flips are exactly the comparison's.
        let two = matrix(&[&a, &b], &tasks);
        let flips: Vec<_> =
            two.rows.iter().filter(|r| r.flip).map(|r| r.key.instance_id.clone()).collect();
        let cmp = compare(&a, &b);
        let mut expected: Vec<_> =
            cmp.lost.iter().chain(&cmp.gained).map(|f| f.key.instance_id.clone()).collect();
        expected.sort();
        let mut got = flips.clone();
        got.sort();
        assert_eq!(got, expected);
        // "moved" changed only in a method's status.
        assert!(two.rows.iter().any(|r| r.key.instance_id == "moved" && r.changed && !r.flip));
    }

    #[test]
    fn aggregates_align_groups_and_give_deltas() {
        use InstructionSet::{Base, Lazy};
        let tasks = [meta("a", "r1", 1, 1), meta("b", "r2", 1, 1)];
        let one = Report::new(
            "h",
            vec![r("a", None, Some(Lazy), &[("T.x", P)]), r("b", None, Some(Lazy), &[("T.x", F)])],
            vec![],
        );
        let two = Report::new("h", vec![r("b", None, Some(Base), &[("T.x", P)])], vec![]);
        let ag = aggregates(&[run_stats(&one, &tasks), run_stats(&two, &tasks)]);
        let keys = |g: &[GroupAcross]| g.iter().map(|g| g.key.clone()).collect::<Vec<_>>();
        assert_eq!(keys(&ag.by_repo), vec!["r1", "r2"]);
        assert_eq!(keys(&ag.by_instruction_set), vec!["lazy", "base"]);
        assert_eq!(ag.by_repo[0].tallies[1], None);
        assert_eq!(ag.by_repo[0].resolved_delta(1), None);
        assert_eq!(ag.by_repo[1].resolved_delta(1), Some(100.0));
        assert_eq!(ag.overall.resolved_delta(1), Some(50.0));
    }

    #[test]
    fn profiles_and_instruction_set_series() {
        use InstructionSet::*;
        let run = |model: Option<&str>, set: Option<InstructionSet>| {
            Report::new("h", vec![r("a", model, set, &[]), r("b", model, set, &[])], vec![])
        };
        let p = RunProfile::of(&run(Some("m"), Some(Lazy)));
        assert_eq!((p.models.clone(), p.instruction_sets.clone()), (vec!["m".into()], vec![Lazy]));
        let profiles = [
            ("d1", RunProfile::of(&run(Some("m"), Some(Descriptive)))),
            ("l1", p),
            ("l2", RunProfile::of(&run(Some("m"), Some(Lazy)))),
            ("o1", RunProfile::of(&run(Some("other"), Some(Base)))),
            ("n1", RunProfile::of(&run(None, Some(Base)))),
        ];
        let refs: Vec<(&str, &RunProfile)> = profiles.iter().map(|(i, p)| (*i, p)).collect();
        assert_eq!(
            instruction_set_series(&refs),
            vec![("m".to_string(), vec![(Lazy, "l1"), (Descriptive, "d1")])]
        );
    }

    #[test]
    fn failure_kinds() {
        assert_eq!(failure_kind("patch failed: a.py:3"), "hunk does not apply");
        assert_eq!(failure_kind("corrupt patch at line 4"), "malformed patch");
        assert_eq!(failure_kind("patch with only garbage at line 4"), "malformed patch");
        assert_eq!(
            failure_kind("patch fragment without header at line 1: @@ -1 +1 @@"),
            "malformed patch"
        );
        assert_eq!(failure_kind("x.py: No such file or directory"), "file to change is missing");
        assert_eq!(
            failure_kind("y: already exists in working directory"),
            "file to create already exists"
        );
        assert_eq!(failure_kind("something new"), "other");
    }
}
