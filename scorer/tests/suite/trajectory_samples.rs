//! Every public trajectory sample in shared/samples/trajectories (never copied into the
//! repository) is read with the right format and every step of the input kept; the normalised
//! JSON of each is pinned by an insta snapshot (long texts cut, so the snapshots stay small).
//! Skips with a message when the samples are absent (set REFSCORE_SHARED to their parent).

use std::path::PathBuf;

use scorer::trajectory::analysis::analyse;
use scorer::trajectory::{read, view, EditStatus, Format, RejectReason, Trajectory};
use serde_json::Value;

fn samples() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(dir) = std::env::var("REFSCORE_SHARED") {
        candidates.push(PathBuf::from(dir));
    }
    let ws = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    candidates.push(ws.join("../../shared"));
    candidates.push(PathBuf::from("/work/shared"));
    let found = candidates.into_iter().map(|c| c.join("samples/trajectories")).find(|d| d.is_dir());
    if found.is_none() {
        eprintln!("shared/samples/trajectories not found (set REFSCORE_SHARED): skipping");
    }
    found
}

/// Strings over 240 characters cut, keeping their length, so snapshots stay readable.
fn shorten(v: &Value) -> Value {
    match v {
        Value::String(s) if s.chars().count() > 240 => {
            let head: String = s.chars().take(200).collect();
            Value::String(format!("{head}…[{} chars]", s.chars().count()))
        }
        Value::Array(a) => Value::Array(a.iter().map(shorten).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), shorten(x))).collect()),
        _ => v.clone(),
    }
}

fn snapshot_json(ts: &[Trajectory]) -> Value {
    let objs: Vec<Value> =
        ts.iter().map(|t| shorten(&view::to_json(t, &analyse(t, None)))).collect();
    if objs.len() == 1 {
        objs.into_iter().next().unwrap_or(Value::Null)
    } else {
        Value::Array(objs)
    }
}

/// (file, format, steps of each trajectory as counted from the raw file: SWE-agent `trajectory`
/// entries; mini-swe-agent system/assistant messages and user messages before the first action;
/// OpenHands action events plus observations of actions not in the file; Inspect non-tool
/// messages; ATIF steps; Claude Code assistant lines and user lines with text; Codex
/// message / function_call / custom_tool_call items).
const CASES: &[(&str, Format, &[usize])] = &[
    ("swe-agent-0.x/pydicom__pydicom-1458.traj", Format::SweAgent0x, &[12]),
    ("sweagent-v0x__swe-agent__test-repo-i1.traj", Format::SweAgent0x, &[5]),
    ("sweagent-v1x__6e44b9__sweagenttestrepo-1c2844.traj", Format::SweAgent10, &[5]),
    ("sweagent-v1x-fc__marshmallow-code__marshmallow-1867.traj", Format::SweAgent10, &[13]),
    ("mini-swe-agent-v1/hello-world__mini-1.13.4.traj.json", Format::MiniSweAgentV1, &[5]),
    (
        "mini-swe-agent-v2/django__django-10914__mini-2.2.7-toolcall.traj.json",
        Format::MiniSweAgentV2,
        &[50],
    ),
    (
        "mini-swe-agent-v2/pylint-dev__astroid-1196__mini-2.2.7-exception-exit.traj.json",
        Format::MiniSweAgentV2,
        &[2],
    ),
    ("openhands-v0/ponylang__ponyc-4595.output.jsonl", Format::OpenHandsV0, &[26]),
    ("openhands-v1/goal-review-pr.events.jsonl", Format::OpenHandsV1, &[3]),
    (
        "inspect/intercode-ctf__gpt-4o.eval",
        Format::Inspect,
        &[14, 4, 6, 19, 11, 34, 8, 6, 7, 11, 35, 11, 32, 7, 7],
    ),
    ("inspect/log_tool_call_error.json", Format::Inspect, &[11]),
    ("atif/openhands-hello-world.trajectory.json", Format::Atif, &[6]),
    ("claude-code/representative_messages.jsonl", Format::ClaudeCode, &[9]),
    (
        "codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl",
        Format::Codex,
        &[5],
    ),
];

#[test]
fn every_sample_reads_with_its_format_and_every_step() {
    let Some(dir) = samples() else { return };
    for (file, format, steps) in CASES {
        let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(scorer::trajectory::detect(&bytes), Some(*format), "{file}");
        let ts = read(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        let counts: Vec<usize> = ts.iter().map(|t| t.steps.len()).collect();
        assert_eq!(counts, *steps, "{file}");
        for t in &ts {
            assert_eq!(t.format, Some(*format), "{file}");
            assert!(t.steps.iter().enumerate().all(|(i, s)| s.index == i), "{file}");
        }
        let name = file.replace(['/', '.'], "_");
        insta::assert_json_snapshot!(name, snapshot_json(&ts));
    }
}

/// The paper's agent on pydicom: three linter-rejected `edit 287:295` (steps 5–7), applied
/// edits at steps 1 and 8, exit `submitted`, cost logged.
#[test]
fn pydicom_lint_rejections_are_rejected_edits() {
    let Some(dir) = samples() else { return };
    let bytes =
        std::fs::read(dir.join("swe-agent-0.x/pydicom__pydicom-1458.traj")).expect("sample");
    let t = read(&bytes).expect("reads").remove(0);
    for i in [5, 6, 7] {
        let e = t.steps[i].edit().expect("edit");
        assert!(
            matches!(e.status, EditStatus::Rejected { reason: RejectReason::LintRejected, .. }),
            "step {i}: {:?}",
            e.status
        );
        assert_eq!(e.path, "pydicom/pixel_data_handlers/numpy_handler.py");
        assert_eq!(e.lines_before.map(|r| (r.start, r.end)), Some((287, 295)));
    }
    for i in [1, 8] {
        assert_eq!(t.steps[i].edit().expect("edit").status, EditStatus::Applied, "step {i}");
    }
    assert_eq!(t.steps[1].edit().map(|e| e.path.as_str()), Some("reproduce_bug.py"));
    let rejected = t.steps.iter().flat_map(|s| &s.edits).filter(|e| !e.status.is_applied()).count();
    assert_eq!(
        rejected, 4,
        "three lint rejections and the `rm` whose status SWE-agent does not log"
    );
    assert_eq!(t.exit_status.as_deref(), Some("submitted"));
    assert_eq!(t.model_stats.as_ref().and_then(|m| m.cost_usd), Some(1.26719));
    assert!(t.submission.as_deref().is_some_and(|s| s.contains("diff --git a/pydicom/")));
    let a = analyse(&t, None);
    // The lint-rejected edits are edit errors; the identical edit re-issued at step 7 is a loop.
    let fm = |id: &str, rule: &str| {
        a.failure_modes
            .iter()
            .find(|m| m.id == id && m.rule == rule)
            .unwrap_or_else(|| panic!("no {id}/{rule}: {:#?}", a.failure_modes))
    };
    let errors = fm("edit_error", "rejected");
    assert!([5, 6, 7].iter().all(|i| errors.steps.contains(i)), "{:?}", errors.steps);
    assert!(!errors.steps.contains(&8) && !errors.steps.contains(&1), "{:?}", errors.steps);
    let reissued = fm("loop", "same_failed_edit_reissued");
    assert!(reissued.steps.contains(&6) && reissued.steps.contains(&7), "{:?}", reissued.steps);
    // σ after step 8 covers the lines the submitted hunk changes (288, 290-291 of the new file:
    // `edit 287:296` wrote 11 lines over 10).
    let after = &a.edit_state[8];
    assert_eq!(after.step, 8);
    let f = after
        .files
        .iter()
        .find(|f| f.path == "pydicom/pixel_data_handlers/numpy_handler.py")
        .expect("numpy_handler.py in σ after step 8");
    assert!(f.ranges.iter().any(|r| r[0] <= 288 && r[1] >= 291), "{:?}", f.ranges);
    assert_eq!(f.failed_edits, 3);
    let before = &a.edit_state[7];
    assert!(
        before.files.iter().all(
            |f| f.path != "pydicom/pixel_data_handlers/numpy_handler.py" || f.ranges.is_empty()
        ),
        "no applied edit of numpy_handler.py before step 8: {:?}",
        before.files
    );
}

/// Costs of zero are "no data", never $0: the marshmallow replay and the crashed astroid run.
#[test]
fn zero_costs_are_no_data() {
    let Some(dir) = samples() else { return };
    for file in [
        "sweagent-v1x-fc__marshmallow-code__marshmallow-1867.traj",
        "mini-swe-agent-v2/pylint-dev__astroid-1196__mini-2.2.7-exception-exit.traj.json",
    ] {
        let t = read(&std::fs::read(dir.join(file)).expect("sample")).expect("reads").remove(0);
        let stats = t.model_stats.expect("api calls are logged");
        assert_eq!(stats.cost_usd, None, "{file}");
        assert!(stats.api_calls.is_some(), "{file}");
    }
}

/// The OpenHands ponyc run: one no-match `str_replace` failure, then a success with its exact diff.
#[test]
fn openhands_v0_failed_and_applied_str_replace() {
    let Some(dir) = samples() else { return };
    let t = read(
        &std::fs::read(dir.join("openhands-v0/ponylang__ponyc-4595.output.jsonl")).expect("sample"),
    )
    .expect("reads")
    .remove(0);
    let edits: Vec<_> = t.steps.iter().flat_map(|s| &s.edits).collect();
    assert_eq!(edits.len(), 2);
    assert!(matches!(edits[0].status, EditStatus::Rejected { reason: RejectReason::NoMatch, .. }));
    assert_eq!(edits[1].status, EditStatus::Applied);
    assert_eq!(edits[1].path, "src/libponyc/ast/parser.c");
    assert_eq!(edits[1].lines_after.map(|r| (r.start, r.end)), Some((696, 696)));
    assert_eq!(t.instance_id.as_deref(), Some("ponylang__ponyc-4595"));
}

/// The Inspect `.eval`, recompressed with zstd (ZIP method 93, as Inspect writes since 0.3.206),
/// reads to the same trajectories as the deflate original.
#[test]
fn zstd_eval_reads_like_the_deflate_original() {
    let Some(dir) = samples() else { return };
    let original = std::fs::read(dir.join("inspect/intercode-ctf__gpt-4o.eval")).expect("sample");
    let recompressed = common::rezip_zstd(&original);
    assert_ne!(recompressed, original);
    assert_eq!(read(&recompressed).expect("zstd .eval"), read(&original).expect("deflate .eval"));
}

mod common {
    /// Rewrites a zip archive with every entry zstd-compressed (method 93).
    pub(super) fn rezip_zstd(zip: &[u8]) -> Vec<u8> {
        use scorer::trajectory::test_support::{unzip, zip_write};
        let entries = unzip(zip).expect("the original reads");
        assert!(entries.len() > 10);
        let refs: Vec<(&str, u16, &[u8])> =
            entries.iter().map(|(n, d)| (n.as_str(), 93u16, d.as_slice())).collect();
        zip_write(&refs)
    }
}

/// Hostile input: every sample cut short at many points, and with bytes overwritten, gives a
/// trajectory or an error, never a panic.
#[test]
fn truncated_and_corrupted_samples_never_panic() {
    let Some(dir) = samples() else { return };
    for (file, _, _) in CASES {
        let bytes = std::fs::read(dir.join(file)).expect("sample");
        let n = bytes.len();
        for k in 1..40 {
            let cut = n * k / 40;
            let _ = read(&bytes[..cut]);
            let mut bad = bytes.clone();
            for j in 0..8 {
                let at = (cut + j * 7919) % n;
                bad[at] = bad[at].wrapping_add(0x5b);
            }
            let _ = read(&bad);
            let _ = scorer::trajectory::detect(&bad);
        }
    }
}
