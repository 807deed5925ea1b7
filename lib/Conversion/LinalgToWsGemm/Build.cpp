//===- Build.cpp - A fused chain as a wsgemm.gemm and its launch ----------===//

#include "Build.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/RegionUtils.h"

#include <map>

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::fromlinalg;

namespace {
using Kind = OperandRead::Kind;

/// Fills the epilogue of one gemm: leaves for the chain's inputs (one
/// manifest name per host value and kind), the payloads in f32, outputs.
class EpilogueBuilder {
public:
  EpilogueBuilder(GemmOp gemm, Launch &launch)
      : b(gemm.getContext()), launch(launch), f32(b.getF32Type()) {
    b.setInsertionPointToEnd(&gemm.getEpilogue().front());
  }

  /// The epilogue value of `read` (creating its leaf).
  Value read(const OperandRead &read, Location loc);
  /// Copies the payload of element-wise `op` and records its result.
  void elementwise(FusedOp &op);
  void reduction(const Reduction &reduction, Location loc);

  OpBuilder b;
  Launch &launch;
  Type f32;
  /// Chain tensors -> epilogue values.
  DenseMap<Value, Value> values;

private:
  /// The manifest name of input (`kind`, `value`), numbered per prefix.
  std::string inputName(StringRef prefix, Kind kind, Value value);

  std::map<std::pair<int, void *>, std::string> names;
  llvm::StringMap<unsigned> counters;
};
} // namespace

std::string EpilogueBuilder::inputName(StringRef prefix, Kind kind,
                                       Value value) {
  auto key = std::make_pair(static_cast<int>(kind), value.getAsOpaquePointer());
  auto it = names.find(key);
  if (it != names.end())
    return it->second;
  std::string name = (prefix + Twine(counters[prefix]++)).str();
  names.emplace(key, name);
  launch.inputs.push_back({name, value});
  return name;
}

Value EpilogueBuilder::read(const OperandRead &read, Location loc) {
  Type elem = read.value ? getElementTypeOrSelf(read.value.getType()) : f32;
  switch (read.kind) {
  case Kind::Fused:
    return values.lookup(read.value);
  case Kind::Zero:
  case Kind::Const:
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(read.constant));
  case Kind::Scalar:
  case Kind::ScalarPtr: {
    bool param = read.kind == Kind::Scalar;
    std::string name = inputName(param ? "scalar" : "scalar_ptr", read.kind,
                                 read.value);
    return epi::ScalarOp::create(
        b, loc, f32, param ? epi::ScalarSource::param : epi::ScalarSource::ptr,
        b.getStrArrayAttr({name}), FloatAttr());
  }
  case Kind::Aux:
    return epi::AuxLoadOp::create(b, loc, f32,
                                  inputName("aux", read.kind, read.value),
                                  elem);
  case Kind::VecM:
    return epi::LoadVecMOp::create(b, loc, f32,
                                   inputName("vec_m", read.kind, read.value),
                                   elem);
  case Kind::VecN:
    return epi::LoadVecNOp::create(b, loc, f32,
                                   inputName("vec_n", read.kind, read.value),
                                   elem);
  }
  llvm_unreachable("unknown operand read");
}

void EpilogueBuilder::elementwise(FusedOp &fused) {
  linalg::LinalgOp op = fused.op;
  IRMapping map;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (!arg || arg.use_empty())
      continue;
    map.map(arg, read(fused.reads[operand.getOperandNumber()], op.getLoc()));
  }
  Block &body = *op.getBlock();
  for (Value captured : capturedScalars(body))
    map.map(captured,
            read(OperandRead{Kind::Scalar, captured, 0.0}, op.getLoc()));
  for (Operation &payload : body.without_terminator())
    clonePayloadOp(b, payload, map);
  Value yielded = body.getTerminator()->getOperand(0);
  values[op->getResult(0)] = lookupPayloadValue(b, yielded, map);
}

void EpilogueBuilder::reduction(const Reduction &r, Location loc) {
  Value value = values.lookup(r.input);
  switch (r.target) {
  case Reduction::Target::VecM: {
    std::string name = "reduce_m" + std::to_string(counters["reduce_m"]++);
    epi::ReduceToVecMOp::create(b, loc, r.kind, value, name);
    launch.inits.back().name = name;
    return;
  }
  case Reduction::Target::VecN: {
    std::string name = "reduce_n" + std::to_string(counters["reduce_n"]++);
    epi::ReduceToVecNOp::create(b, loc, r.kind, value, name);
    launch.inits.back().name = name;
    return;
  }
  case Reduction::Target::Scalar: {
    std::string name = "reduce" + std::to_string(counters["reduce"]++);
    epi::ReduceToScalarOp::create(b, loc, r.kind, value, name);
    launch.inits.back().name = name;
    return;
  }
  }
}

/// The ancestor of `op` in `block`, or null.
static Operation *ancestorIn(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

GemmOp fromlinalg::buildGemm(ModuleOp module, StringRef name,
                             Chain &chain, Launch &launch) {
  Contraction &root = chain.root;
  Operation *rootOp = root.op;
  Block *block = rootOp->getBlock();
  llvm::SmallPtrSet<Operation *, 8> inChain{rootOp};
  for (FusedOp &f : chain.ops)
    inChain.insert(f.op);

  // The element-wise values, in order; those read outside the chain are
  // outputs: the last one is D, the others aux stores.
  SmallVector<std::pair<Value, Value>> elementwise; // value, its init
  elementwise.push_back({rootOp->getResult(0),
                         root.op.getDpsInitOperand(0)->get()});
  for (FusedOp &f : chain.ops)
    if (!f.reduction)
      elementwise.push_back(
          {f.op->getResult(0), f.op.getDpsInitOperand(0)->get()});
  SmallVector<std::pair<Value, Value>> outputs;
  for (auto &entry : elementwise) {
    if (llvm::any_of(entry.first.getUsers(), [&](Operation *user) {
          Operation *ancestor = ancestorIn(block, user);
          return !ancestor || !inChain.contains(ancestor);
        }))
      outputs.push_back(entry);
  }
  std::pair<Value, Value> d =
      outputs.empty() ? elementwise.back() : outputs.back();
  if (!outputs.empty())
    outputs.pop_back();

  Location loc = rootOp->getLoc();
  // Before the function that launches it.
  OpBuilder builder(module.getBody()->findAncestorOpInBlock(*rootOp));
  Type cType = root.init.kind == Kind::Aux
                   ? getElementTypeOrSelf(root.init.value.getType())
                   : Type();
  auto gemm = GemmOp::create(builder, loc, name, root.elemType, root.elemType,
                             cType, getElementTypeOrSelf(d.first.getType()));
  gemm.setALayout(root.aMajor);
  gemm.setBLayout(root.bMajor);
  if (root.batched)
    gemm.setBatched(true);
  if (!root.shape.empty())
    gemm.setShape(root.shape);

  launch.inputs = {{"A", root.a}, {"B", root.b}};
  if (cType)
    launch.inputs.push_back({"C", root.init.value});
  EpilogueBuilder epi(gemm, launch);
  OpBuilder &b = epi.b;
  Value acc = gemm.getEpilogue().front().getArgument(0);
  Value value = acc;
  // The init: C (epi.load_src), a broadcast or uniform value, or zero.
  if (root.init.kind == Kind::Aux)
    value = arith::AddFOp::create(b, loc, epi::LoadSrcOp::create(b, loc, epi.f32),
                                  acc);
  else if (root.init.kind != Kind::Zero)
    value = arith::AddFOp::create(b, loc, epi.read(root.init, loc), acc);
  epi.values[rootOp->getResult(0)] = value;

  launch.inits = {{"D", d.second, /*overwritten=*/true}};
  launch.replaced = {d.first};
  for (FusedOp &f : chain.ops) {
    if (!f.reduction) {
      epi.elementwise(f);
      continue;
    }
    launch.inits.push_back({"", f.op.getDpsInitOperand(0)->get(), false});
    launch.replaced.push_back(f.op->getResult(0));
    epi.reduction(*f.reduction, f.op.getLoc());
  }
  for (auto [i, output] : llvm::enumerate(outputs)) {
    std::string auxName = "aux_out" + std::to_string(i);
    epi::AuxStoreOp::create(b, output.first.getLoc(), epi.values.lookup(output.first),
                            auxName, getElementTypeOrSelf(output.first.getType()));
    launch.inits.push_back({auxName, output.second, /*overwritten=*/true});
    launch.replaced.push_back(output.first);
  }
  epi::StoreOp::create(b, d.first.getLoc(), epi.values.lookup(d.first),
                       epi::RoundingMode::rn);
  epi::YieldOp::create(b, loc);
  IRRewriter rewriter(gemm.getContext());
  raiseActivations(rewriter, gemm.getEpilogue());
  return gemm;
}

/// A new tensor.empty with the sizes of `like` and element type `elem`,
/// its sizes taken behind fills and broadcasts (so that they can go).
static Value emptyLike(OpBuilder &b, Location loc, Value like, Type elem) {
  while (isa_and_nonnull<linalg::FillOp, linalg::BroadcastOp>(
      like.getDefiningOp()))
    like = cast<DestinationStyleOpInterface>(like.getDefiningOp())
               .getDpsInitOperand(0)
               ->get();
  SmallVector<OpFoldResult> sizes;
  if (auto empty = like.getDefiningOp<tensor::EmptyOp>())
    sizes = empty.getMixedSizes();
  else
    sizes = tensor::getMixedSizes(b, loc, like);
  return tensor::EmptyOp::create(b, loc, sizes, elem);
}

void fromlinalg::replaceChain(RewriterBase &rewriter, GemmOp gemm,
                              Chain &chain, const Launch &launch) {
  Operation *last = chain.ops.empty() ? chain.root.op.getOperation()
                                      : chain.ops.back().op.getOperation();
  Location loc = last->getLoc();
  rewriter.setInsertionPointAfter(last);
  SmallVector<Value> args;
  SmallVector<Type> argTypes, resultTypes;
  for (const LaunchArg &arg : launch.inputs) {
    Value v = arg.value;
    // Kernel scalars are f32 by value.
    if (!isa<ShapedType>(v.getType()) && !v.getType().isF32())
      v = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), v);
    args.push_back(v);
  }
  SmallVector<Operation *> dead{chain.root.op};
  for (FusedOp &f : chain.ops)
    dead.push_back(f.op);
  Value rootInit = chain.root.op.getDpsInitOperand(0)->get();
  for (const LaunchArg &arg : launch.inits) {
    Value init = arg.value;
    // An output written in place of a chain value (outs(%mm)) gets a fresh
    // tensor of the same sizes: the chain value is gone after the launch.
    // So does one the kernel overwrites whose init computes something (a
    // fill, a broadcast): that work would be wasted.
    Operation *def = init.getDefiningOp();
    if (llvm::is_contained(dead, def) ||
        (arg.overwritten &&
         isa_and_nonnull<linalg::FillOp, linalg::BroadcastOp>(def)))
      init = emptyLike(rewriter, loc, rootInit,
                       getElementTypeOrSelf(init.getType()));
    args.push_back(init);
    resultTypes.push_back(init.getType());
  }
  for (Value v : args)
    argTypes.push_back(v.getType());

  OpBuilder::InsertPoint callPoint = rewriter.saveInsertionPoint();
  rewriter.setInsertionPointAfter(gemm);
  auto decl = func::FuncOp::create(
      rewriter, gemm.getLoc(), (gemm.getSymName() + "_launch").str(),
      rewriter.getFunctionType(argTypes, resultTypes));
  decl.setPrivate();
  decl->setAttr("wsgemm.kernel", FlatSymbolRefAttr::get(gemm.getSymNameAttr()));
  unsigned i = 0;
  for (const LaunchArg &arg : llvm::concat<const LaunchArg>(launch.inputs, launch.inits))
    decl.setArgAttr(i++, "wsgemm.param", rewriter.getStringAttr(arg.name));

  rewriter.restoreInsertionPoint(callPoint);
  auto call = func::CallOp::create(rewriter, loc, decl, args);
  for (auto [old, result] : llvm::zip(launch.replaced, call.getResults()))
    rewriter.replaceAllUsesExcept(old, result, call);

  // Erase the chain, last op first, then what only it read.
  SmallVector<Operation *> worklist;
  for (Operation *op : llvm::reverse(dead)) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && !llvm::is_contained(dead, def))
        worklist.push_back(def);
    rewriter.eraseOp(op);
  }
  llvm::SmallPtrSet<Operation *, 16> erased;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (erased.contains(op) ||
        !isa<linalg::TransposeOp, linalg::BroadcastOp, linalg::FillOp,
             tensor::EmptyOp, arith::ConstantOp>(op) ||
        !op->use_empty())
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    rewriter.eraseOp(op);
  }
}
