"""ws_gemm.Kernel and KernelFamily without a GPU: manifest queries, the
arrays' shapes, dtypes and strides checked against the manifest, the
runtime's refusals, and the launch's no-driver error.

Environment: WSGEMM_TEST_DATA (unittests/Runtime/data)."""

import json
import math
import os
import shutil
import tempfile
import unittest

import ws_gemm
from fakes import Allocator, CudaArray, DLPackArray

DATA = os.environ.get("WSGEMM_TEST_DATA", "")
# Without a driver: NoDriverError; with a driver but no GPU: cuInit's error.
NO_GPU = (ws_gemm.NoDriverError, ws_gemm.CudaError)
NO_GPU_MESSAGE = r"no CUDA driver: cannot load libcuda.so.1|cuInit"


def read(path):
    with open(path) as f:
        return f.read()


def with_fake_cubins(directory):
    """Gives every manifest under `directory` a stand-in cubin: a
    NUL-terminated non-ELF image passes the runtime's structural check
    (the driver would refuse it, but without a GPU the launch stops
    before)."""
    for root, _, files in os.walk(directory):
        for f in files:
            if f.endswith(".json") and f not in ("family.json", "tuning.json"):
                with open(os.path.join(root, f[:-5] + ".cubin"), "wb") as out:
                    out.write(b"not a cubin\0")


class DataKernelTest(unittest.TestCase):
    """A kernel loaded from unittests/Runtime/data/MANIFEST (copied beside a
    stand-in cubin) as cls.k."""
    MANIFEST = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        shutil.copy(os.path.join(DATA, cls.MANIFEST), cls.tmp)
        with_fake_cubins(cls.tmp)
        cls.k = ws_gemm.Kernel.load(os.path.join(cls.tmp, cls.MANIFEST))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)


class BlockScaleTest(DataKernelTest):
    """A block-scaled fp8 kernel (docs/fp8.md): the scale arrays are
    ceil(K/128) x M and ceil(N/128) x ceil(K/128), outermost first."""

    MANIFEST = "fp8_block_scaled.json"

    def arrays(self, M=1000, N=1040, K=208, kb=None, nb=None):
        new = Allocator()
        kb = -(-K // 128) if kb is None else kb
        nb = -(-N // 128) if nb is None else nb
        return dict(a=new((M, K), "f8e4m3"), b=new((N, K), "f8e4m3"),
                    d=new((M, N), "bf16"), bias=new((M,), "bf16"),
                    block_scale_a=new((kb, M), "f32"),
                    block_scale_b=new((nb, kb), "f32"))

    def test_shapes(self):
        self.assertEqual(self.k.param("block_scale_a").shape_dims, ("KB", "M"))
        self.assertEqual(self.k.param("block_scale_b").shape_dims,
                         ("NB", "KB"))
        self.assertEqual(self.k.validate(**self.arrays()),
                         ws_gemm.Problem(1000, 1040, 208, 1))
        self.assertEqual(self.k.validate(**self.arrays(K=96)).K, 96)

    def test_block_counts_refused(self):
        with self.assertRaisesRegex(
                ws_gemm.ArgumentError,
                r"block_scale_a \(shape \(3, 1000\)\) gives KB = 3, but "
                r"K = 208 has ceil\(K / 128\) = 2 blocks"):
            self.k.validate(**self.arrays(kb=3))
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"NB = 8, but N = 1040 has ceil"):
            self.k.validate(**self.arrays(nb=8))


class MixedInputTest(DataKernelTest):
    """A mixed-input kernel (docs/mixed-input.md): A is the pre-packed i4
    weight as bytes of shape (M, K / 2) (what prepack_i4 returns for a
    torch tensor), the scales and zero points KB x M, 16-byte aligned."""

    MANIFEST = "mixed_input_w4.json"

    def arrays(self, M=256, N=7, K=384, kind=CudaArray, a_cols=None):
        new = Allocator()
        kb = K // 128
        return dict(a=new((M, K // 2 if a_cols is None else a_cols), "u8",
                          kind),
                    b=new((N, K), "bf16", kind), d=new((M, N), "bf16", kind),
                    dequant_scale_a=new((kb, M), "bf16", kind),
                    dequant_zero_a=new((kb, M), "bf16", kind))

    def test_packed_weight(self):
        for kind in (CudaArray, DLPackArray):
            self.assertEqual(self.k.validate(**self.arrays(kind=kind)),
                             ws_gemm.Problem(256, 7, 384, 1))

    def test_refusals(self):
        args = self.arrays()
        args["a"] = Allocator()((256, 384), "bf16", DLPackArray)
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"^A: dtype bf16; the kernel takes a "
                                    r"pre-packed i4 weight as bytes"):
            self.k.validate(**args)
        # Unpacked bytes (M, K) give K twice B's.
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"B: shape \(7, 384\) gives K = 384, "
                                    r"but A \(packed i4 bytes of shape "
                                    r"\(256, 384\)\) gave K = 768"):
            self.k.validate(**self.arrays(a_cols=384))
        args = self.arrays()
        args["a"] = CudaArray((256, 192), "u8", ptr=0x7e0000000000,
                              strides=(200, 1))
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"A: strides \(200, 1\) are not dense"):
            self.k.validate(**args)
        # The runtime's rules: M a multiple of 64; 16-byte aligned scales.
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"M = 200: the pre-packed A needs M a "
                                    r"multiple of 64"):
            self.k.validate(**self.arrays(M=200))
        args = self.arrays()
        args["dequant_scale_a"] = CudaArray((3, 256), "bf16",
                                            ptr=0x7e0000000008)
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"dequant_scale_a: address 0x7e0000000008 "
                                    r"is not aligned to 16 bytes"):
            self.k.validate(**args)


class MixedInputGroup32Test(DataKernelTest):
    """GPTQ's finer groups (docs/mixed-input.md): mixed_input_w4.json with
    operands.A.dequant.group = 32, its scales and zero points [M, KG]
    (KG = K / 32), so the arrays are (K / 32, M)."""

    MANIFEST = "mixed_input_w4.json"  # edited in the copy

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        with open(os.path.join(DATA, cls.MANIFEST)) as f:
            manifest = json.load(f)
        manifest["operands"]["A"]["dequant"]["group"] = 32
        for p in manifest["params"]:
            if p.get("dequant") == "A":
                p["extent"] = ["M", "KG"]
        path = os.path.join(cls.tmp, cls.MANIFEST)
        with open(path, "w") as f:
            json.dump(manifest, f)
        with_fake_cubins(cls.tmp)
        cls.k = ws_gemm.Kernel.load(path)

    def arrays(self, M=256, N=7, K=384, groups=None):
        new = Allocator()
        kg = K // 32 if groups is None else groups
        return dict(a=new((M, K // 2), "u8"), b=new((N, K), "bf16"),
                    d=new((M, N), "bf16"),
                    dequant_scale_a=new((kg, M), "bf16"),
                    dequant_zero_a=new((kg, M), "bf16"))

    def test_scales_per_32(self):
        self.assertEqual(self.k.group_a, 32)
        self.assertEqual(self.k.param("dequant_scale_a").shape_dims,
                         ("KG", "M"))
        self.assertEqual(self.k.validate(**self.arrays()),
                         ws_gemm.Problem(256, 7, 384, 1))
        self.assertEqual(self.k.validate(**self.arrays(K=320)).K, 320)

    def test_groups_of_128_refused(self):
        with self.assertRaisesRegex(
                ws_gemm.ArgumentError,
                r"^dequant_scale_a: shape \(3, 256\) gives KG = 3, but "
                r"K = 384 in groups of 32 has KG = K / 32 = 12: the kernel "
                r"takes shape \(12, 256\)$"):
            self.k.validate(**self.arrays(groups=384 // 128))
        # Scales and zero points must agree with each other as well.
        args = self.arrays()
        args["dequant_zero_a"] = Allocator()((3, 256), "bf16")
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"dequant_zero_a: shape \(3, 256\) gives "
                                    r"KG = 3, but dequant_scale_a"):
            self.k.validate(**args)


class MixedInput8Test(DataKernelTest):
    """An 8-bit mixed-input kernel, int8 per channel (group 0): A is the
    pre-packed weight as bytes of shape (M, K) (uint8, int8 or fp8 e4m3:
    what prepack_b8 packs), the scales one per row, (M,)."""

    MANIFEST = "mixed_input_w8.json"

    def arrays(self, M=256, N=7, K=320, kind=CudaArray, a_dtype="u8",
               a_cols=None, scales=None):
        new = Allocator()
        return dict(a=new((M, K if a_cols is None else a_cols), a_dtype,
                          kind),
                    b=new((N, K), "bf16", kind), d=new((M, N), "bf16", kind),
                    dequant_scale_a=new(scales or (M,), "bf16", kind))

    def test_packed_weight(self):
        self.assertEqual(self.k.packing_a, "wsgemm.b8.m64k64.v1")
        self.assertEqual(self.k.param("dequant_scale_a").shape_dims, ("M",))
        for kind in (CudaArray, DLPackArray):
            for a_dtype in ("u8", "i8", "f8e4m3"):
                self.assertEqual(
                    self.k.validate(**self.arrays(kind=kind, a_dtype=a_dtype)),
                    ws_gemm.Problem(256, 7, 320, 1))

    def test_refusals(self):
        args = self.arrays()
        args["a"] = Allocator()((256, 320), "bf16", DLPackArray)
        with self.assertRaisesRegex(
                ws_gemm.ArgumentError,
                r"^A: dtype bf16; the kernel takes a pre-packed i8 weight as "
                r"bytes \(torch.uint8, int8 or float8_e4m3fn, shape \(M, K\): "
                r"ws_gemm.prepack_b8\)"):
            self.k.validate(**args)
        # An i4-sized A (M, K / 2) gives half B's K.
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"B: shape \(7, 320\) gives K = 320, "
                                    r"but A \(packed i8 bytes of shape "
                                    r"\(256, 160\)\) gave K = 160"):
            self.k.validate(**self.arrays(a_cols=160))
        # Scales in groups of 128 where the kernel takes one per row.
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"dequant_scale_a: shape \(3, 256\) has 2 "
                                    r"dimensions, the kernel takes M"):
            self.k.validate(**self.arrays(scales=(3, 256)))
        # The runtime's rule: K a multiple of 64 (the packing's blocks).
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"K = 96: the pre-packed A needs K a "
                                    r"multiple of 64 \(wsgemm.b8.m64k64.v1\)"):
            self.k.validate(**self.arrays(K=96))


class KernelTest(DataKernelTest):
    MANIFEST = "gemm_bias_relu.json"

    def arrays(self, M=1000, N=3000, K=200, kind=CudaArray, dtype="f16"):
        new = Allocator()
        return dict(a=new((M, K), dtype, kind), b=new((K, N), dtype, kind),
                    d=new((M, N), dtype, kind), c=new((M, N), dtype, kind),
                    bias=new((M,), dtype, kind), alpha=1.0, beta=0.5)

    def refused(self, pattern, **args):
        with self.assertRaises(ws_gemm.ArgumentError) as e:
            self.k.validate(**args)
        self.assertRegex(str(e.exception), pattern)
        return str(e.exception)

    def test_queries(self):
        k = self.k
        self.assertEqual(k.name, "gemm_bias_relu")
        self.assertEqual(k.arch, "sm_90a")
        self.assertFalse(k.batched)
        self.assertIsNone(k.static_shape)
        self.assertTrue(k.has_cubin)
        self.assertEqual(k.operands["A"], ws_gemm.Operand("f16", "k_major"))
        self.assertEqual(k.operands["B"], ws_gemm.Operand("f16", "n_major"))
        self.assertEqual(sorted(k.operands), ["A", "B", "C", "D"])
        self.assertEqual(k.scalars, ["alpha", "beta"])
        self.assertEqual(k.buffers, ["bias"])
        bias = k.param("bias")
        self.assertEqual((bias.kind, bias.dtype, bias.dims), ("pointer", "f16",
                                                              ("M",)))
        self.assertEqual(k.param("A").shape_dims, ("M", "K"))
        self.assertEqual(k.param("B").shape_dims, ("K", "N"))
        self.assertEqual([p.kind for p in k.params if p.kind == "size"],
                         ["size"] * 3)
        self.assertEqual(k.manifest["kernel"], "gemm_bias_relu")
        self.assertIn("operand A f16 k_major", k.describe())
        self.assertIn("gemm_bias_relu", repr(k))

    def test_validate_ragged(self):
        p = self.k.validate(**self.arrays())
        self.assertEqual(p, ws_gemm.Problem(1000, 3000, 200, 1))

    def test_dlpack_and_strides(self):
        args = self.arrays(kind=DLPackArray)
        self.assertEqual(self.k.validate(**args).N, 3000)
        self.assertEqual(args["a"].streams, [1])  # legacy default stream
        # A padded row stride (ld) is taken; one not a multiple of 16 bytes
        # is refused by the runtime.
        new = Allocator()
        args["a"] = new((1000, 200), kind=DLPackArray, strides=(256, 1))
        self.assertEqual(self.k.validate(**args).K, 200)
        args["a"] = new((1000, 200), kind=DLPackArray, strides=(204, 1))
        self.refused(r"^A: row stride ld \* 2 = 408 bytes \(ld = 204\) is not "
                     r"a multiple of 16 \(TMA requirement\): store its rows padded to "
                     r"ld = 208 elements", **args)

    def test_shape_refusals(self):
        args = self.arrays()
        args["d"] = CudaArray((1000, 3001), ptr=0x90000000)
        self.refused(r"^D: shape \(1000, 3001\) gives N = 3001, but B "
                     r"\(shape \(200, 3000\)\) gave N = 3000$", **args)
        args = self.arrays()
        args["b"] = CudaArray((3000, 200), ptr=0x90000000)
        self.refused(r"^B: shape \(3000, 200\) gives K = 3000, but A", **args)
        args = self.arrays()
        args["bias"] = CudaArray((3000,), ptr=0x90000000)
        self.refused(r"^bias: shape \(3000,\) gives M = 3000", **args)
        args = self.arrays()
        args["a"] = CudaArray((2, 1000, 200), ptr=0x90000000)
        self.refused(r"^A: shape \(2, 1000, 200\) has 3 dimensions, the kernel "
                     r"takes M x K \(tensor_map k_major\)$", **args)

    def test_dtype_refusals(self):
        args = self.arrays()
        args["a"] = DLPackArray((1000, 200), "bf16", ptr=0x90000000)
        self.refused(r"^A: dtype bf16, the kernel takes f16$", **args)
        args["a"] = CudaArray((1000, 200), "f32", ptr=0x90000000)
        self.refused(r"^A: dtype f32, the kernel takes f16$", **args)
        # __cuda_array_interface__ cannot name bf16: checked by size.
        args["a"] = CudaArray((1000, 200), "bf16", ptr=0x90000000)
        self.assertEqual(self.k.validate(**args).M, 1000)
        args["a"] = CudaArray((1000, 200), "f8e4m3", ptr=0x90000000)
        self.refused(r"^A: elements of 1 bytes, the kernel takes f16 \(2 "
                     r"bytes\)$", **args)
        args["a"] = DLPackArray((1000, 200), "f64", ptr=0x90000000)
        self.refused(r"^A: DLPack dtype \(code 2, 64 bits, 1 lanes\) is none",
                     **args)
        args["a"] = CudaArray((1000, 200), "f64", ptr=0x90000000)
        self.refused(r"^A: element type '<f8' \(__cuda_array_interface__\)",
                     **args)

    def test_memory_refusals(self):
        args = self.arrays()
        args["a"] = DLPackArray((1000, 200), ptr=0x90000000, device=1)
        self.refused(r"^A: the array is in cpu memory \(DLPack device 1\); "
                     r"the kernel needs CUDA device memory$", **args)
        args["a"] = [[1.0]]
        self.refused(r"^A: list is no device array", **args)
        args = self.arrays()
        args["a"] = CudaArray((1000, 200), ptr=0x90000008)
        self.refused(r"^A: base address 0x90000008 is not 16-byte aligned "
                     r"\(TMA requirement\); or use a kernel compiled with "
                     r"load_a = cp_async, align_a = 2 \(cp.async copies, any "
                     r"alignment of the element\)$", **args)
        args["a"] = CudaArray((1000, 200), ptr=0x90000000, strides=(1, 1000))
        self.refused(r"^A: the innermost dimension \(K\) has stride 1000; TMA "
                     r"needs it contiguous", **args)
        args["a"] = CudaArray((1000, 200), ptr=0x90000000, strides=(0, 1))
        self.refused(r"^A: stride 0 along M \(a broadcast", **args)
        args = self.arrays()
        args["bias"] = CudaArray((1000,), ptr=0x90000000, strides=(2,))
        self.refused(r"^bias: strides \(2,\) are not packed", **args)
        args["bias"] = CudaArray((1000,), ptr=0x90000001)
        self.refused(r"^bias: address 0x90000001 is not aligned to its element "
                     r"size \(2 bytes\)$", **args)
        # K = 100 f16: a packed A row is 200 bytes.
        self.refused(r"^A: row stride K \* 2 = 200 bytes is not a multiple of "
                     r"16 \(TMA requirement\): store its rows padded to ld = 104 "
                     r"elements", **self.arrays(K=100))

    def test_argument_refusals(self):
        args = self.arrays()
        del args["alpha"]
        self.refused(r"^alpha: missing value of the scalar parameter \(pass "
                     r"alpha=\.\.\.\)$", **args)
        args = self.arrays()
        args["gamma"] = 2.0
        self.refused(r"^gamma: unknown argument \(the kernel's buffers: bias; "
                     r"scalars: alpha, beta\)$", **args)
        # Sizes come from the arrays, never as arguments.
        args = self.arrays()
        args["M"] = 1000
        self.refused(r"^M: unknown argument", **args)
        args = self.arrays()
        args["bias"] = 1.0
        self.refused(r"^bias: a pointer parameter takes a device array, got "
                     r"the number 1\.0$", **args)
        args = self.arrays()
        args["alpha"] = args["bias"]
        self.refused(r"^alpha: a scalar parameter takes a number", **args)
        # C may be left out only when beta == 0 (the kernel skips it).
        args = self.arrays()
        del args["c"]
        self.refused(r"^C: null pointer \(C may be null only when beta == 0\)$",
                     **args)
        args["beta"] = 0.0
        self.assertEqual(self.k.validate(**args).M, 1000)
        self.refused(r"^M: must be >= 1, got 0$", **self.arrays(M=0))

    def test_launch_without_driver(self):
        # No NVIDIA driver here: the launch validates, then says why it
        # cannot go on (a driver without a device fails in cuInit).
        with self.assertRaises((ws_gemm.NoDriverError,
                                ws_gemm.CudaError)) as e:
            self.k.launch(**self.arrays())
        self.assertRegex(str(e.exception),
                         r"no CUDA driver: cannot load libcuda.so.1|cuInit")
        # Bad arguments are refused before the driver is looked for.
        with self.assertRaises(ws_gemm.ArgumentError):
            self.k.launch(**self.arrays(K=100))
        with self.assertRaises(NO_GPU):
            ws_gemm.synchronize()
        with self.assertRaisesRegex(NO_GPU, NO_GPU_MESSAGE):
            ws_gemm.init_device(0)
        with self.assertRaisesRegex(ws_gemm.ArgumentError, "no CUDA stream"):
            self.k.launch(stream="s", **self.arrays())

        class Stream:
            cuda_stream = 0
        with self.assertRaises((ws_gemm.NoDriverError, ws_gemm.CudaError)):
            self.k.launch(stream=Stream(), **self.arrays())

    def test_memory_kernel(self):
        text = read(os.path.join(self.tmp, "gemm_bias_relu.json"))
        k = ws_gemm.Kernel.from_memory(text, b"", "mem.json")
        self.assertFalse(k.has_cubin)
        self.assertEqual(k.validate(**self.arrays()).N, 3000)
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"^kernel 'gemm_bias_relu' has no cubin"):
            k.launch(**self.arrays())

    def test_manifest_errors(self):
        with self.assertRaisesRegex(ws_gemm.ManifestError,
                                    r"^manifest: /nonexistent/k.json: cannot "
                                    r"open file$"):
            ws_gemm.Kernel.load("/nonexistent/k.json")
        with self.assertRaisesRegex(ws_gemm.ManifestError, "invalid JSON"):
            ws_gemm.Kernel.from_memory("{", b"")
        bad = read(os.path.join(self.tmp, "gemm_bias_relu.json"))
        bad = bad.replace('"k_major"', '"x_major"', 1)
        with self.assertRaisesRegex(ws_gemm.ManifestError, "x_major"):
            ws_gemm.Kernel.from_memory(bad, b"")
        with self.assertRaisesRegex(ws_gemm.ManifestError,
                                    r"^cubin .*truncated|^cubin .*NUL"):
            ws_gemm.Kernel.from_memory(
                read(os.path.join(self.tmp, "gemm_bias_relu.json")),
                b"\x7fELF\x02\x01\x01")


class ActivationParamsTest(DataKernelTest):
    """A kernel whose clamp takes its upper bound at launch (issue 31,
    unittests/Runtime/data/gemm_bias_clamp.json): the
    bound is a scalar like alpha, named in kernel.scalars, required by
    validate() and launch() before anything reaches the GPU."""

    MANIFEST = "gemm_bias_clamp.json"

    def arrays(self, **scalars):
        new = Allocator()
        args = dict(a=new((1000, 200), "f16"), b=new((200, 3000), "f16"),
                    d=new((1000, 3000), "f16"), c=new((1000, 3000), "f16"),
                    bias=new((1000,), "f16"), alpha=1.0, beta=0.5)
        args.update(scalars)
        return args

    def test_parameter_is_a_scalar(self):
        self.assertEqual(self.k.scalars, ["alpha", "beta", "clamp_hi"])
        self.assertEqual(self.k.param("clamp_hi").kind, "scalar")
        self.assertEqual(self.k.validate(**self.arrays(clamp_hi=6.0)).M, 1000)

    def test_missing_parameter_refused(self):
        with self.assertRaisesRegex(
                ws_gemm.ArgumentError,
                r"^clamp_hi: missing value of the scalar parameter \(pass "
                r"clamp_hi=\.\.\.\)$"):
            self.k.validate(**self.arrays())
        # launch() checks before it needs a driver.
        with self.assertRaisesRegex(ws_gemm.ArgumentError, r"^clamp_hi: "):
            self.k.launch(**self.arrays())
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"^clamp_hi: a scalar parameter takes a "
                                    r"number"):
            self.k.validate(**self.arrays(clamp_hi="6"))


class FamilyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.dir = os.path.join(cls.tmp, "family")
        shutil.copytree(os.path.join(DATA, "family"), cls.dir)
        with_fake_cubins(cls.dir)
        cls.path = os.path.join(cls.dir, "family.json")
        cls.table = os.path.join(cls.dir, "tuning.json")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_select(self):
        f = ws_gemm.KernelFamily(self.path, self.table, sm_count=132)
        self.assertEqual(f.name, "gemm_bias_relu")
        self.assertEqual(f.variants, ["t128x128.cooperative",
                                      "t128x256.cooperative",
                                      "t64x128.warp_specialized"])
        self.assertEqual([k.tile[:2] for k in f.kernels],
                         [(128, 128), (128, 256), (64, 128)])
        s = f.select(4096, 4096, 4096)
        self.assertEqual((s.variant, s.tuned), ("t128x256.cooperative", True))
        self.assertIn("tuned: nearest table entry 4096x4096x4096", s.reason)
        s = f.select(512, 512, 4096)
        self.assertEqual(s.variant, "t64x128.warp_specialized")
        # Far from every entry: the heuristic.
        s = f.select(8, 8, 8)
        self.assertFalse(s.tuned)
        self.assertIn("heuristic", s.reason)
        untuned = ws_gemm.KernelFamily.load(self.path, sm_count=132)
        self.assertFalse(untuned.select(4096, 4096, 4096).tuned)

    def test_launch_without_driver(self):
        f = ws_gemm.KernelFamily(self.path, self.table, sm_count=132)
        new = Allocator()
        args = dict(a=new((512, 4096)), b=new((4096, 512)), d=new((512, 512)),
                    c=new((512, 512)), bias=new((512,)), alpha=1.0, beta=1.0)
        self.assertEqual(f.validate(**args), ws_gemm.Problem(512, 512, 4096, 1))
        with self.assertRaisesRegex(NO_GPU, NO_GPU_MESSAGE):
            f.launch(**args)
        args["bias"] = new((4096,))
        with self.assertRaisesRegex(ws_gemm.ArgumentError, "^bias: shape"):
            f.launch(**args)
        # Without an SM count the selection needs the device.
        g = ws_gemm.KernelFamily(self.path)
        with self.assertRaisesRegex(NO_GPU, NO_GPU_MESSAGE):
            g.select(64, 64, 64)

    def test_family_errors(self):
        with self.assertRaisesRegex(ws_gemm.ManifestError, "cannot open"):
            ws_gemm.KernelFamily("/nonexistent/family.json")
        other = os.path.join(self.tmp, "other.json")
        with open(other, "w") as f:
            f.write(read(self.table).replace(
                '"family": "gemm_bias_relu"', '"family": "other"'))
        with self.assertRaisesRegex(ws_gemm.ManifestError,
                                    "tuned for 'other', the family is "
                                    "'gemm_bias_relu'"):
            ws_gemm.KernelFamily(self.path, other, sm_count=132)

    def test_identity(self):
        self.assertEqual(ws_gemm.Param("r", "reduction", "f32", "", ("M",),
                                       "max").identity, -math.inf)


if __name__ == "__main__":
    unittest.main()
