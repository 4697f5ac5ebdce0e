"""The package gives what `refscore score --json` gives, byte for byte as JSON."""

import json
from pathlib import Path

import pytest
import refscore

from conftest import REPO, SUBMISSIONS, canonical, cli, cli_report

# Every submission file of the demo, as the CLI takes them (paths relative to the repository).
PATCHES = sorted(SUBMISSIONS.glob("*.patch"))
PREDICTIONS = [
    "tasks/demo/submissions/predictions.jsonl",
    "tasks/demo/submissions/predictions.json",
    "tasks/demo/submissions/predictions-by-id.json",
    "tasks/demo/submissions/trajectories",
    "tasks/demo/trajectories",
]


def test_the_demo_has_submissions():
    assert len(PATCHES) >= 10


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_each_patch_file_scores_as_the_cli_does(bundle, bundle_dir, patch):
    task = patch.name.split(".")[0]
    rel = str(patch.relative_to(REPO))
    expected = json.loads(
        cli("score", "--tasks", str(bundle_dir), "--task", task, "--patch", rel, "--json").stdout
    )
    (want,) = expected["results"]
    got = bundle.score(task, patch.read_bytes(), source=rel)
    assert canonical(got) == canonical(want)
    # str and bytes are the same patch; without a source the result names none. A patch that is
    # not UTF-8 (the GBK sample) has no str form.
    try:
        text = patch.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return
    plain = bundle.score(task, text)
    assert "source" not in plain
    assert {k: v for k, v in got.items() if k not in ("source", "instruction_set")} == {
        k: v for k, v in plain.items() if k not in ("source", "instruction_set")
    }


@pytest.mark.parametrize("path", PREDICTIONS)
def test_predictions_files_score_as_the_cli_does(bundle, bundle_dir, path):
    want_text = cli_report(bundle_dir, path)
    want = json.loads(want_text)
    read = refscore.read_submissions(path)
    got = bundle.score_many(read, jobs=2)
    assert canonical(got) == canonical(want)
    # Each submission alone, through `score`, is the report's result.
    plan = bundle.plan(read)
    results = [
        bundle.score(
            s["instance_id"],
            s["model_patch"],
            source=s["source"],
            model_name_or_path=s["model_name_or_path"],
            instruction_set=s["instruction_set"],
        )
        for s in plan.submissions
    ]
    assert [canonical(r) for r in results] == [canonical(r) for r in want["results"]]
    # And the report built from them is the CLI's, byte for byte.
    assert plan.report_json(results) == want_text


def test_whole_folders_score_as_the_cli_does(bundle, bundle_dir):
    paths = ["tasks/demo/submissions", "tasks/demo/trajectories"]
    want = json.loads(cli_report(bundle_dir, *paths))
    assert len(want["results"]) >= 20
    got = bundle.score_many(refscore.read_submissions(paths))
    assert canonical(got) == canonical(want)


def test_one_and_two_threads_give_identical_reports(bundle):
    read = refscore.read_submissions(["tasks/demo/submissions", "tasks/demo/trajectories"])
    one = bundle.score_many(read, jobs=1)
    two = bundle.score_many(read, jobs=2)
    every = bundle.score_many(read)
    assert len(one["results"]) >= 20
    assert canonical(one) == canonical(two) == canonical(every)


def test_results_come_back_in_input_order(bundle):
    subs = [
        s
        for f in refscore.read_submissions("tasks/demo/submissions/predictions.jsonl")
        for s in f["submissions"]
    ]
    backwards = list(reversed(subs))
    report = bundle.score_many(backwards, jobs=2)
    assert [r["instance_id"] for r in report["results"]] == [s["instance_id"] for s in backwards]
    assert [r["source"] for r in report["results"]] == [s["source"] for s in backwards]
