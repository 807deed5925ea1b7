//===- LinalgToWsGemm.cpp - --wsgemm-from-linalg --------------------------===//
//
// For each contraction: gather the chain of linalg ops after it that an
// epilogue can compute (Match.h), build the kernel (Build.h), check it with
// --wsgemm-plan's rules (Planning.h), dropping ops from the end of the chain
// until it is legal, then replace the chain with the kernel's launch. What
// stays in linalg gets a remark.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm/Conversion/LinalgToWsGemm.h"

#include "Build.h"
#include "Match.h"

#include "ws-gemm/Dialect/Epi/EpiDialect.h"
#include "ws-gemm/Dialect/WsGemm/GemmDesc.h"
#include "ws-gemm/Dialect/WsGemm/KernelName.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
#define GEN_PASS_DEF_WSGEMMFROMLINALG
#include "ws-gemm/Conversion/LinalgToWsGemm.h.inc"
} // namespace mlir

using namespace mlir;
using namespace mlir::wsgemm;
using namespace mlir::wsgemm::fromlinalg;

namespace {
/// An op that reads the chain and stays in linalg, and why.
struct Refusal {
  Operation *op;
  std::string why;
};
} // namespace

/// The linalg ops after `root` in its block that read the chain, fused
/// while they can be: once an op reads the chain and stays outside, the
/// launch has to come before it, so nothing after it joins.
static Chain gatherChain(Contraction root,
                         SmallVectorImpl<Refusal> &refusals) {
  Chain chain{root, {}};
  ChainValues values;
  Operation *rootOp = root.op;
  values.fused.insert(rootOp->getResult(0));
  unsigned rank = root.batched ? 3 : 2;
  Operation *blocker = nullptr;
  Block *block = rootOp->getBlock();
  for (Operation &op :
       llvm::make_range(std::next(Block::iterator(rootOp)), block->end())) {
    bool readsChain = false, touches = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands()) {
        readsChain |= values.fused.contains(v);
        touches |= values.afterKernel.contains(v);
      }
    });
    if (!readsChain && !touches)
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    std::string why;
    if (linalgOp && blocker) {
      why = ("it comes after '" + blocker->getName().getStringRef() +
             "', which reads the kernel's result and stays outside it, so "
             "the launch must come before both")
                .str();
    } else if (linalgOp && linalg::isaContractionOpInterface(linalgOp)) {
      // A contraction on the result starts a kernel of its own: no remark.
      readsChain = false;
    } else if (linalgOp) {
      FusedOp fused{linalgOp, {}, std::nullopt};
      if (linalgOp.getNumReductionLoops() == 0) {
        if (succeeded(matchElementwise(linalgOp, rank, values, fused.reads,
                                       why))) {
          values.fused.insert(op.getResult(0));
          chain.ops.push_back(std::move(fused));
          continue;
        }
      } else if (FailureOr<Reduction> r =
                     matchReduction(linalgOp, root.batched, values, why);
                 succeeded(r)) {
        fused.reduction = *r;
        values.afterKernel.insert(op.getResult(0));
        chain.ops.push_back(std::move(fused));
        continue;
      }
    }
    for (Value result : op.getResults())
      values.afterKernel.insert(result);
    if (!blocker)
      blocker = &op;
    if (linalgOp && readsChain)
      refusals.push_back({&op, why});
  }
  return chain;
}

/// Why `gemm` cannot be compiled (the verifier's or --wsgemm-plan's first
/// error), or nullopt when it can.
static std::optional<std::string> checkKernel(GemmOp gemm) {
  std::string message;
  ScopedDiagnosticHandler handler(gemm.getContext(), [&](Diagnostic &diag) {
    if (message.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      message = diag.str();
    return success();
  });
  if (failed(verify(gemm)))
    return message;
  FailureOr<planning::GemmDesc> desc = describeGemm(gemm);
  if (failed(desc))
    return message;
  planning::fillDefaults(*desc);
  std::vector<planning::PlanError> errors = planning::checkLegality(*desc);
  if (!errors.empty())
    return errors.front().message;
  return std::nullopt;
}

FailureOr<GemmOp> wsgemm::fuseLinalgIntoGemm(RewriterBase &rewriter,
                                             linalg::LinalgOp contraction,
                                             StringRef kernelName,
                                             bool remarks) {
  // A caller's name that no kernel may have (KernelName.h) is refused
  // here, once, rather than as every prefix's verifier error.
  if (std::optional<std::string> bad = checkKernelName(kernelName)) {
    if (remarks)
      contraction->emitRemark("not converted to wsgemm.gemm: the kernel's ")
          << *bad;
    return failure();
  }
  std::string why;
  FailureOr<Contraction> root = matchContraction(contraction, why);
  if (failed(root)) {
    if (remarks)
      contraction->emitRemark("not converted to wsgemm.gemm: ") << why;
    return failure();
  }
  auto module = contraction->getParentOfType<ModuleOp>();
  SmallVector<Refusal> refusals;
  Chain full = gatherChain(*root, refusals);

  // The longest prefix of the chain whose kernel is legal. errors[n]: why
  // the kernel with the first n ops is not.
  SmallVector<std::string> errors(full.ops.size() + 1);
  Chain chain{full.root, {}};
  GemmOp gemm;
  Launch launch;
  for (size_t n = full.ops.size() + 1; n-- > 0;) {
    chain.ops.assign(full.ops.begin(), full.ops.begin() + n);
    launch = Launch();
    gemm = buildGemm(module, kernelName, chain, launch);
    std::optional<std::string> error = checkKernel(gemm);
    if (!error)
      break;
    errors[n] = *error;
    rewriter.eraseOp(gemm);
    gemm = nullptr;
  }
  if (!gemm) {
    if (remarks)
      contraction->emitRemark("not converted to wsgemm.gemm: the kernel "
                              "would break a rule of --wsgemm-plan: ")
          << errors[0];
    return failure();
  }
  if (remarks) {
    for (const Refusal &refusal : refusals)
      refusal.op->emitRemark("not fused into @")
          << kernelName << ": " << refusal.why;
    for (size_t i = chain.ops.size(); i < full.ops.size(); ++i)
      full.ops[i].op->emitRemark("not fused into @")
          << kernelName << ": with it the kernel would break a rule of "
          << "--wsgemm-plan: " << errors[i + 1];
  }
  replaceChain(rewriter, gemm, chain, launch);
  return gemm;
}

namespace {
struct WsGemmFromLinalgPass
    : public impl::WsGemmFromLinalgBase<WsGemmFromLinalgPass> {
  using WsGemmFromLinalgBase::WsGemmFromLinalgBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> roots;
    module.walk([&](linalg::LinalgOp op) {
      if (linalg::isaContractionOpInterface(op))
        roots.push_back(op);
    });
    // Kernels are named <function>_gemm<i>, the function's name made a
    // valid kernel name (KernelName.h: any text may name a function) and
    // <i> the first that is free, without case: kernel names name files,
    // and some file systems compare names without it.
    llvm::StringSet<> taken;
    for (Operation &op : *module.getBody())
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        taken.insert(symbol.getName().lower());
    IRRewriter rewriter(module.getContext());
    for (linalg::LinalgOp root : roots) {
      auto func = root->getParentOfType<FunctionOpInterface>();
      // Room for "_gemm" and ten digits.
      std::string base =
          legalKernelName(func ? func.getName() : StringRef("kernel"),
                          kMaxKernelNameLength - 15);
      std::string name;
      for (unsigned i = 0;; ++i) {
        name = base + "_gemm" + std::to_string(i);
        if (!taken.contains(StringRef(name).lower()) &&
            !taken.contains(StringRef(name + "_launch").lower()))
          break;
      }
      FailureOr<GemmOp> gemm =
          fuseLinalgIntoGemm(rewriter, root, name, /*remarks=*/true);
      if (succeeded(gemm)) {
        taken.insert(StringRef(name).lower());
        taken.insert(StringRef(name + "_launch").lower());
      }
    }
  }
};
} // namespace
