//! The UI side of the scoring worker: a small bridge over a raw `web_sys::Worker`.
//!
//! gloo-worker's bridge does not expose the worker's `error` event, and a worker whose wasm traps
//! (a panic is an abort in the release build; a stack overflow is a `RangeError`) is dead: its
//! instance may be left mid-borrow. This bridge listens to `error`, fails the job in flight, and
//! starts a fresh worker, to which it resends the bundle files on demand. Cancelling terminates the
//! worker (immediately, even mid-submission) and starts a fresh one the same way.
//!
//! Jobs are one submission (or one uploaded file) each, answered in order; callers `await` them.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use leptos::prelude::*;
use scorer::report::{EntryError, TaskResult};
use scorer::submission::{Parsed, Submission};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::bundles::TaskInputs;
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
    /// The worker answered that the job could not run.
    Failed(String),
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobError::Cancelled => f.write_str("cancelled"),
            JobError::Crashed(m) => write!(f, "the scoring worker crashed ({m}) and was restarted"),
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

struct Inner {
    live: RefCell<Option<Live>>,
    generation: Cell<u64>,
    next_job: Cell<u64>,
    pending: RefCell<HashMap<u64, Reply>>,
    status: RwSignal<WorkerStatus>,
    /// How many times a trap restarted the worker (shown to the user, checked by tests).
    crashes: RwSignal<u32>,
}

/// A handle to the scoring worker; cheap to clone, provided as context by the app root.
#[derive(Clone)]
pub struct ScoringWorker(Rc<Inner>);

impl std::fmt::Debug for ScoringWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScoringWorker").field("generation", &self.0.generation.get()).finish()
    }
}

fn envelope(msg: &ToWorker, bytes: Option<&js_sys::Uint8Array>) -> js_sys::Object {
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
    /// Starts the worker; `status` follows it.
    pub fn spawn() -> Self {
        let inner = Rc::new(Inner {
            live: RefCell::new(None),
            generation: Cell::new(0),
            next_job: Cell::new(1),
            pending: RefCell::new(HashMap::new()),
            status: RwSignal::new(WorkerStatus::Starting),
            crashes: RwSignal::new(0),
        });
        let w = ScoringWorker(inner);
        w.start();
        w
    }

    pub fn status(&self) -> ReadSignal<WorkerStatus> {
        self.0.status.read_only()
    }

    pub fn crashes(&self) -> ReadSignal<u32> {
        self.0.crashes.read_only()
    }

    fn start(&self) {
        let generation = self.0.generation.get() + 1;
        self.0.generation.set(generation);
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let on_message = {
            let weak = weak.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if let Some(inner) = weak.upgrade() {
                    ScoringWorker(inner).received(generation, &ev.data());
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
                            ScoringWorker(inner).crashed(generation, message);
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
                *self.0.live.borrow_mut() = Some(Live {
                    worker,
                    ready: false,
                    outbox: Vec::new(),
                    holds: HashSet::new(),
                    _onmessage: on_message,
                    _onerror: on_error,
                });
                self.poll_hello(generation, 0);
            }
            Err(e) => {
                self.0.status.set(WorkerStatus::Unavailable(crate::net::js_error_text(&e)));
            }
        }
    }

    /// Sends `Hello` until the worker answers: messages that reach a worker before its wasm set
    /// `onmessage` are dropped, so the first answer is the signal that it listens.
    fn poll_hello(&self, generation: u64, attempt: u32) {
        let ready = self
            .0
            .live
            .borrow()
            .as_ref()
            .is_none_or(|l| l.ready || self.0.generation.get() != generation);
        if ready {
            return;
        }
        if let Some(live) = self.0.live.borrow().as_ref() {
            // A failed post means the worker is gone; its error event restarts it.
            let _ = live.worker.post_message(&envelope(&ToWorker::Hello, None));
        }
        let weak = Rc::downgrade(&self.0);
        let delay = if attempt < 20 { 25 } else { 250 };
        set_timeout(
            move || {
                if let Some(inner) = weak.upgrade() {
                    ScoringWorker(inner).poll_hello(generation, attempt + 1);
                }
            },
            std::time::Duration::from_millis(delay),
        );
    }

    fn received(&self, generation: u64, data: &JsValue) {
        if generation != self.0.generation.get() {
            return;
        }
        let header = js_sys::Reflect::get(data, &"h".into()).ok().and_then(|h| h.as_string());
        let Some(Ok(msg)) = header.as_deref().map(serde_json::from_str::<FromWorker>) else {
            return;
        };
        match msg {
            FromWorker::Ready { scorer_version } => {
                let outbox = {
                    let mut live = self.0.live.borrow_mut();
                    let Some(live) = live.as_mut() else { return };
                    if live.ready {
                        return;
                    }
                    live.ready = true;
                    std::mem::take(&mut live.outbox)
                };
                if let Some(live) = self.0.live.borrow().as_ref() {
                    for m in outbox {
                        let _ = live.worker.post_message(&m);
                    }
                }
                self.0.status.set(WorkerStatus::Ready { scorer_version });
            }
            FromWorker::Failed { job: None, message } => {
                // A data message was refused: the job that needs the data fails when it runs.
                leptos::logging::warn!("scoring worker: {message}");
            }
            other => {
                let Some(job) = other.job() else { return };
                let reply = self.0.pending.borrow_mut().remove(&job);
                if let Some(reply) = reply {
                    let _ = reply.send(match other {
                        FromWorker::Failed { message, .. } => Err(JobError::Failed(message)),
                        ok => Ok(ok),
                    });
                }
            }
        }
    }

    /// Drops the current worker, fails every pending job with `why`, and starts a new one.
    fn replace(&self, why: JobError) {
        if let Some(live) = self.0.live.borrow_mut().take() {
            live.worker.terminate();
        }
        let pending: Vec<Reply> = self.0.pending.borrow_mut().drain().map(|(_, r)| r).collect();
        for reply in pending {
            let _ = reply.send(Err(why.clone()));
        }
        self.0.status.set(WorkerStatus::Starting);
        self.start();
    }

    fn crashed(&self, generation: u64, message: String) {
        if generation != self.0.generation.get() {
            return;
        }
        self.0.crashes.update(|n| *n += 1);
        self.replace(JobError::Crashed(message));
    }

    /// Stops whatever the worker is doing now: pending jobs end with [`JobError::Cancelled`].
    pub fn cancel(&self) {
        self.replace(JobError::Cancelled);
    }

    fn post(&self, msg: &ToWorker, bytes: Option<&js_sys::Uint8Array>) {
        let env = envelope(msg, bytes);
        let mut live = self.0.live.borrow_mut();
        let Some(live) = live.as_mut() else { return };
        if live.ready {
            let _ = live.worker.post_message(&env);
        } else {
            live.outbox.push(env);
        }
    }

    /// Whether the live worker already holds `key`; marks it held.
    fn needs(&self, key: &str) -> bool {
        let mut live = self.0.live.borrow_mut();
        live.as_mut().is_some_and(|l| l.holds.insert(key.to_string()))
    }

    async fn job(
        &self,
        make: impl FnOnce(u64) -> ToWorker,
        bytes: Option<&js_sys::Uint8Array>,
    ) -> Result<FromWorker, JobError> {
        let job = self.0.next_job.get();
        self.0.next_job.set(job + 1);
        let (tx, rx) = oneshot::channel();
        self.0.pending.borrow_mut().insert(job, tx);
        if self.0.live.borrow().is_none() {
            self.start();
        }
        self.post(&make(job), bytes);
        rx.await.unwrap_or(Err(JobError::Cancelled))
    }

    /// Scores one submission for the task `inputs` describes, sending the task's files first if
    /// this worker instance does not have them yet.
    pub async fn score(
        &self,
        inputs: &TaskInputs,
        submission: Submission,
        trap: bool,
    ) -> Result<Result<TaskResult, EntryError>, JobError> {
        if self.needs(&inputs.task_file) {
            let json = inputs.task_json.to_string();
            self.post(&ToWorker::Task { key: inputs.task_file.clone(), json }, None);
        }
        if self.needs(&inputs.manifest_file) {
            let json = inputs.manifest_json.to_string();
            self.post(&ToWorker::Manifest { key: inputs.manifest_file.clone(), json }, None);
        }
        for (pack, bytes) in &inputs.blobs {
            if self.needs(&pack.file) {
                self.post(&ToWorker::Blobs { pack: (**pack).clone() }, Some(bytes));
            }
        }
        let task = inputs.task_file.clone();
        let manifest = inputs.manifest_file.clone();
        let answer = self
            .job(move |job| ToWorker::Score { job, task, manifest, submission, trap }, None)
            .await?;
        match answer {
            FromWorker::Scored { outcome, .. } => Ok(outcome),
            other => Err(JobError::Failed(format!("unexpected answer {other:?}"))),
        }
    }

    /// Reads the submissions of one uploaded file in the worker.
    pub async fn parse(&self, name: &str, bytes: &js_sys::Uint8Array) -> Result<Parsed, JobError> {
        let name = name.to_string();
        match self.job(move |job| ToWorker::Parse { job, name }, Some(bytes)).await? {
            FromWorker::Parsed { parsed, .. } => Ok(parsed),
            other => Err(JobError::Failed(format!("unexpected answer {other:?}"))),
        }
    }
}

/// The app's scoring worker, as provided by the app root ([`provide_worker`]). A `Copy` handle:
/// read it while building a component, call `.get_value()` in event handlers.
pub type WorkerHandle = StoredValue<ScoringWorker, LocalStorage>;

/// Starts the worker and provides it (and its status) as context.
pub fn provide_worker() -> WorkerHandle {
    let worker = ScoringWorker::spawn();
    provide_context(worker.status());
    let handle = StoredValue::new_local(worker);
    provide_context(handle);
    handle
}

pub fn use_worker() -> Option<WorkerHandle> {
    use_context::<WorkerHandle>()
}
