/* SPDX-License-Identifier: BSD-3-Clause */
/* Checking the stencil API's descriptions and parameters, and turning a
   description into the kernel layer's problem. */
#ifndef HYB_STENCIL_CHECK_H
#define HYB_STENCIL_CHECK_H

#include "hyblas_ext.h"
#include "kernels/stencil/hyb_stencil_prob.h"

/* Check `in` and resolve it: *out gets the caller's struct (its first
   struct_size bytes; the rest zero) with every zero default replaced,
   *prob the kernel-layer problem (2-D problems as one row per plane).
   Returns HYBLAS_OK, HYBLAS_E_STRUCT_SIZE, HYBLAS_E_INVALID (also a rate
   the codec cannot take, hyb_stencil_zfp_check) or HYBLAS_E_UNSUPPORTED
   (flags); nothing is written on failure. Pure. */
hyblas_status_t hyb_stencil_desc_check( const hyblas_stencil_desc_t* in, hyblas_stencil_desc_t* out,
                                        hyb_stencil_prob_t* prob );

/* Check `in` (NULL: every default) into *out. Returns HYBLAS_OK,
   HYBLAS_E_STRUCT_SIZE or HYBLAS_E_INVALID (unknown path or scheme,
   negative counts or fidelity settings, flags other than 0 or 1, chunks
   more than the planes `planes`); nothing is written on failure. */
hyblas_status_t hyb_stencil_params_check( const hyblas_stencil_params_t* in, int64_t planes,
                                          hyblas_stencil_params_t* out );

/* Copy the statistics `s` into the caller's struct `out`, as far as its
   struct_size reaches. Returns HYBLAS_E_STRUCT_SIZE (nothing written) when
   out->struct_size is 0 or smaller than the first version. */
hyblas_status_t hyb_stencil_stats_put( const hyblas_stencil_stats_t* s,
                                       hyblas_stencil_stats_t*       out );

/* HYBLAS_E_STRUCT_SIZE when a stats struct cannot be written (NULL is
   fine), else HYBLAS_OK. */
hyblas_status_t hyb_stencil_stats_ok( const hyblas_stencil_stats_t* out );

#endif
