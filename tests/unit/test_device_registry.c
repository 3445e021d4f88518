/* SPDX-License-Identifier: BSD-3-Clause */
/* The core's device layer (kernels/hyb_device_registry.c) on the simulated
   device: stage-2 init and device selection, budgets, the context pool,
   cached workspaces within the budget, copies, events, the registered
   kernels and their launch, fault-injection plans and their synchronous and
   asynchronous semantics, disabling. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_log.h"
#include "hyb_secure.h"
#include "hyb_test_util.h"
#include "kernels/hyb_device.h"
#include "kernels/gtsv/hyb_gtsv_kernels.h"
#include "kernels/l3/hyb_l3_kernels.h"
#include "kernels/sim/hyb_device_sim.h"
#include "kernels/spmv/hyb_spmv_kernels.h"

#define MIB ( 1024.0 * 1024.0 )

static void test_init_and_info( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 3, "64M", NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 3 );
	CU_ASSERT_STRING_EQUAL( hyb_devices_name(), "sim" );
	for ( int i = 0; i < 3; i++ )
	{
		const hyb_device_info_t* info = hyb_devices_info( i );
		CU_ASSERT_PTR_NOT_NULL_FATAL( info );
		CU_ASSERT_DOUBLE_EQUAL( info->mem_total, 64 * MIB, 1 );
		/* Default budget: 90 % of the free memory. */
		CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( i ), 0.9 * info->mem_free, 1 );
	}
	CU_ASSERT_PTR_NULL( hyb_devices_info( 3 ) );
	CU_ASSERT_PTR_NULL( hyb_devices_info( -1 ) );
	CU_ASSERT_EQUAL( hyb_dev_budget( 3 ), 0 );
	CU_ASSERT_EQUAL( hyb_devices_ensure(), HYB_OK ); /* idempotent */
	hyb_dev_t* d = NULL;
	CU_ASSERT_EQUAL( hyb_dev_acquire( 3, &d ), HYB_E_NO_DEVICE );
	CU_ASSERT_EQUAL( hyb_dev_acquire( -1, &d ), HYB_E_NO_DEVICE );
	hyb_t_sim_end();

	/* Budgets: bytes are capped by the free memory; percentages apply to it. */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_GPU_MEM=32M" ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 0 ), 32 * MIB, 1 );
	hyb_t_sim_end();
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_GPU_MEM=1G" ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 0 ), 64 * MIB, 1 );
	hyb_t_sim_end();
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_GPU_MEM=25%" ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 0 ), 16 * MIB, 1 );
	hyb_t_sim_end();
}

static void test_no_device( void )
{
	CU_ASSERT_EQUAL( hyb_t_sim_begin( 2, "64M", "HYBLAS_DEVICE=none" ), HYB_E_NO_DEVICE );
	CU_ASSERT_EQUAL( hyb_devices_count(), 0 );
	CU_ASSERT_EQUAL( hyb_devices_ensure(), HYB_E_NO_DEVICE ); /* remembered */
	hyb_dev_t* d = NULL;
	CU_ASSERT_NOT_EQUAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	hyb_t_sim_end();
}

/* The selected ordinal shows in the simulated device's name. */
static int ordinal_of( int index )
{
	const hyb_device_info_t* info = hyb_devices_info( index );
	int                      ord  = -1;
	if ( info ) sscanf( info->name, "hyblas simulated device %d", &ord );
	return ord;
}

static void test_selection( void )
{
	static const char* ranks[] = { "OMPI_COMM_WORLD_LOCAL_RANK",
		                           "MV2_COMM_WORLD_LOCAL_RANK",
		                           "MPI_LOCALRANKID",
		                           "PMI_LOCAL_RANK",
		                           "PALS_LOCAL_RANKID",
		                           "SLURM_LOCALID",
		                           "OMPI_COMM_WORLD_LOCAL_SIZE",
		                           "MV2_COMM_WORLD_LOCAL_SIZE",
		                           "MPI_LOCALNRANKS",
		                           "PMI_LOCAL_SIZE",
		                           "PALS_LOCAL_SIZE",
		                           "SLURM_NTASKS_PER_NODE" };
	enum
	{
		NVARS = sizeof ranks / sizeof ranks[0]
	};
	char* saved[NVARS];
	for ( int i = 0; i < NVARS; i++ )
	{
		const char* v = getenv( ranks[i] );
		saved[i]      = v ? strdup( v ) : NULL;
		unsetenv( ranks[i] );
	}

	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=2" ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 2 );
	CU_ASSERT( ordinal_of( 0 ) == 0 && ordinal_of( 1 ) == 1 );
	hyb_t_sim_end();
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=3,1" ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 2 );
	CU_ASSERT( ordinal_of( 0 ) == 3 && ordinal_of( 1 ) == 1 );
	hyb_t_sim_end();
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=all" ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 4 );
	hyb_t_sim_end();
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=9" ),
	                       HYB_OK ); /* a count beyond: all there are */
	CU_ASSERT_EQUAL( hyb_devices_count(), 4 );
	hyb_t_sim_end();
	/* A list naming only missing devices: warned, no device. */
	char log[4096];
	hyb_t_log_begin( HYB_LOG_WARN );
	hyb_status_t st = hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=7," );
	hyb_t_log_end( log, sizeof log );
	CU_ASSERT_EQUAL( st, HYB_E_NO_DEVICE );
	CU_ASSERT( strstr( log, "HYBLAS_GPUS" ) != NULL );
	hyb_t_sim_end();
	/* auto without MPI: every device; with a local rank: one, shared out by rank. */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 4 );
	hyb_t_sim_end();
	setenv( "OMPI_COMM_WORLD_LOCAL_RANK", "5", 1 );
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 1 );
	CU_ASSERT_EQUAL( ordinal_of( 0 ), 1 );
	hyb_t_sim_end();
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=all" ),
	                       HYB_OK ); /* all ignores the rank */
	CU_ASSERT_EQUAL( hyb_devices_count(), 4 );
	hyb_t_sim_end();
	/* Devices shared by several users get the free memory shared out: local ranks
	   taking one device each (ranks 1 and 3 of 4 on device 1 of 2), and slots of
	   one process naming the same device. The default budget is 90 % of that. */
	setenv( "OMPI_COMM_WORLD_LOCAL_RANK", "1", 1 );
	setenv( "OMPI_COMM_WORLD_LOCAL_SIZE", "4", 1 );
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 2, "32M", NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 1 );
	CU_ASSERT_EQUAL( ordinal_of( 0 ), 1 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 0 ), 0.9 * 16 * MIB, 1 );
	hyb_t_sim_end();
	setenv( "OMPI_COMM_WORLD_LOCAL_SIZE", "3", 1 ); /* ranks 0 and 2 on device 0: 1 alone */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 2, "32M", NULL ), HYB_OK );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 0 ), 0.9 * 32 * MIB, 1 );
	hyb_t_sim_end();
	/* A privileged process: the launcher's variables steer nothing either. */
	hyb_secure_force_for_test( 1 );
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 2, "32M", NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 2 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 0 ), 0.9 * 32 * MIB, 1 );
	hyb_t_sim_end();
	hyb_secure_force_for_test( -1 );
	unsetenv( "OMPI_COMM_WORLD_LOCAL_RANK" );
	unsetenv( "OMPI_COMM_WORLD_LOCAL_SIZE" );
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=1,1,2" ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 3 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 0 ), 0.9 * 16 * MIB, 1 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 1 ), 0.9 * 16 * MIB, 1 );
	CU_ASSERT_DOUBLE_EQUAL( hyb_dev_budget( 2 ), 0.9 * 32 * MIB, 1 );
	hyb_t_sim_end();

	for ( int i = 0; i < NVARS; i++ )
		if ( saved[i] )
		{
			setenv( ranks[i], saved[i], 1 );
			free( saved[i] );
		}
}

/* ------------------------------------------------------------------ pool and memory */

static void test_pool( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_dev_t *a = NULL, *b = NULL, *c = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &a ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &b ), HYB_OK );
	CU_ASSERT_PTR_NOT_EQUAL( a, b ); /* one user at a time: a second context */
	CU_ASSERT_EQUAL( a->index, 0 );
	hyb_dev_release( a );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &c ), HYB_OK );
	CU_ASSERT_PTR_EQUAL( c, a ); /* reused from the pool */
	hyb_dev_release( b );
	hyb_dev_release( c );
	hyb_dev_release( NULL );
	hyb_t_sim_end();
}

static void test_workspace_budget( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", "HYBLAS_GPU_MEM=32M" ), HYB_OK );
	hyb_dev_t *a = NULL, *b = NULL;
	void *     p = NULL, *q = NULL, *r = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &a ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &b ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_workspace( a, 1000, &p ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_workspace( a, 500, &q ), HYB_OK );
	CU_ASSERT_PTR_EQUAL( p, q ); /* grow-only cache */
	CU_ASSERT_EQUAL( hyb_dev_workspace( a, (size_t)( 20 * MIB ), &r ), HYB_OK );
	/* Both contexts count against the one device's budget. */
	CU_ASSERT_EQUAL( hyb_dev_workspace( b, (size_t)( 20 * MIB ), &q ), HYB_E_NO_MEMORY );
	CU_ASSERT_EQUAL( hyb_dev_workspace( b, (size_t)( 10 * MIB ), &q ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_workspace( a, (size_t)( 40 * MIB ), &r ), HYB_E_NO_MEMORY );
	/* A broken context gives its memory back when released. */
	CU_ASSERT_EQUAL( hyb_device_faults_set( "h2d:1" ), HYB_OK );
	char buf[64];
	CU_ASSERT_EQUAL( hyb_dev_h2d( b, HYB_STREAM_H2D, q, 64, buf, 64, 64, 1 ), HYB_E_INJECTED );
	hyb_device_faults_set( NULL );
	hyb_dev_stream_sync( b, HYB_STREAM_H2D );
	hyb_dev_release( b );
	CU_ASSERT_EQUAL( hyb_dev_workspace( a, (size_t)( 30 * MIB ), &r ), HYB_OK );
	/* Staging: grow-only, writable. */
	void *s1 = NULL, *s2 = NULL;
	CU_ASSERT_EQUAL( hyb_dev_staging( a, 4096, &s1 ), HYB_OK );
	memset( s1, 1, 4096 );
	CU_ASSERT_EQUAL( hyb_dev_staging( a, 100, &s2 ), HYB_OK );
	CU_ASSERT_PTR_EQUAL( s1, s2 );
	CU_ASSERT_EQUAL( hyb_dev_staging( a, 1 << 20, &s2 ), HYB_OK );
	memset( s2, 2, 1 << 20 );
	hyb_dev_release( a );
	hyb_t_sim_end();
}

/* ------------------------------------------------------------------ copies and events */

static void test_copies_events( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_dev_t* d = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	void* dev = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 1 << 16, &dev ), HYB_OK );
	/* A 2-D round trip with different pitches: 7 rows of 40 bytes. */
	unsigned char src[7 * 64], back[7 * 48];
	for ( unsigned i = 0; i < sizeof src; i++ ) src[i] = (unsigned char)( i * 7 + 1 );
	memset( back, 0xEE, sizeof back );
	hyb_devent_t *e1 = NULL, *e2 = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &e1 ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &e2 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_H2D, dev, 40, src, 64, 40, 7 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_record( d, HYB_STREAM_H2D, e1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_wait( d, HYB_STREAM_D2H, e1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_D2H, back, 48, dev, 40, 40, 7 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_record( d, HYB_STREAM_D2H, e2 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_sync( d, e2 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_query( d, e2 ), HYB_OK );
	double secs = -1;
	CU_ASSERT_EQUAL( hyb_dev_elapsed( d, e1, e2, &secs ), HYB_OK );
	CU_ASSERT( secs >= 0 );
	int same = 1, pad_kept = 1;
	for ( int r = 0; r < 7; r++ )
	{
		same &= memcmp( back + r * 48, src + r * 64, 40 ) == 0;
		for ( int c = 40; c < 48; c++ ) pad_kept &= back[r * 48 + c] == 0xEE;
	}
	CU_ASSERT( same && pad_kept );
	/* A device product through the layer. */
	double A[4] = { 1, 2, 3, 4 }, B[4] = { 5, 6, 7, 8 }, C[4] = { 0 }, one[2] = { 1, 0 },
	       zero[2] = { 0, 0 };
	double* dA     = dev;
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_COMPUTE, dA, 32, A, 32, 32, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_COMPUTE, dA + 4, 32, B, 32, 32, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_gemm( d, HYB_STREAM_COMPUTE, HYB_PREC_D, 'N', 'N', 2, 2, 2, one, dA, 2,
	                               dA + 4, 2, zero, dA + 8, 2 ),
	                 HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_COMPUTE, C, 32, dA + 8, 32, 32, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, HYB_STREAM_COMPUTE ), HYB_OK );
	CU_ASSERT( C[0] == 23 && C[1] == 34 && C[2] == 31 && C[3] == 46 );
	hyb_dev_event_destroy( d, e1 );
	hyb_dev_event_destroy( d, e2 );
	hyb_dev_event_destroy( d, NULL );
	hyb_dev_release( d );
	hyb_t_sim_end();
}

/* ------------------------------------------------------------------ faults */

static void test_fault_plans( void )
{
	static const char* good[] = { "",
		                          "h2d:3",
		                          "gemm:7a,alloc:1",
		                          "any:2",
		                          "pause:2a,memset:1",
		                          "sync:1,d2h:4a,kernel:2,trsm:1,trmm:9,pinned:1,register:3" };
	static const char* bad[]  = { "h2d",    "h2d:0", "foo:1",      "h2d:x", "h2d:3b",
		                          "h2d:-1", ":1",    "h2d:3,gemm", "a:1:2" };
	for ( unsigned i = 0; i < sizeof good / sizeof good[0]; i++ )
		CU_ASSERT_EQUAL( hyb_device_faults_set( good[i] ), HYB_OK );
	for ( unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++ )
	{
		if ( hyb_device_faults_set( bad[i] ) != HYB_E_PARSE )
			fprintf( stderr, "\n    plan \"%s\" accepted", bad[i] );
		CU_ASSERT_EQUAL( hyb_device_faults_set( bad[i] ), HYB_E_PARSE );
	}
	char many[512] = "";
	for ( int i = 0; i < 17; i++ )
		snprintf( many + strlen( many ), sizeof many - strlen( many ), "%sh2d:%d", i ? "," : "",
		          i + 1 );
	CU_ASSERT_EQUAL( hyb_device_faults_set( many ), HYB_E_PARSE );
	CU_ASSERT_EQUAL( hyb_device_faults_set( NULL ), HYB_OK );

	/* A rejected plan injects nothing. */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "h2d:1,gemm" ), HYB_E_PARSE );
	hyb_dev_t* d = NULL;
	void*      dev;
	char       buf[64] = { 0 };
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
	hyb_status_t st = hyb_dev_h2d( d, HYB_STREAM_H2D, dev, 64, buf, 64, 64, 1 );
	if ( st == HYB_OK ) st = hyb_dev_stream_sync( d, HYB_STREAM_H2D );
	if ( st != HYB_OK )
		fprintf( stderr, "\n    the rejected plan \"h2d:1,gemm\" still injected a fault" );
	CU_ASSERT_EQUAL( st, HYB_OK );
	hyb_dev_release( d );
	hyb_t_sim_end();
}

/* The N-th operation of a kind fails (synchronously: at once; 'a': the
   operation is dropped and the next synchronization reports it, and later
   work of that context is dropped too). */
static void test_fault_semantics( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	unsigned char host[256], back[256];
	for ( int i = 0; i < 256; i++ ) host[i] = (unsigned char)i;
	for ( int async = 0; async < 2; async++ )
	{
		hyb_dev_t* d = NULL;
		void*      dev;
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
		memset( back, 0, sizeof back );
		CU_ASSERT_EQUAL( hyb_device_faults_set( async ? "h2d:2a" : "h2d:2" ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_H2D, dev, 128, host, 128, 128, 1 ), HYB_OK );
		hyb_status_t st =
		    hyb_dev_h2d( d, HYB_STREAM_H2D, (char*)dev + 128, 128, host + 128, 128, 128, 1 );
		CU_ASSERT_EQUAL( st, async ? HYB_OK : HYB_E_INJECTED );
		CU_ASSERT_EQUAL( atomic_load( &d->broken ), 1 );
		if ( async )
		{
			/* Reported by the next synchronization, again and again. */
			CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, HYB_STREAM_H2D ), HYB_E_INJECTED );
			hyb_devent_t* e = NULL;
			CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &e ), HYB_OK );
			CU_ASSERT_EQUAL( hyb_dev_record( d, HYB_STREAM_D2H, e ), HYB_OK );
			CU_ASSERT_EQUAL( hyb_dev_sync( d, e ), HYB_E_INJECTED );
			/* Work after the failure is dropped: the download writes nothing. */
			CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_D2H, back, 128, dev, 128, 128, 1 ),
			                 HYB_OK );
			hyb_dev_stream_sync( d, HYB_STREAM_D2H );
			CU_ASSERT_EQUAL( back[5], 0 );
			hyb_dev_event_destroy( d, e );
		}
		hyb_device_faults_set( NULL );
		/* Queued copies must be finished before the context (and its
		   workspace) goes: the simulated device frees at once (a real
		   cudaFree would wait). */
		for ( int q = 0; q < HYB_STREAM_COUNT; q++ ) hyb_dev_stream_sync( d, q );
		hyb_dev_release( d ); /* broken: destroyed */
		/* The next context works. */
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
		CU_ASSERT_EQUAL( atomic_load( &d->broken ), 0 );
		CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_H2D, dev, 128, host, 128, 128, 1 ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_H2D, back, 128, dev, 128, 128, 1 ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, HYB_STREAM_H2D ), HYB_OK );
		CU_ASSERT( memcmp( back, host, 128 ) == 0 );
		for ( int q = 0; q < HYB_STREAM_COUNT; q++ ) hyb_dev_stream_sync( d, q );
		hyb_dev_release( d );
	}

	/* sync, any, kernel kinds. */
	hyb_dev_t* d = NULL;
	void*      dev;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
	hyb_devent_t* e = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &e ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "sync:2" ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_record( d, HYB_STREAM_H2D, e ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_sync( d, e ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_sync( d, e ), HYB_E_INJECTED );
	hyb_dev_event_destroy( d, e );
	hyb_device_faults_set( NULL );
	hyb_dev_release( d );

	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "any:3" ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );                         /* 1 */
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_H2D, dev, 64, host, 64, 64, 1 ), HYB_OK ); /* 2 */
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_D2H, back, 64, dev, 64, 64, 1 ),
	                 HYB_E_INJECTED ); /* 3 */
	hyb_device_faults_set( NULL );
	for ( int q = 0; q < HYB_STREAM_COUNT; q++ ) hyb_dev_stream_sync( d, q );
	hyb_dev_release( d );

	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "kernel:1" ), HYB_OK );
	double z[2] = { 0 };
	CU_ASSERT_EQUAL( hyb_dev_vadd( d, HYB_STREAM_COMPUTE, HYB_PREC_D, 2, dev, z ), HYB_E_INJECTED );
	hyb_device_faults_set( NULL );
	hyb_dev_release( d );
	hyb_t_sim_end();
}

/* Allocation failures are synchronous on a real device: an asynchronous
   plan for them must still never return HYB_OK without the buffer. */
static void test_fault_async_alloc( void )
{
	static const char* plans[] = { "alloc:1a", "pinned:1a", "any:1a" };
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	for ( unsigned i = 0; i < 3; i++ )
	{
		hyb_dev_t* d = NULL;
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_device_faults_set( plans[i] ), HYB_OK );
		void*        p = NULL;
		hyb_status_t st =
		    i == 1 ? hyb_dev_staging( d, 4096, &p ) : hyb_dev_workspace( d, 4096, &p );
		if ( st == HYB_OK && p == NULL )
			fprintf( stderr, "\n    %s: HYB_OK without a buffer", plans[i] );
		CU_ASSERT( st != HYB_OK || p != NULL );
		/* A later allocation on the failed context never hands out nothing. */
		void* q = NULL;
		st      = hyb_dev_staging( d, 8192, &q );
		CU_ASSERT( st != HYB_OK || q != NULL );
		hyb_device_faults_set( NULL );
		hyb_dev_release( d );
	}
	hyb_t_sim_end();
}

/* ------------------------------------------------------------------ tridiagonal pivots */

/* The sim device's gtsv_pivots (partition rule: 50000 rows are ~200 partitions at warm 40)
   against a serial double-precision recurrence from `first`, on a row-dominant chunk
   (|d| >= 3 (|dl[i-1]| + |du[i]|), values of both signs): out[0] = first exactly, every row
   within 8 eps of the precision, from first = d[0] and from another first. The arrays go
   up on the copy stream and the kernel waits for them on the compute stream. Then argument
   errors and an injected kernel fault. */
static void test_gtsv_pivots( void )
{
	const int64_t n = 50000, warm = 40;
	const size_t  nb   = (size_t)n * sizeof( double );
	double*       dl   = malloc( nb );
	double*       dd   = malloc( nb );
	double*       du   = malloc( nb );
	double*       ref  = malloc( nb );
	double*       host = malloc( 4 * nb ); /* dl, d, du, out in a precision */
	CU_ASSERT_FATAL( dl && dd && du && ref && host );
	hyb_t_rng_t r = hyb_t_rng( 2024 );
	for ( int64_t i = 0; i + 1 < n; i++ ) dl[i] = hyb_t_unit( &r ), du[i] = hyb_t_unit( &r );
	for ( int64_t i = 0; i < n; i++ )
	{
		double off = ( i >= 1 ? fabs( dl[i - 1] ) : 0 ) + ( i + 1 < n ? fabs( du[i] ) : 0 );
		double mag = 3 * ( off > 0 ? off : 1 ) * ( 1 + 0.25 * hyb_t_frac( &r ) ) * ( 1 + 1e-6 );
		dd[i]      = hyb_t_frac( &r ) < 0.5 ? -mag : mag;
	}

	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_dev_t*    d   = NULL;
	void*         dev = NULL;
	hyb_devent_t* up  = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4 * nb, &dev ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &up ), HYB_OK );
	for ( int single = 0; single < 2; single++ )
		for ( int shifted = 0; shifted < 2; shifted++ )
		{
			hyb_prec_t prec = single ? HYB_PREC_S : HYB_PREC_D;
			size_t     es   = single ? sizeof( float ) : sizeof( double );
			char*      h    = (char*)host;
			char*      g    = dev;
			/* The chunk in the precision: dl at 0, d at n, du at 2n, out at 3n elements. */
			for ( int64_t i = 0; i < n; i++ )
			{
				double v[3] = { i + 1 < n ? dl[i] : 0, dd[i], i + 1 < n ? du[i] : 0 };
				for ( int a = 0; a < 3; a++ )
				{
					if ( single )
						( (float*)h )[a * n + i] = (float)v[a];
					else
						( (double*)h )[a * n + i] = v[a];
				}
			}
			/* first = d[0], or 0.3 further from zero (the chunk stays dominant). */
			double f0    = dd[0] + copysign( 0.3, dd[0] ) * shifted;
			double first = single ? (double)(float)f0 : f0;
			/* The reference: the exact recurrence from `first` on the values the device sees. */
			ref[0] = first;
			for ( int64_t i = 1; i < n; i++ )
			{
				double l = single ? ( (float*)h )[i - 1] : ( (double*)h )[i - 1];
				double c = single ? ( (float*)h )[n + i] : ( (double*)h )[n + i];
				double u = single ? ( (float*)h )[2 * n + i - 1] : ( (double*)h )[2 * n + i - 1];
				ref[i]   = c - ( l / ref[i - 1] ) * u;
			}
			size_t in = 3 * n * es; /* dl, d, du */
			CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_H2D, g, in, h, in, in, 1 ), HYB_OK );
			CU_ASSERT_EQUAL( hyb_dev_record( d, HYB_STREAM_H2D, up ), HYB_OK );
			CU_ASSERT_EQUAL( hyb_dev_wait( d, HYB_STREAM_COMPUTE, up ), HYB_OK );
			CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, prec, n, g, g + n * es,
			                                      g + 2 * n * es, g + 3 * n * es, first, warm ),
			                 HYB_OK );
			memset( h + 3 * n * es, 0, n * es );
			CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_COMPUTE, h + 3 * n * es, n * es,
			                              g + 3 * n * es, n * es, n * es, 1 ),
			                 HYB_OK );
			CU_ASSERT_EQUAL_FATAL( hyb_dev_stream_sync( d, HYB_STREAM_COMPUTE ), HYB_OK );
			double  eps = single ? FLT_EPSILON : DBL_EPSILON, worst = 0;
			int64_t at = 0;
			for ( int64_t i = 0; i < n; i++ )
			{
				double o = single ? ( (float*)h )[3 * n + i] : ( (double*)h )[3 * n + i];
				double e = fabs( o - ref[i] ) / fabs( ref[i] );
				if ( !( e <= worst ) ) worst = e, at = i; /* NaN shows */
			}
			double o0 = single ? ( (float*)h )[3 * n] : ( (double*)h )[3 * n];
			if ( !( worst <= 8 * eps ) || o0 != first )
				fprintf( stderr,
				         "\n    %c first %s: row 0 %.17g (first %.17g), max rel. error %.3g eps at "
				         "row %ld",
				         single ? 's' : 'd', shifted ? "d[0]+-0.3" : "d[0]", o0, first, worst / eps,
				         (long)at );
			CU_ASSERT( worst <= 8 * eps );
			CU_ASSERT( o0 == first );
		}
	hyb_dev_event_destroy( d, up );

	/* Argument errors (nothing queued) and a complex precision. */
	char* g = dev;
	CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_D, n, g, g + 8 * n,
	                                      g + 16 * n, g + 24 * n, 1.0, 0 ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_Z, n, g, g + 8 * n,
	                                      g + 16 * n, g + 24 * n, 1.0, warm ),
	                 HYB_E_NOT_SUPPORTED );
	CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_D, 0, NULL, NULL, NULL,
	                                      NULL, 1.0, warm ),
	                 HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, HYB_STREAM_COMPUTE ), HYB_OK );

	/* An injected kernel fault: synchronous (the call fails), then asynchronous (the next
	   synchronization fails and the output is not written). */
	for ( int async = 0; async < 2; async++ )
	{
		if ( async )
		{
			CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
			CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4 * nb, &dev ), HYB_OK );
			g = dev;
			memset( g + 24 * n, 0, nb ); /* sim memory is host memory */
		}
		CU_ASSERT_EQUAL( hyb_device_faults_set( async ? "kernel:1a" : "kernel:1" ), HYB_OK );
		hyb_status_t st = hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_D, n, g, g + 8 * n,
		                                       g + 16 * n, g + 24 * n, 1.0, warm );
		CU_ASSERT_EQUAL( st, async ? HYB_OK : HYB_E_INJECTED );
		CU_ASSERT_EQUAL( atomic_load( &d->broken ), 1 );
		if ( async )
		{
			CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, HYB_STREAM_COMPUTE ), HYB_E_INJECTED );
			CU_ASSERT_EQUAL( ( (double*)( g + 24 * n ) )[1], 0.0 ); /* sim memory is host memory */
		}
		hyb_device_faults_set( NULL );
		for ( int q = 0; q < HYB_STREAM_COUNT; q++ ) hyb_dev_stream_sync( d, q );
		hyb_dev_release( d ); /* broken: destroyed */
	}
	hyb_t_sim_end();
	free( dl );
	free( dd );
	free( du );
	free( ref );
	free( host );
}

/* ------------------------------------------------------------------ registered kernels */

/* Two kernels of this test's own: one the simulated device runs (it records what its
   launcher saw), one no backend implements. */
typedef struct
{
	int*        out;
	int         value;
	atomic_int* ordinal;
} tdr_echo_args_t;

static hyb_status_t tdr_echo_sim( const hyb_kernel_env_t* env, const void* args )
{
	const tdr_echo_args_t* a = args;
	if ( env->stream != NULL || env->blas != NULL || env->sparse != NULL ) return HYB_E_DEVICE;
	atomic_store( a->ordinal, env->ordinal );
	*a->out = a->value;
	return a->value < 0 ? HYB_E_DEVICE : HYB_OK; /* a failing kernel: value < 0 */
}

static hyb_status_t tdr_echo_check( const void* args )
{
	return ( (const tdr_echo_args_t*)args )->out ? HYB_OK : HYB_E_INVALID;
}

static const hyb_kernel_def_t tdr_echo_kernel  = { .name      = "test.echo",
	                                               .args_size = sizeof( tdr_echo_args_t ),
	                                               .check     = tdr_echo_check,
	                                               .sim       = tdr_echo_sim };
static const hyb_kernel_def_t tdr_nosim_kernel = { .name = "test.nowhere", .args_size = 8 };
HYB_KERNEL_REGISTER( tdr_echo_kernel );
HYB_KERNEL_REGISTER( tdr_nosim_kernel );

static void test_kernel_table( void )
{
	static const char* family[] = { "l3.gemm",  "l3.trsm",   "l3.trmm",    "spmv.ell",   "spmv.dia",
		                            "spmv.csr", "spmv.vadd", "gtsv.spike", "gtsv.pivots" };
	int                n        = hyb_kernel_count();
	CU_ASSERT( n >= 11 );
	for ( unsigned i = 0; i < sizeof family / sizeof family[0]; i++ )
	{
		hyb_kernel_id_t id = hyb_kernel_find( family[i] );
		if ( id == HYB_KERNEL_NONE ) fprintf( stderr, "\n    kernel %s not registered", family[i] );
		CU_ASSERT_FATAL( id != HYB_KERNEL_NONE );
		CU_ASSERT_STRING_EQUAL( hyb_kernel_def( id )->name, family[i] );
		CU_ASSERT( hyb_kernel_def( id )->sim != NULL );
		CU_ASSERT( hyb_kernel_def( id )->args_size > 0 );
	}
	/* Aliases, ids by declaration, distinct ids, unknown names. */
	CU_ASSERT_EQUAL( hyb_kernel_find( "gemm" ), hyb_kernel_find( "l3.gemm" ) );
	CU_ASSERT_EQUAL( hyb_kernel_find( "trsm" ), hyb_kernel_id( &hyb_l3_trsm_kernel ) );
	CU_ASSERT_EQUAL( hyb_kernel_id( &hyb_spmv_ell_kernel ), hyb_kernel_find( "spmv.ell" ) );
	CU_ASSERT_NOT_EQUAL( hyb_kernel_find( "spmv.ell" ), hyb_kernel_find( "spmv.dia" ) );
	CU_ASSERT_EQUAL( hyb_kernel_find( "spmv.nope" ), HYB_KERNEL_NONE );
	CU_ASSERT_EQUAL( hyb_kernel_find( NULL ), HYB_KERNEL_NONE );
	CU_ASSERT_PTR_NULL( hyb_kernel_def( n ) );
	CU_ASSERT_PTR_NULL( hyb_kernel_def( -1 ) );
	atomic_int      cache = 0;
	hyb_kernel_id_t id    = hyb_kernel_id_cached( &cache, &hyb_gtsv_spike_kernel );
	CU_ASSERT_EQUAL( id, hyb_kernel_find( "gtsv.spike" ) );
	CU_ASSERT_EQUAL( hyb_kernel_id_cached( &cache, &hyb_gtsv_spike_kernel ), id );
	/* This file's kernels; names the table refuses. */
	CU_ASSERT( hyb_kernel_find( "test.echo" ) != HYB_KERNEL_NONE );
	CU_ASSERT( hyb_kernel_find( "test.nowhere" ) != HYB_KERNEL_NONE );
	CU_ASSERT( hyb_kernel_name_valid( "a.b" ) && hyb_kernel_name_valid( "stencil.acoustic_25" ) );
	static const char* bad[] = { "ab", "A.b", ".b", "a.", "a.b.c", "a-b.c", "", "a. b" };
	for ( unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++ )
		CU_ASSERT_FALSE( hyb_kernel_name_valid( bad[i] ) );
	/* The simulated device lists every kernel with a sim launcher, and only those. */
	const hyb_device_ops_t* sim    = hyb_sim_device_ops();
	int                     listed = 0, nosim = 0;
	for ( int i = 0; sim->kernel_name( i ); i++ )
	{
		listed++;
		nosim += strcmp( sim->kernel_name( i ), "test.nowhere" ) == 0;
	}
	int with_sim = 0;
	for ( int k = 0; k < n; k++ ) with_sim += hyb_kernel_def( k )->sim != NULL;
	CU_ASSERT_EQUAL( listed, with_sim );
	CU_ASSERT_EQUAL( nosim, 0 );
}

/* A launch by id: the arguments are copied at launch, the launcher runs in stream order
   with the simulated device's environment; a kernel the backend lacks and failed
   argument checks queue nothing and leave the context usable; a failing kernel fails the
   context at the next synchronization. */
static void test_kernel_launch( void )
{
	hyb_kernel_id_t echo    = hyb_kernel_id( &tdr_echo_kernel ),
	                nowhere = hyb_kernel_id( &tdr_nosim_kernel );
	CU_ASSERT_FATAL( echo != HYB_KERNEL_NONE && nowhere != HYB_KERNEL_NONE );
	CU_ASSERT_FALSE( hyb_devices_kernel_supported( echo ) ); /* no device yet */
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 2, "64M", NULL ), HYB_OK );
	CU_ASSERT( hyb_devices_kernel_supported( echo ) );
	CU_ASSERT_FALSE( hyb_devices_kernel_supported( nowhere ) );
	CU_ASSERT_FALSE( hyb_devices_kernel_supported( -1 ) );
	CU_ASSERT_FALSE( hyb_devices_kernel_supported( HYB_KERNEL_MAX ) );
	hyb_dev_t* d = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 1, &d ), HYB_OK );
	int             out[HYB_DEV_STREAMS] = { 0 };
	atomic_int      ordinal              = -1;
	tdr_echo_args_t a                    = { .ordinal = &ordinal };
	for ( int s = 0; s < HYB_DEV_STREAMS; s++ )
	{
		a.out   = &out[s];
		a.value = 100 + s;
		CU_ASSERT_EQUAL( hyb_dev_launch( d, s, echo, &a ), HYB_OK );
	}
	a.value = -7; /* the copy taken at launch ran, not this */
	for ( int s = 0; s < HYB_DEV_STREAMS; s++ )
		CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, s ), HYB_OK );
	for ( int s = 0; s < HYB_DEV_STREAMS; s++ ) CU_ASSERT_EQUAL( out[s], 100 + s );
	CU_ASSERT_EQUAL( atomic_load( &ordinal ), 1 );
	/* Out-of-range streams, unknown and unimplemented kernels, failed checks. */
	a.value = 1;
	CU_ASSERT_EQUAL( hyb_dev_launch( d, HYB_DEV_STREAMS, echo, &a ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dev_launch( d, -1, echo, &a ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dev_launch( d, 0, nowhere, &a ), HYB_E_NOT_SUPPORTED );
	CU_ASSERT_EQUAL( hyb_dev_launch( d, 0, -1, &a ), HYB_E_NOT_SUPPORTED );
	CU_ASSERT_EQUAL( hyb_dev_launch( d, 0, echo, NULL ), HYB_E_INVALID );
	a.out = NULL;
	CU_ASSERT_EQUAL( hyb_dev_launch( d, 0, echo, &a ), HYB_E_INVALID );
	double z[2] = { 1, 2 }, y[2] = { 0, 0 };
	CU_ASSERT_EQUAL( hyb_dev_vadd( d, 0, HYB_PREC_Z, 1, z, y ), HYB_E_NOT_SUPPORTED );
	CU_ASSERT_EQUAL( atomic_load( &d->broken ), 0 );
	CU_ASSERT_EQUAL( hyb_dev_vadd( d, 3, HYB_PREC_D, 2, z, y ), HYB_OK ); /* any stream */
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, 3 ), HYB_OK );
	CU_ASSERT( y[0] == 1 && y[1] == 2 );
	/* The simulated device reports no attributes. */
	hyb_kernel_attr_t attr;
	memset( &attr, 0xff, sizeof attr );
	CU_ASSERT_EQUAL( hyb_dev_kernel_attr( d, hyb_kernel_id( &hyb_spmv_ell_kernel ), 128, 0, &attr ),
	                 HYB_E_NOT_SUPPORTED );
	CU_ASSERT( attr.regs_per_thread == 0 && attr.occupancy == 0 && attr.blocks_per_sm == 0 );
	CU_ASSERT_EQUAL( hyb_dev_kernel_attr( d, nowhere, 128, 0, &attr ), HYB_E_NOT_SUPPORTED );
	/* A kernel that fails: reported by the next synchronization, later work dropped. */
	a.out   = &out[0];
	a.value = -1;
	CU_ASSERT_EQUAL( hyb_dev_launch( d, 2, echo, &a ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, 2 ), HYB_E_DEVICE );
	CU_ASSERT_EQUAL( atomic_load( &d->broken ), 1 );
	a.value = 55;
	CU_ASSERT_EQUAL( hyb_dev_launch( d, 2, echo, &a ), HYB_OK );
	CU_ASSERT_NOT_EQUAL( hyb_dev_stream_sync( d, 2 ), HYB_OK );
	CU_ASSERT_EQUAL( out[0], -1 );
	hyb_dev_release( d );
	hyb_t_sim_end();
	CU_ASSERT_FALSE( hyb_devices_kernel_supported( echo ) );
}

/* Device-to-device copies and memsets on streams beyond the named three, ordered by
   events; their fault kinds. */
static void test_d2d_memset( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_dev_t* d = NULL;
	void*      dev;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
	unsigned char  host[256], back[6 * 40];
	unsigned char* g = dev;
	for ( int i = 0; i < 256; i++ ) host[i] = (unsigned char)( 3 * i + 1 );
	hyb_devent_t *up = NULL, *moved = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &up ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &moved ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_memset( d, 4, g + 1024, 0x5a, 1024 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, 4, g, 256, host, 256, 256, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_record( d, 4, up ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_wait( d, 6, up ), HYB_OK );
	/* 6 rows of 40 bytes, source pitch 40, destination pitch 64. */
	CU_ASSERT_EQUAL( hyb_dev_d2d( d, 6, g + 1024, 64, g, 40, 40, 6 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_record( d, 6, moved ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_wait( d, 7, moved ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, 7, back, 40, g + 1024, 64, 40, 6 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, 7 ), HYB_OK );
	CU_ASSERT( memcmp( back, host, sizeof back ) == 0 );
	unsigned char pad = 0;
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, 7, &pad, 1, g + 1024 + 50, 1, 1, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, 7 ), HYB_OK );
	CU_ASSERT_EQUAL( pad, 0x5a ); /* between the rows: the memset's */
	CU_ASSERT_EQUAL( hyb_dev_d2d( d, 5, g, 10, g + 100, 20, 20, 1 ),
	                 HYB_E_INVALID ); /* width > pitch */
	hyb_dev_event_destroy( d, up );
	hyb_dev_event_destroy( d, moved );
	for ( int async = 0; async < 2; async++ )
		for ( int kind = 0; kind < 2; kind++ )
		{
			CU_ASSERT_EQUAL( hyb_device_faults_set( kind ? ( async ? "memset:2a" : "memset:2" )
			                                             : ( async ? "d2d:2a" : "d2d:2" ) ),
			                 HYB_OK );
			hyb_status_t st1 = kind ? hyb_dev_memset( d, 5, g, 0, 16 )
			                        : hyb_dev_d2d( d, 5, g, 16, g + 64, 16, 16, 1 );
			hyb_status_t st2 = kind ? hyb_dev_memset( d, 5, g, 0, 16 )
			                        : hyb_dev_d2d( d, 5, g, 16, g + 64, 16, 16, 1 );
			CU_ASSERT_EQUAL( st1, HYB_OK );
			CU_ASSERT_EQUAL( st2, async ? HYB_OK : HYB_E_INJECTED );
			CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, 5 ), async ? HYB_E_INJECTED : HYB_OK );
			CU_ASSERT_EQUAL( atomic_load( &d->broken ), 1 );
			hyb_device_faults_set( NULL );
			hyb_dev_release( d );
			CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
			CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
			g = dev;
		}
	hyb_dev_release( d );
	hyb_t_sim_end();
}

/* A pause holds its stream for at least its time and only its stream: the copy queued after
   it waits, a copy on another stream does not; a pause of 0 queues nothing; the "pause"
   fault kind, synchronous and asynchronous. */
static void test_stream_pause( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	hyb_dev_t* d = NULL;
	void*      dev;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
	unsigned char  host[64], back[64], other[64];
	unsigned char* g = dev;
	for ( int i = 0; i < 64; i++ ) host[i] = (unsigned char)( 5 * i + 3 );
	memset( back, 0, sizeof back );
	hyb_devent_t *before = NULL, *after = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &before ), HYB_OK );
	CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( d, &after ), HYB_OK );
	const int64_t n0 = hyb_sim_pauses();
	CU_ASSERT_EQUAL( hyb_dev_pause( d, 8, 0 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_sim_pauses(), n0 );
	/* 300 ms on stream 8, then a copy behind it; stream 9 copies meanwhile. */
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, 8, g, 64, host, 64, 64, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_record( d, 8, before ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_pause( d, 8, 300000000u ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, 8, back, 64, g, 64, 64, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_record( d, 8, after ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_sim_pauses(), n0 + 1 );
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, 9, g + 1024, 64, host, 64, 64, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, 9, other, 64, g + 1024, 64, 64, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, 9 ), HYB_OK );
	CU_ASSERT( memcmp( other, host, sizeof host ) == 0 );
	CU_ASSERT_EQUAL( hyb_dev_query( d, after ), HYB_E_AGAIN ); /* stream 8 still held */
	CU_ASSERT_EQUAL( hyb_dev_sync( d, after ), HYB_OK );
	CU_ASSERT( memcmp( back, host, sizeof host ) == 0 );
	double secs = 0;
	CU_ASSERT_EQUAL( hyb_dev_elapsed( d, before, after, &secs ), HYB_OK );
	CU_ASSERT( secs >= 0.3 );
	CU_ASSERT_EQUAL( hyb_dev_pause( d, HYB_DEV_STREAMS, 1000 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( atomic_load( &d->broken ), 0 );
	hyb_dev_event_destroy( d, before );
	hyb_dev_event_destroy( d, after );
	/* The second pause fails: at once, or at the next synchronization. */
	for ( int async = 0; async < 2; async++ )
	{
		CU_ASSERT_EQUAL( hyb_device_faults_set( async ? "pause:2a" : "pause:2" ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_dev_pause( d, 4, 1000 ), HYB_OK );
		CU_ASSERT_EQUAL( hyb_dev_pause( d, 4, 1000 ), async ? HYB_OK : HYB_E_INJECTED );
		CU_ASSERT_EQUAL( hyb_dev_stream_sync( d, 4 ), async ? HYB_E_INJECTED : HYB_OK );
		CU_ASSERT_EQUAL( atomic_load( &d->broken ), 1 );
		hyb_device_faults_set( NULL );
		hyb_dev_release( d );
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
	}
	hyb_dev_release( d );
	hyb_t_sim_end();
}

/* A kernel addressed by name or alias in a fault plan: its own launches are counted, the
   other kernels' are not; "kernel" counts every launch. */
static void test_fault_by_kernel_name( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "64M", NULL ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "spmv.nope:1" ), HYB_E_PARSE );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "test.echo:1,spmv.vadd:2a,l3.trsm:4" ), HYB_OK );
	double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
	static const struct
	{
		const char* plan;
		int         fails_at; /* the launch of the sequence below that fails, 1-based */
		int         async;
	} cases[] = { { "spmv.vadd:2", 3, 0 }, { "spmv.vadd:2a", 3, 1 }, { "gemm:1", 2, 0 },
		          { "l3.gemm:2a", 4, 1 },  { "kernel:3", 3, 0 },     { "kernel:1a", 1, 1 } };
	for ( unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++ )
	{
		hyb_dev_t* d = NULL;
		void*      dev;
		CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 0, &d ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );
		double* g = dev;
		memset( g, 0, 64 * sizeof( double ) );
		CU_ASSERT_EQUAL( hyb_device_faults_set( cases[c].plan ), HYB_OK );
		/* vadd, gemm, vadd, gemm */
		hyb_status_t st[4];
		st[0]   = hyb_dev_vadd( d, 1, HYB_PREC_D, 4, g, g + 8 );
		st[1]   = hyb_dev_gemm( d, 1, HYB_PREC_D, 'N', 'N', 2, 2, 2, one, g, 2, g + 4, 2, zero,
		                        g + 16, 2 );
		st[2]   = hyb_dev_vadd( d, 1, HYB_PREC_D, 4, g, g + 8 );
		st[3]   = hyb_dev_gemm( d, 1, HYB_PREC_D, 'N', 'N', 2, 2, 2, one, g, 2, g + 4, 2, zero,
		                        g + 16, 2 );
		int bad = 0;
		for ( int i = 0; i < 4; i++ )
			bad += st[i] !=
			       ( i + 1 == cases[c].fails_at && !cases[c].async ? HYB_E_INJECTED : HYB_OK );
		hyb_status_t sync = hyb_dev_stream_sync( d, 1 );
		bad += sync != ( cases[c].async ? HYB_E_INJECTED : HYB_OK );
		bad += atomic_load( &d->broken ) != 1;
		if ( bad )
			fprintf( stderr, "\n    plan %s: statuses %d %d %d %d, sync %d", cases[c].plan, st[0],
			         st[1], st[2], st[3], sync );
		CU_ASSERT_EQUAL( bad, 0 );
		hyb_device_faults_set( NULL );
		hyb_dev_release( d );
	}
	hyb_t_sim_end();
}

static void test_disable_and_reset( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 2, "64M", NULL ), HYB_OK );
	hyb_dev_t* d = NULL;
	CU_ASSERT_EQUAL_FATAL( hyb_dev_acquire( 1, &d ), HYB_OK );
	char log[4096];
	hyb_t_log_begin( HYB_LOG_SILENT );
	hyb_devices_disable( "unit test" );
	hyb_devices_disable( "second time" ); /* once */
	hyb_t_log_end( log, sizeof log );
	CU_ASSERT_EQUAL( hyb_t_count( log, "unit test" ), 1 );
	CU_ASSERT_EQUAL( hyb_t_count( log, "second time" ), 0 );
	CU_ASSERT_EQUAL( hyb_devices_count(), 0 );
	CU_ASSERT_EQUAL( hyb_devices_ensure(), HYB_E_DEVICE );
	hyb_dev_t* e = NULL;
	CU_ASSERT_NOT_EQUAL( hyb_dev_acquire( 0, &e ), HYB_OK );
	hyb_dev_release( d ); /* the held context is destroyed, not pooled */
	hyb_devices_reset_for_test();
	CU_ASSERT_EQUAL( hyb_devices_ensure(), HYB_OK );
	CU_ASSERT_EQUAL( hyb_devices_count(), 2 );
	hyb_t_sim_end();
}

static CU_TestInfo hyb_tests_device_registry[] = {
	{ "init_and_info", test_init_and_info },
	{ "no_device", test_no_device },
	{ "selection", test_selection },
	{ "pool", test_pool },
	{ "workspace_budget", test_workspace_budget },
	{ "copies_events", test_copies_events },
	{ "fault_plans", test_fault_plans },
	{ "fault_semantics", test_fault_semantics },
	{ "fault_async_alloc", test_fault_async_alloc },
	{ "gtsv_pivots", test_gtsv_pivots },
	{ "kernel_table", test_kernel_table },
	{ "kernel_launch", test_kernel_launch },
	{ "d2d_memset", test_d2d_memset },
	{ "stream_pause", test_stream_pause },
	{ "fault_by_kernel_name", test_fault_by_kernel_name },
	{ "disable_and_reset", test_disable_and_reset },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_device_registry = { "device_registry",        NULL, NULL, NULL, NULL,
	                                       hyb_tests_device_registry };
