#!/usr/bin/env bash
# Build the standalone CUTLASS sm_80 GEMM benchmark (no GPU needed to build).
# Usage: build.sh [CUTLASS_DIR (default /tmp/cutlass-src)] [OUT (default .device/exp/cutlass_sm80_bench)]
# OUT is relative to the current directory; run from the repo root for the default.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CUTLASS_DIR="${1:-${CUTLASS_DIR:-/tmp/cutlass-src}}"
OUT="${2:-.device/exp/cutlass_sm80_bench}"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
if [[ ! -f "$CUTLASS_DIR/include/cutlass/gemm/device/gemm.h" ]]; then
  echo "error: CUTLASS headers not found under $CUTLASS_DIR/include" >&2
  exit 1
fi
mkdir -p "$(dirname "$OUT")"
# libstdc++/libgcc are linked statically too, so the binary needs only libc on
# the device machine (libcudart is static; NVML is dlopen'ed at run time).
set -x
"$NVCC" -O3 -std=c++17 -arch=sm_90 \
  -I"$CUTLASS_DIR/include" -I"$CUTLASS_DIR/tools/util/include" \
  --expt-relaxed-constexpr -cudart static \
  "$here/cutlass_sm80_bench.cu" -o "$OUT" -ldl \
  -Xcompiler -static-libstdc++,-static-libgcc
strip "$OUT"
