"""refscore: the RefactorBench scorer as a Python package.

The official harness runs each task's unittest file under CPython 3.11 against the patched
repository; refscore applies the patch to an in-memory copy and interprets the same test file in
Rust, with the same verdicts, in-process and without Docker. The CLI (``refscore score``) and this
package share one code path: same bundle reader, same submission readers, same report JSON.

>>> import refscore
>>> bundle = refscore.Bundle.open("bundles/demo")            # hash checked
>>> result = bundle.score("rename-parse-amount", patch_text)  # one report result (a dict)
>>> report = bundle.score_many(refscore.read_submissions("predictions.jsonl"))
>>> bundle.reward("rename-parse-amount", patch_text, partial=True)
0.75

Errors: :class:`BundleError` (the bundle cannot be read), :class:`InputError` (input that cannot
be read at all); both subclass :class:`RefscoreError`. Entries of a predictions file that cannot
be read are not raised: they are the report's ``errors``, as in the CLI.

Scale-out on Ray: :mod:`refscore.ray`.
"""

from ._refscore import (
    Bundle,
    BundleError,
    InputError,
    Plan,
    RefscoreError,
    __version__,
    read_submissions,
)

__all__ = [
    "Bundle",
    "BundleError",
    "InputError",
    "Plan",
    "RefscoreError",
    "__version__",
    "read_submissions",
]
