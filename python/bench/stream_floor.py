"""A floor for a decode GEMM's time: a kernel that only reads as many bytes.

A W4 or W8 decode GEMM must read its packed weight, scales and zero points
(and the activations) from HBM once; no kernel that reads those bytes can
be faster than one that reads them and does nothing else. `StreamFloor`
times such a reader (Triton, where the GPU machine has it) in the same
CUDA graphs of 10 calls as the contenders of torch_mixed_bench.py, over
buffer copies rotated past the L2 as theirs are, with the fastest of a few
launch shapes per point: one-shot programs of UNROLL independent loads
(the elementwise kernels' form) and persistent grids of 2-8 programs per
SM looping over the buffer. Its time over torch.mm's is the largest
speedup any weight-only kernel can show on that point and GPU.

Each reader sums the buffer's int32 words; `pick` compares the sum with
torch's (mod 2^32), so a reader that skipped bytes is refused.
"""

import triton
import triton.language as tl


@triton.jit
def _read_once(src, dst, n, BLOCK: tl.constexpr, UNROLL: tl.constexpr):
    pid = tl.program_id(0)
    base = pid * (BLOCK * UNROLL)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for u in tl.static_range(UNROLL):
        offs = base + u * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(src + offs, mask=offs < n, other=0,
                       cache_modifier=".cg")
    tl.store(dst + pid, tl.sum(acc, axis=0))


@triton.jit
def _read_loop(src, dst, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for start in range(pid * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(src + offs, mask=offs < n, other=0,
                       cache_modifier=".cg")
    tl.store(dst + pid, tl.sum(acc, axis=0))


# (kind, BLOCK, UNROLL or programs per SM, warps)
CONFIGS = [("once", 512, 8, 4), ("once", 1024, 4, 4), ("once", 1024, 8, 4),
           ("once", 1024, 16, 4), ("once", 2048, 4, 8), ("once", 2048, 8, 8),
           ("once", 4096, 4, 8), ("loop", 2048, 2, 8), ("loop", 4096, 2, 8),
           ("loop", 2048, 4, 8), ("loop", 1024, 8, 4)]


class StreamFloor:
    def __init__(self, torch):
        self.t = torch
        self.sms = torch.cuda.get_device_properties(0).multi_processor_count
        self.dst = torch.empty(1 << 20, device="cuda", dtype=torch.int32)

    def buffers(self, nbytes, copies):
        """`copies` random int32 buffers of nbytes (rounded up to 16)."""
        t = self.t
        words = -(-nbytes // 16) * 4
        return [t.randint(-2 ** 31, 2 ** 31 - 1, (words,), device="cuda",
                          dtype=t.int32) for _ in range(copies)]

    def launch(self, buf, cfg):
        kind, block, x, warps = cfg
        n = buf.numel()
        if kind == "once":
            grid = -(-n // (block * x))
            _read_once[(grid,)](buf, self.dst, n, BLOCK=block, UNROLL=x,
                                num_warps=warps)
        else:
            grid = min(x * self.sms, -(-n // block))
            _read_loop[(grid,)](buf, self.dst, n, BLOCK=block,
                                num_warps=warps)
        return grid

    def pick(self, bufs, graph_of, measure, log):
        """The fastest config over `bufs` in graphs of 10 calls: (cfg, ms
        per call). Each config's sum is checked first."""
        t = self.t
        best = None
        for cfg in CONFIGS:
            grid = self.launch(bufs[0], cfg)
            t.cuda.synchronize()
            got = int(self.dst[:grid].to(t.int64).sum().item()) % 2 ** 32
            want = int(bufs[0].to(t.int64).sum().item()) % 2 ** 32
            if got != want:
                log("  floor %s: wrong sum (%d, not %d); skipped" %
                    (cfg, got, want))
                continue
            turn = {"i": 0}

            def fn(cfg=cfg, turn=turn):
                turn["i"] += 1
                self.launch(bufs[turn["i"] % len(bufs)], cfg)
            g = graph_of(fn)
            for _ in range(3):
                g.replay()
            ms = min(measure(g.replay, 20)[0] for _ in range(3)) / 10
            if best is None or ms < best[1]:
                best = (cfg, ms)
        return best
