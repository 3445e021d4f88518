/* SPDX-License-Identifier: BSD-3-Clause */
/* Device failures in sparse products on the simulated device (HYBLAS_FAULT_INJECT): each
   kind of operation failing, at once or reported later, at every point of a call, on a
   transient first call, on a first call that fills the cache and on a steady-state call of
   a resident matrix, for device-only, hybrid and row-split runs: y is always the correct
   product, and the calls after the failure work (the resident copy survives an injected
   fault). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/hyb_device.h"
#include "test_spmv_util.h"

enum
{
	TSF_TRANSIENT = 0,
	TSF_FILL      = 1,
	TSF_HIT       = 2
};

static const char* const tsf_stage_name[3] = { "transient", "fill", "hit" };

/* One product with the fault plan armed just before it (after the unfaulted calls a stage
   needs). Returns 1 when the result was right; *fell says whether it went back to the CPU. */
static int tsf_one( const tsp_mat_t* A, int stage, const char* plan, int* fell, uint64_t seed )
{
	if ( stage == TSF_HIT )
	{
		void *x = tsp_vec( A, seed + 1000 ), *y = tsp_out( A );
		tsp_call( A, 1, 'N', x, y ); /* fill, unfaulted */
		free( x );
		free( y );
	}
	hyb_device_faults_set( plan );
	void *                   x = tsp_vec( A, seed ), *y = tsp_out( A );
	const hyb_spmv_report_t* r = tsp_call( A, 1, 'N', x, y );
	*fell                      = r->path == HYB_PATH_FALLBACK || r->error != HYB_OK;
	int ok                     = tsp_err( A, 'N', x, y ) <= TSP_TOL;
	if ( stage == TSF_HIT && r->cache != HYB_RESIDENCY_HIT ) ok = 0;
	hyb_device_faults_set( NULL );
	/* the next call works (and finds the resident copy after a steady-state fault) */
	tsp_call( A, 1, 'N', x, y );
	if ( !( tsp_err( A, 'N', x, y ) <= TSP_TOL ) ) ok = 0;
	if ( stage == TSF_HIT && hyb_spmv_last_report()->cache != HYB_RESIDENCY_HIT ) ok = 0;
	if ( !ok )
		printf( "\n  %s %s: failed (why=%s)", tsf_stage_name[stage], plan, r->why ? r->why : "" );
	free( x );
	free( y );
	return ok;
}

/* Sweep "any:N" and "any:Na": the N-th device operation of the call fails, for every N up
   to past the call's last operation. */
static void tsf_sweep( hyb_spmv_run_t run, hyb_spmv_devfmt_t fmt, int64_t K )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu;HYBLAS_RESIDENCY=track" ), 0 );
	tsp_mat_t A   = tsp_make( TSP_BANDED, 3000, 7, 0, HYB_PREC_D, TSP_SCATTER | TSP_DUP, 17 );
	int       bad = 0, fell = 0, calls = 0;
	for ( int stage = 0; stage < 3; stage++ )
		for ( int n = 1; n <= 40; n++ )
			for ( int async = 0; async < 2; async++ )
			{
				hyb_spmv_force_t f = tsp_force();
				f.opts.force       = 1;
				f.opts.run         = run;
				f.opts.fmt         = fmt;
				f.opts.K           = K;
				f.opts.share       = 0.5;
				f.resident         = stage == TSF_TRANSIENT ? 0 : 1;
				f.block_rows       = 700;
				f.x_chunk          = 5000;
				/* a fresh cache key per case: each stage starts from a matrix not resident */
				f.salt = (uint64_t)( 1 + stage * 1000 + n * 2 + async );
				hyb_spmv_device_force( &f );
				char plan[32];
				snprintf( plan, sizeof plan, "any:%d%s", n, async ? "a" : "" );
				int fl = 0;
				bad += !tsf_one( &A, stage, plan, &fl, (uint64_t)( n * 2 + async ) );
				fell += fl;
				calls++;
			}
	printf( "\n  %d faulted calls, %d went back to the CPU ", calls, fell );
	CU_ASSERT_EQUAL( bad, 0 );
	CU_ASSERT( fell > calls / 3 ); /* most of the sweep hit a device operation */
	tsp_free( &A );
	tsp_sim_end();
}

static void test_sweep_gpu_ell( void )
{
	tsf_sweep( HYB_SPMV_RUN_GPU, HYB_SPMV_DEV_ELL, 0 );
}

static void test_sweep_hybrid_dia( void )
{
	tsf_sweep( HYB_SPMV_RUN_HYBRID, HYB_SPMV_DEV_DIA, 3 );
}

static void test_sweep_rowsplit( void )
{
	tsf_sweep( HYB_SPMV_RUN_ROWSPLIT, HYB_SPMV_DEV_CSR, 0 );
}

/* Each kind by name, first and later occurrences, immediate and asynchronous. */
static void test_each_kind( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu;HYBLAS_RESIDENCY=track" ), 0 );
	static const char* kinds[] = { "alloc", "pinned", "h2d", "d2h", "kernel", "sync", "register" };
	/* y of 1.05 MiB: just large enough to be registered */
	tsp_mat_t A   = tsp_make( TSP_RANDOM, 138000, 1, 1, HYB_PREC_D, TSP_EMPTY, 23 );
	int       bad = 0, cases = 0, fellk[7] = { 0 };
	for ( int k = 0; k < 7; k++ )
		for ( int stage = 0; stage < 3; stage++ )
			for ( int n = 1; n <= 2; n++ )
				for ( int async = 0; async < 2; async++ )
				{
					/* cold contexts for the allocation kinds (a warm one allocates nothing) */
					if ( k < 2 )
						CU_ASSERT_EQUAL_FATAL(
						    tsp_sim_begin( "HYBLAS_MODE=gpu;HYBLAS_RESIDENCY=track" ), 0 );
					hyb_spmv_force_t f = tsp_force();
					f.opts.force       = 1;
					f.opts.run         = HYB_SPMV_RUN_GPU;
					f.opts.fmt         = HYB_SPMV_DEV_CSR;
					f.resident         = stage == TSF_TRANSIENT ? 0 : 1;
					f.yreg       = 2; /* registered y: the register kind has something to fail */
					f.block_rows = 30000;
					f.x_chunk    = 200000;
					f.salt       = (uint64_t)( cases + 1 ); /* fresh key */
					hyb_spmv_device_force( &f );
					char plan[32];
					snprintf( plan, sizeof plan, "%s:%d%s", kinds[k], n, async ? "a" : "" );
					int fl = 0;
					bad += !tsf_one( &A, stage, plan, &fl, (uint64_t)cases );
					fellk[k] += fl;
					cases++;
				}
	CU_ASSERT_EQUAL( bad, 0 );
	/* every kind but register (a refused registration only stages y) sent calls back */
	for ( int k = 0; k < 6; k++ )
	{
		if ( fellk[k] == 0 ) printf( "\n  no %s fault reached the call", kinds[k] );
		CU_ASSERT( fellk[k] > 0 );
	}
	tsp_free( &A );
	tsp_sim_end();
}

static CU_TestInfo hyb_tests_spmv_faults[] = {
	{ "sweep_gpu_ell", test_sweep_gpu_ell },
	{ "sweep_hybrid_dia", test_sweep_hybrid_dia },
	{ "sweep_rowsplit", test_sweep_rowsplit },
	{ "each_kind", test_each_kind },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_faults = {
	"spmv_faults", NULL, NULL, NULL, NULL, hyb_tests_spmv_faults
};
