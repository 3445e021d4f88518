/* SPDX-License-Identifier: BSD-3-Clause */
/* The host codec against libzfp bit for bit (streams and decoded values, on
   every test field at every test rate, strided fields, a field large enough
   for the OpenMP loop), the CPU codec over libzfp, and the recorded hashes
   against the libzfp of this machine. Without libzfp in the build: that the
   CPU codec says it is missing. */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyb_zfp_config.h"
#include "kernels/zfp/hyb_zfp_cpu.h"
#include "kernels/zfp/hyb_zfp_host.h"
#include "unit/hyb_test_util.h"
#include "unit/zfp/test_zfp_cases.h"

#if HYB_HAVE_LIBZFP
#include <zfp.h>

/* libzfp's own calls, independent of hyb_zfp_cpu.c: fixed-rate compress or
   decompress of `values` (field f) to or from `stream` (cap bytes). Returns
   the bytes libzfp reports, 0 on failure. */
static size_t tl_zfp( int compress, const hyb_zfp_field_t* f, double rate, void* values,
                      void* stream, size_t cap )
{
	zfp_type   t   = f->type == HYB_ZFP_FLOAT ? zfp_type_float : zfp_type_double;
	zfp_field* fld = f->dims == 2
	                     ? zfp_field_2d( values, t, (size_t)f->nx, (size_t)f->ny )
	                     : zfp_field_3d( values, t, (size_t)f->nx, (size_t)f->ny, (size_t)f->nz );
	if ( f->dims == 2 )
		zfp_field_set_stride_2d( fld, (ptrdiff_t)f->sx, (ptrdiff_t)f->sy );
	else
		zfp_field_set_stride_3d( fld, (ptrdiff_t)f->sx, (ptrdiff_t)f->sy, (ptrdiff_t)f->sz );
	zfp_stream* zs = zfp_stream_open( NULL );
	zfp_stream_set_rate( zs, rate, t, f->dims, zfp_false );
	bitstream* bs = stream_open( stream, cap );
	zfp_stream_set_bit_stream( zs, bs );
	size_t n = compress ? zfp_compress( zs, fld ) : zfp_decompress( zs, fld );
	stream_close( bs );
	zfp_stream_close( zs );
	zfp_field_free( fld );
	return n;
}

/* One field at one rate: host stream == libzfp stream (same length), host
   decode == libzfp decode, value for value. Returns 1 when all agree. */
static int tl_compare( const hyb_zfp_field_t* f, double rate, void* values, size_t nvalues )
{
	const size_t   es    = hyb_zfp_type_size( f->type );
	const size_t   bytes = hyb_zfp_stream_bytes( f, rate );
	const size_t   cap   = bytes + 64;
	unsigned char* zs    = calloc( cap, 1 );
	uint64_t*      hs    = calloc( cap / 8 + 1, 8 );
	unsigned char* zd    = malloc( nvalues * es );
	unsigned char* hd    = malloc( nvalues * es );
	/* decoded values land where the field is; start both from the same bytes */
	memcpy( zd, values, nvalues * es );
	memcpy( hd, values, nvalues * es );
	size_t zn = tl_zfp( 1, f, rate, values, zs, cap );
	int    ok = zn == bytes && hyb_zfp_host_encode( f, rate, values, hs, bytes ) == HYB_OK &&
	         memcmp( zs, hs, bytes ) == 0;
	if ( ok )
	{
		tl_zfp( 0, f, rate, zd, zs, cap );
		ok = hyb_zfp_host_decode( f, rate, hs, bytes, hd ) == HYB_OK &&
		     memcmp( zd, hd, nvalues * es ) == 0;
	}
	free( zs );
	free( hs );
	free( zd );
	free( hd );
	return ok;
}

/* Every test field at every test rate. */
static void test_all_cases( void )
{
	size_t fails = 0, runs = 0;
	for ( size_t i = 0; i < hyb_zc_count(); i++ )
	{
		hyb_zc_case_t c      = hyb_zc_get( i );
		size_t        n      = hyb_zc_values( &c );
		void*         values = malloc( n * hyb_zfp_type_size( c.f.type ) );
		hyb_zc_fill( &c, values );
		size_t        nr;
		const double* rates = hyb_zc_rates( c.f.type, &nr );
		for ( size_t r = 0; r < nr; r++, runs++ )
		{
			if ( tl_compare( &c.f, rates[r], values, n ) ) continue;
			if ( fails++ < 10 )
				printf( "\n  differs: %s %uD %lldx%lldx%lld %s rate %g",
				        c.f.type == HYB_ZFP_FLOAT ? "float" : "double", c.f.dims, (long long)c.f.nx,
				        (long long)c.f.ny, (long long)c.f.nz, hyb_zc_kind_name( c.kind ),
				        rates[r] );
		}
		free( values );
	}
	CU_ASSERT_EQUAL( fails, 0 );
	CU_ASSERT( runs > 10000 );
}

/* Fields of many groups (the OpenMP loop) and strided fields (a slab of a
   padded array, a field read backwards). */
static void test_large_and_strided( void )
{
	hyb_t_rng_t   r   = hyb_t_rng( 11 );
	const int64_t pad = 7;
	struct
	{
		hyb_zfp_type_t type;
		unsigned       dims;
		int64_t        nx, ny, nz;
		double         rate;
	} cases[] = { { HYB_ZFP_FLOAT, 2, 1000, 777, 1, 13 },
		          { HYB_ZFP_DOUBLE, 2, 333, 250, 1, 41 },
		          { HYB_ZFP_FLOAT, 3, 70, 50, 40, 7.0625 },
		          { HYB_ZFP_DOUBLE, 3, 41, 39, 37, 21 },
		          { HYB_ZFP_FLOAT, 2, 203, 117, 1, 16 } };
	for ( size_t k = 0; k < sizeof cases / sizeof cases[0]; k++ )
	{
		/* the field inside a padded parent: row pitch nx + pad */
		const int64_t  sy = cases[k].nx + pad, sz = sy * cases[k].ny;
		const size_t   n  = (size_t)( sz * cases[k].nz );
		const size_t   es = hyb_zfp_type_size( cases[k].type );
		unsigned char* v  = malloc( n * es );
		for ( size_t i = 0; i < n; i++ )
		{
			double x = hyb_t_unit( &r ) + 0.3 * sin( (double)i * 1e-3 );
			if ( cases[k].type == HYB_ZFP_FLOAT )
				( (float*)v )[i] = (float)x;
			else
				( (double*)v )[i] = x;
		}
		hyb_zfp_field_t f =
		    cases[k].dims == 2
		        ? hyb_zfp_field_2d( cases[k].type, cases[k].nx, cases[k].ny )
		        : hyb_zfp_field_3d( cases[k].type, cases[k].nx, cases[k].ny, cases[k].nz );
		f.sy = sy;
		f.sz = sz;
		CU_ASSERT( tl_compare( &f, cases[k].rate, v, n ) );
		/* backwards along y: libzfp takes the pointer to the field's first value */
		if ( cases[k].dims == 2 )
		{
			hyb_zfp_field_t b    = f;
			b.sy                 = -sy;
			unsigned char* last  = v + (size_t)( ( cases[k].ny - 1 ) * sy ) * es;
			const size_t   bytes = hyb_zfp_stream_bytes( &b, cases[k].rate );
			unsigned char* zs    = calloc( bytes + 64, 1 );
			uint64_t*      hs    = calloc( bytes / 8 + 9, 8 );
			CU_ASSERT_EQUAL( tl_zfp( 1, &b, cases[k].rate, last, zs, bytes + 64 ), bytes );
			CU_ASSERT_EQUAL( hyb_zfp_host_encode( &b, cases[k].rate, last, hs, bytes ), HYB_OK );
			CU_ASSERT_EQUAL( memcmp( zs, hs, bytes ), 0 );
			free( zs );
			free( hs );
		}
		free( v );
	}
}

/* Streams of random bits (garbage exponents, coefficients of any size, the
   transforms' wrap-around) decode to what libzfp decodes, bit for bit. */
static void test_random_streams( void )
{
	hyb_t_rng_t r     = hyb_t_rng( 2024 );
	size_t      fails = 0;
	for ( int trial = 0; trial < 400; trial++ )
	{
		hyb_zfp_type_t type = trial % 2 ? HYB_ZFP_DOUBLE : HYB_ZFP_FLOAT;
		unsigned       dims = trial % 4 < 2 ? 2 : 3;
		int64_t        nx = hyb_t_int( &r, 1, 13 ), ny = hyb_t_int( &r, 1, 11 ),
		        nz = hyb_t_int( &r, 1, 6 );
		hyb_zfp_field_t f =
		    dims == 2 ? hyb_zfp_field_2d( type, nx, ny ) : hyb_zfp_field_3d( type, nx, ny, nz );
		size_t         nr;
		const double*  rates = hyb_zc_rates( type, &nr );
		double         rate  = rates[hyb_t_below( &r, (int64_t)nr )];
		const size_t   bytes = hyb_zfp_stream_bytes( &f, rate );
		const size_t   vb    = (size_t)( f.nx * f.ny * f.nz ) * hyb_zfp_type_size( type );
		uint64_t*      st    = malloc( ( bytes + 64 ) / 8 * 8 );
		unsigned char* a     = calloc( vb, 1 );
		unsigned char* b     = calloc( vb, 1 );
		for ( size_t i = 0; i < ( bytes + 64 ) / 8; i++ ) st[i] = hyb_t_next( &r );
		tl_zfp( 0, &f, rate, a, st, bytes );
		int ok = hyb_zfp_host_decode( &f, rate, st, bytes, b ) == HYB_OK && memcmp( a, b, vb ) == 0;
		fails += !ok;
		free( st );
		free( a );
		free( b );
	}
	CU_ASSERT_EQUAL( fails, 0 );
}

/* Bits per block: ours against zfp_stream_set_rate's, for every test rate. */
static void test_block_bits( void )
{
	for ( int t = 0; t < 2; t++ )
		for ( unsigned d = 2; d <= 3; d++ )
		{
			hyb_zfp_type_t type = t ? HYB_ZFP_DOUBLE : HYB_ZFP_FLOAT;
			size_t         nr;
			const double*  rates = hyb_zc_rates( type, &nr );
			for ( size_t r = 0; r < nr; r++ )
			{
				zfp_stream* zs = zfp_stream_open( NULL );
				zfp_stream_set_rate( zs, rates[r], t ? zfp_type_double : zfp_type_float, d,
				                     zfp_false );
				unsigned maxbits = 0;
				zfp_stream_params( zs, NULL, &maxbits, NULL, NULL );
				zfp_stream_close( zs );
				CU_ASSERT_EQUAL( hyb_zfp_block_bits( d, type, rates[r] ), maxbits );
			}
		}
}

/* The CPU codec over libzfp gives the host codec's streams and values, on
   contiguous and strided fields, and refuses what the host codec refuses. */
static void test_cpu_codec( void )
{
	CU_ASSERT_EQUAL( hyb_zfp_cpu_available(), 1 );
	CU_ASSERT( strstr( hyb_zfp_cpu_version(), "1.0" ) != NULL );
	/* strided: a slab of rows [4, 12) of a 23 x 20 array with pitch 30 */
	float       parent[30 * 20], back[30 * 20];
	hyb_t_rng_t r = hyb_t_rng( 3 );
	for ( int i = 0; i < 600; i++ ) parent[i] = (float)hyb_t_unit( &r );
	hyb_zfp_field_t f = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 23, 8 );
	f.sy              = 30;
	uint64_t     s1[64], s2[64];
	const size_t bytes = hyb_zfp_stream_bytes( &f, 11 );
	CU_ASSERT_EQUAL( hyb_zfp_cpu_encode( &f, 11, parent + 4 * 30, s1, bytes ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_zfp_host_encode( &f, 11, parent + 4 * 30, s2, bytes ), HYB_OK );
	CU_ASSERT_EQUAL( memcmp( s1, s2, bytes ), 0 );
	memcpy( back, parent, sizeof back );
	CU_ASSERT_EQUAL( hyb_zfp_cpu_decode( &f, 11, s1, bytes, back + 4 * 30 ), HYB_OK );
	float back2[30 * 20];
	memcpy( back2, parent, sizeof back2 );
	CU_ASSERT_EQUAL( hyb_zfp_host_decode( &f, 11, s1, bytes, back2 + 4 * 30 ), HYB_OK );
	CU_ASSERT_EQUAL( memcmp( back, back2, sizeof back ), 0 );
	/* refusals write nothing */
	uint64_t keep[64];
	memset( s1, 0x77, sizeof s1 );
	memcpy( keep, s1, sizeof s1 );
	CU_ASSERT_EQUAL( hyb_zfp_cpu_encode( &f, 40, parent, s1, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_cpu_encode( &f, 11, parent, s1, bytes - 1 ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( hyb_zfp_cpu_encode( &f, 11, NULL, s1, bytes ), HYB_E_INVALID );
	CU_ASSERT_EQUAL( memcmp( s1, keep, sizeof s1 ), 0 );
}

/* The recorded hashes are what this machine's libzfp gives through the CPU
   codec (so the table the builds without libzfp rely on is right); a
   mismatch prints the entries to record. */
static void test_recorded_is_libzfp( void )
{
	CU_ASSERT_EQUAL( hyb_zc_golden_check( hyb_zfp_cpu_encode, hyb_zfp_cpu_decode ), 0 );
}

static CU_TestInfo hyb_zfp_libzfp_tests[] = {
	{ "every field and rate against libzfp", test_all_cases },
	{ "large and strided fields against libzfp", test_large_and_strided },
	{ "random streams decoded as libzfp does", test_random_streams },
	{ "bits per block against libzfp", test_block_bits },
	{ "CPU codec over libzfp", test_cpu_codec },
	{ "recorded hashes are libzfp's", test_recorded_is_libzfp },
	CU_TEST_INFO_NULL,
};

#else

/* Without libzfp the CPU codec is there and says so, writing nothing. */
static void test_cpu_codec_missing( void )
{
	CU_ASSERT_EQUAL( hyb_zfp_cpu_available(), 0 );
	CU_ASSERT_STRING_EQUAL( hyb_zfp_cpu_version(), "" );
	hyb_zfp_field_t f     = hyb_zfp_field_2d( HYB_ZFP_FLOAT, 4, 4 );
	float           a[16] = { 0 };
	uint64_t        s[4]  = { 1, 2, 3, 4 };
	CU_ASSERT_EQUAL( hyb_zfp_cpu_encode( &f, 8, a, s, sizeof s ), HYB_E_NOT_SUPPORTED );
	CU_ASSERT_EQUAL( hyb_zfp_cpu_decode( &f, 8, s, sizeof s, a ), HYB_E_NOT_SUPPORTED );
	CU_ASSERT_EQUAL( s[0], 1 );
	CU_ASSERT_EQUAL( s[3], 4 );
}

static CU_TestInfo hyb_zfp_libzfp_tests[] = {
	{ "CPU codec missing without libzfp", test_cpu_codec_missing },
	CU_TEST_INFO_NULL,
};

#endif

CU_SuiteInfo hyb_suite_zfp_libzfp = { "zfp_libzfp", NULL, NULL, NULL, NULL, hyb_zfp_libzfp_tests };
