/* SPDX-License-Identifier: BSD-3-Clause */
/* Knapsack instance generators for tests and benchmarks (not the public
   API): Pisinger's classes, the seed's data set (003 Table 2.3) and
   large-capacity instances beyond any dynamic program, all from one
   deterministic generator so a (class, n, seed) names an instance. */
#ifndef HYB_KNAPSACK_GEN_H
#define HYB_KNAPSACK_GEN_H

#include <stdint.h>

#include "hyb_status.h"

/* Classes as defined by D. Pisinger, "Where are the hard knapsack
   problems?", Computers & Operations Research 32 (2005), with data range R:
   UNCORRELATED       w, p uniform in [1, R]
   WEAKLY             w in [1, R], p in [w - R/10, w + R/10] and p >= 1
   STRONGLY           w in [1, R], p = w + R/10
   INVERSE_STRONGLY   p in [1, R], w = p + R/10
   ALMOST_STRONGLY    w in [1, R], p in [w + R/10 - R/500, w + R/10 + R/500]
   SUBSET_SUM         w in [1, R], p = w
   SIMILAR_WEIGHTS    w in [100000, 100100], p in [1, 1000] (R unused)
   PROFIT_CEILING     w in [1, R], p = 3 ceil(w / 3)
   CIRCLE             w in [1, R], p = floor(2/3 sqrt(4 R^2 - (w - 2 R)^2))
   capacity c = floor(h sum(w) / (H + 1)) (instance h of a series of H).
   SEED is seed 003's Table 2.3: w in [1, 10000], p = w + 1000 +
   [-20, 20], c = floor(sum(w) 100 / 1001). The thesis calls it strongly
   correlated; it is ALMOST_STRONGLY with R = 10^4, h = 100, H = 1000 (the
   profit spread is R/500 = 20). */
typedef enum
{
	HYB_KNAPSACK_GEN_UNCORRELATED = 0,
	HYB_KNAPSACK_GEN_WEAKLY,
	HYB_KNAPSACK_GEN_STRONGLY,
	HYB_KNAPSACK_GEN_INVERSE_STRONGLY,
	HYB_KNAPSACK_GEN_ALMOST_STRONGLY,
	HYB_KNAPSACK_GEN_SUBSET_SUM,
	HYB_KNAPSACK_GEN_SIMILAR_WEIGHTS,
	HYB_KNAPSACK_GEN_PROFIT_CEILING,
	HYB_KNAPSACK_GEN_CIRCLE,
	HYB_KNAPSACK_GEN_SEED,
	HYB_KNAPSACK_GEN_COUNT
} hyb_knapsack_gen_class_t;

typedef struct
{
	hyb_knapsack_gen_class_t cls;
	int64_t                  n;
	int64_t                  range; /* R >= 10 (0: 1000; SEED ignores it) */
	int64_t                  h, H;  /* capacity series position (0, 0: h = 50, H = 100) */
	uint64_t                 seed;
} hyb_knapsack_gen_t;

/* Fill p[n], w[n] and *c. Returns HYB_OK, or HYB_E_INVALID (bad class, n,
   range or h/H, or sums that would not fit int64). Deterministic on every
   machine. Thread-safe. */
hyb_status_t hyb_knapsack_generate( const hyb_knapsack_gen_t* g, int64_t* p, int64_t* w,
                                    int64_t* c );

/* The class's name ("almost_strongly", ...); never NULL. */
const char* hyb_knapsack_gen_name( hyb_knapsack_gen_class_t cls );

/* The seed's data set: n in {100, 200, ..., 1000}, instances 0..19, each
   with its fixed generator seed. */
#define HYB_KNAPSACK_SEED_SET_PER_SIZE 20
hyb_knapsack_gen_t hyb_knapsack_gen_seed_set( int64_t n, int instance );

/* A large-capacity instance where only a B&B is feasible: uncorrelated with
   R = 10^12, capacity about half the weights (~2.5e11 n), so a DP row alone
   would need 2 n terabytes; the bounds prune it easily. */
hyb_knapsack_gen_t hyb_knapsack_gen_large( int64_t n, uint64_t seed );

#endif
