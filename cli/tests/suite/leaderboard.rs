//! `refscore leaderboard add` and `check` on a report the CLI scored from the demo bundle: the row
//! it appends (rates over the bundle), the copied report, and the refusals.

use crate::common;

use std::fs;

use common::{bundle, demo, refscore_in, text, workspace, Temp};

#[test]
fn a_scored_report_becomes_a_drillable_row_and_checks() {
    let tmp = Temp::new("board");
    let b = bundle("leaderboard");
    let b = b.to_str().expect("utf-8");
    let report = tmp.0.join("demo agent.report.json");
    let o = refscore_in(
        &demo(),
        &[
            "score",
            "--tasks",
            b,
            "--predictions",
            "submissions/predictions.jsonl",
            "--out",
            report.to_str().unwrap(),
        ],
    );
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", text(&o.stderr));
    let board = tmp.0.join("board");
    fs::create_dir_all(&board).unwrap();
    let shipped = workspace().join("public/leaderboard/published.json");
    fs::copy(&shipped, board.join("published.json")).unwrap();
    let dir = board.to_str().unwrap();
    let r = report.to_str().unwrap();

    // The shipped file checks, with no report behind any entry.
    let o = refscore_in(&tmp.0, &["leaderboard", "check", dir]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(": 47 entries, 0 with a report behind them: valid"));

    // The predictions name no instruction set: the row needs one.
    let o = refscore_in(&tmp.0, &["leaderboard", "add", dir, "--report", r, "--tasks", b]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("give --instruction-set"), "{}", text(&o.stderr));

    let add = ["leaderboard", "add", dir, "--report", r, "--tasks", b, "--instruction-set", "base"];
    let o = refscore_in(&tmp.0, &add);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).starts_with("added demo-agent (demo-agent-a): resolved "),
        "{}",
        text(&o.stdout)
    );
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(board.join("published.json")).unwrap()).unwrap();
    let entries = json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 48);
    // The curated rows are kept as written (integers stay integers).
    assert_eq!(entries[0]["resolved"], serde_json::json!(12));
    let e = &entries[47];
    assert_eq!(e["id"], "demo-agent");
    assert_eq!(e["model"], "demo-agent-a");
    assert_eq!(e["instruction_set"], "base");
    assert_eq!(e["report"], "demo-agent.json");
    assert_eq!(e["harness"], "official");
    // Rates over the nine demo tasks (eight submitted).
    assert_eq!((e["n"].as_u64(), e["submitted"].as_u64()), (Some(9), Some(8)));
    assert_eq!(e["flags"]["partial"], true);
    let scored: serde_json::Value = serde_json::from_slice(&fs::read(&report).unwrap()).unwrap();
    let resolved =
        scored["results"].as_array().unwrap().iter().filter(|r| r["resolved"] == true).count();
    assert_eq!(e["resolved_count"].as_u64(), Some(resolved as u64));
    assert_eq!(fs::read(board.join("demo-agent.json")).unwrap(), fs::read(&report).unwrap());

    let o = refscore_in(&tmp.0, &["leaderboard", "check", dir]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(": 48 entries, 1 with a report behind them: valid"));

    // The same id twice is refused, and the file is left alone.
    let o = refscore_in(&tmp.0, &add);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("an entry \"demo-agent\" exists already"));
    // A report that does not read fails the check, naming the entry.
    fs::write(board.join("demo-agent.json"), "{\"schema_version\": 9}").unwrap();
    let o = refscore_in(&tmp.0, &["leaderboard", "check", dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("entry \"demo-agent\": field report"), "{}", text(&o.stderr));
    fs::remove_file(board.join("demo-agent.json")).unwrap();
    let o = refscore_in(&tmp.0, &["leaderboard", "check", dir]);
    assert_eq!(o.status.code(), Some(2));
}
