# SPDX-License-Identifier: BSD-3-Clause
# Sparse matrix-vector products (seed 001, issue 4): CPU kernels, formats, cost model,
# CUDA kernels, the seed-like matrix generator, its CLI and the GPU check program.
list(APPEND HYB_CORE_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/cpu/hyb_spmv_format.c
  ${PROJECT_SOURCE_DIR}/kernels/cpu/hyb_spmv_cpu.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_policy_spmv.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_policy_spmv_pick.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_spmv_cpu_pick.c
  # phase 2: the device paths (dispatch/hyb_dispatch_spmv.c itself is in hyb_core.cmake)
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_spmv_device.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_spmv_bg.c
  ${PROJECT_SOURCE_DIR}/dispatch/hyb_spmv_rates.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_spmv_build.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_spmv_pipe.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_spmv_copy.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_spmv_todia.c
  ${PROJECT_SOURCE_DIR}/kernels/pipeline/hyb_spmv_yreg.c
  # the device kernels' registration and sim launchers
  ${PROJECT_SOURCE_DIR}/kernels/spmv/hyb_spmv_sim.c
)

# Device kernels for the CUDA plugin (C-callable, no dependency on hyb_core).
list(APPEND HYB_CUDA_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/cuda/hyb_spmv_cuda.cu
  ${PROJECT_SOURCE_DIR}/kernels/spmv/hyb_spmv_launch_cuda.c
)

list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_cpu.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_format.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_policy_spmv.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_policy_spmv_pick.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_util.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_dispatch.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_resident.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_faults.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_bg.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_bg_seccomp.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_copy.c
  ${PROJECT_SOURCE_DIR}/tests/unit/test_spmv_xsum.c
)

# The matrix generator: a small static library shared by the unit tests, the CLI and the
# GPU check (it is a test tool, so it stays out of the core library; it borrows the core's
# prefix sum).
add_library(hyb_spmv_gen STATIC ${PROJECT_SOURCE_DIR}/tools/hyb_spmv_gen.c)
target_include_directories(hyb_spmv_gen PUBLIC
  ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/include)
target_compile_options(hyb_spmv_gen PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_spmv_gen PUBLIC hyb_core OpenMP::OpenMP_C m)
list(APPEND HYB_UNIT_TEST_LIBS hyb_spmv_gen)

add_executable(hyb_spmv_gen_cli ${PROJECT_SOURCE_DIR}/tools/hyb_spmv_gen_main.c)
set_target_properties(hyb_spmv_gen_cli PROPERTIES OUTPUT_NAME hyb-spmv-gen)
target_compile_options(hyb_spmv_gen_cli PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_spmv_gen_cli PRIVATE hyb_spmv_gen hyb_core)
if(HYB_BUILD_TESTS)
  # every generated matrix at 1 % scale: sizes, sorted distinct columns, diagonal statistics
  add_test(NAME tool.spmv_gen COMMAND hyb_spmv_gen_cli --scale 0.01)
  set_tests_properties(tool.spmv_gen PROPERTIES LABELS unit TIMEOUT 120)
endif()

# Black-box tests: a plain program calling the MKL symbols under LD_PRELOAD (sim device).
if(HYB_BUILD_TESTS)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tests/spmv ${CMAKE_BINARY_DIR}/tests/spmv)
endif()

# The benchmark (tools/bench/run_spmv_bench.sh runs it on the GPU machine): the dispatcher
# in-process with forced runs, the generator's matrices, cuSPARSE as the reference.
if(HYB_HAVE_CUDA)
  add_executable(hyb_bench_spmv ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_spmv.c
                                ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_spmv_cusparse.cu)
  set_target_properties(hyb_bench_spmv PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_link_libraries(hyb_bench_spmv PRIVATE CUDA::cudart CUDA::cusparse)
else()
  add_executable(hyb_bench_spmv ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_spmv.c
                                ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_spmv_cusparse_stub.c)
endif()
target_compile_options(hyb_bench_spmv PRIVATE $<$<COMPILE_LANGUAGE:C>:${HYB_WARNINGS}>)
# hyb_core is defined later by hyb_targets.cmake; the name resolves at generate time.
target_link_libraries(hyb_bench_spmv PRIVATE hyb_spmv_gen hyb_core OpenMP::OpenMP_C m)
# issue 25's call-count sweep (auto against the single paths, staging against the bus)
add_executable(hyb_bench_spmv_calls ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_spmv_calls.c)
target_compile_options(hyb_bench_spmv_calls PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_bench_spmv_calls PRIVATE hyb_spmv_gen hyb_core OpenMP::OpenMP_C m)
if(HYB_BUILD_TESTS)
  # the benchmark script end to end at small sizes on the simulated device
  add_test(NAME spmv.bench_quick
           COMMAND sh ${PROJECT_SOURCE_DIR}/tools/bench/run_spmv_bench.sh --quick)
  set_tests_properties(spmv.bench_quick PROPERTIES
    ENVIRONMENT "OUT=${CMAKE_BINARY_DIR}/spmv_bench_quick;STAGE=${CMAKE_BINARY_DIR};HYB_SRC=${PROJECT_SOURCE_DIR}"
    LABELS "preload" TIMEOUT 600)
  add_test(NAME spmv.calls_quick
           COMMAND sh ${PROJECT_SOURCE_DIR}/tools/bench/run_spmv_calls_bench.sh --quick)
  set_tests_properties(spmv.calls_quick PROPERTIES
    ENVIRONMENT "OUT=${CMAKE_BINARY_DIR}/spmv_calls_quick;STAGE=${CMAKE_BINARY_DIR}"
    LABELS "perf" TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()

# GPU check program (run by hand on the GPU machine; exits 77 without a device).
if(HYB_HAVE_CUDA)
  add_executable(gpu_check_spmv
    ${PROJECT_SOURCE_DIR}/tools/gpu_check_spmv.cu
    ${PROJECT_SOURCE_DIR}/kernels/cuda/hyb_spmv_cuda.cu)
  target_include_directories(gpu_check_spmv PRIVATE
    ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/include)
  set_target_properties(gpu_check_spmv PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_compile_options(gpu_check_spmv PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
  target_link_libraries(gpu_check_spmv PRIVATE hyb_spmv_gen hyb_core CUDA::cudart CUDA::cusparse
                        OpenMP::OpenMP_C)
  if(HYB_BUILD_TESTS)
    add_test(NAME gpu_check_spmv COMMAND gpu_check_spmv)
    set_tests_properties(gpu_check_spmv PROPERTIES LABELS gpu RESOURCE_LOCK gpu0
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endif()
