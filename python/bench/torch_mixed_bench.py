#!/usr/bin/env python3
"""W4A16 and W8A16 from PyTorch, on the user's path (issue 29, DESIGN.md 5a).

--weight w4: a GPTQ int4 weight (group 128, bf16 scales, ui4 zero points)
packed by ws_gemm.prepack_i4, through the no-config kernel `tb_w4` of
python/bench/kernels.mlir; w8 / f8: an int8 / fp8 e4m3 weight with one
bf16 scale per output channel packed by ws_gemm.prepack_b8, through
`tb_w8` / `tb_f8w`. Multiplied by bf16 activations (each kernel's default
family: the runtime picks the variant per shape), launched on torch
tensors, in ONE process and alternating rounds against what a torch user
runs without it:

  mm         torch.mm(x, w.t()) on the weight dequantized to bf16 once
             (cuBLAS; the issue's baseline),
  tinygemm   torch._weight_int4pack_mm (torch's own int4 kernel) on the
             same weight, where this torch has it for CUDA (w4 only),
  bf16_ours  our bf16 no-config kernel tb_plain on the dequantized weight
             (the prefill target: W4 >= 0.95x of it at M >= 4096 tokens),
  ours_bias  tb_w4_bias, the same with nn.Linear's bias fused: its time
             over ours' in the same round is the epilogue's cost,
  floor      (graphs only; where Triton is installed) a kernel that only
             reads as many bytes as ours reads and writes, the fastest of
             a few launch shapes (stream_floor.py): no weight-only kernel
             is faster, so mm / floor is the most any can gain over
             torch.mm at that point.

`ours` launches into a preallocated output (KernelFamily.launch), `ours_op`
is the custom op (ws_gemm.torch_op), which allocates it. tb_w4's D is
column-major (N_out x tokens with N_out contiguous): its storage is
x W^T, what torch returns (the op returns it as the N_out x tokens view).
Every contender is first compared with an f32 reference on the same random
data (q uniform over the format, z uniform in 0..15, scales of both signs,
x uniform).

Per point and round each contender is timed (rotated order) with CUDA
events over n back-to-back calls (>= --target-ms), host time by
perf_counter around the same calls, SM clock by NVML while the GPU runs.
The HBM column is (packed weight + scales + zero points + x + y bytes) /
time / the GPU's HBM peak (NVML: 2 x its memory clock x its bus width,
4.81 TB/s on the lent H200; 3.35 TB/s, an H100 SXM's, without NVML). Tables
written before 2026-11-30 divided by 3.35 TB/s on the H200 too.

  python3 python/bench/torch_mixed_bench.py --kernels DIR [--out DIR]
      [--weight w4|w8|f8] [--tokens 1,16,64,256,4096] [--shapes 8b,70b]
      [--rounds 5] [--no-floor]
"""

import argparse
import csv
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_bench import (MODELS, Nvml, calls_for, cuda_graph,  # noqa: E402
                         markdown_table, median, rotated, timed_calls)

HBM_BYTES_PER_S = 3.35e12  # without NVML: an H100 SXM's
GROUP = 128
# --weight: the kernel of python/bench/kernels.mlir that runs it.
KERNEL = {"w4": "tb_w4", "w8": "tb_w8", "f8": "tb_f8w"}


def shapes_of(models):
    """(model, layer, N_out, K) of Llama-3's projections."""
    out = []
    for model in models:
        h, i = MODELS[model]
        out += [(model, "qo", h, h), (model, "up", i, h),
                (model, "down", h, i)]
    return out


class MixedBench:
    def __init__(self, args):
        import torch
        import ws_gemm
        self.t, self.ws, self.args = torch, ws_gemm, args
        torch.backends.cuda.matmul.allow_tf32 = False
        self.nvml = Nvml(torch.cuda.current_device())
        self.hbm = self.nvml.hbm_bytes_per_s() or HBM_BYTES_PER_S
        self.fmt = args.weight
        name = KERNEL[self.fmt]
        self.w4 = ws_gemm.KernelFamily(
            os.path.join(args.kernels, name, "family.json"))
        self.w4_op = ws_gemm.torch_op(self.w4)
        # The same weight with nn.Linear's bias fused (its epilogue's cost:
        # issue 29 asks for none beyond the bias's bytes).
        biased = os.path.join(args.kernels, name + "_bias", "family.json")
        self.w4_bias = ws_gemm.KernelFamily(biased) \
            if os.path.exists(biased) else None
        plain = os.path.join(args.kernels, "tb_plain", "family.json")
        self.bf16 = ws_gemm.KernelFamily(plain) if os.path.exists(plain) \
            else None
        self.tinygemm = self.fmt == "w4" and \
            hasattr(torch, "_weight_int4pack_mm") and \
            hasattr(torch, "_convert_weight_to_int4pack")
        self.l2 = getattr(torch.cuda.get_device_properties(0),
                          "L2_cache_size", 50 << 20)
        self.floor = None
        if not args.no_floor and not args.no_graphs:
            try:
                from stream_floor import StreamFloor
                self.floor = StreamFloor(torch)
            except ImportError as e:
                print("no floor contender (%s)" % e)

    def weight(self, n_out, k, seed):
        """(q, s, z, w): the stored weight, its scales and zero points (None
        for w8 / f8) and w, the weight the kernel multiplies, in bf16."""
        t = self.t
        g = t.Generator(device="cuda").manual_seed(seed)
        if self.fmt != "w4":
            # One scale per output channel; round_bf16(q * s): q is exact in
            # bf16 (|q| <= 128, e4m3 values), the product rounded once.
            if self.fmt == "w8":
                q = t.randint(-128, 128, (n_out, k), dtype=t.int8,
                              device="cuda", generator=g)
                mag = 1 / (128 * k ** 0.5)
            else:
                q = (t.randn(n_out, k, device="cuda", generator=g) *
                     2).to(t.float8_e4m3fn)
                mag = 1 / (2 * k ** 0.5)
            sign = t.where(t.rand(n_out, device="cuda", generator=g) < 0.5,
                           -1.0, 1.0)
            s = ((t.rand(n_out, device="cuda", generator=g) * 0.75 + 0.25) *
                 sign * mag).to(t.bfloat16)
            return q, s, None, q.to(t.bfloat16) * s[:, None]
        kb = k // GROUP
        q = t.randint(0, 16, (n_out, k), dtype=t.uint8, device="cuda",
                      generator=g)
        sign = t.where(t.rand(kb, n_out, device="cuda", generator=g) < 0.5,
                       -1.0, 1.0)
        s = ((t.rand(kb, n_out, device="cuda", generator=g) * 0.75 + 0.25) *
             sign / (8 * k ** 0.5)).to(t.bfloat16)
        z = t.randint(0, 16, (kb, n_out), device="cuda",
                      generator=g).to(t.bfloat16)
        # round_bf16((q - z) * s), the kernel's dequantization.
        w = (q.to(t.bfloat16) - z.t().repeat_interleave(GROUP, 1)) * \
            s.t().repeat_interleave(GROUP, 1)
        return q, s, z, w

    def tinygemm_fn(self, q, s, z, x):
        """torch's int4 kernel's packed weight (self.sz: its scales and
        zeros): its dequantization is (q - 8) * scale + zero, so zero =
        (8 - z) * s."""
        t = self.t
        packed = ((q[:, ::2] << 4) | q[:, 1::2]).contiguous()
        wpk = t._convert_weight_to_int4pack(packed, 8)
        self.sz = t.stack([s, (8 - z.float()).to(t.bfloat16) * s],
                          dim=2).contiguous()
        return wpk

    def check(self, got, ref, k):
        t = self.t
        got, ref = got.double(), ref.double()
        rms = ref.pow(2).mean().sqrt().item()
        tol = 4 * 2 ** -7 * (ref.abs() + rms) + 1e-6 * k
        bad = int(((got - ref).abs() > tol).sum().item()) + \
            int(t.isnan(got).sum().item())
        return bad == 0, "max |err| %.3g (rms %.3g)%s" % (
            (got - ref).abs().max().item(), rms,
            "" if bad == 0 else ", %d out of tolerance" % bad)

    def measure(self, fn, calls):
        return timed_calls(self.t, self.nvml, fn, calls)

    def graph_of(self, fn, n=10):
        return cuda_graph(self.t, fn, n)

    def point(self, model, layer, n_out, k, tokens, log):
        t, ws, args = self.t, self.ws, self.args
        label = "%s %s %dx%d, %d tokens" % (model, layer, n_out, k, tokens)
        q, s, z, w = self.weight(n_out, k, seed=n_out * 7 + k)
        packed = ws.prepack_i4(q) if self.fmt == "w4" else ws.prepack_b8(q)
        # The dequantization arrays the kernel takes.
        def dq(sc, zp):
            return {"dequant_scale_a": sc} if zp is None else \
                {"dequant_scale_a": sc, "dequant_zero_a": zp}
        x = (t.rand(tokens, k, device="cuda") * 2 - 1).to(t.bfloat16)
        ref = (x.float() @ w.float().t())            # tokens x N_out
        bias = (t.rand(n_out, device="cuda") * 2 - 1).to(t.bfloat16)
        # D is column-major (tb_w4's d(bf16, m_major)): launch() takes its
        # storage, tokens x N_out: Y itself.
        d = t.empty(tokens, n_out, device="cuda", dtype=t.bfloat16)
        pick = self.w4.select(n_out, tokens, k)
        # Each contender cycles through copies of its weight that together
        # span 3x the L2, so that back-to-back calls read it from HBM as a
        # model's layers do (a 4096 x 4096 int4 weight is 8 MiB).
        def copies(nbytes):
            return max(1, -(-3 * self.l2 // max(nbytes, 1)))
        w4s = [(packed, s, z)] + [
            (packed.clone(), s.clone(), None if z is None else z.clone())
            for _ in range(copies(packed.numel()) - 1)]
        w16s = [w] + [w.clone() for _ in range(copies(2 * w.numel()) - 1)]
        turn = {"i": 0}

        def nxt(lst):
            turn["i"] += 1
            return lst[turn["i"] % len(lst)]

        def ours():
            a, sc, zp = nxt(w4s)
            self.w4.launch(a, x, d, **dq(sc, zp))

        def ours_op():
            a, sc, zp = nxt(w4s)
            return self.w4_op(a, x, **dq(sc, zp))

        cont = {"ours": ours, "ours_op": ours_op,
                "mm": lambda: t.mm(x, nxt(w16s).t())}
        if self.w4_bias is not None:
            db = t.empty(tokens, n_out, device="cuda", dtype=t.bfloat16)

            def ours_bias():
                a, sc, zp = nxt(w4s)
                self.w4_bias.launch(a, x, db, bias=bias, **dq(sc, zp))
            cont["ours_bias"] = ours_bias
        if self.tinygemm:
            try:
                tg = self.tinygemm_fn(q, s, z, x)
                tgs = [tg] + [tg.clone() for _ in range(
                    copies(tg.numel() * tg.element_size()) - 1)]
                sz = self.sz
                cont["tinygemm"] = lambda: t._weight_int4pack_mm(
                    x, nxt(tgs), GROUP, sz)
            except Exception as e:  # noqa: BLE001
                log("  tinygemm %s: %s" % (label, e))
        if self.bf16 is not None:
            d16 = t.empty(tokens, n_out, device="cuda", dtype=t.bfloat16)
            cont["bf16_ours"] = lambda: self.bf16.launch(x, nxt(w16s), d16)
        wbytes = (n_out * k // 2 + 2 * 2 * n_out * (k // GROUP)
                  if self.fmt == "w4" else n_out * k + 2 * n_out)
        io = 2 * tokens * (k + n_out)
        checks = {}
        for name, fn in list(cont.items()):
            try:
                r = fn()
                t.cuda.synchronize()
                got = {"ours": d, "bf16_ours": d16 if self.bf16 else None,
                       "ours_bias": db if self.w4_bias else None}.get(name,
                                                                      r)
                if name == "ours_op":   # the M x N view of Y's storage
                    got = got.t()
                ok, text = self.check(
                    got, ref + bias.float() if name == "ours_bias" else ref,
                    k)
            except Exception as e:  # noqa: BLE001
                ok, text = False, "%s: %s" % (type(e).__name__, e)
            log("  %s %s %s: %s" % ("PASS" if ok else "FAIL", name, label,
                                    text))
            checks[name] = "PASS" if ok else "FAIL"
            if not ok:
                if name == "ours":
                    return []
                del cont[name]
        if self.floor is not None:
            fbufs = self.floor.buffers(wbytes + io, copies(wbytes + io))
            best = self.floor.pick(fbufs, self.graph_of, self.measure, log)
            if best:
                fcfg = best[0]
                log("  floor %s: %s, %.4f ms" % (label, fcfg, best[1]))
                cont["floor"] = lambda: self.floor.launch(nxt(fbufs), fcfg)
                checks["floor"] = "PASS"
        # CUDA graphs of 10 calls (what a decode loop replays: no host
        # time per call); ours gets the capture stream from torch.
        per_call = {c: 1 for c in cont}
        for name in ("ours", "ours_op", "ours_bias", "mm", "tinygemm",
                     "floor"):
            if name in cont and not args.no_graphs:
                try:
                    cont[name + "_graph"] = self.graph_of(cont[name]).replay
                    per_call[name + "_graph"] = 10
                except Exception as e:  # noqa: BLE001
                    log("  %s_graph %s: capture failed: %s" % (name, label,
                                                               e))
        cont.pop("floor", None)    # the reader is timed in graphs only
        calls = {}
        for name, fn in cont.items():
            for _ in range(args.warmup):
                fn()
            ms, _, _ = self.measure(fn, 3)
            calls[name] = calls_for(ms, args.target_ms)
        rounds, host, clocks = [], {c: [] for c in cont}, \
            {c: [] for c in cont}
        for r in range(args.rounds):
            this = {}
            for name in rotated(list(cont), r):
                ms, hus, mhz = self.measure(cont[name], calls[name])
                this[name] = ms / per_call[name]
                host[name].append(hus / per_call[name])
                if mhz:
                    clocks[name].append(mhz)
            rounds.append(this)
        rows = []
        for name in cont:
            ms = median([r[name] for r in rounds])
            ratio = {}
            graph = "_graph" if name.endswith("_graph") else ""
            for base in ("mm", "tinygemm", "bf16_ours", "floor"):
                rr = [r[base + graph] / r[name] for r in rounds
                      if base + graph in r and name in r]
                ratio[base] = (median(rr), min(rr), max(rr)) if rr else None
            # The fused epilogue's cost: its time over the plain kernel's
            # in the same round (graph rows against the plain graph).
            plain = "ours_graph" if graph else "ours"
            cost = [r[name] / r[plain] for r in rounds
                    if name.startswith("ours_bias") and plain in r]
            by = (wbytes if not name.startswith(("mm", "bf16")) else
                  2 * n_out * k) + io
            rows.append(dict(
                model=model, layer=layer, N_out=n_out, K=k, tokens=tokens,
                contender=name, check=checks[name.replace("_graph", "")],
                ms=ms, ms_min=min(r[name] for r in rounds),
                ms_max=max(r[name] for r in rounds),
                calls=calls[name] * per_call[name],
                host_us=median(host[name]),
                hbm_pct=100.0 * by / (ms * 1e-3) / self.hbm,
                tflops=2.0 * n_out * tokens * k / (ms * 1e-3) / 1e12,
                clock_mhz=median(clocks[name]) if clocks[name] else "",
                variant=pick.variant if name.startswith("ours") else "",
                epi_cost=("%.3f [%.3f-%.3f]" % (median(cost), min(cost),
                                                max(cost)) if cost else ""),
                **{"vs_" + b: ("%.3f" % v[0] if v else "")
                   for b, v in ratio.items()},
                **{"vs_%s_range" % b: ("%.3f-%.3f" % v[1:] if v else "")
                   for b, v in ratio.items()}))
        o = [r for r in rows if r["contender"] == "ours"][0]
        log("  %s: ours %.4f ms (%s), x%s vs mm, x%s vs tinygemm, %.0f%% HBM"
            % (label, o["ms"], o["variant"], o["vs_mm"] or "-",
               o["vs_tinygemm"] or "-", o["hbm_pct"]))
        return rows


FIELDS = ["model", "layer", "N_out", "K", "tokens", "contender", "check",
          "ms", "ms_min", "ms_max", "calls", "host_us", "hbm_pct", "tflops",
          "clock_mhz", "variant", "epi_cost", "vs_mm", "vs_mm_range", "vs_tinygemm",
          "vs_tinygemm_range", "vs_bf16_ours", "vs_bf16_ours_range",
          "vs_floor", "vs_floor_range"]


def table(rows):
    """One line per point: ours against each baseline (median [range])."""
    head = ["weight (N_out x K)", "tokens", "variant", "ours ms",
            "ours_op ms", "host us ours/mm", "mm ms", "x mm", "tinygemm ms",
            "x tinygemm", "x bf16 ours", "graph: ours ms", "x mm",
            "x tinygemm", "HBM % (graph)", "bias cost (graph)",
            "floor ms (graph)", "ours x floor", "mm / floor", "MHz"]
    out = []
    pts = sorted({(r["model"], r["layer"], r["N_out"], r["K"], r["tokens"])
                  for r in rows}, key=lambda p: (p[4], p[0], p[2], p[3]))
    for p in pts:
        by = {r["contender"]: r for r in rows
              if (r["model"], r["layer"], r["N_out"], r["K"],
                  r["tokens"]) == p}
        o = by.get("ours")
        if not o:
            continue

        def ms(c):
            return "%.4f" % by[c]["ms"] if c in by else "-"

        g = by.get("ours_graph", {})

        def x(b, row=o):
            return ("%s [%s]" % (row["vs_" + b], row["vs_%s_range" % b])
                    if row.get("vs_" + b) else "-")
        out.append(["%s %s %dx%d" % (p[0], p[1], p[2], p[3]), str(p[4]),
                    o["variant"].split(".", 1)[-1], ms("ours"), ms("ours_op"),
                    "%.1f / %.1f" % (o["host_us"], by["mm"]["host_us"])
                    if "mm" in by else "-", ms("mm"), x("mm"),
                    ms("tinygemm"), x("tinygemm"), x("bf16_ours"),
                    ms("ours_graph"), x("mm", g), x("tinygemm", g),
                    "%.0f (%s)" % (o["hbm_pct"], "%.0f" % g["hbm_pct"]
                                   if g else "-"),
                    by.get("ours_bias_graph", {}).get("epi_cost") or "-",
                    ms("floor_graph"), x("floor", g),
                    "%.2f" % (1 / float(by["mm_graph"]["vs_floor"]))
                    if by.get("mm_graph", {}).get("vs_floor") else "-",
                    "%s" % (o["clock_mhz"] and "%.0f" % o["clock_mhz"])])
    return markdown_table(head, out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernels", required=True,
                   help="the compiled python/bench/kernels.mlir (tb_w4/)")
    p.add_argument("--weight", choices=sorted(KERNEL), default="w4",
                   help="the weight's format (w4: GPTQ int4; w8: int8, f8: "
                   "fp8 e4m3, per output channel)")
    p.add_argument("--out", default=os.environ.get("OUT", "bench-out"))
    p.add_argument("--tokens", default="1,16,64,256,4096")
    p.add_argument("--shapes", default="8b,70b")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--target-ms", type=float, default=20.0)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--budget-s", type=float, default=400.0)
    p.add_argument("--no-graphs", action="store_true")
    p.add_argument("--no-floor", action="store_true",
                   help="leave out the read-only floor kernel (Triton)")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    logf = open(os.path.join(args.out, "mixed_log.txt"), "w")

    def log(s):
        print(s, flush=True)
        logf.write(s + "\n")

    b = MixedBench(args)
    log("HBM peak %.2f TB/s (%s)" % (b.hbm / 1e12, "NVML" if
        b.nvml.hbm_bytes_per_s() else "no NVML: an H100 SXM's"))
    t0 = time.time()
    rows = []
    for tokens in [int(v) for v in args.tokens.split(",")]:
        for model, layer, n_out, k in shapes_of(args.shapes.split(",")):
            if time.time() - t0 > args.budget_s:
                log("budget: stopped before %s %s at %d tokens" %
                    (model, layer, tokens))
                break
            rows += b.point(model, layer, n_out, k, tokens, log)
    with open(os.path.join(args.out, "mixed.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=FIELDS)
        wr.writeheader()
        for r in rows:
            wr.writerow({k: ("%.5f" % v if isinstance(v, float) else v)
                         for k, v in r.items()})
    md = table(rows)
    with open(os.path.join(args.out, "mixed.md"), "w") as f:
        f.write(md + "\n")
    log(md)
    return 0 if all(r["check"] == "PASS" for r in rows
                    if r["contender"].startswith("ours")) else 1


if __name__ == "__main__":
    sys.exit(main())
