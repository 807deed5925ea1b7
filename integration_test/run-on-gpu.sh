#!/usr/bin/env bash
# The whole GPU integration run, in one command, on the lent GPU machine,
# from the root of a copy of the repository that carries .device/ (filled
# here by integration_test/stage-for-gpu.sh):
#
#   bash integration_test/run-on-gpu.sh [all|suite|bench] [extra lit args]
#
#   suite  the lit suite (-sv): every kernel on ragged, tiny, K < 64,
#          batched and 4096^3 shapes, compute-sanitizer memcheck, racecheck
#          and synccheck per schedule, bad-argument refusals
#   bench  ws-gemm-run (rel err) then ws-gemm-bench --compare cublaslt for
#          the plain and LinCombPerRowBiasEltAct<ReLU> kernels, f16 and bf16,
#          at 4096^3, 8192x8192x1024 and 16384x4096x4096
#   all    both (default). The suite stops starting tests after
#          WSGEMM_SUITE_MAX_S seconds (default 330) so the bench still fits
#          in a 10-minute call.
#
# Logs and tables go to $OUT (else .device/out): lit.log, lit.xml,
# bench/*.log, bench.csv, results.csv, results.md. The table is printed last.
# Environment: WSGEMM_BENCH_KERNELS, WSGEMM_BENCH_SHAPES ("M,N,K ..."),
# WSGEMM_BENCH_ROUNDS (alternating rounds against cuBLASLt, default 5),
# WSGEMM_CUBLASLT (path of libcublasLt.so), WSGEMM_SUITE_MAX_S, WSGEMM_LIT_J.
set -uo pipefail
mode=${1:-all}
[ $# -gt 0 ] && shift
case "$mode" in all|suite|bench) ;; *) echo "usage: $0 [all|suite|bench] [lit args]" >&2; exit 2 ;; esac

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
dev=$repo/.device
out=${OUT:-$dev/out}
mkdir -p "$out/bench"
[ -f "$dev/STAGED.txt" ] || { echo "error: $dev is missing: run integration_test/stage-for-gpu.sh on the build machine and carry .device" >&2; exit 2; }
chmod +x "$dev/bin/"* 2>/dev/null || true
export PYTHONPATH=$dev/lit${PYTHONPATH:+:$PYTHONPATH}
[ -n "$(ls -A "$dev/lib" 2>/dev/null)" ] && export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
kernels=$dev/integration_test/kernels
py=python3
start=$(date +%s)

{
  echo "== staged"; cat "$dev/STAGED.txt"
  echo "== nvidia-smi"; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  echo "== compute-sanitizer"; (command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer) 2>&1
} > "$out/machine.txt" 2>&1
head -12 "$out/machine.txt"

suite_rc=0
if [ "$mode" != bench ]; then
  jobs=${WSGEMM_LIT_J:-$(nproc)}
  lit_args=(-sv -j "$jobs" --max-time "${WSGEMM_SUITE_MAX_S:-330}" --xunit-xml-output "$out/lit.xml")
  # Per-test timeout needs psutil.
  $py -c 'import psutil' 2>/dev/null && lit_args+=(--timeout 240)
  echo "== lit ${lit_args[*]} $* $dev/integration_test"
  $py "$dev/lit/lit.py" "${lit_args[@]}" "$@" "$dev/integration_test" > "$out/lit.log" 2>&1
  suite_rc=$?
  # Failures in full, then the summary.
  grep -E '^(FAIL|XPASS|UNRESOLVED|TIMEOUT):' "$out/lit.log" | head -60
  sed -n '/^Testing Time/,$p' "$out/lit.log"
  echo "suite: exit $suite_rc after $(( $(date +%s) - start )) s (full log: $out/lit.log)"
fi

bench_rc=0
if [ "$mode" != suite ]; then
  bench_kernels=${WSGEMM_BENCH_KERNELS:-"bench_plain_f16 bench_plain_bf16 bench_lincomb_relu_f16 bench_lincomb_relu_bf16"}
  bench_shapes=${WSGEMM_BENCH_SHAPES:-"4096,4096,4096 8192,8192,1024 16384,4096,4096"}
  cublas=${WSGEMM_CUBLASLT:-}
  if [ -z "$cublas" ] && ! ls /usr/local/cuda/lib64/libcublasLt.so* >/dev/null 2>&1; then
    cublas=$($py - <<'PY' 2>/dev/null
import glob, os, site, sys
dirs = site.getsitepackages() + [site.getusersitepackages()]
for d in dirs:
    for p in sorted(glob.glob(os.path.join(d, "nvidia", "cu*", "lib", "libcublasLt.so*")) +
                    glob.glob(os.path.join(d, "nvidia", "cublas", "lib", "libcublasLt.so*"))):
        print(p); sys.exit(0)
PY
)
  fi
  cub_args=(); [ -n "$cublas" ] && cub_args=(--cublaslt "$cublas")
  csv=$out/bench.csv; rm -f "$csv"
  : > "$out/bench/relerr.txt"
  for kname in $bench_kernels; do
    for shape in $bench_shapes; do
      IFS=, read -r M N K <<< "$shape"
      tag=${kname}_${M}x${N}x${K}
      "$dev/bin/ws-gemm-run" "$kernels/$kname.json" --m "$M" --n "$N" --k "$K" --seed 7 > "$out/bench/$tag.run.log" 2>&1
      rc=$?
      rel=$(sed -n 's/^out  *D  *[a-z0-9]*  *rel \([^ ]*\) .*/\1/p' "$out/bench/$tag.run.log" | head -1)
      echo "$kname $M $N $K ${rel:-?} $rc" >> "$out/bench/relerr.txt"
      "$dev/bin/ws-gemm-bench" "$kernels/$kname.json" --m "$M" --n "$N" --k "$K" \
        --compare cublaslt --rounds "${WSGEMM_BENCH_ROUNDS:-5}" "${cub_args[@]}" \
        --csv "$csv" > "$out/bench/$tag.bench.log" 2>&1
      brc=$?
      [ $rc -ne 0 ] || [ $brc -ne 0 ] && bench_rc=1
      echo "bench $tag: run exit $rc (rel ${rel:-?}), bench exit $brc"
    done
  done
  $py "$repo/integration_test/utils/bench_table.py" --csv "$csv" \
    --relerr "$out/bench/relerr.txt" --kernels "$kernels" \
    --out-csv "$out/results.csv" --out-md "$out/results.md" > /dev/null || bench_rc=1
fi

echo "total $(( $(date +%s) - start )) s; logs in $out"
if [ "$mode" != suite ] && [ -f "$out/results.md" ]; then
  [ "$mode" = all ] && echo "suite exit: $suite_rc"
  cat "$out/results.md"
fi
[ $suite_rc -eq 0 ] && [ $bench_rc -eq 0 ]
