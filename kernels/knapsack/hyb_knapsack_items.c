/* SPDX-License-Identifier: BSD-3-Clause */
/* Checking and preparing a knapsack instance: overflow-safe sums, the
   ratio sort, prefix sums, the permutation back. */
#include "kernels/knapsack/hyb_knapsack_items.h"

#include <stdlib.h>
#include <string.h>

#include "hyb_heap.h"

hyb_status_t hyb_knapsack_check( int64_t n, const int64_t* profits, const int64_t* weights,
                                 int64_t capacity, int64_t* sum_p, int64_t* sum_w )
{
	if ( n < 0 || n > HYB_KNAPSACK_MAX_ITEMS || capacity < 0 ) return HYB_E_INVALID;
	if ( n > 0 && ( !profits || !weights ) ) return HYB_E_INVALID;
	int64_t sp = 0, sw = 0;
	for ( int64_t i = 0; i < n; i++ )
	{
		if ( profits[i] < 0 || weights[i] < 0 ) return HYB_E_INVALID;
		if ( __builtin_add_overflow( sp, profits[i], &sp ) ) return HYB_E_INVALID;
		if ( __builtin_add_overflow( sw, weights[i], &sw ) ) return HYB_E_INVALID;
	}
	if ( sum_p ) *sum_p = sp;
	if ( sum_w ) *sum_w = sw;
	return HYB_OK;
}

typedef struct
{
	int64_t w, p, idx;
} hyb_knapsack_sort_item_t;

/* Non-increasing p/w: zero weights first (they always fit), then by the
   exact cross products p_a w_b vs p_b w_a in 128 bits, ties by index. */
static int hyb_knapsack_by_ratio( const void* va, const void* vb )
{
	const hyb_knapsack_sort_item_t* a  = va;
	const hyb_knapsack_sort_item_t* b  = vb;
	const int                       za = a->w == 0, zb = b->w == 0;
	if ( za != zb ) return za ? -1 : 1;
	if ( !za )
	{
		const unsigned __int128 lhs = (unsigned __int128)a->p * (unsigned __int128)b->w;
		const unsigned __int128 rhs = (unsigned __int128)b->p * (unsigned __int128)a->w;
		if ( lhs != rhs ) return lhs > rhs ? -1 : 1;
	}
	return a->idx < b->idx ? -1 : a->idx > b->idx ? 1 : 0;
}

hyb_status_t hyb_knapsack_prepare( int64_t n, const int64_t* profits, const int64_t* weights,
                                   int64_t capacity, hyb_knapsack_prep_t* out )
{
	memset( out, 0, sizeof *out );
	int64_t      sum_p = 0, sum_w = 0;
	hyb_status_t st = hyb_knapsack_check( n, profits, weights, capacity, &sum_p, &sum_w );
	if ( st != HYB_OK ) return st;

	const size_t              cnt = (size_t)n;
	hyb_knapsack_sort_item_t* tmp = malloc( ( cnt ? cnt : 1 ) * sizeof *tmp );
	out->w                        = malloc( ( cnt ? cnt : 1 ) * sizeof( int64_t ) );
	out->p                        = malloc( ( cnt ? cnt : 1 ) * sizeof( int64_t ) );
	out->perm                     = malloc( ( cnt ? cnt : 1 ) * sizeof( int64_t ) );
	out->wsum                     = malloc( ( cnt + 1 ) * sizeof( int64_t ) );
	out->psum                     = malloc( ( cnt + 1 ) * sizeof( int64_t ) );
	if ( !tmp || !out->w || !out->p || !out->perm || !out->wsum || !out->psum )
	{
		free( tmp );
		hyb_knapsack_prep_free( out );
		return HYB_E_NO_MEMORY;
	}
	for ( int64_t i = 0; i < n; i++ )
		tmp[i] = ( hyb_knapsack_sort_item_t ){ weights[i], profits[i], i };
	if ( n > 1 ) qsort( tmp, cnt, sizeof *tmp, hyb_knapsack_by_ratio );
	out->wsum[0] = 0;
	out->psum[0] = 0;
	for ( int64_t i = 0; i < n; i++ )
	{
		out->w[i]        = tmp[i].w;
		out->p[i]        = tmp[i].p;
		out->perm[i]     = tmp[i].idx;
		out->wsum[i + 1] = out->wsum[i] + tmp[i].w;
		out->psum[i + 1] = out->psum[i] + tmp[i].p;
	}
	free( tmp );
	out->n     = (int32_t)n;
	out->c     = capacity < sum_w ? capacity : sum_w;
	out->sum_w = sum_w;
	out->sum_p = sum_p;
	return HYB_OK;
}

void hyb_knapsack_prep_free( hyb_knapsack_prep_t* prep )
{
	if ( !prep ) return;
	HYB_FREE_ALL( prep->w, prep->p, prep->wsum, prep->psum, prep->perm );
	memset( prep, 0, sizeof *prep );
}

hyb_knapsack_items_t hyb_knapsack_prep_items( const hyb_knapsack_prep_t* prep, int prefix )
{
	hyb_knapsack_items_t it = {
		prep->w, prep->p, prefix ? prep->wsum : NULL, prefix ? prep->psum : NULL, prep->n, prep->c
	};
	return it;
}
