//! refscore's scorer: everything needed to grade one RefactorBench submission, with no I/O.
//!
//! The pipeline of one evaluation is: task bundle + submission → [`patch`] parsed and applied to the
//! in-memory [`tree`] → the task's unittest file interpreted by [`interp`] and run by [`unittest`]
//! against that tree → per-method verdicts → [`report`]. The crate has no I/O, no clock and no threads, so
//! it builds for `wasm32-unknown-unknown` and gives the browser and the CLI the same verdicts.
//!
//! Module map (one concern each):
//! - [`tree`]: in-memory repository with validated relative paths.
//! - [`patch`]: unified / git diff parsing and `git apply` semantics.
//! - [`python`]: the only module that names the parser crate; CPython 3.11-exact parse facade.
//! - [`interp`]: the Python subset the official tests use, with the `ast`, `os`, `hashlib`, `json`
//!   and `unittest` shims, bounded by a step budget.
//! - [`unittest`]: discovery and running of test methods, verdicts.
//! - [`evaluate`]: one submission for one task: patch, then tests, then the verdict.
//! - [`bundle`]: the task bundle model (index of tasks, per-task data).
//! - [`submission`]: predictions and trajectories read into submissions (pure parsing).
//! - [`stats`]: run summaries (by repository, instruction set, breadth) and run comparisons.
//! - [`leaderboard`]: published results and local runs as rows of one table.
//! - [`combine`]: several tasks of one repository joined into one combined pseudo-task.
//! - [`report`]: the versioned output types shared by CLI, worker and app.
//! - `trajectory` (feature `trajectories`): agent logs of every common format, normalised.

// The no-I/O, no-clock, no-threads, no-env invariant as a compile-time rule: the calls and types
// `scorer/clippy.toml` lists are errors in the library. Unit tests (`cfg(test)`) read fixtures
// from disk, so they are exempt, as the workspace exempts tests, benches and examples.
#![cfg_attr(not(test), deny(clippy::disallowed_methods, clippy::disallowed_types))]

pub mod bundle;
pub mod codec;
pub mod combine;
pub mod evaluate;
pub mod interned;
pub mod interp;
pub mod leaderboard;
pub mod patch;
pub mod python;
pub mod report;
pub mod stats;
pub mod submission;
#[cfg(feature = "trajectories")]
pub mod trajectory;
pub mod tree;
pub mod unicode;
pub mod unittest;

/// The scorer's version, written into every report.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
