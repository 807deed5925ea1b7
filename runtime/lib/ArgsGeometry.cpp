//===- ArgsGeometry.cpp - Sizes, matrices and extents of GEMM arguments ---===//
//
// What Args.h derives from a manifest and a problem before any check: a
// dimension's value, a matrix's geometry (rows, columns, ld, batch stride
// with packed defaults), an extent's elements, which tensor argument an
// operand names, placeholder addresses for dry runs, and whether C is
// skipped. The checks themselves are Args.cpp's.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Args.h"

#include "Saturate.h"

namespace wsgemm::runtime {

int64_t dimValue(Dim d, const GemmArgs &args, const Manifest &m) {
  switch (d) {
  case Dim::M:
    return args.M;
  case Dim::N:
    return args.N;
  case Dim::K:
    return args.K;
  case Dim::L:
    return args.L;
  case Dim::KB:
    return (args.K + 127) / 128;
  case Dim::NB:
    return (args.N + 127) / 128;
  case Dim::KG: // K / A's scale group (checkPackedArgument checks K)
    return m.dequantGroupA() > 0 ? args.K / m.dequantGroupA() : 0;
  }
  return 0;
}

using detail::saturate;

int64_t MatrixGeometry::spanElements() const {
  if (rows == 0 || cols == 0)
    return 0;
  return saturate(__int128(batches - 1) * batchStride +
                  __int128(rows - 1) * ld + cols);
}

const TensorArg *tensorArgFor(const std::string &operand,
                              const GemmArgs &args) {
  if (operand == "A")
    return &args.A;
  if (operand == "B")
    return &args.B;
  if (operand == "C")
    return &args.C;
  if (operand == "D")
    return &args.D;
  auto it = args.named.find(operand);
  return it == args.named.end() ? nullptr : &it->second;
}

TensorArg &tensorArgFor(const std::string &operand, GemmArgs &args) {
  if (operand == "A")
    return args.A;
  if (operand == "B")
    return args.B;
  if (operand == "C")
    return args.C;
  if (operand == "D")
    return args.D;
  return args.named[operand];
}

void setPlaceholderArgs(const Manifest &m, GemmArgs &args) {
  CUdeviceptr next = 0x100000000ull;
  for (const Param &p : m.params) {
    switch (p.kind) {
    case ParamKind::TensorMap:
    case ParamKind::Matrix:
      tensorArgFor(p.operand, args) = TensorArg{next, std::nullopt, 0, 0};
      break;
    case ParamKind::Pointer:
    case ParamKind::Reduction:
    case ParamKind::ScalarPointer:
      args.named[p.name] = TensorArg{next, std::nullopt, 0, 0};
      break;
    case ParamKind::Scalar:
      args.scalars[p.name] = 1.0f;
      break;
    case ParamKind::Size:
    case ParamKind::Workspace:    // the launch plan allocates one
    case ParamKind::StreamKTiles: // the runtime chooses
    case ParamKind::TileOrder:    // the runtime chooses
      break;
    }
    next += 0x100000000ull;
  }
}

MatrixGeometry matrixGeometry(const Manifest &m, const std::string &operand,
                              const GemmArgs &args) {
  MatrixGeometry g;
  const Param *map = m.findMatrix(operand);
  if (!map)
    return g;
  g.dtype = map->dtype;
  // dims are innermost first: dims[0] counts columns, dims[1] rows.
  g.colDim = map->dims[0];
  g.rowDim = map->dims.size() > 1 ? map->dims[1] : Dim::M;
  g.cols = dimValue(g.colDim, args, m);
  g.rows = map->dims.size() > 1 ? dimValue(g.rowDim, args, m) : 1;
  g.batches = 1;
  for (Dim d : map->dims)
    if (d == Dim::L)
      g.batches = args.L;
  const TensorArg *t = tensorArgFor(operand, args);
  g.ld = t && t->ld > 0 ? t->ld : g.cols;
  g.batchStride = t && t->batchStride > 0 ? t->batchStride
                                           : saturate(__int128(g.rows) * g.ld);
  return g;
}

int64_t extentElements(const std::vector<Dim> &extent, const GemmArgs &args,
                       const Manifest &m) {
  __int128 n = 1;
  for (Dim d : extent)
    n = saturate(n * dimValue(d, args, m));
  return static_cast<int64_t>(n);
}

bool sourceSkipped(const Manifest &m, const GemmArgs &args) {
  for (const EvtNode &n : m.nodes) {
    if (n.op != EvtOp::LoadSrc || n.skipIfZero.empty())
      continue;
    const Param *p = m.findParam(n.skipIfZero);
    if (!p || p->kind != ParamKind::Scalar)
      return false;
    auto it = args.scalars.find(n.skipIfZero);
    return it != args.scalars.end() && it->second == 0.0f;
  }
  return false;
}

} // namespace wsgemm::runtime
