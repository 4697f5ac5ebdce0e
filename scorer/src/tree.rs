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
/// Cloning is O(1): the map is shared until a clone is changed (copy on write), so an empty or
/// failed patch never copies a repository's listing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    files: Arc<BTreeMap<RepoPath, FileEntry>>,
}

/// Name of the folder, one level below the root, that tests run in (as the official harness does).
pub const EVAL_DIR: &str = "refactorbench_eval";

impl Tree {
    pub fn new() -> Self {
        Self::default()
    }

    /// A tree of `entries` given in ascending path order without repeats (built in one pass;
    /// out-of-order entries are sorted, a repeated path keeps its last entry).
    pub fn from_sorted(entries: Vec<(RepoPath, FileEntry)>) -> Self {
        Tree { files: Arc::new(entries.into_iter().collect()) }
    }

    pub fn insert(&mut self, path: RepoPath, entry: FileEntry) -> Option<FileEntry> {
        Arc::make_mut(&mut self.files).insert(path, entry)
    }

    /// Convenience for tests and builders: a regular file with these bytes.
    pub fn insert_bytes(
        &mut self,
        path: &str,
        bytes: impl Into<Arc<[u8]>>,
    ) -> Result<(), PathError> {
        let p = RepoPath::new(path)?;
        Arc::make_mut(&mut self.files).insert(
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
        Arc::make_mut(&mut self.files)
            .insert(p, FileEntry { mode: FileMode::Symlink, content: Content::Bytes(bytes) });
        Ok(())
    }

    pub fn remove(&mut self, path: &RepoPath) -> Option<FileEntry> {
        Arc::make_mut(&mut self.files).remove(path)
    }

    pub fn get(&self, path: &RepoPath) -> Option<&FileEntry> {
        self.files.get(path)
    }

    pub fn is_file(&self, path: &RepoPath) -> bool {
        self.files.contains_key(path)
    }

    /// A folder exists when some file lies below it (git has no empty folders). `""` is the root.
    pub fn is_dir(&self, dir: &str) -> bool {
        if dir.is_empty() {
            return true;
        }
        let prefix = format!("{dir}/");
        self.files
            .range(RepoPath(Arc::from(prefix.as_str()))..)
            .next()
            .is_some_and(|(p, _)| p.0.starts_with(&prefix))
    }

    /// Names directly inside `dir` (files and folders), sorted, deduplicated.
    pub fn list_dir(&self, dir: &str) -> Vec<String> {
        let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        let mut out: Vec<String> = Vec::new();
        for (p, _) in self.files.range(RepoPath(Arc::from(prefix.as_str()))..) {
            let Some(rest) = p.0.strip_prefix(&prefix) else { break };
            let name = rest.split('/').next().unwrap_or(rest);
            if out.last().map(String::as_str) != Some(name) {
                out.push(name.to_string());
            }
        }
        out
    }

    pub fn iter(&self) -> impl Iterator<Item = (&RepoPath, &FileEntry)> {
        self.files.iter()
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
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
}
