#!/usr/bin/env bash
# Builds the static site with Trunk: scripts/build-site.sh [DIST_DIR] [PUBLIC_URL]
# PUBLIC_URL is the path the site is served under (`/` at a host's root, `/refscore/` for a sub-path
# such as GitHub Pages); Trunk writes it into <base href> and every asset URL.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
dist=${1:-dist}
public_url=${2:-/}
# The demo bundle the site serves by default: generated from tasks/demo (git-ignored). The dev profile
# reuses the build `cargo test` already made; importing the nine demo tasks takes well under a second.
cargo run --quiet --locked -p cli -- import --from tasks/demo --out public/bundles/demo >/dev/null
# Other bundles imported locally (public/bundles/<name>/, git-ignored) are listed too; the app
# shows the demo unless the URL (?bundle=NAME) or the header's selector picks another.
node scripts/list-bundles.mjs public/bundles
trunk build --release --dist "$dist" --public-url "$public_url"
node scripts/csp-hash-inline.mjs "$dist/index.html"
# The `\N{...}` names table the scoring worker loads the first time a source needs it.
cargo run --quiet --locked -p unicode_names2 --features embedded --bin unicode-names-table -- "$dist/unicode-names.bin"
# The harness's interned words beyond the common ones the worker links (scorer/src/interned/),
# loaded the first time a set display asks about another word.
cp scorer/src/interned/words.txt "$dist/interned-words.txt"
# The on-demand codecs module (codecs-wasm/: CPython's table codecs, outside the first-visit wasm):
# a raw wasm without wasm-bindgen, fetched by the scoring worker as ./codecs.wasm when a run first
# needs a codec (worker/src/codecs_module.rs).
cargo build --quiet --release --locked --offline -p codecs-wasm --target wasm32-unknown-unknown
wasm-opt -Oz --strip-debug --strip-producers target/wasm32-unknown-unknown/release/codecs_wasm.wasm \
  -o "$dist/codecs.wasm"
# Preload the scoring worker's wasm; write .gz/.br siblings of large files (served with
# Content-Encoding by scripts/static-server.mjs and hosts configured as README "Hosting" says).
node scripts/compress-static.mjs "$dist" --preload-worker
# Static hosts without rewrite rules (GitHub Pages) serve 404.html for unknown paths: deep links load the app.
cp "$dist/index.html" "$dist/404.html"
