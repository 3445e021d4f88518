/* SPDX-License-Identifier: BSD-3-Clause */
/* The device-side ZFP stage on the device runtime (queued encode + download
   and upload + decode of a slab), the host store of compressed slabs, and
   the synchronous save and load that fall back to raw copies and the host
   codec. */
#include "kernels/zfp/hyb_zfp_stage.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_heap.h"
#include "hyb_op.h"
#include "hyb_stats.h"
#include "hyb_trace_line.h"
#include "hyb_types.h"
#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_kargs.h"

static atomic_int hyb_zfp_encode_id;
static atomic_int hyb_zfp_decode_id;

/* ------------------------------------------------------------ the stage, queued */

/* Both directions: the checks, the wait for `after` on `stream`, then down
   the encode and the stream's copy to the host, up the copy to the device
   and the decode, then the record of `done`. The second operation runs on
   `second`: with another stream than `stream`, after `mid` (recorded on
   `stream` behind the first) and `done` recorded there. Down reads dfield
   and writes hstream, up the reverse: the callers cast away the const of
   the one they read. */
static hyb_status_t hyb_zfp_stage_queue( hyb_dev_t* d, int stream, int second, hyb_devent_t* mid,
                                         const hyb_zfp_field_t* f, double rate, void* dfield,
                                         void* dstream, void* hstream, hyb_devent_t* after,
                                         hyb_devent_t* done, int down )
{
	if ( !d || !f || hyb_zfp_check_call( f, rate, dfield, dstream ) != HYB_OK )
		return HYB_E_INVALID;
	if ( second != stream && !mid ) return HYB_E_INVALID;
	const size_t bytes = hyb_zfp_stream_bytes( f, rate );
	if ( bytes > 0 && !hstream ) return HYB_E_INVALID;
	hyb_status_t st = after ? hyb_dev_wait( d, stream, after ) : HYB_OK;
	if ( st == HYB_OK && bytes > 0 )
	{
		if ( down )
		{
			hyb_zfp_encode_args_t a = { *f, rate, dfield, dstream };
			st                      = hyb_dev_launch(
			                         d, stream, hyb_kernel_id_cached( &hyb_zfp_encode_id, &hyb_zfp_encode_def ), &a );
		}
		else
			st = hyb_dev_h2d( d, stream, dstream, bytes, hstream, bytes, bytes, 1 );
		if ( st == HYB_OK && second != stream ) st = hyb_dev_record( d, stream, mid );
		if ( st == HYB_OK && second != stream ) st = hyb_dev_wait( d, second, mid );
		if ( st == HYB_OK && down )
			st = hyb_dev_d2h( d, second, hstream, bytes, dstream, bytes, bytes, 1 );
		else if ( st == HYB_OK )
		{
			hyb_zfp_decode_args_t a = { *f, rate, dstream, dfield };
			st                      = hyb_dev_launch(
			                         d, second, hyb_kernel_id_cached( &hyb_zfp_decode_id, &hyb_zfp_decode_def ), &a );
		}
	}
	if ( st == HYB_OK && done ) st = hyb_dev_record( d, bytes > 0 ? second : stream, done );
	return st;
}

hyb_status_t hyb_zfp_stage_down( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f, double rate,
                                 const void* dfield, void* dstream, void* hstream,
                                 hyb_devent_t* after, hyb_devent_t* done )
{
	return hyb_zfp_stage_queue( d, stream, stream, NULL, f, rate, (void*)dfield, dstream, hstream,
	                            after, done, 1 );
}

hyb_status_t hyb_zfp_stage_up( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f, double rate,
                               const void* hstream, void* dstream, void* dfield,
                               hyb_devent_t* after, hyb_devent_t* done )
{
	return hyb_zfp_stage_queue( d, stream, stream, NULL, f, rate, dfield, dstream, (void*)hstream,
	                            after, done, 0 );
}

hyb_status_t hyb_zfp_stage_down_split( hyb_dev_t* d, int encode_stream, int stream,
                                       const hyb_zfp_field_t* f, double rate, const void* dfield,
                                       void* dstream, void* hstream, hyb_devent_t* after,
                                       hyb_devent_t* encoded, hyb_devent_t* done )
{
	return hyb_zfp_stage_queue( d, encode_stream, stream, encoded, f, rate, (void*)dfield, dstream,
	                            hstream, after, done, 1 );
}

hyb_status_t hyb_zfp_stage_up_split( hyb_dev_t* d, int stream, int decode_stream,
                                     const hyb_zfp_field_t* f, double rate, const void* hstream,
                                     void* dstream, void* dfield, hyb_devent_t* after,
                                     hyb_devent_t* copied, hyb_devent_t* done )
{
	return hyb_zfp_stage_queue( d, stream, decode_stream, copied, f, rate, dfield, dstream,
	                            (void*)hstream, after, done, 0 );
}

/* ------------------------------------------------------------ the host store */

hyb_status_t hyb_zfp_store_init( hyb_zfp_store_t* s, const hyb_zfp_field_t* slabs, int count,
                                 double rate )
{
	if ( !s ) return HYB_E_INVALID;
	memset( s, 0, sizeof *s );
	if ( count < 0 || ( count > 0 && !slabs ) ) return HYB_E_INVALID;
	size_t total = 0;
	for ( int i = 0; i < count; i++ )
	{
		if ( hyb_zfp_check( &slabs[i], rate ) != HYB_OK ) return HYB_E_INVALID;
		const size_t b = hyb_zfp_stage_buffer_bytes( &slabs[i], rate );
		if ( b > SIZE_MAX - total ) return HYB_E_INVALID;
		total += b;
	}
	const size_t n = (size_t)( count > 0 ? count : 1 );
	s->shape       = malloc( n * sizeof *s->shape );
	s->offset      = malloc( n * sizeof *s->offset );
	s->bytes       = malloc( n * sizeof *s->bytes );
	s->held        = calloc( n, 1 );
	/* 8-byte aligned: malloc's alignment is at least that on every target */
	s->data = malloc( total > 0 ? total : 8 );
	if ( !s->shape || !s->offset || !s->bytes || !s->held || !s->data )
	{
		hyb_zfp_store_free( s );
		return HYB_E_NO_MEMORY;
	}
	size_t at = 0;
	for ( int i = 0; i < count; i++ )
	{
		hyb_zfp_field_t c =
		    slabs[i].dims == 3
		        ? hyb_zfp_field_3d( slabs[i].type, slabs[i].nx, slabs[i].ny, slabs[i].nz )
		        : hyb_zfp_field_2d( slabs[i].type, slabs[i].nx, slabs[i].ny );
		s->shape[i]  = c;
		s->offset[i] = at;
		s->bytes[i]  = hyb_zfp_stream_bytes( &c, rate );
		at += hyb_zfp_stage_buffer_bytes( &c, rate );
	}
	s->rate  = rate;
	s->count = count;
	s->total = total;
	return HYB_OK;
}

hyb_status_t hyb_zfp_store_pin( hyb_zfp_store_t* s, hyb_dev_t* d )
{
	if ( !s || !d || !s->data ) return HYB_E_INVALID;
	if ( s->pinned || s->total == 0 ) return HYB_OK;
	hyb_status_t st = hyb_dev_register( d, s->data, s->total );
	if ( st == HYB_OK ) s->pinned = d;
	return st;
}

void hyb_zfp_store_free( hyb_zfp_store_t* s )
{
	if ( !s ) return;
	if ( s->pinned ) hyb_dev_unregister( s->pinned, s->data );
	HYB_FREE_ALL( s->shape, s->offset, s->bytes, s->held, s->data );
	memset( s, 0, sizeof *s );
}

void* hyb_zfp_store_stream( const hyb_zfp_store_t* s, int i )
{
	if ( !s || i < 0 || i >= s->count ) return NULL;
	return s->data + s->offset[i];
}

void hyb_zfp_store_set_held( hyb_zfp_store_t* s, int i, int held )
{
	if ( s && i >= 0 && i < s->count ) s->held[i] = held != 0;
}

/* Whether f has slab i's type and sizes. */
static int hyb_zfp_store_fits( const hyb_zfp_store_t* s, int i, const hyb_zfp_field_t* f )
{
	if ( !s || !f || i < 0 || i >= s->count ) return 0;
	const hyb_zfp_field_t* c = &s->shape[i];
	return f->type == c->type && f->dims == c->dims && f->nx == c->nx && f->ny == c->ny &&
	       f->nz == c->nz;
}

hyb_status_t hyb_zfp_store_put_host( hyb_zfp_store_t* s, int i, const hyb_zfp_field_t* f,
                                     const void* values )
{
	if ( !hyb_zfp_store_fits( s, i, f ) ) return HYB_E_INVALID;
	hyb_status_t st =
	    hyb_zfp_host_encode( f, s->rate, values, hyb_zfp_store_stream( s, i ), s->bytes[i] );
	s->held[i] = st == HYB_OK;
	return st;
}

hyb_status_t hyb_zfp_store_get_host( const hyb_zfp_store_t* s, int i, const hyb_zfp_field_t* f,
                                     void* values )
{
	if ( !hyb_zfp_store_fits( s, i, f ) || !s->held[i] ) return HYB_E_INVALID;
	return hyb_zfp_host_decode( f, s->rate, hyb_zfp_store_stream( s, i ), s->bytes[i], values );
}

/* ------------------------------------------------------------ the stage, with fallback */

/* The device slab's layout the raw copies need: x contiguous, rows and
   planes at positive pitches that do not overlap. */
static int hyb_zfp_slab_rows_ok( const hyb_zfp_field_t* f )
{
	return f->sx == 1 && f->sy >= f->nx && ( f->dims == 2 || f->sz >= f->sy * f->ny );
}

/* Wait for everything queued on `stream` through an event, the
   synchronization a pipeline uses (so that sync faults reach it too). */
static hyb_status_t hyb_zfp_wait( hyb_dev_t* d, int stream )
{
	hyb_devent_t* ev = NULL;
	hyb_status_t  st = hyb_dev_event_create( d, &ev );
	if ( st == HYB_OK ) st = hyb_dev_record( d, stream, ev );
	if ( st == HYB_OK ) st = hyb_dev_sync( d, ev );
	if ( ev ) hyb_dev_event_destroy( d, ev );
	return st;
}

/* Copies between the device slab and a contiguous host copy of its values,
   plane by plane; down: device to host. */
static hyb_status_t hyb_zfp_raw_copy( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f,
                                      void* dfield, void* host, int down )
{
	const size_t   vs    = hyb_zfp_type_size( f->type );
	const size_t   width = (size_t)f->nx * vs;
	const size_t   pitch = (size_t)f->sy * vs;
	const size_t   plane = (size_t)f->nx * (size_t)f->ny * vs;
	const int64_t  nz    = f->dims == 3 ? f->nz : 1;
	hyb_status_t   st    = HYB_OK;
	unsigned char* dev   = dfield;
	unsigned char* h     = host;
	for ( int64_t z = 0; z < nz && st == HYB_OK; z++ )
	{
		unsigned char* dp = dev + (size_t)z * (size_t)( f->dims == 3 ? f->sz : 0 ) * vs;
		unsigned char* hp = h + (size_t)z * plane;
		st = down ? hyb_dev_d2h( d, stream, hp, width, dp, pitch, width, (size_t)f->ny )
		          : hyb_dev_h2d( d, stream, dp, pitch, hp, width, width, (size_t)f->ny );
	}
	return st == HYB_OK ? hyb_zfp_wait( d, stream ) : st;
}

/* Every stream of d idle, so that nothing queued before a failure still
   writes the buffers the fallback reuses. */
static void hyb_zfp_drain( hyb_dev_t* d )
{
	for ( int k = 0; k < HYB_DEV_STREAMS; k++ ) hyb_dev_stream_sync( d, k );
}

/* The operation ids of the save and load, registered on first use. */
static hyb_op_id_t hyb_zfp_op( atomic_int* cache, const char* name )
{
	int v = atomic_load_explicit( cache, memory_order_relaxed );
	if ( v == 0 )
	{
		v = hyb_op_register( name, "zfp" ) + 2; /* HYB_OP_NONE stays distinct from "unset" */
		atomic_store_explicit( cache, v, memory_order_relaxed );
	}
	return v - 2;
}

/* Counts the call and writes its trace line. */
static void hyb_zfp_account( atomic_int* cache, const char* name, const hyb_zfp_field_t* f,
                             double rate, hyb_zfp_moved_t moved, hyb_status_t st, double t0 )
{
	const hyb_op_id_t op = hyb_zfp_op( cache, name );
	if ( op == HYB_OP_NONE ) return;
	const double seconds = hyb_now() - t0;
	const double raw     = (double)f->nx * (double)f->ny * (double)( f->dims == 3 ? f->nz : 1 ) *
	                   (double)hyb_zfp_type_size( f->type );
	const hyb_path_t path = moved == HYB_ZFP_MOVED_STAGE ? HYB_PATH_GPU : HYB_PATH_FALLBACK;
	if ( moved != HYB_ZFP_MOVED_STAGE ) hyb_stats_fallback( op );
	hyb_stats_record( op, path, seconds, 0, raw );
	char shape[96], extra[96];
	snprintf( shape, sizeof shape, "dims=%u nx=%lld ny=%lld nz=%lld", f->dims, (long long)f->nx,
	          (long long)f->ny, (long long)f->nz );
	snprintf( extra, sizeof extra, " rate=%g moved=%s status=%s", rate,
	          moved == HYB_ZFP_MOVED_STAGE ? "stage"
	          : moved == HYB_ZFP_MOVED_RAW ? "raw"
	                                       : "none",
	          hyb_status_name( st ) );
	hyb_trace_fields_t t = { .op       = op,
		                     .kind     = f->type == HYB_ZFP_DOUBLE ? "dzfp" : "szfp",
		                     .shape    = shape,
		                     .path     = hyb_path_name( path ),
		                     .pred_cpu = 0,
		                     .pred_gpu = 0,
		                     .pred     = 0,
		                     .seconds  = seconds,
		                     .extra    = extra,
		                     .why      = NULL };
	hyb_trace_line( &t );
}

static atomic_int hyb_zfp_save_op;
static atomic_int hyb_zfp_load_op;

/* The fallback of a save (down) or load: the device idled, the slab's
   values copied uncompressed between the device and a host buffer, the host
   codec between that buffer and slab i of the store. */
static hyb_status_t hyb_zfp_raw_move( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f,
                                      void* dfield, hyb_zfp_store_t* s, int i, int down )
{
	hyb_zfp_drain( d );
	const size_t n  = (size_t)f->nx * (size_t)f->ny * (size_t)( f->dims == 3 ? f->nz : 1 );
	void*        h  = malloc( n > 0 ? n * hyb_zfp_type_size( f->type ) : 1 );
	hyb_status_t st = h ? HYB_OK : HYB_E_NO_MEMORY;
	if ( st == HYB_OK && down ) st = hyb_zfp_raw_copy( d, stream, f, dfield, h, 1 );
	if ( st == HYB_OK )
		st = down ? hyb_zfp_store_put_host( s, i, &s->shape[i], h )
		          : hyb_zfp_store_get_host( s, i, &s->shape[i], h );
	if ( st == HYB_OK && !down ) st = hyb_zfp_raw_copy( d, stream, f, dfield, h, 0 );
	free( h );
	return st;
}

hyb_status_t hyb_zfp_stage_save( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f,
                                 const void* dfield, void* dstream, hyb_zfp_store_t* s, int i,
                                 hyb_zfp_moved_t* moved )
{
	if ( moved ) *moved = HYB_ZFP_MOVED_NONE;
	if ( !d || !moved || !hyb_zfp_store_fits( s, i, f ) || !hyb_zfp_slab_rows_ok( f ) ||
	     hyb_zfp_check_call( f, s->rate, dfield, dstream ) != HYB_OK )
		return HYB_E_INVALID;
	const double t0 = hyb_now();
	s->held[i]      = 0;
	hyb_status_t st = hyb_zfp_stage_down( d, stream, f, s->rate, dfield, dstream,
	                                      hyb_zfp_store_stream( s, i ), NULL, NULL );
	if ( st == HYB_OK ) st = hyb_zfp_wait( d, stream );
	if ( st == HYB_OK )
		*moved = HYB_ZFP_MOVED_STAGE;
	else if ( hyb_zfp_raw_move( d, stream, f, (void*)dfield, s, i, 1 ) == HYB_OK )
	{
		*moved = HYB_ZFP_MOVED_RAW;
		st     = HYB_OK;
	}
	s->held[i] = st == HYB_OK;
	hyb_zfp_account( &hyb_zfp_save_op, "zfp.save", f, s->rate, *moved, st, t0 );
	return st;
}

hyb_status_t hyb_zfp_stage_load( hyb_dev_t* d, int stream, const hyb_zfp_field_t* f,
                                 const hyb_zfp_store_t* s, int i, void* dstream, void* dfield,
                                 hyb_zfp_moved_t* moved )
{
	if ( moved ) *moved = HYB_ZFP_MOVED_NONE;
	if ( !d || !moved || !hyb_zfp_store_fits( s, i, f ) || !s->held[i] ||
	     !hyb_zfp_slab_rows_ok( f ) || hyb_zfp_check_call( f, s->rate, dfield, dstream ) != HYB_OK )
		return HYB_E_INVALID;
	const double t0 = hyb_now();
	hyb_status_t st = hyb_zfp_stage_up( d, stream, f, s->rate, hyb_zfp_store_stream( s, i ),
	                                    dstream, dfield, NULL, NULL );
	if ( st == HYB_OK ) st = hyb_zfp_wait( d, stream );
	if ( st == HYB_OK ) *moved = HYB_ZFP_MOVED_STAGE;
	/* the load only reads the store */
	else if ( hyb_zfp_raw_move( d, stream, f, dfield, (hyb_zfp_store_t*)s, i, 0 ) == HYB_OK )
	{
		*moved = HYB_ZFP_MOVED_RAW;
		st     = HYB_OK;
	}
	hyb_zfp_account( &hyb_zfp_load_op, "zfp.load", f, s->rate, *moved, st, t0 );
	return st;
}
