/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 measured choice on the learning store (see hyb_l3_memo.h). */
#include "dispatch/hyb_l3_memo.h"

#include "policies/hyb_learn.h"
#include "policies/hyb_policy_l3.h"
#include "policies/hyb_refit.h"

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

/* The measured record of a shape, in the rule record of its store entry. */
_Static_assert( sizeof( hyb_l3_measured_t ) <= HYB_LEARN_RULE_BYTES,
                "the level-3 measured record fits the store's rule record" );

static hyb_l3_measured_t* hyb_l3_memo_rec( hyb_learn_choice_t* c )
{
	return (hyb_l3_measured_t*)(void*)c->rule.bytes;
}

/* What the store shows of every family's records: the phase, the side kept, the medians. */
static void hyb_l3_memo_show( hyb_learn_choice_t* c )
{
	const hyb_l3_measured_t* m = hyb_l3_memo_rec( c );
	c->phase                   = m->settled              ? HYB_LEARN_DECIDED
	                             : m->n[0] + m->n[1] > 0 ? HYB_LEARN_MEASURING
	                                                     : HYB_LEARN_PENDING;
	c->side                    = m->side ? HYB_LEARN_GPU : HYB_LEARN_CPU;
	c->time[HYB_LEARN_CPU]     = m->mid[0];
	c->time[HYB_LEARN_GPU]     = m->mid[1];
}

typedef struct
{
	int    model_side, side, settled;
	double seconds;
} hyb_l3_memo_step_t;

static void hyb_l3_memo_side_rule( hyb_learn_choice_t* c, void* ctx )
{
	hyb_l3_memo_step_t* st = ctx;
	st->side               = hyb_policy_l3_measured_side( hyb_l3_memo_rec( c ), st->model_side );
	st->settled            = hyb_l3_memo_rec( c )->settled;
}

static void hyb_l3_memo_note_rule( hyb_learn_choice_t* c, void* ctx )
{
	hyb_l3_memo_step_t* st = ctx;
	hyb_policy_l3_measured_note( hyb_l3_memo_rec( c ), st->side, st->seconds );
	hyb_l3_memo_show( c );
}

static hyb_learn_key_t hyb_l3_memo_learn_key( uint64_t key )
{
	return ( hyb_learn_key_t ){ hyb_refit_op(), key };
}

int hyb_l3_memo_side( uint64_t key, int model_side, int* settled )
{
	hyb_l3_memo_step_t st = { .model_side = model_side };
	hyb_learn_choice( hyb_l3_memo_learn_key( key ), 1, hyb_l3_memo_side_rule, &st );
	*settled = st.settled;
	return st.side;
}

void hyb_l3_memo_note( uint64_t key, int side, double seconds )
{
	hyb_l3_memo_step_t st = { .side = side, .seconds = seconds };
	hyb_learn_choice( hyb_l3_memo_learn_key( key ), 0, hyb_l3_memo_note_rule, &st );
}

void hyb_l3_memo_reset( void )
{
	hyb_learn_choices_forget( hyb_refit_op() );
}
