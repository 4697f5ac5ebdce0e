//! Applying a parsed patch to the in-memory tree: the checking and applying half of git's
//! `apply.c` (`check_patch_list`, `apply_one_fragment`, `find_pos`, `match_fragment`,
//! `write_out_results`), plus the per-hunk partial and fuzzy modes the fallback ladder uses.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::parse::{git_isspace, linelen};
use super::path::{lookup_path, to_repo_path, verify_path};
use super::{
    BinaryMethod, FileChangeKind, FileOutcome, FilePatch, FileResult, Hunk, Patch, Tri, FUZZ_LINES,
};
use crate::tree::{git_blob_id, Content, FileEntry, FileMode, Tree};

const S_IFMT: u32 = 0o170000;
const S_IFREG: u32 = 0o100000;
const S_IFLNK: u32 = 0o120000;
const S_IFGITLINK: u32 = 0o160000;
const EMPTY_BLOB: &str = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

/// Line comparisons allowed per `apply` call, so adversarial patches stay bounded.
const MAX_STEPS: u64 = 400_000_000;
/// Lines of `expected` / `found` kept in a rejection report.
const MAX_REPORT_LINES: usize = 200;

/// How hunks are matched and what a failing hunk does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// git apply: a failing hunk fails its file, a failing file fails the patch.
    Strict,
    /// git apply --reject: failing hunks and files are skipped, the rest is written.
    Reject,
    /// GNU patch --fuzz: search anywhere, ignore some context; failing hunks are skipped.
    Fuzz,
}

/// What one run produced.
pub(crate) struct RunResult {
    pub files: Vec<FileOutcome>,
    /// git's first error message, if any.
    pub first_error: Option<String>,
    /// The written tree (strict: only when every file applied).
    pub tree: Option<Tree>,
    /// Files with at least one change written (fallback modes).
    pub written: usize,
    pub rejected_hunks: usize,
    pub invalid_files: usize,
}

#[derive(Clone)]
enum Data {
    Bytes(Arc<[u8]>),
    /// Only a blob id (possibly abbreviated when it comes from a patch's index line).
    Blob(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FnEntry {
    Patch(usize),
    WasDeleted,
    ToBeDeleted,
}

struct Work {
    old_name: Option<Vec<u8>>,
    new_name: Option<Vec<u8>>,
    is_new: Tri,
    is_delete: Tri,
    old_mode: u32,
    new_mode: u32,
    result: Option<Data>,
    outcome: Option<FileResult>,
    rejected_hunks: Vec<usize>,
}

struct Fail {
    fatal: bool,
    result: FileResult,
    /// The line git prints (`error: ...`).
    message: String,
}

fn invalid(message: String) -> Fail {
    Fail { fatal: false, result: FileResult::Invalid { reason: message.clone() }, message }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn mode_of(entry: &FileEntry) -> u32 {
    match entry.mode {
        FileMode::Regular => 0o100644,
        FileMode::Executable => 0o100755,
        FileMode::Symlink => 0o120000,
    }
}

fn file_mode(mode: u32) -> FileMode {
    if mode & S_IFMT == S_IFLNK {
        FileMode::Symlink
    } else if mode & 0o100 != 0 {
        FileMode::Executable
    } else {
        FileMode::Regular
    }
}

#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a [u8],
    /// git's LINE_PATCHED: written by an earlier hunk, so later hunks may not match it.
    patched: bool,
}

/// git's `hash_line`: whitespace-blind, truncated to the 24 bits git stores.
fn hash_line(s: &[u8]) -> u32 {
    let mut h: u32 = 0;
    for &c in s {
        if !git_isspace(c) {
            h = h.wrapping_mul(3).wrapping_add(u32::from(c));
        }
    }
    h & 0x00ff_ffff
}

fn line(text: &[u8]) -> Line<'_> {
    Line { text, patched: false }
}

fn split_lines(buf: &[u8]) -> Vec<Line<'_>> {
    let mut out = Vec::with_capacity(buf.len() / 32 + 1);
    let mut pos = 0;
    while pos < buf.len() {
        let len = linelen(&buf[pos..]);
        out.push(line(&buf[pos..pos + len]));
        pos += len;
    }
    out
}

/// The file being patched: `head` (already passed by in-order hunks) followed by `tail[cur..]`.
/// Hunks usually apply in order, so each line moves once instead of once per hunk; a hunk that
/// lands in `head` falls back to a splice.
struct Image<'a> {
    head: Vec<Line<'a>>,
    tail: Vec<Line<'a>>,
    cur: usize,
}

impl<'a> Image<'a> {
    fn new(lines: Vec<Line<'a>>) -> Self {
        Image { head: Vec::new(), tail: lines, cur: 0 }
    }

    fn len(&self) -> usize {
        self.head.len() + self.tail.len() - self.cur
    }

    fn iter_from(&self, k: usize) -> impl Iterator<Item = &Line<'a>> + '_ {
        let h = self.head.len();
        let in_head = self.head.get(k.min(h)..).unwrap_or(&[]);
        let t0 = self.cur + k.saturating_sub(h);
        in_head.iter().chain(self.tail.get(t0.min(self.tail.len())..).unwrap_or(&[]).iter())
    }

    /// Replaces lines `at..at + n` by `post`, marking them patched.
    fn replace(&mut self, at: usize, n: usize, post: &[Line<'a>]) {
        let marked = post.iter().map(|l| Line { text: l.text, patched: true });
        let h = self.head.len();
        if at >= h {
            let t0 = self.cur + (at - h);
            self.head.extend_from_slice(&self.tail[self.cur..t0]);
            self.head.extend(marked);
            self.cur = t0 + n;
        } else {
            self.head.extend_from_slice(&self.tail[self.cur..]);
            self.cur = self.tail.len();
            self.head.splice(at..at + n, marked);
        }
    }
}

impl<'a> std::ops::Index<usize> for Image<'a> {
    type Output = Line<'a>;
    fn index(&self, k: usize) -> &Line<'a> {
        let h = self.head.len();
        if k < h {
            &self.head[k]
        } else {
            &self.tail[self.cur + k - h]
        }
    }
}

fn show_iter<'x, 'a: 'x>(lines: impl Iterator<Item = &'x Line<'a>>) -> Vec<String> {
    lines
        .take(MAX_REPORT_LINES)
        .map(|l| lossy(l.text.strip_suffix(b"\n").unwrap_or(l.text)))
        .collect()
}

fn show(lines: &[Line<'_>]) -> Vec<String> {
    lines
        .iter()
        .take(MAX_REPORT_LINES)
        .map(|l| {
            let t = l.text.strip_suffix(b"\n").unwrap_or(l.text);
            lossy(t)
        })
        .collect()
}

/// The preimage and postimage of one hunk (git's `apply_one_fragment` first half).
struct Images<'a> {
    pre: Vec<Line<'a>>,
    post: Vec<Line<'a>>,
}

fn build_images<'a>(hunk: &Hunk<'a>) -> Option<Images<'a>> {
    let text = hunk.text;
    let mut pre = Vec::new();
    let mut post = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let len = linelen(&text[pos..]);
        if len == 0 {
            break;
        }
        let l = &text[pos..pos + len];
        let mut plen = len as isize - 1;
        if pos + len < text.len() && text[pos + len] == b'\\' {
            plen -= 1;
        }
        let body: &'a [u8] = &text[pos + 1.min(len)..pos + 1.min(len) + plen.max(0) as usize];
        match l[0] {
            b'\n' => {
                if plen >= 0 {
                    pre.push(line(&text[pos..pos + 1]));
                    post.push(line(&text[pos..pos + 1]));
                }
            }
            b' ' => {
                let b = body;
                pre.push(line(b));
                post.push(line(b));
            }
            b'-' => pre.push(line(body)),
            b'+' => post.push(line(body)),
            b'@' | b'\\' => {}
            _ => return None,
        }
        pos += len;
    }
    Some(Images { pre, post })
}

/// Shared state of one run: the search budget.
struct Budget {
    steps: u64,
}

impl Budget {
    fn spend(&mut self, n: u64) -> bool {
        self.steps = self.steps.saturating_add(n);
        self.steps <= MAX_STEPS
    }
}

/// git's `match_fragment` with default options (no whitespace fixing or ignoring).
fn match_fragment(
    img: &Image<'_>,
    pre: &[Line<'_>],
    lno: usize,
    match_beginning: bool,
    match_end: bool,
    budget: &mut Budget,
) -> bool {
    let n = pre.len();
    if n + lno > img.len() {
        return false;
    }
    if match_end && n + lno != img.len() {
        return false;
    }
    if match_beginning && lno != 0 {
        return false;
    }
    // git compares whitespace-blind line hashes first; equal texts have equal hashes, so the
    // hashes are only computed where the texts differ.
    let mut all_equal = true;
    for i in 0..n {
        let l = &img[lno + i];
        if l.patched {
            budget.spend(i as u64 + 1);
            return false;
        }
        if l.text != pre[i].text {
            if hash_line(l.text) != hash_line(pre[i].text) {
                budget.spend(i as u64 + 1);
                return false;
            }
            all_equal = false;
        }
    }
    budget.spend(n as u64 + 1);
    // memcmp of the concatenated preimage against the image bytes at this line.
    if all_equal {
        return true;
    }
    let pre_len: usize = pre.iter().map(|l| l.text.len()).sum();
    let rest = img.iter_from(lno).flat_map(|l| l.text.iter());
    let avail: usize = if match_end {
        img.iter_from(lno).map(|l| l.text.len()).sum()
    } else {
        // only whether at least pre_len bytes remain matters
        let mut s = 0usize;
        for l in img.iter_from(lno) {
            s += l.text.len();
            if s >= pre_len {
                break;
            }
        }
        s
    };
    if if match_end { avail != pre_len } else { avail < pre_len } {
        return false;
    }
    pre.iter().flat_map(|l| l.text.iter()).zip(rest).all(|(a, b)| a == b)
}

/// git's `find_pos`: try `line`, then alternately one further forward and backward.
fn find_pos(
    img: &Image<'_>,
    pre: &[Line<'_>],
    line: isize,
    match_beginning: bool,
    match_end: bool,
    budget: &mut Budget,
) -> Option<usize> {
    let nr = img.len();
    // Anchored hunks can only match at one place; git scans everything to find it.
    if match_beginning || match_end {
        let at = if match_beginning { 0 } else { nr.checked_sub(pre.len())? };
        return match_fragment(img, pre, at, match_beginning, match_end, budget).then_some(at);
    }
    let line = if line < 0 || line as usize > nr { nr } else { line as usize };
    let (mut back, mut fwd, mut cur) = (line, line, line);
    let mut i: u64 = 0;
    loop {
        if match_fragment(img, pre, cur, false, false, budget) {
            return Some(cur);
        }
        if budget.steps > MAX_STEPS {
            return None;
        }
        loop {
            if back == 0 && fwd == nr {
                return None;
            }
            if i & 1 == 1 {
                if back == 0 {
                    i += 1;
                    continue;
                }
                back -= 1;
                cur = back;
            } else {
                if fwd == nr {
                    i += 1;
                    continue;
                }
                fwd += 1;
                cur = fwd;
            }
            break;
        }
        i += 1;
    }
}

/// GNU patch-like search: any position, exact lines, up to [`FUZZ_LINES`] context lines ignored
/// at each end. Returns (position, lines dropped at the front, lines dropped at the back).
fn find_fuzzy(
    img: &Image<'_>,
    pre: &[Line<'_>],
    hunk: &Hunk<'_>,
    expected: usize,
    budget: &mut Budget,
) -> Option<(usize, usize, usize)> {
    for fuzz in 0..=FUZZ_LINES {
        let front = fuzz.min(usize::try_from(hunk.leading).unwrap_or(usize::MAX));
        let back = fuzz.min(usize::try_from(hunk.trailing).unwrap_or(usize::MAX));
        if front + back > pre.len() {
            continue;
        }
        let p = &pre[front..pre.len() - back];
        let nr = img.len();
        if p.len() > nr {
            continue;
        }
        let last = nr - p.len();
        let start = expected.saturating_add(front).min(last);
        let fits = |at: usize, budget: &mut Budget| {
            budget.spend(p.len() as u64 + 1);
            p.iter().zip(img.iter_from(at)).all(|(a, b)| !b.patched && a.text == b.text)
        };
        let mut d = 0usize;
        loop {
            let f = start + d;
            let b = start.checked_sub(d);
            if f > last && b.is_none() {
                break;
            }
            if f <= last && fits(f, budget) {
                return Some((f, front, back));
            }
            if let Some(b) = b {
                if d > 0 && fits(b, budget) {
                    return Some((b, front, back));
                }
            }
            if budget.steps > MAX_STEPS {
                return None;
            }
            d += 1;
        }
    }
    None
}

struct HunkFail {
    expected: Vec<String>,
    found: Vec<String>,
    budget_exhausted: bool,
}

/// Applies one hunk to `img` (git's `apply_one_fragment` with default options).
fn apply_one_fragment<'a>(
    img: &mut Image<'a>,
    hunk: &Hunk<'a>,
    mode: Mode,
    fuzz_offset: &mut isize,
    budget: &mut Budget,
) -> Result<(), HunkFail> {
    let Some(Images { pre, post }) = build_images(hunk) else {
        return Err(HunkFail { expected: Vec::new(), found: Vec::new(), budget_exhausted: false });
    };
    let match_beginning = hunk.old_pos == 0 || hunk.old_pos == 1;
    let match_end = hunk.trailing == 0;
    let pos = if hunk.new_pos > 0 { hunk.new_pos - 1 } else { 0 };
    let pos = isize::try_from(pos).unwrap_or(isize::MAX);
    let found = if mode == Mode::Fuzz {
        let old_at = isize::try_from(hunk.old_pos.saturating_sub(1)).unwrap_or(isize::MAX);
        let expected_at = old_at.saturating_add(*fuzz_offset);
        let expected_at = usize::try_from(expected_at.max(0)).unwrap_or(0);
        find_fuzzy(img, &pre, hunk, expected_at, budget).map(|(at, front, back)| {
            let at_i = isize::try_from(at).unwrap_or(isize::MAX);
            *fuzz_offset = at_i.saturating_sub(front as isize).saturating_sub(old_at);
            (at, front, back)
        })
    } else {
        find_pos(img, &pre, pos, match_beginning, match_end, budget).map(|at| (at, 0, 0))
    };
    let Some((at, front, back)) = found else {
        let start = usize::try_from(pos).unwrap_or(usize::MAX).min(img.len());
        let end = start.saturating_add(pre.len()).min(img.len());
        return Err(HunkFail {
            expected: show(&pre),
            found: show_iter(img.iter_from(start).take(end - start)),
            budget_exhausted: budget.steps > MAX_STEPS,
        });
    };
    let pre_n = pre.len() - front - back;
    let post_end = post.len().saturating_sub(back).max(front.min(post.len()));
    img.replace(at, pre_n, &post[front.min(post_end)..post_end]);
    Ok(())
}

/// Runs the whole patch in `mode`.
pub(crate) fn run(tree: &Tree, patch: &Patch<'_>, mode: Mode) -> RunResult {
    let mut works: Vec<Work> = patch
        .files
        .iter()
        .map(|p| Work {
            old_name: p.old_name.clone(),
            new_name: p.new_name.clone(),
            is_new: p.is_new,
            is_delete: p.is_delete,
            old_mode: p.old_mode,
            new_mode: p.new_mode,
            result: None,
            outcome: None,
            rejected_hunks: Vec::new(),
        })
        .collect();
    // git's prepare_fn_table: paths a deletion or rename will free may be created.
    let mut fn_table: HashMap<Vec<u8>, FnEntry> = HashMap::new();
    for (w, p) in works.iter().zip(&patch.files) {
        if w.new_name.is_none() || p.is_rename {
            if let Some(old) = &w.old_name {
                fn_table.insert(old.clone(), FnEntry::ToBeDeleted);
            }
        }
    }
    let mut ctx = Ctx {
        tree,
        objects: None,
        fn_table,
        syms: Symlinks::new(patch),
        mode,
        budget: Budget { steps: 0 },
    };
    let mut first_error: Option<String> = None;
    let mut fatal_at: Option<usize> = None;
    for i in 0..works.len() {
        match check_patch(&mut ctx, patch, &mut works, i) {
            Ok(()) => {
                works[i].outcome = Some(match works[i].rejected_hunks.first() {
                    None => FileResult::Applied,
                    Some(_) => works[i].outcome.take().unwrap_or(FileResult::Applied),
                });
            }
            Err(f) => {
                if first_error.is_none() {
                    first_error = Some(f.message.clone());
                }
                works[i].outcome = Some(f.result);
                works[i].result = None;
                if f.fatal {
                    fatal_at = Some(i);
                    break;
                }
            }
        }
    }
    if let Some(i) = fatal_at {
        for w in works.iter_mut().skip(i + 1) {
            w.outcome = Some(FileResult::Invalid {
                reason: "not checked: git stops at an invalid path".into(),
            });
        }
    }
    let all_ok = first_error.is_none();
    let mut written = 0usize;
    let mut tree_out = None;
    if fatal_at.is_none() && (all_ok || mode != Mode::Strict) {
        match write_out(tree, patch, &works) {
            Ok((t, n)) => {
                written = n;
                tree_out = Some(t);
            }
            Err(msg) => {
                if first_error.is_none() {
                    first_error = Some(msg);
                }
            }
        }
    }
    let mut files = Vec::with_capacity(works.len());
    let mut rejected_hunks = 0;
    let mut invalid_files = 0;
    for (w, p) in works.into_iter().zip(&patch.files) {
        rejected_hunks += w.rejected_hunks.len();
        let result = w.outcome.unwrap_or(FileResult::Invalid { reason: "not checked".into() });
        if matches!(result, FileResult::Invalid { .. }) {
            invalid_files += 1;
        }
        let name =
            w.new_name.as_ref().or(w.old_name.as_ref()).map(|n| lossy(n)).unwrap_or_default();
        let old_path = match (&w.old_name, &w.new_name) {
            (Some(o), Some(n)) if o != n => Some(lossy(o)),
            _ => None,
        };
        let kind = if w.is_new.is_yes() {
            FileChangeKind::Add
        } else if w.is_delete.is_yes() {
            FileChangeKind::Delete
        } else if p.is_rename {
            FileChangeKind::Rename
        } else if p.is_copy {
            FileChangeKind::Copy
        } else if p.hunks.is_empty()
            && p.old_mode != 0
            && p.new_mode != 0
            && p.old_mode != p.new_mode
        {
            FileChangeKind::Mode
        } else {
            FileChangeKind::Modify
        };
        files.push(FileOutcome {
            path: name,
            old_path,
            kind,
            result,
            rejected_hunks: if mode == Mode::Strict { Vec::new() } else { w.rejected_hunks },
        });
    }
    RunResult { files, first_error, tree: tree_out, written, rejected_hunks, invalid_files }
}

fn previous_patch(
    p: &FilePatch<'_>,
    w: &Work,
    fn_table: &HashMap<Vec<u8>, FnEntry>,
) -> Result<Option<usize>, Fail> {
    if p.is_copy || p.is_rename {
        return Ok(None);
    }
    let Some(old) = &w.old_name else { return Ok(None) };
    match fn_table.get(old) {
        None | Some(FnEntry::ToBeDeleted) => Ok(None),
        Some(FnEntry::WasDeleted) => {
            Err(invalid(format!("path {} has been renamed/deleted", lossy(old))))
        }
        Some(FnEntry::Patch(j)) => Ok(Some(*j)),
    }
}

fn tree_entry<'t>(tree: &'t Tree, name: &[u8]) -> Option<&'t FileEntry> {
    lookup_path(name).and_then(|p| tree.get(&p))
}

/// The file `name` names when a leading folder of it is a symlink in the tree (followed as the
/// file system would, inside the repository); `None` when no leading folder is a symlink or
/// the path leads nowhere.
fn entry_beyond_symlink<'t>(tree: &'t Tree, name: &[u8]) -> Option<&'t FileEntry> {
    let name = std::str::from_utf8(name).ok()?;
    if !name.contains('/') {
        return None;
    }
    let mut parts: Vec<String> = name.split('/').map(str::to_string).collect();
    let (mut i, mut hops, mut followed) = (0usize, 0usize, false);
    while i + 1 < parts.len() {
        let prefix = parts[..=i].join("/");
        let entry = crate::tree::RepoPath::new(&prefix).ok().and_then(|p| tree.get(&p));
        match entry {
            Some(e) if e.mode == FileMode::Symlink => {
                hops += 1;
                let target = std::str::from_utf8(e.bytes()?).ok()?;
                if hops > 40 || target.starts_with('/') {
                    return None;
                }
                let mut resolved: Vec<String> = parts[..i].to_vec();
                for c in target.split('/') {
                    match c {
                        "" | "." => {}
                        ".." => {
                            resolved.pop()?;
                        }
                        c => resolved.push(c.to_string()),
                    }
                }
                resolved.extend(parts[i + 1..].iter().cloned());
                parts = resolved;
                i = 0;
                followed = true;
            }
            Some(_) => return None,
            None => i += 1,
        }
    }
    if !followed {
        return None;
    }
    tree.get(&crate::tree::RepoPath::new(&parts.join("/")).ok()?)
}

/// Symlinks the patch removes or keeps (git's `prepare_symlink_changes`, from the headers).
struct Symlinks {
    kept: HashSet<Vec<u8>>,
    removed: HashSet<Vec<u8>>,
}

impl Symlinks {
    fn new(patch: &Patch<'_>) -> Symlinks {
        let mut kept = HashSet::new();
        let mut removed = HashSet::new();
        for p in &patch.files {
            if let Some(o) = &p.old_name {
                if p.old_mode & S_IFMT == S_IFLNK && (p.is_rename || p.is_delete.truthy()) {
                    removed.insert(o.clone());
                }
            }
            if let Some(n) = &p.new_name {
                if p.new_mode & S_IFMT == S_IFLNK {
                    kept.insert(n.clone());
                }
            }
        }
        Symlinks { kept, removed }
    }
}

/// Is some leading folder of `name` a symlink (git's `path_is_beyond_symlink`)?
fn beyond_symlink(tree: &Tree, syms: &Symlinks, name: &[u8]) -> bool {
    if syms.kept.is_empty() && syms.removed.is_empty() && !name.contains(&b'/') {
        return false;
    }
    let mut end = name.len();
    while let Some(slash) = name[..end].iter().rposition(|&c| c == b'/') {
        end = slash;
        if end == 0 {
            break;
        }
        let dir = &name[..end];
        if syms.kept.contains(dir) {
            return true;
        }
        if syms.removed.contains(dir) {
            continue;
        }
        if tree_entry(tree, dir).is_some_and(|e| e.mode == FileMode::Symlink) {
            return true;
        }
    }
    false
}

/// What `check_patch` shares across files.
struct Ctx<'t> {
    tree: &'t Tree,
    /// The blobs of the base tree by id (git's object store), built on first use.
    objects: Option<HashMap<String, Data>>,
    fn_table: HashMap<Vec<u8>, FnEntry>,
    syms: Symlinks,
    mode: Mode,
    budget: Budget,
}

impl Ctx<'_> {
    /// The blob `id` (40 lowercase hex digits) when the repository has it: the official harness
    /// applies to a repository whose one commit holds exactly the base tree.
    fn object(&mut self, id: &str) -> Option<Data> {
        let tree = self.tree;
        let objects = self.objects.get_or_insert_with(|| {
            tree.iter()
                .map(|(_, e)| match &e.content {
                    Content::Bytes(b) => (git_blob_id(b), Data::Bytes(b.clone())),
                    Content::BlobOnly(id) => {
                        (id.to_ascii_lowercase(), Data::Blob(id.to_ascii_lowercase()))
                    }
                })
                .collect()
        });
        objects.get(id).cloned()
    }
}

/// git's `check_patch` for file `i`: preimage, creation target, modes, path safety, then the
/// hunks (`apply_data`). Leaves the new content in `works[i].result`.
fn check_patch(
    ctx: &mut Ctx<'_>,
    patch: &Patch<'_>,
    works: &mut [Work],
    i: usize,
) -> Result<(), Fail> {
    let tree = ctx.tree;
    let p = &patch.files[i];
    // --- check_preimage ---
    if let Some(old) = works[i].old_name.clone() {
        let previous = previous_patch(p, &works[i], &ctx.fn_table)?;
        let st_mode;
        if let Some(j) = previous {
            st_mode = works[j].new_mode;
        } else {
            // lstat follows symlinked leading folders: the file behind one exists for git
            // (reading it is refused later).
            match tree_entry(tree, &old).or_else(|| entry_beyond_symlink(tree, &old)) {
                Some(e) => st_mode = mode_of(e),
                None => {
                    let dir = lookup_path(&old).is_some_and(|rp| tree.is_dir(rp.as_str()));
                    if dir {
                        // git stats a folder as a gitlink and later drops the hunks
                        // ("submodule patch without index"): the change is a no-op.
                        st_mode = S_IFGITLINK;
                    } else if works[i].is_new == Tri::Unknown {
                        let w = &mut works[i];
                        w.is_new = Tri::Yes;
                        w.is_delete = Tri::No;
                        w.old_name = None;
                        st_mode = 0;
                    } else {
                        return Err(invalid(format!("{}: No such file or directory", lossy(&old))));
                    }
                }
            }
        }
        let w = &mut works[i];
        if w.old_name.is_some() {
            if w.is_new == Tri::Unknown {
                w.is_new = Tri::No;
            }
            if w.old_mode == 0 {
                w.old_mode = st_mode;
            }
            if (st_mode ^ w.old_mode) & S_IFMT != 0 {
                return Err(invalid(format!("{}: wrong type", lossy(&old))));
            }
            if w.new_mode == 0 && w.is_delete == Tri::No {
                w.new_mode = st_mode;
            }
        }
    }
    let old_name = works[i].old_name.clone();
    let new_name = works[i].new_name.clone();
    // --- creation target ---
    let ok_if_exists = new_name.as_ref().is_some_and(|n| {
        matches!(ctx.fn_table.get(n), Some(FnEntry::WasDeleted) | Some(FnEntry::ToBeDeleted))
    });
    if let Some(n) = &new_name {
        if works[i].is_new.is_yes() || p.is_rename || p.is_copy {
            let exists = tree_entry(tree, n).is_some();
            if exists && !ok_if_exists && !beyond_symlink(tree, &ctx.syms, n) {
                return Err(invalid(format!("{}: already exists in working directory", lossy(n))));
            }
            let w = &mut works[i];
            if w.new_mode == 0 {
                w.new_mode = if w.is_new.is_yes() { S_IFREG | 0o644 } else { w.old_mode };
            }
        }
    }
    if let (Some(n), Some(o)) = (&new_name, &old_name) {
        let w = &mut works[i];
        if w.new_mode == 0 {
            w.new_mode = w.old_mode;
        }
        if (w.old_mode ^ w.new_mode) & S_IFMT != 0 {
            let msg = if n == o {
                format!(
                    "new mode ({:o}) of {} does not match old mode ({:o})",
                    w.new_mode,
                    lossy(n),
                    w.old_mode
                )
            } else {
                format!(
                    "new mode ({:o}) of {} does not match old mode ({:o}) of {}",
                    w.new_mode,
                    lossy(n),
                    w.old_mode,
                    lossy(o)
                )
            };
            return Err(invalid(msg));
        }
    }
    // --- check_unsafe_path (fatal in git) ---
    {
        let w = &works[i];
        let check_old = if w.is_delete.truthy() || (!w.is_new.truthy() && !p.is_copy) {
            w.old_name.as_ref()
        } else {
            None
        };
        let check_new = if !w.is_delete.truthy() { w.new_name.as_ref() } else { None };
        for (name, m) in [(check_old, w.old_mode), (check_new, w.new_mode)] {
            if let Some(n) = name {
                if !verify_path(n, m) {
                    let msg = format!("invalid path '{}'", lossy(n));
                    return Err(Fail {
                        fatal: true,
                        result: FileResult::Invalid { reason: msg.clone() },
                        message: msg,
                    });
                }
                if let Err(e) = to_repo_path(n) {
                    return Err(invalid(format!("invalid path '{}': {e}", lossy(n))));
                }
            }
        }
    }
    if !works[i].is_delete.truthy() {
        if let Some(n) = &new_name {
            if beyond_symlink(tree, &ctx.syms, n) {
                return Err(invalid(format!(
                    "affected file '{}' is beyond a symbolic link",
                    lossy(n)
                )));
            }
        }
    }
    // --- apply_data ---
    let name = lossy(old_name.as_ref().or(new_name.as_ref()).map_or(&[][..], |v| v));
    let data = apply_data(ctx, patch, works, i, &name)?;
    let w = &mut works[i];
    if w.is_delete.is_yes() {
        let leaves = match &data {
            Data::Bytes(b) => !b.is_empty(),
            Data::Blob(id) => id != EMPTY_BLOB,
        };
        if leaves {
            return Err(invalid("removal patch leaves file contents".to_string()));
        }
    }
    w.result = Some(data);
    // add_to_fn_table
    if let Some(n) = &w.new_name {
        ctx.fn_table.insert(n.clone(), FnEntry::Patch(i));
    }
    if w.new_name.is_none() || p.is_rename {
        if let Some(o) = &w.old_name {
            ctx.fn_table.insert(o.clone(), FnEntry::WasDeleted);
        }
    }
    Ok(())
}

fn apply_data(
    ctx: &mut Ctx<'_>,
    patch: &Patch<'_>,
    works: &mut [Work],
    i: usize,
    name: &str,
) -> Result<Data, Fail> {
    let (tree, mode) = (ctx.tree, ctx.mode);
    let p = &patch.files[i];
    if works[i].old_mode & S_IFMT == S_IFGITLINK && works[i].old_name.is_some() {
        return Ok(Data::Bytes(Arc::from(&b""[..])));
    }
    let base: Data = match previous_patch(p, &works[i], &ctx.fn_table)? {
        Some(j) => works[j].result.clone().unwrap_or(Data::Bytes(Arc::from(&b""[..]))),
        None => match &works[i].old_name {
            None => Data::Bytes(Arc::from(&b""[..])),
            Some(old) if entry_beyond_symlink(tree, old).is_some() => {
                return Err(invalid(format!(
                    "reading from '{}' beyond a symbolic link",
                    lossy(old)
                )));
            }
            Some(old) => match tree_entry(tree, old).map(|e| &e.content) {
                Some(Content::Bytes(b)) => Data::Bytes(b.clone()),
                Some(Content::BlobOnly(id)) => Data::Blob(id.to_string()),
                None => return Err(invalid(format!("failed to read {}", lossy(old)))),
            },
        },
    };
    if p.is_binary {
        return apply_binary(ctx, p, &works[i], base, name);
    }
    let bytes = match base {
        Data::Bytes(b) => b,
        Data::Blob(id) => {
            if p.hunks.is_empty() {
                return Ok(Data::Blob(id));
            }
            let prefix = p.old_oid_prefix.to_ascii_lowercase();
            let known = prefix.len() >= 4
                && prefix.bytes().all(|c| c.is_ascii_hexdigit())
                && id.to_ascii_lowercase().starts_with(&prefix);
            if !known {
                let why = if prefix.is_empty() {
                    "the patch has no index line to check it against".to_string()
                } else {
                    format!("the patch's index line names {prefix}, the bundle has {id}")
                };
                return Err(invalid(format!(
                    "{name}: only the blob id of this file is known and {why}"
                )));
            }
            if works[i].is_delete.is_yes() {
                return Ok(Data::Bytes(Arc::from(&b""[..])));
            }
            return Ok(Data::Blob(p.new_oid_prefix.clone()));
        }
    };
    let mut img = Image::new(split_lines(&bytes));
    let mut fuzz_offset: isize = 0;
    for (nth, hunk) in p.hunks.iter().enumerate() {
        if let Err(f) = apply_one_fragment(&mut img, hunk, mode, &mut fuzz_offset, &mut ctx.budget)
        {
            let mut reason = format!("patch failed: {name}:{}", hunk.old_pos);
            if f.budget_exhausted {
                reason.push_str(" (search budget exhausted)");
            }
            let rejected = FileResult::Rejected {
                hunk: nth + 1,
                reason: reason.clone(),
                expected: f.expected,
                found: f.found,
            };
            if mode == Mode::Strict || f.budget_exhausted {
                return Err(Fail { fatal: false, result: rejected, message: reason });
            }
            if works[i].is_delete.is_yes() {
                // git --reject dies on this ("internal error"); refusing the file is the sane
                // reading.
                return Err(Fail { fatal: false, result: rejected, message: reason });
            }
            let w = &mut works[i];
            if w.rejected_hunks.is_empty() {
                w.outcome = Some(rejected);
            }
            w.rejected_hunks.push(nth + 1);
        }
    }
    let total: usize = img.iter_from(0).map(|l| l.text.len()).sum();
    let mut out = Vec::with_capacity(total);
    for l in img.iter_from(0) {
        out.extend_from_slice(l.text);
    }
    Ok(Data::Bytes(Arc::from(out)))
}

/// git's `apply_binary`: full index line required, the preimage checked by blob id, the
/// postimage taken from the object store when it is there, else made by the hunk and checked
/// by id. A file known only by its blob id is checked by that id; a delta against it is trusted
/// to give the id the index line names (the bytes are not there to run it).
fn apply_binary(
    ctx: &mut Ctx<'_>,
    p: &FilePatch<'_>,
    w: &Work,
    base: Data,
    name: &str,
) -> Result<Data, Fail> {
    let full = |s: &str| s.len() == 40 && s.bytes().all(|c| c.is_ascii_hexdigit());
    if !full(&p.old_oid_prefix) || !full(&p.new_oid_prefix) {
        return Err(invalid(format!(
            "cannot apply binary patch to '{name}' without full index line"
        )));
    }
    if w.old_name.is_some() {
        // git compares the hex text: an index line in capitals never matches.
        let (same, id) = match &base {
            Data::Bytes(b) => {
                let id = git_blob_id(b);
                (id == p.old_oid_prefix, id)
            }
            Data::Blob(id) => (
                *id == p.old_oid_prefix
                    || (id.len() < 40 && p.old_oid_prefix.starts_with(id.as_str())),
                id.clone(),
            ),
        };
        if !same {
            return Err(invalid(format!(
                "the patch applies to '{name}' ({id}), which does not match the current contents."
            )));
        }
    } else if matches!(&base, Data::Bytes(b) if !b.is_empty()) {
        return Err(invalid(format!("the patch applies to an empty '{name}' but it is not empty")));
    }
    let new_oid = p.new_oid_prefix.to_ascii_lowercase();
    if new_oid.bytes().all(|c| c == b'0') {
        return Ok(Data::Bytes(Arc::from(&b""[..])));
    }
    if let Some(d) = ctx.object(&new_oid) {
        return Ok(d);
    }
    let Some(hunk) = p.binary.first() else {
        let shown = lossy(w.new_name.as_ref().or(w.old_name.as_ref()).map_or(&[][..], |v| v));
        return Err(invalid(format!("missing binary patch data for '{shown}'")));
    };
    let result: Vec<u8> = match hunk.method {
        BinaryMethod::Literal => hunk.data.clone(),
        BinaryMethod::Delta => match &base {
            Data::Bytes(b) => match patch_delta(b, &hunk.data) {
                Ok(out) => out,
                Err(Some(why)) => return Err(invalid(why.to_string())),
                Err(None) => {
                    return Err(invalid(format!("binary patch does not apply to '{name}'")))
                }
            },
            Data::Blob(_) => return Ok(Data::Blob(new_oid)),
        },
    };
    let got = git_blob_id(&result);
    if got != p.new_oid_prefix {
        return Err(invalid(format!(
            "binary patch to '{name}' creates incorrect result (expecting {}, got {got})",
            p.new_oid_prefix
        )));
    }
    Ok(Data::Bytes(Arc::from(result)))
}

/// Reads a delta header size (git's `get_delta_hdr_size`); `None` when it overflows (git dies).
fn delta_hdr_size(data: &[u8], pos: &mut usize) -> Option<u64> {
    let mut size: u64 = 0;
    let mut shift = 0u32;
    loop {
        let cmd = *data.get(*pos)?;
        *pos += 1;
        let part = u64::from(cmd & 0x7f);
        if shift >= 64 || (part << shift) >> shift != part {
            return None;
        }
        size |= part << shift;
        shift += 7;
        if cmd & 0x80 == 0 || *pos >= data.len() {
            return Some(size);
        }
    }
}

/// git's `patch_delta`. `Err(Some(message))` carries the message git prints before failing.
fn patch_delta(src: &[u8], delta: &[u8]) -> Result<Vec<u8>, Option<&'static str>> {
    const GONE_WILD: &str = "delta replay has gone wild";
    if delta.len() < 4 {
        return Err(None);
    }
    let mut pos = 0usize;
    let src_size = delta_hdr_size(delta, &mut pos).ok_or(None)?;
    if src_size != src.len() as u64 {
        return Err(None);
    }
    let mut size = delta_hdr_size(delta, &mut pos).ok_or(None)?;
    let cap = usize::try_from(size.min(super::parse::MAX_BINARY_BYTES)).unwrap_or(0);
    let mut out = Vec::with_capacity(cap);
    while pos < delta.len() {
        let cmd = delta[pos];
        pos += 1;
        if cmd & 0x80 != 0 {
            let (mut off, mut n) = (0u64, 0u64);
            for (bit, shift, is_off) in [
                (0x01, 0, true),
                (0x02, 8, true),
                (0x04, 16, true),
                (0x08, 24, true),
                (0x10, 0, false),
                (0x20, 8, false),
                (0x40, 16, false),
            ] {
                if cmd & bit != 0 {
                    let Some(&b) = delta.get(pos) else { return Err(Some(GONE_WILD)) };
                    pos += 1;
                    if is_off {
                        off |= u64::from(b) << shift;
                    } else {
                        n |= u64::from(b) << shift;
                    }
                }
            }
            if n == 0 {
                n = 0x10000;
            }
            if off + n > src.len() as u64 || n > size {
                return Err(Some(GONE_WILD));
            }
            // in range: off + n <= src.len()
            out.extend_from_slice(&src[off as usize..(off + n) as usize]);
            size -= n;
        } else if cmd != 0 {
            let n = usize::from(cmd);
            if n as u64 > size || n > delta.len() - pos {
                return Err(Some(GONE_WILD));
            }
            out.extend_from_slice(&delta[pos..pos + n]);
            pos += n;
            size -= n as u64;
        } else {
            return Err(Some("unexpected delta opcode 0"));
        }
    }
    if size != 0 {
        return Err(Some(GONE_WILD));
    }
    Ok(out)
}

/// git's `write_out_results`: removals first, then creations; refuses file/folder clashes
/// (git would fail to create the file).
fn write_out(tree: &Tree, patch: &Patch<'_>, works: &[Work]) -> Result<(Tree, usize), String> {
    let mut t = tree.clone();
    let ok = |w: &Work| w.result.is_some();
    for (w, p) in works.iter().zip(&patch.files) {
        if !ok(w) {
            continue;
        }
        let remove = w.is_delete.is_yes() || !(w.is_new.is_yes() || p.is_copy);
        if remove {
            if let Some(rp) = w.old_name.as_deref().and_then(lookup_path) {
                t.remove(&rp);
            }
        }
    }
    let mut created = Vec::new();
    let mut written = 0;
    for (w, p) in works.iter().zip(&patch.files) {
        let Some(data) = &w.result else { continue };
        if p.hunks.is_empty() || w.rejected_hunks.len() < p.hunks.len() {
            written += 1;
        }
        if w.is_delete.is_yes() {
            continue;
        }
        let Some(n) = &w.new_name else { continue };
        let rp = to_repo_path(n).map_err(|e| format!("invalid path '{}': {e}", lossy(n)))?;
        let mode = if w.new_mode == 0 { S_IFREG | 0o644 } else { w.new_mode };
        if matches!(mode & S_IFMT, 0 | S_IFGITLINK) {
            // git makes an (empty) directory for a gitlink or a mode without a file type;
            // folders are derived here, so nothing is written.
            continue;
        }
        let content = match data {
            Data::Bytes(b) => Content::Bytes(b.clone()),
            Data::Blob(id) => Content::BlobOnly(std::sync::Arc::from(id.as_str())),
        };
        // symlink(2) gets the result as a C string: it ends at a NUL; an empty target is
        // ENOENT, one of PATH_MAX bytes or more ENAMETOOLONG.
        let mut link_errno = None;
        let content = match content {
            Content::Bytes(b) if mode & S_IFMT == S_IFLNK => {
                let n = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                if n == 0 {
                    link_errno = Some("No such file or directory");
                } else if n >= 4096 {
                    link_errno = Some("File name too long");
                }
                if n < b.len() {
                    Content::Bytes(b[..n].to_vec().into())
                } else {
                    Content::Bytes(b)
                }
            }
            other => other,
        };
        t.insert(rp.clone(), FileEntry { mode: file_mode(mode), content });
        created.push((rp, mode, link_errno));
    }
    for (rp, mode, link_errno) in &created {
        let s = rp.as_str();
        // git's open() fails with the system's wording (Linux strerror).
        let errno = if link_errno.is_some() {
            *link_errno
        } else if t.is_dir(s) {
            Some("Directory not empty")
        } else if s
            .match_indices('/')
            .any(|(k, _)| crate::tree::RepoPath::new(&s[..k]).is_ok_and(|d| t.is_file(&d)))
        {
            Some("Not a directory")
        } else {
            None
        };
        if let Some(errno) = errno {
            return Err(format!("unable to write file '{s}' mode {mode:o}: {errno}"));
        }
    }
    Ok((t, written))
}
