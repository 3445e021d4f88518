/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference semantics at the edges: beta = 0 never reads C (NaN in C does not
   propagate), and the quick returns (alpha = 0, m = 0, n = 0, k = 0) leave
   exactly what the real library leaves, bit for bit.
   Usage: app_quick [--trace FILE --expect-path P]  (P: the path of the
   non-trivial calls; trivial calls must be traced path=cpu) */
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

typedef void ( *hyb_dsyrk_fn )( const char*, const char*, const int*, const int*, const double*,
                                const double*, const int*, const double*, double*, const int*,
                                hyb_bb_flen_t, hyb_bb_flen_t );
typedef void ( *hyb_dtrsm_fn )( const char*, const char*, const char*, const char*, const int*,
                                const int*, const double*, const double*, const int*, double*,
                                const int*, hyb_bb_flen_t, hyb_bb_flen_t, hyb_bb_flen_t,
                                hyb_bb_flen_t );

/* The real library's own entry points, bypassing any preloaded library: a
   handle's lookup scope is the object and its dependencies only. */
static hyb_bb_dgemm_fn hyb_real_dgemm;
static hyb_dsyrk_fn    hyb_real_dsyrk;
static hyb_dtrsm_fn    hyb_real_dtrsm;

static int hyb_nontrivial, hyb_trivial;

static void hyb_fill_nan( double* x, size_t n )
{
	for ( size_t i = 0; i < n; i++ ) x[i] = ( i % 3 == 2 ) ? INFINITY : NAN;
}

/* beta = 0 with NaN/Inf everywhere in C: the result is alpha op(A) op(B). */
static void hyb_beta0_gemm( hyb_bb_rng_t* r, int use_cblas )
{
	int     m = 40, n = 30, k = 20, ld = 43;
	double  alpha = 1.5, beta = 0.0;
	double* a    = hyb_bb_alloc_d( r, ld, k );
	double* b    = hyb_bb_alloc_d( r, ld, n );
	double* c    = malloc( sizeof *c * (size_t)ld * n );
	double* cref = malloc( sizeof *c * (size_t)ld * n );
	hyb_fill_nan( c, (size_t)ld * n );
	hyb_bb_ref_dgemm( 'N', 'N', m, n, k, alpha, a, ld, b, ld, beta, c, cref, ld );
	if ( use_cblas )
		cblas_dgemm( HYB_BB_COL_MAJOR, HYB_BB_NO_TRANS, HYB_BB_NO_TRANS, m, n, k, alpha, a, ld, b,
		             ld, beta, c, ld );
	else
		dgemm_( "N", "N", &m, &n, &k, &alpha, a, &ld, b, &ld, &beta, c, &ld, 1, 1 );
	hyb_nontrivial++;
	double denom = hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( m, k, a, ld ),
	                                  hyb_bb_norm_d( k, n, b, ld ), 0, 0 );
	hyb_bb_check( use_cblas ? "cblas_dgemm beta=0, NaN/Inf in C" : "dgemm_ beta=0, NaN/Inf in C",
	              hyb_bb_diff_d( m, n, c, cref, ld ), denom, hyb_eps_d );
	/* Rows m..ld-1 are not part of C: still NaN/Inf. */
	int pad_kept = 1;
	for ( int j = 0; j < n; j++ )
		for ( int i = m; i < ld; i++ ) pad_kept &= !isfinite( c[i + (size_t)j * ld] );
	hyb_bb_expect( pad_kept, "dgemm_ wrote outside the m x n region of C" );
	free( a ), free( b ), free( c ), free( cref );
}

static void hyb_beta0_zgemm( hyb_bb_rng_t* r )
{
	int         m = 21, n = 33, k = 17, ld = 34;
	hyb_bb_z_t  alpha = CMPLX( -0.5, 2.0 ), beta = 0;
	hyb_bb_z_t* a    = hyb_bb_alloc_z( r, ld, k );
	hyb_bb_z_t* b    = hyb_bb_alloc_z( r, ld, k ); /* n x k, used transposed */
	hyb_bb_z_t* c    = malloc( sizeof *c * (size_t)ld * n );
	hyb_bb_z_t* cref = malloc( sizeof *c * (size_t)ld * n );
	for ( size_t i = 0; i < (size_t)ld * n; i++ ) c[i] = CMPLX( NAN, INFINITY );
	hyb_bb_ref_zgemm( 'N', 'T', m, n, k, alpha, a, ld, b, ld, beta, c, cref, ld );
	zgemm_( "N", "T", &m, &n, &k, &alpha, a, &ld, b, &ld, &beta, c, &ld, 1, 1 );
	hyb_nontrivial++;
	double denom = hyb_bb_gemm_denom( k, cabs( alpha ), hyb_bb_norm_z( m, k, a, ld ),
	                                  hyb_bb_norm_z( n, k, b, ld ), 0, 0 );
	hyb_bb_check( "zgemm_ beta=0, NaN in C", hyb_bb_diff_z( m, n, c, cref, ld ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

static void hyb_beta0_dsyrk( hyb_bb_rng_t* r )
{
	int     n = 37, k = 25, ld = 40;
	double  alpha = 0.75, beta = 0.0;
	double* a    = hyb_bb_alloc_d( r, ld, k );
	double* c    = malloc( sizeof *c * (size_t)ld * n );
	double* cref = malloc( sizeof *c * (size_t)ld * n );
	hyb_fill_nan( c, (size_t)ld * n );
	/* cref: the upper triangle of alpha A A^T; NaN below as in c. */
	hyb_bb_ref_dgemm( 'N', 'T', n, n, k, alpha, a, ld, a, ld, 0.0, c, cref, ld );
	dsyrk_( "U", "N", &n, &k, &alpha, a, &ld, &beta, c, &ld, 1, 1 );
	hyb_nontrivial++;
	double diff      = 0;
	int    lower_nan = 1;
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < n; i++ )
		{
			size_t ij = i + (size_t)j * ld;
			if ( i <= j )
				diff += ( c[ij] - cref[ij] ) * ( c[ij] - cref[ij] );
			else
				lower_nan = lower_nan && !isfinite( c[ij] );
		}
	double denom = hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( n, k, a, ld ),
	                                  hyb_bb_norm_d( n, k, a, ld ), 0, 0 );
	hyb_bb_check( "dsyrk_ beta=0, NaN in C (upper)", sqrt( diff ), denom, hyb_eps_d );
	hyb_bb_expect( lower_nan, "dsyrk_ touched the lower triangle" );
	free( a ), free( c ), free( cref );
}

/* One quick-return case: the same call through the process's dgemm_ and
   through the real library's, on identical inputs: identical bits. */
static void hyb_quick_gemm( hyb_bb_rng_t* r, const char* what, int m, int n, int k, double alpha,
                            double beta, int nan_in_a, int nan_in_c )
{
	int     ld = 12, cols = 12;
	double* a  = hyb_bb_alloc_d( r, ld, cols );
	double* b  = hyb_bb_alloc_d( r, ld, cols );
	double* c1 = hyb_bb_alloc_d( r, ld, cols );
	double* c2 = malloc( sizeof *c2 * (size_t)ld * cols );
	if ( nan_in_a ) a[0] = a[ld + 1] = NAN;
	if ( nan_in_c ) c1[0] = c1[ld + 1] = NAN;
	memcpy( c2, c1, sizeof *c2 * (size_t)ld * cols );
	int lda = ld, ldb = ld, ldc = ld;
	dgemm_( "N", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c1, &ldc, 1, 1 );
	hyb_real_dgemm( "N", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c2, &ldc, 1, 1 );
	hyb_trivial++;
	int same = memcmp( c1, c2, sizeof *c1 * (size_t)ld * cols ) == 0;
	printf( "%s dgemm_ quick return: %s\n", same ? "ok  " : "FAIL", what );
	hyb_bb_expect( same, "dgemm_ %s differs from the real library", what );
	free( a ), free( b ), free( c1 ), free( c2 );
}

static void hyb_quick_dsyrk( hyb_bb_rng_t* r, const char* what, int n, int k, double alpha,
                             double beta )
{
	int     ld = 10;
	double* a  = hyb_bb_alloc_d( r, ld, ld );
	double* c1 = hyb_bb_alloc_d( r, ld, ld );
	double* c2 = malloc( sizeof *c2 * (size_t)ld * ld );
	c1[0]      = NAN;
	memcpy( c2, c1, sizeof *c2 * (size_t)ld * ld );
	dsyrk_( "L", "T", &n, &k, &alpha, a, &ld, &beta, c1, &ld, 1, 1 );
	hyb_real_dsyrk( "L", "T", &n, &k, &alpha, a, &ld, &beta, c2, &ld, 1, 1 );
	hyb_trivial++;
	int same = memcmp( c1, c2, sizeof *c1 * (size_t)ld * ld ) == 0;
	printf( "%s dsyrk_ quick return: %s\n", same ? "ok  " : "FAIL", what );
	hyb_bb_expect( same, "dsyrk_ %s differs from the real library", what );
	free( a ), free( c1 ), free( c2 );
}

static void hyb_quick_dtrsm( hyb_bb_rng_t* r, const char* what, int m, int n, double alpha )
{
	int     ld = 9;
	double* a  = hyb_bb_alloc_d( r, ld, ld );
	double* b1 = hyb_bb_alloc_d( r, ld, ld );
	double* b2 = malloc( sizeof *b2 * (size_t)ld * ld );
	a[0]       = NAN; /* alpha = 0: A is not read */
	memcpy( b2, b1, sizeof *b2 * (size_t)ld * ld );
	dtrsm_( "L", "L", "N", "N", &m, &n, &alpha, a, &ld, b1, &ld, 1, 1, 1, 1 );
	hyb_real_dtrsm( "L", "L", "N", "N", &m, &n, &alpha, a, &ld, b2, &ld, 1, 1, 1, 1 );
	hyb_trivial++;
	int same = memcmp( b1, b2, sizeof *b1 * (size_t)ld * ld ) == 0;
	printf( "%s dtrsm_ quick return: %s\n", same ? "ok  " : "FAIL", what );
	hyb_bb_expect( same, "dtrsm_ %s differs from the real library", what );
	free( a ), free( b1 ), free( b2 );
}

int main( int argc, char** argv )
{
	const char* trace = NULL;
	const char* path  = "any";
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--trace" ) == 0 && i + 1 < argc )
			trace = argv[++i];
		else if ( strcmp( argv[i], "--expect-path" ) == 0 && i + 1 < argc )
			path = argv[++i];
		else
		{
			fprintf( stderr, "usage: %s [--trace FILE --expect-path P]\n", argv[0] );
			return 2;
		}
	}
	void* blas = dlopen( "libblas.so.3", RTLD_NOW | RTLD_NOLOAD );
	if ( blas )
	{
		hyb_real_dgemm = (hyb_bb_dgemm_fn)dlsym( blas, "dgemm_" );
		hyb_real_dsyrk = (hyb_dsyrk_fn)dlsym( blas, "dsyrk_" );
		hyb_real_dtrsm = (hyb_dtrsm_fn)dlsym( blas, "dtrsm_" );
	}
	if ( !hyb_bb_expect( hyb_real_dgemm && hyb_real_dsyrk && hyb_real_dtrsm,
	                     "the program is not linked to libblas.so.3" ) )
		return hyb_bb_finish( "app_quick" );
	if ( trace ) hyb_bb_expect( hyb_bb_trace_reset( trace ) == 0, "cannot truncate %s", trace );

	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 4242 );
	hyb_beta0_gemm( &r, 0 );
	hyb_beta0_gemm( &r, 1 );
	hyb_beta0_zgemm( &r );
	hyb_beta0_dsyrk( &r );

	hyb_quick_gemm( &r, "alpha=0 beta=1, NaN in C", 8, 7, 6, 0.0, 1.0, 0, 1 );
	hyb_quick_gemm( &r, "alpha=0 beta=0, NaN in A and C", 8, 7, 6, 0.0, 0.0, 1, 1 );
	hyb_quick_gemm( &r, "alpha=0 beta=2", 8, 7, 6, 0.0, 2.0, 0, 0 );
	hyb_quick_gemm( &r, "m=0", 0, 7, 6, 1.0, 0.0, 0, 1 );
	hyb_quick_gemm( &r, "n=0", 8, 0, 6, 1.0, 0.0, 0, 1 );
	hyb_quick_gemm( &r, "k=0 beta=0.5", 8, 7, 0, 1.0, 0.5, 0, 0 );
	hyb_quick_gemm( &r, "k=0 beta=0, NaN in C", 8, 7, 0, 1.0, 0.0, 0, 1 );
	hyb_quick_gemm( &r, "k=0 beta=1, NaN in C", 8, 7, 0, 1.0, 1.0, 0, 1 );
	hyb_quick_dsyrk( &r, "alpha=0 beta=0", 6, 5, 0.0, 0.0 );
	hyb_quick_dsyrk( &r, "k=0 beta=3", 6, 0, 1.0, 3.0 );
	hyb_quick_dsyrk( &r, "n=0", 0, 5, 1.0, 0.0 );
	hyb_quick_dtrsm( &r, "alpha=0 (B := 0, A not read)", 7, 5, 0.0 );
	hyb_quick_dtrsm( &r, "m=0", 0, 5, 1.0 );

	if ( trace )
	{
		static hyb_bb_trace_line_t t[128];
		int                        n = hyb_bb_trace_read( trace, t, 128 );
		hyb_bb_trace_print( t, n );
		int cpu = 0, on_path = 0;
		for ( int i = 0; i < n; i++ )
		{
			cpu += strcmp( t[i].path, "cpu" ) == 0;
			on_path += strcmp( path, "any" ) == 0 || strcmp( t[i].path, path ) == 0;
		}
		hyb_bb_expect( n == hyb_trivial + hyb_nontrivial, "trace: %d lines for %d calls", n,
		               hyb_trivial + hyb_nontrivial );
		/* Trivial calls go to the real library; the others take path P. */
		if ( strcmp( path, "cpu" ) == 0 )
			hyb_bb_expect( cpu == n, "trace: %d of %d calls on the CPU", cpu, n );
		else if ( strcmp( path, "any" ) != 0 )
			hyb_bb_expect( cpu == hyb_trivial && on_path == hyb_nontrivial,
			               "trace: %d trivial calls on the CPU (want %d), %d on path=%s (want %d)",
			               cpu, hyb_trivial, on_path, path, hyb_nontrivial );
	}
	return hyb_bb_finish( "app_quick" );
}
