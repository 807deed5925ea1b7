// RUN: ws-gemm-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// What may name a kernel (KernelName.h, docs/limits.md "Kernel names"): a
// wsgemm.gemm's symbol is its kernel's name in PTX and in its files, so the
// verifier takes only PTX identifiers of at most 240 characters and not the
// names the kernel's PTX module already holds. Each refused kind of name,
// then the accepted edge cases, which print back as they were written.
// A 4 KB name: test/tools/ws-gemm-compile/kernel-names.mlir.

// Space and slash: NVPTX aborted on it, and '/' made it a path.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "a b/c": byte 1 is ' '}}
wsgemm.gemm @"a b/c" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A path out of the output directory.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "../escape": it starts with '.'}}
wsgemm.gemm @"../escape" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Dot-dot alone.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "..": it starts with '.'}}
wsgemm.gemm @".." a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A dot inside (ptxas refused it).
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "a.b": byte 1 is '.'}}
wsgemm.gemm @"a.b" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// '%' starts PTX's predefined identifiers; NVPTX aborted on it.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "%x": it starts with '%'}}
wsgemm.gemm @"%x" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A lone '$' (ptxas refused it).
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "$": '$' alone is no identifier}}
wsgemm.gemm @"$" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A lone '_' (ptxas refused it).
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "_": '_' alone is no identifier}}
wsgemm.gemm @_ a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A digit first (ptxas refused it).
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "1abc": it starts with '1'}}
wsgemm.gemm @"1abc" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Unicode (NVPTX aborted on it): shown escaped.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "gemm_\C3\A9": byte 5 is 0xC3}}
wsgemm.gemm @"gemm_é" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// A control byte.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "a\09b": byte 1 is 0x09}}
wsgemm.gemm @"a\09b" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The empty name.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got an empty name}}
wsgemm.gemm @"" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// One more than 240 characters: shown cut, with its length.
// expected-error @+1 {{symbol must be a PTX identifier of at most 240 characters (a letter, then letters, digits, '_' or '$'; or '_' or '$' and at least one of those) because it names the kernel in PTX and its output files (<name>.json, .ptx, .cubin), got "kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"... (241 bytes): 1 over}}
wsgemm.gemm @"kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// PTX's predefined WARP_SZ (ptxas refused it).
// expected-error @+1 {{symbol must not be 'WARP_SZ' (PTX's predefined identifier), 'wsgemm_smem' (the kernel's shared memory) or start with '__nv_' (libdevice's functions) because the kernel's PTX module already defines those, got "WARP_SZ"}}
wsgemm.gemm @WARP_SZ a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// The kernel's shared memory symbol.
// expected-error @+1 {{symbol must not be 'WARP_SZ' (PTX's predefined identifier), 'wsgemm_smem' (the kernel's shared memory) or start with '__nv_' (libdevice's functions) because the kernel's PTX module already defines those, got "wsgemm_smem"}}
wsgemm.gemm @wsgemm_smem a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// libdevice's functions.
// expected-error @+1 {{symbol must not be 'WARP_SZ' (PTX's predefined identifier), 'wsgemm_smem' (the kernel's shared memory) or start with '__nv_' (libdevice's functions) because the kernel's PTX module already defines those, got "__nv_expf"}}
wsgemm.gemm @__nv_expf a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// '$' is a PTX identifier character.
// CHECK-LABEL: wsgemm.gemm @"$x" a(f16)
wsgemm.gemm @"$x" a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// '_' or '$' first, then at least one more.
// CHECK-LABEL: wsgemm.gemm @_x a(f16)
wsgemm.gemm @_x a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// 240 characters.
// CHECK-LABEL: wsgemm.gemm @kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx a(f16)
wsgemm.gemm @kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
