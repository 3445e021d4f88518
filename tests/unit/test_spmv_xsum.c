/* SPDX-License-Identifier: BSD-3-Clause */
/* The fingerprints that prove a registered x (kernels/spmv/hyb_spmv_xsum.h): the host's
   implementation against the definition written out word by word here, at every length
   class and alignment; and what they must notice: any changed bit, words exchanged within a
   lane and across lanes, and the pattern a linear sum misses (the sign bits of two doubles). */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_test_util.h"
#include "kernels/spmv/hyb_spmv_xsum.h"

/* The definition, one word at a time (no lane grouping, bytes assembled one by one). */
static uint64_t txs_reference( const unsigned char* b, size_t n )
{
	uint64_t acc[HYB_SPMV_XSUM_LANES];
	for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ ) acc[l] = (uint64_t)( l + 1 ) * HYB_SPMV_XSUM_K3;
	for ( size_t i = 0; i * 8 < n; i++ )
	{
		uint64_t w = 0;
		for ( size_t k = 0; k < 8 && i * 8 + k < n; k++ ) w |= (uint64_t)b[i * 8 + k] << ( 8 * k );
		uint64_t a                   = acc[i % HYB_SPMV_XSUM_LANES] + w * HYB_SPMV_XSUM_K2;
		a                            = ( a << 31 ) | ( a >> 33 );
		acc[i % HYB_SPMV_XSUM_LANES] = a * HYB_SPMV_XSUM_K1;
	}
	uint64_t h = 0;
	for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ )
	{
		uint64_t v = acc[l];
		v ^= v >> 33;
		v *= HYB_SPMV_XSUM_K2;
		v ^= v >> 29;
		v *= HYB_SPMV_XSUM_K3;
		v ^= v >> 32;
		h += v;
	}
	return h;
}

static unsigned char* txs_bytes( hyb_t_rng_t* r, size_t n )
{
	unsigned char* b = malloc( n + 8 );
	for ( size_t i = 0; i < n + 8; i++ ) b[i] = (unsigned char)hyb_t_next( r );
	return b;
}

static void test_matches_definition( void )
{
	hyb_t_rng_t  r       = hyb_t_rng( 71 );
	const size_t sizes[] = { 1, 4, 7, 8, 9, 255, 256, 257, 260, 8 * 32 * 5 + 4, 65532, 65536 };
	for ( size_t s = 0; s < sizeof sizes / sizeof *sizes; s++ )
		for ( int off = 0; off < 8; off += 4 ) /* a float vector may start at any 4 bytes */
		{
			unsigned char* b = txs_bytes( &r, sizes[s] );
			CU_ASSERT_EQUAL( hyb_spmv_xsum_piece( b + off, sizes[s] ),
			                 txs_reference( b + off, sizes[s] ) );
			free( b );
		}
	/* a vector of several pieces, the last one short */
	const size_t   n = 3 * HYB_SPMV_XSUM_PIECE + 1236;
	unsigned char* b = txs_bytes( &r, n );
	CU_ASSERT_EQUAL( hyb_spmv_xsum_pieces( n ), 4 );
	for ( int64_t j = 0; j < 4; j++ )
	{
		size_t a = (size_t)j * HYB_SPMV_XSUM_PIECE, len = j < 3 ? HYB_SPMV_XSUM_PIECE : 1236;
		CU_ASSERT_EQUAL( hyb_spmv_xsum_of( b, n, j ), txs_reference( b + a, len ) );
	}
	/* bytes past the end count for nothing */
	uint64_t h = hyb_spmv_xsum_of( b, n, 3 );
	b[n] ^= 1;
	CU_ASSERT_EQUAL( hyb_spmv_xsum_of( b, n, 3 ), h );
	free( b );
}

static void test_notices_changes( void )
{
	hyb_t_rng_t    r = hyb_t_rng( 72 );
	const size_t   n = HYB_SPMV_XSUM_PIECE;
	unsigned char* b = txs_bytes( &r, n );
	const uint64_t h = hyb_spmv_xsum_piece( b, n );
	/* every single changed bit, at 2000 random places */
	for ( int t = 0; t < 2000; t++ )
	{
		size_t i   = (size_t)hyb_t_below( &r, (int64_t)n );
		int    bit = (int)hyb_t_below( &r, 8 );
		b[i] ^= (unsigned char)( 1u << bit );
		CU_ASSERT_NOT_EQUAL( hyb_spmv_xsum_piece( b, n ), h );
		b[i] ^= (unsigned char)( 1u << bit );
	}
	CU_ASSERT_EQUAL( hyb_spmv_xsum_piece( b, n ), h );
	/* the sign bits of two doubles (a linear sum with odd weights misses this) */
	for ( int t = 0; t < 200; t++ )
	{
		size_t i = (size_t)hyb_t_below( &r, (int64_t)( n / 8 ) ),
		       j = (size_t)hyb_t_below( &r, (int64_t)( n / 8 ) );
		if ( i == j ) continue;
		b[i * 8 + 7] ^= 0x80;
		b[j * 8 + 7] ^= 0x80;
		CU_ASSERT_NOT_EQUAL( hyb_spmv_xsum_piece( b, n ), h );
		b[i * 8 + 7] ^= 0x80;
		b[j * 8 + 7] ^= 0x80;
	}
	/* two different words exchanged, in one lane (order) and across lanes (lane seeds) */
	for ( size_t gap = HYB_SPMV_XSUM_LANES; gap >= 1; gap = gap == HYB_SPMV_XSUM_LANES ? 1 : 0 )
	{
		unsigned char t[8];
		memcpy( t, b + 40 * 8, 8 );
		memcpy( b + 40 * 8, b + ( 40 + gap ) * 8, 8 );
		memcpy( b + ( 40 + gap ) * 8, t, 8 );
		CU_ASSERT_NOT_EQUAL( hyb_spmv_xsum_piece( b, n ), h );
		memcpy( b + ( 40 + gap ) * 8, b + 40 * 8, 8 );
		memcpy( b + 40 * 8, t, 8 );
		CU_ASSERT_EQUAL( hyb_spmv_xsum_piece( b, n ), h );
	}
	free( b );
}

static CU_TestInfo hyb_tests_spmv_xsum[] = {
	{ "matches_definition", test_matches_definition },
	{ "notices_changes", test_notices_changes },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_spmv_xsum = { "spmv_xsum", NULL, NULL, NULL, NULL, hyb_tests_spmv_xsum };
