/* SPDX-License-Identifier: BSD-3-Clause */
/* The knapsack kernels on CUDA: branch, bound, label, the separated
   compaction and the max-reduce (CUB, caller-owned scratch), Lalami's
   pattern gather, and one dynamic-program row. Each launcher queues its
   work on env->stream and returns; per-node arithmetic comes from
   hyb_knapsack_node.h, shared with the CPU and the simulated device. */
#include "kernels/knapsack/hyb_knapsack_kargs.h"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

namespace
{

const int kBlock = 256; /* threads per block of every kernel */

inline unsigned hyb_blocks( int64_t n )
{
	return (unsigned)( ( n + kBlock - 1 ) / kBlock );
}

inline cudaStream_t hyb_stream( const hyb_kernel_env_t* env )
{
	return env ? (cudaStream_t)env->stream : (cudaStream_t)0;
}

inline hyb_status_t hyb_launched( void )
{
	return cudaGetLastError() == cudaSuccess ? HYB_OK : HYB_E_DEVICE;
}

/* Queue `kernel` with one thread per element of a count n on env's stream:
   nothing for n = 0, HYB_E_INVALID for n < 0. */
template <typename... Params, typename... Args>
hyb_status_t hyb_launch( const hyb_kernel_env_t* env, int64_t n, void ( *kernel )( Params... ),
                         Args... args )
{
	if ( n <= 0 ) return n == 0 ? HYB_OK : HYB_E_INVALID;
	kernel<<<hyb_blocks( n ), kBlock, 0, hyb_stream( env )>>>( args... );
	return hyb_launched();
}

/* The scan and the reduce run on at most 2^31 - 1 elements (a GPU buffer of
   that many subproblems is beyond any device today). */
inline bool hyb_count_ok( int64_t m )
{
	return m >= 1 && m < ( (int64_t)1 << 31 );
}

__global__ void __launch_bounds__( kBlock )
    hyb_knapsack_branch_kernel( hyb_knapsack_items_t items, const hyb_knapsack_node_t* parents,
                                int64_t n, hyb_knapsack_node_t* children )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= n ) return;
	hyb_knapsack_node_t par = parents[i];
	hyb_knapsack_node_t take, skip;
	hyb_knapsack_branch( &items, &par, &take, &skip );
	children[2 * i]     = take;
	children[2 * i + 1] = skip;
}

__global__ void __launch_bounds__( kBlock )
    hyb_knapsack_bound_kernel( hyb_knapsack_items_t items, hyb_knapsack_node_t* nodes, int64_t m,
                               int64_t* u, int64_t* l )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= m ) return;
	hyb_knapsack_node_t v = nodes[i];
	int64_t             ub, lb;
	hyb_knapsack_bound( &items, &v, &ub, &lb );
	nodes[i].s = v.s;
	u[i]       = ub;
	l[i]       = lb;
}

__global__ void __launch_bounds__( kBlock ) hyb_knapsack_label_kernel( hyb_knapsack_label_args_t a )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= a.m ) return;
	const int64_t       best  = *a.iter_max;
	const int64_t       lstar = best > a.lstar ? best : a.lstar;
	hyb_knapsack_node_t v     = a.nodes[i];
	int                 lab   = hyb_knapsack_label( &v, a.u[i], lstar, a.ties, a.n_items );
	if ( a.key )
		a.key[i] = lab == HYB_KNAPSACK_KEEP        ? (int64_t)1
		           : lab == HYB_KNAPSACK_KEEP_DONE ? HYB_KNAPSACK_KEY_DONE
		                                           : (int64_t)0;
	if ( a.label ) a.label[i] = lab;
}

/* Scatter of the separated compaction: unfinished kept nodes to
   [0, U), finished ones to [U, U + F), both in input order; U and F come
   from the last inclusive sum. */
__global__ void __launch_bounds__( kBlock )
    hyb_knapsack_scatter_kernel( const hyb_knapsack_node_t* in, const int64_t* key,
                                 const int64_t* pos, int64_t m, hyb_knapsack_node_t* out,
                                 hyb_knapsack_scalars_t* scalars )
{
	int64_t       i          = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	const int64_t total      = pos[m - 1];
	const int64_t unfinished = total & HYB_KNAPSACK_KEY_LOW_MASK;
	if ( i == 0 )
	{
		scalars->n_unfinished = unfinished;
		scalars->n_finished   = total >> 32;
	}
	if ( i >= m ) return;
	const int64_t k = key[i];
	if ( k == 0 ) return;
	const int64_t d =
	    k == 1 ? ( pos[i] & HYB_KNAPSACK_KEY_LOW_MASK ) - 1 : unfinished + ( pos[i] >> 32 ) - 1;
	out[d] = in[i];
}

__global__ void __launch_bounds__( kBlock )
    hyb_knapsack_gather_kernel( const hyb_knapsack_node_t* in, const int32_t* dest, int64_t m,
                                hyb_knapsack_node_t* out )
{
	int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if ( i >= m ) return;
	const int32_t d = dest[i];
	if ( d >= 0 ) out[d] = in[i];
}

/* One thread per capacity j; a warp covers one word of decision bits and
   its lane 0 stores the ballot (so no thread returns before the ballot). */
__global__ void __launch_bounds__( kBlock )
    hyb_knapsack_dp_row_kernel( const int64_t* prev, int64_t* next, uint32_t* take, int64_t cap,
                                int64_t w, int64_t p )
{
	const int64_t j     = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	int           taken = 0;
	if ( j <= cap ) next[j] = hyb_knapsack_dp_cell( prev, j, w, p, &taken );
	const unsigned bits = __ballot_sync( 0xffffffffu, taken != 0 );
	if ( take && ( threadIdx.x & 31 ) == 0 && j <= cap ) take[j >> 5] = bits;
}

/* The selection read back from the decision bits: one thread, n dependent reads. */
__global__ void hyb_knapsack_dp_walk_kernel( const uint32_t* bits, const int64_t* w, int32_t n,
                                             int64_t cap, int64_t words, uint8_t* x )
{
	hyb_knapsack_dp_walk( w, n, cap, words, bits, x );
}

} // namespace

extern "C" hyb_status_t hyb_knapsack_branch_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_knapsack_branch_args_t* a = (const hyb_knapsack_branch_args_t*)args;
	return hyb_launch( env, a->n_parents, hyb_knapsack_branch_kernel, a->items, a->parents,
	                   a->n_parents, a->children );
}

extern "C" hyb_status_t hyb_knapsack_bound_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_knapsack_bound_args_t* a = (const hyb_knapsack_bound_args_t*)args;
	return hyb_launch( env, a->m, hyb_knapsack_bound_kernel, a->items, a->nodes, a->m, a->u, a->l );
}

extern "C" hyb_status_t hyb_knapsack_reduce_max_cuda( const hyb_kernel_env_t* env,
                                                      const void*             args )
{
	const hyb_knapsack_reduce_args_t* a = (const hyb_knapsack_reduce_args_t*)args;
	if ( !hyb_count_ok( a->m ) ) return HYB_E_INVALID;
	/* CUB takes a NULL scratch as a size query and then reduces nothing;
	   refuse a scratch that is missing or too small instead. */
	size_t need = 0;
	if ( cub::DeviceReduce::Max( nullptr, need, a->l, a->out, (int)a->m ) != cudaSuccess )
		return HYB_E_DEVICE;
	if ( a->temp == nullptr || a->temp_bytes < need ) return HYB_E_INVALID;
	size_t      bytes = a->temp_bytes;
	cudaError_t e =
	    cub::DeviceReduce::Max( a->temp, bytes, a->l, a->out, (int)a->m, hyb_stream( env ) );
	return e == cudaSuccess ? HYB_OK : HYB_E_DEVICE;
}

extern "C" hyb_status_t hyb_knapsack_label_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_knapsack_label_args_t* a = (const hyb_knapsack_label_args_t*)args;
	return hyb_launch( env, a->m, hyb_knapsack_label_kernel, *a );
}

extern "C" hyb_status_t hyb_knapsack_compact_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_knapsack_compact_args_t* a = (const hyb_knapsack_compact_args_t*)args;
	if ( !hyb_count_ok( a->m ) ) return HYB_E_INVALID;
	if ( a->temp_query ) return hyb_knapsack_cuda_temp_bytes( a->m, a->temp_query );
	/* As in the reduce: a missing or short scratch is refused, never taken
	   for a size query. */
	size_t need = 0;
	if ( cub::DeviceScan::InclusiveSum( nullptr, need, a->key, a->pos, (int)a->m ) != cudaSuccess )
		return HYB_E_DEVICE;
	if ( a->temp == nullptr || a->temp_bytes < need ) return HYB_E_INVALID;
	size_t       bytes = a->temp_bytes;
	cudaStream_t s     = hyb_stream( env );
	cudaError_t  e = cub::DeviceScan::InclusiveSum( a->temp, bytes, a->key, a->pos, (int)a->m, s );
	if ( e != cudaSuccess ) return HYB_E_DEVICE;
	hyb_knapsack_scatter_kernel<<<hyb_blocks( a->m ), kBlock, 0, s>>>( a->in, a->key, a->pos, a->m,
	                                                                   a->out, a->scalars );
	return hyb_launched();
}

extern "C" hyb_status_t hyb_knapsack_gather_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_knapsack_gather_args_t* a = (const hyb_knapsack_gather_args_t*)args;
	return hyb_launch( env, a->m, hyb_knapsack_gather_kernel, a->in, a->dest, a->m, a->out );
}

extern "C" hyb_status_t hyb_knapsack_dp_row_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_knapsack_dp_row_args_t* a = (const hyb_knapsack_dp_row_args_t*)args;
	if ( a->cap < 0 || a->w < 0 ) return HYB_E_INVALID;
	/* whole warps, so every word of bits has its 32 lanes */
	return hyb_launch( env, a->cap + 1, hyb_knapsack_dp_row_kernel, a->prev, a->next, a->take,
	                   a->cap, a->w, a->p );
}

extern "C" hyb_status_t hyb_knapsack_dp_walk_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_knapsack_dp_walk_args_t* a = (const hyb_knapsack_dp_walk_args_t*)args;
	if ( a->n <= 0 ) return HYB_OK;
	hyb_knapsack_dp_walk_kernel<<<1, 1, 0, hyb_stream( env )>>>(
	    a->bits, a->w, a->n, a->cap, hyb_knapsack_dp_words( a->cap ), a->x );
	return hyb_launched();
}

extern "C" hyb_status_t hyb_knapsack_cuda_temp_bytes( int64_t capacity, size_t* bytes )
{
	if ( capacity < 0 || !bytes ) return HYB_E_INVALID;
	if ( capacity == 0 )
	{
		*bytes = 0;
		return HYB_OK;
	}
	if ( !hyb_count_ok( capacity ) ) return HYB_E_INVALID;
	size_t scan = 0, reduce = 0;
	/* Size queries only (NULL scratch): nothing is launched. */
	if ( cub::DeviceScan::InclusiveSum( nullptr, scan, (const int64_t*)nullptr, (int64_t*)nullptr,
	                                    (int)capacity ) != cudaSuccess ||
	     cub::DeviceReduce::Max( nullptr, reduce, (const int64_t*)nullptr, (int64_t*)nullptr,
	                             (int)capacity ) != cudaSuccess )
		return HYB_E_DEVICE;
	*bytes = scan > reduce ? scan : reduce;
	return HYB_OK;
}

/* The plugin's implementations of the registered kernels (matched by name
   with the declarations of hyb_knapsack_sim.c). */
HYB_KERNEL_IMPL( "knapsack.branch", hyb_knapsack_branch_cuda, 0, NULL );
HYB_KERNEL_IMPL( "knapsack.bound", hyb_knapsack_bound_cuda, 0, NULL );
HYB_KERNEL_IMPL( "knapsack.reduce_max", hyb_knapsack_reduce_max_cuda, 0, NULL );
HYB_KERNEL_IMPL( "knapsack.label", hyb_knapsack_label_cuda, 0, NULL );
HYB_KERNEL_IMPL( "knapsack.compact", hyb_knapsack_compact_cuda, 0, NULL );
HYB_KERNEL_IMPL( "knapsack.gather", hyb_knapsack_gather_cuda, 0, NULL );
HYB_KERNEL_IMPL( "knapsack.dp_row", hyb_knapsack_dp_row_cuda, 0, NULL );
HYB_KERNEL_IMPL( "knapsack.dp_walk", hyb_knapsack_dp_walk_cuda, 0, NULL );
