/* SPDX-License-Identifier: BSD-3-Clause */
/* The host implementation of the fixed-rate ZFP codec (hyb_zfp_host.h): the
   shared block codec over groups of 64 blocks staged as the CUDA kernels
   stage theirs, one group per iteration of an OpenMP loop. */
#include "kernels/zfp/hyb_zfp_host.h"

#include <string.h>

#include "kernels/zfp/hyb_zfp_block.h"
#include "kernels/zfp/hyb_zfp_span.h"

/* A group's words at most: 64 blocks of the largest block (3-D, double, rate
   64: 4096 bits). */
#define HYB_ZFP_GROUP_WORDS_MAX 4096u

hyb_status_t hyb_zfp_host_check( const hyb_zfp_field_t* f, double rate, const void* field,
                                 const void* stream, size_t stream_bytes )
{
	hyb_status_t st = hyb_zfp_check_call( f, rate, field, stream );
	if ( st != HYB_OK ) return st;
	return stream_bytes < hyb_zfp_stream_bytes( f, rate ) ? HYB_E_INVALID : HYB_OK;
}

/* Block b of the field to (encode) or from the stage, its bits at `pos`. */
static void hyb_zfp_host_block( const hyb_zfp_field_t* f, void* field, uint64_t* stage,
                                uint64_t pos, unsigned maxbits, uint64_t b, int encode )
{
	if ( f->type == HYB_ZFP_FLOAT )
	{
		if ( encode )
			hyb_zfp_encode_at_f( f, f->dims, (const float*)field, stage, pos, maxbits, b );
		else
			hyb_zfp_decode_at_f( f, f->dims, (float*)field, stage, pos, maxbits, b );
	}
	else
	{
		if ( encode )
			hyb_zfp_encode_at_d( f, f->dims, (const double*)field, stage, pos, maxbits, b );
		else
			hyb_zfp_decode_at_d( f, f->dims, (double*)field, stage, pos, maxbits, b );
	}
}

/* Group g, as a CUDA thread block codes one: the stage cleared (encode) or
   loaded from the stream (decode), the group's blocks, the stage stored. */
static void hyb_zfp_host_group( const hyb_zfp_field_t* f, void* field, uint64_t* stream,
                                unsigned maxbits, uint64_t blocks, uint64_t bytes, uint64_t g,
                                int encode )
{
	uint64_t             stage[HYB_ZFP_GROUP_WORDS_MAX];
	const hyb_zfp_span_t s = hyb_zfp_span_at( HYB_ZFP_GROUP_BLOCKS, g, maxbits, bytes );
	for ( unsigned i = 0; i < s.words; i++ )
		stage[i] = encode ? 0 : hyb_zfp_span_get( &s, stream, i );
	for ( unsigned t = 0; t < HYB_ZFP_GROUP_BLOCKS && s.b0 + t < blocks; t++ )
		hyb_zfp_host_block( f, field, stage, (uint64_t)t * maxbits, maxbits, s.b0 + t, encode );
	if ( encode )
		for ( unsigned i = 0; i < s.words; i++ ) hyb_zfp_span_put( &s, stream, i, stage[i] );
}

/* Both directions: checks, then the groups on the OpenMP team. */
static hyb_status_t hyb_zfp_host_run( const hyb_zfp_field_t* f, double rate, void* field,
                                      void* stream, size_t stream_bytes, int encode )
{
	hyb_status_t st = hyb_zfp_host_check( f, rate, field, stream, stream_bytes );
	if ( st != HYB_OK ) return st;
	const uint64_t blocks  = hyb_zfp_block_count( f );
	const uint64_t groups  = ( blocks + HYB_ZFP_GROUP_BLOCKS - 1 ) / HYB_ZFP_GROUP_BLOCKS;
	const unsigned maxbits = hyb_zfp_block_bits( f->dims, f->type, rate );
	const uint64_t bytes   = hyb_zfp_stream_bytes( f, rate );
#pragma omp parallel for schedule( static ) if ( groups > 64 )
	for ( uint64_t g = 0; g < groups; g++ )
		hyb_zfp_host_group( f, field, (uint64_t*)stream, maxbits, blocks, bytes, g, encode );
	return HYB_OK;
}

hyb_status_t hyb_zfp_host_encode( const hyb_zfp_field_t* f, double rate, const void* field,
                                  void* stream, size_t stream_bytes )
{
	/* encode only reads the field */
	return hyb_zfp_host_run( f, rate, (void*)(uintptr_t)field, stream, stream_bytes, 1 );
}

hyb_status_t hyb_zfp_host_decode( const hyb_zfp_field_t* f, double rate, const void* stream,
                                  size_t stream_bytes, void* field )
{
	/* decode only reads the stream */
	return hyb_zfp_host_run( f, rate, field, (void*)(uintptr_t)stream, stream_bytes, 0 );
}
