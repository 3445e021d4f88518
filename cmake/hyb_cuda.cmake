# SPDX-License-Identifier: BSD-3-Clause
# The CUDA backend plugin: a MODULE the core dlopen()s on the first call
# that could use a device. The core never links CUDA.
set(CMAKE_CUDA_STANDARD 17)
add_library(hyblas_cuda MODULE
  ${PROJECT_SOURCE_DIR}/kernels/cuda/hyb_device_cuda.c
  ${PROJECT_SOURCE_DIR}/kernels/cuda/hyb_pause_cuda.cu
  ${PROJECT_SOURCE_DIR}/kernels/l3/hyb_l3_cuda.c
  ${HYB_CUDA_SOURCES})
target_include_directories(hyblas_cuda PRIVATE ${HYB_INCLUDE_DIRS})
target_compile_options(hyblas_cuda PRIVATE $<$<COMPILE_LANGUAGE:C>:${HYB_WARNINGS}>)
target_link_libraries(hyblas_cuda PRIVATE CUDA::cudart_static CUDA::cublas CUDA::cusparse Threads::Threads
                      ${CMAKE_DL_LIBS} rt)
# Find cuBLAS where the toolkit is, or beside the plugin.
set_target_properties(hyblas_cuda PROPERTIES
  PREFIX "lib"
  BUILD_RPATH "${CUDAToolkit_LIBRARY_DIR};\$ORIGIN"
  INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR};\$ORIGIN"
  C_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden)
