#!/usr/bin/env bash
# Installs everything refscore's build and tests need on a fresh machine of the project's kind
# (Rust toolchain, Node.js/npm, Python 3.11 and git present). Idempotent: every tool is checked at
# its pinned version first and skipped when already there. Downloads only from the package
# registries (crates.io, npm, Debian apt, PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
CARGO_DENY_VERSION=0.20.2
# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
log() { printf '[setup] %s\n' "$*" >&2; }

# 1. The wasm target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# 2. Chromium and its driver for the browser tests (Debian's packages).
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  log "installing chromium and chromium-driver from apt"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null \
    || { $SUDO apt-get update -q >/dev/null && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null; }
fi

# 3+4. Trunk and wasm-bindgen-cli, compiled side by side (they are most of a first set-up) while
#    the steps below run. Each writes its log under target/setup-logs/. Both are built without their
#    default features: `Trunk.toml` sets `offline = true`, so neither needs its update check or TLS
#    stack (16 of trunk's 385 crates and 11 of wasm-bindgen-cli's 161 are left out). Should such a
#    build fail, the default build follows.
SETUP_LOGS="${CARGO_TARGET_DIR:-target}/setup-logs"
mkdir -p "$SETUP_LOGS"
tool_pids=()
install_trunk() {
  cargo install trunk --locked --version "$TRUNK_VERSION" --no-default-features \
    || cargo install trunk --locked --version "$TRUNK_VERSION"
}
# wasm-bindgen-cli's own lock pins webpki-roots 1.0.11, which the registry lacks, so install from
# the unpacked crate with that one entry moved back.
install_wasm_bindgen() {
  if ! cargo install wasm-bindgen-cli --locked --version "$WASM_BINDGEN_VERSION" --no-default-features; then
    crate=$(ls ~/.cargo/registry/cache/*/wasm-bindgen-cli-"$WASM_BINDGEN_VERSION".crate 2>/dev/null | head -n1)
    [ -n "$crate" ] || { echo "wasm-bindgen-cli $WASM_BINDGEN_VERSION crate not in the cargo cache" >&2; return 1; }
    work=$(mktemp -d)
    tar xzf "$crate" -C "$work"
    local rc=0
    (cd "$work/wasm-bindgen-cli-$WASM_BINDGEN_VERSION" \
      && cargo update -q -p webpki-roots@1.0.11 --precise 1.0.10 \
      && { cargo install --path . --locked --no-default-features || cargo install --path . --locked; }) || rc=$?
    rm -rf "$work"
    return "$rc"
  fi
}
background() { # NAME FUNCTION: runs it in the background, output to its log, reports when done
  local name=$1 fn=$2 start=$SECONDS
  ( if "$fn" >"$SETUP_LOGS/$name.log" 2>&1; then log "$name installed in $((SECONDS - start)) s"
    else log "$name FAILED after $((SECONDS - start)) s; see $SETUP_LOGS/$name.log"; exit 1; fi ) &
  tool_pids+=($!)
}
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  log "compiling trunk $TRUNK_VERSION in the background (the longest step: about 12 minutes on 2 cores shared with the steps below)"
  background trunk install_trunk
fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  log "compiling wasm-bindgen-cli $WASM_BINDGEN_VERSION in the background (about 6 minutes beside trunk)"
  background wasm-bindgen-cli install_wasm_bindgen
fi

# 4b. cargo-deny (the dependency policy in deny.toml: bans, licences, sources).
if [ "$(cargo deny --version 2>/dev/null || true)" != "cargo-deny $CARGO_DENY_VERSION" ]; then
  log "installing cargo-deny $CARGO_DENY_VERSION (built from source: 4.5 min of CPU, about 3 minutes on 2 idle cores)"
  cargo install cargo-deny --locked --version "$CARGO_DENY_VERSION"
fi

# 5. npm tools: wasm-opt (binaryen 132; never Debian's 108), playwright-core (no browser download) and
# axe-core (the browser tests' accessibility check).
npm_version() { node -p "require('./node_modules/$1/package.json').version" 2>/dev/null || true; }
if [ "$(npm_version binaryen)" != 132.0.0 ] || [ "$(npm_version playwright-core)" != 1.65.1 ] \
  || [ "$(npm_version axe-core)" != 4.14.1 ]; then
  log "installing npm packages (binaryen, playwright-core, axe-core)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi

# 6. The Python package's build and test tools (python/: maturin builds the wheel, pytest runs its
#    tests, ray the scale-out test), pinned, in a venv under the target folder (about 1 minute and
#    325 MB on a fresh machine).
PY_VENV="${CARGO_TARGET_DIR:-target}/pyvenv"
PY_PINS="maturin==1.16.0 pytest==9.2.0 ray==2.60.0"
py_pins_ok() {
  "$PY_VENV/bin/python" - $PY_PINS <<'PY' 2>/dev/null
import importlib.metadata as m, sys
sys.exit(any(m.version(n) != v for n, v in (p.split("==") for p in sys.argv[1:])))
PY
}
if ! py_pins_ok; then
  log "installing $PY_PINS into $PY_VENV"
  [ -x "$PY_VENV/bin/python" ] || python3 -m venv "$PY_VENV"
  # shellcheck disable=SC2086
  "$PY_VENV/bin/pip" install -q --disable-pip-version-check $PY_PINS
fi

# 7. Crates for offline builds (Trunk builds with cargo --offline).
cargo fetch --locked -q

# While the tools compile: the project's own first compile, when the caller asks (serve.sh does:
# the site build runs the CLI to import the demo bundle).
if [ "${SETUP_BUILD_CLI:-0}" = 1 ]; then
  log "compiling the refscore CLI meanwhile"
  start=$SECONDS
  cargo build --locked -q -p cli
  log "refscore CLI compiled in $((SECONDS - start)) s"
fi

# The tool compiles started above.
if [ ${#tool_pids[@]} -gt 0 ]; then
  log "waiting for the tool compiles (logs in $SETUP_LOGS)"
  for pid in "${tool_pids[@]}"; do wait "$pid"; done
fi
log "ready"
