/* SPDX-License-Identifier: BSD-3-Clause */
/* The host thread team (core/hyb_team) and streaming copies
   (core/hyb_copy): every index of a parallel-for visited exactly once, by
   any team size, repeatedly, from concurrent teams and on part of a team; copies equal to
   memcpy for every alignment and length, never writing outside; the update
   dst = beta dst + src equal to complex arithmetic element by element. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <complex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyb_copy.h"
#include "hyb_team.h"
#include "hyb_test_util.h"
#include "hyb_thread.h"

typedef struct
{
	_Atomic int* hits;
	_Atomic int  calls, bad_range;
	int64_t      n;
} hyb_cover_t;

static void cover_fn( void* arg, int64_t b, int64_t e )
{
	hyb_cover_t* c = arg;
	atomic_fetch_add( &c->calls, 1 );
	if ( b < 0 || e > c->n || b >= e ) atomic_fetch_add( &c->bad_range, 1 );
	for ( int64_t i = b; i < e && i < c->n; i++ )
		if ( i >= 0 ) atomic_fetch_add( &c->hits[i], 1 );
}

/* Run one parallel-for of n on team t; returns the number of indices not
   visited exactly once (plus bad ranges). */
static int64_t run_cover( hyb_team_t* t, int64_t n, int nthreads )
{
	hyb_cover_t c = { .n = n };
	c.hits        = calloc( (size_t)( n > 0 ? n : 1 ), sizeof *c.hits );
	hyb_team_run( t, n, cover_fn, &c );
	int64_t bad = atomic_load( &c.bad_range );
	for ( int64_t i = 0; i < n; i++ ) bad += atomic_load( &c.hits[i] ) != 1;
	/* At most one range per member; no call at all for an empty range. */
	if ( atomic_load( &c.calls ) > nthreads + 1 ) bad++;
	if ( n <= 0 && atomic_load( &c.calls ) != 0 ) bad++;
	free( c.hits );
	return bad;
}

static void test_team_cover( void )
{
	static const int64_t sizes[] = {
		0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 1000, 4097, 100003, -3
	};
	for ( int nt = 0; nt <= 6; nt++ )
	{
		hyb_team_t* t = hyb_team_create( nt );
		if ( nt == 0 ) CU_ASSERT_PTR_NULL( t ); /* no workers: callers run serially */
		if ( nt > 0 ) CU_ASSERT_PTR_NOT_NULL_FATAL( t );
		for ( unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++ )
			CU_ASSERT_EQUAL( run_cover( t, sizes[s], nt ), 0 );
		hyb_team_destroy( t );
	}
	hyb_team_destroy( NULL );
}

/* The same team, many runs in a row (each run must see only its own work). */
static void test_team_repeat( void )
{
	hyb_team_t* t = hyb_team_create( 3 );
	CU_ASSERT_PTR_NOT_NULL_FATAL( t );
	hyb_t_rng_t r   = hyb_t_rng( 700 );
	int64_t     bad = 0;
	for ( int it = 0; it < 3000; it++ ) bad += run_cover( t, hyb_t_int( &r, 0, 64 ), 3 );
	CU_ASSERT_EQUAL( bad, 0 );
	hyb_team_destroy( t );
}

typedef struct
{
	int      nthreads;
	uint64_t seed;
	int64_t  bad;
} hyb_team_thread_t;

static void* team_thread( void* p )
{
	hyb_team_thread_t* a = p;
	hyb_team_t*        t = hyb_team_create( a->nthreads );
	hyb_t_rng_t        r = hyb_t_rng( a->seed );
	for ( int it = 0; it < 400; it++ )
		a->bad += run_cover( t, hyb_t_int( &r, 0, 5000 ), a->nthreads );
	hyb_team_destroy( t );
	return NULL;
}

/* Several teams at once (two pipelines' copy teams, several devices). */
static void test_team_concurrent( void )
{
	pthread_t         th[4];
	hyb_team_thread_t args[4];
	for ( int i = 0; i < 4; i++ )
	{
		args[i] = ( hyb_team_thread_t ){ 1 + i, 710 + (uint64_t)i, 0 };
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, team_thread, &args[i] ), 0 );
	}
	for ( int i = 0; i < 4; i++ )
	{
		pthread_join( th[i], NULL );
		CU_ASSERT_EQUAL( args[i].bad, 0 );
	}
}

/* ------------------------------------------------------------------ copies */

#define GUARD 64

/* Copy `len` bytes from src+so to dst+do with hyb_copy_stream; 1 when the
   destination equals memcpy's and the bytes around it are untouched. */
static int copy_ok( unsigned char* dst, const unsigned char* src, size_t dof, size_t sof,
                    size_t len, unsigned char fill )
{
	memset( dst, fill, dof + len + 2 * GUARD );
	hyb_copy_stream( dst + GUARD + dof, src + sof, len );
	hyb_copy_fence();
	if ( memcmp( dst + GUARD + dof, src + sof, len ) != 0 ) return 0;
	for ( size_t i = 0; i < GUARD + dof; i++ )
		if ( dst[i] != fill ) return 0;
	for ( size_t i = GUARD + dof + len; i < dof + len + 2 * GUARD; i++ )
		if ( dst[i] != fill ) return 0;
	return 1;
}

static void test_copy_lengths( void )
{
	size_t         cap = 10000 + 4 * GUARD + 128;
	unsigned char *src = malloc( cap ), *dst = malloc( cap );
	hyb_t_rng_t    r = hyb_t_rng( 720 );
	for ( size_t i = 0; i < cap; i++ ) src[i] = (unsigned char)hyb_t_next( &r );
	int bad = 0;
	/* Every length 0..10000, with alignments that cycle through all 64 x 64
	   (destination, source) offset pairs. */
	for ( size_t len = 0; len <= 10000; len++ )
		bad +=
		    !copy_ok( dst, src, len % 64, ( len * 7 ) % 64, len, (unsigned char)( len * 13 + 1 ) );
	CU_ASSERT_EQUAL( bad, 0 );
	free( src );
	free( dst );
}

static void test_copy_alignments( void )
{
	static const size_t lens[] = { 4095,      4096, 4097, 4096 + 15, 4096 + 63,
		                           4096 + 64, 8191, 8192, 10000,     65536 + 17 };
	size_t              cap    = 65536 + 17 + 4 * GUARD + 128;
	unsigned char *     src = malloc( cap ), *dst = malloc( cap );
	hyb_t_rng_t         r = hyb_t_rng( 721 );
	for ( size_t i = 0; i < cap; i++ ) src[i] = (unsigned char)hyb_t_next( &r );
	int bad = 0;
	for ( unsigned l = 0; l < sizeof lens / sizeof lens[0]; l++ )
		for ( size_t d = 0; d < 64; d++ )
			for ( size_t s = 0; s < 64; s += ( lens[l] > 10000 ? 7 : 1 ) )
				bad += !copy_ok( dst, src, d, s, lens[l], 0xA5 );
	CU_ASSERT_EQUAL( bad, 0 );
	free( src );
	free( dst );
}

/* Large copies (many 64-byte streaming groups) of random sizes. */
static void test_copy_large( void )
{
	size_t         cap = ( 8u << 20 ) + 4 * GUARD + 128;
	unsigned char *src = malloc( cap ), *dst = malloc( cap );
	hyb_t_rng_t    r = hyb_t_rng( 722 );
	for ( size_t i = 0; i < cap; i++ ) src[i] = (unsigned char)( i * 2654435761u >> 13 );
	int bad = 0;
	for ( int it = 0; it < 20; it++ )
	{
		size_t len = (size_t)hyb_t_int( &r, 1, 8 << 20 );
		bad += !copy_ok( dst, src, (size_t)hyb_t_int( &r, 0, 63 ), (size_t)hyb_t_int( &r, 0, 63 ),
		                 len, 0x3C );
	}
	CU_ASSERT_EQUAL( bad, 0 );
	free( src );
	free( dst );
}

/* hyb_copy_update on `count` elements at byte offset `off` of dst (a
   multiple of the element's own alignment but not always of 16, so that
   every head length and the all-scalar case occur): each element within a
   few roundings of beta d + s, the bytes around the range untouched. */
static int update_ok( hyb_prec_t p, unsigned char* dst, const unsigned char* src, size_t off,
                      size_t count, const double beta[2], hyb_t_rng_t* r )
{
	size_t es = hyb_prec_size( p ), bytes = count * es;
	for ( size_t i = 0; i < off + bytes + 2 * GUARD; i++ ) dst[i] = 0x5A;
	unsigned char* d = dst + GUARD + off;
	for ( size_t i = 0; i < count; i++ )
		hyb_t_set( p, d, (int64_t)i, hyb_t_unit( r ) + I * hyb_t_unit( r ) );
	void* old = malloc( bytes ? bytes : 1 );
	memcpy( old, d, bytes );
	hyb_copy_update( d, src, count, p, beta );
	hyb_copy_fence();
	double complex b   = hyb_prec_is_complex( p ) ? beta[0] + I * beta[1] : beta[0];
	double         eps = p == HYB_PREC_S || p == HYB_PREC_C ? 0x1p-23 : 0x1p-52;
	int            ok  = 1;
	for ( size_t i = 0; i < count && ok; i++ )
	{
		double complex o = hyb_t_get( p, old, (int64_t)i ), s = hyb_t_get( p, src, (int64_t)i );
		double complex want = b * o + s;
		double         tol  = 8 * eps * ( cabs( b ) * cabs( o ) + cabs( s ) );
		ok                  = cabs( hyb_t_get( p, d, (int64_t)i ) - want ) <= tol;
	}
	for ( size_t i = 0; i < GUARD + off && ok; i++ ) ok = dst[i] == 0x5A;
	for ( size_t i = GUARD + off + bytes; i < off + bytes + 2 * GUARD && ok; i++ )
		ok = dst[i] == 0x5A;
	free( old );
	return ok;
}

static void test_copy_update( void )
{
	size_t         cap = 16 * 5000 + 4 * GUARD + 64;
	unsigned char *src = malloc( cap ), *dst = malloc( cap );
	hyb_t_rng_t    r   = hyb_t_rng( 723 );
	int            bad = 0, runs = 0;
	for ( int p = 0; p < HYB_PREC_COUNT; p++ )
	{
		size_t es    = hyb_prec_size( (hyb_prec_t)p ),
		       align = p == HYB_PREC_Z ? 8 : es / ( hyb_prec_is_complex( p ) ? 2 : 1 );
		for ( size_t i = 0; i < 5000; i++ )
			hyb_t_set( (hyb_prec_t)p, src, (int64_t)i, hyb_t_unit( &r ) + I * hyb_t_unit( &r ) );
		for ( size_t count = 0; count < 5000; count += count < 70 ? 1 : 997 )
			for ( size_t k = 0; k < 16 / align; k++ )
			{
				double beta[2] = { hyb_t_unit( &r ), runs % 3 ? hyb_t_unit( &r ) : 0 };
				bad += !update_ok( (hyb_prec_t)p, dst, src, k * align, count, beta, &r );
				runs++;
			}
	}
	CU_ASSERT_EQUAL( bad, 0 );
	CU_ASSERT( runs > 400 );
	free( src );
	free( dst );
}

/* A held team (workers spinning between runs) runs every index exactly once, run after
   run, with the caller's own work between runs; a hold is exclusive, refused when the
   spinning workers would not leave the callers a core, and a released team sleeps and
   still runs correctly. */
static void test_team_hold( void )
{
	cpu_set_t set;
	int       cores = sched_getaffinity( 0, sizeof set, &set ) == 0 ? CPU_COUNT( &set ) : 1;

	/* Too many workers for this machine: refused, and the team works as before. */
	hyb_team_t* big = hyb_team_create( cores );
	CU_ASSERT_PTR_NOT_NULL_FATAL( big );
	CU_ASSERT_EQUAL( hyb_team_hold( big ), 0 );
	CU_ASSERT_EQUAL( run_cover( big, 1000, cores ), 0 );
	hyb_team_destroy( big );
	CU_ASSERT_EQUAL( hyb_team_hold( NULL ), 0 );
	hyb_team_release( NULL );

	if ( cores < 2 ) return; /* no team of one worker or more can be held here */
	int         nt = cores - 1 < 3 ? cores - 1 : 3;
	hyb_team_t* t  = hyb_team_create( nt );
	CU_ASSERT_PTR_NOT_NULL_FATAL( t );
	hyb_t_rng_t r   = hyb_t_rng( 731 );
	int64_t     bad = 0;
	for ( int round = 0; round < 4; round++ )
	{
		CU_ASSERT_EQUAL( hyb_team_hold( t ), 1 );
		CU_ASSERT_EQUAL( hyb_team_hold( t ), 0 ); /* already held */
		/* A second team cannot spin beside it when that would take the last core. */
		hyb_team_t* other = hyb_team_create( cores - nt );
		if ( other ) CU_ASSERT_EQUAL( hyb_team_hold( other ), 0 );
		hyb_team_destroy( other );
		for ( int it = 0; it < 2000; it++ ) bad += run_cover( t, hyb_t_int( &r, 0, 200 ), nt );
		hyb_team_release( t );
		hyb_team_release( t ); /* a second release is harmless */
		/* Released: workers go back to sleep, and runs still complete. */
		usleep( 2000 );
		for ( int it = 0; it < 50; it++ ) bad += run_cover( t, hyb_t_int( &r, 0, 200 ), nt );
	}
	CU_ASSERT_EQUAL( bad, 0 );
	/* Destroyed while held: the spinning workers see quit. */
	CU_ASSERT_EQUAL( hyb_team_hold( t ), 1 );
	hyb_team_destroy( t );
	/* The destroyed team's workers no longer count: a new team of the same size holds. */
	t = hyb_team_create( nt );
	CU_ASSERT_PTR_NOT_NULL_FATAL( t );
	CU_ASSERT_EQUAL( hyb_team_hold( t ), 1 );
	hyb_team_release( t );
	hyb_team_destroy( t );
}

/* One team made at the largest size serves runs on fewer threads (hyb_team_use): each run
   covers every index once in exactly as many ranges as the size in use, clamped to the
   team's workers; workers let back in after sitting out take part again, held or not. */
static void test_team_use( void )
{
	hyb_team_t* t = hyb_team_create( 5 );
	CU_ASSERT_PTR_NOT_NULL_FATAL( t );
	hyb_t_rng_t r   = hyb_t_rng( 757 );
	int64_t     bad = 0;
	for ( int it = 0; it < 600; it++ )
	{
		int want = (int)hyb_t_int( &r, 0, 8 ), size = want < 1 ? 1 : want > 6 ? 6 : want;
		hyb_team_use( t, want );
		CU_ASSERT_EQUAL( hyb_team_size( t ), size );
		int held = it % 3 == 0 && hyb_team_hold( t );
		/* n >= size: every member gets a non-empty range, so the calls count the members. */
		hyb_cover_t c = { .n = 997 };
		c.hits        = calloc( (size_t)c.n, sizeof *c.hits );
		CU_ASSERT_PTR_NOT_NULL_FATAL( c.hits );
		hyb_team_run( t, c.n, cover_fn, &c );
		bad += atomic_load( &c.bad_range ) + ( atomic_load( &c.calls ) != size );
		for ( int64_t i = 0; i < c.n; i++ ) bad += atomic_load( &c.hits[i] ) != 1;
		free( c.hits );
		if ( held ) hyb_team_release( t );
	}
	CU_ASSERT_EQUAL( bad, 0 );
	hyb_team_use( NULL, 3 );
	CU_ASSERT_EQUAL( hyb_team_size( NULL ), 1 );
	hyb_team_use( t, 2 ); /* destroyed with workers parked */
	hyb_team_destroy( t );
}

/* A library thread starts with the asynchronous signals blocked, so the
   program's signals reach only its own threads, and the fault signals
   open, so a program that catches its own faults still sees them; the
   starting thread's mask is as it was. */
typedef struct
{
	hyb_thread_t w;
	int          blocked; /* what the thread saw, under w.mu */
} worker_probe_t;

static void* worker_mask_fn( void* arg )
{
	worker_probe_t* t = arg;
	sigset_t        m;
	pthread_sigmask( SIG_SETMASK, NULL, &m );
	pthread_mutex_lock( &t->w.mu );
	t->blocked = sigismember( &m, SIGINT ) == 1 && sigismember( &m, SIGUSR1 ) == 1 &&
	             sigismember( &m, SIGALRM ) == 1 && sigismember( &m, SIGCHLD ) == 1 &&
	             sigismember( &m, SIGSEGV ) == 0 && sigismember( &m, SIGBUS ) == 0;
	pthread_mutex_unlock( &t->w.mu );
	return NULL;
}

static void test_worker_signals_blocked( void )
{
	worker_probe_t t = { .blocked = -1 };
	sigset_t       before, after;
	pthread_sigmask( SIG_SETMASK, NULL, &before );
	CU_ASSERT_EQUAL_FATAL( hyb_thread_start( &t.w, worker_mask_fn, &t ), HYB_OK );
	pthread_sigmask( SIG_SETMASK, NULL, &after );
	hyb_thread_join( &t.w );
	hyb_thread_end( &t.w );
	CU_ASSERT_EQUAL( t.blocked, 1 );
	CU_ASSERT_EQUAL( sigismember( &after, SIGUSR1 ), sigismember( &before, SIGUSR1 ) );
	CU_ASSERT_EQUAL( sigismember( &after, SIGINT ), sigismember( &before, SIGINT ) );
}

static CU_TestInfo hyb_tests_team_copy[] = {
	{ "team_cover", test_team_cover },
	{ "team_repeat", test_team_repeat },
	{ "team_concurrent", test_team_concurrent },
	{ "team_hold", test_team_hold },
	{ "team_use", test_team_use },
	{ "copy_lengths", test_copy_lengths },
	{ "copy_alignments", test_copy_alignments },
	{ "copy_large", test_copy_large },
	{ "copy_update", test_copy_update },
	{ "worker_signals_blocked", test_worker_signals_blocked },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_team_copy = { "team_copy", NULL, NULL, NULL, NULL, hyb_tests_team_copy };
