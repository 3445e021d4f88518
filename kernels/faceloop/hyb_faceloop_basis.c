/* SPDX-License-Identifier: BSD-3-Clause */
/* Reference elements of the face-loop solver: quadrature rules, orthonormal modal bases and
   the kernels' tables, all derived here from their definitions (Legendre and Jacobi
   recurrences, Newton's method for the Gauss points, norms by exact quadrature). */
#include "kernels/faceloop/hyb_faceloop_basis.h"

#include <math.h>
#include <string.h>

#define D HYB_FL_POLY_DIM

typedef double hyb_fl_poly_t[D][D];

int hyb_fl_modes( int nv, int p )
{
	return nv == 3 ? ( p + 1 ) * ( p + 2 ) / 2 : ( p + 1 ) * ( p + 1 );
}

int hyb_fl_face_points( int eq, int p )
{
	return eq == HYB_FL_EQ_BURGERS ? ( 3 * p + 2 ) / 2 : p + 1;
}

/* ------------------------------------------------------------------ quadrature */

/* Legendre P_n(x) and its derivative by the three-term recurrence. */
static void gl_legendre( int n, double x, double* pn, double* dpn )
{
	double p0 = 1.0, p1 = x;
	if ( n == 0 )
	{
		*pn  = 1.0;
		*dpn = 0.0;
		return;
	}
	for ( int k = 2; k <= n; k++ )
	{
		const double p2 = ( ( 2.0 * k - 1.0 ) * x * p1 - ( k - 1.0 ) * p0 ) / k;
		p0              = p1;
		p1              = p2;
	}
	*pn  = p1;
	*dpn = n * ( x * p1 - p0 ) / ( x * x - 1.0 );
}

hyb_status_t hyb_fl_gauss_legendre( int n, double* t, double* w )
{
	if ( n < 1 || n > 16 ) return HYB_E_INVALID;
	/* The roots in (-1, 1) from Newton's method started at the classical cosine estimate;
	   k runs over the upper half (descending roots) and fills both ends by symmetry. */
	for ( int k = 0; k < ( n + 1 ) / 2; k++ )
	{
		double x = cos( M_PI * ( k + 0.75 ) / ( n + 0.5 ) );
		double pn, dpn;
		for ( int it = 0; it < 100; it++ )
		{
			gl_legendre( n, x, &pn, &dpn );
			const double dx = pn / dpn;
			x -= dx;
			if ( fabs( dx ) < 1e-16 ) break;
		}
		gl_legendre( n, x, &pn, &dpn );
		const double wk = 2.0 / ( ( 1.0 - x * x ) * dpn * dpn );
		/* On [0, 1]: t = (1 + x) / 2, weight halved. */
		const double hi = 0.5 * ( 1.0 + x );
		t[n - 1 - k]    = hi;
		t[k]            = 1.0 - hi;
		w[n - 1 - k]    = 0.5 * wk;
		w[k]            = 0.5 * wk;
		if ( 2 * k + 1 == n )
		{
			t[k] = 0.5;
			w[k] = 0.5 * wk;
		}
	}
	return HYB_OK;
}

int hyb_fl_rule_tri( int degree, int cap, double* xy, double* w )
{
	if ( degree < 0 || degree > 20 ) return -1;
	const int na = ( degree + 2 ) / 2, nb = ( degree + 3 ) / 2;
	if ( na * nb > cap ) return -1;
	double ta[16], wa[16], tb[16], wb[16];
	hyb_fl_gauss_legendre( na, ta, wa );
	hyb_fl_gauss_legendre( nb, tb, wb );
	int k = 0;
	for ( int j = 0; j < nb; j++ )
		for ( int i = 0; i < na; i++, k++ )
		{
			xy[2 * k]     = ta[i] * ( 1.0 - tb[j] );
			xy[2 * k + 1] = tb[j];
			w[k]          = wa[i] * wb[j] * ( 1.0 - tb[j] );
		}
	return k;
}

int hyb_fl_rule_quad( int n, int cap, double* xy, double* w )
{
	if ( n < 1 || n > 16 || n * n > cap ) return -1;
	double t[16], wt[16];
	hyb_fl_gauss_legendre( n, t, wt );
	int k = 0;
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < n; i++, k++ )
		{
			xy[2 * k]     = 2.0 * t[i] - 1.0;
			xy[2 * k + 1] = 2.0 * t[j] - 1.0;
			w[k]          = 4.0 * wt[i] * wt[j];
		}
	return k;
}

int hyb_fl_rule_volume( int nv, int eq, int p, int cap, double* xy, double* w )
{
	if ( nv == 3 ) return hyb_fl_rule_tri( eq == HYB_FL_EQ_BURGERS ? 3 * p : 2 * p, cap, xy, w );
	return hyb_fl_rule_quad( eq == HYB_FL_EQ_BURGERS ? ( 3 * p + 2 ) / 2 : p + 1, cap, xy, w );
}

/* ------------------------------------------------------------------ polynomials */

static void poly_zero( hyb_fl_poly_t a )
{
	memset( a, 0, sizeof( hyb_fl_poly_t ) );
}

/* c = a * b; terms past the table's size cannot arise for degree <= 3 per variable. */
static void poly_mul( hyb_fl_poly_t a, hyb_fl_poly_t b, hyb_fl_poly_t c )
{
	hyb_fl_poly_t r;
	poly_zero( r );
	for ( int i = 0; i < D; i++ )
		for ( int j = 0; j < D; j++ )
		{
			if ( a[i][j] == 0.0 ) continue;
			for ( int k = 0; i + k < D; k++ )
				for ( int l = 0; j + l < D; l++ ) r[i + k][j + l] += a[i][j] * b[k][l];
		}
	memcpy( c, r, sizeof r );
}

/* The linear polynomial c0 + cx x + cy y. */
static void poly_linear( hyb_fl_poly_t a, double c0, double cx, double cy )
{
	poly_zero( a );
	a[0][0] = c0;
	a[1][0] = cx;
	a[0][1] = cy;
}

/* a = l^k. */
static void poly_pow( hyb_fl_poly_t l, int k, hyb_fl_poly_t a )
{
	poly_zero( a );
	a[0][0] = 1.0;
	for ( int i = 0; i < k; i++ ) poly_mul( a, l, a );
}

/* Coefficients (in t) of the Jacobi polynomial P_n^(alpha,0)(t), alpha = 0 giving
   Legendre's, from the three-term recurrence of the Jacobi family. */
static void jacobi_coeffs( int n, double alpha, double* c )
{
	double p0[D] = { 1.0 }, p1[D] = { 0.0 };
	memset( c, 0, D * sizeof( double ) );
	if ( n == 0 )
	{
		c[0] = 1.0;
		return;
	}
	p1[0] = 0.5 * alpha;
	p1[1] = 0.5 * ( alpha + 2.0 );
	for ( int k = 2; k <= n; k++ )
	{
		const double a1 = 2.0 * k * ( k + alpha ) * ( 2.0 * k + alpha - 2.0 );
		const double a2 = ( 2.0 * k + alpha - 1.0 ) * alpha * alpha;
		const double a3 =
		    ( 2.0 * k + alpha - 2.0 ) * ( 2.0 * k + alpha - 1.0 ) * ( 2.0 * k + alpha );
		const double a4 = 2.0 * ( k + alpha - 1.0 ) * ( k - 1.0 ) * ( 2.0 * k + alpha );
		double       p2[D];
		for ( int i = 0; i < D; i++ )
			p2[i] = ( a2 * p1[i] + ( i > 0 ? a3 * p1[i - 1] : 0.0 ) - a4 * p0[i] ) / a1;
		memcpy( p0, p1, sizeof p0 );
		memcpy( p1, p2, sizeof p1 );
	}
	memcpy( c, p1, D * sizeof( double ) );
}

/* The 1-D polynomial sum_k c[k] l^k of a linear bivariate l. */
static void poly_of_linear( const double* c, hyb_fl_poly_t l, hyb_fl_poly_t a )
{
	hyb_fl_poly_t pw;
	poly_zero( a );
	for ( int k = 0; k < D; k++ )
	{
		if ( c[k] == 0.0 ) continue;
		poly_pow( l, k, pw );
		for ( int i = 0; i < D; i++ )
			for ( int j = 0; j < D; j++ ) a[i][j] += c[k] * pw[i][j];
	}
}

/* Integral of a^2 over the reference element by a rule exact to degree 2p: a sum of
   positive terms, so the norm carries the rounding of evaluating a, not the cancellation
   of its monomial coefficients (which cost 2e-13 at degree 3 on the triangle). */
static double poly_norm2( int nv, int p, hyb_fl_poly_t a )
{
	double    xy[2 * 64], w[64], s = 0.0;
	const int n =
	    nv == 3 ? hyb_fl_rule_tri( 2 * p, 64, xy, w ) : hyb_fl_rule_quad( p + 1, 64, xy, w );
	for ( int q = 0; q < n; q++ )
	{
		double v = 0.0, py = 1.0;
		for ( int j = 0; j < D; j++, py *= xy[2 * q + 1] )
		{
			double px = 1.0;
			for ( int i = 0; i < D; i++, px *= xy[2 * q] ) v += a[i][j] * px * py;
		}
		s += w[q] * v * v;
	}
	return s;
}

hyb_status_t hyb_fl_basis_init( int nv, int p, hyb_fl_basis_t* b )
{
	if ( ( nv != 3 && nv != 4 ) || p < 0 || p > HYB_FL_P_MAX ) return HYB_E_INVALID;
	memset( b, 0, sizeof *b );
	b->nv = nv;
	b->p  = p;
	b->np = hyb_fl_modes( nv, p );
	hyb_fl_poly_t lx, ly, a, bb;
	int           m = 0;
	if ( nv == 4 )
	{
		poly_linear( lx, 0.0, 1.0, 0.0 );
		poly_linear( ly, 0.0, 0.0, 1.0 );
		for ( int j = 0; j <= p; j++ )
			for ( int i = 0; i <= p; i++, m++ )
			{
				double ci[D], cj[D];
				jacobi_coeffs( i, 0.0, ci );
				jacobi_coeffs( j, 0.0, cj );
				poly_of_linear( ci, lx, a );
				poly_of_linear( cj, ly, bb );
				poly_mul( a, bb, b->c[m] );
			}
	}
	else
	{
		/* Dubiner: with the collapsed coordinate s = (2x + y - 1) / (1 - y),
		   phi_ij = P_i(s) (1 - y)^i P_j^(2i+1,0)(2y - 1), and P_i(s) (1 - y)^i is the
		   polynomial sum_k c_k (2x + y - 1)^k (1 - y)^(i - k). */
		hyb_fl_poly_t l1, l2, t1, t2;
		poly_linear( l1, -1.0, 2.0, 1.0 ); /* 2x + y - 1 */
		poly_linear( l2, 1.0, 0.0, -1.0 ); /* 1 - y */
		poly_linear( ly, -1.0, 0.0, 2.0 ); /* 2y - 1 */
		for ( int n = 0; n <= p; n++ )
			for ( int i = 0; i <= n; i++, m++ )
			{
				const int j = n - i;
				double    ci[D], cj[D];
				jacobi_coeffs( i, 0.0, ci );
				jacobi_coeffs( j, 2.0 * i + 1.0, cj );
				poly_zero( a );
				for ( int k = 0; k <= i; k++ )
				{
					if ( ci[k] == 0.0 ) continue;
					poly_pow( l1, k, t1 );
					poly_pow( l2, i - k, t2 );
					poly_mul( t1, t2, t1 );
					for ( int r = 0; r < D; r++ )
						for ( int s = 0; s < D; s++ ) a[r][s] += ci[k] * t1[r][s];
				}
				poly_of_linear( cj, ly, bb );
				poly_mul( a, bb, b->c[m] );
			}
	}
	for ( int k = 0; k < b->np; k++ )
	{
		const double s = 1.0 / sqrt( poly_norm2( nv, p, b->c[k] ) );
		for ( int i = 0; i < D; i++ )
			for ( int j = 0; j < D; j++ ) b->c[k][i][j] *= s;
	}
	return HYB_OK;
}

void hyb_fl_basis_eval( const hyb_fl_basis_t* b, double x, double y, double* phi, double* dphi )
{
	double px[D], py[D];
	px[0] = py[0] = 1.0;
	for ( int i = 1; i < D; i++ )
	{
		px[i] = px[i - 1] * x;
		py[i] = py[i - 1] * y;
	}
	for ( int k = 0; k < b->np; k++ )
	{
		double v = 0.0, dx = 0.0, dy = 0.0;
		for ( int i = 0; i < D; i++ )
			for ( int j = 0; j < D; j++ )
			{
				const double c = b->c[k][i][j];
				if ( c == 0.0 ) continue;
				v += c * px[i] * py[j];
				if ( i > 0 ) dx += c * i * px[i - 1] * py[j];
				if ( j > 0 ) dy += c * j * px[i] * py[j - 1];
			}
		phi[k] = v;
		if ( dphi )
		{
			dphi[2 * k]     = dx;
			dphi[2 * k + 1] = dy;
		}
	}
}

/* ------------------------------------------------------------------ tables */

hyb_status_t hyb_fl_tables_build( int nv, int p, int eq, hyb_fl_tables_t* t )
{
	if ( eq != HYB_FL_EQ_ADVECTION && eq != HYB_FL_EQ_BURGERS ) return HYB_E_INVALID;
	if ( p < 1 ) return HYB_E_INVALID; /* the kernels' degrees: 1 .. HYB_FL_P_MAX */
	hyb_fl_basis_t b;
	if ( hyb_fl_basis_init( nv, p, &b ) != HYB_OK ) return HYB_E_INVALID;
	memset( t, 0, sizeof *t );
	t->nv  = nv;
	t->p   = p;
	t->np  = b.np;
	t->nq  = hyb_fl_face_points( eq, p );
	t->nqv = hyb_fl_rule_volume( nv, eq, p, HYB_FL_NQV_MAX, t->vol_xi, t->vol_w );
	if ( t->nq > HYB_FL_NQ_MAX || t->nqv < 0 ) return HYB_E_INVALID;
	hyb_fl_gauss_legendre( t->nq, t->edge_t, t->edge_w );
	static const double rv[2][4][2] = { { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 0, 0 } },
		                                { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } } };
	const double( *v )[2]           = rv[nv - 3];
	for ( int e = 0; e < nv; e++ )
	{
		const int e1 = ( e + 1 ) % nv;
		for ( int q = 0; q < t->nq; q++ )
		{
			const double s = t->edge_t[q];
			hyb_fl_basis_eval( &b, v[e][0] + s * ( v[e1][0] - v[e][0] ),
			                   v[e][1] + s * ( v[e1][1] - v[e][1] ),
			                   t->edge_phi + ( e * t->nq + q ) * t->np, NULL );
		}
	}
	for ( int q = 0; q < t->nqv; q++ )
		hyb_fl_basis_eval( &b, t->vol_xi[2 * q], t->vol_xi[2 * q + 1], t->vol_phi + q * t->np,
		                   t->vol_dphi + q * t->np * 2 );
	return HYB_OK;
}
