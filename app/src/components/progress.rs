//! The scoring session's progress bar and cancel button, shown while a run scores.

use leptos::prelude::*;

use crate::bridge::use_worker;
use crate::runs::{use_session, Outcome};

#[component]
pub fn ScoreProgress() -> impl IntoView {
    let session = use_session();
    // Contexts are read while the component is built: event handlers run without an owner.
    let worker = use_worker();
    let cancel = move |_| {
        if let Some(w) = worker {
            session.cancel(&w.get_value());
        }
    };
    view! {
        {move || session.progress.get().map(|p| {
            let pct = if p.total == 0 { 0.0 } else { 100.0 * f64::from(p.done) / f64::from(p.total) };
            view! {
                <div class="score-progress" id="score-progress" role="status">
                    <progress max=p.total.max(1) value=p.done></progress>
                    <span class="progress-text">
                        {format!("{} {} / {} ({pct:.0}%)", p.phase, p.done, p.total)}
                        " " <span class="muted">{p.current.clone()}</span>
                    </span>
                    <button id="score-cancel" type="button" on:click=cancel>"Cancel"</button>
                </div>
            }
        })}
        {move || match session.outcome.get() {
            Some(Outcome::Cancelled { done, total }) => Some(view! {
                <p id="score-cancelled" class="muted">
                    {format!("Cancelled after {done} of {total} submissions; nothing was stored.")}
                </p>
            }.into_any()),
            Some(Outcome::Failed(msg)) => Some(view! {
                <p id="score-failed" class="error">{msg}</p>
            }.into_any()),
            Some(Outcome::Empty { errors, first }) => Some(view! {
                <div id="score-empty" class="error" role="alert">
                    <p>{format!("Nothing was scored ({errors} entr{} listed as not scored), so no run was stored.",
                        if errors == 1 { "y" } else { "ies" })}</p>
                    <ul>{first.into_iter().map(|m| view! { <li class="mono">{m}</li> }).collect_view()}</ul>
                    <button id="store-empty" type="button" on:click=move |_| session.store_pending()>
                        "Store the empty run anyway"</button>
                </div>
            }.into_any()),
            _ => None,
        }}
    }
}
