/* SPDX-License-Identifier: BSD-3-Clause */
/* Interception cost on tiny calls: dgemm_ 4x4 and 16x16 in a loop, timed;
   run once without and once with hyblas preloaded (bench_tiny.sh) and the
   difference is the cost hyblas adds per call. The loops are separate
   functions so that callgrind can count exactly their instructions.
   Usage: bench_tiny [--n4 CALLS] [--n16 CALLS] | --first (one call, the process's first) */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hyb_bb_blas.h"

static double hyb_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* C := A B + 0.5 C, `calls` times. Kept out of line: callgrind's
   --toggle-collect names these functions. */
__attribute__( ( noinline ) ) static void hyb_bench_loop( long calls, int n, const double* a,
                                                          const double* b, double* c )
{
	double alpha = 1.0, beta = 0.5;
	for ( long i = 0; i < calls; i++ )
		dgemm_( "N", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n, 1, 1 );
}

__attribute__( ( noinline ) ) static void hyb_bench_loop4( long calls, const double* a,
                                                           const double* b, double* c )
{
	hyb_bench_loop( calls, 4, a, b, c );
}

__attribute__( ( noinline ) ) static void hyb_bench_loop16( long calls, const double* a,
                                                            const double* b, double* c )
{
	hyb_bench_loop( calls, 16, a, b, c );
}

/* The process's first dgemm_ call: hyblas's part is finding the real routine. */
__attribute__( ( noinline ) ) static void hyb_bench_first( const double* a, const double* b,
                                                           double* c )
{
	hyb_bench_loop( 1, 4, a, b, c );
}

int main( int argc, char** argv )
{
	long n4 = 1000000, n16 = 200000;
	int  first = 0;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--n4" ) == 0 && i + 1 < argc )
			n4 = atol( argv[++i] );
		else if ( strcmp( argv[i], "--n16" ) == 0 && i + 1 < argc )
			n16 = atol( argv[++i] );
		else if ( strcmp( argv[i], "--first" ) == 0 )
			first = 1;
		else
		{
			fprintf( stderr, "usage: %s [--n4 CALLS] [--n16 CALLS] | --first\n", argv[0] );
			return 2;
		}
	}
	static double a[256], b[256], c[256];
	for ( int i = 0; i < 256; i++ ) a[i] = 1.0 / ( 1 + i ), b[i] = 0.5 - 1.0 / ( 2 + i ), c[i] = 0;
	if ( first )
	{
		hyb_bench_first( a, b, c );
		return c[0] == 12345.0 ? 3 : 0;
	}
	/* Warm-up outside the measured loops: first-call resolution, OpenBLAS
	   buffers. */
	hyb_bench_loop( 10, 16, a, b, c );
	hyb_bench_loop( 10, 4, a, b, c );

	double t0 = hyb_now();
	hyb_bench_loop4( n4, a, b, c );
	double t1 = hyb_now();
	hyb_bench_loop16( n16, a, b, c );
	double t2 = hyb_now();
	if ( n4 > 0 )
		printf( "dgemm 4x4 calls=%ld ns_per_call=%.1f\n", n4, 1e9 * ( t1 - t0 ) / (double)n4 );
	if ( n16 > 0 )
		printf( "dgemm 16x16 calls=%ld ns_per_call=%.1f\n", n16, 1e9 * ( t2 - t1 ) / (double)n16 );
	/* Keep the results alive. */
	return c[0] == 12345.0 ? 3 : 0;
}
