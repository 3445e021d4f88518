/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU codec over libzfp (hyb_zfp_cpu.h): libzfp opened on first use
   (libhyblas does not depend on it to load), a libzfp field with the
   caller's strides, a fixed-rate stream on the caller's buffer. */
#include "kernels/zfp/hyb_zfp_cpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zfp.h>

#include "kernels/zfp/hyb_zfp_host.h"

/* The libzfp calls the codec makes, resolved together or not at all. The
   types come from zfp.h, so a prototype that changed would not compile. */
typedef struct
{
	__typeof__( zfp_field_2d )*              field_2d;
	__typeof__( zfp_field_3d )*              field_3d;
	__typeof__( zfp_field_set_stride_2d )*   stride_2d;
	__typeof__( zfp_field_set_stride_3d )*   stride_3d;
	__typeof__( zfp_field_free )*            field_free;
	__typeof__( zfp_stream_open )*           zs_open;
	__typeof__( zfp_stream_close )*          zs_close;
	__typeof__( zfp_stream_set_rate )*       set_rate;
	__typeof__( zfp_stream_params )*         params;
	__typeof__( zfp_stream_set_execution )*  set_exec;
	__typeof__( zfp_stream_set_bit_stream )* set_bs;
	__typeof__( zfp_compress )*              compress;
	__typeof__( zfp_decompress )*            decompress;
	__typeof__( stream_open )*               bs_open;
	__typeof__( stream_close )*              bs_close;
	__typeof__( stream_alignment )*          alignment;
	const char* const*                       version;
} hyb_zfp_lib_t;

static hyb_zfp_lib_t  hyb_zfp_lib;
static int            hyb_zfp_lib_ok;
static pthread_once_t hyb_zfp_lib_once = PTHREAD_ONCE_INIT;

/* libzfp's soname (1.x), then the development name. A library that lacks
   one of the calls is closed again and the codec stays unavailable. */
static void hyb_zfp_lib_load( void )
{
	static const char* const names[] = { "libzfp.so.1", "libzfp.so" };
	void*                    h       = NULL;
	for ( size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++ )
		h = dlopen( names[i], RTLD_NOW | RTLD_LOCAL );
	if ( !h ) return;
	hyb_zfp_lib_t l;
	int           all = 1;
#define HYB_ZFP_SYM( field, name ) all &= ( *(void**)& l.field = dlsym( h, name ) ) != NULL
	HYB_ZFP_SYM( field_2d, "zfp_field_2d" );
	HYB_ZFP_SYM( field_3d, "zfp_field_3d" );
	HYB_ZFP_SYM( stride_2d, "zfp_field_set_stride_2d" );
	HYB_ZFP_SYM( stride_3d, "zfp_field_set_stride_3d" );
	HYB_ZFP_SYM( field_free, "zfp_field_free" );
	HYB_ZFP_SYM( zs_open, "zfp_stream_open" );
	HYB_ZFP_SYM( zs_close, "zfp_stream_close" );
	HYB_ZFP_SYM( set_rate, "zfp_stream_set_rate" );
	HYB_ZFP_SYM( params, "zfp_stream_params" );
	HYB_ZFP_SYM( set_exec, "zfp_stream_set_execution" );
	HYB_ZFP_SYM( set_bs, "zfp_stream_set_bit_stream" );
	HYB_ZFP_SYM( compress, "zfp_compress" );
	HYB_ZFP_SYM( decompress, "zfp_decompress" );
	HYB_ZFP_SYM( bs_open, "stream_open" );
	HYB_ZFP_SYM( bs_close, "stream_close" );
	HYB_ZFP_SYM( alignment, "stream_alignment" );
	HYB_ZFP_SYM( version, "zfp_version_string" );
#undef HYB_ZFP_SYM
	if ( !all )
	{
		dlclose( h );
		return;
	}
	hyb_zfp_lib    = l;
	hyb_zfp_lib_ok = 1;
}

int hyb_zfp_cpu_available( void )
{
	pthread_once( &hyb_zfp_lib_once, hyb_zfp_lib_load );
	return hyb_zfp_lib_ok;
}

const char* hyb_zfp_cpu_version( void )
{
	return hyb_zfp_cpu_available() ? *hyb_zfp_lib.version : "";
}

/* libzfp's objects for one call. A libzfp built with stream words wider than
   a byte reads and writes whole words, past a stream of hyb_zfp_stream_bytes
   bytes: such a libzfp works on a copy padded to its word. */
typedef struct
{
	zfp_field*  field;
	zfp_stream* zs;
	bitstream*  bs;
	void*       copy;
} hyb_zfp_cpu_call_t;

static void hyb_zfp_cpu_close( hyb_zfp_cpu_call_t* c )
{
	const hyb_zfp_lib_t* z = &hyb_zfp_lib;
	if ( c->bs ) z->bs_close( c->bs );
	if ( c->zs ) z->zs_close( c->zs );
	if ( c->field ) z->field_free( c->field );
	free( c->copy );
}

static hyb_status_t hyb_zfp_cpu_open( hyb_zfp_cpu_call_t* c, const hyb_zfp_field_t* f, double rate,
                                      const void* values, void* stream, size_t bytes )
{
	const hyb_zfp_lib_t* z = &hyb_zfp_lib;
	memset( c, 0, sizeof *c );
	const zfp_type t = f->type == HYB_ZFP_FLOAT ? zfp_type_float : zfp_type_double;
	void*          v = (void*)(uintptr_t)values; /* libzfp's field is not const */
	if ( f->dims == 2 )
	{
		c->field = z->field_2d( v, t, (size_t)f->nx, (size_t)f->ny );
		if ( c->field ) z->stride_2d( c->field, (ptrdiff_t)f->sx, (ptrdiff_t)f->sy );
	}
	else
	{
		c->field = z->field_3d( v, t, (size_t)f->nx, (size_t)f->ny, (size_t)f->nz );
		if ( c->field )
			z->stride_3d( c->field, (ptrdiff_t)f->sx, (ptrdiff_t)f->sy, (ptrdiff_t)f->sz );
	}
	c->zs = z->zs_open( NULL );
	if ( !c->field || !c->zs ) return HYB_E_NO_MEMORY;
	z->set_rate( c->zs, rate, t, f->dims, zfp_false );
	unsigned maxbits = 0;
	z->params( c->zs, NULL, &maxbits, NULL, NULL );
	if ( maxbits != hyb_zfp_block_bits( f->dims, f->type, rate ) ) return HYB_E_NOT_SUPPORTED;

	size_t word = (size_t)z->alignment() / 8u;
	if ( word > 1 )
	{
		size_t padded = ( bytes + word - 1 ) / word * word;
		c->copy       = calloc( padded, 1 );
		if ( !c->copy ) return HYB_E_NO_MEMORY;
		memcpy( c->copy, stream, bytes );
		c->bs = z->bs_open( c->copy, padded );
	}
	else
		c->bs = z->bs_open( stream, bytes );
	if ( !c->bs ) return HYB_E_NO_MEMORY;
	z->set_bs( c->zs, c->bs );
	return HYB_OK;
}

hyb_status_t hyb_zfp_cpu_encode( const hyb_zfp_field_t* f, double rate, const void* field,
                                 void* stream, size_t stream_bytes )
{
	if ( !hyb_zfp_cpu_available() ) return HYB_E_NOT_SUPPORTED;
	hyb_status_t st    = hyb_zfp_host_check( f, rate, field, stream, stream_bytes );
	const size_t bytes = hyb_zfp_stream_bytes( f, rate );
	if ( st != HYB_OK || bytes == 0 ) return st;
	const hyb_zfp_lib_t* z = &hyb_zfp_lib;
	hyb_zfp_cpu_call_t   c;
	st = hyb_zfp_cpu_open( &c, f, rate, field, stream, bytes );
	if ( st == HYB_OK )
	{
		/* OpenMP compression writes the same stream; serial if refused */
		if ( !z->set_exec( c.zs, zfp_exec_omp ) ) z->set_exec( c.zs, zfp_exec_serial );
		if ( z->compress( c.zs, c.field ) == 0 )
			st = HYB_E_NOT_SUPPORTED;
		else if ( c.copy )
			memcpy( stream, c.copy, bytes );
	}
	hyb_zfp_cpu_close( &c );
	return st;
}

hyb_status_t hyb_zfp_cpu_decode( const hyb_zfp_field_t* f, double rate, const void* stream,
                                 size_t stream_bytes, void* field )
{
	if ( !hyb_zfp_cpu_available() ) return HYB_E_NOT_SUPPORTED;
	hyb_status_t st    = hyb_zfp_host_check( f, rate, field, stream, stream_bytes );
	const size_t bytes = hyb_zfp_stream_bytes( f, rate );
	if ( st != HYB_OK || bytes == 0 ) return st;
	hyb_zfp_cpu_call_t c;
	/* libzfp only reads the stream when decompressing */
	st = hyb_zfp_cpu_open( &c, f, rate, field, (void*)(uintptr_t)stream, bytes );
	if ( st == HYB_OK && hyb_zfp_lib.decompress( c.zs, c.field ) == 0 ) st = HYB_E_NOT_SUPPORTED;
	hyb_zfp_cpu_close( &c );
	return st;
}
