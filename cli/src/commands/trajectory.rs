//! `refscore trajectory FILE [--tasks BUNDLE] [--json]`: an agent log of any supported format,
//! normalised and printed (one JSON object, or a list of them for an Inspect log of several
//! samples; or a readable text with one block per step).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use scorer::report::{SourceRef, TaskResult};
use scorer::submission::{evaluate_submission, Submission};
use scorer::trajectory::analysis::{analyse, TaskContext};
use scorer::trajectory::{failure, read, view, Trajectory};
use scorer::unittest::Scorer;

use crate::bundle_dir::{BundleDir, LoadedTask};
use crate::run::{run_config, THREAD_STACK};

use super::{Done, Outcome};

pub(crate) fn run(file: &Path, tasks: Option<&Path>, json: bool) -> Outcome {
    let name = file.display().to_string();
    let bytes = if file.is_dir() {
        event_folder(file)?
    } else {
        crate::fsread::read_file(file, crate::fsread::MAX_INPUT_BYTES)?
    };
    let trajectories =
        read(&bytes).with_context(|| format!("{name}: cannot read as a trajectory"))?;
    let bundle = tasks.map(BundleDir::open).transpose()?;
    let mut rendered = Vec::new();
    let mut text = String::new();
    let mut detections = Vec::new();
    for (i, t) in trajectories.iter().enumerate() {
        let ctx = match &bundle {
            Some(b) => task_context(b, t, &name)?,
            None => None,
        };
        let a = analyse(t, ctx.as_ref());
        detections.push((run_entry(&a), t.model_stats.as_ref().and_then(|m| m.cost_usd)));
        if json {
            rendered.push(view::to_json(t, &a));
        } else {
            if trajectories.len() > 1 {
                text.push_str(&format!("\n═══ sample {} of {} ═══\n", i + 1, trajectories.len()));
            }
            text.push_str(&view::to_text(t, &a));
        }
    }
    if !json && trajectories.len() > 1 {
        text.push('\n');
        text.push_str(&run_failure_modes(&detections));
    }
    if json {
        let value = if trajectories.len() == 1 && !is_many(&bytes) {
            rendered.pop().unwrap_or(serde_json::Value::Null)
        } else {
            serde_json::Value::Array(rendered)
        };
        text = serde_json::to_string_pretty(&value)?;
        text.push('\n');
    }
    // A closed stdout (`| head`) is not an error.
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(Done::All)
}

/// The part of an analysis the run rates need.
fn run_entry(a: &scorer::trajectory::analysis::Analysis) -> failure::Detection {
    failure::Detection {
        failure_modes: a.failure_modes.clone(),
        facts: a.facts.clone(),
        primary: a.primary.clone(),
    }
}

/// The per-run failure-mode section of a file holding several trajectories.
fn run_failure_modes(detections: &[(failure::Detection, Option<f64>)]) -> String {
    let entries: Vec<failure::RunEntry<'_>> = detections
        .iter()
        .map(|(d, cost)| failure::RunEntry { detection: d, cost_usd: *cost })
        .collect();
    failure::run_summary_text(&failure::summarise_run(&entries))
}

/// An OpenHands V1 conversation's `events/` folder (`event-<index>-<uuid>.json`, one event per
/// file): its own `.json` files (not those of subfolders), read as every input is (type and size
/// checked), joined in index order as the browser joins a dropped folder
/// (`scorer::trajectory::join_event_files`).
fn event_folder(dir: &Path) -> Result<Vec<u8>> {
    let name = dir.display();
    let walk = crate::fsread::walk(dir, &|n| n.to_ascii_lowercase().ends_with(".json"))?;
    for (rel, why) in &walk.skipped {
        eprintln!("{name}/{rel}: left out: {why}");
    }
    let mut files = Vec::new();
    let mut total = 0u64;
    for (rel, path) in walk.files.iter().filter(|(rel, _)| !rel.contains('/')) {
        let bytes = crate::fsread::read_file(path, crate::fsread::MAX_INPUT_BYTES)?;
        total += bytes.len() as u64;
        if total > crate::fsread::MAX_INPUT_BYTES {
            anyhow::bail!(
                "{name}: over {} MiB of event files; refused",
                crate::fsread::MAX_INPUT_BYTES >> 20
            );
        }
        files.push((rel.clone(), bytes));
    }
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    scorer::trajectory::join_event_files(&refs)
        .with_context(|| format!("{name}: a folder without .json event files"))
}

/// Inspect logs hold samples: printed as a list even when there is one.
fn is_many(bytes: &[u8]) -> bool {
    scorer::trajectory::detect(bytes) == Some(scorer::trajectory::Format::Inspect)
}

/// The task facts the analysis uses: the test file and the verdicts of the submitted patch and
/// of the empty patch, scored on a thread with the scorer's stack.
fn task_context(bundle: &BundleDir, t: &Trajectory, name: &str) -> Result<Option<TaskContext>> {
    let id = instance_of(t, name);
    let Some(id) = id.as_deref().filter(|id| bundle.has_task(id)) else {
        eprintln!(
            "refscore trajectory: {name}: instance {:?} is not a task of the bundle; analysing without it",
            id.as_deref().unwrap_or("(none)")
        );
        return Ok(None);
    };
    let task = bundle.load_task(id)?;
    let patch = t.submission.clone().unwrap_or_default();
    let mut results = score_patches(&task, t.model.clone(), name, &[&patch, ""]).into_iter();
    let (final_result, pristine_result) = (results.next().flatten(), results.next().flatten());
    Ok(Some(context_of(&task, final_result, pristine_result)))
}

/// The trajectory's instance id: its own, else the file name without `.traj.json` / `.traj`
/// (SWE-agent names its logs `<instance_id>.traj`), as `score --predictions` reads it.
pub(crate) fn instance_of(t: &Trajectory, file: &str) -> Option<String> {
    if let Some(id) = t.instance_id.clone() {
        return Some(id);
    }
    let base = Path::new(file).file_name()?.to_string_lossy().into_owned();
    let lower = base.to_ascii_lowercase();
    [".traj.json", ".traj"]
        .iter()
        .find(|ext| lower.ends_with(*ext))
        .map(|ext| base[..base.len() - ext.len()].to_string())
}

/// The analysis context of a bundle task with the verdicts given.
pub(crate) fn context_of(
    task: &LoadedTask,
    final_result: Option<TaskResult>,
    pristine_result: Option<TaskResult>,
) -> TaskContext {
    TaskContext {
        instance_id: task.data.id.clone(),
        test_source: Some(task.data.test.source.clone()),
        final_result,
        pristine_result,
        instructions: TaskContext::instructions_of(&task.data.instructions),
        repo: Some(task.data.repo.clone()),
    }
}

/// Scores each patch (an empty one is the pristine repository) of a bundle task on a thread
/// with the scorer's stack, sharing one `Scorer`; `None` for all when that thread failed.
pub(crate) fn score_patches(
    task: &LoadedTask,
    model: Option<String>,
    source: &str,
    patches: &[&str],
) -> Vec<Option<TaskResult>> {
    let submission = |patch: &str| Submission {
        instance_id: task.data.id.clone(),
        model_name_or_path: model.clone(),
        instruction_set: None,
        patch: patch.as_bytes().to_vec(),
        source: SourceRef { file: source.to_string(), line: None },
    };
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(THREAD_STACK)
            .spawn_scoped(s, || {
                let mut scorer = Scorer::new(run_config());
                patches
                    .iter()
                    .map(|p| {
                        Some(evaluate_submission(
                            &mut scorer,
                            &task.base,
                            &task.data,
                            &submission(p),
                        ))
                    })
                    .collect::<Vec<_>>()
            })
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or_else(|| vec![None; patches.len()])
    })
}
