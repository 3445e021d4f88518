/* SPDX-License-Identifier: BSD-3-Clause */
/* A program that brings Intel MKL: it loads libmkl_rt (as a program linked with it does,
   into the global scope) and calls the eight legacy sparse names the ordinary way, which
   under LD_PRELOAD reaches hyblas; every product is checked against MKL's own routine
   called directly, on matrices with duplicated entries and empty rows, 0- and 1-based,
   'N' and 'T' (and the 't' and 'C' spellings), COO and CSR, double and single.
     app_mkl_sparse LIBMKL_RT [--same]
   --same: every product must equal MKL's bit for bit (the CPU path running MKL's code).
   Error bound otherwise, L the most entries adding into one element of y:
     |y - y_mkl|_i <= 2 L eps (|op(A)| |x|)_i.
   Exit 0 when all pass, 1 on a failure, 77 when MKL or one of its legacy names is missing
   or the names do not reach hyblas (run it with LD_PRELOAD=libhyblas.so). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkl_sparse_fns.h"

/* The eight names, [precision d/s][format coo/csr][base 0/1]. */
static const char* const am_names[2][2][2] = {
	{ { "mkl_cspblas_dcoogemv", "mkl_dcoogemv" }, { "mkl_cspblas_dcsrgemv", "mkl_dcsrgemv" } },
	{ { "mkl_cspblas_scoogemv", "mkl_scoogemv" }, { "mkl_cspblas_scsrgemv", "mkl_scsrgemv" } }
};
static void* am_hyb[2][2][2]; /* as the program's own calls resolve them */
static void* am_mkl[2][2][2]; /* MKL's, from its handle */

static uint64_t am_state = 0x2545f4914f6cdd1dull;
static uint64_t am_next( void )
{
	am_state ^= am_state << 13;
	am_state ^= am_state >> 7;
	am_state ^= am_state << 17;
	return am_state;
}
static double am_unit( void )
{
	return (double)( am_next() >> 11 ) * ( 2.0 / 9007199254740992.0 ) - 1.0;
}

/* A matrix in COO (rows sorted, duplicates adjacent) with its CSR twin, 0-based. */
typedef struct
{
	int     m, nnz;
	int *   row, *col, *ia;
	double* val;
} am_mat_t;

/* m rows, about `per` entries a row; every fifth row empty, one entry in seven repeated. */
static am_mat_t am_make( int m, int per )
{
	am_mat_t A   = { m, 0, NULL, NULL, NULL, NULL };
	int      cap = m * ( per + 2 ) + 1;
	A.row        = malloc( (size_t)cap * sizeof( int ) );
	A.col        = malloc( (size_t)cap * sizeof( int ) );
	A.val        = malloc( (size_t)cap * sizeof( double ) );
	A.ia         = calloc( (size_t)m + 1, sizeof( int ) );
	for ( int i = 0; i < m; i++ )
	{
		A.ia[i] = A.nnz;
		if ( i % 5 == 3 ) continue;
		int n = 1 + (int)( am_next() % (uint64_t)( 2 * per ) );
		for ( int k = 0; k < n && A.nnz < cap - 1; k++ )
		{
			A.row[A.nnz] = i;
			A.col[A.nnz] = (int)( am_next() % (uint64_t)m );
			A.val[A.nnz] = am_unit();
			A.nnz++;
			if ( am_next() % 7 == 0 && A.nnz < cap - 1 ) /* the same position again */
			{
				A.row[A.nnz] = i;
				A.col[A.nnz] = A.col[A.nnz - 1];
				A.val[A.nnz] = am_unit();
				A.nnz++;
			}
		}
	}
	A.ia[m] = A.nnz;
	return A;
}

static void am_free( am_mat_t* A )
{
	free( A->row ), free( A->col ), free( A->ia ), free( A->val );
}

static int am_fail;

/* One call through both symbols; y starts as NaN (the product overwrites it). */
static void am_case( const am_mat_t* A, int s, int csr, int base, char t, int same )
{
	int  m = A->m, nnz = A->nnz;
	int *r        = malloc( (size_t)( nnz + 1 ) * sizeof( int ) ),
	    *c        = malloc( (size_t)( nnz + 1 ) * sizeof( int ) );
	int*    ia    = malloc( (size_t)( m + 1 ) * sizeof( int ) );
	double *xd    = malloc( (size_t)m * sizeof( double ) ),
	       *y1    = malloc( (size_t)m * sizeof( double ) );
	double *y2    = malloc( (size_t)m * sizeof( double ) ),
	       *bound = calloc( (size_t)m, sizeof( double ) );
	int*   L      = calloc( (size_t)m, sizeof( int ) );
	float *vf     = malloc( (size_t)( nnz + 1 ) * sizeof( float ) ),
	      *xf     = malloc( (size_t)m * sizeof( float ) );
	float *yf1    = malloc( (size_t)m * sizeof( float ) ),
	      *yf2    = malloc( (size_t)m * sizeof( float ) );
	int tr        = t != 'N' && t != 'n';
	for ( int k = 0; k < nnz; k++ )
	{
		r[k]  = A->row[k] + base;
		c[k]  = A->col[k] + base;
		vf[k] = (float)A->val[k];
	}
	for ( int i = 0; i <= m; i++ ) ia[i] = A->ia[i] + base;
	for ( int i = 0; i < m; i++ )
	{
		xd[i] = am_unit();
		xf[i] = (float)xd[i];
		y1[i] = y2[i] = NAN;
		yf1[i] = yf2[i] = NAN;
	}
	for ( int k = 0; k < nnz; k++ )
	{
		int out = tr ? A->col[k] : A->row[k], in = tr ? A->row[k] : A->col[k];
		bound[out] += fabs( A->val[k] * xd[in] );
		L[out]++;
	}
	void* h = am_hyb[s][csr][base];
	void* k = am_mkl[s][csr][base];
	if ( s == 0 && !csr )
	{
		( (dcoo_fn)h )( &t, &m, A->val, r, c, &nnz, xd, y1 );
		( (dcoo_fn)k )( &t, &m, A->val, r, c, &nnz, xd, y2 );
	}
	else if ( s == 0 )
	{
		( (dcsr_fn)h )( &t, &m, A->val, ia, c, xd, y1 );
		( (dcsr_fn)k )( &t, &m, A->val, ia, c, xd, y2 );
	}
	else if ( !csr )
	{
		( (scoo_fn)h )( &t, &m, vf, r, c, &nnz, xf, yf1 );
		( (scoo_fn)k )( &t, &m, vf, r, c, &nnz, xf, yf2 );
	}
	else
	{
		( (scsr_fn)h )( &t, &m, vf, ia, c, xf, yf1 );
		( (scsr_fn)k )( &t, &m, vf, ia, c, xf, yf2 );
	}
	double eps = s ? FLT_EPSILON : DBL_EPSILON, worst = 0.0;
	int    bad = -1;
	for ( int i = 0; i < m; i++ )
	{
		double a = s ? yf1[i] : y1[i], b = s ? yf2[i] : y2[i];
		double e = fabs( a - b ), tol = 2.0 * ( L[i] + 1 ) * eps * bound[i];
		if ( !isfinite( a ) || !isfinite( b ) || e > tol || ( same && a != b ) )
		{
			bad   = i;
			worst = e;
			break;
		}
	}
	if ( bad >= 0 )
	{
		am_fail++;
		printf( "FAIL %s transa=%c m=%d nnz=%d: y[%d] %.17g, MKL's %.17g (|diff| %.3g)\n",
		        am_names[s][csr][base], t, m, nnz, bad, s ? yf1[bad] : y1[bad],
		        s ? yf2[bad] : y2[bad], worst );
	}
	free( r ), free( c ), free( ia ), free( xd ), free( y1 ), free( y2 ), free( bound ), free( L ),
	    free( vf );
	free( xf ), free( yf1 ), free( yf2 );
}

int main( int argc, char** argv )
{
	if ( argc < 2 )
	{
		fprintf( stderr, "usage: %s LIBMKL_RT [--same]\n", argv[0] );
		return 2;
	}
	int   same = argc > 2 && strcmp( argv[2], "--same" ) == 0;
	void* mkl  = dlopen( argv[1], RTLD_NOW | RTLD_GLOBAL );
	if ( mkl == NULL )
	{
		printf( "app_mkl_sparse: no MKL (%s): skipped\n", dlerror() );
		return 77;
	}
	for ( int s = 0; s < 2; s++ )
		for ( int f = 0; f < 2; f++ )
			for ( int b = 0; b < 2; b++ )
			{
				const char* n   = am_names[s][f][b];
				am_mkl[s][f][b] = dlsym( mkl, n );
				am_hyb[s][f][b] = dlsym( RTLD_DEFAULT, n );
				Dl_info di;
				if ( am_mkl[s][f][b] == NULL )
				{
					printf( "app_mkl_sparse: this MKL has no %s (oneMKL 2025 removed the legacy "
					        "names): skipped\n",
					        n );
					return 77;
				}
				if ( am_hyb[s][f][b] == am_mkl[s][f][b] || !dladdr( am_hyb[s][f][b], &di ) ||
				     di.dli_fname == NULL || strstr( di.dli_fname, "libhyblas" ) == NULL )
				{
					printf( "app_mkl_sparse: %s does not reach hyblas (run with "
					        "LD_PRELOAD=libhyblas.so): skipped\n",
					        n );
					return 77;
				}
			}
	static const int  sizes[][2] = { { 1, 1 }, { 7, 2 }, { 300, 4 }, { 4000, 9 } };
	static const char trans[]    = { 'N', 'n', 'T', 't', 'C' };
	int               cases      = 0;
	for ( size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++ )
	{
		am_mat_t A = am_make( sizes[z][0], sizes[z][1] );
		for ( int s = 0; s < 2; s++ )
			for ( int f = 0; f < 2; f++ )
				for ( int b = 0; b < 2; b++ )
					for ( size_t t = 0; t < sizeof trans; t++, cases++ )
						am_case( &A, s, f, b, trans[t], same );
		am_free( &A );
	}
	printf( "app_mkl_sparse: %d products against MKL's own, %d failed%s\n", cases, am_fail,
	        same ? " (bit for bit)" : "" );
	return am_fail ? 1 : 0;
}
