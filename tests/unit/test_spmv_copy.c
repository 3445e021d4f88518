/* SPDX-License-Identifier: BSD-3-Clause */
/* The check of a device copy of CSR arrays (spmv.check) on the simulated device, against a
   reference of its own, and the copy itself: the arrays read in pieces into page-locked
   slots, uploaded and checked, then a product on it. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_test_util.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_spmv_copy.h"
#include "kernels/pipeline/hyb_spmv_pipe.h"
#include "kernels/spmv/hyb_spmv_kernels.h"
#include "test_spmv_util.h"

/* ------------------------------------------------------------ the check kernel */

/* spmv.check on the simulated device: `out` receives its 1 + 2 * nblk ints. */
static hyb_status_t tsc_check( const int* ptr, int64_t rows, const int* col, int64_t nnz,
                               int64_t cols, int first, int base, int64_t br, int* out )
{
	hyb_dev_t* d = NULL;
	if ( hyb_dev_acquire( 0, &d ) != HYB_OK ) return HYB_E_DEVICE;
	int64_t nout = hyb_spmv_check_out_len( rows, br );
	size_t  pb = (size_t)( rows + 1 ) * sizeof( int ), cb = (size_t)( nnz + 1 ) * sizeof( int );
	size_t  ob      = (size_t)nout * sizeof( int );
	char*   dm      = NULL;
	hyb_status_t st = hyb_dev_alloc( d, pb + cb + ob, (void**)&dm );
	if ( st == HYB_OK )
	{
		hyb_dev_h2d( d, 0, dm, pb, ptr, pb, pb, 1 );
		if ( nnz > 0 ) hyb_dev_h2d( d, 0, dm + pb, cb, col, cb, (size_t)nnz * sizeof( int ), 1 );
		const hyb_spmv_check_kargs_t a = { .prec       = HYB_PREC_D,
			                               .rows       = rows,
			                               .cols       = cols,
			                               .nnz        = nnz,
			                               .block_rows = br,
			                               .ptr        = (const int*)(void*)dm,
			                               .col        = (const int*)(void*)( dm + pb ),
			                               .first      = first,
			                               .base       = base,
			                               .out        = (int*)(void*)( dm + pb + cb ) };
		st                             = hyb_dev_spmv_check( d, 0, &a );
		if ( st == HYB_OK ) st = hyb_dev_d2h( d, 0, out, ob, a.out, ob, ob, 1 );
		if ( st == HYB_OK ) st = hyb_dev_stream_sync( d, 0 );
		hyb_dev_free( d, dm, pb + cb + ob );
	}
	hyb_dev_release( d );
	return st;
}

/* Valid CSR arrays (base, ia[0] = first) of random rows, some empty: the check passes and
   every block's window is the smallest and largest column of its rows, computed here. */
static void test_check_kernel_windows( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	for ( int base = 0; base < 2; base++ )
	{
		const int64_t m = 1000, br = 64, first = base + 7;
		hyb_t_rng_t   rng = hyb_t_rng( 5 + (uint64_t)base );
		int*          ia  = malloc( (size_t)( m + 1 ) * sizeof( int ) );
		int*          ja  = malloc( (size_t)( m * 6 ) * sizeof( int ) );
		int64_t       n   = 0;
		for ( int64_t i = 0; i < m; i++ )
		{
			ia[i]       = (int)( first + n );
			int64_t len = ( i / br ) % 5 == 3 ? 0 : hyb_t_below( &rng, 6 ); /* empty blocks */
			for ( int64_t k = 0; k < len; k++ ) ja[n++] = (int)hyb_t_below( &rng, m ) + base;
		}
		ia[m]       = (int)( first + n );
		int64_t nb  = ( m + br - 1 ) / br;
		int*    out = malloc( (size_t)( 1 + 2 * nb ) * sizeof( int ) );
		CU_ASSERT_EQUAL_FATAL( tsc_check( ia, m, ja, n, m, (int)first, base, br, out ), HYB_OK );
		CU_ASSERT_EQUAL( out[0], 0 );
		int wrong = 0;
		for ( int64_t b = 0; b < nb; b++ )
		{
			int64_t lo = m, hi = -1;
			for ( int64_t e = ia[b * br] - first; e < ia[b * br + br < m ? b * br + br : m] - first;
			      e++ )
			{
				lo = ja[e] - base < lo ? ja[e] - base : lo;
				hi = ja[e] - base > hi ? ja[e] - base : hi;
			}
			wrong += out[1 + 2 * b] != lo || out[2 + 2 * b] != hi;
		}
		CU_ASSERT_EQUAL( wrong, 0 );
		free( ia );
		free( ja );
		free( out );
	}
	hyb_t_sim_end();
}

/* Each thing the CPU path would reject makes the check fail; the same arrays pass before. */
static void test_check_kernel_rejects( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	const int64_t m = 6;
	/* 1-based: rows of 2, 0, 3, 1, 2, 1 entries */
	const int ia0[7] = { 1, 3, 3, 6, 7, 9, 10 };
	const int ja0[9] = { 1, 6, 2, 3, 4, 5, 1, 2, 6 };
	int       ia[7], ja[9], out[1 + 2 * 3];
	enum
	{
		CASES = 7
	};
	for ( int c = 0; c <= CASES; c++ )
	{
		memcpy( ia, ia0, sizeof ia );
		memcpy( ja, ja0, sizeof ja );
		int first = 1;
		switch ( c )
		{
		case 1:
			ja[4] = 7;
			break; /* a column past m */
		case 2:
			ja[0] = 0;
			break; /* a column below the base */
		case 3:
			ia[3] = 2;
			break; /* a pointer that decreases */
		case 4:
			ia[6] = 9;
			break; /* the last pointer is not first + nnz */
		case 5:
			ia[2] = 12;
			break; /* a pointer past nnz */
		case 6:
			first = 2;
			break; /* ia[0] moved */
		case 7:
			ia[1] = -5;
			break; /* a pointer before ia[0] */
		default:
			break; /* valid */
		}
		CU_ASSERT_EQUAL_FATAL( tsc_check( ia, m, ja, 9, m, first, 1, 2, out ), HYB_OK );
		if ( ( out[0] != 0 ) != ( c != 0 ) ) printf( "\n  case %d: out[0] = %d", c, out[0] );
		CU_ASSERT_EQUAL( out[0] != 0, c != 0 );
		if ( c == 0 )
		{
			/* blocks of two rows: {0..5}, {1..4}, {0..5} (0-based) */
			CU_ASSERT( out[1] == 0 && out[2] == 5 && out[3] == 1 && out[4] == 4 );
			CU_ASSERT( out[5] == 0 && out[6] == 5 );
		}
	}
	hyb_t_sim_end();
}

/* ------------------------------------------------------------ the copy pipeline */

static int tsc_read_ok( void* dst, const void* src, size_t bytes )
{
	memcpy( dst, src, bytes );
	return 1;
}

/* A reader whose pages vanish after the first few reads (an array the program unmapped). */
static int tsc_reads_left;
static int tsc_read_vanishing( void* dst, const void* src, size_t bytes )
{
	if ( tsc_reads_left-- <= 0 ) return 0;
	memcpy( dst, src, bytes );
	return 1;
}

/* The copy made straight from the CSR arrays on a context of its own, then one product on
   it through the product pipeline: y right for pieces smaller than a block, of a block's
   size and of whole arrays; a read that fails ends the copy with HYB_E_IO. */
static void test_copy_pipeline( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	static const size_t pieces[] = { 8, 4096, 40000, 0 };
	for ( int v = 0; v < 8; v++ )
	{
		hyb_prec_t prec = v & 1 ? HYB_PREC_S : HYB_PREC_D;
		int        base = ( v >> 1 ) & 1;
		tsp_mat_t  A    = tsp_make( TSP_RANDOM, 3000, 5, base, prec, TSP_EMPTY, 80 + (uint64_t)v );
		hyb_spmv_dmat_t dm;
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_dmat_plan_copy( A.m, A.nnz, prec, base, 256, &dm ),
		                       HYB_OK );
		hyb_dev_t* d    = NULL;
		void*      dmem = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, hyb_spmv_copy_dev_bytes( &dm ), &dmem ),
		                       HYB_OK );
		hyb_spmv_copy_in_t  in = { .dm    = &dm,
			                       .dmem  = dmem,
			                       .ia    = A.ia,
			                       .ja    = A.ja,
			                       .val   = A.a,
			                       .first = A.ia[0],
			                       .read  = tsc_read_ok,
			                       .piece = pieces[v >> 1] };
		hyb_spmv_copy_out_t out;
		CU_ASSERT_EQUAL( hyb_spmv_copy_run( d, &in, &out ), HYB_OK );
		CU_ASSERT( out.pieces >= 3 );
		/* the product runs on another context, as a resident one does (d keeps the memory) */
		void *              x = tsp_vec( &A, 1 ), *y = tsp_out( &A );
		hyb_spmv_pipe_in_t  pin = { .dm = &dm, .dmem = dmem, .x = x, .y = y, .copy_threads = 1 };
		hyb_spmv_pipe_out_t pout;
		CU_ASSERT_EQUAL( hyb_spmv_pipe_run( &pin, &pout ), HYB_OK );
		CU_ASSERT( tsp_err( &A, 'N', x, y ) <= TSP_TOL );
		CU_ASSERT_EQUAL( pout.nblk, 12 );
		/* the same copy with the arrays vanishing after two pieces */
		tsc_reads_left = 2;
		in.read        = tsc_read_vanishing;
		CU_ASSERT_EQUAL( hyb_spmv_copy_run( d, &in, &out ), HYB_E_IO );
		hyb_dev_release( d );
		free( x );
		free( y );
		hyb_spmv_dmat_free( &dm );
		tsp_free( &A );
	}
	tsp_sim_end();
}

static CU_TestInfo hyb_tests_spmv_copy[] = {
	{ "check_kernel_windows", test_check_kernel_windows },
	{ "check_kernel_rejects", test_check_kernel_rejects },
	{ "copy_pipeline", test_copy_pipeline },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_copy = { "spmv_copy", NULL, NULL, NULL, NULL, hyb_tests_spmv_copy };
