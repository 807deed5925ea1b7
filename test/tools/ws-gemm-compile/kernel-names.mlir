// Kernel names through ws-gemm-compile (docs/limits.md, "Kernel names"):
// a name that is no PTX identifier of at most 240 characters is an error at
// the op, exit 1 (never NVPTX's abort, which `not` would report as a
// crash), and nothing is written, in the -o directory or outside it. Valid
// edge cases ('$', '_' first, 240 characters) compile, and their files are
// named after them inside -o. The op's rule case by case:
// test/Dialect/WsGemm/kernel-names.mlir.

// RUN: rm -rf %t && split-file %s %t && mkdir %t/out
// RUN: not ws-gemm-compile %t/slash.mlir -o %t/out/slash --emit=ptx 2>&1 | FileCheck %s --check-prefix=SLASH
// RUN: not ws-gemm-compile %t/up.mlir -o %t/out/up --emit=ptx 2>&1 | FileCheck %s --check-prefix=UP
// RUN: not ws-gemm-compile %t/percent.mlir -o %t/out/percent --emit=ptx 2>&1 | FileCheck %s --check-prefix=PERCENT
// RUN: not ws-gemm-compile %t/unicode.mlir -o %t/out/unicode --emit=ptx 2>&1 | FileCheck %s --check-prefix=UNICODE
// RUN: not ws-gemm-compile %t/dollar-alone.mlir -o %t/out/dollar --emit=ptx 2>&1 | FileCheck %s --check-prefix=DOLLAR-ALONE
// A 4 KB name: its 48 first bytes and its length in the message.
// RUN: %python -c "print('wsgemm.gemm @' + 'a' * 4096 + open('%t/under.mlir').read().split('@_x', 1)[1])" > %t/long.mlir
// RUN: not ws-gemm-compile %t/long.mlir -o %t/out/long --emit=ptx 2>&1 | FileCheck %s --check-prefix=LONG
// Two names equal without case would be one file on some file systems.
// RUN: not ws-gemm-compile %t/case.mlir -o %t/out/case --emit=ptx 2>&1 | FileCheck %s --check-prefix=CASE
// Lower-level input: a kernel function and an external symbol NVPTX would
// print as written (a private one it renames is fine).
// RUN: not ws-gemm-compile %t/gpu.mlir -o %t/out/gpu --emit=ptx 2>&1 | FileCheck %s --check-prefix=GPU
// Nothing was written, inside -o or next to it.
// RUN: ls %t/out | count 0
// RUN: ls %t | FileCheck %s --check-prefix=NOTHING

// SLASH: slash.mlir:1:1: error: 'wsgemm.gemm' op symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "a b/c": byte 1 is ' '
// UP: up.mlir:1:1: error: 'wsgemm.gemm' op symbol must be a PTX identifier {{.*}}, got "../escape": it starts with '.'
// PERCENT: percent.mlir:1:1: error: 'wsgemm.gemm' op symbol must be a PTX identifier {{.*}}, got "%x": it starts with '%'
// UNICODE: unicode.mlir:1:1: error: 'wsgemm.gemm' op symbol must be a PTX identifier {{.*}}, got "gemm_\C3\A9": byte 5 is 0xC3
// DOLLAR-ALONE: dollar-alone.mlir:1:1: error: 'wsgemm.gemm' op symbol must be a PTX identifier {{.*}}, got "$": '$' alone is no identifier
// LONG: long.mlir:1:1: error: 'wsgemm.gemm' op symbol must be a PTX identifier {{.*}}, got "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"... (4096 bytes): 3856 over
// CASE: case.mlir:6:1: error: kernels "Gemm" and "gemm" differ only in case: their files (<name>.json, .ptx, .cubin) would be one on a file system that ignores case
// CASE: case.mlir:1:1: note: the other kernel
// GPU: gpu.mlir:2:3: error: kernel symbol must be a PTX identifier {{.*}}, got "../k": it starts with '.'
// GPU: gpu.mlir:5:3: error: symbol "e f" must be a PTX identifier (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because NVPTX prints a symbol of external linkage as it is written
// GPU-NOT: local name
// NOTHING-NOT: escape
// NOTHING-NOT: .json

// Valid edge cases: files named after the kernel, inside -o.
// RUN: ws-gemm-compile %t/dollar.mlir -o %t/ok --emit=ptx
// RUN: ws-gemm-compile %t/under.mlir -o %t/ok --emit=ptx
// RUN: ws-gemm-compile %t/max.mlir -o %t/ok --emit=ptx
// RUN: ls %t/ok | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=DOLLAR-PTX < '%t/ok/$x.ptx'
// RUN: FileCheck %s --check-prefix=DOLLAR-JSON < '%t/ok/$x.json'
// And a family's directory is named after it too.
// RUN: ws-gemm-compile %t/dollar.mlir -o %t/fam --emit=ptx --family=default --jobs=1
// RUN: ls '%t/fam/$x' | FileCheck %s --check-prefix=FAMILY
// ptxas takes them (cubins).
// RUN: %if ptxas %{ ws-gemm-compile %t/dollar.mlir -o %t/cubin %}
// RUN: %if ptxas %{ ws-gemm-compile %t/max.mlir -o %t/cubin %}
// RUN: %if ptxas %{ ls %t/cubin | FileCheck %s --check-prefix=CUBIN %}
// A linalg function's name is mapped to a valid kernel name.
// RUN: ws-gemm-compile %t/linalg.mlir -o %t/linalg --emit=ptx
// RUN: ls %t/linalg | FileCheck %s --check-prefix=LINALG

// OK:      $x.json
// OK-NEXT: $x.ptx
// OK-NEXT: _x.json
// OK-NEXT: _x.ptx
// OK-NEXT: kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.json
// OK-NEXT: kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.ptx
// OK-EMPTY:
// DOLLAR-PTX: .visible .entry $x(
// DOLLAR-JSON: "kernel": "$x"
// FAMILY: family.json
// FAMILY: v0.128x128x64.cooperative
// CUBIN:      $x.cubin
// CUBIN-NEXT: $x.json
// CUBIN-NEXT: $x.ptx
// CUBIN-NEXT: kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.cubin
// CUBIN-NEXT: kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.json
// CUBIN-NEXT: kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.ptx
// LINALG:      my_fn_1_gemm0.json
// LINALG-NEXT: my_fn_1_gemm0.ptx

//--- slash.mlir
wsgemm.gemm @"a b/c" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- up.mlir
wsgemm.gemm @"../escape" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- percent.mlir
wsgemm.gemm @"%x" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- unicode.mlir
wsgemm.gemm @"gemm_é" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- dollar-alone.mlir
wsgemm.gemm @"$" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- dollar.mlir
wsgemm.gemm @"$x" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- under.mlir
wsgemm.gemm @_x a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- max.mlir
wsgemm.gemm @kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- case.mlir
wsgemm.gemm @Gemm a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @gemm a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- gpu.mlir
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  llvm.func @"../k"() attributes {nvvm.kernel, wsgemm.manifest = "{}"} {
    llvm.return
  }
  llvm.mlir.global external @"e f"() : i32
  llvm.func private @"local name"() {
    llvm.return
  }
}

//--- linalg.mlir
func.func @"my fn/1"(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                      outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %mm : tensor<128x256xf32>
}
