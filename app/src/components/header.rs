//! The site header: navigation and the bundle selector.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::bundles::use_bundle;
use crate::routes::{Query, Route};

#[component]
pub fn Header() -> impl IntoView {
    // Links carry the site's base path (a sub-path deployment serves the app under it).
    let bundle = use_bundle();
    // `?bundle=` on in-app navigation (the first load is read by the bundle context itself).
    let query = leptos_router::hooks::use_query_map();
    Effect::new(move |_| {
        if let Some(name) = query.read().get("bundle") {
            bundle.follow_link(&name);
        }
    });
    let notice = move || {
        bundle.unknown.get().map(|name| {
            let shown = bundle.selected.get();
            view! {
                <p id="bundle-unknown" class="error notice" role="alert">
                    {format!("This site has no bundle named “{name}”; showing the “{shown}” bundle instead.")}
                </p>
            }
        })
    };
    let selector = move || {
        bundle.list.get().and_then(Result::ok).filter(|l| l.bundles.len() > 1).map(|list| {
            let options = list
                .bundles
                .iter()
                .map(|b| {
                    let name = b.name.clone();
                    let selected = move || bundle.selected.get() == name;
                    view! {
                        <option value=b.name.clone() selected=selected>
                            {format!("{} ({} tasks)", b.name, b.tasks)}
                        </option>
                    }
                })
                .collect_view();
            view! {
                <label class="bundle-select">
                    "Bundle "
                    <select
                        id="bundle-select"
                        on:change=move |ev| bundle.select(&event_target_value(&ev))
                    >
                        {options}
                    </select>
                </label>
            }
        })
    };
    view! {
        <header class="header">
            <a class="brand" href=Route::Leaderboard(Query::new()).href()>"refscore"</a>
            <span class="tagline">"RefactorBench scorer and explorer"</span>
            <nav class="nav" aria-label="Main">
                <A href=Route::Leaderboard(Query::new()).href() exact=true>"Leaderboard"</A>
                <A href=Route::Tasks(Query::new()).href()>"Tasks"</A>
                <A href=Route::Score.href()>"Score"</A>
                <A href=Route::Runs.href()>"Runs"</A>
                <A href=Route::Trajectory(Query::new()).href()>"Trajectory"</A>
                <A href=Route::About.href()>"About"</A>
            </nav>
            {selector}
        </header>
        {notice}
    }
}
