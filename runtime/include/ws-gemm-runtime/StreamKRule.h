//===- StreamKRule.h - How many tiles stream-K takes -------------*- C++ -*-===//
//
// The one stream-K rule (docs/stream-k.md), header-only and MLIR-free: the
// runtime applies it at launch to the device's SM count, the planner at
// compile time to kPlannerSmCount when it picks a kernel's tile scheduler.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_STREAMKRULE_H
#define WSGEMM_RUNTIME_STREAMKRULE_H

#include <cstdint>

namespace wsgemm::runtime {

/// For `tiles` output tiles of `kTiles` k-tiles each on a persistent grid
/// of `ctas` CTAs, the tiles of the hybrid decomposition's stream-K region:
/// 0 (all data-parallel) when the tiles fill whole waves, a tile has one
/// k-tile, or stream-K would gain under 10% (ceil(tiles / ctas) waves
/// against tiles / ctas); every tile when there are fewer tiles than CTAs;
/// else the partial last wave plus one full wave.
inline int64_t chooseStreamKTiles(int64_t tiles, int64_t kTiles,
                                  int64_t ctas) {
  if (tiles <= 0 || ctas <= 0 || kTiles < 2 || tiles % ctas == 0)
    return 0;
  int64_t waves = (tiles + ctas - 1) / ctas;
  if (10 * waves * ctas < 11 * tiles)
    return 0;
  if (tiles < ctas)
    return tiles;
  return tiles % ctas + ctas;
}

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_STREAMKRULE_H
