//===- Problem.cpp - Seeded random test problems on the device ------------===//
//
// Random values come from a counter-based generator (splitmix64 of seed,
// buffer name and element index), so they do not depend on the order or the
// number of threads that generate them. Inputs are rounded to their dtype
// on the host and the host copy keeps the exact decoded value.
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Problem.h"

#include "ws-gemm-runtime/Footprint.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>

namespace wsgemm::runtime {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t fnv1a(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

/// Runs body(begin, end) over [0, n) on several threads.
template <typename F> void parallelFor(size_t n, F body) {
  size_t threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min<size_t>(threads, std::max<size_t>(1, n / (1 << 16)));
  if (threads <= 1) {
    body(size_t(0), n);
    return;
  }
  std::vector<std::thread> pool;
  size_t chunk = (n + threads - 1) / threads;
  for (size_t t = 0; t < threads; ++t) {
    size_t b = t * chunk, e = std::min(n, b + chunk);
    if (b < e)
      pool.emplace_back(body, b, e);
  }
  for (std::thread &t : pool)
    t.join();
}

size_t roundUp(size_t a, size_t b) { return (a + b - 1) / b * b; }

} // namespace

/// Block scales (docs/fp8.md): 2^u for u uniform in [-8, 8], every other
/// one rounded to a power of two (2^round(u)): positive, both exact powers
/// and values with a full f32 mantissa, across the 2^16 range quantization
/// scales of fp8 tensors span. Exact in f32 up to its rounding, which
/// storeElement applies; the reference reads back the stored value.
void fillBlockScales(std::vector<double> &out, size_t count, uint64_t seed,
                     const std::string &name);

void fillUniform(std::vector<double> &out, size_t count, uint64_t seed,
                 const std::string &name, double lo, double hi) {
  out.resize(count);
  uint64_t key = splitmix64(seed ^ fnv1a(name));
  parallelFor(count, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      uint64_t h = splitmix64(key + i * 0xD1B54A32D192ED03ull);
      double u = static_cast<double>(h >> 11) * 0x1.0p-53; // [0, 1)
      out[i] = lo + (hi - lo) * u;
    }
  });
}

void fillBlockScales(std::vector<double> &out, size_t count, uint64_t seed,
                     const std::string &name) {
  fillUniform(out, count, seed, name, -8.0, 8.0);
  for (size_t i = 0; i < count; ++i)
    out[i] = std::exp2(i % 2 ? out[i] : std::round(out[i]));
}

std::optional<float> fp8OutputScale(const Manifest &m, const std::string &name,
                                    int64_t K) {
  // CUTLASS's names: scale_d multiplies D, scale_aux the aux output, each
  // just before its (fp8) conversion.
  std::string output = name == "scale_d" ? "D" : name == "scale_aux" ? "aux" : "";
  const Param *par = output.empty() ? nullptr : m.findParam(output);
  if (!par || dtypeSize(par->dtype) != 1)
    return std::nullopt;
  // Inputs uniform in [-1, 1] give accumulators of rms sqrt(K / 9) (the
  // scalars of alpha, scale_a, scale_b, beta, scale_c average 1): a scale
  // putting 8 rms at the format's largest finite value uses its range
  // without saturating all but a few outliers. A power of two, so the
  // scaling itself is exact.
  double rms = std::max(1.0, std::sqrt(double(K) / 9.0));
  double scale = dtypeMaxFinite(par->dtype) / (8.0 * rms);
  return static_cast<float>(std::exp2(std::floor(std::log2(scale))));
}

Status TestProblem::allocMatrix(const std::string &name, DType t, bool output) {
  MatrixGeometry g = matrixGeometry(manifest_, name, args_);
  const size_t es = dtypeSize(t);
  Buffer buf;
  buf.isMatrix = true;
  buf.dtype = t;
  buf.geometry = g;
  // A sliced A, B, C or aux load starts `offset` elements into its
  // allocation.
  const size_t offsetBytes =
      static_cast<size_t>(name == "A"   ? opts_.offsetA
                          : name == "B" ? opts_.offsetB
                          : output      ? 0
                                        : opts_.offsetC) *
      es;
  buf.dataBytes = static_cast<size_t>(g.spanElements()) * es + offsetBytes;
  auto mem =
      DeviceBuffer::alloc(roundUp(buf.dataBytes + opts_.guardBytes, 256), name);
  if (!mem)
    return mem.status();
  buf.mem = std::move(*mem);
  TensorArg &arg = tensorArgFor(name, args_);
  arg.ptr = buf.mem.ptr() + offsetBytes;
  arg.dtype = t; // ld was set by create() when padding; 0 means packed

  // A D the kernel reduces into is an input too: seeded like one, and kept
  // (dSeed_) so that resetOutputs restores it.
  const bool seeded = output && name == "D" &&
                      manifest_.dReduce() != StoreReduce::None;
  if (!output || seeded) {
    // Random values at valid positions, 0xFF (NaN) in padding and guard.
    std::vector<unsigned char> bytes(buf.mem.size(), 0xFF);
    std::vector<double> values;
    const size_t rows = static_cast<size_t>(g.rows),
                 cols = static_cast<size_t>(g.cols),
                 batches = static_cast<size_t>(g.batches);
    fillUniform(values, rows * cols * batches, opts_.seed, name, -1.0, 1.0);
    HostMatrix host;
    host.geometry = g;
    if (opts_.keepHost)
      host.data.assign(static_cast<size_t>(g.spanElements()), NAN);
    parallelFor(rows * batches, [&](size_t b, size_t e) {
      for (size_t rl = b; rl < e; ++rl) {
        size_t l = rl / rows, r = rl % rows;
        for (size_t c = 0; c < cols; ++c) {
          size_t off =
              static_cast<size_t>(g.offset(int64_t(r), int64_t(c), int64_t(l)));
          double x = values[(l * rows + r) * cols + c];
          if (opts_.nanInputs.count(name) && l == 0 &&
              ((r == 0 && c == 0) || (r == rows / 2 && c == cols / 2)))
            x = NAN;
          storeElement(t, bytes.data() + offsetBytes, off, x);
          if (opts_.keepHost)
            host.data[off] =
                loadElement(t, bytes.data() + offsetBytes, off);
        }
      }
    });
    WSGEMM_TRY(buf.mem.upload(bytes.data(), bytes.size()));
    if (seeded) {
      dSeed_ = bytes;
      outputs_.push_back(name);
    }
    if (opts_.keepHost) {
      if (seeded)
        host_.D = std::move(host);
      else if (name == "A")
        host_.A = std::move(host);
      else if (name == "B")
        host_.B = std::move(host);
      else if (name == "C")
        host_.C = std::move(host);
      else
        host_.aux[name] = std::move(host);
    }
  } else {
    outputs_.push_back(name);
  }
  buffers_[name] = std::move(buf);
  return Status::success();
}

Expected<TestProblem> TestProblem::create(const Manifest &m,
                                          const ProblemOptions &opts) {
  TestProblem p;
  p.manifest_ = m;
  p.opts_ = opts;
  p.args_.M = opts.M;
  p.args_.N = opts.N;
  p.args_.K = opts.K;
  p.args_.L = opts.L;
  if (opts.pad < 0)
    return errorf("pad: must be >= 0, got ", opts.pad);
  // Matrix ld (and with it the batch stride) from the padding option.
  if (opts.ldAlignBytes < 0 || opts.ldAlignBytes > 1024)
    return errorf("ld alignment: must be in [0, 1024] bytes, got ",
                  opts.ldAlignBytes);
  padLeadingDimensions(m, p.args_, opts.pad, opts.ldAlignBytes);
  if (opts.padA < 0 || opts.padB < 0 || opts.offsetA < 0 ||
      opts.offsetB < 0 || opts.padC < 0 || opts.offsetC < 0)
    return errorf("pad-a, pad-b, pad-c, offset-a, offset-b, offset-c: must "
                  "be >= 0");
  std::vector<std::pair<std::string, int64_t>> pads{{"A", opts.padA},
                                                    {"B", opts.padB}};
  for (const std::string &name : m.epilogueLoads())
    pads.emplace_back(name, opts.padC);
  for (auto [name, extra] : pads)
    if (extra > 0) {
      MatrixGeometry g = matrixGeometry(m, name, p.args_);
      tensorArgFor(name, p.args_).ld = g.ld + extra;
    }
  std::vector<std::string> auxStores;
  for (const EvtNode &n : m.nodes)
    if (n.op == EvtOp::AuxStore)
      auxStores.push_back(n.name);

  // Scalars first: values are needed by nothing on the device side but the
  // parameter list, and a skip_if_zero scalar decides whether C is read.
  auto scalarValue = [&](const std::string &name) {
    auto it = opts.scalars.find(name);
    if (it != opts.scalars.end())
      return it->second;
    if (std::optional<float> scale = fp8OutputScale(m, name, opts.K))
      return *scale;
    std::vector<double> v;
    fillUniform(v, 1, opts.seed, name, 0.5, 1.5);
    return static_cast<float>(v[0]);
  };
  for (const std::string &name : opts.nanInputs) {
    const Param *par = m.findParam(name);
    if (!par || par->kind != ParamKind::TensorMap ||
        std::find(auxStores.begin(), auxStores.end(), name) !=
            auxStores.end() ||
        name == "D")
      return errorf("nan: '", name, "' is not an input matrix of this "
                    "kernel (A, B, C or an aux load)");
  }
  for (const auto &[name, v] : opts.scalars) {
    (void)v;
    const Param *par = m.findParam(name);
    if (!par || (par->kind != ParamKind::Scalar &&
                 par->kind != ParamKind::ScalarPointer))
      return errorf(name, ": not a scalar or scalar_pointer parameter of this "
                          "kernel");
  }

  // Everything below is allocated only when all of it fits: refused here,
  // at once, with the bytes needed and available (not after minutes of
  // filling host buffers for a problem the device cannot hold).
  auto footprint = problemFootprint(m, p.args_, opts.guardBytes);
  if (!footprint)
    return footprint.status();
  size_t freeBytes = 0, totalBytes = 0;
  WSGEMM_TRY(cuCheck(cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo"));
  WSGEMM_TRY(checkFootprint(*footprint, freeBytes, totalBytes,
                            opts.keepHost ? hostAvailableBytes() : 0));

  for (const Param &par : m.params) {
    switch (par.kind) {
    case ParamKind::TensorMap:
    case ParamKind::Matrix: {
      bool output =
          par.operand == "D" || std::find(auxStores.begin(), auxStores.end(),
                                          par.operand) != auxStores.end();
      if (!par.packing.empty())
        WSGEMM_TRY(p.allocPackedA(par));
      else
        WSGEMM_TRY(p.allocMatrix(par.operand, par.dtype, output));
      break;
    }
    case ParamKind::Pointer: {
      if (!par.dequant.empty())
        break; // allocated with the packed A (its tensor map comes first)
      size_t n = static_cast<size_t>(extentElements(par.extent, p.args_, m));
      std::vector<double> values;
      if (par.blockScale.empty())
        fillUniform(values, n, opts.seed, par.name, -1.0, 1.0);
      else
        fillBlockScales(values, n, opts.seed, par.name);
      Buffer buf;
      buf.dtype = par.dtype;
      buf.dataBytes = n * dtypeSize(par.dtype);
      std::vector<unsigned char> bytes(
          roundUp(buf.dataBytes + opts.guardBytes, 256), 0xFF);
      std::vector<double> host(n);
      for (size_t i = 0; i < n; ++i) {
        storeElement(par.dtype, bytes.data(), i, values[i]);
        host[i] = loadElement(par.dtype, bytes.data(), i);
      }
      auto mem = DeviceBuffer::alloc(bytes.size(), par.name);
      if (!mem)
        return mem.status();
      buf.mem = std::move(*mem);
      WSGEMM_TRY(buf.mem.upload(bytes.data(), bytes.size()));
      p.args_.named[par.name] = TensorArg{buf.mem.ptr(), par.dtype, 0, 0};
      p.host_.vectors[par.name] = std::move(host);
      p.buffers_[par.name] = std::move(buf);
      break;
    }
    case ParamKind::Scalar: {
      float v = scalarValue(par.name);
      p.args_.scalars[par.name] = v;
      p.host_.scalars[par.name] = v;
      break;
    }
    case ParamKind::ScalarPointer: {
      float v = scalarValue(par.name);
      Buffer buf;
      buf.dtype = DType::F32;
      buf.dataBytes = 4;
      auto mem = DeviceBuffer::alloc(256, par.name);
      if (!mem)
        return mem.status();
      buf.mem = std::move(*mem);
      WSGEMM_TRY(buf.mem.upload(&v, sizeof v));
      p.args_.named[par.name] = TensorArg{buf.mem.ptr(), DType::F32, 0, 0};
      p.host_.scalars[par.name] = v;
      p.buffers_[par.name] = std::move(buf);
      break;
    }
    case ParamKind::Reduction: {
      size_t n = static_cast<size_t>(extentElements(par.extent, p.args_, m));
      Buffer buf;
      buf.dtype = DType::F32;
      buf.dataBytes = n * 4;
      auto mem = DeviceBuffer::alloc(
          roundUp(buf.dataBytes + opts.guardBytes, 256), par.name);
      if (!mem)
        return mem.status();
      buf.mem = std::move(*mem);
      p.args_.named[par.name] = TensorArg{buf.mem.ptr(), DType::F32, 0, 0};
      p.reductions_.push_back(par.name);
      p.buffers_[par.name] = std::move(buf);
      break;
    }
    case ParamKind::Size:
    case ParamKind::Workspace:    // allocated by the launch plan
    case ParamKind::StreamKTiles: // the launch plan's
    case ParamKind::TileOrder:    // the launch plan's
      break;
    }
  }
  WSGEMM_TRY(p.resetOutputs());
  return Expected<TestProblem>(std::move(p));
}

Status TestProblem::resetOutputs() {
  for (const std::string &name : outputs_) {
    if (name == "D" && !dSeed_.empty())
      WSGEMM_TRY(buffers_.at(name).mem.upload(dSeed_.data(), dSeed_.size()));
    else
      WSGEMM_TRY(buffers_.at(name).mem.fill(0xFF));
  }
  for (const std::string &name : reductions_) {
    Buffer &b = buffers_.at(name);
    const Param *par = manifest_.findParam(name);
    std::vector<float> init(b.dataBytes / 4, reductionIdentity(par->reduce));
    std::vector<unsigned char> bytes(b.mem.size(), 0xFF);
    std::memcpy(bytes.data(), init.data(), b.dataBytes);
    WSGEMM_TRY(b.mem.upload(bytes.data(), bytes.size()));
  }
  return Status::success();
}

Status TestProblem::readCFromD() {
  auto c = buffers_.find("C"), d = buffers_.find("D");
  if (c == buffers_.end() || d == buffers_.end())
    return errorf("C: the kernel reads no C, so it cannot read D as C");
  const MatrixGeometry &cg = c->second.geometry, &dg = d->second.geometry;
  if (c->second.dtype != d->second.dtype || cg.ld != dg.ld ||
      cg.batchStride != dg.batchStride || cg.batches != dg.batches)
    return errorf("C: reading D as C needs C and D of one dtype and layout, "
                  "got C ", dtypeName(c->second.dtype), " (ld ", cg.ld,
                  ") and D ", dtypeName(d->second.dtype), " (ld ", dg.ld, ")");
  std::vector<unsigned char> bytes(c->second.dataBytes);
  WSGEMM_TRY(c->second.mem.download(bytes.data(), bytes.size()));
  WSGEMM_TRY(d->second.mem.upload(bytes.data(), bytes.size()));
  args_.C.ptr = args_.D.ptr;
  return Status::success();
}

Expected<HostMatrix>
TestProblem::downloadMatrix(const std::string &name) const {
  auto it = buffers_.find(name);
  if (it == buffers_.end() || !it->second.isMatrix)
    return errorf(name, ": no such matrix buffer");
  const Buffer &b = it->second;
  std::vector<unsigned char> bytes(b.dataBytes);
  WSGEMM_TRY(b.mem.download(bytes.data(), bytes.size()));
  HostMatrix h;
  h.geometry = b.geometry;
  size_t n = static_cast<size_t>(b.geometry.spanElements());
  h.data.resize(n);
  parallelFor(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i)
      h.data[i] = loadElement(b.dtype, bytes.data(), i);
  });
  return h;
}

Expected<std::vector<double>>
TestProblem::downloadReduction(const std::string &name) const {
  auto it = buffers_.find(name);
  if (it == buffers_.end())
    return errorf(name, ": no such reduction buffer");
  const Buffer &b = it->second;
  std::vector<float> v(b.dataBytes / 4);
  WSGEMM_TRY(b.mem.download(v.data(), b.dataBytes));
  return std::vector<double>(v.begin(), v.end());
}

Status TestProblem::checkGuards() const {
  std::vector<std::string> names = outputs_;
  names.insert(names.end(), reductions_.begin(), reductions_.end());
  for (const std::string &name : names) {
    const Buffer &b = buffers_.at(name);
    std::vector<unsigned char> bytes(b.mem.size());
    WSGEMM_TRY(b.mem.download(bytes.data(), bytes.size()));
    for (size_t i = b.dataBytes; i < bytes.size(); ++i)
      if (bytes[i] != 0xFF)
        return errorf(name, ": guard byte ", i - b.dataBytes,
                      " after the end was written (out-of-bounds store)");
    if (!b.isMatrix)
      continue;
    const MatrixGeometry &g = b.geometry;
    const size_t es = dtypeSize(b.dtype);
    // Row padding and gaps between batches must still hold the poison.
    std::vector<char> valid(static_cast<size_t>(g.spanElements()), 0);
    for (int64_t l = 0; l < g.batches; ++l)
      for (int64_t r = 0; r < g.rows; ++r)
        std::fill_n(valid.begin() + g.offset(r, 0, l), g.cols, 1);
    for (size_t e = 0; e < valid.size(); ++e) {
      if (valid[e])
        continue;
      for (size_t k = 0; k < es; ++k)
        if (bytes[e * es + k] != 0xFF)
          return errorf(name, ": element ", e, " (row ",
                        (e % size_t(g.batchStride)) / size_t(g.ld), ", column ",
                        e % size_t(g.ld),
                        ") lies in the padding between rows or batches and "
                        "was written (stride error)");
    }
  }
  return Status::success();
}

size_t TestProblem::deviceBytes() const {
  size_t total = 0;
  for (const auto &[name, b] : buffers_) {
    (void)name;
    total += b.mem.size();
  }
  return total;
}

} // namespace wsgemm::runtime
