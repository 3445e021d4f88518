/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA launchers of the stencil family, with the registered-kernel
   signature (kernels/hyb_kernel.h). C-callable; built into the CUDA plugin
   only. */
#ifndef HYB_STENCIL_CUDA_H
#define HYB_STENCIL_CUDA_H

#include "hyb_status.h"
#include "kernels/hyb_kernel.h"

#ifdef __cplusplus
extern "C"
{
#endif

	/* Queue one time step on env->stream (a cudaStream_t; NULL is the
	   legacy default stream) as hyb_stencil_kargs.h defines it for the
	   argument struct `args` points to; every array pointer is device
	   memory. Nothing is allocated and nothing waits. Returns HYB_OK,
	   HYB_E_INVALID for arguments the CPU kernels reject too (nothing is
	   queued), or HYB_E_DEVICE for a failed launch. Every point's value is
	   a function of its inputs alone (not of the range, the buffer or the
	   launch shape), so the device schemes agree bit for bit; against the
	   CPU kernels they differ by the rounding of fused multiply-adds. The
	   Himeno residual is summed per plane in a fixed order (per 32 x 8
	   tile, then over the tiles), through args->work. */
	hyb_status_t hyb_stencil_acoustic_cuda( const hyb_kernel_env_t* env, const void* args );
	/* The acoustic launcher with the kernel's tile shape given: `shape` from 0
	   while hyb_stencil_acoustic_cuda_shape(shape) names one (NULL past the
	   last). Every shape computes the same values; gpu_check_stencil times
	   them to pick the one hyb_stencil_acoustic_cuda launches. */
	const char*  hyb_stencil_acoustic_cuda_shape( int shape );
	hyb_status_t hyb_stencil_acoustic_cuda_as( const hyb_kernel_env_t* env, const void* args,
	                                           int shape );
	hyb_status_t hyb_stencil_himeno_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_stencil_laplace_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_stencil_star_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_stencil_wave_cuda( const hyb_kernel_env_t* env, const void* args );

#ifdef __cplusplus
}
#endif

#endif
