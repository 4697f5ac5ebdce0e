//! The in-memory repository a submission is scored against.
//!
//! Paths are validated, `/`-separated and relative to the repository root. A file either carries its
//! bytes or only its git blob id: bundles ship the content of the files a test can read and the blob ids
//! of every other file, so `os.path.exists` stays exact and patches can be checked against the base.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use sha1::{Digest, Sha1};

/// Why a path was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("empty path")]
    Empty,
    #[error("absolute path `{0}`")]
    Absolute(String),
    #[error("path `{0}` escapes the repository root")]
    Escapes(String),
    #[error("path `{0}` is inside `.git/`")]
    GitDir(String),
    #[error("path `{0}` contains a NUL")]
    BadChar(String),
}

/// A validated, normalised path relative to the repository root (no `.`/`..`/empty components).
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "String", into = "String")]
pub struct RepoPath(Arc<str>);

impl RepoPath {
    /// Validates `raw` as a repository-relative path.
    pub fn new(raw: &str) -> Result<Self, PathError> {
        if raw.is_empty() {
            return Err(PathError::Empty);
        }
        if raw.starts_with('/') {
            return Err(PathError::Absolute(raw.to_string()));
        }
        // A backslash is an ordinary character on Linux (git creates `post\image.txt`).
        if raw.contains('\0') {
            return Err(PathError::BadChar(raw.to_string()));
        }
        // Most paths (every manifest path) are already normal: kept as they are, without
        // collecting and joining their components.
        if raw.split('/').all(|c| !matches!(c, "" | "." | "..")) {
            if raw.split('/').next() == Some(".git") {
                return Err(PathError::GitDir(raw.to_string()));
            }
            return Ok(RepoPath(Arc::from(raw)));
        }
        let mut parts: Vec<&str> = Vec::new();
        for comp in raw.split('/') {
            match comp {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Err(PathError::Escapes(raw.to_string()));
                    }
                }
                c => parts.push(c),
            }
        }
        if parts.is_empty() {
            return Err(PathError::Empty);
        }
        if parts[0] == ".git" {
            return Err(PathError::GitDir(raw.to_string()));
        }
        Ok(RepoPath(Arc::from(parts.join("/"))))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The parent folder, `""` for a top-level entry.
    pub fn parent(&self) -> &str {
        self.0.rsplit_once('/').map_or("", |(p, _)| p)
    }
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for RepoPath {
    type Error = PathError;
    fn try_from(s: String) -> Result<Self, PathError> {
        RepoPath::new(&s)
    }
}

impl From<RepoPath> for String {
    fn from(p: RepoPath) -> String {
        p.0.to_string()
    }
}

/// Git file modes the tree keeps (git only records these three for blobs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FileMode {
    Regular,
    Executable,
    Symlink,
}

impl FileMode {
    /// Parses git's octal mode text (`100644`, `100755`, `120000`).
    pub fn from_git(text: &str) -> Option<Self> {
        match text {
            "100644" | "100664" => Some(FileMode::Regular),
            "100755" => Some(FileMode::Executable),
            "120000" => Some(FileMode::Symlink),
            _ => None,
        }
    }

    pub fn as_git(self) -> &'static str {
        match self {
            FileMode::Regular => "100644",
            FileMode::Executable => "100755",
            FileMode::Symlink => "120000",
        }
    }
}

/// What the tree knows of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// The bytes, shared between trees (a patched tree copies only the files it changes).
    Bytes(Arc<[u8]>),
    /// Only the git blob id: the file exists, its bytes were not shipped. 40 hex digits from a
    /// manifest; after a patch to such a file, the patch's `index` line new id, which git may
    /// abbreviate (7+ digits): enough to tell the file exists and changed, never read as bytes.
    BlobOnly(Arc<str>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    pub mode: FileMode,
    pub content: Content,
}

impl FileEntry {
    pub fn bytes(&self) -> Option<&Arc<[u8]>> {
        match &self.content {
            Content::Bytes(b) => Some(b),
            Content::BlobOnly(_) => None,
        }
    }

    /// The git blob id of this file (computed for carried bytes).
    pub fn blob_id(&self) -> String {
        match &self.content {
            Content::Bytes(b) => git_blob_id(b),
            Content::BlobOnly(id) => id.to_string(),
        }
    }
}

/// `sha1("blob <len>\0" + bytes)` in lowercase hex, as `git hash-object` prints it.
pub fn git_blob_id(bytes: &[u8]) -> String {
    let mut h = Sha1::new();
    h.update(format!("blob {}\0", bytes.len()).as_bytes());
    h.update(bytes);
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// An immutable-by-convention file map. A symbolic link is an entry of mode [`FileMode::Symlink`]
/// whose content is its target, as git stores it; a link to a folder is such an entry too, with
/// nothing below it (the interpreter follows links when it resolves a path, `interp/stdlib/os/`).
/// Cloning is O(1): the listing is shared, and a clone's changes (a patch's files) are kept
/// beside it in a small map of their own, so neither an empty or failed patch nor a patch of a
/// few files copies (and later frees) a repository's listing. A tree owning its listing alone
/// (a builder's) changes it in place.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    files: Arc<BTreeMap<RepoPath, FileEntry>>,
    /// Changes over `files`: an entry added or replaced (`Some`) or removed (`None`).
    changes: BTreeMap<RepoPath, Option<FileEntry>>,
}

impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tree {}

/// Name of the folder, one level below the root, that tests run in (as the official harness does).
pub const EVAL_DIR: &str = "refactorbench_eval";

impl Tree {
    pub fn new() -> Self {
        Self::default()
    }

    /// A tree of `entries` given in ascending path order without repeats (built in one pass;
    /// out-of-order entries are sorted, a repeated path keeps its last entry).
    pub fn from_sorted(entries: Vec<(RepoPath, FileEntry)>) -> Self {
        Tree { files: Arc::new(entries.into_iter().collect()), changes: BTreeMap::new() }
    }

    pub fn insert(&mut self, path: RepoPath, entry: FileEntry) -> Option<FileEntry> {
        if self.changes.is_empty() {
            if let Some(files) = Arc::get_mut(&mut self.files) {
                return files.insert(path, entry);
            }
        }
        let before = self.get(&path).cloned();
        self.changes.insert(path, Some(entry));
        before
    }

    /// Convenience for tests and builders: a regular file with these bytes.
    pub fn insert_bytes(
        &mut self,
        path: &str,
        bytes: impl Into<Arc<[u8]>>,
    ) -> Result<(), PathError> {
        let p = RepoPath::new(path)?;
        self.insert(
            p,
            FileEntry { mode: FileMode::Regular, content: Content::Bytes(bytes.into()) },
        );
        Ok(())
    }

    /// Convenience for tests and builders: a symbolic link to `target` (git stores the target
    /// as the link's blob).
    pub fn insert_symlink(&mut self, path: &str, target: &str) -> Result<(), PathError> {
        let p = RepoPath::new(path)?;
        let bytes: Arc<[u8]> = Arc::from(target.as_bytes());
        self.insert(p, FileEntry { mode: FileMode::Symlink, content: Content::Bytes(bytes) });
        Ok(())
    }

    pub fn remove(&mut self, path: &RepoPath) -> Option<FileEntry> {
        if self.changes.is_empty() {
            if let Some(files) = Arc::get_mut(&mut self.files) {
                return files.remove(path);
            }
        }
        let before = self.get(path).cloned();
        if before.is_some() {
            if self.files.contains_key(path) {
                self.changes.insert(path.clone(), None);
            } else {
                self.changes.remove(path);
            }
        }
        before
    }

    pub fn get(&self, path: &RepoPath) -> Option<&FileEntry> {
        if !self.changes.is_empty() {
            if let Some(change) = self.changes.get(path) {
                return change.as_ref();
            }
        }
        self.files.get(path)
    }

    pub fn is_file(&self, path: &RepoPath) -> bool {
        self.get(path).is_some()
    }

    /// The entries from `start` on, in path order: the listing with the changes over it.
    fn range_from<'t>(
        &'t self,
        start: &RepoPath,
    ) -> impl Iterator<Item = (&'t RepoPath, &'t FileEntry)> + 't {
        let mut base = self.files.range(start.clone()..).peekable();
        let mut changes = self.changes.range(start.clone()..).peekable();
        std::iter::from_fn(move || loop {
            let (take_change, shadowed) = match (base.peek(), changes.peek()) {
                (None, None) => return None,
                (Some(_), None) => (false, false),
                (None, Some(_)) => (true, false),
                (Some((b, _)), Some((c, _))) => (c <= b, b == c),
            };
            if shadowed {
                base.next();
            }
            if take_change {
                if let Some((p, Some(e))) = changes.next() {
                    return Some((p, e));
                }
            } else {
                return base.next();
            }
        })
    }

    /// A folder exists when some file lies below it (git has no empty folders). `""` is the root.
    pub fn is_dir(&self, dir: &str) -> bool {
        if dir.is_empty() {
            return true;
        }
        let prefix = format!("{dir}/");
        self.range_from(&RepoPath(Arc::from(prefix.as_str())))
            .next()
            .is_some_and(|(p, _)| p.0.starts_with(&prefix))
    }

    /// Names directly inside `dir` (files and folders), sorted, deduplicated.
    pub fn list_dir(&self, dir: &str) -> Vec<String> {
        let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        let mut out: Vec<String> = Vec::new();
        for (p, _) in self.range_from(&RepoPath(Arc::from(prefix.as_str()))) {
            let Some(rest) = p.0.strip_prefix(&prefix) else { break };
            let name = rest.split('/').next().unwrap_or(rest);
            if out.last().map(String::as_str) != Some(name) {
                out.push(name.to_string());
            }
        }
        out
    }

    pub fn iter(&self) -> impl Iterator<Item = (&RepoPath, &FileEntry)> {
        self.range_from(&RepoPath(Arc::from("")))
    }

    pub fn len(&self) -> usize {
        if self.changes.is_empty() {
            return self.files.len();
        }
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised_and_validated() {
        assert_eq!(RepoPath::new("a/./b//c").unwrap().as_str(), "a/b/c");
        assert_eq!(RepoPath::new("a/x/../b").unwrap().as_str(), "a/b");
        assert!(matches!(RepoPath::new("../a"), Err(PathError::Escapes(_))));
        assert!(matches!(RepoPath::new("/etc/passwd"), Err(PathError::Absolute(_))));
        assert!(matches!(RepoPath::new(".git/config"), Err(PathError::GitDir(_))));
        assert!(matches!(RepoPath::new(""), Err(PathError::Empty)));
    }

    #[test]
    fn blob_id_matches_git() {
        // `printf 'hello\n' | git hash-object --stdin`
        assert_eq!(git_blob_id(b"hello\n"), "ce013625030ba8dba906f756967f9e9ca394464a");
        assert_eq!(git_blob_id(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
    }

    #[test]
    fn folders_are_derived_from_files() {
        let mut t = Tree::new();
        t.insert_bytes("pkg/mod.py", b"x = 1\n".to_vec()).unwrap();
        t.insert_bytes("pkg/sub/a.py", b"".to_vec()).unwrap();
        t.insert_bytes("pkgx.py", b"".to_vec()).unwrap();
        assert!(t.is_dir("pkg"));
        assert!(t.is_dir("pkg/sub"));
        assert!(!t.is_dir("pk"));
        assert!(!t.is_dir("pkg/mod.py"));
        assert_eq!(t.list_dir("pkg"), vec!["mod.py", "sub"]);
        assert_eq!(t.list_dir(""), vec!["pkg", "pkgx.py"]);
    }

    /// A clone's changes lie over the shared listing: reads, folders and iteration see the
    /// changed tree, the original is untouched, and equal contents compare equal however held.
    #[test]
    fn a_changed_clone_reads_as_the_changed_tree() {
        let mut t = Tree::new();
        for p in ["a/x.py", "a/y.py", "b/z.py", "c.py"] {
            t.insert_bytes(p, p.as_bytes().to_vec()).unwrap();
        }
        let mut u = t.clone();
        u.insert_bytes("a/y.py", b"new".to_vec()).unwrap();
        u.insert_bytes("a/w.py", b"w".to_vec()).unwrap();
        assert!(u.remove(&RepoPath::new("b/z.py").unwrap()).is_some());
        assert!(u.remove(&RepoPath::new("b/z.py").unwrap()).is_none());
        u.insert_bytes("d/e.py", b"e".to_vec()).unwrap();
        assert!(u.remove(&RepoPath::new("d/e.py").unwrap()).is_some());
        let paths: Vec<&str> = u.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["a/w.py", "a/x.py", "a/y.py", "c.py"]);
        assert_eq!(u.len(), 4);
        assert_eq!(t.len(), 4);
        assert!(!u.is_dir("b") && t.is_dir("b") && !u.is_dir("d"));
        assert_eq!(u.list_dir(""), vec!["a", "c.py"]);
        assert_eq!(u.list_dir("a"), vec!["w.py", "x.py", "y.py"]);
        let y = RepoPath::new("a/y.py").unwrap();
        assert_eq!(u.get(&y).and_then(|e| e.bytes()).map(|b| &b[..]), Some(&b"new"[..]));
        assert_eq!(t.get(&y).and_then(|e| e.bytes()).map(|b| &b[..]), Some(&b"a/y.py"[..]));
        let mut built = Tree::new();
        for (p, e) in u.iter() {
            built.insert(p.clone(), e.clone());
        }
        assert_eq!(built, u);
        assert_ne!(t, u);
    }
}
