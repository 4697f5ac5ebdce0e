//! Local check on the official benchmark (needs a checkout and the official harness's verdicts,
//! so CI skips it): every task of a bundle imported from the checkout is scored from the bundle
//! alone (`TaskData::base_tree` over the packs: bytes for the files the task carries, blob ids for
//! the rest) with the empty patch, and compared with the harness's `eval-all` JSON.
//!
//! ```text
//! refscore import --from /work/rb --out /tmp/rb-bundle
//! python3 official-harness.py eval-all --rb /work/rb --repos /work/rb/repositories --out official.json
//! REFSCORE_BUNDLE=/tmp/rb-bundle REFSCORE_OFFICIAL=official.json \
//!     cargo test -p scorer --test suite official_bundle -- --nocapture
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use scorer::bundle::{BundleIndex, Manifest, TaskData};
use scorer::unittest::{RunConfig, Scorer};

#[test]
fn bundle_verdicts_equal_the_official_harness() {
    let (Some(dir), Some(official)) =
        (std::env::var_os("REFSCORE_BUNDLE"), std::env::var_os("REFSCORE_OFFICIAL"))
    else {
        eprintln!("skipped: set REFSCORE_BUNDLE and REFSCORE_OFFICIAL to run it");
        return;
    };
    let dir = PathBuf::from(dir);
    let read = |n: &str| std::fs::read(dir.join(n)).unwrap_or_else(|e| panic!("{n}: {e}"));
    let text = |n: &str| String::from_utf8(read(n)).expect("utf-8");
    let index = BundleIndex::from_json(&text("index.json")).expect("index");
    let mut manifests = BTreeMap::new();
    let mut blobs: BTreeMap<String, Arc<[u8]>> = BTreeMap::new();
    for r in &index.repos {
        let m = Manifest::from_json(&text(&r.manifest), &r.manifest).expect("manifest");
        if let Some(p) = &m.pack {
            blobs.extend(p.split(&read(&p.file)).expect("pack"));
        }
        manifests.insert(r.name.clone(), m);
    }
    let official: serde_json::Value =
        serde_json::from_slice(&std::fs::read(official).expect("official json")).expect("json");
    let by_file: BTreeMap<&str, &serde_json::Value> = official["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| (r["test_file"].as_str().unwrap_or(""), r))
        .collect();
    let mut scorer = Scorer::new(RunConfig::default());
    let (mut methods, mut agree, mut files, mut diffs) = (0, 0, 0, Vec::new());
    for row in &index.tasks {
        let task = TaskData::from_json(&text(&row.data), &row.data).expect("task");
        let tree = task.base_tree(&manifests[&task.repo], &blobs).expect("base tree");
        let got = scorer.run_test_file(&tree, &task.test.name, &task.test.source);
        let Some(want) = by_file.get(task.test.path.as_str()) else {
            diffs.push(format!("{}: not in the official results", task.test.path));
            continue;
        };
        files += 1;
        let want = want["tests"].as_array().expect("tests");
        if want.len() != got.len() {
            diffs.push(format!("{}: {} methods, official {}", task.id, got.len(), want.len()));
        }
        for w in want {
            methods += 1;
            let id = w["name"].as_str().unwrap_or("");
            let Some(g) = got.iter().find(|g| g.id == id) else {
                diffs.push(format!("{}: {id} missing", task.id));
                continue;
            };
            let same = w["status"].as_str() == Some(g.status.as_str())
                && w["exc_type"].as_str() == g.exc_type.as_deref()
                && w["message"].as_str() == g.message.as_deref()
                && w["line"].as_u64() == g.line.map(u64::from);
            if same {
                agree += 1;
            } else {
                diffs.push(format!("{}: {id}: official {w} refscore {g:?}", task.id));
            }
        }
    }
    eprintln!(
        "{} tasks, {files} in the official results: {agree}/{methods} methods agree \
         (status, exception type, message, line)",
        index.tasks.len()
    );
    assert!(diffs.is_empty(), "{} differences:\n{}", diffs.len(), diffs.join("\n"));
    assert!(methods > 0);
}
