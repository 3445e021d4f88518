/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-thread recursion depth and the fork gate (see hyb_guard.h).

   Each thread that enters the real library owns a record with an `inside`
   flag, on a list that only grows (a record whose thread ended is taken
   again by the next new thread, so the list is as long as the most threads
   inside at once). Entering stores inside = 1 and then reads `closing`;
   fork's prepare stores closing = 1 and then reads every inside flag: with
   sequentially consistent atomics either the entering thread sees the gate
   closed (and steps back and waits) or the forking thread sees it inside
   (and waits for it to leave). Cost on the hot path: a store, a load of a
   read-mostly flag, a release store, per outermost call. */
#include "hyb_guard.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "hyb_state.h"

__thread unsigned hyb_tls_depth __attribute__( ( tls_model( "initial-exec" ) ) ) = 0;

typedef struct hyb_guard_rec
{
	atomic_uint           inside;
	atomic_int            owned; /* a live thread owns it */
	struct hyb_guard_rec* next;
} hyb_guard_rec_t;

static _Atomic( hyb_guard_rec_t* ) hyb_guard_list;
static atomic_int                  hyb_guard_closing;
static __thread hyb_guard_rec_t*   hyb_tls_rec __attribute__( ( tls_model( "initial-exec" ) ) );
static pthread_key_t               hyb_guard_key;
static pthread_once_t              hyb_guard_once = PTHREAD_ONCE_INIT;
static int                         hyb_guard_key_ok;

/* A thread's end gives its record back. */
static void hyb_guard_release( void* p )
{
	hyb_guard_rec_t* r = p;
	atomic_store( &r->inside, 0 );
	atomic_store( &r->owned, 0 );
}

static void hyb_guard_key_make( void )
{
	hyb_guard_key_ok = pthread_key_create( &hyb_guard_key, hyb_guard_release ) == 0;
}

/* The calling thread's record: a released one taken again, else a new one
   pushed on the list. NULL when none can be had (the thread goes ungated). */
static hyb_guard_rec_t* hyb_guard_record( void )
{
	pthread_once( &hyb_guard_once, hyb_guard_key_make );
	hyb_guard_rec_t* r = NULL;
	for ( hyb_guard_rec_t* q = atomic_load( &hyb_guard_list ); q && !r; q = q->next )
	{
		int free_ = 0;
		if ( atomic_compare_exchange_strong( &q->owned, &free_, 1 ) ) r = q;
	}
	if ( r == NULL )
	{
		r = calloc( 1, sizeof *r );
		if ( r == NULL ) return NULL;
		atomic_store( &r->owned, 1 );
		hyb_guard_rec_t* head = atomic_load( &hyb_guard_list );
		do r->next = head;
		while ( !atomic_compare_exchange_weak( &hyb_guard_list, &head, r ) );
	}
	if ( hyb_guard_key_ok ) pthread_setspecific( hyb_guard_key, r );
	hyb_tls_rec = r;
	return r;
}

static void hyb_guard_nap( void )
{
	const struct timespec ts = { 0, 100000 }; /* 0.1 ms */
	nanosleep( &ts, NULL );
}

void hyb_guard_gate_in( void )
{
	hyb_guard_rec_t* r = hyb_tls_rec ? hyb_tls_rec : hyb_guard_record();
	if ( r == NULL ) return;
	for ( ;; )
	{
		atomic_store( &r->inside, 1 );
		/* A thread holding one of the library's locks goes in: fork's
		   prepare takes those locks after the gate, so it would wait for
		   this thread while this thread waited for the fork. */
		if ( !atomic_load( &hyb_guard_closing ) || hyb_state_holds_locks() ) return;
		atomic_store( &r->inside, 0 );
		while ( atomic_load( &hyb_guard_closing ) ) hyb_guard_nap();
	}
}

void hyb_guard_gate_out( void )
{
	if ( hyb_tls_rec ) atomic_store_explicit( &hyb_tls_rec->inside, 0, memory_order_release );
}

static double hyb_guard_now( void )
{
	struct timespec ts;
	clock_gettime( CLOCK_MONOTONIC, &ts );
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int hyb_guard_fork_close( double max_s )
{
	atomic_store( &hyb_guard_closing, 1 );
	const double end = hyb_guard_now() + max_s;
	for ( ;; )
	{
		int busy = 0;
		for ( hyb_guard_rec_t* q = atomic_load( &hyb_guard_list ); q && !busy; q = q->next )
			busy = q != hyb_tls_rec && atomic_load( &q->inside );
		if ( !busy ) return 1;
		if ( hyb_guard_now() >= end ) return 0;
		hyb_guard_nap();
	}
}

void hyb_guard_fork_open( int child )
{
	/* The child has this thread only: every other record's thread is gone. */
	for ( hyb_guard_rec_t* q = atomic_load( &hyb_guard_list ); child && q; q = q->next )
		if ( q != hyb_tls_rec )
		{
			atomic_store( &q->inside, 0 );
			atomic_store( &q->owned, 0 );
		}
	atomic_store( &hyb_guard_closing, 0 );
}
