"""Calls per second of `Bundle.score` on distinct touch patches, against CPython running the same
test files in-process (a benchmark, not a timed test).

    python/bench/bench_score.py --bundle BUNDLE --checkout CHECKOUT [--variants 5] [--repeat 2]

BUNDLE is an imported bundle, CHECKOUT the official-layout checkout it was imported from (its
`repositories/`): `tasks/demo` for the demo bundle, the official checkout for the real one.

Patches: `scripts/official-check.py gen --kinds touch` writes one per task (a comment line naming
the task appended to every .py file the test reads, made with real git); variant k of it appends
`# touched by TASK k` instead (only the added lines change), so every call scores a tree no
earlier call saw and run reuse cannot answer it (method reuse still answers methods that read no
touched file, as in real use).

refscore: one `Bundle`, `score()` called once per (task, variant) on the bundle's scoring thread
(its parse cache and loaded tasks kept, as a training loop would call it), after an untimed warm-up
call per task with the empty patch; each round uses markers no earlier round used. CPython: `cli/benches/score_driver.py` (the CLI bench's driver)
runs the same test files in ONE python3 process the way the official harness loads them, against
copies of the checkout's repositories with each variant's patched files overlaid. Both sides'
passing-method counts are compared run by run.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def touch_patches(bundle: Path, checkout: Path, out: Path) -> dict:
    subprocess.run(
        [sys.executable, str(REPO / "scripts/official-check.py"), "gen", "--rb", str(checkout),
         "--bundle", str(bundle), "--out", str(out), "--kinds", "touch"],
        check=True, capture_output=True,
    )
    return {p.name[: -len(".touch.diff")]: p.read_bytes() for p in sorted(out.glob("*.touch.diff"))}


def variant(task: str, patch: bytes, k: int) -> bytes:
    return patch.replace(f"+# touched by {task}\n".encode(), f"+# touched by {task} {k}\n".encode())


def touched_files(patch: bytes) -> list:
    return [l[6:].decode() for l in patch.splitlines() if l.startswith(b"+++ b/")]


def tasks_of(bundle: Path) -> dict:
    index = json.loads((bundle / "index.json").read_text())
    return {r["id"]: json.loads((bundle / r["data"]).read_text()) for r in index["tasks"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", required=True, type=Path)
    ap.add_argument("--checkout", required=True, type=Path)
    ap.add_argument("--variants", type=int, default=5, help="distinct touch patches per task")
    ap.add_argument("--repeat", type=int, default=2, help="rounds (fastest is reported)")
    args = ap.parse_args()

    import refscore

    tasks = tasks_of(args.bundle)
    with tempfile.TemporaryDirectory(prefix="refscore-bench-") as tmp:
        tmp = Path(tmp)
        base = touch_patches(args.bundle, args.checkout, tmp / "patches")
        jobs = [(t, variant(t, p, k)) for k in range(args.variants) for t, p in base.items()]
        print(f"{len(base)} tasks with a touch patch, {len(jobs)} distinct patches", flush=True)

        # CPython's side: repositories copied once, each run's patched files written once.
        repos = tmp / "repos"
        for repo in sorted({tasks[t]["repo"] for t in base}):
            shutil.copytree(args.checkout / "repositories" / repo, repos / repo, symlinks=True)
            (repos / repo / "refactorbench_eval").mkdir(exist_ok=True)
        runs = []
        for n, (t, patch) in enumerate(jobs):
            data = tasks[t]
            root = repos / data["repo"]
            test = tmp / "tests" / t / data["test"]["name"]
            test.parent.mkdir(parents=True, exist_ok=True)
            test.write_text(data["test"]["source"], encoding="utf-8")
            marker = patch.split(b"\n+# touched by ")[1].split(b"\n")[0].decode()
            writes = []
            for rel in touched_files(patch):
                src = tmp / "overlays" / str(n) / rel
                src.parent.mkdir(parents=True, exist_ok=True)
                src.write_bytes((root / rel).read_bytes() + f"# touched by {marker}\n".encode())
                writes.append([rel, str(src)])
            runs.append({"root": str(root), "test": str(test), "writes": writes, "deletes": []})
        plan = tmp / "plan.json"
        plan.write_text(json.dumps({"runs": runs}))

        bundle = refscore.Bundle.open(args.bundle)
        for t in base:
            bundle.score(t, "")
        best_rs, best_py, ratios = None, None, []
        for rnd in range(args.repeat):
            # Fresh markers every round: a round must not be answered from the last one's runs.
            ours_jobs = [
                (t, variant(t, base[t], rnd * args.variants + k))
                for k in range(args.variants)
                for t in base
            ]
            start = time.perf_counter()
            results = [bundle.score(t, p) for t, p in ours_jobs]
            rs = time.perf_counter() - start
            py = subprocess.run(
                ["python3", "-s", "-B", str(REPO / "cli/benches/score_driver.py"), str(plan)],
                check=True, capture_output=True, env=dict(os.environ, PYTHONHASHSEED="0"),
            )
            py_out = json.loads(py.stdout)
            ours = [r["subtests_passed"] for r in results]
            agree = sum(a == b for a, b in zip(ours, py_out["passed"]))
            ratios.append(py_out["seconds"] / rs)
            best_rs = rs if best_rs is None else min(best_rs, rs)
            best_py = py_out["seconds"] if best_py is None else min(best_py, py_out["seconds"])
            print(
                f"round {rnd + 1}: refscore {len(jobs) / rs:.1f} calls/s ({rs:.2f} s), "
                f"CPython {len(jobs) / py_out['seconds']:.1f} runs/s ({py_out['seconds']:.2f} s), "
                f"ratio {py_out['seconds'] / rs:.2f}x; passing methods agree on {agree}/{len(jobs)}",
                flush=True,
            )
        print(
            f"fastest: refscore {len(jobs) / best_rs:.1f} calls/s, CPython {len(jobs) / best_py:.1f} "
            f"runs/s, ratio {best_py / best_rs:.2f}x (median of rounds "
            f"{sorted(ratios)[len(ratios) // 2]:.2f}x)"
        )


if __name__ == "__main__":
    main()
