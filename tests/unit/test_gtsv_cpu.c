/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU tridiagonal kernels against the real LAPACK dgtsv_/sgtsv_: solutions, factor
   outputs, INFO, and the checks that decide the SPIKE path. */
#include <CUnit/CUnit.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/hyb_gtsv_cpu.h"
#include "policies/hyb_policy_gtsv.h"

/* The reference: LAPACK through its Fortran ABI (32-bit integers, no hidden lengths). */
void dgtsv_( const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
             const int* ldb, int* info );
void sgtsv_( const int* n, const int* nrhs, float* dl, float* d, float* du, float* b,
             const int* ldb, int* info );

/* ---------------------------------------------------------------------------------------
   Deterministic random numbers (splitmix64), seeded per test.
   --------------------------------------------------------------------------------------- */
static uint64_t tg_state;

static void tg_seed( uint64_t s )
{
	tg_state = s * 0x9E3779B97F4A7C15ull + 12345u;
}

static double tg_unif( void ) /* [0, 1) */
{
	uint64_t z = ( tg_state += 0x9E3779B97F4A7C15ull );
	z          = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)( z >> 11 ) * 0x1.0p-53;
}

static double tg_sym( void ) /* [-1, 1) */
{
	return 2 * tg_unif() - 1;
}

/* Matrix kinds. */
enum
{
	TG_ROW = 0,  /* |d| >= dom (|dl[i-1]| + |du[i]|), random off-diagonals */
	TG_COL,      /* |d| >= dom (|du[i-1]| + |dl[i]|) */
	TG_ROWSWAP,  /* row dominant, large dl and tiny du: LAPACK swaps rows */
	TG_ROWNOSWAP, /* row dominant, not column dominant, LAPACK keeps the rows (see below) */
	TG_BOTH       /* row and column dominant */
};

/* A system in double (float tests round it). dl, du have n-1 entries (n >= 1). */
typedef struct
{
	int64_t n, nrhs, ldb;
	double *dl, *d, *du, *b;
} tg_sys_t;

static void tg_free( tg_sys_t* s )
{
	free( s->dl );
	free( s->d );
	free( s->du );
	free( s->b );
	memset( s, 0, sizeof *s );
}

static tg_sys_t tg_make( int kind, int64_t n, int64_t nrhs, int64_t pad, double dom )
{
	tg_sys_t s;
	s.n    = n;
	s.nrhs = nrhs;
	s.ldb  = n + pad;
	s.dl   = malloc( (size_t)( n > 1 ? n - 1 : 1 ) * sizeof( double ) );
	s.du   = malloc( (size_t)( n > 1 ? n - 1 : 1 ) * sizeof( double ) );
	s.d    = malloc( (size_t)n * sizeof( double ) );
	s.b    = malloc( (size_t)( s.ldb * ( nrhs > 0 ? nrhs : 1 ) ) * sizeof( double ) );
	for ( int64_t i = 0; i + 1 < n; i++ )
	{
		switch ( kind )
		{
		case TG_ROWSWAP:
			s.dl[i] = ( 0.2 + 0.8 * tg_unif() ) * ( tg_unif() < 0.5 ? -1 : 1 );
			s.du[i] = 0.01 * tg_sym();
			break;
		case TG_ROWNOSWAP:
			/* dl small, du large: rows are dominated by du, columns need du[i-1] + dl[i]. */
			s.dl[i] = 0.25 * tg_sym();
			s.du[i] = ( 0.5 + 0.5 * tg_unif() ) * ( tg_unif() < 0.5 ? -1 : 1 );
			break;
		default:
			s.dl[i] = tg_sym();
			s.du[i] = tg_sym();
		}
	}
	for ( int64_t i = 0; i < n; i++ )
	{
		double offr = ( i >= 1 ? fabs( s.dl[i - 1] ) : 0 ) + ( i + 1 < n ? fabs( s.du[i] ) : 0 );
		double offc = ( i >= 1 ? fabs( s.du[i - 1] ) : 0 ) + ( i + 1 < n ? fabs( s.dl[i] ) : 0 );
		double off  = kind == TG_COL ? offc : kind == TG_BOTH ? fmax( offr, offc ) : offr;
		if ( off == 0 ) off = 1;
		double mag = dom * off * ( 1 + 0.25 * tg_unif() );
		s.d[i]     = tg_unif() < 0.5 ? -mag : mag;
	}
	for ( int64_t j = 0; j < ( nrhs > 0 ? nrhs : 1 ); j++ )
		for ( int64_t i = 0; i < s.ldb; i++ ) s.b[j * s.ldb + i] = i < n ? tg_sym() : 777.0;
	return s;
}

static double* tg_dup( const double* x, int64_t len )
{
	double* y = malloc( (size_t)( len > 0 ? len : 1 ) * sizeof( double ) );
	memcpy( y, x, (size_t)( len > 0 ? len : 0 ) * sizeof( double ) );
	return y;
}

static float* tg_dupf( const double* x, int64_t len )
{
	float* y = malloc( (size_t)( len > 0 ? len : 1 ) * sizeof( float ) );
	for ( int64_t i = 0; i < len; i++ ) y[i] = (float)x[i];
	return y;
}

/* Normwise backward error max_j ||A x_j - b_j||_inf / (||A||_inf ||x_j||_inf + ||b_j||_inf),
   in long double, of x (stride ldx) for the ORIGINAL system s (given in float or double). */
static double tg_berr( const tg_sys_t* s, const double* x, int64_t ldx )
{
	int64_t     n = s->n;
	long double anorm = 0, worst = 0;
	for ( int64_t i = 0; i < n; i++ )
	{
		long double r = fabsl( (long double)s->d[i] );
		if ( i >= 1 ) r += fabsl( (long double)s->dl[i - 1] );
		if ( i + 1 < n ) r += fabsl( (long double)s->du[i] );
		if ( r > anorm ) anorm = r;
	}
	for ( int64_t j = 0; j < s->nrhs; j++ )
	{
		const double* xj = x + j * ldx;
		const double* bj = s->b + j * s->ldb;
		long double   rn = 0, xn = 0, bn = 0;
		for ( int64_t i = 0; i < n; i++ )
		{
			long double ax = (long double)s->d[i] * xj[i];
			if ( i >= 1 ) ax += (long double)s->dl[i - 1] * xj[i - 1];
			if ( i + 1 < n ) ax += (long double)s->du[i] * xj[i + 1];
			long double r = fabsl( ax - bj[i] );
			if ( r > rn ) rn = r;
			if ( fabsl( (long double)xj[i] ) > xn ) xn = fabsl( (long double)xj[i] );
			if ( fabsl( (long double)bj[i] ) > bn ) bn = fabsl( (long double)bj[i] );
		}
		long double den = anorm * xn + bn;
		long double be  = den > 0 ? rn / den : rn;
		if ( be > worst ) worst = be;
	}
	return (double)worst;
}

/* Same for a float solution of the float-rounded system (the system that sgtsv_ saw). */
static double tg_berr_f( const tg_sys_t* s, const float* x, int64_t ldx )
{
	tg_sys_t r = *s;
	r.dl       = tg_dup( s->dl, s->n - 1 );
	r.d        = tg_dup( s->d, s->n );
	r.du       = tg_dup( s->du, s->n - 1 );
	r.b        = tg_dup( s->b, s->ldb * s->nrhs );
	for ( int64_t i = 0; i + 1 < s->n; i++ )
	{
		r.dl[i] = (float)r.dl[i];
		r.du[i] = (float)r.du[i];
	}
	for ( int64_t i = 0; i < s->n; i++ ) r.d[i] = (float)r.d[i];
	for ( int64_t i = 0; i < s->ldb * s->nrhs; i++ ) r.b[i] = (float)r.b[i];
	double* xd = malloc( (size_t)( ldx * s->nrhs + 1 ) * sizeof( double ) );
	for ( int64_t i = 0; i < ldx * s->nrhs; i++ ) xd[i] = x[i];
	double be = tg_berr( &r, xd, ldx );
	free( xd );
	tg_free( &r );
	return be;
}

/* Results of LAPACK on a copy of s. */
typedef struct
{
	double *dl, *d, *du, *b;
	int     info;
} tg_lapack_t;

static tg_lapack_t tg_lapack( const tg_sys_t* s )
{
	tg_lapack_t r;
	r.dl     = tg_dup( s->dl, s->n - 1 );
	r.d      = tg_dup( s->d, s->n );
	r.du     = tg_dup( s->du, s->n - 1 );
	r.b      = tg_dup( s->b, s->ldb * ( s->nrhs > 0 ? s->nrhs : 1 ) );
	int n    = (int)s->n, nrhs = (int)s->nrhs, ldb = (int)s->ldb;
	dgtsv_( &n, &nrhs, r.dl, r.d, r.du, r.b, &ldb, &r.info );
	return r;
}

static void tg_lapack_free( tg_lapack_t* r )
{
	free( r->dl );
	free( r->d );
	free( r->du );
	free( r->b );
}

/* First LAPACK step (1-based) that exchanged rows, read from its outputs: a swap at step
   k <= n-2 leaves DL(k) = DU(k+1) (input) instead of 0. 0 if none seen. */
static int64_t tg_first_swap( const tg_sys_t* s, const double* dl_out )
{
	for ( int64_t i = 0; i + 2 < s->n; i++ )
		if ( dl_out[i] != 0 ) return i + 1;
	return 0;
}

/* LAPACK's first swap step (1-based) by a plain serial replay of its test, 0 if none (it
   also stops at an exact zero pivot, where LAPACK returns). */
static int64_t tg_serial_swap( const tg_sys_t* s )
{
	double c = s->d[0];
	for ( int64_t i = 0; i + 1 < s->n; i++ )
	{
		if ( fabs( c ) < fabs( s->dl[i] ) ) return i + 1;
		if ( c == 0 ) return 0;
		double f = s->dl[i] / c;
		c        = s->d[i + 1] - f * s->du[i];
	}
	return 0;
}

static int tg_fail_count;

#define TG_EXPECT( cond, ... ) \
	do \
	{ \
		int ok_ = ( cond ) ? 1 : 0; \
		CU_ASSERT( ok_ ); \
		if ( !ok_ && tg_fail_count++ < 20 ) \
		{ \
			fprintf( stderr, "\n  %s:%d: ", __FILE__, __LINE__ ); \
			fprintf( stderr, __VA_ARGS__ ); \
		} \
	} while ( 0 )

#define TG_U  ( DBL_EPSILON / 2 )
#define TG_UF ( FLT_EPSILON / 2 )

/* Max relative elementwise difference |a - b| / |b| (b != 0; else |a|). */
static double tg_reldiff( const double* a, const double* b, int64_t len )
{
	double w = 0;
	for ( int64_t i = 0; i < len; i++ )
	{
		double den = fabs( b[i] ) > 0 ? fabs( b[i] ) : 1;
		double r   = fabs( a[i] - b[i] ) / den;
		if ( !( r <= w ) ) w = r;
	}
	return w;
}

static int tg_same( const double* a, const double* b, int64_t len )
{
	return len <= 0 || memcmp( a, b, (size_t)len * sizeof( double ) ) == 0;
}

/* The padding rows of B (between n and ldb) must be untouched. */
static int tg_pad_ok( const tg_sys_t* s, const double* b )
{
	for ( int64_t j = 0; j < s->nrhs; j++ )
		for ( int64_t i = s->n; i < s->ldb; i++ )
			if ( b[j * s->ldb + i] != 777.0 ) return 0;
	return 1;
}

/* ---------------------------------------------------------------------------------------
   Thomas = LAPACK's no-swap branch.
   --------------------------------------------------------------------------------------- */
static void test_thomas_vs_lapack( void )
{
	static const int64_t ns[] = { 1, 2, 3, 4, 7, 64, 1000 };
	tg_seed( 1 );
	for ( size_t a = 0; a < sizeof ns / sizeof ns[0]; a++ )
		for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
		{
			int64_t     n = ns[a];
			tg_sys_t    s = tg_make( TG_COL, n, nrhs, 3, 1.5 );
			tg_lapack_t L = tg_lapack( &s );
			double *dl = tg_dup( s.dl, n - 1 ), *d = tg_dup( s.d, n ), *b = tg_dup( s.b, s.ldb * nrhs );
			int64_t info = -5;
			CU_ASSERT_EQUAL( hyb_dgtsv_thomas( n, nrhs, dl, d, s.du, b, s.ldb, &info ), HYB_OK );
			TG_EXPECT( info == L.info && info == 0, "n=%ld info %ld vs %d\n", (long)n, (long)info,
			           L.info );
			TG_EXPECT( tg_reldiff( d, L.d, n ) <= 4 * TG_U, "n=%ld D differs\n", (long)n );
			TG_EXPECT( tg_same( dl, L.dl, n - 1 ), "n=%ld DL differs\n", (long)n );
			double bx = tg_berr( &s, b, s.ldb ), bl = tg_berr( &s, L.b, s.ldb );
			TG_EXPECT( bx <= 10 * fmax( bl, TG_U ), "n=%ld berr %g vs lapack %g\n", (long)n, bx, bl );
			TG_EXPECT( tg_pad_ok( &s, b ), "padding written\n" );
			free( dl );
			free( d );
			free( b );
			tg_lapack_free( &L );
			tg_free( &s );
		}
}

/* ---------------------------------------------------------------------------------------
   SPIKE against LAPACK: X, factors, untouched padding; several n, nrhs, kinds, dominance.
   --------------------------------------------------------------------------------------- */
static void tg_spike_case( int kind, int64_t n, int64_t nrhs, double dom, int nthreads )
{
	tg_sys_t         s = tg_make( kind, n, nrhs, 2, dom );
	hyb_gtsv_check_t chk;
	CU_ASSERT_EQUAL( hyb_dgtsv_check( n, s.dl, s.d, s.du, HYB_GTSV_WINDOW_MAX, nthreads, &chk ),
	                 HYB_OK );
	int64_t m    = 0;
	int     plan = (int)hyb_policy_gtsv_choose( chk.dom_row, chk.dom_col, chk.pivot, chk.info,
	                                             chk.nonfinite, HYB_PREC_D, 0, &m );
	TG_EXPECT( plan != HYB_GTSV_PLAN_LAPACK && m >= 1, "kind %d n=%ld: plan %d dom %g/%g piv %ld\n",
	           kind, (long)n, plan, chk.dom_row, chk.dom_col, (long)chk.pivot );
	if ( m < 1 ) m = HYB_GTSV_WINDOW_MAX;

	tg_lapack_t L = tg_lapack( &s );
	double *dl = tg_dup( s.dl, n - 1 ), *d = tg_dup( s.d, n ), *du = tg_dup( s.du, n - 1 );
	double* b  = tg_dup( s.b, s.ldb * nrhs );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( n, nrhs, dl, d, du, b, s.ldb, m, nthreads, HYB_GTSV_FACTORS ),
	                 HYB_OK );
	CU_ASSERT_EQUAL( L.info, 0 );
	double bx = tg_berr( &s, b, s.ldb ), bl = tg_berr( &s, L.b, s.ldb );
	TG_EXPECT( bx <= 10 * fmax( bl, TG_U ), "kind %d n=%ld nrhs=%ld dom %g thr %d: berr %g vs %g\n",
	           kind, (long)n, (long)nrhs, dom, nthreads, bx, bl );
	TG_EXPECT( tg_pad_ok( &s, b ), "padding written\n" );
	TG_EXPECT( tg_same( du, s.du, n - 1 ), "DU written\n" );
	if ( chk.pivot == 0 )
	{
		TG_EXPECT( tg_first_swap( &s, L.dl ) == 0, "check missed a swap\n" );
		TG_EXPECT( tg_reldiff( d, L.d, n ) <= 8 * TG_U, "kind %d n=%ld: D differs by %g ulp\n",
		           kind, (long)n, tg_reldiff( d, L.d, n ) / TG_U );
		TG_EXPECT( tg_same( dl, L.dl, n - 1 ), "kind %d n=%ld: DL differs\n", kind, (long)n );
		TG_EXPECT( tg_same( du, L.du, n - 1 ), "DU differs from LAPACK's\n" );
	}
	else
	{
		/* The replay and LAPACK's own output agree (a last-step swap leaves no trace in DL). */
		int64_t sw = tg_serial_swap( &s );
		TG_EXPECT( chk.pivot == sw, "pivot %ld vs serial %ld\n", (long)chk.pivot, (long)sw );
		TG_EXPECT( sw == n - 1 || sw == tg_first_swap( &s, L.dl ), "replay %ld vs LAPACK %ld\n",
		           (long)sw, (long)tg_first_swap( &s, L.dl ) );
	}

	/* Solve-only leaves dl and d alone and gives the same quality. */
	memcpy( dl, s.dl, (size_t)( n - 1 > 0 ? n - 1 : 0 ) * sizeof( double ) );
	memcpy( d, s.d, (size_t)n * sizeof( double ) );
	memcpy( b, s.b, (size_t)( s.ldb * nrhs ) * sizeof( double ) );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( n, nrhs, dl, d, du, b, s.ldb, m, nthreads, 0 ), HYB_OK );
	TG_EXPECT( tg_same( dl, s.dl, n - 1 ) && tg_same( d, s.d, n ), "solve-only wrote dl/d\n" );
	bx = tg_berr( &s, b, s.ldb );
	TG_EXPECT( bx <= 10 * fmax( bl, TG_U ), "solve-only berr %g vs %g\n", bx, bl );

	free( dl );
	free( d );
	free( du );
	free( b );
	tg_lapack_free( &L );
	tg_free( &s );
}

static void test_spike_vs_lapack( void )
{
	static const int64_t ns[]   = { 1, 2, 3, 5, 100, 1000, 20011, 100003 };
	static const double  doms[] = { 1.05, 2.0, 10.0 };
	tg_seed( 2 );
	int thr = 1;
	for ( int kind = TG_ROW; kind <= TG_COL; kind++ )
		for ( size_t a = 0; a < sizeof ns / sizeof ns[0]; a++ )
			for ( size_t k = 0; k < sizeof doms / sizeof doms[0]; k++ )
				for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
				{
					tg_spike_case( kind, ns[a], nrhs, doms[k], thr );
					thr = thr % 3 + 1;
				}
}

/* Sizes where a partition ends only a few rows after its last block boundary, so that the
   UL look-ahead of that block reaches the partition end and must use the seam there. This
   is white-box: with one thread, dom 1.05 (m = 782) and nrhs 1, hyb_gtsv_cpu.c uses 8
   partitions, blocks of 8m = 6256 rows, and skews the first seven boundaries so that
   partitions 0..6 have n/8 + 72 rows: n = 49472 + 8r gives r rows after the block
   boundary. (If the layout changes these stay valid tests, only less pointed; as they are,
   they catch the mutation "drop x(hi) in the look-ahead".) */
_Static_assert( HYB_GTSV_LANES == 8, "test_spike_block_edges assumes 8 lanes: update its sizes" );

static void test_spike_block_edges( void )
{
	tg_seed( 9 );
	for ( int64_t r = 1; r <= 24; r++ )
		tg_spike_case( r % 2 ? TG_ROW : TG_COL, 49472 + 8 * r, 1, 1.05, 1 );
}

static void test_spike_rowswap_and_noswap( void )
{
	tg_seed( 3 );
	/* Row dominant with LAPACK swaps: X still LAPACK's quality; pivot found. */
	tg_spike_case( TG_ROWSWAP, 50000, 1, 1.2, 2 );
	tg_spike_case( TG_ROWSWAP, 777, 3, 3.0, 3 );
	/* Row dominant, not column dominant, no swap: factors compared too. */
	tg_sys_t         s = tg_make( TG_ROWNOSWAP, 60000, 1, 0, 1.5 );
	hyb_gtsv_check_t chk;
	hyb_dgtsv_check( s.n, s.dl, s.d, s.du, HYB_GTSV_WINDOW_MAX, 2, &chk );
	TG_EXPECT( chk.dom_col < 1 && chk.dom_row >= 1.5 && chk.pivot == 0,
	           "premise: dom %g/%g pivot %ld\n", chk.dom_row, chk.dom_col, (long)chk.pivot );
	tg_free( &s );
	tg_seed( 3 );
	tg_spike_case( TG_ROWNOSWAP, 60000, 1, 1.5, 2 );
	tg_spike_case( TG_ROWNOSWAP, 60000, 3, 1.5, 3 );
}

/* ---------------------------------------------------------------------------------------
   Single precision against sgtsv_.
   --------------------------------------------------------------------------------------- */
static void test_spike_float( void )
{
	static const int64_t ns[] = { 1, 2, 3, 999, 30011 };
	static const double  doms[] = { 1.05, 3.0 };
	tg_seed( 4 );
	for ( int kind = TG_ROW; kind <= TG_COL; kind++ )
		for ( size_t a = 0; a < sizeof ns / sizeof ns[0]; a++ )
			for ( size_t k = 0; k < 2; k++ )
				for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
				{
					int64_t  n = ns[a];
					tg_sys_t s = tg_make( kind, n, nrhs, 1, doms[k] );
					float *dl = tg_dupf( s.dl, n - 1 ), *d = tg_dupf( s.d, n ), *du = tg_dupf( s.du, n - 1 );
					float* b  = tg_dupf( s.b, s.ldb * nrhs );
					float *ldl = tg_dupf( s.dl, n - 1 ), *ld = tg_dupf( s.d, n ), *ldu = tg_dupf( s.du, n - 1 );
					float* lb  = tg_dupf( s.b, s.ldb * nrhs );
					float *tdl = tg_dupf( s.dl, n - 1 ), *td = tg_dupf( s.d, n );
					float* tb  = tg_dupf( s.b, s.ldb * nrhs );
					int    in = (int)n, ir = (int)nrhs, il = (int)s.ldb, info = -1;
					sgtsv_( &in, &ir, ldl, ld, ldu, lb, &il, &info );
					CU_ASSERT_EQUAL( info, 0 );

					hyb_gtsv_check_t chk;
					hyb_sgtsv_check( n, dl, d, du, HYB_GTSV_WINDOW_MAX, 2, &chk );
					int64_t m = 0;
					hyb_policy_gtsv_choose( chk.dom_row, chk.dom_col, chk.pivot, chk.info,
					                        chk.nonfinite, HYB_PREC_S, 0, &m );
					TG_EXPECT( m >= 1, "float window\n" );
					CU_ASSERT_EQUAL( hyb_sgtsv_cpu_spike( n, nrhs, dl, d, du, b, s.ldb, m, 2,
					                                      HYB_GTSV_FACTORS ),
					                 HYB_OK );
					double bx = tg_berr_f( &s, b, s.ldb ), bl = tg_berr_f( &s, lb, s.ldb );
					TG_EXPECT( bx <= 10 * fmax( bl, TG_UF ), "float n=%ld: berr %g vs %g\n", (long)n,
					           bx, bl );
					if ( chk.pivot == 0 )
					{
						int ok = 1;
						for ( int64_t i = 0; i < n; i++ )
							ok &= fabsf( d[i] - ld[i] ) <= 8 * TG_UF * fabsf( ld[i] );
						for ( int64_t i = 0; i + 1 < n; i++ ) ok &= dl[i] == ldl[i];
						TG_EXPECT( ok, "float factors differ n=%ld\n", (long)n );
					}
					/* Thomas in float = sgtsv_ where it does not swap. */
					int64_t tinfo = -1;
					hyb_sgtsv_thomas( n, nrhs, tdl, td, du, tb, s.ldb, &tinfo );
					CU_ASSERT_EQUAL( tinfo, 0 );
					if ( chk.pivot == 0 )
					{
						double bt = tg_berr_f( &s, tb, s.ldb );
						TG_EXPECT( bt <= 10 * fmax( bl, TG_UF ), "float thomas berr %g\n", bt );
					}
					free( dl );
					free( d );
					free( du );
					free( b );
					free( ldl );
					free( ld );
					free( ldu );
					free( lb );
					free( tdl );
					free( td );
					free( tb );
					tg_free( &s );
				}
}

/* ---------------------------------------------------------------------------------------
   The checks flag what they must.
   --------------------------------------------------------------------------------------- */
static void test_check_flags( void )
{
	hyb_gtsv_check_t c;
	tg_seed( 5 );

	/* Column dominant: no pivot by proof, and LAPACK agrees. */
	tg_sys_t    s = tg_make( TG_COL, 40000, 1, 0, 1.1 );
	tg_lapack_t L = tg_lapack( &s );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 1000, 3, &c ), HYB_OK );
	TG_EXPECT( c.dom_col >= 1.1 && c.pivot == 0 && c.info == 0 && !c.nonfinite,
	           "col: %g %ld %ld\n", c.dom_col, (long)c.pivot, (long)c.info );
	TG_EXPECT( tg_first_swap( &s, L.dl ) == 0, "premise\n" );
	tg_lapack_free( &L );
	tg_free( &s );

	/* Row dominant, first swap deep inside, at a trap that only a warm restart of the
	   recurrence gets right: rows t-2 .. t+1 crafted so that d'[t-1] = 0.875 (a cold
	   restart there would take d[t-1] = 2) and LAPACK's test fails at row t with the true
	   d'[t] = 0.89786 < |dl[t]| = 0.902, but would pass with the cold 0.9075. The rows
	   before are row and column dominant, those after of the TG_ROWSWAP kind. The trap is
	   moved over 512 consecutive rows, so it meets the start of a partition wherever the
	   implementation puts one (80000 rows, warm 1000, 2 threads: ten partitions, one
	   starting in [56000, 56512)); each position must give the serial replay's answer. */
	s = tg_make( TG_BOTH, 80000, 1, 0, 1.3 );
	{
		tg_sys_t t = tg_make( TG_ROWSWAP, 80000, 1, 0, 1.3 );
		for ( int64_t i = 57000; i < s.n; i++ )
		{
			s.d[i] = t.d[i];
			if ( i + 1 < s.n )
			{
				s.dl[i] = t.dl[i];
				s.du[i] = t.du[i];
			}
		}
		s.d[57000] = 1.3 * ( fabs( s.dl[56999] ) + fabs( s.du[57000] ) ) + 0.01;
		tg_free( &t );
	}
	int trap_ok = 1;
	for ( int64_t t = 56000; t < 56512; t++ )
	{
		double sd[5], sl[4], su[4];
		for ( int k = 0; k < 5; k++ ) sd[k] = s.d[t - 3 + k];
		for ( int k = 0; k < 4; k++ )
		{
			sl[k] = s.dl[t - 3 + k];
			su[k] = s.du[t - 3 + k];
		}
		s.dl[t - 3] = 0; /* d'[t-2] = d[t-2] exactly */
		s.d[t - 2]  = 2;
		s.dl[t - 2] = 1.5;
		s.du[t - 2] = 1.5;
		s.d[t - 1]  = 2; /* d'[t-1] = 2 - 1.5 * 1.5 / 2 = 0.875 */
		s.dl[t - 1] = 0.5;
		s.du[t - 1] = 0.03;
		s.d[t]      = 0.915; /* d'[t] = 0.89786 < |dl[t]| = 0.902 < 0.9075 (cold) */
		s.dl[t]     = 0.902;
		s.du[t]     = 0.2;
		s.d[t + 1]  = 1.3 * ( 0.902 + fabs( s.du[t + 1] ) ) + 0.01;
		CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 1000, 2, &c ), HYB_OK );
		int64_t serial = tg_serial_swap( &s );
		if ( c.pivot != serial || serial != t + 1 || !( c.dom_row >= 1.3 ) || !( c.dom_col < 1 ) )
		{
			if ( trap_ok )
				fprintf( stderr, "\n  trap at %ld: pivot %ld serial %ld dom %g/%g\n", (long)t,
				         (long)c.pivot, (long)serial, c.dom_row, c.dom_col );
			trap_ok = 0;
		}
		if ( t == 56000 )
		{
			L = tg_lapack( &s );
			TG_EXPECT( tg_first_swap( &s, L.dl ) == t + 1, "LAPACK's first swap %ld\n",
			           (long)tg_first_swap( &s, L.dl ) );
			tg_lapack_free( &L );
		}
		for ( int k = 0; k < 5; k++ ) s.d[t - 3 + k] = sd[k];
		for ( int k = 0; k < 4; k++ )
		{
			s.dl[t - 3 + k] = sl[k];
			s.du[t - 3 + k] = su[k];
		}
	}
	CU_ASSERT( trap_ok );
	tg_free( &s );

	/* Not dominant: flagged; pivot/info either undetermined or LAPACK's. */
	s = tg_make( TG_ROW, 30000, 1, 0, 0.6 );
	L = tg_lapack( &s );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 1000, 2, &c ), HYB_OK );
	TG_EXPECT( c.dom_row < 1 && c.dom_col < 1, "nondominant: %g %g\n", c.dom_row, c.dom_col );
	TG_EXPECT( c.pivot == -1 || c.pivot == tg_first_swap( &s, L.dl ), "nondominant pivot %ld\n",
	           (long)c.pivot );
	TG_EXPECT( hyb_policy_gtsv_choose( c.dom_row, c.dom_col, c.pivot, c.info, c.nonfinite,
	                                   HYB_PREC_D, 0, NULL ) == HYB_GTSV_PLAN_LAPACK,
	           "nondominant must go to LAPACK\n" );
	tg_lapack_free( &L );
	tg_free( &s );

	/* Non-finite entries. */
	s       = tg_make( TG_COL, 5000, 1, 0, 2.0 );
	s.d[17] = NAN;
	CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 100, 2, &c ), HYB_OK );
	TG_EXPECT( c.nonfinite && c.dom_row == 0 && c.pivot == -1, "nan not flagged\n" );
	s.d[17]     = 1;
	s.du[s.n - 2] = INFINITY;
	hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 100, 2, &c );
	TG_EXPECT( c.nonfinite, "inf not flagged\n" );
	tg_free( &s );

	/* n = 1 and n = 0. */
	double one = 3, zero = 0;
	hyb_dgtsv_check( 1, NULL, &one, NULL, 10, 1, &c );
	TG_EXPECT( isinf( c.dom_row ) && c.pivot == 0 && c.info == 0, "n=1\n" );
	hyb_dgtsv_check( 1, NULL, &zero, NULL, 10, 1, &c );
	TG_EXPECT( c.dom_row == 0 && c.info == 1, "n=1 singular: info %ld\n", (long)c.info );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( 0, NULL, NULL, NULL, 10, 1, &c ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( -1, NULL, NULL, NULL, 10, 1, &c ), HYB_E_INVALID );
}

/* ---------------------------------------------------------------------------------------
   INFO on exactly singular no-pivot systems: check, Thomas, factors against LAPACK.
   --------------------------------------------------------------------------------------- */
static void tg_singular_case( int64_t n, int64_t k )
{
	tg_seed( 6 + (uint64_t)k );
	tg_sys_t s = tg_make( TG_COL, n, 2, 1, 2.0 );
	/* Row k: no coupling from above (dl[k-1] = 0, so d'[k] = d[k] exactly), d[k] = 0,
	   dl[k] = 0 so that LAPACK's test keeps the rows and finds U(k+1,k+1) = 0. */
	if ( k >= 1 ) s.dl[k - 1] = 0;
	s.d[k] = 0;
	if ( k + 1 < n ) s.dl[k] = 0;
	tg_lapack_t L = tg_lapack( &s );
	TG_EXPECT( L.info == k + 1, "premise: LAPACK info %d, expected %ld\n", L.info, (long)k + 1 );

	hyb_gtsv_check_t c;
	hyb_dgtsv_check( n, s.dl, s.d, s.du, 100, 2, &c );
	TG_EXPECT( c.info == k + 1 || c.info == -1, "check info %ld\n", (long)c.info );
	if ( n <= 1024 ) TG_EXPECT( c.info == k + 1, "exact partition must find it: %ld\n", (long)c.info );
	TG_EXPECT( hyb_policy_gtsv_choose( c.dom_row, c.dom_col, c.pivot, c.info, c.nonfinite,
	                                   HYB_PREC_D, 0, NULL ) == HYB_GTSV_PLAN_LAPACK,
	           "singular must go to LAPACK\n" );

	/* Thomas stops exactly where LAPACK stops, with the same partial outputs. */
	double *dl = tg_dup( s.dl, n - 1 ), *d = tg_dup( s.d, n ), *b = tg_dup( s.b, s.ldb * 2 );
	int64_t info = 0;
	hyb_dgtsv_thomas( n, 2, dl, d, s.du, b, s.ldb, &info );
	TG_EXPECT( info == L.info, "thomas info %ld vs %d\n", (long)info, L.info );
	TG_EXPECT( tg_same( dl, L.dl, n - 1 ) && tg_same( d, L.d, n ) && tg_same( b, L.b, s.ldb * 2 ),
	           "thomas partial state differs from LAPACK's\n" );

	/* The parallel factors report LAPACK's INFO. */
	memcpy( dl, s.dl, (size_t)( n - 1 ) * sizeof( double ) );
	memcpy( d, s.d, (size_t)n * sizeof( double ) );
	info = 0;
	hyb_dgtsv_factors( n, dl, d, s.du, 100, 3, &info );
	TG_EXPECT( info == L.info, "factors info %ld vs %d\n", (long)info, L.info );
	free( dl );
	free( d );
	free( b );
	tg_lapack_free( &L );
	tg_free( &s );
}

static void test_singular_info( void )
{
	tg_singular_case( 10, 0 );
	tg_singular_case( 10, 4 );
	tg_singular_case( 10, 9 );
	tg_singular_case( 1000, 500 );
	tg_singular_case( 200000, 150001 );
}

/* ---------------------------------------------------------------------------------------
   The parallel d' recurrence (restarted `warm` rows early) against the serial one.
   --------------------------------------------------------------------------------------- */
static void test_factors_parallel( void )
{
	static const double doms[] = { 1.05, 1.2, 2.0 };
	tg_seed( 7 );
	for ( int kind = TG_COL; kind <= TG_ROWNOSWAP; kind += TG_ROWNOSWAP - TG_COL )
		for ( size_t k = 0; k < 3; k++ )
		{
			tg_sys_t s = tg_make( kind, 300007, 1, 0, doms[k] );
			int64_t  m = hyb_policy_gtsv_window( doms[k], HYB_PREC_D );
			hyb_gtsv_check_t c;
			hyb_dgtsv_check( s.n, s.dl, s.d, s.du, m, 2, &c );
			if ( c.pivot != 0 ) /* TG_ROWNOSWAP at weak dominance may swap: skip */
			{
				tg_free( &s );
				continue;
			}
			tg_lapack_t L  = tg_lapack( &s );
			double *    dl = tg_dup( s.dl, s.n - 1 ), *d = tg_dup( s.d, s.n );
			int64_t     info = -1;
			CU_ASSERT_EQUAL( hyb_dgtsv_factors( s.n, dl, d, s.du, m, 3, &info ), HYB_OK );
			CU_ASSERT_EQUAL( info, 0 );
			double rd = tg_reldiff( d, L.d, s.n );
			TG_EXPECT( rd <= 4 * TG_U, "kind %d dom %g: parallel d' off by %g ulp\n", kind, doms[k],
			           rd / TG_U );
			TG_EXPECT( tg_same( dl, L.dl, s.n - 1 ), "DL differs\n" );
			free( dl );
			free( d );
			tg_lapack_free( &L );
			tg_free( &s );
		}
}

/* ---------------------------------------------------------------------------------------
   Seams and ranges: the pieces the heterogeneous solver stitches with.
   --------------------------------------------------------------------------------------- */
static void test_seam_and_ranges( void )
{
	tg_seed( 8 );
	const int64_t n = 50000, nrhs = 2;
	tg_sys_t      s = tg_make( TG_COL, n, nrhs, 1, 1.5 );
	int64_t       m = hyb_policy_gtsv_window( 1.5, HYB_PREC_D );
	tg_lapack_t   L = tg_lapack( &s );
	double        xn = 0;
	int64_t       xn_dummy = 0;
	for ( int64_t i = 0; i < n; i++ ) xn = fmax( xn, fabs( L.b[i] ) );

	/* Seam values equal LAPACK's x to rounding; rec[0] is LAPACK's D(s-1). */
	const int64_t cut[4] = { 0, 17000, 33001, n };
	double        rec[2][5];
	for ( int k = 1; k <= 2; k++ )
	{
		int64_t sr = cut[k];
		CU_ASSERT_EQUAL( hyb_dgtsv_seam( n, sr, nrhs, s.dl, s.d, s.du, s.b, s.ldb, m, rec[k - 1] ),
		                 HYB_OK );
		TG_EXPECT( fabs( rec[k - 1][0] - L.d[sr - 1] ) <= 4 * TG_U * fabs( L.d[sr - 1] ), "seam pivot\n" );
		for ( int64_t j = 0; j < nrhs; j++ )
		{
			double xp = rec[k - 1][1 + j], xq = rec[k - 1][1 + nrhs + j];
			TG_EXPECT( fabs( xp - L.b[j * s.ldb + sr - 1] ) <= 64 * TG_U * xn &&
			               fabs( xq - L.b[j * s.ldb + sr] ) <= 64 * TG_U * xn,
			           "seam x off: %g %g\n", xp - L.b[j * s.ldb + sr - 1], xq - L.b[j * s.ldb + sr] );
		}
	}
	CU_ASSERT_EQUAL( hyb_dgtsv_seam( n, 0, nrhs, s.dl, s.d, s.du, s.b, s.ldb, m, rec[0] ), HYB_E_INVALID );

	/* Three ranges, solved one after the other (as three devices would, concurrently). */
	double *dl = tg_dup( s.dl, n - 1 ), *d = tg_dup( s.d, n ), *b = tg_dup( s.b, s.ldb * nrhs );
	for ( int k = 0; k < 3; k++ )
	{
		const double* top = k > 0 ? rec[k - 1] : NULL;
		const double* bot = k < 2 ? rec[k] : NULL;
		CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike_range( n, cut[k], cut[k + 1], nrhs, dl, d, s.du, b,
		                                            s.ldb, top, bot, m, 2, HYB_GTSV_FACTORS ),
		                 HYB_OK );
	}
	double bx = tg_berr( &s, b, s.ldb ), bl = tg_berr( &s, L.b, s.ldb );
	TG_EXPECT( bx <= 10 * fmax( bl, TG_U ), "ranges berr %g vs %g\n", bx, bl );
	TG_EXPECT( tg_reldiff( d, L.d, n ) <= 8 * TG_U && tg_same( dl, L.dl, n - 1 ), "range factors\n" );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike_range( n, 5, 10, nrhs, dl, d, s.du, b, s.ldb, NULL, rec[0],
	                                            m, 1, 0 ),
	                 HYB_E_INVALID );

	/* Factors of ranges (the rows a device solved): the same as LAPACK's. */
	memcpy( dl, s.dl, (size_t)( n - 1 ) * sizeof( double ) );
	memcpy( d, s.d, (size_t)n * sizeof( double ) );
	for ( int k = 2; k >= 0; k-- ) /* any order */
	{
		int64_t info = -1;
		CU_ASSERT_EQUAL( hyb_dgtsv_factors_range( n, cut[k], cut[k + 1], dl, d, s.du,
		                                          k > 0 ? rec[k - 1] : NULL, m, 2, &info ),
		                 HYB_OK );
		CU_ASSERT_EQUAL( info, 0 );
	}
	TG_EXPECT( tg_reldiff( d, L.d, n ) <= 4 * TG_U && tg_same( dl, L.dl, n - 1 ), "factors_range\n" );
	CU_ASSERT_EQUAL( hyb_dgtsv_factors_range( n, 5, 10, dl, d, s.du, NULL, m, 1, &xn_dummy ),
	                 HYB_E_INVALID );
	free( dl );
	free( d );
	free( b );
	tg_lapack_free( &L );
	tg_free( &s );
}

/* ---------------------------------------------------------------------------------------
   Argument checks leave everything untouched; nrhs = 0 still writes the factors (LAPACK).
   --------------------------------------------------------------------------------------- */
static void test_args( void )
{
	double  dl[2] = { 1, 1 }, d[3] = { 4, 4, 4 }, du[2] = { 1, 1 }, b[3] = { 1, 2, 3 };
	int64_t info  = 0;
	CU_ASSERT_EQUAL( hyb_dgtsv_thomas( 3, 1, dl, d, du, b, 2, &info ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_thomas( -1, 1, dl, d, du, b, 3, &info ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, 1, dl, d, du, b, 3, 0, 1, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, -1, dl, d, du, b, 3, 5, 1, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, 1, NULL, d, du, b, 3, 5, 1, 0 ), HYB_E_INVALID );
	CU_ASSERT( d[0] == 4 && b[0] == 1 && dl[0] == 1 );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 0, 1, NULL, NULL, NULL, NULL, 1, 5, 1, 0 ), HYB_OK );

	/* nrhs = 0: LAPACK still factors; so does the SPIKE path with HYB_GTSV_FACTORS. (dgtsv.f's
	   back substitution also runs once on B(:,1) when NRHS = 0, so Lb has n entries; hyblas
	   does not write B then: dispatch should forward NRHS = 0 to LAPACK.) */
	double Ldl[2] = { 1, 1 }, Ld[3] = { 4, 4, 4 }, Ldu[2] = { 1, 1 }, Lb[3] = { 0, 0, 0 };
	int    n = 3, nrhs = 0, ldb = 3, linfo = -1;
	dgtsv_( &n, &nrhs, Ldl, Ld, Ldu, Lb, &ldb, &linfo );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, 0, dl, d, du, NULL, 3, 5, 1, HYB_GTSV_FACTORS ), HYB_OK );
	CU_ASSERT( tg_reldiff( d, Ld, 3 ) <= 4 * TG_U && tg_same( dl, Ldl, 2 ) );
}

static int tg_init( void )
{
	tg_fail_count = 0;
	return 0;
}

static CU_TestInfo hyb_tests_gtsv_cpu[] = {
	{ "thomas_vs_lapack", test_thomas_vs_lapack },
	{ "spike_vs_lapack", test_spike_vs_lapack },
	{ "spike_block_edges", test_spike_block_edges },
	{ "spike_rowswap_and_noswap", test_spike_rowswap_and_noswap },
	{ "spike_float", test_spike_float },
	{ "check_flags", test_check_flags },
	{ "singular_info", test_singular_info },
	{ "factors_parallel", test_factors_parallel },
	{ "seam_and_ranges", test_seam_and_ranges },
	{ "args", test_args },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_gtsv_cpu = { "gtsv_cpu", tg_init, NULL, NULL, NULL, hyb_tests_gtsv_cpu };
