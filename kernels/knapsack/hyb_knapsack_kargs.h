/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument blocks of the knapsack device kernels (device pointers, sizes,
   scalars; no CUDA types), their ids, and the launchers of both backends
   (kernels/knapsack/hyb_knapsack_cuda.cu, kernels/knapsack/hyb_knapsack_sim.c),
   all with the hyb_kernel_fn signature of kernels/hyb_kernel.h. */
#ifndef HYB_KNAPSACK_KARGS_H
#define HYB_KNAPSACK_KARGS_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/hyb_kernel.h"
#include "kernels/knapsack/hyb_knapsack_node.h"

#ifdef __cplusplus
extern "C"
{
#endif

	/* The kernels of the family, in the order of the launcher tables. */
	typedef enum
	{
		HYB_KNAPSACK_K_BRANCH = 0,
		HYB_KNAPSACK_K_BOUND,
		HYB_KNAPSACK_K_REDUCE_MAX,
		HYB_KNAPSACK_K_LABEL,
		HYB_KNAPSACK_K_COMPACT,
		HYB_KNAPSACK_K_GATHER,
		HYB_KNAPSACK_K_DP_ROW,
		HYB_KNAPSACK_K_DP_WALK,
		HYB_KNAPSACK_K_COUNT
	} hyb_knapsack_kernel_t;

	/* What one GPU B&B iteration reports back in one small copy: the largest
	   lower bound of its children (written by the max-reduce) and the kept
	   nodes, unfinished and finished (written by the compaction). */
	typedef struct
	{
		int64_t max_l;
		int64_t n_unfinished;
		int64_t n_finished;
	} hyb_knapsack_scalars_t;

	/* One thread per parent: parents[i] -> children[2 i] (take item k) and
	   children[2 i + 1] (skip it). */
	typedef struct
	{
		hyb_knapsack_items_t       items;
		const hyb_knapsack_node_t* parents;
		int64_t                    n_parents;
		hyb_knapsack_node_t*       children;
	} hyb_knapsack_branch_args_t;

	/* One thread per child: slack item into nodes[i].s, bounds into u[i], l[i]
	   (hyb_knapsack_bound; items.wsum non-NULL selects the prefix-sum search). */
	typedef struct
	{
		hyb_knapsack_items_t items;
		hyb_knapsack_node_t* nodes;
		int64_t              m;
		int64_t*             u;
		int64_t*             l;
	} hyb_knapsack_bound_args_t;

	/* *out = max(l[0..m)) (CUB DeviceReduce::Max on CUDA), m >= 1. `temp` is
	   the caller's scratch of temp_bytes (hyb_knapsack_*_temp_bytes). */
	typedef struct
	{
		const int64_t* l;
		int64_t        m;
		int64_t*       out;
		void*          temp;
		size_t         temp_bytes;
	} hyb_knapsack_reduce_args_t;

	/* One thread per child: its label against L* = max(lstar, *iter_max)
	   (hyb_knapsack_label). Writes key[i] (the compaction's scan input: 0, 1 or
	   HYB_KNAPSACK_KEY_DONE) when key is non-NULL, and label[i] (HYB_KNAPSACK_DROP / KEEP
	   / KEEP_DONE, for the CPU-pattern compaction) when label is non-NULL. */
	typedef struct
	{
		const hyb_knapsack_node_t* nodes;
		const int64_t*             u;
		int64_t                    m;
		int32_t                    n_items;
		int64_t                    lstar;
		const int64_t*             iter_max;
		int                        ties;
		int64_t*                   key;
		int32_t*                   label;
	} hyb_knapsack_label_args_t;

	/* The separated compaction (seed 003 fig. 2.5): pos = inclusive sum of key
	   (CUB DeviceScan::InclusiveSum into the separate array pos), then every
	   kept node of `in` is written to `out` (never `in`): unfinished ones first
	   in order, finished ones after them in order. scalars->n_unfinished and
	   n_finished receive the counts. m >= 1, m < 2^31; `temp` as for the
	   reduce.
	   The scratch-size query (CUB's protocol, through a launch so that it
	   reaches whichever backend runs the kernels): with temp_query non-NULL
	   (host memory) the launch only writes there the scratch bytes the reduce
	   and the compaction need for up to m elements on this backend, and queues
	   nothing else; the caller reads it after syncing the stream. */
	typedef struct
	{
		const hyb_knapsack_node_t* in;
		const int64_t*             key;
		int64_t*                   pos;
		int64_t                    m;
		hyb_knapsack_node_t*       out;
		hyb_knapsack_scalars_t*    scalars;
		void*                      temp;
		size_t                     temp_bytes;
		size_t*                    temp_query;
	} hyb_knapsack_compact_args_t;

	/* Lalami's compaction step on the device: out[dest[i]] = in[i] for every
	   dest[i] >= 0, the pattern dest having been computed on the host. */
	typedef struct
	{
		const hyb_knapsack_node_t* in;
		const int32_t*             dest;
		int64_t                    m;
		hyb_knapsack_node_t*       out;
	} hyb_knapsack_gather_args_t;

	/* One item of the dynamic program over capacities 0..cap:
	   next[j] = max(prev[j], prev[j - w] + p) (j >= w), prev NULL meaning a
	   row of zeros (no item yet). When `take` is non-NULL, bit j of it (word
	   j / 32, bit j % 32) is set iff the item was taken at j, i.e. the second
	   term is strictly larger; the row has (cap + 32) / 32 words. */
	typedef struct
	{
		const int64_t* prev;
		int64_t*       next;
		uint32_t*      take;
		int64_t        cap;
		int64_t        w;
		int64_t        p;
	} hyb_knapsack_dp_row_args_t;

	/* The DP's selection read back on the device (one thread): x[i] for
	   items 0..n-1 from the decision bits of every row at capacity c, so that
	   only n bytes come back instead of the bits (hyb_knapsack_dp_walk). */
	typedef struct
	{
		const uint32_t* bits;
		const int64_t*  w;
		int32_t         n;
		int64_t         cap;
		uint8_t*        x;
	} hyb_knapsack_dp_walk_args_t;

	/* The decision-bit words of one DP row of capacities 0..cap. */
	static inline int64_t hyb_knapsack_dp_words( int64_t cap )
	{
		return ( cap + 32 ) / 32;
	}

	/* Simulated-device launchers (host memory, computed at once). */
	hyb_status_t hyb_knapsack_branch_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_bound_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_reduce_max_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_label_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_compact_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_gather_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_dp_row_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_dp_walk_sim( const hyb_kernel_env_t* env, const void* args );

	/* The registered declarations of the kernels (names "knapsack.branch",
	   ...), indexed by hyb_knapsack_kernel_t. */
	extern const hyb_kernel_def_t* const hyb_knapsack_kernel_defs[HYB_KNAPSACK_K_COUNT];

	/* Scratch bytes the reduce and the compaction need for m <= capacity
	   elements, on each backend (the simulated one needs none). Allocate once
	   at the largest capacity and pass it to every launch. */
	hyb_status_t hyb_knapsack_sim_temp_bytes( int64_t capacity, size_t* bytes );

	/* CUDA launchers (kernels/knapsack/hyb_knapsack_cuda.cu; CUDA builds only):
	   queued on env->stream, never synchronizing or allocating. */
	hyb_status_t hyb_knapsack_branch_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_bound_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_reduce_max_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_label_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_compact_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_gather_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_dp_row_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_dp_walk_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_knapsack_cuda_temp_bytes( int64_t capacity, size_t* bytes );

#ifdef __cplusplus
}
#endif

#endif
