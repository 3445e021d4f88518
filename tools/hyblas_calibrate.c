/* SPDX-License-Identifier: BSD-3-Clause */
/* hyblas-calibrate: measure this machine (PCIe each way, pageable and
   page-locked, both at once; page registration; the staging copy; device
   and CPU product rates per precision; the fixed cost of a device call) and
   write the profile the cost model reads (HYBLAS_PROFILE, default
   ~/.cache/hyblas/profile). Usage: hyblas-calibrate [--quick] [PATH] */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <pthread.h>

#include "core/config/hyb_config.h"
#include "hyb_args.h"
#include "hyb_copy.h"
#include "hyb_team.h"
#include "kernels/hyb_device.h"
#include "kernels/l3/hyb_l3_kernels.h"
#include "kernels/pipeline/hyb_l3_pipeline.h"
#include "policies/hyb_policy_l3.h"
#include "policies/hyb_profile.h"

/* The CPU library, called directly (this tool is linked with it). */
void sgemm_( const char*, const char*, const int*, const int*, const int*, const void*, const void*,
             const int*, const void*, const int*, const void*, void*, const int*, size_t, size_t );
void dgemm_( const char*, const char*, const int*, const int*, const int*, const void*, const void*,
             const int*, const void*, const int*, const void*, void*, const int*, size_t, size_t );
void cgemm_( const char*, const char*, const int*, const int*, const int*, const void*, const void*,
             const int*, const void*, const int*, const void*, void*, const int*, size_t, size_t );
void zgemm_( const char*, const char*, const int*, const int*, const int*, const void*, const void*,
             const int*, const void*, const int*, const void*, void*, const int*, size_t, size_t );

static int quick;

static void* xmalloc( size_t n );

typedef struct
{
	hyb_dev_t* d;
	char*      p;
	size_t     bytes;
	int        unreg;
} reg_arg_t;

static void* reg_main( void* arg )
{
	reg_arg_t* r = arg;
	if ( r->unreg )
		hyb_dev_unregister( r->d, r->p );
	else
		hyb_dev_register( r->d, r->p, r->bytes );
	return NULL;
}

/* Register (then unregister) `bytes` as `nt` chunks from `nt` threads at
   once; seconds per byte of each, to see whether registration scales. */
static void time_register_parallel( hyb_dev_t* d, size_t bytes, int nt, double* reg, double* unreg )
{
	char*     buf = xmalloc( bytes );
	pthread_t th[16];
	reg_arg_t a[16];
	for ( int pass = 0; pass < 2; pass++ )
	{
		double t0 = hyb_now();
		for ( int i = 0; i < nt; i++ )
		{
			a[i] = ( reg_arg_t ){ d, buf + (size_t)i * ( bytes / (size_t)nt ), bytes / (size_t)nt,
				                  pass };
			pthread_create( &th[i], NULL, reg_main, &a[i] );
		}
		for ( int i = 0; i < nt; i++ ) pthread_join( th[i], NULL );
		*( pass ? unreg : reg ) = ( hyb_now() - t0 ) / (double)bytes;
	}
	free( buf );
}

static void die( const char* what, hyb_status_t st )
{
	fprintf( stderr, "hyblas-calibrate: %s: %s\n", what, hyb_status_string( st ) );
	exit( 1 );
}

#define CHECK( expr )                                                                              \
	do {                                                                                           \
		hyb_status_t st_ = ( expr );                                                               \
		if ( st_ != HYB_OK ) die( #expr, st_ );                                                    \
	} while ( 0 )

static void* xmalloc( size_t n )
{
	void* p = malloc( n );
	if ( p == NULL ) die( "malloc", HYB_E_NO_MEMORY );
	memset( p, 1, n ); /* touch every page */
	return p;
}

/* Best of `reps` timed copies of `bytes`; returns bytes/s. */
static double time_copy( hyb_dev_t* d, int h2d, void* dev, void* host, size_t bytes, int reps )
{
	double best = 1e30;
	for ( int r = 0; r < reps; r++ )
	{
		double t0 = hyb_now();
		if ( h2d )
			CHECK( hyb_dev_h2d( d, HYB_STREAM_H2D, dev, bytes, host, bytes, bytes, 1 ) );
		else
			CHECK( hyb_dev_d2h( d, HYB_STREAM_D2H, host, bytes, dev, bytes, bytes, 1 ) );
		CHECK( hyb_dev_stream_sync( d, h2d ? HYB_STREAM_H2D : HYB_STREAM_D2H ) );
		double dt = hyb_now() - t0;
		if ( dt < best ) best = dt;
	}
	return (double)bytes / best;
}

/* Bytes per second of `bytes` up from host and `bytes` down into host +
   bytes at once, on two streams; best of `reps`, as time_copy. One
   measurement alone (the first DMA into the buffer's second half among
   it) can come out far below the rate the bus holds, and the cost models
   and the benchmarks' bounds take this rate as what the bus can do. */
static double time_both( hyb_dev_t* d, void* dev, void* host, size_t bytes, int reps )
{
	double best = 1e30;
	for ( int r = 0; r < reps; r++ )
	{
		double t0 = hyb_now();
		CHECK( hyb_dev_h2d( d, HYB_STREAM_H2D, dev, bytes, host, bytes, bytes, 1 ) );
		CHECK( hyb_dev_d2h( d, HYB_STREAM_D2H, (char*)host + bytes, bytes, (char*)dev + bytes,
		                    bytes, bytes, 1 ) );
		CHECK( hyb_dev_stream_sync( d, HYB_STREAM_H2D ) );
		CHECK( hyb_dev_stream_sync( d, HYB_STREAM_D2H ) );
		double dt = hyb_now() - t0;
		if ( dt < best ) best = dt;
	}
	return 2.0 * (double)bytes / best;
}

typedef struct
{
	const char* src;
	char*       dst;
	size_t      chunk;
} copy_arg_t;

static void copy_part( void* p, int64_t b, int64_t e )
{
	copy_arg_t* c = p;
	hyb_copy_stream( c->dst + (size_t)b * c->chunk, c->src + (size_t)b * c->chunk,
	                 (size_t)( e - b ) * c->chunk );
	hyb_copy_fence();
}

/* The staging copy the pipelines do: pageable -> page-locked with a team
   (streaming stores, as the pipeline's load1). */
static double time_host_copy( void* pinned, size_t bytes, int threads )
{
	char*       src  = xmalloc( bytes );
	hyb_team_t* team = hyb_team_create( threads - 1 );
	copy_arg_t  c    = { src, pinned, 1 << 20 };
	double      best = 1e30;
	for ( int r = 0; r < 4; r++ )
	{
		double t0 = hyb_now();
		hyb_team_run( team, (int64_t)( bytes / c.chunk ), copy_part, &c );
		double dt = hyb_now() - t0;
		if ( dt < best ) best = dt;
	}
	hyb_team_destroy( team );
	free( src );
	return (double)bytes / best;
}

typedef struct
{
	const char* src; /* pieces at a stride, like columns of a larger matrix */
	char*       dst;
	size_t      piece, stride;
} piece_arg_t;

static void copy_pieces( void* p, int64_t b, int64_t e )
{
	piece_arg_t* c = p;
	for ( int64_t j = b; j < e; j++ )
		hyb_copy_stream( c->dst + (size_t)j * c->piece, c->src + (size_t)j * c->stride, c->piece );
	hyb_copy_fence();
}

/* The same copy in 8 KiB pieces (1024-row double tiles of a larger
   matrix): the piece length at which the rate halves, for the model. */
static double time_piece_half( void* pinned, size_t bytes, int threads, double contiguous_rate )
{
	size_t      piece = 8192, stride = 4 * piece;
	size_t      n    = bytes / piece;
	char*       src  = xmalloc( n * stride );
	hyb_team_t* team = hyb_team_create( threads - 1 );
	piece_arg_t c    = { src, pinned, piece, stride };
	double      best = 1e30;
	for ( int r = 0; r < 4; r++ )
	{
		double t0 = hyb_now();
		hyb_team_run( team, (int64_t)n, copy_pieces, &c );
		double dt = hyb_now() - t0;
		if ( dt < best ) best = dt;
	}
	hyb_team_destroy( team );
	free( src );
	double rate = (double)( n * piece ) / best;
	return rate < contiguous_rate ? (double)piece * ( contiguous_rate / rate - 1 ) : 0;
}

typedef struct
{
	copy_arg_t  c;
	hyb_team_t* team;
	int64_t     n;
} dual_arg_t;

static void* dual_main( void* p )
{
	dual_arg_t* d = p;
	hyb_team_run( d->team, d->n, copy_part, &d->c );
	return NULL;
}

/* Two teams at once, one into page-locked memory (load1), one out of it
   (store2), as a pipeline runs them. Returns total bytes/s. */
static double time_host_copy_dual( char* pinned, size_t bytes, int threads )
{
	char *     a = xmalloc( bytes ), *b = xmalloc( bytes );
	dual_arg_t in   = { { a, pinned, 1 << 20 },
		                hyb_team_create( threads - 1 ),
		                (int64_t)( bytes >> 20 ) };
	dual_arg_t out  = { { pinned + bytes, b, 1 << 20 },
		                hyb_team_create( threads - 1 ),
		                (int64_t)( bytes >> 20 ) };
	double     best = 1e30;
	for ( int r = 0; r < 3; r++ )
	{
		pthread_t th;
		double    t0 = hyb_now();
		pthread_create( &th, NULL, dual_main, &out );
		dual_main( &in );
		pthread_join( th, NULL );
		double dt = hyb_now() - t0;
		if ( dt < best ) best = dt;
	}
	hyb_team_destroy( in.team );
	hyb_team_destroy( out.team );
	free( a ), free( b );
	return 2.0 * (double)bytes / best;
}

/* Device gemm rate on resident data: n x n x n products, events. */
static double time_dev_gemm( hyb_dev_t* d, hyb_prec_t p, int64_t n )
{
	size_t es    = hyb_prec_size( p );
	size_t bytes = (size_t)n * (size_t)n * es;
	void*  ws;
	CHECK( hyb_dev_workspace( d, 3 * bytes, &ws ) );
	char *A = ws, *B = A + bytes, *C = B + bytes;
	/* Random-ish contents: zeros can run faster than real data. */
	void* h = xmalloc( bytes );
	for ( size_t i = 0; i < bytes / 4; i++ )
		( (float*)h )[i] = (float)( ( i * 2654435761u ) % 1000 ) * 1e-3f;
	CHECK( hyb_dev_h2d( d, HYB_STREAM_H2D, A, bytes, h, bytes, bytes, 1 ) );
	CHECK( hyb_dev_h2d( d, HYB_STREAM_H2D, B, bytes, h, bytes, bytes, 1 ) );
	CHECK( hyb_dev_stream_sync( d, HYB_STREAM_H2D ) );
	free( h );
	const double  one[2] = { 1, 0 }, zero[2] = { 0, 0 };
	hyb_devent_t *e0, *e1;
	CHECK( hyb_dev_event_create( d, &e0 ) );
	CHECK( hyb_dev_event_create( d, &e1 ) );
	int reps = quick ? 2 : 5;
	CHECK(
	    hyb_dev_gemm( d, HYB_STREAM_COMPUTE, p, 'N', 'N', n, n, n, one, A, n, B, n, zero, C, n ) );
	CHECK( hyb_dev_record( d, HYB_STREAM_COMPUTE, e0 ) );
	for ( int r = 0; r < reps; r++ )
		CHECK( hyb_dev_gemm( d, HYB_STREAM_COMPUTE, p, 'N', 'N', n, n, n, one, A, n, B, n, zero, C,
		                     n ) );
	CHECK( hyb_dev_record( d, HYB_STREAM_COMPUTE, e1 ) );
	CHECK( hyb_dev_sync( d, e1 ) );
	double s;
	CHECK( hyb_dev_elapsed( d, e0, e1, &s ) );
	hyb_dev_event_destroy( d, e0 );
	hyb_dev_event_destroy( d, e1 );
	double flops = 2.0 * (double)n * (double)n * (double)n * ( hyb_prec_is_complex( p ) ? 4 : 1 );
	return flops * reps / s;
}

static double time_cpu_gemm( hyb_prec_t p, int n )
{
	size_t es = hyb_prec_size( p );
	void * A = xmalloc( (size_t)n * (size_t)n * es ), *B = xmalloc( (size_t)n * (size_t)n * es ),
	     *C       = xmalloc( (size_t)n * (size_t)n * es );
	double one[2] = { 1, 0 }, zero[2] = { 0, 0 };
	float  onef[2] = { 1, 0 }, zerof[2] = { 0, 0 };
	double best = 1e30;
	for ( int r = 0; r < ( quick ? 2 : 3 ); r++ )
	{
		double t0 = hyb_now();
		switch ( p )
		{
		case HYB_PREC_S:
			sgemm_( "N", "N", &n, &n, &n, onef, A, &n, B, &n, zerof, C, &n, 1, 1 );
			break;
		case HYB_PREC_D:
			dgemm_( "N", "N", &n, &n, &n, one, A, &n, B, &n, zero, C, &n, 1, 1 );
			break;
		case HYB_PREC_C:
			cgemm_( "N", "N", &n, &n, &n, onef, A, &n, B, &n, zerof, C, &n, 1, 1 );
			break;
		default:
			zgemm_( "N", "N", &n, &n, &n, one, A, &n, B, &n, zero, C, &n, 1, 1 );
			break;
		}
		double dt = hyb_now() - t0;
		if ( dt < best ) best = dt;
	}
	free( A ), free( B ), free( C );
	return 2.0 * n * (double)n * n * ( hyb_prec_is_complex( p ) ? 4 : 1 ) / best;
}

/* Solve rate * f / (f + half) = measured for the knee. */
static double knee( double rate, double f, double measured )
{
	double h = f * ( rate / measured - 1 );
	return h > 0 ? h : 0;
}

static hyb_status_t cpu_sub( void* user, const hyb_l3_args_t* s )
{
	(void)user;
	int m = (int)s->m, n = (int)s->n, k = (int)s->k, lda = (int)s->lda, ldb = (int)s->ldb,
	    ldc = (int)s->ldc;
	char ta = s->transa, tb = s->transb;
	dgemm_( &ta, &tb, &m, &n, &k, s->alpha, s->a, &lda, s->b, &ldb, s->beta, s->c, &ldc, 1, 1 );
	return HYB_OK;
}

/* The fixed cost of a device call: a small pipelined gemm, measured, minus
   what the model predicts for it without the fixed cost. */
static double time_call_overhead( const hyb_profile_t* p, double budget )
{
	int64_t n = quick ? 128 : 1024;
	double *A = xmalloc( (size_t)( n * n ) * 8 ), *B = xmalloc( (size_t)( n * n ) * 8 ),
	       *C       = xmalloc( (size_t)( n * n ) * 8 );
	hyb_l3_args_t a = { .op     = HYB_OP_GEMM,
		                .prec   = HYB_PREC_D,
		                .layout = 'C',
		                .transa = 'N',
		                .transb = 'N',
		                .m      = n,
		                .n      = n,
		                .k      = n,
		                .alpha  = { 1, 0 },
		                .beta   = { 0, 0 },
		                .a      = A,
		                .lda    = n,
		                .b      = B,
		                .ldb    = n,
		                .c      = C,
		                .ldc    = n };
	int64_t       Tm, Tn, K;
	hyb_policy_l3_tiles( &a, p, 1, budget, 0, 0, &Tm, &Tn, &K );
	hyb_l3_work_t w;
	CHECK( hyb_l3_work_build( &w, &a, n, n, Tm, Tn, K ) );
	hyb_l3_exec_opts_t   o = { .ndev = 1, .copy_threads = 8, .cpu = cpu_sub };
	hyb_l3_exec_report_t r;
	double               best = 1e30;
	for ( int i = 0; i < 5; i++ )
	{
		CHECK( hyb_l3_pipeline_run( &w, &o, &r ) );
		if ( r.error != HYB_OK ) die( "pipeline", r.error );
		if ( r.seconds < best ) best = r.seconds;
	}
	hyb_l3_work_free( &w );
	free( A ), free( B ), free( C );
	hyb_profile_t q     = *p;
	q.gpu_call_overhead = 0;
	double model        = hyb_cost_l3_gpu( &q, &a, n, n, Tm, Tn, K, 1, budget, 0, NULL );
	return best > model ? best - model : 0;
}

static void machine_line( char* out, size_t len, const char* gpu )
{
	char  cpu[128] = "unknown CPU";
	FILE* f        = fopen( "/proc/cpuinfo", "r" );
	if ( f )
	{
		char line[256];
		while ( fgets( line, sizeof line, f ) )
			if ( strncmp( line, "model name", 10 ) == 0 )
			{
				char* c = strchr( line, ':' );
				if ( c ) snprintf( cpu, sizeof cpu, "%s", c + 2 );
				cpu[strcspn( cpu, "\n" )] = '\0';
				break;
			}
		fclose( f );
	}
	time_t    t = time( NULL );
	struct tm tm;
	gmtime_r( &t, &tm );
	char date[32];
	strftime( date, sizeof date, "%Y-%m-%d", &tm );
	snprintf( out, len, "%s; %ld cores; %s; %s", cpu, sysconf( _SC_NPROCESSORS_ONLN ), gpu, date );
}

int main( int argc, char** argv )
{
	const char* path = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--quick" ) == 0 )
			quick = 1;
		else if ( argv[i][0] == '-' )
		{
			fprintf( stderr, "usage: hyblas-calibrate [--quick] [PROFILE_PATH]\n" );
			return 2;
		}
		else
			path = argv[i];
	}
	setvbuf( stdout, NULL, _IOLBF, 0 );
	const hyb_config_t* cfg = hyb_config();
	if ( path == NULL ) path = cfg->profile;
	hyb_status_t st = hyb_devices_ensure();
	if ( st != HYB_OK )
	{
		fprintf( stderr,
		         "hyblas-calibrate: no device (%s): nothing to calibrate; hyblas runs on the CPU\n",
		         hyb_status_string( st ) );
		return 1;
	}
	hyb_profile_t p;
	hyb_profile_defaults( &p );
	hyb_dev_t* d;
	CHECK( hyb_dev_acquire( 0, &d ) );
	const hyb_device_info_t* info = hyb_devices_info( 0 );
	printf( "device: %s (%s), %.1f GiB free\n", info->name, hyb_devices_name(),
	        info->mem_free / ( 1 << 30 ) );

	size_t bytes = quick ? ( (size_t)64 << 20 ) : ( (size_t)512 << 20 );
	void*  dev;
	CHECK( hyb_dev_workspace( d, 2 * bytes, &dev ) );
	void* pinned;
	CHECK( hyb_dev_staging( d, 2 * bytes, &pinned ) );
	void* pageable = xmalloc( bytes );

	p.h2d_pageable = time_copy( d, 1, dev, pageable, bytes, 3 );
	p.d2h_pageable = time_copy( d, 0, dev, pageable, bytes, 3 );
	p.h2d_pinned   = time_copy( d, 1, dev, pinned, bytes, 3 );
	p.d2h_pinned   = time_copy( d, 0, dev, pinned, bytes, 3 );
	p.bidir_pinned = time_both( d, dev, pinned, bytes, 3 );
	/* The same from ordinary memory page-locked by registration, which is
	   what direct mapping moves (the stencil engine's caller's arrays):
	   printed beside the page-locked buffers' rates, not kept. */
	double reg_h2d = 0.0, reg_d2h = 0.0, reg_both = 0.0;
	{
		size_t rb = quick ? ( (size_t)256 << 20 ) : ( (size_t)1 << 30 );
		void*  r  = xmalloc( rb );
		double t0 = hyb_now();
		if ( hyb_dev_register( d, r, rb ) == HYB_OK )
		{
			p.register_s_per_byte = ( hyb_now() - t0 ) / (double)rb;
			const size_t half     = bytes < rb / 2 ? bytes : rb / 2; /* the workspace's halves */
			reg_h2d               = time_copy( d, 1, dev, r, half, 3 );
			reg_d2h               = time_copy( d, 0, dev, r, half, 3 );
			reg_both              = time_both( d, dev, r, half, 3 );
			const double t1       = hyb_now();
			CHECK( hyb_dev_unregister( d, r ) );
			p.unregister_s_per_byte = ( hyb_now() - t1 ) / (double)rb;
		}
		free( r );
	}
	double preg4 = 0, punreg4 = 0;
	time_register_parallel( d, quick ? ( (size_t)256 << 20 ) : ( (size_t)1 << 30 ), 4, &preg4,
	                        &punreg4 );
	int threads       = cfg->copy_threads > 0 ? (int)cfg->copy_threads : 8;
	p.host_copy       = time_host_copy( pinned, bytes, threads );
	p.host_copy_dual  = time_host_copy_dual( pinned, bytes, threads );
	p.copy_piece_half = time_piece_half( pinned, bytes / 2, threads, p.host_copy );
	free( pageable );

	static const int64_t dev_n[HYB_PREC_COUNT] = { 8192, 8192, 4096, 4096 };
	static const int     cpu_n[HYB_PREC_COUNT] = { 2048, 2048, 1024, 1024 };
	for ( int q = 0; q < HYB_PREC_COUNT; q++ )
	{
		/* --quick (tests, the simulated device): small sizes, rough rates. */
		int64_t n      = quick ? dev_n[q] / 32 : dev_n[q];
		p.gpu_flops[q] = time_dev_gemm( d, (hyb_prec_t)q, n );
		p.cpu_flops[q] = time_cpu_gemm( (hyb_prec_t)q, quick ? cpu_n[q] / 8 : cpu_n[q] );
	}
	{
		int64_t ns       = quick ? 64 : 1024;
		double  small    = time_dev_gemm( d, HYB_PREC_D, ns );
		p.gpu_half_flops = knee( p.gpu_flops[HYB_PREC_D], 2.0 * (double)( ns * ns * ns ), small );
		double csmall    = time_cpu_gemm( HYB_PREC_D, 256 );
		p.cpu_half_flops = knee( p.cpu_flops[HYB_PREC_D], 2.0 * 256 * 256 * 256, csmall );
	}
	hyb_dev_release( d );
	p.gpu_call_overhead = time_call_overhead( &p, hyb_dev_budget( 0 ) );

	char machine[512];
	machine_line( machine, sizeof machine, info->name );
	printf( "machine: %s\n", machine );
	printf( "%-24s %12s\n", "h2d pageable GB/s", "" );
	printf( "  h2d pageable %8.1f GB/s   d2h pageable %8.1f GB/s\n", p.h2d_pageable * 1e-9,
	        p.d2h_pageable * 1e-9 );
	printf( "  h2d pinned   %8.1f GB/s   d2h pinned   %8.1f GB/s   both %8.1f GB/s\n",
	        p.h2d_pinned * 1e-9, p.d2h_pinned * 1e-9, p.bidir_pinned * 1e-9 );
	printf( "  h2d registered %6.1f GB/s   d2h registered %6.1f GB/s   both %8.1f GB/s (ordinary "
	        "memory, page-locked by registration)\n",
	        reg_h2d * 1e-9, reg_d2h * 1e-9, reg_both * 1e-9 );
	printf( "  register from 4 threads at once: %.1f ms/GiB, unregister %.1f ms/GiB\n",
	        preg4 * 1073741824e3, punreg4 * 1073741824e3 );
	printf( "  register %.1f ms/GiB, unregister %.1f ms/GiB, staging copy %.1f GB/s (%d threads), "
	        "two at "
	        "once %.1f GB/s\n",
	        p.register_s_per_byte * 1073741824e3, p.unregister_s_per_byte * 1073741824e3,
	        p.host_copy * 1e-9, threads, p.host_copy_dual * 1e-9 );
	printf( "  copies in pieces run at half rate for pieces of %.0f bytes\n", p.copy_piece_half );
	for ( int q = 0; q < HYB_PREC_COUNT; q++ )
		printf( "  %cgemm: device %7.2f TFLOP/s, CPU %6.3f TFLOP/s\n", "sdcz"[q],
		        p.gpu_flops[q] * 1e-12, p.cpu_flops[q] * 1e-12 );
	printf( "  device knee %.3g flops, CPU knee %.3g flops, device call overhead %.0f us\n",
	        p.gpu_half_flops, p.cpu_half_flops, p.gpu_call_overhead * 1e6 );

	/* mkdir -p of the profile's directory (default path). */
	char dir[HYB_CFG_PATH_MAX];
	snprintf( dir, sizeof dir, "%s", path );
	for ( char* s = dir + 1; *s; s++ )
		if ( *s == '/' )
		{
			*s = '\0';
			if ( mkdir( dir, 0755 ) != 0 && errno != EEXIST ) break;
			*s = '/';
		}
	char header[768];
	snprintf( header, sizeof header,
	          "# hyblas machine profile, written by hyblas-calibrate%s\n# machine: %s\n"
	          "# Bandwidths in bytes/s, rates in flop/s, times in seconds.\n",
	          quick ? " --quick" : "", machine );
	if ( hyb_profile_write( &p, path, header ) != HYB_OK )
	{
		fprintf( stderr, "hyblas-calibrate: cannot write %s\n", path );
		return 1;
	}
	printf( "profile written to %s\n", path );
	return 0;
}
