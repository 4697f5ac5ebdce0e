//! The viewer's markup, built in the worker as [`Node`] trees (elements, a few attributes, text):
//! the app renders them with one small generic function, so the viewer's many shapes cost the
//! first-visit app wasm nothing. Every string from a log is a text node or an attribute value.

use std::fmt::Write as _;

use scorer::report::{Status, TaskResult};
use site_routes::{Query, Route};

use crate::{Node, RateRow, RunModes, Sample, StepPage, StepRow};

fn t(s: impl Into<String>) -> Node {
    Node::T(s.into())
}

fn el(tag: &str, attrs: &[(&str, &str)], children: Vec<Node>) -> Node {
    Node::E(
        tag.to_string(),
        attrs.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())).collect(),
        children,
    )
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

/// Lines of a long text shown before "show all".
const FOLD_LINES: usize = 12;

/// A text block: short texts whole; long ones as their first lines and a `<details>` with all.
fn fold(label: &str, text: &str) -> Node {
    let lines = text.lines().count();
    let mut kids = vec![el("span", &[("class", "step-text-label")], vec![t(label)])];
    if lines > FOLD_LINES || text.len() > 2_000 {
        let head: String = text
            .lines()
            .take(FOLD_LINES)
            .collect::<Vec<_>>()
            .join("\n")
            .chars()
            .take(2_000)
            .collect();
        kids.push(el("pre", &[("class", "folded")], vec![t(head + "…")]));
        kids.push(el(
            "details",
            &[("class", "fold")],
            vec![
                el(
                    "summary",
                    &[("class", "fold-toggle")],
                    vec![t(format!("Show all ({lines} lines)"))],
                ),
                el("pre", &[], vec![t(text)]),
            ],
        ));
    } else {
        kids.push(el("pre", &[], vec![t(text)]));
    }
    el("div", &[("class", &format!("step-text step-{label}"))], kids)
}

/// One step of the list.
pub fn step(row: &StepRow, current: Option<u32>) -> Node {
    let i = row.index.to_string();
    let tokens = match row.tokens {
        Some([p, c, cached]) => {
            let mut s = format!("tokens: prompt {}, completion {}", count(p), count(c));
            if let Some(k) = cached {
                let _ = write!(s, ", cached {k}");
            }
            s
        }
        None => "tokens: no data".to_string(),
    };
    let mut class = "step".to_string();
    if !row.flags.is_empty() {
        class.push_str(" flagged");
    }
    if row.error.is_some() || row.edits.iter().any(|e| e.status != "applied") {
        class.push_str(" step-error");
    }
    let mut head = vec![
        el(
            "a",
            &[("class", "step-link"), ("href", &format!("?step={i}")), ("data-goto", &i)],
            vec![t(format!("#{i}"))],
        ),
        el("span", &[("class", "step-role")], vec![t(&row.role)]),
    ];
    if let Some(tool) = &row.tool {
        head.push(el("code", &[("class", "step-tool")], vec![t(tool)]));
    }
    for f in &row.flags {
        head.push(el("span", &[("class", "flag-badge")], vec![t(f)]));
    }
    head.push(el("span", &[("class", "muted step-tokens")], vec![t(tokens)]));
    if let Some(d) = row.duration_s {
        head.push(el("span", &[("class", "muted")], vec![t(format!("{d:.1} s"))]));
    }
    let mut kids = vec![el("header", &[("class", "step-head")], head)];
    if let Some(e) = &row.error {
        kids.push(el("p", &[("class", "error step-error-text")], vec![t(e)]));
    }
    if !row.edits.is_empty() {
        let items = row
            .edits
            .iter()
            .map(|e| {
                let mut k = vec![
                    el("code", &[], vec![t(&e.path)]),
                    t(format!(
                        " {} {} lines {} → {} [{}]",
                        e.kind,
                        e.status,
                        range_text(e.before),
                        range_text(e.after),
                        e.confidence
                    )),
                ];
                if let Some(r) = &e.reason {
                    k.push(el("span", &[("class", "edit-reason")], vec![t(format!(" — {r}"))]));
                }
                el("li", &[("class", &format!("edit edit-{}", e.status))], k)
            })
            .collect();
        kids.push(el("ul", &[("class", "step-edits")], items));
    }
    for (label, text) in [("thought", &row.thought), ("action", &row.action)] {
        if let Some(text) = text.as_deref().filter(|s| !s.is_empty()) {
            kids.push(fold(label, text));
        }
    }
    if let Some(o) = &row.observation {
        kids.push(fold("observation", o));
    }
    if row.cut > 0 {
        kids.push(el(
            "p",
            &[("class", "muted")],
            vec![t(format!(
                "{} bytes not shown (a text longer than {} bytes)",
                row.cut,
                crate::TEXT_CAP
            ))],
        ));
    }
    if !row.sigma.is_empty() {
        let items = row
            .sigma
            .iter()
            .map(|f| {
                let mut s = String::new();
                if f.whole {
                    s.push_str(" whole file");
                }
                if !f.ranges.is_empty() {
                    let r: Vec<String> = f.ranges.iter().map(|[a, b]| format!("{a}-{b}")).collect();
                    let _ = write!(s, " lines {}", r.join(", "));
                }
                if f.created {
                    s.push_str(" created");
                }
                if f.deleted {
                    s.push_str(" deleted");
                }
                if f.failed > 0 {
                    let _ = write!(s, " · {} failed edit(s)", f.failed);
                }
                el("li", &[], vec![el("code", &[], vec![t(&f.path)]), t(s)])
            })
            .collect();
        kids.push(el(
            "div",
            &[("class", "step-sigma")],
            vec![
                el("span", &[("class", "step-text-label")], vec![t("σ after this step")]),
                el("ul", &[], items),
            ],
        ));
    }
    let id = format!("step-{i}");
    let mut attrs = vec![("class", class.as_str()), ("id", id.as_str()), ("data-step", i.as_str())];
    if current == Some(row.index) {
        attrs.push(("aria-current", "step"));
    }
    el("article", &attrs, kids)
}

/// A page of steps.
pub fn page(p: &StepPage, current: Option<u32>) -> Node {
    el(
        "div",
        &[("id", "steps"), ("class", "steps")],
        p.rows.iter().map(|r| step(r, current)).collect(),
    )
}

fn facts(s: &Sample, name: &str) -> Node {
    let fmt = match &s.format_version {
        Some(v) => format!("{} ({v})", s.format),
        None => s.format.clone(),
    };
    let c = s.costs.clone().unwrap_or_default();
    let rows: Vec<(&str, &str, String)> = vec![
        ("File", "", name.to_string()),
        ("Format", "traj-format", fmt),
        ("Task", "", s.instance_id.clone().unwrap_or_else(|| "not named".into())),
        ("Model", "", s.model.clone().unwrap_or_else(|| "not named".into())),
        (
            "Exit",
            "",
            format!(
                "{} ({})",
                s.exit_status.clone().unwrap_or_else(|| "not logged".into()),
                s.exit
            ),
        ),
        (
            "Steps",
            "traj-steps",
            format!("{} steps, {} edits ({} rejected)", s.steps, s.edits, s.rejected_edits),
        ),
        ("Cost", "traj-cost", money(c.cost_usd)),
        (
            "Tokens",
            "",
            format!(
                "sent {}, received {}; API calls {}",
                count(c.tokens_sent),
                count(c.tokens_received),
                count(c.api_calls)
            ),
        ),
    ];
    let mut kids = Vec::new();
    for (k, id, v) in rows {
        kids.push(el("dt", &[], vec![t(k)]));
        kids.push(if id.is_empty() {
            el("dd", &[], vec![t(v)])
        } else {
            el("dd", &[("id", id)], vec![t(v)])
        });
    }
    el("dl", &[("class", "traj-facts"), ("id", "traj-facts")], kids)
}

fn flags(s: &Sample) -> Node {
    if s.failure_modes.is_empty() {
        let note = if s.with_facts {
            "No failure mode flagged."
        } else {
            "No failure mode flagged. Without the task's verdicts (a log of a task the selected bundle does not have) FM-1 untouched targets and FM-7 breadth are not computed."
        };
        return el("p", &[("id", "failure-modes"), ("class", "muted")], vec![t(note)]);
    }
    let items = s
        .failure_modes
        .iter()
        .map(|f| {
            let mut k = vec![el("strong", &[], vec![t(&f.id)])];
            if !f.rule.is_empty() {
                k.push(el("span", &[("class", "muted")], vec![t(format!(" ({})", f.rule))]));
            }
            k.push(t(format!(" — {}", f.detail)));
            if !f.steps.is_empty() {
                let mut links = vec![t("steps: ")];
                for s in f.steps.iter().take(40) {
                    links.push(el(
                        "a",
                        &[
                            ("class", "evidence"),
                            ("href", &format!("?step={s}")),
                            ("data-goto", &s.to_string()),
                        ],
                        vec![t(format!("#{s}"))],
                    ));
                    links.push(t(" "));
                }
                if f.steps.len() > 40 {
                    links.push(t(format!("and {} more", f.steps.len() - 40)));
                }
                k.push(el("div", &[], links));
            }
            if !f.tests.is_empty() {
                k.push(el(
                    "div",
                    &[("class", "mono")],
                    vec![t(format!("tests: {}", f.tests.join(", ")))],
                ));
            }
            if let Some((id, text)) = &f.interpretation {
                k.push(el(
                    "details",
                    &[("class", "interpretation")],
                    vec![
                        el("summary", &[], vec![t(format!("reading used: {id}"))]),
                        el("p", &[], vec![t(text)]),
                    ],
                ));
            }
            el("li", &[("class", "flag"), ("data-flag", &f.id)], k)
        })
        .collect();
    el("ul", &[("id", "failure-modes"), ("class", "flags")], items)
}

fn clip(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        return label.to_string();
    }
    let tail: String = label
        .chars()
        .rev()
        .take(max.saturating_sub(1))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("…{tail}")
}

/// σ as files × steps, one mark per edit (`data-goto` opens its step).
fn timeline(s: &Sample) -> Node {
    let tl = &s.timeline;
    if tl.files.is_empty() {
        return el(
            "p",
            &[("class", "muted"), ("id", "sigma-timeline")],
            vec![t("σ: no recognised edits.")],
        );
    }
    let steps = f64::from(s.steps.max(1));
    let (label_w, width, row_h) = (220.0, 860.0, 16.0);
    let x = |st: u32| label_w + (f64::from(st) + 0.5) / steps * (width - label_w - 8.0);
    let height = row_h * tl.files.len() as f64 + 18.0;
    let mut kids = Vec::new();
    for (i, f) in tl.files.iter().enumerate() {
        kids.push(el(
            "text",
            &[
                ("class", "tl-label"),
                ("x", &(label_w - 6.0).to_string()),
                ("y", &(row_h * i as f64 + 12.0).to_string()),
                ("text-anchor", "end"),
            ],
            vec![t(clip(f, 30))],
        ));
    }
    let axis = (height - 14.0).to_string();
    kids.push(el(
        "line",
        &[
            ("class", "tl-axis"),
            ("x1", &label_w.to_string()),
            ("y1", &axis),
            ("x2", &(width - 8.0).to_string()),
            ("y2", &axis),
        ],
        vec![],
    ));
    for m in &tl.marks {
        let class = match m.kind {
            0 => "tl-mark applied",
            1 => "tl-mark rejected",
            2 => "tl-mark lint",
            _ => "tl-mark unknown",
        };
        kids.push(el(
            "rect",
            &[
                ("class", class),
                ("data-goto", &m.step.to_string()),
                ("x", &format!("{:.1}", x(m.step) - 2.0)),
                ("y", &(row_h * f64::from(m.file) + 2.0).to_string()),
                ("width", "4"),
                ("height", &(row_h - 4.0).to_string()),
            ],
            vec![],
        ));
    }
    let mut note = format!(". {} steps. Click a mark to open its step.", s.steps);
    if tl.more > 0 {
        let _ = write!(note, " ({} more edits not drawn)", tl.more);
    }
    el(
        "div",
        &[("class", "timeline")],
        vec![
            el("h3", &[], vec![t("σ: files × steps")]),
            el(
                "p",
                &[("class", "muted")],
                vec![
                    t("Each mark is an edit at its step: applied, "),
                    el("span", &[("class", "tl-key rejected")], vec![t("rejected")]),
                    t(", "),
                    el("span", &[("class", "tl-key lint")], vec![t("applied with lint errors")]),
                    t(note),
                ],
            ),
            el(
                "svg",
                &[
                    ("id", "sigma-timeline"),
                    ("class", "chart timeline-chart"),
                    ("viewBox", &format!("0 0 {width} {height}")),
                    ("style", &format!("max-width:{width}px")),
                ],
                kids,
            ),
        ],
    )
}

/// The final patch's per-test verdicts, each with the files it reads (FM-1's targets) linked to
/// the task page, and FM-1's untouched tests marked.
/// The task page showing `path` of `instance`'s repository, as the app's routes spell it (an id
/// holding `/`, `#` or `?` stays one path segment).
fn file_link(instance: &str, path: &str) -> String {
    Route::Task { id: instance.to_string(), query: Query::new().with("file", path) }.path()
}

fn final_tests(s: &Sample, r: &TaskResult, instance: &str) -> Node {
    let untouched: Vec<&String> = s
        .failure_modes
        .iter()
        .filter(|f| f.id == "untouched_target")
        .flat_map(|f| &f.tests)
        .collect();
    let rows = r
        .tests
        .iter()
        .map(|tst| {
            let status = match tst.status {
                Status::Pass => "pass",
                Status::Fail => "fail",
                Status::Error => "error",
                Status::Skip => "skip",
            };
            let mut files = Vec::new();
            if untouched.contains(&&tst.id) {
                files.push(el(
                    "span",
                    &[("class", "flag-badge untouched")],
                    vec![t("untouched target: ")],
                ));
            }
            for p in &tst.reads {
                let href = file_link(instance, p);
                files.push(el("a", &[("class", "mono"), ("href", &href)], vec![t(p)]));
                files.push(t(" "));
            }
            el(
                "tr",
                &[("data-test", &tst.id), ("class", &format!("status-{status}"))],
                vec![
                    el("td", &[("class", "mono")], vec![t(&tst.id)]),
                    el("td", &[], vec![t(status)]),
                    el("td", &[], files),
                ],
            )
        })
        .collect();
    el(
        "div",
        &[("class", "final-result")],
        vec![
            el("h2", &[], vec![t("Final patch")]),
            el(
                "p",
                &[],
                vec![t(format!(
                    "{}: {} of {} subtests passed, patch {}.",
                    if r.resolved { "resolved" } else { "unresolved" },
                    r.subtests_passed,
                    r.subtests_total,
                    r.patch_status.as_str()
                ))],
            ),
            el(
                "table",
                &[("id", "final-tests"), ("class", "table compact")],
                vec![
                    el(
                        "thead",
                        &[],
                        vec![el(
                            "tr",
                            &[],
                            vec![
                                el("th", &[], vec![t("Test")]),
                                el("th", &[], vec![t("Verdict")]),
                                el("th", &[], vec![t("Files it reads (FM-1 targets)")]),
                            ],
                        )],
                    ),
                    el("tbody", &[], rows),
                ],
            ),
        ],
    )
}

/// Everything above the step list: facts, σ vs the patch, final verdicts, flags, timeline,
/// the submission.
pub fn head(s: &Sample, name: &str, fin: Option<(&TaskResult, &str)>) -> Node {
    let mut kids = vec![facts(s, name)];
    if let Some(e) = &s.exit_error {
        kids.push(el("p", &[("class", "error")], vec![t(e)]));
    }
    if let Some((sigma_only, patch_only)) = &s.final_check {
        let text = if sigma_only.is_empty() && patch_only.is_empty() {
            "σ at the last step agrees with the submitted patch.".to_string()
        } else {
            format!(
                "σ at the last step and the submitted patch disagree: edited but not in the patch: [{}]; in the patch but never seen edited: [{}].",
                sigma_only.join(", "),
                patch_only.join(", ")
            )
        };
        kids.push(el("p", &[("id", "final-check")], vec![t(text)]));
    }
    if let Some((r, instance)) = fin {
        kids.push(final_tests(s, r, instance));
    }
    kids.push(el("h2", &[], vec![t("Failure modes")]));
    kids.push(flags(s));
    kids.push(timeline(s));
    if let Some(p) = s.submission.as_deref().filter(|p| !p.trim().is_empty()) {
        kids.push(el(
            "details",
            &[("class", "submission")],
            vec![el("summary", &[], vec![t("Submitted patch")]), el("pre", &[], vec![t(p)])],
        ));
    }
    el("div", &[("class", "traj-head")], kids)
}

fn rate_text(r: &RateRow) -> String {
    if r.d == 0 {
        format!("{}/{}", r.n, r.d)
    } else {
        format!("{}/{} ({:.1}%)", r.n, r.d, r.n as f64 * 100.0 / r.d as f64)
    }
}

/// Links to the trajectories behind a numerator; `links[i]` is (document, href, label).
fn behind(r: &RateRow, links: &[(u32, String, String)]) -> Vec<Node> {
    let mut out = Vec::new();
    for [d, _] in &r.behind {
        if let Some((_, href, label)) = links.iter().find(|(x, _, _)| x == d) {
            out.push(el("a", &[("class", "behind"), ("href", href)], vec![t(label)]));
            out.push(t(" "));
        }
    }
    out
}

/// Horizontal bars, `n / d` each, with the numbers as text.
fn bars(id: &str, title: &str, rows: &[RateRow], links: &[(u32, String, String)]) -> Vec<Node> {
    if rows.is_empty() {
        return Vec::new();
    }
    let (label_w, track, row_h) = (220.0, 300.0, 26.0);
    let mut kids = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let y = row_h * i as f64;
        let share = if r.d == 0 { 0.0 } else { (r.n as f64 / r.d as f64).clamp(0.0, 1.0) };
        kids.push(el(
            "text",
            &[
                ("class", "bar-label"),
                ("x", &(label_w - 8.0).to_string()),
                ("y", &(y + 17.0).to_string()),
                ("text-anchor", "end"),
            ],
            vec![t(clip(&r.id, 30))],
        ));
        let ys = (y + 5.0).to_string();
        kids.push(el(
            "rect",
            &[
                ("class", "bar-track"),
                ("x", &label_w.to_string()),
                ("y", &ys),
                ("width", &track.to_string()),
                ("height", "16"),
            ],
            vec![],
        ));
        kids.push(el(
            "rect",
            &[
                ("class", "bar-fill"),
                ("x", &label_w.to_string()),
                ("y", &ys),
                ("width", &format!("{:.1}", share * track)),
                ("height", "16"),
            ],
            vec![],
        ));
        kids.push(el(
            "text",
            &[
                ("class", "bar-value"),
                ("x", &(label_w + track + 8.0).to_string()),
                ("y", &(y + 17.0).to_string()),
            ],
            vec![t(rate_text(r))],
        ));
    }
    let height = row_h * rows.len() as f64;
    let items = rows
        .iter()
        .map(|r| {
            let mut k = vec![el("span", &[("class", "mono")], vec![t(&r.id)]), t(": ")];
            k.extend(behind(r, links));
            el("li", &[], k)
        })
        .collect();
    vec![
        el("h3", &[], vec![t(title)]),
        el(
            "svg",
            &[
                ("id", id),
                ("class", "chart bar-chart"),
                ("viewBox", &format!("0 0 640 {height}")),
                ("style", "max-width:640px"),
            ],
            kids,
        ),
        el("ul", &[("class", "behind-list")], items),
    ]
}

/// The definition a rate id refers to: the one of the same failure mode (`fm2.…`).
fn definition_of<'d>(rate: &str, defs: &'d [(String, String)]) -> Option<&'d str> {
    let fm = rate.split('.').next()?;
    defs.iter().find(|(id, _)| id.split('.').next() == Some(fm)).map(|(id, _)| id.as_str())
}

/// The run page's failure-mode section.
pub fn run(m: &RunModes, links: &[(u32, String, String)]) -> Node {
    let mut kids = vec![el(
        "p",
        &[("class", "muted")],
        vec![t(format!(
            "{} trajectories analysed. Each figure is n / d under the id of its definition.",
            m.trajectories
        ))],
    )];
    kids.extend(bars(
        "fm-distribution",
        "Failure modes (trajectories flagged)",
        &m.distribution,
        links,
    ));
    kids.extend(bars(
        "fm-primary",
        "FM-0: primary label of each unresolved task",
        &m.primary,
        links,
    ));
    kids.extend(bars("fm-exit", "FM-6: exit reasons", &m.exit_reasons, links));
    let breadth: Vec<RateRow> = m
        .by_breadth
        .iter()
        .map(|(b, r)| RateRow { id: format!("{b} files"), ..r.clone() })
        .collect();
    kids.extend(bars(
        "fm-breadth",
        "Solve rate by number of files the tests inspect (FM-7)",
        &breadth,
        links,
    ));
    kids.push(el(
        "p",
        &[("id", "cost-per-solved")],
        vec![t(format!(
            "Cost per solved task: {}",
            m.cost_per_solved_usd.map_or_else(|| "no data".to_string(), |c| format!("${c:.2}"))
        ))],
    ));
    kids.push(el("h3", &[], vec![t("Rates")]));
    let rows = m
        .rates
        .iter()
        .filter(|r| r.d > 0)
        .map(|r| {
            let def = definition_of(&r.id, &m.definitions)
                .map(|d| vec![el("a", &[("href", &format!("#def-{d}"))], vec![t(d)])])
                .unwrap_or_default();
            el(
                "tr",
                &[("data-rate", &r.id)],
                vec![
                    el("td", &[("class", "mono")], vec![t(&r.id)]),
                    el("td", &[("class", "num")], vec![t(rate_text(r))]),
                    el("td", &[], def),
                    el("td", &[], behind(r, links)),
                ],
            )
        })
        .collect();
    let head = ["Rate", "n / d", "Definition", "Trajectories"]
        .iter()
        .map(|h| el("th", &[], vec![t(*h)]))
        .collect();
    kids.push(el(
        "table",
        &[("id", "fm-rates"), ("class", "table compact")],
        vec![el("thead", &[], vec![el("tr", &[], head)]), el("tbody", &[], rows)],
    ));
    let mut defs = Vec::new();
    for (id, text) in &m.definitions {
        defs.push(el("dt", &[("id", &format!("def-{id}")), ("class", "mono")], vec![t(id)]));
        defs.push(el("dd", &[], vec![t(text)]));
    }
    kids.push(el(
        "details",
        &[("class", "definitions")],
        vec![el("summary", &[], vec![t("Definitions")]), el("dl", &[], defs)],
    ));
    el("div", &[], kids)
}

#[cfg(test)]
mod tests {
    use super::file_link;

    /// Links to a task's file go through the app's one encoder: the instance is one segment, the
    /// file path stays readable in the query, and the app's route parser reads them back.
    #[test]
    fn file_links_are_the_app_s_task_routes() {
        assert_eq!(file_link("t1", "pkg/cli.py"), "/tasks/t1?file=pkg/cli.py");
        let odd = file_link("a/b#c?d", "x y/é.py");
        assert_eq!(odd, "/tasks/a%2Fb%23c%3Fd?file=x%20y/%C3%A9.py");
        match site_routes::Route::parse(&odd) {
            Some(site_routes::Route::Task { id, query }) => {
                assert_eq!(id, "a/b#c?d");
                assert_eq!(query.get("file"), Some("x y/é.py"));
            }
            other => panic!("not a task route: {other:?}"),
        }
    }
}
