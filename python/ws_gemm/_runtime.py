"""ctypes bindings of libWsGemmRuntimeC.so (ws-gemm-runtime-c/Runtime.h)."""

import ctypes

from . import _lib
from ._errors import (ArgumentError, CudaError, ManifestError, NoDriverError,
                      WsGemmError)

_c = ctypes
_P = _c.c_void_p
_S = _c.c_char_p
_PS = _c.POINTER(_c.c_char_p)

OK, INVALID_CALL, MANIFEST, REFUSED, NO_DRIVER, CUDA = range(6)
_ERRORS = {INVALID_CALL: ArgumentError, MANIFEST: ManifestError,
           REFUSED: ArgumentError, NO_DRIVER: NoDriverError, CUDA: CudaError}

_api = None


def api():
    """The library with every signature declared (loaded on first use)."""
    global _api
    if _api is not None:
        return _api
    lib = _lib.load("WsGemmRuntimeC")
    d = _lib.declare
    i32, i64, ip = _c.c_int, _c.c_int64, _c.c_ssize_t
    d(lib, "wsgemmRtGetLastError", _S)
    d(lib, "wsgemmRtGetVersion", _S)
    d(lib, "wsgemmRtArgsCreate", _P)
    d(lib, "wsgemmRtArgsDestroy", None, _P)
    d(lib, "wsgemmRtArgsSetProblem", i32, _P, i64, i64, i64, i64)
    d(lib, "wsgemmRtArgsSetTensor", i32, _P, _S, _c.c_uint64, _S, i64, i64)
    d(lib, "wsgemmRtArgsSetScalar", i32, _P, _S, _c.c_float)
    d(lib, "wsgemmRtArgsSetWorkspace", i32, _P, _c.c_uint64, _c.c_uint64)
    d(lib, "wsgemmRtKernelLoad", i32, _S, _c.POINTER(_P))
    d(lib, "wsgemmRtKernelLoadFromMemory", i32, _S, _c.c_size_t, _c.c_char_p,
      _c.c_size_t, _S, _c.POINTER(_P))
    d(lib, "wsgemmRtKernelDestroy", None, _P)
    for name in ("Name", "Arch", "ManifestJson", "SourceGate"):
        d(lib, "wsgemmRtKernelGet" + name, _S, _P)
    d(lib, "wsgemmRtKernelDescribe", _S, _P)
    d(lib, "wsgemmRtKernelIsBatched", i32, _P)
    d(lib, "wsgemmRtKernelHasCubin", i32, _P)
    d(lib, "wsgemmRtKernelGetStaticShape", i32, _P, _c.POINTER(i64))
    d(lib, "wsgemmRtKernelGetConfig", i64, _P, _c.POINTER(i64),
      _c.POINTER(i64))
    d(lib, "wsgemmRtKernelGetOperand", i32, _P, _S, _PS, _PS)
    d(lib, "wsgemmRtKernelGetNumParams", ip, _P)
    d(lib, "wsgemmRtKernelGetParam", i32, _P, ip, _PS, _PS, _PS, _PS, _PS,
      _PS)
    d(lib, "wsgemmRtKernelValidate", i32, _P, _P)
    d(lib, "wsgemmRtKernelLaunch", i32, _P, _P, _P)
    d(lib, "wsgemmRtKernelGetWorkspaceSize", i32, _P, _P,
      _c.POINTER(_c.c_uint64))
    d(lib, "wsgemmRtFamilyLoad", i32, _S, _S, i32, _c.POINTER(_P))
    d(lib, "wsgemmRtFamilyDestroy", None, _P)
    d(lib, "wsgemmRtFamilyGetName", _S, _P)
    d(lib, "wsgemmRtFamilyGetNumVariants", ip, _P)
    d(lib, "wsgemmRtFamilyGetVariantId", _S, _P, ip)
    d(lib, "wsgemmRtFamilyGetVariantKernel", _P, _P, ip)
    d(lib, "wsgemmRtFamilySelect", i32, _P, i64, i64, i64, i64,
      _c.POINTER(ip), _c.POINTER(i32), _PS)
    d(lib, "wsgemmRtFamilyValidate", i32, _P, _P)
    d(lib, "wsgemmRtFamilyLaunch", i32, _P, _P, _P, _c.POINTER(ip))
    d(lib, "wsgemmRtPackedI4Bytes", i64, i64, i64, i64)
    d(lib, "wsgemmRtPrepackI4", i32, _P, i64, i64, i64, _P)
    d(lib, "wsgemmRtUnpackI4", i32, _P, i64, i64, i64, _P)
    d(lib, "wsgemmRtPackedB8Bytes", i64, i64, i64, i64)
    d(lib, "wsgemmRtPrepackB8", i32, _P, i64, i64, i64, _P)
    d(lib, "wsgemmRtUnpackB8", i32, _P, i64, i64, i64, _P)
    d(lib, "wsgemmRtInitDevice", i32, i32)
    d(lib, "wsgemmRtDeviceGetChip", i32, i32, _c.c_char_p, _c.c_size_t)
    d(lib, "wsgemmRtStreamSynchronize", i32, _P)
    _api = lib
    return lib


def text(b):
    return b.decode("utf-8", errors="replace") if b is not None else ""


def check(status):
    """Raises the exception of a failed WsGemmRtStatus with the library's
    message."""
    if status == OK:
        return
    message = text(api().wsgemmRtGetLastError())
    raise _ERRORS.get(status, WsGemmError)(message)


class Args:
    """An owned WsGemmRtArgs handle."""

    def __init__(self):
        self._lib = api()
        self.handle = self._lib.wsgemmRtArgsCreate()
        if not self.handle:
            raise MemoryError("wsgemmRtArgsCreate")

    def __del__(self):
        if getattr(self, "handle", None):
            self._lib.wsgemmRtArgsDestroy(self.handle)
            self.handle = None

    def problem(self, m, n, k, l):
        check(self._lib.wsgemmRtArgsSetProblem(self.handle, m, n, k, l))

    def tensor(self, name, ptr, dtype=None, ld=0, batch_stride=0):
        check(self._lib.wsgemmRtArgsSetTensor(
            self.handle, name.encode(), ptr,
            dtype.encode() if dtype else None, ld, batch_stride))

    def scalar(self, name, value):
        check(self._lib.wsgemmRtArgsSetScalar(self.handle, name.encode(),
                                              float(value)))


def stream_handle(stream):
    """A CUstream as an int: None (the legacy default stream), an int, or an
    object with `cuda_stream` (torch.cuda.Stream) or `ptr` (cupy)."""
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):
        if hasattr(stream, attr):
            return int(getattr(stream, attr))
    raise ArgumentError("stream: %r is no CUDA stream (expected an int "
                        "handle or an object with .cuda_stream)" % (stream,))


def init_device(ordinal=0):
    """Retains device `ordinal`'s primary context and makes it current on
    this thread (what torch uses; not needed after torch touched the GPU)."""
    check(api().wsgemmRtInitDevice(ordinal))


def device_chip(ordinal=None):
    """The chip to compile for to run on device `ordinal` (None: the
    current context's device, as torch's current device once torch used
    the GPU; else device 0): "sm_90a", "sm_80", "sm_86" or "sm_89".
    Raises NoDriverError without a driver, CudaError without the device,
    ArgumentError for a GPU ws-gemm has no kernels for."""
    buf = _c.create_string_buffer(16)
    check(api().wsgemmRtDeviceGetChip(-1 if ordinal is None else int(ordinal),
                                      buf, len(buf)))
    return buf.value.decode()


def synchronize(stream=None):
    """Waits for `stream`; raises the error of a kernel that failed on it."""
    check(api().wsgemmRtStreamSynchronize(stream_handle(stream)))
