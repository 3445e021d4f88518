/* SPDX-License-Identifier: BSD-3-Clause */
/* The CUDA device: the async-device interface over the CUDA runtime (memory, streams
   made on first use, events, copies, pauses) and the launch of the registered kernels
   whose CUDA launchers the plugin's families register (HYB_KERNEL_IMPL_REGISTER), with the
   cuBLAS and cuSPARSE handles they ask for made on a context's first such launch. Built
   only into libhyblas_cuda.so, which the core dlopen()s. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cuda/hyb_cuda_try.h"
#include "kernels/cuda/hyb_pause_cuda.h"
#include "kernels/hyb_device_ops.h"

static hyb_device_env_t hyb_cuda_env;

struct hyb_dctx_s
{
	int              dev;
	cudaStream_t     stream[HYB_DEV_STREAMS]; /* NULL until the stream's first use */
	cublasHandle_t   blas;                    /* NULL until a launch needs it */
	cusparseHandle_t sparse;
	cudaStream_t     blas_on, sparse_on; /* the stream each handle is bound to */
};

struct hyb_devent_s
{
	cudaEvent_t ev;
};

void hyb_cuda_log( const char* what, const char* library, int code, const char* file, int line )
{
	if ( hyb_cuda_env.log == NULL ) return;
	char buf[256];
	snprintf( buf, sizeof buf, "%.120s failed: %s error %d (%s:%d)", what, library, code, file,
	          line );
	hyb_cuda_env.log( 2, buf );
}

hyb_status_t hyb_cuda_status( cudaError_t e, const char* what, const char* file, int line )
{
	if ( e == cudaSuccess ) return HYB_OK;
	hyb_cuda_log( what, "CUDA", (int)e, file, line );
	if ( e == cudaErrorMemoryAllocation ) return HYB_E_NO_MEMORY;
	if ( e == cudaErrorNotReady ) return HYB_E_AGAIN;
	if ( e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ) return HYB_E_NO_DEVICE;
	return HYB_E_DEVICE;
}

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
		if ( ctx->sparse ) cusparseDestroy( ctx->sparse );
		for ( int i = 0; i < HYB_DEV_STREAMS; i++ )
			if ( ctx->stream[i] ) cudaStreamDestroy( ctx->stream[i] );
	}
	free( ctx );
}

/* Nothing is made on the device until it is used: a context costs a stream for each
   stream its pipeline uses and a library handle only where a kernel asks for one. */
static hyb_status_t hyb_cuda_ctx_create( int dev, hyb_dctx_t** out )
{
	hyb_dctx_t* ctx = calloc( 1, sizeof *ctx );
	if ( ctx == NULL ) return HYB_E_NO_MEMORY;
	ctx->dev = dev;
	*out     = ctx;
	return HYB_OK;
}

/* Stream `i` of the context, made on its first use; the device is current. */
static hyb_status_t hyb_cuda_stream( hyb_dctx_t* ctx, int i, cudaStream_t* out )
{
	if ( i < 0 || i >= HYB_DEV_STREAMS ) return HYB_E_INVALID;
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	int least = 0, greatest = 0;
	if ( ctx->stream[i] == NULL && i >= HYB_DEV_STREAMS - HYB_DEV_STREAMS_URGENT &&
	     cudaDeviceGetStreamPriorityRange( &least, &greatest ) == cudaSuccess )
		HYB_CUDA_TRY(
		    cudaStreamCreateWithPriority( &ctx->stream[i], cudaStreamNonBlocking, greatest ) );
	if ( ctx->stream[i] == NULL )
		HYB_CUDA_TRY( cudaStreamCreateWithFlags( &ctx->stream[i], cudaStreamNonBlocking ) );
	*out = ctx->stream[i];
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
	cudaStream_t s  = NULL;
	hyb_status_t st = hyb_cuda_stream( ctx, stream, &s );
	if ( st != HYB_OK ) return st;
	HYB_CUDA_TRY( cudaEventRecord( e->ev, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_stream_wait( hyb_dctx_t* ctx, int stream, hyb_devent_t* e )
{
	cudaStream_t s  = NULL;
	hyb_status_t st = hyb_cuda_stream( ctx, stream, &s );
	if ( st != HYB_OK ) return st;
	HYB_CUDA_TRY( cudaStreamWaitEvent( s, e->ev, 0 ) );
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

/* A stream never used has nothing to wait for (and is not made for it). */
static hyb_status_t hyb_cuda_stream_sync( hyb_dctx_t* ctx, int stream )
{
	if ( stream < 0 || stream >= HYB_DEV_STREAMS ) return HYB_E_INVALID;
	if ( ctx->stream[stream] == NULL ) return HYB_OK;
	if ( hyb_cuda_use( ctx->dev ) != HYB_OK ) return HYB_E_DEVICE;
	HYB_CUDA_TRY( cudaStreamSynchronize( ctx->stream[stream] ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_copy( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
                                   const void* src, size_t spitch, size_t width, size_t rows,
                                   enum cudaMemcpyKind kind )
{
	cudaStream_t s  = NULL;
	hyb_status_t st = hyb_cuda_stream( ctx, stream, &s );
	if ( st != HYB_OK ) return st;
	if ( width == dpitch && width == spitch )
		HYB_CUDA_TRY( cudaMemcpyAsync( dst, src, width * rows, kind, s ) );
	else
		HYB_CUDA_TRY( cudaMemcpy2DAsync( dst, dpitch, src, spitch, width, rows, kind, s ) );
	return HYB_OK;
}

static hyb_status_t hyb_cuda_h2d( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
                                  const void* src, size_t spitch, size_t width, size_t rows )
{
	return hyb_cuda_copy( ctx, stream, dst, dpitch, src, spitch, width, rows,
	                      cudaMemcpyHostToDevice );
}

static hyb_status_t hyb_cuda_d2h( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
                                  const void* src, size_t spitch, size_t width, size_t rows )
{
	return hyb_cuda_copy( ctx, stream, dst, dpitch, src, spitch, width, rows,
	                      cudaMemcpyDeviceToHost );
}

static hyb_status_t hyb_cuda_d2d( hyb_dctx_t* ctx, int stream, void* dst, size_t dpitch,
                                  const void* src, size_t spitch, size_t width, size_t rows )
{
	return hyb_cuda_copy( ctx, stream, dst, dpitch, src, spitch, width, rows,
	                      cudaMemcpyDeviceToDevice );
}

static hyb_status_t hyb_cuda_memset( hyb_dctx_t* ctx, int stream, void* dptr, int value,
                                     size_t bytes )
{
	cudaStream_t s  = NULL;
	hyb_status_t st = hyb_cuda_stream( ctx, stream, &s );
	if ( st != HYB_OK ) return st;
	HYB_CUDA_TRY( cudaMemsetAsync( dptr, value, bytes, s ) );
	return HYB_OK;
}

/* A kernel of one sleeping thread (kernels/cuda/hyb_pause_cuda.cu): the stream is held,
   and the device's other work goes on beside it. */
static hyb_status_t hyb_cuda_stream_pause( hyb_dctx_t* ctx, int stream, uint64_t ns )
{
	cudaStream_t s  = NULL;
	hyb_status_t st = hyb_cuda_stream( ctx, stream, &s );
	if ( st != HYB_OK ) return st;
	HYB_CUDA_TRY( hyb_pause_cuda( ns, s ) );
	return HYB_OK;
}

/* ------------------------------------------------------------ kernels */

/* The families' CUDA launchers, one pointer each in this section of the plugin (weak and
   hidden as in the core's registry: a plugin without any is valid, and only this
   plugin's own section is walked). */
extern const hyb_kernel_impl_t* const __start_hyb_kernel_impls[]
    __attribute__( ( weak, visibility( "hidden" ) ) );
extern const hyb_kernel_impl_t* const __stop_hyb_kernel_impls[]
    __attribute__( ( weak, visibility( "hidden" ) ) );

static const hyb_kernel_impl_t* hyb_cuda_impl_at( int i )
{
	if ( i < 0 || __start_hyb_kernel_impls == NULL || __stop_hyb_kernel_impls == NULL ||
	     i >= (int)( __stop_hyb_kernel_impls - __start_hyb_kernel_impls ) )
		return NULL;
	return __start_hyb_kernel_impls[i];
}

static const char* hyb_cuda_kernel_name( int i )
{
	const hyb_kernel_impl_t* k = hyb_cuda_impl_at( i );
	return k ? k->name : NULL;
}

static const void* hyb_cuda_kernel_find( const hyb_kernel_def_t* def )
{
	for ( int i = 0; def && hyb_cuda_impl_at( i ); i++ )
	{
		const hyb_kernel_impl_t* k = hyb_cuda_impl_at( i );
		if ( k && k->name && k->launch && strcmp( k->name, def->name ) == 0 ) return k;
	}
	return NULL;
}

/* The context's cuBLAS / cuSPARSE handle bound to stream s, made on first need. */
static hyb_status_t hyb_cuda_blas_on( hyb_dctx_t* ctx, cudaStream_t s )
{
	cublasStatus_t e = CUBLAS_STATUS_SUCCESS;
	if ( ctx->blas == NULL ) e = cublasCreate( &ctx->blas );
	if ( e == CUBLAS_STATUS_SUCCESS && ctx->blas_on != s ) e = cublasSetStream( ctx->blas, s );
	if ( e != CUBLAS_STATUS_SUCCESS )
	{
		hyb_cuda_log( "cuBLAS handle", "cuBLAS", (int)e, __FILE__, __LINE__ );
		return e == CUBLAS_STATUS_ALLOC_FAILED ? HYB_E_NO_MEMORY : HYB_E_DEVICE;
	}
	ctx->blas_on = s;
	return HYB_OK;
}

static hyb_status_t hyb_cuda_sparse_on( hyb_dctx_t* ctx, cudaStream_t s )
{
	cusparseStatus_t e = CUSPARSE_STATUS_SUCCESS;
	if ( ctx->sparse == NULL ) e = cusparseCreate( &ctx->sparse );
	if ( e == CUSPARSE_STATUS_SUCCESS && ctx->sparse_on != s )
		e = cusparseSetStream( ctx->sparse, s );
	if ( e != CUSPARSE_STATUS_SUCCESS )
	{
		hyb_cuda_log( "cuSPARSE handle", "cuSPARSE", (int)e, __FILE__, __LINE__ );
		return e == CUSPARSE_STATUS_ALLOC_FAILED ? HYB_E_NO_MEMORY : HYB_E_DEVICE;
	}
	ctx->sparse_on = s;
	return HYB_OK;
}

static hyb_status_t hyb_cuda_launch( hyb_dctx_t* ctx, int stream, const void* impl,
                                     const void* args, size_t args_size )
{
	const hyb_kernel_impl_t* k = impl;
	cudaStream_t             s = NULL;
	(void)args_size; /* the launcher reads its arguments before it returns */
	hyb_status_t st = hyb_cuda_stream( ctx, stream, &s );
	if ( st == HYB_OK && ( k->needs & HYB_KERNEL_NEEDS_BLAS ) ) st = hyb_cuda_blas_on( ctx, s );
	if ( st == HYB_OK && ( k->needs & HYB_KERNEL_NEEDS_SPARSE ) ) st = hyb_cuda_sparse_on( ctx, s );
	if ( st != HYB_OK ) return st;
	hyb_kernel_env_t env = {
		.stream = s, .blas = ctx->blas, .sparse = ctx->sparse, .ordinal = ctx->dev
	};
	return k->launch( &env, args );
}

static hyb_status_t hyb_cuda_kernel_attr( int dev, const void* impl, int block, size_t smem,
                                          hyb_kernel_attr_t* out )
{
	const hyb_kernel_impl_t* k    = impl;
	const void*              func = k->func ? k->func() : NULL;
	memset( out, 0, sizeof *out );
	if ( func == NULL ) return HYB_E_NOT_SUPPORTED;
	if ( hyb_cuda_use( dev ) != HYB_OK ) return HYB_E_DEVICE;
	struct cudaFuncAttributes a;
	int                       per_sm = 0, blocks = 0;
	HYB_CUDA_TRY( cudaFuncGetAttributes( &a, func ) );
	HYB_CUDA_TRY( cudaDeviceGetAttribute( &per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev ) );
	out->regs_per_thread       = a.numRegs;
	out->max_threads_per_block = a.maxThreadsPerBlock;
	out->shared_bytes          = a.sharedSizeBytes;
	out->local_bytes           = a.localSizeBytes;
	if ( block > a.maxThreadsPerBlock ) return HYB_OK; /* cannot launch: no resident block */
	HYB_CUDA_TRY( cudaOccupancyMaxActiveBlocksPerMultiprocessor( &blocks, func, block, smem ) );
	out->blocks_per_sm = blocks;
	out->occupancy     = per_sm > 0 ? (double)blocks * (double)block / (double)per_sm : 0;
	return HYB_OK;
}

static const hyb_device_ops_t hyb_cuda_ops = {
	.name = "cuda",
	HYB_DEVICE_OPS_ENTRIES( hyb_cuda, hyb_cuda_h2d, hyb_cuda_d2h, hyb_cuda_d2d ),
};

/* The plugin's one exported symbol. */
__attribute__( ( visibility( "default" ) ) ) const hyb_device_ops_t* hyb_plugin_device_ops(
    unsigned abi );

const hyb_device_ops_t* hyb_plugin_device_ops( unsigned abi )
{
	return abi == HYB_DEVICE_ABI ? &hyb_cuda_ops : NULL;
}
