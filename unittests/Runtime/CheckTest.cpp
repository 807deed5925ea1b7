//===- CheckTest.cpp - Tolerance rule and error statistics ----------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Check.h"

#include <cmath>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

TEST(Check, ToleranceRule) {
  Tolerance t = outputTolerance(DType::F16, DType::F16, 4096, false);
  EXPECT_DOUBLE_EQ(t.eAcc, std::ldexp(1.0, -22) * 64);
  EXPECT_DOUBLE_EQ(t.eEpi, std::ldexp(1.0, -19));
  EXPECT_DOUBLE_EQ(t.rtol, std::ldexp(1.0, -10) + t.eAcc + t.eEpi);
  EXPECT_DOUBLE_EQ(t.atolPerRms, std::ldexp(1.0, -11) + t.eAcc + t.eEpi);
  Tolerance approx = outputTolerance(DType::F32, DType::BF16, 64, true);
  EXPECT_DOUBLE_EQ(approx.eEpi, std::ldexp(1.0, -9));
  Tolerance fp8 = outputTolerance(DType::F16, DType::F8E4M3, 256, false);
  EXPECT_DOUBLE_EQ(fp8.eAcc, std::ldexp(1.0, -12) * 16);
  EXPECT_NE(t.describe().find("|out-ref| <= "), std::string::npos);
}

TEST(Check, Fp8OutputToleranceCoversTwoRoundings) {
  // Check.h's derivation, tried: the kernel and the reference round values
  // within the accumulation term of each other once to the fp8 output;
  // the results stay within the tolerance at every magnitude, across the
  // subnormals and into saturation (rms 1 for the atol term).
  for (DType out : {DType::F8E4M3, DType::F8E5M2}) {
    Tolerance t = outputTolerance(out, DType::F8E4M3, 4096, false);
    EXPECT_EQ(t.atolAbs, dtypeMinSubnormal(out));
    double worst = 0;
    for (int i = 0; i < 200000; ++i) {
      double y = std::ldexp(1.0 + (i % 997) / 997.0, i % 40 - 24) *
                 (i % 2 ? -1 : 1);
      double d = t.eAcc * (std::fabs(y) + 1) * ((i % 7) / 6.0 - 0.5);
      double ref = roundTo(out, y), got = roundTo(out, y + d);
      double tol = t.rtol * std::fabs(ref) + t.atolPerRms + t.atolAbs;
      worst = std::max(worst, std::fabs(got - ref) / tol);
    }
    EXPECT_LE(worst, 1.0) << dtypeName(out);
  }
  EXPECT_EQ(dtypeMinSubnormal(DType::F8E4M3), std::ldexp(1.0, -9));
  EXPECT_EQ(dtypeMinSubnormal(DType::F8E5M2), std::ldexp(1.0, -16));
  EXPECT_EQ(dtypeMinSubnormal(DType::F16), std::ldexp(1.0, -24));
}

TEST(Check, ApproxOpsDetected) {
  EXPECT_FALSE(usesApproxTranscendentals(loadOrDie("gemm_bias_relu.json")));
  json j = loadJson("gemm_bias_relu.json");
  j["evt"]["nodes"][9]["op"] = "gelu_taylor";
  EXPECT_TRUE(usesApproxTranscendentals(parseOrDie(j)));
  // An exact op marked `approx` (fastmath<afn> in the IR) counts too.
  json k = loadJson("gemm_bias_relu.json");
  k["evt"]["nodes"][9]["approx"] = true;
  EXPECT_TRUE(usesApproxTranscendentals(parseOrDie(k)));
  k["evt"]["nodes"][9]["approx"] = false;
  EXPECT_FALSE(usesApproxTranscendentals(parseOrDie(k)));
}

TEST(Check, IntermediateConversionsWidenTheTolerance) {
  EXPECT_EQ(intermediateRoundingError(loadOrDie("gemm_bias_relu.json")), 0);
  json j = loadJson("gemm_bias_relu.json");
  // relu(z) -> convert to bf16 (rz) -> store: one bf16 rounding in the EVT.
  j["evt"]["nodes"][9] = {{"op", "convert"}, {"args", {8}}, {"dtype", "bf16"},
                          {"rounding", "rz"}};
  Manifest m = parseOrDie(j);
  EXPECT_DOUBLE_EQ(intermediateRoundingError(m), 2 * std::ldexp(1.0, -8));
  Tolerance t = outputTolerance(DType::F16, DType::F16, 64, false,
                                intermediateRoundingError(m));
  EXPECT_DOUBLE_EQ(t.eEpi, std::ldexp(1.0, -19) + std::ldexp(1.0, -7));
}

TEST(Check, ErrorStats) {
  Tolerance t = outputTolerance(DType::F16, DType::F16, 64, false);
  ErrorStats s("D");
  for (double r : {1.0, -1.0, 1.0, -1.0})
    s.addRef(r);
  EXPECT_DOUBLE_EQ(s.rms(), 1.0);
  EXPECT_TRUE(s.compare(1.0, 1.0, t, Where{0, 0, 0}));
  // One f16 ulp off at 1.0 is within 2 u_out.
  EXPECT_TRUE(s.compare(1.0 + std::ldexp(1.0, -10), 1.0, t, Where{0, 1, 0}));
  // Four ulps is not.
  EXPECT_FALSE(s.compare(1.0 + std::ldexp(1.0, -8), 1.0, t, Where{2, 3, 0}));
  EXPECT_EQ(s.mismatches(), 1);
  EXPECT_EQ(s.firstMismatch().rfind("(m, n, l) = (2, 3, 0): out ", 0), 0u)
      << s.firstMismatch();
  // NaN where the reference is finite: a mismatch and counted as NaN.
  EXPECT_FALSE(s.compare(NAN, 1.0, t, Where{5, 5, 0}));
  EXPECT_EQ(s.nans(), 1);
  // Infinities must match exactly.
  EXPECT_TRUE(s.compare(INFINITY, INFINITY, t, Where{}));
  EXPECT_FALSE(s.compare(65504.0, INFINITY, t, Where{}));
  EXPECT_EQ(s.checked(), 6);
  EXPECT_GT(s.relativeError(), 0);
  EXPECT_DOUBLE_EQ(s.maxAbsError(), std::ldexp(1.0, -8));
  EXPECT_TRUE(s.compareAbs(10.0, 10.5, 1.0, Where{7}));
  EXPECT_EQ(Where{7}.str(), "[7]");
}

TEST(Check, ReductionTolerance) {
  Tolerance t = outputTolerance(DType::F16, DType::F16, 64, false);
  double e = t.eAcc + t.eEpi;
  // Sum: the elements' bounds summed (|x| and rms parts) plus the f32
  // summation's own rounding.
  double sum = reductionTolerance(t, ReduceKind::Sum, 100.0, 1.0, 0.5, 256);
  EXPECT_DOUBLE_EQ(sum, e * (100 + 256 * 0.5) + std::ldexp(1.0, -22) * 16 * 100);
  // Max: the largest element's bound, no more (count does not enter).
  double mx = reductionTolerance(t, ReduceKind::Max, 100.0, 2.0, 0.5, 256);
  EXPECT_DOUBLE_EQ(mx, e * (2 + 0.5) + std::ldexp(1.0, -22) * 2);
  EXPECT_DOUBLE_EQ(mx, reductionTolerance(t, ReduceKind::Max, 7.0, 2.0, 0.5, 9));
}

} // namespace
