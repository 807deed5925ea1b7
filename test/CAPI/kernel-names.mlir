// Kernel names through the C API's wsgemmCompile (docs/limits.md, "Kernel
// names"): each refused kind of name is a failed result with one located
// error that names the rule (never an abort: `not` fails on a crash), and
// no kernel; a valid edge case compiles under its own name.

// RUN: rm -rf %t && split-file %s %t
// RUN: not ws-gemm-capi-test compile-ptx %t/slash.mlir | FileCheck %s --check-prefix=SLASH
// RUN: not ws-gemm-capi-test compile-ptx %t/up.mlir | FileCheck %s --check-prefix=UP
// RUN: not ws-gemm-capi-test compile-ptx %t/percent.mlir | FileCheck %s --check-prefix=PERCENT
// RUN: not ws-gemm-capi-test compile-ptx %t/unicode.mlir | FileCheck %s --check-prefix=UNICODE
// RUN: not ws-gemm-capi-test compile-ptx %t/reserved.mlir | FileCheck %s --check-prefix=RESERVED
// RUN: %python -c "print('wsgemm.gemm @' + 'a' * 4096 + ' a(f16)' + open('%t/dollar.mlir').read().split(' a(f16)', 1)[1])" > %t/long.mlir
// RUN: not ws-gemm-capi-test compile-ptx %t/long.mlir | FileCheck %s --check-prefix=LONG
// RUN: not ws-gemm-capi-test compile-ptx %t/case.mlir | FileCheck %s --check-prefix=CASE
// RUN: ws-gemm-capi-test compile-ptx %t/dollar.mlir | FileCheck %s --check-prefix=DOLLAR
// RUN: ws-gemm-capi-test family %t/dollar.mlir | FileCheck %s --check-prefix=FAMILY

// SLASH:      succeeded: 0
// SLASH-NEXT: kernels: 0
// SLASH-NEXT: diagnostics: 1
// SLASH-NEXT: slash.mlir:1:1: error: 'wsgemm.gemm' op symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "a b/c": byte 1 is ' '
// SLASH-NEXT: structured: error at {{.*}}slash.mlir:1:1: 'wsgemm.gemm' op symbol must be a PTX identifier

// UP:      succeeded: 0
// UP-NEXT: kernels: 0
// UP-NEXT: diagnostics: 1
// UP-NEXT: up.mlir:1:1: error: {{.*}}, got "../escape": it starts with '.'

// PERCENT:      diagnostics: 1
// PERCENT-NEXT: percent.mlir:1:1: error: {{.*}}, got "%x": it starts with '%'

// UNICODE:      diagnostics: 1
// UNICODE-NEXT: unicode.mlir:1:1: error: {{.*}}, got "\C3\A9": it starts with 0xC3

// RESERVED:      diagnostics: 1
// RESERVED-NEXT: reserved.mlir:1:1: error: 'wsgemm.gemm' op symbol must not be 'WARP_SZ' (PTX's predefined identifier), 'wsgemm_smem' (the kernel's shared memory) or start with '__nv_' (libdevice's functions) because the kernel's PTX module already defines those, got "__nv_expf"

// LONG:      succeeded: 0
// LONG-NEXT: kernels: 0
// LONG-NEXT: diagnostics: 1
// LONG-NEXT: long.mlir:1:1: error: {{.*}}, got "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"... (4096 bytes): 3856 over

// CASE:      succeeded: 0
// CASE-NEXT: kernels: 0
// CASE-NEXT: diagnostics: 2
// CASE-NEXT: case.mlir:6:1: error: kernels "Gemm" and "gemm" differ only in case: their files (<name>.json, .ptx, .cubin) would be one on a file system that ignores case
// CASE-NEXT: case.mlir:1:1: note: the other kernel

// DOLLAR:      succeeded: 1
// DOLLAR-NEXT: kernel $x: manifest {{[0-9]+}} bytes, names it; ptx {{[0-9]+}} bytes, wgmma yes; cubin 0 bytes
// DOLLAR-NEXT: diagnostics: 0

// FAMILY:      succeeded: 1, kernels: 1, families: 1
// FAMILY-NEXT: family $x: 7 variant(s), manifest is a family: yes

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
wsgemm.gemm @"é" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

//--- reserved.mlir
wsgemm.gemm @__nv_expf a(f16) b(f16) d(f16) {
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

//--- dollar.mlir
wsgemm.gemm @"$x" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
