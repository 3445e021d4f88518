/* SPDX-License-Identifier: BSD-3-Clause */
/* The face-loop family's device kernels as launchers of the kernel contract (hyb_kernel.h):
   the CUDA launchers (kernels/faceloop/hyb_faceloop_cuda.cu, in the CUDA plugin) and the
   simulated device's (kernels/faceloop/hyb_faceloop_sim.c), one pair per kernel, plus the
   CUDA kernels' attributes for the register study. No CUDA type. */
#ifndef HYB_FACELOOP_LAUNCH_H
#define HYB_FACELOOP_LAUNCH_H

#include "kernels/hyb_kernel.h"
#include "kernels/faceloop/hyb_faceloop_kargs.h"

#ifdef __cplusplus
extern "C"
{
#endif

/* Threads per block and the minimum resident blocks per multiprocessor the register-limited
   face kernel is compiled for (__launch_bounds__): 65536 registers / (128 * 8) = 64 per
   thread at most, so at least 32 of the 64 warp slots of an SM can be filled (50 %
   occupancy), against the compiler's free choice in the other forms. */
#define HYB_FL_LOWREG_BLOCK      128
#define HYB_FL_LOWREG_MIN_BLOCKS 8

	/* Every launcher: `args` points to the kernel's argument block (hyb_faceloop_*_args_t,
	   named below) in host memory, its pointers are device pointers (host memory on the
	   simulated device); the work is queued on env->stream (CUDA) or done at once (sim).
	   One thread per element; args->block threads per block (0: 64). Returns HYB_OK,
	   HYB_E_INVALID for an argument block that fails its check (nothing queued), or
	   HYB_E_DEVICE for a launch error.

	   face         hyb_faceloop_face_args_t: the face loop, vanilla (idx NULL: thread t on
	                face t, faces in the mesh's order) or remapped (thread t on face idx[t]);
	                one compiled kernel serves both, so remapped output equals vanilla's bits
	   face_lowreg  the same work compiled with __launch_bounds__(HYB_FL_LOWREG_BLOCK,
	                HYB_FL_LOWREG_MIN_BLOCKS); args->block must be 0 or <= HYB_FL_LOWREG_BLOCK
	   volume       hyb_faceloop_volume_args_t: the volume loop, one thread per cell
	   gather       hyb_faceloop_gather_args_t: faces' contributions into the cells' rhs
	   update       hyb_faceloop_update_args_t: one Runge-Kutta stage, one thread per cell */
	hyb_status_t hyb_faceloop_face_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_face_lowreg_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_volume_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_gather_cuda( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_update_cuda( const hyb_kernel_env_t* env, const void* args );

	hyb_status_t hyb_faceloop_face_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_face_lowreg_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_volume_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_gather_sim( const hyb_kernel_env_t* env, const void* args );
	hyb_status_t hyb_faceloop_update_sim( const hyb_kernel_env_t* env, const void* args );

	/* What the CUDA compiler made of one face kernel (cudaFuncGetAttributes) and how many of
	   its blocks fit on one multiprocessor of the current device
	   (cudaOccupancyMaxActiveBlocksPerMultiprocessor). */
	typedef struct
	{
		int    regs;          /* registers per thread */
		int    local_bytes;   /* local (spill) memory per thread */
		int    max_threads;   /* the most threads per block it can be launched with */
		int    block;         /* the block size asked about */
		int    blocks_per_sm; /* resident blocks per multiprocessor at that block size */
		double occupancy;     /* resident warps / the multiprocessor's warp slots */
	} hyb_faceloop_kinfo_t;

	/* The attributes of the face kernel for (nv, degree p, equation eq), the register-limited
	   one when lowreg, at `block` threads per block (0: the launcher's default). CUDA builds
	   only. Returns HYB_OK, HYB_E_INVALID (no such kernel) or HYB_E_DEVICE. */
	hyb_status_t hyb_faceloop_face_cuda_info( int lowreg, int nv, int p, int eq, int block,
	                                          hyb_faceloop_kinfo_t* info );

#ifdef __cplusplus
}
#endif

#endif
