//===- EvtGraph.cpp - The "evt" section of the manifest -------------------===//
//
// Reads evt.nodes into EvtNodes: the op by name, its arguments (ids of
// earlier nodes that produce a value, so the list is topologically ordered
// and acyclic by construction) and the fields that op carries. Rules that
// tie nodes to params (names, dtypes, extents) are in ManifestValidate.cpp.
//
//===----------------------------------------------------------------------===//

#include "ManifestReader.h"

#include <limits>

namespace wsgemm::runtime {

const char *reduceName(ReduceKind r) {
  switch (r) {
  case ReduceKind::Sum:
    return "sum";
  case ReduceKind::Max:
    return "max";
  case ReduceKind::Min:
    return "min";
  case ReduceKind::AbsMax:
    return "absmax";
  }
  return "?";
}

namespace {

struct OpInfo {
  EvtOp op;
  const char *name;
  int arity; // -1: leaf (no args)
};

// Every op of the EVT table with its argument count.
const OpInfo kOps[] = {
    {EvtOp::Acc, "acc", -1},
    {EvtOp::LoadSrc, "load_src", -1},
    {EvtOp::Scalar, "scalar", -1},
    {EvtOp::LoadVecM, "load_vec_m", -1},
    {EvtOp::LoadVecN, "load_vec_n", -1},
    {EvtOp::AuxLoad, "aux_load", -1},
    {EvtOp::Const, "const", -1},
    {EvtOp::Add, "add", 2},
    {EvtOp::Sub, "sub", 2},
    {EvtOp::Mul, "mul", 2},
    {EvtOp::Div, "div", 2},
    {EvtOp::Max, "max", 2},
    {EvtOp::Min, "min", 2},
    {EvtOp::Neg, "neg", 1},
    {EvtOp::Abs, "abs", 1},
    {EvtOp::Exp, "exp", 1},
    {EvtOp::Log, "log", 1},
    {EvtOp::Sqrt, "sqrt", 1},
    {EvtOp::Rsqrt, "rsqrt", 1},
    {EvtOp::Tanh, "tanh", 1},
    {EvtOp::Erf, "erf", 1},
    {EvtOp::Fma, "fma", 3},
    {EvtOp::Select, "select", 3},
    {EvtOp::Cmp, "cmp", 2},
    {EvtOp::Identity, "identity", 1},
    {EvtOp::Relu, "relu", 1},
    {EvtOp::Clamp, "clamp", 1},
    {EvtOp::LeakyRelu, "leaky_relu", 1},
    {EvtOp::ThresholdRelu, "threshold_relu", 1},
    {EvtOp::Gelu, "gelu", 1},
    {EvtOp::GeluTaylor, "gelu_taylor", 1},
    {EvtOp::Silu, "silu", 1},
    {EvtOp::Sigmoid, "sigmoid", 1},
    {EvtOp::Hardswish, "hardswish", 1},
    {EvtOp::Convert, "convert", 1},
    {EvtOp::Store, "store", 1},
    {EvtOp::AuxStore, "aux_store", 1},
    {EvtOp::ReduceToVecM, "reduce_to_vec_m", 1},
    {EvtOp::ReduceToVecN, "reduce_to_vec_n", 1},
    {EvtOp::ReduceToScalar, "reduce_to_scalar", 1},
};

const OpInfo &opInfo(EvtOp op) {
  for (const OpInfo &i : kOps)
    if (i.op == op)
      return i;
  return kOps[0];
}

bool isOutputOp(EvtOp op) {
  return op == EvtOp::Store || op == EvtOp::AuxStore ||
         op == EvtOp::ReduceToVecM || op == EvtOp::ReduceToVecN ||
         op == EvtOp::ReduceToScalar;
}

} // namespace

const char *evtOpName(EvtOp op) { return opInfo(op).name; }

namespace detail {

namespace {

EvtNode parseNode(const json &j, const std::string &key, size_t index,
                  const std::vector<EvtNode> &before) {
  getObject(j, key);
  EvtNode n;
  n.id = static_cast<int>(index);
  if (const json *id = maybe(j, "id")) {
    int64_t v = getInt(*id, key + ".id");
    if (v != static_cast<int64_t>(index))
      fail(key + ".id", "must equal its position " + std::to_string(index) +
                            " (nodes are listed in topological order), got " +
                            std::to_string(v));
  }
  {
    std::string op = getString(need(j, key, "op"), key + ".op");
    bool found = false;
    for (const OpInfo &i : kOps)
      if (op == i.name) {
        n.op = i.op;
        found = true;
      }
    if (!found)
      fail(key + ".op", "unknown op '" + op + "'");
  }
  const OpInfo &info = opInfo(n.op);
  const json *args = maybe(j, "args");
  if (info.arity < 0) {
    if (args && !(args->is_array() && args->empty()))
      fail(key + ".args", std::string(info.name) + " is a leaf and takes no "
                                                   "arguments");
  } else {
    if (!args)
      fail(key + ".args", "missing required field");
    getArray(*args, key + ".args");
    if (static_cast<int>(args->size()) != info.arity)
      fail(key + ".args", std::string(info.name) + " takes " +
                              std::to_string(info.arity) + " argument" +
                              (info.arity == 1 ? "" : "s") + ", got " +
                              std::to_string(args->size()));
    for (size_t a = 0; a < args->size(); ++a) {
      std::string akey = idx(key + ".args", a);
      int64_t v = getInt((*args)[a], akey);
      if (v < 0 || v >= static_cast<int64_t>(index))
        fail(akey, "node " + std::to_string(v) +
                       " is not defined before "
                       "node " +
                       std::to_string(index) +
                       " (nodes must be in topological order)");
      if (isOutputOp(before[v].op))
        fail(akey, "node " + std::to_string(v) + " (" +
                       evtOpName(before[v].op) + ") produces no value");
      n.args.push_back(static_cast<int>(v));
    }
  }

  switch (n.op) {
  case EvtOp::LoadSrc:
    if (const json *s = maybe(j, "skip_if_zero"))
      n.skipIfZero = getString(*s, key + ".skip_if_zero");
    break;
  case EvtOp::Scalar: {
    n.source = getEnum<ScalarSource>(need(j, key, "source"), key + ".source",
                                     "scalar source",
                                     {{"attr", ScalarSource::Attr},
                                      {"param", ScalarSource::Param},
                                      {"ptr", ScalarSource::Ptr}});
    if (n.source == ScalarSource::Attr) {
      n.value = getNumber(need(j, key, "value"), key + ".value");
    } else {
      const json &names = getArray(need(j, key, "names"), key + ".names");
      if (names.empty())
        fail(key + ".names", "must name at least one scalar");
      for (size_t i = 0; i < names.size(); ++i)
        n.names.push_back(getString(names[i], idx(key + ".names", i)));
    }
    break;
  }
  case EvtOp::LoadVecM:
  case EvtOp::LoadVecN:
  case EvtOp::AuxLoad:
    n.name = getString(need(j, key, "name"), key + ".name");
    n.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    break;
  case EvtOp::Const:
    n.value = getNumber(need(j, key, "value"), key + ".value");
    break;
  case EvtOp::Cmp:
    n.predicate = getEnum<CmpPredicate>(
        need(j, key, "predicate"), key + ".predicate", "predicate",
        {{"oeq", CmpPredicate::OEQ}, {"ogt", CmpPredicate::OGT},
         {"oge", CmpPredicate::OGE}, {"olt", CmpPredicate::OLT},
         {"ole", CmpPredicate::OLE}, {"one", CmpPredicate::ONE},
         {"ord", CmpPredicate::ORD}, {"ueq", CmpPredicate::UEQ},
         {"ugt", CmpPredicate::UGT}, {"uge", CmpPredicate::UGE},
         {"ult", CmpPredicate::ULT}, {"ule", CmpPredicate::ULE},
         {"une", CmpPredicate::UNE}, {"uno", CmpPredicate::UNO},
         {"eq", CmpPredicate::OEQ},  {"ne", CmpPredicate::UNE},
         {"lt", CmpPredicate::OLT},  {"le", CmpPredicate::OLE},
         {"gt", CmpPredicate::OGT},  {"ge", CmpPredicate::OGE}});
    break;
  case EvtOp::Clamp:
    n.lower = getNumber(need(j, key, "lower"), key + ".lower");
    n.upper = getNumber(need(j, key, "upper"), key + ".upper");
    if (!(n.lower <= n.upper))
      fail(key, "clamp needs lower <= upper");
    break;
  case EvtOp::LeakyRelu:
    n.alpha = getNumber(need(j, key, "alpha"), key + ".alpha");
    break;
  case EvtOp::ThresholdRelu:
    n.threshold = getNumber(need(j, key, "threshold"), key + ".threshold");
    // CUTLASS's ThresholdReLU: min(x <= threshold ? 0 : x, upper_bound).
    n.upperBound = std::numeric_limits<double>::infinity();
    if (const json *u = maybe(j, "upper_bound"))
      n.upperBound = getNumber(*u, key + ".upper_bound");
    break;
  case EvtOp::Convert:
  case EvtOp::Store:
    n.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    if (const json *r = maybe(j, "rounding"))
      n.rounding = getRounding(*r, key + ".rounding");
    break;
  case EvtOp::AuxStore:
    n.name = getString(need(j, key, "name"), key + ".name");
    n.dtype = getDType(need(j, key, "dtype"), key + ".dtype");
    if (const json *r = maybe(j, "rounding"))
      n.rounding = getRounding(*r, key + ".rounding");
    break;
  case EvtOp::ReduceToVecM:
  case EvtOp::ReduceToVecN:
  case EvtOp::ReduceToScalar:
    n.name = getString(need(j, key, "name"), key + ".name");
    n.reduce = getReduce(need(j, key, "reduce"), key + ".reduce");
    break;
  default:
    break;
  }
  return n;
}

} // namespace

std::vector<EvtNode> parseEvt(const json &root) {
  const json &evt = getObject(need(root, "", "evt"), "evt");
  const json &nodes = getArray(need(evt, "evt", "nodes"), "evt.nodes");
  if (nodes.empty())
    fail("evt.nodes", "must not be empty");
  std::vector<EvtNode> out;
  for (size_t i = 0; i < nodes.size(); ++i)
    out.push_back(parseNode(nodes[i], idx("evt.nodes", i), i, out));
  return out;
}

} // namespace detail
} // namespace wsgemm::runtime
