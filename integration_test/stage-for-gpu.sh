#!/usr/bin/env bash
# Stages everything the GPU run needs into ONE git-ignored folder, .device/
# at the repository root, to be carried to the lent GPU machine (which has
# no MLIR, no LLVM tools and no lit). Runs HERE, on the build machine.
#
#   .device/bin/                 ws-gemm-run, ws-gemm-bench, ws-gemm-tune
#   .device/lib/                 shared libraries they need that are not
#                                system ones (none while the runtime is static),
#                                and libWsGemmRuntimeC.so (the runtime's C API,
#                                self-contained: libc, libm only)
#   .device/python/ws_gemm/      the Python package (finds ../../lib); no
#                                libWsGemmCAPI.so: it needs libMLIR.so and
#                                libLLVM.so (~250 MB), so compile() is not
#                                available there and the GPU test loads the
#                                kernels staged below
#   .device/integration_test/    lit.site.cfg.py (relocatable) and kernels/
#                                (*.json manifests, *.cubin; *.ptx only with
#                                WSGEMM_STAGE_PTX=1: no GPU test reads PTX,
#                                and it is most of the bytes; families/:
#                                kernel families from ws-gemm-sweep; python/:
#                                the Python GPU test's kernels; torch_bench/:
#                                python/bench/torch_bench.py's kernels)
#   .device/lit/                 lit (pure Python) and lit.py to start it
#   .device/STAGED.txt           what was staged, from which commit
# The tests themselves (integration_test/*.test, run/, lit.cfg.py) travel
# with the working tree; the site config finds them at ../../integration_test.
#
# usage: integration_test/stage-for-gpu.sh [--no-build]
# Environment:
#   WSGEMM_BUILD_DIR    build tree (default: <repo>/build)
#   WSGEMM_RT_BIN_DIR   where ws-gemm-run/ws-gemm-bench are (default:
#                       $WSGEMM_BUILD_DIR/bin), e.g. a runtime-only build
#   WSGEMM_LIT_DIR      directory holding the `lit` package
#                       (default: /usr/lib/llvm-22/utils/lit)
#   WSGEMM_STAGE_PTX    1: stage the kernels' PTX too (for inspection there)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${WSGEMM_BUILD_DIR:-$repo/build}
rt_bin=${WSGEMM_RT_BIN_DIR:-$build/bin}
lit_dir=${WSGEMM_LIT_DIR:-/usr/lib/llvm-22/utils/lit}
dev=$repo/.device
limit_mib=64

die() { echo "stage-for-gpu: error: $*" >&2; exit 1; }

if [ "${1:-}" != "--no-build" ] && [ -f "$build/build.ninja" ]; then
  targets=(ws-gemm-integration-kernels)
  for t in ws-gemm-run ws-gemm-bench ws-gemm-tune ws-gemm-launch-test WsGemmRuntimeC ws-gemm-python; do
    if ninja -C "$build" -t targets all 2>/dev/null | grep -q "^$t:"; then
      targets+=("$t")
    fi
  done
  echo "stage-for-gpu: building ${targets[*]} in $build"
  ninja -C "$build" "${targets[@]}" >/dev/null || die "build failed (ninja -C $build ${targets[*]})"
fi

kernels=$build/integration_test/kernels
ls "$kernels"/*.json >/dev/null 2>&1 || die "no compiled kernels in $kernels (ninja ws-gemm-integration-kernels)"
for t in ws-gemm-run ws-gemm-bench ws-gemm-tune; do
  [ -x "$rt_bin/$t" ] || die "no $t in $rt_bin (build the runtime, or set WSGEMM_RT_BIN_DIR)"
done
[ -f "$lit_dir/lit/main.py" ] || die "no lit package in $lit_dir (set WSGEMM_LIT_DIR)"

rm -rf "$dev"
mkdir -p "$dev/bin" "$dev/lib" "$dev/integration_test/kernels" "$dev/lit"

# Tools, and any non-system shared library they link (libcuda comes from
# the GPU machine's driver, never from here). ws-gemm-launch-test links
# libWsGemmRuntimeC.so, staged below.
for t in ws-gemm-run ws-gemm-bench ws-gemm-tune ws-gemm-launch-test; do
  [ -x "$rt_bin/$t" ] || continue
  cp "$rt_bin/$t" "$dev/bin/"
  ldd "$rt_bin/$t" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' |
    while read -r lib; do
      case "$lib" in
        /lib/*|/lib64/*|/usr/lib/*|/usr/lib64/*|*/libcuda.so*) ;;
        *) cp -L "$lib" "$dev/lib/" ;;
      esac
    done
done

# The Python package and the runtime's C library it loads (no compiler
# library: see the header). Checked self-contained, as the tools are.
if [ -f "$build/lib/libWsGemmRuntimeC.so" ] && [ -d "$build/python/ws_gemm" ]; then
  if ldd "$build/lib/libWsGemmRuntimeC.so" | grep -qE 'libstdc\+\+|libMLIR|libLLVM|not found'; then
    die "libWsGemmRuntimeC.so is not self-contained: $(ldd "$build/lib/libWsGemmRuntimeC.so" | tr '\n' ' ')"
  fi
  cp "$build/lib/libWsGemmRuntimeC.so" "$dev/lib/"
  mkdir -p "$dev/python"
  cp -r "$build/python/ws_gemm" "$dev/python/"
  find "$dev/python" -name __pycache__ -type d -prune -exec rm -rf {} +
else
  echo "stage-for-gpu: warning: no Python package in $build (python-torch.test will be UNSUPPORTED)" >&2
fi

# Compiled kernels: manifests and cubins (PTX on request: it was 21 of
# the 48 MiB staged, and no GPU test reads it).
cp "$kernels"/*.json "$kernels"/*.cubin "$dev/integration_test/kernels/"
if [ "${WSGEMM_STAGE_PTX:-0}" = 1 ]; then
  cp "$kernels"/*.ptx "$dev/integration_test/kernels/" 2>/dev/null || true
fi
if [ -d "$kernels/families" ]; then
  cp -r "$kernels/families" "$dev/integration_test/kernels/"
  find "$dev/integration_test/kernels/families" -name '*.mlir' -delete
fi
if [ -d "$kernels/python" ]; then
  cp -r "$kernels/python" "$dev/integration_test/kernels/"
fi
# The PyTorch benchmark's kernels (python/bench/run.sh).
if [ -d "$kernels/torch_bench" ]; then
  cp -r "$kernels/torch_bench" "$dev/integration_test/kernels/"
fi
# Broken cubins (utils/bad_cubins.py) for bad-input.test.
if [ -d "$kernels/bad" ]; then
  cp -r "$kernels/bad" "$dev/integration_test/kernels/"
fi
[ "${WSGEMM_STAGE_PTX:-0}" = 1 ] ||
  find "$dev/integration_test/kernels" -name '*.ptx' -delete
n_json=$(ls "$dev/integration_test/kernels"/*.json | wc -l)
n_cubin=$(ls "$dev/integration_test/kernels"/*.cubin | wc -l)
[ "$n_json" = "$n_cubin" ] || die "$n_json manifests but $n_cubin cubins in $kernels"

# lit, without bytecode caches, and a launcher.
cp -r "$lit_dir/lit" "$dev/lit/"
find "$dev/lit" -name __pycache__ -type d -prune -exec rm -rf {} +
cat > "$dev/lit/lit.py" <<'PY'
#!/usr/bin/env python3
# lit, carried: run as `python3 .device/lit/lit.py ARGS` (or with this
# directory on PYTHONPATH, `python3 -m lit.main ARGS`).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit.main import main

if __name__ == "__main__":
    main()
PY

# The site config: paths relative to its own location only.
sed -e 's|@WSGEMM_REL_SRC@|../../integration_test|' \
    -e 's|@WSGEMM_REL_BUILD@|..|' \
    -e 's|@WSGEMM_REL_KERNELS@|kernels|' \
    -e 's|@WSGEMM_PTXAS@||' \
    "$repo/integration_test/lit.site.cfg.py.in" > "$dev/integration_test/lit.site.cfg.py"
grep -q '@' "$dev/integration_test/lit.site.cfg.py" && die "unsubstituted @VAR@ in the site config"

commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=""
[ -n "$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null)" ] && dirty=" (with uncommitted changes)"
{
  echo "staged $(date -u +%Y-%m-%dT%H:%M:%SZ) from commit $commit$dirty"
  echo "build: $build"
  echo "tools: $rt_bin"
  echo "kernels: $n_json"
  echo "families: $(ls "$dev/integration_test/kernels/families" 2>/dev/null | tr '\n' ' ')"
  echo "python: $(ls "$dev/python" 2>/dev/null | tr '\n' ' ')kernels $(ls "$dev/integration_test/kernels/python" 2>/dev/null | sed -n 's/\.json$//p' | tr '\n' ' ')"
  ls "$dev/integration_test/kernels" | sed -n 's/\.json$//p' | tr '\n' ' '
  echo
} > "$dev/STAGED.txt"

bytes=$(du -sb "$dev" | cut -f1)
mib=$(( (bytes + 1048575) / 1048576 ))
echo "stage-for-gpu: staged $n_json kernels, tools and lit into $dev"
du -sh "$dev"/* | sed 's/^/  /'
echo "stage-for-gpu: total $(du -sh "$dev" | cut -f1) ($bytes bytes; the carry limit is $limit_mib MiB)"
[ "$mib" -lt $((limit_mib * 3 / 4)) ] || die "staged folder is $mib MiB: too close to the $limit_mib MiB carry limit"
