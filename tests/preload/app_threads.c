/* SPDX-License-Identifier: BSD-3-Clause */
/* Eight application threads calling dgemm_ and zgemm_ at the same time with
   different sizes; every result is checked against a triple loop, and the
   trace must hold one line per call on an allowed path.
   Usage: app_threads [--trace FILE] [--paths P1,P2] [--need PATH] */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"
#include "hyb_bb_trace.h"

enum
{
	HYB_THREADS = 8,
	HYB_ITERS   = 4
};

static const double      hyb_eps_d = 2.220446049250313e-16;
static pthread_barrier_t hyb_start;

static void hyb_one_dgemm( hyb_bb_rng_t* r, int t, int it )
{
	int     m = 30 + 11 * t + it, n = 25 + 7 * t, k = 20 + 5 * t + 3 * it, ld = m + t;
	double  alpha = 0.5 + t, beta = it % 2 ? 0.0 : -0.75;
	char    ta = it % 2 ? 'T' : 'N', tb = t % 2 ? 'T' : 'N';
	int     lda = ta == 'N' ? ld : k + 1, ldb = tb == 'N' ? k + 2 : n + 3;
	double* a    = hyb_bb_alloc_d( r, lda, ta == 'N' ? k : m );
	double* b    = hyb_bb_alloc_d( r, ldb, tb == 'N' ? n : k );
	double* c    = hyb_bb_alloc_d( r, ld, n );
	double* cref = malloc( sizeof *cref * (size_t)ld * n );
	hyb_bb_ref_dgemm( ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, cref, ld );
	double denom =
	    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( ta == 'N' ? m : k, ta == 'N' ? k : m, a, lda ),
	                       hyb_bb_norm_d( tb == 'N' ? k : n, tb == 'N' ? n : k, b, ldb ), beta,
	                       hyb_bb_norm_d( m, n, c, ld ) );
	dgemm_( &ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ld, 1, 1 );
	char what[80];
	snprintf( what, sizeof what, "thread %d iter %d dgemm_ %c%c %dx%dx%d", t, it, ta, tb, m, n, k );
	hyb_bb_check( what, hyb_bb_diff_d( m, n, c, cref, ld ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

static void hyb_one_zgemm( hyb_bb_rng_t* r, int t, int it )
{
	int         m = 17 + 9 * t, n = 40 - 3 * t + it, k = 12 + 4 * t, ld = m + 2;
	hyb_bb_z_t  alpha = CMPLX( 1.0, 0.5 * t ), beta = CMPLX( 0.25, -1.0 );
	hyb_bb_z_t* a    = hyb_bb_alloc_z( r, ld, k );
	hyb_bb_z_t* b    = hyb_bb_alloc_z( r, n, k ); /* n x k, used conjugate-transposed */
	hyb_bb_z_t* c    = hyb_bb_alloc_z( r, ld, n );
	hyb_bb_z_t* cref = malloc( sizeof *cref * (size_t)ld * n );
	hyb_bb_ref_zgemm( 'N', 'C', m, n, k, alpha, a, ld, b, n, beta, c, cref, ld );
	double denom = hyb_bb_gemm_denom( k, cabs( alpha ), hyb_bb_norm_z( m, k, a, ld ),
	                                  hyb_bb_norm_z( n, k, b, n ), cabs( beta ),
	                                  hyb_bb_norm_z( m, n, c, ld ) );
	zgemm_( "N", "C", &m, &n, &k, &alpha, a, &ld, b, &n, &beta, c, &ld, 1, 1 );
	char what[80];
	snprintf( what, sizeof what, "thread %d iter %d zgemm_ NC %dx%dx%d", t, it, m, n, k );
	hyb_bb_check( what, hyb_bb_diff_z( m, n, c, cref, ld ), denom, hyb_eps_d );
	free( a ), free( b ), free( c ), free( cref );
}

static void* hyb_thread_main( void* arg )
{
	int          t = (int)(intptr_t)arg;
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, 1000 + (uint64_t)t );
	pthread_barrier_wait( &hyb_start );
	for ( int it = 0; it < HYB_ITERS; it++ )
	{
		hyb_one_dgemm( &r, t, it );
		hyb_one_zgemm( &r, t, it );
	}
	return NULL;
}

/* Is `path` one of the comma-separated `allowed`? */
static int hyb_allowed( const char* allowed, const char* path )
{
	size_t n = strlen( path );
	for ( const char* p = allowed; p && *p; )
	{
		const char* comma = strchr( p, ',' );
		size_t      len   = comma ? (size_t)( comma - p ) : strlen( p );
		if ( len == n && strncmp( p, path, n ) == 0 ) return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

int main( int argc, char** argv )
{
	const char* trace = NULL;
	const char* paths = NULL;
	const char* need  = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--trace" ) == 0 && i + 1 < argc )
			trace = argv[++i];
		else if ( strcmp( argv[i], "--paths" ) == 0 && i + 1 < argc )
			paths = argv[++i];
		else if ( strcmp( argv[i], "--need" ) == 0 && i + 1 < argc )
			need = argv[++i];
		else
		{
			fprintf( stderr, "usage: %s [--trace FILE] [--paths P1,P2] [--need PATH]\n", argv[0] );
			return 2;
		}
	}
	if ( trace ) hyb_bb_expect( hyb_bb_trace_reset( trace ) == 0, "cannot truncate %s", trace );

	pthread_t th[HYB_THREADS];
	pthread_barrier_init( &hyb_start, NULL, HYB_THREADS );
	for ( int t = 0; t < HYB_THREADS; t++ )
		if ( pthread_create( &th[t], NULL, hyb_thread_main, (void*)(intptr_t)t ) != 0 )
		{
			fprintf( stderr, "pthread_create failed\n" );
			return 1;
		}
	for ( int t = 0; t < HYB_THREADS; t++ ) pthread_join( th[t], NULL );
	pthread_barrier_destroy( &hyb_start );

	if ( trace )
	{
		static hyb_bb_trace_line_t tl[4 * HYB_THREADS * HYB_ITERS];
		int                        n = hyb_bb_trace_read( trace, tl, 4 * HYB_THREADS * HYB_ITERS );
		int                        calls = 2 * HYB_THREADS * HYB_ITERS;
		hyb_bb_expect( n == calls, "trace: %d lines for %d calls (torn or lost lines?)", n, calls );
		hyb_bb_expect( hyb_bb_trace_count( tl, n, "dgemm_", NULL ) == calls / 2 &&
		                   hyb_bb_trace_count( tl, n, "zgemm_", NULL ) == calls / 2,
		               "trace: wrong routine counts" );
		int bad = 0, needed = 0;
		for ( int i = 0; i < n; i++ )
		{
			if ( paths && !hyb_allowed( paths, tl[i].path ) ) bad++;
			if ( need && strcmp( tl[i].path, need ) == 0 ) needed++;
		}
		printf( "trace: %d lines, %d on a path outside {%s}, %d on path %s\n", n, bad,
		        paths ? paths : "any", needed, need ? need : "-" );
		hyb_bb_expect( bad == 0, "trace: %d calls took a path outside {%s}", bad,
		               paths ? paths : "any" );
		if ( need ) hyb_bb_expect( needed > 0, "trace: no call took path=%s", need );
	}
	return hyb_bb_finish( "app_threads" );
}
