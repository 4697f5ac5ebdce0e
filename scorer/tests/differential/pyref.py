#!/usr/bin/env python3
"""CPython reference runner for refscore's differential corpus (stdlib only).

Usage: python3 pyref.py REPO_DIR TEST_FILE [--show-output] [--in-place]

Copies REPO_DIR to a temporary folder, puts TEST_FILE into
<copy>/refactorbench_eval/, and runs it there in a fresh `python3 -s -B`
process with a clean environment (LANG=C.UTF-8, PYTHONHASHSEED=0), the way
the official RefactorBench harness does: the module is loaded by path under
the name 'refactorbench_official_test' (so its `unittest.main()` block does
not fire), tests come from `unittest.TestLoader().loadTestsFromModule`, and
a TestResult subclass records one verdict per method.  Prints a JSON list of
records {id, status, exc_type, message, line} in run order on stdout.  The
test's own stdout/stderr is captured and dropped (shown with --show-output).
With --in-place, REPO_DIR itself is used (the interpreter tests write a fresh one per case).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

EVAL_DIR = "refactorbench_eval"
TIMEOUT = 120

# Executed in the child process: argv = TEST_FILE_NAME OUT_JSON.  Kept
# semantically identical to the runner of shared/tools/official-harness.py
# (without its tracing and walk-order options).
CHILD_SRC = r'''
import sys, os, json, importlib.util, unittest, re

def main(argv):
    test_path, out_path = argv[1], argv[2]
    sys.dont_write_bytecode = True
    test_file_abs = os.path.abspath(test_path)
    addr = re.compile(r" object at 0x[0-9a-fA-F]+>")
    records = []

    def first_line(value):
        try:
            s = str(value)
        except Exception as e:
            s = "<unprintable %s>" % type(e).__name__
        line = s.split("\n", 1)[0]
        line = addr.sub(" object at 0x0>", line)
        return line[:1000]

    def exc_info_record(err):
        etype, evalue, tb = err
        line = None
        while tb is not None:
            if os.path.abspath(tb.tb_frame.f_code.co_filename) == test_file_abs:
                line = tb.tb_lineno
            tb = tb.tb_next
        return {"exc_type": etype.__name__, "message": first_line(evalue), "line": line}

    def split_id(test):
        method = getattr(test, "_testMethodName", None)
        if method is None:  # _ErrorHolder: class or module fixture failure
            return test.id()
        return type(test).__name__ + "." + method

    RANK = {"pass": 0, "skip": 1, "fail": 2, "error": 3}

    class Result(unittest.TestResult):
        def __init__(self):
            super().__init__()
            self.cur = None

        def _new(self, test):
            return {"id": split_id(test), "outcome": None, "exc_type": None,
                    "message": None, "line": None, "subtests": []}

        def startTest(self, test):
            super().startTest(test)
            self.cur = self._new(test)

        def _set(self, test, outcome, err=None, reason=None):
            rec = self.cur
            standalone = rec is None or rec["id"] != split_id(test)
            if standalone:
                rec = self._new(test)
            rec["outcome"] = outcome
            if err is not None:
                rec.update(exc_info_record(err))
            if reason is not None:
                rec["exc_type"] = "SkipTest"
                rec["message"] = first_line(reason)
            if standalone:
                self._finish(rec)

        def addSuccess(self, test):
            super().addSuccess(test)
            self._set(test, "pass")

        def addFailure(self, test, err):
            super().addFailure(test, err)
            self._set(test, "fail", err=err)

        def addError(self, test, err):
            super().addError(test, err)
            self._set(test, "error", err=err)

        def addSkip(self, test, reason):
            super().addSkip(test, reason)
            self._set(test, "skip", reason=reason)

        def addExpectedFailure(self, test, err):
            super().addExpectedFailure(test, err)
            self._set(test, "pass", err=err)

        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test)
            self._set(test, "fail")
            if self.cur is not None:
                self.cur["exc_type"] = "UnexpectedSuccess"

        def addSubTest(self, test, subtest, err):
            super().addSubTest(test, subtest, err)
            if err is None:
                st = {"status": "pass", "exc_type": None, "message": None, "line": None}
            else:
                st = {"status": "fail" if issubclass(err[0], test.failureException) else "error"}
                st.update(exc_info_record(err))
            if self.cur is not None:
                self.cur["subtests"].append(st)

        def _finish(self, rec):
            status = rec["outcome"]
            exc_type, message, line = rec["exc_type"], rec["message"], rec["line"]
            worst = status
            for st in rec["subtests"]:
                if worst is None or RANK[st["status"]] > RANK[worst]:
                    worst = st["status"]
            if worst is None:
                worst, exc_type, message = "error", "HarnessNoOutcome", "no outcome reported"
            if worst != status:  # the verdict comes from a subtest
                st = next(s for s in rec["subtests"] if s["status"] == worst)
                exc_type, message, line = st["exc_type"], st["message"], st["line"]
            records.append({"id": rec["id"], "status": worst, "exc_type": exc_type,
                            "message": message, "line": line})

        def stopTest(self, test):
            if self.cur is not None:
                self._finish(self.cur)
            self.cur = None
            super().stopTest(test)

    def dump():
        with open(out_path, "w", encoding="utf-8") as out:
            json.dump(records, out, ensure_ascii=False)

    try:
        spec = importlib.util.spec_from_file_location("refactorbench_official_test", test_path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except BaseException:
        rec = {"id": "<module>", "status": "error"}
        rec.update(exc_info_record(sys.exc_info()))
        records.append(rec)
        dump()
        return 0

    suite = unittest.TestLoader().loadTestsFromModule(module)
    suite.run(Result())
    dump()
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''


def lay_out(repo_dir, test_file, tmp, in_place=False):
    """Copies repo_dir to tmp/repo (or, in place, uses repo_dir itself: a folder the caller just
    wrote, whose files' times are then those of a fresh checkout) and the test file into its eval
    folder, as the official harness lays a task out; returns (eval folder, test file name)."""
    if in_place:
        repo = repo_dir
    else:
        repo = os.path.join(tmp, "repo")
        shutil.copytree(repo_dir, repo, symlinks=True)
    work = os.path.join(repo, EVAL_DIR)
    os.makedirs(work, exist_ok=True)
    name = os.path.basename(test_file)
    shutil.copyfile(test_file, os.path.join(work, name))
    return work, name


def run(repo_dir, test_file, python="python3", show_output=False, hash_seed="0", in_place=False):
    """Runs one test file against a copy of repo_dir (or repo_dir itself, `in_place`); returns
    the list of records.

    hash_seed exists for selfcheck.py, which checks that verdicts do not depend on it.
    """
    tmp = tempfile.mkdtemp(prefix="refscore-pyref-")
    try:
        work, name = lay_out(repo_dir, test_file, tmp, in_place)
        runner = os.path.join(tmp, "pyref_child.py")
        with open(runner, "w", encoding="utf-8") as f:
            f.write(CHILD_SRC)
        out_path = os.path.join(tmp, "out.json")
        env = {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
               "HOME": tmp, "LANG": "C.UTF-8", "PYTHONHASHSEED": hash_seed,
               "PYTHONDONTWRITEBYTECODE": "1"}
        proc = subprocess.run([python, "-s", "-B", runner, name, out_path], cwd=work, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
        if show_output:
            sys.stderr.write(proc.stdout.decode("utf-8", "replace"))
            sys.stderr.write(proc.stderr.decode("utf-8", "replace"))
        if proc.returncode != 0 or not os.path.exists(out_path):
            raise RuntimeError("runner crashed (rc=%s): %s" % (
                proc.returncode, proc.stderr.decode("utf-8", "replace")[-2000:]))
        with open(out_path, encoding="utf-8") as f:
            return json.load(f)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    records = run(args[0], args[1], show_output="--show-output" in argv,
                  in_place="--in-place" in argv)
    sys.stdout.write(json.dumps(records, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
