//! Path resolution over the in-memory tree, as Linux's path walk does it (component by component,
//! symbolic links followed from the link's folder, at most [`MAX_LINKS`]), and the recording
//! accessors every `os`, `os.path` and `open` function reaches the tree through.

use std::rc::Rc;

use super::path::{basename, below_root, dirname, join2, repo_relative};
use crate::interp::fmt::{str_repr, type_name};
use crate::interp::observe::NodeSeen;
use crate::interp::value::*;
use crate::interp::{ExcKind, Interp, PyResult, Value};
use crate::tree::{Content, FileEntry, FileMode, RepoPath, EVAL_DIR};

/// The virtual repository root, as absolute paths (`__file__`, `os.getcwd()`) spell it.
pub(super) const ROOT: &str = "/refactorbench";

/// How many symbolic links one lookup may follow; one more fails with ELOOP (Linux's
/// `MAXSYMLINKS`, counted over the whole lookup as `fs/namei.c` does).
pub(super) const MAX_LINKS: u32 = 40;

/// Where a path leads.
pub enum Resolved<'t> {
    File(String),
    Dir(String),
    /// A symbolic link the lookup did not follow (the last component of an `lstat`-style lookup):
    /// its repository path and its entry's content (the target).
    Link(String, &'t Content),
    NotFound,
    NotADir,
    /// More than [`MAX_LINKS`] links on the way (ELOOP).
    Loop,
}

/// What one repository path names when it is not followed (`lstat`).
pub(super) enum Node<'t> {
    Missing,
    File,
    Dir,
    Link(&'t Content),
}

/// Queues the components of `path` (a relative path or a link target) to be looked up before
/// those already queued (`todo` is a stack). A trailing slash queues a final `.`: the path must
/// then be a folder and a link there is followed, as the kernel treats `x/` like `x/.`.
pub(super) fn queue_components<'s>(todo: &mut Vec<&'s str>, path: &'s str) {
    if path.ends_with('/') {
        todo.push(".");
    }
    todo.extend(path.split('/').filter(|c| !c.is_empty()).rev());
}

impl<'a> Interp<'a> {
    pub(super) fn is_test_file(&self, path: &str) -> bool {
        path.strip_prefix(EVAL_DIR).and_then(|r| r.strip_prefix('/'))
            == Some(self.test_file_name.as_str())
    }

    // The four accessors below are the interpreter's only way to the tree; each records its
    // question and answer when observing (see `observe`).

    /// The entry at `path`, for a lookup: callers look only at its mode and, for a link, at its
    /// content (the target); a file's bytes are read through [`Self::tree_entry`].
    pub(super) fn tree_node(&self, path: &RepoPath) -> Option<&'a FileEntry> {
        let entry = self.tree.get(path);
        if let Some(o) = &self.observations {
            o.borrow_mut().node(path, NodeSeen::of(entry));
        }
        entry
    }

    pub(super) fn tree_dir(&self, dir: &str) -> bool {
        let answer = self.tree.is_dir(dir);
        if let Some(o) = &self.observations {
            o.borrow_mut().is_dir(dir, answer);
        }
        answer
    }

    pub(super) fn tree_entry(&self, path: &RepoPath) -> Option<&'a crate::tree::FileEntry> {
        let entry = self.tree.get(path);
        if let Some(o) = &self.observations {
            o.borrow_mut().content(path, entry.map(|e| &e.content));
        }
        entry
    }

    /// The sorted entries of a resolved folder, with the eval folder and the test file the harness
    /// adds; records the folder as listed when tracing.
    pub(super) fn list_dir(&mut self, dir: &str) -> Vec<String> {
        if let Some(acc) = self.access.as_deref_mut() {
            acc.listed.insert(dir.to_string());
        }
        let mut names = self.tree.list_dir(dir);
        if let Some(o) = &self.observations {
            o.borrow_mut().list_dir(dir, &names);
        }
        if dir == EVAL_DIR && !names.contains(&self.test_file_name) {
            names.push(self.test_file_name.clone());
            names.sort();
        }
        if dir.is_empty() && !names.iter().any(|n| n == EVAL_DIR) {
            names.push(EVAL_DIR.to_string());
            names.sort();
        }
        names
    }

    /// Subfolders of a resolved folder (not links to folders): its `st_nlink` is 2 more.
    pub(super) fn subdir_count(&mut self, dir: &str) -> PyResult<'a, i64> {
        let mut n = 0;
        for name in self.list_dir(dir) {
            let child = if dir.is_empty() { name } else { format!("{dir}/{name}") };
            let rel = format!("{ROOT}/{child}");
            if matches!(self.resolve_no_follow(&rel)?, Resolved::Dir(_)) {
                n += 1;
            }
        }
        Ok(n)
    }

    /// Resolves a path relative to the eval folder, or an absolute one below the virtual root
    /// [`ROOT`] (`os.path.abspath(__file__)` gives those), following every symbolic link (`stat`,
    /// `open`). Records the path as probed when tracing, and as read by the running test method
    /// unless it is a folder.
    pub fn resolve(&mut self, p: &str) -> PyResult<'a, Resolved<'a>> {
        let resolved = self.lookup(p, true, &mut 0);
        self.trace_probe(p, resolved.as_ref().ok());
        resolved
    }

    /// [`Self::resolve`] without following a link in the last component (`lstat`).
    pub(super) fn resolve_no_follow(&mut self, p: &str) -> PyResult<'a, Resolved<'a>> {
        let resolved = self.lookup(p, false, &mut 0);
        self.trace_probe(p, resolved.as_ref().ok());
        resolved
    }

    /// Records `p` as probed (tracing) and as read by the running test method.
    pub(super) fn trace_probe(&mut self, p: &str, resolved: Option<&Resolved<'a>>) {
        if self.access.is_none() && self.method_reads.is_none() {
            return;
        }
        let Some(path) = repo_relative(p) else { return };
        if let Some(reads) = self.method_reads.as_mut() {
            // A test method's reads: the files and missing paths it asked about (a folder is
            // never a file an edit makes or changes), not the eval folder the harness lays out
            // (the test file itself).
            let own =
                path == EVAL_DIR || path.strip_prefix(EVAL_DIR).is_some_and(|r| r.starts_with('/'));
            if !path.is_empty() && !own && !matches!(resolved, Some(Resolved::Dir(_))) {
                reads.insert(path.clone());
            }
        }
        if let Some(acc) = self.access.as_deref_mut() {
            acc.probed.insert(path);
        }
    }

    /// The kernel's lookup of `p`; `links` counts the links followed. Any other absolute path
    /// than one below [`ROOT`] does not exist.
    pub(super) fn lookup(
        &self,
        p: &str,
        follow_last: bool,
        links: &mut u32,
    ) -> PyResult<'a, Resolved<'a>> {
        if p.is_empty() {
            return Ok(Resolved::NotFound);
        }
        if let Some(abs) = p.strip_prefix('/') {
            match below_root(abs) {
                Some(rest) => self.walk_path(String::new(), rest, follow_last, links),
                None => Ok(Resolved::NotFound),
            }
        } else {
            self.walk_path(EVAL_DIR.to_string(), p, follow_last, links)
        }
    }

    /// Looks `path` up from the folder `start` (a physical repository path, `""` the root) as
    /// Linux's path walk does: component by component, a link replaced by its target read from
    /// the link's folder (so `..` after a linked folder leaves the folder the link points to),
    /// the last component followed only when `follow_last`, at most [`MAX_LINKS`] links in all.
    ///
    /// The one deliberate difference: nothing exists outside the repository. `..` at the root
    /// and absolute link targets lead there, and the lookup answers "no such file". On the
    /// official harness the repository is a folder of a cache whose parent holds the other
    /// repositories' caches; no test can rely on that layout, and a scorer must never read the
    /// host (a link to `/etc/passwd` is not followed).
    pub(super) fn walk_path<'s>(
        &self,
        start: String,
        path: &'s str,
        follow_last: bool,
        links: &mut u32,
    ) -> PyResult<'a, Resolved<'a>>
    where
        'a: 's,
    {
        let mut cur = start;
        let mut todo: Vec<&'s str> = Vec::new();
        queue_components(&mut todo, path);
        while let Some(c) = todo.pop() {
            let more = !todo.is_empty();
            match c {
                "." => {}
                ".." => {
                    if cur.is_empty() {
                        return Ok(Resolved::NotFound);
                    }
                    let parent = cur.rfind('/').unwrap_or(0);
                    cur.truncate(parent);
                }
                name => {
                    let len = cur.len();
                    if len > 0 {
                        cur.push('/');
                    }
                    cur.push_str(name);
                    match self.node(&cur, more) {
                        Node::Dir => {}
                        Node::File => {
                            return Ok(if more { Resolved::NotADir } else { Resolved::File(cur) })
                        }
                        Node::Missing => return Ok(Resolved::NotFound),
                        Node::Link(content) => {
                            if !more && !follow_last {
                                return Ok(Resolved::Link(cur, content));
                            }
                            if *links >= MAX_LINKS {
                                return Ok(Resolved::Loop);
                            }
                            *links += 1;
                            let target: &'a [u8] = match content {
                                Content::Bytes(b) => b,
                                Content::BlobOnly(_) => return Err(self.link_not_in_bundle(&cur)),
                            };
                            // A tree path is UTF-8, so a target that is not names nothing there.
                            let Ok(target) = std::str::from_utf8(target) else {
                                return Ok(Resolved::NotFound);
                            };
                            if target.is_empty() || target.starts_with('/') {
                                return Ok(Resolved::NotFound);
                            }
                            cur.truncate(len);
                            queue_components(&mut todo, target);
                        }
                    }
                }
            }
        }
        Ok(Resolved::Dir(cur))
    }

    /// What the physical repository path `path` names. `intermediate`: more components follow,
    /// so a folder is the likely answer and is asked about first.
    pub(super) fn node(&self, path: &str, intermediate: bool) -> Node<'a> {
        if path == EVAL_DIR {
            return Node::Dir;
        }
        if self.is_test_file(path) {
            return Node::File;
        }
        if intermediate && self.tree_dir(path) {
            return Node::Dir;
        }
        let Ok(rp) = RepoPath::new(path) else { return Node::Missing };
        match self.tree_node(&rp) {
            Some(e) if e.mode == FileMode::Symlink => Node::Link(&e.content),
            Some(_) => Node::File,
            None if !intermediate && self.tree_dir(path) => Node::Dir,
            None => Node::Missing,
        }
    }

    pub(super) fn link_not_in_bundle(&self, path: &str) -> Box<crate::interp::PyErr<'a>> {
        self.fatal(
            ExcKind::ContentNotInBundle,
            format!(
                "the target of the symbolic link '{path}' is not in the task bundle (only its blob id is)"
            ),
        )
    }

    /// The error `os.stat` raises for a failed lookup.
    pub(super) fn lookup_error(&self, r: &Resolved<'a>, p: &str) -> Box<crate::interp::PyErr<'a>> {
        match r {
            Resolved::NotADir => {
                self.os_error(ExcKind::NotADirectoryError, 20, "Not a directory", p)
            }
            Resolved::Loop => {
                self.os_error(ExcKind::OSError, 40, "Too many levels of symbolic links", p)
            }
            _ => self.os_error(ExcKind::FileNotFoundError, 2, "No such file or directory", p),
        }
    }

    /// The target of a link entry, as `os.readlink` gives it.
    pub(super) fn link_target(&self, path: &str, content: &'a Content) -> PyResult<'a, &'a [u8]> {
        match content {
            Content::Bytes(b) => Ok(b),
            Content::BlobOnly(_) => Err(self.link_not_in_bundle(path)),
        }
    }

    /// `posixpath._joinrealpath` (non-strict): resolves the links of `rest` joined to `path`,
    /// each looked up with `lstat` as CPython does; a loop leaves the rest unresolved.
    pub(super) fn join_realpath(
        &mut self,
        mut path: String,
        rest: &str,
        seen: &mut std::collections::HashMap<String, Option<String>>,
    ) -> PyResult<'a, (String, bool)> {
        let mut rest = rest;
        if let Some(r) = rest.strip_prefix('/') {
            rest = r;
            path = "/".into();
        }
        while !rest.is_empty() {
            let (name, r) = rest.split_once('/').unwrap_or((rest, ""));
            rest = r;
            if name.is_empty() || name == "." {
                continue;
            }
            if name == ".." {
                if path.is_empty() {
                    path = "..".into();
                } else {
                    let tail = basename(&path).to_string();
                    path = dirname(&path);
                    if tail == ".." {
                        path = join2(&join2(&path, ".."), "..");
                    }
                }
                continue;
            }
            let newpath = join2(&path, name);
            self.charge(1)?;
            let content = match self.lookup(&newpath, false, &mut 0)? {
                Resolved::Link(_, content) => content,
                _ => {
                    path = newpath;
                    continue;
                }
            };
            if let Some(known) = seen.get(&newpath) {
                match known {
                    Some(p) => {
                        path = p.clone();
                        continue;
                    }
                    None => return Ok((join2(&newpath, rest), false)),
                }
            }
            seen.insert(newpath.clone(), None);
            let target = String::from_utf8_lossy(self.link_target(&newpath, content)?).into_owned();
            let (resolved, ok) = self.join_realpath(path, &target, seen)?;
            path = resolved;
            if !ok {
                return Ok((join2(&path, rest), false));
            }
            seen.insert(newpath, Some(path.clone()));
        }
        Ok((path, true))
    }

    pub(super) fn path_arg(&self, v: &Value<'a>, func: &str) -> PyResult<'a, Str> {
        match v {
            Value::Str(s) => Ok(s.clone()),
            Value::Bytes(b) => Ok(Rc::from(String::from_utf8_lossy(b).as_ref())),
            other => Err(self.err(
                ExcKind::TypeError,
                format!(
                    "{func}: path should be string, bytes or os.PathLike, not {}",
                    type_name(other)
                ),
            )),
        }
    }

    pub(super) fn os_error(
        &self,
        cls: ExcKind,
        errno: i64,
        text: &str,
        path: &str,
    ) -> Box<crate::interp::PyErr<'a>> {
        let msg = format!("[Errno {errno}] {text}: {}", str_repr(path));
        let e = self.err_args(cls, vec![Value::Int(errno), Value::str(text)], Some(msg));
        if let Value::Instance(i) = &e.exc {
            let mut d = i.dict.borrow_mut();
            d.insert(Rc::from("errno"), Value::Int(errno));
            d.insert(Rc::from("strerror"), Value::str(text));
            d.insert(Rc::from("filename"), Value::str(path));
        }
        e
    }

    /// The bytes of a resolved file; records it as read when tracing (before its content is looked
    /// at, so a file the bundle lacks is still reported). A tree file's bytes are shared, not
    /// copied: the same allocation on every `open` of an unchanged file ([`Interp::read_texts`]).
    pub(super) fn file_bytes(
        &mut self,
        path: &str,
        shown: &str,
    ) -> PyResult<'a, std::sync::Arc<[u8]>> {
        if self.is_test_file(path) {
            return Ok(std::sync::Arc::from(self.test_source.as_bytes()));
        }
        let rp = RepoPath::new(path).map_err(|_| {
            self.os_error(ExcKind::FileNotFoundError, 2, "No such file or directory", shown)
        })?;
        let entry = self.tree_entry(&rp);
        if entry.is_some() {
            if let Some(acc) = self.access.as_deref_mut() {
                acc.read.insert(rp.as_str().to_string());
            }
        }
        match entry.map(|e| &e.content) {
            Some(Content::Bytes(b)) => Ok(b.clone()),
            Some(Content::BlobOnly(_)) => Err(self.fatal(
                ExcKind::ContentNotInBundle,
                format!("the content of '{path}' is not in the task bundle (only its blob id is)"),
            )),
            None => Err(self.os_error(
                ExcKind::FileNotFoundError,
                2,
                "No such file or directory",
                shown,
            )),
        }
    }
}
