#!/usr/bin/env bash
# Times A copied by the cp.async producer (load_a = cp_async, kernels/
# cp_async.mlir, bench_cpa_*) against cuBLASLt on the same problem (same
# pointers and strides) and the TMA kernels of the same config, on the lent
# GPU machine from a copy of the repository carrying .device/
# (integration_test/stage-for-gpu.sh):
#
#   bash integration_test/bench-cp-async.sh [CSV]
#
# Shapes: 8192^3 with an odd lda (2-byte copies realigned in registers),
# 8191 x 8192 x 8192 with an M-major A (odd M), lda = K + 4 (8-byte
# cp.async); then the 2-byte kernel on aligned A against TMA. Rounds
# alternate ours and cuBLASLt (--rounds 3); the SM clock is NVML's. CSV
# (default bench-cp-async.csv) gets a row per run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dev=$repo/.device
bench=$dev/bin/ws-gemm-bench
k=$dev/integration_test/kernels
csv=${1:-bench-cp-async.csv}
[ -x "$bench" ] || { echo "error: $bench is missing: run integration_test/stage-for-gpu.sh" >&2; exit 2; }
[ -n "$(ls -A "$dev/lib" 2>/dev/null)" ] && export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
run() { # kernel M N K [flags...]
  local kern=$1 M=$2 N=$3 K=$4; shift 4
  echo "== $kern ${M}x${N}x${K} $*"
  "$bench" "$k/$kern.json" --m "$M" --n "$N" --k "$K" --compare cublaslt \
    --rounds 3 --iters 30 --csv "$csv" "$@" 2>&1 | grep -vE "^\s*$" | tail -4
}
# Unaligned A: only the copying kernels take it.
run bench_cpa_ak_a2 8192 8192 8192 --pad-a 1
run bench_cpa_am_a2 8191 8192 8192
run bench_cpa_ak_a8 8192 8192 8192 --pad-a 4
run bench_cpa_ak_a2 8192 8192 8192 --offset-a 1
# Aligned A: what the copies cost against TMA.
for kern in bench_cpa_tma_ref bench_cpa_ak_a2 bench_cpa_mmajor_tma_ref bench_cpa_am_a2; do
  run $kern 8192 8192 8192
done
