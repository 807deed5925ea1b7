//===- ArgsTest.cpp - Argument validation, one test per rule
//---------------===//
//
// validate() runs before any launch; each rule broken on purpose must give
// one exact message naming the argument and the rule.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Args.h"

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

GemmArgs validFull() {
  GemmArgs a;
  a.M = 200;
  a.N = 136;
  a.K = 72;
  a.L = 3;
  a.A.ptr = 0x10000000;
  a.B.ptr = 0x20000000;
  a.D.ptr = 0x40000000;
  for (const char *n : {"res", "pre", "rowbias", "colscale", "scale_a",
                        "scale_b", "rowmax", "colsum", "amax"})
    a.named[n].ptr = 0x60000000 + 0x1000000 * a.named.size();
  return a;
}

TEST(Args, ValidArgumentsPass) {
  EXPECT_EQ(argsError(loadOrDie("gemm_bias_relu.json"), validBiasRelu()), "");
  EXPECT_EQ(argsError(loadOrDie("evt_full.json"), validFull()), "");
}

TEST(Args, Sizes) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu();
  a.M = 0;
  EXPECT_EQ(argsError(m, a), "M: must be >= 1, got 0");
  a = validBiasRelu();
  a.K = 3000000000LL;
  EXPECT_EQ(argsError(m, a), "K: 3000000000 exceeds the int32 range of the "
                             "kernel's size parameters");
  a = validBiasRelu();
  a.L = 4;
  EXPECT_EQ(argsError(m, a), "L: the kernel is not batched (manifest batched = "
                             "false), got L = 4");
  a = validBiasRelu();
  a.L = -1;
  EXPECT_EQ(argsError(m, a), "L: must be >= 1, got -1");
}

TEST(Args, StaticShape) {
  json j = loadJson("gemm_bias_relu.json");
  j["static_shape"] = {256, 512, 128, 1};
  Manifest m = parseOrDie(j);
  GemmArgs a = validBiasRelu();
  EXPECT_EQ(argsError(m, a), "");
  a.N = 100;
  EXPECT_EQ(argsError(m, a),
            "N: the kernel was compiled for the static shape M "
            "x N x K x L = 256 x 512 x 128 x 1, got N = 100");
}

TEST(Args, NullPointers) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu();
  a.D.ptr = 0;
  EXPECT_EQ(argsError(m, a), "D: null pointer");
  a = validBiasRelu();
  a.named["bias"].ptr = 0;
  EXPECT_EQ(argsError(m, a), "bias: null pointer");
  a = validBiasRelu();
  a.named.erase("bias");
  EXPECT_EQ(argsError(m, a), "bias: null pointer");
  a = validBiasRelu();
  a.C.ptr = 0;
  EXPECT_EQ(argsError(m, a),
            "C: null pointer (C may be null only when beta == 0)");
  // beta == 0: the kernel skips C, so it may be null.
  a.scalars["beta"] = 0.0f;
  EXPECT_EQ(argsError(m, a), "");
  EXPECT_TRUE(sourceSkipped(m, a));
}

TEST(Args, TmaAlignment) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu();
  a.D.ptr += 2;
  EXPECT_EQ(argsError(m, a),
            "D: base address 0x40000002 is not 16-byte aligned "
            "(TMA requirement)");
}

TEST(Args, RowStride) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu();
  // B is n_major (K x N), so N = 1001 breaks B's stride first.
  a.N = 1001;
  EXPECT_EQ(argsError(m, a),
            "B: row stride N * 2 = 2002 bytes is not a multiple "
            "of 16 (TMA requirement): store its rows padded to "
            "ld = 1008 elements (a multiple of 8; TensorArg::ld, "
            "ws-gemm-run --align-ld 16); or use a kernel compiled with "
            "load_b = cp_async, align_b = 2 (cp.async copies, any alignment "
            "of the element)");
  // With B and C padded, D is next.
  a.B.ld = 1008;
  a.C.ld = 1008;
  EXPECT_EQ(argsError(m, a),
            "D: row stride N * 2 = 2002 bytes is not a multiple "
            "of 16 (TMA requirement): compute N = 1008 (a "
            "multiple of 8) and ignore the extra columns, or use a kernel "
            "compiled with store = direct (any row stride)");
  // Padding an output's rows is not enough: TMA stores write past the row's
  // end up to 16 bytes.
  a.D.ld = 1008;
  EXPECT_EQ(argsError(m, a),
            "D: an output row of N = 1001 elements is 2002 "
            "bytes, not a multiple of 16: TMA stores write whole "
            "16-byte pieces at the end of a row, past it: "
            "compute N = 1008 (a multiple of 8) and ignore the "
            "extra columns, or use a kernel compiled with store = direct "
            "(any row stride)");
  a = validBiasRelu();
  a.K = 100;
  EXPECT_EQ(argsError(m, a),
            "A: row stride K * 2 = 200 bytes is not a multiple "
            "of 16 (TMA requirement): store its rows padded to "
            "ld = 104 elements (a multiple of 8; TensorArg::ld, "
            "ws-gemm-run --align-ld 16); or use a kernel compiled with "
            "load_a = cp_async, align_a = 2 (cp.async copies, any alignment "
            "of the element)");
  a = validBiasRelu();
  a.D.ld = 1001;
  EXPECT_EQ(argsError(m, a),
            "D: row stride ld * 2 = 2002 bytes (ld = 1001) is "
            "not a multiple of 16 (TMA requirement): store its "
            "rows padded to ld = 1008 elements (a multiple of 8; "
            "TensorArg::ld, ws-gemm-run --align-ld 16)");
  a = validBiasRelu();
  a.D.ld = 256;
  EXPECT_EQ(argsError(m, a),
            "D: leading dimension ld = 256 is smaller than the "
            "row length N = 512");
  a = validBiasRelu();
  a.D.ld = -8;
  EXPECT_EQ(argsError(m, a),
            "D: leading dimension must be >= 0 (0 means packed), "
            "got -8");
}

TEST(Args, BatchStride) {
  Manifest m = loadOrDie("evt_full.json");
  GemmArgs a = validFull();
  a.A.batchStride = 72 * 200 + 4; // elements; * 2 bytes is not 16-aligned
  EXPECT_EQ(argsError(m, a), "A: batch stride 14404 * 2 = 28808 bytes is not a "
                             "multiple of 16 (TMA requirement); or use a "
                             "kernel compiled with load_a = cp_async, align_a "
                             "= 2 (cp.async copies, any alignment of the "
                             "element)");
  a.A.batchStride = 100;
  EXPECT_EQ(argsError(m, a), "A: batch stride 100 elements is smaller than one "
                             "matrix (K * ld = 14400)");
  a.A.batchStride = 72 * 200 + 8;
  EXPECT_EQ(argsError(m, a), "");
}

TEST(Args, ElementAlignment) {
  Manifest m = loadOrDie("evt_full.json");
  GemmArgs a = validFull();
  a.named["rowbias"].ptr += 2; // f32 vector
  EXPECT_EQ(argsError(m, a),
            "rowbias: address 0x62000002 is not aligned to its "
            "element size (4 bytes)");
  a = validFull();
  a.named["colscale"].ptr += 1; // bf16 vector
  EXPECT_EQ(argsError(m, a),
            "colscale: address 0x63000001 is not aligned to its "
            "element size (2 bytes)");
  a = validFull();
  a.named["amax"].ptr += 2;
  EXPECT_EQ(argsError(m, a), "amax: address 0x68000002 is not aligned to its "
                             "element size (4 bytes)");
}

TEST(Args, DeclaredDTypes) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu();
  a.A.dtype = DType::BF16;
  EXPECT_EQ(argsError(m, a), "A: dtype bf16 does not match the kernel's f16");
  a = validBiasRelu();
  a.A.dtype = DType::F16;
  a.named["bias"].dtype = DType::F32;
  EXPECT_EQ(argsError(m, a), "bias: dtype f32 does not match the kernel's f16");
}

// A launch-time activation parameter is a scalar like alpha: refused by
// name when missing, before anything is launched.
TEST(Args, ActivationParameterAtLaunch) {
  // gemm_bias_relu.json with clamp(z, 0, clamp_hi) for relu(z).
  Manifest m = loadOrDie("gemm_bias_clamp.json");
  GemmArgs a = validBiasRelu();
  EXPECT_EQ(argsError(m, a),
            "clamp_hi: missing value for scalar parameter (set "
            "GemmArgs::scalars[\"clamp_hi\"])");
  a.scalars["clamp_hi"] = 6.0f;
  EXPECT_EQ(argsError(m, a), "");
}

TEST(Args, NamedParameters) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = validBiasRelu();
  a.scalars.erase("alpha");
  EXPECT_EQ(argsError(m, a), "alpha: missing value for scalar parameter (set "
                             "GemmArgs::scalars[\"alpha\"])");
  a = validBiasRelu();
  a.named["colbias"].ptr = 0x70000000;
  EXPECT_EQ(argsError(m, a), "colbias: unknown parameter (the kernel's named "
                             "buffers are: bias)");
  a = validBiasRelu();
  a.scalars["gamma"] = 2.0f;
  EXPECT_EQ(argsError(m, a), "gamma: unknown scalar parameter (the kernel's "
                             "scalars are: alpha, beta)");
  a = validBiasRelu();
  a.named["alpha"].ptr = 0x70000000;
  EXPECT_EQ(argsError(m, a), "alpha: is a scalar parameter; pass its value in "
                             "GemmArgs::scalars");
  a = validBiasRelu();
  a.named["D"].ptr = 0x70000000;
  EXPECT_EQ(argsError(m, a), "D: unknown parameter (the kernel's named buffers "
                             "are: bias)");
}

TEST(Args, CWithoutLoad) {
  json j = loadJson("gemm_bias_relu.json");
  // D = relu(alpha * acc + bias): no C at all.
  j["operands"].erase("C");
  j["params"].erase(2);
  j["evt"]["nodes"] = json::parse(R"([
    {"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["alpha"]},
    {"op": "mul", "args": [1, 0]},
    {"op": "load_vec_m", "name": "bias", "dtype": "f16"},
    {"op": "add", "args": [2, 3]},
    {"op": "relu", "args": [4]},
    {"op": "store", "args": [5], "dtype": "f16"}])");
  j["params"].erase(5); // beta
  Manifest m = parseOrDie(j);
  GemmArgs a = validBiasRelu();
  a.scalars.erase("beta");
  EXPECT_EQ(argsError(m, a), "C: the kernel reads no C (the manifest has no "
                             "operand C), but a pointer was given");
  a.C.ptr = 0;
  EXPECT_EQ(argsError(m, a), "");
}

TEST(Args, Geometry) {
  Manifest m = loadOrDie("evt_full.json");
  GemmArgs a = validFull();
  MatrixGeometry g = matrixGeometry(m, "A", a); // m_major: K x M
  EXPECT_EQ(g.rows, 72);
  EXPECT_EQ(g.cols, 200);
  EXPECT_EQ(g.ld, 200);
  EXPECT_EQ(g.batchStride, 72 * 200);
  EXPECT_EQ(g.batches, 3);
  EXPECT_EQ(g.spanElements(), 3 * 72 * 200);
  a.named["pre"].ld = 144;
  g = matrixGeometry(m, "pre", a);
  EXPECT_EQ(g.rows, 200);
  EXPECT_EQ(g.cols, 136);
  EXPECT_EQ(g.ld, 144);
  EXPECT_EQ(g.spanElements(), 2 * 200 * 144 + 199 * 144 + 136);
  EXPECT_EQ(extentElements({Dim::M, Dim::L}, a, m), 600);
  EXPECT_EQ(extentElements({}, a, m), 1);
}

TEST(Args, DimValues) {
  GemmArgs a;
  a.M = 256;
  a.N = 7;
  a.K = 384;
  a.L = 2;
  Manifest m = loadOrDie("mixed_input_w4.json"); // group 128
  EXPECT_EQ(dimValue(Dim::M, a, m), 256);
  EXPECT_EQ(dimValue(Dim::N, a, m), 7);
  EXPECT_EQ(dimValue(Dim::K, a, m), 384);
  EXPECT_EQ(dimValue(Dim::L, a, m), 2);
  EXPECT_EQ(dimValue(Dim::KB, a, m), 3);
  EXPECT_EQ(dimValue(Dim::NB, a, m), 1);
  // KG = K / the manifest's A dequant group (32 or 64): GPTQ's [K / group]
  // rows of M scales.
  for (int64_t group : {32, 64}) {
    json j = loadJson("mixed_input_w4.json");
    j["operands"]["A"]["dequant"]["group"] = group;
    j["params"][3]["extent"] = {"M", "KG", "L"};
    j["params"][4]["extent"] = {"M", "KG", "L"};
    j["batched"] = true;
    for (int i = 0; i < 3; ++i) {
      j["params"][i]["dims"].push_back("L");
      if (i < 2)
        j["params"][i]["box"].push_back(1);
    }
    Manifest g = parseOrDie(j);
    EXPECT_EQ(dimValue(Dim::KG, a, g), 384 / group);
    EXPECT_EQ(extentElements(g.findParam("dequant_scale_a")->extent, a, g),
              256 * (384 / group) * 2);
  }
  // A manifest without a dequantized A has no scale groups.
  EXPECT_EQ(dimValue(Dim::KG, a, loadOrDie("gemm_bias_relu.json")), 0);
}

} // namespace
