/* SPDX-License-Identifier: BSD-3-Clause */
/* The benchmark's reference: cuSPARSE's CSR SpMV on device-resident data (matrix, x and y
   all on the device, so it times the kernel alone). Built with CUDA; a stub otherwise. */
#ifndef HYB_BENCH_SPMV_CUSPARSE_H
#define HYB_BENCH_SPMV_CUSPARSE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C"
{
#endif

	/* y = A x with cusparseSpMV on a 0-based CSR (prec 1: double, 0: single), after one
	   warm-up, timed with events over `reps` products: returns the mean seconds per product
	   and writes y (host) of the last one; -1 when no device or cuSPARSE failed (message on
	   stderr). `name` receives the device name (64 bytes) when not NULL. */
	double hyb_bench_cusparse_csr( int dbl, int64_t m, const int* ia, const int* ja, const void* a,
	                               const void* x, void* y, int reps, char* name );

#ifdef __cplusplus
}
#endif

#endif
