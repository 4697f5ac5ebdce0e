//! "Touch patches" (issue 25): the honest speed workload. For every task, one patch that appends
//! `# touched by <task id>` to every `.py` file its test reads (the task data's `inspected`
//! paths that exist and whose bytes the bundle carries), so no two tasks share a file's bytes,
//! every file the test parses changes (no parse cache or run reuse can answer), and the test's
//! work stays the same as on the pristine tree. `refscore touch` writes them as a SWE-bench
//! predictions file; the speed bench (`cli/benches/score.rs`) and the browser measurement
//! (`tests/e2e/speed.mjs`) both use it.

use std::io::Write;

use scorer::bundle::TaskData;
use scorer::tree::{FileMode, Tree};

/// The model name the predictions file gives every entry.
pub const MODEL: &str = "touch";

/// The comment line appended to each file of `task_id`'s patch (without its newline).
pub fn comment(task_id: &str) -> String {
    format!("# touched by {task_id}")
}

/// The files `task` reads that its touch patch changes: inspected, existing, `.py`, regular or
/// executable (not symlinks), carried with UTF-8 bytes (a predictions file holds text).
pub fn touched_files<'t>(task: &'t TaskData, base: &'t Tree) -> Vec<(&'t str, &'t [u8])> {
    let mut out = Vec::new();
    for i in task.inspected.iter().filter(|i| i.exists && i.path.as_str().ends_with(".py")) {
        let Some(entry) = base.get(&i.path) else { continue };
        if entry.mode == FileMode::Symlink {
            continue;
        }
        let Some(bytes) = entry.bytes() else { continue };
        if std::str::from_utf8(bytes).is_err() {
            continue;
        }
        out.push((i.path.as_str(), &bytes[..]));
    }
    out.sort_by(|a, b| a.0.cmp(b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The touch patch of `task` as git writes it (`git diff` after appending the comment line), or
/// `None` when the test reads no file it could touch.
pub fn touch_patch(task: &TaskData, base: &Tree) -> Option<String> {
    let files = touched_files(task, base);
    if files.is_empty() {
        return None;
    }
    let line = comment(&task.id);
    Some(files.into_iter().map(|(path, bytes)| append_patch(path, bytes, &line)).collect())
}

/// The patch of one file appending `line` (the files of a touch patch, and the bench's
/// distinct-edit batch: one touch-style edit of one file per submission). `bytes` is UTF-8
/// (`touched_files` checks it).
pub fn append_patch(path: &str, bytes: &[u8], line: &str) -> String {
    let mut out = format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n");
    append_hunk(&mut out, &String::from_utf8_lossy(bytes), line);
    out
}

/// One hunk appending `line` to `text`: the last (up to) three lines as context; a file without a
/// final newline gets one first, as an editor appending a line would write it.
fn append_hunk(out: &mut String, text: &str, line: &str) {
    if text.is_empty() {
        out.push_str(&format!("@@ -0,0 +1 @@\n+{line}\n"));
        return;
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let n = lines.len();
    let ends_with_newline = text.ends_with('\n');
    let ctx = n.min(3);
    let start = n - ctx + 1;
    out.push_str(&format!("@@ -{start},{ctx} +{start},{} @@\n", ctx + 1));
    for (k, l) in lines[n - ctx..].iter().enumerate() {
        let last = k + 1 == ctx;
        if last && !ends_with_newline {
            out.push_str(&format!("-{l}\n\\ No newline at end of file\n+{l}\n"));
        } else {
            out.push(' ');
            out.push_str(l);
        }
    }
    out.push_str(&format!("+{line}\n"));
}

/// One predictions-file line (SWE-bench JSONL) per task with a touch patch, in `tasks` order;
/// returns how many tasks had none.
pub fn write_predictions<'a>(
    tasks: impl IntoIterator<Item = (&'a TaskData, &'a Tree)>,
    mut w: impl Write,
) -> std::io::Result<(usize, usize)> {
    let (mut written, mut skipped) = (0, 0);
    for (data, base) in tasks {
        match touch_patch(data, base) {
            Some(patch) => {
                let entry = serde_json::json!({
                    "instance_id": data.id,
                    "model_name_or_path": MODEL,
                    "model_patch": patch,
                });
                writeln!(w, "{entry}")?;
                written += 1;
            }
            None => skipped += 1,
        }
    }
    Ok((written, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hunk(text: &str) -> String {
        let mut s = String::new();
        append_hunk(&mut s, text, "# t");
        s
    }

    #[test]
    fn hunks_as_git_writes_them() {
        assert_eq!(hunk(""), "@@ -0,0 +1 @@\n+# t\n");
        assert_eq!(hunk("a\n"), "@@ -1,1 +1,2 @@\n a\n+# t\n");
        assert_eq!(hunk("a\nb\nc\nd\n"), "@@ -2,3 +2,4 @@\n b\n c\n d\n+# t\n");
        assert_eq!(
            hunk("a\nb"),
            "@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+# t\n"
        );
    }
}
