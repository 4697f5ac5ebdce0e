//! Runs: a named set of results and errors (one [`Report`]) with where they came from, scored here
//! or imported from the CLI. The scoring pipeline lives here too: uploaded files are read in the
//! worker, submissions are scored by the worker pool (one lane per worker, one submission at a time
//! per lane, so cancel is immediate; a task's submissions stay on one worker), and the run is stored.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;

use leptos::prelude::*;
use scorer::report::{EntryError, Report, SourceRef, TaskResult};
use scorer::stats::TaskMeta;
use scorer::submission::Submission;
use serde::{Deserialize, Serialize};

use crate::bridge::{JobError, ScoringWorker};
use crate::bundles;

/// A run's row in the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    /// URL-safe id (`/runs/<id>`).
    pub id: String,
    pub name: String,
    /// Milliseconds since the epoch.
    pub created_ms: f64,
    /// The bundle folder the run was scored with (for links to its tasks).
    pub bundle: String,
    pub bundle_hash: String,
    /// Input file names.
    pub sources: Vec<String>,
    pub results: u32,
    pub resolved: u32,
    pub errors: u32,
    /// Imported from a report file rather than scored here.
    #[serde(default)]
    pub imported: bool,
    /// A report published next to the leaderboard, held in memory only (never stored).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub published: bool,
    /// `Report::content_hash` of the run's report: comparison links name runs by it. Empty for
    /// runs stored by an older build ([`runs_by_hash`] computes theirs).
    #[serde(default)]
    pub hash: String,
    /// The agent (model names) and instruction sets the results carry: a run of one model on one
    /// set can be lined up with the same model's runs on the other sets. `None`: an older build.
    #[serde(default)]
    pub profile: Option<scorer::stats::RunProfile>,
}

impl RunMeta {
    /// The run's address: `/leaderboard/<entry>` for a published report, else `/runs/<id>`.
    pub fn run_ref(&self) -> crate::routes::RunRef {
        crate::routes::RunRef { id: self.id.clone(), published: self.published }
    }

    /// The run's page.
    pub fn route(&self) -> crate::routes::Route {
        crate::routes::Route::Run { run: self.run_ref(), query: crate::routes::Query::new() }
    }

    /// The page of the run's result for `instance` (`n`: the N-th of that task, 1-based).
    pub fn result_route(&self, instance: &str, n: Option<usize>) -> crate::routes::Route {
        let query = crate::routes::Query::new();
        let query = match n {
            Some(n) => query.with("n", n.to_string()),
            None => query,
        };
        crate::routes::Route::Result { run: self.run_ref(), instance: instance.to_string(), query }
    }
}

/// A whole stored run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredRun {
    pub meta: RunMeta,
    pub report: Report,
    /// Repository, breadth and method count of the run's tasks, for the summaries.
    #[serde(default)]
    pub tasks: Vec<TaskMeta>,
    /// The submitted patch of each result, aligned with `report.results` (empty for imports).
    #[serde(default)]
    pub patches: Vec<String>,
    /// Instance id → the agent log (`.traj`, `.traj.json`) its submission came from; the logs
    /// themselves are kept in the `trajectories` store under the run's id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub trajectories: BTreeMap<String, String>,
}

/// Whether an input file is an agent log kept with the run: the names the scorer itself reads as
/// trajectories (`submission::trajectory_copies`), once they gave a submission.
pub fn is_trajectory_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".traj") || lower.ends_with(".traj.json") || lower.ends_with(".eval")
}

/// An input's submissions: an Inspect `.eval` (a zip of samples) is read by the trajectory
/// worker, which links the log readers the scoring worker leaves out; anything else by the
/// scoring worker.
async fn parse_input(
    worker: &ScoringWorker,
    name: &str,
    bytes: &js_sys::Uint8Array,
) -> Result<scorer::submission::Parsed, JobError> {
    if name.to_ascii_lowercase().ends_with(".eval") {
        return crate::trajbridge::shared().parse(name, bytes).await.map_err(JobError::Failed);
    }
    worker.parse(name, bytes).await
}

impl StoredRun {
    /// The patch of result `i`, when the run kept it.
    pub fn patch(&self, i: usize) -> Option<&str> {
        self.patches.get(i).map(String::as_str)
    }

    /// Indices (into `report.results`) of the results for `instance_id`, in report order.
    pub fn results_for(&self, instance_id: &str) -> Vec<usize> {
        self.report
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.instance_id == instance_id)
            .map(|(i, _)| i)
            .collect()
    }
}

/// A new run id: time-ordered and unique enough for one browser.
pub fn new_run_id() -> String {
    let now = js_sys::Date::now() as u64;
    let rand = (js_sys::Math::random() * 1e9) as u64;
    format!("{now:x}{rand:x}")
}

fn meta_for(
    id: String,
    name: String,
    bundle: &str,
    report: &Report,
    sources: Vec<String>,
    imported: bool,
) -> RunMeta {
    RunMeta {
        id,
        name,
        created_ms: js_sys::Date::now(),
        bundle: bundle.to_string(),
        bundle_hash: report.bundle.hash.clone(),
        sources,
        results: u32::try_from(report.results.len()).unwrap_or(u32::MAX),
        resolved: report.summary.resolved_instances,
        errors: u32::try_from(report.errors.len()).unwrap_or(u32::MAX),
        imported,
        published: false,
        hash: report.content_hash(),
        profile: Some(scorer::stats::RunProfile::of(report)),
    }
}

/// The stored runs whose reports have these content hashes, in the order asked (`None`: this
/// browser has no such run; the first stored run of a hash wins).
pub async fn runs_by_hash(
    hashes: &[String],
) -> Result<Vec<Option<std::sync::Arc<StoredRun>>>, String> {
    let mut found: Vec<Option<std::sync::Arc<StoredRun>>> = vec![None; hashes.len()];
    for meta in crate::store::list_runs().await?.into_iter().rev() {
        let wanted = |h: &str| hashes.iter().any(|x| x == h);
        if !meta.hash.is_empty() && !wanted(&meta.hash) {
            continue;
        }
        let Some(run) = crate::store::load_run(&meta.id).await? else { continue };
        let hash = if meta.hash.is_empty() { run.report.content_hash() } else { meta.hash };
        for (slot, h) in found.iter_mut().zip(hashes) {
            if *h == hash && slot.is_none() {
                *slot = Some(run.clone());
            }
        }
    }
    Ok(found)
}

/// The task table filter of a run page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultFilter {
    All,
    Resolved,
    Unresolved,
    PatchFailed,
    Error,
}

impl ResultFilter {
    pub const ALL: [ResultFilter; 5] = [
        ResultFilter::All,
        ResultFilter::Resolved,
        ResultFilter::Unresolved,
        ResultFilter::PatchFailed,
        ResultFilter::Error,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ResultFilter::All => "all",
            ResultFilter::Resolved => "resolved",
            ResultFilter::Unresolved => "unresolved",
            ResultFilter::PatchFailed => "patch-failed",
            ResultFilter::Error => "error",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ResultFilter::All => "All",
            ResultFilter::Resolved => "Resolved",
            ResultFilter::Unresolved => "Unresolved",
            ResultFilter::PatchFailed => "Patch failed",
            ResultFilter::Error => "Error",
        }
    }

    pub fn from_name(s: &str) -> ResultFilter {
        Self::ALL.into_iter().find(|f| f.as_str() == s).unwrap_or(ResultFilter::All)
    }

    /// Whether a result row shows under this filter. "Error": a test errored (exception other
    /// than an assertion); "unresolved" includes failed patches, as in the SWE-bench summary.
    pub fn keeps(self, r: &TaskResult) -> bool {
        use scorer::patch::PatchStatus;
        match self {
            ResultFilter::All => true,
            ResultFilter::Resolved => r.resolved,
            ResultFilter::Unresolved => !r.resolved,
            ResultFilter::PatchFailed => r.patch_status == PatchStatus::Failed,
            ResultFilter::Error => {
                r.tests.iter().any(|t| t.status == scorer::report::Status::Error)
            }
        }
    }
}

/// What the user handed in.
#[derive(Debug, Clone)]
pub enum Input {
    /// A patch for one task (pasted, or a `.patch`/`.diff` file's bytes as they are).
    Patch { instance_id: String, name: String, patch: Vec<u8> },
    /// Any other file: predictions or a trajectory, read in the worker.
    File { name: String, bytes: js_sys::Uint8Array },
}

impl Input {
    /// The file name (or the name given to a pasted patch).
    pub fn name(&self) -> &str {
        match self {
            Input::Patch { name, .. } | Input::File { name, .. } => name,
        }
    }
}

/// How often the scoring lanes update the progress bar. Every update repaints the page, and the
/// UI thread shares the machine's cores with the scoring workers: 100 submissions on 2 workers
/// otherwise repaint about 75 times (Chromium trace of `tests/e2e/speed.mjs`: ~40 ms of layout,
/// paint and commit on the UI thread during a 0.7 s run).
const PROGRESS_INTERVAL_MS: f64 = 100.0;

/// The scoring lanes' progress, passed to the bar at most once per [`PROGRESS_INTERVAL_MS`]: an
/// update within the interval is kept and shown when it ends. [`Self::close`] drops a kept update,
/// so the bar the session clears at the end of a run does not come back.
#[derive(Clone)]
struct ProgressFeed(Rc<ProgressFeedState>);

struct ProgressFeedState {
    signal: RwSignal<Option<Progress>>,
    last: Cell<f64>,
    kept: RefCell<Option<Progress>>,
    closed: Cell<bool>,
}

impl ProgressFeed {
    fn new(signal: RwSignal<Option<Progress>>) -> Self {
        ProgressFeed(Rc::new(ProgressFeedState {
            signal,
            last: Cell::new(f64::NEG_INFINITY),
            kept: RefCell::new(None),
            closed: Cell::new(false),
        }))
    }

    fn set(&self, p: Progress) {
        let state = &self.0;
        if state.closed.get() {
            return;
        }
        let now = crate::net::now_ms();
        let wait = state.last.get() + PROGRESS_INTERVAL_MS - now;
        if wait <= 0.0 {
            state.last.set(now);
            state.kept.borrow_mut().take();
            state.signal.set(Some(p));
            return;
        }
        // A flush is already due when an update is kept.
        if state.kept.borrow_mut().replace(p).is_none() {
            let feed = self.clone();
            set_timeout(
                move || {
                    let state = &feed.0;
                    if let Some(p) = state.kept.borrow_mut().take().filter(|_| !state.closed.get())
                    {
                        state.last.set(crate::net::now_ms());
                        state.signal.set(Some(p));
                    }
                },
                std::time::Duration::from_millis(wait.ceil() as u64),
            );
        }
    }

    fn close(&self) {
        self.0.closed.set(true);
        self.0.kept.borrow_mut().take();
    }
}

/// Progress of the scoring session, shown by the progress bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// "Reading files" or "Scoring".
    pub phase: &'static str,
    pub done: u32,
    pub total: u32,
    /// What is being worked on.
    pub current: String,
}

/// How a scoring session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Saved {
        run: String,
        first: Option<String>,
    },
    Cancelled {
        done: u32,
        total: u32,
    },
    Failed(String),
    /// Nothing was scored: the run is held, not stored, until the user asks
    /// ([`Session::store_pending`]). `errors` counts the entries not scored, `first` is the first
    /// few messages.
    Empty {
        errors: u32,
        first: Vec<String>,
    },
}

/// A run with no result, waiting for the user to store it anyway.
type Pending = Option<(StoredRun, Vec<(String, js_sys::Uint8Array)>)>;

/// The app's scoring session (one at a time), provided by the app root so a run keeps going while
/// the user browses other pages.
#[derive(Clone, Copy)]
pub struct Session {
    pub progress: RwSignal<Option<Progress>>,
    pub outcome: RwSignal<Option<Outcome>>,
    cancel: StoredValue<Rc<Cell<bool>>, LocalStorage>,
    /// Bumped whenever the stored runs change, so lists reload.
    pub runs_version: RwSignal<u32>,
    pending: StoredValue<Pending, LocalStorage>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").finish_non_exhaustive()
    }
}

impl Session {
    pub fn provide() -> Session {
        let s = Session {
            progress: RwSignal::new(None),
            outcome: RwSignal::new(None),
            cancel: StoredValue::new_local(Rc::new(Cell::new(false))),
            runs_version: RwSignal::new(0),
            pending: StoredValue::new_local(None),
        };
        provide_context(s);
        s
    }

    /// Stores the run that scored nothing (after [`Outcome::Empty`]), when the user asks.
    pub fn store_pending(&self) {
        let Some((run, files)) = self.pending.try_update_value(Option::take).flatten() else {
            return;
        };
        let session = *self;
        leptos::task::spawn_local(async move {
            let outcome = store(run, files, None).await;
            if matches!(outcome, Outcome::Saved { .. }) {
                session.runs_version.update(|v| *v += 1);
            }
            session.outcome.set(Some(outcome));
        });
    }

    pub fn busy(&self) -> bool {
        self.progress.with_untracked(Option::is_some)
    }

    /// Cancels the running session now: the worker is restarted, nothing is stored.
    pub fn cancel(&self, worker: &ScoringWorker) {
        self.cancel.with_value(|c| c.set(true));
        worker.cancel();
    }

    /// Starts scoring `inputs` against `bundle` in the background; the outcome lands in
    /// [`Session::outcome`]. `trap` names an instance whose scoring traps the worker (test hook).
    pub fn start(
        &self,
        worker: ScoringWorker,
        bundle: String,
        name: String,
        inputs: Vec<Input>,
        trap: Option<String>,
    ) {
        if self.busy() {
            return;
        }
        let session = *self;
        let flag = Rc::new(Cell::new(false));
        self.cancel.set_value(flag.clone());
        self.outcome.set(None);
        self.progress.set(Some(Progress {
            phase: "Reading files",
            done: 0,
            total: u32::try_from(inputs.len()).unwrap_or(u32::MAX),
            current: String::new(),
        }));
        leptos::task::spawn_local(async move {
            let outcome = score_inputs(
                &worker,
                &bundle,
                name,
                inputs,
                trap.as_deref(),
                &flag,
                session.progress,
            )
            .await;
            session.progress.set(None);
            let outcome = match outcome {
                Scored::Done(o) => o,
                Scored::Nothing(run, files) => {
                    // The first few messages, and the last (the summary of a capped file).
                    let errs = &run.report.errors;
                    let shown = errs.iter().take(3).chain(errs.iter().skip(3).last());
                    let first = shown.map(|e| format!("{}: {}", e.source, e.message)).collect();
                    let outcome = Outcome::Empty { errors: run.meta.errors, first };
                    session.pending.set_value(Some((*run, files)));
                    outcome
                }
            };
            if matches!(outcome, Outcome::Saved { .. }) {
                session.runs_version.update(|v| *v += 1);
            }
            session.outcome.set(Some(outcome));
        });
    }
}

pub fn use_session() -> Session {
    use_context::<Session>().unwrap_or_else(Session::provide)
}

/// What scoring gave: an outcome, or a run with no result that is stored only if the user asks
/// (a file that held no predictions would otherwise become an empty run).
enum Scored {
    Done(Outcome),
    Nothing(Box<StoredRun>, Vec<(String, js_sys::Uint8Array)>),
}

/// Stores a run and the trajectory files it came from.
async fn store(
    run: StoredRun,
    traj_files: Vec<(String, js_sys::Uint8Array)>,
    first: Option<String>,
) -> Outcome {
    let id = run.meta.id.clone();
    if !traj_files.is_empty() {
        if let Err(e) = crate::store::save_files(&id, &traj_files).await {
            return Outcome::Failed(format!("could not store the run's trajectories: {e}"));
        }
    }
    match crate::store::save_run(run).await {
        Ok(()) => Outcome::Saved { run: id, first },
        Err(e) => Outcome::Failed(format!("could not store the run: {e}")),
    }
}

/// Turns inputs into submissions (files are read in the worker), scores them, stores the run.
async fn score_inputs(
    worker: &ScoringWorker,
    bundle: &str,
    name: String,
    inputs: Vec<Input>,
    trap: Option<&str>,
    cancelled: &Cell<bool>,
    progress: RwSignal<Option<Progress>>,
) -> Scored {
    let done = |o: Outcome| Scored::Done(o);
    crate::net::mark("refscore:run-start");
    // The pool's other workers load while the files are read.
    worker.warm();
    let index = match bundles::load_index(bundle).await {
        Ok(i) => i,
        Err(e) => return done(Outcome::Failed(e)),
    };
    let known: std::collections::HashSet<&str> =
        index.tasks.iter().map(|t| t.id.as_str()).collect();
    let total_inputs = u32::try_from(inputs.len()).unwrap_or(u32::MAX);
    let mut sources = Vec::new();
    let mut submissions: Vec<Submission> = Vec::new();
    let mut errors: Vec<EntryError> = Vec::new();
    let mut warnings: Vec<EntryError> = Vec::new();
    let mut trajectories = BTreeMap::new();
    let mut traj_files = Vec::new();
    for (i, input) in inputs.into_iter().enumerate() {
        if cancelled.get() {
            return done(Outcome::Cancelled { done: 0, total: 0 });
        }
        progress.set(Some(Progress {
            phase: "Reading files",
            done: u32::try_from(i).unwrap_or(u32::MAX),
            total: total_inputs,
            current: input.name().to_string(),
        }));
        sources.push(input.name().to_string());
        match input {
            Input::Patch { instance_id, name, patch } => {
                submissions.push(Submission {
                    instance_id,
                    model_name_or_path: None,
                    instruction_set: scorer::submission::instruction_set_from_path(&name),
                    patch,
                    source: SourceRef { file: name, line: None },
                });
            }
            Input::File { name, bytes } => match parse_input(worker, &name, &bytes).await {
                Ok(mut parsed) => {
                    parsed.retain_known(|id| known.contains(id));
                    if is_trajectory_file(&name) && !parsed.submissions.is_empty() {
                        for s in &parsed.submissions {
                            trajectories.insert(s.instance_id.clone(), name.clone());
                        }
                        traj_files.push((name.clone(), bytes.clone()));
                    }
                    submissions.extend(parsed.submissions);
                    errors.extend(parsed.errors);
                    warnings.extend(parsed.warnings);
                }
                Err(JobError::Cancelled) => return done(Outcome::Cancelled { done: 0, total: 0 }),
                Err(e) => errors.push(EntryError {
                    source: SourceRef { file: name, line: None },
                    instance_id: None,
                    model_name_or_path: None,
                    message: e.to_string(),
                }),
            },
        }
    }
    crate::net::mark("refscore:files-read");
    // A run folder holds each submission in preds.json and again in its trajectory: score it once.
    let copies = scorer::submission::trajectory_copies(&submissions);
    let mut marks = copies.iter();
    submissions.retain(|_| !marks.next().copied().unwrap_or(false));
    // The same instance, model and instruction set twice: both scored, each repeat a warning (as
    // the CLI does).
    let repeats = scorer::submission::repeats(&submissions);
    warnings.extend(repeats.iter().enumerate().filter_map(|(i, r)| {
        r.map(|j| scorer::submission::repeat_warning(&submissions[i], &submissions[j]))
    }));
    let total = u32::try_from(submissions.len()).unwrap_or(u32::MAX);
    let place_of = |id: &str| {
        index
            .tasks
            .iter()
            .find(|t| t.id == id)
            .map_or_else(|| (String::new(), 0), |t| (t.repo.clone(), t.blob_bytes))
    };
    let lanes = worker.size().min(submissions.len()).max(1);
    let queue = TaskQueue::new(&submissions, place_of, lanes);
    let ahead = queue.ahead(&submissions);
    // Many submissions: one pack request per repository instead of one per blob. Every pack is
    // requested now; a lane waits only for the pack of the repository it scores (a failed pack
    // falls back to one request per blob in `load_task_inputs`).
    let packs = submissions.len() > 3;
    if packs {
        let mut seen = std::collections::HashSet::new();
        for (_, repo) in ahead.iter().filter(|(_, repo)| seen.insert(repo.clone())) {
            let (bundle, repo) = (bundle.to_string(), repo.clone());
            leptos::task::spawn_local(async move {
                let _ = bundles::preload_pack(&bundle, &repo).await;
            });
        }
    }
    // Task files are small and many: fetched ahead (from the task pack when there are many
    // submissions), a few at a time, first seen first (about the order lanes take them), so a
    // lane does not wait for one between two submissions.
    {
        let bundle = bundle.to_string();
        leptos::task::spawn_local(async move {
            if packs {
                let _ = bundles::preload_task_pack(&bundle).await;
            }
            load_tasks_ahead(&bundle, ahead.into_iter().map(|(id, _)| id)).await;
        });
    }
    let shared = Lanes {
        queue: RefCell::new(queue),
        scored: RefCell::new(BTreeMap::new()),
        errors: RefCell::new(BTreeMap::new()),
        tasks: RefCell::new(BTreeMap::new()),
        done: Cell::new(0),
    };
    let progress = ProgressFeed::new(progress);
    let ctx =
        LaneContext { worker, bundle, trap, cancelled, progress: progress.clone(), total, packs };
    let ends = futures::future::join_all(
        (0..lanes).map(|lane| score_lane(lane, &ctx, &submissions, &shared)),
    )
    .await;
    progress.close();
    crate::net::mark("refscore:scored");
    if ends.iter().any(|&ok| !ok) || cancelled.get() {
        return done(Outcome::Cancelled { done: shared.done.get(), total });
    }
    let Lanes { scored, errors: score_errors, tasks, .. } = shared;
    let (scored, score_errors, tasks) =
        (scored.into_inner(), score_errors.into_inner(), tasks.into_inner());
    let first = scored.values().next().map(|(r, _)| r.instance_id.clone());
    let (results, patches): (Vec<TaskResult>, Vec<String>) = scored.into_values().unzip();
    errors.extend(score_errors.into_values());
    let mut report = Report::new(&index.bundle_hash, results, errors);
    report.warnings = warnings;
    let meta = meta_for(new_run_id(), name, bundle, &report, sources, false);
    let run =
        StoredRun { meta, report, tasks: tasks.into_values().collect(), patches, trajectories };
    if run.report.results.is_empty() {
        return Scored::Nothing(Box::new(run), traj_files);
    }
    let stored = store(run, traj_files, first).await;
    crate::net::mark("refscore:stored");
    done(stored)
}

/// Fetches what a batch run of `bundle` needs besides the submissions and sends it to every
/// worker, while the Score page waits for files: each repository's manifest and pack (given to
/// every worker as idle work, between warm-up rounds: the worker reads them then, not in the run;
/// [`ScoringWorker::prefetch`]) and the task files (from the task pack, parsed here; a worker
/// gets a task file with its first submission). Once per bundle and page load; a run started
/// meanwhile shares the same loads ([`bundles`] memoises them) and goes before the idle work.
pub fn prefetch_bundle(worker: ScoringWorker, bundle: String) {
    thread_local! {
        static STARTED: RefCell<std::collections::HashSet<String>> = RefCell::default();
    }
    if !STARTED.with(|s| s.borrow_mut().insert(bundle.clone())) {
        return;
    }
    if STARTED.with(|s| s.borrow().len()) == 1 {
        // Once per page: the scorer's code is the same for every bundle.
        worker.prefetch(&[], WARM_UP_ROUNDS);
    }
    leptos::task::spawn_local(async move {
        let Ok(index) = bundles::load_index(&bundle).await else {
            // Tried again the next time the page asks.
            STARTED.with(|s| s.borrow_mut().remove(&bundle));
            return;
        };
        // One request for every task file (older bundles: one each, below).
        let _ = bundles::preload_task_pack(&bundle).await;
        let tasks = load_tasks_ahead(&bundle, index.tasks.iter().map(|t| t.id.clone()));
        let repos = async {
            for repo in &index.repos {
                if let Ok(data) = bundles::load_repo_data(&bundle, &repo.name).await {
                    worker.prefetch(std::slice::from_ref(&data), 0);
                }
            }
        };
        futures::future::join(tasks, repos).await;
    });
}

/// Loads (and memoises) the task files of `ids`, [`TASK_PREFETCH`] at a time, in order: ahead of
/// the lanes of a run, or of a run to come. A failure shows when the task is loaded for scoring.
async fn load_tasks_ahead(bundle: &str, ids: impl IntoIterator<Item = String>) {
    use futures::stream::StreamExt;
    futures::stream::iter(ids)
        .for_each_concurrent(TASK_PREFETCH, |id| async move {
            let _ = bundles::load_task(bundle, &id).await;
        })
        .await;
}

/// The submissions of one task (indices into the run's submissions, in input order): they are
/// scored one after the other on one worker, whose base tree and parse cache then serve them all.
struct TaskGroup {
    repo: String,
    items: Vec<usize>,
}

/// Task groups not scored yet, largest first, and the repository each lane works on.
struct TaskQueue {
    groups: VecDeque<TaskGroup>,
    lanes: Vec<Option<String>>,
}

impl TaskQueue {
    /// Groups the submissions by task. `place_of` gives a task's repository and its estimated
    /// cost (the bytes of the files the task carries: across the real bundle's touch patches
    /// this follows each task's scoring time with correlation 0.83, and the test's method count
    /// only 0.34). Repositories come largest first (ties: first seen first), and within one the
    /// tasks largest first, so the lanes end on small tasks and finish together: a run's last
    /// task alone can take 80 ms of a 0.7 s run.
    fn new(
        submissions: &[Submission],
        place_of: impl Fn(&str) -> (String, u64),
        lanes: usize,
    ) -> Self {
        let mut groups: Vec<(TaskGroup, u64)> = Vec::new();
        let mut by_task: HashMap<&str, usize> = HashMap::new();
        for (i, s) in submissions.iter().enumerate() {
            let g = *by_task.entry(s.instance_id.as_str()).or_insert_with(|| {
                let (repo, cost) = place_of(&s.instance_id);
                groups.push((TaskGroup { repo, items: Vec::new() }, cost));
                groups.len() - 1
            });
            groups[g].0.items.push(i);
        }
        // Per repository: its place in first-seen order and the cost of all its submissions.
        let mut repos: HashMap<&str, (usize, u64)> = HashMap::new();
        for (group, cost) in &groups {
            let next = repos.len();
            let entry = repos.entry(group.repo.as_str()).or_insert((next, 0));
            entry.1 += cost.saturating_mul(group.items.len() as u64);
        }
        let key = |(group, cost): &(TaskGroup, u64)| {
            let (first, total) = repos.get(group.repo.as_str()).copied().unwrap_or((0, 0));
            let own = cost.saturating_mul(group.items.len() as u64);
            (std::cmp::Reverse(total), first, std::cmp::Reverse(own))
        };
        let mut order: Vec<_> = groups.iter().map(key).zip(0..).collect();
        // Stable: equal costs keep first-seen order.
        order.sort_by_key(|(k, _)| *k);
        let mut slots: Vec<Option<TaskGroup>> = groups.into_iter().map(|(g, _)| Some(g)).collect();
        let groups = order.into_iter().filter_map(|(_, g)| slots.get_mut(g).and_then(Option::take));
        TaskQueue { groups: groups.collect(), lanes: vec![None; lanes] }
    }

    /// Every task of the bundle the queue holds, once, with its repository, in the queue's order:
    /// what to fetch ahead of the lanes.
    fn ahead(&self, submissions: &[Submission]) -> Vec<(String, String)> {
        self.groups
            .iter()
            .filter(|g| !g.repo.is_empty())
            .filter_map(|g| {
                let first = submissions.get(*g.items.first()?)?;
                Some((first.instance_id.clone(), g.repo.clone()))
            })
            .collect()
    }

    /// The next group for `lane`: one of the repository it just worked on (its worker has that
    /// repository's files and parses), else one of a repository no other lane works on, else the
    /// first.
    fn pick(&mut self, lane: usize) -> Option<TaskGroup> {
        let last = self.lanes.get_mut(lane)?.take();
        let busy = |repo: &str| self.lanes.iter().flatten().any(|r| r == repo);
        let pos = last
            .and_then(|r| self.groups.iter().position(|g| g.repo == r))
            .or_else(|| self.groups.iter().position(|g| !busy(&g.repo)))
            .or_else(|| (!self.groups.is_empty()).then_some(0))?;
        let group = self.groups.remove(pos)?;
        self.lanes[lane] = Some(group.repo.clone());
        Some(group)
    }
}

/// What the lanes of a run fill in, keyed by submission index (so the report keeps input order).
struct Lanes {
    queue: RefCell<TaskQueue>,
    scored: RefCell<BTreeMap<usize, (TaskResult, String)>>,
    errors: RefCell<BTreeMap<usize, EntryError>>,
    tasks: RefCell<BTreeMap<String, TaskMeta>>,
    done: Cell<u32>,
}

/// What every lane of a run reads.
struct LaneContext<'a> {
    worker: &'a ScoringWorker,
    bundle: &'a str,
    trap: Option<&'a str>,
    cancelled: &'a Cell<bool>,
    progress: ProgressFeed,
    total: u32,
    /// Whether submissions wait for their repository's pack (requested at the run's start).
    packs: bool,
}

/// Rounds of the workers' warm-up job (`worker::warmup`) sent with the prefetch. Measured with
/// `tests/e2e/speed.mjs` (`DROP_AFTER_MS=3000`, 100 real tasks): 3 rounds gave 0.98 s from drop
/// to summary, 10 rounds 0.87 s, the same as a page that had scored every task before (no more
/// to gain); a round yields to real work, so a run started at once is not slowed.
const WARM_UP_ROUNDS: usize = 10;

/// How many task files are fetched at once ahead of the lanes (a browser opens about six
/// connections to one host).
const TASK_PREFETCH: usize = 4;

/// How many submissions a lane keeps sent to its worker at once: the next one's task data is
/// fetched and posted while the worker scores the current one, so the worker never waits for the
/// UI thread between two submissions.
const LANE_DEPTH: usize = 2;

/// Scores task groups on worker `lane` until none is left, [`LANE_DEPTH`] submissions in flight;
/// false if the run was cancelled.
async fn score_lane(
    lane: usize,
    ctx: &LaneContext<'_>,
    submissions: &[Submission],
    shared: &Lanes,
) -> bool {
    use futures::stream::{FuturesOrdered, StreamExt};
    let mut group: VecDeque<usize> = VecDeque::new();
    let mut repo = Rc::<str>::from("");
    let mut next = || loop {
        if let Some(i) = group.pop_front() {
            return Some((i, repo.clone()));
        }
        let picked = shared.queue.borrow_mut().pick(lane)?;
        (group, repo) = (picked.items.into(), Rc::from(picked.repo));
    };
    let mut in_flight = FuturesOrdered::new();
    loop {
        while in_flight.len() < LANE_DEPTH {
            let Some((i, repo)) = next() else { break };
            in_flight.push_back(score_one(lane, ctx, submissions, shared, i, repo));
        }
        match in_flight.next().await {
            None => return true,
            Some(false) => return false,
            Some(true) => {}
        }
    }
}

/// Scores submission `i` on worker `lane` and records its result or error; false if the run was
/// cancelled.
async fn score_one(
    lane: usize,
    ctx: &LaneContext<'_>,
    submissions: &[Submission],
    shared: &Lanes,
    i: usize,
    repo: Rc<str>,
) -> bool {
    let Some(s) = submissions.get(i) else { return true };
    if ctx.cancelled.get() {
        return false;
    }
    let entry_error = |message: String| EntryError {
        source: s.source.clone(),
        instance_id: Some(s.instance_id.clone()),
        model_name_or_path: s.model_name_or_path.clone(),
        message,
    };
    if ctx.packs && !repo.is_empty() {
        // Requested at the run's start; shared with the other lanes. On failure the task's
        // blobs are requested one by one below.
        let _ = bundles::preload_pack(ctx.bundle, &repo).await;
    }
    let loaded = bundles::load_task_inputs(ctx.bundle, &s.instance_id).await;
    // Cancelled while the data loaded: scoring now would start a stopped worker again.
    if ctx.cancelled.get() {
        return false;
    }
    ctx.progress.set(Progress {
        phase: "Scoring",
        done: shared.done.get(),
        total: ctx.total,
        current: s.instance_id.clone(),
    });
    match loaded {
        Ok(inputs) => {
            shared
                .tasks
                .borrow_mut()
                .entry(inputs.task.id.clone())
                .or_insert_with(|| TaskMeta::from_task(&inputs.task));
            let trap_this = ctx.trap == Some(s.instance_id.as_str());
            let mut answer = ctx.worker.score(lane, &inputs, s.clone(), trap_this).await;
            // Queued behind a job that trapped the worker: sent once more to its replacement.
            if matches!(answer, Err(JobError::Requeue)) {
                answer = ctx.worker.score(lane, &inputs, s.clone(), trap_this).await;
            }
            match answer {
                Ok(result) => {
                    // Kept for display only: shown as text, a byte that is not UTF-8 as U+FFFD.
                    let shown = String::from_utf8_lossy(&s.patch).into_owned();
                    shared.scored.borrow_mut().insert(i, (result, shown));
                }
                Err(JobError::Cancelled) => return false,
                Err(e) => {
                    shared.errors.borrow_mut().insert(i, entry_error(e.to_string()));
                }
            }
        }
        Err(e) => {
            shared.errors.borrow_mut().insert(i, entry_error(e));
        }
    }
    shared.done.set(shared.done.get() + 1);
    true
}

/// Parses a report as [`Report::from_json`] does (version first), but straight from the text: the
/// `serde_json::Value` detour would link a second copy of every report type's deserializer.
/// Whether `text` looks like a predictions file (entries with `model_patch`, no report schema):
/// the Runs page says to score it rather than a parser's message.
pub fn looks_like_predictions(text: &str) -> bool {
    let mut end = text.len().min(1 << 16);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    head.contains("\"model_patch\"") && !head.contains("\"schema_version\"")
}

pub fn parse_report(file: &str, text: &str) -> Result<Report, String> {
    if looks_like_predictions(text) {
        return Err(format!("{file}: this is a predictions file: score it on the Score page"));
    }
    #[derive(Deserialize)]
    struct Version {
        schema_version: Option<u64>,
    }
    let v: Version =
        serde_json::from_str(text).map_err(|e| format!("{file}: not a refscore report: {e}"))?;
    let found = v.schema_version.unwrap_or(0);
    if !Report::readable_version(found) {
        return Err(format!(
            "{file}: report schema_version {found} is not supported (this build reads {} to {})",
            scorer::report::OLDEST_SCHEMA_VERSION,
            scorer::report::SCHEMA_VERSION
        ));
    }
    let mut report: Report =
        serde_json::from_str(text).map_err(|e| format!("{file}: not a refscore report: {e}"))?;
    report.upgrade();
    Ok(report)
}

/// What a run export adds to its report: the key `refscore_run` at the top of the report's JSON
/// object (which the CLI, reading the report, ignores). With it an export imports back as the
/// same run: name, sources and the submitted patches (so the diff view survives).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunExtra {
    /// Format version of this object.
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub sources: Vec<String>,
    /// The submitted patch of each result, aligned with the report's results (as the run kept
    /// them: text, a byte that was not UTF-8 as U+FFFD).
    #[serde(default)]
    pub patches: Vec<String>,
}

/// A run as one file: its report with [`RunExtra`] under `refscore_run`.
pub fn export_run(run: &StoredRun) -> String {
    let extra = RunExtra {
        version: 1,
        name: run.meta.name.clone(),
        sources: run.meta.sources.clone(),
        patches: run.patches.clone(),
    };
    let report = run.report.to_json();
    let extra = serde_json::to_string_pretty(&extra).unwrap_or_default().replace('\n', "\n  ");
    // The report is one pretty-printed object: the key goes in front of its first field.
    match report.strip_prefix('{') {
        Some(rest) => format!("{{\n  \"refscore_run\": {extra},{rest}"),
        None => report,
    }
}

/// The [`RunExtra`] of an exported run file (`None`: a plain report).
pub fn run_extra(file: &str, text: &str) -> Result<Option<RunExtra>, String> {
    #[derive(Deserialize)]
    struct Outer {
        refscore_run: Option<RunExtra>,
    }
    let outer: Outer = serde_json::from_str(text)
        .map_err(|e| format!("{file}: the refscore_run part is not readable: {e}"))?;
    Ok(outer.refscore_run)
}

/// The bundle of this site whose hash a report carries: a run belongs to the bundle it was
/// scored with. `Err` names the bundle the report needs and the ones this site serves.
pub async fn bundle_for_hash(hash: &str) -> Result<String, String> {
    let list = bundles::load_bundle_list().await?;
    let mut served = Vec::new();
    for b in &list.bundles {
        // `bundles.json` of an older build has no hashes: the bundle's index has it.
        let h = if b.bundle_hash.is_empty() {
            bundles::load_index(&b.name).await.map(|i| i.bundle_hash.clone()).unwrap_or_default()
        } else {
            b.bundle_hash.clone()
        };
        if h == hash {
            return Ok(b.name.clone());
        }
        served.push(format!("{} ({}…)", b.name, h.chars().take(12).collect::<String>()));
    }
    Err(format!(
        "this report was scored with the bundle {}…, which this site does not serve (it serves {}): \
         build the site with that bundle (public/bundles/<name>/) to import it",
        hash.chars().take(12).collect::<String>(),
        served.join(", ")
    ))
}

/// Imports a CLI report or an exported run into the bundle whose hash it carries (its tasks'
/// metadata come from that bundle). `fallback`: the bundle to file it under when the site does
/// not serve its bundle (else that is an error). Returns the new run's id, its report's content
/// hash and the bundle's name.
pub async fn import_report(
    file_name: &str,
    text: &str,
    fallback: Option<&str>,
) -> Result<(String, String, String), String> {
    let report = parse_report(file_name, text)?;
    let extra = run_extra(file_name, text)?;
    let bundle = match (bundle_for_hash(&report.bundle.hash).await, fallback) {
        (Ok(b), _) => b,
        (Err(_), Some(f)) => f.to_string(),
        (Err(e), None) => return Err(format!("{file_name}: {e}")),
    };
    let bundle = bundle.as_str();
    let mut tasks = Vec::new();
    let mut ids: Vec<&str> = report.results.iter().map(|r| r.instance_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        // Tasks the bundle does not have stay without metadata ("?" in the breakdowns).
        if let Ok(task) = bundles::load_task(bundle, id).await {
            tasks.push(TaskMeta::from_task(&task));
        }
    }
    let id = new_run_id();
    let (name, sources, patches) = match extra {
        // Patches that do not line up with the results would show under the wrong task.
        Some(x) if x.patches.is_empty() || x.patches.len() == report.results.len() => {
            (x.name, x.sources, x.patches)
        }
        Some(_) => {
            return Err(format!(
                "{file_name}: refscore_run.patches does not have one patch per result"
            ))
        }
        None => (format!("Imported {file_name}"), vec![file_name.to_string()], Vec::new()),
    };
    let meta = meta_for(id.clone(), name, bundle, &report, sources, true);
    let hash = meta.hash.clone();
    let run = StoredRun { meta, report, tasks, patches, trajectories: BTreeMap::new() };
    crate::store::save_run(run).await?;
    Ok((id, hash, bundle.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use scorer::patch::PatchStatus;
    use scorer::report::Status;

    /// A result as a report file holds it (the fields the tests vary; serde fills the rest).
    fn result(id: &str, status: PatchStatus, resolved: bool, test: Status) -> TaskResult {
        let json = serde_json::json!({
            "instance_id": id,
            "model_name_or_path": "m, \"quoted\"",
            "source": { "file": "p.jsonl", "line": 3 },
            "patch_status": status,
            "resolved": resolved,
            "subtests_passed": u32::from(resolved),
            "subtests_total": 1,
            "tests": [{ "id": "T.t", "status": test }],
        });
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn filters_pick_the_rows_they_name() {
        let rows = [
            result("a", PatchStatus::Applied, true, Status::Pass),
            result("b", PatchStatus::Applied, false, Status::Error),
            result("c", PatchStatus::Failed, false, Status::Fail),
        ];
        let ids = |f: ResultFilter| {
            rows.iter().filter(|r| f.keeps(r)).map(|r| r.instance_id.as_str()).collect::<Vec<_>>()
        };
        assert_eq!(ids(ResultFilter::All), ["a", "b", "c"]);
        assert_eq!(ids(ResultFilter::Resolved), ["a"]);
        assert_eq!(ids(ResultFilter::Unresolved), ["b", "c"]);
        assert_eq!(ids(ResultFilter::PatchFailed), ["c"]);
        assert_eq!(ids(ResultFilter::Error), ["b"]);
        assert_eq!(ResultFilter::from_name("patch-failed"), ResultFilter::PatchFailed);
    }

    fn submissions(ids: &[&str]) -> Vec<Submission> {
        ids.iter()
            .map(|id| Submission {
                instance_id: (*id).into(),
                model_name_or_path: None,
                instruction_set: None,
                patch: Vec::new(),
                source: SourceRef { file: "p.jsonl".into(), line: None },
            })
            .collect()
    }

    /// `a*` tasks are in repository `x`, `b*` in `y`; every task costs the same.
    fn repo(id: &str) -> (String, u64) {
        (if id.starts_with('a') { "x" } else { "y" }.to_string(), 0)
    }

    #[test]
    fn large_repositories_and_tasks_go_first_so_lanes_end_on_small_ones() {
        // Repository y costs 9 in all, x 7 (a2 twice: its cost counts per submission).
        let cost = |id: &str| match id {
            "a1" => 1,
            "a2" => 3,
            "b1" => 2,
            "b2" => 7,
            _ => 0,
        };
        let subs = submissions(&["a1", "a2", "b1", "a2", "b2"]);
        let mut q = TaskQueue::new(&subs, |id| (repo(id).0, cost(id)), 1);
        let ahead = q.ahead(&subs);
        let ids: Vec<&str> = ahead.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["b2", "b1", "a2", "a1"]);
        let mut order = Vec::new();
        while let Some(g) = q.pick(0) {
            order.push(g.items);
        }
        assert_eq!(order, [vec![4], vec![2], vec![1, 3], vec![0]]);
    }

    #[test]
    fn a_task_s_submissions_stay_together_in_input_order() {
        let subs = submissions(&["a1", "b1", "a1", "a2", "b1"]);
        let mut q = TaskQueue::new(&subs, repo, 1);
        let mut order = Vec::new();
        while let Some(g) = q.pick(0) {
            order.push(g.items);
        }
        // Each task's submissions together and in input order; one lane finishes the repository
        // it is on before it takes the next task in first-seen order.
        assert_eq!(order, [vec![0, 2], vec![3], vec![1, 4]]);
    }

    #[test]
    fn tasks_fetched_ahead_are_the_known_ones_once_each_in_queue_order() {
        let subs = submissions(&["a1", "b1", "zz", "a1", "a2", "b1"]);
        // "zz" is not in the bundle (no repository).
        let repo_of = |id: &str| if id == "zz" { (String::new(), 0) } else { repo(id) };
        let q = TaskQueue::new(&subs, repo_of, 2);
        let ahead = q.ahead(&subs);
        let pairs: Vec<(&str, &str)> =
            ahead.iter().map(|(id, r)| (id.as_str(), r.as_str())).collect();
        // Equal costs: repositories in first-seen order, each one's tasks together.
        assert_eq!(pairs, [("a1", "x"), ("a2", "x"), ("b1", "y")]);
    }

    #[test]
    fn lanes_keep_to_their_repository_and_spread_over_the_others() {
        let subs = submissions(&["a1", "a2", "a3", "b1", "b2"]);
        let mut q = TaskQueue::new(&subs, repo, 2);
        let first = q.pick(0).unwrap();
        let second = q.pick(1).unwrap();
        // Lane 1 starts on the repository lane 0 is not on.
        assert_eq!((first.repo.as_str(), second.repo.as_str()), ("x", "y"));
        // Each lane then stays on its repository while it has tasks.
        assert_eq!(q.pick(1).unwrap().items, [4]);
        assert_eq!(q.pick(0).unwrap().items, [1]);
        // Lane 1's repository is done: it helps with lane 0's.
        assert_eq!(q.pick(1).unwrap().items, [2]);
        assert!(q.pick(0).is_none() && q.pick(1).is_none());
        // A lane number the queue does not have gets nothing.
        assert!(q.pick(7).is_none());
    }
}
