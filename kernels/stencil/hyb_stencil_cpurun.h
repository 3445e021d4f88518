/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU path of the stencil family: every step over the whole domain
   with the OpenMP kernels, the time levels rotated through the caller's
   arrays and put in place at the end. */
#ifndef HYB_STENCIL_CPURUN_H
#define HYB_STENCIL_CPURUN_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/stencil/hyb_stencil_prob.h"

/* Advance `p` by `steps` steps in its fields with `nthreads` OpenMP threads
   (0: the default), leaving the fields as the public API promises
   (acoustic: CUR = p(T), PREV = p(T-1); the others: the result in U / P;
   the work field unspecified). *residual (may be NULL) receives Himeno's
   last residual, the per-plane sums added in plane order (0 otherwise).
   Bit for bit the serial oracle's fields. Returns HYB_OK, HYB_E_INVALID
   (bad problem or steps < 0) or HYB_E_NO_MEMORY, the last two with nothing
   written. */
hyb_status_t hyb_stencil_cpu_run( const hyb_stencil_prob_t* p, int64_t steps, int nthreads,
                                  double* residual );

/* Copy planes [z0, z1) of array `src` to `dst` (both of the problem's plane
   size) with `nthreads` threads. */
void hyb_stencil_copy_planes( const hyb_stencil_prob_t* p, void* dst, const void* src, int64_t z0,
                              int64_t z1, int nthreads );

#endif
