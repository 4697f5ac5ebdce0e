//! Scoring: `/score` takes predictions files, trajectories, patches named after their task, zips
//! and folders; `/tasks/:id/score` takes a pasted or dropped patch for one task. Both hand the
//! inputs to the scoring session ([`crate::runs::Session`]) and open the stored run when done.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map};
use leptos_router::NavigateOptions;
use scorer::bundle::BundleIndex;

use crate::bridge::{use_worker, WorkerStatus};
use crate::bundles::{index_resource, use_bundle};
use crate::components::progress::ScoreProgress;
use crate::routes::{query_value, Href, Query, Route, RunRef};
use crate::runs::{use_session, Input, Outcome};
use crate::upload::{self, Upload};

/// The task a patch file is for, from its name: `<task id>.patch` or `<task id>.<label>.patch`
/// (the longest task id that the name starts with, followed by a dot).
pub fn task_for_patch_name(index: &BundleIndex, path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    if !(lower.ends_with(".patch") || lower.ends_with(".diff")) {
        return None;
    }
    index
        .tasks
        .iter()
        .filter(|t| {
            name.len() > t.id.len()
                && name.starts_with(&t.id)
                && name.as_bytes()[t.id.len()] == b'.'
        })
        .max_by_key(|t| t.id.len())
        .map(|t| t.id.clone())
}

/// The test hook of [`worker::ToWorker::Score`]: `?test-trap=<instance id>`. Compiled in only when
/// the site is built with `REFSCORE_TEST_HOOKS=1` (the browser tests' sub-path build); in a release
/// build the constant is absent and the hook is dead code, so no crafted link can crash a task.
fn trap_param() -> Option<String> {
    option_env!("REFSCORE_TEST_HOOKS")?;
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| query_value(&q, "test-trap"))
}

/// A dropped patch file's bytes, untouched: `git apply` reads bytes, so a patch that is not UTF-8
/// (latin-1 in a docs file) must reach the scorer as it is.
fn bytes_of(bytes: &js_sys::Uint8Array) -> Vec<u8> {
    bytes.to_vec()
}

/// Opens the stored run once the session saves it (the single result directly when asked).
fn follow_outcome(open_result: bool) {
    let session = use_session();
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(Outcome::Saved { run, first }) = session.outcome.get() {
            session.outcome.set(None);
            let to = match (open_result, first) {
                (true, Some(instance)) => {
                    Route::Result { run: RunRef::stored(run), instance, query: Query::new() }
                }
                _ => Route::Run { run: RunRef::stored(run), query: Query::new() },
            };
            navigate(&to.href(), NavigateOptions { resolve: false, ..Default::default() });
        }
    });
}

#[component]
pub fn ScorePage() -> impl IntoView {
    let bundle = use_bundle();
    let index = index_resource();
    let session = use_session();
    let (files, set_files) = signal(Vec::<Upload>::new());
    let (problems, set_problems) = signal(Vec::<String>::new());
    let (reading, set_reading) = signal(false);
    let (dragging, set_dragging) = signal(false);
    let run_name = RwSignal::new(String::new());
    follow_outcome(false);
    // `webkitdirectory` (pick a whole folder) is not an attribute the view macro knows.
    let folder_input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(input) = folder_input.get() {
            input.set_webkitdirectory(true);
        }
    });

    let add = move |(new, probs): (Vec<Upload>, Vec<String>)| {
        set_files.update(|f| f.extend(new));
        set_problems.update(|p| p.extend(probs));
        set_reading.set(false);
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let list = input.files();
        set_reading.set(true);
        leptos::task::spawn_local(async move {
            add(upload::from_file_list(list).await);
            // Picking the same file again must fire `change` again.
            input.set_value("");
        });
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_dragging.set(false);
        let dropped = upload::take_drop(&ev);
        set_reading.set(true);
        leptos::task::spawn_local(async move { add(upload::read_drop(dropped).await) });
    };
    let on_dragover = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        set_dragging.set(true);
    };
    let worker = use_worker();
    // The user came to score: the selected bundle's data goes to the workers while they choose.
    let status = use_context::<ReadSignal<WorkerStatus>>();
    Effect::new(move |_| {
        let ready = status.is_some_and(|s| matches!(s.get(), WorkerStatus::Ready { .. }));
        if let (true, Some(worker)) = (ready, worker) {
            crate::runs::prefetch_bundle(worker.get_value(), bundle.selected.get());
        }
    });
    let start = move |_| {
        let Some(worker) = worker.map(|w| w.get_value()) else { return };
        let Some(Ok(index)) = index.get_untracked() else { return };
        let inputs: Vec<Input> = files
            .get_untracked()
            .into_iter()
            .map(|u| match task_for_patch_name(&index, &u.name) {
                Some(instance_id) => {
                    Input::Patch { instance_id, patch: bytes_of(&u.bytes), name: u.name }
                }
                None => Input::File { name: u.name, bytes: u.bytes },
            })
            .collect();
        if inputs.is_empty() {
            return;
        }
        let mut name = run_name.get_untracked().trim().to_string();
        if name.is_empty() {
            let first =
                files.with_untracked(|f| f.first().map(|u| u.name.clone())).unwrap_or_default();
            name = if inputs.len() > 1 {
                format!("{first} and {} more", inputs.len() - 1)
            } else {
                first
            };
        }
        session.start(worker, bundle.selected.get_untracked(), name, inputs, trap_param());
        set_files.set(Vec::new());
        set_problems.set(Vec::new());
    };

    view! {
        <section class="score-page">
            <h1>"Score submissions"</h1>
            <p class="muted">
                "Bundle " <strong id="score-bundle">{move || bundle.selected.get()}</strong>
                {move || index.get().and_then(Result::ok).map(|i| format!(" ({} tasks)", i.tasks.len()))}
                ". Files are read and scored in this tab; nothing is uploaded."
            </p>
            <div
                id="drop-zone"
                class="drop-zone"
                class:dragging=move || dragging.get()
                on:dragover=on_dragover
                on:dragleave=move |_| set_dragging.set(false)
                on:drop=on_drop
            >
                <p>
                    "Drop predictions (" <code>".jsonl"</code> ", " <code>".json"</code>
                    " list or dict), trajectories (" <code>".traj"</code> "), patches named "
                    <code>"<task id>.….patch"</code> ", a " <code>".zip"</code> " or a folder here."
                </p>
                <div class="pickers">
                    <label class="button">
                        "Choose files"
                        <input id="upload-files" type="file" multiple class="visually-hidden"
                            accept=".jsonl,.json,.traj,.pred,.patch,.diff,.zip,.eval"
                            on:change=on_pick/>
                    </label>
                    <label class="button">
                        "Choose a folder"
                        <input id="upload-folder" type="file" multiple class="visually-hidden"
                            node_ref=folder_input on:change=on_pick/>
                    </label>
                </div>
            </div>
            <Show when=move || reading.get()>
                <p class="muted">"Reading files…"</p>
            </Show>
            <ul id="upload-problems" class="error">
                {move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ul>
            <Show when=move || !files.with(Vec::is_empty)>
                <table id="upload-list" class="table">
                    <thead><tr><th>"File"</th><th>"Size"</th><th>"Read as"</th></tr></thead>
                    <tbody>
                        {move || {
                            let idx = index.get().and_then(Result::ok);
                            files.get().into_iter().map(|u| {
                                let kind = idx.as_ref().and_then(|i| task_for_patch_name(i, &u.name))
                                    .map(|t| format!("patch for {t}"))
                                    .unwrap_or_else(|| "predictions or trajectory".to_string());
                                view! { <tr><td>{u.name.clone()}</td><td>{format!("{} B", u.bytes.length())}</td><td>{kind}</td></tr> }
                            }).collect_view()
                        }}
                    </tbody>
                </table>
                <div class="score-actions">
                    <label>"Run name " <input id="run-name" type="text" bind:value=run_name placeholder="(from the files)"/></label>
                    <button id="score-start" type="button" class="primary"
                        disabled=move || session.progress.get().is_some()
                        on:click=start>
                        {move || format!("Score {} file(s)", files.with(Vec::len))}
                    </button>
                    <button type="button" on:click=move |_| set_files.set(Vec::new())>"Clear"</button>
                </div>
            </Show>
            <ScoreProgress/>
        </section>
    }
}

#[component]
pub fn TaskScorePage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.read().get("id").unwrap_or_default());
    let bundle = use_bundle();
    let session = use_session();
    let patch = RwSignal::new(String::new());
    let (files, set_files) = signal(Vec::<Upload>::new());
    let (problems, set_problems) = signal(Vec::<String>::new());
    follow_outcome(true);

    let on_pick = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let list = input.files();
        leptos::task::spawn_local(async move {
            let (new, probs) = upload::from_file_list(list).await;
            set_files.update(|f| f.extend(new));
            set_problems.set(probs);
            input.set_value("");
        });
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let dropped = upload::take_drop(&ev);
        leptos::task::spawn_local(async move {
            let (new, probs) = upload::read_drop(dropped).await;
            set_files.update(|f| f.extend(new));
            set_problems.set(probs);
        });
    };
    let worker = use_worker();
    let start = move |_| {
        let Some(worker) = worker.map(|w| w.get_value()) else { return };
        let instance_id = id.get_untracked();
        let mut inputs: Vec<Input> = files
            .get_untracked()
            .into_iter()
            .map(|u| Input::Patch {
                instance_id: instance_id.clone(),
                patch: bytes_of(&u.bytes),
                name: u.name,
            })
            .collect();
        let pasted = patch.get_untracked();
        if !pasted.trim().is_empty() || inputs.is_empty() {
            // An empty paste with no file scores the empty patch: the task's base verdicts.
            inputs.insert(
                0,
                Input::Patch {
                    instance_id: instance_id.clone(),
                    name: "pasted patch".into(),
                    patch: pasted.into_bytes(),
                },
            );
        }
        let name = match inputs.as_slice() {
            [Input::Patch { name, .. }] => format!("{instance_id}: {name}"),
            more => format!("{instance_id}: {} patches", more.len()),
        };
        session.start(worker, bundle.selected.get_untracked(), name, inputs, trap_param());
        set_files.set(Vec::new());
    };

    view! {
        <section class="score-page">
            <h1>"Score a patch for " <code>{move || id.get()}</code></h1>
            <p><a href=move || Route::Task { id: id.get(), query: Query::new() }.href()>"Back to the task"</a></p>
            <div id="patch-drop" class="drop-zone"
                on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=on_drop>
                <label for="patch-text">"Paste a unified diff (empty = no change), or drop "
                    <code>".patch"</code> " files here"</label>
                <textarea id="patch-text" rows="14" spellcheck="false" bind:value=patch
                    placeholder="diff --git a/… b/…"></textarea>
                <label class="button">
                    "Choose patch files"
                    <input id="patch-files" type="file" multiple class="visually-hidden"
                        accept=".patch,.diff,.txt" on:change=on_pick/>
                </label>
            </div>
            <ul class="file-names">
                {move || files.get().into_iter().map(|u| view! { <li>{u.name}</li> }).collect_view()}
            </ul>
            <ul class="error">
                {move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
            </ul>
            <button id="score-patch" type="button" class="primary"
                disabled=move || session.progress.get().is_some()
                on:click=start>"Score"</button>
            <ScoreProgress/>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scorer::bundle::TaskSummary;

    fn index(ids: &[&str]) -> BundleIndex {
        BundleIndex {
            schema_version: 1,
            bundle_hash: String::new(),
            tasks: ids
                .iter()
                .map(|id| TaskSummary {
                    id: id.to_string(),
                    repo: "r".into(),
                    tests: String::new(),
                    methods: 0,
                    data: String::new(),
                    lazy: String::new(),
                    blobs: 0,
                    blob_bytes: 0,
                })
                .collect(),
            repos: Vec::new(),
            task_pack: None,
        }
    }

    #[test]
    fn patch_names_pick_the_longest_task_id() {
        let idx = index(&["rename-parse-amount", "rename-parse", "debughelpers-to-helpers.py"]);
        let t = |n: &str| task_for_patch_name(&idx, n);
        assert_eq!(t("rename-parse-amount.solve.patch").as_deref(), Some("rename-parse-amount"));
        assert_eq!(t("dir/rename-parse.patch").as_deref(), Some("rename-parse"));
        assert_eq!(
            t("debughelpers-to-helpers.py.diff").as_deref(),
            Some("debughelpers-to-helpers.py")
        );
        assert_eq!(t("rename-parse-amountx.patch"), None);
        assert_eq!(t("rename-parse-amount.jsonl"), None);
        assert_eq!(t("other.patch"), None);
    }
}
