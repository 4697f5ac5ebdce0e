//! The root component: router, shell and the connection to the scoring worker.

use gloo_worker::Spawnable;
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::components::header::Header;
use crate::pages::{about::AboutPage, not_found::NotFound, tasks::TasksPage};
use crate::worker::{ScoreWorker, WorkerRequest, WorkerResponse, WORKER_LOADER};

/// State of the scoring worker, shown in the footer and the About page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerState {
    Starting,
    Ready { scorer_version: String },
}

#[component]
pub fn App() -> impl IntoView {
    let (worker_state, set_worker_state) = signal(WorkerState::Starting);
    let bridge = ScoreWorker::spawner()
        .callback(move |resp| match resp {
            WorkerResponse::Ready { scorer_version } => {
                set_worker_state.set(WorkerState::Ready { scorer_version })
            }
            // The shell sends no Score request; the scoring pages open bridges of their own.
            WorkerResponse::Scored(_) => {}
        })
        .spawn_with_loader(WORKER_LOADER);
    bridge.send(WorkerRequest::Hello);
    // The bridge must live as long as the page.
    StoredValue::new_local(bridge);
    provide_context(worker_state);

    view! {
        <Router base=crate::net::base_path()>
            <Header/>
            <main>
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=TasksPage/>
                    <Route path=path!("/about") view=AboutPage/>
                    <Route path=path!("/tasks/:id") view=crate::pages::task::TaskPage/>
                </Routes>
            </main>
            <footer class="footer">
                <span id="worker-status">
                    {move || match worker_state.get() {
                        WorkerState::Starting => "Scoring worker: starting…".to_string(),
                        WorkerState::Ready { scorer_version } => {
                            format!("Scoring worker: ready (scorer {scorer_version})")
                        }
                    }}
                </span>
            </footer>
        </Router>
    }
}
