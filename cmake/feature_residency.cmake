# SPDX-License-Identifier: BSD-3-Clause
# Residency across calls (DESIGN.md): change tracking of host ranges
# (uffd-wp + PAGEMAP_SCAN, soft-dirty, hashing) and the device-copy cache;
# its unit suite; the cost tool hyb_residency_cost.
list(APPEND HYB_CORE_SOURCES
  ${PROJECT_SOURCE_DIR}/policies/hyb_residency_track.c
  ${PROJECT_SOURCE_DIR}/policies/hyb_residency_cache.c
)
list(APPEND HYB_UNIT_TEST_SOURCES
  ${PROJECT_SOURCE_DIR}/tests/unit/test_residency.c
)

# Measures arm and check costs per GiB of each mechanism (docs/residency-notes.md).
# hyb_core is defined later by hyb_targets.cmake; the name resolves at generate time.
add_executable(hyb_residency_cost ${PROJECT_SOURCE_DIR}/tools/hyb_residency_cost.c)
target_include_directories(hyb_residency_cost PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core)
target_link_libraries(hyb_residency_cost PRIVATE hyb_core)
target_compile_options(hyb_residency_cost PRIVATE ${HYB_WARNINGS})
