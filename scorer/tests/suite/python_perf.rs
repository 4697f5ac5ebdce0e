//! Timing of the parse facade (local only): `PY_PERF_FILE=path cargo test --release -p scorer
//! --test suite python_perf:: -- --ignored --nocapture`. Prints the time of rustpython alone, of
//! `parse_module` (pre-scan + parse + validation) and of `parse_tree` (+ conversion), and of `dump`.
//! Also measures the stack used per tree level (`PY_PERF_STACK=1`).

use std::time::Instant;

use scorer::python::{node, parse_module, parse_tree};

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..n {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64() * 1000.0);
        drop(r);
    }
    best
}

fn count(n: &node::Node) -> usize {
    1 + n.children().map(count).sum::<usize>()
}

#[test]
#[ignore]
fn timing() {
    let Ok(path) = std::env::var("PY_PERF_FILE") else { return };
    let src = std::fs::read_to_string(&path).expect("read");
    let tree = parse_tree(&src, "f.py").expect("parse");
    let nodes = count(&tree);
    let raw = best_of(10, || {
        use rustpython_parser::Parse;
        rustpython_parser::ast::ModModule::parse(&src, "f.py").expect("parse")
    });
    let module = best_of(10, || parse_module(&src, "f.py").expect("parse"));
    let full = best_of(10, || parse_tree(&src, "f.py").expect("parse"));
    let dump = best_of(3, || node::dump(&tree, true, true, None));
    eprintln!(
        "{path}: {} bytes, {nodes} nodes (ctx/op leaves included): rustpython alone {raw:.1} ms, parse_module {module:.1} ms, parse_tree {full:.1} ms, dump {dump:.1} ms",
        src.len()
    );
}

/// Finds the smallest thread stack that parses a tree of depth ~`n` (binary search).
#[test]
#[ignore]
fn stack_per_level() {
    if std::env::var("PY_PERF_STACK").is_err() {
        return;
    }
    for (n, stage) in [(2800usize, "module"), (2800, "tree"), (2800, "dump"), (7900, "module")] {
        let (mut lo, mut hi) = (16usize << 10, 64usize << 20);
        while hi - lo > 16 << 10 {
            let mid = (lo + hi) / 2;
            let exe = std::env::current_exe().expect("exe");
            let ok = std::process::Command::new(exe)
                .args(["--exact", "python_perf::stack_probe", "--ignored"])
                .env("PROBE_N", n.to_string())
                .env("PROBE_STAGE", stage)
                .env("PROBE_STACK", mid.to_string())
                .output()
                .expect("run")
                .status
                .success();
            if ok {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        eprintln!("depth {n}, {stage}: needs ~{} KiB stack ({} bytes/level)", hi >> 10, hi / n);
    }
}

#[test]
#[ignore]
fn stack_probe() {
    let (Ok(n), Ok(stack)) = (std::env::var("PROBE_N"), std::env::var("PROBE_STACK")) else {
        return;
    };
    let n: usize = n.parse().expect("n");
    let stack: usize = stack.parse().expect("stack");
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let src = format!("x = a{}\n", "+a".repeat(n));
            let stage = std::env::var("PROBE_STAGE").unwrap_or_default();
            if stage == "module" {
                // Deeper than CPython's limit: refused after parsing; the tree is dropped.
                let r = parse_module(&src, "f.py");
                assert_eq!(r.is_err(), n > 2900);
                return;
            }
            let t = parse_tree(&src, "f.py").expect("parse");
            if stage == "dump" {
                let d = node::dump(&t, true, true, None);
                assert!(d.len() > n);
            }
        })
        .expect("spawn")
        .join()
        .expect("ok");
}
