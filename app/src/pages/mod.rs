//! One module per route.

pub mod about;
pub mod combine;
pub mod compare;
pub mod leaderboard;
pub mod not_found;
pub mod result;
pub mod run;
pub mod runs;
pub mod score;
pub mod task;
pub mod tasks;
pub mod trajectory;
