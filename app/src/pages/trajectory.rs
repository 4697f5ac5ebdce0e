//! The trajectory viewer: `/trajectory` (a dropped or picked agent log, kept in IndexedDB so a
//! deep link survives a reload) and `/runs/:run/:instance/trajectory` (the log a run's result was
//! scored from, with the final patch's per-subtest results). Also the run page's failure-mode
//! section ([`RunFailureModes`]).
//!
//! Logs are read, analysed and paged in the trajectory worker (`trajworker/`, started here on
//! demand): the UI only ever holds the summary and the page of steps it shows, so a 50 MB log with
//! tens of thousands of steps does not block the page. Everything from a log is hostile text and
//! rendered as text nodes.

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use leptos_router::NavigateOptions;
use scorer::report::{Status, TaskResult};
use scorer::submission::Submission;
use trajworker::{RateRow, RunModes, Sample, StepFilter, StepPage, StepRow, TaskFacts};

use crate::bridge::ScoringWorker;
use crate::components::charts::{clip_label, Bar, BarChart};
use crate::net::href;
use crate::runs::StoredRun;
use crate::trajbridge::{use_traj_worker, TrajWorker};

/// Steps per page of the list.
const PAGE: u32 = 50;
/// Lines of a long text shown before "show all".
const FOLD_LINES: usize = 12;

/// A log the worker holds.
#[derive(Clone, Debug)]
struct Opened {
    doc: u32,
    name: String,
    samples: Vec<Sample>,
}

/// What the task bundle and the run know of a log's task, for FM-1, FM-7, FM-8 and FM-10: the
/// test source and instructions from the bundle, and verdicts of the submitted patch (`fin`, or
/// scored here from `patch`) and of the empty patch, scored by the scoring worker.
async fn task_facts(
    worker: Option<ScoringWorker>,
    bundle: &str,
    instance: &str,
    fin: Option<TaskResult>,
    patch: Option<&str>,
) -> Option<TaskFacts> {
    let inputs = crate::bundles::load_task_inputs(bundle, instance).await.ok()?;
    let submission = |p: &str| Submission {
        instance_id: instance.to_string(),
        model_name_or_path: None,
        instruction_set: None,
        patch: p.as_bytes().to_vec(),
        source: scorer::report::SourceRef { file: "trajectory".into(), line: None },
    };
    let (mut fin, mut pristine) = (fin, None);
    if let Some(w) = &worker {
        pristine = w.score(0, &inputs, submission(""), false).await.ok();
        if fin.is_none() {
            if let Some(p) = patch {
                fin = w.score(0, &inputs, submission(p), false).await.ok();
            }
        }
    }
    let t = &inputs.task;
    Some(TaskFacts {
        instance_id: instance.to_string(),
        test_source: Some(t.test.source.clone()),
        final_result: fin,
        pristine_result: pristine,
        instructions: Some([
            t.instructions.lazy.clone(),
            t.instructions.base.clone(),
            t.instructions.descriptive.clone(),
        ]),
        repo: Some(t.repo.clone()),
    })
}

fn scroll_to_step(step: u32) {
    set_timeout(
        move || {
            if let Some(el) = document().get_element_by_id(&format!("step-{step}")) {
                el.scroll_into_view();
            }
        },
        std::time::Duration::from_millis(30),
    );
}

fn money(c: Option<f64>) -> String {
    c.map_or_else(|| "no data".to_string(), |c| format!("${c:.4}"))
}

fn count(n: Option<u64>) -> String {
    n.map_or_else(|| "no data".to_string(), |n| n.to_string())
}

fn range_text(r: Option<[u32; 2]>) -> String {
    match r {
        Some([a, b]) if b < a => format!("(empty at {a})"),
        Some([a, b]) => format!("{a}-{b}"),
        None => "?".into(),
    }
}

/// A long text folded to its first lines, with a button to show it all. Text nodes only.
#[component]
fn Fold(label: &'static str, text: String) -> impl IntoView {
    let lines = text.lines().count();
    let long = lines > FOLD_LINES || text.len() > 2_000;
    let open = RwSignal::new(false);
    let head: String = if long {
        let mut h: String = text
            .lines()
            .take(FOLD_LINES)
            .collect::<Vec<_>>()
            .join("\n")
            .chars()
            .take(2_000)
            .collect();
        h.push('…');
        h
    } else {
        String::new()
    };
    let text = StoredValue::new(text);
    view! {
        <div class=format!("step-text step-{label}")>
            <span class="step-text-label">{label}</span>
            <pre>{move || if long && !open.get() { head.clone() } else { text.get_value() }}</pre>
            {long.then(|| view! {
                <button type="button" class="linkish fold-toggle" on:click=move |_| open.update(|o| *o = !*o)>
                    {move || if open.get() { "Fold".to_string() } else { format!("Show all ({lines} lines)") }}
                </button>
            })}
        </div>
    }
}

#[component]
fn StepView(row: StepRow, current: bool, step_tokens: bool) -> impl IntoView {
    let i = row.index;
    let tokens = match row.tokens {
        Some([p, c, cached]) => {
            let mut t = format!("tokens: prompt {}, completion {}", count(p), count(c));
            if let Some(k) = cached {
                t.push_str(&format!(", cached {k}"));
            }
            t
        }
        None if step_tokens => "tokens: no data".to_string(),
        None => "tokens: no data (not logged)".to_string(),
    };
    let flagged = !row.flags.is_empty();
    let has_error = row.error.is_some() || row.edits.iter().any(|e| e.status != "applied");
    view! {
        <article class="step" id=format!("step-{i}") data-step=i class:flagged=flagged
            class:step-error=has_error aria-current=current.then_some("step")>
            <header class="step-head">
                <a class="step-link" href=format!("?step={i}")>{format!("#{i}")}</a>
                <span class="step-role">{row.role.clone()}</span>
                {row.tool.clone().map(|t| view! { <code class="step-tool">{t}</code> })}
                {row.flags.iter().map(|f| view! { <span class="flag-badge">{f.clone()}</span> }).collect_view()}
                <span class="muted step-tokens">{tokens}</span>
                {row.duration_s.map(|d| view! { <span class="muted">{format!("{d:.1} s")}</span> })}
            </header>
            {row.error.clone().map(|e| view! { <p class="error step-error-text">{e}</p> })}
            {(!row.edits.is_empty()).then(|| view! {
                <ul class="step-edits">
                    {row.edits.iter().map(|e| view! {
                        <li class=format!("edit edit-{}", e.status)>
                            <code>{e.path.clone()}</code>
                            {format!(" {} {} lines {} → {} [{}]", e.kind, e.status, range_text(e.before),
                                range_text(e.after), e.confidence)}
                            {e.reason.clone().map(|r| view! { <span class="edit-reason">{format!(" — {r}")}</span> })}
                        </li>
                    }).collect_view()}
                </ul>
            })}
            {row.thought.clone().filter(|t| !t.is_empty()).map(|t| view! { <Fold label="thought" text=t/> })}
            {row.action.clone().filter(|t| !t.is_empty()).map(|t| view! { <Fold label="action" text=t/> })}
            {row.observation.clone().map(|t| view! { <Fold label="observation" text=t/> })}
            {(row.cut > 0).then(|| view! { <p class="muted">{format!("{} bytes not shown (text longer than {} bytes)", row.cut, trajworker::TEXT_CAP)}</p> })}
            {(!row.sigma.is_empty()).then(|| view! {
                <div class="step-sigma">
                    <span class="step-text-label">"σ after this step"</span>
                    <ul>
                        {row.sigma.iter().map(|f| {
                            let mut t = String::new();
                            if f.whole { t.push_str(" whole file"); }
                            if !f.ranges.is_empty() {
                                let r: Vec<String> = f.ranges.iter().map(|[a, b]| format!("{a}-{b}")).collect();
                                t.push_str(&format!(" lines {}", r.join(", ")));
                            }
                            if f.created { t.push_str(" created"); }
                            if f.deleted { t.push_str(" deleted"); }
                            if f.failed > 0 { t.push_str(&format!(" · {} failed edit(s)", f.failed)); }
                            view! { <li><code>{f.path.clone()}</code>{t}</li> }
                        }).collect_view()}
                    </ul>
                </div>
            })}
        </article>
    }
}

/// σ as files × steps: one row per file, a mark per edit (failed edits in the error colour);
/// a click opens the step.
#[component]
fn Timeline(sample: Sample, current: Signal<Option<u32>>) -> impl IntoView {
    let navigate = use_navigate();
    let tl = sample.timeline;
    if tl.files.is_empty() {
        return view! { <p class="muted" id="sigma-timeline">"σ: no recognised edits."</p> }
            .into_any();
    }
    let steps = f64::from(sample.steps.max(1));
    let (label_w, width, row_h) = (220.0, 860.0, 16.0);
    let x = move |s: u32| label_w + (f64::from(s) + 0.5) / steps * (width - label_w - 8.0);
    let height = row_h * tl.files.len() as f64 + 18.0;
    let labels = tl
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            view! {
                <text class="tl-label" x=label_w - 6.0 y=row_h * i as f64 + 12.0 text-anchor="end">
                    {clip_label(f, 30)}
                </text>
            }
        })
        .collect_view();
    let marks = tl
        .marks
        .iter()
        .map(|m| {
            let class = match m.kind {
                0 => "tl-mark applied",
                1 => "tl-mark rejected",
                2 => "tl-mark lint",
                _ => "tl-mark unknown",
            };
            let step = m.step;
            let navigate = navigate.clone();
            view! {
                <rect class=class data-step=step x=x(step) - 2.0 y=row_h * f64::from(m.file) + 2.0
                    width="4" height=row_h - 4.0
                    on:click=move |_| {
                        // The page's own path (base included) with the step, as a link would give.
                        let path = window().location().pathname().unwrap_or_default();
                        navigate(&format!("{path}?step={step}"), NavigateOptions { resolve: false, ..NavigateOptions::default() });
                    }/>
            }
        })
        .collect_view();
    view! {
        <div class="timeline">
            <h3>"σ: files × steps"</h3>
            <p class="muted">"Each mark is an edit at its step: applied, "
                <span class="tl-key rejected">"rejected"</span>", "
                <span class="tl-key lint">"applied with lint errors"</span>
                {format!(". {} steps. Click a mark to open its step.", sample.steps)}
                {(tl.more > 0).then(|| format!(" ({} more edits not drawn)", tl.more))}</p>
            <svg id="sigma-timeline" class="chart timeline-chart" role="img"
                aria-label="Edit state: files by steps" viewBox=format!("0 0 {width} {height}")
                style=format!("max-width:{width}px")>
                {labels}
                <line class="tl-axis" x1=label_w y1=height - 14.0 x2=width - 8.0 y2=height - 14.0/>
                <text class="tl-label" x=label_w y=height - 2.0>"0"</text>
                <text class="tl-label" x=width - 8.0 y=height - 2.0 text-anchor="end">{sample.steps.saturating_sub(1).to_string()}</text>
                {move || current.get().map(|s| view! {
                    <line class="tl-current" x1=x(s) y1="0" x2=x(s) y2=height - 14.0/>
                })}
                {marks}
            </svg>
        </div>
    }
    .into_any()
}

#[component]
fn Flags(sample: Sample) -> impl IntoView {
    if sample.failure_modes.is_empty() {
        let note = if sample.with_facts {
            "No failure mode flagged."
        } else {
            "No failure mode flagged. Without the task's verdicts (a log of a task the selected bundle does not have) FM-1 untouched targets and FM-7 breadth cannot be computed."
        };
        return view! { <p id="failure-modes" class="muted">{note}</p> }.into_any();
    }
    view! {
        <ul id="failure-modes" class="flags">
            {sample.failure_modes.into_iter().map(|f| {
                let steps = f.steps.iter().take(40).map(|&s| view! {
                    <a class="evidence" href=format!("?step={s}")>{format!("#{s}")}</a>" "
                }).collect_view();
                let more = f.steps.len().saturating_sub(40);
                view! {
                    <li class="flag" data-flag=f.id.clone()>
                        <strong>{f.id.clone()}</strong>
                        {(!f.rule.is_empty()).then(|| view! { <span class="muted">{format!(" ({})", f.rule)}</span> })}
                        " — " {f.detail.clone()}
                        {(!f.steps.is_empty()).then(|| view! { <div>"steps: " {steps} {(more > 0).then(|| format!("and {more} more"))}</div> })}
                        {(!f.tests.is_empty()).then(|| view! { <div class="mono">{format!("tests: {}", f.tests.join(", "))}</div> })}
                        {f.interpretation.clone().map(|(id, text)| view! {
                            <details class="interpretation"><summary>{format!("reading used: {id}")}</summary><p>{text}</p></details>
                        })}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
    .into_any()
}

fn header(s: &Sample, name: &str) -> impl IntoView {
    let fmt = match &s.format_version {
        Some(v) => format!("{} ({v})", s.format),
        None => s.format.clone(),
    };
    let costs = s.costs.clone().unwrap_or_default();
    let check = s.final_check.clone().map(|(sigma_only, patch_only)| {
        if sigma_only.is_empty() && patch_only.is_empty() {
            "σ at the last step agrees with the submitted patch.".to_string()
        } else {
            format!(
                "σ at the last step and the submitted patch disagree: edited but not in the patch: [{}]; in the patch but never seen edited: [{}].",
                sigma_only.join(", "),
                patch_only.join(", ")
            )
        }
    });
    view! {
        <dl class="traj-facts" id="traj-facts">
            <dt>"File"</dt><dd>{name.to_string()}</dd>
            <dt>"Format"</dt><dd id="traj-format">{fmt}</dd>
            <dt>"Task"</dt><dd>{s.instance_id.clone().unwrap_or_else(|| "not named".into())}</dd>
            <dt>"Model"</dt><dd>{s.model.clone().unwrap_or_else(|| "not named".into())}</dd>
            <dt>"Exit"</dt><dd>{format!("{} ({})", s.exit_status.clone().unwrap_or_else(|| "not logged".into()), s.exit)}</dd>
            <dt>"Steps"</dt><dd id="traj-steps">{format!("{} steps, {} edits ({} rejected)", s.steps, s.edits, s.rejected_edits)}</dd>
            <dt>"Cost"</dt><dd id="traj-cost">{money(costs.cost_usd)}</dd>
            <dt>"Tokens"</dt><dd>{format!("sent {}, received {}; API calls {}", count(costs.tokens_sent), count(costs.tokens_received), count(costs.api_calls))}</dd>
        </dl>
        {s.exit_error.clone().map(|e| view! { <p class="error">{e}</p> })}
        {check.map(|c| view! { <p id="final-check">{c}</p> })}
    }
}

/// The viewer of one opened log: facts, flags, σ timeline, filters and the paged step list.
#[component]
fn Viewer(opened: Opened, result: Option<(TaskResult, String)>) -> impl IntoView {
    let traj = use_traj_worker();
    let query = use_query_map();
    let step = Memo::new(move |_| query.read().get("step").and_then(|s| s.parse::<u32>().ok()));
    let sample_ix = RwSignal::new(0usize);
    let samples = StoredValue::new(opened.samples.clone());
    let doc = opened.doc;
    let errors = RwSignal::new(false);
    let edits = RwSignal::new(false);
    let flagged = RwSignal::new(false);
    let search = RwSignal::new(String::new());
    let page = RwSignal::new(None::<Result<StepPage, String>>);
    let seq = StoredValue::new(0u64);
    let traj_v = StoredValue::new_local(traj);
    let load = move |offset: u32, around: Option<u32>| {
        let filter = StepFilter {
            errors: errors.get_untracked(),
            edits: edits.get_untracked(),
            flagged: flagged.get_untracked(),
            search: search.get_untracked(),
        };
        let n = seq.get_value() + 1;
        seq.set_value(n);
        let traj = traj_v.get_value();
        let sample = u32::try_from(sample_ix.get_untracked()).unwrap_or(0);
        leptos::task::spawn_local(async move {
            let got = traj.steps(doc, sample, filter, offset, PAGE, around).await;
            if seq.get_value() == n {
                page.set(Some(got));
                if let Some(s) = around {
                    scroll_to_step(s);
                }
            }
        });
    };
    // A filter, the sample or the deep-linked step changed: the page holding that step.
    Effect::new(move |_| {
        errors.track();
        edits.track();
        flagged.track();
        search.track();
        sample_ix.track();
        load(0, step.get());
    });
    let name = opened.name.clone();
    let body = move || {
        let s = samples.with_value(|v| v.get(sample_ix.get()).cloned()).unwrap_or_default();
        let step_tokens = s.step_tokens;
        view! {
            {header(&s, &name)}
            <h2>"Failure modes"</h2>
            <Flags sample=s.clone()/>
            <Timeline sample=s.clone() current=Signal::derive(move || step.get())/>
            {s.submission.clone().filter(|p| !p.trim().is_empty()).map(|p| view! {
                <details class="submission"><summary>"Submitted patch"</summary><pre>{p}</pre></details>
            })}
            <h2>"Steps"</h2>
            <div class="step-filters" role="group" aria-label="Filter steps">
                <label><input type="checkbox" id="filter-errors" prop:checked=move || errors.get()
                    on:change=move |ev| errors.set(event_target_checked(&ev))/>" errors only"</label>
                <label><input type="checkbox" id="filter-edits" prop:checked=move || edits.get()
                    on:change=move |ev| edits.set(event_target_checked(&ev))/>" edits only"</label>
                <label><input type="checkbox" id="filter-flagged" prop:checked=move || flagged.get()
                    on:change=move |ev| flagged.set(event_target_checked(&ev))/>" flagged only"</label>
                <input type="search" id="step-search" placeholder="Search steps (Enter)"
                    on:change=move |ev| search.set(event_target_value(&ev))/>
            </div>
            {move || match page.get() {
                None => view! { <p class="muted">"Loading steps…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="error" id="steps-error">{e}</p> }.into_any(),
                Some(Ok(p)) => {
                    let (offset, matching) = (p.offset, p.matching);
                    let shown = p.rows.len() as u32;
                    let at = step.get_untracked();
                    let nav = move || view! {
                        <nav class="pager">
                            <button type="button" class="page-prev" disabled={offset == 0}
                                on:click=move |_| load(offset.saturating_sub(PAGE), None)>"Previous"</button>
                            <span class="muted page-info">{if matching == 0 { "no step matches".to_string() } else {
                                format!("steps {}–{} of {matching} matching", offset + 1, offset + shown)}}</span>
                            <button type="button" class="page-next" disabled={offset + shown >= matching}
                                on:click=move |_| load(offset + PAGE, None)>"Next"</button>
                        </nav>
                    };
                    view! {
                        {nav()}
                        <div id="steps" class="steps">
                            {p.rows.into_iter().map(|r| {
                                let current = at == Some(r.index);
                                view! { <StepView row=r current=current step_tokens=step_tokens/> }
                            }).collect_view()}
                        </div>
                        {nav()}
                    }.into_any()
                }
            }}
        }
    };
    let n = opened.samples.len();
    view! {
        {(n > 1).then(|| view! {
            <label>"Sample "
                <select id="sample-select" on:change=move |ev| {
                    sample_ix.set(event_target_value(&ev).parse().unwrap_or(0));
                }>
                    {samples.with_value(|v| v.iter().enumerate().map(|(i, s)| view! {
                        <option value=i.to_string()>{format!("{}: {}", i + 1, s.instance_id.clone().unwrap_or_default())}</option>
                    }).collect_view())}
                </select>
            </label>
        })}
        {result.map(|(r, instance)| view! { <FinalResult result=r instance=instance samples=samples sample_ix=sample_ix/> })}
        {body}
    }
}

/// The final patch's per-subtest results, with FM-1's untouched target files linked to the task.
#[component]
fn FinalResult(
    result: TaskResult,
    instance: String,
    samples: StoredValue<Vec<Sample>>,
    sample_ix: RwSignal<usize>,
) -> impl IntoView {
    let untouched = move || -> Vec<String> {
        samples.with_value(|v| {
            v.get(sample_ix.get())
                .map(|s| {
                    s.failure_modes
                        .iter()
                        .filter(|f| f.id == "untouched_target")
                        .flat_map(|f| f.tests.clone())
                        .collect()
                })
                .unwrap_or_default()
        })
    };
    let rows = result
        .tests
        .iter()
        .map(|t| {
            let id = t.id.clone();
            let reads = t.reads.clone();
            let instance = instance.clone();
            let status = match t.status {
                Status::Pass => "pass",
                Status::Fail => "fail",
                Status::Error => "error",
                Status::Skip => "skip",
            };
            let (id_attr, id_text) = (id.clone(), id.clone());
            view! {
                <tr data-test=id_attr class=format!("status-{status}")>
                    <td class="mono">{id_text}</td>
                    <td>{status}</td>
                    <td>{move || {
                        let flagged = untouched().contains(&id);
                        let files = reads.iter().map(|p| {
                            let link = href(&format!("/tasks/{}?file={}", instance,
                                String::from(js_sys::encode_uri_component(p))));
                            view! { <a href=link class="mono">{p.clone()}</a>" " }
                        }).collect_view();
                        view! {
                            {flagged.then(|| view! { <span class="flag-badge untouched">"untouched target: "</span> })}
                            {files}
                        }
                    }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <h2>"Final patch"</h2>
        <p>{format!("{}: {} of {} subtests passed, patch {}.",
            if result.resolved { "resolved" } else { "unresolved" },
            result.subtests_passed, result.subtests_total, result.patch_status.as_str())}</p>
        <table id="final-tests" class="table compact">
            <thead><tr><th>"Test"</th><th>"Verdict"</th><th>"Files it reads (FM-1 targets)"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// Opens `bytes` in the worker (closing the page's previous document), then, for a log of a task
/// the bundle has, opens it again with the task's facts.
async fn open_log(
    traj: &TrajWorker,
    previous: Option<u32>,
    name: &str,
    bytes: &js_sys::Uint8Array,
    facts: Option<TaskFacts>,
) -> Result<Opened, String> {
    if let Some(d) = previous {
        traj.close(vec![d]);
    }
    let doc = u32::try_from(traj.next_id()).unwrap_or(u32::MAX);
    let samples = traj.open(doc, name, bytes, facts.into_iter().collect()).await?;
    Ok(Opened { doc, name: name.to_string(), samples })
}

/// `/trajectory`: drop or pick a log.
#[component]
pub fn TrajectoryPage() -> impl IntoView {
    let traj = StoredValue::new_local(use_traj_worker());
    let scoring_h = crate::bridge::use_worker();
    let bundle = crate::bundles::use_bundle();
    let opened = RwSignal::new(None::<Opened>);
    let status = RwSignal::new(None::<Result<String, String>>);
    let dragging = RwSignal::new(false);
    let show = move |name: String, bytes: js_sys::Uint8Array, store: bool| {
        status.set(Some(Ok(format!("Reading {name} ({} bytes)…", bytes.length()))));
        let traj = traj.get_value();
        let previous = opened.get_untracked().map(|o| o.doc);
        let bundle = bundle.selected.get_untracked();
        let scoring = scoring_h.map(|w| w.get_value());
        leptos::task::spawn_local(async move {
            if store {
                // Kept so that a reload (or a deep link to a step) finds the log again.
                let _ = crate::store::save_files(
                    crate::store::DROPPED,
                    &[(name.clone(), bytes.clone())],
                )
                .await;
            }
            match open_log(&traj, previous, &name, &bytes, None).await {
                Err(e) => status.set(Some(Err(e))),
                Ok(o) => {
                    let instance = match o.samples.as_slice() {
                        [s] => s.instance_id.clone(),
                        _ => None,
                    };
                    let patch = o.samples.first().and_then(|s| s.submission.clone());
                    status.set(None);
                    opened.set(Some(o.clone()));
                    // The task's verdicts, when the bundle has the task: FM-1 and FM-7 need them.
                    let known = match &instance {
                        Some(id) => crate::bundles::load_index(&bundle)
                            .await
                            .is_ok_and(|i| i.tasks.iter().any(|t| &t.id == id)),
                        None => false,
                    };
                    if let (true, Some(id)) = (known, instance) {
                        status.set(Some(Ok(
                            "Scoring the submission and the empty patch for the failure modes…"
                                .into(),
                        )));
                        if let Some(f) =
                            task_facts(scoring.clone(), &bundle, &id, None, patch.as_deref()).await
                        {
                            if let Ok(o2) =
                                open_log(&traj, Some(o.doc), &name, &bytes, Some(f)).await
                            {
                                opened.set(Some(o2));
                            }
                        }
                        status.set(None);
                    }
                }
            }
        });
    };
    // A reload finds the last dropped log again.
    Effect::new(move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(files) = crate::store::load_files(crate::store::DROPPED).await {
                if let Some((name, blob)) = files.into_iter().next() {
                    if opened.get_untracked().is_none() {
                        if let Ok(bytes) = crate::store::blob_bytes(&blob).await {
                            show(name, bytes, false);
                        }
                    }
                }
            }
        });
    });
    let take = move |(files, problems): (Vec<crate::upload::Upload>, Vec<String>)| match files
        .into_iter()
        .next()
    {
        Some(u) => show(u.name, u.bytes, true),
        None => status.set(Some(Err(problems.join("; ")))),
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let list = input.files();
        leptos::task::spawn_local(async move {
            take(crate::upload::from_file_list(list).await);
            input.set_value("");
        });
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        let dropped = crate::upload::take_drop(&ev);
        leptos::task::spawn_local(async move { take(crate::upload::read_drop(dropped).await) });
    };
    view! {
        <section class="trajectory-page">
            <h1>"Trajectory viewer"</h1>
            <div id="traj-drop" class="drop-zone" class:dragging=move || dragging.get()
                on:dragover=move |ev: web_sys::DragEvent| { ev.prevent_default(); dragging.set(true); }
                on:dragleave=move |_| dragging.set(false)
                on:drop=on_drop>
                <p>"Drop an agent log here (SWE-agent, mini-swe-agent, OpenHands, Inspect, ATIF, Claude Code, Codex), or "
                    <label class="button">"choose a file"
                        <input id="traj-file" type="file" class="visually-hidden" on:change=on_pick/>
                    </label>
                    ". It is read in a worker in this browser and kept here until you drop another."</p>
            </div>
            {move || status.get().map(|s| match s {
                Ok(m) => view! { <p class="muted" id="traj-status">{m}</p> }.into_any(),
                Err(e) => view! { <p class="error" id="traj-error">{e}</p> }.into_any(),
            })}
            {move || opened.get().map(|o| view! { <Viewer opened=o result=None/> })}
        </section>
    }
}

/// `/runs/:run/:instance/trajectory`: the log a run's result came from.
#[component]
pub fn RunTrajectoryPage() -> impl IntoView {
    let (run_id, run) = crate::pages::run::run_resource();
    let params = use_params_map();
    let instance = Memo::new(move |_| params.read().get("instance").unwrap_or_default());
    let traj = StoredValue::new_local(use_traj_worker());
    let scoring_h = crate::bridge::use_worker();
    let opened = LocalResource::new(move || {
        let scoring = scoring_h.map(|w| w.get_value());
        let run = run.get().and_then(Result::ok).flatten();
        let instance = instance.get();
        let id = run_id.get();
        let traj = traj.get_value();
        async move {
            let run: Arc<StoredRun> = run.ok_or("Loading the run…")?;
            let file = run
                .trajectories
                .get(&instance)
                .ok_or("This run was not scored from a trajectory of this task.")?
                .clone();
            let blob = crate::store::load_files(&id)
                .await?
                .into_iter()
                .find(|(n, _)| *n == file)
                .map(|(_, b)| b)
                .ok_or("The run's trajectory is not stored in this browser.")?;
            let bytes = crate::store::blob_bytes(&blob).await?;
            let result = run.results_for(&instance).first().map(|&i| run.report.results[i].clone());
            let facts =
                task_facts(scoring, &run.meta.bundle, &instance, result.clone(), None).await;
            let o = open_log(&traj, None, &file, &bytes, facts).await?;
            Ok::<_, String>((o, result))
        }
    });
    view! {
        <section class="trajectory-page">
            <p><a href=move || href(&format!("/runs/{}", run_id.get()))>"Run"</a>" · "
                <a href=move || href(&format!("/runs/{}/{}", run_id.get(), instance.get()))>"Result"</a></p>
            <h1>"Trajectory of " <code>{move || instance.get()}</code></h1>
            <Suspense fallback=|| view! { <p class="muted">"Reading the trajectory…"</p> }>
                {move || opened.get().map(|r| match r {
                    Err(e) => view! { <p class="error" id="traj-error">{e}</p> }.into_any(),
                    Ok((o, result)) => {
                        let result = result.map(|r| (r, instance.get_untracked()));
                        view! { <Viewer opened=o result=result/> }.into_any()
                    }
                })}
            </Suspense>
        </section>
    }
}

fn rate_text(r: &RateRow) -> String {
    if r.d == 0 {
        format!("{}/{}", r.n, r.d)
    } else {
        format!("{}/{} ({:.1}%)", r.n, r.d, r.n as f64 * 100.0 / r.d as f64)
    }
}

fn bars(rows: &[RateRow]) -> Vec<Bar> {
    rows.iter()
        .map(|r| {
            Bar::new(
                r.id.clone(),
                u32::try_from(r.n).unwrap_or(u32::MAX),
                u32::try_from(r.d).unwrap_or(u32::MAX),
            )
        })
        .collect()
}

/// The definition a rate id refers to: the definition of the same failure mode (`fm2.…`).
fn definition_of<'d>(rate: &str, defs: &'d [(String, String)]) -> Option<&'d str> {
    let fm = rate.split('.').next()?;
    defs.iter().find(|(id, _)| id.split('.').next() == Some(fm)).map(|(id, _)| id.as_str())
}

/// The run page's failure-mode section for a run scored from trajectories: every log is read and
/// analysed in the trajectory worker (with the run's verdicts and the empty patch's), then the
/// run's rates are computed there (`summarise_run`).
#[component]
pub fn RunFailureModes(run: Arc<StoredRun>) -> impl IntoView {
    let traj = StoredValue::new_local(use_traj_worker());
    let run_v = run.clone();
    let scoring_h = crate::bridge::use_worker();
    let modes = LocalResource::new(move || {
        let scoring = scoring_h.map(|w| w.get_value());
        let run = run_v.clone();
        let traj = traj.get_value();
        async move {
            let files = crate::store::load_files(&run.meta.id).await?;
            let mut docs = Vec::new();
            for (instance, file) in &run.trajectories {
                let Some((_, blob)) = files.iter().find(|(n, _)| n == file) else { continue };
                let bytes = crate::store::blob_bytes(blob).await?;
                let result =
                    run.results_for(instance).first().map(|&i| run.report.results[i].clone());
                let facts =
                    task_facts(scoring.clone(), &run.meta.bundle, instance, result, None).await;
                let doc = u32::try_from(traj.next_id()).unwrap_or(u32::MAX);
                if traj.open(doc, file, &bytes, facts.into_iter().collect()).await.is_ok() {
                    docs.push((doc, instance.clone()));
                }
            }
            let ids: Vec<u32> = docs.iter().map(|d| d.0).collect();
            let m = traj.summarise(ids.clone()).await;
            traj.close(ids);
            m.map(|m| (m, docs))
        }
    });
    let run_id = run.meta.id.clone();
    let body = move |(m, docs): (RunModes, Vec<(u32, String)>)| {
        let run_id = run_id.clone();
        let links = move |r: &RateRow| {
            r.behind
                .iter()
                .filter_map(|[d, _]| docs.iter().find(|(x, _)| x == d))
                .map(|(_, inst)| {
                    view! { <a class="behind" href=href(&format!("/runs/{run_id}/{inst}/trajectory"))>{inst.clone()}</a>" " }
                })
                .collect_view()
        };
        let defs = m.definitions.clone();
        let rate_rows = m
            .rates
            .iter()
            .filter(|r| r.d > 0)
            .map(|r| {
                let def = definition_of(&r.id, &defs).map(str::to_string);
                view! {
                    <tr data-rate=r.id.clone()>
                        <td class="mono">{r.id.clone()}</td>
                        <td class="num">{rate_text(r)}</td>
                        <td>{def.map(|d| view! { <a href=format!("#def-{d}")>{d.clone()}</a> })}</td>
                        <td>{links(r)}</td>
                    </tr>
                }
            })
            .collect_view();
        let hist = |title: &'static str, id: &'static str, rows: &[RateRow]| {
            (!rows.is_empty()).then(|| {
                let lists = rows
                    .iter()
                    .map(|r| view! { <li><span class="mono">{r.id.clone()}</span>": " {links(r)}</li> })
                    .collect_view();
                view! {
                    <h3>{title}</h3>
                    <BarChart bars=bars(rows) title=title id=id/>
                    <ul class="behind-list">{lists}</ul>
                }
            })
        };
        let breadth: Vec<RateRow> = m
            .by_breadth
            .iter()
            .map(|(b, r)| RateRow { id: format!("{b} files"), ..r.clone() })
            .collect();
        view! {
            <p class="muted">{format!("{} trajectories analysed. Each figure is n / d under the id of its definition.", m.trajectories)}</p>
            {hist("Failure modes (trajectories flagged)", "fm-distribution", &m.distribution)}
            {hist("FM-0: primary label of each unresolved task", "fm-primary", &m.primary)}
            {hist("FM-6: exit reasons", "fm-exit", &m.exit_reasons)}
            {hist("Solve rate by number of files the tests inspect (FM-7)", "fm-breadth", &breadth)}
            <p id="cost-per-solved">{format!("Cost per solved task: {}",
                m.cost_per_solved_usd.map_or_else(|| "no data".to_string(), |c| format!("${c:.2}")))}</p>
            <h3>"Rates"</h3>
            <table id="fm-rates" class="table compact">
                <thead><tr><th>"Rate"</th><th class="num">"n / d"</th><th>"Definition"</th><th>"Trajectories"</th></tr></thead>
                <tbody>{rate_rows}</tbody>
            </table>
            <details class="definitions"><summary>"Definitions"</summary>
                <dl>{defs.iter().map(|(id, text)| view! {
                    <dt id=format!("def-{id}") class="mono">{id.clone()}</dt><dd>{text.clone()}</dd>
                }).collect_view()}</dl>
            </details>
        }
    };
    view! {
        <section id="failure-mode-section">
            <h2>"Failure modes"</h2>
            <Suspense fallback=|| view! { <p class="muted">"Reading the run's trajectories…"</p> }>
                {move || modes.get().map(|r| match r {
                    Err(e) => view! { <p class="error">{e}</p> }.into_any(),
                    Ok(x) => body(x).into_any(),
                })}
            </Suspense>
        </section>
    }
}
