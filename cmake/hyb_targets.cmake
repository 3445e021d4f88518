# SPDX-License-Identifier: BSD-3-Clause
# Targets: hyb_core (static, internal), hyb_shim (static, internal),
# libhyblas.so (the exported wrappers), libhyblas_cuda.so (the plugin).
set(HYB_INCLUDE_DIRS
  ${PROJECT_SOURCE_DIR}
  ${PROJECT_SOURCE_DIR}/core
  ${PROJECT_SOURCE_DIR}/include
  ${HYB_GEN_DIR})

set(HYB_GENERATED
  ${HYB_GEN_DIR}/hyb_routines.h
  ${HYB_GEN_DIR}/hyb_routine_types.h
  ${HYB_GEN_DIR}/hyb_routines.c
  ${HYB_GEN_DIR}/hyb_wrappers.c
  ${HYB_GEN_DIR}/hyb_exports.map)
add_custom_command(
  OUTPUT  ${HYB_GENERATED}
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/gen_wrappers.py
          --table ${PROJECT_SOURCE_DIR}/shim/routines.tsv --outdir ${HYB_GEN_DIR}
  DEPENDS ${PROJECT_SOURCE_DIR}/shim/routines.tsv ${PROJECT_SOURCE_DIR}/tools/gen_wrappers.py
  COMMENT "Generating interposition wrappers from shim/routines.tsv")
add_custom_target(hyb_generate DEPENDS ${HYB_GENERATED})

set(HYB_DEFS HYB_VERSION_STRING="hyblas ${PROJECT_VERSION}"
             HYB_INSTALL_LIBDIR="${CMAKE_INSTALL_FULL_LIBDIR}")

add_library(hyb_core STATIC ${HYB_CORE_SOURCES})
add_dependencies(hyb_core hyb_generate)
target_include_directories(hyb_core PUBLIC ${HYB_INCLUDE_DIRS})
target_compile_definitions(hyb_core PUBLIC ${HYB_DEFS})
target_compile_options(hyb_core PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_core PUBLIC OpenMP::OpenMP_C Threads::Threads ${CMAKE_DL_LIBS} m)

add_library(hyb_shim STATIC ${HYB_SHIM_SOURCES})
target_compile_options(hyb_shim PRIVATE ${HYB_WARNINGS})
target_link_libraries(hyb_shim PUBLIC hyb_core)

# The library users preload or link: only the table's symbols are exported. The core goes
# in whole: a family's device kernels are registered by objects that nothing may name
# (kernels/hyb_kernel.h), and each must be in the library's kernel table.
add_library(hyblas SHARED ${HYB_GEN_DIR}/hyb_wrappers.c)
target_compile_options(hyblas PRIVATE ${HYB_WARNINGS} -Wno-missing-prototypes)
target_link_libraries(hyblas PRIVATE -Wl,--whole-archive hyb_shim hyb_core -Wl,--no-whole-archive hyb_core)
target_link_options(hyblas PRIVATE
  "LINKER:--version-script=${HYB_GEN_DIR}/hyb_exports.map" "LINKER:--no-undefined" "LINKER:-z,nodelete")
set_target_properties(hyblas PROPERTIES
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS ${HYB_GEN_DIR}/hyb_exports.map)

if(HYB_HAVE_CUDA)
  include(cmake/hyb_cuda.cmake)
endif()
