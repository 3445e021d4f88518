/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 family's kernels on the simulated device: straightforward reference
   products, independent of any BLAS (so that pipeline tests compare two different
   codes), their sim launchers, and the registration of l3.gemm, l3.trsm, l3.trmm. */
#include <complex.h>
#include <stdlib.h>

#include "hyb_cmplx.h"
#include "kernels/l3/hyb_l3_kernels.h"

typedef double _Complex hyb_zc;

static inline hyb_zc hyb_ld( hyb_prec_t p, const void* base, int64_t idx )
{
	switch ( p )
	{
	case HYB_PREC_S:
		return ( (const float*)base )[idx];
	case HYB_PREC_D:
		return ( (const double*)base )[idx];
	case HYB_PREC_C:
		return CMPLX( ( (const float*)base )[2 * idx], ( (const float*)base )[2 * idx + 1] );
	default:
		return CMPLX( ( (const double*)base )[2 * idx], ( (const double*)base )[2 * idx + 1] );
	}
}

static inline void hyb_st( hyb_prec_t p, void* base, int64_t idx, hyb_zc v )
{
	switch ( p )
	{
	case HYB_PREC_S:
		( (float*)base )[idx] = (float)creal( v );
		break;
	case HYB_PREC_D:
		( (double*)base )[idx] = creal( v );
		break;
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
static inline hyb_zc hyb_op_at( hyb_prec_t p, char t, const void* x, int64_t ld, int64_t i,
                                int64_t j )
{
	if ( t == 'N' ) return hyb_ld( p, x, i + j * ld );
	hyb_zc v = hyb_ld( p, x, j + i * ld );
	return t == 'C' ? conj( v ) : v;
}

/* Real double fast path: the common case in tests, kept readable. */
static hyb_status_t hyb_l3_dgemm_ref( char ta, char tb, int64_t m, int64_t n, int64_t k,
                                      double alpha, const double* a, int64_t lda, const double* b,
                                      int64_t ldb, double beta, double* c, int64_t ldc )
{
	double* col = malloc( (size_t)( m > 0 ? m : 1 ) * sizeof *col );
	if ( col == NULL ) return HYB_E_NO_MEMORY;
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
	return HYB_OK;
}

static hyb_status_t hyb_l3_gemm_ref( hyb_prec_t prec, char ta, char tb, int64_t m, int64_t n,
                                     int64_t k, const double alpha[2], const void* a, int64_t lda,
                                     const void* b, int64_t ldb, const double beta[2], void* c,
                                     int64_t ldc )
{
	if ( prec == HYB_PREC_D )
		return hyb_l3_dgemm_ref( ta == 'C' ? 'T' : ta, tb == 'C' ? 'T' : tb, m, n, k, alpha[0], a,
		                         lda, b, ldb, beta[0], c, ldc );
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
	return HYB_OK;
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

static void hyb_l3_trsm_ref( hyb_prec_t prec, char side, char uplo, char trans, char diag,
                             int64_t m, int64_t n, const double alpha[2], const void* a,
                             int64_t lda, void* b, int64_t ldb )
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
					v -= hyb_tri_at( prec, uplo, trans, diag, a, lda, i, l ) *
					     hyb_ld( prec, b, l + j * ldb );
				}
				hyb_st( prec, b, i + j * ldb,
				        v / hyb_tri_at( prec, uplo, trans, diag, a, lda, i, i ) );
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
					v -= hyb_ld( prec, b, i + l * ldb ) *
					     hyb_tri_at( prec, uplo, trans, diag, a, lda, l, j );
				}
				hyb_st( prec, b, i + j * ldb,
				        v / hyb_tri_at( prec, uplo, trans, diag, a, lda, j, j ) );
			}
	}
}

static void hyb_l3_trmm_ref( hyb_prec_t prec, char side, char uplo, char trans, char diag,
                             int64_t m, int64_t n, const double alpha[2], const void* a,
                             int64_t lda, const void* b, int64_t ldb, void* c, int64_t ldc )
{
	hyb_zc  al  = CMPLX( alpha[0], alpha[1] );
	int64_t dim = side == 'L' ? m : n;
	for ( int64_t j = 0; j < n; j++ )
		for ( int64_t i = 0; i < m; i++ )
		{
			hyb_zc s = 0;
			for ( int64_t l = 0; l < dim; l++ )
				s += side == 'L' ? hyb_tri_at( prec, uplo, trans, diag, a, lda, i, l ) *
				                       hyb_ld( prec, b, l + j * ldb )
				                 : hyb_ld( prec, b, i + l * ldb ) *
				                       hyb_tri_at( prec, uplo, trans, diag, a, lda, l, j );
			hyb_st( prec, c, i + j * ldc, al * s );
		}
}

/* ------------------------------------------------------------ launchers */

static hyb_status_t hyb_l3_gemm_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_l3_gemm_kargs_t* x = args;
	(void)env;
	return hyb_l3_gemm_ref( x->prec, x->transa, x->transb, x->m, x->n, x->k, x->alpha, x->a, x->lda,
	                        x->b, x->ldb, x->beta, x->c, x->ldc );
}

static hyb_status_t hyb_l3_trsm_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_l3_tri_kargs_t* x = args;
	(void)env;
	hyb_l3_trsm_ref( x->prec, x->side, x->uplo, x->trans, x->diag, x->m, x->n, x->alpha, x->a,
	                 x->lda, x->b, x->ldb );
	return HYB_OK;
}

static hyb_status_t hyb_l3_trmm_sim( const hyb_kernel_env_t* env, const void* args )
{
	const hyb_l3_tri_kargs_t* x = args;
	(void)env;
	hyb_l3_trmm_ref( x->prec, x->side, x->uplo, x->trans, x->diag, x->m, x->n, x->alpha, x->a,
	                 x->lda, x->b, x->ldb, x->c, x->ldc );
	return HYB_OK;
}

/* Compute-bound: the simulated device charges the flops (a complex flop counts 4). */
static void hyb_l3_gemm_work( const void* args, double* flops, double* bytes )
{
	const hyb_l3_gemm_kargs_t* x = args;
	*flops                       = 2.0 * (double)x->m * (double)x->n * (double)x->k *
	         ( hyb_prec_is_complex( x->prec ) ? 4 : 1 );
	*bytes = 0;
}

/* trsm and trmm alike: m n (m or n) flops, by the side A applies from. */
static void hyb_l3_tri_work( const void* args, double* flops, double* bytes )
{
	const hyb_l3_tri_kargs_t* x = args;
	*flops = ( x->side == 'L' ? (double)x->m : (double)x->n ) * (double)x->m * (double)x->n;
	*bytes = 0;
}

HYB_KERNEL_DEFINE( hyb_l3_gemm_kernel, "l3.gemm", "gemm", hyb_l3_gemm_kargs_t, NULL,
                   hyb_l3_gemm_sim, hyb_l3_gemm_work );
HYB_KERNEL_DEFINE( hyb_l3_trsm_kernel, "l3.trsm", "trsm", hyb_l3_tri_kargs_t, NULL, hyb_l3_trsm_sim,
                   hyb_l3_tri_work );
HYB_KERNEL_DEFINE( hyb_l3_trmm_kernel, "l3.trmm", "trmm", hyb_l3_tri_kargs_t, NULL, hyb_l3_trmm_sim,
                   hyb_l3_tri_work );
