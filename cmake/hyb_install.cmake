# SPDX-License-Identifier: BSD-3-Clause
# Installation: libhyblas.so (with its soname links) and the CUDA plugin in
# the same libdir (libhyblas looks for the plugin beside itself), the tools,
# the public extension header, a pkg-config file and a CMake package
# (find_package(hyblas) -> imported target hyblas::hyblas). Both package
# files are relocatable: they find the prefix from their own location, so
# `cmake --install build --prefix DIR` gives a usable tree anywhere.
include(CMakePackageConfigHelpers)

set(HYB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/hyblas)

# The imported target carries the include directory only when there is a
# header in it (CMake rejects imported targets naming missing directories).
if(EXISTS ${PROJECT_SOURCE_DIR}/include/hyblas_ext.h)
  install(FILES ${PROJECT_SOURCE_DIR}/include/hyblas_ext.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(HYB_INSTALL_INCLUDES INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
else()
  set(HYB_INSTALL_INCLUDES "")
endif()
install(TARGETS hyblas EXPORT hyblasTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ${HYB_INSTALL_INCLUDES})
if(TARGET hyblas_cuda)
  install(TARGETS hyblas_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

install(PROGRAMS ${CMAKE_BINARY_DIR}/hyblas-run DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET hyblas-calibrate)
  install(TARGETS hyblas-calibrate RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# pkg-config: prefix relative to the .pc file's directory when the libdir
# is inside the prefix.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(HYB_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(HYB_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH _hyb_pc_up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" _hyb_pc_up "${_hyb_pc_up}")
  set(HYB_PC_PREFIX "\${pcfiledir}/${_hyb_pc_up}")
  set(HYB_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(HYB_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(HYB_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/hyblas.pc.in ${CMAKE_BINARY_DIR}/hyblas.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/hyblas.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# CMake package.
install(EXPORT hyblasTargets NAMESPACE hyblas:: DESTINATION ${HYB_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hyblasConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/hyblasConfig.cmake
                              INSTALL_DESTINATION ${HYB_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/hyblasConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/hyblasConfig.cmake ${CMAKE_BINARY_DIR}/hyblasConfigVersion.cmake
        DESTINATION ${HYB_INSTALL_CMAKEDIR})
