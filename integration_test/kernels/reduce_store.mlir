// D reduced into instead of overwritten (`epi.store ... reduce`, issue 31):
// D = D op epilogue(acc, ...) with CUTLASS's TMA reduce-store
// (cp.reduce.async.bulk.tensor ... .add/.min/.max) or, with store =
// direct, red.global.add. D is an input and an output: ws-gemm-run seeds
// it and checks D_after = D_before op value. Every schedule, ragged
// shapes (TMA clips the reduction at M x N), batched, a 2x1 cluster,
// split-K and stream-K (the fixup sums the partial accumulators; the last
// split's epilogue reduces into D), C from its own buffer, and the direct
// store's red.global for f32, f16 and bf16.

// Gradient accumulation in f32: D += alpha * acc, cooperative 128x128.
wsgemm.gemm @rs_add_f32 a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.store %z reduce add : f32
  epi.yield
}

// bf16 D += acc + bias[n], warp_specialized, N-major B.
wsgemm.gemm @rs_add_bf16_ws a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z reduce add : f32
  epi.yield
}

// f16 D += relu(acc), pingpong 64x128, per-warp TMA stores.
wsgemm.gemm @rs_add_f16_pp a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong,
                          warp_stores = true> {
^bb0(%acc: f32):
  %r = epi.relu %acc : f32
  epi.store %r reduce add : f32
  epi.yield
}

// Batched f16, 128x256 cooperative.
wsgemm.gemm @rs_add_f16_batched batched a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// A cluster of 2 CTAs along M (B multicast), bf16.
wsgemm.gemm @rs_add_bf16_cl21 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// Split-K (3 splits) combined with the reduce-store: the splits meet in the
// workspace, the last one's epilogue adds alpha * acc into f32 D.
wsgemm.gemm @rs_add_f32_split3 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          split_k = 3> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.store %z reduce add : f32
  epi.yield
}

// Stream-K, bf16.
wsgemm.gemm @rs_add_bf16_streamk a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// C from its own buffer (D += alpha * acc + beta * C), ReuseSmemC: D is
// staged over the C it was computed from.
wsgemm.gemm @rs_add_f16_lincomb a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          reuse_smem_c = true> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %x, %y : f32
  epi.store %z reduce add : f32
  epi.yield
}

// max and min (f16 and bf16 only): a running maximum / minimum.
wsgemm.gemm @rs_max_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc reduce max : f32
  epi.yield
}

wsgemm.gemm @rs_min_bf16_ws a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc reduce min : f32
  epi.yield
}

// store = direct: red.global.add per element, any row length.
wsgemm.gemm @rs_direct_add_f32 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.store %z reduce add : f32
  epi.yield
}

wsgemm.gemm @rs_direct_add_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

wsgemm.gemm @rs_direct_add_f16_split2 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// Timed (docs/epi.md, "Reduce-store"): D += acc with the reducing TMA store
// against the same GEMM reading D as C (beta = 1; ws-gemm-bench --c-is-d
// points C at D), which reads all of D and keeps a C ring in shared
// memory. bf16 (weight gradients) and f32 D, bench.mlir's config.
wsgemm.gemm @bench_rs_add_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

wsgemm.gemm @bench_rs_beta1_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}

wsgemm.gemm @bench_rs_add_f32 a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

wsgemm.gemm @bench_rs_beta1_f32 a(bf16) b(bf16) c(f32) d(f32)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}
