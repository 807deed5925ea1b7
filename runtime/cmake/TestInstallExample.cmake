# ctest script: install the runtime component of BUILD_DIR into a scratch
# prefix, then configure and build runtime/examples against it with
# find_package(WsGemmRuntime), as an outside user would.
file(REMOVE_RECURSE ${WORK_DIR})
set(compiler_arg "")
if(CXX)
  set(compiler_arg -DCMAKE_CXX_COMPILER=${CXX})
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --component wsgemm-runtime
          --prefix ${WORK_DIR}/prefix
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed (${rc})")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${EXAMPLE_DIR} -B ${WORK_DIR}/build
          -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
          -DCUDAToolkit_ROOT=${CUDA_ROOT}
          # A sanitizer build installs instrumented libraries: the example
          # is built with the same compiler and sanitizer flags.
          ${compiler_arg}
          "-DCMAKE_CXX_FLAGS=${SANITIZER_FLAGS}"
          "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZER_FLAGS}"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the example failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the example failed (${rc})")
endif()
