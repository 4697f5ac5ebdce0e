//! The edit state σ and the failure modes of one trajectory: the entry points the CLI and the
//! app call. σ lives in [`super::sigma`], the detectors and run rates in [`super::failure`].
//!
//! ```text
//! pub fn analyse(t: &Trajectory, task: Option<&TaskContext>) -> Analysis
//! pub fn edit_state(t: &Trajectory) -> Vec<StepState>          // one entry per step, in order
//! pub fn failure_modes(t: &Trajectory, task: Option<&TaskContext>) -> Vec<FailureMode>
//! ```
//!
//! `--json` prints `edit_state` as `[{step, files: [{path, ranges: [[a, b], ...], failed_edits,
//! created, deleted}]}]` (plus `whole_file` and `confidence` when set) and `failure_modes` as
//! `[{id, rule, steps, tests, detail, interpretation}]`.

use serde::{Deserialize, Serialize};

use super::failure::{Detection, Facts, Interpretation, Thresholds};
use super::model::{Confidence, Trajectory};
use super::sigma::FinalCheck;
use crate::report::{InstructionSet, TaskResult};

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
    /// The task's three instruction texts, to tell which one the agent was given (FM-8).
    pub instructions: Vec<(InstructionSet, String)>,
    /// The task's repository, for per-repository rates.
    pub repo: Option<String>,
}

impl TaskContext {
    /// The three instruction texts of a bundle task, as [`TaskContext::instructions`] holds them.
    pub fn instructions_of(i: &crate::bundle::Instructions) -> Vec<(InstructionSet, String)> {
        vec![
            (InstructionSet::Lazy, i.lazy.clone()),
            (InstructionSet::Base, i.base.clone()),
            (InstructionSet::Descriptive, i.descriptive.clone()),
        ]
    }
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
    /// An applied edit whose lines are unknown (regex `sed`, unlocated `str_replace`…): the
    /// whole file counts as edited, `ranges` holds only what is known.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_file: bool,
    /// Lowest confidence of the applied edits behind this state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
}

/// One detector's flag with its evidence.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureMode {
    /// `untouched_target`, `edit_error`, `temporary_error_blocked`, `context_flooding`, `loop`,
    /// `limit`, `breadth`, `instruction_set`, `state_tracking` or `task_style_drift`.
    pub id: String,
    /// The rule within the detector (`same_failed_edit_reissued`, `lost_edit`, `cost_limit`…).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rule: String,
    /// Step indices of the evidence.
    pub steps: Vec<usize>,
    /// Test ids (`Class.method`) of the evidence.
    pub tests: Vec<String>,
    pub detail: String,
    /// The reading of the paper this flag depends on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interpretation: Option<Interpretation>,
}

/// Everything the analysis computes for one trajectory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    pub edit_state: Vec<StepState>,
    pub failure_modes: Vec<FailureMode>,
    /// FM-0: one label for a scored, unresolved task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub primary: Option<String>,
    /// Numbers the run rates add up ([`super::failure::summarise_run`]).
    pub facts: Facts,
    /// σ at the last step against the submitted patch; `None` without a parsable submission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_check: Option<FinalCheck>,
}

pub fn analyse(t: &Trajectory, task: Option<&TaskContext>) -> Analysis {
    let edit_state = edit_state(t);
    let Detection { failure_modes, facts, primary } =
        super::failure::detect(t, task, &edit_state, Thresholds::default());
    let final_check = super::sigma::check_final(&edit_state, t.submission.as_deref());
    Analysis { edit_state, failure_modes, primary, facts, final_check }
}

/// σ after every step (see [`super::sigma`]).
pub fn edit_state(t: &Trajectory) -> Vec<StepState> {
    super::sigma::edit_state(t)
}

/// The failure-mode flags with their evidence (see [`super::failure`]).
pub fn failure_modes(t: &Trajectory, task: Option<&TaskContext>) -> Vec<FailureMode> {
    let states = edit_state(t);
    super::failure::detect(t, task, &states, Thresholds::default()).failure_modes
}
