//===- Watchdog.cpp - Wait for the GPU, but not forever -------------------===//
//
// Polling rather than a blocking synchronize on another thread: nothing
// is left waiting inside the driver when the caller gives up.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Watchdog.h"

#include "ws-gemm-runtime/Driver.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

namespace wsgemm::runtime {

WaitResult waitForStream(CUstream stream, double seconds,
                         const std::string &what) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::chrono::microseconds nap(20);
  for (;;) {
    CUresult r = cuStreamQuery(stream);
    if (r == CUDA_SUCCESS)
      return {Status::success(), false};
    if (r != CUDA_ERROR_NOT_READY)
      return {cuCheck(r, what + " (cuStreamQuery)"), false};
    double elapsed =
        std::chrono::duration<double>(Clock::now() - start).count();
    if (seconds > 0 && elapsed >= seconds) {
      std::ostringstream os;
      os << what << ": not finished after " << seconds
         << " s (watchdog; --timeout sets it): the kernel may be deadlocked "
            "(a pipeline waiting on a barrier that is never completed)";
      return {Status::error(os.str()), true};
    }
    std::this_thread::sleep_for(nap);
    nap = std::min<std::chrono::microseconds>(nap * 2,
                                              std::chrono::milliseconds(5));
  }
}

} // namespace wsgemm::runtime
