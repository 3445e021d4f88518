/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil family's registered device kernels (kernels/hyb_kernel.h):
   "stencil.acoustic", "stencil.himeno", "stencil.laplace", "stencil.star",
   "stencil.wave". */
#ifndef HYB_STENCIL_KERNELS_H
#define HYB_STENCIL_KERNELS_H

#include <stdint.h>

#include "kernels/hyb_kernel_registry.h"

/* The registered id of the kernel that steps stencil `kind`
   (hyb_stencil_kind_t); HYB_KERNEL_NONE for an unknown kind. Resolved once,
   then one load per call. */
hyb_kernel_id_t hyb_stencil_kernel_id( int32_t kind );

#endif
