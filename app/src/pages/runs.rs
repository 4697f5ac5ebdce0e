//! `/runs`: the stored runs (open, delete), and importing a report the CLI wrote.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use crate::bundles::use_bundle;
use crate::routes::{Href, Query, Route, RunRef};
use crate::runs::use_session;

/// A date for the run list and a run's page, in local time: `2026-12-02 16:20`. Written from the
/// date's fields, not `toLocaleString`: its first call loads the locale data (about 50 ms on the
/// UI thread, the longest task of showing a finished run).
pub fn when(ms: f64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        d.get_hours(),
        d.get_minutes()
    )
}

#[component]
pub fn RunsPage() -> impl IntoView {
    let session = use_session();
    let bundle = use_bundle();
    let runs = LocalResource::new(move || {
        session.runs_version.track();
        crate::store::list_runs()
    });
    let (import_error, set_import_error) = signal(None::<String>);
    let navigate = use_navigate();
    let on_import = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|l| l.item(0)) else { return };
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            let text = match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(t) => t.as_string().unwrap_or_default(),
                Err(e) => {
                    set_import_error.set(Some(crate::net::js_error_text(&e)));
                    return;
                }
            };
            // Predictions are scored, not imported: say so instead of a serde message.
            let predictions = ["\"model_patch\"", "\"submission\"", "\"trajectory"]
                .iter()
                .any(|k| text.contains(k));
            if !text.contains("\"schema_version\"") && predictions {
                set_import_error.set(Some(format!(
                    "{}: this is a predictions file or an agent log, not a report: score it on the Score page",
                    file.name()
                )));
                return;
            }
            // The run belongs to the bundle its report was scored with: switch to it.
            match crate::runs::import_report(&file.name(), &text, None).await {
                Ok((id, _, run_bundle)) => {
                    if bundle.selected.get_untracked() != run_bundle {
                        bundle.select(&run_bundle);
                    }
                    session.runs_version.update(|v| *v += 1);
                    navigate(
                        &Route::Run { run: RunRef::stored(id), query: Query::new() }.href(),
                        NavigateOptions { resolve: false, ..Default::default() },
                    );
                }
                Err(e) => set_import_error.set(Some(e)),
            }
        });
    };
    // Runs picked for comparison, by report hash, in the order picked.
    let picked = RwSignal::new(Vec::<String>::new());
    let toggle = move |hash: String, on: bool| {
        picked.update(|p| {
            p.retain(|h| *h != hash);
            if on {
                p.push(hash);
            }
        })
    };
    let compare_link = move || {
        let p = picked.get();
        let refs: Vec<&str> = p.iter().map(String::as_str).collect();
        crate::pages::compare::compare_href(&refs)
    };
    // Deleting asks first: the row's button becomes "Delete" / "Keep".
    let confirming = RwSignal::new(None::<String>);
    let delete = move |id: String| {
        confirming.set(None);
        leptos::task::spawn_local(async move {
            if let Err(e) = crate::store::delete_run(&id).await {
                set_import_error.set(Some(e));
            }
            session.runs_version.update(|v| *v += 1);
        });
    };
    view! {
        <section>
            <h1>"Runs"</h1>
            <p class="muted">
                "Runs are kept in this browser (IndexedDB) until you delete them. "
                <a href=Route::Score.href()>"Score new submissions"</a> " or import a report the CLI wrote ("
                <code>"refscore score … --out report.json"</code> "): "
                <label class="button">"Import a report"
                    <input id="import-report" type="file" accept=".json,application/json"
                        class="visually-hidden" on:change=on_import/>
                </label>
            </p>
            {move || import_error.get().map(|e| view! { <p id="import-error" class="error">{e}</p> })}
            <Suspense fallback=|| view! { <p class="muted">"Loading runs…"</p> }>
                {move || runs.get().map(|res| match res {
                    Err(e) => view! { <p class="error">{e}</p> }.into_any(),
                    Ok(list) if list.is_empty() => view! {
                        <p id="runs-empty" class="muted">"No runs yet."</p>
                    }.into_any(),
                    Ok(list) => {
                        // One agent's runs on several instruction sets: a link that lines them up.
                        let profiled: Vec<(&str, &scorer::stats::RunProfile)> = list.iter()
                            .filter(|r| !r.hash.is_empty())
                            .filter_map(|r| r.profile.as_ref().map(|p| (r.hash.as_str(), p)))
                            .collect();
                        let series = scorer::stats::instruction_set_series(&profiled).into_iter().map(|(model, runs)| {
                            let hashes: Vec<&str> = runs.iter().map(|(_, h)| *h).collect();
                            let sets: Vec<&str> = runs.iter().map(|(s, _)| s.as_str()).collect();
                            view! { <li><a class="series-link" href=crate::pages::compare::compare_href(&hashes)>
                                {format!("Compare {model} across instruction sets ({})", sets.join(", "))}</a></li> }
                        }).collect_view();
                        view! {
                        <p class="compare-bar">
                            <a id="compare-selected" class="button" href=compare_link
                                aria-disabled=move || (picked.get().len() < 2).then_some("true")>
                                {move || format!("Compare selected ({})", picked.get().len())}</a>
                            " Tick two or more runs; the first ticked is the baseline."
                        </p>
                        <ul class="series">{series}</ul>
                        <table id="runs-list" class="table">
                            <thead><tr>
                                <th>"Run"</th><th>"Created"</th><th>"Bundle"</th>
                                <th class="num">"Results"</th><th class="num">"Resolved"</th>
                                <th class="num">"Errors"</th><th>"Compare"</th><th></th>
                            </tr></thead>
                            <tbody>
                                {list.into_iter().map(|r| {
                                    let id = r.id.clone();
                                    let hash = r.hash.clone();
                                    let no_hash = hash.is_empty();
                                    let data_hash = hash.clone();
                                    let pick_label = format!("Compare {}", r.name);
                                    let agent = r.profile.as_ref().map(|p| {
                                        let mut s = p.models.join(", ");
                                        let sets: Vec<&str> = p.instruction_sets.iter().map(|s| s.as_str()).collect();
                                        if !sets.is_empty() {
                                            s = format!("{s} {}", sets.join("/")).trim().to_string();
                                        }
                                        s
                                    }).unwrap_or_default();
                                    view! {
                                        <tr data-run=r.id.clone()>
                                            <td><a href=Route::Run { run: RunRef::stored(r.id.clone()), query: Query::new() }.href()>{r.name.clone()}</a>
                                                {r.imported.then_some(view! { <span class="badge">"imported"</span> })}
                                                <span class="muted">{format!(" {agent}")}</span></td>
                                            <td>{when(r.created_ms)}</td>
                                            <td>{r.bundle.clone()}</td>
                                            <td class="num">{r.results}</td>
                                            <td class="num">{r.resolved}</td>
                                            <td class="num">{r.errors}</td>
                                            <td><input type="checkbox" class="compare-pick" data-hash=data_hash aria-label=pick_label
                                                disabled=no_hash
                                                title=if no_hash { "stored by an older version: import its report again to compare it" } else { "" }
                                                on:change=move |ev| toggle(hash.clone(), event_target_checked(&ev))/></td>
                                            <td>{move || {
                                                let (id, ask) = (id.clone(), id.clone());
                                                if confirming.get().as_deref() == Some(id.as_str()) {
                                                    view! { <span class="confirm" role="alert">"Delete this run? "
                                                        <button type="button" class="delete-confirm"
                                                            on:click=move |_| delete(id.clone())>"Delete"</button>
                                                        <button type="button" class="delete-cancel"
                                                            on:click=move |_| confirming.set(None)>"Keep"</button></span> }.into_any()
                                                } else {
                                                    view! { <button type="button" class="delete-run"
                                                        on:click=move |_| confirming.set(Some(ask.clone()))>"Delete"</button> }.into_any()
                                                }
                                            }}</td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any()},
                })}
            </Suspense>
        </section>
    }
}
