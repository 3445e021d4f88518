/* SPDX-License-Identifier: BSD-3-Clause */
/* The stencil run's rollback copy on its own thread (see hyb_stencil_keep.h). */
#include "dispatch/stencil/hyb_stencil_keep.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hyb_copy.h"
#include "hyb_thread.h"
#include "hyb_types.h"

/* Bytes of an array kept in one step: small against a chunk of planes, so
   a write rarely waits for more than it needs; large against the team's
   start-up. */
#define HYB_KEEP_PIECE ( (size_t)16 << 20 )
/* Pieces of a team copy. */
#define HYB_KEEP_TEAM_PIECE ( (size_t)1 << 20 )

struct hyb_sd_keep_s
{
	char*             src[HYB_SD_KEEP_ARRAYS];
	char*             copy; /* n arrays of `bytes`, end to end: the caller's memory or own */
	hyb_sd_keep_mem_t own;
	int               n;
	size_t            bytes;
	hyb_team_t*       team;
	hyb_thread_t      w; /* the thread, and the lock and condition shared with it */
	size_t            kept[HYB_SD_KEEP_ARRAYS]; /* under w.mu */
	size_t            want[HYB_SD_KEEP_ARRAYS]; /* under w.mu: what a waiting write needs */
	int               rank[HYB_SD_KEEP_ARRAYS]; /* lower: written sooner by the run */
	int               stop;                     /* under w.mu */
	double            waited;                   /* under w.mu */
};

static _Atomic unsigned hyb_keep_delay_us;
static _Atomic size_t   hyb_keep_piece;

void hyb_sd_keep_test( unsigned us, size_t piece )
{
	atomic_store( &hyb_keep_delay_us, us );
	atomic_store( &hyb_keep_piece, piece );
}

/* The array to keep a piece of next (under w.mu; -1: all kept): the least
   kept of those a write waits for, else the least kept of those the run
   writes first (the lowest rank). A run writes one level well before
   another (the acoustic's first block overwrites its older input level
   chunk by chunk, the second block the other), so the copy's whole rate
   goes to the level written first and the next is kept before its block
   starts; levels written side by side (the damped wave's two quantities)
   are kept side by side. */
static int hyb_keep_next( const hyb_sd_keep_t* k )
{
	int next = -1, waited = 0;
	for ( int a = 0; a < k->n; a++ )
	{
		if ( k->kept[a] >= k->bytes ) continue;
		const int w = k->want[a] > k->kept[a];
		int       better;
		if ( next < 0 || w != waited )
			better = next < 0 || w;
		else if ( !w && k->rank[a] != k->rank[next] )
			better = k->rank[a] < k->rank[next];
		else
			better = k->kept[a] < k->kept[next];
		if ( better )
		{
			next   = a;
			waited = w;
		}
	}
	return next;
}

static void* hyb_keep_main( void* arg )
{
	hyb_sd_keep_t* k     = arg;
	const size_t   asked = atomic_load( &hyb_keep_piece );
	const size_t   piece = asked ? asked : HYB_KEEP_PIECE;
	pthread_mutex_lock( &k->w.mu );
	for ( int a; !k->stop && ( a = hyb_keep_next( k ) ) >= 0; )
	{
		const size_t off = k->kept[a];
		const size_t len = k->bytes - off < piece ? k->bytes - off : piece;
		pthread_mutex_unlock( &k->w.mu );
		const unsigned us = atomic_load( &hyb_keep_delay_us );
		if ( us ) usleep( us );
		hyb_copy_team( k->team, k->copy + (size_t)a * k->bytes + off, k->src[a] + off, len,
		               HYB_KEEP_TEAM_PIECE );
		pthread_mutex_lock( &k->w.mu );
		k->kept[a] = off + len;
		pthread_cond_broadcast( &k->w.cv );
	}
	pthread_mutex_unlock( &k->w.mu );
	return NULL;
}

int hyb_sd_keep_team_size( const int* rank, int n, int threads )
{
	if ( rank == NULL || n < 1 ) return threads > 1 ? threads : 1;
	int most = 0;
	for ( int a = 0; a < n; a++ )
	{
		int same = 0;
		for ( int b = 0; b < n; b++ ) same += rank[b] == rank[a];
		most = same > most ? same : most;
	}
	const int t = ( threads * most + n - 1 ) / n;
	return t > 1 ? t : 1;
}

/* Map `bytes` (rounded up to pages) into m; HYB_E_NO_MEMORY leaves m empty. */
static hyb_status_t hyb_keep_map( hyb_sd_keep_mem_t* m, size_t bytes )
{
	const size_t page = (size_t)sysconf( _SC_PAGESIZE );
	const size_t len  = bytes ? ( bytes + page - 1 ) / page * page : page;
	void*        a = mmap( NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	m->mem         = NULL;
	m->bytes       = 0;
	if ( a == MAP_FAILED ) return HYB_E_NO_MEMORY;
#ifdef MADV_HUGEPAGE
	/* Large pages where the system allows them: the first copy touches
	   every page, and small pages make it fault-bound. */
	madvise( a, len, MADV_HUGEPAGE );
#endif
	m->mem   = a;
	m->bytes = len;
	return HYB_OK;
}

void hyb_sd_keep_mem_free( hyb_sd_keep_mem_t* m )
{
	if ( m->mem ) munmap( m->mem, m->bytes );
	m->mem   = NULL;
	m->bytes = 0;
}

hyb_status_t hyb_sd_keep_start( void* const* arrays, const int* rank, int n, size_t bytes,
                                int threads, hyb_sd_keep_mem_t* mem, hyb_sd_keep_t** out )
{
	*out = NULL;
	if ( n < 1 || n > HYB_SD_KEEP_ARRAYS ) return HYB_E_INVALID;
	hyb_sd_keep_t* k = calloc( 1, sizeof *k );
	if ( k == NULL ) return HYB_E_NO_MEMORY;
	const size_t need = (size_t)n * bytes;
	if ( mem && mem->bytes < need ) hyb_sd_keep_mem_free( mem );
	hyb_sd_keep_mem_t* m = mem ? mem : &k->own;
	if ( m->mem == NULL && hyb_keep_map( m, need ) != HYB_OK )
	{
		free( k );
		return HYB_E_NO_MEMORY;
	}
	k->copy  = m->mem;
	k->n     = n;
	k->bytes = bytes;
	for ( int a = 0; a < n; a++ )
	{
		k->src[a]  = arrays[a];
		k->rank[a] = rank ? rank[a] : 0;
	}
	k->team = threads > 1 ? hyb_team_create( threads - 1 ) : NULL;
	if ( hyb_thread_start( &k->w, hyb_keep_main, k ) != HYB_OK )
	{
		hyb_team_destroy( k->team );
		hyb_sd_keep_mem_free( &k->own );
		free( k );
		return HYB_E_NO_MEMORY;
	}
	*out = k;
	return HYB_OK;
}

void hyb_sd_keep_cover( hyb_sd_keep_t* k, const void* dst, size_t len )
{
	if ( k == NULL ) return;
	const char* p = dst;
	for ( int a = 0; a < k->n; a++ )
	{
		if ( p < k->src[a] || p >= k->src[a] + k->bytes ) continue;
		const size_t end  = (size_t)( p - k->src[a] ) + len;
		const size_t need = end < k->bytes ? end : k->bytes;
		pthread_mutex_lock( &k->w.mu );
		if ( k->kept[a] < need )
		{
			const double t0 = hyb_now();
			if ( k->want[a] < need ) k->want[a] = need;
			while ( k->kept[a] < need ) pthread_cond_wait( &k->w.cv, &k->w.mu );
			k->waited += hyb_now() - t0;
		}
		pthread_mutex_unlock( &k->w.mu );
		return;
	}
}

double hyb_sd_keep_waited( hyb_sd_keep_t* k )
{
	if ( k == NULL ) return 0.0;
	pthread_mutex_lock( &k->w.mu );
	const double w = k->waited;
	pthread_mutex_unlock( &k->w.mu );
	return w;
}

size_t hyb_sd_keep_kept( hyb_sd_keep_t* k, int a )
{
	if ( k == NULL || a < 0 || a >= k->n ) return 0;
	pthread_mutex_lock( &k->w.mu );
	const size_t kept = k->kept[a];
	pthread_mutex_unlock( &k->w.mu );
	return kept;
}

void hyb_sd_keep_end( hyb_sd_keep_t* k, int restore, hyb_team_t* team )
{
	if ( k == NULL ) return;
	pthread_mutex_lock( &k->w.mu );
	k->stop = 1;
	pthread_mutex_unlock( &k->w.mu );
	hyb_thread_join( &k->w );
	hyb_thread_end( &k->w );
	for ( int a = 0; restore && a < k->n; a++ )
		hyb_copy_team( team, k->src[a], k->copy + (size_t)a * k->bytes, k->kept[a],
		               HYB_KEEP_TEAM_PIECE );
	hyb_team_destroy( k->team );
	hyb_sd_keep_mem_free( &k->own );
	free( k );
}
