/* SPDX-License-Identifier: BSD-3-Clause */
/* The level-3 policy (policies/hyb_policy_l3) as pure functions at their
   boundaries, and the refit of its inputs (policies/hyb_refit): properties
   that hold whatever the tuning (never exact tiles or times). */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/hyb_l3_check.h"
#include "hyb_test_util.h"
#include "policies/hyb_policy_l3.h"
#include "policies/hyb_refit.h"

static int tri( hyb_op_t op )
{
	return op == HYB_OP_TRSM || op == HYB_OP_TRMM;
}

/* A valid normalized call (no data: the policy never reads it). */
static hyb_l3_args_t mk( hyb_t_rng_t* r, hyb_op_t op, hyb_prec_t p, int64_t m, int64_t n,
                         int64_t k )
{
	hyb_l3_args_t a = { .op     = op,
		                .prec   = p,
		                .layout = 'C',
		                .m      = m,
		                .n      = n,
		                .k      = k,
		                .alpha  = { 1, 0 },
		                .beta   = { 1, 0 } };
	hyb_t_random_options( r, op, p, &a.side, &a.uplo, &a.transa, &a.transb, &a.diag );
	if ( hyb_op_is_rank_k( op ) ) a.m = 0;
	if ( !( op == HYB_OP_GEMM || hyb_op_is_rank_k( op ) ) ) a.k = 0;
	if ( op != HYB_OP_GEMM ) a.transb = 0;
	if ( hyb_t_int( r, 0, 1 ) ) a.beta[0] = 0;
	int64_t big = m > n ? m : n;
	big         = big > k ? big : k;
	a.lda = a.ldb = a.ldc = big;
	return a;
}

static hyb_prec_t prec_for( hyb_op_t op, hyb_t_rng_t* r )
{
	if ( hyb_op_is_complex_only( op ) ) return (hyb_prec_t)hyb_t_int( r, 2, 3 );
	return (hyb_prec_t)hyb_t_int( r, 0, 3 );
}

static hyb_l3_policy_in_t base_in( void )
{
	hyb_l3_policy_in_t in = { .mode      = HYB_MODE_AUTO,
		                      .ndev      = 1,
		                      .budget    = 80e9,
		                      .tile      = 0,
		                      .cpu_ratio = -1,
		                      .staging   = HYB_STAGING_AUTO,
		                      .beta_host = 1,
		                      .min_flops = 2e8,
		                      .gpu_scale = 1,
		                      .cpu_rate  = 0 };
	return in;
}

static int64_t out_rows( const hyb_l3_args_t* a )
{
	return hyb_op_is_rank_k( a->op ) ? a->n : a->m;
}

/* The memory the plan's tiles need on one device, bytes. */
static double tile_need( const hyb_l3_args_t* a, int64_t Tm, int64_t Tn, int64_t K )
{
	double es = (double)hyb_prec_size( a->prec );
	if ( tri( a->op ) )
	{
		double d = (double)( a->side == 'L' ? a->m : a->n ),
		       t = (double)( a->side == 'L' ? Tn : Tm );
		return d * d * es + 3 * ( a->op == HYB_OP_TRMM ? 2 : 1 ) * d * t * es;
	}
	double edge = (double)( Tm > Tn ? Tm : Tn );
	return 3.0 * (double)Tm * (double)Tn * es + 2.0 * edge * (double)K * es;
}

/* Tiles are within the output and the inner dimension, and fit. */
static int tiles_ok( const hyb_l3_args_t* a, double budget, int64_t Tm, int64_t Tn, int64_t K )
{
	int64_t kdim = a->op == HYB_OP_GEMM        ? a->k
	               : hyb_op_is_rank_k( a->op ) ? a->k
	               : a->side == 'L'            ? a->m
	                                           : a->n;
	if ( Tm < 1 || Tn < 1 || K < 1 ) return 0;
	if ( Tm > out_rows( a ) || Tn > a->n ) return 0;
	if ( tri( a->op ) ? K != kdim : K > kdim ) return 0;
	if ( hyb_op_is_rank_k( a->op ) && Tm != Tn ) return 0;
	if ( tri( a->op ) && ( a->side == 'L' ? Tm != a->m : Tn != a->n ) ) return 0; /* whole panels */
	return tile_need( a, Tm, Tn, K ) <= budget;
}

/* ------------------------------------------------------------------ plans */

static void test_mode_cpu_and_no_device( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 600 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int it = 0; it < 20; it++ )
		{
			int64_t       s = hyb_t_int( &r, 1, 40000 );
			hyb_l3_args_t a = mk( &r, hyb_t_l3_ops[o], prec_for( hyb_t_l3_ops[o], &r ), s, s, s );
			hyb_l3_policy_in_t in = base_in();
			in.mode               = HYB_MODE_CPU;
			hyb_l3_plan_t plan    = hyb_policy_l3_choose( &a, &p, &in );
			CU_ASSERT_EQUAL( plan.path, HYB_PATH_CPU );
			CU_ASSERT_EQUAL( plan.t_plan, plan.t_cpu );
			CU_ASSERT( plan.cpu_cols == 0 && plan.cpu_rows == 0 );
			CU_ASSERT( plan.why != NULL );
			/* No device: the CPU whatever the mode. */
			for ( int mode = HYB_MODE_AUTO; mode <= HYB_MODE_GPU; mode++ )
			{
				in      = base_in();
				in.mode = (hyb_mode_t)mode;
				in.ndev = 0;
				plan    = hyb_policy_l3_choose( &a, &p, &in );
				CU_ASSERT_EQUAL( plan.path, HYB_PATH_CPU );
			}
		}
}

static void test_min_flops( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 601 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int it = 0; it < 20; it++ )
		{
			int64_t       s = hyb_t_int( &r, 2000, 30000 );
			hyb_l3_args_t a = mk( &r, hyb_t_l3_ops[o], prec_for( hyb_t_l3_ops[o], &r ), s, s, s );
			double        flops   = hyb_l3_flops( &a );
			hyb_l3_policy_in_t in = base_in();
			in.min_flops          = flops * 1.0001;
			hyb_l3_plan_t below   = hyb_policy_l3_choose( &a, &p, &in );
			CU_ASSERT_EQUAL( below.path, HYB_PATH_CPU );
			/* the device's prediction is kept for the measured choice (these
			   sizes are above HYB_L3_PROBE_MIN_FLOPS) */
			CU_ASSERT( below.t_gpu > 0 && below.Tm > 0 && below.cpu_cols == 0 &&
			           below.cpu_rows == 0 );
			/* The threshold is for auto only. */
			in.mode = HYB_MODE_GPU;
			CU_ASSERT_NOT_EQUAL( hyb_policy_l3_choose( &a, &p, &in ).path, HYB_PATH_CPU );
		}
}

/* Mode gpu: the device for any valid size that fits, from 1 x 1 x 1 up. */
static void test_mode_gpu_any_size( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 602 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int it = 0; it < 200; it++ )
		{
			int64_t m       = hyb_t_int( &r, 1, it < 100 ? 8 : 5000 ),
			        n       = hyb_t_int( &r, 1, it < 100 ? 8 : 5000 ),
			        k       = hyb_t_int( &r, 1, it < 100 ? 8 : 5000 );
			hyb_l3_args_t a = mk( &r, hyb_t_l3_ops[o], prec_for( hyb_t_l3_ops[o], &r ), m, n, k );
			hyb_l3_policy_in_t in = base_in();
			in.mode               = HYB_MODE_GPU;
			in.ndev               = (int)hyb_t_int( &r, 1, 4 );
			hyb_l3_plan_t plan    = hyb_policy_l3_choose( &a, &p, &in );
			CU_ASSERT( plan.path == HYB_PATH_GPU || plan.path == HYB_PATH_SPLIT );
			CU_ASSERT( tiles_ok( &a, in.budget, plan.Tm, plan.Tn, plan.K ) );
			CU_ASSERT( plan.ndev >= 1 && plan.ndev <= in.ndev );
			CU_ASSERT( plan.t_gpu > 0 && isfinite( plan.t_gpu ) && plan.t_cpu > 0 &&
			           isfinite( plan.t_cpu ) );
			/* A strip never covers the whole output. */
			CU_ASSERT( plan.cpu_cols >= 0 && plan.cpu_cols < a.n );
			CU_ASSERT( plan.cpu_rows >= 0 && plan.cpu_rows < out_rows( &a ) );
			CU_ASSERT( !( plan.cpu_cols && plan.cpu_rows ) );
			CU_ASSERT_EQUAL( plan.path == HYB_PATH_SPLIT, plan.cpu_cols > 0 || plan.cpu_rows > 0 );
		}
}

/* Auto: large calls go to the device, tiny ones stay on the CPU. */
static void test_auto_extremes( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 603 );
	for ( int o = 0; o < HYB_OP_L3_COUNT; o++ )
		for ( int q = 0; q < 4; q++ )
		{
			hyb_op_t   op = hyb_t_l3_ops[o];
			hyb_prec_t pr =
			    hyb_op_is_complex_only( op ) ? (hyb_prec_t)( 2 + q % 2 ) : (hyb_prec_t)q;
			hyb_l3_args_t      a    = mk( &r, op, pr, 30000, 30000, 30000 );
			hyb_l3_policy_in_t in   = base_in();
			hyb_l3_plan_t      plan = hyb_policy_l3_choose( &a, &p, &in );
			if ( plan.path == HYB_PATH_CPU )
				fprintf( stderr, "\n    %c%s n=30000 stays on the CPU: %s", hyb_prec_char( pr ),
				         hyb_op_name( op ), plan.why );
			CU_ASSERT( plan.path == HYB_PATH_GPU || plan.path == HYB_PATH_SPLIT );
			CU_ASSERT( plan.t_plan < plan.t_cpu );
			CU_ASSERT( tiles_ok( &a, in.budget, plan.Tm, plan.Tn, plan.K ) );
			/* Tiny: the CPU, whatever the threshold says. */
			hyb_l3_args_t t = mk( &r, op, pr, 2, 2, 2 );
			in.min_flops    = 0;
			CU_ASSERT_EQUAL( hyb_policy_l3_choose( &t, &p, &in ).path, HYB_PATH_CPU );
		}
}

/* The plan is consistent with its own predictions. */
static void test_plan_consistency( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 604 );
	for ( int it = 0; it < 3000; it++ )
	{
		hyb_op_t           op = hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )];
		hyb_l3_args_t      a  = mk( &r, op, prec_for( op, &r ), hyb_t_int( &r, 1, 20000 ),
		                            hyb_t_int( &r, 1, 20000 ), hyb_t_int( &r, 1, 20000 ) );
		hyb_l3_policy_in_t in = base_in();
		in.ndev               = (int)hyb_t_int( &r, 1, 8 );
		in.budget  = exp( log( 1e6 ) + hyb_t_unit( &r ) * 0.5 * log( 1e5 ) + 0.5 * log( 1e5 ) );
		in.staging = (int)hyb_t_int( &r, 0, 2 );
		hyb_l3_plan_t plan = hyb_policy_l3_choose( &a, &p, &in );
		if ( plan.path == HYB_PATH_CPU )
		{
			CU_ASSERT_EQUAL( plan.t_plan, plan.t_cpu );
		}
		else
		{
			CU_ASSERT( plan.t_plan < plan.t_cpu ); /* auto chose the device because it is faster */
			CU_ASSERT( plan.t_plan <= plan.t_gpu * ( 1 + 1e-12 ) );
			CU_ASSERT( tiles_ok( &a, in.budget, plan.Tm, plan.Tn, plan.K ) );
			if ( in.staging == HYB_STAGING_REGISTER ) CU_ASSERT_EQUAL( plan.register_ops, 1 );
			if ( in.staging == HYB_STAGING_COPY ) CU_ASSERT_EQUAL( plan.register_ops, 0 );
			if ( op != HYB_OP_GEMM ) CU_ASSERT( plan.cpu_cols == 0 && plan.cpu_rows == 0 );
		}
	}
}

/* ------------------------------------------------------------------ tiles */

static int forced_bad;

static void test_tiles_fit_budget( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r   = hyb_t_rng( 605 );
	int         fit = 0, nofit = 0;
	forced_bad = 0;
	for ( int it = 0; it < 20000; it++ )
	{
		hyb_op_t      op = hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )];
		int64_t       hi = it % 2 ? 100000 : 300;
		hyb_l3_args_t a  = mk( &r, op, prec_for( op, &r ), hyb_t_int( &r, 1, hi ),
		                       hyb_t_int( &r, 1, hi ), hyb_t_int( &r, 1, hi ) );
		double        budget =
		    exp( log( 1e4 ) + ( hyb_t_unit( &r ) + 1 ) * 0.5 * log( 1e7 ) ); /* 10 KB .. 100 GB */
		int64_t tile = hyb_t_int( &r, 0, 3 ) == 0 ? hyb_t_int( &r, 1, 4096 ) : 0;
		int64_t Tm, Tn, K;
		hyb_policy_l3_tiles( &a, &p, 1, budget, tile, HYB_L3_BETA_HOST, &Tm, &Tn, &K );
		if ( Tm == 0 )
		{
			nofit++;
			CU_ASSERT( Tn == 0 && K == 0 );
			continue;
		}
		fit++;
		if ( tile )
		{
			forced_bad += !tiles_ok( &a, budget, Tm, Tn, K );
			continue;
		}
		if ( !tiles_ok( &a, budget, Tm, Tn, K ) )
			fprintf(
			    stderr,
			    "\n    %c%s m=%lld n=%lld k=%lld budget=%g tile=%lld: %lldx%lld K=%lld needs %g",
			    hyb_prec_char( a.prec ), hyb_op_name( op ), (long long)a.m, (long long)a.n,
			    (long long)a.k, budget, (long long)tile, (long long)Tm, (long long)Tn, (long long)K,
			    tile_need( &a, Tm, Tn, K ) );
		CU_ASSERT( tiles_ok( &a, budget, Tm, Tn, K ) );
		/* More memory never makes a plan impossible. */
		int64_t Tm2, Tn2, K2;
		hyb_policy_l3_tiles( &a, &p, 1, budget * 2, tile, HYB_L3_BETA_HOST, &Tm2, &Tn2, &K2 );
		CU_ASSERT( Tm2 > 0 );
	}
	CU_ASSERT( fit > 1000 && nofit > 100 );
}

/* A shallow product (zgemm with k 65: no tile within the 64 MiB cap has
   blocks of 4 MiB) still gets tiles, thin ones, that fit; a deep one of the
   same output keeps blocks of at least 4 MiB. */
static void test_tiles_shallow( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 606 );
	for ( int deep = 0; deep < 2; deep++ )
	{
		hyb_l3_args_t a = mk( &r, HYB_OP_GEMM, HYB_PREC_Z, 21999, 36792, deep ? 4000 : 65 );
		a.transa = a.transb = 'N';
		int64_t Tm, Tn, K;
		hyb_policy_l3_tiles( &a, &p, 1, 80e9, 0, 0, &Tm, &Tn, &K );
		CU_ASSERT_FATAL( Tm > 0 && Tn > 0 && K > 0 );
		CU_ASSERT( tiles_ok( &a, 80e9, Tm, Tn, K ) );
		CU_ASSERT( K == a.k || deep );
		if ( deep ) CU_ASSERT( (double)Tm * (double)K * 16 >= 4.0 * 1048576 );
	}
}

/* HYBLAS_TILE forces the edge, but a plan must still fit the device budget
   (else "*Tm = 0": the call stays on the CPU instead of failing on the
   device). Counted by test_tiles_fit_budget. */
static void test_forced_tile_fits( void )
{
	if ( forced_bad )
		fprintf( stderr, "\n    %d forced-tile plans exceed their budget", forced_bad );
	CU_ASSERT_EQUAL( forced_bad, 0 );
	/* A forced edge that fits is kept (clipped to the matrix). */
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 615 );
	for ( int o = 0; o < 7; o++ )
	{
		hyb_l3_args_t a =
		    mk( &r, hyb_t_l3_ops[o], prec_for( hyb_t_l3_ops[o], &r ), 3000, 2000, 1000 );
		int64_t Tm, Tn, K;
		hyb_policy_l3_tiles( &a, &p, 1, 80e9, 700, 0, &Tm, &Tn, &K );
		CU_ASSERT( Tm == 700 && Tn == 700 && K >= 1 );
	}
}

/* ------------------------------------------------------------------ split */

static void test_fixed_cpu_ratio( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t         r        = hyb_t_rng( 606 );
	static const double ratios[] = { 0.05, 0.1, 0.25, 0.5, 0.8, 0.95 };
	for ( unsigned q = 0; q < sizeof ratios / sizeof ratios[0]; q++ )
		for ( int it = 0; it < 30; it++ )
		{
			hyb_l3_args_t      a  = mk( &r, HYB_OP_GEMM, (hyb_prec_t)hyb_t_int( &r, 0, 3 ),
			                            hyb_t_int( &r, 2000, 30000 ), hyb_t_int( &r, 2000, 30000 ),
			                            hyb_t_int( &r, 500, 20000 ) );
			hyb_l3_policy_in_t in = base_in();
			in.mode               = HYB_MODE_GPU;
			in.cpu_ratio          = ratios[q];
			hyb_l3_plan_t plan    = hyb_policy_l3_choose( &a, &p, &in );
			CU_ASSERT_EQUAL( plan.path, HYB_PATH_SPLIT );
			double dim   = (double)( plan.cpu_cols ? a.n : a.m );
			double share = (double)( plan.cpu_cols ? plan.cpu_cols : plan.cpu_rows ) / dim;
			/* About the asked share: cut in whole bands, never everything. */
			if ( !( share <= ratios[q] + 1e-12 && share >= ratios[q] - 128.0 / dim ) )
				fprintf( stderr, "\n    ratio %g: share %g of %g", ratios[q], share, dim );
			CU_ASSERT( share <= ratios[q] + 1e-12 && share >= ratios[q] - 128.0 / dim );
			CU_ASSERT( share < 1 );
		}
	/* Other ops never get a strip. */
	for ( int o = 1; o < HYB_OP_L3_COUNT; o++ )
	{
		hyb_l3_args_t a =
		    mk( &r, hyb_t_l3_ops[o], prec_for( hyb_t_l3_ops[o], &r ), 20000, 20000, 20000 );
		hyb_l3_policy_in_t in = base_in();
		in.cpu_ratio          = 0.5;
		for ( int mode = HYB_MODE_AUTO; mode <= HYB_MODE_GPU; mode += 2 )
		{
			in.mode            = (hyb_mode_t)mode;
			hyb_l3_plan_t plan = hyb_policy_l3_choose( &a, &p, &in );
			CU_ASSERT( plan.cpu_cols == 0 && plan.cpu_rows == 0 );
			CU_ASSERT( plan.path != HYB_PATH_SPLIT );
		}
	}
}

/* ------------------------------------------------------------------ costs */

/* Each device loads the blocks of its own band, so the host copies the operand
   panel shared by the bands once per device: where the host's copies bound a
   call a second device makes it slower, and the plan keeps one; where the
   products bound it, the plan takes every device. In auto mode more devices
   never predict a slower plan; forced, every selected device is used. */
static void test_device_count( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t        r  = hyb_t_rng( 611 );
	hyb_l3_policy_in_t in = base_in();
	in.budget             = 130e9;
	/* host-bound: a square double product of moderate size */
	hyb_l3_args_t sq = mk( &r, HYB_OP_GEMM, HYB_PREC_D, 8192, 8192, 8192 );
	sq.transa = sq.transb = 'N', sq.beta[0] = 0;
	in.ndev            = 2;
	hyb_l3_plan_t host = hyb_policy_l3_choose( &sq, &p, &in );
	double        one, two;
	{
		double parts1[4], parts2[4];
		one = hyb_cost_l3_gpu( &p, &sq, 8192, 8192, host.Tm, host.Tn, host.K, 1, in.budget, 0,
		                       parts1 );
		two = hyb_cost_l3_gpu( &p, &sq, 8192, 8192, host.Tm, host.Tn, host.K, 2, in.budget, 0,
		                       parts2 );
		CU_ASSERT( parts2[1] > parts1[1] ); /* more host copies */
		CU_ASSERT( parts2[3] < parts1[3] ); /* half the products each */
		CU_ASSERT( parts2[1] > parts2[3] ); /* bound by the host */
	}
	CU_ASSERT( two > one );
	CU_ASSERT_EQUAL( host.ndev, 1 );
	/* products-bound: the same shape on a device a tenth as fast */
	hyb_profile_t slow = p;
	for ( int q = 0; q < 4; q++ ) slow.gpu_flops[q] /= 10;
	hyb_l3_plan_t prod = hyb_policy_l3_choose( &sq, &slow, &in );
	CU_ASSERT_EQUAL( prod.ndev, 2 );
	CU_ASSERT( prod.path == HYB_PATH_GPU || prod.path == HYB_PATH_SPLIT );
	/* an HPL-shaped update (k small): the output dominates and splits, two devices */
	hyb_l3_args_t hpl = mk( &r, HYB_OP_GEMM, HYB_PREC_D, 32768, 32768, 512 );
	hpl.transa = hpl.transb = 'N', hpl.beta[0] = 1;
	CU_ASSERT_EQUAL( hyb_policy_l3_choose( &hpl, &p, &in ).ndev, 2 );
	/* forced: every selected device */
	in.mode = HYB_MODE_GPU;
	CU_ASSERT_EQUAL( hyb_policy_l3_choose( &sq, &p, &in ).ndev, 2 );
	in.mode = HYB_MODE_AUTO;

	/* auto, random calls: the plan with more devices at hand never predicts slower */
	for ( int it = 0; it < 400; it++ )
	{
		hyb_op_t      op   = hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )];
		hyb_l3_args_t a    = mk( &r, op, prec_for( op, &r ), hyb_t_int( &r, 64, 40000 ),
		                         hyb_t_int( &r, 64, 40000 ), hyb_t_int( &r, 64, 40000 ) );
		double        prev = INFINITY;
		for ( int nd = 1; nd <= 4; nd++ )
		{
			in.ndev             = nd;
			hyb_l3_plan_t plan  = hyb_policy_l3_choose( &a, &p, &in );
			double        t_gpu = plan.Tm ? plan.t_gpu : INFINITY;
			CU_ASSERT( plan.ndev >= 1 && plan.ndev <= nd );
			CU_ASSERT( t_gpu <= prev * ( 1 + 1e-12 ) );
			prev = t_gpu;
		}
	}
}

/* Where the host's copies bound two devices, short products still cost: the same call in
   small tiles must be predicted slower than in large ones. Measured on two H200s, d 16384^3
   and 24576^3 forced onto both: products of 2048 x 512 x 1024 or 1024 x 1024 x 1024 took
   1.4-2.1x the time of 2048 x 2048 x 2048 (docs/design-notes.md, "Tiles on several
   devices"); a model that prices only the host's bytes there picked the small tiles. */
static void test_short_products( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r      = hyb_t_rng( 612 );
	double      budget = 130e9;
	for ( int64_t n = 16384; n <= 24576; n += 8192 )
	{
		hyb_l3_args_t sq = mk( &r, HYB_OP_GEMM, HYB_PREC_D, n, n, n );
		sq.transa = sq.transb = 'N', sq.beta[0] = 0;
		double parts[4];
		double large = hyb_cost_l3_gpu( &p, &sq, n, n, 2048, 2048, 2048, 2, budget, 0, parts );
		CU_ASSERT( parts[1] > parts[3] ); /* the host bounds it */
		double thin  = hyb_cost_l3_gpu( &p, &sq, n, n, 2048, 512, 1024, 2, budget, 0, NULL );
		double small = hyb_cost_l3_gpu( &p, &sq, n, n, 1024, 1024, 1024, 2, budget, 0, NULL );
		CU_ASSERT( large < thin );
		CU_ASSERT( large < small );
	}
}

static void test_cost_monotone( void )
{
	hyb_profile_t p, slow;
	hyb_profile_defaults( &p );
	slow = p;
	slow.h2d_pinned /= 2, slow.d2h_pinned /= 2, slow.bidir_pinned /= 2;
	slow.h2d_pageable /= 2, slow.d2h_pageable /= 2;
	hyb_t_rng_t r = hyb_t_rng( 607 );
	for ( int it = 0; it < 3000; it++ )
	{
		hyb_op_t      op     = hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )];
		hyb_l3_args_t a      = mk( &r, op, prec_for( op, &r ), hyb_t_int( &r, 64, 40000 ),
		                           hyb_t_int( &r, 64, 40000 ), hyb_t_int( &r, 64, 40000 ) );
		double        budget = 80e9;
		int64_t       Tm, Tn, K;
		unsigned      reg = (unsigned)hyb_t_int( &r, 0, 3 ); /* HYB_L3_* flags */
		hyb_policy_l3_tiles( &a, &p, 1, budget, 0, reg, &Tm, &Tn, &K );
		CU_ASSERT_FATAL( Tm > 0 );
		double prev[4] = { INFINITY, INFINITY, INFINITY, INFINITY };
		for ( int nd = 1; nd <= 8; nd *= 2 )
		{
			double parts[4];
			double t =
			    hyb_cost_l3_gpu( &p, &a, out_rows( &a ), a.n, Tm, Tn, K, nd, budget, reg, parts );
			CU_ASSERT( t > 0 && isfinite( t ) );
			/* More devices: each moves and computes no more than before (the host's
			   copies, shared by all, may grow: tested in device_count). */
			CU_ASSERT( parts[2] <= prev[2] * ( 1 + 1e-12 ) );
			CU_ASSERT( parts[3] <= prev[3] * ( 1 + 1e-12 ) );
			memcpy( prev, parts, sizeof prev );
			for ( int q = 0; q < 4; q++ )
				CU_ASSERT( parts[q] >= 0 && parts[q] <= t * ( 1 + 1e-12 ) );
			/* Less PCIe bandwidth never predicts a faster call. */
			double ts =
			    hyb_cost_l3_gpu( &slow, &a, out_rows( &a ), a.n, Tm, Tn, K, nd, budget, reg, NULL );
			CU_ASSERT( ts >= t * ( 1 - 1e-12 ) );
		}
		/* A smaller device region never costs more (gemm's strip). */
		if ( op == HYB_OP_GEMM )
		{
			double full = hyb_cost_l3_gpu( &p, &a, a.m, a.n, Tm, Tn, K, 1, budget, reg, NULL );
			double part =
			    hyb_cost_l3_gpu( &p, &a, a.m, a.n / 2 + 1, Tm, Tn, K, 1, budget, reg, NULL );
			CU_ASSERT( part <= full * ( 1 + 1e-12 ) );
		}
	}
}

/* Beta applied on the host: the old output never crosses PCIe, so the
   predicted PCIe time never grows, and the host moves fewer bytes in all
   (one read of C instead of a copy of it); nothing changes where there is
   no old output to read (beta = 0) or where it must be uploaded (trsm,
   trmm). */
static void test_cost_beta_host( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r     = hyb_t_rng( 616 );
	int         fewer = 0;
	for ( int it = 0; it < 3000; it++ )
	{
		hyb_op_t      op = hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )];
		hyb_l3_args_t a  = mk( &r, op, prec_for( op, &r ), hyb_t_int( &r, 64, 40000 ),
		                       hyb_t_int( &r, 64, 40000 ), hyb_t_int( &r, 64, 40000 ) );
		int64_t       Tm, Tn, K;
		hyb_policy_l3_tiles( &a, &p, 1, 80e9, 0, 0, &Tm, &Tn, &K );
		CU_ASSERT_FATAL( Tm > 0 );
		unsigned reg = hyb_t_int( &r, 0, 1 ) ? HYB_L3_REGISTER : 0;
		double   up[4], host[4];
		double   t_up = hyb_cost_l3_gpu( &p, &a, out_rows( &a ), a.n, Tm, Tn, K, 1, 80e9, reg, up );
		double   t_host = hyb_cost_l3_gpu( &p, &a, out_rows( &a ), a.n, Tm, Tn, K, 1, 80e9,
		                                   reg | HYB_L3_BETA_HOST, host );
		int      same   = a.beta[0] == 0 || op == HYB_OP_TRSM || op == HYB_OP_TRMM;
		if ( same )
		{
			CU_ASSERT_DOUBLE_EQUAL( t_host, t_up, 1e-12 * t_up );
		}
		else
		{
			CU_ASSERT( host[2] < up[2] );
			fewer += t_host < t_up;
		}
	}
	CU_ASSERT( fewer > 100 );
}

static void test_cost_cpu( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	for ( int prec = 0; prec < HYB_PREC_COUNT; prec++ )
	{
		double prev_t = 0, prev_per = INFINITY;
		for ( double f = 1e3; f < 1e16; f *= 3 )
		{
			double t = hyb_cost_l3_cpu( &p, (hyb_prec_t)prec, f );
			CU_ASSERT( t > prev_t );                        /* more work takes longer */
			CU_ASSERT( t / f <= prev_per * ( 1 + 1e-12 ) ); /* and runs at least as fast per flop */
			double t2 = hyb_cost_l3_cpu( &p, (hyb_prec_t)prec, 2 * f );
			CU_ASSERT( t2 / t >= 1 && t2 / t <= 2 + 1e-12 );
			if ( f > 1e12 ) CU_ASSERT_DOUBLE_EQUAL( t2 / t, 2.0, 0.01 ); /* linear at scale */
			/* The rate never exceeds the profile's. */
			CU_ASSERT( f / t <= p.cpu_flops[prec] * ( 1 + 1e-12 ) );
			prev_t = t, prev_per = t / f;
		}
	}
	/* A measured CPU rate replaces the profile's. */
	hyb_t_rng_t        r  = hyb_t_rng( 608 );
	hyb_l3_args_t      a  = mk( &r, HYB_OP_GEMM, HYB_PREC_D, 8000, 8000, 8000 );
	hyb_l3_policy_in_t in = base_in();
	double             t1 = hyb_policy_l3_choose( &a, &p, &in ).t_cpu;
	in.cpu_rate           = p.cpu_flops[HYB_PREC_D] / 2;
	double t2             = hyb_policy_l3_choose( &a, &p, &in ).t_cpu;
	CU_ASSERT_DOUBLE_EQUAL( t2 / t1, 2.0, 0.01 );
}

/* The measured/predicted scale multiplies the device prediction. */
static void test_gpu_scale( void )
{
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_t_rng_t r = hyb_t_rng( 609 );
	for ( int it = 0; it < 200; it++ )
	{
		hyb_op_t           op = hyb_t_l3_ops[hyb_t_int( &r, 0, HYB_OP_L3_COUNT - 1 )];
		hyb_l3_args_t      a  = mk( &r, op, prec_for( op, &r ), hyb_t_int( &r, 500, 20000 ),
		                            hyb_t_int( &r, 500, 20000 ), hyb_t_int( &r, 500, 20000 ) );
		hyb_l3_policy_in_t in = base_in();
		in.mode               = HYB_MODE_GPU;
		in.cpu_ratio          = 0;
		in.staging            = HYB_STAGING_COPY;
		double t1             = hyb_policy_l3_choose( &a, &p, &in ).t_gpu;
		in.gpu_scale          = 3;
		double t3             = hyb_policy_l3_choose( &a, &p, &in ).t_gpu;
		CU_ASSERT_DOUBLE_EQUAL( t3 / t1, 3.0, 1e-9 );
		/* A slower device in the model moves calls to the CPU, never the reverse. */
		in.mode         = HYB_MODE_AUTO;
		in.gpu_scale    = 1;
		hyb_path_t fast = hyb_policy_l3_choose( &a, &p, &in ).path;
		in.gpu_scale    = 4;
		hyb_path_t slow = hyb_policy_l3_choose( &a, &p, &in ).path;
		CU_ASSERT( !( fast == HYB_PATH_CPU && slow != HYB_PATH_CPU ) );
	}
}

/* ------------------------------------------------------------------ refit */

static void test_refit( void )
{
	hyb_refit_reset();
	for ( int p = 0; p < HYB_PREC_COUNT; p++ )
	{
		CU_ASSERT_EQUAL( hyb_refit_gpu_scale( (hyb_prec_t)p ), 1.0 );
		CU_ASSERT_EQUAL( hyb_refit_cpu_rate( (hyb_prec_t)p ), 0.0 );
	}
	/* The device measures twice the model: the scale moves toward 2 at
	   once, part of the way, and converges (predictions include the scale). */
	double base = 0.01;
	double s    = hyb_refit_gpu_scale( HYB_PREC_D );
	hyb_refit_gpu( HYB_PREC_D, base * s, 2 * base );
	double s1 = hyb_refit_gpu_scale( HYB_PREC_D );
	CU_ASSERT( s1 > 1.0 && s1 < 2.0 );
	for ( int i = 0; i < 100; i++ )
	{
		s = hyb_refit_gpu_scale( HYB_PREC_D );
		hyb_refit_gpu( HYB_PREC_D, base * s, 2 * base );
		double t = hyb_refit_gpu_scale( HYB_PREC_D );
		CU_ASSERT( t >= s - 1e-12 && t <= 2.0 + 1e-12 ); /* monotone, no overshoot */
	}
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_gpu_scale( HYB_PREC_D ), 2.0, 1e-3 );
	/* Other precisions are untouched. */
	CU_ASSERT_EQUAL( hyb_refit_gpu_scale( HYB_PREC_S ), 1.0 );
	/* Bounds: wild measurements move the scale only within them. */
	for ( int i = 0; i < 100; i++ )
	{
		s = hyb_refit_gpu_scale( HYB_PREC_Z );
		hyb_refit_gpu( HYB_PREC_Z, base * s, 1000 * base );
		CU_ASSERT( hyb_refit_gpu_scale( HYB_PREC_Z ) <= 4.0 + 1e-12 );
	}
	CU_ASSERT( hyb_refit_gpu_scale( HYB_PREC_Z ) > 3.9 );
	for ( int i = 0; i < 100; i++ )
	{
		s = hyb_refit_gpu_scale( HYB_PREC_C );
		hyb_refit_gpu( HYB_PREC_C, base * s, 1e-6 * base );
		CU_ASSERT( hyb_refit_gpu_scale( HYB_PREC_C ) >= 0.25 - 1e-12 );
	}
	CU_ASSERT( hyb_refit_gpu_scale( HYB_PREC_C ) < 0.26 );
	/* Nonsense is ignored. */
	double before = hyb_refit_gpu_scale( HYB_PREC_D );
	hyb_refit_gpu( HYB_PREC_D, 0, 1 );
	hyb_refit_gpu( HYB_PREC_D, 1, 0 );
	hyb_refit_gpu( HYB_PREC_D, -1, 1 );
	CU_ASSERT_EQUAL( hyb_refit_gpu_scale( HYB_PREC_D ), before );

	/* CPU rate: the first measurement is taken as is, later ones smoothed. */
	hyb_refit_cpu( HYB_PREC_S, 1e12, 2.0 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_cpu_rate( HYB_PREC_S ), 5e11, 1 );
	hyb_refit_cpu( HYB_PREC_S, 1e12, 1.0 );
	double rate = hyb_refit_cpu_rate( HYB_PREC_S );
	CU_ASSERT( rate > 5e11 && rate < 1e12 );
	hyb_refit_cpu( HYB_PREC_S, 0, 1.0 );
	hyb_refit_cpu( HYB_PREC_S, 1e9, 0 );
	CU_ASSERT_EQUAL( hyb_refit_cpu_rate( HYB_PREC_S ), rate );
	CU_ASSERT_EQUAL( hyb_refit_cpu_rate( HYB_PREC_D ), 0.0 );
	hyb_refit_reset();
	CU_ASSERT_EQUAL( hyb_refit_gpu_scale( HYB_PREC_D ), 1.0 );
	CU_ASSERT_EQUAL( hyb_refit_cpu_rate( HYB_PREC_S ), 0.0 );
}

/* The CPU library's threads: busy right after a threaded call, not after a small one,
   idle again once the window has passed, and forgotten by a reset. */
static void test_refit_cpu_threads( void )
{
	hyb_refit_reset();
	CU_ASSERT_EQUAL( hyb_refit_cpu_threads_busy(), 0 );
	hyb_refit_cpu_called( HYB_CPU_LIB_THREADED_FLOPS / 2 );
	CU_ASSERT_EQUAL( hyb_refit_cpu_threads_busy(), 0 );
	hyb_refit_cpu_called( HYB_CPU_LIB_THREADED_FLOPS );
	CU_ASSERT_EQUAL( hyb_refit_cpu_threads_busy(), 1 );
	usleep( (useconds_t)( ( HYB_CPU_LIB_SPIN_S + 0.05 ) * 1e6 ) );
	CU_ASSERT_EQUAL( hyb_refit_cpu_threads_busy(), 0 );
	hyb_refit_cpu_called( 1e12 );
	CU_ASSERT_EQUAL( hyb_refit_cpu_threads_busy(), 1 );
	hyb_refit_reset();
	CU_ASSERT_EQUAL( hyb_refit_cpu_threads_busy(), 0 );
}

static void* refit_thread( void* arg )
{
	double m = *(double*)arg;
	for ( int i = 0; i < 20000; i++ )
	{
		hyb_refit_gpu( HYB_PREC_D, 1.0, m );
		hyb_refit_cpu( HYB_PREC_D, 1e9 * m, 1.0 );
		double s = hyb_refit_gpu_scale( HYB_PREC_D );
		if ( !( s >= 0.25 && s <= 4.0 ) ) return (void*)1;
	}
	return NULL;
}

/* Concurrent refits keep every value within its bounds and finite. */
static void test_refit_threads( void )
{
	hyb_refit_reset();
	pthread_t th[4];
	double    ms[4] = { 0.5, 2.0, 3.0, 0.3 };
	for ( int i = 0; i < 4; i++ )
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, refit_thread, &ms[i] ), 0 );
	for ( int i = 0; i < 4; i++ )
	{
		void* ret = NULL;
		pthread_join( th[i], &ret );
		CU_ASSERT_PTR_NULL( ret );
	}
	double rate = hyb_refit_cpu_rate( HYB_PREC_D );
	CU_ASSERT( rate >= 0.3e9 && rate <= 3e9 );
	hyb_refit_reset();
}

/* The measured choice: worth it only inside the band with a device plan;
   the sides in turn from the plan's, three timed calls each, then the side
   with the smaller median, watched: a settled side that slows past the
   other's median by HYB_L3_RECHECK is probed again, a bounded number of
   times; the plan on the other side drops the CPU strip. */
static void test_measured_choice( void )
{
	hyb_l3_plan_t p = {
		.path = HYB_PATH_CPU, .Tm = 256, .Tn = 256, .K = 256, .t_cpu = 1.0, .t_gpu = 1.5
	};
	CU_ASSERT( hyb_policy_l3_worth_measuring( &p ) );
	p.t_gpu = HYB_L3_PROBE_BAND * 1.01;
	CU_ASSERT( !hyb_policy_l3_worth_measuring( &p ) );
	p.t_gpu = 0.6; /* device predicted faster, still inside the band */
	CU_ASSERT( hyb_policy_l3_worth_measuring( &p ) );
	p.t_gpu = INFINITY;
	CU_ASSERT( !hyb_policy_l3_worth_measuring( &p ) );
	p.t_gpu = 1.5;
	p.Tm    = 0; /* no tiles fit: no device side to time */
	CU_ASSERT( !hyb_policy_l3_worth_measuring( &p ) );

	hyb_l3_measured_t m     = { 0 };
	int               seq[] = { 1, 1, 1, 0, 0, 0 }; /* the plan's side first, in a row: device */
	double            t[]   = { 5e-4, 2e-4, 6e-4, 3e-4, 3.2e-4, 2.9e-4 };
	for ( int i = 0; i < 6; i++ )
	{
		CU_ASSERT_EQUAL( hyb_policy_l3_measured_side( &m, 1 ), seq[i] );
		CU_ASSERT( !m.settled );
		hyb_policy_l3_measured_note( &m, seq[i], t[i] );
	}
	CU_ASSERT( m.settled );
	/* medians: device 0.5 ms, CPU 0.3 (the device's best, 0.2, was one lucky call) */
	CU_ASSERT_EQUAL( m.side, 0 );
	CU_ASSERT_EQUAL( hyb_policy_l3_measured_side( &m, 1 ), 0 );
	hyb_policy_l3_measured_note( &m, 1, 1e-6 );          /* the other side: ignored */
	for ( int i = 0; i < HYB_L3_CONFIRM_CALLS - 2; i++ ) /* up to 1.15 x 0.5 ms: kept */
		hyb_policy_l3_measured_note( &m, 0, i % 2 ? 5.7e-4 : 3e-4 );
	CU_ASSERT( m.settled && m.side == 0 && m.reprobes == 0 && !m.confirmed );
	/* The confirming round after HYB_L3_CONFIRM_CALLS settled calls (the one
	   ignored above does not count): the first probes ran while the CPU was
	   slow (as measured just after the device started), now the device is
	   the faster side. */
	hyb_policy_l3_measured_note( &m, 0, 3e-4 );
	CU_ASSERT( m.settled );
	hyb_policy_l3_measured_note( &m, 0, 3e-4 );
	CU_ASSERT( !m.settled && m.confirmed && m.reprobes == 0 && m.n[0] == 0 && m.n[1] == 0 );
	for ( int i = 0; i < 2 * HYB_L3_PROBE_CALLS; i++ )
	{
		int s = hyb_policy_l3_measured_side( &m, 0 );
		CU_ASSERT_EQUAL( s, i < HYB_L3_PROBE_CALLS ? 0 : 1 ); /* the model's side first, in a row */
		hyb_policy_l3_measured_note( &m, s, s ? 3e-4 : 4e-4 );
	}
	CU_ASSERT( m.settled && m.side == 1 && m.confirmed );
	for ( int i = 0; i < 2 * HYB_L3_CONFIRM_CALLS; i++ ) /* once only */
		hyb_policy_l3_measured_note( &m, 1, 3e-4 );
	CU_ASSERT( m.settled && m.side == 1 && m.reprobes == 0 );
	for ( int r = 1; r <= HYB_L3_REPROBES; r++ )
	{
		/* the settled side slows to 0.6 ms: probed again once the median of
		   the last HYB_L3_WATCH_CALLS says so (3 slow calls in the full window
		   of the first round, a new window's 5 after a probe); each probe
		   settles on the CPU (0.4 ms against 0.5) */
		int calls = 0, sd = m.side;
		while ( m.settled && calls < 10 )
		{
			hyb_policy_l3_measured_note( &m, sd, 6e-4 );
			calls++;
		}
		CU_ASSERT_EQUAL( calls, r == 1 ? HYB_L3_WATCH_CALLS / 2 + 1 : HYB_L3_WATCH_CALLS );
		CU_ASSERT( !m.settled && m.reprobes == r && m.confirmed && m.n[0] == 0 && m.n[1] == 0 );
		for ( int i = 0; i < 2 * HYB_L3_PROBE_CALLS; i++ )
		{
			int s = hyb_policy_l3_measured_side( &m, 0 );
			hyb_policy_l3_measured_note( &m, s, s ? 5e-4 : 4e-4 );
		}
		CU_ASSERT( m.settled && m.side == 0 );
	}
	for ( int i = 0; i < 2 * HYB_L3_WATCH_CALLS; i++ ) /* no more than HYB_L3_REPROBES */
		hyb_policy_l3_measured_note( &m, 0, 6e-4 );
	CU_ASSERT( m.settled && m.reprobes == HYB_L3_REPROBES );
	hyb_l3_measured_t z = { 0 };
	hyb_policy_l3_measured_note( &z, 0, -1.0 );
	hyb_policy_l3_measured_note( &z, 2, 1.0 );
	hyb_policy_l3_measured_note( &z, 1, NAN );
	CU_ASSERT( z.n[0] == 0 && z.n[1] == 0 );

	hyb_l3_plan_t d = { .path     = HYB_PATH_SPLIT,
		                .Tm       = 256,
		                .cpu_cols = 64,
		                .t_cpu    = 1.0,
		                .t_gpu    = 0.8,
		                .t_plan   = 0.7,
		                .why      = "model" };
	hyb_l3_plan_t c = hyb_policy_l3_measured_plan( &d, 0, 0 );
	CU_ASSERT( c.path == HYB_PATH_CPU && c.cpu_cols == 0 && c.t_plan == 1.0 );
	CU_ASSERT( strstr( c.why, "probe" ) != NULL );
	c = hyb_policy_l3_measured_plan( &d, 1,
	                                 0 ); /* its own side: the plan unchanged, named a probe */
	CU_ASSERT( c.path == HYB_PATH_SPLIT && c.cpu_cols == 64 &&
	           !strcmp( c.why, "probe: timing the device" ) );
	c = hyb_policy_l3_measured_plan( &d, 1, 1 );
	CU_ASSERT( c.path == HYB_PATH_SPLIT && strstr( c.why, "measured: the device" ) != NULL );
	c = hyb_policy_l3_measured_plan( &p, 1, 1 );
	CU_ASSERT( c.path == HYB_PATH_GPU && c.Tm == p.Tm &&
	           strstr( c.why, "measured: the device" ) != NULL );
}

static CU_TestInfo hyb_tests_policy_l3[] = {
	{ "mode_cpu_and_no_device", test_mode_cpu_and_no_device },
	{ "min_flops", test_min_flops },
	{ "mode_gpu_any_size", test_mode_gpu_any_size },
	{ "auto_extremes", test_auto_extremes },
	{ "plan_consistency", test_plan_consistency },
	{ "tiles_fit_budget", test_tiles_fit_budget },
	{ "tiles_shallow", test_tiles_shallow },
	{ "forced_tile_fits", test_forced_tile_fits },
	{ "fixed_cpu_ratio", test_fixed_cpu_ratio },
	{ "cost_monotone", test_cost_monotone },
	{ "device_count", test_device_count },
	{ "short_products", test_short_products },
	{ "cost_beta_host", test_cost_beta_host },
	{ "cost_cpu", test_cost_cpu },
	{ "gpu_scale", test_gpu_scale },
	{ "refit", test_refit },
	{ "refit_threads", test_refit_threads },
	{ "refit_cpu_threads", test_refit_cpu_threads },
	{ "measured_choice", test_measured_choice },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_policy_l3 = { "policy_l3", NULL, NULL, NULL, NULL, hyb_tests_policy_l3 };
