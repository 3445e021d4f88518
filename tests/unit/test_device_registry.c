/* SPDX-License-Identifier: BSD-3-Clause */
/* The core's device layer (kernels/hyb_device_registry.c) on the simulated
   device: stage-2 init and device selection, budgets, the context pool,
   cached workspaces within the budget, copies, events, fault-injection
   plans and their synchronous and asynchronous semantics, disabling. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_log.h"
#include "hyb_test_util.h"
#include "kernels/hyb_device.h"
#include "kernels/sim/hyb_device_sim.h"

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
	static const char* ranks[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
		                           "PMI_LOCAL_RANK", "PALS_LOCAL_RANKID", "SLURM_LOCALID" };
	char*              saved[6];
	for ( int i = 0; i < 6; i++ )
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
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=9" ), HYB_OK ); /* a count beyond: all there are */
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
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 4, "32M", "HYBLAS_GPUS=all" ), HYB_OK ); /* all ignores the rank */
	CU_ASSERT_EQUAL( hyb_devices_count(), 4 );
	hyb_t_sim_end();
	unsetenv( "OMPI_COMM_WORLD_LOCAL_RANK" );

	for ( int i = 0; i < 6; i++ )
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
	double A[4] = { 1, 2, 3, 4 }, B[4] = { 5, 6, 7, 8 }, C[4] = { 0 }, one[2] = { 1, 0 }, zero[2] = { 0, 0 };
	double* dA = dev;
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_COMPUTE, dA, 32, A, 32, 32, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_COMPUTE, dA + 4, 32, B, 32, 32, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_gemm( d, HYB_STREAM_COMPUTE, HYB_PREC_D, 'N', 'N', 2, 2, 2, one, dA, 2, dA + 4, 2, zero,
	                               dA + 8, 2 ),
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
	static const char* good[] = { "", "h2d:3", "gemm:7a,alloc:1", "any:2", "sync:1,d2h:4a,kernel:2,trsm:1,trmm:9,pinned:1,register:3" };
	static const char* bad[]  = { "h2d", "h2d:0", "foo:1", "h2d:x", "h2d:3b", "h2d:-1", ":1", "h2d:3,gemm",
		                          "a:1:2" };
	for ( unsigned i = 0; i < sizeof good / sizeof good[0]; i++ ) CU_ASSERT_EQUAL( hyb_device_faults_set( good[i] ), HYB_OK );
	for ( unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++ )
	{
		if ( hyb_device_faults_set( bad[i] ) != HYB_E_PARSE ) fprintf( stderr, "\n    plan \"%s\" accepted", bad[i] );
		CU_ASSERT_EQUAL( hyb_device_faults_set( bad[i] ), HYB_E_PARSE );
	}
	char many[512] = "";
	for ( int i = 0; i < 17; i++ ) snprintf( many + strlen( many ), sizeof many - strlen( many ), "%sh2d:%d", i ? "," : "", i + 1 );
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
	if ( st != HYB_OK ) fprintf( stderr, "\n    the rejected plan \"h2d:1,gemm\" still injected a fault" );
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
		hyb_status_t st = hyb_dev_h2d( d, HYB_STREAM_H2D, (char*)dev + 128, 128, host + 128, 128, 128, 1 );
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
			CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_D2H, back, 128, dev, 128, 128, 1 ), HYB_OK );
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
	CU_ASSERT_EQUAL( hyb_dev_workspace( d, 4096, &dev ), HYB_OK );                               /* 1 */
	CU_ASSERT_EQUAL( hyb_dev_h2d( d, HYB_STREAM_H2D, dev, 64, host, 64, 64, 1 ), HYB_OK );         /* 2 */
	CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_D2H, back, 64, dev, 64, 64, 1 ), HYB_E_INJECTED ); /* 3 */
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
		void*        p  = NULL;
		hyb_status_t st = i == 1 ? hyb_dev_staging( d, 4096, &p ) : hyb_dev_workspace( d, 4096, &p );
		if ( st == HYB_OK && p == NULL ) fprintf( stderr, "\n    %s: HYB_OK without a buffer", plans[i] );
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
			CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, prec, n, g, g + n * es, g + 2 * n * es,
			                                      g + 3 * n * es, first, warm ),
			                 HYB_OK );
			memset( h + 3 * n * es, 0, n * es );
			CU_ASSERT_EQUAL( hyb_dev_d2h( d, HYB_STREAM_COMPUTE, h + 3 * n * es, n * es, g + 3 * n * es, n * es,
			                              n * es, 1 ),
			                 HYB_OK );
			CU_ASSERT_EQUAL_FATAL( hyb_dev_stream_sync( d, HYB_STREAM_COMPUTE ), HYB_OK );
			double  eps = single ? FLT_EPSILON : DBL_EPSILON, worst = 0;
			int64_t at  = 0;
			for ( int64_t i = 0; i < n; i++ )
			{
				double o = single ? ( (float*)h )[3 * n + i] : ( (double*)h )[3 * n + i];
				double e = fabs( o - ref[i] ) / fabs( ref[i] );
				if ( !( e <= worst ) ) worst = e, at = i; /* NaN shows */
			}
			double o0 = single ? ( (float*)h )[3 * n] : ( (double*)h )[3 * n];
			if ( !( worst <= 8 * eps ) || o0 != first )
				fprintf( stderr, "\n    %c first %s: row 0 %.17g (first %.17g), max rel. error %.3g eps at row %ld",
				         single ? 's' : 'd', shifted ? "d[0]+-0.3" : "d[0]", o0, first, worst / eps, (long)at );
			CU_ASSERT( worst <= 8 * eps );
			CU_ASSERT( o0 == first );
		}
	hyb_dev_event_destroy( d, up );

	/* Argument errors (nothing queued) and a complex precision. */
	char* g = dev;
	CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_D, n, g, g + 8 * n, g + 16 * n, g + 24 * n,
	                                      1.0, 0 ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_Z, n, g, g + 8 * n, g + 16 * n, g + 24 * n,
	                                      1.0, warm ),
	                 HYB_E_NOT_SUPPORTED );
	CU_ASSERT_EQUAL( hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_D, 0, NULL, NULL, NULL, NULL, 1.0, warm ),
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
		hyb_status_t st = hyb_dev_gtsv_pivots( d, HYB_STREAM_COMPUTE, HYB_PREC_D, n, g, g + 8 * n, g + 16 * n,
		                                       g + 24 * n, 1.0, warm );
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
	{ "disable_and_reset", test_disable_and_reset },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_device_registry = { "device_registry", NULL, NULL, NULL, NULL, hyb_tests_device_registry };
