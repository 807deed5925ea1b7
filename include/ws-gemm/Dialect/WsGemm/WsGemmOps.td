//===- WsGemmOps.td - Declarative GEMM ops -----------------*- tablegen -*-===//
//
// The declarative level: `wsgemm.gemm` defines one GEMM kernel by its operand
// types and layouts, an optional static problem shape, a `#wsgemm.config` of
// builder knobs and an epilogue region in the `epi` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "ws-gemm/Dialect/WsGemm/WsGemmAttributes.td"
include "ws-gemm/Dialect/Epi/EpiInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"

def WsGemm_GemmOp : WsGemm_Op<"gemm", [
    Symbol, IsolatedFromAbove, SingleBlock,
    DeclareOpInterfaceMethods<Epi_EpilogueOpInterface>]> {
  let summary = "a warp-specialized GEMM kernel with a fused epilogue";
  let description = [{
    Defines the kernel `D[m, n(, l)] = epilogue(sum_k A[m, k(, l)] * B[k, n(, l)])`.

    Operands, by element type and storage order (default `k_major`):
    - `a(T[, k_major | m_major])`: A is M x K; `k_major` stores it M x K
      (K contiguous), `m_major` stores it K x M (M contiguous).
    - `b(T[, k_major | n_major])`: `k_major` stores B as N x K (K contiguous),
      `n_major` as K x N (N contiguous).
    - `c(T)` (optional): M x N, N contiguous, read with `epi.load_src`.
    - `d(T[, n_major | m_major])`: D, written with `epi.store`; `n_major`
      (default) stores it M x N (N contiguous), `m_major` stores it N x M
      (M contiguous, a column-major D: D^T row-major), which the
      direct-store path writes (`store = direct`, the planner's default
      for it).

    A and B are f16 or bf16 and equal; C and D are f16, bf16 or f32; the
    accumulator is f32. A mixed-input GEMM stores A quantized (`a(i4)`)
    and says how it dequantizes into B's type with `dequant_a
    #wsgemm.dequant<...>` after `d(T)` (docs/mixed-input.md). `batched` adds an outermost batch dimension L to every
    operand (batch stride: one whole matrix). `shape [M, N, K]` (or
    `[M, N, K, L]` when batched) compiles for one static problem shape;
    without it the sizes are kernel parameters.

    ```mlir
    wsgemm.gemm @gemm_bias_relu a(f16) b(f16, n_major) c(f16) d(f16)
        shape [4096, 4096, 4096]
        config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
    ^bb0(%acc: f32):
      %bias = epi.load_vec_m "bias" : f16 -> f32
      %z = arith.addf %acc, %bias : f32
      %r = epi.relu %z : f32
      epi.store %r : f32
      epi.yield
    }
    ```

    The symbol is the kernel's name in PTX and in the files the driver
    writes (`<name>.json`, `.ptx`, `.cubin`), so the verifier takes only a
    PTX identifier (a letter, then letters, digits, `_` or `$`; or `_` or
    `$` and at least one of those) of at most 240 characters, and not
    `WARP_SZ`, `wsgemm_smem` or `__nv_*` (docs/limits.md, "Kernel names").

    `--wsgemm-plan` completes `config` and records the kernel's dynamic SMEM
    in the discardable attribute `wsgemm.smem_bytes` (an i64, bytes; read and
    write it with get/setPlannedSmemBytes).
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypeAttr:$a_type,
    DefaultValuedAttr<WsGemm_MajorAttr, "::mlir::wsgemm::Major::k_major">:$a_layout,
    TypeAttr:$b_type,
    DefaultValuedAttr<WsGemm_MajorAttr, "::mlir::wsgemm::Major::k_major">:$b_layout,
    OptionalAttr<TypeAttr>:$c_type,
    TypeAttr:$d_type,
    DefaultValuedAttr<WsGemm_MajorAttr, "::mlir::wsgemm::Major::n_major">:$d_layout,
    OptionalAttr<WsGemm_DequantAttr>:$dequant_a,
    UnitAttr:$batched,
    OptionalAttr<DenseI64ArrayAttr>:$shape,
    OptionalAttr<WsGemm_ConfigAttr>:$config
  );
  let regions = (region SizedRegion<1>:$epilogue);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;

  let builders = [
    // A gemm with default layouts and an epilogue block holding only the f32
    // accumulator argument; the caller fills the block and adds epi.yield.
    // `cType` may be null (no C operand).
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::Type":$aType,
                   "::mlir::Type":$bType, "::mlir::Type":$cType,
                   "::mlir::Type":$dType,
                   CArg<"::mlir::wsgemm::ConfigAttr", "{}">:$config)>
  ];

  let extraClassDeclaration = [{
    /// Name of the discardable attribute in which --wsgemm-plan records the
    /// kernel's dynamic shared memory in bytes (an i64 attribute).
    static ::llvm::StringRef getSmemBytesAttrName() {
      return "wsgemm.smem_bytes";
    }
    /// Name of the discardable attribute in which --wsgemm-emit-manifest
    /// records the kernel's manifest JSON (a string; --wsgemm-specialize
    /// moves it to the kernel function).
    static ::llvm::StringRef getManifestAttrName() {
      return "wsgemm.manifest";
    }
    /// The planned dynamic SMEM in bytes, or nullopt before --wsgemm-plan.
    std::optional<int64_t> getPlannedSmemBytes();
    /// Records the planned dynamic SMEM in bytes.
    void setPlannedSmemBytes(int64_t bytes);

    // getALayout() / getBLayout() (generated) return k_major when unset.
    bool isBatched() { return getBatched(); }
    bool hasC() { return getCType().has_value(); }
    bool hasStaticShape() { return getShape().has_value(); }
    /// Static problem sizes; nullopt without `shape`. L is 1 when the gemm
    /// is not batched.
    std::optional<int64_t> getStaticM() { return getStaticDim(0); }
    std::optional<int64_t> getStaticN() { return getStaticDim(1); }
    std::optional<int64_t> getStaticK() { return getStaticDim(2); }
    std::optional<int64_t> getStaticL() {
      if (!hasStaticShape())
        return std::nullopt;
      return isBatched() ? getStaticDim(3) : std::optional<int64_t>(1);
    }
    /// The config attribute, or an empty config when none is attached.
    ::mlir::wsgemm::ConfigAttr getConfigOrEmpty();

  private:
    std::optional<int64_t> getStaticDim(unsigned index);
  public:
  }];
}

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_TD
