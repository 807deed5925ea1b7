#!/usr/bin/env bash
#===- scripts/setup.sh - Install the ws-gemm build dependencies -----------===#
#
# Idempotent. Checks each Debian package with `dpkg -s` and installs only the
# missing ones with apt-get (running `apt-get update` only when something must
# be installed). Works as root (CI) or through sudo. CUDA is never installed:
# CUDA 13 is expected preinstalled at /usr/local/cuda (ptxas); without it the
# build still works, but cubin emission and the tests that need ptxas are
# skipped. lit comes from llvm-22-tools (/usr/lib/llvm-22/bin/lit).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools # MLIR, tblgen, lit, FileCheck
  cmake ninja-build g++ make python3                     # build + lit
  libgtest-dev                                           # unit tests
  nlohmann-json3-dev                                     # manifest (runtime, driver)
  zlib1g-dev libzstd-dev                                 # LLVM's CMake package looks for these
  gnuplot-nox                                            # ws-gemm-bench --plot (PNG, SVG)
  python3-numpy                                          # Python package tests (DLPack producer)
  clang-22 libclang-rt-22-dev                            # sanitizer build + libFuzzer (make check-sanitize)
)
CUDA_ROOT="${WSGEMM_CUDA_ROOT:-/usr/local/cuda}"

log() { echo "[setup] $*"; }

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  log "installing: ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "[setup] error: missing packages (${missing[*]}) and not root, no sudo" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  log "all ${#PACKAGES[@]} packages present"
fi

if [[ -x "$CUDA_ROOT/bin/ptxas" ]]; then
  log "ptxas: $("$CUDA_ROOT/bin/ptxas" --version | tail -n 1)"
else
  echo "[setup] warning: $CUDA_ROOT/bin/ptxas not found; cubin emission and" \
       "the 'ptxas' lit tests are disabled (CUDA is not installed by this script)" >&2
fi
