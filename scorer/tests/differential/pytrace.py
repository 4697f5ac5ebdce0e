#!/usr/bin/env python3
"""CPython reference for the paths a test file touches (stdlib only).

Usage: python3 pytrace.py REPO_DIR TEST_FILE

Runs TEST_FILE the way pyref.py does (a temporary copy of REPO_DIR, the file in
<copy>/refactorbench_eval/, loaded as 'refactorbench_official_test', the
tests of `unittest.TestLoader().loadTestsFromModule`), with `open`,
`os.path.exists/lexists/isfile/isdir/getsize`, `os.listdir` and `os.walk`
wrapped, and prints a JSON object of repository-relative paths (the root is
""), as refscore's `Scorer::run_test_file_traced` reports them:

* read: existing files opened, or sized with getsize (the test file itself
  excepted);
* probed: every path those functions were given;
* listed: every folder listed (os.listdir, each folder os.walk yields);
* methods: for each test method run (`Class.method`), the paths probed from
  its startTest to its stopTest (setUp, the method, tearDown) that are not
  folders at that moment, the root and the eval folder left out, sorted: the
  per-test `reads` of refscore's report.

Paths are normalised lexically from the test's working directory; paths that
lead out of the repository are left out.
"""

import json
import os
import subprocess
import sys
import tempfile

from pyref import lay_out  # same folder: the harness's task layout, written once

TIMEOUT = 120

CHILD_SRC = r'''
import builtins, importlib.util, io, json, os, sys, unittest

def main(test_path, out_path):
    sys.dont_write_bytecode = True
    cwd = os.getcwd()
    root = os.path.dirname(cwd)
    test_abs = os.path.abspath(test_path)
    acc = {"read": set(), "probed": set(), "listed": set()}
    methods = {}
    current = [None]
    real_isdir = os.path.isdir

    def rel(p):
        try:
            p = os.fsdecode(p)
        except Exception:
            return None
        if not isinstance(p, str) or p == "" or "\0" in p:
            return None
        full = os.path.normpath(os.path.join(cwd, p))
        r = os.path.relpath(full, root)
        if r == ".":
            return ""
        if r == ".." or r.startswith("../"):
            return None
        return r

    def probe(p):
        r = rel(p)
        if r is not None:
            acc["probed"].add(r)
            own = r == "refactorbench_eval" or r.startswith("refactorbench_eval/")
            if current[0] is not None and r != "" and not own and not real_isdir(p):
                current[0].add(r)
        return r

    class Result(unittest.TestResult):
        def startTest(self, test):
            super().startTest(test)
            current[0] = set()

        def stopTest(self, test):
            key = ".".join(test.id().split(".")[-2:])
            methods[key] = sorted(current[0] or ())
            current[0] = None
            super().stopTest(test)

    def read(p):
        r = probe(p)
        if r is not None and os.path.isfile(os.path.join(root, r)) \
                and os.path.join(root, r) != test_abs:
            acc["read"].add(r)

    real_open = builtins.open
    def traced_open(file, *a, **k):
        if isinstance(file, (str, bytes, os.PathLike)):
            read(file)
        return real_open(file, *a, **k)

    def wrap_probe(real):
        def wrapped(p, *a, **k):
            probe(p)
            return real(p, *a, **k)
        return wrapped

    real_getsize = os.path.getsize
    def traced_getsize(p):
        read(p)
        return real_getsize(p)

    real_listdir = os.listdir
    def traced_listdir(p="."):
        r = probe(p)
        result = real_listdir(p)
        if r is not None:
            acc["listed"].add(r)
        return result

    real_walk = os.walk
    def traced_walk(top, *a, **k):
        probe(top)
        for dirpath, dirnames, filenames in real_walk(top, *a, **k):
            r = rel(dirpath)
            if r is not None:
                acc["listed"].add(r)
            yield dirpath, dirnames, filenames

    devnull = real_open(os.devnull, "w")
    builtins.open = traced_open
    for name in ("exists", "lexists", "isfile", "isdir"):
        setattr(os.path, name, wrap_probe(getattr(os.path, name)))
    os.path.getsize = traced_getsize
    os.listdir = traced_listdir
    os.walk = traced_walk
    try:
        spec = importlib.util.spec_from_file_location("refactorbench_official_test", test_path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        suite = unittest.TestLoader().loadTestsFromModule(module)
        suite.run(Result())
    except BaseException:
        pass
    builtins.open = real_open
    with real_open(out_path, "w", encoding="utf-8") as f:
        out = {k: sorted(v) for k, v in acc.items()}
        out["methods"] = methods
        json.dump(out, f)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
'''


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    repo, test_file = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    with tempfile.TemporaryDirectory(prefix="refscore-pytrace-") as tmp:
        eval_dir, name = lay_out(repo, test_file, tmp)
        out = os.path.join(tmp, "out.json")
        env = {"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
        subprocess.run([sys.executable, "-s", "-B", "-c", CHILD_SRC, name, out], cwd=eval_dir,
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=TIMEOUT, check=False)
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
