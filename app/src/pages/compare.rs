//! `/compare?runs=A,B[,C…]`: runs side by side, named by the content hashes of their reports
//! (`Report::content_hash`), so a link names exactly what it compares. Every number comes from
//! `scorer::stats` (`matrix`, `compare`, `run_stats`, `aggregates`), the code the CLI's
//! `report --compare` prints. The first run is the baseline: flips and subtest deltas are of each
//! later run against it. Filters (`repo`, `set`, `only=flips|changed`) live in the URL.
//!
//! A run this browser lacks is named by its hash and can be imported from a report file, or from
//! the site's published reports (`leaderboard/published.json` entries with a `report` file) when one
//! of them has that hash.

use std::sync::Arc;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use scorer::report::Status;
use scorer::stats::{self, Comparison, GroupAcross, MatrixCell, RunKey, RunProfile, RunStats};

use crate::pages::run::pct;
use crate::routes::{Href, Query, Route};
use crate::runs::{use_session, StoredRun};

/// The comparison link of `hashes` (in this order).
pub fn compare_href(hashes: &[&str]) -> String {
    Route::Compare(Query::new().with("runs", hashes.join(","))).href()
}

/// The hashes a `runs` parameter names: comma-separated, each 16 lowercase hex digits (others are
/// dropped, so a mangled link cannot name a path or inject markup).
pub fn parse_runs(param: &str) -> Vec<String> {
    param
        .split(',')
        .map(str::trim)
        .filter(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_ascii_lowercase)
        .collect()
}

/// What the page filters by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Filters {
    repo: String,
    set: String,
    /// "", "flips" or "changed".
    only: String,
}

impl Filters {
    fn keeps_key(&self, key: &RunKey, repo: Option<&str>) -> bool {
        (self.repo.is_empty() || repo == Some(self.repo.as_str()))
            && (self.set.is_empty()
                || key.instruction_set.map(|s| s.as_str()) == Some(self.set.as_str()))
    }
}

/// A published report the leaderboard index lists (`entries[].report`).
#[derive(serde::Deserialize)]
struct Published {
    entries: Vec<PublishedEntry>,
}

#[derive(serde::Deserialize)]
struct PublishedEntry {
    id: String,
    #[serde(default)]
    report: Option<String>,
}

/// The published report whose content hash is `hash`: (entry id, report text). Hook for the
/// leaderboard: its index lists report files next to `published.json`; each is fetched and hashed.
async fn published_report(hash: &str) -> Option<(String, String, String)> {
    let index = crate::net::fetch_text("leaderboard/published.json").await.ok()?;
    let index: Published = serde_json::from_str(&index).ok()?;
    for e in index.entries {
        let Some(file) = e.report.filter(|f| crate::bundles::is_safe_relative(f)) else {
            continue;
        };
        let Ok(text) = crate::net::fetch_text(&format!("leaderboard/{file}")).await else {
            continue;
        };
        let Ok(report) = crate::runs::parse_report(&file, &text) else { continue };
        if report.content_hash() == hash {
            return Some((e.id, file, text));
        }
    }
    None
}

/// One run this browser lacks: its hash and the ways to import it.
#[component]
fn Missing(hash: String) -> impl IntoView {
    let session = use_session();
    let bundle = crate::bundles::use_bundle();
    let (message, set_message) = signal(None::<String>);
    let want = hash.clone();
    let import = move |name: String, text: String| {
        let want = want.clone();
        let bundle = bundle.selected.get_untracked();
        leptos::task::spawn_local(async move {
            // A published report of a bundle this site does not serve is still compared.
            match crate::runs::import_report(&name, &text, Some(&bundle)).await {
                Ok((_, got, _)) if got == want => session.runs_version.update(|v| *v += 1),
                Ok((_, got, _)) => {
                    set_message.set(Some(format!(
                        "{name} is run {got}, not {want}; it was imported, but this comparison still lacks {want}"
                    )));
                    session.runs_version.update(|v| *v += 1);
                }
                Err(e) => set_message.set(Some(e)),
            }
        });
    };
    let from_file = {
        let import = import.clone();
        move |ev: leptos::ev::Event| {
            let input: web_sys::HtmlInputElement = event_target(&ev);
            let Some(file) = input.files().and_then(|l| l.item(0)) else { return };
            let import = import.clone();
            leptos::task::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    Ok(t) => import(file.name(), t.as_string().unwrap_or_default()),
                    Err(e) => set_message.set(Some(crate::net::js_error_text(&e))),
                }
            });
        }
    };
    let published = LocalResource::new({
        let hash = hash.clone();
        move || {
            let hash = hash.clone();
            async move { published_report(&hash).await }
        }
    });
    view! {
        <div class="missing-run error-box" data-hash=hash.clone()>
            <p>"Run " <code>{hash.clone()}</code> " is not in this browser. Import its report ("
                <code>"refscore score … --out report.json"</code> ", or a run exported from this app):"</p>
            <label class="button">"Import a report file"
                <input class="visually-hidden import-missing" type="file" accept=".json,application/json"
                    on:change=from_file/>
            </label>
            {move || published.get().flatten().map(|(entry, file, text)| {
                let import = import.clone();
                view! {
                    <button type="button" class="import-published"
                        on:click=move |_| import(file.clone(), text.clone())>
                        {format!("Import the published report of {entry}")}
                    </button>
                }
            })}
            {move || message.get().map(|m| view! { <p class="error">{m}</p> })}
        </div>
    }
}

fn status(s: Option<Status>) -> &'static str {
    s.map_or("not run", |s| s.as_str())
}

fn cell_view(c: Option<MatrixCell>) -> impl IntoView {
    match c {
        None => view! { <td class="cell outcome-none">"—"</td> }.into_any(),
        Some(c) => {
            let class = format!("cell outcome-{}", c.outcome.as_str().replace(' ', "-"));
            view! {
                <td class=class>{c.outcome.as_str()}
                    <span class="muted">{format!(" {}/{}", c.passed, c.total)}</span></td>
            }
            .into_any()
        }
    }
}

/// A run's column label: its name and, for a run of one agent or one set, those.
fn label(run: &StoredRun, p: &RunProfile) -> String {
    let mut s = run.meta.name.clone();
    if let [m] = p.models.as_slice() {
        s.push_str(&format!(" · {m}"));
    }
    if let [set] = p.instruction_sets.as_slice() {
        s.push_str(&format!(" · {}", set.as_str()));
    }
    s
}

fn delta(d: Option<f64>) -> String {
    d.map_or_else(String::new, |d| format!(" ({d:+.1} pp)"))
}

/// A breakdown across runs: each run's resolved count and rate, and its delta from the first.
fn groups_table(
    id: &'static str,
    title: &'static str,
    labels: &[String],
    groups: Vec<GroupAcross>,
) -> impl IntoView {
    let head = labels.iter().map(|l| view! { <th class="num">{l.clone()}</th> }).collect_view();
    (!groups.is_empty()).then(|| {
        view! {
            <h3>{title}</h3>
            <table class="table compact" id=id>
                <thead><tr><th></th>{head}</tr></thead>
                <tbody>
                    {groups.into_iter().map(|g| {
                        let cells = (0..g.tallies.len()).map(|i| {
                            let text = g.tallies[i].as_ref().map_or_else(|| "—".to_string(), |t| {
                                format!("{}/{} {}{}", t.resolved, t.results, pct(t.resolved_pct),
                                    if i > 0 { delta(g.resolved_delta(i)) } else { String::new() })
                            });
                            view! { <td class="num">{text}</td> }
                        }).collect_view();
                        view! { <tr data-key=g.key.clone()><th>{g.key.clone()}</th>{cells}</tr> }
                    }).collect_view()}
                </tbody>
            </table>
        }
    })
}

/// The flips and subtest deltas of one later run against the first.
fn pair_view(
    i: usize,
    names: (&str, &str),
    c: &Comparison,
    keep: &dyn Fn(&RunKey) -> bool,
) -> impl IntoView {
    let flips: Vec<_> = c
        .lost
        .iter()
        .chain(&c.gained)
        .filter(|f| keep(&f.key))
        .map(|f| {
            let what = if f.now_resolved { "gained" } else { "lost" };
            view! {
                <li class=format!("flip flip-{what}") data-key=f.key.to_string() data-flip=what>
                    <strong>{what}</strong> " " {f.key.to_string()}
                </li>
            }
        })
        .collect_view();
    let deltas: Vec<_> = c.subtest_deltas.iter().filter(|d| keep(&d.key)).collect();
    let rows = deltas
        .iter()
        .map(|d| {
            view! {
                <tr class="subtest-delta">
                    <td>{d.key.to_string()}</td><td>{d.test.clone()}</td>
                    <td class=format!("status-{}", status(d.before).replace(' ', "-"))>{status(d.before)}</td>
                    <td class=format!("status-{}", status(d.after).replace(' ', "-"))>{status(d.after)}</td>
                </tr>
            }
        })
        .collect_view();
    let summary = format!(
        "{} common results: {} resolved before, {} after ({} gained, {} lost)",
        c.common,
        c.resolved_before,
        c.resolved_after,
        c.gained.len(),
        c.lost.len()
    );
    let only = |title: &'static str, keys: &[RunKey]| {
        let keys: Vec<String> = keys.iter().filter(|k| keep(k)).map(ToString::to_string).collect();
        (!keys.is_empty()).then(|| view! { <p class="muted">{title} {keys.join(", ")}</p> })
    };
    view! {
        <section class="pair" data-pair=i>
            <h2>{format!("{} → {}", names.0, names.1)}</h2>
            <p class="pair-summary">{summary}</p>
            {c.bundle_differs.then_some(view! {
                <p class="warning">"The reports were scored against different bundles."</p>
            })}
            <h3>"Flips"</h3>
            <ul class="flips">{flips}</ul>
            <h3>"Subtest changes"</h3>
            {if deltas.is_empty() {
                view! { <p class="muted">"None."</p> }.into_any()
            } else {
                view! {
                    <table class="table compact subtest-deltas">
                        <thead><tr><th>"Result"</th><th>"Test"</th><th>"Before"</th><th>"After"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                }.into_any()
            }}
            {only("Only in the first run:", &c.only_in_a)}
            {only("Only in this run:", &c.only_in_b)}
        </section>
    }
}

/// The link of the current comparison with one filter changed.
fn filter_href(hashes: &str, f: &Filters) -> String {
    let mut q = Query::new().with("runs", hashes);
    for (k, v) in [("repo", &f.repo), ("set", &f.set), ("only", &f.only)] {
        q = q.with(k, v.as_str());
    }
    Route::Compare(q).href()
}

fn compared(runs: Vec<Arc<StoredRun>>, hashes: String, f: Filters) -> impl IntoView {
    let reports: Vec<&scorer::report::Report> = runs.iter().map(|r| &r.report).collect();
    let mut tasks: Vec<stats::TaskMeta> = Vec::new();
    for r in &runs {
        for t in &r.tasks {
            if !tasks.iter().any(|x| x.instance_id == t.instance_id) {
                tasks.push(t.clone());
            }
        }
    }
    let matrix = stats::matrix(&reports, &tasks);
    let profiles: Vec<RunProfile> = reports.iter().map(|r| RunProfile::of(r)).collect();
    let labels: Vec<String> = runs.iter().zip(&profiles).map(|(r, p)| label(r, p)).collect();
    let all_stats: Vec<RunStats> = reports.iter().map(|r| stats::run_stats(r, &tasks)).collect();
    let ag = stats::aggregates(&all_stats);
    let repo_of =
        |k: &RunKey| tasks.iter().find(|t| t.instance_id == k.instance_id).map(|t| t.repo.clone());
    let keep = |k: &RunKey| f.keeps_key(k, repo_of(k).as_deref());
    let pairs = (1..reports.len())
        .map(|i| {
            let c = stats::compare(reports[0], reports[i]);
            pair_view(i, (&labels[0], &labels[i]), &c, &keep)
        })
        .collect_view();
    let mode = match (matrix.matching.by_model, matrix.matching.by_instruction_set) {
        (_, false) => "Instruction sets side by side: results matched by task (and model), not by instruction set.",
        (false, true) => "Results matched by task and instruction set (the runs share no model name).",
        (true, true) => "Results matched by task, model and instruction set.",
    };
    // Filter choices: the repositories and sets of the matrix's rows.
    let mut repos: Vec<String> = matrix.rows.iter().filter_map(|r| r.repo.clone()).collect();
    repos.sort();
    repos.dedup();
    let mut sets: Vec<&str> =
        matrix.rows.iter().filter_map(|r| r.key.instruction_set.map(|s| s.as_str())).collect();
    sets.sort_by_key(|s| scorer::report::InstructionSet::from_name(s));
    sets.dedup();
    let link = |label: String, id: String, g: Filters, on: bool| {
        view! {
            <a class="filter" id=id href=filter_href(&hashes, &g) aria-current=on.then_some("true")>{label}</a>
        }
    };
    let mut choices = Vec::new();
    choices.push(link(
        "All repositories".into(),
        "filter-repo-all".into(),
        Filters { repo: String::new(), ..f.clone() },
        f.repo.is_empty(),
    ));
    for r in &repos {
        choices.push(link(
            r.clone(),
            format!("filter-repo-{r}"),
            Filters { repo: r.clone(), ..f.clone() },
            f.repo == *r,
        ));
    }
    let mut set_choices = Vec::new();
    if !sets.is_empty() {
        set_choices.push(link(
            "All sets".into(),
            "filter-set-all".into(),
            Filters { set: String::new(), ..f.clone() },
            f.set.is_empty(),
        ));
        for s in &sets {
            set_choices.push(link(
                (*s).into(),
                format!("filter-set-{s}"),
                Filters { set: (*s).into(), ..f.clone() },
                f.set == *s,
            ));
        }
    }
    let only_choices: Vec<_> =
        [("", "All rows"), ("flips", "Only flips"), ("changed", "Only changed")]
            .into_iter()
            .map(|(v, l)| {
                link(
                    l.into(),
                    format!("filter-only-{}", if v.is_empty() { "all" } else { v }),
                    Filters { only: v.into(), ..f.clone() },
                    f.only == v,
                )
            })
            .collect();
    let header = labels
        .iter()
        .zip(&runs)
        .map(|(l, r)| view! { <th><a href=r.meta.route().href()>{l.clone()}</a></th> })
        .collect_view();
    let rows = matrix
        .rows
        .into_iter()
        .filter(|r| keep(&r.key))
        .filter(|r| match f.only.as_str() {
            "flips" => r.flip,
            "changed" => r.changed,
            _ => true,
        })
        .map(|r| {
            let class = if r.flip { "flip-row" } else if r.changed { "changed-row" } else { "" };
            view! {
                <tr class=class data-key=r.key.to_string()>
                    <td>{r.key.to_string()}{r.flip.then_some(view! { <span class="badge">"flip"</span> })}</td>
                    <td class="muted">{r.repo.clone().unwrap_or_else(|| "?".into())}</td>
                    {r.cells.into_iter().map(cell_view).collect_view()}
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="muted" id="compare-mode">{mode}</p>
        <nav class="filters" aria-label="Repository">{choices}</nav>
        {(!set_choices.is_empty()).then(|| view! { <nav class="filters" aria-label="Instruction set">{set_choices}</nav> })}
        <nav class="filters" aria-label="Rows">{only_choices}</nav>
        {pairs}
        <h2>"Task × run"</h2>
        <table class="table compact" id="compare-matrix">
            <thead><tr><th>"Result"</th><th>"Repository"</th>{header}</tr></thead>
            <tbody>{rows}</tbody>
        </table>
        <h2>"Aggregates"</h2>
        <p class="muted">"Resolved of results per run; deltas in percentage points from the first run."</p>
        {groups_table("agg-overall", "Overall", &labels, vec![ag.overall])}
        {groups_table("agg-repo", "By repository", &labels, ag.by_repo)}
        {groups_table("agg-set", "By instruction set", &labels, ag.by_instruction_set)}
    }
}

/// "Compare with…" on a run page: the other stored runs, each opening the comparison with this
/// run as the baseline.
#[component]
pub fn CompareWith(hash: String) -> impl IntoView {
    let navigate = leptos_router::hooks::use_navigate();
    let runs = LocalResource::new(crate::store::list_runs);
    let this = hash.clone();
    let on_change = move |ev: leptos::ev::Event| {
        let other = event_target_value(&ev);
        if !other.is_empty() {
            navigate(&compare_href(&[this.as_str(), other.as_str()]), Default::default());
        }
    };
    (!hash.is_empty()).then(|| {
        view! {
            <select id="compare-with" aria-label="Compare this run with another" on:change=on_change>
                <option value="">"Compare with…"</option>
                {move || runs.get().and_then(Result::ok).map(|list| {
                    list.into_iter().filter(|r| !r.hash.is_empty() && r.hash != hash).map(|r| {
                        view! { <option value=r.hash.clone()>{r.name.clone()}</option> }
                    }).collect_view()
                })}
            </select>
        }
    })
}

#[component]
pub fn ComparePage() -> impl IntoView {
    let query = use_query_map();
    let session = use_session();
    let hashes = Memo::new(move |_| parse_runs(&query.read().get("runs").unwrap_or_default()));
    let filters = Memo::new(move |_| {
        let q = query.read();
        Filters {
            repo: q.get("repo").unwrap_or_default(),
            set: q.get("set").unwrap_or_default(),
            only: q.get("only").unwrap_or_default(),
        }
    });
    let found = LocalResource::new(move || {
        let hashes = hashes.get();
        session.runs_version.track();
        async move { crate::runs::runs_by_hash(&hashes).await }
    });
    view! {
        <section class="compare-page">
            <h1>"Compare runs"</h1>
            <Suspense fallback=|| view! { <p class="muted">"Loading the runs…"</p> }>
                {move || found.get().map(|res| {
                    let hashes = hashes.get();
                    if hashes.len() < 2 {
                        return view! { <p id="compare-help" class="muted">"Pick two or more runs to compare on the "
                            <a href=Route::Runs.href()>"runs page"</a> "."</p> }.into_any();
                    }
                    match res {
                        Err(e) => view! { <p class="error">{e}</p> }.into_any(),
                        Ok(runs) if runs.iter().any(Option::is_none) => {
                            let missing = hashes.iter().zip(&runs).filter(|(_, r)| r.is_none())
                                .map(|(h, _)| view! { <Missing hash=h.clone()/> }).collect_view();
                            view! { <div id="compare-missing">{missing}</div> }.into_any()
                        }
                        Ok(runs) => compared(runs.into_iter().flatten().collect(), hashes.join(","), filters.get()).into_any(),
                    }
                })}
            </Suspense>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_parameter_keeps_only_hashes() {
        assert_eq!(
            parse_runs("0123456789abcdef, FEDCBA9876543210,../x,abc"),
            ["0123456789abcdef", "fedcba9876543210"]
        );
        assert!(parse_runs("").is_empty());
    }
}
