/* SPDX-License-Identifier: BSD-3-Clause */
/* The sparse background builder on the simulated device (auto mode): the call that starts a
   build returns on the CPU without waiting for it, a build never changes a result, a matrix
   changed around a build is never used stale, and a fork, device faults or arrays unmapped
   during a build leave every product correct. */
#include <CUnit/CUnit.h>
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dispatch/hyb_spmv_bg.h"
#include "kernels/hyb_device.h"
#include "test_spmv_util.h"

/* Auto mode on the simulated device, the device runs allowed (the CPU not, so the plan is a
   device one whatever the simulated rates say), every matrix size. */
static int tbg_begin( tsp_mat_t* A )
{
	if ( tsp_sim_begin( "HYBLAS_MODE=auto;HYBLAS_SPMV_MIN_NNZ=0" ) != 0 ) return -1;
	hyb_spmv_force_t f = tsp_force();
	f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
	f.no_check_kernel  = 1; /* the snapshot job (test_spmv_copy.c tests the copy of arrays) */
	hyb_spmv_device_force( &f );
	*A = tsp_make( TSP_RANDOM, 20000, 9, 0, HYB_PREC_D, 0, 11 );
	return 0;
}

static void tbg_end( tsp_mat_t* A )
{
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	tsp_free( A );
	tsp_sim_end();
}

/* One COO product checked against the reference. */
static const hyb_spmv_report_t* tbg_call( const tsp_mat_t* A, uint64_t seed, int* bad )
{
	return tsp_call_check( A, 0, 'N', seed, bad );
}

/* Two calls with the gate closed: the second queues the build, which waits at the gate;
   asserts that the call said so, and returns its report. */
static const hyb_spmv_report_t* tbg_queue_build( const tsp_mat_t* A, int* bad )
{
	hyb_spmv_bg_gate( 1 );
	tbg_call( A, 1, bad ); /* first sighting: not cached */
	const hyb_spmv_report_t* r = tbg_call( A, 2, bad );
	CU_ASSERT( tsp_why( r, "building the device copy in the background" ) );
	CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
	return r;
}

/* The second sighting queues the build and returns on the CPU while the build is held at
   the gate (so it cannot have waited for it); calls meanwhile stay on the CPU; once built,
   the copy serves the calls. */
static void test_first_calls_do_not_wait( void )
{
	tsp_mat_t A;
	CU_ASSERT_EQUAL_FATAL( tbg_begin( &A ), 0 );
	hyb_spmv_bg_stats_t s0, s1;
	hyb_spmv_bg_stats( &s0 );
	int bad = 0;
	tbg_queue_build( &A, &bad );
	hyb_spmv_bg_stats( &s1 );
	CU_ASSERT_EQUAL( s1.submitted, s0.submitted + 1 );
	CU_ASSERT_EQUAL( s1.finished, s0.finished ); /* held at the gate: the call did not wait */
	/* nor arm the change tracking: the build does, before it reads the arrays */
	hyb_residency_stats_t c0, c1;
	hyb_spmv_cache_stats( &c0 );
	CU_ASSERT_EQUAL( c0.arm_seconds, 0.0 );
	/* the CPU products leave the build a core meanwhile, and take them all back after */
	const int all   = omp_get_max_threads();
	const int build = all >= 4 ? all / 4 : 1;
	CU_ASSERT_EQUAL( hyb_spmv_bg_cpu_threads(), all - build > 1 ? all - build : 1 );
	const hyb_spmv_report_t* r = tbg_call( &A, 3, &bad );
	CU_ASSERT( tsp_why( r, "being built in the background" ) );
	CU_ASSERT_EQUAL( r->path, HYB_PATH_CPU );
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	hyb_spmv_bg_stats( &s1 );
	CU_ASSERT_EQUAL( s1.finished, s0.finished + 1 );
	CU_ASSERT_EQUAL( hyb_spmv_bg_cpu_threads(), 0 );
	hyb_spmv_cache_stats( &c1 );
	CU_ASSERT( c1.arm_seconds > 0 );
	for ( uint64_t k = 4; k < 7; k++ )
	{
		r = tbg_call( &A, k, &bad );
		CU_ASSERT_EQUAL( r->cache, HYB_RESIDENCY_HIT );
		CU_ASSERT_EQUAL( r->path, HYB_PATH_GPU );
	}
	CU_ASSERT_EQUAL( bad, 0 );
	tbg_end( &A );
}

/* Values changed while the build is queued, and again after it: every product is the
   product of the arrays as they are at its call. */
static void test_changed_matrix_never_stale( void )
{
	tsp_mat_t A;
	CU_ASSERT_EQUAL_FATAL( tbg_begin( &A ), 0 );
	double* v   = A.val;
	int     bad = 0;
	tbg_queue_build( &A, &bad );
	for ( int64_t k = 0; k < A.nnz; k += 7 ) v[k] = 2.0 * v[k] + 1.0;
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	tbg_call( &A, 3, &bad );
	for ( int round = 0; round < 3; round++ )
	{
		for ( int64_t k = (int64_t)round; k < A.nnz; k += 5 ) v[k] = -v[k] + 0.25;
		tbg_call( &A, 10 + (uint64_t)round, &bad );
		hyb_spmv_bg_wait();
		tbg_call( &A, 20 + (uint64_t)round, &bad );
	}
	CU_ASSERT_EQUAL( bad, 0 );
	tbg_end( &A );
}

/* fork() while a build is queued: the child's products are right (it has no helper; its
   cache keeps nothing), and the parent's build still completes and serves. */
static void test_fork_during_build( void )
{
	tsp_mat_t A;
	CU_ASSERT_EQUAL_FATAL( tbg_begin( &A ), 0 );
	int bad = 0;
	tbg_queue_build( &A, &bad );
	fflush( stdout );
	pid_t pid = fork();
	if ( pid == 0 )
	{
		alarm( 60 );
		int cbad = 0;
		for ( uint64_t k = 0; k < 4; k++ ) tbg_call( &A, 100 + k, &cbad );
		fflush( stdout );
		_exit( cbad == 0 ? 0 : 1 );
	}
	CU_ASSERT_FATAL( pid > 0 );
	int status = 0;
	CU_ASSERT_EQUAL( waitpid( pid, &status, 0 ), pid );
	CU_ASSERT( WIFEXITED( status ) && WEXITSTATUS( status ) == 0 );
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	const hyb_spmv_report_t* r = tbg_call( &A, 3, &bad );
	CU_ASSERT_EQUAL( r->cache, HYB_RESIDENCY_HIT );
	CU_ASSERT_EQUAL( bad, 0 );
	tbg_end( &A );
}

/* A device fault in the build: the build is dropped, every product is right, and a later
   build makes the matrix resident. */
static void test_faults_during_build( void )
{
	static const char* plans[] = { "alloc:1", "h2d:1", "kernel:1", "d2h:1", "sync:1a", "any:2" };
	for ( int p = 0; p < 6; p++ )
	{
		tsp_mat_t A;
		CU_ASSERT_EQUAL_FATAL( tbg_begin( &A ), 0 );
		int bad = 0;
		tbg_queue_build( &A, &bad );
		hyb_device_faults_set( plans[p] );
		hyb_spmv_bg_gate( 0 );
		hyb_spmv_bg_wait();
		hyb_device_faults_set( NULL );
		int hit = 0;
		for ( uint64_t k = 3; k < 8; k++ )
		{
			const hyb_spmv_report_t* r = tbg_call( &A, k, &bad );
			hit |= r->cache == HYB_RESIDENCY_HIT;
			hyb_spmv_bg_wait();
		}
		if ( !hit ) printf( "\n  %s: never resident after the failed build", plans[p] );
		CU_ASSERT( hit );
		CU_ASSERT_EQUAL( bad, 0 );
		tbg_end( &A );
	}
}

/* The arrays unmapped while their build is queued: the build ends without touching them
   (no fault), and the same addresses mapped again with other values give their product. */
static void test_unmapped_during_build( void )
{
	tsp_mat_t A;
	CU_ASSERT_EQUAL_FATAL( tbg_begin( &A ), 0 );
	size_t  bytes = (size_t)A.nnz * sizeof( double );
	double* own   = A.val;
	double* v     = mmap( NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	CU_ASSERT_FATAL( v != MAP_FAILED );
	memcpy( v, own, bytes );
	A.val   = v;
	int bad = 0;
	tbg_queue_build( &A, &bad );
	hyb_spmv_bg_stats_t   s0, s1;
	hyb_residency_stats_t c0, c1;
	hyb_spmv_bg_stats( &s0 );
	hyb_spmv_cache_stats( &c0 );
	CU_ASSERT_EQUAL( munmap( v, bytes ), 0 );
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	hyb_spmv_bg_stats( &s1 );
	hyb_spmv_cache_stats( &c1 );
	CU_ASSERT_EQUAL( s1.finished, s0.finished + 1 );
	CU_ASSERT_EQUAL( c1.arm_failures, c0.arm_failures + 1 ); /* the arm found the hole */
	/* new values at the same place (the kernel may or may not give the same address) */
	double* w = mmap( NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0 );
	CU_ASSERT_FATAL( w != MAP_FAILED );
	for ( int64_t k = 0; k < A.nnz; k++ ) w[k] = 0.5 * own[k] - 1.0;
	A.val = w;
	for ( uint64_t k = 3; k < 8; k++ )
	{
		tbg_call( &A, k, &bad );
		hyb_spmv_bg_wait();
	}
	CU_ASSERT_EQUAL( bad, 0 );
	munmap( w, bytes );
	A.val = own;
	tbg_end( &A );
}

/* The helper refused reading the process (the hook refuses the reads of its arm; a real
   per-thread filter: test_spmv_bg_seccomp.c): the arm's failure is counted, no build is
   queued again, and the calls fill their entries themselves, so the matrix still becomes
   resident. */
static void test_safe_reads_refused( void )
{
	tsp_mat_t A;
	CU_ASSERT_EQUAL_FATAL( tbg_begin( &A ), 0 );
	int                   bad = 0;
	hyb_residency_stats_t c0, c1;
	hyb_spmv_bg_stats_t   s0, s1;
	hyb_spmv_cache_stats( &c0 );
	hyb_residency_refuse_safe_reads_for_test( 1 << 20 );
	tbg_queue_build( &A, &bad );
	hyb_spmv_bg_gate( 0 );
	hyb_spmv_bg_wait();
	hyb_spmv_cache_stats( &c1 );
	hyb_spmv_bg_stats( &s0 );
	CU_ASSERT_EQUAL( c1.arm_failures, c0.arm_failures + 1 );
	int hit = 0;
	for ( uint64_t k = 3; k < 8; k++ )
	{
		const hyb_spmv_report_t* r = tbg_call( &A, k, &bad );
		CU_ASSERT( !tsp_why( r, "in the background" ) );
		hit |= r->cache == HYB_RESIDENCY_HIT && r->path == HYB_PATH_GPU;
		hyb_spmv_bg_wait();
	}
	hyb_residency_refuse_safe_reads_for_test( 0 );
	hyb_spmv_cache_stats( &c1 );
	hyb_spmv_bg_stats( &s1 );
	CU_ASSERT_EQUAL( c1.arm_failures, c0.arm_failures + 1 ); /* no failure after the first */
	CU_ASSERT_EQUAL( s1.submitted, s0.submitted );           /* nor another build queued */
	CU_ASSERT( hit );
	CU_ASSERT_EQUAL( bad, 0 );
	tbg_end( &A );
}

/* A value the program changes and changes back while the build reads its arrays (a shift of
   its own between calls, undone): where the watch hashes that value (here the first entry,
   in a partial page), the build must compare what it read with what the arm hashed, or a
   later check passes and the copy read while the value was changed is served. */
typedef struct
{
	volatile double* v;
	double           was, shifted;
	atomic_int       stop;
} tbg_toggle_t;

static void* tbg_toggle( void* p )
{
	tbg_toggle_t* t = p;
	while ( !atomic_load( &t->stop ) )
	{
		*t->v = t->shifted;
		for ( volatile int i = 0; i < 200; i++ )
		{
		}
		*t->v = t->was;
		for ( volatile int i = 0; i < 200; i++ )
		{
		}
	}
	*t->v = t->was;
	return NULL;
}

static void tbg_restored_value( int lean )
{
	int wrong = 0, jobs = 0;
	for ( int trial = 0; trial < 16; trial++ )
	{
		tsp_mat_t A;
		CU_ASSERT_EQUAL_FATAL( tbg_begin( &A ), 0 );
		if ( lean )
		{
			hyb_spmv_force_t f = tsp_force();
			f.opts.allow_runs  = 1u << HYB_SPMV_RUN_GPU;
			hyb_spmv_device_force( &f );
		}
		int bad = 0;
		jobs += tsp_why( tbg_queue_build( &A, &bad ), "the arrays as they are" ) == lean;
		double*      v = A.val;
		tbg_toggle_t t = { .v = &v[0], .was = v[0], .shifted = v[0] + 1000.0 };
		atomic_init( &t.stop, 0 );
		pthread_t th;
		CU_ASSERT_FATAL( pthread_create( &th, NULL, tbg_toggle, &t ) == 0 );
		hyb_spmv_bg_gate( 0 );
		hyb_spmv_bg_wait();
		atomic_store( &t.stop, 1 );
		pthread_join( th, NULL );
		int later = 0;
		for ( uint64_t k = 3; k < 6; k++ ) tbg_call( &A, k, &later );
		wrong += later != 0;
		CU_ASSERT_EQUAL( bad, 0 );
		tbg_end( &A );
	}
	CU_ASSERT_EQUAL( jobs, 16 ); /* the job meant */
	CU_ASSERT_EQUAL( wrong, 0 );
}

static void test_restored_value_snapshot( void )
{
	tbg_restored_value( 0 );
}

static void test_restored_value_lean( void )
{
	tbg_restored_value( 1 );
}

static CU_TestInfo hyb_tests_spmv_bg[] = {
	{ "first_calls_do_not_wait", test_first_calls_do_not_wait },
	{ "changed_matrix_never_stale", test_changed_matrix_never_stale },
	{ "fork_during_build", test_fork_during_build },
	{ "faults_during_build", test_faults_during_build },
	{ "unmapped_during_build", test_unmapped_during_build },
	{ "safe_reads_refused", test_safe_reads_refused },
	{ "restored_value_snapshot", test_restored_value_snapshot },
	{ "restored_value_lean", test_restored_value_lean },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_bg = { "spmv_bg", NULL, NULL, NULL, NULL, hyb_tests_spmv_bg };
