#!/usr/bin/env bash
# The PyTorch benchmark (torch_bench.py) on the lent GPU machine, from the
# root of a copy of the repository that carries .device/ (filled on the
# build machine by integration_test/stage-for-gpu.sh, which stages the
# Python package, libWsGemmRuntimeC.so and the compiled bench kernels; there
# is no MLIR on the GPU machine):
#
#   bash python/bench/run.sh [torch_bench.py args]     e.g. --quick
#   bash python/bench/run.sh --mixed [torch_mixed_bench.py args]
#
# Results go to $OUT (else .device/out/torch_bench): results.csv,
# results.md (printed at the end), host.csv, log.txt, machine.txt,
# speedup.png (if matplotlib is there).
# Environment: WSGEMM_BENCH_KERNEL_DIR (default
# .device/integration_test/kernels/torch_bench), WSGEMM_BENCH_PASS_STREAM=1
# (pass stream=torch.cuda.current_stream() to every launch).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
dev=$repo/.device
out=${OUT:-$dev/out/torch_bench}
kernels=${WSGEMM_BENCH_KERNEL_DIR:-$dev/integration_test/kernels/torch_bench}
die() { echo "run.sh: error: $*" >&2; exit 2; }

[ -f "$dev/python/ws_gemm/__init__.py" ] ||
  die "no $dev/python/ws_gemm: run integration_test/stage-for-gpu.sh on the build machine and carry .device"
[ -f "$dev/lib/libWsGemmRuntimeC.so" ] || die "no $dev/lib/libWsGemmRuntimeC.so (stage-for-gpu.sh)"
ls "$kernels"/tb_*.json >/dev/null 2>&1 ||
  die "no compiled bench kernels in $kernels (build ws-gemm-integration-kernels or python/bench/compile.sh, then stage-for-gpu.sh)"
mkdir -p "$out"

export PYTHONPATH=$dev/python${PYTHONPATH:+:$PYTHONPATH}
export WSGEMM_LIB_DIR=${WSGEMM_LIB_DIR:-$dev/lib}
py=${PYTHON:-python3}
{
  [ -f "$dev/STAGED.txt" ] && { echo "== staged"; head -3 "$dev/STAGED.txt"; }
  echo "== nvidia-smi"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit --format=csv 2>&1
  echo "== python"
  $py -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' 2>&1
  $py -c 'import matplotlib; print("matplotlib", matplotlib.__version__)' 2>&1 | tail -1
} > "$out/machine.txt"
cat "$out/machine.txt"
$py -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' ||
  die "no torch with CUDA for $py"

# --mixed: the W4A16 benchmark (torch_mixed_bench.py) instead.
bench=torch_bench.py
[ "${1:-}" = --mixed ] && { bench=torch_mixed_bench.py; shift; }
exec $py "$repo/python/bench/$bench" --kernels "$kernels" --out "$out" "$@"
