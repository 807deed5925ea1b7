"""Pre-packing of quantized weights for mixed-input kernels.

A kernel with ``dequant_a`` (docs/mixed-input.md) reads its i4 weight in
the layout ``wsgemm.i4.m64k64.v1``; ``prepack_i4`` builds it from plain
4-bit values (one per byte) through the runtime's C API, on the host.
"""

import ctypes

from . import _runtime


def _host_bytes(a):
    """A contiguous host uint8 buffer of ``a`` (bytes, bytearray, a NumPy
    array or a CPU torch tensor) as (ctypes pointer, keep-alive, size)."""
    if hasattr(a, "detach"):  # torch
        a = a.detach().cpu().contiguous().numpy()
    if hasattr(a, "ctypes"):  # numpy
        import numpy as np
        a = np.ascontiguousarray(a, dtype=np.uint8)
        return ctypes.c_void_p(a.ctypes.data), a, a.size
    buf = (ctypes.c_uint8 * len(a)).from_buffer_copy(bytes(a))
    return ctypes.cast(buf, ctypes.c_void_p), buf, len(a)


def prepack_i4(q, m=None, k=None, l=1):
    """The packed bytes of ``q``: L x M x K values in [0, 15], one per byte,
    K contiguous. Raises ArgumentError (naming the rule) for M or K not a
    multiple of 64 or a value above 15.

    ``q`` a torch tensor of shape (M, K) or (L, M, K) (any integer dtype,
    any device; M, K and L from its shape): returns a torch.uint8 tensor of
    shape (M, K / 2) or (L, M, K / 2) on q's device, the A a mixed-input
    kernel and its torch op take. Otherwise (bytes, a NumPy array; m and
    k given): returns ``bytes``."""
    if hasattr(q, "detach") and m is None:
        import torch
        if q.dim() not in (2, 3):
            raise ValueError("q has shape %s; expected (M, K) or (L, M, K)"
                             % (tuple(q.shape),))
        ql, qm, qk = (q.shape[0] if q.dim() == 3 else 1), q.shape[-2], \
            q.shape[-1]
        data = prepack_i4(q.to(torch.uint8), qm, qk, ql)
        out = torch.frombuffer(bytearray(data), dtype=torch.uint8)
        shape = (qm, qk // 2) if q.dim() == 2 else (ql, qm, qk // 2)
        return out.view(shape).to(q.device)
    if m is None or k is None:
        raise ValueError("prepack_i4: give m and k (or a torch tensor)")
    lib = _runtime.api()
    ptr, keep, size = _host_bytes(q)
    if size != m * k * l:
        raise ValueError("q has %d values, expected M*K*L = %d"
                         % (size, m * k * l))
    out = (ctypes.c_uint8 * lib.wsgemmRtPackedI4Bytes(m, k, l))()
    _runtime.check(lib.wsgemmRtPrepackI4(ptr, m, k, l,
                                         ctypes.cast(out, ctypes.c_void_p)))
    del keep
    return bytes(out)


def unpack_i4(packed, m, k, l=1):
    """The inverse of prepack_i4: ``bytes`` of L x M x K values."""
    lib = _runtime.api()
    ptr, keep, size = _host_bytes(packed)
    if size != lib.wsgemmRtPackedI4Bytes(m, k, l):
        raise ValueError("packed has %d bytes, expected M*K*L/2" % size)
    out = (ctypes.c_uint8 * (m * k * l))()
    _runtime.check(lib.wsgemmRtUnpackI4(ptr, m, k, l,
                                        ctypes.cast(out, ctypes.c_void_p)))
    del keep
    return bytes(out)
