/* SPDX-License-Identifier: BSD-3-Clause */
/* The lean background build of CSR input and of COO grouped by rows, on the simulated
   device (auto mode): the device kernels spmv.check and spmv.cooptr against references of
   their own; a copy of the caller's arrays read in pieces, uploaded and checked, made
   resident on one thread, its products right (single and double, 0- and 1-based, entries
   before ia[0], duplicates); arrays made invalid before the copy is checked, or changed
   while it is made, never give a wrong product; a COO not grouped by rows goes to the
   snapshot job after one refused copy; a device fault at any operation of the copy leaves
   the product right and a later build resident; without a check launcher the old build
   runs. The copy's DIA form on the device: spmv.diahist against counts made here,
   spmv.diascatter against the host's DIA build byte for byte; a stencil resident as DIA, an
   irregular matrix as CSR; a fault at any step of the conversion leaves a right CSR copy. */
#include <CUnit/CUnit.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/hyb_spmv_bg.h"
#include "hyb_test_util.h"
#include "kernels/hyb_device.h"
#include "kernels/pipeline/hyb_spmv_copy.h"
#include "kernels/pipeline/hyb_spmv_pipe.h"
#include "kernels/pipeline/hyb_spmv_todia.h"
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

/* spmv.cooptr on the simulated device: `ptr` receives rows + 1 ints, `out` 1 + 2 * nblk. */
static hyb_status_t tsc_cooptr( const int* row, const int* col, int64_t nnz, int64_t rows, int base,
                                int64_t br, int* ptr, int* out )
{
	hyb_dev_t* d = NULL;
	if ( hyb_dev_acquire( 0, &d ) != HYB_OK ) return HYB_E_DEVICE;
	size_t       ib = (size_t)nnz * sizeof( int ), pb = (size_t)( rows + 1 ) * sizeof( int );
	size_t       ob = (size_t)hyb_spmv_check_out_len( rows, br ) * sizeof( int );
	char*        dm = NULL;
	hyb_status_t st = hyb_dev_alloc( d, 2 * ib + pb + ob, (void**)&dm );
	if ( st == HYB_OK )
	{
		hyb_dev_h2d( d, 0, dm, ib, row, ib, ib, 1 );
		hyb_dev_h2d( d, 0, dm + ib, ib, col, ib, ib, 1 );
		const hyb_spmv_cooptr_kargs_t a = { .prec       = HYB_PREC_S,
			                                .rows       = rows,
			                                .nnz        = nnz,
			                                .block_rows = br,
			                                .row        = (const int*)(void*)dm,
			                                .col        = (const int*)(void*)( dm + ib ),
			                                .base       = base,
			                                .ptr        = (int*)(void*)( dm + 2 * ib ),
			                                .out        = (int*)(void*)( dm + 2 * ib + pb ) };
		st                              = hyb_dev_spmv_cooptr( d, 0, &a );
		if ( st == HYB_OK ) st = hyb_dev_d2h( d, 0, ptr, pb, a.ptr, pb, pb, 1 );
		if ( st == HYB_OK ) st = hyb_dev_d2h( d, 0, out, ob, a.out, ob, ob, 1 );
		if ( st == HYB_OK ) st = hyb_dev_stream_sync( d, 0 );
		hyb_dev_free( d, dm, 2 * ib + pb + ob );
	}
	hyb_dev_release( d );
	return st;
}

/* COO entries grouped by rows (duplicates, empty rows at the start, inside and at the end):
   the pointers count each row's entries and the windows are each block's columns, both
   computed here; a row or column outside the matrix and rows out of order are told apart. */
static void test_cooptr_kernel( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	const int64_t m = 500, br = 50;
	hyb_t_rng_t   rng = hyb_t_rng( 9 );
	int *         row = malloc( 3000 * sizeof( int ) ), *col = malloc( 3000 * sizeof( int ) );
	int64_t*      cnt = calloc( (size_t)m + 1, sizeof( int64_t ) );
	int64_t       n   = 0;
	for ( int64_t i = 3; i < m - 4; i++ )
		for ( int64_t k = ( i / 7 ) % 4 == 1 ? 0 : hyb_t_below( &rng, 6 ); k > 0; k-- )
		{
			row[n]   = (int)i + 1;
			col[n++] = (int)hyb_t_below( &rng, m ) + 1;
			cnt[i + 1]++;
		}
	for ( int64_t i = 0; i < m; i++ ) cnt[i + 1] += cnt[i];
	int ptr[501], out[1 + 2 * 10];
	CU_ASSERT_EQUAL_FATAL( tsc_cooptr( row, col, n, m, 1, br, ptr, out ), HYB_OK );
	CU_ASSERT_EQUAL( out[0], 0 );
	int wrong = 0;
	for ( int64_t i = 0; i <= m; i++ ) wrong += ptr[i] != cnt[i];
	for ( int64_t b = 0; b < m / br; b++ )
	{
		int64_t lo = m, hi = -1;
		for ( int64_t e = cnt[b * br]; e < cnt[b * br + br]; e++ )
		{
			lo = col[e] - 1 < lo ? col[e] - 1 : lo;
			hi = col[e] - 1 > hi ? col[e] - 1 : hi;
		}
		wrong += out[1 + 2 * b] != lo || out[2 + 2 * b] != hi;
	}
	CU_ASSERT_EQUAL( wrong, 0 );
	/* a row past m, a column below the base, two rows swapped */
	int64_t k = n / 2;
	row[k]    = (int)m + 1;
	CU_ASSERT_EQUAL( tsc_cooptr( row, col, n, m, 1, br, ptr, out ), HYB_OK );
	CU_ASSERT_EQUAL( out[0], HYB_SPMV_COOPTR_RANGE );
	row[k] = row[k - 1];
	col[k] = 0;
	CU_ASSERT_EQUAL( tsc_cooptr( row, col, n, m, 1, br, ptr, out ), HYB_OK );
	CU_ASSERT_EQUAL( out[0], HYB_SPMV_COOPTR_RANGE );
	col[k]  = 1;
	row[10] = row[n - 10];
	CU_ASSERT_EQUAL( tsc_cooptr( row, col, n, m, 1, br, ptr, out ), HYB_OK );
	CU_ASSERT_EQUAL( out[0], HYB_SPMV_COOPTR_ORDER );
	free( row );
	free( col );
	free( cnt );
	hyb_t_sim_end();
}

/* ------------------------------------------------------------ the copy pipeline */

static int tsc_read_ok( void* dst, const void* src, size_t bytes )
{
	memcpy( dst, src, bytes );
	return 1;
}

/* A reader whose pages vanish after the first few reads (an array the program unmapped). */
static _Atomic int tsc_reads_left;
static int         tsc_read_vanishing( void* dst, const void* src, size_t bytes )
{
	if ( tsc_reads_left-- <= 0 ) return 0;
	memcpy( dst, src, bytes );
	return 1;
}

/* The copy made straight from the CSR arrays (or the COO arrays grouped by rows, with
   duplicates) on a context of its own, then one product on it through the product
   pipeline: y right for pieces smaller than a block, of a block's size and of whole arrays,
   read by one to three threads; a read that fails ends the copy with HYB_E_IO. */
static void test_copy_pipeline( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=gpu" ), 0 );
	static const size_t pieces[] = { 8, 4096, 40000, 0 };
	for ( int v = 0; v < 16; v++ )
	{
		hyb_prec_t prec = v & 1 ? HYB_PREC_S : HYB_PREC_D;
		int        base = ( v >> 1 ) & 1, coo = v >= 8;
		tsp_mat_t  A = tsp_make( TSP_RANDOM, 3000, 5, base, prec, TSP_EMPTY | ( coo ? TSP_DUP : 0 ),
		                         80 + (uint64_t)v );
		hyb_spmv_dmat_t dm;
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_dmat_plan_copy( A.m, A.nnz, prec, base, 256, &dm ),
		                       HYB_OK );
		hyb_dev_t* d    = NULL;
		void*      dmem = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, hyb_spmv_copy_dev_bytes( &dm ), &dmem ),
		                       HYB_OK );
		hyb_spmv_copy_in_t  in = { .dm      = &dm,
			                       .dmem    = dmem,
			                       .ia      = coo ? NULL : A.ia,
			                       .row     = coo ? A.row : NULL,
			                       .ja      = coo ? A.col : A.ja,
			                       .val     = coo ? A.val : A.a,
			                       .first   = coo ? 0 : A.ia[0],
			                       .read    = tsc_read_ok,
			                       .piece   = pieces[( v >> 1 ) & 3],
			                       .readers = 1 + v % 3 };
		hyb_spmv_copy_out_t out;
		CU_ASSERT_EQUAL( hyb_spmv_copy_run( d, &in, &out ), HYB_OK );
		CU_ASSERT( out.pieces >= 3 );
		CU_ASSERT_EQUAL( out.readers, in.readers );
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

/* ------------------------------------------------------------ the lean build */

/* Auto mode on the simulated device, the device alone allowed (so the plan is a device one
   whatever the simulated rates say), pieces of `piece` bytes and blocks of `br` rows. */
static size_t tsc_x_chunk; /* bytes per x upload chunk of the products (0: automatic) */

static int tsc_begin( const char* extra, size_t piece, int64_t br )
{
	char cfg[256];
	snprintf( cfg, sizeof cfg, "HYBLAS_MODE=auto;HYBLAS_SPMV_MIN_NNZ=0%s%s", extra ? ";" : "",
	          extra ? extra : "" );
	if ( tsp_sim_begin( cfg ) != 0 ) return -1;
	hyb_spmv_force_t f = tsp_force();
	f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
	f.copy_piece       = piece;
	f.block_rows       = br;
	f.x_chunk          = tsc_x_chunk;
	hyb_spmv_device_force( &f );
	return 0;
}

/* The routines the end-to-end tests call: the csrgemv (1) or the coogemv family (0). */
static int tsc_csr = 1;

static void tsc_end( void )
{
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	tsp_sim_end();
	tsc_csr     = 1;
	tsc_x_chunk = 0;
}

/* One product ('N') checked against the reference. */
static const hyb_spmv_report_t* tsc_call( const tsp_mat_t* A, uint64_t seed, int* bad )
{
	return tsp_call_check( A, tsc_csr, 'N', seed, bad );
}

/* OpenMP's default team for the calling thread set to 8 (so that the builder's share of
   the cores shows on any machine); returns the one it replaces. */
static int tsc_team_of_8( void )
{
	int old = omp_get_max_threads();
	omp_set_num_threads( 8 );
	return old;
}

#define TSC_LEAN "the arrays as they are"

/* Two calls with the gate closed: the second queues the lean build, held at the gate. */
static void tsc_queue( const tsp_mat_t* A, int* bad )
{
	hyb_spmv_bg_gate( 1 );
	tsc_call( A, 1, bad ); /* first sighting: not cached */
	const hyb_spmv_report_t* r = tsc_call( A, 2, bad );
	CU_ASSERT( tsp_why( r, TSC_LEAN ) );
	CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
}

/* Calls until one finds the copy resident (at most `calls`, a build waited for after each);
   returns 1 when one did, on the device alone. */
static int tsc_until_hit( const tsp_mat_t* A, uint64_t seed, int calls, int* bad )
{
	for ( int k = 0; k < calls; k++ )
	{
		const hyb_spmv_report_t* r = tsc_call( A, seed + (uint64_t)k, bad );
		if ( r->cache == HYB_RESIDENCY_HIT ) return r->path == HYB_PATH_GPU;
		hyb_spmv_bg_wait();
	}
	return 0;
}

/* ia, ja and a moved `pad` entries into larger arrays (ia[0] = base + pad): MKL's positions
   ia[i] - base, with entries before the first row's. The COO arrays stay the reference. */
static void tsc_offset( tsp_mat_t* A, int64_t pad )
{
	size_t vb = hyb_prec_size( A->prec );
	int*   ja = calloc( (size_t)( A->nnz + pad + 1 ), sizeof( int ) );
	char*  a  = calloc( (size_t)( A->nnz + pad + 1 ), vb );
	memcpy( ja + pad, A->ja, (size_t)A->nnz * sizeof( int ) );
	memcpy( a + (size_t)pad * vb, A->a, (size_t)A->nnz * vb );
	for ( int64_t i = 0; i <= A->m; i++ ) A->ia[i] += (int)pad;
	free( A->ja );
	free( A->a );
	A->ja = ja;
	A->a  = a;
}

/* The second sighting queues the lean build and returns on the CPU; the CPU products
   meanwhile leave the build its readers' cores of a team of 8 (two read); the copy, read in many
   pieces into the two slots, becomes resident and serves the calls, in each precision and base: CSR
   with and without entries before ia[0], COO grouped by rows with duplicates, both with blocks of
   rows without entries. */
static void test_lean_build_serves( void )
{
	int team = tsc_team_of_8();
	for ( int v = 0; v < 12; v++ )
	{
		hyb_prec_t prec = v & 1 ? HYB_PREC_S : HYB_PREC_D;
		int        base = ( v >> 1 ) & 1, pad = v >> 2 == 1;
		CU_ASSERT_EQUAL_FATAL( tsc_begin( NULL, 64 << 10, 500 ), 0 );
		tsc_csr     = v < 8;
		tsp_mat_t A = tsp_make( TSP_RANDOM, 20000, 9, base, prec,
		                        TSP_EMPTY | ( tsc_csr ? 0 : TSP_DUP ), 31 + (uint64_t)v );
		if ( pad ) tsc_offset( &A, 1000 );
		hyb_spmv_copy_stats_t c0, c1;
		hyb_spmv_copy_stats( &c0 );
		int bad = 0;
		tsc_queue( &A, &bad );
		CU_ASSERT_EQUAL( hyb_spmv_bg_cpu_threads(), 8 - HYB_SPMV_COPY_READERS );
		const hyb_spmv_report_t* r = tsc_call( &A, 3, &bad );
		CU_ASSERT( tsp_why( r, "being built in the background" ) );
		hyb_spmv_bg_gate( 0 );
		hyb_spmv_bg_wait();
		hyb_spmv_copy_stats( &c1 );
		CU_ASSERT_EQUAL( c1.started, c0.started + 1 );
		CU_ASSERT_EQUAL( c1.kept, c0.kept + 1 );
		CU_ASSERT_EQUAL( hyb_spmv_bg_cpu_threads(), 0 );
		for ( uint64_t k = 4; k < 7; k++ )
		{
			r = tsc_call( &A, k, &bad );
			CU_ASSERT_EQUAL( r->cache, HYB_RESIDENCY_HIT );
			CU_ASSERT_EQUAL( r->path, HYB_PATH_GPU );
			CU_ASSERT_EQUAL( r->fmt, HYB_SPMV_DEV_CSR );
			CU_ASSERT( r->pipe.nblk == 40 );
		}
		if ( bad ) printf( "\n  variant %d: %d wrong products", v, bad );
		CU_ASSERT_EQUAL( bad, 0 );
		tsp_free( &A );
		tsc_end();
	}
	omp_set_num_threads( team );
}

/* Arrays made invalid after the call that accepted them and before the copy is checked:
   the check rejects the copy, which is never used; the arrays made valid again give their
   product and are built again. */
static void test_check_rejects_changed_arrays( void )
{
	for ( int c = 0; c < 8; c++ )
	{
		CU_ASSERT_EQUAL_FATAL( tsc_begin( NULL, 32 << 10, 3000 ), 0 );
		tsc_csr       = c < 5;
		tsp_mat_t A   = tsp_make( TSP_RANDOM, 20000, 9, c & 1, HYB_PREC_D, 0, 41 + (uint64_t)c );
		int       bad = 0;
		tsc_queue( &A, &bad );
		int64_t k = A.nnz / 2, i = A.m / 2;
		int     old_ja = A.ja[k], old_ia = A.ia[i], old_end = A.ia[A.m];
		int     old_row = A.row[k], old_col = A.col[k];
		switch ( c )
		{
		case 0:
			A.ja[k] = (int)A.m + A.base;
			break; /* a column past m */
		case 1:
			A.ja[k] = A.base - 1;
			break; /* below the base */
		case 2:
			A.ia[i] = A.ia[i + 1] + 1;
			break; /* a pointer that decreases */
		case 3:
			A.ia[A.m] = A.ia[A.m] - 1;
			break; /* the last one moved */
		case 4:
			A.ia[i] = A.ia[0] - 3;
			break; /* before the first */
		case 5:
			A.row[k] = (int)A.m + A.base;
			break; /* COO: a row past m */
		case 6:
			A.col[k] = A.base - 1;
			break; /* COO: a column below the base */
		default:
			A.row[k] = A.row[0];
			break; /* COO: rows out of order */
		}
		hyb_spmv_copy_stats_t c0, c1;
		hyb_spmv_copy_stats( &c0 );
		hyb_spmv_bg_gate( 0 );
		hyb_spmv_bg_wait();
		hyb_spmv_copy_stats( &c1 );
		CU_ASSERT_EQUAL( c1.rejected, c0.rejected + 1 );
		CU_ASSERT_EQUAL( c1.kept, c0.kept );
		A.ja[k]   = old_ja;
		A.ia[i]   = old_ia;
		A.ia[A.m] = old_end;
		A.row[k]  = old_row;
		A.col[k]  = old_col;
		/* made valid again: the CPU computes it, and a later build makes it resident (a COO
		   once found out of order by the copy: with the snapshot job) */
		const hyb_spmv_report_t* r = tsc_call( &A, 3, &bad );
		CU_ASSERT_NOT_EQUAL( r->cache, HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
		CU_ASSERT_EQUAL( tsp_why( r, TSC_LEAN ), c != 7 );
		hyb_spmv_bg_wait();
		CU_ASSERT( tsc_until_hit( &A, 10, 4, &bad ) );
		if ( bad ) printf( "\n  case %d: %d wrong products", c, bad );
		CU_ASSERT_EQUAL( bad, 0 );
		tsp_free( &A );
		tsc_end();
	}
}

/* A COO not grouped by rows (the CPU product accepts it): its first build is a copy, which
   the device finds out of order and drops; the next build is the snapshot job, which makes
   it resident. Every product right. */
static void test_coo_unsorted_takes_snapshot_job( void )
{
	CU_ASSERT_EQUAL_FATAL( tsc_begin( NULL, 32 << 10, 3000 ), 0 );
	tsc_csr       = 0;
	tsp_mat_t A   = tsp_make( TSP_RANDOM, 20000, 9, 1, HYB_PREC_S, TSP_UNSORTED | TSP_DUP, 47 );
	int       bad = 0;
	hyb_spmv_copy_stats_t c0, c1;
	hyb_spmv_copy_stats( &c0 );
	tsc_queue( &A, &bad );
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	hyb_spmv_copy_stats( &c1 );
	CU_ASSERT_EQUAL( c1.rejected, c0.rejected + 1 );
	const hyb_spmv_report_t* r = tsc_call( &A, 3, &bad );
	CU_ASSERT( tsp_why( r, "building the device copy in the background" ) );
	CU_ASSERT( !tsp_why( r, TSC_LEAN ) );
	hyb_spmv_bg_wait();
	hyb_spmv_copy_stats( &c1 );
	CU_ASSERT_EQUAL( c1.started, c0.started + 1 );
	CU_ASSERT( tsc_until_hit( &A, 10, 2, &bad ) );
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_free( &A );
	tsc_end();
}

/* Values and columns rewritten while the copy is read and uploaded (a slow simulated bus
   makes the build long): every product is the product of the arrays as they are at its
   call, and the matrix ends up resident again. */
static void test_changed_during_build( void )
{
	CU_ASSERT_EQUAL_FATAL( tsc_begin( "HYBLAS_SIM_BW=2e7", 16 << 10, 3000 ), 0 );
	tsp_mat_t A      = tsp_make( TSP_RANDOM, 20000, 9, 1, HYB_PREC_D, 0, 53 );
	double*   a      = A.a;
	double*   v      = A.val;
	int       bad    = 0;
	int64_t   during = 0;
	tsc_queue( &A, &bad );
	hyb_spmv_bg_gate( 0 );
	hyb_t_rng_t rng = hyb_t_rng( 3 );
	/* The same entry in the CSR (ja, a) and COO (col, val) arrays: rows keep their order. */
	for ( int round = 0; !hyb_spmv_bg_idle() && round < 100000; round++ )
	{
		int64_t k = hyb_t_below( &rng, A.nnz );
		a[k]      = 2.0 * a[k] + 1.0;
		v[k]      = a[k];
		A.ja[k]   = (int)hyb_t_below( &rng, A.m ) + A.base;
		A.col[k]  = A.ja[k];
		during += !hyb_spmv_bg_idle();
	}
	hyb_spmv_bg_wait();
	if ( during == 0 ) printf( "\n  the build ended before any change" );
	CU_ASSERT( during > 0 );
	for ( uint64_t k = 3; k < 9; k++ )
	{
		tsc_call( &A, k, &bad );
		hyb_spmv_bg_wait();
	}
	CU_ASSERT( tsc_until_hit( &A, 20, 3, &bad ) );
	/* and once resident, a change between calls is caught too */
	for ( int64_t k = 0; k < A.nnz; k += 11 ) v[k] = a[k] = -a[k] + 0.5;
	tsc_call( &A, 30, &bad );
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_free( &A );
	tsc_end();
}

/* The lean build of A queued, then run with the fault plan armed (and only then); the copy
   counts before and after. */
static void tsc_faulted_build( const tsp_mat_t* A, const char* plan, int* bad,
                               hyb_spmv_copy_stats_t* c0, hyb_spmv_copy_stats_t* c1 )
{
	tsc_queue( A, bad );
	hyb_spmv_copy_stats( c0 );
	hyb_device_faults_set( plan );
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	hyb_device_faults_set( NULL );
	hyb_spmv_copy_stats( c1 );
}

/* One lean build with the fault plan armed while it runs (and only then): every product
   right, the matrix resident after a later build. Returns 1 when the copy failed, 0 when it
   was kept; -1 when it did neither. */
static int tsc_faulted_copy( const char* plan, int csr, hyb_prec_t prec, int base )
{
	if ( tsc_begin( NULL, 256 << 10, 3000 ) != 0 ) return -1;
	tsc_csr                   = csr;
	tsp_mat_t             A   = tsp_make( TSP_RANDOM, 20000, 9, base, prec, 0, 61 );
	int                   bad = 0;
	hyb_spmv_copy_stats_t c0, c1;
	tsc_faulted_build( &A, plan, &bad, &c0, &c1 );
	int failed = c1.failed == c0.failed + 1 && c1.kept == c0.kept   ? 1
	             : c1.kept == c0.kept + 1 && c1.failed == c0.failed ? 0
	                                                                : -1;
	int hit    = tsc_until_hit( &A, 3, 4, &bad ) &&
	          hyb_spmv_last_report()->fmt == HYB_SPMV_DEV_CSR; /* a copy again */
	if ( !hit || bad ) printf( "\n  %s: hit=%d wrong=%d", plan, hit, bad );
	CU_ASSERT( hit );
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_free( &A );
	tsc_end();
	return failed;
}

/* The N-th device operation from the start of the copy fails, at once or at the next
   synchronisation, for every N past the copy's last: each product is right, the copy is
   not kept when its operations failed, and a later build makes the matrix resident. Then
   each kind by name: the copy fails. */
static void test_faults_during_copy( void )
{
	for ( int csr = 1; csr >= 0; csr-- )
	{
		int failed = 0, cases = 0;
		for ( int n = 1; n <= 36; n++ )
			for ( int async = 0; async < 2; async++ )
			{
				char plan[32];
				snprintf( plan, sizeof plan, "any:%d%s", n, async ? "a" : "" );
				int f = tsc_faulted_copy( plan, csr, HYB_PREC_D, 0 );
				CU_ASSERT( f >= 0 );
				failed += f == 1;
				cases++;
			}
		/* 256 KiB pieces: ia (COO: the rows) 1 (3), ja 3, values 6; about 23 (29) operations
		   can fail the copy */
		printf( "\n  %s: %d of %d faulted copies failed ", csr ? "CSR" : "COO", failed, cases );
		CU_ASSERT( failed >= ( csr ? 40 : 50 ) );
	}
	/* each kind by name, in a CSR (1) or a COO copy (0): those of a COO copy alone last */
	static const struct
	{
		const char* plan;
		int         csr;
	} kinds[] = { { "alloc:1", 0 }, { "pinned:1", 1 },     { "h2d:4", 0 },
		          { "h2d:3a", 1 },  { "kernel:1a", 0 },    { "d2h:1", 1 },
		          { "sync:2", 0 },  { "spmv.check:1", 1 }, { "alloc:2", 0 },
		          { "d2h:2a", 0 },  { "spmv.cooptr:1", 0 } };
	for ( int k = 0; k < 11; k++ )
	{
		int f = tsc_faulted_copy( kinds[k].plan, kinds[k].csr, HYB_PREC_S, 1 );
		if ( f != 1 ) printf( "\n  %s: the copy did not fail", kinds[k].plan );
		CU_ASSERT_EQUAL( f, 1 );
	}
}

/* Without a check launcher (or for input a copy cannot serve: a transposed product) the old
   build runs: a snapshot, statistics and a product, on the build's usual share of cores. */
static void test_old_build_without_check( void )
{
	int team = tsc_team_of_8();
	for ( int c = 0; c < 2; c++ )
	{
		CU_ASSERT_EQUAL_FATAL( tsc_begin( NULL, 0, 0 ), 0 );
		if ( c == 0 )
		{
			hyb_spmv_force_t f = tsp_force();
			f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
			f.no_check_kernel  = 1;
			hyb_spmv_device_force( &f );
		}
		tsp_mat_t             A   = tsp_make( TSP_RANDOM, 20000, 9, 0, HYB_PREC_D, 0, 71 );
		int                   bad = 0;
		char                  t   = c == 0 ? 'N' : 'T';
		hyb_spmv_copy_stats_t c0, c1;
		hyb_spmv_copy_stats( &c0 );
		hyb_spmv_bg_gate( 1 );
		tsp_call_check( &A, 1, t, 1, &bad );
		const hyb_spmv_report_t* r = tsp_call_check( &A, 1, t, 2, &bad );
		CU_ASSERT( tsp_why( r, "building the device copy in the background" ) );
		CU_ASSERT( !tsp_why( r, TSC_LEAN ) );
		CU_ASSERT_EQUAL( hyb_spmv_bg_cpu_threads(), 6 ); /* the snapshot job's quarter */
		hyb_spmv_bg_gate( 0 );
		hyb_spmv_bg_wait();
		hyb_spmv_copy_stats( &c1 );
		CU_ASSERT_EQUAL( c1.started, c0.started );
		r = tsp_call_check( &A, 1, t, 9, &bad );
		CU_ASSERT_EQUAL( r->cache, HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( bad, 0 );
		tsp_free( &A );
		tsc_end();
	}
	omp_set_num_threads( team );
}

/* ------------------------------------------------------------ the DIA form */

/* spmv.diahist on CSR arrays (ptr with ia[0] = first) in `window`: hist and out[2]. */
static hyb_status_t tsc_diahist( const int* ptr, int64_t rows, const int* col, int64_t nnz,
                                 int base, int64_t window, int* hist, int* out )
{
	hyb_dev_t* d = NULL;
	if ( hyb_dev_acquire( 0, &d ) != HYB_OK ) return HYB_E_DEVICE;
	size_t pb = (size_t)( rows + 1 ) * sizeof( int ), cb = (size_t)( nnz + 1 ) * sizeof( int );
	size_t hb       = (size_t)( 2 * window + 3 ) * sizeof( int );
	char*  dm       = NULL;
	hyb_status_t st = hyb_dev_alloc( d, pb + cb + hb, (void**)&dm );
	if ( st == HYB_OK )
	{
		hyb_dev_h2d( d, 0, dm, pb, ptr, pb, pb, 1 );
		if ( nnz > 0 ) hyb_dev_h2d( d, 0, dm + pb, cb, col, cb, (size_t)nnz * sizeof( int ), 1 );
		int*                           dh = (int*)(void*)( dm + pb + cb );
		const hyb_spmv_diahist_kargs_t a  = { .prec   = HYB_PREC_D,
			                                  .rows   = rows,
			                                  .nnz    = nnz,
			                                  .window = window,
			                                  .ptr    = (const int*)(void*)dm,
			                                  .col    = (const int*)(void*)( dm + pb ),
			                                  .base   = base,
			                                  .hist   = dh,
			                                  .out    = dh + 2 * window + 1 };
		st                                = hyb_dev_spmv_diahist( d, 0, &a );
		if ( st == HYB_OK )
			st = hyb_dev_d2h( d, 0, hist, hb - 2 * sizeof( int ), dh, hb - 2 * sizeof( int ),
			                  hb - 2 * sizeof( int ), 1 );
		if ( st == HYB_OK )
			st = hyb_dev_d2h( d, 0, out, 2 * sizeof( int ), a.out, 2 * sizeof( int ),
			                  2 * sizeof( int ), 1 );
		if ( st == HYB_OK ) st = hyb_dev_stream_sync( d, 0 );
		hyb_dev_free( d, dm, pb + cb + hb );
	}
	hyb_dev_release( d );
	return st;
}

/* spmv.diahist against counts made here: random rows with duplicates and empty rows, 0- and
   1-based, ia[0] past the base, the whole window and a narrow one (entries beyond it). */
static void test_diahist_kernel( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	for ( int v = 0; v < 4; v++ )
	{
		const int     base = v & 1;
		const int64_t m = 3000, W = v < 2 ? m - 1 : 50;
		tsp_mat_t     A = tsp_make( v < 2 ? TSP_RANDOM : TSP_BANDED, m, 6, base, HYB_PREC_D,
		                        TSP_DUP | TSP_EMPTY | TSP_SCATTER, 81 + (uint64_t)v );
		if ( v == 1 ) tsc_offset( &A, 77 );
		const int* ja  = A.ja + ( A.ia[0] - base );
		int*       ref = calloc( (size_t)( 2 * W + 1 ), sizeof( int ) );
		int*       got = calloc( (size_t)( 2 * W + 1 ), sizeof( int ) );
		int        far = 0, held = 0, out[2] = { -1, -1 };
		for ( int64_t i = 0; i < m; i++ )
			for ( int64_t e = A.ia[i] - A.ia[0]; e < A.ia[i + 1] - A.ia[0]; e++ )
			{
				int64_t off = (int64_t)ja[e] - base - i;
				if ( off < -W || off > W )
					far++;
				else
					held += ref[off + W]++ == 0;
			}
		CU_ASSERT_EQUAL_FATAL( tsc_diahist( A.ia, m, ja, A.nnz, base, W, got, out ), HYB_OK );
		CU_ASSERT( memcmp( ref, got, (size_t)( 2 * W + 1 ) * sizeof( int ) ) == 0 );
		CU_ASSERT_EQUAL( out[0], far );
		CU_ASSERT_EQUAL( out[1], held );
		CU_ASSERT( v < 2 ? far == 0 : far > 0 );
		free( ref );
		free( got );
		tsp_free( &A );
	}
	hyb_t_sim_end();
}

/* A CSR copy of A's arrays laid out and uploaded as the lean job's (blocks of br rows) on d. */
static hyb_status_t tsc_copy_up( hyb_dev_t* d, const tsp_mat_t* A, int64_t br, hyb_spmv_dmat_t* cp,
                                 char** mem )
{
	const size_t vb  = hyb_prec_size( A->prec );
	int64_t      nnz = A->ia[A->m] - A->ia[0];
	hyb_status_t st  = hyb_spmv_dmat_plan_copy( A->m, nnz, A->prec, A->base, br, cp );
	if ( st == HYB_OK ) st = hyb_dev_alloc( d, cp->bytes, (void**)mem );
	if ( st != HYB_OK ) return st;
	size_t reg[3], k0 = (size_t)( A->ia[0] - A->base );
	hyb_spmv_dmat_copy_regions( cp, reg );
	size_t pb = (size_t)( A->m + 1 ) * sizeof( int ), cb = (size_t)nnz * sizeof( int );
	hyb_dev_h2d( d, 0, *mem, pb, A->ia, pb, pb, 1 );
	if ( nnz > 0 )
	{
		hyb_dev_h2d( d, 0, *mem + reg[1], cb, A->ja + k0, cb, cb, 1 );
		hyb_dev_h2d( d, 0, *mem + reg[2], (size_t)nnz * vb, (const char*)A->a + k0 * vb,
		             (size_t)nnz * vb, (size_t)nnz * vb, 1 );
	}
	return hyb_dev_stream_sync( d, 0 );
}

/* The copy's diagonals counted on the device list what the host's statistics list; where
   they all fit, the DIA form written on the device (spmv.diascatter) is the host's DIA build
   byte for byte (layout, offsets, duplicates summed in order, halo rows zero), in single and
   double, 0- and 1-based, with empty rows and entries before ia[0]; an irregular matrix has
   entries beyond the listed diagonals, and a DIA form missing a diagonal is refused. */
static void test_diascatter_matches_host( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "256M", NULL ), HYB_OK );
	for ( int v = 0; v < 10; v++ )
	{
		hyb_prec_t    prec = v & 1 ? HYB_PREC_S : HYB_PREC_D;
		int           base = ( v >> 1 ) & 1, irregular = v >= 8;
		const int64_t m = 5000, br = v & 4 ? 700 : 0;
		tsp_mat_t     A =
		    tsp_make( TSP_BANDED, m, 7, base, prec,
		              TSP_DUP | TSP_EMPTY | ( irregular ? TSP_SCATTER : 0 ), 91 + (uint64_t)v );
		if ( v == 6 ) tsc_offset( &A, 33 );
		hyb_spmv_src_t   src;
		hyb_spmv_view_t  view;
		hyb_spmv_diags_t hd, dd;
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_src_csr( 'N', m, prec, A.a, A.ia, A.ja, base, &src ),
		                       HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_view_build( &src, 1, &view ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_diags_build( &view, 0, 0, 1, &hd ), HYB_OK );
		hyb_dev_t*      d = NULL;
		hyb_spmv_dmat_t cp, hdia, ddia;
		char*           cmem = NULL;
		char*           dmem = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( tsc_copy_up( d, &A, 600, &cp, &cmem ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_todia_count( d, &cp, cmem, &dd ), HYB_OK );
		CU_ASSERT_EQUAL( dd.ndiag, hd.ndiag );
		CU_ASSERT_EQUAL( dd.rest_nnz, hd.rest_nnz );
		CU_ASSERT( memcmp( dd.offset, hd.offset, (size_t)hd.ndiag * sizeof( int ) ) == 0 );
		CU_ASSERT( memcmp( dd.occ, hd.occ, (size_t)hd.ndiag * sizeof( int64_t ) ) == 0 );
		CU_ASSERT( irregular ? hd.rest_nnz > 0 : hd.rest_nnz == 0 && hd.ndiag == 7 );
		/* irregular: the DIA form of the seven band diagonals misses the scattered entries */
		int64_t    K       = irregular ? 7 : dd.ndiag;
		int        band[7] = { 0, -1, 1, -5, 5, -40, 40 };
		const int* offs    = irregular ? band : dd.offset;
		CU_ASSERT_EQUAL_FATAL(
		    hyb_spmv_dmat_plan( &view, HYB_SPMV_DEV_DIA, K, offs, m, br, 1, &hdia ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_spmv_dmat_plan_dia( m, cp.dev_nnz, prec, K, offs, br, &ddia ),
		                       HYB_OK );
		CU_ASSERT_EQUAL( ddia.bytes, hdia.bytes );
		CU_ASSERT_EQUAL( ddia.off_dia, hdia.off_dia );
		CU_ASSERT_EQUAL_FATAL( ddia.nblk, hdia.nblk );
		int geo = 0;
		for ( int b = 0; b < ddia.nblk; b++ )
			geo += ddia.blk[b].e0 != hdia.blk[b].e0 || ddia.blk[b].e1 != hdia.blk[b].e1 ||
			       ddia.blk[b].off != hdia.blk[b].off || ddia.blk[b].bytes != hdia.blk[b].bytes ||
			       ddia.blk[b].yoff != hdia.blk[b].yoff || ddia.blk[b].r0 != hdia.blk[b].r0 ||
			       ddia.blk[b].r1 != hdia.blk[b].r1;
		CU_ASSERT_EQUAL( geo, 0 );
		char* himg = calloc( 1, hdia.bytes );
		char* dimg = calloc( 1, ddia.bytes );
		for ( int b = 0; b < hdia.nblk; b++ )
			hyb_spmv_dmat_build_block( &view, &hdia, b, himg + hdia.blk[b].off, 1 );
		memcpy( himg + hdia.off_dia, hyb_spmv_dmat_offsets( &hdia ), (size_t)K * sizeof( int ) );
		CU_ASSERT_EQUAL_FATAL( hyb_dev_alloc( d, ddia.bytes, (void**)&dmem ), HYB_OK );
		hyb_status_t st = hyb_spmv_todia_write( d, &cp, cmem, &ddia, dmem );
		CU_ASSERT_EQUAL( st, irregular ? HYB_E_INVALID : HYB_OK );
		if ( !irregular )
		{
			hyb_dev_d2h( d, 0, dimg, ddia.bytes, dmem, ddia.bytes, ddia.bytes, 1 );
			hyb_dev_stream_sync( d, 0 );
			int same = 1;
			for ( int b = 0; b < ddia.nblk; b++ )
				same &= memcmp( himg + hdia.blk[b].off, dimg + ddia.blk[b].off,
				                (size_t)( K * ( ddia.blk[b].e1 - ddia.blk[b].e0 ) ) *
				                    hyb_prec_size( prec ) ) == 0;
			same &=
			    memcmp( himg + hdia.off_dia, dimg + ddia.off_dia, (size_t)K * sizeof( int ) ) == 0;
			if ( !same ) printf( "\n  variant %d: the device's DIA differs from the host's", v );
			CU_ASSERT( same );
		}
		hyb_dev_free( d, dmem, ddia.bytes );
		hyb_dev_free( d, cmem, cp.bytes );
		hyb_dev_release( d );
		free( himg );
		free( dimg );
		hyb_spmv_dmat_free( &hdia );
		hyb_spmv_dmat_free( &ddia );
		hyb_spmv_dmat_free( &cp );
		hyb_spmv_diags_free( &hd );
		hyb_spmv_diags_free( &dd );
		hyb_spmv_view_free( &view );
		tsp_free( &A );
	}
	hyb_t_sim_end();
}

/* The 27-point matrix of an n^3 grid (a 3-D stencil), rows in grid order, entries in column
   order, with the base; its CSR arrays too. */
static tsp_mat_t tsc_stencil( int64_t n, int base, hyb_prec_t prec )
{
	tsp_mat_t     A   = { .m = n * n * n, .base = base, .prec = prec };
	const int64_t cap = A.m * 27;
	A.row             = malloc( (size_t)cap * sizeof( int ) );
	A.col             = malloc( (size_t)cap * sizeof( int ) );
	A.val             = malloc( (size_t)cap * 8 );
	hyb_t_rng_t rng   = hyb_t_rng( 101 );
	for ( int64_t i = 0; i < A.m; i++ )
		for ( int dz = -1; dz <= 1; dz++ )
			for ( int dy = -1; dy <= 1; dy++ )
				for ( int dx = -1; dx <= 1; dx++ )
				{
					int64_t x = i % n + dx, y = i / n % n + dy, z = i / ( n * n ) + dz;
					if ( x < 0 || x >= n || y < 0 || y >= n || z < 0 || z >= n ) continue;
					A.row[A.nnz] = (int)i + base;
					A.col[A.nnz] = (int)( ( z * n + y ) * n + x ) + base;
					double u     = hyb_t_unit( &rng );
					if ( prec == HYB_PREC_D )
						( (double*)A.val )[A.nnz] = u;
					else
						( (float*)A.val )[A.nnz] = (float)u;
					A.nnz++;
				}
	A.ia = malloc( (size_t)( A.m + 1 ) * sizeof( int ) );
	A.ja = malloc( (size_t)A.nnz * sizeof( int ) );
	A.a  = malloc( (size_t)A.nnz * 8 );
	tsp_sync_csr( &A );
	return A;
}

/* End to end in auto mode: a 27-point stencil's copy turns into DIA on the device and serves
   the calls as DIA (27 diagonals), in single and double, 0- and 1-based, CSR and COO input;
   an irregular matrix (a band plus scattered entries) stays a CSR copy. Every product right. */
static void test_lean_build_turns_dia( void )
{
	for ( int v = 0; v < 10; v++ )
	{
		hyb_prec_t prec = v & 1 ? HYB_PREC_S : HYB_PREC_D;
		int        base = ( v >> 1 ) & 1, irregular = v >= 8;
		/* several blocks with x up in several chunks: each block waits for its columns */
		tsc_x_chunk = v & 4 ? 4096 : 0;
		CU_ASSERT_EQUAL_FATAL( tsc_begin( NULL, 64 << 10, v & 4 ? 700 : 0 ), 0 );
		tsc_csr     = !( v & 4 ) || irregular;
		tsp_mat_t A = irregular ? tsp_make( TSP_BANDED, 20000, 7, base, prec, TSP_DUP | TSP_SCATTER,
		                                    111 + (uint64_t)v )
		                        : tsc_stencil( 17, base, prec );
		hyb_spmv_copy_stats_t c0, c1;
		hyb_spmv_copy_stats( &c0 );
		int bad = 0;
		tsc_queue( &A, &bad );
		hyb_spmv_bg_gate( 0 );
		hyb_spmv_bg_wait();
		hyb_spmv_copy_stats( &c1 );
		CU_ASSERT_EQUAL( c1.kept, c0.kept + 1 );
		CU_ASSERT_EQUAL( c1.dia, c0.dia + !irregular );
		for ( uint64_t k = 4; k < 7; k++ )
		{
			const hyb_spmv_report_t* r = tsc_call( &A, k, &bad );
			CU_ASSERT_EQUAL( r->cache, HYB_RESIDENCY_HIT );
			CU_ASSERT_EQUAL( r->path, HYB_PATH_GPU );
			CU_ASSERT_EQUAL( r->fmt, irregular ? HYB_SPMV_DEV_CSR : HYB_SPMV_DEV_DIA );
			CU_ASSERT_EQUAL( r->K, irregular ? 0 : 27 );
		}
		if ( bad ) printf( "\n  variant %d: %d wrong products", v, bad );
		CU_ASSERT_EQUAL( bad, 0 );
		tsp_free( &A );
		tsc_end();
	}
}

/* One lean build of the stencil with the fault plan armed while it runs: every product right,
   resident after; returns the format of the resident copy (NONE: the build failed and a later
   one made it resident, -1: never resident). */
static int tsc_faulted_dia( const char* plan, int csr, hyb_prec_t prec, int base )
{
	if ( tsc_begin( NULL, 256 << 10, 1000 ) != 0 ) return -1;
	tsc_csr                   = csr;
	tsp_mat_t             A   = tsc_stencil( 14, base, prec );
	int                   bad = 0;
	hyb_spmv_copy_stats_t c0, c1;
	tsc_faulted_build( &A, plan, &bad, &c0, &c1 );
	int                      fmt = c1.kept == c0.kept + 1
	                                   ? ( c1.dia == c0.dia + 1 ? HYB_SPMV_DEV_DIA : HYB_SPMV_DEV_CSR )
	                                   : HYB_SPMV_DEV_NONE;
	const hyb_spmv_report_t* r   = tsc_call( &A, 3, &bad );
	if ( fmt != HYB_SPMV_DEV_NONE && ( r->cache != HYB_RESIDENCY_HIT || (int)r->fmt != fmt ) )
		fmt = -1;
	if ( fmt == HYB_SPMV_DEV_NONE && !tsc_until_hit( &A, 4, 4, &bad ) ) fmt = -1;
	if ( fmt < 0 || bad ) printf( "\n  %s: fmt=%d wrong=%d", plan, fmt, bad );
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_free( &A );
	tsc_end();
	return fmt;
}

/* The N-th device operation of the build fails, at once or at the next synchronisation, for
   N through the copy and the conversion: every product right and the matrix resident; a fault
   in the conversion leaves the CSR copy. Then each step of the conversion by name. */
static void test_faults_during_dia( void )
{
	int as[3] = { 0, 0, 0 };
	for ( int n = 1; n <= 40; n++ )
		for ( int async = 0; async < 2; async++ )
		{
			char plan[32];
			snprintf( plan, sizeof plan, "any:%d%s", n, async ? "a" : "" );
			int f = tsc_faulted_dia( plan, n & 1, n & 2 ? HYB_PREC_S : HYB_PREC_D, n & 4 ? 1 : 0 );
			CU_ASSERT( f >= 0 );
			if ( f >= 0 ) as[f == HYB_SPMV_DEV_NONE ? 0 : f == HYB_SPMV_DEV_CSR ? 1 : 2]++;
		}
	printf( "\n  copy failed %d, kept as CSR %d, as DIA %d ", as[0], as[1], as[2] );
	CU_ASSERT( as[0] > 0 && as[1] > 0 && as[2] > 0 );
	static const char* kinds[] = { "spmv.diahist:1",     "spmv.diahist:1a", "spmv.diascatter:1",
		                           "spmv.diascatter:2a", "memset:1",        "memset:1a" };
	for ( int k = 0; k < 6; k++ )
	{
		int f = tsc_faulted_dia( kinds[k], k & 1, k & 2 ? HYB_PREC_S : HYB_PREC_D, 1 );
		if ( f != HYB_SPMV_DEV_CSR ) printf( "\n  %s: not kept as CSR", kinds[k] );
		CU_ASSERT_EQUAL( f, HYB_SPMV_DEV_CSR );
	}
}

static CU_TestInfo hyb_tests_spmv_copy[] = {
	{ "check_kernel_windows", test_check_kernel_windows },
	{ "check_kernel_rejects", test_check_kernel_rejects },
	{ "cooptr_kernel", test_cooptr_kernel },
	{ "copy_pipeline", test_copy_pipeline },
	{ "lean_build_serves", test_lean_build_serves },
	{ "check_rejects_changed_arrays", test_check_rejects_changed_arrays },
	{ "coo_unsorted_takes_snapshot_job", test_coo_unsorted_takes_snapshot_job },
	{ "changed_during_build", test_changed_during_build },
	{ "faults_during_copy", test_faults_during_copy },
	{ "old_build_without_check", test_old_build_without_check },
	{ "diahist_kernel", test_diahist_kernel },
	{ "diascatter_matches_host", test_diascatter_matches_host },
	{ "lean_build_turns_dia", test_lean_build_turns_dia },
	{ "faults_during_dia", test_faults_during_dia },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_copy = { "spmv_copy", NULL, NULL, NULL, NULL, hyb_tests_spmv_copy };
