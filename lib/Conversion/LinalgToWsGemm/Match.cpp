//===- Match.cpp - What --wsgemm-from-linalg recognises -------------------===//

#include "Match.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::fromlinalg;

bool fromlinalg::isEpilogueMemType(Type type) {
  return isa<Float16Type, BFloat16Type, Float32Type, Float8E4M3FNType,
             Float8E5M2Type>(type);
}

static bool isComputeType(Type type) {
  return isa<Float16Type, BFloat16Type, Float32Type>(type);
}

static std::string str(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

static std::string str(AffineMap map) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << map;
  return s;
}

/// The loop dimension of each result of `map`, or nullopt when a result is
/// not a plain dimension. Constant-0 results on size-1 tensor dimensions
/// (numpy-style broadcasting) are dropped.
static std::optional<SmallVector<unsigned>> resultDims(AffineMap map,
                                                       Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  SmallVector<unsigned> dims;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      dims.push_back(dim.getPosition());
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (constant && constant.getValue() == 0 && shaped &&
        shaped.getDimSize(i) == 1)
      continue;
    return std::nullopt;
  }
  return dims;
}

/// Follows linalg.transpose and linalg.broadcast producers of `value`,
/// composing `map` (loop space -> value's dimensions) with theirs.
static void lookThrough(Value &value, AffineMap &map) {
  while (auto producer = value.getDefiningOp<linalg::LinalgOp>()) {
    if (!isa<linalg::TransposeOp, linalg::BroadcastOp>(producer) ||
        !producer.hasPureTensorSemantics())
      return;
    OpOperand *input = producer.getDpsInputOperand(0);
    map = producer.getMatchingIndexingMap(input).compose(map);
    value = input->get();
  }
}

/// A splat or scalar float constant, or the value of a linalg.fill of one.
static std::optional<double> constantOf(Value value) {
  FloatAttr scalar;
  if (matchPattern(value, m_Constant(&scalar)))
    return scalar.getValueAsDouble();
  DenseFPElementsAttr splat;
  if (matchPattern(value, m_Constant(&splat)) && splat.isSplat())
    return splat.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

/// Reads that need no layout: fills, splat constants, empties and host
/// scalars. nullopt for a tensor the kernel must read from memory; failure
/// (with `why`) for a scalar the epilogue cannot take.
static FailureOr<std::optional<OperandRead>> readUniform(Value value,
                                                         std::string &why) {
  OperandRead read;
  if (auto fill = value.getDefiningOp<linalg::FillOp>();
      fill && fill.hasPureTensorSemantics())
    value = fill.getDpsInputOperand(0)->get();
  if (value.getDefiningOp<tensor::EmptyOp>()) {
    read.kind = OperandRead::Kind::Zero; // undefined contents: any value
    return std::optional<OperandRead>(read);
  }
  if (std::optional<double> c = constantOf(value)) {
    read.kind = *c == 0.0 ? OperandRead::Kind::Zero : OperandRead::Kind::Const;
    read.constant = *c;
    return std::optional<OperandRead>(read);
  }
  if (isa<ShapedType>(value.getType()))
    return std::optional<OperandRead>();
  if (!isComputeType(value.getType())) {
    why = "is a " + str(value.getType()) +
          " scalar; epilogue scalars are f16, bf16 or f32";
    return failure();
  }
  read.kind = OperandRead::Kind::Scalar;
  read.value = value;
  return std::optional<OperandRead>(read);
}

/// How an op of loop rank `rank` reads `value` through `map`.
static FailureOr<OperandRead> classify(Value value, AffineMap map,
                                       unsigned rank, const ChainValues &chain,
                                       const Twine &what, std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = (what + " " + reason).str();
    return failure();
  };
  if (chain.afterKernel.contains(value))
    return fail("depends on the kernel's own outputs");
  if (chain.fused.contains(value)) {
    if (!map.isIdentity())
      return fail("reads the fused result through " + str(map) +
                  "; the epilogue reads it element by element (the "
                  "identity map)");
    return OperandRead{OperandRead::Kind::Fused, value, 0.0};
  }
  lookThrough(value, map);
  if (chain.afterKernel.contains(value) || chain.fused.contains(value))
    return fail("reads the kernel's values through a transpose or broadcast");
  std::string uniformWhy;
  FailureOr<std::optional<OperandRead>> uniform =
      readUniform(value, uniformWhy);
  if (failed(uniform))
    return fail(uniformWhy);
  if (*uniform)
    return **uniform;

  auto type = cast<ShapedType>(value.getType());
  Type elem = type.getElementType();
  std::optional<SmallVector<unsigned>> dims = resultDims(map, type);
  if (!dims)
    return fail("is indexed by " + str(map) +
                ", not by loop dimensions");
  bool batched = rank == 3;
  unsigned m = batched ? 1 : 0, n = m + 1;
  SmallVector<unsigned> identity = batched ? SmallVector<unsigned>{0, 1, 2}
                                           : SmallVector<unsigned>{0, 1};
  OperandRead read;
  read.value = value;
  if (dims->empty()) {
    if (!isa<Float32Type>(elem))
      return fail("is a 0-d " + str(elem) +
                  " tensor; a scalar read from memory is f32");
    read.kind = OperandRead::Kind::ScalarPtr;
    return read;
  }
  if (!isEpilogueMemType(elem))
    return fail("has element type " + str(elem) +
                "; the epilogue reads f16, bf16, f32, f8E4M3FN or f8E5M2");
  auto is = [&](std::initializer_list<unsigned> want) {
    return llvm::equal(*dims, want);
  };
  if (llvm::equal(*dims, identity))
    read.kind = OperandRead::Kind::Aux;
  else if (batched ? is({0, m}) : is({m}))
    read.kind = OperandRead::Kind::VecM;
  else if (batched ? is({0, n}) : is({n}))
    read.kind = OperandRead::Kind::VecN;
  else if (batched && (is({m}) || is({n})))
    return fail("is a vector shared by every batch; the kernel reads one "
                "vector per batch (extent [M, L] or [N, L])");
  else
    return fail("is indexed by " + str(map) +
                "; the epilogue reads row-major M x N matrices, vectors "
                "along m or n, and scalars");
  return read;
}

FailureOr<Contraction> fromlinalg::matchContraction(linalg::LinalgOp op,
                                                    std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  if (!op.hasPureTensorSemantics())
    return fail("it works on memrefs; the front end takes linalg on tensors");
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return fail("it is not a multiply-accumulate of two operands");
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->batch.size() > 1 || dims->m.size() != 1 ||
      dims->n.size() != 1 || dims->k.size() != 1)
    return fail("its loops are not one m, one n, one k and at most one "
                "batch dimension");

  Contraction c;
  c.op = op;
  c.batched = !dims->batch.empty();
  unsigned l = c.batched ? dims->batch[0] : 0, m = dims->m[0],
           n = dims->n[0], k = dims->k[0];
  auto layoutOf = [&](OpOperand *operand, Value &value, unsigned outer,
                      unsigned inner) -> std::optional<bool> {
    value = operand->get();
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (op.isDpsInput(operand))
      lookThrough(value, map);
    std::optional<SmallVector<unsigned>> d = resultDims(map, value.getType());
    if (!d)
      return std::nullopt;
    SmallVector<unsigned> rowMajor, colMajor;
    if (c.batched) {
      rowMajor.push_back(l);
      colMajor.push_back(l);
    }
    rowMajor.append({outer, inner});
    colMajor.append({inner, outer});
    if (llvm::equal(*d, rowMajor))
      return true;
    if (llvm::equal(*d, colMajor))
      return false;
    return std::nullopt;
  };
  std::optional<bool> aRowMajor =
      layoutOf(op.getDpsInputOperand(0), c.a, m, k);
  std::optional<bool> bRowMajor =
      layoutOf(op.getDpsInputOperand(1), c.b, k, n);
  Value out;
  std::optional<bool> outRowMajor = layoutOf(op.getDpsInitOperand(0), out, m, n);
  if (!aRowMajor || !bRowMajor || !outRowMajor || !*outRowMajor)
    return fail("its operands are not (batch-outermost) M x K or K x M, "
                "K x N or N x K, and M x N matrices");
  c.aMajor = *aRowMajor ? Major::k_major : Major::m_major;
  c.bMajor = *bRowMajor ? Major::n_major : Major::k_major;

  c.elemType = getElementTypeOrSelf(c.a.getType());
  if (getElementTypeOrSelf(c.b.getType()) != c.elemType)
    return fail("A is " + str(c.elemType) + " but B is " +
                str(getElementTypeOrSelf(c.b.getType())) +
                "; wgmma needs equal operand types");
  if (!isa<Float16Type, BFloat16Type>(c.elemType))
    return fail("A and B are " + str(c.elemType) +
                "; ws-gemm's wgmma path takes f16 or bf16");
  Type outElem = getElementTypeOrSelf(out.getType());
  if (!isComputeType(outElem))
    return fail("its result is " + str(outElem) +
                "; D is f16, bf16 or f32");

  // The init, in the output's coordinates: a zero or constant fill, a
  // broadcast vector or scalar, or C.
  unsigned rank = c.batched ? 3 : 2;
  FailureOr<OperandRead> init =
      classify(out, AffineMap::getMultiDimIdentityMap(rank, op.getContext()),
               rank, ChainValues(), "its init", why);
  if (failed(init))
    return failure();
  c.init = *init;
  if (c.init.kind == OperandRead::Kind::Aux && !isComputeType(outElem))
    return fail("its init (C) is " + str(outElem) +
                "; C is f16, bf16 or f32");
  auto aType = cast<ShapedType>(c.a.getType());
  auto outType = cast<ShapedType>(out.getType());
  if (aType.hasStaticShape() && outType.hasStaticShape()) {
    ArrayRef<int64_t> o = outType.getShape(), a = aType.getShape();
    unsigned base = c.batched ? 1 : 0;
    // K is A's inner dimension when A is M x K, its outer one when K x M.
    int64_t k = c.aMajor == Major::m_major ? a[base] : a[base + 1];
    c.shape = {o[base], o[base + 1], k};
    if (c.batched)
      c.shape.push_back(o[0]);
  }
  return c;
}

LogicalResult fromlinalg::matchElementwise(linalg::LinalgOp op, unsigned rank,
                                           const ChainValues &chain,
                                           SmallVectorImpl<OperandRead> &reads,
                                           std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  if (!op.hasPureTensorSemantics())
    return fail("it works on memrefs");
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1)
    return fail("it has " + Twine(op->getNumResults()) +
                " results; a fused op has one");
  if (op.getNumLoops() != rank || !op.isAllParallelLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return fail("it is not element-wise over the " +
                Twine(rank == 3 ? "L x M x N" : "M x N") +
                " result (all loops parallel, identity output map)");
  if (op.hasIndexSemantics())
    return fail("its payload reads loop indices (linalg.index)");
  Type outElem = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isComputeType(outElem))
    return fail("its result is " + str(outElem) +
                "; epilogue values are stored as f16, bf16 or f32");
  if (failed(checkPayload(*op.getBlock(), why)))
    return failure();
  for (Value captured : capturedScalars(*op.getBlock()))
    if (chain.afterKernel.contains(captured) || chain.fused.contains(captured))
      return fail("its payload captures a value computed from the kernel's "
                  "outputs");
  reads.clear();
  for (OpOperand &operand : op->getOpOperands()) {
    if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand)) {
      reads.push_back(OperandRead{});
      continue;
    }
    FailureOr<OperandRead> read =
        classify(operand.get(), op.getMatchingIndexingMap(&operand), rank,
                 chain, "operand #" + Twine(operand.getOperandNumber()), why);
    if (failed(read))
      return failure();
    reads.push_back(*read);
  }
  if (llvm::none_of(reads, [](const OperandRead &r) {
        return r.kind == OperandRead::Kind::Fused;
      }))
    return fail("its payload does not read the fused result");
  return success();
}

FailureOr<Reduction> fromlinalg::matchReduction(linalg::LinalgOp op,
                                                bool batched,
                                                const ChainValues &chain,
                                                std::string &why) {
  auto fail = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  unsigned rank = batched ? 3 : 2;
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != rank)
    return fail("it is not a reduction of the fused result alone");
  OpOperand *input = op.getDpsInputOperand(0);
  if (!chain.fused.contains(input->get()) ||
      !op.getMatchingIndexingMap(input).isIdentity())
    return fail("it does not reduce the fused result element by element");
  OpOperand *init = op.getDpsInitOperand(0);
  Type elem = getElementTypeOrSelf(init->get().getType());
  if (!isa<Float32Type>(elem))
    return fail("it reduces into " + str(elem) +
                "; epilogue reductions produce f32");
  if (chain.afterKernel.contains(init->get()))
    return fail("its init depends on the kernel's own outputs");
  std::optional<SmallVector<unsigned>> kept =
      resultDims(op.getMatchingIndexingMap(init), init->get().getType());
  if (!kept)
    return fail("its output map is not a projection");
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    if ((type == utils::IteratorType::parallel) != llvm::is_contained(*kept, i))
      return fail("its parallel loops are not the kept dimensions");
  Reduction r;
  r.input = input->get();
  auto is = [&](std::initializer_list<unsigned> want) {
    return llvm::equal(*kept, want);
  };
  unsigned m = batched ? 1 : 0, n = m + 1;
  if (batched ? is({0, m}) : is({m}))
    r.target = Reduction::Target::VecM;
  else if (batched ? is({0, n}) : is({n}))
    r.target = Reduction::Target::VecN;
  else if (kept->empty())
    r.target = Reduction::Target::Scalar;
  else
    return fail("it keeps dimensions " + str(op.getMatchingIndexingMap(init)) +
                "; the epilogue reduces into a vector along m or n (per "
                "batch) or one scalar");

  // The combiner: yield(comb(x, acc)) with x the input element, optionally
  // extended and/or made absolute.
  Block &body = *op.getBlock();
  Value in = op.getMatchingBlockArgument(input);
  Value acc = op.getMatchingBlockArgument(init);
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *comb = yield.getValues().front().getDefiningOp();
  auto combFail = [&]() {
    return fail("its combiner is not a sum, max, min or max of absolute "
                "values of the element and the accumulator");
  };
  if (!comb || comb->getBlock() != &body || comb->getNumOperands() != 2)
    return combFail();
  Value x = comb->getOperand(0), y = comb->getOperand(1);
  if (x == acc)
    std::swap(x, y);
  if (y != acc)
    return combFail();
  bool abs = false;
  unsigned ops = 1;
  while (x != in) {
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != &body || def->getNumOperands() != 1)
      return combFail();
    if (isa<math::AbsFOp>(def) && !abs)
      abs = true;
    else if (!isa<arith::ExtFOp>(def))
      return combFail();
    x = def->getOperand(0);
    ++ops;
  }
  if (ops != body.getOperations().size() - 1)
    return combFail();
  if (isa<arith::AddFOp>(comb) && !abs)
    r.kind = epi::ReduceKind::sum;
  else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(comb))
    r.kind = abs ? epi::ReduceKind::absmax : epi::ReduceKind::max;
  else if (isa<arith::MinimumFOp, arith::MinNumFOp>(comb) && !abs)
    r.kind = epi::ReduceKind::min;
  else
    return combFail();
  return r;
}
