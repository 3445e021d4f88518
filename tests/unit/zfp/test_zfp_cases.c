/* SPDX-License-Identifier: BSD-3-Clause */
/* The ZFP test fields (test_zfp_cases.h). */
#include "test_zfp_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/hyb_test_util.h"

/* Shapes: whole blocks, one value, partial blocks along each axis and all at
   once, long thin fields. */
static const int64_t hyb_zc_shapes2[][2] = { { 4, 4 },  { 16, 16 }, { 5, 7 }, { 1, 1 },
	                                         { 13, 9 }, { 64, 3 },  { 3, 65 } };
static const int64_t hyb_zc_shapes3[][3] = { { 4, 4, 4 }, { 8, 8, 8 },  { 5, 7, 3 },
	                                         { 1, 1, 1 }, { 13, 9, 6 }, { 3, 17, 2 } };
#define HYB_ZC_N2       ( sizeof hyb_zc_shapes2 / sizeof hyb_zc_shapes2[0] )
#define HYB_ZC_N3       ( sizeof hyb_zc_shapes3 / sizeof hyb_zc_shapes3[0] )
#define HYB_ZC_PER_TYPE ( ( HYB_ZC_N2 + HYB_ZC_N3 ) * HYB_ZC_KINDS )

size_t hyb_zc_count( void )
{
	return 2 * HYB_ZC_PER_TYPE;
}

hyb_zc_case_t hyb_zc_get( size_t i )
{
	hyb_zc_case_t  c;
	hyb_zfp_type_t type  = i < HYB_ZC_PER_TYPE ? HYB_ZFP_FLOAT : HYB_ZFP_DOUBLE;
	size_t         j     = i % HYB_ZC_PER_TYPE;
	size_t         shape = j / HYB_ZC_KINDS;
	c.kind               = (hyb_zc_kind_t)( j % HYB_ZC_KINDS );
	if ( shape < HYB_ZC_N2 )
		c.f = hyb_zfp_field_2d( type, hyb_zc_shapes2[shape][0], hyb_zc_shapes2[shape][1] );
	else
	{
		const int64_t* s = hyb_zc_shapes3[shape - HYB_ZC_N2];
		c.f              = hyb_zfp_field_3d( type, s[0], s[1], s[2] );
	}
	return c;
}

size_t hyb_zc_values( const hyb_zc_case_t* c )
{
	return (size_t)c->f.nx * (size_t)c->f.ny * (size_t)c->f.nz;
}

static double hyb_zc_value( const hyb_zc_case_t* c, hyb_t_rng_t* r, int64_t x, int64_t y,
                            int64_t z )
{
	const int dbl = c->f.type == HYB_ZFP_DOUBLE;
	double    u   = hyb_t_unit( r );
	switch ( c->kind )
	{
	case HYB_ZC_SMOOTH:
		/* a polynomial: exact IEEE arithmetic, the same bits on every machine
		   (a libm's sin may differ in the last bit, and the hashes with it) */
		return 0.002 * (double)( x * x ) - 0.013 * (double)( x * y ) + 0.3 * (double)y -
		       0.05 * (double)z - 1.0;
	case HYB_ZC_RANDOM:
		return u;
	case HYB_ZC_CONSTANT:
		return 3.25;
	case HYB_ZC_ZEROS:
		return 0.0;
	case HYB_ZC_SPARSE:
		return ( x / 4 + y / 4 + z / 4 ) % 2 == 0 ? 0.0 : u;
	case HYB_ZC_EXPONENTS:
		return ldexp( u, (int)hyb_t_int( r, -30, 29 ) );
	case HYB_ZC_HUGE:
		return u * ( dbl ? 1.7e308 : 3.4e38 );
	case HYB_ZC_LIMIT:
		return ldexp( u, ( dbl ? -961 : -97 ) + (int)hyb_t_int( r, -2, 1 ) );
	case HYB_ZC_PLANES:
		return ldexp( u, dbl ? -1016 - (int)hyb_t_int( r, 0, 6 ) : -90 );
	case HYB_ZC_SUBNORMAL:
		return u * ( dbl ? 0x1p-1030 : 0x1p-130 );
	case HYB_ZC_NAN:
		return hyb_t_below( r, 7 ) == 0 ? NAN : u;
	case HYB_ZC_INF:
		return hyb_t_below( r, 9 ) == 0 ? ( u < 0 ? -INFINITY : INFINITY ) : 100 * u;
	default:
		return 0.0; /* HYB_ZC_BITS: set from raw bits by the caller */
	}
}

void hyb_zc_fill( const hyb_zc_case_t* c, void* values )
{
	hyb_t_rng_t r   = hyb_t_rng( 1000u + (uint64_t)c->kind );
	const int   dbl = c->f.type == HYB_ZFP_DOUBLE;
	size_t      i   = 0;
	for ( int64_t z = 0; z < c->f.nz; z++ )
		for ( int64_t y = 0; y < c->f.ny; y++ )
			for ( int64_t x = 0; x < c->f.nx; x++, i++ )
			{
				if ( c->kind == HYB_ZC_BITS )
				{
					uint64_t bits = hyb_t_next( &r );
					if ( dbl )
						memcpy( (double*)values + i, &bits, sizeof( double ) );
					else
					{
						uint32_t low = (uint32_t)bits;
						memcpy( (float*)values + i, &low, sizeof( float ) );
					}
					continue;
				}
				double v = hyb_zc_value( c, &r, x, y, z );
				if ( dbl )
					( (double*)values )[i] = v;
				else
					( (float*)values )[i] = (float)v;
			}
}

/* Every integer rate up to the type's precision, fractions (block sizes
   that are not whole bytes), and 0.25, below the smallest block (which the
   rate rounds up to the block header). */
static const double hyb_zc_rates_f[] = { 0.25, 0.5625, 1.5, 2.25, 7.0625, 1,  2,  3,  4,  5,
	                                     6,    7,      8,   9,    10,     11, 12, 13, 14, 15,
	                                     16,   17,     18,  19,   20,     21, 22, 23, 24, 25,
	                                     26,   27,     28,  29,   30,     31, 32 };
static const double hyb_zc_rates_d[] = { 0.25, 0.75, 1.5, 2.25, 13.0625, 1,  2,  3,  4,  5,  6,  7,
	                                     8,    9,    10,  11,   12,      13, 14, 15, 16, 17, 18, 19,
	                                     20,   21,   22,  23,   24,      25, 26, 27, 28, 29, 30, 31,
	                                     32,   33,   34,  35,   36,      37, 38, 39, 40, 41, 42, 43,
	                                     44,   45,   46,  47,   48,      49, 50, 51, 52, 53, 54, 55,
	                                     56,   57,   58,  59,   60,      61, 62, 63, 64 };
static const double hyb_zc_gold_f[]  = { 1, 7, 16, 32 };
static const double hyb_zc_gold_d[]  = { 1, 13, 32, 64 };

const double* hyb_zc_rates( hyb_zfp_type_t type, size_t* n )
{
	if ( type == HYB_ZFP_FLOAT )
	{
		*n = sizeof hyb_zc_rates_f / sizeof hyb_zc_rates_f[0];
		return hyb_zc_rates_f;
	}
	*n = sizeof hyb_zc_rates_d / sizeof hyb_zc_rates_d[0];
	return hyb_zc_rates_d;
}

const double* hyb_zc_golden_rates( hyb_zfp_type_t type, size_t* n )
{
	*n = 4;
	return type == HYB_ZFP_FLOAT ? hyb_zc_gold_f : hyb_zc_gold_d;
}

const char* hyb_zc_kind_name( hyb_zc_kind_t kind )
{
	static const char* const names[HYB_ZC_KINDS] = { "smooth", "random",    "constant", "zeros",
		                                             "sparse", "exponents", "huge",     "limit",
		                                             "planes", "subnormal", "nan",      "inf",
		                                             "bits" };
	return (unsigned)kind < HYB_ZC_KINDS ? names[kind] : "?";
}

uint64_t hyb_zc_hash( uint64_t h, const void* bytes, size_t n )
{
	const unsigned char* p = (const unsigned char*)bytes;
	for ( size_t i = 0; i < n; i++ ) h = ( h ^ p[i] ) * 0x100000001b3ull;
	return h;
}

/* One case at one rate into the hash; 0 on failure. */
static int hyb_zc_golden_one( const hyb_zc_case_t* c, double rate, hyb_zc_encode_fn enc,
                              hyb_zc_decode_fn dec, uint64_t* h )
{
	const size_t bytes  = hyb_zfp_stream_bytes( &c->f, rate );
	const size_t vbytes = hyb_zc_values( c ) * hyb_zfp_type_size( c->f.type );
	void*        values = malloc( vbytes );
	void*        out    = malloc( vbytes );
	uint64_t*    stream = malloc( ( bytes + 7 ) / 8 * 8 );
	int          ok     = values && out && stream;
	if ( ok )
	{
		hyb_zc_fill( c, values );
		ok = enc( &c->f, rate, values, stream, bytes ) == HYB_OK &&
		     dec( &c->f, rate, stream, bytes, out ) == HYB_OK;
	}
	if ( ok )
	{
		*h = hyb_zc_hash( *h, stream, bytes );
		*h = hyb_zc_hash( *h, out, vbytes );
	}
	free( values );
	free( out );
	free( stream );
	return ok;
}

uint64_t hyb_zc_golden( hyb_zfp_type_t type, unsigned dims, hyb_zc_kind_t kind,
                        hyb_zc_encode_fn enc, hyb_zc_decode_fn dec )
{
	uint64_t      h = HYB_ZC_HASH0;
	size_t        nr;
	const double* rates = hyb_zc_golden_rates( type, &nr );
	for ( size_t i = 0; i < hyb_zc_count(); i++ )
	{
		hyb_zc_case_t c = hyb_zc_get( i );
		if ( c.f.type != type || c.f.dims != dims || c.kind != kind ) continue;
		for ( size_t r = 0; r < nr; r++ )
			if ( !hyb_zc_golden_one( &c, rates[r], enc, dec, &h ) ) return 0;
	}
	return h;
}

/* hyb_zc_golden of libzfp, by type (float, double), dims (2, 3) and kind
   (smooth random constant zeros sparse exponents huge limit planes subnormal
   nan inf bits). */
// clang-format off
static const uint64_t hyb_zc_recorded[2][2][HYB_ZC_KINDS] = {
	{
		{
			0x129b4d9426d72058ull, 0x30d5443a5854ff7bull, 0x11bc0e0db78d46edull, 0x60c14618a90da465ull,
			0x039a089563128d50ull, 0x44b6bf1a53944318ull, 0x70866fe7cf18205aull, 0x9e9b54bf951fac1cull,
			0x7519b212a21af8dbull, 0x7028a1a3d998badcull, 0x0a7a65db4133ccf4ull, 0xfcca4ec003009621ull,
			0x85f08bf857c6ff35ull
		},
		{
			0xb4dc59af0c557e74ull, 0xdcf307b91f07234dull, 0xfba25d7872018bc5ull, 0xd03bdde03a2415a5ull,
			0x60ead1deb0f16152ull, 0x46af4946c2c86911ull, 0x2c7f2beaf81ee92bull, 0x7ce329080fc7ca5dull,
			0xe345d21d7eabda0cull, 0xdbcc58de0d0a8f2bull, 0x5d1e3e3813a6167eull, 0x053632da22a4b19eull,
			0x093d7ee91caf5439ull
		}
	},
	{
		{
			0xc09ccec4ef623675ull, 0x2467117ff34f8a47ull, 0x1d87383470427528ull, 0xe560b37d184db535ull,
			0x394df9e534bd1c86ull, 0x4c924607d6f744b8ull, 0x8c7e4e3b39a759feull, 0xd27dfcf9900a9ce9ull,
			0xd56109eb4759a549ull, 0x6bb17feb17528599ull, 0x8305537ccd049f46ull, 0x537b61e858485fddull,
			0x194bc34b7498852cull
		},
		{
			0x0995449a0226a3d3ull, 0xaae83c0261ef12afull, 0x1ff36239b05f4c45ull, 0xf710f8bb52db3265ull,
			0x7fe4692e5c699992ull, 0xbde55e7b3201e33cull, 0x95c2f94c607ca559ull, 0xe65adef8d257bb88ull,
			0xd69f097fe2327477ull, 0xcd014d8a277c4c77ull, 0xe6f43cc0e0946343ull, 0x4248bfe60da189a3ull,
			0x0ef9e80189c41140ull
		}
	}
};
// clang-format on

uint64_t hyb_zc_golden_recorded( hyb_zfp_type_t type, unsigned dims, hyb_zc_kind_t kind )
{
	return hyb_zc_recorded[type == HYB_ZFP_DOUBLE][dims == 3][kind];
}

size_t hyb_zc_golden_check( hyb_zc_encode_fn enc, hyb_zc_decode_fn dec )
{
	size_t bad = 0;
	for ( int t = 0; t < 2; t++ )
		for ( unsigned d = 2; d <= 3; d++ )
			for ( int k = 0; k < HYB_ZC_KINDS; k++ )
			{
				hyb_zfp_type_t type = t ? HYB_ZFP_DOUBLE : HYB_ZFP_FLOAT;
				uint64_t       h    = hyb_zc_golden( type, d, (hyb_zc_kind_t)k, enc, dec );
				if ( h == hyb_zc_golden_recorded( type, d, (hyb_zc_kind_t)k ) ) continue;
				if ( bad++ < 60 )
					printf( "\n  [%d][%d][HYB_ZC_%s] = 0x%016llxull", t, d == 3,
					        hyb_zc_kind_name( (hyb_zc_kind_t)k ), (unsigned long long)h );
			}
	return bad;
}
