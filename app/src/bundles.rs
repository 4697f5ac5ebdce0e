//! Task bundles as the site serves them: `bundles/bundles.json` lists the bundles, each bundle's
//! `index.json` is fetched once (without HTTP caching), and everything else (task files,
//! manifests, blobs, packs) lazily, through the content-addressed names the index gives.
//!
//! Every load is memoised per bundle *and* `bundle_hash`: a redeployed bundle (new hash) gets fresh
//! caches, and two components asking for the same file at the same time share one request.
//!
//! Views use the plain async functions ([`load_index`], [`load_task`], [`load_file`]) or the
//! reactive helpers ([`use_bundle`], [`index_resource`], [`task_resource`]); the scoring pages use
//! [`load_task_inputs`], which gathers what the worker needs for one task.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::prelude::*;
use scorer::bundle::{blob_file, BundleIndex, ManifestHead, Pack, TaskData, TaskSummary};
use serde::{Deserialize, Serialize};

use crate::net;

/// The bundle the site shows when neither the URL nor the user chose one.
pub const DEFAULT_BUNDLE: &str = "demo";

/// One row of `bundles/bundles.json` (written by `scripts/build-site.sh`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleInfo {
    /// Folder name under `bundles/`, also the `?bundle=` value.
    pub name: String,
    #[serde(default)]
    pub tasks: u32,
    #[serde(default)]
    pub bundle_hash: String,
}

/// `bundles/bundles.json`: the bundles this site serves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleList {
    #[serde(default = "default_name")]
    pub default: String,
    pub bundles: Vec<BundleInfo>,
}

fn default_name() -> String {
    DEFAULT_BUNDLE.to_string()
}

impl BundleList {
    /// What a site without `bundles.json` (an older build) serves: the demo alone.
    pub fn demo_only() -> Self {
        BundleList {
            default: default_name(),
            bundles: vec![BundleInfo {
                name: default_name(),
                tasks: 0,
                bundle_hash: String::new(),
            }],
        }
    }

    /// Parses `bundles.json`, dropping names that are not safe folder names.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let mut list: BundleList =
            serde_json::from_str(text).map_err(|e| format!("bundles/bundles.json: {e}"))?;
        list.bundles.retain(|b| is_valid_bundle_name(&b.name));
        Ok(list)
    }
}

/// Bundle names become URL path segments: `[A-Za-z0-9._-]`, not starting with `.`.
pub fn is_valid_bundle_name(name: &str) -> bool {
    scorer::bundle::is_valid_task_id(name)
}

/// A bundle-relative file is a plain relative path inside the bundle: no `..`, no absolute path,
/// no scheme (the index is data from the server, the names must not send a fetch elsewhere).
pub fn is_safe_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.contains("//")
        && !path.contains(':')
        && !path.contains('\\')
        && path.split('/').all(|seg| !seg.is_empty() && seg != "." && seg != "..")
}

/// Site-relative URL of a file of bundle `name`.
pub fn bundle_url(name: &str, file: &str) -> String {
    format!("bundles/{name}/{file}")
}

/// What the worker needs to score submissions for one task: the task file, its repository's
/// manifest and the bytes of every file the task carries. JSON is kept as the server's text so it
/// goes to the worker unparsed; blobs as JS byte arrays (structured-cloned, never copied through
/// the UI's wasm memory).
#[derive(Clone)]
pub struct TaskInputs {
    pub bundle: String,
    pub bundle_hash: String,
    pub task: Rc<TaskData>,
    /// Bundle-relative, content-addressed name of the task file (a cache key for the worker).
    pub task_file: String,
    pub task_json: Rc<str>,
    /// Bundle-relative, content-addressed name of the manifest (a cache key for the worker).
    pub manifest_file: String,
    pub manifest_json: Rc<str>,
    /// The carried blobs: a pack (the repository's, or one made of single blob files) and its bytes.
    pub blobs: Vec<(Rc<Pack>, js_sys::Uint8Array)>,
}

impl std::fmt::Debug for TaskInputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskInputs")
            .field("bundle", &self.bundle)
            .field("task", &self.task.id)
            .field("manifest_file", &self.manifest_file)
            .finish_non_exhaustive()
    }
}

type Load<T> = Shared<LocalBoxFuture<'static, Result<T, String>>>;

/// A parsed task file and its text (sent to the worker as is).
type TaskWithText = (Rc<TaskData>, Rc<str>);

/// Per-bundle memo of every load, keyed by content-addressed file name.
#[derive(Default)]
struct BundleCache {
    index: Option<Load<Rc<BundleIndex>>>,
    hash: String,
    tasks: HashMap<String, Load<TaskWithText>>,
    manifests: HashMap<String, Load<Rc<str>>>,
    parsed_manifests: HashMap<String, Load<Rc<ManifestHead>>>,
    bytes: HashMap<String, Load<js_sys::Uint8Array>>,
}

thread_local! {
    static LIST: RefCell<Option<Load<Rc<BundleList>>>> = const { RefCell::new(None) };
    static CACHES: RefCell<HashMap<String, BundleCache>> = RefCell::new(HashMap::new());
}

/// Runs `make` once per key: later calls (even while the first is still loading) share its result.
/// A failed load is forgotten, so the next call retries.
fn memo<T: Clone + 'static>(
    bundle: &str,
    pick: fn(&mut BundleCache) -> &mut HashMap<String, Load<T>>,
    key: &str,
    make: impl FnOnce() -> Pin<Box<dyn Future<Output = Result<T, String>>>>,
) -> Load<T> {
    CACHES.with(|c| {
        let mut caches = c.borrow_mut();
        let cache = caches.entry(bundle.to_string()).or_default();
        let map = pick(cache);
        if let Some(existing) = map.get(key) {
            let failed = matches!(existing.peek(), Some(Err(_)));
            if !failed {
                return existing.clone();
            }
        }
        let fut = make().shared();
        map.insert(key.to_string(), fut.clone());
        fut
    })
}

/// The bundles the site serves (`bundles/bundles.json`, fetched once; the demo alone when absent).
pub async fn load_bundle_list() -> Result<Rc<BundleList>, String> {
    let fut = LIST.with(|l| {
        let mut slot = l.borrow_mut();
        if let Some(f) = slot.as_ref().filter(|f| !matches!(f.peek(), Some(Err(_)))) {
            return f.clone();
        }
        let fut: Load<Rc<BundleList>> = async {
            match net::fetch_text_fresh("bundles/bundles.json").await {
                Ok(text) => BundleList::from_json(&text).map(Rc::new),
                // Sites built before bundles.json existed serve only the demo.
                Err(_) => Ok(Rc::new(BundleList::demo_only())),
            }
        }
        .boxed_local()
        .shared();
        *slot = Some(fut.clone());
        fut
    });
    fut.await
}

/// The bundle's `index.json`, fetched once per page load (bypassing the HTTP cache, since it is the
/// one file whose name is not content-addressed). A new `bundle_hash` drops the bundle's caches.
pub async fn load_index(bundle: &str) -> Result<Rc<BundleIndex>, String> {
    if !is_valid_bundle_name(bundle) {
        return Err(format!("{bundle:?} is not a bundle name"));
    }
    // A name the site does not serve (a stale or mistyped `?bundle=`) is not fetched: the 404
    // would only add a console error to the notice that names it.
    if let Ok(list) = load_bundle_list().await {
        if !list.bundles.iter().any(|b| b.name == bundle) {
            return Err(format!("this site has no bundle named {bundle:?}"));
        }
    }
    let fut = CACHES.with(|c| {
        let mut caches = c.borrow_mut();
        let cache = caches.entry(bundle.to_string()).or_default();
        if let Some(f) = cache.index.as_ref().filter(|f| !matches!(f.peek(), Some(Err(_)))) {
            return f.clone();
        }
        let url = bundle_url(bundle, "index.json");
        let fut: Load<Rc<BundleIndex>> = async move {
            let text = net::fetch_text_fresh(&url).await?;
            BundleIndex::from_json(&text).map(Rc::new).map_err(|e| format!("{url}: {e}"))
        }
        .boxed_local()
        .shared();
        cache.index = Some(fut.clone());
        fut
    });
    let index = fut.await?;
    CACHES.with(|c| {
        let mut caches = c.borrow_mut();
        let cache = caches.entry(bundle.to_string()).or_default();
        if cache.hash != index.bundle_hash {
            // Content-addressed names make stale entries harmless, but they are dead weight.
            let keep = cache.index.take();
            *cache =
                BundleCache { index: keep, hash: index.bundle_hash.clone(), ..Default::default() };
        }
    });
    Ok(index)
}

/// The index row of one task.
pub async fn load_summary(bundle: &str, id: &str) -> Result<TaskSummary, String> {
    let index = load_index(bundle).await?;
    index
        .tasks
        .iter()
        .find(|t| t.id == id)
        .cloned()
        .ok_or_else(|| format!("no task {id:?} in bundle {bundle}"))
}

async fn load_task_with_text(
    bundle: &str,
    id: &str,
) -> Result<(Rc<TaskData>, Rc<str>, String), String> {
    let index = load_index(bundle).await?;
    let summary = load_summary(bundle, id).await?;
    let file = summary.data.clone();
    if !is_safe_relative(&file) {
        return Err(format!("task {id}: bad data file name {file:?}"));
    }
    let url = bundle_url(bundle, &file);
    let name = file.clone();
    // From the task pack when a run asked for it ([`preload_task_pack`]), else on its own.
    let packed = index
        .task_pack
        .as_ref()
        .and_then(|p| Some((*p.blobs.get(&file)?, loading_bytes(bundle, &p.file)?)));
    let fut = memo(
        bundle,
        |c| &mut c.tasks,
        &file,
        move || {
            async move {
                let from_pack = match packed {
                    Some((range, pack)) => pack.await.ok().and_then(|b| slice_text(&b, range)),
                    None => None,
                };
                let text = match from_pack {
                    Some(text) => text,
                    None => net::fetch_text(&url).await?,
                };
                let task = TaskData::from_json(&text, &name).map_err(|e| format!("{url}: {e}"))?;
                Ok((Rc::new(task), Rc::from(text)))
            }
            .boxed_local()
        },
    );
    let (task, text) = fut.await?;
    if task.id != id {
        return Err(format!("{file}: holds task {:?}, not {id:?}", task.id));
    }
    Ok((task, text, file))
}

/// One task's data (instructions, test source, methods, inspected and carried files).
pub async fn load_task(bundle: &str, id: &str) -> Result<Rc<TaskData>, String> {
    load_task_with_text(bundle, id).await.map(|(task, _, _)| task)
}

async fn manifest_file(bundle: &str, repo: &str) -> Result<String, String> {
    let index = load_index(bundle).await?;
    let summary = index
        .repos
        .iter()
        .find(|r| r.name == repo)
        .ok_or_else(|| format!("bundle {bundle} has no repository {repo:?}"))?;
    if !is_safe_relative(&summary.manifest) {
        return Err(format!("repository {repo}: bad manifest name {:?}", summary.manifest));
    }
    Ok(summary.manifest.clone())
}

async fn load_manifest_text(bundle: &str, file: &str) -> Result<Rc<str>, String> {
    let url = bundle_url(bundle, file);
    memo(
        bundle,
        |c| &mut c.manifests,
        file,
        move || async move { net::fetch_text(&url).await.map(Rc::from) }.boxed_local(),
    )
    .await
}

/// A repository's manifest without its file list (the pack; the worker reads the whole text).
pub async fn load_manifest(bundle: &str, repo: &str) -> Result<Rc<ManifestHead>, String> {
    let file = manifest_file(bundle, repo).await?;
    let (b, f) = (bundle.to_string(), file.clone());
    memo(
        bundle,
        |c| &mut c.parsed_manifests,
        &file,
        move || {
            async move {
                let text = load_manifest_text(&b, &f).await?;
                let m = ManifestHead::from_json(&text, &f).map_err(|e| e.to_string())?;
                if m.pack.as_ref().is_some_and(|p| !is_safe_relative(&p.file)) {
                    return Err(format!("{f}: bad pack file name"));
                }
                Ok(Rc::new(m))
            }
            .boxed_local()
        },
    )
    .await
}

async fn load_bytes(bundle: &str, file: &str) -> Result<js_sys::Uint8Array, String> {
    let url = bundle_url(bundle, file);
    memo(
        bundle,
        |c| &mut c.bytes,
        file,
        move || async move { net::fetch_bytes(&url).await }.boxed_local(),
    )
    .await
}

/// Fetches a repository's pack (all the blobs its tasks carry) so that later
/// [`load_task_inputs`] calls for its tasks need no blob requests. Scoring many tasks calls this
/// first: one request per repository instead of one per blob.
pub async fn preload_pack(bundle: &str, repo: &str) -> Result<(), String> {
    let manifest = load_manifest(bundle, repo).await?;
    if let Some(pack) = &manifest.pack {
        load_bytes(bundle, &pack.file).await?;
    }
    Ok(())
}

/// One repository's share of what a batch run sends every worker: its manifest (as text) and its
/// pack, if it has one. A run's tasks then need only their task files.
#[derive(Clone)]
pub struct RepoData {
    /// Bundle-relative, content-addressed name of the manifest (the worker's cache key).
    pub manifest_file: String,
    pub manifest_json: Rc<str>,
    pub pack: Option<(Rc<Pack>, js_sys::Uint8Array)>,
}

/// The manifest and pack of repository `repo` (each fetched once per page; see [`memo`]).
pub async fn load_repo_data(bundle: &str, repo: &str) -> Result<RepoData, String> {
    let manifest_file = manifest_file(bundle, repo).await?;
    let head = load_manifest(bundle, repo).await?;
    let manifest_json = load_manifest_text(bundle, &manifest_file).await?;
    let pack = match &head.pack {
        Some(pack) => Some((Rc::new(pack.clone()), load_bytes(bundle, &pack.file).await?)),
        None => None,
    };
    Ok(RepoData { manifest_file, manifest_json, pack })
}

/// Fetches the bundle's task pack (every task file in one request), so that later task loads
/// read it instead of one request each. A batch run calls this first; without a task pack
/// (older bundles) it does nothing.
pub async fn preload_task_pack(bundle: &str) -> Result<(), String> {
    let index = load_index(bundle).await?;
    match &index.task_pack {
        Some(pack) if is_safe_relative(&pack.file) => {
            load_bytes(bundle, &pack.file).await.map(drop)
        }
        Some(pack) => Err(format!("{bundle}: bad task pack name {:?}", pack.file)),
        None => Ok(()),
    }
}

/// The load of `file` if one was started and has not failed (finished or not).
fn loading_bytes(bundle: &str, file: &str) -> Option<Load<js_sys::Uint8Array>> {
    CACHES.with(|c| {
        c.borrow()
            .get(bundle)
            .and_then(|cache| cache.bytes.get(file))
            .filter(|f| !matches!(f.peek(), Some(Err(_))))
            .cloned()
    })
}

/// The UTF-8 text at `[offset, length]` of a pack, or `None` when the range or the text is bad
/// (the caller then fetches the file itself).
fn slice_text(pack: &js_sys::Uint8Array, [offset, len]: [u64; 2]) -> Option<String> {
    let start = u32::try_from(offset).ok()?;
    let end = start.checked_add(u32::try_from(len).ok()?)?;
    if end > pack.length() {
        return None;
    }
    String::from_utf8(pack.subarray(start, end).to_vec()).ok()
}

fn cached_bytes(bundle: &str, file: &str) -> Option<js_sys::Uint8Array> {
    CACHES.with(|c| {
        c.borrow()
            .get(bundle)
            .and_then(|cache| cache.bytes.get(file))
            .and_then(|f| f.peek().cloned())
            .and_then(Result::ok)
    })
}

/// Everything the worker needs to score submissions for task `id`: the task file and manifest
/// (as text) and the carried blobs — from the repository's pack if it was preloaded
/// ([`preload_pack`]), else one request per blob.
pub async fn load_task_inputs(bundle: &str, id: &str) -> Result<TaskInputs, String> {
    let index = load_index(bundle).await?;
    let (task, task_json, task_file) = load_task_with_text(bundle, id).await?;
    let manifest_file = manifest_file(bundle, &task.repo).await?;
    let manifest = load_manifest(bundle, &task.repo).await?;
    let manifest_json = load_manifest_text(bundle, &manifest_file).await?;
    let pack_bytes = manifest.pack.as_ref().and_then(|p| cached_bytes(bundle, &p.file));
    let blobs = match (&manifest.pack, pack_bytes) {
        (Some(pack), Some(bytes))
            if task.files.iter().all(|f| pack.blobs.contains_key(&f.blob)) =>
        {
            // The whole pack, under its own name: the worker keeps it for the repository's other
            // tasks, so it crosses to the worker once.
            vec![(Rc::new(pack.clone()), bytes)]
        }
        _ => {
            let mut wanted: Vec<&str> = task.files.iter().map(|f| f.blob.as_str()).collect();
            wanted.sort_unstable();
            wanted.dedup();
            let loads = wanted.iter().map(|blob| async move {
                let file = blob_file(blob);
                load_bytes(bundle, &file).await.map(|bytes| {
                    let pack = Pack {
                        file,
                        blobs: BTreeMap::from([(blob.to_string(), [0, u64::from(bytes.length())])]),
                    };
                    (Rc::new(pack), bytes)
                })
            });
            futures::future::try_join_all(loads).await?
        }
    };
    Ok(TaskInputs {
        bundle: bundle.to_string(),
        bundle_hash: index.bundle_hash.clone(),
        task,
        task_file,
        task_json,
        manifest_file,
        manifest_json,
        blobs,
    })
}

/// The base bytes of a file task `id` carries (for showing the files the tests inspect), or `None`
/// when the task does not carry it (the manifest may still list it: only its blob id is known).
pub async fn load_file(bundle: &str, id: &str, path: &str) -> Result<Option<Vec<u8>>, String> {
    let task = load_task(bundle, id).await?;
    let Some(need) = task.files.iter().find(|f| f.path.as_str() == path) else {
        return Ok(None);
    };
    let bytes = load_bytes(bundle, &blob_file(&need.blob)).await?;
    let bytes = bytes.to_vec();
    let actual = scorer::tree::git_blob_id(&bytes);
    if actual != need.blob {
        return Err(format!("{path}: blob {} is corrupt (hashes to {actual})", need.blob));
    }
    Ok(Some(bytes))
}

/// The selected bundle, provided by the app root; views read it with [`use_bundle`].
#[derive(Clone, Copy)]
pub struct BundleContext {
    /// Name of the bundle the task pages show.
    pub selected: RwSignal<String>,
    /// The bundles the site serves.
    pub list: LocalResource<Result<Rc<BundleList>, String>>,
    /// A bundle the URL (`?bundle=`) named that this site does not serve: said, not hidden.
    pub unknown: RwSignal<Option<String>>,
}

impl std::fmt::Debug for BundleContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BundleContext").field("selected", &self.selected.get_untracked()).finish()
    }
}

/// Where the user's choice of bundle is remembered between visits.
const STORAGE_KEY: &str = "refscore.bundle";

/// Creates and provides the [`BundleContext`]: the bundle from `?bundle=NAME`, else the one chosen
/// last time, else the site's default. Called once by the app root.
pub fn provide_bundle_context() -> BundleContext {
    let from_url = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| crate::routes::query_value(&q, "bundle"))
        .filter(|n| is_valid_bundle_name(n));
    let stored = local_storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .filter(|n| is_valid_bundle_name(n));
    let linked = from_url.is_some();
    let selected = RwSignal::new(from_url.or(stored).unwrap_or_else(default_name));
    let list = LocalResource::new(load_bundle_list);
    let unknown = RwSignal::new(None::<String>);
    // A stored or linked name the site no longer serves falls back to the site's default; a
    // linked one is named in a notice.
    Effect::new(move |_| {
        if let Some(Ok(list)) = list.get() {
            let current = selected.get_untracked();
            if !list.bundles.iter().any(|b| b.name == current) {
                if linked {
                    unknown.set(Some(current));
                }
                selected.set(list.default.clone());
            }
        }
    });
    let ctx = BundleContext { selected, list, unknown };
    provide_context(ctx);
    ctx
}

impl BundleContext {
    /// Follows a `?bundle=` of an in-app link (a run's link to its own bundle's task): selects it
    /// when the site serves it, else names it in [`BundleContext::unknown`].
    pub fn follow_link(&self, name: &str) {
        if name == self.selected.get_untracked() {
            return;
        }
        let served = match self.list.get_untracked() {
            Some(Ok(list)) => list.bundles.iter().any(|b| b.name == name),
            // Not loaded yet: the list's own check above corrects a wrong name.
            _ => true,
        };
        if served && is_valid_bundle_name(name) {
            self.unknown.set(None);
            self.select(name);
        } else {
            self.unknown.set(Some(name.to_string()));
        }
    }

    /// Switches bundle and remembers the choice.
    pub fn select(&self, name: &str) {
        if is_valid_bundle_name(name) {
            if let Some(s) = local_storage() {
                // Private modes may refuse storage; the choice then lasts for this page only.
                let _ = s.set_item(STORAGE_KEY, name);
            }
            self.selected.set(name.to_string());
        }
    }
}

/// The app's [`BundleContext`] (a demo-only context outside the app root, e.g. in tests).
pub fn use_bundle() -> BundleContext {
    use_context::<BundleContext>().unwrap_or_else(provide_bundle_context)
}

/// The selected bundle's index; reloads when the selection changes.
pub fn index_resource() -> LocalResource<Result<Rc<BundleIndex>, String>> {
    let ctx = use_bundle();
    LocalResource::new(move || {
        let bundle = ctx.selected.get();
        async move { load_index(&bundle).await }
    })
}

/// Task `id` of the selected bundle; reloads when either changes.
pub fn task_resource(id: Signal<String>) -> LocalResource<Result<Rc<TaskData>, String>> {
    let ctx = use_bundle();
    LocalResource::new(move || {
        let bundle = ctx.selected.get();
        let id = id.get();
        async move { load_task(&bundle, &id).await }
    })
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundle_file_names_stay_inside_the_bundle() {
        assert!(is_safe_relative("tasks/a.0123.json"));
        assert!(is_safe_relative("blobs/abc.txt"));
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a//b", "https://evil/x", "a\\b", "./a"]
        {
            assert!(!is_safe_relative(bad), "{bad}");
        }
    }

    #[test]
    fn bundle_list_parses_and_drops_unsafe_names() {
        let list = BundleList::from_json(
            r#"{"default":"demo","bundles":[{"name":"demo","tasks":9,"bundle_hash":"ab"},{"name":"../x"}]}"#,
        )
        .unwrap();
        assert_eq!(list.bundles.len(), 1);
        assert_eq!(list.bundles[0].tasks, 9);
        assert_eq!(BundleList::from_json(r#"{"bundles":[]}"#).unwrap().default, "demo");
        assert!(BundleList::from_json("{").is_err());
    }
}
