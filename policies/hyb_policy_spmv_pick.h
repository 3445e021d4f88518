/* SPDX-License-Identifier: BSD-3-Clause */
/* Which CPU code a sparse product runs where the program brought MKL: MKL's own routine,
   or hyblas's kernel where that measured faster (a pure rule over measured times). */
#ifndef HYB_POLICY_SPMV_PICK_H
#define HYB_POLICY_SPMV_PICK_H

typedef enum
{
	HYB_SPMV_PICK_MKL = 0, /* MKL's own routine */
	HYB_SPMV_PICK_OWN = 1  /* hyblas's CPU kernel */
} hyb_spmv_pick_t;

/* What one routine has measured so far: calls timed on each code and the best seconds per
   stored entry of each (0 when none). */
typedef struct
{
	int    mkl_calls, own_calls;
	double mkl_best, own_best;
} hyb_spmv_pick_state_t;

/* The code for the next call. A call too small to time well (measurable 0) and every call
   until MKL has been timed twice (its first call pays its own start-up) runs MKL's routine;
   then one call tries hyblas's kernel; from there on hyblas's kernel runs only where its
   best time per entry is clearly (5 %) below MKL's. A NULL state means MKL. */
hyb_spmv_pick_t hyb_policy_spmv_pick( const hyb_spmv_pick_state_t* s, int measurable );

/* Record one measured call of `entries` stored entries on `code` taking `seconds`; calls
   without entries or time teach nothing. */
void hyb_policy_spmv_pick_learn( hyb_spmv_pick_state_t* s, hyb_spmv_pick_t code, long long entries,
                                 double seconds );

#endif
