"""Finding and loading ws-gemm's shared libraries with ctypes.

The package sits in <root>/python/ws_gemm and the libraries in <root>/lib,
in the build tree (build/python, build/lib), in an install prefix
(cmake --install: P/python, P/lib) and in the GPU machine's staged copy
(.device/python, .device/lib). $WSGEMM_LIB_DIR overrides the directory.
Each library is loaded on first use, so the runtime works where the
compiler's library (which needs LLVM/MLIR) is absent, and the reverse.
"""

import ctypes
import glob
import os
import threading

from ._errors import WsGemmError

_here = os.path.dirname(os.path.abspath(__file__))
_lock = threading.Lock()
_loaded = {}


def library_dirs():
    """Where the libraries are looked for, in order."""
    dirs = []
    env = os.environ.get("WSGEMM_LIB_DIR")
    if env:
        dirs.append(env)
    root = os.path.normpath(os.path.join(_here, "..", ".."))
    dirs.append(os.path.join(root, "lib"))
    # An install whose libdir is not lib/ (lib64, lib/<multiarch>).
    for d in sorted(glob.glob(os.path.join(root, "lib*"))) + sorted(
            glob.glob(os.path.join(root, "lib", "*-linux-gnu"))):
        if d not in dirs and os.path.isdir(d):
            dirs.append(d)
    return dirs


def load(name):
    """The ctypes.CDLL of lib<name>.so, loaded once; WsGemmError saying
    where it was looked for when it cannot be loaded."""
    with _lock:
        if name in _loaded:
            return _loaded[name]
        errors = []
        for d in library_dirs():
            path = os.path.join(d, "lib%s.so" % name)
            if not os.path.exists(path):
                errors.append("%s: no such file" % path)
                continue
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                errors.append("%s: %s" % (path, e))
                continue
            _loaded[name] = lib
            return lib
        raise WsGemmError(
            "cannot load lib%s.so (%s); set WSGEMM_LIB_DIR to the directory "
            "that holds it" % (name, "; ".join(errors)))


class StringRef(ctypes.Structure):
    """MLIR's MlirStringRef: data + length (not NUL-terminated)."""
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    def bytes(self):
        if not self.length:
            return b""
        return ctypes.string_at(self.data, self.length)

    def str(self):
        return self.bytes().decode("utf-8", errors="replace")


def declare(lib, name, restype, *argtypes):
    """Sets a function's signature (ctypes defaults to int everywhere)."""
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn
