/* SPDX-License-Identifier: BSD-3-Clause */
/* What recent calls measured, fed back into the cost model: the ratio of
   measured to predicted device time and the CPU library's rate on strips
   (CALDGEMM refits its split after every call; so do we). */
#ifndef HYB_REFIT_H
#define HYB_REFIT_H

#include "hyb_types.h"

/* Record a device call of predicted and measured seconds (device side). */
void hyb_refit_gpu( hyb_prec_t prec, double predicted, double measured );

/* Record a CPU strip of `flops` that took `seconds`. */
void hyb_refit_cpu( hyb_prec_t prec, double flops, double seconds );

/* Current correction of device predictions (1 when nothing measured) and
   measured CPU rate (0 when nothing measured). Thread-safe. */
double hyb_refit_gpu_scale( hyb_prec_t prec );
double hyb_refit_cpu_rate( hyb_prec_t prec );

/* Forget everything (tests). */
void hyb_refit_reset( void );

#endif
