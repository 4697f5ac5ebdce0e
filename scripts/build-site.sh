#!/usr/bin/env bash
# Builds the static site with Trunk: scripts/build-site.sh [DIST_DIR] [PUBLIC_URL]
# PUBLIC_URL is the path the site is served under (`/` at a host's root, `/refscore/` for a sub-path
# such as GitHub Pages); Trunk writes it into <base href> and every asset URL.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"
dist=${1:-dist}
public_url=${2:-/}
trunk build --release --dist "$dist" --public-url "$public_url"
