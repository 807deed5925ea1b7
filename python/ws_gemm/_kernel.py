"""Kernel and KernelFamily: a manifest's kernel, checked and launched on
device arrays.

The problem size comes from the arrays: A, B (and D, C, aux matrices) are
read through their tensor maps' dimensions (docs/manifest.md: A k_major is
M x K, m_major K x M; B k_major N x K, n_major K x N; C, D and aux M x N; a
batched kernel takes L in front), vectors by their extents. Shapes, dtypes
and strides are checked here first, with Python's names for things; the
runtime's validate() then checks the rest (alignment, TMA strides) before
anything is launched.
"""

import collections
import ctypes
import json
import math
import numbers
import weakref

from . import _runtime as rt
from ._errors import ArgumentError
from ._tensors import (DTYPE_SIZES, TensorInfo, tensor_info,
                       torch_tensor_type)

Operand = collections.namedtuple("Operand", "dtype layout")
Problem = collections.namedtuple("Problem", "M N K L")
Selection = collections.namedtuple("Selection", "index variant tuned reason")


class Param(collections.namedtuple(
        "Param", "name kind dtype operand dims reduce")):
    """One kernel parameter: kind is tensor_map, matrix (an output stored
    without TMA), pointer, scalar, scalar_pointer, reduction or size; dims
    the matrix's dims or the vector's extent, innermost first ("K", "M",
    "L")."""

    __slots__ = ()

    @property
    def shape_dims(self):
        """The dims of the array, outermost first (PyTorch order)."""
        return tuple(reversed(self.dims))

    @property
    def identity(self):
        """What a reduction output must hold before the launch."""
        return {"sum": 0.0, "absmax": 0.0, "max": -math.inf,
                "min": math.inf}.get(self.reduce)


def _strip_comments(text):
    """JSON without the // and /* */ comments manifests may carry."""
    out, i, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _is_scalar(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


class Kernel:
    """A compiled kernel: its manifest, its cubin, and launch()."""

    def __init__(self, handle, owner=None):
        # Use Kernel.load / Kernel.from_memory / KernelFamily.kernels.
        self._lib = rt.api()
        self._handle = handle
        self._owner = owner  # the family that owns a borrowed handle
        lib, h = self._lib, handle
        self.name = rt.text(lib.wsgemmRtKernelGetName(h))
        self.arch = rt.text(lib.wsgemmRtKernelGetArch(h))
        self.batched = bool(lib.wsgemmRtKernelIsBatched(h))
        self.has_cubin = bool(lib.wsgemmRtKernelHasCubin(h))
        shape = (ctypes.c_int64 * 4)()
        self.static_shape = (Problem(*shape) if
                             lib.wsgemmRtKernelGetStaticShape(h, shape)
                             else None)
        tile, block = (ctypes.c_int64 * 3)(), (ctypes.c_int64 * 3)()
        self.smem_bytes = lib.wsgemmRtKernelGetConfig(h, tile, block)
        self.tile, self.block = tuple(tile), tuple(block)
        self.operands = {}
        for op in "ABCD":
            dt, lay = ctypes.c_char_p(), ctypes.c_char_p()
            if lib.wsgemmRtKernelGetOperand(h, op.encode(), ctypes.byref(dt),
                                            ctypes.byref(lay)):
                self.operands[op] = Operand(rt.text(dt.value),
                                            rt.text(lay.value))
        self.source_gate = rt.text(lib.wsgemmRtKernelGetSourceGate(h)) or None
        operands = self.manifest.get("operands", {})
        # "none", or how the kernel folds its values into D's old ones
        # (epi.store ... reduce add|min|max): D is then input and output.
        self.d_reduce = operands.get("D", {}).get("reduce", "none")
        # A mixed-input kernel's A (docs/mixed-input.md): its packing
        # (wsgemm.i4.m64k64.v1, wsgemm.b8.m64k64.v1), else None; its scale
        # group along K (32, 64 or 128 of K per scale; 0: one per row),
        # else None.
        dequant = operands.get("A", {}).get("dequant") or {}
        self.packing_a = dequant.get("packing")
        self.group_a = dequant.get("group")
        self.params = []
        for i in range(lib.wsgemmRtKernelGetNumParams(h)):
            f = [ctypes.c_char_p() for _ in range(6)]
            rt.check(lib.wsgemmRtKernelGetParam(
                h, i, *[ctypes.byref(x) for x in f]))
            name, kind, dtype, operand, dims, reduce = (rt.text(x.value)
                                                       for x in f)
            self.params.append(Param(name, kind, dtype, operand,
                                     tuple(dims.split(",")) if dims else (),
                                     reduce or None))
        # Arguments by name (size parameters are not arguments: they come
        # from the arrays' shapes).
        self._by_arg = {(p.operand if p.kind in ("tensor_map", "matrix")
                         else p.name): p
                        for p in self.params if p.kind != "size"}
        self._scalars = tuple(p.name for p in self.params
                              if p.kind == "scalar")
        self._launcher = _Launcher(build_args, self, lib.wsgemmRtKernelLaunch,
                                   h)

    @classmethod
    def load(cls, manifest_path):
        """The kernel of a manifest (ws-gemm-compile's <kernel>.json) and
        its cubin; no GPU needed until launch()."""
        lib = rt.api()
        h = ctypes.c_void_p()
        rt.check(lib.wsgemmRtKernelLoad(str(manifest_path).encode(),
                                        ctypes.byref(h)))
        return cls(h.value)

    @classmethod
    def from_memory(cls, manifest_json, cubin=b"", name="<memory>"):
        """A kernel from manifest text and cubin bytes (compile() gives
        both). Without a cubin it can be queried and validated against,
        not launched."""
        lib = rt.api()
        if isinstance(manifest_json, dict):
            manifest_json = json.dumps(manifest_json)
        data = manifest_json.encode() if isinstance(manifest_json, str) \
            else bytes(manifest_json)
        cubin = bytes(cubin or b"")
        h = ctypes.c_void_p()
        rt.check(lib.wsgemmRtKernelLoadFromMemory(
            data, len(data), cubin or None, len(cubin), name.encode(),
            ctypes.byref(h)))
        return cls(h.value)

    def __del__(self):
        if getattr(self, "_owner", True) is None and \
                getattr(self, "_handle", None):
            self._lib.wsgemmRtKernelDestroy(self._handle)
            self._handle = None

    def __repr__(self):
        return "<ws_gemm.Kernel %s %s tile %s>" % (
            self.name, " ".join("%s:%s/%s" % (k, v.dtype, v.layout)
                                for k, v in self.operands.items()),
            "x".join(map(str, self.tile)))

    @property
    def manifest(self):
        """The manifest (docs/manifest.md) as a dict."""
        return json.loads(_strip_comments(rt.text(
            self._lib.wsgemmRtKernelGetManifestJson(self._handle))))

    def describe(self):
        """The interface a caller depends on, one fact a line."""
        return rt.text(self._lib.wsgemmRtKernelDescribe(self._handle))

    def param(self, name):
        """The parameter an argument named `name` fills (A, B, C, D, an aux
        matrix, a vector, a reduction, a scalar), or None."""
        return self._by_arg.get(name)

    @property
    def scalars(self):
        """Names of the scalar parameters (passed as numbers)."""
        return list(self._scalars)

    @property
    def buffers(self):
        """Names of the named device buffers (aux matrices, vectors,
        reductions, scalar pointers): every array but A, B, C, D."""
        return [n for n in self._by_arg if n not in self._scalars and
                n not in ("A", "B", "C", "D")]

    def validate(self, a, b, d, c=None, **args):
        """Checks the arrays and scalars as launch() does, without a GPU;
        returns the Problem (M, N, K, L) or raises ArgumentError."""
        problem, handle = build_args(self, a, b, d, c, args, 0)
        rt.check(self._lib.wsgemmRtKernelValidate(self._handle,
                                                  handle.handle))
        return problem

    def launch(self, a, b, d, c=None, stream=None, **args):
        """D = epilogue(A @ B, C, ...) on `stream`: None means torch's
        current stream for torch tensors (as torch's own ops), CUDA's
        legacy default stream for other arrays; or an int CUstream or a
        torch.cuda.Stream. Named buffers and scalars by their manifest
        names: bias=tensor, alpha=1.0. Returns the Problem; asynchronous
        like any CUDA launch. Arguments checked once are remembered (by
        address, shape, strides and dtype of every array, and the
        scalars), so launching them again costs a few microseconds."""
        return self._launcher.launch(a, b, d, c, stream, args)[0]

    __call__ = launch


class KernelFamily:
    """A kernel family (ws-gemm-sweep's family.json): one GEMM under several
    configs; launch() picks the variant per shape (the tuning table's
    nearest shape, else a wave heuristic: docs/tuning.md)."""

    def __init__(self, path, tuning=None, sm_count=0):
        """`sm_count` > 0: the SM count the heuristic assumes (no GPU
        needed); 0: the current device's, asked at the first selection."""
        self._lib = rt.api()
        h = ctypes.c_void_p()
        rt.check(self._lib.wsgemmRtFamilyLoad(
            str(path).encode(), str(tuning).encode() if tuning else None,
            int(sm_count), ctypes.byref(h)))
        self._handle = h.value
        self.name = rt.text(self._lib.wsgemmRtFamilyGetName(self._handle))
        n = self._lib.wsgemmRtFamilyGetNumVariants(self._handle)
        self.variants = [rt.text(self._lib.wsgemmRtFamilyGetVariantId(
            self._handle, i)) for i in range(n)]
        self.kernels = [Kernel(self._lib.wsgemmRtFamilyGetVariantKernel(
            self._handle, i), owner=self) for i in range(n)]
        self._launcher = _Launcher(build_args, self.kernels[0],
                                   self._lib.wsgemmRtFamilyLaunch,
                                   self._handle, family=True)

    @classmethod
    def load(cls, path, tuning=None, sm_count=0):
        """The family at `path` with an optional tuning table."""
        return cls(path, tuning, sm_count)

    def __del__(self):
        if getattr(self, "_handle", None):
            self.kernels = []
            self._lib.wsgemmRtFamilyDestroy(self._handle)
            self._handle = None

    def __repr__(self):
        return "<ws_gemm.KernelFamily %s: %s>" % (self.name,
                                                  ", ".join(self.variants))

    def select(self, m, n, k, l=1):
        """The variant for an M x N x K (x L) problem, and why."""
        idx, tuned = ctypes.c_ssize_t(), ctypes.c_int()
        reason = ctypes.c_char_p()
        rt.check(self._lib.wsgemmRtFamilySelect(
            self._handle, m, n, k, l, ctypes.byref(idx), ctypes.byref(tuned),
            ctypes.byref(reason)))
        return Selection(idx.value, self.variants[idx.value],
                         bool(tuned.value), rt.text(reason.value))

    def validate(self, a, b, d, c=None, **args):
        """As Kernel.validate, by the rules launch() checks: those of the
        first variant that takes arrays with these strides and alignment
        (the variants take the same arguments)."""
        problem, handle = build_args(self.kernels[0], a, b, d, c, args, 0)
        rt.check(self._lib.wsgemmRtFamilyValidate(self._handle,
                                                  handle.handle))
        return problem

    def launch(self, a, b, d, c=None, stream=None, **args):
        """Selects the variant for the arrays' shape and launches it (as
        Kernel.launch, whose stream rule it follows); returns the variant's
        id."""
        return self.variants[self._launcher.launch(a, b, d, c, stream,
                                                   args)[1]]

    __call__ = launch


#===------------------------------------------------------------------------===#
# The launch path
#===------------------------------------------------------------------------===#

_NUMBERS = (float, int)
_raw_stream = None


def _torch_stream(a):
    """torch's current stream on `a`'s device, as an int."""
    global _raw_stream
    if _raw_stream is None:
        import torch
        get = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _raw_stream = get or (
            lambda dev: torch.cuda.current_stream(dev).cuda_stream)
    return _raw_stream(a.get_device())


def _launch_key(a, b, d, c, named):
    """What identifies the arguments of a launch on torch tensors: each
    array's address, shape, strides and dtype (the device is implied by the
    address: CUDA's unified address space gives live allocations distinct
    addresses), each number's type and value, in the call's order. None
    when an argument is neither a tensor nor an int or float: such launches
    are checked every time."""
    try:
        key = (a.data_ptr(), a.shape, a.stride(), a.dtype,
               b.data_ptr(), b.shape, b.stride(), b.dtype,
               d.data_ptr(), d.shape, d.stride(), d.dtype)
        if c is not None:
            key += (c.data_ptr(), c.shape, c.stride(), c.dtype)
        for name, v in named.items():
            if type(v) in _NUMBERS:
                key += (name, type(v), v)
            else:
                key += (name, v.data_ptr(), v.shape, v.stride(), v.dtype)
    except (AttributeError, TypeError):
        return None
    return key


class _Launcher:
    """One kernel's (or family's) launch path. The first launch of a set of
    arguments checks them (build_args, then the runtime's validate()) and
    keeps the resulting Args handle, keyed by what identifies the arguments
    (_launch_key); later launches of torch tensors with the same key make
    one native call. The runtime keeps its own plans keyed by the same
    arguments, so that call only launches (no checks, no tensor map
    encoding). Anything that changes an argument (address, shape, strides,
    dtype, a scalar) changes the key: a refused argument is never
    remembered and is refused again, with the same message."""

    CAPACITY = 512

    def __init__(self, build, kernel, native, handle, family=False):
        self._build = build
        self._kernel = weakref.ref(kernel)  # no cycle through the kernel
        self._native = native
        self._handle = handle
        self._family = family
        self._args = {}

    def launch(self, a, b, d, c, stream, named):
        """(Problem, variant index) after launching."""
        tensor = torch_tensor_type()
        on_torch = tensor is not None and isinstance(a, tensor)
        key = _launch_key(a, b, d, c, named) if on_torch else None
        if stream is None:
            s = _torch_stream(a) if on_torch else 0
        else:
            s = rt.stream_handle(stream)
        entry = self._args.get(key) if key is not None else None
        fresh = entry is None
        if fresh:
            entry = self._build(self._kernel(), a, b, d, c, named, s)
        problem, args = entry
        if self._family:
            idx = ctypes.c_ssize_t(-1)
            status = self._native(self._handle, args.handle, s,
                                  ctypes.byref(idx))
        else:
            idx = None
            status = self._native(self._handle, args.handle, s)
        if status:
            rt.check(status)
        # Remembered once the runtime took them (it validates on a first
        # launch): refused arguments are checked again every time.
        if fresh and key is not None:
            if len(self._args) >= self.CAPACITY:
                self._args.clear()
            self._args[key] = entry
        return problem, (idx.value if idx is not None else 0)


#===------------------------------------------------------------------------===#
# Arrays -> WsGemmRtArgs
#===------------------------------------------------------------------------===#

def _dims_of(kernel, name, p, info, sizes, origin):
    """Reads the sizes of `p`'s dims from the array's shape into `sizes`
    (refusing disagreements) and returns the shape's dims, outermost
    first."""
    dims = p.shape_dims
    shape = info.shape
    # A batched map without a leading L takes a 2-D array as L = 1.
    if len(shape) == len(dims) - 1 and dims and dims[0] == "L":
        dims = dims[1:]
    # An extent-less reduction (one value) takes shape () or (1,).
    if not dims and shape in ((), (1,)):
        return dims
    if len(shape) != len(dims):
        raise ArgumentError(
            "%s: shape %s has %d dimensions, the kernel takes %s (%s)" % (
                name, shape, len(shape), " x ".join(p.shape_dims) or "one value",
                "%s %s" % (p.kind, kernel.operands[name].layout)
                if name in kernel.operands else p.kind))
    for dim, n in zip(dims, shape):
        if dim in sizes and sizes[dim] != n:
            raise ArgumentError(
                "%s: shape %s gives %s = %d, but %s gave %s = %d" % (
                    name, shape, dim, n, origin[dim], dim, sizes[dim]))
        sizes.setdefault(dim, n)
        origin.setdefault(dim, "%s (shape %s)" % (name, shape))
    return dims


def _strides(name, p, info, dims):
    """(ld, batch stride) in elements for a matrix, after checking the
    innermost dimension is contiguous; (0, 0) means packed."""
    shape, strides = info.shape, info.strides
    for n, s, dim in zip(shape, strides, dims):
        if n > 1 and s <= 0:
            raise ArgumentError(
                "%s: stride %d along %s (a broadcast or reversed view); the "
                "kernel reads a real matrix (pass .contiguous())" % (
                    name, s, dim))
    if p.kind not in ("tensor_map", "matrix"):
        packed = 1
        for n, s in reversed(list(zip(shape, strides))):
            if n > 1 and s != packed:
                raise ArgumentError(
                    "%s: strides %s are not packed for shape %s; the kernel "
                    "reads it packed (pass .contiguous())" % (
                        name, strides, shape))
            packed *= n
        return 0, 0
    if shape[-1] > 1 and strides[-1] != 1:
        raise ArgumentError(
            "%s: the innermost dimension (%s) has stride %d; %s needs it "
            "contiguous (stride 1)" % (
                name, dims[-1], strides[-1],
                "TMA" if p.kind == "tensor_map" else "the kernel"))
    # 0 (packed) where the array is packed, so messages speak of the
    # problem's sizes.
    ld = strides[-2] if len(shape) >= 2 and shape[-2] > 1 else 0
    if ld == shape[-1]:
        ld = 0
    batch = strides[-3] if len(shape) >= 3 and shape[-3] > 1 else 0
    if batch and batch == shape[-2] * (ld or shape[-1]):
        batch = 0
    return ld, batch


# A pre-packed weight per packing (docs/mixed-input.md): the array dtypes
# it arrives as, how many of A's K one byte holds, its prepack function.
_PACKINGS = {
    "wsgemm.i4.m64k64.v1": (("u8",), 2, "torch.uint8", "prepack_i4"),
    "wsgemm.b8.m64k64.v1": (("u8", "i8", "f8e4m3"), 1,
                            "torch.uint8, int8 or float8_e4m3fn",
                            "prepack_b8"),
}


def _packed_a(kernel, name, p, info, sizes, origin):
    """A pre-packed weight (docs/mixed-input.md): a dense byte array of
    shape (M, K / 2) or (L, M, K / 2) for i4, (M, K) or (L, M, K) for i8
    and f8e4m3, as ws_gemm.prepack_i4 / prepack_b8 return it; it gives M, K
    (and L) like an unpacked A of shape (M, K). Returns its (ld, batch
    stride): (0, 0), packed."""
    dtypes, per_byte, torch_names, prepack = _PACKINGS[kernel.packing_a]
    cols = "K / %d" % per_byte if per_byte > 1 else "K"
    if info.dtype not in (None,) + dtypes or info.itemsize != 1:
        raise ArgumentError(
            "%s: dtype %s; the kernel takes a pre-packed %s weight as bytes "
            "(%s, shape (M, %s): ws_gemm.%s)" % (
                name, info.dtype or "of %d bytes" % info.itemsize, p.dtype,
                torch_names, cols, prepack))
    if len(info.shape) not in (2, 3):
        raise ArgumentError(
            "%s: shape %s; a pre-packed %s weight is (M, %s) or "
            "(L, M, %s) bytes" % (name, info.shape, p.dtype, cols, cols))
    packed = 1
    for n, s in reversed(list(zip(info.shape, info.strides))):
        if n > 1 and s != packed:
            raise ArgumentError(
                "%s: strides %s are not dense for shape %s; a pre-packed "
                "weight is read whole (pass .contiguous())" % (
                    name, info.strides, info.shape))
        packed *= n
    logical = TensorInfo(info.ptr,
                         info.shape[:-1] + (per_byte * info.shape[-1],),
                         (), p.dtype, 1, info.source)
    for dim in ("M", "K", "L"):
        origin.setdefault(dim, "%s (packed %s bytes of shape %s)" % (
            name, p.dtype, info.shape))
    _dims_of(kernel, name, p, logical, sizes, origin)
    return 0, 0


def _check_scale_groups(kernel, infos, sizes, origin):
    """A mixed-input A's scales (and zero points) in groups of 32 or 64
    (docs/mixed-input.md): their KG rows are K / group, the manifest's
    operands.A.dequant.group, as GPTQ keeps them ((K / group, M), M
    contiguous)."""
    if "KG" not in sizes or "K" not in sizes:
        return
    group = kernel.group_a
    if not group:  # the runtime refuses such a manifest
        raise ArgumentError("KG: the kernel's scales count groups of K, but "
                            "its A has no scale group (operands.A.dequant."
                            "group = %r)" % group)
    K, want = sizes["K"], sizes["K"] // group
    if sizes["KG"] == want:
        return
    for name, (p, info, _) in infos.items():
        if "KG" not in p.shape_dims:
            continue
        dims = p.shape_dims
        if len(info.shape) == len(dims) - 1 and dims[0] == "L":
            dims = dims[1:]
        shape = tuple(want if d == "KG" else sizes.get(d, n)
                      for d, n in zip(dims, info.shape))
        raise ArgumentError(
            "%s: shape %s gives KG = %d, but K = %d in groups of %d has "
            "KG = K / %d = %d: the kernel takes shape %s" % (
                name, info.shape, sizes["KG"], K, group, group, want, shape))
    raise ArgumentError("%s gives KG = %d, but K = %d in groups of %d has "
                        "K / %d = %d" % (origin["KG"], sizes["KG"], K, group,
                                         group, want))


def build_args(kernel, a, b, d, c, named, stream):
    """The Problem and an rt.Args for `kernel` from the arrays and
    scalars, checked against the manifest."""
    arrays = {"A": a, "B": b, "D": d}
    if c is not None:
        if "C" not in kernel.operands:
            raise ArgumentError("C: the kernel reads no C (its epilogue has "
                                "no load_src), but an array was given")
        arrays["C"] = c
    scalars = {}
    for name, v in named.items():
        p = kernel.param(name)
        if p is None or name in ("A", "B", "C", "D"):
            raise ArgumentError(
                "%s: unknown argument (the kernel's buffers: %s; scalars: %s)"
                % (name, ", ".join(kernel.buffers) or "none",
                   ", ".join(kernel.scalars) or "none"))
        if p.kind == "scalar":
            if not _is_scalar(v):
                raise ArgumentError("%s: a scalar parameter takes a number, "
                                    "got %s" % (name, type(v).__name__))
            scalars[name] = float(v)
        elif _is_scalar(v):
            raise ArgumentError("%s: a %s parameter takes a device array, got "
                                "the number %r" % (name, p.kind, v))
        else:
            arrays[name] = v
    for s in kernel._scalars:
        if s not in scalars:
            raise ArgumentError("%s: missing value of the scalar parameter "
                                "(pass %s=...)" % (s, s))

    sizes, origin, infos = {}, {}, {}
    # A and B first: they define M, N, K (and L); the rest must agree.
    order = ["A", "B"] + [n for n in arrays if n not in ("A", "B")]
    for name in order:
        if arrays[name] is None:
            raise ArgumentError("%s: missing array" % name)
        p = kernel.param(name)
        info = tensor_info(name, arrays[name], stream)
        if name == "A" and kernel.packing_a:
            infos[name] = (p, info, _packed_a(kernel, name, p, info, sizes,
                                              origin))
            continue
        want = p.dtype
        if info.dtype is not None and info.dtype != want:
            raise ArgumentError("%s: dtype %s, the kernel takes %s" % (
                name, info.dtype, want))
        if info.itemsize != DTYPE_SIZES[want]:
            raise ArgumentError("%s: elements of %d bytes, the kernel takes "
                                "%s (%d bytes)" % (name, info.itemsize, want,
                                                   DTYPE_SIZES[want]))
        dims = _dims_of(kernel, name, p, info, sizes, origin)
        infos[name] = (p, info, _strides(name, p, info, dims))

    # Block scales (docs/fp8.md): KB and NB count the 128-wide blocks of K
    # and N, which the other arrays fix.
    for blocks, dim in (("KB", "K"), ("NB", "N")):
        if blocks in sizes and dim in sizes:
            want = -(-sizes[dim] // 128)
            if sizes[blocks] != want:
                raise ArgumentError(
                    "%s gives %s = %d, but %s = %d has ceil(%s / 128) = %d "
                    "blocks" % (origin[blocks], blocks, sizes[blocks], dim,
                                sizes[dim], dim, want))
    _check_scale_groups(kernel, infos, sizes, origin)
    problem = Problem(sizes.get("M", 1), sizes.get("N", 1), sizes.get("K", 1),
                      sizes.get("L", 1))
    args = rt.Args()
    args.problem(*problem)
    for name, (p, info, (ld, batch)) in infos.items():
        # A pre-packed weight is bytes to the array, its quantized type
        # (i4, i8, f8e4m3) to the kernel.
        packed = name == "A" and kernel.packing_a
        args.tensor(name, info.ptr, p.dtype if packed else info.dtype, ld,
                    batch)
    for name, v in scalars.items():
        args.scalar(name, v)
    return problem, args
