"""Host microseconds per launch() from Python, per kernel kind, next to
torch.mm's: the launch path's cost alone (a small problem, so the GPU keeps
up with the host and the launch queue never blocks). Runs against whatever
ws_gemm is on PYTHONPATH, so the same script times an older package too:

    PYTHONPATH=.device/python python3 python/bench/host_cost.py \\
        --kernels .device/integration_test/kernels/torch_bench [--label new]

Prints one line per kind: "host <label> <kind>: <us> us per call (GPU <us>
us per call)". Each timed block is 400 launches after a synchronize, fewer
than the driver's queue holds, so the host never waits for the GPU: the
host figure is the launch path's own. The GPU figure (events around the
block) is never below it: the GPU idles while the host launches.
"""

import argparse
import os
import statistics

import torch

import ws_gemm
from torch_bench import timed_calls

M, N, K = 128, 256, 128


class _NoClock:
    """timed_calls' clock reader, when the clock is not wanted."""

    @staticmethod
    def sm_mhz():
        return None


def per_call_us(fn, calls=400, rounds=5):
    """(host us per call, GPU us per call), medians over rounds."""
    for _ in range(20):
        fn()
    host, gpu = [], []
    for _ in range(rounds):
        ms, host_us, _ = timed_calls(torch, _NoClock, fn, calls)
        host.append(host_us)
        gpu.append(ms * 1e3)
    return statistics.median(host), statistics.median(gpu)


def line(label, kind, times):
    host, gpu = times
    print("host %s %s: %.1f us per call (GPU %.1f us per call)" % (
        label, kind, host, gpu))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernels", required=True)
    p.add_argument("--label", default="")
    p.add_argument("--stream", action="store_true",
                   help="pass stream=torch.cuda.current_stream()")
    a = p.parse_args()
    bf = torch.bfloat16
    x = torch.randn(M, K, device="cuda", dtype=bf)
    w = torch.randn(N, K, device="cuda", dtype=bf)
    c = torch.randn(M, N, device="cuda", dtype=bf)
    bias = torch.randn(N, device="cuda", dtype=bf)
    d = torch.empty(M, N, device="cuda", dtype=bf)
    d8 = torch.empty(M, N, device="cuda", dtype=torch.float8_e4m3fn)
    rows = torch.zeros(M, device="cuda")
    amax = torch.zeros(1, device="cuda")
    scale = torch.ones(1, device="cuda")
    kw = {"stream": torch.cuda.current_stream()} if a.stream else {}
    kinds = [
        ("plain", "tb_plain", lambda k: k.launch(x, w, d, **kw)),
        ("bias (vector)", "tb_bias", lambda k: k.launch(x, w, d, bias=bias,
                                                        **kw)),
        ("bias + C", "tb_bias_residual",
         lambda k: k.launch(x, w, d, c, bias=bias, **kw)),
        ("C + row reduction", "tb_residual_rmsstats",
         lambda k: k.launch(x, w, d, c, rowsumsq=rows, **kw)),
        ("scalar pointer + amax (fp8 D)", "tb_fp8_amax",
         lambda k: k.launch(x, w, d8, scale=scale, amax=amax, **kw)),
    ]
    # A D at a new address every call (a ring larger than the launch
    # path's memory of argument sets): every launch checks its arguments.
    ring = [torch.empty(M, N, device="cuda", dtype=bf) for _ in range(1100)]
    turn = [0]

    def fresh_d(k):
        turn[0] = (turn[0] + 1) % len(ring)
        k.launch(x, w, ring[turn[0]], **kw)

    kinds.append(("plain, new D address every call", "tb_plain", fresh_d))
    line(a.label, "torch.mm", per_call_us(lambda: torch.mm(x, w.t())))
    for kind, name, fn in kinds:
        path = os.path.join(a.kernels, name + ".json")
        if not os.path.exists(path):
            print("host %s %s: no %s" % (a.label, kind, path))
            continue
        k = ws_gemm.Kernel.load(path)
        line(a.label, kind, per_call_us(lambda: fn(k)))


if __name__ == "__main__":
    main()
