/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack planner at its boundaries: the DP whenever its table fits
   (exactly at the limit and one byte over), CPU against GPU across the
   predicted-time crossover, the B&B when the DP cannot fit, paths, explicit
   methods, the probe's budget and the CPU DP's thread cut. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "policies/knapsack/hyb_knapsack_defaults.h"
#include "policies/knapsack/hyb_knapsack_plan.h"

static hyb_knapsack_plan_in_t kt_in( int64_t n, int64_t c )
{
	hyb_knapsack_plan_in_t in;
	memset( &in, 0, sizeof in );
	in.n               = n;
	in.c               = c;
	in.threads         = 8;
	in.dp_host_bytes   = HYB_KNAPSACK_DP_MEMORY_BYTES;
	in.dp_device_bytes = HYB_KNAPSACK_DP_MEMORY_BYTES;
	in.probe_fraction  = HYB_KNAPSACK_PROBE_FRACTION;
	in.core_items      = 10;
	in.probe_core_max  = HYB_KNAPSACK_PROBE_CORE_MAX;
	in.rates           = hyb_knapsack_default_rates();
	return in;
}

static void test_rates_and_models( void )
{
	const hyb_knapsack_rates_t r = hyb_knapsack_default_rates();
	CU_ASSERT( r.cpu_dp_cells_per_s > 0 && r.gpu_dp_cells_per_s > r.cpu_dp_cells_per_s );
	CU_ASSERT( r.gpu_launch_s > 0 && r.gpu_setup_s > 0 && r.d2h_bytes_per_s > 0 );
	CU_ASSERT( r.cpu_bb_node_s > 0 && r.cpu_bb_item_s > 0 && r.cpu_dp_thread_gain >= 0 );
	/* rows: 2 (c + 1) int64; bits: n words of (c + 32) / 32 */
	CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu_bytes( 10, 99, 0 ), 1600u );
	CU_ASSERT_EQUAL( hyb_knapsack_dp_cpu_bytes( 10, 99, 1 ), 1600u + 10u * 4u * 4u );
	/* the seed's n = 1000 instance: ~5e8 cells */
	const double t1 = hyb_knapsack_dp_cpu_seconds( &r, 1000, 500000, 1 );
	CU_ASSERT_DOUBLE_EQUAL( t1, 1000.0 * 500001.0 / r.cpu_dp_cells_per_s, 1e-12 );
	CU_ASSERT( hyb_knapsack_dp_cpu_seconds( &r, 1000, 500000, 8 ) < t1 );
	/* short rows never use threads */
	CU_ASSERT_EQUAL( hyb_knapsack_dp_threads( HYB_KNAPSACK_DP_PARALLEL_CELLS - 2, 8 ), 1 );
	CU_ASSERT_EQUAL( hyb_knapsack_dp_threads( HYB_KNAPSACK_DP_PARALLEL_CELLS - 1, 8 ), 8 );
	CU_ASSERT_EQUAL( hyb_knapsack_dp_threads( 1 << 20, 1 ), 1 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_knapsack_dp_cpu_seconds( &r, 10, 100, 8 ),
	                        hyb_knapsack_dp_cpu_seconds( &r, 10, 100, 1 ), 1e-15 );
	const double tg = hyb_knapsack_dp_gpu_seconds( &r, 1000, 500000, 0 );
	CU_ASSERT_DOUBLE_EQUAL(
	    tg, r.gpu_setup_s + 1000 * r.gpu_launch_s + 1000.0 * 500001.0 / r.gpu_dp_cells_per_s,
	    1e-12 );
	CU_ASSERT( hyb_knapsack_dp_gpu_seconds( &r, 1000, 500000, 1 ) > tg );
	CU_ASSERT( hyb_knapsack_bb_node_seconds( &r, 1000 ) > hyb_knapsack_bb_node_seconds( &r, 10 ) );
	CU_ASSERT_STRING_EQUAL( hyb_knapsack_method_str( HYBLAS_KNAPSACK_GPU_O3S ), "gpu_o3s" );
	CU_ASSERT_STRING_EQUAL( hyb_knapsack_method_str( (hyblas_knapsack_method_t)42 ), "unknown" );
}

static void test_auto_dp( void )
{
	hyb_knapsack_plan_t    p;
	hyb_knapsack_plan_in_t in = kt_in( 1000, 500000 );
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
	CU_ASSERT_EQUAL( p.dp_cells, 1000u * 500001u );
	CU_ASSERT( p.t_dp_gpu < 0 ); /* no device */
	CU_ASSERT_EQUAL( p.dp_threads, 8 );
	/* a small core: the probe's nodes follow the core, its time is capped by the DP's */
	CU_ASSERT( p.probe );
	CU_ASSERT_EQUAL( p.probe_nodes,
	                 10u * HYB_KNAPSACK_PROBE_NODES_PER_CORE + HYB_KNAPSACK_PROBE_NODES_MIN );
	CU_ASSERT_DOUBLE_EQUAL( p.probe_s, in.probe_fraction * p.predicted_s, 1e-15 );
	/* at the core limit still a probe, one item beyond it none */
	in.core_items = in.probe_core_max;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT( p.probe );
	in.core_items = in.probe_core_max + 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT( !p.probe && p.probe_nodes == 0 );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
	in.core_items = 10;
	/* with a device, the GPU DP is predicted faster there */
	in.gpu_ok = 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_GPU_DP );
	CU_ASSERT( p.t_dp_gpu > 0 && p.t_dp_gpu < p.t_dp_cpu );
	CU_ASSERT( p.probe );
	/* ... but a tiny instance stays on the CPU */
	in        = kt_in( 10, 100 );
	in.gpu_ok = 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
	CU_ASSERT_EQUAL( p.dp_threads, 1 );
	CU_ASSERT( p.probe_nodes >= 1 );
	/* no probe when told, or when the path excludes the CPU */
	in.probe_fraction = 0;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT( !p.probe );
	in      = kt_in( 1000, 500000 );
	in.path = HYBLAS_PATH_GPU;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method,
	                 HYBLAS_KNAPSACK_GPU_DP ); /* falls back at run time without a device */
	CU_ASSERT( !p.probe );
	in.path   = HYBLAS_PATH_CPU;
	in.gpu_ok = 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
}

static void test_crossover( void )
{
	/* n = 100: find where the GPU DP's fixed costs are paid off; the plan
	   flips exactly where the predictions cross */
	hyb_knapsack_plan_in_t in = kt_in( 100, 0 );
	in.gpu_ok                 = 1;
	in.threads                = 1;
	int64_t lo = 1, hi = (int64_t)1 << 30;
	while ( hi - lo > 1 )
	{
		const int64_t mid = lo + ( hi - lo ) / 2;
		if ( hyb_knapsack_dp_gpu_seconds( &in.rates, 100, mid, 0 ) <
		     hyb_knapsack_dp_cpu_seconds( &in.rates, 100, mid, 1 ) )
			hi = mid;
		else
			lo = mid;
	}
	hyb_knapsack_plan_t p;
	in.c = lo;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
	in.c = hi;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_GPU_DP );
	CU_ASSERT( hi > 1000 && hi < 100000000 );
}

static void test_memory_boundary( void )
{
	hyb_knapsack_plan_t    p;
	hyb_knapsack_plan_in_t in   = kt_in( 500, 1000000 );
	const uint64_t         rows = hyb_knapsack_dp_cpu_bytes( 500, 1000000, 0 );
	in.dp_host_bytes            = rows;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
	in.dp_host_bytes = rows - 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_BB );
	CU_ASSERT( !p.probe );
	CU_ASSERT( p.t_dp_cpu < 0 );
	/* asking for the items adds the decision bits */
	in.dp_host_bytes = rows;
	in.want_items    = 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_BB );
	in.dp_host_bytes = hyb_knapsack_dp_cpu_bytes( 500, 1000000, 1 );
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
	/* capacities far beyond any table: the B&B, on the GPU with a device */
	in = kt_in( 1000, (int64_t)1 << 40 );
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_BB );
	in.gpu_ok = 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_GPU_O3S );
	in.path = HYBLAS_PATH_CPU;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_BB );
	/* the device's own limit for the GPU DP */
	in                 = kt_in( 1000, 500000 );
	in.gpu_ok          = 1;
	in.dp_device_bytes = hyb_knapsack_dp_cpu_bytes( 1000, 500000, 0 ) - 1;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT_EQUAL( p.method, HYBLAS_KNAPSACK_CPU_DP );
}

static void test_explicit( void )
{
	hyb_knapsack_plan_t    p;
	hyb_knapsack_plan_in_t in = kt_in( 100, 1000 );
	for ( int m = 1; m <= HYBLAS_KNAPSACK_GPU_DP; m++ )
	{
		in.method = (hyblas_knapsack_method_t)m;
		in.path   = HYBLAS_PATH_AUTO;
		CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
		CU_ASSERT_EQUAL( p.method, in.method );
		CU_ASSERT( !p.probe && !p.dp_too_big );
		const int gpu = m != HYBLAS_KNAPSACK_CPU_BB && m != HYBLAS_KNAPSACK_CPU_DP;
		in.path       = HYBLAS_PATH_CPU;
		CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), gpu ? HYB_E_INVALID : HYB_OK );
		in.path = HYBLAS_PATH_GPU;
		CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), gpu ? HYB_OK : HYB_E_INVALID );
	}
	/* an explicit DP whose table does not fit */
	in               = kt_in( 100, 1000000 );
	in.method        = HYBLAS_KNAPSACK_CPU_DP;
	in.dp_host_bytes = 1000;
	CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT( p.dp_too_big );
	in.method = HYBLAS_KNAPSACK_GPU_DP;
	CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT( p.dp_too_big );
	in.method = HYBLAS_KNAPSACK_CPU_BB;
	CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_OK );
	CU_ASSERT( !p.dp_too_big );
	/* values out of range */
	in = kt_in( -1, 10 );
	CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_E_INVALID );
	in         = kt_in( 10, 10 );
	in.threads = 0;
	CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_E_INVALID );
	in                = kt_in( 10, 10 );
	in.probe_fraction = 2;
	CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_E_INVALID );
	in        = kt_in( 10, 10 );
	in.method = (hyblas_knapsack_method_t)7;
	CU_ASSERT_EQUAL( hyb_knapsack_plan( &in, &p ), HYB_E_INVALID );
}

static CU_TestInfo kt_tests_plan[] = {
	{ "rates_and_models", test_rates_and_models },
	{ "auto_dp", test_auto_dp },
	{ "crossover", test_crossover },
	{ "memory_boundary", test_memory_boundary },
	{ "explicit", test_explicit },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_knapsack_plan = { "knapsack_plan", NULL, NULL, NULL, NULL, kt_tests_plan };
