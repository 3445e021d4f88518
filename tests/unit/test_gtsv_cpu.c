/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU tridiagonal kernels against the real LAPACK dgtsv_/sgtsv_: solutions, factor
   outputs, INFO, and the checks that decide the SPIKE path. */
#include <CUnit/CUnit.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/cpu/hyb_gtsv_cpu.h"
#include "policies/hyb_policy_gtsv.h"
#include "test_gtsv_util.h"

/* First LAPACK step (1-based) that exchanged rows, read from its outputs: a swap at step
   k <= n-2 leaves DL(k) = DU(k+1) (input) instead of 0. 0 if none seen. */
static int64_t tg_first_swap( const tgt_sys_t* s, const double* dl_out )
{
	for ( int64_t i = 0; i + 2 < s->n; i++ )
		if ( dl_out[i] != 0 ) return i + 1;
	return 0;
}

/* LAPACK's first swap step (1-based) by a plain serial replay of its test, 0 if none (it
   also stops at an exact zero pivot, where LAPACK returns). */
static int64_t tg_serial_swap( const tgt_sys_t* s )
{
	double c = s->d[0];
	for ( int64_t i = 0; i + 1 < s->n; i++ )
	{
		if ( fabs( c ) < fabs( s->dl[i] ) ) return i + 1;
		if ( c == 0 ) return 0;
		double f = s->dl[i] / c;
		c        = s->d[i + 1] - f * s->du[i];
	}
	return 0;
}

#define TG_U  ( DBL_EPSILON / 2 )
#define TG_UF ( FLT_EPSILON / 2 )

/* ---------------------------------------------------------------------------------------
   Thomas = LAPACK's no-swap branch.
   --------------------------------------------------------------------------------------- */
static void test_thomas_vs_lapack( void )
{
	static const int64_t ns[] = { 1, 2, 3, 4, 7, 64, 1000 };
	hyb_t_rng_t          rng  = hyb_t_rng( 1 );
	for ( size_t a = 0; a < sizeof ns / sizeof ns[0]; a++ )
		for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
		{
			int64_t   n  = ns[a];
			tgt_sys_t s  = tgt_make( &rng, TGT_COL, n, nrhs, 3, 1.5 );
			tgt_arr_t L  = tgt_lapack( &s, TGT_DOUBLE );
			tgt_arr_t A  = tgt_arrays( &s, TGT_DOUBLE );
			double *  dl = A.dl, *d = A.d, *b = A.b;
			int64_t   info = -5;
			CU_ASSERT_EQUAL( hyb_dgtsv_thomas( n, nrhs, dl, d, s.du, b, s.ldb, &info ), HYB_OK );
			TGT_EXPECT( info == L.info && info == 0, "n=%ld info %ld vs %d\n", (long)n, (long)info,
			            L.info );
			TGT_EXPECT( tgt_reldiff( d, L.d, n, TGT_DOUBLE ) <= 4 * TG_U, "n=%ld D differs\n",
			            (long)n );
			TGT_EXPECT( tgt_same( dl, L.dl, n - 1, TGT_DOUBLE ), "n=%ld DL differs\n", (long)n );
			double bx = tgt_berr( &s, b, TGT_DOUBLE ), bl = tgt_berr( &s, L.b, TGT_DOUBLE );
			TGT_EXPECT( bx <= 10 * fmax( bl, TG_U ), "n=%ld berr %g vs lapack %g\n", (long)n, bx,
			            bl );
			TGT_EXPECT( tgt_pad_ok( &s, b, TGT_DOUBLE ), "padding written\n" );
			tgt_arr_free( &A );
			tgt_arr_free( &L );
			tgt_free( &s );
		}
}

/* ---------------------------------------------------------------------------------------
   SPIKE against LAPACK: X, factors, untouched padding; several n, nrhs, kinds, dominance.
   --------------------------------------------------------------------------------------- */
static void tg_spike_case( hyb_t_rng_t* rng, int kind, int64_t n, int64_t nrhs, double dom,
                           int nthreads )
{
	tgt_sys_t        s = tgt_make( rng, kind, n, nrhs, 2, dom );
	hyb_gtsv_check_t chk;
	CU_ASSERT_EQUAL( hyb_dgtsv_check( n, s.dl, s.d, s.du, HYB_GTSV_WINDOW_MAX, nthreads, &chk ),
	                 HYB_OK );
	int64_t m    = 0;
	int     plan = (int)hyb_policy_gtsv_choose( chk.dom_row, chk.dom_col, chk.pivot, chk.info,
	                                            chk.nonfinite, HYB_PREC_D, 0, &m );
	TGT_EXPECT( plan != HYB_GTSV_PLAN_LAPACK && m >= 1,
	            "kind %d n=%ld: plan %d dom %g/%g piv %ld\n", kind, (long)n, plan, chk.dom_row,
	            chk.dom_col, (long)chk.pivot );
	if ( m < 1 ) m = HYB_GTSV_WINDOW_MAX;

	tgt_arr_t L = tgt_lapack( &s, TGT_DOUBLE ), A = tgt_arrays( &s, TGT_DOUBLE );
	double *  dl = A.dl, *d = A.d, *du = A.du, *b = A.b;
	CU_ASSERT_EQUAL(
	    hyb_dgtsv_cpu_spike( n, nrhs, dl, d, du, b, s.ldb, m, nthreads, HYB_GTSV_FACTORS ),
	    HYB_OK );
	CU_ASSERT_EQUAL( L.info, 0 );
	double bx = tgt_berr( &s, b, TGT_DOUBLE ), bl = tgt_berr( &s, L.b, TGT_DOUBLE );
	TGT_EXPECT( bx <= 10 * fmax( bl, TG_U ),
	            "kind %d n=%ld nrhs=%ld dom %g thr %d: berr %g vs %g\n", kind, (long)n, (long)nrhs,
	            dom, nthreads, bx, bl );
	TGT_EXPECT( tgt_pad_ok( &s, b, TGT_DOUBLE ), "padding written\n" );
	TGT_EXPECT( tgt_same( du, s.du, n - 1, TGT_DOUBLE ), "DU written\n" );
	if ( chk.pivot == 0 )
	{
		TGT_EXPECT( tg_first_swap( &s, L.dl ) == 0, "check missed a swap\n" );
		TGT_EXPECT( tgt_reldiff( d, L.d, n, TGT_DOUBLE ) <= 8 * TG_U,
		            "kind %d n=%ld: D differs by %g ulp\n", kind, (long)n,
		            tgt_reldiff( d, L.d, n, TGT_DOUBLE ) / TG_U );
		TGT_EXPECT( tgt_same( dl, L.dl, n - 1, TGT_DOUBLE ), "kind %d n=%ld: DL differs\n", kind,
		            (long)n );
		TGT_EXPECT( tgt_same( du, L.du, n - 1, TGT_DOUBLE ), "DU differs from LAPACK's\n" );
	}
	else
	{
		/* The replay and LAPACK's own output agree (a last-step swap leaves no trace in DL). */
		int64_t sw = tg_serial_swap( &s );
		TGT_EXPECT( chk.pivot == sw, "pivot %ld vs serial %ld\n", (long)chk.pivot, (long)sw );
		TGT_EXPECT( sw == n - 1 || sw == tg_first_swap( &s, L.dl ), "replay %ld vs LAPACK %ld\n",
		            (long)sw, (long)tg_first_swap( &s, L.dl ) );
	}

	/* Solve-only leaves dl and d alone and gives the same quality. */
	memcpy( dl, s.dl, (size_t)( n - 1 > 0 ? n - 1 : 0 ) * sizeof( double ) );
	memcpy( d, s.d, (size_t)n * sizeof( double ) );
	memcpy( b, s.b, (size_t)( s.ldb * nrhs ) * sizeof( double ) );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( n, nrhs, dl, d, du, b, s.ldb, m, nthreads, 0 ), HYB_OK );
	TGT_EXPECT( tgt_same( dl, s.dl, n - 1, TGT_DOUBLE ) && tgt_same( d, s.d, n, TGT_DOUBLE ),
	            "solve-only wrote dl/d\n" );
	bx = tgt_berr( &s, b, TGT_DOUBLE );
	TGT_EXPECT( bx <= 10 * fmax( bl, TG_U ), "solve-only berr %g vs %g\n", bx, bl );

	tgt_arr_free( &A );
	tgt_arr_free( &L );
	tgt_free( &s );
}

/* Seed 13's stream includes row-dominant systems whose first LAPACK swap is the last step
   (n = 2 and 3), the case that leaves no trace in DL. */
static void test_spike_vs_lapack( void )
{
	static const int64_t ns[]   = { 1, 2, 3, 5, 100, 1000, 20011, 100003 };
	static const double  doms[] = { 1.05, 2.0, 10.0 };
	hyb_t_rng_t          rng    = hyb_t_rng( 13 );
	int                  thr    = 1;
	for ( int kind = TGT_ROW; kind <= TGT_COL; kind++ )
		for ( size_t a = 0; a < sizeof ns / sizeof ns[0]; a++ )
			for ( size_t k = 0; k < sizeof doms / sizeof doms[0]; k++ )
				for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
				{
					tg_spike_case( &rng, kind, ns[a], nrhs, doms[k], thr );
					thr = thr % 3 + 1;
				}
}

/* Sizes where a partition ends only a few rows after its last block boundary, so that the
   UL look-ahead of that block reaches the partition end and must use the seam there. This
   is white-box: with one thread, dom 1.05 (m = 782) and nrhs 1, hyb_gtsv_cpu.c uses 8
   partitions, blocks of 8m = 6256 rows, and skews the first seven boundaries so that
   partitions 0..6 have n/8 + 72 rows: n = 49472 + 8r gives r rows after the block
   boundary. (If the layout changes these stay valid tests, only less pointed; as they are,
   they catch the mutation "drop x(hi) in the look-ahead".) */
_Static_assert( HYB_GTSV_LANES == 8, "test_spike_block_edges assumes 8 lanes: update its sizes" );

static void test_spike_block_edges( void )
{
	hyb_t_rng_t rng = hyb_t_rng( 9 );
	for ( int64_t r = 1; r <= 24; r++ )
		tg_spike_case( &rng, r % 2 ? TGT_ROW : TGT_COL, 49472 + 8 * r, 1, 1.05, 1 );
}

static void test_spike_rowswap_and_noswap( void )
{
	hyb_t_rng_t rng = hyb_t_rng( 3 );
	/* Row dominant with LAPACK swaps: X still LAPACK's quality; pivot found. */
	tg_spike_case( &rng, TGT_ROWSWAP, 50000, 1, 1.2, 2 );
	tg_spike_case( &rng, TGT_ROWSWAP, 777, 3, 3.0, 3 );
	/* Row dominant, not column dominant, no swap: factors compared too. The premise is
	   checked on the matrix that the first case then solves (the same stream). */
	rng                = hyb_t_rng( 30 );
	tgt_sys_t        s = tgt_make( &rng, TGT_ROWNOSWAP, 60000, 1, 0, 1.5 );
	hyb_gtsv_check_t chk;
	hyb_dgtsv_check( s.n, s.dl, s.d, s.du, HYB_GTSV_WINDOW_MAX, 2, &chk );
	TGT_EXPECT( chk.dom_col < 1 && chk.dom_row >= 1.5 && chk.pivot == 0,
	            "premise: dom %g/%g pivot %ld\n", chk.dom_row, chk.dom_col, (long)chk.pivot );
	tgt_free( &s );
	rng = hyb_t_rng( 30 );
	tg_spike_case( &rng, TGT_ROWNOSWAP, 60000, 1, 1.5, 2 );
	tg_spike_case( &rng, TGT_ROWNOSWAP, 60000, 3, 1.5, 3 );
}

/* ---------------------------------------------------------------------------------------
   Single precision against sgtsv_.
   --------------------------------------------------------------------------------------- */
static void test_spike_float( void )
{
	static const int64_t ns[]   = { 1, 2, 3, 999, 30011 };
	static const double  doms[] = { 1.05, 3.0 };
	hyb_t_rng_t          rng    = hyb_t_rng( 4 );
	for ( int kind = TGT_ROW; kind <= TGT_COL; kind++ )
		for ( size_t a = 0; a < sizeof ns / sizeof ns[0]; a++ )
			for ( size_t k = 0; k < 2; k++ )
				for ( int64_t nrhs = 1; nrhs <= 3; nrhs += 2 )
				{
					int64_t   n = ns[a];
					tgt_sys_t s = tgt_make( &rng, kind, n, nrhs, 1, doms[k] );
					/* Working copies of SPIKE (A), sgtsv_ (L) and Thomas (T). */
					tgt_arr_t A = tgt_arrays( &s, TGT_SINGLE ), T = tgt_arrays( &s, TGT_SINGLE );
					tgt_arr_t L = tgt_lapack( &s, TGT_SINGLE );
					CU_ASSERT_EQUAL( L.info, 0 );

					hyb_gtsv_check_t chk;
					hyb_sgtsv_check( n, A.dl, A.d, A.du, HYB_GTSV_WINDOW_MAX, 2, &chk );
					int64_t m = 0;
					hyb_policy_gtsv_choose( chk.dom_row, chk.dom_col, chk.pivot, chk.info,
					                        chk.nonfinite, HYB_PREC_S, 0, &m );
					TGT_EXPECT( m >= 1, "float window\n" );
					CU_ASSERT_EQUAL( hyb_sgtsv_cpu_spike( n, nrhs, A.dl, A.d, A.du, A.b, s.ldb, m,
					                                      2, HYB_GTSV_FACTORS ),
					                 HYB_OK );
					double bx = tgt_berr( &s, A.b, TGT_SINGLE ),
					       bl = tgt_berr( &s, L.b, TGT_SINGLE );
					TGT_EXPECT( bx <= 10 * fmax( bl, TG_UF ), "float n=%ld: berr %g vs %g\n",
					            (long)n, bx, bl );
					if ( chk.pivot == 0 )
						TGT_EXPECT( tgt_reldiff( A.d, L.d, n, TGT_SINGLE ) <= 8 * TG_UF &&
						                tgt_same( A.dl, L.dl, n - 1, TGT_SINGLE ),
						            "float factors differ n=%ld\n", (long)n );
					/* Thomas in float = sgtsv_ where it does not swap. */
					int64_t tinfo = -1;
					hyb_sgtsv_thomas( n, nrhs, T.dl, T.d, T.du, T.b, s.ldb, &tinfo );
					CU_ASSERT_EQUAL( tinfo, 0 );
					if ( chk.pivot == 0 )
					{
						double bt = tgt_berr( &s, T.b, TGT_SINGLE );
						TGT_EXPECT( bt <= 10 * fmax( bl, TG_UF ), "float thomas berr %g\n", bt );
					}
					tgt_arr_free( &A );
					tgt_arr_free( &L );
					tgt_arr_free( &T );
					tgt_free( &s );
				}
}

/* ---------------------------------------------------------------------------------------
   The checks flag what they must.
   --------------------------------------------------------------------------------------- */
static void test_check_flags( void )
{
	hyb_gtsv_check_t c;
	hyb_t_rng_t      rng = hyb_t_rng( 5 );

	/* Column dominant: no pivot by proof, and LAPACK agrees. */
	tgt_sys_t s = tgt_make( &rng, TGT_COL, 40000, 1, 0, 1.1 );
	tgt_arr_t L = tgt_lapack( &s, TGT_DOUBLE );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 1000, 3, &c ), HYB_OK );
	TGT_EXPECT( c.dom_col >= 1.1 && c.pivot == 0 && c.info == 0 && !c.nonfinite,
	            "col: %g %ld %ld\n", c.dom_col, (long)c.pivot, (long)c.info );
	TGT_EXPECT( tg_first_swap( &s, L.dl ) == 0, "premise\n" );
	tgt_arr_free( &L );
	tgt_free( &s );

	/* Row dominant, first swap deep inside, at a trap that only a warm restart of the
	   recurrence gets right: rows t-2 .. t+1 crafted so that d'[t-1] = 0.875 (a cold
	   restart there would take d[t-1] = 2) and LAPACK's test fails at row t with the true
	   d'[t] = 0.89786 < |dl[t]| = 0.902, but would pass with the cold 0.9075. The rows
	   before are row and column dominant, those after of the TGT_ROWSWAP kind. The trap is
	   moved over 512 consecutive rows, so it meets the start of a partition wherever the
	   implementation puts one (80000 rows, warm 1000, 2 threads: ten partitions, one
	   starting in [56000, 56512)); each position must give the serial replay's answer. */
	s = tgt_make( &rng, TGT_BOTH, 80000, 1, 0, 1.3 );
	{
		tgt_sys_t t = tgt_make( &rng, TGT_ROWSWAP, 80000, 1, 0, 1.3 );
		for ( int64_t i = 57000; i < s.n; i++ )
		{
			s.d[i] = t.d[i];
			if ( i + 1 < s.n )
			{
				s.dl[i] = t.dl[i];
				s.du[i] = t.du[i];
			}
		}
		s.d[57000] = 1.3 * ( fabs( s.dl[56999] ) + fabs( s.du[57000] ) ) + 0.01;
		tgt_free( &t );
	}
	int trap_ok = 1;
	for ( int64_t t = 56000; t < 56512; t++ )
	{
		double sd[5], sl[4], su[4];
		for ( int k = 0; k < 5; k++ ) sd[k] = s.d[t - 3 + k];
		for ( int k = 0; k < 4; k++ )
		{
			sl[k] = s.dl[t - 3 + k];
			su[k] = s.du[t - 3 + k];
		}
		s.dl[t - 3] = 0; /* d'[t-2] = d[t-2] exactly */
		s.d[t - 2]  = 2;
		s.dl[t - 2] = 1.5;
		s.du[t - 2] = 1.5;
		s.d[t - 1]  = 2; /* d'[t-1] = 2 - 1.5 * 1.5 / 2 = 0.875 */
		s.dl[t - 1] = 0.5;
		s.du[t - 1] = 0.03;
		s.d[t]      = 0.915; /* d'[t] = 0.89786 < |dl[t]| = 0.902 < 0.9075 (cold) */
		s.dl[t]     = 0.902;
		s.du[t]     = 0.2;
		s.d[t + 1]  = 1.3 * ( 0.902 + fabs( s.du[t + 1] ) ) + 0.01;
		CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 1000, 2, &c ), HYB_OK );
		int64_t serial = tg_serial_swap( &s );
		if ( c.pivot != serial || serial != t + 1 || !( c.dom_row >= 1.3 ) || !( c.dom_col < 1 ) )
		{
			if ( trap_ok )
				fprintf( stderr, "\n  trap at %ld: pivot %ld serial %ld dom %g/%g\n", (long)t,
				         (long)c.pivot, (long)serial, c.dom_row, c.dom_col );
			trap_ok = 0;
		}
		if ( t == 56000 )
		{
			L = tgt_lapack( &s, TGT_DOUBLE );
			TGT_EXPECT( tg_first_swap( &s, L.dl ) == t + 1, "LAPACK's first swap %ld\n",
			            (long)tg_first_swap( &s, L.dl ) );
			tgt_arr_free( &L );
		}
		for ( int k = 0; k < 5; k++ ) s.d[t - 3 + k] = sd[k];
		for ( int k = 0; k < 4; k++ )
		{
			s.dl[t - 3 + k] = sl[k];
			s.du[t - 3 + k] = su[k];
		}
	}
	CU_ASSERT( trap_ok );
	tgt_free( &s );

	/* Not dominant: flagged; pivot/info either undetermined or LAPACK's. */
	s = tgt_make( &rng, TGT_ROW, 30000, 1, 0, 0.6 );
	L = tgt_lapack( &s, TGT_DOUBLE );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 1000, 2, &c ), HYB_OK );
	TGT_EXPECT( c.dom_row < 1 && c.dom_col < 1, "nondominant: %g %g\n", c.dom_row, c.dom_col );
	TGT_EXPECT( c.pivot == -1 || c.pivot == tg_first_swap( &s, L.dl ), "nondominant pivot %ld\n",
	            (long)c.pivot );
	TGT_EXPECT( hyb_policy_gtsv_choose( c.dom_row, c.dom_col, c.pivot, c.info, c.nonfinite,
	                                    HYB_PREC_D, 0, NULL ) == HYB_GTSV_PLAN_LAPACK,
	            "nondominant must go to LAPACK\n" );
	tgt_arr_free( &L );
	tgt_free( &s );

	/* Non-finite entries. */
	s          = tgt_make( &rng, TGT_COL, 5000, 1, 0, 2.0 );
	double d17 = s.d[17];
	s.d[17]    = NAN;
	CU_ASSERT_EQUAL( hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 100, 2, &c ), HYB_OK );
	TGT_EXPECT( c.nonfinite && c.dom_row == 0 && c.pivot == -1, "nan not flagged\n" );
	s.d[17]       = d17;
	double keep   = s.du[s.n - 2];
	s.du[s.n - 2] = INFINITY;
	hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 100, 2, &c );
	TGT_EXPECT( c.nonfinite, "inf not flagged\n" );
	s.du[s.n - 2] = keep;
	/* B is read by the _rhs variant only; the matrix's facts stand beside the flag */
	s.b[4000] = NAN;
	hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 100, 2, &c );
	TGT_EXPECT( !c.nonfinite, "B read by the matrix-only check\n" );
	CU_ASSERT_EQUAL( hyb_dgtsv_check_rhs( s.n, s.dl, s.d, s.du, 1, s.b, s.ldb, 100, 2, &c ),
	                 HYB_OK );
	TGT_EXPECT( c.nonfinite && c.dom_col > 1 && c.pivot == 0, "nan in B: nonfinite %d dom_col %g\n",
	            c.nonfinite, c.dom_col );
	s.b[4000] = 1;
	CU_ASSERT_EQUAL( hyb_dgtsv_check_rhs( s.n, s.dl, s.d, s.du, 1, s.b, s.ldb, 100, 2, &c ),
	                 HYB_OK );
	TGT_EXPECT( !c.nonfinite, "finite B flagged\n" );
	/* An all-zero column past the first rows (the minimum is finite there): dominance 0,
	   not the skipped 0 >= min * 0 */
	s.d[3000] = s.du[2999] = s.dl[3000] = 0;
	hyb_dgtsv_check( s.n, s.dl, s.d, s.du, 100, 2, &c );
	TGT_EXPECT( c.dom_col == 0 && c.dom_row == 0, "zero column: dom_col %g dom_row %g\n", c.dom_col,
	            c.dom_row );
	tgt_free( &s );

	/* n = 1 and n = 0. */
	double one = 3, zero = 0;
	hyb_dgtsv_check( 1, NULL, &one, NULL, 10, 1, &c );
	TGT_EXPECT( isinf( c.dom_row ) && c.pivot == 0 && c.info == 0, "n=1\n" );
	hyb_dgtsv_check( 1, NULL, &zero, NULL, 10, 1, &c );
	TGT_EXPECT( c.dom_row == 0 && c.info == 1, "n=1 singular: info %ld\n", (long)c.info );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( 0, NULL, NULL, NULL, 10, 1, &c ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dgtsv_check( -1, NULL, NULL, NULL, 10, 1, &c ), HYB_E_INVALID );
}

/* ---------------------------------------------------------------------------------------
   INFO on exactly singular no-pivot systems: check, Thomas, factors against LAPACK.
   --------------------------------------------------------------------------------------- */
static void tg_singular_case( int64_t n, int64_t k )
{
	hyb_t_rng_t rng = hyb_t_rng( 6 + (uint64_t)k );
	tgt_sys_t   s   = tgt_make( &rng, TGT_COL, n, 2, 1, 2.0 );
	/* Row k: no coupling from above (dl[k-1] = 0, so d'[k] = d[k] exactly), d[k] = 0,
	   dl[k] = 0 so that LAPACK's test keeps the rows and finds U(k+1,k+1) = 0. */
	if ( k >= 1 ) s.dl[k - 1] = 0;
	s.d[k] = 0;
	if ( k + 1 < n ) s.dl[k] = 0;
	tgt_arr_t L = tgt_lapack( &s, TGT_DOUBLE );
	TGT_EXPECT( L.info == k + 1, "premise: LAPACK info %d, expected %ld\n", L.info, (long)k + 1 );

	hyb_gtsv_check_t c;
	hyb_dgtsv_check( n, s.dl, s.d, s.du, 100, 2, &c );
	TGT_EXPECT( c.info == k + 1 || c.info == -1, "check info %ld\n", (long)c.info );
	if ( n <= 1024 )
		TGT_EXPECT( c.info == k + 1, "exact partition must find it: %ld\n", (long)c.info );
	TGT_EXPECT( hyb_policy_gtsv_choose( c.dom_row, c.dom_col, c.pivot, c.info, c.nonfinite,
	                                    HYB_PREC_D, 0, NULL ) == HYB_GTSV_PLAN_LAPACK,
	            "singular must go to LAPACK\n" );

	/* Thomas stops exactly where LAPACK stops, with the same partial outputs. */
	tgt_arr_t A  = tgt_arrays( &s, TGT_DOUBLE );
	double *  dl = A.dl, *d = A.d, *b = A.b;
	int64_t   info = 0;
	hyb_dgtsv_thomas( n, 2, dl, d, s.du, b, s.ldb, &info );
	TGT_EXPECT( info == L.info, "thomas info %ld vs %d\n", (long)info, L.info );
	TGT_EXPECT( tgt_same( dl, L.dl, n - 1, TGT_DOUBLE ) && tgt_same( d, L.d, n, TGT_DOUBLE ) &&
	                tgt_same( b, L.b, s.ldb * 2, TGT_DOUBLE ),
	            "thomas partial state differs from LAPACK's\n" );

	/* The parallel factors report LAPACK's INFO. */
	memcpy( dl, s.dl, (size_t)( n - 1 ) * sizeof( double ) );
	memcpy( d, s.d, (size_t)n * sizeof( double ) );
	info = 0;
	hyb_dgtsv_factors( n, dl, d, s.du, 100, 3, &info );
	TGT_EXPECT( info == L.info, "factors info %ld vs %d\n", (long)info, L.info );
	tgt_arr_free( &A );
	tgt_arr_free( &L );
	tgt_free( &s );
}

static void test_singular_info( void )
{
	tg_singular_case( 10, 0 );
	tg_singular_case( 10, 4 );
	tg_singular_case( 10, 9 );
	tg_singular_case( 1000, 500 );
	tg_singular_case( 200000, 150001 );
}

/* ---------------------------------------------------------------------------------------
   The parallel d' recurrence (restarted `warm` rows early) against the serial one.
   --------------------------------------------------------------------------------------- */
static void test_factors_parallel( void )
{
	static const double doms[] = { 1.05, 1.2, 2.0 };
	hyb_t_rng_t         rng    = hyb_t_rng( 7 );
	for ( int kind = TGT_COL; kind <= TGT_ROWNOSWAP; kind += TGT_ROWNOSWAP - TGT_COL )
		for ( size_t k = 0; k < 3; k++ )
		{
			tgt_sys_t        s = tgt_make( &rng, kind, 300007, 1, 0, doms[k] );
			int64_t          m = hyb_policy_gtsv_window( doms[k], HYB_PREC_D );
			hyb_gtsv_check_t c;
			hyb_dgtsv_check( s.n, s.dl, s.d, s.du, m, 2, &c );
			if ( c.pivot != 0 ) /* TGT_ROWNOSWAP at weak dominance may swap: skip */
			{
				tgt_free( &s );
				continue;
			}
			tgt_arr_t L = tgt_lapack( &s, TGT_DOUBLE ), A = tgt_arrays( &s, TGT_DOUBLE );
			double *  dl = A.dl, *d = A.d;
			int64_t   info = -1;
			CU_ASSERT_EQUAL( hyb_dgtsv_factors( s.n, dl, d, s.du, m, 3, &info ), HYB_OK );
			CU_ASSERT_EQUAL( info, 0 );
			double rd = tgt_reldiff( d, L.d, s.n, TGT_DOUBLE );
			TGT_EXPECT( rd <= 4 * TG_U, "kind %d dom %g: parallel d' off by %g ulp\n", kind,
			            doms[k], rd / TG_U );
			TGT_EXPECT( tgt_same( dl, L.dl, s.n - 1, TGT_DOUBLE ), "DL differs\n" );
			tgt_arr_free( &A );
			tgt_arr_free( &L );
			tgt_free( &s );
		}
}

/* ---------------------------------------------------------------------------------------
   Seams and ranges: the pieces the heterogeneous solver stitches with.
   --------------------------------------------------------------------------------------- */
static void test_seam_and_ranges( void )
{
	hyb_t_rng_t   rng = hyb_t_rng( 8 );
	const int64_t n = 50000, nrhs = 2;
	tgt_sys_t     s  = tgt_make( &rng, TGT_COL, n, nrhs, 1, 1.5 );
	int64_t       m  = hyb_policy_gtsv_window( 1.5, HYB_PREC_D );
	tgt_arr_t     L  = tgt_lapack( &s, TGT_DOUBLE );
	const double *Ld = L.d, *Lb = L.b;
	double        xn       = 0;
	int64_t       xn_dummy = 0;
	for ( int64_t i = 0; i < n; i++ ) xn = fmax( xn, fabs( Lb[i] ) );

	/* Seam values equal LAPACK's x to rounding; rec[0] is LAPACK's D(s-1). */
	const int64_t cut[4] = { 0, 17000, 33001, n };
	double        rec[2][5];
	for ( int k = 1; k <= 2; k++ )
	{
		int64_t sr = cut[k];
		CU_ASSERT_EQUAL( hyb_dgtsv_seam( n, sr, nrhs, s.dl, s.d, s.du, s.b, s.ldb, m, rec[k - 1] ),
		                 HYB_OK );
		TGT_EXPECT( fabs( rec[k - 1][0] - Ld[sr - 1] ) <= 4 * TG_U * fabs( Ld[sr - 1] ),
		            "seam pivot\n" );
		for ( int64_t j = 0; j < nrhs; j++ )
		{
			double xp = rec[k - 1][1 + j], xq = rec[k - 1][1 + nrhs + j];
			TGT_EXPECT( fabs( xp - Lb[j * s.ldb + sr - 1] ) <= 64 * TG_U * xn &&
			                fabs( xq - Lb[j * s.ldb + sr] ) <= 64 * TG_U * xn,
			            "seam x off: %g %g\n", xp - Lb[j * s.ldb + sr - 1],
			            xq - Lb[j * s.ldb + sr] );
		}
	}
	CU_ASSERT_EQUAL( hyb_dgtsv_seam( n, 0, nrhs, s.dl, s.d, s.du, s.b, s.ldb, m, rec[0] ),
	                 HYB_E_INVALID );

	/* Three ranges, solved one after the other (as three devices would, concurrently). */
	tgt_arr_t A  = tgt_arrays( &s, TGT_DOUBLE );
	double *  dl = A.dl, *d = A.d, *b = A.b;
	for ( int k = 0; k < 3; k++ )
	{
		const double* top = k > 0 ? rec[k - 1] : NULL;
		const double* bot = k < 2 ? rec[k] : NULL;
		CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike_range( n, cut[k], cut[k + 1], nrhs, dl, d, s.du, b,
		                                            s.ldb, top, bot, m, 2, HYB_GTSV_FACTORS ),
		                 HYB_OK );
	}
	double bx = tgt_berr( &s, b, TGT_DOUBLE ), bl = tgt_berr( &s, L.b, TGT_DOUBLE );
	TGT_EXPECT( bx <= 10 * fmax( bl, TG_U ), "ranges berr %g vs %g\n", bx, bl );
	TGT_EXPECT( tgt_reldiff( d, L.d, n, TGT_DOUBLE ) <= 8 * TG_U &&
	                tgt_same( dl, L.dl, n - 1, TGT_DOUBLE ),
	            "range factors\n" );
	CU_ASSERT_EQUAL(
	    hyb_dgtsv_cpu_spike_range( n, 5, 10, nrhs, dl, d, s.du, b, s.ldb, NULL, rec[0], m, 1, 0 ),
	    HYB_E_INVALID );

	/* Factors of ranges (the rows a device solved): the same as LAPACK's. */
	memcpy( dl, s.dl, (size_t)( n - 1 ) * sizeof( double ) );
	memcpy( d, s.d, (size_t)n * sizeof( double ) );
	for ( int k = 2; k >= 0; k-- ) /* any order */
	{
		int64_t info = -1;
		CU_ASSERT_EQUAL( hyb_dgtsv_factors_range( n, cut[k], cut[k + 1], dl, d, s.du,
		                                          k > 0 ? rec[k - 1] : NULL, m, 2, &info ),
		                 HYB_OK );
		CU_ASSERT_EQUAL( info, 0 );
	}
	TGT_EXPECT( tgt_reldiff( d, L.d, n, TGT_DOUBLE ) <= 4 * TG_U &&
	                tgt_same( dl, L.dl, n - 1, TGT_DOUBLE ),
	            "factors_range\n" );
	CU_ASSERT_EQUAL( hyb_dgtsv_factors_range( n, 5, 10, dl, d, s.du, NULL, m, 1, &xn_dummy ),
	                 HYB_E_INVALID );
	tgt_arr_free( &A );
	tgt_arr_free( &L );
	tgt_free( &s );
}

/* ---------------------------------------------------------------------------------------
   Argument checks leave everything untouched; nrhs = 0 still writes the factors (LAPACK).
   --------------------------------------------------------------------------------------- */
static void test_args( void )
{
	double  dl[2] = { 1, 1 }, d[3] = { 4, 4, 4 }, du[2] = { 1, 1 }, b[3] = { 1, 2, 3 };
	int64_t info = 0;
	CU_ASSERT_EQUAL( hyb_dgtsv_thomas( 3, 1, dl, d, du, b, 2, &info ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_thomas( -1, 1, dl, d, du, b, 3, &info ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, 1, dl, d, du, b, 3, 0, 1, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, -1, dl, d, du, b, 3, 5, 1, 0 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, 1, NULL, d, du, b, 3, 5, 1, 0 ), HYB_E_INVALID );
	CU_ASSERT( d[0] == 4 && b[0] == 1 && dl[0] == 1 );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 0, 1, NULL, NULL, NULL, NULL, 1, 5, 1, 0 ), HYB_OK );

	/* nrhs = 0: LAPACK still factors; so does the SPIKE path with HYB_GTSV_FACTORS. (dgtsv.f's
	   back substitution also runs once on B(:,1) when NRHS = 0, so Lb has n entries; hyblas
	   does not write B then: dispatch should forward NRHS = 0 to LAPACK.) */
	double Ldl[2] = { 1, 1 }, Ld[3] = { 4, 4, 4 }, Ldu[2] = { 1, 1 }, Lb[3] = { 0, 0, 0 };
	int    n = 3, nrhs = 0, ldb = 3, linfo = -1;
	dgtsv_( &n, &nrhs, Ldl, Ld, Ldu, Lb, &ldb, &linfo );
	CU_ASSERT_EQUAL( hyb_dgtsv_cpu_spike( 3, 0, dl, d, du, NULL, 3, 5, 1, HYB_GTSV_FACTORS ),
	                 HYB_OK );
	CU_ASSERT( tgt_reldiff( d, Ld, 3, TGT_DOUBLE ) <= 4 * TG_U &&
	           tgt_same( dl, Ldl, 2, TGT_DOUBLE ) );
}

static int tg_init( void )
{
	tgt_fails = 0;
	return 0;
}

static CU_TestInfo hyb_tests_gtsv_cpu[] = {
	{ "thomas_vs_lapack", test_thomas_vs_lapack },
	{ "spike_vs_lapack", test_spike_vs_lapack },
	{ "spike_block_edges", test_spike_block_edges },
	{ "spike_rowswap_and_noswap", test_spike_rowswap_and_noswap },
	{ "spike_float", test_spike_float },
	{ "check_flags", test_check_flags },
	{ "singular_info", test_singular_info },
	{ "factors_parallel", test_factors_parallel },
	{ "seam_and_ranges", test_seam_and_ranges },
	{ "args", test_args },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_gtsv_cpu = { "gtsv_cpu", tg_init, NULL, NULL, NULL, hyb_tests_gtsv_cpu };
