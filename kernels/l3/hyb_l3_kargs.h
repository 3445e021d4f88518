/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument structs of the level-3 family's device kernels (l3.gemm, l3.trsm, l3.trmm):
   device pointers, column-major leading dimensions in elements, scalars as (re, im).
   Plain C, shared by the core's sim launchers and the plugin's cuBLAS launchers. */
#ifndef HYB_L3_KARGS_H
#define HYB_L3_KARGS_H

#include <stdint.h>

#include "hyb_types.h"

/* C = alpha op(A) op(B) + beta C (beta = 0: C is not read). transa, transb: 'N', 'T', 'C'. */
typedef struct
{
	hyb_prec_t  prec;
	char        transa, transb;
	int64_t     m, n, k;
	double      alpha[2], beta[2];
	const void* a;
	int64_t     lda;
	const void* b;
	int64_t     ldb;
	void*       c;
	int64_t     ldc;
} hyb_l3_gemm_kargs_t;

/* The triangular kernels, A triangular (uplo 'U'/'L', trans 'N'/'T'/'C', diag 'N'/'U')
   applied from the left (side 'L') or the right ('R'). One struct serves both because they
   differ only in where the result goes:
   l3.trsm: B = alpha op(A)^-1 B or alpha B op(A)^-1, in place; c and ldc are not used.
   l3.trmm: C = alpha op(A) B or alpha B op(A); B is only read, and C may not alias it. */
typedef struct
{
	hyb_prec_t  prec;
	char        side, uplo, trans, diag;
	int64_t     m, n;
	double      alpha[2];
	const void* a;
	int64_t     lda;
	void*       b;
	int64_t     ldb;
	void*       c;
	int64_t     ldc;
} hyb_l3_tri_kargs_t;

#endif
