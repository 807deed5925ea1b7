#!/usr/bin/env bash
# Times the launch-time tile order on the lent GPU machine: two kernels
# compiled without a raster or swizzle (kernels/tile_order.mlir:
# to_plain_bf16, cooperative 128x128, and to_plain_bf16_128x256) over shapes
# of real models, each at raster {along_m, along_n} x swizzle {1, 2, 4, 8}
# and at the runtime's own choice (chooseTileOrder,
# runtime/lib/TileOrder.cpp), one ws-gemm-bench process per kernel and
# shape (--tile-orders all: the orders interleaved within each round, the
# same rotating buffers). The CSV calibrates the choice.
#
# From the root of a copy of the repository that carries .device/ (filled
# by integration_test/stage-for-gpu.sh on the build machine):
#
#   bash integration_test/tile-order-sweep.sh [CSV]
#
# CSV (default $OUT/tile-order.csv, else .device/out/tile-order.csv):
#   kernel,M,N,K,order,source,ms,tflops
# with order along_m:S / along_n:S and source `runtime` on the runtime's
# choice (also listed among the forced orders it equals). A summary per
# shape (the runtime's choice against the best order and against CUTLASS's
# heuristic with swizzle 1) is printed last and written beside the CSV
# (tile-order-summary.txt).
#
# Shapes: M in {512, 2048, 8192, 16384} x (N, K) in {(4096, 4096),
# (14336, 4096), (4096, 14336), (28672, 8192), (8192, 28672), (128256,
# 4096)}, less the LM head (N = 128256) at M >= 8192 (a 2-4 GiB D): 22
# shapes x 2 kernels, about 3 minutes on an H100. No run starts after
# WSGEMM_SWEEP_MAX_S seconds (default 220); those left are listed.
# Environment: WSGEMM_SWEEP_KERNELS (default "to_plain_bf16
# to_plain_bf16_128x256"), WSGEMM_SWEEP_SHAPES ("M,N,K ..." instead of the
# grid above), WSGEMM_SWEEP_ROUNDS (default 3), WSGEMM_SWEEP_MAX_S.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
dev=$repo/.device
out=${OUT:-$dev/out}
mkdir -p "$out/tile-order"
csv=${1:-$out/tile-order.csv}
summary=$(dirname "$csv")/tile-order-summary.txt
bench=$dev/bin/ws-gemm-bench
kernels=$dev/integration_test/kernels
[ -x "$bench" ] || chmod +x "$dev/bin/"* 2>/dev/null || true
[ -x "$bench" ] || { echo "error: no $bench: run integration_test/stage-for-gpu.sh on the build machine and carry .device" >&2; exit 2; }
[ -n "$(ls -A "$dev/lib" 2>/dev/null)" ] && export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

sweep_kernels=${WSGEMM_SWEEP_KERNELS:-"to_plain_bf16 to_plain_bf16_128x256"}
rounds=${WSGEMM_SWEEP_ROUNDS:-3}
max_s=${WSGEMM_SWEEP_MAX_S:-220}
for k in $sweep_kernels; do
  [ -f "$kernels/$k.json" ] || { echo "error: no $kernels/$k.json (stage the integration kernels: ninja ws-gemm-integration-kernels, then stage-for-gpu.sh)" >&2; exit 2; }
done

if [ -n "${WSGEMM_SWEEP_SHAPES:-}" ]; then
  shapes=$WSGEMM_SWEEP_SHAPES
else
  shapes=""
  for m in 512 2048 8192 16384; do
    for nk in 4096,4096 14336,4096 4096,14336 28672,8192 8192,28672 128256,4096; do
      [ "$m" -ge 8192 ] && [ "${nk%,*}" = 128256 ] && continue
      shapes="$shapes $m,$nk"
    done
  done
fi

# Launches per timed block: about 20 ms of work at 600 TFLOP/s, 10 to 100.
iters_for() {
  awk -v m="$1" -v n="$2" -v k="$3" 'BEGIN {
    ms = 2 * m * n * k / 600e9; it = int(20 / ms);
    if (it < 10) it = 10; if (it > 100) it = 100; print it }'
}

echo "kernel,M,N,K,order,source,ms,tflops" > "$csv"
start=$(date +%s)
nshapes=$(echo $shapes | wc -w)
total=$(( nshapes * $(echo $sweep_kernels | wc -w) ))
i=0
skipped=""
failed=""
for shape in $shapes; do
  IFS=, read -r M N K <<< "$shape"
  for k in $sweep_kernels; do
    i=$((i + 1))
    elapsed=$(( $(date +%s) - start ))
    if [ "$elapsed" -ge "$max_s" ]; then
      skipped="$skipped $k@$shape"
      continue
    fi
    iters=$(iters_for "$M" "$N" "$K")
    log=$out/tile-order/$k-${M}x${N}x${K}.log
    printf '[%2d/%d] %-22s %6s x %6s x %5s  (%3d s) ' "$i" "$total" "$k" "$M" "$N" "$K" "$elapsed"
    "$bench" "$kernels/$k.json" --m "$M" --n "$N" --k "$K" \
      --tile-orders all --rounds "$rounds" --iters "$iters" --warmup 3 \
      > "$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q '^tile-order ' "$log"; then
      echo "FAILED (exit $rc; $log)"
      tail -3 "$log" | sed 's/^/    /'
      failed="$failed $k@$shape"
      continue
    fi
    # tile-order raster=along_m swizzle=8 source=forced ms=0.4321 tflops=612.3
    awk -v k="$k" -v M="$M" -v N="$N" -v K="$K" '
      /^tile-order / {
        for (f = 2; f <= NF; ++f) { split($f, kv, "="); v[kv[1]] = kv[2] }
        printf "%s,%s,%s,%s,%s:%s,%s,%s,%s\n", k, M, N, K, v["raster"],
               v["swizzle"], v["source"], v["ms"], v["tflops"]
      }' "$log" >> "$csv"
    grep -q 'WARNING' "$log" && echo -n "(NaN in D: see $log) "
    grep '^tile-order ' "$log" | awk '
      $4 == "source=runtime" { split($2, r, "="); split($3, s, "=");
        split($6, t, "="); rt = t[2]; ro = r[2] ":" s[2] }
      { split($6, t, "="); if (t[2] + 0 > best) { best = t[2] + 0;
        split($2, r, "="); split($3, s, "="); bo = r[2] ":" s[2] } }
      END { printf "runtime %s %.1f TFLOP/s, best %s %.1f\n", ro, rt, bo, best }'
  done
done

# Per kernel and shape: the runtime's choice against the best order and
# against CUTLASS's heuristic with swizzle 1 (what these kernels did before
# the tile order became a launch argument).
awk -F, 'function ceil(x) { return x == int(x) ? x : int(x) + 1 }
  NR > 1 {
    key = $1 "," $2 "x" $3 "x" $4
    if (!(key in best) || $8 + 0 > best[key]) { best[key] = $8 + 0; bo[key] = $5 }
    if ($6 == "runtime") { rt[key] = $8 + 0; ro[key] = $5 }
    tn = $1 ~ /128x256/ ? 256 : 128
    co = (ceil($3 / tn) > ceil($2 / 128) ? "along_m" : "along_n") ":1"
    if ($6 == "forced" && $5 == co) cu[key] = $8 + 0
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
  }
  END {
    printf "%-40s %-10s %7s %-10s %7s %7s %6s %6s\n", "kernel,shape", "runtime",
           "TFLOP/s", "best", "TFLOP/s", "cutlass", "r/best", "r/cutl"
    for (i = 1; i <= n; ++i) {
      key = order[i]
      r = best[key] > 0 ? rt[key] / best[key] : 0
      c = cu[key] > 0 ? rt[key] / cu[key] : 0
      printf "%-40s %-10s %7.1f %-10s %7.1f %7.1f %6.3f %6.3f\n", key, ro[key],
             rt[key], bo[key], best[key], cu[key], r, c
      if (r > 0) { sb += log(r); ++nb }
      if (c > 0) { sc += log(c); ++nc }
    }
    if (nb) printf "geomean runtime/best over %d: %.3f\n", nb, exp(sb / nb)
    if (nc) printf "geomean runtime/cutlass (heuristic, swizzle 1) over %d: %.3f\n", nc, exp(sc / nc)
  }' "$csv" | tee "$summary"

echo "tile-order-sweep: $(( $(date +%s) - start )) s; CSV $csv; summary $summary"
[ -n "$skipped" ] && echo "not run (past ${max_s} s):$skipped"
if [ -n "$failed" ]; then
  echo "failed:$failed"
  exit 1
fi
exit 0
