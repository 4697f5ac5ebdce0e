#!/usr/bin/env bash
# The whole test suite: what README.md's test command runs and what .ci/run calls.
# Installs what is missing (scripts/setup.sh), then: rustfmt, cargo deny, clippy -D warnings (native and wasm32),
# every native test, the Python package (wheel built with maturin, pytest, a local Ray instance),
# the wasm32 build of scorer, the release site (root and sub-path builds), a
# leaderboard site built from the demo (dist-board), and the browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
step() { printf '\n==> %s\n' "$*"; }

step "setup"
scripts/setup.sh

step "cargo fmt --check"
cargo fmt --all --check

step "cargo deny (bans, licences, sources; advisories need the RustSec database, see deny.toml)"
cargo deny --locked check bans licenses sources

step "clippy (native, all targets)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "clippy (wasm32: scorer, worker, app, trajworker and the codecs module)"
cargo clippy -p scorer -p worker -p app -p trajworker -p codecs -p codecs-wasm --target wasm32-unknown-unknown --locked -- -D warnings

step "native tests"
cargo test --workspace --locked

step "Python package (python/): debug wheel, pytest against the CLI, Ray on a local instance"
# The debug profile reuses what the native tests compiled; `pip install ./python` builds the
# release-native wheel users get (python/README.md).
PY_TARGET="${CARGO_TARGET_DIR:-target}"
rm -rf "$PY_TARGET/py-wheels"
"$PY_TARGET/pyvenv/bin/maturin" build --quiet --locked --profile dev -m python/Cargo.toml \
  --out "$PY_TARGET/py-wheels"
"$PY_TARGET/pyvenv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps \
  "$PY_TARGET"/py-wheels/refscore-*.whl
REFSCORE_BIN="$PY_TARGET/debug/refscore" "$PY_TARGET/pyvenv/bin/python" -m pytest -q \
  -p no:cacheprovider python/tests

step "scorer builds for wasm32-unknown-unknown"
cargo build -p scorer --target wasm32-unknown-unknown --release --locked

step "release site (dist/), and the test build under /refscore/ (dist-subpath/, with test hooks)"
scripts/build-site.sh dist /
REFSCORE_TEST_HOOKS=1 scripts/build-site.sh dist-subpath /refscore/

step "leaderboard site (scripts/build-leaderboard-site.sh on tasks/demo and a report the CLI scored)"
rm -rf test-output/board-reports && mkdir -p test-output/board-reports
cargo run --quiet --locked -p cli -- score --tasks public/bundles/demo \
  --predictions tasks/demo/submissions/predictions.jsonl --out test-output/board-reports/demo-agent.json \
  || [ $? -eq 1 ]
printf '%s\n' --agent 'Demo agent' --instruction-set base > test-output/board-reports/demo-agent.args
scripts/build-leaderboard-site.sh --benchmark tasks/demo --reports test-output/board-reports \
  --out dist-board --base /refscore/ --name demo --prebuilt dist-subpath

step "browser tests (headless Chromium)"
node --test --test-concurrency=1 tests/e2e/

printf '\nall checks passed\n'
