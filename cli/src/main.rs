//! `refscore`: the native command line over the same scorer the browser runs.
//!
//! Subcommands mirror the researcher's workflow: `import` the official benchmark into task bundles,
//! `score` submissions against a bundle, `report` on a scored run. Exit codes: 0 scored; 1 scored but
//! some entries could not be scored; 2 usage error or unreadable input.

mod atomic;
mod checkout;
mod combine;
mod failure_report;
mod import;
mod leaderboard;
mod score;
mod show;
mod trajectory;

// Shared with the Python package (`python/`) through the crate's library (`lib.rs`).
use cli::{bundle_dir, fsread, run};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{ArgGroup, Parser, Subcommand};

/// The interpreter allocates many small short-lived objects (AST node values, frames) from a
/// scoring thread; glibc's per-thread arenas spent ~25% of the time in malloc/free there.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(name = "refscore", version, about = "Score and explore RefactorBench runs")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build task bundles from an official RefactorBench checkout.
    Import {
        /// The checkout (holds problems/, tests/, scripts/, repositories/).
        #[arg(long = "from")]
        from: PathBuf,
        /// Output folder for the bundle.
        #[arg(long)]
        out: PathBuf,
    },
    /// Score one patch, or prediction files and trajectories, against a bundle.
    #[command(group(ArgGroup::new("target").args(["task", "combine"])))]
    Score {
        /// The bundle folder (holds index.json).
        #[arg(long)]
        tasks: PathBuf,
        /// Task id, with --patch.
        #[arg(long, requires = "patch")]
        task: Option<String>,
        /// Patch file for --task or --combine (an empty file means no change).
        #[arg(long, requires = "target")]
        patch: Option<PathBuf>,
        /// Task ids of one repository (ID,ID,...): score --patch against their combined task
        /// (applied once, every task's test file run on the patched tree).
        #[arg(long, requires = "patch", conflicts_with = "task")]
        combine: Option<String>,
        /// Predictions (.jsonl, .json list or dict) and .traj files or folders.
        #[arg(long, num_args = 1.., conflicts_with_all = ["task", "patch", "combine"])]
        predictions: Vec<PathBuf>,
        /// Write the report here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the report as JSON instead of a table (with --combine: the result per
        /// constituent task and for the whole).
        #[arg(long)]
        json: bool,
        /// Scoring threads (default: all cores). Each keeps a cache of parsed files; together
        /// they hold at most a quarter of the machine's memory (oldest parses dropped first).
        #[arg(long, default_value_t = 0)]
        jobs: usize,
    },
    /// Write the bundle's touch patches as a predictions file: per task, a comment line naming
    /// the task appended to every `.py` file its test reads (the cache-defeating speed workload).
    Touch {
        /// The bundle folder (holds index.json).
        #[arg(long)]
        tasks: PathBuf,
        /// The predictions file to write (SWE-bench JSONL).
        #[arg(long)]
        out: PathBuf,
    },
    /// Save the combined task of tasks of one repository as a bundle of its own.
    Combine {
        /// The bundle folder the tasks come from.
        #[arg(long)]
        tasks: PathBuf,
        /// Task ids, comma-separated, in the order their instructions are joined.
        #[arg(long)]
        ids: String,
        /// Id of the combined task (default `combined__ID__ID...`).
        #[arg(long)]
        id: Option<String>,
        /// Output folder for the new bundle.
        #[arg(long)]
        out: PathBuf,
    },
    /// Summarise a report, or compare two.
    Report {
        /// A report written by `refscore score --out` (or exported by the app).
        report: PathBuf,
        /// A second report: print the flips and per-subtest changes from REPORT to this one.
        #[arg(long)]
        compare: Option<PathBuf>,
        /// CSV instead of a table (one row per result, or per change with --compare).
        #[arg(long)]
        csv: bool,
        /// Write the table or CSV to this file (atomically) instead of stdout.
        #[arg(long)]
        out: Option<PathBuf>,
        /// The bundle the report was scored against, for the breakdowns by repository and by
        /// number of inspected files (and, with --trajectories, the pristine verdicts, test
        /// sources and instruction texts the failure modes need).
        #[arg(long)]
        tasks: Option<PathBuf>,
        /// Agent logs of the run (files or folders, any supported format): add the failure-mode
        /// section, each log paired with its result in REPORT by instance id.
        #[arg(long, num_args = 1.., conflicts_with_all = ["compare", "csv"])]
        trajectories: Vec<PathBuf>,
        /// With --trajectories: print the failure-mode section as JSON (only it).
        #[arg(long, requires = "trajectories")]
        json: bool,
    },
    /// Check a leaderboard folder (published.json and the reports it names), or add a report to
    /// it as a row drillable to every subtest.
    Leaderboard {
        #[command(subcommand)]
        action: LeaderboardCmd,
    },
    /// Print an agent trajectory (SWE-agent, mini-swe-agent, OpenHands, Inspect, ATIF, Claude
    /// Code, Codex), normalised: steps, edits with their status, submission, exit, cost.
    Trajectory {
        /// The log file (format detected from its content), or an OpenHands V1 `events/` folder.
        file: PathBuf,
        /// A bundle: score the trajectory's submission for the failure modes.
        #[arg(long)]
        tasks: Option<PathBuf>,
        /// JSON instead of text (a list of objects for an Inspect log).
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
enum LeaderboardCmd {
    /// Read DIR/published.json with the scorer's reader and every report its entries name.
    Check {
        /// The leaderboard folder (holds published.json).
        dir: PathBuf,
    },
    /// Copy a `refscore score --out` report into DIR as `<id>.json` and append its row.
    Add {
        /// The leaderboard folder (holds published.json).
        dir: PathBuf,
        /// The report.
        #[arg(long)]
        report: PathBuf,
        /// The bundle it was scored against (the row's task denominator).
        #[arg(long)]
        tasks: PathBuf,
        /// Row id (default: the report's file name).
        #[arg(long)]
        id: Option<String>,
        /// Agent or scaffold (default: the model).
        #[arg(long)]
        agent: Option<String>,
        /// Model (default: the one every result names).
        #[arg(long)]
        model: Option<String>,
        /// lazy, base or descriptive (default: the one every result names).
        #[arg(long, value_parser = parse_set)]
        instruction_set: Option<scorer::report::InstructionSet>,
        /// A link to where the run is described.
        #[arg(long)]
        source_url: Option<String>,
    },
}

fn parse_set(s: &str) -> Result<scorer::report::InstructionSet, String> {
    scorer::report::InstructionSet::from_name(s)
        .ok_or_else(|| format!("{s:?} is not lazy, base or descriptive"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    atomic::install_interrupt_handler();
    match cli.command {
        Command::Import { from, out } => run_import(&from, &out),
        Command::Score { tasks, task, patch, combine, predictions, out, json, jobs } => {
            let input = match (task, patch, combine) {
                (Some(task), Some(patch), _) => score::Input::Single { task, patch },
                (None, Some(patch), Some(ids)) => {
                    score::Input::Combine { ids: combine::split_ids(&ids), patch }
                }
                _ if !predictions.is_empty() => score::Input::Predictions(predictions),
                _ => {
                    eprintln!(
                        "refscore score: give --task ID --patch FILE, or --predictions FILE..."
                    );
                    return ExitCode::from(2);
                }
            };
            let opts = score::Options { tasks, input, out, json, threads: jobs };
            score::run(&opts).unwrap_or_else(|e| {
                eprintln!("refscore score: error: {e:#}");
                ExitCode::from(2)
            })
        }
        Command::Trajectory { file, tasks, json } => trajectory::run(&file, tasks.as_deref(), json)
            .unwrap_or_else(|e| {
                eprintln!("refscore trajectory: error: {e:#}");
                ExitCode::from(2)
            }),
        Command::Touch { tasks, out } => run_touch(&tasks, &out).unwrap_or_else(|e| {
            eprintln!("refscore touch: error: {e:#}");
            ExitCode::from(2)
        }),
        Command::Combine { tasks, ids, id, out } => run_combine(&tasks, &ids, id.as_deref(), &out)
            .unwrap_or_else(|e| {
                eprintln!("refscore combine: error: {e:#}");
                ExitCode::from(2)
            }),
        Command::Leaderboard { action } => run_leaderboard(action).unwrap_or_else(|e| {
            eprintln!("refscore leaderboard: error: {e:#}");
            ExitCode::from(2)
        }),
        Command::Report { report, compare, csv, out, tasks, trajectories, json } => {
            let opts = ReportOptions {
                compare: compare.as_deref(),
                csv,
                out: out.as_deref(),
                trajectories: &trajectories,
                json,
            };
            run_report(&report, &opts, tasks.as_deref()).unwrap_or_else(|e| {
                eprintln!("refscore report: error: {e:#}");
                ExitCode::from(2)
            })
        }
    }
}

fn read_report(path: &std::path::Path) -> anyhow::Result<scorer::report::Report> {
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
struct ReportOptions<'a> {
    compare: Option<&'a std::path::Path>,
    csv: bool,
    out: Option<&'a std::path::Path>,
    /// Agent logs for the failure-mode section.
    trajectories: &'a [PathBuf],
    /// The failure-mode section as JSON.
    json: bool,
}

/// `refscore report`: a summary, or a comparison, as a table or CSV.
fn run_report(
    path: &std::path::Path,
    opts: &ReportOptions<'_>,
    tasks: Option<&std::path::Path>,
) -> anyhow::Result<ExitCode> {
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
fn emit(out: Option<&std::path::Path>, text: &str) -> anyhow::Result<ExitCode> {
    match out {
        Some(out) => atomic::write_file(out, text.as_bytes())?,
        // A closed stdout (`| head`) is not a failure.
        None => {
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `refscore leaderboard check | add`.
fn run_leaderboard(action: LeaderboardCmd) -> anyhow::Result<ExitCode> {
    let text = match action {
        LeaderboardCmd::Check { dir } => {
            let (board, reports) = leaderboard::check(&dir)?;
            format!(
                "{}: {} entries, {reports} with a report behind them: valid\n",
                dir.join(leaderboard::FILE).display(),
                board.entries.len()
            )
        }
        LeaderboardCmd::Add {
            dir,
            report,
            tasks,
            id,
            agent,
            model,
            instruction_set,
            source_url,
        } => {
            let opts = leaderboard::Add {
                dir,
                tasks,
                report,
                id,
                agent,
                model,
                instruction_set,
                source_url,
            };
            let e = leaderboard::add(&opts)?;
            let pct = |p: Option<f64>| p.map_or_else(|| "-".to_string(), |p| format!("{p}%"));
            format!(
                "added {} ({}): resolved {} of n = {}, subtests {}, report {}\n",
                e.id,
                e.agent,
                pct(e.resolved),
                e.n.unwrap_or(0),
                pct(e.subtests),
                e.report.as_deref().unwrap_or("")
            )
        }
    };
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

/// `refscore combine`: writes the combined task's bundle and names it.
/// `refscore touch`: every task's touch patch (`cli::touch`), one predictions line each.
fn run_touch(tasks: &std::path::Path, out: &std::path::Path) -> anyhow::Result<ExitCode> {
    atomic::check_file_target("--out", out, &[tasks])?;
    let bundle = bundle_dir::BundleDir::open(tasks)?;
    let loaded = bundle
        .index
        .tasks
        .iter()
        .map(|t| bundle.load_task(&t.id))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut bytes = Vec::new();
    let (written, skipped) =
        cli::touch::write_predictions(loaded.iter().map(|t| (&t.data, &t.base)), &mut bytes)?;
    atomic::write_file(out, &bytes)?;
    let text = format!(
        "{written} touch patches written to {} ({skipped} tasks read no file to touch)\n",
        out.display()
    );
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

fn run_combine(
    tasks: &std::path::Path,
    ids: &str,
    id: Option<&str>,
    out: &std::path::Path,
) -> anyhow::Result<ExitCode> {
    let bundle = bundle_dir::BundleDir::open(tasks)?;
    let task = combine::build(&bundle, &combine::split_ids(ids), id)?;
    let hash = combine::write_bundle(&bundle, &task.data, out)?;
    let text = format!(
        "bundle {hash} written to {}\n  task {} combines {}\n",
        out.display(),
        task.data.id,
        task.data
            .combined
            .iter()
            .flat_map(|c| &c.parts)
            .map(|p| p.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

/// Runs the importer; the summary goes to stdout, progress and errors to stderr.
fn run_import(from: &std::path::Path, out: &std::path::Path) -> ExitCode {
    let start = Instant::now();
    match import::run(from, out) {
        Ok(s) => {
            let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
            let (id, raw, gz) = &s.largest_task;
            let text = format!(
                "bundle {hash} written to {out}\n\
                 \x20 tasks        {tasks} in {repos} repositories\n\
                 \x20 manifests    {listed} files listed\n\
                 \x20 blobs        {blobs} files carried, {bb} bytes ({bm:.2} MiB)\n\
                 \x20 written      {n} files, {bytes} bytes ({m:.2} MiB), {gz_all} bytes gzip ({gm:.2} MiB)\n\
                 \x20 largest task {id}: {raw} bytes, {gz} bytes gzip (task file + blobs)\n\
                 \x20 test runs    {tasks} tests run on their base trees: {reads} (task, file) reads, \
                 {only} found only by the run ({full} tasks re-run on the whole repository)\n\
                 \x20 time         {secs:.2} s\n",
                hash = s.bundle_hash,
                out = out.display(),
                tasks = s.tasks,
                repos = s.repos,
                listed = s.manifest_files,
                blobs = s.blobs,
                bb = s.blob_bytes,
                bm = mib(s.blob_bytes),
                n = s.files_written,
                bytes = s.bytes,
                m = mib(s.bytes),
                gz_all = s.gzip_bytes,
                gm = mib(s.gzip_bytes),
                secs = start.elapsed().as_secs_f64(),
                reads = s.run_reads,
                only = s.run_only,
                full = s.full_tree_runs,
            );
            // A closed stdout (`| head`) is not an import failure.
            let _ = std::io::stdout().write_all(text.as_bytes());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("refscore import: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn score_takes_a_single_patch_or_predictions() {
        let ok = Cli::try_parse_from([
            "refscore", "score", "--tasks", "t", "--task", "a", "--patch", "p",
        ]);
        assert!(ok.is_ok());
        let both = Cli::try_parse_from([
            "refscore",
            "score",
            "--tasks",
            "t",
            "--task",
            "a",
            "--patch",
            "p",
            "--predictions",
            "x.jsonl",
        ]);
        assert!(both.is_err());
        let task_without_patch =
            Cli::try_parse_from(["refscore", "score", "--tasks", "t", "--task", "a"]);
        assert!(task_without_patch.is_err());
    }
}
