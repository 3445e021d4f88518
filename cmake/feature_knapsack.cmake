# SPDX-License-Identifier: BSD-3-Clause
# Exact 0-1 knapsack (seed 003 ch. 2, issue 23): the public API, CPU methods, the
# branch-and-bound drivers over the family's device interface and its host stand-in, the
# planner, the CUDA kernels, the instance generators, tests and the GPU check program.

# The instance generators: a static library for the tests, the GPU check and benchmarks
# (a test tool, not part of the library or its API).
add_library(hyb_knapsack_gen STATIC ${PROJECT_SOURCE_DIR}/tools/knapsack/hyb_knapsack_gen.c)
target_include_directories(hyb_knapsack_gen PUBLIC
  ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core ${PROJECT_SOURCE_DIR}/include)
target_compile_options(hyb_knapsack_gen PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_knapsack_gen PUBLIC m)
