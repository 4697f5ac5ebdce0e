//! The site header: the skip link, navigation, the bundle selector, the scoring progress (on
//! pages other than Score), and the document title of pages that need no data to name.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::bundles::use_bundle;
use crate::routes::{Href, Query, Route};

/// Sets the document title to "`page` — refscore".
pub fn set_title(page: &str) {
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        doc.set_title(&format!("{page} — refscore"));
    }
}

/// The title of a page from its route alone; `None` for the run and result pages, which name
/// their run once it is loaded.
fn route_title(route: Option<Route>) -> Option<String> {
    Some(match route {
        None => "Not found".to_string(),
        Some(Route::Leaderboard(_)) => "Leaderboard".to_string(),
        Some(Route::Tasks(_)) => "Tasks".to_string(),
        Some(Route::Task { id, .. }) => id,
        Some(Route::TaskScore { id }) => format!("Score {id}"),
        Some(Route::Score) => "Score".to_string(),
        Some(Route::Runs) => "Runs".to_string(),
        Some(Route::Run { .. } | Route::Result { .. }) => return None,
        Some(Route::RunTrajectory { instance, .. }) => format!("Trajectory of {instance}"),
        Some(Route::Trajectory(_)) => "Trajectory".to_string(),
        Some(Route::About) => "About".to_string(),
        Some(Route::Compare(_)) => "Compare runs".to_string(),
        Some(Route::Combine(_)) => "Combine tasks".to_string(),
    })
}

#[component]
pub fn Header() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    // The page's route, from the path under the base.
    let route = Memo::new(move |_| {
        let path = location.pathname.get();
        let base = crate::net::base_path();
        let rel = path.strip_prefix(base.as_str()).unwrap_or(&path);
        Route::parse(if rel.is_empty() { "/" } else { rel })
    });
    Effect::new(move |_| {
        if let Some(t) = route_title(route.get()) {
            set_title(&t);
        }
    });
    let session = crate::runs::use_session();
    // Built once while a run scores; only its text follows the progress, so the link is not
    // replaced under the pointer at every update.
    let shown = Memo::new(move |_| {
        let on_score = matches!(route.get(), Some(Route::Score | Route::TaskScore { .. }));
        !on_score && session.progress.with(Option::is_some)
    });
    let progress = move || {
        shown.get().then(|| {
            let text = move || {
                session.progress.with(|p| {
                    p.as_ref().map(|p| format!("{} {} / {}", p.phase, p.done, p.total)).unwrap_or_default()
                })
            };
            view! {
                <span role="status">
                    <a id="header-progress" class="header-progress" href=Route::Score.href()>{text}</a>
                </span>
            }
        })
    };
    // Handled here (`target` keeps the router out): focus moves to the content, so the next Tab
    // starts there.
    let skip = |ev: leptos::ev::MouseEvent| {
        // `href="#main"` resolves against `<base href>`: followed, it would leave the page.
        ev.prevent_default();
        if let Some(main) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("main"))
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = main.focus();
        }
    };
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
        <a class="skip-link" href="#main" target="_self" on:click=skip>"Skip to content"</a>
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
            {progress}
        </header>
        {notice}
    }
}
