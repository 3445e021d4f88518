/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA error check of the face loop's GPU programs (check and microbenchmark): a failed
   call prints where and why and ends the program with status 1. Test programs only. */
#ifndef HYB_BENCH_CUDA_CHECK_H
#define HYB_BENCH_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CK_CUDA( expr )                                                                            \
	do {                                                                                           \
		cudaError_t e_ = ( expr );                                                                 \
		if ( e_ != cudaSuccess )                                                                   \
		{                                                                                          \
			fprintf( stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #expr,                         \
			         cudaGetErrorString( e_ ) );                                                   \
			exit( 1 );                                                                             \
		}                                                                                          \
	} while ( 0 )

#endif
