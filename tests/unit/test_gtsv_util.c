/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the tridiagonal suites (see test_gtsv_util.h). */
#include "test_gtsv_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "policies/hyb_policy_gtsv.h"

int tgt_fails;

/* mag with a random sign. */
static double tgt_signed( hyb_t_rng_t* r, double mag )
{
	return hyb_t_frac( r ) < 0.5 ? -mag : mag;
}

tgt_sys_t tgt_make( hyb_t_rng_t* r, tgt_kind_t kind, int64_t n, int64_t nrhs, int64_t pad,
                    double dom )
{
	int64_t   cols = nrhs > 0 ? nrhs : 1;
	tgt_sys_t s    = { n, nrhs, n + pad, NULL, NULL, NULL, NULL };
	s.dl           = malloc( (size_t)( n > 1 ? n - 1 : 1 ) * sizeof( double ) );
	s.du           = malloc( (size_t)( n > 1 ? n - 1 : 1 ) * sizeof( double ) );
	s.d            = malloc( (size_t)( n > 0 ? n : 1 ) * sizeof( double ) );
	s.b            = malloc( (size_t)( s.ldb * cols > 0 ? s.ldb * cols : 1 ) * sizeof( double ) );
	for ( int64_t i = 0; i + 1 < n; i++ )
	{
		switch ( kind )
		{
		case TGT_ROWSWAP:
			s.dl[i] = tgt_signed( r, 0.2 + 0.8 * hyb_t_frac( r ) );
			s.du[i] = 0.01 * hyb_t_unit( r );
			break;
		case TGT_ROWNOSWAP:
			/* dl small, du large: rows are dominated by du, columns need du[i-1] + dl[i]. */
			s.dl[i] = 0.25 * hyb_t_unit( r );
			s.du[i] = tgt_signed( r, 0.5 + 0.5 * hyb_t_frac( r ) );
			break;
		default:
			s.dl[i] = hyb_t_unit( r );
			s.du[i] = hyb_t_unit( r );
		}
	}
	for ( int64_t i = 0; i < n; i++ )
	{
		double row = ( i >= 1 ? fabs( s.dl[i - 1] ) : 0 ) + ( i + 1 < n ? fabs( s.du[i] ) : 0 );
		double col = ( i >= 1 ? fabs( s.du[i - 1] ) : 0 ) + ( i + 1 < n ? fabs( s.dl[i] ) : 0 );
		double off = kind == TGT_COL ? col : kind == TGT_BOTH ? fmax( row, col ) : row;
		if ( off == 0 ) off = 1;
		/* The 1e-6 margin keeps the dominance measured after rounding at dom or above. */
		double mag = kind == TGT_NONDOM ? 0.5 * off * hyb_t_frac( r )
		                                : dom * off * ( 1 + 0.25 * hyb_t_frac( r ) ) * ( 1 + 1e-6 );
		s.d[i]     = tgt_signed( r, mag );
	}
	for ( int64_t j = 0; j < cols; j++ )
		for ( int64_t i = 0; i < s.ldb; i++ )
			s.b[j * s.ldb + i] = i < n ? hyb_t_unit( r ) : TGT_PAD;
	return s;
}

void tgt_free( tgt_sys_t* s )
{
	free( s->dl );
	free( s->d );
	free( s->du );
	free( s->b );
	memset( s, 0, sizeof *s );
}

void* tgt_copy( const double* x, int64_t len, int single )
{
	void* y =
	    malloc( (size_t)( len > 0 ? len : 1 ) * ( single ? sizeof( float ) : sizeof( double ) ) );
	for ( int64_t i = 0; i < len; i++ )
	{
		if ( single )
			( (float*)y )[i] = (float)x[i];
		else
			( (double*)y )[i] = x[i];
	}
	return y;
}

tgt_arr_t tgt_arrays( const tgt_sys_t* s, int single )
{
	int64_t   cols = s->nrhs > 0 ? s->nrhs : 1;
	tgt_arr_t a    = { tgt_copy( s->dl, s->n - 1, single ),
		               tgt_copy( s->d, s->n, single ),
		               tgt_copy( s->du, s->n - 1, single ),
		               tgt_copy( s->b, s->ldb * cols, single ),
		               single,
		               0 };
	return a;
}

void tgt_arr_free( tgt_arr_t* a )
{
	free( a->dl );
	free( a->d );
	free( a->du );
	free( a->b );
	memset( a, 0, sizeof *a );
}

double tgt_get( const void* p, int64_t i, int single )
{
	return single ? (double)( (const float*)p )[i] : ( (const double*)p )[i];
}

tgt_arr_t tgt_lapack( const tgt_sys_t* s, int single )
{
	tgt_arr_t L = tgt_arrays( s, single );
	int       n = (int)s->n, nrhs = (int)s->nrhs, ldb = (int)s->ldb;
	L.info = -1;
	if ( single )
		sgtsv_( &n, &nrhs, L.dl, L.d, L.du, L.b, &ldb, &L.info );
	else
		dgtsv_( &n, &nrhs, L.dl, L.d, L.du, L.b, &ldb, &L.info );
	return L;
}

/* The larger of a and b, NaN when either is (so that a NaN reaches the verdict). */
static long double tgt_max( long double a, long double b )
{
	return isnan( a ) || isnan( b ) ? (long double)NAN : a > b ? a : b;
}

/* Element i of the system as the solver saw it. */
static long double tgt_seen( const double* x, int64_t i, int single )
{
	return single ? (long double)(float)x[i] : (long double)x[i];
}

double tgt_berr( const tgt_sys_t* s, const void* x, int single )
{
	int64_t     n     = s->n;
	long double anorm = 0, worst = 0;
	for ( int64_t i = 0; i < n; i++ )
	{
		long double r = fabsl( tgt_seen( s->d, i, single ) );
		if ( i >= 1 ) r += fabsl( tgt_seen( s->dl, i - 1, single ) );
		if ( i + 1 < n ) r += fabsl( tgt_seen( s->du, i, single ) );
		anorm = tgt_max( anorm, r );
	}
	for ( int64_t j = 0; j < s->nrhs; j++ )
	{
		long double rn = 0, xn = 0, bn = 0;
		for ( int64_t i = 0; i < n; i++ )
		{
			int64_t     o  = j * s->ldb + i;
			long double xi = tgt_get( x, o, single );
			long double ax = tgt_seen( s->d, i, single ) * xi;
			if ( i >= 1 ) ax += tgt_seen( s->dl, i - 1, single ) * tgt_get( x, o - 1, single );
			if ( i + 1 < n ) ax += tgt_seen( s->du, i, single ) * tgt_get( x, o + 1, single );
			long double bi = tgt_seen( s->b, o, single );
			rn             = tgt_max( rn, fabsl( ax - bi ) );
			xn             = tgt_max( xn, fabsl( xi ) );
			bn             = tgt_max( bn, fabsl( bi ) );
		}
		long double den = anorm * xn + bn;
		worst           = tgt_max( worst, den > 0 ? rn / den : rn );
	}
	return (double)worst;
}

double tgt_reldiff( const void* a, const void* b, int64_t len, int single )
{
	long double worst = 0;
	for ( int64_t i = 0; i < len; i++ )
	{
		double ai = tgt_get( a, i, single ), bi = tgt_get( b, i, single );
		double rel = bi != 0 ? fabs( ai - bi ) / fabs( bi ) : ai == 0 ? 0 : INFINITY;
		worst      = tgt_max( worst, rel );
	}
	return (double)worst;
}

int tgt_same( const void* a, const void* b, int64_t len, int single )
{
	return len <= 0 ||
	       memcmp( a, b, (size_t)len * ( single ? sizeof( float ) : sizeof( double ) ) ) == 0;
}

int tgt_pad_ok( const tgt_sys_t* s, const void* b, int single )
{
	for ( int64_t j = 0; j < s->nrhs; j++ )
		for ( int64_t i = s->n; i < s->ldb; i++ )
			if ( tgt_get( b, j * s->ldb + i, single ) != TGT_PAD ) return 0;
	return 1;
}

void tgt_compare( const tgt_sys_t* s, const tgt_arr_t* A, const tgt_arr_t* L, const char* what )
{
	int    single = A->single;
	double u      = hyb_t_eps( single ? HYB_PREC_S : HYB_PREC_D );
	double bx = tgt_berr( s, A->b, single ), bl = tgt_berr( s, L->b, single );
	double dd = tgt_reldiff( A->d, L->d, s->n, single );
	TGT_EXPECT( bx <= 10 * fmax( bl, u ), "%s: berr %g vs LAPACK %g\n", what, bx, bl );
	TGT_EXPECT( dd <= 8 * u, "%s: D off by %g ulp\n", what, dd / u );
	TGT_EXPECT( tgt_same( A->dl, L->dl, s->n - 1, single ), "%s: DL differs from LAPACK's\n",
	            what );
	TGT_EXPECT( tgt_same( A->du, L->du, s->n - 1, single ), "%s: DU written\n", what );
	TGT_EXPECT( tgt_pad_ok( s, A->b, single ), "%s: padding rows of B written\n", what );
}

static hyb_learn_rate_t tgt_learn_get( const hyb_learn_table_t* t, const char* name, char prec )
{
	hyb_learn_key_t  key;
	hyb_learn_slot_t slot;
	hyb_learn_rate_t none = { 0, 0 };
	return hyb_policy_gtsv_learn_name( name, prec, &key, &slot )
	           ? hyb_learn_table_rate( t, key, slot )
	           : none;
}

double tgt_learn_rate( const hyb_learn_table_t* t, const char* name, char prec )
{
	return tgt_learn_get( t, name, prec ).value;
}

int64_t tgt_learn_samples( const hyb_learn_table_t* t, const char* name, char prec )
{
	return tgt_learn_get( t, name, prec ).samples;
}

hyb_status_t tgt_learn_fold( hyb_learn_table_t* t, const char* name, char prec, double sample,
                             double w )
{
	hyb_learn_key_t  key;
	hyb_learn_slot_t slot;
	if ( !hyb_policy_gtsv_learn_name( name, prec, &key, &slot ) ) return HYB_E_INVALID;
	return hyb_learn_table_fold( t, key, slot, sample, w );
}

void tgt_learn_prefix( char* out, size_t len, const char* name, char prec )
{
	static const char* const slots[] = { "cpu", "gpu", "other" };
	hyb_learn_key_t          key;
	hyb_learn_slot_t         slot = HYB_LEARN_CPU;
	CU_ASSERT_FATAL( hyb_policy_gtsv_learn_name( name, prec, &key, &slot ) );
	snprintf( out, len, "learn gtsv 0x%llx %s", (unsigned long long)key.cls, slots[slot] );
}
