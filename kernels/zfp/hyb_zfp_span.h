/* SPDX-License-Identifier: BSD-3-Clause */
/* Staging a group of ZFP blocks: where a group's words lie in the stream and
   how a staged word goes to (comes from) a stream whose last word may be
   partial. Inline for the host codec and the CUDA kernels, which code a
   group the same way: stage cleared, blocks coded into it, words copied. */
#ifndef HYB_ZFP_SPAN_H
#define HYB_ZFP_SPAN_H

#include <stdint.h>

#include "hyb_zfp_bits.h"

/* The words of group g of `group_blocks` blocks (a multiple of 64, so every
   group begins on a word boundary) in a stream of `bytes` bytes. */
typedef struct
{
	uint64_t gw0;   /* the group's first word in the stream */
	uint64_t b0;    /* the group's first block */
	uint64_t full;  /* whole words of the stream */
	unsigned tail;  /* bytes of its partial last word (0: none) */
	unsigned words; /* words of a whole group */
} hyb_zfp_span_t;

HYB_ZFP_FN hyb_zfp_span_t hyb_zfp_span_at( unsigned group_blocks, uint64_t g, unsigned maxbits,
                                           uint64_t bytes )
{
	hyb_zfp_span_t s;
	s.words = group_blocks / 64u * maxbits;
	s.gw0   = g * s.words;
	s.b0    = g * group_blocks;
	s.full  = bytes / 8u;
	s.tail  = (unsigned)( bytes % 8u );
	return s;
}

/* Staged word i of the group to the stream: whole words stored, the bytes
   of a partial last word stored one by one, nothing beyond the stream. */
HYB_ZFP_FN void hyb_zfp_span_put( const hyb_zfp_span_t* s, uint64_t* out, unsigned i, uint64_t w )
{
	const uint64_t gw = s->gw0 + i;
	if ( gw < s->full )
		out[gw] = w;
	else if ( gw == s->full && s->tail )
	{
		unsigned char* o = (unsigned char*)( out + gw );
		for ( unsigned k = 0; k < s->tail; k++ ) o[k] = (unsigned char)( w >> ( 8u * k ) );
	}
}

/* Word i of the group from the stream (zero bits beyond its end). */
HYB_ZFP_FN uint64_t hyb_zfp_span_get( const hyb_zfp_span_t* s, const uint64_t* in, unsigned i )
{
	const uint64_t gw = s->gw0 + i;
	uint64_t       w  = 0;
	if ( gw < s->full )
	{
#ifdef __CUDA_ARCH__
		w = __ldg( (const unsigned long long*)in + gw );
#else
		w = in[gw];
#endif
	}
	else if ( gw == s->full && s->tail )
	{
		const unsigned char* p = (const unsigned char*)( in + gw );
		for ( unsigned k = 0; k < s->tail; k++ ) w |= (uint64_t)p[k] << ( 8u * k );
	}
	return w;
}

#endif
