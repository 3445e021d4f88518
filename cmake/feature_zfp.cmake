# SPDX-License-Identifier: BSD-3-Clause
# Fixed-rate ZFP codec (seed 003 ch. 4, issue 22): the host codec, the simulated device's
# launchers and their unit suites.
list(APPEND HYB_CORE_SOURCES
  ${PROJECT_SOURCE_DIR}/kernels/zfp/hyb_zfp_host.c
  ${PROJECT_SOURCE_DIR}/kernels/zfp/hyb_zfp_sim.c
)
list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/zfp/test_zfp_format.c
  ${PROJECT_SOURCE_DIR}/tests/unit/zfp/test_zfp_host.c
  ${PROJECT_SOURCE_DIR}/tests/unit/zfp/test_zfp_sim.c
  ${PROJECT_SOURCE_DIR}/tests/unit/zfp/test_zfp_cases.c
)
