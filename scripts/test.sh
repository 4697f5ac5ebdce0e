#!/usr/bin/env bash
# The whole test suite: what README.md's test command runs and what .ci/run calls.
# Installs what is missing (scripts/setup.sh), then: rustfmt, clippy -D warnings (native and wasm32),
# every native test, the wasm32 build of scorer, the release site (root and sub-path builds), and the
# browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
step() { printf '\n==> %s\n' "$*"; }

step "setup"
scripts/setup.sh

step "cargo fmt --check"
cargo fmt --all --check

step "clippy (native, all targets)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "clippy (wasm32: scorer, worker and app)"
cargo clippy -p scorer -p worker -p app --target wasm32-unknown-unknown --locked -- -D warnings

step "native tests"
cargo test --workspace --locked

step "scorer builds for wasm32-unknown-unknown"
cargo build -p scorer --target wasm32-unknown-unknown --release --locked

step "release site (dist/), and the test build under /refscore/ (dist-subpath/, with test hooks)"
scripts/build-site.sh dist /
REFSCORE_TEST_HOOKS=1 scripts/build-site.sh dist-subpath /refscore/

step "browser tests (headless Chromium)"
node --test --test-concurrency=1 tests/e2e/

printf '\nall checks passed\n'
