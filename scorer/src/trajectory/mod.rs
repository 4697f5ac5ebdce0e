//! Agent trajectories: one normalised model ([`model`]) filled by one reader per log format,
//! detected by keys, never by file name (shared/trajectories.md §2.0). No I/O: readers take bytes.
//!
//! Behind the scorer feature `trajectories` (off by default; the CLI turns it on), so neither
//! the readers nor their zip/zstd decoders reach the scoring worker's wasm.
//!
//! - [`model`]: `Trajectory`, `Step`, `ToolCall`, `EditOp`… (stable names; the analysis builds on them).
//! - [`analysis`]: edit state σ and failure modes over a `Trajectory`.
//! - [`read`]: detect the format and read every trajectory a file holds.

pub mod analysis;
mod edits;
mod error;
pub mod failure;
mod json;
pub mod model;
mod paths;
mod readers;
mod shell;
pub mod sigma;
pub mod view;
mod zip;

pub use error::TrajectoryError;
pub use model::*;

/// Helpers for tests that build fixtures at run time (zip archives with zstd entries).
#[doc(hidden)]
pub mod test_support {
    use super::{zip, TrajectoryError};

    /// Writes a zip archive; methods 0 (stored), 8 (deflate), 93 (zstd).
    pub fn zip_write(entries: &[(&str, u16, &[u8])]) -> Vec<u8> {
        zip::write(entries)
    }

    /// Every entry of a zip archive, uncompressed, in central-directory order.
    pub fn unzip(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, TrajectoryError> {
        zip::entries(bytes)?.iter().map(|e| Ok((e.name.clone(), zip::read(bytes, e)?))).collect()
    }
}

/// Detects the format of a file from its content alone.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    readers::detect(bytes)
}

/// Reads every trajectory of a file: one for most formats, one per sample for Inspect logs.
pub fn read(bytes: &[u8]) -> Result<Vec<Trajectory>, TrajectoryError> {
    readers::read(bytes)
}
