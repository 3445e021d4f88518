/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack dynamic program on the device: one dp_row launch per item
   over two device rows, decision bits kept on the device when the items
   are wanted and read back there (dp_walk), the value and the selection
   copied back once. */
#ifndef HYB_KNAPSACK_DPDEV_H
#define HYB_KNAPSACK_DPDEV_H

#include <stdint.h>

#include "kernels/knapsack/hyb_knapsack_dev.h"

typedef struct
{
	uint64_t h2d_bytes, d2h_bytes, h2d_calls, d2h_calls;
	uint64_t dev_bytes; /* rows and bits */
	uint64_t launches;
	double   t_dp; /* from the first launch to the value on the host */
} hyb_knapsack_dpdev_stats_t;

/* Device bytes the DP needs: two rows of c + 1 values, and when `items`
   n rows of decision bits, the weights and the selection. */
uint64_t hyb_knapsack_dpdev_bytes( int64_t n, int64_t c, int items );

/* The DP over n items (w, p on the host, any order) and capacities 0..c.
   x: NULL, or n bytes for the selection (x[i] = 1: item i taken), the one
   hyb_knapsack_dp_backtrack finds from the CPU DP's bits. The value comes
   back into pageable memory (no page-locked allocation per call).
   Returns HYB_OK with *value,
   HYB_E_NO_MEMORY, or the device's error (everything released; the caller
   then runs the CPU DP). */
hyb_status_t hyb_knapsack_dp_device( const hyb_knapsack_dev_t* dev, const int64_t* w,
                                     const int64_t* p, int32_t n, int64_t c, int64_t* value,
                                     uint8_t* x, hyb_knapsack_dpdev_stats_t* stats );

#endif
