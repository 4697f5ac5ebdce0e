//! The UI side of the scoring workers: a small pool of raw `web_sys::Worker`s.
//!
//! A worker whose wasm traps (a panic is an abort in the release build; a stack overflow is a
//! `RangeError`) is dead: its instance may be left mid-borrow. The pool listens to each worker's
//! `error` event, fails that worker's job in flight, and starts a fresh worker in its place, to
//! which it resends the bundle files on demand; the other workers are not touched. Cancelling
//! terminates every worker (immediately, even mid-submission).
//!
//! Jobs are one submission (or one uploaded file) each and name the worker they run on; callers
//! `await` them. Worker 0 starts with the page; the others as soon as it is ready (or when a run
//! begins, whichever is first: [`ScoringWorker::warm`]).

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use leptos::prelude::*;
use scorer::report::TaskResult;
use scorer::submission::{Parsed, Submission};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::bundles::{RepoData, TaskInputs};
use scorer::bundle::Pack;
use worker::{FromWorker, ToWorker, WORKER_LOADER};

/// What the footer and the About page show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerStatus {
    Starting,
    Ready {
        scorer_version: String,
    },
    /// The worker could not be created at all (no Worker support, CSP, missing file).
    Unavailable(String),
}

/// Why a job gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobError {
    /// The user cancelled; the worker was restarted.
    Cancelled,
    /// The worker trapped while running this job; it was restarted.
    Crashed(String),
    /// The worker trapped while running an earlier job and was restarted before this one (queued
    /// behind it) ran: the job can be sent again.
    Requeue,
    /// The worker answered that the job could not run.
    Failed(String),
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobError::Cancelled => f.write_str("cancelled"),
            JobError::Crashed(m) => write!(f, "the scoring worker crashed ({m}) and was restarted"),
            JobError::Requeue => f.write_str("the scoring worker restarted before this job ran"),
            JobError::Failed(m) => f.write_str(m),
        }
    }
}

type Reply = oneshot::Sender<Result<FromWorker, JobError>>;

/// One worker instance and what it holds.
struct Live {
    worker: web_sys::Worker,
    ready: bool,
    /// Messages posted before the worker's wasm started (it would drop them).
    outbox: Vec<js_sys::Object>,
    /// Content-addressed names of the bundle files this instance has received.
    holds: HashSet<String>,
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _onerror: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

/// One place in the pool: the worker living there now (replaced after a trap) and its jobs.
#[derive(Default)]
struct Slot {
    live: RefCell<Option<Live>>,
    /// Bumped whenever the slot gets a new worker: events of a replaced worker are ignored.
    generation: Cell<u64>,
    pending: RefCell<HashMap<u64, Reply>>,
    /// Work for the worker's idle time ([`ScoringWorker::prefetch`]).
    idle: Idle,
}

/// What a worker does only while no job waits on it: the Score page's prefetch of a bundle's
/// repositories, hashing the blobs they carry, and the warm-up rounds, paced so that a job posted
/// meanwhile finds at most one repository's data and one round (or one hashing slice) ahead of it.
#[derive(Default)]
struct Idle {
    repos: RefCell<VecDeque<RepoData>>,
    warm_rounds: Cell<usize>,
    /// Whether the worker is to load the site data a run may need (`ToWorker::LoadSiteData`).
    site_data: Cell<bool>,
    /// Whether the worker holds blobs it has not hashed yet (`ToWorker::VerifyBlobs`): set when
    /// a pack is sent as idle work, so a run finds the carried files checked.
    verify: Cell<bool>,
    /// Whether a pump loop ([`ScoringWorker::pump`]) is running for the slot.
    pumping: Cell<bool>,
}

struct Inner {
    slots: Vec<Slot>,
    next_job: Cell<u64>,
    /// The status of worker 0, which starts with the page (the others start with a run).
    status: RwSignal<WorkerStatus>,
    /// How many times a trap restarted a worker (shown to the user, checked by tests).
    crashes: RwSignal<u32>,
}

/// How many workers score in parallel: one per core the browser reports, at most [`MAX_POOL`].
/// `?workers=N` overrides it (for measuring; still within 1..=MAX_POOL).
pub fn pool_size() -> usize {
    let Some(window) = web_sys::window() else { return 1 };
    let asked = window
        .location()
        .search()
        .ok()
        .and_then(|q| crate::routes::query_value(&q, "workers"))
        .and_then(|n| n.parse::<usize>().ok());
    // `hardwareConcurrency` is a small positive integer (or absent, then 0).
    let cores = window.navigator().hardware_concurrency() as usize;
    asked.unwrap_or(cores).clamp(1, MAX_POOL)
}

/// More workers than this cost memory (each holds its own copy of the scorer and bundle data) and
/// start-up time for little gain: the page's own thread needs a core too.
pub const MAX_POOL: usize = 4;

/// A handle to the pool of scoring workers; cheap to clone, provided as context by the app root.
/// Jobs name the worker (the slot) they run on, so a caller can keep one task's submissions on
/// one worker, whose parse cache and base tree then serve them all.
#[derive(Clone)]
pub struct ScoringWorker(Rc<Inner>);

impl std::fmt::Debug for ScoringWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScoringWorker").field("workers", &self.0.slots.len()).finish()
    }
}

/// A message to either worker: `{h: <JSON of msg>, b?: bytes}` (the scoring worker's
/// `ToWorker` and the trajectory worker's `ToTraj` alike).
pub(crate) fn envelope<T: serde::Serialize>(
    msg: &T,
    bytes: Option<&js_sys::Uint8Array>,
) -> js_sys::Object {
    let obj = js_sys::Object::new();
    let header = serde_json::to_string(msg).unwrap_or_default();
    // Setting properties on a fresh plain object cannot fail.
    let _ = js_sys::Reflect::set(&obj, &"h".into(), &header.into());
    if let Some(b) = bytes {
        let _ = js_sys::Reflect::set(&obj, &"b".into(), b);
    }
    obj
}

impl ScoringWorker {
    /// Starts worker 0 of a pool of `size` (at least one); `status` follows it.
    pub fn spawn(size: usize) -> Self {
        let inner = Rc::new(Inner {
            slots: (0..size.max(1)).map(|_| Slot::default()).collect(),
            next_job: Cell::new(1),
            status: RwSignal::new(WorkerStatus::Starting),
            crashes: RwSignal::new(0),
        });
        let w = ScoringWorker(inner);
        w.start(0);
        w
    }

    /// How many workers the pool has (started or not).
    pub fn size(&self) -> usize {
        self.0.slots.len()
    }

    /// Starts every worker of the pool that is not running, so they load while a run reads its
    /// files.
    pub fn warm(&self) {
        for slot in 0..self.size() {
            if self.0.slots[slot].live.borrow().is_none() {
                self.start(slot);
            }
        }
    }

    pub fn status(&self) -> ReadSignal<WorkerStatus> {
        self.0.status.read_only()
    }

    pub fn crashes(&self) -> ReadSignal<u32> {
        self.0.crashes.read_only()
    }

    fn slot(&self, slot: usize) -> &Slot {
        // Callers pass indices below `size()`; anything else is folded onto the pool.
        &self.0.slots[slot % self.0.slots.len()]
    }

    fn start(&self, index: usize) {
        let slot = self.slot(index);
        let generation = slot.generation.get() + 1;
        slot.generation.set(generation);
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let on_message = {
            let weak = weak.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if let Some(inner) = weak.upgrade() {
                    ScoringWorker(inner).received(index, generation, &ev.data());
                }
            })
        };
        let on_error =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
                // Handled here: the job is failed and the worker replaced.
                ev.prevent_default();
                let message = ev.message();
                let message = if message.is_empty() { "error event".to_string() } else { message };
                let weak = weak.clone();
                // Replacing the worker drops this handler: do it after the handler returns.
                set_timeout(
                    move || {
                        if let Some(inner) = weak.upgrade() {
                            ScoringWorker(inner).crashed(index, generation, message);
                        }
                    },
                    std::time::Duration::ZERO,
                );
            });
        let options = web_sys::WorkerOptions::new();
        match web_sys::Worker::new_with_options(WORKER_LOADER, &options) {
            Ok(worker) => {
                worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                // `Hello` goes first, unbuffered: the worker answers it once its wasm runs. If the
                // wasm is not running yet the message waits in the worker's queue until the
                // loader script has run; the worker registers its handler synchronously after
                // instantiation, so Hello is retried below until Ready arrives.
                *slot.live.borrow_mut() = Some(Live {
                    worker,
                    ready: false,
                    outbox: Vec::new(),
                    holds: HashSet::new(),
                    _onmessage: on_message,
                    _onerror: on_error,
                });
                self.poll_hello(index, generation, 0);
            }
            Err(e) => {
                if index == 0 {
                    self.0.status.set(WorkerStatus::Unavailable(crate::net::js_error_text(&e)));
                }
            }
        }
    }

    /// Sends `Hello` until the worker answers: messages that reach a worker before its wasm set
    /// `onmessage` are dropped, so the first answer is the signal that it listens.
    fn poll_hello(&self, index: usize, generation: u64, attempt: u32) {
        let slot = self.slot(index);
        let ready = slot
            .live
            .borrow()
            .as_ref()
            .is_none_or(|l| l.ready || slot.generation.get() != generation);
        if ready {
            return;
        }
        if let Some(live) = slot.live.borrow().as_ref() {
            // A failed post means the worker is gone; its error event restarts it.
            let _ = live.worker.post_message(&envelope(&ToWorker::Hello, None));
        }
        let weak = Rc::downgrade(&self.0);
        let delay = if attempt < 20 { 25 } else { 250 };
        set_timeout(
            move || {
                if let Some(inner) = weak.upgrade() {
                    ScoringWorker(inner).poll_hello(index, generation, attempt + 1);
                }
            },
            std::time::Duration::from_millis(delay),
        );
    }

    fn received(&self, index: usize, generation: u64, data: &JsValue) {
        let slot = self.slot(index);
        if generation != slot.generation.get() {
            return;
        }
        let header = js_sys::Reflect::get(data, &"h".into()).ok().and_then(|h| h.as_string());
        let Some(Ok(msg)) = header.as_deref().map(serde_json::from_str::<FromWorker>) else {
            return;
        };
        match msg {
            FromWorker::Ready { scorer_version } => {
                let outbox = {
                    let mut live = slot.live.borrow_mut();
                    let Some(live) = live.as_mut() else { return };
                    if live.ready {
                        return;
                    }
                    live.ready = true;
                    std::mem::take(&mut live.outbox)
                };
                if let Some(live) = slot.live.borrow().as_ref() {
                    for m in outbox {
                        let _ = live.worker.post_message(&m);
                    }
                }
                if index == 0 {
                    self.0.status.set(WorkerStatus::Ready { scorer_version });
                    // The rest of the pool starts as soon as worker 0 runs (page load), not
                    // when a run starts: a run then finds every worker compiled and waiting.
                    // After worker 0, so the first view does not share a core with them.
                    self.warm();
                }
            }
            FromWorker::Failed { job: None, message } => {
                // A data message was refused: the job that needs the data fails when it runs.
                leptos::logging::warn!("scoring worker {index}: {message}");
            }
            other => {
                let Some(job) = other.job() else { return };
                let reply = slot.pending.borrow_mut().remove(&job);
                if let Some(reply) = reply {
                    let _ = reply.send(match other {
                        FromWorker::Failed { message, .. } => Err(JobError::Failed(message)),
                        ok => Ok(ok),
                    });
                }
                if slot.pending.borrow().is_empty() {
                    self.pump(index);
                }
            }
        }
    }

    /// Drops the slot's worker and fails its pending jobs: the first (the one the worker was
    /// running: jobs are numbered as they are posted and a worker takes them in order) with
    /// `why`, the ones queued behind it with `queued`.
    fn stop(&self, index: usize, why: &JobError, queued: &JobError) {
        let slot = self.slot(index);
        if let Some(live) = slot.live.borrow_mut().take() {
            live.worker.terminate();
        }
        // Events of the terminated worker still queued are ignored from now on.
        slot.generation.set(slot.generation.get() + 1);
        slot.idle.repos.borrow_mut().clear();
        slot.idle.warm_rounds.set(0);
        let mut pending: Vec<(u64, Reply)> = slot.pending.borrow_mut().drain().collect();
        pending.sort_unstable_by_key(|(job, _)| *job);
        for (n, (_, reply)) in pending.into_iter().enumerate() {
            let _ = reply.send(Err(if n == 0 { why.clone() } else { queued.clone() }));
        }
        if index == 0 {
            self.0.status.set(WorkerStatus::Starting);
        }
    }

    /// A trap: only the job this slot's worker was running fails (those queued behind it may be
    /// sent again); its worker is replaced, the others keep scoring.
    fn crashed(&self, index: usize, generation: u64, message: String) {
        if generation != self.slot(index).generation.get() {
            return;
        }
        self.0.crashes.update(|n| *n += 1);
        self.stop(index, &JobError::Crashed(message), &JobError::Requeue);
        self.start(index);
    }

    /// Stops whatever the workers are doing now: pending jobs end with [`JobError::Cancelled`].
    /// Worker 0 restarts at once; the others again once it is ready.
    pub fn cancel(&self) {
        for index in 0..self.size() {
            self.stop(index, &JobError::Cancelled, &JobError::Cancelled);
        }
        self.start(0);
    }

    fn post(&self, index: usize, msg: &ToWorker, bytes: Option<&js_sys::Uint8Array>) {
        let env = envelope(msg, bytes);
        let mut live = self.slot(index).live.borrow_mut();
        let Some(live) = live.as_mut() else { return };
        if live.ready {
            let _ = live.worker.post_message(&env);
        } else {
            live.outbox.push(env);
        }
    }

    /// Whether the slot's live worker lacks `key`; marks it held.
    fn needs(&self, index: usize, key: &str) -> bool {
        let mut live = self.slot(index).live.borrow_mut();
        live.as_mut().is_some_and(|l| l.holds.insert(key.to_string()))
    }

    /// Starts the slot's worker if it has none; false if the browser refused to create one.
    fn ensure(&self, index: usize) -> bool {
        if self.slot(index).live.borrow().is_none() {
            self.start(index);
        }
        self.slot(index).live.borrow().is_some()
    }

    /// Sends worker `index` the files of a task it does not hold yet.
    fn send_inputs(&self, index: usize, inputs: &TaskInputs) {
        if self.needs(index, &inputs.task_file) {
            let json = inputs.task_json.to_string();
            self.post(index, &ToWorker::Task { key: inputs.task_file.clone(), json }, None);
        }
        self.send_manifest(index, &inputs.manifest_file, &inputs.manifest_json);
        for (pack, bytes) in &inputs.blobs {
            self.send_pack(index, pack, bytes);
        }
    }

    fn send_manifest(&self, index: usize, file: &str, json: &str) {
        if self.needs(index, file) {
            let bytes = js_sys::Uint8Array::from(json.as_bytes());
            self.post(index, &ToWorker::Manifest { key: file.to_string() }, Some(&bytes));
        }
    }

    fn send_pack(&self, index: usize, pack: &Pack, bytes: &js_sys::Uint8Array) {
        if self.needs(index, &pack.file) {
            self.post(index, &ToWorker::Blobs { pack: pack.clone() }, Some(bytes));
        }
    }

    /// Gives every worker of the pool (starting those not running) idle work: `repos` (each
    /// repository's manifest and pack, unless it holds them: what a batch run's tasks need
    /// besides their task files) and `warm_rounds` rounds of the built-in warm-up job
    /// (`worker::warmup`, so that a run finds the scorer's code optimised by the browser),
    /// preceded by loading the site data a run may need when `warm_rounds` is not zero.
    /// [`crate::runs::prefetch_bundle`] calls it while the Score page waits for files.
    pub fn prefetch(&self, repos: &[RepoData], warm_rounds: usize) {
        for index in 0..self.size() {
            if !self.ensure(index) {
                continue;
            }
            let idle = &self.slot(index).idle;
            idle.repos.borrow_mut().extend(repos.iter().cloned());
            idle.warm_rounds.set(idle.warm_rounds.get() + warm_rounds);
            if warm_rounds > 0 {
                idle.site_data.set(true);
            }
            self.pump(index);
        }
    }

    /// Works through a slot's idle work while no job waits on it: one repository's data, then
    /// the site data once, or else one warm-up round (whose answer says the worker has read
    /// that data too), and so on.
    /// Stops when a job is posted; [`Self::received`] starts it again when the slot's last job
    /// is answered.
    fn pump(&self, index: usize) {
        let idle = &self.slot(index).idle;
        if idle.pumping.replace(true) {
            return;
        }
        let pool = self.clone();
        leptos::task::spawn_local(async move {
            loop {
                let slot = pool.slot(index);
                if !slot.pending.borrow().is_empty() || slot.live.borrow().is_none() {
                    break;
                }
                let repo = slot.idle.repos.borrow_mut().pop_front();
                if let Some(data) = &repo {
                    pool.send_manifest(index, &data.manifest_file, &data.manifest_json);
                    if let Some((pack, bytes)) = &data.pack {
                        pool.send_pack(index, pack, bytes);
                        slot.idle.verify.set(true);
                    }
                }
                let rounds = slot.idle.warm_rounds.get();
                if slot.idle.site_data.replace(false) {
                    // Failures are left to the run that needs the file (it loads it then).
                    let _ = pool.post_job(index, |job| ToWorker::LoadSiteData { job }, None).await;
                } else if slot.idle.verify.replace(false) {
                    let answer =
                        pool.post_job(index, |job| ToWorker::VerifyBlobs { job }, None).await;
                    if matches!(answer, Ok(FromWorker::BlobsVerified { more: true, .. })) {
                        slot.idle.verify.set(true);
                    }
                } else if rounds > 0 {
                    slot.idle.warm_rounds.set(rounds - 1);
                    let answer = pool.post_job(index, |job| ToWorker::WarmUp { job }, None).await;
                    if !matches!(answer, Ok(FromWorker::WarmedUp { .. })) {
                        slot.idle.warm_rounds.set(0);
                    }
                } else if repo.is_none() {
                    break;
                }
            }
            pool.slot(index).idle.pumping.set(false);
        });
    }

    /// Posts a job for the user: the warm-up rounds left on that worker are dropped (the job
    /// warms the code itself), and so is loading the site data (a run that needs it loads it),
    /// and it waits behind at most what the idle pump posted last.
    async fn job(
        &self,
        index: usize,
        make: impl FnOnce(u64) -> ToWorker,
        bytes: Option<&js_sys::Uint8Array>,
    ) -> Result<FromWorker, JobError> {
        let idle = &self.slot(index).idle;
        idle.warm_rounds.set(0);
        idle.site_data.set(false);
        idle.verify.set(false);
        self.post_job(index, make, bytes).await
    }

    async fn post_job(
        &self,
        index: usize,
        make: impl FnOnce(u64) -> ToWorker,
        bytes: Option<&js_sys::Uint8Array>,
    ) -> Result<FromWorker, JobError> {
        if !self.ensure(index) {
            return Err(JobError::Failed("the scoring worker could not be started".into()));
        }
        let job = self.0.next_job.get();
        self.0.next_job.set(job + 1);
        let (tx, rx) = oneshot::channel();
        self.slot(index).pending.borrow_mut().insert(job, tx);
        self.post(index, &make(job), bytes);
        rx.await.unwrap_or(Err(JobError::Cancelled))
    }

    /// Scores `patch` against the combined task of `tasks` (one repository, in this order) on
    /// worker 0: a verdict per constituent task and for the whole.
    pub async fn combine(
        &self,
        tasks: &[TaskInputs],
        patch: &[u8],
    ) -> Result<scorer::combine::CombinedResult, JobError> {
        if !self.ensure(0) {
            return Err(JobError::Failed("the scoring worker could not be started".into()));
        }
        for inputs in tasks {
            self.send_inputs(0, inputs);
        }
        let keys: Vec<String> = tasks.iter().map(|t| t.task_file.clone()).collect();
        let manifest = tasks.first().map(|t| t.manifest_file.clone()).unwrap_or_default();
        let bytes = js_sys::Uint8Array::from(patch);
        let make = move |job| ToWorker::Combine { job, tasks: keys, manifest };
        match self.job(0, make, Some(&bytes)).await? {
            FromWorker::Combined { result, .. } => Ok(result),
            other => Err(JobError::Failed(format!("unexpected answer {other:?}"))),
        }
    }

    /// Scores one submission on worker `index` for the task `inputs` describes, sending the task's
    /// files first if that worker instance does not have them yet.
    pub async fn score(
        &self,
        index: usize,
        inputs: &TaskInputs,
        submission: Submission,
        trap: bool,
    ) -> Result<TaskResult, JobError> {
        if !self.ensure(index) {
            return Err(JobError::Failed("the scoring worker could not be started".into()));
        }
        self.send_inputs(index, inputs);
        let task = inputs.task_file.clone();
        let manifest = inputs.manifest_file.clone();
        let answer = self
            .job(index, move |job| ToWorker::Score { job, task, manifest, submission, trap }, None)
            .await?;
        match answer {
            FromWorker::Scored { result, .. } => Ok(result),
            other => Err(JobError::Failed(format!("unexpected answer {other:?}"))),
        }
    }

    /// Reads the submissions of one uploaded file in worker 0.
    pub async fn parse(&self, name: &str, bytes: &js_sys::Uint8Array) -> Result<Parsed, JobError> {
        let name = name.to_string();
        match self.job(0, move |job| ToWorker::Parse { job, name }, Some(bytes)).await? {
            FromWorker::Parsed { parsed, .. } => Ok(parsed),
            other => Err(JobError::Failed(format!("unexpected answer {other:?}"))),
        }
    }
}

/// The app's scoring worker, as provided by the app root ([`provide_worker`]). A `Copy` handle:
/// read it while building a component, call `.get_value()` in event handlers.
pub type WorkerHandle = StoredValue<ScoringWorker, LocalStorage>;

/// Starts the worker pool ([`pool_size`] workers) and provides it (and its status) as context.
pub fn provide_worker() -> WorkerHandle {
    let worker = ScoringWorker::spawn(pool_size());
    provide_context(worker.status());
    let handle = StoredValue::new_local(worker);
    provide_context(handle);
    handle
}

pub fn use_worker() -> Option<WorkerHandle> {
    use_context::<WorkerHandle>()
}
