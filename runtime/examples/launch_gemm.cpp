//===- launch_gemm.cpp - Minimal use of the ws-gemm runtime ---------------===//
//
// Loads a compiled kernel, allocates its buffers, fills the arguments by
// hand and launches it once: the steps an application (or an ML compiler's
// runtime) takes. Errors come back as Status messages that name the
// argument and the rule; nothing throws or aborts.
//
//   launch_gemm MANIFEST M N K
//
//===----------------------------------------------------------------------===//

#include <ws-gemm-runtime/Kernel.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace wsgemm::runtime;

static int die(const Status &s) {
  std::fprintf(stderr, "error: %s\n", s.message().c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s MANIFEST M N K\n", argv[0]);
    return 2;
  }
  auto ctx = Context::create(0); // primary context, made current
  if (!ctx)
    return die(ctx.status());
  auto kernel = ModuleCache::global().get(argv[1]);
  if (!kernel)
    return die(kernel.status());
  const Manifest &m = (*kernel)->manifest();

  GemmArgs args;
  args.M = std::atoll(argv[2]);
  args.N = std::atoll(argv[3]);
  args.K = std::atoll(argv[4]);

  // One device buffer per parameter, sized from the manifest.
  std::vector<DeviceBuffer> buffers;
  auto allocate = [&](size_t bytes, const std::string &name) -> CUdeviceptr {
    auto b = DeviceBuffer::alloc(bytes ? bytes : 16, name);
    if (!b || !b->fill(0x3C).ok()) // 0x3C3C: 1.06 in f16, a non-zero input
      return 0;
    buffers.push_back(std::move(*b));
    return buffers.back().ptr();
  };
  for (const Param &p : m.params) {
    switch (p.kind) {
    case ParamKind::TensorMap:
    case ParamKind::Matrix: {
      MatrixGeometry g = matrixGeometry(m, p.operand, args);
      tensorArgFor(p.operand, args).ptr =
          allocate(size_t(g.spanElements()) * dtypeSize(p.dtype), p.operand);
      break;
    }
    case ParamKind::Pointer:
    case ParamKind::Reduction:
    case ParamKind::ScalarPointer:
      args.named[p.name].ptr = allocate(
          size_t(extentElements(p.extent, args, m)) * dtypeSize(p.dtype),
          p.name);
      break;
    case ParamKind::Scalar:
      args.scalars[p.name] = 1.0f;
      break;
    case ParamKind::Size:
    case ParamKind::Workspace:    // the launch allocates one
    case ParamKind::StreamKTiles: // the runtime chooses
    case ParamKind::TileOrder:    // the runtime chooses
      break;
    }
  }

  // validate() + tensor maps + launch; the message says what is wrong.
  if (Status s = (*kernel)->launch(args, /*stream=*/nullptr); !s.ok())
    return die(s);
  if (Status s = cuCheck(cuCtxSynchronize(), "kernel"); !s.ok())
    return die(s);
  std::printf("launched %s for %lld x %lld x %lld\n", m.kernel.c_str(),
              static_cast<long long>(args.M), static_cast<long long>(args.N),
              static_cast<long long>(args.K));
  return 0;
}
