/* SPDX-License-Identifier: BSD-3-Clause */
/* The one refit rule and the families' weights (policies/hyb_learn.h): the rule's
   properties, the weights pinned, and the level-3 and tridiagonal stores folding by it. */
#include <CUnit/CUnit.h>
#include <math.h>

#include "policies/hyb_learn.h"
#include "policies/hyb_policy_gtsv.h"
#include "policies/hyb_refit.h"

static void test_fold_rule( void )
{
	CU_ASSERT_EQUAL( hyb_learn_fold( 5.0, 0, 7.0, 0.25 ), 7.0 ); /* nothing known: the sample */
	CU_ASSERT_EQUAL( hyb_learn_fold( 5.0, 1, 7.0, 1.0 ), 7.0 );  /* weight 1 replaces */
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_fold( 4.0, 1, 8.0, 0.5 ), 6.0, 1e-15 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_learn_fold( 4.0, 1, 8.0, 0.25 ), 5.0, 1e-15 );
	/* between the old value and the sample, and converging on a repeated sample */
	double v = 1.0;
	for ( int k = 0; k < 200; k++ )
	{
		double nv = hyb_learn_fold( v, 1, 3.0, HYB_LEARN_WEIGHT_SPMV );
		CU_ASSERT( nv >= v && nv <= 3.0 );
		v = nv;
	}
	CU_ASSERT_DOUBLE_EQUAL( v, 3.0, 1e-12 );
}

/* The weights the families' tests were written against. */
static void test_weights( void )
{
	CU_ASSERT_DOUBLE_EQUAL( HYB_LEARN_WEIGHT_L3, 0.35, 0 );
	CU_ASSERT_DOUBLE_EQUAL( HYB_LEARN_WEIGHT_SPMV, 0.25, 0 );
	CU_ASSERT_DOUBLE_EQUAL( HYB_LEARN_WEIGHT_GTSV, 0.5, 0 );
}

/* The stores fold by the rule with their family's weight. */
static void test_stores_fold( void )
{
	hyb_refit_reset();
	hyb_refit_cpu( HYB_PREC_D, 100.0, 1.0 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_cpu_rate( HYB_PREC_D ), 100.0, 1e-12 );
	hyb_refit_cpu( HYB_PREC_D, 200.0, 1.0 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_cpu_rate( HYB_PREC_D ),
	                        hyb_learn_fold( 100.0, 1, 200.0, HYB_LEARN_WEIGHT_L3 ), 1e-12 );
	hyb_refit_gpu( HYB_PREC_D, 1.0, 2.0 ); /* measured twice the prediction: scale 1 -> 2 */
	CU_ASSERT_DOUBLE_EQUAL( hyb_refit_gpu_scale( HYB_PREC_D ),
	                        hyb_learn_fold( 1.0, 1, 2.0, HYB_LEARN_WEIGHT_L3 ), 1e-12 );
	hyb_refit_reset();

	hyb_gtsv_profile_t p;
	hyb_policy_gtsv_profile_init( &p );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_profile_update( &p, "cpu", 'd', 1e9, HYB_LEARN_WEIGHT_GTSV ),
	                 HYB_OK );
	CU_ASSERT_EQUAL( hyb_policy_gtsv_profile_update( &p, "cpu", 'd', 3e9, HYB_LEARN_WEIGHT_GTSV ),
	                 HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_policy_gtsv_profile_rate( &p, "cpu", 'd' ),
	                        hyb_learn_fold( 1e9, 1, 3e9, HYB_LEARN_WEIGHT_GTSV ), 1e-3 );
}

static CU_TestInfo hyb_tests_learn[] = {
	{ "fold_rule", test_fold_rule },
	{ "weights", test_weights },
	{ "stores_fold", test_stores_fold },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_learn = { "learn", NULL, NULL, NULL, NULL, hyb_tests_learn };
