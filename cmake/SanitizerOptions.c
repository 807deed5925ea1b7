/*===- SanitizerOptions.c - ASan defaults of the sanitizer build ----------===*
 *
 * Linked into every executable of a WSGEMM_SANITIZE build (CMakeLists.txt).
 * Debian's LLVM and MLIR libraries are not instrumented, but the LLVM
 * headers we compile are: llvm::BumpPtrAllocator, inlined into our code,
 * poisons each new slab by hand and unpoisons what it hands out, while
 * the same allocator's code in libMLIR (MLIR's attribute and type
 * uniquer, shared by every dialect) hands out memory from that slab
 * without unpoisoning it. Every later write there would be reported
 * (use-after-poison in mlir::FileLineColRange::get, found by the parse
 * fuzzer on its first seeds), so manual poisoning is off; the compiler's
 * own checks (heap, stack and global bounds, use after free, UBSan) stay.
 * ASAN_OPTIONS in the environment still adds to or overrides this.
 *
 *===----------------------------------------------------------------------===*/

const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allow_user_poisoning=0"; }
