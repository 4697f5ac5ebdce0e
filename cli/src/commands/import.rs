//! `refscore import --from CHECKOUT --out DIR`: builds a task bundle (format: `tasks/README.md`)
//! from an official-layout checkout. Deterministic: the same checkout gives the same bytes.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use scorer::bundle::{
    addressed_name, blob_file, bundle_hash, canonical_json, paths, BundleIndex, InspectedPath,
    Instructions, Manifest, NeedReason, NeededFile, Pack, RepoSummary, TaskData, TaskSummary,
    TestFile, BUNDLE_SCHEMA_VERSION,
};
use scorer::tree::{Content, FileEntry, FileMode, RepoPath, Tree};
use scorer::unittest::{FileAccess, Scorer};

use crate::checkout::{self, RepoFile, TaskRef};

use super::{Done, Outcome};

/// What an import wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    pub bundle_hash: String,
    pub tasks: usize,
    pub repos: usize,
    /// Files listed in the manifests (all repository files).
    pub manifest_files: usize,
    /// Distinct blobs carried, and their bytes.
    pub blobs: usize,
    pub blob_bytes: u64,
    /// Files written (index, task files, manifests, blobs), their bytes and gzip bytes.
    pub files_written: usize,
    pub bytes: u64,
    pub gzip_bytes: u64,
    /// The task whose data file plus blobs weigh most: id, bytes, gzip bytes.
    pub largest_task: (String, u64, u64),
    /// The instrumented runs of the tests on the base trees: (task, file) pairs they read, and
    /// how many of those pairs only the run found (the static rules missed them).
    pub run_reads: usize,
    pub run_only: usize,
    /// Tasks whose run read a file the static rules missed, and so ran again on the whole
    /// repository.
    pub full_tree_runs: usize,
}

/// Imports `from` into `out`.
pub(crate) fn run(from: &Path, out: &Path) -> Result<Summary> {
    crate::atomic::check_dir_target("--out", out)?;
    // The tests run on a thread with the scoring threads' known stack, which the interpreter's
    // stack budget ([`crate::run::run_config`]) assumes; the main thread's size is the
    // platform's.
    let result = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("refscore-import".into())
            .stack_size(crate::run::THREAD_STACK)
            .spawn_scoped(s, || build(from))
            .map_err(|e| anyhow::anyhow!("cannot start the import thread: {e}"))
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })?;
    let files = result?;
    write_out(out, &files.files)?;
    Ok(files.summary)
}

/// Everything the bundle consists of, in memory (file name → bytes), plus its summary.
struct Built {
    files: BTreeMap<String, Vec<u8>>,
    summary: Summary,
}

/// A progress bar for one stage, on stderr (hidden when stderr is not a terminal). Each stage gets
/// a fresh bar so that no frame shows one stage's name with another's counts.
fn stage(name: &str, len: usize) -> ProgressBar {
    let style = ProgressStyle::with_template("{prefix:>9} [{bar:30}] {pos}/{len} {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    ProgressBar::new(len as u64).with_style(style).with_prefix(name.to_string())
}

fn build(from: &Path) -> Result<Built> {
    let tasks = checkout::read_tasks(from)?;
    let repo_names: BTreeSet<&str> = tasks.iter().map(|t| t.repo.as_str()).collect();

    // 1. Every file of every repository: path, mode, blob id.
    let bar = stage("listing", repo_names.len());
    let mut listed = Vec::new();
    for repo in &repo_names {
        bar.set_message(repo.to_string());
        let root = from.join("repositories").join(repo);
        listed.push((*repo, checkout::list_files(&root, repo)?));
        bar.inc(1);
    }
    let total: usize = listed.iter().map(|(_, f)| f.len()).sum();
    bar.finish_and_clear();
    let bar = stage("hashing", total);
    let mut repos: BTreeMap<&str, BTreeMap<RepoPath, RepoFile>> = BTreeMap::new();
    for (repo, files) in listed {
        bar.set_message(repo.to_string());
        let mut map = BTreeMap::new();
        for (path, abs) in files {
            let rel = format!("repositories/{repo}/{path}");
            map.insert(path, checkout::hash_file(&abs, &rel)?);
            bar.inc(1);
        }
        repos.insert(repo, map);
    }

    let mut out: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut blob_sizes: BTreeMap<String, u64> = BTreeMap::new();

    // 2. Tasks and the blobs they need.
    bar.finish_and_clear();
    let bar = stage("tasks", tasks.len());
    let mut rows = Vec::new();
    let mut task_weights: Vec<(String, Vec<String>)> = Vec::new();
    let mut repo_blobs: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut runner = Runner::new();
    for task in &tasks {
        bar.set_message(task.id.clone());
        let files = repos
            .get(task.repo.as_str())
            .with_context(|| format!("task {}: repository {} was not read", task.id, task.repo))?;
        let (data, needed) = task_data(from, task, files, &mut runner)?;
        let bytes = canonical_json(&data);
        let name = addressed_name("tasks", &task.id, &bytes, "json");
        let mut blob_names = Vec::new();
        let mut blob_total = 0;
        for need in &data.files {
            blob_total += need.size;
            blob_names.push(blob_file(&need.blob));
        }
        let in_repo = repo_blobs.entry(files_repo(&repos, &task.repo)).or_default();
        for (blob, file, rel) in needed {
            in_repo.insert(blob.clone());
            if let std::collections::btree_map::Entry::Vacant(slot) = out.entry(blob_file(&blob)) {
                let bytes = runner.bytes(file, &rel)?.to_vec();
                blob_sizes.insert(blob.clone(), bytes.len() as u64);
                slot.insert(bytes);
            }
        }
        rows.push(TaskSummary {
            id: task.id.clone(),
            repo: task.repo.clone(),
            tests: task.test_name.clone(),
            methods: u32::try_from(data.methods.len()).unwrap_or(u32::MAX),
            data: name.clone(),
            lazy: data.instructions.lazy.clone(),
            blobs: u32::try_from(data.files.len()).unwrap_or(u32::MAX),
            blob_bytes: blob_total,
        });
        blob_names.push(name.clone());
        task_weights.push((task.id.clone(), blob_names));
        out.insert(name, bytes);
        bar.inc(1);
    }

    // 3. Per repository: the pack of its tasks' blobs, and the manifest naming it.
    let mut repo_rows = Vec::new();
    let mut manifest_files = 0;
    for (repo, files) in &repos {
        let mut pack_bytes = Vec::new();
        let mut entries = BTreeMap::new();
        for blob in repo_blobs.get(repo).into_iter().flatten() {
            let data =
                out.get(&blob_file(blob)).with_context(|| format!("blob {blob} was not read"))?;
            entries.insert(blob.clone(), [pack_bytes.len() as u64, data.len() as u64]);
            pack_bytes.extend_from_slice(data);
        }
        let pack = if entries.is_empty() {
            None
        } else {
            let file = addressed_name("packs", repo, &pack_bytes, "txt");
            out.insert(file.clone(), pack_bytes);
            Some(Pack { file, blobs: entries })
        };
        let manifest = Manifest {
            schema_version: BUNDLE_SCHEMA_VERSION,
            repo: repo.to_string(),
            files: files.iter().map(|(p, f)| (p.clone(), f.blob.clone())).collect(),
            modes: files
                .iter()
                .filter(|(_, f)| f.mode != FileMode::Regular)
                .map(|(p, f)| (p.clone(), f.mode.as_git().to_string()))
                .collect(),
            links: links(&mut runner, repo, files)?,
            pack,
        };
        let bytes = canonical_json(&manifest);
        let name = addressed_name("repos", repo, &bytes, "json");
        manifest_files += files.len();
        repo_rows.push(RepoSummary {
            name: repo.to_string(),
            manifest: name.clone(),
            files: u32::try_from(files.len()).unwrap_or(u32::MAX),
            attribution: checkout::attribution(repo, files)?,
        });
        out.insert(name, bytes);
    }

    // 4. The task pack: every task file, in index order (what a browser scoring many tasks
    // fetches in one request).
    let mut pack_bytes = Vec::new();
    let mut entries = BTreeMap::new();
    for row in &rows {
        let data = out.get(&row.data).with_context(|| format!("task file {} missing", row.data))?;
        entries.insert(row.data.clone(), [pack_bytes.len() as u64, data.len() as u64]);
        pack_bytes.extend_from_slice(data);
    }
    let task_pack = (!entries.is_empty()).then(|| {
        let file = addressed_name("tasks", "pack", &pack_bytes, "txt");
        out.insert(file.clone(), pack_bytes);
        Pack { file, blobs: entries }
    });

    // 5. The index; the hash covers every file, the index taken with an empty hash.
    let mut index = BundleIndex {
        schema_version: BUNDLE_SCHEMA_VERSION,
        bundle_hash: String::new(),
        tasks: rows,
        repos: repo_rows,
        task_pack,
    };
    let index_input = index.hash_input();
    let hash = bundle_hash(
        out.iter()
            .map(|(k, v)| (k.as_str(), v.as_slice()))
            .chain(std::iter::once(("index.json", index_input.as_slice()))),
    );
    index.bundle_hash = hash.clone();
    out.insert("index.json".to_string(), canonical_json(&index));

    bar.finish_and_clear();
    let bar = stage("gzip", out.len());
    let mut gz_sizes: BTreeMap<&str, u64> = BTreeMap::new();
    for (name, bytes) in &out {
        gz_sizes.insert(name, gzip_len(bytes)?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut largest = (String::new(), 0u64, 0u64);
    for (id, names) in &task_weights {
        let raw: u64 = names.iter().filter_map(|n| out.get(n)).map(|b| b.len() as u64).sum();
        let gz: u64 = names.iter().filter_map(|n| gz_sizes.get(n.as_str())).sum();
        if raw > largest.1 {
            largest = (id.clone(), raw, gz);
        }
    }
    let summary = Summary {
        bundle_hash: hash,
        tasks: tasks.len(),
        repos: repos.len(),
        manifest_files,
        blobs: blob_sizes.len(),
        blob_bytes: blob_sizes.values().sum(),
        files_written: out.len(),
        bytes: out.values().map(|b| b.len() as u64).sum(),
        gzip_bytes: gz_sizes.values().sum(),
        largest_task: largest,
        run_reads: runner.reads,
        run_only: runner.only,
        full_tree_runs: runner.full_tree_runs,
    };
    Ok(Built { files: out, summary })
}

/// Every symbolic link of a repository with its target, for the manifest.
fn links(
    runner: &mut Runner,
    repo: &str,
    files: &BTreeMap<RepoPath, RepoFile>,
) -> Result<BTreeMap<RepoPath, String>> {
    let mut out = BTreeMap::new();
    for (path, file) in files.iter().filter(|(_, f)| f.mode == FileMode::Symlink) {
        let rel = format!("repositories/{repo}/{path}");
        let target = runner.bytes(file, &rel)?;
        let target = std::str::from_utf8(&target)
            .with_context(|| format!("{rel}: symlink target is not UTF-8"))?;
        out.insert(path.clone(), target.to_string());
    }
    Ok(out)
}

/// The repository key of `repos` for a task's repository name.
fn files_repo<'r>(repos: &BTreeMap<&'r str, BTreeMap<RepoPath, RepoFile>>, repo: &str) -> &'r str {
    repos.get_key_value(repo).map_or("", |(k, _)| *k)
}

/// A needed blob: id, the repository file, and its checkout-relative name for errors.
type NeededBlob<'a> = (String, &'a RepoFile, String);

/// Runs each task's test on its base tree with file tracing on (the fifth rule of
/// `tasks/README.md`), and reads the bytes of carried files once.
struct Runner {
    /// One scorer per repository: its parse cache serves the tests of one repository, which
    /// parse the same files, and is dropped with it (holding every repository's parsed files
    /// took 185 MB on the official checkout).
    scorer: Scorer,
    repo: String,
    /// Bytes read so far, by blob id.
    content: BTreeMap<String, Arc<[u8]>>,
    reads: usize,
    only: usize,
    full_tree_runs: usize,
}

impl Runner {
    fn new() -> Self {
        Runner {
            // The normal limits: a test that loops forever ends at the step budget, and what it
            // read until then still counts.
            scorer: Scorer::new(crate::run::run_config()),
            repo: String::new(),
            content: BTreeMap::new(),
            reads: 0,
            only: 0,
            full_tree_runs: 0,
        }
    }

    /// The bytes git stores for a repository file (read from disk once per blob).
    fn bytes(&mut self, file: &RepoFile, rel: &str) -> Result<Arc<[u8]>> {
        if let Some(b) = self.content.get(&file.blob) {
            return Ok(b.clone());
        }
        let b: Arc<[u8]> = Arc::from(checkout::blob_bytes(&file.abs, file.mode, rel)?);
        self.content.insert(file.blob.clone(), b.clone());
        Ok(b)
    }

    /// What the test reads on the base tree. It runs first on a tree with every path but only
    /// the bytes of `carried` (cheap: nothing else is read from disk). If it reads a file outside
    /// them, that run stopped at it (the content is missing), so it runs again on the whole
    /// repository, every file with its bytes, exactly as on the checkout. Either way the answer is
    /// the run on the full tree: a run that read only carried files saw the same bytes.
    fn reads(
        &mut self,
        task: &TaskRef,
        source: &str,
        files: &BTreeMap<RepoPath, RepoFile>,
        carried: &BTreeSet<RepoPath>,
    ) -> Result<BTreeSet<RepoPath>> {
        if self.repo != task.repo {
            self.scorer = Scorer::new(crate::run::run_config());
            self.repo.clone_from(&task.repo);
        }
        let rel = |p: &RepoPath| format!("repositories/{}/{p}", task.repo);
        let mut tree = Tree::new();
        for (path, file) in files {
            // Link targets are always there: the manifest carries them.
            let content = if carried.contains(path) || file.mode == FileMode::Symlink {
                Content::Bytes(self.bytes(file, &rel(path))?)
            } else {
                Content::BlobOnly(std::sync::Arc::from(file.blob.as_str()))
            };
            tree.insert(path.clone(), FileEntry { mode: file.mode, content });
        }
        let (_, mut access) = self.scorer.run_test_file_traced(&tree, &task.test_name, source);
        if !read_within(&access, carried) {
            self.full_tree_runs += 1;
            let mut full = Tree::new();
            for (path, file) in files {
                let bytes = checkout::blob_bytes(&file.abs, file.mode, &rel(path))?;
                let content = Content::Bytes(Arc::from(bytes));
                full.insert(path.clone(), FileEntry { mode: file.mode, content });
            }
            access = self.scorer.run_test_file_traced(&full, &task.test_name, source).1;
        }
        let read: BTreeSet<RepoPath> = access
            .read
            .iter()
            .filter_map(|p| RepoPath::new(p).ok())
            .filter(|p| files.contains_key(p))
            .collect();
        self.reads += read.len();
        self.only += read.difference(carried).count();
        Ok(read)
    }
}

/// Whether every file a run read is among `carried`.
fn read_within(access: &FileAccess, carried: &BTreeSet<RepoPath>) -> bool {
    access.read.iter().all(|p| RepoPath::new(p).is_ok_and(|p| carried.contains(&p)))
}

/// Reads one task's instructions and test file and works out the files it needs.
fn task_data<'a>(
    from: &Path,
    task: &TaskRef,
    files: &'a BTreeMap<RepoPath, RepoFile>,
    runner: &mut Runner,
) -> Result<(TaskData, Vec<NeededBlob<'a>>)> {
    let [lazy, base, descriptive] =
        task.instructions.each_ref().map(|rel| checkout::read_text(&from.join(rel), rel));
    let instructions = Instructions { lazy: lazy?, base: base?, descriptive: descriptive? };
    let source = checkout::read_text(&from.join(&task.test_rel), &task.test_rel)?;
    let scan = paths::scan_test(&source, &task.test_name)
        .with_context(|| format!("{}: cannot parse the test file", task.test_rel))?;

    let exists = |p: &RepoPath| files.contains_key(p);
    let is_dir = |d: &str| {
        let prefix = format!("{d}/");
        files.keys().any(|p| p.as_str().starts_with(&prefix))
    };
    let (inspected, extra) = paths::test_paths(&scan.literals, &exists, &is_dir);

    let mut reasons: BTreeMap<RepoPath, BTreeSet<NeedReason>> = BTreeMap::new();
    for p in inspected.keys().chain(&extra) {
        if files.contains_key(p) {
            reasons.entry(p.clone()).or_default().insert(NeedReason::Test);
        }
    }
    for text in [&instructions.lazy, &instructions.base, &instructions.descriptive] {
        for p in paths::resolve_mentions(text, files.keys()) {
            reasons.entry(p).or_default().insert(NeedReason::Instructions);
        }
    }
    let carried: BTreeSet<RepoPath> = reasons.keys().cloned().collect();
    for p in runner.reads(task, &source, files, &carried)? {
        reasons.entry(p).or_default().insert(NeedReason::Run);
    }

    let mut needed_files = Vec::new();
    let mut needed = Vec::new();
    for (path, why) in reasons {
        let Some(file) = files.get(&path) else { continue };
        needed_files.push(NeededFile {
            path: path.clone(),
            blob: file.blob.clone(),
            size: file.size,
            why: why.into_iter().collect(),
        });
        needed.push((file.blob.clone(), file, format!("repositories/{}/{path}", task.repo)));
    }
    let data = TaskData {
        schema_version: BUNDLE_SCHEMA_VERSION,
        id: task.id.clone(),
        repo: task.repo.clone(),
        instructions,
        test: TestFile { name: task.test_name.clone(), path: task.test_rel.clone(), source },
        methods: scan.methods,
        inspected: inspected
            .into_iter()
            .map(|(path, lines)| InspectedPath {
                exists: files.contains_key(&path),
                path,
                lines: lines.into_iter().collect(),
            })
            .collect(),
        files: needed_files,
        combined: None,
    };
    Ok((data, needed))
}

fn gzip_len(bytes: &[u8]) -> Result<u64> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes)?;
    Ok(enc.finish()?.len() as u64)
}

/// Entries of an output folder that a bundle consists of (and that a new import replaces).
const BUNDLE_ENTRIES: [&str; 5] = ["index.json", "tasks", "repos", "blobs", "packs"];

/// Writes the bundle into `out` atomically (staged beside it, swapped in whole). An existing bundle
/// there is replaced; a non-empty folder that is not a bundle is refused, so an import never deletes
/// unrelated files; files the user keeps beside a bundle stay.
pub(crate) fn write_out(out: &Path, files: &BTreeMap<String, Vec<u8>>) -> Result<()> {
    crate::atomic::check_dir_target("--out", out)?;
    crate::atomic::write_dir(out, files, &BUNDLE_ENTRIES)
}

/// Runs the importer; the summary goes to stdout, progress and errors to stderr.
pub(crate) fn command(from: &std::path::Path, out: &std::path::Path) -> Outcome {
    let start = std::time::Instant::now();
    match run(from, out) {
        Ok(s) => {
            let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
            let (id, raw, gz) = &s.largest_task;
            let text = format!(
                "bundle {hash} written to {out}\n\
                 \x20 tasks        {tasks} in {repos} repositories\n\
                 \x20 manifests    {listed} files listed\n\
                 \x20 blobs        {blobs} files carried, {bb} bytes ({bm:.2} MiB)\n\
                 \x20 written      {n} files, {bytes} bytes ({m:.2} MiB), {gz_all} bytes gzip ({gm:.2} MiB)\n\
                 \x20 largest task {id}: {raw} bytes, {gz} bytes gzip (task file + blobs)\n\
                 \x20 test runs    {tasks} tests run on their base trees: {reads} (task, file) reads, \
                 {only} found only by the run ({full} tasks re-run on the whole repository)\n\
                 \x20 time         {secs:.2} s\n",
                hash = s.bundle_hash,
                out = out.display(),
                tasks = s.tasks,
                repos = s.repos,
                listed = s.manifest_files,
                blobs = s.blobs,
                bb = s.blob_bytes,
                bm = mib(s.blob_bytes),
                n = s.files_written,
                bytes = s.bytes,
                m = mib(s.bytes),
                gz_all = s.gzip_bytes,
                gm = mib(s.gzip_bytes),
                secs = start.elapsed().as_secs_f64(),
                reads = s.run_reads,
                only = s.run_only,
                full = s.full_tree_runs,
            );
            // A closed stdout (`| head`) is not an import failure.
            let _ = std::io::stdout().write_all(text.as_bytes());
            Ok(Done::All)
        }
        Err(e) => Err(e),
    }
}
