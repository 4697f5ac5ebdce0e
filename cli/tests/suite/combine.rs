//! Combined pseudo-tasks on the command line: `score --combine` on the demo bundle, and
//! `combine --out` writing a bundle that `score --task` reads like any other.

use crate::common;

use std::path::Path;

use common::{bundle, demo, refscore_in, text, Temp};
use serde_json::Value;

const IDS: &str = "rename-parse-amount,extract-normalize-sku";
const SOLVES_ONE: &str = "submissions/rename-parse-amount.solve.patch";

fn b() -> String {
    bundle("combine").to_str().expect("utf-8").to_string()
}

#[test]
fn score_combine_counts_constituent_tasks() {
    let bundle = b();
    let o = refscore_in(
        &demo(),
        &["score", "--tasks", &bundle, "--combine", IDS, "--patch", SOLVES_ONE],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("resolved 1 of 2 constituent tasks; the combined task is unresolved"),
        "{out}"
    );

    let o = refscore_in(
        &demo(),
        &["score", "--tasks", &bundle, "--combine", IDS, "--patch", SOLVES_ONE, "--json"],
    );
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!((v["resolved_parts"].as_u64(), v["resolved"].as_bool()), (Some(1), Some(false)));
    let parts: Vec<(&str, bool)> = v["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["instance_id"].as_str().unwrap(), p["resolved"].as_bool().unwrap()))
        .collect();
    assert_eq!(parts, [("rename-parse-amount", true), ("extract-normalize-sku", false)]);

    // Tasks of two repositories cannot be combined (usage error).
    let o = refscore_in(
        &demo(),
        &[
            "score",
            "--tasks",
            &bundle,
            "--combine",
            "rename-parse-amount,rename-feed-item-to-entry",
            "--patch",
            SOLVES_ONE,
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    // --patch alone names no task.
    let o = refscore_in(&demo(), &["score", "--tasks", &bundle, "--patch", SOLVES_ONE]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_saved_combined_bundle_scores_like_any_other() {
    let tmp = Temp::new("combine");
    let out = tmp.0.join("combined");
    let out_s = out.to_str().unwrap();
    let o = refscore_in(&demo(), &["combine", "--tasks", &b(), "--ids", IDS, "--out", out_s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let id = "combined__rename-parse-amount__extract-normalize-sku";
    let report = tmp.0.join("r.json");
    let o = refscore_in(
        &demo(),
        &[
            "score",
            "--tasks",
            out_s,
            "--task",
            id,
            "--patch",
            SOLVES_ONE,
            "--out",
            report.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let r: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let row = &r["results"][0];
    assert_eq!((row["instance_id"].as_str(), row["resolved"].as_bool()), (Some(id), Some(false)));
    let tests = row["tests"].as_array().unwrap();
    let passed = |prefix: &str| {
        let mine: Vec<&Value> =
            tests.iter().filter(|t| t["id"].as_str().unwrap().starts_with(prefix)).collect();
        assert!(!mine.is_empty(), "{prefix}");
        mine.iter().all(|t| t["status"] == "pass")
    };
    assert!(passed("rename-parse-amount::"));
    assert!(!passed("extract-normalize-sku::"));
    // A patch that solves both (two solutions touching different files) resolves a saved combined task.
    let o = refscore_in(
        &demo(),
        &[
            "combine",
            "--tasks",
            &b(),
            "--ids",
            "combine-currency-into-money,extract-normalize-sku",
            "--id",
            "both",
            "--out",
            out_s,
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let id = "both";
    let both = tmp.0.join("both.patch");
    let mut bytes =
        std::fs::read(demo().join("submissions/combine-currency-into-money.solve.patch")).unwrap();
    bytes.extend(
        std::fs::read(demo().join("submissions/extract-normalize-sku.solve.patch")).unwrap(),
    );
    std::fs::write(&both, bytes).unwrap();
    let o = refscore_in(
        Path::new("."),
        &["score", "--tasks", out_s, "--task", id, "--patch", both.to_str().unwrap(), "--json"],
    );
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["results"][0]["resolved"].as_bool(), Some(true), "{}", text(&o.stderr));
}
