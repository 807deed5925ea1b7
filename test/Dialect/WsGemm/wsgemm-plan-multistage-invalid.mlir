// RUN: ws-gemm-opt %s -split-input-file --wsgemm-plan=chip=sm_90a -verify-diagnostics

// schedule = multistage's refusals (PlanningChip.cpp, Legality.cpp): it is
// sm_8x's non-warp-specialized schedule, which sm_90a refuses.

// expected-error @+1 {{schedule = multistage is an sm_8x schedule (cp.async groups and bar.sync, no producer warps); sm_90a kernels are warp-specialized (warp_specialized, cooperative, pingpong)}}
wsgemm.gemm @ms_sm90 a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
