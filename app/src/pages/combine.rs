//! `/combine?repo=R&tasks=A,B`: a combined pseudo-task (paper §4.2) of tasks of one repository.
//! The worker joins them with `scorer::combine` and scores one patch against the whole: a verdict
//! per constituent task and for the whole ("resolved 1 of 2 constituent tasks").

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use scorer::combine::CombinedResult;

use crate::bridge::use_worker;
use crate::bundles::use_bundle;
use crate::routes::{Href, Query, Route};

/// Scores `patch` against the combined task of `ids` (selected bundle) in the worker.
async fn score(
    worker: crate::bridge::ScoringWorker,
    bundle: &str,
    ids: &[String],
    patch: &[u8],
) -> Result<CombinedResult, String> {
    let mut inputs = Vec::new();
    for id in ids {
        inputs.push(crate::bundles::load_task_inputs(bundle, id).await?);
    }
    worker.combine(&inputs, patch).await.map_err(|e| e.to_string())
}

fn result_view(r: CombinedResult) -> impl IntoView {
    let patch = match &r.patch_error {
        Some(e) => format!("patch {}: {e}", r.patch_status.as_str()),
        None => format!("patch {}", r.patch_status.as_str()),
    };
    view! {
        <div id="combined-result" data-resolved=r.resolved.to_string()>
            <p id="combined-verdict" class="tile-value">{r.verdict()}</p>
            <p class="muted">{format!("{} · {}", r.id, patch)}
                {format!(" · the combined task is {}", if r.resolved { "resolved" } else { "not resolved" })}</p>
            <table class="table" id="combined-parts">
                <thead><tr><th>"Constituent task"</th><th>"Verdict"</th><th class="num">"Subtests"</th></tr></thead>
                <tbody>
                    {r.parts.into_iter().map(|p| {
                        let verdict = if p.resolved { "resolved" } else { "not resolved" };
                        view! {
                            <tr data-part=p.instance_id.clone() class=format!("verdict-{}", verdict.replace(' ', "-"))>
                                <td><a href=Route::Task { id: p.instance_id.clone(), query: Query::new() }.href()>{p.instance_id.clone()}</a></td>
                                <td class="verdict">{verdict}</td>
                                <td class="num">{format!("{}/{}", p.subtests_passed, p.subtests_total)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
pub fn CombinePage() -> impl IntoView {
    let bundle = use_bundle();
    let index = crate::bundles::index_resource();
    let query = use_query_map();
    let initial = query.get_untracked();
    let repo = RwSignal::new(initial.get("repo").unwrap_or_default());
    let picked = RwSignal::new(
        initial
            .get("tasks")
            .map(|t| t.split(',').filter(|s| !s.is_empty()).map(String::from).collect::<Vec<_>>())
            .unwrap_or_default(),
    );
    let patch = RwSignal::new(String::new());
    let file = RwSignal::new(None::<(String, Vec<u8>)>);
    let outcome = RwSignal::new(None::<Result<CombinedResult, String>>);
    let busy = RwSignal::new(false);
    let on_pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let list = input.files();
        leptos::task::spawn_local(async move {
            let (uploads, _) = crate::upload::from_file_list(list).await;
            file.set(uploads.into_iter().next().map(|u| (u.name, u.bytes.to_vec())));
        });
    };
    let worker = use_worker();
    let run = move |_| {
        let Some(worker) = worker.map(|w| w.get_value()) else { return };
        let ids = picked.get_untracked();
        // A chosen file's bytes as they are (`git apply` reads bytes), else the pasted text.
        let bytes =
            file.get_untracked().map_or_else(|| patch.get_untracked().into_bytes(), |(_, b)| b);
        let bundle = bundle.selected.get_untracked();
        busy.set(true);
        outcome.set(None);
        leptos::task::spawn_local(async move {
            outcome.set(Some(score(worker, &bundle, &ids, &bytes).await));
            busy.set(false);
        });
    };
    let picker = move || {
        index.get().map(|res| match res {
            Err(e) => view! { <p class="error">{e}</p> }.into_any(),
            Ok(index) => {
                let mut repos: Vec<String> = index.tasks.iter().map(|t| t.repo.clone()).collect();
                repos.sort();
                repos.dedup();
                let options = repos
                    .into_iter()
                    .map(|r| {
                        let selected = repo.get_untracked() == r;
                        view! { <option value=r.clone() selected=selected>{r.clone()}</option> }
                    })
                    .collect_view();
                // (id, repository, methods): plain data, so the reactive list below may hold it.
                let all: Vec<(String, String, u32)> =
                    index.tasks.iter().map(|t| (t.id.clone(), t.repo.clone(), t.methods)).collect();
                let tasks = {
                    move || {
                        let r = repo.get();
                        all
                            .iter()
                            .filter(|(_, repo, _)| *repo == r)
                            .map(|(id, _, methods)| {
                                let label = id.clone();
                                let id = id.clone();
                                let checked = picked.get_untracked().contains(&id);
                                view! {
                                    <li><label><input type="checkbox" class="combine-pick" value=id.clone()
                                        checked=checked
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            picked.update(|p| {
                                                p.retain(|x| *x != id);
                                                if on { p.push(id.clone()); }
                                            });
                                        }/>
                                        " " {label} <span class="muted">{format!(" ({methods} test methods)")}</span>
                                    </label></li>
                                }
                            })
                            .collect_view()
                    }
                };
                view! {
                    <label>"Repository "
                        <select id="combine-repo" on:change=move |ev| {
                            repo.set(event_target_value(&ev));
                            picked.set(Vec::new());
                        }>
                            <option value="" selected=repo.get_untracked().is_empty()>"choose…"</option>
                            {options}
                        </select>
                    </label>
                    <ul id="combine-tasks" class="plain">{tasks}</ul>
                }
                .into_any()
            }
        })
    };
    view! {
        <section class="combine-page">
            <h1>"Combined task"</h1>
            <p class="muted">"Pick two or more tasks of one repository: they are joined into one longer task "
                "(instructions concatenated, every task's own test file; paper §4.2) and one patch is scored "
                "against the whole, with a verdict per constituent task."</p>
            <Suspense fallback=|| view! { <p class="muted">"Loading tasks…"</p> }>{picker}</Suspense>
            <p class="muted" id="combine-order">{move || {
                let p = picked.get();
                if p.is_empty() { String::new() } else { format!("In this order: {}", p.join(" + ")) }
            }}</p>
            <label for="combine-patch">"The patch (a unified diff; empty = no change)"</label>
            <textarea id="combine-patch" rows="10" spellcheck="false" bind:value=patch
                placeholder="diff --git a/… b/…"></textarea>
            <label class="button">"Choose a patch file"
                <input id="combine-file" type="file" class="visually-hidden" accept=".patch,.diff,.txt"
                    on:change=on_pick/>
            </label>
            {move || file.get().map(|(n, _)| view! { <span class="muted">{format!(" {n}")}</span> })}
            <p>
                <button id="combine-score" type="button" class="primary" on:click=run
                    disabled=move || busy.get() || picked.get().len() < 2>
                    {move || if busy.get() { "Scoring…" } else { "Score the combined task" }}
                </button>
            </p>
            {move || outcome.get().map(|o| match o {
                Ok(r) => result_view(r).into_any(),
                Err(e) => view! { <p id="combine-error" class="error">{e}</p> }.into_any(),
            })}
        </section>
    }
}
