"""CPython side of `cargo bench -p cli --bench score`: runs many test files in ONE process, the way
the official harness loads them (module by path under a non-__main__ name, TestLoader, cwd =
<repo>/refactorbench_eval), against repository trees the bench wrote to disk.

Input (argv[1], JSON): {"runs": [{"root", "test", "writes": [[rel, src]], "deletes": [rel]}]}.
Each run first overlays its patched files (copied from `src`), runs the tests, then restores the
tree. Output (stdout, JSON): {"seconds": in-process time of all runs, "passed": [per run]}.
"""
import importlib.util
import json
import os
import shutil
import sys
import time
import unittest

RANK = {"pass": 0, "skip": 1, "fail": 2, "error": 3}


class Result(unittest.TestResult):
    """Per-method status: the worst of the method's own outcome and its subtests."""

    def __init__(self):
        super().__init__()
        self.statuses = []
        self.cur = "pass"

    def _worse(self, s):
        if RANK[s] > RANK[self.cur]:
            self.cur = s

    def startTest(self, test):
        super().startTest(test)
        self.cur = "pass"

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._worse("fail")

    def addError(self, test, err):
        super().addError(test, err)
        self._worse("error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._worse("skip")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._worse("fail" if issubclass(err[0], test.failureException) else "error")

    def stopTest(self, test):
        self.statuses.append(self.cur)
        super().stopTest(test)


def run_one(run):
    root = run["root"]
    saved = {}
    for rel, src in run["writes"]:
        dst = os.path.join(root, rel)
        saved[rel] = open(dst, "rb").read() if os.path.exists(dst) else None
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)
    for rel in run["deletes"]:
        dst = os.path.join(root, rel)
        saved[rel] = open(dst, "rb").read()
        os.remove(dst)
    try:
        os.chdir(os.path.join(root, "refactorbench_eval"))
        try:
            spec = importlib.util.spec_from_file_location("refactorbench_official_test", run["test"])
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except Exception:
            return 0
        suite = unittest.TestLoader().loadTestsFromModule(module)
        result = Result()
        suite.run(result)
        return result.statuses.count("pass")
    finally:
        for rel, data in saved.items():
            dst = os.path.join(root, rel)
            if data is None:
                os.remove(dst)
            else:
                with open(dst, "wb") as f:
                    f.write(data)


def main():
    plan = json.load(open(sys.argv[1]))
    t0 = time.perf_counter()
    passed = [run_one(r) for r in plan["runs"]]
    seconds = time.perf_counter() - t0
    json.dump({"seconds": seconds, "passed": passed}, sys.stdout)


if __name__ == "__main__":
    main()
