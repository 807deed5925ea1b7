//===- EpiInterfaces.td - Epilogue op interfaces -----------*- tablegen -*-===//
//
// EpilogueOpInterface is implemented by ops that own an epilogue region (for
// example `wsgemm.gemm`). Epilogue leaves and outputs may only appear directly
// inside such a region; they query it for the element types of C and D.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIINTERFACES_TD
#define WSGEMM_DIALECT_EPI_EPIINTERFACES_TD

include "mlir/IR/OpBase.td"

def Epi_EpilogueOpInterface : OpInterface<"EpilogueOpInterface"> {
  let cppNamespace = "::mlir::epi";
  let description = [{
    An op that owns an epilogue region: a single block whose only argument is
    the f32 accumulator element, terminated by `epi.yield`.
  }];
  let methods = [
    InterfaceMethod<"The epilogue region.", "::mlir::Region &",
                    "getEpilogueRegion">,
    InterfaceMethod<"Element type of the D output.", "::mlir::Type",
                    "getDElementType">,
    InterfaceMethod<"Element type of the source C, or null when the op has "
                    "no C operand.", "::mlir::Type", "getCElementType">,
  ];
}

#endif // WSGEMM_DIALECT_EPI_EPIINTERFACES_TD
