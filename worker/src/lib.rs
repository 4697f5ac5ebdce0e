//! The scoring Web Worker: its message protocol and the state it keeps between messages.
//!
//! The UI thread talks to the worker only through [`ToWorker`] and [`FromWorker`] (the app's
//! `bridge` module is the UI side; it depends on this lib for these types, so the protocol is
//! written once), so a long scoring run never blocks a click. Each message is
//! a JS object `{h: <JSON of the enum>, b?: Uint8Array}`: the JSON header is small, and bytes
//! (packs, blobs, uploaded files) travel as a structured-cloned byte array, never as JSON numbers.
//!
//! Bundle files are sent once per worker instance and cached here under their content-addressed
//! names, so scoring a submission sends only the submission and the names of its task's files.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use scorer::bundle::{Manifest, Pack, TaskData};
use scorer::codec::Codecs;
use scorer::combine::CombinedResult;
use scorer::report::TaskResult;
use scorer::submission::{Parsed, Submission};
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};
use serde::{Deserialize, Serialize};

/// What the UI asks of the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ToWorker {
    /// Answered with [`FromWorker::Ready`]; the bridge holds other messages until then.
    Hello,
    /// A task file (`tasks/<id>.<h16>.json`), cached under `key`.
    Task { key: String, json: String },
    /// A repository manifest (`repos/<repo>.<h16>.json`, the message's bytes: half a megabyte
    /// of JSON for a large repository, so not escaped into the header), cached under `key`.
    Manifest { key: String },
    /// Blobs: the message's bytes hold them at the pack's ranges (a repository pack, or one blob).
    Blobs { pack: Pack },
    /// Score one submission against a task whose files were sent before.
    Score {
        job: u64,
        task: String,
        manifest: String,
        submission: Submission,
        /// Test hook: abort the worker's wasm (a trap) instead of scoring, to prove the UI
        /// restarts it. Set only when the page URL asks for it (`?test-trap=<instance id>`).
        #[serde(default)]
        trap: bool,
    },
    /// Read the submissions in one uploaded file (its bytes are the message's bytes).
    Parse { job: u64, name: String },
    /// Join tasks of one repository (sent before, in this order) into a combined task
    /// (`scorer::combine`) and score one patch (the message's bytes) against it.
    Combine { job: u64, tasks: Vec<String>, manifest: String },
    /// Run one round of the built-in warm-up job ([`warmup`]); answered with `WarmedUp`. The UI
    /// sends the next round only when the worker has nothing else to do.
    WarmUp { job: u64 },
    /// Load the site data a run may need that this worker lacks, the names table and the
    /// interned words (the service worker precaches both; not `codecs.wasm`, 550 KB and rarely
    /// needed), so that a run never stops to load them and start again with an empty parse
    /// cache. Idle work, like `WarmUp`; answered with `SiteDataLoaded`.
    LoadSiteData { job: u64 },
    /// Hash some of the carried blobs this worker holds and has not checked yet (at most
    /// [`VERIFY_SLICE`] bytes), so that a run finds them checked: idle work, like `WarmUp`,
    /// answered with `BlobsVerified`. A blob whose bytes do not hash to its id is passed over
    /// here and reported by the task that uses it.
    VerifyBlobs { job: u64 },
}

/// Bytes of blobs one `VerifyBlobs` job hashes: about 5 ms of SHA-1 in wasm, so a run's first
/// job waits little behind it.
pub const VERIFY_SLICE: usize = 1 << 20;

/// What the worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum FromWorker {
    Ready {
        scorer_version: String,
    },
    /// A verdict (a patch git refuses, even one it cannot parse, is a `failed` result).
    Scored {
        job: u64,
        result: TaskResult,
    },
    Parsed {
        job: u64,
        parsed: Parsed,
    },
    /// A verdict per constituent task and for the whole.
    Combined {
        job: u64,
        result: CombinedResult,
    },
    /// A warm-up round ran.
    WarmedUp {
        job: u64,
    },
    /// The names table and the interned words are installed (or could not be had: a run that
    /// needs one loads it then, and fails naming the file if it still cannot).
    SiteDataLoaded {
        job: u64,
    },
    /// A slice of the held blobs was hashed; `more` when some are left unchecked.
    BlobsVerified {
        job: u64,
        more: bool,
    },
    /// The job could not run (missing or corrupt bundle data, a malformed message).
    Failed {
        job: Option<u64>,
        message: String,
    },
}

impl FromWorker {
    /// The job this answers, if any.
    pub fn job(&self) -> Option<u64> {
        match self {
            FromWorker::Ready { .. } => None,
            FromWorker::Scored { job, .. }
            | FromWorker::Parsed { job, .. }
            | FromWorker::Combined { job, .. }
            | FromWorker::WarmedUp { job }
            | FromWorker::SiteDataLoaded { job }
            | FromWorker::BlobsVerified { job, .. } => Some(*job),
            FromWorker::Failed { job, .. } => *job,
        }
    }
}

/// The worker's state: one scorer (its parse cache serves every submission of the session) and
/// the bundle files the UI sent.
pub struct WorkerCore {
    scorer: Scorer,
    tasks: HashMap<String, Rc<TaskData>>,
    manifests: HashMap<String, Rc<Manifest>>,
    blobs: BTreeMap<String, Arc<[u8]>>,
    /// Each manifest's listing (the part of a base tree its repository's tasks share), built once.
    listings: HashMap<String, Tree>,
    /// Blob ids whose bytes this worker has hashed and found right (hashed once, not per task).
    verified: HashSet<String>,
    /// Where the idle hashing (`ToWorker::VerifyBlobs`) goes on in `blobs` (ids in order):
    /// past every id below it; back to the start when new bytes arrive.
    verify_from: Option<String>,
    /// The base tree of the last task scored: submissions are scored grouped by task, and a
    /// tree of a large repository costs more to build than a small patch costs to apply.
    last_tree: Option<(String, String, Tree)>,
    /// Fetches a site file ([`SiteData`]) the first time a job needs it.
    fetch: SiteLoader,
    /// Makes the codec provider of `codecs.wasm`'s bytes.
    instantiate_codecs: CodecsInstantiate,
    /// The codec provider, once `codecs.wasm` is loaded; every scorer made after gets it.
    codecs: Option<Rc<dyn Codecs>>,
}

/// Gives the bytes of a site file, named relative to the site's root ([`SiteData::file`]), or
/// why not.
pub type SiteLoader = Box<dyn FnMut(&str) -> Result<Vec<u8>, String>>;

/// Makes the codec provider of `codecs.wasm`'s bytes, or says why not.
pub type CodecsInstantiate = fn(&[u8]) -> Result<Rc<dyn Codecs>, String>;

/// The names table file, relative to the worker's script (the site's root, also under a sub-path);
/// written by `scripts/build-site.sh` from `unicode_names2::table_file`.
pub const NAMES_TABLE: &str = "./unicode-names.bin";

/// The codecs module (`codecs-wasm/`: CPython's table codecs), next to the names table; built by
/// `scripts/build-site.sh`.
pub const CODECS_WASM: &str = "./codecs.wasm";

/// The harness's interned words (`scorer/src/interned/words.txt`), next to the names table;
/// copied by `scripts/build-site.sh`.
pub const INTERNED_WORDS: &str = "./interned-words.txt";

/// What a job can need that the first-visit wasm leaves out: each a file of the site, loaded the
/// first time a job needs it (then the job runs again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteData {
    /// The `\N{...}` names table ([`NAMES_TABLE`]).
    NamesTable,
    /// The codecs beyond UTF-8, Latin-1 and ASCII ([`CODECS_WASM`]).
    Codecs,
    /// The harness's interned words beyond the common ones ([`INTERNED_WORDS`]).
    InternedWords,
}

impl SiteData {
    /// The file, relative to the site's root.
    pub const fn file(self) -> &'static str {
        match self {
            SiteData::NamesTable => NAMES_TABLE,
            SiteData::Codecs => CODECS_WASM,
            SiteData::InternedWords => INTERNED_WORDS,
        }
    }

    fn why(self) -> &'static str {
        match self {
            SiteData::NamesTable => "a source holds a \\N{...} escape",
            SiteData::Codecs => "a run needs a codec beyond UTF-8, Latin-1 and ASCII",
            SiteData::InternedWords => {
                "a set display holds a word outside the common interned ones"
            }
        }
    }
}

impl Default for WorkerCore {
    fn default() -> Self {
        Self::new()
    }
}

impl WorkerCore {
    /// A worker that loads site files with [`fetch_site_file`] (a synchronous request: a worker
    /// may block, and a job waits for the file anyway) and `codecs.wasm` with
    /// [`instantiate_codecs`].
    pub fn new() -> Self {
        Self::with_site(Box::new(fetch_site_file), instantiate_codecs)
    }

    /// A worker with its own site file loader and codecs module instantiation (the tests').
    pub fn with_site(fetch: SiteLoader, instantiate_codecs: CodecsInstantiate) -> Self {
        WorkerCore {
            scorer: new_scorer(None),
            tasks: HashMap::new(),
            manifests: HashMap::new(),
            blobs: BTreeMap::new(),
            listings: HashMap::new(),
            verified: HashSet::new(),
            verify_from: None,
            last_tree: None,
            fetch,
            instantiate_codecs,
            codecs: None,
        }
    }

    /// What the runs since the last call needed and did not have, in the order they are loaded.
    fn take_needs(&mut self) -> Vec<SiteData> {
        let names = unicode_names2::take_table_wanted();
        let codecs = self.scorer.take_needs_codecs();
        let words = scorer::interned::take_wanted();
        [
            (names, SiteData::NamesTable),
            (codecs, SiteData::Codecs),
            (words, SiteData::InternedWords),
        ]
        .into_iter()
        .filter_map(|(needed, data)| needed.then_some(data))
        .collect()
    }

    /// Runs `job`; when a run of it needed site data this worker did not have (the names table,
    /// the codecs), loads that and runs the job again, until it needs nothing more: no verdict
    /// is made without the data. A job may need both, one found after the other. Each time the
    /// scorer is made anew first: its parse and run caches hold what was computed without the
    /// data, never to be reused, even when the data cannot be had. A failed load fails the job,
    /// naming the file; the next job that needs it tries again.
    fn with_site_data<T>(
        &mut self,
        job: impl Fn(&mut Self) -> Result<T, String>,
    ) -> Result<T, String> {
        self.take_needs();
        let mut loaded = Vec::new();
        loop {
            let answer = job(self);
            let needs = self.take_needs();
            if needs.is_empty() {
                return answer;
            }
            self.scorer = new_scorer(self.codecs.clone());
            for data in needs {
                if loaded.contains(&data) {
                    return Err(format!("{}: loaded, yet a run still needs it", data.file()));
                }
                self.load(data)?;
                loaded.push(data);
            }
        }
    }

    /// Loads one file of site data and installs it (the table for this thread; the codecs for
    /// the scorer and every scorer made after).
    fn load(&mut self, data: SiteData) -> Result<(), String> {
        let file = data.file();
        let bytes =
            (self.fetch)(file).map_err(|e| format!("loading {file} ({}): {e}", data.why()))?;
        match data {
            SiteData::NamesTable => {
                unicode_names2::install_table(&bytes).map_err(|e| format!("{file}: {e}"))
            }
            SiteData::InternedWords => {
                scorer::interned::install(&bytes).map_err(|e| format!("{file}: {e}"))
            }
            SiteData::Codecs => {
                let codecs =
                    (self.instantiate_codecs)(&bytes).map_err(|e| format!("{file}: {e}"))?;
                self.scorer.set_codecs(codecs.clone());
                self.codecs = Some(codecs);
                Ok(())
            }
        }
    }

    /// Installs the names table and the interned words unless this thread has them. A failure
    /// is left for the run that needs the file to meet (and report) again.
    fn load_site_data_ahead(&mut self) {
        for (installed, data) in [
            (unicode_names2::table_installed(), SiteData::NamesTable),
            (scorer::interned::installed(), SiteData::InternedWords),
        ] {
            if !installed {
                let _ = self.load(data);
            }
        }
    }

    /// Handles one message; `bytes` is its binary part. Data messages answer nothing.
    pub fn handle(&mut self, msg: ToWorker, bytes: Option<&[u8]>) -> Option<FromWorker> {
        match msg {
            ToWorker::Hello => {
                Some(FromWorker::Ready { scorer_version: scorer::VERSION.to_string() })
            }
            ToWorker::Task { key, json } => match TaskData::from_json(&json, &key) {
                Ok(task) => {
                    self.tasks.insert(key, Rc::new(task));
                    None
                }
                Err(e) => Some(FromWorker::Failed { job: None, message: e.to_string() }),
            },
            ToWorker::Manifest { key } => match std::str::from_utf8(bytes.unwrap_or_default())
                .map_err(|e| format!("{key}: {e}"))
                .and_then(|json| Manifest::from_json(json, &key).map_err(|e| e.to_string()))
            {
                Ok(m) => {
                    // The listing is built now: a manifest comes ahead of the run that needs it
                    // (`runs::prefetch_bundle` in the app), or with its first task.
                    match m.listing() {
                        Ok(tree) => self.listings.insert(key.clone(), tree),
                        Err(_) => self.listings.remove(&key),
                    };
                    self.manifests.insert(key, Rc::new(m));
                    None
                }
                Err(message) => Some(FromWorker::Failed { job: None, message }),
            },
            // Hashed when a base tree first uses them, not here: a worker uses some of a pack.
            ToWorker::Blobs { pack } => match pack.split_unhashed(bytes.unwrap_or_default()) {
                Ok(blobs) => {
                    for (id, bytes) in blobs {
                        // New bytes under an id are hashed again when a task carries them.
                        self.verified.remove(&id);
                        self.blobs.insert(id, bytes);
                    }
                    self.verify_from = None;
                    None
                }
                Err(e) => Some(FromWorker::Failed { job: None, message: e.to_string() }),
            },
            ToWorker::Score { job, task, manifest, submission, trap } => {
                if trap {
                    // The test hook: a wasm trap, exactly what a panic (panic = abort) gives.
                    std::process::abort();
                }
                Some(match self.with_site_data(|c| c.score(&task, &manifest, &submission)) {
                    Ok(result) => FromWorker::Scored { job, result },
                    Err(message) => FromWorker::Failed { job: Some(job), message },
                })
            }
            ToWorker::WarmUp { job } => {
                // A scorer of its own, dropped after: the job warms code, not caches.
                warmup::run(&mut new_scorer(None), 1);
                Some(FromWorker::WarmedUp { job })
            }
            ToWorker::LoadSiteData { job } => {
                self.load_site_data_ahead();
                Some(FromWorker::SiteDataLoaded { job })
            }
            ToWorker::VerifyBlobs { job } => {
                Some(FromWorker::BlobsVerified { job, more: self.verify_blobs(VERIFY_SLICE) })
            }
            ToWorker::Parse { job, name } => Some(FromWorker::Parsed {
                job,
                parsed: scorer::submission::parse_submissions(&name, bytes.unwrap_or_default()),
            }),
            ToWorker::Combine { job, tasks, manifest } => {
                let patch = bytes.unwrap_or_default();
                Some(match self.with_site_data(|c| c.combine(&tasks, &manifest, patch)) {
                    Ok(result) => FromWorker::Combined { job, result },
                    Err(message) => FromWorker::Failed { job: Some(job), message },
                })
            }
        }
    }

    /// Hashes held blobs not checked yet, in id order from where the last call stopped, until
    /// `budget` bytes are hashed; whether some are left. A blob that hashes to another id stays
    /// unchecked: the task that carries it hashes it again and fails naming it.
    fn verify_blobs(&mut self, budget: usize) -> bool {
        use std::ops::Bound;
        let from = match &self.verify_from {
            Some(id) => Bound::Excluded(id.clone()),
            None => Bound::Unbounded,
        };
        let mut hashed = 0;
        for (id, bytes) in self.blobs.range::<String, _>((from, Bound::Unbounded)) {
            if hashed >= budget {
                return true;
            }
            self.verify_from = Some(id.clone());
            if self.verified.contains(id) {
                continue;
            }
            hashed += bytes.len();
            // A mismatch stays unchecked: the task that carries the blob reports it.
            let _ = scorer::bundle::verify_blob_once(&mut self.verified, id, bytes);
        }
        false
    }

    fn combine(
        &mut self,
        keys: &[String],
        manifest_key: &str,
        patch: &[u8],
    ) -> Result<CombinedResult, String> {
        let tasks = keys
            .iter()
            .map(|k| {
                self.tasks.get(k).cloned().ok_or_else(|| format!("the worker has no task file {k}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let refs: Vec<&TaskData> = tasks.iter().map(|t| &**t).collect();
        let ids: Vec<&str> = refs.iter().map(|t| t.id.as_str()).collect();
        let task = scorer::combine::combine(&scorer::combine::default_id(&ids), &refs)
            .map_err(|e| e.to_string())?;
        let manifest = self
            .manifests
            .get(manifest_key)
            .ok_or_else(|| format!("the worker has no manifest {manifest_key}"))?;
        let base = task.base_tree(manifest, &self.blobs).map_err(|e| e.to_string())?;
        scorer::combine::evaluate_combined(&mut self.scorer, &task, &base, patch)
            .map_err(|e| e.to_string())
    }

    fn score(
        &mut self,
        task_key: &str,
        manifest_key: &str,
        submission: &Submission,
    ) -> Result<TaskResult, String> {
        let task = self
            .tasks
            .get(task_key)
            .cloned()
            .ok_or_else(|| format!("the worker has no task file {task_key}"))?;
        let cached =
            matches!(&self.last_tree, Some((t, m, _)) if t == task_key && m == manifest_key);
        if !cached {
            let manifest = self
                .manifests
                .get(manifest_key)
                .ok_or_else(|| format!("the worker has no manifest {manifest_key}"))?;
            let listings = &mut self.listings;
            let listing = |m: &Manifest| match listings.get(manifest_key) {
                Some(tree) => Ok(tree.clone()),
                None => {
                    let tree = m.listing()?;
                    listings.insert(manifest_key.to_string(), tree.clone());
                    Ok(tree)
                }
            };
            let tree = task
                .base_tree_trusting(manifest, listing, &self.blobs, &mut self.verified)
                .map_err(|e| e.to_string())?;
            self.last_tree = Some((task_key.to_string(), manifest_key.to_string(), tree));
        }
        let Some((_, _, base)) = &self.last_tree else {
            return Err("no base tree".to_string());
        };
        if submission.instance_id != task.id {
            return Err(format!(
                "submission for {} sent with task {}",
                submission.instance_id, task.id
            ));
        }
        Ok(scorer::submission::evaluate_submission(&mut self.scorer, base, &task, submission))
    }
}

/// The worker's wasm stack is 8 MiB (see `worker/build.rs`); the interpreter may use 6 MiB of it for
/// Python frames (about 1000 nested calls, CPython's recursion limit) and leaves the rest to the parser.
pub fn worker_run_config() -> RunConfig {
    RunConfig { stack_budget: 6 << 20, ..RunConfig::default() }
}

/// A scorer for the worker's runs, with the codec provider it has (none until `codecs.wasm` is
/// loaded, whatever the build links: the tests link the native codecs).
fn new_scorer(codecs: Option<Rc<dyn Codecs>>) -> Scorer {
    let mut scorer = Scorer::new(worker_run_config());
    match codecs {
        Some(c) => scorer.set_codecs(c),
        None => scorer.remove_codecs(),
    }
    scorer
}

/// Loads a file of the site (`name` relative to the worker's script, which is at the site's root,
/// so it works under a sub-path too) with a synchronous `XMLHttpRequest` (allowed in workers, and
/// binary responses too): the job that needs it is running and cannot go on without it.
#[cfg(target_arch = "wasm32")]
pub fn fetch_site_file(name: &str) -> Result<Vec<u8>, String> {
    let xhr = web_sys::XmlHttpRequest::new().map_err(js_message)?;
    xhr.open_with_async("GET", name, false).map_err(js_message)?;
    xhr.set_response_type(web_sys::XmlHttpRequestResponseType::Arraybuffer);
    xhr.send().map_err(js_message)?;
    let status = xhr.status().map_err(js_message)?;
    if status != 200 {
        return Err(format!("HTTP status {status}"));
    }
    let body = xhr.response().map_err(js_message)?;
    Ok(js_sys::Uint8Array::new(&body).to_vec())
}

/// Natively there is nothing to fetch from: the CLI and the tests link the table and codecs in.
#[cfg(not(target_arch = "wasm32"))]
pub fn fetch_site_file(_name: &str) -> Result<Vec<u8>, String> {
    Err("no site to load it from".into())
}

/// `codecs.wasm`'s bytes compiled and instantiated ([`codecs_module`]).
#[cfg(target_arch = "wasm32")]
pub fn instantiate_codecs(bytes: &[u8]) -> Result<Rc<dyn Codecs>, String> {
    codecs_module::instantiate(bytes)
}

/// Natively there is no wasm engine: the CLI and the tests link the codecs in.
#[cfg(not(target_arch = "wasm32"))]
pub fn instantiate_codecs(_bytes: &[u8]) -> Result<Rc<dyn Codecs>, String> {
    Err("no wasm engine to instantiate it with".into())
}

#[cfg(target_arch = "wasm32")]
fn js_message(e: wasm_bindgen::JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(&e, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| "request failed".into())
}

#[cfg(target_arch = "wasm32")]
pub mod codecs_module;
pub mod warmup;

/// URL of the worker's loader script, relative to the document base (works under a sub-path).
pub const WORKER_LOADER: &str = "./worker_loader.js";

/// The message loop of a Web Worker, shared by the scoring worker and the trajectory worker
/// (`trajworker`): each message is `{h: <JSON of In>, b?: Uint8Array}`; `handle` answers it (or
/// not), and an unreadable header is answered with `failed(why)`. Answers go back as `{h: <JSON
/// of Out>}`.
#[cfg(target_arch = "wasm32")]
pub fn serve<In, Out>(
    mut handle: impl FnMut(In, Option<&[u8]>) -> Option<Out> + 'static,
    failed: fn(String) -> Out,
) where
    In: serde::de::DeserializeOwned + 'static,
    Out: Serialize + 'static,
{
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post_scope = scope.clone();
    let post = move |resp: &Out| {
        let header = serde_json::to_string(resp).unwrap_or_default();
        let msg = js_sys::Object::new();
        // Setting a property on a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&msg, &"h".into(), &header.into());
        // The UI side treats a lost message as a crash; nothing more to do here.
        let _ = post_scope.post_message(&msg);
    };
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let data = ev.data();
            let header = js_sys::Reflect::get(&data, &"h".into()).ok().and_then(|h| h.as_string());
            let bytes = js_sys::Reflect::get(&data, &"b".into())
                .ok()
                .and_then(|b| b.dyn_into::<js_sys::Uint8Array>().ok())
                .map(|b| b.to_vec());
            let answer = match header.as_deref().map(serde_json::from_str::<In>) {
                Some(Ok(msg)) => handle(msg, bytes.as_deref()),
                Some(Err(e)) => Some(failed(format!("bad message: {e}"))),
                None => Some(failed("message without header".into())),
            };
            if let Some(answer) = answer {
                post(&answer);
            }
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    onmessage.forget();
}

/// The worker entry (`src/main.rs`): answers [`ToWorker`] messages on the worker's global scope.
#[cfg(target_arch = "wasm32")]
pub fn run_worker() {
    let mut core = WorkerCore::new();
    serve(
        move |msg: ToWorker, bytes| core.handle(msg, bytes),
        |message| FromWorker::Failed { job: None, message },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use scorer::bundle::{Instructions, NeedReason, NeededFile, TestFile, BUNDLE_SCHEMA_VERSION};
    use scorer::patch::PatchStatus;
    use scorer::report::SourceRef;
    use scorer::tree::{git_blob_id, RepoPath};

    const SOURCE: &[u8] = b"def old():\n    pass\n";

    fn bundle_files(blob_bytes: &[u8]) -> (String, String, Pack, Vec<u8>) {
        let blob = git_blob_id(SOURCE);
        let path = RepoPath::new("pkg/mod.py").unwrap();
        let other = RepoPath::new("pkg/big.py").unwrap();
        let manifest = Manifest {
            schema_version: BUNDLE_SCHEMA_VERSION,
            repo: "demo".into(),
            files: [(path.clone(), blob.clone()), (other, "a".repeat(40))].into_iter().collect(),
            modes: BTreeMap::new(),
            links: BTreeMap::new(),
            pack: None,
        };
        let test = r#"import ast, os, unittest
class T(unittest.TestCase):
    def test_new(self):
        with open('../pkg/mod.py') as f:
            tree = ast.parse(f.read())
        self.assertTrue(any(isinstance(n, ast.FunctionDef) and n.name == 'new' for n in ast.walk(tree)))
    def test_other_exists(self):
        self.assertTrue(os.path.exists('../pkg/big.py'))
"#;
        let task = TaskData {
            schema_version: BUNDLE_SCHEMA_VERSION,
            id: "rename-old".into(),
            repo: "demo".into(),
            instructions: Instructions {
                lazy: "l".into(),
                base: "b".into(),
                descriptive: "d".into(),
            },
            test: TestFile {
                name: "t.py".into(),
                path: "tests/demo/t.py".into(),
                source: test.into(),
            },
            methods: vec!["T.test_new".into(), "T.test_other_exists".into()],
            inspected: Vec::new(),
            files: vec![NeededFile {
                path,
                blob: blob.clone(),
                size: 20,
                why: vec![NeedReason::Test],
            }],
            combined: None,
        };
        let pack = Pack {
            file: format!("blobs/{blob}.txt"),
            blobs: BTreeMap::from([(blob, [0, blob_bytes.len() as u64])]),
        };
        (
            serde_json::to_string(&task).unwrap(),
            serde_json::to_string(&manifest).unwrap(),
            pack,
            blob_bytes.to_vec(),
        )
    }

    fn submission(patch: &str) -> Submission {
        Submission {
            instance_id: "rename-old".into(),
            model_name_or_path: Some("m".into()),
            instruction_set: None,
            patch: patch.into(),
            source: SourceRef { file: "p.jsonl".into(), line: Some(1) },
        }
    }

    /// Sends every message through its JSON form, as the bridge does.
    fn send(core: &mut WorkerCore, msg: ToWorker, bytes: Option<&[u8]>) -> Option<FromWorker> {
        let msg: ToWorker = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let answer = core.handle(msg, bytes)?;
        Some(serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap())
    }

    fn loaded(blob_bytes: &[u8]) -> WorkerCore {
        loaded_into(WorkerCore::new(), blob_bytes)
    }

    fn loaded_into(mut core: WorkerCore, blob_bytes: &[u8]) -> WorkerCore {
        let (task, manifest, pack, bytes) = bundle_files(blob_bytes);
        assert!(send(&mut core, ToWorker::Task { key: "tasks/t.1.json".into(), json: task }, None)
            .is_none());
        let m = ToWorker::Manifest { key: "repos/demo.1.json".into() };
        assert!(send(&mut core, m, Some(manifest.as_bytes())).is_none());
        let answer = send(&mut core, ToWorker::Blobs { pack }, Some(&bytes));
        if blob_bytes == SOURCE {
            assert!(answer.is_none(), "{answer:?}");
        }
        core
    }

    fn score(core: &mut WorkerCore, job: u64, patch: &str) -> FromWorker {
        let msg = ToWorker::Score {
            job,
            task: "tasks/t.1.json".into(),
            manifest: "repos/demo.1.json".into(),
            submission: submission(patch),
            trap: false,
        };
        send(core, msg, None).unwrap()
    }

    /// Stands in for `codecs.wasm` natively: these bytes "instantiate" as the linked codecs.
    const FAKE_CODECS_WASM: &[u8] = b"\0asm codecs stand-in";

    fn fake_instantiate(bytes: &[u8]) -> Result<Rc<dyn Codecs>, String> {
        if bytes == FAKE_CODECS_WASM {
            Ok(scorer::codec::native())
        } else {
            Err("CompileError: not a wasm module".into())
        }
    }

    /// A site loader serving the real names table and the codecs stand-in, counting requests
    /// per file; `broken` answers instead for the first requests of a file (in order).
    fn site(
        requests: Rc<std::cell::RefCell<Vec<String>>>,
        mut broken: Vec<(&'static str, Result<Vec<u8>, String>)>,
    ) -> SiteLoader {
        Box::new(move |file: &str| {
            requests.borrow_mut().push(file.to_string());
            if let Some(i) = broken.iter().position(|(f, _)| *f == file) {
                return broken.remove(i).1;
            }
            match file {
                NAMES_TABLE => Ok(unicode_names2::table_file()),
                CODECS_WASM => Ok(FAKE_CODECS_WASM.to_vec()),
                INTERNED_WORDS => Ok(WORDS_FILE.to_vec()),
                other => Err(format!("HTTP status 404 for {other}")),
            }
        })
    }

    /// A worker holding one task whose test is `test` (methods `methods`) and whose base
    /// `pkg/mod.py` holds `file`.
    fn with_task(mut core: WorkerCore, test: &str, methods: &[&str], file: &[u8]) -> WorkerCore {
        let blob = git_blob_id(file);
        let (task, manifest, _, _) = bundle_files(SOURCE);
        let mut task: TaskData = serde_json::from_str(&task).unwrap();
        task.test.source = test.into();
        task.methods = methods.iter().map(|m| m.to_string()).collect();
        task.files[0].blob = blob.clone();
        task.files[0].size = file.len() as u64;
        let mut manifest: Manifest = serde_json::from_str(&manifest).unwrap();
        manifest.files.insert(RepoPath::new("pkg/mod.py").unwrap(), blob.clone());
        let pack = Pack {
            file: format!("blobs/{blob}.txt"),
            blobs: BTreeMap::from([(blob, [0, file.len() as u64])]),
        };
        let json = serde_json::to_string(&task).unwrap();
        let manifest = serde_json::to_string(&manifest).unwrap();
        for (msg, bytes) in [
            (ToWorker::Task { key: "tasks/t.1.json".into(), json }, None),
            (ToWorker::Manifest { key: "repos/demo.1.json".into() }, Some(manifest.as_bytes())),
            (ToWorker::Blobs { pack }, Some(file)),
        ] {
            assert!(send(&mut core, msg, bytes).is_none());
        }
        core
    }

    /// Runs `f` on a fresh thread without the names table (the table is per thread).
    fn without_names_table(f: impl FnOnce() + Send + 'static) {
        std::thread::spawn(move || {
            unicode_names2::remove_table();
            f()
        })
        .join()
        .unwrap()
    }

    fn requests() -> Rc<std::cell::RefCell<Vec<String>>> {
        Rc::new(std::cell::RefCell::new(Vec::new()))
    }

    /// A worker without the names table: a patch that puts a `\N{...}` escape into the file the
    /// test parses is scored with the table, loaded once (the first verdict, made without it,
    /// is never answered); a loader that fails, or gives a damaged file, fails the job with the
    /// file's name, and the next job tries again.
    #[test]
    fn loads_the_names_table_when_a_source_needs_it() {
        let named = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def old():\n-    pass\n+def new():\n+    return '\\N{BULLET}\\N{latin small letter a}'\n";
        let unknown = named.replace("BULLET", "NO SUCH NAME");
        let (named2, unknown2) = (named.to_string(), unknown.clone());
        without_names_table(move || {
            let (named, unknown) = (named2.as_str(), unknown2.as_str());
            let asked = requests();
            let core = WorkerCore::with_site(site(asked.clone(), vec![]), fake_instantiate);
            let mut core = loaded_into(core, SOURCE);
            let FromWorker::Scored { result, .. } = score(&mut core, 1, "") else { panic!() };
            assert_eq!(result.subtests_passed, 1, "no escape, no table");
            assert!(asked.borrow().is_empty());
            let FromWorker::Scored { result, .. } = score(&mut core, 2, named) else { panic!() };
            assert!(result.resolved, "{result:?}");
            assert_eq!(*asked.borrow(), [NAMES_TABLE]);
            // An unknown name is CPython's SyntaxError, decided with the table.
            let FromWorker::Scored { result, .. } = score(&mut core, 3, unknown) else { panic!() };
            assert_eq!((result.subtests_passed, result.resolved), (1, false));
            assert_eq!(asked.borrow().len(), 1, "loaded once");
            assert!(unicode_names2::table_installed());
        });
        let (named2, unknown2) = (named.to_string(), unknown);
        without_names_table(move || {
            let (named, _) = (named2.as_str(), unknown2);
            let asked = requests();
            let broken = vec![
                (NAMES_TABLE, Err("HTTP status 404".to_string())),
                (NAMES_TABLE, Ok(unicode_names2::table_file()[..100].to_vec())),
            ];
            let core = WorkerCore::with_site(site(asked.clone(), broken), fake_instantiate);
            let mut core = loaded_into(core, SOURCE);
            let FromWorker::Failed { job: Some(1), message } = score(&mut core, 1, named) else {
                panic!("expected a failure")
            };
            assert!(message.contains("unicode-names.bin") && message.contains("404"), "{message}");
            let FromWorker::Failed { message, .. } = score(&mut core, 2, named) else { panic!() };
            assert!(message.contains("unicode-names.bin: names table truncated"), "{message}");
            let FromWorker::Scored { result, .. } = score(&mut core, 3, named) else { panic!() };
            assert!(result.resolved, "{result:?}");
            assert_eq!(asked.borrow().len(), 3);
        });
    }

    /// The harness's interned words, as `scripts/build-site.sh` copies them into the site.
    const WORDS_FILE: &[u8] = include_bytes!("../../scorer/src/interned/words.txt");

    /// A display's order as the scorer gives it on a fresh thread, with or without the full
    /// interned list.
    fn display_order(display: String, with_list: bool) -> String {
        std::thread::spawn(move || {
            if with_list {
                scorer::interned::install(WORDS_FILE).unwrap();
            } else {
                scorer::interned::remove();
            }
            let mut tree = scorer::tree::Tree::new();
            tree.insert_bytes("x.py", b"".to_vec()).unwrap();
            let probe = format!(
                "import unittest\nclass T(unittest.TestCase):\n    def test_o(self):\n        self.fail(repr(list({display})))\n"
            );
            let out = scorer::unittest::Scorer::new(scorer::unittest::RunConfig::default())
                .run_test_file(&tree, "probe.py", &probe);
            let v = serde_json::to_value(&out).unwrap();
            v[0]["message"].as_str().unwrap().to_string()
        })
        .join()
        .unwrap()
    }

    /// A worker without the full interned list: a display asking about a rare word (`indent`:
    /// interned by the harness, not among the common words) makes it load `interned-words.txt`
    /// once and plan the display again, giving the order the list gives (a display is chosen
    /// whose order the list changes); a damaged file fails the job naming it, and the next job
    /// tries again.
    #[test]
    fn a_rare_interned_word_loads_the_words_and_runs_again() {
        let (display, order) = (0..64)
            .map(|k| format!("{{'zq_a{k}', 'indent', 'zq_b{k}', 'zq_c{k}'}}"))
            .find_map(|d| {
                let (with, without) =
                    (display_order(d.clone(), true), display_order(d.clone(), false));
                (with != without).then_some((d, with))
            })
            .expect("a display whose order the rare word changes");
        let test = format!(
            "import unittest\nclass T(unittest.TestCase):\n    def test_rare(self):\n        self.assertEqual(list({display}), {order})\n    def test_plain(self):\n        self.assertEqual(sorted({{'zq_a', 'zq_b', 'zq_c'}}), ['zq_a', 'zq_b', 'zq_c'])\n"
        );
        std::thread::spawn(move || {
            scorer::interned::remove();
            let asked = requests();
            let broken = vec![(INTERNED_WORDS, Ok(WORDS_FILE[..WORDS_FILE.len() - 3].to_vec()))];
            let core = WorkerCore::with_site(site(asked.clone(), broken), fake_instantiate);
            let mut core = with_task(core, &test, &["T.test_rare", "T.test_plain"], b"x = 1\n");
            let FromWorker::Failed { job: Some(1), message } = score(&mut core, 1, "") else {
                panic!("expected a failure")
            };
            assert!(message.contains("interned-words.txt"), "{message}");
            for job in [2, 3] {
                let FromWorker::Scored { result, .. } = score(&mut core, job, "") else { panic!() };
                assert_eq!((result.subtests_passed, result.subtests_total), (2, 2), "{result:?}");
            }
            assert_eq!(asked.borrow().len(), 2, "loaded once after the failure");
            assert!(scorer::interned::installed());
        })
        .join()
        .unwrap();
    }

    /// Idle `LoadSiteData` on a worker with neither the names table nor the interned words:
    /// both are loaded, once; a run that needs the table then asks for nothing. A load that
    /// fails at idle is not an error: the run that needs the file loads it then.
    #[test]
    fn site_data_loaded_ahead_spares_the_run_its_reload() {
        let named = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def old():\n-    pass\n+def new():\n+    return '\\N{BULLET}'\n";
        let fresh = || {
            unicode_names2::remove_table();
            scorer::interned::remove();
        };
        std::thread::spawn(move || {
            fresh();
            let asked = requests();
            let core = WorkerCore::with_site(site(asked.clone(), vec![]), fake_instantiate);
            let mut core = loaded_into(core, SOURCE);
            for job in [1, 2] {
                let answer = send(&mut core, ToWorker::LoadSiteData { job }, None);
                assert!(matches!(answer, Some(FromWorker::SiteDataLoaded { job: j }) if j == job));
            }
            assert_eq!(*asked.borrow(), [NAMES_TABLE, INTERNED_WORDS], "each loaded once");
            assert!(unicode_names2::table_installed() && scorer::interned::installed());
            let FromWorker::Scored { result, .. } = score(&mut core, 3, named) else { panic!() };
            assert!(result.resolved, "{result:?}");
            assert_eq!(asked.borrow().len(), 2, "the run loaded nothing");

            fresh();
            let asked = requests();
            let broken = vec![(NAMES_TABLE, Err("HTTP status 503".to_string()))];
            let core = WorkerCore::with_site(site(asked.clone(), broken), fake_instantiate);
            let mut core = loaded_into(core, SOURCE);
            let answer = send(&mut core, ToWorker::LoadSiteData { job: 1 }, None);
            assert!(matches!(answer, Some(FromWorker::SiteDataLoaded { job: 1 })), "{answer:?}");
            assert!(!unicode_names2::table_installed() && scorer::interned::installed());
            let FromWorker::Scored { result, .. } = score(&mut core, 2, named) else { panic!() };
            assert!(result.resolved, "{result:?}");
            assert_eq!(*asked.borrow(), [NAMES_TABLE, INTERNED_WORDS, NAMES_TABLE]);
        })
        .join()
        .unwrap();
    }

    /// A test that parses a GBK file (a coding cookie) and decodes and encodes GBK itself.
    const GBK_TEST: &str = r#"import ast, unittest
class T(unittest.TestCase):
    def test_gbk_bytes(self):
        self.assertEqual(b'\xd6\xd0\xce\xc4'.decode('gbk'), '\u4e2d\u6587')
        self.assertEqual('\u4e2d\u6587'.encode('cp936'), b'\xd6\xd0\xce\xc4')
    def test_gbk_file(self):
        with open('../pkg/mod.py', 'rb') as f:
            tree = ast.parse(f.read())
        self.assertEqual(tree.body[0].value.value, '\u4e2d\u6587')
    def test_unknown(self):
        with self.assertRaises(LookupError):
            b'a'.decode('no-such-codec')
        self.assertEqual(b''.decode('no-such-codec'), '')
"#;
    const GBK_METHODS: &[&str] = &["T.test_gbk_bytes", "T.test_gbk_file", "T.test_unknown"];
    const GBK_FILE: &[u8] = b"# -*- coding: gbk -*-\nname = '\xd6\xd0\xce\xc4'\n";

    /// A task whose test decodes GBK: the first run stops for want of codecs (no verdict), the
    /// worker loads `codecs.wasm` once and scores again; later jobs use it, also after the names
    /// table made the scorer anew. Without a site, or when loading or instantiating fails, the
    /// job fails naming the file, and the next job tries again.
    #[test]
    fn a_run_needing_codecs_loads_them_and_runs_again() {
        let all_pass = |answer: FromWorker| {
            let FromWorker::Scored { result, .. } = answer else { panic!("{answer:?}") };
            assert_eq!((result.subtests_passed, result.subtests_total), (3, 3), "{result:?}");
        };
        let asked = requests();
        let core = WorkerCore::with_site(site(asked.clone(), vec![]), fake_instantiate);
        let mut core = with_task(core, GBK_TEST, GBK_METHODS, GBK_FILE);
        for job in [1, 2] {
            all_pass(score(&mut core, job, ""));
        }
        assert_eq!(*asked.borrow(), [CODECS_WASM], "codecs loaded once");

        // No site to load from (the native default): the job fails, no verdict.
        let mut bare = with_task(WorkerCore::new(), GBK_TEST, GBK_METHODS, GBK_FILE);
        let FromWorker::Failed { job: Some(3), message } = score(&mut bare, 3, "") else {
            panic!("expected a failure")
        };
        assert!(
            message.contains("loading ./codecs.wasm") && message.contains("codec"),
            "{message}"
        );

        // A failed request, then a damaged module: each fails its job naming the file; the
        // next job tries again and gets its verdict.
        let asked = requests();
        let broken = vec![
            (CODECS_WASM, Err("HTTP status 404".to_string())),
            (CODECS_WASM, Ok(b"<html>not found</html>".to_vec())),
        ];
        let core = WorkerCore::with_site(site(asked.clone(), broken), fake_instantiate);
        let mut core = with_task(core, GBK_TEST, GBK_METHODS, GBK_FILE);
        let FromWorker::Failed { job: Some(4), message } = score(&mut core, 4, "") else {
            panic!("expected a failure")
        };
        assert!(message.contains("./codecs.wasm") && message.contains("404"), "{message}");
        let FromWorker::Failed { job: Some(5), message } = score(&mut core, 5, "") else {
            panic!("expected a failure")
        };
        assert!(message.contains("./codecs.wasm: CompileError"), "{message}");
        all_pass(score(&mut core, 6, ""));
        assert_eq!(asked.borrow().len(), 3);
    }

    /// One job needing both the codecs and the names table, found one after the other in
    /// either order, loads both and gets CPython's verdict; a later job loads nothing.
    #[test]
    fn a_job_needing_codecs_and_the_names_table_loads_both() {
        // Codecs first: the cookie is decoded before the `\N{...}` escape is parsed.
        let codecs_first = r#"import ast, unittest
class T(unittest.TestCase):
    def test_named_escape_in_a_gbk_file(self):
        with open('../pkg/mod.py', 'rb') as f:
            tree = ast.parse(f.read())
        self.assertEqual(tree.body[0].value.value, '\u4e2d\u2022')
"#;
        let gbk_named = b"# -*- coding: gbk -*-\nname = '\xd6\xd0\\N{BULLET}'\n";
        // The names table first: the method stops at the escape until the table is there.
        let names_first = r#"import ast, unittest
class T(unittest.TestCase):
    def test_escape_then_gbk(self):
        tree = ast.parse("x = '\\N{MIDDLE DOT}'")
        self.assertEqual(tree.body[0].value.value, '\xb7')
        self.assertEqual('\xb7'.encode('gbk'), b'\xa1\xa4')
"#;
        for (test, method, file, order) in [
            (
                codecs_first,
                "T.test_named_escape_in_a_gbk_file",
                &gbk_named[..],
                [CODECS_WASM, NAMES_TABLE],
            ),
            (names_first, "T.test_escape_then_gbk", SOURCE, [NAMES_TABLE, CODECS_WASM]),
        ] {
            let (test, method, file) = (test.to_string(), method.to_string(), file.to_vec());
            without_names_table(move || {
                let asked = requests();
                let core = WorkerCore::with_site(site(asked.clone(), vec![]), fake_instantiate);
                let mut core = with_task(core, &test, &[&method], &file);
                for job in [1, 2] {
                    let FromWorker::Scored { result, .. } = score(&mut core, job, "") else {
                        panic!("not scored")
                    };
                    assert!(result.resolved, "{result:?}");
                }
                assert_eq!(*asked.borrow(), order);
            });
        }
    }

    #[test]
    fn scores_submissions_from_cached_bundle_data() {
        let mut core = loaded(SOURCE);
        let Some(FromWorker::Ready { scorer_version }) = send(&mut core, ToWorker::Hello, None)
        else {
            panic!("no ready")
        };
        assert_eq!(scorer_version, scorer::VERSION);

        let FromWorker::Scored { job: 1, result: base } = score(&mut core, 1, "") else {
            panic!("not scored")
        };
        assert_eq!(base.patch_status, PatchStatus::None);
        assert_eq!((base.subtests_passed, base.subtests_total, base.resolved), (1, 2, false));
        assert_eq!(base.model_name_or_path.as_deref(), Some("m"));

        let patch = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def old():\n+def new():\n     pass\n";
        let FromWorker::Scored { job: 2, result: solved } = score(&mut core, 2, patch) else {
            panic!("not scored")
        };
        assert!(solved.resolved, "{solved:?}");

        // A truncated patch (git: "error: corrupt patch at line 5") is a failed patch: the task
        // was attempted, none of its two methods passed.
        let FromWorker::Scored { job: 3, result: failed } = score(
            &mut core,
            3,
            "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def old():\n",
        ) else {
            panic!("an unparsable patch is scored")
        };
        assert_eq!((failed.patch_status, failed.resolved), (PatchStatus::Failed, false));
        assert_eq!(failed.patch_error.as_deref(), Some("corrupt patch at line 5"));
        assert_eq!((failed.subtests_passed, failed.subtests_total), (0, 2));
        assert_eq!(failed.source.as_ref().and_then(|s| s.line), Some(1));
    }

    #[test]
    fn scores_a_combined_task_per_part() {
        let mut core = loaded(SOURCE);
        // A second task of the same repository: only the other file's existence.
        let (task, _, _, _) = bundle_files(SOURCE);
        let mut other: TaskData = serde_json::from_str(&task).unwrap();
        other.id = "keep-other".into();
        other.test.source = "import os, unittest\nclass T(unittest.TestCase):\n    def test_other_exists(self):\n        self.assertTrue(os.path.exists('../pkg/big.py'))\n".into();
        other.methods = vec!["T.test_other_exists".into()];
        let json = serde_json::to_string(&other).unwrap();
        assert!(
            send(&mut core, ToWorker::Task { key: "tasks/k.2.json".into(), json }, None).is_none()
        );
        let combine = |core: &mut WorkerCore, job: u64, patch: &[u8]| {
            let msg = ToWorker::Combine {
                job,
                tasks: vec!["tasks/t.1.json".into(), "tasks/k.2.json".into()],
                manifest: "repos/demo.1.json".into(),
            };
            send(core, msg, Some(patch)).unwrap()
        };
        let Some(FromWorker::Combined { job: 8, result }) = Some(combine(&mut core, 8, b"")) else {
            panic!("not combined")
        };
        assert_eq!(result.id, "combined__rename-old__keep-other");
        assert_eq!(result.verdict(), "resolved 1 of 2 constituent tasks");
        assert!(!result.parts[0].resolved && result.parts[1].resolved);
        let patch = b"--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def old():\n+def new():\n     pass\n";
        let FromWorker::Combined { result, .. } = combine(&mut core, 9, patch) else {
            panic!("not combined")
        };
        assert!(result.resolved, "{result:?}");
        // A task the worker was not sent fails the job.
        let msg = ToWorker::Combine {
            job: 10,
            tasks: vec!["tasks/t.1.json".into(), "tasks/none.json".into()],
            manifest: "repos/demo.1.json".into(),
        };
        let Some(FromWorker::Failed { job: Some(10), message }) = send(&mut core, msg, None) else {
            panic!("expected a failure")
        };
        assert!(message.contains("no task file tasks/none.json"), "{message}");
    }

    #[test]
    fn corrupt_or_missing_data_fails_the_job_not_the_worker() {
        let mut core = loaded(b"tampered");
        let FromWorker::Failed { job: Some(4), message } = score(&mut core, 4, "") else {
            panic!("expected a failure")
        };
        assert!(message.contains("blob"), "{message}");
        let mut empty = WorkerCore::new();
        let FromWorker::Failed { job: Some(5), message } = score(&mut empty, 5, "") else {
            panic!("expected a failure")
        };
        assert!(message.contains("no task file"), "{message}");
    }

    #[test]
    fn a_blob_is_hashed_when_first_used_and_again_after_new_bytes() {
        let mut core = loaded(SOURCE);
        assert!(core.verified.is_empty());
        let FromWorker::Scored { .. } = score(&mut core, 1, "") else { panic!("not scored") };
        assert!(core.verified.contains(&git_blob_id(SOURCE)));
        // Other bytes under the same id (a tampered pack sent later): the next base tree hashes
        // them and fails; the earlier check does not vouch for them.
        let (_, _, pack, _) = bundle_files(b"tampered");
        let answer = send(&mut core, ToWorker::Blobs { pack }, Some(b"tampered"));
        assert!(answer.is_none(), "{answer:?}");
        core.last_tree = None;
        let FromWorker::Failed { job: Some(2), message } = score(&mut core, 2, "") else {
            panic!("expected a failure")
        };
        assert!(message.contains("is corrupt"), "{message}");
    }

    #[test]
    fn idle_hashing_checks_held_blobs_a_slice_at_a_time_and_passes_over_bad_ones() {
        let mut core = WorkerCore::new();
        let good: [&[u8]; 3] = [b"one\n", b"two\n", b"three\n"];
        for bytes in good {
            core.blobs.insert(git_blob_id(bytes), Arc::from(bytes));
        }
        // First in id order, and not what its id says.
        let bad = "0".repeat(40);
        core.blobs.insert(bad.clone(), Arc::from(&b"not zeros"[..]));
        // A one-byte budget: one blob per call, the last call saying none is left.
        let mut calls = 1;
        while core.verify_blobs(1) {
            calls += 1;
            assert!(calls <= 4, "more calls than blobs");
        }
        assert_eq!(calls, 4);
        assert!(good.iter().all(|b| core.verified.contains(&git_blob_id(b))));
        assert!(!core.verified.contains(&bad));
        let answer = send(&mut core, ToWorker::VerifyBlobs { job: 3 }, None);
        assert!(matches!(answer, Some(FromWorker::BlobsVerified { job: 3, more: false })));

        // New bytes start the pass again: right ones are checked before the run, so scoring
        // does not hash them; wrong ones are left for the task to report.
        let mut core = loaded_into(core, SOURCE);
        let answer = send(&mut core, ToWorker::VerifyBlobs { job: 4 }, None);
        assert!(matches!(answer, Some(FromWorker::BlobsVerified { job: 4, more: false })));
        assert!(core.verified.contains(&git_blob_id(SOURCE)));
        let FromWorker::Scored { .. } = score(&mut core, 5, "") else { panic!("not scored") };
        let mut tampered = loaded(b"tampered");
        let answer = send(&mut tampered, ToWorker::VerifyBlobs { job: 6 }, None);
        assert!(matches!(answer, Some(FromWorker::BlobsVerified { job: 6, more: false })));
        assert!(tampered.verified.is_empty());
        let FromWorker::Failed { job: Some(7), message } = score(&mut tampered, 7, "") else {
            panic!("expected a failure")
        };
        assert!(message.contains("is corrupt"), "{message}");
    }

    #[test]
    fn parses_uploaded_predictions() {
        let mut core = WorkerCore::new();
        let jsonl = b"{\"instance_id\": \"a\", \"model_name_or_path\": \"m\", \"model_patch\": \"\"}\nnot json\n";
        let Some(FromWorker::Parsed { job: 7, parsed }) =
            send(&mut core, ToWorker::Parse { job: 7, name: "preds.jsonl".into() }, Some(jsonl))
        else {
            panic!("not parsed")
        };
        assert_eq!(parsed.submissions.len(), 1);
        assert_eq!(parsed.errors.len(), 1);
        assert_eq!(parsed.errors[0].source.line, Some(2));
    }
}
