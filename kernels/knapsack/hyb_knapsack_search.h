/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack branch-and-bound drivers (seed 003 ch. 2): the out-of-core
   GPU search with the O3S rule (Algorithm 1) or the BFS rule on two GPU
   buffers and two streams, Lalami's in-core search with the compaction
   pattern computed on the CPU, and the CPU search (the seed's CPU mode on
   its own), all over the circular host buffer, written against the
   family's device interface. The plan comes in as data. */
#ifndef HYB_KNAPSACK_SEARCH_H
#define HYB_KNAPSACK_SEARCH_H

#include <stdint.h>

#include "hyblas/knapsack.h"
#include "hyb_status.h"
#include "kernels/knapsack/hyb_knapsack_dev.h"
#include "kernels/knapsack/hyb_knapsack_node.h"

typedef enum
{
	HYB_KNAPSACK_SEARCH_O3S = 0, /* out of core, O3S rule, 2 buffers, GPU compaction */
	HYB_KNAPSACK_SEARCH_BFS,     /* out of core, BFS rule, 2 buffers, GPU compaction */
	HYB_KNAPSACK_SEARCH_INCORE,  /* in core, 1 buffer, CPU-computed pattern */
	HYB_KNAPSACK_SEARCH_CPU      /* CPU mode only; no device */
} hyb_knapsack_search_t;

/* What one iteration did (for the trace hook and the tests of Table 2.1):
   the subproblems it moved between the circular buffer and a GPU buffer,
   in how many copy calls, and where things stand afterwards. */
typedef struct
{
	uint64_t index;    /* 0, 1, ... over all iterations */
	int      cpu_mode; /* 1: a CPU-mode pass (GPU buffers emptied first) */
	int      pool;     /* the GPU buffer that transferred (-1: none) */
	int      computed; /* the GPU buffer that ran the B&B (-1: none) */
	int64_t  d2h_nodes, h2d_nodes;
	int      d2h_calls, h2d_calls;
	int64_t  n_host;
	int64_t  n_dev[2];
	int64_t  head, tail, check;
	int64_t  lstar;
} hyb_knapsack_iter_t;

typedef struct
{
	hyb_knapsack_search_t search;
	int64_t               threshold;  /* CPU mode while fewer subproblems exist (host + device) */
	int64_t               host_nodes; /* s_cpu: the circular buffer's limit, >= 1 */
	int64_t               pool_nodes; /* s_gpu: one GPU buffer's subproblems after branching,
	                                     even, >= 2 (device searches only) */
	int      ties;                    /* prune U <= L* instead of U < L* */
	int      prefix;                  /* prefix-sum bound */
	uint64_t node_limit;              /* 0: none */
	double   time_limit_s;            /* 0: none */
	void ( *on_iteration )( void* ctx, const hyb_knapsack_iter_t* it );
	void* trace_ctx;
} hyb_knapsack_search_plan_t;

typedef struct
{
	int64_t                lstar; /* the optimum when stop == NONE */
	hyblas_knapsack_stop_t stop;
	uint64_t               nodes_branched;
	uint64_t               iterations, gpu_iterations, cpu_iterations;
	uint64_t               peak_host, peak_dev, peak_total;
	uint64_t               h2d_bytes, d2h_bytes, h2d_calls, d2h_calls, h2d_nodes, d2h_nodes;
	uint64_t               host_bytes; /* largest circular-buffer storage */
	uint64_t               dev_bytes;  /* device memory allocated */
	double                 t_cpu_mode, t_branch, t_bound, t_reduce, t_label, t_compact, t_transfer;
} hyb_knapsack_search_stats_t;

/* Bytes of one GPU buffer per subproblem slot (the slot's record, its
   child, bounds and compaction arrays) for a device search. */
int64_t hyb_knapsack_search_slot_bytes( hyb_knapsack_search_t search );

/* The subproblems (even, rounded down) one GPU buffer of `bytes` holds
   once its compaction scratch (asked of `dev`) is set aside. Returns
   HYB_OK, HYB_E_INVALID if fewer than 2 fit, or the device's status. */
hyb_status_t hyb_knapsack_search_pool_nodes( const hyb_knapsack_dev_t* dev,
                                             hyb_knapsack_search_t search, uint64_t bytes,
                                             int64_t* nodes );

/* Run one search on the host items `it` (sorted, capacity clamped):
   `dev` is the device (NULL only for HYB_KNAPSACK_SEARCH_CPU). Returns
   HYB_OK when the search ended, solved (stats->stop == NONE, the optimum
   in stats->lstar) or stopped by a buffer or limit (stats->stop says
   which); HYB_E_NO_MEMORY or HYB_E_INVALID (a plan out of range); or a
   device error, after which everything is released and the caller runs
   the CPU search instead. Stats are filled in every case. */
hyb_status_t hyb_knapsack_search( const hyb_knapsack_dev_t* dev, const hyb_knapsack_items_t* it,
                                  const hyb_knapsack_search_plan_t* plan,
                                  hyb_knapsack_search_stats_t*      stats );

#endif
