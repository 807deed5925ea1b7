#!/usr/bin/env python3
"""The Python package on the GPU, against PyTorch (python-torch.test).

Kernels: compiled from kernels.mlir (beside this file) in process when the
compiler's library loads (a build machine with a GPU), else the staged
ones (--kernels DIR: the GPU machine has no MLIR). Each case launches on
torch CUDA tensors with random data and ragged shapes, through DLPack (and
__cuda_array_interface__ for f16), on torch's current stream, and compares
D with torch.matmul + the same epilogue in torch, computed in f64 (as
ws-gemm-run's CPU reference), element by element:
    |D - ref| <= rtol |ref| + atol,  rtol = 2 u + e,  atol = (u + e) rms(ref)
u = unit roundoff of D's dtype, e = 2^-22 sqrt(K) (the runtime's Check.h
rule). Also: a kernel family's per-shape pick (--family), a second stream,
a padded row stride, and arguments refused before launch. Prints one line
per case and exits 1 on any failure.
"""

import argparse
import math
import os
import sys
import time

import torch

import ws_gemm

HERE = os.path.dirname(os.path.abspath(__file__))
U = {torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8,
     torch.float32: 2.0 ** -24}
failures = []


def check(name, d, ref, k):
    """Compares d with the f64 reference; records a failure."""
    d32, ref = d.double(), ref.double()
    u = U[d.dtype]
    e = 2.0 ** -22 * math.sqrt(k)
    rms = ref.pow(2).mean().sqrt().item()
    tol = (2 * u + e) * ref.abs() + (u + e) * rms
    err = (d32 - ref).abs()
    bad = int((err > tol).sum().item()) + int(torch.isnan(d32).sum().item())
    line = "%s %s: shape %s, max |err| %.3g, max |err|/tol %.3g, rms(ref) %.3g" % (
        "PASS" if bad == 0 else "FAIL", name, tuple(d.shape),
        err.max().item(), (err / tol).max().item(), rms)
    if bad:
        line += ", %d elements out of tolerance" % bad
        failures.append(name)
    print(line, flush=True)


def expect_refusal(name, pattern, fn):
    try:
        fn()
    except ws_gemm.ArgumentError as e:
        ok = pattern in str(e)
        print("%s refused %s: %s" % ("PASS" if ok else "FAIL", name, e))
        if not ok:
            failures.append(name)
        return
    print("FAIL refused %s: was launched" % name)
    failures.append(name)


def kernels(args):
    try:
        with open(os.path.join(HERE, "kernels.mlir")) as f:
            compiled = ws_gemm.compile(f.read(), name="kernels.mlir")
        print("kernels: compiled in process (%s)" % ", ".join(
            k.name for k in compiled))
        return {k.name: k.load() for k in compiled}
    except ws_gemm.WsGemmError as e:
        first = str(e).splitlines()[0]
        print("kernels: staged in %s (compile() unavailable here: %s)" % (
            args.kernels, first[:160]))
    return {n: ws_gemm.Kernel.load(os.path.join(args.kernels, n + ".json"))
            for n in ("py_linear_relu_f16", "py_lincomb_bf16",
                      "py_batched_rowbias_f32")}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernels", required=True)
    p.add_argument("--family", required=True)
    args = p.parse_args()
    dev = torch.device("cuda")
    torch.manual_seed(2024)
    torch.backends.cuda.matmul.allow_tf32 = False
    print("torch %s, %s" % (torch.__version__, torch.cuda.get_device_name()))
    ks = kernels(args)
    stream = torch.cuda.current_stream()

    def rand(*shape, dtype=torch.float16):
        return (torch.rand(*shape, device=dev) * 2 - 1).to(dtype)

    # nn.Linear + ReLU, f16, ragged M and N (1000 x 3000 x 200), through
    # DLPack and through __cuda_array_interface__.
    k = ks["py_linear_relu_f16"]
    M, N, K = 1000, 3000, 200
    x, w, b = rand(M, K), rand(N, K), rand(N)
    ref = torch.relu(x.double() @ w.double().t() + b.double())
    d = torch.full((M, N), float("nan"), device=dev, dtype=torch.float16)
    k.launch(x, w, d, bias=b, stream=stream)
    torch.cuda.synchronize()
    check("linear_relu_f16 (DLPack)", d, ref, K)
    print("info linear_relu_f16: max |D - torch f16 relu(linear)| %.3g" % (
        (d.float() - torch.relu(torch.nn.functional.linear(x, w, b)).float())
        .abs().max().item()))

    class CAI:  # only __cuda_array_interface__
        def __init__(self, t):
            self.__cuda_array_interface__ = t.__cuda_array_interface__
    d.fill_(float("nan"))
    k.launch(CAI(x), CAI(w), CAI(d), bias=CAI(b))
    torch.cuda.synchronize()
    check("linear_relu_f16 (__cuda_array_interface__)", d, ref, K)

    # LinearCombination, bf16, n_major B, 777 x 1032 x 96, on a second
    # stream, with A a view of a wider matrix (row stride 160).
    k = ks["py_lincomb_bf16"]
    M, N, K = 777, 1032, 96
    a_wide = rand(M, K + 64, dtype=torch.bfloat16)
    a = a_wide[:, :K]
    bm = rand(K, N, dtype=torch.bfloat16)
    c = rand(M, N, dtype=torch.bfloat16)
    d = torch.full((M, N), float("nan"), device=dev, dtype=torch.bfloat16)
    s2 = torch.cuda.Stream()
    with torch.cuda.stream(s2):
        k.launch(a, bm, d, c, alpha=0.75, beta=-0.5, stream=s2)
    s2.synchronize()
    check("lincomb_bf16 (second stream, ld %d)" % a.stride(0), d,
          0.75 * (a.double() @ bm.double()) - 0.5 * c.double(), K)

    # Batched (torch.bmm with B^T), a per-row bias per batch, f32 D.
    k = ks["py_batched_rowbias_f32"]
    L, M, N, K = 3, 300, 264, 136
    a, bt, rb = rand(L, M, K), rand(L, N, K), rand(L, M, dtype=torch.float32)
    d = torch.full((L, M, N), float("nan"), device=dev)
    k.launch(a, bt, d, rowbias=rb, stream=stream)
    torch.cuda.synchronize()
    check("batched_rowbias_f32 (L=3)", d,
          torch.bmm(a.double(), bt.double().transpose(1, 2)) + rb.double()[..., None], K)

    # A kernel family: the variant per shape (the heuristic on this
    # device's SM count: no tuning table), then the launch.
    fam = ws_gemm.KernelFamily(args.family)
    print("family %s: %s" % (fam.name, ", ".join(fam.variants)))
    for (M, N, K) in ((1000, 3000, 200), (64, 64, 64), (4096, 4096, 512)):
        sel = fam.select(M, N, K)
        print("family %dx%dx%d: %s" % (M, N, K, sel.reason))
        a, w, c, bias = rand(M, K), rand(N, K), rand(M, N), rand(M)
        d = torch.full((M, N), float("nan"), device=dev, dtype=torch.float16)
        chosen = fam.launch(a, w, d, c, bias=bias, alpha=1.25, beta=0.5,
                            stream=stream)
        torch.cuda.synchronize()
        if chosen != sel.variant:
            print("FAIL family launched %s, selected %s" % (chosen,
                                                           sel.variant))
            failures.append("family pick")
        check("family %s %dx%dx%d" % (chosen, M, N, K), d, torch.relu(
            1.25 * (a.double() @ w.double().t()) + 0.5 * c.double() +
            bias.double()[:, None]), K)

    # Host cost of one launch() from Python (DLPack, checks, tensor map
    # encoding, cuLaunchKernelEx), next to the kernel's own time: printed,
    # not checked.
    k = ks["py_linear_relu_f16"]
    x, w, b = rand(256, 128), rand(512, 128), rand(512)
    d = torch.empty(256, 512, device=dev, dtype=torch.float16)
    for _ in range(10):
        k.launch(x, w, d, bias=b, stream=stream)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(
        enable_timing=True)
    t0 = time.perf_counter()
    start.record()
    for _ in range(200):
        k.launch(x, w, d, bias=b, stream=stream)
    end.record()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    print("info launch overhead: %.1f us host time per launch() call, %.1f us "
          "per launch end to end (256x512x128, 200 launches)" % (
              (t1 - t0) / 200 * 1e6, start.elapsed_time(end) / 200 * 1e3))

    # Refused before launch, on real tensors.
    k = ks["py_linear_relu_f16"]
    x, w, b = rand(256, 128), rand(512, 128), rand(512)
    d = torch.empty(256, 512, device=dev, dtype=torch.float16)
    expect_refusal("cpu tensor", "cpu memory",
                   lambda: k.launch(x.cpu(), w, d, bias=b))
    expect_refusal("transposed A", "TMA needs it contiguous",
                   lambda: k.launch(rand(128, 256).t(), w, d, bias=b))
    expect_refusal("f32 A", "dtype f32, the kernel takes f16",
                   lambda: k.launch(x.float(), w, d, bias=b))
    expect_refusal("wrong N", "gives N = 500",
                   lambda: k.launch(x, w, d[:, :500], bias=b))
    torch.cuda.synchronize()

    print("python-torch: %s" % ("%d failed: %s" % (len(failures),
                                                   ", ".join(failures))
                                if failures else "all passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
