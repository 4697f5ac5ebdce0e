//! CPython's outcomes stored next to the tests, so `cargo test` holds the scorer to CPython 3.11
//! on a machine without python3, and a live comparison still runs where python3.11 is present.
//!
//! Each test module's cases live in `expected/<module>.json`: one key per case (the test file's
//! name and a hash of its source and repository files) mapping to CPython's outcome records.
//! - python3 is 3.11: CPython runs live; its outcome must equal the stored one (a difference
//!   means the case changed or CPython's answer moved: re-bless). With `REFSCORE_BLESS=1` the
//!   live outcome is stored instead (`scripts/bless-expected.sh` rebuilds every file from scratch).
//! - otherwise: the stored outcome is the reference; a case with none fails and says how to bless.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

/// Whether `python3` is CPython 3.11 (the official harness's version), checked once.
pub(crate) fn python311() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.implementation.name, *sys.version_info[:2])"])
            .output();
        let ok = out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "cpython 3 11");
        if !ok {
            eprintln!("python3.11 not found: CPython's outcomes come from tests/suite/expected/");
        }
        ok
    })
}

/// What `python3 -c code` prints with `input` on its stdin (UTF-8 both ways); panics, naming
/// python3's stderr, if it cannot run or fails. The differential tests' one way to feed CPython.
pub(crate) fn python3_stdin(code: &str, input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new("python3")
        .args(["-c", code])
        .env("PYTHONIOENCODING", "utf-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed (3.11)");
    child.stdin.take().expect("stdin").write_all(input).expect("write");
    let out = child.wait_with_output().expect("python3 output");
    assert!(out.status.success(), "python3 failed: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Whether this run stores live outcomes (`REFSCORE_BLESS=1`).
fn blessing() -> bool {
    std::env::var("REFSCORE_BLESS").is_ok_and(|v| v == "1")
}

/// FNV-1a over the case's parts, each length-prefixed so no two cases share a stream.
fn hash(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The key of a case: readable name plus a hash of everything CPython's answer depends on.
pub(crate) fn case_key(name: &str, files: &[(&str, &[u8])], source: &str) -> String {
    let mut parts: Vec<&[u8]> = vec![name.as_bytes(), source.as_bytes()];
    for (path, bytes) in files {
        parts.push(path.as_bytes());
        parts.push(bytes);
    }
    format!("{name}#{:016x}", hash(&parts))
}

/// The file holding `module`'s cases.
fn store_path(module: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/suite/expected")
        .join(format!("{module}.json"))
}

type Store = BTreeMap<String, Value>;

/// Every store read so far, by module; written back whole when blessing.
fn stores() -> &'static Mutex<BTreeMap<String, Store>> {
    static STORES: OnceLock<Mutex<BTreeMap<String, Store>>> = OnceLock::new();
    STORES.get_or_init(|| Mutex::new(BTreeMap::new()))
}

fn load(module: &str) -> Store {
    match std::fs::read_to_string(store_path(module)) {
        Ok(text) => serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", store_path(module).display())),
        Err(_) => Store::new(),
    }
}

/// The test module a caller's source file is (`…/tests/suite/interp_values.rs` → `interp_values`).
pub(crate) fn module_of(file: &str) -> String {
    Path::new(file).file_stem().and_then(|s| s.to_str()).unwrap_or("unknown").to_string()
}

/// A store as JSON, one case per line (compact, and a re-bless diffs by case).
fn render(store: &Store) -> String {
    let mut out = String::from("{\n");
    for (i, (key, value)) in store.iter().enumerate() {
        let comma = if i + 1 < store.len() { "," } else { "" };
        let key = serde_json::to_string(key).expect("json");
        out.push_str(&format!("{key}: {}{comma}\n", serde_json::to_string(value).expect("json")));
    }
    out + "}\n"
}

/// CPython's outcome for one case: `live` runs it under python3.11 when present.
pub(crate) fn cpython_outcome(module: &str, key: &str, live: impl FnOnce() -> Value) -> Value {
    let stored = {
        let mut all = stores().lock().unwrap_or_else(|p| p.into_inner());
        all.entry(module.to_string()).or_insert_with(|| load(module)).get(key).cloned()
    };
    if !python311() {
        return stored.unwrap_or_else(|| {
            panic!(
                "{module}: no stored CPython outcome for case {key}; run \
                 scripts/bless-expected.sh where python3.11 is installed"
            )
        });
    }
    let value = live();
    if blessing() {
        let mut all = stores().lock().unwrap_or_else(|p| p.into_inner());
        let store = all.entry(module.to_string()).or_insert_with(|| load(module));
        store.insert(key.to_string(), value.clone());
        let path = store_path(module);
        std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir expected/");
        let text = render(store);
        std::fs::write(&path, text).expect("write expected outcome");
    } else {
        match stored {
            Some(s) if s == value => {}
            Some(s) => panic!(
                "{module}: case {key}: the stored CPython outcome differs from python3's \
                 (re-bless with scripts/bless-expected.sh):\n stored: {s}\n live:   {value}"
            ),
            None => panic!(
                "{module}: case {key} has no stored CPython outcome: run \
                 scripts/bless-expected.sh and commit tests/suite/expected/"
            ),
        }
    }
    value
}
