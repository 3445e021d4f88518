/* SPDX-License-Identifier: BSD-3-Clause */
/* The background builder's thread refused reading the process by a seccomp filter of its
   own (a filter that covers every thread makes the calls' own probe read fail, so they fill
   their entries themselves from the start; test_spmv_bg.c's safe_reads_refused refuses the
   arm's reads through a hook). A filter cannot be taken off again: this suite runs in a
   process of its own (one CTest entry per suite) and is the only test in it. */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dispatch/hyb_spmv_bg.h"
#include "test_spmv_util.h"

/* Refuse process_vm_readv with EPERM on the calling thread; 0 when the filter is in place. */
static int tbs_refuse_reads_here( void )
{
	struct sock_filter f[] = {
		BPF_STMT( BPF_LD | BPF_W | BPF_ABS, offsetof( struct seccomp_data, nr ) ),
		BPF_JUMP( BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 0, 1 ),
		BPF_STMT( BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM ),
		BPF_STMT( BPF_RET | BPF_K, SECCOMP_RET_ALLOW ),
	};
	struct sock_fprog p = { (unsigned short)( sizeof f / sizeof f[0] ), f };
	if ( prctl( PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0 ) != 0 ) return -1;
	return (int)syscall( __NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &p );
}

static int tbs_rc = -2;

static void tbs_job( void* arg )
{
	(void)arg;
	tbs_rc = tbs_refuse_reads_here();
}

static void test_helper_refused( void )
{
	CU_ASSERT_EQUAL_FATAL( tsp_sim_begin( "HYBLAS_MODE=auto;HYBLAS_SPMV_MIN_NNZ=0" ), 0 );
	hyb_spmv_force_t f = tsp_force();
	f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
	hyb_spmv_device_force( &f );
	CU_ASSERT_FATAL( hyb_spmv_bg_submit( tbs_job, NULL, 1, 0 ) == 1 );
	hyb_spmv_bg_wait();
	if ( tbs_rc != 0 )
	{
		/* a kernel or a container without seccomp filters: nothing to test here */
		printf( "\n  seccomp filters not available here (%d): not tested", tbs_rc );
		tsp_sim_end();
		return;
	}
	tsp_mat_t A   = tsp_make( TSP_RANDOM, 20000, 9, 0, HYB_PREC_D, 0, 11 );
	int       bad = 0, hit = 0;
	for ( uint64_t k = 1; k < 10; k++ )
	{
		const hyb_spmv_report_t* r = tsp_call_check( &A, 0, 'N', k, &bad );
		hit |= r->cache == HYB_RESIDENCY_HIT && r->path == HYB_PATH_GPU;
		hyb_spmv_bg_wait();
	}
	hyb_residency_stats_t c;
	hyb_spmv_cache_stats( &c );
	CU_ASSERT_EQUAL( c.arm_failures, 1 ); /* the helper's one try */
	CU_ASSERT( hit );                     /* then the calls filled it themselves */
	CU_ASSERT_EQUAL( bad, 0 );
	tsp_free( &A );
	tsp_sim_end();
}

static CU_TestInfo hyb_tests_spmv_bg_seccomp[] = {
	{ "helper_refused", test_helper_refused },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_bg_seccomp = { "spmv_bg_seccomp",        NULL, NULL, NULL, NULL,
	                                       hyb_tests_spmv_bg_seccomp };
