/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 argument semantics (reference BLAS 3.11 argument checks). */
#include "dispatch/hyb_l3_check.h"

#include <stddef.h>
#include <stdint.h>

static inline int64_t hyb_max1( int64_t v )
{
	return v > 1 ? v : 1;
}

static int hyb_is( char c, const char* set )
{
	for ( ; *set; set++ )
		if ( c == *set ) return 1;
	return 0;
}

/* Options the reference accepts for the trans argument of syrk/syr2k
   (real: N,T,C; complex symmetric: N,T) and herk/her2k (N,C). */
static const char* hyb_rank_k_trans( const hyb_l3_args_t* a )
{
	if ( a->op == HYB_OP_HERK || a->op == HYB_OP_HER2K ) return "NC";
	return hyb_prec_is_complex( a->prec ) ? "NT" : "NTC";
}

/* Positions of the INTEGER arguments in the Fortran signature of each
   operation (reference BLAS), 0 where the operation has none. */
typedef struct
{
	int m, n, k, lda, ldb, ldc;
} hyb_l3_pos_t;

static hyb_l3_pos_t hyb_l3_positions( hyb_op_t op )
{
	static const hyb_l3_pos_t pos[HYB_OP_L3_COUNT] = {
		[HYB_OP_GEMM] = { 3, 4, 5, 8, 10, 13 }, [HYB_OP_SYMM] = { 3, 4, 0, 7, 9, 12 },
		[HYB_OP_HEMM] = { 3, 4, 0, 7, 9, 12 },  [HYB_OP_SYRK] = { 0, 3, 4, 7, 0, 10 },
		[HYB_OP_HERK] = { 0, 3, 4, 7, 0, 10 },  [HYB_OP_SYR2K] = { 0, 3, 4, 7, 9, 12 },
		[HYB_OP_HER2K] = { 0, 3, 4, 7, 9, 12 }, [HYB_OP_TRSM] = { 5, 6, 0, 9, 11, 0 },
		[HYB_OP_TRMM] = { 5, 6, 0, 9, 11, 0 },
	};
	const hyb_l3_pos_t none = { 0, 0, 0, 0, 0, 0 };
	return (unsigned)op < HYB_OP_L3_COUNT ? pos[op] : none;
}

/* The INTEGER arguments in the order of hyb_l3_pos_t: m, n, k, lda, ldb, ldc. */
#define HYB_L3_NPOS 6

/* The position of the first of the operation's INTEGER arguments (in the signature's order)
   marked bad, or 0. */
static int hyb_l3_first( hyb_l3_pos_t p, const int bad[HYB_L3_NPOS] )
{
	const int pos[HYB_L3_NPOS] = { p.m, p.n, p.k, p.lda, p.ldb, p.ldc };
	for ( int i = 0; i < HYB_L3_NPOS; i++ )
		if ( pos[i] > 0 && bad[i] ) return pos[i];
	return 0;
}

int hyb_l3_info( const hyb_l3_args_t* a )
{
	if ( a->layout != 'C' && a->layout != 'R' ) return 1;

	/* Row-major calls are checked as the column-major call they become,
	   which is what reference CBLAS hands to the Fortran checks. */
	hyb_l3_args_t n = *a;
	hyb_l3_normalize( &n );
	hyb_l3_pos_t p = hyb_l3_positions( n.op );

	/* In the reference's order: the options, then the dimensions and leading dimensions,
	   each operand needing as many rows as its op() has. */
	int64_t rows_a, rows_b, rows_c;
	switch ( n.op )
	{
	case HYB_OP_GEMM:
		if ( !hyb_is( n.transa, "NTC" ) ) return 1;
		if ( !hyb_is( n.transb, "NTC" ) ) return 2;
		rows_a = n.transa == 'N' ? n.m : n.k;
		rows_b = n.transb == 'N' ? n.k : n.n;
		rows_c = n.m;
		break;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
	{
		/* A of order m (side L) or n, B (and C, which trsm and trmm do not have) of m rows;
		   the triangular ones' options follow side and uplo. */
		int tri = n.op == HYB_OP_TRSM || n.op == HYB_OP_TRMM;
		if ( !hyb_is( n.side, "LR" ) ) return 1;
		if ( !hyb_is( n.uplo, "UL" ) ) return 2;
		if ( tri && !hyb_is( n.transa, "NTC" ) ) return 3;
		if ( tri && !hyb_is( n.diag, "UN" ) ) return 4;
		rows_a = n.side == 'L' ? n.m : n.n;
		rows_b = rows_c = n.m;
		break;
	}
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		if ( !hyb_is( n.uplo, "UL" ) ) return 1;
		if ( !hyb_is( n.transa, hyb_rank_k_trans( &n ) ) ) return 2;
		rows_a = rows_b = n.transa == 'N' ? n.n : n.k; /* B: rank-2k only */
		rows_c          = n.n;
		break;
	default:
		return 1;
	}
	const int bad[HYB_L3_NPOS] = { n.m < 0,
		                           n.n < 0,
		                           n.k < 0,
		                           n.lda < hyb_max1( rows_a ),
		                           n.ldb < hyb_max1( rows_b ),
		                           n.ldc < hyb_max1( rows_c ) };
	return hyb_l3_first( p, bad );
}

int hyb_l3_valid( const hyb_l3_args_t* a )
{
	return hyb_l3_info( a ) == 0;
}

int hyb_l3_wide_arg( const hyb_l3_args_t* a )
{
	hyb_l3_args_t n = *a;
	hyb_l3_normalize( &n );
	hyb_l3_pos_t  p              = hyb_l3_positions( n.op );
	const int64_t v[HYB_L3_NPOS] = { n.m, n.n, n.k, n.lda, n.ldb, n.ldc };
	int           bad[HYB_L3_NPOS];
	for ( int i = 0; i < HYB_L3_NPOS; i++ ) bad[i] = v[i] > INT32_MAX || v[i] < INT32_MIN;
	return hyb_l3_first( p, bad );
}

static char hyb_flip( char c, char x, char y )
{
	return c == x ? y : c == y ? x : c;
}

void hyb_l3_normalize( hyb_l3_args_t* a )
{
	if ( a->layout != 'R' ) return;
	int64_t     t;
	const void* p;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		/* C^T = op(B)^T op(A)^T: the operands and their options swap. */
		t = a->m, a->m = a->n, a->n = t;
		p = a->a, a->a = a->b, a->b = p;
		t = a->lda, a->lda = a->ldb, a->ldb = t;
		{
			char c    = a->transa;
			a->transa = a->transb;
			a->transb = c;
		}
		break;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
		/* The transposed problem multiplies from the other side by the
		   stored triangle seen transposed (Hermitian: A^T = conj(A), the
		   same matrix hemm reads from the flipped triangle). */
		a->side = hyb_flip( a->side, 'L', 'R' );
		a->uplo = hyb_flip( a->uplo, 'U', 'L' );
		t = a->m, a->m = a->n, a->n = t;
		break;
	case HYB_OP_SYRK:
	case HYB_OP_SYR2K:
		a->uplo = hyb_flip( a->uplo, 'U', 'L' );
		/* For real data 'C' means 'T'. */
		if ( a->transa == 'C' && !hyb_prec_is_complex( a->prec ) ) a->transa = 'T';
		a->transa = hyb_flip( a->transa, 'N', 'T' );
		break;
	case HYB_OP_HERK:
	case HYB_OP_HER2K:
		a->uplo   = hyb_flip( a->uplo, 'U', 'L' );
		a->transa = hyb_flip( a->transa, 'N', 'C' );
		/* C^T = conj(C) swaps the roles of alpha and conj(alpha). */
		if ( a->op == HYB_OP_HER2K ) a->alpha[1] = -a->alpha[1];
		break;
	default:
		break;
	}
	a->layout = 'C';
}

int hyb_l3_empty( const hyb_l3_args_t* a )
{
	switch ( a->op )
	{
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		return a->n == 0;
	default:
		return a->m == 0 || a->n == 0;
	}
}

/* One scalar of precision prec at p (real only when `real`) as (re, im). */
static void hyb_l3_scalar_read( hyb_prec_t prec, int real, const void* p, double out[2] )
{
	int single = prec == HYB_PREC_S || prec == HYB_PREC_C;
	int parts  = hyb_prec_is_complex( prec ) && !real ? 2 : 1;
	out[1]     = 0.0;
	for ( int i = 0; i < parts; i++ )
		out[i] = single ? (double)( (const float*)p )[i] : ( (const double*)p )[i];
}

int hyb_l3_scalars_load( hyb_l3_args_t* a )
{
	if ( ( ( a->scal & HYB_SCAL_ALPHA_REF ) && a->alpha_ref == NULL ) ||
	     ( ( a->scal & HYB_SCAL_BETA_REF ) && a->beta_ref == NULL ) )
		return 0;
	if ( a->scal & HYB_SCAL_ALPHA_REF )
		hyb_l3_scalar_read( a->prec, ( a->scal & HYB_SCAL_ALPHA_REAL ) != 0, a->alpha_ref,
		                    a->alpha );
	if ( a->scal & HYB_SCAL_BETA_REF )
		hyb_l3_scalar_read( a->prec, ( a->scal & HYB_SCAL_BETA_REAL ) != 0, a->beta_ref, a->beta );
	a->scal &= ~(unsigned)( HYB_SCAL_ALPHA_REF | HYB_SCAL_BETA_REF );
	return 1;
}

int hyb_l3_trivial( const hyb_l3_args_t* a )
{
	int alpha_zero = a->alpha[0] == 0.0 && a->alpha[1] == 0.0;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		return a->m == 0 || a->n == 0 || a->k == 0 || alpha_zero;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
		return a->m == 0 || a->n == 0 || alpha_zero;
	default:
		return a->n == 0 || a->k == 0 || alpha_zero;
	}
}

double hyb_l3_flops( const hyb_l3_args_t* a )
{
	double m = (double)a->m, n = (double)a->n, k = (double)a->k;
	double f = 0;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		f = 2 * m * n * k;
		break;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		f = a->side == 'L' ? 2 * m * m * n : 2 * m * n * n;
		break;
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
		f = k * n * ( n + 1 );
		break;
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		f = 2 * k * n * ( n + 1 );
		break;
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
		f = a->side == 'L' ? m * m * n : m * n * n;
		break;
	default:
		break;
	}
	return hyb_prec_is_complex( a->prec ) ? 4 * f : f;
}

void hyb_l3_bytes( const hyb_l3_args_t* a, double* in, double* out )
{
	double es = (double)hyb_prec_size( a->prec );
	double m = (double)a->m, n = (double)a->n, k = (double)a->k;
	int    beta_zero = a->beta[0] == 0.0 && a->beta[1] == 0.0;
	double c_elems = 0, ab_elems = 0;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		ab_elems = m * k + k * n;
		c_elems  = m * n;
		break;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		ab_elems = ( a->side == 'L' ? m * m : n * n ) + m * n;
		c_elems  = m * n;
		break;
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
		ab_elems = n * k;
		c_elems  = n * ( n + 1 ) / 2;
		break;
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		ab_elems = 2 * n * k;
		c_elems  = n * ( n + 1 ) / 2;
		break;
	case HYB_OP_TRSM:
	case HYB_OP_TRMM:
		ab_elems  = ( a->side == 'L' ? m * m : n * n ) / 2;
		c_elems   = m * n;
		beta_zero = 0; /* B is read and written */
		break;
	default:
		break;
	}
	*in  = es * ( ab_elems + ( beta_zero ? 0 : c_elems ) );
	*out = es * c_elems;
}
