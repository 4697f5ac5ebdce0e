//! The shipped `public/leaderboard/published.json` parses and validates, and keeps the cautions of
//! `/work/shared/published-results.md`: flagged rows are never ranked, the crashed sub-agent run is
//! 20 of 26, kimi's S1 row is 61, the paper's base GPT-4 figure is 22 with the 18 noted.

use std::path::Path;

use scorer::leaderboard::{read, Harness, Leaderboard};

fn board() -> Leaderboard {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../public/leaderboard/published.json");
    let bytes = std::fs::read(&path).expect("published.json");
    read(&bytes, "published.json").unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn published_json_parses_and_validates() {
    let b = board();
    assert_eq!(b.schema_version, 1);
    let get = |id: &str| b.entries.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id}"));

    let base = get("paper-sweagent-gpt4-base");
    assert_eq!((base.resolved, base.harness), (Some(22.0), Harness::Official));
    assert!(base.notes.iter().any(|n| n.contains("18%")));
    assert_eq!(get("paper-sweagent-gpt4-lazy").resolved, Some(12.0));
    assert_eq!(get("paper-sweagent-gpt4-desc").resolved, Some(27.0));
    assert_eq!(get("paper-sweagent-claude35-desc").resolved, Some(35.0));
    assert_eq!(get("paper-human-base").resolved, Some(87.0));
    let gpt4o = get("paper-sweagent1-gpt4o-desc");
    assert_eq!((gpt4o.resolved, gpt4o.cost.as_ref().map(|c| c.usd)), (Some(31.0), Some(1.69)));
    assert!(get("paper-state-aware").flags.note_only);

    let crashed = get("rp-s3-subagent-desc");
    assert_eq!((crashed.resolved_count, crashed.n), (Some(20), Some(26)));
    assert!(crashed.flags.partial && !crashed.is_ranked());
    let kimi = get("rp-kimi-s1-desc");
    assert_eq!(kimi.resolved, Some(61.0));
    assert!(kimi.notes.iter().any(|n| n.contains("71")));
    let lsp = get("rp-s1lsp-desc");
    assert_eq!((lsp.resolved, lsp.setup.as_deref()), (Some(73.0), Some("S1 + LSP")));

    // §2b rows are never ranked; every third-party row names its harness and exact source.
    for id in [
        "ralph-sonnet-single",
        "ralph-opus-single",
        "ralph-loop",
        "rp-ceiling",
        "rp-s3-neverpassed",
        "refactorika-base",
        "sail-pathtraversal",
    ] {
        assert!(!get(id).is_ranked(), "{id} must not be ranked");
    }
    for e in &b.entries {
        assert!(!e.source.location.is_empty() && !e.harness_name.is_empty(), "{}", e.id);
        if e.harness == Harness::ThirdParty {
            assert!(e.source.url.is_some(), "{} has no URL", e.id);
        }
        assert!(e.report.is_none(), "{}: no report ships yet", e.id);
    }
    let ranked = b.entries.iter().filter(|e| e.is_ranked()).count();
    assert_eq!((b.entries.len(), ranked), (47, 37));
    assert!(b.entries.iter().filter(|e| e.is_ranked()).all(|e| e.instruction_set.is_some()));
    assert_eq!(
        b.entries.iter().filter(|e| e.id.starts_with("bh-")).map(|e| e.n).collect::<Vec<_>>(),
        vec![Some(60); 7]
    );
}
