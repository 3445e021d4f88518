/* SPDX-License-Identifier: BSD-3-Clause */
/* The shape of a fixed-rate ZFP stream: the field it codes (type, 2-D or
   3-D, sizes, strides), bits per block for a rate and bytes of the stream,
   with the checks every entry point shares. Header-only, so that the CUDA
   plugin (which links nothing of the core) computes sizes the same way. */
#ifndef HYB_ZFP_FORMAT_H
#define HYB_ZFP_FORMAT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "hyb_status.h"

typedef enum
{
	HYB_ZFP_FLOAT  = 0,
	HYB_ZFP_DOUBLE = 1
} hyb_zfp_type_t;

/* A field as the codec sees it: value (x, y, z) is at element
   x sx + y sy + z sz from the first one, x in [0, nx) and so on. For 2-D, nz
   is 1 and sz is not used. Strides are in values, may be negative or leave
   gaps (a slab of a larger array: rows [y0, y1) of a 2-D field are the field
   at row y0 with ny = y1 - y0 and the parent's strides), but not be 0. A
   size of 0 is an empty field: no blocks, an empty stream. */
typedef struct
{
	hyb_zfp_type_t type;
	unsigned       dims; /* 2 or 3 */
	int64_t        nx, ny, nz;
	int64_t        sx, sy, sz;
} hyb_zfp_field_t;

/* The largest stream the codec agrees to code, in bits: far beyond any
   device or host memory, and small enough that every offset fits. */
#define HYB_ZFP_MAX_STREAM_BITS ( (uint64_t)1 << 62 )

/* A contiguous field, x fastest (the layout of a C array a[nz][ny][nx]);
   an empty one, or one too large for its plane stride (which hyb_zfp_check
   refuses), keeps strides of 1. */
static inline hyb_zfp_field_t hyb_zfp_field_3d( hyb_zfp_type_t type, int64_t nx, int64_t ny,
                                                int64_t nz )
{
	const int64_t   sy = nx > 0 ? nx : 1;
	const int64_t   sz = nx > 0 && ny > 0 && nx <= INT64_MAX / ny ? nx * ny : 1;
	hyb_zfp_field_t f  = { type, 3, nx, ny, nz, 1, sy, sz };
	return f;
}

static inline hyb_zfp_field_t hyb_zfp_field_2d( hyb_zfp_type_t type, int64_t nx, int64_t ny )
{
	hyb_zfp_field_t f = hyb_zfp_field_3d( type, nx, ny, 1 );
	f.dims            = 2;
	return f;
}

/* Bytes of one value of the field's type. */
static inline size_t hyb_zfp_type_size( hyb_zfp_type_t type )
{
	return type == HYB_ZFP_DOUBLE ? sizeof( double ) : sizeof( float );
}

/* Bits of one block at `rate` bits per value, as libzfp's fixed-rate mode
   computes them without word alignment: floor(4^dims rate + 1/2), and at
   least the 1 + EBITS bits of a block header. Rates must lie in
   (0, 32] for float and (0, 64] for double (more bits than the values have
   buy nothing); 0 for a rate, type or dims outside that. */
static inline unsigned hyb_zfp_block_bits( unsigned dims, hyb_zfp_type_t type, double rate )
{
	if ( dims != 2 && dims != 3 ) return 0;
	if ( type != HYB_ZFP_FLOAT && type != HYB_ZFP_DOUBLE ) return 0;
	const double top = type == HYB_ZFP_FLOAT ? 32.0 : 64.0;
	if ( !( rate > 0.0 ) || !( rate <= top ) ) return 0;
	const double values = dims == 2 ? 16.0 : 64.0;
	unsigned     bits   = (unsigned)floor( values * rate + 0.5 );
	unsigned     least  = type == HYB_ZFP_FLOAT ? 1u + 8u : 1u + 11u;
	return bits < least ? least : bits;
}

/* Blocks along one axis of n values. */
static inline uint64_t hyb_zfp_blocks_along( int64_t n )
{
	return n > 0 ? ( (uint64_t)n + 3u ) / 4u : 0;
}

/* Blocks of the field (x fastest, then y, then z: the stream's order). */
static inline uint64_t hyb_zfp_block_count( const hyb_zfp_field_t* f )
{
	uint64_t b = hyb_zfp_blocks_along( f->nx ) * hyb_zfp_blocks_along( f->ny );
	return f->dims == 3 ? b * hyb_zfp_blocks_along( f->nz ) : b;
}

/* HYB_OK when the field and rate can be coded: dims 2 or 3, a known type,
   sizes >= 0 (nz = 1 for 2-D), nonzero strides (libzfp reads a zero stride
   as "contiguous"), a valid rate and a stream below HYB_ZFP_MAX_STREAM_BITS;
   HYB_E_INVALID otherwise. What memory the strides address is the caller's
   to own. */
static inline hyb_status_t hyb_zfp_check( const hyb_zfp_field_t* f, double rate )
{
	if ( !f ) return HYB_E_INVALID;
	if ( hyb_zfp_block_bits( f->dims, f->type, rate ) == 0 ) return HYB_E_INVALID;
	if ( f->nx < 0 || f->ny < 0 || f->nz < 0 ) return HYB_E_INVALID;
	if ( f->dims == 2 && f->nz != 1 ) return HYB_E_INVALID;
	if ( f->sx == 0 || f->sy == 0 || ( f->dims == 3 && f->sz == 0 ) ) return HYB_E_INVALID;
	/* in double, so that the test itself cannot overflow */
	double bits = (double)hyb_zfp_blocks_along( f->nx ) * (double)hyb_zfp_blocks_along( f->ny ) *
	              (double)hyb_zfp_block_bits( f->dims, f->type, rate );
	if ( f->dims == 3 ) bits *= (double)hyb_zfp_blocks_along( f->nz );
	if ( bits >= (double)HYB_ZFP_MAX_STREAM_BITS ) return HYB_E_INVALID;
	return HYB_OK;
}

/* The checks of every entry point that codes a field: HYB_OK, or
   HYB_E_INVALID for an invalid field or rate (hyb_zfp_check), a NULL pointer
   with a nonempty field, or a stream not aligned to 8 bytes (the codec works
   on 64-bit words). */
static inline hyb_status_t hyb_zfp_check_call( const hyb_zfp_field_t* f, double rate,
                                               const void* field, const void* stream )
{
	if ( hyb_zfp_check( f, rate ) != HYB_OK ) return HYB_E_INVALID;
	if ( hyb_zfp_block_count( f ) == 0 ) return HYB_OK;
	if ( !field || !stream ) return HYB_E_INVALID;
	if ( (uintptr_t)stream % 8u != 0 ) return HYB_E_INVALID;
	return HYB_OK;
}

/* Bits of the fixed-rate stream of a field at `rate` (0 when empty or
   invalid): the blocks' bits, one after the other. */
static inline uint64_t hyb_zfp_stream_bits( const hyb_zfp_field_t* f, double rate )
{
	if ( hyb_zfp_check( f, rate ) != HYB_OK ) return 0;
	return hyb_zfp_block_count( f ) * hyb_zfp_block_bits( f->dims, f->type, rate );
}

/* Bytes of the fixed-rate stream of a field at `rate`: its bits rounded up to
   whole bytes, which is the size libzfp's zfp_compress returns for the same
   field and rate (Debian's libzfp 1.0.0 is built with 8-bit stream words;
   the bits are laid out as with 64-bit words on a little-endian machine, so
   only this padding depends on the word size). 0 for an empty or invalid
   field. The codec reads and writes exactly these bytes. */
static inline size_t hyb_zfp_stream_bytes( const hyb_zfp_field_t* f, double rate )
{
	return (size_t)( ( hyb_zfp_stream_bits( f, rate ) + 7u ) / 8u );
}

#endif
