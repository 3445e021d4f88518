/* SPDX-License-Identifier: BSD-3-Clause */
/* Streaming copies (see hyb_copy.h). SSE2 is part of every x86-64, so no
   run-time dispatch is needed; elsewhere this is memcpy. */
#include "hyb_copy.h"

#include <stdint.h>
#include <string.h>

#include "hyb_team.h"

void hyb_copy_pieces( void* dst, const void* src, size_t total, size_t piece, int64_t b, int64_t e )
{
	size_t lo = (size_t)b * piece, hi = (size_t)e * piece;
	if ( hi > total ) hi = total;
	if ( hi > lo ) hyb_copy_stream( (char*)dst + lo, (const char*)src + lo, hi - lo );
	hyb_copy_fence();
}

typedef struct
{
	void*       dst;
	const void* src;
	size_t      bytes, piece;
} hyb_copy_job_t;

static void hyb_copy_job( void* arg, int64_t b, int64_t e )
{
	const hyb_copy_job_t* j = arg;
	hyb_copy_pieces( j->dst, j->src, j->bytes, j->piece, b, e );
}

void hyb_copy_team( struct hyb_team_s* team, void* dst, const void* src, size_t bytes,
                    size_t piece )
{
	if ( bytes == 0 ) return;
	hyb_copy_job_t j = { dst, src, bytes, piece ? piece : bytes };
	hyb_team_run( team, (int64_t)( ( bytes + j.piece - 1 ) / j.piece ), hyb_copy_job, &j );
}

/* Scalar element updates: the unaligned head and the tail of a range, and
   the whole range where SSE2 is missing. */
static void hyb_update_s( float* d, const float* s, size_t n, float b )
{
	for ( size_t i = 0; i < n; i++ ) d[i] = b * d[i] + s[i];
}

static void hyb_update_d( double* d, const double* s, size_t n, double b )
{
	for ( size_t i = 0; i < n; i++ ) d[i] = b * d[i] + s[i];
}

static void hyb_update_c( float* d, const float* s, size_t n, float br, float bi )
{
	for ( size_t i = 0; i < n; i++ )
	{
		float re = d[2 * i], im = d[2 * i + 1];
		d[2 * i]     = br * re - bi * im + s[2 * i];
		d[2 * i + 1] = br * im + bi * re + s[2 * i + 1];
	}
}

static void hyb_update_z( double* d, const double* s, size_t n, double br, double bi )
{
	for ( size_t i = 0; i < n; i++ )
	{
		double re = d[2 * i], im = d[2 * i + 1];
		d[2 * i]     = br * re - bi * im + s[2 * i];
		d[2 * i + 1] = br * im + bi * re + s[2 * i + 1];
	}
}

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

/* Elements before dst reaches 16-byte alignment; all of them when it
   never can (elements not aligned to their own size). */
static size_t hyb_head( const void* dst, size_t es, size_t count )
{
	size_t bytes = ( 16 - ( (uintptr_t)dst & 15 ) ) & 15;
	if ( bytes % es ) return count;
	return bytes / es < count ? bytes / es : count;
}

/* d = b d + s of a real range: the scalar head, 16-byte vectors from d + head on (d aligned
   there), the scalar tail. One definition for both precisions: T the element, V its vector
   and x the intrinsics' suffix. */
#define HYB_UPDATE_REAL_SSE( name, scalar, T, V, x )                                               \
	static void name( T* d, const T* s, size_t head, size_t body, size_t tail, T b )               \
	{                                                                                              \
		scalar( d, s, head, b );                                                                   \
		V vb = _mm_set1_##x( b );                                                                  \
		for ( size_t i = head; i < head + body; i += 16 / sizeof( T ) )                            \
		{                                                                                          \
			V v = _mm_add_##x( _mm_mul_##x( vb, _mm_load_##x( d + i ) ), _mm_loadu_##x( s + i ) ); \
			_mm_store_##x( d + i, v );                                                             \
		}                                                                                          \
		scalar( d + head + body, s + head + body, tail, b );                                       \
	}
HYB_UPDATE_REAL_SSE( hyb_update_s_sse, hyb_update_s, float, __m128, ps )
HYB_UPDATE_REAL_SSE( hyb_update_d_sse, hyb_update_d, double, __m128d, pd )
#undef HYB_UPDATE_REAL_SSE

void hyb_copy_update( void* dst, const void* src, size_t count, hyb_prec_t prec,
                      const double beta[2] )
{
	size_t      es   = hyb_prec_size( prec );
	size_t      head = hyb_head( dst, es, count );
	size_t      per  = 16 / es; /* elements per vector */
	size_t      body = ( count - head ) / per * per;
	size_t      tail = count - head - body;
	char*       d    = dst;
	const char* s    = src;
	char*       t_d  = d + ( head + body ) * es;
	const char* t_s  = s + ( head + body ) * es;
	switch ( prec )
	{
	case HYB_PREC_S:
		hyb_update_s_sse( (float*)d, (const float*)s, head, body, tail, (float)beta[0] );
		break;
	case HYB_PREC_D:
		hyb_update_d_sse( (double*)d, (const double*)s, head, body, tail, beta[0] );
		break;
	case HYB_PREC_C:
	{
		/* Two elements per vector: (re, im) times br plus (im, re) times (-bi, bi). */
		float br = (float)beta[0], bi = (float)beta[1];
		hyb_update_c( (float*)d, (const float*)s, head, br, bi );
		__m128 vr = _mm_set1_ps( br ), vi = _mm_setr_ps( -bi, bi, -bi, bi );
		for ( size_t i = head; i < head + body; i += 2 )
		{
			__m128 c  = _mm_load_ps( (const float*)d + 2 * i );
			__m128 sw = _mm_shuffle_ps( c, c, _MM_SHUFFLE( 2, 3, 0, 1 ) );
			__m128 v  = _mm_add_ps( _mm_add_ps( _mm_mul_ps( vr, c ), _mm_mul_ps( vi, sw ) ),
			                        _mm_loadu_ps( (const float*)s + 2 * i ) );
			_mm_store_ps( (float*)d + 2 * i, v );
		}
		hyb_update_c( (float*)t_d, (const float*)t_s, tail, br, bi );
		break;
	}
	default:
	{
		double br = beta[0], bi = beta[1];
		hyb_update_z( (double*)d, (const double*)s, head, br, bi );
		__m128d vr = _mm_set1_pd( br ), vi = _mm_setr_pd( -bi, bi );
		for ( size_t i = head; i < head + body; i++ )
		{
			__m128d c  = _mm_load_pd( (const double*)d + 2 * i );
			__m128d sw = _mm_shuffle_pd( c, c, 1 );
			__m128d v  = _mm_add_pd( _mm_add_pd( _mm_mul_pd( vr, c ), _mm_mul_pd( vi, sw ) ),
			                         _mm_loadu_pd( (const double*)s + 2 * i ) );
			_mm_store_pd( (double*)d + 2 * i, v );
		}
		hyb_update_z( (double*)t_d, (const double*)t_s, tail, br, bi );
		break;
	}
	}
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

void hyb_copy_update( void* dst, const void* src, size_t count, hyb_prec_t prec,
                      const double beta[2] )
{
	switch ( prec )
	{
	case HYB_PREC_S:
		hyb_update_s( dst, src, count, (float)beta[0] );
		break;
	case HYB_PREC_D:
		hyb_update_d( dst, src, count, beta[0] );
		break;
	case HYB_PREC_C:
		hyb_update_c( dst, src, count, (float)beta[0], (float)beta[1] );
		break;
	default:
		hyb_update_z( dst, src, count, beta[0], beta[1] );
		break;
	}
}

void hyb_copy_fence( void )
{
	__atomic_thread_fence( __ATOMIC_SEQ_CST );
}
#endif
