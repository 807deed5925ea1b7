#!/usr/bin/env bash
# Times the sm_80 kernels (kernels/sm80*.mlir: PTX for sm_80 assembled for
# sm_90a) against CUTLASS 2.x's own sm_80 GEMM built for the same card
# (integration_test/cutlass-sm80/), on the lent GPU machine from a copy of
# the repository carrying .device/ (integration_test/stage-for-gpu.sh):
#
#   bash integration_test/bench-sm80.sh [LOG]
#
# One process per measurement (ws-gemm-bench --rounds 1 --iters 30: the
# median of 30 launches, each timed by an event pair), alternating every
# kernel and CUTLASS config in each of ROUNDS rounds (default 3), so the
# SM clock's drift falls on all of them alike; NVML's SM clock on every
# line. Environment: ROUNDS, SHAPES ("M,N,K ..."), KERNELS (ours), OLD
# (a directory of the same kernels from another build: timed beside them
# as old/NAME), CUTLASS (the harness binary, default
# .device/exp/cutlass_sm80_bench; skipped where missing), CONFIGS (its
# configs). LOG (default bench-sm80.log) gets every line.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dev=$repo/.device
bench=$dev/bin/ws-gemm-bench
k=$dev/integration_test/kernels
log=${1:-bench-sm80.log}
rounds=${ROUNDS:-3}
shapes=${SHAPES:-"4096,4096,4096 8192,8192,1024"}
kernels=${KERNELS:-"s80_plain s80_copyout_plain s80_ws_bf16_plain s80_coop_plain s80_coop_bf16_plain s80_ms_plain"}
cutlass=${CUTLASS:-$dev/exp/cutlass_sm80_bench}
configs=${CONFIGS:-"cb_f16_128x128x64_s4 cb_bf16_128x128x64_s4 cb_f16_128x256x64_s3"}
[ -x "$bench" ] || { echo "error: $bench is missing: run integration_test/stage-for-gpu.sh" >&2; exit 2; }
[ -n "$(ls -A "$dev/lib" 2>/dev/null)" ] && export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -x "$cutlass" ] || { echo "note: no CUTLASS harness at $cutlass: ours only" >&2; configs=""; }
: >"$log"
for r in $(seq 1 "$rounds"); do
  for s in $shapes; do
    IFS=, read -r M N K <<<"$s"
    for kern in $kernels; do
      for dir in "$k" ${OLD:+"$OLD"}; do
        name=$kern; [ "$dir" = "$k" ] || name=old/$kern
        line=$("$bench" "$dir/$kern.json" --m "$M" --n "$N" --k "$K" \
          --rounds 1 --iters 30 2>&1 | grep 'ours:' | tail -1)
        echo "round $r $name ${M}x${N}x${K} ${line:-FAILED}" | tee -a "$log"
      done
    done
    for cfg in $configs; do
      line=$("$cutlass" "$cfg" "$M" "$N" "$K" --iters 30 2>&1 | grep -v '^check' | tail -1)
      echo "round $r ${line:-$cfg ${M}x${N}x${K} FAILED}" | tee -a "$log"
    done
  done
done
