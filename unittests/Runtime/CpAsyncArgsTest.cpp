//===- CpAsyncArgsTest.cpp - Operands read with cp.async (issue 28) ------===//
//
// A kernel whose A or B is loaded with cp.async (load_a = cp_async) takes a
// `matrix` parameter for it with the alignment the copies need
// (align_bytes); the manifest says so in operands.A. One case per rule:
// the manifest's consistency, validate()'s alignment refusals (naming the
// operand and the fix), the TMA refusal's mention of the cp.async kernel,
// and a family's choice by the operands' alignment.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Args.h"
#include "ws-gemm-runtime/Family.h"

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

/// gemm_bias_relu.json with A (k_major) read with cp.async, `align` bytes.
json copiedA(int align) {
  json j = loadJson("gemm_bias_relu.json");
  j["operands"]["A"]["load"] = "cp_async";
  j["operands"]["A"]["align_bytes"] = align;
  j["params"][0] = json::parse(R"({"name": "A", "kind": "matrix",
      "operand": "A", "dtype": "f16", "dims": ["K", "M"]})");
  j["params"][0]["align_bytes"] = align;
  return j;
}

TEST(CpAsyncArgs, ManifestRules) {
  Manifest m = parseOrDie(copiedA(4));
  EXPECT_EQ(m.operand("A").load, OperandLoad::CpAsync);
  EXPECT_EQ(m.requiredAlignment("A"), 4u);
  EXPECT_EQ(m.requiredAlignment("B"), 16u);
  // A matrix for A is an input, not a direct store.
  EXPECT_FALSE(m.directStores());

  json j = copiedA(4);
  j["operands"]["A"].erase("load");
  EXPECT_EQ(manifestError(j),
            "manifest t.json: params[0].operand: a matrix parameter for A "
            "needs operands.A.load = \"cp_async\"");
  j = copiedA(4);
  j["params"][0]["align_bytes"] = 8;
  EXPECT_EQ(manifestError(j), "manifest t.json: params[0].align_bytes: 8 "
                              "differs from operands.A.align_bytes = 4");
  j = copiedA(4);
  j["params"][0]["align_bytes"] = 3;
  EXPECT_EQ(manifestError(j),
            "manifest t.json: params[0].align_bytes: must be 2, 4, 8 or 16 (a "
            "cp.async copy width), got 3");
  j = loadJson("gemm_bias_relu.json");
  j["operands"]["A"]["load"] = "cp_async";
  EXPECT_EQ(manifestError(j),
            "manifest t.json: params[0].kind: operands.A.load is \"cp_async\": "
            "A takes a matrix parameter, not a tensor_map");
}

TEST(CpAsyncArgs, Alignment) {
  Manifest m = parseOrDie(copiedA(4));
  // K = 100: 200-byte rows, which TMA refuses, are 4-byte aligned.
  EXPECT_EQ(argsError(m, validBiasRelu(256, 512, 100)), "");
  GemmArgs a = validBiasRelu(256, 512, 101);
  EXPECT_EQ(argsError(m, a),
            "A: row stride ld * 2 = 202 bytes (ld = 101) is not a multiple of "
            "4: the kernel copies A 4 bytes at a time (align_a = 4); use a "
            "kernel compiled with align_a = 2 (or a family holding one), or "
            "pass A at a 4-byte aligned address with ld a multiple of 2 "
            "elements");
  a = validBiasRelu(256, 512, 100);
  a.A.ptr += 2;
  EXPECT_EQ(argsError(m, a),
            "A: base address 0x10000002 is not 4-byte aligned: the kernel "
            "copies A 4 bytes at a time (align_a = 4); use a kernel compiled "
            "with align_a = 2 (or a family holding one), or pass A at a "
            "4-byte aligned address with ld a multiple of 2 elements");
  a = validBiasRelu(256, 512, 100);
  a.A.ptr += 4;
  a.A.ld = 102;
  EXPECT_EQ(argsError(m, a), "");
  // Elements stay aligned to their size.
  a.A.ptr += 1;
  EXPECT_EQ(argsError(m, a).rfind("A: base address 0x10000005 is not 4-byte "
                                  "aligned",
                                  0),
            0u);
  EXPECT_EQ(operandAlignment(m, "A", a), 1);
  a.A.ptr -= 1;
  EXPECT_EQ(operandAlignment(m, "A", a), 4);
  a.A.ld = 104;
  a.A.ptr += 4;
  EXPECT_EQ(operandAlignment(m, "A", a), 8);
}

TEST(CpAsyncArgs, PointerAlignment) {
  // A pointer the kernel copies 16 bytes at a time (a mixed-input A's
  // scales and zero points) states align_bytes; validate() refuses a base
  // aligned only to its element, naming the rule.
  json j = loadJson("gemm_bias_relu.json");
  for (json &p : j["params"])
    if (p["name"] == "bias")
      p["align_bytes"] = 16;
  Manifest m = parseOrDie(j);
  GemmArgs a = validBiasRelu();
  EXPECT_EQ(argsError(m, a), "");
  a.named["bias"].ptr += 8;
  EXPECT_EQ(argsError(m, a),
            "bias: address 0x50000008 is not aligned to 16 bytes (the kernel "
            "copies it 16 bytes at a time; align_bytes in the manifest)");
  a.named["bias"].ptr += 1;
  EXPECT_EQ(argsError(m, a), "bias: address 0x50000009 is not aligned to its "
                             "element size (2 bytes)");
  // The width must be a cp.async copy width and a multiple of the element.
  for (json &p : j["params"])
    if (p["name"] == "bias")
      p["align_bytes"] = 12;
  std::string error = manifestError(j);
  EXPECT_NE(error.find(".align_bytes: must be 2, 4, 8 or 16 (a cp.async copy "
                       "width), got 12"),
            std::string::npos)
      << error;
}

TEST(CpAsyncArgs, TmaRefusalNamesTheFix) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu();
  a.A.ptr += 2;
  EXPECT_EQ(argsError(m, a),
            "A: base address 0x10000002 is not 16-byte aligned (TMA "
            "requirement); or use a kernel compiled with load_a = cp_async, "
            "align_a = 2 (cp.async copies, any alignment of the element)");
}

TEST(CpAsyncArgs, FamilyPicksByAlignment) {
  Family f;
  f.name = "f";
  FamilyVariant tma, copied;
  tma.id = "tma";
  tma.manifest = loadOrDie("gemm_bias_relu.json");
  copied.id = "cp_async";
  copied.manifest = parseOrDie(copiedA(2));
  f.variants = {tma, copied};
  SelectOptions opts;
  opts.smCount = 132;
  Shape s{4096, 4096, 4096, 1};
  // Aligned operands: the TMA variant (cp.async costs more).
  auto sel = selectVariant(f, nullptr, s, opts);
  ASSERT_TRUE(sel.ok()) << sel.message();
  EXPECT_EQ(sel->variant, 0);
  // A 2-byte aligned A: only the cp.async variant fits.
  s.alignA = 2;
  sel = selectVariant(f, nullptr, s, opts);
  ASSERT_TRUE(sel.ok()) << sel.message();
  EXPECT_EQ(sel->variant, 1);
  // A misaligned B: no variant.
  s.alignB = 8;
  sel = selectVariant(f, nullptr, s, opts);
  EXPECT_FALSE(sel.ok());
}

/// The variant (0 or 1) the untuned heuristic picks for `s` from a family
/// of `first` and `second` on 132 SMs; -1 when neither fits.
int pick(const Manifest &first, const Manifest &second, const Shape &s) {
  Family f;
  f.name = "f";
  f.variants.resize(2);
  f.variants[0].id = "v0";
  f.variants[0].manifest = first;
  f.variants[1].id = "v1";
  f.variants[1].manifest = second;
  SelectOptions opts;
  opts.smCount = 132;
  auto sel = selectVariant(f, nullptr, s, opts);
  return sel.ok() ? sel->variant : -1;
}

TEST(CpAsyncArgs, PenaltyByCopyWidth) {
  EXPECT_EQ(copyPenalty(loadOrDie("gemm_bias_relu.json")), 1.0);
  EXPECT_EQ(copyPenalty(parseOrDie(copiedA(16))), 1.10);
  EXPECT_EQ(copyPenalty(parseOrDie(copiedA(8))), 1.26);
  EXPECT_EQ(copyPenalty(parseOrDie(copiedA(2))), 2.35);
  // Each copied operand pays: A at 2 bytes and B at 16.
  json ab = copiedA(2);
  ab["operands"]["B"]["load"] = "cp_async";
  ab["operands"]["B"]["align_bytes"] = 16;
  ab["params"][1] = json::parse(R"({"name": "B", "kind": "matrix",
      "operand": "B", "dtype": "f16", "dims": ["N", "K"], "align_bytes": 16})");
  EXPECT_DOUBLE_EQ(copyPenalty(parseOrDie(ab)), 2.35 * 1.10);
  // The kernel copying A and B (listed first) loses to the one copying A
  // alone wherever B is aligned for TMA.
  Shape s{4096, 4096, 4096, 1};
  s.alignA = 2;
  EXPECT_EQ(pick(parseOrDie(ab), parseOrDie(copiedA(2)), s), 1);
  s.alignB = 2; // neither fits: the A-and-B copier copies B 16 bytes wide
  EXPECT_EQ(pick(parseOrDie(ab), parseOrDie(copiedA(2)), s), -1);
  // The 2-byte copier (listed first) of the same tile loses to the 8-byte
  // one wherever both fit, and is the only one at 2 bytes.
  s.alignB = 16;
  s.alignA = 8;
  EXPECT_EQ(pick(parseOrDie(copiedA(2)), parseOrDie(copiedA(8)), s), 1);
  s.alignA = 2;
  EXPECT_EQ(pick(parseOrDie(copiedA(2)), parseOrDie(copiedA(8)), s), 0);
}

} // namespace

/// gemm_bias_relu.json with C read by the epilogue's 16-byte cp.async
/// copies (an sm_8x kernel: no TMA): a matrix parameter for C.
json copiedC() {
  json j = loadJson("gemm_bias_relu.json");
  j["params"][2] = json::parse(R"({"name": "C", "kind": "matrix",
      "operand": "C", "dtype": "f16", "dims": ["N", "M"],
      "align_bytes": 16})");
  return j;
}

TEST(CpAsyncArgs, CopiedC) {
  Manifest m = parseOrDie(copiedC());
  EXPECT_EQ(m.requiredAlignment("C"), 16u);
  // C is an input: the kernel still stores D by TMA.
  EXPECT_FALSE(m.directStores());
  json j = copiedC();
  j["params"][2].erase("align_bytes");
  EXPECT_EQ(manifestError(j), "manifest t.json: params[2].align_bytes: is "
                              "required for C read with cp.async");

  EXPECT_EQ(argsError(m, validBiasRelu(256, 512, 128)), "");
  // ld = 516: 1032-byte rows, which the 16-byte copies refuse.
  GemmArgs a = validBiasRelu(256, 512, 128);
  a.C.ld = 516;
  EXPECT_EQ(argsError(m, a),
            "C: row stride ld * 2 = 1032 bytes (ld = 516) is not a multiple "
            "of 16: the kernel copies C 16 bytes at a time (align_c = 16); "
            "use a kernel compiled with align_c = 8 (or a family holding "
            "one), or pass C at a 16-byte aligned address with ld a "
            "multiple of 8 elements");
  a = validBiasRelu(256, 512, 128);
  a.C.ptr += 8;
  EXPECT_EQ(argsError(m, a),
            "C: base address 0x30000008 is not 16-byte aligned: the kernel "
            "copies C 16 bytes at a time (align_c = 16); use a kernel "
            "compiled with align_c = 8 (or a family holding one), or pass C "
            "at a 16-byte aligned address with ld a multiple of 8 elements");
}

/// On sm_90a a TMA kernel refuses a C whose rows are not whole 16-byte
/// pieces and names the copying kernel; a family holding one (load_c =
/// cp_async, align_c = 2) picks it for such a C, and the TMA one otherwise.
TEST(CpAsyncArgs, FamilyPicksCopiedC) {
  Manifest tmaM = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu(256, 512, 128);
  a.C.ld = 515;
  EXPECT_EQ(argsError(tmaM, a),
            "C: row stride ld * 2 = 1030 bytes (ld = 515) is not a multiple "
            "of 16 (TMA requirement): store its rows padded to ld = 520 "
            "elements (a multiple of 8; TensorArg::ld, ws-gemm-run "
            "--align-ld 16); or use a kernel compiled with load_c = cp_async, "
            "align_c = 2 (cp.async copies, any alignment of the element)");

  json j = copiedC();
  j["params"][2]["align_bytes"] = 2;
  Family f;
  f.name = "f";
  FamilyVariant tma, copied;
  tma.id = "tma";
  tma.manifest = tmaM;
  copied.id = "copied_c";
  copied.manifest = parseOrDie(j);
  EXPECT_EQ(argsError(copied.manifest, a), "");
  f.variants = {tma, copied};
  Shape s = familyShape(f, a);
  EXPECT_EQ(s.alignC, 2);
  SelectOptions opts;
  opts.smCount = 132;
  auto sel = selectVariant(f, nullptr, s, opts);
  ASSERT_TRUE(sel.ok()) << sel.message();
  EXPECT_EQ(sel->variant, 1);
  // C with 16-byte rows: the TMA variant (cp.async costs more).
  a.C.ld = 520;
  s = familyShape(f, a);
  EXPECT_EQ(s.alignC, 16);
  sel = selectVariant(f, nullptr, s, opts);
  ASSERT_TRUE(sel.ok()) << sel.message();
  EXPECT_EQ(sel->variant, 0);
  // Only the TMA variant: the refusal names load_c.
  f.variants = {tma};
  s.alignC = 2;
  sel = selectVariant(f, nullptr, s, opts);
  ASSERT_FALSE(sel.ok());
  EXPECT_NE(sel.message().find("C (aux loads) to 2 bytes"), std::string::npos)
      << sel.message();
}
