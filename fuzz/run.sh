#!/usr/bin/env bash
# Builds and runs the libFuzzer targets with the stable toolchain (no cargo-fuzz, no nightly):
# libfuzzer-sys compiles libFuzzer itself (needs a C++ compiler, g++ is enough), and rustc's
# stable `-C passes=sancov-module` with `-C llvm-args=-sanitizer-coverage-*` adds the coverage
# counters and comparison hooks libFuzzer reads. The build goes to
# target/x86_64-unknown-linux-gnu/fuzz/ (profile `fuzz`: optimised, debug assertions and overflow
# checks on), away from the ordinary builds.
#
#   fuzz/run.sh build
#   fuzz/run.sh run TARGET SECONDS [libFuzzer options]   # corpus: fuzz/work/TARGET (seeded from fuzz/corpus/TARGET)
#   fuzz/run.sh loop TARGET SECONDS [options]            # the same, started again after each finding
#   fuzz/run.sh minimize TARGET                          # merge fuzz/work/TARGET into a minimal fuzz/corpus/TARGET
#   fuzz/run.sh repro TARGET FILE                        # run one input
set -euo pipefail
cd "$(dirname "$0")/.."
TRIPLE=x86_64-unknown-linux-gnu
BIN="${CARGO_TARGET_DIR:-target}/$TRIPLE/fuzz/fuzz"
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# Largest input per target: patches and logs need room, programs and sources less.
max_len() { case "$1" in trajectory|submissions|bundle) echo 16384 ;; *) echo 4096 ;; esac; }

build() {
  cargo build --locked -p fuzz --features libfuzzer --bin fuzz --target "$TRIPLE" \
    --config 'profile.fuzz.inherits="dev"' --config 'profile.fuzz.opt-level=2' \
    --config 'profile.fuzz.debug="line-tables-only"' --config 'profile.fuzz.incremental=false' \
    --profile fuzz
}

case "${1:-}" in
  build) build ;;
  run)
    t=$2 secs=$3; shift 3
    mkdir -p "fuzz/work/$t" "fuzz/artifacts/$t"
    [ -d "fuzz/corpus/$t" ] && cp -n "fuzz/corpus/$t"/* "fuzz/work/$t"/ 2>/dev/null || true
    FUZZ_TARGET=$t nice -n 19 "$BIN" "fuzz/work/$t" -max_total_time="$secs" -max_len="$(max_len "$t")" \
      -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" "$@"
    ;;
  loop)
    # `run` again after each finding (saved in fuzz/artifacts/TARGET) until SECONDS have passed:
    # cheaper than libFuzzer's -fork mode, whose short jobs each restart the process (and git or
    # python3 with it).
    t=$2 end=$(( $(date +%s) + $3 )); shift 3
    while [ "$(date +%s)" -lt "$end" ]; do
      "$0" run "$t" $(( end - $(date +%s) )) "$@" || true
    done
    ;;
  minimize)
    t=$2
    rm -rf "fuzz/corpus/$t.new" && mkdir -p "fuzz/corpus/$t.new"
    FUZZ_TARGET=$t nice -n 19 "$BIN" -merge=1 -max_len="$(max_len "$t")" -timeout=20 \
      "fuzz/corpus/$t.new" "fuzz/work/$t"
    rm -rf "fuzz/corpus/$t" && mv "fuzz/corpus/$t.new" "fuzz/corpus/$t"
    ;;
  repro) FUZZ_TARGET=$2 "$BIN" "$3" ;;
  *) sed -n '2,14p' "$0"; exit 2 ;;
esac
