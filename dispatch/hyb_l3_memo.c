/* SPDX-License-Identifier: BSD-3-Clause */
/* Records of the level-3 measured choice (see hyb_l3_memo.h). */
#include "dispatch/hyb_l3_memo.h"

#include <string.h>

#include "hyb_state.h"
#include "policies/hyb_policy_l3.h"

/* Shapes remembered: a program near the boundary repeats a few shapes (a
   solver's blocks, a benchmark's sizes); more than this and the least
   recently seen one is measured again when it comes back. */
#define HYB_L3_MEMO_SLOTS 64

typedef struct
{
	uint64_t          key;
	uint64_t          lru; /* 0: empty */
	hyb_l3_measured_t m;
} hyb_l3_memo_slot_t;

/* Under HYB_LOCK_L3_MEMO. */
static struct
{
	uint64_t           clock;
	hyb_l3_memo_slot_t slot[HYB_L3_MEMO_SLOTS];
} hyb_l3_memo;

static uint64_t hyb_l3_memo_mix( uint64_t h, uint64_t v )
{
	h ^= v + 0x9E3779B97F4A7C15ULL + ( h << 6 ) + ( h >> 2 );
	h *= 0xBF58476D1CE4E5B9ULL;
	return h ^ ( h >> 31 );
}

uint64_t hyb_l3_memo_key( const hyb_l3_args_t* a )
{
	uint64_t opts = (uint64_t)(unsigned char)a->side | (uint64_t)(unsigned char)a->uplo << 8 |
	                (uint64_t)(unsigned char)a->transa << 16 |
	                (uint64_t)(unsigned char)a->transb << 24 |
	                (uint64_t)(unsigned char)a->diag << 32;
	uint64_t h = hyb_l3_memo_mix( (uint64_t)a->op * 16 + (uint64_t)a->prec, opts );
	h          = hyb_l3_memo_mix( h, (uint64_t)a->m );
	h          = hyb_l3_memo_mix( h, (uint64_t)a->n );
	h          = hyb_l3_memo_mix( h, (uint64_t)a->k );
	return hyb_l3_memo_mix( h, a->beta[0] == 0.0 && a->beta[1] == 0.0 );
}

/* The slot of key, or NULL; the caller holds the lock. */
static hyb_l3_memo_slot_t* hyb_l3_memo_find( uint64_t key )
{
	for ( int i = 0; i < HYB_L3_MEMO_SLOTS; i++ )
		if ( hyb_l3_memo.slot[i].lru && hyb_l3_memo.slot[i].key == key )
			return &hyb_l3_memo.slot[i];
	return NULL;
}

int hyb_l3_memo_side( uint64_t key, int model_side, int* settled )
{
	hyb_lock( HYB_LOCK_L3_MEMO );
	hyb_l3_memo_slot_t* s = hyb_l3_memo_find( key );
	if ( s == NULL )
	{
		s = &hyb_l3_memo.slot[0];
		for ( int i = 1; i < HYB_L3_MEMO_SLOTS; i++ )
			if ( hyb_l3_memo.slot[i].lru < s->lru ) s = &hyb_l3_memo.slot[i];
		memset( s, 0, sizeof *s );
		s->key = key;
	}
	s->lru   = ++hyb_l3_memo.clock;
	int side = hyb_policy_l3_measured_side( &s->m, model_side );
	*settled = s->m.settled;
	hyb_unlock( HYB_LOCK_L3_MEMO );
	return side;
}

void hyb_l3_memo_note( uint64_t key, int side, double seconds )
{
	hyb_lock( HYB_LOCK_L3_MEMO );
	hyb_l3_memo_slot_t* s = hyb_l3_memo_find( key );
	if ( s ) hyb_policy_l3_measured_note( &s->m, side, seconds );
	hyb_unlock( HYB_LOCK_L3_MEMO );
}

void hyb_l3_memo_reset( void )
{
	hyb_lock( HYB_LOCK_L3_MEMO );
	memset( hyb_l3_memo.slot, 0, sizeof hyb_l3_memo.slot );
	hyb_l3_memo.clock = 0;
	hyb_unlock( HYB_LOCK_L3_MEMO );
}
