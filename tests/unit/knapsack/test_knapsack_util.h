/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared helpers of the knapsack suites: an independent brute-force
   optimum, random and generated instances, selection checks, and running
   one driver on the host stand-in. */
#ifndef TEST_KNAPSACK_UTIL_H
#define TEST_KNAPSACK_UTIL_H

#include <stdint.h>

#include "kernels/knapsack/hyb_knapsack_hostdev.h"
#include "kernels/knapsack/hyb_knapsack_items.h"
#include "kernels/knapsack/hyb_knapsack_search.h"
#include "tools/knapsack/hyb_knapsack_gen.h"

#define KT_MAX_N 4096

/* An instance owned by value (n <= KT_MAX_N). */
typedef struct
{
	int64_t n;
	int64_t p[KT_MAX_N];
	int64_t w[KT_MAX_N];
	int64_t c;
} kt_inst_t;

/* The optimum by enumerating all 2^n selections (n <= 22). */
int64_t kt_brute( const kt_inst_t* in );

/* The optimum by the serial DP oracle (fails the test on no memory). */
int64_t kt_dp( const kt_inst_t* in );

/* A generated instance (the generator must accept it). */
void kt_gen( kt_inst_t* in, hyb_knapsack_gen_class_t cls, int64_t n, int64_t range, uint64_t seed );

/* A random small instance with zero weights, zero profits and items
   heavier than the capacity mixed in, from `seed`. */
void kt_random( kt_inst_t* in, int64_t n, int64_t maxv, uint64_t seed );

/* 1 if x (n bytes, caller order) is a 0/1 selection within the capacity
   whose profit is z. */
int kt_selection_ok( const kt_inst_t* in, const uint8_t* x, int64_t z );

/* Run search `plan` on `in` through the host stand-in `hd` (zeroed by the
   caller, faults set as wished); returns the driver's status. */
hyb_status_t kt_search( const kt_inst_t* in, hyb_knapsack_search_plan_t* plan,
                        hyb_knapsack_hostdev_t* hd, int prefix, hyb_knapsack_search_stats_t* st );

/* A plan with small buffers: the given search, threshold, host and GPU
   buffer sizes in subproblems. */
hyb_knapsack_search_plan_t kt_plan( hyb_knapsack_search_t search, int64_t threshold,
                                    int64_t host_nodes, int64_t pool_nodes );

/* API options for `m` with small buffers (1 MiB host, `device_bytes` a GPU buffer) and a
   CPU-mode threshold of 16, so that a few dozen items run many GPU iterations. */
hyblas_knapsack_options_t kt_small_opts( hyblas_knapsack_method_t m, uint64_t device_bytes );

#endif
