//! Combined pseudo-tasks (paper §4.2): several tasks of one repository joined into one longer task.
//! The paper joined solved tasks of one repository and found that no agent solved a combined one.
//!
//! "The paper's way" is taken to mean: the constituents' instructions concatenated in the order the
//! tasks are given, each unchanged, separated by one blank line (the paper used the descriptive
//! prompts; the lazy and base sets are joined the same way so a combined task keeps three
//! instruction sets), and graded by every constituent's own test file. One patch is applied once;
//! each constituent's test file runs against the same patched tree; the combined task is resolved
//! iff every constituent is.
//!
//! A combined task is a [`TaskData`] whose `combined` field lists its parts, so it can be saved in a
//! bundle of its own and scored like any other task. Its `test` is a guard file that always fails:
//! a reader that does not know `combined` reports it unresolved rather than grading one part.

use serde::{Deserialize, Serialize};

use crate::bundle::{InspectedPath, Instructions, NeededFile, TaskData, TestFile};
use crate::patch::{self, ApplyOptions, FileOutcome, PatchStatus};
use crate::report::TaskResult;
use crate::submission::Submission;
use crate::tree::Tree;
use crate::unittest::Scorer;

/// The constituents of a combined task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combined {
    pub parts: Vec<Part>,
}

/// One constituent task: its id and test file (the tree is the combined task's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub id: String,
    pub test: TestFile,
    /// `Class.method` ids of its test file, in unittest's order.
    pub methods: Vec<String>,
}

/// The test file a combined task carries as its `test`: it fails with a message that says why.
pub const GUARD_TEST_NAME: &str = "combined-task.py";
pub const GUARD_TEST_SOURCE: &str = "import unittest\n\n\nclass CombinedTask(unittest.TestCase):\n    def test_graded_by_its_parts(self):\n        self.fail('a combined task is graded by the test files of its parts (TaskData.combined)')\n";

/// Separator of a part's id and a method id in the combined task's method ids.
pub const PART_SEPARATOR: &str = "::";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CombineError {
    #[error("a combined task needs at least two tasks (got {0})")]
    TooFew(usize),
    #[error("task {0} is named twice")]
    Duplicate(String),
    #[error("task {task} is of repository {repo}, the first task of {first}: a combined task joins tasks of one repository")]
    OtherRepo { task: String, repo: String, first: String },
    #[error("task {0} is itself a combined task")]
    Nested(String),
    #[error("tasks {a} and {b} carry {path} with different blobs")]
    BlobConflict { a: String, b: String, path: String },
    #[error("combined id {0:?} is not a valid task id")]
    BadId(String),
    #[error("task {0} is not a combined task")]
    NotCombined(String),
}

/// The default id: `combined__<id>__<id>...`.
pub fn default_id(ids: &[&str]) -> String {
    format!("combined__{}", ids.join("__"))
}

/// Joins `tasks` (of one repository, in this order) into one combined task named `id`.
pub fn combine(id: &str, tasks: &[&TaskData]) -> Result<TaskData, CombineError> {
    if tasks.len() < 2 {
        return Err(CombineError::TooFew(tasks.len()));
    }
    if !crate::bundle::is_valid_task_id(id) {
        return Err(CombineError::BadId(id.to_string()));
    }
    let first = tasks[0];
    let mut parts = Vec::new();
    let mut files: Vec<NeededFile> = Vec::new();
    let mut owner_of: std::collections::BTreeMap<String, (String, String)> = Default::default();
    let mut inspected: Vec<InspectedPath> = Vec::new();
    for t in tasks {
        if parts.iter().any(|p: &Part| p.id == t.id) {
            return Err(CombineError::Duplicate(t.id.clone()));
        }
        if t.combined.is_some() {
            return Err(CombineError::Nested(t.id.clone()));
        }
        if t.repo != first.repo {
            return Err(CombineError::OtherRepo {
                task: t.id.clone(),
                repo: t.repo.clone(),
                first: first.repo.clone(),
            });
        }
        for f in &t.files {
            match owner_of.get(f.path.as_str()) {
                Some((blob, owner)) if *blob != f.blob => {
                    return Err(CombineError::BlobConflict {
                        a: owner.clone(),
                        b: t.id.clone(),
                        path: f.path.to_string(),
                    });
                }
                Some(_) => {
                    if let Some(have) = files.iter_mut().find(|h| h.path == f.path) {
                        for why in &f.why {
                            if !have.why.contains(why) {
                                have.why.push(*why);
                            }
                        }
                        have.why.sort();
                    }
                }
                None => {
                    owner_of.insert(f.path.to_string(), (f.blob.clone(), t.id.clone()));
                    files.push(f.clone());
                }
            }
        }
        for p in &t.inspected {
            if !inspected.iter().any(|q| q.path == p.path) {
                inspected.push(p.clone());
            }
        }
        parts.push(Part { id: t.id.clone(), test: t.test.clone(), methods: t.methods.clone() });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let join = |pick: fn(&Instructions) -> &str| {
        tasks.iter().map(|t| pick(&t.instructions).trim_end()).collect::<Vec<_>>().join("\n\n")
    };
    Ok(TaskData {
        schema_version: first.schema_version,
        id: id.to_string(),
        repo: first.repo.clone(),
        instructions: Instructions {
            lazy: join(|i| &i.lazy),
            base: join(|i| &i.base),
            descriptive: join(|i| &i.descriptive),
        },
        test: TestFile {
            name: GUARD_TEST_NAME.into(),
            path: GUARD_TEST_NAME.into(),
            source: GUARD_TEST_SOURCE.into(),
        },
        methods: parts
            .iter()
            .flat_map(|p| p.methods.iter().map(move |m| format!("{}{PART_SEPARATOR}{m}", p.id)))
            .collect(),
        inspected,
        files,
        combined: Some(Combined { parts }),
    })
}

/// One patch scored against a combined task: a result per part, and the verdict of the whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombinedResult {
    pub id: String,
    pub patch_status: PatchStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_error: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileOutcome>,
    /// One result per part, in the task's order; each has the part's id and the shared patch status.
    pub parts: Vec<TaskResult>,
    pub resolved_parts: u32,
    /// Every part resolved.
    pub resolved: bool,
}

impl CombinedResult {
    /// "resolved 1 of 2 constituent tasks".
    pub fn verdict(&self) -> String {
        format!("resolved {} of {} constituent tasks", self.resolved_parts, self.parts.len())
    }

    /// The whole as one report row: the combined id, every part's methods with ids
    /// `<part>::Class.method`, resolved iff every part is.
    pub fn to_task_result(&self) -> TaskResult {
        let tests = self
            .parts
            .iter()
            .flat_map(|p| {
                p.tests.iter().map(move |t| {
                    let mut t = t.clone();
                    t.id = format!("{}{PART_SEPARATOR}{}", p.instance_id, t.id);
                    t
                })
            })
            .collect();
        let sum =
            |f: fn(&TaskResult) -> u32| self.parts.iter().map(f).fold(0u32, u32::saturating_add);
        TaskResult {
            instance_id: self.id.clone(),
            model_name_or_path: None,
            instruction_set: None,
            source: None,
            patch_status: self.patch_status,
            patch_error: self.patch_error.clone(),
            files: self.files.clone(),
            resolved: self.resolved,
            subtests_passed: sum(|p| p.subtests_passed),
            subtests_total: sum(|p| p.subtests_total),
            tests,
        }
    }
}

/// Scores `patch` against the combined `task` whose base tree is `base`: applied once (strict
/// `git apply`), then every part's test file run on the same patched tree with the official rule
/// of [`crate::evaluate::evaluate`].
pub fn evaluate_combined(
    scorer: &mut Scorer,
    task: &TaskData,
    base: &Tree,
    patch: &[u8],
) -> Result<CombinedResult, CombineError> {
    let combined =
        task.combined.as_ref().ok_or_else(|| CombineError::NotCombined(task.id.clone()))?;
    let applied = patch::apply(base, patch, &ApplyOptions::default());
    let parts: Vec<TaskResult> = combined
        .parts
        .iter()
        .map(|part| {
            // Scoring the empty patch on the patched tree runs the part's tests with the one
            // resolution rule; the patch outcome is then the shared one. A failed patch runs nothing.
            let mut r = if applied.status == PatchStatus::Failed {
                crate::evaluate::evaluate(
                    scorer,
                    &part.id,
                    base,
                    &part.test.name,
                    &part.test.source,
                    patch,
                )
            } else {
                crate::evaluate::evaluate(
                    scorer,
                    &part.id,
                    &applied.tree,
                    &part.test.name,
                    &part.test.source,
                    b"",
                )
            };
            r.patch_status = applied.status;
            r.patch_error = applied.reason.clone();
            r.files = applied.files.clone();
            if applied.status == PatchStatus::Failed {
                // As for a plain task: attempted, nothing ran, every method not passed.
                r.subtests_total = u32::try_from(part.methods.len()).unwrap_or(u32::MAX);
            }
            r
        })
        .collect();
    let resolved_parts =
        u32::try_from(parts.iter().filter(|p| p.resolved).count()).unwrap_or(u32::MAX);
    Ok(CombinedResult {
        id: task.id.clone(),
        patch_status: applied.status,
        patch_error: applied.reason,
        files: applied.files,
        resolved: !parts.is_empty() && parts.iter().all(|p| p.resolved),
        resolved_parts,
        parts,
    })
}

/// [`crate::evaluate::evaluate_submission`] for a combined task: the same rule (a patch git
/// refuses, parsable or not, is a `failed` result counting every method of every part as not
/// passed), one row for the whole combined task.
pub fn evaluate_submission(
    scorer: &mut Scorer,
    task: &TaskData,
    base: &Tree,
    submission: &Submission,
) -> TaskResult {
    match evaluate_combined(scorer, task, base, &submission.patch) {
        Ok(c) => crate::evaluate::finish_result(c.to_task_result(), task, submission),
        // Not a combined task: scored as a plain one.
        Err(_) => crate::evaluate::evaluate_submission(scorer, base, task, submission),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unittest::RunConfig;
    use std::path::{Path, PathBuf};

    fn demo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks/demo")
    }

    /// The demo repository as a tree (every file's bytes).
    fn tree(repo: &str) -> Tree {
        fn walk(root: &Path, dir: &Path, tree: &mut Tree) {
            let mut entries: Vec<_> =
                std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
            entries.sort();
            for path in entries {
                if path.is_dir() {
                    walk(root, &path, tree);
                } else {
                    let rel = path.strip_prefix(root).unwrap().to_str().unwrap().to_string();
                    tree.insert_bytes(&rel, std::fs::read(&path).unwrap()).unwrap();
                }
            }
        }
        let root = demo().join("repositories").join(repo);
        let mut t = Tree::new();
        walk(&root, &root, &mut t);
        t
    }

    /// A demo task as bundle data (no carried files: the tests use the whole tree).
    fn task(id: &str, repo: &str, test: &str) -> TaskData {
        let path = format!("tests/{repo}/{test}");
        TaskData {
            schema_version: 1,
            id: id.into(),
            repo: repo.into(),
            instructions: Instructions {
                lazy: format!("lazy {id}"),
                base: format!("base {id}"),
                descriptive: format!("descriptive {id}\n"),
            },
            test: TestFile {
                name: test.into(),
                source: std::fs::read_to_string(demo().join(&path)).unwrap(),
                path,
            },
            methods: vec![format!("{id}.m")],
            inspected: Vec::new(),
            files: Vec::new(),
            combined: None,
        }
    }

    fn rename() -> TaskData {
        task("rename-parse-amount", "ledgerly_refactor", "rename-parse-amount-test.py")
    }
    fn sku() -> TaskData {
        task("extract-normalize-sku", "ledgerly_refactor", "normalize-sku-helper.py")
    }
    fn currency() -> TaskData {
        task(
            "combine-currency-into-money",
            "ledgerly_refactor",
            "combine-currency-into-money-test.py",
        )
    }
    fn patch(name: &str) -> Vec<u8> {
        std::fs::read(demo().join("submissions").join(name)).unwrap()
    }

    #[test]
    fn joins_instructions_in_order_and_keeps_each_test() {
        let (a, b) = (rename(), sku());
        let c = combine("c", &[&a, &b]).unwrap();
        assert_eq!(
            c.instructions.descriptive,
            "descriptive rename-parse-amount\n\ndescriptive extract-normalize-sku"
        );
        assert_eq!(c.instructions.lazy, "lazy rename-parse-amount\n\nlazy extract-normalize-sku");
        let parts = &c.combined.as_ref().unwrap().parts;
        assert_eq!(
            parts.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
            [a.id.as_str(), b.id.as_str()]
        );
        assert_eq!(parts[1].test, b.test);
        assert_eq!(
            c.methods,
            [
                "rename-parse-amount::rename-parse-amount.m",
                "extract-normalize-sku::extract-normalize-sku.m"
            ]
        );
        // It survives a bundle round trip; an ordinary task serialises without the field.
        let text = String::from_utf8(crate::bundle::canonical_json(&c)).unwrap();
        assert_eq!(TaskData::from_json(&text, "t").unwrap(), c);
        assert!(!String::from_utf8(crate::bundle::canonical_json(&a))
            .unwrap()
            .contains("combined"));
    }

    #[test]
    fn refuses_what_is_not_one_repository_of_distinct_tasks() {
        let (a, b) = (rename(), sku());
        let other = task("rename-feed-item-to-entry", "tinyfeed_refactor", "rename-feed-item.py");
        assert_eq!(combine("c", &[&a]), Err(CombineError::TooFew(1)));
        assert_eq!(combine("c", &[&a, &a]), Err(CombineError::Duplicate(a.id.clone())));
        assert!(matches!(combine("c", &[&a, &other]), Err(CombineError::OtherRepo { .. })));
        assert_eq!(combine("../c", &[&a, &b]), Err(CombineError::BadId("../c".into())));
        let c = combine("c", &[&a, &b]).unwrap();
        assert_eq!(combine("d", &[&c, &a]), Err(CombineError::Nested("c".into())));
    }

    #[test]
    fn one_patch_is_graded_by_every_part_on_one_tree() {
        let c = combine("c", &[&rename(), &sku()]).unwrap();
        let base = tree("ledgerly_refactor");
        let mut scorer = Scorer::new(RunConfig::default());

        // The rename's solution alone: 1 of 2.
        let r =
            evaluate_combined(&mut scorer, &c, &base, &patch("rename-parse-amount.solve.patch"))
                .unwrap();
        assert_eq!(
            (r.patch_status, r.resolved_parts, r.resolved),
            (PatchStatus::Applied, 1, false)
        );
        assert_eq!(r.verdict(), "resolved 1 of 2 constituent tasks");
        assert!(r.parts[0].resolved && !r.parts[1].resolved);
        assert_eq!(r.parts[1].instance_id, "extract-normalize-sku");
        // Each part's verdict equals scoring the patch against that task alone.
        let alone = crate::evaluate::evaluate(
            &mut scorer,
            "extract-normalize-sku",
            &base,
            &sku().test.name,
            &sku().test.source,
            &patch("rename-parse-amount.solve.patch"),
        );
        assert_eq!(r.parts[1], alone);
        let row = r.to_task_result();
        assert_eq!(row.subtests_total, r.parts[0].subtests_total + r.parts[1].subtests_total);
        assert!(row.tests[0].id.starts_with("rename-parse-amount::"));
        assert!(!row.resolved);

        // Two solutions touching different files, in one patch (`git apply` takes it too): 2 of 2.
        let c2 = combine("c2", &[&currency(), &sku()]).unwrap();
        let mut both = patch("combine-currency-into-money.solve.patch");
        both.extend(patch("extract-normalize-sku.solve.patch"));
        let r = evaluate_combined(&mut scorer, &c2, &base, &both).unwrap();
        assert_eq!((r.resolved_parts, r.resolved), (2, true), "{:?}", r.patch_error);
        assert!(r.to_task_result().resolved);
        // The first solution alone: 1 of 2.
        let r = evaluate_combined(
            &mut scorer,
            &c2,
            &base,
            &patch("combine-currency-into-money.solve.patch"),
        )
        .unwrap();
        assert_eq!(r.verdict(), "resolved 1 of 2 constituent tasks");

        // A patch that does not apply: no test runs, nothing resolved.
        let r = evaluate_combined(
            &mut scorer,
            &c,
            &base,
            &patch("stock-ledger-class.does-not-apply.patch"),
        )
        .unwrap();
        assert_eq!((r.patch_status, r.resolved_parts), (PatchStatus::Failed, 0));
        assert!(r
            .parts
            .iter()
            .all(|p| p.tests.is_empty() && p.patch_status == PatchStatus::Failed));

        // Not a combined task.
        assert_eq!(
            evaluate_combined(&mut scorer, &rename(), &base, b""),
            Err(CombineError::NotCombined("rename-parse-amount".into()))
        );
    }

    #[test]
    fn the_guard_test_fails_a_reader_that_ignores_the_parts() {
        let c = combine("c", &[&rename(), &sku()]).unwrap();
        let r = crate::evaluate::evaluate(
            &mut Scorer::new(RunConfig::default()),
            "c",
            &tree("ledgerly_refactor"),
            &c.test.name,
            &c.test.source,
            b"",
        );
        assert_eq!((r.subtests_total, r.resolved), (1, false));
    }
}
