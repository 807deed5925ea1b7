//===- Family.h - Configs planned in-process, kernel families ---*- C++ -*-===//
//
// What ws-gemm-sweep and the compile driver share about choosing configs:
//   planGemm           one wsgemm.gemm of a module planned in-process under
//                      a config by --wsgemm-prepare (the planner decides
//                      legality; a refusal keeps its diagnostics);
//   splitConfig/...    a printed #wsgemm.config as knob = value text;
//   FamilyManifest     family.json (docs/tuning.md), one writer;
//   the default family the members a wsgemm.gemm without a config compiles
//                      into (docs/tuning.md, "The default family"), with
//                      the fallback to smaller configs for heavy epilogues.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DRIVER_FAMILY_H
#define WSGEMM_DRIVER_FAMILY_H

#include "ws-gemm/Driver/Compile.h"
#include "ws-gemm/Dialect/WsGemm/Planning.h"

#include "mlir/IR/Diagnostics.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::wsgemm {

/// The diagnostics emitted on a context while it lives, one line each
/// (notes appended after "; note: "), lines joined by " | ".
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *ctx);
  std::string text;

private:
  ScopedDiagnosticHandler handler;
};

/// One config of one wsgemm.gemm as the planner saw it.
struct PlannedConfig {
  bool accepted = false;
  std::string planned;  ///< the completed config, printed (when accepted)
  int64_t smemBytes = 0;
  std::string reason;   ///< the planner's diagnostics (when refused)
  std::string mlir;     ///< the module holding only this gemm, config set
};

/// Plans the wsgemm.gemm @`name` of `module` under `config` (null: the
/// op's own) in a clone holding only that gemm, by --wsgemm-prepare for
/// `chip` (the pipeline's `chip` option: sm_90a, sm_80, sm_86, sm_89).
/// Diagnostics are collected, never reported.
PlannedConfig planGemm(ModuleOp module, StringRef name, Attribute config,
                       StringRef chip = "sm_90a");

/// The knobs of a printed #wsgemm.config<...> (top-level `k = v` pairs, in
/// the attribute's order).
using KnobList = std::vector<std::pair<std::string, std::string>>;
KnobList splitConfig(StringRef printed);
/// `#wsgemm.config<k = v, ...>` from knobs.
std::string joinConfig(const KnobList &knobs);
/// The value text of `knob` in a printed config, "" when unset.
std::string knobOf(StringRef printed, StringRef knob);

/// family.json (docs/tuning.md, "The family manifest").
struct FamilyEntry {
  std::string id, manifest, config, requested, reason;
  int64_t smemBytes = 0;
  int64_t spillBytes = -1; ///< -1: not reported
};
struct FamilyManifest {
  std::string name, source, command;
  std::vector<FamilyEntry> variants, refused, failed;
};
/// The manifest as JSON text (keys in docs/tuning.md's order), newline
/// terminated.
std::string printFamilyManifest(const FamilyManifest &family);

/// One member of a default family (docs/tuning.md, "The default family").
struct FamilyMember {
  std::string tag;    ///< what it is for, in its variant id
  std::string config; ///< the requested #wsgemm.config, "" for none
};
/// The members a gemm without a config compiles into, tile K being 128
/// bytes of A (`tileK` elements). The first has no config: the planner's
/// default, today's single kernel.
std::vector<FamilyMember> defaultFamilyMembers(int64_t tileK);
/// The members a default family adds for tensors TMA cannot describe
/// (outputs, operands, C or aux loads whose rows or bases are not 16-byte
/// aligned): 128x256 with direct stores, and the planner's default tile
/// with every operand and epilogue load copied by the producer warps at
/// its element's alignment (`load_a/load_b/load_c = cp_async`; 16-bit
/// operands) and direct stores. The runtime takes them only
/// where no TMA variant accepts the strides (docs/tuning.md).
std::vector<FamilyMember>
unalignedFamilyMembers(const planning::GemmDesc &desc, int64_t tileK);
/// The members of a mixed-input gemm's default family (`dequant_a`): the
/// planner's default first (prefill), then decode tilings (tile N 16,
/// k-tiles of 128, split-K or stream-K, direct stores) that the runtime's
/// estimate picks from by the weight's shape. `desc` (null: unknown) sets
/// the k-tile of the stream-K member over two CTAs per SM: 256 for a
/// 4-bit weight with groups of 128, else 128.
std::vector<FamilyMember>
mixedInputFamilyMembers(const planning::GemmDesc *desc);
/// The configs tried, in order, when the planner refuses the default
/// config of a gemm without one (register pressure or shared memory of a
/// heavy epilogue): smaller epilogue subtiles, then smaller tiles.
std::vector<std::string> defaultFallbacks(int64_t tileK);

/// One variant of a compiled family.
struct FamilyVariant {
  std::string id, requested, planned;
  int64_t smemBytes = 0;
  CompiledKernel kernel;
};
/// The default family of one gemm without a config.
struct CompiledFamily {
  std::string name; ///< the gemm's symbol
  std::vector<FamilyVariant> variants; ///< the first is the default kernel
  FamilyManifest manifest;             ///< its family.json, as data
  std::string json;                    ///< and as text
};

/// What compileWithFamilies produces: every kernel as compileModule does
/// (a gemm without a config as its family's first variant), and with
/// FamilyMode::Default the family of each gemm without a config.
struct CompileOutput {
  SmallVector<CompiledKernel> kernels;
  SmallVector<CompiledFamily> families;
};

/// compileModule, and with options.family == FamilyMode::Default each
/// gemm without a config also compiled as its default family: the members
/// the planner accepts (one that it refuses is retried with the default
/// kernel's tile and epilogue tile, keeping its scheduler knobs; members
/// that plan alike are one), compiled in parallel (options.jobs threads,
/// each in a context of its own) beside the main module. A member other
/// than the first that fails or spills is left out of the family (listed
/// as refused or failed in its family.json); only the first variant's
/// diagnostics reach `module`'s context.
FailureOr<CompileOutput> compileWithFamilies(ModuleOp module,
                                             const CompileOptions &options);

/// Resolves the config of every gemm without one: the planner's default
/// when it accepts it, else the first of defaultFallbacks() it accepts
/// (set on the op, with a remark saying why); when it accepts none the op
/// is left alone, so that compiling it reports the default's refusal.
/// Runs --wsgemm-from-linalg first (linalg input makes its gemms here).
LogicalResult resolveDefaultConfigs(ModuleOp module,
                                    StringRef chip = "sm_90a");

/// Writes DIR/family.json and DIR/<id>/<kernel>.{json,ptx,cubin} per
/// variant (as writeKernels), family.json last.
llvm::Error writeFamily(const CompiledFamily &family, StringRef dir,
                        EmitKind emit);

} // namespace mlir::wsgemm

#endif // WSGEMM_DRIVER_FAMILY_H
