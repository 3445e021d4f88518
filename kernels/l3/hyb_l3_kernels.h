/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 family's registered device kernels and the typed launches its pipeline
   uses (each packs the arguments and calls hyb_dev_launch). */
#ifndef HYB_L3_KERNELS_H
#define HYB_L3_KERNELS_H

#include "kernels/hyb_device.h"
#include "kernels/l3/hyb_l3_kargs.h"

/* Registered in kernels/l3/hyb_l3_sim.c: "l3.gemm", "l3.trsm", "l3.trmm" (fault plans
   also accept "gemm", "trsm", "trmm"); the plugin's cuBLAS launchers are in
   kernels/l3/hyb_l3_cuda.c. */
extern const hyb_kernel_def_t hyb_l3_gemm_kernel;
extern const hyb_kernel_def_t hyb_l3_trsm_kernel;
extern const hyb_kernel_def_t hyb_l3_trmm_kernel;

/* Queue C = alpha op(A) op(B) + beta C on `stream` of d (hyb_l3_gemm_kargs_t). */
static inline hyb_status_t hyb_dev_gemm( hyb_dev_t* d, int stream, hyb_prec_t prec, char ta,
                                         char tb, int64_t m, int64_t n, int64_t k,
                                         const double alpha[2], const void* a, int64_t lda,
                                         const void* b, int64_t ldb, const double beta[2], void* c,
                                         int64_t ldc )
{
	static atomic_int         id;
	const hyb_l3_gemm_kargs_t x = {
		prec, ta, tb, m, n, k, { alpha[0], alpha[1] }, { beta[0], beta[1] }, a, lda, b, ldb, c, ldc
	};
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_l3_gemm_kernel ), &x );
}

/* Queue the triangular kernel `def` (hyb_l3_tri_kargs_t; `id` its cached id). */
static inline hyb_status_t hyb_dev_l3_tri( hyb_dev_t* d, int stream, atomic_int* id,
                                           const hyb_kernel_def_t* def, hyb_prec_t prec, char side,
                                           char uplo, char trans, char diag, int64_t m, int64_t n,
                                           const double alpha[2], const void* a, int64_t lda,
                                           void* b, int64_t ldb, void* c, int64_t ldc )
{
	const hyb_l3_tri_kargs_t x = { prec, side, uplo, trans, diag, m,  n, { alpha[0], alpha[1] },
		                           a,    lda,  b,    ldb,   c,    ldc };
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( id, def ), &x );
}

/* Queue the in-place triangular solve: B = alpha op(A)^-1 B or alpha B op(A)^-1. */
static inline hyb_status_t hyb_dev_trsm( hyb_dev_t* d, int stream, hyb_prec_t prec, char side,
                                         char uplo, char trans, char diag, int64_t m, int64_t n,
                                         const double alpha[2], const void* a, int64_t lda, void* b,
                                         int64_t ldb )
{
	static atomic_int id;
	return hyb_dev_l3_tri( d, stream, &id, &hyb_l3_trsm_kernel, prec, side, uplo, trans, diag, m, n,
	                       alpha, a, lda, b, ldb, NULL, 0 );
}

/* Queue the out-of-place triangular product C = alpha op(A) B or alpha B op(A) (l3.trmm
   only reads B, hence the cast). */
static inline hyb_status_t hyb_dev_trmm( hyb_dev_t* d, int stream, hyb_prec_t prec, char side,
                                         char uplo, char trans, char diag, int64_t m, int64_t n,
                                         const double alpha[2], const void* a, int64_t lda,
                                         const void* b, int64_t ldb, void* c, int64_t ldc )
{
	static atomic_int id;
	return hyb_dev_l3_tri( d, stream, &id, &hyb_l3_trmm_kernel, prec, side, uplo, trans, diag, m, n,
	                       alpha, a, lda, (void*)b, ldb, c, ldc );
}

#endif
