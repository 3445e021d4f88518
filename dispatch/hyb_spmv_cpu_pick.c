/* SPDX-License-Identifier: BSD-3-Clause */
/* The per-routine record behind the pick of MKL's routine or hyblas's kernel: atomics, so
   that concurrent callers and a fork at any moment leave it usable (a lost update only
   delays the pick by a call). */
#include "dispatch/hyb_spmv_cpu_pick.h"

#include <stdatomic.h>

typedef struct
{
	_Atomic int    calls[2];
	_Atomic double best[2];
} hyb_pick_rec_t;

static hyb_pick_rec_t hyb_pick_recs[HYB_R_COUNT];

static hyb_pick_rec_t* hyb_pick_rec( hyb_routine_id_t id )
{
	return (int)id >= 0 && (int)id < HYB_R_COUNT ? &hyb_pick_recs[id] : NULL;
}

static void hyb_pick_load( const hyb_pick_rec_t* r, hyb_spmv_pick_state_t* s )
{
	s->mkl_calls = atomic_load_explicit( &r->calls[HYB_SPMV_PICK_MKL], memory_order_relaxed );
	s->own_calls = atomic_load_explicit( &r->calls[HYB_SPMV_PICK_OWN], memory_order_relaxed );
	s->mkl_best  = atomic_load_explicit( &r->best[HYB_SPMV_PICK_MKL], memory_order_relaxed );
	s->own_best  = atomic_load_explicit( &r->best[HYB_SPMV_PICK_OWN], memory_order_relaxed );
}

hyb_spmv_pick_t hyb_spmv_cpu_pick( hyb_routine_id_t id, int measurable )
{
	hyb_pick_rec_t* r = hyb_pick_rec( id );
	if ( r == NULL ) return HYB_SPMV_PICK_MKL;
	hyb_spmv_pick_state_t s;
	hyb_pick_load( r, &s );
	return hyb_policy_spmv_pick( &s, measurable );
}

void hyb_spmv_cpu_pick_learn( hyb_routine_id_t id, hyb_spmv_pick_t code, long long entries,
                              double seconds )
{
	hyb_pick_rec_t* r = hyb_pick_rec( id );
	if ( r == NULL ) return;
	/* The pure rule updates a snapshot; the changed best is merged as a minimum. */
	hyb_spmv_pick_state_t s;
	hyb_pick_load( r, &s );
	hyb_policy_spmv_pick_learn( &s, code, entries, seconds );
	int    calls = code == HYB_SPMV_PICK_OWN ? s.own_calls : s.mkl_calls;
	double best  = code == HYB_SPMV_PICK_OWN ? s.own_best : s.mkl_best;
	int    was   = atomic_load_explicit( &r->calls[code], memory_order_relaxed );
	if ( calls > was ) atomic_fetch_add_explicit( &r->calls[code], 1, memory_order_relaxed );
	double cur = atomic_load_explicit( &r->best[code], memory_order_relaxed );
	while ( best > 0.0 && ( cur == 0.0 || best < cur ) &&
	        !atomic_compare_exchange_weak_explicit( &r->best[code], &cur, best,
	                                                memory_order_relaxed, memory_order_relaxed ) )
	{
	}
}

void hyb_spmv_cpu_pick_reset_for_test( void )
{
	for ( int i = 0; i < HYB_R_COUNT; i++ )
		for ( int c = 0; c < 2; c++ )
		{
			atomic_store( &hyb_pick_recs[i].calls[c], 0 );
			atomic_store( &hyb_pick_recs[i].best[c], 0.0 );
		}
}
