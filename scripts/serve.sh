#!/usr/bin/env bash
# Installs what is missing, builds the release site and serves it with the demo tasks on
# http://127.0.0.1:8080 (override with PORT=...).
set -euo pipefail
cd "$(dirname "$0")/.."
SETUP_BUILD_CLI=1 scripts/setup.sh
scripts/build-site.sh dist /
echo "refscore: open http://127.0.0.1:${PORT:-8080}/"
exec node scripts/static-server.mjs --dir dist --port "${PORT:-8080}" --host 127.0.0.1 --base /
