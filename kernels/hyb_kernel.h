/* SPDX-License-Identifier: BSD-3-Clause */
/* The contract of a device kernel that a workload family registers: one C
   launcher per backend, with one signature, and its argument block. Plain C,
   no CUDA types, so the core, the simulated device and every family's .c
   files can name kernels; only the CUDA launchers themselves include CUDA. */
#ifndef HYB_KERNEL_H
#define HYB_KERNEL_H

#include <stddef.h>

#include "hyb_status.h"

/* What a launcher gets from the context it runs on. On the CUDA backend
   `stream` is the cudaStream_t of the stream the kernel was queued on and
   the handles are the context's cublasHandle_t / cusparseHandle_t, already
   bound to that stream; on the simulated device every field is NULL or 0
   and the launcher runs on the host thread that plays the stream, in
   stream order. */
typedef struct
{
	void* stream;
	void* blas;   /* cublasHandle_t, CUDA only */
	void* sparse; /* cusparseHandle_t, CUDA only */
	int   ordinal;
} hyb_kernel_env_t;

/* A launcher queues its work on env->stream and returns without waiting
   for it (the simulated device's launchers simply compute). It never
   allocates device memory and never synchronizes: buffers come in `args`,
   sized by the caller. `args` points to the family's argument struct
   (device pointers, sizes, scalars); the runtime copies it at launch, so
   the caller may reuse its struct at once. Returns HYB_OK or the launch
   error; errors of the queued work surface at the next synchronization. */
typedef hyb_status_t ( *hyb_kernel_fn )( const hyb_kernel_env_t* env, const void* args );

#endif
