/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack subproblem record, the per-node arithmetic (branch, bounds
   (2.3)-(2.6) of seed 003, pruning label) and the dynamic program's cell,
   which the CPU methods, the simulated and the CUDA kernels all compile
   from this one header, so every path computes bit for bit the same.
   Plain C; under nvcc the functions are __host__ __device__. */
#ifndef HYB_KNAPSACK_NODE_H
#define HYB_KNAPSACK_NODE_H

#include <stdint.h>

#ifdef __CUDACC__
#define HYB_KNAPSACK_HD static inline __host__ __device__
#else
#define HYB_KNAPSACK_HD static inline
#endif

/* A subproblem (vertex v of the search tree): items 0..k-1 (sorted by
   non-increasing profit/weight) are decided, W_v and P_v are the weight and
   profit of those taken. The record is what is stored and moved between
   host and device: 24 bytes, AoS, so a batch moves in one copy (two when
   the circular buffer wraps). U_v and L_v are recomputed for every child
   at each iteration, so they live in per-iteration arrays beside the
   children, not in the stored record; the slack item S_v is kept (the
   seed's tuple has it). Sums are 64-bit so that any instance whose profit
   and weight sums fit in int64 is exact. */
typedef struct
{
	int64_t w; /* W_v, <= capacity */
	int64_t p; /* P_v */
	int32_t k; /* depth: items 0..k-1 decided; HYB_KNAPSACK_DEAD for an infeasible child */
	int32_t s; /* slack item of the node's last bound (n: every remaining item fits) */
} hyb_knapsack_node_t;

#ifdef __cplusplus
static_assert( sizeof( hyb_knapsack_node_t ) == 24, "the stored subproblem is 24 bytes" );
#else
_Static_assert( sizeof( hyb_knapsack_node_t ) == 24, "the stored subproblem is 24 bytes" );
#endif

/* Depth of a child whose weight exceeds the capacity: it is never bounded
   and always dropped. */
#define HYB_KNAPSACK_DEAD ( -1 )

/* Labels of a bounded child: dropped, kept and unfinished (k < n), kept
   and finished (k == n: a complete solution, U = L = P). */
#define HYB_KNAPSACK_DROP      0
#define HYB_KNAPSACK_KEEP      1
#define HYB_KNAPSACK_KEEP_DONE 2

/* The GPU compaction's scan key of a label: kept-unfinished nodes count in
   the low 32 bits, kept-finished ones in the high 32 bits, so one inclusive
   sum gives each kept node its place in a partition that stores unfinished
   nodes first (the O3S transfer rule needs to know which are which). */
#define HYB_KNAPSACK_KEY_DONE     ( (int64_t)1 << 32 )
#define HYB_KNAPSACK_KEY_LOW_MASK ( ( (int64_t)1 << 32 ) - 1 )

/* The items as the kernels read them: sorted by non-increasing p/w,
   capacity already clamped to min(c, sum w). wsum/psum (n + 1 prefix sums)
   are read only by the prefix-sum bound; NULL otherwise. */
typedef struct
{
	const int64_t* w;
	const int64_t* p;
	const int64_t* wsum;
	const int64_t* psum;
	int32_t        n;
	int64_t        c;
} hyb_knapsack_items_t;

/* floor(r * ps / ws) for 0 <= r < ws and ps >= 0: the fractional part of
   the Dantzig bound (2.6). Below 2^31 both factors multiply in 64 bits; the
   128-bit path keeps instances with large weights and profits exact. */
HYB_KNAPSACK_HD int64_t hyb_knapsack_frac( int64_t r, int64_t ps, int64_t ws )
{
	if ( r == 0 || ps == 0 ) return 0;
	if ( ( ( r | ps ) >> 31 ) == 0 ) return ( r * ps ) / ws;
	return (int64_t)( ( (unsigned __int128)r * (unsigned __int128)ps ) / (unsigned __int128)ws );
}

/* The two children of `par` for item j = par->k: `take` (x_j = 1; dead if
   it does not fit) and `skip` (x_j = 0). A finished parent (k == n) is
   carried through unchanged as `skip` with a dead `take`, so complete
   solutions that tie the incumbent stay (the seed keeps them until the
   end). The children's bounds are computed by hyb_knapsack_bound. */
HYB_KNAPSACK_HD void hyb_knapsack_branch( const hyb_knapsack_items_t* it,
                                          const hyb_knapsack_node_t* par, hyb_knapsack_node_t* take,
                                          hyb_knapsack_node_t* skip )
{
	const int32_t j = par->k;
	*skip           = *par;
	take->s         = par->s;
	if ( j >= it->n )
	{
		take->w = par->w;
		take->p = par->p;
		take->k = HYB_KNAPSACK_DEAD;
		return;
	}
	skip->k = j + 1;
	take->k = j + 1;
	take->w = par->w + it->w[j];
	take->p = par->p + it->p[j];
	if ( it->w[j] > it->c - par->w ) take->k = HYB_KNAPSACK_DEAD;
}

/* Bounds of a child v (seed 003 eqs. 2.3-2.6): the slack item S_v is the
   first item from k on that no longer fits when items are taken in order;
   r is the room left before it; U_v = P_v + the taken profits + floor(r
   p_S / w_S) (Dantzig) and L_v = P_v + the taken profits + every later
   item that still fits, in order (greedy). The scan for S_v is the seed's
   linear one, or, with it->wsum, a binary search over prefix sums (not the
   seed's; the greedy part of L_v stays a scan). Writes v->s, *u, *l; a dead
   child gets u = l = -1, which every pruning test drops. */
HYB_KNAPSACK_HD void hyb_knapsack_bound( const hyb_knapsack_items_t* it, hyb_knapsack_node_t* v,
                                         int64_t* u, int64_t* l )
{
	if ( v->k < 0 )
	{
		*u = -1;
		*l = -1;
		return;
	}
	const int32_t  n    = it->n;
	const int64_t* w    = it->w;
	const int64_t* p    = it->p;
	int64_t        room = it->c - v->w;
	int64_t        acc  = v->p;
	int32_t        s    = v->k;
	if ( it->wsum && s < n )
	{
		/* smallest s in [k, n] with wsum[s + 1] - wsum[k] > room (n if none) */
		const int64_t base = it->wsum[v->k];
		int32_t       lo = v->k, hi = n;
		while ( lo < hi )
		{
			int32_t mid = lo + ( hi - lo ) / 2;
			if ( it->wsum[mid + 1] - base > room )
				hi = mid;
			else
				lo = mid + 1;
		}
		s = lo;
		room -= it->wsum[s] - base;
		acc += it->psum[s] - it->psum[v->k];
	}
	else
	{
		while ( s < n && w[s] <= room )
		{
			room -= w[s];
			acc += p[s];
			s++;
		}
	}
	v->s       = s;
	int64_t ub = acc;
	int64_t lb = acc;
	if ( s < n )
	{
		ub += hyb_knapsack_frac( room, p[s], w[s] );
		for ( int32_t i = s + 1; i < n; i++ )
			if ( w[i] <= room )
			{
				room -= w[i];
				lb += p[i];
			}
	}
	*u = ub;
	*l = lb;
}

/* The pruning test of a bounded child against the incumbent L*: the seed
   deletes a subproblem whose upper bound is less than L* (strict);
   `ties` also deletes U == L* (it cannot improve on the incumbent). Returns
   HYB_KNAPSACK_DROP, HYB_KNAPSACK_KEEP or HYB_KNAPSACK_KEEP_DONE. */
HYB_KNAPSACK_HD int hyb_knapsack_label( const hyb_knapsack_node_t* v, int64_t u, int64_t lstar,
                                        int ties, int32_t n )
{
	const int keep = ties ? u > lstar : u >= lstar;
	if ( !keep || v->k < 0 ) return HYB_KNAPSACK_DROP;
	return v->k >= n ? HYB_KNAPSACK_KEEP_DONE : HYB_KNAPSACK_KEEP;
}

/* One cell of the dynamic program's row for an item (w, p): the best
   profit within capacity j, from the previous row (NULL: no item yet, all
   zeros). *taken is set iff taking the item is strictly better. */
HYB_KNAPSACK_HD int64_t hyb_knapsack_dp_cell( const int64_t* prev, int64_t j, int64_t w, int64_t p,
                                              int* taken )
{
	const int64_t keep = prev ? prev[j] : 0;
	*taken             = 0;
	if ( j < w ) return keep;
	const int64_t with = ( prev ? prev[j - w] : 0 ) + p;
	if ( with <= keep ) return keep;
	*taken = 1;
	return with;
}

/* The selection behind the DP's optimum at capacity c, read back from the
   decision bits of rows 0..n-1 (n words of hyb_knapsack_dp_words(c) each),
   last item first: x[i] = 1 iff item i was taken at the capacity left. */
HYB_KNAPSACK_HD void hyb_knapsack_dp_walk( const int64_t* w, int32_t n, int64_t c, int64_t words,
                                           const uint32_t* bits, uint8_t* x )
{
	int64_t j = c;
	for ( int32_t i = n - 1; i >= 0; i-- )
	{
		const uint32_t word = bits[i * words + j / 32];
		x[i]                = (uint8_t)( ( word >> ( j % 32 ) ) & 1u );
		if ( x[i] ) j -= w[i];
	}
}

/* Cells 32 q0 .. min(32 q1 - 1, cap) of a row, a word of decision bits per
   32 capacities (bit j % 32 of word j / 32) into take (NULL: none). */
HYB_KNAPSACK_HD void hyb_knapsack_dp_words_range( const int64_t* prev, int64_t* next,
                                                  uint32_t* take, int64_t cap, int64_t w, int64_t p,
                                                  int64_t q0, int64_t q1 )
{
	for ( int64_t q = q0; q < q1; q++ )
	{
		uint32_t      bits = 0;
		const int64_t j0   = 32 * q;
		const int64_t j1   = j0 + 31 < cap ? j0 + 31 : cap;
		for ( int64_t j = j0; j <= j1; j++ )
		{
			int taken;
			next[j] = hyb_knapsack_dp_cell( prev, j, w, p, &taken );
			bits |= (uint32_t)taken << ( j - j0 );
		}
		if ( take ) take[q] = bits;
	}
}

#endif
