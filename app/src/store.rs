//! Runs persisted in the browser's IndexedDB, so they survive reloads until the user deletes them.
//!
//! Database `refscore`, two object stores keyed by run id, values are JSON strings:
//! `runs` holds the small [`RunMeta`] rows the list shows, `reports` the [`StoredRun`] bodies
//! (the report itself, the tasks' metadata and the submitted patches), read only when a run opens.
//! `trajectories` (version 2) holds the agent logs a run was scored from, one record per run (an
//! object of file name → `Blob`), and the last log dropped on `/trajectory` under [`DROPPED`].

use std::cell::RefCell;
use std::sync::Arc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbRequest, IdbTransactionMode};

use crate::runs::{RunMeta, StoredRun};

const DB: &str = "refscore";
const DB_VERSION: u32 = 2;
const RUNS: &str = "runs";
const REPORTS: &str = "reports";
const TRAJ: &str = "trajectories";
/// The `trajectories` key of the log last dropped on the standalone viewer.
pub const DROPPED: &str = "~dropped";

thread_local! {
    /// The run this tab stored last: the run page opens it right after scoring, and reading it
    /// back would parse the JSON just written (a long task on the UI thread for a big run).
    static LAST_SAVED: RefCell<Option<Arc<StoredRun>>> = const { RefCell::new(None) };
}

/// A promise that settles with an IndexedDB request.
fn request_done(req: &IdbRequest) -> JsFuture {
    let req = req.clone();
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        let r = req.clone();
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call1(&JsValue::NULL, &r.result().unwrap_or(JsValue::UNDEFINED));
        });
        let r = req.clone();
        let err = Closure::once_into_js(move |_: web_sys::Event| {
            let msg = r
                .error()
                .ok()
                .flatten()
                .map(|e| e.message())
                .unwrap_or_else(|| "IndexedDB request failed".to_string());
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(&msg));
        });
        req.set_onsuccess(Some(ok.unchecked_ref()));
        req.set_onerror(Some(err.unchecked_ref()));
    });
    JsFuture::from(promise)
}

/// A promise that settles when a transaction commits (so a reload right after sees the data).
fn transaction_done(tx: &web_sys::IdbTransaction) -> JsFuture {
    let tx = tx.clone();
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        let ok = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = resolve.call0(&JsValue::NULL);
        });
        let reject2 = reject.clone();
        let err = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = reject.call1(&JsValue::NULL, &"IndexedDB transaction failed".into());
        });
        let abort = Closure::once_into_js(move |_: web_sys::Event| {
            let _ = reject2.call1(&JsValue::NULL, &"IndexedDB transaction aborted".into());
        });
        tx.set_oncomplete(Some(ok.unchecked_ref()));
        tx.set_onerror(Some(err.unchecked_ref()));
        tx.set_onabort(Some(abort.unchecked_ref()));
    });
    JsFuture::from(promise)
}

fn js_err(e: JsValue) -> String {
    crate::net::js_error_text(&e)
}

async fn open() -> Result<IdbDatabase, String> {
    let factory = web_sys::window()
        .ok_or("no window")?
        .indexed_db()
        .map_err(js_err)?
        .ok_or("this browser offers no IndexedDB (private mode?)")?;
    let req = factory.open_with_u32(DB, DB_VERSION).map_err(js_err)?;
    let upgrade_req = req.clone();
    let on_upgrade = Closure::once_into_js(move |_: web_sys::Event| {
        if let Ok(db) = upgrade_req.result().and_then(|r| r.dyn_into::<IdbDatabase>()) {
            let names = db.object_store_names();
            for store in [RUNS, REPORTS, TRAJ] {
                if !names.contains(store) {
                    let _ = db.create_object_store(store);
                }
            }
        }
    });
    req.set_onupgradeneeded(Some(on_upgrade.unchecked_ref()));
    let db = request_done(&req).await.map_err(js_err)?;
    db.dyn_into::<IdbDatabase>().map_err(|_| "IndexedDB: not a database".to_string())
}

/// Every stored run's list row, newest first.
pub async fn list_runs() -> Result<Vec<RunMeta>, String> {
    let db = open().await?;
    let tx = db.transaction_with_str(RUNS).map_err(js_err)?;
    let req = tx.object_store(RUNS).map_err(js_err)?.get_all().map_err(js_err)?;
    let all = request_done(&req).await.map_err(js_err)?;
    let mut runs: Vec<RunMeta> = js_sys::Array::from(&all)
        .iter()
        .filter_map(|v| v.as_string())
        .filter_map(|s| serde_json::from_str(&s).ok())
        .collect();
    runs.sort_by(|a, b| b.created_ms.total_cmp(&a.created_ms));
    Ok(runs)
}

/// Stores a run (replacing one with the same id) and waits until it is committed.
pub async fn save_run(run: StoredRun) -> Result<(), String> {
    let db = open().await?;
    let stores = js_sys::Array::of2(&RUNS.into(), &REPORTS.into());
    let tx = db
        .transaction_with_str_sequence_and_mode(&stores, IdbTransactionMode::Readwrite)
        .map_err(js_err)?;
    let meta = serde_json::to_string(&run.meta).map_err(|e| e.to_string())?;
    let body = serde_json::to_string(&run).map_err(|e| e.to_string())?;
    let key = JsValue::from_str(&run.meta.id);
    tx.object_store(RUNS).map_err(js_err)?.put_with_key(&meta.into(), &key).map_err(js_err)?;
    tx.object_store(REPORTS).map_err(js_err)?.put_with_key(&body.into(), &key).map_err(js_err)?;
    transaction_done(&tx).await.map_err(js_err)?;
    LAST_SAVED.with(|l| *l.borrow_mut() = Some(Arc::new(run)));
    Ok(())
}

/// One stored run, or `None` if there is no run with that id.
pub async fn load_run(id: &str) -> Result<Option<Arc<StoredRun>>, String> {
    let last = LAST_SAVED.with(|l| l.borrow().as_ref().filter(|r| r.meta.id == id).cloned());
    if last.is_some() {
        return Ok(last);
    }
    let db = open().await?;
    let tx = db.transaction_with_str(REPORTS).map_err(js_err)?;
    let req = tx.object_store(REPORTS).map_err(js_err)?.get(&id.into()).map_err(js_err)?;
    let value = request_done(&req).await.map_err(js_err)?;
    match value.as_string() {
        None => Ok(None),
        Some(text) => serde_json::from_str::<StoredRun>(&text)
            .map(|mut r| {
                // A run stored by an older build counts as this build counts.
                r.report.upgrade();
                Some(Arc::new(r))
            })
            .map_err(|e| format!("stored run {id} is unreadable: {e}")),
    }
}

/// Deletes a run and waits until it is committed.
pub async fn delete_run(id: &str) -> Result<(), String> {
    LAST_SAVED.with(|l| l.borrow_mut().take_if(|r| r.meta.id == id));
    let db = open().await?;
    let stores = js_sys::Array::of3(&RUNS.into(), &REPORTS.into(), &TRAJ.into());
    let tx = db
        .transaction_with_str_sequence_and_mode(&stores, IdbTransactionMode::Readwrite)
        .map_err(js_err)?;
    let key = JsValue::from_str(id);
    tx.object_store(RUNS).map_err(js_err)?.delete(&key).map_err(js_err)?;
    tx.object_store(REPORTS).map_err(js_err)?.delete(&key).map_err(js_err)?;
    tx.object_store(TRAJ).map_err(js_err)?.delete(&key).map_err(js_err)?;
    transaction_done(&tx).await.map_err(js_err)?;
    Ok(())
}

/// Stores files (name → bytes, kept as `Blob`s) as the one record `key` of `trajectories`.
pub async fn save_files(key: &str, files: &[(String, js_sys::Uint8Array)]) -> Result<(), String> {
    let db = open().await?;
    let tx =
        db.transaction_with_str_and_mode(TRAJ, IdbTransactionMode::Readwrite).map_err(js_err)?;
    let record = js_sys::Object::new();
    for (name, bytes) in files {
        let blob = web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(bytes))
            .map_err(js_err)?;
        js_sys::Reflect::set(&record, &name.into(), &blob).map_err(js_err)?;
    }
    tx.object_store(TRAJ).map_err(js_err)?.put_with_key(&record, &key.into()).map_err(js_err)?;
    transaction_done(&tx).await.map_err(js_err)?;
    Ok(())
}

/// The names and blobs of record `key` of `trajectories` (empty when there is none).
pub async fn load_files(key: &str) -> Result<Vec<(String, web_sys::Blob)>, String> {
    let db = open().await?;
    let tx = db.transaction_with_str(TRAJ).map_err(js_err)?;
    let req = tx.object_store(TRAJ).map_err(js_err)?.get(&key.into()).map_err(js_err)?;
    let value = request_done(&req).await.map_err(js_err)?;
    if !value.is_object() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for name in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let Some(name) = name.as_string() else { continue };
        let blob = js_sys::Reflect::get(&value, &name.clone().into()).map_err(js_err)?;
        if let Ok(blob) = blob.dyn_into::<web_sys::Blob>() {
            out.push((name, blob));
        }
    }
    Ok(out)
}

/// A blob's bytes.
pub async fn blob_bytes(blob: &web_sys::Blob) -> Result<js_sys::Uint8Array, String> {
    let buf = JsFuture::from(blob.array_buffer()).await.map_err(js_err)?;
    Ok(js_sys::Uint8Array::new(&buf))
}
