"""The launch path from PyTorch (python-torch-launch.test), on the GPU:

- launches without stream= go to torch's current stream: inside a
  torch.cuda.stream() block, and inside torch.cuda.graph() capture;
- every kernel kind (plain with a bias, C with a row reduction, split-K and
  stream-K with their workspace, a 2x1 cluster) captured from cold into a
  CUDA graph and replayed with new inputs copied into the captured ones,
  each replay checked against torch;
- a chain of kernels each reading the previous one's D, eager and in a
  graph (programmatic dependent launch: only the kernel orders them);
- the kernel as a torch.library custom op (ws_gemm.torch_op) under
  torch.compile(fullgraph=True), single and tuple outputs;
- host microseconds per launch() per kind, next to torch.mm's.
Prints PASS/FAIL lines and "python-torch-launch: all passed" at the end.
"""

import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F

import ws_gemm

failures = []


def check(name, got, ref, k, dtype_eps):
    ref = ref.double()
    got = got.double()
    rms = ref.pow(2).mean().sqrt().item()
    tol = 4 * dtype_eps * (ref.abs() + rms) + 1e-6 * k
    bad = int(((got - ref).abs() > tol).sum().item()) + int(
        torch.isnan(got).sum().item())
    print("%s %s: max |err| %.3g (rms %.3g)%s" % (
        "PASS" if bad == 0 else "FAIL", name, (got - ref).abs().max().item(),
        rms, "" if bad == 0 else ", %d elements out of tolerance" % bad),
        flush=True)
    if bad:
        failures.append(name)


EPS = {torch.float16: 2 ** -10, torch.bfloat16: 2 ** -7,
       torch.float32: 2 ** -20}


def rand(*shape, dtype=torch.float16):
    return (torch.rand(*shape, device="cuda") * 2 - 1).to(dtype)


def cases(ks):
    """(name, kernel, make inputs, launch kwargs from inputs, reference,
    dtype, K). Inputs are a dict of tensors; outputs preallocated in it."""
    M, N, K = 777, 1032, 520

    def linear_relu():
        return {"a": rand(M, K), "b": rand(N, K), "bias": rand(N),
                "d": torch.empty(M, N, device="cuda", dtype=torch.float16)}

    def residual_rowsumsq():
        t = torch.bfloat16
        return {"a": rand(M, K, dtype=t), "b": rand(N, K, dtype=t),
                "c": rand(M, N, dtype=t),
                "d": torch.empty(M, N, device="cuda", dtype=t),
                "rowsumsq": torch.zeros(M, device="cuda")}

    def splitk():
        return {"a": rand(M, K), "b": rand(N, K), "bias": rand(N),
                "d": torch.empty(M, N, device="cuda", dtype=torch.float16)}

    def streamk():
        t = torch.bfloat16
        return {"a": rand(M, K, dtype=t), "b": rand(N, K, dtype=t),
                "c": rand(M, N, dtype=t),
                "d": torch.empty(M, N, device="cuda", dtype=t)}

    def cluster():
        t = torch.bfloat16
        return {"a": rand(M, K, dtype=t), "b": rand(N, K, dtype=t),
                "d": torch.empty(M, N, device="cuda", dtype=t)}

    def acc(x):
        return x["a"].double() @ x["b"].double().t()

    return [
        ("plain+bias+relu f16", ks["py_linear_relu_f16"], linear_relu,
         lambda x: dict(bias=x["bias"]),
         lambda x: {"d": torch.relu(acc(x) + x["bias"].double())}),
        ("C+rowsumsq bf16", ks["py_residual_rowsumsq_bf16"],
         residual_rowsumsq, lambda x: dict(c=x["c"], rowsumsq=x["rowsumsq"]),
         lambda x: {"d": acc(x) + x["c"].double(),
                    "rowsumsq": (acc(x) + x["c"].double()).pow(2).sum(-1)}),
        ("split-K 3 f16", ks["py_splitk_bias_f16"], splitk,
         lambda x: dict(bias=x["bias"]),
         lambda x: {"d": acc(x) + x["bias"].double()}),
        ("stream-K bf16", ks["py_streamk_lincomb_bf16"], streamk,
         lambda x: dict(c=x["c"], beta=0.5),
         lambda x: {"d": acc(x) + 0.5 * x["c"].double()}),
        ("cluster 2x1 gelu bf16", ks["py_cluster21_gelu_bf16"], cluster,
         lambda x: {}, lambda x: {"d": F.gelu(acc(x))}),
    ]


def launch(k, x, kw):
    kw = dict(kw)
    c = kw.pop("c", None)
    k.launch(x["a"], x["b"], x["d"], c, **kw)


def compare(name, x, ref, K):
    for out, want in ref.items():
        check("%s %s" % (name, out), x[out], want, K,
              EPS.get(x[out].dtype, 2 ** -20) if out == "d" else 2 ** -12)


def test_streams(ks):
    """No stream=: torch's current stream, in a side-stream block."""
    name, k, make, kw, ref = cases(ks)[0]
    x = make()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        launch(k, x, kw(x))
        done = torch.cuda.Event()
        done.record()
    done.synchronize()  # recorded on s: D is there once s has run
    compare("current stream (torch.cuda.stream block) " + name, x, ref(x),
            x["a"].shape[1])


def test_graphs(ks, replays):
    for name, k, make, kw, ref in cases(ks):
        x = make()
        g = torch.cuda.CUDAGraph()
        try:
            # From cold: these arguments were never launched before, so the
            # plan (and a workspace) are made during the capture.
            with torch.cuda.graph(g):
                if "rowsumsq" in x:
                    x["rowsumsq"].zero_()
                launch(k, x, kw(x))
        except Exception as e:  # the capture failed
            print("FAIL graph %s: %s" % (name, e))
            failures.append("graph " + name)
            continue
        for r in range(replays):
            fresh = make()
            for key in ("a", "b", "c", "bias"):
                if key in x:
                    x[key].copy_(fresh[key])
            x["d"].fill_(float("nan"))
            g.replay()
            torch.cuda.synchronize()
            compare("graph %s (replay %d)" % (name, r + 1), x, ref(x),
                    x["a"].shape[1])


def test_pdl_chain(ks, graph):
    """Eight kernels, each reading the previous one's D as its A, launched
    back to back (programmatic dependent launch lets each start while the
    previous one runs: its griddepcontrol.wait is all that orders them).
    Every D starts as NaN and each is checked against the reference from
    the D it read, so a kernel that read its A early fails."""
    M, K = 777, 520
    plain, split = ks["py_linear_relu_f16"], ks["py_splitk_bias_f16"]
    chain = [plain, split] * 4
    x0 = rand(M, K)
    ws = [rand(K, K) * K ** -0.5 for _ in chain]
    bs = [rand(K) for _ in chain]
    ds = [torch.empty(M, K, device="cuda", dtype=torch.float16)
          for _ in chain]

    def run():
        a = x0
        for k, w, b, d in zip(chain, ws, bs, ds):
            k.launch(a, w, d, None, bias=b)
            a = d

    for d in ds:
        d.fill_(float("nan"))
    if graph:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            run()
        for d in ds:
            d.fill_(float("nan"))
        g.replay()
    else:
        run()
    torch.cuda.synchronize()
    a = x0
    for i, (k, w, b, d) in enumerate(zip(chain, ws, bs, ds)):
        ref = a.double() @ w.double().t() + b.double()
        if k is plain:
            ref = torch.relu(ref)
        check("chain of %d%s, kernel %d" % (len(chain),
              " in a graph" if graph else "", i + 1), d, ref, K,
              EPS[torch.float16])
        a = d


def test_custom_op(ks):
    k = ks["py_linear_relu_f16"]
    op = ws_gemm.torch_op(k)
    print("info op %s: %s" % (op.__name__, op.schema))

    def block(x, w, b):
        return op(x, w, bias=b) * 2.0 + 1.0

    compiled = torch.compile(block, fullgraph=True)
    x, w, b = rand(300, 136), rand(264, 136), rand(264)
    got = compiled(x, w, b)
    torch.cuda.synchronize()
    want = torch.relu(x.double() @ w.double().t() + b.double()) * 2 + 1
    check("custom op under torch.compile(fullgraph=True)", got, want, 136,
          2 ** -9)
    # The second call with other shapes goes through the fake op again.
    x2 = rand(64, 136)
    got2 = compiled(x2, w, b)
    check("custom op under torch.compile, second shape", got2,
          torch.relu(x2.double() @ w.double().t() + b.double()) * 2 + 1, 136,
          2 ** -9)

    rk = ks["py_residual_rowsumsq_bf16"]
    rop = ws_gemm.torch_op(rk)
    print("info op %s: %s" % (rop.__name__, rop.schema))

    def rms_block(x, w, res):
        h, ss = rop(x, w, res)
        return h.float() * torch.rsqrt(ss[:, None] / h.shape[-1] + 1e-6)

    t = torch.bfloat16
    x, w, res = rand(512, 256, dtype=t), rand(384, 256, dtype=t), rand(
        512, 384, dtype=t)
    got = torch.compile(rms_block, fullgraph=True)(x, w, res)
    h = x.double() @ w.double().t() + res.double()
    want = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
    check("custom op with a reduction output under torch.compile", got,
          want, 256, 2 ** -7)


def host_us(fn, n=300):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def test_host_cost(ks, limit_us):
    M, N, K = 256, 256, 256
    a, b = rand(M, K), rand(N, K)
    mm_us = host_us(lambda: torch.mm(a, b.t()))
    print("info host torch.mm: %.1f us per call" % mm_us)
    for name, k, make, kw, ref in cases(ks):
        x = make()
        # A small problem of the same kind: the GPU keeps up with the host.
        small = {key: (v[:M] if key in ("a", "c", "d", "rowsumsq") else v)
                 for key, v in x.items()}
        small["a"] = small["a"][:, :K].contiguous()
        small["b"] = small["b"][:N, :K].contiguous()
        if "c" in small:
            small["c"] = small["c"][:, :N].contiguous()
        small["d"] = small["d"][:, :N].contiguous()
        if "bias" in small:
            small["bias"] = small["bias"][:N].contiguous()
        args = kw(small)
        us = host_us(lambda: launch(k, small, args))
        ok = us <= limit_us
        print("%s host %s: %.1f us per launch() (torch.mm %.1f us; limit "
              "%.0f us)" % ("PASS" if ok else "FAIL", name, us, mm_us,
                            limit_us))
        if not ok:
            failures.append("host " + name)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kernels", required=True)
    p.add_argument("--replays", type=int, default=3)
    p.add_argument("--host-limit-us", type=float, default=20.0)
    args = p.parse_args()
    torch.manual_seed(7)
    torch.backends.cuda.matmul.allow_tf32 = False
    print("torch %s, %s" % (torch.__version__, torch.cuda.get_device_name()))
    names = ("py_linear_relu_f16", "py_residual_rowsumsq_bf16",
             "py_splitk_bias_f16", "py_streamk_lincomb_bf16",
             "py_cluster21_gelu_bf16")
    ks = {n: ws_gemm.Kernel.load(os.path.join(args.kernels, n + ".json"))
          for n in names}
    test_streams(ks)
    test_graphs(ks, args.replays)
    test_pdl_chain(ks, graph=False)
    test_pdl_chain(ks, graph=True)
    test_custom_op(ks)
    test_host_cost(ks, args.host_limit_us)
    print("python-torch-launch: %s" % ("%d failed: %s" % (
        len(failures), ", ".join(failures)) if failures else "all passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
