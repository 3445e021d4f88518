# SPDX-License-Identifier: BSD-3-Clause
# Targets: hyb_core (static, internal), libhyblas.so (exported wrappers),
# libhyblas_cuda.so (plugin, dlopen()ed at run time).
set(HYB_INCLUDE_DIRS
  ${PROJECT_SOURCE_DIR}
  ${PROJECT_SOURCE_DIR}/core
  ${PROJECT_SOURCE_DIR}/include
  ${HYB_GEN_DIR})

add_library(hyb_core STATIC ${HYB_CORE_SOURCES})
target_include_directories(hyb_core PUBLIC ${HYB_INCLUDE_DIRS})
target_compile_options(hyb_core PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_core PUBLIC OpenMP::OpenMP_C Threads::Threads ${CMAKE_DL_LIBS} m)
