//===- Problem.h - Seeded random test problems on the device -----*- C++
//-*-===//
//
// TestProblem allocates every buffer a manifest's kernel needs for a problem
// size, fills the inputs with seeded uniform values in [-1, 1] (never zeros;
// scalars in [0.5, 1.5] unless overridden), keeps exact decoded host copies
// for a Reference, and poisons the outputs with 0xFF bytes (NaN in every
// supported dtype) so unwritten elements are caught. Padding between rows
// (ld > row length) and a guard region after every buffer are poisoned too:
// an input read through a wrong stride turns into NaN, an output written out
// of bounds shows in checkGuards(). ws-gemm-run and ws-gemm-bench are built
// on it; so can integration tests.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_RUNTIME_PROBLEM_H
#define WSGEMM_RUNTIME_PROBLEM_H

#include "ws-gemm-runtime/Driver.h"
#include "ws-gemm-runtime/Reference.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace wsgemm::runtime {

struct ProblemOptions {
  int64_t M = 0, N = 0, K = 0, L = 1;
  uint64_t seed = 1;
  /// Extra elements per row of every matrix (ld = row length + pad).
  int64_t pad = 0;
  /// When > 0 (bytes, a multiple of the element sizes): every matrix's ld
  /// (after pad) rounded up to a multiple of this many bytes, as a caller
  /// stores an odd-length row for TMA (f16 N = 50257 -> ld = 50264).
  int64_t ldAlignBytes = 0;
  /// Extra elements in A's (B's) ld only, after pad and ldAlignBytes: an
  /// odd leading dimension for the cp.async kernels (ws-gemm-run and
  /// ws-gemm-bench --pad-a / --pad-b).
  int64_t padA = 0, padB = 0;
  /// Elements between A's (B's) allocation and its first element: a
  /// sliced base address off 16 bytes (--offset-a / --offset-b).
  int64_t offsetA = 0, offsetB = 0;
  /// The same for C and every aux load (--pad-c / --offset-c): what a
  /// `load_c = cp_async` kernel takes.
  int64_t padC = 0, offsetC = 0;
  /// Values for scalar and scalar_pointer parameters (others are random).
  std::map<std::string, float> scalars;
  /// Keep decoded host copies of the inputs (for a Reference).
  bool keepHost = true;
  /// Poisoned bytes after each buffer.
  size_t guardBytes = 256;
  /// Input matrices ("A", "B", "C" or an aux load) that get a NaN at their
  /// first and middle stored element (row 0, column 0 and row rows / 2,
  /// column cols / 2 of the first batch), to check NaN propagation.
  std::set<std::string> nanInputs;
};

class TestProblem {
public:
  static Expected<TestProblem> create(const Manifest &m,
                                      const ProblemOptions &opts);
  TestProblem(TestProblem &&) = default;
  TestProblem &operator=(TestProblem &&) = default;

  GemmArgs &args() { return args_; }
  const GemmArgs &args() const { return args_; }
  const HostInputs &host() const { return host_; }
  /// Moves the host copies out (e.g. into Reference::create).
  HostInputs takeHost() { return std::move(host_); }

  /// Poisons D and aux stores (0xFF bytes) and sets reductions to their
  /// identity; a D the kernel reduces into (Manifest::dReduce) gets its
  /// seeded values back instead (host().D). Call before every launch that
  /// is checked.
  Status resetOutputs();
  /// Makes the kernel read C from D's buffer (`D = f(acc, D)` in place, the
  /// way to update D without a reducing store): D gets C's seeded values
  /// and args().C points at D. C and D must have one dtype and geometry.
  /// For ws-gemm-bench's --c-is-d; not for checked runs.
  Status readCFromD();
  /// Output matrices: "D" then aux store names.
  const std::vector<std::string> &outputMatrices() const { return outputs_; }
  /// Reductions, in manifest parameter order.
  const std::vector<std::string> &reductions() const { return reductions_; }
  /// An output matrix, decoded (element (r, c, l) at geometry.offset()).
  Expected<HostMatrix> downloadMatrix(const std::string &name) const;
  Expected<std::vector<double>>
  downloadReduction(const std::string &name) const;
  /// Fails, naming the buffer and byte, if a guard region or row padding of
  /// an output no longer holds the poison.
  Status checkGuards() const;
  /// Bytes of device memory held.
  size_t deviceBytes() const;

private:
  TestProblem() = default;
  struct Buffer {
    DeviceBuffer mem;
    MatrixGeometry geometry; // matrices only
    bool isMatrix = false;
    DType dtype = DType::F32;
    size_t dataBytes = 0; // bytes before the guard
  };
  Status allocMatrix(const std::string &name, DType t, bool output);
  /// A pre-packed quantized A and its scales and zero points
  /// (ProblemMixedInput.cpp).
  Status allocPackedA(const Param &par);
  Manifest manifest_;
  ProblemOptions opts_;
  GemmArgs args_;
  HostInputs host_;
  std::map<std::string, Buffer> buffers_;
  std::vector<std::string> outputs_, reductions_;
  /// The bytes of a D the kernel reduces into, as first uploaded.
  std::vector<unsigned char> dSeed_;
};

/// Deterministic stream of uniform values in [lo, hi] for (seed, name):
/// element i is the same whatever the thread count.
/// The default of scalar `name` when it is CUTLASS's scale_d (scale_aux)
/// and D (the aux output "aux") is 8-bit: the power of two nearest below
/// max_finite / (8 rms) for the rms sqrt(K / 9) of an accumulator of K
/// products of uniform [-1, 1] inputs; nullopt for any other scalar.
std::optional<float> fp8OutputScale(const Manifest &m, const std::string &name,
                                    int64_t K);

void fillUniform(std::vector<double> &out, size_t count, uint64_t seed,
                 const std::string &name, double lo, double hi);

} // namespace wsgemm::runtime

#endif // WSGEMM_RUNTIME_PROBLEM_H
