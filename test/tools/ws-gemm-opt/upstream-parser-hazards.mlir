// MLIR 22's linalg parser crashes (a null attribute set after a failed
// parse, llvm/llvm-project#132747) when the list of `dimensions = [...]`
// (linalg.reduce, linalg.broadcast) or `permutation = [...]`
// (linalg.transpose) does not parse. Every tool of ours that parses text
// refuses such input first with an error at the list
// (ws-gemm/Driver/ParseGuard.h); well-formed lists, attribute dictionary
// entries of the same names, comments and strings pass.

// RUN: split-file %s %t
// RUN: not ws-gemm-opt %t/no-bracket.mlir 2>&1 | FileCheck %s --check-prefix=NOBRACKET
// RUN: not ws-gemm-opt %t/bad-element.mlir 2>&1 | FileCheck %s --check-prefix=ELEMENT
// RUN: not ws-gemm-opt %t/too-large.mlir 2>&1 | FileCheck %s --check-prefix=LARGE
// RUN: not ws-gemm-opt %t/float.mlir 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not ws-gemm-opt %t/no-ins-outs.mlir 2>&1 | FileCheck %s --check-prefix=BARE
// RUN: not ws-gemm-compile %t/no-bracket.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=NOBRACKET
// RUN: ws-gemm-opt --allow-unregistered-dialect %t/good.mlir | FileCheck %s --check-prefix=GOOD

//--- no-bracket.mlir
func.func @f(%bt: tensor<8x4xf16>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf16>
  %t = linalg.transpose ins(%bt : tensor<8x4xf16>) outs(%e : tensor<4x8xf16>)
         permutation = (1, 0)
  return %t : tensor<4x8xf16>
}
// NOBRACKET: no-bracket.mlir:4:24: error: expected '[' in linalg's 'permutation = [...]' list (refused before parsing: MLIR 22's parser crashes on this list, llvm/llvm-project#132747)

//--- bad-element.mlir
func.func @f(%a: tensor<4x4xf32>, %r: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.reduce ins(%a : tensor<4x4xf32>) outs(%r : tensor<4xf32>) dimensions = [1=]
    (%x: f32, %y: f32) {
      %m = arith.addf %x, %y : f32
      linalg.yield %m : f32
    }
  return %0 : tensor<4xf32>
}
// ELEMENT: bad-element.mlir:2:88: error: expected ',' or ']' in linalg's 'dimensions = [...]' list

//--- too-large.mlir
func.func @f(%v: tensor<4xf32>, %e: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.broadcast ins(%v : tensor<4xf32>) outs(%e : tensor<4x4xf32>) dimensions = [9223372036854775808]
  return %0 : tensor<4x4xf32>
}
// LARGE: too-large.mlir:2:90: error: integer out of the 64-bit range in linalg's 'dimensions = [...]' list

//--- float.mlir
func.func @f(%v: tensor<4xf32>, %e: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.broadcast ins(%v : tensor<4xf32>) outs(%e : tensor<4x4xf32>) dimensions = [1.0]
  return %0 : tensor<4x4xf32>
}
// FLOAT: float.mlir:2:91: error: expected ',' or ']' in linalg's 'dimensions = [...]' list

//--- no-ins-outs.mlir
// ins and outs are optional to the parser; the keyword then follows the
// op name.
func.func @f() {
  linalg.transpose permutation = 0
  return
}
// BARE: no-ins-outs.mlir:4:34: error: expected '[' in linalg's 'permutation = [...]' list

//--- good.mlir
// dimensions = [ (a comment) and "permutation = x" (a string) are not lists.
func.func @f(%bt: tensor<8x4xf16>, %v: tensor<4xf32>, %e2: tensor<4x4xf32>) -> tensor<4x8xf16> {
  %e = tensor.empty() : tensor<4x8xf16>
  %t = linalg.transpose {note = "permutation = x"} ins(%bt : tensor<8x4xf16>)
         outs(%e : tensor<4x8xf16>) permutation = [ 0x1, // the rows
                                                    0 ]
  %b = linalg.broadcast ins(%v : tensor<4xf32>) outs(%e2 : tensor<4x4xf32>) dimensions = [ -0 ]
  %dimensions = "test.op"() {dimensions = 3, permutation = "a"} : () -> i32
  return %t : tensor<4x8xf16>
}
// GOOD: linalg.transpose ins(%{{.*}}) outs(%{{.*}}) permutation = [1, 0]
// GOOD: linalg.broadcast ins(%{{.*}}) outs(%{{.*}}) dimensions = [0]
// GOOD: "test.op"() {dimensions = 3 : i64, permutation = "a"}
