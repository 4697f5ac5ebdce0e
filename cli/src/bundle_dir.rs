//! Reading a bundle folder written by `refscore import`: the index (its hash checked against the
//! files), and per task its data, manifest and blobs turned into the base tree.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context, Result};
use scorer::bundle::{blob_file, bundle_hash, BundleIndex, Manifest, Pack, TaskData};
use scorer::stats::TaskMeta;
use scorer::tree::Tree;

/// An opened, hash-checked bundle folder.
pub struct BundleDir {
    pub dir: PathBuf,
    pub index: BundleIndex,
    /// Manifests read so far, by bundle-relative file name (shared by a repository's tasks).
    manifests: Mutex<BTreeMap<String, Arc<Manifest>>>,
    /// Each manifest's [`Manifest::listing`], built by the first task of its repository and
    /// cloned (copy on write) by the others.
    listings: Mutex<BTreeMap<String, Result<Tree, scorer::bundle::BundleError>>>,
    /// Blobs read and checked against their ids so far, by id: a file several tasks carry is
    /// read and hashed once (at most the bundle's `blobs/` folder is held).
    blobs: Mutex<BTreeMap<String, Arc<[u8]>>>,
}

/// One task ready to score.
pub struct LoadedTask {
    pub data: TaskData,
    pub base: Tree,
}

/// Folders a bundle consists of besides `index.json` (as the importer writes them).
const BUNDLE_DIRS: [&str; 4] = ["tasks", "repos", "blobs", "packs"];

/// The browser reads task files out of the task pack, the CLI reads them one by one: both must
/// read the same bytes, so every range of the pack must hold exactly the file it is keyed by.
fn check_task_pack(dir: &Path, pack: &Pack, files: &[(String, Vec<u8>)]) -> Result<()> {
    let file = |name: &str| files.iter().find(|(p, _)| p == name).map(|(_, b)| b.as_slice());
    let where_ = || format!("{}/{}", dir.display(), pack.file);
    let bytes = file(&pack.file).with_context(|| format!("{}: missing task pack", where_()))?;
    let parts = pack.split_unhashed(bytes).with_context(where_)?;
    for (name, part) in parts {
        if file(&name) != Some(&part[..]) {
            bail!("{}: its bytes for {name} are not that file's bytes", where_());
        }
    }
    Ok(())
}

impl BundleDir {
    /// Opens `dir`, checking that `index.json` parses and that the bundle hash it records is the
    /// hash of the files present, so a report never names a bundle it was not scored against.
    pub fn open(dir: &Path) -> Result<BundleDir> {
        if !dir.is_dir() {
            bail!(
                "--tasks {}: not a folder (expected a bundle written by `refscore import`)",
                dir.display()
            );
        }
        let index_path = dir.join("index.json");
        let text = String::from_utf8(crate::fsread::read_file(
            &index_path,
            crate::fsread::MAX_BUNDLE_FILE_BYTES,
        )?)
        .with_context(|| format!("{}: cannot read the bundle index", index_path.display()))?;
        let index = BundleIndex::from_json(&text)
            .with_context(|| format!("{}: not a bundle index", index_path.display()))?;
        let mut files: Vec<(String, Vec<u8>)> = Vec::new();
        let mut total = 0u64;
        for sub in BUNDLE_DIRS {
            let root = dir.join(sub);
            if fs::symlink_metadata(&root).is_ok_and(|m| m.is_dir()) {
                walk(&root, sub, &mut files, &mut total)?;
            } else if root.exists() {
                bail!(
                    "{}: is not a folder of the bundle (a link or a file); refused",
                    root.display()
                );
            }
        }
        let index_input = index.hash_input();
        let actual = bundle_hash(
            files
                .iter()
                .map(|(p, b)| (p.as_str(), b.as_slice()))
                .chain(std::iter::once(("index.json", index_input.as_slice()))),
        );
        if actual != index.bundle_hash {
            bail!(
                "{}: bundle hash mismatch: index.json records {}, the files hash to {actual} (a file was changed, added or removed; re-run `refscore import`)",
                dir.display(),
                index.bundle_hash
            );
        }
        if let Some(pack) = &index.task_pack {
            check_task_pack(dir, pack, &files)?;
        }
        Ok(BundleDir {
            dir: dir.to_path_buf(),
            index,
            manifests: Mutex::new(BTreeMap::new()),
            listings: Mutex::new(BTreeMap::new()),
            blobs: Mutex::new(BTreeMap::new()),
        })
    }

    pub fn hash(&self) -> &str {
        &self.index.bundle_hash
    }

    pub fn has_task(&self, id: &str) -> bool {
        self.index.tasks.iter().any(|t| t.id == id)
    }

    /// A file the index names, refused unless it lies inside the bundle folder.
    pub fn read(&self, rel: &str) -> Result<Vec<u8>> {
        let p = crate::fsread::inside(&self.dir, rel)?;
        crate::fsread::read_file(&p, crate::fsread::MAX_BUNDLE_FILE_BYTES)
            .with_context(|| format!("{}: cannot read bundle file", p.display()))
    }

    /// The task's data alone (no tree).
    pub fn task_data(&self, id: &str) -> Result<TaskData> {
        let row = self
            .index
            .tasks
            .iter()
            .find(|t| t.id == id)
            .with_context(|| format!("{}: no task {id:?}", self.dir.display()))?;
        let bytes = self.read(&row.data)?;
        let text = String::from_utf8(bytes)
            .with_context(|| format!("{}/{}: not UTF-8", self.dir.display(), row.data))?;
        TaskData::from_json(&text, &row.data)
            .with_context(|| format!("{}/{}", self.dir.display(), row.data))
    }

    fn manifest(&self, repo: &str) -> Result<Arc<Manifest>> {
        let row = self.index.repos.iter().find(|r| r.name == repo).with_context(|| {
            format!("{}/index.json: no repository {repo:?}", self.dir.display())
        })?;
        if let Some(m) = self.manifests.lock().ok().and_then(|m| m.get(&row.manifest).cloned()) {
            return Ok(m);
        }
        let text = String::from_utf8(self.read(&row.manifest)?)
            .with_context(|| format!("{}/{}: not UTF-8", self.dir.display(), row.manifest))?;
        let m = Arc::new(
            Manifest::from_json(&text, &row.manifest)
                .with_context(|| format!("{}/{}", self.dir.display(), row.manifest))?,
        );
        if let Ok(mut cache) = self.manifests.lock() {
            cache.insert(row.manifest.clone(), m.clone());
        }
        Ok(m)
    }

    /// The task's data and base tree (blobs checked against their ids).
    pub fn load_task(&self, id: &str) -> Result<LoadedTask> {
        self.load_data(self.task_data(id)?)
    }

    /// `data`'s base tree from this bundle's manifest and blobs (also for a task built here, such
    /// as a combined task of this bundle's tasks).
    pub fn load_data(&self, data: TaskData) -> Result<LoadedTask> {
        let id = data.id.clone();
        let manifest = self.manifest(&data.repo)?;
        let mut blobs = BTreeMap::new();
        // Ids whose bytes in `blobs` were checked (by an earlier task: the cached bytes).
        let mut verified = HashSet::new();
        for need in &data.files {
            let known = self.blobs.lock().ok().and_then(|c| c.get(&need.blob).cloned());
            let bytes = match known {
                Some(b) => {
                    verified.insert(need.blob.clone());
                    b
                }
                None => Arc::from(self.read(&blob_file(&need.blob))?),
            };
            blobs.insert(need.blob.clone(), bytes);
        }
        let listing = |m: &Manifest| {
            let Ok(mut cache) = self.listings.lock() else { return m.listing() };
            cache.entry(data.repo.clone()).or_insert_with(|| m.listing()).clone()
        };
        let base = data
            .base_tree_trusting(&manifest, listing, &blobs, &mut verified)
            .with_context(|| format!("{}: task {id}", self.dir.display()))?;
        if let Ok(mut cache) = self.blobs.lock() {
            for (blob, bytes) in blobs {
                if verified.contains(&blob) {
                    cache.entry(blob).or_insert(bytes);
                }
            }
        }
        Ok(LoadedTask { data, base })
    }

    /// The manifest of `repo` (for writers that copy it).
    pub fn manifest_of(&self, repo: &str) -> Result<Arc<Manifest>> {
        self.manifest(repo)
    }

    /// Repository, breadth and method count of every task, for run summaries.
    pub fn task_meta(&self) -> Result<Vec<TaskMeta>> {
        self.index.tasks.iter().map(|t| Ok(TaskMeta::from_task(&self.task_data(&t.id)?))).collect()
    }
}

/// Whether the file `name` in `dir` is named `X.gz` or `X.br` beside a regular file `X` (not a
/// link).
fn is_compressed_sibling(dir: &Path, name: &str) -> bool {
    let Some(base) = name.strip_suffix(".gz").or_else(|| name.strip_suffix(".br")) else {
        return false;
    };
    !base.is_empty() && fs::symlink_metadata(dir.join(base)).is_ok_and(|m| m.is_file())
}

/// Every file below `dir` as (`prefix/relative path`, bytes). A bundle as the importer writes it
/// holds only folders and regular files: links (which could lead out of the bundle or loop), FIFOs,
/// sockets and devices are refused by type before anything is opened, and sizes are checked before
/// reading ([`crate::fsread::MAX_BUNDLE_FILE_BYTES`] a file, [`crate::fsread::MAX_BUNDLE_BYTES`] in all).
/// A bundle the site serves also holds `X.gz` and `X.br` beside its files
/// (`scripts/compress-static.mjs`): such a sibling of a regular file `X` is not a bundle file (it is
/// never read), so a deployed bundle folder loads as imported.
fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>, total: &mut u64) -> Result<()> {
    let entries = fs::read_dir(dir).with_context(|| format!("{}: cannot list", dir.display()))?;
    for e in entries {
        let e = e.with_context(|| format!("{}: cannot list", dir.display()))?;
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        let t = e.file_type().with_context(|| format!("{}: cannot read", path.display()))?;
        if t.is_file() && is_compressed_sibling(dir, &name) {
            continue;
        }
        let rel = format!("{prefix}/{name}");
        if t.is_dir() {
            walk(&path, &rel, out, total)?;
        } else if t.is_file() {
            let len = e.metadata().map(|m| m.len()).unwrap_or(0);
            *total = total.saturating_add(len);
            if *total > crate::fsread::MAX_BUNDLE_BYTES {
                bail!(
                    "{}: the bundle is over {} MiB; refused",
                    dir.display(),
                    crate::fsread::MAX_BUNDLE_BYTES >> 20
                );
            }
            let bytes = crate::fsread::read_file(&path, crate::fsread::MAX_BUNDLE_FILE_BYTES)?;
            out.push((rel, bytes));
        } else {
            bail!(
                "{}: a bundle holds only folders and regular files, this is not one; refused",
                path.display()
            );
        }
    }
    Ok(())
}
