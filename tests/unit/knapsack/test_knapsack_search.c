/* SPDX-License-Identifier: BSD-3-Clause */
/* The branch-and-bound drivers on the host stand-in with tiny buffers:
   every search equals the DP on instances of every class; the circular
   buffer wraps; a tiny GPU buffer moves subproblems every iteration with
   the seed's Table 2.1 amounts (O3S vs BFS); buffers that run out stop the
   search with the right reason; a fault at any device call is reported and
   leaks nothing; and the GPU DP equals the CPU DP. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/knapsack/hyb_knapsack_cpu.h"
#include "kernels/knapsack/hyb_knapsack_dpdev.h"
#include "test_knapsack_util.h"

static kt_inst_t kt_i;

/* The trace of one run: per iteration what moved, kept in order. */
#define KT_TRACE_MAX 4096
typedef struct
{
	int                 count;
	hyb_knapsack_iter_t it[KT_TRACE_MAX];
} kt_trace_t;
static kt_trace_t kt_tr;

static void kt_record( void* ctx, const hyb_knapsack_iter_t* it )
{
	kt_trace_t* t = ctx;
	if ( t->count < KT_TRACE_MAX ) t->it[t->count] = *it;
	t->count++;
}

/* Run plan p on kt_i from a fresh stand-in, recording every iteration in kt_tr. */
static hyb_status_t kt_traced_search( hyb_knapsack_search_plan_t* p, hyb_knapsack_hostdev_t* hd,
                                      hyb_knapsack_search_stats_t* st )
{
	p->on_iteration = kt_record;
	p->trace_ctx    = &kt_tr;
	memset( &kt_tr, 0, sizeof kt_tr );
	memset( hd, 0, sizeof *hd );
	return kt_search( &kt_i, p, hd, 0, st );
}

static const hyb_knapsack_search_t kt_searches[4] = { HYB_KNAPSACK_SEARCH_O3S,
	                                                  HYB_KNAPSACK_SEARCH_BFS,
	                                                  HYB_KNAPSACK_SEARCH_INCORE,
	                                                  HYB_KNAPSACK_SEARCH_CPU };

static void test_equal_dp( void )
{
	int runs = 0, gpu_runs = 0;
	for ( int cls = 0; cls < HYB_KNAPSACK_GEN_COUNT; cls++ )
		for ( uint64_t seed = 1; seed <= 4; seed++ )
		{
			/* Subset sum has U = c at every node with room left: under the
			   seed's strict test nothing is pruned once L* = c, the whole
			   tree is searched; keep those instances small. */
			const int64_t n =
			    cls == HYB_KNAPSACK_GEN_SUBSET_SUM ? 10 + (int64_t)seed : 18 + 6 * (int64_t)seed;
			kt_gen( &kt_i, (hyb_knapsack_gen_class_t)cls, n, 60, seed );
			const int64_t z = kt_dp( &kt_i );
			for ( int s = 0; s < 4; s++ )
				for ( int ties = 0; ties < 2; ties++ )
				{
					/* in core gets room for every subproblem; out of core 16 per buffer */
					hyb_knapsack_search_plan_t p =
					    kt_plan( kt_searches[s], 8, 1 << 16,
					             kt_searches[s] == HYB_KNAPSACK_SEARCH_INCORE ? 1 << 16 : 16 );
					p.ties = ties;
					/* a search that never ends (a livelock) fails here instead of hanging */
					p.node_limit = 2000000;
					hyb_knapsack_hostdev_t      hd;
					hyb_knapsack_search_stats_t st;
					memset( &hd, 0, sizeof hd );
					CU_ASSERT_EQUAL_FATAL( kt_search( &kt_i, &p, &hd, ( seed & 1 ) != 0, &st ),
					                       HYB_OK );
					CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_NONE );
					CU_ASSERT_EQUAL( st.lstar, z );
					CU_ASSERT_EQUAL( hd.dev_bytes, 0 ); /* everything released */
					runs++;
					gpu_runs += st.gpu_iterations > 0;
				}
		}
	CU_ASSERT_EQUAL( runs, HYB_KNAPSACK_GEN_COUNT * 4 * 4 * 2 );
	CU_ASSERT( gpu_runs > runs / 3 ); /* the GPU loops really ran */
}

static void test_random_small( void )
{
	/* zero weights and profits, items heavier than the capacity, n = 0..22 */
	for ( uint64_t seed = 1; seed <= 60; seed++ )
	{
		kt_random( &kt_i, (int64_t)( seed % 23 ), 30, seed );
		const int64_t z = kt_brute( &kt_i );
		for ( int s = 0; s < 4; s++ )
		{
			hyb_knapsack_search_plan_t  p = kt_plan( kt_searches[s], 4, 1 << 14, 1 << 10 );
			hyb_knapsack_hostdev_t      hd;
			hyb_knapsack_search_stats_t st;
			memset( &hd, 0, sizeof hd );
			CU_ASSERT_EQUAL_FATAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_OK );
			CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_NONE );
			CU_ASSERT_EQUAL( st.lstar, z );
		}
	}
}

static void test_prefix_and_ties( void )
{
	kt_gen( &kt_i, HYB_KNAPSACK_GEN_STRONGLY, 40, 100, 5 );
	const int64_t               z = kt_dp( &kt_i );
	hyb_knapsack_search_stats_t a, b, c;
	hyb_knapsack_hostdev_t      hd;
	hyb_knapsack_search_plan_t  p = kt_plan( HYB_KNAPSACK_SEARCH_O3S, 8, 1 << 20, 16 );
	memset( &hd, 0, sizeof hd );
	CU_ASSERT_EQUAL_FATAL( kt_search( &kt_i, &p, &hd, 0, &a ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( kt_search( &kt_i, &p, &hd, 1, &b ), HYB_OK );
	p.ties = 1;
	CU_ASSERT_EQUAL_FATAL( kt_search( &kt_i, &p, &hd, 0, &c ), HYB_OK );
	CU_ASSERT( a.lstar == z && b.lstar == z && c.lstar == z );
	/* the prefix-sum bound computes the same bounds: the same search */
	CU_ASSERT_EQUAL( a.nodes_branched, b.nodes_branched );
	CU_ASSERT_EQUAL( a.iterations, b.iterations );
	/* pruning ties never keeps more */
	CU_ASSERT( c.nodes_branched <= a.nodes_branched );
	CU_ASSERT( a.gpu_iterations > 0 );
}

/* An instance nothing is pruned from for its first m levels (Table 2.1's
   "most data transfer demanding case"): n items of weight and profit 2,
   capacity 2 m + 1. Every node then has U = 2 m + 1 > L* = 2 m, and no take
   child is dead before m items are taken. */
static void kt_no_pruning( int64_t n, int64_t m )
{
	kt_i.n = n;
	for ( int64_t i = 0; i < n; i++ )
	{
		kt_i.w[i] = 2;
		kt_i.p[i] = 2;
	}
	kt_i.c = 2 * m + 1;
}

static void test_table_2_1( void )
{
	kt_no_pruning( 400, 100 );
	for ( int bfs = 0; bfs < 2; bfs++ )
	{
		/* a GPU buffer of 8 subproblems (branches 4), as the table */
		hyb_knapsack_search_plan_t p =
		    kt_plan( bfs ? HYB_KNAPSACK_SEARCH_BFS : HYB_KNAPSACK_SEARCH_O3S, 16, 1 << 20, 8 );
		p.node_limit = 400;
		hyb_knapsack_hostdev_t      hd;
		hyb_knapsack_search_stats_t st;
		CU_ASSERT_EQUAL_FATAL( kt_traced_search( &p, &hd, &st ), HYB_OK );
		CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_NODE_LIMIT );
		/* 4 CPU passes (1, 2, 4, 8 nodes), then GPU mode; the first two GPU
		   iterations fill the buffers; from then on the steady state */
		int first = -1, steady = 0, ok = 1;
		for ( int i = 0; i < kt_tr.count && i < KT_TRACE_MAX; i++ )
		{
			const hyb_knapsack_iter_t* it = &kt_tr.it[i];
			if ( it->cpu_mode ) continue;
			if ( first < 0 ) first = i;
			if ( i < first + 2 ) continue;
			steady++;
			CU_ASSERT_EQUAL( it->computed,
			                 1 - it->pool ); /* one buffer computes while the other moves */
			if ( bfs )
			{
				/* BFS: all 8 down, then 4 up: 2 calls (more when the ring wraps) */
				ok &= it->d2h_nodes == 8 && it->h2d_nodes == 4 && it->d2h_calls == 1 &&
				      it->h2d_calls == 1;
			}
			else
			{
				/* O3S: only the 4 above half occupancy go down, in 1 call; nothing up */
				ok &= it->d2h_nodes == 4 && it->h2d_nodes == 0 && it->d2h_calls == 1 &&
				      it->h2d_calls == 0;
			}
			ok &= it->n_dev[0] + it->n_dev[1] == 12; /* 8 in the computed buffer, 4 in the other */
		}
		CU_ASSERT( ok );
		CU_ASSERT( steady >= 40 );
		/* the statistics add up: subproblems are 24 bytes; the items went up once */
		CU_ASSERT_EQUAL( st.d2h_bytes, st.d2h_nodes * 24 );
		CU_ASSERT_EQUAL( st.h2d_bytes, st.h2d_nodes * 24 + 2 * 400 * 8 );
		CU_ASSERT_EQUAL( st.d2h_calls + st.h2d_calls,
		                 ( bfs ? 2u : 1u ) * (uint64_t)steady + ( bfs ? 2u : 2u ) + 2u );
		CU_ASSERT( st.peak_dev == 12 );
		CU_ASSERT_EQUAL( hd.dev_bytes, 0 );
	}
}

static void test_wrap( void )
{
	/* a host buffer of 40 subproblems and GPU buffers of 8: the circular
	   buffer wraps, a batch across its end moves in two calls, and the
	   optimum is still the DP's */
	int wrapped = 0, solved = 0;
	for ( uint64_t seed = 1; seed <= 40 && ( wrapped < 3 || solved < 3 ); seed++ )
	{
		kt_gen( &kt_i, HYB_KNAPSACK_GEN_WEAKLY, 30, 100, seed );
		const int64_t z = kt_dp( &kt_i );
		for ( int bfs = 0; bfs < 2; bfs++ )
		{
			hyb_knapsack_search_plan_t p =
			    kt_plan( bfs ? HYB_KNAPSACK_SEARCH_BFS : HYB_KNAPSACK_SEARCH_O3S, 4, 40, 8 );
			hyb_knapsack_hostdev_t      hd;
			hyb_knapsack_search_stats_t st;
			CU_ASSERT_EQUAL_FATAL( kt_traced_search( &p, &hd, &st ), HYB_OK );
			if ( st.stop != HYBLAS_KNAPSACK_STOP_NONE )
			{
				CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_HOST_BUFFER );
				continue;
			}
			solved++;
			CU_ASSERT_EQUAL( st.lstar, z );
			CU_ASSERT( st.peak_host <= 40 );
			int two = 0;
			for ( int i = 0; i < kt_tr.count && i < KT_TRACE_MAX; i++ )
				two |= kt_tr.it[i].d2h_calls == 2 || kt_tr.it[i].h2d_calls == 2;
			wrapped += two;
			/* the last iteration ended with check == head */
			const hyb_knapsack_iter_t* last = &kt_tr.it[kt_tr.count - 1];
			CU_ASSERT_EQUAL( last->check, last->head );
		}
	}
	CU_ASSERT( wrapped >= 3 );
	CU_ASSERT( solved >= 3 );
}

static void test_transfer_every_iteration( void )
{
	/* a GPU buffer of 2 (branches 1): in the no-pruning regime each GPU
	   iteration's transfer buffer holds 2 > 1 and sends 1 down */
	kt_no_pruning( 80, 40 );
	hyb_knapsack_search_plan_t p = kt_plan( HYB_KNAPSACK_SEARCH_O3S, 4, 1 << 16, 2 );
	p.node_limit                 = 40; /* no chain reaches depth 40 */
	hyb_knapsack_hostdev_t      hd;
	hyb_knapsack_search_stats_t st;
	CU_ASSERT_EQUAL_FATAL( kt_traced_search( &p, &hd, &st ), HYB_OK );
	int gpu = 0, moved = 0;
	for ( int i = 0; i < kt_tr.count; i++ )
		if ( !kt_tr.it[i].cpu_mode )
		{
			gpu++;
			moved += kt_tr.it[i].d2h_nodes + kt_tr.it[i].h2d_nodes > 0;
		}
	CU_ASSERT( gpu >= 20 );
	CU_ASSERT_EQUAL( moved, gpu );
	/* and on ordinary instances out-of-core solves with such a buffer */
	for ( uint64_t seed = 1; seed <= 6; seed++ )
	{
		kt_gen( &kt_i, HYB_KNAPSACK_GEN_ALMOST_STRONGLY, 30, 200, seed );
		hyb_knapsack_search_plan_t q = kt_plan( HYB_KNAPSACK_SEARCH_O3S, 2, 1 << 16, 2 );
		memset( &hd, 0, sizeof hd );
		CU_ASSERT_EQUAL_FATAL( kt_search( &kt_i, &q, &hd, 0, &st ), HYB_OK );
		CU_ASSERT_EQUAL( st.lstar, kt_dp( &kt_i ) );
		CU_ASSERT( st.d2h_nodes > 0 && st.h2d_nodes > 0 );
	}
}

static void test_buffers_run_out( void )
{
	kt_no_pruning( 200, 60 );
	hyb_knapsack_hostdev_t      hd;
	hyb_knapsack_search_stats_t st;
	for ( int s = 0; s < 4; s++ )
	{
		if ( kt_searches[s] == HYB_KNAPSACK_SEARCH_INCORE ) continue;
		/* the circular buffer: the seed's "CPU buffer exhausted" */
		hyb_knapsack_search_plan_t p = kt_plan( kt_searches[s], 16, 100, 8 );
		memset( &hd, 0, sizeof hd );
		CU_ASSERT_EQUAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_OK );
		CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_HOST_BUFFER );
		CU_ASSERT( st.peak_host <= 100 );
		CU_ASSERT_EQUAL( hd.dev_bytes, 0 );
	}
	/* the in-core buffer: the instance is not solved */
	hyb_knapsack_search_plan_t p = kt_plan( HYB_KNAPSACK_SEARCH_INCORE, 16, 1 << 20, 64 );
	memset( &hd, 0, sizeof hd );
	CU_ASSERT_EQUAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_OK );
	CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_DEVICE_BUFFER );
	CU_ASSERT( st.peak_dev <= 64 );
	/* limits */
	p            = kt_plan( HYB_KNAPSACK_SEARCH_O3S, 16, 1 << 20, 8 );
	p.node_limit = 100;
	CU_ASSERT_EQUAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_OK );
	CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_NODE_LIMIT );
	p.node_limit   = 0;
	p.time_limit_s = 1e-9;
	CU_ASSERT_EQUAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_OK );
	CU_ASSERT_EQUAL( st.stop, HYBLAS_KNAPSACK_STOP_TIME_LIMIT );
	/* plans out of range */
	p = kt_plan( HYB_KNAPSACK_SEARCH_O3S, 16, 1 << 20, 7 );
	CU_ASSERT_EQUAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_E_INVALID );
	p = kt_plan( HYB_KNAPSACK_SEARCH_O3S, 16, 0, 8 );
	CU_ASSERT_EQUAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_E_INVALID );
}

static void test_faults( void )
{
	kt_gen( &kt_i, HYB_KNAPSACK_GEN_STRONGLY, 24, 50, 2 );
	const int64_t z = kt_dp( &kt_i );
	for ( int s = 0; s < 3; s++ )
	{
		/* count the calls of a clean run, then fail each one in turn */
		hyb_knapsack_search_plan_t  p = kt_plan( kt_searches[s], 4, 1 << 12, s == 2 ? 1 << 12 : 8 );
		hyb_knapsack_hostdev_t      hd;
		hyb_knapsack_search_stats_t st;
		memset( &hd, 0, sizeof hd );
		CU_ASSERT_EQUAL_FATAL( kt_search( &kt_i, &p, &hd, 0, &st ), HYB_OK );
		CU_ASSERT_EQUAL( st.lstar, z );
		const int64_t calls = hd.calls;
		CU_ASSERT( calls > 20 );
		int reported = 0;
		for ( int64_t k = 1; k <= calls; k++ )
		{
			memset( &hd, 0, sizeof hd );
			hd.fail_at      = k;
			hyb_status_t rs = kt_search( &kt_i, &p, &hd, 0, &st );
			if ( rs == HYB_OK )
			{
				CU_ASSERT_EQUAL( st.lstar, z ); /* a failed teardown sync loses nothing */
			}
			else
				reported++;
			CU_ASSERT_EQUAL( hd.dev_bytes, 0 );
		}
		CU_ASSERT( reported >= calls - 3 );
	}
}

static void test_pool_nodes( void )
{
	hyb_knapsack_hostdev_t hd;
	memset( &hd, 0, sizeof hd );
	hyb_knapsack_dev_t dev = hyb_knapsack_hostdev( &hd );
	int64_t            s   = 0;
	CU_ASSERT_EQUAL( hyb_knapsack_search_slot_bytes( HYB_KNAPSACK_SEARCH_O3S ), 80 );
	CU_ASSERT_EQUAL( hyb_knapsack_search_slot_bytes( HYB_KNAPSACK_SEARCH_INCORE ), 72 );
	/* slack, then the backend's scratch (every search reduces, the in-core
	   one too), then the slots */
	size_t temp = 0;
	CU_ASSERT_EQUAL( dev.temp_bytes( dev.ctx, 1000, &temp ), HYB_OK );
	CU_ASSERT_FATAL( temp > 0 && temp <= 256 );
	CU_ASSERT_EQUAL(
	    hyb_knapsack_search_pool_nodes( &dev, HYB_KNAPSACK_SEARCH_O3S, 1ull << 30, &s ), HYB_OK );
	CU_ASSERT_EQUAL( s, ( ( ( 1ll << 30 ) - 2048 - 256 ) / 80 ) & ~1ll );
	CU_ASSERT_EQUAL(
	    hyb_knapsack_search_pool_nodes( &dev, HYB_KNAPSACK_SEARCH_INCORE, 2ull << 30, &s ),
	    HYB_OK );
	CU_ASSERT_EQUAL( s, ( ( ( 2ll << 30 ) - 2048 - 256 ) / 72 ) & ~1ll );
	CU_ASSERT_EQUAL(
	    hyb_knapsack_search_pool_nodes( &dev, HYB_KNAPSACK_SEARCH_O3S, 2048 + 256 + 159, &s ),
	    HYB_E_INVALID );
	CU_ASSERT_EQUAL(
	    hyb_knapsack_search_pool_nodes( &dev, HYB_KNAPSACK_SEARCH_O3S, 2048 + 256 + 160, &s ),
	    HYB_OK );
	CU_ASSERT_EQUAL( s, 2 );
}

static void test_dp_device( void )
{
	kt_gen( &kt_i, HYB_KNAPSACK_GEN_SEED, 30, 0, 4 );
	const int64_t c = kt_i.c, words = hyb_knapsack_dp_words( c );
	uint32_t*     ref = malloc( (size_t)( 30 * words ) * 4 );
	uint8_t       x[30], xr[30];
	int64_t       v = -1, vr = -1;
	CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu( kt_i.w, kt_i.p, 30, c, 1, &vr, ref ), HYB_OK );
	hyb_knapsack_dp_backtrack( kt_i.w, 30, c, ref, xr );
	hyb_knapsack_hostdev_t     hd;
	hyb_knapsack_dpdev_stats_t ds;
	memset( &hd, 0, sizeof hd );
	hyb_knapsack_dev_t dev = hyb_knapsack_hostdev( &hd );
	CU_ASSERT_EQUAL( hyb_knapsack_dp_device( &dev, kt_i.w, kt_i.p, 30, c, &v, x, &ds ), HYB_OK );
	CU_ASSERT_EQUAL( v, vr );
	CU_ASSERT_EQUAL( v, kt_dp( &kt_i ) );
	/* the selection read back on the device is the CPU DP's, and an optimal one */
	CU_ASSERT( memcmp( x, xr, sizeof x ) == 0 );
	CU_ASSERT( kt_selection_ok( &kt_i, x, v ) );
	CU_ASSERT_EQUAL( ds.launches, 31 );
	CU_ASSERT_EQUAL( hd.launches[HYB_KNAPSACK_K_DP_ROW], 30 );
	CU_ASSERT_EQUAL( hd.launches[HYB_KNAPSACK_K_DP_WALK], 1 );
	CU_ASSERT_EQUAL( ds.d2h_bytes, 8 + 30 );
	CU_ASSERT_EQUAL( ds.h2d_bytes, 30 * 8 );
	CU_ASSERT_EQUAL( ds.dev_bytes, hyb_knapsack_dpdev_bytes( 30, c, 1 ) );
	CU_ASSERT_EQUAL( hd.dev_bytes, 0 );
	const int64_t calls = hd.calls;
	for ( int64_t k = 1; k <= calls; k++ )
	{
		memset( &hd, 0, sizeof hd );
		hd.fail_at      = k;
		v               = -1;
		hyb_status_t rs = hyb_knapsack_dp_device( &dev, kt_i.w, kt_i.p, 30, c, &v, x, &ds );
		CU_ASSERT( rs != HYB_OK || ( v == vr && memcmp( x, xr, sizeof x ) == 0 ) );
		CU_ASSERT_EQUAL( hd.dev_bytes, 0 );
	}
	/* a device too small for the table */
	memset( &hd, 0, sizeof hd );
	hd.dev_limit = 1000;
	CU_ASSERT_EQUAL( hyb_knapsack_dp_device( &dev, kt_i.w, kt_i.p, 30, c, &v, NULL, &ds ),
	                 HYB_E_NO_MEMORY );
	free( ref );
}

static CU_TestInfo kt_tests_search[] = {
	{ "equal_dp", test_equal_dp },
	{ "random_small", test_random_small },
	{ "prefix_and_ties", test_prefix_and_ties },
	{ "table_2_1", test_table_2_1 },
	{ "wrap", test_wrap },
	{ "transfer_every_iteration", test_transfer_every_iteration },
	{ "buffers_run_out", test_buffers_run_out },
	{ "faults", test_faults },
	{ "pool_nodes", test_pool_nodes },
	{ "dp_device", test_dp_device },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_knapsack_search = { "knapsack_search", NULL, NULL, NULL, NULL,
	                                       kt_tests_search };
