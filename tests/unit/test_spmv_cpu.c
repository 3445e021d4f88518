/* SPDX-License-Identifier: BSD-3-Clause */
/* The OpenMP SpMV kernels against a serial reference: MKL semantics of the COO and CSR
   products (order, duplicates, empty rows, bases, transposition, invalid arguments) and
   the host kernels of the hybrid split (COO remainder, ELL, DIA). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_test_util.h"
#include "kernels/cpu/hyb_spmv_cpu.h"

/* ------------------------------------------------------------------ test matrices */

/* The generator of the test matrices and vectors, seeded per test. */
static hyb_t_rng_t tc_rng;

static void tc_seed( uint64_t seed )
{
	tc_rng = hyb_t_rng( seed );
}

/* A square matrix as 0-based triplets, in row-major order. */
typedef struct
{
	int64_t m, nnz;
	int*    row;
	int*    col;
	double* val;
} tc_coo_t;

static void tc_free( tc_coo_t* a )
{
	free( a->row );
	free( a->col );
	free( a->val );
	memset( a, 0, sizeof *a );
}

/* Random m x m matrix, rows sorted: each row gets 0..2*mean entries (about a tenth of the
   rows empty), columns within +-band of the diagonal (band <= 0: anywhere), a share of
   them duplicated right after themselves. */
static tc_coo_t tc_random( int64_t m, int64_t mean, int64_t band, double dup )
{
	tc_coo_t a;
	int64_t  cap = m * ( 2 * mean + 1 ) * 2 + 1;
	a.m          = m;
	a.row        = malloc( (size_t)cap * sizeof( int ) );
	a.col        = malloc( (size_t)cap * sizeof( int ) );
	a.val        = malloc( (size_t)cap * sizeof( double ) );
	int64_t n    = 0;
	for ( int64_t i = 0; i < m; i++ )
	{
		if ( hyb_t_below( &tc_rng, 10 ) == 0 ) continue;
		int64_t len = hyb_t_below( &tc_rng, 2 * mean + 1 );
		for ( int64_t k = 0; k < len; k++ )
		{
			int64_t j = band > 0 ? i - band + hyb_t_below( &tc_rng, 2 * band + 1 )
			                     : hyb_t_below( &tc_rng, m );
			if ( j < 0 || j >= m ) j = i;
			a.row[n] = (int)i;
			a.col[n] = (int)j;
			a.val[n] = hyb_t_unit( &tc_rng );
			n++;
			if ( hyb_t_unit( &tc_rng ) < 2 * dup - 1 )
			{
				a.row[n] = (int)i;
				a.col[n] = (int)j;
				a.val[n] = hyb_t_unit( &tc_rng );
				n++;
			}
		}
	}
	a.nnz = n;
	return a;
}

static void tc_shuffle( tc_coo_t* a )
{
	for ( int64_t k = a->nnz - 1; k > 0; k-- )
	{
		int64_t j = hyb_t_below( &tc_rng, k + 1 );
		int     r = a->row[k], c = a->col[k];
		double  v = a->val[k];
		a->row[k] = a->row[j];
		a->col[k] = a->col[j];
		a->val[k] = a->val[j];
		a->row[j] = r;
		a->col[j] = c;
		a->val[j] = v;
	}
}

/* CSR of a row-sorted triplet list, with the base added. */
static void tc_csr( const tc_coo_t* a, int base, int** ia, int** ja )
{
	*ia = calloc( (size_t)a->m + 1, sizeof( int ) );
	*ja = malloc( (size_t)( a->nnz > 0 ? a->nnz : 1 ) * sizeof( int ) );
	for ( int64_t k = 0; k < a->nnz; k++ )
	{
		( *ia )[a->row[k] + 1]++;
		( *ja )[k] = a->col[k] + base;
	}
	for ( int64_t i = 0; i < a->m; i++ ) ( *ia )[i + 1] += ( *ia )[i];
	for ( int64_t i = 0; i <= a->m; i++ ) ( *ia )[i] += base;
}

static int* tc_plus( const int* v, int64_t n, int base )
{
	int* r = malloc( (size_t)( n > 0 ? n : 1 ) * sizeof( int ) );
	for ( int64_t k = 0; k < n; k++ ) r[k] = v[k] + base;
	return r;
}

static double* tc_vec( int64_t m )
{
	double* x = malloc( (size_t)( m > 0 ? m : 1 ) * sizeof( double ) );
	for ( int64_t i = 0; i < m; i++ ) x[i] = hyb_t_unit( &tc_rng );
	return x;
}

/* ------------------------------------------------------------------ reference and bound */

/* Serial reference in double: y = op(A) x from the triplets; also the bound
   c * nnz_row_max * eps * max_i (|op(A)| |x|)_i with c = 4. */
static double tc_reference( const tc_coo_t* a, int trans, const double* x, double* y, double eps )
{
	int64_t  m    = a->m;
	double*  absv = calloc( (size_t)( m > 0 ? m : 1 ), sizeof( double ) );
	int64_t* cnt  = calloc( (size_t)( m > 0 ? m : 1 ), sizeof( int64_t ) );
	for ( int64_t i = 0; i < m; i++ ) y[i] = 0.0;
	for ( int64_t k = 0; k < a->nnz; k++ )
	{
		int64_t r = trans ? a->col[k] : a->row[k], c = trans ? a->row[k] : a->col[k];
		y[r] += a->val[k] * x[c];
		absv[r] += fabs( a->val[k] ) * fabs( x[c] );
		cnt[r]++;
	}
	double  ax = 0.0;
	int64_t mx = 0;
	for ( int64_t i = 0; i < m; i++ )
	{
		ax = absv[i] > ax ? absv[i] : ax;
		mx = cnt[i] > mx ? cnt[i] : mx;
	}
	free( absv );
	free( cnt );
	return 4.0 * (double)( mx > 0 ? mx : 1 ) * eps * ax;
}

static double tc_maxdiff( const double* y, const double* r, int64_t m )
{
	double e = 0.0;
	for ( int64_t i = 0; i < m; i++ )
	{
		double d = fabs( y[i] - r[i] );
		if ( !( d <= e ) ) e = d; /* NaN propagates as the worst */
	}
	return e;
}

static double tc_maxdiff_s( const float* y, const double* r, int64_t m )
{
	double e = 0.0;
	for ( int64_t i = 0; i < m; i++ )
	{
		double d = fabs( (double)y[i] - r[i] );
		if ( !( d <= e ) ) e = d;
	}
	return e;
}

static double* tc_nan_vec( int64_t m )
{
	double* y = malloc( (size_t)( m > 0 ? m : 1 ) * sizeof( double ) );
	for ( int64_t i = 0; i < m; i++ ) y[i] = NAN;
	return y;
}

static const char tc_trans_chars[] = { 'N', 'n', 'T', 't', 'C', 'c' };
static const int  tc_threads[]     = { 1, 2, 3, 7 };

/* Run the COO and CSR double kernels on one matrix in every layout, base, transa and
   thread count, each against the reference. */
static void tc_check_all( tc_coo_t* a, int shuffle )
{
	double* x  = tc_vec( a->m );
	double* y  = tc_nan_vec( a->m );
	double* yr = malloc( (size_t)( a->m > 0 ? a->m : 1 ) * sizeof( double ) );
	int*    ia[2];
	int*    ja[2];
	tc_csr( a, 0, &ia[0], &ja[0] );
	tc_csr( a, 1, &ia[1], &ja[1] );
	tc_coo_t s = *a;
	if ( shuffle )
	{
		s.row = tc_plus( a->row, a->nnz, 0 );
		s.col = tc_plus( a->col, a->nnz, 0 );
		s.val = malloc( (size_t)( a->nnz > 0 ? a->nnz : 1 ) * sizeof( double ) );
		memcpy( s.val, a->val, (size_t)a->nnz * sizeof( double ) );
		tc_shuffle( &s );
	}
	for ( size_t t = 0; t < sizeof tc_trans_chars; t++ )
	{
		char   tr    = tc_trans_chars[t];
		double bound = tc_reference( a, t >= 2, x, yr, 0x1.0p-53 );
		for ( int base = 0; base <= 1; base++ )
		{
			int* r = tc_plus( s.row, s.nnz, base );
			int* c = tc_plus( s.col, s.nnz, base );
			for ( size_t q = 0; q < sizeof tc_threads / sizeof tc_threads[0]; q++ )
			{
				for ( int64_t i = 0; i < a->m; i++ ) y[i] = NAN;
				CU_ASSERT_EQUAL(
				    hyb_dcoomv_cpu_omp( tr, a->m, s.val, r, c, s.nnz, base, x, y, tc_threads[q] ),
				    HYB_OK );
				CU_ASSERT( tc_maxdiff( y, yr, a->m ) <= bound );
				for ( int64_t i = 0; i < a->m; i++ ) y[i] = NAN;
				CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( tr, a->m, a->val, ia[base], ja[base], base, x,
				                                     y, tc_threads[q] ),
				                 HYB_OK );
				CU_ASSERT( tc_maxdiff( y, yr, a->m ) <= bound );
			}
			free( r );
			free( c );
		}
	}
	if ( shuffle )
	{
		free( s.row );
		free( s.col );
		free( s.val );
	}
	for ( int b = 0; b < 2; b++ )
	{
		free( ia[b] );
		free( ja[b] );
	}
	free( x );
	free( y );
	free( yr );
}

/* ------------------------------------------------------------------ tests */

static void test_sorted_small( void )
{
	tc_seed( 1 );
	for ( int64_t m = 1; m <= 40; m += 3 )
	{
		tc_coo_t a = tc_random( m, 3, 0, 0.6 );
		tc_check_all( &a, 0 );
		tc_free( &a );
	}
}

static void test_sorted_banded_large( void )
{
	tc_seed( 2 );
	tc_coo_t a = tc_random( 30000, 9, 50, 0.55 );
	tc_check_all( &a, 0 );
	tc_free( &a );
}

static void test_unsorted( void )
{
	tc_seed( 3 );
	/* banded: the per-thread windows of y overlap little */
	tc_coo_t a = tc_random( 20000, 6, 30, 0.55 );
	tc_check_all( &a, 1 );
	tc_free( &a );
	/* columns anywhere: windows cover all of y, so the entries are bucketed */
	tc_coo_t b = tc_random( 20000, 6, 0, 0.55 );
	tc_check_all( &b, 1 );
	tc_free( &b );
	/* tiny and unsorted */
	tc_coo_t c = tc_random( 7, 4, 0, 0.7 );
	tc_check_all( &c, 1 );
	tc_free( &c );
}

static void test_single_precision( void )
{
	tc_seed( 4 );
	tc_coo_t a = tc_random( 5000, 8, 0, 0.6 );
	int64_t  m = a.m, n = a.nnz;
	float*   v  = malloc( (size_t)n * sizeof( float ) );
	float*   x  = malloc( (size_t)m * sizeof( float ) );
	float*   y  = malloc( (size_t)m * sizeof( float ) );
	double*  xd = malloc( (size_t)m * sizeof( double ) );
	double*  yr = malloc( (size_t)m * sizeof( double ) );
	for ( int64_t k = 0; k < n; k++ ) v[k] = (float)a.val[k];
	for ( int64_t i = 0; i < m; i++ ) x[i] = (float)hyb_t_unit( &tc_rng );
	/* the reference sees exactly the float data */
	tc_coo_t ad = a;
	for ( int64_t k = 0; k < n; k++ ) ad.val[k] = (double)v[k];
	for ( int64_t i = 0; i < m; i++ ) xd[i] = (double)x[i];
	int *ia, *ja;
	tc_csr( &a, 1, &ia, &ja );
	for ( int tr = 0; tr <= 1; tr++ )
	{
		double bound = tc_reference( &ad, tr, xd, yr, 0x1.0p-24 );
		CU_ASSERT_EQUAL( hyb_scoomv_cpu_omp( tr ? 'T' : 'N', m, v, a.row, a.col, n, 0, x, y, 0 ),
		                 HYB_OK );
		CU_ASSERT( tc_maxdiff_s( y, yr, m ) <= bound );
		CU_ASSERT_EQUAL( hyb_scsrmv_cpu_omp( tr ? 'T' : 'N', m, v, ia, ja, 1, x, y, 3 ), HYB_OK );
		CU_ASSERT( tc_maxdiff_s( y, yr, m ) <= bound );
	}
	/* unsorted single precision: the bucketed scatter */
	tc_shuffle( &a );
	for ( int64_t k = 0; k < n; k++ ) v[k] = (float)a.val[k];
	double bound = tc_reference( &ad, 0, xd, yr, 0x1.0p-24 );
	CU_ASSERT_EQUAL( hyb_scoomv_cpu_omp( 'N', m, v, a.row, a.col, n, 0, x, y, 4 ), HYB_OK );
	CU_ASSERT( tc_maxdiff_s( y, yr, m ) <= bound );
	free( ia );
	free( ja );
	free( v );
	free( x );
	free( y );
	free( xd );
	free( yr );
	tc_free( &a );
}

/* An exact case: the seed's 4 x 4 example with a duplicate and an empty row added. */
static void test_exact_example( void )
{
	/* A = [3 0 0 0; 0 1 4 0; 6 0 2 8; 0 5 0 7], plus a 5th empty row/col, and A(1,2) split
	   as 1.5 + 2.5 (duplicate); entries in scrambled order, one-based. */
	int    r[] = { 3, 1, 4, 2, 3, 4, 2, 3, 2 };
	int    c[] = { 4, 1, 2, 3, 1, 4, 2, 3, 3 };
	double v[] = { 8, 3, 5, 1.5, 6, 7, 1, 2, 2.5 };
	double x[] = { 1, 2, 3, 4, 100 };
	double y[5], yt[5];
	for ( int i = 0; i < 5; i++ ) y[i] = yt[i] = NAN;
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 5, v, r, c, 9, 1, x, y, 2 ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( y[0], 3, 0 );
	CU_ASSERT_DOUBLE_EQUAL( y[1], 2 + 12, 0 );
	CU_ASSERT_DOUBLE_EQUAL( y[2], 6 + 6 + 32, 0 );
	CU_ASSERT_DOUBLE_EQUAL( y[3], 10 + 28, 0 );
	CU_ASSERT_DOUBLE_EQUAL( y[4], 0, 0 );
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 't', 5, v, r, c, 9, 1, x, yt, 1 ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( yt[0], 3 + 18, 0 );
	CU_ASSERT_DOUBLE_EQUAL( yt[1], 2 + 20, 0 );
	CU_ASSERT_DOUBLE_EQUAL( yt[2], 8 + 6, 0 );
	CU_ASSERT_DOUBLE_EQUAL( yt[3], 24 + 28, 0 );
	CU_ASSERT_DOUBLE_EQUAL( yt[4], 0, 0 );
}

static void test_edge_cases( void )
{
	double x[3] = { 1, 2, 3 }, y[3] = { 7, 7, 7 };
	int    r[2] = { 0, 2 }, c[2] = { 1, 1 };
	double v[2]  = { 1, 1 };
	int    ia[4] = { 0, 0, 0, 0 };
	/* m == 0: nothing read or written, even with NULL arrays */
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 0, NULL, NULL, NULL, 0, 0, NULL, NULL, 0 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'N', 0, NULL, NULL, NULL, 0, NULL, NULL, 0 ), HYB_OK );
	/* nnz == 0: y := 0 */
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 3, NULL, NULL, NULL, 0, 0, x, y, 0 ), HYB_OK );
	CU_ASSERT( y[0] == 0 && y[1] == 0 && y[2] == 0 );
	y[0] = y[1] = y[2] = 7;
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'T', 3, NULL, ia, NULL, 0, x, y, 0 ), HYB_OK );
	CU_ASSERT( y[0] == 0 && y[1] == 0 && y[2] == 0 );
	/* invalid scalars: y untouched */
	y[0] = y[1] = y[2] = 7;
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'X', 3, v, r, c, 2, 0, x, y, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', -1, v, r, c, 2, 0, x, y, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 3, v, r, c, -2, 0, x, y, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 3, v, r, c, 2, 2, x, y, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 3, NULL, r, c, 2, 0, x, y, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 3, v, r, c, 2, 0, NULL, y, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'N', 3, v, NULL, c, 0, x, y, 0 ), HYB_E_INVALID );
	CU_ASSERT( y[0] == 7 && y[1] == 7 && y[2] == 7 );
	/* CSR with ia[0] below the base, or ia[m] < ia[0] */
	int ia_bad[4] = { 0, 1, 2, 2 };
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'N', 3, v, ia_bad, c, 1, x, y, 0 ), HYB_E_INVALID );
	int ia_neg[4] = { 2, 1, 1, 1 };
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'N', 3, v, ia_neg, c, 0, x, y, 0 ), HYB_E_INVALID );
	/* a decreasing ia in the middle is caught row by row */
	int ia_dec[4] = { 0, 2, 1, 2 };
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'N', 3, v, ia_dec, c, 0, x, y, 2 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'T', 3, v, ia_dec, c, 0, x, y, 2 ), HYB_E_INVALID );
	/* row or column out of range: caught by the sorted-rows check or the scatter pass */
	int r_out[2] = { 0, 3 }, c_out[2] = { 0, 3 };
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 3, v, r_out, c, 2, 0, x, y, 2 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'T', 3, v, r, c_out, 2, 0, x, y, 2 ), HYB_E_INVALID );
	int r_neg[2] = { 1, 0 };
	CU_ASSERT_EQUAL( hyb_dcoomv_cpu_omp( 'N', 3, v, r_neg, c, 2, 1, x, y, 1 ), HYB_E_INVALID );
	/* the validation pass finds what the row-partitioned kernels trust */
	hyb_spmv_src_t s;
	CU_ASSERT_EQUAL( hyb_spmv_src_coo( 'N', 3, HYB_PREC_D, v, r, c_out, 2, 0, &s ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_spmv_src_validate( &s, 2, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_spmv_src_coo( 'N', 3, HYB_PREC_D, v, r, c, 2, 0, &s ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_spmv_src_validate( &s, 2, NULL ), HYB_OK );
	int ia_ok[4] = { 0, 1, 1, 2 };
	CU_ASSERT_EQUAL( hyb_spmv_src_csr( 'N', 3, HYB_PREC_D, v, ia_ok, c_out, 0, &s ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_spmv_src_validate( &s, 3, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_spmv_src_csr( 'N', 3, HYB_PREC_D, v, ia_dec, c, 0, &s ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_spmv_src_validate( &s, 3, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_spmv_trans_flag( 'C' ), 1 );
	CU_ASSERT_EQUAL( hyb_spmv_trans_flag( 'n' ), 0 );
	CU_ASSERT_EQUAL( hyb_spmv_trans_flag( 'H' ), -1 );
}

/* One very long row among short ones: the row-aligned partition must not split it. */
static void test_long_row( void )
{
	tc_seed( 5 );
	int64_t  m = 9000, dense = 4321;
	tc_coo_t b;
	b.m       = m;
	b.row     = malloc( (size_t)( 4 * m ) * sizeof( int ) );
	b.col     = malloc( (size_t)( 4 * m ) * sizeof( int ) );
	b.val     = malloc( (size_t)( 4 * m ) * sizeof( double ) );
	int64_t n = 0;
	for ( int64_t i = 0; i < m; i++ )
	{
		int64_t len = i == dense ? m : hyb_t_below( &tc_rng, 3 );
		for ( int64_t k = 0; k < len; k++ )
		{
			b.row[n] = (int)i;
			b.col[n] = (int)( i == dense ? k : hyb_t_below( &tc_rng, m ) );
			b.val[n] = hyb_t_unit( &tc_rng );
			n++;
		}
	}
	b.nnz = n;
	tc_check_all( &b, 0 );
	tc_free( &b );
}

/* ------------------------------------------------------------------ hybrid pieces */

/* Dense m x m (small) as a reference for the ELL/DIA/COO kernels. */
static void test_cooadd( void )
{
	tc_seed( 6 );
	tc_coo_t a  = tc_random( 3000, 3, 0, 0.6 ); /* rows sorted, 0-based */
	double*  x  = tc_vec( a.m );
	double*  y  = tc_vec( a.m );
	double*  y0 = malloc( (size_t)a.m * sizeof( double ) );
	double*  yr = malloc( (size_t)a.m * sizeof( double ) );
	memcpy( y0, y, (size_t)a.m * sizeof( double ) );
	double bound = tc_reference( &a, 0, x, yr, 0x1.0p-53 );
	for ( int64_t i = 0; i < a.m; i++ ) yr[i] += y0[i];
	CU_ASSERT_EQUAL( hyb_dcooaddmv_cpu_omp( a.m, a.nnz, a.row, a.col, a.val, x, y, 3 ), HYB_OK );
	CU_ASSERT( tc_maxdiff( y, yr, a.m ) <= bound + 4 * 0x1.0p-53 );
	/* rows absent from the remainder keep their value exactly */
	int* present = calloc( (size_t)a.m, sizeof( int ) );
	for ( int64_t k = 0; k < a.nnz; k++ ) present[a.row[k]] = 1;
	int same = 1;
	for ( int64_t i = 0; i < a.m; i++ )
		if ( !present[i] ) same &= y[i] == y0[i];
	CU_ASSERT( same );
	/* unsorted rows are refused */
	tc_shuffle( &a );
	CU_ASSERT_EQUAL( hyb_dcooaddmv_cpu_omp( a.m, a.nnz, a.row, a.col, a.val, x, y, 1 ),
	                 HYB_E_INVALID );
	free( present );
	free( x );
	free( y );
	free( y0 );
	free( yr );
	tc_free( &a );
}

/* ELL built by hand: row i holds entries (i*7+q) % m for q < len(i), len(i) = i % 5,
   width 5 (row lengths 0..4, so padding everywhere but rows with 4 and one column short). */
static void test_ell_dia( void )
{
	tc_seed( 7 );
	int64_t  m = 1000, K = 5;
	int*     idx  = malloc( (size_t)( m * K ) * sizeof( int ) );
	double*  dat  = malloc( (size_t)( m * K ) * sizeof( double ) );
	float*   dats = malloc( (size_t)( m * K ) * sizeof( float ) );
	tc_coo_t a;
	a.m   = m;
	a.nnz = 0;
	a.row = malloc( (size_t)( m * K ) * sizeof( int ) );
	a.col = malloc( (size_t)( m * K ) * sizeof( int ) );
	a.val = malloc( (size_t)( m * K ) * sizeof( double ) );
	for ( int64_t i = 0; i < m; i++ )
		for ( int64_t j = 0; j < K; j++ )
		{
			int64_t s = j * m + i;
			if ( j < i % 5 )
			{
				idx[s]       = (int)( ( i * 7 + j ) % m );
				dat[s]       = hyb_t_unit( &tc_rng );
				a.row[a.nnz] = (int)i;
				a.col[a.nnz] = idx[s];
				a.val[a.nnz] = dat[s];
				a.nnz++;
			}
			else
			{
				idx[s] = -1;
				dat[s] = 0.0;
			}
			dats[s] = (float)dat[s];
		}
	double* x     = tc_vec( m );
	double* y     = tc_nan_vec( m );
	double* yr    = malloc( (size_t)m * sizeof( double ) );
	double  bound = tc_reference( &a, 0, x, yr, 0x1.0p-53 );
	hyb_dellmv_cpu_omp( m, K, idx, dat, x, y, 0, 3 );
	CU_ASSERT( tc_maxdiff( y, yr, m ) <= bound );
	/* accumulate: y += E x again gives 2 E x */
	hyb_dellmv_cpu_omp( m, K, idx, dat, x, y, 1, 2 );
	for ( int64_t i = 0; i < m; i++ ) yr[i] *= 2;
	CU_ASSERT( tc_maxdiff( y, yr, m ) <= 2 * bound );
	/* Inf in x at a column no row references does not leak through the padding */
	int64_t unused = -1;
	{
		char* used = calloc( (size_t)m, 1 );
		for ( int64_t k = 0; k < a.nnz; k++ ) used[a.col[k]] = 1;
		for ( int64_t i = 0; i < m && unused < 0; i++ )
			if ( !used[i] ) unused = i;
		free( used );
	}
	if ( unused >= 0 )
	{
		x[unused] = INFINITY;
		hyb_dellmv_cpu_omp( m, K, idx, dat, x, y, 0, 2 );
		int finite = 1;
		for ( int64_t i = 0; i < m; i++ ) finite &= isfinite( y[i] );
		CU_ASSERT( finite );
		x[unused] = 0.5;
	}
	/* single precision */
	float* xs = malloc( (size_t)m * sizeof( float ) );
	float* ys = malloc( (size_t)m * sizeof( float ) );
	for ( int64_t i = 0; i < m; i++ ) xs[i] = (float)x[i];
	hyb_sellmv_cpu_omp( m, K, idx, dats, xs, ys, 0, 2 );
	double* xd = malloc( (size_t)m * sizeof( double ) );
	for ( int64_t i = 0; i < m; i++ ) xd[i] = (double)xs[i];
	for ( int64_t k = 0; k < a.nnz; k++ ) a.val[k] = (double)(float)a.val[k];
	bound = tc_reference( &a, 0, xd, yr, 0x1.0p-24 );
	CU_ASSERT( tc_maxdiff_s( ys, yr, m ) <= bound );

	/* DIA: tridiagonal plus a far diagonal, with holes (zero slots) */
	int     off[4] = { -1, 0, 1, 300 };
	double* dd     = malloc( (size_t)( 4 * m ) * sizeof( double ) );
	float*  ds     = malloc( (size_t)( 4 * m ) * sizeof( float ) );
	a.nnz          = 0;
	for ( int64_t d = 0; d < 4; d++ )
		for ( int64_t i = 0; i < m; i++ )
		{
			int64_t j      = i + off[d];
			int     filled = j >= 0 && j < m && hyb_t_below( &tc_rng, 4 ) != 0;
			double  v      = filled ? hyb_t_unit( &tc_rng ) : 0.0;
			dd[d * m + i]  = v;
			ds[d * m + i]  = (float)v;
			if ( v != 0.0 )
			{
				a.row[a.nnz] = (int)i;
				a.col[a.nnz] = (int)j;
				a.val[a.nnz] = v;
				a.nnz++;
			}
		}
	bound = tc_reference( &a, 0, x, yr, 0x1.0p-53 );
	for ( int64_t i = 0; i < m; i++ ) y[i] = NAN;
	hyb_ddiamv_cpu_omp( m, 4, off, dd, x, y, 0, 3 );
	CU_ASSERT( tc_maxdiff( y, yr, m ) <= bound );
	/* a zero slot is a structural zero: Inf in x behind it does not propagate */
	int64_t hole = -1;
	for ( int64_t i = 1; i < m - 1 && hole < 0; i++ )
		if ( dd[0 * m + i + 1] == 0.0 && dd[1 * m + i] == 0.0 && dd[2 * m + i - 1] == 0.0 &&
		     ( i < 300 || dd[3 * m + i - 300] == 0.0 ) )
			hole = i;
	if ( hole >= 0 )
	{
		x[hole] = INFINITY;
		hyb_ddiamv_cpu_omp( m, 4, off, dd, x, y, 0, 2 );
		int finite = 1;
		for ( int64_t i = 0; i < m; i++ ) finite &= isfinite( y[i] );
		CU_ASSERT( finite );
	}
	CU_ASSERT( hole >= 0 );
	free( idx );
	free( dat );
	free( dats );
	free( dd );
	free( ds );
	free( x );
	free( xs );
	free( xd );
	free( y );
	free( ys );
	free( yr );
	tc_free( &a );
}

static CU_TestInfo hyb_tests_spmv_cpu[] = {
	{ "exact_example", test_exact_example },
	{ "edge_cases_and_invalid", test_edge_cases },
	{ "sorted_small_all_layouts", test_sorted_small },
	{ "sorted_banded_large", test_sorted_banded_large },
	{ "unsorted_windows_and_buckets", test_unsorted },
	{ "single_precision", test_single_precision },
	{ "long_row", test_long_row },
	{ "coo_remainder_add", test_cooadd },
	{ "ell_and_dia", test_ell_dia },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_cpu = { "spmv_cpu", NULL, NULL, NULL, NULL, hyb_tests_spmv_cpu };
