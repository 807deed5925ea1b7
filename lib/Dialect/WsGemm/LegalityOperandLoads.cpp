//===- LegalityOperandLoads.cpp - Rules of cp.async operand loads ---------===//
//
// The part of planning::checkLegality about how the mainloop loads A and B
// (`load_a`/`load_b = cp_async`, `align_a`/`align_b`): which operands the
// cp.async producer copies (CpAsyncProducer.cpp), with which clusters, and
// which static strides an alignment admits; and how the epilogue-load warp
// copies C and the aux loads (`load_c = cp_async`, `align_c`). Kept apart
// from Legality.cpp, which calls it with the type and shape rules (group
// 1). No IR here.
//
//===----------------------------------------------------------------------===//

#include "LegalityOperandLoads.h"

using namespace mlir::wsgemm::planning;

/// "[a, b, c]" for diagnostics.
static std::string listToString(const std::array<int64_t, 3> &values) {
  return "[" + std::to_string(values[0]) + ", " + std::to_string(values[1]) +
         ", " + std::to_string(values[2]) + "]";
}

/// `load_c = cp_async`: the epilogue-load warp's copies of C and the aux
/// loads (EpilogueLoads.cpp), at align_c bytes.
static void checkEpilogueLoadRules(const GemmDesc &desc,
                                   std::vector<std::string> &errors) {
  const GemmConfig &c = desc.config;
  if (!c.isCpAsyncC())
    return;
  if (!desc.readsEpilogueMatrices()) {
    errors.push_back("load_c = cp_async copies C and the aux loads, but the "
                     "epilogue reads neither: drop load_c and align_c");
    return;
  }
  int64_t align = desc.epilogueCopyBytes();
  auto check = [&](const std::string &name, DType type) {
    int64_t es = std::max<unsigned>(1, getBits(type) / 8);
    if (align < es)
      errors.push_back("align_c = " + std::to_string(align) +
                       " bytes is less than " + name + "'s element (" +
                       toString(type) + ", " + std::to_string(es) +
                       " bytes)");
    // A 2-byte copy moves one 16-bit element with ld.global.b16.
    else if (align == 2 && es == 1)
      errors.push_back("align_c = 2 copies one 16-bit element at a time, "
                       "but " + name + " is " + toString(type) +
                       ": use align_c = 4 or more (cp.async)");
  };
  if (desc.loadsC)
    check("C", desc.c);
  for (const EpilogueOperand &aux :
       desc.operandsOf(EpilogueOperand::Kind::AuxLoad))
    check("aux load '" + aux.name + "'", aux.type);
}

void mlir::wsgemm::planning::checkOperandLoadRules(
    const GemmDesc &desc, std::vector<std::string> &errors) {
  const GemmConfig &c = desc.config;
  checkEpilogueLoadRules(desc, errors);
  if (!c.hasCpAsync())
    return;
  auto cluster = c.cluster.value_or(std::array<int64_t, 3>{1, 1, 1});
  struct Operand {
    const char *name, *lower;
    bool cpAsync;
    DType type;
    std::optional<int64_t> align;
  } operands[] = {{"A", "a", c.isCpAsyncA(), desc.a, c.alignA},
                  {"B", "b", c.isCpAsyncB(), desc.b, c.alignB}};
  for (const Operand &op : operands) {
    if (!op.cpAsync)
      continue;
    unsigned bits = getBits(op.type);
    // The copies and the swizzle are in bytes; the sm_90a consumers of
    // copied stages are written for 16-bit elements, so there 8-bit
    // operands (K-major only) keep TMA. sm_89's fp8 mma.sync reads copied
    // stages (it has nothing else).
    if (bits != 16 && !isSm8x(desc.chip)) {
      errors.push_back(std::string("load_") + op.lower +
                       " = cp_async takes 16-bit operands (f16, bf16), but " +
                       op.name + " is " + toString(op.type) +
                       ": load 8-bit operands with TMA (load_" + op.lower +
                       " = tma, the default)");
      continue;
    }
    int64_t align = op.align.value_or(bits / 8);
    if (align < int64_t(bits / 8))
      errors.push_back(std::string("align_") + op.lower + " = " +
                       std::to_string(align) + " bytes is less than " +
                       op.name + "'s element (" + std::to_string(bits / 8) +
                       " bytes)");
  }
  // A cluster multicasts its shared tiles with TMA, and its CTAs release
  // each other's stages; the cp.async producer fills its own CTA's only.
  if (cluster[0] * cluster[1] * cluster[2] > 1)
    errors.push_back("cp.async producers (load_a/load_b = cp_async) are "
                     "lowered for cluster = [1, 1, 1] only, got cluster = " +
                     listToString(cluster) +
                     ": a cluster shares its operand tiles by TMA multicast, "
                     "which cp.async copies cannot do");
  if (isBlockScaled(c))
    errors.push_back("block_scaling needs TMA loads of A and B (8-bit "
                     "operands); drop load_a/load_b = cp_async");
}

bool mlir::wsgemm::planning::checkCopiedRowStride(
    const GemmDesc &desc, bool isA, const char *dimName, int64_t dim,
    std::vector<std::string> &errors) {
  const GemmConfig &c = desc.config;
  if (isA ? !c.isCpAsyncA() : !c.isCpAsyncB())
    return false;
  DType type = isA ? desc.a : desc.b;
  int64_t es = std::max<unsigned>(1, getBits(type) / 8);
  int64_t align = (isA ? c.alignA : c.alignB).value_or(es);
  int64_t stride = dim * es;
  if (stride % align != 0) {
    // The widest alignment the stride allows.
    int64_t fits = 16;
    while (fits > es && stride % fits != 0)
      fits /= 2;
    errors.push_back(std::string(isA ? "A" : "B") + "'s row stride " +
                     dimName + " x " + std::to_string(es) + " = " +
                     std::to_string(stride) + " bytes (" + dimName + " = " +
                     std::to_string(dim) + ") is not a multiple of align_" +
                     (isA ? "a" : "b") + " = " + std::to_string(align) +
                     " bytes; use align_" + (isA ? "a" : "b") + " = " +
                     std::to_string(fits));
  }
  return true;
}
