//===- ManifestNames.cpp - Enumerator names and Manifest look-ups --------===//
//
// The spelling of each manifest enumerator (the manifest's own words, used
// by the parser and in every message) and the Manifest's small look-ups
// (params by name or operand, alignment, the store node, the cubin path).
// The parser is Manifest.cpp.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Manifest.h"

namespace wsgemm::runtime {

//===----------------------------------------------------------------------===//
// Names of enumerators
//===----------------------------------------------------------------------===//

const char *dimName(Dim d) {
  switch (d) {
  case Dim::M:
    return "M";
  case Dim::N:
    return "N";
  case Dim::K:
    return "K";
  case Dim::L:
    return "L";
  case Dim::KB:
    return "KB";
  case Dim::NB:
    return "NB";
  case Dim::KG:
    return "KG";
  }
  return "?";
}

const char *layoutName(Layout l) {
  switch (l) {
  case Layout::KMajor:
    return "k_major";
  case Layout::MMajor:
    return "m_major";
  case Layout::NMajor:
    return "n_major";
  }
  return "?";
}

const char *storeReduceName(StoreReduce r) {
  switch (r) {
  case StoreReduce::None:
    return "none";
  case StoreReduce::Add:
    return "add";
  case StoreReduce::Min:
    return "min";
  case StoreReduce::Max:
    return "max";
  }
  return "?";
}

unsigned swizzleBytes(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return 0;
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
    return 128;
  }
  return 0;
}

const char *swizzleName(Swizzle s) {
  switch (s) {
  case Swizzle::None:
    return "none";
  case Swizzle::B32:
    return "32B";
  case Swizzle::B64:
    return "64B";
  case Swizzle::B128:
    return "128B";
  }
  return "?";
}

const char *paramKindName(ParamKind k) {
  switch (k) {
  case ParamKind::TensorMap:
    return "tensor_map";
  case ParamKind::Pointer:
    return "pointer";
  case ParamKind::Scalar:
    return "scalar";
  case ParamKind::ScalarPointer:
    return "scalar_pointer";
  case ParamKind::Reduction:
    return "reduction";
  case ParamKind::Size:
    return "size";
  case ParamKind::Workspace:
    return "workspace";
  case ParamKind::StreamKTiles:
    return "stream_k_tiles";
  case ParamKind::TileOrder:
    return "tile_order";
  case ParamKind::Matrix:
    return "matrix";
  }
  return "?";
}

const char *rasterName(Raster r) {
  switch (r) {
  case Raster::AlongM:
    return "along_m";
  case Raster::AlongN:
    return "along_n";
  case Raster::Heuristic:
    return "heuristic";
  case Raster::Runtime:
    return "runtime";
  }
  return "?";
}

const char *schedulerKindName(SchedulerKind k) {
  switch (k) {
  case SchedulerKind::DataParallel:
    return "data_parallel";
  case SchedulerKind::SplitK:
    return "split_k";
  case SchedulerKind::StreamK:
    return "stream_k";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Manifest helpers
//===----------------------------------------------------------------------===//

const Param *Manifest::findParam(const std::string &name) const {
  for (const Param &p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

const Param *Manifest::findBlockScale(const std::string &op) const {
  for (const Param &p : params)
    if (p.kind == ParamKind::Pointer && p.blockScale == op)
      return &p;
  return nullptr;
}

const Param *Manifest::findTensorMap(const std::string &op) const {
  for (const Param &p : params)
    if (p.kind == ParamKind::TensorMap && p.operand == op)
      return &p;
  return nullptr;
}

const Param *Manifest::findMatrix(const std::string &op) const {
  for (const Param &p : params)
    if ((p.kind == ParamKind::TensorMap || p.kind == ParamKind::Matrix) &&
        p.operand == op)
      return &p;
  return nullptr;
}

bool Manifest::isOutput(const std::string &operand) const {
  if (operand == "D")
    return true;
  for (const EvtNode &n : nodes)
    if (n.op == EvtOp::AuxStore && n.name == operand)
      return true;
  return false;
}

std::vector<std::string> Manifest::epilogueLoads() const {
  std::vector<std::string> names;
  for (const Param &p : params)
    if ((p.kind == ParamKind::TensorMap || p.kind == ParamKind::Matrix) &&
        p.operand != "A" && p.operand != "B" && !isOutput(p.operand))
      names.push_back(p.operand);
  return names;
}

bool Manifest::directStores() const {
  // A, B, C and aux loads are inputs read with cp.async.
  for (const Param &p : params)
    if (p.kind == ParamKind::Matrix && isOutput(p.operand))
      return true;
  return false;
}

uint32_t Manifest::requiredAlignment(const std::string &operand) const {
  const Param *p = findMatrix(operand);
  return p && p->kind == ParamKind::Matrix && p->alignBytes ? p->alignBytes
                                                            : 16;
}

const EvtNode &Manifest::storeNode() const {
  for (const EvtNode &n : nodes)
    if (n.op == EvtOp::Store)
      return n;
  return nodes.front(); // unreachable for a validated manifest
}

std::string Manifest::cubinPath() const {
  if (!cubin.empty() && cubin.front() == '/')
    return cubin;
  if (directory.empty())
    return cubin;
  return directory + "/" + cubin;
}

} // namespace wsgemm::runtime
