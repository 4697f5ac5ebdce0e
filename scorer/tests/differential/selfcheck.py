#!/usr/bin/env python3
"""Checks the differential corpus on its own, with CPython only (stdlib only).

Usage: python3 selfcheck.py [-v] [--official PATH/TO/official-harness.py]

For every cases/<case>/tests/*.py it runs pyref.py twice with PYTHONHASHSEED=0
and once each with two other seeds, and checks that
  * the file loads (no '<module>' record, except files whose name contains
    'module-level-error', which test exactly that) and defines tests;
  * the records are identical across all runs (deterministic and independent
    of the hash seed);
  * every record is well formed;
then prints counts per status, per file and in total, and fails if the
outcomes are not mixed (each of pass, fail, error at least 15% of methods).
With --official, every file also runs under the runner embedded in the
official-harness emulator (its RUNNER_SRC), and its records must equal
pyref.py's: this checks our reference runner against the harness itself.
Exit status 0 iff every check passed.
"""

import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pyref  # noqa: E402

STATUSES = ("pass", "fail", "error", "skip")
SEEDS = ("0", "0", "1", "4242")


def test_files():
    cases = os.path.join(HERE, "cases")
    for case in sorted(os.listdir(cases)):
        tests = os.path.join(cases, case, "tests")
        for name in sorted(os.listdir(tests)):
            if name.endswith(".py"):
                yield case, os.path.join(cases, case, "repo"), os.path.join(tests, name)


def run_official(harness_path, repo_dir, test_file):
    """Runs test_file with the official harness's own runner; returns records like pyref's."""
    namespace = {"__name__": "official_harness"}
    with open(harness_path, encoding="utf-8") as f:
        exec(compile(f.read(), harness_path, "exec"), namespace)
    tmp = tempfile.mkdtemp(prefix="refscore-official-")
    try:
        repo = os.path.join(tmp, "repo")
        shutil.copytree(repo_dir, repo, symlinks=True)
        work = os.path.join(repo, pyref.EVAL_DIR)
        os.makedirs(work)
        name = os.path.basename(test_file)
        shutil.copyfile(test_file, os.path.join(work, name))
        runner = os.path.join(tmp, "rb_runner.py")
        with open(runner, "w", encoding="utf-8") as f:
            f.write(namespace["RUNNER_SRC"])
        out = os.path.join(tmp, "out.jsonl")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "LANG": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
        subprocess.run(["python3", "-s", runner, name, out, "0", "bfs"], cwd=work, env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=pyref.TIMEOUT, check=True)
        records = []
        with open(out, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                if rec.get("kind") == "test":
                    records.append({"id": rec["name"], "status": rec["status"], "exc_type": rec["exc_type"],
                                    "message": rec["message"], "line": rec["line"]})
        return records
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


OFFICIAL = None


def check_file(item):
    case, repo, test = item
    name = os.path.basename(test)
    problems = []
    runs = [pyref.run(repo, test, hash_seed=seed) for seed in SEEDS]
    first = runs[0]
    for seed, other in zip(SEEDS[1:], runs[1:]):
        if other != first:
            problems.append("records differ between PYTHONHASHSEED=0 and PYTHONHASHSEED=%s: %s"
                            % (seed, diff(first, other)))
    if OFFICIAL:
        official = run_official(OFFICIAL, repo, test)
        if official != first:
            problems.append("pyref.py differs from the official harness runner: %s" % diff(first, official))
    if not first:
        problems.append("no test methods")
    module_errors = [r for r in first if r["id"] == "<module>"]
    if module_errors and "module-level-error" not in name:
        problems.append("does not load: %s: %s" % (module_errors[0]["exc_type"], module_errors[0]["message"]))
    ids = [r["id"] for r in first]
    if len(set(ids)) != len(ids):
        problems.append("duplicate ids")
    for r in first:
        if set(r) != {"id", "status", "exc_type", "message", "line"} or r["status"] not in STATUSES:
            problems.append("malformed record %r" % (r,))
        elif r["status"] in ("fail", "error") and r["exc_type"] is None:
            problems.append("%s: %s without exc_type" % (r["id"], r["status"]))
        elif r["status"] in ("fail", "error") and r["line"] is None and r["exc_type"] != "UnexpectedSuccess":
            problems.append("%s: %s without a line in the test file" % (r["id"], r["status"]))
    return case, name, first, problems


def diff(a, b):
    am = {r["id"]: r for r in a}
    bm = {r["id"]: r for r in b}
    out = []
    for k in sorted(set(am) | set(bm)):
        if am.get(k) != bm.get(k):
            out.append("%s: %r vs %r" % (k, am.get(k), bm.get(k)))
    return "; ".join(out[:5])


def main(argv):
    global OFFICIAL
    verbose = "-v" in argv
    if "--official" in argv:
        OFFICIAL = argv[argv.index("--official") + 1]
    items = list(test_files())
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(check_file, items))
    total = collections.Counter()
    per_case = collections.defaultdict(collections.Counter)
    failed = False
    print("%-22s %-44s %5s %5s %5s %5s %5s" % ("case", "file", "pass", "fail", "error", "skip", "all"))
    for case, name, records, problems in results:
        c = collections.Counter(r["status"] for r in records)
        total.update(c)
        per_case[case].update(c)
        print("%-22s %-44s %5d %5d %5d %5d %5d" % (case, name, c["pass"], c["fail"], c["error"], c["skip"],
                                                    len(records)))
        for p in problems:
            failed = True
            print("    PROBLEM: " + p)
        if verbose:
            for r in records:
                print("      %-5s %s %s %r line=%s" % (r["status"], r["id"], r["exc_type"], r["message"], r["line"]))
    n = sum(total.values())
    print()
    for case, c in sorted(per_case.items()):
        print("case %-18s %s" % (case, dict(sorted(c.items()))))
    print("TOTAL: %d files, %d methods: %s" % (len(results), n, ", ".join("%s %d" % (s, total[s]) for s in STATUSES)))
    for s in ("pass", "fail", "error"):
        if total[s] < 0.15 * n:
            failed = True
            print("PROBLEM: outcomes not mixed: only %d %s of %d" % (total[s], s, n))
    print("selfcheck: " + ("FAILED" if failed else "OK"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
