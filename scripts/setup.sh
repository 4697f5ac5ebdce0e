#!/usr/bin/env bash
# Installs everything refscore's build and tests need on a fresh machine of the project's kind
# (Rust toolchain, Node.js/npm, Python 3.11 and git present). Idempotent: every tool is checked at
# its pinned version first and skipped when already there. Downloads only from the package
# registries (crates.io, npm, Debian apt, PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
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

# 3. Trunk, at the last version this rustc can build.
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  log "installing trunk $TRUNK_VERSION (about 8 minutes on 2 cores)"
  cargo install trunk --locked --version "$TRUNK_VERSION"
fi

# 4. wasm-bindgen-cli at the lockfile's version. Its own lock pins webpki-roots 1.0.11, which the
#    registry lacks, so install from the unpacked crate with that one entry moved back.
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  if ! cargo install wasm-bindgen-cli --locked --version "$WASM_BINDGEN_VERSION" 2>/dev/null; then
    crate=$(ls ~/.cargo/registry/cache/*/wasm-bindgen-cli-"$WASM_BINDGEN_VERSION".crate 2>/dev/null | head -n1)
    [ -n "$crate" ] || { echo "wasm-bindgen-cli $WASM_BINDGEN_VERSION crate not in the cargo cache" >&2; exit 1; }
    work=$(mktemp -d)
    tar xzf "$crate" -C "$work"
    (cd "$work/wasm-bindgen-cli-$WASM_BINDGEN_VERSION" \
      && cargo update -q -p webpki-roots@1.0.11 --precise 1.0.10 \
      && cargo install --path . --locked)
    rm -rf "$work"
  fi
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
log "ready"
