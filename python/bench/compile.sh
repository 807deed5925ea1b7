#!/usr/bin/env bash
# Compiles python/bench/kernels.mlir (build machine) into the directory that
# integration_test/stage-for-gpu.sh stages as
# .device/integration_test/kernels/torch_bench/. The CMake target
# ws-gemm-integration-kernels does the same; this is for a build that has
# ws-gemm-compile but was configured before the target existed, or for
# compiling elsewhere:
#
#   python/bench/compile.sh [OUT_DIR]
#   integration_test/stage-for-gpu.sh --no-build
#
# Environment: WSGEMM_BUILD_DIR (default <repo>/build).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${WSGEMM_BUILD_DIR:-$repo/build}
out=${1:-$build/integration_test/kernels/torch_bench}
compiler=$build/bin/ws-gemm-compile
[ -x "$compiler" ] || { echo "compile.sh: error: no $compiler" >&2; exit 2; }
mkdir -p "$out"
"$compiler" "$repo/python/bench/kernels.mlir" -o "$out" --emit=all --family=default
echo "compile.sh: $(ls "$out"/*.json | wc -l) kernels in $out: $(cd "$out" && ls *.json | sed 's/\.json$//' | tr '\n' ' ')"
