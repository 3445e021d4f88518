/* SPDX-License-Identifier: BSD-3-Clause */
/* GPU check of the tridiagonal SPIKE kernels: every result against the CPU reference over
   sizes, precisions, right-hand sides and dominance, timed against cusparse?gtsv2_nopivot. */

/* Usage: gpu_check_gtsv [--quick] [--emulate]
     (default)   on a CUDA device: part 1, correctness over dominance 1.05 .. 10, row and
                 column dominant, n = 2^20 and 2^20 + 12345, nrhs 1 and 4, s and d; part 2,
                 timing n = 2^20 .. 2^27 (dominance 3) and n = 2^27 at dominance 1.05, 1.5,
                 10, device-resident data, CUDA events, 2 warm-ups, median of 7, against
                 cuSPARSE on the same data. Every result is checked.
                 Part 3: the pivots kernel (hyb_?gtsv_cuda_pivots), n = 2^21 and 2^24, s and d,
                 dominance 3, warm = the window: every row against a serial double
                 recurrence (wrong above 8 eps of the precision), time per call.
     --quick     smaller sizes (part 1 only at 2^18, part 2 up to 2^22, part 3 2^21 only)
     --emulate   no device needed: the kernels' phases run on the host (small sizes)
     --cpu       no device needed: part 0 only
   A result is wrong when its normwise backward error ||Ax-b||/(||A|| ||x|| + ||b||) (inf
   norms, long double) exceeds 10 * max(reference's, u) or is not finite; the reference is
   the CPU Thomas solve (part 1, emulation) or the CPU SPIKE solve (part 2, validated
   against LAPACK by the unit suite gtsv_cpu).
   Exit status: 0 all correct, 1 a wrong result or a CUDA/cuSPARSE error, 77 no device
   (without --emulate). Prints one table row per case. */

#include <cuda_runtime.h>
#include <cusparse.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C"
{
#include "kernels/cpu/hyb_gtsv_cpu.h"
#include "policies/hyb_policy_gtsv.h"
}
#include "kernels/cuda/hyb_gtsv_cuda.h"
#include "tools/bench/hyb_bench_cuda_check.h"

namespace
{

int g_failures = 0;

#define CK_SPARSE( expr )                                                                          \
	do {                                                                                           \
		cusparseStatus_t s_ = ( expr );                                                            \
		if ( s_ != CUSPARSE_STATUS_SUCCESS )                                                       \
		{                                                                                          \
			fprintf( stderr, "%s:%d: %s: cuSPARSE status %d\n", __FILE__, __LINE__, #expr,         \
			         (int)s_ );                                                                    \
			exit( 1 );                                                                             \
		}                                                                                          \
	} while ( 0 )

enum Kind
{
	ROW = 0, /* |d| >= dom (|dl[i-1]| + |du[i]|) */
	COL = 1  /* |d| >= dom (|du[i-1]| + |dl[i]|) */
};

/* ---------------------------------------------------------------------------------------
   Random systems from a counter-based hash (same values on host and device).
   --------------------------------------------------------------------------------------- */
__host__ __device__ inline double hash01( uint64_t i, uint64_t seed )
{
	uint64_t z = i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull + 0x632BE59BD9B4E019ull;
	z          = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)( z >> 11 ) * ( 1.0 / 9007199254740992.0 );
}

template <typename T>
__host__ __device__ inline void gen_off( int64_t i, uint64_t seed, T* dl, T* du )
{
	dl[i] = (T)( 2 * hash01( 2 * (uint64_t)i, seed ) - 1 );
	du[i] = (T)( 2 * hash01( 2 * (uint64_t)i + 1, seed ) - 1 );
}

template <typename T>
__host__ __device__ inline void gen_diag( int64_t i, int64_t n, uint64_t seed, int kind, double dom,
                                          const T* dl, const T* du, T* d )
{
	double off;
	if ( kind == ROW )
		off =
		    ( i >= 1 ? fabs( (double)dl[i - 1] ) : 0 ) + ( i + 1 < n ? fabs( (double)du[i] ) : 0 );
	else
		off =
		    ( i >= 1 ? fabs( (double)du[i - 1] ) : 0 ) + ( i + 1 < n ? fabs( (double)dl[i] ) : 0 );
	if ( off == 0 ) off = 1;
	double h   = hash01( (uint64_t)i, seed + 7 );
	double mag = dom * off * ( 1 + 0.25 * h ) * ( 1 + 1e-6 ); /* stays >= dom after rounding */
	d[i]       = (T)( hash01( (uint64_t)i, seed + 11 ) < 0.5 ? -mag : mag );
}

template <typename T>
__host__ __device__ inline void gen_rhs( int64_t i, int64_t n, int64_t ldb, int64_t j,
                                         uint64_t seed, T* b )
{
	b[i + j * ldb] = (T)( 2 * hash01( (uint64_t)( i + j * n ), seed + 13 ) - 1 );
}

template <typename T> __global__ void k_gen_off( int64_t n, uint64_t seed, T* dl, T* du )
{
	for ( int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i + 1 < n;
	      i += (int64_t)gridDim.x * blockDim.x )
		gen_off( i, seed, dl, du );
}

template <typename T>
__global__ void k_gen_diag( int64_t n, uint64_t seed, int kind, double dom, const T* dl,
                            const T* du, T* d )
{
	for ( int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	      i += (int64_t)gridDim.x * blockDim.x )
		gen_diag( i, n, seed, kind, dom, dl, du, d );
}

template <typename T> __global__ void k_gen_rhs( int64_t n, int64_t nrhs, uint64_t seed, T* b )
{
	for ( int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n * nrhs;
	      i += (int64_t)gridDim.x * blockDim.x )
		gen_rhs( i % n, n, n, i / n, seed, b );
}

/* cuSPARSE wants row-aligned diagonals: dlc[0] = 0, duc[n-1] = 0. */
template <typename T> __global__ void k_align( int64_t n, const T* dl, const T* du, T* dlc, T* duc )
{
	for ( int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	      i += (int64_t)gridDim.x * blockDim.x )
	{
		dlc[i] = i >= 1 ? dl[i - 1] : T( 0 );
		duc[i] = i + 1 < n ? du[i] : T( 0 );
	}
}

/* ---------------------------------------------------------------------------------------
   Host side: the system, the CPU reference, the backward error.
   --------------------------------------------------------------------------------------- */
/* Host buffer, first touched in parallel (a serial page-faulting pass over the ~20 GB of
   the largest case would take seconds) and copied in parallel. */
template <typename T> struct Buf
{
	T*     p   = nullptr;
	size_t len = 0;
	Buf()      = default;
	explicit Buf( size_t k )
	    : p( static_cast<T*>( malloc( std::max<size_t>( k, 1 ) * sizeof( T ) ) ) ), len( k )
	{
		if ( p == nullptr )
		{
			fprintf( stderr, "out of host memory\n" );
			exit( 1 );
		}
#pragma omp parallel for schedule( static )
		for ( size_t i = 0; i < len; i++ ) p[i] = T( 0 );
	}
	Buf( const Buf& o ) : Buf( o.len )
	{
#pragma omp parallel for schedule( static )
		for ( size_t i = 0; i < len; i++ ) p[i] = o.p[i];
	}
	Buf( Buf&& o ) noexcept : p( o.p ), len( o.len )
	{
		o.p   = nullptr;
		o.len = 0;
	}
	Buf& operator=( const Buf& ) = delete;
	Buf& operator=( Buf&& o ) noexcept
	{
		std::swap( p, o.p );
		std::swap( len, o.len );
		return *this;
	}
	~Buf()
	{
		free( p );
	}
	T* data()
	{
		return p;
	}
	const T* data() const
	{
		return p;
	}
	T& operator[]( size_t i )
	{
		return p[i];
	}
	const T& operator[]( size_t i ) const
	{
		return p[i];
	}
};

template <typename T> struct HostSys
{
	int64_t n = 0, nrhs = 0;
	Buf<T>  dl, d, du, b;
};

template <typename T>
HostSys<T> host_make( int64_t n, int64_t nrhs, uint64_t seed, int kind, double dom )
{
	HostSys<T> s;
	s.n    = n;
	s.nrhs = nrhs;
	s.dl   = Buf<T>( (size_t)n );
	s.du   = Buf<T>( (size_t)n );
	s.d    = Buf<T>( (size_t)n );
	s.b    = Buf<T>( (size_t)( n * nrhs ) );
#pragma omp parallel for
	for ( int64_t i = 0; i < n - 1; i++ ) gen_off( i, seed, s.dl.data(), s.du.data() );
#pragma omp parallel for
	for ( int64_t i = 0; i < n; i++ )
		gen_diag( i, n, seed, kind, dom, s.dl.data(), s.du.data(), s.d.data() );
#pragma omp parallel for
	for ( int64_t i = 0; i < n * nrhs; i++ ) gen_rhs( i % n, n, n, i / n, seed, s.b.data() );
	return s;
}

/* max_j ||A x_j - b_j|| / (||A|| ||x_j|| + ||b_j||), inf norms, in long double. */
template <typename T> double berr( const HostSys<T>& s, const T* x )
{
	const int64_t n     = s.n;
	long double   anorm = 0, worst = 0;
#pragma omp parallel for reduction( max : anorm )
	for ( int64_t i = 0; i < n; i++ )
	{
		long double r = fabsl( (long double)s.d[i] );
		if ( i >= 1 ) r += fabsl( (long double)s.dl[i - 1] );
		if ( i + 1 < n ) r += fabsl( (long double)s.du[i] );
		anorm = std::max( anorm, r );
	}
	for ( int64_t j = 0; j < s.nrhs; j++ )
	{
		const T*    xj = x + j * n;
		const T*    bj = s.b.data() + j * n;
		long double rn = 0, xn = 0, bn = 0;
		int         bad = 0;
#pragma omp parallel for reduction( max : rn, xn, bn ) reduction( | : bad )
		for ( int64_t i = 0; i < n; i++ )
		{
			long double ax = (long double)s.d[i] * xj[i];
			if ( i >= 1 ) ax += (long double)s.dl[i - 1] * xj[i - 1];
			if ( i + 1 < n ) ax += (long double)s.du[i] * xj[i + 1];
			long double r = fabsl( ax - bj[i] );
			bad |= !std::isfinite( (double)xj[i] );
			rn = std::max( rn, r );
			xn = std::max( xn, fabsl( (long double)xj[i] ) );
			bn = std::max( bn, fabsl( (long double)bj[i] ) );
		}
		if ( bad ) return INFINITY;
		long double den = anorm * xn + bn;
		worst           = std::max( worst, den > 0 ? rn / den : rn );
	}
	return (double)worst;
}

template <typename T> constexpr double unit_roundoff()
{
	return sizeof( T ) == 8 ? 0x1p-53 : 0x1p-24;
}

template <typename T> constexpr char prec_char()
{
	return sizeof( T ) == 8 ? 'd' : 's';
}

/* CPU reference solution (serial Thomas = LAPACK without swaps, or the CPU SPIKE). */
template <typename T> Buf<T> cpu_reference( const HostSys<T>& s, int64_t m, bool serial );

template <> Buf<double> cpu_reference<double>( const HostSys<double>& s, int64_t m, bool serial )
{
	Buf<double> x( s.b ), dl( s.dl ), d( s.d );
	int64_t     info = 0;
	if ( serial )
		hyb_dgtsv_thomas( s.n, s.nrhs, dl.data(), d.data(), s.du.data(), x.data(), s.n, &info );
	else
		hyb_dgtsv_cpu_spike( s.n, s.nrhs, dl.data(), d.data(), s.du.data(), x.data(), s.n, m, 0,
		                     0 );
	return x;
}

template <> Buf<float> cpu_reference<float>( const HostSys<float>& s, int64_t m, bool serial )
{
	Buf<float> x( s.b ), dl( s.dl ), d( s.d );
	int64_t    info = 0;
	if ( serial )
		hyb_sgtsv_thomas( s.n, s.nrhs, dl.data(), d.data(), s.du.data(), x.data(), s.n, &info );
	else
		hyb_sgtsv_cpu_spike( s.n, s.nrhs, dl.data(), d.data(), s.du.data(), x.data(), s.n, m, 0,
		                     0 );
	return x;
}

/* The window the dispatcher would use: from the check's dominance, eq. 8. */
template <typename T> int64_t window_of( const HostSys<T>& s, double* dom_out )
{
	hyb_gtsv_check_t c;
	if ( sizeof( T ) == 8 )
		hyb_dgtsv_check( s.n, (const double*)s.dl.data(), (const double*)s.d.data(),
		                 (const double*)s.du.data(), HYB_GTSV_WINDOW_MAX, 0, &c );
	else
		hyb_sgtsv_check( s.n, (const float*)s.dl.data(), (const float*)s.d.data(),
		                 (const float*)s.du.data(), HYB_GTSV_WINDOW_MAX, 0, &c );
	double dom = std::max( c.dom_row, c.dom_col );
	*dom_out   = dom;
	return hyb_policy_gtsv_window( dom, sizeof( T ) == 8 ? HYB_PREC_D : HYB_PREC_S );
}

bool verdict( double be, double be_ref, double u )
{
	bool ok = std::isfinite( be ) && be <= 10 * std::max( be_ref, u );
	if ( !ok ) g_failures++;
	return ok;
}

/* The pivots d' (LAPACK's D without swaps) of the system: the kernel's out against the
   serial recurrence from `first` in double on the same values; max relative error in units
   of the precision's epsilon. */
template <typename T> double pivots_err( const HostSys<T>& s, const T* out, double first )
{
	const int64_t n   = s.n;
	double        ref = first, worst = fabs( (double)out[0] - ref ) / fabs( ref );
	for ( int64_t i = 1; i < n; i++ )
	{
		ref      = (double)s.d[i] - ( (double)s.dl[i - 1] / ref ) * (double)s.du[i - 1];
		double e = fabs( (double)out[i] - ref ) / fabs( ref );
		if ( !( e <= worst ) ) worst = e; /* NaN shows */
	}
	return worst / ( 2 * unit_roundoff<T>() );
}

cudaError_t pivots( int64_t n, const double* dl, const double* d, const double* du, double* out,
                    double first, int64_t warm, cudaStream_t st, bool emul )
{
	return emul ? hyb_dgtsv_cuda_pivots_emulate( n, dl, d, du, out, first, warm )
	            : hyb_dgtsv_cuda_pivots( n, dl, d, du, out, first, warm, st );
}

cudaError_t pivots( int64_t n, const float* dl, const float* d, const float* du, float* out,
                    float first, int64_t warm, cudaStream_t st, bool emul )
{
	return emul ? hyb_sgtsv_cuda_pivots_emulate( n, dl, d, du, out, first, warm )
	            : hyb_sgtsv_cuda_pivots( n, dl, d, du, out, first, warm, st );
}

bool pivots_verdict( double err_eps )
{
	bool ok = err_eps <= 8;
	if ( !ok ) g_failures++;
	return ok;
}

/* ---------------------------------------------------------------------------------------
   Emulation (no device): the kernels' code on the host.
   --------------------------------------------------------------------------------------- */
template <typename T> cudaError_t emulate( const HostSys<T>& s, T* x, int64_t m );

template <> cudaError_t emulate<double>( const HostSys<double>& s, double* x, int64_t m )
{
	return hyb_dgtsv_cuda_spike_emulate( s.n, s.nrhs, s.dl.data(), s.d.data(), s.du.data(), x, s.n,
	                                     m );
}

template <> cudaError_t emulate<float>( const HostSys<float>& s, float* x, int64_t m )
{
	return hyb_sgtsv_cuda_spike_emulate( s.n, s.nrhs, s.dl.data(), s.d.data(), s.du.data(), x, s.n,
	                                     m );
}

template <typename T>
void emulate_case( int64_t n, int64_t nrhs, int kind, double dom, uint64_t seed )
{
	HostSys<T>  s   = host_make<T>( n, nrhs, seed, kind, dom );
	double      dm  = 0;
	int64_t     m   = window_of( s, &dm );
	Buf<T>      ref = cpu_reference( s, m, true );
	Buf<T>      x( s.b );
	cudaError_t err = emulate<T>( s, x.data(), m );
	double      be  = err == cudaSuccess ? berr( s, x.data() ) : INFINITY;
	double      br  = berr( s, ref.data() );
	bool        ok  = verdict( be, br, unit_roundoff<T>() );
	printf( "emul  %c %4ld %9ld %s %6.2f %5ld | berr %9.2e ref %9.2e %s\n", prec_char<T>(),
	        (long)nrhs, (long)n, kind == ROW ? "row" : "col", dom, (long)m, be, br,
	        ok ? "ok" : "WRONG" );
}

/* The pivots kernel's code on the host, from first = d[0] and from a first 0.3 further from
   zero (the system stays dominant). */
template <typename T> void emulate_pivots_case( int64_t n, double dom, uint64_t seed )
{
	HostSys<T> s  = host_make<T>( n, 1, seed, ROW, dom );
	double     dm = 0;
	int64_t    w  = window_of( s, &dm );
	for ( int shifted = 0; shifted < 2; shifted++ )
	{
		T           first = (T)( (double)s.d[0] + copysign( 0.3, (double)s.d[0] ) * shifted );
		Buf<T>      out( (size_t)n );
		cudaError_t err =
		    pivots( n, s.dl.data(), s.d.data(), s.du.data(), out.data(), first, w, nullptr, true );
		double e  = err == cudaSuccess ? pivots_err( s, out.data(), (double)first ) : INFINITY;
		bool   ok = pivots_verdict( e );
		printf( "pivots %c %9ld %6.2f %5ld %5ld %s | max rel. error %6.2f eps %s\n", prec_char<T>(),
		        (long)n, dom, (long)w, (long)std::min<int64_t>( hyb_gtsv_cuda_pivots_part( w ), n ),
		        shifted ? "d0+-.3" : "d0    ", e, ok ? "ok" : "WRONG" );
	}
}

int run_emulation( bool quick )
{
	printf( "# emulation of the GPU kernels on the host (no device used)\n" );
	printf( "# mode  p nrhs         n kind    dom     m | backward error    reference\n" );
	const int64_t  ns_full[]  = { 1, 2, 3, 9, 100, 1000, 4099, 70001 };
	const int64_t  ns_quick[] = { 1, 2, 3, 9, 1000, 20011 };
	const double   doms[]     = { 1.05, 2.0, 10.0 };
	const int64_t  rhs[]      = { 1, 3, 5 };
	uint64_t       seed       = 1;
	const int64_t* ns         = quick ? ns_quick : ns_full;
	size_t nns = quick ? sizeof ns_quick / sizeof ns_quick[0] : sizeof ns_full / sizeof ns_full[0];
	for ( size_t a = 0; a < nns; a++ )
		for ( double dom : doms )
			for ( int kind = ROW; kind <= COL; kind++ )
			{
				int64_t nrhs = rhs[( a + (size_t)kind ) % 3];
				emulate_case<double>( ns[a], nrhs, kind, dom, seed++ );
				emulate_case<float>( ns[a], nrhs, kind, dom, seed++ );
			}
	printf( "# pivots (hyb_?gtsv_cuda_pivots emulated), row dominant, warm = the window\n" );
	printf(
	    "# kind p         n    dom  warm     P first  | vs. the serial recurrence in double\n" );
	for ( size_t a = 0; a < nns; a++ )
		for ( double dom : { 1.05, 3.0, 10.0 } )
		{
			emulate_pivots_case<double>( ns[a], dom, seed++ );
			emulate_pivots_case<float>( ns[a], dom, seed++ );
		}
	printf( "# %s: %d wrong\n", g_failures ? "FAILED" : "passed", g_failures );
	return g_failures ? 1 : 0;
}

/* ---------------------------------------------------------------------------------------
   Part 0: the CPU SPIKE on this host (the heterogeneous solver's other device), measured
   against plain OpenMP loops that move the same bytes, so that the lead can see how close
   to the host's bandwidth it runs. The dgtsv_ path is check + SPIKE with factors.
   --------------------------------------------------------------------------------------- */
double stream24( int64_t n, const double* a, const double* b, const double* c )
{
	double s = 0;
#pragma omp parallel for reduction( + : s )
	for ( int64_t i = 0; i < n; i++ ) s += a[i] + b[i] + c[i];
	return s;
}

void stream56( int64_t n, double* a, double* b, const double* c, double* x )
{
#pragma omp parallel for
	for ( int64_t i = 0; i < n; i++ )
	{
		double t = a[i] + b[i] + c[i] + x[i];
		b[i]     = t;
		a[i]     = 0;
		x[i]     = 0.5 * t;
	}
}

void run_cpu_kind( bool quick, int kind )
{
	const int64_t    n = quick ? ( (int64_t)1 << 22 ) : ( (int64_t)1 << 27 );
	HostSys<double>  s = host_make<double>( n, 1, 5, kind, 3.0 );
	Buf<double>      dl( s.dl ), d( s.d ), b( s.b );
	double           dm      = 0;
	int64_t          m       = window_of( s, &dm );
	double           best[5] = { 1e30, 1e30, 1e30, 1e30, 1e30 }, sink = 0;
	hyb_gtsv_check_t c;
	for ( int rep = 0; rep < 3; rep++ )
	{
		double t = omp_get_wtime();
		hyb_dgtsv_check( n, dl.data(), d.data(), s.du.data(), HYB_GTSV_WINDOW_MAX, 0, &c );
		best[0] = std::min( best[0], omp_get_wtime() - t );
		t       = omp_get_wtime();
		sink += stream24( n, dl.data(), d.data(), s.du.data() );
		best[1] = std::min( best[1], omp_get_wtime() - t );
		t       = omp_get_wtime();
		hyb_dgtsv_cpu_spike( n, 1, dl.data(), d.data(), s.du.data(), b.data(), n, m, 0,
		                     HYB_GTSV_FACTORS );
		best[2] = std::min( best[2], omp_get_wtime() - t );
		t       = omp_get_wtime();
		stream56( n, dl.data(), d.data(), s.du.data(), b.data() );
		best[3] = std::min( best[3], omp_get_wtime() - t );
		memcpy( dl.data(), s.dl.data(), (size_t)n * sizeof( double ) );
		memcpy( d.data(), s.d.data(), (size_t)n * sizeof( double ) );
		memcpy( b.data(), s.b.data(), (size_t)n * sizeof( double ) );
		t = omp_get_wtime();
		hyb_dgtsv_cpu_spike( n, 1, dl.data(), d.data(), s.du.data(), b.data(), n, m, 0, 0 );
		best[4] = std::min( best[4], omp_get_wtime() - t );
		memcpy( b.data(), s.b.data(), (size_t)n * sizeof( double ) );
	}
	double total = best[0] + best[2];
	printf( "# part 0: CPU on this host, %d threads, n = %ld, double, %s dominant dom 3 (m = %ld, "
	        "LAPACK pivot step %ld)\n",
	        omp_get_max_threads(), (long)n, kind == ROW ? "row" : "column", (long)m,
	        (long)c.pivot );
	printf( "#   check            %8.1f ms %6.1f GB/s (24 B/row); same-traffic loop %6.1f GB/s\n",
	        best[0] * 1e3, 24.0 * n / best[0] / 1e9, 24.0 * n / best[1] / 1e9 );
	printf( "#   SPIKE + factors  %8.1f ms %6.1f GB/s (56 B/row); same-traffic loop %6.1f GB/s\n",
	        best[2] * 1e3, 56.0 * n / best[2] / 1e9, 56.0 * n / best[3] / 1e9 );
	printf( "#   SPIKE solve only %8.1f ms %6.1f GB/s (40 B/row)\n", best[4] * 1e3,
	        40.0 * n / best[4] / 1e9 );
	printf( "#   dgtsv_ path (check + SPIKE + factors): %.0f M rows/s = %.1fx the LAPACK anchor "
	        "(75 M rows/s; target 15x)%s\n",
	        n / total / 1e6, n / total / 75e6, sink == 1.5 ? " " : "" );
	fflush( stdout );
}

/* Column dominant (no pivoting: the check proves it without the recurrence) and row
   dominant (the check runs LAPACK's recurrence; such a matrix usually pivots, so dispatch
   would use SPIKE for X only or LAPACK: timed anyway as the check's worst case). */
void run_cpu_part( bool quick )
{
	run_cpu_kind( quick, COL );
	run_cpu_kind( quick, ROW );
}

/* ---------------------------------------------------------------------------------------
   Device runs.
   --------------------------------------------------------------------------------------- */
template <typename T>
cudaError_t gpu_solve( int64_t n, int64_t nrhs, const T* dl, const T* d, const T* du, T* b,
                       int64_t m, cudaStream_t st );

template <>
cudaError_t gpu_solve<double>( int64_t n, int64_t nrhs, const double* dl, const double* d,
                               const double* du, double* b, int64_t m, cudaStream_t st )
{
	return hyb_dgtsv_cuda_spike( n, nrhs, dl, d, du, b, n, m, st );
}

template <>
cudaError_t gpu_solve<float>( int64_t n, int64_t nrhs, const float* dl, const float* d,
                              const float* du, float* b, int64_t m, cudaStream_t st )
{
	return hyb_sgtsv_cuda_spike( n, nrhs, dl, d, du, b, n, m, st );
}

cusparseStatus_t sp_buffer( cusparseHandle_t h, int n, int nrhs, const double* dl, const double* d,
                            const double* du, const double* b, size_t* bytes )
{
	return cusparseDgtsv2_nopivot_bufferSizeExt( h, n, nrhs, dl, d, du, b, n, bytes );
}

cusparseStatus_t sp_buffer( cusparseHandle_t h, int n, int nrhs, const float* dl, const float* d,
                            const float* du, const float* b, size_t* bytes )
{
	return cusparseSgtsv2_nopivot_bufferSizeExt( h, n, nrhs, dl, d, du, b, n, bytes );
}

cusparseStatus_t sp_solve( cusparseHandle_t h, int n, int nrhs, const double* dl, const double* d,
                           const double* du, double* b, void* buf )
{
	return cusparseDgtsv2_nopivot( h, n, nrhs, dl, d, du, b, n, buf );
}

cusparseStatus_t sp_solve( cusparseHandle_t h, int n, int nrhs, const float* dl, const float* d,
                           const float* du, float* b, void* buf )
{
	return cusparseSgtsv2_nopivot( h, n, nrhs, dl, d, du, b, n, buf );
}

struct Ctx
{
	cudaStream_t     stream;
	cusparseHandle_t sparse;
	cudaEvent_t      e0, e1;
};

/* Median of `reps` timed runs after `warm` untimed ones; b is restored from b0 before each
   run (not timed; nothing restored when bytes = 0). f(b) queues one solve on ctx.stream. */
template <typename F, typename T>
double time_median( const Ctx& c, F f, T* b, const T* b0, size_t bytes, int warm, int reps )
{
	std::vector<float> ms;
	for ( int r = 0; r < warm + reps; r++ )
	{
		if ( bytes > 0 )
			CK_CUDA( cudaMemcpyAsync( b, b0, bytes, cudaMemcpyDeviceToDevice, c.stream ) );
		CK_CUDA( cudaEventRecord( c.e0, c.stream ) );
		f( b );
		CK_CUDA( cudaEventRecord( c.e1, c.stream ) );
		CK_CUDA( cudaEventSynchronize( c.e1 ) );
		float t = 0;
		CK_CUDA( cudaEventElapsedTime( &t, c.e0, c.e1 ) );
		if ( r >= warm ) ms.push_back( t );
	}
	std::sort( ms.begin(), ms.end() );
	return ms[ms.size() / 2];
}

/* One case on the device: generate, solve with ours and cuSPARSE, check both, time both. */
template <typename T>
void device_case( const Ctx& c, int64_t n, int64_t nrhs, int kind, double dom, uint64_t seed,
                  bool timed, bool serial_ref )
{
	const size_t row = sizeof( T );
	T *          dl, *d, *du, *b, *b0, *dlc, *duc;
	size_t       nb = (size_t)n * (size_t)nrhs * row;
	CK_CUDA( cudaMalloc( &dl, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &du, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &d, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &dlc, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &duc, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &b, nb ) );
	CK_CUDA( cudaMalloc( &b0, nb ) );
	k_gen_off<T><<<1024, 256, 0, c.stream>>>( n, seed, dl, du );
	k_gen_diag<T><<<1024, 256, 0, c.stream>>>( n, seed, kind, dom, dl, du, d );
	k_gen_rhs<T><<<1024, 256, 0, c.stream>>>( n, nrhs, seed, b0 );
	k_align<T><<<1024, 256, 0, c.stream>>>( n, dl, du, dlc, duc );
	CK_CUDA( cudaGetLastError() );

	/* The host copy of the same system (for the check and the reference). */
	HostSys<T> s;
	s.n    = n;
	s.nrhs = nrhs;
	s.dl   = Buf<T>( (size_t)n );
	s.du   = Buf<T>( (size_t)n );
	s.d    = Buf<T>( (size_t)n );
	s.b    = Buf<T>( (size_t)( n * nrhs ) );
	CK_CUDA(
	    cudaMemcpyAsync( s.dl.data(), dl, (size_t)n * row, cudaMemcpyDeviceToHost, c.stream ) );
	CK_CUDA(
	    cudaMemcpyAsync( s.du.data(), du, (size_t)n * row, cudaMemcpyDeviceToHost, c.stream ) );
	CK_CUDA( cudaMemcpyAsync( s.d.data(), d, (size_t)n * row, cudaMemcpyDeviceToHost, c.stream ) );
	CK_CUDA( cudaMemcpyAsync( s.b.data(), b0, nb, cudaMemcpyDeviceToHost, c.stream ) );
	CK_CUDA( cudaStreamSynchronize( c.stream ) );
	double  dm = 0;
	int64_t m  = window_of( s, &dm );
	if ( m < 1 ) m = HYB_GTSV_WINDOW_MAX; /* the generator guarantees dom; reported below */

	/* cuSPARSE buffer. */
	size_t sbytes = 0;
	void*  sbuf   = nullptr;
	CK_SPARSE( sp_buffer( c.sparse, (int)n, (int)nrhs, dlc, d, duc, b0, &sbytes ) );
	CK_CUDA( cudaMalloc( &sbuf, std::max<size_t>( sbytes, 16 ) ) );

	auto ours = [&]( T* bb ) { CK_CUDA( gpu_solve<T>( n, nrhs, dl, d, du, bb, m, c.stream ) ); };
	auto cusp = [&]( T* bb )
	{ CK_SPARSE( sp_solve( c.sparse, (int)n, (int)nrhs, dlc, d, duc, bb, sbuf ) ); };

	double t_ours = 0, t_cusp = 0;
	int    warm = timed ? 2 : 0, reps = timed ? 7 : 1;
	t_ours = time_median( c, ours, b, b0, nb, warm, reps );
	Buf<T> x( (size_t)( n * nrhs ) ), xs( (size_t)( n * nrhs ) );
	CK_CUDA( cudaMemcpy( x.data(), b, nb, cudaMemcpyDeviceToHost ) );
	t_cusp = time_median( c, cusp, b, b0, nb, warm, reps );
	CK_CUDA( cudaMemcpy( xs.data(), b, nb, cudaMemcpyDeviceToHost ) );

	Buf<T> ref = cpu_reference( s, m, serial_ref );
	double be  = berr( s, x.data() );
	double bs  = berr( s, xs.data() );
	double br  = berr( s, ref.data() );
	bool   ok  = verdict( be, br, unit_roundoff<T>() ) && dm >= dom;
	if ( !( dm >= dom ) ) g_failures++;
	double gbs = hyb_gtsv_cuda_bytes( n, nrhs, row, m ) / ( t_ours * 1e-3 ) / 1e9;
	printf( "%c %4ld %10ld %s %6.2f %5ld | %8.3f %8.3f | %8.0f %8.0f | %5.2fx | %6.0f | %9.2e "
	        "%9.2e %9.2e %s\n",
	        prec_char<T>(), (long)nrhs, (long)n, kind == ROW ? "row" : "col", dom, (long)m, t_ours,
	        t_cusp, (double)n / t_ours / 1e3, (double)n / t_cusp / 1e3, t_cusp / t_ours, gbs, be,
	        bs, br, ok ? "ok" : "WRONG" );
	fflush( stdout );

	cudaFree( sbuf );
	cudaFree( dl );
	cudaFree( du );
	cudaFree( d );
	cudaFree( dlc );
	cudaFree( duc );
	cudaFree( b );
	cudaFree( b0 );
}

/* Part 3: the pivots kernel on the device, dominance 3, first = d[0]. */
template <typename T> void device_pivots_case( const Ctx& c, int64_t n, uint64_t seed )
{
	const size_t row = sizeof( T );
	T *          dl, *d, *du, *out;
	CK_CUDA( cudaMalloc( &dl, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &du, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &d, (size_t)n * row ) );
	CK_CUDA( cudaMalloc( &out, (size_t)n * row ) );
	k_gen_off<T><<<1024, 256, 0, c.stream>>>( n, seed, dl, du );
	k_gen_diag<T><<<1024, 256, 0, c.stream>>>( n, seed, ROW, 3.0, dl, du, d );
	CK_CUDA( cudaGetLastError() );
	HostSys<T> s;
	s.n  = n;
	s.dl = Buf<T>( (size_t)n );
	s.du = Buf<T>( (size_t)n );
	s.d  = Buf<T>( (size_t)n );
	CK_CUDA(
	    cudaMemcpyAsync( s.dl.data(), dl, (size_t)n * row, cudaMemcpyDeviceToHost, c.stream ) );
	CK_CUDA(
	    cudaMemcpyAsync( s.du.data(), du, (size_t)n * row, cudaMemcpyDeviceToHost, c.stream ) );
	CK_CUDA( cudaMemcpyAsync( s.d.data(), d, (size_t)n * row, cudaMemcpyDeviceToHost, c.stream ) );
	CK_CUDA( cudaStreamSynchronize( c.stream ) );
	double  dm = 0;
	int64_t w  = window_of( s, &dm );
	if ( w < 1 ) w = HYB_GTSV_WINDOW_MAX;
	T      first = s.d[0];
	auto   run   = [&]( T* o ) { CK_CUDA( pivots( n, dl, d, du, o, first, w, c.stream, false ) ); };
	double ms    = time_median( c, run, out, (const T*)nullptr, 0, 2, 7 );
	Buf<T> h( (size_t)n );
	CK_CUDA( cudaMemcpy( h.data(), out, (size_t)n * row, cudaMemcpyDeviceToHost ) );
	double  e     = pivots_err( s, h.data(), (double)first );
	int64_t P     = std::min<int64_t>( hyb_gtsv_cuda_pivots_part( w ), n );
	double  bytes = (double)row * ( 4.0 * (double)n + 3.0 * (double)w * (double)( ( n - 1 ) / P ) );
	bool    ok    = pivots_verdict( e ) && dm >= 3.0;
	if ( !( dm >= 3.0 ) ) g_failures++;
	printf( "%c %10ld %5ld %5ld | %8.3f %6.0f | %6.2f eps %s\n", prec_char<T>(), (long)n, (long)w,
	        (long)P, ms, bytes / ( ms * 1e-3 ) / 1e9, e, ok ? "ok" : "WRONG" );
	fflush( stdout );
	cudaFree( dl );
	cudaFree( du );
	cudaFree( d );
	cudaFree( out );
}

int run_device( bool quick )
{
	Ctx c;
	CK_CUDA( cudaStreamCreate( &c.stream ) );
	CK_SPARSE( cusparseCreate( &c.sparse ) );
	CK_SPARSE( cusparseSetStream( c.sparse, c.stream ) );
	CK_CUDA( cudaEventCreate( &c.e0 ) );
	CK_CUDA( cudaEventCreate( &c.e1 ) );

	cudaDeviceProp prop;
	int            dev = 0, rt = 0, drv = 0, spv = 0;
	CK_CUDA( cudaGetDevice( &dev ) );
	CK_CUDA( cudaGetDeviceProperties( &prop, dev ) );
	cudaRuntimeGetVersion( &rt );
	cudaDriverGetVersion( &drv );
	cusparseGetVersion( c.sparse, &spv );
	printf( "# device %s (sm_%d%d, %d SMs, %.0f GiB), CUDA runtime %d, driver %d, cuSPARSE %d, "
	        "host threads %d\n",
	        prop.name, prop.major, prop.minor, prop.multiProcessorCount,
	        (double)prop.totalGlobalMem / ( 1 << 30 ), rt, drv, spv, omp_get_max_threads() );
	printf( "# times in ms (median of 7 after 2 warm-ups, CUDA events, data on the device); "
	        "rates in M rows/s; GB/s = our bytes (hyb_gtsv_cuda_bytes) / our time\n" );
	printf( "# p nrhs          n kind    dom     m |     ours   cusparse |     ours cusparse | "
	        "speedup |   GB/s "
	        "| berr ours  cusparse reference\n" );

	run_cpu_part( quick );

	/* Part 1: correctness over dominance, kinds, odd sizes. */
	printf( "# part 1: correctness (serial CPU reference)\n" );
	const double  doms[] = { 1.05, 1.2, 2.0, 3.0, 10.0 };
	const int64_t n1[2]  = { quick ? ( 1 << 18 ) : ( 1 << 20 ),
		                    ( quick ? ( 1 << 18 ) : ( 1 << 20 ) ) + 12345 };
	uint64_t seed = 100;
	for ( int64_t n : n1 )
		for ( double dom : doms )
			for ( int kind = ROW; kind <= COL; kind++ )
				for ( int64_t nrhs : { (int64_t)1, (int64_t)4 } )
				{
					device_case<double>( c, n, nrhs, kind, dom, seed++, false, true );
					device_case<float>( c, n, nrhs, kind, dom, seed++, false, true );
				}

	/* Part 2: timing against cuSPARSE. */
	printf( "# part 2: timing (CPU SPIKE reference)\n" );
	int lg_max = quick ? 22 : 27;
	for ( int lg = 20; lg <= lg_max; lg++ )
		for ( int64_t nrhs : { (int64_t)1, (int64_t)4 } )
		{
			device_case<double>( c, (int64_t)1 << lg, nrhs, ROW, 3.0, seed++, true, false );
			device_case<float>( c, (int64_t)1 << lg, nrhs, ROW, 3.0, seed++, true, false );
		}
	for ( double dom : { 1.05, 1.5, 10.0 } )
	{
		device_case<double>( c, (int64_t)1 << lg_max, 1, ROW, dom, seed++, true, false );
		device_case<float>( c, (int64_t)1 << lg_max, 1, ROW, dom, seed++, true, false );
	}

	/* Part 3: the pivots kernel. */
	printf(
	    "# part 3: pivots kernel (hyb_?gtsv_cuda_pivots), row dominant dom 3, warm = the window, "
	    "first = d[0]; ms per call (median of 7 after 2 warm-ups), GB/s of its bytes, max "
	    "relative error against the serial recurrence in double (wrong above 8 eps)\n" );
	printf( "# p          n  warm     P |       ms   GB/s | error\n" );
	for ( int lg : { 21, 24 } )
	{
		if ( quick && lg > 21 ) break;
		device_pivots_case<double>( c, (int64_t)1 << lg, seed++ );
		device_pivots_case<float>( c, (int64_t)1 << lg, seed++ );
	}

	cusparseDestroy( c.sparse );
	cudaStreamDestroy( c.stream );
	printf( "# %s: %d wrong\n", g_failures ? "FAILED" : "passed", g_failures );
	return g_failures ? 1 : 0;
}

} /* namespace */

int main( int argc, char** argv )
{
	bool quick = false, emul = false, cpu = false;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--quick" ) == 0 )
			quick = true;
		else if ( strcmp( argv[i], "--emulate" ) == 0 )
			emul = true;
		else if ( strcmp( argv[i], "--cpu" ) == 0 )
			cpu = true;
		else
		{
			fprintf( stderr, "usage: %s [--quick] [--emulate] [--cpu]\n", argv[0] );
			return 2;
		}
	}
	if ( emul ) return run_emulation( quick );
	if ( cpu )
	{
		run_cpu_part( quick );
		return 0;
	}
	int ndev = 0;
	if ( cudaGetDeviceCount( &ndev ) != cudaSuccess || ndev == 0 )
	{
		printf(
		    "# no CUDA device: skipped (run with --emulate to check the kernels on the host)\n" );
		return 77;
	}
	return run_device( quick );
}
