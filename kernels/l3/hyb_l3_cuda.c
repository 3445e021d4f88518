/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 family's CUDA launchers: l3.gemm, l3.trsm, l3.trmm on cuBLAS, with the
   handle the runtime binds to the launch's stream. Built only into the plugin. */
#include <cublas_v2.h>
#include <limits.h>

#include "kernels/cuda/hyb_cuda_try.h"
#include "kernels/hyb_kernel.h"
#include "kernels/l3/hyb_l3_kargs.h"

static hyb_status_t hyb_cublas_status( cublasStatus_t s, const char* what, const char* file,
                                       int line )
{
	if ( s == CUBLAS_STATUS_SUCCESS ) return HYB_OK;
	hyb_cuda_log( what, "cuBLAS", (int)s, file, line );
	return s == CUBLAS_STATUS_ALLOC_FAILED    ? HYB_E_NO_MEMORY
	       : s == CUBLAS_STATUS_INVALID_VALUE ? HYB_E_INVALID
	                                          : HYB_E_DEVICE;
}

/* Every cuBLAS call goes through this; never compiled out. */
#define HYB_CUBLAS_TRY( expr )                                                                     \
	do {                                                                                           \
		hyb_status_t st_ = hyb_cublas_status( ( expr ), #expr, __FILE__, __LINE__ );               \
		if ( st_ != HYB_OK ) return st_;                                                           \
	} while ( 0 )

static cublasOperation_t hyb_op( char c )
{
	return c == 'N' ? CUBLAS_OP_N : c == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

/* cuBLAS's legacy API takes 32-bit sizes; larger problems stay on the CPU. */
static int hyb_fits( int64_t v )
{
	return v >= 0 && v <= INT_MAX;
}

static hyb_status_t hyb_l3_gemm_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_l3_gemm_kargs_t* x = args;
	if ( !hyb_fits( x->m ) || !hyb_fits( x->n ) || !hyb_fits( x->k ) || !hyb_fits( x->lda ) ||
	     !hyb_fits( x->ldb ) || !hyb_fits( x->ldc ) )
		return HYB_E_NOT_SUPPORTED;
	cublasHandle_t h     = env->blas;
	const double * alpha = x->alpha, *beta = x->beta;
	const void *   a = x->a, *b = x->b;
	void*          c = x->c;
	int            M = (int)x->m, N = (int)x->n, K = (int)x->k, LA = (int)x->lda, LB = (int)x->ldb,
	    LC              = (int)x->ldc;
	cublasOperation_t A = hyb_op( x->transa ), B = hyb_op( x->transb );
	switch ( x->prec )
	{
	case HYB_PREC_S:
	{
		float al = (float)alpha[0], be = (float)beta[0];
		HYB_CUBLAS_TRY( cublasSgemm( h, A, B, M, N, K, &al, a, LA, b, LB, &be, c, LC ) );
		break;
	}
	case HYB_PREC_D:
		HYB_CUBLAS_TRY( cublasDgemm( h, A, B, M, N, K, &alpha[0], a, LA, b, LB, &beta[0], c, LC ) );
		break;
	case HYB_PREC_C:
	{
		cuComplex al = { (float)alpha[0], (float)alpha[1] },
		          be = { (float)beta[0], (float)beta[1] };
		HYB_CUBLAS_TRY( cublasCgemm( h, A, B, M, N, K, &al, a, LA, b, LB, &be, c, LC ) );
		break;
	}
	default:
	{
		cuDoubleComplex al = { alpha[0], alpha[1] }, be = { beta[0], beta[1] };
		HYB_CUBLAS_TRY( cublasZgemm( h, A, B, M, N, K, &al, a, LA, b, LB, &be, c, LC ) );
		break;
	}
	}
	return HYB_OK;
}

static hyb_status_t hyb_l3_trsm_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_l3_tri_kargs_t* x = args;
	if ( !hyb_fits( x->m ) || !hyb_fits( x->n ) || !hyb_fits( x->lda ) || !hyb_fits( x->ldb ) )
		return HYB_E_NOT_SUPPORTED;
	cublasHandle_t    h     = env->blas;
	const double*     alpha = x->alpha;
	const void*       a     = x->a;
	void*             b     = x->b;
	cublasSideMode_t  S     = x->side == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
	cublasFillMode_t  U     = x->uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
	cublasDiagType_t  D     = x->diag == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
	cublasOperation_t T     = hyb_op( x->trans );
	int               M = (int)x->m, N = (int)x->n, LA = (int)x->lda, LB = (int)x->ldb;
	switch ( x->prec )
	{
	case HYB_PREC_S:
	{
		float al = (float)alpha[0];
		HYB_CUBLAS_TRY( cublasStrsm( h, S, U, T, D, M, N, &al, a, LA, b, LB ) );
		break;
	}
	case HYB_PREC_D:
		HYB_CUBLAS_TRY( cublasDtrsm( h, S, U, T, D, M, N, &alpha[0], a, LA, b, LB ) );
		break;
	case HYB_PREC_C:
	{
		cuComplex al = { (float)alpha[0], (float)alpha[1] };
		HYB_CUBLAS_TRY( cublasCtrsm( h, S, U, T, D, M, N, &al, a, LA, b, LB ) );
		break;
	}
	default:
	{
		cuDoubleComplex al = { alpha[0], alpha[1] };
		HYB_CUBLAS_TRY( cublasZtrsm( h, S, U, T, D, M, N, &al, a, LA, b, LB ) );
		break;
	}
	}
	return HYB_OK;
}

static hyb_status_t hyb_l3_trmm_cuda( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_l3_tri_kargs_t* x = args;
	if ( !hyb_fits( x->m ) || !hyb_fits( x->n ) || !hyb_fits( x->lda ) || !hyb_fits( x->ldb ) ||
	     !hyb_fits( x->ldc ) )
		return HYB_E_NOT_SUPPORTED;
	cublasHandle_t    h     = env->blas;
	const double*     alpha = x->alpha;
	const void *      a = x->a, *b = x->b;
	void*             c = x->c;
	cublasSideMode_t  S = x->side == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
	cublasFillMode_t  U = x->uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
	cublasDiagType_t  D = x->diag == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
	cublasOperation_t T = hyb_op( x->trans );
	int M = (int)x->m, N = (int)x->n, LA = (int)x->lda, LB = (int)x->ldb, LC = (int)x->ldc;
	switch ( x->prec )
	{
	case HYB_PREC_S:
	{
		float al = (float)alpha[0];
		HYB_CUBLAS_TRY( cublasStrmm( h, S, U, T, D, M, N, &al, a, LA, b, LB, c, LC ) );
		break;
	}
	case HYB_PREC_D:
		HYB_CUBLAS_TRY( cublasDtrmm( h, S, U, T, D, M, N, &alpha[0], a, LA, b, LB, c, LC ) );
		break;
	case HYB_PREC_C:
	{
		cuComplex al = { (float)alpha[0], (float)alpha[1] };
		HYB_CUBLAS_TRY( cublasCtrmm( h, S, U, T, D, M, N, &al, a, LA, b, LB, c, LC ) );
		break;
	}
	default:
	{
		cuDoubleComplex al = { alpha[0], alpha[1] };
		HYB_CUBLAS_TRY( cublasZtrmm( h, S, U, T, D, M, N, &al, a, LA, b, LB, c, LC ) );
		break;
	}
	}
	return HYB_OK;
}

HYB_KERNEL_IMPL( "l3.gemm", hyb_l3_gemm_cuda, HYB_KERNEL_NEEDS_BLAS, NULL );
HYB_KERNEL_IMPL( "l3.trsm", hyb_l3_trsm_cuda, HYB_KERNEL_NEEDS_BLAS, NULL );
HYB_KERNEL_IMPL( "l3.trmm", hyb_l3_trmm_cuda, HYB_KERNEL_NEEDS_BLAS, NULL );
