/* SPDX-License-Identifier: BSD-3-Clause */
/* The one refit rule of every learned rate, and the one place that states the weight
   each family gives a new measurement, with why. */
#ifndef HYB_LEARN_H
#define HYB_LEARN_H

/* Level 3 (policies/hyb_refit.c: the device scale and the CPU library's strip rate):
   a call is large and its measurement steady, and the split follows a changing machine
   within a few calls; one outlier moves the model by a third. */
#define HYB_LEARN_WEIGHT_L3 0.35

/* Sparse products (dispatch/hyb_spmv_rates.c): calls are short and many (tens of
   microseconds and up), each one noisier, so a new one weighs a quarter. */
#define HYB_LEARN_WEIGHT_SPMV 0.25

/* Tridiagonal (dispatch/hyb_gtsv_rates.c, persisted per profile key): few calls per
   run, each of millions of rows; one call can be disturbed by other work, so one sample
   moves the rate half way. */
#define HYB_LEARN_WEIGHT_GTSV 0.5

/* The rule: old + w (sample - old) for 0 < w <= 1; the sample itself where the old
   value is not known (!known). Pure. */
static inline double hyb_learn_fold( double old, int known, double sample, double w )
{
	return known ? old + w * ( sample - old ) : sample;
}

#endif
