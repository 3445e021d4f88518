/* SPDX-License-Identifier: BSD-3-Clause */
/* The hazard tracker of the stencil schedule. */
#include "kernels/stencil/hyb_stencil_track.h"

#include <stdlib.h>
#include <string.h>

hyb_status_t hyb_stencil_track_init( hyb_stencil_track_t* t, const int64_t planes[HYB_SR_COUNT] )
{
	memset( t, 0, sizeof *t );
	for ( int r = 0; r < HYB_SR_COUNT; r++ )
	{
		const int64_t n = planes[r] > 0 ? planes[r] : 0;
		hyb_st_res_t* q = &t->res[r];
		q->planes       = n;
		if ( n == 0 ) continue;
		q->last_write = malloc( (size_t)n * sizeof *q->last_write );
		q->nread      = calloc( (size_t)n, sizeof *q->nread );
		q->readers    = malloc( (size_t)n * HYB_ST_READERS * sizeof *q->readers );
		if ( !q->last_write || !q->nread || !q->readers )
		{
			hyb_stencil_track_free( t );
			return HYB_E_NO_MEMORY;
		}
		for ( int64_t p = 0; p < n; p++ ) q->last_write[p] = -1;
	}
	return HYB_OK;
}

void hyb_stencil_track_free( hyb_stencil_track_t* t )
{
	for ( int r = 0; r < HYB_SR_COUNT; r++ )
	{
		free( t->res[r].last_write );
		free( t->res[r].nread );
		free( t->res[r].readers );
	}
	memset( t, 0, sizeof *t );
}

/* The planes of `a` that exist in its resource. */
static void hyb_st_clip( const hyb_stencil_track_t* t, const hyb_stencil_access_t* a, int64_t* lo,
                         int64_t* hi )
{
	const int64_t n = t->res[a->res].planes;
	*lo             = a->lo < 0 ? 0 : a->lo;
	*hi             = a->hi > n ? n : a->hi;
}

/* 1 when step `step` writes plane p of resource r among acc[]. */
static int hyb_st_writes( const hyb_stencil_access_t* acc, int nacc, int32_t r, int64_t p )
{
	for ( int i = 0; i < nacc; i++ )
		if ( acc[i].write && acc[i].res == r && p >= acc[i].lo && p < acc[i].hi ) return 1;
	return 0;
}

void hyb_stencil_track_step( hyb_stencil_track_t* t, int64_t step, const hyb_stencil_access_t* acc,
                             int nacc, void ( *dep )( void* ctx, int64_t i ), void* ctx )
{
	/* Dependencies, from the state before this step. */
	for ( int i = 0; i < nacc; i++ )
	{
		const hyb_st_res_t* q = &t->res[acc[i].res];
		int64_t             lo, hi;
		hyb_st_clip( t, &acc[i], &lo, &hi );
		for ( int64_t p = lo; p < hi; p++ )
		{
			if ( q->last_write[p] >= 0 ) dep( ctx, q->last_write[p] );
			if ( acc[i].write || q->nread[p] == HYB_ST_READERS )
				for ( int j = 0; j < q->nread[p]; j++ )
					dep( ctx, q->readers[p * HYB_ST_READERS + j] );
		}
	}
	/* Record: a write replaces everything; a read joins the readers (or
	   stands for all of them when the list is full: it follows them). */
	for ( int i = 0; i < nacc; i++ )
	{
		hyb_st_res_t* q = &t->res[acc[i].res];
		int64_t       lo, hi;
		hyb_st_clip( t, &acc[i], &lo, &hi );
		for ( int64_t p = lo; p < hi; p++ )
		{
			if ( acc[i].write )
			{
				q->last_write[p] = step;
				q->nread[p]      = 0;
			}
			else if ( !hyb_st_writes( acc, nacc, acc[i].res, p ) )
			{
				if ( q->nread[p] > 0 && q->readers[p * HYB_ST_READERS + q->nread[p] - 1] == step )
					continue;
				if ( q->nread[p] == HYB_ST_READERS ) q->nread[p] = 0;
				q->readers[p * HYB_ST_READERS + q->nread[p]++] = step;
			}
		}
	}
}
