# SPDX-License-Identifier: BSD-3-Clause
# The fuzzers' harnesses (tools/fuzz), replayed over their committed corpus in every build:
# tools/fuzz/run.sh fuzzes with clang and libFuzzer; here the same harness runs once per
# saved input under the build's own compiler and sanitizers, on the simulated device.
file(GLOB HYB_FUZZ_HARNESSES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/fuzz/fuzz_*.c)
list(FILTER HYB_FUZZ_HARNESSES EXCLUDE REGEX "fuzz_replay\\.c$")
foreach(src IN LISTS HYB_FUZZ_HARNESSES)
  get_filename_component(name ${src} NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" name ${name})
  set(corpus ${PROJECT_SOURCE_DIR}/tools/fuzz/corpus/${name}.corpus)
  if(NOT EXISTS ${corpus})
    continue()
  endif()
  add_executable(hyb_fuzz_replay_${name} ${src} ${PROJECT_SOURCE_DIR}/tools/fuzz/fuzz_replay.c)
  target_include_directories(hyb_fuzz_replay_${name} PRIVATE ${PROJECT_SOURCE_DIR}/include
                                                             ${PROJECT_SOURCE_DIR}/tools/fuzz)
  target_compile_options(hyb_fuzz_replay_${name} PRIVATE ${HYB_WARNINGS})
  target_link_libraries(hyb_fuzz_replay_${name} PRIVATE hyblas m)
  # A harness's own settings (tools/fuzz/NAME.env, NAME=VALUE lines), after the common ones.
  set(env HYBLAS_DEVICE=sim HYBLAS_SIM_MEM=256M OMP_NUM_THREADS=1 HYBLAS_LOG_LEVEL=0)
  if(EXISTS ${PROJECT_SOURCE_DIR}/tools/fuzz/${name}.env)
    file(STRINGS ${PROJECT_SOURCE_DIR}/tools/fuzz/${name}.env own REGEX "^[A-Z_0-9]+=")
    list(APPEND env ${own})
  endif()
  # --export-dynamic: a harness's own xerbla_ is the one the real library calls.
  target_link_options(hyb_fuzz_replay_${name} PRIVATE -Wl,--export-dynamic)
  target_link_libraries(hyb_fuzz_replay_${name} PRIVATE ${CMAKE_DL_LIBS})
  add_test(NAME fuzz.replay.${name} COMMAND hyb_fuzz_replay_${name} ${corpus})
  set_tests_properties(fuzz.replay.${name} PROPERTIES LABELS unit TIMEOUT 600 ENVIRONMENT "${env}")
endforeach()
