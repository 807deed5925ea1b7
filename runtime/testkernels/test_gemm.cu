//===- test_gemm.cu - A hand-written kernel that obeys a manifest ---------===//
//
// Exercises the runtime end to end on a GPU before the compiler emits real
// kernels: TMA loads through CUtensorMap parameters passed by value
// (__grid_constant__), 3-D (batched) maps with zero fill at ragged edges, a
// skipped C load when beta == 0, a per-row bias pointer, scalar parameters,
// a column-sum reduction (atomics) and a TMA store clipped at the edges.
// It is deliberately simple (one stage, CUDA-core FMAs, no wgmma): it checks
// the runtime's contract, not speed. Two entry points: test_gemm (grid kind
// tiles, test_gemm.json) and test_gemm_persistent (persistent grid launched
// in 2x1x1 clusters, test_gemm_persistent.json). Both compute
//   D = relu(alpha * A B + beta * C + bias[m]);  colsum[l][n] += D_f32
// Build: nvcc -cubin -gencode=arch=compute_90a,code=sm_90a test_gemm.cu
//
//===----------------------------------------------------------------------===//

#include <cuda.h>
#include <cuda_fp16.h>
#include <stdint.h>

namespace {

constexpr int TM = 64, TN = 64, TK = 32, THREADS = 256;

__device__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ void tmaLoad3d(void *dst, const CUtensorMap *map, int c0, int c1,
                          int c2, uint64_t *bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
      "complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(smemAddr(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(smemAddr(bar))
      : "memory");
}

__device__ void tmaStore3d(const CUtensorMap *map, int c0, int c1, int c2,
                           const void *src) {
  asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group "
               "[%0, {%1, %2, %3}], [%4];" ::"l"(map),
               "r"(c0), "r"(c1), "r"(c2), "r"(smemAddr(src))
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__device__ void barInit(uint64_t *bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(bar))
               : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ void barExpect(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   smemAddr(bar)),
               "r"(bytes)
               : "memory");
}

__device__ void barWait(uint64_t *bar, uint32_t phase) {
  asm volatile("{\n"
               ".reg .pred p;\n"
               "WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               "@!p bra WAIT;\n"
               "}\n" ::"r"(smemAddr(bar)),
               "r"(phase)
               : "memory");
}

struct alignas(128) Smem {
  __half a[TM][TK]; // A tile: rows m, K contiguous
  __half b[TK][TN]; // B tile: rows k, N contiguous
  __half c[TM][TN]; // C tile
  __half d[TM][TN]; // D tile (TMA store source)
  uint64_t bar;
};

} // namespace

/// One 64 x 64 output tile of batch l at (m0, n0).
__device__ void gemmTile(Smem &s, const CUtensorMap &tmaA,
                         const CUtensorMap &tmaB, const CUtensorMap &tmaC,
                         const CUtensorMap &tmaD, const __half *bias,
                         float alpha, float beta, float *colsum, int M, int N,
                         int K, int m0, int n0, int l, uint32_t &phase) {
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += TK) {
    if (threadIdx.x == 0) {
      barExpect(&s.bar, sizeof(s.a) + sizeof(s.b));
      tmaLoad3d(s.a, &tmaA, k0, m0, l, &s.bar); // dims [K, M, L]
      tmaLoad3d(s.b, &tmaB, n0, k0, l, &s.bar); // dims [N, K, L]
    }
    barWait(&s.bar, phase);
    phase ^= 1;
    for (int k = 0; k < TK; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(s.a[ty * 4 + i][k]) *
                       __half2float(s.b[k][tx * 4 + j]);
    __syncthreads(); // everyone is done with this stage before the next load
  }

  if (beta != 0.0f) { // skip_if_zero: C is never read when beta == 0
    if (threadIdx.x == 0) {
      barExpect(&s.bar, sizeof(s.c));
      tmaLoad3d(s.c, &tmaC, n0, m0, l, &s.bar);
    }
    barWait(&s.bar, phase);
    phase ^= 1;
  }
  for (int i = 0; i < 4; ++i) {
    int mi = ty * 4 + i, m = m0 + mi;
    float b = m < M ? __half2float(bias[m]) : 0.0f;
    for (int j = 0; j < 4; ++j) {
      int nj = tx * 4 + j, n = n0 + nj;
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * __half2float(s.c[mi][nj]);
      v = fmaxf(v + b, 0.0f);
      s.d[mi][nj] = __float2half_rn(v);
      if (m < M && n < N)
        atomicAdd(&colsum[static_cast<size_t>(l) * N + n], v);
    }
  }
  // Generic-proxy writes to smem become visible to the TMA engine.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    tmaStore3d(&tmaD, n0, m0, l, s.d); // clipped at the edges; waits for
                                       // the smem reads before returning
  __syncthreads();                     // s.d and s.c are free again
}

/// Grid kind "tiles", raster along_n: x walks N tiles, y M tiles, z = l.
extern "C" __global__ void __launch_bounds__(THREADS)
    test_gemm(const __grid_constant__ CUtensorMap tmaA,
              const __grid_constant__ CUtensorMap tmaB,
              const __grid_constant__ CUtensorMap tmaC,
              const __grid_constant__ CUtensorMap tmaD, const __half *bias,
              float alpha, float beta, float *colsum, int M, int N, int K) {
  extern __shared__ __align__(128) unsigned char raw[];
  Smem &s = *reinterpret_cast<Smem *>(raw);
  if (threadIdx.x == 0)
    barInit(&s.bar);
  __syncthreads();
  uint32_t phase = 0;
  gemmTile(s, tmaA, tmaB, tmaC, tmaD, bias, alpha, beta, colsum, M, N, K,
           blockIdx.y * TM, blockIdx.x * TN, blockIdx.z, phase);
}

/// Grid kind "persistent", raster along_m: CTAs stride over the tiles, m
/// fastest; launched in clusters (the kernel ignores its cluster rank).
extern "C" __global__ void __launch_bounds__(THREADS)
    test_gemm_persistent(const __grid_constant__ CUtensorMap tmaA,
                         const __grid_constant__ CUtensorMap tmaB,
                         const __grid_constant__ CUtensorMap tmaC,
                         const __grid_constant__ CUtensorMap tmaD,
                         const __half *bias, float alpha, float beta,
                         float *colsum, int M, int N, int K, int L) {
  extern __shared__ __align__(128) unsigned char raw[];
  Smem &s = *reinterpret_cast<Smem *>(raw);
  if (threadIdx.x == 0)
    barInit(&s.bar);
  __syncthreads();
  uint32_t phase = 0;
  const int tilesM = (M + TM - 1) / TM, tilesN = (N + TN - 1) / TN;
  const int tiles = tilesM * tilesN * L;
  const int ctas = gridDim.x * gridDim.y * gridDim.z;
  const int cta =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  for (int t = cta; t < tiles; t += ctas) {
    int tm = t % tilesM, tn = (t / tilesM) % tilesN, l = t / (tilesM * tilesN);
    gemmTile(s, tmaA, tmaB, tmaC, tmaD, bias, alpha, beta, colsum, M, N, K,
             tm * TM, tn * TN, l, phase);
  }
}
