/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's CUDA kernels and their launchers (the kernel contract of
   kernels/hyb_kernel.h): the face loop in its vanilla / remapped and register-limited
   forms, the volume loop, the gather and the Runge-Kutta update, each one thread per
   element over the per-element code the CPU loops run; and the face kernels' attributes. */
#include <cuda_runtime.h>

#include "kernels/faceloop/hyb_faceloop_check.h"
#include "kernels/faceloop/hyb_faceloop_elem.h"
#include "kernels/faceloop/hyb_faceloop_launch.h"

namespace
{

/* Threads per block when the argument block leaves it 0: one 64-thread group as the seed
   (its OpenCL work-group was one 64-wide wavefront); on an H100 32 such blocks fill an SM. */
constexpr int kDefaultBlock = 64;

/* The sizes the host tables have for (cells of nv vertices, degree p, equation eq); the
   kernels are compiled for each, so every loop bound is a constant. */
__host__ __device__ constexpr int np_of( int nv, int p )
{
	return nv == 3 ? ( p + 1 ) * ( p + 2 ) / 2 : ( p + 1 ) * ( p + 1 );
}
__host__ __device__ constexpr int nq_of( int eq, int p )
{
	return eq == HYB_FL_EQ_BURGERS ? ( 3 * p + 2 ) / 2 : p + 1;
}
__host__ __device__ constexpr int nqv_of( int nv, int eq, int p )
{
	return nv == 3 ? ( ( ( eq == HYB_FL_EQ_BURGERS ? 3 * p : 2 * p ) + 2 ) / 2 ) *
	                     ( ( ( eq == HYB_FL_EQ_BURGERS ? 3 * p : 2 * p ) + 3 ) / 2 )
	               : nq_of( eq, p ) * nq_of( eq, p );
}

__device__ __forceinline__ int64_t thread_index()
{
	return (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

/* The face loop: thread t on face t (vanilla, idx NULL) or on face idx[t] (remapped). */
template <int NV, int P, int EQ>
__global__ void face_kernel( const __grid_constant__ hyb_faceloop_face_args_t a )
{
	const int64_t t = thread_index();
	if ( t >= a.n_faces ) return;
	hyb_fl_face( &a, a.idx ? (int64_t)a.idx[t] : t, np_of( NV, P ), nq_of( EQ, P ), NV, EQ );
}

/* The same work with the register cap of HYB_FL_LOWREG_BLOCK x HYB_FL_LOWREG_MIN_BLOCKS. */
template <int NV, int P, int EQ>
__global__ void __launch_bounds__( HYB_FL_LOWREG_BLOCK, HYB_FL_LOWREG_MIN_BLOCKS )
    face_kernel_lowreg( const __grid_constant__ hyb_faceloop_face_args_t a )
{
	const int64_t t = thread_index();
	if ( t >= a.n_faces ) return;
	hyb_fl_face( &a, a.idx ? (int64_t)a.idx[t] : t, np_of( NV, P ), nq_of( EQ, P ), NV, EQ );
}

template <int NV, int P, int EQ>
__global__ void volume_kernel( const __grid_constant__ hyb_faceloop_volume_args_t a )
{
	const int64_t c = thread_index();
	if ( c < a.n_cells ) hyb_fl_volume( &a, c, np_of( NV, P ), nqv_of( NV, EQ, P ), NV, EQ );
}

template <int NV, int P>
__global__ void gather_kernel( const __grid_constant__ hyb_faceloop_gather_args_t a )
{
	const int64_t c = thread_index();
	if ( c < a.n_cells ) hyb_fl_gather( &a, c, np_of( NV, P ), NV );
}

template <int NP>
__global__ void update_kernel( const __grid_constant__ hyb_faceloop_update_args_t a )
{
	const int64_t c = thread_index();
	if ( c < a.n_cells ) hyb_fl_update( &a, c, NP );
}

using face_fn   = void ( * )( hyb_faceloop_face_args_t );
using volume_fn = void ( * )( hyb_faceloop_volume_args_t );
using gather_fn = void ( * )( hyb_faceloop_gather_args_t );
using update_fn = void ( * )( hyb_faceloop_update_args_t );

/* The compiled instance for the run-time sizes, or nullptr. */
template <int NV, int EQ> face_fn face_for( int p, bool lowreg )
{
	switch ( p )
	{
	case 1:
		return lowreg ? face_kernel_lowreg<NV, 1, EQ> : face_kernel<NV, 1, EQ>;
	case 2:
		return lowreg ? face_kernel_lowreg<NV, 2, EQ> : face_kernel<NV, 2, EQ>;
	case 3:
		return lowreg ? face_kernel_lowreg<NV, 3, EQ> : face_kernel<NV, 3, EQ>;
	}
	return nullptr;
}

face_fn pick_face( int nv, int p, int eq, bool lowreg )
{
	if ( eq != HYB_FL_EQ_ADVECTION && eq != HYB_FL_EQ_BURGERS ) return nullptr;
	if ( nv == 3 )
		return eq ? face_for<3, HYB_FL_EQ_BURGERS>( p, lowreg )
		          : face_for<3, HYB_FL_EQ_ADVECTION>( p, lowreg );
	if ( nv == 4 )
		return eq ? face_for<4, HYB_FL_EQ_BURGERS>( p, lowreg )
		          : face_for<4, HYB_FL_EQ_ADVECTION>( p, lowreg );
	return nullptr;
}

template <int NV, int EQ> volume_fn volume_for( int p )
{
	switch ( p )
	{
	case 1:
		return volume_kernel<NV, 1, EQ>;
	case 2:
		return volume_kernel<NV, 2, EQ>;
	case 3:
		return volume_kernel<NV, 3, EQ>;
	}
	return nullptr;
}

volume_fn pick_volume( int nv, int p, int eq )
{
	if ( eq != HYB_FL_EQ_ADVECTION && eq != HYB_FL_EQ_BURGERS ) return nullptr;
	if ( nv == 3 )
		return eq ? volume_for<3, HYB_FL_EQ_BURGERS>( p ) : volume_for<3, HYB_FL_EQ_ADVECTION>( p );
	if ( nv == 4 )
		return eq ? volume_for<4, HYB_FL_EQ_BURGERS>( p ) : volume_for<4, HYB_FL_EQ_ADVECTION>( p );
	return nullptr;
}

template <int NV> gather_fn gather_for( int p )
{
	switch ( p )
	{
	case 1:
		return gather_kernel<NV, 1>;
	case 2:
		return gather_kernel<NV, 2>;
	case 3:
		return gather_kernel<NV, 3>;
	}
	return nullptr;
}

/* The update kernel for np modes per cell among those compiled, NP..., or nullptr. */
template <int... NP> update_fn update_among( int np )
{
	const int       sizes[]   = { NP... };
	const update_fn kernels[] = { update_kernel<NP>... };
	for ( size_t i = 0; i < sizeof sizes / sizeof *sizes; i++ )
		if ( sizes[i] == np ) return kernels[i];
	return nullptr;
}

/* The update depends on the modes per cell alone: one kernel for each size a cell of either
   shape has at degree 1 .. 3. */
update_fn pick_update( int np )
{
	return update_among<np_of( 3, 1 ), np_of( 3, 2 ), np_of( 3, 3 ), np_of( 4, 1 ), np_of( 4, 2 ),
	                    np_of( 4, 3 )>( np );
}

/* Queue kernel k over n elements on the env's stream. */
template <typename Fn, typename Args>
hyb_status_t launch( const hyb_kernel_env_t* env, Fn k, int64_t n, int block, const Args& a )
{
	if ( k == nullptr ) return HYB_E_INVALID;
	if ( n == 0 ) return HYB_OK;
	const int          b    = block > 0 ? block : kDefaultBlock;
	const int64_t      grid = ( n + b - 1 ) / b;
	const cudaStream_t s    = env ? static_cast<cudaStream_t>( env->stream ) : nullptr;
	if ( grid > 0x7fffffffLL ) return HYB_E_INVALID;
	k<<<(unsigned)grid, (unsigned)b, 0, s>>>( a );
	return cudaGetLastError() == cudaSuccess ? HYB_OK : HYB_E_DEVICE;
}

hyb_status_t face_launch( const hyb_kernel_env_t* env, const void* args, bool lowreg )
{
	const hyb_faceloop_face_args_t* a = static_cast<const hyb_faceloop_face_args_t*>( args );
	if ( !hyb_fl_face_args_ok( a ) ) return HYB_E_INVALID;
	const int p = hyb_fl_degree_of( a->nv, a->np );
	if ( a->nq != nq_of( a->eq.kind, p ) ) return HYB_E_INVALID;
	if ( lowreg && a->block > HYB_FL_LOWREG_BLOCK ) return HYB_E_INVALID;
	return launch( env, pick_face( a->nv, p, a->eq.kind, lowreg ), a->n_faces, a->block, *a );
}

} // namespace

extern "C" hyb_status_t hyb_faceloop_face_cuda( const hyb_kernel_env_t* env, const void* args )
{
	return face_launch( env, args, false );
}

extern "C" hyb_status_t hyb_faceloop_face_lowreg_cuda( const hyb_kernel_env_t* env,
                                                       const void*             args )
{
	return face_launch( env, args, true );
}

extern "C" hyb_status_t hyb_faceloop_volume_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_faceloop_volume_args_t* a = static_cast<const hyb_faceloop_volume_args_t*>( args );
	if ( !hyb_fl_volume_args_ok( a ) ) return HYB_E_INVALID;
	const int p = hyb_fl_degree_of( a->nv, a->np );
	if ( a->nqv != nqv_of( a->nv, a->eq.kind, p ) ) return HYB_E_INVALID;
	return launch( env, pick_volume( a->nv, p, a->eq.kind ), a->n_cells, a->block, *a );
}

extern "C" hyb_status_t hyb_faceloop_gather_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_faceloop_gather_args_t* a = static_cast<const hyb_faceloop_gather_args_t*>( args );
	if ( !hyb_fl_gather_args_ok( a ) ) return HYB_E_INVALID;
	const int p = hyb_fl_degree_of( a->nv, a->np );
	return launch( env, a->nv == 3 ? gather_for<3>( p ) : gather_for<4>( p ), a->n_cells, a->block,
	               *a );
}

extern "C" hyb_status_t hyb_faceloop_update_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_faceloop_update_args_t* a = static_cast<const hyb_faceloop_update_args_t*>( args );
	if ( !hyb_fl_update_args_ok( a ) ) return HYB_E_INVALID;
	return launch( env, pick_update( a->np ), a->n_cells, a->block, *a );
}

extern "C" hyb_status_t hyb_faceloop_face_cuda_info( int lowreg, int nv, int p, int eq, int block,
                                                     hyb_faceloop_kinfo_t* info )
{
	const face_fn k = pick_face( nv, p, eq, lowreg != 0 );
	if ( k == nullptr || info == nullptr ) return HYB_E_INVALID;
	const int b = block > 0 ? block : kDefaultBlock;
	if ( lowreg && b > HYB_FL_LOWREG_BLOCK ) return HYB_E_INVALID;
	cudaFuncAttributes fa;
	int                dev = 0, per_sm = 0, blocks = 0;
	if ( cudaFuncGetAttributes( &fa, reinterpret_cast<const void*>( k ) ) != cudaSuccess ||
	     cudaGetDevice( &dev ) != cudaSuccess ||
	     cudaDeviceGetAttribute( &per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev ) !=
	         cudaSuccess ||
	     cudaOccupancyMaxActiveBlocksPerMultiprocessor( &blocks, k, b, 0 ) != cudaSuccess )
		return HYB_E_DEVICE;
	info->regs          = fa.numRegs;
	info->local_bytes   = (int)fa.localSizeBytes;
	info->max_threads   = fa.maxThreadsPerBlock;
	info->block         = b;
	info->blocks_per_sm = blocks;
	info->occupancy     = per_sm > 0 ? (double)( blocks * b ) / per_sm : 0.0;
	return HYB_OK;
}
