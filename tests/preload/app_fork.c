/* SPDX-License-Identifier: BSD-3-Clause */
/* fork() after the device layer started: the parent calls dgemm_ (so that,
   in gpu mode, the device and its threads exist), forks; the child calls
   dgemm_ and checks it (it must not touch the parent's device state), the
   parent checks another call after the child exited; both correct.
   Usage: app_fork [--trace FILE --parent-path P --child-path P] */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hyb_bb_blas.h"
#include "hyb_bb_check.h"
#include "hyb_bb_trace.h"

/* One checked dgemm_ of the given size; returns 1 when correct. */
static int hyb_checked_dgemm( uint64_t seed, int m, int n, int k, const char* who )
{
	hyb_bb_rng_t r;
	hyb_bb_rng_seed( &r, seed );
	char what[80];
	snprintf( what, sizeof what, "%s dgemm_ %dx%dx%d", who, m, n, k );
	return hyb_bb_dgemm_checked( dgemm_, &r, 'N', 'N', m, n, k, 1.25, 0.5, what );
}

int main( int argc, char** argv )
{
	const char* trace       = NULL;
	const char* parent_path = NULL;
	const char* child_path  = NULL;
	for ( int i = 1; i < argc; i++ )
	{
		if ( strcmp( argv[i], "--trace" ) == 0 && i + 1 < argc )
			trace = argv[++i];
		else if ( strcmp( argv[i], "--parent-path" ) == 0 && i + 1 < argc )
			parent_path = argv[++i];
		else if ( strcmp( argv[i], "--child-path" ) == 0 && i + 1 < argc )
			child_path = argv[++i];
		else
		{
			fprintf( stderr, "usage: %s [--trace FILE --parent-path P --child-path P]\n", argv[0] );
			return 2;
		}
	}
	if ( trace ) hyb_bb_expect( hyb_bb_trace_reset( trace ) == 0, "cannot truncate %s", trace );

	hyb_checked_dgemm( 1, 150, 130, 110, "parent before fork:" );
	fflush( stdout );

	pid_t pid = fork();
	if ( pid < 0 )
	{
		perror( "fork" );
		return 1;
	}
	if ( pid == 0 )
	{
		/* The child: two calls (the second after the first set up whatever
		   the child's path needs), then a plain exit. */
		int ok = hyb_checked_dgemm( 2, 120, 140, 90, "child:" );
		ok &= hyb_checked_dgemm( 3, 64, 64, 64, "child:" );
		fflush( stdout );
		_exit( ok ? 0 : 3 );
	}
	int status = 0;
	if ( waitpid( pid, &status, 0 ) != pid ) perror( "waitpid" );
	hyb_bb_expect( WIFEXITED( status ) && WEXITSTATUS( status ) == 0,
	               "the child did not exit 0 (status 0x%x%s)", (unsigned)status,
	               WIFSIGNALED( status ) ? ", killed by a signal" : "" );

	hyb_checked_dgemm( 4, 100, 170, 120, "parent after fork:" );

	if ( trace )
	{
		/* In order: parent, child, child, parent (the parent waited). */
		static hyb_bb_trace_line_t t[16];
		int                        n = hyb_bb_trace_read( trace, t, 16 );
		hyb_bb_trace_print( t, n );
		if ( hyb_bb_expect( n == 4, "trace: %d lines, want 4", n ) )
		{
			if ( parent_path )
				hyb_bb_expect( strcmp( t[0].path, parent_path ) == 0 &&
				                   strcmp( t[3].path, parent_path ) == 0,
				               "trace: the parent's calls took paths %s and %s, want %s", t[0].path,
				               t[3].path, parent_path );
			if ( child_path )
				hyb_bb_expect( strcmp( t[1].path, child_path ) == 0 &&
				                   strcmp( t[2].path, child_path ) == 0,
				               "trace: the child's calls took paths %s and %s, want %s", t[1].path,
				               t[2].path, child_path );
		}
	}
	return hyb_bb_finish( "app_fork" );
}
