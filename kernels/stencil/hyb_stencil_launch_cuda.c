/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's CUDA launchers registered under the kernels' names
   (kernels/stencil/hyb_stencil_kernels.c). Built only into the plugin. */
#include "kernels/hyb_kernel.h"
#include "kernels/stencil/hyb_stencil_cuda.h"

static const hyb_kernel_impl_t hyb_stencil_acoustic_impl = { "stencil.acoustic",
	                                                         hyb_stencil_acoustic_cuda, 0, NULL };
static const hyb_kernel_impl_t hyb_stencil_himeno_impl   = { "stencil.himeno",
	                                                         hyb_stencil_himeno_cuda, 0, NULL };
static const hyb_kernel_impl_t hyb_stencil_laplace_impl  = { "stencil.laplace",
	                                                         hyb_stencil_laplace_cuda, 0, NULL };
static const hyb_kernel_impl_t hyb_stencil_star_impl = { "stencil.star", hyb_stencil_star_cuda, 0,
	                                                     NULL };
HYB_KERNEL_IMPL_REGISTER( hyb_stencil_acoustic_impl );
HYB_KERNEL_IMPL_REGISTER( hyb_stencil_himeno_impl );
HYB_KERNEL_IMPL_REGISTER( hyb_stencil_laplace_impl );
HYB_KERNEL_IMPL_REGISTER( hyb_stencil_star_impl );
