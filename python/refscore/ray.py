"""Scoring on a Ray cluster, with Ray tasks.

One function, :func:`score`, scores a predictions file (or folder, or list of prediction dicts)
on whatever Ray is connected to and returns (and optionally writes) the report the CLI writes for
the same input, byte for byte:

>>> import ray, refscore.ray
>>> ray.init()                                  # a laptop: a local Ray instance
>>> ray.init(address="ray://head:10001")        # or a cluster (or address="auto" on a node)
>>> report = refscore.ray.score("bundles/rb", "runs/agent/preds.jsonl", out="report.json")

How it works: the driver opens the bundle (hash checked), reads the predictions with the CLI's
readers and does the CLI's steps before scoring (:meth:`refscore.Bundle.plan`: unknown instances
and unreadable entries become report errors, trajectory copies are left out). The submissions are
grouped by task and cut into chunks; each chunk is one Ray task, which scores its submissions with
:meth:`refscore.Bundle.score`. Each worker process opens the bundle once and keeps it (with its
parse cache and loaded tasks) for every later chunk it runs. The driver puts the results back in
input order and builds the report with the CLI's report writer.

How the bundle reaches the workers:

- ``ship_bundle=False`` (default): the workers open the bundle at the same path, so the path must
  exist on every node (a shared file system, or the same folder copied to each machine). This is
  the right choice on one machine.
- ``ship_bundle=True``: the driver puts the bundle's files (about 21 MB for the real benchmark)
  into Ray's object store once; each worker process fetches them once, writes them to a folder of
  its node's temporary directory named by the bundle hash and opens that (hash checked again).

Every worker needs the ``refscore`` package installed (the same wheel as the driver), for example
through the cluster image or ``ray.init(runtime_env={"pip": ["refscore-<version>-....whl"]})``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import refscore

__all__ = ["score"]

# Folders a bundle consists of besides index.json (as `refscore import` writes them).
_BUNDLE_DIRS = ("tasks", "repos", "blobs", "packs")

# Bundles this worker process has opened, by where they came from (a path, or a bundle hash),
# and how often each was opened here (once, unless something is wrong; the tests look).
_OPEN: Dict[str, "refscore.Bundle"] = {}
_OPENED: Dict[str, int] = {}


def _bundle_files(root: Path) -> Dict[str, bytes]:
    """The files of the bundle folder ``root`` by bundle-relative path."""
    files = {"index.json": (root / "index.json").read_bytes()}
    for sub in _BUNDLE_DIRS:
        top = root / sub
        if not top.is_dir():
            continue
        for dirpath, _dirs, names in os.walk(top):
            for name in names:
                p = Path(dirpath) / name
                files[p.relative_to(root).as_posix()] = p.read_bytes()
    return files


def _materialise(bundle_hash: str, files: Dict[str, bytes]) -> Path:
    """Writes a shipped bundle to this node's temporary directory once (a folder per hash,
    renamed into place whole, so worker processes of one node share it)."""
    target = Path(tempfile.gettempdir()) / f"refscore-bundle-{bundle_hash}"
    if (target / "index.json").is_file():
        return target
    staging = Path(tempfile.mkdtemp(prefix=f"refscore-bundle-{bundle_hash}-"))
    for rel, data in files.items():
        p = staging / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    try:
        os.rename(staging, target)
    except OSError:
        # Another worker of this node won the race; its copy has the same hash.
        import shutil

        shutil.rmtree(staging, ignore_errors=True)
    return target


def _open(where: Dict[str, Any]) -> "refscore.Bundle":
    """The bundle a chunk names, opened once per worker process."""
    key = where["path"] or where["hash"]
    bundle = _OPEN.get(key)
    if bundle is None:
        if where["path"]:
            bundle = refscore.Bundle.open(where["path"])
        else:
            import ray

            # Wrapped in a list so Ray does not fetch it for every chunk, only here, once.
            files = ray.get(where["files"][0])
            bundle = refscore.Bundle.open(str(_materialise(where["hash"], files)))
        if bundle.hash != where["hash"]:
            raise refscore.BundleError(
                f"{bundle.path}: bundle hash {bundle.hash}, the driver's is {where['hash']}"
            )
        _OPEN[key] = bundle
        _OPENED[key] = _OPENED.get(key, 0) + 1
    return bundle


def _score_chunk(where: Dict[str, Any], subs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """A Ray task: scores a chunk of submissions in this worker's bundle."""
    bundle = _open(where)
    return [
        bundle.score(
            s["instance_id"],
            s["model_patch"],
            source=s["source"],
            model_name_or_path=s["model_name_or_path"],
            instruction_set=s["instruction_set"],
        )
        for s in subs
    ]


def _chunks(subs: Sequence[Dict[str, Any]], chunk_size: int) -> List[List[int]]:
    """Indices of ``subs`` grouped by task (a worker's loaded task and parse cache serve a whole
    group), biggest groups first, cut into chunks of at most ``chunk_size``."""
    groups: Dict[str, List[int]] = {}
    for i, s in enumerate(subs):
        groups.setdefault(s["instance_id"], []).append(i)
    ordered = sorted(groups.values(), key=len, reverse=True)
    return [g[k : k + chunk_size] for g in ordered for k in range(0, len(g), chunk_size)]


def score(
    bundle: Union[str, "os.PathLike[str]"],
    predictions: Union[str, "os.PathLike[str]", Sequence[Any], Iterable[Dict[str, Any]]],
    *,
    out: Union[str, "os.PathLike[str]", None] = None,
    ship_bundle: bool = False,
    chunk_size: int = 8,
    num_cpus: float = 1,
) -> Dict[str, Any]:
    """Scores ``predictions`` against the bundle folder ``bundle`` with Ray tasks and returns the
    report (a dict), the one ``refscore score --tasks BUNDLE --predictions ...`` writes.

    ``predictions``: a path (predictions file, trajectory or folder), a list of paths, or an
    iterable of prediction dicts / :func:`refscore.read_submissions` per-file dicts.
    ``out``: also write the report JSON there, byte for byte as the CLI's ``--out``.
    ``ship_bundle``: send the bundle through Ray's object store instead of opening the same path
    on every node (see the module docs). ``chunk_size``: submissions per Ray task.
    ``num_cpus``: CPUs each Ray task reserves (scoring one submission uses one core).

    Uses the Ray connection that exists, else starts a local instance (``ray.init()``).
    """
    import ray

    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, not {chunk_size}")
    if not ray.is_initialized():
        ray.init()
    local = refscore.Bundle.open(bundle)
    if isinstance(predictions, (str, os.PathLike)) or (
        isinstance(predictions, (list, tuple))
        and predictions
        and all(isinstance(p, (str, os.PathLike)) for p in predictions)
    ):
        predictions = refscore.read_submissions(predictions)
    plan = local.plan(predictions)
    subs = plan.submissions
    where: Dict[str, Any] = {"hash": local.hash, "path": None, "files": None}
    if ship_bundle:
        where["files"] = [ray.put(_bundle_files(Path(bundle)))]
    else:
        where["path"] = os.path.abspath(os.fspath(bundle))
    task = ray.remote(num_cpus=num_cpus)(_score_chunk)
    chunks = _chunks(subs, chunk_size)
    refs = [task.remote(where, [subs[i] for i in idx]) for idx in chunks]
    results: List[Optional[Dict[str, Any]]] = [None] * len(subs)
    for idx, scored in zip(chunks, ray.get(refs)):
        for i, r in zip(idx, scored):
            results[i] = r
    text = plan.report_json(results)
    if out is not None:
        target = Path(out)
        tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    import json

    return json.loads(text)
