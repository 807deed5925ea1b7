//===- ClassifyTest.cpp - Recognizing standard epilogues ------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Classify.h"

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

/// `e` is cuBLASLt's RELU_BIAS with C: alpha and beta at the given nodes,
/// the row vector "bias", nothing beside D.
void expectReluBiasWithC(const StandardEpilogue &e, int alphaNode,
                         int betaNode) {
  ASSERT_TRUE(e.matched) << e.reason;
  EXPECT_EQ(e.alphaNode, alphaNode);
  EXPECT_EQ(e.betaNode, betaNode);
  EXPECT_TRUE(e.hasC);
  EXPECT_EQ(e.biasName, "bias");
  EXPECT_EQ(e.biasOp, EvtOp::LoadVecM);
  EXPECT_EQ(e.activation, EvtOp::Relu);
  EXPECT_TRUE(e.extraOutputs.empty());
}

TEST(Classify, LinCombPerRowBiasRelu) {
  expectReluBiasWithC(classifyEpilogue(loadOrDie("gemm_bias_relu.json")),
                      /*alphaNode=*/1, /*betaNode=*/4);
}

TEST(Classify, PlainAndFma) {
  json j = loadJson("gemm_bias_relu.json");
  j["evt"]["nodes"] = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["alpha"]},
    {"op": "load_src"},
    {"op": "scalar", "source": "param", "names": ["beta"]},
    {"op": "mul", "args": [2, 3]},
    {"op": "fma", "args": [0, 1, 4]},
    {"op": "gelu_taylor", "args": [5]},
    {"op": "load_vec_m", "name": "bias", "dtype": "f16"},
    {"op": "reduce_to_vec_m", "args": [7], "name": "bias2", "reduce": "max"},
    {"op": "store", "args": [6], "dtype": "f16"}])");
  j["params"].push_back({{"name", "bias2"},
                         {"kind", "reduction"},
                         {"reduce", "max"},
                         {"extent", {"M"}}});
  StandardEpilogue e = classifyEpilogue(parseOrDie(j));
  ASSERT_TRUE(e.matched) << e.reason;
  EXPECT_EQ(e.alphaNode, 1);
  EXPECT_EQ(e.betaNode, 3);
  EXPECT_TRUE(e.biasName.empty());
  EXPECT_EQ(e.activation, EvtOp::GeluTaylor);
  ASSERT_EQ(e.extraOutputs.size(), 1u);
  EXPECT_EQ(e.extraOutputs[0], "reduce_to_vec_m 'bias2'");
}

// CUTLASS's preset tree (ExpandPresets): Z = fma(beta, C, fma(alpha, acc,
// bias)), as LinCombPerRowBiasEltAct expands and bench.mlir writes it.
TEST(Classify, PresetTree) {
  json j = loadJson("gemm_bias_relu.json");
  j["evt"]["nodes"] = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["alpha"]},
    {"op": "scalar", "source": "param", "names": ["beta"]},
    {"op": "load_src"},
    {"op": "load_vec_m", "name": "bias", "dtype": "f16"},
    {"op": "fma", "args": [1, 0, 4]},
    {"op": "fma", "args": [2, 3, 5]},
    {"op": "relu", "args": [6]},
    {"op": "store", "args": [7], "dtype": "f16"}])");
  StandardEpilogue e = classifyEpilogue(parseOrDie(j));
  expectReluBiasWithC(e, /*alphaNode=*/1, /*betaNode=*/2);

  // Without C: fma(alpha, acc, bias) (LinCombPerRowBias with no source).
  j["evt"]["nodes"] = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["alpha"]},
    {"op": "load_vec_m", "name": "bias", "dtype": "f16"},
    {"op": "fma", "args": [0, 1, 2]},
    {"op": "store", "args": [3], "dtype": "f16"}])");
  e = classifyEpilogue(parseOrDie(j));
  ASSERT_TRUE(e.matched) << e.reason;
  EXPECT_FALSE(e.hasC);
  EXPECT_EQ(e.biasName, "bias");

  // fma(beta, C, alpha * acc) + bias.
  j["evt"]["nodes"] = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["alpha"]},
    {"op": "scalar", "source": "param", "names": ["beta"]},
    {"op": "load_src"},
    {"op": "mul", "args": [1, 0]},
    {"op": "fma", "args": [2, 3, 4]},
    {"op": "load_vec_m", "name": "bias", "dtype": "f16"},
    {"op": "add", "args": [5, 6]},
    {"op": "store", "args": [7], "dtype": "f16"}])");
  e = classifyEpilogue(parseOrDie(j));
  ASSERT_TRUE(e.matched) << e.reason;
  EXPECT_TRUE(e.hasC);
  EXPECT_EQ(e.biasName, "bias");

  // The rest read no vector: the bias parameter goes.
  json params = json::array();
  for (const json &p : j["params"])
    if (p["name"] != "bias")
      params.push_back(p);
  j["params"] = params;

  // fma(beta, C, alpha * acc): LinearCombination.
  j["evt"]["nodes"] = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["alpha"]},
    {"op": "scalar", "source": "param", "names": ["beta"]},
    {"op": "load_src"},
    {"op": "mul", "args": [1, 0]},
    {"op": "fma", "args": [2, 3, 4]},
    {"op": "store", "args": [5], "dtype": "f16"}])");
  e = classifyEpilogue(parseOrDie(j));
  ASSERT_TRUE(e.matched) << e.reason;
  EXPECT_TRUE(e.hasC);
  EXPECT_TRUE(e.biasName.empty());

  // What the tree adds must be a broadcast vector, not a scalar.
  j["evt"]["nodes"] = json::parse(R"([{"op": "acc"},
    {"op": "scalar", "source": "param", "names": ["alpha"]},
    {"op": "scalar", "source": "param", "names": ["beta"]},
    {"op": "load_src"},
    {"op": "scalar", "source": "param", "names": ["beta"]},
    {"op": "fma", "args": [1, 0, 4]},
    {"op": "fma", "args": [2, 3, 5]},
    {"op": "store", "args": [6], "dtype": "f16"}])");
  e = classifyEpilogue(parseOrDie(j));
  EXPECT_FALSE(e.matched);
}

TEST(Classify, Unmatched) {
  StandardEpilogue e = classifyEpilogue(loadOrDie("evt_full.json"));
  EXPECT_FALSE(e.matched);
  EXPECT_EQ(e.reason, "node 7 (fma) is not alpha*acc [+ beta*C] [+ bias] "
                      "under an activation among identity, relu, gelu, "
                      "gelu_taylor");
  json j = loadJson("gemm_bias_relu.json");
  j["evt"]["nodes"][9]["op"] = "silu";
  e = classifyEpilogue(parseOrDie(j));
  EXPECT_FALSE(e.matched);
}

} // namespace
