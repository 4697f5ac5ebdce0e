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

/// Detects the format of a file from its content alone.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    readers::detect(bytes)
}

/// Reads every trajectory of a file: one for most formats, one per sample for Inspect logs.
pub fn read(bytes: &[u8]) -> Result<Vec<Trajectory>, TrajectoryError> {
    readers::read(bytes)
}
