/* SPDX-License-Identifier: BSD-3-Clause */
/* The circular host buffer of subproblems: growth, segments, head/tail/
   check bookkeeping. */
#include "kernels/knapsack/hyb_knapsack_ring.h"

#include <string.h>

/* The first storage: enough for the CPU-mode threshold's worth of nodes
   without a regrowth, small next to any pinned buffer. */
#define HYB_KNAPSACK_RING_MIN 4096

void hyb_knapsack_ring_init( hyb_knapsack_ring_t* r, int64_t limit, hyb_knapsack_host_mem_t mem )
{
	memset( r, 0, sizeof *r );
	r->limit = limit;
	r->mem   = mem;
}

void hyb_knapsack_ring_free( hyb_knapsack_ring_t* r )
{
	if ( !r ) return;
	if ( r->buf ) r->mem.release( r->mem.ctx, r->buf );
	r->buf = NULL;
	r->cap = 0;
}

/* Move the records into new storage of `cap` records from `mem`, the head at position 0. */
static hyb_status_t hyb_knapsack_ring_move( hyb_knapsack_ring_t* r, int64_t cap,
                                            hyb_knapsack_host_mem_t mem )
{
	void*        buf = NULL;
	hyb_status_t st  = mem.alloc( mem.ctx, (size_t)cap * sizeof( hyb_knapsack_node_t ), &buf );
	if ( st != HYB_OK ) return st;
	hyb_knapsack_node_t* nb = buf;
	hyb_knapsack_seg_t   seg[2];
	int                  ns = hyb_knapsack_ring_front_segs( r, r->count, seg );
	int64_t              at = 0;
	for ( int s = 0; s < ns; s++ )
	{
		memcpy( nb + at, r->buf + seg[s].pos, (size_t)seg[s].len * sizeof *nb );
		at += seg[s].len;
	}
	if ( r->buf ) r->mem.release( r->mem.ctx, r->buf );
	r->mem  = mem;
	r->buf  = nb;
	r->cap  = cap;
	r->head = 0;
	if ( (uint64_t)cap * sizeof *nb > r->bytes_allocated )
		r->bytes_allocated = (uint64_t)cap * sizeof *nb;
	return HYB_OK;
}

hyb_status_t hyb_knapsack_ring_reserve( hyb_knapsack_ring_t* r, int64_t more )
{
	const int64_t need = r->count + more;
	if ( more < 0 || need > r->limit ) return HYB_E_AGAIN;
	if ( need <= r->cap ) return HYB_OK;
	int64_t cap = r->cap * 2;
	if ( cap < HYB_KNAPSACK_RING_MIN ) cap = HYB_KNAPSACK_RING_MIN;
	if ( cap < need ) cap = need;
	if ( cap > r->limit ) cap = r->limit;
	return hyb_knapsack_ring_move( r, cap, r->mem );
}

hyb_status_t hyb_knapsack_ring_rehome( hyb_knapsack_ring_t* r, hyb_knapsack_host_mem_t mem )
{
	if ( r->buf == NULL )
	{
		r->mem = mem;
		return HYB_OK;
	}
	return hyb_knapsack_ring_move( r, r->cap, mem );
}

/* The run of `len` positions from `start`, split where it wraps. */
static int hyb_knapsack_ring_segs( const hyb_knapsack_ring_t* r, int64_t start, int64_t len,
                                   hyb_knapsack_seg_t seg[2] )
{
	if ( len <= 0 || r->cap == 0 ) return 0;
	const int64_t first = r->cap - start;
	if ( len <= first )
	{
		seg[0] = ( hyb_knapsack_seg_t ){ start, len };
		return 1;
	}
	seg[0] = ( hyb_knapsack_seg_t ){ start, first };
	seg[1] = ( hyb_knapsack_seg_t ){ 0, len - first };
	return 2;
}

int hyb_knapsack_ring_back_segs( const hyb_knapsack_ring_t* r, int64_t len,
                                 hyb_knapsack_seg_t seg[2] )
{
	return hyb_knapsack_ring_segs( r, hyb_knapsack_ring_tail( r ), len, seg );
}

int hyb_knapsack_ring_front_segs( const hyb_knapsack_ring_t* r, int64_t len,
                                  hyb_knapsack_seg_t seg[2] )
{
	return hyb_knapsack_ring_segs( r, r->head, len, seg );
}

void hyb_knapsack_ring_commit_back( hyb_knapsack_ring_t* r, int64_t len, int unfinished )
{
	r->count += len;
	if ( unfinished && len > 0 ) r->nchk = r->count;
	if ( r->count > r->peak ) r->peak = r->count;
}

int64_t hyb_knapsack_ring_commit_front( hyb_knapsack_ring_t* r, int64_t len )
{
	const int64_t maybe = len < r->nchk ? len : r->nchk;
	r->head             = r->cap ? ( r->head + len ) % r->cap : 0;
	r->count -= len;
	r->nchk -= maybe;
	return maybe;
}

void hyb_knapsack_ring_push( hyb_knapsack_ring_t* r, const hyb_knapsack_node_t* v, int unfinished )
{
	r->buf[hyb_knapsack_ring_tail( r )] = *v;
	hyb_knapsack_ring_commit_back( r, 1, unfinished );
}

hyb_knapsack_node_t hyb_knapsack_ring_pop( hyb_knapsack_ring_t* r )
{
	hyb_knapsack_node_t v = r->buf[r->head];
	hyb_knapsack_ring_commit_front( r, 1 );
	return v;
}
