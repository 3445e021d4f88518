/* SPDX-License-Identifier: BSD-3-Clause */
/* The Dembo-Hammer core of a prepared instance (items sorted by ratio, prefix sums). */
#include "kernels/knapsack/hyb_knapsack_core.h"

int64_t hyb_knapsack_core_items( const hyb_knapsack_prep_t* prep )
{
	const int64_t  n = prep->n, c = prep->c;
	const int64_t* w = prep->w;
	const int64_t* p = prep->p;
	/* the split item: the first that does not fit after all before it */
	int64_t b = 0;
	while ( b < n && prep->wsum[b + 1] <= c ) b++;
	if ( b == n ) return 0;
	const int64_t room = c - prep->wsum[b];
	/* Dantzig's bound, rounded down (the optimum is an integer) */
	const int64_t u =
	    prep->psum[b] + (int64_t)( (unsigned __int128)room * (uint64_t)p[b] / (uint64_t)w[b] );
	/* the greedy solution: the items before b, then every later one that still fits */
	int64_t l = prep->psum[b], left = room;
	for ( int64_t i = b + 1; i < n; i++ )
		if ( w[i] <= left )
		{
			left -= w[i];
			l += p[i];
		}
	const __int128 gap  = (__int128)( u > l ? u - l : 0 ) * w[b];
	int64_t        core = 0;
	for ( int64_t i = 0; i < n; i++ )
	{
		__int128 d = (__int128)p[i] * w[b] - (__int128)p[b] * w[i];
		if ( d < 0 ) d = -d;
		core += d <= gap;
	}
	return core;
}
