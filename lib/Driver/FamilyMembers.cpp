//===- FamilyMembers.cpp - The default families' members ------------------===//
//
// What a gemm without a config compiles into besides its default kernel
// (docs/tuning.md, "The default family"; for a quantized A,
// docs/mixed-input.md), and the configs tried when the planner refuses the
// default one. Family.cpp plans and compiles them.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Driver/Family.h"

using namespace mlir;
using namespace mlir::wsgemm;

static std::string tileConfig(int64_t m, int64_t n, int64_t k,
                              StringRef rest = "") {
  std::string s = "#wsgemm.config<tile = [" + std::to_string(m) + ", " +
                  std::to_string(n) + ", " + std::to_string(k) + "]";
  if (!rest.empty())
    s += ", " + rest.str();
  return s + ">";
}

std::vector<FamilyMember> wsgemm::defaultFamilyMembers(int64_t tileK) {
  // docs/tuning.md, "The default family": the measurements behind each.
  return {
      {"default", ""},
      {"large", tileConfig(128, 256, tileK)},
      {"stream_k", tileConfig(128, 256, tileK, "scheduler = stream_k")},
      {"fitted", tileConfig(128, 224, tileK)},
  };
}

std::vector<FamilyMember>
wsgemm::unalignedFamilyMembers(const planning::GemmDesc &desc,
                               int64_t tileK) {
  // TMA needs 16-byte rows and bases; a tensor from PyTorch need not have
  // them (an LM head's odd vocabulary, a slice). min/max reduce-stores
  // are TMA's reductions; sm_8x kernels copy and store directly already.
  std::vector<FamilyMember> members;
  if (planning::isSm8x(desc.chip) ||
      desc.dReduce == planning::StoreReduce::Min ||
      desc.dReduce == planning::StoreReduce::Max)
    return members;
  // Outputs of any stride, the operands by TMA: the LM head's odd N.
  members.push_back({"direct", tileConfig(128, 256, tileK, "store = direct")});
  // Everything copied at the elements' alignment (cp.async takes 16-bit
  // operands only).
  bool copies = planning::getBits(desc.a) == 16 && planning::getBits(desc.b) == 16;
  if (copies) {
    std::string knobs = "load_a = cp_async, load_b = cp_async";
    if (desc.readsEpilogueMatrices())
      knobs += ", load_c = cp_async";
    members.push_back(
        {"copied", "#wsgemm.config<" + knobs + ", store = direct>"});
  }
  // One tensor copied, the rest by TMA, at the 128x256 tile: a sliced or
  // odd-lda activation A (x[:, 1:] @ W^T), and a sliced or odd-N residual
  // C. Copying the aligned operands too (above) cost 1.9-2.4x there
  // (docs/perf-notes.md, "Unaligned tensors on the default path"). Not
  // beside C or aux loads: that kernel's load warp spills under its
  // register budget at 128x256 and 128x128 (8 bytes), so "copied" serves
  // a sliced A there.
  if (copies && !desc.readsEpilogueMatrices())
    members.push_back({"copied_a", tileConfig(128, 256, tileK,
                                              "load_a = cp_async, "
                                              "store = direct")});
  if (desc.readsEpilogueMatrices())
    members.push_back({"copied_c", tileConfig(128, 256, tileK,
                                              "load_c = cp_async, "
                                              "store = direct")});
  return members;
}

std::vector<FamilyMember>
wsgemm::mixedInputFamilyMembers(const planning::GemmDesc *desc) {
  // docs/mixed-input.md, "The default family", has the measurements. A
  // decode step's few tokens are B's N: tiles of 16, 32 or 64 tokens whose
  // k-tiles of 128 are split over the SMs (split-K or stream-K) stream the
  // weight; the planner's default and 128x256 take prefill. The 128x16
  // split-K tile runs two CTAs per SM: 0.98-1.30x the one-CTA kernel at
  // Llama-3 8B/70B shapes on an H200, W4 and W8 (docs/mixed-input.md,
  // "Two CTAs per SM"). Direct stores:
  // D's leading dimension is the token count, under TMA's 16 bytes below
  // 8 tokens.
  auto decode = [](int64_t m, int64_t n, StringRef split,
                   int64_t tileK = 128) {
    return tileConfig(m, n, tileK,
                      (split + ", schedule = cooperative, store = direct")
                          .str());
  };
  // A 4-bit weight with groups of 128 streams k-tiles of 256 in the
  // stream-K member over two CTAs per SM: the 16 KiB of weight a stage
  // that an 8-bit weight's 128 brings, its two groups' scales still on the
  // accumulator (MixedInput.cpp); 1.03-1.10x faster than k-tiles of 128
  // where that member is picked (22016-28672 rows, on an H200:
  // docs/mixed-input.md, "Stream-K for tall weights"). Not for the others:
  // groups of 32 or 64 and 8-bit weights at 256 spill or serialize the
  // wgmmas (C7512) in two CTAs' 80 registers, and the split-K member ran
  // 0.93-1.04x at 256.
  bool k256 = desc && desc->dequantA && desc->a == planning::DType::I4 &&
              desc->dequantA->group == 128;
  return {
      {"default", ""},
      {"decode", decode(128, 16, "split_k = 4, ctas_per_sm = 2")},
      {"decode_wide", decode(256, 16, "split_k = 4")},
      {"decode_wide_s2", decode(256, 16, "split_k = 2")},
      {"decode_stream_k", decode(128, 16, "scheduler = stream_k")},
      {"tokens32", decode(128, 32, "split_k = 4")},
      {"tokens32_stream_k", decode(128, 32, "scheduler = stream_k")},
      {"tokens64", decode(128, 64, "split_k = 2")},
      {"tokens64_stream_k", decode(128, 64, "scheduler = stream_k")},
      {"large", tileConfig(128, 256, 64)},
      // After the others, so that their ids stay: at 64 tokens on the
      // 4096-row weights (32 tiles of 128 rows) four splits fill the SMs
      // where two leave half idle: 1.26-1.45x faster there than the
      // members picked before (tokens64_stream_k), on an H200.
      {"tokens64_s4", decode(128, 64, "split_k = 4")},
      // 1-16 tokens on weights of more 128-row tiles than SMs but fewer
      // than two per SM (28672 rows: 224): stream-K over two CTAs per SM
      // evens out what 256x16 split-K 2 leaves as a second, partial wave.
      // 1.08x faster than that member at 28672 x 8192 (Llama-3 70B up),
      // 0.89-0.91x at 14336 x 4096, where it is not picked; on an H200.
      {"decode_stream_k2",
       decode(128, 16, "scheduler = stream_k, ctas_per_sm = 2",
              k256 ? 256 : 128)},
      // 65-400 tokens: a tile of 128 or 192 tokens dequantizes each weight
      // tile once per 128 or 192 tokens, where 128x64 tiles do it once per
      // 64; where the estimate picks them (96-128 tokens on 8192-row
      // weights, 160-400 and 768 on most), 0.55-0.91x the time of the
      // members picked before, on an H200 (docs/mixed-input.md, "Tiles of
      // 128 and 192 tokens"). 128x128 split-K 4 also won at 4096 x 14336,
      // but lost 1.05-1.11x at 4096 x 4096, where the estimate would
      // pick it.
      {"tokens128_s2", decode(128, 128, "split_k = 2")},
      {"tokens192", tileConfig(128, 192, 128,
                                "schedule = cooperative, store = direct")},
      {"tokens192_s2", decode(128, 192, "split_k = 2")},
      // 1-16 tokens on weights of 48-128 tiles of 128 rows (6144-16384
      // rows): two splits over two CTAs per SM fill the SMs once with half
      // the hand-offs of decode's four. On an H200, against the members
      // picked before at 14336 x 4096 and 8192 x 8192 (Llama-3 8B up, 70B
      // q/o), 13824 x 5120, 6144 x 4096 and 16384 x 16384: W4 1.04-1.16x
      // faster, int8 0.995-1.18x. At 28672 x 8192 (448 units, two waves)
      // it ran 0.88-0.97x decode_stream_k2, which the estimate keeps there
      // (docs/mixed-input.md, "Two splits over two CTAs per SM").
      {"decode_s2", decode(128, 16, "split_k = 2, ctas_per_sm = 2")},
  };
}

std::vector<std::string> wsgemm::defaultFallbacks(int64_t tileK) {
  // Each step lowers what a consumer thread holds: the epilogue's elements
  // per subtile (epi_tile N), then the accumulator (tile N, then tile M).
  return {
      tileConfig(128, 128, tileK, "epi_tile = [128, 16]"),
      tileConfig(128, 64, tileK),
      tileConfig(128, 64, tileK, "epi_tile = [128, 16]"),
      tileConfig(128, 32, tileK),
      tileConfig(64, 64, tileK),
      tileConfig(64, 64, tileK, "epi_tile = [64, 16]"),
      tileConfig(64, 32, tileK),
  };
}

