//! Reusable view pieces.

pub mod header;
pub mod progress;
