// REQUIRES: ptxas
// examples/mlp_linalg.mlir, a transformer MLP block in linalg, goes to two
// cubins: ws-gemm-compile runs --wsgemm-from-linalg first. The manifests
// name the epilogue the front end built: bias + GELU (epi.gelu, raised from
// the erf formula) for the
// up-projection, bias + residual (an aux matrix) for the down-projection.
// The two-step form (ws-gemm-opt, then ws-gemm-compile) gives the same
// kernels.

// RUN: rm -rf %t && mkdir -p %t
// RUN: ws-gemm-compile %examples/mlp_linalg.mlir -o %t/one 2>&1 | count 0
// RUN: test -s %t/one/mlp_gemm0.cubin && test -s %t/one/mlp_gemm1.cubin
// RUN: FileCheck %s --check-prefix=UP < %t/one/mlp_gemm0.json
// RUN: FileCheck %s --check-prefix=DOWN < %t/one/mlp_gemm1.json
// RUN: ws-gemm-opt --wsgemm-from-linalg %examples/mlp_linalg.mlir -o %t/kernels.mlir
// RUN: ws-gemm-compile %t/kernels.mlir -o %t/two --emit=ptx
// RUN: diff %t/one/mlp_gemm0.ptx %t/two/mlp_gemm0.ptx
// RUN: diff %t/one/mlp_gemm1.json %t/two/mlp_gemm1.json

// UP:      "op": "load_vec_n"
// UP:      "op": "gelu"
// UP:      "op": "store"
// UP:      "kernel": "mlp_gemm0"
// UP:      "operands": {
// UP-NEXT:   "A": {
// UP-NEXT:     "align_bytes": 16,
// UP-NEXT:     "dtype": "f16",
// UP-NEXT:     "layout": "k_major",
// UP-NEXT:     "load": "tma"
// UP:        "B": {
// UP-NEXT:     "align_bytes": 16,
// UP-NEXT:     "dtype": "f16",
// UP-NEXT:     "layout": "n_major",
// UP-NEXT:     "load": "tma"
// UP:        "D": {
// UP-NEXT:     "dtype": "f16",
// UP:      "name": "vec_n0"

// DOWN:    "name": "vec_n0"
// DOWN:    "name": "aux0"
// DOWN:    "op": "aux_load"
// DOWN:    "op": "add"
// DOWN:    "op": "add"
// DOWN:    "op": "store"
// DOWN:    "kernel": "mlp_gemm1"
