/* SPDX-License-Identifier: BSD-3-Clause */
/* Device failures through the whole stack: a fixed sequence of multi-tile
   level-3 calls (dgemm_, dtrsm_, zgemm_, dsyrk_, dgemm_) run while
   HYBLAS_FAULT_INJECT makes one device operation fail; every result must
   still equal the reference, the trace must show path=fallback for exactly
   the affected call, path=gpu before it (and gpu or cpu after it).
   Usage: app_faults --trace FILE [--fallback-in ROUTINE] [--fallbacks N] */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"
#include "hyb_bb_trace.h"

static const double hyb_eps_d = 2.220446049250313e-16;

static void hyb_fault_dgemm( hyb_bb_rng_t* r, int m, int n, int k, double beta )
{
	char what[64];
	snprintf( what, sizeof what, "dgemm_ NT %dx%dx%d beta=%g", m, n, k, beta );
	hyb_bb_dgemm_checked( dgemm_, r, 'N', 'T', m, n, k, -0.8, beta, what );
}

static void hyb_fault_dtrsm( hyb_bb_rng_t* r, int m, int n )
{
	int     lda = m + 2, ldb = m + 4;
	double  alpha = 0.75;
	double* a     = hyb_bb_alloc_d( r, lda, m );
	for ( int i = 0; i < m; i++ ) a[i + (size_t)i * lda] = m + fabs( a[i + (size_t)i * lda] );
	double* b  = hyb_bb_alloc_d( r, ldb, n );
	double* b0 = malloc( sizeof *b0 * (size_t)ldb * n );
	memcpy( b0, b, sizeof *b0 * (size_t)ldb * n );
	dtrsm_( "L", "U", "N", "N", &m, &n, &alpha, a, &lda, b, &ldb, 1, 1, 1, 1 );
	char what[64];
	snprintf( what, sizeof what, "dtrsm_ LUNN %dx%d residual", m, n );
	hyb_bb_check_dtrsm( what, 'L', 'U', 'N', 'N', m, n, alpha, a, lda, b, b0, ldb );
	free( a ), free( b ), free( b0 );
}

static void hyb_fault_zgemm( hyb_bb_rng_t* r, int m, int n, int k )
{
	int         lda = k + 1, ldb = k, ldc = m;
	hyb_bb_z_t  alpha = CMPLX( 0.3, 0.7 ), beta = CMPLX( -1.0, 0.2 );
	hyb_bb_z_t* a    = hyb_bb_alloc_z( r, lda, m ); /* k x m, used conjugate-transposed */
	hyb_bb_z_t* b    = hyb_bb_alloc_z( r, ldb, n );
	hyb_bb_z_t* c    = hyb_bb_alloc_z( r, ldc, n );
	hyb_bb_z_t* cref = malloc( sizeof *cref * (size_t)ldc * n );
	hyb_bb_ref_zgemm( 'C', 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, cref, ldc );
	double denom = hyb_bb_gemm_denom( k, cabs( alpha ), hyb_bb_norm_z( k, m, a, lda ),
	                                  hyb_bb_norm_z( k, n, b, ldb ), cabs( beta ),
	                                  hyb_bb_norm_z( m, n, c, ldc ) );
	zgemm_( "C", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1 );
	char what[64];
	snprintf( what, sizeof what, "zgemm_ CN %dx%dx%d", m, n, k );
	hyb_bb_check( what, hyb_bb_diff_z( m, n, c, cref, ldc ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

static void hyb_fault_dsyrk( hyb_bb_rng_t* r, int n, int k )
{
	int     lda = n + 2, ldc = n + 1;
	double  alpha = 1.5, beta = 0.25;
	double* a    = hyb_bb_alloc_d( r, lda, k );
	double* c    = hyb_bb_alloc_d( r, ldc, n );
	double* cref = malloc( sizeof *cref * (size_t)ldc * n );
	hyb_bb_ref_dgemm( 'N', 'T', n, n, k, alpha, a, lda, a, lda, beta, c, cref, ldc );
	double  c0norm = hyb_bb_norm_d( n, n, c, ldc );
	double* c0     = malloc( sizeof *c0 * (size_t)ldc * n );
	memcpy( c0, c, sizeof *c0 * (size_t)ldc * n );
	dsyrk_( "L", "N", &n, &k, &alpha, a, &lda, &beta, c, &ldc, 1, 1 );
	double diff       = 0;
	int    upper_kept = 1;
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < n; i++ )
		{
			size_t ij = i + (size_t)j * ldc;
			if ( i >= j )
				diff += ( c[ij] - cref[ij] ) * ( c[ij] - cref[ij] );
			else
				upper_kept &= c[ij] == c0[ij];
		}
	double denom = hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( n, k, a, lda ),
	                                  hyb_bb_norm_d( n, k, a, lda ), beta, c0norm );
	char   what[64];
	snprintf( what, sizeof what, "dsyrk_ LN %dx%d", n, k );
	hyb_bb_check( what, sqrt( diff ), denom, hyb_eps_d );
	hyb_bb_expect( upper_kept, "dsyrk_ changed the upper triangle" );
	free( a ), free( c ), free( c0 ), free( cref );
}

int main( int argc, char** argv )
{
	const char* trace       = NULL;
	const char* fallback_in = NULL;
	int         fallbacks   = 1;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--trace" ) == 0 && i + 1 < argc )
			trace = argv[++i];
		else if ( strcmp( argv[i], "--fallback-in" ) == 0 && i + 1 < argc )
			fallback_in = argv[++i];
		else if ( strcmp( argv[i], "--fallbacks" ) == 0 && i + 1 < argc )
			fallbacks = atoi( argv[++i] );
		else
		{
			fprintf( stderr, "usage: %s --trace FILE [--fallback-in ROUTINE] [--fallbacks N]\n",
			         argv[0] );
			return 2;
		}
	}
	if ( trace == NULL )
	{
		fprintf( stderr, "app_faults: --trace is required\n" );
		return 2;
	}
	hyb_bb_expect( hyb_bb_trace_reset( trace ) == 0, "cannot truncate %s", trace );

	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 31337 );
	hyb_fault_dgemm( &r, 300, 260, 200, 0.5 );
	hyb_fault_dtrsm( &r, 256, 150 );
	hyb_fault_zgemm( &r, 200, 170, 150 );
	hyb_fault_dsyrk( &r, 230, 140 );
	hyb_fault_dgemm( &r, 190, 210, 170, 0.0 );

	static hyb_bb_trace_line_t t[32];
	int                        n = hyb_bb_trace_read( trace, t, 32 );
	hyb_bb_trace_print( t, n );
	hyb_bb_expect( n == 5, "trace: %d lines for 5 calls", n );
	/* Before the failure every call runs on the device; after it the device
	   may stay usable (path=gpu) or be given up (path=cpu). */
	int nfb = 0, first_fb = -1, wrong = 0;
	for ( int i = 0; i < n; i++ )
	{
		if ( strcmp( t[i].path, "fallback" ) == 0 )
		{
			if ( first_fb < 0 ) first_fb = i;
			nfb++;
		}
		else if ( strcmp( t[i].path, "gpu" ) != 0 &&
		          ( first_fb < 0 || strcmp( t[i].path, "cpu" ) != 0 ) )
			wrong++;
	}
	hyb_bb_expect( nfb == fallbacks, "trace: %d calls fell back, want %d", nfb, fallbacks );
	hyb_bb_expect( wrong == 0, "trace: %d calls took an unexpected path", wrong );
	hyb_bb_trace_matches_counts( t, n ); /* hyb_calls counts the fallback as one */
	if ( fallback_in && first_fb >= 0 )
		hyb_bb_expect( strcmp( t[first_fb].routine, fallback_in ) == 0,
		               "trace: the fallback was in %s, want %s", t[first_fb].routine, fallback_in );
	return hyb_bb_finish( "app_faults" );
}
