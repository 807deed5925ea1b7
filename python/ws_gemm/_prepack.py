"""Pre-packing of quantized weights for mixed-input kernels.

A kernel with ``dequant_a`` (docs/mixed-input.md) reads its quantized
weight pre-packed: an i4 weight in the layout ``wsgemm.i4.m64k64.v1``, an
i8 or f8e4m3 one in ``wsgemm.b8.m64k64.v1``. ``prepack_i4`` and
``prepack_b8`` build them from plain values (one per byte) through the
runtime's C API, on the host; ``unpack_i4`` and ``unpack_b8`` invert them.
"""

import ctypes

from . import _runtime

# Per packing: the C API's prefix and how many values one packed byte holds.
_I4 = ("I4", 2)
_B8 = ("B8", 1)


def _host_bytes(a):
    """A contiguous host uint8 buffer of ``a`` (bytes, bytearray, a NumPy
    array or a CPU torch tensor) as (ctypes pointer, keep-alive, size).
    Arrays of 1-byte elements are taken bit for bit (int8 -1 is 0xFF)."""
    if hasattr(a, "detach"):  # torch
        a = a.detach().cpu().contiguous().numpy()
    if hasattr(a, "ctypes"):  # numpy
        import numpy as np
        a = np.ascontiguousarray(a)
        a = a.view(np.uint8) if a.itemsize == 1 else a.astype(np.uint8)
        return ctypes.c_void_p(a.ctypes.data), a, a.size
    buf = (ctypes.c_uint8 * len(a)).from_buffer_copy(bytes(a))
    return ctypes.cast(buf, ctypes.c_void_p), buf, len(a)


def _prepack(packing, q, m, k, l, as_bytes):
    """prepack_i4 / prepack_b8: ``as_bytes(q)`` turns a torch ``q`` into a
    uint8 tensor of its values."""
    name, per_byte = packing
    fn = "prepack_" + name.lower()
    if hasattr(q, "detach") and m is None:
        if q.dim() not in (2, 3):
            raise ValueError("q has shape %s; expected (M, K) or (L, M, K)"
                             % (tuple(q.shape),))
        ql, qm, qk = (q.shape[0] if q.dim() == 3 else 1), q.shape[-2], \
            q.shape[-1]
        import torch
        data = _prepack(packing, as_bytes(q), qm, qk, ql, as_bytes)
        out = torch.frombuffer(bytearray(data), dtype=torch.uint8)
        cols = qk // per_byte
        shape = (qm, cols) if q.dim() == 2 else (ql, qm, cols)
        return out.view(shape).to(q.device)
    if m is None or k is None:
        raise ValueError("%s: give m and k (or a torch tensor)" % fn)
    lib = _runtime.api()
    ptr, keep, size = _host_bytes(q)
    if size != m * k * l:
        raise ValueError("q has %d values, expected M*K*L = %d"
                         % (size, m * k * l))
    out = (ctypes.c_uint8 * getattr(lib, "wsgemmRtPacked%sBytes" % name)(
        m, k, l))()
    _runtime.check(getattr(lib, "wsgemmRtPrepack%s" % name)(
        ptr, m, k, l, ctypes.cast(out, ctypes.c_void_p)))
    del keep
    return bytes(out)


def _unpack(packing, packed, m, k, l):
    name, per_byte = packing
    lib = _runtime.api()
    ptr, keep, size = _host_bytes(packed)
    if size != getattr(lib, "wsgemmRtPacked%sBytes" % name)(m, k, l):
        raise ValueError("packed has %d bytes, expected M*K*L%s" % (
            size, "/%d" % per_byte if per_byte > 1 else ""))
    out = (ctypes.c_uint8 * (m * k * l))()
    _runtime.check(getattr(lib, "wsgemmRtUnpack%s" % name)(
        ptr, m, k, l, ctypes.cast(out, ctypes.c_void_p)))
    del keep
    return bytes(out)


def prepack_i4(q, m=None, k=None, l=1):
    """The packed bytes of ``q``: L x M x K values in [0, 15], one per byte,
    K contiguous. Raises ArgumentError (naming the rule) for M or K not a
    multiple of 64 or a value above 15.

    ``q`` a torch tensor of shape (M, K) or (L, M, K) (any integer dtype,
    any device; M, K and L from its shape): returns a torch.uint8 tensor of
    shape (M, K / 2) or (L, M, K / 2) on q's device, the A a mixed-input
    kernel and its torch op take. Otherwise (bytes, a NumPy array; m and
    k given): returns ``bytes``."""
    def values(t):
        import torch
        return t.to(torch.uint8)
    return _prepack(_I4, q, m, k, l, values)


def unpack_i4(packed, m, k, l=1):
    """The inverse of prepack_i4: ``bytes`` of L x M x K values."""
    return _unpack(_I4, packed, m, k, l)


def prepack_b8(q, m=None, k=None, l=1):
    """The packed bytes of an 8-bit weight ``q``: L x M x K bytes, K
    contiguous (int8 values or float8_e4m3fn bit patterns; any byte).
    Raises ArgumentError (naming the rule) for M or K not a multiple of 64.

    ``q`` a torch tensor of shape (M, K) or (L, M, K) of dtype int8, uint8
    or float8_e4m3fn (its bytes are packed as they are; any device; M, K
    and L from its shape): returns a torch.uint8 tensor of the same shape
    on q's device, the A a mixed-input kernel and its torch op take.
    Otherwise (bytes, a NumPy array of 1-byte elements; m and k given):
    returns ``bytes``."""
    def raw(t):
        import torch
        byte_types = [torch.int8, torch.uint8]
        if hasattr(torch, "float8_e4m3fn"):
            byte_types.append(torch.float8_e4m3fn)
        if t.dtype not in byte_types:
            raise ValueError(
                "prepack_b8: q has dtype %s; expected int8, uint8 or "
                "float8_e4m3fn (quantize it first)"
                % str(t.dtype).replace("torch.", ""))
        return t.view(torch.uint8)
    return _prepack(_B8, q, m, k, l, raw)


def unpack_b8(packed, m, k, l=1):
    """The inverse of prepack_b8: ``bytes`` of L x M x K bytes."""
    return _unpack(_B8, packed, m, k, l)
