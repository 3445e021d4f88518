/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack dynamic program on the device through the family's device
   interface. */
#include "kernels/knapsack/hyb_knapsack_dpdev.h"

#include <string.h>

#include "hyb_types.h"

/* The block's parts: two rows, then (items) the decision bits, the weights and the
   selection, each on an 8-byte boundary. */
static uint64_t hyb_knapsack_dpdev_bits_bytes( int64_t n, int64_t c )
{
	return ( (uint64_t)n * (uint64_t)hyb_knapsack_dp_words( c ) * sizeof( uint32_t ) + 7 ) & ~7ull;
}

uint64_t hyb_knapsack_dpdev_bytes( int64_t n, int64_t c, int items )
{
	uint64_t bytes = 2 * ( (uint64_t)c + 1 ) * sizeof( int64_t );
	if ( items )
		bytes +=
		    hyb_knapsack_dpdev_bits_bytes( n, c ) + (uint64_t)n * sizeof( int64_t ) + (uint64_t)n;
	return bytes;
}

hyb_status_t hyb_knapsack_dp_device( const hyb_knapsack_dev_t* dev, const int64_t* w,
                                     const int64_t* p, int32_t n, int64_t c, int64_t* value,
                                     uint8_t* x, hyb_knapsack_dpdev_stats_t* stats )
{
	memset( stats, 0, sizeof *stats );
	if ( n == 0 )
	{
		*value = 0;
		return HYB_OK;
	}
	const size_t   row   = (size_t)c + 1;
	const int64_t  words = hyb_knapsack_dp_words( c );
	const uint64_t bytes = hyb_knapsack_dpdev_bytes( n, c, x != NULL );
	void*          block = NULL;
	hyb_status_t   st    = dev->dev_alloc( dev->ctx, (size_t)bytes, &block );
	if ( st != HYB_OK ) return st;
	stats->dev_bytes   = bytes;
	int64_t*     rows  = block;
	uint32_t*    dbits = x ? (uint32_t*)( rows + 2 * row ) : NULL;
	int64_t*     dw = x ? (int64_t*)( (char*)dbits + hyb_knapsack_dpdev_bits_bytes( n, c ) ) : NULL;
	uint8_t*     dx = x ? (uint8_t*)( dw + n ) : NULL;
	int64_t      val = 0;
	const double t   = hyb_now();
	if ( x )
	{
		st = dev->h2d( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, dw, w, (size_t)n * sizeof *w );
		stats->h2d_bytes += (uint64_t)n * sizeof *w;
		stats->h2d_calls++;
	}
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
	/* The selection is read back on the device: n bytes come back, not the bits. */
	if ( st == HYB_OK && x )
	{
		hyb_knapsack_dp_walk_args_t a = { dbits, dw, n, c, dx };
		st = dev->launch( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, HYB_KNAPSACK_K_DP_WALK, &a );
		stats->launches++;
	}
	const int64_t* last = rows + (size_t)( ( n - 1 ) & 1 ) * row + (size_t)c;
	if ( st == HYB_OK )
		st = dev->d2h( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, &val, last, sizeof val );
	if ( st == HYB_OK && x )
		st = dev->d2h( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, x, dx, (size_t)n );
	if ( st == HYB_OK )
		st = dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE );
	else
		dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE ); /* nothing in flight before the free */
	stats->t_dp = hyb_now() - t;
	if ( st == HYB_OK )
	{
		*value = val;
		stats->d2h_bytes += sizeof val + ( x ? (uint64_t)n : 0 );
		stats->d2h_calls += x ? 2 : 1;
	}
	dev->dev_free( dev->ctx, block );
	return st;
}
