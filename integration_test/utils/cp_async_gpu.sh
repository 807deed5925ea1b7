#!/usr/bin/env bash
# The cp.async producers' GPU run (issue 28), on the lent GPU machine from a
# copy of the repository carrying .device/: the cp.async lit tests
# (run/cpa_*, run/bench_cpa_*, sanitizer-cp-async) and ws-gemm-bench against
# cuBLASLt on unaligned problems (odd lda, odd M with an M-major A) and on
# aligned ones (the 16-byte cp.async kernel and the TMA kernel of the same
# config). Writes $OUT/suite.txt, $OUT/cpa.csv, $OUT/bench.txt.
#   bash integration_test/utils/cp_async_gpu.sh [suite|bench|all] [rounds]
set -uo pipefail
mode=${1:-all}
rounds=${2:-5}
repo=$(cd "$(dirname "$0")/../.." && pwd)
dev=$repo/.device
out=${OUT:-$dev/out}
mkdir -p "$out"
k=$dev/integration_test/kernels
chmod +x "$dev/bin/"* 2>/dev/null || true
[ -n "$(ls -A "$dev/lib" 2>/dev/null)" ] && export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ "$mode" != bench ]; then
  WSGEMM_SUITE_MAX_S=${WSGEMM_SUITE_MAX_S:-240} OUT=$out bash "$repo/integration_test/run-on-gpu.sh" suite \
    --filter 'cpa|cp-async' > "$out/suite.txt" 2>&1
  echo "suite exit $?"; grep -E '^(FAIL|TIMEOUT|UNRESOLVED)|Passed|Failed' "$out/suite.txt" | head -30
fi
if [ "$mode" != suite ]; then
  B=$dev/bin/ws-gemm-bench
  csv=$out/cpa.csv; rm -f "$csv"
  : > "$out/bench.txt"
  one() { # tag kernel M N K [flags]
    local tag=$1 kern=$2 M=$3 N=$4 K=$5; shift 5
    "$B" "$k/$kern.json" --m "$M" --n "$N" --k "$K" "$@" --compare cublaslt \
      --rounds "$rounds" --csv "$csv" > "$out/bench_$tag.log" 2>&1
    echo "$tag rc=$? $(grep -iE 'ratio|median' "$out/bench_$tag.log" | tail -2 | tr '\n' ' ')" >> "$out/bench.txt"
  }
  # cuBLASLt refuses A at a base 2 or 8 bytes off 16 ("the requested
  # functionality is not supported", status 15): ours alone there.
  alone() { # tag kernel M N K [flags]
    local tag=$1 kern=$2 M=$3 N=$4 K=$5; shift 5
    "$B" "$k/$kern.json" --m "$M" --n "$N" --k "$K" "$@" --rounds "$rounds" \
      > "$out/bench_$tag.log" 2>&1
    echo "$tag rc=$? $(grep -iE 'median' "$out/bench_$tag.log" | tail -1)" >> "$out/bench.txt"
  }
  S=8192
  if [ -n "${CPA_ONLY:-}" ]; then
    for t in $CPA_ONLY; do case $t in
      odd_lda_a2) one odd_lda_a2 bench_cpa_ak_a2 $S $S $S --pad-a 1 ;;
      lda8_a2) one lda8_a2 bench_cpa_ak_a2 $S $S $S --pad-a 4 ;;
      oddM) one oddM_mmajor_a2 bench_cpa_am_a2 8191 $S $S ;;
      offset) alone offset_a_a2 bench_cpa_ak_a2 $S $S $S --offset-a 1
              alone offset_a_a8 bench_cpa_ak_a8 $S $S $S --offset-a 4
              alone aligned_a8_alone bench_cpa_ak_a8 $S $S $S --pad-a 4 ;;
    esac; done
    cat "$out/bench.txt"; exit 0
  fi
  one odd_lda_a2 bench_cpa_ak_a2 $S $S $S --pad-a 1
  one lda8_a8 bench_cpa_ak_a8 $S $S $S --pad-a 4
  one lda8_a2 bench_cpa_ak_a2 $S $S $S --pad-a 4
  one oddM_mmajor_a2 bench_cpa_am_a2 8191 $S $S
  one aligned_mmajor_tma bench_cpa_mmajor_tma_ref $S $S $S
  one aligned_mmajor_a2 bench_cpa_am_a2 $S $S $S
  one aligned_a16 bench_cpa_ak_a16 $S $S $S
  one aligned_tma bench_cpa_tma_ref $S $S $S
  one aligned_a16_4k bench_cpa_ak_a16 4096 4096 4096
  one aligned_tma_4k bench_cpa_tma_ref 4096 4096 4096
  alone offset_a_a2 bench_cpa_ak_a2 $S $S $S --offset-a 1
  alone offset_a_a8 bench_cpa_ak_a8 $S $S $S --offset-a 4
  cat "$out/bench.txt"
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv >> "$out/bench.txt" 2>&1
fi
