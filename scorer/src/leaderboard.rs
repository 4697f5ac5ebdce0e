//! Leaderboard data: published RefactorBench results (`public/leaderboard/published.json`, format in
//! `tasks/LEADERBOARD.md`) and local runs turned into rows of the same table.
//!
//! No I/O: the file comes in as bytes, a local run as a [`Report`]. Published figures are copied
//! from their sources exactly; nothing here recomputes them. A row with a `report` file behind it is
//! drillable; one without is "published figures, no per-task data".

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};

use crate::report::{InstructionSet, Report};
use crate::stats::TaskMeta;

/// Schema version of the leaderboard file; bump on an incompatible change.
pub const LEADERBOARD_SCHEMA_VERSION: u32 = 1;

/// The whole `published.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub schema_version: u32,
    pub entries: Vec<Entry>,
}

/// Who ran the harness that produced a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Harness {
    /// The benchmark authors' harness (the paper), or refscore's scoring of a local run.
    Official,
    /// Someone else's harness: different agent wrapper, Python version or task subset.
    ThirdParty,
}

/// Where a figure was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// Publication or project (`RefactorBench paper (arXiv 2503.07832)`).
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The exact place: section, table, file and row.
    pub location: String,
}

/// Cost, when the source gives one. `per` says what it is divided by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub usd: f64,
    pub per: CostUnit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostUnit {
    SolvedInstance,
    /// One task attempt (one query), as Better Harnesses reports it.
    Query,
}

/// Cautions that keep a row out of the ranked table or qualify it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Flags {
    /// The agent could run the grading tests (or saw their results) before it stopped.
    pub grader_in_loop: bool,
    /// Not the whole task set was attempted or counted (crashed run, hand-picked subset).
    pub partial: bool,
    /// The source states the figure ambiguously or contradicts itself.
    pub uncertain: bool,
    /// Not an agent (a deterministic tool).
    pub non_agent: bool,
    /// No rate to show: the entry carries its figures in `notes` only.
    pub note_only: bool,
}

/// One row: a published figure, or a local run ([`entry_from_report`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Unique in the file; letters, digits, `-`, `_`, `.` (it names URLs).
    pub id: String,
    /// Scaffold or agent (`SWE-agent`, `GitHub Copilot CLI`, `Human developer`).
    pub agent: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// `None` only for note-only rows that span the instruction sets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction_set: Option<InstructionSet>,
    /// Setup within the scaffold (`S1 + LSP`, `S2-AST retrieval`), when the source names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// Resolved rate in percent of `n`, as published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<f64>,
    /// Resolved tasks, when the source gives the count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_count: Option<u32>,
    /// Tasks submitted (local runs): `resolved_of_submitted` is over these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_of_submitted: Option<f64>,
    /// Subtests (test methods) passed, in percent, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtests: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    /// The task denominator; absent only when the source does not state it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// Runs averaged (1 unless the source averages rollouts).
    #[serde(default = "one")]
    pub runs: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    pub source: Source,
    pub harness: Harness,
    /// The harness by name (`RefactorBench paper`, `RefactorPlatform`, `refscore`).
    pub harness_name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default)]
    pub flags: Flags,
    /// A `refscore score --out` report next to `published.json`: the row is drillable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
}

fn one() -> u32 {
    1
}

impl Entry {
    /// Ranked rows: no grader in the loop, the whole task set, an agent, a rate to rank by.
    pub fn is_ranked(&self) -> bool {
        let f = self.flags;
        !(f.grader_in_loop || f.partial || f.non_agent || f.note_only) && self.resolved.is_some()
    }

    /// Whether per-task data stands behind the row.
    pub fn is_drillable(&self) -> bool {
        self.report.is_some()
    }
}

/// Why a leaderboard file was refused. Entry errors name the entry (its id, or its position when
/// it has none) and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeaderboardError {
    #[error("{file}: invalid JSON: {message}")]
    Json { file: String, message: String },
    #[error("{file}: leaderboard schema_version {found} is not supported (this build reads {LEADERBOARD_SCHEMA_VERSION})")]
    Version { file: String, found: u64 },
    #[error("{file}: entry {entry}: field {field}: {message}")]
    Field { file: String, entry: String, field: &'static str, message: String },
    #[error("{file}: entry {entry}: {message}")]
    Entry { file: String, entry: String, message: String },
}

/// Reads and validates a leaderboard file. `file` names it in messages.
pub fn read(bytes: &[u8], file: &str) -> Result<Leaderboard, LeaderboardError> {
    let json = |e: serde_json::Error| LeaderboardError::Json {
        file: file.to_string(),
        message: e.to_string(),
    };
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(json)?;
    let found = value.get("schema_version").and_then(serde_json::Value::as_u64).unwrap_or(0);
    if found != u64::from(LEADERBOARD_SCHEMA_VERSION) {
        return Err(LeaderboardError::Version { file: file.to_string(), found });
    }
    let raw = value.get("entries").and_then(serde_json::Value::as_array).ok_or_else(|| {
        LeaderboardError::Json { file: file.to_string(), message: "no `entries` list".into() }
    })?;
    let mut entries = Vec::with_capacity(raw.len());
    for (i, v) in raw.iter().enumerate() {
        let name = v
            .get("id")
            .and_then(serde_json::Value::as_str)
            .map_or_else(|| format!("#{}", i + 1), |s| format!("{s:?}"));
        // serde's message for an unknown enum variant does not say which field; check by hand.
        if let Some(set) = v.get("instruction_set").filter(|s| !s.is_null()) {
            if set.as_str().and_then(InstructionSet::from_name).is_none() {
                return Err(LeaderboardError::Field {
                    file: file.to_string(),
                    entry: name,
                    field: "instruction_set",
                    message: format!("{set} is not lazy, base or descriptive"),
                });
            }
        }
        let e: Entry = serde_json::from_value(v.clone()).map_err(|e| LeaderboardError::Entry {
            file: file.to_string(),
            entry: name,
            message: e.to_string(),
        })?;
        entries.push(e);
    }
    let board = Leaderboard { schema_version: LEADERBOARD_SCHEMA_VERSION, entries };
    validate(&board, file)?;
    Ok(board)
}

/// Checks what serde cannot: rates in 0..=100, counts within `n`, unique safe ids, a rate or a
/// note for every row.
pub fn validate(board: &Leaderboard, file: &str) -> Result<(), LeaderboardError> {
    let mut seen = HashSet::new();
    for e in &board.entries {
        let field = |field: &'static str, message: String| LeaderboardError::Field {
            file: file.to_string(),
            entry: format!("{:?}", e.id),
            field,
            message,
        };
        if !crate::bundle::is_valid_task_id(&e.id) {
            return Err(field("id", "use letters, digits, '.', '-', '_'".into()));
        }
        if !seen.insert(e.id.as_str()) {
            return Err(field("id", "used by an earlier entry".into()));
        }
        for (name, rate) in [
            ("resolved", e.resolved),
            ("resolved_of_submitted", e.resolved_of_submitted),
            ("subtests", e.subtests),
        ] {
            if let Some(r) = rate {
                if !(0.0..=100.0).contains(&r) {
                    return Err(field(name, format!("{r} is not a percentage in 0..=100")));
                }
            }
        }
        if let Some(c) = &e.cost {
            if !(c.usd.is_finite() && c.usd >= 0.0) {
                return Err(field("cost", format!("{} is not a cost in dollars", c.usd)));
            }
        }
        if e.n == Some(0) {
            return Err(field("n", "a task denominator of 0".into()));
        }
        if let (Some(count), Some(n)) = (e.resolved_count, e.n) {
            if count > n {
                return Err(field("resolved_count", format!("{count} is more than n = {n}")));
            }
        }
        if e.runs == 0 {
            return Err(field("runs", "0 runs".into()));
        }
        if e.flags.note_only {
            if e.notes.is_empty() {
                return Err(field("notes", "a note-only entry needs its notes".into()));
            }
        } else {
            if e.resolved.is_none() && e.resolved_count.is_none() {
                return Err(field("resolved", "give `resolved` or `resolved_count`".into()));
            }
            if e.n.is_none() && e.resolved_count.is_some() {
                return Err(field("n", "missing (a count needs its denominator)".into()));
            }
            if e.instruction_set.is_none() {
                return Err(field("instruction_set", "missing".into()));
            }
        }
        if let Some(r) = &e.report {
            let ok = !r.is_empty()
                && !r.starts_with('.')
                && r.ends_with(".json")
                && r.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
            if !ok {
                return Err(field(
                    "report",
                    format!("{r:?} is not a file name next to the leaderboard"),
                ));
            }
        }
    }
    Ok(())
}

/// How a local run is described in its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLabel {
    pub id: String,
    pub agent: String,
    pub model: Option<String>,
    pub instruction_set: InstructionSet,
    /// The report's file name next to `published.json`, when it is saved there.
    pub report: Option<String>,
}

/// Why a report cannot become one row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FromReportError {
    #[error("the bundle has no tasks")]
    NoTasks,
    #[error("task {0} has several results in the report (one row is one run: filter it to one model and instruction set)")]
    Repeated(String),
}

/// Percent rounded to one decimal, as the published figures are given.
fn percent(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| (part as f64 * 1000.0 / whole as f64).round() / 10.0)
}

/// A local run as a leaderboard row, scored by refscore (harness `official`: the paper's rule on
/// CPython-identical verdicts). `resolved` is over every task of the bundle (`n`, a task not
/// submitted counts as unresolved, as in the paper), `resolved_of_submitted` over the tasks the
/// report names, `subtests` over every method of every bundle task (a task not submitted or whose
/// patch did not apply passes none).
pub fn entry_from_report(
    report: &Report,
    tasks: &[TaskMeta],
    label: RunLabel,
) -> Result<Entry, FromReportError> {
    if tasks.is_empty() {
        return Err(FromReportError::NoTasks);
    }
    let mut seen = BTreeSet::new();
    let (mut resolved, mut passed) = (0u64, 0u64);
    for r in &report.results {
        if !seen.insert(r.instance_id.as_str()) {
            return Err(FromReportError::Repeated(r.instance_id.clone()));
        }
        resolved += u64::from(r.resolved);
        passed += u64::from(r.subtests_passed);
    }
    let submitted = seen.len() as u64
        + report
            .errors
            .iter()
            .filter_map(|e| e.instance_id.as_deref())
            .filter(|id| !seen.contains(id))
            .collect::<BTreeSet<_>>()
            .len() as u64;
    let n = tasks.len() as u64;
    let methods: u64 = tasks.iter().map(|t| u64::from(t.methods)).sum();
    let to_u32 = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    Ok(Entry {
        id: label.id,
        agent: label.agent,
        model: label.model,
        instruction_set: Some(label.instruction_set),
        setup: None,
        resolved: percent(resolved, n),
        resolved_count: Some(to_u32(resolved)),
        submitted: Some(to_u32(submitted)),
        resolved_of_submitted: percent(resolved, submitted),
        subtests: percent(passed, methods),
        cost: None,
        n: Some(to_u32(n)),
        runs: 1,
        date: None,
        source: Source {
            name: "local run".into(),
            url: None,
            location: format!("refscore report, bundle {}", report.bundle.hash),
        },
        harness: Harness::Official,
        harness_name: format!("refscore {}", report.scorer.version),
        notes: Vec::new(),
        flags: Flags { partial: submitted < n, ..Flags::default() },
        report: label.report,
    })
}

impl Report {
    /// A short content hash of the report: the first 16 hex digits of the sha256 of its canonical
    /// JSON ([`Report::to_json`]), so comparisons can be keyed by the reports they compare.
    pub fn content_hash(&self) -> String {
        let mut h = crate::bundle::sha256_hex(self.to_json().as_bytes());
        h.truncate(16);
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::PatchStatus;
    use crate::report::{EntryError, SourceRef, TaskResult};

    const MINIMAL: &str = r#"{"schema_version": 1, "entries": [
      {"id": "a", "agent": "SWE-agent", "model": "GPT-4", "instruction_set": "base",
       "resolved": 22, "n": 100, "harness": "official", "harness_name": "paper",
       "source": {"name": "paper", "location": "Table 2"}}
    ]}"#;

    fn err(text: &str) -> String {
        read(text.as_bytes(), "p.json").err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn reads_a_minimal_file_with_defaults() {
        let b = read(MINIMAL.as_bytes(), "p.json").unwrap();
        let e = &b.entries[0];
        assert_eq!(
            (e.resolved, e.n, e.runs, e.flags),
            (Some(22.0), Some(100), 1, Flags::default())
        );
        assert!(e.is_ranked() && !e.is_drillable());
    }

    #[test]
    fn errors_name_the_entry_and_the_field() {
        assert_eq!(
            err(&MINIMAL.replace("\"base\"", "\"medium\"")),
            "p.json: entry \"a\": field instruction_set: \"medium\" is not lazy, base or descriptive"
        );
        assert_eq!(
            err(&MINIMAL.replace("\"resolved\": 22", "\"resolved\": 122")),
            "p.json: entry \"a\": field resolved: 122 is not a percentage in 0..=100"
        );
        let entry = r#"{"id": "a", "agent": "x", "instruction_set": "lazy", "resolved": 1, "n": 1,
            "harness": "official", "harness_name": "p", "source": {"name": "p", "location": "l"}}"#;
        let dup = format!(r#"{{"schema_version": 1, "entries": [{entry}, {entry}]}}"#);
        assert_eq!(err(&dup), "p.json: entry \"a\": field id: used by an earlier entry");
        let count = MINIMAL.replace("\"n\": 100", "\"n\": 10, \"resolved_count\": 11");
        assert_eq!(
            err(&count),
            "p.json: entry \"a\": field resolved_count: 11 is more than n = 10"
        );
        let no_harness = MINIMAL.replace("\"harness\": \"official\",", "");
        assert!(err(&no_harness).starts_with("p.json: entry \"a\": missing field `harness`"));
        let nameless = MINIMAL.replace("\"id\": \"a\", ", "");
        assert!(err(&nameless).starts_with("p.json: entry #1: missing field `id`"));
        let escape = MINIMAL.replace("\"n\": 100", "\"n\": 100, \"report\": \"../x.json\"");
        assert!(err(&escape).contains("field report"));
        assert!(err(&MINIMAL.replace("\"schema_version\": 1", "\"schema_version\": 2"))
            .contains("schema_version 2 is not supported"));
    }

    fn result(id: &str, resolved: bool, passed: u32, status: PatchStatus) -> TaskResult {
        TaskResult {
            instance_id: id.into(),
            model_name_or_path: None,
            instruction_set: None,
            source: None,
            patch_status: status,
            patch_error: None,
            files: Vec::new(),
            resolved,
            subtests_passed: passed,
            subtests_total: 4,
            tests: Vec::new(),
        }
    }

    fn meta(id: &str, methods: u32) -> TaskMeta {
        TaskMeta { instance_id: id.into(), repo: "r".into(), inspected_files: 1, methods }
    }

    fn label() -> RunLabel {
        RunLabel {
            id: "local".into(),
            agent: "mine".into(),
            model: None,
            instruction_set: InstructionSet::Descriptive,
            report: Some("local.json".into()),
        }
    }

    #[test]
    fn a_report_becomes_a_row_over_the_bundle_and_over_submitted() {
        let report = Report::new(
            "h",
            vec![
                result("a", true, 4, PatchStatus::Applied),
                result("b", false, 1, PatchStatus::Applied),
            ],
            vec![EntryError {
                source: SourceRef { file: "p.jsonl".into(), line: Some(3) },
                instance_id: Some("c".into()),
                model_name_or_path: None,
                message: "patch does not parse".into(),
            }],
        );
        let tasks = [meta("a", 4), meta("b", 4), meta("c", 4), meta("d", 8)];
        let e = entry_from_report(&report, &tasks, label()).unwrap();
        // 1 of 4 tasks; 1 of 3 submitted; 5 of 20 methods.
        assert_eq!(
            (e.resolved, e.resolved_of_submitted, e.subtests),
            (Some(25.0), Some(33.3), Some(25.0))
        );
        assert_eq!((e.resolved_count, e.submitted, e.n), (Some(1), Some(3), Some(4)));
        assert!(e.flags.partial && e.is_drillable() && !e.is_ranked());
        // The row validates like a published one.
        let board = Leaderboard { schema_version: 1, entries: vec![e] };
        assert_eq!(validate(&board, "x"), Ok(()));

        let twice = Report::new(
            "h",
            vec![
                result("a", true, 4, PatchStatus::Applied),
                result("a", false, 0, PatchStatus::Failed),
            ],
            vec![],
        );
        assert_eq!(
            entry_from_report(&twice, &tasks, label()),
            Err(FromReportError::Repeated("a".into()))
        );
        assert_eq!(entry_from_report(&report, &[], label()), Err(FromReportError::NoTasks));
    }

    #[test]
    fn content_hash_follows_the_canonical_json() {
        let a = Report::new("h", vec![result("a", true, 4, PatchStatus::Applied)], vec![]);
        let h = a.content_hash();
        assert_eq!(h.len(), 16);
        assert!(h.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(h, crate::bundle::sha256_hex(a.to_json().as_bytes())[..16]);
        assert_eq!(h, a.clone().content_hash());
        let b = Report::new("h", vec![result("a", false, 3, PatchStatus::Applied)], vec![]);
        assert_ne!(h, b.content_hash());
    }
}
