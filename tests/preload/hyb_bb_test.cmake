# SPDX-License-Identifier: BSD-3-Clause
# hyb_bb_add_test(): one black-box CTest test whose whole environment is
# set through test properties. Every HYBLAS_* setting of
# core/config/hyb_config_vars.def (and LD_PRELOAD, the NVBLAS config, the
# OpenBLAS/OpenMP thread counts) is first unset or pinned, so nothing from
# the caller's shell leaks in; then the test's own settings are applied.
#
#   hyb_bb_add_test(NAME n LABELS l... [PRELOAD] [ENV K=V...]
#                   [WORKING_DIRECTORY d] [TIMEOUT s] [SKIP_RETURN_CODE c]
#                   [RUN_SERIAL] COMMAND cmd args...)
#
# PRELOAD sets LD_PRELOAD to libhyblas.so of this build (HYB_BB_PRELOAD). An ENV entry
# K+=V prepends V to the path list K (LD_LIBRARY_PATH: the caller's value
# may be what makes the system libraries loadable, e.g. on the GPU machine).

file(STRINGS ${PROJECT_SOURCE_DIR}/core/config/hyb_config_vars.def _hyb_bb_var_lines
     REGEX "HYB_VAR\\( *HYBLAS_[A-Z0-9_]+")
set(HYB_BB_SCRUB_VARS LD_PRELOAD NVBLAS_CONFIG_FILE HYBLAS_CONFIG_FILE)
foreach(_line IN LISTS _hyb_bb_var_lines)
  string(REGEX REPLACE ".*HYB_VAR\\( *(HYBLAS_[A-Z0-9_]+).*" "\\1" _var "${_line}")
  list(APPEND HYB_BB_SCRUB_VARS ${_var})
endforeach()
list(REMOVE_DUPLICATES HYB_BB_SCRUB_VARS)

# Where the Debian test packages put their programs (libblas-test,
# liblapack-test); the GPU machine unpacks them elsewhere and says where in
# HYB_REF_BLAS_DIR (tools/gpu/setup-env.sh).
if(DEFINED ENV{HYB_REF_BLAS_DIR})
  set(_hyb_blas_dir $ENV{HYB_REF_BLAS_DIR})
else()
  set(_hyb_blas_dir /usr/lib/x86_64-linux-gnu/blas)
endif()
get_filename_component(_hyb_lapack_dir ${_hyb_blas_dir}/../lapack ABSOLUTE)
set(HYB_TEST_BLAS_DIR ${_hyb_blas_dir} CACHE PATH
    "libblas-test's directory: netlib testers and reference libblas.so.3")
set(HYB_TEST_LAPACK_DIR ${_hyb_lapack_dir} CACHE PATH
    "liblapack-test's directory: LAPACK testers and reference liblapack.so.3")

# What LD_PRELOAD holds for a test of this build: libhyblas.so, after the ASan runtime in a
# HYB_SANITIZE=address build (an ASan library in a program built without ASan needs the
# runtime loaded before everything else, or the program stops at start-up).
if(HYB_ASAN_RUNTIME)
  set(HYB_BB_PRELOAD "${HYB_ASAN_RUNTIME}:$<TARGET_FILE:hyblas>")
else()
  set(HYB_BB_PRELOAD "$<TARGET_FILE:hyblas>")
endif()

# Settings every black-box test starts from: no calibration profile of the
# user running the tests, one OpenBLAS thread (a 2-core CI box; OpenBLAS
# threads spin), quiet OpenMP.
set(HYB_BB_BASE_ENV
  XDG_CACHE_HOME=${CMAKE_BINARY_DIR}/tests/xdg-cache
  OPENBLAS_NUM_THREADS=1
  OMP_NUM_THREADS=2
  OMP_WAIT_POLICY=PASSIVE)

function(hyb_bb_add_test)
  cmake_parse_arguments(T "PRELOAD;RUN_SERIAL" "NAME;WORKING_DIRECTORY;TIMEOUT;SKIP_RETURN_CODE"
                        "LABELS;ENV;COMMAND" ${ARGN})
  if(NOT T_NAME OR NOT T_COMMAND)
    message(FATAL_ERROR "hyb_bb_add_test: NAME and COMMAND are required")
  endif()
  if(T_WORKING_DIRECTORY)
    file(MAKE_DIRECTORY ${T_WORKING_DIRECTORY})
    add_test(NAME ${T_NAME} COMMAND ${T_COMMAND} WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
  else()
    add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  endif()

  set(env ${HYB_BB_BASE_ENV} ${T_ENV})
  if(T_PRELOAD)
    list(APPEND env "LD_PRELOAD=${HYB_BB_PRELOAD}")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
  if(T_SKIP_RETURN_CODE)
    set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE ${T_SKIP_RETURN_CODE})
  endif()
  if(T_RUN_SERIAL)
    set_tests_properties(${T_NAME} PROPERTIES RUN_SERIAL ON)
  endif()

  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.22)
    # Unset everything first, then set: modifications apply in order.
    set(mods "")
    foreach(var IN LISTS HYB_BB_SCRUB_VARS)
      list(APPEND mods "${var}=unset:")
    endforeach()
    foreach(kv IN LISTS env)
      string(FIND "${kv}" "=" eq)
      string(SUBSTRING "${kv}" 0 ${eq} key)
      math(EXPR vstart "${eq} + 1")
      string(SUBSTRING "${kv}" ${vstart} -1 value)
      if(key MATCHES "^(.*)\\+$")
        list(APPEND mods "${CMAKE_MATCH_1}=path_list_prepend:${value}")
      else()
        list(APPEND mods "${key}=set:${value}")
      endif()
    endforeach()
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT_MODIFICATION "${mods}")
  else()
    # Older CMake: set what the test needs (an inherited extra HYBLAS_*
    # setting could then leak in; K+=V replaces K).
    string(REPLACE "+=" "=" env "${env}")
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}")
  endif()
endfunction()
