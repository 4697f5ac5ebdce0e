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
    // The bar is built once per session and only its numbers follow the progress: a view rebuilt
    // at every update would replace the Cancel button under the user's pointer.
    let active = Memo::new(move |_| session.progress.with(Option::is_some));
    let read = move |f: fn(&crate::runs::Progress) -> String| {
        move || session.progress.with(|p| p.as_ref().map(f).unwrap_or_default())
    };
    view! {
        {move || active.get().then(|| view! {
            <div class="score-progress" id="score-progress" role="status">
                <progress
                    max=move || session.progress.with(|p| p.as_ref().map_or(1, |p| p.total.max(1)))
                    value=move || session.progress.with(|p| p.as_ref().map_or(0, |p| p.done))
                ></progress>
                // Before the text, whose width changes with every update: the button stays put.
                <button id="score-cancel" type="button" on:click=cancel>"Cancel"</button>
                <span class="progress-text">
                    {read(|p| {
                        let pct = if p.total == 0 { 0.0 } else { 100.0 * f64::from(p.done) / f64::from(p.total) };
                        format!("{} {} / {} ({pct:.0}%)", p.phase, p.done, p.total)
                    })}
                    " " <span class="muted">{read(|p| p.current.clone())}</span>
                </span>
            </div>
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
