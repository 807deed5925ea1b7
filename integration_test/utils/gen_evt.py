#!/usr/bin/env python3
"""Seeded generator of random valid EVT kernels (wsgemm.gemm + epi).

Each kernel is one `wsgemm.gemm` whose epilogue region is a random EVT DAG
and whose operand types, layouts and `#wsgemm.config` are a random config
that lowers today. Kernel k is drawn from `random.Random(k)` alone and named
`evt_<k>`: `--seed S --count N` writes kernels S .. S+N-1, so kernel 17 is
the same whether it came from `--seed 17 --count 1` or `--seed 0 --count 50`
(reproduce one kernel with `--seed K --count 1`).

The EVT mixes the accumulator, `epi.load_src` (C, sometimes gated with
`skip_if_zero`), `epi.scalar` (attr / param / ptr, one or two names),
`epi.load_vec_m` / `epi.load_vec_n`, `epi.aux_load`, `arith.constant`,
arith add/sub/mul/div/maximumf/minimumf/maxnumf/minnumf/neg (half of the
f32 products with `fastmath<reassoc>`, from a second rng), cmpf + select,
the math ops the manifest encodes (abs, exp, log, sqrt, rsqrt, tanh, erf,
fma), every epi activation, narrowing round trips (`epi.convert` rn/rz,
`arith.truncf`/`extf`, activations and arithmetic in f16/bf16), and outputs:
always `epi.store` (rn or rz), sometimes `epi.aux_store` and reductions
(`reduce_to_vec_m` / `_vec_n` / `_scalar`, sum/max/min/absmax). Values have
several uses (a DAG), leaves are read several times, and every computed
value reaches an output.

Configs follow the rules of `--wsgemm-plan` (Legality.cpp checkLegality,
Planning.cpp's defaults, KernelLayout.cpp's SMEM), which hold every rule
the lowering depends on: f16/bf16 A = B, K-major A, K- or N-major B (N-major:
tile N % 64 == 0), D f16/bf16/f32, C f16/bf16/f32; warp_specialized tile M
64/128 or cooperative 128/256, tile N a multiple of 16 that the consumer's
register budget holds, tile K 64; epi_tile, stages, stages_c/_d,
fragment_size, reuse_smem_c, delay_tma_store, persistent, raster, swizzle,
setmaxnreg budgets, batched, static shapes; the SMEM budget is checked, and
so is the epilogue's register estimate (RegisterBudget.cpp, mirrored by
consumer_regs(): a default epi_tile N is narrowed until it fits, a fixed
one that does not is not generated). Each knob is sometimes left to the
planner's default, so the defaults are exercised too.

Known compiler refusals of valid input (recorded as bugs; not generated with
--avoid-known-bugs, which also adds C and the gate parameter into D so that
folding cannot delete them):
  reuse-no-c        reuse_smem_c = true while canonicalize folded every read
                    of C away: the planner refuses the config.
Fixed since 4c394e9 (their inputs are generated and must compile): dead-gate
(the gate of `skip_if_zero` is a parameter of its own when canonicalize
drops its unused `epi.scalar param`), delay-stages-d-1, reuse-stages and
reuse-delay (planner defaults that contradicted its own rules), and
smem-mismatch (the planner and the lowering now share one layout).

Usage:
  gen_evt.py --seed 0 --count 200 -o /tmp/evt          # evt_0.mlir ... evt_199.mlir
  gen_evt.py --seed 0 --count 200 --per-file 8 -o DIR  # 8 kernels per file
  gen_evt.py --seed 17 --count 1 -o -                  # one kernel to stdout

Python 3 standard library only.
"""

import argparse
import math
import os
import random
import sys

SMEM_CAPACITY = 232448  # kSm90SmemCapacity
REGISTERS_PER_SM = 65536
EPILOGUE_REGS = 40  # Legality.cpp kEpilogueRegs, beside the accumulator
# EVT ops that need scratch registers (GemmDesc.cpp longLatencyOps).
LONG_LATENCY = ("exp", "log", "sqrt", "rsqrt", "tanh", "erf", "divf",
                "act_gelu", "act_gelu_taylor", "act_silu", "act_sigmoid",
                "act_tanh")

MEM_TYPES = ("f16", "bf16", "f32")
BYTES = {"f16": 2, "bf16": 2, "f32": 4}
ACTIVATIONS = ("identity", "relu", "clamp", "leaky_relu", "threshold_relu",
               "gelu", "gelu_taylor", "silu", "sigmoid", "tanh", "hardswish")
# Activations that take fastmath<afn> (approximate instructions).
APPROXIMABLE = ("gelu", "gelu_taylor", "silu", "sigmoid", "tanh")
BINARY = ("addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf",
          "minnumf")
UNARY_MATH = ("absf", "exp", "log", "sqrt", "rsqrt", "tanh", "erf")
CMP_PREDICATES = ("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq",
                  "ugt", "uge", "ult", "ule", "une", "uno")
REDUCE_KINDS = ("sum", "max", "min", "absmax")
REDUCE_SHAPES = ("vec_m", "vec_n", "scalar")
CONSTANTS = (0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 6.0, 0.25, -0.125, 0.044715,
             0.7978845608028654, 1.0e-3, 100.0)
# Known compiler refusals of valid input, and a piece of each one's message.
# (dead-gate, delay-stages-d-1, reuse-stages, reuse-delay and smem-mismatch
# were fixed in the planner; their seeds now compile.)
KNOWN_BUGS = {
    "reuse-no-c": "reuse_smem_c = true needs an epilogue that loads C",
}


def classify_refusal(text):
    """The KNOWN_BUGS keys whose message occurs in a diagnostic."""
    return sorted(k for k, m in KNOWN_BUGS.items() if m in text)


def fmt_float(x):
    """An MLIR float literal (always with a '.')."""
    s = repr(float(x))
    if "e" in s and "." not in s.split("e")[0]:
        s = "%.6e" % x
    elif "." not in s and "e" not in s:
        s += ".0"
    return s


# ---------------------------------------------------------------------------
# The EVT
# ---------------------------------------------------------------------------

class Evt:
    """A random EVT DAG as the lines of an epilogue region plus the facts the
    config needs (what it reads and writes)."""

    def __init__(self, rng, avoid_known_bugs=False, flags_rng=None):
        self.rng = rng
        # fastmath<reassoc> on some f32 products (--epi-regroup-uniform-
        # factors, reductions' factors at the flush): drawn apart so that
        # the EVTs themselves stay what `rng` alone makes.
        self.flags_rng = flags_rng or random.Random(0)
        self.avoid = avoid_known_bugs
        self.lines = []
        self.counter = 0
        self.pool = ["%acc"]      # f32 values, in definition order
        self.uses = {"%acc": 0}
        self.defs = {}            # value -> its line
        self.ops = {}             # op kind -> count (for the summary)
        # Inputs, decided up front (name -> element type).
        self.loads_c = False
        self.gate = None          # skip_if_zero parameter name
        self.gate_used = True
        self.param_names = []
        self.ptr_names = []
        self.vec_m = {}
        self.vec_n = {}
        self.aux_loads = {}
        # Outputs.
        self.aux_stores = {}
        self.reductions = []      # (shape, kind, name)
        self.store_rounding = "rn"
        self.known_bugs = set()

    # -- helpers -----------------------------------------------------------
    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def count(self, kind):
        self.ops[kind] = self.ops.get(kind, 0) + 1

    def emit(self, line, result=None, kind=None, f32=True):
        self.lines.append("  " + line)
        if result is not None:
            self.defs[result] = line
        if kind:
            self.count(kind)
        if result is not None and f32:
            self.pool.append(result)
            self.uses[result] = 0
        return result

    def use(self, v):
        if v in self.uses:
            self.uses[v] += 1
        return v

    # -- leaves ------------------------------------------------------------
    def plan_inputs(self):
        rng = self.rng
        self.loads_c = rng.random() < 0.5
        if self.loads_c and rng.random() < 0.4:
            self.gate = "beta"
            self.gate_used = self.avoid or rng.random() < 0.85
        n_params = rng.choice((0, 0, 1, 1, 2, 3))
        self.param_names = ["alpha", "s1", "s2"][:n_params]
        if self.gate:
            self.param_names.append(self.gate)
        n_ptrs = rng.choice((0, 0, 0, 1, 2))
        self.ptr_names = ["scale_a", "scale_b"][:n_ptrs]
        for i in range(rng.choice((0, 0, 1, 1, 2))):
            self.vec_m["rowv%d" % i] = rng.choice(MEM_TYPES)
        for i in range(rng.choice((0, 0, 1, 1, 2))):
            self.vec_n["colv%d" % i] = rng.choice(MEM_TYPES)
        for i in range(rng.choice((0, 0, 0, 1, 1, 2))):
            self.aux_loads["auxin%d" % i] = rng.choice(MEM_TYPES)
        # Every input is read at least once.
        self.pending = []
        if self.loads_c:
            self.pending.append(("src",))
        for n in self.param_names:
            if n != self.gate or self.gate_used:
                self.pending.append(("param", n))
        for n in self.ptr_names:
            self.pending.append(("ptr", n))
        for n in self.vec_m:
            self.pending.append(("vec_m", n))
        for n in self.vec_n:
            self.pending.append(("vec_n", n))
        for n in self.aux_loads:
            self.pending.append(("aux", n))
        rng.shuffle(self.pending)

    def leaf(self, spec=None):
        """Emits a leaf (a pending input first) and returns its value."""
        rng = self.rng
        if spec is None:
            if self.pending:
                spec = self.pending.pop()
            else:
                choices = [("acc",), ("const",), ("attr",)]
                if self.loads_c:
                    choices.append(("src",))
                for n in self.param_names:
                    if n != self.gate or self.gate_used:
                        choices.append(("param", n))
                choices += [("ptr", n) for n in self.ptr_names]
                choices += [("vec_m", n) for n in self.vec_m]
                choices += [("vec_n", n) for n in self.vec_n]
                choices += [("aux", n) for n in self.aux_loads]
                spec = rng.choice(choices)
        kind = spec[0]
        if kind == "acc":
            return "%acc"
        v = self.fresh()
        if kind == "const":
            self.emit("%s = arith.constant %s : f32"
                      % (v, fmt_float(rng.choice(CONSTANTS))), v, "const")
        elif kind == "attr":
            self.emit("%s = epi.scalar attr %s : f32"
                      % (v, fmt_float(rng.choice(CONSTANTS))), v,
                      "scalar_attr")
        elif kind == "src":
            gate = ' skip_if_zero "%s"' % self.gate if self.gate else ""
            self.emit("%s = epi.load_src%s : f32" % (v, gate), v, "load_src")
        elif kind in ("param", "ptr"):
            names = self.param_names if kind == "param" else self.ptr_names
            others = [n for n in names if n != spec[1]
                      and (n != self.gate or self.gate_used)]
            group = [spec[1]]
            if others and rng.random() < 0.3:
                group.append(rng.choice(others))
                rng.shuffle(group)
            self.emit("%s = epi.scalar %s [%s] : f32"
                      % (v, kind, ", ".join('"%s"' % n for n in group)), v,
                      "scalar_" + kind)
        elif kind in ("vec_m", "vec_n"):
            types = self.vec_m if kind == "vec_m" else self.vec_n
            self.emit('%s = epi.load_%s "%s" : %s -> f32'
                      % (v, kind, spec[1], types[spec[1]]), v, "load_" + kind)
        elif kind == "aux":
            self.emit('%s = epi.aux_load "%s" : %s -> f32'
                      % (v, spec[1], self.aux_loads[spec[1]]), v, "aux_load")
        return v

    def operand(self):
        """An f32 operand: a new leaf, a recent value or any earlier one."""
        rng = self.rng
        r = rng.random()
        if self.pending and r < 0.5:
            return self.use(self.leaf())
        if r < 0.2:
            return self.use(self.leaf())
        if r < 0.6:
            return self.use(rng.choice(self.pool[-4:]))
        # Prefer values nobody uses yet, so that little is dead.
        unused = [p for p in self.pool if self.uses[p] == 0]
        if unused and rng.random() < 0.5:
            return self.use(rng.choice(unused))
        return self.use(rng.choice(self.pool))

    # -- compute -----------------------------------------------------------
    def activation(self, x, ty="f32", name=None):
        rng = self.rng
        act = name or rng.choice(ACTIVATIONS)
        v = self.fresh()
        if act == "clamp":
            lo = rng.choice((-6.0, -1.0, -0.5, 0.0))
            hi = rng.choice((0.5, 1.0, 6.0))
            args = " lower %s upper %s" % (fmt_float(lo), fmt_float(hi))
        elif act == "leaky_relu":
            args = " leaky_alpha %s" % fmt_float(rng.choice((0.01, 0.1, 0.2)))
        elif act == "threshold_relu":
            t = rng.choice((-1.0, 0.0, 0.5))
            args = " threshold %s" % fmt_float(t)
            if rng.random() < 0.5:
                args += " upper_bound %s" % fmt_float(rng.choice((2.0, 6.0)))
        elif act in APPROXIMABLE and self.counter % 2:
            # fastmath<afn> on every other transcendental (by value number,
            # not the rng, so existing seeds keep their EVTs otherwise).
            args = " fastmath<afn>"
        else:
            args = ""
        self.emit("%s = epi.%s %s%s : %s" % (v, act, x, args, ty), v,
                  "act_" + act, f32=(ty == "f32"))
        return v

    def narrow_segment(self, x):
        """x -> f16/bf16 -> some math there -> f32."""
        rng = self.rng
        ty = rng.choice(("f16", "bf16"))
        h = self.fresh("h")
        if rng.random() < 0.7:
            rnd = rng.choice(("", " rz"))
            self.emit("%s = epi.convert %s%s : f32 -> %s" % (h, x, rnd, ty), h,
                      "convert", f32=False)
        else:
            self.emit("%s = arith.truncf %s : f32 to %s" % (h, x, ty), h,
                      "truncf", f32=False)
        # A chain (each step reads the previous value), so nothing is dead.
        cur = [h]
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            r = rng.random()
            if r < 0.6:
                cur.append(self.activation(cur[-1], ty))
            else:
                op = rng.choice(("addf", "mulf", "maximumf", "minimumf",
                                 "subf", "negf"))
                v = self.fresh("h")
                if op == "negf":
                    self.emit("%s = arith.negf %s : %s" % (v, cur[-1], ty), v,
                              "negf", f32=False)
                else:
                    a, b = cur[-1], rng.choice(cur)
                    if rng.random() < 0.5:
                        a, b = b, a
                    self.emit("%s = arith.%s %s, %s : %s" % (v, op, a, b, ty),
                              v, op, f32=False)
                cur.append(v)
        v = self.fresh()
        last = cur[-1]
        if rng.random() < 0.7:
            self.emit("%s = epi.convert %s : %s -> f32" % (v, last, ty), v,
                      "convert")
        else:
            self.emit("%s = arith.extf %s : %s to f32" % (v, last, ty), v,
                      "extf")
        return v

    def compute(self):
        rng = self.rng
        r = rng.random()
        if r < 0.40:
            op = rng.choice(BINARY)
            a, b = self.operand(), self.operand()
            v = self.fresh()
            flags = " fastmath<reassoc>" if op == "mulf" and \
                self.flags_rng.random() < 0.5 else ""
            return self.emit("%s = arith.%s %s, %s%s : f32"
                             % (v, op, a, b, flags), v, op)
        if r < 0.47:
            a = self.operand()
            v = self.fresh()
            return self.emit("%s = arith.negf %s : f32" % (v, a), v, "negf")
        if r < 0.57:
            op = rng.choice(UNARY_MATH)
            a = self.operand()
            v = self.fresh()
            return self.emit("%s = math.%s %s : f32" % (v, op, a), v, op)
        if r < 0.63:
            a, b, c = self.operand(), self.operand(), self.operand()
            v = self.fresh()
            return self.emit("%s = math.fma %s, %s, %s : f32" % (v, a, b, c),
                             v, "fma")
        if r < 0.71:
            a, b = self.operand(), self.operand()
            p = self.fresh("p")
            self.emit("%s = arith.cmpf %s, %s, %s : f32"
                      % (p, rng.choice(CMP_PREDICATES), a, b), p, "cmpf",
                      f32=False)
            x, y = self.operand(), self.operand()
            v = self.fresh()
            return self.emit("%s = arith.select %s, %s, %s : f32"
                             % (v, p, x, y), v, "select")
        if r < 0.92:
            return self.activation(self.operand())
        return self.narrow_segment(self.operand())

    # -- outputs -----------------------------------------------------------
    def output(self, kind, value):
        rng = self.rng
        if kind == "aux_store":
            name = "auxout%d" % len(self.aux_stores)
            ty = rng.choice(MEM_TYPES)
            self.aux_stores[name] = ty
            self.emit('epi.aux_store %s, "%s" : f32 -> %s' % (value, name, ty),
                      kind="aux_store")
        else:
            shape = rng.choice(REDUCE_SHAPES)
            red = rng.choice(REDUCE_KINDS)
            name = "red%d" % len(self.reductions)
            self.reductions.append((shape, red, name))
            self.emit('epi.reduce_to_%s %s %s, "%s" : f32'
                      % (shape, red, value, name), kind="reduce_to_" + shape)

    def build(self):
        rng = self.rng
        self.plan_inputs()
        size = rng.choice((rng.randint(1, 6), rng.randint(4, 16),
                           rng.randint(4, 16), rng.randint(12, 36)))
        extra = []
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            extra.append("aux_store")
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            extra.append("reduce")
        rng.shuffle(extra)
        for i in range(size):
            self.compute()
            # Outputs may sit anywhere after their value.
            if extra and rng.random() < 1.5 / size:
                self.output(extra.pop(), self.use(rng.choice(self.pool)))
        while self.pending:
            self.leaf()
        # Fold every value nobody uses into D so the whole DAG stays live.
        dead = [p for p in self.pool if self.uses[p] == 0 and p != "%acc"]
        root = self.pool[-1] if self.pool[-1] != "%acc" else "%acc"
        if root in dead:
            dead.remove(root)
        rng.shuffle(dead)
        if self.avoid:
            # Canonicalization may fold away the uses of a leaf (a select
            # on constants, max(x, x)); an add into D keeps C and the gate
            # parameter alive, so the planner sees what the EVT reads.
            for v in self.pool:
                line = self.defs.get(v, "")
                if ("epi.load_src" in line or
                        ("param" in line and '"%s"' % self.gate in line)) \
                        and v not in dead and v != root:
                    dead.append(v)
        for d in dead:
            v = self.fresh()
            op = rng.choice(("addf", "mulf", "maximumf", "subf", "minimumf"))
            a, b = (root, d) if rng.random() < 0.5 else (d, root)
            self.emit("%s = arith.%s %s, %s : f32" % (v, op, a, b), v, op)
            self.use(root)
            self.use(d)
            root = v
        # The gate parameter, when nothing else reads it: a dead op that
        # canonicalization drops (the gate stays a parameter of its own).
        if self.gate and not self.gate_used:
            g = self.fresh()
            self.lines.insert(0, '  %s = epi.scalar param ["%s"] : f32'
                              % (g, self.gate))
            self.count("scalar_param")
        if rng.random() < 0.25:
            self.store_rounding = "rz"
        rnd = " rz" if self.store_rounding == "rz" else ""
        self.emit("epi.store %s%s : f32" % (self.use(root), rnd),
                  kind="store")
        for kind in extra:
            self.output(kind, self.use(rng.choice(self.pool)))
        self.lines.append("  epi.yield")
        return self

    def summary(self):
        """A one-line account of the EVT: node counts by kind."""
        parts = ["%s:%d" % (k, self.ops[k]) for k in sorted(self.ops)]
        return "%d ops (%s)" % (sum(self.ops.values()), " ".join(parts))


# ---------------------------------------------------------------------------
# The config: a model of --wsgemm-plan (defaults + legality) and of the
# lowering's own refusals
# ---------------------------------------------------------------------------

def align(x, a):
    return (x + a - 1) // a * a


def fill_defaults(k, cfg):
    """Planning.cpp fillDefaults, without the mainloop stage count."""
    c = dict(cfg)
    tm, tn, tk = c.setdefault("tile", (128, 128, 64))
    c.setdefault("cluster", (1, 1, 1))
    if "schedule" not in c:
        c["schedule"] = "pingpong" if tm == 64 else "cooperative"
    coop = c["schedule"] == "cooperative"
    c.setdefault("persistent", c["schedule"] != "warp_specialized")
    c.setdefault("raster", "heuristic")  # the shape's choice when static
    c.setdefault("swizzle", 1)
    if c["schedule"] != "warp_specialized":
        c.setdefault("producer_regs", 40)
        c.setdefault("consumer_regs", 232)
    if "epi_tile" not in c:
        em, en = min(128 if coop else 64, tm), math.gcd(min(32, tn), tn)
        # Narrowed while the epilogue's registers do not fit (Planning.cpp).
        for n in range(en - 16, 15, -16):
            total, budget = consumer_regs(k, c, (em, en))
            if total <= budget:
                break
            if tn % n == 0:
                en = n
        c["epi_tile"] = (em, en)
    em, en = c["epi_tile"]
    epi_tiles = max(1, (tm // em) * (tn // en)) if em > 0 and en > 0 else 1
    threads = 256 if coop else 128
    c.setdefault("fragment_size", max(1, em * en // threads))
    loads_c, c_bytes, d_bytes = k["loads_c"], k["c_bytes"], k["d_bytes"]
    c.setdefault("stages_d", min(epi_tiles, 2))
    c.setdefault("delay_tma_store", not loads_c and c["stages_d"] >= 2)
    c.setdefault("reuse_smem_c",
                 loads_c and c_bytes == d_bytes and not c["delay_tma_store"]
                 and ("stages_c" not in c or c["stages_d"] <= c["stages_c"]))
    # warp_stores: on by default for an 8-bit D only (none here).
    c.setdefault("warp_stores", d_bytes == 1 and not c["reuse_smem_c"])
    if "stages_c" not in c:
        sc = min(epi_tiles, 4)
        if not c["reuse_smem_c"]:
            sc = epilogue_load_stages(k, c, epi_tiles, sc)
        c["stages_c"] = max(sc, c["stages_d"] + 1) if c["reuse_smem_c"] else sc
    return c


def epilogue_load_stages(k, c, epi_tiles, stages_c):
    """RegisterBudget.cpp fitEpilogueLoadStages: fewer C stages where the
    epilogue-load warp would keep too many hoisted shared addresses."""
    if "producer_regs" not in c or epi_tiles > 4:
        return stages_c
    sources = (1 if k["loads_c"] else 0) + len(k["aux_loads"])
    boxes = sources * max(1, c["epi_tile"][0] // 64)
    for s in range(stages_c, 1, -1):
        if epi_tiles % s != 0 or 2 * s * (boxes + 2) <= c["producer_regs"] - 8:
            return s
    return 1


def consumer_regs(k, c, epi):
    """RegisterBudget.cpp estimateConsumerRegisters: (total, budget)."""
    tm, tn, _ = c["tile"]
    coop = c["schedule"] == "cooperative"
    wg_rows = tm // 2 if coop else tm
    elements = epi[0] * epi[1] // (256 if coop else 128)
    # Quarter registers per element (C is free).
    per4 = 5 * (len(k["aux_loads"]) + len(k["vec_m"]) + len(k["vec_n"])) + \
        8 * len(k["aux_stores"]) + 2 * len(k["reductions"]) + \
        4 * k["long_latency"] + k["scalar_ptrs"]
    partials = 0
    for shape, _, _ in k["reductions"]:
        partials += {"vec_n": epi[1] // 4, "vec_m": 2, "scalar": 1}[shape]
    total = wg_rows * tn // 128 + EPILOGUE_REGS + partials + \
        (elements * per4 + 3) // 4
    return total, acc_budget(c)


def smem(k, c, stages):
    """KernelLayout.cpp computeKernelLayout(...).smemBytes: the one layout
    the planner budgets and the kernel is carved with."""
    tm, tn, tk = c["tile"]
    wgs = 2 if c["schedule"] == "cooperative" else 1
    en = c["epi_tile"][1]
    sub = 64 * en
    reuse = c["reuse_smem_c"] and k["loads_c"]
    off = stages * tm * tk * 2 + stages * tn * tk * 2
    if k["loads_c"]:
        off += wgs * c["stages_c"] * sub * k["c_bytes"]
    if not reuse:
        off += wgs * c["stages_d"] * sub * k["d_bytes"]
    for t in k["aux_loads"].values():
        off += wgs * c["stages_c"] * sub * BYTES[t]
    ring = c["stages_c"] if reuse else c["stages_d"]
    for t in k["aux_stores"].values():
        off += wgs * ring * sub * BYTES[t]
    bars = 2 * stages + (2 * c["stages_c"]
                         if k["loads_c"] or k["aux_loads"] else 0)
    if c["schedule"] == "pingpong":
        bars += 4  # order barriers: 2 sequences x 2 warpgroups
    return align(off, 8) + 8 * bars + 1024


def auto_stages(k, c):
    """Planning.cpp computeAutoStages (capacity - carveout) / (stage + 32)."""
    carve = smem(k, c, 0)
    tm, tn, tk = c["tile"]
    per = tm * tk * 2 + tn * tk * 2 + 32
    s = max((SMEM_CAPACITY - carve) // per, 2)
    while s > 2 and smem(k, c, s) > SMEM_CAPACITY:
        s -= 1
    return s


def acc_budget(c):
    """The consumer's register budget checkLegality compares with."""
    if c.get("consumer_regs"):
        return c["consumer_regs"]
    return 255  # warp_specialized without setmaxnreg: the launch share


def check(k, cfg):
    """Returns (final config, errors, known bugs the config triggers).
    Errors are what a valid config must not have; known bugs are planner
    defaults that the compiler refuses (see the module docstring)."""
    errors, bugs = [], []
    c = fill_defaults(k, cfg)
    tm, tn, tk = c["tile"]
    sched = c["schedule"]
    if sched == "pingpong" and (tm not in (64, 128) or not c["persistent"]):
        errors.append("pingpong tile M / persistent")
    wgs = 2 if sched == "cooperative" else 1
    if tk != 64:
        errors.append("tile K")
    if tn % 16 or not 16 <= tn <= 256:
        errors.append("tile N")
    if k["b_major"] == "n_major" and tn % 64:
        errors.append("n_major B needs tile N % 64")
    if sched == "warp_specialized" and tm not in (64, 128):
        errors.append("ws tile M")
    if sched == "cooperative" and tm not in (128, 256):
        errors.append("coop tile M")
    em, en = c["epi_tile"]
    if em != (128 if sched == "cooperative" else 64):
        errors.append("epi_tile M")
    if en <= 0 or en % 16 or tn % en:
        errors.append("epi_tile N")
    if errors:
        return c, errors, bugs
    per_thread = em * en // (256 if sched == "cooperative" else 128)
    if c["fragment_size"] < 1 or per_thread % c["fragment_size"]:
        errors.append("fragment_size")
    if c["stages_c"] < 1 or c["stages_d"] < 1:
        errors.append("stages_c/d")
    if c["swizzle"] not in (1, 2, 4, 8):
        errors.append("swizzle")
    if c["swizzle"] != 1 and not c["persistent"]:
        errors.append("swizzle needs persistent")
    p, q = c.get("producer_regs"), c.get("consumer_regs")
    if (p is None) != (q is None):
        errors.append("producer_regs and consumer_regs together")
    for r in (p, q):
        if r is not None and (r < 24 or r > 256 or r % 8):
            errors.append("setmaxnreg value")
    # setmaxnreg moves registers within the CTA's launch allocation:
    # threads x min(255, 65536 / threads rounded down to 8) (Legality.cpp).
    groups = 1 if sched == "warp_specialized" else 2  # pingpong: 2 too
    threads = 128 * (1 + groups)
    pool = threads * min(255, REGISTERS_PER_SM // threads // 8 * 8)
    if p and q and p * 128 + groups * q * 128 > pool:
        errors.append("register budgets over the CTA's allocation")
    if (tm // wgs) * tn // 128 + EPILOGUE_REGS > acc_budget(c):
        errors.append("accumulator over the register budget")
    elif consumer_regs(k, c, c["epi_tile"])[0] > acc_budget(c):
        errors.append("the epilogue would spill registers")
    # reuse_smem_c / delay_tma_store (Legality.cpp).
    same_width = k["loads_c"] and k["c_bytes"] == k["d_bytes"]
    reuse = c["reuse_smem_c"]
    if reuse and not same_width:
        errors.append("reuse_smem_c needs C loaded and of D's width")
    elif reuse and c["stages_d"] > c["stages_c"]:
        errors.append("reuse_smem_c needs stages_d <= stages_c")
    if k["loads_c"] and reuse and c["delay_tma_store"]:
        errors.append("reuse_smem_c with delay_tma_store")
    if k["loads_c"] and reuse and c["warp_stores"]:
        errors.append("reuse_smem_c with warp_stores")
    if (not (k["loads_c"] and reuse)) and c["delay_tma_store"] \
            and c["stages_d"] < 2:
        errors.append("delay_tma_store needs stages_d >= 2")
    if errors:
        return c, errors, bugs
    if "stages" not in c:
        c["stages"] = auto_stages(k, c)
    if c["stages"] < 2:
        errors.append("stages")
    elif smem(k, c, c["stages"]) > SMEM_CAPACITY:
        errors.append("shared memory: %d bytes" % smem(k, c, c["stages"]))
    return c, errors, bugs


def tile_n_choices(k, sched, tm, regs):
    """Every tile N the rules allow for this schedule and tile M."""
    wgs = 2 if sched == "cooperative" else 1
    budget = regs or (232 if sched == "cooperative" else 255)
    out = []
    for tn in range(16, 257, 16):
        if k["b_major"] == "n_major" and tn % 64:
            continue
        if (tm // wgs) * tn // 128 + EPILOGUE_REGS > budget:
            continue
        out.append(tn)
    return out


COMMON_TILES = {
    "cooperative": ((128, 128), (128, 256), (256, 128), (128, 64),
                    (128, 192), (256, 64), (128, 96), (128, 32)),
    "warp_specialized": ((128, 128), (64, 128), (128, 64), (64, 256),
                         (64, 64), (128, 96), (128, 48), (64, 32)),
}


def random_config(rng, k):
    """One try at a config: the knobs a user might write, each sometimes
    left to the planner."""
    cfg = {}
    sched = rng.choice(("warp_specialized", "cooperative", "cooperative"))
    if rng.random() < 0.15:
        regs = None
    elif sched == "cooperative":
        regs = rng.choice(((40, 232), (24, 240), (32, 240), (40, 216),
                           (56, 224)))
    else:
        regs = rng.choice(((40, 232), (24, 256), (40, 240), (56, 200)))
    set_regs = rng.random() < 0.15 and regs is not None
    tm = rng.choice((64, 128) if sched == "warp_specialized" else (128, 256))
    ns = tile_n_choices(k, sched, tm, regs[1] if set_regs else None)
    common = [tn for (m, tn) in COMMON_TILES[sched] if m == tm and tn in ns]
    tn = rng.choice(common) if common and rng.random() < 0.7 else \
        rng.choice(ns)
    # 128x128 is the planner's default tile, cooperative its default
    # schedule for tile M 128 and 256 (pingpong, not lowered, for 64).
    default_tile = (tm, tn) == (128, 128) and sched == "cooperative"
    if not (default_tile and rng.random() < 0.3):
        cfg["tile"] = (tm, tn, 64)
    if sched == "warp_specialized" or tm == 64 or rng.random() < 0.8:
        cfg["schedule"] = sched
    if set_regs:
        cfg["producer_regs"], cfg["consumer_regs"] = regs
    if rng.random() < 0.05:
        cfg["cluster"] = (1, 1, 1)
    em = 128 if sched == "cooperative" else 64
    if rng.random() < 0.35:
        ens = [e for e in range(16, tn + 1, 16) if tn % e == 0]
        cfg["epi_tile"] = (em, rng.choice(ens))
    if rng.random() < 0.2:
        cfg["stages_c"] = rng.randint(1, 4)
    if rng.random() < 0.2:
        cfg["stages_d"] = rng.randint(1, 4)
    if rng.random() < 0.1:
        en = cfg.get("epi_tile", (em, math.gcd(min(32, tn), tn)))[1]
        per = em * en // (256 if sched == "cooperative" else 128)
        cfg["fragment_size"] = rng.choice(
            [f for f in range(1, per + 1) if per % f == 0])
    if rng.random() < 0.15:
        cfg["reuse_smem_c"] = rng.random() < 0.5
    if rng.random() < 0.15:
        cfg["delay_tma_store"] = rng.random() < 0.5
    if rng.random() < 0.15:
        cfg["warp_stores"] = rng.random() < 0.5
    if rng.random() < 0.4:
        cfg["persistent"] = rng.random() < 0.6
    persistent = cfg.get("persistent", sched != "warp_specialized")
    if rng.random() < 0.3:
        cfg["raster"] = rng.choice(("along_m", "along_n", "heuristic"))
    if persistent and rng.random() < 0.3:
        cfg["swizzle"] = rng.choice((1, 2, 4, 8))
    elif rng.random() < 0.05:
        cfg["swizzle"] = 1
    return cfg


def choose_config(rng, k, avoid_known_bugs):
    """Draws configs until one is valid; returns (the knobs written, the
    planned config, the known bugs it triggers)."""
    for _ in range(200):
        cfg = random_config(rng, k)
        final, errors, bugs = check(k, cfg)
        if errors or (bugs and avoid_known_bugs):
            continue
        if rng.random() < 0.4:
            # Explicit mainloop stages, 2 .. the most that fit.
            top = 2
            while top < 12 and smem(k, final, top + 1) <= SMEM_CAPACITY:
                top += 1
            cfg["stages"] = rng.randint(2, top)
            final, errors, bugs = check(k, cfg)
            if errors or (bugs and avoid_known_bugs):
                continue
        return cfg, final, bugs
    raise RuntimeError("no valid config in 200 tries")


# ---------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------

class Kernel:
    """One generated kernel: its name, seed, MLIR text and summaries."""

    def __init__(self, seed, avoid_known_bugs=False):
        rng = random.Random(seed)
        self.seed = seed
        self.name = "evt_%d" % seed
        evt = Evt(rng, avoid_known_bugs,
                  random.Random("reassoc-%d" % seed)).build()
        ab = rng.choice(("f16", "bf16"))
        d = rng.choice(MEM_TYPES)
        c = rng.choice(MEM_TYPES) if evt.loads_c or rng.random() < 0.05 \
            else None
        b_major = "n_major" if rng.random() < 0.35 else "k_major"
        batched = rng.random() < 0.2
        facts = {
            "loads_c": evt.loads_c,
            "c_bytes": BYTES[c] if evt.loads_c else 0,
            "d_bytes": BYTES[d],
            "b_major": b_major,
            "aux_loads": evt.aux_loads,
            "aux_stores": evt.aux_stores,
            "vec_m": evt.vec_m,
            "vec_n": evt.vec_n,
            "reductions": evt.reductions,
            "long_latency": sum(evt.ops.get(op, 0) for op in LONG_LATENCY),
            "scalar_ptrs": len(evt.ptr_names),
        }
        cfg, final, bugs = choose_config(rng, facts, avoid_known_bugs)
        shape = None
        if rng.random() < 0.1:
            shape = [rng.randint(1, 5000), 8 * rng.randint(1, 600),
                     8 * rng.randint(1, 600)]
            if batched:
                shape.append(rng.randint(1, 4))
        self.known_bugs = sorted(set(bugs) | evt.known_bugs)
        self.evt_summary = evt.summary()
        outs = ["D"]
        outs += ["aux:%s" % t for t in evt.aux_stores.values()]
        outs += ["%s:%s" % (s, r) for s, r, _ in evt.reductions]
        self.evt_summary += "; outputs " + " ".join(outs)
        self.config = final
        tile = final["tile"]
        self.config_summary = "%s %dx%dx%d a/b %s%s c %s d %s%s%s" % (
            final["schedule"], tile[0], tile[1], tile[2], ab,
            " b:n_major" if b_major == "n_major" else "",
            c or "-", d, " batched" if batched else "",
            " shape" if shape else "")
        self.config_summary += " stages %d epi %dx%d sc %d sd %d%s%s%s%s" % (
            final["stages"], final["epi_tile"][0], final["epi_tile"][1],
            final["stages_c"], final["stages_d"],
            " reuse" if final["reuse_smem_c"] and evt.loads_c else "",
            " delay" if final["delay_tma_store"] else "",
            " persistent" if final["persistent"] else " tiles",
            " swz%d" % final["swizzle"] if final["swizzle"] != 1 else "")
        if final.get("producer_regs") and "consumer_regs" in cfg:
            self.config_summary += " regs %d/%d" % (final["producer_regs"],
                                                    final["consumer_regs"])

        head = "wsgemm.gemm @%s%s a(%s%s) b(%s%s)%s d(%s)" % (
            self.name, " batched" if batched else "", ab,
            ", k_major" if rng.random() < 0.1 else "", ab,
            ", n_major" if b_major == "n_major" else
            (", k_major" if rng.random() < 0.1 else ""),
            " c(%s)" % c if c else "", d)
        if shape:
            head += "\n    shape [%s]" % ", ".join(str(x) for x in shape)
        self._head, self._cfg, self._loads_c = head, cfg, evt.loads_c
        if cfg:
            head += "\n    config #wsgemm.config<%s>" % format_config(cfg)
        lines = ["// seed %d: %s" % (seed, self.config_summary),
                 "// EVT: %s" % self.evt_summary]
        if self.known_bugs:
            lines.append("// known compiler refusal: %s"
                         % ", ".join(self.known_bugs))
        lines.append(head + " {")
        lines.append("^bb0(%acc: f32):")
        lines += evt.lines
        lines.append("}")
        self.text = "\n".join(lines) + "\n"


    def twin_text(self):
        """The same GEMM with a plain epilogue (D = acc, + C when the EVT
        reads C), its planned epilogue tile and stage counts pinned: whether
        the config alone spills. The kernel is named <name>_plain."""
        cfg = dict(self._cfg)
        for key in ("stages", "epi_tile", "stages_c", "stages_d"):
            cfg[key] = self.config[key]
        head = self._head.replace("@%s " % self.name,
                                  "@%s_plain " % self.name, 1)
        body = ["^bb0(%acc: f32):"]
        if self._loads_c:
            body += ["  %c = epi.load_src : f32",
                     "  %r = arith.addf %acc, %c : f32",
                     "  epi.store %r : f32"]
        else:
            body.append("  epi.store %acc : f32")
        body.append("  epi.yield")
        return "\n".join(
            ["%s\n    config #wsgemm.config<%s> {" % (head, format_config(cfg))]
            + body + ["}"]) + "\n"


CONFIG_ORDER = ("tile", "cluster", "stages", "schedule", "persistent",
                "raster", "swizzle", "epi_tile", "stages_c", "stages_d",
                "fragment_size", "reuse_smem_c", "delay_tma_store",
                "producer_regs", "consumer_regs", "warp_stores")


def format_config(cfg):
    parts = []
    for key in CONFIG_ORDER:
        if key not in cfg:
            continue
        v = cfg[key]
        if isinstance(v, bool):
            s = "true" if v else "false"
        elif isinstance(v, (tuple, list)):
            s = "[%s]" % ", ".join(str(x) for x in v)
        else:
            s = str(v)
        parts.append("%s = %s" % (key, s))
    # Shuffle-free, but wrap long lines for readability.
    out, line = [], ""
    for p in parts:
        if line and len(line) + len(p) > 60:
            out.append(line + ",")
            line = ""
        line = (line + ", " if line else "") + p
    out.append(line)
    return "\n                          ".join(out)


def generate(seed, count, avoid_known_bugs=False):
    """The kernels seed .. seed+count-1."""
    return [Kernel(s, avoid_known_bugs) for s in range(seed, seed + count)]


def write(kernels, out_dir, per_file=1):
    """Writes the kernels, per_file to a file (evt_<first seed>.mlir);
    returns the paths."""
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for i in range(0, len(kernels), per_file):
        group = kernels[i:i + per_file]
        path = os.path.join(out_dir, "%s.mlir" % group[0].name)
        with open(path, "w") as fh:
            fh.write("\n".join(k.text for k in group))
        paths.append(path)
    return paths


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--seed", type=int, default=0,
                    help="first kernel seed (default 0)")
    ap.add_argument("--count", type=int, default=1,
                    help="number of kernels (default 1)")
    ap.add_argument("-o", "--output", required=True,
                    help="output directory, or - for stdout")
    ap.add_argument("--per-file", type=int, default=1,
                    help="kernels per .mlir file (default 1)")
    ap.add_argument("--avoid-known-bugs", action="store_true",
                    help="do not generate inputs the compiler is known to "
                         "refuse wrongly (%s)" % ", ".join(sorted(KNOWN_BUGS)))
    ap.add_argument("--list", action="store_true",
                    help="also print one line per kernel: name, config, EVT")
    args = ap.parse_args()
    if args.count < 1 or args.per_file < 1:
        ap.error("--count and --per-file must be positive")
    kernels = generate(args.seed, args.count, args.avoid_known_bugs)
    if args.output == "-":
        sys.stdout.write("\n".join(k.text for k in kernels))
    else:
        paths = write(kernels, args.output, args.per_file)
        print("wrote %d kernels in %d files to %s"
              % (len(kernels), len(paths), args.output), file=sys.stderr)
    if args.list:
        for k in kernels:
            print("%-10s %s | %s%s" % (
                k.name, k.config_summary, k.evt_summary,
                " | known: " + ",".join(k.known_bugs) if k.known_bugs else ""),
                file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
