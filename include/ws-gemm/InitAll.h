//===- InitAll.h - Register ws-gemm dialects and passes ---------*- C++ -*-===//
//
// One include for tools that register everything ws-gemm provides: the
// dialects (InitAllDialects.h, library WsGemmRegisterAllDialects) and the
// passes and pipelines (InitAllPasses.h, library WsGemmRegisterAllPasses).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_INITALL_H
#define WSGEMM_INITALL_H

#include "ws-gemm/InitAllDialects.h"
#include "ws-gemm/InitAllPasses.h"

#endif // WSGEMM_INITALL_H
