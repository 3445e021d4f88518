/* SPDX-License-Identifier: BSD-3-Clause */
/* Persistent thread team for parallel-for (see hyb_team.h). */
#include "hyb_team.h"

#include <pthread.h>
#include <stdlib.h>

struct hyb_team_s
{
	int             nthreads;
	pthread_t*      threads;
	pthread_mutex_t mu;
	pthread_cond_t  go, done;
	uint64_t        generation;
	int             remaining, quit;
	int64_t         n;
	void ( *fn )( void*, int64_t, int64_t );
	void* arg;
};

typedef struct
{
	hyb_team_t* team;
	int         rank;
} hyb_team_arg_t;

static void hyb_team_range( const hyb_team_t* t, int rank, int64_t* b, int64_t* e )
{
	int64_t parts = t->nthreads + 1;
	*b            = t->n * rank / parts;
	*e            = t->n * ( rank + 1 ) / parts;
}

static void* hyb_team_main( void* p )
{
	hyb_team_arg_t a    = *(hyb_team_arg_t*)p;
	hyb_team_t*    t    = a.team;
	uint64_t       seen = 0;
	free( p );
	pthread_mutex_lock( &t->mu );
	for ( ;; )
	{
		while ( t->generation == seen && !t->quit ) pthread_cond_wait( &t->go, &t->mu );
		if ( t->quit ) break;
		seen = t->generation;
		int64_t b, e;
		hyb_team_range( t, a.rank, &b, &e );
		pthread_mutex_unlock( &t->mu );
		if ( e > b ) t->fn( t->arg, b, e );
		pthread_mutex_lock( &t->mu );
		if ( --t->remaining == 0 ) pthread_cond_signal( &t->done );
	}
	pthread_mutex_unlock( &t->mu );
	return NULL;
}

hyb_team_t* hyb_team_create( int nthreads )
{
	if ( nthreads < 1 ) return NULL;
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
	for ( int i = 0; i < nthreads; i++ )
	{
		hyb_team_arg_t* a = malloc( sizeof *a );
		if ( a == NULL || ( a->team = t, a->rank = i + 1,
		                    pthread_create( &t->threads[i], NULL, hyb_team_main, a ) != 0 ) )
		{
			free( a );
			t->nthreads = i;
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
	pthread_mutex_lock( &t->mu );
	t->quit = 1;
	pthread_cond_broadcast( &t->go );
	pthread_mutex_unlock( &t->mu );
	for ( int i = 0; i < t->nthreads; i++ ) pthread_join( t->threads[i], NULL );
	pthread_mutex_destroy( &t->mu );
	pthread_cond_destroy( &t->go );
	pthread_cond_destroy( &t->done );
	free( t->threads );
	free( t );
}

int hyb_team_size( const hyb_team_t* t )
{
	return t ? t->nthreads + 1 : 1;
}

void hyb_team_run( hyb_team_t* t, int64_t n, void ( *fn )( void* arg, int64_t begin, int64_t end ),
                   void* arg )
{
	if ( n <= 0 ) return;
	if ( t == NULL || t->nthreads == 0 || n == 1 )
	{
		fn( arg, 0, n );
		return;
	}
	pthread_mutex_lock( &t->mu );
	t->n         = n;
	t->fn        = fn;
	t->arg       = arg;
	t->remaining = t->nthreads;
	t->generation++;
	pthread_cond_broadcast( &t->go );
	pthread_mutex_unlock( &t->mu );

	int64_t b, e;
	hyb_team_range( t, 0, &b, &e );
	if ( e > b ) fn( arg, b, e );

	pthread_mutex_lock( &t->mu );
	while ( t->remaining > 0 ) pthread_cond_wait( &t->done, &t->mu );
	pthread_mutex_unlock( &t->mu );
}
