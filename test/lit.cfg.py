# -*- Python -*-
# lit configuration for the ws-gemm test suite. It runs anywhere: nothing here
# needs a GPU. Optional features:
#   ptxas  CUDA's ptxas exists (cubin emission tests); %ptxas is its path
#   gpu    a CUDA device is usable (found with `nvidia-smi -L`); never required
# Substitutions: the ws-gemm tools that exist, FileCheck/not/count/split-file
# from LLVM 22, and %examples (the top-level examples/ folder).

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "WS-GEMM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# .c: C API tests (test/CAPI/*.c, their RUN lines in a comment); .test: LSP
# sessions and checks that are no MLIR input.
config.suffixes = [".mlir", ".c", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.wsgemm_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(
    ("%examples", os.path.join(config.wsgemm_src_root, "examples"))
)
config.substitutions.append(("%wsgemm_src_root", config.wsgemm_src_root))
config.substitutions.append(("%wsgemm_obj_root", config.wsgemm_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Our tools first, then LLVM's. Add a tool here once its CMake target exists
# (and add it to WSGEMM_TEST_DEPENDS in test/CMakeLists.txt).
tool_dirs = [config.wsgemm_tools_dir, config.llvm_tools_dir]
tools = [
    ToolSubst("ws-gemm-opt", unresolved="fatal"),
    ToolSubst("ws-gemm-compile", unresolved="fatal"),
    ToolSubst("ws-gemm-lsp-server", unresolved="fatal"),
    ToolSubst("ws-gemm-capi-test", unresolved="fatal"),
    ToolSubst("ws-gemm-sweep", unresolved="fatal"),
    ToolSubst("ws-gemm-runtime-c-test", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)


# ptxas: gpu-module-to-binary (cubin-format=bin) calls ptxas from PATH.
if config.ptxas and os.path.isfile(config.ptxas) and os.access(config.ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
    llvm_config.with_environment(
        "PATH", os.path.dirname(config.ptxas), append_path=True
    )


def cuda_device_usable():
    """True when nvidia-smi lists at least one GPU. Set WSGEMM_NO_GPU=1 to
    pretend there is none."""
    if os.environ.get("WSGEMM_NO_GPU"):
        return False
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run(
            [smi, "-L"], capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU " in out.stdout


if cuda_device_usable():
    config.available_features.add("gpu")
