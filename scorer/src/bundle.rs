//! Task bundles: what the browser needs to score a task without the official checkout.
//!
//! This module holds the bundle index model; the full per-task format is documented in
//! `tasks/README.md`.

use serde::{Deserialize, Serialize};

/// Bundle schema version written into every `index.json`.
pub const BUNDLE_SCHEMA_VERSION: u32 = 1;

/// The root `index.json` of a bundle: everything a task list needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleIndex {
    pub schema_version: u32,
    /// Content hash of the whole bundle, so a redeployed site never shows stale rows.
    pub bundle_hash: String,
    pub tasks: Vec<TaskSummary>,
}

/// One row of the task list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskSummary {
    pub id: String,
    pub repo: String,
    /// Test file name, as in the official `tests/<repo>_refactor/` folder.
    pub tests: String,
    /// Number of test methods the test file defines (after "last definition wins").
    #[serde(default)]
    pub methods: u32,
}

impl BundleIndex {
    /// Parses an `index.json`, refusing schema versions this build does not know.
    pub fn from_json(text: &str) -> Result<Self, BundleError> {
        let index: BundleIndex = serde_json::from_str(text)
            .map_err(|e| BundleError::Json { file: "index.json".into(), message: e.to_string() })?;
        if index.schema_version != BUNDLE_SCHEMA_VERSION {
            return Err(BundleError::SchemaVersion {
                found: index.schema_version,
                expected: BUNDLE_SCHEMA_VERSION,
            });
        }
        Ok(index)
    }
}

/// Why a bundle could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BundleError {
    #[error("{file}: invalid JSON: {message}")]
    Json { file: String, message: String },
    #[error("bundle schema_version {found} is not supported (this build reads {expected})")]
    SchemaVersion { found: u32, expected: u32 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_an_empty_index_and_refuses_unknown_versions() {
        let ok = BundleIndex::from_json(r#"{"schema_version":1,"bundle_hash":"x","tasks":[]}"#);
        assert_eq!(ok.map(|i| i.tasks.len()), Ok(0));
        let future = BundleIndex::from_json(r#"{"schema_version":99,"bundle_hash":"x","tasks":[]}"#);
        assert!(matches!(future, Err(BundleError::SchemaVersion { found: 99, .. })));
        let broken = BundleIndex::from_json("{");
        assert!(matches!(broken, Err(BundleError::Json { .. })));
    }
}
