/* SPDX-License-Identifier: BSD-3-Clause */
/* The benchmark's cuSPARSE reference where CUDA was not built: none. */
#include "tools/bench/hyb_bench_spmv_cusparse.h"

double hyb_bench_cusparse_csr( int dbl, int64_t m, const int* ia, const int* ja, const void* a,
                               const void* x, void* y, int reps, char* name )
{
	(void)dbl, (void)m, (void)ia, (void)ja, (void)a, (void)x, (void)y, (void)reps;
	if ( name ) name[0] = '\0';
	return -1.0;
}
