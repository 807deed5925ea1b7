"""The launch path without a GPU (python/ws_gemm/_kernel.py's _Launcher,
the torch fast path of _tensors.py, torch_op's signature): a stand-in
`torch` module provides tensors, so the tests run where torch is not
installed. The native launch is replaced by a recorder; the checks are
what the launch path promises:
  - arguments checked once are remembered: the same torch tensors launch
    without building arguments again; any changed address, shape, stride,
    dtype or scalar builds (and checks) again;
  - a refused argument is refused again, with the same message, and a
    launch the runtime refused is not remembered;
  - no stream= means torch's current stream;
  - torch_op's schema from the manifest.

Environment: WSGEMM_TEST_DATA (unittests/Runtime/data)."""

import json
import os
import shutil
import sys
import tempfile
import types
import unittest

import ws_gemm
from ws_gemm import _kernel, _torch
from test_kernel import with_fake_cubins

DATA = os.environ.get("WSGEMM_TEST_DATA", "")


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


class FakeDevice:
    def __init__(self, kind, index):
        self.type, self.index = kind, index

    def __str__(self):
        return self.type if self.index is None else "%s:%d" % (self.type,
                                                               self.index)


class FakeTensor:
    """What the launch path reads of a torch.Tensor."""

    def __init__(self, shape, dtype, ptr, strides=None, device="cuda"):
        self.shape = tuple(shape)
        self._strides = tuple(strides) if strides else tuple(
            ws_gemm._tensors._packed_strides(shape))
        self.dtype = dtype
        self._ptr = ptr
        self.device = FakeDevice(device, 0 if device == "cuda" else None)

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return self._strides

    def get_device(self):
        return 0 if self.device.type == "cuda" else -1

    def dim(self):
        return len(self.shape)


def fake_torch():
    torch = types.ModuleType("torch")
    torch.Tensor = FakeTensor
    for name in ("float16", "bfloat16", "float32", "float64"):
        setattr(torch, name, FakeDtype(name))
    torch._C = types.SimpleNamespace(
        _cuda_getCurrentRawStream=lambda device: 0x5000 + device)
    return torch


class LaunchPathTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        shutil.copy(os.path.join(DATA, "gemm_bias_relu.json"), cls.tmp)
        with_fake_cubins(cls.tmp)
        cls.saved = sys.modules.get("torch")
        sys.modules["torch"] = cls.torch = fake_torch()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)
        if cls.saved is None:
            del sys.modules["torch"]
        else:
            sys.modules["torch"] = cls.saved

    def setUp(self):
        self.k = ws_gemm.Kernel.load(os.path.join(self.tmp,
                                                  "gemm_bias_relu.json"))
        launcher = self.k._launcher
        self.builds, self.launches = [], []
        build = launcher._build

        def counting_build(*args):
            self.builds.append(args)
            return build(*args)

        self.status = 0

        def native(handle, args, stream):
            self.launches.append((args, stream))
            return self.status

        launcher._build = counting_build
        launcher._native = native

    def tensors(self, M=256, N=512, K=128, base=0x100000):
        t, f16 = FakeTensor, self.torch.float16
        # gemm_bias_relu: A k_major M x K, B n_major K x N, C, D M x N,
        # bias per row (M).
        return dict(a=t((M, K), f16, base), b=t((K, N), f16, base + 0x100000),
                    c=t((M, N), f16, base + 0x200000),
                    d=t((M, N), f16, base + 0x300000),
                    bias=t((M,), f16, base + 0x400000))

    def launch(self, x, **scalars):
        s = dict(alpha=1.0, beta=0.5)
        s.update(scalars)
        return self.k.launch(x["a"], x["b"], x["d"], x["c"], bias=x["bias"],
                             **s)

    def test_same_tensors_build_once(self):
        x = self.tensors()
        for _ in range(5):
            self.assertEqual(self.launch(x), (256, 512, 128, 1))
        self.assertEqual(len(self.builds), 1)
        self.assertEqual(len(self.launches), 5)
        # One Args handle for all of them.
        self.assertEqual(len({id(a) for a, _ in self.launches}), 1)

    def test_any_change_builds_again(self):
        x = self.tensors()
        self.launch(x)
        self.launch(x, beta=0.25)                      # a scalar
        y = self.tensors(base=0x10000000)              # addresses
        self.launch(y)
        z = self.tensors(M=255)                        # a shape
        self.launch(z)
        w = self.tensors()                             # a row stride
        w["a"] = FakeTensor((256, 128), self.torch.float16, 0x100000,
                            strides=(136, 1))
        self.launch(w)
        self.assertEqual(len(self.builds), 5)
        self.launch(x)                                 # remembered
        self.assertEqual(len(self.builds), 5)

    def test_default_stream_is_torch_current(self):
        self.launch(self.tensors())
        self.assertEqual(self.launches[-1][1], 0x5000)
        self.k.launch(*[self.tensors()[n] for n in "abdc"],
                      bias=self.tensors()["bias"], alpha=1.0, beta=0.5,
                      stream=77)
        self.assertEqual(self.launches[-1][1], 77)

    def test_refused_again_with_the_same_message(self):
        x = self.tensors()
        x["bias"] = FakeTensor((255,), self.torch.float16, 0x500000)
        messages = []
        for _ in range(2):
            with self.assertRaises(ws_gemm.ArgumentError) as e:
                self.launch(x)
            messages.append(str(e.exception))
        self.assertEqual(messages[0], messages[1])
        self.assertIn("bias", messages[0])
        self.assertEqual(self.launches, [])

    def test_runtime_refusal_is_not_remembered(self):
        x = self.tensors()
        self.status = 3  # WSGEMMRT_ERROR_REFUSED
        with self.assertRaises(ws_gemm.ArgumentError):
            self.launch(x)
        self.status = 0
        self.launch(x)
        self.assertEqual(len(self.builds), 2)

    def test_cpu_tensor_refused(self):
        x = self.tensors()
        x["a"] = FakeTensor((256, 128), self.torch.float16, 0x100000,
                            device="cpu")
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"^A: the tensor is in cpu memory"):
            self.launch(x)

    def test_unsupported_dtype_refused(self):
        x = self.tensors()
        x["a"] = FakeTensor((256, 128), self.torch.float64, 0x100000)
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"^A: torch dtype float64 is none of"):
            self.launch(x)


class TorchOpSignatureTest(unittest.TestCase):
    def signature(self, name):
        with open(os.path.join(DATA, name)) as f:
            return _torch._Signature(ws_gemm.Kernel.from_memory(f.read()))

    def test_inputs_scalars_and_d(self):
        sig = self.signature("gemm_bias_relu.json")
        self.assertEqual(sig.schema(), "(Tensor a, Tensor b, Tensor? c, "
                         "Tensor bias, float alpha, float beta) -> Tensor")

    def test_aux_stores_and_reductions_are_outputs(self):
        sig = self.signature("evt_full.json")
        self.assertEqual(
            sig.schema(), "(Tensor a, Tensor b, Tensor res, Tensor rowbias, "
            "Tensor colscale, Tensor scale_a, Tensor scale_b) -> (Tensor, "
            "Tensor, Tensor, Tensor, Tensor)")
        self.assertEqual([sig.arg_name(p) for p in sig.outputs],
                         ["D", "pre", "rowmax", "colsum", "amax"])

    def test_reduce_store_kernel_refused(self):
        # A kernel that reduces into D (epi.store ... reduce add) updates D
        # in place: no functional custom op for it.
        with open(os.path.join(DATA, "gemm_bias_relu.json")) as f:
            manifest = json.loads(_kernel._strip_comments(f.read()))
        self.assertEqual(ws_gemm.Kernel.from_memory(manifest).d_reduce,
                         "none")
        manifest["operands"]["D"]["reduce"] = "add"
        k = ws_gemm.Kernel.from_memory(manifest)
        self.assertEqual(k.d_reduce, "add")
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"updates D in place \(epi.store \.\.\. "
                                    r"reduce add\).*call launch\(\) with D"):
            ws_gemm.torch_op(k)


if __name__ == "__main__":
    unittest.main()
