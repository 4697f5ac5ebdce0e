//! Format detection and the per-format readers.

use super::{Format, Trajectory, TrajectoryError};

pub(super) fn detect(_bytes: &[u8]) -> Option<Format> {
    None
}

pub(super) fn read(_bytes: &[u8]) -> Result<Vec<Trajectory>, TrajectoryError> {
    Err(TrajectoryError::Unrecognised("readers not written yet".into()))
}
