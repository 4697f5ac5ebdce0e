//! The scoring Web Worker and its message protocol.
//!
//! The worker links `scorer`; the UI thread talks to it only through [`WorkerRequest`] and
//! [`WorkerResponse`], so a long scoring run never blocks a click.

use gloo_worker::{HandlerId, Worker, WorkerScope};
use serde::{Deserialize, Serialize};

/// What the UI asks of the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerRequest {
    /// Sent once at start-up: answers with the scorer's version, proving the worker loaded.
    Hello,
}

/// What the worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerResponse {
    Ready { scorer_version: String },
}

/// The worker state (the parse cache will live here).
#[derive(Debug)]
pub struct ScoreWorker;

impl Worker for ScoreWorker {
    type Message = ();
    type Input = WorkerRequest;
    type Output = WorkerResponse;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        ScoreWorker
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: Self::Message) {}

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Self::Input, id: HandlerId) {
        match msg {
            WorkerRequest::Hello => {
                scope.respond(id, WorkerResponse::Ready { scorer_version: scorer::VERSION.into() })
            }
        }
    }
}

/// URL of the worker's loader script, relative to the document base (works under a sub-path).
pub const WORKER_LOADER: &str = "./worker_loader.js";
