/*===-- ws-gemm-c/Passes.h - C API: passes and pipelines ----------*- C -*-===*\
|*                                                                            *|
|* Pass registration and creation in MLIR's C API convention, generated from  *|
|* the Passes.td files:                                                       *|
|*   mlirRegisterEpiPasses(), mlirCreateEpiEpiExpandPresets(), ...            *|
|*   mlirRegisterWsGemmPasses(), mlirCreateWsGemmWsGemmPlan()                 *|
|*   mlirRegisterWsGemmConversionPasses(),                                    *|
|*   mlirCreateWsGemmConversionWsGemmSpecialize(), ...                        *|
|* plus the named pipelines (--wsgemm-prepare, --wsgemm-to-nvvm, -to-ptx,     *|
|* -to-cubin), usable from mlirParsePassPipeline once registered.             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef WSGEMM_C_PASSES_H
#define WSGEMM_C_PASSES_H

#include "mlir-c/Pass.h"

#include "ws-gemm/Conversion/Passes.capi.h.inc"
#include "ws-gemm/Dialect/Epi/EpiPasses.capi.h.inc"
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/** Registers the named pipelines wsgemm-prepare, wsgemm-to-nvvm,
 *  wsgemm-to-ptx and wsgemm-to-cubin with the global registry. */
MLIR_CAPI_EXPORTED void mlirRegisterWsGemmPipelines(void);

/** Every ws-gemm pass and named pipeline (the three groups above and the
 *  pipelines). A pipeline is then added by name, e.g.
 *  mlirOpPassManagerAddPipeline(pm, "wsgemm-to-nvvm{chip=sm_90a}", ...). */
MLIR_CAPI_EXPORTED void mlirRegisterAllWsGemmPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* WSGEMM_C_PASSES_H */
