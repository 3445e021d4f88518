/* SPDX-License-Identifier: BSD-3-Clause */
/* References and normalized checks of the black-box programs (see
   hyb_bb_check.h). */
#include "hyb_bb_check.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_int hyb_bb_nfail;
static atomic_int hyb_bb_quiet_v;

void hyb_bb_rng_seed( hyb_bb_rng_t* r, uint64_t seed )
{
	r->s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
}

double hyb_bb_rng_uniform( hyb_bb_rng_t* r )
{
	uint64_t z = ( r->s += 0x9E3779B97F4A7C15ull );
	z          = ( z ^ ( z >> 30 ) ) * 0xBF58476D1CE4E5B9ull;
	z          = ( z ^ ( z >> 27 ) ) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)( z >> 11 ) * ( 2.0 / 9007199254740992.0 ) - 1.0;
}

void hyb_bb_fill_d( hyb_bb_rng_t* r, double* x, size_t n )
{
	for ( size_t i = 0; i < n; i++ ) x[i] = hyb_bb_rng_uniform( r );
}

void hyb_bb_fill_s( hyb_bb_rng_t* r, float* x, size_t n )
{
	for ( size_t i = 0; i < n; i++ ) x[i] = (float)hyb_bb_rng_uniform( r );
}

void hyb_bb_fill_z( hyb_bb_rng_t* r, hyb_bb_z_t* x, size_t n )
{
	for ( size_t i = 0; i < n; i++ )
	{
		double re = hyb_bb_rng_uniform( r );
		double im = hyb_bb_rng_uniform( r );
		x[i]      = CMPLX( re, im );
	}
}

static void* hyb_bb_xmalloc( size_t bytes )
{
	void* p = malloc( bytes ? bytes : 1 );
	if ( p == NULL )
	{
		fprintf( stderr, "out of memory (%zu bytes)\n", bytes );
		abort();
	}
	return p;
}

double* hyb_bb_alloc_d( hyb_bb_rng_t* r, int ld, int cols )
{
	size_t  n = (size_t)ld * (size_t)cols;
	double* x = hyb_bb_xmalloc( n * sizeof *x );
	hyb_bb_fill_d( r, x, n );
	return x;
}

float* hyb_bb_alloc_s( hyb_bb_rng_t* r, int ld, int cols )
{
	size_t n = (size_t)ld * (size_t)cols;
	float* x = hyb_bb_xmalloc( n * sizeof *x );
	hyb_bb_fill_s( r, x, n );
	return x;
}

hyb_bb_z_t* hyb_bb_alloc_z( hyb_bb_rng_t* r, int ld, int cols )
{
	size_t      n = (size_t)ld * (size_t)cols;
	hyb_bb_z_t* x = hyb_bb_xmalloc( n * sizeof *x );
	hyb_bb_fill_z( r, x, n );
	return x;
}

/* op(X)(i, j) for a column-major X with leading dimension ld. */
static double hyb_bb_op_d( char t, const double* x, int ld, int i, int j )
{
	return t == 'N' ? x[i + (size_t)j * ld] : x[j + (size_t)i * ld];
}

static hyb_bb_z_t hyb_bb_op_z( char t, const hyb_bb_z_t* x, int ld, int i, int j )
{
	if ( t == 'N' ) return x[i + (size_t)j * ld];
	hyb_bb_z_t v = x[j + (size_t)i * ld];
	return t == 'C' ? conj( v ) : v;
}

void hyb_bb_ref_dgemm( char ta, char tb, int m, int n, int k, double alpha, const double* a,
                       int lda, const double* b, int ldb, double beta, const double* c0,
                       double* cref, int ldc )
{
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < m; i++ )
		{
			double s = 0;
			for ( int l = 0; l < k; l++ )
				s += hyb_bb_op_d( ta, a, lda, i, l ) * hyb_bb_op_d( tb, b, ldb, l, j );
			size_t ij = i + (size_t)j * ldc;
			/* beta == 0: C is not read (reference semantics). */
			cref[ij] = alpha * s + ( beta == 0.0 ? 0.0 : beta * c0[ij] );
		}
}

int hyb_bb_dgemm_checked( hyb_bb_dgemm_fn dgemm, hyb_bb_rng_t* r, char ta, char tb, int m, int n,
                          int k, double alpha, double beta, const char* what )
{
	int     ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m;
	int     br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
	int     lda = ar + 3, ldb = br + 1, ldc = m + 5;
	double* a    = hyb_bb_alloc_d( r, lda, ac );
	double* b    = hyb_bb_alloc_d( r, ldb, bc );
	double* c    = hyb_bb_alloc_d( r, ldc, n );
	double* cref = malloc( sizeof *cref * (size_t)ldc * (size_t)n );
	if ( cref == NULL ) abort();
	hyb_bb_ref_dgemm( ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, cref, ldc );
	double denom =
	    hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( ar, ac, a, lda ),
	                       hyb_bb_norm_d( br, bc, b, ldb ), beta, hyb_bb_norm_d( m, n, c, ldc ) );
	char sa[2] = { ta, 0 }, sb[2] = { tb, 0 };
	dgemm( sa, sb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1 );
	int ok =
	    hyb_bb_check( what, hyb_bb_diff_d( m, n, c, cref, ldc ), denom, 2.220446049250313e-16 );
	free( a ), free( b ), free( c ), free( cref );
	return ok;
}

int hyb_bb_dgtsv_checked( hyb_bb_dgtsv_fn dgtsv, hyb_bb_rng_t* r, int n, int nrhs,
                          const char* what )
{
	int     ldb = n + 2;
	double* dl  = malloc( sizeof *dl * (size_t)n );
	double* d   = malloc( sizeof *d * (size_t)n );
	double* du  = malloc( sizeof *du * (size_t)n );
	double* a0  = malloc( sizeof *a0 * 3 * (size_t)n ); /* dl, d, du as they were */
	double* b   = hyb_bb_alloc_d( r, ldb, nrhs );
	double* b0  = malloc( sizeof *b0 * (size_t)ldb * (size_t)nrhs );
	if ( !dl || !d || !du || !a0 || !b0 ) abort();
	for ( int i = 0; i < n; i++ )
	{
		dl[i] = hyb_bb_rng_uniform( r );
		du[i] = hyb_bb_rng_uniform( r );
		/* |d| >= 4 >= 2 (|dl| + |du|): dominant enough for hyblas's SPIKE path. */
		d[i] = ( hyb_bb_rng_uniform( r ) < 0 ? -1 : 1 ) * ( 4.5 + 0.5 * hyb_bb_rng_uniform( r ) );
	}
	memcpy( a0, dl, sizeof *dl * (size_t)n );
	memcpy( a0 + n, d, sizeof *d * (size_t)n );
	memcpy( a0 + 2 * (size_t)n, du, sizeof *du * (size_t)n );
	memcpy( b0, b, sizeof *b * (size_t)ldb * (size_t)nrhs );
	int info = -99;
	dgtsv( &n, &nrhs, dl, d, du, b, &ldb, &info );
	int ok = hyb_bb_expect( info == 0, "%s: INFO = %d, want 0", what, info );
	/* ||A||_inf and the residual of every column, from the saved system. */
	const double *sl = a0, *sd = a0 + n, *su = a0 + 2 * (size_t)n;
	double        anorm = 0, xnorm = 0, res = 0;
	for ( int i = 0; i < n; i++ )
		anorm = fmax( anorm, fabs( sd[i] ) + ( i > 0 ? fabs( sl[i - 1] ) : 0 ) +
		                         ( i + 1 < n ? fabs( su[i] ) : 0 ) );
	for ( int j = 0; j < nrhs; j++ )
	{
		const double* x = b + (size_t)j * ldb;
		for ( int i = 0; i < n; i++ )
		{
			double ax = sd[i] * x[i];
			if ( i > 0 ) ax += sl[i - 1] * x[i - 1];
			if ( i + 1 < n ) ax += su[i] * x[i + 1];
			res   = fmax( res, fabs( ax - b0[i + (size_t)j * ldb] ) );
			xnorm = fmax( xnorm, fabs( x[i] ) );
			if ( !isfinite( x[i] ) ) res = INFINITY;
		}
	}
	ok &= hyb_bb_check( what, res, anorm * xnorm * n, 2.220446049250313e-16 );
	free( dl ), free( d ), free( du ), free( a0 ), free( b ), free( b0 );
	return ok;
}

int hyb_bb_dcoomv_checked( hyb_bb_dcoomv_fn coomv, hyb_bb_rng_t* r, int m, int per_row, int base,
                           char trans, const char* what )
{
	int     nnz = m * per_row;
	int*    ri  = malloc( sizeof *ri * (size_t)( nnz + 1 ) );
	int*    ci  = malloc( sizeof *ci * (size_t)( nnz + 1 ) );
	double* v   = malloc( sizeof *v * (size_t)( nnz + 1 ) );
	double* x   = malloc( sizeof *x * (size_t)m );
	double* y   = malloc( sizeof *y * (size_t)m );
	double* ref = calloc( (size_t)m, sizeof *ref );
	double* mag = calloc( (size_t)m, sizeof *mag );
	int*    cnt = calloc( (size_t)m, sizeof *cnt );
	if ( !ri || !ci || !v || !x || !y || !ref || !mag || !cnt ) abort();
	hyb_bb_fill_d( r, x, (size_t)m );
	for ( int e = 0; e < nnz; e++ )
	{
		/* Rows near a random band, every fifth entry a duplicate of the one before. */
		int i = (int)( ( hyb_bb_rng_uniform( r ) + 1 ) * 0.5 * m ) % m;
		int j = ( i + (int)( hyb_bb_rng_uniform( r ) * 8 ) + m ) % m;
		if ( e % 5 == 4 ) i = ri[e - 1] - base, j = ci[e - 1] - base;
		ri[e] = i + base, ci[e] = j + base;
		v[e]    = hyb_bb_rng_uniform( r );
		int row = trans == 'N' ? i : j, col = trans == 'N' ? j : i;
		ref[row] += v[e] * x[col];
		mag[row] += fabs( v[e] * x[col] );
		cnt[row]++;
	}
	for ( int i = 0; i < m; i++ ) y[i] = 1e300; /* garbage the product must overwrite */
	char t[2] = { trans, 0 };
	coomv( t, &m, v, ri, ci, &nnz, x, y );
	double err = 0, amax = 0;
	int    L = 1;
	for ( int i = 0; i < m; i++ )
	{
		err  = isfinite( y[i] ) ? fmax( err, fabs( y[i] - ref[i] ) ) : INFINITY;
		amax = fmax( amax, mag[i] );
		L    = cnt[i] > L ? cnt[i] : L;
	}
	int ok = hyb_bb_check( what, err, L * fmax( amax, 1e-300 ), 2.220446049250313e-16 );
	free( ri ), free( ci ), free( v ), free( x ), free( y ), free( ref ), free( mag ), free( cnt );
	return ok;
}

void hyb_bb_ref_zgemm( char ta, char tb, int m, int n, int k, hyb_bb_z_t alpha, const hyb_bb_z_t* a,
                       int lda, const hyb_bb_z_t* b, int ldb, hyb_bb_z_t beta, const hyb_bb_z_t* c0,
                       hyb_bb_z_t* cref, int ldc )
{
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < m; i++ )
		{
			hyb_bb_z_t s = 0;
			for ( int l = 0; l < k; l++ )
				s += hyb_bb_op_z( ta, a, lda, i, l ) * hyb_bb_op_z( tb, b, ldb, l, j );
			size_t ij = i + (size_t)j * ldc;
			cref[ij]  = alpha * s + ( beta == 0 ? 0 : beta * c0[ij] );
		}
}

void hyb_bb_ref_ssyrk( char uplo, char trans, int n, int k, double alpha, const float* a, int lda,
                       double beta, const float* c0, double* cref, int ldc )
{
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < n; i++ )
		{
			size_t ij = i + (size_t)j * ldc;
			if ( ( uplo == 'U' && i > j ) || ( uplo == 'L' && i < j ) )
			{
				cref[ij] = c0[ij];
				continue;
			}
			double s = 0;
			for ( int l = 0; l < k; l++ )
			{
				double ail = trans == 'N' ? a[i + (size_t)l * lda] : a[l + (size_t)i * lda];
				double ajl = trans == 'N' ? a[j + (size_t)l * lda] : a[l + (size_t)j * lda];
				s += ail * ajl;
			}
			cref[ij] = alpha * s + ( beta == 0.0 ? 0.0 : beta * (double)c0[ij] );
		}
}

/* T(i, j): the stored triangle, zero outside, one on a unit diagonal. */
static double hyb_bb_tri( char uplo, char diag, const double* a, int lda, int i, int j )
{
	if ( i == j ) return diag == 'U' ? 1.0 : a[i + (size_t)j * lda];
	if ( ( uplo == 'U' && i > j ) || ( uplo == 'L' && i < j ) ) return 0.0;
	return a[i + (size_t)j * lda];
}

void hyb_bb_ref_dtrmul( char side, char uplo, char trans, char diag, int m, int n, const double* a,
                        int lda, const double* x, double* out, int ldx )
{
	int dim = side == 'L' ? m : n;
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < m; i++ )
		{
			double s = 0;
			for ( int l = 0; l < dim; l++ )
			{
				if ( side == 'L' )
				{
					double t = trans == 'N' ? hyb_bb_tri( uplo, diag, a, lda, i, l )
					                        : hyb_bb_tri( uplo, diag, a, lda, l, i );
					s += t * x[l + (size_t)j * ldx];
				}
				else
				{
					double t = trans == 'N' ? hyb_bb_tri( uplo, diag, a, lda, l, j )
					                        : hyb_bb_tri( uplo, diag, a, lda, j, l );
					s += x[i + (size_t)l * ldx] * t;
				}
			}
			out[i + (size_t)j * ldx] = s;
		}
}

double hyb_bb_norm_d( int rows, int cols, const double* x, int ld )
{
	double s = 0;
	for ( int j = 0; j < cols; j++ )
		for ( int i = 0; i < rows; i++ ) s += x[i + (size_t)j * ld] * x[i + (size_t)j * ld];
	return sqrt( s );
}

double hyb_bb_norm_s( int rows, int cols, const float* x, int ld )
{
	double s = 0;
	for ( int j = 0; j < cols; j++ )
		for ( int i = 0; i < rows; i++ )
		{
			double v = x[i + (size_t)j * ld];
			s += v * v;
		}
	return sqrt( s );
}

double hyb_bb_norm_z( int rows, int cols, const hyb_bb_z_t* x, int ld )
{
	double s = 0;
	for ( int j = 0; j < cols; j++ )
		for ( int i = 0; i < rows; i++ )
		{
			double v = cabs( x[i + (size_t)j * ld] );
			s += v * v;
		}
	return sqrt( s );
}

double hyb_bb_diff_d( int rows, int cols, const double* x, const double* y, int ld )
{
	double s = 0;
	for ( int j = 0; j < cols; j++ )
		for ( int i = 0; i < rows; i++ )
		{
			double d = x[i + (size_t)j * ld] - y[i + (size_t)j * ld];
			s += d * d;
		}
	return sqrt( s );
}

double hyb_bb_diff_sd( int rows, int cols, const float* x, const double* y, int ld )
{
	double s = 0;
	for ( int j = 0; j < cols; j++ )
		for ( int i = 0; i < rows; i++ )
		{
			double d = (double)x[i + (size_t)j * ld] - y[i + (size_t)j * ld];
			s += d * d;
		}
	return sqrt( s );
}

double hyb_bb_diff_z( int rows, int cols, const hyb_bb_z_t* x, const hyb_bb_z_t* y, int ld )
{
	double s = 0;
	for ( int j = 0; j < cols; j++ )
		for ( int i = 0; i < rows; i++ )
		{
			double d = cabs( x[i + (size_t)j * ld] - y[i + (size_t)j * ld] );
			s += d * d;
		}
	return sqrt( s );
}

double hyb_bb_gemm_denom( double k, double alpha, double norm_a, double norm_b, double beta,
                          double norm_c0 )
{
	return ( sqrt( k ) + 2 ) * fabs( alpha ) * norm_a * norm_b + 2 * fabs( beta ) * norm_c0;
}

int hyb_bb_check( const char* what, double diff, double denom, double eps )
{
	double ratio = denom > 0 ? diff / ( denom * eps ) : ( diff == 0 ? 0.0 : INFINITY );
	int    ok    = isfinite( ratio ) && ratio < HYB_BB_TOL;
	if ( !ok || !atomic_load( &hyb_bb_quiet_v ) )
		printf( "%s %-48s error/(bound*eps) = %.3g\n", ok ? "ok  " : "FAIL", what, ratio );
	if ( !ok ) atomic_fetch_add( &hyb_bb_nfail, 1 );
	return ok;
}

int hyb_bb_check_dtrsm( const char* what, char side, char uplo, char trans, char diag, int m, int n,
                        double alpha, const double* a, int lda, const double* x, const double* b0,
                        int ldb )
{
	int     dim = side == 'L' ? m : n;
	double* ax  = malloc( sizeof *ax * (size_t)ldb * n );
	double* ab0 = malloc( sizeof *ab0 * (size_t)ldb * n );
	double* t   = calloc( (size_t)dim * dim, sizeof *t );
	double* e   = calloc( (size_t)dim * dim, sizeof *e );
	if ( !ax || !ab0 || !t || !e ) abort();
	hyb_bb_ref_dtrmul( side, uplo, trans, diag, m, n, a, lda, x, ax, ldb );
	for ( size_t i = 0; i < (size_t)ldb * n; i++ ) ab0[i] = alpha * b0[i];
	/* ||T||_F of the triangle actually used (unit diagonal included). */
	for ( int i = 0; i < dim; i++ ) e[i + (size_t)i * dim] = 1;
	hyb_bb_ref_dtrmul( 'L', uplo, 'N', diag, dim, dim, a, lda, e, t, dim );
	double denom = ( dim + 2 ) * hyb_bb_norm_d( dim, dim, t, dim ) * hyb_bb_norm_d( m, n, x, ldb ) +
	               2 * hyb_bb_norm_d( m, n, ab0, ldb );
	int ok = hyb_bb_check( what, hyb_bb_diff_d( m, n, ax, ab0, ldb ), denom, DBL_EPSILON );
	free( ax ), free( ab0 ), free( t ), free( e );
	return ok;
}

int hyb_bb_expect( int cond, const char* fmt, ... )
{
	if ( cond ) return 1;
	char    msg[512];
	va_list ap;
	va_start( ap, fmt );
	vsnprintf( msg, sizeof msg, fmt, ap );
	va_end( ap );
	printf( "FAIL %s\n", msg );
	atomic_fetch_add( &hyb_bb_nfail, 1 );
	return 0;
}

void hyb_bb_quiet( int on )
{
	atomic_store( &hyb_bb_quiet_v, on );
}

int hyb_bb_failures( void )
{
	return atomic_load( &hyb_bb_nfail );
}

int hyb_bb_finish( const char* program )
{
	int n = hyb_bb_failures();
	printf( "%s: %s (%d failed check%s)\n", program, n ? "FAILED" : "PASSED", n,
	        n == 1 ? "" : "s" );
	fflush( stdout );
	return n ? 1 : 0;
}
