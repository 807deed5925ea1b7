#!/usr/bin/env python3
"""D += A B^T in place, three ways, in one process (issue 31): our
reducing store (`epi.store %acc reduce add`, bench_rs_add_*), our kernel
reading D back as C (D = A B^T + 1 * D, bench_rs_beta1_*, C = D), and for
bf16 D torch's in-place `D.addmm_(A, B.t())` (cuBLAS with beta = 1).
Rotating rounds, median ms and the median per-round ratio [min, max]; the
SM clock from NVML. Also times the default plain family against torch.mm
at the shapes given with --plain (the runtime's variant is printed).

  PYTHONPATH=.device/python python3 python/bench/reduce_store_bench.py \\
      --kernels .device/integration_test/kernels
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_bench as tb  # noqa: E402  (Nvml, median)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernels", required=True)
    p.add_argument("--shapes", default="8192x8192x1024,16384x4096x1024,"
                   "4096x4096x4096,8192x8192x4096")
    p.add_argument("--plain", default="512x28672x8192,512x14336x4096")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--calls", type=int, default=50)
    a = p.parse_args()
    import torch
    import ws_gemm
    nvml = tb.Nvml()
    k = lambda name: ws_gemm.Kernel.load(os.path.join(a.kernels, name + ".json"))

    def time_ms(fn):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        start.record()
        for _ in range(a.calls):
            fn()
        end.record()
        mhz = nvml.sm_mhz()
        end.synchronize()
        return start.elapsed_time(end) / a.calls, mhz

    def compare(label, fns):
        names = list(fns)
        times = {n: [] for n in names}
        clocks = []
        for r in range(a.rounds):
            for n in names[r % len(names):] + names[:r % len(names)]:
                ms, mhz = time_ms(fns[n])
                times[n].append(ms)
                if mhz:
                    clocks.append(mhz)
        base = names[0]
        out = ["%s (SM %s MHz)" % (label, int(tb.median(clocks)) if clocks else "?")]
        for n in names:
            ratios = [o / b for o, b in zip(times[n], times[base])]
            out.append("  %-24s %.4f ms  vs %s: %.3f [%.3f, %.3f]" % (
                n, tb.median(times[n]), base, tb.median(ratios),
                min(ratios), max(ratios)))
        print("\n".join(out), flush=True)

    torch.manual_seed(0)
    for shape in a.shapes.split(","):
        m, n, kk = (int(x) for x in shape.split("x"))
        x = torch.randn(m, kk, device="cuda", dtype=torch.bfloat16)
        w = (torch.randn(n, kk, device="cuda") / kk ** 0.5).to(torch.bfloat16)
        for dt in ("bf16", "f32"):
            tdt = torch.bfloat16 if dt == "bf16" else torch.float32
            d0 = torch.randn(m, n, device="cuda").to(tdt)
            rs, b1 = k("bench_rs_add_" + dt), k("bench_rs_beta1_" + dt)
            # Correctness first: D_after = D_before + x w^T.
            ref = d0.float() + x.float() @ w.float().t()
            for name, kern, c in (("reduce", rs, None), ("beta1", b1, True)):
                d = d0.clone()
                kern.launch(x, w, d, d if c else None)
                torch.cuda.synchronize()
                err = (d.float() - ref).abs().max().item()
                tol = 0.02 * ref.abs().max().item() if dt == "bf16" else 1e-3 * ref.abs().max().item()
                print("%s %s %s: max |err| %.3g (tol %.3g) %s" % (
                    shape, dt, name, err, tol, "PASS" if err <= tol else "FAIL"))
            d = d0.clone()
            fns = {"ours reduce-store": lambda: rs.launch(x, w, d),
                   "ours beta=1 (C = D)": lambda: b1.launch(x, w, d, d)}
            if dt == "bf16":
                fns["torch D.addmm_"] = lambda: d.addmm_(x, w.t())
            compare("%s D %s += A B^T" % (shape, dt), fns)
    fam = ws_gemm.KernelFamily.load(
        os.path.join(a.kernels, "torch_bench", "tb_plain", "family.json"))
    for shape in [s for s in a.plain.split(",") if s]:
        m, n, kk = (int(x) for x in shape.split("x"))
        x = torch.randn(m, kk, device="cuda", dtype=torch.bfloat16)
        w = (torch.randn(n, kk, device="cuda") / kk ** 0.5).to(torch.bfloat16)
        d = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        print("%s plain: runtime picks %s" % (shape, fam.select(m, n, kk).variant))
        compare("%s plain" % shape, {"torch.mm": lambda: torch.mm(x, w.t()),
                                      "ours (default family)": lambda: fam.launch(x, w, d)})


if __name__ == "__main__":
    main()
