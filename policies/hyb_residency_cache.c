/* SPDX-License-Identifier: BSD-3-Clause */
/* The residency cache: payloads (device copies) keyed by host ranges and a
   caller key, served only while a watch proves the ranges unchanged. */
#define _GNU_SOURCE
#include "policies/hyb_residency.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyb_types.h"

typedef enum
{
	HYB_RES_PENDING = 0, /* armed, being filled by the thread that pinned it */
	HYB_RES_READY        /* payload attached */
} hyb_res_state_t;

struct hyb_residency_entry_s
{
	hyb_residency_entry_t* prev; /* table list, while in_table */
	hyb_residency_entry_t* next; /* table list; then the to-destroy list */
	int                    in_table;
	hyb_res_state_t        state;
	int                    pins;
	uint64_t               fp; /* fingerprint of ranges and key */
	uint64_t               key;
	uint64_t               hits; /* served since filled */
	uint64_t               last_use;
	hyb_residency_watch_t* watch;
	void*                  payload;
	uint64_t               bytes;
	hyb_residency_free_fn  free_fn;
	void*                  free_ctx;
	int                    nranges;
	hyb_residency_range_t  ranges[];
};

/* What the keeps-changing rule remembers of a key. */
typedef struct
{
	uint64_t fp;
	uint64_t last_seen;
	uint32_t strikes;   /* quick invalidations in a row */
	uint32_t bans;      /* bans in a row (doubles the next one) */
	uint32_t skip_left; /* acquires still to bypass */
	int      used;
} hyb_res_hist_t;

struct hyb_residency_cache_s
{
	pthread_mutex_t        lock;
	hyb_residency_mech_t   mech;
	size_t                 max_entries;
	uint64_t               max_bytes;
	pid_t                  pid;
	hyb_residency_entry_t* head;
	size_t                 count; /* entries in the table, pending ones included */
	uint64_t               bytes; /* payload bytes of entries in the table */
	uint64_t               tick;  /* logical clock for LRU and history */
	hyb_residency_stats_t  st;
	hyb_res_hist_t         hist[HYB_RESIDENCY_CHURN_HISTORY];
};

hyb_status_t hyb_residency_cache_create( const hyb_residency_cache_config_t* cfg,
                                         hyb_residency_cache_t**             out )
{
	if ( out == NULL ) return HYB_E_INVALID;
	*out                              = NULL;
	hyb_residency_cache_config_t conf = { HYB_RESIDENCY_TRACK, HYB_RESIDENCY_MECH_AUTO, 0, 0 };
	if ( cfg ) conf = *cfg;
	if ( conf.mode != HYB_RESIDENCY_OFF && conf.mode != HYB_RESIDENCY_VERIFY &&
	     conf.mode != HYB_RESIDENCY_TRACK && conf.mode != HYB_RESIDENCY_TRACK_SOFTDIRTY )
		return HYB_E_INVALID;
	if ( conf.mech < HYB_RESIDENCY_MECH_AUTO || conf.mech >= HYB_RESIDENCY_MECH_COUNT )
		return HYB_E_INVALID;

	hyb_residency_cache_t* c = calloc( 1, sizeof *c );
	if ( c == NULL ) return HYB_E_NO_MEMORY;
	if ( pthread_mutex_init( &c->lock, NULL ) != 0 )
	{
		free( c );
		return HYB_E_NO_MEMORY;
	}
	c->mech =
	    conf.mech != HYB_RESIDENCY_MECH_AUTO ? conf.mech : hyb_residency_mech_for_mode( conf.mode );
	c->max_entries = conf.max_entries ? conf.max_entries : HYB_RESIDENCY_DEFAULT_ENTRIES;
	c->max_bytes   = conf.max_bytes ? conf.max_bytes : HYB_RESIDENCY_DEFAULT_BYTES;
	c->pid         = getpid();
	*out           = c;
	return HYB_OK;
}

/* Destroy an entry nobody references any more. Never under the lock. */
static void hyb_res_entry_destroy( hyb_residency_entry_t* e )
{
	hyb_residency_watch_destroy( e->watch );
	if ( e->payload && e->free_fn ) e->free_fn( e->payload, e->free_ctx );
	free( e );
}

static void hyb_res_destroy_list( hyb_residency_entry_t* list )
{
	while ( list )
	{
		hyb_residency_entry_t* n = list->next;
		hyb_res_entry_destroy( list );
		list = n;
	}
}

static void hyb_res_table_unlink( hyb_residency_cache_t* c, hyb_residency_entry_t* e )
{
	if ( !e->in_table ) return;
	if ( e->prev )
		e->prev->next = e->next;
	else
		c->head = e->next;
	if ( e->next ) e->next->prev = e->prev;
	e->prev = e->next = NULL;
	e->in_table       = 0;
	c->count--;
	if ( e->state == HYB_RES_READY ) c->bytes -= e->bytes;
}

/* Unlink e; if nobody holds it, queue it on *dead for destruction after the
   lock is released. */
static void hyb_res_drop( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                          hyb_residency_entry_t** dead )
{
	hyb_res_table_unlink( c, e );
	if ( e->pins == 0 )
	{
		e->next = *dead;
		*dead   = e;
	}
}

/* The least recently used entry that may be evicted (filled, not pinned,
   not `keep`), or NULL. */
static hyb_residency_entry_t* hyb_res_lru( hyb_residency_cache_t*       c,
                                           const hyb_residency_entry_t* keep )
{
	hyb_residency_entry_t* v = NULL;
	for ( hyb_residency_entry_t* e = c->head; e; e = e->next )
		if ( e != keep && e->state == HYB_RES_READY && e->pins == 0 &&
		     ( v == NULL || e->last_use < v->last_use ) )
			v = e;
	return v;
}

static uint64_t hyb_res_fingerprint( const hyb_residency_range_t* r, int n, uint64_t key )
{
	uint64_t h = hyb_residency_hash_bytes( r, (size_t)n * sizeof *r );
	return h ^ hyb_residency_hash_bytes( &key, sizeof key );
}

static hyb_residency_entry_t* hyb_res_find( hyb_residency_cache_t* c, uint64_t fp,
                                            const hyb_residency_range_t* r, int n, uint64_t key )
{
	for ( hyb_residency_entry_t* e = c->head; e; e = e->next )
		if ( e->fp == fp && e->key == key && e->nranges == n &&
		     memcmp( e->ranges, r, (size_t)n * sizeof *r ) == 0 )
			return e;
	return NULL;
}

/* The history record of key fp, touched; NULL if unknown and !create. A new
   record takes a free slot, else the least recently seen key's. */
static hyb_res_hist_t* hyb_res_hist_find( hyb_residency_cache_t* c, uint64_t fp, int create )
{
	hyb_res_hist_t* victim = NULL;
	for ( int i = 0; i < HYB_RESIDENCY_CHURN_HISTORY; i++ )
	{
		hyb_res_hist_t* h = &c->hist[i];
		if ( h->used && h->fp == fp )
		{
			h->last_seen = ++c->tick;
			return h;
		}
		if ( victim == NULL ||
		     ( victim->used && ( !h->used || h->last_seen < victim->last_seen ) ) )
			victim = h;
	}
	if ( !create ) return NULL;
	memset( victim, 0, sizeof *victim );
	victim->used      = 1;
	victim->fp        = fp;
	victim->last_seen = ++c->tick;
	return victim;
}

/* The keeps-changing rule (see HYB_RESIDENCY_CHURN_* in the header): an
   entry of key fp was invalidated after `hits` hits. */
static void hyb_res_hist_invalidated( hyb_residency_cache_t* c, uint64_t fp, uint64_t hits )
{
	hyb_res_hist_t* h = hyb_res_hist_find( c, fp, 1 );
	if ( hits >= HYB_RESIDENCY_CHURN_MIN_HITS )
	{
		h->strikes = 0;
		h->bans    = 0;
		return;
	}
	if ( ++h->strikes < HYB_RESIDENCY_CHURN_STRIKES ) return;
	h->bans++;
	uint64_t uses = (uint64_t)HYB_RESIDENCY_CHURN_BAN_USES;
	for ( uint32_t i = 1; i < h->bans && uses < HYB_RESIDENCY_CHURN_BAN_MAX; i++ ) uses *= 2;
	if ( uses > HYB_RESIDENCY_CHURN_BAN_MAX ) uses = HYB_RESIDENCY_CHURN_BAN_MAX;
	h->skip_left = (uint32_t)uses;
	/* After the ban, one more quick invalidation bans again. */
	h->strikes = HYB_RESIDENCY_CHURN_STRIKES - 1;
	c->st.bans++;
}

/* The change check of an entry the caller has pinned, run without the lock; returns with
   the lock held. 1: unchanged (a hit, counted; still pinned). 0: changed or dropped by
   another thread meanwhile: dropped from the table (invalidation counted), unpinned unless
   keep_pin, and put on *dead if nobody holds it any more. */
static int hyb_res_check( hyb_residency_cache_t* c, hyb_residency_entry_t* e, int keep_pin,
                          hyb_residency_entry_t** dead, hyb_team_t* team )
{
	double t0      = hyb_now();
	int    changed = hyb_residency_watch_changed_on( e->watch, team );
	double dt      = hyb_now() - t0;
	pthread_mutex_lock( &c->lock );
	c->st.check_seconds += dt;
	if ( !changed && e->in_table )
	{
		e->hits++;
		e->last_use = ++c->tick;
		c->st.hits++;
		return 1;
	}
	if ( !keep_pin ) e->pins--;
	if ( changed && e->in_table )
	{
		c->st.invalidations++;
		hyb_res_hist_invalidated( c, e->fp, e->hits );
		hyb_res_drop( c, e, dead );
	}
	else if ( !e->in_table && e->pins == 0 )
	{
		/* Dropped by another thread while we checked. */
		e->next = *dead;
		*dead   = e;
	}
	return 0;
}

/* Arm a pending entry (`safe`: ranges the program may have unmapped meanwhile, see
   hyb_residency_watch_create_safe). Only the thread filling the entry arms it, and nothing
   reads the watch of an entry being filled: the watch is made outside the lock. */
static hyb_status_t hyb_res_arm_entry( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                       int safe )
{
	hyb_residency_watch_t* w  = NULL;
	double                 t0 = hyb_now();
	hyb_status_t s  = safe ? hyb_residency_watch_create_safe( c->mech, e->ranges, e->nranges, &w )
	                       : hyb_residency_watch_create( c->mech, e->ranges, e->nranges, &w );
	double       dt = hyb_now() - t0;
	pthread_mutex_lock( &c->lock );
	c->st.arm_seconds += dt;
	if ( s == HYB_OK )
		e->watch = w;
	else
		c->st.arm_failures++;
	pthread_mutex_unlock( &c->lock );
	return s;
}

/* The acquires: `defer` returns a found entry pinned and unchecked, `arm_later` a new one
   unarmed (hyb_residency_cache_arm arms it). */
static hyb_residency_outcome_t hyb_res_acquire( hyb_residency_cache_t*       c,
                                                const hyb_residency_range_t* ranges, int nranges,
                                                uint64_t key, hyb_residency_entry_t** entry,
                                                int defer, int arm_later )
{
	if ( entry ) *entry = NULL;
	if ( c == NULL || entry == NULL || ranges == NULL || nranges < 1 ) return HYB_RESIDENCY_BYPASS;
	/* A forked child never serves or builds the parent's device copies, and
	   never takes a lock a vanished parent thread may hold. */
	if ( getpid() != c->pid ) return HYB_RESIDENCY_BYPASS;
	int valid = c->mech != HYB_RESIDENCY_MECH_NONE;
	for ( int i = 0; i < nranges && valid; i++ )
		valid = ranges[i].addr != NULL || ranges[i].bytes == 0;

	hyb_residency_entry_t* dead = NULL;
	uint64_t               fp   = valid ? hyb_res_fingerprint( ranges, nranges, key ) : 0;
	pthread_mutex_lock( &c->lock );
	c->st.lookups++;
	if ( !valid ) goto bypass;

	hyb_residency_entry_t* e = hyb_res_find( c, fp, ranges, nranges, key );
	if ( e && e->state == HYB_RES_PENDING ) goto bypass; /* another thread fills it */
	if ( e )
	{
		e->pins++;
		if ( defer )
		{
			pthread_mutex_unlock( &c->lock );
			*entry = e;
			return HYB_RESIDENCY_UNCHECKED;
		}
		pthread_mutex_unlock( &c->lock );
		if ( hyb_res_check( c, e, 0, &dead, NULL ) )
		{
			pthread_mutex_unlock( &c->lock );
			*entry = e;
			return HYB_RESIDENCY_HIT;
		}
	}
	c->st.misses++;

	hyb_res_hist_t* h = hyb_res_hist_find( c, fp, 0 );
	if ( h && h->skip_left > 0 )
	{
		h->skip_left--;
		c->st.bypass_churn++;
		pthread_mutex_unlock( &c->lock );
		hyb_res_destroy_list( dead );
		return HYB_RESIDENCY_BYPASS;
	}
	while ( c->count >= c->max_entries )
	{
		hyb_residency_entry_t* v = hyb_res_lru( c, NULL );
		if ( v == NULL ) goto bypass; /* everything pinned or pending */
		c->st.evictions++;
		hyb_res_drop( c, v, &dead );
	}

	hyb_residency_entry_t* ne = calloc( 1, sizeof *ne + (size_t)nranges * sizeof ne->ranges[0] );
	if ( ne == NULL ) goto bypass;
	ne->state   = HYB_RES_PENDING;
	ne->pins    = 1;
	ne->fp      = fp;
	ne->key     = key;
	ne->nranges = nranges;
	memcpy( ne->ranges, ranges, (size_t)nranges * sizeof *ranges );
	ne->next = c->head;
	if ( c->head ) c->head->prev = ne;
	c->head      = ne;
	ne->in_table = 1;
	c->count++;
	pthread_mutex_unlock( &c->lock );
	hyb_res_destroy_list( dead );

	/* Arm before the caller reads the data: a write from here on shows. */
	if ( !arm_later && hyb_res_arm_entry( c, ne, 0 ) != HYB_OK )
	{
		pthread_mutex_lock( &c->lock );
		ne->pins = 0;
		hyb_res_table_unlink( c, ne );
		c->st.bypass_other++;
		pthread_mutex_unlock( &c->lock );
		free( ne );
		return HYB_RESIDENCY_BYPASS;
	}
	*entry = ne;
	return HYB_RESIDENCY_FILL;

bypass:
	c->st.bypass_other++;
	pthread_mutex_unlock( &c->lock );
	hyb_res_destroy_list( dead );
	return HYB_RESIDENCY_BYPASS;
}

hyb_residency_outcome_t hyb_residency_cache_acquire( hyb_residency_cache_t*       c,
                                                     const hyb_residency_range_t* ranges,
                                                     int nranges, uint64_t key,
                                                     hyb_residency_entry_t** entry )
{
	return hyb_res_acquire( c, ranges, nranges, key, entry, 0, 0 );
}

hyb_residency_outcome_t hyb_residency_cache_acquire_unchecked( hyb_residency_cache_t*       c,
                                                               const hyb_residency_range_t* ranges,
                                                               int nranges, uint64_t key,
                                                               hyb_residency_entry_t** entry )
{
	return hyb_res_acquire( c, ranges, nranges, key, entry, 1, 0 );
}

hyb_residency_outcome_t hyb_residency_cache_acquire_unarmed( hyb_residency_cache_t*       c,
                                                             const hyb_residency_range_t* ranges,
                                                             int nranges, uint64_t key,
                                                             hyb_residency_entry_t** entry )
{
	return hyb_res_acquire( c, ranges, nranges, key, entry, 1, 1 );
}

hyb_status_t hyb_residency_cache_arm( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                      int caller )
{
	if ( c == NULL || e == NULL || getpid() != c->pid ) return HYB_E_INVALID;
	pthread_mutex_lock( &c->lock );
	int pending = e->state == HYB_RES_PENDING && e->pins > 0, armed = e->watch != NULL;
	pthread_mutex_unlock( &c->lock );
	if ( !pending ) return HYB_E_INVALID;
	if ( armed ) return HYB_OK;
	return hyb_res_arm_entry( c, e, !caller );
}

const hyb_residency_watch_t* hyb_residency_cache_watch( hyb_residency_cache_t* c,
                                                        hyb_residency_entry_t* e )
{
	if ( c == NULL || e == NULL || getpid() != c->pid ) return NULL;
	pthread_mutex_lock( &c->lock );
	hyb_residency_watch_t* w = e->state == HYB_RES_PENDING && e->pins > 0 ? e->watch : NULL;
	pthread_mutex_unlock( &c->lock );
	return w;
}

int hyb_residency_cache_matches_copy( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                      const void* const* copies )
{
	const hyb_residency_watch_t* w = copies ? hyb_residency_cache_watch( c, e ) : NULL;
	return w != NULL && hyb_residency_watch_matches_copy( w, copies );
}

int hyb_residency_cache_confirm( hyb_residency_cache_t* c, hyb_residency_entry_t* e )
{
	return hyb_residency_cache_confirm_on( c, e, NULL );
}

int hyb_residency_cache_confirm_on( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                    hyb_team_t* team )
{
	if ( c == NULL || e == NULL || getpid() != c->pid ) return 0;
	hyb_residency_entry_t* dead = NULL;
	int                    ok   = hyb_res_check( c, e, 1, &dead, team );
	if ( !ok ) c->st.misses++;
	pthread_mutex_unlock( &c->lock );
	hyb_res_destroy_list( dead );
	return ok;
}

void* hyb_residency_entry_payload( const hyb_residency_entry_t* e )
{
	return e ? e->payload : NULL;
}

hyb_status_t hyb_residency_cache_fill( hyb_residency_cache_t* c, hyb_residency_entry_t* e,
                                       void* payload, uint64_t bytes, hyb_residency_free_fn free_fn,
                                       void* free_ctx )
{
	if ( c == NULL || e == NULL || getpid() != c->pid ) return HYB_E_INVALID;
	hyb_residency_entry_t* dead = NULL;
	hyb_status_t           s    = HYB_OK;
	pthread_mutex_lock( &c->lock );
	/* an unarmed entry could not tell a change since its data was read */
	if ( e->state != HYB_RES_PENDING || e->pins < 1 || e->watch == NULL )
	{
		pthread_mutex_unlock( &c->lock );
		return HYB_E_INVALID;
	}
	e->payload  = payload;
	e->bytes    = bytes;
	e->free_fn  = free_fn;
	e->free_ctx = free_ctx;
	e->state    = HYB_RES_READY;
	e->last_use = ++c->tick;
	c->st.fills++;
	if ( e->in_table )
	{
		c->bytes += bytes;
		while ( bytes <= c->max_bytes && c->bytes > c->max_bytes )
		{
			hyb_residency_entry_t* v = hyb_res_lru( c, e );
			if ( v == NULL ) break;
			c->st.evictions++;
			hyb_res_drop( c, v, &dead );
		}
		if ( c->bytes > c->max_bytes ) hyb_res_table_unlink( c, e ); /* kept until release */
	}
	if ( !e->in_table )
	{
		c->st.dropped++;
		s = HYB_E_NO_MEMORY;
	}
	pthread_mutex_unlock( &c->lock );
	hyb_res_destroy_list( dead );
	return s;
}

void hyb_residency_cache_release( hyb_residency_cache_t* c, hyb_residency_entry_t* e )
{
	if ( c == NULL || e == NULL ) return;
	if ( getpid() != c->pid ) return; /* a child leaves the parent's entries alone */
	pthread_mutex_lock( &c->lock );
	e->pins--;
	if ( e->state == HYB_RES_PENDING && e->pins == 0 ) hyb_res_table_unlink( c, e ); /* abandoned */
	int destroy = !e->in_table && e->pins == 0;
	pthread_mutex_unlock( &c->lock );
	if ( destroy ) hyb_res_entry_destroy( e );
}

void hyb_residency_cache_clear( hyb_residency_cache_t* c )
{
	if ( c == NULL || getpid() != c->pid ) return;
	hyb_residency_entry_t* dead = NULL;
	pthread_mutex_lock( &c->lock );
	while ( c->head ) hyb_res_drop( c, c->head, &dead );
	pthread_mutex_unlock( &c->lock );
	hyb_res_destroy_list( dead );
}

void hyb_residency_cache_destroy( hyb_residency_cache_t* c )
{
	if ( c == NULL ) return;
	int child = getpid() != c->pid;
	for ( hyb_residency_entry_t* e = c->head; e; )
	{
		hyb_residency_entry_t* n = e->next;
		if ( child )
		{
			/* The payloads belong to the parent's device context. */
			hyb_residency_watch_destroy( e->watch );
			free( e );
		}
		else
			hyb_res_entry_destroy( e );
		e = n;
	}
	if ( !child ) pthread_mutex_destroy( &c->lock );
	free( c );
}

void hyb_residency_cache_stats( hyb_residency_cache_t* c, hyb_residency_stats_t* out )
{
	if ( out == NULL ) return;
	memset( out, 0, sizeof *out );
	if ( c == NULL || getpid() != c->pid ) return;
	pthread_mutex_lock( &c->lock );
	*out         = c->st;
	out->entries = c->count;
	out->bytes   = c->bytes;
	pthread_mutex_unlock( &c->lock );
}

hyb_residency_mech_t hyb_residency_cache_mech( const hyb_residency_cache_t* c )
{
	return c ? c->mech : HYB_RESIDENCY_MECH_NONE;
}
