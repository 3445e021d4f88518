/* SPDX-License-Identifier: BSD-3-Clause */
/* Registered vectors of the sparse products, and y's per-call proof (see hyb_spmv_yreg.h). */
#include "kernels/pipeline/hyb_spmv_yreg.h"

#include <omp.h>
#include <stdatomic.h>
#include <string.h>

#include "hyb_countdown.h"
#include "hyb_log.h"
#include "hyb_state.h"

#define HYB_YREG_PAGE ( (uintptr_t)4096 )
/* Ranges seen once (candidates for registration at their second call), and ranges refused:
   whose registration the driver refused (a read-only mapping, a lock limit) or whose
   registration failed its proof. A refused range is not tried again for HYB_YREG_REFUSED_FOR
   uses of the registry, so that it costs one failed registration, not one per call, while a
   cause that passes (a lock limit, other registrations gone) does not stage it for good. */
#define HYB_YREG_SEEN        16
#define HYB_YREG_REFUSED_FOR 1024
/* A registration idle for this many uses of the registry may be evicted for x
   (HYB_SPMV_REG_EVICT_IDLE): a vector the program dropped frees its slot in time, while
   vectors used in turn (a Krylov basis) never evict one another. */
#define HYB_YREG_IDLE 256

struct hyb_spmv_yreg_s
{
	void*    y;
	size_t   bytes;
	size_t   elem;
	int      dev;
	int      used; /* slot in use (registered or being registered) */
	int      held; /* a call is using it */
	uint64_t lru;
	uint64_t token;
	size_t   span; /* the call's tokens cover [y, y + span) */
};

/* Under HYB_LOCK_SPMV_YREG (but the atomics). */
static struct
{
	uint64_t        clock;
	size_t          total;
	hyb_spmv_yreg_t e[HYB_SPMV_YREG_MAX];
	struct
	{
		void*    y;
		size_t   bytes;
		uint64_t at; /* refused: the clock then */
	} seen[HYB_YREG_SEEN], refused[HYB_YREG_SEEN];
	int              seen_next, refused_next;
	_Atomic uint64_t tokens;
	_Atomic uint64_t proved, failed;
	_Atomic uint64_t made; /* registrations made */
	_Atomic int      fail_next;
} hyb_yreg;

/* fork() child hook: the registrations belong to the parent's device context, which the
   child never uses; forget them (never unregistered here). */
static void hyb_yreg_fork_child( void )
{
	memset( hyb_yreg.e, 0, sizeof hyb_yreg.e );
	hyb_yreg.total = 0;
}

static int hyb_yreg_overlaps( const void* a, size_t an, const void* b, size_t bn )
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
	return x < y + bn && y < x + an;
}

/* Unregister slot i (not held); the lock is held and stays held (unregistering is quick). */
static void hyb_yreg_drop_locked( hyb_dev_t* d, int i )
{
	hyb_spmv_yreg_t* s = &hyb_yreg.e[i];
	if ( d ) hyb_dev_unregister( d, s->y );
	hyb_yreg.total -= s->bytes;
	memset( s, 0, sizeof *s );
}

/* Remember a refused range (the lock is held). */
static void hyb_yreg_refuse_locked( void* y, size_t bytes )
{
	hyb_yreg.refused[hyb_yreg.refused_next].y     = y;
	hyb_yreg.refused[hyb_yreg.refused_next].bytes = bytes;
	hyb_yreg.refused[hyb_yreg.refused_next].at    = hyb_yreg.clock;
	hyb_yreg.refused_next                         = ( hyb_yreg.refused_next + 1 ) % HYB_YREG_SEEN;
}

hyb_spmv_yreg_t* hyb_spmv_yreg_get( hyb_dev_t* d, void* y, size_t bytes, size_t elem,
                                    unsigned flags )
{
	if ( bytes < HYB_SPMV_YREG_MIN || bytes > HYB_SPMV_YREG_BYTES || elem == 0 ||
	     (uintptr_t)y % elem )
		return NULL;
	hyb_lock( HYB_LOCK_SPMV_YREG );
	hyb_spmv_yreg_t* hit = NULL;
	for ( int i = 0; i < HYB_SPMV_YREG_MAX; i++ )
	{
		hyb_spmv_yreg_t* s = &hyb_yreg.e[i];
		if ( s->used && s->y == y && s->bytes == bytes && s->dev == d->index ) hit = s;
	}
	if ( hit )
	{
		hyb_spmv_yreg_t* r = NULL;
		if ( !hit->held )
		{
			hit->held = 1;
			hit->lru  = ++hyb_yreg.clock;
			hit->elem = elem;
			r         = hit;
		}
		hyb_unlock( HYB_LOCK_SPMV_YREG );
		return r;
	}
	for ( int i = 0; i < HYB_YREG_SEEN; i++ )
		if ( hyb_yreg.refused[i].y == y && hyb_yreg.refused[i].bytes == bytes &&
		     hyb_yreg.clock - hyb_yreg.refused[i].at < HYB_YREG_REFUSED_FOR )
		{
			hyb_unlock( HYB_LOCK_SPMV_YREG );
			return NULL;
		}
	/* Register at the second sighting: a vector used once is not worth 35 ms/GiB. */
	int seen = ( flags & HYB_SPMV_REG_EAGER ) != 0;
	for ( int i = 0; i < HYB_YREG_SEEN && !seen; i++ )
		seen = hyb_yreg.seen[i].y == y && hyb_yreg.seen[i].bytes == bytes;
	if ( !seen )
	{
		hyb_yreg.seen[hyb_yreg.seen_next].y     = y;
		hyb_yreg.seen[hyb_yreg.seen_next].bytes = bytes;
		hyb_yreg.seen_next                      = ( hyb_yreg.seen_next + 1 ) % HYB_YREG_SEEN;
		hyb_unlock( HYB_LOCK_SPMV_YREG );
		return NULL;
	}
	/* Older registrations overlapping this range are stale: the application reuses the
	   addresses for another vector. One in use by another call blocks the new one. */
	for ( int i = 0; i < HYB_SPMV_YREG_MAX; i++ )
	{
		hyb_spmv_yreg_t* s = &hyb_yreg.e[i];
		if ( !s->used || !hyb_yreg_overlaps( s->y, s->bytes, y, bytes ) ) continue;
		if ( s->held )
		{
			hyb_unlock( HYB_LOCK_SPMV_YREG );
			return NULL;
		}
		hyb_yreg_drop_locked( d, i );
	}
	/* Room: a free slot and the byte bound, evicting the least recently used (with
	   HYB_SPMV_REG_EVICT_IDLE only if it has been idle long). */
	for ( ;; )
	{
		int free_slot = -1, victim = -1;
		for ( int i = 0; i < HYB_SPMV_YREG_MAX; i++ )
		{
			hyb_spmv_yreg_t* s = &hyb_yreg.e[i];
			if ( !s->used && free_slot < 0 ) free_slot = i;
			if ( s->used && !s->held && ( victim < 0 || s->lru < hyb_yreg.e[victim].lru ) )
				victim = i;
		}
		if ( free_slot >= 0 && hyb_yreg.total + bytes <= HYB_SPMV_YREG_BYTES )
		{
			hyb_spmv_yreg_t* s = &hyb_yreg.e[free_slot];
			s->used            = 1;
			s->held            = 1;
			s->y               = y;
			s->bytes           = bytes;
			s->elem            = elem;
			s->dev             = d->index;
			s->lru             = ++hyb_yreg.clock;
			hyb_yreg.total += bytes;
			hyb_state_on_fork_child( HYB_LOCK_SPMV_YREG, hyb_yreg_fork_child );
			hyb_unlock( HYB_LOCK_SPMV_YREG );
			/* Registering takes tens of milliseconds per GiB: outside the lock (the slot is
			   held, so nobody else touches it meanwhile). */
			if ( hyb_dev_register( d, y, bytes ) == HYB_OK )
			{
				atomic_fetch_add( &hyb_yreg.made, 1 );
				return s;
			}
			hyb_lock( HYB_LOCK_SPMV_YREG );
			hyb_yreg.total -= bytes;
			memset( s, 0, sizeof *s );
			hyb_yreg_refuse_locked( y, bytes );
			hyb_unlock( HYB_LOCK_SPMV_YREG );
			HYB_LOG( HYB_LOG_INFO,
			         "SpMV: a vector (%zu bytes) could not be registered; staged for a while",
			         bytes );
			return NULL;
		}
		if ( victim < 0 || ( ( flags & HYB_SPMV_REG_EVICT_IDLE ) &&
		                     hyb_yreg.clock - hyb_yreg.e[victim].lru < HYB_YREG_IDLE ) )
		{
			hyb_unlock( HYB_LOCK_SPMV_YREG );
			return NULL;
		}
		hyb_yreg_drop_locked( d, victim );
	}
}

/* Pages of y (4 KiB, counted from the page holding y's first byte). */
static int64_t hyb_yreg_pages( const hyb_spmv_yreg_t* e )
{
	uintptr_t b = (uintptr_t)e->y, pg = b & ~( HYB_YREG_PAGE - 1 );
	return (int64_t)( ( b + e->span - pg + HYB_YREG_PAGE - 1 ) / HYB_YREG_PAGE );
}

/* Index of y's first element that lies wholly in page p, or -1 if none does. */
static inline int64_t hyb_yreg_index( const hyb_spmv_yreg_t* e, int64_t p )
{
	uintptr_t b     = (uintptr_t)e->y;
	uintptr_t start = ( b & ~( HYB_YREG_PAGE - 1 ) ) + (uintptr_t)p * HYB_YREG_PAGE;
	uintptr_t first = start <= b ? b : start;
	size_t    idx   = ( first - b + e->elem - 1 ) / e->elem;
	uintptr_t at    = b + idx * e->elem;
	if ( at + e->elem > b + e->span || at >= start + HYB_YREG_PAGE ) return -1;
	return (int64_t)idx;
}

/* The tokens' pages [b, e) of one entry, written (arm) or read back (check), on a team's
   thread; `count` and `stale` gather the parts. */
typedef struct
{
	hyb_spmv_yreg_t* e;
	int              check;
	_Atomic int64_t  count;
	_Atomic int      stale;
} hyb_yreg_pass_t;

/* 1 if element i of y still holds the call's token (no download overwrote it). */
static int hyb_yreg_token_left( const hyb_spmv_yreg_t* e, int64_t i )
{
	const char* y = e->y;
	if ( e->elem == 8 )
	{
		uint64_t v;
		memcpy( &v, y + (size_t)i * 8, 8 );
		return v == e->token;
	}
	uint32_t v;
	memcpy( &v, y + (size_t)i * 4, 4 );
	return v == (uint32_t)e->token;
}

static void hyb_yreg_pass_part( void* arg, int64_t b, int64_t end )
{
	hyb_yreg_pass_t* j     = arg;
	char*            y     = j->e->y;
	const size_t     es    = j->e->elem;
	const uint64_t   t64   = j->e->token;
	const uint32_t   t32   = (uint32_t)j->e->token;
	int64_t          count = 0;
	int              stale = 0;
	for ( int64_t p = b; p < end; p++ )
	{
		int64_t i = hyb_yreg_index( j->e, p );
		if ( i < 0 ) continue;
		if ( !j->check )
		{
			if ( es == 8 )
				memcpy( y + (size_t)i * 8, &t64, 8 );
			else
				memcpy( y + (size_t)i * 4, &t32, 4 );
			count++;
		}
		else
			stale |= hyb_yreg_token_left( j->e, i );
	}
	atomic_fetch_add( &j->count, count );
	if ( stale ) atomic_store( &j->stale, 1 );
}

/* One pass over the token pages: few on the calling thread; many on the team when there is
   one (its threads are awake during a product), else on OpenMP's threads. */
static void hyb_yreg_pass( hyb_yreg_pass_t* j, hyb_team_t* team )
{
	const int64_t np = hyb_yreg_pages( j->e );
	if ( np <= 4096 )
		hyb_yreg_pass_part( j, 0, np );
	else if ( team )
		hyb_team_run( team, np, hyb_yreg_pass_part, j );
	else
	{
		const int nt = omp_get_max_threads();
#pragma omp parallel for num_threads( nt ) schedule( static )
		for ( int t = 0; t < nt; t++ ) hyb_yreg_pass_part( j, np * t / nt, np * ( t + 1 ) / nt );
	}
}

int64_t hyb_spmv_yreg_arm( hyb_spmv_yreg_t* e, size_t span, hyb_team_t* team )
{
	e->span    = span < e->bytes ? span : e->bytes;
	uint64_t n = atomic_fetch_add( &hyb_yreg.tokens, 1 ) + 1;
	/* Signalling NaNs with the call number in the payload (arithmetic never produces one:
	   a NaN input propagates quiet). */
	e->token          = e->elem == 8 ? ( 0x7FF4000000000000ull | ( n & 0x0003FFFFFFFFFFFFull ) )
	                                 : ( 0x7FA00000ull | ( n & 0x001FFFFFull ) );
	hyb_yreg_pass_t j = { .e = e, .check = 0 };
	hyb_yreg_pass( &j, team );
	return atomic_load( &j.count );
}

int hyb_spmv_yreg_verdict( int held )
{
	int stale = !held || hyb_countdown_take( &hyb_yreg.fail_next );
	atomic_fetch_add( stale ? &hyb_yreg.failed : &hyb_yreg.proved, 1 );
	return !stale;
}

int hyb_spmv_yreg_check( hyb_spmv_yreg_t* e, hyb_team_t* team )
{
	hyb_yreg_pass_t j = { .e = e, .check = 1 };
	hyb_yreg_pass( &j, team );
	return hyb_spmv_yreg_verdict( !atomic_load( &j.stale ) );
}

int hyb_spmv_yreg_check_rows( const hyb_spmv_yreg_t* e, int64_t i0, int64_t i1, int64_t* seen )
{
	const int64_t n = (int64_t)( e->span / e->elem );
	if ( i0 < 0 ) i0 = 0;
	if ( i1 > n ) i1 = n;
	if ( i0 >= i1 ) return 1;
	/* the pages holding elements i0 .. i1 - 1; a token belongs to the part of its element */
	const uintptr_t b = (uintptr_t)e->y, pg = b & ~( HYB_YREG_PAGE - 1 );
	const int64_t   p0 = (int64_t)( ( b + (uintptr_t)i0 * e->elem - pg ) / HYB_YREG_PAGE );
	const int64_t   p1 = (int64_t)( ( b + (uintptr_t)( i1 - 1 ) * e->elem - pg ) / HYB_YREG_PAGE );
	int64_t         count = 0;
	int             stale = 0;
	for ( int64_t p = p0; p <= p1; p++ )
	{
		int64_t i = hyb_yreg_index( e, p );
		if ( i < i0 || i >= i1 ) continue;
		stale |= hyb_yreg_token_left( e, i );
		count++;
	}
	*seen += count;
	return !stale;
}

void hyb_spmv_yreg_put( hyb_dev_t* d, hyb_spmv_yreg_t* e, int drop )
{
	if ( e == NULL ) return;
	hyb_lock( HYB_LOCK_SPMV_YREG );
	e->held = 0;
	if ( drop == HYB_SPMV_REG_REFUSE ) hyb_yreg_refuse_locked( e->y, e->bytes );
	if ( drop ) hyb_yreg_drop_locked( d, (int)( e - hyb_yreg.e ) );
	hyb_unlock( HYB_LOCK_SPMV_YREG );
}

void hyb_spmv_yreg_reset( hyb_dev_t* d )
{
	hyb_lock( HYB_LOCK_SPMV_YREG );
	for ( int i = 0; i < HYB_SPMV_YREG_MAX; i++ )
		if ( hyb_yreg.e[i].used && !hyb_yreg.e[i].held ) hyb_yreg_drop_locked( d, i );
	memset( hyb_yreg.seen, 0, sizeof hyb_yreg.seen );
	memset( hyb_yreg.refused, 0, sizeof hyb_yreg.refused );
	hyb_unlock( HYB_LOCK_SPMV_YREG );
}

void hyb_spmv_yreg_stats( int* live, uint64_t* proved, uint64_t* failed )
{
	hyb_lock( HYB_LOCK_SPMV_YREG );
	int n = 0;
	for ( int i = 0; i < HYB_SPMV_YREG_MAX; i++ ) n += hyb_yreg.e[i].used;
	hyb_unlock( HYB_LOCK_SPMV_YREG );
	if ( live ) *live = n;
	if ( proved ) *proved = atomic_load( &hyb_yreg.proved );
	if ( failed ) *failed = atomic_load( &hyb_yreg.failed );
}

void hyb_spmv_yreg_fail_next_for_test( int n )
{
	atomic_store( &hyb_yreg.fail_next, n );
}

uint64_t hyb_spmv_yreg_made( void )
{
	return atomic_load( &hyb_yreg.made );
}
