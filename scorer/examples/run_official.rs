//! Local check tool: runs the 100 official test files of a RefactorBench checkout with the scorer's
//! interpreter (empty patch) and compares with the official harness's verdicts.
//!
//! Usage: `cargo run --release -p scorer --example run_official -- /work/rb [official.json] [--only SUBSTR]`
//! Prints one JSON line per test file, then (with official.json) the mismatches and agreement numbers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a local measuring tool: it prints its figures and stops on a broken fixture"
)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use scorer::report::TestOutcome;
use scorer::tree::{Content, FileEntry, FileMode, RepoPath, Tree};
use scorer::unittest::{RunConfig, Scorer};

fn load_tree(root: &Path) -> Tree {
    let mut tree = Tree::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(md) = std::fs::symlink_metadata(&p) else { continue };
            let rel = p.strip_prefix(root).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            if rel == ".git" || rel.starts_with(".git/") {
                continue;
            }
            if md.file_type().is_symlink() {
                let target = std::fs::read_link(&p)
                    .map(|t| t.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if let Ok(rp) = RepoPath::new(&rel) {
                    tree.insert(
                        rp,
                        FileEntry {
                            mode: FileMode::Symlink,
                            content: Content::Bytes(target.into_bytes().into()),
                        },
                    );
                }
            } else if md.is_dir() {
                stack.push(p);
            } else if md.is_file() {
                let bytes = if md.len() > 20_000_000 {
                    Vec::new()
                } else {
                    std::fs::read(&p).unwrap_or_default()
                };
                if let Ok(rp) = RepoPath::new(&rel) {
                    tree.insert(
                        rp,
                        FileEntry {
                            mode: FileMode::Regular,
                            content: Content::Bytes(bytes.into()),
                        },
                    );
                }
            }
        }
    }
    tree
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rb = PathBuf::from(args.get(1).cloned().unwrap_or_else(|| "/work/rb".into()));
    let official = args.get(2).filter(|a| !a.starts_with("--")).cloned();
    let only = args.iter().position(|a| a == "--only").and_then(|i| args.get(i + 1)).cloned();
    let quiet = args.iter().any(|a| a == "--quiet");
    let mut results: BTreeMap<String, Vec<TestOutcome>> = BTreeMap::new();
    let mut repos: Vec<PathBuf> = std::fs::read_dir(rb.join("tests"))
        .expect("tests dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    repos.sort();
    let mut scorer = Scorer::new(RunConfig::default());
    let mut total_run = 0.0;
    for repo_tests in repos {
        let repo = repo_tests.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&repo_tests)
            .expect("repo tests")
            .flatten()
            .map(|e| e.path())
            .collect();
        files.retain(|f| f.extension().is_some_and(|e| e == "py"));
        files.sort();
        if let Some(o) = &only {
            files.retain(|f| f.to_string_lossy().contains(o.as_str()));
            if files.is_empty() {
                continue;
            }
        }
        let tree = load_tree(&rb.join("repositories").join(&repo));
        for f in files {
            let name = f.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let src = std::fs::read_to_string(&f).expect("test source");
            let t0 = Instant::now();
            let out = scorer.run_test_file(&tree, &name, &src);
            let dt = t0.elapsed().as_secs_f64();
            total_run += dt;
            if std::env::var_os("TIMES").is_some() {
                eprintln!("{dt:.3}s {repo}/{name}");
            }
            let key = format!("tests/{repo}/{name}");
            if !quiet {
                println!("{}", serde_json::json!({"test_file": key, "tests": out}));
            }
            results.insert(key, out);
        }
    }
    eprintln!("interpreter time (all files): {total_run:.3}s");
    let Some(official) = official else { return };
    let text = std::fs::read_to_string(&official).expect("official json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let (mut m_total, mut m_status, mut m_full) = (0, 0, 0);
    let (mut t_total, mut t_status, mut t_full) = (0, 0, 0);
    for r in v["results"].as_array().into_iter().flatten() {
        let key = r["test_file"].as_str().unwrap_or("").to_string();
        let Some(mine) = results.get(&key) else { continue };
        t_total += 1;
        let mut all_status = true;
        let mut all_full = true;
        let off: Vec<&serde_json::Value> = r["tests"].as_array().into_iter().flatten().collect();
        if off.len() != mine.len() {
            all_status = false;
            all_full = false;
            println!("COUNT {key}: official {} mine {}", off.len(), mine.len());
        }
        for o in off {
            m_total += 1;
            let id = o["name"].as_str().unwrap_or("");
            let Some(me) = mine.iter().find(|m| m.id == id) else {
                println!("MISSING {key} {id}");
                all_status = false;
                all_full = false;
                continue;
            };
            let st = o["status"].as_str().unwrap_or("");
            let et = o["exc_type"].as_str();
            let msg = o["message"].as_str();
            let line = o["line"].as_u64().map(|l| l as u32);
            if st == me.status.as_str() {
                m_status += 1;
            } else {
                all_status = false;
            }
            let full = st == me.status.as_str()
                && et == me.exc_type.as_deref()
                && msg == me.message.as_deref()
                && line == me.line;
            if full {
                m_full += 1;
            } else {
                all_full = false;
                println!(
                    "DIFF {key} {id}\n  official: {st} {et:?} {:?} line {line:?}\n  mine:     {} {:?} {:?} line {:?}",
                    msg.map(|m| m.chars().take(300).collect::<String>()),
                    me.status.as_str(),
                    me.exc_type,
                    me.message.as_ref().map(|m| m.chars().take(300).collect::<String>()),
                    me.line
                );
            }
        }
        if all_status {
            t_status += 1;
        }
        if all_full {
            t_full += 1;
        }
    }
    println!("methods: {m_status}/{m_total} status agree, {m_full}/{m_total} status+exc_type+message+line agree");
    println!(
        "files:   {t_status}/{t_total} all statuses agree, {t_full}/{t_total} everything agrees"
    );
}
