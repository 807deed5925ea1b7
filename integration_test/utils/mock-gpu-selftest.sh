#!/usr/bin/env bash
# Checks the GPU tests' command lines without a GPU: a fake nvidia-smi turns
# the `gpu` feature on, a fake compute-sanitizer drops its own options, and
# a wrapper runs the real ws-gemm-run with --dry-run appended, so every RUN
# line executes the runtime's manifest parsing and argument validation
# (shapes, strides, --bad-arg refusals and their messages) but nothing is
# launched. Numerical results are NOT checked: that needs the GPU.
#
# usage: integration_test/utils/mock-gpu-selftest.sh [BUILD_DIR] [lit args...]
#   BUILD_DIR holds bin/ws-gemm-run and integration_test/kernels/
#   (default: .device if staged, else build). WSGEMM_BIN_DIR overrides bin/.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-}
[ $# -gt 0 ] && shift
if [ -z "$build" ]; then
  if [ -d "$repo/.device/integration_test/kernels" ]; then build=$repo/.device
  else build=$repo/build; fi
fi
build=$(cd "$build" && pwd)
bin=${WSGEMM_BIN_DIR:-$build/bin}
real_run=$bin/ws-gemm-run
[ -x "$real_run" ] || { echo "error: no ws-gemm-run in $bin" >&2; exit 2; }

mock=$(mktemp -d)
trap 'rm -rf "$mock"' EXIT
mkdir -p "$mock/bin" "$mock/stub"
cat > "$mock/bin/nvidia-smi" <<'SMI'
#!/bin/sh
echo "GPU 0: mock (UUID: GPU-00000000)"
SMI
cat > "$mock/bin/compute-sanitizer" <<'SAN'
#!/bin/sh
# Drop compute-sanitizer's own options, run the program.
while [ $# -gt 0 ]; do
  case "$1" in
    --tool|--error-exitcode|--print-limit|--racecheck-report) shift 2 ;;
    --*) shift ;;
    *) break ;;
  esac
done
exec "$@"
SAN
cat > "$mock/bin/ws-gemm-run" <<RUN
#!/bin/sh
exec "$real_run" "\$@" --dry-run
RUN
chmod +x "$mock/bin/"*
# No driver here: the runner loads the toolkit's stub libcuda.
for d in /usr/local/cuda/lib64/stubs /usr/local/cuda/targets/x86_64-linux/lib/stubs; do
  if [ -f "$d/libcuda.so" ]; then ln -sf "$d/libcuda.so" "$mock/stub/libcuda.so.1"; break; fi
done

lit=${LIT:-}
if [ -z "$lit" ]; then
  if [ -f "$repo/.device/lit/lit.py" ]; then lit="python3 $repo/.device/lit/lit.py"
  elif command -v lit >/dev/null; then lit=lit
  else lit=/usr/lib/llvm-22/bin/lit; fi
fi
PATH="$mock/bin:$PATH" \
LD_LIBRARY_PATH="$mock/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
WSGEMM_BUILD_DIR=$build WSGEMM_BIN_DIR=$mock/bin \
WSGEMM_SANITIZER=$mock/bin/compute-sanitizer \
  $lit -sv "$repo/integration_test" "$@"
