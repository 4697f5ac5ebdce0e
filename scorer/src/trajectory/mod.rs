//! Agent trajectories: one normalised model ([`model`]) filled by one reader per log format,
//! detected by keys, never by file name (shared/trajectories.md §2.0). No I/O: readers take bytes.
//!
//! Behind the scorer feature `trajectories` (off by default; the CLI turns it on), so neither
//! the readers nor their zip/zstd decoders reach the scoring worker's wasm.
//!
//! - [`model`]: `Trajectory`, `Step`, `ToolCall`, `EditOp`… (stable names; the analysis builds on them).
//! - [`analysis`]: edit state σ and failure modes over a `Trajectory`.
//! - [`read`]: detect the format and read every trajectory a file holds.

pub mod analysis;
mod edits;
mod error;
pub mod failure;
mod json;
pub mod model;
mod paths;
mod readers;
mod shell;
pub mod sigma;
pub mod view;
mod zip;

pub use error::TrajectoryError;
pub use model::*;

/// Helpers for tests that build fixtures at run time (zip archives with zstd entries).
#[doc(hidden)]
pub mod test_support {
    use super::{zip, TrajectoryError};

    /// Writes a zip archive; methods 0 (stored), 8 (deflate), 93 (zstd).
    pub fn zip_write(entries: &[(&str, u16, &[u8])]) -> Vec<u8> {
        zip::write(entries)
    }

    /// Every entry of a zip archive, uncompressed, in central-directory order.
    pub fn unzip(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, TrajectoryError> {
        zip::entries(bytes)?.iter().map(|e| Ok((e.name.clone(), zip::read(bytes, e)?))).collect()
    }
}

/// Detects the format of a file from its content alone.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    readers::detect(bytes)
}

/// Reads every trajectory of a file: one for most formats, one per sample for Inspect logs.
pub fn read(bytes: &[u8]) -> Result<Vec<Trajectory>, TrajectoryError> {
    readers::read(bytes)
}

/// The event files of an OpenHands V1 conversation (`events/event-<index>-<uuid>.json`, one
/// event per file) joined into one JSON list that [`read`] takes: `.json` files only, ordered by
/// the index in their name (numerically: indices grow past five digits), then by name. `files`
/// are (path or name, bytes); the CLI (a folder) and the browser (a dropped folder or several
/// picked files) both use it. `None` when no `.json` file is among them.
pub fn join_event_files(files: &[(&str, &[u8])]) -> Option<Vec<u8>> {
    let base = |p: &str| p.rsplit(['/', '\\']).next().unwrap_or(p).to_string();
    let index = |name: &str| -> Option<u64> {
        let rest = name.strip_prefix("event-")?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    let mut keep: Vec<(Option<u64>, String, &[u8])> = files
        .iter()
        .filter(|(p, _)| p.to_ascii_lowercase().ends_with(".json"))
        .map(|(p, b)| {
            let name = base(p);
            (index(&name), name, *b)
        })
        .collect();
    if keep.is_empty() {
        return None;
    }
    // Named events first, by index; any other `.json` after them, by name.
    keep.sort_by(|a, b| (a.0.is_none(), a.0, &a.1).cmp(&(b.0.is_none(), b.0, &b.1)));
    let mut out = b"[".to_vec();
    for (i, (_, _, bytes)) in keep.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(bytes);
    }
    out.push(b']');
    Some(out)
}

#[cfg(test)]
mod join_tests {
    use super::*;

    /// Ordered by the index in the name, numerically (100000 after 99999), `.json` only, and
    /// the joined list reads as the events in that order.
    #[test]
    fn event_files_join_in_index_order() {
        let ev = |id: &str, cmd: &str| {
            format!(
                r#"{{"kind": "ActionEvent", "id": "{id}", "source": "agent", "tool_name": "terminal", "tool_call_id": "{id}", "action": {{"kind": "TerminalAction", "command": "{cmd}"}}}}"#
            )
        };
        let (a, b, c) = (ev("a", "ls"), ev("b", "pwd"), ev("c", "whoami"));
        let files: Vec<(&str, &[u8])> = vec![
            ("events/event-100000-c.json", c.as_bytes()),
            ("events/notes.txt", b"not an event"),
            ("events/event-99999-b.json", b.as_bytes()),
            ("event-00001-a.json", a.as_bytes()),
        ];
        let joined = join_event_files(&files).expect("json files");
        let t = read(&joined).expect("reads").remove(0);
        assert_eq!(t.format, Some(Format::OpenHandsV1));
        let actions: Vec<&str> =
            t.steps.iter().map(|s| s.action.as_deref().unwrap_or("")).collect();
        assert_eq!(actions.len(), 3, "{actions:?}");
        assert!(
            actions[0].contains("ls")
                && actions[1].contains("pwd")
                && actions[2].contains("whoami"),
            "{actions:?}"
        );
        assert_eq!(join_event_files(&[("a.txt", b"x".as_slice())]), None);
    }
}
