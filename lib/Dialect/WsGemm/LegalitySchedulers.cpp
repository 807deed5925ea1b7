//===- LegalitySchedulers.cpp - Rules of tile schedulers and block scales -===//
//
// Two rule groups of planning::checkLegality (Legality.cpp): split-K and
// stream-K, whose units share a workspace, and DeepSeek-style block-wise
// scaling. No IR here.
//
//===----------------------------------------------------------------------===//

#include "LegalityRules.h"

using namespace mlir::wsgemm::planning;
using namespace mlir::wsgemm::planning::legality;

/// Split-K and stream-K: the units of a tile wait for each other through
/// the workspace (TileScheduler.cpp), which is deadlock-free only when
/// every CTA is resident, so the grid must be persistent; pingpong is not
/// lowered with them, clusters only with split-K (whose units of one split
/// index cover the same K range, so a cluster's CTAs walk them together).
void legality::checkTileSchedulerRules(const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  std::string what = splitKnob(c);
  // The scheduler's own parameters are found by name, like the epilogue's.
  for (const EpilogueOperand &operand : desc.operands) {
    bool order = c.hasRuntimeTileOrder() && operand.name == "tile_order";
    if (order || (c.hasWorkspace() && (operand.name == "workspace" ||
                                       operand.name == "stream_k_tiles")))
      errors.error() << (order ? "a config without raster or swizzle" : what)
                     << " takes a kernel parameter named '" << operand.name
                     << "': rename the epilogue operand '" << operand.name
                     << "'";
  }
  if (!c.hasWorkspace())
    return;
  if (!c.persistent.value_or(true))
    errors.error() << what
                   << " needs persistent = true: a tile's K splits wait for "
                      "each other, which only a grid of co-resident CTAs "
                      "(one per SM) guarantees to finish";
  if (getSchedule(desc) == KernelSchedule::Pingpong)
    errors.error() << what
                   << " is not lowered for schedule = pingpong (its two "
                      "warpgroups take alternate whole tiles in turns); use "
                      "cooperative or warp_specialized";
  auto cluster = c.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  if (c.isStreamK() && cluster[0] * cluster[1] * cluster[2] > 1)
    errors.error() << what
                   << " is not lowered with cluster = " << listToString(cluster)
                   << " (the cluster's CTAs share operand tiles, so they "
                      "must walk the same K ranges, and stream-K's ranges "
                      "differ per CTA); use cluster = [1, 1, 1] or split_k";
}

/// Block-wise scaling (DeepSeek-V3): the scales of one 128-wide K block are
/// applied when that block's partial is promoted, so a k-tile is exactly
/// one K block (8-bit tile K is 128 already: checkShapeRules) and every
/// k-tile is promoted; a tile's columns lie in whole 128-column scale
/// blocks of B, or within one.
void legality::checkBlockScalingRules(const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  auto isFp8 = [](DType t) { return t == DType::F8E4M3 || t == DType::F8E5M2; };
  if (!isFp8(desc.a) || !isFp8(desc.b)) {
    errors.error() << "block_scaling = true needs 8-bit A and B (f8E4M3FN, "
                      "f8E5M2): its scales undo fp8 quantization, got "
                   << toString(desc.a) << " A and " << toString(desc.b)
                   << " B";
    return;
  }
  if (c.promotionInterval.value_or(1) != 1)
    errors.error() << "block_scaling = true needs promotion_interval = 1: "
                      "each 128-wide K block's partial is scaled by that "
                      "block's scales when it is promoted, got "
                      "promotion_interval = "
                   << *c.promotionInterval;
  int64_t tileN = c.tile ? (*c.tile)[1] : 128;
  if (tileN % 128 != 0 && 128 % tileN != 0)
    errors.error() << "block_scaling = true needs tile N a multiple of 128 "
                      "or a divisor of 128, so that a tile's columns lie in "
                      "whole 128-column scale blocks of B or within one, "
                      "got tile N = "
                   << tileN;
  for (const EpilogueOperand &operand : desc.operands)
    if (operand.name == "block_scale_a" || operand.name == "block_scale_b")
      errors.error() << "block_scaling = true takes a kernel parameter named '"
                     << operand.name << "': rename the epilogue operand '"
                     << operand.name << "'";
}
