//===- Compile.cpp - C API: compile kernels in memory ---------------------===//
//
// wsgemmCompile: a context of its own per call (the driver's dialects), a
// diagnostic handler that records every diagnostic (notes flattened after
// their parent) instead of printing it, the text parsed and handed to the
// driver (ws-gemm/Driver/Compile.h). The result owns every string it
// returns.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-c/Compile.h"
#include "ws-gemm/Driver/Compile.h"
#include "ws-gemm/Driver/Family.h"
#include "ws-gemm/Driver/ParseGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

using namespace mlir;

namespace {
struct RecordedDiagnostic {
  int32_t severity;
  std::string message;
  std::string file;
  int32_t line = 0;
  int32_t column = 0;
};

struct CompileResult {
  bool succeeded = false;
  SmallVector<wsgemm::CompiledKernel> kernels;
  SmallVector<wsgemm::CompiledFamily> families;
  std::vector<RecordedDiagnostic> diagnostics;
  std::string text; ///< all diagnostics, one per line
};
} // namespace

static CompileResult *unwrap(WsGemmCompileResult result) {
  return static_cast<CompileResult *>(result.ptr);
}

static MlirStringRef toRef(const std::string &s) {
  return mlirStringRefCreate(s.data(), s.size());
}

static int32_t severityOf(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return WSGEMM_SEVERITY_ERROR;
  case DiagnosticSeverity::Warning:
    return WSGEMM_SEVERITY_WARNING;
  case DiagnosticSeverity::Note:
    return WSGEMM_SEVERITY_NOTE;
  case DiagnosticSeverity::Remark:
    return WSGEMM_SEVERITY_REMARK;
  }
  return WSGEMM_SEVERITY_ERROR;
}

static StringRef severityName(int32_t severity) {
  switch (severity) {
  case WSGEMM_SEVERITY_WARNING:
    return "warning";
  case WSGEMM_SEVERITY_NOTE:
    return "note";
  case WSGEMM_SEVERITY_REMARK:
    return "remark";
  default:
    return "error";
  }
}

static void record(const Diagnostic &diag, CompileResult &result) {
  RecordedDiagnostic out;
  out.severity = severityOf(diag.getSeverity());
  out.message = diag.str();
  if (auto file = diag.getLocation()->findInstanceOf<FileLineColLoc>()) {
    out.file = file.getFilename().str();
    out.line = file.getLine();
    out.column = file.getColumn();
  }
  llvm::raw_string_ostream os(result.text);
  if (!out.file.empty())
    os << out.file << ":" << out.line << ":" << out.column << ": ";
  os << severityName(out.severity) << ": " << out.message << "\n";
  result.diagnostics.push_back(std::move(out));
  for (const Diagnostic &note : diag.getNotes())
    record(note, result);
}

static std::unique_ptr<CompileResult>
compile(StringRef source, StringRef sourceName,
        const WsGemmCompileOptions &in) {
  auto result = std::make_unique<CompileResult>();
  wsgemm::CompileOptions options;
  if (in.chip)
    options.chip = in.chip;
  if (in.features)
    options.features = in.features;
  if (in.cudaPath)
    options.cudaPath = in.cudaPath;
  options.optLevel = in.optLevel < 0 ? 3u : unsigned(in.optLevel);
  options.emit = in.emit == WSGEMM_EMIT_PTX     ? wsgemm::EmitKind::Ptx
                 : in.emit == WSGEMM_EMIT_CUBIN ? wsgemm::EmitKind::Cubin
                                                : wsgemm::EmitKind::All;
  options.spills = in.spills == WSGEMM_SPILLS_ERROR ? wsgemm::SpillPolicy::Error
                   : in.spills == WSGEMM_SPILLS_ALLOW
                       ? wsgemm::SpillPolicy::Allow
                       : wsgemm::SpillPolicy::Warn;
  options.family = in.family == WSGEMM_FAMILY_DEFAULT
                       ? wsgemm::FamilyMode::Default
                       : wsgemm::FamilyMode::None;
  options.jobs = in.jobs > 0 ? unsigned(in.jobs) : 0u;

  MLIRContext context(wsgemm::compilerRegistry());
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    record(diag, *result);
    return success();
  });

  if (in.emit < WSGEMM_EMIT_ALL || in.emit > WSGEMM_EMIT_CUBIN ||
      in.spills < WSGEMM_SPILLS_WARN || in.spills > WSGEMM_SPILLS_ALLOW ||
      in.optLevel > 3 || in.family < WSGEMM_FAMILY_NONE ||
      in.family > WSGEMM_FAMILY_DEFAULT || in.jobs < 0) {
    emitError(UnknownLoc::get(&context))
        << "invalid WsGemmCompileOptions: emit " << in.emit << ", spills "
        << in.spills << ", optLevel " << in.optLevel << ", family "
        << in.family << ", jobs " << in.jobs
        << " (emit, spills and family name an enumerator, optLevel is at "
           "most 3, jobs is not negative)";
    return result;
  }
  StringRef name = sourceName.empty() ? StringRef("<source>") : sourceName;
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(source, name,
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  if (failed(wsgemm::refuseParserHazards(sourceMgr, id, context)))
    return result;
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context), name);
  if (!module)
    return result;
  auto out = wsgemm::compileWithFamilies(*module, options);
  if (failed(out))
    return result;
  result->kernels = std::move(out->kernels);
  result->families = std::move(out->families);
  result->succeeded = true;
  return result;
}

extern "C" {

WsGemmCompileOptions wsgemmCompileOptionsGetDefault(void) {
  WsGemmCompileOptions options;
  options.chip = nullptr;
  options.features = nullptr;
  options.cudaPath = nullptr;
  options.optLevel = 3;
  options.emit = WSGEMM_EMIT_ALL;
  options.spills = WSGEMM_SPILLS_WARN;
  options.family = WSGEMM_FAMILY_NONE;
  options.jobs = 0;
  return options;
}

WsGemmCompileResult wsgemmCompile(MlirStringRef source,
                                  MlirStringRef sourceName,
                                  const WsGemmCompileOptions *options) {
  WsGemmCompileOptions defaults = wsgemmCompileOptionsGetDefault();
  std::unique_ptr<CompileResult> result =
      compile(StringRef(source.data, source.length),
              StringRef(sourceName.data, sourceName.length),
              options ? *options : defaults);
  return WsGemmCompileResult{result.release()};
}

void wsgemmCompileResultDestroy(WsGemmCompileResult result) {
  delete unwrap(result);
}

bool wsgemmCompileResultSucceeded(WsGemmCompileResult result) {
  return unwrap(result)->succeeded;
}

intptr_t wsgemmCompileResultGetNumKernels(WsGemmCompileResult result) {
  return unwrap(result)->kernels.size();
}

MlirStringRef wsgemmCompileResultGetKernelName(WsGemmCompileResult result,
                                               intptr_t kernel) {
  return toRef(unwrap(result)->kernels[kernel].name);
}

MlirStringRef wsgemmCompileResultGetKernelManifest(WsGemmCompileResult result,
                                                   intptr_t kernel) {
  return toRef(unwrap(result)->kernels[kernel].manifest);
}

MlirStringRef wsgemmCompileResultGetKernelPTX(WsGemmCompileResult result,
                                              intptr_t kernel) {
  return toRef(unwrap(result)->kernels[kernel].ptx);
}

MlirStringRef wsgemmCompileResultGetKernelCubin(WsGemmCompileResult result,
                                                intptr_t kernel) {
  return toRef(unwrap(result)->kernels[kernel].cubin);
}

MlirStringRef wsgemmCompileResultGetKernelPtxasLog(WsGemmCompileResult result,
                                                   intptr_t kernel) {
  return toRef(unwrap(result)->kernels[kernel].ptxasLog);
}

intptr_t wsgemmCompileResultGetNumFamilies(WsGemmCompileResult result) {
  return unwrap(result)->families.size();
}

MlirStringRef wsgemmCompileResultGetFamilyName(WsGemmCompileResult result,
                                               intptr_t family) {
  return toRef(unwrap(result)->families[family].name);
}

MlirStringRef wsgemmCompileResultGetFamilyManifest(WsGemmCompileResult result,
                                                   intptr_t family) {
  return toRef(unwrap(result)->families[family].json);
}

intptr_t wsgemmCompileResultGetFamilyNumVariants(WsGemmCompileResult result,
                                                 intptr_t family) {
  return unwrap(result)->families[family].variants.size();
}

static const wsgemm::FamilyVariant &variantOf(WsGemmCompileResult result,
                                              intptr_t family,
                                              intptr_t variant) {
  return unwrap(result)->families[family].variants[variant];
}

MlirStringRef wsgemmCompileResultGetFamilyVariantId(WsGemmCompileResult result,
                                                    intptr_t family,
                                                    intptr_t variant) {
  return toRef(variantOf(result, family, variant).id);
}

MlirStringRef wsgemmCompileResultGetFamilyVariantConfig(
    WsGemmCompileResult result, intptr_t family, intptr_t variant) {
  return toRef(variantOf(result, family, variant).planned);
}

MlirStringRef wsgemmCompileResultGetFamilyVariantManifest(
    WsGemmCompileResult result, intptr_t family, intptr_t variant) {
  return toRef(variantOf(result, family, variant).kernel.manifest);
}

MlirStringRef wsgemmCompileResultGetFamilyVariantPTX(
    WsGemmCompileResult result, intptr_t family, intptr_t variant) {
  return toRef(variantOf(result, family, variant).kernel.ptx);
}

MlirStringRef wsgemmCompileResultGetFamilyVariantCubin(
    WsGemmCompileResult result, intptr_t family, intptr_t variant) {
  return toRef(variantOf(result, family, variant).kernel.cubin);
}

MlirStringRef wsgemmCompileResultGetFamilyVariantPtxasLog(
    WsGemmCompileResult result, intptr_t family, intptr_t variant) {
  return toRef(variantOf(result, family, variant).kernel.ptxasLog);
}

intptr_t wsgemmCompileResultGetNumDiagnostics(WsGemmCompileResult result) {
  return unwrap(result)->diagnostics.size();
}

int32_t wsgemmCompileResultGetDiagnosticSeverity(WsGemmCompileResult result,
                                                 intptr_t diagnostic) {
  return unwrap(result)->diagnostics[diagnostic].severity;
}

MlirStringRef wsgemmCompileResultGetDiagnosticMessage(WsGemmCompileResult result,
                                                      intptr_t diagnostic) {
  return toRef(unwrap(result)->diagnostics[diagnostic].message);
}

MlirStringRef wsgemmCompileResultGetDiagnosticFile(WsGemmCompileResult result,
                                                   intptr_t diagnostic) {
  return toRef(unwrap(result)->diagnostics[diagnostic].file);
}

int32_t wsgemmCompileResultGetDiagnosticLine(WsGemmCompileResult result,
                                             intptr_t diagnostic) {
  return unwrap(result)->diagnostics[diagnostic].line;
}

int32_t wsgemmCompileResultGetDiagnosticColumn(WsGemmCompileResult result,
                                               intptr_t diagnostic) {
  return unwrap(result)->diagnostics[diagnostic].column;
}

MlirStringRef wsgemmCompileResultGetDiagnosticsText(WsGemmCompileResult result) {
  return toRef(unwrap(result)->text);
}

} // extern "C"
