/* SPDX-License-Identifier: BSD-3-Clause */
/* The ZFP stage on the simulated device: the kernels registered, slabs of a
   device array encoded and downloaded (and uploaded and decoded) equal to
   the host codec bit for bit, device faults by kernel name and copy kind
   falling back with the same bits and nothing lost, and the counting. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_op.h"
#include "hyb_stats.h"
#include "kernels/hyb_device.h"
#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_kargs.h"
#include "kernels/zfp/hyb_zfp_stage.h"
#include "unit/hyb_test_util.h"

/* A parent array on the device with padded rows (and planes), its host
   copy, the slabs of it, and the device stream buffer. */
typedef struct
{
	hyb_zfp_field_t parent; /* device layout */
	int64_t         cut[4]; /* slab boundaries along y (2-D) or z (3-D) */
	int             slabs;
	double          rate;
	size_t          vbytes; /* bytes of the parent array */
	void*           host;   /* the values, parent layout */
	unsigned char*  dev;    /* parent array, then the stream buffer */
	void*           dstream;
	hyb_dev_t*      d;
} tzs_case_t;

static int tzs_setup( tzs_case_t* c, hyb_zfp_type_t type, unsigned dims, double rate )
{
	memset( c, 0, sizeof *c );
	const int64_t nx = 37, pitch = 48;
	if ( dims == 2 )
	{
		c->parent    = hyb_zfp_field_2d( type, nx, 40 );
		c->parent.sy = pitch;
		c->cut[0] = 0, c->cut[1] = 12, c->cut[2] = 32, c->cut[3] = 40;
	}
	else
	{
		c->parent    = hyb_zfp_field_3d( type, nx, 10, 14 );
		c->parent.sy = pitch;
		c->parent.sz = pitch * 11;
		c->cut[0] = 0, c->cut[1] = 4, c->cut[2] = 12, c->cut[3] = 14;
	}
	c->slabs             = 3;
	c->rate              = rate;
	const int64_t extent = dims == 3 ? c->parent.sz * c->parent.nz : c->parent.sy * c->parent.ny;
	c->vbytes            = (size_t)extent * hyb_zfp_type_size( type );
	c->host              = malloc( c->vbytes );
	hyb_t_rng_t  r       = hyb_t_rng( 77 + dims );
	const size_t n       = (size_t)extent;
	for ( size_t i = 0; i < n; i++ )
	{
		/* smooth with noise, and some gaps' garbage that must stay out of the streams */
		double v = (double)( i % 97 ) * 0.01 + 0.001 * hyb_t_unit( &r );
		if ( type == HYB_ZFP_DOUBLE )
			( (double*)c->host )[i] = v;
		else
			( (float*)c->host )[i] = (float)v;
	}
	size_t sbytes = 0;
	for ( int k = 0; k < c->slabs; k++ )
	{
		hyb_zfp_field_t s = hyb_zfp_slab( &c->parent, c->cut[k], c->cut[k + 1] );
		size_t          b = hyb_zfp_stage_buffer_bytes( &s, rate );
		if ( b > sbytes ) sbytes = b;
	}
	if ( hyb_dev_acquire( 0, &c->d ) != HYB_OK ) return 0;
	void* ws = NULL;
	if ( hyb_dev_workspace( c->d, c->vbytes + 8 + sbytes, &ws ) != HYB_OK ) return 0;
	c->dev     = ws;
	c->dstream = c->dev + ( ( c->vbytes + 7u ) & ~(size_t)7u );
	return hyb_dev_h2d( c->d, 0, c->dev, c->vbytes, c->host, c->vbytes, c->vbytes, 1 ) == HYB_OK &&
	       hyb_dev_stream_sync( c->d, 0 ) == HYB_OK;
}

static void tzs_teardown( tzs_case_t* c )
{
	if ( c->d ) hyb_dev_release( c->d );
	free( c->host );
}

static hyb_zfp_field_t tzs_slab( const tzs_case_t* c, int k )
{
	return hyb_zfp_slab( &c->parent, c->cut[k], c->cut[k + 1] );
}

/* Value offset of slab k's first value, in bytes. */
static size_t tzs_at( const tzs_case_t* c, int k )
{
	return (size_t)hyb_zfp_slab_offset( &c->parent, c->cut[k] ) *
	       hyb_zfp_type_size( c->parent.type );
}

static int tzs_store( const tzs_case_t* c, hyb_zfp_store_t* s )
{
	hyb_zfp_field_t sl[3];
	for ( int k = 0; k < c->slabs; k++ ) sl[k] = tzs_slab( c, k );
	return hyb_zfp_store_init( s, sl, c->slabs, c->rate ) == HYB_OK;
}

/* The host codec's stream of slab k of the host copy. */
static void* tzs_ref_stream( const tzs_case_t* c, int k, size_t* bytes )
{
	hyb_zfp_field_t s = tzs_slab( c, k );
	*bytes            = hyb_zfp_stream_bytes( &s, c->rate );
	void* out         = calloc( 1, *bytes + 8 );
	if ( hyb_zfp_host_encode( &s, c->rate, (unsigned char*)c->host + tzs_at( c, k ), out,
	                          *bytes ) != HYB_OK )
	{
		free( out );
		return NULL;
	}
	return out;
}

/* The parent array as the host codec's round trip of every slab leaves it
   (gaps untouched). */
static void* tzs_ref_roundtrip( const tzs_case_t* c )
{
	unsigned char* out = malloc( c->vbytes );
	memcpy( out, c->host, c->vbytes );
	for ( int k = 0; k < c->slabs; k++ )
	{
		size_t          b;
		void*           st = tzs_ref_stream( c, k, &b );
		hyb_zfp_field_t s  = tzs_slab( c, k );
		hyb_zfp_host_decode( &s, c->rate, st, b, out + tzs_at( c, k ) );
		free( st );
	}
	return out;
}

static void test_registered( void )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "256M", "HYBLAS_LOG_LEVEL=0" ), HYB_OK );
	hyb_kernel_id_t e = hyb_kernel_find( "zfp.encode" );
	hyb_kernel_id_t d = hyb_kernel_find( "zfp.decode" );
	CU_ASSERT( e != HYB_KERNEL_NONE && hyb_kernel_def( e ) == &hyb_zfp_encode_def );
	CU_ASSERT( d != HYB_KERNEL_NONE && hyb_kernel_def( d ) == &hyb_zfp_decode_def );
	CU_ASSERT( hyb_devices_kernel_supported( e ) && hyb_devices_kernel_supported( d ) );
	CU_ASSERT_EQUAL( hyb_device_faults_set( "zfp.encode:1,zfp.decode:2a" ), HYB_OK );
	hyb_t_sim_end();
}

/* Queued stage: every slab down into the store, then up into a cleared
   array; streams and values equal the host codec's; the gaps stay. */
static void tzs_queued( hyb_zfp_type_t type, unsigned dims, double rate )
{
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "256M", "HYBLAS_LOG_LEVEL=0" ), HYB_OK );
	tzs_case_t c;
	CU_ASSERT_FATAL( tzs_setup( &c, type, dims, rate ) );
	hyb_zfp_store_t s;
	CU_ASSERT_FATAL( tzs_store( &c, &s ) );
	CU_ASSERT_EQUAL( hyb_zfp_store_pin( &s, c.d ), HYB_OK );
	hyb_devent_t* ev[3] = { NULL, NULL, NULL };
	for ( int k = 0; k < 3; k++ )
		CU_ASSERT_EQUAL_FATAL( hyb_dev_event_create( c.d, &ev[k] ), HYB_OK );
	/* slab k on stream 3 + k, each through its own part of one buffer is not
	   needed: one stream buffer, the slabs in order on one stream, events
	   chaining a second stream's wait */
	for ( int k = 0; k < c.slabs; k++ )
	{
		hyb_zfp_field_t f = tzs_slab( &c, k );
		CU_ASSERT_EQUAL( hyb_zfp_stage_down( c.d, 3, &f, rate, c.dev + tzs_at( &c, k ), c.dstream,
		                                     hyb_zfp_store_stream( &s, k ), k ? ev[k - 1] : NULL,
		                                     ev[k] ),
		                 HYB_OK );
	}
	CU_ASSERT_EQUAL( hyb_dev_sync( c.d, ev[2] ), HYB_OK );
	for ( int k = 0; k < c.slabs; k++ ) hyb_zfp_store_set_held( &s, k, 1 );
	for ( int k = 0; k < c.slabs; k++ )
	{
		size_t b;
		void*  ref = tzs_ref_stream( &c, k, &b );
		CU_ASSERT_EQUAL( b, s.bytes[k] );
		CU_ASSERT( ref && memcmp( ref, hyb_zfp_store_stream( &s, k ), b ) == 0 );
		free( ref );
	}
	/* up into the array with its slabs cleared on the device */
	for ( int k = 0; k < c.slabs; k++ )
	{
		hyb_zfp_field_t f = tzs_slab( &c, k );
		CU_ASSERT_EQUAL( hyb_zfp_stage_up( c.d, 4, &f, rate, hyb_zfp_store_stream( &s, k ),
		                                   c.dstream, c.dev + tzs_at( &c, k ), NULL, NULL ),
		                 HYB_OK );
	}
	unsigned char* back = malloc( c.vbytes );
	CU_ASSERT_EQUAL( hyb_dev_d2h( c.d, 4, back, c.vbytes, c.dev, c.vbytes, c.vbytes, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_dev_stream_sync( c.d, 4 ), HYB_OK );
	unsigned char* ref = tzs_ref_roundtrip( &c );
	CU_ASSERT( memcmp( back, ref, c.vbytes ) == 0 );
	CU_ASSERT( memcmp( back, c.host, c.vbytes ) != 0 ); /* lossy: the round trip did happen */
	/* refusals queue nothing */
	hyb_zfp_field_t f = tzs_slab( &c, 0 );
	CU_ASSERT_EQUAL( hyb_zfp_stage_down( c.d, 3, &f, 0.0, c.dev, c.dstream, back, NULL, NULL ),
	                 HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_stage_up( c.d, 3, &f, rate, NULL, c.dstream, c.dev, NULL, NULL ),
	                 HYB_E_INVALID );
	free( ref );
	free( back );
	for ( int k = 0; k < 3; k++ ) hyb_dev_event_destroy( c.d, ev[k] );
	hyb_zfp_store_free( &s );
	tzs_teardown( &c );
	hyb_t_sim_end();
}

static void test_queued_float_2d( void )
{
	tzs_queued( HYB_ZFP_FLOAT, 2, 16 );
	tzs_queued( HYB_ZFP_FLOAT, 2, 1.5 );
}

static void test_queued_double_3d( void )
{
	tzs_queued( HYB_ZFP_DOUBLE, 3, 24 );
	tzs_queued( HYB_ZFP_FLOAT, 3, 8 );
}

/* Save and load every slab under a fault plan; *moved counts per kind. */
typedef struct
{
	int stage, raw, none;
} tzs_moves_t;

static void tzs_count( tzs_moves_t* m, hyb_zfp_moved_t v )
{
	m->stage += v == HYB_ZFP_MOVED_STAGE;
	m->raw += v == HYB_ZFP_MOVED_RAW;
	m->none += v == HYB_ZFP_MOVED_NONE;
}

/* One fault plan on the save or the load: the results are the host codec's
   bits whichever way the slab moved. Returns the moves. */
static tzs_moves_t tzs_faulted( const char* plan, int on_load )
{
	tzs_moves_t m = { 0, 0, 0 };
	CU_ASSERT_EQUAL_FATAL( hyb_t_sim_begin( 1, "256M", "HYBLAS_LOG_LEVEL=0" ), HYB_OK );
	tzs_case_t c;
	CU_ASSERT_FATAL( tzs_setup( &c, HYB_ZFP_FLOAT, 2, 12 ) );
	hyb_zfp_store_t s;
	CU_ASSERT_FATAL( tzs_store( &c, &s ) );
	if ( !on_load ) CU_ASSERT_EQUAL( hyb_device_faults_set( plan ), HYB_OK );
	for ( int k = 0; k < c.slabs; k++ )
	{
		hyb_zfp_field_t f = tzs_slab( &c, k );
		hyb_zfp_moved_t v;
		hyb_status_t    st =
		    hyb_zfp_stage_save( c.d, 5, &f, c.dev + tzs_at( &c, k ), c.dstream, &s, k, &v );
		if ( !on_load ) tzs_count( &m, v );
		size_t b;
		void*  ref = tzs_ref_stream( &c, k, &b );
		if ( st == HYB_OK )
		{
			CU_ASSERT( v != HYB_ZFP_MOVED_NONE && s.held[k] );
			CU_ASSERT( memcmp( ref, hyb_zfp_store_stream( &s, k ), b ) == 0 );
		}
		else
		{
			CU_ASSERT( v == HYB_ZFP_MOVED_NONE && !s.held[k] );
			/* the caller's CPU fallback from its own copy */
			CU_ASSERT_EQUAL(
			    hyb_zfp_store_put_host( &s, k, &f, (unsigned char*)c.host + tzs_at( &c, k ) ),
			    HYB_OK );
		}
		free( ref );
	}
	if ( on_load ) CU_ASSERT_EQUAL( hyb_device_faults_set( plan ), HYB_OK );
	unsigned char* keep = malloc( s.total );
	memcpy( keep, s.data, s.total );
	unsigned char* ref       = tzs_ref_roundtrip( &c );
	int            failed[3] = { 0, 0, 0 };
	for ( int k = 0; k < c.slabs; k++ )
	{
		hyb_zfp_field_t f = tzs_slab( &c, k );
		hyb_zfp_moved_t v;
		hyb_status_t    st =
		    hyb_zfp_stage_load( c.d, 5, &f, &s, k, c.dstream, c.dev + tzs_at( &c, k ), &v );
		if ( on_load ) tzs_count( &m, v );
		CU_ASSERT_EQUAL( st == HYB_OK, v != HYB_ZFP_MOVED_NONE );
		failed[k] = st != HYB_OK;
	}
	/* the array as the device holds it, slabs that failed to load taken by
	   the CPU from the store; all of them when the device is dead (an
	   asynchronous fault is sticky, as on a real device) */
	hyb_device_faults_set( NULL );
	unsigned char* cpu = malloc( c.vbytes );
	/* the gaps between rows are never moved: as the device holds them when
	   it cannot be read */
	memcpy( cpu, c.host, c.vbytes );
	const int dead = hyb_dev_d2h( c.d, 5, cpu, c.vbytes, c.dev, c.vbytes, c.vbytes, 1 ) != HYB_OK ||
	                 hyb_dev_stream_sync( c.d, 5 ) != HYB_OK;
	for ( int k = 0; k < c.slabs; k++ )
	{
		hyb_zfp_field_t f = tzs_slab( &c, k );
		if ( failed[k] || dead )
			CU_ASSERT_EQUAL( hyb_zfp_store_get_host( &s, k, &f, cpu + tzs_at( &c, k ) ), HYB_OK );
	}
	if ( dead ) CU_ASSERT( failed[c.slabs - 1] );
	CU_ASSERT( memcmp( keep, s.data, s.total ) == 0 ); /* a load never changes the store */
	CU_ASSERT( memcmp( cpu, ref, c.vbytes ) == 0 );
	free( cpu );
	free( ref );
	free( keep );
	hyb_zfp_store_free( &s );
	tzs_teardown( &c );
	hyb_t_sim_end();
	return m;
}

static void test_faults( void )
{
	tzs_moves_t m = tzs_faulted( NULL, 0 );
	CU_ASSERT( m.stage == 3 && m.raw == 0 );
	m = tzs_faulted( NULL, 1 );
	CU_ASSERT( m.stage == 3 && m.raw == 0 );
	/* one step of the save fails: that slab moves raw, the others staged */
	const char* save_plans[] = { "zfp.encode:2", "d2h:1", "kernel:1", "sync:1" };
	for ( size_t p = 0; p < sizeof save_plans / sizeof *save_plans; p++ )
	{
		m = tzs_faulted( save_plans[p], 0 );
		CU_ASSERT( m.raw == 1 && m.stage == 2 && m.none == 0 );
	}
	const char* load_plans[] = { "zfp.decode:1", "h2d:2", "kernel:3", "sync:2" };
	for ( size_t p = 0; p < sizeof load_plans / sizeof *load_plans; p++ )
	{
		m = tzs_faulted( load_plans[p], 1 );
		CU_ASSERT( m.raw == 1 && m.stage == 2 && m.none == 0 );
	}
	/* an asynchronous fault kills the context: that slab and the later ones
	   are not moved (the caller's CPU path takes them), the earlier ones were */
	m = tzs_faulted( "zfp.encode:2a", 0 );
	CU_ASSERT( m.stage == 1 && m.raw == 0 && m.none == 2 );
	m = tzs_faulted( "d2h:3a", 0 );
	CU_ASSERT( m.stage == 2 && m.none == 1 );
	m = tzs_faulted( "zfp.decode:2a", 1 );
	CU_ASSERT( m.stage == 1 && m.raw == 0 && m.none == 2 );
	/* the fallback's copy fails too: the call reports it, nothing is lost */
	m = tzs_faulted( "d2h:1,d2h:2", 0 );
	CU_ASSERT( m.none == 1 && m.stage == 2 );
	m = tzs_faulted( "h2d:1,h2d:2", 1 );
	CU_ASSERT( m.none == 1 && m.stage == 2 );
}

static void test_counted( void )
{
	hyb_op_id_t save = hyb_op_register( "zfp.save", "zfp" );
	hyb_op_id_t load = hyb_op_register( "zfp.load", "zfp" );
	CU_ASSERT_FATAL( save != HYB_OP_NONE && load != HYB_OP_NONE );
	const uint64_t g0 = hyb_stats_calls( save, HYB_PATH_GPU ), f0 = hyb_stats_fallbacks( save );
	const uint64_t l0 = hyb_stats_calls( load, HYB_PATH_FALLBACK );
	tzs_faulted( "zfp.encode:1", 0 );
	CU_ASSERT_EQUAL( hyb_stats_calls( save, HYB_PATH_GPU ) - g0, 2 );
	CU_ASSERT_EQUAL( hyb_stats_fallbacks( save ) - f0, 1 );
	tzs_faulted( "zfp.decode:1", 1 );
	CU_ASSERT_EQUAL( hyb_stats_calls( load, HYB_PATH_FALLBACK ) - l0, 1 );
	CU_ASSERT_STRING_EQUAL( hyb_op_family_of( save ), "zfp" );
}

static void test_store( void )
{
	hyb_zfp_store_t s;
	hyb_zfp_field_t sl[2] = { hyb_zfp_field_2d( HYB_ZFP_FLOAT, 10, 8 ),
		                      hyb_zfp_field_2d( HYB_ZFP_FLOAT, 10, 3 ) };
	CU_ASSERT_EQUAL( hyb_zfp_store_init( &s, sl, 2, 0.0 ), HYB_E_INVALID );
	CU_ASSERT_PTR_NULL( s.data );
	CU_ASSERT_EQUAL( hyb_zfp_store_init( &s, sl, 2, 1.5 ), HYB_OK );
	/* exact sizes: 3 x 2 blocks of 24 bits, 3 x 1 blocks */
	CU_ASSERT_EQUAL( s.bytes[0], 18u );
	CU_ASSERT_EQUAL( s.bytes[1], 9u );
	CU_ASSERT_EQUAL( s.offset[1], 24u );
	CU_ASSERT_PTR_NULL( hyb_zfp_store_stream( &s, 2 ) );
	float v[80];
	CU_ASSERT_EQUAL( hyb_zfp_store_get_host( &s, 0, &sl[0], v ), HYB_E_INVALID ); /* not held */
	CU_ASSERT_EQUAL( hyb_zfp_store_put_host( &s, 0, &sl[1], v ), HYB_E_INVALID ); /* wrong sizes */
	hyb_zfp_store_free( &s );
	CU_ASSERT_PTR_NULL( s.data );
}

static CU_TestInfo hyb_zfp_stage_tests[] = {
	{ "kernels registered and fault-addressable", test_registered },
	{ "queued stage, float 2-D slabs", test_queued_float_2d },
	{ "queued stage, 3-D slabs", test_queued_double_3d },
	{ "store sizes and refusals", test_store },
	{ "faults fall back with the same bits", test_faults },
	{ "save and load counted", test_counted },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_zfp_stage = { "zfp_stage", NULL, NULL, NULL, NULL, hyb_zfp_stage_tests };
