/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack API's implementation on a given device: what
   hyblas_knapsack_solve runs once it has picked the device, callable by
   the tests with a host stand-in that injects faults. */
#ifndef HYB_KNAPSACK_SOLVE_H
#define HYB_KNAPSACK_SOLVE_H

#include "hyblas_ext.h"
#include "kernels/knapsack/hyb_knapsack_dev.h"

/* hyblas_knapsack_solve (include/hyblas/knapsack.h) with GPU methods run on
   `dev` (NULL: no usable device; GPU methods then run their CPU
   counterparts). A device error during a method finishes it on the CPU. */
hyblas_status_t hyb_knapsack_solve_on( const hyb_knapsack_dev_t* dev, int64_t n,
                                       const int64_t* profits, const int64_t* weights,
                                       int64_t capacity, const hyblas_knapsack_options_t* options,
                                       int64_t* optimum, uint8_t* x,
                                       hyblas_knapsack_stats_t* stats );

#endif
