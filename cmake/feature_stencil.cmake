# SPDX-License-Identifier: BSD-3-Clause
# The out-of-core stencil engine (seed 003 ch. 3, issue 21): CPU kernels, oracle, data sets,
# schedule, hazard tracker, executor and simulated-device launchers; the planner and cost
# model; the public API's implementation; its unit suites, CUDA launchers and GPU check.
set(HYB_STENCIL_CORE_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_cpu.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_prob.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_oracle.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_data.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_sched.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_track.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_order.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_exec.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_sim.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_kernels.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_cpurun.c
  ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_zfp.c
)
list(APPEND HYB_CORE_SOURCES ${HYB_STENCIL_CORE_SOURCES}
  ${PROJECT_SOURCE_DIR}/policies/stencil/hyb_stencil_model.c
  ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_check.c
  ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_plan.c
  ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_device.c
  ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_hostq.c
  ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_keep.c
  ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_timeline.c
  ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_zfill.c
)
# The exported entry points go with the shim's objects, which libhyblas links whole: nothing
# inside the library calls them, so from the core archive the linker would leave them out.
list(APPEND HYB_SHIM_SOURCES ${PROJECT_SOURCE_DIR}/dispatch/stencil/hyb_stencil_api.c)
# The CPU kernels, the oracle and the executor must agree bit for bit whatever -march the
# build uses: no contraction of a*b+c into an FMA in one of them and not the other.
set_source_files_properties(${HYB_STENCIL_CORE_SOURCES} PROPERTIES COMPILE_OPTIONS -ffp-contract=off)

list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/stencil/stencil_test_util.c
  ${PROJECT_SOURCE_DIR}/tests/unit/stencil/test_stencil_cpu.c
  ${PROJECT_SOURCE_DIR}/tests/unit/stencil/test_stencil_sched.c
  ${PROJECT_SOURCE_DIR}/tests/unit/stencil/test_stencil_model.c
  ${PROJECT_SOURCE_DIR}/tests/unit/stencil/test_stencil_api.c
  ${PROJECT_SOURCE_DIR}/tests/unit/stencil/test_stencil_device.c
  ${PROJECT_SOURCE_DIR}/tests/unit/stencil/test_stencil_zfp.c
)

# The family's public header sits beside hyblas_ext.h when installed.
install(FILES ${PROJECT_SOURCE_DIR}/include/hyblas/stencil.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hyblas)

if(HYB_HAVE_CUDA)
  # The launchers, into the CUDA plugin (C-callable, nothing from the core).
  list(APPEND HYB_CUDA_SOURCES ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_cuda.cu
    ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_launch_cuda.c)

  # GPU check program (run by hand on the GPU machine; exits 77 without a device): the
  # launchers through every scheme's schedule against the CPU path, and their rates.
  add_executable(gpu_check_stencil
    ${PROJECT_SOURCE_DIR}/tools/gpu_check_stencil.cu
    ${PROJECT_SOURCE_DIR}/kernels/stencil/hyb_stencil_cuda.cu)
  target_include_directories(gpu_check_stencil PRIVATE
    ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/include)
  set_target_properties(gpu_check_stencil PROPERTIES CUDA_ARCHITECTURES 90 CUDA_STANDARD 17)
  target_compile_options(gpu_check_stencil PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
  target_link_libraries(gpu_check_stencil PRIVATE hyb_core CUDA::cudart OpenMP::OpenMP_C)
  if(HYB_BUILD_TESTS)
    add_test(NAME gpu_check_stencil COMMAND gpu_check_stencil --quick)
    set_tests_properties(gpu_check_stencil PROPERTIES LABELS gpu RESOURCE_LOCK gpu0
                         SKIP_RETURN_CODE 77 TIMEOUT 600)
  endif()
endif()

# The out-of-core benchmark (tools/bench/run_stencil_ooc_bench.sh runs it on the GPU
# machine): the public API alone, so every build has it, with or without CUDA or tests.
add_executable(hyb_bench_stencil_ooc ${PROJECT_SOURCE_DIR}/tools/bench/hyb_bench_stencil_ooc.c)
target_include_directories(hyb_bench_stencil_ooc PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_options(hyb_bench_stencil_ooc PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_bench_stencil_ooc PRIVATE hyblas m OpenMP::OpenMP_C)

if(HYB_BUILD_TESTS)
  # The benchmark end to end at a tiny size on the simulated device (under a second): every
  # scheme under a cap that keeps the set out of core (1.2 MB of 1.5 MB; in core is skipped)
  # and without a cap, and the (d, k) sweep, each run bit for bit with the CPU.
  add_test(NAME stencil.ooc_bench_sim
           COMMAND hyb_bench_stencil_ooc --set acoustic --nx 40 --ny 36 --nz 64 --steps 6
                                         --budgets 1200000,0 --sweep)
  set_tests_properties(stencil.ooc_bench_sim PROPERTIES LABELS unit
                       ENVIRONMENT HYBLAS_DEVICE=sim TIMEOUT 120)
  # Forced plans (--plans): one the planner refuses under the cap, reported as refused, one it
  # runs, checked like the sweep's; the fields in transparent huge pages.
  add_test(NAME stencil.ooc_bench_plans_sim
           COMMAND sh -c "out=$(\"$0\" \"$@\") && printf '%s' \"$out\" | grep -q \
'^sweep,acoustic,float,40,36,64,6,1200000,shared,12,1,gpu,0,' && printf '%s' \"$out\" | \
grep -q '^# plan shared d 8 k 2 budget 1200000: refused'"
                   $<TARGET_FILE:hyb_bench_stencil_ooc> --set acoustic --nx 40 --ny 36 --nz 64
                   --steps 6 --budgets 1200000 --schemes shared --plans 8:2,12:1 --huge-pages
                   --no-cpu)
  set_tests_properties(stencil.ooc_bench_plans_sim PROPERTIES LABELS unit
                       ENVIRONMENT HYBLAS_DEVICE=sim TIMEOUT 120)
  # The fields from hyblas_host_alloc (page-locked on a device; the simulated device's are
  # ordinary memory marked so): every scheme, each run bit for bit with the CPU.
  add_test(NAME stencil.ooc_bench_host_alloc_sim
           COMMAND hyb_bench_stencil_ooc --set acoustic --nx 40 --ny 36 --nz 64 --steps 6
                                         --budgets 1200000 --host-alloc)
  set_tests_properties(stencil.ooc_bench_host_alloc_sim PROPERTIES LABELS unit
                       ENVIRONMENT HYBLAS_DEVICE=sim TIMEOUT 120)
  # The same for the damped wave, the seed's compression workload (two quantities), with
  # T not a multiple of the planner's k under the cap.
  add_test(NAME stencil.ooc_bench_wave_sim
           COMMAND hyb_bench_stencil_ooc --set wave --nx 64 --ny 300 --steps 7
                                         --budgets 250000,0 --sweep)
  set_tests_properties(stencil.ooc_bench_wave_sim PROPERTIES LABELS unit
                       ENVIRONMENT HYBLAS_DEVICE=sim TIMEOUT 120)

  # The API as users see it: the public header alone, linked to libhyblas.
  add_executable(stencil_link ${PROJECT_SOURCE_DIR}/tests/unit/stencil/stencil_link.c)
  target_include_directories(stencil_link PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(stencil_link PRIVATE ${HYB_WARNINGS})
  target_link_libraries(stencil_link PRIVATE hyblas m)
  add_test(NAME stencil.link COMMAND stencil_link)
  set_tests_properties(stencil.link PROPERTIES LABELS unit)

  # The device path through the public API against the CPU path (run by hand on the GPU
  # machine; exits 77 when no device runs it). On the simulated device it runs in CI.
  add_executable(gpu_check_stencil_api ${PROJECT_SOURCE_DIR}/tools/gpu_check_stencil_api.c)
  target_include_directories(gpu_check_stencil_api PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_options(gpu_check_stencil_api PRIVATE ${HYB_WARNINGS})
  target_link_libraries(gpu_check_stencil_api PRIVATE hyblas m)
  add_test(NAME stencil.api_sim COMMAND gpu_check_stencil_api --quick)
  set_tests_properties(stencil.api_sim PROPERTIES LABELS unit ENVIRONMENT HYBLAS_DEVICE=sim TIMEOUT 600)
  # Issue 22's benchmark script at a small size on the simulated device: every mode, both
  # fidelity checks, the CSVs it writes (its times say nothing of a real device).
  add_test(NAME stencil.zfp_bench_sim
           COMMAND ${CMAKE_COMMAND} -E env HYBLAS_DEVICE=sim SIZE=512 FSTEPS=64 EVERY=16
                   POINTS=100000 WORKLOADS=wave MODES=cpu,raw,state,all,fidelity,fidelity_all
                   OUT=${CMAKE_CURRENT_BINARY_DIR}/zfp_bench_sim
                   ${PROJECT_SOURCE_DIR}/tools/bench/run_stencil_zfp_bench.sh
                   $<TARGET_FILE:gpu_check_stencil_api>)
  set_tests_properties(stencil.zfp_bench_sim PROPERTIES LABELS unit TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "fidelity_all:.*; ok")

  # The family's kernels are registered with a sim launcher and, in a CUDA build, a CUDA one.
  set(HYB_STENCIL_KERNELS stencil.acoustic,stencil.himeno,stencil.laplace,stencil.star,stencil.wave)
  add_test(NAME stencil.kernels_sim COMMAND hyb_kernels --check --expect ${HYB_STENCIL_KERNELS})
  set_tests_properties(stencil.kernels_sim PROPERTIES LABELS unit)
  if(HYB_HAVE_CUDA)
    add_test(NAME stencil.kernels_cuda COMMAND hyb_kernels --check --expect ${HYB_STENCIL_KERNELS}
                                               --plugin $<TARGET_FILE:hyblas_cuda>)
    set_tests_properties(stencil.kernels_cuda PROPERTIES LABELS unit)
  endif()
endif()
