//! `/`: the leaderboard. The published results (`leaderboard/published.json`, format in
//! `tasks/LEADERBOARD.md`) with their sources, beside the runs stored in this browser, marked
//! "local" (each run's results of one model and instruction set become a row through
//! `scorer::leaderboard::entry_from_report`). Sorting and filters live in the URL query; ranked
//! rows and flagged rows (grader in the loop, partial, non-agent, note only) are shown apart.
//!
//! An entry with a report behind it opens at `/leaderboard/:entry`: the run view over the report,
//! fetched from the site and held in memory only (never stored as the user's run).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use scorer::leaderboard::{
    self, Cost, CostUnit, Entry, Flags, Harness, Leaderboard, RunLabel, Source,
};
use scorer::report::{InstructionSet, Report};
use scorer::stats::{run_stats, Group, TaskMeta};
use wasm_bindgen::JsValue;

use crate::components::charts::{Bar, BarChart};
use crate::pages::tasks::TasksPage;
use crate::routes::{Href, Query, Route, RunRef};
use crate::runs::{RunMeta, StoredRun};

/// The leaderboard file, relative to the site's base.
pub const FILE: &str = "leaderboard/published.json";

type Load<T> = Shared<LocalBoxFuture<'static, Result<T, String>>>;

thread_local! {
    static BOARD: RefCell<Option<Load<Rc<Leaderboard>>>> = const { RefCell::new(None) };
    static REPORTS: RefCell<HashMap<String, Load<Arc<StoredRun>>>> = RefCell::new(HashMap::new());
}

fn field(o: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text_of(o: &JsValue, key: &str) -> Option<String> {
    field(o, key).as_string()
}

/// A non-negative whole number that fits a `u32`.
fn count_of(o: &JsValue, key: &str) -> Option<u32> {
    field(o, key)
        .as_f64()
        .filter(|v| v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(v))
        .map(|v| v as u32)
}

fn strings_of(o: &JsValue) -> Vec<String> {
    if js_sys::Array::is_array(o) {
        js_sys::Array::from(o).iter().filter_map(|v| v.as_string()).collect()
    } else {
        Vec::new()
    }
}

/// Parses and validates the leaderboard file as `scorer::leaderboard::read` does (version, the
/// fields `Entry` requires, then `leaderboard::validate`), but through the browser's `JSON.parse`:
/// serde's deserializers for the entry types would cost the first-visit wasm ~20 KB.
pub fn parse_board(text: &str) -> Result<Leaderboard, String> {
    let v = js_sys::JSON::parse(text)
        .map_err(|e| format!("{FILE}: invalid JSON: {}", crate::net::js_error_text(&e)))?;
    let want = leaderboard::LEADERBOARD_SCHEMA_VERSION;
    if count_of(&v, "schema_version") != Some(want) {
        return Err(format!("{FILE}: schema_version is not {want}"));
    }
    let list = field(&v, "entries");
    if !js_sys::Array::is_array(&list) {
        return Err(format!("{FILE}: no `entries` list"));
    }
    let mut entries = Vec::new();
    for (i, e) in js_sys::Array::from(&list).iter().enumerate() {
        let name = text_of(&e, "id").map_or_else(|| format!("#{}", i + 1), |s| format!("{s:?}"));
        let bad = |k: &str, what: &str| format!("{FILE}: entry {name}: field {k}: {what}");
        let req = |o: &JsValue, k: &str| text_of(o, k).ok_or_else(|| bad(k, "missing"));
        let instruction_set = match text_of(&e, "instruction_set") {
            None => None,
            Some(s) => Some(
                InstructionSet::from_name(&s)
                    .ok_or_else(|| bad("instruction_set", "not lazy, base or descriptive"))?,
            ),
        };
        let harness = match req(&e, "harness")?.as_str() {
            "official" => Harness::Official,
            "third_party" => Harness::ThirdParty,
            _ => return Err(bad("harness", "not official or third_party")),
        };
        let c = field(&e, "cost");
        let cost = if c.is_object() {
            let per = match text_of(&c, "per").as_deref() {
                Some("solved_instance") => CostUnit::SolvedInstance,
                Some("query") => CostUnit::Query,
                _ => return Err(bad("cost", "per is not solved_instance or query")),
            };
            Some(Cost { usd: field(&c, "usd").as_f64().ok_or_else(|| bad("cost", "no usd"))?, per })
        } else {
            None
        };
        let src = field(&e, "source");
        let f = field(&e, "flags");
        let flag = |k: &str| field(&f, k).as_bool().unwrap_or(false);
        entries.push(Entry {
            id: req(&e, "id")?,
            agent: req(&e, "agent")?,
            model: text_of(&e, "model"),
            instruction_set,
            setup: text_of(&e, "setup"),
            resolved: field(&e, "resolved").as_f64(),
            resolved_count: count_of(&e, "resolved_count"),
            submitted: count_of(&e, "submitted"),
            resolved_of_submitted: field(&e, "resolved_of_submitted").as_f64(),
            subtests: field(&e, "subtests").as_f64(),
            cost,
            n: count_of(&e, "n"),
            runs: count_of(&e, "runs").unwrap_or(1),
            date: text_of(&e, "date"),
            source: Source {
                name: req(&src, "name")?,
                url: text_of(&src, "url"),
                location: req(&src, "location")?,
            },
            harness,
            harness_name: req(&e, "harness_name")?,
            notes: strings_of(&field(&e, "notes")),
            flags: Flags {
                grader_in_loop: flag("grader_in_loop"),
                partial: flag("partial"),
                uncertain: flag("uncertain"),
                non_agent: flag("non_agent"),
                note_only: flag("note_only"),
            },
            report: text_of(&e, "report"),
        });
    }
    let board = Leaderboard { schema_version: want, entries };
    leaderboard::validate(&board, FILE).map_err(|e| e.to_string())?;
    Ok(board)
}

/// The published leaderboard, fetched once per page load (revalidated with the server).
pub async fn load_board() -> Result<Rc<Leaderboard>, String> {
    let fut = BOARD.with(|b| {
        let mut slot = b.borrow_mut();
        if let Some(f) = slot.as_ref().filter(|f| !matches!(f.peek(), Some(Err(_)))) {
            return f.clone();
        }
        let fut: Load<Rc<Leaderboard>> =
            async { parse_board(&crate::net::fetch_text_fresh(FILE).await?).map(Rc::new) }
                .boxed_local()
                .shared();
        *slot = Some(fut.clone());
        fut
    });
    fut.await
}

/// "agent · model · setup".
pub fn entry_label(e: &Entry) -> String {
    let mut parts = vec![e.agent.as_str()];
    parts.extend(e.model.as_deref());
    parts.extend(e.setup.as_deref());
    parts.join(" · ")
}

/// The report behind a published entry as a run (in memory, never stored): the report is
/// fetched from next to `published.json`; its tasks' metadata from the bundle it was scored
/// against (found by hash among the site's bundles, else the default bundle).
pub async fn load_published_run(id: String) -> Result<Option<Arc<StoredRun>>, String> {
    let fut = REPORTS.with(|r| {
        let mut map = r.borrow_mut();
        if let Some(f) = map.get(&id).filter(|f| !matches!(f.peek(), Some(Err(_)))) {
            return f.clone();
        }
        let fut = published_run(id.clone()).boxed_local().shared();
        map.insert(id.clone(), fut.clone());
        fut
    });
    fut.await.map(Some)
}

async fn published_run(id: String) -> Result<Arc<StoredRun>, String> {
    let board = load_board().await?;
    let entry = board
        .entries
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| format!("The leaderboard has no entry {id:?}."))?;
    let file = entry
        .report
        .clone()
        .ok_or_else(|| format!("{id}: published figures, no per-task data."))?;
    let text = crate::net::fetch_text_fresh(&format!("leaderboard/{file}")).await?;
    let report = crate::runs::parse_report(&file, &text)?;
    let list = crate::bundles::load_bundle_list().await?;
    let bundle = list
        .bundles
        .iter()
        .find(|b| b.bundle_hash == report.bundle.hash)
        .map_or_else(|| list.default.clone(), |b| b.name.clone());
    let mut ids: Vec<&str> = report.results.iter().map(|r| r.instance_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut tasks = Vec::new();
    for t in ids {
        if let Ok(task) = crate::bundles::load_task(&bundle, t).await {
            tasks.push(TaskMeta::from_task(&task));
        }
    }
    let meta = RunMeta {
        id: id.clone(),
        name: entry_label(entry),
        created_ms: 0.0,
        bundle,
        bundle_hash: report.bundle.hash.clone(),
        sources: vec![file],
        results: u32::try_from(report.results.len()).unwrap_or(u32::MAX),
        resolved: report.summary.resolved_instances,
        errors: u32::try_from(report.errors.len()).unwrap_or(u32::MAX),
        imported: true,
        published: true,
        hash: report.content_hash(),
        profile: Some(scorer::stats::RunProfile::of(&report)),
    };
    Ok(Arc::new(StoredRun {
        meta,
        report,
        tasks,
        patches: Vec::new(),
        trajectories: Default::default(),
    }))
}

/// One row of the table: a published entry or a local run's.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub entry: Entry,
    pub local: bool,
    /// The in-app route of the per-task view, when there is per-task data.
    pub link: Option<String>,
    /// Resolved % by repository and by number of inspected files (local rows; published rows
    /// get theirs when their report is loaded).
    pub breakdown: Option<Arc<(Vec<Group>, Vec<Group>)>>,
}

impl Row {
    pub fn published(entry: Entry) -> Row {
        let link = entry.report.as_ref().map(|_| {
            Route::Run { run: RunRef::published(entry.id.clone()), query: Query::new() }.path()
        });
        Row { entry, local: false, link, breakdown: None }
    }
}

/// A stored run as rows: one per (model, instruction set) of its results, rated over the bundle's
/// tasks (`bundle_tasks`; the run's own tasks when the bundle is not at hand).
pub fn local_rows(run: &StoredRun, bundle_tasks: &[TaskMeta]) -> Vec<Row> {
    let tasks = if bundle_tasks.is_empty() { &run.tasks[..] } else { bundle_tasks };
    // (model, instruction set) in first-seen order, with the indices of their results.
    type GroupKey = (Option<String>, Option<InstructionSet>);
    let mut groups: Vec<(GroupKey, Vec<usize>)> = Vec::new();
    for (i, r) in run.report.results.iter().enumerate() {
        let k = (r.model_name_or_path.clone(), r.instruction_set);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, items)) => items.push(i),
            None => groups.push((k, vec![i])),
        }
    }
    let single = groups.len() == 1;
    let mut rows = Vec::new();
    for (k, ((model, set), items)) in groups.into_iter().enumerate() {
        let results = items.iter().map(|&i| run.report.results[i].clone()).collect();
        // Entry errors belong to the run as a whole: counted only when it is one row.
        let errors = if single { run.report.errors.clone() } else { Vec::new() };
        let report = Report::new(&run.report.bundle.hash, results, errors);
        let label = RunLabel {
            id: format!("local-{}-{k}", run.meta.id),
            agent: run.meta.name.clone(),
            model,
            instruction_set: set.unwrap_or(InstructionSet::Base),
            report: None,
        };
        let Ok(mut entry) = leaderboard::entry_from_report(&report, tasks, label) else { continue };
        // A run whose results name no set is not claimed to be one.
        entry.instruction_set = set;
        let stats = run_stats(&report, &run.tasks);
        rows.push(Row {
            entry,
            local: true,
            link: Some(run.meta.route().path()),
            breakdown: Some(Arc::new((stats.by_repo, stats.by_inspected_files))),
        });
    }
    rows
}

/// The user's stored runs as rows (a run that cannot be read is left out).
async fn load_local_rows() -> Vec<Row> {
    let Ok(list) = crate::store::list_runs().await else { return Vec::new() };
    let mut rows = Vec::new();
    for meta in list {
        let Ok(Some(run)) = crate::store::load_run(&meta.id).await else { continue };
        let bundle_tasks: Vec<TaskMeta> = match crate::bundles::load_index(&run.meta.bundle).await {
            Ok(index) => index
                .tasks
                .iter()
                .map(|t| TaskMeta {
                    instance_id: t.id.clone(),
                    repo: t.repo.clone(),
                    inspected_files: 0,
                    methods: t.methods,
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        rows.extend(local_rows(&run, &bundle_tasks));
    }
    rows
}

/// A sortable column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Col {
    Agent,
    Model,
    Setup,
    Set,
    Resolved,
    N,
    Subtests,
    Cost,
    Harness,
    Source,
    Date,
    Data,
}

impl Col {
    pub const ALL: [Col; 12] = [
        Col::Agent,
        Col::Model,
        Col::Setup,
        Col::Set,
        Col::Resolved,
        Col::N,
        Col::Subtests,
        Col::Cost,
        Col::Harness,
        Col::Source,
        Col::Date,
        Col::Data,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Col::Agent => "agent",
            Col::Model => "model",
            Col::Setup => "setup",
            Col::Set => "set",
            Col::Resolved => "resolved",
            Col::N => "n",
            Col::Subtests => "subtests",
            Col::Cost => "cost",
            Col::Harness => "harness",
            Col::Source => "source",
            Col::Date => "date",
            Col::Data => "data",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Col::Agent => "Agent",
            Col::Model => "Model",
            Col::Setup => "Setup",
            Col::Set => "Instructions",
            Col::Resolved => "Resolved",
            Col::N => "n",
            Col::Subtests => "Subtests",
            Col::Cost => "Cost (USD)",
            Col::Harness => "Harness",
            Col::Source => "Source",
            Col::Date => "Date",
            Col::Data => "Data",
        }
    }

    pub fn from_name(s: &str) -> Option<Col> {
        Col::ALL.into_iter().find(|c| c.name() == s)
    }

    /// Numbers sort from the largest first when first clicked, text from A.
    fn numeric(self) -> bool {
        matches!(self, Col::Resolved | Col::N | Col::Subtests | Col::Cost)
    }
}

/// A row's sort key in one column; rows without a value sort last in either direction.
#[derive(Debug, Clone, PartialEq)]
enum Key {
    Num(f64),
    Text(String),
}

fn key(row: &Row, col: Col) -> Option<Key> {
    let e = &row.entry;
    let text = |s: &str| Some(Key::Text(s.to_lowercase()));
    match col {
        Col::Agent => text(&e.agent),
        Col::Model => e.model.as_deref().and_then(text),
        Col::Setup => e.setup.as_deref().and_then(text),
        // lazy < base < descriptive, the benchmark's order.
        Col::Set => e.instruction_set.map(|s| Key::Num(s as u8 as f64)),
        Col::Resolved => e.resolved.map(Key::Num),
        Col::N => e.n.map(|n| Key::Num(f64::from(n))),
        Col::Subtests => e.subtests.map(Key::Num),
        Col::Cost => e.cost.as_ref().map(|c| Key::Num(c.usd)),
        Col::Harness => text(harness_name(e.harness)),
        Col::Source => text(&e.source.name),
        Col::Date => e.date.as_deref().and_then(text),
        Col::Data => text(data_label(row)),
    }
}

fn harness_name(h: Harness) -> &'static str {
    match h {
        Harness::Official => "official",
        Harness::ThirdParty => "third-party",
    }
}

fn data_label(row: &Row) -> &'static str {
    match (row.local, row.link.is_some()) {
        (true, _) => "local run",
        (false, true) => "per-task data",
        (false, false) => "published figures, no per-task data",
    }
}

fn compare(a: &Row, b: &Row, col: Col, desc: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match (key(a, col), key(b, col)) {
        (Some(x), Some(y)) => {
            let o = match (x, y) {
                (Key::Num(x), Key::Num(y)) => x.total_cmp(&y),
                (Key::Text(x), Key::Text(y)) => x.cmp(&y),
                (Key::Num(_), Key::Text(_)) => Less,
                (Key::Text(_), Key::Num(_)) => Greater,
            };
            if desc {
                o.reverse()
            } else {
                o
            }
        }
        (Some(_), None) => Less,
        (None, Some(_)) => Greater,
        (None, None) => Equal,
    }
}

/// Sorts rows by `col` (stable: equal keys keep the file's order), missing values last. An
/// insertion sort: a table of tens of rows, and no other instance of the standard sort in the
/// first-visit wasm.
pub fn sort_rows(rows: &mut [Row], col: Col, desc: bool) {
    for i in 1..rows.len() {
        let mut j = i;
        while j > 0 && compare(&rows[j - 1], &rows[j], col, desc) == std::cmp::Ordering::Greater {
            rows.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The model family a filter groups by: the model's leading letters, lower-cased (`GPT-4o` →
/// `gpt`, `Claude 3.5 Sonnet` → `claude`, `qwen3.6-flash` → `qwen`); `none` without a model.
pub fn family(model: Option<&str>) -> String {
    let f: String = model
        .unwrap_or("")
        .trim()
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if f.is_empty() {
        "none".to_string()
    } else {
        f
    }
}

/// Everything the page shows, as the URL query says it (`sort`, `dir`, `set`, `harness`,
/// `family`, `data`); defaults are left out of the URL.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewState {
    pub sort: Col,
    pub desc: bool,
    /// `lazy` | `base` | `descriptive`, or empty for all.
    pub set: String,
    /// `official` | `third_party`, or empty.
    pub harness: String,
    pub family: String,
    /// `per-task` (a report or a local run behind the row) | `figures` | empty.
    pub data: String,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            sort: Col::Resolved,
            desc: true,
            set: String::new(),
            harness: String::new(),
            family: String::new(),
            data: String::new(),
        }
    }
}

impl ViewState {
    pub fn from_query(get: impl Fn(&str) -> Option<String>) -> ViewState {
        let d = ViewState::default();
        let sort = get("sort").and_then(|s| Col::from_name(&s)).unwrap_or(d.sort);
        let desc = match get("dir").as_deref() {
            Some("asc") => false,
            Some("desc") => true,
            _ => sort.numeric(),
        };
        let mut v = ViewState { sort, desc, ..d };
        for (field, name) in [
            (&mut v.set, "set"),
            (&mut v.harness, "harness"),
            (&mut v.family, "family"),
            (&mut v.data, "data"),
        ] {
            *field = get(name).unwrap_or_default();
        }
        v
    }

    /// The query (empty for the defaults).
    pub fn to_query(&self) -> Query {
        let mut q = Query::new();
        if self.sort != Col::Resolved || !self.desc {
            q = q
                .with("sort", self.sort.name())
                .with("dir", if self.desc { "desc" } else { "asc" });
        }
        for (name, value) in [
            ("set", &self.set),
            ("harness", &self.harness),
            ("family", &self.family),
            ("data", &self.data),
        ] {
            q = q.with(name, value.as_str());
        }
        q
    }

    /// The state after clicking column `col`'s header: the other direction of the same column,
    /// or the column's natural direction.
    pub fn sorted_by(&self, col: Col) -> ViewState {
        let desc = if self.sort == col { !self.desc } else { col.numeric() };
        ViewState { sort: col, desc, ..self.clone() }
    }

    pub fn keeps(&self, row: &Row) -> bool {
        let e = &row.entry;
        (self.set.is_empty() || e.instruction_set.map(|s| s.as_str()) == Some(self.set.as_str()))
            && (self.harness.is_empty()
                || match e.harness {
                    Harness::Official => self.harness == "official",
                    Harness::ThirdParty => self.harness == "third_party",
                })
            && (self.family.is_empty() || family(e.model.as_deref()) == self.family)
            && match self.data.as_str() {
                "per-task" => row.link.is_some(),
                "figures" => row.link.is_none(),
                _ => true,
            }
    }
}

/// The landing page's one line: what refscore is, what the demo tasks are, how to load the real
/// benchmark.
#[component]
fn Intro() -> impl IntoView {
    view! {
        <p class="intro" id="intro">
            "refscore scores RefactorBench submissions in your browser with CPython 3.11's verdicts. "
            "The demo tasks are our own small benchmark, not RefactorBench's; to load the real 100 tasks, run "
            <code>"refscore import --from CHECKOUT --out public/bundles/refactorbench"</code>
            " and pick it in the Bundle selector (README, “Deploying the static site”)."
        </p>
    }
}

/// A link (for an `http(s)` URL only: a source URL is data, never a `javascript:` link).
fn source_view(e: &Entry) -> AnyView {
    let name = e.source.name.clone();
    let location = e.source.location.clone();
    let url =
        e.source.url.clone().filter(|u| u.starts_with("https://") || u.starts_with("http://"));
    view! {
        {match url {
            Some(u) => view! { <a class="source" href=u rel="noopener noreferrer" target="_blank">{name}</a> }.into_any(),
            None => view! { <span class="source">{name}</span> }.into_any(),
        }}
        <div class="muted small">{location}</div>
    }
    .into_any()
}

fn pct(p: Option<f64>) -> String {
    p.map_or_else(|| "–".to_string(), |p| format!("{p}%"))
}

fn flags_view(row: &Row) -> impl IntoView {
    let f = row.entry.flags;
    let mut badges = Vec::new();
    if row.local {
        badges.push(("local", "badge local"));
    }
    for (on, name) in [
        (f.grader_in_loop, "grader in the loop"),
        (f.partial, "partial"),
        (f.uncertain, "uncertain"),
        (f.non_agent, "not an agent"),
        (f.note_only, "note only"),
    ] {
        if on {
            badges.push((name, "badge flag"));
        }
    }
    badges
        .into_iter()
        .map(|(text, class)| view! { " " <span class=class>{text}</span> })
        .collect_view()
}

fn row_view(row: &Row) -> impl IntoView {
    let e = &row.entry;
    let resolved = match (e.resolved_count, e.n) {
        (Some(c), Some(n)) => format!("{} ({c}/{n})", pct(e.resolved)),
        _ => pct(e.resolved),
    };
    let cost = e.cost.as_ref().map(|c| {
        let per = match c.per {
            CostUnit::SolvedInstance => "per solved task",
            CostUnit::Query => "per query",
        };
        format!("${} {per}", c.usd)
    });
    let data = match &row.link {
        Some(link) => {
            view! { <a class="drill" href=crate::net::href(link)>{data_label(row)}</a> }.into_any()
        }
        None => view! { <span class="muted">{data_label(row)}</span> }.into_any(),
    };
    let notes = (!e.notes.is_empty()).then(|| {
        let notes = e.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view();
        view! { <details class="notes"><summary>{format!("{} note(s)", e.notes.len())}</summary><ul>{notes}</ul></details> }
    });
    view! {
        <tr data-entry=e.id.clone() class:local=row.local>
            <td>{e.agent.clone()}{flags_view(row)}{notes}</td>
            <td>{e.model.clone().unwrap_or_default()}</td>
            <td>{e.setup.clone().unwrap_or_default()}</td>
            <td>{e.instruction_set.map_or("–", |s| s.as_str())}</td>
            <td class="num resolved">{resolved}</td>
            <td class="num">{e.n.map(|n| n.to_string()).unwrap_or_default()}</td>
            <td class="num">{pct(e.subtests)}</td>
            <td>{cost}</td>
            <td>{harness_name(e.harness)}<div class="muted small">{e.harness_name.clone()}</div></td>
            <td>{source_view(e)}</td>
            <td>{e.date.clone().unwrap_or_default()}</td>
            <td>{data}</td>
        </tr>
    }
}

fn table_view(id: &'static str, rows: Vec<Row>, state: &ViewState) -> impl IntoView {
    let heads = Col::ALL
        .into_iter()
        .map(|c| {
            let active = state.sort == c;
            let arrow = match (active, state.desc) {
                (true, true) => " ▼",
                (true, false) => " ▲",
                _ => "",
            };
            let sort = active.then_some(if state.desc { "descending" } else { "ascending" });
            let link = Route::Leaderboard(state.sorted_by(c).to_query()).href();
            view! {
                <th aria-sort=sort class:num=c.numeric()>
                    <a class="sort" data-col=c.name() href=link>{c.label()}{arrow}</a>
                </th>
            }
        })
        .collect_view();
    let body = rows.iter().map(row_view).collect_view();
    view! {
        <table id=id class="table board">
            <thead><tr>{heads}</tr></thead>
            <tbody>{body}</tbody>
        </table>
    }
}

/// A short label that tells rows of one agent apart in a clipped chart label: setup, model
/// (without its provider prefix), agent.
fn chart_label(e: &Entry) -> String {
    let mut parts: Vec<&str> = e.setup.as_deref().into_iter().collect();
    parts.extend(e.model.as_deref().map(|m| m.rsplit('/').next().unwrap_or(m)));
    parts.push(&e.agent);
    parts.join(" · ")
}

/// A bar per row with a resolved rate, in the table's order.
fn set_chart(set: InstructionSet, rows: &[Row]) -> Option<impl IntoView> {
    let bars: Vec<Bar> = rows
        .iter()
        .filter(|r| r.entry.instruction_set == Some(set) && !r.entry.flags.note_only)
        .filter_map(|r| {
            let p = r.entry.resolved?;
            let tag = if r.local { " (local)" } else { "" };
            let value = (p * 10.0).round().clamp(0.0, 1000.0) as u32;
            Some(Bar::new(format!("{}{tag}", chart_label(&r.entry)), value, 1000))
        })
        .collect();
    if bars.is_empty() {
        return None;
    }
    Some(view! {
        <div class="board-chart">
            <h3>{set.as_str()}</h3>
            <BarChart bars=bars title=format!("Resolved % with the {} instructions", set.as_str())
                id=format!("chart-{}", set.as_str()) percent_only=true/>
        </div>
    })
}

fn group_bars(groups: &[Group]) -> Vec<Bar> {
    groups.iter().map(|g| Bar::new(g.key.clone(), g.tally.resolved, g.tally.results)).collect()
}

fn breakdown_view(row: &Row, b: &(Vec<Group>, Vec<Group>)) -> impl IntoView {
    let label = entry_label(&row.entry);
    let set = row.entry.instruction_set.map_or("", |s| s.as_str());
    view! {
        <div class="board-breakdown" data-entry=row.entry.id.clone()>
            <h3>{format!("{label} ({set})")}{row.local.then_some(view! { " " <span class="badge local">"local"</span> })}</h3>
            <div class="breakdowns">
                <div><h4>"By repository"</h4>
                    <BarChart bars=group_bars(&b.0) title=format!("{label}: resolved by repository")/></div>
                <div><h4>"By number of files the tests inspect"</h4>
                    <BarChart bars=group_bars(&b.1) title=format!("{label}: resolved by inspected files")/></div>
            </div>
        </div>
    }
}

type Loaded = (Result<Rc<Leaderboard>, String>, Vec<Row>);
type Breakdowns = HashMap<String, Arc<(Vec<Group>, Vec<Group>)>>;

#[component]
pub fn LeaderboardPage() -> impl IntoView {
    let session = crate::runs::use_session();
    let data = LocalResource::new(move || {
        session.runs_version.track();
        async move { (load_board().await, load_local_rows().await) }
    });
    // Per-task breakdowns of the published entries with a report behind them, filled in as the
    // reports arrive.
    let published = RwSignal::new(Breakdowns::new());
    leptos::task::spawn_local(async move {
        let mut out = Breakdowns::new();
        let Ok(board) = load_board().await else { return };
        for e in board.entries.iter().filter(|e| e.report.is_some()) {
            if let Ok(Some(run)) = load_published_run(e.id.clone()).await {
                let s = run_stats(&run.report, &run.tasks);
                out.insert(e.id.clone(), Arc::new((s.by_repo, s.by_inspected_files)));
            }
        }
        let _ = published.try_set(out);
    });
    view! {
        <section class="leaderboard-page">
            <Suspense fallback=|| view! { <p class="muted">"Loading the leaderboard…"</p> }>
                {move || data.get().map(|loaded| board_view(loaded, published))}
            </Suspense>
        </section>
    }
}

fn board_view((board, local): Loaded, published: RwSignal<Breakdowns>) -> AnyView {
    let mut all: Vec<Row> = match &board {
        Ok(b) => b.entries.iter().cloned().map(Row::published).collect(),
        Err(_) => Vec::new(),
    };
    all.extend(local);
    if all.is_empty() {
        // No entry at all: the landing page is the task list.
        return view! { <Intro/><TasksPage/> }.into_any();
    }
    let error = board.err().map(|e| view! { <p class="error" id="leaderboard-error">{e}</p> });
    let all = StoredValue::new(all);
    let query = use_query_map();
    let state = Memo::new(move |_| {
        let q = query.read();
        ViewState::from_query(|k| q.get(k))
    });
    let navigate = use_navigate();
    let set_filter = move |name: &'static str, value: String| {
        let q = query.get_untracked();
        let mut s = ViewState::from_query(|k| q.get(k));
        match name {
            "set" => s.set = value,
            "harness" => s.harness = value,
            "family" => s.family = value,
            _ => s.data = value,
        }
        navigate(
            &Route::Leaderboard(s.to_query()).href(),
            NavigateOptions { replace: true, scroll: false, ..Default::default() },
        );
    };
    let mut families: Vec<String> = Vec::new();
    all.with_value(|a| {
        for r in a {
            let f = family(r.entry.model.as_deref());
            if let Err(at) = families.binary_search(&f) {
                families.insert(at, f);
            }
        }
    });
    let select = move |id: &'static str, label: &'static str, options: Vec<(String, String)>| {
        let set_filter = set_filter.clone();
        let options = options
            .into_iter()
            .map(|(value, text)| {
                let v = value.clone();
                let selected = move || {
                    let s = state.get();
                    let current = match id {
                        "filter-set" => s.set,
                        "filter-harness" => s.harness,
                        "filter-family" => s.family,
                        _ => s.data,
                    };
                    current == v
                };
                view! { <option value=value selected=selected>{text}</option> }
            })
            .collect_view();
        let name = id.trim_start_matches("filter-");
        view! {
            <label>{label}" "
                <select id=id on:change=move |ev| set_filter(name, event_target_value(&ev))>{options}</select>
            </label>
        }
    };
    let any = || (String::new(), "all".to_string());
    let pair = |v: &str, t: &str| (v.to_string(), t.to_string());
    let filters = view! {
        <div class="filters" role="search">
            {select("filter-set", "Instructions", vec![any(), pair("lazy", "lazy"), pair("base", "base"), pair("descriptive", "descriptive")])}
            {select("filter-harness", "Harness", vec![any(), pair("official", "official"), pair("third_party", "third-party")])}
            {select("filter-family", "Model family", std::iter::once(any()).chain(families.iter().map(|f| pair(f, f))).collect())}
            {select("filter-data", "Data", vec![any(), pair("per-task", "per-task data"), pair("figures", "published figures only")])}
        </div>
    };
    let shown = Memo::new(move |_| {
        let s = state.get();
        let mut rows: Vec<Row> =
            all.with_value(|a| a.iter().filter(|r| s.keeps(r)).cloned().collect());
        sort_rows(&mut rows, s.sort, s.desc);
        rows
    });
    let tables = move || {
        let s = state.get();
        let (ranked, apart): (Vec<Row>, Vec<Row>) =
            shown.get().into_iter().partition(|r| r.entry.is_ranked());
        let total = all.with_value(Vec::len);
        let count = format!("{} of {total} entries", ranked.len() + apart.len());
        view! {
            <p class="muted" id="leaderboard-count">{count}</p>
            {table_view("leaderboard", ranked, &s)}
            <h2>"Shown apart"</h2>
            <p class="muted">"Not ranked with the others: the agent could run the grading tests, not the whole task set (a crashed run, a subset, a local run that skipped tasks), not an agent, or figures given only in notes."</p>
            {table_view("leaderboard-apart", apart, &s)}
        }
    };
    let charts = move || {
        let rows = shown.get();
        InstructionSet::ALL.into_iter().filter_map(|set| set_chart(set, &rows)).collect_view()
    };
    let breakdowns = move || {
        let loaded = published.get();
        shown
            .get()
            .into_iter()
            .filter_map(|r| {
                let b = r.breakdown.clone().or_else(|| loaded.get(&r.entry.id).cloned())?;
                Some(breakdown_view(&r, &b))
            })
            .collect_view()
    };
    view! {
        <Intro/>
        <h1>"Leaderboard"</h1>
        <p class="muted">
            "Published RefactorBench results with their sources, beside the runs scored in this browser (marked local). Rates compare only within an instruction set; n is the number of tasks a rate is over. "
            <a href=Route::Tasks(Query::new()).href() id="to-tasks">"The tasks"</a>
        </p>
        {error}
        {filters}
        {tables}
        <h2>"Resolved % by instruction set"</h2>
        <div class="board-charts" id="board-charts">{charts}</div>
        <h2>"Where per-task data exists"</h2>
        <p class="muted">"Resolved by repository and by number of files the tests inspect, for the published reports and your runs."</p>
        <div id="board-breakdowns">{breakdowns}</div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use scorer::leaderboard::{Flags, Source};

    fn entry(id: &str, model: Option<&str>, resolved: Option<f64>) -> Entry {
        Entry {
            id: id.into(),
            agent: format!("agent {id}"),
            model: model.map(Into::into),
            instruction_set: Some(InstructionSet::Base),
            setup: None,
            resolved,
            resolved_count: None,
            submitted: None,
            resolved_of_submitted: None,
            subtests: None,
            cost: None,
            n: Some(100),
            runs: 1,
            date: None,
            source: Source { name: "paper".into(), url: None, location: "§1".into() },
            harness: Harness::Official,
            harness_name: "paper".into(),
            notes: Vec::new(),
            flags: Flags::default(),
            report: None,
        }
    }

    #[test]
    fn sorting_puts_missing_values_last_both_ways() {
        let mut rows = vec![
            Row::published(entry("a", Some("GPT-4"), Some(12.0))),
            Row::published(entry("b", None, None)),
            Row::published(entry("c", Some("claude"), Some(35.0))),
        ];
        let ids = |r: &[Row]| r.iter().map(|r| r.entry.id.clone()).collect::<Vec<_>>();
        sort_rows(&mut rows, Col::Resolved, true);
        assert_eq!(ids(&rows), ["c", "a", "b"]);
        sort_rows(&mut rows, Col::Resolved, false);
        assert_eq!(ids(&rows), ["a", "c", "b"]);
        sort_rows(&mut rows, Col::Model, false);
        assert_eq!(ids(&rows), ["c", "a", "b"]);
        sort_rows(&mut rows, Col::Model, true);
        assert_eq!(ids(&rows), ["a", "c", "b"]);
    }

    #[test]
    fn view_state_round_trips_through_the_query() {
        let d = ViewState::default();
        assert_eq!(d.to_query().render(), "");
        let s = ViewState { set: "base".into(), family: "gpt".into(), ..d.sorted_by(Col::Agent) };
        assert_eq!(s.to_query().render(), "?sort=agent&dir=asc&set=base&family=gpt");
        let q: HashMap<&str, &str> =
            [("sort", "agent"), ("dir", "asc"), ("set", "base"), ("family", "gpt")].into();
        assert_eq!(ViewState::from_query(|k| q.get(k).map(|v| v.to_string())), s);
        // The same column again turns the direction.
        assert!(s.sorted_by(Col::Agent).desc);
        assert!(ViewState::default().sorted_by(Col::Resolved).to_query().get("dir") == Some("asc"));
    }

    #[test]
    fn filters_and_families() {
        assert_eq!(family(Some("GPT-4o")), "gpt");
        assert_eq!(family(Some("Claude 3.5 Sonnet")), "claude");
        assert_eq!(family(Some("qwen3.6-flash")), "qwen");
        assert_eq!(family(None), "none");
        let mut third = entry("t", Some("kimi-k2.6"), Some(61.0));
        third.harness = Harness::ThirdParty;
        third.report = Some("t.json".into());
        let rows = [Row::published(entry("a", Some("GPT-4"), Some(12.0))), Row::published(third)];
        let kept = |s: &ViewState| {
            rows.iter().filter(|r| s.keeps(r)).map(|r| r.entry.id.as_str()).collect::<Vec<_>>()
        };
        let d = ViewState::default();
        assert_eq!(kept(&d), ["a", "t"]);
        assert_eq!(kept(&ViewState { harness: "third_party".into(), ..d.clone() }), ["t"]);
        assert_eq!(kept(&ViewState { family: "gpt".into(), ..d.clone() }), ["a"]);
        assert_eq!(kept(&ViewState { data: "per-task".into(), ..d.clone() }), ["t"]);
        assert_eq!(kept(&ViewState { data: "figures".into(), ..d.clone() }), ["a"]);
        assert_eq!(kept(&ViewState { set: "lazy".into(), ..d }), Vec::<&str>::new());
        assert_eq!(rows[1].link.as_deref(), Some("/leaderboard/t"));
    }
}
