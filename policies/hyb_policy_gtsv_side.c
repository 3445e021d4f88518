/* SPDX-License-Identifier: BSD-3-Clause */
/* The measured choice between LAPACK and the CPU SPIKE (see hyb_policy_gtsv_side.h). */
#include "policies/hyb_policy_gtsv_side.h"

#include <stdio.h>

int hyb_policy_gtsv_side_class( int64_t n )
{
	int c = 0;
	while ( n > 1 )
	{
		n >>= 1;
		c++;
	}
	return c;
}

void hyb_policy_gtsv_side_key( int spike, int threads, int cls, char* out, size_t len )
{
	snprintf( out, len, "%s.t%d.n%d", spike ? "spike" : "lapack", threads, cls );
}

/* 1 when a side with `used` samples has run long enough that the other side, with
   `other` samples and measured `cost` calls' time more per call (>= 0), is due for a new
   measurement. */
static int hyb_gtsv_side_due( int64_t used, int64_t other, double cost )
{
	if ( other >= 30 || used <= 0 ) return 0; /* 4^30 calls: never */
	int64_t due = 1;
	for ( int64_t k = 0; k < other; k++ ) due *= HYB_GTSV_SIDE_PROBE_BASE;
	const double paid = (double)other * cost / HYB_GTSV_SIDE_PROBE_SHARE;
	return used >= due - 1 && (double)used >= paid;
}

hyb_gtsv_side_t hyb_policy_gtsv_side( const hyb_gtsv_side_in_t* in )
{
	hyb_gtsv_side_t r = { 0, 0, "no measured LAPACK rate for this size and thread count" };
	if ( in == NULL || !( in->lapack > 0 ) ) return r;
	if ( in->team_start > 0 && !( in->lapack_spent * HYB_GTSV_SIDE_PROBE_SHARE >= in->team_start ) )
	{
		r.why = "the CPU SPIKE's thread start not yet paid for by LAPACK's calls";
		return r;
	}
	if ( !( in->spike > 0 ) )
	{
		const double lapack_s = (double)in->lapack_samples * in->rows / in->lapack;
		if ( !( lapack_s * HYB_GTSV_SIDE_PROBE_SHARE >= HYB_GTSV_SIDE_FIRST_PROBE_S ) )
		{
			r.why = "the CPU SPIKE's first measurement not yet paid for by LAPACK's calls";
			return r;
		}
		r.spike = r.probe = 1;
		r.why             = "measuring the CPU SPIKE against LAPACK";
		return r;
	}
	int faster = in->spike >= HYB_GTSV_SIDE_MARGIN * in->lapack;
	/* A probe's extra time, in calls of the side in use. */
	const double ratio = faster ? in->spike / in->lapack : in->lapack / in->spike;
	const double cost  = ratio > 1.0 ? ratio - 1.0 : 0.0;
	if ( faster && hyb_gtsv_side_due( in->spike_samples, in->lapack_samples, cost ) )
	{
		r.probe = 1;
		r.why   = "measuring LAPACK again";
		return r;
	}
	if ( !faster && hyb_gtsv_side_due( in->lapack_samples, in->spike_samples, cost ) )
	{
		r.spike = r.probe = 1;
		r.why             = "measuring the CPU SPIKE again";
		return r;
	}
	r.spike = faster;
	r.why   = faster ? "CPU SPIKE measured faster than LAPACK"
	                 : "LAPACK measured faster than the CPU SPIKE";
	return r;
}
