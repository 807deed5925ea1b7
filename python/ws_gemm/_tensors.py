"""Device pointers, shapes, strides and dtypes from array objects.

PyTorch tensors are read directly (data_ptr(), shape, stride(), dtype: no
DLPack capsule, a few hundred nanoseconds). Any other array goes through
one of two protocols, tried in this order:
  - DLPack (`__dlpack__` / `__dlpack_device__`), which knows bf16 and fp8
    (PyTorch, JAX, CuPy, ...); only CUDA (and CUDA managed) memory is
    accepted;
  - `__cuda_array_interface__` (Numba, CuPy, PyTorch for f16/f32), whose
    typestr cannot name bf16 or fp8: a 2-byte or 1-byte type it does not
    name is taken as "some type of that size", checked by size only.
Nothing here touches the memory: only the descriptors are read.
"""

import ctypes
import sys

from ._errors import ArgumentError

# DLPack (dlpack.h): device types and type codes.
_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED = 1, 2, 3, 13
_DEVICE_NAMES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl",
                 7: "vulkan", 8: "metal", 10: "rocm", 13: "cuda_managed"}
_DL_INT, _DL_UINT, _DL_FLOAT, _DL_BFLOAT = 0, 1, 2, 4
_DL_FLOAT8_E4M3FN, _DL_FLOAT8_E5M2 = 10, 12

# Bytes per stored element. "u8" is a byte array: a pre-packed weight
# arrives as one (or as "i8" or "f8e4m3" bytes when 8-bit); "i4" counts its
# packed bytes (two values per byte).
DTYPE_SIZES = {"f16": 2, "bf16": 2, "f32": 4, "f8e4m3": 1, "f8e5m2": 1,
               "u8": 1, "i8": 1, "i4": 1}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_capsule_get = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get.restype = ctypes.c_void_p
_capsule_get.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_valid.restype = ctypes.c_int
_capsule_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]


class TensorInfo:
    """What a launch needs of one array: device address, shape and strides
    (elements, outermost first), dtype (None: only `itemsize` is known)."""

    def __init__(self, ptr, shape, strides, dtype, itemsize, source):
        self.ptr = ptr
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.dtype = dtype
        self.itemsize = itemsize
        self.source = source

    def __repr__(self):
        return "TensorInfo(0x%x, shape=%s, strides=%s, dtype=%s, from %s)" % (
            self.ptr, self.shape, self.strides, self.dtype, self.source)


def _packed_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def _dl_dtype(dt):
    if dt.lanes != 1:
        return None
    return {(_DL_FLOAT, 16): "f16", (_DL_FLOAT, 32): "f32",
            (_DL_BFLOAT, 16): "bf16", (_DL_FLOAT8_E4M3FN, 8): "f8e4m3",
            (_DL_FLOAT8_E5M2, 8): "f8e5m2",
            (_DL_UINT, 8): "u8", (_DL_INT, 8): "i8"}.get((dt.code, dt.bits))


def _device_error(name, dev_type):
    return ArgumentError(
        "%s: the array is in %s memory (DLPack device %d); the kernel needs "
        "CUDA device memory" % (name, _DEVICE_NAMES.get(dev_type, "non-CUDA"),
                                dev_type))


def read_capsule(name, capsule):
    """(TensorInfo, DLPack device type) of a 'dltensor' capsule. The capsule
    is not consumed: its destructor releases the producer's reference, and
    the caller keeps the array (and so the memory) alive."""
    if not _capsule_valid(capsule, b"dltensor"):
        raise ArgumentError("%s: __dlpack__() did not return a 'dltensor' "
                            "capsule" % name)
    managed = _DLManagedTensor.from_address(_capsule_get(capsule, b"dltensor"))
    t = managed.dl_tensor
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = (tuple(t.strides[i] for i in range(t.ndim)) if t.strides
               else _packed_strides(shape))
    dtype = _dl_dtype(t.dtype)
    if dtype is None:
        raise ArgumentError(
            "%s: DLPack dtype (code %d, %d bits, %d lanes) is none of the "
            "kernels' element types (f16, bf16, f32, f8e4m3, f8e5m2)" % (
                name, t.dtype.code, t.dtype.bits, t.dtype.lanes))
    ptr = (t.data or 0) + t.byte_offset
    return (TensorInfo(ptr, shape, strides, dtype, DTYPE_SIZES[dtype],
                       "DLPack"), t.device.device_type)


def _from_dlpack(name, obj, stream):
    if hasattr(obj, "__dlpack_device__"):
        dev_type = int(obj.__dlpack_device__()[0])
        if dev_type not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
            raise _device_error(name, dev_type)
    # The consumer's stream (the array API's rule: 1 is CUDA's legacy
    # default stream, 0 is not allowed), so the producer orders its pending
    # work before the launch.
    try:
        capsule = obj.__dlpack__(stream=stream if stream else 1)
    except TypeError:
        capsule = obj.__dlpack__()
    info, dev_type = read_capsule(name, capsule)
    if dev_type not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        raise _device_error(name, dev_type)
    return info


_TYPESTRS = {"f2": ("f16", 2), "f4": ("f32", 4), "V2": (None, 2),
             "V1": (None, 1), "u1": (None, 1), "i1": (None, 1)}


def _from_cai(name, obj):
    cai = obj.__cuda_array_interface__
    if cai.get("mask") is not None:
        raise ArgumentError("%s: masked arrays are not supported" % name)
    typestr = cai["typestr"]
    if typestr[1:] not in _TYPESTRS:
        raise ArgumentError(
            "%s: element type '%s' (__cuda_array_interface__) is none of the "
            "kernels' element types (f16, bf16, f32, f8e4m3, f8e5m2)" % (
                name, typestr))
    dtype, size = _TYPESTRS[typestr[1:]]
    shape = tuple(int(n) for n in cai["shape"])
    if cai.get("strides") is None:
        strides = _packed_strides(shape)
    else:
        byte_strides = tuple(int(s) for s in cai["strides"])
        if any(s % size for s in byte_strides):
            raise ArgumentError(
                "%s: strides %s bytes are not multiples of the element size "
                "%d" % (name, byte_strides, size))
        strides = tuple(s // size for s in byte_strides)
    ptr = int(cai["data"][0] or 0)
    return TensorInfo(ptr, shape, strides, dtype, size,
                      "__cuda_array_interface__")


def torch_tensor_type():
    """torch.Tensor when torch is imported (no torch tensor exists
    otherwise), else None; never imports torch."""
    torch = sys.modules.get("torch")
    return getattr(torch, "Tensor", None) if torch is not None else None


_TORCH_DTYPES = {}


def _torch_dtype(torch, dt):
    if not _TORCH_DTYPES:
        for name, attr in (("f16", "float16"), ("bf16", "bfloat16"),
                           ("f32", "float32"), ("f8e4m3", "float8_e4m3fn"),
                           ("f8e5m2", "float8_e5m2"), ("u8", "uint8"),
                           ("i8", "int8")):
            if hasattr(torch, attr):
                _TORCH_DTYPES[getattr(torch, attr)] = name
    return _TORCH_DTYPES.get(dt)


def _from_torch(name, t):
    import torch
    if t.device.type != "cuda":
        raise ArgumentError(
            "%s: the tensor is in %s memory (torch device %s); the kernel "
            "needs CUDA device memory" % (name, t.device.type, t.device))
    dtype = _torch_dtype(torch, t.dtype)
    if dtype is None:
        raise ArgumentError(
            "%s: torch dtype %s is none of the kernels' element types (f16, "
            "bf16, f32, f8e4m3, f8e5m2; uint8 or int8 for a pre-packed "
            "weight)"
            % (name, str(t.dtype).replace(
                "torch.", "")))
    return TensorInfo(t.data_ptr(), t.shape, t.stride(), dtype,
                      DTYPE_SIZES[dtype], "torch")


def tensor_info(name, obj, stream=0):
    """TensorInfo of `obj` (named `name` in messages): a torch tensor
    directly, else DLPack first, then __cuda_array_interface__;
    ArgumentError when it has none of them."""
    if isinstance(obj, TensorInfo):
        return obj
    tensor = torch_tensor_type()
    if tensor is not None and isinstance(obj, tensor):
        return _from_torch(name, obj)
    errors = []
    if hasattr(obj, "__dlpack__"):
        try:
            return _from_dlpack(name, obj, stream)
        except ArgumentError:
            raise
        except Exception as e:  # e.g. a tensor that requires grad
            errors.append("__dlpack__: %s" % e)
    if hasattr(obj, "__cuda_array_interface__"):
        try:
            return _from_cai(name, obj)
        except ArgumentError:
            raise
        except Exception as e:
            errors.append("__cuda_array_interface__: %s" % e)
    if errors:
        raise ArgumentError("%s: cannot read the array (%s)" % (
            name, "; ".join(errors)))
    raise ArgumentError(
        "%s: %s is no device array (it has neither __dlpack__ nor "
        "__cuda_array_interface__)" % (name, type(obj).__name__))
