#!/usr/bin/env bash
#===- fuzz/run-fuzz.sh - Run ws-gemm's fuzz targets for a while -----------===#
#
#   run-fuzz.sh --bin DIR --seeds DIR --work DIR [--seconds S]
#               [--runs N] [--seed R] [--timeout T] TARGET...
#
# TARGET is parse, pipeline or manifest (wsgemm-fuzz-TARGET in --bin). Each
# runs for S seconds (default 60) or N executions, whichever ends first; with
# --seed R the inputs it tries are the same on every run of the same code
# (the CI smoke: a failure there reproduces), from the seed corpus
# (--seeds/mlir or --seeds/manifest, read only) and a corpus it grows in
# --work/corpus/TARGET, with fuzz/dict/*.dict; crashes, leaks and slow
# inputs (over T seconds of wall time, default 30; raise it on a loaded
# machine) land in --work/artifacts/TARGET-*. Prints one line per target
# (executions, exec/s, coverage, corpus size, crashes) and exits 1 when a
# target found anything. docs/fuzzing.md has the long run.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin= seeds= work= seconds=60 runs=-1 rseed=0 timeout=30 targets=()
while (($#)); do
  case "$1" in
    --bin) bin="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --seed) rseed="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    -h|--help) sed -n '3,17p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [[ -z "$bin" || -z "$seeds" || -z "$work" || ${#targets[@]} -eq 0 ]]; then
  echo "usage: run-fuzz.sh --bin DIR --seeds DIR --work DIR [--seconds S] TARGET..." >&2
  exit 2
fi

status=0
for t in "${targets[@]}"; do
  case "$t" in
    parse|pipeline) seed="$seeds/mlir"; dict="$here/dict/mlir.dict" ;;
    manifest) seed="$seeds/manifest"; dict="$here/dict/manifest.dict" ;;
    *) echo "run-fuzz.sh: unknown target '$t'" >&2; exit 2 ;;
  esac
  exe="$bin/wsgemm-fuzz-$t"
  corpus="$work/corpus/$t"
  artifacts="$work/artifacts"
  log="$work/$t.log"
  mkdir -p "$corpus" "$artifacts"
  # Leaks are reported at exit by LeakSanitizer: MLIR's global registries
  # are not leaks; detect_leaks stays on for our code through -detect_leaks.
  ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$exe" -max_total_time="$seconds" -runs="$runs" -seed="$rseed" -timeout="$timeout" \
      -rss_limit_mb=4096 -max_len=16384 -dict="$dict" \
      -artifact_prefix="$artifacts/$t-" -print_final_stats=1 \
      "$corpus" "$seed" >"$log" 2>&1
  rc=$?
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  speed=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+')
  size=$(ls "$corpus" | wc -l)
  echo "fuzz $t: ${execs:-?} executions (${speed:-?}/s), coverage ${cov:-?}," \
       "corpus $size, exit $rc"
  if ((rc != 0)); then
    status=1
    echo "fuzz $t: FOUND A BUG; log $log, input(s):" >&2
    ls "$artifacts"/"$t"-* >&2 2>/dev/null
    grep -m 30 -E 'ERROR|SUMMARY|runtime error|#[0-9]+ 0x' "$log" >&2
  fi
done
exit $status
