//! The edit state σ after each step (shared/trajectories.md §1.4): per file, the line ranges
//! edited so far in the file's *current* coordinates, failed edits, created/deleted flags.
//!
//! Sources, best first: a cumulative repository diff logged with the step (SWE-agent
//! `diff_state`: exact, σ is recomputed from it); an op's own hunks (exact per op); an op's line
//! ranges (derived: `edit L:M`, `insert_line`, a located `str_replace`); otherwise the whole file
//! is marked edited (`whole_file`, e.g. `sed` with a regex address or a `str_replace` whose
//! snippet could not be located). Every applied op moves the ranges below it by the number of
//! lines it added or removed ("rebasing"), so ranges stay in current coordinates.
//!
//! Also the paper's own view of the state (App. G, §6.1): the `recent_edits` pairs.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::analysis::{FileState, StepState};
use super::model::{Confidence, EditKind, EditOp, EditStatus, LineRange, Step, Trajectory};

/// One file's σ while the steps are walked.
#[derive(Debug, Clone, Default, PartialEq)]
struct FileSigma {
    /// Sorted, merged, in current coordinates.
    ranges: Vec<LineRange>,
    whole_file: bool,
    failed_edits: u32,
    created: bool,
    deleted: bool,
    /// Lowest confidence of the applied ops that shaped it.
    confidence: Option<Confidence>,
    /// The state before each applied op, for `undo_edit`.
    history: Vec<Snapshot>,
}

#[derive(Debug, Clone, PartialEq)]
struct Snapshot {
    ranges: Vec<LineRange>,
    whole_file: bool,
    created: bool,
    deleted: bool,
}

impl FileSigma {
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            ranges: self.ranges.clone(),
            whole_file: self.whole_file,
            created: self.created,
            deleted: self.deleted,
        }
    }

    /// Whether the file differs from the repository as far as σ knows.
    fn changed(&self) -> bool {
        !self.ranges.is_empty() || self.whole_file || self.created || self.deleted
    }

    fn lower_confidence(&mut self, c: Confidence) {
        self.confidence = Some(self.confidence.map_or(c, |old| old.max(c)));
    }
}

/// σ while walking a trajectory.
#[derive(Debug, Clone, Default)]
pub struct Sigma {
    files: BTreeMap<String, FileSigma>,
}

/// One change of an op, as a unified-diff hunk would give it: `old` lines (before the op) became
/// `new` lines (after it). Empty ranges have `end == start - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Change {
    old: (i64, i64),
    new: (i64, i64),
}

fn len(r: (i64, i64)) -> i64 {
    (r.1 - r.0 + 1).max(0)
}

/// Where line `x` (before the op) is after it; `start`: the first line of a range (a line inside
/// a replaced block maps to the block's first new line, else to its last).
fn map_point(x: i64, changes: &[Change], start: bool) -> i64 {
    let mut delta = 0;
    for c in changes {
        if x < c.old.0 {
            break;
        }
        if len(c.old) > 0 && x <= c.old.1 {
            return if start { c.new.0 } else { c.new.0 + len(c.new) - 1 };
        }
        delta += len(c.new) - len(c.old);
    }
    x + delta
}

fn to_range(a: i64, b: i64) -> Option<LineRange> {
    let a = u32::try_from(a.max(1)).ok()?;
    let b = u32::try_from(b).ok()?;
    (b >= a).then_some(LineRange { start: a, end: b })
}

/// Sorts and merges overlapping or adjacent ranges.
fn merge(mut ranges: Vec<LineRange>) -> Vec<LineRange> {
    ranges.sort();
    let mut out: Vec<LineRange> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end.saturating_add(1) => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// The ranges after an op made `changes` (sorted by `old`), plus the lines it wrote.
fn rebase(ranges: &[LineRange], changes: &[Change]) -> Vec<LineRange> {
    let mut out: Vec<LineRange> = ranges
        .iter()
        .filter_map(|r| {
            to_range(
                map_point(i64::from(r.start), changes, true),
                map_point(i64::from(r.end), changes, false),
            )
        })
        .collect();
    out.extend(changes.iter().filter_map(|c| to_range(c.new.0, c.new.1)));
    merge(out)
}

/// Number of lines of a text as an editor counts them (a final newline ends the last line).
pub fn line_count(text: &str) -> u32 {
    u32::try_from(text.lines().count()).unwrap_or(u32::MAX)
}

/// The lines of a whole-file write: its `lines_after`, else counted from its text; `None` when
/// neither is known (or the file is empty).
fn whole_lines(op: &EditOp) -> Option<LineRange> {
    op.lines_after.or_else(|| to_range(1, i64::from(line_count(op.new_text.as_deref()?))))
}

/// The op's changes from its line ranges, when it has any.
fn derived_changes(op: &EditOp) -> Option<Vec<Change>> {
    let r = |l: LineRange| (i64::from(l.start), i64::from(l.end));
    let written = op.new_text.as_deref().map(|t| i64::from(line_count(t)));
    let (old, new) = match (op.lines_before, op.lines_after) {
        (Some(b), Some(a)) => (r(b), r(a)),
        (Some(b), None) => {
            let b = r(b);
            // Without the new text the shift is unknown: keep the lines where they were.
            let n = written.unwrap_or(len(b));
            (b, (b.0, b.0 + n - 1))
        }
        (None, Some(a)) => {
            let a = r(a);
            ((a.0, a.0 - 1), a)
        }
        (None, None) => return None,
    };
    Some(vec![Change { old, new }])
}

/// The changes of an op's own hunks (unified-diff headers; `x,0` means "after line x").
fn hunk_changes(op: &EditOp) -> Vec<Change> {
    let mut out: Vec<Change> = op
        .hunks
        .iter()
        .map(|h| {
            let side = |start: u32, lines: u32| {
                let (s, n) = (i64::from(start), i64::from(lines));
                if n == 0 {
                    (s + 1, s)
                } else {
                    (s, s + n - 1)
                }
            };
            Change { old: side(h.old_start, h.old_lines), new: side(h.new_start, h.new_lines) }
        })
        .collect();
    out.sort_by_key(|c| c.old);
    out
}

impl Sigma {
    pub fn new() -> Sigma {
        Sigma::default()
    }

    fn entry(&mut self, path: &str) -> &mut FileSigma {
        self.files.entry(path.to_string()).or_default()
    }

    /// Applies one step: its ops in order, then its logged repository diff if any.
    pub fn step(&mut self, step: &Step) {
        for op in &step.edits {
            self.apply(op);
        }
        if let Some(diff) = &step.repo_diff {
            self.reset_from_diff(diff);
        }
    }

    /// Applies one recognised op. Rejected ops only count as failed; ops of unknown outcome are
    /// taken as applied (nothing says they failed).
    pub fn apply(&mut self, op: &EditOp) {
        if let EditStatus::Rejected { .. } = op.status {
            let f = self.entry(&op.path);
            f.failed_edits = f.failed_edits.saturating_add(1);
            return;
        }
        match op.kind {
            EditKind::Undo => {
                let f = self.entry(&op.path);
                if let Some(s) = f.history.pop() {
                    f.ranges = s.ranges;
                    f.whole_file = s.whole_file;
                    f.created = s.created;
                    f.deleted = s.deleted;
                }
            }
            EditKind::Delete => self.delete(&op.path),
            EditKind::Rename => match op.new_path.as_deref() {
                Some(to) if to != op.path => self.rename(&op.path, to, op.confidence),
                _ => self.file_level(op),
            },
            EditKind::Create => {
                let f = self.entry(&op.path);
                f.history.push(f.snapshot());
                // Recreating a deleted original file is a change of it, not a new file.
                f.created = !f.deleted || f.created;
                f.deleted = false;
                let lines = whole_lines(op);
                f.whole_file = lines.is_none() && op.new_text.is_none();
                f.ranges = lines.into_iter().collect();
                f.lower_confidence(op.confidence);
            }
            // A whole-file write (`write`, heredoc, redirection, `cp`); a windowed rewrite has
            // the window as `lines_before` and goes the derived way.
            EditKind::Rewrite if op.lines_before.is_none() => {
                let f = self.entry(&op.path);
                f.history.push(f.snapshot());
                let lines = whole_lines(op);
                // Emptied: a change with no line left to show.
                f.whole_file = lines.is_none();
                f.ranges = lines.into_iter().collect();
                f.deleted = false;
                f.lower_confidence(op.confidence);
            }
            _ => {
                let changes =
                    if op.hunks.is_empty() { derived_changes(op) } else { Some(hunk_changes(op)) };
                match changes {
                    Some(changes) => {
                        let f = self.entry(&op.path);
                        f.history.push(f.snapshot());
                        f.ranges = rebase(&f.ranges, &changes);
                        f.deleted = false;
                        f.lower_confidence(op.confidence);
                    }
                    None => self.file_level(op),
                }
            }
        }
    }

    /// An applied op whose lines are unknown: the whole file counts as edited.
    fn file_level(&mut self, op: &EditOp) {
        let f = self.entry(&op.path);
        f.history.push(f.snapshot());
        f.whole_file = true;
        f.deleted = false;
        f.lower_confidence(op.confidence);
    }

    fn delete(&mut self, path: &str) {
        let f = self.entry(path);
        if f.created {
            // Made and removed within the run: no change of the repository is left.
            let failed = f.failed_edits;
            *f = FileSigma { failed_edits: failed, ..FileSigma::default() };
            if failed == 0 {
                self.files.remove(path);
            }
            return;
        }
        f.history.push(f.snapshot());
        f.ranges.clear();
        f.whole_file = false;
        f.deleted = true;
    }

    fn rename(&mut self, from: &str, to: &str, confidence: Confidence) {
        let src = self.files.get(from).cloned().unwrap_or_default();
        self.delete(from);
        let f = self.entry(to);
        f.history.push(f.snapshot());
        f.created = true;
        f.deleted = false;
        f.ranges = src.ranges;
        // The moved file's other lines are not known: the whole file is new at its path.
        f.whole_file = true;
        f.lower_confidence(confidence);
    }

    /// Replaces σ with the files and changed lines of a cumulative diff against the original
    /// repository (exact). Failed-edit counts are kept. An unparsable diff is ignored.
    pub fn reset_from_diff(&mut self, diff: &str) {
        let Some(exact) = diff_state(diff) else {
            return;
        };
        let mut files: BTreeMap<String, FileSigma> = BTreeMap::new();
        for (path, f) in &self.files {
            if f.failed_edits > 0 {
                files.insert(
                    path.clone(),
                    FileSigma { failed_edits: f.failed_edits, ..FileSigma::default() },
                );
            }
        }
        for (path, d) in exact {
            let f = files.entry(path.clone()).or_default();
            let old = self.files.get(&path);
            f.history = old.map(|o| o.history.clone()).unwrap_or_default();
            f.ranges = d.ranges;
            f.created = d.created;
            f.deleted = d.deleted;
            f.confidence = Some(Confidence::Exact);
        }
        self.files = files;
    }

    /// σ as the analysis reports it (files with a change or a failed edit, by path).
    pub fn state(&self, step: usize) -> StepState {
        let files = self
            .files
            .iter()
            .filter(|(_, f)| f.changed() || f.failed_edits > 0)
            .map(|(path, f)| FileState {
                path: path.clone(),
                ranges: f.ranges.iter().map(|r| [r.start, r.end]).collect(),
                failed_edits: f.failed_edits,
                created: f.created,
                deleted: f.deleted,
                whole_file: f.whole_file,
                confidence: f.confidence,
            })
            .collect();
        StepState { step, files }
    }
}

/// σ after every step, in step order.
pub fn edit_state(t: &Trajectory) -> Vec<StepState> {
    let mut sigma = Sigma::new();
    t.steps
        .iter()
        .map(|s| {
            sigma.step(s);
            sigma.state(s.index)
        })
        .collect()
}

/// One file of a parsed diff: changed lines in the new file, creation/deletion.
#[derive(Debug, Clone, Default, PartialEq)]
struct DiffFile {
    ranges: Vec<LineRange>,
    created: bool,
    deleted: bool,
}

fn lossy(name: &[u8]) -> String {
    String::from_utf8_lossy(name).into_owned()
}

/// The files of a unified/git diff with the lines each hunk adds (`+` lines, in new-file
/// coordinates); pure deletions add no line. `None` when the diff does not parse.
fn diff_state(diff: &str) -> Option<BTreeMap<String, DiffFile>> {
    let patch = crate::patch::parse(diff.as_bytes()).ok()?;
    let mut out: BTreeMap<String, DiffFile> = BTreeMap::new();
    for fp in &patch.files {
        if let (true, Some(old)) = (fp.is_rename, fp.old_name.as_deref()) {
            out.entry(lossy(old)).or_default().deleted = true;
        }
        let Some(name) = fp.new_name.as_deref().or(fp.old_name.as_deref()) else {
            continue;
        };
        let f = out.entry(lossy(name)).or_default();
        f.deleted = fp.is_delete.is_yes();
        f.created = fp.is_new.is_yes() || fp.is_rename;
        let mut added = Vec::new();
        for h in &fp.hunks {
            let mut line = i64::try_from(h.new_pos).unwrap_or(i64::MAX);
            let text = String::from_utf8_lossy(h.text);
            for l in text.lines().skip(1) {
                match l.as_bytes().first() {
                    Some(b'+') => {
                        added.extend(to_range(line, line));
                        line += 1;
                    }
                    Some(b'-') | Some(b'\\') => {}
                    _ => line += 1,
                }
            }
        }
        f.ranges = merge(added);
    }
    Some(out)
}

/// Paths a patch touches: both sides of every file change (added, modified, deleted, renamed).
/// `None` when the text is not a patch git would parse; an empty or blank text touches nothing.
pub fn patch_paths(patch: &str) -> Option<BTreeSet<String>> {
    if patch.trim().is_empty() {
        return Some(BTreeSet::new());
    }
    let parsed = crate::patch::parse(patch.as_bytes()).ok()?;
    let mut out = BTreeSet::new();
    for fp in &parsed.files {
        out.extend(fp.old_name.as_deref().map(lossy));
        out.extend(fp.new_name.as_deref().map(lossy));
    }
    Some(out)
}

/// σ at the last step against the final patch `P`: which files each has that the other lacks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalCheck {
    /// Files σ_n has changed and `P` touches.
    pub both: Vec<String>,
    /// Changed in σ_n, absent from `P` (reverted, stashed, or an edit σ could not see undone).
    pub sigma_only: Vec<String>,
    /// In `P`, never seen edited by a recognised op (a shell command σ did not recognise, …).
    pub patch_only: Vec<String>,
}

impl FinalCheck {
    pub fn agrees(&self) -> bool {
        self.sigma_only.is_empty() && self.patch_only.is_empty()
    }
}

/// Compares σ_n (the last state of `states`) with the submitted patch. `None` when there is no
/// submission or it does not parse as a patch.
pub fn check_final(states: &[StepState], submission: Option<&str>) -> Option<FinalCheck> {
    let p = patch_paths(submission?)?;
    let sigma: BTreeSet<String> = states
        .last()
        .map(|s| s.files.iter().filter(|f| f.is_changed()).map(|f| f.path.clone()).collect())
        .unwrap_or_default();
    Some(FinalCheck {
        both: sigma.intersection(&p).cloned().collect(),
        sigma_only: sigma.difference(&p).cloned().collect(),
        patch_only: p.difference(&sigma).cloned().collect(),
    })
}

impl FileState {
    /// Whether σ has the file changed (not only failed edits).
    pub fn is_changed(&self) -> bool {
        !self.ranges.is_empty() || self.whole_file || self.created || self.deleted
    }
}

/// The paper's "Current State" before the next call (App. G): the open file and the
/// `recent_edits` (file, line) pairs of line-addressed edits issued so far, first occurrence
/// first, duplicates dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaperState {
    pub step: usize,
    pub open_file: Option<String>,
    pub recent_edits: Vec<(String, u32)>,
}

/// Whether an op addresses lines itself (`edit L:M`, `insert_line`, `sed -i 'N…'`) rather than
/// text to search for: it has a line range and no search text.
pub fn is_line_addressed(op: &EditOp) -> bool {
    matches!(op.kind, EditKind::Replace | EditKind::Insert | EditKind::Rewrite | EditKind::Append)
        && op.old_text.is_none()
        && (op.lines_before.is_some() || op.lines_after.is_some())
}

/// Interpretation `paper_sigma.pairs`: the paper does not say whether rejected edits were
/// recorded, nor which line of `L:M` the pair holds; the default records every issued edit
/// (`include_rejected`) with its start line.
pub const PAPER_SIGMA_INTERPRETATION: &str = "paper_sigma.pairs: every issued line-addressed edit \
     (rejected ones too unless switched off) as (file, start line); the paper does not state \
     either choice";

/// The paper's state view after every step.
pub fn paper_state(t: &Trajectory, include_rejected: bool) -> Vec<PaperState> {
    let mut pairs: Vec<(String, u32)> = Vec::new();
    let mut open: Option<String> = None;
    t.steps
        .iter()
        .map(|s| {
            if s.open_file.is_some() {
                open.clone_from(&s.open_file);
            }
            for op in &s.edits {
                let rejected = matches!(op.status, EditStatus::Rejected { .. });
                if !is_line_addressed(op) || (rejected && !include_rejected) {
                    continue;
                }
                let Some(line) = op.lines_before.or(op.lines_after).map(|r| r.start) else {
                    continue;
                };
                let pair = (op.path.clone(), line);
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
            PaperState { step: s.index, open_file: open.clone(), recent_edits: pairs.clone() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trajectory::model::{Hunk, RejectReason};

    fn lr(a: u32, b: u32) -> LineRange {
        LineRange { start: a, end: b }
    }

    fn op(path: &str, kind: EditKind, before: Option<LineRange>, text: Option<&str>) -> EditOp {
        let mut o = EditOp::new(path.into(), kind, "edit", Confidence::Derived);
        o.status = EditStatus::Applied;
        o.lines_before = before;
        o.new_text = text.map(str::to_string);
        o
    }

    fn ranges(s: &Sigma, path: &str) -> Vec<[u32; 2]> {
        s.state(0).files.into_iter().find(|f| f.path == path).map(|f| f.ranges).unwrap_or_default()
    }

    #[test]
    fn an_edit_above_shifts_earlier_ranges_below_it() {
        let mut s = Sigma::new();
        // Lines 20-21 replaced by three lines: σ 20-22.
        s.apply(&op("a.py", EditKind::Replace, Some(lr(20, 21)), Some("x\ny\nz\n")));
        assert_eq!(ranges(&s, "a.py"), vec![[20, 22]]);
        // Lines 5-5 replaced by three: everything below moves down by two.
        s.apply(&op("a.py", EditKind::Replace, Some(lr(5, 5)), Some("a\nb\nc\n")));
        assert_eq!(ranges(&s, "a.py"), vec![[5, 7], [22, 24]]);
        // Lines 8-21 (between the two) deleted: the lower range moves up by 14 and the two
        // ranges become adjacent, then merge.
        s.apply(&op("a.py", EditKind::Replace, Some(lr(8, 21)), Some("")));
        assert_eq!(ranges(&s, "a.py"), vec![[5, 10]]);
        // An edit below does not move anything above it.
        s.apply(&op("a.py", EditKind::Replace, Some(lr(40, 40)), Some("q\n")));
        assert_eq!(ranges(&s, "a.py"), vec![[5, 10], [40, 40]]);
        // Another file is independent.
        assert!(ranges(&s, "b.py").is_empty());
    }

    #[test]
    fn an_edit_inside_a_range_and_an_insert_above_it() {
        let mut s = Sigma::new();
        s.apply(&op("a.py", EditKind::Replace, Some(lr(10, 19)), Some(&"l\n".repeat(10))));
        // Two lines inside become five: the range grows by three.
        s.apply(&op("a.py", EditKind::Replace, Some(lr(12, 13)), Some(&"m\n".repeat(5))));
        assert_eq!(ranges(&s, "a.py"), vec![[10, 22]]);
        // Insert two lines after line 3 (new lines 4-5): the range moves down by two.
        let mut ins = op("a.py", EditKind::Insert, None, Some("i\nj\n"));
        ins.lines_after = Some(lr(4, 5));
        s.apply(&ins);
        assert_eq!(ranges(&s, "a.py"), vec![[4, 5], [12, 24]]);
        // Undo of the insert brings the previous state back.
        s.apply(&op("a.py", EditKind::Undo, None, None));
        assert_eq!(ranges(&s, "a.py"), vec![[10, 22]]);
    }

    #[test]
    fn exact_hunks_rebase_like_derived_ranges_and_a_failed_edit_changes_nothing() {
        let mut s = Sigma::new();
        s.apply(&op("a.py", EditKind::Replace, Some(lr(30, 30)), Some("x\n")));
        let mut h = op("a.py", EditKind::Replace, None, None);
        h.confidence = Confidence::Exact;
        // @@ -2,0 +3,2 @@ (two lines inserted after line 2) and @@ -10,3 +12,1 @@.
        h.hunks = vec![
            Hunk { old_start: 2, old_lines: 0, new_start: 3, new_lines: 2 },
            Hunk { old_start: 10, old_lines: 3, new_start: 12, new_lines: 1 },
        ];
        s.apply(&h);
        // 30 → 30 + 2 - 2 = 30.
        assert_eq!(ranges(&s, "a.py"), vec![[3, 4], [12, 12], [30, 30]]);
        let mut bad = op("a.py", EditKind::Replace, Some(lr(1, 1)), Some("zzz\n"));
        bad.status =
            EditStatus::Rejected { reason: RejectReason::LintRejected, message: "".into() };
        s.apply(&bad);
        let st = s.state(3);
        assert_eq!(st.files[0].ranges, vec![[3, 4], [12, 12], [30, 30]]);
        assert_eq!(st.files[0].failed_edits, 1);
        assert_eq!(st.files[0].confidence, Some(Confidence::Derived));
    }

    #[test]
    fn create_delete_rename_and_file_level_edits() {
        let mut s = Sigma::new();
        s.apply(&op("new.py", EditKind::Create, None, Some("a\nb\nc\n")));
        s.apply(&op("repro.py", EditKind::Create, None, Some("print(1)\n")));
        s.apply(&op("repro.py", EditKind::Delete, None, None));
        s.apply(&op("old.py", EditKind::Delete, None, None));
        let mut sed = op("cfg.py", EditKind::Replace, None, None);
        sed.confidence = Confidence::Heuristic;
        s.apply(&sed);
        let mut mv = op("m.py", EditKind::Rename, None, None);
        mv.new_path = Some("n.py".into());
        s.apply(&mv);
        let st = s.state(5);
        let names: Vec<(&str, bool, bool, bool)> = st
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.created, f.deleted, f.whole_file))
            .collect();
        assert_eq!(
            names,
            [
                ("cfg.py", false, false, true),
                ("m.py", false, true, false),
                ("n.py", true, false, true),
                ("new.py", true, false, false),
                ("old.py", false, true, false),
            ]
        );
        assert_eq!(st.files[3].ranges, vec![[1, 3]]);
        // A whole-file write (heredoc, `write`) replaces what σ had, it does not shift it.
        s.apply(&op("new.py", EditKind::Replace, Some(lr(40, 40)), Some("q\n")));
        let mut write = op("new.py", EditKind::Rewrite, None, Some("1\n2\n"));
        write.lines_after = Some(lr(1, 2));
        s.apply(&write);
        assert_eq!(ranges(&s, "new.py"), vec![[1, 2]]);
        s.apply(&op("cfg.py", EditKind::Rewrite, None, Some("")));
        let st = s.state(6);
        assert!(st.files[0].ranges.is_empty() && st.files[0].whole_file);
        s.apply(&op("empty.py", EditKind::Create, None, Some("")));
        let st = s.state(7);
        let empty = st.files.iter().find(|f| f.path == "empty.py").expect("in σ");
        assert!(empty.created && !empty.whole_file && empty.ranges.is_empty());
        assert_eq!(st.files[0].confidence, Some(Confidence::Heuristic));
    }

    const DIFF: &str = "diff --git a/pkg/a.py b/pkg/a.py
--- a/pkg/a.py
+++ b/pkg/a.py
@@ -1,4 +1,5 @@
 import os
-x = 1
+x = 2
+y = 3
 z = 4
 w = 5
@@ -10,3 +11,2 @@ def f():
 a
-b
 c
diff --git a/pkg/new.py b/pkg/new.py
new file mode 100644
--- /dev/null
+++ b/pkg/new.py
@@ -0,0 +1,2 @@
+def g():
+    pass
";

    #[test]
    fn a_logged_repository_diff_gives_the_exact_state() {
        let mut s = Sigma::new();
        // A derived guess about a.py and a file the diff no longer has.
        s.apply(&op("pkg/a.py", EditKind::Replace, Some(lr(50, 50)), Some("q\n")));
        s.apply(&op("gone.py", EditKind::Replace, Some(lr(1, 1)), Some("q\n")));
        s.reset_from_diff(DIFF);
        let st = s.state(1);
        let got: Vec<(&str, Vec<[u32; 2]>, bool)> =
            st.files.iter().map(|f| (f.path.as_str(), f.ranges.clone(), f.created)).collect();
        assert_eq!(got, [("pkg/a.py", vec![[2, 3]], false), ("pkg/new.py", vec![[1, 2]], true)]);
        assert!(st.files.iter().all(|f| f.confidence == Some(Confidence::Exact)));
        // σ_n against P: the diff itself agrees; another patch disagrees.
        assert!(check_final(std::slice::from_ref(&st), Some(DIFF)).is_some_and(|c| c.agrees()));
        let other = "--- a/pkg/b.py\n+++ b/pkg/b.py\n@@ -1 +1 @@\n-a\n+b\n";
        let c = check_final(&[st], Some(other)).expect("parses");
        assert_eq!(c.sigma_only, ["pkg/a.py", "pkg/new.py"]);
        assert_eq!(c.patch_only, ["pkg/b.py"]);
    }

    #[test]
    fn paper_pairs_are_first_occurrences_of_line_addressed_edits() {
        let mut t = Trajectory::default();
        let mut mk = |i: usize, ops: Vec<EditOp>| {
            t.steps.push(Step {
                index: i,
                open_file: Some("a.py".into()),
                edits: ops,
                ..Step::default()
            })
        };
        let mut rejected = op("a.py", EditKind::Replace, Some(lr(7, 9)), Some("x\n"));
        rejected.status =
            EditStatus::Rejected { reason: RejectReason::LintRejected, message: String::new() };
        mk(0, vec![rejected.clone()]);
        mk(1, vec![rejected]);
        let mut sr = op("a.py", EditKind::Replace, Some(lr(3, 3)), Some("y\n"));
        sr.old_text = Some("z".into());
        mk(2, vec![sr, op("b.py", EditKind::Replace, Some(lr(2, 2)), Some("w\n"))]);
        let all = paper_state(&t, true);
        assert_eq!(all[1].recent_edits, vec![("a.py".to_string(), 7)]);
        assert_eq!(all[2].recent_edits, vec![("a.py".to_string(), 7), ("b.py".to_string(), 2)]);
        let applied = paper_state(&t, false);
        assert_eq!(applied[2].recent_edits, vec![("b.py".to_string(), 2)]);
        assert_eq!(applied[2].open_file.as_deref(), Some("a.py"));
    }
}
