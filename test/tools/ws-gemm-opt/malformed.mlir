// Malformed input never crashes ws-gemm-opt: it reports an error at a
// file:line:column location and exits non-zero (`not` fails on a crash).
// Each case is also run on its own, so every one must fail by itself.

// RUN: split-file %s %t
// RUN: not ws-gemm-opt %t/syntax.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not ws-gemm-opt %t/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not ws-gemm-opt %t/unclosed.mlir 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// RUN: not ws-gemm-opt %t/outside.mlir 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not ws-gemm-opt --wsgemm-prepare %t/outside.mlir 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not ws-gemm-opt %t/no-such-file.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE

//--- syntax.mlir
// A missing `)` after the A element type.
wsgemm.gemm @g a(f16 b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
// SYNTAX: syntax.mlir:2:{{[0-9]+}}: error: expected ')'

//--- unknown-op.mlir
wsgemm.gemm @g a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %x = epi.no_such_op %acc : f32
  epi.store %x : f32
  epi.yield
}
// UNKNOWN: unknown-op.mlir:3:{{[0-9]+}}: error: {{.*}}'epi.no_such_op'

//--- unclosed.mlir
wsgemm.gemm @g a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
// UNCLOSED: unclosed.mlir:{{[0-9]+}}:{{[0-9]+}}: error:

//--- outside.mlir
// An epilogue op outside any epilogue is parsed, then rejected by the verifier.
func.func @f() {
  %c = epi.load_src : f32
  return
}
// OUTSIDE: outside.mlir:3:{{[0-9]+}}: error: 'epi.load_src' op

//--- no-file
// NOFILE: no-such-file.mlir{{.*}}: No such file or directory
