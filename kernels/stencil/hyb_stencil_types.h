/* SPDX-License-Identifier: BSD-3-Clause */
/* Instantiate a body written once for both element types: include this
   file with HYB_STENCIL_BODY naming the body; it includes the body with
   HYB_T float and name suffix HYB_SFX _f32, then double and _f64. */
#ifndef HYB_STENCIL_BODY
#error "define HYB_STENCIL_BODY before including hyb_stencil_types.h"
#endif

#define HYB_T   float
#define HYB_SFX _f32
#include HYB_STENCIL_BODY
#undef HYB_T
#undef HYB_SFX

#define HYB_T   double
#define HYB_SFX _f64
#include HYB_STENCIL_BODY
#undef HYB_T
#undef HYB_SFX

#undef HYB_STENCIL_BODY
