/* SPDX-License-Identifier: BSD-3-Clause */
/* Opening, reading, replacing and appending to files by the rules of
   hyb_file.h. */
#define _GNU_SOURCE
#include "hyb_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hyb_secure.h"

static void hyb_file_why( char* why, size_t whylen, const char* text )
{
	if ( why && whylen ) snprintf( why, whylen, "%s", text );
}

/* What a file that is not a regular one is, for messages. */
static const char* hyb_file_kind( mode_t m )
{
	if ( S_ISFIFO( m ) ) return "a FIFO, not a regular file";
	if ( S_ISDIR( m ) ) return "a directory, not a regular file";
	if ( S_ISCHR( m ) || S_ISBLK( m ) ) return "a device, not a regular file";
	if ( S_ISSOCK( m ) ) return "a socket, not a regular file";
	return "not a regular file";
}

static const char* const hyb_file_secure_why = "ignored in a setuid or setgid program";

hyb_status_t hyb_file_read( const char* path, size_t max_bytes, char** text, size_t* len, char* why,
                            size_t whylen )
{
	if ( text ) *text = NULL;
	if ( len ) *len = 0;
	if ( path == NULL || text == NULL || path[0] == '\0' )
	{
		hyb_file_why( why, whylen, "no file named" );
		return HYB_E_INVALID;
	}
	if ( hyb_secure_mode() )
	{
		hyb_file_why( why, whylen, hyb_file_secure_why );
		return HYB_E_FORBIDDEN;
	}
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
	int fd = open( path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY );
	if ( fd < 0 )
	{
		hyb_file_why( why, whylen, strerror( errno ) );
		return HYB_E_IO;
	}
	struct stat st;
	if ( fstat( fd, &st ) != 0 )
	{
		hyb_file_why( why, whylen, strerror( errno ) );
		close( fd );
		return HYB_E_IO;
	}
	if ( !S_ISREG( st.st_mode ) )
	{
		hyb_file_why( why, whylen, hyb_file_kind( st.st_mode ) );
		close( fd );
		return HYB_E_INVALID;
	}
	if ( (uint64_t)st.st_size > (uint64_t)max_bytes )
	{
		if ( why && whylen ) snprintf( why, whylen, "larger than %zu bytes", max_bytes );
		close( fd );
		return HYB_E_INVALID;
	}
	int fl = fcntl( fd, F_GETFL );
	if ( fl >= 0 ) (void)fcntl( fd, F_SETFL, fl & ~O_NONBLOCK );

	/* The size may change while we read: read up to one byte past the bound
	   to tell a file that grew too large. */
	size_t cap = (size_t)st.st_size + 1 < 4096 ? 4096 : (size_t)st.st_size + 1;
	if ( cap > max_bytes + 1 ) cap = max_bytes + 1;
	char*        buf = malloc( cap + 1 );
	size_t       got = 0;
	hyb_status_t rc  = buf ? HYB_OK : HYB_E_NO_MEMORY;
	while ( rc == HYB_OK )
	{
		if ( got == cap )
		{
			if ( cap > max_bytes )
			{
				if ( why && whylen ) snprintf( why, whylen, "larger than %zu bytes", max_bytes );
				rc = HYB_E_INVALID;
				break;
			}
			size_t ncap  = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
			char*  grown = realloc( buf, ncap + 1 );
			if ( grown == NULL )
			{
				rc = HYB_E_NO_MEMORY;
				break;
			}
			buf = grown;
			cap = ncap;
		}
		ssize_t r = read( fd, buf + got, cap - got );
		if ( r < 0 && errno == EINTR ) continue;
		if ( r < 0 )
		{
			hyb_file_why( why, whylen, strerror( errno ) );
			rc = HYB_E_IO;
		}
		if ( r <= 0 ) break;
		got += (size_t)r;
	}
	close( fd );
	if ( rc != HYB_OK )
	{
		if ( rc == HYB_E_NO_MEMORY ) hyb_file_why( why, whylen, "out of memory" );
		free( buf );
		return rc;
	}
	buf[got] = '\0';
	*text    = buf;
	if ( len ) *len = got;
	return HYB_OK;
}

static int hyb_file_write_all( int fd, const void* data, size_t len )
{
	const char* p = data;
	while ( len > 0 )
	{
		ssize_t w = write( fd, p, len );
		if ( w < 0 && errno == EINTR ) continue;
		if ( w <= 0 ) return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static void ( *_Atomic hyb_file_replace_pause )( void );

void hyb_file_set_replace_pause_for_test( void ( *pause )( void ) )
{
	atomic_store( &hyb_file_replace_pause, pause );
}

hyb_status_t hyb_file_replace( const char* path, const void* data, size_t len, mode_t mode )
{
	if ( path == NULL || path[0] == '\0' || ( data == NULL && len > 0 ) ) return HYB_E_INVALID;
	if ( hyb_secure_mode() ) return HYB_E_FORBIDDEN;
	size_t plen = strlen( path );
	char*  tmp  = malloc( plen + 48 );
	if ( tmp == NULL ) return HYB_E_NO_MEMORY;
	int fd = -1;
	for ( int attempt = 0; attempt < 16 && fd < 0; attempt++ )
	{
		/* The pid keeps processes sharing a profile apart; a name that exists
		   (a crashed writer's leftover, or something planted) is passed over. */
		if ( attempt == 0 )
			snprintf( tmp, plen + 48, "%s.tmp.%ld", path, (long)getpid() );
		else
			snprintf( tmp, plen + 48, "%s.tmp.%ld.%d", path, (long)getpid(), attempt );
		fd = open( tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode );
		if ( fd < 0 && errno != EEXIST ) break;
	}
	if ( fd < 0 )
	{
		free( tmp );
		return HYB_E_IO;
	}
	void ( *pause )( void ) = atomic_load( &hyb_file_replace_pause );
	if ( pause ) pause();
	int ok = hyb_file_write_all( fd, data, len ) == 0;
	ok     = ( close( fd ) == 0 ) && ok;
	if ( ok ) ok = rename( tmp, path ) == 0;
	if ( !ok ) unlink( tmp );
	free( tmp );
	return ok ? HYB_OK : HYB_E_IO;
}

int hyb_file_next_line( const char** cursor, char* line, size_t cap, int* overlong, int* lineno )
{
	if ( overlong ) *overlong = 0;
	if ( cap == 0 || *cursor == NULL || **cursor == '\0' ) return 0;
	const char* p   = *cursor;
	const char* nl  = strchr( p, '\n' );
	size_t      len = nl ? (size_t)( nl - p ) : strlen( p );
	*cursor         = nl ? nl + 1 : NULL;
	if ( lineno ) ( *lineno )++;
	if ( len >= cap )
	{
		line[0] = '\0';
		if ( overlong ) *overlong = 1;
		return 1;
	}
	memcpy( line, p, len );
	line[len] = '\0';
	return 1;
}

/* ------------------------------------------------------------ sinks */

void hyb_sink_set( hyb_sink_t* s, const char* path )
{
	int fd = atomic_exchange( &s->fd, HYB_SINK_NONE );
	if ( fd >= 0 && !s->borrowed )
	{
		struct stat st;
		/* Close it only while it is still the file we opened. */
		if ( fstat( fd, &st ) == 0 && (uint64_t)st.st_dev == atomic_load( &s->dev ) &&
		     (uint64_t)st.st_ino == atomic_load( &s->ino ) )
			close( fd );
	}
	s->borrowed = 0;
	s->why[0]   = '\0';
	s->path[0]  = '\0';
	if ( path == NULL || path[0] == '\0' ) return;
	if ( strlen( path ) >= sizeof s->path )
	{
		snprintf( s->why, sizeof s->why, "the path is longer than %zu characters",
		          sizeof s->path - 1 );
		atomic_store( &s->fd, HYB_SINK_FAILED );
		return;
	}
	memcpy( s->path, path, strlen( path ) + 1 );
	if ( strcmp( path, "/dev/stderr" ) == 0 || strcmp( path, "/dev/stdout" ) == 0 )
	{
		/* The process's own streams, as NVBLAS writes its trace: never
		   opened (/dev/stderr is a link, which O_NOFOLLOW refuses). */
		s->borrowed = strcmp( path, "/dev/stderr" ) == 0 ? 2 : 1;
		atomic_store( &s->fd, s->borrowed );
		return;
	}
	atomic_store( &s->fd, HYB_SINK_LAZY );
}

int hyb_sink_active( hyb_sink_t* s )
{
	int fd = atomic_load_explicit( &s->fd, memory_order_relaxed );
	return fd >= 0 || fd == HYB_SINK_LAZY;
}

/* Open the sink's file by the rules of hyb_file.h. Returns the descriptor,
   or -1 with s->why set. Caller holds s->busy. */
static int hyb_sink_open( hyb_sink_t* s )
{
	if ( hyb_secure_mode() )
	{
		snprintf( s->why, sizeof s->why, "%s", hyb_file_secure_why );
		return -1;
	}
	/* O_NONBLOCK: opening a FIFO for writing would wait for a reader. */
	int fd = open( s->path,
	               O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
	               0644 );
	if ( fd < 0 )
	{
		int err = errno;
		snprintf( s->why, sizeof s->why, "%s",
		          err == ELOOP   ? "a symbolic link; name the file itself"
		          : err == ENXIO ? "a FIFO, not a regular file"
		                         : strerror( err ) );
		return -1;
	}
	struct stat st;
	const char* bad = NULL;
	if ( fstat( fd, &st ) != 0 )
		bad = strerror( errno );
	else if ( !S_ISREG( st.st_mode ) )
		bad = hyb_file_kind( st.st_mode );
	else if ( st.st_uid != geteuid() )
		bad = "owned by another user";
	if ( bad )
	{
		snprintf( s->why, sizeof s->why, "%s", bad );
		close( fd );
		return -1;
	}
	int fl = fcntl( fd, F_GETFL );
	if ( fl >= 0 ) (void)fcntl( fd, F_SETFL, fl & ~O_NONBLOCK );
	atomic_store( &s->dev, (uint64_t)st.st_dev );
	atomic_store( &s->ino, (uint64_t)st.st_ino );
	return fd;
}

/* Whether descriptor fd is still the file the sink opened. */
static int hyb_sink_is_ours( hyb_sink_t* s, int fd )
{
	struct stat st;
	return fstat( fd, &st ) == 0 && (uint64_t)st.st_dev == atomic_load( &s->dev ) &&
	       (uint64_t)st.st_ino == atomic_load( &s->ino );
}

hyb_status_t hyb_sink_write( hyb_sink_t* s, const void* buf, size_t len, int* refused_now )
{
	if ( refused_now ) *refused_now = 0;
	for ( int round = 0; round < 4; round++ )
	{
		int fd = atomic_load_explicit( &s->fd, memory_order_acquire );
		if ( fd == HYB_SINK_NONE || fd == HYB_SINK_FAILED ) return HYB_E_IO;
		if ( fd >= 0 )
		{
			if ( s->borrowed || hyb_sink_is_ours( s, fd ) )
				return hyb_file_write_all( fd, buf, len ) == 0 ? HYB_OK : HYB_E_IO;
			/* The program closed our descriptor, and may have opened a file
			   of its own under the number: forget it (never close it) and
			   open ours again. */
			atomic_compare_exchange_strong( &s->fd, &fd, HYB_SINK_LAZY );
			continue;
		}
		if ( atomic_flag_test_and_set_explicit( &s->busy, memory_order_acquire ) )
		{
			/* Another thread is opening; a forked child may have inherited the
			   flag set by a thread that no longer exists, hence the bound. */
			for ( int spin = 0; spin < 1000 && atomic_load( &s->fd ) == HYB_SINK_LAZY; spin++ )
				sched_yield();
			continue;
		}
		if ( atomic_load( &s->fd ) == HYB_SINK_LAZY )
		{
			int nfd = hyb_sink_open( s );
			atomic_store_explicit( &s->fd, nfd >= 0 ? nfd : HYB_SINK_FAILED, memory_order_release );
			if ( nfd < 0 && refused_now ) *refused_now = 1;
		}
		atomic_flag_clear_explicit( &s->busy, memory_order_release );
	}
	return HYB_E_IO;
}
