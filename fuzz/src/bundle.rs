//! The bundle reader as the CLI and the Python package use it (`cli::bundle_dir::BundleDir`): a
//! folder of files written from the input, opened, every task loaded (data, manifest, blobs, base
//! tree) and every pack split.
//!
//! Input format: sections, each starting with a line `==> <relative path>`; the bytes up to the
//! next such line, less the one newline before it, are the file. Paths are written only when every component is a plain name
//! (letters, digits, `.`, `-`, `_`, not `.`/`..`), so the harness itself never writes outside its
//! folder; what the index *names* is left to the reader. The index's `bundle_hash` is set to the
//! hash of the files written, so inputs get past the hash check and reach the task readers.
//! Findings: a panic, or a path the reader accepts that resolves outside the bundle folder.

use std::path::Path;

use cli::bundle_dir::BundleDir;
use cli::fsread::inside;
use scorer::bundle::{blob_file, bundle_hash, BundleIndex};

/// Folders whose files the bundle hash covers (as `BundleDir::open` walks them).
const HASHED: [&str; 4] = ["tasks", "repos", "blobs", "packs"];

/// The files an input describes, in order; later sections with the same path win.
pub fn sections(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();
    let mut cur: Option<(String, Vec<u8>)> = None;
    for line in data.split_inclusive(|&b| b == b'\n') {
        if let Some(rest) = line.strip_prefix(b"==> ") {
            if let Some(done) = cur.take() {
                out.push(done);
            }
            let name = String::from_utf8_lossy(rest).trim_end_matches(['\n', '\r']).to_string();
            cur = Some((name, Vec::new()));
        } else if let Some((_, body)) = cur.as_mut() {
            body.extend_from_slice(line);
        }
    }
    out.extend(cur);
    // The newline before a header (or at the end) separates; it is not the file's.
    for (_, body) in &mut out {
        if body.last() == Some(&b'\n') {
            body.pop();
        }
    }
    out
}

/// Whether the harness may write `rel` (plain components only, at most four deep).
fn writable(rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    !rel.is_empty()
        && rel.len() <= 120
        && parts.len() <= 4
        && parts.iter().all(|c| {
            !c.is_empty()
                && *c != "."
                && *c != ".."
                && c.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        })
}

/// The target.
pub fn fuzz(data: &[u8]) {
    let scratch = crate::Scratch::new("bundle");
    let root = scratch.path();
    let dir = root.join("b");
    std::fs::create_dir_all(&dir).expect("bundle folder");
    // Something outside the bundle that a path escaping it would reach.
    std::fs::write(root.join("outside.json"), b"{}").expect("outside file");
    let mut files = sections(data);
    files.retain(|(p, _)| writable(p));
    if files.len() > 64 {
        files.truncate(64);
    }
    let mut index_text = None;
    let mut hashed: Vec<(String, Vec<u8>)> = Vec::new();
    for (rel, bytes) in &files {
        let p = dir.join(rel);
        if rel == "index.json" {
            index_text = Some(bytes.clone());
            continue;
        }
        // A name written as a file and then as a folder (or back) is skipped.
        let Some(parent) = p.parent() else { continue };
        if std::fs::create_dir_all(parent).is_err() || p.is_dir() {
            continue;
        }
        if std::fs::write(&p, bytes).is_ok()
            && HASHED.iter().any(|h| rel.starts_with(&format!("{h}/")))
        {
            hashed.retain(|(r, _)| r != rel);
            hashed.push((rel.clone(), bytes.clone()));
        }
    }
    if let Some(text) = index_text {
        let text = String::from_utf8_lossy(&text).into_owned();
        let bytes = match BundleIndex::from_json(&text) {
            Ok(mut index) => {
                let input = index.hash_input();
                index.bundle_hash = bundle_hash(
                    hashed
                        .iter()
                        .map(|(p, b)| (p.as_str(), b.as_slice()))
                        .chain(std::iter::once(("index.json", input.as_slice()))),
                );
                serde_json::to_vec(&index).expect("index serialises")
            }
            Err(_) => text.into_bytes(),
        };
        std::fs::write(dir.join("index.json"), bytes).expect("write index");
    }
    read_all(&dir);
}

/// Opens the bundle and reads everything it names, checking that every name the reader accepts
/// stays inside the folder.
fn read_all(dir: &Path) {
    let Ok(bundle) = BundleDir::open(dir) else { return };
    let stays_inside = |rel: &str| {
        if let Ok(p) = inside(dir, rel) {
            assert!(p.starts_with(dir), "{rel:?} resolves to {}", p.display());
            let lexical = p.strip_prefix(dir).expect("prefix");
            assert!(
                lexical.components().all(|c| matches!(c, std::path::Component::Normal(_))),
                "{rel:?} accepted with a non-plain component"
            );
        }
    };
    let _ = bundle.task_meta();
    for row in &bundle.index.repos {
        stays_inside(&row.manifest);
        if let Ok(m) = bundle.manifest_of(&row.name) {
            if let Some(pack) = &m.pack {
                stays_inside(&pack.file);
                if let Ok(bytes) = bundle.read(&pack.file) {
                    let _ = pack.split(&bytes);
                }
            }
        }
    }
    for row in &bundle.index.tasks {
        stays_inside(&row.data);
        if let Ok(data) = bundle.task_data(&row.id) {
            for need in &data.files {
                stays_inside(&blob_file(&need.blob));
            }
        }
        if let Ok(task) = bundle.load_task(&row.id) {
            // Every file the task carries bytes for is one its data lists.
            for (path, entry) in task.base.iter() {
                if entry.bytes().is_some() && !entry.mode.eq(&scorer::tree::FileMode::Symlink) {
                    assert!(
                        task.data.files.iter().any(|n| n.path == *path),
                        "{path}: bytes the task does not list"
                    );
                }
            }
        }
    }
}
