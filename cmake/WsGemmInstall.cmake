# Install rules and the CMake package of the ws-gemm compiler (component
# `wsgemm`; the runtime has its own package and component, wsgemm-runtime,
# in runtime/CMakeLists.txt). `cmake --install BUILD --component wsgemm
# --prefix P` gives
#   P/include/ws-gemm/...       headers and the generated .h.inc/.td
#   P/include/ws-gemm-c/...     the C API
#   P/lib/libWsGemm*.a          dialect, pass, conversion, pipeline, driver
#   P/lib/libWsGemmCAPI.so      the C API, and libWsGemmMLIRCAPI.so: MLIR's C API
#   P/bin/ws-gemm-{opt,compile,lsp-server}
#   P/lib/cmake/WsGemm/         WsGemmConfig.cmake: find_package(WsGemm)
# Package and target names follow the runtime's: package WsGemm (any case:
# the config file is also installed as wsgemm-config.cmake, so
# find_package(WSGemm) works too), targets in the wsgemm:: namespace.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WSGEMM_VERSION 0.1)
set(WSGEMM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/WsGemm)

# Every library add_mlir_library defined (a new one is exported without
# further ado), plus the C API. Exported as wsgemm::<name>: the names below
# for the existing ones, the target's own name for any other.
get_property(_wsgemm_targets GLOBAL PROPERTY MLIR_EXPORTS)
list(APPEND _wsgemm_targets WsGemmCAPI WsGemmMLIRCAPI)
list(REMOVE_DUPLICATES _wsgemm_targets)
set(_wsgemm_export_names
  WsGemmEpi=epi WsGemmDialect=dialect WsGemmEpiTransforms=epi_transforms
  WsGemmTransforms=transforms WsGemmEvtVisit=evt_visit
  WsGemmCollectives=collectives WsGemmToNVVM=to_nvvm
  WsGemmPipelines=pipelines WsGemmRegisterAllDialects=register_all_dialects
  WsGemmRegisterAllPasses=register_all_passes WsGemmDriver=driver
  WsGemmCAPI=capi WsGemmMLIRCAPI=mlir_capi)
foreach(target ${_wsgemm_targets})
  set(name ${target})
  foreach(pair ${_wsgemm_export_names})
    if(pair MATCHES "^${target}=(.*)$")
      set(name ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  # Headers: ours, then MLIR's and LLVM's (absolute: the installed package
  # uses the MLIR it was built with). C++ users get LLVM's -fno-rtti.
  target_include_directories(${target} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  foreach(dir ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
    target_include_directories(${target} INTERFACE $<INSTALL_INTERFACE:${dir}>)
  endforeach()
  if(NOT target MATCHES "CAPI$" AND NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} INTERFACE
      $<INSTALL_INTERFACE:$<$<COMPILE_LANGUAGE:CXX>:-fno-rtti>>)
  endif()
endforeach()

install(TARGETS ${_wsgemm_targets}
  EXPORT WsGemmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT wsgemm
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT wsgemm)

# The tools find libMLIR.so (not on the loader's path in Debian's layout)
# through their RUNPATH once installed too.
set(WSGEMM_INSTALLED_TOOLS ws-gemm-opt ws-gemm-compile ws-gemm-lsp-server)
set_target_properties(${WSGEMM_INSTALLED_TOOLS} PROPERTIES
  INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")
install(TARGETS ${WSGEMM_INSTALLED_TOOLS}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT wsgemm)

install(DIRECTORY include/ws-gemm include/ws-gemm-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT wsgemm
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
  PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/ws-gemm
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT wsgemm
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT WsGemmTargets NAMESPACE wsgemm::
  DESTINATION ${WSGEMM_CMAKE_DIR} COMPONENT wsgemm)
configure_package_config_file(cmake/WsGemmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/WsGemmConfig.cmake
  INSTALL_DESTINATION ${WSGEMM_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/WsGemmConfigVersion.cmake
  VERSION ${WSGEMM_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/WsGemmConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/WsGemmConfigVersion.cmake
  DESTINATION ${WSGEMM_CMAKE_DIR} COMPONENT wsgemm)
# The same files under the lower-case names find_package accepts for any
# spelling of the package name.
install(FILES ${PROJECT_BINARY_DIR}/cmake/WsGemmConfig.cmake
  DESTINATION ${WSGEMM_CMAKE_DIR} RENAME wsgemm-config.cmake COMPONENT wsgemm)
install(FILES ${PROJECT_BINARY_DIR}/cmake/WsGemmConfigVersion.cmake
  DESTINATION ${WSGEMM_CMAKE_DIR} RENAME wsgemm-config-version.cmake
  COMPONENT wsgemm)
