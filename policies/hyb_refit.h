/* SPDX-License-Identifier: BSD-3-Clause */
/* What recent calls measured, fed back into the cost model: the ratio of
   measured to predicted device time and the CPU library's rate on strips
   (CALDGEMM refits its split after every call; so do we); and when the CPU
   library last ran a call on its threads. */
#ifndef HYB_REFIT_H
#define HYB_REFIT_H

#include "hyb_op.h"
#include "hyb_types.h"

/* The operation level 3 learns under in the store (policies/hyb_learn.h), "l3": its
   corrections (shape class: the precision) and its measured choices (shape class:
   dispatch/hyb_l3_memo.h's key). Registered on first use. Thread-safe. */
hyb_op_id_t hyb_refit_op( void );

/* Record a device call of predicted and measured seconds (device side). */
void hyb_refit_gpu( hyb_prec_t prec, double predicted, double measured );

/* Record a CPU strip of `flops` that took `seconds`. */
void hyb_refit_cpu( hyb_prec_t prec, double flops, double seconds );

/* Current correction of device predictions (1 when nothing measured) and
   measured CPU rate (0 when nothing measured). Thread-safe. In memory only: the
   corrections follow this process's machine state (clocks, other work), which a file
   would carry over to runs where it no longer holds. */
double hyb_refit_gpu_scale( hyb_prec_t prec );
double hyb_refit_cpu_rate( hyb_prec_t prec );

/* The CPU library's threads keep spinning for a while after a call they ran (OpenBLAS
   about 0.1 s, MKL's KMP_BLOCKTIME 0.2 s). hyb_refit_cpu_called records that the library
   returned from a level-3 call of `flops` (noted from HYB_CPU_LIB_THREADED_FLOPS, the
   calls it runs on those threads); hyb_refit_cpu_threads_busy says whether one returned in
   the last HYB_CPU_LIB_SPIN_S seconds, so that host copy threads do not spin beside them
   (measured: a device call right after a CPU call took 20-57 ms where it takes 0.3-2 ms,
   when the copy threads spun). Lock-free: the first is on the CPU path of every call. */
#define HYB_CPU_LIB_SPIN_S         0.25
#define HYB_CPU_LIB_THREADED_FLOPS 1e7
void hyb_refit_cpu_called( double flops );
int  hyb_refit_cpu_threads_busy( void );

/* Forget the corrections and when the library last ran (tests); not the measured
   choices. */
void hyb_refit_reset( void );

#endif
