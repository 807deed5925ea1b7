# -*- Python -*-
# lit configuration of the ws-gemm GPU integration suite.
#
# Runs in two places with no absolute path baked in:
#   - here, through `ninja check-ws-gemm-integration` (build/integration_test/
#     lit.site.cfg.py loads this file);
#   - on the lent GPU machine, from a copy of the repository, through
#     integration_test/run-on-gpu.sh (.device/integration_test/
#     lit.site.cfg.py, written by stage-for-gpu.sh, loads this file).
# Run on this directory directly (`lit integration_test`) it finds the tools
# and kernels through WSGEMM_BUILD_DIR, else <repo>/.device, else
# <repo>/build.
#
# Features:
#   gpu          nvidia-smi -L lists a GPU (WSGEMM_NO_GPU=1 hides it)
#   ws-gemm-run  the runner exists (dry-run tests need no GPU)
#   sanitizer    compute-sanitizer exists
#   ptxas        ptxas exists (the register/spill check)
#   ws-gemm-opt  the compiler driver exists (a build tree, not the GPU machine)
#   ws-gemm-compile  the compiler runs (evt-spills.test compiles random
#                kernels; the staged .device/ tree has no compiler)
#   ws-gemm-python  the Python package is in <build>/python (%pypkg)
#   torch        a GPU, and `import torch` works with CUDA in this Python
# Substitutions:
#   %run %bench %tune  ws-gemm-run, ws-gemm-bench, ws-gemm-tune
#   %opt         ws-gemm-opt; %srcroot the repository
#   %k           the compiled kernel directory (<kernel>.json manifests;
#                families/<name>/family.json: kernel families, docs/tuning.md)
#   %sanitizer   compute-sanitizer
#   %ptxas       ptxas
#   %compile     ws-gemm-compile ($WSGEMM_COMPILE, else <build>/bin)
#   %python      this Python
#   %utils       integration_test/utils

import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "WS-GEMM-INTEGRATION"
# lit's internal shell: pipes, &&, `not`, 2>&1; no bash needed.
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["kernels", "utils", "Output", "pending"]

_src = os.path.dirname(os.path.abspath(__file__))
config.test_source_root = _src
_repo = os.path.dirname(_src)

# Locate the build (or staged) tree when no site config did.
env_build = os.environ.get("WSGEMM_BUILD_DIR")
if env_build:
    config.wsgemm_build_dir = os.path.abspath(env_build)
    config.wsgemm_kernels_dir = os.path.join(
        config.wsgemm_build_dir, "integration_test", "kernels")
    config.wsgemm_site_dir = os.path.join(
        config.wsgemm_build_dir, "integration_test")
elif not hasattr(config, "wsgemm_build_dir"):
    for cand in (os.path.join(_repo, ".device"), os.path.join(_repo, "build")):
        if os.path.isdir(os.path.join(cand, "integration_test", "kernels")):
            break
    config.wsgemm_build_dir = cand
    config.wsgemm_kernels_dir = os.path.join(cand, "integration_test", "kernels")
    config.wsgemm_site_dir = os.path.join(cand, "integration_test")
bin_dir = os.environ.get("WSGEMM_BIN_DIR") or os.path.join(
    config.wsgemm_build_dir, "bin")
kernels_dir = os.environ.get("WSGEMM_KERNELS_DIR") or config.wsgemm_kernels_dir
config.test_exec_root = config.wsgemm_site_dir

# Environment: keep what the CUDA driver and the sanitizer need.
for var in ("PATH", "LD_LIBRARY_PATH", "HOME", "TMPDIR", "CUDA_VISIBLE_DEVICES",
            "CUDA_HOME", "CUDA_PATH", "NVIDIA_VISIBLE_DEVICES",
            "NVIDIA_DRIVER_CAPABILITIES", "WSGEMM_CUBLASLT", "WSGEMM_PDL"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def find_tool(name, hints=()):
    for h in hints:
        if h and os.path.isfile(h) and os.access(h, os.X_OK):
            return h
    found = shutil.which(name)
    if found:
        return found
    for d in ("/usr/local/cuda/bin", "/usr/local/cuda/compute-sanitizer"):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def gpu_present():
    """True when nvidia-smi lists at least one GPU (as test/lit.cfg.py)."""
    if os.environ.get("WSGEMM_NO_GPU"):
        return False
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True,
                             timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU " in out.stdout


def runs(tool):
    """True when `tool --help` runs in the test environment."""
    try:
        out = subprocess.run([tool, "--help"], capture_output=True,
                             env=config.environment, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0


run = os.path.join(bin_dir, "ws-gemm-run")
bench = os.path.join(bin_dir, "ws-gemm-bench")
have_gpu = gpu_present()
have_run = os.path.isfile(run) and os.access(run, os.X_OK)
# The tools dlopen libcuda.so.1 only when a GPU is needed: they run here
# (--help, --dry-run) with no driver at all (no-driver.test).
runnable = have_run and runs(run)
manifests = (sorted(f for f in os.listdir(kernels_dir) if f.endswith(".json"))
             if os.path.isdir(kernels_dir) else [])

if runnable:
    config.available_features.add("ws-gemm-run")
if have_gpu:
    config.available_features.add("gpu")
    # On the GPU machine a missing piece must fail loudly, not turn every
    # test UNSUPPORTED.
    missing = []
    if not runnable:
        missing.append("runnable ws-gemm-run in %s" % bin_dir)
    if not manifests:
        missing.append("compiled kernels (*.json) in %s" % kernels_dir)
    if missing:
        lit_config.fatal(
            "a GPU is present but the suite has no %s; run "
            "integration_test/stage-for-gpu.sh before copying the tree, or "
            "set WSGEMM_BUILD_DIR" % " and no ".join(missing))

# The Python package (build/python or .device/python) and, on the GPU
# machine, PyTorch with CUDA (python-torch.test).
py_pkg = os.path.join(config.wsgemm_build_dir, "python")
if os.path.isfile(os.path.join(py_pkg, "ws_gemm", "__init__.py")):
    config.available_features.add("ws-gemm-python")
config.substitutions.append(("%pypkg", py_pkg))
if have_gpu:
    try:
        probe = subprocess.run(
            [sys.executable, "-c",
             "import torch; assert torch.cuda.is_available()"],
            capture_output=True, env=config.environment, timeout=180)
        if probe.returncode == 0:
            config.available_features.add("torch")
    except (OSError, subprocess.SubprocessError):
        pass

# ws-gemm-bench --plot needs gnuplot (scripts/setup.sh installs it on the
# build machine; the GPU machine may not have it).
if shutil.which("gnuplot"):
    config.available_features.add("gnuplot")
sanitizer = find_tool("compute-sanitizer", [os.environ.get("WSGEMM_SANITIZER")])
if sanitizer:
    config.available_features.add("sanitizer")
ptxas = find_tool("ptxas", [os.environ.get("WSGEMM_PTXAS"),
                            getattr(config, "wsgemm_ptxas_hint", None)])
if ptxas:
    config.available_features.add("ptxas")
# The kernels' PTX: stage-for-gpu.sh leaves it behind unless WSGEMM_STAGE_PTX=1
# (ptxas-resources.test reads it; on the build machine it is always there).
if os.path.isdir(kernels_dir) and any(
        f.endswith(".ptx") for f in os.listdir(kernels_dir)):
    config.available_features.add("kernel-ptx")
compiler = os.environ.get("WSGEMM_COMPILE") or os.path.join(
    bin_dir, "ws-gemm-compile")
if os.path.isfile(compiler) and os.access(compiler, os.X_OK) and runs(compiler):
    config.available_features.add("ws-gemm-compile")

# The compiler's tools exist in a build tree, not on the GPU machine.
opt = os.path.join(bin_dir, "ws-gemm-opt")
if os.path.isfile(opt) and os.access(opt, os.X_OK):
    config.available_features.add("ws-gemm-opt")
config.substitutions.append(("%opt", opt))
config.substitutions.append(("%srcroot", _repo))
config.substitutions.append(("%run", run))
config.substitutions.append(("%bench", bench))
config.substitutions.append(("%tune", os.path.join(bin_dir, "ws-gemm-tune")))
# ws-gemm-launch-test links libWsGemmRuntimeC.so (<build or .device>/lib).
config.substitutions.append(("%launch-test", "env LD_LIBRARY_PATH=%s:%s %s" % (
    os.path.join(config.wsgemm_build_dir, "lib"),
    os.environ.get("LD_LIBRARY_PATH", ""),
    os.path.join(bin_dir, "ws-gemm-launch-test"))))
config.substitutions.append(("%k", kernels_dir))
config.substitutions.append(("%sanitizer", sanitizer or "compute-sanitizer"))
config.substitutions.append(("%ptxas", ptxas or "ptxas"))
config.substitutions.append(("%compile", compiler))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%utils", os.path.join(_src, "utils")))

lit_config.note("ws-gemm integration: kernels %s (%d manifests), tools %s, "
                "features %s" % (kernels_dir, len(manifests), bin_dir,
                                 " ".join(sorted(config.available_features))))
