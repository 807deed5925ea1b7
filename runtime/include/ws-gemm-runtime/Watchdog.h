//===- Watchdog.h - Wait for the GPU, but not forever ------------*- C++ -*-===//
//
// cuStreamSynchronize blocks until the kernel ends, and a kernel that never
// ends (a pipeline whose barrier is never completed, in a future bug) would
// hang the caller with it. waitForStream() polls the stream instead and
// gives up after a timeout:
//   kernel execution: not finished after 60 s (watchdog; --timeout sets
//   it): the kernel may be deadlocked (a pipeline waiting on a barrier that
//   is never completed)
// After a timeout the kernel is still running: nothing in its context can be
// used or freed without waiting for it, so a tool should report and leave
// the process (std::_Exit), which makes the driver tear the context down.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_WATCHDOG_H
#define WSGEMM_RUNTIME_WATCHDOG_H

#include "ws-gemm-runtime/Status.h"

#include <cuda.h>

#include <string>

namespace wsgemm::runtime {

struct WaitResult {
  Status status;        ///< the stream's error, or the timeout
  bool timedOut = false; ///< true when the work was still running
};

/// Waits for all work on `stream`, polling cuStreamQuery (sleeping 20 us
/// growing to 5 ms between polls); `seconds` <= 0 waits forever. `what`
/// names the work in messages.
WaitResult waitForStream(CUstream stream, double seconds,
                         const std::string &what);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_WATCHDOG_H
