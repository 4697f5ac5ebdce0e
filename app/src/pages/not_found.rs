//! The page for a URL no route matches.

use leptos::prelude::*;

/// Shown for any URL no route matches.
#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section>
            <h1>"Not found"</h1>
            <p>"No page at this address. " <a href="./">"Back to the tasks"</a></p>
        </section>
    }
}
