//! Shared helper of the interpreter tests: runs a unittest file both with python3 (through a mini
//! copy of the official harness's result rules) and with the scorer, and compares the outcomes.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

/// The official harness's per-method result rules, condensed (our own code).
pub const RUNNER: &str = r#"
import sys, os, json, importlib.util, unittest, re
test_path = sys.argv[1]
_addr = re.compile(r" object at 0x[0-9a-fA-F]+>")
def first_line(v):
    s = str(v)
    return _addr.sub(" object at 0x0>", s.split("\n", 1)[0])[:1000]
test_abs = os.path.abspath(test_path)
def rec(err):
    et, ev, tb = err
    line = None
    while tb is not None:
        if os.path.abspath(tb.tb_frame.f_code.co_filename) == test_abs:
            line = tb.tb_lineno
        tb = tb.tb_next
    return {"exc_type": et.__name__, "message": first_line(ev), "line": line}
RANK = {"pass": 0, "skip": 1, "fail": 2, "error": 3}
out = []
def tid(t):
    m = getattr(t, "_testMethodName", None)
    return t.id() if m is None else type(t).__name__ + "." + m
class R(unittest.TestResult):
    cur = None
    def startTest(self, t):
        super().startTest(t)
        self.cur = {"id": tid(t), "status": None, "exc_type": None, "message": None, "line": None, "subs": []}
    def _set(self, t, st, err=None, reason=None):
        r = self.cur
        standalone = r is None or r["id"] != tid(t)
        if standalone:
            r = {"id": tid(t), "status": None, "exc_type": None, "message": None, "line": None, "subs": []}
        r["status"] = st
        if err is not None:
            r.update(rec(err))
        if reason is not None:
            r["exc_type"] = "SkipTest"; r["message"] = first_line(reason)
        if standalone:
            self.fin(r)
    def addSuccess(self, t): super().addSuccess(t); self._set(t, "pass")
    def addFailure(self, t, e): super().addFailure(t, e); self._set(t, "fail", e)
    def addError(self, t, e): super().addError(t, e); self._set(t, "error", e)
    def addSkip(self, t, r): super().addSkip(t, r); self._set(t, "skip", reason=r)
    def addSubTest(self, t, s, e):
        super().addSubTest(t, s, e)
        if e is None:
            st = {"status": "pass", "exc_type": None, "message": None, "line": None}
        else:
            st = {"status": "fail" if issubclass(e[0], t.failureException) else "error"}
            st.update(rec(e))
        if self.cur is not None:
            self.cur["subs"].append(st)
    def fin(self, r):
        status = r["status"]; w = status
        et, m, l = r["exc_type"], r["message"], r["line"]
        for s in r["subs"]:
            if w is None or RANK[s["status"]] > RANK[w]:
                w = s["status"]
        if w is None:
            w = "error"; et = "HarnessNoOutcome"; m = "no outcome reported"
        if w != status:
            s = next(s for s in r["subs"] if s["status"] == w)
            et, m, l = s["exc_type"], s["message"], s["line"]
        o = {"id": r["id"], "status": w}
        if et is not None: o["exc_type"] = et
        if m is not None: o["message"] = m
        if l is not None: o["line"] = l
        out.append(o)
    def stopTest(self, t):
        if self.cur is not None:
            self.fin(self.cur)
        self.cur = None
        super().stopTest(t)
# Inside main(), as the official runner: a test method then runs as deep as there.
def main():
    try:
        spec = importlib.util.spec_from_file_location("refactorbench_official_test", test_path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    except BaseException:
        o = {"id": "<module>", "status": "error"}
        o.update({k: v for k, v in rec(sys.exc_info()).items() if v is not None})
        print(json.dumps([o]))
        return
    suite = unittest.TestLoader().loadTestsFromModule(mod)
    suite.run(R())
    print(json.dumps(out))
main()
"#;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Runs `test_source` (named `name`) against `files` with python3 and with the scorer; returns both
/// outcome lists as JSON values.
pub fn run_both(
    name: &str,
    files: &[(&str, &[u8])],
    test_source: &str,
) -> (serde_json::Value, serde_json::Value) {
    run_both_with(name, files, test_source, RunConfig::default())
}

/// [`run_both`] with the scorer's limits given (e.g. the CLI's big stack budget).
pub fn run_both_with(
    name: &str,
    files: &[(&str, &[u8])],
    test_source: &str,
    config: RunConfig,
) -> (serde_json::Value, serde_json::Value) {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let root: PathBuf =
        std::env::temp_dir().join(format!("refscore-interp-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let eval = root.join(scorer::tree::EVAL_DIR);
    std::fs::create_dir_all(&eval).expect("mkdir");
    let mut tree = Tree::new();
    for (p, bytes) in files {
        let full = root.join(p);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(&full, bytes).expect("write");
        tree.insert_bytes(p, bytes.to_vec()).expect("tree path");
    }
    std::fs::write(eval.join(name), test_source).expect("write test");
    let runner = root.join("runner.py");
    std::fs::write(&runner, RUNNER).expect("write runner");
    let out = Command::new("python3")
        .arg("-s")
        .arg(&runner)
        .arg(name)
        .current_dir(&eval)
        .env_clear()
        .env("LANG", "C.UTF-8")
        .env("PYTHONHASHSEED", "0")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .output()
        .expect("python3");
    let _ = std::fs::remove_dir_all(&root);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let py: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap_or("null"))
        .unwrap_or_else(|e| {
            panic!("python output {stdout:?} {}: {e}", String::from_utf8_lossy(&out.stderr))
        });
    let mut scorer = Scorer::new(config);
    let mine = scorer.run_test_file(&tree, name, test_source);
    let mut mine = serde_json::to_value(&mine).expect("json");
    // The runner reports verdicts only; per-method reads are held to CPython in `file_access.rs`.
    for m in mine.as_array_mut().into_iter().flatten() {
        if let Some(o) = m.as_object_mut() {
            o.remove("reads");
        }
    }
    (py, mine)
}

/// Asserts that the scorer gives python3's outcomes, method by method.
pub fn check(name: &str, files: &[(&str, &[u8])], test_source: &str) {
    let (py, mine) = run_both(name, files, test_source);
    if py != mine {
        let pa = py.as_array().cloned().unwrap_or_default();
        let ma = mine.as_array().cloned().unwrap_or_default();
        let mut report = String::new();
        for (i, p) in pa.iter().enumerate() {
            let m = ma.get(i).cloned().unwrap_or(serde_json::Value::Null);
            if *p != m {
                report.push_str(&format!("\n python: {p}\n mine:   {m}\n"));
            }
        }
        if pa.len() != ma.len() {
            report.push_str(&format!("\n count python {} mine {}", pa.len(), ma.len()));
        }
        panic!("{name}: outcomes differ:{report}");
    }
}

/// Runs `test_source` with the scorer only (no python3): each method's `(status, message)`.
pub fn run_scorer(name: &str, files: &[(&str, &[u8])], test_source: &str) -> Vec<(String, String)> {
    let mut tree = Tree::new();
    for (p, bytes) in files {
        tree.insert_bytes(p, bytes.to_vec()).expect("tree path");
    }
    let mut scorer = Scorer::new(RunConfig::default());
    let out = serde_json::to_value(scorer.run_test_file(&tree, name, test_source)).expect("json");
    out.as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            let s = |k: &str| m.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
            (s("status"), s("message"))
        })
        .collect()
}

/// Whether python3 runs here (differential tests skip with a message when it does not).
pub fn have_python3() -> bool {
    let ok = Command::new("python3").arg("-c").arg("pass").status().is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: python3 not found");
    }
    ok
}

/// Runs every `(setup, expression)` case as one test method (the expression's repr, with object
/// addresses zeroed, is the method's error message) under python3 and the scorer; returns the
/// number of cases and the disagreements.
pub fn compare_exprs(
    name: &str,
    files: &[(&str, &[u8])],
    prelude: &str,
    cases: &[(String, String)],
) -> (usize, String) {
    let mut src = format!(
        "import os, re, stat, unittest\n{prelude}\ndef _norm(s):\n    return re.sub(' at 0x[0-9a-f]+', ' at 0x0', s)\n\nclass T(unittest.TestCase):\n"
    );
    for (i, (setup, e)) in cases.iter().enumerate() {
        src.push_str(&format!("    def test_{i:04}(self):\n"));
        for l in setup.lines() {
            src.push_str(&format!("        {l}\n"));
        }
        src.push_str(&format!("        v = {e}\n        raise Exception(_norm(repr(v)))\n"));
    }
    let (py, mine) = run_both(name, files, &src);
    // Only the generated methods (a prelude may define test classes of its own).
    let ours = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter(|m| m.get("id").and_then(|i| i.as_str()).is_some_and(|i| i.starts_with("T.")))
            .cloned()
            .collect()
    };
    let (pa, ma) = (ours(&py), ours(&mine));
    assert_eq!(pa.len(), cases.len(), "python3: {py}");
    assert_eq!(ma.len(), cases.len(), "scorer: {mine}");
    let mut bad = String::new();
    for (i, (p, m)) in pa.iter().zip(&ma).enumerate() {
        if p != m {
            let (setup, e) = &cases[i];
            bad.push_str(&format!("\n case {setup:?} / {e}\n python: {p}\n mine:   {m}"));
        }
    }
    (cases.len(), bad)
}
