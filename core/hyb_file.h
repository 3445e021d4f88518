/* SPDX-License-Identifier: BSD-3-Clause */
/* Every file hyblas opens: reading one whole (configuration, profile,
   nvblas.conf, learned rates), replacing one whole (profile, rates), and the
   append-only sinks (log, trace). The rules live here once:
   - Only regular files are read or written. A FIFO, a device or a directory
     is refused with a status, never waited on: each open is non-blocking.
   - Reading follows symbolic links. A link the user made on purpose
     (a dotfile manager's ~/.config, a shared site configuration) is
     legitimate, and reading never gives the user more than they can read
     themselves. Under secure execution no file is read at all.
   - A file replaced whole is written into a new name beside it, created
     with O_CREAT|O_EXCL|O_NOFOLLOW (a link planted there makes the open
     fail, never redirects it), then renamed over the target, which replaces
     a link rather than writing through it.
   - An append sink opens with O_APPEND|O_NOFOLLOW and is used only while
     it is a regular file owned by the effective user. It is opened on its
     first write, not at start-up, and before every write the descriptor is
     checked to be the file that was opened (device and inode): a program
     that closes its inherited descriptors and opens its own file under the
     same number never receives hyblas's lines.
   - Under secure execution (core/hyb_secure.h) nothing is read or written. */
#ifndef HYB_FILE_H
#define HYB_FILE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hyb_status.h"

/* Longest path a sink keeps (a configuration path plus a suffix). */
#define HYB_FILE_PATH_MAX 1152

/* Bound of a file read whole: configuration and profile files are a few
   kilobytes; anything larger is not one of ours. */
#define HYB_FILE_READ_MAX ( (size_t)1 << 20 )

/* Read the whole regular file `path` into a malloc'ed, NUL-terminated text
   (*text, its length in *len; len may be NULL). At most max_bytes bytes.
   Returns HYB_OK; HYB_E_IO when it cannot be opened or read; HYB_E_INVALID
   when it is not a regular file or is larger than max_bytes;
   HYB_E_FORBIDDEN under secure execution; HYB_E_NO_MEMORY. On failure *text
   is NULL and `why` (whylen bytes, may be NULL) says why in a few words.
   Never blocks on a FIFO or a device. Thread-safe. */
hyb_status_t hyb_file_read( const char* path, size_t max_bytes, char** text, size_t* len, char* why,
                            size_t whylen );

/* Replace the file `path` whole with len bytes of data: written into
   "<path>.tmp.<pid>" (another numbered name if that exists), created
   O_EXCL|O_NOFOLLOW with permissions `mode` (before the umask), then renamed
   over `path`. Readers see the old or the new file, never a part. Returns
   HYB_OK; HYB_E_IO (the directory is missing or not writable, the disk is
   full, `path` is a directory: nothing changed, no temporary file is left);
   HYB_E_FORBIDDEN under secure execution. Thread-safe. */
hyb_status_t hyb_file_replace( const char* path, const void* data, size_t len, mode_t mode );

/* Tests only: `pause` (NULL: none) is called by hyb_file_replace with the
   temporary file open and nothing written yet, so a test can hold a writer
   inside its file I/O (a fork at that moment must not wait for it). */
void hyb_file_set_replace_pause_for_test( void ( *pause )( void ) );

/* Split a text into lines: copies the next line (without its '\n') into
   line[cap] and advances *cursor. A line of cap bytes or more is not cut
   (a cut path names another file, a cut number is another number): it is
   skipped whole, line is set to "" and *overlong to 1. Returns 0 once the
   text is used up. *lineno (may be NULL) counts lines. Pure. */
int hyb_file_next_line( const char** cursor, char* line, size_t cap, int* overlong, int* lineno );

/* ------------------------------------------------------------ sinks */

/* An append-only destination (the log file, the trace file). Zero it or use
   HYB_SINK_INIT, then name its file with hyb_sink_set. */
typedef struct
{
	char             path[HYB_FILE_PATH_MAX];
	atomic_int       fd;       /* >= 0 open; HYB_SINK_* below otherwise */
	_Atomic uint64_t dev, ino; /* identity of the file opened */
	atomic_flag      busy;     /* one opener at a time */
	int              borrowed; /* 1 or 2: the process's stdout or stderr, never opened */
	char             why[192]; /* why the file was refused (set before HYB_SINK_FAILED) */
} hyb_sink_t;

#define HYB_SINK_NONE   ( -1 ) /* no file named */
#define HYB_SINK_LAZY   ( -2 ) /* named, opened at the next write */
#define HYB_SINK_FAILED ( -3 ) /* refused or not openable: writes fail */
#define HYB_SINK_INIT                                                                              \
	{                                                                                              \
		.fd = HYB_SINK_NONE, .busy = ATOMIC_FLAG_INIT                                              \
	}

/* Name the sink's file (NULL or "" for none); nothing is opened now.
   "/dev/stderr" and "/dev/stdout" mean the process's descriptors 2 and 1,
   written as they are. A descriptor opened for a previous name is closed if
   it is still ours. Not concurrently with writes to the same sink (init,
   tests). */
void hyb_sink_set( hyb_sink_t* s, const char* path );

/* 1 when a file is named and has not been refused. One load. */
int hyb_sink_active( hyb_sink_t* s );

/* Append len bytes with one write(2) (O_APPEND keeps lines of several
   threads and processes whole). Opens the file on first use, and again when
   the program has closed or replaced the descriptor. Returns HYB_OK, or
   HYB_E_IO when the sink has no usable file; *refused_now (may be NULL) is
   set to 1 by the one call that found the file unusable, whose reason is
   then in s->why, so that the owner warns once. No allocation, no lock
   that a forked child could inherit held (a busy opener is waited for a
   bounded time). Thread-safe. */
hyb_status_t hyb_sink_write( hyb_sink_t* s, const void* buf, size_t len, int* refused_now );

#endif
