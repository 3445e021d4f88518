/* SPDX-License-Identifier: BSD-3-Clause */
/* The pick of MKL's routine or hyblas's kernel for the sparse CPU path: MKL until it is timed,
   one trial of hyblas's kernel, then hyblas's kernel only where clearly faster; and the
   per-routine record kept by the dispatch. */
#include <CUnit/CUnit.h>

#include "dispatch/hyb_spmv_cpu_pick.h"
#include "policies/hyb_policy_spmv_pick.h"

/* Small calls, and every call before MKL is timed twice, run MKL's routine. */
static void test_pick_mkl_first( void )
{
	hyb_spmv_pick_state_t s = { 0, 0, 0.0, 0.0 };
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( NULL, 1 ), HYB_SPMV_PICK_MKL );
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 1 ), HYB_SPMV_PICK_MKL );
	hyb_policy_spmv_pick_learn( &s, HYB_SPMV_PICK_MKL, 1000, 5e-3 ); /* start-up: not a rate */
	CU_ASSERT_EQUAL( s.mkl_calls, 1 );
	CU_ASSERT_EQUAL( s.mkl_best, 0.0 );
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 1 ), HYB_SPMV_PICK_MKL );
	hyb_policy_spmv_pick_learn( &s, HYB_SPMV_PICK_MKL, 1000, 1e-3 );
	CU_ASSERT_DOUBLE_EQUAL( s.mkl_best, 1e-6, 1e-15 );
	/* timed twice: one trial of hyblas's kernel, but never on a call too small to time */
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 1 ), HYB_SPMV_PICK_OWN );
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 0 ), HYB_SPMV_PICK_MKL );
}

/* After the trial: hyblas's kernel only where its best is more than 5 % below MKL's. */
static void test_pick_after_trial( void )
{
	hyb_spmv_pick_state_t s = { 2, 0, 1e-6, 0.0 };
	hyb_policy_spmv_pick_learn( &s, HYB_SPMV_PICK_OWN, 1000, 0.97e-3 );
	CU_ASSERT_EQUAL( s.own_calls, 1 );
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 1 ),
	                 HYB_SPMV_PICK_MKL ); /* 3 % faster: not enough */
	hyb_policy_spmv_pick_learn( &s, HYB_SPMV_PICK_OWN, 1000, 0.9e-3 );
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 1 ), HYB_SPMV_PICK_OWN ); /* 10 % faster */
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 0 ), HYB_SPMV_PICK_MKL );
	/* MKL measured faster later: back to MKL */
	hyb_policy_spmv_pick_learn( &s, HYB_SPMV_PICK_MKL, 1000, 0.8e-3 );
	CU_ASSERT_EQUAL( hyb_policy_spmv_pick( &s, 1 ), HYB_SPMV_PICK_MKL );
	/* nothing learnt from calls without entries or time */
	hyb_spmv_pick_state_t t = s;
	hyb_policy_spmv_pick_learn( &s, HYB_SPMV_PICK_OWN, 0, 1e-3 );
	hyb_policy_spmv_pick_learn( &s, HYB_SPMV_PICK_OWN, 1000, 0.0 );
	CU_ASSERT_EQUAL( s.own_calls, t.own_calls );
	CU_ASSERT_EQUAL( s.own_best, t.own_best );
	hyb_policy_spmv_pick_learn( NULL, HYB_SPMV_PICK_OWN, 1000, 1e-3 );
}

/* The dispatch's per-routine record follows the same rule, one routine apart from another. */
static void test_pick_record( void )
{
	hyb_routine_id_t a = (hyb_routine_id_t)0, b = (hyb_routine_id_t)1;
	hyb_spmv_cpu_pick_reset_for_test();
	CU_ASSERT_EQUAL( hyb_spmv_cpu_pick( a, 1 ), HYB_SPMV_PICK_MKL );
	hyb_spmv_cpu_pick_learn( a, HYB_SPMV_PICK_MKL, 1000, 5e-3 );
	hyb_spmv_cpu_pick_learn( a, HYB_SPMV_PICK_MKL, 1000, 2e-3 );
	CU_ASSERT_EQUAL( hyb_spmv_cpu_pick( a, 1 ), HYB_SPMV_PICK_OWN );
	CU_ASSERT_EQUAL( hyb_spmv_cpu_pick( b, 1 ), HYB_SPMV_PICK_MKL );
	hyb_spmv_cpu_pick_learn( a, HYB_SPMV_PICK_OWN, 1000, 1e-3 );
	CU_ASSERT_EQUAL( hyb_spmv_cpu_pick( a, 1 ), HYB_SPMV_PICK_OWN );
	hyb_spmv_cpu_pick_learn( a, HYB_SPMV_PICK_MKL, 1000, 0.5e-3 );
	CU_ASSERT_EQUAL( hyb_spmv_cpu_pick( a, 1 ), HYB_SPMV_PICK_MKL );
	CU_ASSERT_EQUAL( hyb_spmv_cpu_pick( (hyb_routine_id_t)-1, 1 ), HYB_SPMV_PICK_MKL );
	hyb_spmv_cpu_pick_reset_for_test();
	CU_ASSERT_EQUAL( hyb_spmv_cpu_pick( a, 1 ), HYB_SPMV_PICK_MKL );
}

static CU_TestInfo hyb_tests_policy_spmv_pick[] = {
	{ "MKL until timed twice, then one trial", test_pick_mkl_first },
	{ "hyblas's kernel only where clearly faster", test_pick_after_trial },
	{ "the dispatch's per-routine record", test_pick_record },
	CU_TEST_INFO_NULL
};

CU_SuiteInfo hyb_suite_policy_spmv_pick = { "policy_spmv_pick",        NULL, NULL, NULL, NULL,
	                                        hyb_tests_policy_spmv_pick };
