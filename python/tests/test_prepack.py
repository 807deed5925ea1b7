"""The weight pre-packings from Python (docs/mixed-input.md): prepack_i4
then unpack_i4, and prepack_b8 then unpack_b8, are the identity, elements
land where the layouts say, and a shape or value a packing cannot hold is
refused by name. Host only: no GPU."""

import random
import unittest

import ws_gemm


class PrepackTest(unittest.TestCase):
    def test_round_trip(self):
        m, k, l = 128, 192, 2
        rng = random.Random(3)
        q = bytes(rng.randrange(16) for _ in range(m * k * l))
        packed = ws_gemm.prepack_i4(q, m, k, l)
        self.assertEqual(len(packed), m * k * l // 2)
        self.assertEqual(ws_gemm.unpack_i4(packed, m, k, l), q)

    def test_first_nibble(self):
        q = bytearray(64 * 64)
        q[1] = 0xA  # (0, 1): thread 0, register 0, high half: byte 2
        packed = ws_gemm.prepack_i4(bytes(q), 64, 64)
        self.assertEqual(packed[2], 0xA)
        self.assertEqual(sum(packed), 0xA)

    def test_refusals(self):
        with self.assertRaisesRegex(ws_gemm.ArgumentError, "M = 100"):
            ws_gemm.prepack_i4(bytes(100 * 64), 100, 64)
        q = bytearray(64 * 64)
        q[7] = 16
        with self.assertRaisesRegex(ws_gemm.ArgumentError, r"q\[0\]\[0\]\[7\] = 16"):
            ws_gemm.prepack_i4(bytes(q), 64, 64)


class PrepackB8Test(unittest.TestCase):
    def test_round_trip(self):
        m, k, l = 128, 192, 2
        rng = random.Random(5)
        q = bytes(rng.randrange(256) for _ in range(m * k * l))
        packed = ws_gemm.prepack_b8(q, m, k, l)
        self.assertEqual(len(packed), m * k * l)
        self.assertEqual(sorted(packed), sorted(q))
        self.assertEqual(ws_gemm.unpack_b8(packed, m, k, l), q)

    def test_byte_map(self):
        # (r, c) -> byte: thread t at t * 16, k16 steps 2 and 3 in the
        # unit's second 2048 bytes.
        for (r, c), byte in (((0, 1), 1), ((8, 0), 2), ((0, 8), 4),
                             ((0, 16), 8), ((0, 2), 16), ((1, 0), 64),
                             ((16, 0), 512), ((0, 32), 2048)):
            q = bytearray(64 * 64)
            q[r * 64 + c] = 0x80
            packed = ws_gemm.prepack_b8(bytes(q), 64, 64)
            self.assertEqual(packed.index(0x80), byte, (r, c))

    def test_numpy_int8(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("no numpy")
        q = np.arange(-128, 128, dtype=np.int8).repeat(16)
        packed = ws_gemm.prepack_b8(q, 64, 64)
        self.assertEqual(ws_gemm.unpack_b8(packed, 64, 64), q.tobytes())

    def test_refusals(self):
        with self.assertRaisesRegex(ws_gemm.ArgumentError,
                                    r"K = 96: a pre-packed weight has a "
                                    r"multiple of 64 columns "
                                    r"\(wsgemm.b8.m64k64.v1\)"):
            ws_gemm.prepack_b8(bytes(64 * 96), 64, 96)
        with self.assertRaisesRegex(ValueError, "expected M\*K\*L"):
            ws_gemm.unpack_b8(bytes(100), 64, 64)


if __name__ == "__main__":
    unittest.main()
