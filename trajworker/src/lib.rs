//! The trajectory Web Worker: its message protocol ([`ToTraj`], [`FromTraj`]) and, behind the
//! default feature `engine`, the worker itself ([`engine`]).
//!
//! The app depends on this lib with `default-features = false`, for the protocol types only:
//! they are plain serde structs, so neither the readers nor the analysis reach the app's wasm,
//! and the worker's wasm is fetched only when a trajectory page is opened.
//!
//! The worker also builds the viewer's markup ([`Node`] trees of elements and text): the app
//! renders them with one generic function, so the viewer costs the app's wasm almost nothing.
//!
//! Messages are JS objects `{h: <JSON of the enum>, b?: Uint8Array}` as for the scoring worker.
//! The worker keeps every log it read (a "document", numbered by the app) and answers pages of
//! steps from it: a 50 MB log is parsed once, off the UI thread, and the UI only ever receives
//! the summary and the page it shows.

#[cfg(feature = "engine")]
pub mod engine;
#[cfg(feature = "engine")]
mod render;

use scorer::report::TaskResult;
use serde::{Deserialize, Serialize};

/// URL of the trajectory worker's loader script, relative to the document base.
pub const TRAJ_WORKER_LOADER: &str = "./trajworker_loader.js";

/// What the task bundle and the run know about a log's task, for the detectors that need
/// verdicts (FM-1 untouched targets, FM-7 breadth, FM-10) and the instruction texts (FM-8).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskFacts {
    pub instance_id: String,
    pub test_source: Option<String>,
    /// Verdicts of the submitted patch.
    pub final_result: Option<TaskResult>,
    /// Verdicts of the empty patch.
    pub pristine_result: Option<TaskResult>,
    /// Lazy, base and descriptive instruction texts.
    pub instructions: Option<[String; 3]>,
    pub repo: Option<String>,
    /// For a log with several samples of one task (an Inspect log run over several epochs): the
    /// epoch whose sample these facts are for; `None`: every sample of the task.
    #[serde(default)]
    pub epoch: Option<u32>,
}

/// Which steps a page lists.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepFilter {
    /// Steps with an error signal or a rejected / lint-flagged edit.
    #[serde(default)]
    pub errors: bool,
    /// Steps with a recognised edit.
    #[serde(default)]
    pub edits: bool,
    /// Steps named as evidence by a failure mode.
    #[serde(default)]
    pub flagged: bool,
    /// Case-insensitive text in the thought, action, observation or tool name.
    #[serde(default)]
    pub search: String,
}

/// What the UI asks of the trajectory worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum ToTraj {
    /// Answered with [`FromTraj::Ready`].
    Hello,
    /// Read the log in the message's bytes as document `doc` (replacing one of that number).
    /// `facts` are used for the samples whose instance id they name (or the only sample).
    /// `parts`, when given: the bytes are several files one after the other, (name, length) each
    /// (an OpenHands V1 `events/` folder dropped or picked whole); they are joined into one
    /// event list as `refscore trajectory FOLDER` joins them.
    Open {
        job: u64,
        doc: u32,
        name: String,
        facts: Vec<TaskFacts>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        parts: Vec<(String, u32)>,
    },
    /// A page of the steps of one sample that pass `filter`: `limit` steps from `offset`, or the
    /// page holding step `around` when it passes the filter.
    Steps {
        job: u64,
        doc: u32,
        sample: u32,
        filter: StepFilter,
        offset: u32,
        limit: u32,
        around: Option<u32>,
    },
    /// The run's failure-mode rates over every sample of the documents named; `links` give each
    /// document's link (`/runs/<run>/<task>/trajectory`) and label. `epochs`, when not empty:
    /// only the samples of those epochs count (samples without an epoch always do).
    Summarise {
        job: u64,
        docs: Vec<u32>,
        links: Vec<(u32, String, String)>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        epochs: Vec<u32>,
    },
    /// The submissions a log holds (`scorer::submission::parse_submissions` with the readers of
    /// every format: the scoring worker does not link them), for scoring an Inspect `.eval`.
    /// Answered with [`FromTraj::Parsed`].
    Parse { job: u64, name: String },
    /// Forget documents.
    Close { docs: Vec<u32> },
}

/// Run totals as the log gives them; every field `None` when not logged ("no data", never 0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Costs {
    pub cost_usd: Option<f64>,
    pub tokens_sent: Option<u64>,
    pub tokens_received: Option<u64>,
    pub api_calls: Option<u64>,
}

/// One failure-mode flag with its evidence.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    /// `untouched_target`, `edit_error`, `loop`, … (trajectories.md §1.3).
    pub id: String,
    pub rule: String,
    pub steps: Vec<u32>,
    pub tests: Vec<String>,
    pub detail: String,
    /// The reading of the paper the flag depends on: its id and text.
    pub interpretation: Option<(String, String)>,
}

/// One mark of the σ timeline: file `file` (an index into [`Timeline::files`]) at `step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub file: u32,
    pub step: u32,
    /// 0 applied, 1 rejected, 2 applied with lint errors, 3 status unknown.
    pub kind: u8,
}

/// σ as a files × steps grid: the files ever edited, and a mark per edit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timeline {
    pub files: Vec<String>,
    pub marks: Vec<Mark>,
    /// Marks left out beyond the cap (a log of tens of thousands of edits).
    pub more: u32,
}

/// One sample (trajectory) of a log, without its steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// The format's family and version label (`swe-agent-0.x`, `mini-swe-agent-v2`, …).
    pub format: String,
    pub format_version: Option<String>,
    pub instance_id: Option<String>,
    pub model: Option<String>,
    pub exit_status: Option<String>,
    pub exit_error: Option<String>,
    pub steps: u32,
    pub edits: u32,
    pub rejected_edits: u32,
    pub costs: Option<Costs>,
    /// Whether any step logged its tokens.
    pub step_tokens: bool,
    pub submission: Option<String>,
    pub failure_modes: Vec<Flag>,
    /// FM-0, for a scored, unresolved task.
    pub primary: Option<String>,
    /// FM-6 exit category.
    pub exit: String,
    /// σ at the last step against the submission: files only σ has, files only the patch has.
    pub final_check: Option<(Vec<String>, Vec<String>)>,
    pub timeline: Timeline,
    /// Whether task facts were used (FM-1, FM-7 need them).
    pub with_facts: bool,
}

/// One edit op of a step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EditRow {
    pub path: String,
    pub kind: String,
    /// `applied`, `rejected`, `applied_with_lint`, `unknown`.
    pub status: String,
    pub reason: Option<String>,
    pub before: Option<[u32; 2]>,
    pub after: Option<[u32; 2]>,
    pub confidence: String,
}

/// One file of σ after a step.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SigmaFile {
    pub path: String,
    pub ranges: Vec<[u32; 2]>,
    pub failed: u32,
    pub created: bool,
    pub deleted: bool,
    pub whole: bool,
}

/// One step as the viewer shows it. Texts longer than [`TEXT_CAP`] bytes are cut (said in
/// `cut`); the log itself stays whole in the worker.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StepRow {
    pub index: u32,
    pub role: String,
    pub tool: Option<String>,
    pub thought: Option<String>,
    pub action: Option<String>,
    pub observation: Option<String>,
    /// Bytes cut from the three texts above.
    pub cut: u64,
    pub error: Option<String>,
    pub edits: Vec<EditRow>,
    /// Prompt, completion, cached tokens (each only when logged).
    pub tokens: Option<[Option<u64>; 3]>,
    pub duration_s: Option<f64>,
    /// Failure modes naming this step.
    pub flags: Vec<String>,
    /// σ after this step.
    pub sigma: Vec<SigmaFile>,
}

/// Longest text of one step field sent to the UI.
pub const TEXT_CAP: usize = 200_000;

/// A page of steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StepPage {
    /// Steps passing the filter.
    pub matching: u32,
    pub offset: u32,
    pub rows: Vec<StepRow>,
}

/// One rate `n / d` under its definition id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RateRow {
    pub id: String,
    pub n: u64,
    pub d: u64,
    /// The documents (and samples) counted in `n`, as `[doc, sample]`.
    pub behind: Vec<[u32; 2]>,
}

/// The run's failure-mode section.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunModes {
    pub trajectories: u64,
    pub rates: Vec<RateRow>,
    /// Failure mode id → trajectories flagged, with the trajectories.
    pub distribution: Vec<RateRow>,
    /// FM-0: one label per scored, unresolved trajectory → trajectories.
    pub primary: Vec<RateRow>,
    /// FM-6 exit category → trajectories.
    pub exit_reasons: Vec<RateRow>,
    /// Breadth bucket → resolved / scored.
    pub by_breadth: Vec<(String, RateRow)>,
    pub cost_per_solved_usd: Option<f64>,
    /// Definition id → text.
    pub definitions: Vec<(String, String)>,
}

/// A piece of the viewer built by the worker: an element (tag, attributes, children) or a text.
/// The app renders it with `createElement`/`createTextNode` only, keeping a fixed set of
/// attributes and only relative links (`app/src/pages/trajectory.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Node {
    T(String),
    E(String, Vec<(String, String)>, Vec<Node>),
}

/// What the app needs of a sample besides its rendering: the task it names and its submission
/// (to score them for the detectors that need verdicts).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Head {
    pub instance_id: Option<String>,
    /// Inspect: the sample's epoch.
    #[serde(default)]
    pub epoch: Option<u32>,
    pub submission: Option<String>,
    pub steps: u32,
    /// Facts, σ vs the patch, the final verdicts, failure modes, σ timeline, submission.
    pub view: Node,
}

/// What the trajectory worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum FromTraj {
    Ready {
        scorer_version: String,
    },
    Opened {
        job: u64,
        samples: Vec<Head>,
    },
    /// A page of steps: `matching` steps pass the filter; the page starts at `offset`.
    Steps {
        job: u64,
        matching: u32,
        offset: u32,
        view: Node,
    },
    Summary {
        job: u64,
        view: Node,
    },
    Parsed {
        job: u64,
        parsed: scorer::submission::Parsed,
    },
    /// The job could not run: the message names the file, and the step and field when known.
    Failed {
        job: Option<u64>,
        message: String,
    },
}

impl FromTraj {
    pub fn job(&self) -> Option<u64> {
        match self {
            FromTraj::Ready { .. } => None,
            FromTraj::Opened { job, .. }
            | FromTraj::Steps { job, .. }
            | FromTraj::Summary { job, .. }
            | FromTraj::Parsed { job, .. } => Some(*job),
            FromTraj::Failed { job, .. } => *job,
        }
    }
}
