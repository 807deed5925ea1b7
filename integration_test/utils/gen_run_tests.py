#!/usr/bin/env python3
"""Writes integration_test/run/<kernel>.test: one lit test per kernel.

One file per kernel so that a failing kernel does not hide the others (lit
stops a file at its first failing RUN line) and the summary names the
kernel. The table below is the source of truth; edit it and rerun
    python3 integration_test/utils/gen_run_tests.py
then commit the regenerated files. Every kernel of kernels/*.mlir and
examples/*.mlir must appear here (the script checks).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)           # integration_test/
REPO = os.path.dirname(ROOT)
OUT = os.path.join(ROOT, "run")

# The standard shapes. FULL is checked element by element (M*N*L <= 2^20);
# the ragged ones are sampled plus full rows/columns at both ends and at the
# last tile boundary, plus a NaN scan of every element.
FULL = "--m 256 --n 256 --k 128"    # several tiles, every element checked
RAG1 = "--m 1000 --n 3000 --k 200"  # ragged M and N; more tiles than SMs
RAG2 = "--m 777 --n 1032 --k 96"    # 777x1029x96 with N rounded up to the
                                    # 16-byte stride rule (shapes-refused.test)
KSM = "--m 192 --n 136 --k 40"      # K below one 64-wide k-tile
TINY = "--m 8 --n 8 --k 8"          # the smallest legal 16-bit problem
ONE = "--m 1 --n 8 --k 8"           # a single row
BIG = "--m 4096 --n 4096 --k 4096"

# kernel: (source, what it covers, extra runs)
KERNELS = {}


def k(name, source, what, extra=()):
    KERNELS[name] = (source, what, list(extra))


P = "kernels/plain.mlir"
k("plain_f16", P, "f16 -> f16, planner defaults (cooperative 128x128)",
  [ONE, RAG2 + " --pad 8"])
k("plain_bf16_ws", P, "bf16 -> bf16, warp_specialized 128x128, 4 stages", [ONE])
k("plain_f16_d32", P, "f16 -> f32 D")
k("plain_bf16_nmajor_d32", P, "bf16, N-major B, f32 D")
k("plain_f16_nmajor_ws", P, "f16, N-major B, warp_specialized, 2 stages",
  [RAG2 + " --pad 8"])
k("plain_bf16_nmajor_d16", P, "bf16 inputs, N-major B, f16 D")
C = "kernels/configs.mlir"
k("cfg_coop_128x256", C, "tile 128x256 cooperative")
k("cfg_coop_128x256_nmajor", C, "tile 128x256 cooperative, bf16, N-major B, 3 stages")
k("cfg_coop_256x128", C, "tile 256x128 cooperative (128 rows per warpgroup)", [BIG])
k("cfg_coop_256x128_nmajor_d32", C, "tile 256x128, bf16, N-major B, f32 D, 2 stages")
k("cfg_ws_128x64_s2", C, "tile 128x64 warp_specialized, 2 stages")
k("cfg_coop_128x64_s4_nmajor", C, "tile 128x64 cooperative, N-major B, 4 stages")
k("cfg_ws_64x128", C, "tile 64x128 warp_specialized", [ONE])
k("cfg_ws_128x48", C, "tile N = 48 (epilogue tile N 16)", ["--m 300 --n 100 --k 64"])
k("cfg_ws_persistent", C, "warp_specialized made persistent")
k("cfg_coop_tiles", C, "cooperative made non-persistent, N-major B")
k("cfg_ws_regs", C, "warp_specialized with setmaxnreg 40/232")
k("cfg_coop_epi128x64", C, "epilogue tile 128x64, stages_c = stages_d = 2, C",
  [RAG1 + " --pad 8"])
k("cfg_ws_epi64x16", C, "epilogue tile 64x16, 4 store stages")
k("cfg_coop_swz2", C, "tile-scheduler swizzle 2 along N, with C (tail band at M = 777)")
k("cfg_ws_swz4_along_m", C, "swizzle 4 along M, persistent warp_specialized, bf16")
k("cfg_coop_swz8_heuristic", C, "swizzle 8, raster heuristic, 128x256 tiles", [BIG])
L = "kernels/lincomb.mlir"
k("lc_f16_reuse", L, "alpha*acc + beta*C, f16, ReuseSmemC (planner default)",
  [FULL + " --scalar beta=0", RAG2 + " --pad 8"])
k("lc_f16_noreuse", L, "the same, ReuseSmemC and DelayTmaStore off")
k("lc_bf16_delay_ws", L, "bf16 C/D, warp_specialized, DelayTmaStore",
  [RAG1 + " --pad 8"])
k("lc_bf16_reuse_ws_nmajor", L, "bf16 C/D, ReuseSmemC, warp_specialized, N-major B, fma")
k("lc_c32_d16", L, "f32 C, f16 D (no reuse: widths differ)")
k("lc_c16_d32_256x128", L, "f16 C, f32 D, N-major B, 256x128")
k("lc_f32_reuse_128x256", L, "f32 C and D with ReuseSmemC, 128x256, subf")
k("lc_noc_nodelay", L, "no C, DelayTmaStore off")
k("lc_c_unread", L, "C declared, never read: no C parameter")
S = "kernels/scalars.mlir"
k("sc_param", S, "scalar param, product of two params")
k("sc_ptr", S, "scalar ptr")
k("sc_ptr_product", S, "product of two device scalars, f32 D")
k("sc_attr", S, "epi.scalar attr and arith.constant")
k("sc_mixed", S, "param, ptr and attr with C, divf",
  [FULL + " --scalar alpha=-1.5 --scalar beta=0.25"])
B = "kernels/broadcast.mlir"
k("bc_vecm_f16", B, "per-row bias (load_vec_m) f16")
k("bc_vecn_bf16_ws", B, "per-column bias (load_vec_n) bf16, N-major B")
k("bc_vecm_vecn_f32", B, "f32 row scale and column bias, 128x256, fma")
k("bc_aux_f16", B, "aux_load f16 residual")
k("bc_aux_bf16_f32_ws", B, "two aux_loads, bf16 and f32, 128x64 warp_specialized")
k("bc_all", B, "C, vec_m, vec_n and aux_load together, 256x128", [RAG1 + " --pad 8"])
A = "kernels/aux_store.mlir"
k("as_f16", A, "aux_store f16 of the pre-activation", [RAG1 + " --full"])
k("as_bf16_f32_ws", A, "two aux_stores (bf16, f32), warp_specialized")
k("as_c_coop_128x64", A, "aux_store with C, 128x64 cooperative")
R = "kernels/reductions.mlir"
k("red_vecm_max", R, "reduce_to_vec_m max", [RAG1 + " --full"])
k("red_vecn_sum_ws", R, "reduce_to_vec_n sum, warp_specialized", [RAG1 + " --full"])
k("red_scalar_absmax", R, "reduce_to_scalar absmax")
k("red_scalar_min_ws", R, "reduce_to_scalar min, 128x64 warp_specialized")
k("red_mixed_kinds", R, "row sum/min and column max/absmax of a non-D value",
  [RAG1 + " --full"])
k("red_all_shapes_ws", R, "row, column and scalar reductions, warp_specialized",
  [RAG1 + " --full"])
k("red_coop_256x128", R, "row sum and column min, 256x128")
M = "kernels/math.mlir"
k("m_arith", M, "sub, div, neg, fma, min/max clamp")
k("m_select", M, "cmpf + select: leaky and threshold ReLU")
k("m_gelu_erf", M, "GELU, erf form")
k("m_gelu_tanh", M, "GELU, tanh form")
k("m_silu", M, "SiLU via exp and div")
k("m_hardswish", M, "HardSwish via min/max")
k("m_log_sqrt", M, "abs, log, sqrt, rsqrt")
k("m_convert", M, "truncf/extf: an explicit bf16 rounding node")
T = "kernels/batched.mlir"
k("bt_plain_f16", T, "batched plain f16")
k("bt_bias_bf16_ws", T, "batched lincomb, vec_m and vec_n, N-major B, warp_specialized")
k("bt_aux_red", T, "batched aux_load, aux_store, three reductions, non-persistent")
k("bt_c32_256x128", T, "batched f32 C with ReuseSmemC, 256x128")
X = "examples/%s.mlir"
k("gemm_plain", X % "gemm_plain", "example: plain GEMM", [BIG])
k("gemm_bias_relu", X % "gemm_relu", "example: LinCombPerRowBiasEltAct<ReLU> as an EVT", [BIG])
k("gemm_gelu_colbias", X % "gemm_gelu_colbias", "example: GELU, per-column bias, bf16 D", [BIG])
k("gemm_dag_aux_rowmax", X % "gemm_dag_aux_rowmax",
  "example: DAG epilogue, aux store, row max", [RAG1 + " --full"])
k("gemm_batched_ragged", X % "gemm_batched_ragged", "example: batched, ragged shapes")
N = "kernels/bench.mlir"
k("bench_plain_f16", N, "benchmarked: plain f16, 128x256")
k("bench_plain_bf16", N, "benchmarked: plain bf16, 128x256", [BIG])
k("bench_lincomb_relu_f16", N, "benchmarked: LinCombPerRowBiasEltAct<ReLU> f16")
k("bench_lincomb_relu_bf16", N, "benchmarked: LinCombPerRowBiasEltAct<ReLU> bf16",
  [BIG, "--m 8192 --n 8192 --k 1024"])

# Kernels of activations.mlir, presets.mlir and the preset examples (once
# kept apart until their lowering landed); tests are written for those whose
# source file exists.
PENDING = {}


def pk(name, source, what, extra=()):
    PENDING[name] = (source, what, list(extra))


A2 = "kernels/activations.mlir"
pk("act_identity", A2, "epi.identity")
pk("act_relu", A2, "epi.relu with C")
pk("act_clamp", A2, "epi.clamp [0, 6], warp_specialized")
pk("act_leaky_relu", A2, "epi.leaky_relu alpha 0.1, N-major B")
pk("act_threshold_relu", A2, "epi.threshold_relu, f32 D")
pk("act_gelu", A2, "epi.gelu with a per-column bias, bf16")
pk("act_gelu_taylor", A2, "epi.gelu_taylor, warp_specialized")
pk("act_silu", A2, "epi.silu, f32 D")
pk("act_sigmoid", A2, "epi.sigmoid, bf16")
pk("act_tanh", A2, "epi.tanh, 128x64 warp_specialized")
pk("act_hardswish", A2, "epi.hardswish")
pk("act_silu_aux_amax", A2, "epi.silu feeding an aux store and an absmax",
   [RAG1 + " --full"])
pk("conv_rz", A2, "epi.convert rz to bf16 and back")
pk("store_rz", A2, "D stored rounding toward zero")
PR = "kernels/presets.mlir"
pk("preset_scaled_acc", PR, "preset ScaledAcc")
pk("preset_lincomb", PR, "preset LinearCombination, bf16")
pk("preset_lincomb_gelu", PR, "preset LinCombEltAct<GELU>, warp_specialized")
pk("preset_rowbias_relu", PR, "preset LinCombPerRowBiasEltAct<ReLU> (examples/gemm_relu.mlir)", [BIG])
pk("preset_rowbias_relu_bf16", PR, "preset LinCombPerRowBiasEltAct<ReLU>, bf16, 128x256", [BIG])
pk("preset_colbias_gelu", PR, "preset LinCombPerColBiasEltAct<GELU> (examples/gemm_gelu_colbias.mlir)")
pk("preset_rowbias_clamp_aux", PR, "preset LinCombPerRowBiasEltActAux<Clamp>")
pk("preset_perrow_lincomb_silu", PR, "preset PerRowLinCombPerRowBiasEltAct<SiLU>, f32 D")
pk("preset_scaled_amax_aux", PR, "preset ScaledLinCombPerRowBiasEltActAmaxAux<ReLU>")
pk("gemm_bias_relu_epi", "kernels/gemm_relu_epi.mlir", "examples/gemm_relu.mlir with epi.relu", [BIG])
pk("gemm_batched_preset", "kernels/gemm_batched_preset.mlir", "batched LinearCombination preset")
pk("gemm_bias_relu_preset", "../examples/gemm_relu_preset.mlir", "examples/gemm_relu_preset.mlir: LinCombPerRowBiasEltAct<ReLU> preset")
# The epilogue-load warp with C gated by beta and an aux load (appended
# last so that the other kernels keep their seeds).
pk("lc_gated_aux_ws", L, "C gated by beta next to an aux load, warp_specialized, DelayTmaStore",
   [FULL + " --scalar beta=0", RAG1 + " --scalar beta=0"])
pk("lc_gated_aux_coop_reuse", L, "C gated by beta next to an f32 aux load, cooperative, ReuseSmemC",
   [FULL + " --scalar beta=0", RAG1 + " --scalar beta=0"])

# The pingpong schedule (appended last, like the above).
PP = "kernels/pingpong.mlir"
pk("pp_plain_f16_64x128", PP, "pingpong 64x128, plain f16", [ONE, BIG])
pk("pp_plain_bf16_nmajor_d32", PP, "pingpong 128x128, bf16, N-major B, f32 D")
pk("pp_plain_f16_64x256_swz2", PP, "pingpong 64x256, swizzle 2 along M", [BIG])
pk("pp_lincomb_relu_f16", PP, "pingpong LinCombPerRowBiasEltAct<ReLU>, ReuseSmemC",
   [FULL + " --scalar beta=0", RAG2 + " --pad 8", BIG])
pk("pp_lincomb_colbias_gelu_bf16", PP, "pingpong bf16 C without reuse, column bias, GELU, N-major B")
pk("pp_delay_epi64x16", PP, "pingpong DelayTmaStore, 4 store stages, epilogue tile 64x16")
pk("pp_aux_gated", PP, "pingpong aux load and store, C gated by beta",
   [FULL + " --scalar beta=0", RAG1 + " --full"])
pk("pp_reductions", PP, "pingpong row, column and scalar reductions", [RAG1 + " --full"])
pk("pp_batched_c32", PP, "pingpong batched, f32 C, per-row bias")# M-major A (appended last).
LY = "kernels/layouts.mlir"
pk("lay_mk_coop_f16", LY, "M-major A, K-major B, cooperative 128x256")
pk("lay_mn_pp_bf16", LY, "M-major A, N-major B, pingpong, bf16, C", [RAG2 + " --pad 8"])
pk("lay_mk_ws_batched", LY, "M-major A, warp_specialized 64x128, batched, f32 D")
pk("lay_mn_coop_256x128", LY, "M-major A, N-major B, 256x128, per-row bias, ReLU", [BIG])
pk("bench_pp_plain_f16", N, "benchmarked: plain f16, pingpong 128x128")
pk("bench_pp_plain_bf16", N, "benchmarked: plain bf16, pingpong 128x128")
pk("bench_pp_lincomb_relu_f16", N, "benchmarked: LinCombPerRowBiasEltAct<ReLU> f16, pingpong 128x128",
   ["--m 8192 --n 8192 --k 1024"])
pk("bench_pp_lincomb_relu_bf16", N, "benchmarked: LinCombPerRowBiasEltAct<ReLU> bf16, pingpong 128x128")
# Clusters of 2 CTAs with TMA multicast (appended last).
CL = "kernels/clusters.mlir"
pk("cl_coop_21_plain_f16", CL, "cluster 2x1 (B multicast), cooperative 128x256", [ONE, BIG])
pk("cl_coop_12_lincomb_relu_bf16", CL, "cluster 1x2 (A multicast), LinCombPerRowBiasEltAct<ReLU>, bf16",
   [FULL + " --scalar beta=0", BIG])
pk("cl_pp_21_nmajor_aux", CL, "cluster 2x1, pingpong, N-major B, aux load and store", [RAG1 + " --full"])
pk("cl_ws_12_mmajor_red", CL, "cluster 1x2, warp_specialized, M-major A, batched, reductions")

# fp8 (kernels/fp8.mlir and the fp8 bench kernels). An 8-bit operand's row
# of K (A, B) or N (D, aux) bytes must be a multiple of 16 (TMA), so the
# standard shapes move to the nearest legal ones: K 200 -> 208, 40 -> 48,
# N 3000 -> 3008, 1032 -> 1040, 136 -> 144, and the smallest problem is
# 8x16x16. Enumerated after every other kernel so that their seeds stay.
FP8 = {}
FP8_BASE = [FULL, "--m 1000 --n 3008 --k 208", "--m 777 --n 1040 --k 96",
            "--m 192 --n 144 --k 48", "--m 8 --n 16 --k 16"]


def fk(name, source, what, extra=()):
    FP8[name] = (source, what, list(extra))


F8 = "kernels/fp8.mlir"
fk("f8_e4m3_e4m3_bf16", F8, "fp8 e4m3 x e4m3 -> bf16, planner defaults (128x128x128 cooperative)", [BIG])
fk("f8_e4m3_e5m2_e4m3", F8, "e4m3 x e5m2 -> e4m3 D (cvt.rn.satfinite), alpha",
   [FULL + " --scalar alpha=1000",   # |D| beyond 448: saturates to +-448
    FULL + " --nan A", FULL + " --nan B"])  # NaN inputs give NaN rows/columns
fk("f8_e5m2_e4m3_f16_ws", F8, "e5m2 x e4m3 -> f16, warp_specialized")
fk("f8_e5m2_e5m2_e5m2_pp", F8, "e5m2 x e5m2 -> e5m2, pingpong 64x128",
   [FULL + " --scalar alpha=100000", FULL + " --nan A", BIG])
fk("f8_e4m3_f32_256x128", F8, "e4m3 -> f32 D, 256x128 cooperative",
   ["--m 256 --n 256 --k 4096 --full", "--m 256 --n 256 --k 65536 --full"])
fk("f8_batched_e4m3_128x256", F8, "batched e4m3 D scaled by a device scalar, 128x256, swizzle 2")
fk("f8_c8_reuse", F8, "e5m2 C, e4m3 D staged over C (ReuseSmemC)",
   [FULL + " --scalar beta=0"])
fk("f8_aux8_vec8_ws", F8, "e4m3 aux load, e5m2 row vector, e5m2 aux store, warp_specialized")
fk("f8_rowcol_scales", F8, "per-row and per-column f32 scales (load_vec_m/n)", [BIG])
for act in ("identity", "relu", "clamp", "leaky_relu", "threshold_relu", "gelu",
            "gelu_taylor", "silu", "sigmoid", "tanh", "hardswish"):
    fk("f8_srow_" + act, F8, "ScaledLinCombPerRowBiasEltAct<%s>, e4m3 D" % act,
       [FULL + " --scalar beta=0"] if act == "relu" else [])
fk("f8_scol_gelu_bf16", F8, "ScaledLinCombPerColBiasEltAct<GELU>, bf16 D (scale_d unused)")
fk("f8_scol_relu_e5m2_pp", F8, "ScaledLinCombPerColBiasEltAct<ReLU>, e5m2 D, pingpong")
fk("f8_srow_amax_aux8", F8, "ScaledLinCombPerRowBiasEltActAmaxAux<ReLU>, e4m3 D, e5m2 aux: amax_d, amax_aux",
   [BIG, FULL + " --nan A"])  # a NaN reaches both amaxes (max.NaN)
fk("f8_scol_amax_aux8_ws", F8, "ScaledLinCombPerColBiasEltActAmaxAux<SiLU>, e5m2 D, e4m3 aux, warp_specialized")
fk("f8_srow_amax_aux16", F8, "ScaledLinCombPerRowBiasEltActAmaxAux<GELU>, bf16 aux (aux = Z), 128x256")
fk("f8_scol_amax_d16_pp", F8, "ScaledLinCombPerColBiasEltActAmaxAux, bf16 D (no amax_d), e4m3 aux, pingpong")
fk("f8_promoted_1", F8, "promoted accumulation every k-tile, e4m3 D",
   ["--m 256 --n 256 --k 16384", BIG])
fk("f8_promoted_1_f32", F8, "promoted accumulation every k-tile, f32 D (accuracy against f8_e4m3_f32_256x128)",
   ["--m 256 --n 256 --k 4096 --full", "--m 256 --n 256 --k 65536 --full"])
fk("f8_promoted_4_pp", F8, "promoted accumulation every 4 k-tiles, pingpong, bf16 D",
   ["--m 256 --n 256 --k 65536 --full"])
fk("bench_f8_promoted_bf16", N, "benchmarked: fp8 e4m3 -> bf16, promoted accumulation every k-tile, 128x128x128", [BIG])
fk("gemm_fp8_rowwise", X % "gemm_fp8_rowwise", "example: fp8 with per-row and per-column scales and a column bias", [BIG])
fk("bench_f8_plain_bf16", N, "benchmarked: fp8 e4m3 -> bf16, 128x256x128", [BIG])
fk("bench_f8_scaled_amax_e4m3", N, "benchmarked: fp8 e4m3 D = scale_d * alpha * scale_a * scale_b * acc with amax_d", [BIG])
fk("bench_f8_pp_scaled_amax_e4m3", N, "benchmarked: the same, pingpong 128x128x128")


# fp8 block-wise scaling (kernels/fp8_block.mlir, docs/fp8.md), after all
# the others so that their seeds stay: the fp8 shapes (K = 208 ends in a
# ragged K block, K = 96 and 48 are under one) plus K = 4096 in full.
BLOCK = {}


def bk(name, source, what, extra=()):
    BLOCK[name] = (source, what, list(extra))


FB = "kernels/fp8_block.mlir"
K4096 = "--m 256 --n 384 --k 4096 --full"
bk("fb_e4m3_bf16_bias", FB, "block scaling, e4m3 x e4m3 -> bf16, per-row bias, 128x128x128 cooperative",
   [K4096, "--m 1000 --n 1040 --k 4096", BIG])
bk("fb_e4m3_e5m2_f32_ws", FB, "block scaling, e4m3 x e5m2 -> f32, per-column bias, warp_specialized 64x128",
   [K4096, "--m 300 --n 272 --k 1008 --full"])
bk("fb_e4m3_e5m2_bf16_pp_n64", FB, "block scaling, tile N 64 in one B scale block, pingpong 64x64",
   [K4096, "--m 100 --n 208 --k 336 --full"])
bk("fb_batched_e5m2_e4m3_bf16", FB, "block scaling, batched (scales per batch), e5m2 x e4m3 -> bf16",
   ["--m 256 --n 256 --k 4096 --l 2 --full"])
bk("fb_split2_relu_bf16", FB, "block scaling with split_k = 2 (units start at K block kBegin), ReLU",
   [K4096, "--m 256 --n 512 --k 65536"])
bk("fb_cl21_f32", FB, "block scaling in a 2x1 cluster (B multicast), f32 D", [K4096])
bk("bench_f8_block_bf16", N, "benchmarked: fp8 e4m3 -> bf16 with block scaling, 128x128x128", [BIG])


def kernels_in(path):
    with open(path) as f:
        return re.findall(r"wsgemm\.gemm\s+@(\w+)", f.read())


# Split-K and stream-K (docs/stream-k.md), appended last. The standard
# shapes split tiles already (fewer tiles than SMs: stream-K shares every
# tile's k-tiles); the extras force stream-K where the heuristic would not
# (--stream-k-tiles), run long K (1024 k-tiles: a tile summed by ~30 CTAs
# in turn), a hybrid grid (full waves + stream-K), and stream-K forced off.
SK = "kernels/streamk.mlir"
LONGK = "--m 256 --n 512 --k 65536"
HYB = "--m 3000 --n 4000 --k 512"     # 24x16 (128x256) or 24x32 (128x128) tiles
SKX = [LONGK, HYB, KSM + " --stream-k-tiles 2", RAG1 + " --stream-k-tiles 40",
       RAG1 + " --stream-k-tiles 0"]
SPX = [LONGK, HYB, "--m 130 --n 304 --k 8"]
pk("sk_split3_plain_f16", SK, "split_k = 3, cooperative 128x256, plain f16", SPX)
pk("sk_split4_ws_lincomb_bf16", SK, "split_k = 4, warp_specialized 128x128, bf16, N-major B, C, bias, ReLU",
   SPX + [FULL + " --scalar beta=0"])
pk("sk_split2_reductions_aux", SK, "split_k = 2: aux load and store, row sum, column max, scalar amax",
   SPX + [RAG1 + " --full"])
pk("sk_stream_plain_f16", SK, "stream-K, cooperative 128x256, plain f16", SKX)
pk("sk_stream_ws_mmajor_d32", SK, "stream-K, warp_specialized 128x128, M-major A, f32 D", SKX)
pk("sk_stream_amax_aux", SK, "stream-K, ScaledLinCombPerRowBiasEltActAmaxAux<ReLU>: C, bias, aux store, amax",
   SKX + [RAG1 + " --full --stream-k-tiles 60"])
pk("sk_stream_reductions_batched", SK, "stream-K, batched, row max, column sum, scalar sum",
   [LONGK + " --l 2", HYB + " --l 2", RAG1 + " --l 3 --full --stream-k-tiles 100"])
pk("lm_head_f16", "kernels/lmhead.mlir", "LM head: f16, bias along N, cooperative 128x256 (lm-head.test: vocabulary 50257, computed as N = 50264)",
   ["--m 256 --n 50264 --k 512"])
# Split-K in clusters (appended: the seeds above stay).
pk("sk_split2_cluster12_lincomb_f16", SK, "split_k = 2 in 1x2 clusters, cooperative 128x128, C, bias, ReLU",
   SPX + [RAG1 + " --full", "--m 1024 --n 1024 --k 16384"])
pk("sk_split3_cluster21_reductions", SK, "split_k = 3 in 2x1 clusters, cooperative 128x256: aux store, row sum, column max, scalar amax",
   SPX + [RAG1 + " --full", "--m 777 --n 1032 --k 96"])
for v in ("sk", "split4"):
    what = "stream-K" if v == "sk" else "split_k = 4"
    pk("bench_%s_plain_f16" % v, N, "benchmarked: plain f16, 128x256, " + what, [LONGK, HYB])
    pk("bench_%s_plain_bf16" % v, N, "benchmarked: plain bf16, 128x256, " + what, [LONGK])
    pk("bench_%s_lincomb_relu_f16" % v, N, "benchmarked: LinCombPerRowBiasEltAct<ReLU> f16, " + what,
       [LONGK, HYB])
    pk("bench_%s_lincomb_relu_bf16" % v, N, "benchmarked: LinCombPerRowBiasEltAct<ReLU> bf16, " + what,
       [LONGK])

# store = direct (kernels/direct_store.mlir), sorted last so that no other
# kernel's seeds move. Odd N (packed D rows of any length) where the
# kernel reads no C or aux matrix with TMA; the LM head at N = 50257.
DIRECT = {}
ODD = ["--m 777 --n 1029 --k 96", "--m 1000 --n 3001 --k 200 --full",
       "--m 129 --n 7 --k 8"]


def dk(name, what, extra=()):
    DIRECT[name] = ("kernels/direct_store.mlir", what, list(extra))


dk("ds_lm_head_f16", "store = direct: LM head, f16, bias along N, cooperative 128x256",
   ODD + ["--m 300 --n 50257 --k 1024"])
dk("ds_aux_bf16_f32_ws", "store = direct: two aux stores (bf16, f32), warp_specialized", ODD)
dk("ds_pp_d32", "store = direct: pingpong 64x128, f32 D, row bias, ReLU", ODD + [BIG])
dk("ds_lincomb_c_f16", "store = direct: C read with TMA, D stored directly",
   [FULL + " --scalar beta=0"])
dk("ds_cl21_f16", "store = direct: cluster 2x1, plain f16", ODD + [BIG])
dk("ds_batched_bf16", "store = direct: batched, bf16, column bias",
   [s + " --l 3" for s in ODD])
dk("ds_stream_amax_aux", "store = direct: stream-K, row bias, aux store, amax",
   ODD + [LONGK, HYB, RAG1 + " --stream-k-tiles 40"])
dk("ds_split2_f16", "store = direct: split_k = 2, warp_specialized", ODD + [LONGK])
dk("ds_f8_e4m3", "store = direct: fp8 e4m3 in and out, scale_d",
   ["--m 777 --n 1029 --k 96", "--m 1000 --n 3001 --k 208 --full"])

# Split-K in clusters (kernels/streamk.mlir), sorted after everything
# above so that no other kernel's seeds move.
LATE = {}


def late(name, what, extra=()):
    LATE[name] = (SK, what, list(extra))


late("sk_split2_cluster12_lincomb_f16",
     "split_k = 2 in 1x2 clusters, cooperative 128x128, C, bias, ReLU",
     SPX + [RAG1 + " --full", "--m 1024 --n 1024 --k 16384"])
late("sk_split3_cluster21_reductions",
     "split_k = 3 in 2x1 clusters, cooperative 128x256: aux store, row sum, "
     "column max, scalar amax",
     SPX + [RAG1 + " --full", "--m 777 --n 1032 --k 96"])

# warp_stores = true with 16-bit outputs (kernels/warp_stores.mlir); the fp8
# kernels with an 8-bit D above take it by default.
WS = "kernels/warp_stores.mlir"
LATE["ws_coop_c_aux_f16"] = (
    WS, "warp_stores, cooperative 128x256, C not reused, row bias, f16 aux "
    "store, ReLU", [RAG1 + " --full", BIG])
LATE["ws_pp_c_aux_bf16"] = (
    WS, "warp_stores, pingpong 128x128, N-major B, C, bf16 aux store, GELU",
    [RAG1 + " --full", "--m 1024 --n 1024 --k 16384"])
# Not LONGK: with f16 inputs and an f32 D at K = 65536, 9-16 of 131072
# elements exceed the check's accumulation bound (2^-22 sqrt(K) of rms, by
# up to 1.3x), bit for bit the same with warp_stores = false (2026-11-25).
LATE["ws_split2_ws_d32"] = (
    WS, "warp_stores, split_k = 2, warp_specialized 128x128, f32 D, column sum",
    [HYB, "--m 130 --n 304 --k 8", RAG1 + " --full"])

# Uniform factors with fastmath<reassoc> (kernels/uniform_factors.mlir): one
# multiply per element, reductions' factors at the flush, e4m3 reductions
# without per-element bounds (checked on ragged tiles, batched, NaN inputs).
# Sorted after every other kernel (the ws_* seeds stay).
UF = "kernels/uniform_factors.mlir"
LATE["uf_f8_amax_coop"] = (
    UF, "reassoc fp8 scaled amax, e4m3 D, cooperative 128x256: unmasked "
    "amax of |acc| times |alpha * scale_a * scale_b|",
    [FULL + " --nan A", FULL + " --nan B", BIG])
LATE["uf_f8_vec_batched"] = (
    UF, "reassoc, batched e4m3 -> bf16: unmasked row absmax, column sum and "
    "scalar absmax with factors at the flush", [])
LATE["uf_f16_sums_ws"] = (
    UF, "reassoc, f16 in, warp_specialized: masked row sum and amax with "
    "factors at the flush", [])

# Clusters of 4 CTAs (kernels/clusters.mlir), sorted after every other
# kernel so that no other kernel's seeds move.
CL4 = {}
CL4["cl_coop_22_lincomb_relu_f16"] = (
    CL, "cluster 2x2 (A and B multicast), cooperative 128x256, "
    "LinCombPerRowBiasEltAct<ReLU>", [ONE, RAG1 + " --full", BIG])
CL4["cl_pp_22_nmajor_aux"] = (
    CL, "cluster 2x2, pingpong 128x128, N-major B, aux load and store, GELU",
    [RAG1 + " --full"])
CL4["cl_coop_41_plain_bf16"] = (
    CL, "cluster 4x1 (B in four parts), cooperative 256x128", [ONE, BIG])
CL4["cl_coop_14_mmajor_red"] = (
    CL, "cluster 1x4 (A in four parts), cooperative 256x128, M-major A, "
    "batched, reductions", [])
CL4["cl_split2_22_lincomb_bf16"] = (
    CL, "split_k = 2 in 2x2 clusters, cooperative 128x128, C, bias, ReLU",
    [RAG1 + " --full", "--m 1024 --n 1024 --k 16384"])

# Launch-time tile order (kernels/tile_order.mlir: no raster or swizzle in
# the config), sorted after every other kernel so that no other kernel's
# seeds move. The base shapes run at the runtime's choice; the extras force
# orders on ragged shapes (777x1032x96: 7x9 tiles of 128x128, so bands of
# 2, 4 and 8 leave a narrower last band along both directions).
TORDER = {}
TO = "kernels/tile_order.mlir"
ORDERS = ["--raster along_m --swizzle 1", "--raster along_n --swizzle 2",
          "--raster along_m --swizzle 4", "--raster along_n --swizzle 8",
          "--raster along_m --swizzle 8", "--raster along_n --swizzle 1"]
TOX = ([RAG2 + " " + o for o in ORDERS] +
       [RAG1 + " " + o for o in ORDERS[1:4]])
TORDER["to_coop_lincomb_f16"] = (
    TO, "tile order at launch: cooperative 128x128, C, row bias, ReLU",
    TOX + ["--m 8192 --n 14336 --k 1024"])
TORDER["to_pp_bf16"] = (
    TO, "tile order at launch: pingpong 64x128, bf16", TOX)
TORDER["to_cl21_f16"] = (
    TO, "tile order at launch: cluster 2x1", TOX)
TORDER["to_cl12_reductions_f16"] = (
    TO, "tile order at launch: cluster 1x2, row sum, column max",
    [s + " --full" for s in TOX])
TORDER["to_split2_f16"] = (
    TO, "tile order at launch: split_k = 2", TOX)
TORDER["to_stream_bf16"] = (
    TO, "tile order at launch: stream-K",
    TOX + [RAG1 + " --stream-k-tiles 40 " + o for o in ORDERS[2:5]])
TORDER["to_cl41_f16"] = (
    TO, "tile order at launch: cluster 4x1", TOX)
TORDER["to_plain_bf16"] = (
    TO, "tile order at launch: plain bf16, no config (the sweep's 128x128)",
    [RAG2 + " " + ORDERS[3], BIG])
TORDER["to_plain_bf16_128x256"] = (
    TO, "tile order at launch: plain bf16, 128x256 (the sweep's)",
    [RAG2 + " " + ORDERS[2], BIG, BIG + " " + ORDERS[4]])
TORDER["to_bias_c_bf16_128x224"] = (
    TO, "the default family's 128x224 member: bias, silu, C; tile order at launch",
    [RAG2 + " " + ORDERS[3], "--m 512 --n 14336 --k 512", "--m 300 --n 4480 --k 1000 --full", BIG])

# The clusters of 4 above that take their tile order at launch (no raster
# or swizzle in their configs) also run at forced orders, appended after
# their own runs so that those keep their seeds.
for name in ("cl_pp_22_nmajor_aux", "cl_coop_14_mmajor_red",
             "cl_split2_22_lincomb_bf16"):
    CL4[name][2].extend(RAG2 + " " + o for o in ORDERS[1:5])

# Activations with fastmath<afn> (approximate instructions), after every
# other table so the kernels above keep their seeds.
AFN = {}
AFN["act_silu_afn"] = (
    A2, "epi.silu fastmath<afn> (ex2/rcp.approx), f32 D", [BIG])
AFN["act_sigmoid_afn"] = (A2, "epi.sigmoid fastmath<afn> times C, bf16", [])
AFN["act_gelu_afn"] = (
    A2, "epi.gelu fastmath<afn> (tanh form), per-column bias, f32 D", [BIG])
AFN["act_tanh_afn"] = (
    A2, "epi.tanh and math.tanh fastmath<afn> (tanh.approx), f32 D", [])
AFN["act_gelu_taylor_afn_f16"] = (
    A2, "epi.gelu_taylor fastmath<afn> on f16, pingpong", [])

# D reduced into (epi.store ... reduce, issue 31), after every other table
# so the kernels above keep their seeds. ws-gemm-run seeds D and checks
# D_after = D_before op value.
RS = {}
RSK = "kernels/reduce_store.mlir"
RS["rs_add_f32"] = (RSK, "D += alpha * acc, f32 D (TMA reduce add)",
                    [BIG + " --scalar alpha=0.5"])
RS["rs_add_bf16_ws"] = (RSK, "bf16 D += acc + bias[n], warp_specialized, N-major B", [])
RS["rs_add_f16_pp"] = (RSK, "f16 D += relu(acc), pingpong 64x128, per-warp stores", [ONE])
RS["rs_add_f16_batched"] = (RSK, "batched f16 D += acc, 128x256", [])
RS["rs_add_bf16_cl21"] = (RSK, "bf16 D += acc, cluster 2x1", [BIG])
RS["rs_add_f32_split3"] = (RSK, "split_k = 3 combined with the reduce-store, f32 D",
                           ["--m 256 --n 512 --k 8192"])
RS["rs_add_bf16_streamk"] = (RSK, "stream-K, bf16 D += acc",
                             [RAG1 + " --stream-k-tiles 40"])
RS["rs_add_f16_lincomb"] = (RSK, "D += alpha * acc + beta * C, C its own buffer, ReuseSmemC",
                            [FULL + " --scalar beta=0"])
RS["rs_max_f16"] = (RSK, "D = max(D, acc), f16 (TMA reduce max)", [])
RS["rs_min_bf16_ws"] = (RSK, "D = min(D, acc), bf16, warp_specialized", [])
RS["rs_direct_add_f32"] = (RSK, "store = direct: red.global.add.f32",
                           ["--m 777 --n 1029 --k 96", "--m 129 --n 7 --k 8"])
RS["rs_direct_add_bf16"] = (RSK, "store = direct: red.global.add.noftz.bf16, warp_specialized",
                            ["--m 1000 --n 3001 --k 200"])
RS["rs_direct_add_f16_split2"] = (RSK, "store = direct with split_k = 2: red.global.add.noftz.f16",
                                  ["--m 777 --n 1029 --k 96"])
RS["bench_rs_add_bf16"] = (RSK, "benchmarked: bf16 D += acc, 128x256", [BIG])
RS["bench_rs_beta1_bf16"] = (RSK, "benchmarked: bf16 D = acc + C (run with C its own buffer)", [])
RS["bench_rs_add_f32"] = (RSK, "benchmarked: f32 D += acc, 128x256", [BIG])
RS["bench_rs_beta1_f32"] = (RSK, "benchmarked: f32 D = acc + C", [])


# cp.async producers (kernels/cp_async.mlir, issue 28), after every other
# table so the kernels above keep their seeds. The standard shapes include
# an odd M (777: an M-major A's rows of 1554 bytes); the extras pass odd
# leading dimensions (--pad-a, --pad-b) and sliced bases (--offset-a,
# --offset-b) that TMA refuses.
CPA = {}
CPK = "kernels/cp_async.mlir"
CPA["cpa_coop_am_a2_evt"] = (
    CPK, "cp.async M-major A (any M, 2-byte copies), B by TMA, cooperative "
    "128x256: bias, SiLU, beta * C",
    ["--m 1001 --n 1032 --k 200 --offset-a 1 --full",
     "--m 777 --n 1032 --k 96 --pad-a 3",
     "--m 4097 --n 4096 --k 4096"])
CPA["cpa_pp_ak_a4_relu"] = (
    CPK, "cp.async K-major A, 4-byte copies, pingpong 64x128: row bias, ReLU",
    [RAG1 + " --pad-a 2", RAG1 + " --offset-a 2 --full",
     "--m 1000 --n 1000 --k 1000 --pad-a 2"])
CPA["cpa_ws_bn_a2_direct"] = (
    CPK, "cp.async N-major B (any N, 2-byte copies), warp_specialized, "
    "direct stores", ["--m 300 --n 1001 --k 64 --full",
                      "--m 1000 --n 3001 --k 200 --pad-b 5 --offset-b 3"])
CPA["cpa_coop_ab_a8_b16_batched"] = (
    CPK, "cp.async A (8-byte) and B (16-byte), batched bf16 -> f32: column "
    "bias, GELU", ["--m 1000 --n 1000 --k 200 --pad-a 4 --offset-a 4 --l 2"])
CPA["cpa_split2_bk_a16"] = (
    CPK, "cp.async K-major B (16-byte), split_k = 2",
    ["--m 256 --n 512 --k 8192", RAG1 + " --full"])
CPA["bench_cpa_am_a2"] = (CPK, "benchmarked: M-major A by cp.async, 2-byte", [])
CPA["bench_cpa_ak_a2"] = (CPK, "benchmarked: K-major A by cp.async, 2-byte",
                          [RAG1 + " --pad-a 1"])
CPA["bench_cpa_ak_a8"] = (CPK, "benchmarked: K-major A by cp.async, 8-byte",
                          [RAG1 + " --pad-a 4"])
CPA["bench_cpa_ak_a16"] = (CPK, "benchmarked: K-major A by cp.async, 16-byte", [BIG])
CPA["bench_cpa_tma_ref"] = (CPK, "benchmarked: the TMA kernel of the same config", [])
CPA["bench_cpa_mmajor_tma_ref"] = (CPK, "benchmarked: the TMA kernel, M-major A", [])

# Activation parameters at launch (kernels/activation_params.mlir, issue
# 31), after every other table so the kernels above keep their seeds. The
# base shapes run with the default scalars (seeded in [0.5, 1.5], inside
# the accumulators' range: rms sqrt(K / 9)); the extras set values that
# decide the result: clamp bounds inside the data, both negative or lower
# > upper, a negative or zero alpha, a threshold above its cap.
AP = {}
APK = "kernels/activation_params.mlir"
AP["ap_clamp_bf16"] = (
    APK, "epi.clamp with both bounds at launch, bf16",
    [FULL + " --scalar lower=-1 --scalar upper=1.5",
     RAG1 + " --scalar lower=-2.5 --scalar upper=-0.5",
     RAG2 + " --scalar lower=0.75 --scalar upper=0.25"])
AP["ap_clamp_ptr_c_ws"] = (
    APK, "epi.clamp of alpha * acc + C, lower 0, upper from device memory, warp_specialized",
    [FULL + " --scalar clamp_upper=0.25 --scalar alpha=2",
     RAG1 + " --scalar clamp_upper=3 --scalar alpha=-1"])
AP["ap_leaky_relu_f16"] = (
    APK, "epi.leaky_relu with alpha at launch after a column bias, N-major B",
    [FULL + " --scalar slope=-0.5", RAG1 + " --scalar slope=2.5",
     RAG2 + " --scalar slope=0"])
AP["ap_threshold_relu_pp_f32"] = (
    APK, "epi.threshold_relu with threshold and upper_bound at launch, pingpong 64x128, f32 D",
    [FULL + " --scalar threshold=0.5 --scalar cap=2",
     RAG1 + " --scalar threshold=-1 --scalar cap=3",
     RAG2 + " --scalar threshold=2 --scalar cap=1"])
AP["ap_preset_rowbias_leaky"] = (
    APK, "preset LinCombPerRowBiasEltAct<LeakyReLU> with leaky_alpha at launch",
    [FULL + " --scalar leaky_alpha=-0.25 --scalar beta=0",
     RAG1 + " --scalar leaky_alpha=0.1"])
AP["ap_preset_lincomb_clamp"] = (
    APK, "preset LinCombEltAct<Clamp> with both bounds at launch, bf16",
    [FULL + " --scalar clamp_lower=-0.5 --scalar clamp_upper=0.5",
     RAG2 + " --scalar clamp_lower=-3 --scalar clamp_upper=1 --scalar beta=0"])

# sm_80 kernels (kernels/sm80.mlir, issue 28: cp.async + ldmatrix +
# mma.sync, assembled for sm_90a to run on the H100), after every other
# table so the kernels above keep their seeds.
S80 = {}
S80K = "kernels/sm80.mlir"
S80["s80_coop_plain"] = (
    S80K, "sm_80 cooperative 128x128x64 (warp tiles 32x64), f16, plain D",
    ["--m 256 --n 512 --k 8192", BIG, RAG2 + " --pad 8"])
S80["s80_ws_bf16_alpha"] = (
    S80K, "sm_80 warp_specialized 128x128 (warp tile 32x128), bf16 -> f32, alpha",
    ["--m 300 --n 1000 --k 4096 --full"])
S80["s80_ws64_batched_bias_gelu"] = (
    S80K, "sm_80 64x128, batched f16: column bias, GELU", [])
S80["s80_coop_rowbias_relu_a8"] = (
    S80K, "sm_80 cooperative, 8-byte cp.async, bf16: row bias, ReLU",
    [RAG1 + " --pad-a 4 --pad-b 4"])
S80["s80_ms_plain"] = (
    S80K, "sm_80 multistage (no producer) 128x128x64 (warp tiles 32x64), f16, plain D",
    ["--m 256 --n 512 --k 8192", BIG, RAG2 + " --pad 8"])
S80["s80_ms_bf16_plain"] = (
    S80K, "sm_80 multistage 128x128x64, bf16, plain D",
    ["--m 300 --n 1000 --k 4096 --full"])
S80["s80_coop_bf16_plain"] = (
    S80K, "sm_80 cooperative 128x128x64, bf16, plain D (multistage's twin)", [])
S80["s80_ms256_plain"] = (
    "kernels/sm80_large.mlir", "sm_80 multistage 128x256x64 (3 stages), f16, plain D",
    ["--m 1000 --n 3000 --k 4096"])
S80["s80_ms_batched_rowbias_gelu_a8"] = (
    S80K, "sm_80 multistage, 2 stages, 8-byte cp.async, batched f16: row bias, GELU",
    [RAG1 + " --pad-a 4 --pad-b 4 --l 2"])

# sm_89 fp8 kernels (kernels/sm89.mlir, issue 28: mma.sync.m16n8k32 on
# e4m3 / e5m2, assembled for sm_90a), the fp8 shapes (K a multiple of 16:
# 16-byte rows), after every other table so the kernels above keep their
# seeds.
S89 = {}
S89K = "kernels/sm89.mlir"
S89["s89_f8_coop_scaled_bf16"] = (
    S89K, "sm_89 fp8 defaults: cooperative 128x128x128, e4m3 x e4m3 -> bf16, scale_a * scale_b",
    ["--m 256 --n 512 --k 8192 --scalar scale_a=0.5 --scalar scale_b=1.5",
     "--m 4096 --n 4096 --k 4096"])
S89["s89_f8_ws64_e5m2_bias_f32"] = (
    S89K, "sm_89 fp8 64x128 warp_specialized, e4m3 x e5m2 -> f32, column bias",
    ["--m 300 --n 1000 --k 4096 --full"])
S89["s89_f8_ms_batched_f16"] = (
    S89K, "sm_89 fp8 multistage 128x128x128, e5m2 x e4m3 -> f16, batched",
    ["--m 1000 --n 3008 --k 1024 --l 2"])
S89["s89_f8_coop_c_gelu_rowsum"] = (
    S89K, "sm_89 fp8 cooperative, 8-byte copies: residual C, GELU, row sums",
    ["--m 1000 --n 1040 --k 208 --pad-a 8 --pad-b 8"])

# Mixed-input GEMMs (kernels/mixed_input.mlir, issue 29), after every other
# table so the kernels above keep their seeds. A pre-packed i4 A needs M a
# multiple of 64 and K of the group (128); N (tokens) is ragged: 1, 7, 16,
# 100, 777 (kernels that read C or store D by TMA take N a multiple of 8).
MX = {}
MXK = "kernels/mixed_input.mlir"
MX_SHAPES = ["--m 256 --n 16 --k 256 --full", "--m 512 --n 1 --k 1024",
             "--m 384 --n 7 --k 512", "--m 1024 --n 100 --k 768",
             "--m 4096 --n 777 --k 1024", "--m 192 --n 16 --k 128 --full"]
MX_SHAPES8 = ["--m 256 --n 16 --k 256 --full", "--m 512 --n 8 --k 1024",
              "--m 1024 --n 104 --k 768", "--m 4096 --n 776 --k 1024",
              "--m 192 --n 16 --k 128 --full"]
MX["mx_w4_coop_bf16"] = (MXK, "GPTQ int4 (ui4 zero points, group 128), bf16, cooperative 128x16", MX_SHAPES)
MX["mx_w4_b8_ws_f16_silu"] = (MXK, "symmetric int4 (bias8), f16, warp_specialized 64x32: bias per output channel, SiLU", MX_SHAPES)
MX["mx_w4_coop256_evt"] = (MXK, "GPTQ int4, bf16, cooperative 256x64: bias, SiLU, residual C, TMA stores", MX_SHAPES8)
MX["mx_w4_pp_bf16"] = (MXK, "GPTQ int4, bf16, pingpong 64x64, k-tiles of 128", MX_SHAPES)
MX["mx_w4_splitk4"] = (MXK, "GPTQ int4, bf16, decode 128x16 with split_k = 4, k-tiles of 128", MX_SHAPES + ["--m 4096 --n 1 --k 4096"])
MX["mx_w4_streamk_f32"] = (MXK, "GPTQ int4, bf16 -> f32, stream-K 128x32", MX_SHAPES)
MX["mx_w4_batched"] = (MXK, "symmetric int4, bf16, batched", [s + " --l 3" for s in MX_SHAPES[:4]])
MX["mx_bench_w4_n16"] = (MXK, "benchmarked: decode 128x16x128, split_k = 4", ["--m 4096 --n 16 --k 4096", "--m 14336 --n 1 --k 4096"])
MX["mx_bench_w4_n128"] = (MXK, "benchmarked: 128x128", ["--m 4096 --n 256 --k 4096"])
MX["mx_bench_w4_n256"] = (MXK, "benchmarked: compute-bound 128x256", ["--m 4096 --n 512 --k 4096"])
MX["mx_bench_w4_m256_n16"] = (MXK, "benchmarked: decode 256x16x128, split_k = 4", ["--m 4096 --n 16 --k 4096", "--m 320 --n 7 --k 512 --full"])
MX["mx_bench_w4_ws64_n16"] = (MXK, "benchmarked: decode warp_specialized 64x16, split_k = 2", ["--m 4096 --n 16 --k 4096", "--m 320 --n 7 --k 512 --full"])

# A column-major D (kernels/column_major_d.mlir), after every other table
# so the kernels above keep their seeds. Its columns are M long: the
# standard shapes' odd M (777, 1000) give columns of any length; --pad 8
# leaves ld = M + 8; the decode tile runs at 1, 7 and 16 tokens.
DCM = {}
DCK = "kernels/column_major_d.mlir"
DCM["dcm_coop_bias_silu_aux_bf16"] = (
    DCK, "column-major D: cooperative 128x128, row bias, SiLU, row-major f32 aux store",
    [RAG2 + " --pad 8", "--m 129 --n 8 --k 8"])
DCM["dcm_ws_lincomb_c_f32"] = (
    DCK, "column-major f32 D = alpha * acc + beta * C (C row-major), warp_specialized",
    [FULL + " --scalar beta=0", RAG1 + " --pad 8"])
DCM["dcm_pp_f16"] = (
    DCK, "column-major D: pingpong 64x128, N-major B, column bias, ReLU", [BIG])
DCM["dcm_stream_amax_bf16"] = (
    DCK, "column-major D: stream-K 128x256 with absmax",
    [HYB, RAG1 + " --stream-k-tiles 40"])
DCM["dcm_batched_f16"] = (DCK, "column-major D: batched f16", [])
DCM["dcm_split2_reduce_f32"] = (
    DCK, "column-major f32 D += acc with split_k = 2 (red.global.add)",
    ["--m 256 --n 512 --k 16384"])
DCM["dcm_decode_bias_bf16"] = (
    DCK, "column-major D: decode tile 128x16, row bias",
    ["--m 4096 --n 1 --k 4096", "--m 777 --n 7 --k 200 --full",
     "--m 4096 --n 16 --k 4096"])
DCM["bench_dcm_col_bf16"] = (DCK, "benchmarked: column-major D, 128x256", [BIG])
DCM["bench_dcm_row_bf16"] = (DCK, "benchmarked: row-major D by the direct stores, 128x256", [])
DCM["bench_dcm_tma_bf16"] = (DCK, "benchmarked: row-major D by TMA, 128x256", [])


# The sm_80 kernels' other outputs (kernels/sm80.mlir, issue 28: aux
# stores, reductions, reduce-stores), after every other table so the
# kernels above keep their seeds.
S80OUT = {}
S80OUT["s80_coop_aux_reductions"] = (
    S80K, "sm_80 cooperative f16: aux store, row sums, column maxima, absmax, ReLU D",
    [RAG1 + " --pad 8"])
S80OUT["s80_ms_batched_aux_colsum"] = (
    S80K, "sm_80 multistage, batched bf16: aux store, column sums", [])
S80OUT["s80_ws_reduce_add_f32"] = (
    S80K, "sm_80 warp_specialized f16 -> f32: reduce-store D += acc", [])

# 8-bit weights (kernels/mixed_input_8bit.mlir, issue 29: int8 and fp8
# e4m3, one scale per row or per 128 of K), after every other table so the
# kernels above keep their seeds; shapes as MX's.
MX8 = {}
MX8K = "kernels/mixed_input_8bit.mlir"
MX8["mx_w8_splitk4_bf16"] = (MX8K, "int8 per channel, bf16, decode 128x16 with split_k = 4, k-tiles of 128", MX_SHAPES + ["--m 4096 --n 1 --k 4096"])
MX8["mx_w8_g128_ws_f16_silu"] = (MX8K, "int8 with scales per 128 of K, f16, warp_specialized 64x32: bias per output channel, SiLU", MX_SHAPES)
MX8["mx_w8_coop256_evt"] = (MX8K, "int8 per channel, bf16, cooperative 256x64: bias, SiLU, residual C, TMA stores", MX_SHAPES8)
MX8["mx_w8_pp_batched_f16"] = (MX8K, "int8 per channel, f16, batched, pingpong 64x64x128", [s + " --l 3" for s in MX_SHAPES[:4]])
MX8["mx_f8w_streamk_f32"] = (MX8K, "fp8 e4m3 weights per channel, bf16 -> f32, stream-K 128x32", MX_SHAPES)
MX8["mx_f8w_g128_f16"] = (MX8K, "fp8 e4m3 weights with scales per 128 of K, f16, 128x16 split_k = 2", MX_SHAPES)
MX8["mx_f8w_batched_bias_bf16"] = (MX8K, "fp8 e4m3 weights per channel, bf16, batched 128x128: bias per output channel", [s + " --l 3" for s in MX_SHAPES[:4]])
MX8["mx_bench_w8_n16"] = (MX8K, "benchmarked: int8 decode 128x16x128, split_k = 4", ["--m 4096 --n 16 --k 4096"])
MX8["mx_bench_f8w_n16"] = (MX8K, "benchmarked: fp8 e4m3 decode 128x16x128, split_k = 4", ["--m 4096 --n 16 --k 4096"])
MX8["mx_bench_w8_n256"] = (MX8K, "benchmarked: int8 compute-bound 128x256", ["--m 4096 --n 512 --k 4096"])

# Scale groups of 32 and 64 (kernels/mixed_input_groups.mlir, issue 29),
# after every other table so the kernels above keep their seeds.
MXG = {}
MXGK = "kernels/mixed_input_groups.mlir"
MXG["mx_w4_g32_splitk4"] = (MXGK, "GPTQ int4, group 32, bf16, decode 128x16x128 with split_k = 4; K = 192 ends inside a k-tile", MX_SHAPES + ["--m 4096 --n 1 --k 4096", "--m 512 --n 16 --k 192"])
MXG["mx_w4_g64_pp_batched_f16"] = (MXGK, "symmetric int4, group 64, f16, batched pingpong 64x64: bias, SiLU", [s + " --l 3" for s in MX_SHAPES[:4]])
MXG["mx_w8_g32_streamk"] = (MXGK, "int8, group 32, bf16, stream-K 256x32x128", MX_SHAPES)
MXG["mx_f8w_g64_ws_f16"] = (MXGK, "fp8 e4m3 weights, group 64, f16, warp_specialized 64x32x128", MX_SHAPES)

# Group scales on an f32 partial accumulator, f16 and group 64, the
# family's 64-token split-K 4 member (kernels/mixed_input_groups.mlir) and
# f16 with ui4 zero points (kernels/mixed_input.mlir), after every other
# table so the kernels
# above keep their seeds.
MXA = {}
MXA["mx_w4_ui4_f16_splitk4"] = (MXK, "GPTQ int4 (ui4), f16, decode 128x16x128 with split_k = 4: high nibbles by one fma", MX_SHAPES + ["--m 4096 --n 1 --k 4096"])
MXA["mx_w4_ui4_f16_t64"] = (MXK, "GPTQ int4 (ui4), f16, 128x64x128 with split_k = 2, scales on the weight: bias", MX_SHAPES)
MXA["mx_w4_t64_splitk4"] = (MXGK, "GPTQ int4, bf16, the family's 64-token 128x64x128 with split_k = 4", MX_SHAPES + ["--m 4096 --n 64 --k 4096", "--m 4096 --n 64 --k 14336"])
MXA["mx_w4_g64_acc_f16_silu"] = (MXGK, "symmetric int4, group 64, f16, decode 128x16x64 with split_k = 2, scales on a partial accumulator: bias, SiLU", MX_SHAPES + ["--m 4096 --n 1 --k 4096"])

# The default family's tiles of 128 and 192 tokens
# (kernels/mixed_input_groups.mlir), last so that every kernel above keeps
# its seed: ragged tokens across one and two tile columns, a tall weight.
MXT = {}
MXT["mx_w4_t128_splitk2"] = (MXGK, "GPTQ int4, bf16, column-major D, the family's 128x128x128 with split_k = 2", MX_SHAPES + ["--m 4096 --n 128 --k 8192", "--m 1024 --n 200 --k 1408"])
MXT["mx_w4_t192_splitk2"] = (MXGK, "GPTQ int4, bf16, column-major D, the family's 128x192x128 with split_k = 2", MX_SHAPES + ["--m 4096 --n 192 --k 8192", "--m 1024 --n 320 --k 1408"])
MXT["mx_w8_t192"] = (MXGK, "int8 per channel, bf16, column-major D, the family's 128x192x128", MX_SHAPES + ["--m 14336 --n 160 --k 4096", "--m 640 --n 385 --k 384"])

# Split tiles on sm_80 (kernels/sm80_split.mlir), last so that every
# kernel above keeps its seed: K over several units per tile, more tiles
# than CTAs, K not a multiple of the units' k-tiles.
S80SK = {}
S80SKK = "kernels/sm80_split.mlir"
S80SK["s80_split2_plain"] = (S80SKK, "sm_80 cooperative 128x128x64 with split_k = 2, f16, plain D", ["--m 256 --n 256 --k 8192", "--m 300 --n 520 --k 4104", "--m 4100 --n 4100 --k 264"])
S80SK["s80_streamk_bias_rowsum"] = (S80SKK, "sm_80 cooperative stream-K, bf16 -> f32: column bias, ReLU, row sums", ["--m 1024 --n 1024 --k 16384", "--m 4100 --n 4100 --k 264", "--m 300 --n 520 --k 4104"])
S80SK["s80_ms_split3"] = (S80SKK, "sm_80 multistage with split_k = 3, f16, plain D", ["--m 512 --n 512 --k 3000", "--m 4100 --n 4100 --k 264"])
S80SK["s80_streamk_plain"] = (S80SKK, "sm_80 cooperative stream-K, f16, plain D (benchmarked)", ["--m 4096 --n 4096 --k 4096", "--m 1024 --n 1024 --k 16384"])
S80SK["s80_streamk_lincomb_batched"] = (S80SKK, "sm_80 cooperative stream-K, batched f16: alpha x acc + beta x C (C copied for each tile's last unit)", ["--m 640 --n 384 --k 2048 --l 2", "--m 1100 --n 1200 --k 3000 --l 2"])

# The pipelined multistage loop (kernels/sm80_large.mlir, issue 28): four
# columns of warps, the family's 128x256 stream-K member; after every other
# table so the kernels above keep their seeds.
S80MS = {}
S80MSK = "kernels/sm80_large.mlir"
S80MS["s80_ms256_w4_vectors_aux_rowsum"] = (S80MSK, "sm_80 multistage 128x256, warp_columns = 4 (64x64 warp tiles), batched f16 -> bf16: column and row bias, ReLU, aux store, row sums", ["--m 1000 --n 3000 --k 4104 --l 2", "--m 4100 --n 4100 --k 264", "--m 300 --n 1001 --k 520 --align-ld 16"])
S80MS["s80_256_streamk"] = (S80MSK, "sm_80 128x256 stream-K, no schedule written (multistage), f16, plain D", ["--m 1024 --n 1024 --k 16384", "--m 4100 --n 4100 --k 264", "--m 300 --n 520 --k 4104"])
S80MS["s80_ms_s2_f32"] = (S80MSK, "sm_80 multistage 128x128 with 2 stages (sm_86/89's count), f16 -> f32, plain D", [BIG, "--m 4100 --n 4100 --k 264"])
S80MS["s80_ms_w4_bf16_plain"] = (S80MSK, "sm_80 multistage 128x128, warp_columns = 4 (64x32 warp tiles), bf16, plain D", [BIG, "--m 4100 --n 4100 --k 264", "--m 777 --n 1001 --k 264 --align-ld 16"])

# 256-row multistage tiles (kernels/sm80_large.mlir, issue 28: 256x128
# without a schedule plans multistage), after every other table so the
# kernels above keep their seeds.
S80R = {}
S80R["s80_ms256r_vectors_colsum"] = (S80MSK, "sm_80 multistage 256x128 (two 128-row warpgroups), no schedule written, batched f16: row and column bias, column sums, absmax", ["--m 1000 --n 3000 --k 4104 --l 2", "--m 4100 --n 4100 --k 264"])

# The warp layouts the sm_8x planner does not pick (kernels/sm80.mlir:
# warp_columns = 2 in the one-warpgroup kernel, 1 in multistage; the
# cooperative and multistage kernels above take 2 by default), after every
# other table so the kernels above keep their seeds.
S80W = {}
S80W["s80_ws_w2_vectors_reductions"] = (
    S80K, "sm_80 warp_specialized, warp_columns = 2 (64x64 warp tiles), f16 -> f32: column and row vectors, row, column and scalar reductions",
    [RAG1 + " --pad 8", "--m 300 --n 1000 --k 4096 --full"])
S80W["s80_ws_bf16_plain"] = (
    S80K, "sm_80 warp_specialized 128x128 (persistent by default), bf16 -> bf16 (benchmarked against CUTLASS)",
    [BIG])
S80W["s80_plain"] = (
    S80K, "sm_80 defaults: warp_specialized 128x128x64, persistent (one consumer warpgroup, warp tiles 32x128), f16, plain D",
    ["--m 256 --n 512 --k 8192", BIG, RAG2 + " --pad 8", "--m 4100 --n 4100 --k 264"])
S80W["s80_coop_w2_batched_c_residual"] = (
    "kernels/sm80_large.mlir", "sm_80 cooperative, warp_columns = 2 (warp tiles 32x64), batched: f16 C and a bf16 residual copied as two rectangles per subtile, ReLU",
    [RAG1 + " --pad 8 --l 2"])
S80W["s80_ms_w1_batched_aux_relu"] = (
    S80K, "sm_80 multistage, warp_columns = 1 (16x128 warp tiles), batched bf16: aux store, ReLU", [])

# C and aux loads on sm_8x (kernels/sm80.mlir, sm80_large.mlir, issue 28:
# the epilogue-load warp's cp.async copies), after every other table so
# the kernels above keep their seeds.
S80C = {}
S80C["s80_coop_lincomb_c"] = (
    S80K, "sm_80 cooperative f16: alpha * acc + beta * C, C copied with cp.async, beta = 0 skipping it",
    [FULL + " --scalar beta=0", RAG2 + " --pad 8", "--m 4097 --n 520 --k 200"])
S80C["s80_ws64_batched_c_residual"] = (
    S80K, "sm_80 64x128, batched bf16 -> f32: C, an f16 residual (aux load), column bias, GELU",
    [RAG2 + " --pad 8 --l 2"])
S80C["s80_ws_c32_aux_store"] = (
    "kernels/sm80_large.mlir", "sm_80 warp_specialized f16: f32 C (unswizzled 256-byte subtile rows), f32 aux store, ReLU",
    [RAG2 + " --pad 8"])

# C and aux loads copied on sm_90a (kernels/cp_async_c.mlir, issue 28:
# load_c = cp_async), after every other table so the kernels above keep
# their seeds. The extras pass odd leading dimensions (--pad-c) and sliced
# bases (--offset-c) of C and the aux loads, which TMA refuses.
CPC = {}
CPCK = "kernels/cp_async_c.mlir"
CPC["cpc_coop_c2_lincomb"] = (
    CPCK, "C copied 2 bytes at a time (any N), cooperative 128x256: alpha * acc + beta * C, direct stores, beta = 0 skipping C",
    ["--m 1001 --n 1001 --k 200 --pad-c 1 --offset-c 1 --full",
     "--m 777 --n 1029 --k 96 --pad-c 3 --scalar beta=0",
     "--m 4097 --n 4095 --k 4096 --offset-c 3"])
CPC["cpc_pp_c4_residual"] = (
    CPCK, "pingpong 64x128 bf16: C and an f16 residual copied 4 bytes at a time, row bias, ReLU",
    [RAG1 + " --pad-c 2 --offset-c 2 --full"])
CPC["cpc_ws_c8_f32"] = (
    CPCK, "warp_specialized 128x128: f32 C copied 8 bytes at a time, f32 D and aux store",
    [RAG1 + " --pad-c 2 --offset-c 2", "--m 300 --n 520 --k 64 --pad-c 6 --full"])
CPC["cpc_split2_c16_batched"] = (
    CPCK, "split_k = 2, batched: C copied 16 bytes at a time",
    ["--m 1000 --n 1000 --k 512 --pad-c 8 --offset-c 8 --l 2"])
CPC["cpc_streamk_c2_gelu"] = (
    CPCK, "stream-K bf16: C copied 2 bytes at a time, GELU, direct stores",
    ["--m 1001 --n 1001 --k 1000 --pad-c 1 --offset-c 1 --stream-k-tiles 40",
     "--m 4096 --n 4095 --k 4096 --offset-c 1"])
CPC["cpc_cl21_c2"] = (
    CPCK, "cluster 2x1 (TMA multicast of A and B) with C copied per CTA, 2 bytes at a time",
    ["--m 1001 --n 1001 --k 200 --pad-c 1 --offset-c 1 --full"])
CPC["bench_cpc_c2"] = (CPCK, "benchmarked: C copied 2 bytes at a time, 128x256", ["--m 1000 --n 3001 --k 200 --offset-c 1"])
CPC["bench_cpc_c16"] = (CPCK, "benchmarked: C copied 16 bytes at a time, 128x256", [])
CPC["bench_cpc_tma_ref"] = (CPCK, "benchmarked: the same kernel with C by TMA", [])

# Two CTAs per SM (kernels/two_ctas.mlir, config ctas_per_sm = 2), after
# every other table so the kernels above keep their seeds. The extras run
# more split-K / stream-K units than the 264 resident CTAs (each CTA loops
# over several, and a tile's units meet on one SM's two CTAs or on two SMs).
CTA2 = {}
CTA2K = "kernels/two_ctas.mlir"
CTA2["ctas2_w4_splitk4_silu"] = (
    CTA2K, "two CTAs per SM: GPTQ int4 decode 128x16, split_k = 4, bias per output channel, SiLU",
    MX_SHAPES + ["--m 28672 --n 16 --k 1024", "--m 8192 --n 1 --k 8192"])
CTA2["ctas2_w8_streamk_f32"] = (
    CTA2K, "two CTAs per SM: int8 per channel, stream-K 128x16, f32 D",
    MX_SHAPES + ["--m 14336 --n 7 --k 4096"])
CTA2["ctas2_f16_splitk2_lincomb"] = (
    CTA2K, "two CTAs per SM: f16 cooperative 128x64, split_k = 2, alpha * acc + beta * C",
    [BIG])
CTA2["ctas2_bf16_pp_rowsum"] = (
    CTA2K, "two CTAs per SM: bf16 pingpong 64x64, row sums", [BIG])

# One scale per row applied to the accumulator (group 0), the e4m3 -> f16
# path (kernels/mixed_input_8bit.mlir), after every other table so the
# kernels above keep their seeds.
MXR = {}
MXR["mx_f8w_rowscale_f16"] = (
    MX8K, "fp8 e4m3 weights into f16, one scale per row on the accumulator, 128x32 split_k = 2, bias per output channel, SiLU",
    MX_SHAPES + ["--m 4096 --n 16 --k 4096"])

# copy_out = load: the load warps copy each tile out (kernels/sm80.mlir,
# sm80_large.mlir; the planner picks it for a static K up to 1024), after
# every other table so the kernels above keep their seeds. The extras loop
# every CTA over several tiles at K = 264 (5 k-tiles over 2 or 4 stages),
# and KSM's K = 40 copies a tile out after the next one's only k-tile.
S80CO = {}
S80CO["s80_copyout_plain"] = (
    S80K, "sm_80 warp_specialized 128x128x64, persistent, copy_out = load (the load warps copy each tile out of a whole-tile store ring), f16, plain D",
    ["--m 256 --n 512 --k 8192", BIG, RAG2 + " --pad 8", "--m 4100 --n 4100 --k 264"])
S80CO["s80_ws_copyout_aux_w2"] = (
    "kernels/sm80_large.mlir", "sm_80 warp_specialized, copy_out = load (the load warps copy the tile out), warp_columns = 2, f16 -> f32: bf16 aux store, row sums, D += relu(acc) by red.global",
    [RAG1 + " --pad 8", "--m 4100 --n 4100 --k 264"])

# The mixed-input family's v11 (kernels/two_ctas.mlir: stream-K over two
# CTAs per SM, D m_major), after every other table so the kernels above
# keep their seeds. The extras: 224 tiles of 128 rows over the 264
# resident CTAs (Llama-3 70B up at K = 1024), 176 at one token.
DEC = {}
DEC["ctas2_w4_streamk_bias"] = (
    CTA2K, "two CTAs per SM: GPTQ int4 decode 128x16, stream-K (the mixed-input family's v11), D m_major, bias per output channel",
    MX_SHAPES + ["--m 28672 --n 16 --k 1024", "--m 22016 --n 1 --k 2048"])
DEC["ctas2_w4_streamk_k256"] = (
    CTA2K, "two CTAs per SM: GPTQ int4 decode 128x16 with k-tiles of 256 (two scale groups each), stream-K (the family's v11 for int4 with groups of 128), D m_major, bias, SiLU; K of 128 and 384 end inside a k-tile",
    MX_SHAPES + ["--m 256 --n 5 --k 384", "--m 28672 --n 16 --k 1152", "--m 22016 --n 1 --k 2048"])
DEC["mx_w4_g64_k256_splitk2"] = (MXGK, "GPTQ int4, group 64, bf16, 128x16x256 (four groups a k-tile, scales on the weights) with split_k = 2; K = 192 and 320 end inside a k-tile", MX_SHAPES + ["--m 512 --n 16 --k 192", "--m 256 --n 3 --k 320"])
DEC["mx_w4_k256_batched_f16"] = (MXGK, "GPTQ int4, group 128, f16, batched 128x16x256 (two partials a k-tile): bias", [s + " --l 3" for s in MX_SHAPES[:4]] + ["--m 256 --n 16 --k 384 --l 2"])

# The mixed-input family's v15 (kernels/two_ctas.mlir: split-K 2 over two
# CTAs per SM, D m_major), after every other table so the kernels above
# keep their seeds. The extras: 112 tiles of 128 rows (224 units on the
# 264 resident CTAs, Llama-3 8B up at K = 1024) and 224 at 3 tokens (448
# units: every CTA loops over a second).
DEC2 = {}
DEC2["ctas2_w4_splitk2_bias"] = (
    CTA2K, "two CTAs per SM: GPTQ int4 decode 128x16, split_k = 2 (the mixed-input family's v15), D m_major, bias per output channel",
    MX_SHAPES + ["--m 14336 --n 16 --k 1024", "--m 28672 --n 3 --k 512"])


def main():
    sources = {}
    for d in ("integration_test/kernels", "examples"):
        for f in sorted(os.listdir(os.path.join(REPO, d))):
            if f.endswith(".mlir"):
                for name in kernels_in(os.path.join(REPO, d, f)):
                    sources[name] = os.path.join(d, f)
    for name in PENDING:
        if name in sources:
            KERNELS[name] = PENDING[name]
    KERNELS.update(FP8)
    KERNELS.update(BLOCK)
    KERNELS.update(DIRECT)
    KERNELS.update(LATE)
    KERNELS.update(CL4)
    KERNELS.update(TORDER)
    KERNELS.update(AFN)
    KERNELS.update(RS)
    KERNELS.update(AP)
    KERNELS.update(CPA)
    KERNELS.update(S80)
    KERNELS.update(MX)
    KERNELS.update(DCM)
    KERNELS.update(S80OUT)
    KERNELS.update(MX8)
    KERNELS.update(MXG)
    KERNELS.update(S80C)
    KERNELS.update(CPC)
    KERNELS.update(S89)
    KERNELS.update(CTA2)
    KERNELS.update(MXR)
    KERNELS.update(MXA)
    KERNELS.update(S80W)
    KERNELS.update(S80CO)
    KERNELS.update(DEC)
    KERNELS.update(MXT)
    KERNELS.update(S80SK)
    KERNELS.update(S80MS)
    KERNELS.update(S80R)
    KERNELS.update(DEC2)
    missing = sorted(set(sources) - set(KERNELS))
    stale = sorted(set(KERNELS) - set(sources))
    if missing or stale:
        print("error: table out of date; no entry for %s; no kernel for %s"
              % (missing, stale))
        return 1
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".test"):
            os.remove(os.path.join(OUT, f))
    for n, name in enumerate(sorted(KERNELS, key=lambda k: (k in DEC2, k in S80R, k in S80MS, k in S80SK, k in MXT, k in DEC, k in S80CO, k in S80W, k in MXA, k in MXR, k in CTA2, k in S89, k in CPC, k in S80C, k in MXG, k in MX8, k in S80OUT, k in DCM, k in MX, k in S80, k in AP, k in CPA, k in RS, k in AFN, k in TORDER, k in CL4, k.startswith("uf_"), k in LATE, k in DIRECT, k in BLOCK, k in FP8, k))):
        source, what, extra = KERNELS[name]
        batched = source.endswith("batched.mlir") or "batched" in name
        fp8 = (name in FP8 or name in BLOCK or name.startswith("ds_f8")
               or name.startswith("uf_f8") or name in S89)
        base = list(FP8_BASE) if fp8 else [FULL, RAG1, RAG2, KSM, TINY]
        mx = name in MX or name in MX8 or name in MXG or name in MXR or name in MXA or (
            name in CTA2 and "_w" in name) or name in DEC or name in MXT or name in DEC2
        if mx:  # the packing's shapes only (MX_SHAPES)
            base = []
        shapes = [s + " --l 3" for s in base] + [FULL + " --l 1"] if batched \
            else list(base)
        shapes += extra
        if source.endswith("layouts.mlir") or "mmajor" in name:
            # An M-major A's rows are M long: TMA's 16-byte stride rule
            # needs M % 8 == 0 (shapes-refused.test checks the refusal).
            shapes = [s.replace("--m 777 ", "--m 776 ") for s in shapes]
        lines = ["# REQUIRES: gpu",
                 "# GENERATED by integration_test/utils/gen_run_tests.py; edit the table there.",
                 "# %s (%s): %s." % (name, sources[name], what)] + ([
                 "# Shapes (fp8): 256x256x128 (every element checked), 1000x3008x208",
                 "# and 777x1040x96 (ragged), K = 48 (under one k-tile), 8x16x16",
                 "# (smallest legal for 8-bit rows)%s." % (
                     ", L = 3 (and 1)" if batched else "")] if fp8 else [
                 "# Shapes: 256x256x128 (every element checked), 1000x3000x200 and",
                 "# 777x1032x96 (ragged: partial last tiles, more tiles than SMs),",
                 "# K = 40 (under one k-tile), 8x8x8 (smallest legal)%s." % (
                     ", L = 3 (and 1)" if batched else "")]) + [""]
        if mx:
            lines[3:] = ["# Shapes: M a multiple of 64 and K of 128 (the packing and its",
                         "# scale groups), ragged N (tokens): MX_SHAPES.", ""]
        for i, s in enumerate(shapes):
            lines.append("# RUN: %%run %%k/%s.json %s --seed %d"
                         % (name, s, 1000 * (n + 1) + i))
        with open(os.path.join(OUT, name + ".test"), "w") as f:
            f.write("\n".join(lines) + "\n")
    print("wrote %d tests to %s" % (len(KERNELS), OUT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
