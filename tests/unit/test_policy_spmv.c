/* SPDX-License-Identifier: BSD-3-Clause */
/* The SpMV cost model: eqs. 4-5 against brute force, eqs. 6-8 against hand-computed
   values, Algorithm 3 against the exhaustive minimum, and the boundaries of the plan
   (small matrix keeps the CPU, resident stencil goes to the device, first call splits rows,
   the seed's regime gives a hybrid, margin and memory limits). */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_test_util.h"
#include "policies/hyb_policy_spmv.h"

/* Statistics from a list of row lengths (df allocated, caller frees st->df). */
static hyb_spmv_stats_t tp_stats( const int64_t* len, int64_t m, hyb_prec_t prec )
{
	int64_t M = 0, nnz = 0;
	for ( int64_t i = 0; i < m; i++ )
	{
		M = len[i] > M ? len[i] : M;
		nnz += len[i];
	}
	int64_t* df = calloc( (size_t)M + 1, sizeof( int64_t ) );
	for ( int64_t i = 0; i < m; i++ ) df[len[i]]++;
	hyb_spmv_stats_t st = { m, nnz, prec, M, df, 0, NULL, 0, 1 };
	return st;
}

/* Statistics straight from a distribution function (no diagonals). */
static hyb_spmv_stats_t tp_stats_df( int64_t* df, int64_t M, hyb_prec_t prec )
{
	int64_t m = 0, nnz = 0;
	for ( int64_t i = 0; i <= M; i++ )
	{
		m += df[i];
		nnz += i * df[i];
	}
	hyb_spmv_stats_t st = { m, nnz, prec, M, df, 0, NULL, 0, 1 };
	return st;
}

static int tp_close( double a, double b )
{
	return fabs( a - b ) <= 1e-12 * fmax( fabs( a ), fabs( b ) ) + 1e-300;
}

/* Round rates for hand computation. */
static hyb_spmv_rates_t tp_rates( void )
{
	hyb_spmv_rates_t r;
	memset( &r, 0, sizeof r );
	r.cpu_csr_bw = 2e9;
	r.cpu_coo_bw = 1e9;
	r.cpu_call_s = 1e-6;
	r.core_bw    = 1e9;
	r.host_bw    = 1e10;
	r.conv_rate  = 1e9;
	r.gpu_csr_bw = 1e10;
	r.gpu_ell_bw = 1e10;
	r.gpu_dia_bw = 2e10;
	r.gpu_call_s = 1e-5;
	r.h2d_bw     = 1e9;
	r.d2h_bw     = 1e9;
	r.gpu_mem    = 1e12;
	r.margin     = 0.1;
	r.overlap    = 0.0;
	return r;
}

/* ------------------------------------------------------------------ eqs. 2-5 */

static void test_ell_counts( void )
{
	/* the seed's example: rows of 1, 2, 3, 2 entries */
	int64_t          len[4] = { 1, 2, 3, 2 };
	hyb_spmv_stats_t st     = tp_stats( len, 4, HYB_PREC_D );
	CU_ASSERT( st.df[0] == 0 && st.df[1] == 1 && st.df[2] == 2 && st.df[3] == 1 );
	int64_t want[5] = { 0, 4, 7, 8, 8 }, dev, cpu;
	for ( int64_t K = 0; K <= 4; K++ )
	{
		hyb_policy_spmv_ell_counts( &st, K, &dev, &cpu );
		CU_ASSERT_EQUAL( dev, want[K] );
		CU_ASSERT_EQUAL( cpu, 8 - want[K] );
	}
	free( (void*)st.df );
	/* random distributions: eq. 4 is sum over rows of min(len, K) */
	hyb_t_rng_t rng = hyb_t_rng( 21 );
	for ( int t = 0; t < 20; t++ )
	{
		int64_t  m    = 1 + hyb_t_below( &rng, 500 );
		int64_t* lens = malloc( (size_t)m * sizeof( int64_t ) );
		for ( int64_t i = 0; i < m; i++ )
			lens[i] = hyb_t_below( &rng, 6 ) ? hyb_t_below( &rng, 12 ) : hyb_t_below( &rng, 300 );
		st = tp_stats( lens, m, HYB_PREC_S );
		CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_OK );
		for ( int64_t K = 0; K <= st.max_len + 1; K += 1 + K / 7 )
		{
			int64_t want_dev = 0;
			for ( int64_t i = 0; i < m; i++ ) want_dev += lens[i] < K ? lens[i] : K;
			hyb_policy_spmv_ell_counts( &st, K, &dev, &cpu );
			CU_ASSERT_EQUAL( dev, want_dev );
			CU_ASSERT_EQUAL( dev + cpu, st.nnz );
		}
		free( (void*)st.df );
		free( lens );
	}
}

static void test_check_stats( void )
{
	int64_t          df[4]  = { 0, 1, 2, 1 };
	int64_t          occ[3] = { 4, 3, 1 };
	hyb_spmv_stats_t st     = tp_stats_df( df, 3, HYB_PREC_D );
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_OK );
	st.diag_occ  = occ;
	st.ndiag     = 3;
	st.diag_rest = 0;
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_OK );
	st.diag_rest = 1; /* 9 != 8 */
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_E_INVALID );
	st.diag_rest = 0;
	occ[2]       = 5; /* not most populated first */
	occ[1]       = 0;
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_E_INVALID );
	occ[1] = 3;
	occ[2] = 1;
	st.m   = 5; /* rows do not add up */
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_E_INVALID );
	st.m   = 4;
	st.nnz = 9;
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_E_INVALID );
	st.nnz  = 8;
	st.prec = HYB_PREC_Z;
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_E_INVALID );
	st.prec = HYB_PREC_D;
	st.df   = NULL;
	CU_ASSERT_EQUAL( hyb_policy_spmv_check_stats( &st ), HYB_E_INVALID );
}

/* ------------------------------------------------------------------ eqs. 6-8 */

static void test_predict_by_hand( void )
{
	/* 1000 rows of 10 entries, double: nnz 10000, x and y 8000 bytes each */
	int64_t df[11]      = { 0 };
	df[10]              = 1000;
	hyb_spmv_stats_t st = tp_stats_df( df, 10, HYB_PREC_D );
	hyb_spmv_rates_t r  = tp_rates();
	hyb_spmv_pred_t  p;
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 4, &p ), HYB_OK );
	CU_ASSERT( p.dev_nnz == 4000 && p.cpu_nnz == 6000 && p.slots == 4000 );
	CU_ASSERT( tp_close( p.dev_bytes, 48000 ) );
	CU_ASSERT( p.nrun == 1000 ); /* every row is longer than K */
	/* eq. 6: 7000 entries and runs, under one thread's grain: 6000 * 16 B at core_bw
	   1 GB/s, no parallel region */
	CU_ASSERT( tp_close( p.t_cpu_part, 96e-6 ) );
	/* eq. 7, the device span: x 8 us + (4000*12 + 16000) B / 10 GB/s + y 8 us */
	CU_ASSERT( tp_close( p.t_gpu_part, 8e-6 + 6.4e-6 + 8e-6 ) );
	CU_ASSERT( tp_close( p.t_conv, 0 ) );
	/* after both: y registered (traffic 1), the merge of 1000 runs * 20 B on one thread */
	CU_ASSERT( tp_close( p.t_post, 20e-6 ) );
	/* eq. 8: the device call's host cost 10 us + max + the merge */
	CU_ASSERT( tp_close( p.t_total, 10e-6 + 96e-6 + 20e-6 ) );
	/* first call: upload of the ELL part, and the conversion before both sides */
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_FIRST_CALL, HYB_SPMV_DEV_ELL, 4, &p ), HYB_OK );
	CU_ASSERT( tp_close( p.t_gpu_part, 22.4e-6 + 48e-6 ) );
	CU_ASSERT( tp_close( p.t_conv, ( 120000.0 + 48000.0 + 96000.0 ) / 1e10 ) );
	CU_ASSERT( tp_close( p.t_total, p.t_conv + 10e-6 + 96e-6 + 20e-6 ) );
	st.grouped = 0; /* an unsorted source is regrouped first: + nnz / conv_rate */
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_FIRST_CALL, HYB_SPMV_DEV_ELL, 4, &p ), HYB_OK );
	CU_ASSERT( tp_close( p.t_conv, 10e-6 + 264000.0 / 1e10 ) );
	st.grouped = 1;
	/* overlap = 1: only the longest of x up / kernel / y down counts */
	r.overlap = 1.0;
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 4, &p ), HYB_OK );
	CU_ASSERT( tp_close( p.t_gpu_part, 8e-6 ) );
	r.overlap = 0.0;
	/* y through staging: 8000 B copied out on one thread (below the team's threshold) */
	r.d2h_host_traffic = 3.0;
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 4, &p ), HYB_OK );
	CU_ASSERT( tp_close( p.t_post, 8e-6 + 20e-6 ) );
	r.d2h_host_traffic = 0.0;
	/* K = 0: no device part; K = M: no remainder, no merge */
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 0, &p ),
	                 HYB_OK );
	CU_ASSERT( p.t_gpu_part == 0 && tp_close( p.t_total, 160e-6 ) );
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 10, &p ),
	                 HYB_OK );
	CU_ASSERT( p.t_cpu_part == 0 && p.nrun == 0 && p.t_post == 0 );
	CU_ASSERT( tp_close( p.t_total, 10e-6 + p.t_gpu_part ) );
	/* DIA: 3 diagonals of 1000, 900, 500 entries, the rest elsewhere */
	int64_t occ[3] = { 1000, 900, 500 };
	st.ndiag       = 3;
	st.diag_occ    = occ;
	st.diag_rest   = 10000 - 2400;
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_DIA, 2, &p ), HYB_OK );
	CU_ASSERT( p.dev_nnz == 1900 && p.cpu_nnz == 8100 && p.slots == 2000 );
	CU_ASSERT( tp_close( p.dev_bytes, 2000 * 8.0 + 2 * 4.0 ) );
	CU_ASSERT( tp_close( p.t_gpu_part, 8e-6 + ( 16000.0 + 16000.0 ) / 2e10 + 8e-6 ) );
	CU_ASSERT( p.nrun == 1000 ); /* DIA: at most every row */
	/* invalid requests */
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_DIA, 4, &p ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 11, &p ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_CSR, 1, &p ),
	                 HYB_E_INVALID );
	r.h2d_bw = -1;
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 1, &p ),
	                 HYB_E_INVALID );
	r.h2d_bw  = 1e9;
	r.overlap = NAN;
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 1, &p ),
	                 HYB_E_INVALID );
}

/* The host kernels of a split on as many threads as the kernels use (one per
   HYB_SPMV_GRAIN entries): a team pays cpu_call_s and streams at most threads x core_bw. */
static void test_predict_host_threads( void )
{
	int64_t df[11]      = { 0 };
	df[10]              = 100000;
	hyb_spmv_stats_t st = tp_stats_df( df, 10, HYB_PREC_D );
	hyb_spmv_rates_t r  = tp_rates();
	r.core_bw           = 1e8;
	r.d2h_host_traffic  = 3.0;
	hyb_spmv_pred_t p;
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 4, &p ), HYB_OK );
	/* remainder: 700000 entries and runs -> 22 threads, min(1 GB/s, 2.2 GB/s), after x of
	   800000 B (the copy team's size) is staged: read + write at 10 GB/s */
	CU_ASSERT( tp_close( p.t_cpu_part, 1.6e6 / 1e10 + 1e-6 + 9.6e6 / 1e9 ) );
	/* y of 800000 B, one block, above the team's threshold: read + write at 10 GB/s; the
	   merge of 100000 runs (work 400000 -> 13 threads at 0.1 GB/s each) */
	CU_ASSERT( tp_close( p.t_post, 1.6e6 / 1e10 + 1e-6 + 2e6 / 1.3e9 ) );
	/* a faster team kernel is capped by the threads the remainder gets */
	r.cpu_coo_bw = 1e10;
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 4, &p ), HYB_OK );
	CU_ASSERT( tp_close( p.t_cpu_part, 1.6e6 / 1e10 + 1e-6 + 9.6e6 / 2.2e9 ) );
	/* y larger than one block: only the last block is copied after the span */
	int64_t big[11]     = { 0 };
	big[10]             = 2000000; /* y 16 MB */
	hyb_spmv_stats_t sb = tp_stats_df( big, 10, HYB_PREC_D );
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &sb, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 10, &p ), HYB_OK );
	CU_ASSERT( p.nrun == 0 && tp_close( p.t_post, 2.0 * (double)HYB_SPMV_BLOCK_BYTES / 1e10 ) );
	/* a merge into scattered rows moves a cache line of y for each: 1000 rows of 10 and 10
	   rows of 50 entries, K = 10: 10 runs, 10 * (8 + 4) + 10 * 64 bytes on one thread (the
	   values alone would be 200); with every row a run the lines are y itself (above) */
	int64_t few[51]     = { 0 };
	few[10]             = 1000;
	few[50]             = 10;
	hyb_spmv_stats_t sf = tp_stats_df( few, 50, HYB_PREC_D );
	r.d2h_host_traffic  = 0.0;
	r.core_bw           = 1e8;
	CU_ASSERT_EQUAL_FATAL(
	    hyb_policy_spmv_predict( &sf, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 10, &p ), HYB_OK );
	CU_ASSERT( p.nrun == 10 && tp_close( p.t_post, 760.0 / 1e8 ) );
	/* the COO refit takes a measured remainder only where the model times it at cpu_coo_bw,
	   with the model's bytes (16 a double entry) */
	r.core_bw    = 1e8;
	r.cpu_coo_bw = 1e9; /* 10 threads reach it */
	CU_ASSERT( hyb_policy_spmv_coo_refit_bytes( &r, HYB_PREC_D, 0, 0 ) == 0.0 );
	CU_ASSERT( hyb_policy_spmv_coo_refit_bytes( &r, HYB_PREC_D, 200000, 50000 ) == 0.0 ); /* 8 */
	CU_ASSERT(
	    tp_close( hyb_policy_spmv_coo_refit_bytes( &r, HYB_PREC_D, 300000, 50000 ), 4.8e6 ) );
	CU_ASSERT(
	    tp_close( hyb_policy_spmv_coo_refit_bytes( &r, HYB_PREC_S, 300000, 50000 ), 3.6e6 ) );
}

/* ------------------------------------------------------------------ Algorithm 3 */

static void test_algorithm3( void )
{
	/* Without fixed costs the totals are max(TC, TG) with TC falling and TG rising in K, so
	   Algorithm 3's crossing is the exhaustive minimum (up to ties). That holds while the
	   host bus (host_bw) is not the bound: the seed's model has no bus term, so the cases
	   keep host_bw far above the CPU's COO bandwidth (drawn up to 1e10). */
	hyb_t_rng_t rng = hyb_t_rng( 22 );
	for ( int t = 0; t < 40; t++ )
	{
		int64_t  M  = 2 + hyb_t_below( &rng, 400 );
		int64_t* df = calloc( (size_t)M + 1, sizeof( int64_t ) );
		for ( int64_t i = 1; i <= M; i++ )
			df[i] = hyb_t_below( &rng, 5 ) ? 0 : hyb_t_below( &rng, 1000 ) + ( i < 30 ? 5000 : 0 );
		df[M]               = 1;
		hyb_spmv_stats_t st = tp_stats_df( df, M, HYB_PREC_D );
		hyb_spmv_rates_t r  = tp_rates();
		r.cpu_call_s        = 0;
		r.host_bw           = 1e12;
		r.cpu_coo_bw        = 1e8 * (double)( 1 + hyb_t_below( &rng, 100 ) );
		r.core_bw           = r.cpu_coo_bw; /* one rate at any thread count: TC monotone */
		r.gpu_ell_bw        = 1e9 * (double)( 1 + hyb_t_below( &rng, 100 ) );
		hyb_spmv_phase_t ph = t % 2 ? HYB_SPMV_STEADY : HYB_SPMV_FIRST_CALL;
		int64_t          ka = hyb_policy_spmv_seek_k( &st, &r, ph, HYB_SPMV_DEV_ELL );
		hyb_spmv_pred_t  pb, pa, px;
		int64_t          kb = hyb_policy_spmv_best_k( &st, &r, ph, HYB_SPMV_DEV_ELL, &pb );
		CU_ASSERT_FATAL( ka >= 1 && ka <= M && kb >= 1 && kb <= M );
		CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_predict( &st, &r, ph, HYB_SPMV_DEV_ELL, ka, &pa ),
		                       HYB_OK );
		/* steady state: Algorithm 3 finds the exhaustive minimum of max(TC, TG) (or a tie);
		   on a first call the exhaustive minimum also weighs the conversion, which
		   Algorithm 3 does not see */
		double mx = INFINITY;
		for ( int64_t k = 1; k <= M; k++ )
		{
			hyb_policy_spmv_predict( &st, &r, ph, HYB_SPMV_DEV_ELL, k, &px );
			mx = fmin( mx, fmax( px.t_cpu_part, px.t_gpu_part ) );
		}
		if ( ph == HYB_SPMV_STEADY )
			CU_ASSERT( tp_close( fmax( pa.t_cpu_part, pa.t_gpu_part ), mx ) );
		/* the plan's K minimises the whole call, the serial steps around max(TC, TG)
		   included */
		CU_ASSERT( pb.t_total <= pa.t_total );
		/* the crossing: at K_alg3 the two sides bracket each other with the neighbours */
		if ( ka > 1 && ka < M )
		{
			hyb_spmv_pred_t lo, hi;
			hyb_policy_spmv_predict( &st, &r, ph, HYB_SPMV_DEV_ELL, ka - 1, &lo );
			hyb_policy_spmv_predict( &st, &r, ph, HYB_SPMV_DEV_ELL, ka + 1, &hi );
			CU_ASSERT( ( lo.t_gpu_part <= lo.t_cpu_part ) || ( pa.t_gpu_part >= pa.t_cpu_part ) );
			CU_ASSERT(
			    fmax( pa.t_cpu_part, pa.t_gpu_part ) <= fmax( lo.t_cpu_part, lo.t_gpu_part ) ||
			    fmax( pa.t_cpu_part, pa.t_gpu_part ) <= fmax( hi.t_cpu_part, hi.t_gpu_part ) );
		}
		free( df );
	}
	/* no crossing: a device far faster than the CPU takes every slot, a far slower one one */
	int64_t          df[6] = { 0, 100, 100, 100, 100, 100 };
	hyb_spmv_stats_t st    = tp_stats_df( df, 5, HYB_PREC_D );
	hyb_spmv_rates_t r     = tp_rates();
	r.gpu_ell_bw = 1e15, r.gpu_call_s = 0, r.h2d_bw = r.d2h_bw = 1e15;
	CU_ASSERT_EQUAL( hyb_policy_spmv_seek_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL ), 5 );
	r            = tp_rates();
	r.gpu_ell_bw = 1e3;
	CU_ASSERT_EQUAL( hyb_policy_spmv_seek_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL ), 1 );
	CU_ASSERT_EQUAL( hyb_policy_spmv_seek_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_DIA ),
	                 -1 ); /* no diagonals */
	CU_ASSERT_EQUAL( hyb_policy_spmv_seek_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_CSR ), -1 );
	/* memory: best_k stops where the part no longer fits */
	hyb_spmv_pred_t p;
	r         = tp_rates();
	r.gpu_mem = 500.0 * 3 * 12 + 2 * 500 * 8 + 1; /* room for K = 3 */
	CU_ASSERT( hyb_policy_spmv_best_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, &p ) <= 3 );
	r.gpu_mem = 10;
	CU_ASSERT_EQUAL( hyb_policy_spmv_best_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, &p ), -1 );
}

/* ------------------------------------------------------------------ plans */

/* 27-point-stencil statistics at n^3 rows: row lengths 8..27 by boundary position, and
   27 diagonals with occupancy (n-|dx|)(n-|dy|)(n-|dz|). */
static hyb_spmv_stats_t tp_stencil( int64_t n, int64_t* df, int64_t* occ )
{
	memset( df, 0, 28 * sizeof( int64_t ) );
	int64_t c[2] = { n - 2, 2 }; /* per dimension: interior (3 neighbours) and faces (2) */
	for ( int a = 0; a < 2; a++ )
		for ( int b = 0; b < 2; b++ )
			for ( int d = 0; d < 2; d++ )
				df[( 3 - a ) * ( 3 - b ) * ( 3 - d )] += c[a] * c[b] * c[d];
	int q = 0;
	for ( int dz = 0; dz <= 1; dz++ ) /* occupancies only depend on |d|; sorted below */
		for ( int dy = 0; dy <= 1; dy++ )
			for ( int dx = 0; dx <= 1; dx++ )
			{
				int reps = ( dz ? 2 : 1 ) * ( dy ? 2 : 1 ) * ( dx ? 2 : 1 );
				for ( int k = 0; k < reps; k++ ) occ[q++] = ( n - dx ) * ( n - dy ) * ( n - dz );
			}
	for ( int i = 0; i < 27; i++ ) /* most populated first */
		for ( int j = i + 1; j < 27; j++ )
			if ( occ[j] > occ[i] )
			{
				int64_t t = occ[i];
				occ[i]    = occ[j];
				occ[j]    = t;
			}
	hyb_spmv_stats_t st = tp_stats_df( df, 27, HYB_PREC_D );
	st.ndiag            = 27;
	st.diag_occ         = occ;
	st.diag_rest        = 0;
	return st;
}

static void test_plan_boundaries( void )
{
	hyb_spmv_rates_t r;
	hyb_policy_spmv_default_rates( &r );
	hyb_spmv_plan_t plan;

	/* a small matrix keeps the CPU, first call or not */
	int64_t          small_df[6] = { 0, 0, 0, 0, 0, 100 };
	hyb_spmv_stats_t st          = tp_stats_df( small_df, 5, HYB_PREC_D );
	for ( int ph = 0; ph <= 1; ph++ )
	{
		CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, (hyb_spmv_phase_t)ph, &plan ),
		                       HYB_OK );
		CU_ASSERT_EQUAL( plan.run, HYB_SPMV_RUN_CPU );
		CU_ASSERT( plan.t_cpu > 0 && plan.t_cpu < plan.t_gpu );
	}

	/* the 8 M-row stencil: resident -> device, DIA (fewer bytes than ELL or CSR) */
	int64_t df[28], occ[27];
	st = tp_stencil( 200, df, occ );
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_check_stats( &st ), HYB_OK );
	CU_ASSERT_EQUAL( st.nnz, 598LL * 598 * 598 );
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	CU_ASSERT_EQUAL( plan.run, HYB_SPMV_RUN_GPU );
	CU_ASSERT_EQUAL( plan.fmt, HYB_SPMV_DEV_DIA );
	CU_ASSERT_EQUAL( plan.K, 27 );
	CU_ASSERT( plan.t_cpu / plan.t_gpu > 10 ); /* x and y over PCIe bound it near 12x */
	/* the CPU-only prediction is the anchor's 37 ms, within 5 % */
	CU_ASSERT( fabs( plan.t_cpu - 0.037 ) < 0.05 * 0.037 );
	double serial = plan.t_gpu;
	r.overlap     = 1.0; /* pipelined x / kernel / y: only the longest stage remains */
	/* ... if x and y could move by DMA straight from and to the application's pages (one
	   host byte per byte moved): */
	r.h2d_host_traffic = r.d2h_host_traffic = 1.0;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	CU_ASSERT( plan.t_gpu < 0.5 * serial );
	CU_ASSERT( plan.t_cpu / plan.t_gpu > 25 );
	/* x staged (three host bytes per byte: read, write, DMA read) and y registered: the
	   host memory bus caps the gain below 25x */
	r.h2d_host_traffic = 3.0;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	CU_ASSERT( plan.t_cpu / plan.t_gpu < 25 && plan.t_cpu / plan.t_gpu > 10 );
	r.d2h_host_traffic = 3.0;
	r.overlap          = 0.0;
	/* first call, if the device could read the application's arrays directly (one host
	   byte per uploaded byte): the matrix must cross PCIe, so split the rows */
	r.h2d_host_traffic = r.d2h_host_traffic = 1.0;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_FIRST_CALL, &plan ), HYB_OK );
	CU_ASSERT_EQUAL( plan.run, HYB_SPMV_RUN_ROWSPLIT );
	CU_ASSERT( plan.row_share > 0.2 && plan.row_share < 0.8 );
	CU_ASSERT( plan.t_cpu / plan.t_rowsplit > 1.3 );
	CU_ASSERT( plan.t_gpu > plan.t_cpu ); /* device-only loses on a first call */
	/* staged through page-locked buffers (three host bytes per uploaded byte), the shared
	   memory bus leaves the row split less than 1.3x over the CPU alone */
	r.h2d_host_traffic = r.d2h_host_traffic = 3.0;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_FIRST_CALL, &plan ), HYB_OK );
	CU_ASSERT( plan.t_cpu / plan.t_rowsplit < 1.3 );
	CU_ASSERT( plan.t_cpu / plan.t_rowsplit >= 1.0 );
	/* without device memory, everything stays on the CPU */
	r.gpu_mem = 1e6;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	CU_ASSERT_EQUAL( plan.run, HYB_SPMV_RUN_CPU );
	CU_ASSERT( isinf( plan.t_gpu ) && isinf( plan.t_hybrid ) && isinf( plan.t_rowsplit ) );
	hyb_policy_spmv_default_rates( &r );
	/* margin: a device only a little faster does not take the call */
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	r.margin = plan.t_cpu / plan.t_gpu; /* demand more than the predicted gain */
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	CU_ASSERT_EQUAL( plan.run, HYB_SPMV_RUN_CPU );
	r.margin = -1;
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_E_INVALID );
}

/* The seed's regime: a device 8x the CPU, cheap transfers, irregular rows (most short, a
   few very long: TSOPF-like), and no fast device CSR. Rows of 80-120 entries and 20 rows of
   M = 2000 (df allocated, caller frees st->df). */
#define TP_SEED_M 2000
static void tp_seed_regime( hyb_spmv_stats_t* st, hyb_spmv_rates_t* r )
{
	int64_t* df = calloc( (size_t)TP_SEED_M + 1, sizeof( int64_t ) );
	for ( int64_t i = 80; i <= 120; i++ ) df[i] = 1000;
	df[TP_SEED_M] = 20;
	*st           = tp_stats_df( df, TP_SEED_M, HYB_PREC_D );
	*r            = tp_rates();
	r->cpu_coo_bw = r->cpu_csr_bw = 20e9;
	r->gpu_ell_bw                 = 160e9;
	r->gpu_csr_bw                 = 40e9; /* a CSR kernel hurt by the imbalance */
	r->h2d_bw = r->d2h_bw = 1e12;
	r->gpu_call_s         = 1e-6;
}

/* In the seed's regime the ELL part takes the short rows and the first K entries of the
   long ones; the CPU takes the long tails. */
static void test_plan_seed_regime( void )
{
	const int64_t    M = TP_SEED_M;
	hyb_spmv_stats_t st;
	hyb_spmv_rates_t r;
	tp_seed_regime( &st, &r );
	hyb_spmv_plan_t plan;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	CU_ASSERT_EQUAL( plan.run, HYB_SPMV_RUN_HYBRID );
	CU_ASSERT_EQUAL( plan.fmt, HYB_SPMV_DEV_ELL );
	CU_ASSERT( plan.K >= 80 && plan.K < M );
	CU_ASSERT( plan.split.cpu_nnz > 0 && plan.split.dev_nnz > plan.split.cpu_nnz );
	CU_ASSERT( plan.t_hybrid * 1.1 < plan.t_gpu && plan.t_hybrid < plan.t_cpu );
	/* the plan's K is the exhaustive minimum; Algorithm 3 lands within 10 % of it */
	hyb_spmv_pred_t best;
	CU_ASSERT_EQUAL( hyb_policy_spmv_best_k( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, &best ),
	                 plan.K );
	CU_ASSERT( plan.K_alg3 > 0 &&
	           fabs( (double)( plan.K_alg3 - plan.K ) ) <= 0.1 * (double)plan.K );
	free( (void*)st.df );
}

/* Each kind of device span has its own scale: scaling one kind moves only the predictions
   that use it, and a plan records its span's kind and the scale it was predicted with (the
   refit divides it out). */
static void test_span_scales( void )
{
	const int64_t    M = TP_SEED_M;
	hyb_spmv_stats_t st;
	hyb_spmv_rates_t r;
	tp_seed_regime( &st, &r );
	hyb_spmv_plan_t p0, p1;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &p0 ), HYB_OK );
	CU_ASSERT_EQUAL( p0.run, HYB_SPMV_RUN_HYBRID );
	CU_ASSERT_EQUAL( p0.span_kind, HYB_SPMV_SPAN_HYB_ELL );
	CU_ASSERT_EQUAL( p0.span_scale, 1.0 );
	CU_ASSERT( tp_close( p0.t_span, p0.split.t_gpu_part ) );

	/* the hybrid's ELL spans measured 3x: only the hybrid's prediction moves */
	r.span_scale[HYB_SPMV_SPAN_HYB_ELL] = 3.0;
	CU_ASSERT_EQUAL_FATAL( hyb_policy_spmv_plan( &st, &r, HYB_SPMV_STEADY, &p1 ), HYB_OK );
	CU_ASSERT( tp_close( p1.t_gpu, p0.t_gpu ) );
	CU_ASSERT( tp_close( p1.t_rowsplit, p0.t_rowsplit ) );
	CU_ASSERT( tp_close( p1.t_cpu, p0.t_cpu ) );
	CU_ASSERT( p1.t_hybrid > p0.t_hybrid );
	hyb_spmv_pred_t a, b;
	r.span_scale[HYB_SPMV_SPAN_HYB_ELL] = 0.0;
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 100, &a ),
	                 HYB_OK );
	r.span_scale[HYB_SPMV_SPAN_HYB_ELL] = 3.0;
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, 100, &b ),
	                 HYB_OK );
	CU_ASSERT( a.cpu_nnz > 0 && tp_close( b.t_gpu_part, 3.0 * a.t_gpu_part ) );
	CU_ASSERT( tp_close( b.t_cpu_part, a.t_cpu_part ) );
	/* an ELL part without a remainder is the device alone: the ELL kind */
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, M, &a ),
	                 HYB_OK );
	r.span_scale[HYB_SPMV_SPAN_ELL] = 2.0;
	CU_ASSERT_EQUAL( hyb_policy_spmv_predict( &st, &r, HYB_SPMV_STEADY, HYB_SPMV_DEV_ELL, M, &b ),
	                 HYB_OK );
	CU_ASSERT( a.cpu_nnz == 0 && tp_close( b.t_gpu_part, 2.0 * a.t_gpu_part ) );
	hyb_spmv_plan_opts_t o = {
		.force = 1, .run = HYB_SPMV_RUN_HYBRID, .fmt = HYB_SPMV_DEV_ELL, .K = M
	};
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan_opts( &st, &r, HYB_SPMV_STEADY, &o, &p1 ), HYB_OK );
	CU_ASSERT_EQUAL( p1.span_kind, HYB_SPMV_SPAN_ELL );
	CU_ASSERT_EQUAL( p1.span_scale, 2.0 );

	/* CSR alone and the row split's CSR rows: each its own */
	memset( r.span_scale, 0, sizeof r.span_scale );
	hyb_spmv_plan_opts_t g = { .force = 1, .run = HYB_SPMV_RUN_GPU, .fmt = HYB_SPMV_DEV_CSR };
	hyb_spmv_plan_opts_t w = { .force = 1, .run = HYB_SPMV_RUN_ROWSPLIT, .share = 0.5 };
	hyb_spmv_plan_t      g0, g1, w0, w1;
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan_opts( &st, &r, HYB_SPMV_STEADY, &g, &g0 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan_opts( &st, &r, HYB_SPMV_STEADY, &w, &w0 ), HYB_OK );
	r.span_scale[HYB_SPMV_SPAN_CSR] = 2.0;
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan_opts( &st, &r, HYB_SPMV_STEADY, &g, &g1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan_opts( &st, &r, HYB_SPMV_STEADY, &w, &w1 ), HYB_OK );
	CU_ASSERT( g1.span_kind == HYB_SPMV_SPAN_CSR && g1.span_scale == 2.0 );
	CU_ASSERT( tp_close( g1.t_span, 2.0 * g0.t_span ) );
	CU_ASSERT( w1.span_kind == HYB_SPMV_SPAN_ROWSPLIT && w1.span_scale == 1.0 );
	CU_ASSERT( tp_close( w1.t_span, w0.t_span ) && tp_close( w1.t_plan, w0.t_plan ) );
	r.span_scale[HYB_SPMV_SPAN_ROWSPLIT] = 4.0;
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan_opts( &st, &r, HYB_SPMV_STEADY, &w, &w1 ), HYB_OK );
	CU_ASSERT( w1.span_scale == 4.0 && tp_close( w1.t_span, 4.0 * w0.t_span ) );
	free( (void*)st.df );
}

/* A resident plan pays for its change check when the longer of its product and the check
   (they run at once) beats the CPU by the margin. Measured: bbmat's device plan at 0.13 ms
   against the CPU's 0.29, with a check of about 0.15 ms, kept the CPU when the two were
   added, though the device measured 25-40 % faster with its checks. */
static void test_pays_check( void )
{
	hyb_spmv_plan_t p = { .run = HYB_SPMV_RUN_GPU, .t_plan = 0.13e-3, .t_cpu = 0.29e-3 };
	CU_ASSERT( hyb_policy_spmv_pays_check( &p, 0.0, 0.1 ) );
	CU_ASSERT( hyb_policy_spmv_pays_check( &p, 0.15e-3, 0.1 ) );  /* beside: 0.15 * 1.1 < 0.29 */
	CU_ASSERT( !hyb_policy_spmv_pays_check( &p, 0.27e-3, 0.1 ) ); /* the check alone is too long */
	CU_ASSERT( hyb_policy_spmv_pays_check( &p, -1.0, 0.1 ) );
	p.t_plan = 0.27e-3;
	CU_ASSERT( !hyb_policy_spmv_pays_check( &p, 0.0, 0.1 ) ); /* the margin */
	CU_ASSERT( hyb_policy_spmv_pays_check( &p, 0.0, 0.0 ) );
	p.run = HYB_SPMV_RUN_CPU;
	CU_ASSERT( !hyb_policy_spmv_pays_check( &p, 0.0, 0.0 ) );
}

static void test_rowsplit( void )
{
	int64_t          df[28], occ[27];
	hyb_spmv_stats_t st = tp_stencil( 100, df, occ );
	hyb_spmv_rates_t r;
	hyb_policy_spmv_default_rates( &r );
	double share, prev = 0;
	/* a faster link moves more of the matrix to the device (until the shared host memory
	   bus is the limit), and the time never grows */
	double tprev = INFINITY;
	for ( int staged = 0; staged < 2; staged++ )
	{
		r.h2d_host_traffic = r.d2h_host_traffic = staged ? 3.0 : 1.0;
		prev                                    = 0;
		tprev                                   = INFINITY;
		for ( double bw = 5e9; bw <= 200e9; bw *= 2 )
		{
			r.h2d_bw = bw;
			double t = hyb_policy_spmv_rowsplit( &st, &r, HYB_SPMV_FIRST_CALL, &share );
			CU_ASSERT( share >= prev - 1.0 / 512 && share > 0 && share < 1 );
			CU_ASSERT( t <= tprev * ( 1 + 1e-12 ) );
			if ( bw <= 20e9 ) CU_ASSERT( share > prev ); /* below the bus limit */
			prev  = share;
			tprev = t;
		}
	}
	/* device memory caps the share */
	hyb_policy_spmv_default_rates( &r );
	double csr = (double)st.nnz * 12 + ( (double)st.m + 1 ) * 4;
	r.gpu_mem  = 2.0 * (double)st.m * 8 + 0.1 * csr;
	hyb_policy_spmv_rowsplit( &st, &r, HYB_SPMV_STEADY, &share );
	CU_ASSERT( share <= 0.1 + 1e-12 && share > 0 );
	r.gpu_mem = 1;
	CU_ASSERT( isinf( hyb_policy_spmv_rowsplit( &st, &r, HYB_SPMV_STEADY, &share ) ) );
	/* empty matrix */
	int64_t          zdf[1] = { 10 };
	hyb_spmv_stats_t z      = tp_stats_df( zdf, 0, HYB_PREC_D );
	hyb_spmv_plan_t  plan;
	CU_ASSERT_EQUAL( hyb_policy_spmv_plan( &z, &r, HYB_SPMV_STEADY, &plan ), HYB_OK );
	CU_ASSERT_EQUAL( plan.run, HYB_SPMV_RUN_CPU );
}

/* The measured choice: a device clearly faster than the model's CPU is kept without a
   probe; a device slower than the CPU is measured twice against it and gives the matrix to
   the CPU; a device that wins the probes keeps it; probes interleave with device calls. */
static void test_measured_choice( void )
{
	/* device 10 us against a 1 ms CPU model: kept at once, never probed */
	hyb_spmv_measured_t m = { 0 };
	for ( int i = 0; i < 10; i++ )
	{
		hyb_policy_spmv_note_device( &m, 10e-6, 1e-3 );
		CU_ASSERT_EQUAL( hyb_policy_spmv_take_probe( &m ), 0 );
	}
	CU_ASSERT_EQUAL( m.state, HYB_SPMV_KEEP_DEVICE );
	CU_ASSERT_EQUAL( m.probes, 0 );

	/* device 300 us, CPU model 200 us, CPU measured 220, 180, 230 us: the CPU keeps it */
	hyb_spmv_measured_t c            = { 0 };
	int                 device_calls = 0, probes = 0;
	double              cpu[3] = { 220e-6, 180e-6, 230e-6 };
	for ( int call = 0; call < 40 && c.state == HYB_SPMV_MEASURING; call++ )
	{
		if ( hyb_policy_spmv_take_probe( &c ) )
			hyb_policy_spmv_note_probe( &c, cpu[probes++] );
		else
		{
			hyb_policy_spmv_note_device( &c, call == 0 ? 900e-6 : 300e-6, 200e-6 );
			device_calls++;
		}
	}
	CU_ASSERT_EQUAL( c.state, HYB_SPMV_KEEP_CPU );
	CU_ASSERT_EQUAL( probes, HYB_SPMV_PROBES );
	CU_ASSERT_EQUAL( device_calls, HYB_SPMV_PROBE_AFTER + HYB_SPMV_PROBES - 1 );
	CU_ASSERT_DOUBLE_EQUAL( c.dev_min, 300e-6, 1e-12 );
	CU_ASSERT_DOUBLE_EQUAL( c.cpu_min, 180e-6, 1e-12 );
	CU_ASSERT_EQUAL( hyb_policy_spmv_take_probe( &c ), 0 ); /* settled: no more probes */

	/* device 150 us, CPU measured 160 us: the device keeps it */
	hyb_spmv_measured_t d = { 0 };
	for ( int call = 0; call < 40 && d.state == HYB_SPMV_MEASURING; call++ )
	{
		if ( hyb_policy_spmv_take_probe( &d ) )
			hyb_policy_spmv_note_probe( &d, 160e-6 );
		else
			hyb_policy_spmv_note_device( &d, 150e-6, 200e-6 );
	}
	CU_ASSERT_EQUAL( d.state, HYB_SPMV_KEEP_DEVICE );
	CU_ASSERT_EQUAL( d.probes, HYB_SPMV_PROBES );

	/* measurements that are not times change nothing */
	hyb_spmv_measured_t z = { 0 };
	hyb_policy_spmv_note_device( &z, NAN, 1e-3 );
	hyb_policy_spmv_note_device( &z, -1.0, 1e-3 );
	hyb_policy_spmv_note_probe( &z, 0.0 );
	CU_ASSERT_EQUAL( z.dev_n, 0 );
	CU_ASSERT_EQUAL( z.probes, 0 );
}

static CU_TestInfo hyb_tests_policy_spmv[] = {
	{ "ell_counts_eq4_eq5", test_ell_counts },
	{ "check_stats", test_check_stats },
	{ "predict_by_hand_eq6_eq8", test_predict_by_hand },
	{ "predict_host_threads", test_predict_host_threads },
	{ "algorithm3", test_algorithm3 },
	{ "plan_boundaries", test_plan_boundaries },
	{ "plan_seed_regime", test_plan_seed_regime },
	{ "span_scales", test_span_scales },
	{ "pays_check", test_pays_check },
	{ "rowsplit", test_rowsplit },
	{ "measured_choice", test_measured_choice },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_policy_spmv = {
	"policy_spmv", NULL, NULL, NULL, NULL, hyb_tests_policy_spmv
};
