/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil run's host-step thread (see hyb_stencil_hostq.h). */
#include "dispatch/stencil/hyb_stencil_hostq.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_copy.h"
#include "hyb_thread.h"

/* Copies waiting at most; a push beyond waits for room. */
#define HYB_HQ_RING 256
/* Pieces of a team copy: large enough that a piece runs at the memory's
   rate, small enough to share a chunk's planes out evenly. */
#define HYB_HQ_PIECE ( (size_t)1 << 20 )

typedef struct
{
	hyb_devent_t* ev[HYB_SD_HOSTQ_EVENTS];
	int           nev;
	void*         dst;
	const void*   src;
	size_t        bytes;
} hyb_hq_item_t;

struct hyb_sd_hostq_s
{
	hyb_dev_t*    dev;
	hyb_team_t*   team;
	hyb_thread_t  w; /* the thread, and the lock and condition shared with it */
	hyb_hq_item_t ring[HYB_HQ_RING];
	uint64_t      pushed, done; /* under w.mu */
	int           stop;         /* under w.mu */
	_Atomic int   err;          /* hyb_status_t of the first failure */
};

static int hyb_hq_overlap( const void* a, const void* b, size_t n )
{
	const char *x = a, *y = b;
	return x < y + n && y < x + n;
}

static void hyb_hq_run( hyb_sd_hostq_t* q, const hyb_hq_item_t* it )
{
	for ( int e = 0; e < it->nev && atomic_load( &q->err ) == HYB_OK; e++ )
	{
		const hyb_status_t rc = hyb_dev_sync( q->dev, it->ev[e] );
		if ( rc != HYB_OK )
		{
			int ok = HYB_OK;
			atomic_compare_exchange_strong( &q->err, &ok, (int)rc );
		}
	}
	if ( atomic_load( &q->err ) != HYB_OK ) return;
	if ( hyb_hq_overlap( it->dst, it->src, it->bytes ) || it->bytes < HYB_HQ_PIECE )
		memmove( it->dst, it->src, it->bytes );
	else
		hyb_copy_team( q->team, it->dst, it->src, it->bytes, HYB_HQ_PIECE );
}

static void* hyb_hq_main( void* arg )
{
	hyb_sd_hostq_t* q = arg;
	pthread_mutex_lock( &q->w.mu );
	for ( ;; )
	{
		while ( q->done == q->pushed && !q->stop ) pthread_cond_wait( &q->w.cv, &q->w.mu );
		if ( q->done == q->pushed ) break;
		const hyb_hq_item_t it = q->ring[q->done % HYB_HQ_RING];
		pthread_mutex_unlock( &q->w.mu );
		hyb_hq_run( q, &it );
		pthread_mutex_lock( &q->w.mu );
		q->done++;
		pthread_cond_broadcast( &q->w.cv );
	}
	pthread_mutex_unlock( &q->w.mu );
	return NULL;
}

hyb_status_t hyb_sd_hostq_start( hyb_dev_t* dev, hyb_team_t* team, hyb_sd_hostq_t** out )
{
	*out              = NULL;
	hyb_sd_hostq_t* q = calloc( 1, sizeof *q );
	if ( q == NULL ) return HYB_E_NO_MEMORY;
	q->dev  = dev;
	q->team = team;
	atomic_init( &q->err, HYB_OK );
	if ( hyb_thread_start( &q->w, hyb_hq_main, q ) != HYB_OK )
	{
		free( q );
		return HYB_E_NO_MEMORY;
	}
	*out = q;
	return HYB_OK;
}

hyb_status_t hyb_sd_hostq_push( hyb_sd_hostq_t* q, hyb_devent_t* const* ev, int nev, void* dst,
                                const void* src, size_t bytes, uint64_t* seq )
{
	if ( nev < 0 || nev > HYB_SD_HOSTQ_EVENTS ) return HYB_E_INVALID;
	hyb_hq_item_t it = { .nev = nev, .dst = dst, .src = src, .bytes = bytes };
	if ( nev ) memcpy( it.ev, ev, (size_t)nev * sizeof *ev );
	pthread_mutex_lock( &q->w.mu );
	while ( q->pushed - q->done >= HYB_HQ_RING ) pthread_cond_wait( &q->w.cv, &q->w.mu );
	q->ring[q->pushed % HYB_HQ_RING] = it;
	*seq                             = ++q->pushed;
	pthread_cond_broadcast( &q->w.cv );
	pthread_mutex_unlock( &q->w.mu );
	return (hyb_status_t)atomic_load( &q->err );
}

uint64_t hyb_sd_hostq_pushed( const hyb_sd_hostq_t* q )
{
	/* Only the issuing thread pushes, and only it asks. */
	return q->pushed;
}

hyb_status_t hyb_sd_hostq_wait( hyb_sd_hostq_t* q, uint64_t seq )
{
	pthread_mutex_lock( &q->w.mu );
	while ( q->done < seq ) pthread_cond_wait( &q->w.cv, &q->w.mu );
	pthread_mutex_unlock( &q->w.mu );
	return (hyb_status_t)atomic_load( &q->err );
}

hyb_status_t hyb_sd_hostq_status( hyb_sd_hostq_t* q )
{
	return (hyb_status_t)atomic_load( &q->err );
}

hyb_status_t hyb_sd_hostq_stop( hyb_sd_hostq_t* q )
{
	if ( q == NULL ) return HYB_OK;
	pthread_mutex_lock( &q->w.mu );
	q->stop = 1;
	pthread_cond_broadcast( &q->w.cv );
	pthread_mutex_unlock( &q->w.mu );
	hyb_thread_join( &q->w );
	hyb_thread_end( &q->w );
	const hyb_status_t rc = (hyb_status_t)atomic_load( &q->err );
	free( q );
	return rc;
}
