"""Scoring releases the GIL; rewards are what the results say, every time."""

import threading
import time

import refscore

from conftest import SUBMISSIONS


def demo_submissions():
    return [
        s
        for f in refscore.read_submissions(
            ["tasks/demo/submissions/predictions.jsonl", "tasks/demo/submissions/trajectories"]
        )
        for s in f["submissions"]
    ]


def test_a_python_thread_runs_while_score_many_scores(bundle):
    subs = demo_submissions()
    # Distinct models, so every copy is a result of its own (identical runs are reused, but the
    # scoring still happens on the native threads).
    many = [dict(s, model_name_or_path=f"m{i}") for i in range(12) for s in subs]
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.05)
        before = counter[0]
        start = time.perf_counter()
        report = bundle.score_many(many, jobs=1)
        elapsed = time.perf_counter() - start
        during = counter[0] - before
    finally:
        stop.set()
        t.join()
    assert len(report["results"]) == len(many)
    # With the GIL held for the whole call the spinning thread could not run at all.
    assert during > 1000, (during, elapsed)


def test_a_python_thread_runs_while_score_scores(bundle):
    patch = (SUBMISSIONS / "rename-parse-amount.solve.patch").read_bytes()
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.05)
        before = counter[0]
        for i in range(10):
            bundle.score("rename-parse-amount", patch, model_name_or_path=f"m{i}")
        during = counter[0] - before
    finally:
        stop.set()
        t.join()
    assert during > 100, during


def test_rewards_follow_the_results_and_repeat(bundle):
    for patch in sorted(SUBMISSIONS.glob("*.patch")):
        task = patch.name.split(".")[0]
        text = patch.read_bytes()
        r = bundle.score(task, text)
        whole = bundle.reward(task, text)
        part = bundle.reward(task, text, partial=True)
        assert whole == (1.0 if r["resolved"] else 0.0), patch.name
        want = r["subtests_passed"] / r["subtests_total"] if r["subtests_total"] else whole
        assert part == want, patch.name
        assert 0.0 <= part <= 1.0
        assert bundle.reward(task, text, partial=True) == part
    partial = (SUBMISSIONS / "rename-parse-amount.partial.patch").read_bytes()
    assert 0.0 < bundle.reward("rename-parse-amount", partial, partial=True) < 1.0
    assert bundle.reward("rename-parse-amount", partial) == 0.0
