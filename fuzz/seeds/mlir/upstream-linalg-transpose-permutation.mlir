// wsgemm-fuzz-parse in CI, 2026-11-23: the same MLIR 22 crash as
// upstream-linalg-reduce-dimensions.mlir on linalg.transpose's
// `permutation =` (a 0xff byte before its list). The parse guard refuses it.
// B transposed by a linalg.transpose producer: the kernel reads the
// transpose's input K-major, and the transpose goes away.
func.func @transpose_op(%a: tensor<128x64xf16>, %bt: tensor<256x64xf16>) -> tensor<128x256xf32> {
  %eb = tensor.empty() : tensor<64x256xf16>
  %b = linalg.transpose ins(%bt : tensor<256x64xf16>) outs(%eb : tensor<64x256xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 :fragment_size =  f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}
