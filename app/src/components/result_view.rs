//! One submission's result for one task: resolved or not, the patch outcome, every test method's
//! verdict with its message, the failing line in the test source, and the diff.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use scorer::patch::PatchStatus;
use scorer::report::{Status, TaskResult, TestOutcome};

use crate::components::charts::{StackedBar, StatusCounts};
use crate::components::code::CodeView;
use crate::components::diff::DiffView;

/// The CSS class of a verdict badge.
pub fn status_class(status: Status) -> &'static str {
    match status {
        Status::Pass => "badge badge-pass",
        Status::Fail => "badge badge-fail",
        Status::Error => "badge badge-error",
        Status::Skip => "badge badge-skip",
    }
}

/// The method to show first: the first fail/error with a line, else the first fail/error.
pub fn first_failure(tests: &[TestOutcome]) -> Option<usize> {
    let bad = |t: &&TestOutcome| matches!(t.status, Status::Fail | Status::Error);
    tests
        .iter()
        .position(|t| bad(&t) && t.line.is_some())
        .or_else(|| tests.iter().position(|t| bad(&t)))
}

/// Context for a SyntaxError that `ast.parse` raised on source text (CPython names no file,
/// `<unknown>`): the Python files this test read that the patch changed, which hold the line it
/// names. `None` when the error names its file or no such file is known.
pub fn syntax_context(t: &TestOutcome, files: &[scorer::patch::FileOutcome]) -> Option<String> {
    let syntax =
        matches!(t.exc_type.as_deref(), Some("SyntaxError" | "IndentationError" | "TabError"));
    if !syntax || !t.message.as_deref().is_some_and(|m| m.contains("(<unknown>, line ")) {
        return None;
    }
    let changed: Vec<&str> = t
        .reads
        .iter()
        .filter(|r| r.ends_with(".py") && files.iter().any(|f| f.path == **r))
        .map(String::as_str)
        .collect();
    match changed.as_slice() {
        [] => None,
        [one] => Some(format!("The test parsed {one}: the file it read that the patch changed.")),
        many => Some(format!(
            "The test parsed one of the files it read that the patch changed: {}.",
            many.join(", ")
        )),
    }
}

/// One line of text describing the patch outcome.
pub fn patch_summary(r: &TaskResult) -> String {
    match r.patch_status {
        PatchStatus::None => "empty patch: the base repository was tested".to_string(),
        PatchStatus::Applied => {
            let n = r.files.len();
            format!("patch applied ({n} file{})", if n == 1 { "" } else { "s" })
        }
        // git's own message often starts "patch failed: <file>:<line>": not said twice.
        PatchStatus::Failed => match &r.patch_error {
            Some(e) if e.starts_with("patch failed") => e.clone(),
            Some(e) => format!("patch failed: {e}"),
            None => "patch failed".to_string(),
        },
    }
}

/// A scored submission. `test_source` is the task's test file, `patch` the submitted text,
/// `inspected` the repository paths the tests read (`TaskData::inspected`).
#[component]
pub fn ResultView(
    /// The scorer's result for this submission.
    result: TaskResult,
    /// The task's test file (`TaskData::test.source`).
    #[prop(into)]
    test_source: String,
    /// The submitted patch text (empty for an empty patch).
    #[prop(into)]
    patch: String,
    /// Paths the tests inspect, to mark them in the diff.
    #[prop(optional)]
    inspected: Vec<String>,
    /// The patch text is not known (a report imported without its submissions).
    #[prop(optional)]
    patch_missing: bool,
) -> impl IntoView {
    let counts = StatusCounts::of(&result.tests);
    let tests = result.tests.clone();
    // `?test=<id>` names the selected method (a deep link); else the first failure is shown.
    let query = use_query_map();
    let named = |q: Option<String>| q.and_then(|id| tests.iter().position(|t| t.id == id));
    let selected =
        RwSignal::new(named(query.read_untracked().get("test")).or_else(|| first_failure(&tests)));
    Effect::new({
        let ids: Vec<String> = tests.iter().map(|t| t.id.clone()).collect();
        move |_| {
            let want = query.read().get("test");
            if let Some(i) = want.and_then(|id| ids.iter().position(|t| *t == id)) {
                if selected.get_untracked() != Some(i) {
                    selected.set(Some(i));
                }
            }
        }
    });
    let navigate = use_navigate();
    let ids = StoredValue::new(tests.iter().map(|t| t.id.clone()).collect::<Vec<_>>());
    // Selecting a method puts it in the URL (replacing the entry: selection is not history).
    let select = move |i: usize| {
        selected.set(Some(i));
        let Some(id) = ids.with_value(|v| v.get(i).cloned()) else { return };
        let Some(loc) = web_sys::window().map(|w| w.location()) else { return };
        let path = loc.pathname().unwrap_or_default();
        let q = crate::routes::Query::parse(&loc.search().unwrap_or_default()).set("test", id);
        navigate(
            &format!("{path}{}", q.render()),
            NavigateOptions { resolve: false, replace: true, scroll: false, ..Default::default() },
        );
    };
    let highlight = Signal::derive({
        let tests = tests.clone();
        move || selected.get().and_then(|i| tests.get(i)).and_then(|t| t.line)
    });
    let resolved = result.resolved;
    let patch_failed = result.patch_status == PatchStatus::Failed;
    let rows = tests
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let failing = matches!(t.status, Status::Fail | Status::Error);
            let line = t.line;
            let status = t.status;
            let msg = t.message.clone().unwrap_or_default();
            let select = select.clone();
            let select_line = select.clone();
            view! {
                <tr class="subtest" data-test-id=t.id.clone() data-status=status.as_str()
                    class:selected=move || selected.get() == Some(i)
                    class:clickable=true
                    on:click=move |_| select(i)>
                    <td class="mono"><button class="linkish mono test-select" type="button"
                        aria-pressed=move || if selected.get() == Some(i) { "true" } else { "false" }>
                        {t.id.clone()}</button></td>
                    <td><span class=status_class(status)>{status.as_str()}</span></td>
                    <td class="mono">{t.exc_type.clone()}</td>
                    <td class="msg">{msg}</td>
                    <td>
                        {line.map(|l| if failing {
                            view! {
                                <button class="linkish" type="button"
                                    on:click=move |ev| { ev.stop_propagation(); select_line(i) }>
                                    {format!("line {l}")}
                                </button>
                            }.into_any()
                        } else {
                            view! { <span class="muted">{format!("line {l}")}</span> }.into_any()
                        })}
                    </td>
                </tr>
            }
        })
        .collect_view();
    let focus = {
        let tests = tests.clone();
        let files = result.files.clone();
        move || {
            selected.get().and_then(|i| tests.get(i)).map(|t| {
                let context = syntax_context(t, &files)
                    .map(|c| view! { <p class="muted" id="syntax-context">{c}</p> });
                let where_ = t.line.map(|l| format!(" at line {l}")).unwrap_or_default();
                view! {
                    <p class="focus" id="result-focus">
                        <span class=status_class(t.status)>{t.status.as_str()}</span>" "
                        <span class="mono">{t.id.clone()}</span>{where_}": "
                        <span class="mono">{t.exc_type.clone().unwrap_or_default()}</span>
                        {t.message.clone().map(|m| format!(": {m}"))}
                    </p>
                    {context}
                }
            })
        }
    };
    let patch_line = patch_summary(&result);
    let resolved_class =
        if resolved { "badge badge-big badge-pass" } else { "badge badge-big badge-fail" };
    view! {
        <div class="result-view">
            <div class="result-head">
                <span id="result-resolved" class=resolved_class>
                    {if resolved { "resolved" } else { "unresolved" }}
                </span>
                <span id="result-patch" class="result-patch" class:error=patch_failed>{patch_line}</span>
                <span id="result-counts" class="result-counts">
                    {if patch_failed {
                        "tests not run: the patch did not apply".to_string()
                    } else {
                        format!("{} of {} test methods passed", result.subtests_passed, result.subtests_total)
                    }}
                </span>
            </div>
            <StackedBar counts=counts id="result-bar"/>
            <table class="table subtests" id="result-subtests">
                <thead><tr><th>"Test method"</th><th>"Verdict"</th><th>"Exception"</th><th>"Message"</th><th>"Line"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <h2>"Test file"</h2>
            {focus}
            <div class="code-box" id="result-test-source">
                <CodeView source=test_source python=true anchor="result-test" highlight=highlight/>
            </div>
            <h2>"Patch"</h2>
            <DiffView patch=patch outcomes=result.files.clone() inspected=inspected patch_failed=patch_failed
                patch_missing=patch_missing/>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(id: &str, status: Status, line: Option<u32>) -> TestOutcome {
        TestOutcome {
            id: id.into(),
            status,
            exc_type: None,
            message: None,
            line,
            reads: Vec::new(),
        }
    }

    #[test]
    fn a_syntax_error_of_ast_parse_names_the_changed_file_the_test_read() {
        let file = |path: &str| scorer::patch::FileOutcome {
            path: path.into(),
            old_path: None,
            kind: scorer::patch::FileChangeKind::Modify,
            result: scorer::patch::FileResult::Applied,
            rejected_hunks: Vec::new(),
        };
        let mut t = t("A.a", Status::Error, Some(3));
        t.exc_type = Some("SyntaxError".into());
        t.message = Some("'(' was never closed (<unknown>, line 56)".into());
        t.reads = vec!["pkg/cli.py".into(), "pkg/other.py".into(), "README.md".into()];
        let files = [file("pkg/cli.py"), file("README.md")];
        assert_eq!(
            syntax_context(&t, &files).as_deref(),
            Some("The test parsed pkg/cli.py: the file it read that the patch changed.")
        );
        assert_eq!(syntax_context(&t, &[]), None);
        // A SyntaxError that names its file needs no context.
        t.message = Some("invalid syntax (cli.py, line 56)".into());
        assert_eq!(syntax_context(&t, &files), None);
    }

    #[test]
    fn git_s_patch_failed_is_not_said_twice() {
        let failed = |e: Option<&str>| {
            let mut v = serde_json::json!({
                "instance_id": "t", "patch_status": "failed", "resolved": false,
                "subtests_passed": 0, "subtests_total": 3, "tests": [],
            });
            if let Some(e) = e {
                v["patch_error"] = e.into();
            }
            serde_json::from_value::<TaskResult>(v).unwrap()
        };
        assert_eq!(patch_summary(&failed(Some("patch failed: a.py:3"))), "patch failed: a.py:3");
        assert_eq!(
            patch_summary(&failed(Some("corrupt patch at line 5"))),
            "patch failed: corrupt patch at line 5"
        );
        assert_eq!(patch_summary(&failed(None)), "patch failed");
    }

    #[test]
    fn first_failure_prefers_a_failure_with_a_line() {
        let tests = vec![
            t("A.a", Status::Pass, None),
            t("A.b", Status::Error, None),
            t("A.c", Status::Fail, Some(12)),
        ];
        assert_eq!(first_failure(&tests), Some(2));
        assert_eq!(first_failure(&tests[..2]), Some(1));
        assert_eq!(first_failure(&tests[..1]), None);
    }
}
