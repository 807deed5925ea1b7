//===- CublasLt.cpp - dlopen cuBLASLt
//--------------------------------------===//

#include "CublasLt.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace wsgemm::bench {

runtime::Status CublasLtApi::load(const std::string &explicitPath) {
  std::vector<std::string> candidates;
  if (!explicitPath.empty())
    candidates.push_back(explicitPath);
  const char *names[] = {"libcublasLt.so.13", "libcublasLt.so.12",
                         "libcublasLt.so"};
  for (const char *n : names)
    candidates.push_back(n);
  std::vector<std::string> dirs;
  if (const char *home = std::getenv("CUDA_HOME"))
    dirs.push_back(std::string(home) + "/lib64/");
  dirs.push_back("/usr/local/cuda/lib64/");
  for (const std::string &d : dirs)
    for (const char *n : names)
      candidates.push_back(d + n);
  std::string tried;
  for (const std::string &c : candidates) {
    handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle) {
      path = c;
      break;
    }
    tried += (tried.empty() ? "" : ", ") + c;
  }
  if (!handle)
    return runtime::Status::error("cannot dlopen cuBLASLt (tried " + tried +
                                  "; pass --cublaslt PATH)");
  std::string missing;
  auto sym = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(handle, name));
    if (!fn)
      missing += std::string(missing.empty() ? "" : ", ") + name;
  };
  sym(create, "cublasLtCreate");
  sym(destroy, "cublasLtDestroy");
  sym(getVersion, "cublasLtGetVersion");
  sym(statusString, "cublasLtGetStatusString");
  sym(descCreate, "cublasLtMatmulDescCreate");
  sym(descDestroy, "cublasLtMatmulDescDestroy");
  sym(descSet, "cublasLtMatmulDescSetAttribute");
  sym(layoutCreate, "cublasLtMatrixLayoutCreate");
  sym(layoutDestroy, "cublasLtMatrixLayoutDestroy");
  sym(layoutSet, "cublasLtMatrixLayoutSetAttribute");
  sym(prefCreate, "cublasLtMatmulPreferenceCreate");
  sym(prefDestroy, "cublasLtMatmulPreferenceDestroy");
  sym(prefSet, "cublasLtMatmulPreferenceSetAttribute");
  sym(heuristic, "cublasLtMatmulAlgoGetHeuristic");
  sym(matmul, "cublasLtMatmul");
  if (!missing.empty())
    return runtime::Status::error(path + ": missing symbols " + missing);
  return runtime::Status::success();
}

std::string CublasLtApi::status(cublasStatus_t s) const {
  const char *str = statusString ? statusString(s) : nullptr;
  return std::string(str ? str : "CUBLAS_STATUS_?") + " (" +
         std::to_string(static_cast<int>(s)) + ")";
}

} // namespace wsgemm::bench
