//! The task list of the loaded bundle.

use leptos::prelude::*;
use scorer::bundle::BundleIndex;

/// Where the default (demo) bundle is served, relative to the site base.
pub const DEFAULT_BUNDLE: &str = "bundles/demo/index.json";

#[component]
pub fn TasksPage() -> impl IntoView {
    let index = LocalResource::new(|| async {
        let text = crate::net::fetch_text(DEFAULT_BUNDLE).await?;
        BundleIndex::from_json(&text).map_err(|e| e.to_string())
    });
    view! {
        <section>
            <h1>"Tasks"</h1>
            <Suspense fallback=|| view! { <p class="muted">"Loading the task bundle…"</p> }>
                {move || index.get().map(|res| match res {
                    Err(e) => view! { <p class="error" id="bundle-error">{e}</p> }.into_any(),
                    Ok(index) if index.tasks.is_empty() => view! {
                        <p id="task-list-empty" class="muted">
                            "No tasks in this bundle yet (bundle " {index.bundle_hash.clone()} ")."
                        </p>
                    }.into_any(),
                    Ok(index) => view! {
                        <table id="task-list" class="table">
                            <thead><tr><th>"Task"</th><th>"Repository"</th><th>"Test file"</th><th>"Methods"</th></tr></thead>
                            <tbody>
                                {index.tasks.into_iter().map(|t| view! {
                                    <tr><td>{t.id}</td><td>{t.repo}</td><td>{t.tests}</td><td>{t.methods}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any(),
                })}
            </Suspense>
        </section>
    }
}
