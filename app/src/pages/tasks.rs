//! The task list of the loaded bundle: counts, a repository filter and a search, both kept in the
//! URL (`?repo=…&q=…`) so a filtered list can be shared and survives a reload.

use std::rc::Rc;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use scorer::bundle::{BundleIndex, TaskSummary};

use crate::components::loaded::Loaded;
use crate::routes::{Href, Query, Route};

/// Whether a task row passes the filters: `repo` (empty: any) and every whitespace-separated
/// word of `query` found, case-insensitively, in the id, the test file name or the one-line
/// instruction.
pub fn task_matches(t: &TaskSummary, repo: &str, query: &str) -> bool {
    if !repo.is_empty() && t.repo != repo {
        return false;
    }
    let hay = format!("{}\n{}\n{}", t.id, t.tests, t.lazy).to_lowercase();
    query.split_whitespace().all(|w| hay.contains(&w.to_lowercase()))
}

/// The headline numbers of a bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BundleCounts {
    pub tasks: usize,
    pub repos: usize,
    pub methods: u64,
    pub blobs: u64,
    pub blob_bytes: u64,
}

impl BundleCounts {
    pub fn of(index: &BundleIndex) -> Self {
        let mut repos: Vec<&str> = index.tasks.iter().map(|t| t.repo.as_str()).collect();
        repos.sort_unstable();
        repos.dedup();
        BundleCounts {
            tasks: index.tasks.len(),
            repos: repos.len().max(index.repos.len()),
            methods: index.tasks.iter().map(|t| u64::from(t.methods)).sum(),
            blobs: index.tasks.iter().map(|t| u64::from(t.blobs)).sum(),
            blob_bytes: index.tasks.iter().map(|t| t.blob_bytes).sum(),
        }
    }
}

/// `1234567` → `1.2 MB`; for the "data" counters.
pub fn human_bytes(n: u64) -> String {
    match n {
        0..=999 => format!("{n} B"),
        1_000..=999_999 => format!("{:.1} kB", n as f64 / 1e3),
        _ => format!("{:.1} MB", n as f64 / 1e6),
    }
}

/// Repository names in the order of the index, each with its task count.
pub fn repo_options(index: &BundleIndex) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for t in &index.tasks {
        match out.iter_mut().find(|(r, _)| *r == t.repo) {
            Some((_, n)) => *n += 1,
            None => out.push((t.repo.clone(), 1)),
        }
    }
    out
}

#[component]
pub fn TasksPage() -> impl IntoView {
    let index = crate::bundles::index_resource();
    view! {
        <section class="tasks-page">
            <h1>"Tasks"</h1>
            <Loaded resource=index loading="Loading the task bundle…" error_id="bundle-error"
                ok=index_view/>
        </section>
    }
}

fn index_view(index: Rc<BundleIndex>) -> AnyView {
    if index.tasks.is_empty() {
        view! {
            <p id="task-list-empty" class="muted">
                "No tasks in this bundle yet (bundle " {index.bundle_hash.clone()} ")."
            </p>
        }
        .into_any()
    } else {
        view! { <TaskList index=(*index).clone()/> }.into_any()
    }
}

/// The counters, the filters and the table of one bundle.
#[component]
fn TaskList(index: BundleIndex) -> impl IntoView {
    let query = use_query_map();
    let navigate = use_navigate();
    let initial = query.get_untracked();
    let repo = RwSignal::new(initial.get("repo").unwrap_or_default());
    // A `?bundle=` choice stays in the URL next to the filters.
    let bundle_param = initial.get("bundle");
    let search = RwSignal::new(initial.get("q").unwrap_or_default());
    // Mirror the filters into the URL (replacing the entry: typing is not history).
    Effect::new({
        move |prev: Option<()>| {
            let (r, q) = (repo.get(), search.get());
            if prev.is_none() {
                return;
            }
            let query = Query::new()
                .with("bundle", bundle_param.clone().unwrap_or_default())
                .with("repo", r)
                .with("q", q);
            navigate(
                &Route::Tasks(query).href(),
                NavigateOptions {
                    resolve: false,
                    replace: true,
                    scroll: false,
                    ..Default::default()
                },
            );
        }
    });

    let counts = BundleCounts::of(&index);
    let repos = repo_options(&index);
    let tasks = StoredValue::new(index.tasks.clone());
    let visible = Memo::new(move |_| {
        let (r, q) = (repo.get(), search.get());
        tasks.with_value(|ts| {
            ts.iter()
                .enumerate()
                .filter(|(_, t)| task_matches(t, &r, &q))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        })
    });
    let rows = {
        move || {
            let shown = visible.get();
            tasks.with_value(|ts| {
                shown
                    .iter()
                    .filter_map(|&i| ts.get(i))
                    .map(|t| {
                        let href = Route::Task { id: t.id.clone(), query: Query::new() }.href();
                        view! {
                            <tr data-task-id=t.id.clone()>
                                <td class="mono"><a href=href>{t.id.clone()}</a></td>
                                <td>{t.repo.clone()}</td>
                                <td class="lazy">{t.lazy.clone()}</td>
                                <td class="num">{t.methods}</td>
                                <td class="mono muted">{t.tests.clone()}</td>
                            </tr>
                        }
                    })
                    .collect_view()
            })
        }
    };
    let options = repos
        .iter()
        .map(|(r, n)| {
            let value = r.clone();
            let selected = {
                let value = value.clone();
                move || repo.get() == value
            };
            view! { <option value=value.clone() selected=selected>{format!("{r} ({n})")}</option> }
        })
        .collect_view();
    let attribution = index
        .repos
        .iter()
        .map(|r| {
            let a = &r.attribution;
            let licence =
                a.spdx.clone().or(a.license.clone()).unwrap_or_else(|| "licence unknown".into());
            view! {
                <li>
                    <span class="mono">{r.name.clone()}</span>
                    {format!(": {} files, from {} ({licence})", r.files, a.upstream)}
                    {a.copyright.clone().map(|c| format!(", {c}"))}
                </li>
            }
        })
        .collect_view();
    let total = counts.tasks;
    view! {
        <div class="stats" id="task-stats">
            <div class="stat"><span class="stat-n" id="stat-tasks">{counts.tasks}</span><span class="stat-l">"tasks"</span></div>
            <div class="stat"><span class="stat-n" id="stat-repos">{counts.repos}</span><span class="stat-l">"repositories"</span></div>
            <div class="stat"><span class="stat-n" id="stat-methods">{counts.methods}</span><span class="stat-l">"test methods"</span></div>
            <div class="stat"><span class="stat-n">{counts.blobs}</span><span class="stat-l">{format!("files carried ({})", human_bytes(counts.blob_bytes))}</span></div>
        </div>
        <div class="filters" role="search">
            <label>"Repository "
                <select id="repo-filter" on:change=move |ev| repo.set(event_target_value(&ev))>
                    <option value="" selected=move || repo.get().is_empty()>{format!("all ({total})")}</option>
                    {options}
                </select>
            </label>
            <label>"Search "
                <input id="task-search" type="search" placeholder="id, test file or instruction"
                    prop:value=move || search.get()
                    on:input=move |ev| search.set(event_target_value(&ev))/>
            </label>
            {move || (!repo.get().is_empty()).then(|| view! {
                <a id="combine-link" href=Route::Combine(Query::new().with("repo", repo.get())).href()>
                    "Combine tasks of this repository"</a>
            })}
            <span class="muted" id="task-count">
                {move || {
                    let n = visible.get().len();
                    if n == total { format!("{n} tasks") } else { format!("{n} of {total} tasks") }
                }}
            </span>
        </div>
        <table id="task-list" class="table tasks">
            <thead><tr><th>"Task"</th><th>"Repository"</th><th>"Instruction (lazy)"</th><th class="num">"Methods"</th><th>"Test file"</th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
        {move || visible.get().is_empty().then(|| view! { <p class="muted" id="task-list-none">"No task matches these filters."</p> })}
        <h2>"Repositories"</h2>
        <ul class="repos" id="repo-list">{attribution}</ul>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, repo: &str, lazy: &str) -> TaskSummary {
        TaskSummary {
            id: id.into(),
            repo: repo.into(),
            tests: format!("{id}-test.py"),
            methods: 3,
            data: String::new(),
            lazy: lazy.into(),
            blobs: 2,
            blob_bytes: 1500,
        }
    }

    #[test]
    fn filters_by_repo_and_every_search_word() {
        let t =
            task("rename-parse-amount", "ledgerly_refactor", "Rename parse_amount to parse_money.");
        assert!(task_matches(&t, "", ""));
        assert!(task_matches(&t, "ledgerly_refactor", "  "));
        assert!(!task_matches(&t, "tinyfeed_refactor", ""));
        assert!(task_matches(&t, "", "PARSE_money rename"));
        assert!(task_matches(&t, "", "amount-test.py"));
        assert!(!task_matches(&t, "", "rename sanitize"));
    }

    #[test]
    fn counts_and_repo_options() {
        let index = BundleIndex {
            schema_version: 1,
            bundle_hash: String::new(),
            tasks: vec![task("a", "r1", ""), task("b", "r2", ""), task("c", "r1", "")],
            repos: vec![],
            task_pack: None,
        };
        let c = BundleCounts::of(&index);
        assert_eq!((c.tasks, c.repos, c.methods, c.blobs, c.blob_bytes), (3, 2, 9, 6, 4500));
        assert_eq!(repo_options(&index), vec![("r1".to_string(), 2), ("r2".to_string(), 1)]);
        assert_eq!(human_bytes(4500), "4.5 kB");
        assert_eq!(human_bytes(999), "999 B");
        assert_eq!(human_bytes(8_400_000), "8.4 MB");
    }
}
