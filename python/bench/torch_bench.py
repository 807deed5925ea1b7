#!/usr/bin/env python3
"""ws-gemm against PyTorch where a user calls it (issue 27, DESIGN.md 5a).

No-config ws-gemm kernels (python/bench/kernels.mlir, compiled elsewhere)
are loaded with the Python package and launched on torch tensors; in ONE
process and alternating rounds they are timed against

  eager     torch's best formulations of the same epilogue (cuBLASLt's fused
            epilogue where torch exposes one: addmm's bias,
            _addmm_activation's bias + GELU(tanh)),
  compile   torch.compile of the natural eager function (mode "default",
            dynamic=False, one compile per point, compile time excluded;
            with --max-autotune also "max-autotune-no-cudagraphs" on a
            subset),
  mm        torch.mm alone (the unfused GEMM: a reference, not a
            formulation of a fused epilogue),
  graphs    ours and the first eager formulation replayed from a CUDA graph
            of 10 calls.

Shapes: projections of Llama-3 8B and 70B, M (tokens) 512 .. 16384.
Before timing a point, ours and every torch formulation are compared with
an f32 reference on random data; a point where ours FAILs is not timed.

Per point and round, every contender is timed in a rotated order (round r
starts with contender r mod C) with CUDA events over n back-to-back calls
(n so one measurement takes >= --target-ms), and the host time per call is
time.perf_counter() around the same n calls (no synchronisation inside).
The SM clock is read with NVML (ctypes, no pynvml) while each measurement
is still running on the GPU.

Output (--out): results.csv (one row per point and contender),
results.md (the tables, also printed), host.csv (host us per call at a
small shape, where the GPU keeps up with the host), speedup.png
(matplotlib, if present).

  python3 python/bench/torch_bench.py --kernels DIR [--quick] [--out DIR]
  python3 python/bench/torch_bench.py --self-test      # no torch, no GPU

python/bench/README.md explains the columns.
"""

import argparse
import csv
import ctypes
import math
import os
import statistics
import sys
import time
import zlib

#===------------------------------------------------------------------------===#
# Problem set (no torch)
#===------------------------------------------------------------------------===#

PEAK_TFLOPS = 989.0   # H100 SXM dense bf16 at PEAK_MHZ
PEAK_MHZ = 1830.0

# hidden, intermediate
MODELS = {"8b": (4096, 14336), "70b": (8192, 28672)}
MODEL_NAMES = {"8b": "Llama-3 8B", "70b": "Llama-3 70B"}


def layer_shapes(model):
    """Projection -> (N, K) for nn.Linear(K, N) of a Llama-3 block (q and o
    are both hidden x hidden; gate and up are the same shape)."""
    h, i = MODELS[model]
    return {"qo": (h, h), "gate": (i, h), "up": (i, h), "down": (h, i)}


M_FULL = (512, 2048, 8192, 16384)
M_QUICK = (512, 8192)

# name -> (kernel, layers it belongs to, in the default set, torch.compile
#          by default, description)
EPILOGUES = {
    "plain": ("tb_plain", ("qo", "up", "down"), True, False,
              "D = acc"),
    "bias": ("tb_bias", ("qo",), True, False,
             "D = acc + bias[n]"),
    "bias_residual": ("tb_bias_residual", ("qo", "down"), True, True,
                      "D = acc + bias[n] + res (res = C)"),
    "bias_residual_aux": ("tb_bias_residual_aux", ("qo", "down"), False,
                          True, "D = acc + bias[n] + res (res = aux_load)"),
    "bias_gelu": ("tb_bias_gelu", ("up",), True, True,
                  "D = gelu_erf(acc + bias[n])"),
    "bias_gelu_tanh": ("tb_bias_gelu_tanh", ("up",), True, True,
                       "D = gelu_tanh(acc + bias[n])"),
    "swiglu": ("tb_swiglu", ("gate",), True, True,
               "D = silu(acc) * up (up = C)"),
    "swiglu_aux": ("tb_swiglu_aux", ("gate",), False, True,
                   "D = silu(acc) * up (up = aux_load)"),
    "residual_rmsstats": ("tb_residual_rmsstats", ("qo", "down"), True, True,
                          "D = acc + res; rowsumsq[m] = sum_n D^2"),
    "fp8_amax": ("tb_fp8_amax", ("qo", "up"), True, True,
                 "D = e4m3(acc * scale); amax = max|acc|"),
    # The same EVTs with fastmath<afn> on the activation (ex2/rcp/tanh
    # .approx instead of libdevice's sequences; docs/epi.md).
    "bias_gelu_afn": ("tb_bias_gelu_afn", ("up",), True, True,
                      "D = gelu_erf(acc + bias[n]), fastmath<afn>"),
    "swiglu_afn": ("tb_swiglu_afn", ("gate",), True, True,
                   "D = silu(acc) * up (up = C), fastmath<afn>"),
}
# Epilogues measured only on Llama-3 8B in the default run (variants of a
# default epilogue), to keep the full run short.
ONLY_8B_BY_DEFAULT = ("bias_gelu_tanh",)
# A variant computes what its base epilogue computes (same inputs, torch
# contenders and reference), with another kernel.
VARIANT_OF = {"bias_gelu_afn": "bias_gelu", "swiglu_afn": "swiglu"}


def base_epilogue(epi):
    """The epilogue whose inputs, contenders and reference `epi` shares."""
    return VARIANT_OF.get(epi, epi)


def parse_shape(text):
    """'MxNxK' -> (M, N, K), else None."""
    parts = text.lower().split("x")
    if len(parts) != 3:
        return None
    try:
        m, n, k = (int(p) for p in parts)
    except ValueError:
        return None
    return (m, n, k) if m > 0 and n > 0 and k > 0 else None


def selector_match(sel, model, layer, m):
    """A --shapes selector 'model[:layer[:M]]' ('*' or empty = any)."""
    parts = (sel.split(":") + ["*", "*", "*"])[:3]
    want = (model, layer, str(m))
    return all(p in ("", "*") or p.lower() == w.lower()
               for p, w in zip(parts, want))


def build_points(epilogues, ms, shapes=None, default_run=True):
    """The (epilogue, model, layer, M, N, K) points, M-major so a time
    budget cuts the largest M last. `shapes`: selectors (see
    selector_match) or explicit 'MxNxK' (model and layer 'custom')."""
    shapes = [s for s in (shapes or []) if s]
    explicit = [parse_shape(s) for s in shapes if parse_shape(s)]
    selectors = [s for s in shapes if not parse_shape(s)]
    points = []
    for m in ms:
        for model in MODELS:
            for epi in epilogues:
                if default_run and not shapes and model != "8b" and \
                        epi in ONLY_8B_BY_DEFAULT:
                    continue
                for layer in EPILOGUES[epi][1]:
                    if selectors and not any(selector_match(s, model, layer, m)
                                             for s in selectors):
                        continue
                    if explicit and not selectors:
                        continue
                    n, k = layer_shapes(model)[layer]
                    points.append((epi, model, layer, m, n, k))
    for (m, n, k) in explicit:
        for epi in epilogues:
            points.append((epi, "custom", "custom", m, n, k))
    return points


#===------------------------------------------------------------------------===#
# Statistics and reporting (no torch)
#===------------------------------------------------------------------------===#

def median(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return statistics.median(xs) if xs else float("nan")


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else \
        float("nan")


def rotated(items, r):
    """Round r's order: starts with item r mod len."""
    if not items:
        return []
    s = r % len(items)
    return list(items[s:]) + list(items[:s])


def calls_for(ms_per_call, target_ms, lo=3, hi=5000):
    """Back-to-back calls so one measurement lasts >= target_ms."""
    if not ms_per_call or ms_per_call <= 0 or math.isnan(ms_per_call):
        return hi
    return int(min(hi, max(lo, math.ceil(target_ms / ms_per_call))))


def peak_at(mhz, peak_tflops=PEAK_TFLOPS, peak_mhz=PEAK_MHZ):
    """Dense bf16 peak at an SM clock (TFLOP/s); the nominal one without a
    clock reading."""
    if not mhz or math.isnan(mhz):
        return peak_tflops
    return peak_tflops * mhz / peak_mhz


def tflops(m, n, k, ms):
    return 2.0 * m * n * k / (ms * 1e-3) / 1e12 if ms and ms > 0 else \
        float("nan")


def per_round_ratios(rounds, num, den_names):
    """rounds: list of {contender: ms}. For each round, the best (lowest)
    of den_names' times divided by num's: > 1 means num is faster."""
    out = []
    for r in rounds:
        best = [r[c] for c in den_names if c in r and r[c] and r[c] > 0]
        if num in r and r[num] and r[num] > 0 and best:
            out.append(min(best) / r[num])
    return out


def summarize_point(rounds, contenders, torch_names, graph_torch_names=()):
    """Per contender: median/min/max ms over rounds and the ratio
    best-torch / contender (median, min, max over per-round ratios), and
    which torch contender was best (by median). Graph contenders are
    compared with the torch graph contenders when there are any."""
    res = {}
    med = {c: median([r.get(c) for r in rounds]) for c in contenders}
    tn = [c for c in torch_names if not math.isnan(med.get(c, float("nan")))]
    best = min(tn, key=lambda c: med[c]) if tn else None
    for c in contenders:
        times = [r[c] for r in rounds if r.get(c)]
        ref = list(graph_torch_names) if (c.endswith("_graph") and
                                          graph_torch_names) else torch_names
        ratios = per_round_ratios(rounds, c, ref)
        res[c] = {
            "ms": med[c],
            "ms_min": min(times) if times else float("nan"),
            "ms_max": max(times) if times else float("nan"),
            "ratio": median(ratios),
            "ratio_min": min(ratios) if ratios else float("nan"),
            "ratio_max": max(ratios) if ratios else float("nan"),
            "vs": "torch graph" if (c.endswith("_graph") and
                                    graph_torch_names) else "best torch",
        }
    return res, best


CSV_FIELDS = ["epilogue", "model", "layer", "M", "N", "K", "contender",
              "role", "check", "ms", "ms_min", "ms_max", "calls",
              "host_us", "tflops", "pct_peak", "clock_mhz", "ratio",
              "ratio_min", "ratio_max", "ratio_vs", "best_torch",
              "compile_s", "epi_cost", "epi_cost_min", "epi_cost_max",
              "note"]


def fmt(x, spec=".3f"):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, str):
        return x
    return format(x, spec)


def write_csv(path, rows, fields=CSV_FIELDS):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (fmt(v, ".6g") if isinstance(v, float) else v)
                        for k, v in r.items()})


def markdown_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


def point_table(rows):
    """The per-point summary (one line per point) from the CSV rows."""
    by_point = {}
    for r in rows:
        key = (r["epilogue"], r["model"], r["layer"], r["M"], r["N"], r["K"])
        by_point.setdefault(key, {})[r["contender"]] = r
    header = ["epilogue", "model", "layer", "M x N x K", "ours ms",
              "ours graph ms", "best torch", "torch ms",
              "speedup med [min,max]", "graph speedup", "torch.mm ms",
              "host us ours / torch", "ours TFLOP/s (% peak)", "MHz",
              "ours / ours plain"]
    lines = []
    for key, cs in by_point.items():
        epi, model, layer, m, n, k = key
        o = cs.get("ours")
        if o is None:
            continue
        g = cs.get("ours_graph", {})
        best = o.get("best_torch") or ""
        b = cs.get(best, {})
        mm = cs.get("mm", cs.get("eager:torch.mm", {}))
        if o.get("check") == "FAIL":
            lines.append([epi, model, layer, "%sx%sx%s" % (m, n, k), "FAIL",
                          "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"])
            continue
        lines.append([
            epi, model, layer, "%sx%sx%s" % (m, n, k),
            fmt(o.get("ms")), fmt(g.get("ms")), best, fmt(b.get("ms")),
            "%s [%s,%s]" % (fmt(o.get("ratio"), ".2f"),
                            fmt(o.get("ratio_min"), ".2f"),
                            fmt(o.get("ratio_max"), ".2f")),
            fmt(g.get("ratio"), ".2f"), fmt(mm.get("ms")),
            "%s / %s" % (fmt(o.get("host_us"), ".1f"),
                         fmt(b.get("host_us"), ".1f")),
            "%s (%s%%)" % (fmt(o.get("tflops"), ".0f"),
                           fmt(o.get("pct_peak"), ".0f")),
            fmt(o.get("clock_mhz"), ".0f"),
            "%s [%s,%s]" % (fmt(o.get("epi_cost")),
                            fmt(o.get("epi_cost_min")),
                            fmt(o.get("epi_cost_max")))
            if o.get("epi_cost") else "-"])
    return markdown_table(header, lines)


def summary_table(rows):
    """Geomean and worst speedup (best torch / ours) per epilogue, and of
    the graph replays."""
    per = {}
    for r in rows:
        if r["contender"] in ("ours", "ours_graph") and r.get("check") != "FAIL":
            per.setdefault(r["epilogue"], {}).setdefault(
                r["contender"], []).append(r.get("ratio"))
    lines = []
    for epi, d in per.items():
        o = [x for x in d.get("ours", []) if x and not math.isnan(x)]
        g = [x for x in d.get("ours_graph", []) if x and not math.isnan(x)]
        lines.append([epi, len(o), fmt(geomean(o), ".2f"),
                      fmt(min(o) if o else None, ".2f"),
                      fmt(geomean(g), ".2f")])
    return markdown_table(["epilogue", "points", "geomean speedup",
                           "worst", "graph geomean (vs torch graph)"], lines)


def host_table(rows):
    header = ["epilogue", "shape", "contender", "host us/call", "GPU us/call"]
    return markdown_table(header, [
        [r["epilogue"], r["shape"], r["contender"], fmt(r["host_us"], ".1f"),
         fmt(r["gpu_us"], ".1f")] for r in rows])


#===------------------------------------------------------------------------===#
# NVML through ctypes (no pynvml)
#===------------------------------------------------------------------------===#

def cuda_graph(t, fn, n=10, stream_arg=False):
    """A CUDA graph of n calls of fn, warmed up on a side stream first;
    with stream_arg, fn takes the capture stream (stream=...) explicitly."""
    s = t.cuda.Stream()
    s.wait_stream(t.cuda.current_stream())
    with t.cuda.stream(s):
        for _ in range(3):
            fn(stream=s) if stream_arg else fn()
    t.cuda.current_stream().wait_stream(s)
    t.cuda.synchronize()
    g = t.cuda.CUDAGraph()
    with t.cuda.graph(g, stream=s):
        cur = t.cuda.current_stream()
        for _ in range(n):
            fn(stream=cur) if stream_arg else fn()
    t.cuda.synchronize()
    return g


def timed_calls(t, nvml, fn, calls):
    """`calls` back-to-back calls of fn: (ms per call by CUDA events, host
    us per call, SM MHz sampled by `nvml` while the GPU still runs them).
    `t` is torch."""
    start = t.cuda.Event(enable_timing=True)
    end = t.cuda.Event(enable_timing=True)
    t.cuda.synchronize()
    start.record()
    h0 = time.perf_counter()
    for _ in range(calls):
        fn()
    h1 = time.perf_counter()
    end.record()
    mhz = nvml.sm_mhz()
    end.synchronize()
    return start.elapsed_time(end) / calls, (h1 - h0) / calls * 1e6, mhz


class Nvml:
    """SM clock of one GPU; every query answers None when NVML is
    missing."""
    NVML_CLOCK_SM = 1

    def __init__(self, index=0, pci_bus_id=None):
        self.lib = None
        self.handle = ctypes.c_void_p()
        self.why = ""
        try:
            lib = ctypes.CDLL("libnvidia-ml.so.1")
            if lib.nvmlInit_v2() != 0:
                raise OSError("nvmlInit_v2 failed")
            rc = -1
            if pci_bus_id:
                rc = lib.nvmlDeviceGetHandleByPciBusId_v2(
                    pci_bus_id.encode(), ctypes.byref(self.handle))
            if rc != 0:
                rc = lib.nvmlDeviceGetHandleByIndex_v2(
                    ctypes.c_uint(index), ctypes.byref(self.handle))
            if rc != 0:
                raise OSError("nvmlDeviceGetHandle* returned %d" % rc)
            self.lib = lib
        except (OSError, AttributeError) as e:
            self.why = str(e)

    def _clock(self, fn):
        if self.lib is None:
            return None
        v = ctypes.c_uint()
        if getattr(self.lib, fn)(self.handle, ctypes.c_int(self.NVML_CLOCK_SM),
                                 ctypes.byref(v)) != 0:
            return None
        return float(v.value)

    def sm_mhz(self):
        return self._clock("nvmlDeviceGetClockInfo")

    def max_sm_mhz(self):
        return self._clock("nvmlDeviceGetMaxClockInfo")

    NVML_CLOCK_MEM = 2

    def hbm_bytes_per_s(self):
        """The memory's peak: 2 x its maximum clock x its bus width (an
        H100 SXM: 3.35 TB/s; the lent H200 read 4.81); None without
        NVML."""
        if self.lib is None:
            return None
        mhz, bits = ctypes.c_uint(), ctypes.c_uint()
        try:
            if self.lib.nvmlDeviceGetMaxClockInfo(
                    self.handle, ctypes.c_int(self.NVML_CLOCK_MEM),
                    ctypes.byref(mhz)) != 0:
                return None
            if self.lib.nvmlDeviceGetMemoryBusWidth(
                    self.handle, ctypes.byref(bits)) != 0:
                return None
        except AttributeError:  # an NVML without the bus width query
            return None
        return 2.0 * mhz.value * 1e6 * bits.value / 8


#===------------------------------------------------------------------------===#
# Self-test (no torch, no GPU)
#===------------------------------------------------------------------------===#

def self_test():
    assert rotated(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert rotated(["a", "b", "c"], 1) == ["b", "c", "a"]
    assert rotated(["a", "b", "c"], 5) == ["c", "a", "b"]
    assert [rotated("abcd", r)[0] for r in range(4)] == list("abcd")
    assert median([3.0, 1.0, 2.0, float("nan")]) == 2.0
    assert abs(geomean([1.0, 4.0]) - 2.0) < 1e-12
    assert calls_for(0.01, 20.0) == 2000 and calls_for(50.0, 20.0) == 3
    assert calls_for(0.0, 20.0) == 5000
    assert abs(peak_at(1830.0) - 989.0) < 1e-9
    assert abs(peak_at(1755.0) - 989.0 * 1755 / 1830) < 1e-9
    assert peak_at(None) == PEAK_TFLOPS
    assert abs(tflops(1000, 1000, 1000, 1.0) - 2.0) < 1e-12
    rounds = [{"ours": 1.0, "e": 2.0, "c": 1.5, "ours_graph": 0.9,
               "eager_graph": 1.8},
              {"ours": 2.0, "e": 2.0, "c": 3.0, "ours_graph": 1.0,
               "eager_graph": 2.0},
              {"ours": 1.0, "e": 1.1, "c": 0.9, "ours_graph": 1.0,
               "eager_graph": 0.5}]
    assert per_round_ratios(rounds, "ours", ["e", "c"]) == [1.5, 1.0, 0.9]
    res, best = summarize_point(rounds, ["ours", "e", "c", "ours_graph",
                                         "eager_graph"], ["e", "c"],
                                ["eager_graph"])
    assert best == "c", best   # medians: e 2.0, c 1.5
    assert res["ours"]["ratio"] == 1.0 and res["ours"]["ratio_min"] == 0.9
    assert res["ours"]["ratio_max"] == 1.5 and res["ours"]["ms"] == 1.0
    assert res["ours_graph"]["vs"] == "torch graph"
    assert res["ours_graph"]["ratio"] == 2.0   # 1.8/0.9, 2/1, 0.5/1
    # Points.
    pts = build_points(["plain", "swiglu"], M_QUICK)
    assert ("swiglu", "8b", "gate", 512, 14336, 4096) in pts
    assert ("plain", "70b", "down", 8192, 8192, 28672) in pts
    assert len(pts) == 2 * 2 * (3 + 1)
    assert [p[3] for p in pts] == sorted(p[3] for p in pts)
    assert len(build_points(["bias_gelu_tanh"], M_FULL)) == 4
    pts = build_points(["plain"], M_FULL, ["8b:up", "70b:*:16384"])
    assert sorted(pts) == sorted(
        [("plain", "8b", "up", m, 14336, 4096) for m in M_FULL] +
        [("plain", "70b", l, 16384) + layer_shapes("70b")[l]
         for l in ("qo", "up", "down")]), pts
    assert build_points(["bias"], M_FULL, ["1024x2048x512"]) == [
        ("bias", "custom", "custom", 1024, 2048, 512)]
    assert parse_shape("8b") is None and parse_shape("1x2x3") == (1, 2, 3)
    for epi, (kname, layers, _, _, _) in EPILOGUES.items():
        assert kname.startswith("tb_") and layers
        for l in layers:
            assert l in layer_shapes("8b")
    # Reporting.
    rows = []
    for c, role in (("ours", "ours"), ("ours_graph", "ours"),
                    ("c", "torch"), ("mm", "reference")):
        r = dict(epilogue="swiglu", model="8b", layer="gate", M=512,
                 N=14336, K=4096, contender=c, role=role, check="PASS",
                 calls=10, host_us=12.5, tflops=500.0, pct_peak=55.0,
                 clock_mhz=1755.0, ratio_vs=res[c]["vs"] if c in res else "",
                 best_torch=best, compile_s=float("nan"), note="")
        r.update(res.get(c, {"ms": 1.0, "ms_min": 1.0, "ms_max": 1.0,
                             "ratio": 1.0, "ratio_min": 1.0,
                             "ratio_max": 1.0}))
        rows.append(r)
    t = point_table(rows)
    assert "1.00 [0.90,1.50]" in t and "swiglu" in t, t
    assert "| swiglu | 1 | 1.00 | 1.00 |" in summary_table(rows)
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "r.csv")
        write_csv(p, rows)
        back = list(csv.DictReader(open(p)))
        assert len(back) == 4 and back[0]["contender"] == "ours"
        assert back[0]["ms"] == "1" and back[0]["compile_s"] == "-"
    assert "| plain | 256x1024x512 | ours | 9.5 | 3.0 |" in host_table(
        [dict(epilogue="plain", shape="256x1024x512", contender="ours",
              host_us=9.5, gpu_us=3.0)])
    n = Nvml()   # no NVML here is fine: None, not an exception
    assert n.sm_mhz() is None or n.sm_mhz() > 0
    print("torch_bench self-test: all passed")


#===------------------------------------------------------------------------===#
# The torch side
#===------------------------------------------------------------------------===#

BF16_U = 2.0 ** -8       # unit roundoff of bf16
E4M3_MAX = 448.0


class Bench:
    def __init__(self, args):
        import torch
        import torch._dynamo
        import torch.nn.functional as F
        self.torch, self.F = torch, F
        self.args = args
        torch.backends.cuda.matmul.allow_tf32 = False   # the f32 reference
        torch.backends.cudnn.allow_tf32 = False
        dyn = torch._dynamo.config
        for name in ("cache_size_limit", "recompile_limit",
                     "accumulated_cache_size_limit",
                     "accumulated_recompile_limit"):
            if hasattr(dyn, name):
                setattr(dyn, name, 4096)
        self.dev = torch.device("cuda")
        props = torch.cuda.get_device_properties(0)
        bus = None
        if hasattr(props, "pci_bus_id"):
            bus = "%08x:%02x:%02x.0" % (getattr(props, "pci_domain_id", 0),
                                        props.pci_bus_id,
                                        getattr(props, "pci_device_id", 0))
        self.nvml = Nvml(torch.cuda.current_device(), bus)
        self.props = props
        self.pass_stream = args.pass_stream or \
            os.environ.get("WSGEMM_BENCH_PASS_STREAM", "") not in ("", "0")
        import ws_gemm
        self.ws_gemm = ws_gemm
        self.kernels = {}

    # -- kernels ------------------------------------------------------------
    def kernel(self, epi):
        kname = EPILOGUES[epi][0]
        if kname not in self.kernels:
            # The default family (ws-gemm-compile --family=default) where it
            # was compiled, else the single kernel.
            family = os.path.join(self.args.kernels, kname, "family.json")
            path = os.path.join(self.args.kernels, kname + ".json")
            if os.path.exists(family):
                self.kernels[kname] = self.ws_gemm.KernelFamily(family)
            elif os.path.exists(path):
                self.kernels[kname] = self.ws_gemm.Kernel.load(path)
            else:
                self.kernels[kname] = None
        return self.kernels[kname]

    def stream_kw(self):
        if self.pass_stream:
            return {"stream": self.torch.cuda.current_stream()}
        return {}

    # -- inputs, contenders, reference ----------------------------------------
    def inputs(self, epi, m, n, k, seed=0):
        """Random inputs of a point (randn, never zeros): activations ~
        N(0, 1), weights ~ N(0, 1/K) (nn.Linear-like scale, so outputs are
        O(1)), bias ~ 0.1 N(0, 1), residual and up ~ N(0, 1)."""
        epi = base_epilogue(epi)
        t = self.torch
        g = t.Generator(device="cuda")
        g.manual_seed(seed)
        bf = t.bfloat16

        def randn(*s, scale=1.0):
            return (t.randn(*s, device="cuda", generator=g) * scale).to(bf)

        x = randn(m, k)
        w = randn(n, k, scale=1.0 / math.sqrt(k))
        inp = {"x": x, "w": w}
        if "bias" in epi:
            inp["bias"] = randn(n, scale=0.1)
        if "residual" in epi:
            inp["res"] = randn(m, n)
        if epi.startswith("swiglu"):
            inp["up"] = randn(m, n)
        if epi == "fp8_amax":
            # Transformer Engine's scale: fp8 max over the amax of history;
            # here from this input (saturation is then exercised a little).
            inp["scale"] = t.full((1,), E4M3_MAX / 4.5, device="cuda",
                                  dtype=t.float32)
        return inp

    def ours(self, epi, inp, m, n):
        """(callable, outputs) for our kernel; reductions are reset to
        their identity (0) inside the call, as a user must."""
        t = self.torch
        kern = self.kernel(epi)
        epi = base_epilogue(epi)
        x, w = inp["x"], inp["w"]
        out = {"d": t.empty(m, n, device="cuda",
                            dtype=t.float8_e4m3fn if epi == "fp8_amax"
                            else t.bfloat16)}
        c, named, zero = None, {}, []
        if "bias" in epi:
            named["bias"] = inp["bias"]
        if epi in ("bias_residual", "residual_rmsstats"):
            c = inp["res"]
        if epi == "bias_residual_aux":
            named["res"] = inp["res"]
        if epi == "swiglu":
            c = inp["up"]
        if epi == "swiglu_aux":
            named["up"] = inp["up"]
        if epi == "residual_rmsstats":
            out["rowsumsq"] = t.zeros(m, device="cuda", dtype=t.float32)
            named["rowsumsq"] = out["rowsumsq"]
            zero.append(out["rowsumsq"])
        if epi == "fp8_amax":
            out["amax"] = t.zeros(1, device="cuda", dtype=t.float32)
            named["scale"] = inp["scale"]
            named["amax"] = out["amax"]
            zero.append(out["amax"])
        d = out["d"]
        launch = kern.launch

        def call(stream=None):
            for z in zero:
                z.zero_()
            if stream is not None:
                launch(x, w, d, c, stream=stream, **named)
            elif self.pass_stream:
                launch(x, w, d, c, stream=self.torch.cuda.current_stream(),
                       **named)
            else:
                launch(x, w, d, c, **named)

        def call_launch_only():
            launch(x, w, d, c, **named)

        return call, out, (call_launch_only if zero else None)

    def torch_fns(self, epi):
        """(eager formulations {name: fn}, the function torch.compile
        compiles, its argument names). Every fn takes the point's tensors
        by name order and returns D or (D, reduction)."""
        epi = base_epilogue(epi)
        t, F = self.torch, self.F
        if epi == "plain":
            return ({"torch.mm": lambda x, w: t.mm(x, w.t())}, None,
                    ("x", "w"))
        if epi == "bias":
            return ({"addmm": lambda x, w, bias: t.addmm(bias, x, w.t())},
                    lambda x, w, bias: F.linear(x, w, bias),
                    ("x", "w", "bias"))
        if epi.startswith("bias_residual"):
            return ({"addmm(bias)+res":
                     lambda x, w, bias, res: t.addmm(bias, x, w.t()).add_(res),
                     "addmm(res)+bias":
                     lambda x, w, bias, res: t.addmm(res, x, w.t()).add_(bias)},
                    lambda x, w, bias, res: F.linear(x, w, bias) + res,
                    ("x", "w", "bias", "res"))
        if epi == "bias_gelu":
            return ({"gelu(addmm)":
                     lambda x, w, bias: F.gelu(t.addmm(bias, x, w.t()))},
                    lambda x, w, bias: F.gelu(F.linear(x, w, bias)),
                    ("x", "w", "bias"))
        if epi == "bias_gelu_tanh":
            return ({"_addmm_activation":
                     lambda x, w, bias: t._addmm_activation(
                         bias, x, w.t(), use_gelu=True),
                     "gelu_tanh(addmm)":
                     lambda x, w, bias: F.gelu(t.addmm(bias, x, w.t()),
                                               approximate="tanh")},
                    lambda x, w, bias: F.gelu(F.linear(x, w, bias),
                                              approximate="tanh"),
                    ("x", "w", "bias"))
        if epi.startswith("swiglu"):
            def inplace(x, w, up):
                g = t.mm(x, w.t())
                F.silu(g, inplace=True)
                return g.mul_(up)
            return ({"silu(mm)*up": lambda x, w, up: F.silu(t.mm(x, w.t())) * up,
                     "inplace": inplace},
                    lambda x, w, up: F.silu(F.linear(x, w)) * up,
                    ("x", "w", "up"))
        if epi == "residual_rmsstats":
            def mm_add(x, w, res):
                h = t.mm(x, w.t()).add_(res)
                return h, h.float().pow(2).sum(-1)

            def addmm(x, w, res):
                h = t.addmm(res, x, w.t())
                return h, h.float().pow(2).sum(-1)

            def natural(x, w, res):
                h = F.linear(x, w) + res
                return h, h.float().pow(2).sum(-1)
            return ({"mm+add": mm_add, "addmm(res)": addmm}, natural,
                    ("x", "w", "res"))
        if epi == "fp8_amax":
            def quant(x, w, scale):
                y = t.mm(x, w.t())
                amax = y.abs().amax().float()
                q = (y.float() * scale).clamp_(-E4M3_MAX, E4M3_MAX).to(
                    t.float8_e4m3fn)
                return q, amax

            def natural(x, w, scale):
                y = F.linear(x, w)
                amax = y.abs().amax().float()
                q = (y.float() * scale).clamp(-E4M3_MAX, E4M3_MAX).to(
                    t.float8_e4m3fn)
                return q, amax
            return {"mm+quant": quant}, natural, ("x", "w", "scale")
        raise KeyError(epi)

    def reference(self, epi, inp):
        """The f32 reference of a point, computed once, in row chunks:
        {"chunks": [(r0, r1, z)], "rowsumsq": f64 M | None, "amax": float}
        where z is D's value (for fp8, the scaled and clamped value)."""
        epi = base_epilogue(epi)
        t, F = self.torch, self.F
        x, w = inp["x"], inp["w"]
        m, n = x.shape[0], w.shape[0]
        wf = w.float()
        rows = max(1, min(m, (1 << 27) // max(n, 1)))
        ref = {"chunks": [], "rowsumsq": None, "amax": 0.0}
        sums = []
        for r0 in range(0, m, rows):
            r1 = min(m, r0 + rows)
            acc = x[r0:r1].float() @ wf.t()
            z = acc
            if "bias" in epi:
                z = z + inp["bias"].float()
            if epi.startswith("bias_residual") or epi == "residual_rmsstats":
                z = z + inp["res"][r0:r1].float()
            if epi == "bias_gelu":
                z = F.gelu(z)
            if epi == "bias_gelu_tanh":
                z = F.gelu(z, approximate="tanh")
            if epi.startswith("swiglu"):
                z = F.silu(z) * inp["up"][r0:r1].float()
            if epi == "residual_rmsstats":
                sums.append(z.double().pow(2).sum(-1))
            if epi == "fp8_amax":
                ref["amax"] = max(ref["amax"], acc.abs().max().item())
                z = (z * inp["scale"]).clamp(-E4M3_MAX, E4M3_MAX)
            ref["chunks"].append((r0, r1, z))
            del acc
        if sums:
            ref["rowsumsq"] = t.cat(sums)
        return ref

    def check(self, epi, ref, outs, label):
        """Compares outputs (dict d[, rowsumsq | amax]) with the reference;
        returns (ok, "PASS|FAIL label: errors")."""
        epi = base_epilogue(epi)
        t = self.torch
        d = outs["d"]
        fp8 = epi == "fp8_amax"
        bad, nan, max_err, max_ref = 0, 0, 0.0, 0.0
        sum_sq, cnt = 0.0, 0
        for r0, r1, z in ref["chunks"]:
            got = d[r0:r1].float()
            err = (got - z).abs()
            if fp8:
                # e4m3: 3 mantissa bits; one ulp (a tie decided the other
                # way after a different summation order) is <= |z| / 8.
                tol = 0.125 * z.abs() + 2.0 ** -8
            else:
                rms = z.pow(2).mean().sqrt().item()
                tol = 4 * BF16_U * z.abs() + BF16_U * rms + 1e-6
            bad += int((err > tol).sum().item())
            nan += int(t.isnan(got).sum().item())
            max_err = max(max_err, err.max().item())
            max_ref = max(max_ref, z.abs().max().item())
            sum_sq += z.double().pow(2).sum().item()
            cnt += z.numel()
            del got, err, tol
        text = "max |err| %.3g (max |ref| %.3g, rms %.3g)" % (
            max_err, max_ref, math.sqrt(sum_sq / max(cnt, 1)))
        ok = bad == 0 and nan == 0
        if bad or nan:
            text += ", %d out of tolerance, %d NaN" % (bad, nan)
        if "rowsumsq" in outs:
            want = ref["rowsumsq"]
            got = outs["rowsumsq"].double()
            e = (got - want).abs()
            rel = (e / want.clamp_min(1e-30)).max().item()
            rs_bad = int((e > 1e-2 * want + 1e-6).sum().item()) + \
                int(t.isnan(got).sum().item())
            text += "; rowsumsq max rel err %.3g" % rel
            if rs_bad:
                ok = False
                text += " (%d rows out of tolerance)" % rs_bad
        if "amax" in outs:
            got = outs["amax"].float().reshape(-1)[0].item()
            rel = abs(got - ref["amax"]) / max(ref["amax"], 1e-30)
            text += "; amax %.6g vs %.6g (rel %.2g)" % (got, ref["amax"], rel)
            if not rel <= 1e-2:
                ok = False
        return ok, "%s %s: %s" % ("PASS" if ok else "FAIL", label, text)

    @staticmethod
    def as_outs(epi, res):
        if isinstance(res, tuple):
            d, r = res
            key = "rowsumsq" if epi == "residual_rmsstats" else "amax"
            return {"d": d, key: r}
        return {"d": res}

    # -- timing ---------------------------------------------------------------
    def measure(self, fn, calls):
        return timed_calls(self.torch, self.nvml, fn, calls)

    def calibrate(self, fn, warmup, graph=False):
        """Calls per measurement (a graph replay is 10 calls: fewer
        warm-ups and probes, and one replay may be enough)."""
        for _ in range(2 if graph else warmup):
            fn()
        ms, _, _ = self.measure(fn, 1 if graph else 3)
        return calls_for(ms, self.args.target_ms, lo=1 if graph else 2)

    def graph_of(self, fn, n=10, ours=False):
        return cuda_graph(self.torch, fn, n, ours)

    # -- one point ------------------------------------------------------------
    def run_point(self, point, log):
        t = self.torch
        epi, model, layer, m, n, k = point
        a = self.args
        base = dict(epilogue=epi, model=model, layer=layer, M=m, N=n, K=k)
        label = "%s %s %s %dx%dx%d" % (epi, model, layer, m, n, k)
        kern = self.kernel(epi)
        if kern is None:
            log("SKIP %s: no %s.json in %s" % (label, EPILOGUES[epi][0],
                                              a.kernels))
            return []
        inp = self.inputs(epi, m, n, k,
                          seed=zlib.crc32(repr(point).encode()) & 0xffffff)
        eager, natural, argnames = self.torch_fns(epi)
        targs = [inp[name] for name in argnames]

        # Correctness first: ours, then each torch formulation (info).
        call, outs, launch_only = self.ours(epi, inp, m, n)
        ref = self.reference(epi, inp)
        try:
            call()
            t.cuda.synchronize()
            ok, text = self.check(epi, ref, outs, "ours " + label)
        except Exception as e:  # noqa: BLE001 - report and go on
            ok, text = False, "FAIL ours %s: %s: %s" % (label,
                                                        type(e).__name__, e)
        log(text)
        if not ok:
            return [dict(base, contender="ours", role="ours", check="FAIL",
                         note=text[:200])]
        checks = {"ours": "PASS"}
        for name, fn in eager.items():
            try:
                r = fn(*targs)
                t.cuda.synchronize()
                eok, etext = self.check(
                    epi, ref, self.as_outs(epi, r), "eager:%s %s" % (name, label))
            except Exception as e:  # noqa: BLE001
                eok, etext = False, "FAIL eager:%s %s: %s" % (name, label, e)
            log(("  " if eok else "  WARN ") + etext)
            checks["eager:" + name] = "PASS" if eok else "WARN"

        # Contenders: name -> (callable, role).
        cont = {"ours": (call, "ours")}
        notes, compile_s = {}, {}
        try:
            g_ours = self.graph_of(call, 10, ours=True)
            cont["ours_graph"] = (g_ours.replay, "ours")
        except Exception as e:  # noqa: BLE001
            log("  ours_graph %s: capture failed: %s" % (label, e))
        for name, fn in eager.items():
            cont["eager:" + name] = ((lambda fn=fn: fn(*targs)), "torch")
        first = next(iter(eager.values()))
        if not a.no_torch_graph:
            try:
                g_eager = self.graph_of(lambda: first(*targs), 10)
                cont["eager_graph"] = (g_eager.replay, "torch_graph")
            except Exception as e:  # noqa: BLE001
                log("  eager_graph %s: capture failed: %s" % (label, e))
        modes = []
        if natural is not None and EPILOGUES[epi][3] and not a.no_compile:
            modes.append(("compile", "default"))
        if a.max_autotune and any(selector_match(s, model, layer, m)
                                  for s in a.max_autotune_shapes.split(",")):
            modes.append(("compile_maxat", "max-autotune-no-cudagraphs"))
        if modes:
            t._dynamo.reset()   # this point's compiles only (short guards)
        for cname, mode in modes:
            fn = natural or first
            try:
                cfn = t.compile(fn, mode=mode, dynamic=False)
                t0 = time.perf_counter()
                r = cfn(*targs)
                t.cuda.synchronize()
                compile_s[cname] = time.perf_counter() - t0
                cok, ctext = self.check(
                    epi, ref, self.as_outs(epi, r), "%s %s" % (cname, label))
                log(("  " if cok else "  WARN ") + ctext +
                    " (compile %.1f s, excluded)" % compile_s[cname])
                checks[cname] = "PASS" if cok else "WARN"
                cont[cname] = ((lambda cfn=cfn: cfn(*targs)), "torch")
            except Exception as e:  # noqa: BLE001
                log("  %s %s: failed: %s: %s" % (cname, label,
                                                 type(e).__name__, e))
        if epi != "plain":
            cont["mm"] = ((lambda: t.mm(inp["x"], inp["w"].t())), "reference")
            # Our plain kernel at the same shape, in the same rounds: the
            # fused epilogue's cost is the per-round ratio ours / this.
            plain = self.kernel("plain")
            if plain is not None:
                d_plain = t.empty(m, n, device="cuda", dtype=t.bfloat16)
                cont["ours_plain"] = ((lambda: plain.launch(
                    inp["x"], inp["w"], d_plain)), "reference")

        del ref
        names = list(cont)
        per_call = {c: (10 if c.endswith("_graph") else 1) for c in names}
        calls = {}
        for c in names:
            calls[c] = self.calibrate(cont[c][0], a.warmup,
                                      graph=c.endswith("_graph"))
        rounds, host, clocks = [], {c: [] for c in names}, {c: [] for c in names}
        for r in range(a.rounds):
            this = {}
            for c in rotated(names, r):
                ms, hus, mhz = self.measure(cont[c][0], calls[c])
                this[c] = ms / per_call[c]
                host[c].append(hus / per_call[c])
                if mhz:
                    clocks[c].append(mhz)
            rounds.append(this)
        torch_names = [c for c in names if cont[c][1] == "torch"]
        if epi == "plain":
            torch_names = [c for c in names if c.startswith("eager:")]
        graph_torch = [c for c in names if cont[c][1] == "torch_graph"]
        summ, best = summarize_point(rounds, names, torch_names, graph_torch)
        rows = []
        for c in names:
            s = summ[c]
            mhz = median(clocks[c]) if clocks[c] else float("nan")
            tf = tflops(m, n, k, s["ms"])
            rows.append(dict(
                base, contender=c, role=cont[c][1],
                check=checks.get(c, ""), calls=calls[c] * per_call[c],
                host_us=median(host[c]), tflops=tf,
                pct_peak=100.0 * tf / peak_at(mhz, a.peak_tflops, a.peak_mhz),
                clock_mhz=mhz, ratio_vs=s["vs"], best_torch=best or "",
                compile_s=compile_s.get(c, float("nan")),
                note=notes.get(c, ""),
                **{key: s[key] for key in ("ms", "ms_min", "ms_max", "ratio",
                                           "ratio_min", "ratio_max")}))
        if "ours_plain" in names:
            cost = [r["ours"] / r["ours_plain"] for r in rounds
                    if r.get("ours") and r.get("ours_plain")]
            for row in rows:
                if row["contender"] == "ours" and cost:
                    row.update(epi_cost=median(cost), epi_cost_min=min(cost),
                               epi_cost_max=max(cost))
            if cost:
                log("  %s: epilogue cost ours / ours plain %.3f [%.3f, %.3f]"
                    % (label, median(cost), min(cost), max(cost)))
        o = summ["ours"]
        log("  %s: ours %.4f ms, best torch %s %.4f ms, speedup %.2f [%.2f,"
            "%.2f]%s" % (label, o["ms"], best, summ[best]["ms"] if best else
                         float("nan"), o["ratio"], o["ratio_min"],
                         o["ratio_max"],
                         ", graph %.4f ms" % summ["ours_graph"]["ms"]
                         if "ours_graph" in summ else ""))
        return rows

    # -- host cost at a small shape -------------------------------------------
    def host_point(self, epi, shape, calls, rounds):
        t = self.torch
        m, n, k = shape
        kern = self.kernel(epi)
        if kern is None:
            return []
        inp = self.inputs(epi, m, n, k)
        eager, natural, argnames = self.torch_fns(epi)
        targs = [inp[name] for name in argnames]
        call, _, launch_only = self.ours(epi, inp, m, n)
        cont = {"ours": call}
        if launch_only:
            cont["ours (launch only)"] = launch_only
        for name, fn in eager.items():
            cont["eager:" + name] = (lambda fn=fn: fn(*targs))
        if natural is not None and EPILOGUES[epi][3] and \
                not self.args.no_compile:
            t._dynamo.reset()
            cfn = t.compile(natural, dynamic=False)
            cfn(*targs)
            cont["compile"] = (lambda: cfn(*targs))
        cont["torch.mm"] = (lambda: t.mm(inp["x"], inp["w"].t()))
        for fn in cont.values():
            for _ in range(20):
                fn()
        host, gpu = {c: [] for c in cont}, {c: [] for c in cont}
        for r in range(rounds):
            for c in rotated(list(cont), r):
                ms, hus, _ = self.measure(cont[c], calls)
                host[c].append(hus)
                gpu[c].append(ms * 1e3)
        return [dict(epilogue=epi, shape="%dx%dx%d" % shape, contender=c,
                     host_us=median(host[c]), gpu_us=median(gpu[c]))
                for c in cont]


#===------------------------------------------------------------------------===#
# Main
#===------------------------------------------------------------------------===#

def plot(rows, path, log):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("no matplotlib: no plot (results.csv has the numbers)")
        return
    ours = [r for r in rows if r["contender"] == "ours" and
            r.get("check") != "FAIL" and not math.isnan(r.get("ratio",
                                                               float("nan")))]
    graph = {(r["epilogue"], r["model"], r["layer"], r["M"]): r for r in rows
             if r["contender"] == "ours_graph"}
    if not ours:
        return
    labels = ["%s %s %s M=%d" % (r["epilogue"], r["model"], r["layer"], r["M"])
              for r in ours]
    y = [r["ratio"] for r in ours]
    err = [[r["ratio"] - r["ratio_min"] for r in ours],
           [r["ratio_max"] - r["ratio"] for r in ours]]
    fig, ax = plt.subplots(figsize=(max(8, 0.28 * len(ours)), 6))
    xs = list(range(len(ours)))
    ax.bar([x - 0.2 for x in xs], y, 0.4, yerr=err, capsize=2,
           label="ours (launch from Python) vs best torch")
    gy = [graph.get((r["epilogue"], r["model"], r["layer"], r["M"]),
                    {}).get("ratio", float("nan")) for r in ours]
    ax.bar([x + 0.2 for x in xs], gy, 0.4,
           label="ours graph replay vs torch eager graph replay")
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=90, fontsize=7)
    ax.set_ylabel("speedup (torch time / ours), > 1: ours faster")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    log("plot: %s" % path)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--kernels", default=os.environ.get(
        "WSGEMM_BENCH_KERNEL_DIR", ""),
        help="directory of the compiled python/bench kernels (tb_*.json)")
    p.add_argument("--out", default=os.environ.get("OUT", "bench-out"))
    p.add_argument("--epilogues", default="",
                   help="comma list (default: %s; also: %s)" % (
                       ",".join(e for e in EPILOGUES if EPILOGUES[e][2]),
                       ",".join(e for e in EPILOGUES if not EPILOGUES[e][2])))
    p.add_argument("--shapes", default="",
                   help="comma list of selectors model[:layer[:M]] (models "
                        "8b, 70b; layers qo, gate, up, down; * = any) or "
                        "explicit MxNxK")
    p.add_argument("--m", default="", help="comma list of M (tokens)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--quick", action="store_true",
                   help="M in {512, 8192}, 3 rounds, no host table compile")
    p.add_argument("--target-ms", type=float, default=20.0,
                   help="length of one timed measurement")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--budget-s", type=float, default=450.0,
                   help="stop starting new points after this many seconds "
                        "(0: no limit); skipped points are listed")
    p.add_argument("--no-compile", action="store_true")
    p.add_argument("--no-torch-graph", action="store_true",
                   help="no CUDA-graph replay of the eager formulation")
    p.add_argument("--max-autotune", action="store_true",
                   help="add torch.compile max-autotune-no-cudagraphs on "
                        "--max-autotune-shapes (tens of seconds per point)")
    p.add_argument("--max-autotune-shapes", default="8b:*:8192")
    p.add_argument("--host-shape", default="256x1024x512",
                   help="small MxNxK for the host-cost table ('' to skip)")
    p.add_argument("--host-calls", type=int, default=1000)
    p.add_argument("--pass-stream", action="store_true",
                   help="pass stream=torch.cuda.current_stream() to every "
                        "launch (also WSGEMM_BENCH_PASS_STREAM=1)")
    p.add_argument("--peak-tflops", type=float, default=PEAK_TFLOPS)
    p.add_argument("--peak-mhz", type=float, default=PEAK_MHZ)
    p.add_argument("--self-test", action="store_true",
                   help="test the statistics and tables; no torch needed")
    a = p.parse_args(argv)
    if a.self_test:
        self_test()
        return 0
    if not a.kernels or not os.path.isdir(a.kernels):
        p.error("--kernels DIR (the compiled python/bench kernels) is needed")

    epis = [e.strip() for e in a.epilogues.split(",") if e.strip()] or \
        [e for e in EPILOGUES if EPILOGUES[e][2]]
    for e in epis:
        if e not in EPILOGUES:
            p.error("unknown epilogue %r (known: %s)" % (e, ", ".join(EPILOGUES)))
    if a.quick and a.rounds == 5:
        a.rounds = 3
    ms = tuple(int(x) for x in a.m.split(",") if x.strip()) or \
        (M_QUICK if a.quick else M_FULL)
    shapes = [s.strip() for s in a.shapes.split(",") if s.strip()]
    points = build_points(epis, ms, shapes)
    os.makedirs(a.out, exist_ok=True)
    logf = open(os.path.join(a.out, "log.txt"), "w")

    def log(s):
        print(s, flush=True)
        logf.write(s + "\n")
        logf.flush()

    start = time.time()
    b = Bench(a)
    t = b.torch
    log("torch %s, CUDA %s, %s (%d SMs); ws_gemm from %s" % (
        t.__version__, t.version.cuda, b.props.name,
        b.props.multi_processor_count, os.path.dirname(b.ws_gemm.__file__)))
    log("NVML: %s" % ("SM clock %s MHz (max %s)" % (b.nvml.sm_mhz(),
                                                   b.nvml.max_sm_mhz())
                      if b.nvml.lib else "unavailable (%s)" % b.nvml.why))
    log("stream: %s; %d points, %d rounds, measurements >= %.0f ms; "
        "torch.compile: %s (dynamic=False, compile time excluded)" % (
            "torch.cuda.current_stream() passed" if b.pass_stream else
            "none passed (the package's default)", len(points), a.rounds,
            a.target_ms, "off" if a.no_compile else "default" +
            (" + max-autotune-no-cudagraphs on %s" % a.max_autotune_shapes
             if a.max_autotune else "")))

    rows, skipped, failed = [], [], []
    for i, pt in enumerate(points):
        el = time.time() - start
        if a.budget_s and el > a.budget_s:
            skipped.append(pt)
            continue
        log("[%d/%d %.0fs] %s" % (i + 1, len(points), el, " ".join(map(str, pt))))
        try:
            r = b.run_point(pt, log)
        except Exception as e:  # noqa: BLE001 - one point must not end the run
            log("ERROR %s: %s: %s" % (pt, type(e).__name__, e))
            r = []
            failed.append(pt)
        if any(x.get("check") == "FAIL" for x in r):
            failed.append(pt)
        rows.extend(r)
        write_csv(os.path.join(a.out, "results.csv"), rows)
        t.cuda.empty_cache()

    host_rows = []
    hs = parse_shape(a.host_shape) if a.host_shape else None
    if hs and not (a.budget_s and time.time() - start > a.budget_s + 60):
        log("host cost per call at %dx%dx%d (%d calls x %d rounds)" % (
            hs + (a.host_calls, 3)))
        for e in epis:
            try:
                host_rows.extend(b.host_point(e, hs, a.host_calls, 3))
            except Exception as ex:  # noqa: BLE001
                log("host %s: %s: %s" % (e, type(ex).__name__, ex))
        write_csv(os.path.join(a.out, "host.csv"), host_rows,
                  ["epilogue", "shape", "contender", "host_us", "gpu_us"])

    md = ["# ws-gemm vs torch (%s, torch %s)" % (b.props.name, t.__version__),
          "", "speedup = best torch (eager formulations, torch.compile; "
          "torch.mm for plain) / ours, median over %d rounds [min, max of the "
          "per-round ratios]; graph speedup = torch eager graph replay / ours "
          "graph replay. Compile time excluded." % a.rounds, "",
          point_table(rows), "", summary_table(rows)]
    if host_rows:
        md += ["", "Host us per call at a small shape (GPU faster than the "
               "host):", "", host_table(host_rows)]
    if skipped:
        md += ["", "Skipped (time budget %.0f s): %s" % (
            a.budget_s, "; ".join(" ".join(map(str, s)) for s in skipped))]
    if failed:
        md += ["", "FAILED: %s" % "; ".join(" ".join(map(str, s))
                                            for s in failed)]
    text = "\n".join(md) + "\n"
    with open(os.path.join(a.out, "results.md"), "w") as f:
        f.write(text)
    plot(rows, os.path.join(a.out, "speedup.png"), log)
    log("total %.0f s; results in %s" % (time.time() - start, a.out))
    print()
    print(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
