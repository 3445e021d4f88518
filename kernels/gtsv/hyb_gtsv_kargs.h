/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument structs of the tridiagonal family's device kernels (gtsv.spike, gtsv.pivots):
   device pointers, precision S or D first in each struct. Plain C, shared by the core's
   sim launchers and the plugin's CUDA launchers. */
#ifndef HYB_GTSV_KARGS_H
#define HYB_GTSV_KARGS_H

#include <stdint.h>

#include "hyb_types.h"

/* The leading fields of both kernels' arguments: the precision (the family's check reads it
   first) and the tridiagonal matrix of n rows (dl, du: n-1; d: n). */
typedef struct
{
	hyb_prec_t  prec;
	int64_t     n;
	const void* dl;
	const void* d;
	const void* du;
} hyb_gtsv_tri_kargs_t;

/* Tridiagonal solve in place (seed 002's truncated SPIKE with window m; the caller checked
   diagonal dominance). b: n x nrhs with leading dimension ldb. */
typedef struct
{
	hyb_gtsv_tri_kargs_t tri;
	int64_t              nrhs;
	void*                b;
	int64_t              ldb;
	int64_t              m;
} hyb_gtsv_spike_kargs_t;

/* LAPACK's no-swap pivots d' of rows [0, n) of a chunk (out: n; out may
   not alias the inputs): out[0] = first (the caller's exact value),
   out[i] = d[i] - (dl[i-1] / out[i-1]) du[i-1]. Partitions may restart `warm` rows early
   from d alone (hyb_?gtsv_factors_range's rule; a restart that would reach row 0 starts
   from `first`), so out matches the exact recurrence to rounding on a diagonally dominant
   chunk. warm >= 1. */
typedef struct
{
	hyb_gtsv_tri_kargs_t tri;
	void*                out;
	double               first;
	int64_t              warm;
} hyb_gtsv_pivots_kargs_t;

#endif
