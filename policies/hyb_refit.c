/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 corrections of the cost model, kept in the learning store (hyb_refit.h). */
#include "policies/hyb_refit.h"

#include <stdatomic.h>

#include "hyb_state.h"
#include "policies/hyb_learn.h"
/* A correction is kept within these bounds: a wildly different measurement
   means the call was unusual, not that the machine changed tenfold. */
#define HYB_REFIT_MIN_SCALE 0.25
#define HYB_REFIT_MAX_SCALE 4.0

/* Nanoseconds of hyb_now() when the CPU library last returned a threaded call; 0: never. */
static _Atomic int64_t hyb_cpu_last_ns;

hyb_op_id_t hyb_refit_op( void )
{
	static int op = HYB_LEARN_OP_UNSET;
	return hyb_learn_op( &op, "l3", 0 );
}

/* The key of a precision's corrections: the device scale in the GPU slot, the CPU
   library's strip rate in the CPU slot. */
static hyb_learn_key_t hyb_refit_key( hyb_prec_t prec )
{
	return ( hyb_learn_key_t ){ hyb_refit_op(), (uint64_t)prec };
}

void hyb_refit_gpu( hyb_prec_t prec, double predicted, double measured )
{
	if ( predicted <= 0 || measured <= 0 ) return;
	/* The prediction already included the old scale. */
	hyb_learn_note_ratio( hyb_refit_key( prec ), HYB_LEARN_GPU, measured / predicted,
	                      HYB_LEARN_WEIGHT_L3, HYB_REFIT_MIN_SCALE, HYB_REFIT_MAX_SCALE );
}

void hyb_refit_cpu( hyb_prec_t prec, double flops, double seconds )
{
	if ( flops <= 0 || seconds <= 0 ) return;
	hyb_learn_note( hyb_refit_key( prec ), HYB_LEARN_CPU, flops / seconds, HYB_LEARN_WEIGHT_L3 );
}

double hyb_refit_gpu_scale( hyb_prec_t prec )
{
	hyb_learn_rate_t r = hyb_learn_rate( hyb_refit_key( prec ), HYB_LEARN_GPU );
	return r.samples > 0 ? r.value : 1.0;
}

double hyb_refit_cpu_rate( hyb_prec_t prec )
{
	return hyb_learn_rate( hyb_refit_key( prec ), HYB_LEARN_CPU ).value;
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
	hyb_learn_forget( hyb_refit_op() );
	atomic_store( &hyb_cpu_last_ns, 0 );
}
