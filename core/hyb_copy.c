/* SPDX-License-Identifier: BSD-3-Clause */
/* Streaming copies (see hyb_copy.h). SSE2 is part of every x86-64, so no
   run-time dispatch is needed; elsewhere this is memcpy. */
#include "hyb_copy.h"

#include <stdint.h>
#include <string.h>

#if defined( __SSE2__ )
#include <emmintrin.h>

/* Below this, cache pollution is cheap and memcpy is faster. */
#define HYB_STREAM_MIN 4096

void hyb_copy_stream( void* dst, const void* src, size_t bytes )
{
	if ( bytes < HYB_STREAM_MIN )
	{
		memcpy( dst, src, bytes );
		return;
	}
	char*       d = dst;
	const char* s = src;
	/* Head up to 16-byte alignment of the destination. */
	size_t head = ( 16 - ( (uintptr_t)d & 15 ) ) & 15;
	memcpy( d, s, head );
	d += head, s += head, bytes -= head;
	size_t n = bytes / 64;
	for ( size_t i = 0; i < n; i++, d += 64, s += 64 )
	{
		__m128i a = _mm_loadu_si128( (const __m128i*)s );
		__m128i b = _mm_loadu_si128( (const __m128i*)( s + 16 ) );
		__m128i c = _mm_loadu_si128( (const __m128i*)( s + 32 ) );
		__m128i e = _mm_loadu_si128( (const __m128i*)( s + 48 ) );
		_mm_stream_si128( (__m128i*)d, a );
		_mm_stream_si128( (__m128i*)( d + 16 ), b );
		_mm_stream_si128( (__m128i*)( d + 32 ), c );
		_mm_stream_si128( (__m128i*)( d + 48 ), e );
	}
	memcpy( d, s, bytes - n * 64 );
}

void hyb_copy_fence( void )
{
	_mm_sfence();
}
#else
void hyb_copy_stream( void* dst, const void* src, size_t bytes )
{
	memcpy( dst, src, bytes );
}

void hyb_copy_fence( void )
{
	__atomic_thread_fence( __ATOMIC_SEQ_CST );
}
#endif
