/* SPDX-License-Identifier: BSD-3-Clause */
/* Persistent thread team for parallel-for (see hyb_team.h).

   Hand-offs go through atomics; the mutex and condition variables are used only to sleep.
   A worker that finds no new run sleeps unless the team is held; the caller of a run wakes
   sleepers only when there are any. Both sides publish "I am going to sleep" (sleepers,
   waiter) and then re-check the condition, while the other side changes the condition and
   then reads the flag, all sequentially consistent, so one of the two always sees the
   other and no wake-up is lost. */
#define _GNU_SOURCE
#include "hyb_team.h"
#include "hyb_thread.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct hyb_team_s
{
	int             nthreads;
	pthread_t*      threads;
	pthread_mutex_t mu;
	pthread_cond_t  go, done;
	/* The current run: its number above HYB_TEAM_NRUN_BITS, its worker count below.
	   A worker learns from the one load that tells it a run was posted whether the
	   run counts it: a worker that takes part cannot see the next run's fields
	   (that run waits for it), but one that does not could, and must not read
	   them to decide. */
	_Atomic uint64_t generation;
	_Atomic int      remaining;
	_Atomic int      quit;
	_Atomic int      held;     /* 1: idle workers in use spin */
	_Atomic int      sleepers; /* workers asleep (or about to be) on go */
	_Atomic int      waiter;   /* the caller asleep (or about to be) on done */
	/* Workers that take part in runs and holds (ranks 1 .. use); the others wait on
	   `parked` until hyb_team_use lets them in. Changed only between runs. */
	_Atomic int      use;
	_Atomic uint64_t use_generation; /* the generation when `use` last changed */
	int              held_n;         /* workers counted as spinning by the current hold */
	pthread_cond_t   parked;
	/* the current run, written before generation is bumped */
	int     nrun; /* its workers: use at the time of the run */
	int64_t n;
	void ( *fn )( void*, int64_t, int64_t );
	void* arg;
};

typedef struct
{
	hyb_team_t* team;
	int         rank;
} hyb_team_arg_t;

#define HYB_TEAM_NRUN_BITS 16
#define HYB_TEAM_NRUN_MASK ( ( (uint64_t)1 << HYB_TEAM_NRUN_BITS ) - 1 )

/* Iterations (a few microseconds) the caller spins for its workers before sleeping when
   the team is not held: short, because on a machine with fewer cores than threads the
   workers need the core the caller would spin on. */
#define HYB_TEAM_WAIT_SPINS 200

static void hyb_team_range( const hyb_team_t* t, int rank, int64_t* b, int64_t* e )
{
	int64_t parts = t->nrun + 1;
	*b            = t->n * rank / parts;
	*e            = t->n * ( rank + 1 ) / parts;
}

static void hyb_team_wake( hyb_team_t* t, pthread_cond_t* cv, int all )
{
	pthread_mutex_lock( &t->mu );
	if ( all )
		pthread_cond_broadcast( cv );
	else
		pthread_cond_signal( cv );
	pthread_mutex_unlock( &t->mu );
}

/* Wait until a run newer than `seen` is posted (returns its generation) or quit (0). A
   worker beyond the team's `use` sleeps on `parked` and, let in, starts from the runs
   posted after that. */
static uint64_t hyb_team_next( hyb_team_t* t, int rank, uint64_t seen )
{
	for ( ;; )
	{
		if ( rank > atomic_load( &t->use ) && !atomic_load( &t->quit ) )
		{
			pthread_mutex_lock( &t->mu );
			while ( rank > atomic_load( &t->use ) && !atomic_load( &t->quit ) )
				pthread_cond_wait( &t->parked, &t->mu );
			pthread_mutex_unlock( &t->mu );
			/* The runs that count this worker come after it was let in; the caller waits
			   for it before posting another, so it cannot miss one. */
			seen = atomic_load( &t->use_generation );
		}
		uint64_t g = atomic_load( &t->generation );
		if ( atomic_load( &t->quit ) ) return 0;
		if ( g != seen ) return g;
		if ( atomic_load( &t->held ) )
		{
			hyb_cpu_relax();
			continue;
		}
		pthread_mutex_lock( &t->mu );
		atomic_fetch_add( &t->sleepers, 1 );
		while ( atomic_load( &t->generation ) == seen && !atomic_load( &t->quit ) &&
		        !atomic_load( &t->held ) && rank <= atomic_load( &t->use ) )
			pthread_cond_wait( &t->go, &t->mu );
		atomic_fetch_sub( &t->sleepers, 1 );
		pthread_mutex_unlock( &t->mu );
	}
}

static void* hyb_team_main( void* p )
{
	hyb_team_arg_t a    = *(hyb_team_arg_t*)p;
	hyb_team_t*    t    = a.team;
	uint64_t       seen = 0;
	free( p );
	while ( ( seen = hyb_team_next( t, a.rank, seen ) ) != 0 )
	{
		if ( a.rank > (int)( seen & HYB_TEAM_NRUN_MASK ) ) continue; /* a run without it */
		int64_t b, e;
		hyb_team_range( t, a.rank, &b, &e );
		if ( e > b ) t->fn( t->arg, b, e );
		if ( atomic_fetch_sub( &t->remaining, 1 ) == 1 && atomic_load( &t->waiter ) )
			hyb_team_wake( t, &t->done, 0 );
	}
	return NULL;
}

hyb_team_t* hyb_team_create( int nthreads )
{
	if ( nthreads < 1 || (uint64_t)nthreads > HYB_TEAM_NRUN_MASK ) return NULL;
	hyb_team_t* t = calloc( 1, sizeof *t );
	if ( t == NULL ) return NULL;
	t->threads = calloc( (size_t)nthreads, sizeof *t->threads );
	if ( t->threads == NULL )
	{
		free( t );
		return NULL;
	}
	pthread_mutex_init( &t->mu, NULL );
	pthread_cond_init( &t->go, NULL );
	pthread_cond_init( &t->done, NULL );
	pthread_cond_init( &t->parked, NULL );
	atomic_store( &t->use, nthreads );
	for ( int i = 0; i < nthreads; i++ )
	{
		hyb_team_arg_t* a = malloc( sizeof *a );
		if ( a == NULL || ( a->team = t, a->rank = i + 1,
		                    hyb_thread_create( &t->threads[i], NULL, hyb_team_main, a ) != 0 ) )
		{
			free( a );
			t->nthreads = i;
			atomic_store( &t->use, i );
			hyb_team_destroy( t );
			return NULL;
		}
		t->nthreads = i + 1;
	}
	return t;
}

void hyb_team_destroy( hyb_team_t* t )
{
	if ( t == NULL ) return;
	hyb_team_release( t ); /* a held team's workers stop counting */
	atomic_store( &t->quit, 1 );
	hyb_team_wake( t, &t->go, 1 );
	hyb_team_wake( t, &t->parked, 1 );
	for ( int i = 0; i < t->nthreads; i++ ) pthread_join( t->threads[i], NULL );
	pthread_mutex_destroy( &t->mu );
	pthread_cond_destroy( &t->go );
	pthread_cond_destroy( &t->done );
	pthread_cond_destroy( &t->parked );
	free( t->threads );
	free( t );
}

int hyb_team_size( const hyb_team_t* t )
{
	return t ? atomic_load( &t->use ) + 1 : 1;
}

void hyb_team_use( hyb_team_t* t, int threads )
{
	if ( t == NULL ) return;
	int use = threads - 1 < 0 ? 0 : threads - 1 > t->nthreads ? t->nthreads : threads - 1;
	atomic_store( &t->use_generation, atomic_load( &t->generation ) );
	if ( atomic_exchange( &t->use, use ) < use ) hyb_team_wake( t, &t->parked, 1 );
}

/* Workers of all held teams, process-wide, against the cores this process may use. */
static _Atomic int hyb_team_spinning;

static int hyb_team_cores( void )
{
	static _Atomic int cores;
	int                c = atomic_load( &cores );
	if ( c > 0 ) return c;
	cpu_set_t set;
	c = sched_getaffinity( 0, sizeof set, &set ) == 0 ? CPU_COUNT( &set )
	                                                  : (int)sysconf( _SC_NPROCESSORS_ONLN );
	if ( c < 1 ) c = 1;
	atomic_store( &cores, c );
	return c;
}

int hyb_team_hold( hyb_team_t* t )
{
	int n = t ? atomic_load( &t->use ) : 0;
	if ( n < 1 ) return 0;
	int spinning = atomic_fetch_add( &hyb_team_spinning, n ) + n;
	int prev     = 0;
	if ( spinning + 1 > hyb_team_cores() || !atomic_compare_exchange_strong( &t->held, &prev, 1 ) )
	{
		atomic_fetch_sub( &hyb_team_spinning, n );
		return 0;
	}
	t->held_n = n;
	if ( atomic_load( &t->sleepers ) ) hyb_team_wake( t, &t->go, 1 );
	return 1;
}

void hyb_team_release( hyb_team_t* t )
{
	if ( t == NULL ) return;
	int prev = 1;
	if ( atomic_compare_exchange_strong( &t->held, &prev, 0 ) )
		atomic_fetch_sub( &hyb_team_spinning, t->held_n );
}

void hyb_team_run( hyb_team_t* t, int64_t n, void ( *fn )( void* arg, int64_t begin, int64_t end ),
                   void* arg )
{
	if ( n <= 0 ) return;
	if ( t == NULL || atomic_load( &t->use ) == 0 || n == 1 )
	{
		fn( arg, 0, n );
		return;
	}
	t->nrun = atomic_load( &t->use );
	t->n    = n;
	t->fn   = fn;
	t->arg  = arg;
	atomic_store( &t->remaining, t->nrun );
	/* Only the caller posts runs. */
	const uint64_t g = atomic_load( &t->generation ) >> HYB_TEAM_NRUN_BITS;
	atomic_store( &t->generation, ( g + 1 ) << HYB_TEAM_NRUN_BITS | (uint64_t)t->nrun );
	if ( atomic_load( &t->sleepers ) ) hyb_team_wake( t, &t->go, 1 );

	int64_t b, e;
	hyb_team_range( t, 0, &b, &e );
	if ( e > b ) fn( arg, b, e );

	for ( int spins = 0; atomic_load( &t->remaining ) > 0; spins++ )
	{
		if ( atomic_load( &t->held ) || spins < HYB_TEAM_WAIT_SPINS )
		{
			hyb_cpu_relax();
			continue;
		}
		pthread_mutex_lock( &t->mu );
		atomic_store( &t->waiter, 1 );
		while ( atomic_load( &t->remaining ) > 0 ) pthread_cond_wait( &t->done, &t->mu );
		atomic_store( &t->waiter, 0 );
		pthread_mutex_unlock( &t->mu );
	}
}
