#!/usr/bin/env bash
# Times D += A*B with the reducing TMA store (epi.store ... reduce add)
# against the same GEMM reading D as C (D = A*B + 1*D; ws-gemm-bench
# --c-is-d points C at D), bf16 and f32 D, on the lent GPU machine from a
# copy of the repository carrying .device/ (integration_test/
# stage-for-gpu.sh):
#
#   bash integration_test/bench-reduce-store.sh ["M,N,K" ...]
#
# Each line: kernel, shape, median ms and TFLOP/s over --rounds 5 (the
# kernels: integration_test/kernels/reduce_store.mlir, bench_rs_*).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dev=$repo/.device
bench=$dev/bin/ws-gemm-bench
k=$dev/integration_test/kernels
[ -x "$bench" ] || { echo "error: $bench is missing: run integration_test/stage-for-gpu.sh" >&2; exit 2; }
[ -n "$(ls -A "$dev/lib" 2>/dev/null)" ] && export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=("8192,8192,1024" "4096,4096,4096" "8192,8192,8192" "16384,4096,1024")
printf "%-22s %-18s %s\n" kernel shape "median (ours)"
for s in "${shapes[@]}"; do
  IFS=, read -r M N K <<< "$s"
  for t in bf16 f32; do
    for v in add beta1; do
      extra=(); [ $v = beta1 ] && extra=(--c-is-d)
      line=$("$bench" "$k/bench_rs_${v}_$t.json" --m "$M" --n "$N" --k "$K" \
             --rounds 5 "${extra[@]}" 2>&1 | grep -E "^(ours|median)|WARNING|error" | head -2 | tr '\n' ' ')
      printf "%-22s %-18s %s\n" "bench_rs_${v}_$t" "${M}x${N}x${K}" "$line"
    done
  done
done
