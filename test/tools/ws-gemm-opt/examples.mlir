// The bundled examples stay valid: they parse, verify, round-trip, and go
// through the --wsgemm-prepare pipeline.

// RUN: ws-gemm-opt %examples/gemm_relu.mlir | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt --wsgemm-prepare %examples/gemm_relu.mlir | FileCheck %s --check-prefix=PREPARE

// CHECK-LABEL: wsgemm.gemm @gemm_bias_relu a(f16) b(f16) c(f16) d(f16) {
// CHECK-NEXT:  ^bb0(%[[ACC:.+]]: f32):
// CHECK-DAG:     %[[ALPHA:.+]] = epi.scalar {{ *}}param ["alpha"] : f32
// CHECK-DAG:     %[[BETA:.+]] = epi.scalar {{ *}}param ["beta"] : f32
// CHECK-DAG:     %[[C:.+]] = epi.load_src : f32
// CHECK-DAG:     %[[BIAS:.+]] = epi.load_vec_m "bias" : f16 -> f32
// CHECK:         %[[T0:.+]] = arith.mulf %[[ALPHA]], %[[ACC]] : f32
// CHECK:         %[[T1:.+]] = arith.addf %[[T0]], %[[BIAS]] : f32
// CHECK:         %[[T2:.+]] = arith.mulf %[[BETA]], %[[C]] : f32
// CHECK:         %[[Z:.+]] = arith.addf %[[T2]], %[[T1]] : f32
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[D:.+]] = arith.maximumf %[[Z]], %[[ZERO]] : f32
// CHECK:         epi.store %[[D]] : f32
// CHECK:         epi.yield

// After the pipeline the GEMM is still there and still stores D. (The
// activation may be lowered to arith/math and the config filled in; those
// passes have their own tests.)
// PREPARE-LABEL: wsgemm.gemm @gemm_bias_relu a(f16) b(f16) c(f16) d(f16)
// PREPARE:         epi.load_vec_m "bias" : f16 -> f32
// PREPARE:         epi.store %{{.+}} : f32
// PREPARE:         epi.yield
