//===- LegalityOperandLoads.h - Rules of cp.async operand loads -*- C++ -*-===//
//
// Legality rules of `load_a`/`load_b = cp_async` (LegalityOperandLoads.cpp),
// called by checkLegality (Legality.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_DIALECT_WSGEMM_LEGALITYOPERANDLOADS_H
#define WSGEMM_LIB_DIALECT_WSGEMM_LEGALITYOPERANDLOADS_H

#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include <string>
#include <vector>

namespace mlir::wsgemm::planning {

/// Appends what a cp.async operand load cannot do (element type, alignment
/// below the element, clusters) to `errors`.
void checkOperandLoadRules(const GemmDesc &desc,
                           std::vector<std::string> &errors);

/// For a static shape: when A (`isA`) or B is loaded with cp.async, checks
/// its row stride (`dim` elements along `dimName`) against its alignment,
/// appends an error if it breaks it and returns true (TMA's 16-byte rule
/// does not apply); returns false for a TMA operand.
bool checkCopiedRowStride(const GemmDesc &desc, bool isA, const char *dimName,
                          int64_t dim, std::vector<std::string> &errors);

} // namespace mlir::wsgemm::planning

#endif // WSGEMM_LIB_DIALECT_WSGEMM_LEGALITYOPERANDLOADS_H
