/* SPDX-License-Identifier: BSD-3-Clause */
/* The fixed-rate ZFP block codec as inline functions for the host (C) and the
   device (CUDA): one 4x4 or 4x4x4 block of float or double values to and from
   exactly maxbits bits of the stream, as libzfp 1.0.0 codes it in fixed-rate
   mode (written from the published algorithm, checked bit for bit against
   libzfp by the tests). The steps, for a block of 4^d values:
     1. block floating point: the exponent emax of the largest magnitude is
        stored (EBITS bits, biased) after a 1 bit (a 0 bit alone marks a block
        whose values are all zero) and every value becomes the integer
        x 2^(P - 2 - emax), P = 32 (float) or 64 (double);
     2. a decorrelating lifting transform along x, then y, then z;
     3. the coefficients in order of sequency (total degree, then squared
        norm of the frequency, ties in the order libzfp's format fixes);
     4. negabinary, so the sign needs no bit of its own;
     5. bit planes from the most significant down: the bits of coefficients
        already significant verbatim, then group tests with unary run
        lengths for the rest, until the block's bits run out;
     6. zero bits up to maxbits.
   The arithmetic of step 1 is that of libzfp on x86-64 to the bit, including
   its limits (see docs/zfp.md): the scale factor is a power of two computed in
   the value's own precision, and a product outside the integer range (a
   non-finite value, or every value of a block whose largest magnitude is
   below 2^-97 in float or 2^-961 in double, where the scale overflows) becomes
   the most negative integer. Nothing here is undefined behaviour for any
   input bits, on the host or the device. */
#ifndef HYB_ZFP_BLOCK_H
#define HYB_ZFP_BLOCK_H

#include <stdint.h>
#include <string.h>

#include "hyb_zfp_bits.h"
#include "hyb_zfp_format.h"

/* Exponent bias and width of the stored exponent, integer precision. */
#define HYB_ZFP_EBITS_F 8
#define HYB_ZFP_EBIAS_F 127
#define HYB_ZFP_EBITS_D 11
#define HYB_ZFP_EBIAS_D 1023

/* The smallest bit plane libzfp's fixed-rate mode codes is 2^-1074 (the
   smallest double), which limits the planes of blocks with emax < -1016. */
#define HYB_ZFP_MIN_EXP ( -1074 )

/* Sequency order: the i-th coefficient coded is the one at position
   order(i) of the block (x + 4 y + 16 z). Coefficients go by total degree
   x + y + z, then by squared norm x^2 + y^2 + z^2, ties in the order libzfp's
   format fixes. As lists:
     2-D: 0 1 4 5 2 8 6 9 3 12 10 7 13 11 14 15
     3-D: 0 1 4 16 20 17 5 2 8 32 21 6 18 24 9 33 36 3 12 48 22 25 37 40 34 10 7
          19 28 13 49 52 41 38 26 23 29 53 11 35 44 14 50 56 42 27 39 45 30 54
          57 60 51 15 43 46 58 61 55 31 62 59 47 63
   packed into integer constants (4 bits per entry in 2-D, 6 bits and ten
   entries per word in 3-D) so that an unrolled loop folds them: a table in
   memory would make the block an indexed array, out of registers. */
HYB_ZFP_FN unsigned hyb_zfp_order2( unsigned i )
{
	return (unsigned)( 0xfebd7ac396825410ull >> ( 4u * i ) ) & 15u;
}

HYB_ZFP_FN unsigned hyb_zfp_order3( unsigned i )
{
	const uint64_t w = i < 10   ? 0x808085454404040ull
	                   : i < 20 ? 0xc0c0e4849612195ull
	                   : i < 30 ? 0x35c4c72a2a25656ull
	                   : i < 40 ? 0x8cbd5d5da9a9d31ull
	                   : i < 50 ? 0xd9eb676eae323acull
	                   : i < 60 ? 0x7f7f7abab3f3f39ull
	                            : 0xfefefeull;
	return (unsigned)( w >> ( 6u * ( i % 10u ) ) ) & 63u;
}

HYB_ZFP_FN unsigned hyb_zfp_order( unsigned dims, unsigned i )
{
	return dims == 2 ? hyb_zfp_order2( i ) : hyb_zfp_order3( i );
}

/* The bits of a float or a double and back, without aliasing through
   pointers: the device's reinterpreting intrinsic, memcpy on the host. */
#ifdef __CUDA_ARCH__
#define HYB_ZFP_BIT_CAST( name, To, From, intrinsic )                                              \
	HYB_ZFP_FN To name( From x )                                                                   \
	{                                                                                              \
		return (To)intrinsic( x );                                                                 \
	}
#else
#define HYB_ZFP_BIT_CAST( name, To, From, intrinsic )                                              \
	HYB_ZFP_FN To name( From x )                                                                   \
	{                                                                                              \
		To u;                                                                                      \
		memcpy( &u, &x, sizeof u );                                                                \
		return u;                                                                                  \
	}
#endif

HYB_ZFP_BIT_CAST( hyb_zfp_bits_f, uint32_t, float, __float_as_uint )
HYB_ZFP_BIT_CAST( hyb_zfp_bits_d, uint64_t, double, __double_as_longlong )
HYB_ZFP_BIT_CAST( hyb_zfp_from_bits_f, float, uint32_t, __uint_as_float )
HYB_ZFP_BIT_CAST( hyb_zfp_from_bits_d, double, uint64_t, __longlong_as_double )

#undef HYB_ZFP_BIT_CAST

/* The scale factor 2^e rounded to the type (infinity above its range, a
   subnormal or zero below), built from bits so that host and device agree. */
HYB_ZFP_FN float hyb_zfp_pow2_f( int e )
{
	if ( e > 127 ) return hyb_zfp_from_bits_f( 0x7f800000u );
	if ( e >= -126 ) return hyb_zfp_from_bits_f( (uint32_t)( e + 127 ) << 23 );
	if ( e >= -149 ) return hyb_zfp_from_bits_f( (uint32_t)1 << ( e + 149 ) );
	return 0.0f;
}

HYB_ZFP_FN double hyb_zfp_pow2_d( int e )
{
	if ( e > 1023 ) return hyb_zfp_from_bits_d( 0x7ff0000000000000ull );
	if ( e >= -1022 ) return hyb_zfp_from_bits_d( (uint64_t)( e + 1023 ) << 52 );
	if ( e >= -1074 ) return hyb_zfp_from_bits_d( (uint64_t)1 << ( e + 1074 ) );
	return 0.0;
}

/* How many bit planes a block with exponent emax codes: all P of them, but
   none below 2^HYB_ZFP_MIN_EXP (libzfp's fixed-rate minimum exponent). */
HYB_ZFP_FN unsigned hyb_zfp_planes( unsigned prec, int emax, unsigned dims )
{
	int p = emax - HYB_ZFP_MIN_EXP + 2 * ( (int)dims + 1 );
	if ( p < 0 ) p = 0;
	return (unsigned)p < prec ? (unsigned)p : prec;
}

/* Where block b of a field lies: the element offset of its first value and
   how many of its values along each axis are inside the field (1..4).
   `dims` is f->dims, passed apart so that a caller with a constant lets the
   compiler drop the other case. */
typedef struct
{
	int64_t  offset;
	unsigned nx, ny, nz;
} hyb_zfp_loc_t;

HYB_ZFP_FN unsigned hyb_zfp_extent( int64_t n, uint64_t block )
{
	int64_t left = n - (int64_t)( 4u * block );
	return left < 4 ? (unsigned)left : 4u;
}

HYB_ZFP_FN hyb_zfp_loc_t hyb_zfp_locate( const hyb_zfp_field_t* f, unsigned dims, uint64_t b )
{
	const uint64_t bnx = ( (uint64_t)f->nx + 3u ) / 4u;
	const uint64_t bny = ( (uint64_t)f->ny + 3u ) / 4u;
	uint64_t       bx, by, bz;
	if ( b <= 0xffffffffu && bnx <= 0xffffffffu && bny <= 0xffffffffu )
	{
		/* 32-bit division where it suffices: several times cheaper on a GPU */
		const uint32_t b32 = (uint32_t)b, nx32 = (uint32_t)bnx, ny32 = (uint32_t)bny;
		const uint32_t rest = b32 / nx32;
		bx                  = b32 - rest * nx32;
		by                  = rest % ny32;
		bz                  = rest / ny32;
	}
	else
	{
		const uint64_t rest = b / bnx;
		bx                  = b - rest * bnx;
		by                  = rest % bny;
		bz                  = rest / bny;
	}
	hyb_zfp_loc_t loc;
	loc.offset = 4 * ( (int64_t)bx * f->sx + (int64_t)by * f->sy );
	loc.nx     = hyb_zfp_extent( f->nx, bx );
	loc.ny     = hyb_zfp_extent( f->ny, by );
	loc.nz     = 1;
	if ( dims == 3 )
	{
		loc.offset += 4 * (int64_t)bz * f->sz;
		loc.nz = hyb_zfp_extent( f->nz, bz );
	}
	return loc;
}

/* Value i of a block (i = x + 4 y + 16 z): whether it lies inside the field
   (its block at loc), and its element offset from the block's first value. */
HYB_ZFP_FN int hyb_zfp_in_field( hyb_zfp_loc_t loc, unsigned i )
{
	return i % 4u < loc.nx && i / 4u % 4u < loc.ny && i / 16u < loc.nz;
}

HYB_ZFP_FN int64_t hyb_zfp_value_offset( const hyb_zfp_field_t* f, unsigned dims, unsigned i )
{
	return (int64_t)( i % 4u ) * f->sx + (int64_t)( i / 4u % 4u ) * f->sy +
	       ( dims == 2 ? 0 : (int64_t)( i / 16u ) * f->sz );
}

/* ----------------------------------------------------------------- float */
#define HYB_ZFP_SFX       _f
#define HYB_ZFP_SCALAR    float
#define HYB_ZFP_INT       int32_t
#define HYB_ZFP_UINT      uint32_t
#define HYB_ZFP_PREC      32
#define HYB_ZFP_EBITS     HYB_ZFP_EBITS_F
#define HYB_ZFP_EBIAS     HYB_ZFP_EBIAS_F
#define HYB_ZFP_NBMASK    0xaaaaaaaau
#define HYB_ZFP_FRAC_BITS 23
#define HYB_ZFP_EXP_MASK  0xffu
#define HYB_ZFP_INT_LIMIT 2147483648.0f
#include "hyb_zfp_block_tmpl.h"

/* ---------------------------------------------------------------- double */
#define HYB_ZFP_SFX       _d
#define HYB_ZFP_SCALAR    double
#define HYB_ZFP_INT       int64_t
#define HYB_ZFP_UINT      uint64_t
#define HYB_ZFP_PREC      64
#define HYB_ZFP_EBITS     HYB_ZFP_EBITS_D
#define HYB_ZFP_EBIAS     HYB_ZFP_EBIAS_D
#define HYB_ZFP_NBMASK    0xaaaaaaaaaaaaaaaaull
#define HYB_ZFP_FRAC_BITS 52
#define HYB_ZFP_EXP_MASK  0x7ffu
#define HYB_ZFP_INT_LIMIT 9223372036854775808.0
#include "hyb_zfp_block_tmpl.h"

#endif
