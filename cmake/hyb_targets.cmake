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

# The layers (docs/architecture.md, "Layers"), lowest first: each is an object library of
# the sources under its folder, whatever feature file listed them. The generated routine
# table and its thunks call the family dispatchers, so they belong to dispatch.
set(HYB_LAYERS core kernels policies dispatch)
foreach(layer IN LISTS HYB_LAYERS)
  set(HYB_LAYER_SOURCES_${layer} "")
endforeach()
foreach(src IN LISTS HYB_CORE_SOURCES)
  string(FIND "${src}" "${HYB_GEN_DIR}/" at_gen)
  if(at_gen EQUAL 0)
    list(APPEND HYB_LAYER_SOURCES_dispatch ${src})
    continue()
  endif()
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${src})
  string(REGEX MATCH "^[^/]+" top "${rel}")
  if(NOT top IN_LIST HYB_LAYERS)
    message(FATAL_ERROR "${src}: a library source must lie in one of the layers ${HYB_LAYERS}")
  endif()
  list(APPEND HYB_LAYER_SOURCES_${top} ${src})
endforeach()

# What compiling and linking any part of the library needs (headers, definitions, the
# system libraries); no objects.
add_library(hyb_usage INTERFACE)
target_include_directories(hyb_usage INTERFACE ${HYB_INCLUDE_DIRS})
target_compile_definitions(hyb_usage INTERFACE ${HYB_DEFS})
target_link_libraries(hyb_usage INTERFACE OpenMP::OpenMP_C Threads::Threads ${CMAKE_DL_LIBS} m)

# Each layer is an object library. The direction is enforced at link time: a layer and
# those below it make a shared library that must resolve every symbol it uses, so a call
# up the layers fails the build (layers/libhyb_layer_<name>_closed.so, installed nowhere).
# Includes are checked by tools/check_layers.py (test layers.includes).
set(HYB_LAYER_OBJECTS "")
foreach(layer IN LISTS HYB_LAYERS)
  add_library(hyb_layer_${layer} OBJECT ${HYB_LAYER_SOURCES_${layer}})
  add_dependencies(hyb_layer_${layer} hyb_generate)
  target_compile_options(hyb_layer_${layer} PRIVATE ${HYB_WARNINGS})
  target_link_libraries(hyb_layer_${layer} PUBLIC hyb_usage)
  list(APPEND HYB_LAYER_OBJECTS $<TARGET_OBJECTS:hyb_layer_${layer}>)
  add_library(hyb_layer_${layer}_closed SHARED ${HYB_LAYER_OBJECTS})
  target_link_libraries(hyb_layer_${layer}_closed PRIVATE hyb_usage)
  target_link_options(hyb_layer_${layer}_closed PRIVATE ${HYB_NO_UNDEFINED})
  set_target_properties(hyb_layer_${layer}_closed PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/layers)
endforeach()

# The library's internals in one archive, for libhyblas.so, the tools and the unit tests.
add_library(hyb_core STATIC ${HYB_LAYER_OBJECTS})
target_link_libraries(hyb_core PUBLIC hyb_usage)

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
  "LINKER:--version-script=${HYB_GEN_DIR}/hyb_exports.map" ${HYB_NO_UNDEFINED} "LINKER:-z,nodelete")
set_target_properties(hyblas PROPERTIES
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  LINK_DEPENDS ${HYB_GEN_DIR}/hyb_exports.map)

if(HYB_HAVE_CUDA)
  include(cmake/hyb_cuda.cmake)
endif()
