/* SPDX-License-Identifier: BSD-3-Clause */
/* The fingerprint of a vector's bytes that proves a registered x was read as the program's
   addresses show it (see docs/design-notes-spmv.md, "x straight from the program's pages").
   The host computes it through the program's addresses, the device (spmv.xsum) over what the
   DMA delivered; equal fingerprints of every piece mean equal bytes but with a chance of
   about 2^-64 per piece.
   Definition, shared bit for bit by both sides (kernels/cuda/hyb_spmv_cuda.cu repeats it):
   the bytes are cut into pieces of HYB_SPMV_XSUM_PIECE (the last one shorter); a piece's
   64-bit little-endian words (the last one zero-padded) are dealt to HYB_SPMV_XSUM_LANES
   lanes in turn, word i to lane i mod LANES; lane l starts at (l + 1) K3 and takes each word
   w as acc = rotl(acc + w K2, 31) K1 (the round of xxHash64, whose constants these are:
   multiplications and a rotation, so no pattern of changed words cancels out as in a
   linear sum); the piece's fingerprint is the sum over the lanes of each lane's final mix. */
#ifndef HYB_SPMV_XSUM_H
#define HYB_SPMV_XSUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HYB_SPMV_XSUM_PIECE ( (size_t)65536 )
#define HYB_SPMV_XSUM_LANES 32
#define HYB_SPMV_XSUM_K1    0x9E3779B185EBCA87ull
#define HYB_SPMV_XSUM_K2    0xC2B2AE3D27D4EB4Full
#define HYB_SPMV_XSUM_K3    0x165667B19E3779F9ull

/* Pieces of `bytes` bytes. */
static inline int64_t hyb_spmv_xsum_pieces( size_t bytes )
{
	return (int64_t)( ( bytes + HYB_SPMV_XSUM_PIECE - 1 ) / HYB_SPMV_XSUM_PIECE );
}

static inline uint64_t hyb_spmv_xsum_round( uint64_t acc, uint64_t w )
{
	acc += w * HYB_SPMV_XSUM_K2;
	acc = ( acc << 31 ) | ( acc >> 33 );
	return acc * HYB_SPMV_XSUM_K1;
}

static inline uint64_t hyb_spmv_xsum_final( uint64_t v )
{
	v ^= v >> 33;
	v *= HYB_SPMV_XSUM_K2;
	v ^= v >> 29;
	v *= HYB_SPMV_XSUM_K3;
	v ^= v >> 32;
	return v;
}

/* The fingerprint of one piece of `bytes` (<= HYB_SPMV_XSUM_PIECE) bytes at p (any
   alignment). */
static inline uint64_t hyb_spmv_xsum_piece( const void* p, size_t bytes )
{
	const unsigned char* b = (const unsigned char*)p;
	uint64_t             acc[HYB_SPMV_XSUM_LANES];
	for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ ) acc[l] = (uint64_t)( l + 1 ) * HYB_SPMV_XSUM_K3;
	const size_t full = bytes / 8, group = full / HYB_SPMV_XSUM_LANES * HYB_SPMV_XSUM_LANES;
	size_t       i    = 0;
	for ( ; i < group; i += HYB_SPMV_XSUM_LANES )
		for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ )
		{
			uint64_t w;
			memcpy( &w, b + ( i + (size_t)l ) * 8, 8 );
			acc[l] = hyb_spmv_xsum_round( acc[l], w );
		}
	for ( ; i < full; i++ )
	{
		uint64_t w;
		memcpy( &w, b + i * 8, 8 );
		acc[i % HYB_SPMV_XSUM_LANES] = hyb_spmv_xsum_round( acc[i % HYB_SPMV_XSUM_LANES], w );
	}
	if ( bytes % 8 )
	{
		uint64_t w = 0;
		for ( size_t k = 0; k < bytes % 8; k++ ) w |= (uint64_t)b[full * 8 + k] << ( 8 * k );
		acc[full % HYB_SPMV_XSUM_LANES] = hyb_spmv_xsum_round( acc[full % HYB_SPMV_XSUM_LANES], w );
	}
	uint64_t h = 0;
	for ( int l = 0; l < HYB_SPMV_XSUM_LANES; l++ ) h += hyb_spmv_xsum_final( acc[l] );
	return h;
}

/* Piece j of a vector of `bytes` bytes at p. */
static inline uint64_t hyb_spmv_xsum_of( const void* p, size_t bytes, int64_t j )
{
	const size_t a = (size_t)j * HYB_SPMV_XSUM_PIECE;
	const size_t n = bytes - a < HYB_SPMV_XSUM_PIECE ? bytes - a : HYB_SPMV_XSUM_PIECE;
	return hyb_spmv_xsum_piece( (const char*)p + a, n );
}

#endif
