//! `refscore score`: one patch for one task, or prediction files / trajectories / folders of them.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use cli::inputs::{self, Batch};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use scorer::report::{Report, SourceRef};
use scorer::submission::{Parsed, Submission};

use crate::bundle_dir::BundleDir;
use crate::{run, show};

use super::{CliError, Done, Outcome};

/// What to score.
pub(crate) enum Input {
    Single {
        task: String,
        patch: PathBuf,
    },
    Predictions(Vec<PathBuf>),
    /// `--combine ID,ID,... --patch FILE`: one patch against the combined task of those tasks.
    Combine {
        ids: Vec<String>,
        patch: PathBuf,
    },
}

pub(crate) struct Options {
    pub tasks: PathBuf,
    pub input: Input,
    pub out: Option<PathBuf>,
    pub json: bool,
    /// Worker threads, 0 = all cores.
    pub threads: usize,
}

/// Runs the command; usage and unreadable-input errors come back as `Err` (exit 2).
pub(crate) fn run(opts: &Options) -> Outcome {
    let bundle = BundleDir::open(&opts.tasks)?;
    if let Some(out) = &opts.out {
        let inputs: Vec<&Path> = match &opts.input {
            Input::Single { patch, .. } | Input::Combine { patch, .. } => vec![patch.as_path()],
            Input::Predictions(paths) => paths.iter().map(PathBuf::as_path).collect(),
        };
        let mut inputs = inputs;
        inputs.push(opts.tasks.as_path());
        crate::atomic::check_file_target("--out", out, &inputs)?;
    }
    if let Input::Combine { ids, patch } = &opts.input {
        return combined(&bundle, ids, patch, opts);
    }
    let parsed = match &opts.input {
        Input::Single { task, patch } => vec![single(&bundle, task, patch)?],
        Input::Predictions(paths) => {
            let expanded = inputs::expand(paths)?;
            for (dir, rel, why) in &expanded.left_out {
                eprintln!("{}/{}: left out: {why}", dir.display(), show::term(rel));
            }
            if let Some(target) = &opts.out {
                let files: Vec<&Path> = expanded.files.iter().map(|(_, p)| p.as_path()).collect();
                crate::atomic::check_file_target("--out", target, &files)?;
            }
            let mut out = Vec::new();
            for (name, path) in &expanded.files {
                out.push(inputs::read_file(name, path)?);
            }
            out
        }
        Input::Combine { .. } => Vec::new(),
    };
    let batch = Batch::new(&bundle, parsed);
    if batch.copies > 0 {
        eprintln!(
            "{} trajectory submissions left out: each repeats an entry of its run folder's \
             preds.json (same instance, same patch), which is scored instead",
            batch.copies
        );
    }
    for w in &batch.warnings {
        eprintln!("{}: warning: {}", show::term(&w.source.to_string()), show::term(&w.message));
    }
    let subs = &batch.submissions;

    let bar = progress(subs.len() as u64);
    let tick = || bar.inc(1);
    let scoring = run::score_all(&bundle, subs, opts.threads, &tick, run::Teardown::AtExit)?;
    bar.finish_and_clear();
    if let Input::Predictions(_) = opts.input {
        eprintln!(
            "{} submissions scored; {} test runs answered from an identical earlier run \
             (same test file, every file it read, probed or listed unchanged); of the runs \
             interpreted, {} test methods answered from an earlier run (methods that change no \
             shared state, whose files are unchanged)",
            subs.len(),
            scoring.reused_runs,
            scoring.reused_methods
        );
    }

    let report = batch.report(bundle.hash(), scoring.scored);
    let json = report.to_json();
    if let Some(out) = &opts.out {
        if let Err(e) = crate::atomic::write_file(out, json.as_bytes()) {
            return Err(write_failed(out, &e, &json));
        }
    }
    let text = if opts.json {
        json
    } else {
        match &opts.input {
            Input::Single { .. } | Input::Combine { .. } => show::single_table(&report),
            Input::Predictions(_) => show::score_table(&report, &bundle.task_meta()?),
        }
    };
    // A closed stdout (`| head`) is not a scoring failure.
    let _ = std::io::stdout().write_all(text.as_bytes());
    for e in &report.errors {
        eprintln!("{}: {}", show::term(&e.source.to_string()), show::term(&e.message));
    }
    Ok(if report.errors.is_empty() { Done::All } else { Done::SomeUnscored })
}

/// `--combine`: the patch applied once, every constituent's test file run on the patched tree. The
/// report (`--out`) holds the combined task as one row (methods `<task>::Class.method`); `--json`
/// prints the per-constituent result; the table names each constituent's verdict.
fn combined(bundle: &BundleDir, ids: &[String], patch: &Path, opts: &Options) -> Outcome {
    let task = crate::commands::combine::build(bundle, ids, None)?;
    let bytes = crate::fsread::read_file(patch, crate::fsread::MAX_INPUT_BYTES)
        .with_context(|| format!("{}: cannot read the patch", patch.display()))?;
    // On a scoring thread's stack, which `run_config`'s stack budget assumes.
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("score-combined".into())
            .stack_size(run::THREAD_STACK)
            .spawn_scoped(scope, || {
                let mut scorer = scorer::unittest::Scorer::new(run::run_config());
                scorer::combine::evaluate_combined(&mut scorer, &task.data, &task.base, &bytes)
            })
            .map_err(|e| anyhow::anyhow!("cannot start a scoring thread: {e}"))?
            .join()
            .map_err(|_| anyhow::anyhow!("the scoring thread panicked (a refscore bug)"))
    })??;
    let mut row = result.to_task_result();
    row.source = Some(SourceRef { file: patch.to_string_lossy().into_owned(), line: None });
    let report = Report::new(bundle.hash(), vec![row], Vec::new());
    if let Some(out) = &opts.out {
        let json = report.to_json();
        if let Err(e) = crate::atomic::write_file(out, json.as_bytes()) {
            return Err(write_failed(out, &e, &json));
        }
    }
    let text = if opts.json {
        let mut s = serde_json::to_string_pretty(&result)?;
        s.push('\n');
        s
    } else {
        let mut s = format!(
            "combined task {} ({} tasks of {})\n",
            result.id,
            result.parts.len(),
            task.data.repo
        );
        for p in &result.parts {
            s.push_str(&format!(
                "  {:<40} {}  {}/{} subtests\n",
                p.instance_id,
                if p.resolved { "resolved  " } else { "unresolved" },
                p.subtests_passed,
                p.subtests_total
            ));
        }
        if let Some(e) = &result.patch_error {
            s.push_str(&format!("patch: {} ({e})\n", result.patch_status.as_str()));
        }
        s.push_str(&format!(
            "{}; the combined task is {}\n",
            result.verdict(),
            if result.resolved { "resolved" } else { "unresolved" }
        ));
        s
    };
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(Done::All)
}

/// The report could not be written (full disk, file-size limit, ...): the scores are not lost, the
/// report goes to stdout instead, and the exit code says the command failed.
fn write_failed(out: &Path, e: &anyhow::Error, json: &str) -> anyhow::Error {
    eprintln!(
        "refscore score: error: {e:#}\nrefscore score: the report is printed to stdout instead, so no \
         score is lost ({} was not changed)",
        out.display()
    );
    let _ = std::io::stdout().write_all(json.as_bytes());
    CliError::Reported.into()
}

/// `--task ID --patch FILE`: an unknown task or unreadable patch is a usage error.
fn single(bundle: &BundleDir, task: &str, patch: &Path) -> Result<Parsed> {
    if !bundle.has_task(task) {
        bail!(
            "--task {task}: not a task of the bundle {} ({} tasks; see its index.json)",
            bundle.dir.display(),
            bundle.index.tasks.len()
        );
    }
    // Bytes as they are, as `git apply` reads them: a patch need not be UTF-8.
    let bytes = crate::fsread::read_file(patch, crate::fsread::MAX_INPUT_BYTES)
        .with_context(|| format!("{}: cannot read the patch", patch.display()))?;
    Ok(Parsed {
        submissions: vec![Submission {
            instance_id: task.to_string(),
            model_name_or_path: None,
            instruction_set: scorer::submission::instruction_set_from_path(
                &patch.to_string_lossy(),
            ),
            patch: bytes,
            source: SourceRef { file: patch.to_string_lossy().into_owned(), line: None },
        }],
        errors: Vec::new(),
        warnings: Vec::new(),
        overflow: Default::default(),
    })
}

fn progress(n: u64) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(n), target);
    if let Ok(style) =
        ProgressStyle::with_template("scoring {bar:30} {pos}/{len} submissions {elapsed}")
    {
        bar.set_style(style);
    }
    bar
}
