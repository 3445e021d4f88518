/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack's CPU kernels: the dynamic program (serial oracle and the
   OpenMP row version with decision bits), its backtrack, one B&B node
   expansion (the seed's CPU mode step), and the depth-first recovery of an
   optimal selection once the optimum is known. */
#ifndef HYB_KNAPSACK_CPU_H
#define HYB_KNAPSACK_CPU_H

#include <stdint.h>

#include "hyb_status.h"
#include "kernels/knapsack/hyb_knapsack_node.h"

/* The optimum by the textbook in-place DP (one row of c + 1 values,
   capacities downwards), in any item order: the independent oracle. n >= 0,
   c >= 0, values >= 0 whose sums fit int64. Returns HYB_OK or
   HYB_E_NO_MEMORY. */
hyb_status_t hyb_knapsack_dp_serial( int64_t n, const int64_t* profits, const int64_t* weights,
                                     int64_t c, int64_t* value );

/* The DP with two rows of c + 1 values, each row split over `threads`
   OpenMP threads (0: OpenMP's default; a barrier per item, so short rows
   want one), the same cells as the device's dp_row kernel. bits: NULL, or
   n * hyb_knapsack_dp_words(c) words that receive item i's decision bits in
   row i (for hyb_knapsack_dp_backtrack). Returns HYB_OK or
   HYB_E_NO_MEMORY. */
hyb_status_t hyb_knapsack_dp_cpu( const int64_t* w, const int64_t* p, int32_t n, int64_t c,
                                  int threads, int64_t* value, uint32_t* bits );

/* An optimal selection from the decision bits of a DP over the same items
   and capacity: x[i] = 1 for the items taken. */
void hyb_knapsack_dp_backtrack( const int64_t* w, int32_t n, int64_t c, const uint32_t* bits,
                                uint8_t* x );

/* One step of the seed's CPU mode: branch `parent`, bound both children,
   raise *lstar to their lower bounds, and copy the children that survive
   the pruning test (hyb_knapsack_label) into out[0..). Returns how many
   (0, 1 or 2). Exactly what a GPU iteration computes for that parent,
   except that L* already includes earlier parents of the same pass. */
int hyb_knapsack_cpu_expand( const hyb_knapsack_items_t* it, const hyb_knapsack_node_t* parent,
                             int64_t* lstar, int ties, hyb_knapsack_node_t out[2] );

/* Given the optimum z of the instance `it`, find an optimal selection:
   depth first (take before skip), dropping a node whose upper bound is
   below z, until a node's greedy solution (its lower bound) reaches z; x
   (n bytes, sorted order) gets the path's decisions and that greedy
   completion. Every node on the path of an optimal solution has U >= z,
   so one is found; it visits no node the B&B that proved z could have
   pruned (which can be as many as it branched: the pass is as long as the
   search on hard instances). *visited counts the nodes bounded. Returns
   HYB_OK, HYB_E_NO_MEMORY, HYB_E_INVALID if z is not reachable (z was not
   the optimum), or HYB_E_TIMEOUT once hyb_now() passes `deadline` (checked
   every 4096 nodes from the first; 0: none), x then partly written. */
hyb_status_t hyb_knapsack_recover( const hyb_knapsack_items_t* it, int64_t z, uint8_t* x,
                                   uint64_t* visited, double deadline );

#endif
