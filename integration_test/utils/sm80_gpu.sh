#!/usr/bin/env bash
# The sm_80 kernels' GPU run (issue 28, Ampere/Ada half), on the lent H100
# from a copy of the repository carrying .device/ (the kernels' sm_80 PTX
# assembled for sm_90a): the lit tests (run/s80_*, sanitizer-sm80) and
# ws-gemm-bench against cuBLASLt, with the SM clock sampled by nvidia-smi
# (NVML) while timing. Writes $OUT/suite.txt, $OUT/sm80.csv,
# $OUT/bench.txt, $OUT/clocks.csv.
#   bash integration_test/utils/sm80_gpu.sh [suite|bench|all] [rounds]
# Environment: S80_KERNELS (kernels to time), S80_SHAPES ("M,N,K ...").
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
  WSGEMM_SUITE_MAX_S=${WSGEMM_SUITE_MAX_S:-200} OUT=$out bash "$repo/integration_test/run-on-gpu.sh" suite \
    --filter 's80_|sm80' > "$out/suite.txt" 2>&1
  echo "suite exit $?"; grep -E '^(FAIL|TIMEOUT|UNRESOLVED)|Passed|Failed' "$out/suite.txt" | head -30
fi
if [ "$mode" != suite ]; then
  B=$dev/bin/ws-gemm-bench
  csv=$out/sm80.csv; rm -f "$csv"
  : > "$out/bench.txt"
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 200 > "$out/clocks.csv" 2>/dev/null &
  smi=$!
  for kern in ${S80_KERNELS:-s80_coop_plain}; do
    for shape in ${S80_SHAPES:-4096,4096,4096 8192,8192,8192}; do
      IFS=, read -r M N K <<< "$shape"
      log=$out/bench_${kern}_${M}x${N}x${K}.log
      "$B" "$k/$kern.json" --m "$M" --n "$N" --k "$K" --compare cublaslt \
        --rounds "$rounds" --csv "$csv" > "$log" 2>&1
      echo "$kern ${M}x${N}x${K} rc=$? $(grep -iE 'ratio|median|TFLOP' "$log" | tail -3 | tr '\n' ' ')" >> "$out/bench.txt"
    done
  done
  kill "$smi" 2>/dev/null
  echo "SM clock MHz (min/median/max over the timing):"
  awk -F', ' 'NR>1 {print $2+0}' "$out/clocks.csv" | sort -n | awk '{a[NR]=$1} END {if (NR) print a[1], a[int((NR+1)/2)], a[NR]}'
  cat "$out/bench.txt"
fi
