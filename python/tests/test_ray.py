"""`refscore.ray` on a local Ray instance (2 CPUs) writes the report the CLI writes."""

import json

import pytest

from conftest import cli

ray = pytest.importorskip("ray")

import refscore.ray  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
    )
    yield
    ray.shutdown()


def test_ray_scores_the_demo_predictions_as_the_cli_does(local_ray, bundle_dir, tmp_path):
    preds = "tasks/demo/submissions/predictions.jsonl"
    want = tmp_path / "cli.json"
    cli("score", "--tasks", str(bundle_dir), "--predictions", preds, "--out", str(want))
    got = tmp_path / "ray.json"
    report = refscore.ray.score(bundle_dir, preds, out=got, chunk_size=2)
    assert got.read_bytes() == want.read_bytes()
    assert report == json.loads(want.read_text(encoding="utf-8"))


def test_ray_with_the_bundle_in_the_object_store(local_ray, bundle_dir, tmp_path):
    paths = ["tasks/demo/submissions", "tasks/demo/trajectories"]
    want = tmp_path / "cli.json"
    cli("score", "--tasks", str(bundle_dir), "--predictions", *paths, "--out", str(want))
    got = tmp_path / "ray.json"
    refscore.ray.score(bundle_dir, paths, out=got, ship_bundle=True, chunk_size=3)
    assert got.read_bytes() == want.read_bytes()


def test_each_worker_process_opens_the_bundle_once(local_ray, bundle_dir):
    subs = [
        dict(s, model_name_or_path=f"m{i}")
        for i in range(4)
        for f in refscore.read_submissions("tasks/demo/submissions/predictions.jsonl")
        for s in f["submissions"]
    ]
    # One submission a chunk: many more chunks than the 2 worker processes.
    report = refscore.ray.score(bundle_dir, subs, chunk_size=1)
    assert len(report["results"]) == len(subs)

    @ray.remote(num_cpus=1)
    def opened():
        import os

        import refscore.ray as rr

        return os.getpid(), dict(rr._OPENED)

    seen = dict(ray.get([opened.remote() for _ in range(8)]))
    assert any(counts for counts in seen.values()), seen
    assert all(n == 1 for counts in seen.values() for n in counts.values()), seen
