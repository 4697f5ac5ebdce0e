//! Reusable view pieces.

pub mod header;
