/* SPDX-License-Identifier: BSD-3-Clause */
/* Defaults of the knapsack solver and its planner, each with where it
   comes from. */
#ifndef HYB_KNAPSACK_DEFAULTS_H
#define HYB_KNAPSACK_DEFAULTS_H

/* ---- the seed's settings (003 ch. 2, sec. 2.6) ---- */

/* Circular pinned host buffer: "an array of 20 GB" (read as GiB). */
#define HYB_KNAPSACK_HOST_BUFFER_BYTES ( 20ull << 30 )
/* One GPU buffer: the seed allocates 2 GB of GPU memory, two 1 GB buffers
   out of core and one 2 GB buffer in core. */
#define HYB_KNAPSACK_DEVICE_BUFFER_BYTES ( 1ull << 30 )
/* CPU mode below this many subproblems, "determined experimentally". */
#define HYB_KNAPSACK_CPU_THRESHOLD 24576

/* ---- the planner's own settings ---- */

/* The DP's memory limit when the caller gives none: 2 GiB holds the rows of
   a capacity of 134 million, or the decision bits of n c = 17 billion
   cells; the seed's largest instances (n = 1000, c ~ 5e5) need 8 MB (62 MB
   with the items). A policy choice, not a measurement. */
#define HYB_KNAPSACK_DP_MEMORY_BYTES ( 2ull << 30 )
/* AUTO's CPU B&B probe before a DP. How long a B&B takes is not predictable
   from n and c, but the instance's core is a good sign (the items the LP
   bound cannot fix, kernels/knapsack/hyb_knapsack_core.h): over 100 of the
   seed's instances (n = 100..1000, 10 per size), every one with a core of at
   most 80 items was proved in at most 270 nodes per core item (median 48),
   while larger cores needed up to 20000 per item or did not finish. So the probe runs only where
   the core is at most PROBE_CORE_MAX, with PROBE_NODES_PER_CORE nodes per core item plus
   PROBE_NODES_MIN, and never longer than PROBE_FRACTION of the DP's predicted time (what a wrong
   sign can cost). docs/knapsack.md has the table. */
#define HYB_KNAPSACK_PROBE_CORE_MAX       80
#define HYB_KNAPSACK_PROBE_NODES_PER_CORE 300
#define HYB_KNAPSACK_PROBE_NODES_MIN      2048
#define HYB_KNAPSACK_PROBE_FRACTION       1.0
/* Rows below this many cells run the CPU DP on one thread: on the build
   machine (2 cores, gcc 12 -O2) an OpenMP barrier per item cost about as
   much as 64 Ki cells. */
#define HYB_KNAPSACK_DP_PARALLEL_CELLS 65536

/* ---- rates ---- */

/* CPU DP, one thread: measured with hyb_knapsack_dp_cpu on the build
   machine (Xeon @ 2.8 GHz, 2 cores shared, gcc 12 -O2, OpenMP simd row),
   seed instances n = 200 / 600 / 1000 (c ~ 1e5 / 3e5 / 5e5):
   3.5e8 / 4.8e8 / 4.2e8 cells per second. */
#define HYB_KNAPSACK_CPU_DP_CELLS_PER_S 4.0e8
/* Each further thread: the row loop moves 24 bytes a cell and meets a
   barrier per item; the shared 2-core build machine cannot measure it. A
   conservative half until calibrated on the GPU machine's host. */
#define HYB_KNAPSACK_CPU_DP_THREAD_GAIN 0.5
/* GPU DP, estimated (no device measurement yet): one cell reads two and
   writes one int64, ~24 bytes, at ~3 TB/s on an H100 -> 1.2e11 cells/s. */
#define HYB_KNAPSACK_GPU_DP_CELLS_PER_S 1.2e11
/* One queued kernel launch back to back, CUDA 12/13 on Hopper, ~3 us. */
#define HYB_KNAPSACK_GPU_LAUNCH_S 3.0e-6
/* Allocation and first launch of a GPU DP. Estimated. */
#define HYB_KNAPSACK_GPU_SETUP_S 5.0e-4
/* The GPU DP's selection read back on the device by one thread: a dependent
   read of device memory an item, about a microsecond (an estimate: the
   latency of a miss to HBM through L2, rounded up). */
#define HYB_KNAPSACK_GPU_WALK_ITEM_S 1.0e-6
/* Pinned device-to-host copies: 55 GB/s on the GPU machine's PCIe gen5
   (shared/ANCHORS.md). */
#define HYB_KNAPSACK_D2H_BYTES_PER_S 55.0e9
/* CPU B&B node: a fixed cost and a cost per item (the bounds' scans over
   the items after the node's depth); measured with the CPU search on the
   build machine: 2e-7 to 3e-7 s a node at n = 200, 3.4e-9 to 3.6e-9 s per
   node and item at n = 600 and 1000 (seed and weakly correlated
   instances). */
#define HYB_KNAPSACK_CPU_BB_NODE_S 2.0e-7
#define HYB_KNAPSACK_CPU_BB_ITEM_S 3.5e-9

#endif
