"""ws_gemm.compile through the C API: kernels in memory, diagnostics raised
with their locations, the runtime's Kernel over the result; a gemm without
a config as its default family (KernelFamily), a heavy epilogue's fallback
config, and the on-disk compile cache (hits, misses, damaged entries).

Environment: WSGEMM_EXAMPLES (examples/); WSGEMM_TEST_PTXAS=1 when ptxas
is there (the cubin cases)."""

import json
import os
import shutil
import tempfile
import unittest

import ws_gemm
from fakes import Allocator, CudaArray

EXAMPLES = os.environ.get("WSGEMM_EXAMPLES", "")
PTXAS = os.environ.get("WSGEMM_TEST_PTXAS") == "1"

SYNTAX = """wsgemm.gemm @broken a(f16) b(f16) d(f16) {
  epi.store : f32
}
"""
SMEM = """wsgemm.gemm @too_big a(f16) b(f16) d(f32) config #wsgemm.config<tile = [128, 256, 64], stages = 7> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
"""


# A 40-op chain on C: the planner refuses the default tile for its
# registers; the driver falls back to a smaller one by itself.
HEAVY = ["wsgemm.gemm @heavy_chain a(f16) b(f16) c(f16) d(f16) {",
         "^bb0(%acc: f32):", "  %c = epi.load_src : f32"]
_prev = "%acc"
for _i in range(10):
    HEAVY += ["  %%t%d = epi.tanh %s : f32" % (_i, _prev),
              "  %%s%d = epi.silu %%t%d : f32" % (_i, _i),
              "  %%m%d = arith.mulf %%s%d, %%c : f32" % (_i, _i),
              "  %%a%d = arith.addf %%m%d, %s : f32" % (_i, _i, _prev)]
    _prev = "%%a%d" % _i
HEAVY = "\n".join(HEAVY + ["  epi.store %s : f32" % _prev, "  epi.yield",
                           "}", ""])
EXPLICIT = """wsgemm.gemm @explicit a(f16) b(f16) d(f16) config #wsgemm.config<tile = [128, 256, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
"""
# A GPTQ int4 weight without a config (docs/mixed-input.md, "The default
# family"): the planner's default for prefill, decode tilings beside it.
W4 = """wsgemm.gemm @w4 a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
"""
W4_VARIANTS = ["v0.128x128x128.cooperative",
               "v1.128x16x128.cooperative.split_k4.ctas2",
               "v2.256x16x128.cooperative.split_k4",
               "v3.256x16x128.cooperative.split_k2",
               "v4.128x16x128.cooperative.stream_k",
               "v5.128x32x128.cooperative.split_k4",
               "v6.128x32x128.cooperative.stream_k",
               "v7.128x64x128.cooperative.split_k2",
               "v8.128x64x128.cooperative.stream_k",
               "v9.128x256x64.cooperative",
               "v10.128x64x128.cooperative.split_k4",
               "v11.128x16x256.cooperative.stream_k.ctas2",
               "v12.128x128x128.cooperative.split_k2",
               "v13.128x192x128.cooperative",
               "v14.128x192x128.cooperative.split_k2",
               "v15.128x16x128.cooperative.split_k2.ctas2"]
_cache = None
# compile(chip=None) compiles for the GPU present (DeviceChipTest); the
# other tests expect sm_90a's kernels whatever GPU, if any, runs them.
REAL_DEVICE_CHIP = ws_gemm._runtime.device_chip


def pinned_device_chip(ordinal=None):
    raise ws_gemm.NoDriverError("test_compile pins the chip to sm_90a")


def setUpModule():
    # Every compile() here caches into a directory of its own.
    global _cache
    _cache = tempfile.mkdtemp(prefix="ws-gemm-test-cache-")
    os.environ["WSGEMM_CACHE_DIR"] = _cache
    ws_gemm._runtime.device_chip = pinned_device_chip


def tearDownModule():
    ws_gemm._runtime.device_chip = REAL_DEVICE_CHIP
    shutil.rmtree(_cache, ignore_errors=True)



def example(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return f.read()


class CompileTest(unittest.TestCase):
    def assertPicks(self, kernel, picks):
        """The variant (its "vN" prefix) kernel.select picks per M x N x K
        shape, against `picks`."""
        got = {s: kernel.select(*s).variant.split(".")[0] for s in picks}
        self.assertEqual(got, picks)

    def test_ptx(self):
        kernels = ws_gemm.compile(example("gemm_relu.mlir"), emit="ptx")
        self.assertEqual([k.name for k in kernels], ["gemm_bias_relu"])
        self.assertEqual(kernels.diagnostics, [])
        k = kernels.kernel("gemm_bias_relu")
        self.assertEqual(k.manifest["kernel"], "gemm_bias_relu")
        self.assertIn("wgmma.mma_async", k.ptx)
        self.assertEqual(k.cubin, b"")
        with self.assertRaisesRegex(KeyError, "no kernel 'x' \\(compiled: "
                                    "gemm_bias_relu\\)"):
            kernels.kernel("x")
        # The runtime reads the manifest from memory: validate, no launch.
        kernel = k.load()
        self.assertFalse(kernel.has_cubin)
        self.assertEqual(kernel.scalars, ["alpha", "beta"])
        # B defaults to k_major: N x K, K contiguous (nn.Linear's weight).
        self.assertEqual(kernel.operands["B"].layout, "k_major")
        new = Allocator()
        p = kernel.validate(new((777, 96)), new((1032, 96)), new((777, 1032)),
                            new((777, 1032)), bias=new((777,)), alpha=1.0,
                            beta=0.0)
        self.assertEqual(p, ws_gemm.Problem(777, 1032, 96, 1))
        with self.assertRaisesRegex(ws_gemm.ArgumentError, "has no cubin"):
            kernel.launch(new((777, 96)), new((1032, 96)), new((777, 1032)),
                          new((777, 1032)), bias=new((777,)), alpha=1.0,
                          beta=0.0)

    def test_family_ptx(self):
        # No config: the default family; its first variant is the kernel
        # ws-gemm-compile writes (family="none").
        (f,) = ws_gemm.compile(example("gemm_relu.mlir"), emit="ptx",
                               family="default")
        self.assertIsInstance(f, ws_gemm.CompiledFamily)
        self.assertEqual([v.id for v in f.variants], [
            "v0.128x128x64.cooperative", "v1.128x256x64.cooperative",
            "v2.128x256x64.cooperative.stream_k",
            "v3.128x224x64.cooperative", "v4.128x256x64.cooperative",
            "v5.128x128x64.cooperative", "v6.128x256x64.cooperative"])
        self.assertIn("tile = [128, 256, 64]", f.variants[2].config)
        self.assertIn("scheduler = stream_k", f.variants[2].config)
        # For tensors TMA cannot describe: outputs of any stride; then A,
        # B and C copied at their elements' alignment; then C alone.
        self.assertIn("store = direct", f.variants[4].config)
        self.assertNotIn("cp_async", f.variants[4].config)
        self.assertIn("load_a = cp_async, load_b = cp_async, align_a = 2, "
                      "align_b = 2", f.variants[5].config)
        self.assertIn("load_c = cp_async", f.variants[5].config)
        # C (beta's residual) alone copied, A and B by TMA.
        self.assertIn("load_c = cp_async, align_c = 2", f.variants[6].config)
        self.assertNotIn("load_a = cp_async", f.variants[6].config)
        self.assertEqual(f.family["format"], "ws-gemm-family")
        self.assertEqual([v["id"] for v in f.family["variants"]],
                         [v.id for v in f.variants])
        self.assertEqual(f.manifest["kernel"], "gemm_bias_relu")
        self.assertIn("wgmma.mma_async", f.ptx)
        (k,) = ws_gemm.compile(example("gemm_relu.mlir"), emit="ptx")
        self.assertEqual(f.default.manifest_json, k.manifest_json)
        with tempfile.TemporaryDirectory() as d:
            path = f.save(d)
            self.assertEqual(sorted(os.listdir(d)), sorted(
                ["family.json"] + [v.id for v in f.variants]))
            with open(path) as fh:
                self.assertEqual(fh.read(), f.family_json)
        with self.assertRaisesRegex(ValueError, "family: 'all'"):
            ws_gemm.compile(SYNTAX, family="all")

    @unittest.skipUnless(PTXAS, "needs ptxas (WSGEMM_TEST_PTXAS=1)")
    def test_family_cubin(self):
        (f,) = ws_gemm.compile(example("gemm_relu.mlir"))
        self.assertIsInstance(f, ws_gemm.CompiledFamily)
        self.assertEqual(f.cubin[:4], b"\x7fELF")
        kernel = f.load(sm_count=132)
        self.assertIsInstance(kernel, ws_gemm.KernelFamily)
        self.assertEqual(kernel.variants, [v.id for v in f.variants])
        self.assertTrue(kernel.has_cubin)
        self.assertEqual(kernel.scalars, ["alpha", "beta"])
        self.assertEqual(kernel.operands["B"].layout, "k_major")
        # The untuned heuristic (docs/tuning.md, "The default family").
        self.assertPicks(kernel, {
            (4096, 4096, 4096): "v1",
            (8192, 14336, 4096): "v1",
            (3456, 5120, 4096): "v2",
            (1024, 1024, 16384): "v2",
            (1000, 1000, 1000): "v2",
            (512, 4096, 4096): "v0",
            (512, 28672, 8192): "v3",
            (512, 14336, 4096): "v3"})
        new = Allocator()
        p = kernel.validate(new((777, 96)), new((1032, 96)), new((777, 1032)),
                            new((777, 1032)), bias=new((777,)), alpha=1.0,
                            beta=0.0)
        self.assertEqual(p, ws_gemm.Problem(777, 1032, 96, 1))
        # An odd N (C's and D's rows of 2062 bytes): the TMA variants
        # refuse C; the family checks by the copying variant's rules,
        # as its launch() does, and refuses what none takes.
        arrays = (new((777, 96)), new((1031, 96)), new((777, 1031)),
                  new((777, 1031)))
        args = dict(bias=new((777,)), alpha=1.0, beta=0.5)
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    "load_c = cp_async"):
            kernel.kernels[0].validate(*arrays, **args)
        self.assertEqual(kernel.validate(*arrays, **args),
                         ws_gemm.Problem(777, 1031, 96, 1))
        with self.assertRaisesRegex(ws_gemm.ArgumentError, "bias"):
            kernel.validate(*arrays, bias=new((776,)), alpha=1.0, beta=0.5)
        with self.assertRaises((ws_gemm.NoDriverError, ws_gemm.CudaError)):
            kernel.launch(new((256, 128)), new((256, 128)), new((256, 256)),
                          new((256, 256)), bias=new((256,)), alpha=1.0,
                          beta=1.0)

    def test_mixed_input_family_ptx(self):
        (f,) = ws_gemm.compile(W4, emit="ptx", family="default")
        self.assertEqual([v.id for v in f.variants], W4_VARIANTS)
        self.assertEqual(f.family["refused"], [])
        # The decode tilings store directly (D's leading dimension is the
        # token count); v0 and v9 are the prefill kernels.
        for v in f.variants[1:9] + f.variants[10:]:
            self.assertIn("store = direct", v.config)
        # v11 streams k-tiles of 256 for a 4-bit weight with groups of 128
        # only: an 8-bit weight, and groups of 64, keep 128 (at 256 they
        # spill or serialize the wgmmas; FamilyMembers.cpp).
        for other in ("a(i8) b(bf16) d(bf16)\n    dequant_a "
                      "#wsgemm.dequant<scale = bf16, group = 0, zero = none>",
                      "a(i4) b(bf16) d(bf16)\n    dequant_a "
                      "#wsgemm.dequant<scale = bf16, group = 64, zero = ui4>"):
            source = W4.replace(W4[W4.index("a(i4)"):W4.index(" {")], other)
            (g,) = ws_gemm.compile(source, emit="ptx", family="default")
            self.assertEqual(g.variants[11].id,
                             "v11.128x16x128.cooperative.stream_k.ctas2")
            self.assertEqual(g.family["refused"], [])

    @unittest.skipUnless(PTXAS, "needs ptxas (WSGEMM_TEST_PTXAS=1)")
    def test_mixed_input_family_cubin(self):
        (f,) = ws_gemm.compile(W4)
        kernel = f.load(sm_count=132)
        self.assertEqual(kernel.variants, W4_VARIANTS)
        # The untuned estimate picks what ws-gemm-tune measured fastest
        # among the members at these shapes (Llama-3 8B and 70B weights,
        # N_out x tokens x K; docs/mixed-input.md, "The default family"),
        # and the two not tuned: one token (16 tokens' tiling) and 4096
        # (prefill). v1 runs two CTAs per SM: where a wave of 256 split-K
        # units pairs up on 132 SMs (8192 x 16 x 8192 and x 28672) it beat
        # v2 by 1.03-1.07x on an H200 ("Two CTAs per SM"). v11 (stream-K,
        # two CTAs per SM) takes the weights of 132-264 tiles of 128 rows,
        # where v3 leaves a partial second wave: 1.00-1.24x faster than the
        # old pick there. v15 (split-K 2, two CTAs per SM) takes the weights
        # whose 2 x tiles units fill the 264 CTAs once (48-128 tiles of 128
        # rows): 1.01-1.07x faster than v3 at 14336 x 4096 and v1 at 8192 x
        # 8192 (docs/mixed-input.md, "Two splits over two CTAs per SM").
        self.assertPicks(kernel, {
            (4096, 16, 4096): "v1",
            (14336, 16, 4096): "v15",
            (4096, 16, 14336): "v1",
            (8192, 16, 8192): "v15",
            (28672, 16, 8192): "v11",
            (28672, 1, 4096): "v11",
            (22016, 16, 4096): "v11",
            (8192, 16, 28672): "v15",
            (4096, 1, 4096): "v1",
            (4096, 32, 4096): "v5",
            (14336, 32, 4096): "v6",
            # The 28672-row weights: one tile column, whose stream-K
            # region shares only B's panel (Select.cpp): stream-K, 1.13-
            # 1.47x faster than split-K there on an H200.
            (28672, 32, 8192): "v6",
            (28672, 64, 8192): "v8",
            (28672, 64, 4096): "v8",
            (8192, 64, 8192): "v7",
            (14336, 64, 4096): "v7",
            # 64 tokens on the 4096-row weights: 32 tiles split 4 ways
            # (1.26-1.45x faster than v8 on an H200, docs/mixed-input.md).
            (4096, 64, 4096): "v10",
            (4096, 64, 14336): "v10",
            # 65-400 tokens: tiles of 128 tokens (v12) and 192 (v13, v14)
            # dequantize each weight tile once per 128 or 192 tokens;
            # measured fastest of the members at these points on an H200,
            # 1.2-1.8x the picks before them (docs/mixed-input.md, "Tiles
            # of 128 and 192 tokens"). At 4096 rows and 128 tokens v7 stays.
            (8192, 128, 8192): "v12",
            (8192, 128, 28672): "v12",
            (4096, 128, 4096): "v7",
            (14336, 128, 4096): "v0",
            (8192, 160, 8192): "v14",
            (8192, 192, 28672): "v14",
            (14336, 192, 4096): "v13",
            (4096, 192, 4096): "v12",
            (4096, 256, 14336): "v12",
            (8192, 384, 8192): "v13",
            (8192, 256, 8192): "v0",
            (14336, 256, 4096): "v9",
            (4096, 4096, 4096): "v9"})
        # One token: D (M x 1) has a 2-byte row stride that no TMA store
        # writes; the launch takes a store = direct variant instead of
        # refusing by the first variant's rules (it stops at the driver
        # here, after every check).
        new = Allocator()
        for n in (1, 7):
            with self.assertRaises((ws_gemm.NoDriverError,
                                    ws_gemm.CudaError)):
                kernel.launch(new((4096, 2048), "u8"), new((n, 4096), "bf16"),
                              new((4096, n), "bf16"),
                              dequant_scale_a=new((32, 4096), "bf16"),
                              dequant_zero_a=new((32, 4096), "bf16"))
        # A misaligned scale is still refused before the driver.
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    "not aligned to 16 bytes"):
            kernel.launch(new((4096, 2048), "u8"), new((1, 4096), "bf16"),
                          new((4096, 1), "bf16"),
                          dequant_scale_a=CudaArray((32, 4096), "bf16",
                                                    ptr=new.next + 2),
                          dequant_zero_a=new((32, 4096), "bf16"))

    def test_explicit_config(self):
        (k,) = ws_gemm.compile(EXPLICIT, emit="ptx", family="default")
        self.assertNotIsInstance(k, ws_gemm.CompiledFamily)
        self.assertEqual(k.load().tile[:2], (128, 256))

    def test_heavy_epilogue(self):
        # Refused at the default tile (registers): an explicit config stays
        # refused, no config falls back to a tile the planner accepts.
        text = HEAVY.replace("d(f16) {", "d(f16) config #wsgemm.config<"
                             "tile = [128, 128, 64]> {")
        with self.assertRaisesRegex(ws_gemm.CompileError,
                                    "the epilogue would spill registers"):
            ws_gemm.compile(text, name="heavy.mlir", emit="ptx")
        (k,) = ws_gemm.compile(HEAVY, name="heavy.mlir", emit="ptx")
        self.assertEqual(k.load().tile[:2], (128, 64))
        (f,) = ws_gemm.compile(HEAVY, name="heavy.mlir", emit="ptx",
                               family="default")
        self.assertEqual(f.default.manifest_json, k.manifest_json)
        for v in f.variants:
            self.assertIn("tile = [128, 64, 64]", v.config)
        self.assertTrue(f.family["refused"] == [] or all(
            r["reason"] for r in f.family["refused"]))
        remarks = [x for x in ws_gemm.compile(
            HEAVY, name="heavy.mlir", emit="ptx", family="default").diagnostics
            if x.severity == "remark"]
        self.assertEqual(len(remarks), 1)
        self.assertRegex(remarks[0].message, "refuses its default .*the "
                         "epilogue would spill registers.*compiled with "
                         "#wsgemm.config<tile = \\[128, 64, 64\\]>")

    def test_linalg(self):
        kernels = ws_gemm.compile(example("mlp_linalg.mlir"), emit="ptx")
        self.assertEqual([k.name for k in kernels], ["mlp_gemm0", "mlp_gemm1"])

    def test_syntax_error(self):
        with self.assertRaises(ws_gemm.CompileError) as e:
            ws_gemm.compile(SYNTAX, name="syntax.mlir", emit="ptx")
        err = e.exception
        self.assertEqual(str(err),
                         "syntax.mlir:2:12: error: expected SSA operand")
        self.assertEqual(err.diagnostics, [ws_gemm.Diagnostic(
            "error", "syntax.mlir", 2, 12, "expected SSA operand")])
        self.assertEqual(str(err.errors[0]),
                         "syntax.mlir:2:12: error: expected SSA operand")

    def test_planner_error_with_note(self):
        with self.assertRaises(ws_gemm.CompileError) as e:
            ws_gemm.compile(SMEM, name="smem.mlir", emit="ptx")
        d = e.exception.diagnostics
        self.assertEqual((d[0].severity, d[0].file, d[0].line, d[0].column),
                         ("error", "smem.mlir", 1, 1))
        self.assertRegex(d[0].message, r"^needs 377968 bytes of shared memory, "
                         r"232448 available: over by 145520")
        self.assertEqual(d[1].severity, "note")
        self.assertIn("smem.mlir:1:1: error: needs 377968", str(e.exception))

    def test_bad_options(self):
        with self.assertRaisesRegex(ValueError, "emit: 'elf'"):
            ws_gemm.compile(SYNTAX, emit="elf")
        with self.assertRaisesRegex(ValueError, "spills: 'x'"):
            ws_gemm.compile(SYNTAX, spills="x")
        with self.assertRaisesRegex(ws_gemm.CompileError, "opt"):
            ws_gemm.compile(example("gemm_relu.mlir"), emit="ptx",
                            opt_level=9)

    @unittest.skipUnless(PTXAS, "needs ptxas (WSGEMM_TEST_PTXAS=1)")
    def test_cubin(self):
        (k,) = ws_gemm.compile(example("gemm_relu.mlir"), family="none")
        self.assertEqual(k.cubin[:4], b"\x7fELF")
        self.assertIn("registers", k.ptxas_log)
        kernel = k.load()
        self.assertTrue(kernel.has_cubin)
        with tempfile.TemporaryDirectory() as d:
            path = k.save(d)
            self.assertEqual(sorted(os.listdir(d)), [
                "gemm_bias_relu.cubin", "gemm_bias_relu.json",
                "gemm_bias_relu.ptx"])
            loaded = ws_gemm.Kernel.load(path)
            self.assertEqual(loaded.describe(), kernel.describe())
        new = Allocator()
        with self.assertRaises((ws_gemm.NoDriverError, ws_gemm.CudaError)):
            kernel.launch(new((256, 128)), new((256, 128)), new((256, 256)),
                          new((256, 256)), bias=new((256,)), alpha=1.0,
                          beta=1.0)


class CacheTest(unittest.TestCase):
    """The compile cache: WSGEMM_CACHE_DIR/<sha256 of text, options,
    toolchain>/."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ws-gemm-cache-")
        self.old = os.environ.get("WSGEMM_CACHE_DIR")
        os.environ["WSGEMM_CACHE_DIR"] = self.dir

    def tearDown(self):
        os.environ["WSGEMM_CACHE_DIR"] = self.old
        shutil.rmtree(self.dir, ignore_errors=True)

    def entries(self):
        return sorted(e for e in os.listdir(self.dir) if not
                      e.startswith("."))

    def test_hit_and_misses(self):
        text = example("gemm_relu.mlir")
        first = ws_gemm.compile(text, emit="ptx", family="default")
        self.assertFalse(first.cached)
        self.assertEqual(len(self.entries()), 1)
        again = ws_gemm.compile(text, emit="ptx", family="default")
        self.assertTrue(again.cached)
        self.assertEqual(again.diagnostics, first.diagnostics)
        (a,), (b,) = first, again
        self.assertEqual([v.id for v in a.variants],
                         [v.id for v in b.variants])
        for x, y in zip(a.variants, b.variants):
            self.assertEqual((x.manifest_json, x.ptx, x.cubin, x.config),
                             (y.manifest_json, y.ptx, y.cubin, y.config))
        self.assertEqual(a.family_json, b.family_json)
        self.assertTrue(os.path.isfile(os.path.join(b.directory,
                                                    "family.json")))
        # Another text, other options: misses, entries of their own.
        self.assertFalse(ws_gemm.compile(text + "\n", emit="ptx",
                                         family="default").cached)
        self.assertFalse(ws_gemm.compile(text, emit="ptx", opt_level=2,
                                         family="default").cached)
        self.assertFalse(ws_gemm.compile(text, emit="ptx").cached)
        self.assertEqual(len(self.entries()), 4)
        # Warnings come back from the cache too; failures are not cached.
        with self.assertRaises(ws_gemm.CompileError):
            ws_gemm.compile(SMEM, emit="ptx")
        self.assertEqual(len(self.entries()), 4)
        # cache=False neither reads nor writes.
        self.assertFalse(ws_gemm.compile(text, emit="ptx", family="default",
                                         cache=False).cached)
        self.assertEqual(len(self.entries()), 4)

    def test_damaged_entry(self):
        text = EXPLICIT
        ws_gemm.compile(text, emit="ptx")
        (entry,) = self.entries()
        path = os.path.join(self.dir, entry)
        for damage in ("truncate", "index", "remove"):
            if damage == "truncate":
                with open(os.path.join(path, "explicit.ptx"), "w") as f:
                    f.write("// cut")
            elif damage == "index":
                with open(os.path.join(path, "index.json"), "w") as f:
                    f.write("{not json")
            else:
                os.remove(os.path.join(path, "explicit.json"))
            r = ws_gemm.compile(text, emit="ptx")
            self.assertFalse(r.cached, damage)
            self.assertIn("wgmma.mma_async", r[0].ptx)
            self.assertTrue(ws_gemm.compile(text, emit="ptx").cached)
            self.assertEqual(self.entries(), [entry])
        with open(os.path.join(path, "index.json")) as f:
            self.assertEqual(json.load(f)["format"], "ws-gemm-compile-cache")

    def test_entry_written_meanwhile_kept(self):
        # Two processes that missed together: the second keeps the first's
        # good entry (a reader may be using it) and leaves no temporary.
        from ws_gemm import _compile
        r = ws_gemm.compile(EXPLICIT, emit="ptx")
        (entry,) = self.entries()
        index = os.path.join(self.dir, entry, "index.json")
        inode = os.stat(index).st_ino
        _compile._cache_store(self.dir, entry, r)
        self.assertEqual(os.stat(index).st_ino, inode)
        self.assertEqual(os.listdir(self.dir), [entry])


if __name__ == "__main__":
    unittest.main()


PLAIN = """wsgemm.gemm @plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
"""


class DeviceChipTest(unittest.TestCase):
    """compile(chip=None) compiles for the GPU this process would launch on
    (device_chip(): the runtime's DeviceGetChip), sm_90a without one; the
    cache keeps the chips apart."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ws-gemm-cache-")
        self.old = os.environ.get("WSGEMM_CACHE_DIR")
        os.environ["WSGEMM_CACHE_DIR"] = self.dir
        ws_gemm._runtime.device_chip = REAL_DEVICE_CHIP

    def tearDown(self):
        ws_gemm._runtime.device_chip = pinned_device_chip
        os.environ["WSGEMM_CACHE_DIR"] = self.old
        shutil.rmtree(self.dir, ignore_errors=True)

    def arch(self, **kw):
        (k,) = ws_gemm.compile(PLAIN, emit="ptx", family="none", **kw)
        return k.manifest["arch"], k.ptx

    def test_the_device_here(self):
        try:
            chip = ws_gemm.device_chip()
            self.assertIn(chip, ["sm_90a", "sm_80", "sm_86", "sm_89"])
        except (ws_gemm.NoDriverError, ws_gemm.CudaError,
                ws_gemm.ArgumentError):
            chip = "sm_90a"  # no driver, device or kernels for it
        self.assertEqual(self.arch(cache=False)[0], chip)
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    "a buffer of at least 8 bytes"):
            ws_gemm._runtime.check(ws_gemm._runtime.api().wsgemmRtDeviceGetChip(
                0, None, 0))

    def test_detected_chip_compiles_and_caches_apart(self):
        ws_gemm._runtime.device_chip = lambda ordinal=None: "sm_80"
        arch, ptx = self.arch()
        self.assertEqual(arch, "sm_80")
        self.assertIn("mma.sync.aligned.m16n8k16", ptx)
        self.assertNotIn("wgmma", ptx)

        def no_driver(ordinal=None):
            raise ws_gemm.NoDriverError("no libcuda.so.1")
        ws_gemm._runtime.device_chip = no_driver
        first = ws_gemm.compile(PLAIN, emit="ptx", family="none")
        self.assertFalse(first.cached)
        self.assertEqual(first[0].manifest["arch"], "sm_90a")
        self.assertIn("wgmma.mma_async", first[0].ptx)
        # A chip written is not asked of the device.
        ws_gemm._runtime.device_chip = lambda ordinal=None: self.fail(
            "device_chip called with chip given")
        self.assertEqual(self.arch(chip="sm_89", cache=False)[0], "sm_89")
