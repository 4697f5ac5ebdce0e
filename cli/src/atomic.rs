//! Atomic output: every file or folder the CLI writes (`score --out`, `report --out`, `import --out`,
//! `combine --out`) is written beside its target under a temporary name and renamed into place, so an
//! interrupt, a full disk or a crash leaves the previous report or bundle as it was.
//!
//! Targets are checked before any work starts ([`check_file_target`], [`check_dir_target`]): a run
//! that would fail to write its result only after minutes of scoring is refused up front. SIGINT and
//! SIGTERM remove the temporary files in flight and say which targets were left unchanged.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{bail, Context, Result};

/// Temporary paths being written now; the signal handler removes them.
static IN_FLIGHT: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

/// Installs the SIGINT/SIGTERM handler: temporary files and folders are removed, the user is told
/// which outputs kept their previous content, and the process exits with 130.
pub(crate) fn install_interrupt_handler() {
    let installed = ctrlc::set_handler(|| {
        let pending = IN_FLIGHT.lock().map(|g| g.clone()).unwrap_or_default();
        for (tmp, target) in &pending {
            remove_any(tmp);
            eprintln!("refscore: interrupted; {} was left as it was", target.display());
        }
        if pending.is_empty() {
            eprintln!("refscore: interrupted; no output was written");
        }
        std::process::exit(130);
    });
    if let Err(e) = installed {
        eprintln!("refscore: warning: cannot install the interrupt handler ({e})");
    }
}

fn remove_any(p: &Path) {
    if p.is_dir() {
        let _ = fs::remove_dir_all(p);
    } else {
        let _ = fs::remove_file(p);
    }
}

/// Registers `tmp` (the staging path of `target`) until the guard drops.
struct InFlight(PathBuf);

impl InFlight {
    fn new(tmp: &Path, target: &Path) -> InFlight {
        if let Ok(mut g) = IN_FLIGHT.lock() {
            g.push((tmp.to_path_buf(), target.to_path_buf()));
        }
        InFlight(tmp.to_path_buf())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Ok(mut g) = IN_FLIGHT.lock() {
            g.retain(|(t, _)| t != &self.0);
        }
    }
}

/// The temporary sibling of `target`: same folder (so the rename stays on one file system),
/// hidden, named after the process so two runs never share one.
fn staging_path(target: &Path, what: &str) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    target.with_file_name(format!(".{name}.refscore-{what}-{}", std::process::id()))
}

/// The folder `target` will be written in (`.` for a bare file name).
fn parent_of(target: &Path) -> PathBuf {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Refuses a file target that cannot be written, before any scoring: a folder, one of the inputs
/// (`inputs`, compared by canonical path), or a place where no file can be created. Missing parent
/// folders are created, as the write would.
pub(crate) fn check_file_target(flag: &str, target: &Path, inputs: &[&Path]) -> Result<()> {
    if target.is_dir() {
        bail!("{flag} {}: is a folder; give a file name", target.display());
    }
    if let Ok(t) = target.canonicalize() {
        for input in inputs {
            if input.canonicalize().is_ok_and(|i| i == t) {
                bail!("{flag} {}: is one of the inputs; it would be overwritten", target.display());
            }
        }
    }
    let dir = parent_of(target);
    if dir.exists() && !dir.is_dir() {
        bail!("{flag} {}: {} is not a folder", target.display(), dir.display());
    }
    fs::create_dir_all(&dir).with_context(|| format!("{flag} {}: cannot create", dir.display()))?;
    probe_writable(flag, target, &dir)
}

/// Refuses a folder target (a bundle) that cannot be written: an existing file, a non-empty folder
/// that holds no bundle (`index.json`), or a parent where nothing can be created.
pub(crate) fn check_dir_target(flag: &str, target: &Path) -> Result<()> {
    if target.exists() {
        if !target.is_dir() {
            bail!("{flag} {}: exists and is not a folder", target.display());
        }
        let non_empty = fs::read_dir(target)
            .with_context(|| format!("{flag} {}: cannot read", target.display()))?
            .next()
            .is_some();
        if non_empty && !target.join("index.json").is_file() {
            bail!(
                "{flag} {}: the folder is not empty and holds no bundle (index.json); refusing to write there",
                target.display()
            );
        }
    }
    let dir = parent_of(target);
    if dir.exists() && !dir.is_dir() {
        bail!("{flag} {}: {} is not a folder", target.display(), dir.display());
    }
    fs::create_dir_all(&dir).with_context(|| format!("{flag} {}: cannot create", dir.display()))?;
    probe_writable(flag, target, &dir)
}

/// Creates and removes a file in `dir`: permissions, read-only mounts and the like show up now,
/// not after the work.
fn probe_writable(flag: &str, target: &Path, dir: &Path) -> Result<()> {
    let probe = staging_path(target, "probe");
    fs::File::create(&probe).with_context(|| {
        format!("{flag} {}: cannot write in {}", target.display(), dir.display())
    })?;
    let _ = fs::remove_file(&probe);
    Ok(())
}

/// Writes `bytes` to `target` atomically: a temporary sibling, flushed to disk, then renamed over
/// the target. On any error the temporary file is removed and the target is untouched.
pub(crate) fn write_file(target: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = staging_path(target, "tmp");
    let _guard = InFlight::new(&tmp, target);
    let written = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e).with_context(|| {
            format!("{}: cannot write ({} left as it was)", target.display(), target.display())
        });
    }
    if let Err(e) = fs::rename(&tmp, target) {
        let _ = fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("{}: cannot rename into place", target.display()));
    }
    Ok(())
}

/// Writes the folder `files` (relative name → bytes) as `target`: built completely in a temporary
/// sibling folder, then swapped in with two renames. Entries of an existing `target` whose names
/// are not in `replaced` (files the user keeps beside a bundle) are carried over into the new folder.
pub(crate) fn write_dir(
    target: &Path,
    files: &std::collections::BTreeMap<String, Vec<u8>>,
    replaced: &[&str],
) -> Result<()> {
    let tmp = staging_path(target, "tmp");
    let _guard = InFlight::new(&tmp, target);
    remove_any(&tmp);
    let staged = (|| -> Result<()> {
        for (name, bytes) in files {
            let path = tmp.join(name);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
            let mut f =
                fs::File::create(&path).with_context(|| format!("writing {}", path.display()))?;
            f.write_all(bytes).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(())
    })();
    if let Err(e) = staged {
        remove_any(&tmp);
        return Err(e.context(format!("{} left as it was", target.display())));
    }
    if !target.exists() {
        return fs::rename(&tmp, target).with_context(|| {
            remove_any(&tmp);
            format!("{}: cannot rename into place", target.display())
        });
    }
    // Keep what is not ours, then swap: old → backup, new → target, drop the backup.
    for entry in fs::read_dir(target).with_context(|| format!("reading {}", target.display()))? {
        let entry = entry.with_context(|| format!("reading {}", target.display()))?;
        let name = entry.file_name();
        if !replaced.contains(&name.to_string_lossy().as_ref()) {
            fs::rename(entry.path(), tmp.join(&name)).with_context(|| {
                format!("moving {} into the new bundle", entry.path().display())
            })?;
        }
    }
    let backup = staging_path(target, "old");
    remove_any(&backup);
    fs::rename(target, &backup)
        .with_context(|| format!("{}: cannot move the previous bundle aside", target.display()))?;
    if let Err(e) = fs::rename(&tmp, target) {
        // Put the previous folder back; the new one stays at `tmp` for inspection.
        let _ = fs::rename(&backup, target);
        return Err(e).with_context(|| format!("{}: cannot rename into place", target.display()));
    }
    remove_any(&backup);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("refscore-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_file_replaces_its_target_and_leaves_no_temporary() {
        let d = scratch("file");
        let t = d.join("r.json");
        fs::write(&t, b"old").unwrap();
        write_file(&t, b"new").unwrap();
        assert_eq!(fs::read(&t).unwrap(), b"new");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 1);
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn targets_that_cannot_be_written_are_refused_up_front() {
        let d = scratch("check");
        let input = d.join("preds.jsonl");
        fs::write(&input, b"{}").unwrap();
        let err = |r: Result<()>| format!("{:#}", r.unwrap_err());
        assert!(err(check_file_target("--out", &d, &[])).contains("is a folder"));
        assert!(err(check_file_target("--out", &input, &[&input])).contains("one of the inputs"));
        assert!(
            err(check_file_target("--out", &input.join("x.json"), &[])).contains("not a folder")
        );
        check_file_target("--out", &d.join("new/r.json"), &[&input]).unwrap();
        assert!(err(check_dir_target("--out", &input)).contains("not a folder"));
        assert!(err(check_dir_target("--out", &d)).contains("holds no bundle"));
        assert_eq!(fs::read_dir(&d).unwrap().count(), 2, "the probe file is removed");
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_folder_is_swapped_in_whole_and_keeps_foreign_entries() {
        let d = scratch("dir");
        let t = d.join("bundle");
        fs::create_dir_all(t.join("tasks")).unwrap();
        fs::write(t.join("index.json"), b"old").unwrap();
        fs::write(t.join("tasks/gone.json"), b"old").unwrap();
        fs::write(t.join("NOTES.md"), b"mine").unwrap();
        let mut files = std::collections::BTreeMap::new();
        files.insert("index.json".to_string(), b"new".to_vec());
        files.insert("tasks/a.json".to_string(), b"a".to_vec());
        write_dir(&t, &files, &["index.json", "tasks"]).unwrap();
        assert_eq!(fs::read(t.join("index.json")).unwrap(), b"new");
        assert!(!t.join("tasks/gone.json").exists());
        assert_eq!(fs::read(t.join("NOTES.md")).unwrap(), b"mine");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 1, "no staging or backup folder left");
        let _ = fs::remove_dir_all(&d);
    }
}
