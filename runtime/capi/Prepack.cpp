//===- Prepack.cpp - C API of the quantized-weight packing ----------------===//
//
// wsgemmRtPacked{I4,B8}Bytes, wsgemmRtPrepack{I4,B8}, wsgemmRtUnpack{I4,B8}
// over ws-gemm-runtime/Prepack.h (docs/mixed-input.md). Host memory only.
//
//===----------------------------------------------------------------------===//

#include "Handles.h"

#include "ws-gemm-runtime/Prepack.h"

using namespace wsgemm::runtime;
using namespace wsgemm::runtime::capi;

namespace {
/// One packing direction behind the C API: null buffers refused by the
/// caller's name, the runtime's refusal passed on.
template <typename Fn>
WsGemmRtStatus packCall(const char *fn, Fn f, const uint8_t *in, int64_t M,
                        int64_t K, int64_t L, uint8_t *out) {
  if (!in || !out)
    return fail(WSGEMMRT_ERROR_INVALID_CALL, std::string(fn) + ": null buffer");
  Status s = f(in, M, K, L, out);
  return s.ok() ? ok() : fail(WSGEMMRT_ERROR_REFUSED, s.message());
}
} // namespace

extern "C" {

int64_t wsgemmRtPackedI4Bytes(int64_t M, int64_t K, int64_t L) {
  return packedI4Bytes(M, K, L);
}

WsGemmRtStatus wsgemmRtPrepackI4(const uint8_t *q, int64_t M, int64_t K,
                                 int64_t L, uint8_t *packed) {
  return packCall("wsgemmRtPrepackI4", prepackI4, q, M, K, L, packed);
}

WsGemmRtStatus wsgemmRtUnpackI4(const uint8_t *packed, int64_t M, int64_t K,
                                int64_t L, uint8_t *q) {
  return packCall("wsgemmRtUnpackI4", unpackI4, packed, M, K, L, q);
}

int64_t wsgemmRtPackedB8Bytes(int64_t M, int64_t K, int64_t L) {
  return packedB8Bytes(M, K, L);
}

WsGemmRtStatus wsgemmRtPrepackB8(const uint8_t *q, int64_t M, int64_t K,
                                 int64_t L, uint8_t *packed) {
  return packCall("wsgemmRtPrepackB8", prepackB8, q, M, K, L, packed);
}

WsGemmRtStatus wsgemmRtUnpackB8(const uint8_t *packed, int64_t M, int64_t K,
                                int64_t L, uint8_t *q) {
  return packCall("wsgemmRtUnpackB8", unpackB8, packed, M, K, L, q);
}

} // extern "C"
