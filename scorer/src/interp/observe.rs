//! What a run learned about the repository tree, so that a later run on another tree can prove it
//! would see exactly the same and reuse the verdicts (see [`crate::unittest::Scorer`]).
//!
//! A run is a pure function of its test source and of the answers the tree gives it: the
//! interpreter has no clock, no randomness (fixed hash seeds) and no other input. Every question
//! the interpreter asks the tree goes through the four recording accessors in `stdlib::os`
//! (`tree_node`, `tree_dir`, `list_dir`, `tree_entry`); this records each question with its answer.
//! A path lookup asks one question per component it visits, and a symbolic link's answer is its
//! target: a link that changes, appears or goes away changes an answer, so whatever a run
//! resolved through links is covered. If a new
//! tree gives the same answer to every recorded question, the new run would take exactly the same
//! path, so its outcome is the recorded one. Answers are compared in full (file bytes by pointer,
//! then byte for byte), never by a hash that could collide.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::tree::{Content, FileEntry, FileMode, RepoPath, Tree};

/// One question a run asked the tree.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Question {
    /// What a path names when it is not followed: nothing, a file, or a link (`lstat`).
    Node(String),
    IsDir(String),
    ListDir(String),
    Content(String),
}

/// The tree's answer to a [`Question`].
#[derive(Debug, Clone)]
enum Answer {
    Bool(bool),
    Node(NodeSeen),
    Names(Vec<String>),
    /// `None`: no such file.
    Content(Option<Seen>),
}

/// A tree entry as a lookup saw it: a regular file's bytes and mode do not matter to a lookup,
/// a link's target does.
#[derive(Debug, Clone)]
pub enum NodeSeen {
    Missing,
    File,
    Link(Seen),
}

impl NodeSeen {
    /// The answer `entry` gives.
    pub fn of(entry: Option<&FileEntry>) -> NodeSeen {
        match entry {
            None => NodeSeen::Missing,
            Some(e) if e.mode == FileMode::Symlink => NodeSeen::Link(Seen::of(&e.content)),
            Some(_) => NodeSeen::File,
        }
    }

    fn same(&self, entry: Option<&FileEntry>) -> bool {
        match (self, entry) {
            (NodeSeen::Missing, None) => true,
            (NodeSeen::File, Some(e)) => e.mode != FileMode::Symlink,
            (NodeSeen::Link(s), Some(e)) => e.mode == FileMode::Symlink && s.same(&e.content),
            _ => false,
        }
    }
}

/// A file's content as the run saw it.
#[derive(Debug, Clone)]
pub enum Seen {
    Bytes(Arc<[u8]>),
    BlobOnly(std::sync::Arc<str>),
}

impl Seen {
    fn of(content: &Content) -> Seen {
        match content {
            Content::Bytes(b) => Seen::Bytes(b.clone()),
            Content::BlobOnly(id) => Seen::BlobOnly(id.clone()),
        }
    }

    fn same(&self, content: &Content) -> bool {
        match (self, content) {
            (Seen::Bytes(a), Content::Bytes(b)) => Arc::ptr_eq(a, b) || a[..] == b[..],
            (Seen::BlobOnly(a), Content::BlobOnly(b)) => a == b,
            _ => false,
        }
    }
}

/// The questions of one run with their answers (each question once: the tree does not change
/// during a run).
#[derive(Debug, Clone, Default)]
pub struct Observations {
    seen: BTreeMap<Question, Answer>,
}

impl Observations {
    pub fn node(&mut self, path: &RepoPath, answer: NodeSeen) {
        self.seen.insert(Question::Node(path.as_str().to_string()), Answer::Node(answer));
    }

    pub fn is_dir(&mut self, dir: &str, answer: bool) {
        self.seen.insert(Question::IsDir(dir.to_string()), Answer::Bool(answer));
    }

    pub fn list_dir(&mut self, dir: &str, names: &[String]) {
        self.seen.insert(Question::ListDir(dir.to_string()), Answer::Names(names.to_vec()));
    }

    pub fn content(&mut self, path: &RepoPath, content: Option<&Content>) {
        self.seen.insert(
            Question::Content(path.as_str().to_string()),
            Answer::Content(content.map(Seen::of)),
        );
    }

    /// Number of distinct questions recorded.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// Whether `tree` answers every recorded question the same way.
    pub fn hold_for(&self, tree: &Tree) -> bool {
        self.seen.iter().all(|(q, a)| match (q, a) {
            (Question::Node(p), Answer::Node(seen)) => {
                RepoPath::new(p).is_ok_and(|p| seen.same(tree.get(&p)))
            }
            (Question::IsDir(d), Answer::Bool(b)) => tree.is_dir(d) == *b,
            (Question::ListDir(d), Answer::Names(n)) => tree.list_dir(d) == *n,
            (Question::Content(p), Answer::Content(seen)) => {
                let now = RepoPath::new(p).ok().and_then(|p| tree.get(&p).map(|e| &e.content));
                match (seen, now) {
                    (None, None) => true,
                    (Some(s), Some(c)) => s.same(c),
                    _ => false,
                }
            }
            _ => false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Tree {
        let mut t = Tree::new();
        for (p, c) in files {
            t.insert_bytes(p, c.as_bytes().to_vec()).unwrap();
        }
        t
    }

    #[test]
    fn answers_are_compared_in_full() {
        let a = tree(&[("pkg/a.py", "x = 1\n"), ("pkg/b.py", "y = 2\n")]);
        let mut o = Observations::default();
        let pa = RepoPath::new("pkg/a.py").unwrap();
        o.content(&pa, a.get(&pa).map(|e| &e.content));
        o.node(&RepoPath::new("pkg/c.py").unwrap(), NodeSeen::Missing);
        o.is_dir("pkg", true);
        o.list_dir("pkg", &a.list_dir("pkg"));
        assert!(o.hold_for(&a));
        // Same bytes in a fresh allocation: still the same answer.
        assert!(o.hold_for(&tree(&[("pkg/a.py", "x = 1\n"), ("pkg/b.py", "y = 2\n")])));
        // A changed read file, a new file, a new listing entry: each breaks it.
        assert!(!o.hold_for(&tree(&[("pkg/a.py", "x = 2\n"), ("pkg/b.py", "y = 2\n")])));
        assert!(!o.hold_for(&tree(&[
            ("pkg/a.py", "x = 1\n"),
            ("pkg/b.py", "y = 2\n"),
            ("pkg/c.py", "")
        ])));
        assert!(!o.hold_for(&tree(&[("pkg/a.py", "x = 1\n")])));
        // A file the run never asked about may change freely only if no listing covers it.
        let mut narrow = Observations::default();
        narrow.content(&pa, a.get(&pa).map(|e| &e.content));
        assert!(narrow.hold_for(&tree(&[("pkg/a.py", "x = 1\n"), ("pkg/b.py", "changed\n")])));
    }

    #[test]
    fn a_lookup_answer_is_the_kind_and_a_links_target() {
        let mut a = tree(&[("pkg/a.py", "x = 1\n")]);
        a.insert_symlink("cur", "pkg/a.py").unwrap();
        let (cur, file) = (RepoPath::new("cur").unwrap(), RepoPath::new("pkg/a.py").unwrap());
        let mut o = Observations::default();
        o.node(&cur, NodeSeen::of(a.get(&cur)));
        o.node(&file, NodeSeen::of(a.get(&file)));
        assert!(o.hold_for(&a));
        // A file's bytes and mode are no part of a lookup's answer.
        let mut b = tree(&[("pkg/a.py", "changed\n")]);
        b.insert_symlink("cur", "pkg/a.py").unwrap();
        assert!(o.hold_for(&b));
        let mut exec = b.clone();
        let entry = exec.get(&file).unwrap().clone();
        exec.insert(file.clone(), FileEntry { mode: FileMode::Executable, ..entry });
        assert!(o.hold_for(&exec));
        // A link's target is.
        let mut c = tree(&[("pkg/a.py", "x = 1\n")]);
        c.insert_symlink("cur", "pkg/b.py").unwrap();
        assert!(!o.hold_for(&c));
        // A link turned into a file with the same bytes, a file turned into a link: changed.
        let mut d = tree(&[("pkg/a.py", "x = 1\n")]);
        d.insert_bytes("cur", b"pkg/a.py".to_vec()).unwrap();
        assert!(!o.hold_for(&d));
        let mut e = tree(&[]);
        e.insert_symlink("cur", "pkg/a.py").unwrap();
        e.insert_symlink("pkg/a.py", "x = 1\n").unwrap();
        assert!(!o.hold_for(&e));
    }
}
