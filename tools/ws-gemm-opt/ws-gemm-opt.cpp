//===- ws-gemm-opt.cpp - ws-gemm optimizer driver -------------------------===//
//
// MlirOptMain with every upstream dialect, extension and pass registered,
// plus the epi and wsgemm dialects, their passes and named pipelines.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::wsgemm::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::wsgemm::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "ws-gemm optimizer driver\n", registry));
}
