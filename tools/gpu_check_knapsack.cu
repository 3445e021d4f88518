/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU check of the knapsack kernels and drivers.
   1. Every CUDA launcher of kernels/knapsack/hyb_knapsack_cuda.cu, called
      directly on a stream, against the simulated launcher on the same input
      (integers: bit-for-bit equal): branch, bound (linear scan and prefix
      sums), max-reduce, label, the separated compaction (CUB scan, scratch
      sized by hyb_knapsack_cuda_temp_bytes; too small a scratch must be
      refused), Lalami's gather, and the dynamic program row by row against
      the CPU DP (value and decision bits).
   2. Kernel times (CUDA events, median) on a batch of subproblems, and the
      GPU compaction against Lalami's CPU-pattern compaction (labels down,
      pattern on the CPU, pattern up, gather): the seed's 9.9x.
   3. The branch-and-bound drivers end to end on the device through a CUDA
      implementation of the family's device interface written here (two
      streams, pinned circular buffer), O3S, BFS and in core, and the GPU DP:
      every optimum against the CPU DP, with time, subproblems, peaks,
      iterations and bytes moved each way.
   4. The public API on the CUDA device runtime (the plugin libhyblas_cuda.so,
      HYBLAS_DEVICE=cuda): hyblas_knapsack_solve with every GPU method and
      AUTO, each optimum against the CPU DP, the selection checked, no
      fallback; the calls counted on the GPU path; an injected
      kernel fault (knapsack.branch) finishing on the CPU with the optimum.
   5. With --auto-set: AUTO against every method through the public API on the
      whole benchmark set (the issue's "never more than 5 % slower than the
      fastest method"), each method's median over interleaved rounds, every
      optimum against the DP's and every selection checked; --auto-only: this
      part alone.
   Prints tables; --csv PATH also writes part 3 as CSV; --methods names the
   part-3 methods to run (cpu_dp,gpu_dp,gpu_o3s,gpu_bfs,gpu_incore,cpu_bb).
   Exit 0 all correct, 1 a wrong result or an error, 77 no device.
   Usage: gpu_check_knapsack [--quick] [--bench] [--csv PATH] [--time-limit S] ... */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <omp.h>

#include "kernels/knapsack/hyb_knapsack_kargs.h"
extern "C"
{
#include "hyb_types.h"
#include "kernels/knapsack/hyb_knapsack_cpu.h"
#include "kernels/knapsack/hyb_knapsack_dev.h"
#include "kernels/knapsack/hyb_knapsack_dpdev.h"
#include "kernels/knapsack/hyb_knapsack_items.h"
#include "kernels/knapsack/hyb_knapsack_search.h"
#include "tools/knapsack/hyb_knapsack_gen.h"
#include "hyblas_ext.h"
#include "tools/bench/hyb_bench_cuda_check.h"
	/* From kernels/hyb_device.h and hyb_kernel_registry.h (C11 atomics there do not
	   compile as C++): the runtime's functions part 4 calls. */
	hyb_status_t hyb_devices_ensure( void );
	const char*  hyb_devices_name( void );
	int          hyb_kernel_find( const char* name );
	int          hyb_devices_kernel_supported( int id );
	hyb_status_t hyb_device_faults_set( const char* plan );
	int          hyb_op_find( const char* name );            /* core/hyb_op.h */
	uint64_t     hyb_stats_calls( int id, hyb_path_t path ); /* core/hyb_stats.h */
}

namespace
{

int g_fail = 0;

#define HYB_OKAY( call )                                                                           \
	do {                                                                                           \
		hyb_status_t s_ = ( call );                                                                \
		if ( s_ != HYB_OK )                                                                        \
		{                                                                                          \
			std::printf( "status %d at %s:%d: %s\n", (int)s_, __FILE__, __LINE__, #call );         \
			std::exit( 1 );                                                                        \
		}                                                                                          \
	} while ( 0 )

void check( bool ok, const char* what )
{
	std::printf( "  %-58s %s\n", what, ok ? "ok" : "WRONG" );
	if ( !ok ) g_fail++;
}

template <typename T> T* dev_copy( const T* host, size_t count )
{
	T* d = nullptr;
	CK_CUDA( cudaMalloc( (void**)&d, std::max<size_t>( count, 1 ) * sizeof( T ) ) );
	if ( count ) CK_CUDA( cudaMemcpy( d, host, count * sizeof( T ), cudaMemcpyHostToDevice ) );
	return d;
}

template <typename T> std::vector<T> host_copy( const T* dev, size_t count )
{
	std::vector<T> h( count );
	if ( count )
		CK_CUDA( cudaMemcpy( h.data(), dev, count * sizeof( T ), cudaMemcpyDeviceToHost ) );
	return h;
}

template <typename T> bool same( const std::vector<T>& a, const T* b, size_t count )
{
	return a.size() >= count && std::memcmp( a.data(), b, count * sizeof( T ) ) == 0;
}

struct Instance
{
	std::string          name;
	std::vector<int64_t> p, w;
	int64_t              c = 0;
};

Instance make( hyb_knapsack_gen_t g, const char* name )
{
	Instance in;
	in.name = name;
	in.p.resize( (size_t)g.n );
	in.w.resize( (size_t)g.n );
	HYB_OKAY( hyb_knapsack_generate( &g, in.p.data(), in.w.data(), &in.c ) );
	return in;
}

/* Real subproblems: breadth-first from the root without pruning until m
   exist; every 7th marked finished. */
std::vector<hyb_knapsack_node_t> make_nodes( const hyb_knapsack_items_t& it, int64_t m )
{
	std::vector<hyb_knapsack_node_t> v;
	v.reserve( (size_t)m + 2 );
	v.push_back( hyb_knapsack_node_t{ 0, 0, 0, 0 } );
	for ( size_t head = 0; head < v.size() && (int64_t)v.size() < m; head++ )
	{
		hyb_knapsack_node_t kid[2];
		hyb_knapsack_branch( &it, &v[head], &kid[0], &kid[1] );
		for ( int k = 0; k < 2; k++ )
			if ( kid[k].k != HYB_KNAPSACK_DEAD && (int64_t)v.size() < m ) v.push_back( kid[k] );
	}
	for ( size_t i = 0; i < v.size(); i += 7 ) v[i].k = it.n;
	return v;
}

hyb_knapsack_items_t dev_items( const hyb_knapsack_prep_t& pr, bool prefix )
{
	hyb_knapsack_items_t it;
	it.w    = dev_copy( pr.w, (size_t)pr.n );
	it.p    = dev_copy( pr.p, (size_t)pr.n );
	it.wsum = prefix ? dev_copy( pr.wsum, (size_t)pr.n + 1 ) : nullptr;
	it.psum = prefix ? dev_copy( pr.psum, (size_t)pr.n + 1 ) : nullptr;
	it.n    = pr.n;
	it.c    = pr.c;
	return it;
}

void free_items( hyb_knapsack_items_t& it )
{
	cudaFree( (void*)it.w );
	cudaFree( (void*)it.p );
	cudaFree( (void*)it.wsum );
	cudaFree( (void*)it.psum );
}

/* Median time of `reps` runs of fn on stream s, in ms. */
template <typename F> double time_ms( cudaStream_t s, int reps, F fn )
{
	cudaEvent_t a, b;
	CK_CUDA( cudaEventCreate( &a ) );
	CK_CUDA( cudaEventCreate( &b ) );
	std::vector<float> t;
	fn(); /* warm-up */
	for ( int r = 0; r < reps; r++ )
	{
		CK_CUDA( cudaEventRecord( a, s ) );
		fn();
		CK_CUDA( cudaEventRecord( b, s ) );
		CK_CUDA( cudaEventSynchronize( b ) );
		float ms = 0;
		CK_CUDA( cudaEventElapsedTime( &ms, a, b ) );
		t.push_back( ms );
	}
	cudaEventDestroy( a );
	cudaEventDestroy( b );
	std::sort( t.begin(), t.end() );
	return t[t.size() / 2];
}

/* ------------------------------------------------------------------ part 1 and 2 */

void check_kernels( const Instance& in, int64_t m_nodes, bool timing )
{
	std::printf( "\n%s: n %zu, c %lld, %lld parent subproblems\n", in.name.c_str(), in.p.size(),
	             (long long)in.c, (long long)m_nodes );
	hyb_knapsack_prep_t pr;
	HYB_OKAY( hyb_knapsack_prepare( (int64_t)in.p.size(), in.p.data(), in.w.data(), in.c, &pr ) );
	const hyb_knapsack_items_t       hlin = hyb_knapsack_prep_items( &pr, 0 );
	const hyb_knapsack_items_t       hpre = hyb_knapsack_prep_items( &pr, 1 );
	hyb_knapsack_items_t             dlin = dev_items( pr, false ), dpre = dev_items( pr, true );
	std::vector<hyb_knapsack_node_t> par = make_nodes( hlin, m_nodes );
	const int64_t                    n = (int64_t)par.size(), m = 2 * n;
	cudaStream_t                     s;
	CK_CUDA( cudaStreamCreate( &s ) );
	hyb_kernel_env_t env = { (void*)s, nullptr, nullptr, 0 };

	/* branch */
	hyb_knapsack_node_t* dpar  = dev_copy( par.data(), (size_t)n );
	hyb_knapsack_node_t* dkids = nullptr;
	CK_CUDA( cudaMalloc( (void**)&dkids, (size_t)m * sizeof( hyb_knapsack_node_t ) ) );
	std::vector<hyb_knapsack_node_t> hkids( (size_t)m );
	hyb_knapsack_branch_args_t       ba = { dlin, dpar, n, dkids },
	                           hb       = { hlin, par.data(), n, hkids.data() };
	HYB_OKAY( hyb_knapsack_branch_cuda( &env, &ba ) );
	HYB_OKAY( hyb_knapsack_branch_sim( nullptr, &hb ) );
	CK_CUDA( cudaStreamSynchronize( s ) );
	check( same( host_copy( dkids, (size_t)m ), hkids.data(), (size_t)m ), "branch = simulated" );

	/* bound, both searches for the slack item */
	int64_t *du, *dl;
	CK_CUDA( cudaMalloc( (void**)&du, (size_t)m * 8 ) );
	CK_CUDA( cudaMalloc( (void**)&dl, (size_t)m * 8 ) );
	std::vector<int64_t>             hu( (size_t)m ), hl( (size_t)m );
	std::vector<hyb_knapsack_node_t> kids0 = hkids;
	for ( int pre = 0; pre < 2; pre++ )
	{
		CK_CUDA( cudaMemcpy( dkids, kids0.data(), (size_t)m * sizeof( hyb_knapsack_node_t ),
		                     cudaMemcpyHostToDevice ) );
		hkids                        = kids0;
		hyb_knapsack_bound_args_t bd = { pre ? dpre : dlin, dkids, m, du, dl };
		hyb_knapsack_bound_args_t hd = { pre ? hpre : hlin, hkids.data(), m, hu.data(), hl.data() };
		HYB_OKAY( hyb_knapsack_bound_cuda( &env, &bd ) );
		HYB_OKAY( hyb_knapsack_bound_sim( nullptr, &hd ) );
		CK_CUDA( cudaStreamSynchronize( s ) );
		bool ok = same( host_copy( du, (size_t)m ), hu.data(), (size_t)m ) &&
		          same( host_copy( dl, (size_t)m ), hl.data(), (size_t)m ) &&
		          same( host_copy( dkids, (size_t)m ), hkids.data(), (size_t)m );
		check( ok, pre ? "bound (prefix sums) = simulated" : "bound (linear scan) = simulated" );
	}

	/* max-reduce and compaction scratch, sized once for the batch */
	size_t temp_bytes = 0;
	HYB_OKAY( hyb_knapsack_cuda_temp_bytes( m, &temp_bytes ) );
	void* dtemp = nullptr;
	CK_CUDA( cudaMalloc( &dtemp, std::max<size_t>( temp_bytes, 1 ) ) );
	hyb_knapsack_scalars_t* dsc = nullptr;
	CK_CUDA( cudaMalloc( (void**)&dsc, sizeof( hyb_knapsack_scalars_t ) ) );
	hyb_knapsack_reduce_args_t rd = { dl, m, &dsc->max_l, dtemp, temp_bytes };
	HYB_OKAY( hyb_knapsack_reduce_max_cuda( &env, &rd ) );
	/* the simulated kernels check their scratch as CUB's need it */
	size_t sim_temp_bytes = 0;
	HYB_OKAY( hyb_knapsack_sim_temp_bytes( m, &sim_temp_bytes ) );
	std::vector<unsigned char> sim_temp( std::max<size_t>( sim_temp_bytes, 1 ) );
	int64_t                    hmax = -9;
	hyb_knapsack_reduce_args_t hr   = { hl.data(), m, &hmax, sim_temp.data(), sim_temp_bytes };
	HYB_OKAY( hyb_knapsack_reduce_max_sim( nullptr, &hr ) );
	CK_CUDA( cudaStreamSynchronize( s ) );
	check( host_copy( &dsc->max_l, 1 )[0] == hmax, "max-reduce (CUB) = simulated" );

	/* label: L* below the batch's best so both kinds of kept node appear */
	int64_t *dkey, *dpos;
	int32_t* dlab;
	CK_CUDA( cudaMalloc( (void**)&dkey, (size_t)m * 8 ) );
	CK_CUDA( cudaMalloc( (void**)&dpos, (size_t)m * 8 ) );
	CK_CUDA( cudaMalloc( (void**)&dlab, (size_t)m * 4 ) );
	std::vector<int64_t>      hkey( (size_t)m ), hpos( (size_t)m );
	std::vector<int32_t>      hlab( (size_t)m );
	const int64_t             lstar = hmax - ( hmax - hkids[0].p ) / 8;
	hyb_knapsack_label_args_t la    = { dkids, du, m, pr.n, lstar, &dsc->max_l, 0, dkey, dlab };
	int64_t                   zero  = 0;
	hyb_knapsack_label_args_t hla   = { hkids.data(), hu.data(), m,           pr.n,       lstar,
		                                &zero,        0,         hkey.data(), hlab.data() };
	HYB_OKAY( hyb_knapsack_label_cuda( &env, &la ) );
	HYB_OKAY( hyb_knapsack_label_sim( nullptr, &hla ) );
	CK_CUDA( cudaStreamSynchronize( s ) );
	/* the device took L* = max(lstar, batch max); do the same on the host */
	hla.lstar = hmax;
	HYB_OKAY( hyb_knapsack_label_sim( nullptr, &hla ) );
	check( same( host_copy( dkey, (size_t)m ), hkey.data(), (size_t)m ) &&
	           same( host_copy( dlab, (size_t)m ), hlab.data(), (size_t)m ),
	       "label = simulated" );

	/* separated compaction into a separate array */
	hyb_knapsack_node_t* dout = nullptr;
	CK_CUDA( cudaMalloc( (void**)&dout, (size_t)m * sizeof( hyb_knapsack_node_t ) ) );
	hyb_knapsack_compact_args_t cp = {
		dkids, dkey, dpos, m, dout, dsc, dtemp, temp_bytes, nullptr
	};
	HYB_OKAY( hyb_knapsack_compact_cuda( &env, &cp ) );
	std::vector<hyb_knapsack_node_t> hout( (size_t)m );
	hyb_knapsack_scalars_t           hsc = { 0, 0, 0 };
	hyb_knapsack_compact_args_t      hc  = { hkids.data(), hkey.data(), hpos.data(),     m,
		                                     hout.data(),  &hsc,        sim_temp.data(), sim_temp_bytes,
		                                     nullptr };
	HYB_OKAY( hyb_knapsack_compact_sim( nullptr, &hc ) );
	CK_CUDA( cudaStreamSynchronize( s ) );
	const hyb_knapsack_scalars_t gsc  = host_copy( dsc, 1 )[0];
	const int64_t                kept = hsc.n_unfinished + hsc.n_finished;
	check( gsc.n_unfinished == hsc.n_unfinished && gsc.n_finished == hsc.n_finished &&
	           same( host_copy( dout, (size_t)kept ), hout.data(), (size_t)kept ),
	       "compaction (CUB scan, partition) = simulated" );
	std::printf( "    kept %lld of %lld (%lld finished)\n", (long long)kept, (long long)m,
	             (long long)hsc.n_finished );
	if ( temp_bytes > 0 )
	{
		hyb_knapsack_compact_args_t small = cp;
		small.temp_bytes                  = 1; /* below any CUB scan's need */
		hyb_status_t st                   = hyb_knapsack_compact_cuda( &env, &small );
		cudaGetLastError();
		check( st != HYB_OK, "compaction refuses a scratch too small" );
	}

	/* Lalami's gather with the host's in-order pattern */
	std::vector<int32_t> dest( (size_t)m );
	int64_t              k = 0;
	for ( int64_t i = 0; i < m; i++ )
		dest[(size_t)i] = hlab[(size_t)i] == HYB_KNAPSACK_DROP ? -1 : (int32_t)k++;
	int32_t*                   ddest = dev_copy( dest.data(), (size_t)m );
	hyb_knapsack_gather_args_t ga    = { dkids, ddest, m, dout };
	hyb_knapsack_gather_args_t hg    = { hkids.data(), dest.data(), m, hout.data() };
	HYB_OKAY( hyb_knapsack_gather_cuda( &env, &ga ) );
	HYB_OKAY( hyb_knapsack_gather_sim( nullptr, &hg ) );
	CK_CUDA( cudaStreamSynchronize( s ) );
	check( same( host_copy( dout, (size_t)k ), hout.data(), (size_t)k ),
	       "gather (CPU pattern) = simulated" );

	if ( timing )
	{
		const int reps = 15;
		double    tb   = time_ms( s, reps, [&] { hyb_knapsack_branch_cuda( &env, &ba ); } );
		hyb_knapsack_bound_args_t bd = { dlin, dkids, m, du, dl };
		double tbo = time_ms( s, reps, [&] { hyb_knapsack_bound_cuda( &env, &bd ); } );
		hyb_knapsack_bound_args_t bp = { dpre, dkids, m, du, dl };
		double tbp = time_ms( s, reps, [&] { hyb_knapsack_bound_cuda( &env, &bp ); } );
		double tr  = time_ms( s, reps, [&] { hyb_knapsack_reduce_max_cuda( &env, &rd ); } );
		double tl  = time_ms( s, reps, [&] { hyb_knapsack_label_cuda( &env, &la ); } );
		double tc  = time_ms( s, reps, [&] { hyb_knapsack_compact_cuda( &env, &cp ); } );
		/* Lalami: labels down, the pattern on the CPU, the pattern up, gather */
		int32_t *plab, *pdest;
		CK_CUDA( cudaMallocHost( (void**)&plab, (size_t)m * 4 ) );
		CK_CUDA( cudaMallocHost( (void**)&pdest, (size_t)m * 4 ) );
		double tcpu = time_ms(
		    s, reps,
		    [&]
		    {
			    CK_CUDA( cudaMemcpyAsync( plab, dlab, (size_t)m * 4, cudaMemcpyDeviceToHost, s ) );
			    CK_CUDA( cudaStreamSynchronize( s ) );
			    int32_t kk = 0;
			    for ( int64_t i = 0; i < m; i++ )
				    pdest[i] = plab[i] == HYB_KNAPSACK_DROP ? -1 : kk++;
			    CK_CUDA(
			        cudaMemcpyAsync( ddest, pdest, (size_t)m * 4, cudaMemcpyHostToDevice, s ) );
			    hyb_knapsack_gather_cuda( &env, &ga );
		    } );
		std::printf(
		    "    ms for %lld children: branch %.3f, bound %.3f (prefix %.3f), reduce %.3f, label "
		    "%.3f,\n    compaction GPU %.3f vs CPU pattern %.3f: %.1fx (seed 9.9x)\n",
		    (long long)m, tb, tbo, tbp, tr, tl, tc, tcpu, tcpu / tc );
		cudaFreeHost( plab );
		cudaFreeHost( pdest );
	}

	cudaFree( dpar );
	cudaFree( dkids );
	cudaFree( du );
	cudaFree( dl );
	cudaFree( dtemp );
	cudaFree( dsc );
	cudaFree( dkey );
	cudaFree( dpos );
	cudaFree( dlab );
	cudaFree( dout );
	cudaFree( ddest );
	free_items( dlin );
	free_items( dpre );
	cudaStreamDestroy( s );
	hyb_knapsack_prep_free( &pr );
}

void check_dp( const Instance& in )
{
	hyb_knapsack_prep_t pr;
	HYB_OKAY( hyb_knapsack_prepare( (int64_t)in.p.size(), in.p.data(), in.w.data(), in.c, &pr ) );
	const int64_t         c = pr.c, words = hyb_knapsack_dp_words( c );
	const int32_t         n = pr.n;
	std::vector<uint32_t> bits( (size_t)n * (size_t)words ), gbits( (size_t)n * (size_t)words );
	int64_t               v = -1;
	double                t = hyb_now();
	HYB_OKAY( hyb_knapsack_dp_cpu( pr.w, pr.p, n, c, 0, &v, bits.data() ) );
	const double tcpu = hyb_now() - t;
	int64_t*     rows;
	uint32_t*    dbits;
	CK_CUDA( cudaMalloc( (void**)&rows, 2 * (size_t)( c + 1 ) * 8 ) );
	CK_CUDA( cudaMalloc( (void**)&dbits, gbits.size() * 4 ) );
	cudaStream_t s;
	CK_CUDA( cudaStreamCreate( &s ) );
	hyb_kernel_env_t env = { (void*)s, nullptr, nullptr, 0 };
	auto             run = [&]( bool keep_bits )
	{
		for ( int32_t i = 0; i < n; i++ )
		{
			hyb_knapsack_dp_row_args_t a = { i ? rows + ( ( i - 1 ) & 1 ) * ( c + 1 ) : nullptr,
				                             rows + ( i & 1 ) * ( c + 1 ),
				                             keep_bits ? dbits + (size_t)i * (size_t)words
				                                       : nullptr,
				                             c,
				                             pr.w[i],
				                             pr.p[i] };
			hyb_knapsack_dp_row_cuda( &env, &a );
		}
	};
	run( true );
	CK_CUDA( cudaStreamSynchronize( s ) );
	const int64_t gv = host_copy( rows + ( ( n - 1 ) & 1 ) * ( c + 1 ) + c, 1 )[0];
	check( gv == v && same( host_copy( dbits, gbits.size() ), bits.data(), bits.size() ),
	       "DP rows: value and decision bits = CPU DP" );
	const double tg  = time_ms( s, 5, [&] { run( false ); } );
	const double tgb = time_ms( s, 5, [&] { run( true ); } );
	std::printf( "    DP n %d c %lld (%.3g cells): GPU %.2f ms (%.2f with bits), CPU %.1f ms on %d "
	             "threads\n",
	             n, (long long)c, (double)n * (double)( c + 1 ), tg, tgb, tcpu * 1e3,
	             omp_get_max_threads() );
	cudaFree( rows );
	cudaFree( dbits );
	cudaStreamDestroy( s );
	hyb_knapsack_prep_free( &pr );
}

/* ------------------------------------------------------------------ part 3 */

/* The family's device interface on CUDA: what the next phase binds to the
   device runtime, here on raw CUDA calls so the drivers can run now. */
struct CudaDev
{
	cudaStream_t s[2];
};

hyb_status_t cd_dev_alloc( void*, size_t bytes, void** out )
{
	return cudaMalloc( out, bytes ) == cudaSuccess ? HYB_OK : HYB_E_NO_MEMORY;
}
void cd_dev_free( void*, void* p )
{
	cudaFree( p );
}
hyb_status_t cd_host_alloc( void*, size_t bytes, void** out )
{
	return cudaMallocHost( out, bytes ) == cudaSuccess ? HYB_OK : HYB_E_NO_MEMORY;
}
void cd_host_free( void*, void* p )
{
	cudaFreeHost( p );
}
hyb_status_t cd_h2d( void* ctx, int stream, void* dst, const void* src, size_t bytes )
{
	CudaDev* d = (CudaDev*)ctx;
	return cudaMemcpyAsync( dst, src, bytes, cudaMemcpyHostToDevice, d->s[stream] ) == cudaSuccess
	           ? HYB_OK
	           : HYB_E_DEVICE;
}
hyb_status_t cd_d2h( void* ctx, int stream, void* dst, const void* src, size_t bytes )
{
	CudaDev* d = (CudaDev*)ctx;
	return cudaMemcpyAsync( dst, src, bytes, cudaMemcpyDeviceToHost, d->s[stream] ) == cudaSuccess
	           ? HYB_OK
	           : HYB_E_DEVICE;
}
hyb_status_t cd_launch( void* ctx, int stream, hyb_knapsack_kernel_t k, const void* args )
{
	static const hyb_kernel_fn table[HYB_KNAPSACK_K_COUNT] = {
		hyb_knapsack_branch_cuda, hyb_knapsack_bound_cuda,   hyb_knapsack_reduce_max_cuda,
		hyb_knapsack_label_cuda,  hyb_knapsack_compact_cuda, hyb_knapsack_gather_cuda,
		hyb_knapsack_dp_row_cuda
	};
	CudaDev*         d   = (CudaDev*)ctx;
	hyb_kernel_env_t env = { (void*)d->s[stream], nullptr, nullptr, 0 };
	return table[k]( &env, args );
}
hyb_status_t cd_sync( void* ctx, int stream )
{
	CudaDev* d = (CudaDev*)ctx;
	return cudaStreamSynchronize( d->s[stream] ) == cudaSuccess ? HYB_OK : HYB_E_DEVICE;
}
hyb_status_t cd_temp_bytes( void*, int64_t capacity, size_t* bytes )
{
	return hyb_knapsack_cuda_temp_bytes( capacity, bytes );
}

struct Options
{
	bool        quick = false, bench = false;
	double      time_limit = 10.0;
	int         per_size = 1, n_lo = 100, n_hi = 1000;
	double      host_gib = 20.0, dev_gib = 1.0;
	std::string csv;
	std::string methods;           /* part 3: comma-separated names to run; empty: all */
	bool        auto_set  = false; /* part 5: AUTO against every method on the set */
	bool        auto_only = false; /* part 5 alone */
	double      api_limit = 2.0;   /* part 5: time limit of each method through the API */
};

/* Whether part 3 runs the method NAME (--methods). */
bool wanted( const Options& o, const char* name )
{
	if ( o.methods.empty() ) return true;
	const std::string list = "," + o.methods + ",";
	return list.find( "," + std::string( name ) + "," ) != std::string::npos;
}

FILE* g_csv = nullptr;

/* One result line; z_ref is the DP's optimum, or (-1) the first optimum a
   B&B proves when the instance is beyond any DP (then every later one must
   agree). */
void row( const Instance& in, const char* method, int64_t& z_ref,
          const hyb_knapsack_search_stats_t* st, int64_t z, hyb_status_t rs, double sec )
{
	const bool solved = rs == HYB_OK && ( !st || st->stop == HYBLAS_KNAPSACK_STOP_NONE );
	if ( solved && z_ref < 0 ) z_ref = z;
	const bool    ok   = rs == HYB_OK && ( !solved || z == z_ref );
	const int64_t z_dp = z_ref;
	if ( !ok ) g_fail++;
	std::printf( "  %-10s %-9s %8.3f s %s %-6s", in.name.c_str(), method, sec,
	             !ok      ? "WRONG"
	             : solved ? "ok   "
	                      : "stop ",
	             solved ? ""
	             : st   ? "limit"
	                    : "error" );
	if ( st )
		std::printf(
		    " nodes %12llu peak host %10llu dev %9llu it %8llu (gpu %8llu) MB up %9.1f down %9.1f",
		    (unsigned long long)st->nodes_branched, (unsigned long long)st->peak_host,
		    (unsigned long long)st->peak_dev, (unsigned long long)st->iterations,
		    (unsigned long long)st->gpu_iterations, st->h2d_bytes / 1e6, st->d2h_bytes / 1e6 );
	std::printf( "\n" );
	if ( g_csv )
		std::fprintf(
		    g_csv,
		    "%s,%zu,%lld,%s,%d,%d,%lld,%lld,%d,%.6f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
		    in.name.c_str(), in.p.size(), (long long)in.c, method, (int)rs, st ? (int)st->stop : 0,
		    (long long)z, (long long)z_dp, ok ? 1 : 0, sec,
		    st ? (unsigned long long)st->nodes_branched : 0ull,
		    st ? (unsigned long long)st->peak_host : 0ull,
		    st ? (unsigned long long)st->peak_dev : 0ull,
		    st ? (unsigned long long)st->iterations : 0ull,
		    st ? (unsigned long long)st->gpu_iterations : 0ull,
		    st ? (unsigned long long)st->h2d_bytes : 0ull,
		    st ? (unsigned long long)st->d2h_bytes : 0ull,
		    st ? (unsigned long long)st->h2d_calls : 0ull,
		    st ? (unsigned long long)st->d2h_calls : 0ull );
}

void run_methods( const hyb_knapsack_dev_t& dev, const Instance& in, const Options& o )
{
	hyb_knapsack_prep_t pr;
	HYB_OKAY( hyb_knapsack_prepare( (int64_t)in.p.size(), in.p.data(), in.w.data(), in.c, &pr ) );
	const hyb_knapsack_items_t it   = hyb_knapsack_prep_items( &pr, 0 );
	int64_t                    z_dp = -1;
	double                     t    = hyb_now();
	hyb_status_t               rs   = HYB_OK;
	/* the DPs only where their rows fit in 4 GiB */
	if ( 2 * ( (double)pr.c + 1 ) * 8 <= 4.0 * 1073741824.0 )
	{
		HYB_OKAY( hyb_knapsack_dp_cpu( pr.w, pr.p, pr.n, pr.c, 0, &z_dp, nullptr ) );
		if ( wanted( o, "cpu_dp" ) )
			row( in, "cpu_dp", z_dp, nullptr, z_dp, HYB_OK, hyb_now() - t );
		if ( wanted( o, "gpu_dp" ) )
		{
			hyb_knapsack_dpdev_stats_t ds;
			int64_t                    z = -1;
			t                            = hyb_now();
			rs = hyb_knapsack_dp_device( &dev, pr.w, pr.p, pr.n, pr.c, &z, nullptr, &ds );
			row( in, "gpu_dp", z_dp, nullptr, z, rs, hyb_now() - t );
		}
	}

	const hyb_knapsack_search_t searches[4] = { HYB_KNAPSACK_SEARCH_O3S, HYB_KNAPSACK_SEARCH_BFS,
		                                        HYB_KNAPSACK_SEARCH_INCORE,
		                                        HYB_KNAPSACK_SEARCH_CPU };
	const char*                 names[4]    = { "gpu_o3s", "gpu_bfs", "gpu_incore", "cpu_bb" };
	for ( int k = 0; k < 4; k++ )
	{
		if ( !wanted( o, names[k] ) ) continue;
		hyb_knapsack_search_plan_t p;
		std::memset( &p, 0, sizeof p );
		p.search       = searches[k];
		p.threshold    = 24576;
		p.host_nodes   = (int64_t)( o.host_gib * 1073741824.0 / sizeof( hyb_knapsack_node_t ) );
		p.time_limit_s = o.time_limit;
		if ( k < 3 )
		{
			const uint64_t bytes = (uint64_t)( o.dev_gib * 1073741824.0 ) * ( k == 2 ? 2u : 1u );
			HYB_OKAY( hyb_knapsack_search_pool_nodes( &dev, searches[k], bytes, &p.pool_nodes ) );
		}
		hyb_knapsack_search_stats_t st;
		t  = hyb_now();
		rs = hyb_knapsack_search( k < 3 ? &dev : nullptr, &it, &p, &st );
		row( in, names[k], z_dp, &st, st.lstar, rs, hyb_now() - t );
	}
	hyb_knapsack_prep_free( &pr );
}

/* The CPU DP's optimum of IN, or -1 where its two rows would not fit in 4 GiB. */
int64_t dp_optimum( const Instance& in )
{
	hyb_knapsack_prep_t pr;
	HYB_OKAY( hyb_knapsack_prepare( (int64_t)in.p.size(), in.p.data(), in.w.data(), in.c, &pr ) );
	int64_t z_dp = -1;
	if ( 2 * ( (double)pr.c + 1 ) * 8 <= 4.0 * 1073741824.0 )
		HYB_OKAY( hyb_knapsack_dp_cpu( pr.w, pr.p, pr.n, pr.c, 0, &z_dp, nullptr ) );
	hyb_knapsack_prep_free( &pr );
	return z_dp;
}

/* One call of the public entry with METHOD, a time limit and (non-zero) one GPU buffer's
   bytes; returns its seconds. */
/* Whether x (caller order) selects items of profit z within the capacity. */
bool selection_ok( const Instance& in, const uint8_t* x, int64_t z )
{
	int64_t wsum = 0, psum = 0;
	for ( size_t i = 0; i < in.p.size(); i++ )
		if ( x[i] ) wsum += in.w[i], psum += in.p[i];
	return psum == z && wsum <= in.c;
}

double api_call( const Instance& in, hyblas_knapsack_method_t method, double time_limit,
                 uint64_t device_buffer_bytes, int64_t* z, uint8_t* x, hyblas_knapsack_stats_t* st,
                 hyblas_status_t* rs )
{
	hyblas_knapsack_options_t opt;
	std::memset( &opt, 0, sizeof opt );
	opt.struct_size         = sizeof opt;
	opt.method              = method;
	opt.time_limit_s        = time_limit;
	opt.device_buffer_bytes = device_buffer_bytes;
	std::memset( st, 0, sizeof *st );
	st->struct_size = sizeof *st;
	*z              = -1;
	const double t  = hyb_now();
	*rs = hyblas_knapsack_solve( (int64_t)in.p.size(), in.p.data(), in.w.data(), in.c, &opt, z, x,
	                             st );
	return hyb_now() - t;
}

/* Part 4: one instance through the public entry with every GPU method and AUTO. */
void check_api( const Instance& in, const Options& o )
{
	const int64_t                  n          = (int64_t)in.p.size();
	const int64_t                  z_dp       = dp_optimum( in );
	const hyblas_knapsack_method_t methods[5] = { HYBLAS_KNAPSACK_GPU_O3S, HYBLAS_KNAPSACK_GPU_BFS,
		                                          HYBLAS_KNAPSACK_GPU_INCORE,
		                                          HYBLAS_KNAPSACK_GPU_DP, HYBLAS_KNAPSACK_AUTO };
	std::vector<uint8_t>           x( (size_t)n );
	for ( int k = 0; k < 5; k++ )
	{
		hyblas_knapsack_stats_t st;
		int64_t                 z  = -1;
		hyblas_status_t         rs = HYBLAS_OK;
		const double sec = api_call( in, methods[k], o.time_limit, o.quick ? ( 1u << 20 ) : 0, &z,
		                             x.data(), &st, &rs );
		/* a limit the caller set, or the in-core method's one buffer (the seed's own failure
		   mode, documented): no optimum is claimed */
		const bool stopped =
		    rs == HYBLAS_E_CAPACITY && ( st.stop == HYBLAS_KNAPSACK_STOP_TIME_LIMIT ||
		                                 ( methods[k] == HYBLAS_KNAPSACK_GPU_INCORE &&
		                                   st.stop == HYBLAS_KNAPSACK_STOP_DEVICE_BUFFER ) );
		const bool ok =
		    stopped ||
		    ( rs == HYBLAS_OK && z == z_dp && selection_ok( in, x.data(), z ) && !st.fallback &&
		      ( methods[k] == HYBLAS_KNAPSACK_AUTO || st.method == methods[k] ) );
		if ( !ok ) g_fail++;
		std::printf( "  api %-10s %-10s -> %-10s %8.3f s %s (status %d, stop %d) gpu_it %8llu MB "
		             "up %8.1f down %8.1f "
		             "fallback %d (%s)\n",
		             in.name.c_str(), hyblas_knapsack_method_name( methods[k] ),
		             hyblas_knapsack_method_name( st.method ), sec,
		             !ok       ? "WRONG"
		             : stopped ? "stop "
		                       : "ok   ",
		             (int)rs, (int)st.stop, (unsigned long long)st.gpu_iterations,
		             st.h2d_bytes / 1e6, st.d2h_bytes / 1e6, st.fallback, st.why );
	}
}

void check_api_all( const Options& o )
{
	std::printf( "\npublic API on the CUDA device runtime (HYBLAS_DEVICE=cuda)\n" );
	hyb_status_t st = hyb_devices_ensure();
	check( st == HYB_OK && std::strcmp( hyb_devices_name(), "cuda" ) == 0,
	       "device runtime opened the CUDA plugin" );
	if ( st != HYB_OK ) return;
	const char* names[7] = { "knapsack.branch", "knapsack.bound",   "knapsack.reduce_max",
		                     "knapsack.label",  "knapsack.compact", "knapsack.gather",
		                     "knapsack.dp_row" };
	bool        all      = true;
	for ( const char* nm : names )
		all = all && hyb_devices_kernel_supported( hyb_kernel_find( nm ) );
	check( all, "the plugin implements the seven knapsack kernels" );
	/* the operation is registered by its first call */
	const int      op     = hyb_op_find( "hyblas_knapsack_solve" );
	const uint64_t before = op >= 0 ? hyb_stats_calls( op, HYB_PATH_GPU ) : 0;
	const int      hi     = o.quick ? 200 : 500;
	for ( int n = 100; n <= hi; n += 100 )
		check_api(
		    make( hyb_knapsack_gen_seed_set( n, 2 ), ( "api" + std::to_string( n ) ).c_str() ), o );
	const int op2 = hyb_op_find( "hyblas_knapsack_solve" );
	check( op2 >= 0 && hyb_stats_calls( op2, HYB_PATH_GPU ) >= before + 4,
	       "calls counted on the GPU path" );
	/* a kernel fault: the CPU finishes with the optimum */
	Instance                  in   = make( hyb_knapsack_gen_seed_set( 100, 3 ), "fault100" );
	const int64_t             z_dp = dp_optimum( in );
	hyblas_knapsack_options_t opt;
	std::memset( &opt, 0, sizeof opt );
	opt.struct_size   = sizeof opt;
	opt.method        = HYBLAS_KNAPSACK_GPU_O3S;
	opt.cpu_threshold = 64; /* reach GPU mode at once */
	hyblas_knapsack_stats_t s;
	std::memset( &s, 0, sizeof s );
	s.struct_size = sizeof s;
	int64_t z     = -1;
	hyb_device_faults_set( "knapsack.branch:1" );
	hyblas_status_t rs = hyblas_knapsack_solve( (int64_t)in.p.size(), in.p.data(), in.w.data(),
	                                            in.c, &opt, &z, nullptr, &s );
	hyb_device_faults_set( nullptr );
	check( rs == HYBLAS_OK && z == z_dp && s.fallback && s.method == HYBLAS_KNAPSACK_CPU_BB,
	       "injected knapsack.branch fault: CPU B&B gives the optimum" );
	rs = hyblas_knapsack_solve( (int64_t)in.p.size(), in.p.data(), in.w.data(), in.c, &opt, &z,
	                            nullptr, &s );
	check( rs == HYBLAS_OK && z == z_dp && !s.fallback && s.method == HYBLAS_KNAPSACK_GPU_O3S,
	       "the next call runs on the device again" );
}

/* Part 5 (--auto-set): on every instance of the benchmark set, AUTO against each method
   through the same public entry with the same limits (--api-limit seconds a call): the
   fastest method that finished and AUTO's time over it (the issue's "never more than 5 %
   slower than the fastest method on any instance"), every optimum against the DP's (or,
   beyond any DP, against the first one proved). A time under half a second is the median
   of five calls. */
/* Rounds of part 5: every method once a round, in an order shuffled anew each round
   (fixed seeds), so that neither a drift of the machine (clocks, caches, the allocator's
   state) nor the method that ran just before (a CPU DP's spinning OpenMP team, a device
   left busy) falls on one method more than on another. */
#define HYB_AUTO_ROUNDS 7

void check_auto_set( const Options& o )
{
	std::printf( "\nAUTO against every method through the public API (limit %.1f s a call; "
	             "median of %d rounds, one call of each method a round in a shuffled order)\n",
	             o.api_limit, HYB_AUTO_ROUNDS );
	const int                      nm          = 7;
	const hyblas_knapsack_method_t methods[nm] = {
		HYBLAS_KNAPSACK_CPU_DP,  HYBLAS_KNAPSACK_GPU_DP,  HYBLAS_KNAPSACK_CPU_BB,
		HYBLAS_KNAPSACK_GPU_O3S, HYBLAS_KNAPSACK_GPU_BFS, HYBLAS_KNAPSACK_GPU_INCORE,
		HYBLAS_KNAPSACK_AUTO
	};
	std::vector<Instance> set;
	for ( int n = o.n_lo; n <= o.n_hi; n += 100 )
		for ( int k = 0; k < o.per_size; k++ )
			set.push_back(
			    make( hyb_knapsack_gen_seed_set( n, k ),
			          ( "s" + std::to_string( n ) + "_" + std::to_string( k ) ).c_str() ) );
	set.push_back( make( hyb_knapsack_gen_large( 1000, 1 ), "large1000" ) );
	set.push_back( make( hyb_knapsack_gen_large( 2000, 3 ), "large2000" ) );
	int rows = 0, slower = 0;
	for ( const Instance& in : set )
	{
		int64_t                          z_ref = dp_optimum( in );
		std::vector<uint8_t>             x( in.p.size() );
		std::vector<std::vector<double>> t( nm );
		std::vector<bool>                done( nm, true ), wrong( nm, false );
		const char*                      auto_took = "none";
		uint64_t                         rng       = 0x9e3779b97f4a7c15ull;
		for ( int r = 0; r < HYB_AUTO_ROUNDS; r++ )
		{
			int order[nm];
			for ( int q = 0; q < nm; q++ ) order[q] = q;
			for ( int q = nm - 1; q > 0; q-- )
			{
				rng = rng * 6364136223846793005ull + 1442695040888963407ull;
				std::swap( order[q], order[( rng >> 33 ) % (uint64_t)( q + 1 )] );
			}
			for ( int q = 0; q < nm; q++ )
			{
				const int m = order[q];
				/* a method that hit its limit once is not timed again; nor is one that took
				   half a second (its median is then its first call) */
				if ( !done[m] || ( !t[m].empty() && t[m][0] >= 0.5 ) ) continue;
				hyblas_knapsack_stats_t st;
				int64_t                 z  = -1;
				hyblas_status_t         rs = HYBLAS_OK;
				const double            sec =
				    api_call( in, methods[m], o.api_limit, 0, &z, x.data(), &st, &rs );
				if ( rs != HYBLAS_OK )
				{
					done[m]  = false;
					wrong[m] = rs != HYBLAS_E_CAPACITY;
					continue;
				}
				if ( z_ref < 0 ) z_ref = z;
				if ( z != z_ref || st.fallback || !selection_ok( in, x.data(), z ) )
					wrong[m] = true;
				if ( methods[m] == HYBLAS_KNAPSACK_AUTO )
					auto_took = hyblas_knapsack_method_name( st.method );
				t[m].push_back( sec );
			}
		}
		double      best = 0, t_auto = 0;
		const char* best_name = "none";
		std::printf( "  %-10s", in.name.c_str() );
		for ( int m = 0; m < nm; m++ )
		{
			if ( wrong[m] ) g_fail++;
			double med = 0;
			if ( done[m] && !t[m].empty() )
			{
				std::sort( t[m].begin(), t[m].end() );
				med = t[m][t[m].size() / 2];
			}
			std::printf( " %s %s", hyblas_knapsack_method_name( methods[m] ),
			             wrong[m]  ? "WRONG"
			             : med > 0 ? ( std::to_string( med ).substr( 0, 7 ) ).c_str()
			                       : "stop" );
			if ( methods[m] == HYBLAS_KNAPSACK_AUTO )
				t_auto = med;
			else if ( med > 0 && ( best == 0 || med < best ) )
				best = med, best_name = hyblas_knapsack_method_name( methods[m] );
		}
		if ( best > 0 && t_auto > 0 )
		{
			rows++;
			const double ratio = t_auto / best;
			if ( ratio > 1.05 ) slower++;
			std::printf( " | fastest %s %.4f s, auto took %s %.4f s: %.3fx%s\n", best_name, best,
			             auto_took, t_auto, ratio, ratio > 1.05 ? " SLOWER" : "" );
		}
		else
			std::printf( " | auto %s\n",
			             t_auto > 0 ? "finished, nothing else did" : "did not finish" );
	}
	std::printf( "auto more than 5 %% slower than the fastest method: %d of %d instances\n", slower,
	             rows );
}

} // namespace

int main( int argc, char** argv )
{
	Options o;
	for ( int i = 1; i < argc; i++ )
	{
		std::string a = argv[i];
		if ( a == "--quick" )
			o.quick = true;
		else if ( a == "--bench" )
			o.bench = true;
		else if ( a == "--csv" && i + 1 < argc )
			o.csv = argv[++i];
		else if ( a == "--time-limit" && i + 1 < argc )
			o.time_limit = std::atof( argv[++i] );
		else if ( a == "--per-size" && i + 1 < argc )
			o.per_size = std::atoi( argv[++i] );
		else if ( a == "--sizes" && i + 2 < argc )
		{
			o.n_lo = std::atoi( argv[++i] );
			o.n_hi = std::atoi( argv[++i] );
		}
		else if ( a == "--host-gib" && i + 1 < argc )
			o.host_gib = std::atof( argv[++i] );
		else if ( a == "--device-gib" && i + 1 < argc )
			o.dev_gib = std::atof( argv[++i] );
		else if ( a == "--methods" && i + 1 < argc )
			o.methods = argv[++i];
		else if ( a == "--auto-set" )
			o.auto_set = true;
		else if ( a == "--auto-only" )
			o.auto_set = o.auto_only = true;
		else if ( a == "--api-limit" && i + 1 < argc )
			o.api_limit = std::atof( argv[++i] );
		else
		{
			std::printf(
			    "usage: %s [--quick] [--bench] [--csv PATH] [--time-limit S] [--per-size K] "
			    "[--sizes LO HI] [--host-gib G] [--device-gib G] [--methods A,B,..] [--auto-set] "
			    "[--auto-only] [--api-limit S]\n",
			    argv[0] );
			return 2;
		}
	}
	/* a run stopped by a time limit keeps every line it printed */
	std::setvbuf( stdout, nullptr, _IOLBF, 0 );
	/* part 4 goes through the library's device runtime: the CUDA plugin */
	setenv( "HYBLAS_DEVICE", "cuda", 0 );
	int count = 0;
	if ( cudaGetDeviceCount( &count ) != cudaSuccess || count == 0 )
	{
		std::printf( "gpu_check_knapsack: no CUDA device, skipped\n" );
		return 77;
	}
	cudaDeviceProp prop;
	CK_CUDA( cudaGetDeviceProperties( &prop, 0 ) );
	std::printf( "gpu_check_knapsack on %s\n", prop.name );
	if ( o.auto_only )
	{
		check_auto_set( o );
		std::printf( "\n%s\n", g_fail ? "FAILED" : "PASSED" );
		return g_fail ? 1 : 0;
	}

	/* 1 and 2: the kernels */
	const int64_t batch = o.quick ? 20000 : 4000000;
	check_kernels( make( hyb_knapsack_gen_seed_set( 1000, 0 ), "seed1000" ), batch, !o.quick );
	hyb_knapsack_gen_t weak = { HYB_KNAPSACK_GEN_WEAKLY, 500, 10000, 0, 0, 5 };
	check_kernels( make( weak, "weakly500" ), o.quick ? 5000 : 1000000, false );
	check_kernels( make( hyb_knapsack_gen_large( 2000, 3 ), "large2000" ), o.quick ? 5000 : 1000000,
	               false );
	check_dp( make( hyb_knapsack_gen_seed_set( o.quick ? 200 : 1000, 0 ), "seed" ) );

	/* 3: the drivers end to end */
	CudaDev cd;
	CK_CUDA( cudaStreamCreate( &cd.s[0] ) );
	CK_CUDA( cudaStreamCreate( &cd.s[1] ) );
	hyb_knapsack_dev_t dev = { &cd,    cd_dev_alloc, cd_dev_free, cd_host_alloc, cd_host_free,
		                       cd_h2d, cd_d2h,       cd_launch,   cd_sync,       cd_temp_bytes,
		                       1 };
	if ( !o.csv.empty() )
	{
		g_csv = std::fopen( o.csv.c_str(), "w" );
		if ( !g_csv )
		{
			std::printf( "cannot write %s\n", o.csv.c_str() );
			return 1;
		}
		std::fprintf(
		    g_csv,
		    "# gpu_check_knapsack on %s; threshold 24576, host %.1f GiB, device %.2f GiB per "
		    "buffer, time limit %.1f s\n",
		    prop.name, o.host_gib, o.dev_gib, o.time_limit );
		std::fprintf(
		    g_csv,
		    "instance,n,c,method,status,stop,optimum,dp_optimum,ok,seconds,nodes,peak_host,"
		    "peak_device,iterations,gpu_iterations,h2d_bytes,d2h_bytes,h2d_calls,d2h_calls\n" );
	}
	std::printf( "\nmethods end to end (threshold 24576, time limit %.1f s)\n", o.time_limit );
	if ( o.quick )
	{
		/* small GPU buffers so the out-of-core paths move subproblems */
		o.dev_gib = 1.0 / 1024;
		for ( int n = 100; n <= 300; n += 100 )
			run_methods(
			    dev,
			    make( hyb_knapsack_gen_seed_set( n, 1 ), ( "seed" + std::to_string( n ) ).c_str() ),
			    o );
	}
	else
	{
		for ( int n = o.n_lo; n <= o.n_hi; n += 100 )
			for ( int k = 0; k < o.per_size; k++ )
			{
				std::string name = "s" + std::to_string( n ) + "_" + std::to_string( k );
				run_methods( dev, make( hyb_knapsack_gen_seed_set( n, k ), name.c_str() ), o );
			}
		run_methods( dev, make( hyb_knapsack_gen_large( 1000, 1 ), "large1000" ), o );
	}
	if ( g_csv ) std::fclose( g_csv );
	cudaStreamDestroy( cd.s[0] );
	cudaStreamDestroy( cd.s[1] );
	check_api_all( o );
	if ( o.auto_set ) check_auto_set( o );
	std::printf( "\n%s\n", g_fail ? "FAILED" : "PASSED" );
	return g_fail ? 1 : 0;
}
