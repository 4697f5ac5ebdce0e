//! `/runs/:run`: one run's summary (resolved %, subtests passed %, breakdowns by repository,
//! instruction set, number of inspected files and model), its result table with filters, its
//! entry errors, and the exports (the CLI's JSON report, CSV).

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use leptos_router::NavigateOptions;
use scorer::patch::PatchStatus;
use scorer::report::TaskResult;
use scorer::stats::{run_stats, Group, Tally};

use crate::pages::trajectory::RunFailureModes;
use crate::routes::{Href, Query, Route};
use crate::runs::{use_session, ResultFilter, StoredRun};

/// A percentage for display; "–" when there is nothing to divide by.
pub fn pct(p: Option<f64>) -> String {
    p.map_or_else(|| "–".to_string(), |p| format!("{p:.1}%"))
}

/// A stored run, loaded from IndexedDB (`None`: no such run in this browser).
pub type RunResource = LocalResource<Result<Option<Arc<StoredRun>>, String>>;

/// The run the route names (shared by the run and result pages): a stored run (`/runs/:run`), or
/// the report behind a leaderboard entry (`/leaderboard/:entry`, loaded into memory only).
pub fn run_resource() -> (Memo<String>, RunResource) {
    let params = use_params_map();
    let published = Memo::new(move |_| params.read().get("entry").is_some());
    let id = Memo::new(move |_| {
        let p = params.read();
        p.get("entry").or_else(|| p.get("run")).unwrap_or_default()
    });
    let session = use_session();
    let run = LocalResource::new(move || {
        let (id, published) = (id.get(), published.get());
        session.runs_version.track();
        async move {
            if published {
                crate::pages::leaderboard::load_published_run(id).await
            } else {
                crate::store::load_run(&id).await
            }
        }
    });
    (id, run)
}

#[component]
fn Breakdown(title: &'static str, id: &'static str, groups: Vec<Group>) -> impl IntoView {
    if groups.is_empty() {
        return None;
    }
    Some(view! {
        <div class="breakdown" id=id>
            <h2>{title}</h2>
            <table class="table compact">
                <thead><tr><th></th><th class="num">"Results"</th><th class="num">"Resolved"</th>
                    <th>"Resolved %"</th><th class="num">"Subtests passed"</th></tr></thead>
                <tbody>
                    {groups.into_iter().map(|g| {
                        let width = g.tally.resolved_pct.unwrap_or(0.0).clamp(0.0, 100.0);
                        view! {
                            <tr data-key=g.key.clone()>
                                <td>{g.key.clone()}</td>
                                <td class="num">{g.tally.results}</td>
                                <td class="num">{g.tally.resolved}</td>
                                <td class="bar-cell">
                                    <svg class="bar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">
                                        <rect class="bar-bg" x="0" y="0" width="100" height="8"></rect>
                                        <rect class="bar-fg" x="0" y="0" width=width height="8"></rect>
                                    </svg>
                                    <span>{pct(g.tally.resolved_pct)}</span>
                                </td>
                                <td class="num">{pct(g.tally.subtests_pct)}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    })
}

/// "resolved 4 of 9 tasks of the bundle (44.4%) · 4 of 8 submitted (50.0%)", one line per model
/// and instruction set: leaderboards count over the whole benchmark, a run over what it submitted.
#[component]
fn BundleRates(run: Arc<StoredRun>) -> impl IntoView {
    let bundle = run.meta.bundle.clone();
    let tasks = LocalResource::new(move || {
        let bundle = bundle.clone();
        async move { crate::bundles::load_index(&bundle).await.map(|i| i.tasks.len()).ok() }
    });
    let rates = scorer::stats::bundle_rates(&run.report);
    move || {
        let n = tasks.get().flatten()?;
        let lines = rates
            .iter()
            .map(|g| {
                let whose: Vec<&str> = g
                    .model
                    .as_deref()
                    .into_iter()
                    .chain(g.instruction_set.map(|s| s.as_str()))
                    .collect();
                let whose = if whose.is_empty() { String::new() } else { format!(" ({})", whose.join(", ")) };
                view! {
                    <li>
                        <strong class="of-bundle">{format!("resolved {} of {n} tasks of the bundle ({}){whose}",
                            g.resolved, pct(g.of_bundle_pct(n)))}</strong>
                        {format!(" · {} of {} submitted ({:.1}%)", g.resolved, g.submitted, g.of_submitted_pct())}
                    </li>
                }
            })
            .collect_view();
        Some(view! { <ul id="bundle-rates" class="bundle-rates">{lines}</ul> })
    }
}

/// How many rows a long table shows at first and adds per "Show more".
const PAGE_ROWS: usize = 200;

/// How many result rows one UI task builds after a run page first shows (a 100-row table built in
/// one task was a 54 ms long task on the 2-core machine, so a quarter of it stays well under 50 ms).
const ROWS_PER_TASK: usize = 25;

/// Raises `built` by [`ROWS_PER_TASK`] once per task (a zero timeout each) until it covers
/// `total` rows, so the browser paints and handles input between chunks.
fn build_rows_in_tasks(built: RwSignal<usize>, total: usize) {
    set_timeout(
        move || {
            // None once the page is gone (its signals disposed): the chain stops.
            let Some(next) = built.try_get_untracked().map(|n| n + ROWS_PER_TASK) else {
                return;
            };
            built.set(next);
            if next < total {
                build_rows_in_tasks(built, total);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// The "Show more" line under a table that holds `total` rows, `shown` of them shown.
fn more_rows(id: &'static str, shown: RwSignal<usize>, total: usize) -> impl IntoView {
    move || {
        let n = shown.get();
        (n < total).then(|| {
            view! {
                <p class="more-rows">
                    {format!("Showing {n} of {total}. ")}
                    <button type="button" id=id on:click=move |_| shown.update(|s| *s += PAGE_ROWS)>
                        {format!("Show {} more", PAGE_ROWS.min(total - n))}</button>
                </p>
            }
        })
    }
}

#[component]
fn Tiles(overall: Tally, entry_errors: u32) -> impl IntoView {
    view! {
        <div class="tiles" id="run-summary">
            <div class="tile"><span class="tile-value" id="resolved-pct">{pct(overall.resolved_pct)}</span>
                <span class="tile-label">{format!("resolved ({} of {})", overall.resolved, overall.results)}</span></div>
            <div class="tile"><span class="tile-value" id="subtests-pct">{pct(overall.subtests_pct)}</span>
                <span class="tile-label">{format!("subtests passed ({} of {})", overall.subtests_passed, overall.subtests_total)}</span></div>
            <div class="tile"><span class="tile-value">{overall.patch_failed}</span>
                <span class="tile-label">"patches failed (git refused them)"</span></div>
            <div class="tile"><span class="tile-value">{overall.empty_patch}</span>
                <span class="tile-label">"empty patches"</span></div>
            <div class="tile"><span class="tile-value" id="entry-errors">{entry_errors}</span>
                <span class="tile-label">"entries not scored"</span></div>
        </div>
    }
}

/// The results table's columns: URL name (`?sort=`) and header.
const RESULT_COLS: [(&str, &str); 7] = [
    ("task", "Task"),
    ("model", "Model"),
    ("set", "Instructions"),
    ("patch", "Patch"),
    ("verdict", "Verdict"),
    ("subtests", "Subtests"),
    ("source", "Source"),
];

fn verdict_of(r: &TaskResult) -> &'static str {
    if r.resolved {
        "resolved"
    } else if r.patch_status == PatchStatus::Failed {
        "patch failed"
    } else {
        "unresolved"
    }
}

fn subtest_ratio(r: &TaskResult) -> f64 {
    if r.subtests_total == 0 {
        0.0
    } else {
        f64::from(r.subtests_passed) / f64::from(r.subtests_total)
    }
}

/// Orders two results by column `col` (ascending).
fn compare_results(a: &TaskResult, b: &TaskResult, col: &str) -> std::cmp::Ordering {
    match col {
        "model" => a.model_name_or_path.cmp(&b.model_name_or_path),
        "set" => a.instruction_set.map(|s| s.as_str()).cmp(&b.instruction_set.map(|s| s.as_str())),
        "patch" => a.patch_status.as_str().cmp(b.patch_status.as_str()),
        "verdict" => verdict_of(a).cmp(verdict_of(b)),
        "subtests" => subtest_ratio(a)
            .total_cmp(&subtest_ratio(b))
            .then(a.subtests_passed.cmp(&b.subtests_passed)),
        "source" => {
            a.source.as_ref().map(|s| s.to_string()).cmp(&b.source.as_ref().map(|s| s.to_string()))
        }
        _ => a.instance_id.cmp(&b.instance_id),
    }
}

/// The results table as the URL query says: verdict filter, sort column and direction, model,
/// instruction set and search text.
#[derive(Debug, Clone, PartialEq)]
struct ResultsView {
    filter: ResultFilter,
    sort: Option<(String, bool)>,
    model: String,
    set: String,
    q: String,
}

impl ResultsView {
    fn from_query(get: impl Fn(&str) -> Option<String>) -> ResultsView {
        let sort = get("sort")
            .filter(|c| RESULT_COLS.iter().any(|(n, _)| n == c))
            .map(|c| (c, get("dir").as_deref() == Some("desc")));
        ResultsView {
            filter: ResultFilter::from_name(&get("filter").unwrap_or_default()),
            sort,
            model: get("model").unwrap_or_default(),
            set: get("set").unwrap_or_default(),
            q: get("q").unwrap_or_default(),
        }
    }

    fn to_query(&self) -> Query {
        let mut q = Query::new();
        if self.filter != ResultFilter::All {
            q = q.with("filter", self.filter.as_str());
        }
        if let Some((col, desc)) = &self.sort {
            q = q.with("sort", col.as_str()).with("dir", if *desc { "desc" } else { "asc" });
        }
        q.with("model", self.model.as_str())
            .with("set", self.set.as_str())
            .with("q", self.q.as_str())
    }

    fn keeps(&self, r: &TaskResult) -> bool {
        let words = self.q.to_lowercase();
        self.filter.keeps(r)
            && (self.model.is_empty()
                || r.model_name_or_path.as_deref() == Some(self.model.as_str()))
            && (self.set.is_empty()
                || r.instruction_set.map(|s| s.as_str()) == Some(self.set.as_str()))
            && words.split_whitespace().all(|w| {
                r.instance_id.to_lowercase().contains(w)
                    || r.model_name_or_path.as_deref().is_some_and(|m| m.to_lowercase().contains(w))
                    || r.source.as_ref().is_some_and(|s| s.to_string().to_lowercase().contains(w))
            })
    }

    /// The report indices to show with each one's rank among its task's results (1-based).
    fn rows(&self, results: &[TaskResult]) -> Vec<(usize, usize)> {
        let mut seen: std::collections::HashMap<&str, usize> = Default::default();
        let mut rows: Vec<(usize, usize)> = results
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let n = seen.entry(r.instance_id.as_str()).or_insert(0);
                *n += 1;
                self.keeps(r).then_some((i, *n))
            })
            .collect();
        if let Some((col, desc)) = &self.sort {
            // A stable sort: ties keep the report's order.
            rows.sort_by(|a, b| {
                let o = compare_results(&results[a.0], &results[b.0], col);
                if *desc {
                    o.reverse()
                } else {
                    o
                }
            });
        }
        rows
    }
}

fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect()
}

#[component]
pub fn RunPage() -> impl IntoView {
    let (id, run) = run_resource();
    let published = use_params_map().read_untracked().get("entry").is_some();
    let query = use_query_map();
    let state = Memo::new(move |_| {
        let q = query.read();
        ResultsView::from_query(|k| q.get(k))
    });
    let filter = Memo::new(move |_| state.get().filter);
    let navigate_view = use_navigate();
    let session = use_session();
    let navigate = use_navigate();
    let delete = move |_: ()| {
        let id = id.get_untracked();
        let navigate = navigate.clone();
        leptos::task::spawn_local(async move {
            if crate::store::delete_run(&id).await.is_ok() {
                session.runs_version.update(|v| *v += 1);
                navigate(
                    &Route::Runs.href(),
                    NavigateOptions { resolve: false, ..Default::default() },
                );
            }
        });
    };
    let view_run = move |run: Arc<StoredRun>| {
        crate::components::header::set_title(&run.meta.name);
        let stats = run_stats(&run.report, &run.tasks);
        let r1 = run.clone();
        let r2 = run.clone();
        let r3 = run.clone();
        let export_run = move |_| {
            let name = format!("{}.run.json", file_stem(&r3.meta.name));
            let _ =
                crate::upload::download(&name, "application/json", &crate::runs::export_run(&r3));
        };
        let export_json = move |_| {
            let name = format!("{}.report.json", file_stem(&r1.meta.name));
            let _ = crate::upload::download(&name, "application/json", &r1.report.to_json());
        };
        let export_csv = move |_| {
            let name = format!("{}.report.csv", file_stem(&r2.meta.name));
            let _ = crate::upload::download(&name, "text/csv", &r2.report.to_csv(&r2.tasks));
        };
        let meta = run.meta.clone();
        let shown_results = RwSignal::new(PAGE_ROWS);
        // The result rows are built after the summary has been shown, ROWS_PER_TASK rows per task:
        // built with the summary, or all 100 of a run in one task, they kept the UI thread busy
        // past 50 ms. `built` counts the rows whose task has run; each chunk of the table is a
        // view of its own that renders once its memo turns true, so a later chunk does not
        // rebuild the earlier ones. The table body is `aria-busy` until every chunk is built.
        let order = {
            let run = run.clone();
            Memo::new(move |_| state.get().rows(&run.report.results))
        };
        let kept = {
            let run = run.clone();
            Memo::new(move |_| {
                let s = state.get();
                run.report.results.iter().filter(|r| s.keeps(r)).count()
            })
        };
        let built = RwSignal::new(0usize);
        let rows_total = run.report.results.len();
        build_rows_in_tasks(built, rows_total);
        let rows = (0..rows_total.div_ceil(ROWS_PER_TASK))
            .map(|chunk| {
                let from = chunk * ROWS_PER_TASK;
                let ready = Memo::new(move |_| built.get() > from);
                let run = run.clone();
                let meta = meta.clone();
                move || {
                    if !ready.get() {
                        return None;
                    }
                    let limit = shown_results.get();
                    let visible = order.with(|o| {
                        o.iter().copied().take(limit).skip(from).take(ROWS_PER_TASK).collect::<Vec<_>>()
                    });
                    Some(visible.into_iter().map(|(i, nth)| {
                        let r = &run.report.results[i];
                        let link = meta.result_route(&r.instance_id, (nth > 1).then_some(nth)).href();
                        let verdict = verdict_of(r);
                        view! {
                            <tr class=format!("verdict-{}", verdict.replace(' ', "-")) data-instance=r.instance_id.clone()>
                                <td><a href=link>{r.instance_id.clone()}</a></td>
                                <td>{r.model_name_or_path.clone().unwrap_or_default()}</td>
                                <td>{r.instruction_set.map(|s| s.as_str()).unwrap_or("")}</td>
                                <td>{r.patch_status.as_str()}</td>
                                <td class="verdict">{verdict}</td>
                                <td class="num">{format!("{}/{}", r.subtests_passed, r.subtests_total)}</td>
                                <td class="muted">{r.source.as_ref().map(|s| s.to_string()).unwrap_or_default()}</td>
                            </tr>
                        }
                    }).collect_view())
                }
            })
            .collect_view();
        let filters = ResultFilter::ALL
            .into_iter()
            .map(|f| {
                let link = {
                    let meta = meta.clone();
                    move || {
                        let s = ResultsView { filter: f, ..state.get() };
                        Route::Run { run: meta.run_ref(), query: s.to_query() }.href()
                    }
                };
                view! {
                    <a href=link class="filter" id=format!("filter-{}", f.as_str())
                        aria-current=move || (filter.get() == f).then_some("true")>{f.label()}</a>
                }
            })
            .collect_view();
        let head = {
            let meta = meta.clone();
            move || {
                let s = state.get();
                RESULT_COLS
                    .iter()
                    .map(|&(col, label)| {
                        let sorted = s.sort.as_ref().filter(|(c, _)| c == col).map(|(_, d)| *d);
                        let next_desc = sorted.map_or(col == "subtests", |d| !d);
                        let next =
                            ResultsView { sort: Some((col.to_string(), next_desc)), ..s.clone() };
                        let link =
                            Route::Run { run: meta.run_ref(), query: next.to_query() }.href();
                        let aria = sorted.map(|d| if d { "descending" } else { "ascending" });
                        let arrow = sorted.map(|d| if d { " ▾" } else { " ▴" });
                        view! {
                            <th class=if col == "subtests" { "num" } else { "" } aria-sort=aria>
                                <a class="sort" data-col=col href=link>{label}{arrow}</a></th>
                        }
                    })
                    .collect_view()
            }
        };
        let mut models: Vec<String> =
            run.report.results.iter().filter_map(|r| r.model_name_or_path.clone()).collect();
        models.sort_unstable();
        models.dedup();
        let mut sets: Vec<&'static str> = run
            .report
            .results
            .iter()
            .filter_map(|r| r.instruction_set.map(|s| s.as_str()))
            .collect();
        sets.sort_unstable();
        sets.dedup();
        let go = {
            let meta = meta.clone();
            let navigate = navigate_view.clone();
            move |s: ResultsView| {
                navigate(
                    &Route::Run { run: meta.run_ref(), query: s.to_query() }.href(),
                    NavigateOptions {
                        resolve: false,
                        replace: true,
                        scroll: false,
                        ..Default::default()
                    },
                );
            }
        };
        let options = |values: Vec<String>, current: fn(&ResultsView) -> String| {
            std::iter::once(String::new()).chain(values).map(|v| {
                let text = if v.is_empty() { "all".to_string() } else { v.clone() };
                let w = v.clone();
                view! { <option value=v selected=move || current(&state.get()) == w>{text}</option> }
            }).collect_view()
        };
        let model_options = options(models, |s| s.model.clone());
        let set_options =
            options(sets.into_iter().map(str::to_string).collect(), |s| s.set.clone());
        let (go_model, go_set, go_q) = (go.clone(), go.clone(), go);
        let controls = view! {
            <div class="results-controls" role="search">
                <label>"Model "
                    <select id="results-model" on:change=move |ev| go_model(ResultsView { model: event_target_value(&ev), ..state.get_untracked() })>
                        {model_options}</select></label>
                <label>"Instructions "
                    <select id="results-set" on:change=move |ev| go_set(ResultsView { set: event_target_value(&ev), ..state.get_untracked() })>
                        {set_options}</select></label>
                <label>"Search "
                    <input id="results-search" type="search" placeholder="task, model or source"
                        prop:value=move || state.get_untracked().q
                        on:input=move |ev| go_q(ResultsView { q: event_target_value(&ev), ..state.get_untracked() })/></label>
            </div>
        };
        let confirming = RwSignal::new(false);
        let errors = run.report.errors.clone();
        view! {
            <h1 id="run-name">{run.meta.name.clone()}</h1>
            <p class="muted">
                {format!("Bundle {} ({}…) · scorer {} {} · {}", run.meta.bundle,
                    run.report.bundle.hash.chars().take(12).collect::<String>(),
                    run.report.scorer.name, run.report.scorer.version,
                    if run.meta.published { "published with the leaderboard".to_string() }
                    else { crate::pages::runs::when(run.meta.created_ms) })}
                {(run.meta.imported && !run.meta.published).then_some(" · imported")}
            </p>
            <div class="run-actions">
                <button id="export-run" type="button" on:click=export_run
                    title="The report plus the run's name and submitted patches: import it on the Runs page">"Export run"</button>
                <button id="export-json" type="button" on:click=export_json>"Export JSON report"</button>
                <button id="export-csv" type="button" on:click=export_csv>"Export CSV"</button>
                {(!run.meta.published).then(|| {
                    let delete = delete.clone();
                    view! {
                        <button id="delete-run" type="button" on:click=move |_| confirming.set(true)>"Delete run"</button>
                        {move || confirming.get().then(|| {
                            let delete = delete.clone();
                            view! {
                                <span class="confirm" id="delete-confirm" role="alert">
                                    "Delete this run from this browser? "
                                    <button id="delete-yes" type="button" on:click=move |_| delete(())>"Delete"</button>
                                    <button id="delete-cancel" type="button" on:click=move |_| confirming.set(false)>"Keep"</button>
                                </span>
                            }
                        })}
                    }
                })}
                <crate::pages::compare::CompareWith hash=run.meta.hash.clone()/>
            </div>
            <Tiles overall=stats.overall.clone() entry_errors=stats.entry_errors/>
            <BundleRates run=run.clone()/>
            <div class="breakdowns">
                <Breakdown title="By repository" id="by-repo" groups=stats.by_repo.clone()/>
                <Breakdown title="By instruction set" id="by-instruction-set" groups=stats.by_instruction_set.clone()/>
                <Breakdown title="By number of files the tests inspect" id="by-inspected" groups=stats.by_inspected_files.clone()/>
                <Breakdown title="By model" id="by-model" groups=stats.by_model.clone()/>
            </div>
            {(!run.trajectories.is_empty()).then(|| view! {
                <RunFailureModes run=run.clone()/>
            })}
            <h2>"Results"</h2>
            <nav class="filters" aria-label="Filter results">{filters}</nav>
            {controls}
            <table id="run-results" class="table results">
                <thead><tr>{head}</tr></thead>
                <tbody aria-busy=move || (built.get() < rows_total).to_string()>{rows}</tbody>
            </table>
            {move || more_rows("more-results", shown_results, kept.get())}
            {(!errors.is_empty()).then(|| {
                let shown = RwSignal::new(PAGE_ROWS);
                let total = errors.len();
                view! {
                <h2>"Entries not scored"</h2>
                <table id="run-errors" class="table">
                    <thead><tr><th>"Source"</th><th>"Task"</th><th>"Model"</th><th>"Message"</th></tr></thead>
                    <tbody>
                        {move || errors.iter().take(shown.get()).map(|e| view! {
                            <tr><td>{e.source.to_string()}</td><td>{e.instance_id.clone().unwrap_or_default()}</td>
                                <td>{e.model_name_or_path.clone().unwrap_or_default()}</td><td>{e.message.clone()}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
                {more_rows("more-errors", shown, total)}
            }})}
        }
    };
    view! {
        <section class="run-page">
            {if published { view! { <p><a href=Route::Leaderboard(Query::new()).href()>"Leaderboard"</a></p> }.into_any() }
             else { view! { <p><a href=Route::Runs.href()>"All runs"</a></p> }.into_any() }}
            <Suspense fallback=|| view! { <p class="muted">"Loading the run…"</p> }>
                {move || run.get().map(|res| match res {
                    Err(e) => view! { <p class="error">{e}</p> }.into_any(),
                    Ok(None) => view! { <p id="run-missing" class="error">"No such run in this browser."</p> }.into_any(),
                    Ok(Some(r)) => view_run(r).into_any(),
                })}
            </Suspense>
        </section>
    }
}
