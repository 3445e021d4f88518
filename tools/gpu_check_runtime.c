/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu_check_runtime: the device runtime on a real device through the CUDA plugin: every
   registered kernel bound, streams beyond the named three, device-to-device copies and
   memsets ordered by events, a stream's pause, launches of registered kernels on any
   stream (cuBLAS bound to it), a kernel's registers and occupancy, fault injection by
   kernel name, and the threads the CUDA path creates. Exits 77 when no CUDA device is
   usable.
   Usage: gpu_check_runtime [--sim] (the plugin is found as libhyblas finds it;
   HYBLAS_PLUGIN names another). --sim runs the same checks on the simulated device, which
   reports no attributes: the check of the check, on every build. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config/hyb_config.h"
#include "tools/hyb_check_expect.h"
#include "kernels/hyb_device.h"
#include "kernels/l3/hyb_l3_kernels.h"
#include "kernels/spmv/hyb_spmv_kernels.h"

static int threads_now( void )
{
	int  n   = 0;
	DIR* dir = opendir( "/proc/self/task" );
	if ( dir == NULL ) return -1;
	for ( struct dirent* e; ( e = readdir( dir ) ) != NULL; ) n += e->d_name[0] != '.';
	closedir( dir );
	return n;
}

int main( int argc, char** argv )
{
	int sim = argc > 1 && strcmp( argv[1], "--sim" ) == 0;
	if ( sim ) setenv( "HYBLAS_DEVICE", "sim", 1 );
	int t0 = threads_now();
	hyb_config();
	hyb_status_t st = hyb_devices_ensure();
	if ( st != HYB_OK || strcmp( hyb_devices_name(), sim ? "sim" : "cuda" ) != 0 )
	{
		printf( "gpu_check_runtime: no CUDA device (%s): skipped\n", hyb_status_string( st ) );
		return 77;
	}
	int t_init = threads_now();
	printf( "device: %s; threads: %d at start, %d after the device's init\n",
	        hyb_devices_info( 0 )->name, t0, t_init );

	for ( int k = 0; k < hyb_kernel_count(); k++ )
		EXPECT( hyb_devices_kernel_supported( k ), "kernel %s has no CUDA launcher",
		        hyb_kernel_def( k )->name );

	hyb_dev_t* d = NULL;
	EXPECT( hyb_dev_acquire( 0, &d ) == HYB_OK, "acquire" );
	if ( d == NULL ) return 1;
	const int n     = 64;
	size_t    bytes = (size_t)8 * n * n * sizeof( double );
	void*     dev   = NULL;
	EXPECT( hyb_dev_workspace( d, bytes, &dev ) == HYB_OK, "workspace" );
	double *A = malloc( bytes / 8 ), *B = malloc( bytes / 8 ), *C = malloc( bytes / 8 ),
	       *R = malloc( bytes / 8 );
	if ( dev == NULL || !A || !B || !C || !R ) return 1;
	for ( int i = 0; i < n * n; i++ ) A[i] = sin( i ), B[i] = cos( 0.5 * i );
	double* g = dev; /* A at 0, B at n^2, C at 2 n^2, a copy of A at 3 n^2, a pad at 4 n^2 */
	size_t  m = (size_t)n * n;

	/* Uploads on stream 3, a memset on 7, a 2-D device copy on 5 after both, the product
	   on stream 4 (cuBLAS bound to it), the downloads on 6 after the copy and the product. */
	hyb_devent_t *up = NULL, *cleared = NULL, *moved = NULL, *done = NULL;
	EXPECT( hyb_dev_event_create( d, &up ) == HYB_OK &&
	            hyb_dev_event_create( d, &cleared ) == HYB_OK &&
	            hyb_dev_event_create( d, &moved ) == HYB_OK &&
	            hyb_dev_event_create( d, &done ) == HYB_OK,
	        "events" );
	EXPECT( hyb_dev_h2d( d, 3, g, m * 8, A, m * 8, m * 8, 1 ) == HYB_OK, "h2d A" );
	EXPECT( hyb_dev_h2d( d, 3, g + m, m * 8, B, m * 8, m * 8, 1 ) == HYB_OK, "h2d B" );
	EXPECT( hyb_dev_record( d, 3, up ) == HYB_OK, "record" );
	EXPECT( hyb_dev_memset( d, 7, g + 3 * m, 0, 2 * m * 8 ) == HYB_OK, "memset" );
	EXPECT( hyb_dev_record( d, 7, cleared ) == HYB_OK, "record" );
	EXPECT( hyb_dev_wait( d, 5, up ) == HYB_OK && hyb_dev_wait( d, 5, cleared ) == HYB_OK, "wait" );
	EXPECT( hyb_dev_d2d( d, 5, g + 3 * m, (size_t)n * 8, g, (size_t)n * 8, (size_t)( n / 2 ) * 8,
	                     (size_t)n ) == HYB_OK,
	        "d2d" );
	EXPECT( hyb_dev_record( d, 5, moved ) == HYB_OK, "record" );
	double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
	EXPECT( hyb_dev_wait( d, 4, up ) == HYB_OK, "wait" );
	EXPECT( hyb_dev_gemm( d, 4, HYB_PREC_D, 'N', 'N', n, n, n, one, g, n, g + m, n, zero, g + 2 * m,
	                      n ) == HYB_OK,
	        "gemm on stream 4" );
	EXPECT( hyb_dev_vadd( d, 4, HYB_PREC_D, (int64_t)m, g, g + 2 * m ) == HYB_OK,
	        "vadd" ); /* C += A */
	EXPECT( hyb_dev_record( d, 4, done ) == HYB_OK, "record" );
	EXPECT( hyb_dev_wait( d, 6, done ) == HYB_OK && hyb_dev_wait( d, 6, moved ) == HYB_OK, "wait" );
	EXPECT( hyb_dev_d2h( d, 6, C, m * 8, g + 2 * m, m * 8, m * 8, 1 ) == HYB_OK, "d2h C" );
	EXPECT( hyb_dev_d2h( d, 6, R, m * 8, g + 3 * m, m * 8, m * 8, 1 ) == HYB_OK, "d2h copy" );
	EXPECT( hyb_dev_stream_sync( d, 6 ) == HYB_OK, "sync" );
	double worst = 0;
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < n; i++ )
		{
			double s = A[i + j * n];
			for ( int l = 0; l < n; l++ ) s += A[i + l * n] * B[l + j * n];
			worst = fmax( worst, fabs( C[i + j * n] - s ) / ( 1 + fabs( s ) ) );
		}
	EXPECT( worst < 1e-12, "gemm + vadd: relative error %.3g", worst );
	int copy_ok = 1;
	for ( int j = 0; j < n; j++ )
		for ( int i = 0; i < n; i++ ) copy_ok &= R[i + j * n] == ( i < n / 2 ? A[i + j * n] : 0.0 );
	EXPECT( copy_ok, "the 2-D device copy or the memset" );
	hyb_dev_event_destroy( d, up );
	hyb_dev_event_destroy( d, cleared );
	hyb_dev_event_destroy( d, moved );
	hyb_dev_event_destroy( d, done );

	/* A pause holds its stream for at least its time (CUDA: one thread sleeping on the
	   device's global timer). */
	hyb_devent_t *p0 = NULL, *p1 = NULL;
	EXPECT( hyb_dev_event_create( d, &p0 ) == HYB_OK && hyb_dev_event_create( d, &p1 ) == HYB_OK,
	        "events" );
	EXPECT( hyb_dev_record( d, 8, p0 ) == HYB_OK, "record" );
	EXPECT( hyb_dev_pause( d, 8, 200000 ) == HYB_OK, "pause" );
	EXPECT( hyb_dev_record( d, 8, p1 ) == HYB_OK, "record" );
	EXPECT( hyb_dev_sync( d, p1 ) == HYB_OK, "sync after the pause" );
	double paused = 0;
	EXPECT( hyb_dev_elapsed( d, p0, p1, &paused ) == HYB_OK, "elapsed" );
	printf( "a pause of 200 us: %.1f us between the events around it\n", paused * 1e6 );
	EXPECT( paused >= 199e-6 && paused < 20e-3, "a pause of 200 us took %.1f us", paused * 1e6 );
	hyb_dev_event_destroy( d, p0 );
	hyb_dev_event_destroy( d, p1 );

	/* Attributes: spmv.ell names its kernel, l3.gemm (cuBLAS) none. */
	hyb_kernel_attr_t a;
	st = hyb_dev_kernel_attr( d, hyb_kernel_find( "spmv.ell" ), 256, 0, &a );
	printf(
	    "spmv.ell at 256 threads: %s, %d registers, %zu B local, %d blocks/SM, occupancy %.2f\n",
	    hyb_status_string( st ), a.regs_per_thread, a.local_bytes, a.blocks_per_sm, a.occupancy );
	if ( sim )
		EXPECT( st == HYB_E_NOT_SUPPORTED && a.regs_per_thread == 0,
		        "the simulated device has no attributes" );
	else
		EXPECT( st == HYB_OK && a.regs_per_thread > 0 && a.max_threads_per_block >= 256 &&
		            a.blocks_per_sm >= 1 && a.occupancy > 0 && a.occupancy <= 1,
		        "spmv.ell attributes" );
	EXPECT( hyb_dev_kernel_attr( d, hyb_kernel_find( "l3.gemm" ), 256, 0, &a ) ==
	            HYB_E_NOT_SUPPORTED,
	        "l3.gemm has no attributes" );
	int t_used = threads_now();

	/* A fault by kernel name fails that launch and breaks the context. */
	EXPECT( hyb_device_faults_set( "spmv.vadd:1" ) == HYB_OK, "plan" );
	EXPECT( hyb_dev_vadd( d, 2, HYB_PREC_D, 8, g, g + m ) == HYB_E_INJECTED, "injected vadd" );
	hyb_device_faults_set( NULL );
	hyb_dev_release( d );
	free( A ), free( B ), free( C ), free( R );
	printf( "threads: %d after using 6 streams of one context\n", t_used );
	printf( "gpu_check_runtime: %s\n", failures ? "FAILED" : "PASSED" );
	return failures ? 1 : 0;
}
