//! `refscore`: the native command line over the same scorer the browser runs.
//!
//! Subcommands mirror the researcher's workflow: `import` the official benchmark into task bundles,
//! `score` submissions against a bundle, `report` on a scored run. Exit codes: 0 scored; 1 scored but
//! some entries could not be scored; 2 usage error or unreadable input.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "the binary's output: reports on stdout, progress, warnings and errors on stderr"
)]

mod atomic;
mod checkout;
mod commands;
mod failure_report;
mod show;

// Shared with the Python package (`python/`) through the crate's library (`lib.rs`).
use cli::{bundle_dir, fsread, run};
use std::path::PathBuf;
use std::process::ExitCode;

use commands::{
    combine, exit_code, import, leaderboard, report, score, touch, trajectory, CliError,
};

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
        /// The values one test file's run makes may hold at most 1 GiB (past it the running
        /// test ends in error with SizeLimitExceeded naming the budget), so keep about 1.5 GiB
        /// of memory per thread.
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
        Command::Import { from, out } => exit_code("import", import::command(&from, &out)),
        Command::Score { tasks, task, patch, combine, predictions, out, json, jobs } => {
            let input = match (task, patch, combine) {
                (Some(task), Some(patch), _) => Some(score::Input::Single { task, patch }),
                (None, Some(patch), Some(ids)) => {
                    Some(score::Input::Combine { ids: combine::split_ids(&ids), patch })
                }
                _ if !predictions.is_empty() => Some(score::Input::Predictions(predictions)),
                _ => None,
            };
            let outcome = match input {
                Some(input) => {
                    score::run(&score::Options { tasks, input, out, json, threads: jobs })
                }
                None => Err(CliError::Usage(
                    "give --task ID --patch FILE, or --predictions FILE...".into(),
                )
                .into()),
            };
            exit_code("score", outcome)
        }
        Command::Trajectory { file, tasks, json } => {
            exit_code("trajectory", trajectory::run(&file, tasks.as_deref(), json))
        }
        Command::Touch { tasks, out } => exit_code("touch", touch::command(&tasks, &out)),
        Command::Combine { tasks, ids, id, out } => {
            exit_code("combine", combine::command(&tasks, &ids, id.as_deref(), &out))
        }
        Command::Leaderboard { action } => exit_code("leaderboard", leaderboard::command(action)),
        Command::Report { report: path, compare, csv, out, tasks, trajectories, json } => {
            let opts = report::ReportOptions {
                compare: compare.as_deref(),
                csv,
                out: out.as_deref(),
                trajectories: &trajectories,
                json,
            };
            exit_code("report", report::run(&path, &opts, tasks.as_deref()))
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
