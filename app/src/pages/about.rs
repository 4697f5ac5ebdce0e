//! What refscore is, and which scorer and bundle this page runs.

use leptos::prelude::*;

use crate::bridge::WorkerStatus;

#[component]
pub fn AboutPage() -> impl IntoView {
    let worker_state = use_context::<ReadSignal<WorkerStatus>>();
    view! {
        <section>
            <h1>"About refscore"</h1>
            <p>
                "refscore scores RefactorBench submissions (arXiv 2503.07832) in this browser tab: "
                "it applies a patch to an in-memory copy of the task's repository and runs the "
                "task's unmodified unittest file in a Python interpreter written in Rust, with the "
                "verdicts CPython 3.11 gives. Nothing is uploaded to a server."
            </p>
            <dl>
                <dt>"Scorer"</dt>
                <dd id="about-scorer">
                    {move || match worker_state.map(|s| s.get()) {
                        Some(WorkerStatus::Ready { scorer_version }) => format!("refscore {scorer_version}"),
                        _ => "starting…".to_string(),
                    }}
                </dd>
            </dl>
        </section>
    }
}
