"""README's Python snippet ("From PyTorch"), run by
test/Python/readme.test on stand-in arrays (no GPU: the launch stops at the
driver, after every check passed). The snippet is the part between the
markers; test/docs/readme-snippets.test keeps README's copy equal."""

import os
import sys

from fakes import Allocator

# [snippet:python]
import ws_gemm


def gemm_bias_relu(mlir_text, a, b, c, d, bias, stream=None):
    """d = relu(a @ b.T + 0.5 * c + bias[:, None]) on torch CUDA tensors
    (anything with DLPack or __cuda_array_interface__)."""
    try:
        (compiled,) = ws_gemm.compile(mlir_text, name="gemm_relu.mlir")
    except ws_gemm.CompileError as e:
        for diag in e.diagnostics:  # severity, file, line, column, message
            print(diag)
        raise
    kernel = compiled.load()  # or ws_gemm.Kernel.load("out/gemm_bias_relu.json")
    print(kernel.operands["B"], kernel.scalars)  # from the manifest
    # Shapes, dtypes and strides are checked against the manifest first
    # (ws_gemm.ArgumentError says which argument breaks which rule).
    kernel.launch(a, b, d, c, bias=bias, alpha=1.0, beta=0.5, stream=stream)
# [/snippet:python]


def main():
    with open(os.path.join(os.environ["WSGEMM_EXAMPLES"], "gemm_relu.mlir")) as f:
        text = f.read()
    new = Allocator()
    M, N, K = 1000, 3000, 200
    try:
        gemm_bias_relu(text, new((M, K)), new((N, K)), new((M, N)),
                       new((M, N)), new((M,)))
    except (ws_gemm.NoDriverError, ws_gemm.CudaError) as e:
        print("launch: %s: %s" % (type(e).__name__, e))
    try:
        gemm_bias_relu("wsgemm.gemm @k a(f16) b(f16) d(f16) {\n}\n",
                       None, None, None, None, None)
    except ws_gemm.CompileError as e:
        print("raised:", type(e).__name__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
