//! Reusable view pieces.

pub mod charts;
pub mod code;
pub mod diff;
pub mod header;
pub mod loaded;
pub mod progress;
pub mod result_view;
