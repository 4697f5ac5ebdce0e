"""Bad input: typed errors with the CLI's messages, or entries in the report's `errors`."""

import json
import shutil

import pytest
import refscore

from conftest import canonical, cli


def cli_error(*args: str) -> str:
    """The message of a failing `refscore score` (exit 2), without the command prefix."""
    err = cli("score", *args, ok=(2,)).stderr.strip().splitlines()[-1]
    prefix = "refscore score: error: "
    assert err.startswith(prefix), err
    return err[len(prefix) :]


def test_errors_are_typed():
    assert issubclass(refscore.BundleError, refscore.RefscoreError)
    assert issubclass(refscore.InputError, refscore.RefscoreError)
    assert not issubclass(refscore.BundleError, refscore.InputError)


def test_a_missing_bundle_is_a_bundle_error_with_the_cli_message(tmp_path):
    missing = str(tmp_path / "nowhere")
    want = cli_error("--tasks", missing, "--predictions", "tasks/demo/submissions/predictions.jsonl")
    with pytest.raises(refscore.BundleError) as e:
        refscore.Bundle.open(missing)
    assert str(e.value) == want


def test_a_changed_bundle_is_a_bundle_error_with_the_cli_message(bundle_dir, tmp_path):
    copy = tmp_path / "bundle"
    shutil.copytree(bundle_dir, copy)
    blob = next((copy / "blobs").rglob("*"))
    while blob.is_dir():
        blob = next(blob.iterdir())
    blob.write_bytes(blob.read_bytes() + b"\n")
    want = cli_error("--tasks", str(copy), "--predictions", "tasks/demo/submissions/predictions.jsonl")
    assert "bundle hash mismatch" in want
    with pytest.raises(refscore.BundleError) as e:
        refscore.Bundle.open(copy)
    assert str(e.value) == want


def test_an_unreadable_predictions_path_is_an_input_error_with_the_cli_message(bundle_dir, tmp_path):
    missing = str(tmp_path / "preds.jsonl")
    want = cli_error("--tasks", str(bundle_dir), "--predictions", missing)
    with pytest.raises(refscore.InputError) as e:
        refscore.read_submissions(missing)
    assert str(e.value) == want
    empty = tmp_path / "empty"
    empty.mkdir()
    want = cli_error("--tasks", str(bundle_dir), "--predictions", str(empty))
    with pytest.raises(refscore.InputError) as e:
        refscore.read_submissions(empty)
    assert str(e.value) == want


BAD_LINES = [
    '{"instance_id": "rename-parse-amount", "model_patch": ""}',
    "{not json",
    '{"instance_id": "rename-parse-amount"}',
    '{"instance_id": 7, "model_patch": ""}',
    '{"instance_id": "no-such-task", "model_patch": ""}',
    '{"instance_id": "rename-parse-amount", "model_patch": 3}',
    '{"instance_id": "rename-parse-amount", "model_patch": "", "instruction_set": "lazyy"}',
    "[1, 2]",
]


def test_bad_entries_of_a_file_land_in_errors_as_in_the_cli(bundle, bundle_dir, tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join(BAD_LINES) + "\n", encoding="utf-8")
    want = json.loads(cli("score", "--tasks", str(bundle_dir), "--predictions", str(f), "--json").stdout)
    assert len(want["errors"]) == len(BAD_LINES) - 1
    got = bundle.score_many(refscore.read_submissions(str(f)))
    assert canonical(got) == canonical(want)


def test_bad_in_memory_entries_land_in_errors_with_the_cli_messages(bundle, bundle_dir, tmp_path):
    f = tmp_path / "bad.jsonl"
    lines = [l for l in BAD_LINES if l != "{not json"]
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    want = json.loads(cli("score", "--tasks", str(bundle_dir), "--predictions", str(f), "--json").stdout)
    entries = [json.loads(l) for l in lines] + [{"instance_id": "x", "model_patch": object()}]
    got = bundle.score_many(entries, jobs=1)
    assert len(got["results"]) == 1
    # Same messages, in the same order; in-memory entries are `<predictions>` at their position.
    assert [e["message"] for e in got["errors"][:-1]] == [e["message"] for e in want["errors"]]
    assert [e["source"] for e in got["errors"]] == [
        {"file": "<predictions>", "line": i} for i in range(2, len(entries) + 1)
    ]
    assert got["errors"][-1]["message"].startswith("not a JSON value")
    assert len(got["errors"]) == len(want["errors"]) + 1


def test_bad_arguments_raise(bundle):
    with pytest.raises(refscore.InputError, match='unknown instance id "no-such-task"'):
        bundle.score("no-such-task", "")
    with pytest.raises(refscore.InputError, match="unknown `instruction_set`"):
        bundle.score("rename-parse-amount", "", instruction_set="lazyy")
    with pytest.raises(TypeError):
        bundle.score("rename-parse-amount", 42)
    with pytest.raises(ValueError):
        bundle.score_many([], jobs=0)
    with pytest.raises(TypeError):
        bundle.score_many("tasks/demo/submissions/predictions.jsonl")
    with pytest.raises(TypeError):
        refscore.read_submissions(42)


def test_a_patch_that_does_not_apply_is_a_result_not_an_error(bundle):
    r = bundle.score("rename-parse-amount", "not a patch at all\n")
    assert r["patch_status"] == "failed"
    assert r["resolved"] is False
    assert bundle.reward("rename-parse-amount", "not a patch at all\n", partial=True) == 0.0
