/* SPDX-License-Identifier: BSD-3-Clause */
/* How many threads the library leaves in a process: a burst of dgemm_ calls of varied
   shapes (so that the copy threads are divided between uploads and downloads differently
   from call to call) from one application thread, then from several at once; after
   each, the threads in /proc/self/task are counted against the bound the documentation
   gives (docs/architecture.md, "Threads"): per device context, the simulated device's
   three stream threads, the storer and two copy teams of at most
   COPY + COPY/2 - 1 workers each; one context per device for each application thread
   that used it at the same time. Every product is checked against a triple loop.
   Usage: app_thread_count --devices D --copy-threads C --threads T [--calls N] */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"

static const double      atc_eps   = 2.220446049250313e-16;
static int               atc_calls = 22;
static pthread_barrier_t atc_start;

static int atc_threads_now( void )
{
	int  n   = 0;
	DIR* dir = opendir( "/proc/self/task" );
	if ( dir == NULL ) return -1;
	for ( struct dirent* e; ( e = readdir( dir ) ) != NULL; ) n += e->d_name[0] != '.';
	closedir( dir );
	return n;
}

/* The count once threads that are exiting have gone: a thread joined a moment ago can
   still be listed while the kernel reaps it, so the count is read again for up to two
   seconds while it is above `limit`. */
static int atc_threads_left( int limit )
{
	int n = atc_threads_now();
	for ( int i = 0; i < 200 && n > limit; i++ )
	{
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep( &ts, NULL );
		n = atc_threads_now();
	}
	return n;
}

/* Call `i` of a burst: 160 x 160 products of depths from 4 to 640, so that the share of
   the bytes uploaded against those downloaded, and with it the division of the copy
   threads between uploads and downloads, runs over every split from call to call. */
static void atc_one( hyb_bb_rng_t* r, int t, int i )
{
	static const int depth[11] = { 4, 16, 32, 48, 64, 96, 128, 192, 256, 384, 640 };
	int              m = 160, n = 160, k = depth[( i + t ) % 11], ld = m + 1;
	double           alpha = 1.0 + 0.125 * t, beta = i % 3 == 2 ? 1.0 : 0.0;
	double*          a    = hyb_bb_alloc_d( r, ld, k );
	double*          b    = hyb_bb_alloc_d( r, k, n );
	double*          c    = hyb_bb_alloc_d( r, ld, n );
	double*          cref = malloc( sizeof *cref * (size_t)ld * (size_t)n );
	if ( cref == NULL ) abort();
	hyb_bb_ref_dgemm( 'N', 'N', m, n, k, alpha, a, ld, b, k, beta, c, cref, ld );
	double denom =
	    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( m, k, a, ld ), hyb_bb_norm_d( k, n, b, k ),
	                       beta, hyb_bb_norm_d( m, n, c, ld ) );
	dgemm_( "N", "N", &m, &n, &k, &alpha, a, &ld, b, &k, &beta, c, &ld, 1, 1 );
	char what[80];
	snprintf( what, sizeof what, "thread %d call %d dgemm_ %dx%dx%d beta %g", t, i, m, n, k, beta );
	hyb_bb_check( what, hyb_bb_diff_d( m, n, c, cref, ld ), denom, atc_eps );
	free( a ), free( b ), free( c ), free( cref );
}

static void* atc_burst( void* arg )
{
	int          t = (int)(intptr_t)arg;
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 9100 + (uint64_t)t );
	pthread_barrier_wait( &atc_start );
	for ( int i = 0; i < atc_calls; i++ ) atc_one( &r, t, i );
	return NULL;
}

/* Run a burst on `threads` application threads at once (joined before returning). */
static void atc_run( int threads )
{
	pthread_t th[64];
	pthread_barrier_init( &atc_start, NULL, (unsigned)threads );
	for ( int t = 0; t < threads; t++ )
		if ( pthread_create( &th[t], NULL, atc_burst, (void*)(intptr_t)t ) != 0 ) abort();
	for ( int t = 0; t < threads; t++ ) pthread_join( th[t], NULL );
	pthread_barrier_destroy( &atc_start );
}

int main( int argc, char** argv )
{
	int devices = 1, copy = 8, threads = 4;
	for ( int i = 1; i + 1 < argc; i += 2 )
	{
		if ( strcmp( argv[i], "--devices" ) == 0 )
			devices = atoi( argv[i + 1] );
		else if ( strcmp( argv[i], "--copy-threads" ) == 0 )
			copy = atoi( argv[i + 1] );
		else if ( strcmp( argv[i], "--threads" ) == 0 )
			threads = atoi( argv[i + 1] );
		else if ( strcmp( argv[i], "--calls" ) == 0 )
			atc_calls = atoi( argv[i + 1] );
	}
	if ( devices < 1 || copy < 1 || threads < 1 || threads > 64 || atc_calls < 1 )
	{
		fprintf( stderr, "usage: %s --devices D --copy-threads C --threads T [--calls N]\n",
		         argv[0] );
		return 2;
	}
	int total   = copy + copy / 2 > 2 ? copy + copy / 2 : 2;
	int per_ctx = 3 + 1 + 2 * ( total - 1 ); /* streams, storer, two copy teams */

	int base = atc_threads_now();
	atc_run( 1 );
	int one = atc_threads_left( base + devices * per_ctx );
	printf( "threads: %d at start, %d after %d calls from one thread (bound %d more: %d context(s) "
	        "of %d)\n",
	        base, one, atc_calls, devices * per_ctx, devices, per_ctx );
	hyb_bb_expect( one - base <= devices * per_ctx,
	               "one application thread left %d threads, more than %d", one - base,
	               devices * per_ctx );
	atc_run( threads );
	int many = atc_threads_left( base + threads * devices * per_ctx );
	printf( "threads: %d after %d calls from each of %d threads at once (bound %d more)\n", many,
	        atc_calls, threads, threads * devices * per_ctx );
	hyb_bb_expect( many - base <= threads * devices * per_ctx,
	               "%d application threads left %d threads, more than %d", threads, many - base,
	               threads * devices * per_ctx );
	/* More bursts stay within the same bound: contexts and their threads are reused, not
	   made per call (how many contexts a burst needs depends on how its threads overlap,
	   so a later burst may still add up to the bound). */
	for ( int round = 0; round < 3; round++ ) atc_run( threads );
	int again = atc_threads_left( base + threads * devices * per_ctx );
	printf( "threads: %d after three more bursts\n", again );
	hyb_bb_expect( again - base <= threads * devices * per_ctx,
	               "more bursts left %d threads, more than %d", again - base,
	               threads * devices * per_ctx );
	return hyb_bb_finish( "app_thread_count" );
}
