/* SPDX-License-Identifier: BSD-3-Clause */
/* Resident sparse matrices on the simulated device: a device copy is served only while the
   application's arrays are provably unchanged. Every kind of write between two calls (a
   store, memcpy, read(2), another thread, free and malloc again) is followed by a correct
   product, in HYBLAS_RESIDENCY=track and verify; a matrix rewritten before every call
   stops being cached; residency off never caches. */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/config/hyb_config.h"
#include "test_spmv_util.h"

/* One product; returns the cache outcome, counts a wrong result in *bad. */
static int tsr_call( const tsp_mat_t* A, int csr, uint64_t seed, int* bad )
{
	void *                   x = tsp_vec( A, seed ), *y = tsp_out( A );
	const hyb_spmv_report_t* r = tsp_call( A, csr, 'N', x, y );
	double                   e = tsp_err( A, 'N', x, y );
	if ( !( e <= TSP_TOL ) || r->path == HYB_PATH_CPU )
	{
		printf( "\n  seed %llu: err=%g path=%s cache=%d why=%s", (unsigned long long)seed, e,
		        hyb_path_name( r->path ), r->cache, r->why );
		( *bad )++;
	}
	int oc = r->cache;
	free( x );
	free( y );
	return oc;
}

/* After the arrays the product reads changed: bring the other layout (the reference reads
   the COO arrays) in step. */
static void tsr_sync( tsp_mat_t* A, int csr )
{
	if ( !csr )
	{
		tsp_sync_csr( A );
		return;
	}
	for ( int64_t i = 0; i < A->m; i++ )
		for ( int64_t k = A->ia[i] - A->base; k < A->ia[i + 1] - A->base; k++ )
		{
			A->row[k]              = (int)i + A->base;
			A->col[k]              = A->ja[k];
			( (double*)A->val )[k] = ( (double*)A->a )[k];
		}
}

/* The value array the product reads (COO val or CSR a). */
static double* tsr_vals( tsp_mat_t* A, int csr )
{
	return csr ? A->a : A->val;
}

typedef struct
{
	double* v;
	int64_t n;
} tsr_writer_t;

static void* tsr_writer( void* p )
{
	tsr_writer_t* w = p;
	for ( int64_t k = 0; k < w->n; k += 97 ) w->v[k] = -w->v[k] + 0.5;
	return NULL;
}

/* Each write kind between a call that hit and the next call. */
static void tsr_write_kinds( const char* mode )
{
	char extra[128];
	snprintf( extra, sizeof extra, "HYBLAS_MODE=gpu;HYBLAS_RESIDENCY=%s", mode );
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( extra ), 0 );
	hyb_spmv_force_t f = tsp_force();
	f.resident         = 1;
	hyb_spmv_device_force( &f );
	int bad = 0;
	for ( int csr = 0; csr < 2; csr++ )
	{
		/* arrays of 0.5 to 1 MiB: tracked by the kernel mechanism in track mode */
		tsp_mat_t A =
		    tsp_make( TSP_BANDED, 20000, 7, csr, HYB_PREC_D, TSP_SCATTER, 91 + (uint64_t)csr );
		uint64_t s = 1;
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_FILL );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ),
		                 HYB_RESIDENCY_HIT ); /* well used: no strike */
		double* v = tsr_vals( &A, csr );

		/* 1. a plain store to one value */
		v[A.nnz / 2] += 1.0;
		tsr_sync( &A, csr );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_FILL );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ),
		                 HYB_RESIDENCY_HIT ); /* well used: no strike */

		/* 2. memcpy into the column indices (other valid columns) */
		int* cols = csr ? A.ja : A.col;
		int  tmp[64];
		for ( int k = 0; k < 64; k++ ) tmp[k] = (int)( ( k * 131 ) % A.m ) + A.base;
		memcpy( cols + A.nnz / 3, tmp, sizeof tmp );
		tsr_sync( &A, csr );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_FILL );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ),
		                 HYB_RESIDENCY_HIT ); /* well used: no strike */

		/* 3. read(2) into the values: the kernel writes the pages */
		int pfd[2];
		CU_ASSERT_EQUAL_FATAL( pipe( pfd ), 0 );
		double fresh[512];
		for ( int k = 0; k < 512; k++ ) fresh[k] = 0.25 * (double)( k % 7 ) - 0.5;
		CU_ASSERT_EQUAL( write( pfd[1], fresh, sizeof fresh ), (ssize_t)sizeof fresh );
		CU_ASSERT_EQUAL( read( pfd[0], v + A.nnz / 4, sizeof fresh ), (ssize_t)sizeof fresh );
		close( pfd[0] );
		close( pfd[1] );
		tsr_sync( &A, csr );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_FILL );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ),
		                 HYB_RESIDENCY_HIT ); /* well used: no strike */

		/* 4. another thread writes */
		tsr_writer_t w = { v, A.nnz };
		pthread_t    th;
		pthread_create( &th, NULL, tsr_writer, &w );
		pthread_join( th, NULL );
		tsr_sync( &A, csr );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_FILL );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ),
		                 HYB_RESIDENCY_HIT ); /* well used: no strike */

		/* 5. free and malloc again (a large block: unmapped and mapped again, most likely
		   at the same address), new values */
		size_t  vbytes = (size_t)A.nnz * sizeof( double );
		double* old    = v;
		free( v );
		v = malloc( vbytes );
		for ( int64_t k = 0; k < A.nnz; k++ ) v[k] = 0.001 * (double)( k % 1000 ) - 0.3;
		if ( csr )
			A.a = v;
		else
			A.val = v;
		tsr_sync( &A, csr );
		printf( "%s", v == old ? " (same address)" : " (new address)" );
		int oc = tsr_call( &A, csr, s++, &bad );
		CU_ASSERT( oc == HYB_RESIDENCY_FILL );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ), HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( tsr_call( &A, csr, s++, &bad ),
		                 HYB_RESIDENCY_HIT ); /* well used: no strike */
		tsp_free( &A );
	}
	CU_ASSERT_EQUAL( bad, 0 );
	hyb_residency_stats_t st;
	hyb_spmv_cache_stats( &st );
	CU_ASSERT( st.invalidations >= 8 );
	printf( " [%s]",
	        hyb_residency_mech_name( hyb_residency_mech_for_mode( hyb_config()->residency ) ) );
	tsp_sim_end();
}

static void test_write_kinds_track( void )
{
	tsr_write_kinds( "track" );
}

static void test_write_kinds_verify( void )
{
	tsr_write_kinds( "verify" );
}

/* Rewritten before every call: after a few quick invalidations the key is banned and calls
   bypass the cache (transient runs), every result still right. */
static void test_keeps_changing( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu;HYBLAS_RESIDENCY=track" ), 0 );
	hyb_spmv_force_t f = tsp_force();
	f.resident         = 1;
	hyb_spmv_device_force( &f );
	tsp_mat_t A   = tsp_make( TSP_RANDOM, 20000, 6, 0, HYB_PREC_D, 0, 5 );
	int       bad = 0, bypass = 0;
	for ( int call = 0; call < 10; call++ )
	{
		( (double*)A.val )[call * 11] += 1.0;
		tsp_sync_csr( &A );
		int oc = tsr_call( &A, 0, (uint64_t)call, &bad );
		bypass += oc == HYB_RESIDENCY_BYPASS;
	}
	CU_ASSERT_EQUAL( bad, 0 );
	CU_ASSERT( bypass >= 5 );
	hyb_residency_stats_t st;
	hyb_spmv_cache_stats( &st );
	CU_ASSERT( st.bans >= 1 );
	tsp_free( &A );
	tsp_sim_end();
}

/* HYBLAS_RESIDENCY=off: never cached, every call converts and uploads, results right. */
static void test_residency_off( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu;HYBLAS_RESIDENCY=off" ), 0 );
	tsp_mat_t A   = tsp_make( TSP_POWER, 5000, 6, 1, HYB_PREC_S, 0, 6 );
	int       bad = 0;
	for ( int call = 0; call < 3; call++ )
		CU_ASSERT_EQUAL( tsr_call( &A, call & 1, (uint64_t)call, &bad ), -1 );
	CU_ASSERT_EQUAL( bad, 0 );
	hyb_residency_stats_t st;
	hyb_spmv_cache_stats( &st );
	CU_ASSERT_EQUAL( st.lookups, 0 );
	tsp_free( &A );
	tsp_sim_end();
}

static CU_TestInfo hyb_tests_spmv_resident[] = {
	{ "write_kinds_track", test_write_kinds_track },
	{ "write_kinds_verify", test_write_kinds_verify },
	{ "keeps_changing", test_keeps_changing },
	{ "residency_off", test_residency_off },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_resident = { "spmv_resident",        NULL, NULL, NULL, NULL,
	                                     hyb_tests_spmv_resident };
