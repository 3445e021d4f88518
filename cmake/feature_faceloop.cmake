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
)

list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_basis.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_partition.c
  ${PROJECT_SOURCE_DIR}/tests/unit/faceloop/test_faceloop_plan.c
)

install(FILES ${PROJECT_SOURCE_DIR}/include/hyblas/faceloop.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hyblas)
