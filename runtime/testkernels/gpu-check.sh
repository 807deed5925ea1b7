#!/bin/bash
# GPU checks of the runtime, ws-gemm-run and ws-gemm-bench with the
# hand-written test kernels (run on the GPU machine from the repo root):
#   runtime/testkernels/gpu-check.sh BUILD_DIR [OUT_DIR]
# Every line of the summary should read PASS; a summary table is printed last.
set -u
B=${1:?build dir}
OUT=${2:-/tmp/wsgemm-gpu-check}
mkdir -p "$OUT"
RUN=$B/bin/ws-gemm-run
BENCH=$B/bin/ws-gemm-bench
T=$B/runtime/testkernels
SUMMARY=$OUT/summary.txt
: > "$SUMMARY"

# check NAME EXPECTED_RC CMD...: runs CMD, logs it, records PASS/FAIL.
check() {
  local name=$1 want=$2
  shift 2
  echo "=== $name: $*" | tee -a "$OUT/log.txt"
  "$@" 2>&1 | tee -a "$OUT/log.txt"
  local rc=${PIPESTATUS[0]}
  if [ "$rc" = "$want" ]; then
    echo "PASS $name (rc $rc)" >> "$SUMMARY"
  else
    echo "FAIL $name (rc $rc, wanted $want)" >> "$SUMMARY"
  fi
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv | tee -a "$OUT/log.txt"
M=$T/test_gemm.json
P=$T/test_gemm_persistent.json
check small          0 $RUN $M --m 256 --n 256 --k 128
check ragged         0 $RUN $M --m 1000 --n 520 --k 200 --seed 2
check batched        0 $RUN $M --m 300 --n 136 --k 72 --l 3 --seed 3
check beta0-skips-C  0 $RUN $M --m 200 --n 264 --k 96 --scalar beta=0
check padded-ld      0 $RUN $M --m 192 --n 200 --k 64 --pad 8 --seed 4
check sampled        0 $RUN $M --m 2000 --n 1032 --k 520 --l 2 --seed 5
check persistent     0 $RUN $P --m 1000 --n 520 --k 200 --l 2 --seed 6
check persistent-big 0 $RUN $P --m 4096 --n 4096 --k 256 --seed 7
for mode in misaligned stride dtype null; do
  check bad-arg-$mode 0 $RUN $M --m 256 --n 256 --k 128 --bad-arg $mode
done
# The checker must catch a kernel that does not compute the manifest's EVT.
sed 's/"op": "relu"/"op": "gelu"/' $M > $T/test_gemm_wrong_evt.json
check wrong-evt-caught 1 $RUN $T/test_gemm_wrong_evt.json --m 256 --n 256 --k 128
check bench          0 $BENCH $M --m 4096 --n 4096 --k 1024 --iters 30 --warmup 5 --compare cublaslt --csv "$OUT/bench.csv"
check bench-persist  0 $BENCH $P --m 4096 --n 4096 --k 1024 --iters 30 --warmup 5 --compare cublaslt --csv "$OUT/bench.csv"
echo
cat "$OUT/bench.csv" 2>/dev/null
echo
cat "$SUMMARY"
! grep -q FAIL "$SUMMARY"
