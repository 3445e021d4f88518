/* SPDX-License-Identifier: BSD-3-Clause */
/* Level-gated logging through one write(2) per line: no malloc, no stdio. */
#ifndef HYB_LOG_H
#define HYB_LOG_H

#include <stdarg.h>
#include <stdint.h>

enum
{
	HYB_LOG_SILENT = 0, /* nothing but errors that lose work */
	HYB_LOG_WARN   = 1, /* warnings and the one-line summary */
	HYB_LOG_INFO   = 2, /* one line per decision that falls back */
	HYB_LOG_TRACE  = 3  /* everything */
};

/* Set the level and a destination file descriptor that takes precedence
   over the log file (tests; fd < 0: the log file of hyb_log_set_file, else
   stderr). Safe to call again. */
void hyb_log_configure( int level, int fd );

/* Set the level alone, keeping the destination. */
void hyb_log_set_level( int level );

/* Log to the file `path` (HYBLAS_LOG_FILE; NULL or "" for stderr) when no
   descriptor was given to hyb_log_configure. The file is opened at the first
   line written and checked before each one (core/hyb_file.h, sinks); a file
   that cannot be used is warned about once on stderr, where the lines then
   go. Called by stage-1 init; not concurrently with logging. */
void hyb_log_set_file( const char* path );

/* Current level; one relaxed atomic load. */
int hyb_log_level( void );

/* Format into a stack buffer and write it as one line prefixed
   "[hyblas pid:tid] ". Thread-safe and async-signal-tolerant enough for
   atfork handlers (no allocation, no locks). */
void hyb_log_emit( int level, const char* fmt, ... ) __attribute__( ( format( printf, 2, 3 ) ) );
void hyb_log_vemit( int level, const char* fmt, va_list ap )
    __attribute__( ( format( printf, 2, 0 ) ) );

/* Emit once per distinct key for the life of the process (keys are hashes of
   whatever identifies the condition, e.g. routine id and reason). Returns 1
   if the line was emitted. */
int hyb_log_once( uint64_t key, int level, const char* fmt, ... )
    __attribute__( ( format( printf, 3, 4 ) ) );

/* Write a line unconditionally (used for the exit report and for errors that
   must be seen whatever the level). */
void hyb_log_always( const char* fmt, ... ) __attribute__( ( format( printf, 1, 2 ) ) );

/* FNV-1a hash of a string, for hyb_log_once keys. */
uint64_t hyb_hash_str( const char* s, uint64_t seed );

#define HYB_LOG( level, ... )                                                                      \
	do {                                                                                           \
		if ( hyb_log_level() >= ( level ) ) hyb_log_emit( level, __VA_ARGS__ );                    \
	} while ( 0 )

#endif
