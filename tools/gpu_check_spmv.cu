/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU check of the SpMV kernels: runs every device kernel of kernels/cuda/hyb_spmv_cuda.cu
   on generated matrices (the ten seed-like ones, the 27-point stencil reduced and full),
   and the checks of the background build's copies and of their DIA form against host
   references;
   checks each product against the CPU kernel with the normalised bound
       |y - y_ref|_inf <= c * nnz_row_max * eps * (|A| |x|)_inf,
   and times each kernel against cusparseSpMV (CSR) on device-resident data (CUDA events,
   warm-up, median of 25 runs). Prints a table; exit 0 all correct, 1 a wrong result or an
   error, 77 no device.
   --sweep adds the seed's Table 2 on this machine: for each seed-like matrix, the
   steady-state hybrid (device part resident; x up and y down through pinned buffers; COO
   remainder on nc - 1 threads at the same time) timed for every K, the best tested K
   against the model's K (rates calibrated in the same run), and the hybrid's gain over
   GPU-only (best of our CSR kernel and cuSPARSE, same transfers) and CPU-only.
   Usage: gpu_check_spmv [--quick] [--no-full] [--sweep] [--reps N] */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <cusparse.h>
#include <omp.h>

extern "C"
{
#include "kernels/cpu/hyb_spmv_cpu.h"
#include "kernels/cpu/hyb_spmv_format.h"
#include "policies/hyb_policy_spmv.h"
#include "tools/hyb_spmv_gen.h"
}
#include "kernels/cuda/hyb_spmv_cuda.h"
#include "kernels/spmv/hyb_spmv_xsum.h"
#include "tools/bench/hyb_bench_cuda_check.h"

namespace
{

int g_fail = 0;
int g_reps = 25;

#define HYB_SK( call )                                                                             \
	do {                                                                                           \
		cusparseStatus_t e_ = ( call );                                                            \
		if ( e_ != CUSPARSE_STATUS_SUCCESS )                                                       \
		{                                                                                          \
			std::printf( "cuSPARSE error %d at %s:%d: %s\n", (int)e_, __FILE__, __LINE__, #call ); \
			std::exit( 1 );                                                                        \
		}                                                                                          \
	} while ( 0 )

template <typename T> struct Prec;
template <> struct Prec<double>
{
	static constexpr hyb_prec_t   p    = HYB_PREC_D;
	static constexpr cudaDataType cu   = CUDA_R_64F;
	static constexpr const char*  name = "d";
	static double                 eps()
	{
		return 0x1.0p-53;
	}
};
template <> struct Prec<float>
{
	static constexpr hyb_prec_t   p    = HYB_PREC_S;
	static constexpr cudaDataType cu   = CUDA_R_32F;
	static constexpr const char*  name = "s";
	static double                 eps()
	{
		return 0x1.0p-24;
	}
};

/* Thin typed wrappers over the C kernels. */
cudaError_t dev_ell( int64_t m, int64_t K, const int* i, const double* d, const double* x,
                     double* y, int a, cudaStream_t s )
{
	return hyb_dellmv_cuda( m, K, i, d, x, y, a, s );
}
cudaError_t dev_ell( int64_t m, int64_t K, const int* i, const float* d, const float* x, float* y,
                     int a, cudaStream_t s )
{
	return hyb_sellmv_cuda( m, K, i, d, x, y, a, s );
}
cudaError_t dev_dia( int64_t m, int64_t n, const int* o, const double* d, const double* x,
                     double* y, int a, cudaStream_t s )
{
	return hyb_ddiamv_cuda( m, n, o, d, x, y, a, s );
}
cudaError_t dev_dia( int64_t m, int64_t n, const int* o, const float* d, const float* x, float* y,
                     int a, cudaStream_t s )
{
	return hyb_sdiamv_cuda( m, n, o, d, x, y, a, s );
}
cudaError_t dev_csr( int64_t r, const int* p, const int* c, const double* v, int b, double mean,
                     const double* x, double* y, int a, cudaStream_t s )
{
	return hyb_dcsrmv_cuda( r, p, c, v, b, mean, x, y, a, s );
}
cudaError_t dev_csr( int64_t r, const int* p, const int* c, const float* v, int b, double mean,
                     const float* x, float* y, int a, cudaStream_t s )
{
	return hyb_scsrmv_cuda( r, p, c, v, b, mean, x, y, a, s );
}
cudaError_t dev_vadd( int64_t n, const double* z, double* y, cudaStream_t s )
{
	return hyb_dvadd_cuda( n, z, y, s );
}
cudaError_t dev_vadd( int64_t n, const float* z, float* y, cudaStream_t s )
{
	return hyb_svadd_cuda( n, z, y, s );
}
cudaError_t dev_axpyi( int64_t n, const double* v, const int* i, double* y, cudaStream_t s )
{
	return hyb_daxpyi_cuda( n, v, i, y, s );
}
cudaError_t dev_axpyi( int64_t n, const float* v, const int* i, float* y, cudaStream_t s )
{
	return hyb_saxpyi_cuda( n, v, i, y, s );
}
hyb_status_t cpu_csr( int64_t m, const double* a, const int* ia, const int* ja, const double* x,
                      double* y )
{
	return hyb_dcsrmv_cpu_omp( 'N', m, a, ia, ja, 0, x, y, 0 );
}
hyb_status_t cpu_csr( int64_t m, const float* a, const int* ia, const int* ja, const float* x,
                      float* y )
{
	return hyb_scsrmv_cpu_omp( 'N', m, a, ia, ja, 0, x, y, 0 );
}
hyb_status_t cpu_cooadd( int64_t m, int64_t n, const int* r, const int* c, const double* v,
                         const double* x, double* y )
{
	return hyb_dcooaddmv_cpu_omp( m, n, r, c, v, x, y, 0 );
}
hyb_status_t cpu_cooadd( int64_t m, int64_t n, const int* r, const int* c, const float* v,
                         const float* x, float* y )
{
	return hyb_scooaddmv_cpu_omp( m, n, r, c, v, x, y, 0 );
}

template <typename T> T* dalloc( size_t n )
{
	void* p = nullptr;
	CK_CUDA( cudaMalloc( &p, ( n > 0 ? n : 1 ) * sizeof( T ) ) );
	return (T*)p;
}

template <typename T> T* upload( const T* h, size_t n )
{
	T* d = dalloc<T>( n );
	if ( n ) CK_CUDA( cudaMemcpy( d, h, n * sizeof( T ), cudaMemcpyHostToDevice ) );
	return d;
}

/* Median time in ms of `reps` runs of f (after 3 warm-ups), with CUDA events. */
template <typename F> double time_ms( F f )
{
	cudaEvent_t a, b;
	CK_CUDA( cudaEventCreate( &a ) );
	CK_CUDA( cudaEventCreate( &b ) );
	for ( int i = 0; i < 3; i++ ) f();
	std::vector<float> t( (size_t)g_reps );
	for ( int i = 0; i < g_reps; i++ )
	{
		CK_CUDA( cudaEventRecord( a ) );
		f();
		CK_CUDA( cudaEventRecord( b ) );
		CK_CUDA( cudaEventSynchronize( b ) );
		CK_CUDA( cudaEventElapsedTime( &t[(size_t)i], a, b ) );
	}
	std::sort( t.begin(), t.end() );
	CK_CUDA( cudaEventDestroy( a ) );
	CK_CUDA( cudaEventDestroy( b ) );
	return t[t.size() / 2];
}

/* One generated matrix with everything the checks need. */
template <typename T> struct Case
{
	const char*      name;
	int64_t          m = 0, nnz = 0, max_len = 0;
	std::vector<int> ia, ja;
	std::vector<T>   a, x, yref;
	double           bound      = 0; /* c * M * eps * (|A||x|)_inf */
	int*             d_ia       = nullptr;
	int*             d_ja       = nullptr;
	T*               d_a        = nullptr;
	T*               d_x        = nullptr;
	T*               d_y        = nullptr;
	double           t_cusparse = 0;
};

/* Report one result line; returns 0 when correct. */
template <typename T>
int report( const Case<T>& c, const char* kernel, long long K, const std::vector<T>& y, double ms,
            double flops_nnz, double bytes )
{
	double err = 0;
	for ( int64_t i = 0; i < c.m; i++ )
	{
		double d = std::fabs( (double)y[(size_t)i] - (double)c.yref[(size_t)i] );
		if ( !( d <= err ) ) err = d; /* NaN counts as the worst */
	}
	int ok = err <= c.bound;
	if ( !ok ) g_fail = 1;
	char kbuf[24] = "-";
	if ( K >= 0 ) std::snprintf( kbuf, sizeof kbuf, "%lld", K );
	if ( ms > 0 )
		std::printf( "%-12s %s %-18s %6s  err/bound %8.2e %-5s %9.4f ms %8.1f GFLOP/s %7.0f GB/s  "
		             "x%.2f vs cuSPARSE\n",
		             c.name, Prec<T>::name, kernel, kbuf, c.bound > 0 ? err / c.bound : err,
		             ok ? "ok" : "WRONG", ms, 2.0 * flops_nnz / ms * 1e-6, bytes / ms * 1e-6,
		             c.t_cusparse / ms );
	else
		std::printf( "%-12s %s %-18s %6s  err/bound %8.2e %-5s\n", c.name, Prec<T>::name, kernel,
		             kbuf, c.bound > 0 ? err / c.bound : err, ok ? "ok" : "WRONG" );
	return ok ? 0 : 1;
}

template <typename T> std::vector<T> download( const T* d, int64_t n )
{
	std::vector<T> h( (size_t)n );
	CK_CUDA( cudaMemcpy( h.data(), d, (size_t)n * sizeof( T ), cudaMemcpyDeviceToHost ) );
	return h;
}

/* Hybrid check of a split: device part computed on the GPU, remainder added three ways
   (CPU into the downloaded y, dense vadd on the device, sparse axpyi on the device). */
template <typename T> void check_split( Case<T>& c, const hyb_spmv_split_t& sp, const char* label )
{
	const bool dia = sp.fmt == HYB_SPMV_FMT_DIA;
	int64_t    w = sp.width, m = c.m;
	int*       d_ix  = dia ? upload( sp.offset, (size_t)w ) : upload( sp.index, (size_t)( m * w ) );
	T*         d_dat = upload( (const T*)sp.data, (size_t)( m * w ) );
	auto       run   = [&]( int acc )
	{
		if ( dia )
			CK_CUDA( dev_dia( m, w, d_ix, d_dat, c.d_x, c.d_y, acc, 0 ) );
		else
			CK_CUDA( dev_ell( m, w, d_ix, d_dat, c.d_x, c.d_y, acc, 0 ) );
	};
	double ms = time_ms( [&] { run( 0 ); } );
	CK_CUDA( cudaDeviceSynchronize() );
	std::vector<T> y = download( c.d_y, m );
	/* merge 1: remainder on the CPU into the downloaded y */
	if ( cpu_cooadd( m, sp.coo_nnz, sp.coo_row, sp.coo_col, (const T*)sp.coo_val, c.x.data(),
	                 y.data() ) != HYB_OK )
		g_fail = 1;
	double vb    = (double)sizeof( T );
	double bytes = (double)m * (double)w * ( dia ? vb : vb + 4.0 ) + 2.0 * (double)m * vb;
	char   name[40];
	std::snprintf( name, sizeof name, "%s+cpu", label );
	report( c, name, (long long)w, y, ms, (double)sp.dev_nnz, bytes );
	if ( sp.coo_nnz > 0 )
	{
		/* merge 2: dense remainder vector added on the device (accumulate == 1 path too) */
		std::vector<T> z( (size_t)m, (T)0 );
		cpu_cooadd( m, sp.coo_nnz, sp.coo_row, sp.coo_col, (const T*)sp.coo_val, c.x.data(),
		            z.data() );
		T* d_z = upload( z.data(), (size_t)m );
		CK_CUDA( cudaMemset( c.d_y, 0, (size_t)m * sizeof( T ) ) );
		run( 1 ); /* y := 0 + part, through the accumulate path */
		CK_CUDA( dev_vadd( m, d_z, c.d_y, 0 ) );
		CK_CUDA( cudaDeviceSynchronize() );
		std::snprintf( name, sizeof name, "%s+vadd", label );
		report( c, name, (long long)w, download( c.d_y, m ), 0, 0, 0 );
		/* merge 3: the remainder's rows as a sparse vector, cusparseAxpyi-style */
		std::vector<int> idx;
		std::vector<T>   val;
		for ( int64_t i = 0; i < m; i++ )
			if ( z[(size_t)i] != (T)0 )
			{
				idx.push_back( (int)i );
				val.push_back( z[(size_t)i] );
			}
		int* d_idx = upload( idx.data(), idx.size() );
		T*   d_val = upload( val.data(), val.size() );
		run( 0 );
		CK_CUDA( dev_axpyi( (int64_t)idx.size(), d_val, d_idx, c.d_y, 0 ) );
		CK_CUDA( cudaDeviceSynchronize() );
		std::snprintf( name, sizeof name, "%s+axpyi", label );
		report( c, name, (long long)w, download( c.d_y, m ), 0, 0, 0 );
		CK_CUDA( cudaFree( d_z ) );
		CK_CUDA( cudaFree( d_idx ) );
		CK_CUDA( cudaFree( d_val ) );
	}
	CK_CUDA( cudaFree( d_ix ) );
	CK_CUDA( cudaFree( d_dat ) );
}

template <typename T> void run_case( hyb_gen_id_t id, double scale, cusparseHandle_t sh, bool xfer )
{
	Case<T> c;
	c.name = hyb_spmv_gen_info( id )->name;
	if ( hyb_spmv_gen_size( id, scale, &c.m, &c.nnz, &c.max_len ) != HYB_OK )
	{
		g_fail = 1;
		return;
	}
	int64_t m = c.m;
	c.ia.resize( (size_t)m + 1 );
	c.ja.resize( (size_t)c.nnz );
	c.a.resize( (size_t)c.nnz );
	c.x.resize( (size_t)m );
	c.yref.resize( (size_t)m );
	double tg = omp_get_wtime();
	if ( hyb_spmv_gen_csr( id, scale, 7, 0, Prec<T>::p, c.ia.data(), c.ja.data(), c.a.data(), 0 ) !=
	     HYB_OK )
	{
		std::printf( "%s: generation failed\n", c.name );
		g_fail = 1;
		return;
	}
	tg = omp_get_wtime() - tg;
	for ( int64_t i = 0; i < m; i++ ) c.x[(size_t)i] = (T)std::sin( 0.37 * (double)i + 1.0 );
	/* reference and bound */
	double tc = omp_get_wtime();
	if ( cpu_csr( m, c.a.data(), c.ia.data(), c.ja.data(), c.x.data(), c.yref.data() ) != HYB_OK )
		g_fail = 1;
	tc        = omp_get_wtime() - tc;
	double ax = 0;
#pragma omp parallel for reduction( max : ax )
	for ( int64_t i = 0; i < m; i++ )
	{
		double s = 0;
		for ( int k = c.ia[(size_t)i]; k < c.ia[(size_t)i + 1]; k++ )
			s += std::fabs( (double)c.a[(size_t)k] ) *
			     std::fabs( (double)c.x[(size_t)c.ja[(size_t)k]] );
		ax = std::max( ax, s );
	}
	c.bound = 4.0 * (double)c.max_len * Prec<T>::eps() * ax;
	std::printf( "\n== %s (%s) rows %lld nnz %lld max %lld; generated in %.2f s, CPU CSR %.2f ms "
	             "(%.1f GFLOP/s, %d threads)\n",
	             c.name, Prec<T>::name, (long long)m, (long long)c.nnz, (long long)c.max_len, tg,
	             tc * 1e3, 2.0 * (double)c.nnz / tc * 1e-9, omp_get_max_threads() );

	c.d_ia          = upload( c.ia.data(), (size_t)m + 1 );
	c.d_ja          = upload( c.ja.data(), (size_t)c.nnz );
	c.d_a           = upload( c.a.data(), (size_t)c.nnz );
	c.d_x           = upload( c.x.data(), (size_t)m );
	c.d_y           = dalloc<T>( (size_t)m );
	double vb       = (double)sizeof( T );
	double csrbytes = (double)c.nnz * ( vb + 4.0 ) + (double)m * ( 4.0 + 2.0 * vb );

	/* cuSPARSE CSR, the reference for speed */
	cusparseSpMatDescr_t A;
	cusparseDnVecDescr_t X, Y;
	HYB_SK( cusparseCreateCsr( &A, m, m, c.nnz, c.d_ia, c.d_ja, c.d_a, CUSPARSE_INDEX_32I,
	                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, Prec<T>::cu ) );
	HYB_SK( cusparseCreateDnVec( &X, m, c.d_x, Prec<T>::cu ) );
	HYB_SK( cusparseCreateDnVec( &Y, m, c.d_y, Prec<T>::cu ) );
	T      one = 1, zero = 0;
	size_t bs = 0;
	HYB_SK( cusparseSpMV_bufferSize( sh, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y,
	                                 Prec<T>::cu, CUSPARSE_SPMV_ALG_DEFAULT, &bs ) );
	void* buf = dalloc<char>( bs + 8 );
	auto  cus = [&]
	{
		HYB_SK( cusparseSpMV( sh, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y,
		                      Prec<T>::cu, CUSPARSE_SPMV_ALG_DEFAULT, buf ) );
	};
	c.t_cusparse = time_ms( cus );
	CK_CUDA( cudaDeviceSynchronize() );
	report( c, "cusparseSpMV csr", -1, download( c.d_y, m ), c.t_cusparse, (double)c.nnz,
	        csrbytes );

	/* our CSR vector kernel, whole matrix, then as two row slices (the row-split path) */
	double mean = (double)c.nnz / (double)m;
	double ms   = time_ms(
        [&] { CK_CUDA( dev_csr( m, c.d_ia, c.d_ja, c.d_a, 0, mean, c.d_x, c.d_y, 0, 0 ) ); } );
	CK_CUDA( cudaDeviceSynchronize() );
	report( c, "hyb csr vector", -1, download( c.d_y, m ), ms, (double)c.nnz, csrbytes );
	{
		int64_t r0 = m / 3; /* slice [r0, m): its own copies of ja/a starting at ia[r0] */
		int64_t k0 = c.ia[(size_t)r0], nk = c.nnz - k0;
		int*    d_ja1 = upload( c.ja.data() + k0, (size_t)nk );
		T*      d_a1  = upload( c.a.data() + k0, (size_t)nk );
		CK_CUDA( cudaMemset( c.d_y, 0xff, (size_t)m * sizeof( T ) ) ); /* NaN everywhere */
		CK_CUDA( dev_csr( r0, c.d_ia, c.d_ja, c.d_a, 0, mean, c.d_x, c.d_y, 0, 0 ) );
		CK_CUDA( dev_csr( m - r0, c.d_ia + r0, d_ja1, d_a1, 0, mean, c.d_x, c.d_y + r0, 0, 0 ) );
		CK_CUDA( cudaDeviceSynchronize() );
		report( c, "hyb csr 2 slices", -1, download( c.d_y, m ), 0, 0, 0 );
		CK_CUDA( cudaFree( d_ja1 ) );
		CK_CUDA( cudaFree( d_a1 ) );
	}

	/* host conversions: view, DF, diagonals; ELL and DIA splits */
	hyb_spmv_src_t   src;
	hyb_spmv_view_t  view;
	int64_t*         df = nullptr;
	hyb_spmv_diags_t dg;
	double           t0 = omp_get_wtime();
	if ( hyb_spmv_src_csr( 'N', m, Prec<T>::p, c.a.data(), c.ia.data(), c.ja.data(), 0, &src ) !=
	         HYB_OK ||
	     hyb_spmv_view_build( &src, 0, &view ) != HYB_OK ||
	     hyb_spmv_df_build( &view, 0, &df ) != HYB_OK ||
	     hyb_spmv_diags_build( &view, 0, 0, 0, &dg ) != HYB_OK )
	{
		std::printf( "%s: conversion failed\n", c.name );
		g_fail = 1;
		return;
	}
	double           t_stats = omp_get_wtime() - t0;
	hyb_spmv_rates_t r;
	hyb_policy_spmv_default_rates( &r );
	hyb_spmv_stats_t st = {
		m, c.nnz, Prec<T>::p, view.max_len, df, dg.ndiag, dg.occ, dg.rest_nnz, 1
	};
	hyb_spmv_pred_t pe, pd;
	int64_t         ke = hyb_policy_spmv_best_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, &pe );
	int64_t         kd = hyb_policy_spmv_best_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_DIA, &pd );
	std::printf( "   statistics %.1f ms; model (default rates) best K: ELL %lld, DIA %lld of %lld "
	             "diagonals\n",
	             t_stats * 1e3, (long long)ke, (long long)kd, (long long)dg.ndiag );
	std::vector<int64_t> widths;
	if ( ke > 0 ) widths.push_back( ke );
	if ( (double)m * (double)view.max_len * ( vb + 4 ) < 3e9 && view.max_len != ke )
		widths.push_back( view.max_len );
	for ( int64_t K : widths )
	{
		hyb_spmv_split_t sp;
		t0 = omp_get_wtime();
		if ( hyb_spmv_split_ell( &view, K, nullptr, 0, &sp ) != HYB_OK )
		{
			g_fail = 1;
			continue;
		}
		std::printf( "   ELL split K=%lld: %.1f ms, device %lld entries, remainder %lld\n",
		             (long long)K, ( omp_get_wtime() - t0 ) * 1e3, (long long)sp.dev_nnz,
		             (long long)sp.coo_nnz );
		check_split( c, sp, "hyb ell" );
		hyb_spmv_split_free( &sp, nullptr );
	}
	if ( dg.ndiag > 0 )
	{
		/* the dense diagonals (at least half full), at least one */
		int64_t nd = 0;
		while ( nd < dg.ndiag && nd < HYB_SPMV_DIA_MAX && 2 * dg.occ[nd] >= m ) nd++;
		if ( nd == 0 ) nd = 1;
		hyb_spmv_split_t sp;
		t0 = omp_get_wtime();
		if ( hyb_spmv_split_dia( &view, nd, dg.offset, nullptr, 0, &sp ) != HYB_OK )
			g_fail = 1;
		else
		{
			std::printf(
			    "   DIA split %lld diagonals: %.1f ms, device %lld entries, remainder %lld\n",
			    (long long)nd, ( omp_get_wtime() - t0 ) * 1e3, (long long)sp.dev_nnz,
			    (long long)sp.coo_nnz );
			check_split( c, sp, "hyb dia" );
			hyb_spmv_split_free( &sp, nullptr );
		}
	}
	if ( xfer )
	{
		/* x up and y down, pageable and pinned: the steady-state floor of a host-resident x, y */
		T* hp = nullptr;
		CK_CUDA( cudaMallocHost( (void**)&hp, (size_t)m * sizeof( T ) ) );
		std::memcpy( hp, c.x.data(), (size_t)m * sizeof( T ) );
		double mb      = (double)m * vb;
		double t_up_pg = time_ms(
		    [&]
		    { CK_CUDA( cudaMemcpy( c.d_x, c.x.data(), (size_t)mb, cudaMemcpyHostToDevice ) ); } );
		std::vector<T> tmp( (size_t)m );
		double         t_dn_pg = time_ms(
            [&]
            { CK_CUDA( cudaMemcpy( tmp.data(), c.d_y, (size_t)mb, cudaMemcpyDeviceToHost ) ); } );
		double t_up_pn = time_ms(
		    [&] { CK_CUDA( cudaMemcpy( c.d_x, hp, (size_t)mb, cudaMemcpyHostToDevice ) ); } );
		double t_dn_pn = time_ms(
		    [&] { CK_CUDA( cudaMemcpy( hp, c.d_y, (size_t)mb, cudaMemcpyDeviceToHost ) ); } );
		std::printf(
		    "   transfers of one %.0f MB vector: up pageable %.3f ms (%.1f GB/s), down "
		    "pageable %.3f ms "
		    "(%.1f GB/s), up pinned %.3f ms (%.1f GB/s), down pinned %.3f ms (%.1f GB/s)\n",
		    mb * 1e-6, t_up_pg, mb / t_up_pg * 1e-6, t_dn_pg, mb / t_dn_pg * 1e-6, t_up_pn,
		    mb / t_up_pn * 1e-6, t_dn_pn, mb / t_dn_pn * 1e-6 );
		CK_CUDA( cudaFreeHost( hp ) );
	}
	free( df );
	hyb_spmv_diags_free( &dg );
	hyb_spmv_view_free( &view );
	HYB_SK( cusparseDestroySpMat( A ) );
	HYB_SK( cusparseDestroyDnVec( X ) );
	HYB_SK( cusparseDestroyDnVec( Y ) );
	CK_CUDA( cudaFree( buf ) );
	CK_CUDA( cudaFree( c.d_ia ) );
	CK_CUDA( cudaFree( c.d_ja ) );
	CK_CUDA( cudaFree( c.d_a ) );
	CK_CUDA( cudaFree( c.d_x ) );
	CK_CUDA( cudaFree( c.d_y ) );
}

/* ------------------------------------------------------------------ --sweep: Table 2 */

/* Wall-clock median (ms) of `reps` calls of f after 2 warm-ups. */
template <typename F> double wall_ms( F f, int reps )
{
	for ( int i = 0; i < 2; i++ ) f();
	std::vector<double> t( (size_t)reps );
	for ( int i = 0; i < reps; i++ )
	{
		double t0 = omp_get_wtime();
		f();
		t[(size_t)i] = ( omp_get_wtime() - t0 ) * 1e3;
	}
	std::sort( t.begin(), t.end() );
	return t[t.size() / 2];
}

/* A generated double matrix on both sides, with pinned x and y. */
struct Mat
{
	hyb_gen_id_t        id;
	int64_t             m = 0, nnz = 0, M = 0;
	std::vector<int>    ia, ja;
	std::vector<double> a, yref;
	double*             hx   = nullptr; /* pinned */
	double*             hy   = nullptr; /* pinned */
	int *               d_ia = nullptr, *d_ja = nullptr;
	double *            d_a = nullptr, *d_x = nullptr, *d_y = nullptr;
	double              bound = 0;
};

void mat_load( Mat& A, hyb_gen_id_t id )
{
	A.id = id;
	hyb_spmv_gen_size( id, 1.0, &A.m, &A.nnz, &A.M );
	A.ia.resize( (size_t)A.m + 1 );
	A.ja.resize( (size_t)A.nnz );
	A.a.resize( (size_t)A.nnz );
	A.yref.resize( (size_t)A.m );
	hyb_spmv_gen_csr( id, 1.0, 7, 0, HYB_PREC_D, A.ia.data(), A.ja.data(), A.a.data(), 0 );
	CK_CUDA( cudaMallocHost( (void**)&A.hx, (size_t)A.m * 8 ) );
	CK_CUDA( cudaMallocHost( (void**)&A.hy, (size_t)A.m * 8 ) );
	for ( int64_t i = 0; i < A.m; i++ ) A.hx[i] = std::sin( 0.37 * (double)i + 1.0 );
	hyb_dcsrmv_cpu_omp( 'N', A.m, A.a.data(), A.ia.data(), A.ja.data(), 0, A.hx, A.yref.data(), 0 );
	double ax = 0;
	for ( int64_t i = 0; i < A.m; i++ )
	{
		double t = 0;
		for ( int k = A.ia[(size_t)i]; k < A.ia[(size_t)i + 1]; k++ )
			t += std::fabs( A.a[(size_t)k] * A.hx[A.ja[(size_t)k]] );
		ax = std::max( ax, t );
	}
	A.bound = 4.0 * (double)A.M * 0x1.0p-53 * ax;
	A.d_ia  = upload( A.ia.data(), (size_t)A.m + 1 );
	A.d_ja  = upload( A.ja.data(), (size_t)A.nnz );
	A.d_a   = upload( A.a.data(), (size_t)A.nnz );
	A.d_x   = dalloc<double>( (size_t)A.m );
	A.d_y   = dalloc<double>( (size_t)A.m );
}

void mat_free( Mat& A )
{
	CK_CUDA( cudaFreeHost( A.hx ) );
	CK_CUDA( cudaFreeHost( A.hy ) );
	CK_CUDA( cudaFree( A.d_ia ) );
	CK_CUDA( cudaFree( A.d_ja ) );
	CK_CUDA( cudaFree( A.d_a ) );
	CK_CUDA( cudaFree( A.d_x ) );
	CK_CUDA( cudaFree( A.d_y ) );
}

bool mat_ok( const Mat& A, const double* y )
{
	for ( int64_t i = 0; i < A.m; i++ )
		if ( !( std::fabs( y[i] - A.yref[(size_t)i] ) <= A.bound ) ) return false;
	return true;
}

/* Remainder of ELL width K from the view: entries K.. of every row, row-sorted. */
void ell_remainder( const hyb_spmv_view_t& v, int64_t K, std::vector<int>& r, std::vector<int>& c,
                    std::vector<double>& x )
{
	r.clear();
	c.clear();
	x.clear();
	const double* vv = (const double*)v.val;
	for ( int64_t i = 0; i < v.m; i++ )
		for ( int64_t e = v.ptr[i] + K; e < v.ptr[i + 1]; e++ )
		{
			r.push_back( (int)i );
			c.push_back( v.col[e] - v.cbase );
			x.push_back( vv[e] );
		}
}

/* One steady-state hybrid call: x up, device part, y down on the stream while nc - 1
   threads compute the remainder into z; then the remainder's rows are added into y. */
struct Hybrid
{
	Mat*             A;
	cudaStream_t     s;
	bool             dia;
	int64_t          w;
	const int*       d_ix;
	const double*    d_dat;
	const int*       rr;
	const int*       rc;
	const double*    rv;
	int64_t          rn;
	std::vector<int> rows; /* distinct remainder rows */
	double*          z;    /* zero outside a call */
	int              cpu_threads;
	void             operator()()
	{
		Mat& M = *A;
		CK_CUDA( cudaMemcpyAsync( M.d_x, M.hx, (size_t)M.m * 8, cudaMemcpyHostToDevice, s ) );
		if ( dia )
			CK_CUDA( hyb_ddiamv_cuda( M.m, w, d_ix, d_dat, M.d_x, M.d_y, 0, s ) );
		else
			CK_CUDA( hyb_dellmv_cuda( M.m, w, d_ix, d_dat, M.d_x, M.d_y, 0, s ) );
		CK_CUDA( cudaMemcpyAsync( M.hy, M.d_y, (size_t)M.m * 8, cudaMemcpyDeviceToHost, s ) );
		if ( rn > 0 ) hyb_dcooaddmv_cpu_omp( M.m, rn, rr, rc, rv, M.hx, z, cpu_threads );
		CK_CUDA( cudaStreamSynchronize( s ) );
		for ( int r : rows )
		{
			M.hy[r] += z[r];
			z[r] = 0.0;
		}
	}
};

void run_sweep( int reps )
{
	int          nth = omp_get_max_threads(), cth = nth > 1 ? nth - 1 : 1;
	cudaStream_t s;
	CK_CUDA( cudaStreamCreate( &s ) );
	std::printf(
	    "\n# --sweep: steady-state hybrid (device part resident; x up, y down, pinned) vs K,\n"
	    "# remainder on %d CPU threads concurrently; rates calibrated below in this run\n",
	    cth );
	/* calibration on PR02R (the largest seed matrix) */
	hyb_spmv_rates_t r;
	hyb_policy_spmv_default_rates( &r );
	{
		Mat A;
		mat_load( A, HYB_GEN_PR02R );
		std::vector<int> rowi( (size_t)A.nnz );
		for ( int64_t i = 0; i < A.m; i++ )
			for ( int k = A.ia[(size_t)i]; k < A.ia[(size_t)i + 1]; k++ ) rowi[(size_t)k] = (int)i;
		std::vector<double> z( (size_t)A.m, 0.0 );
		double              t_coo = wall_ms(
            [&] {
                hyb_dcooaddmv_cpu_omp( A.m, A.nnz, rowi.data(), A.ja.data(), A.a.data(), A.hx,
			                                        z.data(), cth );
            },
            reps );
		double t_csr = wall_ms(
		    [&] {
			    hyb_dcsrmv_cpu_omp( 'N', A.m, A.a.data(), A.ia.data(), A.ja.data(), 0, A.hx,
			                        z.data(), nth );
		    },
		    reps );
		double csrb  = (double)A.nnz * 12 + (double)A.m * 20;
		r.cpu_coo_bw = (double)A.nnz * 16 / ( t_coo * 1e-3 );
		r.cpu_csr_bw = csrb / ( t_csr * 1e-3 );
		r.cpu_call_s = wall_ms(
		                   [&]
		                   {
#pragma omp parallel num_threads( cth )
			                   {
				                   volatile int q = omp_get_thread_num();
				                   (void)q;
			                   }
		                   },
		                   reps ) *
		               1e-3;
		CK_CUDA( cudaMemcpy( A.d_x, A.hx, (size_t)A.m * 8, cudaMemcpyHostToDevice ) );
		double mean = (double)A.nnz / (double)A.m;
		double t_gc = time_ms(
		    [&] {
			    CK_CUDA(
			        hyb_dcsrmv_cuda( A.m, A.d_ia, A.d_ja, A.d_a, 0, mean, A.d_x, A.d_y, 0, 0 ) );
		    } );
		r.gpu_csr_bw = csrb / ( t_gc * 1e-3 );
		hyb_spmv_src_t  src;
		hyb_spmv_view_t v;
		hyb_spmv_src_csr( 'N', A.m, HYB_PREC_D, A.a.data(), A.ia.data(), A.ja.data(), 0, &src );
		hyb_spmv_view_build( &src, 0, &v );
		hyb_spmv_split_t sp;
		hyb_spmv_split_ell( &v, v.max_len, nullptr, 0, &sp );
		int*    d_ix = upload( sp.index, (size_t)( A.m * sp.width ) );
		double* d_d  = upload( (const double*)sp.data, (size_t)( A.m * sp.width ) );
		double  t_e  = time_ms(
            [&] { CK_CUDA( hyb_dellmv_cuda( A.m, sp.width, d_ix, d_d, A.d_x, A.d_y, 0, 0 ) ); } );
		r.gpu_ell_bw =
		    ( (double)A.m * (double)sp.width * 12 + 16.0 * (double)A.m ) / ( t_e * 1e-3 );
		CK_CUDA( cudaFree( d_ix ) );
		CK_CUDA( cudaFree( d_d ) );
		hyb_spmv_split_free( &sp, nullptr );
		hyb_spmv_diags_t dg;
		hyb_spmv_diags_build( &v, 0, 0, 0, &dg );
		hyb_spmv_split_dia( &v, std::min<int64_t>( dg.ndiag, 64 ), dg.offset, nullptr, 0, &sp );
		d_ix       = upload( sp.offset, (size_t)sp.width );
		d_d        = upload( (const double*)sp.data, (size_t)( A.m * sp.width ) );
		double t_d = time_ms(
		    [&] { CK_CUDA( hyb_ddiamv_cuda( A.m, sp.width, d_ix, d_d, A.d_x, A.d_y, 0, 0 ) ); } );
		r.gpu_dia_bw = ( (double)A.m * (double)sp.width * 8 + 16.0 * (double)A.m ) / ( t_d * 1e-3 );
		CK_CUDA( cudaFree( d_ix ) );
		CK_CUDA( cudaFree( d_d ) );
		hyb_spmv_split_free( &sp, nullptr );
		hyb_spmv_diags_free( &dg );
		hyb_spmv_view_free( &v );
		/* transfers of a 1 MiB pinned vector, and the fixed cost of one tiny round trip */
		size_t big  = (size_t)std::min<int64_t>( A.m, 131072 ) * 8;
		double t_up = wall_ms(
		    [&]
		    {
			    CK_CUDA( cudaMemcpyAsync( A.d_x, A.hx, big, cudaMemcpyHostToDevice, s ) );
			    CK_CUDA( cudaStreamSynchronize( s ) );
		    },
		    reps );
		double t_dn = wall_ms(
		    [&]
		    {
			    CK_CUDA( cudaMemcpyAsync( A.hy, A.d_y, big, cudaMemcpyDeviceToHost, s ) );
			    CK_CUDA( cudaStreamSynchronize( s ) );
		    },
		    reps );
		double t_rt = wall_ms(
		    [&]
		    {
			    CK_CUDA( cudaMemcpyAsync( A.d_x, A.hx, 8, cudaMemcpyHostToDevice, s ) );
			    CK_CUDA( hyb_dvadd_cuda( 1, A.d_x, A.d_y, s ) );
			    CK_CUDA( cudaMemcpyAsync( A.hy, A.d_y, 8, cudaMemcpyDeviceToHost, s ) );
			    CK_CUDA( cudaStreamSynchronize( s ) );
		    },
		    reps );
		r.gpu_call_s = t_rt * 1e-3;
		r.h2d_bw     = (double)big / ( std::max( t_up - t_rt / 3, 1e-4 ) * 1e-3 );
		r.d2h_bw     = (double)big / ( std::max( t_dn - t_rt / 3, 1e-4 ) * 1e-3 );
		mat_free( A );
	}
	std::printf(
	    "# rates: cpu csr %.1f GB/s, cpu coo (%d thr) %.1f GB/s, cpu call %.1f us, gpu csr "
	    "%.0f GB/s, ell %.0f "
	    "GB/s, dia %.0f GB/s, gpu round trip %.1f us, h2d %.1f GB/s, d2h %.1f GB/s\n",
	    r.cpu_csr_bw * 1e-9, cth, r.cpu_coo_bw * 1e-9, r.cpu_call_s * 1e6, r.gpu_csr_bw * 1e-9,
	    r.gpu_ell_bw * 1e-9, r.gpu_dia_bw * 1e-9, r.gpu_call_s * 1e6, r.h2d_bw * 1e-9,
	    r.d2h_bw * 1e-9 );
	std::printf( "%-11s %3s %6s %6s %-13s %6s | %9s %9s %9s %9s | %6s %6s\n", "matrix", "fmt",
	             "K_e", "K_alg3", "K_t (2%)", "RD%", "hyb(K_t)", "hyb(K_e)", "gpu-only", "cpu-only",
	             "vs GPU", "vs CPU" );
	double sum_rd = 0, sum_gain = 0, sum_cpu = 0;
	int    nmat = 0;
	for ( int id = 0; id < HYB_GEN_SEED_COUNT; id++ )
	{
		Mat A;
		mat_load( A, (hyb_gen_id_t)id );
		bool             dia = hyb_spmv_gen_info( (hyb_gen_id_t)id )->seed_dia != 0;
		hyb_spmv_src_t   src;
		hyb_spmv_view_t  v;
		int64_t*         df = nullptr;
		hyb_spmv_diags_t dg;
		hyb_spmv_src_csr( 'N', A.m, HYB_PREC_D, A.a.data(), A.ia.data(), A.ja.data(), 0, &src );
		hyb_spmv_view_build( &src, 0, &v );
		hyb_spmv_df_build( &v, 0, &df );
		hyb_spmv_diags_build( &v, 0, 0, 0, &dg );
		hyb_spmv_stats_t  st  = { A.m,      A.nnz,  HYB_PREC_D,  v.max_len, df,
			                      dg.ndiag, dg.occ, dg.rest_nnz, 1 };
		hyb_spmv_devfmt_t fmt = dia ? HYB_SPMV_DEV_DIA : HYB_SPMV_DEV_ELL;
		hyb_spmv_pred_t   pe;
		int64_t           ke = hyb_policy_spmv_best_k( &st, &r, HYB_SPMV_STEADY, fmt, &pe );
		int64_t           ka = hyb_policy_spmv_seek_k( &st, &r, HYB_SPMV_STEADY, fmt );
		/* the widths to test: every K up to 160, then 15 % steps, ELL capped at 2 GB */
		int64_t kmax = dia ? std::min<int64_t>( dg.ndiag, HYB_SPMV_DIA_MAX ) : v.max_len;
		if ( !dia ) kmax = std::min<int64_t>( kmax, (int64_t)( 2e9 / ( 12.0 * (double)A.m ) ) );
		if ( kmax < 1 )
		{
			std::printf( "%-11s: nothing to sweep\n", hyb_spmv_gen_info( (hyb_gen_id_t)id )->name );
			free( df );
			hyb_spmv_diags_free( &dg );
			hyb_spmv_view_free( &v );
			mat_free( A );
			continue;
		}
		std::vector<int64_t> Ks;
		for ( int64_t K = 1; K <= kmax; K = K < 160 ? K + 1 : (int64_t)( (double)K * 1.15 ) )
			Ks.push_back( K );
		if ( Ks.back() != kmax ) Ks.push_back( kmax );
		if ( ke >= 1 && ke <= kmax && !std::binary_search( Ks.begin(), Ks.end(), ke ) )
			Ks.insert( std::lower_bound( Ks.begin(), Ks.end(), ke ), ke );
		std::vector<double> t( Ks.size() );
		/* ELL: one upload of the widest part; width K uses its first K columns */
		hyb_spmv_split_t wide;
		memset( &wide, 0, sizeof wide );
		int*    d_ix = nullptr;
		double* d_d  = nullptr;
		if ( !dia )
		{
			hyb_spmv_split_ell( &v, kmax, nullptr, 0, &wide );
			d_ix = upload( wide.index, (size_t)( A.m * kmax ) );
			d_d  = upload( (const double*)wide.data, (size_t)( A.m * kmax ) );
		}
		std::vector<double> z( (size_t)A.m, 0.0 );
		bool                ok = true;
		for ( size_t q = 0; q < Ks.size(); q++ )
		{
			int64_t             K = Ks[q];
			std::vector<int>    rr, rc;
			std::vector<double> rv;
			hyb_spmv_split_t    sp;
			memset( &sp, 0, sizeof sp );
			Hybrid h;
			h.A           = &A;
			h.s           = s;
			h.dia         = dia;
			h.w           = K;
			h.z           = z.data();
			h.cpu_threads = cth;
			if ( dia )
			{
				hyb_spmv_split_dia( &v, K, dg.offset, nullptr, 0, &sp );
				h.d_ix  = upload( sp.offset, (size_t)K );
				h.d_dat = upload( (const double*)sp.data, (size_t)( A.m * K ) );
				h.rr = sp.coo_row, h.rc = sp.coo_col, h.rv = (const double*)sp.coo_val,
				h.rn = sp.coo_nnz;
			}
			else
			{
				ell_remainder( v, K, rr, rc, rv );
				h.d_ix = d_ix, h.d_dat = d_d;
				h.rr = rr.data(), h.rc = rc.data(), h.rv = rv.data(), h.rn = (int64_t)rr.size();
			}
			for ( int64_t k = 0; k < h.rn; k++ )
				if ( k == 0 || h.rr[k] != h.rr[k - 1] ) h.rows.push_back( h.rr[k] );
			h();
			ok   = ok && mat_ok( A, A.hy );
			t[q] = wall_ms( h, reps );
			if ( dia )
			{
				CK_CUDA( cudaFree( (void*)h.d_ix ) );
				CK_CUDA( cudaFree( (void*)h.d_dat ) );
				hyb_spmv_split_free( &sp, nullptr );
			}
		}
		if ( !ok ) g_fail = 1;
		size_t  best = (size_t)( std::min_element( t.begin(), t.end() ) - t.begin() );
		int64_t klo = Ks[best], khi = Ks[best];
		for ( size_t q = 0; q < Ks.size(); q++ )
			if ( t[q] <= 1.02 * t[best] )
			{
				klo = std::min( klo, Ks[q] );
				khi = std::max( khi, Ks[q] );
			}
		double t_ke = t[best];
		for ( size_t q = 0; q < Ks.size(); q++ )
			if ( Ks[q] == ke ) t_ke = t[q];
		/* GPU-only: the faster of our CSR kernel and cuSPARSE, with x up and y down */
		double mean = (double)A.nnz / (double)A.m;
		double t_g  = wall_ms(
            [&]
            {
                CK_CUDA(
			         cudaMemcpyAsync( A.d_x, A.hx, (size_t)A.m * 8, cudaMemcpyHostToDevice, s ) );
                CK_CUDA(
			         hyb_dcsrmv_cuda( A.m, A.d_ia, A.d_ja, A.d_a, 0, mean, A.d_x, A.d_y, 0, s ) );
                CK_CUDA(
			         cudaMemcpyAsync( A.hy, A.d_y, (size_t)A.m * 8, cudaMemcpyDeviceToHost, s ) );
                CK_CUDA( cudaStreamSynchronize( s ) );
            },
            reps );
		ok = ok && mat_ok( A, A.hy );
		cusparseHandle_t sh;
		HYB_SK( cusparseCreate( &sh ) );
		HYB_SK( cusparseSetStream( sh, s ) );
		cusparseSpMatDescr_t SA;
		cusparseDnVecDescr_t SX, SY;
		HYB_SK( cusparseCreateCsr( &SA, A.m, A.m, A.nnz, A.d_ia, A.d_ja, A.d_a, CUSPARSE_INDEX_32I,
		                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F ) );
		HYB_SK( cusparseCreateDnVec( &SX, A.m, A.d_x, CUDA_R_64F ) );
		HYB_SK( cusparseCreateDnVec( &SY, A.m, A.d_y, CUDA_R_64F ) );
		double one = 1, zero = 0;
		size_t bs = 0;
		HYB_SK( cusparseSpMV_bufferSize( sh, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, SA, SX, &zero,
		                                 SY, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bs ) );
		void*  buf  = dalloc<char>( bs + 8 );
		double t_cs = wall_ms(
		    [&]
		    {
			    CK_CUDA(
			        cudaMemcpyAsync( A.d_x, A.hx, (size_t)A.m * 8, cudaMemcpyHostToDevice, s ) );
			    HYB_SK( cusparseSpMV( sh, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, SA, SX, &zero, SY,
			                          CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, buf ) );
			    CK_CUDA(
			        cudaMemcpyAsync( A.hy, A.d_y, (size_t)A.m * 8, cudaMemcpyDeviceToHost, s ) );
			    CK_CUDA( cudaStreamSynchronize( s ) );
		    },
		    reps );
		ok         = ok && mat_ok( A, A.hy );
		t_g        = std::min( t_g, t_cs );
		double t_c = wall_ms(
		    [&] {
			    hyb_dcsrmv_cpu_omp( 'N', A.m, A.a.data(), A.ia.data(), A.ja.data(), 0, A.hx, A.hy,
			                        nth );
		    },
		    reps );
		if ( !ok ) g_fail = 1;
		double rd = ke > 0 ? 100.0 * std::fabs( (double)( Ks[best] - ke ) ) / (double)ke : -1;
		if ( ke >= klo && ke <= khi )
			rd = 0; /* inside the tested optimum's range, as the seed counts it */
		char krange[32];
		std::snprintf( krange, sizeof krange, klo == khi ? "%lld" : "%lld-%lld", (long long)klo,
		               (long long)khi );
		std::printf(
		    "%-11s %3s %6lld %6lld %-13s %6.1f | %9.4f %9.4f %9.4f %9.4f | %6.2f %6.1f%s\n",
		    hyb_spmv_gen_info( (hyb_gen_id_t)id )->name, dia ? "DIA" : "ELL", (long long)ke,
		    (long long)ka, krange, rd, t[best], t_ke, t_g, t_c, t_g / t_ke, t_c / t_ke,
		    ok ? "" : "  WRONG" );
		sum_rd += rd;
		sum_gain += t_g / t_ke;
		sum_cpu += t_c / t_ke;
		nmat++;
		HYB_SK( cusparseDestroySpMat( SA ) );
		HYB_SK( cusparseDestroyDnVec( SX ) );
		HYB_SK( cusparseDestroyDnVec( SY ) );
		HYB_SK( cusparseDestroy( sh ) );
		CK_CUDA( cudaFree( buf ) );
		if ( !dia )
		{
			CK_CUDA( cudaFree( d_ix ) );
			CK_CUDA( cudaFree( d_d ) );
			hyb_spmv_split_free( &wide, nullptr );
		}
		free( df );
		hyb_spmv_diags_free( &dg );
		hyb_spmv_view_free( &v );
		mat_free( A );
	}
	std::printf( "# average over %d matrices: RD %.1f %%, hybrid at K_e vs GPU-only x%.3f, vs "
	             "CPU-only x%.1f "
	             "(times in ms, medians of %d)\n",
	             nmat, sum_rd / nmat, sum_gain / nmat, sum_cpu / nmat, reps );
	CK_CUDA( cudaStreamDestroy( s ) );
}

/* The checks of the lean background build's copies (spmv.check on CSR arrays, spmv.cooptr
   on COO arrays grouped by rows) against host references on a random matrix with empty
   rows, 0- and 1-based, blocks that do not fall on warp boundaries: valid input gives
   out[0] == 0, every block's column window and (COO) every row pointer exactly; each kind
   of invalid input is refused (COO: with its reason). */
struct CopyCase
{
	int64_t          m, br, nb;
	int              base, first;
	std::vector<int> ia, ja, row, ptr0, win; /* ptr0: 0-based pointers; win: 2 per block */
};

CopyCase copy_case( int base )
{
	CopyCase c;
	c.m                  = 300000;
	c.br                 = 1000;
	c.nb                 = ( c.m + c.br - 1 ) / c.br;
	c.base               = base;
	c.first              = base + 5;
	unsigned long long r = 12345 + (unsigned)base;
	c.ptr0.assign( (size_t)c.m + 1, 0 );
	c.win.assign( (size_t)( 2 * c.nb ), 0 );
	for ( int64_t b = 0; b < c.nb; b++ )
	{
		c.win[2 * b]     = (int)c.m;
		c.win[2 * b + 1] = -1;
	}
	for ( int64_t i = 0; i < c.m; i++ )
	{
		c.ptr0[i]   = (int)c.ja.size();
		int64_t len = ( i / 777 ) % 5 == 2
		                  ? 0
		                  : (int64_t)( ( r = r * 6364136223846793005ull + 1 ) >> 60 ) % 9;
		for ( int64_t k = 0; k < len; k++ )
		{
			int col =
			    (int)( ( ( r = r * 6364136223846793005ull + 1 ) >> 33 ) % (unsigned long long)c.m );
			c.ja.push_back( col + base );
			c.row.push_back( (int)i + base );
			int* w = &c.win[2 * ( i / c.br )];
			w[0]   = std::min( w[0], col );
			w[1]   = std::max( w[1], col );
		}
	}
	c.ptr0[c.m] = (int)c.ja.size();
	for ( int64_t i = 0; i <= c.m; i++ ) c.ia.push_back( c.ptr0[i] + c.first );
	return c;
}

/* Runs spmv.check (coo false) or spmv.cooptr on the case's arrays as given; out and (COO) the
   pointers come back. */
cudaError_t copy_kernel( const CopyCase& c, bool coo, const std::vector<int>& p,
                         const std::vector<int>& ja, std::vector<int>& out, std::vector<int>& ptr )
{
	size_t nnz = ja.size(), pb = p.size() * sizeof( int ), cb = nnz * sizeof( int );
	size_t ob = (size_t)( 1 + 2 * c.nb ) * sizeof( int ), qb = (size_t)( c.m + 1 ) * sizeof( int );
	int *  d_p, *d_ja, *d_out, *d_ptr;
	CK_CUDA( cudaMalloc( &d_p, pb ) );
	CK_CUDA( cudaMalloc( &d_ja, cb ) );
	CK_CUDA( cudaMalloc( &d_out, ob ) );
	CK_CUDA( cudaMalloc( &d_ptr, qb ) );
	CK_CUDA( cudaMemcpy( d_p, p.data(), pb, cudaMemcpyHostToDevice ) );
	CK_CUDA( cudaMemcpy( d_ja, ja.data(), cb, cudaMemcpyHostToDevice ) );
	cudaError_t e =
	    coo ? hyb_cooptr_cuda( c.m, (int64_t)nnz, c.br, d_p, d_ja, c.base, d_ptr, d_out, 0 )
	        : hyb_csrcheck_cuda( c.m, c.m, (int64_t)nnz, c.br, d_p, d_ja, c.first, c.base, d_out,
	                             0 );
	if ( e == cudaSuccess ) e = cudaDeviceSynchronize();
	out.assign( (size_t)( 1 + 2 * c.nb ), 0 );
	ptr.assign( (size_t)c.m + 1, 0 );
	CK_CUDA( cudaMemcpy( out.data(), d_out, ob, cudaMemcpyDeviceToHost ) );
	CK_CUDA( cudaMemcpy( ptr.data(), d_ptr, qb, cudaMemcpyDeviceToHost ) );
	cudaFree( d_p );
	cudaFree( d_ja );
	cudaFree( d_out );
	cudaFree( d_ptr );
	return e;
}

void check_copy_kernels()
{
	std::printf( "\n# copy checks (spmv.check, spmv.cooptr)\n" );
	for ( int base = 0; base < 2; base++ )
		for ( int coo = 0; coo < 2; coo++ )
		{
			CopyCase                c = copy_case( base );
			std::vector<int>        out, ptr;
			const std::vector<int>& p = coo ? c.row : c.ia;
			CK_CUDA( copy_kernel( c, coo, p, c.ja, out, ptr ) );
			bool ok = out[0] == 0 && std::equal( c.win.begin(), c.win.end(), out.begin() + 1 ) &&
			          ( !coo || ptr == c.ptr0 );
			/* each invalid input: a column past m, (CSR) a pointer that decreases, (COO) a row
			   past m and rows out of order */
			std::vector<int> bad_ja = c.ja, bad_p = p;
			bad_ja[c.ja.size() / 2] = (int)c.m + base;
			CK_CUDA( copy_kernel( c, coo, p, bad_ja, out, ptr ) );
			ok = ok && out[0] == ( coo ? HYB_CUDA_COOPTR_RANGE : 1 );
			if ( coo )
			{
				bad_p[bad_p.size() / 3] = (int)c.m + base;
				CK_CUDA( copy_kernel( c, coo, bad_p, c.ja, out, ptr ) );
				ok    = ok && out[0] == HYB_CUDA_COOPTR_RANGE;
				bad_p = p;
				std::swap( bad_p[10], bad_p[bad_p.size() - 10] );
				CK_CUDA( copy_kernel( c, coo, bad_p, c.ja, out, ptr ) );
				ok = ok && out[0] == HYB_CUDA_COOPTR_ORDER;
			}
			else
			{
				bad_p[c.m / 2] = bad_p[c.m / 2 + 1] + 1;
				CK_CUDA( copy_kernel( c, coo, bad_p, c.ja, out, ptr ) );
				ok = ok && out[0] != 0;
			}
			std::printf( "%-8s base %d  %zu entries  %s\n", coo ? "cooptr" : "check", base,
			             c.ja.size(), ok ? "ok" : "WRONG" );
			g_fail += !ok;
		}
}

/* The checks of a copy's DIA form (spmv.diahist, spmv.diascatter) against host references on
   a 27-point stencil of a 60^3 grid with a few duplicates at the rows' ends, 0- and 1-based,
   ia[0] past the base: the histogram in the whole window and in a narrow one (entries beyond
   it), then one DIA block (rows widened by the band) equal byte for byte to the host's sums in
   the copy's order, single and double; an entry on no listed diagonal counted as missed. */
template <typename T> bool check_dia_case( int base )
{
	const int64_t      n = 60, m = n * n * n, first = base + 5;
	std::vector<int>   ia, ja;
	std::vector<T>     val;
	unsigned long long r = 777 + (unsigned)base;
	for ( int64_t i = 0; i < m; i++ )
	{
		ia.push_back( (int)ja.size() + (int)first );
		for ( int d = 0; d < 27; d++ )
		{
			int64_t x = i % n + d % 3 - 1, y = i / n % n + d / 3 % 3 - 1,
			        z = i / ( n * n ) + d / 9 - 1;
			if ( x < 0 || x >= n || y < 0 || y >= n || z < 0 || z >= n ) continue;
			ja.push_back( (int)( ( z * n + y ) * n + x ) + base );
			val.push_back( (
			    T)( (double)( ( r = r * 6364136223846793005ull + 1 ) >> 40 ) / 16777216.0 - 0.5 ) );
		}
		if ( i % 101 == 7 ) /* a duplicate of the row's first entry */
		{
			ja.push_back( ja[ia[i] - first] );
			val.push_back( (T)0.1 );
		}
	}
	ia.push_back( (int)ja.size() + (int)first );
	const int64_t    nnz = (int64_t)ja.size();
	std::vector<int> offs;
	for ( int d = 0; d < 27; d++ )
		offs.push_back( (int)( ( d / 9 - 1 ) * n * n + ( d / 3 % 3 - 1 ) * n + ( d % 3 - 1 ) ) );
	std::sort( offs.begin(), offs.end() );
	/* the block widened by the band starts inside the matrix, as the build makes it */
	const int64_t band = n * n + n + 1, r0 = 5000, r1 = 50000, e0 = r0 - band, e1 = r1 + band;
	const int64_t mE = e1 - e0, K = 27;
	/* host references: the histogram, and the block's slots summed in order from zero */
	bool ok = true;
	for ( int64_t W : { m - 1, (int64_t)100 } )
	{
		std::vector<int> href( (size_t)( 2 * W + 1 ), 0 ), hgot( href.size() ), out( 2 );
		int              far = 0, held = 0;
		for ( int64_t i = 0; i < m; i++ )
			for ( int64_t e = ia[i] - first; e < ia[i + 1] - first; e++ )
			{
				int64_t off = (int64_t)ja[e] - base - i;
				if ( off < -W || off > W )
					far++;
				else
					held += href[off + W]++ == 0;
			}
		int *d_ia, *d_ja, *d_h, *d_o;
		CK_CUDA( cudaMalloc( &d_ia, ia.size() * sizeof( int ) ) );
		CK_CUDA( cudaMalloc( &d_ja, ja.size() * sizeof( int ) ) );
		CK_CUDA( cudaMalloc( &d_h, href.size() * sizeof( int ) ) );
		CK_CUDA( cudaMalloc( &d_o, 2 * sizeof( int ) ) );
		CK_CUDA( cudaMemcpy( d_ia, ia.data(), ia.size() * sizeof( int ), cudaMemcpyHostToDevice ) );
		CK_CUDA( cudaMemcpy( d_ja, ja.data(), ja.size() * sizeof( int ), cudaMemcpyHostToDevice ) );
		CK_CUDA( hyb_diahist_cuda( m, W, d_ia, d_ja, base, d_h, d_o, 0 ) );
		CK_CUDA( cudaDeviceSynchronize() );
		CK_CUDA(
		    cudaMemcpy( hgot.data(), d_h, href.size() * sizeof( int ), cudaMemcpyDeviceToHost ) );
		CK_CUDA( cudaMemcpy( out.data(), d_o, 2 * sizeof( int ), cudaMemcpyDeviceToHost ) );
		ok = ok && hgot == href && out[0] == far && out[1] == held;
		cudaFree( d_ia );
		cudaFree( d_ja );
		cudaFree( d_h );
		cudaFree( d_o );
	}
	std::vector<T> ref( (size_t)( K * mE ), (T)0 ), got( ref.size() );
	for ( int64_t i = r0; i < r1; i++ )
		for ( int64_t e = ia[i] - first; e < ia[i + 1] - first; e++ )
		{
			int64_t s = std::lower_bound( offs.begin(), offs.end(), (int)( ja[e] - base - i ) ) -
			            offs.begin();
			T& slot = ref[(size_t)( s * mE + i - e0 )];
			slot    = slot + val[e];
		}
	for ( int miss = 0; miss < 2; miss++ )
	{
		std::vector<int> jb = ja;
		if ( miss ) jb[ia[r0 + 3] - first] = (int)( r0 + 3 + 2 * n * n ) + base; /* off the 27 */
		int *d_ia, *d_ja, *d_off, *d_miss;
		T *  d_val, *d_data;
		CK_CUDA( cudaMalloc( &d_ia, ia.size() * sizeof( int ) ) );
		CK_CUDA( cudaMalloc( &d_ja, jb.size() * sizeof( int ) ) );
		CK_CUDA( cudaMalloc( &d_off, offs.size() * sizeof( int ) ) );
		CK_CUDA( cudaMalloc( &d_miss, sizeof( int ) ) );
		CK_CUDA( cudaMalloc( &d_val, val.size() * sizeof( T ) ) );
		CK_CUDA( cudaMalloc( &d_data, ref.size() * sizeof( T ) ) );
		CK_CUDA( cudaMemcpy( d_ia, ia.data(), ia.size() * sizeof( int ), cudaMemcpyHostToDevice ) );
		CK_CUDA( cudaMemcpy( d_ja, jb.data(), jb.size() * sizeof( int ), cudaMemcpyHostToDevice ) );
		CK_CUDA(
		    cudaMemcpy( d_off, offs.data(), offs.size() * sizeof( int ), cudaMemcpyHostToDevice ) );
		CK_CUDA(
		    cudaMemcpy( d_val, val.data(), val.size() * sizeof( T ), cudaMemcpyHostToDevice ) );
		CK_CUDA( cudaMemset( d_miss, 0, sizeof( int ) ) );
		CK_CUDA( cudaMemset( d_data, 0x7f, ref.size() * sizeof( T ) ) ); /* every slot written */
		if ( sizeof( T ) == 8 )
			CK_CUDA( hyb_ddiascatter_cuda( r0, r1, e0, e1, K, d_off, d_ia, d_ja,
			                               (const double*)d_val, base, (double*)d_data, d_miss,
			                               0 ) );
		else
			CK_CUDA( hyb_sdiascatter_cuda( r0, r1, e0, e1, K, d_off, d_ia, d_ja,
			                               (const float*)d_val, base, (float*)d_data, d_miss, 0 ) );
		CK_CUDA( cudaDeviceSynchronize() );
		int missed = -1;
		CK_CUDA( cudaMemcpy( &missed, d_miss, sizeof( int ), cudaMemcpyDeviceToHost ) );
		CK_CUDA(
		    cudaMemcpy( got.data(), d_data, got.size() * sizeof( T ), cudaMemcpyDeviceToHost ) );
		ok = ok && missed == miss &&
		     ( miss || std::memcmp( got.data(), ref.data(), ref.size() * sizeof( T ) ) == 0 );
		cudaFree( d_ia );
		cudaFree( d_ja );
		cudaFree( d_off );
		cudaFree( d_miss );
		cudaFree( d_val );
		cudaFree( d_data );
	}
	std::printf( "%-8s base %d  %s  %lld entries  %s\n", "todia", base,
	             sizeof( T ) == 8 ? "d" : "s", (long long)nnz, ok ? "ok" : "WRONG" );
	return ok;
}

void check_dia_kernels()
{
	std::printf( "\n# DIA form checks (spmv.diahist, spmv.diascatter)\n" );
	for ( int base = 0; base < 2; base++ )
	{
		g_fail += !check_dia_case<double>( base );
		g_fail += !check_dia_case<float>( base );
	}
}

/* spmv.xsum against the host's fingerprints (kernels/spmv/hyb_spmv_xsum.h): sizes of whole
   and partial pieces, a partial last word, and one changed bit noticed in its piece only. */
void check_xsum_kernel()
{
	std::printf( "\n# x fingerprint checks (spmv.xsum)\n" );
	const int64_t sizes[] = { 4, 12, 4096, 65536, 65540, 3 * 65536 + 1236, 64 * 1024 * 1024 + 4 };
	for ( int64_t n : sizes )
	{
		std::vector<unsigned char> h( (size_t)n );
		uint64_t                   r = 88172645463325252ull ^ (uint64_t)n;
		for ( auto& b : h )
		{
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			b = (unsigned char)r;
		}
		const int64_t         pieces = hyb_spmv_xsum_pieces( (size_t)n );
		unsigned char*        dx     = dalloc<unsigned char>( (size_t)n );
		uint64_t*             dout   = dalloc<uint64_t>( (size_t)pieces );
		bool                  ok     = true;
		std::vector<uint64_t> before;
		for ( int flip = 0; flip < 2; flip++ )
		{
			if ( flip ) h[(size_t)n / 2] ^= 0x10;
			CK_CUDA( cudaMemcpy( dx, h.data(), (size_t)n, cudaMemcpyHostToDevice ) );
			CK_CUDA( hyb_xsum_cuda( n, dx, dout, 0 ) );
			CK_CUDA( cudaDeviceSynchronize() );
			std::vector<uint64_t> got( (size_t)pieces );
			CK_CUDA( cudaMemcpy( got.data(), dout, (size_t)pieces * 8, cudaMemcpyDeviceToHost ) );
			for ( int64_t j = 0; j < pieces; j++ )
				ok = ok && got[(size_t)j] == hyb_spmv_xsum_of( h.data(), (size_t)n, j );
			/* the changed bit changes its own piece's fingerprint and no other */
			const int64_t changed = ( n / 2 ) / (int64_t)HYB_SPMV_XSUM_PIECE;
			for ( int64_t j = 0; flip && j < pieces; j++ )
				ok = ok && ( got[(size_t)j] != before[(size_t)j] ) == ( j == changed );
			before = got;
		}
		double ms = time_ms( [&] { hyb_xsum_cuda( n, dx, dout, 0 ); } );
		std::printf( "%-8s %10lld bytes  %6lld pieces  %s  %.3f ms\n", "xsum", (long long)n,
		             (long long)pieces, ok ? "ok" : "WRONG", ms );
		g_fail += !ok;
		cudaFree( dx );
		cudaFree( dout );
	}
}

} /* namespace */

int main( int argc, char** argv )
{
	bool quick = false, full = true, sweep = false;
	for ( int i = 1; i < argc; i++ )
	{
		if ( !std::strcmp( argv[i], "--quick" ) )
			quick = true;
		else if ( !std::strcmp( argv[i], "--no-full" ) )
			full = false;
		else if ( !std::strcmp( argv[i], "--sweep" ) )
			sweep = true;
		else if ( !std::strcmp( argv[i], "--reps" ) && i + 1 < argc )
			g_reps = std::max( 1, std::atoi( argv[++i] ) );
		else
		{
			std::fprintf( stderr, "usage: %s [--quick] [--no-full] [--sweep] [--reps N]\n",
			              argv[0] );
			return 2;
		}
	}
	int ndev = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev == 0 )
	{
		std::printf( "no CUDA device: skipped\n" );
		return 77;
	}
	cudaDeviceProp prop;
	CK_CUDA( cudaGetDeviceProperties( &prop, 0 ) );
	int drv = 0, rt = 0;
	cudaDriverGetVersion( &drv );
	cudaRuntimeGetVersion( &rt );
	std::printf( "# gpu_check_spmv: %s, %d SMs, %.0f GB; driver %d runtime %d; %d OpenMP threads; "
	             "median of %d runs\n",
	             prop.name, prop.multiProcessorCount, (double)prop.totalGlobalMem * 1e-9, drv, rt,
	             omp_get_max_threads(), g_reps );
	cusparseHandle_t sh;
	HYB_SK( cusparseCreate( &sh ) );
	double t0 = omp_get_wtime();
	/* the ten seed-like matrices at full size (they are small), double precision */
	for ( int id = 0; id < HYB_GEN_SEED_COUNT; id++ )
		if ( !quick || id == HYB_GEN_TWOTONE || id == HYB_GEN_BBMAT )
			run_case<double>( (hyb_gen_id_t)id, 1.0, sh, false );
	/* single precision on a few */
	run_case<float>( HYB_GEN_SCIRCUIT, 1.0, sh, false );
	run_case<float>( HYB_GEN_CHEBYSHEV4, quick ? 0.1 : 1.0, sh, false );
	/* the 27-point stencil: 50^3, then 200^3 = 8 M rows */
	run_case<double>( HYB_GEN_STENCIL27, 1.0 / 64.0, sh, false );
	run_case<float>( HYB_GEN_STENCIL27, 1.0 / 64.0, sh, false );
	if ( full && !quick ) run_case<double>( HYB_GEN_STENCIL27, 1.0, sh, true );
	HYB_SK( cusparseDestroy( sh ) );
	check_copy_kernels();
	check_dia_kernels();
	check_xsum_kernel();
	if ( sweep ) run_sweep( std::max( 5, g_reps / 2 ) );
	std::printf( "\n# %s in %.1f s\n", g_fail ? "SOME RESULTS WRONG" : "all results correct",
	             omp_get_wtime() - t0 );
	return g_fail ? 1 : 0;
}
