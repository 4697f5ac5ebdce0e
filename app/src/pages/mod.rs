//! One module per route.

pub mod about;
pub mod not_found;
pub mod task;
pub mod tasks;
