/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack device interface over the device runtime (hyb_dev_*,
   hyb_dev_launch of the registered knapsack kernels). */
#include "kernels/knapsack/hyb_knapsack_devrt.h"

#include <stdatomic.h>
#include <string.h>

/* The family's two streams on the runtime's: transfers on the upload
   stream, kernels and their small result copies on the compute stream. */
static int hyb_knapsack_rt_stream( int stream )
{
	return stream == HYB_KNAPSACK_STREAM_COPY ? HYB_STREAM_H2D : HYB_STREAM_COMPUTE;
}

/* Ids resolved once per process. */
static atomic_int hyb_knapsack_rt_ids[HYB_KNAPSACK_K_COUNT];

static hyb_kernel_id_t hyb_knapsack_rt_id( hyb_knapsack_kernel_t k )
{
	return hyb_kernel_id_cached( &hyb_knapsack_rt_ids[k], hyb_knapsack_kernel_defs[k] );
}

static hyb_status_t hyb_knapsack_rt_dev_alloc( void* ctx, size_t bytes, void** out )
{
	hyb_knapsack_devrt_t* rt = ctx;
	int                   b  = 0;
	while ( b < HYB_KNAPSACK_DEVRT_BLOCKS && rt->blocks[b].p ) b++;
	if ( b == HYB_KNAPSACK_DEVRT_BLOCKS ) return HYB_E_NO_MEMORY;
	hyb_status_t st = hyb_dev_alloc( rt->d, bytes, out );
	if ( st != HYB_OK ) return st;
	rt->blocks[b].p     = *out;
	rt->blocks[b].bytes = bytes;
	return HYB_OK;
}

static void hyb_knapsack_rt_dev_free( void* ctx, void* p )
{
	hyb_knapsack_devrt_t* rt = ctx;
	if ( !p ) return;
	for ( int b = 0; b < HYB_KNAPSACK_DEVRT_BLOCKS; b++ )
		if ( rt->blocks[b].p == p )
		{
			hyb_dev_free( rt->d, p, rt->blocks[b].bytes );
			rt->blocks[b].p     = NULL;
			rt->blocks[b].bytes = 0;
			return;
		}
}

static hyb_status_t hyb_knapsack_rt_host_alloc( void* ctx, size_t bytes, void** out )
{
	hyb_knapsack_devrt_t* rt = ctx;
	return hyb_dev_host_alloc( rt->d, bytes ? bytes : 1, out );
}

static void hyb_knapsack_rt_host_free( void* ctx, void* p )
{
	hyb_knapsack_devrt_t* rt = ctx;
	hyb_dev_host_free( rt->d, p );
}

static hyb_status_t hyb_knapsack_rt_h2d( void* ctx, int stream, void* dst, const void* src,
                                         size_t bytes )
{
	hyb_knapsack_devrt_t* rt = ctx;
	if ( !bytes ) return HYB_OK;
	return hyb_dev_h2d( rt->d, hyb_knapsack_rt_stream( stream ), dst, bytes, src, bytes, bytes, 1 );
}

static hyb_status_t hyb_knapsack_rt_d2h( void* ctx, int stream, void* dst, const void* src,
                                         size_t bytes )
{
	hyb_knapsack_devrt_t* rt = ctx;
	if ( !bytes ) return HYB_OK;
	return hyb_dev_d2h( rt->d, hyb_knapsack_rt_stream( stream ), dst, bytes, src, bytes, bytes, 1 );
}

static hyb_status_t hyb_knapsack_rt_launch( void* ctx, int stream, hyb_knapsack_kernel_t k,
                                            const void* args )
{
	hyb_knapsack_devrt_t* rt = ctx;
	if ( (int)k < 0 || k >= HYB_KNAPSACK_K_COUNT ) return HYB_E_INVALID;
	return hyb_dev_launch( rt->d, hyb_knapsack_rt_stream( stream ), hyb_knapsack_rt_id( k ), args );
}

static hyb_status_t hyb_knapsack_rt_sync( void* ctx, int stream )
{
	hyb_knapsack_devrt_t* rt = ctx;
	return hyb_dev_stream_sync( rt->d, hyb_knapsack_rt_stream( stream ) );
}

/* The backend's scratch size, asked through the compaction kernel's query
   protocol (kernels/knapsack/hyb_knapsack_kargs.h), so the answer comes from
   whichever backend runs the kernels. */
static hyb_status_t hyb_knapsack_rt_temp_bytes( void* ctx, int64_t capacity, size_t* bytes )
{
	if ( capacity < 0 || !bytes ) return HYB_E_INVALID;
	if ( capacity == 0 )
	{
		*bytes = 0;
		return HYB_OK;
	}
	size_t                      answer = 0;
	hyb_knapsack_compact_args_t q;
	memset( &q, 0, sizeof q );
	q.m          = capacity;
	q.temp_query = &answer;
	hyb_status_t st =
	    hyb_knapsack_rt_launch( ctx, HYB_KNAPSACK_STREAM_COMPUTE, HYB_KNAPSACK_K_COMPACT, &q );
	if ( st == HYB_OK ) st = hyb_knapsack_rt_sync( ctx, HYB_KNAPSACK_STREAM_COMPUTE );
	if ( st == HYB_OK ) *bytes = answer;
	return st;
}

hyb_status_t hyb_knapsack_devrt_open( hyb_knapsack_devrt_t* rt, hyb_knapsack_dev_t* dev )
{
	memset( rt, 0, sizeof *rt );
	hyb_status_t st = hyb_devices_ensure();
	if ( st != HYB_OK ) return st;
	for ( int k = 0; k < HYB_KNAPSACK_K_COUNT; k++ )
		if ( !hyb_devices_kernel_supported( hyb_knapsack_rt_id( (hyb_knapsack_kernel_t)k ) ) )
			return HYB_E_NOT_SUPPORTED;
	st = hyb_dev_acquire( 0, &rt->d );
	if ( st != HYB_OK ) return st;
	*dev = ( hyb_knapsack_dev_t ){
		.ctx        = rt,
		.dev_alloc  = hyb_knapsack_rt_dev_alloc,
		.dev_free   = hyb_knapsack_rt_dev_free,
		.host_alloc = hyb_knapsack_rt_host_alloc,
		.host_free  = hyb_knapsack_rt_host_free,
		.h2d        = hyb_knapsack_rt_h2d,
		.d2h        = hyb_knapsack_rt_d2h,
		.launch     = hyb_knapsack_rt_launch,
		.sync       = hyb_knapsack_rt_sync,
		.temp_bytes = hyb_knapsack_rt_temp_bytes,
		.auto_ok    = strcmp( hyb_devices_name(), "sim" ) != 0,
	};
	return HYB_OK;
}

void hyb_knapsack_devrt_close( hyb_knapsack_devrt_t* rt )
{
	if ( !rt->d ) return;
	/* Nothing queued may outlive the memory it uses. */
	hyb_dev_stream_sync( rt->d, HYB_STREAM_H2D );
	hyb_dev_stream_sync( rt->d, HYB_STREAM_COMPUTE );
	for ( int b = 0; b < HYB_KNAPSACK_DEVRT_BLOCKS; b++ )
		if ( rt->blocks[b].p ) hyb_dev_free( rt->d, rt->blocks[b].p, rt->blocks[b].bytes );
	hyb_dev_release( rt->d );
	memset( rt, 0, sizeof *rt );
}
