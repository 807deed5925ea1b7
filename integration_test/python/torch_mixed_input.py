"""Mixed-input GEMMs from PyTorch (python-torch-mixed-input.test), on the
GPU: a GPTQ-style int4 weight (group-128 bf16 scales and ui4 zero points)
packed by ws_gemm.prepack_i4 from a torch tensor, launched through
Kernel.launch and through the custom op (ws_gemm.torch_op, also under
torch.compile(fullgraph=True)), at 1, 7 and 16 tokens, each against torch:
W dequantized as round_bf16((q - z) * s), then W @ X^T + bias; with
--family (int4), --family-w8 (int8) and --family-f8 (fp8 e4m3 weights,
packed by ws_gemm.prepack_b8, one scale per output channel), the
no-config kernels' default families at 1 to 600 tokens.
Prints PASS/FAIL lines and "python-torch-mixed-input: all passed".
"""

import argparse
import os
import sys

import torch

import ws_gemm

# torch_launch.py's comparison (PASS/FAIL lines, its failure list), at
# bf16's tolerance.
from torch_launch import check as _check, failures  # noqa: E402


def check(name, got, ref, k):
    _check(name, got, ref, k, 2 ** -7)


def family_weight(fmt, M, K):
    """(packed, dequantization arrays, w): a random weight of format `fmt`
    packed from a torch tensor, and w = the weight the kernel multiplies
    (one bf16 rounding: (q - z) and q are exact in bf16)."""
    sign = torch.where(torch.rand(M, device="cuda") < 0.5, -1.0, 1.0)
    if fmt == "w4":
        kb = K // 128
        q = torch.randint(0, 16, (M, K), dtype=torch.uint8, device="cuda")
        scale = ((torch.rand(kb, M, device="cuda") * 0.75 + 0.25) * 0.01 *
                 sign).to(torch.bfloat16)
        zero = torch.randint(0, 16, (kb, M), device="cuda").to(
            torch.bfloat16)
        w = (q.to(torch.bfloat16) - zero.t().repeat_interleave(128, dim=1)) \
            * scale.t().repeat_interleave(128, dim=1)
        return ws_gemm.prepack_i4(q), dict(dequant_scale_a=scale,
                                           dequant_zero_a=zero), w
    # int8 / fp8 e4m3 with one scale per output channel.
    if fmt == "w8":
        q = torch.randint(-128, 128, (M, K), dtype=torch.int8, device="cuda")
        mag = 1e-3
    else:
        q = (torch.randn(M, K, device="cuda") * 4).to(torch.float8_e4m3fn)
        mag = 0.02
    scale = ((torch.rand(M, device="cuda") * 0.75 + 0.25) * mag *
             sign).to(torch.bfloat16)
    w = q.to(torch.bfloat16) * scale[:, None]
    return ws_gemm.prepack_b8(q), dict(dequant_scale_a=scale), w


def test_family(path, fmt):
    """A no-config kernel of python/bench/kernels.mlir (tb_w4_bias, tb_w8,
    tb_f8w; a column-major D: its storage is Y) as its default family: 1
    to 600 tokens go to different variants (decode tilings, split-K,
    stream-K, prefill), each checked against torch, through launch and the
    op."""
    fam = ws_gemm.KernelFamily(path)
    op = ws_gemm.torch_op(fam)
    M, K = 2048, 4096
    packed, arrays, w = family_weight(fmt, M, K)
    # tb_w4_bias fuses nn.Linear's bias; tb_w8 and tb_f8w store Y alone.
    bias = (torch.rand(M, device="cuda") * 2 - 1).to(torch.bfloat16) \
        if fmt == "w4" else None
    if bias is not None:
        arrays = dict(arrays, bias=bias)
    used = set()
    for n in (1, 7, 16, 33, 100, 256, 600):
        x = (torch.rand(n, K, device="cuda") * 2 - 1).to(torch.bfloat16)
        ref = w.float() @ x.float().t()  # M x n
        if bias is not None:
            ref += bias.float()[:, None]
        # D is column-major (d(bf16, m_major)): launch() takes its storage,
        # n x M, which is Y = x W^T + b as torch lays it out.
        y = torch.empty(n, M, device="cuda", dtype=torch.bfloat16)
        variant = fam.launch(packed, x, y, **arrays)
        torch.cuda.synchronize()
        used.add(variant)
        check("%s family %s %d tokens" % (fmt, variant, n), y, ref.t(), K)
        d = op(packed, x, **arrays)
        ok = tuple(d.shape) == (M, n) and d.t().is_contiguous()
        check("%s family op %d tokens%s" % (fmt, n, "" if ok else
                                            " (NOT the M x N view of Y)"),
              d, ref, K)
        if not ok:
            failures.append("op layout")
    ok = len(used) >= 4
    print("%s %s family used %d variants: %s" % (
        "PASS" if ok else "FAIL", fmt, len(used), sorted(used)))
    if not ok:
        failures.append("family variants")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernels", required=True)
    p.add_argument("--family", help="tb_w4_bias/family.json (the "
                   "benchmark's no-config kernel)")
    p.add_argument("--family-w8", help="tb_w8/family.json (int8 weights)")
    p.add_argument("--family-f8", help="tb_f8w/family.json (fp8 weights)")
    args = p.parse_args()
    for path, fmt in ((args.family, "w4"), (args.family_w8, "w8"),
                      (args.family_f8, "f8")):
        if path:
            test_family(path, fmt)
    torch.manual_seed(11)
    k = ws_gemm.Kernel.load(os.path.join(args.kernels,
                                         "py_w4_decode_bias_bf16.json"))
    M, K = 1536, 2048
    kb = K // 128
    q = torch.randint(0, 16, (M, K), dtype=torch.uint8, device="cuda")
    packed = ws_gemm.prepack_i4(q)
    print("packed %s %s on %s" % (tuple(packed.shape), packed.dtype,
                                  packed.device))
    scale = ((torch.rand(kb, M, device="cuda") * 0.1875 + 0.0625) *
             torch.where(torch.rand(kb, M, device="cuda") < 0.5, -1.0,
                         1.0)).to(torch.bfloat16)
    zero = torch.randint(0, 16, (kb, M), device="cuda").to(torch.bfloat16)
    bias = (torch.rand(M, device="cuda") * 2 - 1).to(torch.bfloat16)
    # The reference dequantization: (q - z) exact, one bf16 rounding.
    s_full = scale.t().repeat_interleave(128, dim=1)  # M x K
    z_full = zero.t().repeat_interleave(128, dim=1)
    w = (q.to(torch.bfloat16) - z_full) * s_full
    op = ws_gemm.torch_op(k)
    compiled = torch.compile(
        lambda a, x, s, z, b: op(a, x, dequant_scale_a=s, dequant_zero_a=z,
                                 bias=b), fullgraph=True)
    for n in (1, 7, 16):
        x = (torch.rand(n, K, device="cuda") * 2 - 1).to(torch.bfloat16)
        ref = w.float() @ x.float().t() + bias.float()[:, None]  # M x N
        d = torch.empty(M, n, device="cuda", dtype=torch.bfloat16)
        k.launch(packed, x, d, dequant_scale_a=scale, dequant_zero_a=zero,
                 bias=bias)
        torch.cuda.synchronize()
        check("launch %d tokens" % n, d, ref, K)
        y = op(packed, x, dequant_scale_a=scale, dequant_zero_a=zero,
               bias=bias)
        check("custom op %d tokens" % n, y, ref, K)
        check("custom op under torch.compile %d tokens" % n,
              compiled(packed, x, scale, zero, bias), ref, K)
    # Refusals before launch: an unpacked weight, misaligned scales.
    x = torch.zeros(16, K, device="cuda", dtype=torch.bfloat16)
    d = torch.empty(M, 16, device="cuda", dtype=torch.bfloat16)
    for name, a, s, pattern in (
            ("unpacked weight", q, scale, "gave K = 4096"),
            ("misaligned scales", packed,
             torch.empty(kb * M + 1, device="cuda",
                         dtype=torch.bfloat16)[1:].view(kb, M),
             "not aligned to 16 bytes")):
        try:
            k.launch(a, x, d, dequant_scale_a=s, dequant_zero_a=zero,
                     bias=bias)
            print("FAIL refused %s: launched" % name)
            failures.append(name)
        except ws_gemm.ArgumentError as e:
            ok = pattern in str(e)
            print("%s refused %s: %s" % ("PASS" if ok else "FAIL", name, e))
            if not ok:
                failures.append(name)
    print("python-torch-mixed-input: %s" % ("%d failed: %s" % (
        len(failures), ", ".join(failures)) if failures else "all passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
