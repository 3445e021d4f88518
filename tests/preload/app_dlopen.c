/* SPDX-License-Identifier: BSD-3-Clause */
/* The Python-extension case: a program linked to no BLAS, with hyblas
   preloaded, loads a BLAS later with dlopen(RTLD_LOCAL) and then calls the
   global dgemm_ (hyblas's); hyblas must find the locally loaded library.
   Usage: app_dlopen LIBRARY [--min-calls N]  (N: calls the library's
   counter must show, for the fake library of tests/fixtures) */
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

int main( int argc, char** argv )
{
	if ( ( argc != 2 && argc != 4 ) || ( argc == 4 && strcmp( argv[2], "--min-calls" ) != 0 ) )
	{
		fprintf( stderr, "usage: %s LIBRARY [--min-calls N]\n", argv[0] );
		return 2;
	}
	const char* lib       = argv[1];
	long        min_calls = argc == 4 ? atol( argv[3] ) : -1;

	/* Before: the only dgemm_ in the process is hyblas's. */
	hyb_bb_dgemm_fn dgemm = (hyb_bb_dgemm_fn)dlsym( RTLD_DEFAULT, "dgemm_" );
	Dl_info         info;
	if ( !hyb_bb_expect( dgemm != NULL && dladdr( (void*)dgemm, &info ) &&
	                         strstr( info.dli_fname, "libhyblas" ),
	                     "dgemm_ is not libhyblas's (is hyblas preloaded?)" ) )
		return hyb_bb_finish( "app_dlopen" );
	printf( "dgemm_ comes from %s\n", info.dli_fname );

	void* h = dlopen( lib, RTLD_NOW | RTLD_LOCAL );
	if ( !hyb_bb_expect( h != NULL, "dlopen(%s): %s", lib, dlerror() ) )
		return hyb_bb_finish( "app_dlopen" );
	hyb_bb_expect( dlsym( RTLD_DEFAULT, "dgemm_" ) == (void*)dgemm,
	               "RTLD_LOCAL made the library global" );

	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 5150 );
	int     m = 120, n = 95, k = 77, ld = 121;
	double  alpha = 0.5, beta = -2.0;
	double* a    = hyb_bb_alloc_d( &r, ld, k );
	double* b    = hyb_bb_alloc_d( &r, n, k );
	double* c    = hyb_bb_alloc_d( &r, ld, n );
	double* cref = malloc( sizeof *cref * (size_t)ld * n );
	hyb_bb_ref_dgemm( 'N', 'T', m, n, k, alpha, a, ld, b, n, beta, c, cref, ld );
	double denom =
	    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( m, k, a, ld ), hyb_bb_norm_d( n, k, b, n ),
	                       beta, hyb_bb_norm_d( m, n, c, ld ) );
	dgemm( "N", "T", &m, &n, &k, &alpha, a, &ld, b, &n, &beta, c, &ld, 1, 1 );
	hyb_bb_check( "dgemm_ after dlopen(RTLD_LOCAL)", hyb_bb_diff_d( m, n, c, cref, ld ), denom,
	              hyb_eps_d );

	if ( min_calls >= 0 )
	{
		atomic_long* calls = dlsym( h, "hyb_fake_blas_dgemm_calls" );
		if ( hyb_bb_expect( calls != NULL, "%s has no call counter", lib ) )
		{
			long got = atomic_load( calls );
			printf( "the locally loaded library counted %ld call(s)\n", got );
			hyb_bb_expect( got >= min_calls,
			               "the call did not reach the RTLD_LOCAL library (%ld calls, want >= %ld)",
			               got, min_calls );
		}
	}
	free( a ), free( b ), free( c ), free( cref );
	return hyb_bb_finish( "app_dlopen" );
}
