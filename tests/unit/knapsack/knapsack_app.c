/* SPDX-License-Identifier: BSD-3-Clause */
/* A program linked to libhyblas alone that calls the exported knapsack
   API: every method on random instances against its own brute force, the
   caller's arrays untouched, bad input refused, every call that ran
   counted (hyb_calls) and, given the HYBLAS_TRACE file as its argument,
   traced once. Exit 0 on success. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hyblas_ext.h"

static unsigned long long app_state = 12345;

static long long app_rand( long long hi )
{
	app_state = app_state * 6364136223846793005ull + 1442695040888963407ull;
	return (long long)( ( app_state >> 33 ) % (unsigned long long)hi );
}

/* Lines of the trace file `path` of the knapsack operation, and how many of
   them ran on the (simulated) device. */
static int app_trace_lines( const char* path, int* gpu )
{
	FILE* f = fopen( path, "r" );
	if ( !f ) return -1;
	char line[2048];
	int  count = 0;
	*gpu       = 0;
	while ( fgets( line, sizeof line, f ) )
		if ( strncmp( line, "hyblas_knapsack_solve ", 22 ) == 0 &&
		     strstr( line, " op=knapsack " ) && strstr( line, " why=\"" ) )
		{
			count++;
			*gpu += strstr( line, " path=gpu " ) != NULL;
		}
	fclose( f );
	return count;
}

int main( int argc, char** argv )
{
	int fails = 0;
	if ( argc > 1 ) unlink( argv[1] ); /* the trace opens at the first traced call */
	for ( int t = 0; t < 40; t++ )
	{
		int64_t n = 1 + app_rand( 18 ), p[18], w[18], pc[18], wc[18], sum = 0;
		for ( int64_t i = 0; i < n; i++ )
		{
			w[i] = 1 + app_rand( 50 );
			p[i] = app_rand( 60 );
			sum += w[i];
		}
		const int64_t c    = app_rand( sum + 1 );
		int64_t       best = 0;
		for ( long long mask = 0; mask < ( 1ll << n ); mask++ )
		{
			int64_t ww = 0, pp = 0;
			for ( int64_t i = 0; i < n; i++ )
				if ( mask >> i & 1 )
				{
					ww += w[i];
					pp += p[i];
				}
			if ( ww <= c && pp > best ) best = pp;
		}
		memcpy( pc, p, sizeof p );
		memcpy( wc, w, sizeof w );
		for ( int m = HYBLAS_KNAPSACK_AUTO; m <= HYBLAS_KNAPSACK_GPU_DP; m++ )
		{
			hyblas_knapsack_options_t o;
			memset( &o, 0, sizeof o );
			o.struct_size         = sizeof o;
			o.method              = (hyblas_knapsack_method_t)m;
			o.host_buffer_bytes   = 1 << 16;
			o.device_buffer_bytes = 1 << 16;
			o.cpu_threshold       = 4;
			hyblas_knapsack_stats_t s;
			memset( &s, 0, sizeof s );
			s.struct_size     = sizeof s;
			int64_t         z = -1;
			uint8_t         x[18];
			hyblas_status_t rs = hyblas_knapsack_solve( n, p, w, c, &o, &z, x, &s );
			int64_t         xw = 0, xp = 0;
			for ( int64_t i = 0; i < n; i++ )
				if ( x[i] )
				{
					xw += w[i];
					xp += p[i];
				}
			if ( rs != HYBLAS_OK || z != best || xw > c || xp != best ||
			     memcmp( p, pc, sizeof p ) || memcmp( w, wc, sizeof w ) )
			{
				printf( "FAIL instance %d method %s: status %s, %lld (want %lld), selection "
				        "%lld/%lld\n",
				        t, hyblas_knapsack_method_name( o.method ), hyblas_status_string( rs ),
				        (long long)z, (long long)best, (long long)xp, (long long)xw );
				fails++;
			}
		}
	}
	int64_t       z  = -5;
	const int64_t bw = -1, bp = 1;
	if ( hyblas_knapsack_solve( 1, &bp, &bw, 3, NULL, &z, NULL, NULL ) != HYBLAS_E_INVALID ||
	     z != -5 )
	{
		printf( "FAIL a negative weight was not refused\n" );
		fails++;
	}
	/* 40 instances x 7 methods ran; the refused call is not counted */
	unsigned long long counts[4] = { 0, 0, 0, 0 };
	if ( hyb_calls( "hyblas_knapsack_solve", counts ) != 0 ||
	     counts[0] + counts[1] + counts[2] + counts[3] != 280 || counts[1] == 0 )
	{
		printf( "FAIL counts: cpu %llu gpu %llu split %llu fallback %llu\n", counts[0], counts[1],
		        counts[2], counts[3] );
		fails++;
	}
	if ( argc > 1 )
	{
		int gpu = 0, lines = app_trace_lines( argv[1], &gpu );
		if ( lines != 280 || (unsigned long long)gpu != counts[1] )
		{
			printf( "FAIL trace %s: %d lines (want 280), %d on the device\n", argv[1], lines, gpu );
			fails++;
		}
	}
	printf( "%s\n", fails ? "FAILED" : "PASSED" );
	return fails != 0;
}
