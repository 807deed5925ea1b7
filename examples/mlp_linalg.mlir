// A transformer MLP block in linalg, as an ML compiler hands it over:
//
//   h = gelu(x @ W1 + b1)        (up-projection, bias along n, GELU)
//   y = h @ W2 + b2 + x          (down-projection, bias, residual add)
//
// x is tokens x 1024 (any number of tokens), W1 1024 x 4096, W2 4096 x 1024,
// f16 storage, f32 accumulation. --wsgemm-from-linalg turns it into two
// wsgemm.gemm kernels, @mlp_gemm0 (epilogue: load_vec_n b1, GELU) and
// @mlp_gemm1 (epilogue: load_vec_n b2, aux_load x), and the function into
// two calls to their launches. ws-gemm-compile runs that pass first:
//
//   ws-gemm-compile examples/mlp_linalg.mlir -o out     # out/mlp_gemm{0,1}.{cubin,ptx,json}
//   ws-gemm-opt --wsgemm-from-linalg examples/mlp_linalg.mlir  # the kernels and the host side

#id = affine_map<(t, n) -> (t, n)>
#col = affine_map<(t, n) -> (n)>

func.func @mlp(%x: tensor<?x1024xf16>, %w1: tensor<1024x4096xf16>,
               %b1: tensor<4096xf16>, %w2: tensor<4096x1024xf16>,
               %b2: tensor<1024xf16>) -> tensor<?x1024xf16> {
  %c0 = arith.constant 0 : index
  %tokens = tensor.dim %x, %c0 : tensor<?x1024xf16>
  %zero = arith.constant 0.0 : f32

  // Up-projection, bias, GELU (erf form).
  %e1 = tensor.empty(%tokens) : tensor<?x4096xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %up = linalg.matmul ins(%x, %w1 : tensor<?x1024xf16>, tensor<1024x4096xf16>)
                      outs(%acc1 : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %h16 = tensor.empty(%tokens) : tensor<?x4096xf16>
  %h = linalg.generic {indexing_maps = [#id, #col, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%up, %b1 : tensor<?x4096xf32>, tensor<4096xf16>)
      outs(%h16 : tensor<?x4096xf16>) {
  ^bb0(%a: f32, %bias: f16, %out: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %b = arith.extf %bias : f16 to f32
    %z = arith.addf %a, %b : f32
    %s = arith.mulf %z, %rsqrt2 : f32
    %erf = math.erf %s : f32
    %p = arith.addf %erf, %one : f32
    %zh = arith.mulf %z, %half : f32
    %g = arith.mulf %zh, %p : f32
    %r = arith.truncf %g : f32 to f16
    linalg.yield %r : f16
  } -> tensor<?x4096xf16>

  // Down-projection, bias, residual.
  %e2 = tensor.empty(%tokens) : tensor<?x1024xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %down = linalg.matmul ins(%h, %w2 : tensor<?x4096xf16>, tensor<4096x1024xf16>)
                        outs(%acc2 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %y16 = tensor.empty(%tokens) : tensor<?x1024xf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%down, %b2, %x : tensor<?x1024xf32>, tensor<1024xf16>, tensor<?x1024xf16>)
      outs(%y16 : tensor<?x1024xf16>) {
  ^bb0(%a: f32, %bias: f16, %res: f16, %out: f16):
    %b = arith.extf %bias : f16 to f32
    %r = arith.extf %res : f16 to f32
    %z = arith.addf %a, %b : f32
    %o = arith.addf %z, %r : f32
    %t = arith.truncf %o : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x1024xf16>
  return %y : tensor<?x1024xf16>
}
