/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA device: the async-device interface over the CUDA runtime and
   cuBLAS. Built only into libhyblas_cuda.so, which the core dlopen()s. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/hyb_gtsv_cuda.h"
#include "kernels/cuda/hyb_spmv_cuda.h"
#include "kernels/hyb_device_ops.h"

static hyb_device_env_t hyb_cuda_env;

struct hyb_dctx_s
{
	int            dev;
	cudaStream_t   stream[HYB_STREAM_COUNT];
	cublasHandle_t blas;
};

struct hyb_devent_s
{
	cudaEvent_t ev;
};

/* "<what> failed: <library> error <code> (<file>:<line>)" at level 2. */
static void hyb_cuda_log( const char* what, const char* library, int code, const char* file, int line )
{
	if ( hyb_cuda_env.log == NULL ) return;
	char buf[256];
	snprintf( buf, sizeof buf, "%.120s failed: %s error %d (%s:%d)", what, library, code, file, line );
	hyb_cuda_env.log( 2, buf );
}

static hyb_status_t hyb_cuda_status( cudaError_t e, const char* what, const char* file, int line )
{
	if ( e == cudaSuccess ) return HYB_OK;
	hyb_cuda_log( what, "CUDA", (int)e, file, line );
	if ( e == cudaErrorMemoryAllocation ) return HYB_E_NO_MEMORY;
	if ( e == cudaErrorNotReady ) return HYB_E_AGAIN;
	if ( e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ) return HYB_E_NO_DEVICE;
	return HYB_E_DEVICE;
}

static hyb_status_t hyb_cublas_status( cublasStatus_t s, const char* what, const char* file, int line )
{
	if ( s == CUBLAS_STATUS_SUCCESS ) return HYB_OK;
	hyb_cuda_log( what, "cuBLAS", (int)s, file, line );
	return s == CUBLAS_STATUS_ALLOC_FAILED ? HYB_E_NO_MEMORY
	     : s == CUBLAS_STATUS_INVALID_VALUE ? HYB_E_INVALID
	                                         : HYB_E_DEVICE;
}

/* Every CUDA and cuBLAS call goes through these; never compiled out. */
#define HYB_CUDA_TRY( expr ) \
	do \
	{ \
		hyb_status_t st_ = hyb_cuda_status( ( expr ), #expr, __FILE__, __LINE__ ); \
		if ( st_ != HYB_OK ) return st_; \
	} while ( 0 )
#define HYB_CUBLAS_TRY( expr ) \
	do \
	{ \
		hyb_status_t st_ = hyb_cublas_status( ( expr ), #expr, __FILE__, __LINE__ ); \
		if ( st_ != HYB_OK ) return st_; \
	} while ( 0 )

/* The device current on this thread, + 1 (0: unknown). Contexts move between
   threads, so every operation makes its device current first. */
static __thread int hyb_cuda_current;

static hyb_status_t hyb_cuda_use( int dev )
{
	if ( hyb_cuda_current == dev + 1 ) return HYB_OK;
	HYB_CUDA_TRY( cudaSetDevice( dev ) );
	hyb_cuda_current = dev + 1;
	return HYB_OK;
}

static hyb_status_t hyb_cuda_init( const hyb_device_env_t* env, int* ndevices )
{
	hyb_cuda_env = *env;
	int n        = 0;
	HYB_CUDA_TRY( cudaGetDeviceCount( &n ) );
	*ndevices = n;
	return n > 0 ? HYB_OK : HYB_E_NO_DEVICE;
}

static hyb_status_t hyb_cuda_info( int dev, hyb_device_info_t* out )
{
	memset( out, 0, sizeof *out );
	struct cudaDeviceProp p;
	HYB_CUDA_TRY( cudaGetDeviceProperties( &p, dev ) );
	if ( hyb_cuda_use( dev ) != HYB_OK ) return HYB_E_DEVICE;
	size_t free_b = 0, total_b = 0;
	HYB_CUDA_TRY( cudaMemGetInfo( &free_b, &total_b ) );
	snprintf( out->name, sizeof out->name, "%.127s", p.name );
	out->mem_total       = (double)total_b;
	out->mem_free        = (double)free_b;
	out->cc_major        = p.major;
	out->cc_minor        = p.minor;
	out->multiprocessors = p.multiProcessorCount;
	out->copy_engines    = p.asyncEngineCount;
	return HYB_OK;
}

static void hyb_cuda_ctx_destroy( hyb_dctx_t* ctx, int broken )
{
	(void)broken; /* after an error the calls below may fail; nothing to do then */
	if ( ctx == NULL ) return;
	if ( hyb_cuda_use( ctx->dev ) == HYB_OK )
	{
		if ( ctx->blas ) cublasDestroy( ctx->blas );
		for ( int i = 0; i < HYB_STREAM_COUNT; i++ )
			if ( ctx->stream[i] ) cudaStreamDestroy( ctx->stream[i] );
	}
	free( ctx );
}

static hyb_status_t hyb_cuda_ctx_create_into( hyb_dctx_t* ctx )
{
	HYB_CUDA_TRY( hyb_cuda_use( ctx->dev ) == HYB_OK ? cudaSuccess : cudaErrorInvalidDevice );
	for ( int i = 0; i < HYB_STREAM_COUNT; i++ )
		HYB_CUDA_TRY( cudaStreamCreateWithFlags( &ctx->stream[i], cudaStreamNonBlocking ) );
	HYB_CUBLAS_TRY( cublasCreate( &ctx->blas ) );
	HYB_CUBLAS_TRY( cublasSetStream( ctx->blas, ctx->stream[HYB_STREAM_COMPUTE] ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_ctx_create( int dev, hyb_dctx_t** out )
{
	hyb_dctx_t* ctx = calloc( 1, sizeof *ctx );
	if ( ctx == NULL ) return HYB_E_NO_MEMORY;
	ctx->dev        = dev;
	hyb_status_t st = hyb_cuda_ctx_create_into( ctx );
	if ( st != HYB_OK )
	{
		hyb_cuda_ctx_destroy( ctx, 1 );
		return st;
	}
	*out = ctx;
	return HYB_OK;
}

static hyb_status_t hyb_cuda_mem_alloc( hyb_dctx_t* ctx, size_t bytes, void** dptr )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaMalloc( dptr, bytes ) );
	return HYB_OK;
}

static void hyb_cuda_mem_free( hyb_dctx_t* ctx, void* dptr )
{
	if ( dptr && hyb_cuda_use( ctx->dev ) == HYB_OK ) cudaFree( dptr );
}

static hyb_status_t hyb_cuda_host_alloc( hyb_dctx_t* ctx, size_t bytes, void** p )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaHostAlloc( p, bytes, cudaHostAllocPortable ) );
	return HYB_OK;
}

static void hyb_cuda_host_free( hyb_dctx_t* ctx, void* p )
{
	(void)ctx;
	if ( p ) cudaFreeHost( p );
}

static hyb_status_t hyb_cuda_host_register( hyb_dctx_t* ctx, void* p, size_t bytes )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaError_t e = cudaHostRegister( p, bytes, cudaHostRegisterPortable );
	if ( e != cudaSuccess )
	{
		/* Not a device failure: these pages stay staged. Clear the error. */
		cudaGetLastError();
		hyb_cuda_log( "cudaHostRegister", "CUDA", (int)e, __FILE__, __LINE__ );
		return HYB_E_NOT_SUPPORTED;
	}
	return HYB_OK;
}

static hyb_status_t hyb_cuda_host_unregister( hyb_dctx_t* ctx, void* p )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaHostUnregister( p ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_event_create( hyb_dctx_t* ctx, hyb_devent_t** out )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	hyb_devent_t* e = calloc( 1, sizeof *e );
	if ( e == NULL ) return HYB_E_NO_MEMORY;
	/* Blocking sync: a waiting host thread sleeps instead of spinning on a
	   core that the staging copies need. */
	cudaError_t err = cudaEventCreateWithFlags( &e->ev, cudaEventBlockingSync );
	if ( err != cudaSuccess )
	{
		free( e );
		return hyb_cuda_status( err, "cudaEventCreateWithFlags", __FILE__, __LINE__ );
	}
	*out = e;
	return HYB_OK;
}

static void hyb_cuda_event_destroy( hyb_dctx_t* ctx, hyb_devent_t* e )
{
	if ( e == NULL ) return;
	if ( hyb_cuda_use( ctx->dev ) == HYB_OK ) cudaEventDestroy( e->ev );
	free( e );
}

static hyb_status_t hyb_cuda_event_record( hyb_dctx_t* ctx, int stream, hyb_devent_t* e )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaEventRecord( e->ev, ctx->stream[stream] ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_stream_wait( hyb_dctx_t* ctx, int stream, hyb_devent_t* e )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaStreamWaitEvent( ctx->stream[stream], e->ev, 0 ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_event_sync( hyb_dctx_t* ctx, hyb_devent_t* e )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaEventSynchronize( e->ev ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_event_query( hyb_dctx_t* ctx, hyb_devent_t* e )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaError_t err = cudaEventQuery( e->ev );
	if ( err == cudaErrorNotReady ) return HYB_E_AGAIN;
	return hyb_cuda_status( err, "cudaEventQuery", __FILE__, __LINE__ );
}

static hyb_status_t hyb_cuda_event_elapsed( hyb_dctx_t* ctx, hyb_devent_t* from, hyb_devent_t* to,
                                            double* seconds )
{
	(void)ctx;
	float ms = 0;
	HYB_CUDA_TRY( cudaEventElapsedTime( &ms, from->ev, to->ev ) );
	*seconds = 1e-3 * (double)ms;
	return HYB_OK;
}

static hyb_status_t hyb_cuda_stream_sync( hyb_dctx_t* ctx, int stream )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaStreamSynchronize( ctx->stream[stream] ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_copy( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch, const void* src,
                                   size_t spitch, size_t width, size_t rows, enum cudaMemcpyKind kind )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	if ( width == dpitch && width == spitch )
		HYB_CUDA_TRY( cudaMemcpyAsync( dst, src, width * rows, kind, ctx->stream[stream] ) );
	else
		HYB_CUDA_TRY( cudaMemcpy2DAsync( dst, dpitch, src, spitch, width, rows, kind, ctx->stream[stream] ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_h2d( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch, const void* src,
                                  size_t spitch, size_t width, size_t rows )
{
	return hyb_cuda_copy( ctx, stream, dst, dpitch, src, spitch, width, rows, cudaMemcpyHostToDevice );
}

static hyb_status_t hyb_cuda_d2h( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch, const void* src,
                                  size_t spitch, size_t width, size_t rows )
{
	return hyb_cuda_copy( ctx, stream, dst, dpitch, src, spitch, width, rows, cudaMemcpyDeviceToHost );
}

static cublasOperation_t hyb_op( char c )
{
	return c == 'N' ? CUBLAS_OP_N : c == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

static int hyb_fits( int64_t v )
{
	return v >= 0 && v <= INT_MAX;
}

static hyb_status_t hyb_cuda_gemm( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char ta, char tb, int64_t m,
                                   int64_t n, int64_t k, const double alpha[2], const void* a, int64_t lda,
                                   const void* b, int64_t ldb, const double beta[2], void* c, int64_t ldc )
{
	if ( stream != HYB_STREAM_COMPUTE ) return HYB_E_INVALID;
	if ( !hyb_fits( m ) || !hyb_fits( n ) || !hyb_fits( k ) || !hyb_fits( lda ) || !hyb_fits( ldb ) ||
	     !hyb_fits( ldc ) )
		return HYB_E_NOT_SUPPORTED;
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	int              M = (int)m, N = (int)n, K = (int)k, LA = (int)lda, LB = (int)ldb, LC = (int)ldc;
	cublasOperation_t A = hyb_op( ta ), B = hyb_op( tb );
	switch ( prec )
	{
	case HYB_PREC_S:
	{
		float al = (float)alpha[0], be = (float)beta[0];
		HYB_CUBLAS_TRY( cublasSgemm( ctx->blas, A, B, M, N, K, &al, a, LA, b, LB, &be, c, LC ) );
		break;
	}
	case HYB_PREC_D:
		HYB_CUBLAS_TRY( cublasDgemm( ctx->blas, A, B, M, N, K, &alpha[0], a, LA, b, LB, &beta[0], c, LC ) );
		break;
	case HYB_PREC_C:
	{
		cuComplex al = { (float)alpha[0], (float)alpha[1] }, be = { (float)beta[0], (float)beta[1] };
		HYB_CUBLAS_TRY( cublasCgemm( ctx->blas, A, B, M, N, K, &al, a, LA, b, LB, &be, c, LC ) );
		break;
	}
	default:
	{
		cuDoubleComplex al = { alpha[0], alpha[1] }, be = { beta[0], beta[1] };
		HYB_CUBLAS_TRY( cublasZgemm( ctx->blas, A, B, M, N, K, &al, a, LA, b, LB, &be, c, LC ) );
		break;
	}
	}
	return HYB_OK;
}

static hyb_status_t hyb_cuda_trsm( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char side, char uplo, char trans,
                                   char diag, int64_t m, int64_t n, const double alpha[2], const void* a,
                                   int64_t lda, void* b, int64_t ldb )
{
	if ( stream != HYB_STREAM_COMPUTE ) return HYB_E_INVALID;
	if ( !hyb_fits( m ) || !hyb_fits( n ) || !hyb_fits( lda ) || !hyb_fits( ldb ) ) return HYB_E_NOT_SUPPORTED;
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cublasSideMode_t  S = side == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
	cublasFillMode_t  U = uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
	cublasDiagType_t  D = diag == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
	cublasOperation_t T = hyb_op( trans );
	int               M = (int)m, N = (int)n, LA = (int)lda, LB = (int)ldb;
	switch ( prec )
	{
	case HYB_PREC_S:
	{
		float al = (float)alpha[0];
		HYB_CUBLAS_TRY( cublasStrsm( ctx->blas, S, U, T, D, M, N, &al, a, LA, b, LB ) );
		break;
	}
	case HYB_PREC_D: HYB_CUBLAS_TRY( cublasDtrsm( ctx->blas, S, U, T, D, M, N, &alpha[0], a, LA, b, LB ) ); break;
	case HYB_PREC_C:
	{
		cuComplex al = { (float)alpha[0], (float)alpha[1] };
		HYB_CUBLAS_TRY( cublasCtrsm( ctx->blas, S, U, T, D, M, N, &al, a, LA, b, LB ) );
		break;
	}
	default:
	{
		cuDoubleComplex al = { alpha[0], alpha[1] };
		HYB_CUBLAS_TRY( cublasZtrsm( ctx->blas, S, U, T, D, M, N, &al, a, LA, b, LB ) );
		break;
	}
	}
	return HYB_OK;
}

static hyb_status_t hyb_cuda_trmm( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, char side, char uplo, char trans,
                                   char diag, int64_t m, int64_t n, const double alpha[2], const void* a,
                                   int64_t lda, const void* b, int64_t ldb, void* c, int64_t ldc )
{
	if ( stream != HYB_STREAM_COMPUTE ) return HYB_E_INVALID;
	if ( !hyb_fits( m ) || !hyb_fits( n ) || !hyb_fits( lda ) || !hyb_fits( ldb ) || !hyb_fits( ldc ) )
		return HYB_E_NOT_SUPPORTED;
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cublasSideMode_t  S = side == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
	cublasFillMode_t  U = uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
	cublasDiagType_t  D = diag == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
	cublasOperation_t T = hyb_op( trans );
	int               M = (int)m, N = (int)n, LA = (int)lda, LB = (int)ldb, LC = (int)ldc;
	switch ( prec )
	{
	case HYB_PREC_S:
	{
		float al = (float)alpha[0];
		HYB_CUBLAS_TRY( cublasStrmm( ctx->blas, S, U, T, D, M, N, &al, a, LA, b, LB, c, LC ) );
		break;
	}
	case HYB_PREC_D:
		HYB_CUBLAS_TRY( cublasDtrmm( ctx->blas, S, U, T, D, M, N, &alpha[0], a, LA, b, LB, c, LC ) );
		break;
	case HYB_PREC_C:
	{
		cuComplex al = { (float)alpha[0], (float)alpha[1] };
		HYB_CUBLAS_TRY( cublasCtrmm( ctx->blas, S, U, T, D, M, N, &al, a, LA, b, LB, c, LC ) );
		break;
	}
	default:
	{
		cuDoubleComplex al = { alpha[0], alpha[1] };
		HYB_CUBLAS_TRY( cublasZtrmm( ctx->blas, S, U, T, D, M, N, &al, a, LA, b, LB, c, LC ) );
		break;
	}
	}
	return HYB_OK;
}

static hyb_status_t hyb_cuda_spmv_ell( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t m, int64_t K,
                                       const int* index, const void* data, const void* x, void* y, int accumulate )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaStream_t s = ctx->stream[stream];
	HYB_CUDA_TRY( prec == HYB_PREC_D ? hyb_dellmv_cuda( m, K, index, data, x, y, accumulate, s )
	                                 : hyb_sellmv_cuda( m, K, index, data, x, y, accumulate, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_spmv_dia( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t m, int64_t ndiag,
                                       const int* offset, const void* data, const void* x, void* y, int accumulate )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaStream_t s = ctx->stream[stream];
	HYB_CUDA_TRY( prec == HYB_PREC_D ? hyb_ddiamv_cuda( m, ndiag, offset, data, x, y, accumulate, s )
	                                 : hyb_sdiamv_cuda( m, ndiag, offset, data, x, y, accumulate, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_spmv_csr( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t rows, const int* ptr,
                                       const int* col, const void* val, int base, double mean_len, const void* x,
                                       void* y, int accumulate )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaStream_t s = ctx->stream[stream];
	HYB_CUDA_TRY( prec == HYB_PREC_D
	                  ? hyb_dcsrmv_cuda( rows, ptr, col, val, base, mean_len, x, y, accumulate, s )
	                  : hyb_scsrmv_cuda( rows, ptr, col, val, base, mean_len, x, y, accumulate, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_vadd( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, const void* z, void* y )
{
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaStream_t s = ctx->stream[stream];
	HYB_CUDA_TRY( prec == HYB_PREC_D ? hyb_dvadd_cuda( n, z, y, s ) : hyb_svadd_cuda( n, z, y, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_gtsv_spike( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, int64_t nrhs,
                                         const void* dl, const void* d, const void* du, void* b, int64_t ldb,
                                         int64_t m )
{
	if ( m < 1 || m > hyb_gtsv_cuda_max_window() ) return HYB_E_NOT_SUPPORTED;
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaStream_t s = ctx->stream[stream];
	HYB_CUDA_TRY( prec == HYB_PREC_D ? hyb_dgtsv_cuda_spike( n, nrhs, dl, d, du, b, ldb, m, s )
	                                 : hyb_sgtsv_cuda_spike( n, nrhs, dl, d, du, b, ldb, m, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_gtsv_pivots( hyb_dctx_t* ctx, int stream, hyb_prec_t prec, int64_t n, const void* dl,
                                          const void* d, const void* du, void* out, double first, int64_t warm )
{
	if ( prec != HYB_PREC_S && prec != HYB_PREC_D ) return HYB_E_NOT_SUPPORTED;
	if ( n < 0 || warm < 1 ) return HYB_E_INVALID;
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	cudaStream_t s = ctx->stream[stream];
	HYB_CUDA_TRY( prec == HYB_PREC_D ? hyb_dgtsv_cuda_pivots( n, dl, d, du, out, first, warm, s )
	                                 : hyb_sgtsv_cuda_pivots( n, dl, d, du, out, (float)first, warm, s ) );
	return HYB_OK;
}

static const hyb_device_ops_t hyb_cuda_ops = {
	.name            = "cuda",
	.abi             = HYB_DEVICE_ABI,
	.init            = hyb_cuda_init,
	.info            = hyb_cuda_info,
	.ctx_create      = hyb_cuda_ctx_create,
	.ctx_destroy     = hyb_cuda_ctx_destroy,
	.mem_alloc       = hyb_cuda_mem_alloc,
	.mem_free        = hyb_cuda_mem_free,
	.host_alloc      = hyb_cuda_host_alloc,
	.host_free       = hyb_cuda_host_free,
	.host_register   = hyb_cuda_host_register,
	.host_unregister = hyb_cuda_host_unregister,
	.event_create    = hyb_cuda_event_create,
	.event_destroy   = hyb_cuda_event_destroy,
	.event_record    = hyb_cuda_event_record,
	.stream_wait     = hyb_cuda_stream_wait,
	.event_sync      = hyb_cuda_event_sync,
	.event_query     = hyb_cuda_event_query,
	.event_elapsed   = hyb_cuda_event_elapsed,
	.stream_sync     = hyb_cuda_stream_sync,
	.copy_h2d        = hyb_cuda_h2d,
	.copy_d2h        = hyb_cuda_d2h,
	.gemm            = hyb_cuda_gemm,
	.trsm            = hyb_cuda_trsm,
	.trmm            = hyb_cuda_trmm,
	.spmv_ell        = hyb_cuda_spmv_ell,
	.spmv_dia        = hyb_cuda_spmv_dia,
	.spmv_csr        = hyb_cuda_spmv_csr,
	.vadd            = hyb_cuda_vadd,
	.gtsv_spike      = hyb_cuda_gtsv_spike,
	.gtsv_pivots     = hyb_cuda_gtsv_pivots,
};

/* The plugin's one exported symbol. */
__attribute__( ( visibility( "default" ) ) ) const hyb_device_ops_t* hyb_plugin_device_ops( unsigned abi );

const hyb_device_ops_t* hyb_plugin_device_ops( unsigned abi )
{
	return abi == HYB_DEVICE_ABI ? &hyb_cuda_ops : NULL;
}
