//! PLACEHOLDER for the traj-analysis branch: the edit state σ and the failure-mode detectors.
//! The other helper replaces the bodies (and may add fields); the CLI calls exactly these
//! signatures, so keep them:
//!
//! ```text
//! pub fn analyse(t: &Trajectory, task: Option<&TaskContext>) -> Analysis
//! pub fn edit_state(t: &Trajectory) -> Vec<StepState>          // one entry per step, in order
//! pub fn failure_modes(t: &Trajectory, task: Option<&TaskContext>) -> Vec<FailureMode>
//! ```
//!
//! `--json` prints `edit_state` as `[{step, files: [{path, ranges: [[a, b], ...], failed_edits,
//! created, deleted}]}]` and `failure_modes` as `[{id, steps, tests, detail}]` (the serde shape of
//! the types below).

use serde::{Deserialize, Serialize};

use super::model::Trajectory;
use crate::report::TaskResult;

/// What the task bundle tells the analysis about the trajectory's task (`--tasks BUNDLE`).
#[derive(Debug, Clone, Default)]
pub struct TaskContext {
    pub instance_id: String,
    /// The task's test file source.
    pub test_source: Option<String>,
    /// Verdicts of the submitted patch.
    pub final_result: Option<TaskResult>,
    /// Verdicts of the empty patch (pristine repository).
    pub pristine_result: Option<TaskResult>,
}

/// σ after one step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepState {
    pub step: usize,
    pub files: Vec<FileState>,
}

/// One file of σ: line ranges edited so far (current coordinates), failed edits, created/deleted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileState {
    pub path: String,
    pub ranges: Vec<[u32; 2]>,
    pub failed_edits: u32,
    pub created: bool,
    pub deleted: bool,
}

/// One detector's flag with its evidence.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureMode {
    pub id: String,
    pub steps: Vec<usize>,
    pub tests: Vec<String>,
    pub detail: String,
}

/// Everything the analysis computes for one trajectory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    pub edit_state: Vec<StepState>,
    pub failure_modes: Vec<FailureMode>,
}

pub fn analyse(t: &Trajectory, task: Option<&TaskContext>) -> Analysis {
    Analysis { edit_state: edit_state(t), failure_modes: failure_modes(t, task) }
}

/// PLACEHOLDER: σ per step (the traj-analysis branch fills it).
pub fn edit_state(_t: &Trajectory) -> Vec<StepState> {
    Vec::new()
}

/// PLACEHOLDER: failure modes (the traj-analysis branch fills it).
pub fn failure_modes(_t: &Trajectory, _task: Option<&TaskContext>) -> Vec<FailureMode> {
    Vec::new()
}
