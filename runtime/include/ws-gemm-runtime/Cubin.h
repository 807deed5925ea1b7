//===- Cubin.h - A cubin's structure, checked before the driver ---*- C++ -*-===//
//
// cuModuleLoadData takes a pointer and no size: an empty or truncated cubin
// would have the driver read past the end of the buffer. checkCubinImage()
// refuses such images first, naming what is wrong:
//   truncated: the ELF section headers end at byte 41472, the file has 20000
// An image that is not ELF at all (PTX text, a fatbinary) must at least be
// NUL-terminated. What passes goes to the driver, whose error (a wrong
// architecture: CUDA_ERROR_NO_BINARY_FOR_GPU; a corrupt image:
// CUDA_ERROR_INVALID_IMAGE) Kernel::load names.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_CUBIN_H
#define WSGEMM_RUNTIME_CUBIN_H

#include "ws-gemm-runtime/Status.h"

#include <cstddef>

namespace wsgemm::runtime {

/// Success when `size` bytes at `data` hold a structurally complete 64-bit
/// ELF image (header, program and section header tables, every section's
/// contents inside the file) or a NUL-terminated non-ELF image.
Status checkCubinImage(const char *data, size_t size);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_CUBIN_H
