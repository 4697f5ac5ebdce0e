//! `refscore leaderboard check` and `add`: a leaderboard folder is `published.json` (format in
//! `tasks/LEADERBOARD.md`) and the `refscore score --out` reports its entries name, side by side.
//! `add` turns a report into a drillable row (`scorer::leaderboard::entry_from_report`) and copies
//! it in; `check` reads the file with the scorer's reader and every report it names.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use scorer::leaderboard::{self, Entry, Leaderboard, RunLabel, Source};
use scorer::report::{InstructionSet, Report};

use crate::bundle_dir::BundleDir;
use crate::LeaderboardCmd;

use super::{Done, Outcome};

/// The leaderboard file's name inside its folder.
pub(crate) const FILE: &str = "published.json";

/// Reads `dir/published.json` and every report it names; returns the board and how many
/// entries have a report behind them.
pub(crate) fn check(dir: &Path) -> Result<(Leaderboard, usize)> {
    let path = dir.join(FILE);
    let name = path.to_string_lossy().into_owned();
    let bytes = fs::read(&path).with_context(|| format!("{name}: cannot read"))?;
    let board = leaderboard::read(&bytes, &name)?;
    let mut reports = 0;
    for e in &board.entries {
        if let Some(file) = &e.report {
            let report = read_report(&dir.join(file))
                .with_context(|| format!("{name}: entry {:?}: field report", e.id))?;
            if report.results.is_empty() && report.errors.is_empty() {
                bail!("{name}: entry {:?}: report {file} holds no results", e.id);
            }
            reports += 1;
        }
    }
    Ok((board, reports))
}

fn read_report(path: &Path) -> Result<Report> {
    let name = path.to_string_lossy();
    let text = fs::read_to_string(path).with_context(|| format!("{name}: cannot read"))?;
    Ok(Report::from_json(&text, &name)?)
}

/// What `refscore leaderboard add` is told; unset labels are taken from the report.
#[derive(Debug, Clone)]
pub(crate) struct Add {
    /// The leaderboard folder (holds published.json).
    pub dir: PathBuf,
    /// The bundle the report was scored against: the row's task denominator.
    pub tasks: PathBuf,
    pub report: PathBuf,
    pub id: Option<String>,
    pub agent: Option<String>,
    pub model: Option<String>,
    pub instruction_set: Option<InstructionSet>,
    pub source_url: Option<String>,
}

/// The one value every result gives for a field, if they agree and give one.
fn shared<T: Ord + Clone>(values: impl Iterator<Item = Option<T>>) -> Option<T> {
    let set: BTreeSet<Option<T>> = values.collect();
    match set.into_iter().collect::<Vec<_>>().as_slice() {
        [Some(v)] => Some(v.clone()),
        _ => None,
    }
}

/// `letters, digits, '.', '-', '_'` from a file stem (other characters become `-`).
pub(crate) fn id_from_stem(stem: &str) -> String {
    let id: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '-' })
        .collect();
    let id = id.trim_start_matches('.').to_string();
    if id.is_empty() {
        "report".to_string()
    } else {
        id
    }
}

/// Adds the report as a row: copies it to `<id>.json` next to published.json and appends the
/// entry (the other entries are kept as they are written). Returns the new entry.
pub(crate) fn add(opts: &Add) -> Result<Entry> {
    let report = read_report(&opts.report)?;
    let bundle = BundleDir::open(&opts.tasks)?;
    if bundle.hash() != report.bundle.hash {
        bail!(
            "{} was scored against bundle {}, --tasks {} is bundle {}",
            opts.report.display(),
            report.bundle.hash,
            opts.tasks.display(),
            bundle.hash()
        );
    }
    let tasks = bundle.task_meta()?;
    let stem = opts.report.file_stem().map(|s| s.to_string_lossy().into_owned());
    let stem = stem.as_deref().unwrap_or("report");
    let stem = stem.strip_suffix(".report").unwrap_or(stem);
    let id = opts.id.clone().unwrap_or_else(|| id_from_stem(stem));
    let model = opts
        .model
        .clone()
        .or_else(|| shared(report.results.iter().map(|r| r.model_name_or_path.clone())));
    let Some(instruction_set) = opts.instruction_set.or_else(|| {
        shared(report.results.iter().map(|r| r.instruction_set.map(|s| s.as_str())))
            .and_then(InstructionSet::from_name)
    }) else {
        bail!(
            "{}: its results do not name one instruction set: give --instruction-set",
            opts.report.display()
        );
    };
    let agent = opts.agent.clone().or_else(|| model.clone()).unwrap_or_else(|| stem.to_string());
    let file = format!("{id}.json");
    let label =
        RunLabel { id: id.clone(), agent, model, instruction_set, report: Some(file.clone()) };
    let mut entry = leaderboard::entry_from_report(&report, &tasks, label)
        .with_context(|| format!("{}", opts.report.display()))?;
    entry.source = Source {
        name: "report scored by refscore".into(),
        url: opts.source_url.clone(),
        location: opts
            .report
            .file_name()
            .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned()),
    };

    let path = opts.dir.join(FILE);
    let name = path.to_string_lossy().into_owned();
    let bytes = fs::read(&path).with_context(|| format!("{name}: cannot read"))?;
    let board = leaderboard::read(&bytes, &name)?;
    if board.entries.iter().any(|e| e.id == id) {
        bail!("{name}: an entry {id:?} exists already (give another --id)");
    }
    // Append to the file as it is written (numbers and field order of the others untouched).
    let mut value: serde_json::Value = serde_json::from_slice(&bytes)?;
    let Some(list) = value.get_mut("entries").and_then(serde_json::Value::as_array_mut) else {
        bail!("{name}: no entries list");
    };
    list.push(serde_json::to_value(&entry)?);
    let mut text = serde_json::to_string_pretty(&value)?;
    text.push('\n');
    // The result must read back: the new row validates as the published ones do.
    leaderboard::read(text.as_bytes(), &name)?;
    fs::copy(&opts.report, opts.dir.join(&file)).with_context(|| {
        format!("cannot copy {} into {}", opts.report.display(), opts.dir.display())
    })?;
    fs::write(&path, text).with_context(|| format!("{name}: cannot write"))?;
    Ok(entry)
}

/// `refscore leaderboard check | add`.
pub(crate) fn command(action: LeaderboardCmd) -> Outcome {
    let text = match action {
        LeaderboardCmd::Check { dir } => {
            let (board, reports) = check(&dir)?;
            format!(
                "{}: {} entries, {reports} with a report behind them: valid\n",
                dir.join(FILE).display(),
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
            let opts = Add { dir, tasks, report, id, agent, model, instruction_set, source_url };
            let e = add(&opts)?;
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
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
    Ok(Done::All)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_shared_values() {
        assert_eq!(id_from_stem("my run (lazy)"), "my-run--lazy-");
        assert_eq!(id_from_stem(".hidden"), "hidden");
        assert_eq!(id_from_stem(""), "report");
        assert_eq!(shared([Some(1), Some(1)].into_iter()), Some(1));
        assert_eq!(shared([Some(1), Some(2)].into_iter()), None);
        assert_eq!(shared([Some(1), None].into_iter()), None);
        assert_eq!(shared(std::iter::empty::<Option<u8>>()), None);
    }
}
