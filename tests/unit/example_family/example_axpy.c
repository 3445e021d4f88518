/* SPDX-License-Identifier: BSD-3-Clause */
/* A family that lives only in this folder: y = a x + y with a registered kernel
   ("example.axpy", a sim launcher and no CUDA one) behind a device path that falls back to
   the CPU, checked on the simulated device for results, per-kernel fault injection, the
   registry's listing and the operation's counts. It edits no file of the library:
   the proof that a family plugs into the device runtime through its seams alone. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "hyb_op.h"
#include "hyb_stats.h"
#include "kernels/hyb_device.h"

/* ------------------------------------------------------------ the family */

typedef struct
{
	int64_t       n;
	double        a;
	const double* x; /* device memory */
	double*       y;
} ex_axpy_kargs_t;

static hyb_status_t ex_axpy_sim( const hyb_kernel_env_t* env, const void* args )
{
	(void)env;
	const ex_axpy_kargs_t* k = args;
	for ( int64_t i = 0; i < k->n; i++ ) k->y[i] += k->a * k->x[i];
	return HYB_OK;
}

static hyb_status_t ex_axpy_check( const void* args )
{
	const ex_axpy_kargs_t* k = args;
	return k->n >= 0 && ( k->n == 0 || ( k->x && k->y ) ) ? HYB_OK : HYB_E_INVALID;
}

static void ex_axpy_work( const void* args, double* flops, double* bytes )
{
	const ex_axpy_kargs_t* k = args;
	*flops                   = 2.0 * (double)k->n;
	*bytes                   = 24.0 * (double)k->n;
}

static const hyb_kernel_def_t ex_axpy_kernel = { .name      = "example.axpy",
	                                             .args_size = sizeof( ex_axpy_kargs_t ),
	                                             .check     = ex_axpy_check,
	                                             .sim       = ex_axpy_sim,
	                                             .work      = ex_axpy_work };
HYB_KERNEL_REGISTER( ex_axpy_kernel );

/* The family's one device path: up, launch, down on three streams ordered by events. */
static hyb_status_t ex_axpy_device( int64_t n, double a, const double* x, double* y )
{
	static atomic_int id;
	hyb_dev_t*        d  = NULL;
	hyb_status_t      st = hyb_dev_acquire( 0, &d );
	if ( st != HYB_OK ) return st;
	size_t        bytes = (size_t)n * sizeof( double );
	void*         ws    = NULL;
	hyb_devent_t* up    = NULL;
	hyb_devent_t* done  = NULL;
	if ( ( st = hyb_dev_workspace( d, 2 * bytes, &ws ) ) == HYB_OK &&
	     ( st = hyb_dev_event_create( d, &up ) ) == HYB_OK &&
	     ( st = hyb_dev_event_create( d, &done ) ) == HYB_OK )
	{
		double*         gx = ws;
		double*         gy = gx + n;
		ex_axpy_kargs_t k  = { n, a, gx, gy };
		if ( ( st = hyb_dev_h2d( d, HYB_STREAM_H2D, gx, bytes, x, bytes, bytes, 1 ) ) == HYB_OK &&
		     ( st = hyb_dev_h2d( d, HYB_STREAM_H2D, gy, bytes, y, bytes, bytes, 1 ) ) == HYB_OK &&
		     ( st = hyb_dev_record( d, HYB_STREAM_H2D, up ) ) == HYB_OK &&
		     ( st = hyb_dev_wait( d, 5, up ) ) == HYB_OK &&
		     ( st = hyb_dev_launch( d, 5, hyb_kernel_id_cached( &id, &ex_axpy_kernel ), &k ) ) ==
		         HYB_OK &&
		     ( st = hyb_dev_record( d, 5, done ) ) == HYB_OK &&
		     ( st = hyb_dev_wait( d, HYB_STREAM_D2H, done ) ) == HYB_OK &&
		     ( st = hyb_dev_d2h( d, HYB_STREAM_D2H, y, bytes, gy, bytes, bytes, 1 ) ) == HYB_OK )
			st = hyb_dev_stream_sync( d, HYB_STREAM_D2H );
	}
	/* Nothing may still be writing y when the CPU takes over. */
	for ( int s = 0; s < HYB_DEV_STREAMS; s++ ) hyb_dev_stream_sync( d, s );
	if ( up ) hyb_dev_event_destroy( d, up );
	if ( done ) hyb_dev_event_destroy( d, done );
	hyb_dev_release( d );
	return st;
}

/* y = a x + y; on the device where it can, else (or after any device failure, y being
   rewritten from the caller's untouched copy) on the CPU. *path: 1 device, 0 CPU. Each
   call is counted as the operation "example.axpy", like any routine. */
static void ex_axpy( int64_t n, double a, const double* x, double* y, int* path )
{
	static atomic_int op = HYB_OP_NONE;
	if ( atomic_load( &op ) == HYB_OP_NONE )
		atomic_store( &op, hyb_op_register( "example.axpy", "example" ) );
	double* keep = malloc( (size_t)n * sizeof *keep );
	if ( keep ) memcpy( keep, y, (size_t)n * sizeof *keep );
	*path = keep && hyb_devices_ensure() == HYB_OK && ex_axpy_device( n, a, x, y ) == HYB_OK;
	if ( !*path )
	{
		if ( keep ) memcpy( y, keep, (size_t)n * sizeof *keep );
		for ( int64_t i = 0; i < n; i++ ) y[i] += a * x[i];
		hyb_stats_fallback( atomic_load( &op ) );
	}
	free( keep );
	hyb_stats_record( atomic_load( &op ), *path ? HYB_PATH_GPU : HYB_PATH_FALLBACK, -1,
	                  2.0 * (double)n, 0 );
}

/* ------------------------------------------------------------ the checks */

static int failures;

static void expect( int ok, const char* what )
{
	printf( "%s %s\n", ok ? "ok  " : "FAIL", what );
	failures += !ok;
}

/* One call; returns its path and checks y against a + 2 i (x = i, y = 2 i, a = 3:
   exact in doubles). */
static int run_one( const char* what )
{
	enum
	{
		N = 4096
	};
	static double x[N], y[N];
	for ( int i = 0; i < N; i++ ) x[i] = i, y[i] = 2.0 * i;
	int path = -1;
	ex_axpy( N, 3.0, x, y, &path );
	int right = 1;
	for ( int i = 0; i < N; i++ ) right &= y[i] == 5.0 * i;
	char line[160];
	snprintf( line, sizeof line, "%s: %s path, y exact", what, path ? "device" : "CPU" );
	expect( right, line );
	return path;
}

int main( void )
{
	setenv( "HYBLAS_DEVICE", "sim", 1 );
	hyb_config();
	hyb_kernel_id_t id = hyb_kernel_find( "example.axpy" );
	expect( id != HYB_KERNEL_NONE && hyb_kernel_def( id ) == &ex_axpy_kernel,
	        "registered from its own file" );
	expect( hyb_devices_ensure() == HYB_OK && hyb_devices_kernel_supported( id ),
	        "the simulated device runs it" );

	expect( run_one( "plain" ) == 1, "plain call on the device" );
	expect( hyb_device_faults_set( "example.axpy:1" ) == HYB_OK, "a fault plan names the kernel" );
	expect( run_one( "example.axpy:1" ) == 0, "an injected launch fault falls back" );
	expect( run_one( "after the fault" ) == 1, "the next call is on the device again" );
	expect( hyb_device_faults_set( "example.axpy:1a" ) == HYB_OK, "asynchronous plan" );
	expect( run_one( "example.axpy:1a" ) == 0, "an asynchronous kernel fault falls back" );
	expect( hyb_device_faults_set( "kernel:1" ) == HYB_OK, "any-kernel plan" );
	expect( run_one( "kernel:1" ) == 0, "a fault on any launch counts it" );
	hyb_device_faults_set( NULL );

	int listed = 0;
	for ( int k = 0; k < hyb_kernel_count(); k++ ) listed += hyb_kernel_def( k ) == &ex_axpy_kernel;
	expect( listed == 1, "listed once in the kernel table" );
	hyb_op_id_t op = hyb_op_find( "example.axpy" );
	expect( op != HYB_OP_NONE && strcmp( hyb_op_family_of( op ), "example" ) == 0,
	        "an operation of its own" );
	expect( hyb_stats_calls( op, HYB_PATH_GPU ) == 2 &&
	            hyb_stats_calls( op, HYB_PATH_FALLBACK ) == 3 && hyb_stats_fallbacks( op ) == 3,
	        "counted: 2 on the device, 3 fallbacks" );
	printf( "example_family: %s\n", failures ? "FAILED" : "PASSED" );
	return failures ? 1 : 0;
}
