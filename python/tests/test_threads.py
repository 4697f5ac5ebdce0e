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
    """A spinning Python thread notes every pause of more than 10 ms it sees. While `score_many`
    scores with the GIL released, no pause covers a large part of the call; with the GIL held
    through the scoring, one pause would cover nearly all of it. (Counting the thread's progress
    would not tell: converting the input runs Python code, where the GIL changes hands anyway.)"""
    subs = demo_submissions()
    copies = 12
    while True:
        # Distinct models, so every copy is a result of its own.
        many = [dict(s, model_name_or_path=f"m{i}") for i in range(copies) for s in subs]
        pauses = []
        stop = threading.Event()

        def spin():
            last = time.perf_counter()
            while not stop.is_set():
                now = time.perf_counter()
                if now - last > 0.01:
                    pauses.append((last, now))
                last = now

        t = threading.Thread(target=spin)
        t.start()
        try:
            time.sleep(0.02)
            start = time.perf_counter()
            report = bundle.score_many(many, jobs=1)
            end = time.perf_counter()
        finally:
            stop.set()
            t.join()
        assert len(report["results"]) == len(many)
        # Long enough that the machine's scheduling pauses are small beside it.
        if end - start >= 0.3 or copies >= 1000:
            break
        copies *= 3
    longest = max((min(b, end) - max(a, start) for a, b in pauses), default=0.0)
    assert longest < 0.5 * (end - start), (longest, end - start, len(many))


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
