"""compile(): MLIR text -> kernels, through the C API (libWsGemmCAPI.so,
include/ws-gemm-c/Compile.h: the same driver as ws-gemm-compile). Needs the
compiler's library and its LLVM/MLIR 22 libraries; ptxas for cubins.

A wsgemm.gemm without a config compiles by default into its default family
(docs/tuning.md, "The default family"), whose load() is a KernelFamily that
picks the variant per shape; one with a config is exactly that kernel.
Results are cached on disk by the hash of the text, the options and the
toolchain (docs/tuning.md, "The default family"): a repeated compile() of the
same text returns them without loading the compiler."""

import atexit
import ctypes
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile

from . import _lib, _runtime
from ._errors import CompileError, Diagnostic, WsGemmError

_EMIT = {"all": 0, "ptx": 1, "cubin": 2}
_SPILLS = {"warn": 0, "error": 1, "allow": 2}
_FAMILY = {"none": 0, "default": 1}
_SEVERITY = {0: "error", 1: "warning", 2: "note", 3: "remark"}


class _Options(ctypes.Structure):
    _fields_ = [("chip", ctypes.c_char_p), ("features", ctypes.c_char_p),
                ("cudaPath", ctypes.c_char_p), ("optLevel", ctypes.c_int32),
                ("emit", ctypes.c_int32), ("spills", ctypes.c_int32),
                ("family", ctypes.c_int32), ("jobs", ctypes.c_int32)]


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
    d(lib, "wsgemmCompileResultGetNumFamilies", ip, R)
    d(lib, "wsgemmCompileResultGetFamilyName", S, R, ip)
    d(lib, "wsgemmCompileResultGetFamilyManifest", S, R, ip)
    d(lib, "wsgemmCompileResultGetFamilyNumVariants", ip, R, ip)
    for what in ("Id", "Config", "Manifest", "PTX", "Cubin", "PtxasLog"):
        d(lib, "wsgemmCompileResultGetFamilyVariant" + what, S, R, ip, ip)
    d(lib, "wsgemmCompileResultGetNumDiagnostics", ip, R)
    d(lib, "wsgemmCompileResultGetDiagnosticSeverity", ctypes.c_int32, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticMessage", S, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticFile", S, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticLine", ctypes.c_int32, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticColumn", ctypes.c_int32, R, ip)
    d(lib, "wsgemmCompileResultGetDiagnosticsText", S, R)
    _api = lib
    return lib


def _write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


# What may name a kernel: the compiler's rule (include/ws-gemm/Dialect/
# WsGemm/KernelName.h, docs/limits.md "Kernel names"), checked again here
# because save() and the cache make file names of names they are handed.
_PTX_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_$]*|[_$][A-Za-z0-9_$]+")
_MAX_KERNEL_NAME = 240
_PATH_COMPONENT = re.compile(r"[A-Za-z0-9_.-]+")


def check_kernel_name(name):
    """Raises ValueError, naming the rule, unless `name` may name a kernel
    (and so its files): a PTX identifier (a letter, then letters, digits,
    '_' or '$'; or '_' or '$' and at least one of those) of at most 240
    characters, not WARP_SZ, wsgemm_smem or __nv_*."""
    if not isinstance(name, str):
        raise ValueError("kernel name %r is not a str" % (name,))
    shown = ascii(name[:48]) + ("... (%d characters)" % len(name)
                                if len(name) > 48 else "")
    if len(name) > _MAX_KERNEL_NAME or not _PTX_IDENTIFIER.fullmatch(name):
        raise ValueError(
            "kernel name %s: must be a PTX identifier of at most %d "
            "characters (a letter, then letters, digits, '_' or '$'; or '_' "
            "or '$' and at least one of those) because it names the kernel "
            "in PTX and its files (<name>.json, .ptx, .cubin)" % (
                shown, _MAX_KERNEL_NAME))
    if name in ("WARP_SZ", "wsgemm_smem") or name.startswith("__nv_"):
        raise ValueError(
            "kernel name %s: must not be 'WARP_SZ', 'wsgemm_smem' or start "
            "with '__nv_' because the kernel's PTX module already defines "
            "those" % shown)


def _check_variant_id(vid):
    """Raises ValueError unless a variant id is one safe path component."""
    if (not isinstance(vid, str) or vid in (".", "..") or
            not _PATH_COMPONENT.fullmatch(vid)):
        raise ValueError("variant id %s: must be letters, digits, '_', '.' "
                         "and '-' (not '.' or '..') because it names a "
                         "directory" % ascii(vid))


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
        <name>.cubin as ws-gemm-compile does; returns the manifest's path.
        Raises ValueError, writing nothing, when the name cannot name a
        kernel (check_kernel_name: never a path)."""
        check_kernel_name(self.name)
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


class CompiledFamily:
    """A wsgemm.gemm without a config compiled into its default family:
    `variants` (CompiledKernel each, with `.id` and `.config`; the first is
    the gemm's default kernel) and `family_json` (family.json's text).
    load() gives a KernelFamily, which picks the variant per shape. The
    default kernel's name, manifest, ptx, cubin and ptxas_log are this
    object's too."""

    def __init__(self, name, family_json, variants, directory=None):
        self.name = name
        self.family_json = family_json
        self.variants = variants
        self.directory = directory  # where family.json is, once written

    def __repr__(self):
        return "<ws_gemm.CompiledFamily %s: %s>" % (
            self.name, ", ".join(v.id for v in self.variants))

    def __getattr__(self, attr):
        if attr in ("manifest_json", "ptx", "cubin", "ptxas_log", "manifest"):
            return getattr(self.variants[0], attr)
        raise AttributeError(attr)

    @property
    def default(self):
        """The default kernel (the first variant)."""
        return self.variants[0]

    @property
    def family(self):
        """family.json as a dict."""
        return json.loads(self.family_json)

    def save(self, directory):
        """Writes DIR/family.json and DIR/<id>/<name>.json, .ptx, .cubin
        per variant (ws-gemm-compile --family=default's layout under
        DIR/<name>); returns family.json's path. Raises ValueError,
        writing nothing, when a name or variant id cannot name a file there
        or two variant ids are equal without case."""
        seen = {}
        for v in self.variants:
            check_kernel_name(v.name)
            _check_variant_id(v.id)
            if v.id.lower() in seen:
                raise ValueError("variants %s and %s would write one "
                                 "directory" % (ascii(seen[v.id.lower()]),
                                                ascii(v.id)))
            seen[v.id.lower()] = v.id
        for v in self.variants:
            v.save(os.path.join(directory, v.id))
        path = os.path.join(directory, "family.json")
        _write(path + ".tmp", self.family_json)
        os.replace(path + ".tmp", path)
        return path

    def load(self, tuning=None, sm_count=0):
        """The runtime's KernelFamily over this result (with an optional
        tuning table); attributes it lacks (operands, scalars, ...) are its
        first variant's, which every variant shares."""
        if self.directory is None:
            self.directory = tempfile.mkdtemp(prefix="ws-gemm-family-")
            atexit.register(shutil.rmtree, self.directory, True)
            self.save(self.directory)
        return _loaded_family()(os.path.join(self.directory, "family.json"),
                                tuning, sm_count)


_family_class = None


def _loaded_family():
    """KernelFamily with its first kernel's attributes (operands, scalars,
    has_cubin, describe, ...) where the family has none of its own."""
    global _family_class
    if _family_class is None:
        from ._kernel import KernelFamily

        class CompiledKernelFamily(KernelFamily):
            def __getattr__(self, attr):
                if attr.startswith("_") or attr == "kernels":
                    raise AttributeError(attr)
                return getattr(self.kernels[0], attr)
        _family_class = CompiledKernelFamily
    return _family_class


class CompileResult(list):
    """The kernels (sorted by name: a CompiledKernel, or a CompiledFamily
    for a gemm without a config) and every diagnostic (warnings, such as
    register spills, included). `cached`: whether it came from the compile
    cache."""

    def __init__(self, kernels, diagnostics, cached=False):
        super().__init__(kernels)
        self.diagnostics = diagnostics
        self.cached = cached

    def kernel(self, name):
        for k in self:
            if k.name == name:
                return k
        raise KeyError("no kernel %r (compiled: %s)" % (
            name, ", ".join(k.name for k in self) or "none"))


# --- the compile cache -----------------------------------------------------

_CACHE_FORMAT = "ws-gemm-compile-cache"
_CACHE_VERSION = 1
_toolchain_memo = {}


def cache_dir():
    """Where compile results are cached: $WSGEMM_CACHE_DIR, else
    ~/.cache/ws-gemm."""
    return os.environ.get("WSGEMM_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "ws-gemm")


def _stat_id(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [os.path.realpath(path), st.st_size, st.st_mtime_ns]


def _toolchain(cuda_path):
    """What the result depends on besides the text and the options: the
    compiler library (path, size, mtime: a rebuild changes it) and ptxas
    (its --version, asked once per ptxas binary)."""
    compiler = None
    for d in _lib.library_dirs():
        compiler = _stat_id(os.path.join(d, "libWsGemmCAPI.so"))
        if compiler:
            break
    root = cuda_path or os.environ.get("CUDA_HOME")
    ptxas = os.path.join(root, "bin", "ptxas") if root else (
        shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ident = _stat_id(ptxas)
    key = json.dumps(ident)
    if key not in _toolchain_memo:
        version = None
        if ident:
            try:
                version = subprocess.run(
                    [ptxas, "--version"], capture_output=True, text=True,
                    timeout=30).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                version = None
        _toolchain_memo[key] = [ident, version]
    return {"compiler": compiler, "ptxas": _toolchain_memo[key]}


def _cache_key(text, name, options, cuda_path):
    h = hashlib.sha256()
    h.update(json.dumps({"format": _CACHE_FORMAT, "version": _CACHE_VERSION,
                         "name": name, "options": options,
                         "toolchain": _toolchain(cuda_path)},
                        sort_keys=True).encode())
    h.update(b"\0")
    h.update(text)
    return h.hexdigest()


def _kernel_files(k, directory, base):
    """Writes one kernel's files; returns what the index records."""
    k.save(directory)
    _write(os.path.join(directory, base + ".ptxas.log"), k.ptxas_log)
    return {"name": k.name,
            "sizes": [len(k.manifest_json.encode()), len(k.ptx.encode()),
                      len(k.cubin), len(k.ptxas_log.encode())]}


def _read_kernel(directory, entry, cls=None, **extra):
    check_kernel_name(entry["name"])  # a damaged index is a miss
    base = os.path.join(directory, entry["name"])
    parts = []
    for ext, binary in ((".json", False), (".ptx", False), (".cubin", True),
                        (".ptxas.log", False)):
        path = base + ext
        if ext == ".cubin" and not os.path.exists(path):
            parts.append(b"")
            continue
        with open(path, "rb") as f:
            parts.append(f.read())
    if [len(p) for p in parts] != entry["sizes"]:
        raise ValueError("size mismatch in %s" % base)
    manifest, ptx, cubin, log = parts
    k = (cls or CompiledKernel)(entry["name"], manifest.decode(),
                                ptx.decode(), cubin, log.decode())
    for attr, value in extra.items():
        setattr(k, attr, value)
    return k


def _cache_load(entry_dir):
    """The CompileResult stored in `entry_dir`, or None when it is missing
    or damaged (a damaged entry is then recompiled and replaced)."""
    try:
        with open(os.path.join(entry_dir, "index.json")) as f:
            index = json.load(f)
        if (index.get("format") != _CACHE_FORMAT or
                index.get("version") != _CACHE_VERSION):
            return None
        items = []
        for item in index["items"]:
            if "family" not in item:
                items.append(_read_kernel(entry_dir, item))
                continue
            check_kernel_name(item["family"])
            for v in item["variants"]:
                _check_variant_id(v["id"])
            fdir = os.path.join(entry_dir, item["family"])
            with open(os.path.join(fdir, "family.json")) as f:
                family_json = f.read()
            json.loads(family_json)
            variants = [_read_kernel(os.path.join(fdir, v["id"]), v,
                                     CompiledVariant, id=v["id"],
                                     config=v["config"])
                        for v in item["variants"]]
            items.append(CompiledFamily(item["family"], family_json,
                                        variants, fdir))
        diags = [Diagnostic(*d) for d in index["diagnostics"]]
        return CompileResult(items, diags, cached=True)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _cache_store(root, key, result):
    """Writes `result` under root/key through a temporary directory renamed
    into place; points its families at their files there. Best effort: a
    cache that cannot be written is no error."""
    final = os.path.join(root, key)
    try:
        os.makedirs(root, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".tmp-" + key[:16] + "-", dir=root)
    except OSError:
        return
    try:
        items = []
        for item in result:
            if isinstance(item, CompiledFamily):
                check_kernel_name(item.name)
                fdir = os.path.join(tmp, item.name)
                os.makedirs(fdir)
                _write(os.path.join(fdir, "family.json"), item.family_json)
                variants = []
                for v in item.variants:
                    e = _kernel_files(v, os.path.join(fdir, v.id), v.name)
                    e.update(id=v.id, config=v.config)
                    variants.append(e)
                items.append({"family": item.name, "variants": variants})
            else:
                items.append(_kernel_files(item, tmp, item.name))
        index = {"format": _CACHE_FORMAT, "version": _CACHE_VERSION,
                 "items": items,
                 "diagnostics": [[d.severity, d.file, d.line, d.column,
                                  d.message] for d in result.diagnostics]}
        _write(os.path.join(tmp, "index.json"), json.dumps(index))
        if os.path.exists(final):
            if _cache_load(final) is not None:  # another process's, good
                shutil.rmtree(tmp, ignore_errors=True)
                tmp = None
                raise OSError("kept the entry already there")
            # A damaged entry: replace it.
            trash = final + ".old-%d" % os.getpid()
            os.rename(final, trash)
            shutil.rmtree(trash, ignore_errors=True)
        os.rename(tmp, final)
    except (OSError, ValueError):  # ValueError: a name save() refuses
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
        if not os.path.isdir(final):
            return
    for item in result:
        if isinstance(item, CompiledFamily) and item.directory is None:
            item.directory = os.path.join(final, item.name)


class CompiledVariant(CompiledKernel):
    """A variant of a CompiledFamily: a CompiledKernel with its `id` and
    planned `config`."""

    def __repr__(self):
        return "<ws_gemm.CompiledVariant %s/%s>" % (self.name, self.id)


def compile(mlir_text, name="input.mlir", emit="all", chip=None,
            features=None, cuda_path=None, opt_level=3, spills="warn",
            family=None, jobs=0, cache=True):
    """Compiles every wsgemm.gemm (or linalg matmul chain) in `mlir_text`.
    `name` names the text in diagnostics; emit "all" (PTX + cubin, needs
    ptxas) or "ptx"; spills "warn", "error" or "allow"; family "default"
    (a gemm without a config becomes a CompiledFamily, its default family,
    compiled on `jobs` threads, 0: the cores) or "none" (its default kernel
    alone, as ws-gemm-compile); None: "default", or "none" with emit="ptx"
    (the runtime loads a family's variants only with their cubins). `cache`: look the result up in, and store
    it to, the compile cache (cache_dir()); False compiles regardless.
    `chip`: "sm_90a", "sm_80", "sm_86" or "sm_89"; None: the chip of the
    GPU this process would launch on (device_chip()), or sm_90a without a
    driver, a device or kernels for it.
    Raises CompileError (with .diagnostics, each with its location) when
    any kernel fails; failures are not cached."""
    if emit not in _EMIT:
        raise ValueError("emit: %r is not one of %s" % (emit, sorted(_EMIT)))
    if spills not in _SPILLS:
        raise ValueError("spills: %r is not one of %s" % (spills,
                                                          sorted(_SPILLS)))
    if family is None:
        family = "none" if emit == "ptx" else "default"
    if family not in _FAMILY:
        raise ValueError("family: %r is not one of %s" % (family,
                                                          sorted(_FAMILY)))
    if chip is None:
        chip = _detected_chip()
    text = mlir_text.encode() if isinstance(mlir_text, str) else mlir_text
    key = root = None
    if cache:
        root = cache_dir()
        key = _cache_key(text, name, [emit, chip, features, cuda_path,
                                      int(opt_level), spills, family],
                         cuda_path)
        hit = _cache_load(os.path.join(root, key))
        if hit is not None:
            return hit
    result = _compile(text, name, emit, chip, features, cuda_path, opt_level,
                      spills, family, jobs)
    if cache:
        _cache_store(root, key, result)
    return result


def _detected_chip():
    """The chip of the GPU this process would launch on, or None (the
    compiler's default, sm_90a) where there is no driver, no device, or no
    kernels for it (an sm_90a cubin then says why it does not load)."""
    try:
        return _runtime.device_chip()
    except (WsGemmError, OSError):
        return None


def _compile(text, name, emit, chip, features, cuda_path, opt_level, spills,
             family, jobs):
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
    opts.family, opts.jobs = _FAMILY[family], int(jobs)
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
        families = {}
        for f in range(lib.wsgemmCompileResultGetNumFamilies(result)):
            fname = lib.wsgemmCompileResultGetFamilyName(result, f).str()
            variants = []
            for v in range(lib.wsgemmCompileResultGetFamilyNumVariants(
                    result, f)):
                get = (lambda what: getattr(
                    lib, "wsgemmCompileResultGetFamilyVariant" + what)(
                        result, f, v))
                k = CompiledVariant(fname, get("Manifest").str(),
                                    get("PTX").str(), get("Cubin").bytes(),
                                    get("PtxasLog").str())
                k.id, k.config = get("Id").str(), get("Config").str()
                variants.append(k)
            families[fname] = CompiledFamily(
                fname, lib.wsgemmCompileResultGetFamilyManifest(
                    result, f).str(), variants)
        kernels = []
        for i in range(lib.wsgemmCompileResultGetNumKernels(result)):
            kname = lib.wsgemmCompileResultGetKernelName(result, i).str()
            if kname in families:
                kernels.append(families[kname])
                continue
            kernels.append(CompiledKernel(
                kname,
                lib.wsgemmCompileResultGetKernelManifest(result, i).str(),
                lib.wsgemmCompileResultGetKernelPTX(result, i).str(),
                lib.wsgemmCompileResultGetKernelCubin(result, i).bytes(),
                lib.wsgemmCompileResultGetKernelPtxasLog(result, i).str()))
        return CompileResult(kernels, diags)
    finally:
        lib.wsgemmCompileResultDestroy(result)
