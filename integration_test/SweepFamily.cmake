# Sweeps one .mlir into a kernel family with ws-gemm-sweep (replacing what
# was there); used by integration_test/CMakeLists.txt as
#   cmake -DSWEEP=... -DSOURCE=... -DOUTPUT_DIR=... -DLOG=... -DSTAMP=...
#         "-DARGS=--tiles 128x128 --schedules auto" -P SweepFamily.cmake
# On failure the last lines of the log are printed and the build fails.
separate_arguments(args UNIX_COMMAND "${ARGS}")
file(REMOVE_RECURSE ${OUTPUT_DIR})
execute_process(
  COMMAND ${SWEEP} ${SOURCE} -o ${OUTPUT_DIR} ${args}
  OUTPUT_FILE ${LOG}
  ERROR_FILE ${LOG}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(STRINGS ${LOG} lines)
  list(LENGTH lines n)
  math(EXPR first "${n} - 25")
  if(first LESS 0)
    set(first 0)
  endif()
  list(SUBLIST lines ${first} 25 tail)
  list(JOIN tail "\n" text)
  message(FATAL_ERROR
    "ws-gemm-sweep failed on ${SOURCE} (exit ${rc}); full log: ${LOG}\n${text}")
endif()
file(TOUCH ${STAMP})
