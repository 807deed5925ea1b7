"""Tensors TMA cannot describe, from PyTorch, on the GPU
(python-torch-unaligned.test): a gemm without a config, compiled into its
default family (python/bench/kernels.mlir as kernels/torch_bench/), takes
an LM head's odd N (D stored directly: v4), a sliced activation (A's base
2 bytes off 16, its rows K + 1 elements apart: A alone copied with
cp.async, v6), an odd K (every row 2-byte aligned: A and B copied, v5), a
sliced residual C (C alone copied: v6 of the residual's family) and all of
them at once (A, B and C copied: v5), each checked against torch in float64; with --time,
ours against the same expression in torch (cuBLASLt's kernels for such
strides), alternating in rounds. Prints PASS/FAIL lines and
"python-torch-unaligned: all passed" at the end.
"""

import argparse
import os
import statistics
import sys

import torch

import ws_gemm

failures = []


def check(name, got, ref, k):
    ref = ref.double()
    got = got.double()
    rms = ref.pow(2).mean().sqrt().item()
    tol = 4 * 2 ** -7 * (ref.abs() + rms) + 1e-6 * k
    bad = int(((got - ref).abs() > tol).sum().item()) + int(
        torch.isnan(got).sum().item())
    print("%s %s: max |err| %.3g (rms %.3g)%s" % (
        "PASS" if bad == 0 else "FAIL", name, (got - ref).abs().max().item(),
        rms, "" if bad == 0 else ", %d elements out of tolerance" % bad),
        flush=True)
    if bad:
        failures.append(name)


def rand(*shape):
    return (torch.rand(*shape, device="cuda") * 2 - 1).to(torch.bfloat16)


def sliced(rows, cols):
    """rows x cols, its base 2 bytes past a 16-byte boundary and its rows
    cols + 1 elements apart (x[:, 1:] of a rows x (cols + 1) tensor)."""
    return rand(rows, cols + 1)[:, 1:]


def problem(m, n, k, a_sliced=False, b_sliced=False, c_sliced=False):
    """Inputs of D = A @ B^T + bias (+ C): A m x k, B n x k, each sliced
    when asked; a C (m x n, sliced) with c_sliced."""
    x = dict(a=sliced(m, k) if a_sliced else rand(m, k),
             b=sliced(n, k) if b_sliced else rand(n, k), bias=rand(n),
             d=torch.empty(m, n, device="cuda", dtype=torch.bfloat16))
    if c_sliced:
        x["c"] = sliced(m, n)
    return x


def cases():
    """(name, family, the variant it must take, inputs, torch reference)."""
    def ref(x):
        r = x["a"].double() @ x["b"].double().t() + x["bias"].double()
        return r + x["c"].double() if "c" in x else r

    return [("LM head 300x50257x1024 (odd N)", "tb_bias", "v4",
             lambda: problem(300, 50257, 1024), ref),
            ("sliced A 777x1032x1024", "tb_bias", "v6",
             lambda: problem(777, 1032, 1024, a_sliced=True), ref),
            ("odd K 777x1032x999", "tb_bias", "v5",
             lambda: problem(777, 1032, 999), ref),
            ("sliced residual C 777x1032x520", "tb_bias_residual", "v6",
             lambda: problem(777, 1032, 520, c_sliced=True), ref),
            ("sliced A, B, C, odd M N K 333x1001x999", "tb_bias_residual",
             "v5", lambda: problem(333, 1001, 999, a_sliced=True,
                                   b_sliced=True, c_sliced=True), ref)]


def launch(fam, x):
    return fam.launch(x["a"], x["b"], x["d"], x.get("c"), bias=x["bias"])


def median_us(fn, iters=20):
    start = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for _ in range(3):
        fn()
    for i in range(iters):
        start[i].record()
        fn()
        end[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1e3
                             for s, e in zip(start, end))


def time_cases(families, rounds):
    """Ours (the family's launch) against torch's expression, same
    tensors, alternating in rounds; median of the per-round ratios."""
    def torch_expr(x):
        y = torch.nn.functional.linear(x["a"], x["b"], x["bias"])
        return y + x["c"] if "c" in x else y

    for name, fam, make in [
            ("LM head 4096x50257x4096", "tb_bias",
             lambda: problem(4096, 50257, 4096)),
            ("sliced A 8192^3", "tb_bias",
             lambda: problem(8192, 8192, 8192, a_sliced=True)),
            ("sliced C 8192x8192x4096", "tb_bias_residual",
             lambda: problem(8192, 8192, 4096, c_sliced=True))]:
        x = make()
        m, k = x["a"].shape
        n = x["b"].shape[0]
        ours, theirs, ratios = [], [], []
        variant = launch(families[fam], x)
        for _ in range(rounds):
            o = median_us(lambda: launch(families[fam], x))
            t = median_us(lambda: torch_expr(x))
            ours.append(o)
            theirs.append(t)
            ratios.append(t / o)
        flops = 2.0 * m * n * k
        print("TIME %s (%s): ours %.1f us (%.0f TFLOP/s), torch %.1f us "
              "(%.0f TFLOP/s), torch/ours %.3f [%.3f, %.3f] over %d rounds"
              % (name, variant, statistics.median(ours),
                 flops / statistics.median(ours) / 1e6,
                 statistics.median(theirs),
                 flops / statistics.median(theirs) / 1e6,
                 statistics.median(ratios), min(ratios), max(ratios),
                 rounds), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", required=True,
                    help="kernels/torch_bench (family directories)")
    ap.add_argument("--time", type=int, default=0, metavar="ROUNDS")
    args = ap.parse_args()
    families = {f: ws_gemm.KernelFamily.load(
        os.path.join(args.kernels, f, "family.json"))
        for f in ("tb_bias", "tb_bias_residual")}
    torch.manual_seed(0)
    for name, fam, want, make, ref in cases():
        x = make()
        variant = launch(families[fam], x)
        torch.cuda.synchronize()
        if not variant.startswith(want + "."):
            print("FAIL %s: took %s, expected %s" % (name, variant, want))
            failures.append(name)
        check("%s (%s)" % (name, variant), x["d"], ref(x), x["a"].shape[1])
    if args.time:
        time_cases(families, args.time)
    if failures:
        print("python-torch-unaligned: %d failed: %s" % (
            len(failures), ", ".join(failures)))
        sys.exit(1)
    print("python-torch-unaligned: all passed")


if __name__ == "__main__":
    main()
