/* SPDX-License-Identifier: BSD-3-Clause */
/* Logging: one formatted write(2) per line, level checked with one load. */
#define _GNU_SOURCE
#include "hyb_log.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hyb_file.h"

static atomic_int hyb_log_level_v = HYB_LOG_WARN;
static atomic_int hyb_log_fd_v    = -1;
/* HYBLAS_LOG_FILE: opened at the first line written (core/hyb_file.h). */
static hyb_sink_t hyb_log_sink = HYB_SINK_INIT;

/* Keys already reported by hyb_log_once: a fixed open-addressing table, so
   no allocation. When it is full, further conditions are reported every time
   (noisier, never silent). */
#define HYB_LOG_ONCE_SLOTS 512
static _Atomic uint64_t hyb_log_once_keys[HYB_LOG_ONCE_SLOTS];

void hyb_log_configure( int level, int fd )
{
	atomic_store_explicit( &hyb_log_level_v, level, memory_order_relaxed );
	atomic_store_explicit( &hyb_log_fd_v, fd, memory_order_relaxed );
}

void hyb_log_set_level( int level )
{
	atomic_store_explicit( &hyb_log_level_v, level, memory_order_relaxed );
}

void hyb_log_set_file( const char* path )
{
	hyb_sink_set( &hyb_log_sink, path );
}

int hyb_log_level( void )
{
	return atomic_load_explicit( &hyb_log_level_v, memory_order_relaxed );
}

/* Format one line, "[hyblas pid:tid] " and the message, ending in exactly one
   newline, into buf; returns its length. */
__attribute__( ( format( printf, 3, 0 ) ) ) static size_t hyb_log_format( char* buf, size_t cap,
                                                                          const char* fmt,
                                                                          va_list     ap )
{
	int len =
	    snprintf( buf, cap, "[hyblas %ld:%ld] ", (long)getpid(), (long)syscall( SYS_gettid ) );
	if ( len < 0 ) return 0;
	int body = vsnprintf( buf + len, cap - (size_t)len - 1, fmt, ap );
	if ( body < 0 ) return 0;
	size_t n = (size_t)len + (size_t)body;
	if ( n > cap - 2 ) n = cap - 2;
	if ( n == 0 || buf[n - 1] != '\n' ) buf[n++] = '\n';
	return n;
}

__attribute__( ( format( printf, 3, 4 ) ) ) static size_t hyb_log_format_args( char*       buf,
                                                                               size_t      cap,
                                                                               const char* fmt,
                                                                               ... )
{
	va_list ap;
	va_start( ap, fmt );
	size_t n = hyb_log_format( buf, cap, fmt, ap );
	va_end( ap );
	return n;
}

__attribute__( ( format( printf, 1, 0 ) ) ) static void hyb_log_write_line( const char* fmt,
                                                                            va_list     ap )
{
	char   buf[1024];
	size_t n = hyb_log_format( buf, sizeof buf, fmt, ap );
	if ( n == 0 ) return;

	/* One write per line keeps lines from different threads whole. */
	int fd = atomic_load_explicit( &hyb_log_fd_v, memory_order_relaxed );
	if ( fd < 0 && hyb_sink_active( &hyb_log_sink ) )
	{
		int refused = 0;
		if ( hyb_sink_write( &hyb_log_sink, buf, n, &refused ) == HYB_OK ) return;
		if ( refused )
		{
			char   warn[1024 + HYB_FILE_PATH_MAX];
			size_t wn = hyb_log_format_args(
			    warn, sizeof warn,
			    "warning: HYBLAS_LOG_FILE=%s is not used (%s); logging to stderr",
			    hyb_log_sink.path, hyb_log_sink.why );
			ssize_t w = write( STDERR_FILENO, warn, wn );
			(void)w;
		}
	}
	if ( fd < 0 ) fd = STDERR_FILENO;
	ssize_t w = write( fd, buf, n );
	(void)w;
}

void hyb_log_vemit( int level, const char* fmt, va_list ap )
{
	if ( hyb_log_level() < level ) return;
	hyb_log_write_line( fmt, ap );
}

void hyb_log_emit( int level, const char* fmt, ... )
{
	va_list ap;
	va_start( ap, fmt );
	hyb_log_vemit( level, fmt, ap );
	va_end( ap );
}

void hyb_log_always( const char* fmt, ... )
{
	va_list ap;
	va_start( ap, fmt );
	hyb_log_write_line( fmt, ap );
	va_end( ap );
}

int hyb_log_once( uint64_t key, int level, const char* fmt, ... )
{
	if ( hyb_log_level() < level ) return 0;
	if ( key == 0 ) key = 1; /* 0 marks an empty slot */
	for ( unsigned i = 0; i < HYB_LOG_ONCE_SLOTS; i++ )
	{
		unsigned slot = (unsigned)( ( key + i ) % HYB_LOG_ONCE_SLOTS );
		uint64_t seen = atomic_load_explicit( &hyb_log_once_keys[slot], memory_order_acquire );
		if ( seen == key ) return 0;
		if ( seen == 0 )
		{
			uint64_t expected = 0;
			if ( atomic_compare_exchange_strong( &hyb_log_once_keys[slot], &expected, key ) ) break;
			if ( expected == key ) return 0;
		}
	}
	va_list ap;
	va_start( ap, fmt );
	hyb_log_write_line( fmt, ap );
	va_end( ap );
	return 1;
}

uint64_t hyb_hash_str( const char* s, uint64_t seed )
{
	uint64_t h = 1469598103934665603ull ^ seed;
	for ( ; s && *s; s++ )
	{
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}
