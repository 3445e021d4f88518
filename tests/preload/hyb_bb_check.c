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

static atomic_int hyb_bb_nfail;

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
	for ( size_t i = 0; i < n; i++ )
		x[i] = hyb_bb_rng_uniform( r );
}

void hyb_bb_fill_s( hyb_bb_rng_t* r, float* x, size_t n )
{
	for ( size_t i = 0; i < n; i++ )
		x[i] = (float)hyb_bb_rng_uniform( r );
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
	double denom = hyb_bb_gemm_denom( k, alpha, hyb_bb_norm_d( ar, ac, a, lda ),
	                                  hyb_bb_norm_d( br, bc, b, ldb ), beta, hyb_bb_norm_d( m, n, c, ldc ) );
	char sa[2] = { ta, 0 }, sb[2] = { tb, 0 };
	dgemm( sa, sb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1 );
	int ok = hyb_bb_check( what, hyb_bb_diff_d( m, n, c, cref, ldc ), denom, 2.220446049250313e-16 );
	free( a ), free( b ), free( c ), free( cref );
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
		for ( int i = 0; i < rows; i++ )
			s += x[i + (size_t)j * ld] * x[i + (size_t)j * ld];
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
	for ( size_t i = 0; i < (size_t)ldb * n; i++ )
		ab0[i] = alpha * b0[i];
	/* ||T||_F of the triangle actually used (unit diagonal included). */
	for ( int i = 0; i < dim; i++ )
		e[i + (size_t)i * dim] = 1;
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
