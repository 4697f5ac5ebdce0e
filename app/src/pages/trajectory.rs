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
use scorer::report::TaskResult;
use scorer::submission::Submission;
use trajworker::{Head, Node, StepFilter, TaskFacts};
use wasm_bindgen::JsCast;

use crate::bridge::ScoringWorker;
use crate::net::href;
use crate::routes::{Href, Query, Route, RunRef};
use crate::runs::StoredRun;
use crate::trajbridge::{use_traj_worker, TrajWorker};

/// Steps per page of the list.
const PAGE: u32 = 50;

/// A log the worker holds.
#[derive(Clone, Debug)]
struct Opened {
    doc: u32,
    samples: Vec<Head>,
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
        epoch: None,
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

/// Attributes a worker-built tree may set; anything else is dropped.
const ATTRS: &[&str] = &[
    "class",
    "id",
    "href",
    "data-step",
    "data-goto",
    "data-flag",
    "data-rate",
    "data-test",
    "aria-current",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "width",
    "height",
    "viewBox",
    "style",
    "text-anchor",
];

/// Renders a worker-built tree under `parent`: elements and text nodes only (never HTML), a
/// fixed set of attributes, links only relative to the site (`?…`, `#…`, `/…` under the base).
fn mount(parent: &web_sys::Node, node: &Node, svg: bool) {
    let doc = document();
    match node {
        Node::T(text) => {
            let _ = parent.append_child(&doc.create_text_node(text));
        }
        Node::E(tag, attrs, kids) => {
            let svg = svg || tag == "svg";
            let made = if svg {
                doc.create_element_ns(Some("http://www.w3.org/2000/svg"), tag)
            } else {
                doc.create_element(tag)
            };
            let Ok(el) = made else { return };
            for (k, v) in attrs {
                if !ATTRS.contains(&k.as_str()) {
                    continue;
                }
                if k == "href" {
                    let ok = v.starts_with('?')
                        || v.starts_with('#')
                        || (v.starts_with('/') && !v.starts_with("//"));
                    if !ok {
                        continue;
                    }
                    let v = if v.starts_with('/') { href(v) } else { v.clone() };
                    let _ = el.set_attribute(k, &v);
                } else {
                    let _ = el.set_attribute(k, v);
                }
            }
            for k in kids {
                mount(&el, k, svg);
            }
            let _ = parent.append_child(&el);
        }
    }
}

/// A worker-built tree; a click on an element with `data-goto` opens that step (`?step=N`).
#[component]
fn Tree(node: Node) -> impl IntoView {
    let div = NodeRef::<leptos::html::Div>::new();
    let node = StoredValue::new(node);
    Effect::new(move |_| {
        if let Some(d) = div.get() {
            d.set_text_content(None);
            node.with_value(|n| mount(&d, n, false));
        }
    });
    let navigate = use_navigate();
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let target = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let step = target
            .and_then(|t| t.closest("[data-goto]").ok().flatten())
            .and_then(|t| t.get_attribute("data-goto"));
        if let Some(step) = step {
            // Ours, not the router's: its resolution of a bare `?step=N` href would leave the page.
            ev.prevent_default();
            // The page's own path (base included) with the step, as a link would give.
            let path = window().location().pathname().unwrap_or_default();
            navigate(
                &format!("{path}{}", Query::new().with("step", step).render()),
                NavigateOptions { resolve: false, ..NavigateOptions::default() },
            );
        }
    };
    view! { <div node_ref=div on:click=on_click></div> }
}

/// The viewer of one opened log: the worker-built head (facts, final verdicts, flags, σ
/// timeline), the filters and the paged step list.
#[component]
fn Viewer(opened: Opened) -> impl IntoView {
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
    let page = RwSignal::new(None::<Result<(u32, u32, Node), String>>);
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
            // The viewer may be gone (another log, another page): its signals are disposed.
            if seq.try_get_value() == Some(n) {
                let _ = page.try_set(Some(got));
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
        {move || samples.with_value(|v| v.get(sample_ix.get()).map(|s| view! { <Tree node=s.view.clone()/> }))}
        <h2>"Steps"</h2>
        <div class="step-filters" role="group" aria-label="Filter steps">
            <label><input type="checkbox" id="filter-errors" on:change=move |ev| errors.set(event_target_checked(&ev))/>" errors only"</label>
            <label><input type="checkbox" id="filter-edits" on:change=move |ev| edits.set(event_target_checked(&ev))/>" edits only"</label>
            <label><input type="checkbox" id="filter-flagged" on:change=move |ev| flagged.set(event_target_checked(&ev))/>" flagged only"</label>
            <input type="search" id="step-search" placeholder="Search steps (Enter)"
                on:change=move |ev| search.set(event_target_value(&ev))/>
        </div>
        {move || match page.get() {
            None => view! { <p class="muted">"Loading steps…"</p> }.into_any(),
            Some(Err(e)) => view! { <p class="error" id="steps-error">{e}</p> }.into_any(),
            Some(Ok((matching, offset, view))) => {
                let nav = move || view! {
                    <nav class="pager">
                        <button type="button" class="page-prev" disabled={offset == 0}
                            on:click=move |_| load(offset.saturating_sub(PAGE), None)>"Previous"</button>
                        <span class="muted page-info">{if matching == 0 { "no step matches".to_string() } else {
                            format!("steps {}–{} of {matching} matching", offset + 1, (offset + PAGE).min(matching))}}</span>
                        <button type="button" class="page-next" disabled={offset + PAGE >= matching}
                            on:click=move |_| load(offset + PAGE, None)>"Next"</button>
                    </nav>
                };
                view! { {nav()} <Tree node=view/> {nav()} }.into_any()
            }
        }}
    }
}

/// Opens `bytes` in the worker (closing the page's previous document), then, for a log of a task
/// the bundle has, opens it again with the task's facts. `parts`: see [`TrajWorker::open`].
async fn open_log(
    traj: &TrajWorker,
    previous: Option<u32>,
    name: &str,
    bytes: &js_sys::Uint8Array,
    facts: Option<TaskFacts>,
    parts: Vec<(String, u32)>,
) -> Result<Opened, String> {
    if let Some(d) = previous {
        traj.close(vec![d]);
    }
    let doc = u32::try_from(traj.next_id()).unwrap_or(u32::MAX);
    let samples = traj.open(doc, name, bytes, facts.into_iter().collect(), parts).await?;
    Ok(Opened { doc, samples })
}

/// What the page opens: one log, or several files (an OpenHands V1 `events/` folder dropped or
/// picked whole, or its event files picked together) sent as one byte array with their names and
/// lengths, for the worker to join in event order as `refscore trajectory FOLDER` does. The
/// name shown is the files' common folder, else "N files".
fn bundle_files(
    files: &[(String, js_sys::Uint8Array)],
) -> (String, js_sys::Uint8Array, Vec<(String, u32)>) {
    if let [(name, bytes)] = files {
        return (name.clone(), bytes.clone(), Vec::new());
    }
    let total: u32 = files.iter().map(|(_, b)| b.length()).sum();
    let all = js_sys::Uint8Array::new_with_length(total);
    let mut parts = Vec::with_capacity(files.len());
    let mut at = 0u32;
    for (n, b) in files {
        all.set(b, at);
        at += b.length();
        parts.push((n.clone(), b.length()));
    }
    let folder = |n: &String| n.rsplit_once('/').map(|(d, _)| d.to_string());
    let first = files.first().and_then(|(n, _)| folder(n));
    let name = match first {
        Some(d) if files.iter().all(|(n, _)| folder(n).as_deref() == Some(d.as_str())) => d,
        _ => format!("{} files", files.len()),
    };
    (name, all, parts)
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
    let show = move |files: Vec<(String, js_sys::Uint8Array)>, store: bool| {
        let (name, bytes, parts) = bundle_files(&files);
        let _ = status.try_set(Some(Ok(format!("Reading {name} ({} bytes)…", bytes.length()))));
        let traj = traj.get_value();
        let previous = opened.get_untracked().map(|o| o.doc);
        let bundle = bundle.selected.get_untracked();
        let scoring = scoring_h.map(|w| w.get_value());
        leptos::task::spawn_local(async move {
            if store {
                // Kept so that a reload (or a deep link to a step) finds the log again.
                let _ = crate::store::save_files(crate::store::DROPPED, &files).await;
            }
            match open_log(&traj, previous, &name, &bytes, None, parts.clone()).await {
                Err(e) => {
                    let _ = status.try_set(Some(Err(e)));
                }
                Ok(o) => {
                    let instance = match o.samples.as_slice() {
                        [s] => s.instance_id.clone(),
                        _ => None,
                    };
                    let patch = o.samples.first().and_then(|s| s.submission.clone());
                    let _ = status.try_set(None);
                    let _ = opened.try_set(Some(o.clone()));
                    // The task's verdicts, when the bundle has the task: FM-1 and FM-7 need them.
                    let known = match &instance {
                        Some(id) => crate::bundles::load_index(&bundle)
                            .await
                            .is_ok_and(|i| i.tasks.iter().any(|t| &t.id == id)),
                        None => false,
                    };
                    if let (true, Some(id)) = (known, instance) {
                        let _ = status.try_set(Some(Ok(
                            "Scoring the submission and the empty patch for the failure modes…"
                                .into(),
                        )));
                        if let Some(f) =
                            task_facts(scoring.clone(), &bundle, &id, None, patch.as_deref()).await
                        {
                            if let Ok(o2) =
                                open_log(&traj, Some(o.doc), &name, &bytes, Some(f), parts).await
                            {
                                let _ = opened.try_set(Some(o2));
                            }
                        }
                        let _ = status.try_set(None);
                    }
                }
            }
        });
    };
    // A reload finds the last dropped log again.
    Effect::new(move |_| {
        leptos::task::spawn_local(async move {
            if let Ok(stored) = crate::store::load_files(crate::store::DROPPED).await {
                let mut files = Vec::with_capacity(stored.len());
                for (name, blob) in stored {
                    match crate::store::blob_bytes(&blob).await {
                        Ok(bytes) => files.push((name, bytes)),
                        Err(_) => return,
                    }
                }
                if !files.is_empty() && opened.try_get_untracked().flatten().is_none() {
                    show(files, false);
                }
            }
        });
    });
    // One file is one log; several (a folder, or files picked together) are an events folder.
    let take = move |(files, problems): (Vec<crate::upload::Upload>, Vec<String>)| {
        if files.is_empty() {
            let _ = status.try_set(Some(Err(problems.join("; "))));
        } else {
            show(files.into_iter().map(|u| (u.name, u.bytes)).collect(), true);
        }
    };
    // `webkitdirectory` (pick a whole folder) is not an attribute the view macro knows.
    let folder_input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(input) = folder_input.get() {
            input.set_webkitdirectory(true);
        }
    });
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
                <p>"Drop an agent log here (SWE-agent, mini-swe-agent, OpenHands, Inspect, ATIF, Claude Code, Codex) or an OpenHands "
                    <code>"events/"</code>" folder, or "
                    <label class="button">"choose a file"
                        <input id="traj-file" type="file" multiple class="visually-hidden" on:change=on_pick/>
                    </label>" or "
                    <label class="button">"a folder"
                        <input id="traj-folder" type="file" multiple class="visually-hidden"
                            node_ref=folder_input on:change=on_pick/>
                    </label>
                    ". It is read in a worker in this browser and kept here until you drop another. Several files (an "
                    <code>"events/"</code>" folder, or its event files chosen together) are joined in event order."</p>
            </div>
            {move || status.get().map(|s| match s {
                Ok(m) => view! { <p class="muted" id="traj-status">{m}</p> }.into_any(),
                Err(e) => view! { <p class="error" id="traj-error">{e}</p> }.into_any(),
            })}
            {move || opened.get().map(|o| view! { <Viewer opened=o/> })}
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
            let facts = task_facts(scoring, &run.meta.bundle, &instance, result, None).await;
            open_log(&traj, None, &file, &bytes, facts, Vec::new()).await
        }
    });
    view! {
        <section class="trajectory-page">
            <p><a href=move || Route::Run { run: RunRef::stored(run_id.get()), query: Query::new() }.href()>"Run"</a>" · "
                <a href=move || Route::Result { run: RunRef::stored(run_id.get()), instance: instance.get(), query: Query::new() }.href()>"Result"</a></p>
            <h1>"Trajectory of " <code>{move || instance.get()}</code></h1>
            <Suspense fallback=|| view! { <p class="muted">"Reading the trajectory…"</p> }>
                {move || opened.get().map(|r| match r {
                    Err(e) => view! { <p class="error" id="traj-error">{e}</p> }.into_any(),
                    Ok(o) => view! { <Viewer opened=o/> }.into_any(),
                })}
            </Suspense>
        </section>
    }
}

/// The run page's failure-mode section for a run scored from trajectories: every log is read and
/// analysed in the trajectory worker (with the run's verdicts and the empty patch's), which then
/// computes the run's rates (`summarise_run`) and builds the section. A log read once however
/// many tasks it holds (an Inspect `.eval`): each sample gets the verdicts of its own submission
/// (the k-th sample of a task is the task's k-th result, both in file order). When the samples
/// come from several epochs, the user chooses which epochs count and the rates follow.
#[component]
pub fn RunFailureModes(run: Arc<StoredRun>) -> impl IntoView {
    let traj = StoredValue::new_local(use_traj_worker());
    let scoring_h = crate::bridge::use_worker();
    // Every epoch the samples have (none for logs without epochs), and the ones chosen.
    let epochs = RwSignal::new(Vec::<u32>::new());
    let chosen = RwSignal::new(None::<Vec<u32>>);
    let open_docs = StoredValue::new(Vec::<u32>::new());
    let opened = LocalResource::new(move || {
        let scoring = scoring_h.map(|w| w.get_value());
        let run = run.clone();
        let traj = traj.get_value();
        async move {
            let files = crate::store::load_files(&run.meta.id).await?;
            let mut by_file: std::collections::BTreeMap<&String, Vec<&String>> =
                std::collections::BTreeMap::new();
            for (instance, file) in &run.trajectories {
                by_file.entry(file).or_default().push(instance);
            }
            let (mut docs, mut links, mut found) = (Vec::new(), Vec::new(), Vec::new());
            for (file, instances) in by_file {
                let Some((_, blob)) = files.iter().find(|(n, _)| n == file) else { continue };
                let bytes = crate::store::blob_bytes(blob).await?;
                let doc = u32::try_from(traj.next_id()).unwrap_or(u32::MAX);
                let Ok(heads) = traj.open(doc, file, &bytes, Vec::new(), Vec::new()).await else {
                    continue;
                };
                let mut facts = Vec::new();
                for instance in &instances {
                    let results = run.results_for(instance);
                    let first = results.first().map(|&i| run.report.results[i].clone());
                    let Some(base) =
                        task_facts(scoring.clone(), &run.meta.bundle, instance, first, None).await
                    else {
                        continue;
                    };
                    let mine: Vec<&Head> = heads
                        .iter()
                        .filter(|h| h.instance_id.as_deref() == Some(instance.as_str()))
                        .collect();
                    if mine.len() <= 1 {
                        facts.push(base);
                        continue;
                    }
                    for (k, h) in mine.iter().enumerate() {
                        let Some(&i) = results.get(k) else { break };
                        facts.push(TaskFacts {
                            final_result: Some(run.report.results[i].clone()),
                            epoch: h.epoch,
                            ..base.clone()
                        });
                    }
                }
                found.extend(heads.iter().filter_map(|h| h.epoch));
                if traj.open(doc, file, &bytes, facts, Vec::new()).await.is_ok() {
                    docs.push(doc);
                    let first = instances.first().map_or(String::new(), |i| (*i).clone());
                    let link =
                        Route::RunTrajectory { run: run.meta.id.clone(), instance: first.clone() }
                            .path();
                    let label = if instances.len() == 1 { first } else { file.clone() };
                    links.push((doc, link, label));
                }
            }
            found.sort_unstable();
            found.dedup();
            let _ = open_docs.try_set_value(docs.clone());
            if found.len() > 1 {
                let _ = epochs.try_set(found.clone());
                let _ = chosen.try_set(Some(found));
            }
            Ok::<_, String>((docs, links))
        }
    });
    on_cleanup(move || {
        if let (Some(t), Some(d)) = (traj.try_get_value(), open_docs.try_get_value()) {
            t.close(d);
        }
    });
    let section = LocalResource::new(move || {
        let opened = opened.get();
        let epochs = chosen.get().unwrap_or_default();
        let traj = traj.get_value();
        async move {
            let (docs, links) = opened.ok_or("Reading the run's trajectories…")??;
            if chosen.get_untracked().is_some_and(|c| c.is_empty()) {
                return Err("Choose at least one epoch.".to_string());
            }
            traj.summarise(docs, links, epochs).await
        }
    });
    let toggle = move |e: u32, on: bool| {
        chosen.update(|c| {
            let c = c.get_or_insert_with(Vec::new);
            c.retain(|x| *x != e);
            if on {
                c.push(e);
                c.sort_unstable();
            }
        });
    };
    view! {
        <section id="failure-mode-section">
            <h2>"Failure modes"</h2>
            {move || (epochs.get().len() > 1).then(|| view! {
                <fieldset id="fm-epochs" class="step-filters">
                    <legend>"Samples that count (the log ran its tasks over several epochs)"</legend>
                    {epochs.get().into_iter().map(|e| view! {
                        <label><input type="checkbox" data-epoch=e.to_string() checked=true
                            on:change=move |ev| toggle(e, event_target_checked(&ev))/>
                            {format!(" epoch {e}")}</label>
                    }).collect_view()}
                </fieldset>
            })}
            <Suspense fallback=|| view! { <p class="muted">"Reading the run's trajectories…"</p> }>
                {move || section.get().map(|r| match r {
                    Err(e) => view! { <p class="muted" id="fm-status">{e}</p> }.into_any(),
                    Ok(node) => view! { <Tree node=node/> }.into_any(),
                })}
            </Suspense>
        </section>
    }
}
