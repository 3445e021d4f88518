/* SPDX-License-Identifier: BSD-3-Clause */
/* Bit input and output on a stream of 64-bit words, least significant bit
   first, as inline functions that compile for the host (C) and the device
   (CUDA): the stream layout that libzfp writes on a little-endian machine. */
#ifndef HYB_ZFP_BITS_H
#define HYB_ZFP_BITS_H

#include <stdint.h>

/* HYB_ZFP_FN marks a function of the codec that both the host and the device
   run; HYB_ZFP_UNROLL asks nvcc's device pass to unroll the loop that
   follows (host compilers decide for themselves and would warn about the
   pragma). */
#ifdef __CUDACC__
#define HYB_ZFP_FN static __host__ __device__ __forceinline__
#else
#define HYB_ZFP_FN static inline
#endif
#ifdef __CUDA_ARCH__
#define HYB_ZFP_UNROLL _Pragma( "unroll" )
#else
#define HYB_ZFP_UNROLL
#endif

/* A writer of one block's bits. A word the block covers entirely is stored
   (padding words as zeros), so that memory need not be cleared; a word the
   block shares with a neighbour (its first or last word when the block does
   not begin or end on a word boundary) is merged with a bitwise or, so that
   word must be zero before the first block that touches it writes, and on the
   device the or is atomic: two threads may write the two halves at once. */
typedef struct
{
	uint64_t* words; /* the stream */
	uint64_t  index; /* the word that receives the next bit */
	uint64_t  acc;   /* bits of that word not yet written to memory */
	unsigned  fill;  /* how many bits of that word acc holds (0..63) */
	unsigned  part;  /* 1 while acc's word began before this writer */
} hyb_zfp_bw_t;

/* A reader of bits from `words`, beginning anywhere; it never touches a word
   beyond the last one it returns bits from. */
typedef struct
{
	const uint64_t* words;
	uint64_t        next; /* the word to load when buf runs out */
	uint64_t        buf;  /* bits loaded but not yet returned, lowest first */
	unsigned        avail;
} hyb_zfp_br_t;

HYB_ZFP_FN void hyb_zfp_word_merge( uint64_t* w, uint64_t v )
{
#ifdef __CUDA_ARCH__
	atomicOr( (unsigned long long*)w, (unsigned long long)v );
#else
	*w |= v;
#endif
}

/* A writer whose first bit is bit `pos` of the stream `words`. */
HYB_ZFP_FN hyb_zfp_bw_t hyb_zfp_bw_at( uint64_t* words, uint64_t pos )
{
	hyb_zfp_bw_t bw;
	bw.words = words;
	bw.index = pos >> 6;
	bw.acc   = 0;
	bw.fill  = (unsigned)( pos & 63u );
	bw.part  = bw.fill != 0;
	return bw;
}

/* Writes acc to its word (complete or not) and moves to the next word. */
HYB_ZFP_FN void hyb_zfp_bw_flush_word( hyb_zfp_bw_t* bw, int complete )
{
	if ( bw->part || !complete )
		hyb_zfp_word_merge( &bw->words[bw->index], bw->acc );
	else
		bw->words[bw->index] = bw->acc;
	bw->index++;
	bw->acc  = 0;
	bw->fill = 0;
	bw->part = 0;
}

/* Appends the n low bits of v (n <= 64; bits of v above n must be zero). */
HYB_ZFP_FN void hyb_zfp_bw_put( hyb_zfp_bw_t* bw, uint64_t v, unsigned n )
{
	if ( n == 0 ) return;
	bw->acc |= v << bw->fill;
	unsigned room = 64u - bw->fill;
	if ( n < room )
	{
		bw->fill += n;
		return;
	}
	hyb_zfp_bw_flush_word( bw, 1 );
	/* the bits of v that did not fit; room is 1..64 */
	bw->acc  = room < 64u ? v >> room : 0;
	bw->fill = n - room;
}

HYB_ZFP_FN void hyb_zfp_bw_put1( hyb_zfp_bw_t* bw, unsigned bit )
{
	hyb_zfp_bw_put( bw, (uint64_t)( bit & 1u ), 1 );
}

/* Appends n zero bits. */
HYB_ZFP_FN void hyb_zfp_bw_skip( hyb_zfp_bw_t* bw, uint64_t n )
{
	while ( n > 0 )
	{
		unsigned room = 64u - bw->fill;
		if ( n < room )
		{
			bw->fill += (unsigned)n;
			return;
		}
		n -= room;
		hyb_zfp_bw_flush_word( bw, 1 );
	}
}

/* Writes what the writer holds; call once when the block is complete. */
HYB_ZFP_FN void hyb_zfp_bw_finish( hyb_zfp_bw_t* bw )
{
	if ( bw->fill > 0 ) hyb_zfp_bw_flush_word( bw, 0 );
}

/* A reader whose first bit is bit `pos` of `words`. */
HYB_ZFP_FN hyb_zfp_br_t hyb_zfp_br_at( const uint64_t* words, uint64_t pos )
{
	hyb_zfp_br_t br;
	unsigned     off = (unsigned)( pos & 63u );
	br.words         = words;
	br.next          = ( pos >> 6 ) + 1u;
	br.buf           = words[pos >> 6] >> off;
	br.avail         = 64u - off;
	return br;
}

/* The next n bits (n <= 64), the first in the lowest bit. */
HYB_ZFP_FN uint64_t hyb_zfp_br_get( hyb_zfp_br_t* br, unsigned n )
{
	if ( n == 0 ) return 0;
	uint64_t v;
	if ( n <= br->avail )
	{
		v       = br->buf;
		br->buf = n < 64u ? br->buf >> n : 0;
		br->avail -= n;
	}
	else
	{
		/* avail < n <= 64, so avail < 64 and the shifts below are defined */
		uint64_t w    = br->words[br->next++];
		unsigned used = n - br->avail;
		v             = br->buf | ( w << br->avail );
		br->buf       = used < 64u ? w >> used : 0;
		br->avail     = 64u - used;
	}
	return n < 64u ? v & ( ( (uint64_t)1 << n ) - 1u ) : v;
}

HYB_ZFP_FN unsigned hyb_zfp_br_get1( hyb_zfp_br_t* br )
{
	if ( br->avail == 0 )
	{
		br->buf   = br->words[br->next++];
		br->avail = 64;
	}
	unsigned bit = (unsigned)( br->buf & 1u );
	br->buf >>= 1;
	br->avail--;
	return bit;
}

#endif
