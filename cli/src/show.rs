//! Plain-text tables and CSV for `score` and `report`. Deterministic: no timings, no absolute
//! paths beyond what the user typed.

use std::fmt::Write;

use scorer::patch::PatchStatus;
use scorer::report::{Report, TaskResult};
use scorer::stats::{Comparison, Group, RunStats, Tally, TaskMeta};

/// The widest a table cell is shown; longer text (a 65,536-character model name) is cut with `…`.
const MAX_CELL: usize = 240;

/// `s` safe to print on a terminal: control characters (ANSI escapes, CR, LF, ...) become visible
/// escapes (`\u{1b}`, `\r`, `\n`), so a name in a predictions file cannot move the cursor, recolour
/// or overwrite what refscore prints.
pub(crate) fn term(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Left-aligned columns separated by two spaces; trailing spaces trimmed. Cells are escaped for the
/// terminal ([`term`]) and cut to [`MAX_CELL`] characters; padding is written by hand, since a
/// format width over 65,535 panics.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let rows: Vec<Vec<String>> =
        rows.iter().map(|r| r.iter().map(|c| cut(&term(c), MAX_CELL)).collect()).collect();
    let rows = rows.as_slice();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(c.chars().count());
            }
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for r in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            let w = widths.get(i).copied().unwrap_or(0);
            line.push_str(c);
            line.extend(std::iter::repeat_n(' ', w.saturating_sub(c.chars().count()) + 2));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn pct(p: Option<f64>) -> String {
    p.map_or_else(|| "-".to_string(), |p| format!("{p:.1}%"))
}

fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

fn patch_cell(r: &TaskResult) -> &'static str {
    match r.patch_status {
        PatchStatus::None => "empty",
        PatchStatus::Applied => "applied",
        PatchStatus::Failed => "failed",
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// `--task ID --patch FILE`: the verdict and every method.
pub(crate) fn single_table(report: &Report) -> String {
    let mut out = String::new();
    for r in &report.results {
        let _ = writeln!(out, "task      {}", r.instance_id);
        let patch = match (r.patch_status, &r.patch_error) {
            (PatchStatus::Failed, Some(e)) => format!("failed: {e}"),
            (PatchStatus::Applied, _) => format!("applied ({} files)", r.files.len()),
            (s, _) => {
                if s == PatchStatus::None { "empty (no change)" } else { "failed" }.to_string()
            }
        };
        let _ = writeln!(out, "patch     {patch}");
        if r.patch_status == PatchStatus::Failed {
            out.push_str("tests     not run (the patch did not apply)\n");
        } else {
            let _ = writeln!(out, "tests     {}/{} passed", r.subtests_passed, r.subtests_total);
        }
        let _ = writeln!(out, "resolved  {}", yes(r.resolved));
        if !r.tests.is_empty() {
            out.push('\n');
            let rows: Vec<Vec<String>> = r
                .tests
                .iter()
                .map(|t| {
                    let why = match (&t.exc_type, &t.message) {
                        (Some(x), Some(m)) => format!("{x}: {}", cut(m, 160)),
                        (Some(x), None) => x.clone(),
                        _ => String::new(),
                    };
                    vec![
                        t.status.as_str().to_string(),
                        t.id.clone(),
                        t.line.map_or_else(String::new, |l| l.to_string()),
                        why,
                    ]
                })
                .collect();
            out.push_str(&table(&["status", "test", "line", "message"], &rows));
        }
    }
    for e in &report.errors {
        let _ = writeln!(out, "not scored: {}: {}", e.source, e.message);
    }
    out
}

/// `--predictions`: one row per result, then the totals and the entries not scored. `tasks` makes
/// the totals count a failed patch's methods as not passed, as `report --tasks` does.
pub(crate) fn score_table(report: &Report, tasks: &[TaskMeta]) -> String {
    let rows: Vec<Vec<String>> = report
        .results
        .iter()
        .map(|r| {
            vec![
                r.instance_id.clone(),
                r.model_name_or_path.clone().unwrap_or_else(|| "-".into()),
                r.instruction_set.map_or("-", |s| s.as_str()).to_string(),
                patch_cell(r).to_string(),
                format!("{}/{}", r.subtests_passed, r.subtests_total),
                yes(r.resolved).to_string(),
                r.source.as_ref().map_or_else(String::new, |s| s.to_string()),
            ]
        })
        .collect();
    let mut out =
        table(&["instance_id", "model", "set", "patch", "tests", "resolved", "source"], &rows);
    let stats = scorer::stats::run_stats(report, tasks);
    out.push('\n');
    out.push_str(&totals(&stats.overall, stats.entry_errors));
    out.push_str(&of_bundle(report, tasks.len()));
    out
}

/// Resolved rates over the whole bundle, as leaderboards count them (a task not submitted is a
/// task not solved): one line per model and instruction set of the run. Empty without the bundle.
fn of_bundle(report: &Report, bundle_tasks: usize) -> String {
    if bundle_tasks == 0 {
        return String::new();
    }
    let mut out = String::new();
    for g in scorer::stats::bundle_rates(report) {
        let (resolved, submitted) = (g.resolved, g.submitted);
        let set = g.instruction_set.map(|s| s.as_str());
        let whose = match (g.model.as_deref(), set) {
            (None, None) => String::new(),
            (None, Some(set)) => format!(" ({set})"),
            (Some(model), None) => format!(" ({})", cut(&term(model), MAX_CELL)),
            (Some(model), Some(set)) => format!(" ({}, {set})", cut(&term(model), MAX_CELL)),
        };
        out.push_str(&format!(
            "resolved {resolved} of {bundle_tasks} tasks of the bundle ({:.1}%){whose}; {resolved} of {submitted} submitted ({:.1}%)\n",
            g.of_bundle_pct(bundle_tasks).unwrap_or(0.0),
            g.of_submitted_pct(),
        ));
    }
    out
}

fn totals(t: &Tally, entry_errors: u32) -> String {
    format!(
        "{} scored, {} resolved ({}), subtests {}/{} passed ({}), {} patch failures, {} entries not scored\n",
        t.results,
        t.resolved,
        pct(t.resolved_pct),
        t.subtests_passed,
        t.subtests_total,
        pct(t.subtests_pct),
        t.patch_failed,
        entry_errors
    )
}

fn groups(title: &str, key: &str, gs: &[Group]) -> String {
    let rows: Vec<Vec<String>> = gs
        .iter()
        .map(|g| {
            vec![
                g.key.clone(),
                g.tally.results.to_string(),
                format!("{} ({})", g.tally.resolved, pct(g.tally.resolved_pct)),
                format!(
                    "{}/{} ({})",
                    g.tally.subtests_passed,
                    g.tally.subtests_total,
                    pct(g.tally.subtests_pct)
                ),
                g.tally.patch_failed.to_string(),
            ]
        })
        .collect();
    format!(
        "\n{title}\n{}",
        table(&[key, "results", "resolved", "subtests passed", "patch failed"], &rows)
    )
}

/// `refscore report REPORT`: the run summary. `with_tasks` says whether task metadata was given
/// (without it the repository and breadth breakdowns are unknown).
/// `bundle_tasks`: the number of tasks of the bundle, when it was given (`--tasks`).
pub(crate) fn run_summary(
    name: &str,
    report: &Report,
    stats: &RunStats,
    bundle_tasks: Option<usize>,
) -> String {
    let with_tasks = bundle_tasks.is_some();
    let mut out = format!(
        "report   {name}\nscorer   {} {}\nbundle   {}\n\n",
        report.scorer.name, report.scorer.version, report.bundle.hash
    );
    out.push_str(&totals(&stats.overall, stats.entry_errors));
    out.push_str(&of_bundle(report, bundle_tasks.unwrap_or(0)));
    if with_tasks {
        out.push_str(&groups("by repository", "repository", &stats.by_repo));
    }
    if !stats.by_instruction_set.is_empty() {
        out.push_str(&groups("by instruction set", "set", &stats.by_instruction_set));
    }
    if with_tasks {
        out.push_str(&groups("by files the tests inspect", "files", &stats.by_inspected_files));
    }
    if stats.by_model.len() > 1 || stats.by_model.iter().any(|g| g.key != "none") {
        out.push_str(&groups("by model", "model", &stats.by_model));
    }
    if !with_tasks {
        out.push_str(
            "\n(give --tasks BUNDLE for the breakdowns by repository and by inspected files)\n",
        );
    }
    if !stats.patch_failures.is_empty() {
        let rows: Vec<Vec<String>> = stats
            .patch_failures
            .iter()
            .map(|f| vec![f.kind.clone(), f.count.to_string(), cut(&f.example, 100)])
            .collect();
        out.push_str(&format!("\npatch failures\n{}", table(&["kind", "count", "example"], &rows)));
    }
    if !report.errors.is_empty() {
        out.push_str("\nentries not scored\n");
        for e in &report.errors {
            let _ = writeln!(out, "{}: {}", e.source, e.message);
        }
    }
    out
}

fn status(s: Option<scorer::report::Status>) -> &'static str {
    s.map_or("not run", |s| s.as_str())
}

/// `--compare`: flips, per-method deltas and one-sided results.
pub(crate) fn comparison(a_name: &str, b_name: &str, c: &Comparison) -> String {
    let mut out = format!("compare  {a_name} -> {b_name}\n");
    if c.bundle_differs {
        out.push_str("warning  the reports were scored against different bundles\n");
    }
    match (c.matched_by_model, c.matched_by_instruction_set) {
        (true, true) => {}
        (false, true) => out
            .push_str("matched  by instance and instruction set (the runs share no model name)\n"),
        (true, false) => out.push_str(
            "matched  by instance and model (the runs share no instruction set: one agent's sets side by side)\n",
        ),
        (false, false) => out.push_str(
            "matched  by instance only (the runs share no model name and no instruction set)\n",
        ),
    }
    let _ = writeln!(
        out,
        "common   {} results: {} resolved before, {} after ({} gained, {} lost)",
        c.common,
        c.resolved_before,
        c.resolved_after,
        c.gained.len(),
        c.lost.len()
    );
    let flips: Vec<Vec<String>> = c
        .lost
        .iter()
        .chain(&c.gained)
        .map(|f| {
            let what = if f.now_resolved { "gained" } else { "lost" };
            vec![what.to_string(), f.key.to_string()]
        })
        .collect();
    if !flips.is_empty() {
        out.push_str(&format!("\nflips\n{}", table(&["flip", "result"], &flips)));
    }
    if !c.subtest_deltas.is_empty() {
        let rows: Vec<Vec<String>> = c
            .subtest_deltas
            .iter()
            .map(|d| {
                vec![
                    d.key.to_string(),
                    d.test.clone(),
                    status(d.before).to_string(),
                    status(d.after).to_string(),
                ]
            })
            .collect();
        out.push_str(&format!(
            "\nsubtest changes\n{}",
            table(&["result", "test", "before", "after"], &rows)
        ));
    }
    for (title, keys) in
        [("only in the first run", &c.only_in_a), ("only in the second run", &c.only_in_b)]
    {
        if !keys.is_empty() {
            let _ = writeln!(out, "\n{title}");
            for k in keys {
                let _ = writeln!(out, "{k}");
            }
        }
    }
    if c.duplicates_ignored > 0 {
        let _ = writeln!(
            out,
            "\n{} repeated results ignored (only the first of a key is compared)",
            c.duplicates_ignored
        );
    }
    out
}

fn csv(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    scorer::report::csv_row(&mut out, header);
    for r in rows {
        scorer::report::csv_row(&mut out, &r.iter().map(String::as_str).collect::<Vec<_>>());
    }
    out
}

/// The comparison as CSV: one row per flip, subtest change and one-sided result.
pub(crate) fn comparison_csv(c: &Comparison) -> String {
    let key = |k: &scorer::stats::RunKey| {
        vec![
            k.instance_id.clone(),
            k.model_name_or_path.clone().unwrap_or_default(),
            k.instruction_set.map_or("", |s| s.as_str()).to_string(),
        ]
    };
    let mut rows = Vec::new();
    for f in c.lost.iter().chain(&c.gained) {
        let mut r = vec![if f.now_resolved { "gained" } else { "lost" }.to_string()];
        r.extend(key(&f.key));
        r.extend([String::new(), f.was_resolved.to_string(), f.now_resolved.to_string()]);
        rows.push(r);
    }
    for d in &c.subtest_deltas {
        let mut r = vec!["subtest".to_string()];
        r.extend(key(&d.key));
        r.extend([d.test.clone(), status(d.before).to_string(), status(d.after).to_string()]);
        rows.push(r);
    }
    for (kind, keys) in [("only_in_first", &c.only_in_a), ("only_in_second", &c.only_in_b)] {
        for k in keys {
            let mut r = vec![kind.to_string()];
            r.extend(key(k));
            r.extend([String::new(), String::new(), String::new()]);
            rows.push(r);
        }
    }
    csv(
        &[
            "change",
            "instance_id",
            "model_name_or_path",
            "instruction_set",
            "test",
            "before",
            "after",
        ],
        &rows,
    )
}
