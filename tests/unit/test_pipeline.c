/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 pipeline (kernels/pipeline/hyb_l3_pipeline) on the simulated
   device: every op and precision with tiny tiles against the reference,
   several devices, a CPU strip, a tiny device budget (eviction), repeated
   and concurrent calls; and, in the second suite, every kind of injected
   device fault (each in a child process, so a crash or a hang is a failed
   test rather than a lost run): the result stays complete and correct and
   nothing outside the output region is written. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_l3_check.h"
#include "hyb_test_util.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_l3_pipeline.h"
#include "kernels/sim/hyb_device_sim.h"

/* One pipeline call and what it must satisfy. */
typedef struct
{
	hyb_op_t   op;
	hyb_prec_t prec;
	char       layout, side, uplo, transa, transb, diag;
	int64_t    m, n, k, pad;
	int        beta_kind;
	int64_t    Tm, Tn, K;
	int        ndev, register_ops, copy_threads;
	int        team_spin; /* copy teams held through the call where the cores allow */
	int        beta_host; /* beta applied while storing (hyb_l3_work_beta_on_host) */
	int        strip;     /* gemm: 0 none, 1 last columns, 2 last rows on the CPU */
	int        same_ab;   /* gemm: B is A (overlapping operands) */
	/* results */
	hyb_l3_exec_report_t r;
	hyb_status_t         st;
	int                  ntasks;
	double               err, tol;
	int64_t              outside;
	void*                keep; /* the output, when the caller asked to keep it */
	size_t               keep_bytes;
} hyb_pcase_t;

static void random_pcase( hyb_pcase_t* c, hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t p, int max_dim,
                          int max_tile )
{
	memset( c, 0, sizeof *c );
	c->op = op, c->prec = p;
	hyb_t_random_options( r, op, p, &c->side, &c->uplo, &c->transa, &c->transb, &c->diag );
	c->layout       = hyb_t_int( r, 0, 3 ) == 0 ? 'R' : 'C';
	c->m            = hyb_t_int( r, 1, max_dim );
	c->n            = hyb_t_int( r, 1, max_dim );
	c->k            = hyb_t_int( r, 1, max_dim );
	c->pad          = hyb_t_int( r, 0, 3 );
	c->beta_kind    = (int)hyb_t_int( r, 0, 2 );
	c->Tm           = hyb_t_int( r, 1, max_tile );
	c->Tn           = hyb_op_is_rank_k( op ) ? c->Tm : hyb_t_int( r, 1, max_tile );
	c->K            = hyb_t_int( r, 1, max_tile );
	c->ndev         = 1;
	c->register_ops = (int)hyb_t_int( r, 0, 1 );
	c->copy_threads = (int)hyb_t_int( r, 1, 3 );
	c->strip        = op == HYB_OP_GEMM ? (int)hyb_t_int( r, 0, 2 ) : 0;
	c->team_spin =
	    hyb_t_int( r, 0, 1 ) ? HYB_SPIN_ALWAYS : HYB_SPIN_NEVER; /* test calls are small */
	c->beta_host = (int)hyb_t_int( r, 0, 1 );
}

/* Run the case on the installed simulated device(s); fills the results. */
static void run_pcase( hyb_pcase_t* c, hyb_t_rng_t* r, int keep )
{
	hyb_t_problem_t pr;
	hyb_t_problem_make( &pr, r, c->op, c->prec, c->layout, c->side, c->uplo, c->transa, c->transb,
	                    c->diag, c->m, c->n, c->k, c->pad, c->beta_kind );
	hyb_l3_args_t a = pr.args;
	if ( c->same_ab && c->op == HYB_OP_GEMM && c->m == c->n && c->n == c->k )
		a.b = a.a, a.ldb = a.lda; /* both operands on the same pages */
	hyb_l3_normalize( &a );
	int64_t ld, rows, cols;
	void*   out   = hyb_l3_out( &a, &ld );
	size_t  bytes = hyb_t_out_bytes( &a );
	hyb_t_out_dims( &a, &rows, &cols );
	void* c0   = malloc( bytes );
	void* want = malloc( bytes );
	memcpy( c0, out, bytes );
	memcpy( want, out, bytes );
	hyb_l3_args_t ra = a;
	if ( a.op == HYB_OP_TRSM || a.op == HYB_OP_TRMM )
		ra.b = want;
	else
		ra.c = want;
	hyb_t_ref_l3( &ra );

	/* The strip: the last columns (or rows) of a gemm, cut as dispatch does. */
	int64_t       m_dev = rows, n_dev = cols, cut = 0;
	hyb_l3_args_t strip;
	if ( c->strip == 1 && cols > 1 )
		cut = ( cols + 1 ) / 3, n_dev = cols - cut,
		strip = hyb_l3_gemm_sub( &a, 0, n_dev, rows, cut );
	if ( c->strip == 2 && rows > 1 )
		cut = ( rows + 1 ) / 3, m_dev = rows - cut,
		strip = hyb_l3_gemm_sub( &a, m_dev, 0, cut, cols );

	hyb_l3_work_t w;
	c->st = hyb_l3_work_build_bands( &w, &a, m_dev, n_dev, c->Tm, c->Tn, c->K, c->ndev );
	if ( c->st == HYB_OK )
	{
		if ( c->beta_host ) hyb_l3_work_beta_on_host( &w );
		hyb_t_cpu_counter_t cnt = { 0 };
		hyb_l3_exec_opts_t  o   = { .ndev         = c->ndev,
			                        .register_ops = c->register_ops,
			                        .copy_threads = c->copy_threads,
			                        .team_spin    = c->team_spin,
			                        .cpu          = hyb_t_ref_cpu,
			                        .cpu_user     = &cnt,
			                        .cpu_strip    = cut ? &strip : NULL };
		c->ntasks               = w.ntasks;
		c->st                   = hyb_l3_pipeline_run( &w, &o, &c->r );
		hyb_l3_work_free( &w );
	}
	c->err     = hyb_t_l3_error( &a, out, want, c0 );
	c->tol     = hyb_t_l3_tol( &a );
	c->outside = hyb_t_outside_changed( &a, out, c0 );
	if ( keep )
	{
		c->keep = malloc( bytes );
		memcpy( c->keep, out, bytes );
		c->keep_bytes = bytes;
	}
	free( c0 );
	free( want );
	hyb_t_problem_free( &pr );
}

static void describe( const hyb_pcase_t* c, const char* what )
{
	fprintf( stderr,
	         "\n    %s: %c%s %c side=%c uplo=%c ta=%c tb=%c diag=%c m=%lld n=%lld k=%lld pad=%lld "
	         "beta=%d T=%lldx%lld "
	         "K=%lld ndev=%d reg=%d thr=%d spin=%d host_beta=%d strip=%d: st=%d err=%g tol=%g "
	         "outside=%lld error=%d dev=%d cpu=%d/%d",
	         what, hyb_prec_char( c->prec ), hyb_op_name( c->op ), c->layout, c->side, c->uplo,
	         c->transa, c->transb, c->diag, (long long)c->m, (long long)c->n, (long long)c->k,
	         (long long)c->pad, c->beta_kind, (long long)c->Tm, (long long)c->Tn, (long long)c->K,
	         c->ndev, c->register_ops, c->copy_threads, c->team_spin, c->beta_host, c->strip,
	         (int)c->st, c->err, c->tol, (long long)c->outside, (int)c->r.error, c->r.tasks_dev,
	         c->r.tasks_cpu, c->ntasks );
}

/* A fault-free call: correct, everything on the device, nothing outside
   written. Returns 0 when all holds. */
static int check_clean( const hyb_pcase_t* c )
{
	int ok = c->st == HYB_OK && c->err <= c->tol && c->outside == 0 && c->r.error == HYB_OK &&
	         c->r.tasks_cpu == 0 && c->r.tasks_dev == c->ntasks;
	if ( !ok ) describe( c, "clean run" );
	return !ok;
}

/* ------------------------------------------------------------------ suite: pipeline */

static void test_every_op( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "256M", NULL ), HYB_OK );
	hyb_t_rng_t r    = hyb_t_rng( 300 );
	int         runs = 0;
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
		{
			if ( !hyb_t_op_has_prec( hyb_t_l3_ops[o], p ) ) continue;
			for ( int it = 0; it < 10; it++ )
			{
				hyb_pcase_t c;
				random_pcase( &c, &r, hyb_t_l3_ops[o], (hyb_prec_t)p, it < 7 ? 11 : 20, 7 );
				run_pcase( &c, &r, 0 );
				CU_ASSERT_EQUAL( check_clean( &c ), 0 );
				runs++;
			}
		}
	CU_ASSERT( runs >= 300 );
	hyb_t_sim_end();
}

/* beta = 0 with NaN everywhere in C (padding too): no NaN in the result,
   the padding untouched, for every op that has beta. */
static void test_nan_beta0( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "256M", NULL ), HYB_OK );
	hyb_t_rng_t r = hyb_t_rng( 301 );
	for ( int o = 0; o < 7; o++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
		{
			if ( !hyb_t_op_has_prec( hyb_t_l3_ops[o], p ) ) continue;
			hyb_pcase_t c;
			random_pcase( &c, &r, hyb_t_l3_ops[o], (hyb_prec_t)p, 13, 5 );
			c.beta_kind = 0;
			c.pad       = 2;
			run_pcase( &c, &r, 0 );
			CU_ASSERT_EQUAL( check_clean( &c ), 0 );
		}
	hyb_t_sim_end();
}

/* Reference BLAS ignores the imaginary part of a Hermitian C's diagonal
   ("need not be set"): NaN there must not reach the result, with beta on
   the device and on the host (where diagonal tiles keep the device's). */
static void test_herk_diag_imag_ignored( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_t_rng_t r = hyb_t_rng( 302 );
	for ( int v = 0; v < 4; v++ )
	{
		hyb_t_problem_t pr;
		hyb_op_t        op = v % 2 ? HYB_OP_HER2K : HYB_OP_HERK;
		hyb_t_problem_make( &pr, &r, op, HYB_PREC_Z, 'C', 'L', 'U', 'N', 'N', 'N', 0, 9, 4, 1, 1 );
		hyb_l3_args_t* a = &pr.args;
		for ( int64_t i = 0; i < a->n; i++ )
			hyb_t_set( a->prec, a->c, i + i * a->ldc,
			           CMPLX( creal( hyb_t_get( a->prec, a->c, i + i * a->ldc ) ), NAN ) );
		size_t bytes = hyb_t_out_bytes( a );
		void * c0 = malloc( bytes ), *want = malloc( bytes );
		memcpy( c0, a->c, bytes );
		memcpy( want, a->c, bytes );
		hyb_l3_args_t ra = *a;
		ra.c             = want;
		hyb_t_ref_l3( &ra );
		hyb_l3_work_t w;
		CU_ASSERT_EQUAL_FATAL( hyb_l3_work_build( &w, a, 9, 9, 3, 3, 2 ), HYB_OK );
		if ( v >= 2 ) hyb_l3_work_beta_on_host( &w ); /* off-diagonal tiles only */
		hyb_l3_exec_opts_t   o = { .ndev = 1, .copy_threads = 1, .cpu = hyb_t_ref_cpu };
		hyb_l3_exec_report_t rep;
		CU_ASSERT_EQUAL( hyb_l3_pipeline_run( &w, &o, &rep ), HYB_OK );
		double err = hyb_t_l3_error( a, a->c, want, c0 );
		if ( !( err <= hyb_t_l3_tol( a ) ) )
			fprintf( stderr, "\n    %s: NaN in the diagonal's imaginary part: error %g",
			         hyb_op_name( op ), err );
		CU_ASSERT( err <= hyb_t_l3_tol( a ) );
		hyb_l3_work_free( &w );
		free( c0 ), free( want );
		hyb_t_problem_free( &pr );
	}
	hyb_t_sim_end();
}

/* Two devices give the same results as one (the same products in the same
   order per tile, so bit for bit), and both take part. */
static void test_two_devices( void )
{
	hyb_t_rng_t seeds = hyb_t_rng( 303 );
	for ( int it = 0; it < 12; it++ )
	{
		hyb_op_t    op   = hyb_t_l3_ops[it % HYB_OP_L3_COUNT];
		hyb_prec_t  p    = hyb_op_is_complex_only( op ) ? HYB_PREC_Z : (hyb_prec_t)( it % 4 );
		uint64_t    seed = hyb_t_next( &seeds );
		hyb_pcase_t c[2];
		for ( int nd = 1; nd <= 2; nd++ )
		{
			CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( nd, "64M", "HYBLAS_SIM_LATENCY=0.0002" ),
			                       HYB_OK );
			hyb_t_rng_t r = hyb_t_rng( seed );
			random_pcase( &c[nd - 1], &r, op, p, 24, 6 );
			c[nd - 1].ndev = nd;
			run_pcase( &c[nd - 1], &r, 1 );
			CU_ASSERT_EQUAL( check_clean( &c[nd - 1] ), 0 );
			if ( nd == 2 && c[1].ntasks >= 8 )
			{
				/* Each simulated device holds a pipeline workspace now (pooled
				   contexts keep theirs): both were set up and used. */
				const hyb_device_ops_t* sim = hyb_sim_device_ops();
				for ( int d = 0; d < 2; d++ )
				{
					hyb_device_info_t info;
					CU_ASSERT_EQUAL( sim->info( d, &info ), HYB_OK );
					CU_ASSERT( info.mem_free < info.mem_total );
				}
			}
			hyb_t_sim_end();
		}
		CU_ASSERT_EQUAL( c[0].keep_bytes, c[1].keep_bytes );
		CU_ASSERT( c[0].keep && c[1].keep && memcmp( c[0].keep, c[1].keep, c[0].keep_bytes ) == 0 );
		free( c[0].keep ), free( c[1].keep );
	}
}

/* A CPU strip (columns or rows) computed at the same time as the device
   tiles, with one and two devices. */
static void test_cpu_strip( void )
{
	hyb_t_rng_t r = hyb_t_rng( 304 );
	for ( int nd = 1; nd <= 2; nd++ )
	{
		CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( nd, "64M", NULL ), HYB_OK );
		for ( int it = 0; it < 24; it++ )
		{
			hyb_pcase_t c;
			random_pcase( &c, &r, HYB_OP_GEMM, (hyb_prec_t)( it % 4 ), 20, 6 );
			c.strip = 1 + it % 2;
			c.ndev  = nd;
			run_pcase( &c, &r, 0 );
			CU_ASSERT_EQUAL( check_clean( &c ), 0 );
			CU_ASSERT( c.r.cpu_seconds >= 0 );
		}
		hyb_t_sim_end();
	}
}

/* A device budget too small to keep every block: blocks are evicted and
   loaded again, the result stays right. */
static void test_eviction( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1M", NULL ), HYB_OK );
	hyb_t_rng_t r = hyb_t_rng( 305 );
	for ( int it = 0; it < 6; it++ )
	{
		hyb_pcase_t c;
		memset( &c, 0, sizeof c );
		c.op = it < 3 ? HYB_OP_GEMM : it == 3 ? HYB_OP_SYMM : it == 4 ? HYB_OP_SYR2K : HYB_OP_SYRK;
		c.prec = HYB_PREC_D, c.layout = 'C', c.side = 'L', c.uplo = 'U';
		c.transa = it == 1 ? 'T' : 'N', c.transb = it == 2 ? 'T' : 'N', c.diag = 'N';
		c.m = c.n = c.k = 256, c.pad = 3, c.beta_kind = 0;
		c.Tm = c.Tn = 64, c.K = 64, c.ndev = 1, c.copy_threads = 2;
		run_pcase( &c, &r, 0 );
		CU_ASSERT_EQUAL( check_clean( &c ), 0 );
		/* A and B hold 2 x 512 KiB of blocks; the budget (0.9 MiB, less the tiles)
		   cannot keep them all, so some were loaded twice. */
		double ab = c.op == HYB_OP_SYRK ? 256.0 * 256 * 8 : 2.0 * 256 * 256 * 8;
		if ( c.op != HYB_OP_SYRK ) CU_ASSERT( c.r.bytes_h2d > ab );
	}
	/* Tiles that cannot fit even two blocks beside them: the device refuses,
	   the CPU computes everything. */
	hyb_pcase_t c;
	memset( &c, 0, sizeof c );
	c.op = HYB_OP_GEMM, c.prec = HYB_PREC_Z, c.layout = 'C', c.transa = 'N', c.transb = 'N';
	c.m = c.n = c.k = 200, c.beta_kind = 2, c.Tm = c.Tn = c.K = 200, c.ndev = 1, c.copy_threads = 1;
	run_pcase( &c, &r, 0 );
	CU_ASSERT_EQUAL( c.st, HYB_OK );
	CU_ASSERT( c.err <= c.tol );
	CU_ASSERT_EQUAL( c.outside, 0 );
	CU_ASSERT_NOT_EQUAL( c.r.error, HYB_OK );
	CU_ASSERT_EQUAL( c.r.tasks_cpu, c.ntasks );
	hyb_t_sim_end();
}

/* Registered operands, including A and B on the same pages (then staged). */
static void test_registered( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 2, "64M", NULL ), HYB_OK );
	hyb_t_rng_t r = hyb_t_rng( 306 );
	for ( int it = 0; it < 16; it++ )
	{
		hyb_pcase_t c;
		random_pcase( &c, &r, hyb_t_l3_ops[it % HYB_OP_L3_COUNT], HYB_PREC_Z, 14, 5 );
		c.register_ops = 1;
		c.ndev         = 1 + it % 2;
		if ( it % 3 == 0 )
		{
			c.op = HYB_OP_GEMM, c.same_ab = 1, c.m = c.n = c.k = 12, c.layout = 'C', c.strip = 0;
		}
		run_pcase( &c, &r, 0 );
		CU_ASSERT_EQUAL( check_clean( &c ), 0 );
	}
	hyb_t_sim_end();
}

/* Calls in a row reuse the pooled context (its workspace, staging, events,
   copy teams and storer) with shapes and thread counts that change. */
static void test_repeated_calls( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_t_rng_t r = hyb_t_rng( 307 );
	for ( int it = 0; it < 40; it++ )
	{
		hyb_pcase_t c;
		random_pcase( &c, &r, hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )], HYB_PREC_C,
		              it % 5 == 0 ? 40 : 10, it % 5 == 0 ? 16 : 4 );
		run_pcase( &c, &r, 0 );
		CU_ASSERT_EQUAL( check_clean( &c ), 0 );
	}
	hyb_t_sim_end();
}

typedef struct
{
	uint64_t seed;
	int      bad;
} hyb_thread_arg_t;

static void* concurrent_main( void* p )
{
	hyb_thread_arg_t* t = p;
	hyb_t_rng_t       r = hyb_t_rng( t->seed );
	for ( int it = 0; it < 10; it++ )
	{
		hyb_pcase_t c;
		random_pcase( &c, &r, hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )], HYB_PREC_Z, 12,
		              4 );
		c.ndev = 1 + (int)hyb_t_int( &r, 0, 1 );
		run_pcase( &c, &r, 0 );
		t->bad += check_clean( &c );
	}
	return NULL;
}

/* Application threads calling at once share the devices' context pools. */
static void test_concurrent_calls( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 2, "64M", NULL ), HYB_OK );
	pthread_t        th[3];
	hyb_thread_arg_t args[3];
	for ( int i = 0; i < 3; i++ )
	{
		args[i] = ( hyb_thread_arg_t ){ 400 + (uint64_t)i, 0 };
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, concurrent_main, &args[i] ), 0 );
	}
	for ( int i = 0; i < 3; i++ )
	{
		pthread_join( th[i], NULL );
		CU_ASSERT_EQUAL( args[i].bad, 0 );
	}
	hyb_t_sim_end();
}

static hyb_status_t failing_cpu( void* user, const hyb_l3_args_t* sub )
{
	(void)user, (void)sub;
	return HYB_E_NO_SYMBOL;
}

/* When the CPU library itself cannot be called (the strip), the pipeline
   says so; the device tiles are still complete. */
static void test_cpu_library_failure( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_t_rng_t     r = hyb_t_rng( 308 );
	hyb_t_problem_t pr;
	hyb_t_problem_make( &pr, &r, HYB_OP_GEMM, HYB_PREC_D, 'C', 'L', 'U', 'N', 'N', 'N', 10, 12, 7,
	                    0, 2 );
	hyb_l3_args_t        strip = hyb_l3_gemm_sub( &pr.args, 0, 8, 10, 4 );
	hyb_l3_work_t        w;
	hyb_l3_exec_report_t rep;
	CU_ASSERT_EQUAL_FATAL( hyb_l3_work_build( &w, &pr.args, 10, 8, 4, 4, 4 ), HYB_OK );
	hyb_l3_exec_opts_t o = {
		.ndev = 1, .copy_threads = 1, .cpu = failing_cpu, .cpu_strip = &strip
	};
	CU_ASSERT_EQUAL( hyb_l3_pipeline_run( &w, &o, &rep ), HYB_E_NO_SYMBOL );
	CU_ASSERT_EQUAL( rep.error, HYB_OK );
	CU_ASSERT_EQUAL( rep.tasks_dev, w.ntasks );
	hyb_l3_work_free( &w );
	hyb_t_problem_free( &pr );
	hyb_t_sim_end();
}

static CU_TestInfo hyb_tests_pipeline[] = {
	{ "every_op", test_every_op },
	{ "nan_beta0", test_nan_beta0 },
	{ "herk_diag_imag_ignored", test_herk_diag_imag_ignored },
	{ "two_devices", test_two_devices },
	{ "cpu_strip", test_cpu_strip },
	{ "eviction", test_eviction },
	{ "registered", test_registered },
	{ "repeated_calls", test_repeated_calls },
	{ "concurrent_calls", test_concurrent_calls },
	{ "cpu_library_failure", test_cpu_library_failure },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_pipeline = { "pipeline", NULL, NULL, NULL, NULL, hyb_tests_pipeline };

/* ------------------------------------------------------------------ suite: pipeline_faults */

typedef struct
{
	const char* plan; /* HYBLAS_FAULT_INJECT */
	hyb_op_t    op;
	int         ndev;
	int         reg;      /* register operands */
	int         must_err; /* the fault is certain to fire and to be reported */
	uint64_t    seed;
} hyb_fault_case_t;

/* In the child: one call with the fault plan; the result must be complete,
   correct and confined to the output, and a fired fault must show in the
   report with CPU-finished tiles. */
static int fault_child( void* arg )
{
	hyb_fault_case_t* f = arg;
	char              extra[128];
	snprintf( extra, sizeof extra, "HYBLAS_FAULT_INJECT=%s", f->plan );
	if ( hyb_t_sim_begin( f->ndev, "64M", extra ) != HYB_OK ) return 2;
	hyb_t_rng_t r = hyb_t_rng( f->seed );
	hyb_pcase_t c;
	random_pcase( &c, &r, f->op, f->op == HYB_OP_GEMM ? HYB_PREC_D : HYB_PREC_Z, 4, 3 );
	/* Enough tiles and products for every fault position used. */
	c.m = c.n = 20, c.k = 18, c.pad = 3, c.beta_kind = 2 - (int)( f->seed % 2 ) * 2;
	c.Tm = c.Tn = 4, c.K = 5, c.layout = 'C';
	c.ndev = f->ndev, c.register_ops = f->reg, c.copy_threads = 2,
	c.strip = f->op == HYB_OP_GEMM ? 1 : 0;
	c.team_spin =
	    HYB_SPIN_ALWAYS; /* held where no strip runs beside: faults in a spinning team too */
	c.beta_host = (int)( f->seed / 2 % 2 ); /* with either beta kind */
	run_pcase( &c, &r, 0 );
	int bad = 0;
	if ( c.st != HYB_OK || !( c.err <= c.tol ) || c.outside != 0 ) bad = 3;
	if ( c.r.tasks_cpu + c.r.tasks_dev != c.ntasks ) bad = 4;
	/* One device: its failure leaves tiles to the CPU. Two: the other may
	   take every remaining tile (and a device that computed nothing may
	   fail unseen: nothing was lost). */
	if ( f->must_err && f->ndev == 1 && ( c.r.error == HYB_OK || c.r.tasks_cpu == 0 ) ) bad = 5;
	if ( !f->must_err && c.r.error == HYB_OK && c.r.tasks_cpu != 0 )
		bad = 6; /* CPU tiles need a reason */
	/* A device whose workspace cannot be allocated fails before it takes a tile:
	   the other takes its whole band from the back, and no tile is left to the CPU. */
	if ( f->ndev == 2 && strncmp( f->plan, "alloc:", 6 ) == 0 && c.r.tasks_cpu != 0 ) bad = 7;
	if ( bad ) describe( &c, f->plan );
	hyb_t_sim_end();
	return bad;
}

static void run_faults( const char* const* kinds, int nkinds, hyb_op_t op, int ndev, int reg,
                        int must_err, int maxpos )
{
	static const int pos[] = { 1, 2, 5, 17 };
	uint64_t         seed  = 500;
	hyb_t_sim_end(); /* no device threads in the parent when forking */
	for ( int k = 0; k < nkinds; k++ )
		for ( unsigned q = 0; q < sizeof pos / sizeof pos[0]; q++ )
			for ( int async = 0; async < 2; async++ )
			{
				/* Allocations happen once per context: only the first ones exist. */
				int once = strcmp( kinds[k], "alloc" ) == 0 || strcmp( kinds[k], "pinned" ) == 0 ||
				           strcmp( kinds[k], "register" ) == 0;
				if ( ( once && pos[q] > ndev ) || pos[q] > maxpos ) continue;
				char plan[64];
				snprintf( plan, sizeof plan, "%s:%d%s", kinds[k], pos[q], async ? "a" : "" );
				hyb_fault_case_t f = { plan, op, ndev, reg, must_err, seed++ };
				char             what[96];
				snprintf( what, sizeof what, "%s on %s, %d device(s)", plan, hyb_op_name( op ),
				          ndev );
				CU_ASSERT_EQUAL( hyb_t_isolated( what, fault_child, &f, 60 ), 0 );
			}
}

static void test_faults_gemm( void )
{
	static const char* const kinds[] = { "alloc", "pinned", "h2d", "d2h", "gemm", "sync", "any" };
	run_faults( kinds, 7, HYB_OP_GEMM, 1, 0, 1, 17 );
}

static void test_faults_two_devices( void )
{
	static const char* const kinds[] = { "alloc", "pinned", "h2d", "gemm", "sync", "any" };
	run_faults( kinds, 6, HYB_OP_GEMM, 2, 0, 1, 17 );
}

static void test_faults_trsm_trmm( void )
{
	static const char* const trsm[] = { "trsm", "h2d", "d2h" };
	static const char* const trmm[] = { "trmm", "sync" };
	run_faults( trsm, 3, HYB_OP_TRSM, 1, 0, 1, 5 );
	run_faults( trmm, 2, HYB_OP_TRMM, 1, 0, 1, 5 );
}

static void test_faults_rank_k( void )
{
	static const char* const kinds[] = { "gemm", "h2d", "any" };
	run_faults( kinds, 3, HYB_OP_HER2K, 1, 0, 1, 17 );
	run_faults( kinds, 3, HYB_OP_SYMM, 2, 0, 1, 17 );
}

/* A failed registration is not an error: the operands are staged. */
static void test_faults_register( void )
{
	static const char* const kinds[] = { "register" };
	run_faults( kinds, 1, HYB_OP_GEMM, 1, 1, 0, 17 );
}

static CU_TestInfo hyb_tests_pipeline_faults[] = {
	{ "faults_gemm", test_faults_gemm },
	{ "faults_two_devices", test_faults_two_devices },
	{ "faults_trsm_trmm", test_faults_trsm_trmm },
	{ "faults_rank_k", test_faults_rank_k },
	{ "faults_register", test_faults_register },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_pipeline_faults = { "pipeline_faults",        NULL, NULL, NULL, NULL,
	                                       hyb_tests_pipeline_faults };
