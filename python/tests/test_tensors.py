"""The DLPack reader against a real producer (NumPy, Debian's
python3-numpy: host arrays, so only the descriptor is compared, and a
launch would refuse them) and __cuda_array_interface__ descriptors."""

import unittest

import numpy as np

import ws_gemm
from ws_gemm import _tensors


class DLPackTest(unittest.TestCase):
    def read(self, arr):
        return _tensors.read_capsule("x", arr.__dlpack__())

    def test_layout(self):
        a = np.arange(12, dtype=np.float16).reshape(3, 4)
        info, dev = self.read(a)
        self.assertEqual(dev, 1)  # kDLCPU
        self.assertEqual((info.shape, info.strides, info.dtype, info.itemsize),
                         ((3, 4), (4, 1), "f16", 2))
        self.assertEqual(info.ptr, a.__array_interface__["data"][0])

    def test_views(self):
        a = np.zeros((5, 8, 16), dtype=np.float32)
        v = a[1:, 2:, :4]  # offset, padded rows and batches
        info, _ = self.read(v)
        self.assertEqual(info.shape, (4, 6, 4))
        self.assertEqual(info.strides, (128, 16, 1))
        self.assertEqual(info.dtype, "f32")
        self.assertEqual(info.ptr, v.__array_interface__["data"][0])
        t, _ = self.read(a[0].T)
        self.assertEqual((t.shape, t.strides), ((16, 8), (1, 16)))

    def test_refusals(self):
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"^x: DLPack dtype \(code 2, 64 bits"):
            self.read(np.zeros(4, dtype=np.float64))
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"^A: the array is in cpu memory \(DLPack "
                                    r"device 1\)"):
            ws_gemm.tensor_info("A", np.zeros((4, 8), dtype=np.float16))

    def test_cuda_array_interface(self):
        class Arr:
            __cuda_array_interface__ = {
                "shape": (4, 6), "typestr": "<f2", "data": (4096, False),
                "strides": (32, 2), "version": 3}
        info = ws_gemm.tensor_info("A", Arr())
        self.assertEqual((info.ptr, info.shape, info.strides, info.dtype),
                         (4096, (4, 6), (16, 1), "f16"))
        Arr.__cuda_array_interface__ = dict(Arr.__cuda_array_interface__,
                                            strides=(33, 2))
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"strides \(33, 2\) bytes are not "
                                    r"multiples of the element size 2"):
            ws_gemm.tensor_info("A", Arr())


if __name__ == "__main__":
    unittest.main()
