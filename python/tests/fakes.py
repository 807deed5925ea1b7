"""Array stand-ins for the CPU tests: objects that expose
__cuda_array_interface__ or DLPack over made-up device addresses (nothing
reads the memory before a launch, and without a GPU the launch stops at
the driver)."""

import ctypes

from ws_gemm import _tensors as t

_TYPESTR = {"f16": "<f2", "f32": "<f4", "bf16": "<V2", "f8e4m3": "|u1",
            "u8": "|u1", "i8": "|i1"}
_DL = {"f16": (2, 16), "f32": (2, 32), "bf16": (4, 16), "f8e4m3": (10, 8),
       "f64": (2, 64), "u8": (1, 8), "i8": (0, 8)}


def packed(shape):
    return t._packed_strides(shape)


class CudaArray:
    """__cuda_array_interface__ v3; strides in elements (None: packed)."""

    def __init__(self, shape, dtype="f16", ptr=0x10000, strides=None):
        size = t.DTYPE_SIZES.get(dtype, 4)
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": _TYPESTR.get(dtype, "<f8"),
            "data": (ptr, False), "version": 3,
            "strides": (None if strides is None
                        else tuple(s * size for s in strides))}


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class DLPackArray:
    """A DLPack producer (legacy 'dltensor' capsules, no deleter)."""

    def __init__(self, shape, dtype="f16", ptr=0x10000, strides=None,
                 device=2, offset=0):
        self.shape = tuple(shape)
        self._shape = (ctypes.c_int64 * len(shape))(*shape)
        self._strides = ((ctypes.c_int64 * len(shape))(*strides)
                         if strides is not None else None)
        code, bits = _DL[dtype]
        self._managed = t._DLManagedTensor()
        dl = self._managed.dl_tensor
        dl.data, dl.byte_offset = ptr, offset
        dl.device.device_type, dl.device.device_id = device, 0
        dl.ndim = len(shape)
        dl.dtype.code, dl.dtype.bits, dl.dtype.lanes = code, bits, 1
        dl.shape = self._shape
        dl.strides = self._strides
        self._device = device
        self.streams = []

    def __dlpack_device__(self):
        return (self._device, 0)

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)


class Allocator:
    """Hands out distinct, 256-byte aligned fake addresses."""

    def __init__(self, base=0x7f0000000000):
        self.next = base

    def __call__(self, shape, dtype="f16", kind=CudaArray, **kw):
        n = 1
        for s in shape:
            n *= s
        ptr = self.next
        self.next += (n * t.DTYPE_SIZES.get(dtype, 8) + 255) // 256 * 256 + 256
        return kind(shape, dtype, ptr=ptr, **kw)
