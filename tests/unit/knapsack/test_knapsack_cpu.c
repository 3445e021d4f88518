/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack's CPU pieces against independent references: instance
   checks and the ratio sort, the generators' definitions, the circular
   buffer, the DPs against brute force, bound validity on random nodes,
   node expansion, and the recovery of an optimal selection. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_types.h"
#include "kernels/knapsack/hyb_knapsack_core.h"
#include "kernels/knapsack/hyb_knapsack_cpu.h"
#include "kernels/knapsack/hyb_knapsack_kargs.h"
#include "kernels/knapsack/hyb_knapsack_ring.h"
#include "test_knapsack_util.h"

static kt_inst_t kt_a, kt_b;

/* ------------------------------------------------------------------ items */

static void test_check_rejects( void )
{
	const int64_t p[3] = { 1, 2, 3 }, w[3] = { 1, 2, 3 };
	int64_t       sp = -7, sw = -7;
	CU_ASSERT_EQUAL( hyb_knapsack_check( 3, p, w, 4, &sp, &sw ), HYB_OK );
	CU_ASSERT_EQUAL( sp, 6 );
	CU_ASSERT_EQUAL( sw, 6 );
	CU_ASSERT_EQUAL( hyb_knapsack_check( 0, NULL, NULL, 0, NULL, NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_knapsack_check( -1, p, w, 4, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_knapsack_check( 3, NULL, w, 4, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_knapsack_check( 3, p, NULL, 4, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_knapsack_check( 3, p, w, -1, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_knapsack_check( HYB_KNAPSACK_MAX_ITEMS + 1, p, w, 4, NULL, NULL ),
	                 HYB_E_INVALID );
	const int64_t neg_w[3] = { 1, -2, 3 }, neg_p[3] = { 1, 2, -3 };
	CU_ASSERT_EQUAL( hyb_knapsack_check( 3, p, neg_w, 4, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_knapsack_check( 3, neg_p, w, 4, NULL, NULL ), HYB_E_INVALID );
	const int64_t big[2] = { INT64_MAX - 5, 6 }, ok[2] = { INT64_MAX - 5, 5 };
	CU_ASSERT_EQUAL( hyb_knapsack_check( 2, big, w, 4, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_knapsack_check( 2, p, big, 4, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_knapsack_check( 2, ok, ok, 4, NULL, NULL ), HYB_OK );
}

static void test_prepare_sorts( void )
{
	/* ratios 2, 1/2, inf (w = 0), 2 (tie: keeps order), 0 */
	const int64_t p[5] = { 4, 1, 5, 6, 0 }, w[5] = { 2, 2, 0, 3, 7 };
	int64_t       pc[5], wc[5];
	memcpy( pc, p, sizeof p );
	memcpy( wc, w, sizeof w );
	hyb_knapsack_prep_t pr;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( 5, p, w, 100, &pr ), HYB_OK );
	const int64_t want[5] = { 2, 0, 3, 1, 4 };
	for ( int i = 0; i < 5; i++ )
	{
		CU_ASSERT_EQUAL( pr.perm[i], want[i] );
		CU_ASSERT_EQUAL( pr.w[i], w[want[i]] );
		CU_ASSERT_EQUAL( pr.p[i], p[want[i]] );
		CU_ASSERT_EQUAL( pr.wsum[i + 1], pr.wsum[i] + pr.w[i] );
		CU_ASSERT_EQUAL( pr.psum[i + 1], pr.psum[i] + pr.p[i] );
	}
	CU_ASSERT_EQUAL( pr.n, 5 );
	CU_ASSERT_EQUAL( pr.sum_w, 14 );
	CU_ASSERT_EQUAL( pr.sum_p, 16 );
	CU_ASSERT_EQUAL( pr.c, 14 ); /* clamped */
	CU_ASSERT( memcmp( p, pc, sizeof p ) == 0 && memcmp( w, wc, sizeof w ) == 0 );
	hyb_knapsack_prep_free( &pr );
	hyb_knapsack_prep_free( &pr ); /* idempotent */
	CU_ASSERT_EQUAL( hyb_knapsack_prepare( 5, p, w, -1, &pr ), HYB_E_INVALID );
	/* large values: the exact 128-bit comparison orders 3/(2^61) after 1/(2^60 - 1) */
	const int64_t bp[2] = { 1, 3 }, bw[2] = { ( (int64_t)1 << 60 ) - 1, (int64_t)1 << 61 };
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( 2, bp, bw, 5, &pr ), HYB_OK );
	CU_ASSERT_EQUAL( pr.perm[0], 1 );
	hyb_knapsack_prep_free( &pr );
}

/* ------------------------------------------------------------------ generators */

static void test_generators( void )
{
	for ( int cls = 0; cls < HYB_KNAPSACK_GEN_COUNT; cls++ )
	{
		const int64_t R = 1000, n = 300;
		kt_gen( &kt_a, (hyb_knapsack_gen_class_t)cls, n, R, 42 );
		kt_gen( &kt_b, (hyb_knapsack_gen_class_t)cls, n, R, 42 );
		CU_ASSERT( memcmp( &kt_a, &kt_b, sizeof kt_a ) == 0 ); /* deterministic */
		int64_t sum = 0;
		int     ok  = 1;
		for ( int64_t j = 0; j < n; j++ )
		{
			const int64_t w = kt_a.w[j], p = kt_a.p[j];
			sum += w;
			switch ( (hyb_knapsack_gen_class_t)cls )
			{
			case HYB_KNAPSACK_GEN_UNCORRELATED:
				ok &= w >= 1 && w <= R && p >= 1 && p <= R;
				break;
			case HYB_KNAPSACK_GEN_WEAKLY:
				ok &= w >= 1 && w <= R && p >= 1 && llabs( p - w ) <= R / 10;
				break;
			case HYB_KNAPSACK_GEN_STRONGLY:
				ok &= w >= 1 && w <= R && p == w + R / 10;
				break;
			case HYB_KNAPSACK_GEN_INVERSE_STRONGLY:
				ok &= p >= 1 && p <= R && w == p + R / 10;
				break;
			case HYB_KNAPSACK_GEN_ALMOST_STRONGLY:
				ok &= w >= 1 && w <= R && llabs( p - w - R / 10 ) <= R / 500;
				break;
			case HYB_KNAPSACK_GEN_SUBSET_SUM:
				ok &= w >= 1 && w <= R && p == w;
				break;
			case HYB_KNAPSACK_GEN_SIMILAR_WEIGHTS:
				ok &= w >= 100000 && w <= 100100 && p >= 1 && p <= 1000;
				break;
			case HYB_KNAPSACK_GEN_PROFIT_CEILING:
				ok &= w >= 1 && w <= R && p % 3 == 0 && p >= w && p < w + 3;
				break;
			case HYB_KNAPSACK_GEN_CIRCLE:
			{
				const double d = (double)w - 2.0 * R;
				ok &= w >= 1 && w <= R &&
				      llabs( p - (int64_t)floor( 2.0 / 3.0 * sqrt( 4.0 * R * R - d * d ) ) ) <= 0;
				break;
			}
			case HYB_KNAPSACK_GEN_SEED:
				ok &= w >= 1 && w <= 10000 && llabs( p - w - 1000 ) <= 20;
				break;
			case HYB_KNAPSACK_GEN_COUNT:
				ok = 0;
				break;
			}
		}
		CU_ASSERT( ok );
		const int64_t want_c = cls == HYB_KNAPSACK_GEN_SEED ? sum * 100 / 1001 : sum * 50 / 101;
		CU_ASSERT_EQUAL( kt_a.c, want_c );
		CU_ASSERT_STRING_NOT_EQUAL( hyb_knapsack_gen_name( (hyb_knapsack_gen_class_t)cls ),
		                            "unknown" );
	}
	/* the seed's set: 20 distinct instances per size */
	hyb_knapsack_gen_t g0 = hyb_knapsack_gen_seed_set( 100, 0 ),
	                   g1 = hyb_knapsack_gen_seed_set( 100, 1 );
	CU_ASSERT_NOT_EQUAL( g0.seed, g1.seed );
	CU_ASSERT_NOT_EQUAL( hyb_knapsack_gen_seed_set( 200, 0 ).seed, g0.seed );
	/* large capacity: a DP row would not fit in any memory */
	hyb_knapsack_gen_t gl = hyb_knapsack_gen_large( 1000, 5 );
	kt_a.n                = 1000;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_generate( &gl, kt_a.p, kt_a.w, &kt_a.c ), HYB_OK );
	CU_ASSERT( kt_a.c > (int64_t)1e14 );
	/* bad parameters */
	hyb_knapsack_gen_t bad = { HYB_KNAPSACK_GEN_COUNT, 10, 100, 0, 0, 1 };
	CU_ASSERT_EQUAL( hyb_knapsack_generate( &bad, kt_a.p, kt_a.w, &kt_a.c ), HYB_E_INVALID );
	bad.cls   = HYB_KNAPSACK_GEN_WEAKLY;
	bad.range = 5;
	CU_ASSERT_EQUAL( hyb_knapsack_generate( &bad, kt_a.p, kt_a.w, &kt_a.c ), HYB_E_INVALID );
	bad.range = 100;
	bad.h     = 5;
	bad.H     = 4;
	CU_ASSERT_EQUAL( hyb_knapsack_generate( &bad, kt_a.p, kt_a.w, &kt_a.c ), HYB_E_INVALID );
}

/* ------------------------------------------------------------------ ring */

static hyb_status_t kt_alloc( void* ctx, size_t bytes, void** out )
{
	int* fails = ctx;
	if ( fails && *fails ) return HYB_E_NO_MEMORY;
	*out = malloc( bytes );
	return *out ? HYB_OK : HYB_E_NO_MEMORY;
}

static void kt_release( void* ctx, void* p )
{
	(void)ctx;
	free( p );
}

static hyb_knapsack_node_t kt_node( int64_t id, int unfinished )
{
	hyb_knapsack_node_t v = { id, 10 * id, unfinished ? 1 : 5, 0 };
	return v;
}

static void test_ring( void )
{
	int                     fails = 0;
	hyb_knapsack_host_mem_t mem   = { &fails, kt_alloc, kt_release };
	hyb_knapsack_ring_t     r;
	hyb_knapsack_ring_init( &r, 10, mem );
	CU_ASSERT_EQUAL( hyb_knapsack_ring_reserve( &r, 11 ), HYB_E_AGAIN );
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_ring_reserve( &r, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( r.cap, 10 ); /* at most the limit */
	for ( int64_t i = 0; i < 7; i++ )
	{
		hyb_knapsack_node_t v = kt_node( i, i < 3 );
		hyb_knapsack_ring_push( &r, &v, i < 3 );
	}
	CU_ASSERT_EQUAL( r.count, 7 );
	CU_ASSERT_EQUAL( r.nchk, 3 ); /* check after the last unfinished batch */
	CU_ASSERT_EQUAL( hyb_knapsack_ring_check( &r ), 3 );
	CU_ASSERT_EQUAL( hyb_knapsack_ring_tail( &r ), 7 );
	/* take 5 from the head: 3 of them were before check */
	hyb_knapsack_seg_t seg[2];
	CU_ASSERT_EQUAL( hyb_knapsack_ring_front_segs( &r, 5, seg ), 1 );
	CU_ASSERT_EQUAL( hyb_knapsack_ring_commit_front( &r, 5 ), 3 );
	CU_ASSERT_EQUAL( r.nchk, 0 );
	CU_ASSERT_EQUAL( hyb_knapsack_ring_check( &r ), r.head ); /* check == head: host side done */
	/* 6 more wrap: positions 7, 8, 9 then 0, 1, 2 */
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_ring_reserve( &r, 6 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_knapsack_ring_back_segs( &r, 6, seg ), 2 );
	CU_ASSERT( seg[0].pos == 7 && seg[0].len == 3 && seg[1].pos == 0 && seg[1].len == 3 );
	for ( int64_t s = 0, id = 100; s < 2; s++ )
		for ( int64_t k = 0; k < seg[s].len; k++ ) r.buf[seg[s].pos + k] = kt_node( id++, 0 );
	hyb_knapsack_ring_commit_back( &r, 6, 0 );
	CU_ASSERT_EQUAL( r.nchk, 0 ); /* a finished batch leaves check */
	CU_ASSERT_EQUAL( r.count, 8 );
	CU_ASSERT_EQUAL( r.peak, 8 );
	CU_ASSERT_EQUAL( hyb_knapsack_ring_reserve( &r, 3 ), HYB_E_AGAIN ); /* 11 > limit */
	CU_ASSERT_EQUAL( hyb_knapsack_ring_front_segs( &r, 8, seg ), 2 );
	/* the order survives the wrap */
	hyb_knapsack_node_t v = hyb_knapsack_ring_pop( &r );
	CU_ASSERT_EQUAL( v.w, 5 );
	v = hyb_knapsack_ring_pop( &r );
	CU_ASSERT_EQUAL( v.w, 6 );
	v = hyb_knapsack_ring_pop( &r );
	CU_ASSERT_EQUAL( v.w, 100 );
	hyb_knapsack_ring_free( &r );

	/* growth moves a wrapped run to the front in order */
	hyb_knapsack_ring_init( &r, 100000, mem );
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_ring_reserve( &r, 4096 ), HYB_OK );
	CU_ASSERT_EQUAL( r.cap, 4096 );
	for ( int64_t i = 0; i < 4096; i++ )
	{
		hyb_knapsack_node_t u = kt_node( i, 1 );
		hyb_knapsack_ring_push( &r, &u, 1 );
	}
	hyb_knapsack_ring_commit_front( &r, 4000 );
	for ( int64_t i = 0; i < 3000; i++ )
	{
		hyb_knapsack_node_t u = kt_node( 4096 + i, 0 );
		hyb_knapsack_ring_push( &r, &u, 0 );
	}
	CU_ASSERT_EQUAL( r.nchk, 96 );
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_ring_reserve( &r, 2000 ), HYB_OK );
	CU_ASSERT_EQUAL( r.cap, 8192 );
	CU_ASSERT_EQUAL( r.head, 0 );
	CU_ASSERT_EQUAL( r.nchk, 96 );
	int ordered = 1;
	for ( int64_t i = 0; i < r.count; i++ ) ordered &= r.buf[i].w == 4000 + i;
	CU_ASSERT( ordered );
	CU_ASSERT_EQUAL( r.bytes_allocated, 8192 * sizeof( hyb_knapsack_node_t ) );
	/* an allocation failure changes nothing */
	fails = 1;
	CU_ASSERT_EQUAL( hyb_knapsack_ring_reserve( &r, 10000 ), HYB_E_NO_MEMORY );
	CU_ASSERT_EQUAL( r.cap, 8192 );
	CU_ASSERT_EQUAL( r.count, 3096 );
	hyb_knapsack_ring_free( &r );
}

/* ------------------------------------------------------------------ DP */

static void test_dp_brute( void )
{
	for ( uint64_t seed = 1; seed <= 120; seed++ )
	{
		const int64_t n = (int64_t)( seed % 23 );
		kt_random( &kt_a, n, seed % 3 ? 40 : 1000, seed );
		const int64_t z = kt_brute( &kt_a );
		CU_ASSERT_EQUAL( kt_dp( &kt_a ), z );
		/* the row DP with bits, on 1 thread and (a barrier per item costs
		   more than these rows: now and then) on 2 */
		const int64_t words = hyb_knapsack_dp_words( kt_a.c );
		uint32_t*     bits  = malloc( (size_t)( n + 1 ) * (size_t)words * 4 );
		uint8_t       x[32];
		for ( int t = 1; t <= ( seed % 8 == 0 ? 2 : 1 ); t++ )
		{
			int64_t v = -1;
			CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu( kt_a.w, kt_a.p, (int32_t)n, kt_a.c, t, &v, bits ),
			                 HYB_OK );
			CU_ASSERT_EQUAL( v, z );
			hyb_knapsack_dp_backtrack( kt_a.w, (int32_t)n, kt_a.c, bits, x );
			CU_ASSERT( kt_selection_ok( &kt_a, x, z ) );
			v = -1;
			CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu( kt_a.w, kt_a.p, (int32_t)n, kt_a.c, t, &v, NULL ),
			                 HYB_OK );
			CU_ASSERT_EQUAL( v, z );
		}
		free( bits );
	}
}

/* The core is a relaxation: every item that can take the value it does not have in the LP
   solution (before the split item: out; after it: in) in some selection better than the
   greedy one is in the core. Checked by enumeration against each item forced so. */
static void test_core_items( void )
{
	static kt_inst_t forced;
	for ( uint64_t seed = 1; seed <= 60; seed++ )
	{
		const int64_t n = 2 + (int64_t)( seed % 15 );
		kt_random( &kt_a, n, seed % 2 ? 50 : 5000, seed );
		hyb_knapsack_prep_t pr;
		CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( n, kt_a.p, kt_a.w, kt_a.c, &pr ), HYB_OK );
		const int64_t core = hyb_knapsack_core_items( &pr );
		CU_ASSERT( core >= 0 && core <= n );
		int64_t b = 0, used = 0;
		while ( b < n && used + pr.w[b] <= pr.c ) used += pr.w[b++];
		if ( b == n ) CU_ASSERT_EQUAL( core, 0 );
		int64_t greedy = 0, room = pr.c;
		for ( int64_t i = 0; i < n; i++ )
			if ( pr.w[i] <= room && ( i < b || i > b ) )
			{
				room -= pr.w[i];
				greedy += pr.p[i];
			}
		int64_t free_items = 0;
		for ( int64_t i = 0; i < n && b < n; i++ )
		{
			if ( i == b )
			{
				free_items++; /* the split item is in the core by definition */
				continue;
			}
			/* the others, item i taken out (before b) or put in (after b) */
			forced.n = 0;
			forced.c = pr.c - ( i > b ? pr.w[i] : 0 );
			if ( forced.c < 0 ) continue;
			for ( int64_t j = 0; j < n; j++ )
				if ( j != i )
				{
					forced.p[forced.n] = pr.p[j];
					forced.w[forced.n] = pr.w[j];
					forced.n++;
				}
			const int64_t best = kt_brute( &forced ) + ( i > b ? pr.p[i] : 0 );
			free_items += best > greedy;
		}
		CU_ASSERT( core >= free_items );
		hyb_knapsack_prep_free( &pr );
	}
}

static void test_dp_parallel_rows( void )
{
	/* rows long enough for the threads to split words */
	kt_gen( &kt_a, HYB_KNAPSACK_GEN_SEED, 60, 0, 9 );
	int64_t v1 = -1, v2 = -1, v3 = -1;
	CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu( kt_a.w, kt_a.p, 60, kt_a.c, 1, &v1, NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu( kt_a.w, kt_a.p, 60, kt_a.c, 3, &v2, NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu( kt_a.w, kt_a.p, 60, kt_a.c, 0, &v3, NULL ), HYB_OK );
	CU_ASSERT_EQUAL( v1, kt_dp( &kt_a ) );
	CU_ASSERT_EQUAL( v2, v1 );
	CU_ASSERT_EQUAL( v3, v1 );
}

/* ------------------------------------------------------------------ bounds */

/* z*(v): the best completion of node v (items k..n-1 with the room left),
   by brute force over the remaining items. */
static int64_t kt_completion( const hyb_knapsack_prep_t* pr, const hyb_knapsack_node_t* v )
{
	kt_b.n = pr->n - v->k;
	for ( int64_t i = 0; i < kt_b.n; i++ )
	{
		kt_b.w[i] = pr->w[v->k + i];
		kt_b.p[i] = pr->p[v->k + i];
	}
	kt_b.c = pr->c - v->w;
	return v->p + kt_brute( &kt_b );
}

static void test_bounds_valid( void )
{
	int checked = 0, tight = 0;
	for ( uint64_t seed = 1; seed <= 60; seed++ )
	{
		const hyb_knapsack_gen_class_t cls =
		    (hyb_knapsack_gen_class_t)( seed % HYB_KNAPSACK_GEN_COUNT );
		if ( seed % 3 == 0 )
			kt_random( &kt_a, 16, 60, seed );
		else
			kt_gen( &kt_a, cls, 16, 100, seed );
		hyb_knapsack_prep_t pr;
		CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( kt_a.n, kt_a.p, kt_a.w, kt_a.c, &pr ),
		                       HYB_OK );
		const hyb_knapsack_items_t lin = hyb_knapsack_prep_items( &pr, 0 );
		const hyb_knapsack_items_t pre = hyb_knapsack_prep_items( &pr, 1 );
		uint64_t                   s   = seed;
		for ( int t = 0; t < 40; t++ )
		{
			/* a random feasible node: random decisions for the first k items */
			s                     = s * 6364136223846793005ull + 1442695040888963407ull;
			hyb_knapsack_node_t v = { 0, 0, (int32_t)( ( s >> 33 ) % (uint64_t)( pr.n + 1 ) ), 0 };
			for ( int32_t i = 0; i < v.k; i++ )
			{
				s = s * 6364136223846793005ull + 1442695040888963407ull;
				if ( ( s >> 40 ) & 1 && v.w + pr.w[i] <= pr.c )
				{
					v.w += pr.w[i];
					v.p += pr.p[i];
				}
			}
			hyb_knapsack_node_t a = v, b = v;
			int64_t             ua, la, ub, lb;
			hyb_knapsack_bound( &lin, &a, &ua, &la );
			hyb_knapsack_bound( &pre, &b, &ub, &lb );
			/* both searches for the slack item agree exactly */
			CU_ASSERT( a.s == b.s && ua == ub && la == lb );
			const int64_t z = kt_completion( &pr, &v );
			CU_ASSERT( la <= z && z <= ua );
			checked++;
			tight += la == z;
		}
		hyb_knapsack_prep_free( &pr );
	}
	CU_ASSERT( checked == 2400 );
	CU_ASSERT( tight > 0 ); /* the greedy bound is often exact */
}

static void test_bound_wide_values( void )
{
	/* a Dantzig fraction whose product r p_S exceeds 64 bits */
	const int64_t       w[2] = { ( (int64_t)1 << 40 ), ( (int64_t)1 << 41 ) + 1 };
	const int64_t       p[2] = { ( (int64_t)1 << 41 ), ( (int64_t)1 << 42 ) };
	hyb_knapsack_prep_t pr;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( 2, p, w, ( (int64_t)1 << 41 ), &pr ), HYB_OK );
	hyb_knapsack_items_t it = hyb_knapsack_prep_items( &pr, 0 );
	hyb_knapsack_node_t  v  = { 0, 0, 0, 0 };
	int64_t              u, l;
	hyb_knapsack_bound( &it, &v, &u, &l );
	/* item 0 fits; r = 2^40 of item 1: floor(2^40 2^42 / (2^41 + 1)) */
	const int64_t frac =
	    (int64_t)( ( (unsigned __int128)1 << 82 ) / ( ( (unsigned __int128)1 << 41 ) + 1 ) );
	CU_ASSERT_EQUAL( v.s, 1 );
	CU_ASSERT_EQUAL( u, ( (int64_t)1 << 41 ) + frac );
	CU_ASSERT_EQUAL( l, (int64_t)1 << 41 );
	hyb_knapsack_prep_free( &pr );
}

/* ------------------------------------------------------------------ expansion */

static void test_expand( void )
{
	/* items (p, w) sorted: (10, 5) (6, 4) (3, 3); c = 8 */
	const int64_t       p[3] = { 10, 6, 3 }, w[3] = { 5, 4, 3 };
	hyb_knapsack_prep_t pr;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( 3, p, w, 8, &pr ), HYB_OK );
	hyb_knapsack_items_t it    = hyb_knapsack_prep_items( &pr, 0 );
	hyb_knapsack_node_t  root  = { 0, 0, 0, 0 }, out[2];
	int64_t              lstar = 0;
	int                  nk    = hyb_knapsack_cpu_expand( &it, &root, &lstar, 0, out );
	/* take item 0: S = 1, r = 3, U = 10 + floor(3 6 / 4) = 14, L = 13 (item 2 fits);
	   skip: items 1, 2 fit, U = L = 9 < 13: pruned */
	CU_ASSERT_EQUAL( lstar, 13 );
	CU_ASSERT_EQUAL_FATAL( nk, 1 );
	CU_ASSERT( out[0].k == 1 && out[0].w == 5 && out[0].p == 10 && out[0].s == 1 );
	/* a finished node that ties L* survives a strict test, not a tie test */
	hyb_knapsack_node_t done = { 8, 13, 3, 3 };
	lstar                    = 13;
	CU_ASSERT_EQUAL( hyb_knapsack_cpu_expand( &it, &done, &lstar, 0, out ), 1 );
	CU_ASSERT( out[0].k == 3 && out[0].p == 13 );
	CU_ASSERT_EQUAL( hyb_knapsack_cpu_expand( &it, &done, &lstar, 1, out ), 0 );
	/* an infeasible take child is dead and dropped */
	hyb_knapsack_node_t heavy = { 5, 10, 1, 1 };
	lstar                     = 0;
	nk                        = hyb_knapsack_cpu_expand( &it, &heavy, &lstar, 0, out );
	CU_ASSERT_EQUAL( nk, 1 );
	CU_ASSERT( out[0].w == 5 && out[0].k == 2 );
	hyb_knapsack_prep_free( &pr );
}

/* ------------------------------------------------------------------ recovery */

static void test_recover( void )
{
	uint8_t xs[64], x[64];
	for ( uint64_t seed = 1; seed <= 80; seed++ )
	{
		if ( seed % 2 )
			kt_random( &kt_a, (int64_t)( seed % 21 ), 50, seed );
		else
			kt_gen( &kt_a, (hyb_knapsack_gen_class_t)( seed % HYB_KNAPSACK_GEN_COUNT ), 20, 100,
			        seed );
		const int64_t       z = kt_brute( &kt_a );
		hyb_knapsack_prep_t pr;
		CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( kt_a.n, kt_a.p, kt_a.w, kt_a.c, &pr ),
		                       HYB_OK );
		hyb_knapsack_items_t it      = hyb_knapsack_prep_items( &pr, 0 );
		uint64_t             visited = 0;
		memset( xs, 7, sizeof xs );
		CU_ASSERT_EQUAL_FATAL( hyb_knapsack_recover( &it, z, xs, &visited, 0.0 ), HYB_OK );
		CU_ASSERT( visited >= 1 );
		for ( int64_t i = 0; i < kt_a.n; i++ ) x[pr.perm[i]] = xs[i];
		CU_ASSERT( kt_selection_ok( &kt_a, x, z ) );
		/* a value above the optimum cannot be reached */
		CU_ASSERT_EQUAL( hyb_knapsack_recover( &it, z + 1, xs, NULL, 0.0 ), HYB_E_INVALID );
		/* a deadline already passed stops the pass at its first node; one ahead does not */
		CU_ASSERT_EQUAL( hyb_knapsack_recover( &it, z, xs, &visited, hyb_now() - 1.0 ),
		                 HYB_E_TIMEOUT );
		CU_ASSERT_EQUAL( visited, 0 );
		CU_ASSERT_EQUAL( hyb_knapsack_recover( &it, z, xs, NULL, hyb_now() + 3600.0 ), HYB_OK );
		hyb_knapsack_prep_free( &pr );
	}
}

static CU_TestInfo kt_tests_cpu[] = {
	{ "check_rejects", test_check_rejects },
	{ "prepare_sorts", test_prepare_sorts },
	{ "generators", test_generators },
	{ "ring", test_ring },
	{ "dp_brute", test_dp_brute },
	{ "core_items", test_core_items },
	{ "dp_parallel_rows", test_dp_parallel_rows },
	{ "bounds_valid", test_bounds_valid },
	{ "bound_wide_values", test_bound_wide_values },
	{ "expand", test_expand },
	{ "recover", test_recover },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_knapsack_cpu = { "knapsack_cpu", NULL, NULL, NULL, NULL, kt_tests_cpu };
