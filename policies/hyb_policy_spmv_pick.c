/* SPDX-License-Identifier: BSD-3-Clause */
/* The rule that picks MKL's routine or hyblas's kernel for a sparse product's CPU path. */
#include "policies/hyb_policy_spmv_pick.h"

#include <stddef.h>

hyb_spmv_pick_t hyb_policy_spmv_pick( const hyb_spmv_pick_state_t* s, int measurable )
{
	if ( s == NULL || !measurable || s->mkl_calls < 2 ) return HYB_SPMV_PICK_MKL;
	if ( s->own_calls < 1 ) return HYB_SPMV_PICK_OWN;
	return s->own_best > 0.0 && s->own_best < 0.95 * s->mkl_best ? HYB_SPMV_PICK_OWN
	                                                             : HYB_SPMV_PICK_MKL;
}

void hyb_policy_spmv_pick_learn( hyb_spmv_pick_state_t* s, hyb_spmv_pick_t code, long long entries,
                                 double seconds )
{
	if ( s == NULL || entries <= 0 || !( seconds > 0.0 ) ) return;
	double  per   = seconds / (double)entries;
	int*    calls = code == HYB_SPMV_PICK_OWN ? &s->own_calls : &s->mkl_calls;
	double* best  = code == HYB_SPMV_PICK_OWN ? &s->own_best : &s->mkl_best;
	/* MKL's first call pays its start-up: it counts, but its time does not. */
	if ( !( code == HYB_SPMV_PICK_MKL && *calls == 0 ) && ( *best == 0.0 || per < *best ) )
		*best = per;
	( *calls )++;
}
