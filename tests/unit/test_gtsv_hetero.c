/* SPDX-License-Identifier: BSD-3-Clause */
/* The heterogeneous tridiagonal solver on the simulated device against LAPACK: CPU alone,
   devices alone, both, several chunks and devices, s and d, nrhs, ldb, and device faults
   of every kind (synchronous and asynchronous) at several points. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "kernels/cpu/hyb_gtsv_cpu.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_gtsv_hetero.h"
#include "policies/hyb_policy_gtsv.h"
#include "test_gtsv_util.h"

/* LAPACK's results on copies, asserted to be a solve (the systems here are column dominant,
   so LAPACK never swaps rows: its factors are the no-swap ones the SPIKE path writes). */
static tgt_arr_t gh_lapack( const tgt_sys_t* s, int single )
{
	tgt_arr_t L = tgt_lapack( s, single );
	CU_ASSERT_EQUAL( L.info, 0 );
	return L;
}

/* ---------------------------------------------------------------------------------------
   The simulated device.
   --------------------------------------------------------------------------------------- */
static void gh_sim( int ndev, const char* mem )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( ndev, mem, "HYBLAS_LOG_LEVEL=0" ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), ndev );
}

/* With gh_pinned, a run with one device registers that device's rows first (as the
   dispatch does before its check) and its report lands in gh_pin_rep. */
static int                   gh_pinned;
static hyb_gtsv_pin_report_t gh_pin_rep;

/* One run of the solver on a fresh copy of s against LAPACK. dev_rows[k] < 0 means "the
   rest" is not used; the CPU always takes what the devices do not. */
static hyb_gtsv_hetero_report_t gh_run( const tgt_sys_t* s, const tgt_arr_t* L, int single,
                                        int ndev, const int64_t* dev_rows, int64_t chunk,
                                        const char* what )
{
	tgt_arr_t         A = tgt_arrays( s, single );
	hyb_gtsv_check_t  c;
	hyb_gtsv_hetero_t p;
	memset( &p, 0, sizeof p );
	if ( single )
		hyb_sgtsv_check( s->n, A.dl, A.d, A.du, HYB_GTSV_WINDOW_MAX, 2, &c );
	else
		hyb_dgtsv_check( s->n, A.dl, A.d, A.du, HYB_GTSV_WINDOW_MAX, 2, &c );
	int64_t m = 0;
	CU_ASSERT_EQUAL( hyb_policy_gtsv_choose( c.dom_row, c.dom_col, c.pivot, c.info, c.nonfinite,
	                                         single ? HYB_PREC_S : HYB_PREC_D, 1, &m ),
	                 HYB_GTSV_PLAN_SPIKE );
	p.prec        = single ? HYB_PREC_S : HYB_PREC_D;
	p.n           = s->n;
	p.nrhs        = s->nrhs;
	p.ldb         = s->ldb;
	p.dl          = A.dl;
	p.d           = A.d;
	p.du          = A.du;
	p.b           = A.b;
	p.m           = m;
	p.flags       = HYB_GTSV_FACTORS;
	p.ndev        = ndev;
	p.cpu_threads = 2;
	p.dev_threads = 2;
	p.chunk_rows  = chunk;
	p.chunk_fn    = hyb_policy_gtsv_chunk_rows;
	for ( int k = 0; k < ndev; k++ ) p.dev_rows[k] = dev_rows[k];
	hyb_gtsv_hetero_report_t r;
	hyb_gtsv_hetero_reg_t    reg = { 0 };
	if ( gh_pinned && ndev == 1 && dev_rows[0] > 0 )
	{
		CU_ASSERT_EQUAL( hyb_gtsv_hetero_reg_start( &p, &reg ), HYB_OK );
		p.pin = reg.pin;
	}
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_run( &p, &r ), HYB_OK );
	hyb_gtsv_hetero_reg_finish( &reg, &gh_pin_rep );
	tgt_compare( s, &A, L, what );
	/* Every device row was finished by its device or by the CPU afterwards. */
	int64_t devsum = 0, done = 0;
	for ( int k = 0; k < ndev; k++ )
	{
		devsum += dev_rows[k];
		done += r.dev_done[k];
	}
	TGT_EXPECT( done + r.fallback_rows == devsum && r.cpu_rows == s->n - devsum,
	            "%s: rows %lld done + %lld fallback of %lld, cpu %lld\n", what, (long long)done,
	            (long long)r.fallback_rows, (long long)devsum, (long long)r.cpu_rows );
	tgt_arr_free( &A );
	return r;
}

/* ---------------------------------------------------------------------------------------
   Tests.
   --------------------------------------------------------------------------------------- */
static void test_cpu_alone( void )
{
	gh_sim( 1, "64M" );
	static const int64_t ns[] = { 1, 2, 5, 1000, 54321 };
	hyb_t_rng_t          rng  = hyb_t_rng( 11 );
	for ( size_t a = 0; a < sizeof ns / sizeof ns[0]; a++ )
		for ( int single = 0; single <= 1; single++ )
			for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
			{
				tgt_sys_t                s = tgt_make( &rng, TGT_COL, ns[a], nrhs, 3, 1.5 );
				tgt_arr_t                L = gh_lapack( &s, single );
				hyb_gtsv_hetero_report_t r = gh_run( &s, &L, single, 0, NULL, 0, "cpu alone" );
				CU_ASSERT_EQUAL( r.error, HYB_OK );
				tgt_arr_free( &L );
				tgt_free( &s );
			}
	hyb_t_sim_end();
}

static void test_devices_alone( void )
{
	gh_sim( 1, "64M" );
	hyb_t_rng_t rng = hyb_t_rng( 12 );
	/* One chunk, many chunks (including a last short one and chunks of a few rows), s and
	   d, nrhs 1 and 3, ldb > n. */
	static const int64_t cases[][2] = { { 1, 0 },     { 2, 0 },        { 3000, 0 },
		                                { 40000, 0 }, { 40000, 7000 }, { 40001, 1024 },
		                                { 20000, 3 }, { 5000, 4999 } };
	for ( size_t a = 0; a < sizeof cases / sizeof cases[0]; a++ )
		for ( int single = 0; single <= 1; single++ )
			for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
			{
				int64_t   n       = cases[a][0];
				tgt_sys_t s       = tgt_make( &rng, TGT_COL, n, nrhs, 2, a % 2 ? 1.2 : 4.0 );
				tgt_arr_t L       = gh_lapack( &s, single );
				int64_t   rows[1] = { n };
				char      what[96];
				snprintf( what, sizeof what, "device alone n=%lld chunk=%lld %c nrhs=%lld",
				          (long long)n, (long long)cases[a][1], single ? 's' : 'd',
				          (long long)nrhs );
				hyb_gtsv_hetero_report_t r = gh_run( &s, &L, single, 1, rows, cases[a][1], what );
				TGT_EXPECT( r.error == HYB_OK && r.dev_done[0] == n && r.fallback_rows == 0,
				            "%s: error %d done %lld\n", what, (int)r.error,
				            (long long)r.dev_done[0] );
				if ( cases[a][1] > 0 )
					TGT_EXPECT( r.dev_chunks[0] == (int)( ( n + cases[a][1] - 1 ) / cases[a][1] ),
					            "%s: %d chunks\n", what, r.dev_chunks[0] );
				TGT_EXPECT( r.bytes_h2d > 0 && r.bytes_d2h > 0, "%s: no transfers counted\n",
				            what );
				tgt_arr_free( &L );
				tgt_free( &s );
			}
	hyb_t_sim_end();
}

static void test_split( void )
{
	gh_sim( 2, "64M" );
	hyb_t_rng_t rng = hyb_t_rng( 13 );
	for ( int single = 0; single <= 1; single++ )
		for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
		{
			const int64_t n = 60007;
			tgt_sys_t     s = tgt_make( &rng, TGT_COL, n, nrhs, 1, 1.3 );
			tgt_arr_t     L = gh_lapack( &s, single );
			/* One device and the CPU; two devices and the CPU; two devices alone; a device with
			   no rows between the others' ranges. */
			int64_t r1[1] = { 20000 }, r2[2] = { 17000, 25001 }, r3[2] = { 30000, n - 30000 },
			        r4[2] = { 0, 33333 };
			hyb_gtsv_hetero_report_t r;
			r = gh_run( &s, &L, single, 1, r1, 4096, "one device + CPU" );
			TGT_EXPECT( r.error == HYB_OK && r.cpu_rows == n - 20000 && r.dev_done[0] == 20000,
			            "split 1\n" );
			r = gh_run( &s, &L, single, 2, r2, 5000, "two devices + CPU" );
			TGT_EXPECT( r.error == HYB_OK && r.dev_done[0] == 17000 && r.dev_done[1] == 25001,
			            "split 2\n" );
			r = gh_run( &s, &L, single, 2, r3, 0, "two devices alone" );
			TGT_EXPECT( r.error == HYB_OK && r.cpu_rows == 0, "split 3\n" );
			r = gh_run( &s, &L, single, 2, r4, 2048, "device without rows" );
			TGT_EXPECT( r.error == HYB_OK && r.dev_done[1] == 33333 && r.dev_chunks[0] == 0,
			            "split 4\n" );
			tgt_arr_free( &L );
			tgt_free( &s );
		}
	hyb_t_sim_end();
}

/* A device whose memory cannot hold its buffers: its rows go to the CPU. */
static void test_small_budget( void )
{
	gh_sim( 1, "1M" );
	hyb_t_rng_t rng = hyb_t_rng( 14 );
	tgt_sys_t   s =
	    tgt_make( &rng, TGT_COL, 30000, 40, 0, 2.0 ); /* 43 elements a row: 1024 rows do not fit */
	tgt_arr_t                L       = gh_lapack( &s, 0 );
	int64_t                  rows[1] = { 20000 };
	hyb_gtsv_hetero_report_t r       = gh_run( &s, &L, 0, 1, rows, 0, "tiny device" );
	TGT_EXPECT( r.error != HYB_OK && r.fallback_rows == 20000,
	            "tiny device: error %d fallback %lld\n", (int)r.error, (long long)r.fallback_rows );
	tgt_arr_free( &L );
	tgt_free( &s );
	/* With one right-hand side the same budget holds a few thousand rows a chunk. */
	s = tgt_make( &rng, TGT_COL, 30000, 1, 0, 2.0 );
	L = gh_lapack( &s, 0 );
	r = gh_run( &s, &L, 0, 1, rows, 0, "small device" );
	TGT_EXPECT( r.error == HYB_OK && r.dev_done[0] == 20000 && r.dev_chunks[0] > 1,
	            "small device: %d chunks\n", r.dev_chunks[0] );
	tgt_arr_free( &L );
	tgt_free( &s );
	hyb_t_sim_end();
}

/* Faults of every kind, synchronous and asynchronous, early and late: the result is still
   LAPACK's and the unfinished rows were solved by the CPU. Each case starts from fresh
   contexts so that allocations happen again. */
static void test_faults( void )
{
	static const char* kinds[] = { "alloc", "pinned", "h2d", "d2h", "kernel", "sync", "any" };
	static const int   at[]    = { 1, 2, 5 };
	hyb_t_rng_t        rng     = hyb_t_rng( 15 );
	const int64_t      n       = 48000;
	tgt_sys_t          s       = tgt_make( &rng, TGT_COL, n, 2, 1, 1.7 );
	tgt_arr_t          L       = gh_lapack( &s, 0 );
	for ( size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++ )
		for ( size_t q = 0; q < sizeof at / sizeof at[0]; q++ )
			for ( int async = 0; async <= 1; async++ )
			{
				if ( async && strcmp( kinds[k], "sync" ) == 0 )
					continue; /* a sync fault is synchronous */
				gh_sim( 1, "64M" );
				char plan[32], what[64];
				snprintf( plan, sizeof plan, "%s:%d%s", kinds[k], at[q], async ? "a" : "" );
				snprintf( what, sizeof what, "fault %s", plan );
				CU_ASSERT_EQUAL( hyb_device_faults_set( plan ), HYB_OK );
				/* Device 0 has rows [0, 36000) in 6 chunks, the CPU the rest, concurrently. */
				int64_t                  rows[1] = { 36000 };
				hyb_gtsv_hetero_report_t r       = gh_run( &s, &L, 0, 1, rows, 6000, what );
				/* alloc and pinned happen once per fresh context: only the first one fails. */
				int expect_hit =
				    !( ( strcmp( kinds[k], "alloc" ) == 0 || strcmp( kinds[k], "pinned" ) == 0 ) &&
				       at[q] > 1 );
				if ( expect_hit )
					TGT_EXPECT( r.error != HYB_OK && r.fallback_rows > 0,
					            "%s: error %d fallback %lld\n", what, (int)r.error,
					            (long long)r.fallback_rows );
				else
					TGT_EXPECT( r.error == HYB_OK && r.fallback_rows == 0,
					            "%s: unexpected failure %d\n", what, (int)r.error );
				hyb_t_sim_end();
			}
	tgt_arr_free( &L );
	tgt_free( &s );
}

/* Two devices, one fails: the other's rows and the CPU's are unaffected. */
static void test_fault_one_of_two( void )
{
	hyb_t_rng_t   rng = hyb_t_rng( 16 );
	const int64_t n   = 50000;
	tgt_sys_t     s   = tgt_make( &rng, TGT_COL, n, 1, 0, 1.4 );
	tgt_arr_t     L   = gh_lapack( &s, 1 );
	for ( int f = 1; f <= 4; f++ )
	{
		gh_sim( 2, "64M" );
		char plan[32];
		snprintf( plan, sizeof plan, "kernel:%da", f );
		hyb_device_faults_set( plan );
		int64_t                  rows[2] = { 15000, 15000 };
		hyb_gtsv_hetero_report_t r       = gh_run( &s, &L, 1, 2, rows, 5000, plan );
		TGT_EXPECT( r.error != HYB_OK && r.fallback_rows > 0 && r.fallback_rows <= 15000,
		            "%s: error %d fallback %lld\n", plan, (int)r.error,
		            (long long)r.fallback_rows );
		hyb_t_sim_end();
	}
	tgt_arr_free( &L );
	tgt_free( &s );
}

/* Registered pages: one device alone and beside the CPU, many chunks and one, a last
   short chunk, chunks of one row, s and d, nrhs 1 and 3 with ldb > n, dominance weak and
   strong: X, D and DL are LAPACK's, everything registered is unregistered. */
static void test_pinned( void )
{
	gh_sim( 1, "64M" );
	gh_pinned                       = 1;
	hyb_t_rng_t          rng        = hyb_t_rng( 17 );
	static const int64_t cases[][3] = { /* n, device rows, chunk */
		                                { 40000, 40000, 7000 }, { 40001, 40001, 0 },
		                                { 60007, 20000, 4096 }, { 5000, 4999, 1024 },
		                                { 3000, 1, 0 },         { 20000, 20000, 3 }
	};
	for ( size_t a = 0; a < sizeof cases / sizeof cases[0]; a++ )
		for ( int single = 0; single <= 1; single++ )
			for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
			{
				int64_t   n = cases[a][0], rows[1] = { cases[a][1] };
				tgt_sys_t s = tgt_make( &rng, TGT_COL, n, nrhs, 2, a % 2 ? 1.2 : 4.0 );
				tgt_arr_t L = gh_lapack( &s, single );
				char      what[96];
				snprintf( what, sizeof what, "registered n=%lld rows=%lld chunk=%lld %c nrhs=%lld",
				          (long long)n, (long long)rows[0], (long long)cases[a][2],
				          single ? 's' : 'd', (long long)nrhs );
				hyb_gtsv_hetero_report_t r = gh_run( &s, &L, single, 1, rows, cases[a][2], what );
				TGT_EXPECT( r.error == HYB_OK && r.dev_done[0] == rows[0] && r.fallback_rows == 0,
				            "%s: error %d done %lld\n", what, (int)r.error,
				            (long long)r.dev_done[0] );
				TGT_EXPECT( gh_pin_rep.rows == rows[0] && !gh_pin_rep.failed &&
				                gh_pin_rep.reg_bytes > 0,
				            "%s: registered %lld rows, failed %d\n", what,
				            (long long)gh_pin_rep.rows, gh_pin_rep.failed );
				tgt_arr_free( &L );
				tgt_free( &s );
			}
	gh_pinned = 0;
	hyb_t_sim_end();
}

/* Registered pages under faults: a refused registration, failed copies and kernels (the
   pivots kernel among them), synchronous and asynchronous: LAPACK's result all the same,
   the rows the device did not finish solved by the CPU. */
static void test_pinned_faults( void )
{
	static const char* plans[] = { "register:1", "register:4", "h2d:3",  "h2d:9a", "kernel:2",
		                           "kernel:5a",  "d2h:2",      "sync:3", "any:7a" };
	hyb_t_rng_t        rng     = hyb_t_rng( 18 );
	const int64_t      n       = 48000;
	tgt_sys_t          s       = tgt_make( &rng, TGT_COL, n, 2, 1, 1.7 );
	tgt_arr_t          L       = gh_lapack( &s, 0 );
	gh_pinned                  = 1;
	for ( size_t k = 0; k < sizeof plans / sizeof plans[0]; k++ )
	{
		gh_sim( 1, "64M" );
		char what[64];
		snprintf( what, sizeof what, "registered, fault %s", plans[k] );
		CU_ASSERT_EQUAL( hyb_device_faults_set( plans[k] ), HYB_OK );
		int64_t                  rows[1] = { 36000 };
		hyb_gtsv_hetero_report_t r       = gh_run( &s, &L, 0, 1, rows, 6000, what );
		TGT_EXPECT( r.error != HYB_OK && r.fallback_rows > 0, "%s: error %d fallback %lld\n", what,
		            (int)r.error, (long long)r.fallback_rows );
		hyb_t_sim_end();
	}
	gh_pinned = 0;
	tgt_arr_free( &L );
	tgt_free( &s );
}

static void test_invalid( void )
{
	gh_sim( 1, "64M" );
	double d[4] = { 4, 4, 4, 4 }, dl[3] = { 1, 1, 1 }, du[3] = { 1, 1, 1 }, b[4] = { 1, 2, 3, 4 };
	hyb_gtsv_hetero_t p;
	memset( &p, 0, sizeof p );
	p.prec = HYB_PREC_D;
	p.n = 4, p.nrhs = 1, p.ldb = 4, p.m = 10;
	p.dl = dl, p.d = d, p.du = du, p.b = b;
	p.flags = HYB_GTSV_FACTORS;
	hyb_gtsv_hetero_report_t r;
	p.ldb = 3;
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_run( &p, &r ), HYB_E_INVALID );
	p.ldb  = 4;
	p.ndev = 2; /* only one device */
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_run( &p, &r ), HYB_E_INVALID );
	p.ndev        = 1;
	p.dev_threads = 1;
	p.dev_rows[0] = 5; /* more rows than the system */
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_run( &p, &r ), HYB_E_INVALID );
	p.prec        = HYB_PREC_Z;
	p.dev_rows[0] = 2;
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_run( &p, &r ), HYB_E_INVALID );
	CU_ASSERT( d[0] == 4 && b[0] == 1 && dl[0] == 1 );
	p.prec = HYB_PREC_D;
	/* registered pages: one device with rows, at most HYB_GTSV_PIN_ARRAYS_MAX - 3 columns */
	hyb_gtsv_hetero_reg_t reg;
	p.dev_rows[0] = 0;
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_reg_start( &p, &reg ), HYB_E_INVALID );
	p.dev_rows[0] = 2;
	p.nrhs        = HYB_GTSV_PIN_ARRAYS_MAX - 2;
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_reg_start( &p, &reg ), HYB_E_INVALID );
	p.nrhs = 1;
	p.ndev = 0;
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_reg_start( &p, &reg ), HYB_E_INVALID );
	CU_ASSERT_PTR_NULL( reg.pin );
	hyb_gtsv_hetero_reg_finish( &reg, NULL ); /* nothing started: nothing to do */
	p.ndev = 1;
	CU_ASSERT_EQUAL_FATAL( hyb_gtsv_hetero_reg_start( &p, &reg ), HYB_OK );
	p.pin  = reg.pin;
	p.ndev = 0; /* a registration without its device */
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_run( &p, &r ), HYB_E_INVALID );
	hyb_gtsv_hetero_reg_finish( &reg, NULL );
	p.pin  = NULL;
	p.ndev = 1;
	CU_ASSERT( d[0] == 4 && b[0] == 1 && dl[0] == 1 );
	CU_ASSERT_EQUAL( hyb_gtsv_hetero_run( &p, &r ), HYB_OK );
	/* 4x4 with 4 on the diagonal, ones beside: x from LAPACK. */
	double Ldl[3] = { 1, 1, 1 }, Ld[4] = { 4, 4, 4, 4 }, Ldu[3] = { 1, 1, 1 },
	       Lb[4] = { 1, 2, 3, 4 };
	int n = 4, one = 1, info = -1;
	dgtsv_( &n, &one, Ldl, Ld, Ldu, Lb, &n, &info );
	for ( int i = 0; i < 4; i++ )
	{
		CU_ASSERT( fabs( b[i] - Lb[i] ) <= 4 * DBL_EPSILON * fabs( Lb[i] ) );
		CU_ASSERT( fabs( d[i] - Ld[i] ) <= 4 * DBL_EPSILON * fabs( Ld[i] ) );
	}
	for ( int i = 0; i < 3; i++ ) CU_ASSERT( dl[i] == Ldl[i] );
	hyb_t_sim_end();
}

static int gh_init( void )
{
	tgt_fails = 0;
	return 0;
}

static CU_TestInfo hyb_tests_gtsv_hetero[] = {
	{ "cpu_alone", test_cpu_alone }, { "devices_alone", test_devices_alone },
	{ "split", test_split },         { "small_budget", test_small_budget },
	{ "faults", test_faults },       { "fault_one_of_two", test_fault_one_of_two },
	{ "pinned", test_pinned },       { "pinned_faults", test_pinned_faults },
	{ "invalid", test_invalid },     CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_gtsv_hetero = { "gtsv_hetero", gh_init, NULL,
	                                   NULL,          NULL,    hyb_tests_gtsv_hetero };
