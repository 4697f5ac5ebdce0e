//! Reusable view pieces.

pub mod charts;
pub mod code;
pub mod diff;
pub mod header;
pub mod progress;
pub mod result_view;
