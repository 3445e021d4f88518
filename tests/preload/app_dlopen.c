/* SPDX-License-Identifier: BSD-3-Clause */
/* The Python-extension case: a program linked to no BLAS, with hyblas
   preloaded, loads a BLAS later with dlopen(RTLD_LOCAL) and then calls the
   global dgemm_ (hyblas's); hyblas must find the locally loaded library.
   With --then, the plugin-host case follows: the program dlcloses that
   library, dlopens another one and calls again; the call must neither crash
   nor compute wrongly.
   Usage: app_dlopen LIBRARY [--min-calls N] [--then LIBRARY2]
   (N: calls the first library's counter must show, for the fake library of
   tests/fixtures) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"

/* One dgemm_ through dgemm, checked against the triple loop. */
static void hyb_checked_call( hyb_bb_dgemm_fn dgemm, uint64_t seed, const char* what )
{
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, seed );
	hyb_bb_dgemm_checked( dgemm, &r, 'N', 'T', 120, 95, 77, 0.5, -2.0, what );
}

/* dlopen(lib, RTLD_LOCAL), which must not make its symbols global. */
static void* hyb_open_local( const char* lib, hyb_bb_dgemm_fn global )
{
	void* h = dlopen( lib, RTLD_NOW | RTLD_LOCAL );
	if ( !hyb_bb_expect( h != NULL, "dlopen(%s): %s", lib, dlerror() ) ) return NULL;
	hyb_bb_expect( dlsym( RTLD_DEFAULT, "dgemm_" ) == (void*)global, "RTLD_LOCAL made %s global",
	               lib );
	return h;
}

int main( int argc, char** argv )
{
	const char* lib       = NULL;
	const char* then      = NULL;
	long        min_calls = -1;
	int         bad       = 0;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--min-calls" ) == 0 && i + 1 < argc )
			min_calls = atol( argv[++i] );
		else if ( strcmp( argv[i], "--then" ) == 0 && i + 1 < argc )
			then = argv[++i];
		else if ( lib == NULL && argv[i][0] != '-' )
			lib = argv[i];
		else
			bad = 1;
	}
	if ( bad || lib == NULL )
	{
		fprintf( stderr, "usage: %s LIBRARY [--min-calls N] [--then LIBRARY2]\n", argv[0] );
		return 2;
	}

	/* Before: the only dgemm_ in the process is hyblas's. */
	hyb_bb_dgemm_fn dgemm = (hyb_bb_dgemm_fn)dlsym( RTLD_DEFAULT, "dgemm_" );
	Dl_info         info;
	if ( !hyb_bb_expect( dgemm != NULL && dladdr( (void*)dgemm, &info ) &&
	                         strstr( info.dli_fname, "libhyblas" ),
	                     "dgemm_ is not libhyblas's (is hyblas preloaded?)" ) )
		return hyb_bb_finish( "app_dlopen" );
	printf( "dgemm_ comes from %s\n", info.dli_fname );

	void* h = hyb_open_local( lib, dgemm );
	if ( h == NULL ) return hyb_bb_finish( "app_dlopen" );
	hyb_checked_call( dgemm, 5150, "dgemm_ after dlopen(RTLD_LOCAL)" );

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

	if ( then )
	{
		/* The program is done with the first library; a plugin host loads
		   the next plugin's BLAS. */
		hyb_bb_expect( dlclose( h ) == 0, "dlclose(%s): %s", lib, dlerror() );
		void* h2 = hyb_open_local( then, dgemm );
		if ( h2 )
		{
			hyb_checked_call( dgemm, 5151, "dgemm_ after dlclose and another dlopen" );
			hyb_checked_call( dgemm, 5152, "dgemm_ again" );
			dlclose( h2 );
		}
	}
	return hyb_bb_finish( "app_dlopen" );
}
