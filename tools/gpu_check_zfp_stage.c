/* SPDX-License-Identifier: BSD-3-Clause */
/* gpu_check_zfp_stage: the ZFP stage end to end on the device runtime, as the stencil
   pipeline calls it: slabs of device arrays (2-D and 3-D, float and double, padded
   rows, several rates) saved into a host store and loaded back through the registered
   kernels of the plugin, streams and values compared bit for bit with the host codec
   (which CI holds bit-exact with libzfp); device faults by kernel name falling back to
   raw copies with the same bits; then the stage's throughput on a large float field at
   rate 16 (GB/s of the raw field: kernels alone, and encode + download of the
   compressed bytes / upload + decode, one stream and three, beside raw copies of the
   field). Exits 0 when everything matched, 1 on a mismatch, 77 without a CUDA device.
   Usage: gpu_check_zfp_stage [--sim] [--quick] [--reps N] [--csv FILE]
   (--sim: the same on the simulated device with a small field, the check of the check;
   the plugin is found as libhyblas finds it, HYBLAS_PLUGIN names another). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_types.h"
#include "kernels/hyb_device.h"
#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_kargs.h"
#include "kernels/zfp/hyb_zfp_stage.h"
#include "core/config/hyb_config.h"
#include "tools/hyb_check_expect.h"

/* Smooth values with a little noise (a field the codec is meant for). */
static void fill( hyb_zfp_type_t type, void* v, size_t n, uint64_t seed )
{
	uint64_t x = seed * 0x9e3779b97f4a7c15u + 1;
	for ( size_t i = 0; i < n; i++ )
	{
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		double r = (double)( i % 1021 ) * 0.003 + (double)( x >> 11 ) * 0x1p-53 * 0.01;
		if ( type == HYB_ZFP_DOUBLE )
			( (double*)v )[i] = r;
		else
			( (float*)v )[i] = (float)r;
	}
}

/* ------------------------------------------------------------ correctness */

typedef struct
{
	hyb_zfp_type_t type;
	unsigned       dims;
	int64_t        nx, ny, nz, pad; /* pad: extra values per row */
	double         rate;
} case_t;

/* Elements of the parent array: rows of nx + pad, planes of ny + 1 rows. */
static hyb_zfp_field_t parent_of( const case_t* c, size_t* n )
{
	hyb_zfp_field_t p = c->dims == 3 ? hyb_zfp_field_3d( c->type, c->nx, c->ny, c->nz )
	                                 : hyb_zfp_field_2d( c->type, c->nx, c->ny );
	p.sy              = c->nx + c->pad;
	p.sz              = p.sy * ( c->ny + 1 );
	*n                = (size_t)( c->dims == 3 ? p.sz * c->nz : p.sy * c->ny );
	return p;
}

/* Slabs of 4 rows (planes), 8, and the rest. */
static int cuts_of( const hyb_zfp_field_t* p, int64_t cut[4] )
{
	const int64_t e = p->dims == 3 ? p->nz : p->ny;
	cut[0] = 0, cut[1] = e < 4 ? e : 4, cut[2] = e < 12 ? e : 12, cut[3] = e;
	return 3;
}

/* One case through save and load on the device, with a fault plan (NULL:
   none) during the saves or (on_load) the loads: the first slab of that
   phase moves raw, every other slab through the stage. */
static void run_case( const case_t* c, const char* plan, int on_load )
{
	size_t          n;
	hyb_zfp_field_t p  = parent_of( c, &n );
	const size_t    vs = hyb_zfp_type_size( c->type ), bytes = n * vs;
	int64_t         cut[4];
	const int       ns = cuts_of( &p, cut );
	hyb_zfp_field_t sl[3];
	size_t          sbuf = 8;
	for ( int k = 0; k < ns; k++ )
	{
		sl[k]    = hyb_zfp_slab( &p, cut[k], cut[k + 1] );
		size_t b = hyb_zfp_stage_buffer_bytes( &sl[k], c->rate );
		if ( b > sbuf ) sbuf = b;
	}
	char what[160];
	snprintf( what, sizeof what, "%s %uD %lldx%lldx%lld rate %g%s%s", c->type ? "double" : "float",
	          c->dims, (long long)c->nx, (long long)c->ny, (long long)c->nz, c->rate,
	          plan ? " faults " : "", plan ? plan : "" );
	unsigned char*  host = malloc( bytes );
	unsigned char*  back = malloc( bytes );
	unsigned char*  ref  = calloc( 1, bytes );
	void*           tmp  = malloc( sbuf + 8 );
	hyb_dev_t*      d    = NULL;
	void*           ws   = NULL;
	hyb_zfp_store_t s;
	memset( &s, 0, sizeof s );
	fill( c->type, host, n, (uint64_t)c->nx * 31 + (uint64_t)c->dims );
	if ( !host || !back || !ref || !tmp || hyb_dev_acquire( 0, &d ) != HYB_OK ||
	     hyb_dev_workspace( d, ( ( bytes + 7u ) & ~(size_t)7u ) + sbuf, &ws ) != HYB_OK ||
	     hyb_zfp_store_init( &s, sl, ns, c->rate ) != HYB_OK )
	{
		EXPECT( 0, "%s: setup", what );
		goto done;
	}
	hyb_zfp_store_pin( &s, d );
	unsigned char* dev  = ws;
	void*          dstr = dev + ( ( bytes + 7u ) & ~(size_t)7u );
	EXPECT( hyb_dev_h2d( d, 1, dev, bytes, host, bytes, bytes, 1 ) == HYB_OK &&
	            hyb_dev_stream_sync( d, 1 ) == HYB_OK,
	        "%s: upload", what );
	if ( plan && !on_load ) hyb_device_faults_set( plan );
	for ( int k = 0; k < ns; k++ )
	{
		const size_t          at = (size_t)hyb_zfp_slab_offset( &p, cut[k] ) * vs;
		const hyb_zfp_moved_t expect =
		    plan && !on_load && k == 0 ? HYB_ZFP_MOVED_RAW : HYB_ZFP_MOVED_STAGE;
		hyb_zfp_moved_t mv;
		EXPECT( hyb_zfp_stage_save( d, 1, &sl[k], dev + at, dstr, &s, k, &mv ) == HYB_OK &&
		            mv == expect,
		        "%s: save slab %d moved %d", what, k, (int)mv );
		EXPECT( hyb_zfp_host_encode( &sl[k], c->rate, host + at, tmp, s.bytes[k] ) == HYB_OK &&
		            memcmp( tmp, hyb_zfp_store_stream( &s, k ), s.bytes[k] ) == 0,
		        "%s: slab %d's stream differs from the host codec's", what, k );
		hyb_zfp_host_decode( &sl[k], c->rate, tmp, s.bytes[k], ref + at );
	}
	hyb_device_faults_set( NULL );
	EXPECT( hyb_dev_memset( d, 1, dev, 0, bytes ) == HYB_OK, "%s: clear", what );
	if ( plan && on_load ) hyb_device_faults_set( plan );
	for ( int k = 0; k < ns; k++ )
	{
		const size_t          at = (size_t)hyb_zfp_slab_offset( &p, cut[k] ) * vs;
		const hyb_zfp_moved_t expect =
		    plan && on_load && k == 0 ? HYB_ZFP_MOVED_RAW : HYB_ZFP_MOVED_STAGE;
		hyb_zfp_moved_t mv;
		EXPECT( hyb_zfp_stage_load( d, 1, &sl[k], &s, k, dstr, dev + at, &mv ) == HYB_OK &&
		            mv == expect,
		        "%s: load slab %d moved %d", what, k, (int)mv );
	}
	hyb_device_faults_set( NULL );
	EXPECT( hyb_dev_d2h( d, 1, back, bytes, dev, bytes, bytes, 1 ) == HYB_OK &&
	            hyb_dev_stream_sync( d, 1 ) == HYB_OK && memcmp( back, ref, bytes ) == 0,
	        "%s: decoded array differs from the host codec's", what );
done:
	hyb_zfp_store_free( &s );
	if ( d ) hyb_dev_release( d );
	free( host );
	free( back );
	free( ref );
	free( tmp );
}

static void check_cases( void )
{
	static const case_t cases[] = {
		{ HYB_ZFP_FLOAT, 2, 37, 29, 1, 11, 16 },  { HYB_ZFP_FLOAT, 2, 64, 40, 1, 0, 1.5 },
		{ HYB_ZFP_FLOAT, 2, 130, 33, 1, 6, 32 },  { HYB_ZFP_DOUBLE, 2, 37, 29, 1, 3, 24 },
		{ HYB_ZFP_DOUBLE, 2, 300, 20, 1, 4, 64 }, { HYB_ZFP_FLOAT, 3, 21, 10, 15, 3, 8 },
		{ HYB_ZFP_DOUBLE, 3, 21, 10, 15, 5, 12 }, { HYB_ZFP_FLOAT, 3, 70, 9, 13, 2, 0.75 },
	};
	const int before = failures;
	for ( size_t i = 0; i < sizeof cases / sizeof *cases; i++ ) run_case( &cases[i], NULL, 0 );
	printf( "stage round trips (%zu cases, 2-D/3-D, float/double): %s\n",
	        sizeof cases / sizeof *cases, failures == before ? "bit-exact" : "MISMATCH" );
	const int f0 = failures;
	run_case( &cases[0], "zfp.encode:1", 0 );
	run_case( &cases[3], "zfp.decode:1", 1 );
	run_case( &cases[5], "d2h:1", 0 );
	run_case( &cases[6], "h2d:1", 1 );
	printf( "faults by kernel name and copy kind: %s\n",
	        failures == f0 ? "fell back, bit-exact" : "FAILED" );
}

/* ------------------------------------------------------------ throughput */

static int cmp_double( const void* a, const void* b )
{
	const double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : x > y;
}

static double median( double* t, int n )
{
	qsort( t, (size_t)n, sizeof *t, cmp_double );
	return n % 2 ? t[n / 2] : 0.5 * ( t[n / 2 - 1] + t[n / 2] );
}

/* What one timed step does; returns its status. */
typedef hyb_status_t ( *step_fn )( void* ctx );

/* Median seconds of `reps` runs of `fn` (one warm-up first); -1 on failure. */
static double timed( step_fn fn, void* ctx, int reps )
{
	double t[64];
	if ( reps > 64 ) reps = 64;
	if ( fn( ctx ) != HYB_OK ) return -1;
	for ( int r = 0; r < reps; r++ )
	{
		const double t0 = hyb_now();
		if ( fn( ctx ) != HYB_OK ) return -1;
		t[r] = hyb_now() - t0;
	}
	return median( t, reps );
}

typedef struct
{
	hyb_dev_t*      d;
	hyb_zfp_field_t f; /* the whole field */
	double          rate;
	unsigned char*  dev;     /* the field on the device */
	unsigned char*  dstr[3]; /* stream buffers: [0] the whole field's, [1..2] slabs' */
	void*           hraw;    /* page-locked raw copy */
	hyb_zfp_store_t store;   /* slabs */
	hyb_zfp_field_t slab[64];
	int             slabs;
	int             streams; /* 1 or 3 */
	hyb_devent_t*   ev[3];
} bench_t;

static hyb_status_t sync_all( bench_t* b )
{
	hyb_status_t st = HYB_OK;
	for ( int s = 0; s < 3; s++ )
		if ( st == HYB_OK ) st = hyb_dev_stream_sync( b->d, 3 + s );
	return st;
}

static hyb_status_t step_encode( void* ctx )
{
	static atomic_int     id;
	bench_t*              b = ctx;
	hyb_zfp_encode_args_t a = { b->f, b->rate, b->dev, b->dstr[0] };
	hyb_status_t          st =
	    hyb_dev_launch( b->d, 3, hyb_kernel_id_cached( &id, &hyb_zfp_encode_def ), &a );
	return st == HYB_OK ? hyb_dev_stream_sync( b->d, 3 ) : st;
}

static hyb_status_t step_decode( void* ctx )
{
	static atomic_int     id;
	bench_t*              b = ctx;
	hyb_zfp_decode_args_t a = { b->f, b->rate, b->dstr[0], b->dev };
	hyb_status_t          st =
	    hyb_dev_launch( b->d, 3, hyb_kernel_id_cached( &id, &hyb_zfp_decode_def ), &a );
	return st == HYB_OK ? hyb_dev_stream_sync( b->d, 3 ) : st;
}

/* Slab k's device stream buffer: the whole field's buffer holds every slab's
   stream side by side (the slabs' buffers never exceed it). */
static void* slab_buffer( bench_t* b, int k )
{
	return b->dstr[0] + ( b->store.offset[k] );
}

static hyb_status_t step_down( void* ctx )
{
	bench_t*     b  = ctx;
	hyb_status_t st = HYB_OK;
	for ( int k = 0; k < b->slabs && st == HYB_OK; k++ )
	{
		const size_t at = (size_t)hyb_zfp_slab_offset( &b->f, k * b->slab[0].ny ) * 4u;
		st = hyb_zfp_stage_down( b->d, 3 + k % b->streams, &b->slab[k], b->rate, b->dev + at,
		                         slab_buffer( b, k ), hyb_zfp_store_stream( &b->store, k ), NULL,
		                         NULL );
	}
	return st == HYB_OK ? sync_all( b ) : st;
}

static hyb_status_t step_up( void* ctx )
{
	bench_t*     b  = ctx;
	hyb_status_t st = HYB_OK;
	for ( int k = 0; k < b->slabs && st == HYB_OK; k++ )
	{
		const size_t at = (size_t)hyb_zfp_slab_offset( &b->f, k * b->slab[0].ny ) * 4u;
		st              = hyb_zfp_stage_up( b->d, 3 + k % b->streams, &b->slab[k], b->rate,
		                                    hyb_zfp_store_stream( &b->store, k ), slab_buffer( b, k ),
		                                    b->dev + at, NULL, NULL );
	}
	return st == HYB_OK ? sync_all( b ) : st;
}

static size_t raw_bytes( const bench_t* b )
{
	return (size_t)b->f.nx * (size_t)b->f.ny * 4u;
}

static hyb_status_t step_raw_down( void* ctx )
{
	bench_t*     b  = ctx;
	const size_t n  = raw_bytes( b );
	hyb_status_t st = hyb_dev_d2h( b->d, 3, b->hraw, n, b->dev, n, n, 1 );
	return st == HYB_OK ? hyb_dev_stream_sync( b->d, 3 ) : st;
}

static hyb_status_t step_raw_up( void* ctx )
{
	bench_t*     b  = ctx;
	const size_t n  = raw_bytes( b );
	hyb_status_t st = hyb_dev_h2d( b->d, 3, b->dev, n, b->hraw, n, n, 1 );
	return st == HYB_OK ? hyb_dev_stream_sync( b->d, 3 ) : st;
}

static void bench( int64_t nx, int64_t ny, int reps, FILE* csv )
{
	bench_t b;
	memset( &b, 0, sizeof b );
	b.f              = hyb_zfp_field_2d( HYB_ZFP_FLOAT, nx, ny );
	b.rate           = 16;
	b.slabs          = 16;
	const size_t raw = raw_bytes( &b );
	const size_t sb  = hyb_zfp_stage_buffer_bytes( &b.f, b.rate );
	void*        ws  = NULL;
	float*       src = malloc( raw );
	void*        ref = malloc( sb );
	for ( int k = 0; k < b.slabs; k++ )
		b.slab[k] = hyb_zfp_slab( &b.f, k * ( ny / b.slabs ), ( k + 1 ) * ( ny / b.slabs ) );
	if ( !src || !ref || ny % ( 4 * b.slabs ) || hyb_dev_acquire( 0, &b.d ) != HYB_OK ||
	     hyb_dev_workspace( b.d, raw + sb, &ws ) != HYB_OK ||
	     hyb_dev_staging( b.d, raw, &b.hraw ) != HYB_OK ||
	     hyb_zfp_store_init( &b.store, b.slab, b.slabs, b.rate ) != HYB_OK )
	{
		EXPECT( 0, "throughput field %lldx%lld: setup", (long long)nx, (long long)ny );
		goto done;
	}
	hyb_zfp_store_pin( &b.store, b.d );
	b.dev     = ws;
	b.dstr[0] = b.dev + raw;
	fill( HYB_ZFP_FLOAT, src, raw / 4u, 5 );
	memcpy( b.hraw, src, raw );
	EXPECT( step_raw_up( &b ) == HYB_OK, "upload" );

	const double gb   = (double)raw / 1e9;
	double       t_en = timed( step_encode, &b, reps );
	/* the whole field's stream against the host codec */
	unsigned char* got  = malloc( sb );
	int            same = 0;
	if ( got &&
	     hyb_dev_d2h( b.d, 3, got, sb, b.dstr[0], sb, hyb_zfp_stream_bytes( &b.f, b.rate ), 1 ) ==
	         HYB_OK &&
	     hyb_dev_stream_sync( b.d, 3 ) == HYB_OK &&
	     hyb_zfp_host_encode( &b.f, b.rate, src, ref, sb ) == HYB_OK )
		same = memcmp( got, ref, hyb_zfp_stream_bytes( &b.f, b.rate ) ) == 0;
	if ( got && !same )
	{
		/* where they part, to tell an offset overflow from a block's bits */
		size_t at = 0, nb = hyb_zfp_stream_bytes( &b.f, b.rate );
		while ( at < nb && got[at] == ( (unsigned char*)ref )[at] ) at++;
		printf( "  large field: first differing byte %zu of %zu (block %zu)\n", at, nb,
		        at / ( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, b.rate ) / 8u ) );
	}
	EXPECT( same, "large field: the device stream differs from the host codec's" );
	free( got );
	double t_de = timed( step_decode, &b, reps );
	double t_rd = timed( step_raw_down, &b, reps );
	double t_ru = timed( step_raw_up, &b, reps );
	double t_down[2], t_up[2];
	for ( int m = 0; m < 2; m++ )
	{
		b.streams = m ? 3 : 1;
		t_down[m] = timed( step_down, &b, reps );
		t_up[m]   = timed( step_up, &b, reps );
	}
	/* the slabs' streams laid end to end are the field's stream: staged down
	   once more from the original values, since the decode and stage-up
	   steps above left their lossy round trip in the device field */
	memcpy( b.hraw, src, raw );
	b.streams = 1;
	EXPECT( step_raw_up( &b ) == HYB_OK && step_down( &b ) == HYB_OK,
	        "large field: stage down again" );
	int joined = 1;
	for ( int k = 0; k < b.slabs; k++ )
		joined &=
		    memcmp( hyb_zfp_store_stream( &b.store, k ),
		            (unsigned char*)ref + (size_t)k * b.store.bytes[0], b.store.bytes[k] ) == 0;
	for ( int k = 0; k < b.slabs && !joined; k++ )
		if ( memcmp( hyb_zfp_store_stream( &b.store, k ),
		             (unsigned char*)ref + (size_t)k * b.store.bytes[0], b.store.bytes[k] ) != 0 )
		{
			printf( "  large field: slab %d of %d differs from its part of the field's stream\n", k,
			        b.slabs );
			break;
		}
	EXPECT( joined, "large field: the stage's slab streams differ from the field's stream" );

	printf(
	    "\nthroughput, float 2-D %lldx%lld rate %g (%.2f GB raw, %d slabs), median of %d, GB/s of "
	    "the raw field:\n",
	    (long long)nx, (long long)ny, b.rate, gb, b.slabs, reps );
	printf( "  %-40s %10s %10s\n", "step", "ms", "GB/s" );
#define ROW( name, t )                                                                             \
	do {                                                                                           \
		printf( "  %-40s %10.3f %10.1f\n", name, (t)*1e3, ( t ) > 0 ? gb / ( t ) : 0.0 );          \
		if ( csv )                                                                                 \
			fprintf( csv, "%lld,%lld,%g,%s,%.6f,%.3f\n", (long long)nx, (long long)ny, b.rate,     \
			         name, (t)*1e3, ( t ) > 0 ? gb / ( t ) : 0.0 );                                \
		EXPECT( ( t ) > 0, "%s failed", name );                                                    \
	} while ( 0 )
	ROW( "encode kernel", t_en );
	ROW( "decode kernel", t_de );
	ROW( "stage down (encode + D2H), 1 stream", t_down[0] );
	ROW( "stage down (encode + D2H), 3 streams", t_down[1] );
	ROW( "stage up (H2D + decode), 1 stream", t_up[0] );
	ROW( "stage up (H2D + decode), 3 streams", t_up[1] );
	ROW( "raw D2H of the field (pinned)", t_rd );
	ROW( "raw H2D of the field (pinned)", t_ru );
#undef ROW
	printf( "  target (issue 22): encode and decode kernels >= 100 GB/s on an H100: %s\n",
	        t_en > 0 && t_de > 0 && gb / t_en >= 100 && gb / t_de >= 100 ? "met" : "NOT met" );
	printf( "  large field bit-exact with the host codec: %s\n", same && joined ? "yes" : "NO" );
done:
	hyb_zfp_store_free( &b.store );
	if ( b.d ) hyb_dev_release( b.d );
	free( src );
	free( ref );
}

int main( int argc, char** argv )
{
	int         sim = 0, quick = 0, reps = 10;
	const char* csvpath = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--sim" ) == 0 )
			sim = 1;
		else if ( strcmp( argv[i], "--quick" ) == 0 )
			quick = 1;
		else if ( strcmp( argv[i], "--reps" ) == 0 && i + 1 < argc )
			reps = atoi( argv[++i] );
		else if ( strcmp( argv[i], "--csv" ) == 0 && i + 1 < argc )
			csvpath = argv[++i];
		else
		{
			fprintf( stderr, "usage: %s [--sim] [--quick] [--reps N] [--csv FILE]\n", argv[0] );
			return 2;
		}
	}
	if ( reps < 1 ) reps = 1;
	if ( sim ) setenv( "HYBLAS_DEVICE", "sim", 1 );
	hyb_config();
	hyb_status_t st = hyb_devices_ensure();
	if ( st != HYB_OK || strcmp( hyb_devices_name(), sim ? "sim" : "cuda" ) != 0 )
	{
		printf( "gpu_check_zfp_stage: no CUDA device (%s): skipped\n", hyb_status_string( st ) );
		return 77;
	}
	printf( "device: %s (%s)\n", hyb_devices_info( 0 )->name, hyb_devices_name() );
	const hyb_kernel_id_t e = hyb_kernel_find( "zfp.encode" ), dk = hyb_kernel_find( "zfp.decode" );
	EXPECT( hyb_devices_kernel_supported( e ) && hyb_devices_kernel_supported( dk ),
	        "zfp.encode / zfp.decode not bound on this backend" );
	check_cases();
	FILE* csv = csvpath ? fopen( csvpath, "w" ) : NULL;
	if ( csv ) fprintf( csv, "nx,ny,rate,step,ms,gbps\n" );
	if ( sim )
		bench( 256, 256, 2, csv );
	else
		bench( quick ? 4096 : 16384, quick ? 4096 : 16384, reps, csv );
	if ( csv ) fclose( csv );
	printf( "gpu_check_zfp_stage: %s\n", failures ? "FAILED" : "PASSED" );
	return failures ? 1 : 0;
}
