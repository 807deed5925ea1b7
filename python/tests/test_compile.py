"""ws_gemm.compile through the C API: kernels in memory, diagnostics raised
with their locations, the runtime's Kernel over the result.

Environment: WSGEMM_EXAMPLES (examples/); WSGEMM_TEST_PTXAS=1 when ptxas
is there (the cubin cases)."""

import os
import tempfile
import unittest

import ws_gemm
from fakes import Allocator

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


def example(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return f.read()


class CompileTest(unittest.TestCase):
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
        (k,) = ws_gemm.compile(example("gemm_relu.mlir"))
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


if __name__ == "__main__":
    unittest.main()
