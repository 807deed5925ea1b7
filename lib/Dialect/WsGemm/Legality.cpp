//===- Legality.cpp - What a planned GEMM config cannot do ----------------===//
//
// Implements planning::checkLegality: every rule the lowering depends on,
// stated with the numbers that break it, so that a config the planner
// accepts is never refused by a later pass. No IR here.
//
//===----------------------------------------------------------------------===//

#include "LegalityOperandLoads.h"
#include "LegalityRules.h"

#include "ws-gemm/Dialect/WsGemm/KernelLayout.h"
#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir::wsgemm::planning;
using namespace mlir::wsgemm::planning::legality;

static int64_t bytesOf(DType type) { return (getBits(type) + 7) / 8; }

//===----------------------------------------------------------------------===//
// Legality
//===----------------------------------------------------------------------===//

/// Group 1: element types, layouts, cluster, tile shape and schedule.
static void checkShapeRules(const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  auto bits = [](DType type) { return getBits(type); };
  auto isFp8 = [](DType type) {
    return type == DType::F8E4M3 || type == DType::F8E5M2;
  };
  auto is16 = [](DType type) {
    return type == DType::F16 || type == DType::BF16;
  };
  bool fp8 = isFp8(desc.a) && isFp8(desc.b);
  auto isInt = [](DType type) {
    return type == DType::I4 || type == DType::I8;
  };
  if (desc.isMixedInput() || isInt(desc.a) || isInt(desc.b))
    checkMixedInputRules(desc, errors);
  else if (!(is16(desc.a) && is16(desc.b)) && !fp8)
    errors.error() << "A and B must be both 16-bit (f16, bf16) or both 8-bit "
                      "(f8E4M3FN, f8E5M2) because the mainloop issues "
                      "wgmma with f32 accumulation on those, got "
                   << toString(desc.a) << " A and " << toString(desc.b)
                   << " B";
  else if (!fp8 && desc.a != desc.b)
    errors.error() << "A and B must have the same element type because "
                      "wgmma multiplies f16 x f16 or bf16 x bf16, got "
                   << toString(desc.a) << " A and " << toString(desc.b) << " B";
  if (isBlockScaled(desc.config))
    checkBlockScalingRules(desc, errors);
  else if (isPromoted(desc.config) && !fp8)
    errors.error() << "promotion_interval = " << *desc.config.promotionInterval
                   << " needs 8-bit A and B: it works around fp8 wgmma's "
                      "reduced-precision accumulation, and " << toString(desc.a)
                   << " wgmma accumulates in f32 already (drop it or use 0)";
  // wgmma reads 8-bit operands from shared memory only K-major (PTX ISA:
  // the transpose bits imm-trans-a/b are valid for .f16/.bf16 only).
  if (fp8 && desc.aMajor == OperandMajor::M)
    errors.error() << "A of type " << toString(desc.a)
                   << " must be k_major: wgmma reads 8-bit operands only "
                      "K-major (it transposes f16/bf16 only); store A as "
                      "M x K with K contiguous (transpose it before the "
                      "GEMM)";
  if (fp8 && desc.bMajor == OperandMajor::N)
    errors.error() << "B of type " << toString(desc.b)
                   << " must be k_major: wgmma reads 8-bit operands only "
                      "K-major (it transposes f16/bf16 only); store B as "
                      "N x K with K contiguous (the TN layout cuBLASLt's "
                      "fp8 GEMM also needs)";
  if (bits(desc.d) != 8 && bits(desc.d) != 16 && bits(desc.d) != 32)
    errors.error() << "D must be 8-bit (f8E4M3FN, f8E5M2), 16-bit (f16, "
                      "bf16) or 32-bit (f32), got "
                   << bits(desc.d) << "-bit";
  if (desc.c != DType::None && bits(desc.c) != 8 && bits(desc.c) != 16 &&
      bits(desc.c) != 32)
    errors.error() << "C must be 8-bit (f8E4M3FN, f8E5M2), 16-bit (f16, "
                      "bf16) or 32-bit (f32), got "
                   << bits(desc.c) << "-bit";
  for (const EpilogueOperand &operand : desc.operands) {
    bool matrix = operand.kind == EpilogueOperand::Kind::AuxLoad ||
                  operand.kind == EpilogueOperand::Kind::AuxStore;
    bool vector = operand.kind == EpilogueOperand::Kind::VecM ||
                  operand.kind == EpilogueOperand::Kind::VecN;
    unsigned b = bits(operand.type);
    if ((matrix || vector) && b != 8 && b != 16 && b != 32)
      errors.error() << "epilogue operand '" << operand.name
                     << "' must have 8-, 16- or 32-bit elements, got " << b
                     << "-bit";
  }
  if (desc.aMajor == OperandMajor::N)
    errors.error() << "A must be k_major or m_major because it is M x K, got "
                      "n_major";
  if (desc.bMajor == OperandMajor::M)
    errors.error() << "B must be k_major or n_major because it is K x N, got "
                      "m_major";
  std::vector<std::string> loadErrors;
  checkOperandLoadRules(desc, loadErrors);
  for (const std::string &e : loadErrors)
    errors.error() << e;
  // Tile rules depend on the element widths: report types first.
  if (errors.size())
    return;

  auto tile = c.tile.value_or(std::array<int64_t, 3>{0, 0, 0});
  auto cluster = c.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  if (tile[0] <= 0 || tile[1] <= 0 || tile[2] <= 0) {
    errors.error() << "tile = " << listToString(tile)
                   << " must have positive M, N and K";
    return;
  }
  if (cluster[0] < 1 || cluster[1] < 1 || cluster[2] != 1 ||
      cluster[0] * cluster[1] > 16)
    errors.error() << "cluster = " << listToString(cluster)
                   << " must be [M, N, 1] with M, N >= 1 and at most 16 CTAs "
                      "(K is not split across a cluster)";

  // A mixed-input A is dequantized in registers and B comes in 64-K
  // boxes: LegalityMixedInput.cpp has its tile K rule (64, 128 or 256).
  int64_t kBytes = tile[2] * bytesOf(desc.mmaA());
  if (kBytes != 128 && !desc.isMixedInput())
    errors.error() << "tile K = " << tile[2] << " spans " << kBytes
                   << " bytes of " << getBits(desc.mmaA())
                   << "-bit A; it must span exactly 128 bytes (one row of the "
                      "128B swizzle, the only one warpgroup.generate."
                      "descriptor supports), so tile K must be "
                   << 128 / std::max<int64_t>(1, bytesOf(desc.mmaA()));
  if (tile[1] % 16 != 0 || tile[1] < 16 || tile[1] > 256)
    errors.error() << "tile N = " << tile[1]
                   << " is not a wgmma N: it must be a multiple of 16 in "
                      "[16, 256] (wgmma allows multiples of 8; we require 16)";

  KernelSchedule schedule = getSchedule(desc);
  switch (schedule) {
  case KernelSchedule::WarpSpecialized:
    if (tile[0] != 64 && tile[0] != 128)
      errors.error() << "schedule warp_specialized has one consumer "
                        "warpgroup per tile, owning 64 or 128 rows (one or "
                        "two m64 wgmma), so tile M must be 64 or 128, got "
                     << tile[0];
    break;
  case KernelSchedule::Multistage: // sm_8x only (PlanningChip.cpp)
  case KernelSchedule::Cooperative:
    if (tile[0] != 128 && tile[0] != 256)
      errors.error() << "schedule " << toString(schedule)
                     << " splits tile M across 2 consumer warpgroups of 64 or "
                        "128 rows each (one or "
                        "two m64 wgmma), so tile M must be 128 or 256, got "
                     << tile[0];
    break;
  case KernelSchedule::Pingpong:
    if (tile[0] != 64 && tile[0] != 128)
      errors.error() << "schedule pingpong gives each of its 2 consumer "
                        "warpgroups whole tiles of 64 or 128 rows (one or two "
                        "m64 wgmma), so tile M must be 64 or 128, got "
                     << tile[0];
    if (!c.persistent.value_or(true))
      errors.error() << "schedule pingpong needs persistent = true: its 2 "
                        "consumer warpgroups take alternate tiles from the "
                        "persistent tile scheduler";
    break;
  }
}

/// Reports a row stride that TMA cannot use. `output`: a matrix the
/// epilogue stores, which `store = direct` writes without TMA.
static void checkRowStride(ErrorList &errors, const std::string &operand,
                           const char *dimName, int64_t dim, DType type,
                           bool output = false) {
  int64_t stride = dim * bytesOf(type);
  if (stride % 16 == 0)
    return;
  auto os = errors.error();
  os << "TMA needs row strides that are multiples of 16 bytes, but "
     << operand << " has a row stride of " << dimName << " x " << bytesOf(type)
     << " = " << stride << " bytes (" << dimName << " = " << dim << "); ";
  if (output)
    os << "set store = direct (every epilogue thread stores its elements "
          "with st.global, any row stride)";
  else
    os << "leave the shape dynamic and store the rows padded to a multiple "
          "of 16 bytes (leading dimension "
       << (dim * bytesOf(type) + 15) / 16 * 16 / bytesOf(type)
       << "), which the runtime takes as the operand's ld, or load it with "
          "cp.async (load_"
       << (operand[0] == 'A' || operand[0] == 'B'
               ? char(operand[0] - 'A' + 'a')
               : 'c')
       << " = cp_async)";
}

/// Group 2: epilogue tile and buffers, pipeline knobs, registers, TMA.
static void checkKnobRules(const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  KernelSchedule schedule = getSchedule(desc);
  auto tile = *c.tile;
  auto epi = c.epiTile.value_or(std::array<int64_t, 2>{0, 0});

  if (epi[0] <= 0 || epi[1] <= 0) {
    errors.error() << "epi_tile = " << listToString(epi)
                   << " must have positive M and N";
  } else if (tile[0] % epi[0] != 0 || tile[1] % epi[1] != 0) {
    errors.error() << "epi_tile = " << listToString(epi)
                   << " must divide the CTA tile's M x N = " << tile[0] << " x "
                   << tile[1] << ", but " << tile[0] << " % " << epi[0] << " = "
                   << tile[0] % epi[0] << " and " << tile[1] << " % " << epi[1]
                   << " = " << tile[1] % epi[1];
  } else {
    bool split = getWarpgroupsPerTile(schedule) == 2;
    int64_t wantM = split ? 128 : 64;
    if (epi[0] != wantM)
      errors.error() << "epi_tile M must be " << wantM << " for schedule "
                     << toString(schedule)
                     << (split
                             ? " (64 rows from each of the 2 consumer "
                               "warpgroups"
                             : " (the 64-row block of one m64 wgmma")
                     << ", as in CUTLASS's sm90_compute_tile_shape_or_"
                        "override), got "
                     << epi[0];
    if (epi[1] % 16 != 0)
      errors.error() << "epi_tile N = " << epi[1]
                     << " must be a multiple of 16 (stmatrix writes 16 "
                        "columns of the subtile per step)";
  }

  int64_t stages = c.stages.value_or(0);
  if (stages < 2)
    errors.error() << "stages = " << stages
                   << " must be at least 2 so that the TMA loads of the next "
                      "k-tile overlap the wgmma of the current one";
  auto atLeastOne = [&](const char *name, std::optional<int64_t> value) {
    if (value.value_or(0) < 1)
      errors.error() << name << " = " << value.value_or(0)
                     << " must be at least 1";
  };
  atLeastOne("stages_c", c.stagesC);
  atLeastOne("stages_d", c.stagesD);
  atLeastOne("fragment_size", c.fragmentSize);

  // The EVT visits each thread's subtile elements fragment_size at a time.
  int64_t threads = getNumEpilogueThreads(schedule);
  int64_t perThread = epi[0] * epi[1] / threads;
  int64_t fragment = c.fragmentSize.value_or(0);
  if (fragment >= 1 && epi[0] > 0 && epi[1] > 0 &&
      (perThread == 0 || perThread % fragment != 0))
    errors.error() << "fragment_size = " << fragment << " must divide the "
                   << perThread << " accumulator elements each of the "
                   << threads << " epilogue threads holds per " << epi[0] << "x"
                   << epi[1] << " subtile";

  if (c.reuseSmemC.value_or(false)) {
    if (!desc.loadsC || !desc.storesD)
      errors.error() << "reuse_smem_c = true needs an epilogue that loads C "
                        "(epi.load_src) and stores D (epi.store): D's buffers "
                        "alias C's";
    else if (getBits(desc.c) != getBits(desc.d))
      errors.error() << "reuse_smem_c = true needs C and D of the same width "
                        "because D's buffers alias C's, got "
                     << getBits(desc.c) << "-bit C and " << getBits(desc.d)
                     << "-bit D";
    else if (c.stagesD.value_or(0) > c.stagesC.value_or(0))
      errors.error() << "reuse_smem_c = true needs stages_d <= stages_c "
                        "because D's buffers live inside C's, got stages_d = "
                     << c.stagesD.value_or(0)
                     << " and stages_c = " << c.stagesC.value_or(0);
  }

  int64_t swizzle = c.swizzle.value_or(1);
  if (swizzle != 1 && swizzle != 2 && swizzle != 4 && swizzle != 8)
    errors.error() << "swizzle = " << swizzle
                   << " must be 1, 2, 4 or 8 (the tile scheduler's "
                      "max_swizzle_size)";

  // setmaxnreg takes a multiple of 8 in [24, 256].
  auto checkRegs = [&](const char *name, std::optional<int64_t> regs) {
    if (regs && (*regs < 24 || *regs > 256 || *regs % 8 != 0))
      errors.error() << name << " = " << *regs
                     << " must be a multiple of 8 in [24, 256] (setmaxnreg)";
  };
  int64_t groups = getNumConsumerWarpgroups(schedule);
  size_t before = errors.size();
  checkRegs("producer_regs", c.producerRegs);
  checkRegs("consumer_regs", c.consumerRegs);
  // setmaxnreg moves registers within the CTA's launch allocation
  // (threads x the launch's per-thread share, 168 for 384 threads): a
  // budget above it leaves setmaxnreg.inc waiting forever (seen on the
  // H100 with 96 + 2 x 208 = 65536 > 64512).
  if (errors.size() == before && c.producerRegs && c.consumerRegs) {
    int64_t threads = getBlockThreads(schedule);
    int64_t share = getLaunchRegisterShare(threads, c.getCtasPerSm());
    int64_t total = *c.producerRegs * 128 + groups * *c.consumerRegs * 128;
    if (total > threads * share)
      errors.error() << "register budgets need " << *c.producerRegs
                     << " x 128 + " << groups << " x " << *c.consumerRegs
                     << " x 128 = " << total << " registers, more than the "
                     << threads * share << " the CTA is launched with ("
                     << threads << " threads x " << share
                     << (c.getCtasPerSm() > 1 ? ", its half of the SM's "
                                                "with ctas_per_sm = 2"
                                              : "")
                     << "; setmaxnreg only moves registers between its "
                        "warpgroups)";
  }

  // Each consumer thread keeps its share of the warpgroup's f32 accumulator
  // tile in registers; it must at least fit in the thread's budget (the
  // configured consumer_regs, else the launch share: at most 255).
  int64_t wgRows = tile[0] / getWarpgroupsPerTile(schedule);
  // Promoted accumulation keeps a partial and a total accumulator, and so
  // do group scales on the accumulator (only where both fit:
  // scalesDequantAccumulator).
  int64_t accRegs = wgRows * tile[1] / 128 * getAccumulatorSets(desc);
  int64_t budget = c.consumerRegs.value_or(
      getLaunchRegisterShare(getBlockThreads(schedule), c.getCtasPerSm()));
  // Beside the accumulator, the consumer's loop and epilogue keep about 40
  // registers live (addresses, indices, pipeline states, the subtile's
  // sources): measured with ptxas on the plain epilogue, cooperative
  // 256x192 (192 + 40 = 232) fits, 256x208 and warp_specialized 128x224
  // and 128x240 spill.
  constexpr int64_t kEpilogueRegs = 40;
  if (errors.size() == before && accRegs + kEpilogueRegs > budget)
    errors.error() << "each consumer thread holds its share of "
                   << (isPromoted(c) ? "two (promoted accumulation) " : "a ")
                   << wgRows << "x" << tile[1] << " f32 accumulator"
                   << (isPromoted(c) ? "s" : "") << " in " << accRegs
                   << " registers, which with the " << kEpilogueRegs
                   << " the epilogue needs is more than its budget of "
                   << budget << (c.consumerRegs ? " (consumer_regs)" : "")
                   << (c.getCtasPerSm() > 1
                           ? " with ctas_per_sm = 2 (a CTA gets half the "
                             "SM's registers)"
                           : "")
                   << ": use a smaller tile N"
                   << (getWarpgroupsPerTile(schedule) == 2
                           ? ""
                           : " or schedule cooperative")
                   << (c.getCtasPerSm() > 1 ? ", or one CTA per SM" : "");
  // Beside the accumulator, the epilogue's own registers (the EVT's
  // sources and outputs per element of a subtile, reduction partials): a
  // config that spills is refused, naming the budget (RegisterBudget.cpp).
  if (errors.size() == before && epi[0] > 0 && epi[1] > 0) {
    ConsumerRegisters regs = estimateConsumerRegisters(desc, epi);
    if (regs.total() > regs.budget)
      errors.error() << "the epilogue would spill registers: each consumer "
                        "thread needs about "
                     << regs.total() << " (accumulator " << regs.accumulator
                     << " + " << regs.fixed << " + reduction partials "
                     << regs.partials << " + " << regs.elements
                     << " elements per " << epi[0] << "x" << epi[1]
                     << " subtile x " << regs.perElement4 / 4 << "."
                     << (regs.perElement4 % 4) * 25
                     << " for the EVT's sources and outputs), more than its "
                        "budget of "
                     << regs.budget
                     << (c.consumerRegs ? " (consumer_regs)" : "")
                     << ": use a smaller epi_tile N or tile N, or a simpler "
                        "epilogue";
  }

  // TMA: every row stride of a tensor map is a multiple of 16 bytes.
  if (desc.shape) {
    auto [m, n, k, l] = *desc.shape;
    (void)l;
    // A cp.async operand's stride answers to its alignment, not TMA's.
    std::vector<std::string> copied;
    bool aM = desc.aMajor == OperandMajor::M;
    bool bN = desc.bMajor == OperandMajor::N;
    // A pre-packed (mixed-input) A has no row stride (its own rules).
    if (!desc.isMixedInput() &&
        !checkCopiedRowStride(desc, true, aM ? "M" : "K", aM ? m : k, copied))
      checkRowStride(errors,
                     aM ? "A (m_major: K x M, M contiguous)"
                        : "A (k_major: M x K, K contiguous)",
                     aM ? "M" : "K", aM ? m : k, desc.a);
    if (!checkCopiedRowStride(desc, false, bN ? "N" : "K", bN ? n : k, copied))
      checkRowStride(errors,
                     bN ? "B (n_major: K x N, N contiguous)"
                        : "B (k_major: N x K, K contiguous)",
                     bN ? "N" : "K", bN ? n : k, desc.b);
    for (const std::string &e : copied)
      errors.error() << e;
    // Copied C and aux loads answer to align_c.
    auto checkLoad = [&](const std::string &name, DType type) {
      if (!desc.copiesEpilogueLoads())
        return checkRowStride(errors, name, "N", n, type);
      int64_t stride = n * bytesOf(type), align = desc.epilogueCopyBytes();
      if (stride % align == 0)
        return;
      int64_t fits = align;
      while (fits > 2 && stride % fits != 0)
        fits /= 2;
      auto os = errors.error();
      os << name << " has a row stride of N x " << bytesOf(type) << " = "
         << stride << " bytes (N = " << n << "), not a multiple of align_c = "
         << align << " bytes (the epilogue's copy width); ";
      if (stride % fits == 0)
        os << "use align_c = " << fits;
      else
        os << "no copy width divides it: leave the shape dynamic and pass "
              "the rows padded to an even number of bytes";
    };
    if (desc.loadsC)
      checkLoad("C (M x N, N contiguous)", desc.c);
    // Outputs stored directly have no tensor map.
    bool tmaStores = !c.isDirectStore();
    if (desc.storesD && tmaStores)
      checkRowStride(errors, "D (M x N, N contiguous)", "N", n, desc.d,
                     /*output=*/true);
    for (const EpilogueOperand &aux : desc.operands)
      if (aux.kind == EpilogueOperand::Kind::AuxLoad)
        checkLoad("aux matrix '" + aux.name + "' (M x N)", aux.type);
      else if (aux.kind == EpilogueOperand::Kind::AuxStore && tmaStores)
        checkRowStride(errors, "aux matrix '" + aux.name + "' (M x N)", "N", n,
                       aux.type, /*output=*/true);
  }
}

/// Group 3: the SMEM budget.
static void checkSmemBudget(const GemmDesc &desc, int64_t capacity,
                            ErrorList &errors) {
  SmemBudget budget = computeSmemBudget(desc);
  if (budget.total <= capacity)
    return;
  // The largest stage count (>= 2) below the current one that fits.
  int64_t stages = desc.config.stages.value_or(2);
  std::optional<int64_t> fits;
  GemmDesc probe = desc;
  int64_t atTwo = 0;
  for (int64_t s = stages - 1; s >= 2 && !fits; --s) {
    probe.config.stages = s;
    int64_t total = computeSmemBudget(probe).total;
    if (total <= capacity)
      fits = s;
  }
  probe.config.stages = 2;
  atTwo = computeSmemBudget(probe).total;

  auto os = errors.error();
  os << "needs " << budget.total << " bytes of shared memory, " << capacity
     << " available"
     << (desc.config.getCtasPerSm() > 1
             ? " (a CTA's share with ctas_per_sm = " +
                   std::to_string(desc.config.getCtasPerSm()) + ")"
             : std::string())
     << ": over by " << budget.total - capacity << "; ";
  if (fits)
    os << "try stages = " << *fits << " or a smaller tile";
  else
    os << "even stages = 2 needs " << atTwo
       << " bytes: use a smaller tile or epilogue tile, or fewer epilogue "
          "buffers";
  os.flush();
  for (const SmemItem &item : budget.items) {
    if (!item.bytes)
      continue;
    std::string note;
    llvm::raw_string_ostream(note)
        << item.name << ": " << item.bytes << " bytes (" << item.formula << ")";
    errors.back().notes.push_back(std::move(note));
  }
}

/// Group 4: valid CUTLASS configs that ws-gemm's lowering does not
/// implement yet. Checked last, so that a config that could never work is
/// reported as such first.
static void checkLoweredRules(const GemmDesc &desc, ErrorList &errors) {
  const GemmConfig &c = desc.config;
  if (desc.bMajor == OperandMajor::N && (*c.tile)[1] % 64 != 0)
    errors.error() << "tile N = " << (*c.tile)[1]
                   << " must be a multiple of 64 for an n_major B, which "
                      "moves in 64-column blocks (128-byte swizzled TMA "
                      "boxes)";
  int64_t swizzle = c.swizzle.value_or(1);
  if (swizzle != 1 && !c.persistent.value_or(true))
    errors.error() << "swizzle = " << swizzle
                   << " needs persistent = true: a 'tiles' grid gives each "
                      "CTA the tile at its position; use swizzle = 1 or "
                      "persistent = true";
  bool reuse = c.reuseSmemC.value_or(false) && desc.loadsC && desc.storesD;
  if (reuse && c.delayTmaStore.value_or(false))
    errors.error() << "reuse_smem_c = true and delay_tma_store = true are not "
                      "lowered together: a C stage is released only after "
                      "the D store staged in it, which delay_tma_store holds "
                      "back";
  if (c.isDirectStore() && c.delayTmaStore.value_or(false))
    errors.error() << "store = direct and delay_tma_store = true exclude "
                      "each other: direct stores issue no TMA store to delay";
  if (reuse && desc.storesEpilogueLoads())
    errors.error() << "reuse_smem_c = true and align_c = 2 are not lowered "
                      "together (D would be staged over C's stages, which "
                      "the loader writes with st.shared); set "
                      "reuse_smem_c = false";
  if (c.isDirectStore() && reuse)
    errors.error() << "store = direct and reuse_smem_c = true are not "
                      "lowered together: D is staged in its own buffers, "
                      "copied out by every thread";
  if (reuse && c.warpStores.value_or(false))
    errors.error() << "reuse_smem_c = true and warp_stores = true are not "
                      "lowered together: a C stage goes back to the loader "
                      "once the warpgroup's store of the D staged in it has "
                      "read it";
  // red.global has min and max for 16-bit floats only as .v2/.v4/.v8
  // vectors (4-byte aligned pairs at least); direct stores write single
  // elements at any alignment.
  if (c.isDirectStore() && desc.storesD &&
      (desc.dReduce == StoreReduce::Min || desc.dReduce == StoreReduce::Max))
    errors.error() << "store = direct with 'reduce " << toString(desc.dReduce)
                   << "' on D: PTX's red.global has " << toString(desc.dReduce)
                   << " for " << toString(desc.d)
                   << " only as vectors of 2 to 8 elements, and direct "
                      "stores write one element at any alignment; use "
                      "store = tma (cp.reduce.async.bulk.tensor) or "
                      "'reduce add'";
  if (c.isDirectStore() && c.warpStores.value_or(false))
    errors.error() << "store = direct and warp_stores = true exclude each "
                      "other: direct stores issue no TMA store";
  if (desc.storesD && desc.dMajor == OperandMajor::M && !c.isDirectStore())
    errors.error() << "d(" << toString(desc.d)
                   << ", m_major) is written by the direct stores only "
                      "(the TMA store writes the staged subtile's rows along "
                      "N): use store = direct, or leave store unset";
  if (c.delayTmaStore.value_or(false) && c.stagesD.value_or(0) < 2)
    errors.error() << "delay_tma_store = true needs stages_d >= 2 (the "
                      "delayed store still reads one buffer while the next "
                      "is written), got stages_d = "
                   << c.stagesD.value_or(0);
  auto cluster = c.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  int64_t ctas = cluster[0] * cluster[1] * cluster[2];
  if (ctas > 1) {
    auto lowered = [](int64_t d) { return d == 1 || d == 2 || d == 4; };
    bool supported = ctas <= 4 && lowered(cluster[0]) && lowered(cluster[1]);
    if (!supported)
      errors.error() << "cluster = " << listToString(cluster)
                     << " is not lowered yet: clusters of 2 or 4 CTAs are "
                        "([2, 1, 1], [4, 1, 1] sharing B tiles; [1, 2, 1], "
                        "[1, 4, 1] sharing A tiles; [2, 2, 1] sharing both)";
    if (!c.persistent.value_or(true))
      errors.error() << "cluster = " << listToString(cluster)
                     << " needs persistent = true: the cluster's CTAs walk "
                        "groups of tiles of the persistent tile scheduler";
    // A shared tile is split among its CTAs (B among cluster M, A among
    // cluster N): MN-major in 64-column blocks, K-major in 8-row atoms.
    auto checkSplit = [&](const char *name, bool mnMajor, const char *dim,
                          int64_t size, int64_t parts) {
      int64_t unit = mnMajor ? 64 * parts : 8 * parts;
      if (parts == 1 || !supported || size % unit == 0)
        return;
      errors.error() << "cluster = " << listToString(cluster) << " splits the "
                     << (mnMajor ? "" : "k_major ") << name << " tile"
                     << (mnMajor ? "'s 64-column blocks" : " in 8-row atoms")
                     << " between " << parts << " CTAs: tile " << dim
                     << " must be a multiple of " << unit << ", got " << size;
    };
    checkSplit(desc.bMajor == OperandMajor::N ? "n_major B" : "B",
               desc.bMajor == OperandMajor::N, "N", (*c.tile)[1], cluster[0]);
    checkSplit(desc.aMajor == OperandMajor::M ? "m_major A" : "A",
               desc.aMajor == OperandMajor::M, "M", (*c.tile)[0], cluster[1]);
  }
  if (c.producerRegs.has_value() != c.consumerRegs.has_value())
    errors.error() << "producer_regs and consumer_regs must be set together: "
                      "setmaxnreg moves registers from the producer "
                      "warpgroup to the consumer warpgroups";
  checkTileSchedulerRules(desc, errors);
}

std::vector<PlanError>
mlir::wsgemm::planning::checkLegality(const GemmDesc &desc, int64_t capacity) {
  ErrorList errors;
  checkShapeRules(desc, errors);
  if (errors.size())
    return errors.take();
  checkKnobRules(desc, errors);
  if (errors.size())
    return errors.take();
  // Two resident CTAs share the SM's shared memory.
  checkSmemBudget(
      desc, getSmemCapacityPerCta(capacity, desc.config.getCtasPerSm()),
      errors);
  if (errors.size())
    return errors.take();
  checkLoweredRules(desc, errors);
  return errors.take();
}
