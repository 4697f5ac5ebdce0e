//! The scoring Web Worker and its message protocol.
//!
//! The worker links `scorer`; the UI thread talks to it only through [`WorkerRequest`] and
//! [`WorkerResponse`], so a long scoring run never blocks a click.

use std::collections::BTreeMap;
use std::sync::Arc;

use gloo_worker::{HandlerId, Worker, WorkerScope};
use scorer::bundle::{Manifest, TaskData};
use scorer::report::TaskResult;
use scorer::unittest::{RunConfig, Scorer};
use serde::{Deserialize, Serialize};

/// What the UI asks of the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerRequest {
    /// Sent once at start-up: answers with the scorer's version, proving the worker loaded.
    Hello,
    /// Score one submission for one task (the task's data, its repository manifest and the blobs
    /// the task carries, as fetched from the bundle).
    Score(Box<ScoreRequest>),
}

/// Everything one evaluation needs; the worker does no fetching of its own.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScoreRequest {
    pub task: TaskData,
    pub manifest: Manifest,
    /// Blob id → bytes.
    pub blobs: BTreeMap<String, Vec<u8>>,
    /// The submission's patch; empty means no change.
    pub patch: String,
}

/// What the worker answers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum WorkerResponse {
    Ready {
        scorer_version: String,
    },
    /// The verdicts, or why the task's data could not be turned into a tree.
    Scored(Box<Result<TaskResult, String>>),
}

/// The worker state: one scorer, so its parse cache serves every submission of a session.
pub struct ScoreWorker {
    scorer: Scorer,
}

impl Worker for ScoreWorker {
    type Message = ();
    type Input = WorkerRequest;
    type Output = WorkerResponse;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        ScoreWorker { scorer: Scorer::new(worker_run_config()) }
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: Self::Message) {}

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Self::Input, id: HandlerId) {
        match msg {
            WorkerRequest::Hello => {
                scope.respond(id, WorkerResponse::Ready { scorer_version: scorer::VERSION.into() })
            }
            WorkerRequest::Score(req) => {
                scope.respond(id, WorkerResponse::Scored(Box::new(score(&mut self.scorer, &req))))
            }
        }
    }
}

/// The worker's wasm stack is 8 MiB (see `app/build.rs`); the interpreter may use 6 MiB of it for
/// Python frames (about 1000 nested calls, CPython's recursion limit) and leaves the rest to the parser.
pub fn worker_run_config() -> RunConfig {
    RunConfig { stack_budget: 6 << 20, ..RunConfig::default() }
}

/// Builds the task's base tree from the bundle data and evaluates the patch against it.
pub fn score(scorer: &mut Scorer, req: &ScoreRequest) -> Result<TaskResult, String> {
    let blobs: BTreeMap<String, Arc<[u8]>> =
        req.blobs.iter().map(|(id, bytes)| (id.clone(), Arc::from(bytes.as_slice()))).collect();
    let base = req.task.base_tree(&req.manifest, &blobs).map_err(|e| e.to_string())?;
    Ok(scorer::evaluate::evaluate(
        scorer,
        &req.task.id,
        &base,
        &req.task.test.name,
        &req.task.test.source,
        req.patch.as_bytes(),
    ))
}

/// URL of the worker's loader script, relative to the document base (works under a sub-path).
pub const WORKER_LOADER: &str = "./worker_loader.js";

#[cfg(test)]
mod tests {
    use super::*;
    use scorer::bundle::{Instructions, NeedReason, NeededFile, TestFile, BUNDLE_SCHEMA_VERSION};
    use scorer::patch::PatchStatus;
    use scorer::tree::{git_blob_id, RepoPath};

    fn request(patch: &str, blob_bytes: &[u8]) -> ScoreRequest {
        let source = b"def old():\n    pass\n";
        let blob = git_blob_id(source);
        let path = RepoPath::new("pkg/mod.py").unwrap();
        let other = RepoPath::new("pkg/big.py").unwrap();
        let manifest = Manifest {
            schema_version: BUNDLE_SCHEMA_VERSION,
            repo: "demo".into(),
            files: [(path.clone(), blob.clone()), (other, "a".repeat(40))].into_iter().collect(),
            modes: BTreeMap::new(),
            pack: None,
        };
        let test = r#"import ast, os, unittest
class T(unittest.TestCase):
    def test_new(self):
        with open('../pkg/mod.py') as f:
            tree = ast.parse(f.read())
        self.assertTrue(any(isinstance(n, ast.FunctionDef) and n.name == 'new' for n in ast.walk(tree)))
    def test_other_exists(self):
        self.assertTrue(os.path.exists('../pkg/big.py'))
"#;
        let task = TaskData {
            schema_version: BUNDLE_SCHEMA_VERSION,
            id: "rename-old".into(),
            repo: "demo".into(),
            instructions: Instructions {
                lazy: "l".into(),
                base: "b".into(),
                descriptive: "d".into(),
            },
            test: TestFile {
                name: "t.py".into(),
                path: "tests/demo/t.py".into(),
                source: test.into(),
            },
            methods: vec!["T.test_new".into(), "T.test_other_exists".into()],
            inspected: Vec::new(),
            files: vec![NeededFile {
                path,
                blob: blob.clone(),
                size: 20,
                why: vec![NeedReason::Test],
            }],
        };
        let blobs = [(blob, blob_bytes.to_vec())].into_iter().collect();
        ScoreRequest { task, manifest, blobs, patch: patch.into() }
    }

    #[test]
    fn scores_a_submission_from_bundle_data() {
        let mut scorer = Scorer::new(RunConfig::default());
        let base = score(&mut scorer, &request("", b"def old():\n    pass\n")).unwrap();
        assert_eq!(base.patch_status, PatchStatus::None);
        assert_eq!((base.subtests_passed, base.subtests_total, base.resolved), (1, 2, false));

        let patch = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,2 +1,2 @@\n-def old():\n+def new():\n     pass\n";
        let solved = score(&mut scorer, &request(patch, b"def old():\n    pass\n")).unwrap();
        assert!(solved.resolved, "{solved:?}");
    }

    #[test]
    fn a_corrupt_blob_is_an_error_not_a_verdict() {
        let mut scorer = Scorer::new(RunConfig::default());
        let err = score(&mut scorer, &request("", b"tampered")).unwrap_err();
        assert!(err.contains("blob"), "{err}");
    }
}
