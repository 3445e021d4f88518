/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference dense kernels of the simulated device (see hyb_sim_kernels.h). */
#include "kernels/sim/hyb_sim_kernels.h"

#include <complex.h>
#include <stdlib.h>

typedef double _Complex hyb_zc;

static inline hyb_zc hyb_ld( hyb_prec_t p, const void* base, int64_t idx )
{
	switch ( p )
	{
	case HYB_PREC_S: return ( (const float*)base )[idx];
	case HYB_PREC_D: return ( (const double*)base )[idx];
	case HYB_PREC_C:
		return CMPLX( ( (const float*)base )[2 * idx], ( (const float*)base )[2 * idx + 1] );
	default: return CMPLX( ( (const double*)base )[2 * idx], ( (const double*)base )[2 * idx + 1] );
	}
}

static inline void hyb_st( hyb_prec_t p, void* base, int64_t idx, hyb_zc v )
{
	switch ( p )
	{
	case HYB_PREC_S: ( (float*)base )[idx] = (float)creal( v ); break;
	case HYB_PREC_D: ( (double*)base )[idx] = creal( v ); break;
	case HYB_PREC_C:
		( (float*)base )[2 * idx]     = (float)creal( v );
		( (float*)base )[2 * idx + 1] = (float)cimag( v );
		break;
	default:
		( (double*)base )[2 * idx]     = creal( v );
		( (double*)base )[2 * idx + 1] = cimag( v );
		break;
	}
}

/* op(X)(i, j) of a column-major matrix. */
static inline hyb_zc hyb_op_at( hyb_prec_t p, char t, const void* x, int64_t ld, int64_t i, int64_t j )
{
	if ( t == 'N' ) return hyb_ld( p, x, i + j * ld );
	hyb_zc v = hyb_ld( p, x, j + i * ld );
	return t == 'C' ? conj( v ) : v;
}

/* Real double fast path: the common case in tests, kept readable. */
static void hyb_sim_dgemm_nn_like( char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha,
                                   const double* a, int64_t lda, const double* b, int64_t ldb,
                                   double beta, double* c, int64_t ldc )
{
	double* col = malloc( (size_t)( m > 0 ? m : 1 ) * sizeof *col );
	if ( col == NULL ) abort(); /* simulated device in tests only */
	for ( int64_t j = 0; j < n; j++ )
	{
		for ( int64_t i = 0; i < m; i++ ) col[i] = 0;
		for ( int64_t l = 0; l < k; l++ )
		{
			double blj = tb == 'N' ? b[l + j * ldb] : b[j + l * ldb];
			if ( ta == 'N' )
				for ( int64_t i = 0; i < m; i++ ) col[i] += a[i + l * lda] * blj;
			else
				for ( int64_t i = 0; i < m; i++ ) col[i] += a[l + i * lda] * blj;
		}
		for ( int64_t i = 0; i < m; i++ )
			c[i + j * ldc] = alpha * col[i] + ( beta == 0.0 ? 0.0 : beta * c[i + j * ldc] );
	}
	free( col );
}

void hyb_sim_gemm( hyb_prec_t prec, char ta, char tb, int64_t m, int64_t n, int64_t k,
                   const double alpha[2], const void* a, int64_t lda, const void* b, int64_t ldb,
                   const double beta[2], void* c, int64_t ldc )
{
	if ( prec == HYB_PREC_D )
	{
		hyb_sim_dgemm_nn_like( ta == 'C' ? 'T' : ta, tb == 'C' ? 'T' : tb, m, n, k, alpha[0], a, lda,
		                       b, ldb, beta[0], c, ldc );
		return;
	}
	hyb_zc al = CMPLX( alpha[0], alpha[1] ), be = CMPLX( beta[0], beta[1] );
	int    beta_zero = beta[0] == 0.0 && beta[1] == 0.0;
	for ( int64_t j = 0; j < n; j++ )
		for ( int64_t i = 0; i < m; i++ )
		{
			hyb_zc s = 0;
			for ( int64_t l = 0; l < k; l++ )
				s += hyb_op_at( prec, ta, a, lda, i, l ) * hyb_op_at( prec, tb, b, ldb, l, j );
			hyb_zc old = beta_zero ? 0 : be * hyb_ld( prec, c, i + j * ldc );
			hyb_st( prec, c, i + j * ldc, al * s + old );
		}
}

/* op(A)(i, j) of a triangular matrix: zero outside the stored triangle, one
   on a unit diagonal. */
static inline hyb_zc hyb_tri_at( hyb_prec_t p, char uplo, char trans, char diag, const void* a,
                                 int64_t lda, int64_t i, int64_t j )
{
	int64_t r = trans == 'N' ? i : j, c = trans == 'N' ? j : i;
	if ( r == c && diag == 'U' ) return 1;
	if ( ( uplo == 'U' && r > c ) || ( uplo == 'L' && r < c ) ) return 0;
	return hyb_op_at( p, trans, a, lda, i, j );
}

void hyb_sim_trsm( hyb_prec_t prec, char side, char uplo, char trans, char diag, int64_t m,
                   int64_t n, const double alpha[2], const void* a, int64_t lda, void* b,
                   int64_t ldb )
{
	hyb_zc al = CMPLX( alpha[0], alpha[1] );
	/* Triangle of op(A): transposing flips it. */
	int lower = ( uplo == 'L' ) == ( trans == 'N' );
	if ( side == 'L' )
	{
		for ( int64_t j = 0; j < n; j++ )
			for ( int64_t s = 0; s < m; s++ )
			{
				int64_t i = lower ? s : m - 1 - s;
				hyb_zc  v = al * hyb_ld( prec, b, i + j * ldb );
				for ( int64_t t = 0; t < s; t++ )
				{
					int64_t l = lower ? t : m - 1 - t;
					v -= hyb_tri_at( prec, uplo, trans, diag, a, lda, i, l ) * hyb_ld( prec, b, l + j * ldb );
				}
				hyb_st( prec, b, i + j * ldb, v / hyb_tri_at( prec, uplo, trans, diag, a, lda, i, i ) );
			}
	}
	else
	{
		/* X op(A) = alpha B, solved column by column of X. */
		for ( int64_t i = 0; i < m; i++ )
			for ( int64_t s = 0; s < n; s++ )
			{
				int64_t j = lower ? n - 1 - s : s;
				hyb_zc  v = al * hyb_ld( prec, b, i + j * ldb );
				for ( int64_t t = 0; t < s; t++ )
				{
					int64_t l = lower ? n - 1 - t : t;
					v -= hyb_ld( prec, b, i + l * ldb ) * hyb_tri_at( prec, uplo, trans, diag, a, lda, l, j );
				}
				hyb_st( prec, b, i + j * ldb, v / hyb_tri_at( prec, uplo, trans, diag, a, lda, j, j ) );
			}
	}
}

void hyb_sim_trmm( hyb_prec_t prec, char side, char uplo, char trans, char diag, int64_t m,
                   int64_t n, const double alpha[2], const void* a, int64_t lda, const void* b,
                   int64_t ldb, void* c, int64_t ldc )
{
	hyb_zc  al  = CMPLX( alpha[0], alpha[1] );
	int64_t dim = side == 'L' ? m : n;
	for ( int64_t j = 0; j < n; j++ )
		for ( int64_t i = 0; i < m; i++ )
		{
			hyb_zc s = 0;
			for ( int64_t l = 0; l < dim; l++ )
				s += side == 'L' ? hyb_tri_at( prec, uplo, trans, diag, a, lda, i, l ) * hyb_ld( prec, b, l + j * ldb )
				                 : hyb_ld( prec, b, i + l * ldb ) * hyb_tri_at( prec, uplo, trans, diag, a, lda, l, j );
			hyb_st( prec, c, i + j * ldc, al * s );
		}
}

/* ------------------------------------------------------------ sparse */

/* Real element i of a real vector of precision p (sparse kernels are s/d). */
static inline double hyb_rld( hyb_prec_t p, const void* v, int64_t i )
{
	return p == HYB_PREC_S ? (double)( (const float*)v )[i] : ( (const double*)v )[i];
}

static inline void hyb_rst( hyb_prec_t p, void* v, int64_t i, double x )
{
	if ( p == HYB_PREC_S )
		( (float*)v )[i] = (float)x;
	else
		( (double*)v )[i] = x;
}

void hyb_sim_spmv_ell( hyb_prec_t prec, int64_t m, int64_t K, const int* index, const void* data,
                       const void* x, void* y, int accumulate )
{
	for ( int64_t i = 0; i < m; i++ )
	{
		double s = accumulate ? hyb_rld( prec, y, i ) : 0.0;
		for ( int64_t j = 0; j < K; j++ )
		{
			int c = index[j * m + i];
			if ( c >= 0 ) s += hyb_rld( prec, data, j * m + i ) * hyb_rld( prec, x, c );
		}
		hyb_rst( prec, y, i, s );
	}
}

void hyb_sim_spmv_dia( hyb_prec_t prec, int64_t m, int64_t ndiag, const int* offset, const void* data,
                       const void* x, void* y, int accumulate )
{
	for ( int64_t i = 0; i < m; i++ )
	{
		double s = accumulate ? hyb_rld( prec, y, i ) : 0.0;
		for ( int64_t d = 0; d < ndiag; d++ )
		{
			int64_t c = i + offset[d];
			if ( c >= 0 && c < m ) s += hyb_rld( prec, data, d * m + i ) * hyb_rld( prec, x, c );
		}
		hyb_rst( prec, y, i, s );
	}
}

void hyb_sim_spmv_csr( hyb_prec_t prec, int64_t rows, const int* ptr, const int* col, const void* val,
                       int base, const void* x, void* y, int accumulate )
{
	/* As the CUDA kernel: val and col are indexed relative to ptr[0], so a
	   slice of a larger matrix passes its own row pointers unchanged. */
	for ( int64_t i = 0; i < rows; i++ )
	{
		double s = accumulate ? hyb_rld( prec, y, i ) : 0.0;
		for ( int64_t e = ptr[i] - ptr[0]; e < ptr[i + 1] - ptr[0]; e++ )
			s += hyb_rld( prec, val, e ) * hyb_rld( prec, x, col[e] - base );
		hyb_rst( prec, y, i, s );
	}
}

void hyb_sim_vadd( hyb_prec_t prec, int64_t n, const void* z, void* y )
{
	for ( int64_t i = 0; i < n; i++ ) hyb_rst( prec, y, i, hyb_rld( prec, y, i ) + hyb_rld( prec, z, i ) );
}

void hyb_sim_gtsv( hyb_prec_t prec, int64_t n, int64_t nrhs, const void* dl, const void* d, const void* du,
                   void* b, int64_t ldb )
{
	if ( n <= 0 ) return;
	double* c = malloc( (size_t)n * sizeof *c ); /* modified superdiagonal */
	if ( c == NULL ) abort();                    /* simulated device in tests only */
	for ( int64_t r = 0; r < nrhs; r++ )
	{
		int64_t o     = r * ldb;
		double  denom = hyb_rld( prec, d, 0 );
		c[0]          = n > 1 ? hyb_rld( prec, du, 0 ) / denom : 0;
		hyb_rst( prec, b, o, hyb_rld( prec, b, o ) / denom );
		for ( int64_t i = 1; i < n; i++ )
		{
			double l = hyb_rld( prec, dl, i - 1 );
			denom    = hyb_rld( prec, d, i ) - l * c[i - 1];
			c[i]     = i < n - 1 ? hyb_rld( prec, du, i ) / denom : 0;
			hyb_rst( prec, b, o + i, ( hyb_rld( prec, b, o + i ) - l * hyb_rld( prec, b, o + i - 1 ) ) / denom );
		}
		for ( int64_t i = n - 2; i >= 0; i-- )
			hyb_rst( prec, b, o + i, hyb_rld( prec, b, o + i ) - c[i] * hyb_rld( prec, b, o + i + 1 ) );
	}
	free( c );
}

int64_t hyb_sim_gtsv_pivots_part( int64_t warm )
{
	return warm > 128 ? ( warm < INT64_MAX / 2 ? 2 * warm : INT64_MAX ) : 256;
}

/* One partition [lo, hi) of the pivots in the array's precision: the restart (from row
   s = max(0, lo - warm); rows s+1 .. lo-1 are not written), then the partition's rows. */
#define HYB_SIM_PIVOTS_PART( T, NAME ) \
	static void NAME( const T* dl, const T* d, const T* du, T* out, T first, int64_t lo, int64_t hi, \
	                  int64_t warm ) \
	{ \
		int64_t s = lo - warm <= 0 ? 0 : lo - warm; \
		T       c = s == 0 ? first : d[s]; \
		if ( lo == 0 ) out[0] = c; \
		for ( int64_t i = s + 1; i < lo; i++ ) c = d[i] - ( dl[i - 1] / c ) * du[i - 1]; \
		for ( int64_t i = lo > 0 ? lo : 1; i < hi; i++ ) \
		{ \
			c      = d[i] - ( dl[i - 1] / c ) * du[i - 1]; \
			out[i] = c; \
		} \
	}

HYB_SIM_PIVOTS_PART( float, hyb_sim_spivots_part )
HYB_SIM_PIVOTS_PART( double, hyb_sim_dpivots_part )

void hyb_sim_gtsv_pivots( hyb_prec_t prec, int64_t n, const void* dl, const void* d, const void* du,
                          void* out, double first, int64_t warm )
{
	int64_t part = hyb_sim_gtsv_pivots_part( warm );
	for ( int64_t lo = 0, hi; lo < n; lo = hi )
	{
		hi = n - lo > part ? lo + part : n;
		if ( prec == HYB_PREC_S )
			hyb_sim_spivots_part( dl, d, du, out, (float)first, lo, hi, warm );
		else
			hyb_sim_dpivots_part( dl, d, du, out, first, lo, hi, warm );
	}
}
