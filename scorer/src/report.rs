//! The versioned output types: the one serialised boundary shared by the CLI, the worker and the app.

use serde::{Deserialize, Serialize};

/// The report schema version; bump on any incompatible change of the JSON shape or of a field's
/// meaning. 2: a patch `git apply` cannot parse is a `failed` result (it was an entry in
/// `errors`), a failed result's `subtests_total` is its task's method count, and the summary
/// counts failed patches as completed and unresolved (`patch_failed_*`), not as errors.
pub const SCHEMA_VERSION: u32 = 2;

/// The oldest report version this build reads; [`Report::upgrade`] brings it to [`SCHEMA_VERSION`].
pub const OLDEST_SCHEMA_VERSION: u32 = 1;

/// How version 1 prefixed the entry error of a patch that did not parse.
const V1_PARSE_ERROR: &str = "patch does not parse: ";

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
    /// Repository-relative paths the method, its `setUp` and `tearDown` opened or checked
    /// (`open`, `os.path.exists/lexists/isfile/isdir/getsize`, `os.listdir`/`os.walk` tops),
    /// sorted, folders and the eval folder left out; a path that does not exist is listed too
    /// (a test checking that a file was made). Class fixtures and the module body are no
    /// method's. What the failure modes compare with the files a patch touches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<String>,
}

/// The result of scoring one submission for one task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskResult {
    pub instance_id: String,
    /// The submitting model or run, as the predictions file names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name_or_path: Option<String>,
    /// Which of the task's three instructions the agent was given, when the input names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_set: Option<InstructionSet>,
    /// Where the submission came from (file, and line for `.jsonl`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceRef>,
    pub patch_status: crate::patch::PatchStatus,
    /// One line, when the patch did not parse or apply: git's message without its `error: `
    /// prefix (`corrupt patch at line 7`, `patch failed: a.py:3`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_error: Option<String>,
    /// Per-file outcome of the strict `git apply` (empty for an empty patch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<crate::patch::FileOutcome>,
    /// The patch applied (or was empty), at least one method ran, and every method passed.
    pub resolved: bool,
    pub subtests_passed: u32,
    /// Methods run; for a failed patch (no test runs) the methods the task's test file defines, so
    /// it counts as zero passed of the task's total.
    pub subtests_total: u32,
    pub tests: Vec<TestOutcome>,
}

/// RefactorBench's three instruction sets; agents are compared per set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InstructionSet {
    Lazy,
    Base,
    Descriptive,
}

impl InstructionSet {
    pub const ALL: [InstructionSet; 3] =
        [InstructionSet::Lazy, InstructionSet::Base, InstructionSet::Descriptive];

    pub fn as_str(self) -> &'static str {
        match self {
            InstructionSet::Lazy => "lazy",
            InstructionSet::Base => "base",
            InstructionSet::Descriptive => "descriptive",
        }
    }

    /// Parses the exact lowercase name.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

/// A position in an input file: the file name as the user gave it, and a 1-based line if any.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceRef {
    pub file: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl std::fmt::Display for SourceRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}", self.file),
            None => f.write_str(&self.file),
        }
    }
}

/// An input entry that could not be scored because its instance or shape cannot be read (invalid
/// JSON line, missing or mistyped field, unknown instance id). Recorded in the report, left out of
/// every rate; never stops the other entries. A patch git refuses is not one: it is a `failed`
/// [`TaskResult`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryError {
    pub source: SourceRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_name_or_path: Option<String>,
    pub message: String,
}

/// Who produced a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScorerInfo {
    pub name: String,
    pub version: String,
}

impl Default for ScorerInfo {
    fn default() -> Self {
        ScorerInfo { name: "refscore".to_string(), version: crate::VERSION.to_string() }
    }
}

/// Which bundle the tasks came from (its content hash, see [`crate::bundle::bundle_hash`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleRef {
    pub hash: String,
}

/// SWE-bench-style run summary (the harness's `<model>.<run_id>.json` names), derived from the
/// results and errors by [`Summary::of`]. Every result row is completed: a failed patch was
/// attempted and is unresolved, as in the official RefactorBench harness (`patch_failed_ids` names
/// them). `error_ids` are entries in `errors` that name an instance (an unknown task, a bad
/// field); they are submitted but not completed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub submitted_instances: u32,
    pub completed_instances: u32,
    pub resolved_instances: u32,
    pub unresolved_instances: u32,
    pub empty_patch_instances: u32,
    #[serde(default)]
    pub patch_failed_instances: u32,
    pub error_instances: u32,
    pub resolved_ids: Vec<String>,
    pub unresolved_ids: Vec<String>,
    pub empty_patch_ids: Vec<String>,
    #[serde(default)]
    pub patch_failed_ids: Vec<String>,
    pub error_ids: Vec<String>,
}

impl Summary {
    /// Counts per result row (a run may hold several rows per instance, e.g. one per model or
    /// instruction set); id lists are sorted and deduplicated.
    pub fn of(results: &[TaskResult], errors: &[EntryError]) -> Summary {
        use crate::patch::PatchStatus;
        let mut s = Summary::default();
        let count = |n: &mut u32| *n = n.saturating_add(1);
        for r in results {
            count(&mut s.submitted_instances);
            count(&mut s.completed_instances);
            match r.patch_status {
                PatchStatus::None => {
                    count(&mut s.empty_patch_instances);
                    s.empty_patch_ids.push(r.instance_id.clone());
                }
                PatchStatus::Failed => {
                    count(&mut s.patch_failed_instances);
                    s.patch_failed_ids.push(r.instance_id.clone());
                }
                PatchStatus::Applied => {}
            }
            if r.resolved {
                count(&mut s.resolved_instances);
                s.resolved_ids.push(r.instance_id.clone());
            } else {
                count(&mut s.unresolved_instances);
                s.unresolved_ids.push(r.instance_id.clone());
            }
        }
        for e in errors {
            if let Some(id) = &e.instance_id {
                count(&mut s.submitted_instances);
                count(&mut s.error_instances);
                s.error_ids.push(id.clone());
            }
        }
        for ids in [
            &mut s.resolved_ids,
            &mut s.unresolved_ids,
            &mut s.empty_patch_ids,
            &mut s.patch_failed_ids,
            &mut s.error_ids,
        ] {
            ids.sort();
            ids.dedup();
        }
        s
    }
}

/// The whole document the CLI writes and the app exports and imports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub schema_version: u32,
    pub scorer: ScorerInfo,
    pub bundle: BundleRef,
    pub results: Vec<TaskResult>,
    #[serde(default)]
    pub errors: Vec<EntryError>,
    /// Entries read and left out on purpose (a duplicate replaced by a later entry, a repeated
    /// JSON key): scored runs are not changed by them, but the user is told. Absent when empty,
    /// so reports without warnings keep their bytes (and content hash).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<EntryError>,
    pub summary: Summary,
}

/// Appends one CSV row (RFC 4180: a field holding a comma, quote or line break is quoted, its
/// quotes doubled) and its line break.
pub fn csv_row(out: &mut String, cells: &[&str]) {
    for (i, c) in cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a
        // leading `'`, as OWASP's CSV-injection guidance says; numbers such as `-2` stay numbers.
        let neutralised;
        let c = if c.starts_with(['=', '+', '-', '@', '\t', '\r']) && c.parse::<f64>().is_err() {
            neutralised = format!("'{c}");
            neutralised.as_str()
        } else {
            c
        };
        if c.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&c.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(c);
        }
    }
    out.push('\n');
}

/// Why a report file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{file}: not a refscore report: {source}")]
    Json { file: String, source: serde_json::Error },
    #[error("{file}: report schema_version {found} is not supported (this build reads {OLDEST_SCHEMA_VERSION} to {SCHEMA_VERSION})")]
    Version { file: String, found: u64 },
    #[error("{file}: result {index} ({instance_id}) is inconsistent: {detail}")]
    Inconsistent { file: String, index: usize, instance_id: String, detail: String },
}

impl Report {
    /// Builds a report, computing the summary.
    pub fn new(bundle_hash: &str, results: Vec<TaskResult>, errors: Vec<EntryError>) -> Report {
        let summary = Summary::of(&results, &errors);
        Report {
            schema_version: SCHEMA_VERSION,
            scorer: ScorerInfo::default(),
            bundle: BundleRef { hash: bundle_hash.to_string() },
            results,
            errors,
            warnings: Vec::new(),
            summary,
        }
    }

    /// Parses a report, checking the schema version first so an incompatible file gets that
    /// message rather than a field error. `file` names the input in messages.
    pub fn from_json(text: &str, file: &str) -> Result<Report, ReportError> {
        let json = |source| ReportError::Json { file: file.to_string(), source };
        let value: serde_json::Value = serde_json::from_str(text).map_err(json)?;
        let found = value.get("schema_version").and_then(|v| v.as_u64()).unwrap_or(0);
        if !Self::readable_version(found) {
            return Err(ReportError::Version { file: file.to_string(), found });
        }
        let mut report: Report = serde_json::from_value(value).map_err(json)?;
        report.upgrade();
        for (index, r) in report.results.iter().enumerate() {
            let bad = |detail: String| ReportError::Inconsistent {
                file: file.to_string(),
                index,
                instance_id: r.instance_id.clone(),
                detail,
            };
            if r.subtests_passed > r.subtests_total {
                return Err(bad(format!(
                    "subtests_passed {} > subtests_total {}",
                    r.subtests_passed, r.subtests_total
                )));
            }
            if r.resolved && r.subtests_total > 0 && r.subtests_passed < r.subtests_total {
                return Err(bad(format!(
                    "resolved with {} of {} subtests passed",
                    r.subtests_passed, r.subtests_total
                )));
            }
        }
        Ok(report)
    }

    /// Whether this build reads reports of `version` (after [`Report::upgrade`]).
    pub fn readable_version(version: u64) -> bool {
        (u64::from(OLDEST_SCHEMA_VERSION)..=u64::from(SCHEMA_VERSION)).contains(&version)
    }

    /// Brings a report of an older readable version to [`SCHEMA_VERSION`]. Version 1 kept a patch
    /// git could not parse as an entry error ("patch does not parse: …"): it becomes the `failed`
    /// result it is now (with no instruction set unless its file's path names one, and
    /// `subtests_total` 0, which the run statistics replace with the task's method count), after
    /// the other results; the summary is computed again.
    pub fn upgrade(&mut self) {
        if self.schema_version >= SCHEMA_VERSION {
            return;
        }
        let mut kept = Vec::with_capacity(self.errors.len());
        for e in std::mem::take(&mut self.errors) {
            match (e.message.strip_prefix(V1_PARSE_ERROR), &e.instance_id) {
                (Some(message), Some(id)) => self.results.push(TaskResult {
                    instance_id: id.clone(),
                    model_name_or_path: e.model_name_or_path.clone(),
                    instruction_set: crate::submission::instruction_set_from_path(&e.source.file),
                    source: Some(e.source.clone()),
                    patch_status: crate::patch::PatchStatus::Failed,
                    patch_error: Some(message.to_string()),
                    files: Vec::new(),
                    resolved: false,
                    subtests_passed: 0,
                    subtests_total: 0,
                    tests: Vec::new(),
                }),
                _ => kept.push(e),
            }
        }
        self.errors = kept;
        self.summary = Summary::of(&self.results, &self.errors);
        self.schema_version = SCHEMA_VERSION;
    }

    /// Pretty JSON with a trailing newline: the one serialisation, so CLI and browser exports of
    /// the same run are byte-identical.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The results as CSV (RFC 4180): one row per result, then one per entry that could not be
    /// scored (`patch_status` = `entry_error`, subtest counts empty). The one CSV writer, so the
    /// CLI's `report --csv` and the app's export of the same run are byte-identical. `tasks`
    /// names each task's repository (an empty cell for a task it does not list).
    pub fn to_csv(&self, tasks: &[crate::stats::TaskMeta]) -> String {
        let repos: std::collections::HashMap<&str, &str> =
            tasks.iter().map(|t| (t.instance_id.as_str(), t.repo.as_str())).collect();
        let repo_of = |id: &str| repos.get(id).copied().unwrap_or("");
        let mut out = String::from(
            "instance_id,repo,model_name_or_path,instruction_set,source,patch_status,resolved,\
             subtests_passed,subtests_total,error\n",
        );
        let mut row = |cells: [&str; 10]| csv_row(&mut out, &cells);
        for r in &self.results {
            row([
                &r.instance_id,
                repo_of(&r.instance_id),
                r.model_name_or_path.as_deref().unwrap_or(""),
                r.instruction_set.map_or("", InstructionSet::as_str),
                &r.source.as_ref().map(SourceRef::to_string).unwrap_or_default(),
                r.patch_status.as_str(),
                if r.resolved { "true" } else { "false" },
                &r.subtests_passed.to_string(),
                &r.subtests_total.to_string(),
                r.patch_error.as_deref().unwrap_or(""),
            ]);
        }
        for e in &self.errors {
            row([
                e.instance_id.as_deref().unwrap_or(""),
                e.instance_id.as_deref().map_or("", repo_of),
                e.model_name_or_path.as_deref().unwrap_or(""),
                "",
                &e.source.to_string(),
                "entry_error",
                "false",
                "",
                "",
                &e.message,
            ]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_a_spreadsheet_would_run_are_neutralised() {
        let mut out = String::new();
        csv_row(&mut out, &["=1+2", "+x", "-x", "@SUM(A1)", "\tx", "-2", "+1.5", "a=b", "x,y"]);
        assert_eq!(out, "'=1+2,'+x,'-x,'@SUM(A1),'\tx,-2,+1.5,a=b,\"x,y\"\n");
    }
    use crate::patch::PatchStatus;

    fn result(id: &str, status: PatchStatus, resolved: bool) -> TaskResult {
        TaskResult {
            instance_id: id.to_string(),
            model_name_or_path: None,
            instruction_set: None,
            source: None,
            patch_status: status,
            patch_error: None,
            files: Vec::new(),
            resolved,
            subtests_passed: u32::from(resolved),
            subtests_total: 1,
            tests: Vec::new(),
        }
    }

    #[test]
    fn csv_has_one_row_per_result_and_entry_error_quoting_what_needs_it() {
        let mut r = result("a", PatchStatus::Applied, true);
        r.model_name_or_path = Some("m, \"quoted\"".into());
        r.source = Some(SourceRef { file: "p.jsonl".into(), line: Some(3) });
        let mut failed = result("b", PatchStatus::Failed, false);
        failed.patch_error = Some("line 2\nline 3".into());
        let err = EntryError {
            source: SourceRef { file: "p.jsonl".into(), line: Some(9) },
            instance_id: Some("a".into()),
            model_name_or_path: None,
            message: "invalid JSON, line 9".into(),
        };
        let report = Report::new("h", vec![r, failed], vec![err]);
        let tasks = [crate::stats::TaskMeta {
            instance_id: "a".into(),
            repo: "x".into(),
            inspected_files: 1,
            methods: 1,
        }];
        assert_eq!(
            report.to_csv(&tasks),
            "instance_id,repo,model_name_or_path,instruction_set,source,patch_status,resolved,\
             subtests_passed,subtests_total,error\n\
             a,x,\"m, \"\"quoted\"\"\",,p.jsonl:3,applied,true,1,1,\n\
             b,,,,,failed,false,0,1,\"line 2\nline 3\"\n\
             a,x,,,p.jsonl:9,entry_error,false,,,\"invalid JSON, line 9\"\n"
        );
    }

    #[test]
    fn summary_counts_failed_patches_as_completed_and_unresolved() {
        let results = vec![
            result("a", PatchStatus::Applied, true),
            result("b", PatchStatus::None, false),
            result("c", PatchStatus::Failed, false),
        ];
        let errors = vec![
            EntryError {
                source: SourceRef { file: "p.jsonl".into(), line: Some(4) },
                instance_id: Some("d".into()),
                model_name_or_path: None,
                message: "unknown instance id".into(),
            },
            EntryError {
                source: SourceRef { file: "p.jsonl".into(), line: Some(5) },
                instance_id: None,
                model_name_or_path: None,
                message: "invalid JSON line".into(),
            },
        ];
        let s = Summary::of(&results, &errors);
        assert_eq!((s.submitted_instances, s.completed_instances, s.resolved_instances), (4, 3, 1));
        assert_eq!((s.unresolved_instances, s.empty_patch_instances, s.error_instances), (2, 1, 1));
        assert_eq!(s.patch_failed_instances, 1);
        assert_eq!(s.unresolved_ids, vec!["b", "c"]);
        assert_eq!(s.patch_failed_ids, vec!["c"]);
        assert_eq!(s.error_ids, vec!["d"]);
    }

    #[test]
    fn a_version_1_report_is_upgraded_its_unparsable_patches_becoming_failed_results() {
        let errors = vec![
            EntryError {
                source: SourceRef { file: "runs/lazy/p.jsonl".into(), line: Some(2) },
                instance_id: Some("b".into()),
                model_name_or_path: Some("m".into()),
                message: "patch does not parse: corrupt patch at line 7".into(),
            },
            EntryError {
                source: SourceRef { file: "runs/lazy/p.jsonl".into(), line: Some(3) },
                instance_id: Some("zz".into()),
                model_name_or_path: None,
                message: "unknown instance id \"zz\": not a task of the bundle".into(),
            },
        ];
        let mut v1 = Report::new("h", vec![result("a", PatchStatus::Applied, true)], errors);
        v1.schema_version = 1;
        let text = v1.to_json();
        let r = Report::from_json(&text, "r.json").unwrap();
        assert_eq!(r.schema_version, SCHEMA_VERSION);
        assert_eq!(r.results.len(), 2);
        let failed = &r.results[1];
        assert_eq!(
            (failed.instance_id.as_str(), failed.patch_status, failed.resolved),
            ("b", PatchStatus::Failed, false)
        );
        assert_eq!(failed.patch_error.as_deref(), Some("corrupt patch at line 7"));
        assert_eq!(failed.instruction_set, Some(InstructionSet::Lazy));
        assert_eq!(failed.model_name_or_path.as_deref(), Some("m"));
        assert_eq!(r.errors.len(), 1);
        assert_eq!((r.summary.completed_instances, r.summary.patch_failed_instances), (2, 1));
        assert_eq!(r.summary.error_ids, vec!["zz"]);
    }

    #[test]
    fn report_round_trips_and_refuses_other_versions() {
        let r = Report::new("abc", vec![result("a", PatchStatus::Applied, true)], Vec::new());
        let text = r.to_json();
        assert_eq!(Report::from_json(&text, "r.json").ok(), Some(r));
        let other = text.replace("\"schema_version\": 2", "\"schema_version\": 99");
        let err = Report::from_json(&other, "r.json").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("r.json: report schema_version 99 is not supported (this build reads 1 to 2)")
        );
    }
}
