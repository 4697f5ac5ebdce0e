//! Shared helpers of the `import`, `score` and `report` integration tests: the demo bundle (imported once
//! per test binary), temporary folders and running `refscore`.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

pub(crate) fn demo() -> PathBuf {
    workspace().join("tasks/demo")
}

/// A fresh, empty temporary folder (removed when dropped).
pub(crate) struct Temp(pub PathBuf);

impl Temp {
    pub(crate) fn new(tag: &str) -> Temp {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let p = std::env::temp_dir().join(format!("refscore-cli-{}-{tag}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&p);
        fs::create_dir_all(&p).expect("temp dir");
        Temp(p)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs `refscore` in `cwd`.
pub(crate) fn refscore_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_refscore"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("run refscore")
}

/// The demo bundle, imported once per test binary into the target's temporary folder.
pub(crate) fn bundle(tag: &str) -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("demo-bundle-{tag}"));
        let o = refscore_in(
            &workspace(),
            &["import", "--from", "tasks/demo", "--out", out.to_str().expect("utf-8 path")],
        );
        assert!(o.status.success(), "import: {}", String::from_utf8_lossy(&o.stderr));
        out
    })
    .clone()
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The bundle hash of the demo bundle (for redacting it from snapshots).
pub(crate) fn bundle_hash(dir: &Path) -> String {
    let index: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.join("index.json")).expect("index")).expect("json");
    index["bundle_hash"].as_str().expect("hash").to_string()
}

/// `text` with the bundle hash and the scorer version replaced, so snapshots survive a change
/// of the demo or a version bump.
pub(crate) fn redact(text: &str, hash: &str) -> String {
    text.replace(hash, "[bundle-hash]")
        .replace(
            &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
            "\"version\": \"[version]\"",
        )
        .replace(&format!("refscore {}", env!("CARGO_PKG_VERSION")), "refscore [version]")
}
