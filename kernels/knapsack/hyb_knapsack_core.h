/* SPDX-License-Identifier: BSD-3-Clause */
/* The core of a prepared instance: the items that the linear-programming bound cannot fix.
   It predicts how hard a branch-and-bound finds the instance (AUTO's probe uses it). */
#ifndef HYB_KNAPSACK_CORE_H
#define HYB_KNAPSACK_CORE_H

#include <stdint.h>

#include "kernels/knapsack/hyb_knapsack_items.h"

/* The number of items whose Dembo-Hammer bound keeps them free: with b the split item of
   the ratio order, U the Dantzig bound and L the greedy solution's value, item i is free
   when |p_i - p_b w_i / w_b| <= U - L (setting it against the greedy choice could still
   reach L + 1). 0 when every item fits. O(n), exact integer arithmetic; pure. */
int64_t hyb_knapsack_core_items( const hyb_knapsack_prep_t* prep );

#endif
