//! The cli crate's integration tests, one module per area, linked as one test binary
//! (each binary takes about a minute to link on two cores).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "test code: a failed unwrap is a failed test, and skips are printed for the reader"
)]

mod combine;
mod common;
mod import;
mod leaderboard;
mod report;
mod score;
mod trajectory;
