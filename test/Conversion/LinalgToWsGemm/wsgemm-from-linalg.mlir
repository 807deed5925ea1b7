// RUN: ws-gemm-opt %s --wsgemm-from-linalg -split-input-file | FileCheck %s
// Each case: a linalg chain, the wsgemm.gemm it becomes and the launch that
// replaces it. The gemms are checked with --wsgemm-plan's rules, so each
// one also plans (the RUN line below).
// RUN: ws-gemm-opt %s --wsgemm-from-linalg -split-input-file | ws-gemm-opt --wsgemm-plan -split-input-file > /dev/null

#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>

// A plain matmul: f16 x f16 accumulated into a zero-filled f32.
// CHECK-LABEL: wsgemm.gemm @plain_gemm0 a(f16) b(f16, n_major) d(f32) shape [128, 256, 64] {
// CHECK-NEXT:  ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:    epi.store %[[ACC]] : f32
// CHECK-NEXT:    epi.yield
// CHECK:       func.func private @plain_gemm0_launch(tensor<128x64xf16> {wsgemm.param = "A"}, tensor<64x256xf16> {wsgemm.param = "B"}, tensor<128x256xf32> {wsgemm.param = "D"}) -> tensor<128x256xf32> attributes {wsgemm.kernel = @plain_gemm0}
// CHECK-LABEL: func.func @plain(
// CHECK-SAME:    %[[A:.*]]: tensor<128x64xf16>, %[[B:.*]]: tensor<64x256xf16>
// CHECK-NOT:     linalg.matmul
// CHECK:         %[[D:.*]] = call @plain_gemm0_launch(%[[A]], %[[B]], %{{.*}})
// CHECK:         return %[[D]]
func.func @plain(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// A given K x M (transposed through indexing_maps): an M-major A.
// CHECK-LABEL: wsgemm.gemm @transpose_a_gemm0 a(f16, m_major) b(f16, n_major) d(f32) shape [128, 256, 64]
func.func @transpose_a(%a: tensor<64x128xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<64x128xf16>, tensor<64x256xf16>)
      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// B given N x K (transposed through indexing_maps): a K-major B.
// CHECK-LABEL: wsgemm.gemm @transpose_b_gemm0 a(bf16) b(bf16) d(f32) shape [128, 256, 64]
func.func @transpose_b(%a: tensor<128x64xbf16>, %b: tensor<256x64xbf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<128x64xbf16>, tensor<256x64xbf16>)
      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// B transposed by a linalg.transpose producer: the kernel reads the
// transpose's input K-major, and the transpose goes away.
// CHECK-LABEL: wsgemm.gemm @transpose_op_gemm0 a(f16) b(f16) d(f32)
// CHECK-LABEL: func.func @transpose_op(
// CHECK-SAME:    %[[A:.*]]: tensor<128x64xf16>, %[[BT:.*]]: tensor<256x64xf16>
// CHECK-NOT:     linalg.transpose
// CHECK:         call @transpose_op_gemm0_launch(%[[A]], %[[BT]],
func.func @transpose_op(%a: tensor<128x64xf16>, %bt: tensor<256x64xf16>) -> tensor<128x256xf32> {
  %eb = tensor.empty() : tensor<64x256xf16>
  %b = linalg.transpose ins(%bt : tensor<256x64xf16>) outs(%eb : tensor<64x256xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// batch_matmul with dynamic sizes: a batched kernel with no static shape.
// CHECK-LABEL: wsgemm.gemm @batched_gemm0 batched a(f16) b(f16, n_major) d(f16) {
// CHECK:         epi.store
// CHECK:       func.func private @batched_gemm0_launch(tensor<?x?x?xf16> {wsgemm.param = "A"}, tensor<?x?x?xf16> {wsgemm.param = "B"}, tensor<?x?x?xf16> {wsgemm.param = "D"}) -> tensor<?x?x?xf16>
func.func @batched(%a: tensor<?x?x?xf16>, %b: tensor<?x?x?xf16>, %init: tensor<?x?x?xf16>) -> tensor<?x?x?xf16> {
  %zero = arith.constant 0.0 : f16
  %acc = linalg.fill ins(%zero : f16) outs(%init : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<?x?x?xf16>, tensor<?x?x?xf16>)
                            outs(%acc : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  return %mm : tensor<?x?x?xf16>
}

// -----

// A non-zero init is C, read by the epilogue and added.
// CHECK-LABEL: wsgemm.gemm @accumulate_gemm0 a(f16) b(f16, n_major) c(f32) d(f32)
// CHECK:         %[[C:.*]] = epi.load_src : f32
// CHECK:         %[[S:.*]] = arith.addf %[[C]], %{{.*}} : f32
// CHECK:         epi.store %[[S]] : f32
// CHECK:       func.func private @accumulate_gemm0_launch({{.*}}{wsgemm.param = "C"}{{.*}}{wsgemm.param = "D"})
// CHECK-LABEL: func.func @accumulate(
// CHECK-SAME:    %{{.*}}, %{{.*}}, %[[INIT:.*]]: tensor<128x256xf32>
// CHECK:         call @accumulate_gemm0_launch(%{{.*}}, %{{.*}}, %[[INIT]], %[[INIT]])
func.func @accumulate(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%c : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// Bias along n (a row broadcast) then GELU (erf form), rounded to f16: one
// gemm, the payloads copied in f32 (the extf/truncf vanish; D rounds once),
// the GELU formula raised to epi.gelu.
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (n)>
// CHECK-LABEL: wsgemm.gemm @bias_gelu_gemm0 a(f16) b(f16, n_major) d(f16) shape [128, 256, 64] {
// CHECK-NEXT:  ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[BIAS:.*]] = epi.load_vec_n "vec_n0" : f16 -> f32
// CHECK-NEXT:    %[[Z:.*]] = arith.addf %[[ACC]], %[[BIAS]] : f32
// CHECK-NEXT:    %[[G:.*]] = epi.gelu %[[Z]] : f32
// CHECK-NEXT:    epi.store %[[G]] : f32
// CHECK-NEXT:    epi.yield
// CHECK:       func.func private @bias_gelu_gemm0_launch(tensor<128x64xf16> {wsgemm.param = "A"}, tensor<64x256xf16> {wsgemm.param = "B"}, tensor<256xf16> {wsgemm.param = "vec_n0"}, tensor<128x256xf16> {wsgemm.param = "D"}) -> tensor<128x256xf16>
// CHECK-LABEL: func.func @bias_gelu(
// CHECK-NOT:     linalg.
// CHECK:         call @bias_gelu_gemm0_launch
func.func @bias_gelu(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf16>) -> tensor<128x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %biased = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<128x256xf32>, tensor<256xf16>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%x: f32, %bv: f16, %o: f32):
    %bf = arith.extf %bv : f16 to f32
    %s = arith.addf %x, %bf : f32
    linalg.yield %s : f32
  } -> tensor<128x256xf32>
  %e16 = tensor.empty() : tensor<128x256xf16>
  %gelu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<128x256xf32>) outs(%e16 : tensor<128x256xf16>) {
  ^bb0(%x: f32, %o: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %t = arith.mulf %x, %rsqrt2 : f32
    %erf = math.erf %t : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %p : f32
    %r = arith.truncf %g : f32 to f16
    linalg.yield %r : f16
  } -> tensor<128x256xf16>
  return %gelu : tensor<128x256xf16>
}

// -----

// Bias along m (a column broadcast) through linalg.broadcast + linalg.add,
// then ReLU as linalg.max with a zero fill, computed in f16 by linalg and
// in f32 by the epilogue.
// CHECK-LABEL: wsgemm.gemm @bias_m_relu_gemm0 a(f16) b(f16, n_major) d(f16)
// CHECK:         %[[BIAS:.*]] = epi.load_vec_m "vec_m0" : f16 -> f32
// CHECK:         %[[Z:.*]] = arith.addf %{{.*}}, %[[BIAS]] : f32
// CHECK-NEXT:    %[[R:.*]] = epi.relu %[[Z]] : f32
// CHECK-NEXT:    epi.store %[[R]] : f32
// CHECK-LABEL: func.func @bias_m_relu(
// CHECK-NOT:     linalg.
func.func @bias_m_relu(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<128xf16>) -> tensor<128x256xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<128x256xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf16>) -> tensor<128x256xf16>
  %bb = linalg.broadcast ins(%bias : tensor<128xf16>) outs(%e : tensor<128x256xf16>) dimensions = [1]
  %z = linalg.add ins(%mm, %bb : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  %zeros = linalg.fill ins(%zero : f16) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  %r = linalg.max ins(%z, %zeros : tensor<128x256xf16>, tensor<128x256xf16>) outs(%e : tensor<128x256xf16>) -> tensor<128x256xf16>
  return %r : tensor<128x256xf16>
}

// -----

// SiLU, sigmoid and tanh (named linalg.tanh), a residual add of an M x N
// matrix (aux), and scaling by a host scalar and by a 0-d tensor.
#id = affine_map<(m, n) -> (m, n)>
#scalar = affine_map<(m, n) -> ()>
// CHECK-LABEL: wsgemm.gemm @activations_gemm0 a(f16) b(f16, n_major) d(bf16)
// CHECK:         %[[S:.*]] = epi.scalar param ["scalar0"] : f32
// CHECK:         arith.mulf %{{.*}}, %[[S]] : f32
// CHECK:         %[[SILU:.*]] = epi.silu
// CHECK:         math.tanh %[[SILU]]
// CHECK:         %[[R:.*]] = epi.aux_load "aux0" : bf16 -> f32
// CHECK:         %[[P:.*]] = epi.scalar ptr ["scalar_ptr0"] : f32
// CHECK:         %[[Y:.*]] = arith.addf %{{.*}}, %[[R]] : f32
// CHECK:         %[[D:.*]] = arith.mulf %[[Y]], %[[P]] : f32
// CHECK:         epi.store %[[D]] : f32
// CHECK:       func.func private @activations_gemm0_launch({{.*}}, f32 {wsgemm.param = "scalar0"}, tensor<128x256xbf16> {wsgemm.param = "aux0"}, tensor<f32> {wsgemm.param = "scalar_ptr0"}, tensor<128x256xbf16> {wsgemm.param = "D"})
// CHECK-LABEL: func.func @activations(
// CHECK-SAME:    %[[ALPHA:[a-z0-9]*]]: f16
// CHECK:         %[[EXT:.*]] = arith.extf %[[ALPHA]] : f16 to f32
// CHECK:         call @activations_gemm0_launch(%{{.*}}, %{{.*}}, %[[EXT]],
func.func @activations(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %alpha: f16,
                       %res: tensor<128x256xbf16>, %scale: tensor<f32>) -> tensor<128x256xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %alpha : tensor<128x256xf32>, f16) outs(%e : tensor<128x256xf32>) {
  ^bb0(%x: f32, %s: f16, %o: f32):
    %sf = arith.extf %s : f16 to f32
    %y = arith.mulf %x, %sf : f32
    linalg.yield %y : f32
  } -> tensor<128x256xf32>
  %silu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%scaled : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %x : f32
    %ex = math.exp %n : f32
    %den = arith.addf %ex, %one : f32
    %sig = arith.divf %one, %den : f32
    %y = arith.mulf %x, %sig : f32
    linalg.yield %y : f32
  } -> tensor<128x256xf32>
  %th = linalg.tanh ins(%silu : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %eb = tensor.empty() : tensor<128x256xbf16>
  %sum = linalg.generic {indexing_maps = [#id, #id, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%th, %res, %scale : tensor<128x256xf32>, tensor<128x256xbf16>, tensor<f32>) outs(%eb : tensor<128x256xbf16>) {
  ^bb0(%x: f32, %r: bf16, %s: f32, %o: bf16):
    %rf = arith.extf %r : bf16 to f32
    %y = arith.addf %x, %rf : f32
    %z = arith.mulf %y, %s : f32
    %t = arith.truncf %z : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x256xbf16>
  return %sum : tensor<128x256xbf16>
}

// -----

// Reductions: a row max (over n), a column sum (over m) and the absmax of
// everything, next to D; the pre-activation also leaves the kernel (aux
// store) because the function returns it.
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: wsgemm.gemm @reductions_gemm0 a(f16) b(f16, n_major) d(f16)
// CHECK:         epi.reduce_to_vec_m max %[[ACC:.*]], "reduce_m0" : f32
// CHECK:         epi.reduce_to_vec_n sum %[[ACC]], "reduce_n0" : f32
// CHECK:         %[[R:.*]] = epi.relu %[[ACC]] : f32
// CHECK:         epi.reduce_to_scalar absmax %[[R]], "reduce0" : f32
// CHECK:         epi.aux_store %[[ACC]], "aux_out0" : f32 -> f32
// CHECK:         epi.store %[[R]] : f32
// CHECK:       func.func private @reductions_gemm0_launch({{.*}}tensor<128x256xf16> {wsgemm.param = "D"}, tensor<128xf32> {wsgemm.param = "reduce_m0"}, tensor<256xf32> {wsgemm.param = "reduce_n0"}, tensor<f32> {wsgemm.param = "reduce0"}, tensor<128x256xf32> {wsgemm.param = "aux_out0"}) -> (tensor<128x256xf16>, tensor<128xf32>, tensor<256xf32>, tensor<f32>, tensor<128x256xf32>)
// CHECK-LABEL: func.func @reductions(
// CHECK:         %[[L:.*]]:5 = call @reductions_gemm0_launch
// CHECK:         return %[[L]]#0, %[[L]]#1, %[[L]]#2, %[[L]]#3, %[[L]]#4
func.func @reductions(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>)
    -> (tensor<128x256xf16>, tensor<128xf32>, tensor<256xf32>, tensor<f32>, tensor<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %em = tensor.empty() : tensor<128xf32>
  %im = linalg.fill ins(%ninf : f32) outs(%em : tensor<128xf32>) -> tensor<128xf32>
  %rowmax = linalg.reduce ins(%mm : tensor<128x256xf32>) outs(%im : tensor<128xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %m = arith.maximumf %x, %y : f32
      linalg.yield %m : f32
    }
  %en = tensor.empty() : tensor<256xf32>
  %in = linalg.fill ins(%zero : f32) outs(%en : tensor<256xf32>) -> tensor<256xf32>
  %colsum = linalg.reduce ins(%mm : tensor<128x256xf32>) outs(%in : tensor<256xf32>) dimensions = [0]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  %e16 = tensor.empty() : tensor<128x256xf16>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x256xf32>) outs(%e16 : tensor<128x256xf16>) {
  ^bb0(%x: f32, %o: f16):
    %c0 = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %c0 : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x256xf16>
  %e0 = tensor.empty() : tensor<f32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %amax = linalg.reduce ins(%relu : tensor<128x256xf16>) outs(%i0 : tensor<f32>) dimensions = [0, 1]
    (%x: f16, %y: f32) {
      %xf = arith.extf %x : f16 to f32
      %ab = math.absf %xf : f32
      %m = arith.maximumf %ab, %y : f32
      linalg.yield %m : f32
    }
  return %relu, %rowmax, %colsum, %amax, %mm : tensor<128x256xf16>, tensor<128xf32>, tensor<256xf32>, tensor<f32>, tensor<128x256xf32>
}

// -----

// The bias broadcast into the init (D = bias + A B): a vector leaf added
// to the accumulator, not a C matrix.
// CHECK-LABEL: wsgemm.gemm @bias_init_gemm0 a(f16) b(f16, n_major) d(f32) shape [128, 256, 64] {
// CHECK-NEXT:  ^bb0(%[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[BIAS:.*]] = epi.load_vec_n "vec_n0" : f32 -> f32
// CHECK-NEXT:    %[[Z:.*]] = arith.addf %[[BIAS]], %[[ACC]] : f32
// CHECK-NEXT:    epi.store %[[Z]] : f32
// CHECK-LABEL: func.func @bias_init(
// CHECK-NOT:     linalg.broadcast
// CHECK:         call @bias_init_gemm0_launch
func.func @bias_init(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf32>) -> tensor<128x256xf32> {
  %e = tensor.empty() : tensor<128x256xf32>
  %init = linalg.broadcast ins(%bias : tensor<256xf32>) outs(%e : tensor<128x256xf32>) dimensions = [0]
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%init : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}

// -----

// A scalar captured by the payload (linalg.map here) is a kernel parameter
// like a scalar operand; a named linalg.elementwise joins too.
// CHECK-LABEL: wsgemm.gemm @captured_gemm0 a(f16) b(f16, n_major) d(f32)
// CHECK:         %[[S:.*]] = epi.scalar param ["scalar0"] : f32
// CHECK:         %[[X:.*]] = arith.mulf %{{.*}}, %[[S]] : f32
// CHECK:         %[[E:.*]] = math.exp %[[X]] : f32
// CHECK:         epi.store %[[E]] : f32
// CHECK:       func.func private @captured_gemm0_launch({{.*}}, f32 {wsgemm.param = "scalar0"}, tensor<128x256xf32> {wsgemm.param = "D"})
func.func @captured(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %s: f32) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %x = linalg.map ins(%mm : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>)
    (%v: f32, %o: f32) {
      %r = arith.mulf %v, %s : f32
      linalg.yield %r : f32
    }
  %y = linalg.elementwise kind=#linalg.elementwise_kind<exp>
      ins(%x : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}

// -----

// Activation formulas with commuted operands: relu as maximumf(0, x),
// sigmoid alone, GELU with x / sqrt(2); a formula that only looks like
// GELU (0.6 instead of 0.5) stays arithmetic.
#id = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: wsgemm.gemm @formulas_gemm0
// CHECK:         %[[R:.*]] = epi.relu %{{.*}} : f32
// CHECK-NEXT:    %[[S:.*]] = epi.sigmoid %[[R]] : f32
// CHECK-NEXT:    %[[G:.*]] = epi.gelu %[[S]] : f32
// CHECK:         math.erf
// CHECK-NOT:     epi.gelu
// CHECK:         epi.store
func.func @formulas(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %c1 = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %notHalf = arith.constant 0.6 : f32
    %sqrt2 = arith.constant 1.41421354 : f32
    %r = arith.maximumf %c0, %x : f32
    %n = arith.negf %r : f32
    %ex = math.exp %n : f32
    %den = arith.addf %c1, %ex : f32
    %s = arith.divf %c1, %den : f32
    %t = arith.divf %s, %sqrt2 : f32
    %erf = math.erf %t : f32
    %p = arith.addf %c1, %erf : f32
    %h = arith.mulf %half, %s : f32
    %g = arith.mulf %p, %h : f32
    %t2 = arith.divf %g, %sqrt2 : f32
    %erf2 = math.erf %t2 : f32
    %p2 = arith.addf %erf2, %c1 : f32
    %h2 = arith.mulf %g, %notHalf : f32
    %g2 = arith.mulf %h2, %p2 : f32
    linalg.yield %g2 : f32
  } -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}

// -----

// An LM head with the vocabulary's odd N = 50257: the weight is given N x K
// (K-major B), so only D's rows (50257 x 4 bytes) break TMA's 16-byte
// rule, and the kernel converts; --wsgemm-plan (second RUN line) plans it
// with store = direct.
// CHECK-LABEL: wsgemm.gemm @lm_head_gemm0 a(f16) b(f16) d(f32) shape [128, 50257, 64] {
func.func @lm_head(%a: tensor<128x64xf16>, %w: tensor<50257x64xf16>) -> tensor<128x50257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x50257xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x50257xf32>) -> tensor<128x50257xf32>
  %mm = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<128x64xf16>, tensor<50257x64xf16>) outs(%acc : tensor<128x50257xf32>) -> tensor<128x50257xf32>
  return %mm : tensor<128x50257xf32>
}
