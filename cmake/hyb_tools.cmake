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

# The registered device kernels and which backend implements each (no device started).
# The core is linked whole so that every family's registration is in the table.
add_executable(hyb_kernels ${PROJECT_SOURCE_DIR}/tools/hyb_kernels.c)
set_target_properties(hyb_kernels PROPERTIES OUTPUT_NAME hyb-kernels)
target_compile_options(hyb_kernels PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_kernels PRIVATE -Wl,--whole-archive hyb_core -Wl,--no-whole-archive hyb_core)
if(HYB_BUILD_TESTS)
  # Every kernel of the families has a sim launcher, and, when the plugin is built, a CUDA one.
  set(HYB_FAMILY_KERNELS l3.gemm,l3.trsm,l3.trmm,spmv.ell,spmv.dia,spmv.csr,spmv.vadd,gtsv.spike,gtsv.pivots)
  add_test(NAME tool.kernels_sim COMMAND hyb_kernels --check --expect ${HYB_FAMILY_KERNELS})
  set_tests_properties(tool.kernels_sim PROPERTIES LABELS unit)
  if(HYB_HAVE_CUDA)
    add_test(NAME tool.kernels_cuda COMMAND hyb_kernels --check --expect ${HYB_FAMILY_KERNELS}
                                            --plugin $<TARGET_FILE:hyblas_cuda>)
    set_tests_properties(tool.kernels_cuda PROPERTIES LABELS unit)
  endif()
endif()

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

# The never-slower benchmark (dgemm, the MKL sparse product, dgtsv: auto against the real
# library and the best forced path): small sizes on the simulated device, where it checks
# that every part runs and every result is right; and the real measurement, which needs a
# CUDA device (skipped without one) and fails where auto is slower.
if(HYB_BUILD_TESTS)
  foreach(kind quick gpu)
    set(args "")
    set(labels gpu)
    if(kind STREQUAL "quick")
      set(args --quick)
      set(labels perf)
    endif()
    add_test(NAME perf.never_slower.${kind}
             COMMAND bash ${PROJECT_SOURCE_DIR}/tools/bench/run_never_slower.sh ${args}
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(perf.never_slower.${kind} PROPERTIES LABELS ${labels} TIMEOUT 900 RUN_SERIAL ON
                         SKIP_RETURN_CODE 77
                         ENVIRONMENT "OUT=${CMAKE_BINARY_DIR}/never_slower_${kind};STAGE=${CMAKE_BINARY_DIR};XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/tests/xdg-cache")
  endforeach()
  set_tests_properties(perf.never_slower.gpu PROPERTIES RESOURCE_LOCK gpu0)
endif()

# The device runtime on the GPU machine (every kernel bound, many streams, device copies,
# launches on any stream, attributes, faults by name); exits 77 without a CUDA device.
add_executable(gpu_check_runtime ${PROJECT_SOURCE_DIR}/tools/gpu_check_runtime.c)
target_compile_options(gpu_check_runtime PRIVATE ${HYB_WARNINGS})
target_link_libraries(gpu_check_runtime PRIVATE -Wl,--whole-archive hyb_core -Wl,--no-whole-archive hyb_core m)
if(HYB_BUILD_TESTS)
  add_test(NAME gpu_check_runtime COMMAND gpu_check_runtime)
  set_tests_properties(gpu_check_runtime PROPERTIES LABELS gpu RESOURCE_LOCK gpu0
                       SKIP_RETURN_CODE 77 TIMEOUT 300)
  add_test(NAME gpu_check_runtime.sim COMMAND gpu_check_runtime --sim)
  set_tests_properties(gpu_check_runtime.sim PROPERTIES LABELS unit TIMEOUT 300)
endif()

# Probe of the host memory bus (tools/gpu_probe_bus.cu): cores alone, copy engines alone,
# both at once, page registration; run on the GPU machine to ground the split models.
if(HYB_HAVE_CUDA)
  add_executable(gpu_probe_bus ${PROJECT_SOURCE_DIR}/tools/gpu_probe_bus.cu)
  set_target_properties(gpu_probe_bus PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_compile_options(gpu_probe_bus PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp,-Wall>)
  target_include_directories(gpu_probe_bus PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(gpu_probe_bus PRIVATE CUDA::cudart OpenMP::OpenMP_C)
  # PCIe's two directions at once, downloads paced (the stencil's bus-bound plans).
  add_executable(gpu_probe_duplex ${PROJECT_SOURCE_DIR}/tools/gpu_probe_duplex.cu)
  set_target_properties(gpu_probe_duplex PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_include_directories(gpu_probe_duplex PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(gpu_probe_duplex PRIVATE CUDA::cudart)
  # Whether a slow transfer is a slow moment or slow host memory (the processes' spread).
  add_executable(gpu_probe_bus_time ${PROJECT_SOURCE_DIR}/tools/gpu_probe_bus_time.cu)
  set_target_properties(gpu_probe_bus_time PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_include_directories(gpu_probe_bus_time PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(gpu_probe_bus_time PRIVATE CUDA::cudart)
  # A page-locked upload after the device was idle (the face loop's state trip).
  add_executable(gpu_probe_wake ${PROJECT_SOURCE_DIR}/tools/gpu_probe_wake.cu)
  set_target_properties(gpu_probe_wake PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_compile_options(gpu_probe_wake PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp,-Wall>)
  target_link_libraries(gpu_probe_wake PRIVATE CUDA::cudart OpenMP::OpenMP_C)
endif()
