/* SPDX-License-Identifier: BSD-3-Clause */
/* The public API of the exact 0-1 knapsack solver (seed 003, chapter 2):
   options, statistics and the one solve call. Included by hyblas_ext.h. */
#ifndef HYBLAS_KNAPSACK_H
#define HYBLAS_KNAPSACK_H

/* hyblas_path_t and hyblas_status_t (a no-op when hyblas_ext.h includes this). */
#include "../hyblas_ext.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

	/* The exact methods. Every one returns the same optimum; they differ in
	   time, memory and what they need.
	   - GPU_O3S: the seed's out-of-core branch-and-bound ("extended"): open
	     subproblems overflow into a circular pinned host buffer, the O3S rule
	     moves only what keeps each GPU buffer at half occupancy, two buffers on
	     two streams overlap transfers with the B&B, CUB compaction, CPU mode
	     below the node threshold.
	   - GPU_BFS: the seed's previous out-of-core method: the same with a
	     breadth-first order (every iteration sends all of a buffer down and
	     fetches half a buffer up).
	   - GPU_INCORE: Lalami's in-core B&B: all subproblems on the GPU (one
	     buffer), compaction pattern computed on the CPU; the instance is not
	     solved (HYBLAS_E_CAPACITY) when that buffer runs out.
	   - CPU_BB: the seed's CPU mode on its own: single-threaded B&B over the
	     circular host buffer.
	   - CPU_DP / GPU_DP: the dynamic program over capacities, O(n c) time; the
	     right method whenever n c fits its memory and time.
	   AUTO lets the planner choose (statistics say what and why). */
	typedef enum
	{
		HYBLAS_KNAPSACK_AUTO       = 0,
		HYBLAS_KNAPSACK_GPU_O3S    = 1,
		HYBLAS_KNAPSACK_GPU_BFS    = 2,
		HYBLAS_KNAPSACK_GPU_INCORE = 3,
		HYBLAS_KNAPSACK_CPU_BB     = 4,
		HYBLAS_KNAPSACK_CPU_DP     = 5,
		HYBLAS_KNAPSACK_GPU_DP     = 6
	} hyblas_knapsack_method_t;

	/* Why a branch-and-bound stopped before proving the optimum (statistics
	   only; the call then returns HYBLAS_E_CAPACITY). */
	typedef enum
	{
		HYBLAS_KNAPSACK_STOP_NONE          = 0, /* solved */
		HYBLAS_KNAPSACK_STOP_HOST_BUFFER   = 1, /* the circular host buffer is full */
		HYBLAS_KNAPSACK_STOP_DEVICE_BUFFER = 2, /* the in-core GPU buffer is full */
		HYBLAS_KNAPSACK_STOP_NODE_LIMIT    = 3, /* node_limit subproblems were branched */
		HYBLAS_KNAPSACK_STOP_TIME_LIMIT    = 4, /* time_limit_s passed */
		HYBLAS_KNAPSACK_STOP_DP_MEMORY = 5 /* the dynamic program's table exceeds dp_memory_bytes */
	} hyblas_knapsack_stop_t;

	/* Options. Zero every field, set struct_size = sizeof, change what you
	   need: a zero field means the default written beside it. */
	typedef struct
	{
		size_t                   struct_size;
		hyblas_path_t            path;   /* AUTO; CPU or GPU restrict AUTO's choice to that side */
		hyblas_knapsack_method_t method; /* AUTO; a method conflicting with `path` is invalid */
		int                      prune_ties; /* 0: prune U < L* (the seed); 1: prune U <= L*,
		                                        fewer nodes, node counts no longer the seed's */
		int bound_prefix;                    /* 0: the seed's linear scan for the slack item;
		                                        1: prefix sums + binary search (not the seed's) */
		uint64_t host_buffer_bytes;          /* circular host buffer limit; 20 GiB (the
		                                        seed's 20 GB); grown on demand up to it */
		uint64_t device_buffer_bytes;        /* one GPU buffer, everything it holds;
		                                        1 GiB (the seed's 2 x 1 GB out of core;
		                                        the in-core method gets one of twice it) */
		int64_t cpu_threshold;               /* B&B runs on the CPU while fewer subproblems
		                                        exist; 24576 (the seed's); < 0: never */
		uint64_t node_limit;                 /* stop after branching this many; 0: none */
		double   time_limit_s;               /* stop a B&B after this long; 0: none */
		uint64_t dp_memory_bytes;            /* the DP's table limit; 0: 2 GiB */
		int      threads;                    /* CPU threads of the DP; 0: OpenMP's default */
	} hyblas_knapsack_options_t;

	/* Statistics of one solve. Filled on HYBLAS_OK and on HYBLAS_E_CAPACITY
	   (how far the search got), untouched otherwise. Byte counts are payload
	   moved between host and device (subproblems, labels, patterns, DP rows);
	   the few bytes of per-iteration scalars are not counted. */
	typedef struct
	{
		size_t                   struct_size;
		int64_t                  optimum;  /* the optimum (also on the solve's output) */
		hyblas_knapsack_method_t method;   /* the method that produced the result */
		hyblas_knapsack_method_t planned;  /* the planner's choice */
		int                      fallback; /* 1: `planned` could not run; `method` ran instead */
		int                      trivial;  /* 1: solved without a solver (n = 0, all items fit) */
		int                      probed;   /* 1: AUTO first tried a CPU B&B under a node budget */
		int                      probe_solved; /* 1: that probe proved the optimum */
		hyblas_knapsack_stop_t   stop;
		char                     why[160]; /* the planner's reason and any fallback, in words */
		/* branch-and-bound */
		uint64_t nodes_branched; /* subproblems taken through a branch step */
		uint64_t peak_nodes_host;
		uint64_t peak_nodes_device;
		uint64_t peak_nodes_total;
		uint64_t iterations; /* GPU-mode iterations plus CPU-mode passes */
		uint64_t gpu_iterations;
		uint64_t cpu_iterations;
		uint64_t host_buffer_nodes;   /* capacity in subproblems (s_cpu) */
		uint64_t device_buffer_nodes; /* capacity of one GPU buffer (s_gpu) */
		/* transfers */
		uint64_t h2d_bytes, d2h_bytes;
		uint64_t h2d_calls, d2h_calls;
		uint64_t h2d_nodes, d2h_nodes;
		/* dynamic program */
		uint64_t dp_cells; /* items x (capacity + 1) */
		uint64_t dp_bytes; /* its rows and, with items, its decision bits */
		/* seconds */
		double t_total;
		double t_prepare; /* validation, sort by ratio */
		double t_probe;
		double t_cpu_mode; /* CPU-mode passes (all of CPU_BB) */
		double t_branch, t_bound, t_reduce, t_label, t_compact;
		double t_transfer; /* node, label and pattern transfers */
		double t_dp;
		double t_items;     /* recovering the chosen items */
		double predicted_s; /* the planner's predicted time of `planned` (DP only) */
	} hyblas_knapsack_stats_t;

	/* Solve max sum p_i x_i subject to sum w_i x_i <= capacity, x_i in {0, 1},
	   exactly.
	   @param[in]  n         items, >= 0 (and < 2^31 - 1)
	   @param[in]  profits   n profits >= 0 (NULL only when n = 0)
	   @param[in]  weights   n weights >= 0 (NULL only when n = 0); the sums of
	                         the profits and of the weights must fit in int64
	   @param[in]  capacity  >= 0
	   @param[in]  options   NULL for every default
	   @param[out] optimum   the optimal profit (required)
	   @param[out] x         NULL, or n bytes: x[i] = 1 if item i is in the
	                         returned optimal selection, else 0. Asking costs:
	                         DP: n (c + 1) bits of decisions (part of dp_memory);
	                         B&B: a second, depth-first pass that looks for a
	                         subproblem whose greedy solution reaches the
	                         optimum (never more subproblems than the first
	                         pass, O(n) memory).
	   @param[out] stats     NULL, or statistics (struct_size set by the caller)
	   Items are sorted by profit/weight inside; the caller's arrays are never
	   written. Returns HYBLAS_OK; HYBLAS_E_INVALID (bad argument, nothing
	   written); HYBLAS_E_STRUCT_SIZE; HYBLAS_E_NO_MEMORY (host memory);
	   HYBLAS_E_CAPACITY (a buffer or limit the caller sized ran out before the
	   optimum was proved: stats->stop says which; optimum and x untouched).
	   Without a usable device a GPU method runs its CPU counterpart (stats
	   say so). Thread-safe: calls share nothing. */
	hyblas_status_t hyblas_knapsack_solve( int64_t n, const int64_t* profits,
	                                       const int64_t* weights, int64_t capacity,
	                                       const hyblas_knapsack_options_t* options,
	                                       int64_t* optimum, uint8_t* x,
	                                       hyblas_knapsack_stats_t* stats );

	/* The name of a method ("gpu_o3s", ...); never NULL. */
	const char* hyblas_knapsack_method_name( hyblas_knapsack_method_t m );

#ifdef __cplusplus
}
#endif

#endif
