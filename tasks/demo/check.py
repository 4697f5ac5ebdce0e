#!/usr/bin/env python3
"""Compute (or verify) the expected verdicts of the refscore demo benchmark.

This is the CPython reference for the demo bundle, written to match the
official RefactorBench harness semantics (see README.md, "How the expected
verdicts were computed"):

* each repository under ``repositories/`` is copied into a temporary git
  repository (``git add -A -f``, one commit, ``* -text -filter -ident`` in
  ``.git/info/attributes`` so no byte is rewritten);
* for every task and every candidate patch (the empty patch, every
  ``submissions/<task>.<label>.patch`` and every entry of the three
  predictions files) the tree is reset, the patch is applied with plain
  ``git apply`` and, when it applied (or was empty/null), the task's test file
  is copied to ``<repo>/refactorbench_eval/`` and run from there in a fresh
  ``python -s`` process: loaded by path under a non-``__main__`` name, run
  with ``unittest.TestLoader().loadTestsFromModule``; each method gets
  ``pass`` / ``fail`` (AssertionError, also in setUp) / ``error`` (any other
  exception) / ``skip``, and a method's status is the worst of its own outcome
  and its subtests (error > fail > skip > pass);
* a task is resolved iff the patch applied (or was empty) and every method
  passed.

Usage::

    python3 check.py            # recompute and write expected-verdicts.json
    python3 check.py --verify   # recompute and compare with the committed file

Standard library only; needs ``git`` and CPython 3.11 (the verdict messages are
those of 3.11). Exit status 1 when a requirement of the demo fails or, with
``--verify``, when the recomputed verdicts differ from the committed file.
"""

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_NAME = "expected-verdicts.json"
SCHEMA = "refscore-demo-expected-verdicts/1"
EVAL_DIR = "refactorbench_eval"
MAPPING_KINDS = ("base", "lazy", "descriptive")
PREDICTION_FILES = ("predictions.jsonl", "predictions.json", "predictions-by-id.json")
TIMEOUT = 120

GIT_ENV = {
    "GIT_AUTHOR_NAME": "refactorbench",
    "GIT_AUTHOR_EMAIL": "refactorbench@localhost",
    "GIT_COMMITTER_NAME": "refactorbench",
    "GIT_COMMITTER_EMAIL": "refactorbench@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+0000",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+0000",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
    "LC_ALL": "C",
}

# The test runner, executed in a fresh interpreter with cwd = <repo>/refactorbench_eval.
# argv: TEST_FILE OUT_JSON. It never writes to stdout (that belongs to the tests).
RUNNER_SRC = r'''
import importlib.util, json, os, re, sys, unittest

def main(test_path, out_path):
    sys.dont_write_bytecode = True
    test_abs = os.path.abspath(test_path)
    addr = re.compile(r" object at 0x[0-9a-fA-F]+>")

    def first_line(value):
        try:
            s = str(value)
        except Exception as e:
            s = "<unprintable %s>" % type(e).__name__
        return addr.sub(" object at 0x0>", s.split("\n", 1)[0])[:1000]

    def exc_record(err):
        etype, evalue, tb = err
        line = None
        while tb is not None:
            if os.path.abspath(tb.tb_frame.f_code.co_filename) == test_abs:
                line = tb.tb_lineno
            tb = tb.tb_next
        return {"exc_type": etype.__name__, "message": first_line(evalue), "line": line}

    def test_id(test):
        method = getattr(test, "_testMethodName", None)
        if method is None:
            return test.id()
        return type(test).__name__ + "." + method

    RANK = {"pass": 0, "skip": 1, "fail": 2, "error": 3}
    records = []

    class Result(unittest.TestResult):
        cur = None

        def startTest(self, test):
            super().startTest(test)
            self.cur = {"id": test_id(test), "outcome": None, "exc_type": None,
                        "message": None, "line": None, "subtests": []}

        def _set(self, test, outcome, err=None, reason=None):
            rec = self.cur
            standalone = rec is None or rec["id"] != test_id(test)
            if standalone:
                rec = {"id": test_id(test), "outcome": None, "exc_type": None,
                       "message": None, "line": None, "subtests": []}
            rec["outcome"] = outcome
            if err is not None:
                rec.update(exc_record(err))
            if reason is not None:
                rec["exc_type"], rec["message"] = "SkipTest", first_line(reason)
            if standalone:
                self._finish(rec)

        def addSuccess(self, test):
            super().addSuccess(test); self._set(test, "pass")
        def addFailure(self, test, err):
            super().addFailure(test, err); self._set(test, "fail", err)
        def addError(self, test, err):
            super().addError(test, err); self._set(test, "error", err)
        def addSkip(self, test, reason):
            super().addSkip(test, reason); self._set(test, "skip", reason=reason)
        def addExpectedFailure(self, test, err):
            super().addExpectedFailure(test, err); self._set(test, "pass", err)
        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test); self._set(test, "fail")
            self.cur["exc_type"] = "UnexpectedSuccess"

        def addSubTest(self, test, subtest, err):
            super().addSubTest(test, subtest, err)
            params = {str(k): (v if isinstance(v, (str, int, float, bool, type(None))) else repr(v))
                      for k, v in subtest.params.items()}
            st = {"params": params, "status": "pass", "exc_type": None, "message": None, "line": None}
            if err is not None:
                st["status"] = "fail" if issubclass(err[0], test.failureException) else "error"
                st.update(exc_record(err))
            if self.cur is not None:
                self.cur["subtests"].append(st)

        def _finish(self, rec):
            status = rec.pop("outcome")
            worst = status
            for st in rec["subtests"]:
                if worst is None or RANK[st["status"]] > RANK[worst]:
                    worst = st["status"]
            if worst is None:
                worst, rec["exc_type"], rec["message"] = "error", "HarnessNoOutcome", "no outcome reported"
            if worst != status:
                st = next(s for s in rec["subtests"] if s["status"] == worst)
                rec["exc_type"], rec["message"], rec["line"] = st["exc_type"], st["message"], st["line"]
            rec["method_outcome"] = status
            rec["status"] = worst
            if not rec["subtests"]:
                del rec["subtests"]
            records.append(rec)

        def stopTest(self, test):
            if self.cur is not None:
                self._finish(self.cur)
            self.cur = None
            super().stopTest(test)

    out = {"python": sys.version.split()[0]}
    try:
        spec = importlib.util.spec_from_file_location("refactorbench_official_test", test_path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except BaseException:
        rec = {"id": "<module>", "status": "error", "method_outcome": "error"}
        rec.update(exc_record(sys.exc_info()))
        out.update({"ids": ["<module>"], "tests": [rec], "done": True})
    else:
        suite = unittest.TestLoader().loadTestsFromModule(module)
        ids = []
        def collect(s):
            for t in s:
                if isinstance(t, unittest.TestSuite):
                    collect(t)
                else:
                    ids.append(test_id(t))
        collect(suite)
        result = Result()
        suite.run(result)
        out.update({"ids": ids, "tests": records, "done": True})
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
'''


class CheckError(Exception):
    pass


# ----------------------------------------------------------------------------- tasks
def load_mapping(kind):
    path = os.path.join(HERE, "scripts", "%s_mapping.py" % kind)
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "file_mapping" for t in node.targets):
            return ast.literal_eval(node.value)
    raise CheckError("no file_mapping in %s" % path)


def rel_to_root(p):
    # mapping paths are relative to scripts/, e.g. '../tests/<repo>/<file>.py'
    p = os.path.normpath(os.path.join("scripts", p)).replace(os.sep, "/")
    if p.startswith("../"):
        raise CheckError("mapping path escapes the benchmark folder: %s" % p)
    return p


def discover_tasks():
    maps = {k: load_mapping(k) for k in MAPPING_KINDS}
    tasks = {}
    for test_key, task_file in maps["base"].items():
        test_rel = rel_to_root(test_key)
        name = os.path.basename(rel_to_root(task_file))
        if not name.endswith("-task.txt"):
            raise CheckError("unexpected task file name %s" % name)
        task_id = name[: -len("-task.txt")]
        instructions = {}
        for kind in MAPPING_KINDS:
            if test_key not in maps[kind]:
                raise CheckError("%s_mapping.py has no entry for %s" % (kind, test_key))
            instr = rel_to_root(maps[kind][test_key])
            if not os.path.isfile(os.path.join(HERE, instr)):
                raise CheckError("missing instruction file %s" % instr)
            instructions[kind] = instr
        if not os.path.isfile(os.path.join(HERE, test_rel)):
            raise CheckError("missing test file %s" % test_rel)
        if task_id in tasks:
            raise CheckError("duplicate task id %s" % task_id)
        tasks[task_id] = {"id": task_id, "repo": test_rel.split("/")[1], "test_file": test_rel,
                          "instructions": instructions}
    return [tasks[k] for k in sorted(tasks)]


# ----------------------------------------------------------------------------- candidates
def sha256(data):
    return hashlib.sha256(data).hexdigest()


def submission_patches(task_ids):
    """(task, label, relative path, bytes) for submissions/<task>.<label>.patch."""
    sub = os.path.join(HERE, "submissions")
    found = []
    ids = sorted(task_ids, key=len, reverse=True)
    for name in sorted(os.listdir(sub)):
        if not name.endswith(".patch"):
            continue
        stem = name[: -len(".patch")]
        task = next((t for t in ids if stem.startswith(t + ".")), None)
        if task is None:
            raise CheckError("submissions/%s does not name a task" % name)
        with open(os.path.join(sub, name), "rb") as f:
            found.append((task, stem[len(task) + 1:], "submissions/" + name, f.read()))
    return found


def prediction_entries():
    """(instance_id, source label, model, patch bytes or None) from the three files."""
    sub = os.path.join(HERE, "submissions")
    entries = []
    for name in PREDICTION_FILES:
        path = os.path.join(sub, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if name.endswith(".jsonl"):
            items = [(i + 1, json.loads(line)) for i, line in enumerate(text.splitlines()) if line.strip()]
            where = "line"
        else:
            data = json.loads(text)
            if isinstance(data, list):
                items = list(enumerate(data))
                where = "index"
            elif isinstance(data, dict):
                items = list(data.items())
                where = "key"
            else:
                raise CheckError("%s: neither a list nor a dict" % name)
        for pos, item in items:
            if where == "key" and item.get("instance_id") != pos:
                raise CheckError("%s: key %s differs from its instance_id" % (name, pos))
            for key in ("instance_id", "model_name_or_path", "model_patch"):
                if key not in item:
                    raise CheckError("%s %s %s: missing %s" % (name, where, pos, key))
            patch = item["model_patch"]
            label = "submissions/%s#%s=%s" % (name, where, pos)
            entries.append((item["instance_id"], label, item["model_name_or_path"],
                            None if patch is None else patch.encode("utf-8")))
    return entries


# ----------------------------------------------------------------------------- git + run
def git(repo, *args, check=True, input_bytes=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_ENV)
    p = subprocess.run(["git", "-C", repo] + list(args), env=env, input=input_bytes,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise CheckError("git %s failed: %s" % (" ".join(args), p.stderr.decode("utf-8", "replace")))
    return p


class Repo:
    def __init__(self, tmp, name):
        self.dir = os.path.join(tmp, name)
        shutil.copytree(os.path.join(HERE, "repositories", name), self.dir, symlinks=True)
        git(self.dir, "init", "-q")
        for k, v in (("core.autocrlf", "false"), ("core.safecrlf", "false"),
                     ("core.filemode", "true"), ("gc.auto", "0"), ("core.quotepath", "false")):
            git(self.dir, "config", k, v)
        with open(os.path.join(self.dir, ".git", "info", "attributes"), "w") as f:
            f.write("* -text -filter -ident\n")
        git(self.dir, "add", "-A", "-f")
        git(self.dir, "commit", "-q", "--no-verify", "-m", "pristine " + name)
        self.tree = git(self.dir, "rev-parse", "HEAD^{tree}").stdout.decode().strip()

    def reset(self):
        git(self.dir, "reset", "-q", "--hard", "HEAD")
        git(self.dir, "clean", "-ffdxq")

    def apply(self, patch, patch_path):
        """'none' (empty / null), 'applied' or 'failed'."""
        if patch is None or not patch.strip():
            return "none"
        with open(patch_path, "wb") as f:
            f.write(patch)
        p = git(self.dir, "apply", patch_path, check=False)
        return "applied" if p.returncode == 0 else "failed"


def run_tests(repo_dir, test_src, runner_path, out_path):
    work = os.path.join(repo_dir, EVAL_DIR)
    os.makedirs(work, exist_ok=True)
    shutil.copyfile(test_src, os.path.join(work, os.path.basename(test_src)))
    if os.path.exists(out_path):
        os.unlink(out_path)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.path.dirname(runner_path),
           "LANG": "C.UTF-8", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        p = subprocess.run([sys.executable, "-s", runner_path, os.path.basename(test_src), out_path],
                           cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CheckError("test run timed out: %s" % test_src)
    if p.returncode != 0 or not os.path.exists(out_path):
        raise CheckError("runner crashed on %s: %s" % (test_src, p.stderr.decode("utf-8", "replace")[-2000:]))
    with open(out_path, encoding="utf-8") as f:
        out = json.load(f)
    tests = {t["id"]: t for t in out["tests"]}
    missing = [i for i in out["ids"] if i not in tests]
    if missing:
        raise CheckError("tests did not report: %s" % missing)
    ordered = [tests[i] for i in out["ids"]]
    return out["python"], ordered


# ----------------------------------------------------------------------------- main
def compute():
    tasks = discover_tasks()
    by_id = {t["id"]: t for t in tasks}
    patches = submission_patches(by_id)
    predictions = prediction_entries()
    for instance_id, label, _, _ in predictions:
        if instance_id not in by_id:
            raise CheckError("%s: unknown instance_id %s" % (label, instance_id))

    tmp = tempfile.mkdtemp(prefix="refscore-demo-check-")
    try:
        runner_path = os.path.join(tmp, "runner.py")
        with open(runner_path, "w", encoding="utf-8") as f:
            f.write(RUNNER_SRC)
        repos = {}
        for name in sorted({t["repo"] for t in tasks}):
            repos[name] = Repo(tmp, name)
        cache = {}
        pythons = set()
        results = []

        def evaluate(task, submission, kind, patch, model=None, label=None):
            key = (task["id"], None if patch is None else sha256(patch))
            if key not in cache:
                repo = repos[task["repo"]]
                repo.reset()
                status = repo.apply(patch, os.path.join(tmp, "candidate.patch"))
                tests = []
                if status != "failed":
                    py, tests = run_tests(repo.dir, os.path.join(HERE, task["test_file"]),
                                          runner_path, os.path.join(tmp, "out.json"))
                    pythons.add(py)
                repo.reset()
                resolved = status != "failed" and bool(tests) and all(t["status"] == "pass" for t in tests)
                counts = {}
                for t in tests:
                    counts[t["status"]] = counts.get(t["status"], 0) + 1
                cache[key] = {"patch_status": status, "resolved": resolved,
                              "counts": dict(sorted(counts.items())), "tests": tests}
            r = {"task": task["id"], "submission": submission, "kind": kind}
            if label is not None:
                r["label"] = label
            if model is not None:
                r["model_name_or_path"] = model
            r["patch_is_null"] = patch is None
            r["patch_sha256"] = None if patch is None else sha256(patch)
            r.update(json.loads(json.dumps(cache[key])))
            results.append(r)
            return r

        for task in tasks:
            evaluate(task, "empty", "empty", b"")
            for tid, label, rel, data in patches:
                if tid == task["id"]:
                    evaluate(task, rel, "patch", data, label=label)
            for instance_id, label, model, data in predictions:
                if instance_id == task["id"]:
                    evaluate(task, label, "prediction", data, model=model)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    task_rows = []
    for task in tasks:
        empty = next(r for r in results if r["task"] == task["id"] and r["kind"] == "empty")
        row = dict(task)
        row["methods"] = [t["id"] for t in empty["tests"]]
        row["repo_tree"] = repos[task["repo"]].tree
        with open(os.path.join(HERE, task["test_file"]), "rb") as f:
            row["test_sha256"] = sha256(f.read())
        task_rows.append(row)

    summary = {}
    for kind in ("empty", "patch", "prediction"):
        rs = [r for r in results if r["kind"] == kind]
        methods = {}
        for r in rs:
            for t in r["tests"]:
                methods[t["status"]] = methods.get(t["status"], 0) + 1
        summary[kind] = {
            "evaluations": len(rs),
            "resolved": sum(r["resolved"] for r in rs),
            "patch_status": {s: sum(r["patch_status"] == s for r in rs) for s in ("none", "applied", "failed")},
            "methods": dict(sorted(methods.items())),
        }
    return {
        "schema": SCHEMA,
        "generated_by": "tasks/demo/check.py",
        "python": sorted(pythons),
        "semantics": "official RefactorBench harness: git apply at the repo root; test file run from "
                     "<repo>/refactorbench_eval/ loaded under a non-__main__ name; statuses "
                     "pass/fail/error/skip, worst of method and subtests; resolved iff applied or "
                     "empty and every method passed",
        "tasks": task_rows,
        "summary": summary,
        "results": results,
    }


def requirements(doc):
    """The properties the demo must have; returns a list of failures."""
    problems = []
    res = doc["results"]
    for r in res:
        if r["kind"] == "empty" and r["resolved"]:
            problems.append("%s is resolved by the empty patch" % r["task"])
    solve_tasks = set()
    for r in res:
        if r["kind"] != "patch":
            continue
        label, name = r["label"], r["submission"]
        statuses = [t["status"] for t in r["tests"]]
        if label in ("solve", "rename", "bfs-order", "named-escape", "gbk-source"):
            solve_tasks.add(r["task"])
            if not r["resolved"]:
                problems.append("%s does not resolve its task" % name)
        elif label == "partial":
            if r["patch_status"] != "applied" or r["resolved"] or "pass" not in statuses or \
                    all(s == "pass" for s in statuses):
                problems.append("%s is not partial" % name)
        elif label == "syntax-error":
            if r["patch_status"] != "applied" or "error" not in statuses:
                problems.append("%s gives no error verdict" % name)
        elif label == "does-not-apply":
            if r["patch_status"] != "failed":
                problems.append("%s applies" % name)
        else:
            problems.append("%s: unknown label %r" % (name, label))
    for t in doc["tasks"]:
        if t["id"] not in solve_tasks:
            problems.append("task %s has no solve patch" % t["id"])
        if not 4 <= len(t["methods"]) <= 10:
            problems.append("task %s has %d methods (want 4-10)" % (t["id"], len(t["methods"])))
    labels = [r["label"] for r in res if r["kind"] == "patch"]
    for label, least in (("partial", 2), ("syntax-error", 1), ("does-not-apply", 1)):
        if labels.count(label) < least:
            problems.append("fewer than %d %s patches" % (least, label))
    # a prediction carrying the bytes of a submission patch must get the same verdict
    by_patch = {(r["task"], r["patch_sha256"]): r for r in res if r["kind"] == "patch"}
    for r in res:
        if r["kind"] != "prediction":
            continue
        twin = by_patch.get((r["task"], r["patch_sha256"]))
        if twin is not None and (twin["tests"], twin["resolved"]) != (r["tests"], r["resolved"]):
            problems.append("%s differs from %s" % (r["submission"], twin["submission"]))
        if r["patch_sha256"] is not None and twin is None and r["patch_status"] != "none":
            problems.append("%s is not one of the submission patches" % r["submission"])
    kinds = {r["patch_is_null"] for r in res if r["kind"] == "prediction"}
    if True not in kinds:
        problems.append("no prediction with a null model_patch")
    if not any(r["kind"] == "prediction" and not r["patch_is_null"] and r["patch_status"] == "none"
               for r in res):
        problems.append("no prediction with an empty model_patch")
    return problems


def trajectory_problems():
    """Each trajectories/<instance_id>.traj must agree with predictions-by-id.json."""
    problems = []
    sub = os.path.join(HERE, "submissions")
    with open(os.path.join(sub, "predictions-by-id.json"), encoding="utf-8") as f:
        preds = json.load(f)
    tdir = os.path.join(sub, "trajectories")
    names = sorted(n for n in os.listdir(tdir) if n.endswith(".traj"))
    if len(names) < 3:
        problems.append("fewer than 3 trajectories")
    statuses = set()
    for name in names:
        with open(os.path.join(tdir, name), encoding="utf-8") as f:
            traj = json.load(f)
        iid = name[: -len(".traj")]
        info = traj.get("info", {})
        statuses.add(info.get("exit_status"))
        if iid not in preds:
            problems.append("%s has no entry in predictions-by-id.json" % name)
        elif preds[iid]["model_patch"] != info.get("submission"):
            problems.append("%s: info.submission differs from predictions-by-id.json" % name)
        for key in ("trajectory", "history", "info"):
            if key not in traj:
                problems.append("%s: missing %s" % (name, key))
    if "exit_cost" not in statuses or "submitted" not in statuses:
        problems.append("trajectories should include a submitted and an exit_cost run")
    return problems


def dumps(doc):
    return json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verify", action="store_true",
                    help="compare with the committed %s instead of writing it" % OUT_NAME)
    args = ap.parse_args(argv)
    if sys.version_info[:2] != (3, 11):
        print("warning: the expected verdicts are defined for CPython 3.11, this is %s"
              % sys.version.split()[0], file=sys.stderr)
    try:
        doc = compute()
    except CheckError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    problems = requirements(doc) + trajectory_problems()
    for p in problems:
        print("requirement failed: %s" % p, file=sys.stderr)
    s = doc["summary"]
    for kind, v in s.items():
        print("%-10s evaluations=%d resolved=%d patch_status=%s methods=%s" % (
            kind, v["evaluations"], v["resolved"], v["patch_status"], v["methods"]))
    out_path = os.path.join(HERE, OUT_NAME)
    text = dumps(doc)
    if args.verify:
        try:
            with open(out_path, encoding="utf-8") as f:
                committed = f.read()
        except FileNotFoundError:
            committed = None
        if committed != text:
            print("%s differs from the recomputed verdicts" % OUT_NAME, file=sys.stderr)
            if committed is not None:
                old = json.loads(committed)
                for part in ("schema", "python", "semantics", "tasks", "summary"):
                    if old.get(part) != doc.get(part):
                        print("  changed: %s" % part, file=sys.stderr)
                old_r = {(r["task"], r["submission"]): r for r in old.get("results", [])}
                for r in doc["results"]:
                    o = old_r.get((r["task"], r["submission"]))
                    if o != r:
                        print("  changed: %s / %s" % (r["task"], r["submission"]), file=sys.stderr)
            return 1
        print("%s is up to date" % OUT_NAME)
    else:
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s" % out_path)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
