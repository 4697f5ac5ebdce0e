#!/usr/bin/env bash
# Re-records CPython 3.11's outcomes stored in scorer/tests/suite/expected/ (the reference the
# interpreter tests use where python3.11 is absent): every stored file is removed, then the scorer's
# test suite runs with REFSCORE_BLESS=1, which stores each case's live CPython outcome. Review the
# diff of expected/ before committing it: a changed outcome is a change in CPython's answer or in
# the case. Extra arguments go to the test binary (a filter such as `interp_values::`).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import sys; sys.exit(0 if sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11) else "python3 must be CPython 3.11")'
if [ $# -eq 0 ]; then
  rm -f scorer/tests/suite/expected/*.json
fi
REFSCORE_BLESS=1 cargo test -p scorer --features trajectories --test suite -- "$@"
