//===- EpiDialect.td - Epilogue fusion (EVT) dialect -------*- tablegen -*-===//
//
// The `epi` dialect expresses an Epilogue Visitor Tree (EVT): the per-element
// computation a GEMM applies to its accumulator before storing D.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIDIALECT_TD
#define WSGEMM_DIALECT_EPI_EPIDIALECT_TD

include "mlir/IR/OpBase.td"

def Epi_Dialect : Dialect {
  let name = "epi";
  let cppNamespace = "::mlir::epi";
  let summary = "Epilogue Visitor Trees for fused GEMM epilogues";
  let description = [{
    An epilogue is a single-block region evaluated once per output element
    (m, n[, l]) of a GEMM. Its block argument is the f32 accumulator element;
    the SSA graph of the region is the visitor tree (a DAG, since values may
    have several uses). Leaves read per-element GEMM state (C, broadcast
    vectors, aux matrices, scalars); compute is any scalar `arith`/`math` op
    or a named activation; outputs store D, aux matrices, or reduce.

    Index naming is explicit to avoid CUTLASS's RowBroadcast trap:
    `epi.load_vec_m` reads a vector indexed by m (one value per row of D,
    CUTLASS's Sm90ColBroadcast / "PerRowBias"), `epi.load_vec_n` one indexed by
    n (Sm90RowBroadcast). `epi.reduce_to_vec_m` produces one value per row.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  // Hand-written attribute hooks (EpiDialect.cpp): they forward to the
  // generated parser and report a trailing `: type` the generic attribute
  // parser consumed after #epi.activation, so that `epi.fusion ... activation
  // #epi.activation<relu> : f32` parses.
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

#endif // WSGEMM_DIALECT_EPI_EPIDIALECT_TD
