#!/usr/bin/env python3
"""A/B of mixed-input decode kernels (issue 29): standalone manifests, not a
family, each launched on torch tensors in CUDA graphs of 10 calls, in ONE
process and alternating rounds, beside torch.mm on the dequantized weight.

The kernels are DIR/<weight>_<name>.json for each NAME of --kernels, each
compiled from a wsgemm.gemm with d(bf16, m_major) and the weight's
dequant_a (w4: GPTQ int4, group 128, bf16 scales, ui4 zero points; w8 /
f8: int8 / fp8 e4m3 with one bf16 scale per output channel), the way
python/bench/kernels.mlir spells tb_w4 / tb_w8 / tb_f8w; with --dtype f16,
b, d and the scales f16 instead. A kernel with a `bias` vector
(tb_w4_bias's epi.load_vec_m) gets one, random, added to the reference.
Each kernel is first checked against an f32 reference on random data (its
D filled with NaN before); a kernel that fails is dropped, unless
--time-only names it (an experiment that is wrong on purpose: it is timed,
its check printed as TIME-ONLY). Each contender cycles through copies of
its weight spanning 3x the L2 (a model's layers read their weights from
HBM).

  python3 python/bench/decode_ab.py --dir DIR --weight w4 \\
      --kernels a,b [--shapes 4096x4096,8192x8192] [--tokens 1,16] \\
      [--rounds 3] [--dtype bf16|f16] [--time-only b]

Prints per shape and token count: us per call (median over rounds) of
each kernel and of torch.mm, then the first kernel's time over each
other's (median of the per-round ratios: > 1 means the other is faster),
and the SM clock (NVML) per round.
"""

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_bench import Nvml, cuda_graph  # noqa: E402

LLAMA3 = "4096x4096,14336x4096,4096x14336,8192x8192,28672x8192,8192x28672"


def us_per_call(t, g, replays=60, calls=10):
    e0, e1 = t.cuda.Event(True), t.cuda.Event(True)
    g.replay()
    e0.record()
    for _ in range(replays):
        g.replay()
    e1.record()
    e1.synchronize()
    return e0.elapsed_time(e1) * 1e3 / replays / calls


def weight(t, ws, fmt, n_out, k, dt):
    """(packed weight, dequantization arrays, weight in `dt`, the
    activations' type)."""
    g = t.Generator(device="cuda").manual_seed(n_out + k)
    if fmt == "w4":
        kb = k // 128
        q = t.randint(0, 16, (n_out, k), dtype=t.uint8, device="cuda",
                      generator=g)
        s = ((t.rand(kb, n_out, device="cuda", generator=g) * 0.75 + 0.25) /
             (8 * k ** 0.5)).to(dt)
        z = t.randint(0, 16, (kb, n_out), device="cuda",
                      generator=g).to(dt)
        w = (q.to(dt) - z.t().repeat_interleave(128, 1)) * \
            s.t().repeat_interleave(128, 1)
        return ws.prepack_i4(q), {"dequant_scale_a": s,
                                  "dequant_zero_a": z}, w
    if fmt == "w8":
        q = t.randint(-128, 128, (n_out, k), dtype=t.int8, device="cuda",
                      generator=g)
        mag = 1 / (128 * k ** 0.5)
    else:  # f8: e4m3 values, subnormals among them
        q = (t.randn(n_out, k, device="cuda", generator=g) * 2).to(
            t.float8_e4m3fn)
        mag = 1 / (2 * k ** 0.5)
    s = ((t.rand(n_out, device="cuda", generator=g) * 0.75 + 0.25) *
         mag).to(dt)
    return ws.prepack_b8(q), {"dequant_scale_a": s}, \
        q.to(dt) * s[:, None]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dir", required=True)
    p.add_argument("--weight", choices=["w4", "w8", "f8"], default="w4")
    p.add_argument("--kernels", required=True)
    p.add_argument("--shapes", default=LLAMA3)
    p.add_argument("--tokens", default="1,16")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--dtype", choices=["bf16", "f16"], default="bf16",
                   help="activations, scales and D (the kernels' b and d)")
    p.add_argument("--time-only", default="",
                   help="kernels timed without the check (experiments that "
                   "compute wrong results on purpose); their check is still "
                   "printed, as TIME-ONLY")
    a = p.parse_args()
    import torch as t
    dt = t.float16 if a.dtype == "f16" else t.bfloat16
    import ws_gemm as ws
    nvml = Nvml(t.cuda.current_device())
    l2 = getattr(t.cuda.get_device_properties(0), "L2_cache_size", 50 << 20)
    names = a.kernels.split(",")
    kernels = {n: ws.Kernel.load(os.path.join(a.dir, "%s_%s.json" %
                                              (a.weight, n))) for n in names}
    for shape in a.shapes.split(","):
        n_out, k = map(int, shape.split("x"))
        packed, dq, w = weight(t, ws, a.weight, n_out, k, dt)
        copies = max(1, -(-3 * l2 // packed.numel()))
        wq = [(packed, dq)] + [(packed.clone(),
                                {n: v.clone() for n, v in dq.items()})
                               for _ in range(copies - 1)]
        w16 = [w] + [w.clone() for _ in
                     range(max(1, -(-3 * l2 // (2 * w.numel()))) - 1)]
        for tokens in map(int, a.tokens.split(",")):
            x = (t.rand(tokens, k, device="cuda") * 2 - 1).to(dt)
            ref = x.float() @ w.float().t()
            bias = (t.rand(n_out, device="cuda") * 2 - 1).to(dt)
            d = t.empty(tokens, n_out, device="cuda", dtype=dt)
            graphs = {}
            for name, kern in kernels.items():
                turn = [0]

                biased = any(p.name == "bias" for p in kern.params)
                extra = {"bias": bias} if biased else {}
                want = ref + bias.float() if biased else ref

                def fn(kern=kern, turn=turn, extra=extra):
                    turn[0] += 1
                    aa, dd = wq[turn[0] % len(wq)]
                    kern.launch(aa, x, d, **dd, **extra)
                d.fill_(float("nan"))
                fn()
                t.cuda.synchronize()
                rms = want.pow(2).mean().sqrt().item()
                bad = int(((d.float() - want).abs() >
                           4 * 2 ** -7 * (want.abs() + rms) + 1e-6 * k).sum())
                bad += int(t.isnan(d).sum())
                if bad and name in a.time_only.split(","):
                    print("TIME-ONLY %s %s %d tokens: %d elements out of "
                          "tolerance" % (name, shape, tokens, bad), flush=True)
                elif bad:
                    print("FAIL %s %s %d tokens: %d elements out of tolerance"
                          % (name, shape, tokens, bad), flush=True)
                    continue
                graphs[name] = cuda_graph(t, fn)
            turn = [0]

            def mm():
                turn[0] += 1
                t.mm(x, w16[turn[0] % len(w16)].t())
            graphs["mm"] = cuda_graph(t, mm)
            times = {n: [] for n in graphs}
            clocks = []
            order = list(graphs)
            for r in range(a.rounds):
                for n in order[r % len(order):] + order[:r % len(order)]:
                    times[n].append(us_per_call(t, graphs[n]))
                clocks.append(nvml.sm_mhz())
            line = "%s %5dx%-5d tok %2d:" % (a.weight, n_out, k, tokens)
            line += "".join(" %s %.2f" % (n, statistics.median(v))
                            for n, v in times.items())
            base = names[0]
            if base in times:
                line += " |" + "".join(
                    " %s/%s %.3f" % (base, n, statistics.median(
                        [x0 / x1 for x0, x1 in zip(times[base], v)]))
                    for n, v in times.items() if n != base)
            print(line, "MHz", clocks, flush=True)


if __name__ == "__main__":
    main()
