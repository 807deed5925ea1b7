//===- EvtGraph.cpp - The "evt" section of the manifest -------------------===//
//
// Reads evt.nodes into EvtNodes: the op by name, its arguments (ids of
// earlier nodes that produce a value, so the list is topologically ordered
// and acyclic by construction) and the fields that op carries. Rules that
// tie nodes to params (names, dtypes, extents) are in ManifestValidate.cpp.
//
//===----------------------------------------------------------------------===//

#include "ManifestReader.h"

#include <iterator>
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

//===----------------------------------------------------------------------===//
// The op table (EvtOps.def)
//===----------------------------------------------------------------------===//

namespace {
constexpr bool inEnumOrder() {
  for (size_t i = 0; i < std::size(kEvtOps); ++i)
    if (static_cast<size_t>(kEvtOps[i].op) != i)
      return false;
  return true;
}
} // namespace
// evtOpInfo() indexes kEvtOps by the enumerator.
static_assert(inEnumOrder(), "kEvtOps must list the ops in EvtOp order");

const EvtOpInfo *findEvtOp(const std::string &name) {
  for (const EvtOpInfo &i : kEvtOps)
    if (name == i.name)
      return &i;
  return nullptr;
}

const char *evtOpName(EvtOp op) { return evtOpInfo(op).name; }

namespace detail {

namespace {

/// The manifest keys of an activation's parameters, in argument order.
struct ParamKey {
  const char *key;
  ActivationParam param;
};
std::vector<ParamKey> activationParamKeys(EvtOp op) {
  switch (op) {
  case EvtOp::Clamp:
    return {{"lower", ActivationParam::Lower},
            {"upper", ActivationParam::Upper}};
  case EvtOp::LeakyRelu:
    return {{"alpha", ActivationParam::Alpha}};
  case EvtOp::ThresholdRelu:
    return {{"threshold", ActivationParam::Threshold},
            {"upper_bound", ActivationParam::UpperBound}};
  default:
    return {};
  }
}

/// How many of the node's activation parameters are given as arguments
/// (`{"arg": i}` objects): the extra entries its args take.
int countParamArgs(const json &j, EvtOp op) {
  int count = 0;
  for (const ParamKey &k : activationParamKeys(op))
    if (const json *f = maybe(j, k.key); f && f->is_object())
      ++count;
  return count;
}

/// The field of `n` that holds constant parameter `which`.
double &nodeField(EvtNode &n, ActivationParam which) {
  switch (which) {
  case ActivationParam::Lower:
    return n.lower;
  case ActivationParam::Upper:
    return n.upper;
  case ActivationParam::Alpha:
    return n.alpha;
  case ActivationParam::Threshold:
    return n.threshold;
  case ActivationParam::UpperBound:
    break;
  }
  return n.upperBound;
}

/// Activation parameter `k`: a number into its field of `n`, or
/// `{"arg": i}` into n.paramArgs (1 <= i < args, each argument giving one
/// parameter); false when the field is absent.
bool readParam(EvtNode &n, const json &j, const std::string &key,
               const ParamKey &k) {
  const json *f = maybe(j, k.key);
  if (!f)
    return false;
  std::string fkey = key + "." + k.key;
  if (!f->is_object()) {
    nodeField(n, k.param) = getNumber(*f, fkey);
    return true;
  }
  int64_t arg = getInt(need(*f, fkey, "arg"), fkey + ".arg");
  if (arg < 1 || arg >= static_cast<int64_t>(n.args.size()))
    fail(fkey + ".arg",
         "must name one of the node's arguments after its input, 1 to " +
             std::to_string(n.args.size() - 1) + ", got " +
             std::to_string(arg));
  for (const ActivationParamArg &a : n.paramArgs)
    if (a.arg == arg)
      fail(fkey + ".arg", "argument " + std::to_string(arg) +
                              " already gives another parameter");
  n.paramArgs.push_back({k.param, static_cast<int>(arg)});
  return true;
}

/// The fields `n.op` carries (docs/manifest.md, "The EVT graph"); the ops
/// not named here carry none.
void readFields(EvtNode &n, const json &j, const std::string &key) {
  if (evtOpInfo(n.op).kind == EvtOpKind::Reduction) {
    n.name = getString(need(j, key, "name"), key + ".name");
    n.reduce = getReduce(need(j, key, "reduce"), key + ".reduce");
    return;
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
  case EvtOp::LeakyRelu:
  case EvtOp::ThresholdRelu: {
    // CUTLASS's ThresholdReLU: min(x <= threshold ? 0 : x, upper_bound),
    // upper_bound +inf when absent; every other parameter is required.
    n.upperBound = std::numeric_limits<double>::infinity();
    for (const ParamKey &k : activationParamKeys(n.op))
      if (!readParam(n, j, key, k) && k.param != ActivationParam::UpperBound)
        need(j, key, k.key); // fails: a missing required field
    // Launch-time bounds are not checked (nor are they by CUTLASS).
    bool constantBounds = n.paramArgs.empty();
    if (n.op == EvtOp::Clamp && constantBounds && !(n.lower <= n.upper))
      fail(key, "clamp needs lower <= upper");
    break;
  }
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
  default:
    break;
  }
}

/// Node `index` of evt.nodes; `before` holds the nodes before it.
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
  std::string opName = getString(need(j, key, "op"), key + ".op");
  const EvtOpInfo *info = findEvtOp(opName);
  if (!info)
    fail(key + ".op", "unknown op '" + opName + "'");
  n.op = info->op;
  const json *args = maybe(j, "args");
  if (info->kind == EvtOpKind::Leaf) {
    if (args && !(args->is_array() && args->empty()))
      fail(key + ".args", std::string(info->name) + " is a leaf and takes no "
                                                    "arguments");
  } else {
    if (!args)
      fail(key + ".args", "missing required field");
    getArray(*args, key + ".args");
    // An activation takes one more per parameter given at launch.
    int arity = info->arity + countParamArgs(j, info->op);
    if (static_cast<int>(args->size()) != arity)
      fail(key + ".args", std::string(info->name) + " takes " +
                              std::to_string(arity) + " argument" +
                              (arity == 1 ? "" : "s") + ", got " +
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
      if (!producesValue(before[v].op))
        fail(akey, "node " + std::to_string(v) + " (" +
                       evtOpName(before[v].op) + ") produces no value");
      n.args.push_back(static_cast<int>(v));
    }
  }
  readFields(n, j, key);
  if (const json *a = maybe(j, "approx"))
    n.approx = getBool(*a, key + ".approx");
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
