/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's CUDA launchers registered under the kernels' names
   (kernels/stencil/hyb_stencil_kernels.c). Built only into the plugin. */
#include "kernels/hyb_kernel.h"
#include "kernels/stencil/hyb_stencil_cuda.h"

HYB_KERNEL_IMPL( "stencil.acoustic", hyb_stencil_acoustic_cuda, 0, NULL );
HYB_KERNEL_IMPL( "stencil.himeno", hyb_stencil_himeno_cuda, 0, NULL );
HYB_KERNEL_IMPL( "stencil.laplace", hyb_stencil_laplace_cuda, 0, NULL );
HYB_KERNEL_IMPL( "stencil.star", hyb_stencil_star_cuda, 0, NULL );
HYB_KERNEL_IMPL( "stencil.wave", hyb_stencil_wave_cuda, 0, NULL );
