/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the SpMV dispatch suites (see test_spmv_util.h). */
#include "test_spmv_util.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "dispatch/hyb_dispatch.h"
#include "hyb_routines.h"
#include "hyb_test_util.h"
#include "kernels/hyb_device.h"

static void tsp_setv( hyb_prec_t p, void* v, int64_t i, double x )
{
	if ( p == HYB_PREC_D )
		( (double*)v )[i] = x;
	else
		( (float*)v )[i] = (float)x;
}

static double tsp_getv( hyb_prec_t p, const void* v, int64_t i )
{
	return p == HYB_PREC_D ? ( (const double*)v )[i] : (double)( (const float*)v )[i];
}

void tsp_sync_csr( tsp_mat_t* A )
{
	size_t   vb  = hyb_prec_size( A->prec );
	int64_t* cnt = calloc( (size_t)A->m + 1, sizeof( int64_t ) );
	for ( int64_t k = 0; k < A->nnz; k++ ) cnt[A->row[k] - A->base + 1]++;
	for ( int64_t i = 0; i < A->m; i++ ) cnt[i + 1] += cnt[i];
	for ( int64_t i = 0; i <= A->m; i++ ) A->ia[i] = (int)cnt[i] + A->base;
	for ( int64_t k = 0; k < A->nnz; k++ )
	{
		int64_t pos = cnt[A->row[k] - A->base]++;
		A->ja[pos]  = A->col[k];
		memcpy( (char*)A->a + (size_t)pos * vb, (char*)A->val + (size_t)k * vb, vb );
	}
	free( cnt );
}

tsp_mat_t tsp_make( tsp_kind_t kind, int64_t m, int64_t mean, int base, hyb_prec_t prec, int flags,
                    uint64_t seed )
{
	tsp_mat_t   A   = { .m = m, .base = base, .prec = prec };
	hyb_t_rng_t rng = hyb_t_rng( seed * 7919 + 13 );
	/* row lengths */
	int64_t* len = calloc( (size_t)m, sizeof( int64_t ) );
	int64_t  cap = 0;
	for ( int64_t i = 0; i < m; i++ )
	{
		if ( kind == TSP_RANDOM )
			len[i] = hyb_t_below( &rng, 2 * mean + 1 );
		else if ( kind == TSP_BANDED )
		{
			int scatter = ( flags & TSP_SCATTER ) && hyb_t_below( &rng, 4 ) == 0;
			len[i]      = 7 + ( scatter ? 1 + hyb_t_below( &rng, 3 ) : 0 );
		}
		else
		{
			double u = hyb_t_frac( &rng ) + 1e-9;
			len[i]   = (int64_t)( (double)mean * 0.5 / sqrt( u ) );
			if ( len[i] > m ) len[i] = m;
		}
		if ( ( flags & TSP_EMPTY ) && i >= m / 3 && i < m / 3 + m / 20 + 1 ) len[i] = 0;
		cap += len[i];
	}
	if ( kind == TSP_POWER )
		for ( int r = 0; r < 3 && r < m; r++ ) /* a few very long rows */
		{
			int64_t i = hyb_t_below( &rng, m );
			cap += m / 2 - len[i];
			len[i] = m / 2;
		}
	int64_t extra            = ( flags & TSP_DUP ) ? cap / 30 + 1 : 0;
	A.row                    = malloc( (size_t)( cap + extra + 1 ) * sizeof( int ) );
	A.col                    = malloc( (size_t)( cap + extra + 1 ) * sizeof( int ) );
	A.val                    = malloc( (size_t)( cap + extra + 1 ) * 8 );
	int64_t          n       = 0;
	static const int band[7] = { 0, -1, 1, -5, 5, -40, 40 };
	for ( int64_t i = 0; i < m; i++ )
		for ( int64_t k = 0; k < len[i]; k++ )
		{
			int64_t c;
			if ( kind == TSP_BANDED && k < 7 )
			{
				c = i + band[k];
				if ( c < 0 || c >= m || hyb_t_below( &rng, 10 ) == 0 ) continue; /* 90 % filled */
			}
			else
				c = hyb_t_below( &rng, m );
			A.row[n] = (int)i + base;
			A.col[n] = (int)c + base;
			tsp_setv( prec, A.val, n, hyb_t_unit( &rng ) );
			n++;
		}
	for ( int64_t e = 0; e < extra && n > 0; e++ ) /* duplicates: copies of random entries */
	{
		int64_t k = hyb_t_below( &rng, n );
		A.row[n]  = A.row[k];
		A.col[n]  = A.col[k];
		tsp_setv( prec, A.val, n, hyb_t_unit( &rng ) );
		n++;
	}
	A.nnz = n;
	if ( flags & TSP_UNSORTED )
		for ( int64_t k = n - 1; k > 0; k-- )
		{
			int64_t j = hyb_t_below( &rng, k + 1 );
			int     t = A.row[k];
			A.row[k]  = A.row[j];
			A.row[j]  = t;
			t         = A.col[k];
			A.col[k]  = A.col[j];
			A.col[j]  = t;
			double v  = tsp_getv( prec, A.val, k );
			tsp_setv( prec, A.val, k, tsp_getv( prec, A.val, j ) );
			tsp_setv( prec, A.val, j, v );
		}
	else
	{
		/* sorted by row (duplicates appended above go to their row, stable) */
		tsp_mat_t T = A;
		T.ia        = malloc( (size_t)( m + 1 ) * sizeof( int ) );
		T.ja        = malloc( (size_t)( n + 1 ) * sizeof( int ) );
		T.a         = malloc( (size_t)( n + 1 ) * 8 );
		tsp_sync_csr( &T );
		for ( int64_t i = 0; i < m; i++ )
			for ( int64_t k = T.ia[i] - base; k < T.ia[i + 1] - base; k++ )
				A.row[k] = (int)i + base;
		memcpy( A.col, T.ja, (size_t)n * sizeof( int ) );
		memcpy( A.val, T.a, (size_t)n * hyb_prec_size( prec ) );
		free( T.ia );
		free( T.ja );
		free( T.a );
	}
	A.ia = malloc( (size_t)( m + 1 ) * sizeof( int ) );
	A.ja = malloc( (size_t)( n + 1 ) * sizeof( int ) );
	A.a  = malloc( (size_t)( n + 1 ) * 8 );
	tsp_sync_csr( &A );
	free( len );
	return A;
}

void tsp_free( tsp_mat_t* A )
{
	free( A->row );
	free( A->col );
	free( A->val );
	free( A->ia );
	free( A->ja );
	free( A->a );
	memset( A, 0, sizeof *A );
}

void* tsp_vec( const tsp_mat_t* A, uint64_t seed )
{
	hyb_t_rng_t rng = hyb_t_rng( seed * 31 + 7 );
	void*       x   = malloc( (size_t)( A->m > 0 ? A->m : 1 ) * hyb_prec_size( A->prec ) );
	for ( int64_t i = 0; i < A->m; i++ ) tsp_setv( A->prec, x, i, hyb_t_unit( &rng ) );
	return x;
}

void* tsp_out( const tsp_mat_t* A )
{
	void* y = malloc( (size_t)( A->m > 0 ? A->m : 1 ) * hyb_prec_size( A->prec ) );
	for ( int64_t i = 0; i < A->m; i++ ) tsp_setv( A->prec, y, i, NAN );
	return y;
}

double tsp_err( const tsp_mat_t* A, char trans, const void* x, const void* y )
{
	int      tr  = trans != 'N';
	double*  ref = calloc( (size_t)A->m + 1, sizeof( double ) );
	double*  abs = calloc( (size_t)A->m + 1, sizeof( double ) );
	int64_t* cnt = calloc( (size_t)A->m + 1, sizeof( int64_t ) );
	for ( int64_t k = 0; k < A->nnz; k++ )
	{
		int64_t r = A->row[k] - A->base, c = A->col[k] - A->base;
		if ( tr )
		{
			int64_t t = r;
			r         = c;
			c         = t;
		}
		double v = tsp_getv( A->prec, A->val, k ), xv = tsp_getv( A->prec, x, c );
		ref[r] += v * xv;
		abs[r] += fabs( v * xv );
		cnt[r]++;
	}
	double  err = 0, amax = 0;
	int64_t L = 1;
	for ( int64_t i = 0; i < A->m; i++ )
	{
		double yv = tsp_getv( A->prec, y, i );
		if ( !isfinite( yv ) )
		{
			err = INFINITY;
			break;
		}
		err  = fmax( err, fabs( yv - ref[i] ) );
		amax = fmax( amax, abs[i] );
		L    = cnt[i] > L ? cnt[i] : L;
	}
	free( ref );
	free( abs );
	free( cnt );
	double eps = A->prec == HYB_PREC_D ? DBL_EPSILON : FLT_EPSILON;
	if ( isinf( err ) ) return INFINITY;
	return err / ( (double)L * eps * fmax( amax, 1e-300 ) );
}

const hyb_spmv_report_t* tsp_call( const tsp_mat_t* A, int csr, char trans, const void* x, void* y )
{
	int              d = A->prec == HYB_PREC_D;
	hyb_routine_id_t id =
	    csr ? ( A->base ? ( d ? HYB_R_mkl_dcsrgemv : HYB_R_mkl_scsrgemv )
	                    : ( d ? HYB_R_mkl_cspblas_dcsrgemv : HYB_R_mkl_cspblas_scsrgemv ) )
	        : ( A->base ? ( d ? HYB_R_mkl_dcoogemv : HYB_R_mkl_scoogemv )
	                    : ( d ? HYB_R_mkl_cspblas_dcoogemv : HYB_R_mkl_cspblas_scoogemv ) );
	hyb_call_t      call = { .id = id, .raw = NULL, .forward = NULL };
	hyb_spmv_args_t args = {
		.op     = csr ? HYB_OP_CSRMV : HYB_OP_COOMV,
		.prec   = A->prec,
		.transa = trans,
		.base   = A->base,
		.m      = A->m,
		.val    = csr ? A->a : A->val,
		.rowind = csr ? A->ia : A->row,
		.colind = csr ? A->ja : A->col,
		.nnz    = csr ? 0 : A->nnz,
		.x      = x,
		.y      = y,
	};
	hyb_dispatch_spmv( &call, &args );
	return hyb_spmv_last_report();
}

const hyb_spmv_report_t* tsp_call_check( const tsp_mat_t* A, int csr, char trans, uint64_t seed,
                                         int* bad )
{
	void *                   x = tsp_vec( A, seed ), *y = tsp_out( A );
	const hyb_spmv_report_t* r = tsp_call( A, csr, trans, x, y );
	double                   e = tsp_err( A, trans, x, y );
	if ( !( e <= TSP_TOL ) )
	{
		printf( "\n  seed %llu: err=%g path=%s why=%s", (unsigned long long)seed, e,
		        hyb_path_name( r->path ), r->why ? r->why : "" );
		( *bad )++;
	}
	free( x );
	free( y );
	return r;
}

int tsp_why( const hyb_spmv_report_t* r, const char* why )
{
	return r->why && strstr( r->why, why ) != NULL;
}

static hyb_config_t tsp_cfg;

int tsp_sim_begin( const char* extra )
{
	char err[256];
	hyb_spmv_device_reset_for_test();
	hyb_config_defaults( &tsp_cfg );
	if ( hyb_config_set( &tsp_cfg, "HYBLAS_DEVICE", "sim", HYB_SRC_TEST, err, sizeof err ) !=
	         HYB_OK ||
	     hyb_t_config_extra( &tsp_cfg, extra, "tsp_sim_begin" ) != HYB_OK )
		return -1;
	return hyb_t_sim_install( &tsp_cfg ) == HYB_OK ? 0 : -1;
}

void tsp_sim_end( void )
{
	hyb_spmv_device_reset_for_test();
	hyb_t_sim_end();
}

hyb_spmv_force_t tsp_force( void )
{
	hyb_spmv_force_t f = { 0 };
	f.active           = 1;
	f.resident         = -1;
	f.yreg             = -1;
	f.xreg             = -1;
	return f;
}
