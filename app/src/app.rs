//! The root component: router, shell, and the app-wide services (bundle selection, the scoring
//! worker, the scoring session) provided as context.

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::bridge::{ScoringWorker, WorkerStatus};
use crate::components::header::Header;
use crate::pages::{
    about::AboutPage, leaderboard::LeaderboardPage, not_found::NotFound, result::ResultPage,
    run::RunPage, runs::RunsPage, score::ScorePage, score::TaskScorePage, tasks::TasksPage,
};

#[component]
pub fn App() -> impl IntoView {
    crate::bundles::provide_bundle_context();
    let worker = crate::bridge::provide_worker();
    let status = worker.with_value(ScoringWorker::status);
    let crashes = worker.with_value(ScoringWorker::crashes);
    crate::runs::Session::provide();
    // Started only by a page that reads a trajectory.
    crate::trajbridge::provide_traj_worker();

    view! {
        <Router base=crate::net::base_path()>
            <Header/>
            <main id="main" tabindex="-1">
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=LeaderboardPage/>
                    <Route path=path!("/tasks") view=TasksPage/>
                    <Route path=path!("/leaderboard/:entry") view=RunPage/>
                    <Route path=path!("/leaderboard/:entry/:instance") view=ResultPage/>
                    <Route path=path!("/tasks/:id/score") view=TaskScorePage/>
                    <Route path=path!("/score") view=ScorePage/>
                    <Route path=path!("/runs") view=RunsPage/>
                    <Route path=path!("/runs/:run") view=RunPage/>
                    <Route path=path!("/runs/:run/:instance") view=ResultPage/>
                    <Route path=path!("/runs/:run/:instance/trajectory") view=crate::pages::trajectory::RunTrajectoryPage/>
                    <Route path=path!("/trajectory") view=crate::pages::trajectory::TrajectoryPage/>
                    <Route path=path!("/about") view=AboutPage/>
                    <Route path=path!("/compare") view=crate::pages::compare::ComparePage/>
                    <Route path=path!("/combine") view=crate::pages::combine::CombinePage/>
                    <Route path=path!("/tasks/:id") view=crate::pages::task::TaskPage/>
                </Routes>
            </main>
            <footer class="footer">
                <span id="worker-status">
                    {move || match status.get() {
                        WorkerStatus::Starting => "Scoring worker: starting…".to_string(),
                        WorkerStatus::Ready { scorer_version } => {
                            format!("Scoring worker: ready (scorer {scorer_version})")
                        }
                        WorkerStatus::Unavailable(e) => format!("Scoring worker: unavailable ({e})"),
                    }}
                </span>
                {move || (crashes.get() > 0).then(|| view! {
                    <span id="worker-restarts" class="muted">
                        {format!(" · restarted after {} crash(es)", crashes.get())}
                    </span>
                })}
            </footer>
        </Router>
    }
}
