//! Submissions as `refscore score --predictions` takes them: files and folders expanded, each file
//! read and parsed, then the steps between reading and the report (instances the bundle lacks
//! become entry errors, trajectory copies of `preds.json` entries are left out, repeated entries
//! are warned about). The CLI and the Python package both go through here, so a report is the
//! same whichever of them wrote it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use scorer::report::{EntryError, Report, TaskResult};
use scorer::submission::{parse_submissions, trajectory_copies, Parsed, Submission};

use crate::bundle_dir::BundleDir;

/// The files named, folders expanded.
#[derive(Debug, Default)]
pub struct Expanded {
    /// (name as reports give it, path on disk), in the order they are read.
    pub files: Vec<(String, PathBuf)>,
    /// (folder as given, path below it, reason) of entries a folder walk left out.
    pub left_out: Vec<(PathBuf, String, &'static str)>,
}

/// Files named on the command line, folders expanded to every `.traj`, `.traj.json`, `.json`,
/// `.jsonl` and `.eval` file below them in path order. Names are the paths as given
/// (`/`-separated below a folder), so reports do not depend on the working directory's absolute
/// path.
pub fn expand(paths: &[PathBuf]) -> Result<Expanded> {
    let mut out = Expanded::default();
    for p in paths {
        let meta = fs::metadata(p).with_context(|| format!("{}: cannot read", p.display()))?;
        if meta.is_dir() {
            let keep = |name: &str| {
                let lower = name.to_ascii_lowercase();
                [".traj", ".json", ".jsonl", ".eval"].iter().any(|x| lower.ends_with(x))
            };
            let walked = crate::fsread::walk(p, &keep)?;
            for (rel, why) in walked.skipped {
                out.left_out.push((p.clone(), rel, why));
            }
            let found: Vec<String> = walked.files.into_iter().map(|(rel, _)| rel).collect();
            if found.is_empty() {
                bail!(
                    "{}: the folder holds no .traj, .traj.json, .json, .jsonl or .eval file",
                    p.display()
                );
            }
            let base = p.to_string_lossy().trim_end_matches(['/', '\\']).to_string();
            for rel in found {
                out.files.push((format!("{base}/{rel}"), p.join(&rel)));
            }
        } else {
            out.files.push((p.to_string_lossy().into_owned(), p.clone()));
        }
    }
    Ok(out)
}

/// One file's submissions (`name` names it in the report). A file that cannot be read at all is
/// an `Err`; entries that cannot be read are the result's `errors`.
pub fn read_file(name: &str, path: &Path) -> Result<Parsed> {
    let bytes = crate::fsread::read_file(path, crate::fsread::MAX_INPUT_BYTES)
        .with_context(|| format!("{name}: cannot read the file"))?;
    Ok(parse_submissions(name, &bytes))
}

/// What is scored of the files read, and what the report says besides the results.
#[derive(Debug)]
pub struct Batch {
    /// One per file, after [`Batch::new`]'s steps (unknown instances moved to `errors`,
    /// trajectory copies removed).
    pub parsed: Vec<Parsed>,
    /// The submissions to score, in input order.
    pub submissions: Vec<Submission>,
    /// How many trajectory copies of `preds.json` entries were left out.
    pub copies: usize,
    /// The files' warnings, then one per repeated entry.
    pub warnings: Vec<EntryError>,
}

impl Batch {
    /// Instances `bundle` lacks become entry errors, trajectory copies are removed
    /// ([`trajectory_copies`]) and repeats warned about ([`scorer::submission::repeats`]).
    pub fn new(bundle: &BundleDir, mut parsed: Vec<Parsed>) -> Batch {
        for p in &mut parsed {
            p.retain_known(|id| bundle.has_task(id));
        }
        let copies = drop_trajectory_copies(&mut parsed);
        let mut warnings: Vec<EntryError> =
            parsed.iter().flat_map(|p| p.warnings.clone()).collect();
        warnings.extend(repeat_warnings(&parsed));
        let submissions = parsed.iter().flat_map(|p| p.submissions.iter().cloned()).collect();
        Batch { parsed, submissions, copies, warnings }
    }

    /// The report of `scored` (one result per submission, in input order): the entries that
    /// could not be read, per file in line order, files in input order; the warnings.
    pub fn report(&self, bundle_hash: &str, scored: Vec<TaskResult>) -> Report {
        let errors = self.parsed.iter().flat_map(|p| p.errors.iter().cloned()).collect();
        let mut report = Report::new(bundle_hash, scored, errors);
        report.warnings = self.warnings.clone();
        report
    }
}

/// A warning for each entry that repeats an earlier one's instance, model and instruction set
/// ([`scorer::submission::repeats`]; both are scored).
fn repeat_warnings(parsed: &[Parsed]) -> Vec<EntryError> {
    let all: Vec<&Submission> = parsed.iter().flat_map(|p| &p.submissions).collect();
    scorer::submission::repeats(all.iter().copied())
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.map(|j| scorer::submission::repeat_warning(all[i], all[j])))
        .collect()
}

/// Removes the trajectory copies of `preds.json` entries ([`trajectory_copies`]); returns how many.
fn drop_trajectory_copies(parsed: &mut [Parsed]) -> usize {
    let marked = trajectory_copies(parsed.iter().flat_map(|p| &p.submissions));
    let mut marks = marked.iter();
    for p in parsed.iter_mut() {
        p.submissions.retain(|_| !marks.next().copied().unwrap_or(false));
    }
    marked.iter().filter(|m| **m).count()
}
