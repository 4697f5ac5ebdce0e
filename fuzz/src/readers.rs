//! The predictions reader (`scorer::submission::parse_submissions`) and the trajectory readers
//! (`scorer::trajectory::read`, then the analysis and both views the CLI and the app show).
//! Findings: a panic, an error list past its cap, or a result that does not survive its own JSON.

use scorer::submission::{parse_submissions, Parsed, MAX_ENTRY_ERRORS};
use scorer::trajectory::analysis::{analyse, TaskContext};
use scorer::trajectory::{sigma, view};

/// File names the first input byte chooses from: the reader picks the kind by extension, and
/// the path may name the instruction set.
const NAMES: &[&str] = &[
    "preds.jsonl",
    "preds.json",
    "run/x.traj",
    "run/x.traj.json",
    "lazy/all_preds.jsonl",
    "descriptive/preds.json",
    "model.pred",
    "log.eval",
    "noext",
];

/// The predictions target: the first byte picks the file name, the rest is the file.
pub fn submissions(data: &[u8]) {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let name = NAMES[pick as usize % NAMES.len()];
    let parsed = parse_submissions(name, bytes);
    // At most MAX_ENTRY_ERRORS errors, then one summary entry for the rest.
    assert!(parsed.errors.len() <= MAX_ENTRY_ERRORS + 1, "{} errors", parsed.errors.len());
    let json = serde_json::to_string(&parsed).expect("Parsed serialises");
    let back: Parsed = serde_json::from_str(&json).expect("Parsed reads back");
    assert_eq!(back, parsed, "Parsed must survive its JSON");
}

/// The trajectory target: every trajectory a file holds, analysed (with and without a task
/// context) and shown as the CLI and the trajectory worker show it.
pub fn trajectory(data: &[u8]) {
    let _ = scorer::trajectory::detect(data);
    let Ok(trajs) = scorer::trajectory::read(data) else { return };
    let task = TaskContext {
        instance_id: "t".into(),
        test_source: Some("import unittest\nclass T(unittest.TestCase):\n    pass\n".into()),
        ..TaskContext::default()
    };
    for t in &trajs {
        let a = analyse(t, None);
        assert_eq!(a.edit_state.len(), t.steps.len(), "one σ state per step");
        let _ = analyse(t, Some(&task));
        let _ = view::to_json(t, &a);
        let _ = view::to_text(t, &a);
        let _ = sigma::paper_state(t, true);
        let _ = sigma::paper_state(t, false);
    }
}
