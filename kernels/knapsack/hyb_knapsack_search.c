/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack branch-and-bound drivers: O3S and BFS out of core on two
   GPU buffers, Lalami's in-core search, and the CPU search, over the
   circular host buffer and the family's device interface. */
#include "kernels/knapsack/hyb_knapsack_search.h"

#include <stdlib.h>
#include <string.h>

#include "hyb_heap.h"
#include "hyb_types.h"
#include "kernels/knapsack/hyb_knapsack_cpu.h"
#include "kernels/knapsack/hyb_knapsack_ring.h"

/* Offsets inside a device block are rounded to this (any device's copy
   and coalescing alignment). */
#define HYB_KNAPSACK_ALIGN 256

/* One GPU buffer: the stored subproblems and the per-iteration arrays of
   their children. Out of core: key/pos (the scan); in core: label/dest
   (the CPU pattern). */
typedef struct
{
	void*                   block;
	hyb_knapsack_node_t*    nodes;
	hyb_knapsack_node_t*    children;
	int64_t*                u;
	int64_t*                l;
	int64_t*                key;
	int64_t*                pos;
	int32_t*                label;
	int32_t*                dest;
	hyb_knapsack_scalars_t* scalars;
	int64_t                 n;           /* subproblems stored */
	int64_t                 unf;         /* of which unfinished (an upper bound if !partitioned) */
	int                     partitioned; /* unfinished ones first (after a GPU compaction) */
} hyb_knapsack_pool_t;

typedef struct
{
	const hyb_knapsack_dev_t*         dev;
	const hyb_knapsack_search_plan_t* plan;
	hyb_knapsack_search_stats_t*      st;
	hyb_knapsack_items_t              items;  /* host */
	hyb_knapsack_items_t              ditems; /* device copies */
	void*                             item_block;
	hyb_knapsack_ring_t               ring;
	hyb_knapsack_pool_t               pool[2];
	int                               npools;
	void*                             temp;
	size_t                            temp_bytes;
	hyb_knapsack_scalars_t*           host_scalars; /* pinned, one per pool */
	int32_t*                          host_label;   /* pinned, in core */
	int32_t*                          host_dest;
	int64_t                           half; /* s_gpu / 2: subproblems a buffer branches at most */
	int64_t                           lstar;
	double                            t0;
	hyb_knapsack_iter_t               iter;
	int ready; /* the device side is set up (at the first iteration that needs it) */
} hyb_knapsack_sctx_t;

static size_t hyb_knapsack_round( size_t bytes )
{
	return ( bytes + HYB_KNAPSACK_ALIGN - 1 ) / HYB_KNAPSACK_ALIGN * HYB_KNAPSACK_ALIGN;
}

int64_t hyb_knapsack_search_slot_bytes( hyb_knapsack_search_t search )
{
	const int64_t rec = (int64_t)sizeof( hyb_knapsack_node_t );
	if ( search == HYB_KNAPSACK_SEARCH_INCORE ) return 2 * rec + 2 * 8 + 2 * 4;
	return 2 * rec + 4 * 8;
}

/* Alignment padding of the arrays of one buffer, and its scalars. */
#define HYB_KNAPSACK_POOL_SLACK ( 8 * HYB_KNAPSACK_ALIGN )

hyb_status_t hyb_knapsack_search_pool_nodes( const hyb_knapsack_dev_t* dev,
                                             hyb_knapsack_search_t search, uint64_t bytes,
                                             int64_t* nodes )
{
	const int64_t slot = hyb_knapsack_search_slot_bytes( search );
	if ( bytes <= HYB_KNAPSACK_POOL_SLACK || bytes > (uint64_t)INT64_MAX ) return HYB_E_INVALID;
	int64_t s = (int64_t)( ( bytes - HYB_KNAPSACK_POOL_SLACK ) / (uint64_t)slot );
	if ( s >= ( (int64_t)1 << 31 ) ) s = ( (int64_t)1 << 31 ) - 2;
	size_t temp = 0;
	/* Every search max-reduces its bounds, which needs the backend's scratch. */
	hyb_status_t st = dev->temp_bytes( dev->ctx, s, &temp );
	if ( st != HYB_OK ) return st;
	const uint64_t used = HYB_KNAPSACK_POOL_SLACK + (uint64_t)hyb_knapsack_round( temp );
	if ( bytes <= used ) return HYB_E_INVALID;
	s = (int64_t)( ( bytes - used ) / (uint64_t)slot ) & ~(int64_t)1;
	if ( s >= ( (int64_t)1 << 31 ) ) s = ( (int64_t)1 << 31 ) - 2;
	if ( s < 2 ) return HYB_E_INVALID;
	*nodes = s;
	return HYB_OK;
}

/* ------------------------------------------------------------------ set-up */

/* Carve `count` arrays of the given sizes out of one device block. */
static hyb_status_t hyb_knapsack_carve( hyb_knapsack_sctx_t* c, void** block, int count,
                                        const size_t* sizes, void** out[] )
{
	size_t total = 0;
	for ( int i = 0; i < count; i++ ) total += hyb_knapsack_round( sizes[i] );
	hyb_status_t st = c->dev->dev_alloc( c->dev->ctx, total ? total : 1, block );
	if ( st != HYB_OK ) return st;
	c->st->dev_bytes += total;
	unsigned char* at = *block;
	for ( int i = 0; i < count; i++ )
	{
		*out[i] = at;
		at += hyb_knapsack_round( sizes[i] );
	}
	return HYB_OK;
}

static hyb_status_t hyb_knapsack_setup_device( hyb_knapsack_sctx_t* c )
{
	const hyb_knapsack_dev_t* dev = c->dev;
	const size_t              n   = (size_t)c->items.n;
	const int                 pre = c->items.wsum != NULL;
	int64_t *                 dw, *dp, *dws = NULL, *dps = NULL;
	{
		size_t       sizes[4] = { n * 8, n * 8, pre ? ( n + 1 ) * 8 : 0, pre ? ( n + 1 ) * 8 : 0 };
		void**       out[4]   = { (void**)&dw, (void**)&dp, (void**)&dws, (void**)&dps };
		hyb_status_t st       = hyb_knapsack_carve( c, &c->item_block, 4, sizes, out );
		if ( st != HYB_OK ) return st;
		const void* src[4] = { c->items.w, c->items.p, c->items.wsum, c->items.psum };
		for ( int i = 0; i < 4; i++ )
			if ( sizes[i] )
			{
				st = dev->h2d( dev->ctx, HYB_KNAPSACK_STREAM_COPY, *out[i], src[i], sizes[i] );
				if ( st != HYB_OK ) return st;
				c->st->h2d_bytes += sizes[i];
				c->st->h2d_calls++;
			}
	}
	c->ditems = ( hyb_knapsack_items_t ){ dw,         dp,        pre ? dws : NULL, pre ? dps : NULL,
		                                  c->items.n, c->items.c };

	const int64_t s      = c->plan->pool_nodes;
	const int     incore = c->plan->search == HYB_KNAPSACK_SEARCH_INCORE;
	/* The in-core search compacts without a scan but still max-reduces its
	   bounds: it needs the scratch too. */
	hyb_status_t st = dev->temp_bytes( dev->ctx, s, &c->temp_bytes );
	if ( st != HYB_OK ) return st;
	for ( int b = 0; b < c->npools; b++ )
	{
		hyb_knapsack_pool_t* pl   = &c->pool[b];
		const size_t         rec  = (size_t)s * sizeof( hyb_knapsack_node_t );
		const size_t         wide = (size_t)s * 8, narrow = (size_t)s * 4;
		size_t               sizes[9] = { rec,
			                              rec,
			                              wide,
			                              wide,
                            incore ? 0 : wide,
                            incore ? 0 : wide,
                            incore ? narrow : 0,
                            incore ? narrow : 0,
			                              sizeof( hyb_knapsack_scalars_t ) };
		void**               out[9]   = { (void**)&pl->nodes, (void**)&pl->children, (void**)&pl->u,
			                              (void**)&pl->l,     (void**)&pl->key,      (void**)&pl->pos,
			                              (void**)&pl->label, (void**)&pl->dest,     (void**)&pl->scalars };
		st                            = hyb_knapsack_carve( c, &pl->block, 9, sizes, out );
		if ( st != HYB_OK ) return st;
		if ( b == 0 && c->temp_bytes )
		{
			/* one scratch serves both buffers: their B&B never runs at once */
			size_t t1[1] = { c->temp_bytes };
			void** to[1] = { &c->temp };
			void*  block = NULL;
			st           = hyb_knapsack_carve( c, &block, 1, t1, to );
			if ( st != HYB_OK ) return st;
		}
	}
	st =
	    dev->host_alloc( dev->ctx, 2 * sizeof( hyb_knapsack_scalars_t ), (void**)&c->host_scalars );
	if ( st != HYB_OK ) return st;
	if ( incore )
	{
		st = dev->host_alloc( dev->ctx, (size_t)s * 4, (void**)&c->host_label );
		if ( st == HYB_OK ) st = dev->host_alloc( dev->ctx, (size_t)s * 4, (void**)&c->host_dest );
		if ( st != HYB_OK ) return st;
	}
	return dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COPY );
}

/* The device side of a search (buffers, the items' copies, page-locked circular buffer)
   is set up at its first GPU iteration: an instance that the CPU mode finishes below the
   threshold costs no allocation on the device and no page-locking. */
static hyb_status_t hyb_knapsack_device_ready( hyb_knapsack_sctx_t* c )
{
	if ( c->ready ) return HYB_OK;
	const hyb_knapsack_dev_t* dev = c->dev;
	hyb_status_t              st  = hyb_knapsack_setup_device( c );
	if ( st == HYB_OK )
		st = hyb_knapsack_ring_rehome(
		    &c->ring, ( hyb_knapsack_host_mem_t ){ dev->ctx, dev->host_alloc, dev->host_free } );
	c->ready = st == HYB_OK;
	return st;
}

static void hyb_knapsack_teardown( hyb_knapsack_sctx_t* c )
{
	hyb_knapsack_ring_free( &c->ring );
	if ( !c->dev ) return;
	const hyb_knapsack_dev_t* dev = c->dev;
	/* Nothing may be in flight when memory goes: wait for both streams
	   (their errors no longer matter). */
	dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COPY );
	dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE );
	for ( int b = 0; b < 2; b++ )
		if ( c->pool[b].block ) dev->dev_free( dev->ctx, c->pool[b].block );
	if ( c->temp ) dev->dev_free( dev->ctx, c->temp );
	if ( c->item_block ) dev->dev_free( dev->ctx, c->item_block );
	if ( c->host_scalars ) dev->host_free( dev->ctx, c->host_scalars );
	if ( c->host_label ) dev->host_free( dev->ctx, c->host_label );
	if ( c->host_dest ) dev->host_free( dev->ctx, c->host_dest );
}

/* ------------------------------------------------------------------ limits */

static int hyb_knapsack_over_limits( hyb_knapsack_sctx_t* c )
{
	const hyb_knapsack_search_plan_t* p = c->plan;
	if ( p->node_limit && c->st->nodes_branched >= p->node_limit )
	{
		c->st->stop = HYBLAS_KNAPSACK_STOP_NODE_LIMIT;
		return 1;
	}
	if ( p->time_limit_s > 0 && hyb_now() - c->t0 > p->time_limit_s )
	{
		c->st->stop = HYBLAS_KNAPSACK_STOP_TIME_LIMIT;
		return 1;
	}
	return 0;
}

static void hyb_knapsack_peaks( hyb_knapsack_sctx_t* c )
{
	const uint64_t dev  = (uint64_t)( c->pool[0].n + c->pool[1].n );
	const uint64_t host = (uint64_t)c->ring.count;
	if ( dev > c->st->peak_dev ) c->st->peak_dev = dev;
	if ( host > c->st->peak_host ) c->st->peak_host = host;
	if ( dev + host > c->st->peak_total ) c->st->peak_total = dev + host;
}

/* ------------------------------------------------------------------ CPU mode */

/* One CPU-mode pass: every subproblem in the circular buffer at the start
   is branched, bounded and pruned on the CPU (single thread, as the seed),
   the survivors appended at the tail. Returns HYB_OK (stop set if a buffer
   or limit ran out) or the allocator's status. */
static hyb_status_t hyb_knapsack_cpu_pass( hyb_knapsack_sctx_t* c )
{
	const double  t  = hyb_now();
	const int64_t m  = c->ring.count;
	hyb_status_t  st = HYB_OK;
	for ( int64_t i = 0; i < m; i++ )
	{
		if ( ( i & 4095 ) == 4095 && hyb_knapsack_over_limits( c ) ) break;
		hyb_knapsack_node_t v = hyb_knapsack_ring_pop( &c->ring );
		hyb_knapsack_node_t kept[2];
		const int nk = hyb_knapsack_cpu_expand( &c->items, &v, &c->lstar, c->plan->ties, kept );
		c->st->nodes_branched++;
		if ( nk > 0 )
		{
			st = hyb_knapsack_ring_reserve( &c->ring, nk );
			if ( st == HYB_E_AGAIN )
			{
				c->st->stop = HYBLAS_KNAPSACK_STOP_HOST_BUFFER;
				st          = HYB_OK;
				break;
			}
			if ( st != HYB_OK ) break;
		}
		for ( int k = 0; k < nk; k++ )
			hyb_knapsack_ring_push( &c->ring, &kept[k], kept[k].k < c->items.n );
		if ( c->plan->node_limit && c->st->nodes_branched >= c->plan->node_limit && i + 1 < m )
		{
			c->st->stop = HYBLAS_KNAPSACK_STOP_NODE_LIMIT;
			break;
		}
	}
	c->st->cpu_iterations++;
	c->st->t_cpu_mode += hyb_now() - t;
	return st;
}

/* ------------------------------------------------------------------ transfers */

static void hyb_knapsack_count_copy( hyb_knapsack_sctx_t* c, int down, uint64_t bytes, double t )
{
	if ( down )
	{
		c->st->d2h_bytes += bytes;
		c->st->d2h_calls++;
	}
	else
	{
		c->st->h2d_bytes += bytes;
		c->st->h2d_calls++;
	}
	c->st->t_transfer += hyb_now() - t;
}

/* Move the last `amount` subproblems of a GPU buffer to the tail of the
   circular buffer (two copies when it wraps). HYB_OK with stop set when
   the circular buffer cannot take them (the seed's exit). */
static hyb_status_t hyb_knapsack_down( hyb_knapsack_sctx_t* c, hyb_knapsack_pool_t* pl,
                                       int64_t amount, int stream )
{
	if ( amount <= 0 ) return HYB_OK;
	hyb_status_t st = hyb_knapsack_ring_reserve( &c->ring, amount );
	if ( st == HYB_E_AGAIN )
	{
		c->st->stop = HYBLAS_KNAPSACK_STOP_HOST_BUFFER;
		return HYB_OK;
	}
	if ( st != HYB_OK ) return st;
	hyb_knapsack_seg_t         seg[2];
	const int                  ns  = hyb_knapsack_ring_back_segs( &c->ring, amount, seg );
	const hyb_knapsack_node_t* src = pl->nodes + ( pl->n - amount );
	for ( int s = 0; s < ns; s++ )
	{
		const double   t     = hyb_now();
		const uint64_t bytes = (uint64_t)seg[s].len * sizeof( hyb_knapsack_node_t );
		st = c->dev->d2h( c->dev->ctx, stream, c->ring.buf + seg[s].pos, src, (size_t)bytes );
		if ( st != HYB_OK ) return st;
		hyb_knapsack_count_copy( c, 1, bytes, t );
		c->iter.d2h_calls++;
		src += seg[s].len;
	}
	/* After a GPU compaction the finished subproblems are the last ones, so
	   the batch's unfinished count is exact; otherwise assume the worst. */
	int64_t batch_unf;
	if ( pl->partitioned )
	{
		const int64_t finished = pl->n - pl->unf;
		batch_unf              = amount > finished ? amount - finished : 0;
		pl->unf -= batch_unf;
	}
	else
	{
		batch_unf = pl->unf;
		if ( pl->unf > pl->n - amount ) pl->unf = pl->n - amount;
	}
	hyb_knapsack_ring_commit_back( &c->ring, amount, batch_unf > 0 );
	pl->n -= amount;
	c->st->d2h_nodes += (uint64_t)amount;
	c->iter.d2h_nodes += amount;
	return HYB_OK;
}

/* Move `amount` subproblems from the head of the circular buffer behind
   the subproblems of a GPU buffer. */
static hyb_status_t hyb_knapsack_up( hyb_knapsack_sctx_t* c, hyb_knapsack_pool_t* pl,
                                     int64_t amount, int stream )
{
	if ( amount <= 0 ) return HYB_OK;
	hyb_knapsack_seg_t   seg[2];
	const int            ns  = hyb_knapsack_ring_front_segs( &c->ring, amount, seg );
	hyb_knapsack_node_t* dst = pl->nodes + pl->n;
	for ( int s = 0; s < ns; s++ )
	{
		const double   t     = hyb_now();
		const uint64_t bytes = (uint64_t)seg[s].len * sizeof( hyb_knapsack_node_t );
		hyb_status_t   st =
		    c->dev->h2d( c->dev->ctx, stream, dst, c->ring.buf + seg[s].pos, (size_t)bytes );
		if ( st != HYB_OK ) return st;
		hyb_knapsack_count_copy( c, 0, bytes, t );
		c->iter.h2d_calls++;
		dst += seg[s].len;
	}
	/* The positions are released now but not reused before the stream's
	   sync: nothing writes to the circular buffer later in an iteration. */
	const int64_t maybe = hyb_knapsack_ring_commit_front( &c->ring, amount );
	pl->partitioned     = pl->n == 0 && maybe == 0; /* only if all are surely finished */
	pl->n += amount;
	pl->unf += maybe;
	c->st->h2d_nodes += (uint64_t)amount;
	c->iter.h2d_nodes += amount;
	return HYB_OK;
}

/* ------------------------------------------------------------------ GPU B&B */

static hyb_status_t hyb_knapsack_launch( hyb_knapsack_sctx_t* c, hyb_knapsack_kernel_t k,
                                         const void* args, double* t_stage )
{
	const double t  = hyb_now();
	hyb_status_t st = c->dev->launch( c->dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, k, args );
	*t_stage += hyb_now() - t;
	return st;
}

/* Branch, bound and max-reduce a buffer's subproblems into its children
   (shared by both compactions). */
static hyb_status_t hyb_knapsack_bb_front( hyb_knapsack_sctx_t* c, hyb_knapsack_pool_t* pl,
                                           int64_t m )
{
	hyb_knapsack_search_stats_t* st = c->st;
	hyb_knapsack_branch_args_t   br = { c->ditems, pl->nodes, pl->n, pl->children };
	hyb_knapsack_bound_args_t    bd = { c->ditems, pl->children, m, pl->u, pl->l };
	hyb_knapsack_reduce_args_t   rd = { pl->l, m, &pl->scalars->max_l, c->temp, c->temp_bytes };
	hyb_status_t s = hyb_knapsack_launch( c, HYB_KNAPSACK_K_BRANCH, &br, &st->t_branch );
	if ( s == HYB_OK ) s = hyb_knapsack_launch( c, HYB_KNAPSACK_K_BOUND, &bd, &st->t_bound );
	if ( s == HYB_OK ) s = hyb_knapsack_launch( c, HYB_KNAPSACK_K_REDUCE_MAX, &rd, &st->t_reduce );
	st->nodes_branched += (uint64_t)pl->n;
	return s;
}

/* The out-of-core B&B of one buffer, queued on the compute stream: branch,
   bound, max-reduce, label against L*, separated compaction back into the
   buffer, and the iteration's scalars to the host. Read them after the
   stream's sync (hyb_knapsack_bb_finish). */
static hyb_status_t hyb_knapsack_bb_gpu( hyb_knapsack_sctx_t* c, int b )
{
	hyb_knapsack_pool_t* pl = &c->pool[b];
	const int64_t        m  = 2 * pl->n;
	/* the transfer rule keeps every buffer at half occupancy before
	   branching; never let a slip there write past the children */
	if ( pl->n > c->half ) return HYB_E_INVALID;
	hyb_knapsack_label_args_t   lb = { pl->children,  pl->u,    m,
		                               c->items.n,    c->lstar, &pl->scalars->max_l,
		                               c->plan->ties, pl->key,  NULL };
	hyb_knapsack_compact_args_t cp = { pl->children, pl->key, pl->pos,       m,   pl->nodes,
		                               pl->scalars,  c->temp, c->temp_bytes, NULL };
	hyb_status_t                s  = hyb_knapsack_bb_front( c, pl, m );
	if ( s == HYB_OK ) s = hyb_knapsack_launch( c, HYB_KNAPSACK_K_LABEL, &lb, &c->st->t_label );
	if ( s == HYB_OK ) s = hyb_knapsack_launch( c, HYB_KNAPSACK_K_COMPACT, &cp, &c->st->t_compact );
	if ( s == HYB_OK )
		s = c->dev->d2h( c->dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, &c->host_scalars[b], pl->scalars,
		                 sizeof( hyb_knapsack_scalars_t ) );
	return s;
}

static void hyb_knapsack_bb_finish( hyb_knapsack_sctx_t* c, int b )
{
	hyb_knapsack_pool_t*          pl = &c->pool[b];
	const hyb_knapsack_scalars_t* sc = &c->host_scalars[b];
	if ( sc->max_l > c->lstar ) c->lstar = sc->max_l;
	pl->n           = sc->n_unfinished + sc->n_finished;
	pl->unf         = sc->n_unfinished;
	pl->partitioned = 1;
}

/* Lalami's in-core step: branch, bound, reduce and label on the device; the
   labels to the host, the compaction pattern computed there (in order, one
   pass), the pattern back, and a gather on the device. Synchronous. */
static hyb_status_t hyb_knapsack_bb_incore( hyb_knapsack_sctx_t* c )
{
	const hyb_knapsack_dev_t* dev = c->dev;
	hyb_knapsack_pool_t*      pl  = &c->pool[0];
	const int64_t             m   = 2 * pl->n;
	const uint64_t            pat = (uint64_t)m * sizeof( int32_t );
	hyb_knapsack_label_args_t lb = { pl->children,        pl->u,         m,    c->items.n, c->lstar,
		                             &pl->scalars->max_l, c->plan->ties, NULL, pl->label };
	hyb_status_t              s  = hyb_knapsack_bb_front( c, pl, m );
	if ( s == HYB_OK ) s = hyb_knapsack_launch( c, HYB_KNAPSACK_K_LABEL, &lb, &c->st->t_label );
	if ( s == HYB_OK )
		s = dev->d2h( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, &c->host_scalars[0], pl->scalars,
		              sizeof( hyb_knapsack_scalars_t ) );
	const double t = hyb_now();
	if ( s == HYB_OK )
		s = dev->d2h( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, c->host_label, pl->label,
		              (size_t)pat );
	if ( s == HYB_OK ) s = dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE );
	if ( s != HYB_OK ) return s;
	c->st->d2h_bytes += pat;
	c->st->d2h_calls++;
	int64_t kept = 0, unf = 0;
	for ( int64_t i = 0; i < m; i++ )
	{
		const int32_t lab = c->host_label[i];
		c->host_dest[i]   = lab == HYB_KNAPSACK_DROP ? -1 : (int32_t)kept++;
		unf += lab == HYB_KNAPSACK_KEEP;
	}
	hyb_knapsack_gather_args_t g = { pl->children, pl->dest, m, pl->nodes };
	s = dev->h2d( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, pl->dest, c->host_dest, (size_t)pat );
	if ( s == HYB_OK )
		s = dev->launch( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE, HYB_KNAPSACK_K_GATHER, &g );
	if ( s == HYB_OK ) s = dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE );
	if ( s != HYB_OK ) return s;
	c->st->h2d_bytes += pat;
	c->st->h2d_calls++;
	c->st->t_compact += hyb_now() - t;
	if ( c->host_scalars[0].max_l > c->lstar ) c->lstar = c->host_scalars[0].max_l;
	pl->n           = kept;
	pl->unf         = unf;
	pl->partitioned = 0;
	return HYB_OK;
}

/* ------------------------------------------------------------------ loops */

static void hyb_knapsack_iter_begin( hyb_knapsack_sctx_t* c )
{
	memset( &c->iter, 0, sizeof c->iter );
	c->iter.index    = c->st->iterations;
	c->iter.pool     = -1;
	c->iter.computed = -1;
}

static void hyb_knapsack_iter_end( hyb_knapsack_sctx_t* c )
{
	hyb_knapsack_peaks( c );
	c->st->iterations++;
	if ( !c->plan->on_iteration ) return;
	c->iter.n_host   = c->ring.count;
	c->iter.n_dev[0] = c->pool[0].n;
	c->iter.n_dev[1] = c->pool[1].n;
	c->iter.head     = c->ring.head;
	c->iter.tail     = hyb_knapsack_ring_tail( &c->ring );
	c->iter.check    = hyb_knapsack_ring_check( &c->ring );
	c->iter.lstar    = c->lstar;
	c->plan->on_iteration( c->plan->trace_ctx, &c->iter );
}

static int hyb_knapsack_done( const hyb_knapsack_sctx_t* c )
{
	return c->ring.nchk == 0 && c->pool[0].unf == 0 && c->pool[1].unf == 0;
}

/* CPU mode inside a device search: every GPU buffer down, one CPU pass. */
static hyb_status_t hyb_knapsack_cpu_mode( hyb_knapsack_sctx_t* c, int stream )
{
	hyb_status_t st  = HYB_OK;
	c->iter.cpu_mode = 1;
	for ( int b = 0;
	      c->ready && b < c->npools && st == HYB_OK && c->st->stop == HYBLAS_KNAPSACK_STOP_NONE;
	      b++ )
		st = hyb_knapsack_down( c, &c->pool[b], c->pool[b].n, stream );
	if ( st == HYB_OK && c->ready ) st = c->dev->sync( c->dev->ctx, stream );
	if ( st == HYB_OK && c->st->stop == HYBLAS_KNAPSACK_STOP_NONE ) st = hyb_knapsack_cpu_pass( c );
	return st;
}

/* The transfer rule of one GPU buffer between its B&B steps. O3S
   (Algorithm 1): above half occupancy send the excess down; below it,
   refill from the head. Two departures from the seed's text, both needed
   for correctness:
   - the refill: the seed's min(s - n, n_cpu) can leave more than s/2 to
     branch, and branching would then overflow the buffer; the refill here
     stops at half occupancy, min(s/2 - n, n_cpu), which is what the seed's
     Table 2.1 shows;
   - the flush: the seed sends a buffer of only finished subproblems down
     when it is above half occupancy; one holding exactly s/2 (or fewer)
     finished ones would then neither move nor change (finished subproblems
     are carried through the B&B) while unfinished ones wait in the
     circular buffer, for ever. A buffer of only finished subproblems is
     sent down whatever its count.
   BFS: everything down, then half a buffer up from the head. */
static hyb_status_t hyb_knapsack_rule( hyb_knapsack_sctx_t* c, int b )
{
	hyb_knapsack_pool_t* pl = &c->pool[b];
	const int64_t        h  = c->half;
	hyb_status_t         st = HYB_OK;
	c->iter.pool            = b;
	if ( c->plan->search == HYB_KNAPSACK_SEARCH_BFS )
	{
		st = hyb_knapsack_down( c, pl, pl->n, HYB_KNAPSACK_STREAM_COPY );
		if ( st == HYB_OK && c->st->stop == HYBLAS_KNAPSACK_STOP_NONE )
			st = hyb_knapsack_up( c, pl, h < c->ring.count ? h : c->ring.count,
			                      HYB_KNAPSACK_STREAM_COPY );
		return st;
	}
	if ( pl->n > 0 && pl->unf == 0 )
		return hyb_knapsack_down( c, pl, pl->n, HYB_KNAPSACK_STREAM_COPY );
	if ( pl->n > h ) return hyb_knapsack_down( c, pl, pl->n - h, HYB_KNAPSACK_STREAM_COPY );
	if ( pl->n < h && c->ring.count > 0 )
	{
		const int64_t room = h - pl->n;
		return hyb_knapsack_up( c, pl, room < c->ring.count ? room : c->ring.count,
		                        HYB_KNAPSACK_STREAM_COPY );
	}
	return HYB_OK;
}

static hyb_status_t hyb_knapsack_loop_ooc( hyb_knapsack_sctx_t* c )
{
	const hyb_knapsack_dev_t* dev = c->dev;
	int                       cur = 0;
	while ( !hyb_knapsack_done( c ) && !hyb_knapsack_over_limits( c ) )
	{
		hyb_status_t st = HYB_OK;
		hyb_knapsack_iter_begin( c );
		const int64_t total = c->ring.count + c->pool[0].n + c->pool[1].n;
		if ( total < c->plan->threshold )
		{
			st  = hyb_knapsack_cpu_mode( c, HYB_KNAPSACK_STREAM_COPY );
			cur = 0;
		}
		else
		{
			/* Buffer `cur` runs the B&B on the compute stream while the
			   other one applies the transfer rule on the copy stream; then
			   both streams are synchronized and the roles swap. */
			const int other   = 1 - cur;
			const int compute = c->pool[cur].n > 0;
			st                = hyb_knapsack_device_ready( c );
			if ( st == HYB_OK ) st = hyb_knapsack_rule( c, other );
			if ( st == HYB_OK && compute ) st = hyb_knapsack_bb_gpu( c, cur );
			if ( st == HYB_OK ) st = dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COPY );
			if ( st == HYB_OK ) st = dev->sync( dev->ctx, HYB_KNAPSACK_STREAM_COMPUTE );
			if ( st == HYB_OK && compute )
			{
				hyb_knapsack_bb_finish( c, cur );
				c->iter.computed = cur;
			}
			c->st->gpu_iterations++;
			cur = other;
		}
		if ( st != HYB_OK ) return st;
		hyb_knapsack_iter_end( c );
		if ( c->st->stop != HYBLAS_KNAPSACK_STOP_NONE ) break;
	}
	return HYB_OK;
}

static hyb_status_t hyb_knapsack_loop_incore( hyb_knapsack_sctx_t* c )
{
	hyb_knapsack_pool_t* pl = &c->pool[0];
	while ( !hyb_knapsack_done( c ) && !hyb_knapsack_over_limits( c ) )
	{
		hyb_status_t st = HYB_OK;
		hyb_knapsack_iter_begin( c );
		if ( c->ring.count + pl->n < c->plan->threshold )
			st = hyb_knapsack_cpu_mode( c, HYB_KNAPSACK_STREAM_COMPUTE );
		else if ( pl->n + c->ring.count > c->half )
			c->st->stop = HYBLAS_KNAPSACK_STOP_DEVICE_BUFFER; /* branching would not fit */
		else
		{
			c->iter.pool = 0;
			st           = hyb_knapsack_device_ready( c );
			if ( st == HYB_OK )
				st = hyb_knapsack_up( c, pl, c->ring.count, HYB_KNAPSACK_STREAM_COMPUTE );
			if ( st == HYB_OK ) st = hyb_knapsack_bb_incore( c );
			c->iter.computed = 0;
			c->st->gpu_iterations++;
		}
		if ( st != HYB_OK ) return st;
		hyb_knapsack_iter_end( c );
		if ( c->st->stop != HYBLAS_KNAPSACK_STOP_NONE ) break;
	}
	return HYB_OK;
}

static hyb_status_t hyb_knapsack_loop_cpu( hyb_knapsack_sctx_t* c )
{
	while ( !hyb_knapsack_done( c ) && !hyb_knapsack_over_limits( c ) )
	{
		hyb_knapsack_iter_begin( c );
		c->iter.cpu_mode = 1;
		hyb_status_t st  = hyb_knapsack_cpu_pass( c );
		if ( st != HYB_OK ) return st;
		hyb_knapsack_iter_end( c );
		if ( c->st->stop != HYBLAS_KNAPSACK_STOP_NONE ) break;
	}
	return HYB_OK;
}

hyb_status_t hyb_knapsack_search( const hyb_knapsack_dev_t* dev, const hyb_knapsack_items_t* it,
                                  const hyb_knapsack_search_plan_t* plan,
                                  hyb_knapsack_search_stats_t*      stats )
{
	memset( stats, 0, sizeof *stats );
	const int on_device = plan->search != HYB_KNAPSACK_SEARCH_CPU;
	if ( plan->host_nodes < 1 ||
	     ( on_device && ( !dev || plan->pool_nodes < 2 || plan->pool_nodes % 2 ||
	                      plan->pool_nodes >= ( (int64_t)1 << 31 ) ) ) )
		return HYB_E_INVALID;

	hyb_knapsack_sctx_t c;
	memset( &c, 0, sizeof c );
	c.dev    = on_device ? dev : NULL;
	c.plan   = plan;
	c.st     = stats;
	c.items  = *it;
	c.npools = plan->search == HYB_KNAPSACK_SEARCH_INCORE ? 1 : 2;
	c.half   = plan->pool_nodes / 2;
	c.t0     = hyb_now();
	/* host memory until the device side is set up (hyb_knapsack_device_ready) */
	const hyb_knapsack_host_mem_t mem = { NULL, hyb_heap_alloc, hyb_heap_free };
	hyb_knapsack_ring_init( &c.ring, plan->host_nodes, mem );

	hyb_status_t st = hyb_knapsack_ring_reserve( &c.ring, 1 );
	if ( st == HYB_OK )
	{
		const hyb_knapsack_node_t root = { 0, 0, 0, 0 };
		hyb_knapsack_ring_push( &c.ring, &root, it->n > 0 );
		hyb_knapsack_peaks( &c );
		if ( plan->search == HYB_KNAPSACK_SEARCH_CPU )
			st = hyb_knapsack_loop_cpu( &c );
		else if ( plan->search == HYB_KNAPSACK_SEARCH_INCORE )
			st = hyb_knapsack_loop_incore( &c );
		else
			st = hyb_knapsack_loop_ooc( &c );
	}
	stats->lstar      = c.lstar;
	stats->host_bytes = c.ring.bytes_allocated;
	hyb_knapsack_teardown( &c );
	return st;
}
