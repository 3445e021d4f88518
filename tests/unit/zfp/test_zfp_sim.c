/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated device's ZFP launchers, called directly on host memory as
   the device runtime will call them: the streams recorded from libzfp, a
   slab of a larger array in place, refusals that queue (write) nothing. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/zfp/hyb_zfp_host.h"
#include "kernels/zfp/hyb_zfp_kargs.h"
#include "unit/hyb_test_util.h"
#include "unit/zfp/test_zfp_cases.h"

static const hyb_kernel_env_t ts_env = { NULL, NULL, NULL, 0 };

/* The launchers behind the codec signature of the recorded hashes. */
static hyb_status_t ts_encode( const hyb_zfp_field_t* f, double rate, const void* field,
                               void* stream, size_t stream_bytes )
{
	(void)stream_bytes;
	hyb_zfp_encode_args_t a = { *f, rate, field, stream };
	return hyb_zfp_encode_sim( &ts_env, &a );
}

static hyb_status_t ts_decode( const hyb_zfp_field_t* f, double rate, const void* stream,
                               size_t stream_bytes, void* field )
{
	(void)stream_bytes;
	hyb_zfp_decode_args_t a = { *f, rate, stream, field };
	return hyb_zfp_decode_sim( &ts_env, &a );
}

static void test_recorded( void )
{
	CU_ASSERT_EQUAL( hyb_zc_golden_check( ts_encode, ts_decode ), 0 );
}

/* The engine's use: rows [y0, y1) of a field with a row pitch, as their own
   stream, written in place and read back in place. */
static void test_slab( void )
{
	const int64_t nx = 50, ny = 40, pitch = 64, y0 = 12, y1 = 28;
	double*       a = malloc( sizeof( double ) * (size_t)( pitch * ny ) );
	double*       b = malloc( sizeof( double ) * (size_t)( pitch * ny ) );
	hyb_t_rng_t   r = hyb_t_rng( 21 );
	for ( int64_t i = 0; i < pitch * ny; i++ ) a[i] = hyb_t_unit( &r );
	memcpy( b, a, sizeof( double ) * (size_t)( pitch * ny ) );

	hyb_zfp_field_t f           = hyb_zfp_field_2d( HYB_ZFP_DOUBLE, nx, y1 - y0 );
	f.sy                        = pitch;
	const size_t          bytes = hyb_zfp_stream_bytes( &f, 24 );
	uint64_t*             s     = malloc( bytes + 8 );
	uint64_t*             ref   = malloc( bytes + 8 );
	hyb_zfp_encode_args_t e     = { f, 24, a + y0 * pitch, s };
	CU_ASSERT_EQUAL( hyb_zfp_encode_sim( &ts_env, &e ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 24, a + y0 * pitch, ref, bytes ), HYB_OK );
	CU_ASSERT_EQUAL( memcmp( s, ref, bytes ), 0 );

	hyb_zfp_decode_args_t d = { f, 24, s, b + y0 * pitch };
	CU_ASSERT_EQUAL( hyb_zfp_decode_sim( &ts_env, &d ), HYB_OK );
	int outside_same = 1, inside_close = 1, inside_changed = 0;
	for ( int64_t y = 0; y < ny; y++ )
		for ( int64_t x = 0; x < pitch; x++ )
		{
			double va = a[x + y * pitch], vb = b[x + y * pitch];
			if ( y >= y0 && y < y1 && x < nx )
			{
				inside_close &= fabs( va - vb ) < 1e-4;
				inside_changed |= va != vb;
			}
			else
				outside_same &= va == vb;
		}
	CU_ASSERT( outside_same );
	CU_ASSERT( inside_close );
	CU_ASSERT( inside_changed );
	free( a );
	free( b );
	free( s );
	free( ref );
}

/* Refusals: bad field, rate, pointers or alignment give HYB_E_INVALID and
   write nothing; an empty field is done at once. */
static void test_refusals( void )
{
	float           v[64];
	uint64_t        s[16], keep[16];
	hyb_zfp_field_t f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 8, 8 );
	for ( int i = 0; i < 64; i++ ) v[i] = (float)i;
	memset( s, 0x5e, sizeof s );
	memcpy( keep, s, sizeof s );

	CU_ASSERT_EQUAL( hyb_zfp_encode_sim( &ts_env, NULL ), HYB_E_INVALID );
	hyb_zfp_encode_args_t e = { f, 0.0, v, s };
	CU_ASSERT_EQUAL( hyb_zfp_encode_sim( &ts_env, &e ), HYB_E_INVALID );
	e.rate   = 8;
	e.stream = (char*)s + 4;
	CU_ASSERT_EQUAL( hyb_zfp_encode_sim( &ts_env, &e ), HYB_E_INVALID );
	e.stream = s;
	e.field  = NULL;
	CU_ASSERT_EQUAL( hyb_zfp_encode_sim( &ts_env, &e ), HYB_E_INVALID );
	e.field  = v;
	e.f.dims = 5;
	CU_ASSERT_EQUAL( hyb_zfp_encode_sim( &ts_env, &e ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( memcmp( s, keep, sizeof s ), 0 );

	float w[64];
	memcpy( w, v, sizeof w );
	hyb_zfp_decode_args_t d = { f, 64, s, w }; /* float tops at 32 */
	CU_ASSERT_EQUAL( hyb_zfp_decode_sim( &ts_env, &d ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_decode_sim( &ts_env, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( memcmp( w, v, sizeof w ), 0 );

	hyb_zfp_encode_args_t empty = { hyb_zfp_field_2d( HYB_ZFP_FLOAT, 8, 0 ), 8, NULL, NULL };
	CU_ASSERT_EQUAL( hyb_zfp_encode_sim( &ts_env, &empty ), HYB_OK );
}

static CU_TestInfo hyb_zfp_sim_tests[] = {
	{ "streams recorded from libzfp", test_recorded },
	{ "slab coded in place", test_slab },
	{ "refusals write nothing", test_refusals },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_zfp_sim = { "zfp_sim", NULL, NULL, NULL, NULL, hyb_zfp_sim_tests };
