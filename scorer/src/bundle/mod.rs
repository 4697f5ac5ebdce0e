//! Task bundles: what the browser needs to score a task without the official checkout.
//!
//! The format is documented in `tasks/README.md`. A bundle folder holds:
//! - `index.json` ([`BundleIndex`]): the task list and the repositories, with a content hash;
//! - `tasks/<id>.<hash16>.json` ([`TaskData`]): instructions, test source, the files the task needs;
//! - `repos/<repo>.<hash16>.json` ([`Manifest`]): every path of a repository with its git blob id;
//! - `blobs/<git blob id>.txt` ([`blob_file`]): the raw bytes of a file, shared by every task (and
//!   repository) that needs it.
//!
//! Everything but `index.json` is content-addressed, so a browser may cache it forever.
//! This module only models and checks bundles; the CLI importer reads checkouts and writes files.

pub mod mapping;
pub mod paths;

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::tree::{git_blob_id, Content, FileEntry, FileMode, RepoPath, Tree};

/// Bundle schema version written into every JSON file of a bundle.
pub const BUNDLE_SCHEMA_VERSION: u32 = 1;

/// The root `index.json` of a bundle: everything a task list needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleIndex {
    pub schema_version: u32,
    /// sha256 over every other file of the bundle ([`bundle_hash`]), so a redeployed site never
    /// shows stale rows.
    pub bundle_hash: String,
    pub tasks: Vec<TaskSummary>,
    /// The repositories the tasks refer to, sorted by name.
    #[serde(default)]
    pub repos: Vec<RepoSummary>,
    /// `tasks/pack.<hash16>.txt`: every task file's bytes concatenated in `tasks` order, keyed
    /// by the task file's name. A reader scoring many tasks fetches it once instead of one
    /// request per task; a reader showing one task fetches that task's file. Absent from
    /// bundles written before it existed and from combined tasks' bundles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_pack: Option<Pack>,
}

/// One row of the task list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSummary {
    pub id: String,
    pub repo: String,
    /// Test file name, as in the official `tests/<repo>_refactor/` folder.
    pub tests: String,
    /// Number of test methods the test file defines (after "last definition wins").
    #[serde(default)]
    pub methods: u32,
    /// Bundle-relative path of the task's [`TaskData`] file.
    #[serde(default)]
    pub data: String,
    /// The one-line (lazy) instruction, for the list.
    #[serde(default)]
    pub lazy: String,
    /// How many blobs the task needs, and their total size in bytes.
    #[serde(default)]
    pub blobs: u32,
    #[serde(default)]
    pub blob_bytes: u64,
}

/// One repository of the bundle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepoSummary {
    /// Folder name in the checkout (`flask_refactor`).
    pub name: String,
    /// Bundle-relative path of its [`Manifest`].
    pub manifest: String,
    /// Number of files in the manifest.
    pub files: u32,
    pub attribution: Attribution,
}

/// Where a repository comes from and under which licence, as its own files say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attribution {
    /// Upstream project name (`flask`), or the repository name when unknown.
    pub upstream: String,
    /// Upstream project home, when the importer knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The licence file at the repository root (`LICENSE.txt`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license_file: Option<String>,
    /// Its first non-empty line (`BSD 3-Clause License`, or a copyright line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The SPDX id recognised from the licence text (`BSD-3-Clause`, `Apache-2.0`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spdx: Option<String>,
    /// Its first copyright line naming the project's holders (not the licence's own authors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copyright: Option<String>,
}

/// `repos/<repo>.<hash16>.json`: every file of the base repository, as `git ls-files -s` would list it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub schema_version: u32,
    pub repo: String,
    /// Path → git blob id, for every file (byte-wise path order).
    pub files: BTreeMap<RepoPath, String>,
    /// Path → git mode, only for files that are not `100644` (executables, symlinks).
    #[serde(default)]
    pub modes: BTreeMap<RepoPath, String>,
    /// Path → target of every symbolic link (its blob's bytes, a few dozen each), so that a path
    /// through a link resolves exactly whichever files a task carries. Absent when there are none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub links: BTreeMap<RepoPath, String>,
    /// Every blob the repository's tasks carry, in one file, for loading many tasks at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<Pack>,
}

/// What a manifest says besides its file list: enough to find a repository's pack. Read without
/// building the file map, which for a large repository is half a megabyte of paths: the app's UI
/// thread needs only this, and the scoring worker builds the whole [`Manifest`] where it builds trees.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ManifestHead {
    pub schema_version: u32,
    pub repo: String,
    #[serde(default)]
    pub pack: Option<Pack>,
}

/// `packs/<repo>.<hash16>.txt`: the blobs of one repository's tasks, concatenated in blob-id order.
/// Scoring all tasks of a bundle then takes one request per repository instead of one per blob
/// (measured on the 100 official tasks: 426 blob requests take ten times as long as 9 packs).
/// The index's task pack ([`BundleIndex::task_pack`]) has the same shape, keyed by task file name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pack {
    /// Bundle-relative file name.
    pub file: String,
    /// Blob id (task file name, in the task pack) → `[offset, length]` in the pack.
    pub blobs: BTreeMap<String, [u64; 2]>,
}

impl Pack {
    /// Splits a downloaded pack into its blobs, checking every range and every blob id.
    pub fn split(&self, bytes: &[u8]) -> Result<BTreeMap<String, Arc<[u8]>>, BundleError> {
        let out = self.split_unhashed(bytes)?;
        for (blob, data) in &out {
            let actual = git_blob_id(data);
            if &actual != blob {
                return Err(BundleError::CorruptBlob { blob: blob.clone(), actual });
            }
        }
        Ok(out)
    }

    /// [`Self::split`] checking the ranges only: for a reader that hashes each blob when a base
    /// tree first uses it ([`TaskData::base_tree_trusting`]), since a worker scoring some of a
    /// repository's tasks uses only some of its pack (SHA-1 in wasm has no hardware help).
    pub fn split_unhashed(&self, bytes: &[u8]) -> Result<BTreeMap<String, Arc<[u8]>>, BundleError> {
        let mut out = BTreeMap::new();
        for (blob, [offset, len]) in &self.blobs {
            let range = usize::try_from(*offset)
                .ok()
                .zip(usize::try_from(*len).ok())
                .and_then(|(o, l)| Some(o..o.checked_add(l)?))
                .filter(|r| r.end <= bytes.len())
                .ok_or_else(|| BundleError::PackRange {
                    file: self.file.clone(),
                    blob: blob.clone(),
                })?;
            out.insert(blob.clone(), Arc::from(&bytes[range]));
        }
        Ok(out)
    }
}

/// The three instructions of a task, verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instructions {
    pub lazy: String,
    pub base: String,
    pub descriptive: String,
}

/// The task's unittest file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestFile {
    /// File name (`rename-as-camel-case.py`).
    pub name: String,
    /// Path in the checkout (`tests/tornado_refactor/rename-as-camel-case.py`).
    pub path: String,
    pub source: String,
}

/// Why a task carries a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NeedReason {
    /// The test file names it (a `../` string, a folder string joined with a file name, ...).
    Test,
    /// An instruction names it (a path or a dotted module).
    Instructions,
    /// The importer's instrumented run of the test on the base tree read it (`open`,
    /// `os.path.getsize`). Alone, it marks a file the test reaches through a path it computes at
    /// run time, which the static rules cannot see.
    Run,
    /// A reason written by a newer importer that this build does not know. The reasons only
    /// explain why a file is carried, so an unknown one must not make the task unreadable.
    #[serde(other)]
    Other,
}

/// A file of the base tree that the task carries the bytes of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NeededFile {
    pub path: RepoPath,
    pub blob: String,
    pub size: u64,
    pub why: Vec<NeedReason>,
}

/// A repository path the test file names (for the "files the tests inspect" views).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InspectedPath {
    pub path: RepoPath,
    /// Lines of the test file that name it.
    pub lines: Vec<u32>,
    /// Whether the base tree has it (files the task must create do not exist yet).
    pub exists: bool,
}

/// `tasks/<id>.<hash16>.json`: everything one task needs besides the manifest and the blobs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskData {
    pub schema_version: u32,
    pub id: String,
    pub repo: String,
    pub instructions: Instructions,
    pub test: TestFile,
    /// `Class.method` ids the loader runs, in unittest's order.
    pub methods: Vec<String>,
    /// Paths the test file names, resolved against the repository root.
    pub inspected: Vec<InspectedPath>,
    /// Files whose bytes the task carries (blobs listed here must exist in `blobs/`).
    pub files: Vec<NeededFile>,
    /// Set for a combined pseudo-task ([`crate::combine`]): graded by its parts' test files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combined: Option<crate::combine::Combined>,
}

/// Why a bundle could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BundleError {
    #[error("{file}: invalid JSON: {message}")]
    Json { file: String, message: String },
    #[error("bundle schema_version {found} is not supported (this build reads {expected})")]
    SchemaVersion { found: u32, expected: u32 },
    #[error(
        "task {task} belongs to repository {task_repo}, but the manifest is for {manifest_repo}"
    )]
    RepoMismatch { task: String, task_repo: String, manifest_repo: String },
    #[error(
        "task {task} needs {path} (blob {blob}), which the manifest does not list with that blob"
    )]
    NotInManifest { task: String, path: String, blob: String },
    #[error("{file}: the range of blob {blob} lies outside the pack")]
    PackRange { file: String, blob: String },
    #[error("blob {blob} is missing")]
    MissingBlob { blob: String },
    #[error("blob {blob} is corrupt: its content hashes to {actual}")]
    CorruptBlob { blob: String, actual: String },
    #[error("manifest of {repo}: unknown mode {mode} for {path}")]
    BadMode { repo: String, path: String, mode: String },
    #[error(
        "manifest of {repo}: the link target of {path} hashes to {actual}, not its blob {blob}"
    )]
    CorruptLink { repo: String, path: String, blob: String, actual: String },
}

fn check_version(found: u32) -> Result<(), BundleError> {
    if found == BUNDLE_SCHEMA_VERSION {
        Ok(())
    } else {
        Err(BundleError::SchemaVersion { found, expected: BUNDLE_SCHEMA_VERSION })
    }
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T, BundleError> {
    serde_json::from_str(text)
        .map_err(|e| BundleError::Json { file: file.to_string(), message: e.to_string() })
}

impl BundleIndex {
    /// The bytes `index.json` contributes to [`bundle_hash`]: its canonical JSON with `bundle_hash`
    /// left empty.
    pub fn hash_input(&self) -> Vec<u8> {
        canonical_json(&BundleIndex { bundle_hash: String::new(), ..self.clone() })
    }

    /// Parses an `index.json`, refusing schema versions this build does not know.
    pub fn from_json(text: &str) -> Result<Self, BundleError> {
        let index: BundleIndex = from_json(text, "index.json")?;
        check_version(index.schema_version)?;
        Ok(index)
    }
}

impl Manifest {
    pub fn from_json(text: &str, file: &str) -> Result<Self, BundleError> {
        let m: Manifest = from_json(text, file)?;
        check_version(m.schema_version)?;
        Ok(m)
    }

    /// The git mode of a listed path.
    pub fn mode(&self, path: &RepoPath) -> Result<FileMode, BundleError> {
        match self.modes.get(path) {
            None => Ok(FileMode::Regular),
            Some(m) => FileMode::from_git(m).ok_or_else(|| BundleError::BadMode {
                repo: self.repo.clone(),
                path: path.to_string(),
                mode: m.clone(),
            }),
        }
    }
}

impl ManifestHead {
    pub fn from_json(text: &str, file: &str) -> Result<Self, BundleError> {
        let m: ManifestHead = from_json(text, file)?;
        check_version(m.schema_version)?;
        Ok(m)
    }
}

impl TaskData {
    pub fn from_json(text: &str, file: &str) -> Result<Self, BundleError> {
        let t: TaskData = from_json(text, file)?;
        check_version(t.schema_version)?;
        Ok(t)
    }

    /// The base tree the task is scored against: every manifest path, with bytes for the files the
    /// task carries (checked against their blob ids) and only blob ids for the rest.
    pub fn base_tree(
        &self,
        manifest: &Manifest,
        blobs: &BTreeMap<String, Arc<[u8]>>,
    ) -> Result<Tree, BundleError> {
        self.base_tree_on(manifest, |m| m.listing(), blobs)
    }

    /// [`Self::base_tree`] on the manifest's [`Manifest::listing`] as `listing` gives it (a reader
    /// scoring many tasks of a repository builds it once and hands out copy-on-write clones).
    pub fn base_tree_on(
        &self,
        manifest: &Manifest,
        listing: impl FnOnce(&Manifest) -> Result<Tree, BundleError>,
        blobs: &BTreeMap<String, Arc<[u8]>>,
    ) -> Result<Tree, BundleError> {
        self.base_tree_trusting(manifest, listing, blobs, &mut HashSet::new())
    }

    /// [`Self::base_tree_on`] that hashes a carried blob only if its id is not in `verified`, and
    /// adds the ids it checks: a worker scoring many tasks of a repository hashes each blob once
    /// (in wasm, SHA-1 of the carried files was ~3% of a run). The caller drops an id from
    /// `verified` whenever it replaces that blob's bytes.
    pub fn base_tree_trusting(
        &self,
        manifest: &Manifest,
        listing: impl FnOnce(&Manifest) -> Result<Tree, BundleError>,
        blobs: &BTreeMap<String, Arc<[u8]>>,
        verified: &mut HashSet<String>,
    ) -> Result<Tree, BundleError> {
        if manifest.repo != self.repo {
            return Err(BundleError::RepoMismatch {
                task: self.id.clone(),
                task_repo: self.repo.clone(),
                manifest_repo: manifest.repo.clone(),
            });
        }
        let mut tree = listing(manifest)?;
        for need in &self.files {
            if manifest.files.get(&need.path) != Some(&need.blob) {
                return Err(BundleError::NotInManifest {
                    task: self.id.clone(),
                    path: need.path.to_string(),
                    blob: need.blob.clone(),
                });
            }
            let bytes = blobs
                .get(&need.blob)
                .ok_or_else(|| BundleError::MissingBlob { blob: need.blob.clone() })?;
            verify_blob_once(verified, &need.blob, bytes)
                .map_err(|actual| BundleError::CorruptBlob { blob: need.blob.clone(), actual })?;
            let entry = FileEntry {
                mode: manifest.mode(&need.path)?,
                content: Content::Bytes(bytes.clone()),
            };
            tree.insert(need.path.clone(), entry);
        }
        Ok(tree)
    }
}

impl Manifest {
    /// Every listed path as a tree of blob ids (symbolic links with their checked targets): the
    /// part of a base tree every task of the repository shares.
    pub fn listing(&self) -> Result<Tree, BundleError> {
        // `modes` and `links` are sorted like `files`: walked alongside it (no lookup per path),
        // and the listing built in one go from sorted entries (no search per insert).
        let (mut modes, mut links) = (self.modes.iter().peekable(), self.links.iter().peekable());
        let mut listing = Vec::with_capacity(self.files.len());
        for (path, blob) in &self.files {
            let mode = match entry_at(&mut modes, path) {
                None => FileMode::Regular,
                Some(m) => FileMode::from_git(m).ok_or_else(|| BundleError::BadMode {
                    repo: self.repo.clone(),
                    path: path.to_string(),
                    mode: m.clone(),
                })?,
            };
            let content = match entry_at(&mut links, path) {
                Some(target) if mode == FileMode::Symlink => {
                    let actual = git_blob_id(target.as_bytes());
                    if actual != *blob {
                        return Err(BundleError::CorruptLink {
                            repo: self.repo.clone(),
                            path: path.to_string(),
                            blob: blob.clone(),
                            actual,
                        });
                    }
                    Content::Bytes(Arc::from(target.as_bytes()))
                }
                _ => Content::BlobOnly(Arc::from(blob.as_str())),
            };
            listing.push((path.clone(), FileEntry { mode, content }));
        }
        Ok(Tree::from_sorted(listing))
    }
}

/// The value `sorted` (a map's entries in key order, walked alongside ascending `path`s) holds
/// for `path`, passing the entries of smaller keys.
fn entry_at<'m, V>(
    sorted: &mut std::iter::Peekable<std::collections::btree_map::Iter<'m, RepoPath, V>>,
    path: &RepoPath,
) -> Option<&'m V> {
    while sorted.next_if(|(k, _)| *k < path).is_some() {}
    sorted.next_if(|(k, _)| *k == path).map(|(_, v)| v)
}

/// Checks that `bytes` hash to blob `id`, unless `verified` already holds `id`; adds it when
/// they do. `Err` carries the id they hash to. What "checked once" means for every holder of
/// blobs ([`TaskData::base_tree_trusting`], the scoring worker's idle hashing).
pub fn verify_blob_once(
    verified: &mut HashSet<String>,
    id: &str,
    bytes: &[u8],
) -> Result<(), String> {
    if verified.contains(id) {
        return Ok(());
    }
    let actual = git_blob_id(bytes);
    if actual != id {
        return Err(actual);
    }
    verified.insert(actual);
    Ok(())
}

/// Bundle-relative name of a blob's file. The `.txt` extension is deliberate: static hosts compress
/// `text/plain` responses (not `application/octet-stream`) and never answer a missing `.txt` with
/// a single-page-app fallback page; the bytes are fetched raw and checked against the blob id.
pub fn blob_file(blob: &str) -> String {
    format!("blobs/{blob}.txt")
}

/// Lowercase hex sha256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The canonical bytes of a bundle JSON file: compact serde_json (struct fields in declaration
/// order, maps sorted) plus a final newline. The same value always gives the same bytes.
pub fn canonical_json<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising these plain data types into a Vec cannot fail; fall back to an empty object
    // rather than panic.
    let mut out = serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec());
    out.push(b'\n');
    out
}

/// A content-addressed name: `<dir>/<stem>.<first 16 hex of sha256(bytes)>.<ext>`.
pub fn addressed_name(dir: &str, stem: &str, bytes: &[u8], ext: &str) -> String {
    let h = sha256_hex(bytes);
    format!("{dir}/{stem}.{}.{ext}", &h[..16])
}

/// The bundle hash: sha256 over `<path>\0<sha256 of bytes>\n` for every file of the bundle, in
/// byte-wise path order, where `index.json` is taken with an empty `bundle_hash` (see
/// [`BundleIndex::hash_input`]). Independent of the order files were written in; any change to any
/// file, the task rows included, changes it.
pub fn bundle_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut lines: Vec<(String, String)> =
        files.into_iter().map(|(p, b)| (p.to_string(), sha256_hex(b))).collect();
    lines.sort();
    let mut h = Sha256::new();
    for (p, d) in &lines {
        h.update(p.as_bytes());
        h.update([0]);
        h.update(d.as_bytes());
        h.update(b"\n");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Task ids become file names and URL segments: letters, digits, `.`, `-`, `_`, not starting with `.`.
pub fn is_valid_task_id(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('.')
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A newer importer's reason must not make the file unreadable (an error fails the test).
    #[test]
    fn an_unknown_need_reason_reads_as_other() -> Result<(), serde_json::Error> {
        let f: NeededFile = serde_json::from_str(
            r#"{"path": "a.py", "blob": "00", "size": 1, "why": ["test", "a_future_reason"]}"#,
        )?;
        assert_eq!(f.why, [NeedReason::Test, NeedReason::Other]);
        Ok(())
    }

    #[test]
    fn reads_an_empty_index_and_refuses_unknown_versions() {
        let ok = BundleIndex::from_json(r#"{"schema_version":1,"bundle_hash":"x","tasks":[]}"#);
        assert_eq!(ok.map(|i| i.tasks.len()), Ok(0));
        let future =
            BundleIndex::from_json(r#"{"schema_version":99,"bundle_hash":"x","tasks":[]}"#);
        assert!(matches!(future, Err(BundleError::SchemaVersion { found: 99, .. })));
        let broken = BundleIndex::from_json("{");
        assert!(matches!(broken, Err(BundleError::Json { .. })));
    }

    #[test]
    fn bundle_hash_ignores_order() {
        let a = bundle_hash([("b", &b"2"[..]), ("a", &b"1"[..])]);
        let b = bundle_hash([("a", &b"1"[..]), ("b", &b"2"[..])]);
        assert_eq!(a, b);
        assert_ne!(a, bundle_hash([("a", &b"1"[..]), ("b", &b"3"[..])]));
        assert_eq!(a.len(), 64);
    }

    #[test]
    fn packs_split_into_checked_blobs() {
        let (a, b) = (b"one\n".to_vec(), b"two\r\n".to_vec());
        let (ia, ib) = (git_blob_id(&a), git_blob_id(&b));
        let mut bytes = a.clone();
        bytes.extend_from_slice(&b);
        let pack = Pack {
            file: "packs/r.0.txt".into(),
            blobs: BTreeMap::from([(ia.clone(), [0, 4]), (ib.clone(), [4, 5])]),
        };
        let blobs = pack.split(&bytes).unwrap();
        assert_eq!(blobs[&ia].as_ref(), a.as_slice());
        assert_eq!(blobs[&ib].as_ref(), b.as_slice());
        assert!(matches!(pack.split(&bytes[..8]), Err(BundleError::PackRange { .. })));
        let swapped =
            Pack { file: pack.file.clone(), blobs: BTreeMap::from([(ia.clone(), [4, 5])]) };
        assert!(matches!(swapped.split(&bytes), Err(BundleError::CorruptBlob { .. })));
        assert_eq!(swapped.split_unhashed(&bytes).unwrap()[&ia].as_ref(), b.as_slice());
        let huge = Pack { file: pack.file, blobs: BTreeMap::from([(ib, [u64::MAX, 2])]) };
        assert!(matches!(huge.split(&bytes), Err(BundleError::PackRange { .. })));
        assert!(matches!(huge.split_unhashed(&bytes), Err(BundleError::PackRange { .. })));
    }

    #[test]
    fn task_ids_are_safe_file_names() {
        assert!(is_valid_task_id("debughelpers-to-helpers.py"));
        assert!(!is_valid_task_id("../x"));
        assert!(!is_valid_task_id("a/b"));
        assert!(!is_valid_task_id(""));
    }

    fn path(p: &str) -> RepoPath {
        RepoPath::new(p).unwrap()
    }

    #[test]
    fn a_manifest_head_is_the_manifest_without_its_files() {
        let pack = Pack {
            file: "packs/demo.0123456789abcdef.txt".into(),
            blobs: BTreeMap::from([("b".repeat(40), [0, 5])]),
        };
        let manifest = Manifest {
            schema_version: BUNDLE_SCHEMA_VERSION,
            repo: "demo".into(),
            files: [(RepoPath::new("a/b.py").unwrap(), "b".repeat(40))].into_iter().collect(),
            modes: BTreeMap::new(),
            links: BTreeMap::new(),
            pack: Some(pack.clone()),
        };
        let text = serde_json::to_string(&manifest).unwrap();
        let head = ManifestHead::from_json(&text, "repos/demo.json").unwrap();
        assert_eq!((head.repo.as_str(), head.pack), ("demo", Some(pack)));
        let newer = text.replacen("\"schema_version\":1", "\"schema_version\":9", 1);
        assert!(matches!(
            ManifestHead::from_json(&newer, "repos/demo.json"),
            Err(BundleError::SchemaVersion { found: 9, .. })
        ));
    }

    #[test]
    fn base_tree_carries_checked_bytes_and_blob_ids() {
        let carried: Arc<[u8]> = Arc::from(&b"x = 1\n"[..]);
        let carried_id = git_blob_id(&carried);
        let manifest = Manifest {
            schema_version: 1,
            repo: "r".into(),
            files: BTreeMap::from([
                (path("a.py"), carried_id.clone()),
                (path("bin/run"), git_blob_id(b"#!/bin/sh\n")),
            ]),
            modes: BTreeMap::from([(path("bin/run"), "100755".to_string())]),
            links: BTreeMap::new(),
            pack: None,
        };
        let task = TaskData {
            schema_version: 1,
            id: "t".into(),
            repo: "r".into(),
            instructions: Instructions {
                lazy: String::new(),
                base: String::new(),
                descriptive: String::new(),
            },
            test: TestFile {
                name: "t.py".into(),
                path: "tests/r/t.py".into(),
                source: String::new(),
            },
            methods: vec![],
            inspected: vec![],
            files: vec![NeededFile {
                path: path("a.py"),
                blob: carried_id.clone(),
                size: 6,
                why: vec![NeedReason::Test],
            }],
            combined: None,
        };
        let blobs = BTreeMap::from([(carried_id.clone(), carried.clone())]);
        let tree = task.base_tree(&manifest, &blobs).unwrap();
        assert_eq!(tree.len(), 2);
        assert_eq!(tree.get(&path("a.py")).and_then(|e| e.bytes()), Some(&carried));
        let run = tree.get(&path("bin/run")).unwrap();
        assert_eq!(run.mode, FileMode::Executable);
        assert!(run.bytes().is_none());

        let corrupt = BTreeMap::from([(carried_id.clone(), Arc::from(&b"x = 2\n"[..]))]);
        assert!(matches!(
            task.base_tree(&manifest, &corrupt),
            Err(BundleError::CorruptBlob { .. })
        ));
        assert!(matches!(
            task.base_tree(&manifest, &BTreeMap::new()),
            Err(BundleError::MissingBlob { .. })
        ));

        // A link's target comes from the manifest, checked against its blob id; a link the
        // manifest gives no target for keeps only its blob id.
        let mut linked = manifest.clone();
        linked.files.insert(path("cur"), git_blob_id(b"a.py"));
        linked.files.insert(path("old"), git_blob_id(b"gone.py"));
        linked.modes.insert(path("cur"), "120000".into());
        linked.modes.insert(path("old"), "120000".into());
        linked.links.insert(path("cur"), "a.py".into());
        let tree = task.base_tree(&linked, &blobs).unwrap();
        let cur = tree.get(&path("cur")).unwrap();
        assert_eq!(
            (cur.mode, cur.bytes().map(|b| &b[..])),
            (FileMode::Symlink, Some(&b"a.py"[..]))
        );
        assert!(tree.get(&path("old")).unwrap().bytes().is_none());
        linked.links.insert(path("cur"), "b.py".into());
        assert!(matches!(task.base_tree(&linked, &blobs), Err(BundleError::CorruptLink { .. })));
        // A manifest without links serialises as before (bundles without symlinks keep their hash).
        assert!(!String::from_utf8(canonical_json(&manifest)).unwrap().contains("links"));

        // Modes and links are walked alongside the files: entries for unlisted paths (before,
        // between and after listed ones) are passed over, a listed path's are found.
        linked.links.insert(path("cur"), "a.py".into());
        let mut walked = linked.clone();
        for extra in ["0", "b", "zz"] {
            walked.modes.insert(path(extra), "100755".into());
            walked.links.insert(path(extra), "x".into());
        }
        let tree = task.base_tree(&walked, &blobs).unwrap();
        assert_eq!(tree, task.base_tree(&linked, &blobs).unwrap());
        assert_eq!(tree.len(), 4);
        assert_eq!(tree.get(&path("bin/run")).unwrap().mode, FileMode::Executable);
        assert!(tree.get(&path("b")).is_none());
        // A shared listing gives the same tree as building it.
        let listing = walked.listing().unwrap();
        assert_eq!(task.base_tree_on(&walked, |_| Ok(listing.clone()), &blobs).unwrap(), tree);
        walked.modes.insert(path("bin/run"), "100600".into());
        assert!(matches!(task.base_tree(&walked, &blobs), Err(BundleError::BadMode { .. })));
    }
}
