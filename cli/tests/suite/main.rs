//! The cli crate's integration tests, one module per area, linked as one test binary
//! (each binary takes about a minute to link on two cores).

mod combine;
mod common;
mod import;
mod leaderboard;
mod report;
mod score;
mod trajectory;
