/* SPDX-License-Identifier: BSD-3-Clause */
/* The stream pause of the CUDA device: one thread sleeping on the device's global timer. */
#include "kernels/cuda/hyb_pause_cuda.h"

#include <cuda_runtime.h>

namespace
{

/* The longest single sleep: __nanosleep may sleep up to about twice what it is asked, so
   the timer is read again at least this often and a pause ends at most about this much
   late. */
constexpr unsigned kStepNs = 1000;

/* Nanoseconds of the device's global timer (%globaltimer: wall time, whatever the clocks
   of the multiprocessors do). */
__device__ __forceinline__ uint64_t hyb_globaltimer()
{
	uint64_t t;
	asm volatile( "mov.u64 %0, %%globaltimer;" : "=l"( t ) );
	return t;
}

__global__ void hyb_pause_kernel( uint64_t ns )
{
	const uint64_t t0 = hyb_globaltimer();
	for ( uint64_t spent = 0; spent < ns; spent = hyb_globaltimer() - t0 )
	{
#if __CUDA_ARCH__ >= 700
		const uint64_t left = ns - spent;
		__nanosleep( left < kStepNs ? (unsigned)left : kStepNs );
#endif
	}
}

} // namespace

extern "C" cudaError_t hyb_pause_cuda( uint64_t ns, cudaStream_t stream )
{
	hyb_pause_kernel<<<1, 1, 0, stream>>>( ns );
	return cudaGetLastError();
}
