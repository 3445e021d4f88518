/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading hyblas's trace file (see hyb_bb_trace.h). */
#define _GNU_SOURCE
#include "hyb_bb_trace.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hyb_bb_check.h"

int hyb_bb_trace_reset( const char* file )
{
	/* Created when missing: hyblas opens its trace at the first line it
	   writes, so on a first run the file does not exist yet. */
	int fd = open( file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644 );
	if ( fd < 0 ) return -1;
	return close( fd );
}

int hyb_bb_trace_read( const char* file, hyb_bb_trace_line_t* out, int max )
{
	FILE* f = fopen( file, "r" );
	if ( f == NULL ) return -1;
	char line[2048];
	int  n = 0;
	while ( n < max && fgets( line, sizeof line, f ) )
	{
		hyb_bb_trace_line_t* t = &out[n++];
		memset( t, 0, sizeof *t );
		char op[32];
		if ( sscanf( line, "%63s op=%31s m=%lld n=%lld k=%lld path=%15s", t->routine, op, &t->m,
		             &t->n, &t->k, t->path ) != 6 )
			t->routine[0] = '\0';
	}
	fclose( f );
	return n;
}

int hyb_bb_trace_count( const hyb_bb_trace_line_t* t, int n, const char* routine, const char* path )
{
	int c = 0;
	for ( int i = 0; i < n; i++ )
		if ( strcmp( t[i].routine, routine ) == 0 &&
		     ( path == NULL || strcmp( t[i].path, path ) == 0 ) )
			c++;
	return c;
}

int hyb_bb_trace_matches_counts( const hyb_bb_trace_line_t* t, int n )
{
	typedef int ( *calls_fn )( const char*, unsigned long long[4] );
	static const char* paths[4] = { "cpu", "gpu", "split", "fallback" }; /* hyb_calls' order */
	calls_fn           calls    = (calls_fn)dlsym( RTLD_DEFAULT, "hyb_calls" );
	if ( !hyb_bb_expect( calls != NULL, "libhyblas exports no hyb_calls" ) ) return 0;
	unsigned long long c[4] = { 7, 7, 7, 7 };
	int                ok   = hyb_bb_expect( calls( "not_a_blas_name_", c ) == -1 && c[0] == 7,
	                                         "hyb_calls accepted an unknown name" );
	for ( int i = 0; i < n; i++ )
	{
		int first = 1; /* each routine once, at its first line */
		for ( int j = 0; j < i && first; j++ ) first = strcmp( t[j].routine, t[i].routine ) != 0;
		if ( !first ) continue;
		if ( !hyb_bb_expect( calls( t[i].routine, c ) == 0, "hyb_calls refused %s", t[i].routine ) )
		{
			ok = 0;
			continue;
		}
		for ( int p = 0; p < 4; p++ )
		{
			int seen = hyb_bb_trace_count( t, n, t[i].routine, paths[p] );
			ok &= hyb_bb_expect( c[p] == (unsigned long long)seen,
			                     "hyb_calls: %s %llu calls on %s, the trace %d", t[i].routine, c[p],
			                     paths[p], seen );
		}
	}
	return ok;
}

void hyb_bb_trace_print( const hyb_bb_trace_line_t* t, int n )
{
	for ( int i = 0; i < n; i++ )
		printf( "trace: %-14s m=%lld n=%lld k=%lld path=%s\n",
		        t[i].routine[0] ? t[i].routine : "(unparsed)", t[i].m, t[i].n, t[i].k, t[i].path );
}
