/* SPDX-License-Identifier: BSD-3-Clause */
/* HYBLAS_CPU_LIB selects the library hyblas forwards to: an ordinary
   program linked with the system BLAS calls dgemm_; with HYBLAS_CPU_LIB
   naming the fake vendor library, its call counter must show the calls.
   Usage: app_cpulib --lib PATH --calls N (--exact M | --min M) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"

static const double hyb_eps_d = 2.220446049250313e-16;

static void hyb_one( hyb_bb_rng_t* r, int i, int use_cblas )
{
	int     m = 70 + 13 * i, n = 90 - 7 * i, k = 64 + 5 * i, ld = m + 1;
	double  alpha = 1.0 + i, beta = i % 2 ? 0.0 : 0.5;
	double* a    = hyb_bb_alloc_d( r, ld, k );
	double* b    = hyb_bb_alloc_d( r, k, n );
	double* c    = hyb_bb_alloc_d( r, ld, n );
	double* cref = malloc( sizeof *cref * (size_t)ld * n );
	hyb_bb_ref_dgemm( 'N', 'N', m, n, k, alpha, a, ld, b, k, beta, c, cref, ld );
	double denom =
	    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( m, k, a, ld ), hyb_bb_norm_d( k, n, b, k ),
	                       beta, hyb_bb_norm_d( m, n, c, ld ) );
	if ( use_cblas )
		cblas_dgemm( HYB_BB_COL_MAJOR, HYB_BB_NO_TRANS, HYB_BB_NO_TRANS, m, n, k, alpha, a, ld, b,
		             k, beta, c, ld );
	else
		dgemm_( "N", "N", &m, &n, &k, &alpha, a, &ld, b, &k, &beta, c, &ld, 1, 1 );
	char what[64];
	snprintf( what, sizeof what, "%s %dx%dx%d", use_cblas ? "cblas_dgemm" : "dgemm_", m, n, k );
	hyb_bb_check( what, hyb_bb_diff_d( m, n, c, cref, ld ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

int main( int argc, char** argv )
{
	const char* lib   = NULL;
	int         calls = 3;
	long        exact = -1, min = -1;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--lib" ) == 0 && i + 1 < argc )
			lib = argv[++i];
		else if ( strcmp( argv[i], "--calls" ) == 0 && i + 1 < argc )
			calls = atoi( argv[++i] );
		else if ( strcmp( argv[i], "--exact" ) == 0 && i + 1 < argc )
			exact = atol( argv[++i] );
		else if ( strcmp( argv[i], "--min" ) == 0 && i + 1 < argc )
			min = atol( argv[++i] );
		else
		{
			fprintf( stderr, "usage: %s --lib PATH --calls N (--exact M | --min M)\n", argv[0] );
			return 2;
		}
	}
	if ( lib == NULL )
	{
		fprintf( stderr, "app_cpulib: --lib is required\n" );
		return 2;
	}
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 99 );
	for ( int i = 0; i < calls; i++ ) hyb_one( &r, i, 0 );

	/* The fake library is loaded only if hyblas opened it. */
	void* h = dlopen( lib, RTLD_LAZY | RTLD_NOLOAD );
	if ( !hyb_bb_expect( h != NULL, "%s was never loaded: HYBLAS_CPU_LIB was not used", lib ) )
		return hyb_bb_finish( "app_cpulib" );
	atomic_long* counter = dlsym( h, "hyb_fake_blas_dgemm_calls" );
	if ( !hyb_bb_expect( counter != NULL, "%s has no call counter", lib ) )
		return hyb_bb_finish( "app_cpulib" );
	long got = atomic_load( counter );
	printf( "the fake library counted %ld dgemm_ call(s) for %d made\n", got, calls );
	if ( exact >= 0 )
		hyb_bb_expect( got == exact, "the fake library counted %ld calls, want %ld", got, exact );
	if ( min >= 0 )
		hyb_bb_expect( got >= min, "the fake library counted %ld calls, want at least %ld", got,
		               min );

	/* cblas_dgemm: the fake library has none; the call must still be right
	   (hyblas resolves it elsewhere or routes it to the fake dgemm_). */
	long before = atomic_load( counter );
	hyb_one( &r, calls, 1 );
	printf( "info cblas_dgemm reached the fake library %ld time(s)\n",
	        atomic_load( counter ) - before );
	dlclose( h );
	return hyb_bb_finish( "app_cpulib" );
}
