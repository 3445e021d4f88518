/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack API end to end: bad input changes nothing; every method
   (on the host stand-in for the GPU ones) returns the DP oracle's optimum
   and a feasible selection of that profit, leaving the caller's arrays
   alone; trivial cases; buffers and limits give HYBLAS_E_CAPACITY with the
   reason; device faults finish on the CPU; AUTO's choices. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "dispatch/knapsack/hyb_knapsack_solve.h"
#include "hyblas_ext.h"
#include "kernels/hyb_device.h"
#include "kernels/knapsack/hyb_knapsack_core.h"
#include "policies/knapsack/hyb_knapsack_defaults.h"
#include "test_knapsack_util.h"

static kt_inst_t kt_x, kt_copy;
static uint8_t   kt_sel[KT_MAX_N];

static hyblas_knapsack_options_t kt_opts( hyblas_knapsack_method_t m )
{
	return kt_small_opts( m, 16384 );
}

static hyblas_knapsack_stats_t kt_stats( void )
{
	hyblas_knapsack_stats_t s;
	memset( &s, 0, sizeof s );
	s.struct_size = sizeof s;
	return s;
}

/* Solve on the host stand-in; fails the test unless the arrays are
   untouched. */
static hyblas_status_t kt_solve( const kt_inst_t* in, const hyblas_knapsack_options_t* o,
                                 int64_t* z, uint8_t* x, hyblas_knapsack_stats_t* s,
                                 hyb_knapsack_hostdev_t* hd )
{
	hyb_knapsack_hostdev_t local;
	if ( !hd )
	{
		memset( &local, 0, sizeof local );
		hd = &local;
	}
	hyb_knapsack_dev_t dev = hyb_knapsack_hostdev( hd );
	memcpy( &kt_copy, in, sizeof kt_copy );
	hyblas_status_t rs = hyb_knapsack_solve_on( &dev, in->n, in->p, in->w, in->c, o, z, x, s );
	CU_ASSERT( memcmp( &kt_copy, in, sizeof kt_copy ) == 0 );
	return rs;
}

static void test_bad_input( void )
{
	kt_gen( &kt_x, HYB_KNAPSACK_GEN_UNCORRELATED, 10, 100, 1 );
	int64_t                   z = -77;
	hyblas_knapsack_stats_t   s = kt_stats(), s0;
	hyblas_knapsack_options_t o = kt_opts( HYBLAS_KNAPSACK_AUTO );
	memset( kt_sel, 9, 16 );
	s0 = s;
#define KT_BAD( call, want )                                                                       \
	do {                                                                                           \
		CU_ASSERT_EQUAL( call, want );                                                             \
		CU_ASSERT_EQUAL( z, -77 );                                                                 \
		CU_ASSERT( kt_sel[0] == 9 && kt_sel[9] == 9 );                                             \
		CU_ASSERT( memcmp( &s, &s0, sizeof s ) == 0 );                                             \
	} while ( 0 )
	KT_BAD( hyblas_knapsack_solve( -1, kt_x.p, kt_x.w, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	KT_BAD( hyblas_knapsack_solve( 10, NULL, kt_x.w, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, NULL, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, -1, &o, &z, kt_sel, &s ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &o, NULL, kt_sel, &s ),
	                 HYBLAS_E_INVALID );
	kt_x.w[3] = -1;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	kt_x.w[3] = 5;
	kt_x.p[4] = -1;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	kt_x.p[4] = INT64_MAX - 10; /* the profits' sum overflows */
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	kt_x.p[4] = 5;
	kt_x.w[4] = INT64_MAX - 10; /* the weights' sum overflows */
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	kt_x.w[4] = 5;
	/* options */
	hyblas_knapsack_options_t b = o;
	b.path                      = (hyblas_path_t)3;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b        = o;
	b.method = (hyblas_knapsack_method_t)9;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b        = o;
	b.method = HYBLAS_KNAPSACK_GPU_O3S;
	b.path   = HYBLAS_PATH_CPU;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b        = o;
	b.method = HYBLAS_KNAPSACK_CPU_DP;
	b.path   = HYBLAS_PATH_GPU;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b            = o;
	b.prune_ties = 2;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b              = o;
	b.time_limit_s = NAN;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b                   = o;
	b.host_buffer_bytes = 23;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b                     = o;
	b.device_buffer_bytes = 100;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	b         = o;
	b.threads = -1;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_INVALID );
	/* struct sizes */
	b             = o;
	b.struct_size = 0;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_STRUCT_SIZE );
	b.struct_size = sizeof b - 1;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &b, &z, kt_sel, &s ),
	        HYBLAS_E_STRUCT_SIZE );
	s.struct_size  = 8;
	s0.struct_size = 8;
	KT_BAD( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &o, &z, kt_sel, &s ),
	        HYBLAS_E_STRUCT_SIZE );
#undef KT_BAD
	/* a larger caller struct (a later version's) is fine; fields we do not know are not read */
	struct
	{
		hyblas_knapsack_options_t o;
		char                      more[32];
	} big;
	memset( &big, 0x5a, sizeof big );
	big.o             = o;
	big.o.struct_size = sizeof big;
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( 10, kt_x.p, kt_x.w, kt_x.c, &big.o, &z, NULL, NULL ),
	                 HYBLAS_OK );
	CU_ASSERT_EQUAL( z, kt_dp( &kt_x ) );
	CU_ASSERT_STRING_NOT_EQUAL( hyblas_status_string( HYBLAS_E_CAPACITY ), "unknown status" );
}

static void test_every_method( void )
{
	int runs = 0;
	for ( int cls = 0; cls < HYB_KNAPSACK_GEN_COUNT; cls++ )
		for ( uint64_t seed = 1; seed <= 3; seed++ )
		{
			/* subset sum: U = c everywhere, the strict test prunes nothing once
			   L* = c (the whole tree is searched): small ones */
			const int64_t n = cls == HYB_KNAPSACK_GEN_SUBSET_SUM ? 12 : 20 + 7 * (int64_t)seed;
			kt_gen( &kt_x, (hyb_knapsack_gen_class_t)cls, n, 80, seed + 10 );
			const int64_t z = kt_dp( &kt_x );
			for ( int m = 0; m <= HYBLAS_KNAPSACK_GPU_DP; m++ )
			{
				hyblas_knapsack_options_t o = kt_opts( (hyblas_knapsack_method_t)m );
				o.prune_ties                = (int)( seed & 1 );
				o.bound_prefix              = seed == 2;
				if ( m == HYBLAS_KNAPSACK_GPU_INCORE ) o.device_buffer_bytes = 1 << 22;
				hyblas_knapsack_stats_t s   = kt_stats();
				int64_t                 got = -1;
				memset( kt_sel, 7, (size_t)kt_x.n );
				CU_ASSERT_EQUAL_FATAL( kt_solve( &kt_x, &o, &got, kt_sel, &s, NULL ), HYBLAS_OK );
				CU_ASSERT_EQUAL( got, z );
				CU_ASSERT_EQUAL( s.optimum, z );
				CU_ASSERT( kt_selection_ok( &kt_x, kt_sel, z ) );
				if ( m != HYBLAS_KNAPSACK_AUTO && !s.trivial )
				{
					CU_ASSERT_EQUAL( s.method, (hyblas_knapsack_method_t)m );
					CU_ASSERT_EQUAL( s.planned, (hyblas_knapsack_method_t)m );
					CU_ASSERT( !s.fallback );
				}
				CU_ASSERT_EQUAL( s.stop, HYBLAS_KNAPSACK_STOP_NONE );
				CU_ASSERT( s.t_total >= 0 && s.why[0] != 0 );
				runs++;
			}
		}
	CU_ASSERT_EQUAL( runs, HYB_KNAPSACK_GEN_COUNT * 3 * 7 );
}

static void test_trivial( void )
{
	int64_t                 z = -1;
	hyblas_knapsack_stats_t s = kt_stats();
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( 0, NULL, NULL, 5, NULL, &z, NULL, &s ), HYBLAS_OK );
	CU_ASSERT_EQUAL( z, 0 );
	CU_ASSERT( s.trivial );
	const int64_t p[3] = { 3, 0, 4 }, w[3] = { 2, 9, 0 };
	uint8_t       x[3] = { 5, 5, 5 };
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( 3, p, w, 11, NULL, &z, x, &s ), HYBLAS_OK );
	CU_ASSERT_EQUAL( z, 7 );
	CU_ASSERT( x[0] == 1 && x[1] == 1 && x[2] == 1 );
	CU_ASSERT( s.trivial );
	/* capacity 0: only zero weights */
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( 3, p, w, 0, NULL, &z, x, &s ), HYBLAS_OK );
	CU_ASSERT_EQUAL( z, 4 );
	CU_ASSERT( x[0] == 0 && x[1] == 0 && x[2] == 1 );
	CU_ASSERT( !s.trivial );
}

static void test_capacity_status( void )
{
	/* an instance nothing is pruned from for 60 levels (weights and
	   profits 2, capacity 121): its tree outgrows every small buffer */
	kt_x.n = 200;
	for ( int64_t i = 0; i < 200; i++ )
	{
		kt_x.w[i] = 2;
		kt_x.p[i] = 2;
	}
	kt_x.c                      = 121;
	int64_t                   z = -77;
	hyblas_knapsack_stats_t   s = kt_stats();
	hyblas_knapsack_options_t o = kt_opts( HYBLAS_KNAPSACK_CPU_BB );
	o.host_buffer_bytes         = 24 * 50;
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, kt_sel, &s, NULL ), HYBLAS_E_CAPACITY );
	CU_ASSERT_EQUAL( z, -77 );
	CU_ASSERT_EQUAL( s.stop, HYBLAS_KNAPSACK_STOP_HOST_BUFFER );
	CU_ASSERT_EQUAL( s.host_buffer_nodes, 50 );
	CU_ASSERT( s.peak_nodes_host <= 50 && s.nodes_branched > 0 );
	o                   = kt_opts( HYBLAS_KNAPSACK_GPU_O3S );
	o.host_buffer_bytes = 24 * 200;
	s                   = kt_stats();
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, NULL, &s, NULL ), HYBLAS_E_CAPACITY );
	CU_ASSERT_EQUAL( s.stop, HYBLAS_KNAPSACK_STOP_HOST_BUFFER );
	CU_ASSERT( s.gpu_iterations > 0 );
	o            = kt_opts( HYBLAS_KNAPSACK_GPU_BFS );
	o.node_limit = 1000;
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, NULL, &s, NULL ), HYBLAS_E_CAPACITY );
	CU_ASSERT_EQUAL( s.stop, HYBLAS_KNAPSACK_STOP_NODE_LIMIT );
	o = kt_opts( HYBLAS_KNAPSACK_GPU_INCORE );
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, NULL, &s, NULL ), HYBLAS_E_CAPACITY );
	CU_ASSERT_EQUAL( s.stop, HYBLAS_KNAPSACK_STOP_DEVICE_BUFFER );
	/* a DP asked for whose table exceeds its limit */
	o                 = kt_opts( HYBLAS_KNAPSACK_CPU_DP );
	o.dp_memory_bytes = 1000; /* two rows of 122 values need 1952 bytes */
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, NULL, &s, NULL ), HYBLAS_E_CAPACITY );
	CU_ASSERT_EQUAL( s.stop, HYBLAS_KNAPSACK_STOP_DP_MEMORY );
	CU_ASSERT_EQUAL( z, -77 );
	/* AUTO with the same limit takes the B&B instead, and solves */
	kt_gen( &kt_x, HYB_KNAPSACK_GEN_WEAKLY, 60, 1000, 3 );
	o                 = kt_opts( HYBLAS_KNAPSACK_AUTO );
	o.dp_memory_bytes = 4096;
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, kt_sel, &s, NULL ), HYBLAS_OK );
	CU_ASSERT_EQUAL( z, kt_dp( &kt_x ) );
	CU_ASSERT_EQUAL( s.planned, HYBLAS_KNAPSACK_CPU_BB );
	CU_ASSERT( kt_selection_ok( &kt_x, kt_sel, z ) );
}

static void test_faults_finish_on_cpu( void )
{
	kt_gen( &kt_x, HYB_KNAPSACK_GEN_ALMOST_STRONGLY, 30, 300, 8 );
	const int64_t                  z          = kt_dp( &kt_x );
	const hyblas_knapsack_method_t methods[4] = { HYBLAS_KNAPSACK_GPU_O3S, HYBLAS_KNAPSACK_GPU_BFS,
		                                          HYBLAS_KNAPSACK_GPU_INCORE,
		                                          HYBLAS_KNAPSACK_GPU_DP };
	for ( int m = 0; m < 4; m++ )
	{
		hyblas_knapsack_options_t o = kt_opts( methods[m] );
		if ( methods[m] == HYBLAS_KNAPSACK_GPU_INCORE ) o.device_buffer_bytes = 1 << 22;
		hyb_knapsack_hostdev_t  hd;
		hyblas_knapsack_stats_t s = kt_stats();
		int64_t                 got;
		memset( &hd, 0, sizeof hd );
		CU_ASSERT_EQUAL_FATAL( kt_solve( &kt_x, &o, &got, NULL, &s, &hd ), HYBLAS_OK );
		const int64_t calls = hd.calls;
		int           fell  = 0;
		for ( int64_t k = 1; k <= calls; k += 1 + calls / 40 )
		{
			memset( &hd, 0, sizeof hd );
			hd.fail_at = k;
			s          = kt_stats();
			got        = -1;
			CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &got, kt_sel, &s, &hd ), HYBLAS_OK );
			CU_ASSERT_EQUAL( got, z );
			CU_ASSERT( kt_selection_ok( &kt_x, kt_sel, z ) );
			CU_ASSERT_EQUAL( hd.dev_bytes, 0 );
			if ( s.fallback )
			{
				fell++;
				CU_ASSERT( s.method == HYBLAS_KNAPSACK_CPU_BB ||
				           s.method == HYBLAS_KNAPSACK_CPU_DP );
				CU_ASSERT( strstr( s.why, "device failed" ) != NULL );
			}
		}
		CU_ASSERT( fell > 0 );
	}
}

static void test_no_device( void )
{
	/* the process configuration: no usable device, then the simulated one
	   (the device runtime opens once per process: start it over each time) */
	hyb_config_t cfg;
	hyb_config_defaults( &cfg );
	cfg.device = HYB_DEVICE_NONE;
	hyb_config_install_for_test( &cfg );
	hyb_devices_reset_for_test();
	kt_gen( &kt_x, HYB_KNAPSACK_GEN_STRONGLY, 30, 100, 4 );
	const int64_t             z = kt_dp( &kt_x );
	hyblas_knapsack_options_t o = kt_opts( HYBLAS_KNAPSACK_GPU_O3S );
	hyblas_knapsack_stats_t   s = kt_stats();
	int64_t                   got;
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( kt_x.n, kt_x.p, kt_x.w, kt_x.c, &o, &got, NULL, &s ),
	                 HYBLAS_OK );
	CU_ASSERT_EQUAL( got, z );
	CU_ASSERT( s.fallback );
	CU_ASSERT_EQUAL( s.planned, HYBLAS_KNAPSACK_GPU_O3S );
	CU_ASSERT_EQUAL( s.method, HYBLAS_KNAPSACK_CPU_BB );
	CU_ASSERT( strstr( s.why, "no usable device" ) != NULL );
	o.method = HYBLAS_KNAPSACK_AUTO;
	o.path   = HYBLAS_PATH_GPU;
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( kt_x.n, kt_x.p, kt_x.w, kt_x.c, &o, &got, NULL, &s ),
	                 HYBLAS_OK );
	CU_ASSERT_EQUAL( got, z );
	CU_ASSERT_EQUAL( s.planned, HYBLAS_KNAPSACK_GPU_DP );
	CU_ASSERT_EQUAL( s.method, HYBLAS_KNAPSACK_CPU_DP );

	cfg.device = HYB_DEVICE_SIM;
	hyb_config_install_for_test( &cfg );
	hyb_devices_reset_for_test();
	o = kt_opts( HYBLAS_KNAPSACK_GPU_O3S );
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( kt_x.n, kt_x.p, kt_x.w, kt_x.c, &o, &got, NULL, &s ),
	                 HYBLAS_OK );
	CU_ASSERT_EQUAL( got, z );
	CU_ASSERT( !s.fallback );
	CU_ASSERT_EQUAL( s.method, HYBLAS_KNAPSACK_GPU_O3S );
	CU_ASSERT( s.gpu_iterations > 0 && s.d2h_bytes > 0 && s.device_buffer_nodes > 0 );
	/* AUTO keeps off the simulated device */
	o = kt_opts( HYBLAS_KNAPSACK_AUTO );
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( kt_x.n, kt_x.p, kt_x.w, kt_x.c, &o, &got, NULL, &s ),
	                 HYBLAS_OK );
	CU_ASSERT( s.method == HYBLAS_KNAPSACK_CPU_DP || s.method == HYBLAS_KNAPSACK_CPU_BB );
	hyb_config_defaults( &cfg );
	hyb_config_install_for_test( &cfg );
	hyb_devices_reset_for_test();
}

static void test_auto_choices( void )
{
	/* a seed instance: the DP is planned; the probe may end it first */
	kt_gen( &kt_x, HYB_KNAPSACK_GEN_SEED, 100, 0, 1 );
	hyblas_knapsack_options_t o = kt_opts( HYBLAS_KNAPSACK_AUTO );
	hyblas_knapsack_stats_t   s = kt_stats();
	int64_t                   z;
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, kt_sel, &s, NULL ), HYBLAS_OK );
	CU_ASSERT_EQUAL( z, kt_dp( &kt_x ) );
	CU_ASSERT_EQUAL( s.planned, HYBLAS_KNAPSACK_CPU_DP );
	/* a probe only where the core predicts an easy instance */
	hyb_knapsack_prep_t pr;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_prepare( kt_x.n, kt_x.p, kt_x.w, kt_x.c, &pr ), HYB_OK );
	CU_ASSERT_EQUAL( s.probed, hyb_knapsack_core_items( &pr ) <= HYB_KNAPSACK_PROBE_CORE_MAX );
	hyb_knapsack_prep_free( &pr );
	CU_ASSERT( s.predicted_s > 0 );
	CU_ASSERT( s.method == ( s.probe_solved ? HYBLAS_KNAPSACK_CPU_BB : HYBLAS_KNAPSACK_CPU_DP ) );
	CU_ASSERT( kt_selection_ok( &kt_x, kt_sel, z ) );
	/* large capacity: no DP can run; the B&B does, and the GPU search agrees */
	hyb_knapsack_gen_t g = hyb_knapsack_gen_large( 80, 3 );
	kt_x.n               = 80;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_generate( &g, kt_x.p, kt_x.w, &kt_x.c ), HYB_OK );
	s = kt_stats();
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z, kt_sel, &s, NULL ), HYBLAS_OK );
	CU_ASSERT_EQUAL( s.planned, HYBLAS_KNAPSACK_CPU_BB );
	CU_ASSERT( !s.probed );
	CU_ASSERT( kt_selection_ok( &kt_x, kt_sel, z ) );
	int64_t                   z2;
	hyblas_knapsack_options_t g3 = kt_opts( HYBLAS_KNAPSACK_GPU_O3S );
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &g3, &z2, NULL, &s, NULL ), HYBLAS_OK );
	CU_ASSERT_EQUAL( z2, z );
	o.method = HYBLAS_KNAPSACK_CPU_DP;
	CU_ASSERT_EQUAL( kt_solve( &kt_x, &o, &z2, NULL, &s, NULL ), HYBLAS_E_CAPACITY );
	CU_ASSERT_EQUAL( s.stop, HYBLAS_KNAPSACK_STOP_DP_MEMORY );
	CU_ASSERT_STRING_EQUAL( hyblas_knapsack_method_name( HYBLAS_KNAPSACK_GPU_INCORE ),
	                        "gpu_incore" );
}

static CU_TestInfo kt_tests_api[] = {
	{ "bad_input", test_bad_input },
	{ "every_method", test_every_method },
	{ "trivial", test_trivial },
	{ "capacity_status", test_capacity_status },
	{ "faults_finish_on_cpu", test_faults_finish_on_cpu },
	{ "no_device", test_no_device },
	{ "auto_choices", test_auto_choices },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_knapsack_api = { "knapsack_api", NULL, NULL, NULL, NULL, kt_tests_api };
