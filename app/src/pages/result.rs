//! `/runs/:run/:instance[?n=N]`: one result of a run: the patch outcome per file, the verdict of
//! every test method with its message and the failing line of the test source, and the diff.
//! A run may hold several results for one task (several models or instruction sets): `n` picks
//! the N-th (1-based, report order) and the page links the others.

use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::{use_params_map, use_query_map};
use scorer::bundle::TaskData;
use scorer::patch::FileResult;
use scorer::report::TaskResult;

use crate::net::href;
use crate::pages::run::{patch_status_str, run_resource};
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

/// Line `n` (1-based) of `source`.
fn source_line(source: &str, n: u32) -> Option<String> {
    source.lines().nth(usize::try_from(n).ok()?.checked_sub(1)?).map(str::to_string)
}

#[component]
fn Verdicts(result: TaskResult, task: Option<Rc<TaskData>>) -> impl IntoView {
    let source = task.map(|t| t.test.source.clone());
    view! {
        <table id="verdicts" class="table verdicts">
            <thead><tr><th>"Test"</th><th>"Status"</th><th>"Exception"</th><th>"Message"</th><th>"Line"</th></tr></thead>
            <tbody>
                {result.tests.into_iter().map(|t| {
                    let failing = t.line.zip(source.as_deref()).and_then(|(n, s)| source_line(s, n));
                    view! {
                        <tr class=format!("status-{}", t.status.as_str()) data-test=t.id.clone() data-status=t.status.as_str()>
                            <td><code>{t.id.clone()}</code></td>
                            <td class="status">{t.status.as_str()}</td>
                            <td>{t.exc_type.clone().unwrap_or_default()}</td>
                            <td class="message">{t.message.clone().unwrap_or_default()}
                                {failing.map(|l| view! { <pre class="failing-line">{l}</pre> })}</td>
                            <td class="num">{t.line.map(|l| l.to_string()).unwrap_or_default()}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

#[component]
fn Files(result: TaskResult) -> impl IntoView {
    (!result.files.is_empty()).then(|| view! {
        <table id="patch-files" class="table compact">
            <thead><tr><th>"File"</th><th>"Change"</th><th>"Outcome"</th></tr></thead>
            <tbody>
                {result.files.into_iter().map(|f| {
                    let kind = serde_json::to_value(f.kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                    let outcome = match &f.result {
                        FileResult::Applied => "applies".to_string(),
                        FileResult::Rejected { hunk, reason, .. } => format!("hunk {hunk} rejected: {reason}"),
                        FileResult::Invalid { reason } => reason.clone(),
                    };
                    view! { <tr><td><code>{f.path.clone()}</code></td><td>{kind}</td><td>{outcome}</td></tr> }
                }).collect_view()}
            </tbody>
        </table>
    })
}

#[component]
pub fn ResultPage() -> impl IntoView {
    let (run_id, run) = run_resource();
    let params = use_params_map();
    let query = use_query_map();
    let instance = Memo::new(move |_| params.read().get("instance").unwrap_or_default());
    let nth = Memo::new(move |_| query.read().get("n").and_then(|n| n.parse::<usize>().ok()).unwrap_or(1).max(1));
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
            let run_id = run_id.get();
            view! {
                <nav class="alternatives" id="result-alternatives" aria-label="Other results for this task">
                    {all.iter().enumerate().map(|(k, &i)| {
                        let link = href(&format!("/runs/{run_id}/{id}?n={}", k + 1));
                        let label = result_label(&run.report.results[i]);
                        view! { <a href=link aria-current=(i == index).then_some("true")>{format!("{}. {label}", k + 1)}</a> }
                    }).collect_view()}
                </nav>
            }
        });
        let patch = run.patch(index).map(str::to_string);
        let verdict = if r.resolved { "Resolved" } else { "Not resolved" };
        let task_view = {
            let r = r.clone();
            move || task.get().map(|t| view! { <Verdicts result=r.clone() task=t/> })
        };
        view! {
            <h1><code id="result-instance">{id.clone()}</code>" "
                <span id="result-verdict" class=if r.resolved { "badge pass" } else { "badge fail" }>{verdict}</span></h1>
            <p class="muted" id="result-label">{result_label(&r)}</p>
            {others}
            <p>
                <a href=href(&format!("/runs/{}", run.meta.id))>{format!("Run: {}", run.meta.name)}</a>
                " · " <a href=href(&format!("/tasks/{id}"))>"Task"</a>
            </p>
            <dl class="facts">
                <dt>"Patch"</dt><dd id="result-patch-status">{patch_status_str(r.patch_status)}</dd>
                <dt>"Subtests passed"</dt><dd id="result-subtests">{format!("{} of {}", r.subtests_passed, r.subtests_total)}</dd>
                {r.patch_error.clone().map(|e| view! { <dt>"Why the patch failed"</dt><dd id="result-patch-error" class="error">{e}</dd> })}
            </dl>
            <Files result=r.clone()/>
            <h2>"Test methods"</h2>
            <Suspense fallback=|| view! { <p class="muted">"Loading the test source…"</p> }>
                {task_view.clone()}
            </Suspense>
            <h2>"Patch"</h2>
            {match patch {
                Some(p) if p.trim().is_empty() => view! { <p class="muted">"Empty patch (no change)."</p> }.into_any(),
                Some(p) => view! { <pre id="result-diff" class="diff">{p}</pre> }.into_any(),
                None => view! { <p class="muted">"The patch is not part of an imported report."</p> }.into_any(),
            }}
        }.into_any()
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
