# SPDX-License-Identifier: BSD-3-Clause
# Exact 0-1 knapsack (seed 003 ch. 2, issue 23): the public API, CPU methods, the
# branch-and-bound drivers over the family's device interface and its host stand-in, the
# planner, the CUDA kernels, the instance generators, tests and the GPU check program.
list(APPEND HYB_CORE_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_core.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_items.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_cpu.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_sim.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_ring.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_hostdev.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_devrt.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_search.c
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_dpdev.c
  ${PROJECT_SOURCE_DIR}/policies/knapsack/hyb_knapsack_plan.c
  ${PROJECT_SOURCE_DIR}/dispatch/knapsack/hyb_knapsack_solve.c
)

# Device kernels for the CUDA plugin (registered by id when the runtime's launch lands).
list(APPEND HYB_CUDA_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_cuda.cu
)

list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/test_knapsack_util.c
  ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/test_knapsack_cpu.c
  ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/test_knapsack_sim.c
  ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/test_knapsack_search.c
  ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/test_knapsack_plan.c
  ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/test_knapsack_api.c
  ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/test_knapsack_devrt.c
)

# The instance generators: a static library for the tests, the GPU check and benchmarks
# (a test tool, not part of the library or its API).
add_library(hyb_knapsack_gen STATIC ${PROJECT_SOURCE_DIR}/tools/knapsack/hyb_knapsack_gen.c)
target_include_directories(hyb_knapsack_gen PUBLIC
  ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/include)
target_compile_options(hyb_knapsack_gen PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_knapsack_gen PUBLIC m)
list(APPEND HYB_UNIT_TEST_LIBS hyb_knapsack_gen)

# libhyblas links the core archive without --whole-archive: pull the API's object in, so
# hyblas_knapsack_solve is exported (the version script exports hyblas_*).
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL target_link_options hyblas PRIVATE
               "LINKER:--undefined=hyblas_knapsack_solve")
# hyblas_ext.h includes this header: install it beside.
install(FILES ${PROJECT_SOURCE_DIR}/include/hyblas/knapsack.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hyblas)

# The table behind AUTO's probe rule: each seed instance's core beside a CPU B&B's nodes.
add_executable(hyb_knapsack_cores ${PROJECT_SOURCE_DIR}/tools/knapsack/hyb_knapsack_cores.c)
target_include_directories(hyb_knapsack_cores PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_compile_options(hyb_knapsack_cores PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_knapsack_cores PRIVATE -Wl,--whole-archive hyb_core -Wl,--no-whole-archive
                      hyb_core hyb_knapsack_gen OpenMP::OpenMP_C m)

if(HYB_BUILD_TESTS)
  # Black box: a program linked to libhyblas alone calls the exported API.
  add_executable(hyb_knapsack_app ${PROJECT_SOURCE_DIR}/tests/unit/knapsack/knapsack_app.c)
  target_include_directories(hyb_knapsack_app PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(hyb_knapsack_app PRIVATE ${HYB_WARNINGS})
  target_link_libraries(hyb_knapsack_app PRIVATE hyblas)
  add_test(NAME knapsack.app_exported COMMAND hyb_knapsack_app)
  set_tests_properties(knapsack.app_exported PROPERTIES LABELS unit ENVIRONMENT "HYBLAS_DEVICE=sim")
  set(HYB_KNAPSACK_TRACE ${CMAKE_CURRENT_BINARY_DIR}/knapsack_app.trace)
  add_test(NAME knapsack.app_traced COMMAND hyb_knapsack_app ${HYB_KNAPSACK_TRACE})
  set_tests_properties(knapsack.app_traced PROPERTIES LABELS unit
                       ENVIRONMENT "HYBLAS_DEVICE=sim;HYBLAS_TRACE=${HYB_KNAPSACK_TRACE}")
  # The seven kernels are registered with a sim launcher and, with the plugin, a CUDA one.
  set(HYB_KNAPSACK_KERNELS
      knapsack.branch,knapsack.bound,knapsack.reduce_max,knapsack.label,knapsack.compact,knapsack.gather,knapsack.dp_row)
  add_test(NAME knapsack.kernels_sim COMMAND hyb_kernels --check --expect ${HYB_KNAPSACK_KERNELS})
  set_tests_properties(knapsack.kernels_sim PROPERTIES LABELS unit)
  if(HYB_HAVE_CUDA)
    add_test(NAME knapsack.kernels_cuda COMMAND hyb_kernels --check --expect ${HYB_KNAPSACK_KERNELS}
                                                --plugin $<TARGET_FILE:hyblas_cuda>)
    set_tests_properties(knapsack.kernels_cuda PROPERTIES LABELS unit)
  endif()
endif()

# GPU check program (run by hand on the GPU machine; exits 77 without a device).
if(HYB_HAVE_CUDA)
  add_executable(gpu_check_knapsack
    ${PROJECT_SOURCE_DIR}/tools/gpu_check_knapsack.cu
    ${PROJECT_SOURCE_DIR}/kernels/knapsack/hyb_knapsack_cuda.cu)
  target_include_directories(gpu_check_knapsack PRIVATE
    ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/include)
  set_target_properties(gpu_check_knapsack PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_link_libraries(gpu_check_knapsack PRIVATE hyb_knapsack_gen hyb_core CUDA::cudart)
  # Its last part runs the public API through the device runtime: the plugin beside it.
  add_dependencies(gpu_check_knapsack hyblas_cuda)
  if(HYB_BUILD_TESTS)
    add_test(NAME gpu_check_knapsack COMMAND gpu_check_knapsack --quick)
    set_tests_properties(gpu_check_knapsack PROPERTIES LABELS gpu RESOURCE_LOCK gpu0
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endif()
