/* SPDX-License-Identifier: BSD-3-Clause */
/* The measured choice of level-3 calls, by shape: which side a call of a
   shape runs while it is measured, and what it settled on. The decisions are
   hyb_policy_l3_measured_*; the records are the learning store's measured
   choices (policies/hyb_learn.h), keyed by ("l3", the shape's key). */
#ifndef HYB_L3_MEMO_H
#define HYB_L3_MEMO_H

#include <stdint.h>

#include "hyb_args.h"

/* The key of a call's shape: the operation, precision, options, sizes and
   whether beta is zero (which changes what the device moves). */
uint64_t hyb_l3_memo_key( const hyb_l3_args_t* a );

/* The side the next call of `key` runs (0: CPU, 1: device; `model_side` is
   the plan's); *settled is 1 once the shape has settled. A new shape takes
   the record of the least recently used one past HYB_LEARN_CHOICES_PER_OP.
   Thread-safe. */
int hyb_l3_memo_side( uint64_t key, int model_side, int* settled );

/* A call of `key` on `side` took `seconds` (ignored when the shape's record
   was reused meanwhile). Thread-safe. */
void hyb_l3_memo_note( uint64_t key, int side, double seconds );

/* Forget every record (tests). */
void hyb_l3_memo_reset( void );

#endif
