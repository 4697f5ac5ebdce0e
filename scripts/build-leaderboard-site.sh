#!/usr/bin/env bash
# Builds a leaderboard site from a checkout of the benchmark and a folder of reports:
#
#   scripts/build-leaderboard-site.sh --benchmark CHECKOUT --reports DIR --out SITE
#                                     [--base /sub/] [--name BUNDLE] [--prebuilt DIST]
#
# 1. builds the static site (scripts/build-site.sh SITE BASE), or copies DIST, a site already built
#    with the same BASE (--prebuilt);
# 2. imports CHECKOUT (official layout: problems/ tests/ scripts/ repositories/) with
#    `refscore import` into SITE/bundles/BUNDLE (default `refactorbench`), the one bundle it serves;
# 3. adds every DIR/*.json (`refscore score --out` reports scored against that bundle) to
#    SITE/leaderboard with `refscore leaderboard add`: each is copied next to published.json as
#    `<id>.json` and becomes a row drillable to every subtest. DIR/NAME.args, when present, holds
#    more `leaderboard add` options for DIR/NAME.json, one per line (`--agent`, `SWE-agent`,
#    `--instruction-set`, `base`, ...); without it the model and instruction set come from the
#    report's results;
# 4. checks the result with `refscore leaderboard check`.
#
# SITE is then plain static files for any host (served under BASE). REFSCORE=/path/to/refscore uses
# that binary instead of `cargo run -p cli` (a release build imports the real benchmark faster).
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
root=$PWD

usage() { sed -n '2,4p' "$0" >&2; exit 2; }
abs() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$caller" "$1" ;; esac; }
benchmark='' reports='' out='' base=/ name=refactorbench prebuilt=''
while [ $# -gt 0 ]; do
  case "$1" in
    --benchmark) benchmark=$(abs "$2"); shift 2 ;;
    --reports) reports=$(abs "$2"); shift 2 ;;
    --out) out=$(abs "$2"); shift 2 ;;
    --base) base=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --prebuilt) prebuilt=$(abs "$2"); shift 2 ;;
    *) usage ;;
  esac
done
[ -n "$benchmark" ] && [ -n "$reports" ] && [ -n "$out" ] || usage
[ -d "$benchmark/problems" ] || { echo "$benchmark: not a benchmark checkout (no problems/)" >&2; exit 2; }
[ -d "$reports" ] || { echo "$reports: no such folder" >&2; exit 2; }
case "$base" in /*/ | /) ;; *) echo "--base must start and end with / (got $base)" >&2; exit 2 ;; esac
[[ "$name" =~ ^[A-Za-z0-9_-][A-Za-z0-9._-]*$ ]] || { echo "--name $name: not a bundle folder name" >&2; exit 2; }

if [ -n "${REFSCORE:-}" ]; then
  refscore() { "$REFSCORE" "$@"; }
else
  refscore() { cargo run --quiet --locked -p cli -- "$@"; }
fi

# 1. The site.
if [ -n "$prebuilt" ]; then
  grep -q "<base href=\"$base\"" "$prebuilt/index.html" \
    || { echo "$prebuilt was not built for --base $base" >&2; exit 2; }
  rm -rf "$out"
  cp -R "$prebuilt" "$out"
else
  # Built inside the checkout (Trunk cleans its dist folder), then copied to SITE.
  scripts/build-site.sh target/leaderboard-site "$base"
  rm -rf "$out"
  cp -R target/leaderboard-site "$out"
fi

# 2. The benchmark, the one bundle the site serves.
rm -rf "$out/bundles"
mkdir -p "$out/bundles"
refscore import --from "$benchmark" --out "$out/bundles/$name" >/dev/null
node scripts/list-bundles.mjs "$out/bundles"

# 3. The reports, each a drillable row.
added=0
for report in "$reports"/*.json; do
  [ -e "$report" ] || continue
  extra=()
  if [ -f "${report%.json}.args" ]; then
    mapfile -t extra < "${report%.json}.args"
  fi
  refscore leaderboard add "$out/leaderboard" --report "$report" --tasks "$out/bundles/$name" "${extra[@]}"
  added=$((added + 1))
done

# 4. Everything the page will read, read once by the scorer's reader.
refscore leaderboard check "$out/leaderboard"
# 5. The .br/.gz siblings again: the bundle, bundles.json and published.json changed after the build.
node scripts/compress-static.mjs "$out"
echo "leaderboard site in $out (served under $base): bundle $name, $added report(s) added" >&2
