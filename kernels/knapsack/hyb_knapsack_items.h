/* SPDX-License-Identifier: BSD-3-Clause */
/* A knapsack instance as every method reads it: checked, copied, sorted by
   non-increasing profit/weight (the caller's arrays untouched), capacity
   clamped to the sum of the weights, prefix sums and the permutation back
   to the caller's order. */
#ifndef HYB_KNAPSACK_ITEMS_H
#define HYB_KNAPSACK_ITEMS_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/knapsack/hyb_knapsack_node.h"

/* Largest number of items: a depth must fit the record's int32 with room
   for n itself. */
#define HYB_KNAPSACK_MAX_ITEMS ( (int64_t)INT32_MAX - 1 )

typedef struct
{
	int64_t* w;    /* n weights, sorted */
	int64_t* p;    /* n profits, sorted */
	int64_t* wsum; /* n + 1 prefix sums of w */
	int64_t* psum; /* n + 1 prefix sums of p */
	int64_t* perm; /* perm[i]: the caller's index of sorted item i */
	int32_t  n;
	int64_t  c;     /* min(capacity, sum_w) */
	int64_t  sum_w; /* sum of all weights */
	int64_t  sum_p; /* sum of all profits */
} hyb_knapsack_prep_t;

/* Check an instance without writing anything: n in [0, MAX_ITEMS], arrays
   non-NULL when n > 0, every profit and weight >= 0, capacity >= 0, and the
   sums of the profits and of the weights within int64. Returns HYB_OK
   with the sums, or HYB_E_INVALID. Pure, thread-safe. */
hyb_status_t hyb_knapsack_check( int64_t n, const int64_t* profits, const int64_t* weights,
                                 int64_t capacity, int64_t* sum_p, int64_t* sum_w );

/* Build the sorted copy of a checked instance (ties in ratio keep the
   caller's order; zero-weight items come first). Returns HYB_OK,
   HYB_E_INVALID (fails hyb_knapsack_check) or HYB_E_NO_MEMORY; on failure
   `out` holds nothing to free. */
hyb_status_t hyb_knapsack_prepare( int64_t n, const int64_t* profits, const int64_t* weights,
                                   int64_t capacity, hyb_knapsack_prep_t* out );

/* Release what hyb_knapsack_prepare allocated (NULL-safe, idempotent). */
void hyb_knapsack_prep_free( hyb_knapsack_prep_t* prep );

/* The kernels' view of a prepared instance; `prefix` selects the
   prefix-sum bound (wsum/psum set) or the linear scan (NULL). */
hyb_knapsack_items_t hyb_knapsack_prep_items( const hyb_knapsack_prep_t* prep, int prefix );

#endif
