/* SPDX-License-Identifier: BSD-3-Clause */
/* The host codec: the recorded libzfp streams, accuracy where the format
   promises it, slabs of larger arrays coded in place, exact stream lengths,
   and bad input that changes nothing. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/zfp/hyb_zfp_host.h"
#include "unit/hyb_test_util.h"
#include "unit/zfp/test_zfp_cases.h"

/* Every (type, dims, kind) against the hash recorded from libzfp. */
static void test_recorded( void )
{
	CU_ASSERT_EQUAL( hyb_zc_golden_check( hyb_zfp_host_encode, hyb_zfp_host_decode ), 0 );
}

/* Largest error of a decoded field relative to the field's largest value. */
static double tz_rel_err( const float* a, const float* b, size_t n )
{
	double emax = 0, amax = 0;
	for ( size_t i = 0; i < n; i++ )
	{
		emax = fmax( emax, fabs( (double)a[i] - (double)b[i] ) );
		amax = fmax( amax, fabs( (double)a[i] ) );
	}
	return emax / amax;
}

/* A smooth field comes back to within what its rate buys (ZFP's fixed rate
   bounds no pointwise relative error, but on smooth data the error relative
   to the field's range falls by about 2^-1 per bit of rate). */
static void test_accuracy( void )
{
	const int64_t   nx = 61, ny = 43;
	const size_t    n = (size_t)nx * ny;
	float*          a = malloc( n * sizeof *a );
	float*          b = malloc( n * sizeof *b );
	hyb_zfp_field_t f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, nx, ny );
	uint64_t*       s = malloc( hyb_zfp_stream_bytes( &f, 32 ) + 8 );
	for ( int64_t y = 0; y < ny; y++ )
		for ( int64_t x = 0; x < nx; x++ )
			a[x + nx * y] = (float)( sin( 0.05 * (double)x ) * cos( 0.07 * (double)y ) + 2.0 );
	const double rates[] = { 8, 16, 24, 32 };
	const double bound[] = { 1e-2, 1e-4, 1e-6, 1e-7 };
	for ( int i = 0; i < 4; i++ )
	{
		size_t bytes = hyb_zfp_stream_bytes( &f, rates[i] );
		CU_ASSERT_EQUAL_FATAL( hyb_zfp_host_encode( &f, rates[i], a, s, bytes ), HYB_OK );
		CU_ASSERT_EQUAL_FATAL( hyb_zfp_host_decode( &f, rates[i], s, bytes, b ), HYB_OK );
		double err = tz_rel_err( a, b, n );
		CU_ASSERT( err < bound[i] );
		CU_ASSERT( err > 0 || rates[i] > 16 );
	}
	/* a constant field has one nonzero coefficient per block, coded in about
	   two bits per bit plane: exact at rate 8 (128 bits per block) */
	for ( size_t i = 0; i < n; i++ ) a[i] = -1.625f;
	size_t bytes = hyb_zfp_stream_bytes( &f, 8 );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 8, a, s, bytes ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, 8, s, bytes, b ), HYB_OK );
	CU_ASSERT_EQUAL( memcmp( a, b, n * sizeof *a ), 0 );
	free( a );
	free( b );
	free( s );
}

/* Slabs: rows [y0, y1) of a 2-D array with a padded row pitch, and z-slabs
   of a 3-D array, coded in place with the parent's strides, give the streams
   of the same values copied out; decoding into the parent writes the slab's
   values and nothing else. Also a field read backwards (negative stride). */
static void tz_slab_check( hyb_zfp_type_t type, unsigned dims, double rate )
{
	const int64_t  nx = 37, ny = 29, nz = dims == 3 ? 14 : 1, pitch = 45;
	const int64_t  plane  = pitch * ny;
	const size_t   es     = hyb_zfp_type_size( type );
	const size_t   total  = (size_t)( plane * nz );
	unsigned char* parent = malloc( total * es );
	unsigned char* copy   = malloc( total * es );
	unsigned char* back   = malloc( total * es );
	hyb_t_rng_t    r      = hyb_t_rng( 99 );
	for ( size_t i = 0; i < total; i++ )
	{
		double v = hyb_t_unit( &r );
		if ( type == HYB_ZFP_FLOAT )
			( (float*)parent )[i] = (float)v;
		else
			( (double*)parent )[i] = v;
	}
	/* the slab: 2-D rows [8, 24); 3-D planes [4, 12) */
	hyb_zfp_field_t s =
	    dims == 2 ? hyb_zfp_field_2d( type, nx, 16 ) : hyb_zfp_field_3d( type, nx, ny, 8 );
	s.sy              = pitch;
	s.sz              = plane;
	const int64_t off = dims == 2 ? 8 * pitch : 4 * plane;
	/* the same values, contiguous */
	hyb_zfp_field_t c =
	    dims == 2 ? hyb_zfp_field_2d( type, nx, 16 ) : hyb_zfp_field_3d( type, nx, ny, 8 );
	for ( int64_t z = 0; z < s.nz; z++ )
		for ( int64_t y = 0; y < s.ny; y++ )
			memcpy( copy + (size_t)( ( y * c.sy + z * c.sz ) ) * es,
			        parent + (size_t)( off + y * s.sy + z * s.sz ) * es, (size_t)nx * es );

	const size_t bytes = hyb_zfp_stream_bytes( &s, rate );
	uint64_t*    s1    = malloc( bytes + 8 );
	uint64_t*    s2    = malloc( bytes + 8 );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &s, rate, parent + (size_t)off * es, s1, bytes ),
	                 HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &c, rate, copy, s2, bytes ), HYB_OK );
	CU_ASSERT_EQUAL( memcmp( s1, s2, bytes ), 0 );

	/* decode into a copy of the parent: the slab's values change, nothing else */
	memcpy( back, parent, total * es );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &s, rate, s1, bytes, back + (size_t)off * es ), HYB_OK );
	size_t changed_outside = 0, changed_inside = 0;
	for ( size_t i = 0; i < total; i++ )
	{
		int64_t e = (int64_t)i - off;
		int64_t z = e / plane, y = e % plane / pitch, x = e % pitch;
		int     inside  = e >= 0 && z < s.nz && y < s.ny && x < nx;
		int     differs = memcmp( back + i * es, parent + i * es, es ) != 0;
		if ( differs && inside ) changed_inside++;
		if ( differs && !inside ) changed_outside++;
	}
	CU_ASSERT_EQUAL( changed_outside, 0 );
	CU_ASSERT( changed_inside > 0 || rate == ( type == HYB_ZFP_FLOAT ? 32 : 64 ) );

	/* backwards: the field from its last row with a negative row stride is the
	   y-flipped copy */
	if ( dims == 2 )
	{
		hyb_zfp_field_t flip = c;
		flip.sy              = -c.sy;
		unsigned char* rev   = malloc( (size_t)( c.sy * c.ny ) * es );
		for ( int64_t y = 0; y < c.ny; y++ )
			memcpy( rev + (size_t)( ( c.ny - 1 - y ) * c.sy ) * es,
			        copy + (size_t)( y * c.sy ) * es, (size_t)nx * es );
		CU_ASSERT_EQUAL( hyb_zfp_host_encode(
		                     &flip, rate, copy + (size_t)( ( c.ny - 1 ) * c.sy ) * es, s1, bytes ),
		                 HYB_OK );
		CU_ASSERT_EQUAL( hyb_zfp_host_encode( &c, rate, rev, s2, bytes ), HYB_OK );
		CU_ASSERT_EQUAL( memcmp( s1, s2, bytes ), 0 );
		free( rev );
	}
	free( parent );
	free( copy );
	free( back );
	free( s1 );
	free( s2 );
}

static void test_slabs( void )
{
	tz_slab_check( HYB_ZFP_FLOAT, 2, 16 );
	tz_slab_check( HYB_ZFP_FLOAT, 2, 5 );
	tz_slab_check( HYB_ZFP_DOUBLE, 2, 13 );
	tz_slab_check( HYB_ZFP_FLOAT, 3, 8 );
	tz_slab_check( HYB_ZFP_DOUBLE, 3, 21 );
	tz_slab_check( HYB_ZFP_FLOAT, 2, 32 );
}

/* Slabs whose boundaries are multiples of 4 rows (2-D) or planes (3-D) hold
   whole rows of blocks, which follow each other in the field's stream: the
   slabs' streams, one after the other, are the field's stream whenever each
   is a whole number of bytes (integer rates in 2-D and 3-D), so separately
   compressed pieces stay one libzfp stream. */
static void test_slab_concatenation( void )
{
	const int64_t nx = 37, ny = 44, nz = 12;
	const int64_t cuts[][4] = { { 0, 8, 20, 44 }, { 0, 4, 8, 12 } };
	hyb_t_rng_t   r         = hyb_t_rng( 8 );
	double*       v         = malloc( sizeof( double ) * (size_t)( nx * ny * nz ) );
	for ( int64_t i = 0; i < nx * ny * nz; i++ ) v[i] = hyb_t_unit( &r );
	for ( unsigned dims = 2; dims <= 3; dims++ )
		for ( double rate = 1; rate <= 64; rate += 7 )
		{
			hyb_zfp_field_t full = dims == 2 ? hyb_zfp_field_2d( HYB_ZFP_DOUBLE, nx, ny )
			                                 : hyb_zfp_field_3d( HYB_ZFP_DOUBLE, nx, ny, nz );
			const size_t    fb   = hyb_zfp_stream_bytes( &full, rate );
			uint64_t*       fs   = malloc( fb + 8 );
			unsigned char*  cat  = malloc( fb + 8 );
			uint64_t*       part = malloc( fb + 8 );
			CU_ASSERT_EQUAL( hyb_zfp_host_encode( &full, rate, v, fs, fb ), HYB_OK );
			size_t off = 0;
			for ( int k = 0; k < 3; k++ )
			{
				const int64_t*  c     = cuts[dims - 2];
				hyb_zfp_field_t slab  = full;
				int64_t         first = c[k] * ( dims == 2 ? full.sy : full.sz );
				if ( dims == 2 )
					slab.ny = c[k + 1] - c[k];
				else
					slab.nz = c[k + 1] - c[k];
				size_t sb = hyb_zfp_stream_bytes( &slab, rate );
				CU_ASSERT_EQUAL( hyb_zfp_host_encode( &slab, rate, v + first, part, sb ), HYB_OK );
				memcpy( cat + off, part, sb );
				off += sb;
			}
			CU_ASSERT_EQUAL( off, fb );
			CU_ASSERT_EQUAL( memcmp( cat, fs, fb ), 0 );
			free( fs );
			free( cat );
			free( part );
		}
	free( v );
}

/* The codec writes exactly hyb_zfp_stream_bytes bytes (not up to the next
   word) and reads no more, on fields with one group and with many (the
   OpenMP loop), at rates whose streams end inside a word. */
static void test_exact_length( void )
{
	const int64_t shapes[][2] = { { 4, 4 }, { 9, 5 }, { 300, 301 } };
	const double  rates[]     = { 1, 2.25, 3, 7.0625, 13 };
	for ( int s = 0; s < 3; s++ )
		for ( int k = 0; k < 5; k++ )
		{
			hyb_zfp_field_t f     = hyb_zfp_field_2d( HYB_ZFP_FLOAT, shapes[s][0], shapes[s][1] );
			const size_t    n     = (size_t)( f.nx * f.ny );
			const size_t    bytes = hyb_zfp_stream_bytes( &f, rates[k] );
			const size_t    cap   = ( bytes + 8 + 7 ) / 8 * 8;
			float*          a     = malloc( n * sizeof *a );
			float*          b     = malloc( n * sizeof *b );
			unsigned char*  st    = malloc( cap );
			hyb_t_rng_t     r     = hyb_t_rng( 5 );
			for ( size_t i = 0; i < n; i++ ) a[i] = (float)hyb_t_unit( &r );
			memset( st, 0xa5, cap );
			CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, rates[k], a, st, bytes ), HYB_OK );
			int guard = 1;
			for ( size_t i = bytes; i < cap; i++ ) guard &= st[i] == 0xa5;
			CU_ASSERT( guard );
			/* the bits past the stream's last bit are zero padding */
			uint64_t bits = hyb_zfp_stream_bits( &f, rates[k] );
			if ( bits % 8 ) CU_ASSERT_EQUAL( st[bytes - 1] >> ( bits % 8 ), 0 );
			/* a decode that may read nothing beyond: the same result from a
			   buffer of exactly `bytes` bytes */
			unsigned char* exact = malloc( bytes );
			memcpy( exact, st, bytes );
			float* c = malloc( n * sizeof *c );
			if ( (uintptr_t)exact % 8 == 0 )
			{
				CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, rates[k], exact, bytes, c ), HYB_OK );
				CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, rates[k], st, bytes, b ), HYB_OK );
				CU_ASSERT_EQUAL( memcmp( b, c, n * sizeof *b ), 0 );
			}
			free( exact );
			free( c );
			free( a );
			free( b );
			free( st );
		}
}

/* Bad input returns HYB_E_INVALID and writes nothing; an empty field is
   coded as an empty stream. */
static void test_invalid( void )
{
	hyb_zfp_field_t f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 8, 8 );
	float           a[64], b[64], keep[64];
	uint64_t        s[20], keep_s[20];
	for ( int i = 0; i < 64; i++ ) a[i] = (float)i;
	memset( s, 0x3c, sizeof s );
	memcpy( keep_s, s, sizeof s );
	for ( int i = 0; i < 64; i++ ) b[i] = -7.0f;
	memcpy( keep, b, sizeof b );
	const size_t bytes = hyb_zfp_stream_bytes( &f, 8 );

	hyb_zfp_field_t bad = f;
	bad.nz              = 3;
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &bad, 8, a, s, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 0, a, s, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 33, a, s, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 8, a, s, bytes - 1 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 8, a, (char*)s + 1, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 8, NULL, s, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 8, a, NULL, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( NULL, 8, a, s, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( memcmp( s, keep_s, sizeof s ), 0 );

	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 8, a, s, bytes ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &bad, 8, s, bytes, b ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, 8, s, bytes - 1, b ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, -1, s, bytes, b ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, 8, NULL, bytes, b ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, 8, s, bytes, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( memcmp( b, keep, sizeof b ), 0 );

	/* empty: OK, nothing touched, NULL pointers allowed */
	hyb_zfp_field_t e = hyb_zfp_field_3d( HYB_ZFP_DOUBLE, 5, 0, 5 );
	memcpy( keep_s, s, sizeof s );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &e, 8, a, s, 0 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &e, 8, NULL, NULL, 0 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &e, 8, s, 0, b ), HYB_OK );
	CU_ASSERT_EQUAL( memcmp( s, keep_s, sizeof s ), 0 );
	CU_ASSERT_EQUAL( memcmp( b, keep, sizeof b ), 0 );
}

static CU_TestInfo hyb_zfp_host_tests[] = {
	{ "streams recorded from libzfp", test_recorded },
	{ "accuracy on smooth data", test_accuracy },
	{ "slabs coded in place", test_slabs },
	{ "slab streams concatenate", test_slab_concatenation },
	{ "exact stream length", test_exact_length },
	{ "bad input changes nothing", test_invalid },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_zfp_host = { "zfp_host", NULL, NULL, NULL, NULL, hyb_zfp_host_tests };
