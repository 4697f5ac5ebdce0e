#!/usr/bin/env python3
"""Writes the strings of name characters CPython 3.11 has interned when a test file compiles.

The set-display plan (`scorer/src/interp/setplan.rs`) must know which strings of name characters
the test process had interned before the test file compiled: interning one of a folded
frozenset's strings makes CPython rebuild the frozenset, which changes its iteration order.

How: the official harness's runner (`RUNNER_SRC` of the harness given with --harness) runs, under
this script's audit hook, on an empty test file in a scratch folder, with the harness's
environment (PYTHONHASHSEED=0, PYTHONDONTWRITEBYTECODE=1, `-s`). At the `compile` audit event of
the test file, every string reachable in the process (all objects the garbage collector sees and
everything they reach, code objects' names and constants, and the identifier-like words of the
executable and every loaded shared library, for strings held only by C statics) is a candidate;
a candidate is interned when `sys.intern` of a fresh equal string returns another object. Only
strings of two or more ASCII name characters are written (one-character strings are singletons,
and CPython interns constants only when all their characters are name characters).

    python3.11 scripts/gen-interned-words.py --harness ../shared/tools/official-harness.py \
        --out scorer/src/interp/interned-words.txt
"""

import argparse
import ast
import os
import subprocess
import sys
import tempfile

# Runs in the measured process, prepended to the harness's runner: phase 1 collects candidates
# (importing `gc` and `re`, which interns some names of their own), phase 2 runs in a second
# process that imports nothing and keeps the candidates that are interned there too. Every name
# of this code starts with `_rsiw_` (left out of the result); the attribute names it uses are
# interned by CPython at start-up anyway.
_COLLECT = r'''
import sys
_rsiw_argv = list(sys.argv)
def _rsiw_hook(_rsiw_event, _rsiw_args):
    if _rsiw_event != "compile" or not _rsiw_args or _rsiw_args[1] is None:
        return
    if not str(_rsiw_args[1]).endswith(_rsiw_argv[1]):
        return
    import gc as _rsiw_gc, re as _rsiw_re, os as _rsiw_os
    _rsiw_seen = set()
    _rsiw_keep = []
    _rsiw_found = set()
    _rsiw_todo = list(_rsiw_gc.get_objects())
    _rsiw_todo.append(sys.modules)
    _rsiw_ident = _rsiw_re.compile(r"\A[A-Za-z0-9_]{2,}\Z")
    _rsiw_code = type(_rsiw_hook.__code__)
    while _rsiw_todo:
        _rsiw_o = _rsiw_todo.pop()
        if id(_rsiw_o) in _rsiw_seen:
            continue
        _rsiw_seen.add(id(_rsiw_o))
        # Kept alive: a visited temporary (3.11 builds `co_varnames` anew on each access)
        # must not free its id for a later object.
        _rsiw_keep.append(_rsiw_o)
        if type(_rsiw_o) is str:
            if _rsiw_ident.match(_rsiw_o):
                _rsiw_found.add(_rsiw_o)
            continue
        if isinstance(_rsiw_o, dict):
            # A dict of str keys traverses only its values.
            _rsiw_todo.extend(_rsiw_o.keys())
        elif isinstance(_rsiw_o, type):
            # A class's name and qualified name are not traversed either.
            _rsiw_todo.extend((_rsiw_o.__name__, _rsiw_o.__qualname__))
        if type(_rsiw_o) is _rsiw_code:
            _rsiw_todo.extend((_rsiw_o.co_consts, _rsiw_o.co_names, _rsiw_o.co_varnames,
                               _rsiw_o.co_freevars, _rsiw_o.co_cellvars, _rsiw_o.co_name,
                               _rsiw_o.co_qualname))
        _rsiw_todo.extend(_rsiw_gc.get_referents(_rsiw_o))
    _rsiw_words = _rsiw_re.compile(rb"[A-Za-z0-9_]{2,}")
    _rsiw_libs = set()
    with open("/proc/self/maps") as _rsiw_maps:
        for _rsiw_line in _rsiw_maps:
            _rsiw_parts = _rsiw_line.split()
            if len(_rsiw_parts) >= 6 and _rsiw_parts[5].startswith("/"):
                _rsiw_libs.add(_rsiw_parts[5])
    for _rsiw_lib in sorted(_rsiw_libs):
        try:
            with open(_rsiw_lib, "rb") as _rsiw_f:
                _rsiw_data = _rsiw_f.read()
        except OSError:
            continue
        for _rsiw_w in _rsiw_words.findall(_rsiw_data):
            _rsiw_found.add(_rsiw_w.decode("ascii"))
    _rsiw_out = []
    for _rsiw_s in sorted(_rsiw_found):
        _rsiw_fresh = (_rsiw_s + ".")[:-1]
        if sys.intern(_rsiw_fresh) is not _rsiw_fresh:
            _rsiw_out.append(_rsiw_s)
    with open(_rsiw_argv[2] + ".words", "w") as _rsiw_f:
        _rsiw_f.write("\n".join(_rsiw_out))
    _rsiw_os._exit(0)
sys.addaudithook(_rsiw_hook)
'''

# Phase 2: reads phase 1's words (strings read from a file are not interned) and keeps those
# interned at the same moment in a process that imported nothing more than the runner did.
_CONFIRM = r'''
import sys
_rsiw_argv = list(sys.argv)
def _rsiw_hook(_rsiw_event, _rsiw_args):
    if _rsiw_event != "compile" or not _rsiw_args or _rsiw_args[1] is None:
        return
    if not str(_rsiw_args[1]).endswith(_rsiw_argv[1]):
        return
    with open(_rsiw_argv[2] + ".words") as _rsiw_f:
        _rsiw_found = _rsiw_f.read().split("\n")
    _rsiw_out = []
    for _rsiw_s in _rsiw_found:
        _rsiw_fresh = (_rsiw_s + ".")[:-1]
        if sys.intern(_rsiw_fresh) is not _rsiw_fresh:
            _rsiw_out.append(_rsiw_s)
    with open(_rsiw_argv[2] + ".words", "w") as _rsiw_f:
        _rsiw_f.write("\n".join(_rsiw_out))
    import os as _rsiw_os
    _rsiw_os._exit(0)
sys.addaudithook(_rsiw_hook)
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--harness", required=True, help="official-harness.py (its RUNNER_SRC runs)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--python", default="python3.11")
    ap.add_argument("--runner-var", default="RUNNER_SRC",
                    help="the variable of --harness holding the runner's source")
    args = ap.parse_args()

    with open(args.harness, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    runner = next(
        n.value.value
        for n in tree.body
        if isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == args.runner_var for t in n.targets)
    )
    with tempfile.TemporaryDirectory(prefix="rsiw-") as tmp:
        work = os.path.join(tmp, "refactorbench_eval")
        os.makedirs(work)
        runner_path = os.path.join(tmp, "rb_runner.py")
        with open(os.path.join(work, "test_empty.py"), "w", encoding="utf-8") as f:
            f.write("import unittest\n")
        out_path = os.path.join(tmp, "out.jsonl")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "LANG": "C.UTF-8",
               "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
        for phase in (_COLLECT, _CONFIRM):
            with open(runner_path, "w", encoding="utf-8") as f:
                f.write(phase + runner)
            subprocess.run([args.python, "-s", runner_path, "test_empty.py", out_path, "0", "bfs"],
                           cwd=work, env=env, check=True, stdin=subprocess.DEVNULL)
        with open(out_path + ".words", encoding="ascii") as f:
            words = [w for w in f.read().split("\n") if w and not w.startswith("_rsiw_")]
    version = subprocess.run([args.python, "-c", "import sys; print(sys.version.split()[0])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    with open(args.out, "w", encoding="ascii") as f:
        f.write(f"# interned before the test file compiles: CPython {version}, "
                f"scripts/gen-interned-words.py\n")
        f.write("\n".join(words) + "\n")
    print(f"{len(words)} words ({version}) -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
