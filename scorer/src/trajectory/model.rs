//! The normalised trajectory: what every reader fills, whatever agent wrote the log. Pure data
//! (no I/O); the analysis (edit state σ, failure modes) and the CLI/app views read only this.
//!
//! Missing data stays missing: costs, tokens and timings are `Option`, never `0`, so a view can
//! say "no data" instead of "$0".

use serde::{Deserialize, Serialize};

/// The log format a trajectory was read from. Serialised as its [`Format::label`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// SWE-agent 0.x: `trajectory[i].state` is a JSON string, captured before the action.
    SweAgent0x,
    /// SWE-agent 1.0.x: `state` is an object captured after the action; steps may carry `messages`.
    SweAgent10,
    /// SWE-agent 1.1+: steps carry `query` (or neither `query` nor `messages`).
    SweAgent11,
    /// mini-swe-agent 1.x (`trajectory_format` absent or `"mini-swe-agent-1"`).
    MiniSweAgentV1,
    /// mini-swe-agent 2.x (`trajectory_format: "mini-swe-agent-1.1"`, final `role: "exit"`).
    MiniSweAgentV2,
    /// OpenHands V0 events (eval `output.jsonl` with `history`, or a bare event list).
    OpenHandsV0,
    /// OpenHands V1 (software-agent-sdk) events with `kind`.
    OpenHandsV1,
    /// Inspect AI (`.eval` zip or `.json` log), one trajectory per sample.
    Inspect,
    /// Harbor's Agent Trajectory Interchange Format.
    Atif,
    /// Claude Code session JSONL.
    ClaudeCode,
    /// Codex CLI rollout JSONL.
    Codex,
}

impl Format {
    /// Family and version as the CLI's `--json` prints them (`"swe-agent-0.x"`, `"inspect"`…).
    pub fn label(self) -> &'static str {
        match self {
            Format::SweAgent0x => "swe-agent-0.x",
            Format::SweAgent10 => "swe-agent-1.0",
            Format::SweAgent11 => "swe-agent-1.1",
            Format::MiniSweAgentV1 => "mini-swe-agent-v1",
            Format::MiniSweAgentV2 => "mini-swe-agent-v2",
            Format::OpenHandsV0 => "openhands-v0",
            Format::OpenHandsV1 => "openhands-v1",
            Format::Inspect => "inspect",
            Format::Atif => "atif",
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
        }
    }

    /// Every format, in detection order.
    pub const ALL: [Format; 11] = [
        Format::Inspect,
        Format::Atif,
        Format::SweAgent0x,
        Format::SweAgent10,
        Format::SweAgent11,
        Format::MiniSweAgentV1,
        Format::MiniSweAgentV2,
        Format::OpenHandsV0,
        Format::OpenHandsV1,
        Format::ClaudeCode,
        Format::Codex,
    ];

    pub fn from_label(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.label() == s)
    }
}

impl Serialize for Format {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.label())
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Format::from_label(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown trajectory format {s:?}")))
    }
}

/// One agent run on one task, normalised.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trajectory {
    pub format: Option<Format>,
    /// The format's own version string when the log carries one (`"ATIF-v1.5"`, mini-swe-agent's
    /// `mini_version`, Inspect's log `version`, Codex `cli_version`, Claude Code `version`…).
    pub format_version: Option<String>,
    /// Task id when the log names it (SWE-bench `instance_id`, Inspect sample id…).
    pub instance_id: Option<String>,
    /// Model name when the log names it.
    pub model: Option<String>,
    /// The task text the agent was given (problem statement / first user message), for
    /// instruction-set detection.
    pub task: Option<String>,
    /// The sandbox folder the readers stripped from paths (`/testbed`, `/workspace/<repo>`…).
    pub repo_root: Option<String>,
    pub steps: Vec<Step>,
    /// The submitted patch (or answer) as logged; `None` when the log has none.
    pub submission: Option<String>,
    /// The exit status as the agent logged it (`submitted`, `LimitsExceeded`, an exception name…).
    pub exit_status: Option<String>,
    /// The error text of a crashed run (mini-swe-agent `exception_str`, OpenHands `error`…).
    pub exit_error: Option<String>,
    pub model_stats: Option<ModelStats>,
    /// Inspect: the sample's epoch (a task run several times gives one sample per epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epoch: Option<u32>,
}

/// Run totals; each field only when logged and meaningful (a replay's `instance_cost: 0` is "no
/// data", not $0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelStats {
    pub cost_usd: Option<f64>,
    pub tokens_sent: Option<u64>,
    pub tokens_received: Option<u64>,
    pub api_calls: Option<u64>,
}

/// One step of the input, in order: one model turn (or one logged action) with what it caused.
/// Chat formats also keep their system and user messages as steps (`role`); an observation whose
/// action is not in the log is an `environment` step. Analyses of agent behaviour should look at
/// `role == Agent` steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Position in `Trajectory::steps` (0-based).
    pub index: usize,
    /// Who produced the step: `agent` (model turn), `user`, `system`, `environment`.
    pub role: Role,
    /// The text the step's author wrote: the model's reasoning / message for agent steps, the
    /// prompt for user and system steps.
    pub thought: Option<String>,
    /// The raw action text (command line, or a rendering of the tool calls).
    pub action: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    /// What the environment answered (all tool results, joined in call order).
    pub observation: Option<String>,
    /// The first error signal of the step, from the format's own signals (§2.11 tables).
    pub error: Option<ErrorSignal>,
    /// Recognised edit operations, in call order (usually zero or one; `MultiEdit` and parallel
    /// tool calls give several).
    pub edits: Vec<EditOp>,
    pub tokens: Option<Tokens>,
    /// Wall time of the step in seconds, when logged.
    pub duration_s: Option<f64>,
    /// Timestamp as logged (ISO 8601 or epoch text).
    pub timestamp: Option<String>,
    /// SWE-agent: the file open in the editor window for this step's action.
    pub open_file: Option<String>,
    /// SWE-agent `diff_state`: the cumulative diff of the repository after this step (exact σ).
    pub repo_diff: Option<String>,
}

impl Step {
    /// The first recognised edit of the step.
    pub fn edit(&self) -> Option<&EditOp> {
        self.edits.first()
    }

    /// Name of the first tool the step called.
    pub fn tool(&self) -> Option<&str> {
        self.tool_calls.first().map(|c| c.name.as_str())
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    #[default]
    Agent,
    User,
    System,
    Environment,
}

/// One tool call with its arguments as logged (text-mode actions get a synthetic call named by
/// the command, arguments `{"command": <text>}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: Option<String>,
    pub name: String,
    pub arguments: serde_json::Value,
    /// This call's own result text, when the log separates results per call.
    pub output: Option<String>,
    /// This call's error signal.
    pub error: Option<ErrorSignal>,
    /// Shell exit code when logged.
    pub exit_code: Option<i64>,
}

/// Token usage of one model call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub prompt: Option<u64>,
    pub completion: Option<u64>,
    pub cached: Option<u64>,
}

/// An error signal, as the format reports it (never guessed from free text beyond the format's
/// documented messages).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorSignal {
    pub kind: ErrorKind,
    /// The format's own error type or the matched message line (`timeout`, `E999 …`, exit code…).
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// An edit the tool refused (see [`RejectReason`]).
    EditRejected,
    /// An edit applied with linter errors reported (SWE-agent `<NOTE>…linter has found…`).
    EditLint,
    /// The model's output could not be parsed into an action (SWE-agent requery, mini
    /// `FormatError`, "Please always provide EXACTLY ONE action").
    FormatError,
    /// A command timed out.
    Timeout,
    /// A shell command exited non-zero.
    NonZeroExit,
    /// The tool reported an error (Inspect `ToolCallError`, OpenHands `is_error`, Claude Code
    /// `is_error`).
    ToolError,
    /// The harness cut the output (`<response clipped>`, `elided_chars`…).
    Truncated,
    /// The agent scaffold failed (OpenHands `AgentErrorEvent`, stuck-in-loop, crash).
    AgentError,
}

/// A recognised edit operation. `path` is relative to the repository.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EditOp {
    pub path: String,
    pub kind: EditKind,
    pub status: EditStatus,
    pub confidence: Confidence,
    /// 1-based inclusive lines the op replaced, in the file as it was before the op.
    pub lines_before: Option<LineRange>,
    /// 1-based inclusive lines the op wrote, in the file after the op.
    pub lines_after: Option<LineRange>,
    /// The tool that made it (`str_replace_editor`, `edit`, `Edit`, `apply_patch`, `sed`…).
    pub tool: String,
    /// Text replaced (`old_str`, `old_string`, the search text), when logged.
    pub old_text: Option<String>,
    /// Text written (`new_str`, inserted text, file content), when logged.
    pub new_text: Option<String>,
    /// Rename / move target (repo-relative).
    pub new_path: Option<String>,
    /// Hunks of the op's own diff when the log carries one (exact).
    pub hunks: Vec<Hunk>,
    /// Whole file before/after the op, when logged (OpenHands V1 `old_content/new_content`).
    pub file_before: Option<String>,
    pub file_after: Option<String>,
}

impl EditOp {
    /// A bare op: status unknown, everything else absent.
    pub fn new(path: String, kind: EditKind, tool: &str, confidence: Confidence) -> EditOp {
        EditOp {
            path,
            kind,
            status: EditStatus::Unknown,
            confidence,
            lines_before: None,
            lines_after: None,
            tool: tool.to_string(),
            old_text: None,
            new_text: None,
            new_path: None,
            hunks: Vec::new(),
            file_before: None,
            file_after: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EditKind {
    Create,
    Replace,
    Insert,
    /// The whole file (or window) rewritten.
    Rewrite,
    Append,
    Delete,
    Rename,
    Undo,
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum EditStatus {
    Applied,
    Rejected { reason: RejectReason, message: String },
    AppliedWithLint { errors: Vec<String> },
    Unknown,
}

impl EditStatus {
    /// `"applied"`, `"rejected"`, `"applied_with_lint"` or `"unknown"`.
    pub fn label(&self) -> &'static str {
        match self {
            EditStatus::Applied => "applied",
            EditStatus::Rejected { .. } => "rejected",
            EditStatus::AppliedWithLint { .. } => "applied_with_lint",
            EditStatus::Unknown => "unknown",
        }
    }

    /// Whether the file changed (applied, with or without lint errors).
    pub fn is_applied(&self) -> bool {
        matches!(self, EditStatus::Applied | EditStatus::AppliedWithLint { .. })
    }
}

/// Why an edit was refused (FM-2 sub-kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectReason {
    /// SWE-agent's flake8 gate refused the edit.
    LintRejected,
    /// The text to replace was not found.
    NoMatch,
    /// The text to replace was found more than once.
    MultipleMatches,
    /// Old and new text are the same.
    NoOp,
    /// Missing/invalid parameters, usage errors, no file open.
    BadArgs,
    /// `create` on an existing file.
    FileExists,
    /// The path does not exist.
    PathMissing,
    /// Claude Code: file modified since read / not read yet.
    StaleRead,
    /// A patch did not apply (`apply_patch`, `git apply`).
    PatchApplyFailed,
    /// A heuristic shell edit exited non-zero.
    ShellNonzero,
    /// Refused for another reason the format reports as an error.
    Other,
}

impl RejectReason {
    pub fn label(self) -> &'static str {
        match self {
            RejectReason::LintRejected => "lint_rejected",
            RejectReason::NoMatch => "no_match",
            RejectReason::MultipleMatches => "multiple_matches",
            RejectReason::NoOp => "no_op",
            RejectReason::BadArgs => "bad_args",
            RejectReason::FileExists => "file_exists",
            RejectReason::PathMissing => "path_missing",
            RejectReason::StaleRead => "stale_read",
            RejectReason::PatchApplyFailed => "patch_apply_failed",
            RejectReason::ShellNonzero => "shell_nonzero",
            RejectReason::Other => "other",
        }
    }
}

/// How the op's location was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// From a diff or whole contents the log carries.
    Exact,
    /// Computed from the op's arguments and the tool's documented behaviour.
    Derived,
    /// Guessed from a shell command.
    Heuristic,
}

/// 1-based inclusive line range; serialised as `[start, end]`. An empty range (pure deletion's
/// "after", insertion's "before") has `end == start - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineRange {
    pub start: u32,
    pub end: u32,
}

impl Serialize for LineRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        [self.start, self.end].serialize(s)
    }
}

impl<'de> Deserialize<'de> for LineRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let [start, end] = <[u32; 2]>::deserialize(d)?;
        Ok(LineRange { start, end })
    }
}

/// One hunk header of a unified diff (`@@ -old_start,old_lines +new_start,new_lines @@`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hunk {
    pub old_start: u32,
    pub old_lines: u32,
    pub new_start: u32,
    pub new_lines: u32,
}
