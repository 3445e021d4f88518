/* SPDX-License-Identifier: BSD-3-Clause */
/* The stream pause of the CUDA device (hyb_device_ops_t.stream_pause), C-callable: one
   thread that sleeps until the device's clock says the time has passed. Plugin only. */
#ifndef HYB_PAUSE_CUDA_H
#define HYB_PAUSE_CUDA_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C"
{
#endif

	/* Queue on `stream` a kernel of one block of one thread that returns once at least
	   `ns` nanoseconds of the device's global timer have passed since it started, sleeping
	   (__nanosleep) in between, so that it takes no issue slots from the kernels beside
	   it. The work queued on `stream` after it starts no earlier. Returns the launch's
	   status; nothing is synchronized. */
	cudaError_t hyb_pause_cuda( uint64_t ns, cudaStream_t stream );

#ifdef __cplusplus
}
#endif

#endif
