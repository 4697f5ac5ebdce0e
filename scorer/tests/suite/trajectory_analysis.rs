//! σ and the failure modes on the real trajectory samples (shared/samples/trajectories; set
//! `REFSCORE_TRAJECTORY_SAMPLES` to another folder). Skips with a message when they are absent.
#![cfg(feature = "trajectories")]

use std::path::{Path, PathBuf};

use scorer::trajectory::analysis::analyse;

fn samples() -> Option<PathBuf> {
    let dir = std::env::var_os("REFSCORE_TRAJECTORY_SAMPLES")
        .map_or_else(|| PathBuf::from("/work/shared/samples/trajectories"), PathBuf::from);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: no trajectory samples at {}", dir.display());
        None
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("read dir").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.file_name().is_some_and(|n| n != "SOURCES.md") {
            out.push(p);
        }
    }
}

/// Lines the patch adds to `path`, in new-file coordinates.
fn added_lines(patch: &str, path: &str) -> Vec<u32> {
    let mut out = Vec::new();
    let mut in_file = false;
    let mut line = 0u32;
    for l in patch.lines() {
        if let Some(p) = l.strip_prefix("+++ ") {
            in_file = p.trim_start_matches("b/") == path;
        } else if let Some(h) = l.strip_prefix("@@ ") {
            let new = h.split(' ').nth(1).unwrap_or("+0");
            line =
                new.trim_start_matches('+').split(',').next().unwrap_or("0").parse().unwrap_or(0);
        } else if in_file && l.starts_with('+') {
            out.push(line);
            line += 1;
        } else if in_file && !l.starts_with('-') && !l.starts_with('\\') {
            line += 1;
        }
    }
    out
}

#[test]
fn pydicom_reissued_edit_is_a_loop_and_sigma_covers_the_final_edit() {
    let Some(dir) = samples() else { return };
    let bytes =
        std::fs::read(dir.join("swe-agent-0.x/pydicom__pydicom-1458.traj")).expect("sample");
    let t = scorer::trajectory::read(&bytes).expect("reads").remove(0);
    let a = analyse(&t, None);
    let lp = a
        .failure_modes
        .iter()
        .find(|m| m.id == "loop" && m.rule == "same_failed_edit_reissued")
        .unwrap_or_else(|| panic!("no reissued edit in {:#?}", a.failure_modes));
    assert_eq!(lp.steps, [6, 7]);
    let path = "pydicom/pixel_data_handlers/numpy_handler.py";
    let after8 = a.edit_state.iter().find(|s| s.step == 8).expect("step 8");
    let file = after8.files.iter().find(|f| f.path == path).expect("file in σ");
    let patch = t.submission.as_deref().expect("submission");
    let lines = added_lines(patch, path);
    assert!(!lines.is_empty());
    for l in lines {
        assert!(
            file.ranges.iter().any(|r| r[0] <= l && l <= r[1]),
            "line {l} not in σ {:?}",
            file.ranges
        );
    }
    assert_eq!(file.failed_edits, 3);
    // Three lint rejections: FM-2, and σ_n agrees with the patch on the files.
    assert!(a.failure_modes.iter().any(|m| m.id == "edit_error"));
    let check = a.final_check.expect("submission parses");
    assert_eq!(check.both, [path]);
    assert!(check.patch_only.is_empty(), "{check:?}");
}

/// Every sample reads and analyses; prints each trajectory's flags (`--nocapture` for the table).
#[test]
fn every_sample_analyses() {
    let Some(dir) = samples() else { return };
    let mut all = Vec::new();
    files(&dir, &mut all);
    let mut analysed = 0;
    for p in all {
        let bytes = std::fs::read(&p).expect("sample");
        let name = p.strip_prefix(&dir).unwrap_or(&p).display().to_string();
        let Ok(ts) = scorer::trajectory::read(&bytes) else {
            println!("{name}: not read");
            continue;
        };
        for (i, t) in ts.iter().enumerate() {
            let a = analyse(t, None);
            assert_eq!(a.edit_state.len(), t.steps.len());
            let flags: Vec<String> = a
                .failure_modes
                .iter()
                .map(|m| format!("{}/{} {:?} ({})", m.id, m.rule, m.steps, m.detail))
                .collect();
            println!(
                "{name}#{i}: {} steps, exit {}: {}",
                t.steps.len(),
                a.facts.exit,
                flags.join("; ")
            );
            analysed += 1;
        }
    }
    assert!(analysed > 0);
}

/// The demo repository `ledgerly_refactor` as a tree (tasks/demo/repositories).
fn demo_tree(repo: &str) -> scorer::tree::Tree {
    fn walk(root: &Path, dir: &Path, tree: &mut scorer::tree::Tree) {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, tree);
            } else {
                let rel = path.strip_prefix(root).expect("inside").to_str().expect("utf-8");
                tree.insert_bytes(rel, std::fs::read(&path).expect("file")).expect("insert");
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks/demo/repositories").join(repo);
    let mut tree = scorer::tree::Tree::new();
    walk(&root, &root, &mut tree);
    tree
}

/// The demo SWE-agent 1.x log `add-log-parameter-post-entry.traj` analysed with the verdicts of
/// its submission and of the empty patch (scored here):
/// - step 4, a text-mode `str_replace_editor` answered with SWE-agent's lint template, is a
///   linter rejection (it was `unknown` before);
/// - no FM-1 flag: the two failing tests (`test_cli_calls`, `test_importer_calls`) never see
///   `cli.py` / `stock_count.py` edited, but their `setUp` reads `journal.py`, which the patch
///   changes, so `R(t) ∩ P ≠ ∅`: partially touched (trajectories.md §1.3), not untouched;
/// - the same `grep` three times in a row (steps 13–15) is not a loop: FM-5 needs identical
///   action and observation ×4 (or ×3 with an error result).
#[test]
fn demo_add_log_lint_rejection_partial_targets_and_no_loop() {
    use scorer::report::Status;
    use scorer::trajectory::analysis::TaskContext;
    use scorer::trajectory::{EditStatus, RejectReason};
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tasks/demo");
    let bytes =
        std::fs::read(demo.join("submissions/trajectories/add-log-parameter-post-entry.traj"))
            .expect("demo log");
    let t = scorer::trajectory::read(&bytes).expect("reads").remove(0);
    let e = t.steps[4].edit().expect("an edit at step 4");
    assert!(
        matches!(&e.status, EditStatus::Rejected { reason: RejectReason::LintRejected, message }
            if message.starts_with("E999 IndentationError")),
        "{:?}",
        e.status
    );
    assert_eq!(e.path, "ledgerly/journal.py");
    let test_name = "add-log-parameter-post-entry-test.py";
    let source = std::fs::read_to_string(demo.join("tests/ledgerly_refactor").join(test_name))
        .expect("test");
    let base = demo_tree("ledgerly_refactor");
    let mut scorer = scorer::unittest::Scorer::new(scorer::unittest::RunConfig::default());
    let id = "add-log-parameter-post-entry";
    let patch = t.submission.clone().expect("a submission");
    let fin =
        scorer::evaluate::evaluate(&mut scorer, id, &base, test_name, &source, patch.as_bytes());
    let pristine = scorer::evaluate::evaluate(&mut scorer, id, &base, test_name, &source, b"");
    let failing: Vec<&str> =
        fin.tests.iter().filter(|r| r.status != Status::Pass).map(|r| r.id.as_str()).collect();
    assert_eq!(
        failing,
        [
            "TestPostEntryLogParameter.test_cli_calls",
            "TestPostEntryLogParameter.test_importer_calls"
        ]
    );
    let ctx = TaskContext {
        instance_id: id.into(),
        test_source: Some(source),
        final_result: Some(fin),
        pristine_result: Some(pristine),
        instructions: Vec::new(),
        repo: Some("ledgerly_refactor".into()),
    };
    let a = analyse(&t, Some(&ctx));
    let ids: Vec<(&str, &str)> =
        a.failure_modes.iter().map(|m| (m.id.as_str(), m.rule.as_str())).collect();
    assert!(!ids.iter().any(|(id, _)| *id == "untouched_target"), "{ids:?}");
    assert!(!ids.iter().any(|(id, _)| *id == "loop"), "{ids:?}");
    assert_eq!(
        (a.facts.change_checking_failing, a.facts.untouched_failing, a.facts.partially_touched),
        (2, 0, 2)
    );
    let errors = a.failure_modes.iter().find(|m| m.id == "edit_error").expect("edit_error");
    assert_eq!(errors.steps, [4, 11, 12]);
    assert_eq!(a.facts.edit_errors_by_kind.get("lint_rejected"), Some(&1));
}
