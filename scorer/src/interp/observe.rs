//! What a run learned about the repository tree, so that a later run on another tree can prove it
//! would see exactly the same and reuse the verdicts (see [`crate::unittest::Scorer`]).
//!
//! A run is a pure function of its test source and of the answers the tree gives it: the
//! interpreter has no clock, no randomness (fixed hash seeds) and no other input. Every question
//! the interpreter asks the tree goes through the four recording accessors in `osmod`
//! (`is_file`, `is_dir`, `list_dir`, `get`); this records each question with its answer. If a new
//! tree gives the same answer to every recorded question, the new run would take exactly the same
//! path, so its outcome is the recorded one. Answers are compared in full (file bytes by pointer,
//! then byte for byte), never by a hash that could collide.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::tree::{Content, RepoPath, Tree};

/// One question a run asked the tree.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Question {
    IsFile(String),
    IsDir(String),
    ListDir(String),
    Content(String),
}

/// The tree's answer to a [`Question`].
#[derive(Debug, Clone)]
enum Answer {
    Bool(bool),
    Names(Vec<String>),
    /// `None`: no such file.
    Content(Option<Seen>),
}

/// A file's content as the run saw it.
#[derive(Debug, Clone)]
enum Seen {
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
    pub fn is_file(&mut self, path: &RepoPath, answer: bool) {
        self.seen.insert(Question::IsFile(path.as_str().to_string()), Answer::Bool(answer));
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
            (Question::IsFile(p), Answer::Bool(b)) => {
                RepoPath::new(p).is_ok_and(|p| tree.is_file(&p)) == *b
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
        o.is_file(&RepoPath::new("pkg/c.py").unwrap(), false);
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
}
