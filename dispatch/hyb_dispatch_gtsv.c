/* SPDX-License-Identifier: BSD-3-Clause */
/* Tridiagonal dispatch (LAPACK ?gtsv): the real LAPACK routine. */
#include "dispatch/hyb_dispatch.h"

#include "hyb_stats.h"

void hyb_dispatch_gtsv( const hyb_call_t* call, const hyb_gtsv_args_t* a )
{
	int    timing = hyb_stats_timing();
	double t0     = timing ? hyb_now() : 0;
	call->forward( call );
	hyb_stats_record( call->id, HYB_PATH_CPU, timing ? hyb_now() - t0 : -1, 8.0 * (double)a->n * (double)a->nrhs,
	                  0 );
}
