# SPDX-License-Identifier: BSD-3-Clause
# Tools: hyblas-run (a script), hyblas-calibrate, and the benchmark programs
# (ordinary BLAS programs that know nothing of hyblas).
find_library(HYB_BLAS_LIBRARY NAMES blas openblas REQUIRED)

configure_file(${PROJECT_SOURCE_DIR}/tools/hyblas-run.in ${CMAKE_BINARY_DIR}/hyblas-run @ONLY)
file(CHMOD ${CMAKE_BINARY_DIR}/hyblas-run PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
     GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

add_executable(hyblas-calibrate ${PROJECT_SOURCE_DIR}/tools/hyblas_calibrate.c)
target_compile_options(hyblas-calibrate PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyblas-calibrate PRIVATE hyb_core ${HYB_BLAS_LIBRARY})

add_executable(hyb_bench_gemm ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_gemm.c)
target_link_libraries(hyb_bench_gemm PRIVATE ${HYB_BLAS_LIBRARY} OpenMP::OpenMP_C m ${CMAKE_DL_LIBS})
if(HYB_BUILD_TESTS)
  # The GEMM benchmark script end to end on the simulated device (n = 256 and 512): the CPU
  # library alone, then auto, forced device and forced CPU in turns under LD_PRELOAD, every
  # product checked, and the report (with the paired auto ratios) written from the CSV.
  add_test(NAME gemm.bench_quick
           COMMAND bash -c "rm -f \"$OUT/gemm.csv\" && tools/bench/run_gemm_bench.sh tools/bench/gemm_tiny.txt >/dev/null && grep -q '^hyblas-cpu,' \"$OUT/gemm.csv\" && grep -q '^# pair,' \"$OUT/gemm.csv\" && grep -q 'results checked: all correct' \"$OUT/gemm_report.md\""
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(gemm.bench_quick PROPERTIES LABELS preload TIMEOUT 300
                       ENVIRONMENT "OUT=${CMAKE_BINARY_DIR}/gemm_bench_quick;STAGE=${CMAKE_BINARY_DIR};PARTS=cpu hyblas;HYBLAS_DEVICE=sim")
endif()

# Probe of the host memory bus (tools/gpu_probe_bus.cu): cores alone, copy engines alone,
# both at once, page registration; run on the GPU machine to ground the split models.
if(HYB_HAVE_CUDA)
  add_executable(gpu_probe_bus ${PROJECT_SOURCE_DIR}/tools/gpu_probe_bus.cu)
  set_target_properties(gpu_probe_bus PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_compile_options(gpu_probe_bus PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp,-Wall>)
  target_link_libraries(gpu_probe_bus PRIVATE CUDA::cudart OpenMP::OpenMP_C)
endif()
