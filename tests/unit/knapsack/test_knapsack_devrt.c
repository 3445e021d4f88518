/* SPDX-License-Identifier: BSD-3-Clause */
/* CUnit suite "knapsack_devrt": the knapsack kernels registered with the device runtime,
   every method through the public API on the simulated device against the DP oracle,
   device faults by kind and by kernel name finishing on the CPU, the device budget, and
   the operation's counts. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "hyb_op.h"
#include "hyb_stats.h"
#include "hyblas_ext.h"
#include "kernels/hyb_device.h"
#include "kernels/knapsack/hyb_knapsack_devrt.h"
#include "unit/hyb_test_util.h"
#include "test_knapsack_util.h"

static kt_inst_t kd_x;
static uint8_t   kd_sel[KT_MAX_N];

/* One simulated device of `mem` ("1G", "1M"), started over with no fault plan. */
static void kd_sim( const char* mem )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, mem, NULL ), HYB_OK );
}

/* Small buffers and threshold, so that a search of a few dozen items runs many GPU
   iterations with transfers both ways (the in-core method, which has no circular buffer
   to spill to, gets room for its whole frontier). */
static hyblas_knapsack_options_t kd_opts( hyblas_knapsack_method_t m )
{
	return kt_small_opts( m, m == HYBLAS_KNAPSACK_GPU_INCORE ? 1 << 20 : 16384 );
}

/* One call through the public entry: the optimum `z`, a selection of that profit, the
   caller's arrays untouched. Returns the statistics. */
static hyblas_knapsack_stats_t kd_solve( const hyblas_knapsack_options_t* o, int64_t z )
{
	static kt_inst_t        copy;
	hyblas_knapsack_stats_t s;
	memset( &s, 0, sizeof s );
	s.struct_size = sizeof s;
	memcpy( &copy, &kd_x, sizeof copy );
	int64_t         got = -1;
	hyblas_status_t rs =
	    hyblas_knapsack_solve( kd_x.n, kd_x.p, kd_x.w, kd_x.c, o, &got, kd_sel, &s );
	CU_ASSERT_EQUAL( rs, HYBLAS_OK );
	CU_ASSERT_EQUAL( got, z );
	CU_ASSERT( kt_selection_ok( &kd_x, kd_sel, z ) );
	CU_ASSERT( memcmp( &copy, &kd_x, sizeof copy ) == 0 );
	return s;
}

static const char* const kd_names[HYB_KNAPSACK_K_COUNT] = {
	"knapsack.branch",  "knapsack.bound",  "knapsack.reduce_max", "knapsack.label",
	"knapsack.compact", "knapsack.gather", "knapsack.dp_row",     "knapsack.dp_walk"
};

static void test_registered( void )
{
	kd_sim( "1G" );
	CU_ASSERT_EQUAL_FATAL( hyb_devices_ensure(), HYB_OK );
	for ( int k = 0; k < HYB_KNAPSACK_K_COUNT; k++ )
	{
		hyb_kernel_id_t id = hyb_kernel_find( kd_names[k] );
		CU_ASSERT( id != HYB_KERNEL_NONE );
		CU_ASSERT( hyb_kernel_def( id ) == hyb_knapsack_kernel_defs[k] );
		CU_ASSERT( hyb_devices_kernel_supported( id ) );
	}
	/* the scratch query through a launch, and a launch the check refuses */
	hyb_knapsack_devrt_t rt;
	hyb_knapsack_dev_t   dev;
	CU_ASSERT_EQUAL_FATAL( hyb_knapsack_devrt_open( &rt, &dev ), HYB_OK );
	CU_ASSERT_EQUAL( dev.auto_ok, 0 );
	size_t bytes = 99;
	CU_ASSERT_EQUAL( dev.temp_bytes( dev.ctx, 1000, &bytes ), HYB_OK );
	CU_ASSERT( bytes > 0 && bytes < 99999 ); /* the simulated scan asks for scratch as CUB's does */
	hyb_knapsack_compact_args_t bad;
	memset( &bad, 0, sizeof bad );
	CU_ASSERT_EQUAL(
	    dev.launch( dev.ctx, HYB_KNAPSACK_STREAM_COMPUTE, HYB_KNAPSACK_K_COMPACT, &bad ),
	    HYB_E_INVALID );
	void* p = NULL;
	CU_ASSERT_EQUAL( dev.dev_alloc( dev.ctx, 4096, &p ), HYB_OK );
	CU_ASSERT_PTR_NOT_NULL( p );
	hyb_knapsack_devrt_close( &rt ); /* frees the block left behind */
	hyb_t_sim_end();
}

/* Every method on the simulated device equals the DP, with and without tie pruning and
   the prefix bound, on instances of several classes. */
static void test_every_method( void )
{
	static const hyblas_knapsack_method_t methods[] = {
		HYBLAS_KNAPSACK_GPU_O3S, HYBLAS_KNAPSACK_GPU_BFS, HYBLAS_KNAPSACK_GPU_INCORE,
		HYBLAS_KNAPSACK_GPU_DP,  HYBLAS_KNAPSACK_CPU_BB,  HYBLAS_KNAPSACK_CPU_DP
	};
	static const hyb_knapsack_gen_class_t classes[] = { HYB_KNAPSACK_GEN_UNCORRELATED,
		                                                HYB_KNAPSACK_GEN_WEAKLY,
		                                                HYB_KNAPSACK_GEN_STRONGLY,
		                                                HYB_KNAPSACK_GEN_ALMOST_STRONGLY };
	kd_sim( "1G" );
	uint64_t gpu_iterations = 0;
	for ( size_t ci = 0; ci < sizeof classes / sizeof classes[0]; ci++ )
		for ( uint64_t seed = 1; seed <= 2; seed++ )
		{
			kt_gen( &kd_x, classes[ci], 30 + 10 * (int64_t)seed, 100, seed );
			const int64_t z = kt_dp( &kd_x );
			for ( size_t mi = 0; mi < sizeof methods / sizeof methods[0]; mi++ )
				for ( int variant = 0; variant < 3; variant++ )
				{
					hyblas_knapsack_options_t o = kd_opts( methods[mi] );
					o.prune_ties                = variant == 1;
					o.bound_prefix              = variant == 2;
					hyblas_knapsack_stats_t s   = kd_solve( &o, z );
					CU_ASSERT( !s.fallback );
					CU_ASSERT_EQUAL( s.method, methods[mi] );
					gpu_iterations += s.gpu_iterations;
					if ( methods[mi] == HYBLAS_KNAPSACK_GPU_DP )
						CU_ASSERT( s.dp_cells > 0 && s.d2h_bytes > 0 );
				}
		}
	CU_ASSERT( gpu_iterations > 0 );
	hyb_t_sim_end();
}

/* A fault plan that the method's run must meet: the call still returns the optimum,
   says it fell back, and the next call is on the device again. */
typedef struct
{
	hyblas_knapsack_method_t method;
	const char*              plan;
} kd_fault_t;

static void test_faults( void )
{
	static const kd_fault_t faults[] = {
		{ HYBLAS_KNAPSACK_GPU_O3S, "alloc:1" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "alloc:3" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "host_alloc:1" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "h2d:1" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "h2d:3a" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "d2h:2" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "kernel:4a" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "knapsack.compact:1" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "knapsack.compact:2" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "knapsack.branch:1" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "knapsack.bound:2a" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "knapsack.reduce_max:1" },
		{ HYBLAS_KNAPSACK_GPU_O3S, "knapsack.label:3" },
		{ HYBLAS_KNAPSACK_GPU_BFS, "knapsack.branch:2" },
		{ HYBLAS_KNAPSACK_GPU_BFS, "h2d:2" },
		{ HYBLAS_KNAPSACK_GPU_INCORE, "knapsack.gather:1" },
		{ HYBLAS_KNAPSACK_GPU_INCORE, "d2h:1a" },
		{ HYBLAS_KNAPSACK_GPU_DP, "knapsack.dp_row:1" },
		{ HYBLAS_KNAPSACK_GPU_DP, "knapsack.dp_row:5a" },
		{ HYBLAS_KNAPSACK_GPU_DP, "alloc:1" },
		{ HYBLAS_KNAPSACK_GPU_DP, "h2d:1" },
		{ HYBLAS_KNAPSACK_GPU_DP, "knapsack.dp_walk:1" },
		{ HYBLAS_KNAPSACK_GPU_DP, "knapsack.dp_walk:1a" },
		{ HYBLAS_KNAPSACK_GPU_DP, "d2h:1" },
	};
	kd_sim( "1G" );
	kt_gen( &kd_x, HYB_KNAPSACK_GEN_STRONGLY, 30, 100, 4 );
	const int64_t z = kt_dp( &kd_x );
	for ( size_t i = 0; i < sizeof faults / sizeof faults[0]; i++ )
	{
		hyblas_knapsack_options_t o = kd_opts( faults[i].method );
		CU_ASSERT_EQUAL_FATAL( hyb_device_faults_set( faults[i].plan ), HYB_OK );
		hyblas_knapsack_stats_t s = kd_solve( &o, z );
		CU_ASSERT( s.fallback );
		CU_ASSERT( strstr( s.why, "device failed" ) != NULL );
		CU_ASSERT( s.method == HYBLAS_KNAPSACK_CPU_BB || s.method == HYBLAS_KNAPSACK_CPU_DP );
		hyb_device_faults_set( NULL );
		s = kd_solve( &o, z );
		CU_ASSERT( !s.fallback );
		CU_ASSERT_EQUAL( s.method, faults[i].method );
	}
	hyb_t_sim_end();
}

/* GPU buffers beyond the device's budget: the CPU finishes, as after any device failure. */
static void test_budget( void )
{
	kd_sim( "1M" );
	kt_gen( &kd_x, HYB_KNAPSACK_GEN_STRONGLY, 30, 100, 4 );
	const int64_t             z = kt_dp( &kd_x );
	hyblas_knapsack_options_t o = kd_opts( HYBLAS_KNAPSACK_GPU_O3S );
	o.device_buffer_bytes       = 8u << 20;
	hyblas_knapsack_stats_t s   = kd_solve( &o, z );
	CU_ASSERT( s.fallback );
	CU_ASSERT_EQUAL( s.method, HYBLAS_KNAPSACK_CPU_BB );
	o.device_buffer_bytes = 16384;
	s                     = kd_solve( &o, z );
	CU_ASSERT( !s.fallback );
	hyb_t_sim_end();
}

/* The calls are the operation "hyblas_knapsack_solve": each counted once under its
   path, fallbacks counted, bad input not counted; AUTO keeps off the simulated device. */
static void test_counted( void )
{
	kd_sim( "1G" );
	kt_gen( &kd_x, HYB_KNAPSACK_GEN_STRONGLY, 30, 100, 4 );
	const int64_t             z = kt_dp( &kd_x );
	hyblas_knapsack_options_t o = kd_opts( HYBLAS_KNAPSACK_GPU_O3S );
	kd_solve( &o, z ); /* registers the operation */
	hyb_op_id_t op = hyb_op_find( "hyblas_knapsack_solve" );
	CU_ASSERT_FATAL( op != HYB_OP_NONE );
	CU_ASSERT_STRING_EQUAL( hyb_op_family_of( op ), "knapsack" );
	const uint64_t gpu = hyb_stats_calls( op, HYB_PATH_GPU ),
	               cpu = hyb_stats_calls( op, HYB_PATH_CPU );
	const uint64_t fb = hyb_stats_calls( op, HYB_PATH_FALLBACK ), nfb = hyb_stats_fallbacks( op );
	kd_solve( &o, z );
	hyblas_knapsack_options_t c = kd_opts( HYBLAS_KNAPSACK_CPU_DP );
	kd_solve( &c, z );
	hyblas_knapsack_options_t a = kd_opts( HYBLAS_KNAPSACK_AUTO );
	hyblas_knapsack_stats_t   s = kd_solve( &a, z );
	CU_ASSERT( s.method == HYBLAS_KNAPSACK_CPU_DP || s.method == HYBLAS_KNAPSACK_CPU_BB );
	hyb_device_faults_set( "knapsack.branch:1" );
	kd_solve( &o, z );
	hyb_device_faults_set( NULL );
	int64_t got;
	CU_ASSERT_EQUAL( hyblas_knapsack_solve( -1, kd_x.p, kd_x.w, kd_x.c, &o, &got, NULL, NULL ),
	                 HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyb_stats_calls( op, HYB_PATH_GPU ), gpu + 1 );
	CU_ASSERT_EQUAL( hyb_stats_calls( op, HYB_PATH_CPU ), cpu + 2 );
	CU_ASSERT_EQUAL( hyb_stats_calls( op, HYB_PATH_FALLBACK ), fb + 1 );
	CU_ASSERT_EQUAL( hyb_stats_fallbacks( op ), nfb + 1 );
	unsigned long long counts[4];
	CU_ASSERT_EQUAL( hyb_calls( "hyblas_knapsack_solve", counts ), 0 );
	CU_ASSERT_EQUAL( counts[HYB_PATH_GPU], gpu + 1 );
	hyb_t_sim_end();
}

static CU_TestInfo kd_tests[] = {
	{ "registered", test_registered }, { "every_method", test_every_method },
	{ "faults", test_faults },         { "budget", test_budget },
	{ "counted", test_counted },       CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_knapsack_devrt = { "knapsack_devrt", NULL, NULL, NULL, NULL, kd_tests };
