//===- RegisterBudget.cpp - The consumer's registers during the epilogue --===//
//
// A consumer thread holds its share of the f32 accumulator through the
// epilogue; beside it the epilogue needs registers that grow with the EVT
// and with the elements of one subtile: each element's code is
// straight-line and ptxas schedules a whole subtile's elements together,
// issuing their loads early (fragment_size does not change what it keeps
// live: measured, 188 bytes of spills at fragment_size 64, 32 and 8
// alike; a narrower epi_tile N removes them). The estimate, at the first
// subtile (later subtiles reuse the registers of accumulator elements
// already stored):
//
//   accumulator  wgRows * tile N / 128
//   fixed        40: addresses, indices, pipeline states (kEpilogueRegs:
//                the plain epilogue D = acc fits at cooperative 256x192,
//                192 + 40 = 232, and spills at 256x208)
//   partials     the first subtile's reduction partials: epi N / 4 per
//                reduce_to_vec_n (one per column of the thread), 2 per
//                reduce_to_vec_m (rows), 1 per reduce_to_scalar
//   elements     epi M * epi N / epilogue threads
//   perElement   in quarter registers: 5 per aux matrix read and per row
//                or column vector, 8 per aux store (its converted value
//                waits for the R2S after the subtile), 4 per
//                long-latency op, 2 per reduction, 1 per scalar read
//                through a pointer; C and D cost nothing (C is added into
//                the accumulator element's register as it is read: the
//                plain D = acc + C fits at cooperative 256x192 with 16
//                elements per subtile, and at 256x128 with 64)
//
// The weights were fitted with ptxas 13.0 to the kernels at the edge: the
// random EVTs of gen_evt.py that spilled (seeds 1, 3, 17, 31, 33, 38 of
// integration_test/evt-spills.test with --avoid-known-bugs) spill where
// the estimate exceeds the budget and fit with half the subtile's
// elements, where it does not; kernels that do not spill stay within it
// (wsgemm-plan.mlir's aux_and_reductions: 231 of 232; reductions.mlir's
// red_mixed_kinds: 228). E.g. seed 31 (silu, divf: 2 per element;
// 128 + 40 leave 64 of 232) spills with 64 elements per subtile and fits
// with 32; seed 1 (an aux matrix, a column vector, two aux stores, 8
// long-latency ops: 14.5; warp_specialized 128x64, 64 + 40 leave 151 of
// 255) spills with 16 and fits with 8; seed 38 (cooperative 128x256, an
// aux matrix, a column vector, two aux stores, three reductions, a
// sigmoid: 9 per element, 57 left beside its partials) spills even at
// epi N = 16: its tile N must shrink. It is an estimate: evt-spills.test
// compiles 40 random EVTs through ptxas to keep it honest.
//
// The epilogue-load warp (cooperative and pingpong: setmaxnreg to
// producer_regs, 40) issues each subtile's C and aux TMA loads, one
// 64-row box per source per 64 rows of the subtile. Where the subtile
// loop has at most 4 iterations (LLVM unrolls it) and the C ring's stage
// count divides it, every subtile's stage is the same in every tile, and
// LLVM hoists each stage's shared addresses (one per box, the full and
// the empty barrier: 64 bits each, shared::cluster) out of the persistent
// loop: 2 x stages_c x (boxes + 2) registers beside its loop state. With
// stages_c = 3 and 4 subtiles nothing is hoisted. Measured with ptxas
// 13.0 (cooperative 128x64 epi 128x16 and 128x128 epi 128x32, pingpong
// 64x64 epi 64x16 and 64x128 epi 64x32; C and 0 to 3 aux matrices, f16
// and f32; stages_c 2, 3, 4): at most 32 such registers fit (C alone at
// 4 stages: 32), 40 and more spill 12 to 112 bytes (C and one aux
// matrix: 48, 12 bytes; four sources at 2 stages: 40, 52 bytes), except
// pingpong's three sources at 4 stages (40, fits); 8 subtiles spill
// nothing. So the default stages_c (CUTLASS's min(subtiles, 4)) comes
// down until those registers are at most producer_regs - 8: 4 subtiles
// with C and an aux matrix take 3 stages (evt-spills.test's seed 1 spilled
// 12 bytes with 4).
//
//===----------------------------------------------------------------------===//

#include "RegisterBudget.h"

using namespace mlir::wsgemm::planning;

ConsumerRegisters
mlir::wsgemm::planning::estimateConsumerRegisters(const GemmDesc &desc,
                                                  std::array<int64_t, 2> epi) {
  using Kind = EpilogueOperand::Kind;
  const GemmConfig &c = desc.config;
  KernelSchedule schedule = c.schedule.value_or(KernelSchedule::Cooperative);
  std::array<int64_t, 3> tile = c.tile.value_or(std::array<int64_t, 3>{});
  int64_t wgRows = tile[0] / getWarpgroupsPerTile(schedule);

  ConsumerRegisters r;
  // Promoted accumulation (fp8) keeps a partial and a total accumulator,
  // and so do group scales on the accumulator.
  r.accumulator = wgRows * tile[1] / 128 * getAccumulatorSets(desc);
  r.fixed = 40;
  r.budget = c.consumerRegs.value_or(
      getLaunchRegisterShare(getBlockThreads(schedule), c.getCtasPerSm()));
  r.elements = epi[0] * epi[1] / getNumEpilogueThreads(schedule);
  // C is added into the accumulator's register as it is read: free.
  r.perElement4 = 4 * desc.longLatencyOps;
  for (const EpilogueOperand &op : desc.operands) {
    switch (op.kind) {
    case Kind::AuxLoad:
    case Kind::VecM:
    case Kind::VecN:
      r.perElement4 += 5;
      break;
    case Kind::AuxStore:
      r.perElement4 += 8;
      break;
    case Kind::ReduceVecM:
      r.perElement4 += 2;
      r.partials += 2;
      break;
    case Kind::ReduceVecN:
      r.perElement4 += 2;
      r.partials += epi[1] / 4;
      break;
    case Kind::ReduceScalar:
      r.perElement4 += 2;
      r.partials += 1;
      break;
    case Kind::ScalarPointer:
      r.perElement4 += 1;
      break;
    case Kind::Scalar:
      break;
    }
  }
  return r;
}

int64_t mlir::wsgemm::planning::fitEpilogueLoadStages(const GemmDesc &desc,
                                                     int64_t epiTiles,
                                                     int64_t epiM,
                                                     int64_t stagesC) {
  const GemmConfig &c = desc.config;
  // warp_specialized keeps the launch budget (no setmaxnreg).
  if (!c.producerRegs || epiTiles > 4)
    return stagesC;
  int64_t sources = desc.loadsC ? 1 : 0;
  for (const EpilogueOperand &op : desc.operands)
    if (op.kind == EpilogueOperand::Kind::AuxLoad)
      ++sources;
  int64_t boxes = sources * std::max<int64_t>(1, epiM / 64);
  for (int64_t s = stagesC; s > 1; --s) {
    bool hoisted = epiTiles % s == 0;
    if (!hoisted || 2 * s * (boxes + 2) <= *c.producerRegs - 8)
      return s;
  }
  return 1;
}
