/* SPDX-License-Identifier: BSD-3-Clause */
/* Formats of the hybrid SpMV: row grouping of every source layout, the distribution
   function, diagonal statistics, the seed's ELL/DIA + COO split (its sec. 4.2 example and
   random matrices rebuilt exactly), and the seed-like matrix generator. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_test_util.h"
#include "kernels/cpu/hyb_spmv_cpu.h"
#include "kernels/cpu/hyb_spmv_format.h"
#include "tools/hyb_spmv_gen.h"

/* The generator of the test matrices, seeded per test. */
static hyb_t_rng_t tf_rng;

static void tf_seed( uint64_t seed )
{
	tf_rng = hyb_t_rng( seed );
}

/* Random triplets in random order (rows, cols 0-based); value = its source position, so
   order and provenance can be checked exactly. Columns near the diagonal with some far. */
typedef struct
{
	int64_t m, nnz;
	int*    row;
	int*    col;
	double* val;
} tf_coo_t;

static tf_coo_t tf_random( int64_t m, int64_t nnz, int sorted )
{
	tf_coo_t a = { m, nnz, malloc( (size_t)nnz * sizeof( int ) ),
		           malloc( (size_t)nnz * sizeof( int ) ),
		           malloc( (size_t)nnz * sizeof( double ) ) };
	for ( int64_t k = 0; k < nnz; k++ )
	{
		a.row[k]  = (int)hyb_t_below( &tf_rng, m );
		int64_t j = hyb_t_below( &tf_rng, 4 ) ? a.row[k] + hyb_t_below( &tf_rng, 7 ) - 3
		                                      : hyb_t_below( &tf_rng, m );
		a.col[k]  = (int)( j < 0 ? 0 : j >= m ? m - 1 : j );
	}
	if ( sorted ) /* stable counting sort by row */
	{
		int64_t* cnt = calloc( (size_t)m + 1, sizeof( int64_t ) );
		int*     r   = malloc( (size_t)nnz * sizeof( int ) );
		int*     c   = malloc( (size_t)nnz * sizeof( int ) );
		for ( int64_t k = 0; k < nnz; k++ ) cnt[a.row[k] + 1]++;
		for ( int64_t i = 0; i < m; i++ ) cnt[i + 1] += cnt[i];
		for ( int64_t k = 0; k < nnz; k++ )
		{
			int64_t p = cnt[a.row[k]]++;
			r[p]      = a.row[k];
			c[p]      = a.col[k];
		}
		free( a.row );
		free( a.col );
		a.row = r;
		a.col = c;
		free( cnt );
	}
	for ( int64_t k = 0; k < nnz; k++ ) a.val[k] = (double)k;
	return a;
}

static void tf_free( tf_coo_t* a )
{
	free( a->row );
	free( a->col );
	free( a->val );
}

/* Expected grouping of P = op(A): per row, (col, val) in source order. Returns ptr. */
static int64_t* tf_expected( const tf_coo_t* a, int trans, int* col, double* val )
{
	int64_t* ptr = calloc( (size_t)a->m + 1, sizeof( int64_t ) );
	int64_t* pos = malloc( (size_t)( a->m + 1 ) * sizeof( int64_t ) );
	for ( int64_t k = 0; k < a->nnz; k++ ) ptr[( trans ? a->col[k] : a->row[k] ) + 1]++;
	for ( int64_t i = 0; i < a->m; i++ ) ptr[i + 1] += ptr[i];
	memcpy( pos, ptr, (size_t)( a->m + 1 ) * sizeof( int64_t ) );
	for ( int64_t k = 0; k < a->nnz; k++ )
	{
		int64_t r = trans ? a->col[k] : a->row[k], p = pos[r]++;
		col[p] = trans ? a->row[k] : a->col[k];
		val[p] = a->val[k];
	}
	free( pos );
	return ptr;
}

/* Does the view hold exactly the expected rows, in the expected order? */
static int tf_view_matches( const hyb_spmv_view_t* v, const int64_t* eptr, const int* ecol,
                            const double* eval )
{
	const double* vv = v->val;
	int64_t       mx = 0;
	for ( int64_t i = 0; i < v->m; i++ )
	{
		if ( v->ptr[i + 1] - v->ptr[i] != eptr[i + 1] - eptr[i] ) return 0;
		mx = eptr[i + 1] - eptr[i] > mx ? eptr[i + 1] - eptr[i] : mx;
		for ( int64_t q = 0; q < eptr[i + 1] - eptr[i]; q++ )
		{
			int64_t e = v->ptr[i] + q;
			if ( v->col[e] - v->cbase != ecol[eptr[i] + q] || vv[e] != eval[eptr[i] + q] ) return 0;
		}
	}
	return mx == v->max_len;
}

/* ------------------------------------------------------------------ grouping */

static void test_view_all_sources( void )
{
	tf_seed( 11 );
	for ( int sorted = 0; sorted <= 1; sorted++ )
		for ( int trans = 0; trans <= 1; trans++ )
			for ( int base = 0; base <= 1; base++ )
			{
				tf_coo_t a    = tf_random( 3000, 20000, sorted );
				int*     ecol = malloc( (size_t)a.nnz * sizeof( int ) );
				double*  eval = malloc( (size_t)a.nnz * sizeof( double ) );
				int64_t* eptr = tf_expected( &a, trans, ecol, eval );
				int*     r    = malloc( (size_t)a.nnz * sizeof( int ) );
				int*     c    = malloc( (size_t)a.nnz * sizeof( int ) );
				for ( int64_t k = 0; k < a.nnz; k++ )
				{
					r[k] = a.row[k] + base;
					c[k] = a.col[k] + base;
				}
				hyb_spmv_src_t  s;
				hyb_spmv_view_t v;
				CU_ASSERT_EQUAL( hyb_spmv_src_coo( trans ? 'T' : 'N', a.m, HYB_PREC_D, a.val, r, c,
				                                   a.nnz, base, &s ),
				                 HYB_OK );
				for ( int nth = 1; nth <= 4; nth += 3 )
				{
					CU_ASSERT_EQUAL_FATAL( hyb_spmv_view_build( &s, nth, &v ), HYB_OK );
					CU_ASSERT( tf_view_matches( &v, eptr, ecol, eval ) );
					hyb_spmv_view_free( &v );
				}
				if ( sorted ) /* the same matrix as CSR */
				{
					int* ia = calloc( (size_t)a.m + 1, sizeof( int ) );
					for ( int64_t k = 0; k < a.nnz; k++ ) ia[a.row[k] + 1]++;
					for ( int64_t i = 0; i < a.m; i++ ) ia[i + 1] += ia[i];
					for ( int64_t i = 0; i <= a.m; i++ ) ia[i] += base;
					CU_ASSERT_EQUAL( hyb_spmv_src_csr( trans ? 'C' : 'n', a.m, HYB_PREC_D, a.val,
					                                   ia, c, base, &s ),
					                 HYB_OK );
					CU_ASSERT_EQUAL_FATAL( hyb_spmv_view_build( &s, 3, &v ), HYB_OK );
					CU_ASSERT( tf_view_matches( &v, eptr, ecol, eval ) );
					hyb_spmv_view_free( &v );
					free( ia );
				}
				free( r );
				free( c );
				free( ecol );
				free( eval );
				free( eptr );
				tf_free( &a );
			}
}

static void test_bins( void )
{
	tf_seed( 12 );
	tf_coo_t        a = tf_random( 5000, 30000, 0 );
	hyb_spmv_src_t  s;
	hyb_spmv_bins_t b;
	CU_ASSERT_EQUAL( hyb_spmv_src_coo( 'N', a.m, HYB_PREC_D, a.val, a.row, a.col, a.nnz, 0, &s ),
	                 HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_bins_build( &s, 700, 3, &b ), HYB_OK );
	CU_ASSERT_EQUAL( b.nblocks, ( 5000 + 699 ) / 700 );
	CU_ASSERT_EQUAL( b.bptr[0], 0 );
	CU_ASSERT_EQUAL( b.bptr[b.nblocks], a.nnz );
	int ok = 1;
	for ( int64_t p = 0; p < b.nblocks; p++ )
		for ( int64_t e = b.bptr[p]; e < b.bptr[p + 1]; e++ )
		{
			const double* bv = b.val;
			int64_t       k  = (int64_t)bv[e]; /* source position */
			ok &= b.row[e] / 700 == p && b.row[e] == a.row[k] && b.col[e] == a.col[k];
			ok &= e == b.bptr[p] || bv[e] > bv[e - 1]; /* stable */
		}
	CU_ASSERT( ok );
	hyb_spmv_bins_free( &b );
	CU_ASSERT_EQUAL( hyb_spmv_bins_build( &s, 0, 1, &b ), HYB_E_INVALID );
	a.col[17] = 5000; /* out of range */
	CU_ASSERT_EQUAL( hyb_spmv_bins_build( &s, 64, 2, &b ), HYB_E_INVALID );
	hyb_spmv_view_t v;
	CU_ASSERT_EQUAL( hyb_spmv_view_build( &s, 2, &v ), HYB_E_INVALID );
	tf_free( &a );
}

/* ------------------------------------------------------------------ the seed's example */

/* A = [3 0 0 0; 0 1 4 0; 6 0 2 8; 0 5 0 7] (sec. 4.2), 0-based CSR. */
static int    tf_ia[5] = { 0, 1, 3, 6, 8 };
static int    tf_ja[8] = { 0, 1, 2, 0, 2, 3, 1, 3 };
static double tf_a[8]  = { 3, 1, 4, 6, 2, 8, 5, 7 };

static void test_seed_example( void )
{
	hyb_spmv_src_t  s;
	hyb_spmv_view_t v;
	CU_ASSERT_EQUAL( hyb_spmv_src_csr( 'N', 4, HYB_PREC_D, tf_a, tf_ia, tf_ja, 0, &s ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_view_build( &s, 2, &v ), HYB_OK );
	CU_ASSERT_EQUAL( v.max_len, 3 );
	int64_t* df = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_df_build( &v, 2, &df ), HYB_OK );
	CU_ASSERT( df[0] == 0 && df[1] == 1 && df[2] == 2 && df[3] == 1 );
	free( df );

	/* ELL, K = 2: data (3 0; 1 4; 6 2; 5 7), index (0 *; 1 2; 0 2; 1 3), COO (2, 3, 8) */
	hyb_spmv_split_t sp;
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_split_ell( &v, 2, NULL, 2, &sp ), HYB_OK );
	const double* d          = sp.data;
	int           want_ix[8] = {
		          0, 1, 0, 1, -1, 2, 2, 3
	}; /* column-major: slot 0 of rows 0..3, then slot 1 */
	double want_d[8] = { 3, 1, 6, 5, 0, 4, 2, 7 };
	for ( int q = 0; q < 8; q++ )
	{
		CU_ASSERT_EQUAL( sp.index[q], want_ix[q] );
		CU_ASSERT_DOUBLE_EQUAL( d[q], want_d[q], 0 );
	}
	CU_ASSERT_EQUAL( sp.dev_nnz, 7 );
	CU_ASSERT_EQUAL_FATAL( sp.coo_nnz, 1 );
	CU_ASSERT( sp.coo_row[0] == 2 && sp.coo_col[0] == 3 && ( (double*)sp.coo_val )[0] == 8 );
	hyb_spmv_split_free( &sp, NULL );

	/* DIA with the diagonals (0, +1): data (3 0; 1 4; 2 8; 7 0), COO (2,0,6), (3,1,5) */
	int offs[2] = { 1, 0 }; /* any order */
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_split_dia( &v, 2, offs, NULL, 3, &sp ), HYB_OK );
	CU_ASSERT( sp.offset[0] == 0 && sp.offset[1] == 1 );
	double want_dia[8] = { 3, 1, 2, 7, 0, 4, 8, 0 };
	d                  = sp.data;
	for ( int q = 0; q < 8; q++ ) CU_ASSERT_DOUBLE_EQUAL( d[q], want_dia[q], 0 );
	CU_ASSERT_EQUAL( sp.dev_nnz, 6 );
	CU_ASSERT_EQUAL_FATAL( sp.coo_nnz, 2 );
	CU_ASSERT( sp.coo_row[0] == 2 && sp.coo_col[0] == 0 && ( (double*)sp.coo_val )[0] == 6 );
	CU_ASSERT( sp.coo_row[1] == 3 && sp.coo_col[1] == 1 && ( (double*)sp.coo_val )[1] == 5 );
	hyb_spmv_split_free( &sp, NULL );

	/* invalid splits */
	int dup[2] = { 0, 0 }, far[1] = { 4 };
	CU_ASSERT_EQUAL( hyb_spmv_split_ell( &v, -1, NULL, 1, &sp ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_spmv_split_dia( &v, 2, dup, NULL, 1, &sp ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_spmv_split_dia( &v, 1, far, NULL, 1, &sp ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_spmv_split_dia( &v, HYB_SPMV_DIA_MAX + 1, offs, NULL, 1, &sp ),
	                 HYB_E_INVALID );
	hyb_spmv_view_free( &v );
}

/* ------------------------------------------------------------------ random splits */

static int64_t tf_alloc_live, tf_alloc_calls;

static void* tf_alloc( void* ctx, size_t bytes )
{
	(void)ctx;
	tf_alloc_live += (int64_t)bytes;
	tf_alloc_calls++;
	return malloc( bytes );
}

static void tf_release( void* ctx, void* p, size_t bytes )
{
	(void)ctx;
	tf_alloc_live -= (int64_t)bytes;
	free( p );
}

static void test_split_ell_random( void )
{
	tf_seed( 13 );
	tf_coo_t         a = tf_random( 2000, 16000, 0 );
	hyb_spmv_src_t   s;
	hyb_spmv_view_t  v;
	hyb_spmv_alloc_t al = { tf_alloc, tf_release, NULL };
	CU_ASSERT_EQUAL( hyb_spmv_src_coo( 'T', a.m, HYB_PREC_D, a.val, a.row, a.col, a.nnz, 0, &s ),
	                 HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_view_build( &s, 3, &v ), HYB_OK );
	const double* vv   = v.val;
	int64_t       Ks[] = { 0, 1, 3, 8, v.max_len, v.max_len + 2 };
	for ( size_t t = 0; t < sizeof Ks / sizeof Ks[0]; t++ )
	{
		int64_t          K = Ks[t];
		hyb_spmv_split_t sp;
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_split_ell( &v, K, &al, 2, &sp ), HYB_OK );
		CU_ASSERT( tf_alloc_calls >= 5 );
		const double* d  = sp.data;
		const double* cv = sp.coo_val;
		int           ok = 1;
		int64_t       q = 0, dev = 0;
		for ( int64_t i = 0; i < v.m; i++ )
		{
			int64_t len = v.ptr[i + 1] - v.ptr[i];
			for ( int64_t j = 0; j < K; j++ )
			{
				int64_t slot = j * v.m + i;
				if ( j < len )
				{
					ok &= sp.index[slot] == v.col[v.ptr[i] + j] - v.cbase &&
					      d[slot] == vv[v.ptr[i] + j];
					dev++;
				}
				else
					ok &= sp.index[slot] == -1 && d[slot] == 0.0;
			}
			for ( int64_t j = K; j < len; j++, q++ ) /* the rest of the row, in order */
				ok &= sp.coo_row[q] == i && sp.coo_col[q] == v.col[v.ptr[i] + j] - v.cbase &&
				      cv[q] == vv[v.ptr[i] + j];
		}
		CU_ASSERT( ok );
		CU_ASSERT_EQUAL( q, sp.coo_nnz );
		CU_ASSERT_EQUAL( dev, sp.dev_nnz ); /* eq. 4 */
		CU_ASSERT_EQUAL( sp.dev_nnz + sp.coo_nnz, a.nnz );
		if ( K >= v.max_len ) CU_ASSERT_EQUAL( sp.coo_nnz, 0 );
		hyb_spmv_split_free( &sp, &al );
		CU_ASSERT_EQUAL( tf_alloc_live, 0 );
	}
	hyb_spmv_view_free( &v );
	tf_free( &a );
}

static void test_split_dia_random( void )
{
	tf_seed( 14 );
	int64_t  m = 300;
	tf_coo_t a = tf_random( m, 3000, 0 );
	for ( int64_t k = 0; k < a.nnz; k++ )
		a.val[k] = (double)( hyb_t_below( &tf_rng, 2000 ) - 1000 ) / 64.0; /* exact sums */
	hyb_spmv_src_t   s;
	hyb_spmv_view_t  v;
	hyb_spmv_diags_t dg;
	CU_ASSERT_EQUAL( hyb_spmv_src_coo( 'N', m, HYB_PREC_D, a.val, a.row, a.col, a.nnz, 0, &s ),
	                 HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_view_build( &s, 2, &v ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_diags_build( &v, 0, 0, 2, &dg ), HYB_OK );
	/* statistics: occupancies non-increasing, summing to nnz */
	int64_t tot = dg.rest_nnz;
	for ( int64_t d = 0; d < dg.ndiag; d++ )
	{
		tot += dg.occ[d];
		if ( d > 0 ) CU_ASSERT( dg.occ[d] <= dg.occ[d - 1] );
	}
	CU_ASSERT_EQUAL( tot, a.nnz );
	/* three quarters of the entries lie within +-3 of the diagonal: the top one is there */
	CU_ASSERT( dg.ndiag > 7 && dg.offset[0] >= -3 && dg.offset[0] <= 3 );
	double* dense = calloc( (size_t)( m * m ), sizeof( double ) );
	double* back  = calloc( (size_t)( m * m ), sizeof( double ) );
	for ( int64_t k = 0; k < a.nnz; k++ ) dense[a.row[k] * m + a.col[k]] += a.val[k];
	int64_t nds[] = { 0, 1, 5, dg.ndiag < 40 ? dg.ndiag : 40 };
	for ( size_t t = 0; t < sizeof nds / sizeof nds[0]; t++ )
	{
		hyb_spmv_split_t sp;
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_split_dia( &v, nds[t], dg.offset, NULL, 3, &sp ), HYB_OK );
		memset( back, 0, (size_t)( m * m ) * sizeof( double ) );
		const double* d  = sp.data;
		const double* cv = sp.coo_val;
		int           ok = 1;
		for ( int64_t q = 0; q < sp.width; q++ )
			for ( int64_t i = 0; i < m; i++ )
			{
				int64_t j = i + sp.offset[q];
				if ( j >= 0 && j < m )
					back[i * m + j] += d[q * m + i];
				else
					ok &= d[q * m + i] == 0.0;
			}
		for ( int64_t k = 0; k < sp.coo_nnz; k++ )
		{
			back[(int64_t)sp.coo_row[k] * m + sp.coo_col[k]] += cv[k];
			ok &= k == 0 || sp.coo_row[k] >= sp.coo_row[k - 1];
			for ( int64_t q = 0; q < sp.width; q++ )
				ok &= sp.coo_col[k] - sp.coo_row[k] != sp.offset[q];
		}
		for ( int64_t e = 0; e < m * m; e++ ) ok &= back[e] == dense[e];
		CU_ASSERT( ok );
		hyb_spmv_split_free( &sp, NULL );
	}
	free( dense );
	free( back );
	hyb_spmv_diags_free( &dg );
	hyb_spmv_view_free( &v );
	tf_free( &a );
}

/* A generated matrix as zero-based double CSR (the generator's own test is below). */
typedef struct
{
	int64_t n, nnz, max_len;
	int*    ia;
	int*    ja;
	double* va;
} tf_gen_t;

static tf_gen_t tf_gen( hyb_gen_id_t id, double scale, uint64_t seed, int nthreads )
{
	tf_gen_t g;
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_gen_size( id, scale, &g.n, &g.nnz, &g.max_len ), HYB_OK );
	g.ia = malloc( (size_t)( g.n + 1 ) * sizeof( int ) );
	g.ja = malloc( (size_t)g.nnz * sizeof( int ) );
	g.va = malloc( (size_t)g.nnz * sizeof( double ) );
	CU_ASSERT_FATAL( g.ia && g.ja && g.va );
	CU_ASSERT_EQUAL_FATAL(
	    hyb_spmv_gen_csr( id, scale, seed, 0, HYB_PREC_D, g.ia, g.ja, g.va, nthreads ), HYB_OK );
	return g;
}

static void tf_gen_free( tf_gen_t* g )
{
	free( g->ia );
	free( g->ja );
	free( g->va );
}

/* The grouped view of g (2 threads). */
static void tf_gen_view( const tf_gen_t* g, hyb_spmv_view_t* v )
{
	hyb_spmv_src_t s;
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_src_csr( 'N', g->n, HYB_PREC_D, g->va, g->ia, g->ja, 0, &s ),
	                       HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_view_build( &s, 2, v ), HYB_OK );
}

/* The split computes the same product: ELL/DIA kernel + remainder kernel vs CSR kernel. */
static void test_split_product( void )
{
	tf_gen_t g = tf_gen( HYB_GEN_TWOTONE, 0.05, 3, 2 );
	int64_t  N = g.n, M = g.max_len;
	int *    ia = g.ia, *ja = g.ja;
	double*  va = g.va;
	double*  x  = malloc( (size_t)N * sizeof( double ) );
	double*  y  = malloc( (size_t)N * sizeof( double ) );
	double*  yr = malloc( (size_t)N * sizeof( double ) );
	double   ax = 0;
	for ( int64_t i = 0; i < N; i++ ) x[i] = sin( (double)i );
	for ( int64_t i = 0; i < N; i++ )
	{
		double s = 0;
		for ( int k = ia[i]; k < ia[i + 1]; k++ ) s += fabs( va[k] * x[ja[k]] );
		ax = s > ax ? s : ax;
	}
	double bound = 4.0 * (double)M * 0x1.0p-53 * ax;
	CU_ASSERT_EQUAL( hyb_dcsrmv_cpu_omp( 'N', N, va, ia, ja, 0, x, yr, 2 ), HYB_OK );
	hyb_spmv_view_t v;
	tf_gen_view( &g, &v );
	hyb_spmv_split_t sp;
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_split_ell( &v, 6, NULL, 2, &sp ), HYB_OK );
	CU_ASSERT( sp.coo_nnz > 0 );
	hyb_dellmv_cpu_omp( N, sp.width, sp.index, sp.data, x, y, 0, 2 );
	CU_ASSERT_EQUAL(
	    hyb_dcooaddmv_cpu_omp( N, sp.coo_nnz, sp.coo_row, sp.coo_col, sp.coo_val, x, y, 2 ),
	    HYB_OK );
	double e = 0;
	for ( int64_t i = 0; i < N; i++ ) e = fmax( e, fabs( y[i] - yr[i] ) );
	CU_ASSERT( e <= bound );
	hyb_spmv_split_free( &sp, NULL );
	hyb_spmv_diags_t dg;
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_diags_build( &v, 0, 0, 2, &dg ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL(
	    hyb_spmv_split_dia( &v, dg.ndiag < 9 ? dg.ndiag : 9, dg.offset, NULL, 2, &sp ), HYB_OK );
	hyb_ddiamv_cpu_omp( N, sp.width, sp.offset, sp.data, x, y, 0, 2 );
	CU_ASSERT_EQUAL(
	    hyb_dcooaddmv_cpu_omp( N, sp.coo_nnz, sp.coo_row, sp.coo_col, sp.coo_val, x, y, 2 ),
	    HYB_OK );
	e = 0;
	for ( int64_t i = 0; i < N; i++ ) e = fmax( e, fabs( y[i] - yr[i] ) );
	CU_ASSERT( e <= bound );
	hyb_spmv_split_free( &sp, NULL );
	hyb_spmv_diags_free( &dg );
	hyb_spmv_view_free( &v );
	tf_gen_free( &g );
	free( x );
	free( y );
	free( yr );
}

/* ------------------------------------------------------------------ generator */

static void test_generator_table1( void )
{
	/* sizes at scale 1 are exactly Table 1 */
	for ( int id = 0; id < HYB_GEN_COUNT; id++ )
	{
		const hyb_gen_info_t* in = hyb_spmv_gen_info( (hyb_gen_id_t)id );
		int64_t               N, Z, M;
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_gen_size( (hyb_gen_id_t)id, 1.0, &N, &Z, &M ), HYB_OK );
		CU_ASSERT( N == in->rows && Z == in->nnz && M == in->max_len );
		CU_ASSERT_EQUAL( hyb_spmv_gen_lookup( in->name ), id );
	}
	CU_ASSERT_EQUAL( hyb_spmv_gen_lookup( "nope" ), -1 );
	CU_ASSERT_PTR_NULL( hyb_spmv_gen_info( HYB_GEN_COUNT ) );
	CU_ASSERT_EQUAL( hyb_spmv_gen_size( HYB_GEN_BBMAT, 0.0, NULL, NULL, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_spmv_gen_size( HYB_GEN_BBMAT, 1.5, NULL, NULL, NULL ), HYB_E_INVALID );
}

/* Generate, then check rows, nnz, exact maximum, sorted distinct in-range columns. */
static void tf_gen_check( hyb_gen_id_t id, double scale )
{
	tf_gen_t g = tf_gen( id, scale, 5, 2 );
	int64_t  N = g.n, Z = g.nnz, M = g.max_len;
	int *    ia = g.ia, *ja = g.ja;
	double*  va = g.va;
	CU_ASSERT_EQUAL( ia[0], 0 );
	CU_ASSERT_EQUAL( ia[N], Z );
	int64_t mx = 0;
	int     ok = 1;
	for ( int64_t i = 0; i < N; i++ )
	{
		mx = ia[i + 1] - ia[i] > mx ? ia[i + 1] - ia[i] : mx;
		for ( int k = ia[i]; k < ia[i + 1]; k++ )
			ok &= ja[k] >= 0 && ja[k] < N && ( k == ia[i] || ja[k] > ja[k - 1] ) && va[k] >= -1 &&
			      va[k] < 1;
	}
	CU_ASSERT( ok );
	CU_ASSERT_EQUAL( mx, M );
	/* same matrix with other thread counts, as COO one-based, in single precision */
	int*    ia2 = malloc( (size_t)( N + 1 ) * sizeof( int ) );
	int*    ja2 = malloc( (size_t)Z * sizeof( int ) );
	int*    ri  = malloc( (size_t)Z * sizeof( int ) );
	float*  vs  = malloc( (size_t)Z * sizeof( float ) );
	double* v2  = malloc( (size_t)Z * sizeof( double ) );
	CU_ASSERT_EQUAL( hyb_spmv_gen_csr( id, scale, 5, 0, HYB_PREC_D, ia2, ja2, v2, 1 ), HYB_OK );
	CU_ASSERT( memcmp( ia, ia2, (size_t)( N + 1 ) * sizeof( int ) ) == 0 );
	CU_ASSERT( memcmp( ja, ja2, (size_t)Z * sizeof( int ) ) == 0 );
	CU_ASSERT( memcmp( va, v2, (size_t)Z * sizeof( double ) ) == 0 );
	CU_ASSERT_EQUAL( hyb_spmv_gen_coo( id, scale, 5, 1, HYB_PREC_S, ri, ja2, vs, 3 ), HYB_OK );
	ok = 1;
	for ( int64_t i = 0; i < N; i++ )
		for ( int k = ia[i]; k < ia[i + 1]; k++ )
			ok &= ri[k] == i + 1 && ja2[k] == ja[k] + 1 && vs[k] == (float)va[k];
	CU_ASSERT( ok );
	tf_gen_free( &g );
	free( ia2 );
	free( ja2 );
	free( ri );
	free( vs );
	free( v2 );
}

static void test_generator_matrices( void )
{
	/* every seed-like matrix at a small scale, and three small ones at full size */
	for ( int id = 0; id < HYB_GEN_SEED_COUNT; id++ ) tf_gen_check( (hyb_gen_id_t)id, 0.02 );
	tf_gen_check( HYB_GEN_RAEFSKY5, 1.0 );
	tf_gen_check( HYB_GEN_RAEFSKY3, 1.0 );
	tf_gen_check( HYB_GEN_SCIRCUIT, 1.0 );
	/* quasi-diagonal character: the first M diagonals of a "DIA" matrix hold nearly all */
	tf_gen_t         g = tf_gen( HYB_GEN_CHEBYSHEV4, 0.05, 5, 2 );
	hyb_spmv_view_t  v;
	hyb_spmv_diags_t dg;
	tf_gen_view( &g, &v );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_diags_build( &v, 0, 0, 2, &dg ), HYB_OK );
	int64_t top = 0;
	for ( int64_t d = 0; d < g.max_len && d < dg.ndiag; d++ ) top += dg.occ[d];
	CU_ASSERT( (double)top >= 0.95 * (double)g.nnz );
	hyb_spmv_diags_free( &dg );
	hyb_spmv_view_free( &v );
	tf_gen_free( &g );
}

/* The quasi-diagonal test sorts the seed-like matrices as the seed did (DIA or ELL). */
static void test_dia_detect( void )
{
	for ( int id = 0; id < HYB_GEN_COUNT; id++ )
	{
		double           scale = id == HYB_GEN_STENCIL27 ? 0.001 : 0.1;
		tf_gen_t         g     = tf_gen( (hyb_gen_id_t)id, scale, 9, 2 );
		hyb_spmv_view_t  v;
		hyb_spmv_diags_t dg;
		tf_gen_view( &g, &v );
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_diags_build( &v, 0, 0, 2, &dg ), HYB_OK );
		int64_t w = hyb_spmv_dia_detect( &dg, g.n, g.nnz, 0, 0 );
		CU_ASSERT_EQUAL( w > 0, hyb_spmv_gen_info( (hyb_gen_id_t)id )->seed_dia );
		if ( id == HYB_GEN_STENCIL27 ) CU_ASSERT_EQUAL( w, 27 );
		hyb_spmv_diags_free( &dg );
		hyb_spmv_view_free( &v );
		tf_gen_free( &g );
	}
}

static void test_generator_stencil( void )
{
	/* edge 6: scale (6/200)^3 */
	double   scale = 27e-6;
	tf_gen_t g     = tf_gen( HYB_GEN_STENCIL27, scale, 1, 2 );
	int64_t  N = g.n, Z = g.nnz;
	int *    ia = g.ia, *ja = g.ja;
	CU_ASSERT( N == 216 && Z == 16 * 16 * 16 && g.max_len == 27 );
	int ok = 1;
	for ( int64_t i = 0; i < N; i++ )
	{
		int64_t x = i % 6, y = ( i / 6 ) % 6, z = i / 36, k = ia[i];
		for ( int64_t dz = -1; dz <= 1; dz++ )
			for ( int64_t dy = -1; dy <= 1; dy++ )
				for ( int64_t dx = -1; dx <= 1; dx++ )
				{
					int64_t X = x + dx, Y = y + dy, Z3 = z + dz;
					if ( X < 0 || Y < 0 || Z3 < 0 || X > 5 || Y > 5 || Z3 > 5 ) continue;
					ok &= ja[k++] == ( Z3 * 6 + Y ) * 6 + X;
				}
		ok &= k == ia[i + 1];
	}
	CU_ASSERT( ok );
	/* its diagonals: 27 of them, occupancy (6-|dx|)(6-|dy|)(6-|dz|) */
	hyb_spmv_view_t  v;
	hyb_spmv_diags_t dg;
	tf_gen_view( &g, &v );
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_diags_build( &v, 0, 0, 2, &dg ), HYB_OK );
	CU_ASSERT_EQUAL( dg.ndiag, 27 );
	CU_ASSERT_EQUAL( dg.rest_nnz, 0 );
	CU_ASSERT( dg.offset[0] == 0 && dg.occ[0] == 216 );
	ok = 1;
	for ( int64_t d = 0; d < dg.ndiag; d++ )
	{
		int64_t o = dg.offset[d], dz = ( o + 43 ) / 36 - 1, r = o - dz * 36, dy = ( r + 7 ) / 6 - 1,
		        dx = r - dy * 6;
		ok &= dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 &&
		      dg.occ[d] == ( 6 - llabs( dx ) ) * ( 6 - llabs( dy ) ) * ( 6 - llabs( dz ) );
	}
	CU_ASSERT( ok );
	hyb_spmv_diags_free( &dg );
	/* a narrow span leaves the plane diagonals (|offset| >= 35) in the rest */
	CU_ASSERT_EQUAL_FATAL( hyb_spmv_diags_build( &v, 10, 5, 2, &dg ), HYB_OK );
	CU_ASSERT_EQUAL( dg.ndiag, 5 );
	int64_t kept = 0;
	for ( int64_t d = 0; d < dg.ndiag; d++ ) kept += dg.occ[d];
	CU_ASSERT_EQUAL( kept + dg.rest_nnz, Z );
	hyb_spmv_diags_free( &dg );
	hyb_spmv_view_free( &v );
	tf_gen_free( &g );
}

static CU_TestInfo hyb_tests_spmv_format[] = {
	{ "view_all_sources", test_view_all_sources },
	{ "bins", test_bins },
	{ "seed_example", test_seed_example },
	{ "split_ell_random", test_split_ell_random },
	{ "split_dia_random", test_split_dia_random },
	{ "split_product", test_split_product },
	{ "generator_table1", test_generator_table1 },
	{ "generator_matrices", test_generator_matrices },
	{ "generator_stencil", test_generator_stencil },
	{ "dia_detect", test_dia_detect },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_format = {
	"spmv_format", NULL, NULL, NULL, NULL, hyb_tests_spmv_format
};
