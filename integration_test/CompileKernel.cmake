# Compiles one .mlir file of integration kernels with ws-gemm-compile into
# the shared kernel directory; used by integration_test/CMakeLists.txt as
#   cmake -DCOMPILER=... -DSOURCE=... -DOUTPUT_DIR=... -DLOG=... -DSTAMP=...
#         [-DPTXAS_DIR=...] [-DEXTRA_ARGS=a;b] -P CompileKernel.cmake
# plus the flags the source names (below).
# The compiler's output goes to LOG (a failure dumps the whole module); on
# failure the first lines are printed and the build fails.
if(PTXAS_DIR)
  # gpu-module-to-binary runs ptxas from PATH.
  set(ENV{PATH} "${PTXAS_DIR}:$ENV{PATH}")
endif()
file(MAKE_DIRECTORY ${OUTPUT_DIR})
# A source may name its own compile flags on a line
#   // ws-gemm-compile-flags: --chip=sm_80 --sass-arch=sm_90a
file(STRINGS ${SOURCE} flag_lines REGEX "^// ws-gemm-compile-flags: ")
foreach(line IN LISTS flag_lines)
  string(REGEX REPLACE "^// ws-gemm-compile-flags: " "" flags "${line}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  list(APPEND EXTRA_ARGS ${flags})
endforeach()
execute_process(
  COMMAND ${COMPILER} ${SOURCE} -o ${OUTPUT_DIR} --emit=all ${EXTRA_ARGS}
  OUTPUT_FILE ${LOG}
  ERROR_FILE ${LOG}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(STRINGS ${LOG} lines LIMIT_COUNT 25)
  list(JOIN lines "\n" head)
  message(FATAL_ERROR
    "ws-gemm-compile failed on ${SOURCE} (exit ${rc}); full log: ${LOG}\n${head}")
endif()
file(TOUCH ${STAMP})
