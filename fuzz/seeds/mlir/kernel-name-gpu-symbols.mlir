// Lower-level input: a kernel function and an external global whose
// names NVPTX cannot print, and a private one it renames (issue 30).
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  llvm.func @"a b"() attributes {nvvm.kernel, wsgemm.manifest = "{}"} {
    llvm.call @"c/d"() : () -> ()
    llvm.return
  }
  llvm.func private @"c/d"() {
    llvm.return
  }
  llvm.mlir.global external @"e\C3\A9"() : i32
}
