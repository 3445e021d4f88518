/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA launchers of the fixed-rate ZFP codec: one thread per block of
   the field, the shared block codec, and the stream staged in shared memory
   per thread block so that global memory sees whole, coalesced words. */
#include <cuda_runtime.h>
#include <limits.h>

#include "kernels/zfp/hyb_zfp_block.h"
#include "kernels/zfp/hyb_zfp_kargs.h"
#include "kernels/zfp/hyb_zfp_span.h"

/* Why this layout:
   - A CUDA thread block codes HYB_ZFP_GROUP consecutive ZFP blocks, a
     multiple of 64, whose bits begin on a 64-bit word boundary whatever the
     block size; thread blocks therefore never share a word of the stream.
   - Inside it, ZFP blocks that share a word (rates where a block is not a
     whole number of words) meet in shared memory, where the writer merges
     the shared words with an atomic or; then the thread block copies its
     words to global memory in order, each warp storing consecutive words.
     Decode stages the words the same way before the threads read their bits.
   - The field is read and written in place with its strides: a warp's 32
     threads take 32 neighbouring blocks along x, so each row of their
     gathers is 128 consecutive values.
   - The stream's last word may be partial (the stream is padded to a byte,
     as Debian's libzfp writes it): it is read and written a byte at a time,
     never beyond the stream. */

/* ZFP blocks per CUDA thread block: 128, or 64 for blocks above 1024 bits
   (their staging would take more than 16 KiB of shared memory). */
#define HYB_ZFP_CTA_MAX 128

/* Thread blocks per SM that the register budget must allow: 8 for 2-D (up
   to 64 registers a thread, half the SM's threads resident: enough to hide
   the gathers' latency, and no spills), 2 for 3-D (its 64-value blocks need
   far more registers; a 3-D block is four times the work per thread). */
#define HYB_ZFP_MIN_CTAS( dims ) ( ( dims ) == 2 ? 8 : 2 )
static unsigned hyb_zfp_cta( unsigned maxbits )
{
	return maxbits <= 1024u ? HYB_ZFP_CTA_MAX : 64u;
}

template <typename T> struct hyb_zfp_ops;

template <> struct hyb_zfp_ops<float>
{
	static __device__ __forceinline__ void enc( const hyb_zfp_field_t* f, unsigned dims,
	                                            const float* in, uint64_t* w, uint64_t pos,
	                                            unsigned maxbits, uint64_t b )
	{
		hyb_zfp_encode_at_f( f, dims, in, w, pos, maxbits, b );
	}
	static __device__ __forceinline__ void dec( const hyb_zfp_field_t* f, unsigned dims, float* out,
	                                            const uint64_t* w, uint64_t pos, unsigned maxbits,
	                                            uint64_t b )
	{
		hyb_zfp_decode_at_f( f, dims, out, w, pos, maxbits, b );
	}
};

template <> struct hyb_zfp_ops<double>
{
	static __device__ __forceinline__ void enc( const hyb_zfp_field_t* f, unsigned dims,
	                                            const double* in, uint64_t* w, uint64_t pos,
	                                            unsigned maxbits, uint64_t b )
	{
		hyb_zfp_encode_at_d( f, dims, in, w, pos, maxbits, b );
	}
	static __device__ __forceinline__ void dec( const hyb_zfp_field_t* f, unsigned dims,
	                                            double* out, const uint64_t* w, uint64_t pos,
	                                            unsigned maxbits, uint64_t b )
	{
		hyb_zfp_decode_at_d( f, dims, out, w, pos, maxbits, b );
	}
};

template <typename T, unsigned DIMS>
__global__ void __launch_bounds__( HYB_ZFP_CTA_MAX, HYB_ZFP_MIN_CTAS( DIMS ) )
    hyb_zfp_encode_kernel( const hyb_zfp_field_t f, const T* __restrict__ in,
                           uint64_t* __restrict__ out, unsigned maxbits, uint64_t blocks,
                           uint64_t bytes )
{
	extern __shared__ uint64_t hyb_zfp_stage[];
	const hyb_zfp_span_t       s = hyb_zfp_span_at( blockDim.x, blockIdx.x, maxbits, bytes );
	for ( unsigned i = threadIdx.x; i < s.words; i += blockDim.x ) hyb_zfp_stage[i] = 0;
	__syncthreads();

	const uint64_t b = s.b0 + threadIdx.x;
	if ( b < blocks )
	{
		const hyb_zfp_field_t fl = f;
		hyb_zfp_ops<T>::enc( &fl, DIMS, in, hyb_zfp_stage, (uint64_t)threadIdx.x * maxbits, maxbits,
		                     b );
	}
	__syncthreads();

	for ( unsigned i = threadIdx.x; i < s.words; i += blockDim.x )
		hyb_zfp_span_put( &s, out, i, hyb_zfp_stage[i] );
}

template <typename T, unsigned DIMS>
__global__ void __launch_bounds__( HYB_ZFP_CTA_MAX, HYB_ZFP_MIN_CTAS( DIMS ) )
    hyb_zfp_decode_kernel( const hyb_zfp_field_t f, const uint64_t* __restrict__ in,
                           T* __restrict__ out, unsigned maxbits, uint64_t blocks, uint64_t bytes )
{
	extern __shared__ uint64_t hyb_zfp_stage[];
	const hyb_zfp_span_t       s = hyb_zfp_span_at( blockDim.x, blockIdx.x, maxbits, bytes );
	for ( unsigned i = threadIdx.x; i < s.words; i += blockDim.x )
		hyb_zfp_stage[i] = hyb_zfp_span_get( &s, in, i );
	__syncthreads();

	const uint64_t b = s.b0 + threadIdx.x;
	if ( b < blocks )
	{
		const hyb_zfp_field_t fl = f;
		hyb_zfp_ops<T>::dec( &fl, DIMS, out, hyb_zfp_stage, (uint64_t)threadIdx.x * maxbits,
		                     maxbits, b );
	}
}

/* How one launch runs: grid, thread block, shared memory, the stream. */
struct hyb_zfp_launch
{
	unsigned     grid, cta, maxbits;
	size_t       smem;
	uint64_t     blocks, bytes;
	cudaStream_t st;
};

/* The checks of both launchers and the launch geometry: HYB_OK with
   L->blocks == 0 when there is nothing to do, HYB_E_INVALID for bad
   arguments or a grid that would not fit (a field far beyond memory). */
static hyb_status_t hyb_zfp_prepare( const hyb_kernel_env_t* env, const hyb_zfp_field_t* f,
                                     double rate, const void* field, const void* stream,
                                     hyb_zfp_launch* L )
{
	if ( !env ) return HYB_E_INVALID;
	hyb_status_t st = hyb_zfp_check_call( f, rate, field, stream );
	if ( st != HYB_OK ) return st;
	L->blocks           = hyb_zfp_block_count( f );
	L->maxbits          = hyb_zfp_block_bits( f->dims, f->type, rate );
	L->bytes            = hyb_zfp_stream_bytes( f, rate );
	L->cta              = hyb_zfp_cta( L->maxbits );
	L->smem             = (size_t)( L->cta / 64u ) * L->maxbits * sizeof( uint64_t );
	L->st               = (cudaStream_t)env->stream;
	const uint64_t ctas = ( L->blocks + L->cta - 1 ) / L->cta;
	if ( ctas > (uint64_t)INT_MAX ) return HYB_E_INVALID;
	L->grid = (unsigned)ctas;
	return HYB_OK;
}

template <typename T, unsigned DIMS>
static void hyb_zfp_launch_encode( const hyb_zfp_encode_args_t* a, const hyb_zfp_launch& L )
{
	hyb_zfp_encode_kernel<T, DIMS><<<L.grid, L.cta, L.smem, L.st>>>(
	    a->f, (const T*)a->field, (uint64_t*)a->stream, L.maxbits, L.blocks, L.bytes );
}

template <typename T, unsigned DIMS>
static void hyb_zfp_launch_decode( const hyb_zfp_decode_args_t* a, const hyb_zfp_launch& L )
{
	hyb_zfp_decode_kernel<T, DIMS><<<L.grid, L.cta, L.smem, L.st>>>(
	    a->f, (const uint64_t*)a->stream, (T*)a->field, L.maxbits, L.blocks, L.bytes );
}

/* The kernel instances by [double][3-D]. */
template <typename A> using hyb_zfp_launcher = void ( * )( const A*, const hyb_zfp_launch& );
static const hyb_zfp_launcher<hyb_zfp_encode_args_t> hyb_zfp_encoders[2][2] = {
	{ hyb_zfp_launch_encode<float, 2>, hyb_zfp_launch_encode<float, 3> },
	{ hyb_zfp_launch_encode<double, 2>, hyb_zfp_launch_encode<double, 3> }
};
static const hyb_zfp_launcher<hyb_zfp_decode_args_t> hyb_zfp_decoders[2][2] = {
	{ hyb_zfp_launch_decode<float, 2>, hyb_zfp_launch_decode<float, 3> },
	{ hyb_zfp_launch_decode<double, 2>, hyb_zfp_launch_decode<double, 3> }
};

/* The body of both launchers (A: the encode or decode arguments): check and size the
   call, then launch the instance for the field's type and dimensions. */
template <typename A>
static hyb_status_t hyb_zfp_run( const hyb_kernel_env_t* env, const void* args,
                                 const hyb_zfp_launcher<A> ( &launchers )[2][2] )
{
	const A*       a = (const A*)args;
	hyb_zfp_launch L;
	hyb_status_t   st =
        a ? hyb_zfp_prepare( env, &a->f, a->rate, a->field, a->stream, &L ) : HYB_E_INVALID;
	if ( st != HYB_OK || L.blocks == 0 ) return st;
	launchers[a->f.type == HYB_ZFP_DOUBLE][a->f.dims == 3]( a, L );
	return cudaGetLastError() == cudaSuccess ? HYB_OK : HYB_E_DEVICE;
}

extern "C" hyb_status_t hyb_zfp_encode_cuda( const hyb_kernel_env_t* env, const void* args )
{
	return hyb_zfp_run<hyb_zfp_encode_args_t>( env, args, hyb_zfp_encoders );
}

extern "C" hyb_status_t hyb_zfp_decode_cuda( const hyb_kernel_env_t* env, const void* args )
{
	return hyb_zfp_run<hyb_zfp_decode_args_t>( env, args, hyb_zfp_decoders );
}
