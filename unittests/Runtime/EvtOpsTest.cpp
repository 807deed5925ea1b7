//===- EvtOpsTest.cpp - EvtOps.def drives the runtime ---------------------===//
//
// Walks the op table (kEvtOps, from EvtOps.def) and checks that each part of
// the runtime follows it: the manifest parser accepts exactly the table's
// names with the table's arity; the reference evaluates every op that
// computes a value, checked against a value worked out by hand here (so a
// new op fails this test until it gets one); the tolerance rule widens for
// exactly the Approx ops; the standard-epilogue matcher accepts exactly the
// activations with a cuBLASLt counterpart.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "ws-gemm-runtime/Check.h"
#include "ws-gemm-runtime/Classify.h"
#include "ws-gemm-runtime/Reference.h"

#include <cctype>
#include <cmath>

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::test;
using json = nlohmann::json;

namespace {

/// One op evaluated on x (its first argument); the second argument is 2 and
/// the third 0.5. Values by hand or, for transcendentals, Python's math.
struct Case {
  const char *op;
  json fields;
  double x;
  double want;
};

const std::vector<Case> &cases() {
  static const std::vector<Case> c = {
      {"add", {}, 3, 5},
      {"sub", {}, 3, 1},
      {"mul", {}, 3, 6},
      {"div", {}, 3, 1.5},
      {"max", {}, 3, 3},
      {"min", {}, 3, 2},
      {"neg", {}, 0.75, -0.75},
      {"abs", {}, -0.75, 0.75},
      {"exp", {}, 1, 2.718281828459045},
      {"log", {}, 4, 1.3862943611198906},
      {"sqrt", {}, 2.25, 1.5},
      {"rsqrt", {}, 4, 0.5},
      {"tanh", {}, 0.5, 0.46211715726000974},
      {"erf", {}, 1, 0.8427007929497149},
      {"fma", {}, 3, 6.5},
      {"select", {}, 0, 0.5},
      {"cmp", {{"predicate", "ogt"}}, 3, 1},
      {"identity", {}, -1.5, -1.5},
      {"relu", {}, -1.5, 0},
      {"clamp", {{"lower", 0}, {"upper", 6}}, 7, 6},
      {"leaky_relu", {{"alpha", 0.25}}, -2, -0.5},
      {"threshold_relu", {{"threshold", 1}, {"upper_bound", 2}}, 3, 2},
      {"gelu", {}, 1, 0.8413447460685429},
      {"gelu_taylor", {}, 1, 0.8411919906082768},
      {"silu", {}, 1, 0.7310585786300049},
      {"sigmoid", {}, 2, 0.8807970779778823},
      {"hardswish", {}, 1, 4.0 / 6.0},
      // 1 + 2^-12 rounded up to f16: 1 + 2^-10.
      {"convert",
       {{"dtype", "f16"}, {"rounding", "rp"}},
       1 + 0x1p-12,
       1 + 0x1p-10},
  };
  return c;
}

const Case *findCase(const std::string &op) {
  for (const Case &c : cases())
    if (op == c.op)
      return &c;
  return nullptr;
}

bool computes(EvtOpKind k) {
  return k == EvtOpKind::Unary || k == EvtOpKind::Activation ||
         k == EvtOpKind::Binary || k == EvtOpKind::Ternary;
}

/// A manifest with f32 A (2 x 3), B (3 x 2, stored N x K), D and the EVT
/// acc, const 2, const 0.5, op(the first `arity` of those), store.
json opManifest(const EvtOpInfo &info, const json &fields) {
  auto map = [](const char *op, json dims) {
    return json{{"name", std::string("tma_") + op},
                {"kind", "tensor_map"},
                {"operand", op},
                {"dtype", "f32"},
                {"dims", dims},
                {"box", {16, 16}},
                {"swizzle", "none"},
                {"oob_fill", "zero"}};
  };
  json node = fields.is_null() ? json::object() : fields;
  node["op"] = info.name;
  node["args"] = json::array();
  for (int a = 0; a < info.arity; ++a)
    node["args"].push_back(a);
  json nodes = {{{"op", "acc"}},
                {{"op", "const"}, {"value", 2}},
                {{"op", "const"}, {"value", 0.5}},
                node,
                {{"op", "store"}, {"args", {3}}, {"dtype", "f32"}}};
  json f32 = {{"dtype", "f32"}, {"layout", "k_major"}};
  return {{"format", "ws-gemm-manifest"},
          {"version", 1},
          {"kernel", "k"},
          {"cubin", "k.cubin"},
          {"arch", "sm_90a"},
          {"block", {128, 1, 1}},
          {"cluster", {1, 1, 1}},
          {"smem_bytes", 0},
          {"tile", {64, 64, 16}},
          {"grid", {{"kind", "tiles"}}},
          {"batched", false},
          {"operands",
           {{"A", f32},
            {"B", f32},
            {"D", {{"dtype", "f32"}, {"layout", "n_major"}}}}},
          {"params",
           {map("A", {"K", "M"}), map("B", {"K", "N"}), map("D", {"N", "M"})}},
          {"evt", {{"nodes", nodes}}}};
}

HostMatrix matrix(int64_t rows, int64_t cols, std::vector<double> data) {
  HostMatrix h;
  h.geometry.rows = rows;
  h.geometry.cols = cols;
  h.geometry.ld = cols;
  h.geometry.batches = 1;
  h.geometry.batchStride = rows * cols;
  h.geometry.dtype = DType::F32;
  h.data = std::move(data);
  return h;
}

/// The value reaching the store of opManifest() with acc = x.
double evaluate(const Manifest &m, double x) {
  GemmArgs a;
  a.M = 2;
  a.N = 2;
  a.K = 3;
  HostInputs in;
  in.A = matrix(2, 3, {1, 2, 3, 4, 5, 6});
  in.B = matrix(2, 3, {1, 0, 1, 0, 1, 0});
  auto r = Reference::create(m, a, std::move(in));
  EXPECT_TRUE(r.ok()) << r.message();
  if (!r.ok())
    return NAN;
  ElementResult e;
  r->evaluateWithAcc(x, 0, 0, 0, e);
  return e.dExact;
}

TEST(EvtOps, EveryComputingOpEvaluatesItsFormula) {
  for (const EvtOpInfo &info : kEvtOps) {
    if (!computes(info.kind))
      continue;
    SCOPED_TRACE(info.name);
    const Case *c = findCase(info.name);
    ASSERT_NE(c, nullptr) << "no case for '" << info.name
                          << "': add one with a value worked out by hand";
    Manifest m = parseOrDie(opManifest(info, c->fields));
    ASSERT_EQ(m.nodes[3].op, info.op);
    EXPECT_DOUBLE_EQ(evaluate(m, c->x), c->want);
    // The tolerance widens for exactly the ops the table calls Approx.
    EXPECT_EQ(usesApproxTranscendentals(m),
              info.accuracy == EvtAccuracy::Approx);
  }
  // Check.h documents e_epi = 2^-10 for these two.
  std::vector<std::string> approx;
  for (const EvtOpInfo &info : kEvtOps)
    if (info.accuracy == EvtAccuracy::Approx)
      approx.push_back(info.name);
  EXPECT_EQ(approx, (std::vector<std::string>{"tanh", "gelu_taylor"}));
  // No case for an op the table no longer has.
  for (const Case &c : cases()) {
    const EvtOpInfo *info = findEvtOp(c.op);
    ASSERT_NE(info, nullptr) << c.op;
    EXPECT_TRUE(computes(info->kind)) << c.op;
  }
}

TEST(EvtOps, NamesAndArityComeFromTheTable) {
  json base = loadJson("gemm_bias_relu.json"); // node 9: relu(node 8)
  const std::string where = "manifest t.json: evt.nodes[9].";
  for (const EvtOpInfo &info : kEvtOps) {
    SCOPED_TRACE(info.name);
    EXPECT_EQ(findEvtOp(info.name), &info);
    EXPECT_STREQ(evtOpName(info.op), info.name);
    // One argument too many.
    json j = base;
    j["evt"]["nodes"][9]["op"] = info.name;
    j["evt"]["nodes"][9]["args"] = json::array();
    for (int a = 0; a <= info.arity; ++a)
      j["evt"]["nodes"][9]["args"].push_back(8);
    std::string want =
        info.kind == EvtOpKind::Leaf
            ? std::string(info.name) + " is a leaf and takes no arguments"
            : std::string(info.name) + " takes " + std::to_string(info.arity) +
                  " argument" + (info.arity == 1 ? "" : "s") + ", got " +
                  std::to_string(info.arity + 1);
    EXPECT_EQ(manifestError(j), where + "args: " + want);
    // A name not in the table is refused, however close.
    for (std::string bad :
         {std::string(info.name) + "2", std::string(info.name) + " "}) {
      j = base;
      j["evt"]["nodes"][9]["op"] = bad;
      EXPECT_EQ(manifestError(j), where + "op: unknown op '" + bad + "'");
    }
    std::string upper = info.name;
    for (char &ch : upper)
      ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    EXPECT_EQ(findEvtOp(upper), nullptr);
  }
  EXPECT_EQ(findEvtOp("pow"), nullptr);
}

TEST(EvtOps, MatcherAcceptsTheActivationsWithACublasCounterpart) {
  json base = loadJson("gemm_bias_relu.json"); // store(relu(linear + bias))
  for (const EvtOpInfo &info : kEvtOps) {
    if (info.kind != EvtOpKind::Activation)
      continue;
    SCOPED_TRACE(info.name);
    const Case *c = findCase(info.name);
    ASSERT_NE(c, nullptr);
    json j = base;
    json node = c->fields.is_null() ? json::object() : c->fields;
    node["op"] = info.name;
    node["args"] = {8};
    j["evt"]["nodes"][9] = node;
    StandardEpilogue e = classifyEpilogue(parseOrDie(j));
    EXPECT_EQ(e.matched, info.blas != BlasActivation::None) << e.reason;
    if (e.matched) {
      EXPECT_EQ(e.activation, info.op);
    }
  }
}

} // namespace
