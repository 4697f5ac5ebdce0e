//! `refscore report`: a summary of a scored run, a comparison of two, or the failure-mode section
//! from the run's agent logs; as a table, CSV or JSON.

use std::io::Write;
use std::path::PathBuf;

use super::{Done, Outcome};
use crate::{atomic, bundle_dir, failure_report, fsread, show};

pub(crate) fn read_report(path: &std::path::Path) -> anyhow::Result<scorer::report::Report> {
    use anyhow::Context;
    let name = path.to_string_lossy();
    let bytes = fsread::read_file(path, fsread::MAX_INPUT_BYTES)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    if scorer::submission::looks_utf16(bytes) {
        anyhow::bail!("{name}: the file is UTF-16 text, which is not supported: save it as UTF-8");
    }
    let text = std::str::from_utf8(bytes)
        .with_context(|| format!("{name}: not a refscore report: not UTF-8 text"))?;
    Ok(scorer::report::Report::from_json(text, &name)?)
}

/// `refscore report`'s output choices.
pub(crate) struct ReportOptions<'a> {
    pub compare: Option<&'a std::path::Path>,
    pub csv: bool,
    pub out: Option<&'a std::path::Path>,
    /// Agent logs for the failure-mode section.
    pub trajectories: &'a [PathBuf],
    /// The failure-mode section as JSON.
    pub json: bool,
}

/// `refscore report`: a summary, or a comparison, as a table or CSV.
pub(crate) fn run(
    path: &std::path::Path,
    opts: &ReportOptions<'_>,
    tasks: Option<&std::path::Path>,
) -> Outcome {
    let (compare, csv, trajectories, json) = (opts.compare, opts.csv, opts.trajectories, opts.json);
    if let Some(out) = opts.out {
        let mut inputs = vec![path];
        inputs.extend(compare);
        atomic::check_file_target("--out", out, &inputs)?;
    }
    let report = read_report(path)?;
    let bundle = tasks.map(bundle_dir::BundleDir::open).transpose()?;
    let meta = match (tasks, &bundle) {
        (Some(dir), Some(bundle)) => {
            if bundle.hash() != report.bundle.hash {
                eprintln!(
                    "refscore report: warning: {} was scored against bundle {}, --tasks {} is bundle {}",
                    path.display(),
                    report.bundle.hash,
                    dir.display(),
                    bundle.hash()
                );
            }
            Some(bundle.task_meta()?)
        }
        _ => None,
    };
    let name = path.to_string_lossy();
    if !trajectories.is_empty() {
        let section = failure_report::section(&name, &report, trajectories, bundle.as_ref())?;
        let text = if json {
            let mut t = serde_json::to_string_pretty(&section)?;
            t.push('\n');
            t
        } else {
            let tasks = meta.as_deref().unwrap_or(&[]);
            let stats = scorer::stats::run_stats(&report, tasks);
            let mut t = show::run_summary(&name, &report, &stats, meta.as_ref().map(Vec::len));
            t.push('\n');
            t.push_str(&failure_report::text(&section));
            t
        };
        return emit(opts.out, &text);
    }
    let text = match compare {
        Some(other_path) => {
            let other = read_report(other_path)?;
            let c = scorer::stats::compare(&report, &other);
            if csv {
                show::comparison_csv(&c)
            } else {
                show::comparison(&name, &other_path.to_string_lossy(), &c)
            }
        }
        None => {
            let tasks = meta.as_deref().unwrap_or(&[]);
            if csv {
                report.to_csv(tasks)
            } else {
                let stats = scorer::stats::run_stats(&report, tasks);
                show::run_summary(&name, &report, &stats, meta.as_ref().map(Vec::len))
            }
        }
    };
    emit(opts.out, &text)
}

/// `report`'s output: to `--out` (atomically) or stdout.
fn emit(out: Option<&std::path::Path>, text: &str) -> Outcome {
    match out {
        Some(out) => atomic::write_file(out, text.as_bytes())?,
        // A closed stdout (`| head`) is not a failure.
        None => {
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
    }
    Ok(Done::All)
}
