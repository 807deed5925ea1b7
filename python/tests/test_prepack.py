"""The i4 pre-packing from Python (docs/mixed-input.md): prepack_i4 then
unpack_i4 is the identity, the first nibble lands where the layout says,
and a shape or value the packing cannot hold is refused by name. Host
only: no GPU."""

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


if __name__ == "__main__":
    unittest.main()
