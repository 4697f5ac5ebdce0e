"""Types of the extension module ``refscore._refscore`` (re-exported by ``refscore``)."""

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

__version__: str

Source = Dict[str, Any]
"""Where an entry came from: ``{"file": str, "line": int | None}``."""

Prediction = Dict[str, Any]
"""A submission: ``instance_id``, ``model_name_or_path``, ``model_patch`` (str, or bytes when not
UTF-8), ``instruction_set`` ("lazy" / "base" / "descriptive" or None), ``source``."""

Result = Dict[str, Any]
"""One result of a report, as ``refscore score --json`` prints it under ``results``."""

Report = Dict[str, Any]
"""A whole report: ``schema_version``, ``scorer``, ``bundle``, ``results``, ``errors``,
(``warnings``,) ``summary``: the JSON ``refscore score --out`` writes, parsed."""

PathLike = Union[str, "os.PathLike[str]"]

class RefscoreError(Exception):
    """Base class of the errors refscore raises."""

class BundleError(RefscoreError):
    """A bundle folder that cannot be read (missing, not a bundle, hash mismatch, corrupt task
    files); the message is the CLI's."""

class InputError(RefscoreError):
    """Input that cannot be read at all (an unreadable predictions file, a task the bundle
    lacks, a value of the wrong shape); the message is the CLI's. Bad entries of a predictions
    file are not raised: they are the report's ``errors``."""

class Bundle:
    """A task bundle folder written by ``refscore import``, opened and hash checked."""

    @staticmethod
    def open(path: PathLike) -> "Bundle":
        """Opens the bundle at ``path`` as ``refscore score --tasks`` does (the bundle hash
        recorded in ``index.json`` is checked against the files). Raises :class:`BundleError`."""
    @property
    def path(self) -> str:
        """The folder as given to :meth:`open`."""
    @property
    def hash(self) -> str:
        """The bundle hash every report names."""
    @property
    def tasks(self) -> List[str]:
        """Task ids, in the bundle's order."""
    def score(
        self,
        instance_id: str,
        patch: Union[str, bytes],
        *,
        source: Union[str, Source, None] = None,
        model_name_or_path: Optional[str] = None,
        instruction_set: Optional[str] = None,
    ) -> Result:
        """Scores ``patch`` (a unified diff; ``bytes`` as they are, ``str`` as UTF-8; empty means
        no change) against task ``instance_id`` and returns the one report result, the same JSON
        as ``refscore score --task ID --patch FILE --json`` prints under ``results``. ``source``
        names the patch (a file name, or ``{"file", "line"}``) as the CLI's ``--patch`` does, and
        names the instruction set when ``instruction_set`` is None and the path names one; without
        it the result has no ``source``. A patch that does not apply is a result
        (``patch_status`` "failed"), not an error.

        Runs on the bundle's scoring thread (the CLI's stack and limits, one parse cache kept
        across calls) with the GIL released. Raises :class:`InputError` for a task the bundle
        lacks or an unknown instruction set, :class:`BundleError` when the task's files cannot be
        read."""
    def reward(self, instance_id: str, patch: Union[str, bytes], partial: bool = False) -> float:
        """1.0 when the patch resolves the task, else 0.0; with ``partial=True``, the share of the
        task's subtests (test methods) passed, in [0, 1] (a patch that does not apply passes none).
        Deterministic: the same bundle and patch give the same reward on every machine."""
    def score_many(
        self,
        predictions: Iterable[Union[Prediction, Dict[str, Any]]],
        jobs: Optional[int] = None,
    ) -> Report:
        """Scores many submissions on ``jobs`` native threads (default: all cores) with the GIL
        released and returns the whole report, as ``refscore score --predictions`` writes it.

        ``predictions`` holds prediction dicts (SWE-bench fields ``instance_id``,
        ``model_patch`` (str, bytes or None), optional ``model_name_or_path``,
        ``instruction_set``, ``source``) and/or the per-file dicts of :func:`read_submissions`.
        Results are in input order. Entries that cannot be read (a missing field, a wrong type,
        an instance the bundle lacks) are the report's ``errors`` with the CLI's messages; a
        prediction dict without ``source`` is named ``<predictions>`` at its 1-based position.
        Given ``read_submissions(paths)``, the report equals the CLI's on the same paths."""
    def plan(self, predictions: Iterable[Union[Prediction, Dict[str, Any]]]) -> "Plan":
        """The steps of :meth:`score_many` before scoring (unknown instances to ``errors``,
        trajectory copies of ``preds.json`` entries left out, repeats warned about), for scoring
        the submissions elsewhere, as :mod:`refscore.ray` does."""

class Plan:
    """Submissions to score and the report's errors and warnings (:meth:`Bundle.plan`)."""

    @property
    def submissions(self) -> List[Prediction]:
        """The submissions to score, in report order."""
    @property
    def copies(self) -> int:
        """Trajectory copies of ``preds.json`` entries left out."""
    def __len__(self) -> int: ...
    def report_json(self, results: Sequence[Result]) -> str:
        """The report of ``results`` (one per submission, in order, as :meth:`Bundle.score`
        returns them with the submission's ``source``, ``model_name_or_path`` and
        ``instruction_set``), byte for byte as the CLI writes it. Raises :class:`InputError`
        when the count differs or a result is malformed."""
    def report(self, results: Sequence[Result]) -> Report:
        """:meth:`report_json`, parsed."""

def read_submissions(paths: Union[PathLike, Sequence[PathLike]]) -> List[Dict[str, Any]]:
    """Reads predictions (``.jsonl``, ``.json`` list or dict), trajectories (SWE-agent,
    mini-swe-agent, OpenHands, Inspect, ...) or folders of them with the CLI's readers. Returns
    one dict per file, in the order the CLI reads them: ``file`` (the name reports give it),
    ``submissions`` (prediction dicts), ``errors`` and ``warnings`` (entries as in a report).
    Folder entries left out (links, FIFOs) are reported with :func:`warnings.warn`. Raises
    :class:`InputError` when a path cannot be read at all."""
