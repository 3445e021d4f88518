/* SPDX-License-Identifier: BSD-3-Clause */
/* The face loop's reference elements: quadrature exactness against exact monomial
   integrals, orthonormality and completeness of the modal bases under independent rules,
   closed forms of the low Dubiner modes, and the kernels' tables. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "kernels/faceloop/hyb_faceloop_basis.h"
#include "unit/hyb_test_util.h"

static double fact( int n )
{
	double r = 1.0;
	for ( int k = 2; k <= n; k++ ) r *= k;
	return r;
}

/* Gauss-Legendre on [0, 1]: exact for t^k, k <= 2n - 1, inexact at 2n (where the error is
   large enough to see); exactly symmetric. */
static void test_gauss_legendre( void )
{
	for ( int n = 1; n <= 16; n++ )
	{
		double t[16], w[16];
		CU_ASSERT_EQUAL_FATAL( hyb_fl_gauss_legendre( n, t, w ), HYB_OK );
		for ( int k = 0; k <= 2 * n; k++ )
		{
			double s = 0.0;
			for ( int q = 0; q < n; q++ ) s += w[q] * pow( t[q], k );
			/* The error at degree 2n, (n!)^4 / ((2n+1) (2n)!^2), is 9e-8 at n = 6. */
			if ( k <= 2 * n - 1 ) CU_ASSERT( fabs( s - 1.0 / ( k + 1 ) ) < 1e-15 );
			if ( k == 2 * n && n <= 6 ) CU_ASSERT( fabs( s - 1.0 / ( k + 1 ) ) > 1e-9 );
		}
		for ( int q = 0; q < n; q++ )
		{
			CU_ASSERT( t[n - 1 - q] == 1.0 - t[q] );
			CU_ASSERT( w[n - 1 - q] == w[q] );
			CU_ASSERT( t[q] > 0.0 && t[q] < 1.0 );
			if ( q > 0 ) CU_ASSERT( t[q] > t[q - 1] );
		}
	}
	double t[16], w[16];
	CU_ASSERT_EQUAL( hyb_fl_gauss_legendre( 0, t, w ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_fl_gauss_legendre( 17, t, w ), HYB_E_INVALID );
}

/* The collapsed triangle rule integrates every monomial of total degree <= d exactly
   (a! b! / (a + b + 2)!), and the square's tensor rule x^a y^b for a, b <= 2n - 1. */
static void test_rules( void )
{
	double xy[2 * 400], w[400];
	for ( int d = 0; d <= 14; d++ )
	{
		const int n = hyb_fl_rule_tri( d, 400, xy, w );
		CU_ASSERT_FATAL( n > 0 );
		for ( int a = 0; a <= d; a++ )
			for ( int b = 0; a + b <= d; b++ )
			{
				double s = 0.0;
				for ( int q = 0; q < n; q++ )
					s += w[q] * pow( xy[2 * q], a ) * pow( xy[2 * q + 1], b );
				const double ex = fact( a ) * fact( b ) / fact( a + b + 2 );
				CU_ASSERT( fabs( s - ex ) < 1e-15 );
			}
		for ( int q = 0; q < n; q++ )
			CU_ASSERT( xy[2 * q] > 0.0 && xy[2 * q + 1] > 0.0 && xy[2 * q] + xy[2 * q + 1] < 1.0 );
	}
	CU_ASSERT_EQUAL( hyb_fl_rule_tri( 14, 10, xy, w ), -1 );
	CU_ASSERT_EQUAL( hyb_fl_rule_tri( 21, 400, xy, w ), -1 );
	for ( int m = 1; m <= 8; m++ )
	{
		const int n = hyb_fl_rule_quad( m, 400, xy, w );
		CU_ASSERT_EQUAL_FATAL( n, m * m );
		for ( int a = 0; a <= 2 * m - 1; a++ )
			for ( int b = 0; b <= 2 * m - 1; b++ )
			{
				double s = 0.0;
				for ( int q = 0; q < n; q++ )
					s += w[q] * pow( xy[2 * q], a ) * pow( xy[2 * q + 1], b );
				const double ex = ( a % 2 || b % 2 ) ? 0.0 : 4.0 / ( ( a + 1.0 ) * ( b + 1.0 ) );
				CU_ASSERT( fabs( s - ex ) < 1e-14 );
			}
	}
}

/* Orthonormal under a rule far above the basis's degree, and complete: every monomial of
   the space (total degree <= p on the triangle, each degree <= p on the square) equals the
   sum of its projections on the modes at random points. */
static void test_basis_orthonormal_complete( void )
{
	hyb_t_rng_t rng = hyb_t_rng( 24 );
	for ( int nv = 3; nv <= 4; nv++ )
		for ( int p = 0; p <= HYB_FL_P_MAX; p++ )
		{
			hyb_fl_basis_t b;
			CU_ASSERT_EQUAL_FATAL( hyb_fl_basis_init( nv, p, &b ), HYB_OK );
			CU_ASSERT_EQUAL( b.np, nv == 3 ? ( p + 1 ) * ( p + 2 ) / 2 : ( p + 1 ) * ( p + 1 ) );
			double    xy[2 * 200], w[200], phi[HYB_FL_NP_MAX];
			const int n =
			    nv == 3 ? hyb_fl_rule_tri( 12, 200, xy, w ) : hyb_fl_rule_quad( 8, 200, xy, w );
			double g[HYB_FL_NP_MAX][HYB_FL_NP_MAX];
			memset( g, 0, sizeof g );
			for ( int q = 0; q < n; q++ )
			{
				hyb_fl_basis_eval( &b, xy[2 * q], xy[2 * q + 1], phi, NULL );
				for ( int i = 0; i < b.np; i++ )
					for ( int j = 0; j < b.np; j++ ) g[i][j] += w[q] * phi[i] * phi[j];
			}
			for ( int i = 0; i < b.np; i++ )
				for ( int j = 0; j < b.np; j++ ) CU_ASSERT( fabs( g[i][j] - ( i == j ) ) < 1e-13 );
			for ( int a = 0; a <= p; a++ )
				for ( int c = 0; c <= p; c++ )
				{
					if ( nv == 3 && a + c > p ) continue;
					double coef[HYB_FL_NP_MAX] = { 0 };
					for ( int q = 0; q < n; q++ )
					{
						hyb_fl_basis_eval( &b, xy[2 * q], xy[2 * q + 1], phi, NULL );
						const double f = pow( xy[2 * q], a ) * pow( xy[2 * q + 1], c );
						for ( int i = 0; i < b.np; i++ ) coef[i] += w[q] * f * phi[i];
					}
					for ( int k = 0; k < 5; k++ )
					{
						double x = 0.5 * ( 1.0 + hyb_t_unit( &rng ) ),
						       y = 0.5 * ( 1.0 + hyb_t_unit( &rng ) );
						if ( nv == 3 ) y *= 1.0 - x;
						if ( nv == 4 ) x = 2.0 * x - 1.0, y = 2.0 * y - 1.0;
						hyb_fl_basis_eval( &b, x, y, phi, NULL );
						double s = 0.0;
						for ( int i = 0; i < b.np; i++ ) s += coef[i] * phi[i];
						CU_ASSERT( fabs( s - pow( x, a ) * pow( y, c ) ) < 1e-12 );
					}
				}
		}
	hyb_fl_basis_t b;
	CU_ASSERT_EQUAL( hyb_fl_basis_init( 5, 1, &b ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_fl_basis_init( 3, HYB_FL_P_MAX + 1, &b ), HYB_E_INVALID );
}

/* The Dubiner construction, not only some orthonormal basis: phi_00 = sqrt(2) (mode 0),
   phi_01 = 6y - 2 (mode 1), phi_10 = 2 sqrt(3) (2x + y - 1) (mode 2) on the reference
   triangle (worked out by hand from P_1^(1,0)(2y - 1) and P_1(s)(1 - y) and their exact
   norms 1/4 and 1/12);
   gradients against central differences; the square's phi_(1,0) = sqrt(3)/2 x. */
static void test_basis_closed_forms( void )
{
	hyb_fl_basis_t b;
	double         phi[HYB_FL_NP_MAX], dphi[2 * HYB_FL_NP_MAX];
	CU_ASSERT_EQUAL_FATAL( hyb_fl_basis_init( 3, 3, &b ), HYB_OK );
	const double pts[3][2] = { { 0.2, 0.3 }, { 0.6, 0.1 }, { 0.05, 0.9 } };
	for ( int k = 0; k < 3; k++ )
	{
		const double x = pts[k][0], y = pts[k][1];
		hyb_fl_basis_eval( &b, x, y, phi, dphi );
		CU_ASSERT( fabs( phi[0] - sqrt( 2.0 ) ) < 1e-14 );
		CU_ASSERT( fabs( phi[1] - ( 6.0 * y - 2.0 ) ) < 1e-13 );
		CU_ASSERT( fabs( phi[2] - 2.0 * sqrt( 3.0 ) * ( 2.0 * x + y - 1.0 ) ) < 1e-13 );
		const double h = 1e-6;
		double       pp[HYB_FL_NP_MAX], pm[HYB_FL_NP_MAX];
		for ( int d = 0; d < 2; d++ )
		{
			hyb_fl_basis_eval( &b, x + ( d == 0 ? h : 0 ), y + ( d == 1 ? h : 0 ), pp, NULL );
			hyb_fl_basis_eval( &b, x - ( d == 0 ? h : 0 ), y - ( d == 1 ? h : 0 ), pm, NULL );
			for ( int i = 0; i < b.np; i++ )
				CU_ASSERT( fabs( dphi[2 * i + d] - ( pp[i] - pm[i] ) / ( 2 * h ) ) < 1e-6 );
		}
	}
	CU_ASSERT_EQUAL_FATAL( hyb_fl_basis_init( 4, 1, &b ), HYB_OK );
	hyb_fl_basis_eval( &b, 0.4, -0.7, phi, dphi );
	CU_ASSERT( fabs( phi[0] - 0.5 ) < 1e-15 );
	CU_ASSERT( fabs( phi[1] - sqrt( 3.0 ) / 2.0 * 0.4 ) < 1e-15 );
	CU_ASSERT( fabs( phi[2] - sqrt( 3.0 ) / 2.0 * -0.7 ) < 1e-15 );
	CU_ASSERT( fabs( phi[3] - 1.5 * 0.4 * -0.7 ) < 1e-15 );
}

/* The tables: edge points on the reference edges in counterclockwise order, the face and
   volume rules the kernels are promised (points per face, exactness), values matching the
   basis. */
static void test_tables( void )
{
	for ( int nv = 3; nv <= 4; nv++ )
		for ( int eq = 0; eq <= 1; eq++ )
			for ( int p = 1; p <= HYB_FL_P_MAX; p++ )
			{
				hyb_fl_tables_t t;
				hyb_fl_basis_t  b;
				CU_ASSERT_EQUAL_FATAL( hyb_fl_tables_build( nv, p, eq, &t ), HYB_OK );
				hyb_fl_basis_init( nv, p, &b );
				CU_ASSERT_EQUAL( t.nq, eq == HYB_FL_EQ_BURGERS ? ( 3 * p + 2 ) / 2 : p + 1 );
				CU_ASSERT( 2 * t.nq - 1 >= ( eq == HYB_FL_EQ_BURGERS ? 3 * p : 2 * p ) );
				CU_ASSERT( t.nqv <= HYB_FL_NQV_MAX && t.nq <= HYB_FL_NQ_MAX );
				/* Edge 1 of the triangle runs from (1,0) to (0,1); of the square from (1,-1)
				   to (1,1). */
				double phi[HYB_FL_NP_MAX];
				for ( int q = 0; q < t.nq; q++ )
				{
					const double s = t.edge_t[q];
					if ( nv == 3 ) hyb_fl_basis_eval( &b, 1.0 - s, s, phi, NULL );
					if ( nv == 4 ) hyb_fl_basis_eval( &b, 1.0, -1.0 + 2.0 * s, phi, NULL );
					for ( int i = 0; i < t.np; i++ )
						CU_ASSERT( fabs( t.edge_phi[( 1 * t.nq + q ) * t.np + i] - phi[i] ) <
						           1e-15 );
				}
				double area = 0.0;
				for ( int q = 0; q < t.nqv; q++ ) area += t.vol_w[q];
				CU_ASSERT( fabs( area - ( nv == 3 ? 0.5 : 4.0 ) ) < 1e-14 );
			}
	hyb_fl_tables_t t;
	CU_ASSERT_EQUAL( hyb_fl_tables_build( 3, 0, 0, &t ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_fl_tables_build( 3, 1, 2, &t ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_fl_tables_build( 4, 4, 0, &t ), HYB_E_INVALID );
}

static CU_TestInfo hyb_tests_faceloop_basis[] = {
	{ "gauss_legendre_exact_symmetric", test_gauss_legendre },
	{ "triangle_and_square_rules", test_rules },
	{ "bases_orthonormal_and_complete", test_basis_orthonormal_complete },
	{ "dubiner_and_legendre_closed_forms", test_basis_closed_forms },
	{ "kernel_tables", test_tables },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_faceloop_basis = { "faceloop_basis",        NULL, NULL, NULL, NULL,
	                                      hyb_tests_faceloop_basis };
