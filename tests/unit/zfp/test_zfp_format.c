/* SPDX-License-Identifier: BSD-3-Clause */
/* The pieces of the ZFP format, one by one: bits per block and stream sizes
   for a rate, the checks of a field, the sequency order, the bit writer and
   reader on shared words, the scale factors. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "kernels/zfp/hyb_zfp_block.h"
#include "unit/hyb_test_util.h"

static void test_block_bits( void )
{
	/* floor(4^d rate + 1/2), never below the header (9 bits float, 12 double) */
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, 16 ), 256 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 3, HYB_ZFP_FLOAT, 16 ), 1024 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_DOUBLE, 64 ), 1024 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 3, HYB_ZFP_DOUBLE, 64 ), 4096 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, 1.5 ), 24 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, 0.53125 ), 9 ); /* 8.5 rounds up */
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, 0.25 ), 9 );    /* 4 -> header */
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_DOUBLE, 0.25 ), 12 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 3, HYB_ZFP_FLOAT, 0.25 ), 16 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, 32 ), 512 );
	/* outside the range: 0 */
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, 32.5 ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_DOUBLE, 64.5 ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, 0 ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, -1 ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, NAN ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, HYB_ZFP_FLOAT, INFINITY ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 1, HYB_ZFP_FLOAT, 8 ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 4, HYB_ZFP_FLOAT, 8 ), 0 );
	CU_ASSERT_EQUAL( hyb_zfp_block_bits( 2, (hyb_zfp_type_t)7, 8 ), 0 );
}

static void test_stream_bytes( void )
{
	/* 16384 x 16384 float at rate 16: half the bytes */
	hyb_zfp_field_t f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 16384, 16384 );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 16 ), (size_t)16384 * 16384 * 2 );
	/* partial blocks count whole: 5 x 7 is 2 x 2 blocks */
	f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 5, 7 );
	CU_ASSERT_EQUAL( hyb_zfp_block_count( &f ), 4 );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bits( &f, 1 ), 64 );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 1 ), 8 );
	/* bits rounded up to a byte, not to a word */
	f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 4, 4 );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 1 ), 2 );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 0.5625 ), 2 ); /* 9 bits */
	f = hyb_zfp_field_3d( HYB_ZFP_DOUBLE, 5, 7, 3 );
	CU_ASSERT_EQUAL( hyb_zfp_block_count( &f ), 2 * 2 * 1 );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 64 ), 4 * 4096 / 8 );
	/* empty fields: no blocks, no bytes */
	f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 0, 7 );
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 8 ), 0 );
	/* invalid: no bytes */
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 0 ), 0 );
}

static void test_check( void )
{
	hyb_zfp_field_t f = hyb_zfp_field_2d( HYB_ZFP_DOUBLE, 9, 9 );
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_check( NULL, 8 ), HYB_E_INVALID );
	f.nz = 2; /* 2-D with depth */
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_E_INVALID );
	f    = hyb_zfp_field_2d( HYB_ZFP_DOUBLE, 9, 9 );
	f.nx = -1;
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_E_INVALID );
	f    = hyb_zfp_field_2d( HYB_ZFP_DOUBLE, 9, 9 );
	f.sy = 0;
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_E_INVALID );
	f    = hyb_zfp_field_2d( HYB_ZFP_DOUBLE, 9, 9 );
	f.sy = -9; /* negative strides are fine */
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_OK );
	f      = hyb_zfp_field_2d( HYB_ZFP_DOUBLE, 9, 9 );
	f.dims = 4;
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_E_INVALID );
	f = hyb_zfp_field_3d( HYB_ZFP_FLOAT, 9, 9, 9 );
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_OK );
	f.sz = 0;
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 8 ), HYB_E_INVALID );
	/* a stream of 2^62 bits or more is refused, and the test cannot overflow */
	f = hyb_zfp_field_3d( HYB_ZFP_DOUBLE, (int64_t)1 << 40, (int64_t)1 << 40, (int64_t)1 << 40 );
	CU_ASSERT_EQUAL( hyb_zfp_check( &f, 64 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_stream_bytes( &f, 64 ), 0 );
	/* pointers and alignment */
	uint64_t words[4];
	f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 4, 4 );
	CU_ASSERT_EQUAL( hyb_zfp_check_call( &f, 8, words, words ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_check_call( &f, 8, NULL, words ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_check_call( &f, 8, words, NULL ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_check_call( &f, 8, words, (char*)words + 4 ), HYB_E_INVALID );
	f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 0, 4 );
	CU_ASSERT_EQUAL( hyb_zfp_check_call( &f, 8, NULL, NULL ), HYB_OK );
}

/* The order is a permutation, by total degree then squared norm, and the
   packed constants say what the lists in hyb_zfp_block.h say. */
static void test_order( void )
{
	static const unsigned o2[16] = { 0, 1, 4, 5, 2, 8, 6, 9, 3, 12, 10, 7, 13, 11, 14, 15 };
	static const unsigned o3[64] = {
		0,  1,  4,  16, 20, 17, 5,  2,  8,  32, 21, 6,  18, 24, 9,  33, 36, 3,  12, 48, 22, 25,
		37, 40, 34, 10, 7,  19, 28, 13, 49, 52, 41, 38, 26, 23, 29, 53, 11, 35, 44, 14, 50, 56,
		42, 27, 39, 45, 30, 54, 57, 60, 51, 15, 43, 46, 58, 61, 55, 31, 62, 59, 47, 63
	};
	unsigned seen[64];
	memset( seen, 0, sizeof seen );
	for ( unsigned i = 0; i < 16; i++ )
	{
		CU_ASSERT_EQUAL( hyb_zfp_order2( i ), o2[i] );
		CU_ASSERT_EQUAL( hyb_zfp_order( 2, i ), o2[i] );
		seen[o2[i]]++;
	}
	for ( unsigned i = 0; i < 16; i++ ) CU_ASSERT_EQUAL( seen[i], 1 );
	memset( seen, 0, sizeof seen );
	unsigned prev_deg = 0, prev_norm = 0;
	for ( unsigned i = 0; i < 64; i++ )
	{
		CU_ASSERT_EQUAL( hyb_zfp_order3( i ), o3[i] );
		unsigned x = o3[i] % 4, y = o3[i] / 4 % 4, z = o3[i] / 16;
		unsigned deg = x + y + z, norm = x * x + y * y + z * z;
		CU_ASSERT( deg > prev_deg || ( deg == prev_deg && norm >= prev_norm ) );
		prev_deg  = deg;
		prev_norm = norm;
		seen[o3[i]]++;
	}
	for ( unsigned i = 0; i < 64; i++ ) CU_ASSERT_EQUAL( seen[i], 1 );
}

/* Writers at arbitrary offsets, in any order, leave the stream a sequential
   writer would write; a reader gets the bits back from any offset. */
static void test_bits( void )
{
	hyb_t_rng_t r = hyb_t_rng( 7 );
	for ( int trial = 0; trial < 200; trial++ )
	{
		enum
		{
			NB   = 9,
			MAXW = 40
		};
		unsigned len  = 1 + (unsigned)hyb_t_below( &r, 300 );
		uint64_t bits = (uint64_t)NB * len;
		uint64_t ref[MAXW * 2], got[MAXW * 2];
		memset( ref, 0, sizeof ref );
		/* reference: bit by bit */
		uint64_t vals[NB][8];
		for ( unsigned b = 0; b < NB; b++ )
			for ( unsigned k = 0; k < 8; k++ ) vals[b][k] = hyb_t_next( &r );
		for ( uint64_t p = 0; p < bits; p++ )
		{
			unsigned b = (unsigned)( p / len ), k = (unsigned)( p % len );
			uint64_t bit = ( vals[b][k / 64] >> ( k % 64 ) ) & 1u;
			ref[p / 64] |= bit << ( p % 64 );
		}
		/* blocks written in reverse order, in pieces of random sizes; the
		   shared words of the neighbours already hold their bits */
		memset( got, 0, sizeof got );
		for ( unsigned b = NB; b-- > 0; )
		{
			hyb_zfp_bw_t bw = hyb_zfp_bw_at( got, (uint64_t)b * len );
			unsigned     k  = 0;
			while ( k < len )
			{
				unsigned n = (unsigned)hyb_t_int( &r, 0, 64 );
				if ( n > len - k ) n = len - k;
				if ( n > 64 - k % 64 && k % 64 != 0 ) n = 64 - k % 64; /* stay in one source word */
				uint64_t v = vals[b][k / 64] >> ( k % 64 );
				if ( n < 64 ) v &= ( (uint64_t)1 << n ) - 1u;
				if ( n == 1 )
					hyb_zfp_bw_put1( &bw, (unsigned)v );
				else
					hyb_zfp_bw_put( &bw, v, n );
				k += n;
			}
			hyb_zfp_bw_finish( &bw );
		}
		CU_ASSERT_EQUAL( memcmp( ref, got, sizeof ref ), 0 );
		/* read each block back from its offset */
		for ( unsigned b = 0; b < NB; b++ )
		{
			hyb_zfp_br_t br = hyb_zfp_br_at( ref, (uint64_t)b * len );
			unsigned     k  = 0;
			int          ok = 1;
			while ( k < len )
			{
				unsigned n = (unsigned)hyb_t_int( &r, 1, 64 );
				if ( n > len - k ) n = len - k;
				if ( n > 64 - k % 64 && k % 64 != 0 ) n = 64 - k % 64;
				uint64_t want = vals[b][k / 64] >> ( k % 64 );
				if ( n < 64 ) want &= ( (uint64_t)1 << n ) - 1u;
				uint64_t v = n == 1 ? hyb_zfp_br_get1( &br ) : hyb_zfp_br_get( &br, n );
				ok &= v == want;
				k += n;
			}
			CU_ASSERT( ok );
		}
	}
	/* padding: a skip stores zero words, so no clearing is needed when a
	   block owns its words */
	uint64_t     w[4] = { ~0ull, ~0ull, ~0ull, ~0ull };
	hyb_zfp_bw_t bw   = hyb_zfp_bw_at( w, 0 );
	hyb_zfp_bw_put( &bw, 5, 3 );
	hyb_zfp_bw_skip( &bw, 256 - 3 );
	hyb_zfp_bw_finish( &bw );
	CU_ASSERT_EQUAL( w[0], 5 );
	CU_ASSERT_EQUAL( w[1], 0 );
	CU_ASSERT_EQUAL( w[3], 0 );
}

/* Scale factors: exact powers of two, infinity above the range, subnormals
   and zero below (the rounding libzfp's float arithmetic has). */
static void test_pow2( void )
{
	for ( int e = -160; e <= 140; e++ ) CU_ASSERT_EQUAL( hyb_zfp_pow2_f( e ), ldexpf( 1.0f, e ) );
	for ( int e = -1100; e <= 1100; e++ ) CU_ASSERT_EQUAL( hyb_zfp_pow2_d( e ), ldexp( 1.0, e ) );
}

static CU_TestInfo hyb_zfp_format_tests[] = {
	{ "block bits from a rate", test_block_bits },
	{ "stream bytes", test_stream_bytes },
	{ "field checks", test_check },
	{ "sequency order", test_order },
	{ "bit writer and reader", test_bits },
	{ "scale factors", test_pow2 },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_zfp_format = { "zfp_format", NULL, NULL, NULL, NULL, hyb_zfp_format_tests };
