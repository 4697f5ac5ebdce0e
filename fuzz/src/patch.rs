//! The patch parser and applier, differential against `git apply` (as the official harness runs
//! it: repository root, no system or global config, `* -text -filter -ident`): the same accept or
//! reject, and on accept byte-identical files and modes. The input is the patch; the base tree is
//! fixed (a few files of every kind a patch can meet: text, no final newline, CRLF, executable,
//! symlink, a folder).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use scorer::patch::{apply, ApplyOptions, PatchStatus};
use scorer::tree::{Content, FileEntry, FileMode, RepoPath, Tree};

type Files = BTreeMap<String, (FileMode, Vec<u8>)>;

/// The base tree every patch is applied to.
pub fn base() -> Files {
    let mut f = Files::new();
    let mut put = |p: &str, m: FileMode, b: &[u8]| {
        f.insert(p.to_string(), (m, b.to_vec()));
    };
    put(
        "a.py",
        FileMode::Regular,
        b"import os\n\n\ndef f(x):\n    return x + 1\n\n\ndef g(y):\n    return f(y) * 2\n\n\nclass C:\n    pass\n",
    );
    put("b.txt", FileMode::Regular, b"one\ntwo\nthree\nfour\nfive\nsix\nseven\neight");
    put("crlf.txt", FileMode::Regular, b"alpha\r\nbeta\r\ngamma\r\n");
    put("dir/c.py", FileMode::Regular, b"x = 1\ny = 2\nz = 3\n");
    put("dir/sub/d.py", FileMode::Regular, b"");
    put("run.sh", FileMode::Executable, b"#!/bin/sh\necho hi\n");
    put("link", FileMode::Symlink, b"a.py");
    f
}

fn to_tree(files: &Files) -> Tree {
    let mut t = Tree::new();
    for (p, (mode, bytes)) in files {
        let path = RepoPath::new(p).expect("base path");
        t.insert(path, FileEntry { mode: *mode, content: Content::Bytes(bytes.clone().into()) });
    }
    t
}

fn from_tree(t: &Tree) -> Files {
    t.iter()
        .map(|(p, e)| {
            (p.as_str().to_string(), (e.mode, e.bytes().map(|b| b.to_vec()).unwrap_or_default()))
        })
        .collect()
}

/// A scratch repository holding the base commit; its work tree is rewritten before each apply.
/// Its folder is removed when it is dropped ([`release`]).
struct GitRepo {
    dir: PathBuf,
    home: PathBuf,
    _scratch: crate::Scratch,
}

impl GitRepo {
    fn new() -> GitRepo {
        let scratch = crate::Scratch::new("git");
        let dir = scratch.path().join("w");
        let home = scratch.path().join("home");
        std::fs::create_dir_all(&dir).expect("work tree");
        std::fs::create_dir_all(&home).expect("home");
        let repo = GitRepo { dir, home, _scratch: scratch };
        repo.git_ok(&["init", "-q"]);
        std::fs::write(repo.dir.join(".git/info/attributes"), "* -text -filter -ident\n")
            .expect("attributes");
        repo.reset();
        repo.git_ok(&["add", "-A", "-f"]);
        repo.git_ok(&["-c", "core.autocrlf=false", "commit", "-q", "-m", "base"]);
        repo
    }

    fn git(&self, args: &[&str]) -> std::process::Output {
        Command::new("git")
            .args(args)
            .current_dir(&self.dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join("gitconfig"))
            .env("HOME", &self.home)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            .env("LC_ALL", "C")
            .output()
            .expect("git runs")
    }

    fn git_ok(&self, args: &[&str]) {
        let o = self.git(args);
        assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }

    /// The work tree back to the base files (no git process: cheaper than reset + clean).
    fn reset(&self) {
        use std::os::unix::fs::PermissionsExt;
        for e in std::fs::read_dir(&self.dir).expect("list work tree") {
            let e = e.expect("entry");
            if e.file_name() == ".git" {
                continue;
            }
            let p = e.path();
            if e.file_type().expect("type").is_dir() {
                std::fs::remove_dir_all(&p).expect("remove folder");
            } else {
                std::fs::remove_file(&p).expect("remove file");
            }
        }
        for (path, (mode, bytes)) in base() {
            let p = self.dir.join(&path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("folders");
            if mode == FileMode::Symlink {
                let target = std::str::from_utf8(&bytes).expect("link target");
                std::os::unix::fs::symlink(target, &p).expect("symlink");
            } else {
                std::fs::write(&p, &bytes).expect("write base file");
                let m = if mode == FileMode::Executable { 0o755 } else { 0o644 };
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(m)).expect("chmod");
            }
        }
    }

    /// `git apply PATCH` on the base: success, stderr and the resulting files.
    fn apply(&self, patch: &[u8]) -> (bool, String, Files) {
        self.reset();
        let pf = self.home.join("p.diff");
        std::fs::write(&pf, patch).expect("write patch");
        let o = self.git(&["-c", "core.autocrlf=false", "apply", pf.to_str().expect("utf-8")]);
        let files = read_files(&self.dir);
        (o.status.success(), String::from_utf8_lossy(&o.stderr).into_owned(), files)
    }
}

fn read_files(dir: &Path) -> Files {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Files::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("list") {
            let e = e.expect("entry");
            let p = e.path();
            let rel = p.strip_prefix(dir).expect("inside").to_string_lossy().into_owned();
            if rel == ".git" {
                continue;
            }
            let ft = e.file_type().expect("type");
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_symlink() {
                let t = std::fs::read_link(&p).expect("read link");
                out.insert(rel, (FileMode::Symlink, t.as_os_str().as_encoded_bytes().to_vec()));
            } else {
                let m = std::fs::metadata(&p).expect("stat").permissions().mode();
                let mode = if m & 0o100 != 0 { FileMode::Executable } else { FileMode::Regular };
                out.insert(rel, (mode, std::fs::read(&p).expect("read")));
            }
        }
    }
    out
}

/// The repository: not made yet, made, or git missing.
enum Repo {
    Unmade,
    Ready(GitRepo),
    NoGit,
}

static REPO: Mutex<Repo> = Mutex::new(Repo::Unmade);

/// The repository, made on first use (and again after [`release`]); `None` without git.
fn repo() -> std::sync::MutexGuard<'static, Repo> {
    let mut r = REPO.lock().unwrap_or_else(|e| e.into_inner());
    if matches!(*r, Repo::Unmade) {
        *r = if crate::have("git") {
            Repo::Ready(GitRepo::new())
        } else {
            eprintln!("fuzz patch: git not found, comparing with git skipped");
            Repo::NoGit
        };
    }
    r
}

/// Drops the scratch repository (its folder is removed); the next input makes a new one.
/// Statics are never dropped, so the replay tests call this when they are done.
pub fn release() {
    let mut r = REPO.lock().unwrap_or_else(|e| e.into_inner());
    if matches!(*r, Repo::Ready(_)) {
        *r = Repo::Unmade;
    }
}

/// The target: refscore's `apply` must not panic, must keep the tree on failure, and must agree
/// with `git apply` on accept/reject and on the resulting files.
pub fn fuzz(patch: &[u8]) {
    let base = base();
    let out = apply(&to_tree(&base), patch, &ApplyOptions::default());
    let blank = patch.iter().all(|c| c.is_ascii_whitespace());
    if blank {
        // git calls a blank patch an error; the harness calls it "none" without running git.
        assert_eq!(out.status, PatchStatus::None);
        return;
    }
    let ours_ok = out.status == PatchStatus::Applied;
    if !ours_ok {
        assert_eq!(out.tree, to_tree(&base), "a failed apply must keep the tree");
        assert!(out.reason.as_deref().is_some_and(|r| !r.contains('\n')), "one-line reason");
    }
    let guard = repo();
    let Repo::Ready(repo) = &*guard else { return };
    let (git_ok, stderr, git_files) = repo.apply(patch);
    let reason = out.reason.as_deref().unwrap_or("");
    // The documented divergence (scorer/tests/patch_git_differential.rs): git on Linux accepts
    // non-UTF-8 bytes in file names, a `RepoPath` cannot hold them.
    if git_ok && !ours_ok && reason.contains("is not valid UTF-8") {
        return;
    }
    assert_eq!(
        ours_ok,
        git_ok,
        "git {} ({}) but refscore {:?} ({:?})",
        if git_ok { "applied" } else { "failed" },
        stderr.trim(),
        out.status,
        out.reason
    );
    if ours_ok {
        let ours = from_tree(&out.tree);
        if ours != git_files {
            let keys: std::collections::BTreeSet<&String> =
                ours.keys().chain(git_files.keys()).collect();
            let differ: Vec<&&String> =
                keys.iter().filter(|k| ours.get(**k) != git_files.get(**k)).collect();
            panic!(
                "trees differ on {differ:?}\nours: {:?}\ngit: {:?}",
                differ.iter().map(|k| ours.get(**k)).collect::<Vec<_>>(),
                differ.iter().map(|k| git_files.get(**k)).collect::<Vec<_>>(),
            );
        }
    }
}
