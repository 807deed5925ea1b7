//===- ManifestTest.cpp - Manifest parsing and its error messages ---------===//
//
// The two sample manifests parse into the expected structs; each rule of
// docs/manifest.md, broken on purpose, yields a message naming the key and
// the rule.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Prepack.h"

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

TEST(Manifest, ParsesContractExample) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  EXPECT_EQ(m.kernel, "gemm_bias_relu");
  EXPECT_EQ(m.cubinPath(), dataPath("gemm_bias_relu.cubin"));
  EXPECT_EQ(m.archMajor, 9);
  EXPECT_EQ(m.archMinor, 0);
  EXPECT_TRUE(m.archSpecific);
  EXPECT_EQ(m.block, (std::array<uint32_t, 3>{384, 1, 1}));
  EXPECT_EQ(m.smemBytes, 197632u);
  EXPECT_EQ(m.tile, (std::array<int64_t, 3>{128, 256, 64}));
  EXPECT_EQ(m.grid.kind, GridKind::Tiles);
  EXPECT_EQ(m.grid.raster, Raster::AlongN);
  EXPECT_FALSE(m.batched);
  EXPECT_FALSE(m.staticShape.has_value());
  EXPECT_TRUE(m.hasC());
  EXPECT_EQ(m.operand("B").layout, Layout::NMajor);
  ASSERT_EQ(m.params.size(), 10u);
  const Param &a = m.params[0];
  EXPECT_EQ(a.kind, ParamKind::TensorMap);
  EXPECT_EQ(a.operand, "A");
  EXPECT_EQ(a.dims, (std::vector<Dim>{Dim::K, Dim::M}));
  EXPECT_EQ(a.box, (std::vector<uint32_t>{64, 128}));
  EXPECT_EQ(a.swizzle, Swizzle::B128);
  EXPECT_EQ(a.l2Promotion, L2Promotion::B128); // default
  EXPECT_EQ(m.params[3].l2Promotion, L2Promotion::B256);
  EXPECT_EQ(m.params[4].kind, ParamKind::Pointer);
  EXPECT_EQ(m.params[4].extent, std::vector<Dim>{Dim::M});
  EXPECT_EQ(m.params[5].kind, ParamKind::Scalar);
  EXPECT_EQ(m.params[9].kind, ParamKind::Size);
  EXPECT_EQ(m.params[9].dim, Dim::K);
  ASSERT_EQ(m.nodes.size(), 11u);
  EXPECT_EQ(m.nodes[3].op, EvtOp::LoadSrc);
  EXPECT_EQ(m.nodes[3].skipIfZero, "beta");
  EXPECT_EQ(m.nodes[9].op, EvtOp::Relu);
  EXPECT_EQ(m.storeNode().id, 10);
  EXPECT_EQ(m.findTensorMap("D")->name, "tma_d");
  EXPECT_EQ(m.findParam("nope"), nullptr);
}

TEST(Manifest, ParsesFullEvtWithComments) {
  Manifest m = loadOrDie("evt_full.json");
  EXPECT_TRUE(m.batched);
  EXPECT_FALSE(m.hasC());
  EXPECT_EQ(m.grid.kind, GridKind::Persistent);
  EXPECT_EQ(m.grid.swizzle, 2);
  EXPECT_EQ(m.cluster, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(m.operand("A").layout, Layout::MMajor);
  EXPECT_EQ(m.nodes[1].source, ScalarSource::Ptr);
  EXPECT_EQ(m.nodes[1].names, (std::vector<std::string>{"scale_a", "scale_b"}));
  EXPECT_EQ(m.nodes[7].op, EvtOp::Fma);
  EXPECT_EQ(m.nodes[8].dtype, DType::F32);
  EXPECT_EQ(m.nodes[12].reduce, ReduceKind::AbsMax);
  EXPECT_EQ(m.findParam("amax")->extent, std::vector<Dim>{});
}

TEST(Manifest, AcceptsMlirFp8Spelling) {
  json j = loadJson("gemm_bias_relu.json");
  j["operands"]["A"]["dtype"] = "f8E4M3FN";
  j["params"][0]["dtype"] = "f8E4M3FN";
  j["params"][0]["box"] = {128, 128};
  Manifest m = parseOrDie(j);
  EXPECT_EQ(m.operand("A").dtype, DType::F8E4M3);
}

TEST(Manifest, MixedInput) {
  Manifest w4 = loadOrDie("mixed_input_w4.json");
  ASSERT_TRUE(w4.operand("A").dequant.has_value());
  EXPECT_EQ(w4.operand("A").dequant->group, 128);
  EXPECT_EQ(w4.operand("A").dequant->groups(384), 3);
  EXPECT_EQ(w4.findTensorMap("A")->packing, kPackingI4);
  // Without scale_applied (older manifests): groups scaled on the weight,
  // one scale per row on the accumulator.
  EXPECT_FALSE(w4.operand("A").dequant->onAccumulator);
  json ja = loadJson("mixed_input_w4.json");
  ja["operands"]["A"]["dequant"]["scale_applied"] = "accumulator";
  EXPECT_TRUE(parseOrDie(ja).operand("A").dequant->onAccumulator);
  // int8 per channel: group 0, one scale per row ([M]), bytes packed.
  Manifest w8 = loadOrDie("mixed_input_w8.json");
  EXPECT_EQ(w8.operand("A").dtype, DType::I8);
  const auto &dq = *w8.operand("A").dequant;
  EXPECT_EQ(dq.group, 0);
  EXPECT_EQ(dq.groups(384), 1);
  EXPECT_EQ(dq.zero, "none");
  EXPECT_EQ(dq.packing, kPackingB8);
  EXPECT_TRUE(dq.onAccumulator);
  EXPECT_EQ(w8.findTensorMap("A")->packing, kPackingB8);
  EXPECT_EQ(w8.findParam("dequant_scale_a")->extent, std::vector<Dim>{Dim::M});
  // fp8 e4m3 in groups of 128 ([M, KB]), batched ([M, KB, L]).
  json j = loadJson("mixed_input_w8.json");
  j["operands"]["A"]["dtype"] = "f8e4m3";
  j["params"][0]["dtype"] = "f8e4m3";
  j["operands"]["A"]["dequant"]["group"] = 128;
  j["params"][3]["extent"] = {"M", "KB", "L"};
  j["params"][0]["dims"] = {"K", "M", "L"};
  j["params"][0]["box"].push_back(1);
  j["params"][1]["dims"] = {"K", "N", "L"};
  j["params"][1]["box"].push_back(1);
  j["params"][2]["dims"] = {"N", "M", "L"};
  j["batched"] = true;
  Manifest f8 = parseOrDie(j);
  EXPECT_EQ(f8.operand("A").dtype, DType::F8E4M3);
  EXPECT_EQ(f8.operand("A").dequant->group, 128);
}

// GPTQ's finer groups: 32 or 64 of K per scale, the scales' (and zero
// points') extent [M, KG(, L)] with KG = K / group. Group 128 keeps KB.
TEST(Manifest, MixedInputFineGroups) {
  for (int64_t group : {32, 64}) {
    json j = loadJson("mixed_input_w4.json");
    j["operands"]["A"]["dequant"]["group"] = group;
    j["params"][3]["extent"] = {"M", "KG"};
    j["params"][4]["extent"] = {"M", "KG"};
    Manifest w4 = parseOrDie(j);
    EXPECT_EQ(w4.operand("A").dequant->group, group);
    EXPECT_EQ(w4.operand("A").dequant->groups(384), 384 / group);
    EXPECT_EQ(w4.findParam("dequant_zero_a")->extent,
              (std::vector<Dim>{Dim::M, Dim::KG}));
    // i8 (and f8e4m3) take them too.
    json j8 = loadJson("mixed_input_w8.json");
    j8["operands"]["A"]["dequant"]["group"] = group;
    j8["params"][3]["extent"] = {"M", "KG"};
    Manifest w8 = parseOrDie(j8);
    EXPECT_EQ(w8.findParam("dequant_scale_a")->extent,
              (std::vector<Dim>{Dim::M, Dim::KG}));
  }
}

TEST(Manifest, StaticShape) {
  json j = loadJson("gemm_bias_relu.json");
  j["static_shape"] = {256, 512, 64, 1};
  Manifest m = parseOrDie(j);
  ASSERT_TRUE(m.staticShape.has_value());
  EXPECT_EQ((*m.staticShape)[1], 512);
}

TEST(Manifest, ProgrammaticLaunch) {
  json j = loadJson("gemm_bias_relu.json");
  EXPECT_FALSE(parseOrDie(j).pdl); // absent: launched the plain way
  j["pdl"] = true;
  EXPECT_TRUE(parseOrDie(j).pdl);
}

TEST(Manifest, FileErrors) {
  auto m = loadManifest(dataPath("does_not_exist.json"));
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.message().find("cannot open file"), std::string::npos);
  auto bad = parseManifest("{ not json", "x.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message().rfind("manifest x.json: invalid JSON: ", 0), 0u)
      << bad.message();
}

/// One broken rule: edit the base manifest, expect this exact message.
struct Case {
  const char *base;
  std::function<void(json &)> edit;
  const char *message;
};

class ManifestErrors : public ::testing::TestWithParam<int> {};

const std::vector<Case> &cases() {
  static const std::vector<Case> c = {
      // Top level.
      {"gemm_bias_relu.json", [](json &j) { j = json::array(); },
       "(root): must be an object, got array"},
      {"gemm_bias_relu.json", [](json &j) { j.erase("format"); },
       "format: missing required field"},
      {"gemm_bias_relu.json", [](json &j) { j["format"] = "other"; },
       "format: must be \"ws-gemm-manifest\", got \"other\""},
      {"gemm_bias_relu.json", [](json &j) { j["version"] = 2; },
       "version: unsupported version 2 (this runtime reads version 1)"},
      {"gemm_bias_relu.json", [](json &j) { j["version"] = "1"; },
       "version: must be an integer, got string"},
      {"gemm_bias_relu.json", [](json &j) { j.erase("kernel"); },
       "kernel: missing required field"},
      {"gemm_bias_relu.json", [](json &j) { j["kernel"] = ""; },
       "kernel: must not be empty"},
      {"gemm_bias_relu.json", [](json &j) { j["cubin"] = 3; },
       "cubin: must be a string, got number"},
      {"gemm_bias_relu.json", [](json &j) { j["arch"] = "hopper"; },
       "arch: must look like sm_90a or sm_90, got 'hopper'"},
      {"gemm_bias_relu.json",
       [](json &j) { j["arch"] = "sm_99999999999999999999a"; },
       "arch: must look like sm_90a or sm_90, got "
       "'sm_99999999999999999999a'"},
      {"gemm_bias_relu.json", [](json &j) { j["pdl"] = 1; },
       "pdl: must be true or false, got 1"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["arch"] = "sm_80";
         j["pdl"] = true;
       },
       "pdl: programmatic dependent launch needs sm_90 or later, but arch is "
       "sm_80"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["block"] = {384, 1};
       },
       "block: must have 3 entries, got 2"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["block"] = {0, 1, 1};
       },
       "block[0]: must be >= 1, got 0"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["block"] = {1536, 1, 1};
       },
       "block: 1536 threads per CTA exceed the limit of 1024"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["cluster"] = {4, 4, 2};
       },
       "cluster: 32 CTAs per cluster exceed the limit of 16"},
      {"gemm_bias_relu.json", [](json &j) { j["smem_bytes"] = -1; },
       "smem_bytes: must be in [0, 2^31), got -1"},
      {"gemm_bias_relu.json", [](json &j) { j["smem_bytes"] = 1.5; },
       "smem_bytes: must be an integer, got number 1.5"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["tile"] = {128, 0, 64};
       },
       "tile[1]: must be >= 1, got 0"},
      // Grid.
      {"gemm_bias_relu.json", [](json &j) { j["grid"]["kind"] = "stream_k"; },
       "grid.kind: unknown grid kind 'stream_k' (expected one of tiles, "
       "persistent)"},
      {"gemm_bias_relu.json", [](json &j) { j["grid"]["raster"] = "diag"; },
       "grid.raster: unknown raster order 'diag' (expected one of along_m, "
       "along_n, heuristic, runtime)"},
      {"gemm_bias_relu.json", [](json &j) { j["grid"]["swizzle"] = 2; },
       "grid.swizzle: must be 1 for grid kind 'tiles' (tile swizzling belongs "
       "to the persistent scheduler), got 2"},
      {"evt_full.json", [](json &j) { j["grid"]["swizzle"] = 3; },
       "grid.swizzle: must be 1, 2, 4 or 8, got 3"},
      {"gemm_bias_relu.json", [](json &j) { j.erase("batched"); },
       "batched: missing required field"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["static_shape"] = {1, 2, 3};
       },
       "static_shape: must be null or [M, N, K, L], got 3 entries"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["static_shape"] = {128, 128, 64, 2};
       },
       "static_shape[3]: L must be 1 for a kernel that is not batched, got 2"},
      // Operands.
      {"gemm_bias_relu.json",
       [](json &j) { j["operands"]["E"] = j["operands"]["D"]; },
       "operands.E: unknown operand (expected A, B, C or D; auxiliary "
       "matrices are declared by evt aux_load/aux_store nodes)"},
      {"gemm_bias_relu.json", [](json &j) { j["operands"].erase("D"); },
       "operands.D: missing required field"},
      {"gemm_bias_relu.json",
       [](json &j) { j["operands"]["A"]["dtype"] = "f64"; },
       "operands.A.dtype: bad dtype 'f64' (expected one of f16, bf16, f32, "
       "f8e4m3, f8e5m2)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["operands"]["A"]["layout"] = "n_major"; },
       "operands.A.layout: unknown layout for A 'n_major' (expected one of "
       "k_major, m_major)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["operands"]["D"]["layout"] = "k_major"; },
       "operands.D.layout: unknown layout for D 'k_major' (expected one of "
       "n_major, m_major)"},
      // A column-major D's dims follow its layout (DirectStoreTest.cpp).
      {"gemm_bias_relu.json",
       [](json &j) { j["operands"]["D"]["layout"] = "m_major"; },
       "params[3].dims: must be [M, N] or [M, N, L] for D (m_major), got "
       "[N, M]"},
      // Params.
      {"gemm_bias_relu.json",
       [](json &j) { j["params"][2]["kind"] = "tensormap"; },
       "params[2].kind: unknown kind 'tensormap' (expected one of tensor_map, "
       "pointer, scalar, scalar_pointer, reduction, size, workspace, "
       "stream_k_tiles, tile_order, matrix)"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][0].erase("box"); },
       "params[0].box: missing required field"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][0].erase("name"); },
       "params[0].name: missing required field"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][0]["dtype"] = "half"; },
       "params[0].dtype: bad dtype 'half' (expected one of f16, bf16, f32, "
       "f8e4m3, f8e5m2)"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["params"][0]["dims"] = {"K", "X"};
       },
       "params[0].dims[1]: unknown dimension 'X' (expected one of M, N, K, L, KB, NB, KG)"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["params"][0]["dims"] = {"K", "K"};
       },
       "params[0].dims[1]: dimension K appears twice"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["params"][0]["dims"] = {"M", "K"};
       },
       "params[0].dims: must be [K, M] or [K, M, L] for A (k_major), got "
       "[M, K]"},
      {"evt_full.json",
       [](json &j) {
         j["params"][0]["dims"] = {"M", "K"};
         j["params"][0]["box"] = {64, 64};
       },
       "params[0].dims: must be [M, K, L] for A (m_major) in a batched "
       "kernel, got [M, K]"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][0]["box"] = {64}; },
       "params[0].box: must have one entry per dimension (2), got 1"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["params"][0]["box"] = {64, 512};
       },
       "params[0].box[1]: must be <= 256 (TMA box limit), got 512"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["params"][0]["box"] = {18, 128};
       },
       "params[0].box: inner box 36 bytes (box[0] = 18 x 2 bytes) is not a "
       "multiple of 16 (TMA requirement)"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["params"][0]["box"] = {128, 128};
       },
       "params[0].box: inner box 256 bytes exceeds the 128B swizzle span (TMA "
       "requirement)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["params"][0]["swizzle"] = "256B"; },
       "params[0].swizzle: unknown swizzle '256B' (expected one of none, 32B, "
       "64B, 128B)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["params"][0]["oob_fill"] = "nan"; },
       "params[0].oob_fill: unknown oob_fill 'nan' (expected one of zero)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["params"][0]["l2_promotion"] = "512B"; },
       "params[0].l2_promotion: unknown l2_promotion '512B' (expected one of "
       "none, 64B, 128B, 256B)"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][0]["dtype"] = "bf16"; },
       "params[0].dtype: must equal operands.A.dtype (f16), got bf16"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][1]["operand"] = "A"; },
       "params[1].dims: must be [K, M] or [K, M, L] for A (k_major), got "
       "[N, K]"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][1]["operand"] = "Z"; },
       "params[1].operand: 'Z' is neither A, B, C, D nor the name of an evt "
       "aux_load/aux_store"},
      {"gemm_bias_relu.json", [](json &j) { j["params"].erase(3); },
       "params: no tensor_map or matrix for operand D"},
      {"gemm_bias_relu.json", [](json &j) { j["params"].erase(2); },
       "params: operands declares C but no tensor_map reads it"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["params"][3]["operand"] = "C";
         j["params"][3]["name"] = "tma_c2";
       },
       "params[3].operand: operand C already has a tensor_map or matrix"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][6]["name"] = "alpha"; },
       "params[6].name: duplicate parameter name 'alpha' (also params[5])"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][5]["dtype"] = "f16"; },
       "params[5].dtype: scalar parameters must be f32, got f16"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][4]["extent"] = {"N"}; },
       "params[4].extent: must be [M] or [M, L] for a vector read by "
       "load_vec_m, got [N]"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][4]["dtype"] = "f32"; },
       "params[4].dtype: must equal the dtype of evt node 7 (f16), got f32"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][4]["name"] = "b2"; },
       "params[4].name: pointer 'b2' is not read by any evt "
       "load_vec_m/load_vec_n"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][9]["dim"] = "Q"; },
       "params[9].dim: unknown dimension 'Q' (expected one of M, N, K, L, KB, NB, KG)"},
      {"evt_full.json", [](json &j) { j["params"][9]["reduce"] = "sum"; },
       "params[9].reduce: must equal evt node 10's reduction (max), got sum"},
      {"evt_full.json", [](json &j) { j["params"][9]["reduce"] = "avg"; },
       "params[9].reduce: unknown reduction 'avg' (expected one of sum, max, "
       "min, absmax)"},
      {"evt_full.json",
       [](json &j) {
         j["params"][9]["extent"] = {"N", "L"};
       },
       "params[9].extent: must be [M] or [M, L] for reduce_to_vec_m, got "
       "[N, L]"},
      {"evt_full.json", [](json &j) { j["params"][9]["dtype"] = "f16"; },
       "params[9].dtype: reduction outputs must be f32, got f16"},
      {"evt_full.json", [](json &j) { j["params"][2]["dtype"] = "bf16"; },
       "params[2].dtype: must equal the dtype of evt node 5 (f16), got bf16"},
      // EVT.
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"] = json::array(); },
       "evt.nodes: must not be empty"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][2]["op"] = "pow"; },
       "evt.nodes[2].op: unknown op 'pow'"},
      {"gemm_bias_relu.json", [](json &j) { j["evt"]["nodes"][2]["id"] = 7; },
       "evt.nodes[2].id: must equal its position 2 (nodes are listed in "
       "topological order), got 7"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][2]["args"] = {1}; },
       "evt.nodes[2].args: mul takes 2 arguments, got 1"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][2]["args"] = {1, 5};
       },
       "evt.nodes[2].args[1]: node 5 is not defined before node 2 (nodes "
       "must be in topological order)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][9].erase("args"); },
       "evt.nodes[9].args: missing required field"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][0]["args"] = {1}; },
       "evt.nodes[0].args: acc is a leaf and takes no arguments"},
      {"evt_full.json", [](json &j) { j["evt"]["nodes"][9]["args"] = {8}; },
       "evt.nodes[9].args[0]: node 8 (aux_store) produces no value"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][1]["source"] = "const"; },
       "evt.nodes[1].source: unknown scalar source 'const' (expected one of "
       "attr, param, ptr)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][1]["names"] = {"gamma"}; },
       "evt.nodes[1].names[0]: 'gamma' is not a scalar parameter"},
      {"evt_full.json",
       [](json &j) {
         j["evt"]["nodes"][1]["names"] = {"scale_a", "M"};
       },
       "evt.nodes[1].names[1]: 'M' is not a scalar_pointer parameter"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][1] = {{"op", "scalar"}, {"source", "attr"}};
       },
       "evt.nodes[1].value: missing required field"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][3]["skip_if_zero"] = "bias"; },
       "evt.nodes[3].skip_if_zero: 'bias' is not a scalar or scalar_pointer "
       "parameter"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["operands"].erase("C");
         j["params"].erase(2);
       },
       "evt.nodes[3]: load_src reads C, but operands has no C"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][7]["dtype"] = "f9"; },
       "evt.nodes[7].dtype: bad dtype 'f9' (expected one of f16, bf16, f32, "
       "f8e4m3, f8e5m2)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][10]["dtype"] = "f32"; },
       "evt.nodes[10].dtype: store must convert to D's dtype (f16), got f32"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][10]["rounding"] = "rna"; },
       "evt.nodes[10].rounding: unknown rounding 'rna' (expected one of rn, "
       "rz, rm, rp)"},
      {"gemm_bias_relu.json",
       [](json &j) { j["evt"]["nodes"][10]["op"] = "identity"; },
       "evt.nodes: must contain exactly one store (the D output), got 0"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {
             {"op", "clamp"}, {"args", {8}}, {"lower", 1.0}, {"upper", 0.0}};
       },
       "evt.nodes[9]: clamp needs lower <= upper"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {{"op", "clamp"}, {"args", {8}}, {"lower", 0}};
       },
       "evt.nodes[9].upper: missing required field"},
      // Activation parameters at launch: one argument each, after x.
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {{"op", "clamp"},
                                 {"args", {8}},
                                 {"lower", {{"arg", 1}}},
                                 {"upper", 0}};
       },
       "evt.nodes[9].args: clamp takes 2 arguments, got 1"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {{"op", "clamp"},
                                 {"args", {8, 1}},
                                 {"lower", 0},
                                 {"upper", {{"arg", 2}}}};
       },
       "evt.nodes[9].upper.arg: must name one of the node's arguments after "
       "its input, 1 to 1, got 2"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {{"op", "clamp"},
                                 {"args", {8, 1, 1}},
                                 {"lower", {{"arg", 1}}},
                                 {"upper", {{"arg", 1}}}};
       },
       "evt.nodes[9].upper.arg: argument 1 already gives another parameter"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {{"op", "threshold_relu"},
                                 {"args", {8, 1}},
                                 {"threshold", {{"node", 1}}}};
       },
       "evt.nodes[9].threshold.arg: missing required field"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {
             {"op", "leaky_relu"}, {"args", {8, 1}}, {"alpha", 0.5}};
       },
       "evt.nodes[9].args: leaky_relu takes 1 argument, got 2"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {
             {"op", "leaky_relu"}, {"args", {8}}, {"alpha", "x"}};
       },
       "evt.nodes[9].alpha: must be a number (or \"inf\", \"-inf\", \"nan\"), "
       "got \"x\""},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {
             {"op", "threshold_relu"}, {"args", {8}}, {"upper_bound", 0.5}};
       },
       "evt.nodes[9].threshold: missing required field"},
      {"gemm_bias_relu.json",
       [](json &j) {
         j["evt"]["nodes"][9] = {
             {"op", "cmp"}, {"args", {8, 7}}, {"predicate", "approx"}};
       },
       "evt.nodes[9].predicate: unknown predicate 'approx' (expected one of "
       "oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, "
       "eq, ne, lt, le, gt, ge)"},
      {"evt_full.json",
       [](json &j) { j["evt"]["nodes"][11]["name"] = "rowmax"; },
       "evt.nodes[11].name: duplicate reduction name 'rowmax' (also "
       "evt.nodes[10])"},
      {"evt_full.json", [](json &j) { j["evt"]["nodes"][8]["name"] = "res"; },
       "evt.nodes[8].name: duplicate aux name 'res' (also evt.nodes[5])"},
      {"evt_full.json",
       [](json &j) { j["evt"]["nodes"][12]["name"] = "amax2"; },
       "params[11].name: reduction 'amax' is not written by any evt reduce "
       "node"},
      {"evt_full.json", [](json &j) { j["params"].erase(11); },
       "evt.nodes[12].name: reduction 'amax' has no reduction parameter"},
      {"evt_full.json", [](json &j) { j["params"].erase(2); },
       "evt.nodes[5].name: aux matrix 'res' has no tensor_map or matrix parameter"},
      // Mixed input (docs/mixed-input.md): the dequant format against A's
      // dtype, the packing on A's tensor map, the scales' extent by group.
      {"mixed_input_w8.json",
       [](json &j) {
         j["operands"]["A"]["dequant"]["packing"] = "wsgemm.i4.m64k64.v1";
       },
       "operands.A.dequant.packing: must be wsgemm.b8.m64k64.v1 for an i8 A, "
       "got wsgemm.i4.m64k64.v1"},
      {"mixed_input_w4.json",
       [](json &j) {
         j["operands"]["A"]["dequant"]["packing"] = "wsgemm.b8.m64k64.v1";
       },
       "operands.A.dequant.packing: must be wsgemm.i4.m64k64.v1 for an i4 A, "
       "got wsgemm.b8.m64k64.v1"},
      {"mixed_input_w8.json",
       [](json &j) { j["operands"]["A"]["dequant"]["packing"] = "b8"; },
       "operands.A.dequant.packing: unknown packing 'b8' (expected one of "
       "wsgemm.i4.m64k64.v1, wsgemm.b8.m64k64.v1)"},
      {"mixed_input_w8.json",
       [](json &j) { j["operands"]["A"]["dequant"]["zero"] = "ui4"; },
       "operands.A.dequant.zero: must be none for an i8 A (signed values), "
       "got ui4"},
      {"mixed_input_w4.json",
       [](json &j) { j["operands"]["A"]["dequant"]["zero"] = "none"; },
       "operands.A.dequant.zero: an i4 A has a zero point (ui4 or bias8), "
       "got none"},
      {"mixed_input_w4.json",
       [](json &j) { j["operands"]["A"]["dequant"]["group"] = 0; },
       "operands.A.dequant.group: must be 32, 64 or 128 for an i4 A (a scale "
       "and zero point per group of K), got 0"},
      {"mixed_input_w8.json",
       [](json &j) { j["operands"]["A"]["dequant"]["group"] = 48; },
       "operands.A.dequant.group: must be 32, 64 or 128 (a scale per that "
       "many of K and row) or 0 (one scale per row), got 48"},
      {"mixed_input_w4.json",
       [](json &j) { j["operands"]["A"]["dequant"]["group"] = 256; },
       "operands.A.dequant.group: must be 32, 64 or 128 (a scale per that "
       "many of K and row) or 0 (one scale per row), got 256"},
      {"mixed_input_w8.json",
       [](json &j) {
         j["operands"]["A"]["dequant"]["scale_applied"] = "weight";
       },
       "operands.A.dequant.scale_applied: must be accumulator with group 0 "
       "(one scale per row multiplies the accumulator after the K loop)"},
      {"mixed_input_w4.json",
       [](json &j) {
         j["operands"]["A"]["dequant"]["scale_applied"] = "partial";
       },
       "operands.A.dequant.scale_applied: unknown place 'partial' (expected "
       "one of weight, accumulator)"},
      {"mixed_input_w8.json",
       [](json &j) {
         j["operands"]["A"]["dtype"] = "bf16";
         j["params"][0]["dtype"] = "bf16";
       },
       "operands.A.dequant: a dequantized A is i4, i8 or f8e4m3, got bf16"},
      {"mixed_input_w8.json",
       [](json &j) { j["params"][3]["extent"] = {"M", "KB"}; },
       "params[3].extent: must be [M] for group = 0, got [M, KB]"},
      {"mixed_input_w4.json",
       [](json &j) { j["params"][3]["extent"] = {"M"}; },
       "params[3].extent: must be [M, KB] for group = 128, got [M]"},
      // KG (K / group) spells the groups of 32 and 64, KB those of 128:
      // one extent per group, so a manifest cannot say one and mean the
      // other.
      {"mixed_input_w4.json",
       [](json &j) { j["params"][3]["extent"] = {"M", "KG"}; },
       "params[3].extent: must be [M, KB] for group = 128, got [M, KG]"},
      {"mixed_input_w4.json",
       [](json &j) {
         j["operands"]["A"]["dequant"]["group"] = 32;
         j["params"][3]["extent"] = {"M", "KG"};
       },
       "params[4].extent: must be [M, KG] for group = 32, got [M, KB]"},
      {"mixed_input_w8.json",
       [](json &j) {
         j["operands"]["A"]["dequant"]["group"] = 64;
         j["params"][3]["extent"] = {"M", "KB"};
       },
       "params[3].extent: must be [M, KG] for group = 64, got [M, KB]"},
      {"mixed_input_w8.json",
       [](json &j) { j["params"][3]["extent"] = {"M", "KG"}; },
       "params[3].extent: must be [M] for group = 0, got [M, KG]"},
      // KG is an extent of the dequant pointers only.
      {"mixed_input_w4.json",
       [](json &j) {
         j["operands"]["A"]["dequant"]["group"] = 32;
         j["params"][3]["extent"] = {"M", "KG"};
         j["params"][4]["extent"] = {"M", "KG"};
         j["params"][8]["dim"] = "KG";
       },
       "params[8].dim: must be M, N, K or L (KG is derived from K or N), got "
       "KG"},
      {"gemm_bias_relu.json",
       [](json &j) { j["params"][4]["extent"] = {"M", "KG"}; },
       "params[4].extent: must be [M] or [M, L] for a vector read by "
       "load_vec_m, got [M, KG]"},
      {"gemm_bias_relu.json",
       [](json &j) { j["params"][0]["dims"] = {"KG", "M"}; },
       "params[0].dims: must be [K, M] or [K, M, L] for A (k_major), got "
       "[KG, M]"},
      {"mixed_input_w8.json",
       [](json &j) { j["params"][0]["packing"] = "wsgemm.i4.m64k64.v1"; },
       "params[0].packing: must be operands.A.dequant.packing "
       "(wsgemm.b8.m64k64.v1), got 'wsgemm.i4.m64k64.v1'"},
      {"mixed_input_w8.json", [](json &j) { j["params"][0].erase("packing"); },
       "params[0].packing: must be operands.A.dequant.packing "
       "(wsgemm.b8.m64k64.v1), got ''"},
      {"gemm_bias_relu.json",
       [](json &j) { j["params"][0]["packing"] = "wsgemm.b8.m64k64.v1"; },
       "params[0].packing: only a dequantized A (operands.A.dequant) is "
       "pre-packed"},
      // Blocks of K in one box: a K-major B's, one swizzle span wide.
      {"mixed_input_w4.json", [](json &j) { j["params"][1]["k_chunks"] = 1; },
       "params[1].k_chunks: must be 2 to 256 (blocks of box[0] along K per "
       "box: a TMA box dimension), got 1"},
      {"mixed_input_w4.json", [](json &j) { j["params"][0]["k_chunks"] = 2; },
       "params[0].k_chunks: only a k_major B is loaded in blocks of K, got "
       "it on A (k_major)"},
      {"gemm_bias_relu.json", [](json &j) { j["params"][1]["k_chunks"] = 2; },
       "params[1].k_chunks: only a k_major B is loaded in blocks of K, got "
       "it on B (n_major)"},
      {"mixed_input_w4.json",
       [](json &j) {
         j["params"][1]["box"] = {32, 16};
         j["params"][1]["k_chunks"] = 2;
       },
       "params[1].k_chunks: needs a swizzled box exactly one swizzle span "
       "wide (box[0] = 32: 64 bytes, swizzle 128B) of whole 1024-byte "
       "swizzle atoms (box[1] = 16 rows)"},
      {"mixed_input_w4.json", [](json &j) { j["params"][1]["k_chunks"] = 2; },
       "params[1].k_chunks: 2 blocks of box[0] = 64 must span the tile's K "
       "(tile[2] = 64): a stage holds one k-tile of B"},
  };
  return c;
}

TEST_P(ManifestErrors, NamesKeyAndRule) {
  const Case &c = cases()[static_cast<size_t>(GetParam())];
  json j = loadJson(c.base);
  c.edit(j);
  EXPECT_EQ(manifestError(j), std::string("manifest t.json: ") + c.message);
}

INSTANTIATE_TEST_SUITE_P(AllRules, ManifestErrors,
                         ::testing::Range(0, static_cast<int>(cases().size())));

} // namespace
