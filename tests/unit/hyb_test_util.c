/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared helpers of the white-box unit suites (see hyb_test_util.h). */
#define _GNU_SOURCE
#include "hyb_test_util.h"

#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dispatch/hyb_l3_memo.h"
#include "hyb_log.h"
#include "kernels/hyb_device.h"

/* ---------------------------------------------------------------- random */

hyb_t_rng_t hyb_t_rng( uint64_t seed )
{
	hyb_t_rng_t r = { seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull };
	return r;
}

uint64_t hyb_t_next( hyb_t_rng_t* r )
{
	uint64_t z = ( r->s += 0x9E3779B97F4A7C15ull );
	z          = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	return z ^ ( z >> 31 );
}

int64_t hyb_t_int( hyb_t_rng_t* r, int64_t lo, int64_t hi )
{
	uint64_t span = (uint64_t)( hi - lo ) + 1;
	return lo + (int64_t)( hyb_t_next( r ) % span );
}

double hyb_t_unit( hyb_t_rng_t* r )
{
	return (double)( hyb_t_next( r ) >> 11 ) * ( 2.0 / 9007199254740992.0 ) - 1.0;
}

int64_t hyb_t_below( hyb_t_rng_t* r, int64_t n )
{
	return n > 0 ? (int64_t)( hyb_t_next( r ) % (uint64_t)n ) : 0;
}

double hyb_t_frac( hyb_t_rng_t* r )
{
	return (double)( hyb_t_next( r ) >> 11 ) * 0x1.0p-53;
}

/* ---------------------------------------------------------------- elements */

double complex hyb_t_get( hyb_prec_t p, const void* base, int64_t idx )
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

void hyb_t_set( hyb_prec_t p, void* base, int64_t idx, double complex v )
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

void hyb_t_fill( hyb_t_rng_t* r, hyb_prec_t p, void* base, int64_t n )
{
	for ( int64_t i = 0; i < n; i++ )
	{
		double re = hyb_t_unit( r );
		double im = hyb_prec_is_complex( p ) ? hyb_t_unit( r ) : 0.0;
		hyb_t_set( p, base, i, CMPLX( re, im ) );
	}
}

int64_t hyb_t_idx( char layout, int64_t ld, int64_t i, int64_t j )
{
	return layout == 'R' ? i * ld + j : i + j * ld;
}

double hyb_t_eps( hyb_prec_t p )
{
	return ( p == HYB_PREC_S || p == HYB_PREC_C ) ? 5.960464477539063e-08 : 1.1102230246251565e-16;
}

/* ---------------------------------------------------------------- reference */

typedef struct
{
	hyb_prec_t  p;
	char        layout;
	const void* base;
	int64_t     ld;
} hyb_t_mat_t;

static double complex hyb_t_at( const hyb_t_mat_t* m, int64_t i, int64_t j )
{
	return hyb_t_get( m->p, m->base, hyb_t_idx( m->layout, m->ld, i, j ) );
}

/* op(X)(i, j) for option t ('N', 'T', 'C'; 'C' is 'T' for real data). */
static double complex hyb_t_op( const hyb_t_mat_t* m, char t, int64_t i, int64_t j )
{
	if ( t == 'N' ) return hyb_t_at( m, i, j );
	double complex v = hyb_t_at( m, j, i );
	return t == 'C' ? conj( v ) : v;
}

/* The full symmetric (Hermitian) matrix from its `uplo` triangle. */
static double complex hyb_t_full( const hyb_t_mat_t* m, char uplo, int herm, int64_t i, int64_t j )
{
	int            stored = uplo == 'U' ? i <= j : i >= j;
	double complex v      = stored ? hyb_t_at( m, i, j ) : hyb_t_at( m, j, i );
	if ( herm && !stored ) v = conj( v );
	if ( herm && i == j ) v = creal( v );
	return v;
}

/* The triangular matrix as trsm/trmm see it, before op(). */
static double complex hyb_t_tri( const hyb_t_mat_t* m, char uplo, char diag, int64_t i, int64_t j )
{
	if ( i == j ) return diag == 'U' ? 1.0 : hyb_t_at( m, i, i );
	if ( ( uplo == 'U' && i < j ) || ( uplo == 'L' && i > j ) ) return hyb_t_at( m, i, j );
	return 0.0;
}

static double complex hyb_t_optri( const hyb_t_mat_t* m, char uplo, char trans, char diag,
                                   int64_t i, int64_t j )
{
	if ( trans == 'N' ) return hyb_t_tri( m, uplo, diag, i, j );
	double complex v = hyb_t_tri( m, uplo, diag, j, i );
	return trans == 'C' ? conj( v ) : v;
}

static int hyb_t_is_zero( const double s[2] )
{
	return s[0] == 0.0 && s[1] == 0.0;
}

static void hyb_t_ref_product( const hyb_l3_args_t* a )
{
	hyb_t_mat_t A = { a->prec, a->layout, a->a, a->lda }, B = { a->prec, a->layout, a->b, a->ldb };
	double complex alpha = CMPLX( a->alpha[0], a->alpha[1] ),
	               beta  = CMPLX( a->beta[0], a->beta[1] );
	int bz               = hyb_t_is_zero( a->beta );
	int herm             = a->op == HYB_OP_HEMM;
	for ( int64_t j = 0; j < a->n; j++ )
		for ( int64_t i = 0; i < a->m; i++ )
		{
			double complex s = 0;
			if ( a->op == HYB_OP_GEMM )
				for ( int64_t l = 0; l < a->k; l++ )
					s += hyb_t_op( &A, a->transa, i, l ) * hyb_t_op( &B, a->transb, l, j );
			else if ( a->side == 'L' )
				for ( int64_t l = 0; l < a->m; l++ )
					s += hyb_t_full( &A, a->uplo, herm, i, l ) * hyb_t_at( &B, l, j );
			else
				for ( int64_t l = 0; l < a->n; l++ )
					s += hyb_t_at( &B, i, l ) * hyb_t_full( &A, a->uplo, herm, l, j );
			int64_t        idx = hyb_t_idx( a->layout, a->ldc, i, j );
			double complex v   = alpha * s;
			if ( !bz ) v += beta * hyb_t_get( a->prec, a->c, idx );
			hyb_t_set( a->prec, a->c, idx, v );
		}
}

static void hyb_t_ref_rank_k( const hyb_l3_args_t* a )
{
	hyb_t_mat_t A = { a->prec, a->layout, a->a, a->lda }, B = { a->prec, a->layout, a->b, a->ldb };
	int         herm     = a->op == HYB_OP_HERK || a->op == HYB_OP_HER2K;
	int         two      = hyb_op_is_rank_2k( a->op );
	int         notr     = a->transa == 'N';
	double complex alpha = CMPLX( a->alpha[0], herm && !two ? 0.0 : a->alpha[1] );
	double complex beta  = CMPLX( a->beta[0], herm ? 0.0 : a->beta[1] );
	int            bz    = hyb_t_is_zero( a->beta );
	for ( int64_t j = 0; j < a->n; j++ )
		for ( int64_t i = 0; i < a->n; i++ )
		{
			if ( a->uplo == 'U' ? i > j : i < j ) continue;
			double complex s1 = 0, s2 = 0;
			for ( int64_t l = 0; l < a->k; l++ )
			{
				/* X(i, l) = op(A) as an n x k matrix. */
				double complex ai = notr ? hyb_t_at( &A, i, l ) : hyb_t_at( &A, l, i );
				double complex aj = notr ? hyb_t_at( &A, j, l ) : hyb_t_at( &A, l, j );
				if ( !two )
				{
					if ( !herm )
						s1 += ai * aj;
					else
						s1 += notr ? ai * conj( aj ) : conj( ai ) * aj;
					continue;
				}
				double complex bi = notr ? hyb_t_at( &B, i, l ) : hyb_t_at( &B, l, i );
				double complex bj = notr ? hyb_t_at( &B, j, l ) : hyb_t_at( &B, l, j );
				if ( !herm )
				{
					s1 += ai * bj;
					s2 += bi * aj;
				}
				else if ( notr )
				{
					s1 += ai * conj( bj );
					s2 += bi * conj( aj );
				}
				else
				{
					s1 += conj( ai ) * bj;
					s2 += conj( bi ) * aj;
				}
			}
			double complex v = alpha * s1;
			if ( two ) v += ( herm ? conj( alpha ) : alpha ) * s2;
			int64_t idx = hyb_t_idx( a->layout, a->ldc, i, j );
			if ( !bz )
			{
				double complex c = hyb_t_get( a->prec, a->c, idx );
				/* Reference BLAS reads only the real part of a Hermitian diagonal. */
				if ( herm && i == j ) c = creal( c );
				v += beta * c;
			}
			if ( herm && i == j ) v = creal( v );
			hyb_t_set( a->prec, a->c, idx, v );
		}
}

static void hyb_t_ref_triangular( const hyb_l3_args_t* a )
{
	hyb_t_mat_t     A     = { a->prec, a->layout, a->a, a->lda };
	double complex  alpha = CMPLX( a->alpha[0], a->alpha[1] );
	int             lower = ( a->uplo == 'L' ) == ( a->transa == 'N' ); /* op(A) lower triangular */
	int64_t         d     = a->side == 'L' ? a->m : a->n;
	int64_t         lines = a->side == 'L' ? a->n : a->m;
	double complex* x     = malloc( (size_t)( d > 0 ? d : 1 ) * sizeof *x );
	double complex* y     = malloc( (size_t)( d > 0 ? d : 1 ) * sizeof *y );
	if ( x == NULL || y == NULL ) abort();
	void* b = (void*)a->b;
	for ( int64_t q = 0; q < lines; q++ )
	{
		/* Line q of B: column q (side L) or row q (side R), times alpha. */
		for ( int64_t t = 0; t < d; t++ )
		{
			int64_t idx = a->side == 'L' ? hyb_t_idx( a->layout, a->ldb, t, q )
			                             : hyb_t_idx( a->layout, a->ldb, q, t );
			y[t]        = alpha * hyb_t_get( a->prec, b, idx );
		}
		if ( a->op == HYB_OP_TRMM )
			for ( int64_t t = 0; t < d; t++ )
			{
				double complex s = 0;
				for ( int64_t l = 0; l < d; l++ )
					s += a->side == 'L'
					         ? hyb_t_optri( &A, a->uplo, a->transa, a->diag, t, l ) * y[l]
					         : y[l] * hyb_t_optri( &A, a->uplo, a->transa, a->diag, l, t );
				x[t] = s;
			}
		else if ( a->side == 'L' )
		{
			/* op(A) x = y. */
			for ( int64_t s = 0; s < d; s++ )
			{
				int64_t        t = lower ? s : d - 1 - s;
				double complex v = y[t];
				for ( int64_t l = lower ? 0 : t + 1; l < ( lower ? t : d ); l++ )
					v -= hyb_t_optri( &A, a->uplo, a->transa, a->diag, t, l ) * x[l];
				x[t] = v / hyb_t_optri( &A, a->uplo, a->transa, a->diag, t, t );
			}
		}
		else
		{
			/* x op(A) = y: forward when op(A) is upper triangular. */
			for ( int64_t s = 0; s < d; s++ )
			{
				int64_t        t = !lower ? s : d - 1 - s;
				double complex v = y[t];
				for ( int64_t l = !lower ? 0 : t + 1; l < ( !lower ? t : d ); l++ )
					v -= x[l] * hyb_t_optri( &A, a->uplo, a->transa, a->diag, l, t );
				x[t] = v / hyb_t_optri( &A, a->uplo, a->transa, a->diag, t, t );
			}
		}
		for ( int64_t t = 0; t < d; t++ )
		{
			int64_t idx = a->side == 'L' ? hyb_t_idx( a->layout, a->ldb, t, q )
			                             : hyb_t_idx( a->layout, a->ldb, q, t );
			hyb_t_set( a->prec, b, idx, x[t] );
		}
	}
	free( x );
	free( y );
}

void hyb_t_ref_l3( const hyb_l3_args_t* a )
{
	switch ( a->op )
	{
	case HYB_OP_GEMM:
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		hyb_t_ref_product( a );
		break;
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		hyb_t_ref_rank_k( a );
		break;
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
		hyb_t_ref_triangular( a );
		break;
	default:
		abort();
	}
}

hyb_status_t hyb_t_ref_cpu( void* user, const hyb_l3_args_t* sub )
{
	hyb_t_cpu_counter_t* c = user;
	if ( c )
	{
		int n = atomic_fetch_add( &c->calls, 1 ) + 1;
		if ( atomic_load( &c->fail_after ) > 0 && n == atomic_load( &c->fail_after ) )
			return HYB_E_NO_SYMBOL;
	}
	if ( sub->layout != 'C' )
		return HYB_E_INVALID; /* the pipeline only hands out normalized calls */
	hyb_t_ref_l3( sub );
	return HYB_OK;
}

/* ---------------------------------------------------------------- errors */

const hyb_op_t hyb_t_l3_ops[HYB_OP_L3_COUNT] = { HYB_OP_GEMM,  HYB_OP_SYMM, HYB_OP_HEMM,
	                                             HYB_OP_SYRK,  HYB_OP_HERK, HYB_OP_SYR2K,
	                                             HYB_OP_HER2K, HYB_OP_TRSM, HYB_OP_TRMM };

int hyb_t_op_has_prec( hyb_op_t op, int prec )
{
	return !hyb_op_is_complex_only( op ) || hyb_prec_is_complex( (hyb_prec_t)prec );
}

void hyb_t_out_dims( const hyb_l3_args_t* a, int64_t* rows, int64_t* cols )
{
	*rows = hyb_op_is_rank_k( a->op ) ? a->n : a->m;
	*cols = a->n;
}

int64_t hyb_t_inner_dim( const hyb_l3_args_t* a )
{
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		return a->k;
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
		return a->k;
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		return 2 * a->k;
	default:
		return a->side == 'L' ? a->m : a->n;
	}
}

int hyb_t_in_output( const hyb_l3_args_t* a, int64_t i, int64_t j )
{
	int64_t rows, cols;
	hyb_t_out_dims( a, &rows, &cols );
	if ( i < 0 || j < 0 || i >= rows || j >= cols ) return 0;
	if ( hyb_op_is_rank_k( a->op ) ) return a->uplo == 'U' ? i <= j : i >= j;
	return 1;
}

static const void* hyb_t_out_ptr( const hyb_l3_args_t* a, int64_t* ld )
{
	return hyb_l3_out( a, ld );
}

/* Frobenius norm of a rows x cols matrix, non-finite entries (unreferenced
   NaN fill) counted as zero. */
static double hyb_t_norm( hyb_prec_t p, char layout, const void* base, int64_t ld, int64_t rows,
                          int64_t cols )
{
	double s = 0;
	if ( base == NULL ) return 0;
	for ( int64_t j = 0; j < cols; j++ )
		for ( int64_t i = 0; i < rows; i++ )
		{
			double complex v = hyb_t_get( p, base, hyb_t_idx( layout, ld, i, j ) );
			if ( isfinite( creal( v ) ) && isfinite( cimag( v ) ) )
				s += creal( v ) * creal( v ) + cimag( v ) * cimag( v );
		}
	return sqrt( s );
}

/* Logical shapes of A and B. */
static void hyb_t_operand_dims( const hyb_l3_args_t* a, int mat, int64_t* rows, int64_t* cols )
{
	int64_t d = a->side == 'L' ? a->m : a->n;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		if ( mat == 0 )
			*rows = a->transa == 'N' ? a->m : a->k, *cols = a->transa == 'N' ? a->k : a->m;
		else
			*rows = a->transb == 'N' ? a->k : a->n, *cols = a->transb == 'N' ? a->n : a->k;
		break;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		if ( mat == 0 )
			*rows = *cols = d;
		else
			*rows = a->m, *cols = a->n;
		break;
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		*rows = a->transa == 'N' ? a->n : a->k;
		*cols = a->transa == 'N' ? a->k : a->n;
		if ( mat == 1 && ( a->op == HYB_OP_SYRK || a->op == HYB_OP_HERK ) ) *rows = *cols = 0;
		break;
	default:
		if ( mat == 0 )
			*rows = *cols = d;
		else
			*rows = a->m, *cols = a->n;
		break;
	}
}

double hyb_t_l3_error( const hyb_l3_args_t* a, const void* got, const void* want, const void* c0 )
{
	int64_t ld, rows, cols;
	hyb_t_out_ptr( a, &ld );
	hyb_t_out_dims( a, &rows, &cols );
	double diff = 0;
	for ( int64_t j = 0; j < cols; j++ )
		for ( int64_t i = 0; i < rows; i++ )
		{
			if ( !hyb_t_in_output( a, i, j ) ) continue;
			int64_t        idx = hyb_t_idx( a->layout, ld, i, j );
			double complex g = hyb_t_get( a->prec, got, idx ), w = hyb_t_get( a->prec, want, idx );
			int            gf = isfinite( creal( g ) ) && isfinite( cimag( g ) );
			int            wf = isfinite( creal( w ) ) && isfinite( cimag( w ) );
			if ( gf != wf ) return INFINITY;
			if ( !gf ) continue;
			double complex e = g - w;
			diff += creal( e ) * creal( e ) + cimag( e ) * cimag( e );
		}
	int64_t ar, ac, br, bc;
	hyb_t_operand_dims( a, 0, &ar, &ac );
	hyb_t_operand_dims( a, 1, &br, &bc );
	int    tri   = a->op == HYB_OP_TRSM || a->op == HYB_OP_TRMM;
	double na    = hyb_t_norm( a->prec, a->layout, a->a, a->lda, ar, ac );
	double nb    = tri ? hyb_t_norm( a->prec, a->layout, c0, a->ldb, br, bc )
	                   : hyb_t_norm( a->prec, a->layout, a->b, a->ldb, br, bc );
	double nc0   = tri ? 0 : hyb_t_norm( a->prec, a->layout, c0, ld, rows, cols );
	double nw    = hyb_t_norm( a->prec, a->layout, want, ld, rows, cols );
	double alpha = hypot( a->alpha[0], a->alpha[1] ), beta = hypot( a->beta[0], a->beta[1] );
	if ( a->op == HYB_OP_SYRK || a->op == HYB_OP_HERK ) nb = na;
	double scale = nw + alpha * na * nb + beta * nc0;
	if ( scale == 0 ) return sqrt( diff ) == 0 ? 0 : INFINITY;
	return sqrt( diff ) / scale;
}

double hyb_t_l3_tol( const hyb_l3_args_t* a )
{
	return 16.0 * (double)( hyb_t_inner_dim( a ) + 4 ) * hyb_t_eps( a->prec );
}

size_t hyb_t_out_bytes( const hyb_l3_args_t* a )
{
	int64_t ld, rows, cols;
	hyb_t_out_ptr( a, &ld );
	hyb_t_out_dims( a, &rows, &cols );
	int64_t lines = a->layout == 'R' ? rows : cols;
	return (size_t)ld * (size_t)( lines > 0 ? lines : 1 ) * hyb_prec_size( a->prec );
}

int64_t hyb_t_outside_changed( const hyb_l3_args_t* a, const void* now, const void* before )
{
	int64_t ld, rows, cols;
	hyb_t_out_ptr( a, &ld );
	hyb_t_out_dims( a, &rows, &cols );
	size_t  es    = hyb_prec_size( a->prec );
	int64_t total = (int64_t)( hyb_t_out_bytes( a ) / es );
	int64_t bad   = 0;
	for ( int64_t idx = 0; idx < total; idx++ )
	{
		/* Logical (i, j) of storage position idx. */
		int64_t i = a->layout == 'R' ? idx / ld : idx % ld;
		int64_t j = a->layout == 'R' ? idx % ld : idx / ld;
		if ( hyb_t_in_output( a, i, j ) ) continue;
		if ( memcmp( (const char*)now + (size_t)idx * es, (const char*)before + (size_t)idx * es,
		             es ) != 0 )
			bad++;
	}
	return bad;
}

/* ---------------------------------------------------------------- problems */

void hyb_t_random_options( hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t prec, char* side, char* uplo,
                           char* transa, char* transb, char* diag )
{
	static const char ntc[] = "NTC";
	*side                   = hyb_t_int( r, 0, 1 ) ? 'L' : 'R';
	*uplo                   = hyb_t_int( r, 0, 1 ) ? 'U' : 'L';
	*diag                   = hyb_t_int( r, 0, 1 ) ? 'N' : 'U';
	*transa                 = ntc[hyb_t_int( r, 0, 2 )];
	*transb                 = ntc[hyb_t_int( r, 0, 2 )];
	if ( op == HYB_OP_HERK || op == HYB_OP_HER2K ) *transa = hyb_t_int( r, 0, 1 ) ? 'N' : 'C';
	if ( ( op == HYB_OP_SYRK || op == HYB_OP_SYR2K ) && hyb_prec_is_complex( prec ) )
		*transa = hyb_t_int( r, 0, 1 ) ? 'N' : 'T';
}

static void* hyb_t_alloc( size_t bytes )
{
	void* p = malloc( bytes ? bytes : 16 );
	if ( p == NULL ) abort();
	return p;
}

void hyb_t_problem_make( hyb_t_problem_t* pr, hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t prec,
                         char layout, char side, char uplo, char transa, char transb, char diag,
                         int64_t m, int64_t n, int64_t k, int64_t pad, int beta_kind )
{
	memset( pr, 0, sizeof *pr );
	hyb_l3_args_t* a = &pr->args;
	a->op = op, a->prec = prec, a->layout = layout;
	a->m = m, a->n = n, a->k = k;
	int rank_k = hyb_op_is_rank_k( op ), tri = op == HYB_OP_TRSM || op == HYB_OP_TRMM;
	if ( op == HYB_OP_GEMM ) a->transa = transa, a->transb = transb;
	if ( op == HYB_OP_SYMM || op == HYB_OP_HEMM || tri ) a->side = side, a->uplo = uplo;
	if ( tri ) a->transa = transa, a->diag = diag;
	if ( rank_k ) a->uplo = uplo, a->transa = transa, a->m = 0;
	if ( !( op == HYB_OP_GEMM || rank_k ) ) a->k = 0;

	int    cx   = hyb_prec_is_complex( prec );
	int    herm = hyb_op_is_complex_only( op );
	size_t es   = hyb_prec_size( prec );
	a->alpha[0] = 0.5 + 0.5 * fabs( hyb_t_unit( r ) );
	a->alpha[1] = cx && op != HYB_OP_HERK ? hyb_t_unit( r ) : 0.0;
	if ( beta_kind == 1 )
		a->beta[0] = 1.0;
	else if ( beta_kind == 2 )
	{
		a->beta[0] = hyb_t_unit( r );
		a->beta[1] = cx && op != HYB_OP_HERK && op != HYB_OP_HER2K ? hyb_t_unit( r ) : 0.0;
	}
	if ( tri ) a->beta[0] = a->beta[1] = 0.0;

	/* Shapes and storage of A, B and the output. */
	int64_t ar, ac, br, bc, cr, cc;
	hyb_t_operand_dims( a, 0, &ar, &ac );
	hyb_t_operand_dims( a, 1, &br, &bc );
	hyb_t_out_dims( a, &cr, &cc );
	a->lda = ( layout == 'R' ? ac : ar ) + pad;
	a->ldb = ( layout == 'R' ? bc : br ) + pad;
	if ( a->lda < 1 ) a->lda = 1;
	if ( a->ldb < 1 ) a->ldb = 1;
	int64_t lines_a = layout == 'R' ? ar : ac, lines_b = layout == 'R' ? br : bc;
	pr->bytes_a = (size_t)a->lda * (size_t)( lines_a > 0 ? lines_a : 1 ) * es;
	pr->bytes_b = (size_t)a->ldb * (size_t)( lines_b > 0 ? lines_b : 1 ) * es;
	pr->A       = hyb_t_alloc( pr->bytes_a );
	hyb_t_fill( r, prec, pr->A, (int64_t)( pr->bytes_a / es ) );
	if ( op != HYB_OP_SYRK && op != HYB_OP_HERK )
	{
		pr->B = hyb_t_alloc( pr->bytes_b );
		hyb_t_fill( r, prec, pr->B, (int64_t)( pr->bytes_b / es ) );
	}
	a->a = pr->A;
	a->b = pr->B;

	/* Symmetric and triangular A: the unreferenced triangle (and a unit
	   diagonal) hold NaN, which any read would propagate. */
	if ( op == HYB_OP_SYMM || op == HYB_OP_HEMM || tri )
	{
		int64_t d = ar;
		for ( int64_t j = 0; j < d; j++ )
			for ( int64_t i = 0; i < d; i++ )
			{
				int64_t idx    = hyb_t_idx( layout, a->lda, i, j );
				int     stored = uplo == 'U' ? i <= j : i >= j;
				if ( !stored )
					hyb_t_set( prec, pr->A, idx, CMPLX( NAN, NAN ) );
				else if ( tri && i != j )
					hyb_t_set( prec, pr->A, idx,
					           hyb_t_get( prec, pr->A, idx ) / (double)( d + 1 ) );
				else if ( tri && i == j )
					hyb_t_set( prec, pr->A, idx,
					           diag == 'U'
					               ? CMPLX( NAN, NAN )
					               : CMPLX( 2.0 + hyb_t_unit( r ), cx ? hyb_t_unit( r ) : 0.0 ) );
				else if ( herm && i == j )
					hyb_t_set( prec, pr->A, idx,
					           CMPLX( creal( hyb_t_get( prec, pr->A, idx ) ), NAN ) );
			}
	}

	if ( tri )
	{
		/* The in-out matrix is B. */
		pr->C       = NULL;
		pr->bytes_c = 0;
		return;
	}
	a->ldc = ( layout == 'R' ? cc : cr ) + pad;
	if ( a->ldc < 1 ) a->ldc = 1;
	int64_t lines_c = layout == 'R' ? cr : cc;
	pr->bytes_c     = (size_t)a->ldc * (size_t)( lines_c > 0 ? lines_c : 1 ) * es;
	pr->C           = hyb_t_alloc( pr->bytes_c );
	hyb_t_fill( r, prec, pr->C, (int64_t)( pr->bytes_c / es ) );
	if ( beta_kind == 0 )
	{
		/* beta = 0: C must not be read, so NaN there must not propagate. */
		for ( int64_t i = 0; i < (int64_t)( pr->bytes_c / es ); i++ )
			hyb_t_set( prec, pr->C, i, CMPLX( NAN, NAN ) );
	}
	else if ( herm && rank_k )
	{
		/* Reference BLAS ignores the imaginary part of a Hermitian C's diagonal:
		   make it garbage (finite). */
		for ( int64_t i = 0; i < cr; i++ )
		{
			int64_t idx = hyb_t_idx( layout, a->ldc, i, i );
			hyb_t_set( prec, pr->C, idx, CMPLX( creal( hyb_t_get( prec, pr->C, idx ) ), 7.0 ) );
		}
	}
	a->c = pr->C;
}

void hyb_t_problem_free( hyb_t_problem_t* pr )
{
	free( pr->A );
	free( pr->B );
	free( pr->C );
	memset( pr, 0, sizeof *pr );
}

/* ---------------------------------------------------------------- logs */

static int hyb_t_log_fd = -1;
static int hyb_t_log_saved;

void hyb_t_log_begin( int level )
{
	char path[]  = "/tmp/hyb_unit_logXXXXXX";
	hyb_t_log_fd = mkstemp( path );
	if ( hyb_t_log_fd >= 0 ) unlink( path );
	hyb_t_log_saved = hyb_log_level();
	hyb_log_configure( level, hyb_t_log_fd );
}

void hyb_t_log_end( char* out, size_t cap )
{
	hyb_log_configure( hyb_t_log_saved, -1 );
	out[0] = '\0';
	if ( hyb_t_log_fd < 0 ) return;
	size_t  len = 0;
	ssize_t got;
	lseek( hyb_t_log_fd, 0, SEEK_SET );
	while ( len + 1 < cap && ( got = read( hyb_t_log_fd, out + len, cap - 1 - len ) ) > 0 )
		len += (size_t)got;
	out[len] = '\0';
	close( hyb_t_log_fd );
	hyb_t_log_fd = -1;
}

int hyb_t_count( const char* hay, const char* needle )
{
	int    n   = 0;
	size_t len = strlen( needle );
	for ( const char* p = hay; len && ( p = strstr( p, needle ) ) != NULL; p += len ) n++;
	return n;
}

/* ---------------------------------------------------------------- devices */

static hyb_config_t hyb_t_sim_cfg;

hyb_status_t hyb_t_config_extra( hyb_config_t* cfg, const char* extra, const char* who )
{
	if ( extra == NULL ) return HYB_OK;
	char buf[1024], err[256];
	snprintf( buf, sizeof buf, "%s", extra );
	char* save = NULL;
	for ( char* tok = strtok_r( buf, ";", &save ); tok; tok = strtok_r( NULL, ";", &save ) )
	{
		char* eq = strchr( tok, '=' );
		if ( eq == NULL )
		{
			fprintf( stderr, "%s: no '=' in \"%s\"\n", who, tok );
			return HYB_E_INVALID;
		}
		*eq = '\0';
		if ( hyb_config_set( cfg, tok, eq + 1, HYB_SRC_TEST, err, sizeof err ) != HYB_OK )
		{
			fprintf( stderr, "%s: %s\n", who, err );
			return HYB_E_INVALID;
		}
	}
	return HYB_OK;
}

hyb_status_t hyb_t_sim_install( hyb_config_t* cfg )
{
	hyb_config_finish( cfg );
	hyb_config_install_for_test( cfg );
	hyb_device_faults_set( NULL );
	hyb_devices_reset_for_test();
	return hyb_devices_ensure();
}

hyb_status_t hyb_t_sim_begin( int ndev, const char* mem, const char* extra )
{
	char err[256], num[32];
	hyb_config_defaults( &hyb_t_sim_cfg );
	snprintf( num, sizeof num, "%d", ndev );
	if ( hyb_config_set( &hyb_t_sim_cfg, "HYBLAS_DEVICE", "sim", HYB_SRC_TEST, err, sizeof err ) !=
	         HYB_OK ||
	     hyb_config_set( &hyb_t_sim_cfg, "HYBLAS_SIM_DEVICES", num, HYB_SRC_TEST, err,
	                     sizeof err ) != HYB_OK ||
	     hyb_config_set( &hyb_t_sim_cfg, "HYBLAS_SIM_MEM", mem, HYB_SRC_TEST, err, sizeof err ) !=
	         HYB_OK )
	{
		fprintf( stderr, "hyb_t_sim_begin: %s\n", err );
		return HYB_E_INVALID;
	}
	if ( hyb_t_config_extra( &hyb_t_sim_cfg, extra, "hyb_t_sim_begin" ) != HYB_OK )
		return HYB_E_INVALID;
	return hyb_t_sim_install( &hyb_t_sim_cfg );
}

void hyb_t_sim_end( void )
{
	hyb_l3_memo_reset();
	hyb_device_faults_set( NULL );
	hyb_devices_reset_for_test();
	hyb_config_install_for_test( NULL );
}

/* ---------------------------------------------------------------- isolation */

int hyb_t_isolated( const char* what, int ( *fn )( void* arg ), void* arg, int timeout_s )
{
	fflush( stdout );
	fflush( stderr );
	pid_t pid = fork();
	if ( pid < 0 ) return 254;
	if ( pid == 0 )
	{
		alarm( (unsigned)timeout_s );
		int rc = fn( arg );
		fflush( stdout );
		fflush( stderr );
		_exit( rc == 0 ? 0 : rc > 0 && rc < 128 ? rc : 127 );
	}
	int status = 0;
	while ( waitpid( pid, &status, 0 ) < 0 )
		;
	if ( WIFEXITED( status ) )
	{
		int rc = WEXITSTATUS( status );
		if ( rc ) fprintf( stderr, "\n    %s: failed checks (exit %d)\n", what, rc );
		return rc;
	}
	int sig = WIFSIGNALED( status ) ? WTERMSIG( status ) : 0;
	fprintf( stderr, "\n    %s: %s (signal %d)\n", what,
	         sig == SIGALRM ? "timed out (hang)" : "crashed", sig );
	return sig == SIGALRM ? 255 : 128 + sig;
}
