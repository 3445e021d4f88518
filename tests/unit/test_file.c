/* SPDX-License-Identifier: BSD-3-Clause */
/* Files hyblas opens (core/hyb_file): reading refuses FIFOs, devices and
   directories without blocking and is bounded; replacing never writes
   through a planted link; append sinks open lazily, refuse links, FIFOs and
   other users' files, and never write into a descriptor the program reused;
   nothing is read or written under secure execution. */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hyb_file.h"
#include "hyb_secure.h"
#include "hyb_test_util.h"
#include "policies/hyb_policy_gtsv.h"

static char tf_dir[256];

/* dir/name into out. */
static const char* tf_path( char* out, size_t cap, const char* name )
{
	snprintf( out, cap, "%s/%s", tf_dir, name );
	return out;
}

static void tf_put( const char* path, const char* text )
{
	int fd = open( path, O_WRONLY | O_CREAT | O_TRUNC, 0644 );
	CU_ASSERT_FATAL( fd >= 0 );
	CU_ASSERT_FATAL( write( fd, text, strlen( text ) ) == (ssize_t)strlen( text ) );
	close( fd );
}

/* The whole content of a file ("" if missing) into a static buffer. */
static const char* tf_get( const char* path )
{
	static char buf[8192];
	buf[0] = '\0';
	int fd = open( path, O_RDONLY );
	if ( fd < 0 ) return buf;
	ssize_t n          = read( fd, buf, sizeof buf - 1 );
	buf[n > 0 ? n : 0] = '\0';
	close( fd );
	return buf;
}

static int tf_is_regular( const char* path )
{
	struct stat st;
	return lstat( path, &st ) == 0 && S_ISREG( st.st_mode );
}

/* Entries of the test directory whose name starts with prefix. */
static int tf_count_prefix( const char* prefix )
{
	char cmd[512], line[64];
	snprintf( cmd, sizeof cmd, "ls -A '%s' | grep -c '^%s' 2>/dev/null", tf_dir, prefix );
	FILE* p = popen( cmd, "r" );
	int   n = 0;
	if ( p && fgets( line, sizeof line, p ) ) n = atoi( line );
	if ( p ) pclose( p );
	return n;
}

/* ------------------------------------------------------------------ reading */

static void test_read_regular( void )
{
	char p[320];
	tf_put( tf_path( p, sizeof p, "plain" ), "HYBLAS_TILE=64\nline two\n" );
	char*  text = NULL;
	size_t len  = 0;
	CU_ASSERT_EQUAL( hyb_file_read( p, HYB_FILE_READ_MAX, &text, &len, NULL, 0 ), HYB_OK );
	CU_ASSERT_PTR_NOT_NULL_FATAL( text );
	CU_ASSERT_STRING_EQUAL( text, "HYBLAS_TILE=64\nline two\n" );
	CU_ASSERT_EQUAL( len, strlen( text ) );
	free( text );

	/* Through a link the user made: read (a deliberate link is legitimate). */
	char l[320];
	tf_path( l, sizeof l, "plain.link" );
	unlink( l );
	CU_ASSERT_FATAL( symlink( p, l ) == 0 );
	CU_ASSERT_EQUAL( hyb_file_read( l, HYB_FILE_READ_MAX, &text, NULL, NULL, 0 ), HYB_OK );
	CU_ASSERT( text && strncmp( text, "HYBLAS_TILE", 11 ) == 0 );
	free( text );

	char why[128] = "";
	CU_ASSERT_EQUAL( hyb_file_read( tf_path( p, sizeof p, "missing" ), HYB_FILE_READ_MAX, &text,
	                                NULL, why, sizeof why ),
	                 HYB_E_IO );
	CU_ASSERT_PTR_NULL( text );
	CU_ASSERT( strstr( why, "No such file" ) != NULL );
}

/* A FIFO with no writer: open(O_RDONLY) alone would wait forever. */
static int tf_read_fifo_child( void* arg )
{
	char* text = NULL;
	char  why[128];
	if ( hyb_file_read( arg, HYB_FILE_READ_MAX, &text, NULL, why, sizeof why ) != HYB_E_INVALID )
		return 1;
	return strstr( why, "FIFO" ) != NULL && text == NULL ? 0 : 2;
}

static void test_read_refuses_special( void )
{
	char f[320];
	tf_path( f, sizeof f, "fifo.read" );
	unlink( f );
	CU_ASSERT_FATAL( mkfifo( f, 0600 ) == 0 );
	CU_ASSERT_EQUAL( hyb_t_isolated( "read of a FIFO", tf_read_fifo_child, f, 10 ), 0 );
	unlink( f );

	const char* special[] = { tf_dir, "/dev/null" };
	for ( int i = 0; i < 2; i++ )
	{
		char* text = NULL;
		char  why[128];
		CU_ASSERT_EQUAL(
		    hyb_file_read( special[i], HYB_FILE_READ_MAX, &text, NULL, why, sizeof why ),
		    HYB_E_INVALID );
		CU_ASSERT_PTR_NULL( text );
		CU_ASSERT( strstr( why, i == 0 ? "directory" : "device" ) != NULL );
	}
}

static void test_read_bound( void )
{
	char  p[320];
	char  big[2001];
	char* text = NULL;
	memset( big, 'x', 2000 );
	big[2000] = '\0';
	tf_put( tf_path( p, sizeof p, "big" ), big );
	CU_ASSERT_EQUAL( hyb_file_read( p, 2000, &text, NULL, NULL, 0 ), HYB_OK );
	CU_ASSERT( text && strlen( text ) == 2000 );
	free( text );
	text = NULL;
	char why[128];
	CU_ASSERT_EQUAL( hyb_file_read( p, 1999, &text, NULL, why, sizeof why ), HYB_E_INVALID );
	CU_ASSERT_PTR_NULL( text );
	CU_ASSERT( strstr( why, "larger than" ) != NULL );
}

static void test_next_line( void )
{
	char longline[300];
	char text[600];
	char line[64];
	int  overlong = 0, lineno = 0;
	memset( longline, 'y', sizeof longline - 1 );
	longline[sizeof longline - 1] = '\0';
	snprintf( text, sizeof text, "first\n%s\nlast", longline );
	const char* cur = text;
	CU_ASSERT_EQUAL( hyb_file_next_line( &cur, line, sizeof line, &overlong, &lineno ), 1 );
	CU_ASSERT_STRING_EQUAL( line, "first" );
	CU_ASSERT_EQUAL( overlong, 0 );
	/* Never cut: skipped whole and said so. */
	CU_ASSERT_EQUAL( hyb_file_next_line( &cur, line, sizeof line, &overlong, &lineno ), 1 );
	CU_ASSERT_STRING_EQUAL( line, "" );
	CU_ASSERT_EQUAL( overlong, 1 );
	CU_ASSERT_EQUAL( hyb_file_next_line( &cur, line, sizeof line, &overlong, &lineno ), 1 );
	CU_ASSERT_STRING_EQUAL( line, "last" );
	CU_ASSERT_EQUAL( overlong, 0 );
	CU_ASSERT_EQUAL( lineno, 3 );
	CU_ASSERT_EQUAL( hyb_file_next_line( &cur, line, sizeof line, &overlong, &lineno ), 0 );
	/* A line of exactly cap - 1 characters fits. */
	memset( line, 0, sizeof line );
	char fit[64];
	memset( fit, 'z', 63 );
	fit[63] = '\0';
	cur     = fit;
	CU_ASSERT_EQUAL( hyb_file_next_line( &cur, line, sizeof line, &overlong, NULL ), 1 );
	CU_ASSERT_EQUAL( strlen( line ), 63 );
	CU_ASSERT_EQUAL( overlong, 0 );
}

/* ------------------------------------------------------------------ replacing */

/* Plant a link to victim where the writer of `path` creates its temporary
   file (<path>.tmp.<pid>); its name into tmp. */
static void tf_plant_link( const char* path, const char* victim, char* tmp, size_t cap )
{
	snprintf( tmp, cap, "%s.tmp.%ld", path, (long)getpid() );
	unlink( tmp );
	CU_ASSERT_FATAL( symlink( victim, tmp ) == 0 );
}

/* A link planted where the writer puts its temporary file (<path>.tmp.<pid>)
   must not redirect the write: the victim keeps its content. */
static void test_replace_planted_link( void )
{
	char path[320], victim[320], tmp[400];
	tf_path( path, sizeof path, "rates" );
	tf_put( tf_path( victim, sizeof victim, "victim" ), "precious\n" );
	tf_plant_link( path, victim, tmp, sizeof tmp );
	CU_ASSERT_EQUAL( hyb_file_replace( path, "new\n", 4, 0644 ), HYB_OK );
	CU_ASSERT_STRING_EQUAL( tf_get( victim ), "precious\n" );
	CU_ASSERT_STRING_EQUAL( tf_get( path ), "new\n" );
	CU_ASSERT( tf_is_regular( path ) );

	/* The learned rates file, as dgtsv_ writes it after a measured call. */
	char gtsv[320], gtmp[400];
	tf_path( gtsv, sizeof gtsv, "profile.learn" );
	tf_plant_link( gtsv, victim, gtmp, sizeof gtmp );
	static hyb_learn_table_t P, Q;
	hyb_learn_key_t          cpu = hyb_policy_gtsv_learn_key( 'd', HYB_GTSV_LEARN_ALONE, 0, 0 );
	hyb_learn_table_init( &P );
	CU_ASSERT_EQUAL( hyb_learn_table_fold( &P, cpu, HYB_LEARN_CPU, 1e8, 1 ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_write( gtsv, &P ), HYB_OK );
	CU_ASSERT_STRING_EQUAL( tf_get( victim ), "precious\n" );
	char line[64];
	snprintf( line, sizeof line, "learn gtsv 0x%llx cpu 100000000 1", (unsigned long long)cpu.cls );
	CU_ASSERT( strstr( tf_get( gtsv ), line ) != NULL );
	CU_ASSERT_EQUAL( hyb_learn_table_read( gtsv, &Q ), HYB_OK );
	CU_ASSERT_EQUAL( hyb_learn_table_rate( &Q, cpu, HYB_LEARN_CPU ).value, 1e8 );
	unlink( tmp );
	unlink( gtmp );

	/* A link at the target itself is replaced, not written through. */
	unlink( path );
	CU_ASSERT_FATAL( symlink( victim, path ) == 0 );
	CU_ASSERT_EQUAL( hyb_file_replace( path, "again\n", 6, 0644 ), HYB_OK );
	CU_ASSERT_STRING_EQUAL( tf_get( victim ), "precious\n" );
	CU_ASSERT_STRING_EQUAL( tf_get( path ), "again\n" );
	CU_ASSERT( tf_is_regular( path ) );
	CU_ASSERT_EQUAL( tf_count_prefix( "rates.tmp" ), 0 );
}

static void test_replace_failures( void )
{
	char path[320];
	/* A directory that does not exist, and a target that is a directory:
	   nothing changes and no temporary file is left behind. */
	CU_ASSERT_EQUAL( hyb_file_replace( tf_path( path, sizeof path, "nodir/file" ), "x", 1, 0644 ),
	                 HYB_E_IO );
	tf_path( path, sizeof path, "adir" );
	CU_ASSERT_FATAL( mkdir( path, 0755 ) == 0 || errno == EEXIST );
	CU_ASSERT_EQUAL( hyb_file_replace( path, "x", 1, 0644 ), HYB_E_IO );
	CU_ASSERT_EQUAL( tf_count_prefix( "adir.tmp" ), 0 );
	rmdir( path );
}

/* ------------------------------------------------------------------ sinks */

/* Opened at the first write, not before; a program that closes the
   descriptor and opens its own file under the same number keeps its file
   intact, and the lines go on reaching the sink's file. */
static void test_sink_lazy_and_reuse( void )
{
	char       path[320], data[320];
	hyb_sink_t s = HYB_SINK_INIT;
	tf_path( path, sizeof path, "sink.log" );
	unlink( path );
	hyb_sink_set( &s, path );
	CU_ASSERT( hyb_sink_active( &s ) );
	CU_ASSERT_EQUAL( access( path, F_OK ), -1 ); /* nothing opened yet */
	CU_ASSERT_EQUAL( hyb_sink_write( &s, "one\n", 4, NULL ), HYB_OK );
	int fd = atomic_load( &s.fd );
	CU_ASSERT_FATAL( fd >= 0 );

	/* The program closes what it did not open and opens its data file, which
	   gets the same number. */
	close( fd );
	tf_path( data, sizeof data, "program.data" );
	int dfd = open( data, O_RDWR | O_CREAT | O_TRUNC, 0644 );
	CU_ASSERT_FATAL( dfd == fd );
	CU_ASSERT_FATAL( write( dfd, "DATA", 4 ) == 4 );
	int refused = 0;
	CU_ASSERT_EQUAL( hyb_sink_write( &s, "two\n", 4, &refused ), HYB_OK );
	CU_ASSERT_EQUAL( refused, 0 );
	CU_ASSERT_STRING_EQUAL( tf_get( data ), "DATA" );
	CU_ASSERT_STRING_EQUAL( tf_get( path ), "one\ntwo\n" );
	/* Unsetting the sink never closes the program's descriptor. */
	int sfd = atomic_load( &s.fd );
	CU_ASSERT( sfd >= 0 && sfd != dfd );
	hyb_sink_set( &s, NULL );
	CU_ASSERT( fcntl( dfd, F_GETFD ) >= 0 );
	CU_ASSERT( fcntl( sfd, F_GETFD ) < 0 ); /* ours was closed */
	close( dfd );
	CU_ASSERT_EQUAL( hyb_sink_write( &s, "x", 1, NULL ), HYB_E_IO );
}

static int tf_sink_fifo_child( void* arg )
{
	hyb_sink_t s = HYB_SINK_INIT;
	hyb_sink_set( &s, arg );
	int refused = 0;
	if ( hyb_sink_write( &s, "line\n", 5, &refused ) != HYB_E_IO || !refused ) return 1;
	return strstr( s.why, "FIFO" ) ? 0 : 2;
}

/* Links, FIFOs, directories and other users' files are refused, once, with
   a reason; later writes fail quietly. */
static void test_sink_refuses( void )
{
	char victim[320], link[320], fifo[320];
	tf_put( tf_path( victim, sizeof victim, "sink.victim" ), "precious\n" );
	tf_path( link, sizeof link, "sink.link" );
	unlink( link );
	CU_ASSERT_FATAL( symlink( victim, link ) == 0 );
	hyb_sink_t s = HYB_SINK_INIT;
	hyb_sink_set( &s, link );
	int refused = 0;
	CU_ASSERT_EQUAL( hyb_sink_write( &s, "evil\n", 5, &refused ), HYB_E_IO );
	CU_ASSERT_EQUAL( refused, 1 );
	CU_ASSERT( strstr( s.why, "link" ) != NULL );
	CU_ASSERT_EQUAL( hyb_sink_write( &s, "evil\n", 5, &refused ), HYB_E_IO );
	CU_ASSERT_EQUAL( refused, 0 ); /* reported once */
	CU_ASSERT_FALSE( hyb_sink_active( &s ) );
	CU_ASSERT_STRING_EQUAL( tf_get( victim ), "precious\n" );

	tf_path( fifo, sizeof fifo, "sink.fifo" );
	unlink( fifo );
	CU_ASSERT_FATAL( mkfifo( fifo, 0600 ) == 0 );
	CU_ASSERT_EQUAL( hyb_t_isolated( "sink on a FIFO", tf_sink_fifo_child, fifo, 10 ), 0 );
	unlink( fifo );

	hyb_sink_set( &s, tf_dir );
	CU_ASSERT_EQUAL( hyb_sink_write( &s, "x\n", 2, &refused ), HYB_E_IO );
	CU_ASSERT_EQUAL( refused, 1 );

	/* A file of another user (only root can make one here). */
	if ( geteuid() == 0 )
	{
		char other[320];
		tf_put( tf_path( other, sizeof other, "sink.other" ), "theirs\n" );
		CU_ASSERT_FATAL( chown( other, 65534, 65534 ) == 0 );
		hyb_sink_set( &s, other );
		CU_ASSERT_EQUAL( hyb_sink_write( &s, "x\n", 2, &refused ), HYB_E_IO );
		CU_ASSERT_EQUAL( refused, 1 );
		CU_ASSERT( strstr( s.why, "another user" ) != NULL );
		CU_ASSERT_STRING_EQUAL( tf_get( other ), "theirs\n" );
	}

	/* The process's own stream by name: written as it is. */
	hyb_sink_set( &s, "/dev/stderr" );
	CU_ASSERT_EQUAL( atomic_load( &s.fd ), 2 );
	hyb_sink_set( &s, NULL );
}

/* ------------------------------------------------------------------ secure execution */

static void test_secure_nothing( void )
{
	char p[320], w[320];
	tf_put( tf_path( p, sizeof p, "secure.read" ), "HYBLAS_MODE=gpu\n" );
	tf_path( w, sizeof w, "secure.written" );
	unlink( w );
	hyb_secure_force_for_test( 1 );
	char* text = NULL;
	CU_ASSERT_EQUAL( hyb_file_read( p, HYB_FILE_READ_MAX, &text, NULL, NULL, 0 ), HYB_E_FORBIDDEN );
	CU_ASSERT_PTR_NULL( text );
	CU_ASSERT_EQUAL( hyb_file_replace( w, "x", 1, 0644 ), HYB_E_FORBIDDEN );
	hyb_sink_t s = HYB_SINK_INIT;
	hyb_sink_set( &s, w );
	int refused = 0;
	CU_ASSERT_EQUAL( hyb_sink_write( &s, "x\n", 2, &refused ), HYB_E_IO );
	CU_ASSERT_EQUAL( refused, 1 );
	CU_ASSERT_EQUAL( access( w, F_OK ), -1 );
	hyb_secure_force_for_test( -1 );
	CU_ASSERT_EQUAL( hyb_secure_mode(), 0 ); /* the test runs without privileges gained on exec */
	hyb_sink_set( &s, NULL );
}

static int tf_init( void )
{
	snprintf( tf_dir, sizeof tf_dir, "/tmp/hyb_test_file_XXXXXX" );
	return mkdtemp( tf_dir ) == NULL;
}

static int tf_cleanup( void )
{
	char cmd[320];
	snprintf( cmd, sizeof cmd, "rm -rf '%s'", tf_dir );
	return system( cmd ) != 0;
}

static CU_TestInfo hyb_tests_files[] = {
	{ "read_regular", test_read_regular },
	{ "read_refuses_special", test_read_refuses_special },
	{ "read_bound", test_read_bound },
	{ "next_line", test_next_line },
	{ "replace_planted_link", test_replace_planted_link },
	{ "replace_failures", test_replace_failures },
	{ "sink_lazy_and_reuse", test_sink_lazy_and_reuse },
	{ "sink_refuses", test_sink_refuses },
	{ "secure_nothing", test_secure_nothing },
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo hyb_suite_files = { "files", tf_init, tf_cleanup, NULL, NULL, hyb_tests_files };
