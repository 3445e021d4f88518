/* SPDX-License-Identifier: BSD-3-Clause */
/* An ordinary level-3 BLAS program (dgemm_, cblas_dgemm in both layouts,
   dgemm_64_ when the process has it, zgemm_, ssyrk_, dtrsm_) whose results
   are checked against triple loops; run with and without hyblas preloaded.
   Usage: app_dgemm [--shim yes|no] [--trace FILE --expect-path P] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"
#include "hyb_bb_trace.h"

static const double hyb_eps_d = 2.220446049250313e-16;
static const double hyb_eps_s = 1.1920928955078125e-07;

/* Calls made, by routine name, to compare with the trace. */
typedef struct
{
	const char* routine;
	int         calls;
} hyb_expect_t;

static hyb_expect_t hyb_made[8];
static int          hyb_nmade;

static void hyb_count_call( const char* routine )
{
	for ( int i = 0; i < hyb_nmade; i++ )
		if ( strcmp( hyb_made[i].routine, routine ) == 0 )
		{
			hyb_made[i].calls++;
			return;
		}
	hyb_made[hyb_nmade].routine = routine;
	hyb_made[hyb_nmade].calls   = 1;
	hyb_nmade++;
}

static void hyb_test_dgemm( hyb_bb_rng_t* r )
{
	int     m = 67, n = 45, k = 33, lda = 70, ldb = 50, ldc = 71;
	double  alpha = 0.7, beta = -1.3;
	double* a    = hyb_bb_alloc_d( r, lda, k ); /* op(A) = A: m x k */
	double* b    = hyb_bb_alloc_d( r, ldb, k ); /* op(B) = B^T: B is n x k */
	double* c    = hyb_bb_alloc_d( r, ldc, n );
	double* cref = malloc( sizeof *cref * (size_t)ldc * n );
	hyb_bb_ref_dgemm( 'N', 'T', m, n, k, alpha, a, lda, b, ldb, beta, c, cref, ldc );
	double denom =
	    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( m, k, a, lda ), hyb_bb_norm_d( n, k, b, ldb ),
	                       beta, hyb_bb_norm_d( m, n, c, ldc ) );
	dgemm_( "N", "T", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1 );
	hyb_count_call( "dgemm_" );
	hyb_bb_check( "dgemm_ NT 67x45x33", hyb_bb_diff_d( m, n, c, cref, ldc ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

static void hyb_test_cblas_dgemm( hyb_bb_rng_t* r )
{
	/* Column-major, A transposed. */
	{
		int     m = 50, n = 38, k = 61, lda = 64, ldb = 61, ldc = 52;
		double  alpha = -0.4, beta = 0.9;
		double* a    = hyb_bb_alloc_d( r, lda, m ); /* A is k x m */
		double* b    = hyb_bb_alloc_d( r, ldb, n );
		double* c    = hyb_bb_alloc_d( r, ldc, n );
		double* cref = malloc( sizeof *cref * (size_t)ldc * n );
		hyb_bb_ref_dgemm( 'T', 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, cref, ldc );
		double denom =
		    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( k, m, a, lda ),
		                       hyb_bb_norm_d( k, n, b, ldb ), beta, hyb_bb_norm_d( m, n, c, ldc ) );
		cblas_dgemm( HYB_BB_COL_MAJOR, HYB_BB_TRANS, HYB_BB_NO_TRANS, m, n, k, alpha, a, lda, b,
		             ldb, beta, c, ldc );
		hyb_count_call( "cblas_dgemm" );
		hyb_bb_check( "cblas_dgemm col-major TN 50x38x61", hyb_bb_diff_d( m, n, c, cref, ldc ),
		              denom, hyb_eps_d );
		free( a ), free( b ), free( c ), free( cref );
	}
	/* Row-major, A transposed: the column-major view is C^T = B^T op(A)^T. */
	{
		int     m = 41, n = 57, k = 29, lda = 45, ldb = 60, ldc = 59;
		double  alpha = 1.25, beta = 0.5;
		double* a = hyb_bb_alloc_d( r, lda, k ); /* row-major k x m: col-major m x k view, ld lda */
		double* b = hyb_bb_alloc_d( r, ldb, k ); /* row-major k x n: col-major n x k view */
		double* c = hyb_bb_alloc_d( r, ldc, m ); /* row-major m x n: col-major n x m view */
		double* cref = malloc( sizeof *cref * (size_t)ldc * m );
		/* C^T (n x m) = B^T (n x k, the raw B) * op(A)^T (k x m) where op(A) = A^T (m x k)
		   in row-major means op(A)^T = A, whose column-major view is the raw A transposed. */
		hyb_bb_ref_dgemm( 'N', 'T', n, m, k, alpha, b, ldb, a, lda, beta, c, cref, ldc );
		double denom =
		    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( m, k, a, lda ),
		                       hyb_bb_norm_d( n, k, b, ldb ), beta, hyb_bb_norm_d( n, m, c, ldc ) );
		cblas_dgemm( HYB_BB_ROW_MAJOR, HYB_BB_TRANS, HYB_BB_NO_TRANS, m, n, k, alpha, a, lda, b,
		             ldb, beta, c, ldc );
		hyb_count_call( "cblas_dgemm" );
		hyb_bb_check( "cblas_dgemm row-major TN 41x57x29", hyb_bb_diff_d( n, m, c, cref, ldc ),
		              denom, hyb_eps_d );
		free( a ), free( b ), free( c ), free( cref );
	}
}

/* The ILP64 name: only call it if some object in the process defines it. */
static void hyb_test_dgemm64( hyb_bb_rng_t* r, int shim )
{
	hyb_bb_dgemm64_fn f        = (hyb_bb_dgemm64_fn)dlsym( RTLD_DEFAULT, "dgemm_64_" );
	void*             blas     = dlopen( "libblas.so.3", RTLD_LAZY | RTLD_NOLOAD );
	int               real_has = blas && dlsym( blas, "dgemm_64_" ) != NULL;
	if ( blas ) dlclose( blas );
	printf( "info dgemm_64_: %s in the process, %s in the real library\n", f ? "present" : "absent",
	        real_has ? "present" : "absent" );
	if ( shim ) hyb_bb_expect( f != NULL, "libhyblas is preloaded but dgemm_64_ is not defined" );
	if ( f == NULL ) return;

	int64_t m = 33, n = 27, k = 40, lda = 40, ldb = 40, ldc = 35;
	double  alpha = 0.3, beta = 2.0;
	double* a    = hyb_bb_alloc_d( r, (int)lda, (int)m ); /* A is k x m, used transposed */
	double* b    = hyb_bb_alloc_d( r, (int)ldb, (int)n );
	double* c    = hyb_bb_alloc_d( r, (int)ldc, (int)n );
	double* cref = malloc( sizeof *cref * (size_t)ldc * (size_t)n );
	hyb_bb_ref_dgemm( 'T', 'N', (int)m, (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c,
	                  cref, (int)ldc );
	double denom =
	    hyb_bb_gemm_denom( (double)k, alpha, hyb_bb_norm_d( (int)k, (int)m, a, (int)lda ),
	                       hyb_bb_norm_d( (int)k, (int)n, b, (int)ldb ), beta,
	                       hyb_bb_norm_d( (int)m, (int)n, c, (int)ldc ) );
	f( "T", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1 );
	hyb_count_call( "dgemm_64_" );
	hyb_bb_check( real_has ? "dgemm_64_ TN (real ILP64)" : "dgemm_64_ TN (routed to LP64)",
	              hyb_bb_diff_d( (int)m, (int)n, c, cref, (int)ldc ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

static void hyb_test_zgemm( hyb_bb_rng_t* r )
{
	int         m = 37, n = 29, k = 41, lda = 44, ldb = 43, ldc = 40;
	hyb_bb_z_t  alpha = CMPLX( 0.5, -0.25 ), beta = CMPLX( 1.1, 0.3 );
	hyb_bb_z_t* a    = hyb_bb_alloc_z( r, lda, m ); /* k x m, used conjugate-transposed */
	hyb_bb_z_t* b    = hyb_bb_alloc_z( r, ldb, n );
	hyb_bb_z_t* c    = hyb_bb_alloc_z( r, ldc, n );
	hyb_bb_z_t* cref = malloc( sizeof *cref * (size_t)ldc * n );
	hyb_bb_ref_zgemm( 'C', 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, cref, ldc );
	double denom = hyb_bb_gemm_denom( k, cabs( alpha ), hyb_bb_norm_z( k, m, a, lda ),
	                                  hyb_bb_norm_z( k, n, b, ldb ), cabs( beta ),
	                                  hyb_bb_norm_z( m, n, c, ldc ) );
	zgemm_( "C", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1 );
	hyb_count_call( "zgemm_" );
	hyb_bb_check( "zgemm_ CN 37x29x41", hyb_bb_diff_z( m, n, c, cref, ldc ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

static void hyb_test_ssyrk( hyb_bb_rng_t* r )
{
	int     n = 53, k = 37, lda = 40, ldc = 55;
	float   alpha = 0.9f, beta = 0.4f;
	float*  a    = hyb_bb_alloc_s( r, lda, n ); /* k x n, used transposed */
	float*  c    = hyb_bb_alloc_s( r, ldc, n );
	double* cref = malloc( sizeof *cref * (size_t)ldc * n );
	hyb_bb_ref_ssyrk( 'L', 'T', n, k, alpha, a, lda, beta, c, cref, ldc );
	double denom =
	    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_s( k, n, a, lda ), hyb_bb_norm_s( k, n, a, lda ),
	                       beta, hyb_bb_norm_s( n, n, c, ldc ) );
	ssyrk_( "L", "T", &n, &k, &alpha, a, &lda, &beta, c, &ldc, 1, 1 );
	hyb_count_call( "ssyrk_" );
	hyb_bb_check( "ssyrk_ LT 53x37", hyb_bb_diff_sd( n, n, c, cref, ldc ), denom, hyb_eps_s );
	/* The strictly upper triangle is not part of the result: untouched. */
	int same = 1;
	for ( int j = 1; j < n; j++ )
		for ( int i = 0; i < j; i++ )
			same &= (double)c[i + (size_t)j * ldc] == cref[i + (size_t)j * ldc];
	hyb_bb_expect( same, "ssyrk_ modified the triangle it must not touch" );
	free( a ), free( c ), free( cref );
}

/* X = alpha op(T)^-1 B (or B op(T)^-1), checked by its residual. */
static void hyb_test_dtrsm_one( hyb_bb_rng_t* r, char side, char uplo, char trans, char diag, int m,
                                int n )
{
	int     dim = side == 'L' ? m : n, lda = dim + 3, ldb = m + 2;
	double  alpha = 1.5;
	double* a     = hyb_bb_alloc_d( r, lda, dim );
	for ( int i = 0; i < dim; i++ )
		a[i + (size_t)i * lda] +=
		    ( a[i + (size_t)i * lda] < 0 ? -1 : 1 ) * dim; /* well conditioned */
	double* b  = hyb_bb_alloc_d( r, ldb, n );
	double* b0 = malloc( sizeof *b0 * (size_t)ldb * n );
	memcpy( b0, b, sizeof *b0 * (size_t)ldb * n );
	dtrsm_( &side, &uplo, &trans, &diag, &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1 );
	hyb_count_call( "dtrsm_" );
	char what[64];
	snprintf( what, sizeof what, "dtrsm_ %c%c%c%c %dx%d residual", side, uplo, trans, diag, m, n );
	hyb_bb_check_dtrsm( what, side, uplo, trans, diag, m, n, alpha, a, lda, b, b0, ldb );
	free( a ), free( b ), free( b0 );
}

static int hyb_check_trace( const char* file, const char* path )
{
	static hyb_bb_trace_line_t t[256];
	int                        n = hyb_bb_trace_read( file, t, 256 );
	if ( !hyb_bb_expect( n >= 0, "cannot read the trace file %s", file ) ) return 0;
	hyb_bb_trace_print( t, n );
	int total = 0;
	for ( int i = 0; i < hyb_nmade; i++ )
	{
		int seen = hyb_bb_trace_count( t, n, hyb_made[i].routine, NULL );
		int on   = strcmp( path, "any" ) == 0 ? seen
		                                      : hyb_bb_trace_count( t, n, hyb_made[i].routine, path );
		hyb_bb_expect( seen == hyb_made[i].calls, "trace: %d calls of %s intercepted, %d made",
		               seen, hyb_made[i].routine, hyb_made[i].calls );
		hyb_bb_expect( on == seen, "trace: %d of %d %s calls took path=%s", on, seen,
		               hyb_made[i].routine, path );
		total += hyb_made[i].calls;
	}
	hyb_bb_trace_matches_counts( t, n ); /* the library's counts say the same */
	return hyb_bb_expect( n == total, "trace: %d lines for %d calls", n, total );
}

int main( int argc, char** argv )
{
	const char* trace = NULL;
	const char* path  = "any";
	int         shim  = -1; /* -1: do not check */
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--trace" ) == 0 && i + 1 < argc )
			trace = argv[++i];
		else if ( strcmp( argv[i], "--expect-path" ) == 0 && i + 1 < argc )
			path = argv[++i];
		else if ( strcmp( argv[i], "--shim" ) == 0 && i + 1 < argc )
			shim = strcmp( argv[++i], "yes" ) == 0;
		else
		{
			fprintf( stderr, "usage: %s [--shim yes|no] [--trace FILE] [--expect-path P]\n",
			         argv[0] );
			return 2;
		}
	}
	if ( shim >= 0 )
		hyb_bb_expect( ( dlsym( RTLD_DEFAULT, "hyb_version" ) != NULL ) == shim, "libhyblas is %s",
		               shim ? "not preloaded" : "loaded but should not be" );
	if ( trace ) hyb_bb_expect( hyb_bb_trace_reset( trace ) == 0, "cannot truncate %s", trace );

	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 20260101 );
	hyb_test_dgemm( &r );
	hyb_test_cblas_dgemm( &r );
	hyb_test_dgemm64( &r, shim == 1 );
	hyb_test_zgemm( &r );
	hyb_test_ssyrk( &r );
	hyb_test_dtrsm_one( &r, 'L', 'U', 'N', 'N', 48, 31 );
	hyb_test_dtrsm_one( &r, 'R', 'L', 'T', 'U', 26, 35 );

	if ( trace ) hyb_check_trace( trace, path );
	return hyb_bb_finish( "app_dgemm" );
}
