//! Why a trajectory file could not be read.

/// A trajectory that cannot be read at all. Unknown fields are ignored; a known field of the
/// wrong type names the field and the step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrajectoryError {
    #[error("not a recognised trajectory format ({0})")]
    Unrecognised(String),
    #[error("invalid JSON{}: {message}", line.map(|l| format!(" at line {l}")).unwrap_or_default())]
    Json { line: Option<usize>, message: String },
    #[error("{}`{field}` must be {expected}, found {found}", step_prefix(*step))]
    FieldType { step: Option<usize>, field: String, expected: &'static str, found: &'static str },
    #[error("{}missing `{field}`", step_prefix(*step))]
    Missing { step: Option<usize>, field: String },
    #[error("zip archive: {0}")]
    Zip(String),
    #[error("entry {entry}: {message}")]
    Decompress { entry: String, message: String },
}

fn step_prefix(step: Option<usize>) -> String {
    step.map(|s| format!("step {s}: ")).unwrap_or_default()
}
