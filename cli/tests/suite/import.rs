//! `refscore import` on the demo benchmark (`tasks/demo`, laid out like the official checkout):
//! determinism, the format's invariants, coverage of every file a test reads (checked against a
//! CPython run with `open` and `os.path.*` traced, on the base tree and on every patched tree), and
//! the errors a malformed checkout gets.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use crate::common;

use common::{demo, workspace, Temp};
use scorer::bundle::{blob_file, bundle_hash, BundleIndex, Manifest, TaskData};
use scorer::tree::{git_blob_id, RepoPath};
use scorer::unittest::{RunConfig, Scorer};

fn refscore(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_refscore")).args(args).output().expect("run refscore")
}

fn import(from: &Path, out: &Path) -> Output {
    refscore(&[
        "import".as_ref(),
        "--from".as_ref(),
        from.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ])
}

/// Every file below `root`: relative path → bytes.
fn read_tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, rel: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in fs::read_dir(dir).expect("read_dir") {
            let e = e.expect("entry");
            let name = e.file_name().to_string_lossy().into_owned();
            let child = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            if e.file_type().expect("type").is_dir() {
                walk(&e.path(), &child, out);
            } else {
                out.insert(child, fs::read(e.path()).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, "", &mut out);
    out
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    for e in fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// A copy of the demo checkout's four official folders.
fn demo_copy(tag: &str) -> Temp {
    let t = Temp::new(tag);
    for folder in ["problems", "tests", "scripts", "repositories"] {
        copy_dir(&demo().join(folder), &t.0.join(folder));
    }
    t
}

struct Loaded {
    index: BundleIndex,
    tasks: Vec<TaskData>,
    manifests: BTreeMap<String, Manifest>,
    files: BTreeMap<String, Vec<u8>>,
}

fn load(dir: &Path) -> Loaded {
    let files = read_tree(dir);
    let text = |name: &str| String::from_utf8(files[name].clone()).expect("utf-8");
    let index = BundleIndex::from_json(&text("index.json")).expect("index.json");
    let tasks = index
        .tasks
        .iter()
        .map(|t| TaskData::from_json(&text(&t.data), &t.data).expect("task"))
        .collect();
    let manifests = index
        .repos
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                Manifest::from_json(&text(&r.manifest), &r.manifest).expect("manifest"),
            )
        })
        .collect();
    Loaded { index, tasks, manifests, files }
}

#[test]
fn imports_the_demo_deterministically() {
    let (a, b) = (Temp::new("a"), Temp::new("b"));
    let out_a = import(&demo(), &a.0);
    assert!(out_a.status.success(), "{}", String::from_utf8_lossy(&out_a.stderr));
    let out_b = import(&demo(), &b.0);
    assert!(out_b.status.success(), "{}", String::from_utf8_lossy(&out_b.stderr));
    let (ta, tb) = (read_tree(&a.0), read_tree(&b.0));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    assert!(ta == tb, "two imports of the same checkout differ");

    let loaded = load(&a.0);
    let index_input = loaded.index.hash_input();
    let hash = bundle_hash(ta.iter().map(|(k, v)| {
        (k.as_str(), if k == "index.json" { index_input.as_slice() } else { v.as_slice() })
    }));
    assert_eq!(loaded.index.bundle_hash, hash);
    let stdout = String::from_utf8_lossy(&out_a.stdout);
    assert!(stdout.contains(&hash), "summary names the hash: {stdout}");
    assert!(stdout.contains("tasks        9 in 2 repositories"), "{stdout}");
    assert!(stdout.contains("largest task "), "{stdout}");

    // Every file but index.json is named after its content.
    for (name, bytes) in &ta {
        if let Some(id) = name.strip_prefix("blobs/").and_then(|n| n.strip_suffix(".txt")) {
            assert_eq!(git_blob_id(bytes), id, "{name}");
        } else if name != "index.json" {
            let h = scorer::bundle::sha256_hex(bytes);
            let ext = if name.starts_with("packs/") || name.starts_with("tasks/pack.") {
                "txt"
            } else {
                "json"
            };
            assert!(
                name.ends_with(&format!(".{}.{ext}", &h[..16])),
                "{name} is not content-addressed"
            );
        }
    }

    // The task pack holds every task file, byte for byte, in index order.
    let pack = loaded.index.task_pack.as_ref().expect("a task pack");
    assert!(pack.file.starts_with("tasks/pack."), "{}", pack.file);
    let parts = pack.split_unhashed(&ta[&pack.file]).expect("ranges inside the pack");
    assert_eq!(parts.len(), loaded.index.tasks.len());
    let mut offset = 0;
    for row in &loaded.index.tasks {
        assert_eq!(&parts[&row.data][..], &ta[&row.data][..], "{}", row.data);
        assert_eq!(pack.blobs[&row.data][0], offset, "{} in index order", row.data);
        offset += ta[&row.data].len() as u64;
    }

    let ids: Vec<&str> = loaded.index.tasks.iter().map(|t| t.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "add-log-parameter-post-entry",
            "combine-currency-into-money",
            "extract-normalize-sku",
            "move-format-table",
            "rename-parse-amount",
            "split-storage-loaders",
            "stock-ledger-class",
            "move-strip-html-to-sanitize",
            "rename-feed-item-to-entry",
        ]
    );
    assert_eq!(loaded.index.tasks.iter().map(|t| t.methods).sum::<u32>(), 65);
    let split = loaded.tasks.iter().find(|t| t.id == "split-storage-loaders").expect("task");
    assert_eq!(split.test.name, "split-loaders.py");
    assert_eq!(split.test.path, "tests/ledgerly_refactor/split-loaders.py");
    assert!(split.instructions.lazy.len() < split.instructions.base.len());
    let missing: Vec<&str> =
        split.inspected.iter().filter(|p| !p.exists).map(|p| p.path.as_str()).collect();
    assert_eq!(missing, ["ledgerly/storage/csv_loader.py", "ledgerly/storage/json_loader.py"]);

    // Manifests list every repository file, with git's blob ids.
    for (repo, manifest) in &loaded.manifests {
        let on_disk = read_tree(&demo().join("repositories").join(repo));
        assert_eq!(manifest.files.len(), on_disk.len(), "{repo}");
        for (path, bytes) in &on_disk {
            let p = RepoPath::new(path).expect("path");
            assert_eq!(manifest.files.get(&p), Some(&git_blob_id(bytes)), "{repo}/{path}");
        }
        let r = loaded.index.repos.iter().find(|r| &r.name == repo).expect("repo row");
        assert_eq!(r.attribution.license.as_deref(), Some("MIT License"));
        assert!(r.attribution.copyright.as_deref().is_some_and(|c| c.contains("refscore authors")));
    }

    // Every task's base tree loads, with checked bytes for every listed file, from single blobs
    // and from its repository's pack alike.
    for task in &loaded.tasks {
        let blobs: BTreeMap<String, Arc<[u8]>> = task
            .files
            .iter()
            .map(|f| (f.blob.clone(), Arc::from(loaded.files[&blob_file(&f.blob)].as_slice())))
            .collect();
        let manifest = &loaded.manifests[&task.repo];
        let pack = manifest.pack.as_ref().expect("pack");
        let from_pack = pack.split(&loaded.files[&pack.file]).expect("pack splits");
        assert_eq!(
            task.base_tree(manifest, &from_pack).expect("tree from pack"),
            task.base_tree(manifest, &blobs).expect("tree from blobs")
        );
        let tree = task.base_tree(&loaded.manifests[&task.repo], &blobs).expect("base tree");
        assert_eq!(tree.len(), loaded.manifests[&task.repo].files.len());
        for p in task.inspected.iter().filter(|p| p.exists) {
            assert!(tree.get(&p.path).and_then(|e| e.bytes()).is_some(), "{}: {}", task.id, p.path);
        }
    }
}

/// Runs one test file with CPython in `<repo>/refactorbench_eval/` and returns the repository paths
/// it opened or checked (`open`, `os.path.exists/isfile/isdir/lexists/getsize`).
fn traced_paths(repo: &Path, test: &Path) -> BTreeSet<String> {
    const TRACER: &str = r#"
import builtins, importlib.util, json, os, sys, unittest
root = os.path.abspath('..')
seen = set()
def rec(p):
    try:
        a = os.path.abspath(os.fsdecode(p))
    except Exception:
        return
    if a.startswith(root + os.sep):
        seen.add(os.path.relpath(a, root).replace(os.sep, '/'))
real_open = builtins.open
def traced_open(f, *a, **k):
    if isinstance(f, (str, bytes, os.PathLike)):
        rec(f)
    return real_open(f, *a, **k)
devnull = real_open(os.devnull, 'w')
builtins.open = traced_open
for name in ('exists', 'isfile', 'isdir', 'lexists', 'getsize'):
    real = getattr(os.path, name)
    def wrapped(p, _real=real):
        rec(p)
        return _real(p)
    setattr(os.path, name, wrapped)
spec = importlib.util.spec_from_file_location('demo_test', sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
suite = unittest.TestLoader().loadTestsFromModule(module)
unittest.TextTestRunner(stream=devnull).run(suite)
builtins.open = real_open
print(json.dumps(sorted(seen)))
"#;
    let eval = repo.join("refactorbench_eval");
    fs::create_dir_all(&eval).expect("eval dir");
    let dest = eval.join(test.file_name().expect("name"));
    fs::copy(test, &dest).expect("copy test");
    let out = Command::new("python3")
        .args(["-s", "-B", "-c", TRACER])
        .arg(&dest)
        .current_dir(&eval)
        .env("PYTHONHASHSEED", "0")
        .env("LANG", "C.UTF-8")
        .output()
        .expect("python3");
    assert!(out.status.success(), "tracer failed: {}", String::from_utf8_lossy(&out.stderr));
    fs::remove_dir_all(&eval).expect("clean eval dir");
    let list: Vec<String> = serde_json::from_slice(&out.stdout).expect("tracer output");
    list.into_iter().filter(|p| !p.starts_with("refactorbench_eval")).collect()
}

#[test]
fn every_file_a_demo_test_reads_is_in_the_bundle() {
    let out = Temp::new("cover");
    let run = import(&demo(), &out.0);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let loaded = load(&out.0);
    let patches: Vec<PathBuf> = {
        let mut v: Vec<PathBuf> = fs::read_dir(demo().join("submissions"))
            .expect("submissions")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "patch"))
            .collect();
        v.sort();
        v
    };
    let mut checked = 0;
    for task in &loaded.tasks {
        let manifest = &loaded.manifests[&task.repo];
        let carried: BTreeMap<&str, &str> =
            task.files.iter().map(|f| (f.path.as_str(), f.blob.as_str())).collect();
        let named: BTreeSet<&str> = task.inspected.iter().map(|p| p.path.as_str()).collect();
        let own: Vec<&PathBuf> = patches
            .iter()
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&format!("{}.", task.id)))
            })
            .collect();
        // The base tree, then each of the task's patches applied with git.
        for patch in std::iter::once(None).chain(own.into_iter().map(Some)) {
            let work = Temp::new("run");
            copy_dir(&demo().join("repositories").join(&task.repo), &work.0);
            if let Some(patch) = patch {
                let applied = Command::new("git")
                    .args(["apply", "--whitespace=nowarn"])
                    .arg(patch)
                    .current_dir(&work.0)
                    .env("GIT_CONFIG_NOSYSTEM", "1")
                    .env("GIT_CONFIG_GLOBAL", "/dev/null")
                    .output()
                    .expect("git");
                if !applied.status.success() {
                    continue; // the does-not-apply patch: no test runs
                }
            }
            let test = demo().join(&task.test.path);
            for path in traced_paths(&work.0, &test) {
                let rp = RepoPath::new(&path).expect("path");
                assert!(
                    named.contains(path.as_str()),
                    "{}: the test touches {path}, not in inspected",
                    task.id
                );
                if let Some(blob) = manifest.files.get(&rp) {
                    assert_eq!(
                        carried.get(path.as_str()),
                        Some(&blob.as_str()),
                        "{}: {path} not carried",
                        task.id
                    );
                    assert!(
                        loaded.files.contains_key(&blob_file(blob)),
                        "{}: blob of {path}",
                        task.id
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} traced accesses");
}

/// A test file whose reads static rules cannot see: every path is built at run time (a folder
/// listing, names joined from parts, a loop), and no instruction names the files.
const COMPUTED_TEST: &str = r#"import ast
import os
import unittest

PACKAGE = os.path.join('..', 'ledger' + 'ly')


def functions_in(*parts):
    with open(os.path.join(PACKAGE, *parts)) as f:
        tree = ast.parse(f.read())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


class TestComputedReads(unittest.TestCase):

    def test_reports_define_functions(self):
        folder = os.path.join(PACKAGE, 'reports')
        for name in sorted(os.listdir(folder)):
            if name.endswith('.py') and not name.startswith('_'):
                with self.subTest(module=name):
                    self.assertTrue(functions_in('reports', name), name)

    def test_valuation_keeps_fifo(self):
        self.assertIn('fifo_cost', functions_in('inventory', 'valu' + 'ation.py'))

    def test_dates_gained_a_helper(self):
        self.assertIn('parse_iso_date', functions_in('utils', 'dates' + '.py'))

    def test_a_module_that_does_not_exist(self):
        for stem in ['dates', 'calendar']:
            functions_in('utils', stem + '.py')


if __name__ == '__main__':
    unittest.main()
"#;

/// The files the computed-path test reads on the demo's base tree.
const COMPUTED_READS: [&str; 5] = [
    "ledgerly/inventory/valuation.py",
    "ledgerly/reports/balance.py",
    "ledgerly/reports/export.py",
    "ledgerly/reports/inventory_report.py",
    "ledgerly/utils/dates.py",
];

/// The demo checkout plus a task `computed-reads` (ledgerly) running [`COMPUTED_TEST`].
fn computed_checkout() -> Temp {
    let t = demo_copy("computed");
    let test = "../tests/ledgerly_refactor/computed-reads.py";
    fs::write(t.0.join("tests/ledgerly_refactor/computed-reads.py"), COMPUTED_TEST).expect("test");
    for kind in ["base", "lazy", "descriptive"] {
        let problem = format!("problems/{kind}_problems/ledgerly_refactor/computed-reads-task.txt");
        fs::write(t.0.join(&problem), "Add a date helper next to the existing ones.")
            .expect("problem");
        let mapping = t.0.join(format!("scripts/{kind}_mapping.py"));
        let text = fs::read_to_string(&mapping).expect("mapping");
        let entry = format!("file_mapping = {{\n    '{test}': '../{problem}',");
        let changed = text.replacen("file_mapping = {", &entry, 1);
        assert_ne!(text, changed);
        fs::write(&mapping, changed).expect("mapping");
    }
    t
}

#[test]
fn a_file_read_through_a_computed_path_is_carried() {
    let checkout = computed_checkout();
    let (a, b) = (Temp::new("computed-a"), Temp::new("computed-b"));
    let run = import(&checkout.0, &a.0);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(import(&checkout.0, &b.0).status.success());
    assert!(read_tree(&a.0) == read_tree(&b.0), "two imports of the same checkout differ");
    let stdout = String::from_utf8_lossy(&run.stdout);
    // The five files come from the run alone; the demo's own nine tests need nothing beyond the
    // static rules. Only the new task had to run again on the whole repository.
    assert!(stdout.contains("10 tests run on their base trees"), "{stdout}");
    assert!(stdout.contains(", 5 found only by the run (1 tasks re-run"), "{stdout}");

    let loaded = load(&a.0);
    let task = loaded.tasks.iter().find(|t| t.id == "computed-reads").expect("task");
    let by_run: Vec<&str> = task
        .files
        .iter()
        .filter(|f| f.why == [scorer::bundle::NeedReason::Run])
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(by_run, COMPUTED_READS);
    // The static rules alone see none of them.
    assert!(task.inspected.iter().all(|p| !COMPUTED_READS.contains(&p.path.as_str())));

    // Scored from the bundle alone (blob ids for every other file), from the whole checkout, and
    // by CPython: the same verdicts.
    let manifest = &loaded.manifests[&task.repo];
    let blobs: BTreeMap<String, Arc<[u8]>> = task
        .files
        .iter()
        .map(|f| (f.blob.clone(), Arc::from(loaded.files[&blob_file(&f.blob)].as_slice())))
        .collect();
    let bundle_tree = task.base_tree(manifest, &blobs).expect("bundle tree");
    let repo = demo().join("repositories/ledgerly_refactor");
    let mut full_tree = scorer::tree::Tree::new();
    for (path, bytes) in read_tree(&repo) {
        full_tree.insert_bytes(&path, bytes).expect("path");
    }
    let mut scorer = Scorer::new(RunConfig::default());
    let from_bundle = scorer.run_test_file(&bundle_tree, &task.test.name, &task.test.source);
    let from_checkout = scorer.run_test_file(&full_tree, &task.test.name, &task.test.source);
    assert_eq!(from_bundle, from_checkout);
    let python =
        python_verdicts(&repo, &checkout.0.join("tests/ledgerly_refactor/computed-reads.py"));
    let ours: Vec<serde_json::Value> = from_bundle
        .iter()
        .map(|o| {
            serde_json::json!({"id": o.id, "status": o.status.as_str(), "exc_type": o.exc_type,
                               "message": o.message, "line": o.line})
        })
        .collect();
    assert_eq!(ours, python);
    let statuses: Vec<&str> = from_bundle.iter().map(|o| o.status.as_str()).collect();
    assert_eq!(statuses, ["error", "fail", "pass", "pass"]);

    // Without the files only the run found, the bundle could not score the task.
    let mut static_only = task.clone();
    static_only.files.retain(|f| f.why != [scorer::bundle::NeedReason::Run]);
    let tree = static_only.base_tree(manifest, &blobs).expect("tree");
    let out = scorer.run_test_file(&tree, &task.test.name, &task.test.source);
    assert!(out.iter().any(|o| o.exc_type.as_deref() == Some("ContentNotInBundle")), "{out:?}");
}

/// CPython's verdicts for one test file (`scorer/tests/differential/pyref.py`, the official
/// harness's semantics), as `{id, status, exc_type, message, line}` records.
fn python_verdicts(repo: &Path, test: &Path) -> Vec<serde_json::Value> {
    let out = Command::new("python3")
        .arg(workspace().join("scorer/tests/differential/pyref.py"))
        .arg(repo)
        .arg(test)
        .output()
        .expect("python3");
    assert!(out.status.success(), "pyref.py: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("pyref.py output")
}

fn assert_fails_naming(from: &Path, what: &str) {
    let out = Temp::new("bad-out");
    let run = import(from, &out.0);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains(what), "error should name {what:?}: {stderr}");
}

#[test]
fn a_malformed_checkout_gets_an_error_naming_what_is_missing() {
    let no_tests = demo_copy("no-tests");
    fs::remove_dir_all(no_tests.0.join("tests")).expect("rm");
    assert_fails_naming(&no_tests.0, "missing folder tests/");

    let no_mapping = demo_copy("no-mapping");
    fs::remove_file(no_mapping.0.join("scripts/lazy_mapping.py")).expect("rm");
    assert_fails_naming(&no_mapping.0, "missing file scripts/lazy_mapping.py");

    let no_test_file = demo_copy("no-test-file");
    fs::remove_file(no_test_file.0.join("tests/ledgerly_refactor/split-loaders.py")).expect("rm");
    assert_fails_naming(
        &no_test_file.0,
        "tests/ledgerly_refactor/split-loaders.py, which does not exist",
    );

    let bad_value = demo_copy("bad-value");
    let path = bad_value.0.join("scripts/descriptive_mapping.py");
    let text = fs::read_to_string(&path).expect("read");
    let changed = text.replacen("rename-parse-amount-task.txt", "rename-parse-amount-tsak.txt", 1);
    assert_ne!(text, changed);
    fs::write(&path, changed).expect("write");
    assert_fails_naming(
        &bad_value.0,
        "problems/descriptive_problems/ledgerly_refactor/rename-parse-amount-tsak.txt, which does not exist",
    );

    let not_python = demo_copy("not-python");
    fs::write(not_python.0.join("scripts/base_mapping.py"), "file_mapping = {'a': open('x')}\n")
        .expect("write");
    assert_fails_naming(
        &not_python.0,
        "scripts/base_mapping.py, line 1: entry 0 of `file_mapping`",
    );

    let no_repo = demo_copy("no-repo");
    fs::remove_dir_all(no_repo.0.join("repositories/tinyfeed_refactor")).expect("rm");
    assert_fails_naming(&no_repo.0, "repositories/tinyfeed_refactor/");

    assert_fails_naming(&workspace().join("no-such-checkout"), "no-such-checkout: not a folder");
}

#[test]
fn an_import_replaces_a_bundle_but_never_foreign_files() {
    let out = Temp::new("replace");
    assert!(import(&demo(), &out.0).status.success());
    let stale = out.0.join("tasks/stale.0000000000000000.json");
    fs::write(&stale, "{}").expect("write");
    assert!(import(&demo(), &out.0).status.success());
    assert!(!stale.exists(), "a re-import leaves no stale files");

    let foreign = Temp::new("foreign");
    fs::write(foreign.0.join("notes.txt"), "mine").expect("write");
    let run = import(&demo(), &foreign.0);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("not empty and holds no bundle"));
    assert_eq!(fs::read_to_string(foreign.0.join("notes.txt")).expect("kept"), "mine");
}

/// The demo's CPython reference verdicts are current (python3 runs every demo test file against
/// the base tree and every patched tree; `check.py --verify` compares with the committed file).
#[test]
fn the_demo_reference_verdicts_are_current() {
    let out = Command::new("python3")
        .arg(demo().join("check.py"))
        .arg("--verify")
        .current_dir(workspace())
        .output()
        .expect("python3");
    assert!(
        out.status.success(),
        "check.py --verify failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Symbolic links of a repository: the manifest carries every link's target (checked against
/// its blob id), so a task's base tree resolves paths through links exactly, whichever files the
/// task carries, as the whole checkout does.
#[cfg(unix)]
#[test]
fn symlink_targets_are_in_the_manifest() {
    let checkout = demo_copy("links");
    let repo = checkout.0.join("repositories/ledgerly_refactor");
    std::os::unix::fs::symlink("ledgerly/utils", repo.join("utils_link")).expect("symlink");
    std::os::unix::fs::symlink("../README.md", repo.join("docs/readme_link")).expect("symlink");
    std::os::unix::fs::symlink("nowhere", repo.join("docs/dangling")).expect("symlink");
    let out = Temp::new("links-out");
    let run = import(&checkout.0, &out.0);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let loaded = load(&out.0);
    let manifest = &loaded.manifests["ledgerly_refactor"];
    let links: Vec<(&str, &str)> =
        manifest.links.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    assert_eq!(
        links,
        [
            ("docs/dangling", "nowhere"),
            ("docs/readme_link", "../README.md"),
            ("utils_link", "ledgerly/utils")
        ]
    );
    for (path, _) in &links {
        assert_eq!(manifest.modes[&RepoPath::new(path).unwrap()], "120000");
    }
    // Repositories without links keep manifests without the field.
    for r in loaded.index.repos.iter().filter(|r| r.name != "ledgerly_refactor") {
        assert!(!String::from_utf8_lossy(&loaded.files[&r.manifest]).contains("\"links\""));
    }
    let task = loaded.tasks.iter().find(|t| t.repo == "ledgerly_refactor").expect("task");
    let blobs: BTreeMap<String, Arc<[u8]>> = task
        .files
        .iter()
        .map(|f| (f.blob.clone(), Arc::from(loaded.files[&blob_file(&f.blob)].as_slice())))
        .collect();
    let tree = task.base_tree(manifest, &blobs).expect("bundle tree");
    let source = "import os\nimport unittest\n\n\nclass L(unittest.TestCase):\n    \
                  def test_links(self):\n        \
                  self.assertTrue(os.path.isdir('../utils_link'))\n        \
                  self.assertTrue(os.path.isfile('../utils_link/dates.py'))\n        \
                  self.assertTrue(os.path.isfile('../docs/readme_link'))\n        \
                  self.assertFalse(os.path.exists('../docs/dangling'))\n        \
                  self.assertTrue(os.path.islink('../docs/dangling'))\n";
    let out = Scorer::new(RunConfig::default()).run_test_file(&tree, "links.py", source);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].status.as_str(), "pass", "{out:?}");
}
