#!/usr/bin/env bash
# Times C copied by the epilogue-load warp (load_c = cp_async, kernels/
# cp_async_c.mlir, bench_cpc_*) against cuBLASLt on the same problem
# (D = A*B + C, same pointers and strides) and against the same kernel
# with C by TMA, on the lent GPU machine from a copy of the repository
# carrying .device/ (integration_test/stage-for-gpu.sh):
#
#   bash integration_test/bench-cp-async-c.sh [CSV]
#
# Shapes: an LM head (N = 50257, C's rows packed: 100514 bytes, which TMA
# cannot describe) and C sliced 2 bytes off 16; then aligned shapes where
# every variant runs. Rounds alternate ours and cuBLASLt (--rounds 3);
# the SM clock is NVML's. CSV (default bench-cp-async-c.csv) gets a row
# per run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dev=$repo/.device
bench=$dev/bin/ws-gemm-bench
k=$dev/integration_test/kernels
csv=${1:-bench-cp-async-c.csv}
[ -x "$bench" ] || { echo "error: $bench is missing: run integration_test/stage-for-gpu.sh" >&2; exit 2; }
[ -n "$(ls -A "$dev/lib" 2>/dev/null)" ] && export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
run() { # kernel M N K [flags...]
  local kern=$1 M=$2 N=$3 K=$4; shift 4
  echo "== $kern ${M}x${N}x${K} $*"
  "$bench" "$k/$kern.json" --m "$M" --n "$N" --k "$K" --compare cublaslt \
    --rounds 3 --iters 30 --csv "$csv" "$@" 2>&1 | grep -vE "^\s*$" | tail -6
}
# Unaligned C: only the copying kernels take it.
run bench_cpc_c2 4096 50257 4096
run bench_cpc_c2 8192 8192 8192 --offset-c 1
run bench_cpc_c2 8192 8191 4096
# Aligned C: what the copies cost against TMA.
for kern in bench_cpc_tma_ref bench_cpc_c16 bench_cpc_c2; do
  run $kern 8192 8192 4096
done
