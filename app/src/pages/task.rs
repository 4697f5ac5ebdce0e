//! `/tasks/:id`: one task: its three instructions side by side, its test methods with the test
//! source, and the files the tests inspect, each viewable from the bundle. `?file=<path>` opens a
//! file, so a view of a file can be shared.

use std::rc::Rc;

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use leptos_router::NavigateOptions;
use scorer::bundle::TaskData;

use crate::components::code::{is_python_path, CodeView};
use crate::components::loaded::Loaded;
use crate::routes::{Href, Query, Route};

/// 1-based line of each method's `def` in the test source (`Class.method` ids), found textually:
/// the `def` inside `class Class`'s body, else (an inherited method) the first `def method` in
/// the file, else `None`.
pub fn method_lines(source: &str, methods: &[String]) -> Vec<Option<u32>> {
    let lines: Vec<&str> = source.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let is_def = |l: &str, name: &str| {
        let t = l.trim_start();
        let t = t.strip_prefix("async ").map_or(t, str::trim_start);
        t.strip_prefix("def ")
            .and_then(|r| r.trim_start().strip_prefix(name))
            .is_some_and(|r| r.trim_start().starts_with('('))
    };
    let is_class = |l: &str, name: &str| {
        l.trim_start()
            .strip_prefix("class ")
            .and_then(|r| r.trim_start().strip_prefix(name))
            .is_some_and(|r| r.trim_start().starts_with(['(', ':']))
    };
    methods
        .iter()
        .map(|id| {
            let (class, method) = id.rsplit_once('.')?;
            let in_class =
                lines.iter().enumerate().filter(|(_, l)| is_class(l, class)).find_map(|(c, cl)| {
                    let ci = indent(cl);
                    lines[c + 1..]
                        .iter()
                        .enumerate()
                        .take_while(|(_, l)| {
                            let t = l.trim_start();
                            t.is_empty() || t.starts_with('#') || indent(l) > ci
                        })
                        .find(|(_, l)| is_def(l, method))
                        .map(|(k, _)| c + 1 + k)
                });
            let at = in_class.or_else(|| lines.iter().position(|l| is_def(l, method)))?;
            u32::try_from(at + 1).ok()
        })
        .collect()
}

/// The method ids grouped by class, in order: `[(class, [(method, index into methods)])]`.
pub fn group_methods(methods: &[String]) -> Vec<(String, Vec<(String, usize)>)> {
    let mut out: Vec<(String, Vec<(String, usize)>)> = Vec::new();
    for (i, id) in methods.iter().enumerate() {
        let (class, method) = id.rsplit_once('.').unwrap_or(("", id.as_str()));
        match out.last_mut() {
            Some((c, ms)) if c == class => ms.push((method.to_string(), i)),
            _ => out.push((class.to_string(), vec![(method.to_string(), i)])),
        }
    }
    out
}

/// What the page can say about a path the tests inspect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAvailability {
    /// The bundle carries its base bytes.
    Carried,
    /// The repository has it, but only its blob id is in the manifest.
    ManifestOnly,
    /// The base repository does not have it (the task creates it).
    Absent,
}

pub fn availability(task: &TaskData, path: &str) -> FileAvailability {
    if task.files.iter().any(|f| f.path.as_str() == path) {
        FileAvailability::Carried
    } else if task.inspected.iter().any(|p| p.path.as_str() == path && p.exists) {
        FileAvailability::ManifestOnly
    } else {
        FileAvailability::Absent
    }
}

#[component]
pub fn TaskPage() -> impl IntoView {
    let params = use_params_map();
    let id = Memo::new(move |_| params.read().get("id").unwrap_or_default());
    let task = crate::bundles::task_resource(Signal::derive(move || id.get()));
    view! {
        <section class="task-page">
            <Loaded resource=task loading="Loading the task…" error_id="task-error" heading=id
                ok=task_view/>
        </section>
    }
}

fn task_view(t: Rc<TaskData>) -> impl IntoView {
    view! { <TaskDetail task=(*t).clone()/> }
}

#[component]
fn TaskDetail(task: TaskData) -> impl IntoView {
    let query = use_query_map();
    let navigate = use_navigate();
    let task = StoredValue::new(task);
    let (id, repo, test_name, n_methods) =
        task.with_value(|t| (t.id.clone(), t.repo.clone(), t.test.name.clone(), t.methods.len()));
    let score_href = Route::TaskScore { id: id.clone() }.href();

    // The test-source line to mark: a method's `def`, or a line that names an inspected file.
    let test_line = RwSignal::new(None::<u32>);
    let def_lines = task.with_value(|t| method_lines(&t.test.source, &t.methods));
    let groups = task.with_value(|t| group_methods(&t.methods));
    let subtests = groups
        .into_iter()
        .map(|(class, ms)| {
            let items = ms
                .into_iter()
                .map(|(m, i)| {
                    let line = def_lines.get(i).copied().flatten();
                    let full = task.with_value(|t| t.methods.get(i).cloned().unwrap_or_default());
                    view! {
                        <li>
                            <button type="button" class="linkish mono method" data-method=full
                                class:selected=move || line.is_some() && test_line.get() == line
                                on:click=move |_| test_line.set(line)>
                                {m}
                            </button>
                        </li>
                    }
                })
                .collect_view();
            view! {
                <li class="class-group">
                    <span class="mono class-name">{class}</span>
                    <ul class="methods">{items}</ul>
                </li>
            }
        })
        .collect_view();

    // `?file=` picks the file shown under the table.
    let open_file = Memo::new(move |_| query.read().get("file"));
    let set_file = {
        let id = id.clone();
        move |path: Option<String>| {
            let query = Query::new().with("file", path.unwrap_or_default());
            navigate(
                &Route::Task { id: id.clone(), query }.href(),
                NavigateOptions {
                    resolve: false,
                    replace: false,
                    scroll: false,
                    ..Default::default()
                },
            );
        }
    };

    let file_row = {
        let set_file = set_file.clone();
        move |path: String, exists: bool, lines: Vec<u32>, why: &'static str| {
            let avail = task.with_value(|t| availability(t, &path));
            let avail = if avail == FileAvailability::Absent && exists {
                FileAvailability::ManifestOnly
            } else {
                avail
            };
            let line_links = lines
                .into_iter()
                .map(|l| {
                    view! {
                        <button type="button" class="linkish" on:click=move |_| test_line.set(Some(l))>
                            {l.to_string()}
                        </button>" "
                    }
                })
                .collect_view();
            let action = match avail {
                FileAvailability::Carried => {
                    let set_file = set_file.clone();
                    let p = path.clone();
                    let p2 = path.clone();
                    view! {
                        <button type="button" class="btn-small" class:active=move || open_file.get().as_deref() == Some(p2.as_str())
                            on:click=move |_| set_file(Some(p.clone()))>"view"</button>
                    }
                    .into_any()
                }
                FileAvailability::ManifestOnly => view! {
                    <span class="muted">"not carried in the bundle"</span>
                }
                .into_any(),
                FileAvailability::Absent => view! {
                    <span class="muted">"not in the base repository (the task creates it)"</span>
                }
                .into_any(),
            };
            view! {
                <tr data-path=path.clone()>
                    <td class="mono">{path.clone()}</td>
                    <td>{why}</td>
                    <td>{line_links}</td>
                    <td>{action}</td>
                </tr>
            }
        }
    };
    let (inspected_rows, other_rows) = task.with_value(|t| {
        let inspected = t
            .inspected
            .iter()
            .map(|p| file_row(p.path.as_str().to_string(), p.exists, p.lines.clone(), "test"))
            .collect_view();
        let others = t
            .files
            .iter()
            .filter(|f| !t.inspected.iter().any(|p| p.path == f.path))
            .map(|f| file_row(f.path.as_str().to_string(), true, Vec::new(), "instructions"))
            .collect::<Vec<_>>();
        (inspected, others)
    });
    let has_others = !other_rows.is_empty();

    let file_view = move || {
        open_file.get().map(|path| {
            let carried = task.with_value(|t| t.files.iter().find(|f| f.path.as_str() == path).cloned());
            let set_file = set_file.clone();
            let close = move |_| set_file(None);
            let body = match carried {
                None => view! {
                    <p class="muted" id="file-missing">
                        "This file is not carried in the bundle: only its name (and blob id, if the repository has it) is known."
                    </p>
                }
                .into_any(),
                Some(f) => {
                    let id = task.with_value(|t| t.id.clone());
                    let path = f.path.as_str().to_string();
                    let python = is_python_path(&path);
                    let bundle = crate::bundles::use_bundle().selected;
                    let content = LocalResource::new(move || {
                        let (bundle, id, path) = (bundle.get(), id.clone(), path.clone());
                        async move {
                            match crate::bundles::load_file(&bundle, &id, &path).await? {
                                Some(bytes) if bytes.contains(&0) => {
                                    Err(format!("{path} is a binary file ({} bytes), not shown", bytes.len()))
                                }
                                Some(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
                                None => Err(format!("{path} is not carried in the bundle")),
                            }
                        }
                    });
                    view! {
                        <Suspense fallback=|| view! { <p class="muted">"Loading the file…"</p> }>
                            {move || content.get().map(|r| match r {
                                Ok(text) => view! {
                                    <div class="code-box tall">
                                        <CodeView source=text python=python anchor="file"/>
                                    </div>
                                }.into_any(),
                                Err(e) => view! { <p class="error">{e}</p> }.into_any(),
                            })}
                        </Suspense>
                    }
                    .into_any()
                }
            };
            view! {
                <div class="file-view" id="file-view" data-path=path.clone()>
                    <div class="file-view-head">
                        <span class="mono">{path.clone()}</span>
                        <button type="button" class="btn-small" on:click=close>"close"</button>
                    </div>
                    {body}
                </div>
            }
        })
    };

    let (lazy, base_instr, descriptive, source) = task.with_value(|t| {
        (
            t.instructions.lazy.clone(),
            t.instructions.base.clone(),
            t.instructions.descriptive.clone(),
            t.test.source.clone(),
        )
    });
    view! {
        <div class="task-head">
            <h1 id="task-title" class="mono">{id.clone()}</h1>
            <a class="btn" id="score-link" href=score_href>"Score a patch for this task"</a>
        </div>
        <p class="muted task-meta">
            {format!("{repo} · test file {test_name} · {n_methods} test methods")}
        </p>
        <h2>"Instructions"</h2>
        <div class="instructions" id="instructions">
            <div class="instr" data-set="lazy"><h3>"Lazy"</h3><p class="instr-text">{lazy}</p></div>
            <div class="instr" data-set="base"><h3>"Base"</h3><p class="instr-text">{base_instr}</p></div>
            <div class="instr" data-set="descriptive"><h3>"Descriptive"</h3><p class="instr-text">{descriptive}</p></div>
        </div>
        <h2>"Test methods"</h2>
        <div class="tests-pane">
            <ul class="subtest-list" id="subtests">{subtests}</ul>
            <div class="code-box" id="test-source">
                <div class="code-title mono">{test_name.clone()}</div>
                <CodeView source=source python=true anchor="test" highlight=test_line/>
            </div>
        </div>
        <h2>"Files the tests inspect"</h2>
        <table class="table files" id="inspected-files">
            <thead><tr><th>"Path"</th><th>"Named by"</th><th>"Test lines"</th><th></th></tr></thead>
            <tbody>
                {inspected_rows}
                {has_others.then(|| view! {
                    <tr class="subhead"><td colspan="4">"Also carried: files the instructions name"</td></tr>
                })}
                {other_rows}
            </tbody>
        </table>
        {file_view}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "import unittest\n\nclass Base(unittest.TestCase):\n    def helper(self):\n        pass\n\n    def test_shared(self):\n        pass\n\nclass TestA(Base):\n    # comment\n\n    def test_b(self):\n        pass\n\n    async  def  test_a (self):\n        pass\n\nclass TestB(unittest.TestCase):\n    def test_b(self): pass\n";

    #[test]
    fn finds_def_lines_inside_the_right_class() {
        let methods: Vec<String> = [
            "TestA.test_a",
            "TestA.test_b",
            "TestA.test_shared",
            "TestB.test_b",
            "TestB.missing",
            "nodot",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            method_lines(SRC, &methods),
            vec![Some(16), Some(13), Some(7), Some(20), None, None]
        );
    }

    #[test]
    fn groups_methods_by_class_in_order() {
        let methods: Vec<String> = ["A.x", "A.y", "B.z"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            group_methods(&methods),
            vec![
                ("A".to_string(), vec![("x".to_string(), 0), ("y".to_string(), 1)]),
                ("B".to_string(), vec![("z".to_string(), 2)]),
            ]
        );
    }

    #[test]
    fn every_demo_method_has_a_def_line() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tasks/demo/tests");
        for repo in std::fs::read_dir(dir).unwrap() {
            for f in std::fs::read_dir(repo.unwrap().path()).unwrap() {
                let src = std::fs::read_to_string(f.unwrap().path()).unwrap();
                let mut methods = Vec::new();
                let mut class = String::new();
                for l in src.lines() {
                    if let Some(r) = l.strip_prefix("class ") {
                        class = r.split(['(', ':']).next().unwrap().trim().to_string();
                    } else if let Some(r) = l.trim_start().strip_prefix("def test") {
                        methods.push(format!("{class}.test{}", r.split('(').next().unwrap()));
                    }
                }
                assert!(!methods.is_empty());
                assert!(method_lines(&src, &methods).iter().all(Option::is_some));
            }
        }
    }
}
