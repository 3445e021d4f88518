/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack dynamic program on the device through the family's device
   interface. */
#include "kernels/knapsack/hyb_knapsack_dpdev.h"

#include <string.h>

#include "hyb_types.h"

uint64_t hyb_knapsack_dpdev_bytes( int64_t n, int64_t c, int items )
{
	uint64_t bytes = 2 * ( (uint64_t)c + 1 ) * sizeof( int64_t );
	if ( items ) bytes += (uint64_t)n * (uint64_t)hyb_knapsack_dp_words( c ) * sizeof( uint32_t );
	return bytes;
}

hyb_status_t hyb_knapsack_dp_device( const hyb_knapsack_dev_t* dev, const int64_t* w,
                                     const int64_t* p, int32_t n, int64_t c, int64_t* value,
                                     uint32_t* bits, hyb_knapsack_dpdev_stats_t* stats )
{
	memset( stats, 0, sizeof *stats );
	if ( n == 0 )
	{
		*value = 0;
		return HYB_OK;
	}
	const size_t   row   = (size_t)c + 1;
	const int64_t  words = hyb_knapsack_dp_words( c );
	const uint64_t bbits = bits ? (uint64_t)n * (uint64_t)words * sizeof( uint32_t ) : 0;
	void*          block = NULL;
	hyb_status_t   st =
	    dev->dev_alloc( dev->ctx, (size_t)hyb_knapsack_dpdev_bytes( n, c, bits != NULL ), &block );
	if ( st != HYB_OK ) return st;
	stats->dev_bytes = hyb_knapsack_dpdev_bytes( n, c, bits != NULL );
	int64_t*  rows   = block;
	uint32_t* dbits  = bits ? (uint32_t*)( rows + 2 * row ) : NULL;
	int64_t*  hval   = NULL;
	st               = dev->host_alloc( dev->ctx, sizeof *hval, (void**)&hval );
	const double t   = hyb_now();
	for ( int32_t i = 0; i < n && st == HYB_OK; i++ )
	{
		hyb_knapsack_dp_row_args_t a = { i ? rows + (size_t)( ( i - 1 ) & 1 ) * row : NULL,
			                             rows + (size_t)( i & 1 ) * row,
			                             dbits ? dbits + (size_t)i * (size_t)words : NULL,
			                             c,
			                             w[i],
			                             p[i] };
		st = dev->launch( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, HYB_KNAPSACK_K_DP_ROW, &a );
		stats->launches++;
	}
	const int64_t* last = rows + (size_t)( ( n - 1 ) & 1 ) * row + (size_t)c;
	if ( st == HYB_OK )
		st = dev->d2h( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, hval, last, sizeof *hval );
	if ( st == HYB_OK && bits )
		st = dev->d2h( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, bits, dbits, (size_t)bbits );
	if ( st == HYB_OK )
		st = dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE );
	else
		dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE ); /* nothing in flight before the frees */
	stats->t_dp = hyb_now() - t;
	if ( st == HYB_OK )
	{
		*value = *hval;
		stats->d2h_bytes += sizeof *hval + bbits;
		stats->d2h_calls += bits ? 2 : 1;
	}
	if ( hval ) dev->host_free( dev->ctx, hval );
	dev->dev_free( dev->ctx, block );
	return st;
}
