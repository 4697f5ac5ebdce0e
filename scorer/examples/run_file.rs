//! Local check tool: runs one unittest file with the scorer against a folder (the repository root).
//! Usage: `cargo run -p scorer --example run_file -- <test.py> [repo_root]`
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a local measuring tool: it prints its figures and stops on a broken fixture"
)]

use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::PathBuf::from(&args[1]);
    let src = std::fs::read_to_string(&path).expect("read test");
    let mut tree = Tree::new();
    if let Some(root) = args.get(2) {
        for e in walk(std::path::Path::new(root)) {
            let rel = e.strip_prefix(root).unwrap_or(&e).to_string_lossy().into_owned();
            if let Ok(b) = std::fs::read(&e) {
                let _ = tree.insert_bytes(&rel, b);
            }
        }
    }
    // Overrides: `set:<repo path>:<local file>` replaces/adds a file, `del:<repo path>` removes one.
    for a in args.iter().skip(3) {
        if let Some(rest) = a.strip_prefix("set:") {
            if let Some((rp, local)) = rest.split_once(':') {
                let _ = tree.insert_bytes(rp, std::fs::read(local).expect("override file"));
            }
        } else if let Some(rp) = a.strip_prefix("del:") {
            if let Ok(p) = scorer::tree::RepoPath::new(rp) {
                tree.remove(&p);
            }
        }
    }
    let budget = std::env::var("STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(RunConfig::default().step_budget);
    let mut scorer = Scorer::new(RunConfig { step_budget: budget, ..RunConfig::default() });
    let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let t0 = std::time::Instant::now();
    for o in scorer.run_test_file(&tree, &name, &src) {
        println!("{}", serde_json::to_string(&o).unwrap_or_default());
    }
    eprintln!("{:.3}s", t0.elapsed().as_secs_f64());
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with(".git") {
                    stack.push(p);
                }
            } else {
                out.push(p);
            }
        }
    }
    out
}
