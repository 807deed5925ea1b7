//===- ParseFuzzer.cpp - Fuzz the epi/wsgemm parser and verifiers ---------===//
//
// wsgemm-fuzz-parse: each input is MLIR text, parsed with every dialect
// ws-gemm-opt knows and verified (the parser runs the verifiers of every op,
// ours included: wsgemm.gemm, #wsgemm.config, the epi region, the explicit
// level's roles and pipelines). What parses is printed, re-parsed and
// printed again, which must give the same text (our custom assembly
// formats round-trip), in generic form too. Each kernel name it accepts
// goes through NVPTX's printer (printKernelNamesWithNVPTX), which aborts on
// a name it cannot print.
//
//===----------------------------------------------------------------------===//

#include "FuzzMLIR.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

static std::string print(ModuleOp module, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  return text;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::wsgemm::fuzz::Input input(data, size);
  if (!input.module)
    return 0;
  ModuleOp module = *input.module;
  mlir::wsgemm::fuzz::printKernelNamesWithNVPTX(module);
  // Round trips are ours to keep only where every op is ours or one our
  // EVTs use; upstream dialects' printers are upstream's business.
  bool ours = true;
  module->walk([&](Operation *op) {
    StringRef ns = op->getName().getDialectNamespace();
    if (ns != "builtin" && ns != "epi" && ns != "wsgemm" && ns != "arith" &&
        ns != "math" && ns != "func")
      ours = false;
  });
  if (!ours)
    return 0;
  for (bool generic : {false, true}) {
    std::string first = print(module, generic);
    OwningOpRef<ModuleOp> again = mlir::wsgemm::fuzz::parse(
        input.context, reinterpret_cast<const uint8_t *>(first.data()),
        first.size());
    if (!again) {
      // What we print must parse: a printer/parser mismatch is a bug.
      std::fprintf(stderr,
                   "wsgemm-fuzz-parse: the %s form of a verified module does "
                   "not parse back:\n%s\n",
                   generic ? "generic" : "custom", first.c_str());
      std::abort();
    }
    std::string second = print(*again, generic);
    if (first != second) {
      std::fprintf(stderr,
                   "wsgemm-fuzz-parse: printing is not stable (%s form):\n"
                   "first:\n%s\nsecond:\n%s\n",
                   generic ? "generic" : "custom", first.c_str(),
                   second.c_str());
      std::abort();
    }
  }
  return 0;
}
