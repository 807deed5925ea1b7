//===- RegisterBudget.h - The epilogue-load warp's C ring -------*- C++ -*-===//
//
// What fillDefaults (Planning.cpp) asks RegisterBudget.cpp beside the
// consumer's estimate (Planning.h, estimateConsumerRegisters).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_DIALECT_WSGEMM_REGISTERBUDGET_H
#define WSGEMM_LIB_DIALECT_WSGEMM_REGISTERBUDGET_H

#include "ws-gemm/Dialect/WsGemm/Planning.h"

namespace mlir::wsgemm::planning {

/// The C/aux ring's stage count for the epilogue-load warp to fit its
/// budget (producer_regs), at most `stagesC`: where the subtile loop is
/// unrolled and every subtile's stage is fixed, that warp keeps each
/// stage's shared addresses live across the persistent loop. `epiTiles`
/// subtiles of `epiM` rows per tile.
int64_t fitEpilogueLoadStages(const GemmDesc &desc, int64_t epiTiles,
                              int64_t epiM, int64_t stagesC);

} // namespace mlir::wsgemm::planning

#endif // WSGEMM_LIB_DIALECT_WSGEMM_REGISTERBUDGET_H
