//! The UI side of the trajectory worker (`trajworker/`): one raw `web_sys::Worker`, started on
//! the first job, never with the page, so its wasm (the log readers and the analysis) is fetched
//! only when a trajectory page or a run with trajectories needs it.
//!
//! A trap fails the jobs in flight and drops the worker; the next job starts a fresh one (the
//! pages reopen their documents when a job fails).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use leptos::prelude::*;
use trajworker::{FromTraj, Head, Node, StepFilter, TaskFacts, ToTraj, TRAJ_WORKER_LOADER};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::bridge::envelope;

type Reply = oneshot::Sender<Result<FromTraj, String>>;

struct Live {
    worker: web_sys::Worker,
    ready: bool,
    outbox: Vec<js_sys::Object>,
    _onmessage: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _onerror: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

#[derive(Default)]
struct Inner {
    live: RefCell<Option<Live>>,
    generation: Cell<u64>,
    pending: RefCell<HashMap<u64, Reply>>,
    next: Cell<u64>,
}

/// A handle to the trajectory worker; cheap to clone.
#[derive(Clone, Default)]
pub struct TrajWorker(Rc<Inner>);

impl std::fmt::Debug for TrajWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TrajWorker")
    }
}

impl TrajWorker {
    /// A fresh number for a document or a job.
    pub fn next_id(&self) -> u64 {
        let n = self.0.next.get() + 1;
        self.0.next.set(n);
        n
    }

    fn start(&self) -> Result<(), String> {
        let generation = self.0.generation.get() + 1;
        self.0.generation.set(generation);
        let weak: Weak<Inner> = Rc::downgrade(&self.0);
        let on_message = {
            let weak = weak.clone();
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if let Some(inner) = weak.upgrade() {
                    TrajWorker(inner).received(generation, &ev.data());
                }
            })
        };
        let on_error =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |ev: web_sys::ErrorEvent| {
                ev.prevent_default();
                let message = ev.message();
                let weak = weak.clone();
                set_timeout(
                    move || {
                        if let Some(inner) = weak.upgrade() {
                            let w = TrajWorker(inner);
                            if w.0.generation.get() == generation {
                                w.stop(&format!("the trajectory worker crashed ({message})"));
                            }
                        }
                    },
                    std::time::Duration::ZERO,
                );
            });
        let worker =
            web_sys::Worker::new_with_options(TRAJ_WORKER_LOADER, &web_sys::WorkerOptions::new())
                .map_err(|e| crate::net::js_error_text(&e))?;
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.0.live.borrow_mut() = Some(Live {
            worker,
            ready: false,
            outbox: Vec::new(),
            _onmessage: on_message,
            _onerror: on_error,
        });
        self.poll_hello(generation, 0);
        Ok(())
    }

    /// Messages reaching the worker before its wasm listens are dropped: `Hello` until `Ready`.
    fn poll_hello(&self, generation: u64, attempt: u32) {
        {
            let live = self.0.live.borrow();
            let Some(live) = live.as_ref() else { return };
            if live.ready || self.0.generation.get() != generation {
                return;
            }
            let _ = live.worker.post_message(&envelope(&ToTraj::Hello, None));
        }
        let weak = Rc::downgrade(&self.0);
        set_timeout(
            move || {
                if let Some(inner) = weak.upgrade() {
                    TrajWorker(inner).poll_hello(generation, attempt + 1);
                }
            },
            std::time::Duration::from_millis(if attempt < 40 { 25 } else { 250 }),
        );
    }

    fn received(&self, generation: u64, data: &JsValue) {
        if generation != self.0.generation.get() {
            return;
        }
        let header = js_sys::Reflect::get(data, &"h".into()).ok().and_then(|h| h.as_string());
        let Some(Ok(msg)) = header.as_deref().map(serde_json::from_str::<FromTraj>) else {
            return;
        };
        if let FromTraj::Ready { .. } = msg {
            let outbox = {
                let mut live = self.0.live.borrow_mut();
                let Some(live) = live.as_mut().filter(|l| !l.ready) else { return };
                live.ready = true;
                std::mem::take(&mut live.outbox)
            };
            if let Some(live) = self.0.live.borrow().as_ref() {
                for m in outbox {
                    let _ = live.worker.post_message(&m);
                }
            }
            return;
        }
        let Some(job) = msg.job() else { return };
        if let Some(reply) = self.0.pending.borrow_mut().remove(&job) {
            let _ = reply.send(match msg {
                FromTraj::Failed { message, .. } => Err(message),
                ok => Ok(ok),
            });
        }
    }

    fn stop(&self, why: &str) {
        if let Some(live) = self.0.live.borrow_mut().take() {
            live.worker.terminate();
        }
        self.0.generation.set(self.0.generation.get() + 1);
        let pending: Vec<Reply> = self.0.pending.borrow_mut().drain().map(|(_, r)| r).collect();
        for reply in pending {
            let _ = reply.send(Err(why.to_string()));
        }
    }

    fn post(&self, msg: &ToTraj, bytes: Option<&js_sys::Uint8Array>) -> Result<(), String> {
        if self.0.live.borrow().is_none() {
            self.start()?;
        }
        let env = envelope(msg, bytes);
        let mut live = self.0.live.borrow_mut();
        let Some(live) = live.as_mut() else { return Err("no trajectory worker".into()) };
        if live.ready {
            let _ = live.worker.post_message(&env);
        } else {
            live.outbox.push(env);
        }
        Ok(())
    }

    async fn job(
        &self,
        make: impl FnOnce(u64) -> ToTraj,
        bytes: Option<&js_sys::Uint8Array>,
    ) -> Result<FromTraj, String> {
        let job = self.next_id();
        let (tx, rx) = oneshot::channel();
        self.0.pending.borrow_mut().insert(job, tx);
        if let Err(e) = self.post(&make(job), bytes) {
            self.0.pending.borrow_mut().remove(&job);
            return Err(e);
        }
        rx.await.unwrap_or_else(|_| Err("the trajectory worker stopped".into()))
    }

    /// Reads a log in the worker as document `doc`; with `parts` (name, length), `bytes` are
    /// several event files one after the other, joined there into one log.
    pub async fn open(
        &self,
        doc: u32,
        name: &str,
        bytes: &js_sys::Uint8Array,
        facts: Vec<TaskFacts>,
        parts: Vec<(String, u32)>,
    ) -> Result<Vec<Head>, String> {
        let name = name.to_string();
        match self.job(|job| ToTraj::Open { job, doc, name, facts, parts }, Some(bytes)).await? {
            FromTraj::Opened { samples, .. } => Ok(samples),
            _ => Err("unexpected answer".into()),
        }
    }

    /// One page of a document's steps: (matching, offset, markup).
    pub async fn steps(
        &self,
        doc: u32,
        sample: u32,
        filter: StepFilter,
        offset: u32,
        limit: u32,
        around: Option<u32>,
    ) -> Result<(u32, u32, Node), String> {
        let make = |job| ToTraj::Steps { job, doc, sample, filter, offset, limit, around };
        match self.job(make, None).await? {
            FromTraj::Steps { matching, offset, view, .. } => Ok((matching, offset, view)),
            _ => Err("unexpected answer".into()),
        }
    }

    /// The failure-mode section over the documents; `links`: (document, href, label); `epochs`:
    /// only the samples of those epochs (all when empty).
    pub async fn summarise(
        &self,
        docs: Vec<u32>,
        links: Vec<(u32, String, String)>,
        epochs: Vec<u32>,
    ) -> Result<Node, String> {
        match self.job(|job| ToTraj::Summarise { job, docs, links, epochs }, None).await? {
            FromTraj::Summary { view, .. } => Ok(view),
            _ => Err("unexpected answer".into()),
        }
    }

    /// The submissions of a log the scoring worker cannot read (an Inspect `.eval`).
    pub async fn parse(
        &self,
        name: &str,
        bytes: &js_sys::Uint8Array,
    ) -> Result<scorer::submission::Parsed, String> {
        let name = name.to_string();
        match self.job(|job| ToTraj::Parse { job, name }, Some(bytes)).await? {
            FromTraj::Parsed { parsed, .. } => Ok(parsed),
            _ => Err("unexpected answer".into()),
        }
    }

    /// Lets the worker drop documents a page no longer shows.
    pub fn close(&self, docs: Vec<u32>) {
        if self.0.live.borrow().is_some() {
            let _ = self.post(&ToTraj::Close { docs }, None);
        }
    }
}

/// The app's trajectory worker handle (not started until a job needs it).
pub type TrajHandle = StoredValue<TrajWorker, LocalStorage>;

thread_local! {
    static SHARED: TrajWorker = TrajWorker::default();
}

/// The app's one trajectory worker handle, also for code that runs outside a component (the
/// scoring session reads `.eval` logs with it).
pub fn shared() -> TrajWorker {
    SHARED.with(Clone::clone)
}

pub fn provide_traj_worker() {
    provide_context::<TrajHandle>(StoredValue::new_local(shared()));
}

pub fn use_traj_worker() -> TrajWorker {
    use_context::<TrajHandle>().map(|h| h.get_value()).unwrap_or_default()
}
