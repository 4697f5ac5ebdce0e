//! Benchmark binary (not a timed test): the scorer's interpreter against python3 on the official test
//! files of a local RefactorBench checkout, per task, side by side.
//!
//! `cargo bench -p scorer --bench interp -- <RB checkout> <folder of repo copies>`
//! The second folder holds writable copies of the repositories (e.g. the official harness's git
//! cache); the test file is copied to `<copy>/refactorbench_eval/` for python3 and removed after.
//! Prints per-task times and the totals; python3 time is the wall time of one `python3 -s` process
//! running the file through unittest's loader (what the official harness does per task).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a local measuring tool: it prints its figures and stops on a broken fixture"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use scorer::tree::{Content, FileEntry, FileMode, RepoPath, Tree};
use scorer::unittest::{RunConfig, Scorer};

const PY_RUNNER: &str = r#"
import sys, time, importlib.util, unittest
t0 = time.perf_counter()
spec = importlib.util.spec_from_file_location("refactorbench_official_test", sys.argv[1])
m = importlib.util.module_from_spec(spec)
try:
    spec.loader.exec_module(m)
    unittest.TestLoader().loadTestsFromModule(m).run(unittest.TestResult())
except BaseException:
    pass
print(time.perf_counter() - t0)
"#;

fn load_tree(root: &Path) -> Tree {
    let mut tree = Tree::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            let Ok(md) = std::fs::symlink_metadata(&p) else { continue };
            let rel = p.strip_prefix(root).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            if rel == ".git" || rel.starts_with(".git/") || rel.starts_with("refactorbench_eval") {
                continue;
            }
            if md.is_dir() {
                stack.push(p);
            } else if md.is_file() {
                if let (Ok(rp), Ok(b)) = (RepoPath::new(&rel), std::fs::read(&p)) {
                    tree.insert(
                        rp,
                        FileEntry { mode: FileMode::Regular, content: Content::Bytes(b.into()) },
                    );
                }
            }
        }
    }
    tree
}

fn main() {
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    let rb = PathBuf::from(args.get(1).cloned().unwrap_or_else(|| "/work/rb".into()));
    let copies = PathBuf::from(
        args.get(2).cloned().unwrap_or_else(|| "/tmp/refactorbench-official-cache".into()),
    );
    let runner = std::env::temp_dir().join("refscore-bench-runner.py");
    std::fs::write(&runner, PY_RUNNER).expect("runner");
    let mut repos: Vec<PathBuf> =
        std::fs::read_dir(rb.join("tests")).expect("tests").flatten().map(|e| e.path()).collect();
    repos.sort();
    let (mut total_py, mut total_rs_cold, mut total_rs_warm, mut faster) = (0.0, 0.0, 0.0, 0);
    let (mut total_py_in, mut faster_in) = (0.0, 0);
    let mut n = 0;
    let mut scorer = Scorer::new(RunConfig::default());
    for repo_tests in repos {
        let repo = repo_tests.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let copy = copies.join(&repo);
        if !copy.is_dir() {
            eprintln!("skip {repo}: no copy at {}", copy.display());
            continue;
        }
        let t0 = Instant::now();
        let tree = load_tree(&copy);
        eprintln!(
            "{repo}: tree of {} files loaded in {:.2}s",
            tree.len(),
            t0.elapsed().as_secs_f64()
        );
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(&repo_tests).expect("dir").flatten().map(|e| e.path()).collect();
        files.retain(|f| f.extension().is_some_and(|e| e == "py"));
        files.sort();
        let eval = copy.join("refactorbench_eval");
        for f in files {
            let name = f.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let src = std::fs::read_to_string(&f).expect("src");
            std::fs::create_dir_all(&eval).expect("mkdir");
            std::fs::write(eval.join(&name), &src).expect("copy test");
            let t = Instant::now();
            let out = Command::new("python3")
                .arg("-s")
                .arg(&runner)
                .arg(&name)
                .current_dir(&eval)
                .env("PYTHONHASHSEED", "0")
                .env("PYTHONDONTWRITEBYTECODE", "1")
                .output();
            let py = t.elapsed().as_secs_f64();
            let py_in = out
                .ok()
                .and_then(|o| {
                    String::from_utf8_lossy(&o.stdout)
                        .trim()
                        .lines()
                        .last()
                        .and_then(|l| l.parse::<f64>().ok())
                })
                .unwrap_or(py);
            let _ = std::fs::remove_dir_all(&eval);
            let t = Instant::now();
            let _ = scorer.run_test_file(&tree, &name, &src);
            let cold = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let _ = scorer.run_test_file(&tree, &name, &src);
            let warm = t.elapsed().as_secs_f64();
            println!(
                "{repo}/{name}: python3 {py:.4}s (in-process {py_in:.4}s)  scorer {cold:.4}s (parse cache warm: {warm:.4}s)  ratio {:.1}x / in-process {:.1}x",
                py / cold.max(1e-9),
                py_in / cold.max(1e-9)
            );
            total_py += py;
            total_py_in += py_in;
            if cold < py_in {
                faster_in += 1;
            }
            total_rs_cold += cold;
            total_rs_warm += warm;
            if cold < py {
                faster += 1;
            }
            n += 1;
        }
    }
    println!(
        "TOTAL {n} files: python3 {total_py:.2}s per process ({total_py_in:.2}s in-process), scorer {total_rs_cold:.2}s cold / \
         {total_rs_warm:.2}s warm; python3/scorer = {:.1}x (process) {:.1}x (in-process) cold, {:.1}x warm; \
         scorer faster on {faster}/{n} files (process), {faster_in}/{n} (in-process)",
        total_py / total_rs_cold.max(1e-9),
        total_py_in / total_rs_cold.max(1e-9),
        total_py / total_rs_warm.max(1e-9)
    );
}
