//! Defensive reads of the files users hand the CLI (predictions, trajectories, reports, bundles,
//! checkouts): the file type is checked before opening, so a FIFO, socket or device never blocks
//! or floods a run; sizes are checked before reading; folder walks never follow a symlinked folder
//! (no loops, no file counted twice); bundle paths stay inside their bundle.

use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The largest predictions, trajectory or report file read (an Inspect `.eval` of a large run is
/// hundreds of MB; beyond this it is not a file refscore was meant to read).
pub const MAX_INPUT_BYTES: u64 = 2 << 30;
/// The largest single file of a bundle (the real benchmark's largest pack is 2.4 MB).
pub const MAX_BUNDLE_FILE_BYTES: u64 = 256 << 20;
/// The largest bundle in total (the real benchmark's bundle is 21 MB).
pub const MAX_BUNDLE_BYTES: u64 = 2 << 30;

/// What a path is, without following a final symlink.
fn kind_name(t: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symlink"
    } else {
        "not a regular file"
    }
}

/// Reads `path` (following symlinks to a file) when it is a regular file of at most `limit`
/// bytes; anything else is refused before it is opened, with the path and the reason.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let meta = fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    // `--patch /dev/null` is the shell's way to say "no change".
    if fs::canonicalize(path).is_ok_and(|p| p == Path::new("/dev/null")) {
        return Ok(Vec::new());
    }
    if !meta.file_type().is_file() {
        bail!("{}: is {}, not a file; refused", path.display(), kind_name(meta.file_type()));
    }
    if meta.len() > limit {
        bail!(
            "{}: {} bytes is over the {} MiB refscore reads from one file; refused",
            path.display(),
            meta.len(),
            limit >> 20
        );
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
        .with_context(|| format!("{}: cannot read", path.display()))?;
    if bytes.len() as u64 > limit {
        bail!("{}: grew past {} MiB while being read; refused", path.display(), limit >> 20);
    }
    Ok(bytes)
}

/// A folder walk's findings: files as (`/`-separated path relative to the root, path on disk), in
/// path order, and what was left out and why.
#[derive(Debug, Default)]
pub struct Walk {
    pub files: Vec<(String, PathBuf)>,
    /// (relative path, reason) of entries not taken: symlinked folders, FIFOs, sockets, devices,
    /// a second link to a file already taken.
    pub skipped: Vec<(String, &'static str)>,
}

/// Every regular file below `root` whose name `keep` accepts. Symlinks to files are followed
/// (each file is taken once, by its real path); symlinked folders are not entered, so a link
/// loop cannot make the walk endless and no file is counted twice.
pub fn walk(root: &Path, keep: &dyn Fn(&str) -> bool) -> Result<Walk> {
    let mut walk = Walk::default();
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![String::new()];
    while let Some(rel) = stack.pop() {
        let dir = if rel.is_empty() { root.to_path_buf() } else { root.join(&rel) };
        for e in fs::read_dir(&dir).with_context(|| format!("{}: cannot list", dir.display()))? {
            let e = e.with_context(|| format!("{}: cannot list", dir.display()))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let child = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
            let t =
                e.file_type().with_context(|| format!("{}: cannot read", e.path().display()))?;
            if t.is_dir() {
                stack.push(child);
                continue;
            }
            if !keep(&name) {
                continue;
            }
            let target = if t.is_symlink() {
                match fs::metadata(e.path()) {
                    Ok(m) if m.is_dir() => {
                        walk.skipped.push((child, "a symlinked folder (not followed)"));
                        continue;
                    }
                    Ok(m) => m.file_type(),
                    Err(_) => {
                        walk.skipped.push((child, "a dangling symlink"));
                        continue;
                    }
                }
            } else {
                t
            };
            if !target.is_file() {
                walk.skipped.push((child, kind_name(target)));
                continue;
            }
            let real = fs::canonicalize(e.path()).unwrap_or_else(|_| e.path());
            if !seen.insert(real) {
                walk.skipped.push((child, "a second link to a file already taken"));
                continue;
            }
            walk.files.push((child, e.path()));
        }
    }
    walk.files.sort();
    walk.skipped.sort();
    Ok(walk)
}

/// `rel` (a path named inside a bundle's index) checked to stay inside the bundle folder: relative,
/// no `..`, no root or prefix; the bundle's own walk never follows links, so no link can lead out.
pub fn inside(bundle: &Path, rel: &str) -> Result<PathBuf> {
    let p = Path::new(rel);
    let ok = !rel.is_empty()
        && !rel.contains('\\')
        && p.components().all(|c| matches!(c, Component::Normal(_)));
    if !ok {
        bail!(
            "{}/index.json: names {rel:?}, a path outside the bundle folder; refused",
            bundle.display()
        );
    }
    Ok(bundle.join(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("refscore-fsread-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn bundle_paths_stay_inside() {
        let b = Path::new("/b");
        assert_eq!(inside(b, "tasks/a.json").unwrap(), Path::new("/b/tasks/a.json"));
        for bad in ["../../etc/hostname", "/etc/hostname", "tasks/../../x", "", "a\\b", "./x"] {
            let e = format!("{:#}", inside(b, bad).unwrap_err());
            assert!(e.contains("outside the bundle"), "{bad}: {e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn walks_take_each_file_once_and_never_follow_folder_links() {
        use std::os::unix::fs::symlink;
        let d = scratch("walk");
        fs::create_dir_all(d.join("run/sub")).unwrap();
        fs::write(d.join("run/a.jsonl"), b"{}").unwrap();
        fs::write(d.join("run/sub/b.traj"), b"{}").unwrap();
        symlink(d.join("run"), d.join("run/sub/loop")).unwrap();
        symlink(d.join("run/a.jsonl"), d.join("run/twice.jsonl")).unwrap();
        symlink(d.join("gone"), d.join("run/dangling.jsonl")).unwrap();
        let fifo = std::process::Command::new("mkfifo").arg(d.join("run/pipe.jsonl")).status();
        let w = walk(&d.join("run"), &|n| n.ends_with(".jsonl") || n.ends_with(".traj")).unwrap();
        let names: Vec<&str> = w.files.iter().map(|(r, _)| r.as_str()).collect();
        assert_eq!(names, ["a.jsonl", "sub/b.traj"]);
        let skipped: Vec<&str> = w.skipped.iter().map(|(r, _)| r.as_str()).collect();
        let mut expect = vec!["dangling.jsonl", "twice.jsonl"];
        if fifo.is_ok_and(|s| s.success()) {
            expect.insert(1, "pipe.jsonl");
            let e = format!("{:#}", read_file(&d.join("run/pipe.jsonl"), 10).unwrap_err());
            assert!(e.contains("FIFO"), "{e}");
        }
        assert_eq!(skipped, expect, "{:?}", w.skipped);
        let e = format!("{:#}", read_file(&d.join("run/a.jsonl"), 1).unwrap_err());
        assert!(e.contains("over the 0 MiB"), "{e}");
        let _ = fs::remove_dir_all(&d);
    }
}
