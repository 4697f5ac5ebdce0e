//! Shared by the tests that walk the differential corpus (`tests/differential/`): where it is and
//! how its folders are listed (sorted, so every run visits files in the same order).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub(crate) fn differential_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("differential")
}

pub(crate) fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    out.sort();
    out
}
