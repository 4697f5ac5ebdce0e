//! `refscore touch`: the cache-defeating "touch patches" of a bundle (one per task, a comment line
//! naming the task appended to every `.py` file its test reads), written as a predictions file for
//! the speed benchmark and the browser measurement.

use std::io::Write;
use std::path::Path;

use crate::atomic;
use crate::bundle_dir::BundleDir;

use super::{Done, Outcome};

/// Writes the touch patches of every task of the bundle at `tasks` to `out`.
pub(crate) fn command(tasks: &Path, out: &Path) -> Outcome {
    atomic::check_file_target("--out", out, &[tasks])?;
    let bundle = BundleDir::open(tasks)?;
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
    Ok(Done::All)
}
