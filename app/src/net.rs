//! Fetching static files of the site (bundles) relative to the document's base URL.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Fetches `path` (relative to the base URL) as text; the error says which URL failed and why.
pub async fn fetch_text(path: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let resp = JsFuture::from(window.fetch_with_str(path))
        .await
        .map_err(|e| format!("{path}: request failed: {e:?}"))?;
    let resp: web_sys::Response = resp.dyn_into().map_err(|_| format!("{path}: not a response"))?;
    if !resp.ok() {
        return Err(format!("{path}: HTTP {}", resp.status()));
    }
    let text = resp.text().map_err(|e| format!("{path}: {e:?}"))?;
    let text = JsFuture::from(text).await.map_err(|e| format!("{path}: {e:?}"))?;
    text.as_string().ok_or_else(|| format!("{path}: body is not text"))
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
