# SPDX-License-Identifier: BSD-3-Clause
# The discontinuous Galerkin face loop (seed 004, issue 24): reference elements, CPU loops,
# partition, simulated and CUDA launchers, planner, meshes, solver and the public API;
# its unit suites, the CPU benchmark, the GPU check and the memory-model microbenchmark.
list(APPEND HYB_CORE_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/faceloop/hyb_faceloop_basis.c
  ${PROJECT_SOURCE_DIR}/kernels/faceloop/hyb_faceloop_cpu.c
  ${PROJECT_SOURCE_DIR}/kernels/faceloop/hyb_faceloop_partition.c
  ${PROJECT_SOURCE_DIR}/kernels/faceloop/hyb_faceloop_sim.c
  ${PROJECT_SOURCE_DIR}/policies/faceloop/hyb_faceloop_plan.c
  ${PROJECT_SOURCE_DIR}/dispatch/faceloop/hyb_faceloop_mesh.c
  ${PROJECT_SOURCE_DIR}/dispatch/faceloop/hyb_faceloop_meshgen.c
  ${PROJECT_SOURCE_DIR}/dispatch/faceloop/hyb_faceloop_solver.c
  ${PROJECT_SOURCE_DIR}/dispatch/faceloop/hyb_faceloop_device.c
  ${PROJECT_SOURCE_DIR}/dispatch/faceloop/hyb_faceloop_api.c
)

list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_util.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_basis.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_mesh.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_partition.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_plan.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_kernels.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_solver.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_device.c
)

# libhyblas links the core as an archive, which brings in only objects something refers
# to: name one function of the public API so that its object (all of the family's
# exported functions) is linked and exported by the hyblas_* rule of the version script.
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL
               target_link_options hyblas PRIVATE "LINKER:--undefined=hyblas_faceloop_run")
install(FILES ${PROJECT_SOURCE_DIR}/include/hyblas/faceloop.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hyblas)

# The CPU benchmark of tools/bench/run_faceloop_bench.sh: the seed's cases through the public
# API, serial and OpenMP, checked, with the planner's predictions.
add_executable(hyb_bench_faceloop
  ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_faceloop.c
  ${PROJECT_SOURCE_DIR}/tools/bench/hyb_faceloop_cases.c)
target_include_directories(hyb_bench_faceloop PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_compile_options(hyb_bench_faceloop PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_bench_faceloop PRIVATE hyb_core OpenMP::OpenMP_C m)
# The device path through the public API on whatever device the process selects
# (tools/bench/run_faceloop_bench.sh runs it; exit 77 without one).
add_executable(hyb_faceloop_devcheck
  ${PROJECT_SOURCE_DIR}/tools/bench/hyb_faceloop_devcheck.c
  ${PROJECT_SOURCE_DIR}/tools/bench/hyb_faceloop_cases.c)
target_include_directories(hyb_faceloop_devcheck PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_compile_options(hyb_faceloop_devcheck PRIVATE ${HYB_WARNINGS})
# Linked as a program using the public API is: through libhyblas.so, whose start-up reads
# the configuration (HYBLAS_TRACE gives a line per run with the device run's parts).
target_link_libraries(hyb_faceloop_devcheck PRIVATE hyblas m)
if(HYB_BUILD_TESTS)
  # The device check end to end on the simulated device.
  add_test(NAME faceloop.devcheck_sim COMMAND hyb_faceloop_devcheck --quick)
  set_tests_properties(faceloop.devcheck_sim PROPERTIES LABELS unit TIMEOUT 300
                       ENVIRONMENT "HYBLAS_DEVICE=sim")
  # The benchmark script end to end at the smallest sizes (the GPU programs skip with 77
  # where there is no device).
  add_test(NAME faceloop.bench_quick
           COMMAND sh ${PROJECT_SOURCE_DIR}/tools/bench/run_faceloop_bench.sh --quick)
  set_tests_properties(faceloop.bench_quick PROPERTIES LABELS preload TIMEOUT 300
                       ENVIRONMENT "OUT=${CMAKE_BINARY_DIR}/faceloop_bench_quick;STAGE=${CMAKE_BINARY_DIR}")
endif()

# The CUDA launchers go into the CUDA plugin (no hyb_core symbol used in them).
list(APPEND HYB_CUDA_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/faceloop/hyb_faceloop_cuda.cu
  ${PROJECT_SOURCE_DIR}/kernels/faceloop/hyb_faceloop_launch_cuda.c
)

# The GPU check (tools/gpu_check_faceloop.cu: the launchers against the CPU face loop,
# registers, occupancy, times) and the memory-model microbenchmark; both exit 77 without
# a device.
if(HYB_HAVE_CUDA)
  add_executable(gpu_check_faceloop
    ${PROJECT_SOURCE_DIR}/tools/gpu_check_faceloop.cu
    ${PROJECT_SOURCE_DIR}/tools/bench/hyb_faceloop_cases.c
    ${PROJECT_SOURCE_DIR}/kernels/faceloop/hyb_faceloop_cuda.cu)
  set_target_properties(gpu_check_faceloop PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_include_directories(gpu_check_faceloop PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core
                             ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(gpu_check_faceloop PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp,-Wall>
    $<$<COMPILE_LANGUAGE:C>:${HYB_WARNINGS}>)
  target_link_libraries(gpu_check_faceloop PRIVATE hyb_core CUDA::cudart OpenMP::OpenMP_C m)

  add_executable(gpu_bench_memmodel ${PROJECT_SOURCE_DIR}/tools/bench/gpu_bench_memmodel.cu)
  set_target_properties(gpu_bench_memmodel PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_include_directories(gpu_bench_memmodel PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_options(gpu_bench_memmodel PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
  target_link_libraries(gpu_bench_memmodel PRIVATE CUDA::cudart)
  if(HYB_BUILD_TESTS)
    add_test(NAME gpu_check_faceloop COMMAND gpu_check_faceloop --quick)
    set_tests_properties(gpu_check_faceloop PROPERTIES LABELS gpu RESOURCE_LOCK gpu0
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
    add_test(NAME gpu_bench_memmodel COMMAND gpu_bench_memmodel --quick)
    set_tests_properties(gpu_bench_memmodel PROPERTIES LABELS gpu RESOURCE_LOCK gpu0
                         SKIP_RETURN_CODE 77 TIMEOUT 300)
  endif()
endif()
