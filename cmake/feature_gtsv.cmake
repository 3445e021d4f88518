# SPDX-License-Identifier: BSD-3-Clause
# Tridiagonal systems (seed 002, issue 5 phase 1): CPU Thomas/SPIKE kernels and checks, the
# gtsv policy (window, shares, chunks, throughput profile), the CUDA SPIKE kernels, their
# unit suites and the GPU check program.
list(APPEND HYB_CORE_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/cpu/hyb_gtsv_cpu.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_policy_gtsv.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_policy_gtsv_side.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_gtsv_hetero.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_gtsv_pin.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_gtsv_rates.c
  # the device kernels' registration and sim launchers
  ${PROJECT_SOURCE_DIR}/kernels/gtsv/hyb_gtsv_sim.c
)
list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/test_gtsv_cpu.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_policy_gtsv.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_gtsv_hetero.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_gtsv_pin.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_dispatch_gtsv.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_gtsv_util.c
)
# The unit suites compare against the real LAPACK dgtsv_/sgtsv_.
list(APPEND HYB_UNIT_TEST_LIBS lapack)

# The benchmark program of tools/bench/run_gtsv_bench.sh (LAPACK through the dynamic linker, so
# that LD_PRELOAD=libhyblas.so intercepts it; hyblas's kernels called directly).
add_executable(hyb_bench_gtsv ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_gtsv.c)
target_compile_options(hyb_bench_gtsv PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_bench_gtsv PRIVATE hyb_core lapack OpenMP::OpenMP_C m)
# Its long double max-reductions are 16-byte atomics under clang's libomp: libatomic's.
if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  target_link_libraries(hyb_bench_gtsv PRIVATE atomic)
endif()
if(HYB_BUILD_TESTS)
  # The benchmark script end to end on the simulated device (tiny sizes): dgtsv_/sgtsv_
  # through LD_PRELOAD=libhyblas.so in every configuration, each result against LAPACK's.
  add_test(NAME gtsv.bench_quick
           COMMAND bash ${PROJECT_SOURCE_DIR}/tools/bench/run_gtsv_bench.sh --quick)
  set_tests_properties(gtsv.bench_quick PROPERTIES LABELS preload TIMEOUT 300
                       ENVIRONMENT "OUT=${CMAKE_BINARY_DIR}/gtsv_bench_quick;STAGE=${CMAKE_BINARY_DIR}")
endif()

# The CUDA kernels go into the lead's plugin (no hyb_core symbols used in them).
list(APPEND HYB_CUDA_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/cuda/hyb_gtsv_cuda.cu
  ${PROJECT_SOURCE_DIR}/kernels/gtsv/hyb_gtsv_launch_cuda.c
)

# GPU check program (tools/gpu_check_gtsv.cu): correctness against the CPU reference and
# timing against cuSPARSE gtsv2_nopivot on a device; --emulate runs the kernels' phases on
# the host, which CTest does on every build (no device needed).
if(HYB_HAVE_CUDA)
  add_executable(gpu_check_gtsv
    ${PROJECT_SOURCE_DIR}/tools/gpu_check_gtsv.cu
    ${PROJECT_SOURCE_DIR}/kernels/cuda/hyb_gtsv_cuda.cu)
  set_target_properties(gpu_check_gtsv PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_include_directories(gpu_check_gtsv PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core)
  target_compile_options(gpu_check_gtsv PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp,-Wall>)
  # hyb_core is defined later by hyb_targets.cmake; the name resolves at generate time.
  target_link_libraries(gpu_check_gtsv PRIVATE hyb_core CUDA::cudart CUDA::cusparse)
  if(HYB_BUILD_TESTS)
    add_test(NAME gpu_check_gtsv.emulate COMMAND gpu_check_gtsv --emulate --quick)
    set_tests_properties(gpu_check_gtsv.emulate PROPERTIES LABELS unit TIMEOUT 300)
    add_test(NAME gpu_check_gtsv COMMAND gpu_check_gtsv)
    set_tests_properties(gpu_check_gtsv PROPERTIES LABELS gpu RESOURCE_LOCK gpu0
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endif()
