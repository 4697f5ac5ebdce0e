//! Throughput of the patch engine: parse + strict apply, in MB of patch text per second.
//!
//! Run with optimisations, e.g. `CARGO_PROFILE_DEV_OPT_LEVEL=3 cargo run -p scorer --example
//! patch_bench` (or `--profile release-native`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a local measuring tool: it prints its figures and stops on a broken fixture"
)]

use std::time::Instant;

use scorer::patch::{apply, parse, ApplyOptions, PatchStatus};
use scorer::tree::Tree;

fn line(i: usize, f: usize) -> String {
    format!("    value_{f}_{i} = compute(alpha={i}, beta='{}')  # keep\n", i * 7 % 13)
}

/// `files` files of `lines` lines, and a patch editing `hunks` places in each.
fn workload(files: usize, lines: usize, hunks: usize) -> (Tree, Vec<u8>) {
    let mut t = Tree::new();
    let mut patch = String::new();
    for f in 0..files {
        let path = format!("pkg{}/module_{f}.py", f % 10);
        let body: Vec<String> = (0..lines).map(|i| line(i, f)).collect();
        t.insert_bytes(&path, body.concat().into_bytes()).unwrap();
        patch.push_str(&format!(
            "diff --git a/{path} b/{path}\nindex 1234567..89abcde 100644\n--- a/{path}\n+++ b/{path}\n"
        ));
        let step = lines / (hunks + 1);
        for h in 1..=hunks {
            let at = h * step; // 0-based line replaced
            let start = at - 3; // 3 lines of context before
            patch.push_str(&format!("@@ -{},7 +{},8 @@\n", start + 1, start + 1 + (h - 1)));
            for l in &body[start..at] {
                patch.push(' ');
                patch.push_str(l);
            }
            patch.push('-');
            patch.push_str(&body[at]);
            patch.push_str(&format!("+    value_{f}_{at} = compute(alpha={at}, beta='new')\n"));
            patch.push_str("+    log(value)\n");
            for l in &body[at + 1..at + 4] {
                patch.push(' ');
                patch.push_str(l);
            }
        }
    }
    (t, patch.into_bytes())
}

fn measure(name: &str, tree: &Tree, patch: &[u8], reps: usize) {
    let mb = patch.len() as f64 / 1e6;
    let t0 = Instant::now();
    for _ in 0..reps {
        let p = parse(patch).expect("parses");
        std::hint::black_box(p.files.len());
    }
    let parse_s = t0.elapsed().as_secs_f64() / reps as f64;
    let t1 = Instant::now();
    for _ in 0..reps {
        let out = apply(tree, patch, &ApplyOptions::default());
        assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
        std::hint::black_box(out.tree.len());
    }
    let all_s = t1.elapsed().as_secs_f64() / reps as f64;
    println!(
        "{name:34} patch {mb:7.2} MB  parse {:8.1} MB/s  parse+apply {:7.1} MB/s  ({:.1} ms)",
        mb / parse_s,
        mb / all_s,
        all_s * 1e3
    );
}

fn main() {
    let only = std::env::args().nth(1).filter(|s| s != "all");
    let reps: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let want = |k: &str| only.as_deref().is_none_or(|o| o == k);
    if want("a") {
        let (t, p) = workload(200, 2000, 20);
        measure("200 files x 20 hunks", &t, &p, reps);
    }
    if want("b") {
        let (t, p) = workload(20, 20000, 200);
        measure("20 big files x 200 hunks", &t, &p, reps);
    }
    if want("c") {
        let (t, p) = workload(2000, 100, 3);
        measure("2000 small files x 3 hunks", &t, &p, reps);
    }
    if !want("d") {
        return;
    }
    // one new 8 MB file
    let mut p = b"--- /dev/null\n+++ b/big.py\n".to_vec();
    let n = 120_000;
    p.extend_from_slice(format!("@@ -0,0 +1,{n} @@\n").as_bytes());
    for i in 0..n {
        p.push(b'+');
        p.extend_from_slice(line(i, 0).as_bytes());
    }
    measure("new file, 120k lines", &Tree::new(), &p, reps);
}
