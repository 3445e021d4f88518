/* SPDX-License-Identifier: BSD-3-Clause */
/* The process's record, per MKL sparse routine, of MKL's routine against hyblas's CPU
   kernel, and the pick it gives for the next CPU call. */
#ifndef HYB_SPMV_CPU_PICK_H
#define HYB_SPMV_CPU_PICK_H

#include "hyb_routines.h"
#include "policies/hyb_policy_spmv_pick.h"

/* The code for the next CPU call of routine `id` (hyb_policy_spmv_pick over this process's
   record). Thread-safe and lock-free (a fork child inherits no held lock). */
hyb_spmv_pick_t hyb_spmv_cpu_pick( hyb_routine_id_t id, int measurable );

/* Record a measured CPU call of routine `id`. Thread-safe and lock-free. */
void hyb_spmv_cpu_pick_learn( hyb_routine_id_t id, hyb_spmv_pick_t code, long long entries,
                              double seconds );

/* Forget every record (tests). */
void hyb_spmv_cpu_pick_reset_for_test( void );

#endif
