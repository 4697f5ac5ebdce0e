#!/usr/bin/env python3
"""Local fidelity check on the real benchmark with hard patches (not run in CI: it needs a checkout).

For every task of an imported bundle it writes adversarial patches against the official repositories
with real git (so every patch is exactly what an agent's `git diff` would give), then scores each one
with the official harness (CPython 3.11 + `git apply`, ../shared/tools/official-harness.py) and with
`refscore score --task ID --patch FILE --json`, and compares patch status, per-method status, exception
type, message and line.

    scripts/official-check.py gen  --rb CHECKOUT --bundle BUNDLE --out PATCHDIR [--kinds a,b]
    official-harness.py eval-all --rb CHECKOUT --repos CHECKOUT/repositories \
        --patches-dir PATCHDIR --out official.json
    scripts/official-check.py compare --bundle BUNDLE --patches PATCHDIR --official official.json \
        --refscore target/release-native/refscore

Patch kinds (TASK.KIND.diff), each aimed at one class of issue 18:
  touch     append a comment naming the task to every .py file the test inspects (cache-defeating)
  trunc     the touch patch with its last line cut off (git: "corrupt patch at line N")
  nohunk    a git header with no hunks
  overrun   a hunk whose counts overrun the file
  noeol     the first inspected file loses its final newline
  latin1    a latin-1 byte (0xE4) in a comment of the first inspected file: the patch is not UTF-8
  crlf      the first inspected file rewritten with CRLF line endings
  mode      the first inspected file made executable, and touched
  symlink   the first inspected file replaced by a symlink to the second (or to itself's folder)
  dangling  the first inspected file replaced by a dangling symlink
  binary    touch + a new binary file + (where the repository has one) an edited existing binary file
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

KINDS = ["touch", "trunc", "nohunk", "overrun", "noeol", "latin1", "crlf", "mode", "symlink",
         "dangling", "binary"]
GIT_ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C",
               GIT_AUTHOR_NAME="x", GIT_AUTHOR_EMAIL="x@x", GIT_COMMITTER_NAME="x",
               GIT_COMMITTER_EMAIL="x@x")


def git(cwd, *args, stdin=None):
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, input=stdin, check=True,
                          capture_output=True).stdout


def load_tasks(bundle):
    with open(os.path.join(bundle, "index.json")) as f:
        index = json.load(f)
    tasks = []
    for row in index["tasks"]:
        with open(os.path.join(bundle, row["data"])) as f:
            data = json.load(f)
        tasks.append(data)
    return tasks


def first_binary(repo_dir):
    """A small tracked binary file of the repository (a PNG or GIF), or None."""
    best = None
    for root, dirs, files in os.walk(repo_dir):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith((".png", ".gif", ".ico")):
                path = os.path.join(root, name)
                if os.path.islink(path):
                    continue
                size = os.path.getsize(path)
                if 200 < size < 20000 and (best is None or size < best[1]):
                    best = (path, size)
        if best:
            break
    return None if best is None else os.path.relpath(best[0], repo_dir)


def diff_of(repo_dir, files, mutate):
    """Copies `files` of the repository into a scratch git repo, commits, applies `mutate(root)` and
    returns `git diff --binary` (bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        for rel in files:
            src = os.path.join(repo_dir, rel)
            dst = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.islink(src):
                os.symlink(os.readlink(src), dst)
            elif os.path.exists(src):
                shutil.copy2(src, dst)
        git(tmp, "init", "-q")
        (open(os.path.join(tmp, ".git/info/attributes"), "w")).write("* -text -filter -ident\n")
        git(tmp, "add", "-A", "-f")
        git(tmp, "commit", "-q", "--allow-empty", "-m", "base")
        mutate(tmp)
        git(tmp, "add", "-A", "-f")
        return git(tmp, "diff", "--cached", "--binary")


def gen(args):
    tasks = load_tasks(args.bundle)
    kinds = args.kinds.split(",") if args.kinds else KINDS
    os.makedirs(args.out, exist_ok=True)
    repos = os.path.join(args.rb, "repositories")
    written = 0
    for t in tasks:
        repo_dir = os.path.join(repos, t["repo"])
        py = [i["path"] for i in t["inspected"]
              if i["exists"] and i["path"].endswith(".py")
              and os.path.isfile(os.path.join(repo_dir, i["path"]))
              and not os.path.islink(os.path.join(repo_dir, i["path"]))]
        if not py:
            continue
        first = py[0]
        second = py[1] if len(py) > 1 else None
        tid = t["id"]

        def append(root, rel, text):
            with open(os.path.join(root, rel), "ab") as f:
                f.write(text)

        def touch_all(root):
            for rel in py:
                append(root, rel, f"# touched by {tid}\n".encode())

        out = {}
        for kind in kinds:
            if kind == "touch":
                out[kind] = diff_of(repo_dir, py, touch_all)
            elif kind == "trunc":
                d = diff_of(repo_dir, py, touch_all)
                lines = d.splitlines(keepends=True)
                # Drop the last added line of the last hunk: the hunk's count now overruns.
                out[kind] = b"".join(lines[:-1])
            elif kind == "nohunk":
                out[kind] = (f"diff --git a/{first} b/{first}\n--- a/{first}\n+++ b/{first}\n").encode()
            elif kind == "overrun":
                with open(os.path.join(repo_dir, first), "rb") as f:
                    n = f.read().count(b"\n")
                out[kind] = (f"--- a/{first}\n+++ b/{first}\n@@ -{n + 5},2 +{n + 5},3 @@\n"
                             " x\n+y\n x\n").encode()
            elif kind == "noeol":
                def noeol(root):
                    p = os.path.join(root, first)
                    data = open(p, "rb").read()
                    open(p, "wb").write(data.rstrip(b"\n") + f"\n# touched by {tid}".encode())
                out[kind] = diff_of(repo_dir, py, noeol)
            elif kind == "latin1":
                out[kind] = diff_of(repo_dir, py, lambda r: append(r, first, b"# caf\xe4\n"))
            elif kind == "crlf":
                def crlf(root):
                    p = os.path.join(root, first)
                    data = open(p, "rb").read()
                    open(p, "wb").write(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
                out[kind] = diff_of(repo_dir, py, crlf)
            elif kind == "mode":
                def mode(root):
                    touch_all(root)
                    os.chmod(os.path.join(root, first), 0o755)
                out[kind] = diff_of(repo_dir, py, mode)
            elif kind in ("symlink", "dangling"):
                def link(root):
                    p = os.path.join(root, first)
                    os.remove(p)
                    if kind == "dangling":
                        target = "does-not-exist.py"
                    elif second:
                        target = os.path.relpath(second, os.path.dirname(first) or ".")
                    else:
                        target = "."
                    os.symlink(target, p)
                out[kind] = diff_of(repo_dir, py, link)
            elif kind == "binary":
                binfile = first_binary(repo_dir)

                def binary(root):
                    touch_all(root)
                    with open(os.path.join(root, "refscore-check.bin"), "wb") as f:
                        f.write(bytes((i * 37 + 11) % 256 for i in range(3000)))
                    if binfile:
                        p = os.path.join(root, binfile)
                        data = bytearray(open(p, "rb").read())
                        data[len(data) // 2] ^= 0xFF
                        open(p, "wb").write(bytes(data) + b"\x00refscore")
                out[kind] = diff_of(repo_dir, py + ([binfile] if binfile else []), binary)
        for kind, patch in out.items():
            with open(os.path.join(args.out, f"{tid}.{kind}.diff"), "wb") as f:
                f.write(patch)
            written += 1
    print(f"wrote {written} patches for {len(tasks)} tasks to {args.out}")


def norm_status(s):
    return {"patch_failed": "failed", "failed": "failed", "applied": "applied", "none": "none",
            "empty": "none"}.get(s, s)


def compare(args):
    with open(args.official) as f:
        official = json.load(f)
    want = {}
    for r in official["results"]:
        want[os.path.basename(r["patch"]) if r["patch"] else r["task"]] = r
    names = sorted(n for n in os.listdir(args.patches) if n.endswith(".diff"))
    agree_patch = agree_methods = methods = 0
    by_kind = {}
    diffs = []
    for name in names:
        task, kind = name[:-5].rsplit(".", 1)
        w = want.get(name)
        if w is None:
            diffs.append(f"{name}: not in the official results")
            continue
        proc = subprocess.run([args.refscore, "score", "--tasks", args.bundle, "--task", task,
                               "--patch", os.path.join(args.patches, name), "--json"],
                              capture_output=True)
        k = by_kind.setdefault(kind, [0, 0, 0, 0])
        k[0] += 1
        try:
            report = json.loads(proc.stdout)
            got = report["results"][0]
        except (ValueError, KeyError, IndexError):
            diffs.append(f"{name}: refscore gave no result (exit {proc.returncode}): "
                         f"{proc.stderr.decode(errors='replace').strip()[:300]}")
            continue
        ws, gs = norm_status(w["patch_status"]), norm_status(got.get("patch_status"))
        if ws == gs:
            agree_patch += 1
            k[1] += 1
        else:
            diffs.append(f"{name}: patch status official={w['patch_status']} "
                         f"({(w.get('patch_info') or {}).get('git_apply_error', '')!s:.200}) "
                         f"refscore={got.get('patch_status')} ({got.get('patch_error')})")
        gt = {t["id"]: t for t in got.get("tests", [])}
        for wt in w["tests"]:
            methods += 1
            k[2] += 1
            g = gt.get(wt["name"])
            if ws == "failed":
                # No tests run officially: the task's methods all count as not passed.
                ok = g is None or g.get("status") != "pass"
            else:
                ok = (g is not None and g.get("status") == wt["status"]
                      and (wt["status"] == "pass" or (g.get("exc_type") == wt["exc_type"]
                                                     and g.get("message") == wt["message"]
                                                     and g.get("line") == wt["line"])))
            if ok:
                agree_methods += 1
                k[3] += 1
            else:
                diffs.append(f"{name} {wt['name']}: official {wt['status']} {wt['exc_type']}: "
                             f"{wt['message']!s:.200} (line {wt['line']}) | refscore "
                             f"{json.dumps(g)[:400] if g else 'missing'}")
    for d in diffs:
        print(d)
    print(f"patches: {len(names)}; patch status agrees on {agree_patch}; "
          f"methods agree {agree_methods}/{methods}")
    for kind, (n, p, m, a) in sorted(by_kind.items()):
        print(f"  {kind:10} patches {n:4}  status agrees {p:4}  methods {a}/{m}")
    return 0 if not diffs else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--rb", required=True)
    g.add_argument("--bundle", required=True)
    g.add_argument("--out", required=True)
    g.add_argument("--kinds")
    c = sub.add_parser("compare")
    c.add_argument("--bundle", required=True)
    c.add_argument("--patches", required=True)
    c.add_argument("--official", required=True)
    c.add_argument("--refscore", required=True)
    args = ap.parse_args()
    sys.exit(gen(args) if args.cmd == "gen" else compare(args))


if __name__ == "__main__":
    main()
