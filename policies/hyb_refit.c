/* SPDX-License-Identifier: BSD-3-Clause */
/* Exponentially smoothed measurements for the cost model (hyb_refit.h). */
#include "policies/hyb_refit.h"

#include <stdatomic.h>

#include "hyb_state.h"
#include "policies/hyb_learn.h"
/* A correction is kept within these bounds: a wildly different measurement
   means the call was unusual, not that the machine changed tenfold. */
#define HYB_REFIT_MIN_SCALE 0.25
#define HYB_REFIT_MAX_SCALE 4.0

/* Under HYB_LOCK_REFIT. */
static double hyb_gpu_scale[HYB_PREC_COUNT] = { 1, 1, 1, 1 };
static double hyb_cpu_rate[HYB_PREC_COUNT];
/* Nanoseconds of hyb_now() when the CPU library last returned a threaded call; 0: never. */
static _Atomic int64_t hyb_cpu_last_ns;

void hyb_refit_gpu( hyb_prec_t prec, double predicted, double measured )
{
	if ( predicted <= 0 || measured <= 0 ) return;
	double r = measured / predicted;
	hyb_lock( HYB_LOCK_REFIT );
	/* The prediction already included the old scale. */
	double s = hyb_gpu_scale[prec] * r;
	s        = hyb_learn_fold( hyb_gpu_scale[prec], 1, s, HYB_LEARN_WEIGHT_L3 );
	if ( s < HYB_REFIT_MIN_SCALE ) s = HYB_REFIT_MIN_SCALE;
	if ( s > HYB_REFIT_MAX_SCALE ) s = HYB_REFIT_MAX_SCALE;
	hyb_gpu_scale[prec] = s;
	hyb_unlock( HYB_LOCK_REFIT );
}

void hyb_refit_cpu( hyb_prec_t prec, double flops, double seconds )
{
	if ( flops <= 0 || seconds <= 0 ) return;
	double rate = flops / seconds;
	hyb_lock( HYB_LOCK_REFIT );
	hyb_cpu_rate[prec] =
	    hyb_learn_fold( hyb_cpu_rate[prec], hyb_cpu_rate[prec] > 0, rate, HYB_LEARN_WEIGHT_L3 );
	hyb_unlock( HYB_LOCK_REFIT );
}

double hyb_refit_gpu_scale( hyb_prec_t prec )
{
	hyb_lock( HYB_LOCK_REFIT );
	double s = hyb_gpu_scale[prec];
	hyb_unlock( HYB_LOCK_REFIT );
	return s;
}

double hyb_refit_cpu_rate( hyb_prec_t prec )
{
	hyb_lock( HYB_LOCK_REFIT );
	double r = hyb_cpu_rate[prec];
	hyb_unlock( HYB_LOCK_REFIT );
	return r;
}

void hyb_refit_cpu_called( double flops )
{
	if ( flops >= HYB_CPU_LIB_THREADED_FLOPS )
		atomic_store_explicit( &hyb_cpu_last_ns, (int64_t)( hyb_now() * 1e9 ),
		                       memory_order_relaxed );
}

int hyb_refit_cpu_threads_busy( void )
{
	int64_t last = atomic_load_explicit( &hyb_cpu_last_ns, memory_order_relaxed );
	return last != 0 && hyb_now() * 1e9 - (double)last < HYB_CPU_LIB_SPIN_S * 1e9;
}

void hyb_refit_reset( void )
{
	hyb_lock( HYB_LOCK_REFIT );
	for ( int p = 0; p < HYB_PREC_COUNT; p++ ) hyb_gpu_scale[p] = 1, hyb_cpu_rate[p] = 0;
	hyb_unlock( HYB_LOCK_REFIT );
	atomic_store( &hyb_cpu_last_ns, 0 );
}
