// ws-gemm-compile-flags: --chip=sm_80 --sass-arch=sm_90a
//
// sm_80 kernels that need sm_80's 163 KiB of shared memory per block (sm_86
// and sm_89 have 99 KiB), so kernels/sm80.mlir (compiled for every sm_8x
// chip by test/Target/PTX/sm80-ptxas.test) cannot hold them. PTX for sm_80,
// assembled for sm_90a to run on the lent H100.

// Multistage 128x256 (warp tile 16 x 256: 128 accumulators; too many for
// a 384-thread warp-specialized block), 3 stages of 48 KiB.
wsgemm.gemm @s80_ms256_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
