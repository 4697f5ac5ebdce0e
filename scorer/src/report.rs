//! The versioned output types: the one serialised boundary shared by the CLI, the worker and the app.

use serde::{Deserialize, Serialize};

/// The report schema version; bump on any incompatible change of the JSON shape.
pub const SCHEMA_VERSION: u32 = 1;

/// Verdict of one test method, as the official harness names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Skip,
    Fail,
    Error,
}

impl Status {
    /// Severity used to combine a method's own outcome with its subtests (error > fail > skip > pass).
    pub fn severity(self) -> u8 {
        match self {
            Status::Pass => 0,
            Status::Skip => 1,
            Status::Fail => 2,
            Status::Error => 3,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Skip => "skip",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

/// One test method's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestOutcome {
    /// `ClassName.method_name`.
    pub id: String,
    pub status: Status,
    /// Exception class name for fail/error/skip (`AssertionError`, `FileNotFoundError`, `SkipTest`…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exc_type: Option<String>,
    /// First line of `str(exc)`, cut to 1000 characters, addresses normalised to `0x0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Innermost line of the test file in the traceback.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// The result of scoring one submission for one task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskResult {
    pub instance_id: String,
    pub patch_status: crate::patch::PatchStatus,
    /// One line, when the patch did not apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_error: Option<String>,
    /// The patch applied (or was empty), at least one method ran, and every method passed.
    pub resolved: bool,
    pub subtests_passed: u32,
    pub subtests_total: u32,
    pub tests: Vec<TestOutcome>,
}
