#!/usr/bin/env bash
# Mixed-input (W4A16) timings on the lent GPU (docs/mixed-input.md): the
# benchmarked mx_bench_* kernels against cuBLASLt multiplying the weight
# dequantized to bf16 (what torch.mm on the dequantized weight runs), in
# ws-gemm-bench's alternating rounds with the SM clock logged, at the
# Llama-3 8B and 70B projection shapes (N_out x K) for M = 1 and 16 tokens
# and one compute-bound point; then the share of the HBM bandwidth
# (3.35 TB/s) the kernel reaches on the bytes it reads. From the root of a
# copy of the repository that carries .device/:
#   bash integration_test/utils/mixed_input_bench.sh
# Writes $OUT/mixed_input.csv and prints the table.
set -uo pipefail
dev=.device
out=${OUT:-$dev/out}
mkdir -p "$out"
k=$dev/integration_test/kernels
csv=$out/mixed_input.csv
rm -f "$csv"
rounds=${WSGEMM_BENCH_ROUNDS:-5}
bench() { # kernel M N K
  "$dev/bin/ws-gemm-bench" "$k/$1.json" --m "$2" --n "$3" --k "$4" \
    --compare cublaslt --rounds "$rounds" --csv "$csv" 2>&1 | tail -3
}
# Decode: every kernel of MX_DECODE (default: the three decode tilings) at
# 16 tokens, MX_DECODE1 (default: the 256-row one) at 1 token too; then the
# compute-bound point(s) of MX_COMPUTE ("kernel,M,N,K ...").
decode=${MX_DECODE:-mx_bench_w4_n16 mx_bench_w4_m256_n16 mx_bench_w4_ws64_n16}
decode1=${MX_DECODE1:-mx_bench_w4_m256_n16}
for shape in 4096,4096 14336,4096 4096,14336 8192,8192 28672,8192 8192,28672; do
  IFS=, read -r m kk <<< "$shape"
  for kern in $decode; do bench "$kern" "$m" 16 "$kk"; done
  for kern in $decode1; do bench "$kern" "$m" 1 "$kk"; done
done
for point in ${MX_COMPUTE:-mx_bench_w4_n256,4096,4096,4096}; do
  IFS=, read -r kern m n kk <<< "$point"
  bench "$kern" "$m" "$n" "$kk"
done
python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| kernel | N_out x K | tokens | ours us | cuBLASLt bf16 us | speedup [min, max] | HBM % | SM MHz |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    M, N, K = int(r["M"]), int(r["N"]), int(r["K"])
    ours = float(r["ours_ms"]) * 1e3
    lib = float(r["cublaslt_ms"]) * 1e3 if r["cublaslt_ms"] else float("nan")
    w4 = r["kernel"].startswith("mx_")
    # Bytes read: weight (i4 or bf16), scales and zero points, X; D written.
    wbytes = M * K / 2 + 2 * 2 * M * (K // 128) if w4 else 2 * M * K
    byts = wbytes + 2 * N * K + 2 * M * N
    hbm = byts / (ours * 1e-6) / 3.35e12 * 100
    print("| %s | %dx%d | %d | %.1f | %.1f | %s [%s, %s] | %.0f | %s |" % (
        r["kernel"], M, K, N, ours, lib, r["ratio"], r["ratio_min"],
        r["ratio_max"], hbm, r["sm_mhz"]))
PY
