/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-3 argument semantics (dispatch/hyb_l3_check): validity against the
   reference BLAS checks, row-major normalization against a direct row-major
   reference, trivial cases, flop and byte counts. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_l3_check.h"
#include "hyb_test_util.h"

static int64_t max1( int64_t v )
{
	return v > 1 ? v : 1;
}

static int in( char c, const char* set )
{
	return c != '\0' && strchr( set, c ) != NULL;
}

/* The reference BLAS argument checks (xGEMM, xSYMM, ... of LAPACK 3.11's
   BLAS), column-major: the INFO value xerbla would get, 0 when valid. */
static int ref_info_col( const hyb_l3_args_t* a )
{
	int64_t d = a->side == 'L' ? a->m : a->n;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		if ( !in( a->transa, "NTC" ) ) return 1;
		if ( !in( a->transb, "NTC" ) ) return 2;
		if ( a->m < 0 ) return 3;
		if ( a->n < 0 ) return 4;
		if ( a->k < 0 ) return 5;
		if ( a->lda < max1( a->transa == 'N' ? a->m : a->k ) ) return 8;
		if ( a->ldb < max1( a->transb == 'N' ? a->k : a->n ) ) return 10;
		if ( a->ldc < max1( a->m ) ) return 13;
		return 0;
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		if ( !in( a->side, "LR" ) ) return 1;
		if ( !in( a->uplo, "UL" ) ) return 2;
		if ( a->m < 0 ) return 3;
		if ( a->n < 0 ) return 4;
		if ( a->lda < max1( d ) ) return 7;
		if ( a->ldb < max1( a->m ) ) return 9;
		if ( a->ldc < max1( a->m ) ) return 12;
		return 0;
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
	{
		const char* tr  = ( a->op == HYB_OP_HERK || a->op == HYB_OP_HER2K ) ? "NC"
		                  : hyb_prec_is_complex( a->prec )                  ? "NT"
		                                                                    : "NTC";
		int         two = hyb_op_is_rank_2k( a->op );
		if ( !in( a->uplo, "UL" ) ) return 1;
		if ( !in( a->transa, tr ) ) return 2;
		if ( a->n < 0 ) return 3;
		if ( a->k < 0 ) return 4;
		if ( a->lda < max1( a->transa == 'N' ? a->n : a->k ) ) return 7;
		if ( two && a->ldb < max1( a->transa == 'N' ? a->n : a->k ) ) return 9;
		if ( a->ldc < max1( a->n ) ) return two ? 12 : 10;
		return 0;
	}
	default:
		if ( !in( a->side, "LR" ) ) return 1;
		if ( !in( a->uplo, "UL" ) ) return 2;
		if ( !in( a->transa, "NTC" ) ) return 3;
		if ( !in( a->diag, "UN" ) ) return 4;
		if ( a->m < 0 ) return 5;
		if ( a->n < 0 ) return 6;
		if ( a->lda < max1( d ) ) return 9;
		if ( a->ldb < max1( a->m ) ) return 11;
		return 0;
	}
}

/* The same for CBLAS row-major calls, from the logical shapes: a row-major
   r x c matrix needs ld >= max(1, c). */
static int ref_valid_row( const hyb_l3_args_t* a )
{
	hyb_l3_args_t t = *a;
	int64_t       d = a->side == 'L' ? a->m : a->n;
	/* Options and dimensions are checked as in column-major; only the
	   leading-dimension rules differ. */
	t.lda = t.ldb = t.ldc = INT64_MAX;
	if ( ref_info_col( &t ) != 0 ) return 0;
	switch ( a->op )
	{
	case HYB_OP_GEMM:
		return a->lda >= max1( a->transa == 'N' ? a->k : a->m ) &&
		       a->ldb >= max1( a->transb == 'N' ? a->n : a->k ) && a->ldc >= max1( a->n );
	case HYB_OP_SYMM:
	case HYB_OP_HEMM:
		return a->lda >= max1( d ) && a->ldb >= max1( a->n ) && a->ldc >= max1( a->n );
	case HYB_OP_SYRK:
	case HYB_OP_HERK:
		return a->lda >= max1( a->transa == 'N' ? a->k : a->n ) && a->ldc >= max1( a->n );
	case HYB_OP_SYR2K:
	case HYB_OP_HER2K:
		return a->lda >= max1( a->transa == 'N' ? a->k : a->n ) &&
		       a->ldb >= max1( a->transa == 'N' ? a->k : a->n ) && a->ldc >= max1( a->n );
	default:
		return a->lda >= max1( d ) && a->ldb >= max1( a->n );
	}
}

/* Random arguments, often invalid: options from a set including invalid
   characters, dimensions from -2, leading dimensions from 0. */
static hyb_l3_args_t random_args( hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t p, char layout )
{
	static const char opts[] = "NTCULRX?";
	hyb_l3_args_t     a      = { .op = op, .prec = p, .layout = layout };
	a.side                   = opts[hyb_t_int( r, 0, 7 )];
	a.uplo                   = opts[hyb_t_int( r, 0, 7 )];
	a.transa                 = opts[hyb_t_int( r, 0, 7 )];
	a.transb                 = opts[hyb_t_int( r, 0, 7 )];
	a.diag                   = "NUX"[hyb_t_int( r, 0, 2 )];
	/* Mostly valid options, so that the dimension checks get exercised. */
	if ( hyb_t_int( r, 0, 3 ) )
	{
		char s, u, ta, tb, dg;
		hyb_t_random_options( r, op, p, &s, &u, &ta, &tb, &dg );
		a.side = s, a.uplo = u, a.transa = ta, a.transb = tb, a.diag = dg;
	}
	a.m        = hyb_t_int( r, -2, 5 );
	a.n        = hyb_t_int( r, -2, 5 );
	a.k        = hyb_t_int( r, -2, 5 );
	a.lda      = hyb_t_int( r, 0, 7 );
	a.ldb      = hyb_t_int( r, 0, 7 );
	a.ldc      = hyb_t_int( r, 0, 7 );
	a.alpha[0] = 1;
	return a;
}

/* hyb_l3_valid agrees with the reference checks on random arguments of
   every op, precision and layout. */
static void test_valid_random( void )
{
	hyb_t_rng_t r          = hyb_t_rng( 101 );
	int         checked[2] = { 0, 0 };
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
		{
			if ( !hyb_t_op_has_prec( hyb_t_l3_ops[o], (hyb_prec_t)p ) ) continue;
			for ( int it = 0; it < 4000; it++ )
			{
				char          layout = it % 2 ? 'R' : 'C';
				hyb_l3_args_t a      = random_args( &r, hyb_t_l3_ops[o], (hyb_prec_t)p, layout );
				int           want = layout == 'C' ? ref_info_col( &a ) == 0 : ref_valid_row( &a );
				int           got  = hyb_l3_valid( &a );
				if ( got != want )
					fprintf( stderr,
					         "\n    %c%s %c side=%c uplo=%c ta=%c tb=%c diag=%c m=%lld n=%lld "
					         "k=%lld lda=%lld "
					         "ldb=%lld ldc=%lld: hyblas %d, reference %d",
					         hyb_prec_char( (hyb_prec_t)p ), hyb_op_name( a.op ), layout, a.side,
					         a.uplo, a.transa, a.transb, a.diag, (long long)a.m, (long long)a.n,
					         (long long)a.k, (long long)a.lda, (long long)a.ldb, (long long)a.ldc,
					         got, want );
				CU_ASSERT_EQUAL( got, want );
				/* The INFO xerbla gets: the reference's, column-major. */
				if ( layout == 'C' ) CU_ASSERT_EQUAL( hyb_l3_info( &a ), ref_info_col( &a ) );
				CU_ASSERT_EQUAL( hyb_l3_info( &a ) == 0, want );
				checked[want]++;
			}
		}
	/* Both outcomes were exercised plenty. */
	CU_ASSERT( checked[0] > 10000 && checked[1] > 2000 );
	/* A layout that is neither is invalid. */
	hyb_l3_args_t a = { .op     = HYB_OP_GEMM,
		                .prec   = HYB_PREC_D,
		                .layout = '?',
		                .transa = 'N',
		                .transb = 'N',
		                .m      = 2,
		                .n      = 2,
		                .k      = 2,
		                .lda    = 2,
		                .ldb    = 2,
		                .ldc    = 2 };
	CU_ASSERT_FALSE( hyb_l3_valid( &a ) );
	CU_ASSERT_EQUAL( hyb_l3_info( &a ), 1 );
	a.layout = 'C';
	CU_ASSERT_TRUE( hyb_l3_valid( &a ) );
	a.op = HYB_OP_GTSV;
	CU_ASSERT_FALSE( hyb_l3_valid( &a ) );
}

/* Leading dimensions at their bounds: max(1, rows) is valid, one less is
   not, for every operand of every op (column-major and row-major). */
static void test_valid_ld_boundaries( void )
{
	hyb_t_rng_t r = hyb_t_rng( 102 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
		{
			if ( !hyb_t_op_has_prec( hyb_t_l3_ops[o], (hyb_prec_t)p ) ) continue;
			for ( int it = 0; it < 300; it++ )
			{
				char          layout = it % 2 ? 'R' : 'C';
				hyb_l3_args_t a      = { .op     = hyb_t_l3_ops[o],
					                     .prec   = (hyb_prec_t)p,
					                     .layout = layout };
				hyb_t_random_options( &r, a.op, a.prec, &a.side, &a.uplo, &a.transa, &a.transb,
				                      &a.diag );
				a.m = hyb_t_int( &r, 0, 6 ), a.n = hyb_t_int( &r, 0, 6 ),
				a.k   = hyb_t_int( &r, 0, 6 );
				a.lda = a.ldb = a.ldc = 100;
				CU_ASSERT_TRUE_FATAL( hyb_l3_valid( &a ) );
				for ( int q = 0; q < 3; q++ )
				{
					/* The smallest valid value, found by the reference. */
					hyb_l3_args_t t  = a;
					int64_t*      ld = q == 0 ? &t.lda : q == 1 ? &t.ldb : &t.ldc;
					*ld              = 0;
					while ( ( layout == 'C' ? ref_info_col( &t ) != 0 : !ref_valid_row( &t ) ) &&
					        *ld < 100 )
						( *ld )++;
					if ( *ld == 0 ) continue; /* operand not used by this op */
					CU_ASSERT( *ld >= 1 );
					CU_ASSERT_TRUE( hyb_l3_valid( &t ) );
					( *ld )--;
					CU_ASSERT_FALSE( hyb_l3_valid( &t ) );
				}
			}
		}
}

/* Each argument position made invalid alone makes the call invalid. */
static void test_valid_each_position( void )
{
	hyb_t_rng_t r = hyb_t_rng( 103 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
		{
			if ( !hyb_t_op_has_prec( hyb_t_l3_ops[o], (hyb_prec_t)p ) ) continue;
			hyb_l3_args_t a = { .op = hyb_t_l3_ops[o], .prec = (hyb_prec_t)p, .layout = 'C' };
			hyb_t_random_options( &r, a.op, a.prec, &a.side, &a.uplo, &a.transa, &a.transb,
			                      &a.diag );
			a.m = 3, a.n = 4, a.k = 5, a.lda = a.ldb = a.ldc = 9;
			CU_ASSERT_TRUE_FATAL( hyb_l3_valid( &a ) );
			hyb_l3_args_t bad[12];
			int           nb = 0;
			int uses_side    = a.op == HYB_OP_SYMM || a.op == HYB_OP_HEMM || a.op == HYB_OP_TRSM ||
			                a.op == HYB_OP_TRMM;
			int rank_k = hyb_op_is_rank_k( a.op );
			int tri    = a.op == HYB_OP_TRSM || a.op == HYB_OP_TRMM;
			if ( uses_side ) bad[nb] = a, bad[nb++].side = '?';
			if ( a.op != HYB_OP_GEMM ) bad[nb] = a, bad[nb++].uplo = 'X';
			if ( a.op == HYB_OP_GEMM || rank_k || tri ) bad[nb] = a, bad[nb++].transa = '?';
			if ( a.op == HYB_OP_GEMM ) bad[nb] = a, bad[nb++].transb = 'U';
			if ( tri ) bad[nb] = a, bad[nb++].diag = 'T';
			if ( !rank_k ) bad[nb] = a, bad[nb++].m = -1;
			bad[nb] = a, bad[nb++].n = -1;
			if ( a.op == HYB_OP_GEMM || rank_k ) bad[nb] = a, bad[nb++].k = -1;
			bad[nb] = a, bad[nb++].lda = 2;
			if ( a.op != HYB_OP_SYRK && a.op != HYB_OP_HERK ) bad[nb] = a, bad[nb++].ldb = 2;
			if ( !tri ) bad[nb] = a, bad[nb++].ldc = 2;
			for ( int b = 0; b < nb; b++ )
			{
				CU_ASSERT_NOT_EQUAL( ref_info_col( &bad[b] ), 0 );
				CU_ASSERT_FALSE( hyb_l3_valid( &bad[b] ) );
				CU_ASSERT_EQUAL( hyb_l3_info( &bad[b] ), ref_info_col( &bad[b] ) );
			}
			/* Options of another routine: herk takes no 'T', complex syrk no 'C'. */
			if ( a.op == HYB_OP_HERK || a.op == HYB_OP_HER2K )
			{
				hyb_l3_args_t t = a;
				t.transa        = 'T';
				CU_ASSERT_FALSE( hyb_l3_valid( &t ) );
			}
			if ( ( a.op == HYB_OP_SYRK || a.op == HYB_OP_SYR2K ) )
			{
				hyb_l3_args_t t = a;
				t.transa        = 'C';
				CU_ASSERT_EQUAL( hyb_l3_valid( &t ), !hyb_prec_is_complex( a.prec ) );
			}
		}
}

/* Integer argument `f` (m, n, k, lda, ldb, ldc) of `a`. */
static int64_t* int_arg( hyb_l3_args_t* a, int f )
{
	int64_t* fields[6] = { &a->m, &a->n, &a->k, &a->lda, &a->ldb, &a->ldc };
	return fields[f];
}

/* The first INTEGER argument a 32-bit INTEGER cannot hold, numbered as
   INFO is: each position of each op alone, and the first of two. */
static void test_wide_arg( void )
{
	const int64_t big = (int64_t)INT32_MAX + 1;
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
	{
		hyb_l3_args_t a = { .op     = hyb_t_l3_ops[o],
			                .prec   = HYB_PREC_Z,
			                .layout = 'C',
			                .side   = 'L',
			                .uplo   = 'U',
			                .transa = 'N',
			                .transb = 'N',
			                .diag   = 'N',
			                .m      = 3,
			                .n      = 4,
			                .k      = 5,
			                .lda    = 9,
			                .ldb    = 9,
			                .ldc    = 9 };
		CU_ASSERT_EQUAL( hyb_l3_wide_arg( &a ), 0 );
		int first = 0;
		for ( int f = 0; f < 6; f++ )
		{
			/* The position is the one INFO gives when that argument alone is
			   made invalid, 0 for one the op does not take. */
			hyb_l3_args_t bad   = a;
			*int_arg( &bad, f ) = f < 3 ? -1 : 0;
			int           want  = ref_info_col( &bad );
			hyb_l3_args_t t     = a;
			*int_arg( &t, f )   = big;
			CU_ASSERT_EQUAL( hyb_l3_wide_arg( &t ), want );
			*int_arg( &t, f ) = -big - 1;
			CU_ASSERT_EQUAL( hyb_l3_wide_arg( &t ), want );
			if ( want && !first ) first = want;
		}
		/* All of them at once: the first in the signature. */
		hyb_l3_args_t all = a;
		for ( int f = 0; f < 6; f++ ) *int_arg( &all, f ) = big;
		CU_ASSERT_EQUAL( hyb_l3_wide_arg( &all ), first );
	}
	/* Row-major is numbered as the column-major call it becomes: a gemm's
	   row-major A is that call's B (argument 10), its M is N (argument 4). */
	hyb_l3_args_t r = { .op     = HYB_OP_GEMM,
		                .prec   = HYB_PREC_D,
		                .layout = 'R',
		                .transa = 'N',
		                .transb = 'N',
		                .m      = big,
		                .n      = 4,
		                .k      = 5,
		                .lda    = 5,
		                .ldb    = 4,
		                .ldc    = 4 };
	CU_ASSERT_EQUAL( hyb_l3_wide_arg( &r ), 4 );
	r.m = 3, r.lda = big;
	CU_ASSERT_EQUAL( hyb_l3_wide_arg( &r ), 10 );
}

/* ------------------------------------------------------------------ normalize */

/* A row-major call and its normalized column-major call give the same
   numbers, computed by the same reference on the same memory: the
   normalized call reads the row-major operands as their transposes. */
static void test_normalize( void )
{
	hyb_t_rng_t r    = hyb_t_rng( 104 );
	int         runs = 0;
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int p = 0; p < HYB_PREC_COUNT; p++ )
		{
			hyb_op_t op = hyb_t_l3_ops[o];
			if ( !hyb_t_op_has_prec( op, (hyb_prec_t)p ) ) continue;
			for ( int it = 0; it < 40; it++ )
			{
				char s, u, ta, tb, dg;
				hyb_t_random_options( &r, op, (hyb_prec_t)p, &s, &u, &ta, &tb, &dg );
				hyb_t_problem_t pr;
				hyb_t_problem_make( &pr, &r, op, (hyb_prec_t)p, 'R', s, u, ta, tb, dg,
				                    hyb_t_int( &r, 1, 7 ), hyb_t_int( &r, 1, 7 ),
				                    hyb_t_int( &r, 1, 7 ), hyb_t_int( &r, 0, 2 ),
				                    (int)hyb_t_int( &r, 0, 2 ) );
				CU_ASSERT_TRUE_FATAL( hyb_l3_valid( &pr.args ) );
				int64_t ld;
				void*   out   = hyb_l3_out( &pr.args, &ld );
				size_t  bytes = hyb_t_out_bytes( &pr.args );
				void *  c0 = malloc( bytes ), *c1 = malloc( bytes ), *c2 = malloc( bytes );
				CU_ASSERT_FATAL( c0 && c1 && c2 );
				memcpy( c0, out, bytes );

				/* Row-major reference on a copy. */
				hyb_l3_args_t row = pr.args;
				memcpy( c1, c0, bytes );
				if ( op == HYB_OP_TRSM || op == HYB_OP_TRMM )
					row.b = c1;
				else
					row.c = c1;
				hyb_t_ref_l3( &row );

				/* Normalized call on another copy. */
				hyb_l3_args_t col = pr.args;
				hyb_l3_normalize( &col );
				CU_ASSERT_EQUAL( col.layout, 'C' );
				CU_ASSERT_TRUE( hyb_l3_valid( &col ) );
				CU_ASSERT_DOUBLE_EQUAL( hyb_l3_flops( &col ), hyb_l3_flops( &pr.args ), 0 );
				memcpy( c2, c0, bytes );
				if ( op == HYB_OP_TRSM || op == HYB_OP_TRMM )
					col.b = c2;
				else
					col.c = c2;
				hyb_t_ref_l3( &col );

				double err = hyb_t_l3_error( &row, c2, c1, c0 );
				if ( !( err <= hyb_t_l3_tol( &row ) ) )
					fprintf( stderr, "\n    normalize %c%s uplo=%c side=%c ta=%c tb=%c: error %g",
					         hyb_prec_char( (hyb_prec_t)p ), hyb_op_name( op ), u, s, ta, tb, err );
				CU_ASSERT( err <= hyb_t_l3_tol( &row ) );
				/* Nothing outside the row-major output (padding, other triangle). */
				CU_ASSERT_EQUAL( hyb_t_outside_changed( &row, c2, c0 ), 0 );
				runs++;
				free( c0 ), free( c1 ), free( c2 );
				hyb_t_problem_free( &pr );
			}
		}
	CU_ASSERT( runs > 1000 );

	/* Column-major calls are left alone. */
	hyb_l3_args_t a = { .op     = HYB_OP_HER2K,
		                .prec   = HYB_PREC_Z,
		                .layout = 'C',
		                .uplo   = 'U',
		                .transa = 'N',
		                .n      = 3,
		                .k      = 2,
		                .alpha  = { 1, 2 },
		                .lda    = 3,
		                .ldb    = 3,
		                .ldc    = 3 };
	hyb_l3_args_t b = a;
	hyb_l3_normalize( &b );
	CU_ASSERT( memcmp( &a, &b, sizeof a ) == 0 );
}

/* her2k's alpha is conjugated by normalization, herk's real alpha is not;
   syrk's real 'C' becomes the transpose. */
static void test_normalize_scalars( void )
{
	hyb_l3_args_t a = { .op     = HYB_OP_HER2K,
		                .prec   = HYB_PREC_Z,
		                .layout = 'R',
		                .uplo   = 'U',
		                .transa = 'N',
		                .n      = 3,
		                .k      = 2,
		                .alpha  = { 1, 2 },
		                .beta   = { 0.5, 0 },
		                .lda    = 3,
		                .ldb    = 3,
		                .ldc    = 3 };
	hyb_l3_normalize( &a );
	CU_ASSERT( a.alpha[0] == 1 && a.alpha[1] == -2 && a.beta[0] == 0.5 );
	CU_ASSERT( a.uplo == 'L' && a.transa == 'C' );
	hyb_l3_args_t s = { .op     = HYB_OP_SYRK,
		                .prec   = HYB_PREC_D,
		                .layout = 'R',
		                .uplo   = 'L',
		                .transa = 'C',
		                .n      = 3,
		                .k      = 2,
		                .alpha  = { 1, 0 },
		                .lda    = 3,
		                .ldc    = 3 };
	hyb_l3_normalize( &s );
	CU_ASSERT( s.transa == 'N' && s.uplo == 'U' );
}

/* Scalars passed by address are read in the routine's precision (real ones
   in a complex routine as real), and a NULL address leaves the call as it
   came; emptiness is decided on the output alone. */
static void test_scalars_load( void )
{
	/* complex single alpha = (1.5, -2.25) and beta = (-2.25, 0.5) overlap */
	float         sf[3] = { 1.5f, -2.25f, 0.5f };
	double        df[2] = { -0.75, 3.5 };
	hyb_l3_args_t c     = { .op        = HYB_OP_GEMM,
		                    .prec      = HYB_PREC_C,
		                    .m         = 2,
		                    .n         = 2,
		                    .k         = 2,
		                    .alpha_ref = sf,
		                    .beta_ref  = sf + 1,
		                    .scal      = HYB_SCAL_ALPHA_REF | HYB_SCAL_BETA_REF };
	CU_ASSERT( hyb_l3_scalars_load( &c ) );
	CU_ASSERT( c.alpha[0] == 1.5 && c.alpha[1] == -2.25 && c.beta[0] == -2.25 && c.beta[1] == 0.5 &&
	           c.scal == 0 );
	hyb_l3_args_t h = { .op        = HYB_OP_HERK,
		                .prec      = HYB_PREC_Z,
		                .n         = 2,
		                .k         = 2,
		                .alpha_ref = df + 1,
		                .beta_ref  = df,
		                .scal      = HYB_SCAL_ALPHA_REF | HYB_SCAL_ALPHA_REAL | HYB_SCAL_BETA_REF |
		                        HYB_SCAL_BETA_REAL };
	CU_ASSERT( hyb_l3_scalars_load( &h ) );
	CU_ASSERT( h.alpha[0] == 3.5 && h.alpha[1] == 0 && h.beta[0] == -0.75 && h.beta[1] == 0 );
	CU_ASSERT( h.scal == ( HYB_SCAL_ALPHA_REAL | HYB_SCAL_BETA_REAL ) );
	hyb_l3_args_t s = { .op        = HYB_OP_TRSM,
		                .prec      = HYB_PREC_S,
		                .m         = 1,
		                .n         = 1,
		                .alpha_ref = sf + 1,
		                .scal      = HYB_SCAL_ALPHA_REF };
	CU_ASSERT( hyb_l3_scalars_load( &s ) && s.alpha[0] == -2.25 && s.beta[0] == 0 );
	/* By value (CBLAS real): nothing to read. */
	hyb_l3_args_t v = {
		.op = HYB_OP_GEMM, .prec = HYB_PREC_D, .alpha = { 2, 0 }, .beta = { 1, 0 }
	};
	CU_ASSERT( hyb_l3_scalars_load( &v ) && v.alpha[0] == 2 && v.beta[0] == 1 );
	/* A NULL beta: refused, nothing read or changed. */
	hyb_l3_args_t n = { .op        = HYB_OP_GEMM,
		                .prec      = HYB_PREC_D,
		                .m         = 3,
		                .n         = 3,
		                .k         = 3,
		                .alpha_ref = df,
		                .scal      = HYB_SCAL_ALPHA_REF | HYB_SCAL_BETA_REF };
	CU_ASSERT( !hyb_l3_scalars_load( &n ) );
	CU_ASSERT( n.alpha[0] == 0 && n.scal == ( HYB_SCAL_ALPHA_REF | HYB_SCAL_BETA_REF ) );

	hyb_l3_args_t e = { .op = HYB_OP_GEMM, .m = 0, .n = 4, .k = 4 };
	CU_ASSERT( hyb_l3_empty( &e ) );
	e.m = 4, e.k = 0;
	CU_ASSERT( !hyb_l3_empty( &e ) ); /* k = 0 still scales C by beta */
	e.op = HYB_OP_SYRK, e.m = 0;
	CU_ASSERT( !hyb_l3_empty( &e ) ); /* rank-k: m is not a dimension */
	e.n = 0;
	CU_ASSERT( hyb_l3_empty( &e ) );
	e.op = HYB_OP_TRMM, e.m = 0, e.n = 3;
	CU_ASSERT( hyb_l3_empty( &e ) );
}

/* ------------------------------------------------------------------ trivial, flops, bytes */

static void test_trivial( void )
{
	hyb_t_rng_t r = hyb_t_rng( 105 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int it = 0; it < 500; it++ )
		{
			hyb_l3_args_t a = { .op     = hyb_t_l3_ops[o],
				                .prec   = (hyb_prec_t)hyb_t_int( &r, 2, 3 ),
				                .layout = 'C' };
			hyb_t_random_options( &r, a.op, a.prec, &a.side, &a.uplo, &a.transa, &a.transb,
			                      &a.diag );
			a.m = hyb_t_int( &r, 0, 3 ), a.n = hyb_t_int( &r, 0, 3 ), a.k = hyb_t_int( &r, 0, 3 );
			int rank_k = hyb_op_is_rank_k( a.op );
			if ( a.op != HYB_OP_GEMM && !rank_k ) a.k = 0; /* unused: zero by convention */
			if ( rank_k ) a.m = 0;
			int az     = (int)hyb_t_int( &r, 0, 3 );
			a.alpha[0] = az == 0 ? 0.0 : az == 1 ? 1.0 : 0.0;
			a.alpha[1] = az == 2 ? 1.0 : 0.0; /* purely imaginary alpha is not zero */
			a.beta[0]  = (double)hyb_t_int( &r, 0, 1 );
			/* Nothing to multiply: an empty output, an empty inner dimension, or alpha = 0. */
			int empty = rank_k                ? ( a.n == 0 || a.k == 0 )
			            : a.op == HYB_OP_GEMM ? ( a.m == 0 || a.n == 0 || a.k == 0 )
			                                  : ( a.m == 0 || a.n == 0 );
			CU_ASSERT_EQUAL( hyb_l3_trivial( &a ), empty || az == 0 || az == 3 );
			CU_ASSERT_EQUAL( hyb_l3_flops( &a ) == 0, empty );
		}
}

static void test_flops( void )
{
	hyb_t_rng_t r = hyb_t_rng( 106 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int it = 0; it < 200; it++ )
		{
			hyb_l3_args_t a = { .op     = hyb_t_l3_ops[o],
				                .prec   = (hyb_prec_t)hyb_t_int( &r, 0, 3 ),
				                .layout = 'C' };
			hyb_t_random_options( &r, a.op, a.prec, &a.side, &a.uplo, &a.transa, &a.transb,
			                      &a.diag );
			double m = (double)( a.m = hyb_t_int( &r, 1, 100000 ) ),
			       n = (double)( a.n = hyb_t_int( &r, 1, 100000 ) ),
			       k = (double)( a.k = hyb_t_int( &r, 1, 100000 ) );
			double d = a.side == 'L' ? m : n, f;
			/* LAWN 41 counts (one multiply and one add per multiply-add). */
			switch ( a.op )
			{
			case HYB_OP_GEMM:
				f = 2 * m * n * k;
				break;
			case HYB_OP_SYMM:
			case HYB_OP_HEMM:
				f = 2 * d * m * n;
				break;
			case HYB_OP_SYRK:
			case HYB_OP_HERK:
				f = k * n * ( n + 1 );
				break;
			case HYB_OP_SYR2K:
			case HYB_OP_HER2K:
				f = 2 * k * n * ( n + 1 );
				break;
			default:
				f = d * m * n;
				break;
			}
			if ( hyb_prec_is_complex( a.prec ) ) f *= 4;
			CU_ASSERT_DOUBLE_EQUAL( hyb_l3_flops( &a ), f, f * 1e-15 );
		}
	/* 64-bit sizes do not overflow. */
	hyb_l3_args_t big = { .op     = HYB_OP_GEMM,
		                  .prec   = HYB_PREC_Z,
		                  .layout = 'C',
		                  .transa = 'N',
		                  .transb = 'N',
		                  .m      = 3000000000LL,
		                  .n      = 3000000000LL,
		                  .k      = 3000000000LL };
	CU_ASSERT_DOUBLE_EQUAL( hyb_l3_flops( &big ), 8 * 2.7e28, 8 * 2.7e28 * 1e-12 );
}

static void test_bytes( void )
{
	hyb_l3_args_t a = { .op     = HYB_OP_GEMM,
		                .prec   = HYB_PREC_D,
		                .layout = 'C',
		                .transa = 'N',
		                .transb = 'T',
		                .m      = 10,
		                .n      = 20,
		                .k      = 30,
		                .alpha  = { 1, 0 },
		                .beta   = { 0, 0 } };
	double        in, out;
	hyb_l3_bytes( &a, &in, &out );
	CU_ASSERT_DOUBLE_EQUAL( in, 8.0 * ( 10 * 30 + 30 * 20 ), 0 );
	CU_ASSERT_DOUBLE_EQUAL( out, 8.0 * 10 * 20, 0 );
	a.beta[1] = 1; /* any nonzero beta reads C */
	hyb_l3_bytes( &a, &in, &out );
	CU_ASSERT_DOUBLE_EQUAL( in, 8.0 * ( 10 * 30 + 30 * 20 + 10 * 20 ), 0 );
	/* Rank-k: the triangle only; trsm: B is read and written whatever beta. */
	hyb_l3_args_t s = { .op     = HYB_OP_SYR2K,
		                .prec   = HYB_PREC_C,
		                .layout = 'C',
		                .uplo   = 'U',
		                .transa = 'N',
		                .n      = 10,
		                .k      = 4,
		                .alpha  = { 1, 0 } };
	hyb_l3_bytes( &s, &in, &out );
	CU_ASSERT_DOUBLE_EQUAL( in, 8.0 * 2 * 10 * 4, 0 );
	CU_ASSERT_DOUBLE_EQUAL( out, 8.0 * 55, 0 );
	hyb_l3_args_t t = { .op     = HYB_OP_TRSM,
		                .prec   = HYB_PREC_S,
		                .layout = 'C',
		                .side   = 'R',
		                .uplo   = 'U',
		                .transa = 'N',
		                .diag   = 'N',
		                .m      = 6,
		                .n      = 4,
		                .alpha  = { 1, 0 } };
	hyb_l3_bytes( &t, &in, &out );
	CU_ASSERT( in >= 4.0 * 6 * 4 && in <= 4.0 * ( 6 * 4 + 4 * 4 ) );
	CU_ASSERT_DOUBLE_EQUAL( out, 4.0 * 6 * 4, 0 );
}

static CU_TestInfo hyb_tests_l3_check[] = {
	{ "valid_random", test_valid_random },
	{ "valid_ld_boundaries", test_valid_ld_boundaries },
	{ "valid_each_position", test_valid_each_position },
	{ "wide_arg", test_wide_arg },
	{ "normalize", test_normalize },
	{ "normalize_scalars", test_normalize_scalars },
	{ "scalars_load", test_scalars_load },
	{ "trivial", test_trivial },
	{ "flops", test_flops },
	{ "bytes", test_bytes },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_l3_check = { "l3_check", NULL, NULL, NULL, NULL, hyb_tests_l3_check };
