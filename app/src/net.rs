//! Fetching static files of the site (bundles) relative to the document's base URL.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

async fn fetch_response(path: &str, fresh: bool) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    if fresh {
        // Revalidate with the server: for the few files whose names are not content-addressed.
        init.set_cache(web_sys::RequestCache::NoCache);
    }
    let resp = JsFuture::from(window.fetch_with_str_and_init(path, &init))
        .await
        .map_err(|e| format!("{path}: request failed: {}", js_error_text(&e)))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| format!("{path}: not a response"))?;
    if !resp.ok() {
        return Err(format!("{path}: HTTP {}", resp.status()));
    }
    Ok(resp)
}

async fn body_text(path: &str, resp: web_sys::Response) -> Result<String, String> {
    let text = resp.text().map_err(|e| format!("{path}: {}", js_error_text(&e)))?;
    let text = JsFuture::from(text).await.map_err(|e| format!("{path}: {}", js_error_text(&e)))?;
    text.as_string().ok_or_else(|| format!("{path}: body is not text"))
}

/// Fetches `path` (relative to the base URL) as text; the error says which URL failed and why.
pub async fn fetch_text(path: &str) -> Result<String, String> {
    let resp = fetch_response(path, false).await?;
    body_text(path, resp).await
}

/// Like [`fetch_text`], but revalidated with the server (`index.json`, `bundles.json`).
pub async fn fetch_text_fresh(path: &str) -> Result<String, String> {
    let resp = fetch_response(path, true).await?;
    body_text(path, resp).await
}

/// Fetches `path` as raw bytes (blobs and packs may hold any bytes), kept on the JS side.
pub async fn fetch_bytes(path: &str) -> Result<js_sys::Uint8Array, String> {
    let resp = fetch_response(path, false).await?;
    let buf = resp.array_buffer().map_err(|e| format!("{path}: {}", js_error_text(&e)))?;
    let buf = JsFuture::from(buf).await.map_err(|e| format!("{path}: {}", js_error_text(&e)))?;
    Ok(js_sys::Uint8Array::new(&buf))
}

/// Milliseconds since the epoch (the clock for intervals the UI keeps, such as progress updates).
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// A user-timing mark (`performance.mark`): the phases of a run, for Chromium traces and
/// `tests/e2e/speed.mjs`. Nothing when the page has no `performance`.
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// A readable message for a thrown JS value (an `Error`'s message, or the value's text).
pub fn js_error_text(e: &wasm_bindgen::JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

/// The router base: the path of `<base href>` (set by `trunk build --public-url`), without the
/// trailing slash; empty when the site is served at the root.
pub fn base_path() -> String {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return String::new() };
    let href = doc
        .query_selector("base")
        .ok()
        .flatten()
        .and_then(|b| b.get_attribute("href"))
        .unwrap_or_default();
    let path = href.trim_end_matches('/');
    if path.starts_with('/') {
        path.to_string()
    } else {
        String::new()
    }
}

/// An absolute in-app URL for `route` (which starts with `/`), under the site's base path.
/// For links (`<a href>`). Router navigation to such a URL needs `resolve: false`: otherwise the
/// router prefixes the base again (`/refscore/refscore/runs/…` under a sub-path).
pub fn href(route: &str) -> String {
    format!("{}{route}", base_path())
}
