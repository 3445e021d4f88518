/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse matrix-vector benchmark of issue 4, one process on the GPU machine: for the
   ten seed-like matrices and the 27-point stencil, in double and single precision, the CPU
   alone, the device alone, the seed's hybrid (model K, and a sweep of K for the seed's
   Table 2), the row split, hyblas's own choice (auto), and cuSPARSE's CSR product on
   device-resident data as the reference; first calls and steady state (mean of N calls,
   new x each); every result checked against a serial reference. CSV on stdout.
     hyb_bench_spmv [--quick] [--calls N] [--sweep N] [--prec d|s|ds] [--only NAME]
                    [--rates-out FILE]
   --quick: matrices at 2 % (stencil 40^3), few calls: a functional run (simulated device).
   --mkl LIB: also Intel MKL's own mkl_cspblas_?csrgemv from LIB (libmkl_rt.so.2), called
   directly, first call and steady state (row "mkl"): hyblas's CPU kernel against MKL's. */
#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_dispatch.h"
#include "dispatch/hyb_spmv_device.h"
#include "dispatch/hyb_spmv_rates.h"
#include "hyb_routines.h"
#include "hyb_stats.h"
#include "kernels/cpu/hyb_spmv_cpu.h"
#include "kernels/hyb_device.h"
#include "tools/bench/hyb_bench_spmv_cusparse.h"
#include "tools/hyb_spmv_gen.h"

typedef struct
{
	const char* name;
	hyb_prec_t  prec;
	int64_t     m, nnz;
	int*        ia;
	int*        ja;
	void*       a;
	void*       x;  /* the call's x (changed between calls) */
	void*       x0; /* the first x */
	void*       y;
	double*     ref; /* reference of op(A) x for the current x */
	double      tol; /* L eps (|A||x|)_inf for the current x */
	double      flops;
} hb_mat_t;

static int hb_calls = 100, hb_sweep = 14, hb_quick = 0;
/* MKL's CSR products (--mkl), [0] double, [1] single; NULL without MKL. */
typedef void ( *hb_dcsr_fn )( const char*, const int*, const double*, const int*, const int*,
                              const double*, double* );
typedef void ( *hb_scsr_fn )( const char*, const int*, const float*, const int*, const int*,
                              const float*, float* );
static hb_dcsr_fn       hb_mkl_d;
static hb_scsr_fn       hb_mkl_s;
static hyb_config_t     hb_base;
static char             hb_device[128] = "";
static hyb_spmv_rates_t hb_rates;

static double hb_get( const hb_mat_t* M, const void* v, int64_t i )
{
	return M->prec == HYB_PREC_D ? ( (const double*)v )[i] : (double)( (const float*)v )[i];
}

/* x = x0 scaled by (1 + k/1000): a new x every call, one write pass as an application's. */
static void hb_set_x( hb_mat_t* M, int k )
{
	double f = 1.0 + 1e-3 * k;
#pragma omp parallel for schedule( static )
	for ( int64_t i = 0; i < M->m; i++ )
		if ( M->prec == HYB_PREC_D )
			( (double*)M->x )[i] = ( (const double*)M->x0 )[i] * f;
		else
			( (float*)M->x )[i] = (float)( (double)( (const float*)M->x0 )[i] * f );
}

/* Serial-per-row double reference of A x for the current x, and the error scale. */
static void hb_reference( hb_mat_t* M )
{
	double  amax = 0;
	int64_t L    = 1;
#pragma omp parallel for schedule( static ) reduction( max : amax, L )
	for ( int64_t i = 0; i < M->m; i++ )
	{
		double s = 0, a = 0;
		for ( int64_t k = M->ia[i]; k < M->ia[i + 1]; k++ )
		{
			double p = hb_get( M, M->a, k ) * hb_get( M, M->x, M->ja[k] );
			s += p;
			a += fabs( p );
		}
		M->ref[i] = s;
		amax      = a > amax ? a : amax;
		L         = M->ia[i + 1] - M->ia[i] > L ? M->ia[i + 1] - M->ia[i] : L;
	}
	M->tol =
	    (double)L * ( M->prec == HYB_PREC_D ? DBL_EPSILON : FLT_EPSILON ) * fmax( amax, 1e-300 );
}

/* Normalized error of y (<= 4 passes). */
static double hb_err( const hb_mat_t* M, const void* y )
{
	double e = 0;
#pragma omp parallel for schedule( static ) reduction( max : e )
	for ( int64_t i = 0; i < M->m; i++ )
	{
		double d = fabs( hb_get( M, y, i ) - M->ref[i] );
		if ( !( d == d ) ) d = INFINITY;
		e = d > e ? d : e;
	}
	return e / M->tol;
}

static void hb_mode( const char* mode )
{
	static hyb_config_t c;
	char                err[128];
	c = hb_base;
	hyb_config_set( &c, "HYBLAS_MODE", mode, HYB_SRC_TEST, err, sizeof err );
	hyb_config_finish( &c );
	hyb_config_install_for_test( &c );
}

/* One product through the dispatcher as mkl_cspblas_?csrgemv. Returns its wall time. */
static double hb_call( hb_mat_t* M )
{
	hyb_call_t      call = { .id = M->prec == HYB_PREC_D ? HYB_R_mkl_cspblas_dcsrgemv
		                                                 : HYB_R_mkl_cspblas_scsrgemv };
	hyb_spmv_args_t args = {
		.op     = HYB_OP_CSRMV,
		.prec   = M->prec,
		.transa = 'N',
		.base   = 0,
		.m      = M->m,
		.val    = M->a,
		.rowind = M->ia,
		.colind = M->ja,
		.x      = M->x,
		.y      = M->y,
	};
	double t0 = hyb_now();
	hyb_dispatch_spmv( &call, &args );
	return hyb_now() - t0;
}

/* One product on MKL's own routine, called directly; seconds. */
static double hb_call_mkl( hb_mat_t* M )
{
	char   t  = 'N';
	int    m  = (int)M->m;
	double t0 = hyb_now();
	if ( M->prec == HYB_PREC_D )
		hb_mkl_d( &t, &m, M->a, M->ia, M->ja, M->x, M->y );
	else
		hb_mkl_s( &t, &m, M->a, M->ia, M->ja, M->x, M->y );
	return hyb_now() - t0;
}

static int hb_ok = 1;

/* Print one result row; checks the error. */
static void hb_row( const hb_mat_t* M, const char* variant, int64_t K, double first, double steady,
                    double err, const hyb_spmv_report_t* r, const char* extra )
{
	int ok = err <= 4.0;
	if ( !ok ) hb_ok = 0;
	printf( "%s,%c,%lld,%lld,%s,%lld,%.6e,%.6e,%.3f,%.3g,%d,%s,%s,%s,%.3e,%s\n", M->name,
	        hyb_prec_char( M->prec ), (long long)M->m, (long long)M->nnz, variant, (long long)K,
	        first, steady, steady > 0 ? M->flops / steady * 1e-9 : 0.0, err, ok,
	        r ? hyb_path_name( r->path ) : "-", r ? hyb_spmv_run_name( r->run ) : "-",
	        r ? hyb_spmv_fmt_name( r->fmt ) : "-", r ? r->t_pred : 0.0, extra ? extra : "" );
	fflush( stdout );
}

/* A forced (or automatic when f == NULL) variant: first call, then `n` steady calls with a
   new x each, the last one checked. Fills *rep with the steady report. */
static void hb_variant( hb_mat_t* M, const char* variant, const hyb_spmv_force_t* f, int n,
                        double* first, double* steady, double* err, hyb_spmv_report_t* rep_first,
                        hyb_spmv_report_t* rep )
{
	hyb_spmv_device_force( f );
	hb_set_x( M, 0 );
	*first     = hb_call( M );
	*rep_first = *hyb_spmv_last_report();
	hb_reference( M );
	double e     = hb_err( M, M->y );
	double total = 0;
	for ( int k = 1; k <= n; k++ )
	{
		hb_set_x( M, k );
		total += hb_call( M );
	}
	*rep = *hyb_spmv_last_report();
	if ( n > 0 )
	{
		hb_reference( M );
		e = fmax( e, hb_err( M, M->y ) );
	}
	*steady = n > 0 ? total / n : *first;
	*err    = e;
	hyb_spmv_device_force( NULL );
	(void)variant;
}

static uint64_t hb_salt = 1;

static hyb_spmv_force_t hb_force( unsigned runs, int resident )
{
	hyb_spmv_force_t f = { 0 };
	f.active           = 1;
	f.opts.allow_runs  = runs;
	f.resident         = resident;
	f.yreg             = -1;
	f.xreg             = -1;
	f.salt             = hb_salt++;
	return f;
}

static void hb_bench_matrix( hb_mat_t* M, int is_seed )
{
	hyb_spmv_report_t r1, r;
	double            first, steady, err;
	char              extra[256];

	/* CPU alone: the dispatcher in mode cpu (hyblas's OpenMP kernel, as without a device) */
	hb_mode( "cpu" );
	hb_variant( M, "cpu", NULL, hb_calls, &first, &steady, &err, &r1, &r );
	double t_cpu = steady;
	hb_row( M, "cpu", 0, first, steady, err, &r, NULL );

	/* MKL's own routine, the same calls (the real library of a program that brought MKL) */
	if ( hb_mkl_d && hb_mkl_s )
	{
		hb_set_x( M, 0 );
		double f1 = hb_call_mkl( M ), total = 0;
		hb_reference( M );
		double e = hb_err( M, M->y );
		for ( int k = 1; k <= hb_calls; k++ )
		{
			hb_set_x( M, k );
			total += hb_call_mkl( M );
		}
		hb_reference( M );
		e = fmax( e, hb_err( M, M->y ) );
		hb_row( M, "mkl", 0, f1, hb_calls > 0 ? total / hb_calls : f1, e, NULL,
		        "MKL's own routine" );
	}

	hb_mode( "gpu" );
	/* the device alone (its best format), kept resident */
	hyb_spmv_force_t f = hb_force( 1u << HYB_SPMV_RUN_GPU, 1 );
	f.yreg             = -1;
	hb_variant( M, "gpu", &f, hb_calls, &first, &steady, &err, &r1, &r );
	double t_gpu = steady;
	snprintf( extra, sizeof extra, "y=%s blocks=%d", r.pipe.y_registered ? "registered" : "staged",
	          r.pipe.nblk );
	hb_row( M, "gpu", r.K, first, steady, err, &r, extra );

	/* the seed's hybrid at the model's K */
	f = hb_force( 1u << HYB_SPMV_RUN_HYBRID, 1 );
	hb_variant( M, "hybrid", &f, hb_calls, &first, &steady, &err, &r1, &r );
	int64_t           K_model = r.K, K_alg3 = r.K_alg3;
	hyb_spmv_devfmt_t hfmt  = r.fmt;
	double            t_hyb = steady;
	snprintf( extra, sizeof extra, "K_alg3=%lld", (long long)K_alg3 );
	hb_row( M, "hybrid", K_model, first, steady, err, &r, extra );

	/* Table 2: hybrid steady state over a range of K */
	if ( hb_sweep > 0 && K_model > 0 && hfmt != HYB_SPMV_DEV_NONE )
	{
		/* DIA: diagonals beyond twice the model's K are not tried (each one more slot per row) */
		int64_t Kmax = hfmt == HYB_SPMV_DEV_DIA ? 2 * r.K + 8 : 0;
		int64_t cand[64];
		int     nc = 0;
		/* a geometric ladder, plus the model's and Algorithm 3's K and their neighbours */
		for ( double k = 1; nc < hb_sweep; k *= 1.6 ) cand[nc++] = (int64_t)k;
		int64_t around[6] = { K_model, K_model - 1, K_model + 1, K_alg3, K_alg3 - 2, K_alg3 + 2 };
		for ( int i = 0; i < 6; i++ ) cand[nc++] = around[i];
		double  best_t = INFINITY;
		int64_t best_k = -1;
		for ( int i = 0; i < nc; i++ )
		{
			int64_t K = cand[i], dup = 0;
			for ( int j = 0; j < i; j++ ) dup |= cand[j] == K;
			if ( K < 1 || dup || ( Kmax > 0 && K > Kmax ) ) continue;
			f            = hb_force( 1u << HYB_SPMV_RUN_HYBRID, 1 );
			f.opts.force = 1;
			f.opts.run   = HYB_SPMV_RUN_HYBRID;
			f.opts.fmt   = hfmt;
			f.opts.K     = K;
			int n        = hb_calls / 5 > 5 ? hb_calls / 5 : 5;
			hb_variant( M, "ksweep", &f, n, &first, &steady, &err, &r1, &r );
			if ( r.K != K ) continue; /* clamped to the largest possible K: already tested */
			hb_row( M, "ksweep", K, first, steady, err, &r, NULL );
			if ( steady < best_t )
			{
				best_t = steady;
				best_k = K;
			}
		}
		double rd = best_k > 0 && K_alg3 > 0
		                ? fabs( (double)( best_k - K_alg3 ) ) / (double)K_alg3 * 100
		                : -1;
		printf( "table2,%s,%c,%s,%lld,%lld,%lld,%.1f,%.6e\n", M->name, hyb_prec_char( M->prec ),
		        hyb_spmv_fmt_name( hfmt ), (long long)K_alg3, (long long)K_model, (long long)best_k,
		        rd, best_t );
	}

	/* row split, first call (not kept: as a first sighting would run it) */
	f            = hb_force( 1u << HYB_SPMV_RUN_ROWSPLIT, 0 );
	f.opts.force = 1;
	f.opts.run   = HYB_SPMV_RUN_ROWSPLIT;
	hb_variant( M, "rowsplit_first", &f, 0, &first, &steady, &err, &r1, &r );
	snprintf( extra, sizeof extra, "share=%.3f", r1.share );
	hb_row( M, "rowsplit_first", 0, first, first, err, &r1, extra );

	/* hyblas's own choice (auto, default settings): first sighting, second call (it becomes
	   resident if the model says so), steady state. The two calls back to back, as a
	   program makes them: a check between them (a serial pass over the matrix) would give a
	   background build time the program does not give it. The second call's y is checked. */
	hb_mode( "auto" );
	hb_set_x( M, 0 );
	double            t1 = hb_call( M );
	hyb_spmv_report_t a1 = *hyb_spmv_last_report();
	double            t2 = hb_call( M );
	hyb_spmv_report_t a2 = *hyb_spmv_last_report();
	hb_reference( M );
	double e1 = hb_err( M, M->y );
	snprintf( extra, sizeof extra, "path=%s why=%s", hyb_path_name( a1.path ),
	          a1.why ? a1.why : "" );
	hb_row( M, "auto_first", 0, t1, t1, e1, &a1, extra );
	snprintf( extra, sizeof extra, "path=%s cache=%d why=%s", hyb_path_name( a2.path ), a2.cache,
	          a2.why ? a2.why : "" );
	hb_row( M, "auto_second", 0, t2, t2, e1, &a2, extra );
	hb_variant( M, "auto", NULL, hb_calls, &first, &steady, &err, &r1, &r );
	snprintf( extra, sizeof extra, "cache=%d y=%s", r.cache,
	          r.pipe.y_registered ? "registered" : "staged" );
	hb_row( M, "auto", r.K, first, steady, err, &r, extra );

	/* auto against the two single paths, call by call in turn with the same x: one machine
	   and cache state for all three, so their difference is the choice, not the drift
	   between variants measured a second apart (auto continues from its state above) */
	{
		hyb_spmv_force_t fg    = hb_force( 1u << HYB_SPMV_RUN_GPU, 1 );
		double           s3[3] = { 0, 0, 0 };
		hb_mode( "gpu" );
		hyb_spmv_device_force( &fg );
		hb_set_x( M, 0 );
		hb_call( M ); /* untimed: makes the forced device copy resident */
		hyb_spmv_device_force( NULL );
		/* The rounds take the six orders in turn, each starting with the path the one before
		   ended with, so that over six rounds every path follows every path (itself
		   included) exactly twice: a call's time depends on the one before it (a device
		   call right after a CPU product copies y into lines the CPU's team left in other
		   cores' caches, about 50 us more on a 0.2 ms call; a CPU product after a device
		   call wakes its team). The orders 012, 021, 102, 120, 201, 210 taken in turn put a
		   CPU product before auto in half the rounds and before GPU only in a third: a
		   measured 4-6 % against auto on the small matrices. Whole cycles of six rounds. */
		static const char* const modes[3]    = { "cpu", "gpu", "auto" };
		static const int         order[6][3] = { { 0, 1, 2 }, { 2, 0, 1 }, { 1, 0, 2 },
			                                     { 2, 1, 0 }, { 0, 2, 1 }, { 1, 2, 0 } };
		int                      rounds      = ( hb_calls + 5 ) / 6 * 6;
		for ( int k = 0; k < rounds; k++ )
		{
			hb_set_x( M, k + 1 );
			for ( int j = 0; j < 3; j++ )
			{
				int i = order[k % 6][j];
				hb_mode( modes[i] );
				hyb_spmv_device_force( i == 1 ? &fg : NULL );
				s3[i] += hb_call( M );
			}
			hyb_spmv_device_force( NULL );
		}
		/* one more auto call: its y is the one checked */
		hb_mode( "auto" );
		hb_call( M );
		const hyb_spmv_report_t* ra = hyb_spmv_last_report();
		hb_reference( M );
		double                   ea    = hb_err( M, M->y );
		static const char* const pn[3] = { "pair_cpu", "pair_gpu", "pair_auto" };
		for ( int i = 0; i < 3; i++ )
			hb_row(
			    M, pn[i], 0, s3[i] / rounds, s3[i] / rounds, i == 2 ? ea : 0.0, i == 2 ? ra : NULL,
			    i == 2 ? ( ra->why ? ra->why : "" ) : "interleaved; checked in its own variant" );
	}

	/* cuSPARSE CSR with everything on the device (the kernel alone) */
	hb_set_x( M, 0 );
	hb_reference( M );
	double tc = hyb_bench_cusparse_csr( M->prec == HYB_PREC_D, M->m, M->ia, M->ja, M->a, M->x, M->y,
	                                    hb_calls, hb_device[0] ? NULL : hb_device );
	if ( tc > 0 )
		hb_row( M, "cusparse_resident", 0, tc, tc, hb_err( M, M->y ), NULL, "x,y,A on the device" );
	printf( "ratio,%s,%c,cpu/gpu=%.2f,cpu/hybrid=%.2f,gpu/hybrid=%.3f\n", M->name,
	        hyb_prec_char( M->prec ), t_cpu / t_gpu, t_cpu / t_hyb, t_gpu / t_hyb );
	(void)is_seed;
}

static int hb_make( hyb_gen_id_t id, double scale, hyb_prec_t prec, hb_mat_t* M )
{
	int64_t rows, nnz, maxl;
	memset( M, 0, sizeof *M );
	if ( hyb_spmv_gen_size( id, scale, &rows, &nnz, &maxl ) != HYB_OK ) return -1;
	size_t vb = hyb_prec_size( prec );
	M->name   = hyb_spmv_gen_info( id )->name;
	M->prec   = prec;
	M->m      = rows;
	M->nnz    = nnz;
	M->ia     = malloc( (size_t)( rows + 1 ) * sizeof( int ) );
	M->ja     = malloc( (size_t)nnz * sizeof( int ) );
	M->a      = malloc( (size_t)nnz * vb );
	M->x      = malloc( (size_t)rows * vb );
	M->x0     = malloc( (size_t)rows * vb );
	M->y      = malloc( (size_t)rows * vb );
	M->ref    = malloc( (size_t)rows * sizeof( double ) );
	if ( !M->ia || !M->ja || !M->a || !M->x || !M->x0 || !M->y || !M->ref ) return -1;
	if ( hyb_spmv_gen_csr( id, scale, 1234, 0, prec, M->ia, M->ja, M->a, 0 ) != HYB_OK ) return -1;
	uint64_t s = 99;
	for ( int64_t i = 0; i < rows; i++ )
	{
		s         = s * 6364136223846793005ull + 1442695040888963407ull;
		double xv = (double)( s >> 11 ) * ( 2.0 / 9007199254740992.0 ) - 1.0;
		if ( prec == HYB_PREC_D )
			( (double*)M->x0 )[i] = xv;
		else
			( (float*)M->x0 )[i] = (float)xv;
	}
	M->flops = 2.0 * (double)nnz;
	return 0;
}

static void hb_free( hb_mat_t* M )
{
	free( M->ia );
	free( M->ja );
	free( M->a );
	free( M->x );
	free( M->x0 );
	free( M->y );
	free( M->ref );
}

/* Bytes a double CSR product moves in the model's traffic (values and columns per entry,
   row pointer, x and y per row): what cpu_csr_bw is measured in. */
static double hb_csr_bytes( int64_t nnz, int64_t m )
{
	return (double)nnz * 12.0 + (double)m * 20.0;
}

static int hb_cmpd( const void* a, const void* b )
{
	double x = *(const double*)a, y = *(const double*)b;
	return ( x > y ) - ( x < y );
}

/* The fixed cost of one CPU product (starting its parallel region; under
   OMP_WAIT_POLICY=PASSIVE, waking every thread, which the back-to-back calls of the
   bandwidth measurement do not see): the first rows of M, enough entries for the whole
   team, each call timed alone; the median less the time its bytes take at the full rate. */
static double hb_call_cost( const hb_mat_t* M, double csr_bw )
{
	int64_t want = (int64_t)omp_get_max_threads() * 40000, rows = 0;
	while ( rows < M->m && M->ia[rows] < want ) rows++;
	double t[31];
	for ( int k = 0; k < 31; k++ )
	{
		double t0 = hyb_now();
		hyb_dcsrmv_cpu_omp( 'N', rows, M->a, M->ia, M->ja, 0, M->x, M->y, 0 );
		t[k] = hyb_now() - t0;
		usleep( 200 ); /* let the team go back to waiting, as between an application's calls */
	}
	qsort( t, 31, sizeof t[0], hb_cmpd );
	double c = t[15] - hb_csr_bytes( M->ia[rows], rows ) / csr_bw;
	return c > 1e-6 ? c : 1e-6;
}

/* Calibrate the CPU rates of the model on this machine (the CSR kernel on all cores and
   the COO remainder kernel on all but one), from the stencil. */
static void hb_calibrate( const char* out )
{
	hb_mat_t M;
	double   scale = hb_quick ? 0.008 : 0.125; /* 100^3 = 1 M rows */
	if ( hb_make( HYB_GEN_STENCIL27, scale, HYB_PREC_D, &M ) != 0 ) return;
	hb_set_x( &M, 0 );
	double* y = M.y;
	hyb_dcsrmv_cpu_omp( 'N', M.m, M.a, M.ia, M.ja, 0, M.x, y, 0 );
	double t0 = hyb_now();
	int    n  = hb_quick ? 3 : 20;
	for ( int k = 0; k < n; k++ ) hyb_dcsrmv_cpu_omp( 'N', M.m, M.a, M.ia, M.ja, 0, M.x, y, 0 );
	double tcsr   = ( hyb_now() - t0 ) / n;
	double csr_bw = hb_csr_bytes( M.nnz, M.m ) / tcsr;
	double call   = hb_call_cost( &M, csr_bw );
	int*   row    = malloc( (size_t)M.nnz * sizeof( int ) );
	for ( int64_t i = 0; i < M.m; i++ )
		for ( int64_t k = M.ia[i]; k < M.ia[i + 1]; k++ ) row[k] = (int)i;
	int nc = omp_get_max_threads() > 1 ? omp_get_max_threads() - 1 : 1;
	hyb_dcooaddmv_cpu_omp( M.m, M.nnz, row, M.ja, M.a, M.x, y, nc );
	t0 = hyb_now();
	for ( int k = 0; k < n; k++ ) hyb_dcooaddmv_cpu_omp( M.m, M.nnz, row, M.ja, M.a, M.x, y, nc );
	double tcoo = ( hyb_now() - t0 ) / n;
	free( row );
	hyb_spmv_rates_t r;
	hyb_spmv_rates_set_base( NULL ); /* defaults, profile and file, without earlier changes */
	hyb_spmv_rates_base( &r );
	r.cpu_csr_bw = csr_bw;
	r.cpu_coo_bw = (double)M.nnz * 16.0 / tcoo;
	r.cpu_call_s = call;
	hyb_spmv_rates_set_base( &r );
	hb_rates = r;
	printf( "# calibrated: cpu_csr_bw=%.3g B/s (%.3f ms for %lld entries), cpu_coo_bw=%.3g B/s on "
	        "%d threads, cpu_call_s=%.3g s\n",
	        r.cpu_csr_bw, tcsr * 1e3, (long long)M.nnz, r.cpu_coo_bw, nc, r.cpu_call_s );
	if ( out ) hyb_spmv_rates_write( out, &r, "hyb_bench_spmv calibration" );
	hb_free( &M );
}

int main( int argc, char** argv )
{
	const char* only  = NULL;
	const char* precs = "ds";
	const char* rout  = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !strcmp( argv[i], "--quick" ) )
			hb_quick = 1;
		else if ( !strcmp( argv[i], "--calls" ) && i + 1 < argc )
			hb_calls = atoi( argv[++i] );
		else if ( !strcmp( argv[i], "--sweep" ) && i + 1 < argc )
			hb_sweep = atoi( argv[++i] );
		else if ( !strcmp( argv[i], "--prec" ) && i + 1 < argc )
			precs = argv[++i];
		else if ( !strcmp( argv[i], "--only" ) && i + 1 < argc )
			only = argv[++i];
		else if ( !strcmp( argv[i], "--rates-out" ) && i + 1 < argc )
			rout = argv[++i];
		else if ( !strcmp( argv[i], "--mkl" ) && i + 1 < argc )
		{
			/* RTLD_LOCAL: only these two names are taken from it */
			void* h = dlopen( argv[++i], RTLD_NOW | RTLD_LOCAL );
			if ( h == NULL )
			{
				fprintf( stderr, "hyb_bench_spmv: %s\n", dlerror() );
				return 2;
			}
			hb_mkl_d = (hb_dcsr_fn)dlsym( h, "mkl_cspblas_dcsrgemv" );
			hb_mkl_s = (hb_scsr_fn)dlsym( h, "mkl_cspblas_scsrgemv" );
			if ( !hb_mkl_d || !hb_mkl_s )
				fprintf( stderr, "hyb_bench_spmv: %s has no mkl_cspblas_?csrgemv: no mkl rows\n",
				         argv[i] );
		}
		else
		{
			fprintf( stderr,
			         "usage: %s [--quick] [--calls N] [--sweep N] [--prec d|s|ds] [--only NAME] "
			         "[--rates-out F] [--mkl LIBMKL_RT]\n",
			         argv[0] );
			return 2;
		}
	}
	if ( hb_quick && hb_calls == 100 ) hb_calls = 4;
	if ( hb_quick && hb_sweep == 14 ) hb_sweep = 4;
	hb_base = *hyb_config();
	/* HYBLAS_TRACE: every call's path, prediction and stage times, as under the shim */
	hyb_stats_init_routines( hb_base.trace, 0 );
	if ( hyb_devices_ensure() != HYB_OK )
	{
		fprintf( stderr, "hyb_bench_spmv: no device (HYBLAS_DEVICE=%s)\n",
		         hb_base.device == HYB_DEVICE_SIM ? "sim" : "cuda" );
		return 77;
	}
	const hyb_device_info_t* di = hyb_devices_info( 0 );
	printf( "# hyb_bench_spmv: device %s (%s), %d threads, calls %d, residency %d\n",
	        di ? di->name : "?", hyb_devices_name(), omp_get_max_threads(), hb_calls,
	        (int)hb_base.residency );
	hb_calibrate( rout );
	printf( "matrix,prec,rows,nnz,variant,K,first_s,steady_s,gflops,err,ok,path,run,fmt,pred_s,"
	        "extra\n" );
	for ( const char* p = precs; *p; p++ )
	{
		hyb_prec_t prec = *p == 's' ? HYB_PREC_S : HYB_PREC_D;
		for ( int id = 0; id < HYB_GEN_COUNT; id++ )
		{
			const hyb_gen_info_t* info = hyb_spmv_gen_info( (hyb_gen_id_t)id );
			if ( only && strcmp( only, info->name ) ) continue;
			double   scale = hb_quick ? ( id == HYB_GEN_STENCIL27 ? 0.008 : 0.02 ) : 1.0;
			hb_mat_t M;
			if ( hb_make( (hyb_gen_id_t)id, scale, prec, &M ) != 0 )
			{
				fprintf( stderr, "hyb_bench_spmv: cannot make %s\n", info->name );
				hb_ok = 0;
				continue;
			}
			hb_bench_matrix( &M, id < HYB_GEN_SEED_COUNT );
			hyb_spmv_device_reset_for_test();     /* free the resident copies between matrices */
			hyb_spmv_rates_set_base( &hb_rates ); /* the reset forgot the calibration */
			hb_free( &M );
		}
	}
	/* on a small matrix the policy keeps the CPU (auto, default settings) */
	{
		hb_mat_t M;
		if ( hb_make( HYB_GEN_RAEFSKY5, 0.2, HYB_PREC_D, &M ) == 0 )
		{
			hb_mode( "auto" );
			hb_set_x( &M, 0 );
			double t = hb_call( &M );
			hb_reference( &M );
			const hyb_spmv_report_t* r = hyb_spmv_last_report();
			char                     extra[160];
			snprintf( extra, sizeof extra, "why=%s", r->why ? r->why : "" );
			hb_row( &M, "small_auto", 0, t, t, hb_err( &M, M.y ), r, extra );
			printf( "small,%s,%lld,%s\n", M.name, (long long)M.nnz, hyb_path_name( r->path ) );
			hb_free( &M );
		}
	}
	printf( "# device: %s\n", hb_device[0] ? hb_device : ( di ? di->name : "?" ) );
	printf( "# result: %s\n", hb_ok ? "all products correct" : "SOME PRODUCTS WRONG" );
	return hb_ok ? 0 : 1;
}
