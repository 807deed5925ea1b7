"""A kernel (or a family) as a PyTorch custom op (torch.library), so that
torch.compile sees one ordinary op (no graph break, fullgraph=True works)
and CUDA graphs capture it on torch's current stream.

    gemm = ws_gemm.torch_op(kernel)            # op "wsgemm::<kernel name>"
    y = gemm(x, w, bias=b)                     # D, allocated by the op
    y, rowsum = gemm_rms(x, w, c=res)          # D, then aux stores and
                                               # reductions, manifest order

The op is functional: it allocates D, every aux store and every reduction
(filled with the reduction's identity) and returns them; its inputs are A,
B, C (when the epilogue reads C; may be None when a skip_if_zero scalar is
0), the kernel's input buffers (vectors, aux loads, scalar pointers, block
scales) and its scalars, by manifest name. The fake (meta) implementation
gives the outputs' shapes and dtypes from A's and B's, so torch.compile
traces it without running it. torch is imported only here, when an op is
made.
"""

import keyword
import re

from ._errors import ArgumentError

_TORCH_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
                 "f8e4m3": "float8_e4m3fn", "f8e5m2": "float8_e5m2"}
_NOT_ARGUMENTS = ("size", "workspace", "stream_k_tiles", "tile_order")
_registered = {}
_libraries = {}  # namespace -> its torch.library.Library, kept alive


def _identifier(name, what):
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or \
            keyword.iskeyword(name):
        raise ArgumentError("%s: %r is not a Python identifier, so it cannot "
                            "name a custom op argument" % (what, name))
    return name


class _Signature:
    """The op's arguments and outputs, from one kernel's manifest."""

    def __init__(self, kernel):
        self.kernel = kernel
        nodes = kernel.manifest.get("evt", {}).get("nodes", [])
        stored = {n.get("name") for n in nodes if n.get("op") == "aux_store"}
        self.has_c = "C" in kernel.operands
        self.d_m_major = kernel.operands["D"].layout == "m_major"
        self.inputs, self.scalars, self.outputs = [], [], []
        for p in kernel.params:
            if p.kind in _NOT_ARGUMENTS:
                continue
            if p.kind in ("tensor_map", "matrix"):
                if p.operand in ("A", "B", "C"):
                    continue
                if p.operand == "D" or p.operand in stored:
                    self.outputs.append(p)
                else:
                    self.inputs.append(p)
            elif p.kind in ("pointer", "scalar_pointer"):
                self.inputs.append(p)
            elif p.kind == "reduction":
                self.outputs.append(p)
            elif p.kind == "scalar":
                self.scalars.append(p)
        # D first, then the rest in manifest order.
        self.outputs.sort(key=lambda p: p.operand != "D")
        for p in self.inputs + self.scalars + self.outputs:
            _identifier(self.arg_name(p), "argument")

    @staticmethod
    def arg_name(p):
        return p.operand if p.kind in ("tensor_map", "matrix") else p.name

    def schema(self):
        args = ["Tensor a", "Tensor b"]
        if self.has_c:
            args.append("Tensor? c")
        args += ["Tensor %s" % self.arg_name(p) for p in self.inputs]
        args += ["float %s" % p.name for p in self.scalars]
        outs = ", ".join("Tensor" for _ in self.outputs)
        return "(%s) -> %s" % (", ".join(args), outs if len(self.outputs) == 1
                               else "(%s)" % outs)

    def sizes(self, a, b):
        """M, N, K, L from A's and B's shapes (works on fake tensors)."""
        ops = self.kernel.operands
        a_rows, a_cols = a.shape[-2], a.shape[-1]
        b_rows, b_cols = b.shape[-2], b.shape[-1]
        # A pre-packed i4 weight: (M, K / 2) bytes (an 8-bit one: (M, K)).
        if self.kernel.param("A").dtype == "i4":
            a_cols = 2 * a_cols
        m, k = (a_rows, a_cols) if ops["A"].layout == "k_major" else \
            (a_cols, a_rows)
        n = b_rows if ops["B"].layout == "k_major" else b_cols
        sizes = {"M": m, "N": n, "K": k}
        if a.dim() == 3:
            sizes["L"] = a.shape[0]
        return sizes

    def output_specs(self, torch, a, b):
        """Per output: (shape, torch dtype, the identity a reduction is
        filled with, else None), from A's and B's shapes."""
        sizes = self.sizes(a, b)
        specs = []
        for p in self.outputs:
            shape = tuple(sizes[d] for d in p.shape_dims if d in sizes)
            dtype = getattr(torch, _TORCH_DTYPES[p.dtype or "f32"])
            specs.append((shape, dtype,
                          p.identity if p.kind == "reduction" else None))
        return specs

    @staticmethod
    def allocate(torch, specs, device, fill):
        return [torch.full(shape, ident, dtype=dtype, device=device)
                if fill and ident is not None else
                torch.empty(shape, dtype=dtype, device=device)
                for shape, dtype, ident in specs]

    def empty_outputs(self, torch, a, b, fill):
        return self.allocate(torch, self.output_specs(torch, a, b), a.device,
                             fill)

    def results(self, outs):
        """The op's return value: the outputs, a column-major D
        (`d(T, m_major)`, stored N x M) as its M x N view."""
        if self.d_m_major:
            outs = [outs[0].transpose(-1, -2)] + list(outs[1:])
        return outs[0] if len(outs) == 1 else tuple(outs)


def torch_op(kernel, name=None):
    """Registers `kernel` (a Kernel or a KernelFamily) as the custom op
    `name` ("namespace::op"; default "wsgemm::<kernel name>") and returns a
    callable op(a, b, c=None, **buffers_and_scalars) -> D or (D, ...). The
    registered op is its `.op`. Registering a name again returns the op
    made for the same kernel, and refuses another kernel."""
    first = kernel.kernels[0] if hasattr(kernel, "kernels") else kernel
    if getattr(first, "d_reduce", "none") != "none":
        # The op is functional (it allocates D); a reducing store would fold
        # into uninitialised memory, and torch would not know D mutates.
        raise ArgumentError(
            "%s: updates D in place (epi.store ... reduce %s), which a "
            "functional custom op cannot express: call launch() with D"
            % (first.name, first.d_reduce))
    import torch

    qualname = name or "wsgemm::" + _identifier(first.name, "kernel name")
    if qualname in _registered:
        made, owner = _registered[qualname]
        if owner is not kernel:
            raise ArgumentError("%s: a custom op of this name was made for "
                                "another kernel" % qualname)
        return made
    sig = _Signature(first)
    names = [sig.arg_name(p) for p in sig.inputs] + \
        [p.name for p in sig.scalars]
    fixed = 3 if sig.has_c else 2

    out_names = [sig.arg_name(p) for p in sig.outputs]
    # The outputs' shapes and dtypes per (A's shape, B's shape): computed
    # once, so that an eager call only allocates (docs/python.md).
    specs_of = {}

    def run(*args):
        a, b = args[0], args[1]
        c = args[2] if sig.has_c else None
        named = dict(zip(names, args[fixed:]))
        key = (a.shape, b.shape)
        specs = specs_of.get(key)
        if specs is None:
            if len(specs_of) >= 256:
                specs_of.clear()
            specs = specs_of[key] = sig.output_specs(torch, a, b)
        outs = sig.allocate(torch, specs, a.device, fill=True)
        named.update(zip(out_names, outs))
        d = named.pop("D")
        kernel.launch(a, b, d, c, **named)
        return sig.results(outs)

    def fake(*args):
        return sig.results(sig.empty_outputs(torch, args[0], args[1],
                                             fill=False))

    # A torch.library.Library definition with a CUDA kernel and a fake,
    # not torch.library.custom_op: the same op to torch.compile and CUDA
    # graphs, but custom_op's Python wrapper cost 12-22 us more per eager
    # call than a Library.impl op in the same process (40.7-43.2 us against
    # 18.8-29.1, launch and allocation included; the H100 machine's host,
    # docs/python.md), more than a decode step's GEMM takes.
    ns, _, opname = qualname.partition("::")
    if not ns or not opname:
        raise ArgumentError("%s: a custom op name is 'namespace::name'"
                            % qualname)
    _identifier(ns, "op namespace")
    _identifier(opname, "op name")
    lib = _libraries.get(ns)
    if lib is None:
        lib = _libraries[ns] = torch.library.Library(ns, "FRAGMENT")
    lib.define(opname + sig.schema())
    lib.impl(opname, run, "CUDA")
    torch.library.register_fake(qualname, fake, lib=lib)
    op = getattr(getattr(torch.ops, ns), opname).default

    def call(a, b, c=None, **named):
        if c is not None and not sig.has_c:
            raise ArgumentError("C: the kernel reads no C (its epilogue has "
                                "no load_src), but an array was given")
        args = [a, b, c] if sig.has_c else [a, b]
        for n in names:
            if n not in named:
                raise ArgumentError("%s: missing argument of %s" % (
                    n, qualname))
            args.append(named[n])
        if len(named) != len(names):
            raise ArgumentError("%s: unknown argument (the op takes %s)" % (
                ", ".join(sorted(set(named) - set(names))),
                ", ".join(names) or "none"))
        return op(*args)

    call.op = op
    call.schema = sig.schema()
    call.__name__ = qualname.split("::")[-1]
    _registered[qualname] = (call, kernel)
    return call
