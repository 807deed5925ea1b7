//===- ReferenceTest.cpp - CPU reference on hand-computed cases -----------===//
//
// Small manifests built in the test (f32 operands keep the arithmetic
// exact), one per kind of EVT node, with values worked out by hand or, for
// the transcendental activations, by Python's math module.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Reference.h"

#include <cmath>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

/// A manifest with f32 A (k_major), B (k_major), optional f32 C, D of
/// `dType`, the given extra params and EVT nodes.
json makeManifest(const json &nodes, const json &extraParams = json::array(),
                  bool withC = false, const std::string &dType = "f32",
                  bool batched = false) {
  auto map = [&](const char *op, json dims, const std::string &dt) {
    if (batched)
      dims.push_back("L");
    json box = dt == "f32" ? json{16, 16} : json{32, 16};
    if (batched)
      box.push_back(1);
    return json{{"name", std::string("tma_") + op},
                {"kind", "tensor_map"},
                {"operand", op},
                {"dtype", dt},
                {"dims", dims},
                {"box", box},
                {"swizzle", "none"},
                {"oob_fill", "zero"}};
  };
  json j = {{"format", "ws-gemm-manifest"},
            {"version", 1},
            {"kernel", "k"},
            {"cubin", "k.cubin"},
            {"arch", "sm_90a"},
            {"block", {128, 1, 1}},
            {"cluster", {1, 1, 1}},
            {"smem_bytes", 0},
            {"tile", {64, 64, 16}},
            {"grid", {{"kind", "tiles"}}},
            {"batched", batched}};
  j["operands"] = {{"A", {{"dtype", "f32"}, {"layout", "k_major"}}},
                   {"B", {{"dtype", "f32"}, {"layout", "k_major"}}},
                   {"D", {{"dtype", dType}, {"layout", "n_major"}}}};
  j["params"] = {map("A", {"K", "M"}, "f32"), map("B", {"K", "N"}, "f32"),
                 map("D", {"N", "M"}, dType)};
  if (withC) {
    j["operands"]["C"] = {{"dtype", "f32"}, {"layout", "n_major"}};
    j["params"].push_back(map("C", {"N", "M"}, "f32"));
  }
  for (const json &p : extraParams)
    j["params"].push_back(p);
  j["evt"] = {{"nodes", nodes}};
  return j;
}

HostMatrix matrix(int64_t rows, int64_t cols, std::vector<double> data,
                  int64_t batches = 1) {
  HostMatrix h;
  h.geometry.rows = rows;
  h.geometry.cols = cols;
  h.geometry.ld = cols;
  h.geometry.batches = batches;
  h.geometry.batchStride = rows * cols;
  h.geometry.dtype = DType::F32;
  h.data = std::move(data);
  return h;
}

GemmArgs shape(int64_t M, int64_t N, int64_t K, int64_t L = 1) {
  GemmArgs a;
  a.M = M;
  a.N = N;
  a.K = K;
  a.L = L;
  return a;
}

/// A 2 x 3 times B (3 x 2, stored N x K): acc = [[4, 2], [10, 5]].
HostInputs smallInputs() {
  HostInputs in;
  in.A = matrix(2, 3, {1, 2, 3, 4, 5, 6});
  in.B = matrix(2, 3, {1, 0, 1, 0, 1, 0}); // column n=0: (1,0,1); n=1: (0,1,0)
  return in;
}

Reference makeReference(const json &j, const GemmArgs &a, HostInputs in) {
  Manifest m = parseOrDie(j);
  auto r = Reference::create(m, a, std::move(in));
  EXPECT_TRUE(r.ok()) << r.message();
  return std::move(r.value());
}

const json kStoreAcc = json::parse(R"([
  {"op": "acc"}, {"op": "store", "args": [0], "dtype": "f32"}])");

TEST(Reference, Accumulator) {
  Reference r =
      makeReference(makeManifest(kStoreAcc), shape(2, 2, 3), smallInputs());
  EXPECT_EQ(r.accumulator(0, 0, 0), 1 + 3);
  EXPECT_EQ(r.accumulator(0, 1, 0), 2);
  EXPECT_EQ(r.accumulator(1, 0, 0), 4 + 6);
  EXPECT_EQ(r.accumulator(1, 1, 0), 5);
  ElementResult e = r.evaluate(1, 0, 0);
  EXPECT_EQ(e.acc, 10);
  EXPECT_EQ(e.d, 10);
}

TEST(Reference, AccumulatorLayouts) {
  // A m_major (K x M) and B n_major (K x N) give the same products.
  json j = makeManifest(kStoreAcc);
  j["operands"]["A"]["layout"] = "m_major";
  j["operands"]["B"]["layout"] = "n_major";
  j["params"][0]["dims"] = {"M", "K"};
  j["params"][1]["dims"] = {"N", "K"};
  HostInputs in;
  in.A = matrix(3, 2, {1, 4, 2, 5, 3, 6});
  in.B = matrix(3, 2, {1, 0, 0, 1, 1, 0});
  Reference r = makeReference(j, shape(2, 2, 3), std::move(in));
  EXPECT_EQ(r.accumulator(0, 0, 0), 4);
  EXPECT_EQ(r.accumulator(1, 1, 0), 5);
}

TEST(Reference, BatchedAccumulator) {
  json j = makeManifest(kStoreAcc, json::array(), false, "f32", true);
  HostInputs in;
  in.A = matrix(1, 2, {1, 2, 3, 4}, 2);
  in.B = matrix(1, 2, {1, 1, 10, 100}, 2);
  Reference r = makeReference(j, shape(1, 1, 2, 2), std::move(in));
  EXPECT_EQ(r.accumulator(0, 0, 0), 3);
  EXPECT_EQ(r.accumulator(0, 0, 1), 430);
}

/// Evaluates a graph `x = op(args...)` with acc fed directly.
double
evalWith(const json &nodes, double acc, const json &params = json::array(),
         const std::map<std::string, double> &scalars = {},
         const std::map<std::string, std::vector<double>> &vectors = {}) {
  HostInputs in = smallInputs();
  in.scalars = scalars;
  in.vectors = vectors;
  Reference r =
      makeReference(makeManifest(nodes, params), shape(2, 2, 3), std::move(in));
  ElementResult e;
  r.evaluateWithAcc(acc, 1, 1, 0, e);
  return e.dExact;
}

json unary(const std::string &op) {
  return json::array({{{"op", "acc"}},
                      {{"op", op}, {"args", {0}}},
                      {{"op", "store"}, {"args", {1}}, {"dtype", "f32"}}});
}
json binary(const std::string &op, double c) {
  return json::array({{{"op", "acc"}},
                      {{"op", "const"}, {"value", c}},
                      {{"op", op}, {"args", {0, 1}}},
                      {{"op", "store"}, {"args", {2}}, {"dtype", "f32"}}});
}

TEST(Reference, ArithmeticOps) {
  EXPECT_EQ(evalWith(binary("add", 2), 3), 5);
  EXPECT_EQ(evalWith(binary("sub", 2), 3), 1);
  EXPECT_EQ(evalWith(binary("mul", 2), 3), 6);
  EXPECT_EQ(evalWith(binary("div", 2), 3), 1.5);
  EXPECT_EQ(evalWith(binary("max", 2), 3), 3);
  EXPECT_EQ(evalWith(binary("min", 2), 3), 2);
  EXPECT_EQ(evalWith(unary("neg"), 3), -3);
  EXPECT_EQ(evalWith(unary("abs"), -3), 3);
  EXPECT_DOUBLE_EQ(evalWith(unary("exp"), 1), std::exp(1.0));
  EXPECT_DOUBLE_EQ(evalWith(unary("log"), 4), std::log(4.0));
  EXPECT_EQ(evalWith(unary("sqrt"), 9), 3);
  EXPECT_EQ(evalWith(unary("rsqrt"), 4), 0.5);
  EXPECT_DOUBLE_EQ(evalWith(unary("tanh"), 0.5), 0.46211715726000974);
  EXPECT_DOUBLE_EQ(evalWith(unary("erf"), 1), std::erf(1.0));
  json fma = json::parse(R"([{"op": "acc"}, {"op": "const", "value": 3},
    {"op": "const", "value": 0.5}, {"op": "fma", "args": [0, 1, 2]},
    {"op": "store", "args": [3], "dtype": "f32"}])");
  EXPECT_EQ(evalWith(fma, 2), 6.5);
}

TEST(Reference, CmpAndSelect) {
  // x > 1 ? x : 10 * x
  auto graph = [](const std::string &pred) {
    return json::array({{{"op", "acc"}},
                        {{"op", "const"}, {"value", 1}},
                        {{"op", "cmp"}, {"args", {0, 1}}, {"predicate", pred}},
                        {{"op", "const"}, {"value", 10}},
                        {{"op", "mul"}, {"args", {0, 3}}},
                        {{"op", "select"}, {"args", {2, 0, 4}}},
                        {{"op", "store"}, {"args", {5}}, {"dtype", "f32"}}});
  };
  EXPECT_EQ(evalWith(graph("ogt"), 2), 2);
  EXPECT_EQ(evalWith(graph("ogt"), 0.5), 5);
  EXPECT_EQ(evalWith(graph("gt"), 1), 10);
  EXPECT_EQ(evalWith(graph("ge"), 1), 1);
  EXPECT_EQ(evalWith(graph("eq"), 1), 1);
  EXPECT_EQ(evalWith(graph("ne"), 1), 10);
  EXPECT_EQ(evalWith(graph("olt"), 0.5), 0.5);
  EXPECT_EQ(evalWith(graph("ole"), 2), 20);
  // Unordered predicates are true on NaN, ordered ones false.
  EXPECT_EQ(evalWith(graph("uno"), 2), 20);
  EXPECT_EQ(evalWith(graph("ord"), 2), 2);
  EXPECT_TRUE(std::isnan(evalWith(graph("ugt"), NAN)));
  EXPECT_TRUE(std::isnan(evalWith(graph("ogt"), NAN)));
}

TEST(Reference, Activations) {
  EvtNode p;
  EXPECT_EQ(evalActivation(EvtOp::Identity, -1.5, p), -1.5);
  EXPECT_EQ(evalActivation(EvtOp::Relu, -1.5, p), 0);
  EXPECT_EQ(evalActivation(EvtOp::Relu, 2, p), 2);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Gelu, 1, p), 0.8413447460685429);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Gelu, -1, p), -0.15865525393145707);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Gelu, 2.5, p), 2.4844758366855597);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::GeluTaylor, 1, p), 0.8411919906082768);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::GeluTaylor, -1, p),
                   -0.15880800939172324);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::GeluTaylor, 2.5, p),
                   2.484915733910001);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Silu, 1, p), 0.7310585786300049);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Silu, -2, p), -0.2384058440442351);
  EXPECT_EQ(evalActivation(EvtOp::Sigmoid, 0, p), 0.5);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Sigmoid, 2, p), 0.8807970779778823);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Tanh, 0.5, p), 0.46211715726000974);
  EXPECT_EQ(evalActivation(EvtOp::Hardswish, -4, p), 0);
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::Hardswish, 1, p), 4.0 / 6.0);
  EXPECT_EQ(evalActivation(EvtOp::Hardswish, 4, p), 4);
  p.alpha = 0.1;
  EXPECT_DOUBLE_EQ(evalActivation(EvtOp::LeakyRelu, -2, p), -0.2);
  EXPECT_EQ(evalActivation(EvtOp::LeakyRelu, 3, p), 3);
  p.lower = 0;
  p.upper = 6;
  EXPECT_EQ(evalActivation(EvtOp::Clamp, 7, p), 6);
  EXPECT_EQ(evalActivation(EvtOp::Clamp, -1, p), 0);
  EXPECT_EQ(evalActivation(EvtOp::Clamp, 2.5, p), 2.5);
  // CUTLASS's ThresholdReLU: min(x <= threshold ? 0 : x, upper_bound).
  p.threshold = 0.5;
  p.upperBound = 2;
  EXPECT_EQ(evalActivation(EvtOp::ThresholdRelu, 0.3, p), 0);
  EXPECT_EQ(evalActivation(EvtOp::ThresholdRelu, 0.5, p), 0);
  EXPECT_EQ(evalActivation(EvtOp::ThresholdRelu, 0.7, p), 0.7);
  EXPECT_EQ(evalActivation(EvtOp::ThresholdRelu, 3, p), 2);
}

TEST(Reference, ActivationNodesUseTheirFields) {
  json leaky = json::parse(R"([{"op": "acc"},
    {"op": "leaky_relu", "args": [0], "alpha": 0.25},
    {"op": "store", "args": [1], "dtype": "f32"}])");
  EXPECT_EQ(evalWith(leaky, -4), -1);
  json clamp = json::parse(R"([{"op": "acc"},
    {"op": "clamp", "args": [0], "lower": "-inf", "upper": 2},
    {"op": "store", "args": [1], "dtype": "f32"}])");
  EXPECT_EQ(evalWith(clamp, 5), 2);
  EXPECT_EQ(evalWith(clamp, -50), -50);
  json thr = json::parse(R"([{"op": "acc"},
    {"op": "threshold_relu", "args": [0], "threshold": 1, "upper_bound": 4},
    {"op": "store", "args": [1], "dtype": "f32"}])");
  EXPECT_EQ(evalWith(thr, 0.5), 0);
  EXPECT_EQ(evalWith(thr, 3), 3);
  EXPECT_EQ(evalWith(thr, 9), 4);
  EXPECT_DOUBLE_EQ(evalWith(unary("gelu_taylor"), 1), 0.8411919906082768);
  EXPECT_EQ(evalWith(unary("hardswish"), 4), 4);
}

// Activation parameters at launch: the node's `{"arg": i}` fields read the
// values of its arguments, here scalar parameters set per launch.
TEST(Reference, ActivationParamsAtLaunch) {
  json params = json::parse(R"([
      {"name": "lo", "kind": "scalar", "dtype": "f32"},
      {"name": "hi", "kind": "scalar", "dtype": "f32"}])");
  json clamp = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["lo"]},
    {"op": "scalar", "source": "param", "names": ["hi"]},
    {"op": "clamp", "args": [0, 1, 2], "lower": {"arg": 1},
     "upper": {"arg": 2}},
    {"op": "store", "args": [3], "dtype": "f32"}])");
  EXPECT_EQ(evalWith(clamp, 5, params, {{"lo", -1}, {"hi", 2}}), 2);
  EXPECT_EQ(evalWith(clamp, -5, params, {{"lo", -1}, {"hi", 2}}), -1);
  EXPECT_EQ(evalWith(clamp, 0.5, params, {{"lo", -1}, {"hi", 2}}), 0.5);
  // Other launch values, the same graph.
  EXPECT_EQ(evalWith(clamp, 0.5, params, {{"lo", 0.75}, {"hi", 3}}), 0.75);
  // Unchecked bounds lower > upper: the formula's answer, upper.
  EXPECT_EQ(evalWith(clamp, 0.5, params, {{"lo", 4}, {"hi", 3}}), 3);

  // One bound a constant, the other an argument (arg 1: the only extra).
  json mixed = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["hi"]},
    {"op": "clamp", "args": [0, 1], "lower": 0, "upper": {"arg": 1}},
    {"op": "store", "args": [2], "dtype": "f32"}])");
  json hiOnly = json::array({params[1]});
  EXPECT_EQ(evalWith(mixed, 9, hiOnly, {{"hi", 6}}), 6);
  EXPECT_EQ(evalWith(mixed, -9, hiOnly, {{"hi", 6}}), 0);

  // A negative alpha read from a scalar times another (the product rule).
  json leaky = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["lo", "hi"]},
    {"op": "leaky_relu", "args": [0, 1], "alpha": {"arg": 1}},
    {"op": "store", "args": [2], "dtype": "f32"}])");
  EXPECT_EQ(evalWith(leaky, -4, params, {{"lo", -0.5}, {"hi", 0.5}}), 1);
  EXPECT_EQ(evalWith(leaky, 3, params, {{"lo", -0.5}, {"hi", 0.5}}), 3);

  // threshold_relu with both at launch, and with the bound left out.
  json thr = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["lo"]},
    {"op": "scalar", "source": "param", "names": ["hi"]},
    {"op": "threshold_relu", "args": [0, 2, 1], "threshold": {"arg": 2},
     "upper_bound": {"arg": 1}},
    {"op": "store", "args": [3], "dtype": "f32"}])");
  std::map<std::string, double> v = {{"lo", 1}, {"hi", 4}};
  EXPECT_EQ(evalWith(thr, 0.5, params, v), 0);
  EXPECT_EQ(evalWith(thr, 3, params, v), 3);
  EXPECT_EQ(evalWith(thr, 9, params, v), 4);
  json thrOnly = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["lo"]},
    {"op": "threshold_relu", "args": [0, 1], "threshold": {"arg": 1}},
    {"op": "store", "args": [2], "dtype": "f32"}])");
  json loOnly = json::array({params[0]});
  EXPECT_EQ(evalWith(thrOnly, -2, loOnly, {{"lo", -3}}), -2);
  EXPECT_EQ(evalWith(thrOnly, -4, loOnly, {{"lo", -3}}), 0);
  EXPECT_EQ(evalWith(thrOnly, 1e300, loOnly, {{"lo", -3}}), 1e300);

  // evalActivation with bound parameters.
  ActivationParams p;
  p.alpha = -2;
  EXPECT_EQ(evalActivation(EvtOp::LeakyRelu, -1.5, p), 3);
}

// The jump of a threshold at launch is recorded at the launch value.
TEST(Reference, BranchesAtLaunchThreshold) {
  json params = json::parse(R"([
      {"name": "t", "kind": "scalar", "dtype": "f32"}])");
  json nodes = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["t"]},
    {"op": "threshold_relu", "args": [0, 1], "threshold": {"arg": 1}},
    {"op": "store", "args": [2], "dtype": "f32"}])");
  HostInputs in = smallInputs();
  in.scalars = {{"t", 2}};
  Reference r = makeReference(makeManifest(nodes, params), shape(2, 2, 3),
                              std::move(in));
  ElementResult below, above;
  r.evaluateWithAcc(1.5, 1, 1, 0, below);
  r.evaluateWithAcc(2.5, 1, 1, 0, above);
  EXPECT_NE(below.branches, above.branches);
  EXPECT_EQ(below.d, 0);
  EXPECT_EQ(above.d, 2.5);
}

TEST(Reference, BranchesRecordTheSideOfEachJump) {
  // threshold_relu then cmp(x, 2): an accumulator moved across either
  // jump changes `branches`; moved within a side it does not.
  json nodes = json::parse(R"([{"op": "acc"},
    {"op": "threshold_relu", "args": [0], "threshold": 1, "upper_bound": 4},
    {"op": "const", "value": 2},
    {"op": "cmp", "args": [0, 2], "predicate": "ogt"},
    {"op": "select", "args": [3, 1, 0]},
    {"op": "store", "args": [4], "dtype": "f32"}])");
  HostInputs in = smallInputs();
  Reference r =
      makeReference(makeManifest(nodes), shape(2, 2, 3), std::move(in));
  auto sides = [&](double acc) {
    ElementResult e;
    r.evaluateWithAcc(acc, 1, 1, 0, e);
    return e.branches;
  };
  EXPECT_EQ(sides(0.999), sides(0.5));
  EXPECT_NE(sides(0.999), sides(1.001));
  EXPECT_EQ(sides(1.5), sides(1.999));
  EXPECT_NE(sides(1.999), sides(2.001));
  EXPECT_EQ(sides(3), sides(7));
}

TEST(Reference, LinearCombinationWithSkip) {
  json j = loadJson("gemm_bias_relu.json");
  // Swap in f32 operands of the small test shape.
  json small = makeManifest(j["evt"]["nodes"], json::parse(R"([
      {"name": "bias", "kind": "pointer", "dtype": "f16", "extent": ["M"]},
      {"name": "alpha", "kind": "scalar", "dtype": "f32"},
      {"name": "beta", "kind": "scalar", "dtype": "f32"}])"),
                            /*withC=*/true, "f16");
  HostInputs in = smallInputs();
  in.C = matrix(2, 2, {1, 2, 3, 4});
  in.vectors["bias"] = {0.5, -20};
  in.scalars = {{"alpha", 2}, {"beta", 0.25}};
  Reference r = makeReference(small, shape(2, 2, 3), in);
  // relu(2 * acc + 0.25 * C + bias[m])
  EXPECT_EQ(r.evaluate(0, 0, 0).d, 2 * 4 + 0.25 * 1 + 0.5);
  EXPECT_EQ(r.evaluate(0, 1, 0).d, 2 * 2 + 0.25 * 2 + 0.5);
  EXPECT_EQ(r.evaluate(1, 0, 0).d, 2 * 10 + 0.25 * 3 - 20);
  // (1, 1): 2 * 5 + 0.25 * 4 - 20 < 0 -> relu -> 0.
  EXPECT_EQ(r.evaluate(1, 1, 0).d, 0);
  // beta == 0 skips C entirely, even if C holds NaN.
  in.scalars["beta"] = 0;
  in.C = matrix(2, 2, {NAN, NAN, NAN, NAN});
  Reference skip = makeReference(small, shape(2, 2, 3), in);
  EXPECT_EQ(skip.evaluate(0, 0, 0).d, 2 * 4 + 0.5);
}

TEST(Reference, StoreAndConvertRounding) {
  // D (f16, rz) of acc * 1/3; convert to bf16 (rp) before a second multiply.
  json nodes = json::parse(R"([{"op": "acc"},
    {"op": "const", "value": 0.3333333333333333},
    {"op": "mul", "args": [0, 1]},
    {"op": "convert", "args": [2], "dtype": "bf16", "rounding": "rp"},
    {"op": "store", "args": [3], "dtype": "f16", "rounding": "rz"}])");
  Reference r = makeReference(makeManifest(nodes, json::array(), false, "f16"),
                              shape(2, 2, 3), smallInputs());
  ElementResult e;
  r.evaluateWithAcc(1.0, 0, 0, 0, e);
  double bf = roundTo(DType::BF16, 1.0 / 3.0, Rounding::RP);
  EXPECT_GT(bf, 1.0 / 3.0);
  EXPECT_EQ(e.dExact, bf);
  EXPECT_EQ(e.d, roundTo(DType::F16, bf, Rounding::RZ));
}

TEST(Reference, VectorsAuxScalarsAndReductions) {
  Manifest full = loadOrDie("evt_full.json");
  // Same graph over f32 operands of a 2 x 2 x 3 problem with L = 2.
  json j = loadJson("evt_full.json");
  json small = makeManifest(j["evt"]["nodes"], json::array(), false, "bf16",
                            /*batched=*/true);
  for (const json &p : j["params"])
    if (p["kind"] != "size" &&
        !(p["kind"] == "tensor_map" &&
          (p["operand"] == "A" || p["operand"] == "B" || p["operand"] == "D")))
      small["params"].push_back(p);
  HostInputs in;
  in.A = matrix(2, 3, {1, 2, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1}, 2);
  in.B = matrix(2, 3, {1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1}, 2);
  in.aux["res"] = matrix(2, 2, {1, 2, 3, 4, 5, 6, 7, 8}, 2);
  in.vectors["rowbias"] = {0.5, 1.5, 2.5, 3.5}; // [M, L]
  in.vectors["colscale"] = {2, -1};             // [N]
  in.scalars = {{"scale_a", 0.5}, {"scale_b", 4}};
  Reference r = makeReference(small, shape(2, 2, 3, 2), std::move(in));
  ASSERT_EQ(r.auxOutputs().size(), 1u);
  EXPECT_EQ(r.auxOutputs()[0].name, "pre");
  ASSERT_EQ(r.reductions().size(), 3u);
  EXPECT_EQ(r.reductions()[0].name, "rowmax");
  EXPECT_EQ(r.reductionSize(0), 4);
  EXPECT_EQ(r.reductionSize(1), 4);
  EXPECT_EQ(r.reductionSize(2), 1);
  EXPECT_EQ(r.reductionIndex(0, 1, 0, 1), 3); // l * M + m
  EXPECT_EQ(r.reductionIndex(1, 1, 0, 1), 2); // l * N + n
  EXPECT_EQ(r.reductionIndex(2, 1, 1, 1), 0);

  // (m, n, l) = (1, 0, 1): acc = 1 (A row of ones, B col (1, 0, 0)),
  // pre = res * colscale[n] + (acc * 0.5 * 4 + rowbias[l * M + m])
  //     = 7 * 2 + (2 + 3.5) = 19.5; D = gelu(19.5) ~= 19.5.
  ElementResult e = r.evaluate(1, 0, 1);
  EXPECT_EQ(e.acc, 1);
  EXPECT_EQ(e.auxExact[0], 19.5);
  EXPECT_EQ(e.aux[0], 19.5); // f32 aux store
  EXPECT_EQ(e.dExact, evalActivation(EvtOp::Gelu, 19.5, EvtNode()));
  EXPECT_EQ(e.d, roundTo(DType::BF16, e.dExact));
  ASSERT_EQ(e.reduce.size(), 3u);
  EXPECT_EQ(e.reduce[0], e.dExact);

  // Reductions over the whole problem.
  std::vector<ReductionAccumulator> acc(3);
  for (size_t k = 0; k < 3; ++k)
    acc[k].init(r.reductions()[k].kind, r.reductionSize(k));
  for (int64_t l = 0; l < 2; ++l)
    for (int64_t m = 0; m < 2; ++m)
      for (int64_t n = 0; n < 2; ++n) {
        ElementResult x = r.evaluate(m, n, l);
        for (size_t k = 0; k < 3; ++k)
          acc[k].add(r.reductionIndex(k, m, n, l), x.reduce[k]);
      }
  // rowmax over n of row (1, l = 1) includes 19.5's gelu.
  EXPECT_GE(acc[0].value[3], evalActivation(EvtOp::Gelu, 19.5, EvtNode()));
  EXPECT_EQ(acc[0].count[3], 2);
  EXPECT_EQ(acc[1].count[0], 2);
  EXPECT_EQ(acc[2].count[0], 8);
  double maxAbs = 0;
  for (double v : acc[0].value)
    maxAbs = std::max(maxAbs, std::fabs(v));
  EXPECT_GE(acc[2].value[0], maxAbs);
  (void)full;
}

TEST(Reference, ReductionAccumulator) {
  ReductionAccumulator s, mx, mn, am;
  s.init(ReduceKind::Sum, 1);
  mx.init(ReduceKind::Max, 1);
  mn.init(ReduceKind::Min, 1);
  am.init(ReduceKind::AbsMax, 1);
  for (double x : {1.0, -3.0, 2.0}) {
    s.add(0, x);
    mx.add(0, x);
    mn.add(0, x);
    am.add(0, x);
  }
  EXPECT_EQ(s.value[0], 0);
  EXPECT_EQ(s.absSum[0], 6);
  EXPECT_EQ(mx.value[0], 2);
  EXPECT_EQ(mn.value[0], -3);
  EXPECT_EQ(am.value[0], 3);
  ReductionAccumulator other;
  other.init(ReduceKind::AbsMax, 1);
  other.add(0, -5);
  am.merge(other);
  EXPECT_EQ(am.value[0], 5);
  EXPECT_EQ(am.count[0], 4);
}

// max, min and absmax propagate NaN wherever it comes, as the kernels do
// (max.NaN) and CUTLASS's amax; a sum does by arithmetic.
TEST(Reference, ReductionsPropagateNaN) {
  for (ReduceKind k : {ReduceKind::Sum, ReduceKind::Max, ReduceKind::Min,
                       ReduceKind::AbsMax}) {
    ReductionAccumulator first, later, merged;
    first.init(k, 1);
    later.init(k, 1);
    merged.init(k, 1);
    for (double x : {double(NAN), 2.0, -7.0})
      first.add(0, x);
    for (double x : {2.0, double(NAN), -7.0})
      later.add(0, x);
    merged.add(0, 1.0);
    merged.merge(later);
    EXPECT_TRUE(std::isnan(first.value[0])) << reduceName(k);
    EXPECT_TRUE(std::isnan(later.value[0])) << reduceName(k);
    EXPECT_TRUE(std::isnan(merged.value[0])) << reduceName(k);
  }
}

TEST(Reference, MissingInputs) {
  Manifest m = loadOrDie("gemm_bias_relu.json");
  GemmArgs a = shape(2, 2, 8);
  HostInputs in;
  auto r = Reference::create(m, a, in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "operand A: host matrix is 0 x 0 x 1, expected 2 x "
                         "8 x 1");
  in.A = matrix(2, 8, std::vector<double>(16, 1.0));
  in.B = matrix(8, 2, std::vector<double>(16, 1.0)); // n_major: K x N
  in.C = matrix(2, 2, std::vector<double>(4, 1.0));
  in.scalars = {{"alpha", 1}, {"beta", 1}};
  r = Reference::create(m, a, in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "vector bias: no host data");
  in.vectors["bias"] = {1};
  r = Reference::create(m, a, in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "vector bias: host data has 1 elements, its extent "
                         "needs 2");
  in.vectors["bias"] = {1, 2};
  in.scalars.erase("alpha");
  r = Reference::create(m, a, in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "scalar alpha: no host value");
}

} // namespace
