"""compile(): MLIR text -> kernels, through the C API (libWsGemmCAPI.so,
include/ws-gemm-c/Compile.h: the same driver as ws-gemm-compile). Needs the
compiler's library and its LLVM/MLIR 22 libraries; ptxas for cubins."""

import ctypes
import json
import os

from . import _lib
from ._errors import CompileError, Diagnostic

_EMIT = {"all": 0, "ptx": 1, "cubin": 2}
_SPILLS = {"warn": 0, "error": 1, "allow": 2}
_SEVERITY = {0: "error", 1: "warning", 2: "note", 3: "remark"}


class _Options(ctypes.Structure):
    _fields_ = [("chip", ctypes.c_char_p), ("features", ctypes.c_char_p),
                ("cudaPath", ctypes.c_char_p), ("optLevel", ctypes.c_int32),
                ("emit", ctypes.c_int32), ("spills", ctypes.c_int32)]


class _Result(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


_api = None


def _capi():
    global _api
    if _api is not None:
        return _api
    lib = _lib.load("WsGemmCAPI")
    d, R, S = _lib.declare, _Result, _lib.StringRef
    ip = ctypes.c_ssize_t
    d(lib, "wsgemmCompileOptionsGetDefault", _Options)
    d(lib, "wsgemmCompile", R, S, S, ctypes.POINTER(_Options))
    d(lib, "wsgemmCompileResultDestroy", None, R)
    d(lib, "wsgemmCompileResultSucceeded", ctypes.c_bool, R)
    d(lib, "wsgemmCompileResultGetNumKernels", ip, R)
    for what in ("Name", "Manifest", "PTX", "Cubin", "PtxasLog"):
        d(lib, "wsgemmCompileResultGetKernel" + what, S, R, ip)
    d(lib, "wsgemmCompileResultGetNumDiagnostics", ip, R)
    d(lib, "wsgemmCompileResultGetDiagnosticSeverity", ctypes.c_int32, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticMessage", S, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticFile", S, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticLine", ctypes.c_int32, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticColumn", ctypes.c_int32, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticsText", S, R)
    _api = lib
    return lib


class CompiledKernel:
    """One compiled kernel: name, manifest (text and dict), PTX, cubin bytes
    (b"" with emit="ptx") and ptxas -v's report."""

    def __init__(self, name, manifest_json, ptx, cubin, ptxas_log):
        self.name = name
        self.manifest_json = manifest_json
        self.ptx = ptx
        self.cubin = cubin
        self.ptxas_log = ptxas_log

    def __repr__(self):
        return "<ws_gemm.CompiledKernel %s: ptx %d bytes, cubin %d bytes>" % (
            self.name, len(self.ptx), len(self.cubin))

    @property
    def manifest(self):
        return json.loads(self.manifest_json)

    def load(self):
        """The runtime's Kernel of this result (in memory, no files)."""
        from ._kernel import Kernel
        return Kernel.from_memory(self.manifest_json, self.cubin,
                                  self.name + ".json")

    def save(self, directory):
        """Writes <name>.json, <name>.ptx and (when there is one)
        <name>.cubin as ws-gemm-compile does; returns the manifest's path."""
        os.makedirs(directory, exist_ok=True)
        base = os.path.join(directory, self.name)
        with open(base + ".json", "w") as f:
            f.write(self.manifest_json)
        with open(base + ".ptx", "w") as f:
            f.write(self.ptx)
        if self.cubin:
            with open(base + ".cubin", "wb") as f:
                f.write(self.cubin)
        return base + ".json"


class CompileResult(list):
    """The kernels (sorted by name) and every diagnostic (warnings, such
    as register spills, included)."""

    def __init__(self, kernels, diagnostics):
        super().__init__(kernels)
        self.diagnostics = diagnostics

    def kernel(self, name):
        for k in self:
            if k.name == name:
                return k
        raise KeyError("no kernel %r (compiled: %s)" % (
            name, ", ".join(k.name for k in self) or "none"))


def compile(mlir_text, name="input.mlir", emit="all", chip=None,
            features=None, cuda_path=None, opt_level=3, spills="warn"):
    """Compiles every wsgemm.gemm (or linalg matmul chain) in `mlir_text`.
    `name` names the text in diagnostics; emit "all" (PTX + cubin, needs
    ptxas) or "ptx"; spills "warn", "error" or "allow". Raises CompileError
    (with .diagnostics, each with its location) when any kernel fails."""
    if emit not in _EMIT:
        raise ValueError("emit: %r is not one of %s" % (emit, sorted(_EMIT)))
    if spills not in _SPILLS:
        raise ValueError("spills: %r is not one of %s" % (spills,
                                                          sorted(_SPILLS)))
    lib = _capi()
    opts = lib.wsgemmCompileOptionsGetDefault()
    keep = []  # the option strings must outlive the call

    def opt_str(v):
        if v is None:
            return None
        b = str(v).encode()
        keep.append(b)
        return b
    opts.chip, opts.features = opt_str(chip), opt_str(features)
    opts.cudaPath = opt_str(cuda_path)
    opts.optLevel, opts.emit, opts.spills = (int(opt_level), _EMIT[emit],
                                             _SPILLS[spills])
    text = mlir_text.encode() if isinstance(mlir_text, str) else mlir_text
    src = ctypes.create_string_buffer(text, len(text))
    nm = name.encode()
    result = lib.wsgemmCompile(
        _lib.StringRef(ctypes.cast(src, ctypes.c_void_p), len(text)),
        _lib.StringRef(ctypes.cast(ctypes.c_char_p(nm), ctypes.c_void_p),
                       len(nm)),
        ctypes.byref(opts))
    try:
        diags = []
        for i in range(lib.wsgemmCompileResultGetNumDiagnostics(result)):
            diags.append(Diagnostic(
                _SEVERITY.get(lib.wsgemmCompileResultGetDiagnosticSeverity(
                    result, i), "error"),
                lib.wsgemmCompileResultGetDiagnosticFile(result, i).str(),
                lib.wsgemmCompileResultGetDiagnosticLine(result, i),
                lib.wsgemmCompileResultGetDiagnosticColumn(result, i),
                lib.wsgemmCompileResultGetDiagnosticMessage(result, i).str()))
        if not lib.wsgemmCompileResultSucceeded(result):
            raise CompileError(
                lib.wsgemmCompileResultGetDiagnosticsText(result).str()
                .rstrip("\n") or "compilation failed", diags)
        kernels = []
        for i in range(lib.wsgemmCompileResultGetNumKernels(result)):
            kernels.append(CompiledKernel(
                lib.wsgemmCompileResultGetKernelName(result, i).str(),
                lib.wsgemmCompileResultGetKernelManifest(result, i).str(),
                lib.wsgemmCompileResultGetKernelPTX(result, i).str(),
                lib.wsgemmCompileResultGetKernelCubin(result, i).bytes(),
                lib.wsgemmCompileResultGetKernelPtxasLog(result, i).str()))
        return CompileResult(kernels, diags)
    finally:
        lib.wsgemmCompileResultDestroy(result)
