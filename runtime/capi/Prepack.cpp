//===- Prepack.cpp - C API of the quantized-weight packing ----------------===//
//
// wsgemmRtPackedI4Bytes, wsgemmRtPrepackI4, wsgemmRtUnpackI4 over
// ws-gemm-runtime/Prepack.h (docs/mixed-input.md). Host memory only.
//
//===----------------------------------------------------------------------===//

#include "Handles.h"

#include "ws-gemm-runtime/Prepack.h"

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::capi;

extern "C" {

int64_t wsgemmRtPackedI4Bytes(int64_t M, int64_t K, int64_t L) {
  return packedI4Bytes(M, K, L);
}

WsGemmRtStatus wsgemmRtPrepackI4(const uint8_t *q, int64_t M, int64_t K,
                                 int64_t L, uint8_t *packed) {
  if (!q || !packed)
    return fail(WSGEMMRT_ERROR_INVALID_CALL, "wsgemmRtPrepackI4: null buffer");
  Status s = prepackI4(q, M, K, L, packed);
  return s.ok() ? ok() : fail(WSGEMMRT_ERROR_REFUSED, s.message());
}

WsGemmRtStatus wsgemmRtUnpackI4(const uint8_t *packed, int64_t M, int64_t K,
                                int64_t L, uint8_t *q) {
  if (!q || !packed)
    return fail(WSGEMMRT_ERROR_INVALID_CALL, "wsgemmRtUnpackI4: null buffer");
  Status s = unpackI4(packed, M, K, L, q);
  return s.ok() ? ok() : fail(WSGEMMRT_ERROR_REFUSED, s.message());
}

} // extern "C"
