/* SPDX-License-Identifier: BSD-3-Clause */
/* CUDA status conversion shared by the plugin's backend core and every family's CUDA
   launchers: one logged conversion, never compiled out. Plugin only. */
#ifndef HYB_CUDA_TRY_H
#define HYB_CUDA_TRY_H

#include <cuda_runtime_api.h>

#include "hyb_status.h"

#ifdef __cplusplus
extern "C"
{
#endif

	/* HYB_OK for cudaSuccess; otherwise logs "<what> failed: <library> error <code>
	   (<file>:<line>)" at level 2 through the core's log and maps the error:
	   cudaErrorMemoryAllocation -> HYB_E_NO_MEMORY, cudaErrorNotReady -> HYB_E_AGAIN,
	   no device or driver -> HYB_E_NO_DEVICE, anything else -> HYB_E_DEVICE. */
	hyb_status_t hyb_cuda_status( cudaError_t e, const char* what, const char* file, int line );

	/* The log line of a failed call of another CUDA library (cuBLAS, cuSPARSE). */
	void hyb_cuda_log( const char* what, const char* library, int code, const char* file,
	                   int line );

#ifdef __cplusplus
}
#endif

/* Return the converted status of a CUDA runtime call that failed. */
#define HYB_CUDA_TRY( expr )                                                                       \
	do {                                                                                           \
		hyb_status_t st_ = hyb_cuda_status( ( expr ), #expr, __FILE__, __LINE__ );                 \
		if ( st_ != HYB_OK ) return st_;                                                           \
	} while ( 0 )

#endif
