/* SPDX-License-Identifier: BSD-3-Clause */
/* hyblas_host_alloc and hyblas_host_free: bad input changes nothing, a block is zeroed,
   aligned to 2 MiB, page-locked while it lives and known so exactly over its own bytes, a
   refused page-locking or no device gives ordinary memory, threads may allocate and free at
   once, and a fork child forgets its parent's locks. */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "dispatch/hyb_host_mem.h"
#include "hyblas_ext.h"
#include "kernels/hyb_device.h"
#include "kernels/sim/hyb_device_sim.h"
#include "tests/unit/hyb_test_util.h"

static void test_bad_input( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	void* p = &p;
	CU_ASSERT_EQUAL( hyblas_host_alloc( 0, &p ), HYBLAS_E_INVALID );
	CU_ASSERT_PTR_EQUAL( p, &p );
	CU_ASSERT_EQUAL( hyblas_host_alloc( 64, NULL ), HYBLAS_E_INVALID );
	CU_ASSERT_EQUAL( hyblas_host_free( NULL ), HYBLAS_OK );
	char local[16];
	CU_ASSERT_EQUAL( hyblas_host_free( local ), HYBLAS_E_INVALID );
	hyb_t_sim_end();
}

/* With a device: zeroed, page-locked (one lock a block), known so over its bytes only,
   usable, unlocked and freed once. */
static void test_blocks_on_device( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const int64_t base = hyb_sim_registrations();
	enum
	{
		n = ( 3 << 20 ) + 5
	};
	char *a = NULL, *b = NULL;
	CU_ASSERT_EQUAL_FATAL( hyblas_host_alloc( n, (void**)&a ), HYBLAS_OK );
	CU_ASSERT_EQUAL_FATAL( hyblas_host_alloc( 100, (void**)&b ), HYBLAS_OK );
	CU_ASSERT_EQUAL( hyb_sim_registrations(), base + 2 );
	CU_ASSERT_EQUAL( (uintptr_t)a % ( 2 << 20 ), 0 );
	int zero = 1;
	for ( size_t i = 0; i < n; i += 4093 ) zero &= a[i] == 0;
	CU_ASSERT( zero && a[n - 1] == 0 && b[0] == 0 && b[99] == 0 );
	memset( a, 7, n );
	memset( b, 9, 100 );
	CU_ASSERT( hyb_host_mem_pinned( a, n ) );
	CU_ASSERT( hyb_host_mem_pinned( a + 10, 20 ) );
	CU_ASSERT( hyb_host_mem_pinned( a + n - 1, 1 ) );
	CU_ASSERT( !hyb_host_mem_pinned( a + 1, n ) );
	CU_ASSERT( !hyb_host_mem_pinned( a - 1, 2 ) );
	CU_ASSERT( hyb_host_mem_pinned( b, 100 ) );
	CU_ASSERT( a[n - 1] == 7 && b[99] == 9 );
	CU_ASSERT_EQUAL( hyblas_host_free( a ), HYBLAS_OK );
	CU_ASSERT( !hyb_host_mem_pinned( a, 1 ) );
	CU_ASSERT_EQUAL( hyblas_host_free( a ), HYBLAS_E_INVALID );
	CU_ASSERT( hyb_host_mem_pinned( b, 100 ) );
	CU_ASSERT_EQUAL( hyblas_host_free( b ), HYBLAS_OK );
	CU_ASSERT_EQUAL( hyb_sim_registrations(), base );
	hyb_t_sim_end();
}

/* The driver refusing to lock it, or no device at all: ordinary memory, which a workload
   locks itself. */
static void test_ordinary_memory( void )
{
	const char* extra[] = { NULL, "HYBLAS_DEVICE=none" };
	for ( int i = 0; i < 2; i++ )
	{
		hyb_t_sim_begin( 1, "1G", extra[i] );
		if ( i == 0 ) CU_ASSERT_EQUAL( hyb_device_faults_set( "register:1" ), HYB_OK );
		char* p = NULL;
		CU_ASSERT_EQUAL_FATAL( hyblas_host_alloc( 8192, (void**)&p ), HYBLAS_OK );
		CU_ASSERT_EQUAL( (uintptr_t)p % ( 2 << 20 ), 0 );
		CU_ASSERT( p[0] == 0 && p[8191] == 0 );
		memset( p, 1, 8192 );
		CU_ASSERT( !hyb_host_mem_pinned( p, 8192 ) );
		CU_ASSERT_EQUAL( hyblas_host_free( p ), HYBLAS_OK );
		CU_ASSERT_EQUAL( hyblas_host_free( p ), HYBLAS_E_INVALID );
		hyb_t_sim_end();
	}
}

/* Threads allocating and freeing at once: each block is its own, zeroed and known as
   page-locked while it lives; every lock is undone at the end. */
static void* host_mem_thread( void* arg )
{
	int* bad = arg;
	for ( int round = 0; round < 8; round++ )
	{
		char* p = NULL;
		if ( hyblas_host_alloc( 4096 * ( round + 1 ), (void**)&p ) != HYBLAS_OK )
		{
			( *bad )++;
			continue;
		}
		*bad += p[0] != 0 || p[4096 * ( round + 1 ) - 1] != 0 ||
		        !hyb_host_mem_pinned( p, 4096 * ( round + 1 ) );
		memset( p, round + 1, 4096 * ( round + 1 ) );
		*bad += hyblas_host_free( p ) != HYBLAS_OK;
	}
	return NULL;
}

static void test_threads( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	const int64_t base = hyb_sim_registrations();
	enum
	{
		nthreads = 4
	};
	pthread_t th[nthreads];
	int       bad[nthreads] = { 0 };
	for ( int i = 0; i < nthreads; i++ )
		CU_ASSERT_EQUAL_FATAL( pthread_create( &th[i], NULL, host_mem_thread, &bad[i] ), 0 );
	for ( int i = 0; i < nthreads; i++ )
	{
		pthread_join( th[i], NULL );
		CU_ASSERT_EQUAL( bad[i], 0 );
	}
	CU_ASSERT_EQUAL( hyb_sim_registrations(), base );
	hyb_t_sim_end();
}

static int host_mem_child( void* arg )
{
	/* The parent's block is not this process's page-locked memory: a workload here locks
	   its arrays itself, and freeing unmaps the child's copy without the parent's driver. */
	if ( hyb_host_mem_pinned( arg, 4096 ) ) return 1;
	if ( hyblas_host_free( arg ) != HYBLAS_OK ) return 2;
	return hyblas_host_free( arg ) == HYBLAS_E_INVALID ? 0 : 3;
}

static void test_fork_child_forgets( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	void* p = NULL;
	CU_ASSERT_EQUAL_FATAL( hyblas_host_alloc( 4096, &p ), HYBLAS_OK );
	hyb_t_sim_end(); /* no device threads across the fork */
	CU_ASSERT_EQUAL( hyb_t_isolated( "host_mem child", host_mem_child, p, 30 ), 0 );
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "1G", NULL ), HYB_OK );
	CU_ASSERT( hyb_host_mem_pinned( p, 4096 ) );
	CU_ASSERT_EQUAL( hyblas_host_free( p ), HYBLAS_OK );
	hyb_t_sim_end();
}

static CU_TestInfo hyb_tests_host_mem[] = {
	{ "bad_input", test_bad_input },
	{ "blocks_on_device", test_blocks_on_device },
	{ "ordinary_memory", test_ordinary_memory },
	{ "threads", test_threads },
	{ "fork_child_forgets", test_fork_child_forgets },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_host_mem = { "host_mem", NULL, NULL, NULL, NULL, hyb_tests_host_mem };
