//! The site header and navigation.

use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn Header() -> impl IntoView {
    // Links carry the site's base path (a sub-path deployment serves the app under it).
    let base = crate::net::base_path();
    let home = format!("{base}/");
    let about = format!("{base}/about");
    view! {
        <header class="header">
            <a class="brand" href="./">"refscore"</a>
            <span class="tagline">"RefactorBench scorer and explorer"</span>
            <nav class="nav" aria-label="Main">
                <A href=home>"Tasks"</A>
                <A href=about>"About"</A>
            </nav>
        </header>
    }
}
