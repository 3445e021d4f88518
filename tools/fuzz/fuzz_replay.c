/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs a fuzzer's harness over a packed corpus without libFuzzer, so that every build CI
   makes (gcc, Release, ASan+UBSan) replays the committed inputs: fuzz_replay_NAME FILE ...
   calls LLVMFuzzerTestOneInput once per input of each FILE (tools/fuzz/corpus.py's format:
   a 4-byte little-endian length, then the bytes). A harness that finds its contract broken
   aborts, and so the test fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"

/* The whole of `path` in a malloc'd buffer (*len bytes), or NULL. */
static uint8_t* fz_slurp( const char* path, size_t* len )
{
	FILE* f = fopen( path, "rb" );
	if ( f == NULL ) return NULL;
	uint8_t* buf = NULL;
	size_t   cap = 0;
	*len         = 0;
	for ( ;; )
	{
		if ( *len == cap )
		{
			cap        = cap ? 2 * cap : 65536;
			uint8_t* b = realloc( buf, cap );
			if ( b == NULL ) break;
			buf = b;
		}
		const size_t got = fread( buf + *len, 1, cap - *len, f );
		if ( got == 0 ) break;
		*len += got;
	}
	const int bad = ferror( f ) || ( *len == cap && cap > 0 && !feof( f ) );
	fclose( f );
	if ( bad )
	{
		free( buf );
		return NULL;
	}
	return buf;
}

int main( int argc, char** argv )
{
	long inputs = 0;
	for ( int i = 1; i < argc; i++ )
	{
		size_t   len = 0;
		uint8_t* all = fz_slurp( argv[i], &len );
		if ( all == NULL ) return perror( argv[i] ), 1;
		for ( size_t at = 0; at < len; )
		{
			if ( len - at < 4 ) return fprintf( stderr, "%s: truncated\n", argv[i] ), 1;
			const size_t n = (size_t)all[at] | (size_t)all[at + 1] << 8 |
			                 (size_t)all[at + 2] << 16 | (size_t)all[at + 3] << 24;
			if ( n > len - at - 4 ) return fprintf( stderr, "%s: truncated\n", argv[i] ), 1;
			/* A copy of its own, so that a harness reading past its input is caught. */
			uint8_t* one = malloc( n ? n : 1 );
			if ( one == NULL ) return 1;
			memcpy( one, all + at + 4, n );
			LLVMFuzzerTestOneInput( one, n );
			free( one );
			at += 4 + n;
			inputs++;
		}
		free( all );
	}
	printf( "%s: %ld inputs, every contract held\n", argv[0], inputs );
	return inputs > 0 ? 0 : 1;
}
