//! Gathering uploaded files: file pickers, folder pickers, drag and drop of files and folders, and
//! zip archives (inflated by the browser's `DecompressionStream`). Files stay byte arrays on the JS
//! side; nothing uploaded is ever rendered as HTML.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::net::js_error_text;

/// One uploaded file, with its path as the user gave it (folders included).
#[derive(Clone)]
pub struct Upload {
    pub name: String,
    pub bytes: js_sys::Uint8Array,
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Upload({}, {} bytes)", self.name, self.bytes.length())
    }
}

/// Largest single upload (and largest total of a zip's entries) read: beyond it the user gets a
/// clear message instead of a tab that runs out of memory.
pub const MAX_BYTES: u64 = 256 << 20;

/// Whether a file of a folder or zip is worth reading: submissions and patches, not hidden files.
pub fn is_candidate(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let hidden = path.split('/').any(|seg| seg.starts_with('.') || seg == "__MACOSX");
    !hidden
        && [".jsonl", ".json", ".traj", ".pred", ".patch", ".diff", ".zip", ".eval"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

async fn file_bytes(file: &web_sys::File) -> Result<js_sys::Uint8Array, String> {
    if file.size() > MAX_BYTES as f64 {
        return Err(format!("{}: larger than {} MB", file.name(), MAX_BYTES >> 20));
    }
    let buf = JsFuture::from(file.array_buffer()).await.map_err(|e| js_error_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buf))
}

/// The path of a file picked with a folder picker (`webkitRelativePath`), else its name.
fn picked_name(file: &web_sys::File) -> String {
    js_sys::Reflect::get(file, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| file.name())
}

/// Reads the files of a `<input type=file>` (with or without `webkitdirectory`).
pub async fn from_file_list(list: Option<web_sys::FileList>) -> (Vec<Upload>, Vec<String>) {
    let mut files = Vec::new();
    if let Some(list) = list {
        for i in 0..list.length() {
            if let Some(f) = list.item(i) {
                files.push(f);
            }
        }
    }
    let picked_folder = files.iter().any(|f| picked_name(f).contains('/'));
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for f in files {
        let name = picked_name(&f);
        if picked_folder && !is_candidate(&name) {
            continue;
        }
        match file_bytes(&f).await {
            Ok(bytes) => expand(name, bytes, &mut out, &mut problems).await,
            Err(e) => problems.push(e),
        }
    }
    (out, problems)
}

/// A zip is replaced by its candidate entries; anything else is kept as is.
async fn expand(
    name: String,
    bytes: js_sys::Uint8Array,
    out: &mut Vec<Upload>,
    problems: &mut Vec<String>,
) {
    if !name.to_ascii_lowercase().ends_with(".zip") {
        out.push(Upload { name, bytes });
        return;
    }
    let raw = bytes.to_vec();
    let entries = match crate::zip::entries(&raw) {
        Ok(e) => e,
        Err(e) => {
            problems.push(format!("{name}: {e}"));
            return;
        }
    };
    let mut total = 0u64;
    for e in entries {
        let path = format!("{name}/{}", e.name);
        if !is_candidate(&e.name) || e.name.to_ascii_lowercase().ends_with(".zip") {
            continue;
        }
        total = total.saturating_add(e.size);
        if total > MAX_BYTES {
            problems.push(format!(
                "{name}: more than {} MB uncompressed; the rest is skipped",
                MAX_BYTES >> 20
            ));
            break;
        }
        let data = &raw[e.data.clone()];
        let bytes = match e.method {
            0 => Ok(js_sys::Uint8Array::from(data)),
            8 => inflate_raw(data).await,
            m => Err(format!("compression method {m} is not supported")),
        };
        match bytes {
            Ok(bytes) => out.push(Upload { name: path, bytes }),
            Err(msg) => problems.push(format!("{path}: {msg}")),
        }
    }
}

/// Inflates raw deflate data with the browser's `DecompressionStream('deflate-raw')`.
async fn inflate_raw(data: &[u8]) -> Result<js_sys::Uint8Array, String> {
    let global = js_sys::global();
    let ctor = js_sys::Reflect::get(&global, &"DecompressionStream".into())
        .ok()
        .and_then(|c| c.dyn_into::<js_sys::Function>().ok())
        .ok_or("this browser cannot decompress zip files (no DecompressionStream)")?;
    let ds = js_sys::Reflect::construct(&ctor, &js_sys::Array::of1(&"deflate-raw".into()))
        .map_err(|e| js_error_text(&e))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(data));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(|e| js_error_text(&e))?;
    let stream = blob.stream();
    let pipe = js_sys::Reflect::get(&stream, &"pipeThrough".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("no pipeThrough")?;
    let inflated: web_sys::ReadableStream =
        pipe.call1(&stream, &ds).map_err(|e| js_error_text(&e))?.unchecked_into();
    let resp = web_sys::Response::new_with_opt_readable_stream(Some(&inflated))
        .map_err(|e| js_error_text(&e))?;
    let buf = resp.array_buffer().map_err(|e| js_error_text(&e))?;
    let buf = JsFuture::from(buf).await.map_err(|e| js_error_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buf))
}

/// What a drop held, taken synchronously inside the `drop` handler (the browser empties the
/// `DataTransfer` afterwards): folder entries where the browser offers them, else plain files.
pub struct Dropped {
    entries: Vec<web_sys::FileSystemEntry>,
    files: Vec<web_sys::File>,
}

impl std::fmt::Debug for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Dropped({} entries, {} files)", self.entries.len(), self.files.len())
    }
}

pub fn take_drop(ev: &web_sys::DragEvent) -> Dropped {
    let mut entries = Vec::new();
    let mut files = Vec::new();
    if let Some(dt) = ev.data_transfer() {
        let items = dt.items();
        for i in 0..items.length() {
            if let Some(entry) = items.get(i).and_then(|it| it.webkit_get_as_entry().ok().flatten())
            {
                entries.push(entry);
            }
        }
        if entries.is_empty() {
            if let Some(list) = dt.files() {
                for i in 0..list.length() {
                    if let Some(f) = list.item(i) {
                        files.push(f);
                    }
                }
            }
        }
    }
    Dropped { entries, files }
}

/// Reads everything a drop held, walking dropped folders.
pub async fn read_drop(dropped: Dropped) -> (Vec<Upload>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for f in dropped.files {
        let name = f.name();
        match file_bytes(&f).await {
            Ok(bytes) => expand(name, bytes, &mut out, &mut problems).await,
            Err(e) => problems.push(e),
        }
    }
    let mut stack: Vec<(web_sys::FileSystemEntry, bool)> =
        dropped.entries.into_iter().rev().map(|e| (e, true)).collect();
    while let Some((entry, top)) = stack.pop() {
        let path = entry.full_path().trim_start_matches('/').to_string();
        if entry.is_directory() {
            let dir: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            match read_dir(&dir).await {
                Ok(children) => stack.extend(children.into_iter().rev().map(|c| (c, false))),
                Err(e) => problems.push(format!("{path}: {e}")),
            }
        } else if top || is_candidate(&path) {
            let file_entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
            let file = match entry_file(&file_entry).await {
                Ok(f) => f,
                Err(e) => {
                    problems.push(format!("{path}: {e}"));
                    continue;
                }
            };
            match file_bytes(&file).await {
                Ok(bytes) => expand(path, bytes, &mut out, &mut problems).await,
                Err(e) => problems.push(e),
            }
        }
    }
    (out, problems)
}

/// All children of a dropped folder (`readEntries` answers in batches until an empty one).
async fn read_dir(
    dir: &web_sys::FileSystemDirectoryEntry,
) -> Result<Vec<web_sys::FileSystemEntry>, String> {
    let reader = dir.create_reader();
    let mut all = Vec::new();
    loop {
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            let ok = Closure::once_into_js(move |v: JsValue| {
                let _ = resolve.call1(&JsValue::NULL, &v);
            });
            let err = Closure::once_into_js(move |v: JsValue| {
                let _ = reject.call1(&JsValue::NULL, &v);
            });
            let _ = reader
                .read_entries_with_callback_and_callback(ok.unchecked_ref(), err.unchecked_ref());
        });
        let batch = JsFuture::from(promise).await.map_err(|e| js_error_text(&e))?;
        let batch = js_sys::Array::from(&batch);
        if batch.length() == 0 {
            break;
        }
        all.extend(batch.iter().map(|e| e.unchecked_into::<web_sys::FileSystemEntry>()));
    }
    Ok(all)
}

async fn entry_file(entry: &web_sys::FileSystemFileEntry) -> Result<web_sys::File, String> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        let ok = Closure::once_into_js(move |v: JsValue| {
            let _ = resolve.call1(&JsValue::NULL, &v);
        });
        let err = Closure::once_into_js(move |v: JsValue| {
            let _ = reject.call1(&JsValue::NULL, &v);
        });
        entry.file_with_callback_and_callback(ok.unchecked_ref(), err.unchecked_ref());
    });
    let file = JsFuture::from(promise).await.map_err(|e| js_error_text(&e))?;
    file.dyn_into::<web_sys::File>().map_err(|_| "not a file".to_string())
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)
        .map_err(|e| js_error_text(&e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| js_error_text(&e))?;
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement =
        doc.create_element("a").map_err(|e| js_error_text(&e))?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_submissions_not_hidden_files() {
        assert!(is_candidate("run/preds.jsonl"));
        assert!(is_candidate("trajs/a.traj"));
        assert!(is_candidate("x.traj.json"));
        assert!(is_candidate("fix.PATCH"));
        assert!(is_candidate("logs/2026-run.eval"));
        assert!(!is_candidate("run/.DS_Store"));
        assert!(!is_candidate("__MACOSX/run/a.traj"));
        assert!(!is_candidate(".git/config.json"));
        assert!(!is_candidate("notes.txt"));
    }
}
