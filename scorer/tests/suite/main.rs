//! The scorer crate's integration tests, one module per area, linked as one test binary
//! (each binary takes about a minute to link on two cores).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "test code: a failed unwrap is a failed test, and skips are printed for the reader"
)]

mod codec_differential;
mod demo_verdicts;
mod depth_differential;
mod differential;
mod differential_common;
mod expected;
mod failed_patches;
mod file_access;
mod hostile;
mod int_digits_differential;
mod interp_ast;
mod interp_common;
mod interp_limits;
mod interp_semantics;
mod interp_stack;
mod interp_values;
mod method_reuse;
mod official_bundle;
mod os_stat_differential;
mod patch_engine;
mod patch_git_differential;
mod published_leaderboard;
mod python_differential;
mod python_limits;
mod python_perf;
mod run_reuse;
mod symlinks;
mod tidy;
#[cfg(feature = "trajectories")]
mod trajectory_analysis;
#[cfg(feature = "trajectories")]
mod trajectory_formats;
#[cfg(feature = "trajectories")]
mod trajectory_samples;
mod unicode_differential;
