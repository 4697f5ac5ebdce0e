//! The site header and navigation.

use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn Header() -> impl IntoView {
    view! {
        <header class="header">
            <a class="brand" href="./">"refscore"</a>
            <span class="tagline">"RefactorBench scorer and explorer"</span>
            <nav class="nav" aria-label="Main">
                <A href="/">"Tasks"</A>
                <A href="/about">"About"</A>
            </nav>
        </header>
    }
}
