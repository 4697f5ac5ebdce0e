//! Fuzz targets for everything refscore reads from users: patches (against real `git apply`),
//! predictions and trajectory logs, bundle folders, Python sources (against CPython 3.11's
//! `ast.parse`) and test bodies for the interpreter (programs generated from a small grammar).
//!
//! Each target is a plain function from bytes that panics on a finding, so the same function runs
//! under the libFuzzer driver (`src/bin/fuzz.rs`, built by `fuzz/run.sh` with stable rustc's
//! sanitizer-coverage flags) and in `cargo test`, which replays the saved corpora in
//! `fuzz/corpus/<target>/` (see the `replay` tests below). The differential halves need `git` and
//! `python3` (3.11); without them those comparisons are skipped and the rest still runs.

#![forbid(unsafe_code)]

pub mod bundle;
pub mod interp;
pub mod patch;
pub mod pyparse;
pub mod readers;

/// One fuzz target: its name (the corpus folder) and the function the driver calls per input.
pub type Target = fn(&[u8]);

/// Every target, by name.
pub const TARGETS: &[(&str, Target)] = &[
    ("patch", patch::fuzz),
    ("submissions", readers::submissions),
    ("trajectory", readers::trajectory),
    ("bundle", bundle::fuzz),
    ("pyparse", pyparse::fuzz),
    ("interp", interp::fuzz),
];

/// The target called `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// Native stack for one input: the parser and interpreter recurse, and a test thread or a debug
/// build has less room than the CLI's scoring threads.
const STACK: usize = 256 << 20;

/// Runs `f` on `data` on a thread with a large stack; a panic there is re-raised here (under
/// libFuzzer the panic hook has already aborted with the input saved).
pub fn run(f: Target, data: &[u8]) {
    let data = data.to_vec();
    let r = std::thread::Builder::new().stack_size(STACK).spawn(move || f(&data)).map(|h| h.join());
    match r {
        Ok(Ok(())) => {}
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => panic!("cannot start the fuzz thread: {e}"),
    }
}

/// A scratch folder private to this process (and to `tag`), created empty.
pub(crate) fn scratch(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("refscore-fuzz-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// Whether a tool answers `--version` (the differential halves skip when it does not).
pub(crate) fn have(tool: &str) -> bool {
    std::process::Command::new(tool)
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(test)]
mod replay {
    //! The saved corpora as ordinary tests: every file of `fuzz/corpus/<target>/` through the
    //! target function, without the fuzz driver.

    use std::path::PathBuf;

    fn corpus(name: &str) -> Vec<PathBuf> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus").join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        files
    }

    fn replay(name: &str) {
        let f = super::target(name).expect("target");
        let files = corpus(name);
        assert!(!files.is_empty(), "corpus/{name} is empty");
        for p in &files {
            let data = std::fs::read(p).expect("read corpus file");
            let r = std::panic::catch_unwind(|| super::run(f, &data));
            assert!(r.is_ok(), "{name}: {} fails", p.display());
        }
        println!("{name}: {} corpus files replayed", files.len());
    }

    #[test]
    fn patch() {
        replay("patch");
    }

    #[test]
    fn submissions() {
        replay("submissions");
    }

    #[test]
    fn trajectory() {
        replay("trajectory");
    }

    #[test]
    fn bundle() {
        replay("bundle");
    }

    #[test]
    fn pyparse() {
        replay("pyparse");
    }

    #[test]
    fn interp() {
        replay("interp");
    }

    /// The open findings (fuzz/README.md, "Findings"), each through its target (the name's
    /// prefix). Ignored: they fail until the divergences are fixed; then they move to corpus/.
    #[test]
    #[ignore]
    fn open_findings() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("findings");
        let mut failing = Vec::new();
        // None open: the folder is gone until the next finding.
        let Ok(entries) = std::fs::read_dir(&dir) else { return };
        for e in entries {
            let p = e.expect("entry").path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            let Some(f) = name.split('-').next().and_then(super::target) else { continue };
            let data = std::fs::read(&p).expect("read");
            if std::panic::catch_unwind(|| super::run(f, &data)).is_err() {
                failing.push(name);
            }
        }
        assert!(failing.is_empty(), "still failing: {failing:?}");
    }
}
