/* SPDX-License-Identifier: BSD-3-Clause */
/* The process's tridiagonal throughput profile, kept in the learning store (see
   hyb_gtsv_rates.h). */
#include "dispatch/hyb_gtsv_rates.h"

#include <stdatomic.h>

#include "policies/hyb_learn.h"

/* The process has run LAPACK / the CPU SPIKE; hyb_now() of the last write of the file for
   a side rate (or of the first side rate, before any write); the seconds the process's
   LAPACK calls took. Atomics: nothing of them needs the store's lock, nor a fork hook. */
static atomic_int     hyb_gr_side_ran[2];
static _Atomic double hyb_gr_side_written;
static _Atomic double hyb_gr_lapack_spent;

/* A side rate is written to the file at most once in this many seconds, and at the
   process's exit (hyb_learn.h): a write costs 0.1-0.4 ms, more than a whole call at 2^13
   rows, and must not fall on the calls that decide between the sides. */
#define HYB_GR_SIDE_WRITE_GAP 1.0

static double hyb_gr_rate( hyb_learn_key_t key, hyb_learn_slot_t slot )
{
	return hyb_learn_rate( key, slot ).value;
}

void hyb_gtsv_rates_fill( hyb_prec_t prec, hyb_gtsv_split_in_t* in )
{
	char p = hyb_prec_char( prec );
	in->cpu_alone =
	    hyb_gr_rate( hyb_policy_gtsv_learn_key( p, HYB_GTSV_LEARN_ALONE, 0, 0 ), HYB_LEARN_CPU );
	in->split_cpu = hyb_gr_rate( hyb_policy_gtsv_learn_key( p, HYB_GTSV_LEARN_SPLIT, in->reg, 0 ),
	                             HYB_LEARN_CPU );
	for ( int k = 0; k < HYB_GTSV_DEV_MAX; k++ )
	{
		in->dev_alone[k] = hyb_gr_rate(
		    hyb_policy_gtsv_learn_key( p, HYB_GTSV_LEARN_ALONE, in->reg, k ), HYB_LEARN_GPU );
		in->split_dev[k] = hyb_gr_rate(
		    hyb_policy_gtsv_learn_key( p, HYB_GTSV_LEARN_SPLIT, in->reg, k ), HYB_LEARN_GPU );
	}
}

void hyb_gtsv_rates_update( hyb_prec_t prec, hyb_gtsv_conf_t conf, int reg, double cpu_rate,
                            int ndev, const double* dev_rate )
{
	char                  p       = hyb_prec_char( prec );
	int                   changed = 0;
	hyb_gtsv_learn_kind_t kind =
	    conf == HYB_GTSV_CONF_SPLIT ? HYB_GTSV_LEARN_SPLIT : HYB_GTSV_LEARN_ALONE;
	if ( cpu_rate > 0 && conf != HYB_GTSV_CONF_DEV )
		changed |= hyb_learn_note(
		               hyb_policy_gtsv_learn_key( p, kind, conf == HYB_GTSV_CONF_CPU ? 0 : reg, 0 ),
		               HYB_LEARN_CPU, cpu_rate, HYB_LEARN_WEIGHT_GTSV ) == HYB_OK;
	for ( int k = 0; k < ndev && k < HYB_GTSV_DEV_MAX && dev_rate; k++ )
	{
		if ( !( dev_rate[k] > 0 ) || conf == HYB_GTSV_CONF_CPU ) continue;
		changed |= hyb_learn_note( hyb_policy_gtsv_learn_key( p, kind, reg, k ), HYB_LEARN_GPU,
		                           dev_rate[k], HYB_LEARN_WEIGHT_GTSV ) == HYB_OK;
	}
	if ( changed ) hyb_learn_commit();
}

void hyb_gtsv_rates_side( hyb_prec_t prec, int threads, int64_t n, hyb_gtsv_side_in_t* in )
{
	hyb_learn_rate_t r[HYB_LEARN_SLOTS];
	hyb_learn_rates( hyb_policy_gtsv_learn_side_key( hyb_prec_char( prec ), threads,
	                                                 hyb_policy_gtsv_side_class( n ) ),
	                 r );
	in->lapack         = r[HYB_LEARN_CPU].value;
	in->lapack_samples = r[HYB_LEARN_CPU].samples;
	in->spike          = r[HYB_LEARN_OTHER].value;
	in->spike_samples  = r[HYB_LEARN_OTHER].samples;
	in->team_start =
	    atomic_load( &hyb_gr_side_ran[1] ) ? 0.0 : ( threads - 1 ) * HYB_GTSV_SIDE_TEAM_START_S;
	in->lapack_spent = atomic_load( &hyb_gr_lapack_spent );
	in->rows         = (double)n;
}

void hyb_gtsv_rates_lapack_spent( double seconds )
{
	if ( !( seconds > 0 ) ) return;
	double old = atomic_load( &hyb_gr_lapack_spent );
	while ( !atomic_compare_exchange_weak( &hyb_gr_lapack_spent, &old, old + seconds ) )
		;
}

void hyb_gtsv_rates_side_update( hyb_prec_t prec, int threads, int64_t n, int spike, double rate )
{
	spike = spike != 0;
	if ( !atomic_exchange( &hyb_gr_side_ran[spike], 1 ) ) return;
	hyb_learn_key_t  key  = hyb_policy_gtsv_learn_side_key( hyb_prec_char( prec ), threads,
	                                                        hyb_policy_gtsv_side_class( n ) );
	hyb_learn_slot_t slot = spike ? HYB_LEARN_OTHER : HYB_LEARN_CPU;
	if ( hyb_learn_note( key, slot, rate, HYB_LEARN_WEIGHT_GTSV ) != HYB_OK ) return;
	double now = hyb_now(), last = 0.0;
	if ( atomic_compare_exchange_strong( &hyb_gr_side_written, &last, now ) ) return;
	if ( now - last >= HYB_GR_SIDE_WRITE_GAP &&
	     atomic_compare_exchange_strong( &hyb_gr_side_written, &last, now ) )
		hyb_learn_commit();
}

void hyb_gtsv_rates_reset_for_test( void )
{
	hyb_learn_unload();
	atomic_store( &hyb_gr_side_ran[0], 1 );
	atomic_store( &hyb_gr_side_ran[1], 1 );
	atomic_store( &hyb_gr_side_written, 0.0 );
	atomic_store( &hyb_gr_lapack_spent, 0.0 );
}

void hyb_gtsv_rates_side_cold_for_test( void )
{
	atomic_store( &hyb_gr_side_ran[0], 0 );
	atomic_store( &hyb_gr_side_ran[1], 0 );
	atomic_store( &hyb_gr_lapack_spent, 0.0 );
}
