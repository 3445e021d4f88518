/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading hyblas's trace file (see hyb_bb_trace.h). */
#define _GNU_SOURCE
#include "hyb_bb_trace.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int hyb_bb_trace_reset( const char* file )
{
	return truncate( file, 0 );
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

void hyb_bb_trace_print( const hyb_bb_trace_line_t* t, int n )
{
	for ( int i = 0; i < n; i++ )
		printf( "trace: %-14s m=%lld n=%lld k=%lld path=%s\n",
		        t[i].routine[0] ? t[i].routine : "(unparsed)", t[i].m, t[i].n, t[i].k, t[i].path );
}
