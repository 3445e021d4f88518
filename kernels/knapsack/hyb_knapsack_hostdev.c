/* SPDX-License-Identifier: BSD-3-Clause */
/* The host stand-in of the knapsack device interface: host memory, memcpy,
   the simulated launchers, fault injection. */
#include "kernels/knapsack/hyb_knapsack_hostdev.h"

#include <stdlib.h>
#include <string.h>

#include "hyb_heap.h"

static const hyb_kernel_fn hyb_knapsack_sim_table[HYB_KNAPSACK_K_COUNT] = {
	[HYB_KNAPSACK_K_BRANCH]     = hyb_knapsack_branch_sim,
	[HYB_KNAPSACK_K_BOUND]      = hyb_knapsack_bound_sim,
	[HYB_KNAPSACK_K_REDUCE_MAX] = hyb_knapsack_reduce_max_sim,
	[HYB_KNAPSACK_K_LABEL]      = hyb_knapsack_label_sim,
	[HYB_KNAPSACK_K_COMPACT]    = hyb_knapsack_compact_sim,
	[HYB_KNAPSACK_K_GATHER]     = hyb_knapsack_gather_sim,
	[HYB_KNAPSACK_K_DP_ROW]     = hyb_knapsack_dp_row_sim,
	[HYB_KNAPSACK_K_DP_WALK]    = hyb_knapsack_dp_walk_sim,
};

/* Counts the call; HYB_E_DEVICE if it is the one to fail. */
static hyb_status_t hyb_knapsack_hd_tick( hyb_knapsack_hostdev_t* s )
{
	s->calls++;
	return s->fail_at > 0 && s->calls == s->fail_at ? HYB_E_DEVICE : HYB_OK;
}

/* Device blocks carry their size in front, so free can account for it. */
#define HYB_KNAPSACK_HD_HEADER 16

static hyb_status_t hyb_knapsack_hd_dev_alloc( void* ctx, size_t bytes, void** out )
{
	hyb_knapsack_hostdev_t* s  = ctx;
	hyb_status_t            st = hyb_knapsack_hd_tick( s );
	if ( st != HYB_OK ) return st;
	if ( s->dev_limit && s->dev_bytes + bytes > s->dev_limit ) return HYB_E_NO_MEMORY;
	unsigned char* b = malloc( bytes + HYB_KNAPSACK_HD_HEADER );
	if ( !b ) return HYB_E_NO_MEMORY;
	memcpy( b, &bytes, sizeof bytes );
	s->dev_bytes += bytes;
	if ( s->dev_bytes > s->dev_peak ) s->dev_peak = s->dev_bytes;
	*out = b + HYB_KNAPSACK_HD_HEADER;
	return HYB_OK;
}

static void hyb_knapsack_hd_dev_free( void* ctx, void* p )
{
	hyb_knapsack_hostdev_t* s = ctx;
	if ( !p ) return;
	unsigned char* b = (unsigned char*)p - HYB_KNAPSACK_HD_HEADER;
	size_t         bytes;
	memcpy( &bytes, b, sizeof bytes );
	s->dev_bytes -= bytes;
	free( b );
}

static hyb_status_t hyb_knapsack_hd_host_alloc( void* ctx, size_t bytes, void** out )
{
	hyb_status_t st = hyb_knapsack_hd_tick( ctx );
	if ( st != HYB_OK ) return st;
	return hyb_heap_alloc( ctx, bytes, out );
}

static hyb_status_t hyb_knapsack_hd_copy( void* ctx, int stream, void* dst, const void* src,
                                          size_t bytes )
{
	(void)stream;
	hyb_status_t st = hyb_knapsack_hd_tick( ctx );
	if ( st != HYB_OK ) return st;
	if ( bytes ) memmove( dst, src, bytes );
	return HYB_OK;
}

static hyb_status_t hyb_knapsack_hd_launch( void* ctx, int stream, hyb_knapsack_kernel_t k,
                                            const void* args )
{
	(void)stream;
	hyb_knapsack_hostdev_t* s  = ctx;
	hyb_status_t            st = hyb_knapsack_hd_tick( s );
	if ( st != HYB_OK ) return st;
	if ( (int)k < 0 || k >= HYB_KNAPSACK_K_COUNT ) return HYB_E_INVALID;
	s->launches[k]++;
	const hyb_kernel_env_t env = { NULL, NULL, NULL, 0 };
	return hyb_knapsack_sim_table[k]( &env, args );
}

static hyb_status_t hyb_knapsack_hd_sync( void* ctx, int stream )
{
	(void)stream;
	return hyb_knapsack_hd_tick( ctx );
}

static hyb_status_t hyb_knapsack_hd_temp_bytes( void* ctx, int64_t capacity, size_t* bytes )
{
	(void)ctx;
	return hyb_knapsack_sim_temp_bytes( capacity, bytes );
}

hyb_knapsack_dev_t hyb_knapsack_hostdev( hyb_knapsack_hostdev_t* state )
{
	hyb_knapsack_dev_t d = {
		.ctx        = state,
		.dev_alloc  = hyb_knapsack_hd_dev_alloc,
		.dev_free   = hyb_knapsack_hd_dev_free,
		.host_alloc = hyb_knapsack_hd_host_alloc,
		.host_free  = hyb_heap_free,
		.h2d        = hyb_knapsack_hd_copy,
		.d2h        = hyb_knapsack_hd_copy,
		.launch     = hyb_knapsack_hd_launch,
		.sync       = hyb_knapsack_hd_sync,
		.temp_bytes = hyb_knapsack_hd_temp_bytes,
	};
	return d;
}
