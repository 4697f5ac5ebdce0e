//! A submitted patch shown as text: one section per file, `+`/`-` lines coloured, the files the
//! task's tests inspect marked, and each file's outcome of the strict `git apply`.
//!
//! The parser here is for display only and never fails: the verdict comes from
//! `scorer::patch`, whose per-file outcomes ([`FileOutcome`]) are matched to these sections by
//! path. Patches are hostile input, so everything is rendered as text nodes.

use leptos::prelude::*;
use scorer::patch::{FileChangeKind, FileOutcome, FileResult};

/// What a line of a patch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// `diff --git`, `index`, `---`, `+++`, mode and rename lines.
    Meta,
    /// `@@ -a,b +c,d @@`.
    Hunk,
    Add,
    Del,
    Context,
    /// `\ No newline at end of file`.
    NoNewline,
    /// Anything else (text between files, garbage after a hunk).
    Other,
}

/// One line of a file section; `hunk` is the 1-based hunk it belongs to (the `@@` line included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine {
    pub kind: LineKind,
    pub text: String,
    pub hunk: Option<usize>,
}

/// One file's part of the patch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiffFile {
    /// Path before the change (`None` for a new file or when the header names none).
    pub old_path: Option<String>,
    /// Path after the change (`None` for a deletion).
    pub new_path: Option<String>,
    pub lines: Vec<DiffLine>,
}

impl DiffFile {
    /// The path to show and to match outcomes by: the new one, else the old one.
    pub fn path(&self) -> &str {
        self.new_path.as_deref().or(self.old_path.as_deref()).unwrap_or("(no file name)")
    }

    /// Added and removed lines.
    pub fn stat(&self) -> (usize, usize) {
        let count = |k| self.lines.iter().filter(|l| l.kind == k).count();
        (count(LineKind::Add), count(LineKind::Del))
    }

    fn names(&self, path: &str) -> bool {
        self.new_path.as_deref() == Some(path) || self.old_path.as_deref() == Some(path)
    }
}

/// A patch split into file sections; lines before the first file (a commit message) are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedDiff {
    pub preamble: Vec<String>,
    pub files: Vec<DiffFile>,
}

/// Splits a unified or git diff into file sections. Tolerant: unknown lines are kept as
/// [`LineKind::Other`]; nothing is dropped, so the sections' lines plus the preamble are every
/// line of the input.
pub fn parse_diff(text: &str) -> ParsedDiff {
    let mut out = ParsedDiff::default();
    let lines: Vec<&str> = text.lines().collect();
    // Lines of the current hunk still expected (old side, new side).
    let (mut old_left, mut new_left) = (0u64, 0u64);
    let mut hunk_no = 0usize;
    let mut git = false;
    // The hunk the previous line belonged to, if it was a hunk line.
    let mut prev_hunk: Option<usize> = None;
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let in_hunk = old_left > 0 || new_left > 0;
        // `\ No newline at end of file` follows the hunk's last line, after the counts ran out.
        if line.starts_with('\\') && prev_hunk.is_some() {
            push(&mut out, LineKind::NoNewline, line, prev_hunk);
            continue;
        }
        prev_hunk = None;
        if in_hunk {
            let kind = match line.as_bytes().first() {
                Some(b'+') => {
                    new_left = new_left.saturating_sub(1);
                    LineKind::Add
                }
                Some(b'-') => {
                    old_left = old_left.saturating_sub(1);
                    LineKind::Del
                }
                Some(b' ') | None => {
                    old_left = old_left.saturating_sub(1);
                    new_left = new_left.saturating_sub(1);
                    LineKind::Context
                }
                Some(b'\\') => LineKind::NoNewline,
                // A truncated hunk: the counts promised more lines than there are.
                _ => {
                    old_left = 0;
                    new_left = 0;
                    LineKind::Other
                }
            };
            if kind != LineKind::Other {
                prev_hunk = Some(hunk_no);
                push(&mut out, kind, line, Some(hunk_no));
                continue;
            }
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            git = true;
            hunk_no = 0;
            let (old, new) = split_git_header(rest);
            out.files.push(DiffFile { old_path: old, new_path: new, lines: Vec::new() });
            push(&mut out, LineKind::Meta, line, None);
            continue;
        }
        if line.starts_with("--- ") && lines.get(i + 1).is_some_and(|n| n.starts_with("+++ ")) {
            let old = header_path(&line[4..], git);
            // A `---` after a hunk or in a fresh non-git diff starts a new file.
            let starts_file = match out.files.last() {
                None => true,
                Some(f) => {
                    f.lines.iter().any(|l| matches!(l.kind, LineKind::Hunk))
                        || f.lines.iter().any(|l| l.text.starts_with("--- "))
                }
            };
            if starts_file {
                git = false;
                hunk_no = 0;
                out.files.push(DiffFile { old_path: old, new_path: None, lines: Vec::new() });
            } else if let Some(f) = out.files.last_mut() {
                // The git header already named the paths; `/dev/null` says which side is absent.
                if old.is_none() {
                    f.old_path = None;
                }
            }
            push(&mut out, LineKind::Meta, line, None);
            continue;
        }
        if let Some(rest) = line.strip_prefix("+++ ") {
            if let Some(f) = out.files.last_mut() {
                let new = header_path(rest, git);
                if new.is_none() || f.new_path.is_none() || !git {
                    f.new_path = new;
                }
                push(&mut out, LineKind::Meta, line, None);
                continue;
            }
        }
        if let Some((o, n)) = parse_hunk_header(line) {
            if !out.files.is_empty() {
                hunk_no += 1;
                old_left = o;
                new_left = n;
                push(&mut out, LineKind::Hunk, line, Some(hunk_no));
                continue;
            }
        }
        let meta = git
            && [
                "index ",
                "new file mode",
                "deleted file mode",
                "old mode",
                "new mode",
                "similarity index",
                "dissimilarity index",
                "rename from ",
                "rename to ",
                "copy from ",
                "copy to ",
                "Binary files ",
                "GIT binary patch",
            ]
            .iter()
            .any(|p| line.starts_with(p));
        if meta {
            if let Some(f) = out.files.last_mut() {
                if let Some(p) =
                    line.strip_prefix("rename from ").or(line.strip_prefix("copy from "))
                {
                    f.old_path = Some(unquote(p));
                } else if let Some(p) =
                    line.strip_prefix("rename to ").or(line.strip_prefix("copy to "))
                {
                    f.new_path = Some(unquote(p));
                } else if line.starts_with("new file mode") {
                    f.old_path = None;
                } else if line.starts_with("deleted file mode") {
                    f.new_path = None;
                }
            }
        }
        let kind = if meta { LineKind::Meta } else { LineKind::Other };
        if out.files.is_empty() {
            out.preamble.push(line.to_string());
        } else {
            push(&mut out, kind, line, None);
        }
    }
    out
}

fn push(out: &mut ParsedDiff, kind: LineKind, text: &str, hunk: Option<usize>) {
    if let Some(f) = out.files.last_mut() {
        f.lines.push(DiffLine { kind, text: text.to_string(), hunk });
    } else {
        out.preamble.push(text.to_string());
    }
}

/// `@@ -a[,b] +c[,d] @@…` → (b, d), counts defaulting to 1.
fn parse_hunk_header(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("@@ -")?;
    let (ranges, _) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let count = |r: &str| -> Option<u64> {
        match r.split_once(',') {
            Some((start, n)) => {
                start.parse::<u64>().ok()?;
                n.parse().ok()
            }
            None => r.parse::<u64>().ok().map(|_| 1),
        }
    };
    Some((count(old)?, count(new)?))
}

/// Removes git's C-style quoting (`"a/x\ty"`) closely enough for display.
fn unquote(p: &str) -> String {
    let Some(inner) = p.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return p.to_string();
    };
    let mut s = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('t') => s.push('\t'),
                Some('n') => s.push('\n'),
                Some(other) => s.push(other),
                None => {}
            }
        } else {
            s.push(c);
        }
    }
    s
}

/// The path of a `---`/`+++` line: `/dev/null` is none; a timestamp after a tab is dropped; the
/// first component (`a/`, `b/`, or any folder of a plain diff) is stripped, as `git apply -p1`.
fn header_path(rest: &str, git: bool) -> Option<String> {
    let p = unquote(rest.split('\t').next().unwrap_or(rest).trim_end());
    if p == "/dev/null" {
        return None;
    }
    let stripped = if git {
        p.strip_prefix("a/").or(p.strip_prefix("b/")).unwrap_or(&p)
    } else {
        p.split_once('/').map_or(p.as_str(), |(_, rest)| rest)
    };
    Some(stripped.to_string())
}

/// `a/x b/y` → (x, y). Names with spaces are split where both halves name the same path when they
/// can (a modification), else at the last ` b/`.
fn split_git_header(rest: &str) -> (Option<String>, Option<String>) {
    let rest = rest.trim_end();
    if rest.starts_with('"') {
        // Quoted names: `"a/x y" "b/x y"`.
        let parts: Vec<&str> = rest.split("\" ").collect();
        if parts.len() == 2 {
            let a = unquote(&format!("{}\"", parts[0]));
            let b = unquote(parts[1]);
            let strip = |s: &str| s.get(2..).unwrap_or(s).to_string();
            return (Some(strip(&a)), Some(strip(&b)));
        }
    }
    let Some(rest) = rest.strip_prefix("a/") else { return (None, None) };
    let splits: Vec<usize> = rest.match_indices(" b/").map(|(i, _)| i).collect();
    let pick =
        splits.iter().copied().find(|&i| rest[..i] == rest[i + 3..]).or(splits.last().copied());
    match pick {
        Some(i) => (Some(rest[..i].to_string()), Some(rest[i + 3..].to_string())),
        None => (None, None),
    }
}

/// Pairs each file section with its apply outcome (by path, each outcome used once); outcomes
/// that match no section come back separately.
pub fn match_outcomes<'a>(
    files: &[DiffFile],
    outcomes: &'a [FileOutcome],
) -> (Vec<Option<&'a FileOutcome>>, Vec<&'a FileOutcome>) {
    let mut used = vec![false; outcomes.len()];
    let matched = files
        .iter()
        .map(|f| {
            let found = outcomes.iter().enumerate().find(|(i, o)| {
                !used[*i] && (f.names(&o.path) || o.old_path.as_deref().is_some_and(|p| f.names(p)))
            });
            found.map(|(i, o)| {
                used[i] = true;
                o
            })
        })
        .collect();
    let rest = outcomes.iter().zip(used).filter(|(_, u)| !u).map(|(o, _)| o).collect();
    (matched, rest)
}

/// Sections longer than this show their first lines and a count of the rest.
pub const MAX_LINES_PER_FILE: usize = 3000;

fn kind_label(kind: FileChangeKind) -> &'static str {
    match kind {
        FileChangeKind::Modify => "modified",
        FileChangeKind::Add => "new file",
        FileChangeKind::Delete => "deleted",
        FileChangeKind::Rename => "renamed",
        FileChangeKind::Copy => "copied",
        FileChangeKind::Mode => "mode change",
    }
}

/// The badge and details of one file's apply outcome.
fn outcome_view(o: &FileOutcome, patch_failed: bool) -> AnyView {
    let kind = kind_label(o.kind);
    let extra = (!o.rejected_hunks.is_empty()).then(|| {
        let list = o.rejected_hunks.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", ");
        view! { <span class="badge badge-warn">{format!("fallback rejected hunks {list}")}</span> }
    });
    match &o.result {
        FileResult::Applied => {
            let (label, title) = if patch_failed {
                (
                    "applies",
                    "this file's change applies, but nothing was written: another file failed",
                )
            } else {
                ("applied", "this file's change was applied")
            };
            view! {
                <span class="badge badge-kind">{kind}</span>
                <span class="badge badge-applied" title=title>{label}</span>
                {extra}
            }
            .into_any()
        }
        FileResult::Rejected { hunk, reason, .. } => view! {
            <span class="badge badge-kind">{kind}</span>
            <span class="badge badge-rejected">{format!("rejected: hunk {hunk}")}</span>
            <span class="outcome-reason">{reason.clone()}</span>
            {extra}
        }
        .into_any(),
        FileResult::Invalid { reason } => view! {
            <span class="badge badge-kind">{kind}</span>
            <span class="badge badge-rejected">"invalid"</span>
            <span class="outcome-reason">{reason.clone()}</span>
        }
        .into_any(),
    }
}

/// Expected (the hunk's old lines) against found (the file at that place), for a rejected hunk.
fn rejected_detail(o: &FileOutcome) -> Option<AnyView> {
    let FileResult::Rejected { hunk, expected, found, .. } = &o.result else { return None };
    let text = |lines: &[String]| {
        if lines.is_empty() {
            "(nothing: the file ends before)".to_string()
        } else {
            lines.iter().map(|l| l.strip_suffix('\r').unwrap_or(l)).collect::<Vec<_>>().join("\n")
        }
    };
    Some(
        view! {
            <div class="reject-detail">
                <div>
                    <div class="reject-title">{format!("hunk {hunk} expected")}</div>
                    <pre class="reject-lines" tabindex="0">{text(expected)}</pre>
                </div>
                <div>
                    <div class="reject-title">"the file has"</div>
                    <pre class="reject-lines" tabindex="0">{text(found)}</pre>
                </div>
            </div>
        }
        .into_any(),
    )
}

fn line_class(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Meta => "dl dl-meta",
        LineKind::Hunk => "dl dl-hunk",
        LineKind::Add => "dl dl-add",
        LineKind::Del => "dl dl-del",
        LineKind::Context => "dl",
        LineKind::NoNewline => "dl dl-nonl",
        LineKind::Other => "dl dl-other",
    }
}

/// A patch, file by file. `outcomes` are `TaskResult::files`; `inspected` are the repository
/// paths the task's tests read; `patch_failed` says the patch as a whole did not apply (so
/// "applied" files were not written).
#[component]
pub fn DiffView(
    /// The patch text as submitted.
    #[prop(into)]
    patch: String,
    /// Per-file outcome of the strict apply (`TaskResult::files`).
    #[prop(optional)]
    outcomes: Vec<FileOutcome>,
    /// Paths the task's tests inspect (`TaskData::inspected`).
    #[prop(optional)]
    inspected: Vec<String>,
    /// The overall patch status was `failed`.
    #[prop(optional)]
    patch_failed: bool,
    /// The patch text is not known (an imported report carries no patches).
    #[prop(optional)]
    patch_missing: bool,
) -> impl IntoView {
    if patch_missing && patch.is_empty() {
        return view! { <p class="muted diff-empty" id="patch-missing">"This report does not carry the submitted patch (export the run with “Export run” to keep it)."</p> }
            .into_any();
    }
    if patch.trim().is_empty() {
        return view! { <p class="muted diff-empty">"The patch is empty: the base repository was tested."</p> }
            .into_any();
    }
    let parsed = parse_diff(&patch);
    let (matched, unmatched) = match_outcomes(&parsed.files, &outcomes);
    let n_inspected = parsed.files.iter().filter(|f| inspected.iter().any(|p| f.names(p))).count();
    let summary = format!(
        "{} file{} changed, {} of them inspected by the tests",
        parsed.files.len(),
        if parsed.files.len() == 1 { "" } else { "s" },
        n_inspected
    );
    let preamble = (!parsed.preamble.iter().all(|l| l.trim().is_empty()))
        .then(|| view! { <pre class="diff diff-preamble" tabindex="0">{parsed.preamble.join("\n")}</pre> });
    let sections = parsed
        .files
        .iter()
        .zip(matched)
        .map(|(f, outcome)| {
            let is_inspected = inspected.iter().any(|p| f.names(p));
            let (adds, dels) = f.stat();
            let name = match (&f.old_path, &f.new_path) {
                (Some(o), Some(n)) if o != n => format!("{o} → {n}"),
                _ => f.path().to_string(),
            };
            let rejected_hunk = outcome.and_then(|o| match o.result {
                FileResult::Rejected { hunk, .. } => Some(hunk),
                _ => None,
            });
            let badges = outcome.map(|o| outcome_view(o, patch_failed));
            let detail = outcome.and_then(rejected_detail);
            let shown = f.lines.len().min(MAX_LINES_PER_FILE);
            let more = f.lines.len() - shown;
            let body = f.lines[..shown]
                .iter()
                .map(|l| {
                    let class = line_class(l.kind);
                    let bad = rejected_hunk.is_some() && l.hunk == rejected_hunk;
                    view! { <span class=class class:dl-rejected=bad>{l.text.clone()}</span> }
                })
                .collect_view();
            view! {
                <details class="diff-file" class:diff-inspected=is_inspected open=true data-path=f.path().to_string()>
                    <summary class="diff-head">
                        <span class="diff-path">{name}</span>
                        {is_inspected.then(|| view! {
                            <span class="badge badge-inspected" title="the task's tests read this file">"inspected by tests"</span>
                        })}
                        {badges}
                        <span class="diff-stat">
                            <span class="stat-add">{format!("+{adds}")}</span>" "
                            <span class="stat-del">{format!("−{dels}")}</span>
                        </span>
                    </summary>
                    {detail}
                    <pre class="diff" tabindex="0">{body}</pre>
                    {(more > 0).then(|| view! { <p class="muted">{format!("… {more} more lines not shown")}</p> })}
                </details>
            }
        })
        .collect_view();
    let others = (!unmatched.is_empty()).then(|| {
        let items = unmatched
            .into_iter()
            .map(|o| view! { <li><span class="diff-path">{o.path.clone()}</span>" "{outcome_view(o, patch_failed)}</li> })
            .collect_view();
        view! {
            <div class="diff-unmatched">
                <p class="muted">"Apply outcomes for files this view could not find in the patch text:"</p>
                <ul>{items}</ul>
            </div>
        }
    });
    view! {
        <div class="diff-view">
            <p class="muted diff-summary">{summary}</p>
            {preamble}
            {sections}
            {others}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIT: &str = "From: someone\n\ndiff --git a/ledgerly/money.py b/ledgerly/money.py\nindex 1111111..2222222 100644\n--- a/ledgerly/money.py\n+++ b/ledgerly/money.py\n@@ -1,3 +1,3 @@\n import re\n-def parse_amount(text):\n+def parse_money(text):\n     pass\n@@ -10 +10,2 @@\n-x = 1\n+x = 2\n+y = 3\ndiff --git a/ledgerly/storage/loaders.py b/ledgerly/storage/csv_loader.py\nsimilarity index 80%\nrename from ledgerly/storage/loaders.py\nrename to ledgerly/storage/csv_loader.py\ndiff --git a/new.py b/new.py\nnew file mode 100644\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+print('hi')\n\\ No newline at end of file\ndiff --git a/old.py b/old.py\ndeleted file mode 100644\n--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n--- a comment line that looks like a header\n";

    #[test]
    fn git_diff_sections_paths_and_kinds() {
        let d = parse_diff(GIT);
        assert_eq!(d.preamble, vec!["From: someone", ""]);
        let paths: Vec<(Option<&str>, Option<&str>)> =
            d.files.iter().map(|f| (f.old_path.as_deref(), f.new_path.as_deref())).collect();
        assert_eq!(
            paths,
            vec![
                (Some("ledgerly/money.py"), Some("ledgerly/money.py")),
                (Some("ledgerly/storage/loaders.py"), Some("ledgerly/storage/csv_loader.py")),
                (None, Some("new.py")),
                (Some("old.py"), None),
            ]
        );
        let money = &d.files[0];
        assert_eq!(money.stat(), (3, 2));
        let kinds: Vec<LineKind> = money.lines.iter().map(|l| l.kind).collect();
        use LineKind::*;
        assert_eq!(
            kinds,
            vec![Meta, Meta, Meta, Meta, Hunk, Context, Del, Add, Context, Hunk, Del, Add, Add]
        );
        assert_eq!(money.lines[10].hunk, Some(2));
        assert_eq!(d.files[2].lines.last().map(|l| l.kind), Some(NoNewline));
        // A removed line starting with "--" inside a hunk is a deletion, not a new file header.
        assert_eq!(d.files[3].lines.last().map(|l| l.kind), Some(Del));
        assert_eq!(d.files.len(), 4);
        // Nothing is lost: preamble plus sections are every input line.
        let total: usize = d.preamble.len() + d.files.iter().map(|f| f.lines.len()).sum::<usize>();
        assert_eq!(total, GIT.lines().count());
    }

    #[test]
    fn plain_unified_diff_strips_one_component_and_splits_files() {
        let text = "--- orig/a.py\t2024-01-01 00:00:00\n+++ new/a.py\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n--- orig/pkg/b.py\n+++ new/pkg/b.py\n@@ -2,2 +2,2 @@\n x\n-y\n+z\ntrailing garbage\n";
        let d = parse_diff(text);
        assert!(d.preamble.is_empty());
        assert_eq!(d.files.len(), 2);
        assert_eq!(d.files[0].path(), "a.py");
        assert_eq!(d.files[0].old_path.as_deref(), Some("a.py"));
        assert_eq!(d.files[1].path(), "pkg/b.py");
        assert_eq!(d.files[1].lines.last().map(|l| l.kind), Some(LineKind::Other));
    }

    #[test]
    fn crlf_lines_and_paths_with_spaces() {
        let text = "diff --git a/my dir/a b.py b/my dir/a b.py\r\n--- a/my dir/a b.py\r\n+++ b/my dir/a b.py\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\n";
        let d = parse_diff(text);
        assert_eq!(d.files.len(), 1);
        assert_eq!(d.files[0].path(), "my dir/a b.py");
        assert_eq!(d.files[0].lines[5].text, "+y");
        assert_eq!(
            split_git_header("\"a/q x\" \"b/q y\""),
            (Some("q x".into()), Some("q y".into()))
        );
    }

    #[test]
    fn truncated_hunk_and_garbage_do_not_panic() {
        for text in [
            "@@ -1,5 +1,5 @@\n x",
            "diff --git a/x\n@@ -1,99 +1 @@\n-a\nfoo\n",
            "--- \n+++ \n@@",
            "\u{0}\n--- a\n+++ b\n@@ -x +y @@\n",
        ] {
            let d = parse_diff(text);
            let total: usize =
                d.preamble.len() + d.files.iter().map(|f| f.lines.len()).sum::<usize>();
            assert_eq!(total, text.lines().count(), "{text:?}");
        }
    }

    #[test]
    fn outcomes_match_by_new_or_old_path() {
        let d = parse_diff(GIT);
        let outcome = |path: &str, old: Option<&str>, kind| FileOutcome {
            path: path.into(),
            old_path: old.map(Into::into),
            kind,
            result: FileResult::Applied,
            rejected_hunks: vec![],
        };
        let outcomes = vec![
            outcome("old.py", None, FileChangeKind::Delete),
            outcome(
                "ledgerly/storage/csv_loader.py",
                Some("ledgerly/storage/loaders.py"),
                FileChangeKind::Rename,
            ),
            outcome("ledgerly/money.py", None, FileChangeKind::Modify),
            outcome("elsewhere.py", None, FileChangeKind::Modify),
        ];
        let (matched, rest) = match_outcomes(&d.files, &outcomes);
        let got: Vec<Option<&str>> = matched.iter().map(|o| o.map(|o| o.path.as_str())).collect();
        assert_eq!(
            got,
            vec![
                Some("ledgerly/money.py"),
                Some("ledgerly/storage/csv_loader.py"),
                None,
                Some("old.py")
            ]
        );
        assert_eq!(rest.len(), 1);
        assert_eq!(rest[0].path, "elsewhere.py");
    }

    #[test]
    fn demo_submission_patches_parse_into_their_files() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tasks/demo/submissions");
        let mut n = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().and_then(|e| e.to_str()) != Some("patch") {
                continue;
            }
            // Patches are bytes (the GBK sample is not UTF-8): shown as the app shows them.
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            let d = parse_diff(&text);
            let headers = text.lines().filter(|l| l.starts_with("diff --git ")).count();
            assert_eq!(d.files.len(), headers, "{}", p.display());
            let total: usize =
                d.preamble.len() + d.files.iter().map(|f| f.lines.len()).sum::<usize>();
            assert_eq!(total, text.lines().count());
            assert!(d.files.iter().all(|f| f.new_path.is_some() || f.old_path.is_some()));
            n += 1;
        }
        assert!(n >= 10);
    }
}
