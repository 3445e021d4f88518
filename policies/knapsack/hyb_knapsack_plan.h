/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack planner: which exact method runs an instance, from a cost
   model of the dynamic program (cells, memory, calibrated rates) and the
   fact that a branch-and-bound's time cannot be predicted. Pure: no I/O,
   no globals, no device. */
#ifndef HYB_KNAPSACK_PLAN_H
#define HYB_KNAPSACK_PLAN_H

#include <stdint.h>

#include "hyblas/knapsack.h"
#include "hyb_status.h"

/* Machine rates the model uses (defaults in hyb_knapsack_defaults.h). */
typedef struct
{
	double cpu_dp_cells_per_s; /* one thread */
	double cpu_dp_thread_gain; /* each further thread adds this fraction of one */
	double gpu_dp_cells_per_s;
	double gpu_launch_s;    /* one dp_row launch, back to back */
	double gpu_setup_s;     /* allocation and first launch of a solve */
	double d2h_bytes_per_s; /* the selection back */
	double gpu_walk_item_s; /* reading the selection back on the device, an item */
	double cpu_bb_node_s;   /* CPU B&B: fixed cost of branching one node */
	double cpu_bb_item_s;   /* ... and per item its children's bounds scan */
} hyb_knapsack_rates_t;

typedef struct
{
	int64_t                  n;          /* items */
	int64_t                  c;          /* capacity, clamped to the sum of the weights */
	int                      want_items; /* the selection is asked for */
	hyblas_path_t            path;
	hyblas_knapsack_method_t method;          /* AUTO or the caller's */
	int                      gpu_ok;          /* a device can run GPU methods now (AUTO uses it) */
	int                      threads;         /* CPU threads for the DP (>= 1) */
	uint64_t                 dp_host_bytes;   /* the DP's host memory limit */
	uint64_t                 dp_device_bytes; /* the GPU DP's device memory limit */
	double                   probe_fraction;  /* the probe's time limit over the DP's predicted
	                                             time (0: no probe) */
	int64_t              core_items;          /* the instance's core (hyb_knapsack_core_items) */
	int64_t              probe_core_max;      /* a probe only for cores up to this */
	hyb_knapsack_rates_t rates;
} hyb_knapsack_plan_in_t;

typedef struct
{
	hyblas_knapsack_method_t method;
	int                      probe; /* first try a CPU B&B of at most probe_nodes, probe_s */
	uint64_t                 probe_nodes;
	double                   probe_s;
	uint64_t                 dp_cells;     /* n (c + 1) */
	uint64_t                 dp_bytes_cpu; /* host bytes of the CPU DP (rows, bits if asked) */
	uint64_t                 dp_bytes_gpu; /* device bytes of the GPU DP */
	double                   t_dp_cpu;     /* predicted seconds; < 0 when it does not fit */
	double                   t_dp_gpu;     /* < 0 when it does not fit or there is no device */
	double                   predicted_s;  /* of `method` (DP only; 0 for a B&B) */
	int                      dp_threads; /* CPU threads for the CPU DP (1 below the parallel cut) */
	int                      dp_too_big; /* the DP asked for explicitly does not fit its memory */
	char                     why[160];
} hyb_knapsack_plan_t;

/* A method's short name ("gpu_o3s", ...; "unknown" out of range). */
const char* hyb_knapsack_method_str( hyblas_knapsack_method_t m );

/* The threads the CPU DP should use for rows of c + 1 cells: 1 below the
   parallel cut (a barrier per item costs more than a short row). */
int hyb_knapsack_dp_threads( int64_t c, int threads );

/* The built-in rates (hyb_knapsack_defaults.h). */
hyb_knapsack_rates_t hyb_knapsack_default_rates( void );

/* Host bytes of the CPU DP (two rows, plus n (c + 1) bits when items are
   asked for) and the DP's predicted CPU seconds on `threads` threads. */
uint64_t hyb_knapsack_dp_cpu_bytes( int64_t n, int64_t c, int items );
double   hyb_knapsack_dp_cpu_seconds( const hyb_knapsack_rates_t* r, int64_t n, int64_t c,
                                      int threads );

/* Predicted GPU DP seconds (setup, a launch per item, cells, bits back). */
double hyb_knapsack_dp_gpu_seconds( const hyb_knapsack_rates_t* r, int64_t n, int64_t c,
                                    int items );

/* Predicted seconds of one CPU B&B node for n items. */
double hyb_knapsack_bb_node_seconds( const hyb_knapsack_rates_t* r, int64_t n );

/* Choose. AUTO: the DP whenever it fits its memory, on the side predicted
   faster (GPU with gpu_ok, or always when path is GPU: without a device it
   then runs on the CPU and says so), preceded, when the path allows the CPU
   and the core is at most probe_core_max items, by a CPU B&B probe of
   HYB_KNAPSACK_PROBE_NODES_PER_CORE nodes per core item (plus
   HYB_KNAPSACK_PROBE_NODES_MIN) and at most probe_fraction of that DP's
   predicted time (an easy instance then ends in the probe);
   when no DP fits, the B&B: GPU O3S with a device (it starts in CPU mode
   and only uses the device past the node threshold), the CPU B&B without.
   An explicit method is kept (dp_too_big set if it is a DP that does not
   fit). Returns HYB_OK, or HYB_E_INVALID for a method that contradicts the
   path or a value out of range. */
hyb_status_t hyb_knapsack_plan( const hyb_knapsack_plan_in_t* in, hyb_knapsack_plan_t* out );

#endif
