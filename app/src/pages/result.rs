//! `/runs/:run/:instance[?n=N]`: one result of a run: the patch outcome per file, the verdict of
//! every test method with its message and the failing line of the test source, and the diff.
//! A run may hold several results for one task (several models or instruction sets): `n` picks
//! the N-th (1-based, report order) and the page links the others.

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use scorer::report::TaskResult;

use crate::components::result_view::ResultView;
use crate::pages::run::run_resource;
use crate::routes::{Href, Query, Route};
use crate::runs::StoredRun;

fn result_label(r: &TaskResult) -> String {
    let mut parts = Vec::new();
    if let Some(m) = &r.model_name_or_path {
        parts.push(m.clone());
    }
    if let Some(s) = r.instruction_set {
        parts.push(s.as_str().to_string());
    }
    if let Some(src) = &r.source {
        parts.push(src.to_string());
    }
    if parts.is_empty() {
        "result".to_string()
    } else {
        parts.join(" · ")
    }
}

#[component]
pub fn ResultPage() -> impl IntoView {
    let (_, run) = run_resource();
    let params = use_params_map();
    let query = use_query_map();
    let instance = Memo::new(move |_| params.read().get("instance").unwrap_or_default());
    let nth = Memo::new(move |_| {
        query.read().get("n").and_then(|n| n.parse::<usize>().ok()).unwrap_or(1).max(1)
    });
    let task = LocalResource::new(move || {
        let instance = instance.get();
        let bundle = run.get().and_then(Result::ok).flatten().map(|r| r.meta.bundle.clone());
        async move {
            match bundle {
                Some(b) => crate::bundles::load_task(&b, &instance).await.ok(),
                None => None,
            }
        }
    });
    let body = move |run: Arc<StoredRun>| {
        let id = instance.get();
        let all = run.results_for(&id);
        let Some(&index) = all.get(nth.get() - 1) else {
            return view! { <p id="result-missing" class="error">{format!("This run has no result {} for {id}.", nth.get())}</p> }.into_any();
        };
        let r = run.report.results[index].clone();
        let others = (all.len() > 1).then(|| {
            view! {
                <nav class="alternatives" id="result-alternatives" aria-label="Other results for this task">
                    {all.iter().enumerate().map(|(k, &i)| {
                        let link = run.meta.result_route(&id, Some(k + 1)).href();
                        let label = result_label(&run.report.results[i]);
                        view! { <a href=link aria-current=(i == index).then_some("true")>{format!("{}. {label}", k + 1)}</a> }
                    }).collect_view()}
                </nav>
            }
        });
        crate::components::header::set_title(&format!("{id} · {}", run.meta.name));
        // Next / previous in the run's report order.
        let results = &run.report.results;
        let link_of = |j: usize| {
            let inst = results[j].instance_id.clone();
            let nth = results[..=j].iter().filter(|r| r.instance_id == inst).count();
            let href = run.meta.result_route(&inst, (nth > 1).then_some(nth)).href();
            (inst, href)
        };
        let prev = index.checked_sub(1).map(link_of);
        let next = (index + 1 < results.len()).then(|| link_of(index + 1));
        let step_nav = view! {
            <nav class="result-nav" aria-label="Results of this run">
                {prev.map(|(inst, h)| view! { <a id="result-prev" rel="prev" href=h>{format!("← {inst}")}</a> })}
                <span class="muted">{format!("result {} of {}", index + 1, results.len())}</span>
                {next.map(|(inst, h)| view! { <a id="result-next" rel="next" href=h>{format!("{inst} →")}</a> })}
            </nav>
        };
        let patch = run.patch(index).map(str::to_string);
        let imported = patch.is_none();
        // A report without patches says nothing about the patch text: not "the patch is empty".
        let patch_missing = imported && r.patch_status != scorer::patch::PatchStatus::None;
        let task_view = {
            let r = r.clone();
            move || {
                task.get().map(|t| {
                    let (source, inspected) = t
                        .map(|t| {
                            let paths = t.inspected.iter().map(|p| p.path.to_string()).collect();
                            (t.test.source.clone(), paths)
                        })
                        .unwrap_or_default();
                    view! {
                        <ResultView result=r.clone() test_source=source
                            patch=patch.clone().unwrap_or_default() inspected=inspected
                            patch_missing=patch_missing/>
                    }
                })
            }
        };
        view! {
            <h1><code id="result-instance">{id.clone()}</code></h1>
            <p class="muted" id="result-label">{result_label(&r)}</p>
            {step_nav}
            {others}
            <p>
                <a href=run.meta.route().href()>{format!("Run: {}", run.meta.name)}</a>
                // The run's own bundle, whichever one is selected now.
                " · " <a id="result-task" href=Route::Task { id: id.clone(), query: Query::new().with("bundle", run.meta.bundle.clone()) }.href()>"Task"</a>
                {run.trajectories.contains_key(&id).then(|| view! {
                    " · " <a id="result-trajectory" href=Route::RunTrajectory { run: run.meta.id.clone(), instance: id.clone() }.href()>"Trajectory"</a>
                })}
                {imported.then_some(" · the patch is not part of an imported report")}
            </p>
            <Suspense fallback=|| view! { <p class="muted">"Loading the task…"</p> }>
                {task_view.clone()}
            </Suspense>
        }
        .into_any()
    };
    view! {
        <section class="result-page">
            <Suspense fallback=|| view! { <p class="muted">"Loading the result…"</p> }>
                {move || run.get().map(|res| match res {
                    Err(e) => view! { <p class="error">{e}</p> }.into_any(),
                    Ok(None) => view! { <p id="run-missing" class="error">"No such run in this browser."</p> }.into_any(),
                    Ok(Some(r)) => body(r),
                })}
            </Suspense>
        </section>
    }
}
