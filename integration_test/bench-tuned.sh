#!/usr/bin/env bash
# The README's table with the kernel chosen per shape: the four bench
# kernels (kernels/bench.mlir: plain and LinCombPerRowBiasEltAct<ReLU>, f16
# and bf16) swept into families, tuned on the table's shapes, and the
# tuned choice timed against cuBLASLt in the same process.
#
#   here:     integration_test/stage-for-gpu.sh
#             integration_test/bench-tuned.sh sweep   # into .device/bench-families
#   GPU:      integration_test/bench-tuned.sh run     # needs .device carried
#
# `run` is `tune` then `bench`; the two fit one 10-minute GPU call each:
# `tune` leaves the tables in $OUT (tune_<kernel>.json, .log), and `bench
# DIR` times the choices of the tables in DIR (carry them there).
#
# Environment: BENCH_SHAPES (MxNxK,..., smallest first: each variant is
# verified on the first), BENCH_KERNELS, SWEEP_ARGS (ws-gemm-sweep axes),
# TUNE_BUDGET_S (per family, default 90), BENCH_ROUNDS (default 5).
# Output in $OUT (else .device/out): tuned.csv (one row per kernel and
# shape: the chosen variant, TFLOP/s, clock, ratio to cuBLASLt) and
# tuned.tar.gz (the tuning tables, the tuner's and the bench's logs: the
# device tool brings back at most 8 files).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dev=$repo/.device
fams=$dev/bench-families
shapes=${BENCH_SHAPES:-4096x4096x4096,8192x8192x1024,2048x8192x8192,16384x4096x4096,8192x8192x8192}
kernels=${BENCH_KERNELS:-bench_lincomb_relu_f16 bench_lincomb_relu_bf16 bench_plain_f16 bench_plain_bf16}
sweep_args=${SWEEP_ARGS:---tiles 128x256,256x128,128x128 --schedules cooperative,pingpong --clusters 1x1,2x1,1x2 --swizzles 1,4}

case "${1:-}" in
sweep)
  sweep=${WSGEMM_BUILD_DIR:-$repo/build}/bin/ws-gemm-sweep
  [ -d "$dev" ] || { echo "error: run integration_test/stage-for-gpu.sh first" >&2; exit 2; }
  rm -rf "$fams"
  for k in $kernels; do
    # shellcheck disable=SC2086
    "$sweep" "$repo/integration_test/kernels/bench.mlir" --kernel "$k" \
      -o "$fams/$k" $sweep_args | tail -1 || exit 1
  done
  du -sh "$fams"
  ;;
tune|bench|run)
  final=${OUT:-$dev/out}; mkdir -p "$final"
  out=$dev/out-tuned; rm -rf "$out"; mkdir -p "$out"
  chmod +x "$dev/bin/"*
  tables=$out
  if [ "$1" = bench ]; then
    tables=${2:?usage: $0 bench DIR (the tune_<kernel>.json tables)}
  else
    for k in $kernels; do
      t0=$(date +%s)
      "$dev/bin/ws-gemm-tune" "$fams/$k/family.json" --shapes "$shapes" \
        -o "$out/tune_$k.json" --iters 30 --warmup 5 --rounds 3 \
        --budget-s "${TUNE_BUDGET_S:-90}" > "$out/tune_$k.log" 2>&1
      echo "tune $k: exit $? in $(( $(date +%s) - t0 )) s"
      grep -E "^shape .*(winner|NO RESULT|NOT TUNED)|<- winner" "$out/tune_$k.log"
    done
  fi
  if [ "$1" != tune ]; then
    cub=${WSGEMM_CUBLASLT:-$(ls /usr/local/cuda/lib64/libcublasLt.so* 2>/dev/null | head -1)}
    for k in $kernels; do
      for s in ${shapes//,/ }; do
        IFS=x read -r M N K <<< "$s"
        "$dev/bin/ws-gemm-bench" "$fams/$k/family.json" --tuning "$tables/tune_$k.json" \
          --m "$M" --n "$N" --k "$K" --compare cublaslt --cublaslt "$cub" \
          --rounds "${BENCH_ROUNDS:-5}" --csv "$out/tuned.csv" >> "$out/tuned.log" 2>&1 \
          || echo "bench $k $s: FAILED (see tuned.log)"
        grep -E "chose v|^ours:|^ratio" "$out/tuned.log" | tail -3
      done
    done
    cp "$out/tuned.csv" "$final/" 2>/dev/null
  fi
  tar -C "$out" -czf "$final/tuned.tar.gz" .
  ;;
*) echo "usage: $0 sweep|tune|bench DIR|run" >&2; exit 2 ;;
esac
