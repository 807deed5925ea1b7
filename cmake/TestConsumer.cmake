# ctest script: install the compiler component (find_package(WsGemm)) of
# BUILD_DIR into a scratch prefix, configure and build examples/consumer
# against it as a project outside this tree would, and run both programs
# on EXAMPLE (the C++ and the C entry).
file(REMOVE_RECURSE ${WORK_DIR})
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()
function(expect text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "expected /${pattern}/ in:\n${text}")
  endif()
endfunction()

run("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --component wsgemm
    --prefix ${WORK_DIR}/prefix)
run("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR}
    -B ${WORK_DIR}/build -G Ninja -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    ${LAUNCHER_ARGS})
run("building the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)

run("consumer-cpp" ${WORK_DIR}/build/consumer-cpp ${EXAMPLE})
expect("${output}" "config #wsgemm.config<tile = \\[128, 128, 64\\]")
expect("${output}" "kernel gemm_bias_relu: [0-9]+ bytes of PTX, manifest of [0-9]+ bytes")
run("consumer-c" ${WORK_DIR}/build/consumer-c ${EXAMPLE})
expect("${output}" "dialect wsgemm")
expect("${output}" "kernel gemm_bias_relu: [0-9]+ bytes of PTX")
expect("${output}" "bad.mlir:1:[0-9]+: error: ")
# The installed tools start (their RUNPATH finds libMLIR.so).
run("installed ws-gemm-opt" ${WORK_DIR}/prefix/bin/ws-gemm-opt --wsgemm-prepare ${EXAMPLE})
expect("${output}" "wsgemm.gemm @gemm_bias_relu")
message(STATUS "consumer built against ${WORK_DIR}/prefix and ran")
