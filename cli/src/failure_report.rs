//! `refscore report REPORT --trajectories PATH... [--tasks BUNDLE] [--json]`: the run's
//! failure-mode section (shared/trajectories.md §1.3, §1.5).
//!
//! Each trajectory is paired with its result in REPORT by instance id (the log's own id, else the
//! file name `<instance_id>.traj` / `.traj.json`, as `score --predictions` reads it); with several
//! results for one id, the one scored from the same file, else of the same model, else the first.
//! The report gives the final verdicts and reads; `--tasks` adds what the report does not hold:
//! the pristine verdicts (the empty patch, scored here), the test source and the instruction
//! texts. Rates whose definition needs what is missing say "not computable" and why. A file that
//! cannot be read is listed with its error (field, step or line) and the others are still analysed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use scorer::report::{Report, TaskResult};
use scorer::trajectory::analysis::{analyse, TaskContext};
use scorer::trajectory::failure::{self, Detection, RunEntry, SetComparison, TaskEntry};
use scorer::trajectory::{read, Trajectory};
use serde::Serialize;

use crate::bundle_dir::BundleDir;
use crate::commands::trajectory::{context_of, instance_of, score_patches};

/// A file that could not be read as a trajectory.
#[derive(Debug, Serialize)]
pub(crate) struct FileError {
    pub file: String,
    pub message: String,
}

/// One analysed trajectory.
#[derive(Debug, Serialize)]
pub(crate) struct Analysed {
    pub file: String,
    pub instance_id: Option<String>,
    pub model: Option<String>,
    /// Whether a result of the report was found for it.
    pub paired: bool,
    pub instruction_set: Option<String>,
    pub exit: String,
    pub resolved: Option<bool>,
    pub primary: Option<String>,
    /// `id/rule` of each flag, with its evidence steps.
    pub flags: Vec<Flag>,
    #[serde(skip)]
    detection: Detection,
    #[serde(skip)]
    cost_usd: Option<f64>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Flag {
    pub id: String,
    pub rule: String,
    pub steps: Vec<usize>,
    pub tests: Vec<String>,
}

/// The whole section, as `--json` prints it.
#[derive(Debug, Serialize)]
pub(crate) struct Section {
    pub report: String,
    pub trajectories: Vec<Analysed>,
    pub errors: Vec<FileError>,
    /// Whether pristine verdicts were available (`--tasks`): FM-1 and FM-7 need them.
    pub pristine_verdicts: bool,
    pub summary: failure::RunFailureSummary,
    /// FM-8 per agent (model name, or "unknown").
    pub instruction_sets: BTreeMap<String, SetComparison>,
}

/// Every file under `paths` (folders walked in name order).
fn files(paths: &[PathBuf]) -> Vec<(PathBuf, bool)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, bool)>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            out.push((dir.to_path_buf(), true));
            return;
        };
        let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for e in entries {
            if e.is_dir() {
                walk(&e, out);
            } else {
                out.push((e, false));
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else {
            out.push((p.clone(), true));
        }
    }
    out
}

/// A folder's file that is not a trajectory is skipped unless its name says it is one.
fn named_as_trajectory(p: &Path) -> bool {
    let n = p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    n.ends_with(".traj") || n.ends_with(".traj.json") || n.ends_with(".eval")
}

/// Why a file could not be read; for text that does not parse as JSON, also where it breaks.
fn read_error(bytes: &[u8], e: &scorer::trajectory::TrajectoryError) -> String {
    if matches!(e, scorer::trajectory::TrajectoryError::Unrecognised(_)) {
        if let Err(j) = serde_json::from_slice::<serde_json::Value>(bytes) {
            return format!("{e}: invalid JSON: {j}");
        }
    }
    e.to_string()
}

/// The report's result for a trajectory.
fn pair<'r>(
    report: &'r Report,
    id: &str,
    file: &str,
    model: Option<&str>,
) -> Option<&'r TaskResult> {
    let same: Vec<&TaskResult> = report.results.iter().filter(|r| r.instance_id == id).collect();
    let base = Path::new(file).file_name().map(|n| n.to_string_lossy().into_owned());
    same.iter()
        .find(|r| {
            r.source.as_ref().is_some_and(|s| {
                Path::new(&s.file).file_name().map(|n| n.to_string_lossy().into_owned()) == base
            })
        })
        .or_else(|| {
            same.iter().find(|r| model.is_some() && r.model_name_or_path.as_deref() == model)
        })
        .or_else(|| same.first())
        .copied()
}

/// Reads, pairs and analyses every trajectory, then sums the run.
pub(crate) fn section(
    report_name: &str,
    report: &Report,
    paths: &[PathBuf],
    bundle: Option<&BundleDir>,
) -> Result<Section> {
    let mut errors = Vec::new();
    let mut read_ok: Vec<(String, Trajectory)> = Vec::new();
    for (path, named) in files(paths) {
        let file = path.display().to_string();
        let bytes = match crate::fsread::read_file(&path, crate::fsread::MAX_INPUT_BYTES) {
            Ok(b) => b,
            Err(e) => {
                errors.push(FileError { file, message: format!("{e:#}") });
                continue;
            }
        };
        if !named && !named_as_trajectory(&path) && scorer::trajectory::detect(&bytes).is_none() {
            continue;
        }
        match read(&bytes) {
            Ok(ts) => read_ok.extend(ts.into_iter().map(|t| (file.clone(), t))),
            Err(e) => errors.push(FileError { file, message: read_error(&bytes, &e) }),
        }
    }
    let mut pristine: BTreeMap<String, Option<TaskResult>> = BTreeMap::new();
    let mut analysed = Vec::new();
    for (file, t) in &read_ok {
        let id = instance_of(t, file);
        let fin = id.as_deref().and_then(|id| pair(report, id, file, t.model.as_deref()));
        let ctx: Option<TaskContext> = match (id.as_deref(), bundle) {
            (Some(id), Some(b)) if b.has_task(id) => {
                let task = b.load_task(id)?;
                let p = pristine
                    .entry(id.to_string())
                    .or_insert_with(|| score_patches(&task, None, "(empty patch)", &[""]).remove(0))
                    .clone();
                Some(context_of(&task, fin.cloned(), p))
            }
            (Some(id), _) => fin.map(|r| TaskContext {
                instance_id: id.to_string(),
                final_result: Some(r.clone()),
                ..TaskContext::default()
            }),
            _ => None,
        };
        let a = analyse(t, ctx.as_ref());
        let detection =
            Detection { failure_modes: a.failure_modes, facts: a.facts, primary: a.primary };
        analysed.push(Analysed {
            file: file.clone(),
            instance_id: id,
            model: t.model.clone(),
            paired: fin.is_some(),
            instruction_set: detection.facts.instruction_set.map(|s| s.as_str().to_string()),
            exit: detection.facts.exit.clone(),
            resolved: detection.facts.resolved,
            primary: detection.primary.clone(),
            flags: detection
                .failure_modes
                .iter()
                .map(|m| Flag {
                    id: m.id.clone(),
                    rule: m.rule.clone(),
                    steps: m.steps.clone(),
                    tests: m.tests.clone(),
                })
                .collect(),
            cost_usd: t.model_stats.as_ref().and_then(|m| m.cost_usd),
            detection,
        });
    }
    let entries: Vec<RunEntry<'_>> = analysed
        .iter()
        .map(|a| RunEntry { detection: &a.detection, cost_usd: a.cost_usd })
        .collect();
    let summary = failure::summarise_run(&entries);
    let mut by_model: BTreeMap<String, Vec<TaskEntry<'_>>> = BTreeMap::new();
    for (a, e) in analysed.iter().zip(&entries) {
        let Some(id) = a.instance_id.as_deref() else { continue };
        by_model
            .entry(a.model.clone().unwrap_or_else(|| "unknown".into()))
            .or_default()
            .push(TaskEntry { instance_id: id, entry: *e });
    }
    let instruction_sets =
        by_model.iter().map(|(m, es)| (m.clone(), failure::compare_instruction_sets(es))).collect();
    Ok(Section {
        report: report_name.to_string(),
        trajectories: analysed,
        errors,
        pristine_verdicts: bundle.is_some(),
        summary,
        instruction_sets,
    })
}

/// The section as text: one line per trajectory, the files not read, the run rates, FM-8.
pub(crate) fn text(s: &Section) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let paired = s.trajectories.iter().filter(|a| a.paired).count();
    let _ = writeln!(
        out,
        "trajectories: {} read, {paired} paired with results of {}, {} not read",
        s.trajectories.len(),
        s.report,
        s.errors.len()
    );
    if !s.pristine_verdicts {
        out.push_str("  (no --tasks: no pristine verdicts, so FM-1 and FM-7 are not computable)\n");
    }
    for a in &s.trajectories {
        let flags: Vec<String> = a
            .flags
            .iter()
            .map(|f| {
                let steps = if f.steps.is_empty() {
                    String::new()
                } else {
                    format!(
                        " @{}",
                        f.steps.iter().map(usize::to_string).collect::<Vec<_>>().join(",")
                    )
                };
                format!("{}/{}{steps}", f.id, f.rule)
            })
            .collect();
        let resolved = match a.resolved {
            Some(true) => "resolved",
            Some(false) => "unresolved",
            None => "not scored",
        };
        let _ = writeln!(
            out,
            "  {} [{}] {} set={} exit={} primary={}: {}",
            a.file,
            a.instance_id.as_deref().unwrap_or("?"),
            resolved,
            a.instruction_set.as_deref().unwrap_or("unknown"),
            a.exit,
            a.primary.as_deref().unwrap_or("-"),
            if flags.is_empty() { "no flags".to_string() } else { flags.join(" ") }
        );
    }
    for e in &s.errors {
        let _ = writeln!(out, "  not read: {}: {}", e.file, e.message);
    }
    out.push('\n');
    out.push_str(&failure::run_summary_text(&s.summary));
    for (model, c) in &s.instruction_sets {
        let _ = writeln!(out, "fm8 by task and instruction set, agent {model}:");
        out.push_str(&failure::set_comparison_text(c));
    }
    out
}
