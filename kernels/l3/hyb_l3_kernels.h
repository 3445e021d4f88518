/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 family's registered device kernels and the typed launches its pipeline
   uses (each packs the arguments and calls hyb_dev_launch). */
#ifndef HYB_L3_KERNELS_H
#define HYB_L3_KERNELS_H

#include <string.h>

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
	static atomic_int   id;
	hyb_l3_gemm_kargs_t x = { .prec   = prec,
		                      .transa = ta,
		                      .transb = tb,
		                      .m      = m,
		                      .n      = n,
		                      .k      = k,
		                      .a      = a,
		                      .lda    = lda,
		                      .b      = b,
		                      .ldb    = ldb,
		                      .c      = c,
		                      .ldc    = ldc };
	memcpy( x.alpha, alpha, sizeof x.alpha );
	memcpy( x.beta, beta, sizeof x.beta );
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_l3_gemm_kernel ), &x );
}

/* Queue the in-place triangular solve (hyb_l3_trsm_kargs_t). */
static inline hyb_status_t hyb_dev_trsm( hyb_dev_t* d, int stream, hyb_prec_t prec, char side,
                                         char uplo, char trans, char diag, int64_t m, int64_t n,
                                         const double alpha[2], const void* a, int64_t lda, void* b,
                                         int64_t ldb )
{
	static atomic_int   id;
	hyb_l3_trsm_kargs_t x = { .prec  = prec,
		                      .side  = side,
		                      .uplo  = uplo,
		                      .trans = trans,
		                      .diag  = diag,
		                      .m     = m,
		                      .n     = n,
		                      .a     = a,
		                      .lda   = lda,
		                      .b     = b,
		                      .ldb   = ldb };
	memcpy( x.alpha, alpha, sizeof x.alpha );
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_l3_trsm_kernel ), &x );
}

/* Queue the out-of-place triangular product (hyb_l3_trmm_kargs_t). */
static inline hyb_status_t hyb_dev_trmm( hyb_dev_t* d, int stream, hyb_prec_t prec, char side,
                                         char uplo, char trans, char diag, int64_t m, int64_t n,
                                         const double alpha[2], const void* a, int64_t lda,
                                         const void* b, int64_t ldb, void* c, int64_t ldc )
{
	static atomic_int   id;
	hyb_l3_trmm_kargs_t x = { .prec  = prec,
		                      .side  = side,
		                      .uplo  = uplo,
		                      .trans = trans,
		                      .diag  = diag,
		                      .m     = m,
		                      .n     = n,
		                      .a     = a,
		                      .lda   = lda,
		                      .b     = b,
		                      .ldb   = ldb,
		                      .c     = c,
		                      .ldc   = ldc };
	memcpy( x.alpha, alpha, sizeof x.alpha );
	return hyb_dev_launch( d, stream, hyb_kernel_id_cached( &id, &hyb_l3_trmm_kernel ), &x );
}

#endif
