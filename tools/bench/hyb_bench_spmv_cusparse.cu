/* SPDX-License-Identifier: BSD-3-Clause */
/* cuSPARSE CSR SpMV on device-resident data, the benchmark's reference (see the header). */
#include "tools/bench/hyb_bench_spmv_cusparse.h"

#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <string.h>

#define HYB_BC( call )                                                                             \
	do {                                                                                           \
		cudaError_t e_ = ( call );                                                                 \
		if ( e_ != cudaSuccess )                                                                   \
		{                                                                                          \
			fprintf( stderr, "cusparse reference: %s: %s\n", #call, cudaGetErrorString( e_ ) );    \
			goto out;                                                                              \
		}                                                                                          \
	} while ( 0 )
#define HYB_BS( call )                                                                             \
	do {                                                                                           \
		cusparseStatus_t s_ = ( call );                                                            \
		if ( s_ != CUSPARSE_STATUS_SUCCESS )                                                       \
		{                                                                                          \
			fprintf( stderr, "cusparse reference: %s: status %d\n", #call, (int)s_ );              \
			goto out;                                                                              \
		}                                                                                          \
	} while ( 0 )

extern "C" double hyb_bench_cusparse_csr( int dbl, int64_t m, const int* ia, const int* ja,
                                          const void* a, const void* x, void* y, int reps,
                                          char* name )
{
	double               result = -1.0;
	int                  ndev   = 0;
	size_t               vb     = dbl ? 8 : 4;
	int64_t              nnz    = ia[m];
	int *                d_ia = nullptr, *d_ja = nullptr;
	void *               d_a = nullptr, *d_x = nullptr, *d_y = nullptr, *d_buf = nullptr;
	cusparseHandle_t     h = nullptr;
	cusparseSpMatDescr_t A = nullptr;
	cusparseDnVecDescr_t X = nullptr, Y = nullptr;
	cudaEvent_t          e0 = nullptr, e1 = nullptr;
	cudaDataType         t     = dbl ? CUDA_R_64F : CUDA_R_32F;
	double               one_d = 1.0, zero_d = 0.0;
	float                one_f = 1.0f, zero_f = 0.0f;
	const void*          one   = dbl ? (const void*)&one_d : (const void*)&one_f;
	const void*          zero  = dbl ? (const void*)&zero_d : (const void*)&zero_f;
	size_t               bufsz = 0;
	float                ms    = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev < 1 ) return -1.0;
	if ( name )
	{
		cudaDeviceProp p;
		if ( cudaGetDeviceProperties( &p, 0 ) == cudaSuccess ) snprintf( name, 64, "%s", p.name );
	}
	HYB_BC( cudaMalloc( (void**)&d_ia, (size_t)( m + 1 ) * sizeof( int ) ) );
	HYB_BC( cudaMalloc( (void**)&d_ja, (size_t)nnz * sizeof( int ) ) );
	HYB_BC( cudaMalloc( &d_a, (size_t)nnz * vb ) );
	HYB_BC( cudaMalloc( &d_x, (size_t)m * vb ) );
	HYB_BC( cudaMalloc( &d_y, (size_t)m * vb ) );
	HYB_BC( cudaMemcpy( d_ia, ia, (size_t)( m + 1 ) * sizeof( int ), cudaMemcpyHostToDevice ) );
	HYB_BC( cudaMemcpy( d_ja, ja, (size_t)nnz * sizeof( int ), cudaMemcpyHostToDevice ) );
	HYB_BC( cudaMemcpy( d_a, a, (size_t)nnz * vb, cudaMemcpyHostToDevice ) );
	HYB_BC( cudaMemcpy( d_x, x, (size_t)m * vb, cudaMemcpyHostToDevice ) );
	HYB_BS( cusparseCreate( &h ) );
	HYB_BS( cusparseCreateCsr( &A, m, m, nnz, d_ia, d_ja, d_a, CUSPARSE_INDEX_32I,
	                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, t ) );
	HYB_BS( cusparseCreateDnVec( &X, m, d_x, t ) );
	HYB_BS( cusparseCreateDnVec( &Y, m, d_y, t ) );
	HYB_BS( cusparseSpMV_bufferSize( h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, A, X, zero, Y, t,
	                                 CUSPARSE_SPMV_ALG_DEFAULT, &bufsz ) );
	HYB_BC( cudaMalloc( &d_buf, bufsz > 0 ? bufsz : 1 ) );
	HYB_BS( cusparseSpMV( h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, A, X, zero, Y, t,
	                      CUSPARSE_SPMV_ALG_DEFAULT, d_buf ) );
	HYB_BC( cudaEventCreate( &e0 ) );
	HYB_BC( cudaEventCreate( &e1 ) );
	HYB_BC( cudaEventRecord( e0 ) );
	for ( int r = 0; r < reps; r++ )
		HYB_BS( cusparseSpMV( h, CUSPARSE_OPERATION_NON_TRANSPOSE, one, A, X, zero, Y, t,
		                      CUSPARSE_SPMV_ALG_DEFAULT, d_buf ) );
	HYB_BC( cudaEventRecord( e1 ) );
	HYB_BC( cudaEventSynchronize( e1 ) );
	HYB_BC( cudaEventElapsedTime( &ms, e0, e1 ) );
	HYB_BC( cudaMemcpy( y, d_y, (size_t)m * vb, cudaMemcpyDeviceToHost ) );
	result = 1e-3 * (double)ms / ( reps > 0 ? reps : 1 );
out:
	if ( e0 ) cudaEventDestroy( e0 );
	if ( e1 ) cudaEventDestroy( e1 );
	if ( A ) cusparseDestroySpMat( A );
	if ( X ) cusparseDestroyDnVec( X );
	if ( Y ) cusparseDestroyDnVec( Y );
	if ( h ) cusparseDestroy( h );
	cudaFree( d_buf );
	cudaFree( d_ia );
	cudaFree( d_ja );
	cudaFree( d_a );
	cudaFree( d_x );
	cudaFree( d_y );
	return result;
}
