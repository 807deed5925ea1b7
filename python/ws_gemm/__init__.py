"""ws_gemm: ws-gemm from Python (standard library only, over ctypes).

    import ws_gemm
    k = ws_gemm.compile(open("gemm_relu.mlir").read())[0].load()
    k.launch(a, b, d, c, bias=bias, alpha=1.0, beta=0.5)  # torch CUDA tensors

- compile(text, ...) runs the compiler (libWsGemmCAPI.so) in memory and
  returns the kernels (for the GPU present, device_chip(), unless chip=
  says), or raises CompileError with located diagnostics; a
  gemm without a config comes back as its default family (CompiledFamily,
  whose load() is a KernelFamily); results are cached on disk
  (cache_dir());
- Kernel.load(manifest) / Kernel.from_memory(json, cubin) load a kernel
  through the runtime (libWsGemmRuntimeC.so, no MLIR); its manifest is
  queryable (operands, params, scalars, tile, ...);
- Kernel.launch(a, b, d, c=None, stream=None, **buffers_and_scalars) takes
  anything exposing DLPack or __cuda_array_interface__, checks shapes,
  dtypes and strides against the manifest and launches; validate() checks
  without a GPU;
- KernelFamily(family.json, tuning=None) picks the variant per shape;
- torch_op(kernel_or_family) makes it a torch.library custom op (fake
  implementation included) for torch.compile and CUDA graphs.
Errors: ArgumentError (refused before launch), ManifestError,
NoDriverError (no NVIDIA driver), CudaError, CompileError.
"""

from ._compile import (CompiledFamily, CompiledKernel, CompileResult,
                       cache_dir, compile)
from ._errors import (ArgumentError, CompileError, CudaError, Diagnostic,
                      ManifestError, NoDriverError, WsGemmError)
from ._kernel import Kernel, KernelFamily, Operand, Param, Problem, Selection
from ._prepack import prepack_b8, prepack_i4, unpack_b8, unpack_i4
from ._runtime import device_chip, init_device, synchronize
from ._tensors import TensorInfo, tensor_info
from ._torch import torch_op

__version__ = "0.1"

__all__ = [
    "ArgumentError", "CompileError", "CompiledFamily", "CompiledKernel",
    "CompileResult", "cache_dir",
    "CudaError", "Diagnostic", "Kernel", "KernelFamily", "ManifestError",
    "NoDriverError", "Operand", "Param", "Problem", "Selection", "TensorInfo",
    "prepack_b8", "prepack_i4", "unpack_b8", "unpack_i4",
    "WsGemmError", "compile", "device_chip", "init_device", "synchronize",
    "tensor_info",
    "torch_op",
]
